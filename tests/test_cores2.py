"""core_number's two methods, the algebra's peeling and Batagelj & Zaversnik's bucket pass (the
CPU backend's compiled ``core_numbers``), against NetworkX and each other, with and without
Numba."""

from __future__ import annotations

import importlib

import networkx as nx
import numpy as np
import pytest
from conftest import to_host
from graphgen import build, edge_lists, nx_graph
from hypothesis import given
from hypothesis import strategies as st

import algorithms as alg
import semiring as sr
from algorithms import cores
from semiring.backend.cpu import compiled

needs_numba = pytest.mark.skipif(not compiled.ENABLED, reason="Numba not installed (the "
                                 "`cpu` extra) or SEMIRING_NUMBA=0")


def nx_core(A):
    ref = nx.core_number(nx_graph(A, loops=False))
    return np.array([ref[i] for i in range(A.nrows)], dtype=np.int64)


def cores_of(A, method):
    got = alg.core_number(A, method=method)
    assert sr.device_of(got) == A.device and got.dtype == np.int64 and got.shape == (A.nrows,)
    return to_host(got)


@given(data=edge_lists(max_n=30), method=st.sampled_from(["auto", "peel", "bz"]))
def test_methods_match_networkx(device, data, method):
    # random graphs, directed or not, with self-loops or not
    A = build(data, device)
    np.testing.assert_array_equal(cores_of(A, method), nx_core(A))


@given(data=edge_lists(max_n=40))
def test_bz_interpreted_equals_compiled_and_peel(data):
    # the same loop without Numba (over Python lists) gives the same numbers
    A = build(data, "cpu")
    S = cores.undirected_pattern(A, "test", loops=True)
    interp = compiled.core_numbers(S.indptr, S.indices, compiled=False)
    assert interp.dtype == np.int64
    np.testing.assert_array_equal(interp, cores_of(A, "peel"))
    if compiled.ENABLED:
        np.testing.assert_array_equal(compiled.core_numbers(S.indptr, S.indices), interp)


def path(n, device, perm=None):
    v = np.arange(n) if perm is None else perm
    return sr.Matrix.from_edgelist(np.c_[v[:-1], v[1:]], nvertices=n, undirected=True,
                                   device=device)


@pytest.mark.parametrize("method", ["peel", "bz"])
def test_long_path(device, method):
    # n / 2 rounds of the peeling; labels shuffled, so the bins' order is not the vertices'
    n = 10**4
    perm = np.random.default_rng(7).permutation(n)
    np.testing.assert_array_equal(cores_of(path(n, device, perm), method), np.ones(n))


def test_long_path_bz_1e5(device):
    n = 10**5
    got = cores_of(path(n, device), "bz")
    np.testing.assert_array_equal(got, np.ones(n))
    # with a pendant triangle at one end: the triangle's 3 vertices are the 2-core
    A = sr.Matrix.from_edgelist(np.r_[np.c_[np.arange(n - 1), np.arange(1, n)],
                                      [[n - 1, n], [n, n - 2]]], undirected=True, device=device)
    want = np.ones(n + 1, dtype=np.int64)
    want[[n - 2, n - 1, n]] = 2
    np.testing.assert_array_equal(cores_of(A, "bz"), want)


@pytest.mark.parametrize("method", ["auto", "peel", "bz"])
def test_shapes(device, method):
    # n = 0
    empty = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert cores_of(empty, method).shape == (0,)
    # isolated vertices only; then with self-loops on some (ignored: still 0)
    iso = sr.Matrix.from_coo([], [], None, nrows=5, ncols=5, device=device)
    np.testing.assert_array_equal(cores_of(iso, method), np.zeros(5))
    loops = sr.Matrix.from_coo([0, 2, 4], [0, 2, 4], None, nrows=5, ncols=5, device=device)
    np.testing.assert_array_equal(cores_of(loops, method), np.zeros(5))
    # a star: every vertex 1, the centre too (whatever its degree)
    star = sr.Matrix.from_edgelist(np.c_[np.zeros(50, dtype=int), np.arange(1, 51)],
                                   undirected=True, device=device)
    np.testing.assert_array_equal(cores_of(star, method), np.ones(51))
    # cliques K_k: k - 1; with a self-loop on every vertex, the same; an isolated vertex beside
    for k in (2, 3, 9):
        K = np.ones((k + 1, k + 1)) - np.eye(k + 1)
        K[k, :] = K[:, k] = 0
        want = np.r_[np.full(k, k - 1), 0]
        np.testing.assert_array_equal(
            cores_of(sr.Matrix.from_dense(K, missing=0, device=device), method), want)
        np.testing.assert_array_equal(
            cores_of(sr.Matrix.from_dense(K + np.eye(k + 1), missing=0, device=device),
                     method), want)
    # a clique with a tail of degree-2 vertices hanging off it, and one edge stored one way
    e = [(i, j) for i in range(5) for j in range(i + 1, 5)] + [(4, 5), (5, 6), (6, 7)]
    r, c = np.array(e).T
    A = sr.Matrix.from_coo(r, c, None, nrows=9, ncols=9, device=device)
    np.testing.assert_array_equal(cores_of(A, method), [4, 4, 4, 4, 4, 1, 1, 1, 0])


@pytest.mark.parametrize("itype", [np.int32, np.int64])
def test_core_numbers_index_types(itype):
    # the kernel's two index types (a Matrix of more than 2^31 entries has int64 indices)
    A = sr.Matrix.from_dense(np.ones((4, 4)), missing=0, device="cpu")  # K4 with its loops
    indptr, indices = A.indptr.astype(itype), A.indices.astype(itype)
    for comp in (None, False):
        np.testing.assert_array_equal(
            compiled.core_numbers(indptr, indices, compiled=comp), [3, 3, 3, 3])


def test_input_untouched(device):
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [2, 3], [3, 3]], undirected=True,
                                device=device)
    before = [to_host(a).copy() for a in (A.indptr, A.indices)]
    np.testing.assert_array_equal(cores_of(A, "bz"), [2, 2, 2, 1])
    for a, b in zip((A.indptr, A.indices), before):
        np.testing.assert_array_equal(to_host(a), b)


def test_bad_method(device):
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device=device)
    for bad in ("BZ", "batagelj", None, 1):
        with pytest.raises(sr.InvalidValue,
                           match=r"core_number: method must be one of \('auto', 'peel', 'bz'\)"
                                 rf", got {bad!r}"):
            alg.core_number(A, method=bad)


def test_auto_policy(device, monkeypatch):
    # 'auto': the compiled pass on a CPU with Numba, the peeling on the GPU or without Numba
    calls = []
    real = compiled.core_numbers
    monkeypatch.setattr(compiled, "core_numbers", lambda *a, **k: calls.append(1) or real(*a, **k))
    A = path(7, device)
    np.testing.assert_array_equal(cores_of(A, "auto"), np.ones(7))
    assert len(calls) == (1 if device == "cpu" and compiled.ENABLED else 0)
    calls.clear()
    monkeypatch.setattr(compiled, "ENABLED", False)
    np.testing.assert_array_equal(cores_of(A, "auto"), np.ones(7))
    assert calls == []


def test_without_numba_peels_and_bz_runs_interpreted(monkeypatch):
    """SEMIRING_NUMBA=0 (the project's switch: ENABLED off): 'auto' peels, 'bz' runs the
    same loop interpreted, no kernel is compiled."""
    monkeypatch.setenv("SEMIRING_NUMBA", "0")
    try:
        importlib.reload(compiled)
        assert compiled.ENABLED is False
        rng = np.random.default_rng(3)
        r, c = rng.integers(0, 60, (2, 300))
        A = sr.Matrix.from_coo(r, c, None, nrows=60, ncols=60, dup_op="plus", device="cpu")
        ref = nx_core(A)
        for method in ("auto", "peel", "bz"):
            np.testing.assert_array_equal(cores_of(A, method), ref)
        assert compiled._cores is None
    finally:
        monkeypatch.undo()
        importlib.reload(compiled)


@given(data=edge_lists(max_n=16), k=st.integers(3, 7), method=st.sampled_from(["dot", "mxm"]))
def test_k_truss_from_the_core_is_the_truss(device, data, k, method, monkeypatch):
    # the (k - 1)-core cut first (a CPU with Numba) or not: the same truss, the same supports
    A = build(data, device)
    got = []
    for prune in (False, True):
        monkeypatch.setattr(cores, "TRUSS_CORE_PRUNE", prune)
        T = alg.k_truss(A, k, method=method)
        got.append([to_host(a).tolist() for a in T.to_coo()])
    assert got[0] == got[1]


def test_k_truss_cuts_to_the_core_on_a_cpu_with_numba(device, monkeypatch):
    seen = []
    real = cores._core_subgraph
    monkeypatch.setattr(cores, "_core_subgraph", lambda C, c: seen.append(c) or real(C, c))
    # K5 with a path hanging off it: the 4-core is K5, the 5-truss K5 (3 triangles an edge)
    e = [(i, j) for i in range(5) for j in range(i + 1, 5)] + [(4, 5), (5, 6)]
    A = sr.Matrix.from_edgelist(e, undirected=True, device=device)
    T = alg.k_truss(A, 5)
    np.testing.assert_array_equal(to_host(T.to_dense(missing=0)),
                                  np.pad(3 * (np.ones((5, 5)) - np.eye(5)), (0, 2)))
    cut = device == "cpu" and compiled.ENABLED
    assert seen == ([4] if cut else [])
    assert alg.k_truss(A, 2).nvals == 2 * len(e)  # k ≤ 2: every edge, nothing cut
    assert seen == ([4] if cut else [])
