"""algorithms.connected_components: weak (Afforest, FastSV) and strong (trimming + coloring,
Tarjan) against SciPy's csgraph and NetworkX, on both backends; the fused mechanism
sr.connectivity.weak_components on its own."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import to_host
from graphalg_cases import by_least_vertex, canonical, edge_lists
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse.csgraph import connected_components as scipy_cc

import algorithms
import semiring as sr


def _reference(A, connection):
    S = A.to_cpu().to_scipy() if A.device == "gpu" else A.to_scipy()
    return by_least_vertex(scipy_cc(S, directed=True, connection=connection)[1])


@given(case=edge_lists())
def test_weak_matches_scipy(device, case):
    A = canonical(*case, device)
    got = algorithms.connected_components(A)
    assert sr.device_of(got) == device and got.dtype == np.int32
    np.testing.assert_array_equal(to_host(got), _reference(A, "weak"))


def _int64(A):
    """A with int64 index arrays (the kernels' other instantiation)."""
    B = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values, A.shape,
                  iso_value=A.iso_value, dtype=A.dtype)
    assert B.itype == np.int64
    return B


@pytest.mark.parametrize("method", ["afforest", "fastsv"])
@given(case=edge_lists(), int64=st.booleans())
def test_weak_methods_match_scipy(device, method, case, int64):
    A = canonical(*case, device)
    A = _int64(A) if int64 else A
    got = algorithms.connected_components(A, method=method)
    assert sr.device_of(got) == device and got.dtype == np.int32
    np.testing.assert_array_equal(to_host(got), _reference(A, "weak"))


def _symmetrized(n, rows, cols, vals, device):
    return canonical(n, np.concatenate([rows, cols]), np.concatenate([cols, rows]),
                     np.concatenate([vals, vals]), device)


@given(case=edge_lists(max_n=60), rounds=st.integers(0, 4), samples=st.integers(1, 1024),
       int64=st.booleans())
def test_weak_components_mechanism(device, case, rounds, samples, int64):
    # the labels do not depend on the sampling (rounds, sample size): only the work does
    n, rows, cols, vals = case
    A = canonical(*case, device)
    A = _int64(A) if int64 else A
    ref = _reference(A, "weak")
    got = sr.connectivity.weak_components(A, neighbor_rounds=rounds, samples=samples)
    assert sr.device_of(got) == device and got.dtype == np.int32
    np.testing.assert_array_equal(to_host(got), ref)
    # roots: each component's least vertex, from the same labels
    roots = sr.connectivity.weak_components(A, neighbor_rounds=rounds, samples=samples,
                                            roots=True)
    assert sr.device_of(roots) == device and roots.dtype == np.int32
    least = np.full(n, n)                   # least[c] = the least vertex labelled c
    np.minimum.at(least, ref, np.arange(n))
    np.testing.assert_array_equal(to_host(roots), least[ref])
    # a symmetric pattern: the last pass skips the most frequent component's rows
    S = _symmetrized(n, rows, cols, vals, device)
    S = _int64(S) if int64 else S
    for M, promise in ((S, True), (S.as_symmetric(), False)):
        got = sr.connectivity.weak_components(M, symmetric=promise, neighbor_rounds=rounds,
                                              samples=samples)
        np.testing.assert_array_equal(to_host(got), ref)
        got = sr.connectivity.weak_components(M, symmetric=promise, neighbor_rounds=rounds,
                                              samples=samples, roots=True)
        np.testing.assert_array_equal(to_host(got), least[ref])


def _awkward_graph(seed=0):
    """One graph of the shapes that stress a union-find: a randomly numbered directed chain of
    60 000 vertices, a hub with 20 000 out-edges only (a directed star), 10 000 pairs, a
    symmetric random part, isolated vertices and self-loops; returns (n, rows, cols)."""
    rng = np.random.default_rng(seed)
    n = 150_000
    perm = rng.permutation(n)
    chain = perm[:60_000]
    hub, leaves = perm[60_000], perm[60_001:80_001]
    pairs = perm[80_001:100_001].reshape(-1, 2)
    part = perm[100_001:140_001]  # then 9 999 isolated vertices
    ru, rv = rng.choice(part, 30_000), rng.choice(part, 30_000)
    loops = rng.choice(n, 500)
    rows = np.concatenate([chain[:-1], np.full(leaves.size, hub), pairs[:, 0], ru, rv, loops])
    cols = np.concatenate([chain[1:], leaves, pairs[:, 1], rv, ru, loops])
    return n, rows.astype(np.int64), cols.astype(np.int64)


@pytest.mark.parametrize("method", ["auto", "afforest", "fastsv"])
def test_weak_awkward_shapes(device, method):
    n, rows, cols = _awkward_graph()
    A = sr.Matrix.from_coo(rows, cols, None, nrows=n, ncols=n, dup_op=sr.binary.any,
                           device=device)
    ref = _reference(A, "weak")
    assert ref.max() + 1 > 20_000  # many components
    for M in (A, _int64(A)):
        np.testing.assert_array_equal(to_host(algorithms.connected_components(M, method=method)),
                                      ref)
    S = _symmetrized(n, rows, cols, np.ones(rows.size), device)
    np.testing.assert_array_equal(
        to_host(algorithms.connected_components(S, method=method, symmetric=True)), ref)


@pytest.mark.parametrize("sample_link", ["gap", "split", "ecl"])
@pytest.mark.parametrize("rest_link", ["gap", "split", "ecl"])
def test_weak_components_link_variants(device, sample_link, rest_link, monkeypatch):
    # every way the GPU's kernels may link (semiring.backend.gpu.components.LINKS), with and
    # without the skip, int32 and int64 indices (on the CPU: its one search)
    from semiring.backend.gpu import components as gcc  # noqa: PLC0415  (the GPU launcher's knobs)

    monkeypatch.setattr(gcc, "SAMPLE_LINK", sample_link)
    monkeypatch.setattr(gcc, "REST_LINK", rest_link)
    n, rows, cols = _awkward_graph(seed=1)
    A = sr.Matrix.from_coo(rows, cols, None, nrows=n, ncols=n, dup_op=sr.binary.any,
                           device=device)
    ref = _reference(A, "weak")
    S = _symmetrized(n, rows, cols, np.ones(rows.size), device)
    for M, sym in ((A, False), (_int64(A), False), (S, True), (_int64(S), True)):
        for k in (0, 2):
            got = sr.connectivity.weak_components(M, symmetric=sym, neighbor_rounds=k)
            np.testing.assert_array_equal(to_host(got), ref)


def test_afforest_links_one_way_edges(device):
    # a cycle 0..999 (both ways), each of its vertices with one out-edge u → 1000 + u stored in
    # u's row only, after its cycle neighbours: the sampling rounds link the cycle into the
    # most frequent component, so a last pass that skipped that component's rows would miss
    # every out-edge. Without the promise every edge is linked: 1000 + 0 components joined.
    m = 1000
    u = np.arange(m)
    rows = np.concatenate([u, u, u])
    cols = np.concatenate([(u + 1) % m, (u - 1) % m, m + u])
    A = sr.Matrix.from_coo(rows, cols, None, nrows=2 * m, ncols=2 * m, device=device)
    for got in (algorithms.connected_components(A),
                algorithms.connected_components(A, method="afforest"),
                sr.connectivity.weak_components(A)):
        np.testing.assert_array_equal(to_host(got), np.zeros(2 * m, np.int32))
    # the (false) promise is taken: the skip (GPU), or on the CPU the search over the rows
    # of the vertices it reaches (compiled; SciPy's strong search without Numba), which
    # follows u → 1000 + u but not an edge stored in the leaf's row only (1000 + u → u)
    if device != "cpu":
        got = to_host(sr.connectivity.weak_components(A, symmetric=True))
        assert got.max() > 0
    else:
        B = sr.Matrix.from_coo(np.concatenate([u, u, m + u]),
                               np.concatenate([(u + 1) % m, (u - 1) % m, u]), None,
                               nrows=2 * m, ncols=2 * m, device=device)
        np.testing.assert_array_equal(to_host(sr.connectivity.weak_components(B)),
                                      np.zeros(2 * m, np.int32))
        assert to_host(sr.connectivity.weak_components(B, symmetric=True)).max() > 0


@pytest.mark.parametrize("method", ["coloring", "tarjan", "auto"])
@given(case=edge_lists())
def test_strong_matches_scipy(device, method, case):
    A = canonical(*case, device)
    got = algorithms.connected_components(A, "strong", method=method)
    assert sr.device_of(got) == device and got.dtype == np.int32
    np.testing.assert_array_equal(to_host(got), _reference(A, "strong"))


@given(case=edge_lists(max_n=16))
def test_against_networkx(device, case):
    nx = pytest.importorskip("networkx")
    n, rows, cols, _ = case
    A = canonical(*case, device)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(rows.tolist(), cols.tolist()))
    for connection, parts in (("weak", nx.weakly_connected_components),
                              ("strong", nx.strongly_connected_components)):
        labels = to_host(algorithms.connected_components(A, connection, method="auto"
                                                         if connection == "weak" else "coloring"))
        ours = {frozenset(np.flatnonzero(labels == k).tolist()) for k in np.unique(labels)}
        assert ours == {frozenset(c) for c in parts(G)}


@given(case=edge_lists())
def test_symmetric_promise(device, case):
    n, rows, cols, vals = case
    sym = (np.concatenate([rows, cols]), np.concatenate([cols, rows]),
           np.concatenate([vals, vals]))
    A = canonical(n, *sym, device)
    ref = _reference(A, "weak")
    for connection in ("weak", "strong"):
        got = algorithms.connected_components(A, connection, symmetric=True)
        np.testing.assert_array_equal(to_host(got), ref)
    # coloring notices the symmetry itself and runs FastSV (rounds of FastSV, not phases)
    rounds = []
    got = algorithms.connected_components(A, "strong", method="coloring",
                                          progress=lambda r, c: rounds.append(r))
    np.testing.assert_array_equal(to_host(got), ref)


def test_input_kinds_and_values_ignored(device):
    # explicit zeros and self-loops are edges (a self-loop joins nothing); iso matrices work
    A = sr.Matrix.from_coo([0, 1, 2, 3], [1, 0, 2, 3], [0.0, -1.0, 5.0, 0.0], nrows=5, ncols=5,
                           device=device)
    assert to_host(algorithms.connected_components(A)).tolist() == [0, 0, 1, 2, 3]
    assert to_host(algorithms.connected_components(A, "strong", method="coloring")).tolist() \
        == [0, 0, 1, 2, 3]
    S = sp.csr_matrix(np.array([[0, 1], [0, 0]]))
    if device == "cpu":
        assert algorithms.connected_components(S).tolist() == [0, 0]
    E = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert to_host(algorithms.connected_components(E)).shape == (0,)
    assert to_host(algorithms.connected_components(E, "strong", method="coloring")).shape == (0,)


def _path(n, device, seed=0, directed=True):
    perm = np.random.default_rng(seed).permutation(n)
    rows, cols = perm[:-1], perm[1:]
    if not directed:
        rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
    return sr.Matrix.from_coo(rows, cols, None, nrows=n, ncols=n, device=device), perm


@pytest.mark.parametrize("n", [10_000, 100_000])
def test_weak_long_path_takes_log_rounds(device, n):
    # a path with randomly numbered vertices: FastSV's rounds must be O(log n), not O(n)
    A, _ = _path(n, device)
    rounds = []
    labels = algorithms.connected_components(A, method="fastsv",
                                             progress=lambda r, c: rounds.append(r))
    assert int(to_host(labels).max()) == 0
    assert len(rounds) <= 2 * math.ceil(math.log2(n)) + 2, len(rounds)


def test_strong_long_path_and_cycle(device):
    n = 20_000
    A, perm = _path(n, device)
    phases = []
    labels = to_host(algorithms.connected_components(A, "strong", method="coloring",
                                                     progress=lambda r, c: phases.append(r)))
    np.testing.assert_array_equal(labels, np.arange(n))  # every vertex alone
    assert phases == []  # trimming removed the whole path: no coloring round at all
    # a long cycle with a tail: the tail is trimmed, the cycle is one component
    m = 2_000
    cyc = np.arange(m)
    rows = np.concatenate([cyc, np.arange(m, n - 1)])
    cols = np.concatenate([np.roll(cyc, -1), np.arange(m + 1, n)])
    A = sr.Matrix.from_coo(rows, cols, None, nrows=n, ncols=n, device=device)
    labels = to_host(algorithms.connected_components(A, "strong", method="coloring"))
    expect = np.concatenate([np.zeros(m, np.int32), np.arange(1, n - m + 1, dtype=np.int32)])
    np.testing.assert_array_equal(labels, expect)


def test_errors(device):
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match="connected_components: A must be square"):
        algorithms.connected_components(A)
    B = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidValue, match="connection must be one of"):
        algorithms.connected_components(B, "medium")
    with pytest.raises(sr.InvalidValue, match="method must be one of"):
        algorithms.connected_components(B, "strong", method="dfs")
    with pytest.raises(sr.InvalidValue, match="applies to connection='strong'"):
        algorithms.connected_components(B, method="coloring")
    with pytest.raises(sr.InvalidValue, match="applies to connection='weak'"):
        algorithms.connected_components(B, "strong", method="afforest")
    wc = sr.connectivity.weak_components
    with pytest.raises(sr.DimensionMismatch, match="weak_components: A must be square"):
        wc(A)
    with pytest.raises(sr.InvalidValue, match=r"weak_components: samples must lie in \[1, 1024\], got 0"):
        wc(B, samples=0)
    with pytest.raises(sr.InvalidValue, match="samples must lie in .* got 1025"):
        wc(B, samples=1025)
    with pytest.raises(sr.InvalidValue, match="weak_components: neighbor_rounds must be >= 0, got -1"):
        wc(B, neighbor_rounds=-1)
    with pytest.raises(sr.DomainMismatch, match="weak_components: neighbor_rounds must be an int, got float"):
        wc(B, neighbor_rounds=2.0)
    with pytest.raises(sr.DomainMismatch, match=r"weak_components: roots must be a bool \(True or False\), got 'yes' \(str\)"):
        wc(B, roots="yes")
    with pytest.raises(sr.DomainMismatch, match=r"weak_components: symmetric must be a bool \(True or False\), got 1 \(int\)"):
        wc(B, symmetric=1)
    with pytest.raises(sr.DomainMismatch, match="progress must be callable"):
        algorithms.connected_components(B, progress=3)
    with pytest.raises(sr.DomainMismatch, match="connected_components: A must be"):
        algorithms.connected_components(np.eye(2))
