"""algorithms.connected_components: weak (FastSV) and strong (trimming + coloring, Tarjan)
against SciPy's csgraph and NetworkX, on both backends."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from scipy.sparse.csgraph import connected_components as scipy_cc

import algorithms
import semiring as sr
from conftest import to_host
from graphalg_cases import by_least_vertex, canonical, edge_lists


def _reference(A, connection):
    S = A.to_cpu().to_scipy() if A.device == "gpu" else A.to_scipy()
    return by_least_vertex(scipy_cc(S, directed=True, connection=connection)[1])


@given(case=edge_lists())
def test_weak_matches_scipy(device, case):
    A = canonical(*case, device)
    got = algorithms.connected_components(A)
    assert sr.device_of(got) == device and got.dtype == np.int32
    np.testing.assert_array_equal(to_host(got), _reference(A, "weak"))


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
    labels = algorithms.connected_components(A, progress=lambda r, c: rounds.append(r))
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
    with pytest.raises(sr.DomainMismatch, match="progress must be callable"):
        algorithms.connected_components(B, progress=3)
    with pytest.raises(sr.DomainMismatch, match="connected_components: A must be"):
        algorithms.connected_components(np.eye(2))
