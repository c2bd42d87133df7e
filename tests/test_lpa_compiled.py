"""label_propagation's compiled pass (``method="compiled"``: the CPU backend's compiled
colouring and sweeps) against its array path, label for label, and against NetworkX; the
'auto' policy (LABEL_PROPAGATION_AUTO) per device and Numba; with and without Numba."""

from __future__ import annotations

import importlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from conftest import DEVICES, to_host
from graphgen import build, edge_lists, nx_graph, partition
from hypothesis import given
from hypothesis import strategies as st

import algorithms as alg
import semiring as sr
from algorithms import community
from algorithms.cores import undirected_pattern
from semiring.backend.cpu import compiled

needs_numba = pytest.mark.skipif(not compiled.ENABLED, reason="Numba not installed (the "
                                 "`cpu` extra) or SEMIRING_NUMBA=0")


def on(device, a):
    a = np.asarray(a, dtype=np.int64)
    return sr.to_device(a, device)


def lpa(A, method, **kw):
    got = alg.label_propagation(A, method=method, **kw)
    assert sr.device_of(got) == A.device and got.dtype == np.int64 and got.shape == (A.nrows,)
    return to_host(got)


def nx_colours(G):
    col = nx.coloring.greedy_color(G)
    return np.array([col[i] for i in range(G.number_of_nodes())], dtype=np.int64)


@st.composite
def coo_patterns(draw, max_n=24):
    """A SciPy COO matrix with duplicates, explicit zeros (entries summing to 0), negative
    values and self-loops, directed."""
    n = draw(st.integers(0, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    m = int(rng.integers(0, 4 * n + 1)) if n else 0
    rows, cols = rng.integers(0, max(n, 1), m), rng.integers(0, max(n, 1), m)
    return sp.coo_matrix((rng.integers(-1, 2, m), (rows, cols)), shape=(n, n))


@given(data=edge_lists(max_n=30), seed=st.integers(0, 2**31),
       max_iter=st.sampled_from([None, 1, 2, 3]))
def test_compiled_equals_array(device, data, seed, max_iter):
    # random graphs, directed or not, self-loops, duplicates, explicit zeros, isolated vertices
    A = build(data, device)
    np.testing.assert_array_equal(lpa(A, "compiled", seed=seed, max_iter=max_iter),
                                  lpa(A, "array", seed=seed, max_iter=max_iter))


@given(coo=coo_patterns(), seed=st.integers(0, 100), max_iter=st.sampled_from([None, 1, 2]))
def test_compiled_equals_array_on_scipy_input(device, coo, seed, max_iter):
    A = sr.Matrix.from_scipy(coo.tocsr(), device=device)   # duplicates summed, zeros kept
    np.testing.assert_array_equal(lpa(A, "compiled", seed=seed, max_iter=max_iter),
                                  lpa(A, "array", seed=seed, max_iter=max_iter))


@given(data=edge_lists(max_n=30), seed=st.integers(0, 2**31))
def test_compiled_colouring_is_the_jones_plassmann_colouring(data, seed):
    # the greedy colouring in decreasing priority: _colouring's colours, exactly
    A = build(data, "cpu")
    P = undirected_pattern(A, "test", loops=True)
    S = undirected_pattern(P, "test")
    deg = compiled.loopless_degrees(P.indptr, P.indices)
    np.testing.assert_array_equal(deg, np.diff(S.indptr))
    key = np.floor(np.log2(deg + 1.0)).astype(np.int64)
    rank = np.random.default_rng(seed).permutation(A.nrows).astype(np.int64)
    got = compiled.greedy_colouring(P.indptr, P.indices, key, rank)
    np.testing.assert_array_equal(got, community._colouring(S, seed))


@given(data=edge_lists(max_n=30), shift=st.integers(-5, 5), spread=st.integers(1, 3),
       max_iter=st.sampled_from([None, 1, 2]))
def test_given_colours_equal_networkx(device, data, shift, spread, max_iter):
    # NetworkX's greedy colouring (and the same classes under an increasing map of the
    # colours: negative, gaps): the classes go in increasing colour order
    A = build(data, device)
    G = nx_graph(A)                                   # the undirected view, self-loops kept
    col = nx_colours(G)
    for colours in (col, col * spread + shift):
        got = lpa(A, "compiled", colors=on(device, colours), max_iter=max_iter)
        np.testing.assert_array_equal(
            got, lpa(A, "array", colors=on(device, colours), max_iter=max_iter))
        if max_iter is None:
            want = sorted(map(frozenset, nx.community.label_propagation_communities(G)), key=min)
            assert partition(got) == want


@given(data=edge_lists(max_n=30), seed=st.integers(0, 2**31))
def test_given_colours_in_reverse_order(device, data, seed):
    # a colouring whose classes are not in the order of the default's: reversed, shuffled
    A = build(data, device)
    G = nx_graph(A)
    col = nx_colours(G)
    perm = np.random.default_rng(seed).permutation(max(int(col.max()) + 1, 1) if col.size else 1)
    for colours in (-col, perm[col]):
        np.testing.assert_array_equal(lpa(A, "compiled", colors=on(device, colours)),
                                      lpa(A, "array", colors=on(device, colours)))


def test_awkward_graphs(device):
    empty = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert lpa(empty, "compiled").shape == (0,)
    iso = sr.Matrix.from_coo([], [], None, nrows=3, ncols=3, device=device)
    np.testing.assert_array_equal(lpa(iso, "compiled"), [0, 1, 2])
    # self-loops only: each vertex its own only neighbour, it keeps its label
    loops = sr.Matrix.from_coo([0, 1, 2], [0, 1, 2], None, nrows=3, ncols=3, device=device)
    np.testing.assert_array_equal(lpa(loops, "compiled"), [0, 1, 2])
    # directed input: the undirected view (a star pointing in), with explicit zeros
    star = sr.Matrix.from_coo([1, 2, 3, 4], [0, 0, 0, 0], [0.0, 0.0, 1.0, 2.0], nrows=6,
                              ncols=6, device=device)
    np.testing.assert_array_equal(lpa(star, "compiled"), lpa(star, "array"))
    np.testing.assert_array_equal(lpa(star, "compiled"), [0, 0, 0, 0, 0, 1])
    # a long path and a grid: many sweeps
    n = 3000
    path = sr.Matrix.from_edgelist(np.c_[np.arange(n - 1), np.arange(1, n)], undirected=True,
                                   device=device)
    np.testing.assert_array_equal(lpa(path, "compiled"), lpa(path, "array"))
    G = nx.path_graph(n)
    got = lpa(path, "compiled", colors=on(device, nx_colours(G)))
    assert partition(got) == sorted(map(frozenset, nx.community.label_propagation_communities(G)),
                                    key=min)
    grid = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(nx.grid_2d_graph(40, 40), format="csr"),
                                device=device)
    for seed in (0, 1):
        np.testing.assert_array_equal(lpa(grid, "compiled", seed=seed),
                                      lpa(grid, "array", seed=seed))


def test_power_law_graph(device):
    # hubs, many colours, several sweeps: a Barabási–Albert graph with some self-loops
    G = nx.barabasi_albert_graph(1500, 4, seed=7)
    G.add_edges_from((v, v) for v in range(0, 1500, 97))
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, nodelist=range(1500), format="csr"),
                             device=device)
    for seed, max_iter in ((0, None), (5, None), (0, 1), (0, 2)):
        np.testing.assert_array_equal(lpa(A, "compiled", seed=seed, max_iter=max_iter),
                                      lpa(A, "array", seed=seed, max_iter=max_iter))
    got = lpa(A, "compiled", colors=on(device, nx_colours(G)))
    assert partition(got) == sorted(map(frozenset, nx.community.label_propagation_communities(G)),
                                    key=min)


def test_max_iter_past_int64(device):
    # a Python int beyond the kernel's int64 counter: no limit, as in the array path
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 3], [3, 4]], undirected=True, device=device)
    for max_iter in (2**63 - 1, 2**63, 2**70):
        np.testing.assert_array_equal(lpa(A, "compiled", max_iter=max_iter),
                                      lpa(A, "array", max_iter=max_iter))


def test_bad_colours_same_error(device):
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 2]], undirected=True, device=device)
    for method in ("array", "compiled"):
        with pytest.raises(sr.InvalidValue, match=r"label_propagation: colors must differ on "
                                                  r"neighbours, got colour 0 on both ends of "
                                                  r"edge \(1, 2\)"):
            alg.label_propagation(A, colors=on(device, [1, 0, 0]), method=method)
        # a self-loop is no conflict
        np.testing.assert_array_equal(lpa(A, method, colors=on(device, [0, 1, 0])),
                                      lpa(A, "array", colors=on(device, [0, 1, 0])))


@given(data=edge_lists(max_n=20), seed=st.integers(0, 100), max_iter=st.sampled_from([None, 1]))
def test_interpreted_equals_compiled(data, seed, max_iter):
    # the same loops without Numba (over Python lists) give the same colours and labels
    A = build(data, "cpu")
    P = undirected_pattern(A, "test", loops=True)
    deg = compiled.loopless_degrees(P.indptr, P.indices, compiled=False)
    key = np.floor(np.log2(deg + 1.0)).astype(np.int64)
    rank = np.random.default_rng(seed).permutation(A.nrows).astype(np.int64)
    col = compiled.greedy_colouring(P.indptr, P.indices, key, rank, compiled=False)
    lab, sweeps = compiled.label_propagation(P.indptr, P.indices, col, max_iter, compiled=False)
    assert col.dtype == lab.dtype == np.int64
    np.testing.assert_array_equal(lab, lpa(A, "array", seed=seed, max_iter=max_iter))
    if compiled.ENABLED:
        np.testing.assert_array_equal(compiled.loopless_degrees(P.indptr, P.indices), deg)
        np.testing.assert_array_equal(compiled.greedy_colouring(P.indptr, P.indices, key, rank),
                                      col)
        got = compiled.label_propagation(P.indptr, P.indices, col, max_iter)
        np.testing.assert_array_equal(got[0], lab)
        assert got[1] == sweeps


def test_bad_method(device):
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device=device)
    for bad in ("Compiled", "bz", "", None, 1):
        with pytest.raises(sr.InvalidValue,
                           match=r"label_propagation: method must be one of \('auto', 'array', "
                                 rf"'compiled'\), got {bad!r}"):
            alg.label_propagation(A, method=bad)


def _count_compiled_calls(monkeypatch):
    calls = []
    real = compiled.label_propagation
    monkeypatch.setattr(compiled, "label_propagation",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_auto_policy(device, monkeypatch):
    # 'auto': the compiled pass on a CPU with Numba; the array path on the GPU (its host
    # route off here, see conftest) and without Numba
    assert community.LABEL_PROPAGATION_AUTO == {"cpu": "compiled", "gpu": "array"}
    calls = _count_compiled_calls(monkeypatch)
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3], [2, 3]],
                                undirected=True, device=device)
    np.testing.assert_array_equal(lpa(A, "auto"), [0, 0, 0, 1, 1, 1])
    assert len(calls) == (1 if device == "cpu" and compiled.ENABLED else 0)
    calls.clear()
    np.testing.assert_array_equal(lpa(A, "compiled"), [0, 0, 0, 1, 1, 1])
    assert len(calls) == 1                            # GPU input too, through the host
    calls.clear()
    np.testing.assert_array_equal(lpa(A, "array"), [0, 0, 0, 1, 1, 1])
    assert calls == []
    monkeypatch.setattr(compiled, "ENABLED", False)
    np.testing.assert_array_equal(lpa(A, "auto"), [0, 0, 0, 1, 1, 1])
    assert calls == []


@pytest.mark.host_route
def test_auto_on_small_gpu_input_runs_compiled_on_the_host(monkeypatch):
    if "gpu" not in DEVICES:
        pytest.skip("no GPU")
    calls = _count_compiled_calls(monkeypatch)
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3], [2, 3]],
                                undirected=True, device="gpu")
    got = alg.label_propagation(A)
    assert sr.device_of(got) == "gpu"
    np.testing.assert_array_equal(to_host(got), [0, 0, 0, 1, 1, 1])
    assert len(calls) == (1 if compiled.ENABLED else 0)


def test_without_numba_auto_is_array_and_compiled_runs_interpreted(monkeypatch):
    """SEMIRING_NUMBA=0 (the project's switch: ENABLED off): 'auto' runs the array path,
    'compiled' the same loops interpreted, no kernel is compiled."""
    monkeypatch.setenv("SEMIRING_NUMBA", "0")
    try:
        importlib.reload(compiled)
        assert compiled.ENABLED is False
        rng = np.random.default_rng(3)
        r, c = rng.integers(0, 60, (2, 300))
        A = sr.Matrix.from_coo(r, c, None, nrows=60, ncols=60, dup_op="plus", device="cpu")
        calls = _count_compiled_calls(monkeypatch)
        ref = lpa(A, "array")
        np.testing.assert_array_equal(lpa(A, "auto"), ref)
        assert calls == []
        np.testing.assert_array_equal(lpa(A, "compiled"), ref)
        assert len(calls) == 1
        assert compiled._lpa is None
    finally:
        monkeypatch.undo()
        importlib.reload(compiled)


@needs_numba
def test_compiled_pass_does_not_touch_its_input():
    rng = np.random.default_rng(5)
    r, c = rng.integers(0, 50, (2, 200))
    A = sr.Matrix.from_coo(r, c, None, nrows=50, ncols=50, dup_op="plus", device="cpu")
    colours = nx_colours(nx_graph(A))
    before = (A.indptr.copy(), A.indices.copy(), colours.copy())
    alg.label_propagation(A, colors=colours, method="compiled")
    alg.label_propagation(A, method="compiled")
    for a, b in zip(before, (A.indptr, A.indices, colours)):
        np.testing.assert_array_equal(a, b)


def test_degree_classes_exact_on_every_device(device):
    """⌊log₂(d + 1)⌋ of the colouring's priorities, exact at every power of two on both
    devices (CUDA's log2 rounded below some integers: the H200's colours, hence its labels,
    differed from the host's on the same seed)."""
    d = np.unique(np.concatenate([np.arange(0, 4100), 2 ** np.arange(1, 52) - 1,
                                  2 ** np.arange(1, 52), 2 ** np.arange(1, 52) - 2]))
    want = np.array([int(x + 1).bit_length() - 1 for x in d.tolist()])
    got = community._degree_class(sr.array_module(device), sr.to_device(d, device))
    np.testing.assert_array_equal(to_host(got), want)


@pytest.mark.host_route
def test_host_route_bounds_without_numba_are_the_array_paths(monkeypatch):
    """The small-GPU-input routes of label propagation and Louvain were measured against the
    compiled host passes; without Numba the host runs the array paths, whose lower bounds
    (ARRAY_HOST_MAX_ENTRIES) apply."""
    monkeypatch.setattr(compiled, "ENABLED", True)
    assert community._lpa_host_max() == community.LABEL_PROPAGATION_HOST_MAX_ENTRIES
    assert community._louvain_host_max() == community.LOUVAIN_HOST_MAX_ENTRIES
    monkeypatch.setattr(compiled, "ENABLED", False)
    assert community._lpa_host_max() == community.ARRAY_HOST_MAX_ENTRIES["label_propagation"]
    assert community._louvain_host_max() == community.ARRAY_HOST_MAX_ENTRIES["louvain"]
    assert community.ARRAY_HOST_MAX_ENTRIES["label_propagation"] \
        < community.LABEL_PROPAGATION_HOST_MAX_ENTRIES
