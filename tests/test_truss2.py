"""k_truss's methods, the array passes ('dot', 'mxm') and Wang & Cheng's sequential peeling
('wc': the CPU backend's compiled ``truss``), against NetworkX and each other, with and
without Numba."""

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

METHODS = ["auto", "dot", "mxm", "wc"]

needs_numba = pytest.mark.skipif(not compiled.ENABLED, reason="Numba not installed (the "
                                 "`cpu` extra) or SEMIRING_NUMBA=0")


def truss_of(A, k, method):
    T = alg.k_truss(A, k, method=method)
    assert T.device == A.device and T.shape == A.shape and T.dtype == np.int64
    r, c, v = (to_host(a).tolist() for a in T.to_coo())
    return dict(zip(zip(r, c), v))


def nx_truss(A, k):
    """NetworkX's k-truss of A's undirected graph without self-loops, each edge (both ways)
    with its triangles in the truss."""
    H = nx.k_truss(nx_graph(A, loops=False), k)
    want = {}
    for u, v in H.edges():
        want[(u, v)] = want[(v, u)] = len(set(H[u]) & set(H[v]))
    return want


@st.composite
def dense_graphs(draw, max_n=22):
    """Random graphs of any density (edge_lists' are sparse, with few triangles): (n, src, dst,
    None, False), some self-loops and duplicates among them."""
    n = draw(st.integers(1, max_n))
    p = draw(st.floats(0.0, 1.0))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    src, dst = np.nonzero(rng.random((n, n)) < p)
    extra = rng.integers(0, n, (2, n))  # duplicates and self-loops
    return n, np.r_[src, extra[0]], np.r_[dst, extra[1]], None, False


@given(data=st.one_of(edge_lists(max_n=16), dense_graphs()), k=st.integers(-1, 9),
       method=st.sampled_from(METHODS))
def test_methods_match_networkx(device, data, k, method):
    A = build(data, device)
    assert truss_of(A, k, method) == nx_truss(A, k)


@given(data=st.one_of(edge_lists(max_n=30), dense_graphs(30)), k=st.integers(2, 12))
def test_wc_interpreted_equals_compiled_and_dot(data, k):
    """The kernels without Numba (over Python lists), with it, and the NumPy passes: the same
    supports (against edge_support) and the same truss (against method='dot')."""
    A = build(data, "cpu")
    S = cores.undirected_pattern(A, "test", loops=True)
    C = cores.undirected_pattern(A, "test")
    r, c, _ = S.to_coo()
    ref = cores.edge_support(C)
    runs = (False, None) if compiled.ENABLED else (False,)
    for comp in runs:
        sup = compiled.edge_supports(S.indptr, S.indices, compiled=comp)
        assert sup.dtype == np.int64
        np.testing.assert_array_equal(sup[r != c], ref)
        np.testing.assert_array_equal(sup[r == c], 0)
        keep, sup = compiled.truss(S.indptr, S.indices, k, compiled=comp)
        got = {(i, j): s for i, j, s in zip(r[keep].tolist(), c[keep].tolist(),
                                             sup[keep].tolist())}
        assert got == truss_of(A, k, "dot")


def test_wc_every_k_on_random_graphs():
    """Every k from 3 past the largest support, on seeded random graphs of several densities:
    the band of k where edges drop one after another, their triangles dying in cascades,
    which a few Hypothesis draws of random k seldom hit. 'wc' compiled and interpreted
    against 'dot', and NetworkX on some."""
    rng = np.random.default_rng(11)
    for g in range(24):
        n = int(rng.integers(15, 40))
        src, dst = np.nonzero(rng.random((n, n)) < rng.uniform(0.15, 0.7))
        A = sr.Matrix.from_coo(src, dst, None, nrows=n, ncols=n, device="cpu")
        S = cores.undirected_pattern(A, "test", loops=True)
        r, c, _ = S.to_coo()
        top = int(compiled.edge_supports(S.indptr, S.indices, compiled=False).max())
        for k in range(3, top + 4):
            want = truss_of(A, k, "dot")
            assert truss_of(A, k, "wc") == want
            if g % 4 == 0:
                keep, sup = compiled.truss(S.indptr, S.indices, k, compiled=False)
                assert dict(zip(zip(r[keep].tolist(), c[keep].tolist()),
                                sup[keep].tolist())) == want
            if g % 8 == 0:
                assert want == nx_truss(A, k)


@pytest.mark.parametrize("method", METHODS)
def test_shapes(device, method):
    # n = 0; isolated vertices; self-loops only
    for n in (0, 5):
        assert truss_of(sr.Matrix.from_coo([], [], None, nrows=n, ncols=n, device=device), 3,
                        method) == {}
    loops = sr.Matrix.from_coo([0, 2, 4], [0, 2, 4], None, nrows=5, ncols=5, device=device)
    for k in (-3, 2, 3):
        assert truss_of(loops, k, method) == {}
    # cliques K_q, with and without self-loops and a pendant edge: every edge has q - 2
    # triangles, so the q-truss is K_q and the (q + 1)-truss empty; k ≤ 2 keeps everything
    for q in (3, 4, 7):
        K = np.zeros((q + 2, q + 2))
        K[:q, :q] = 1 - np.eye(q)
        K[q - 1, q] = K[q, q - 1] = 1
        clique = {(i, j): q - 2 for i in range(q) for j in range(q) if i != j}
        for M in (K, K + np.eye(q + 2)):
            A = sr.Matrix.from_dense(M, missing=0, device=device)
            assert truss_of(A, q, method) == clique
            assert truss_of(A, 3, method) == clique
            assert truss_of(A, q + 1, method) == {}
            for k in (-5, 0, 2):
                want = dict(clique)
                want[(q - 1, q)] = want[(q, q - 1)] = 0
                assert truss_of(A, k, method) == want
    # k past any support, up to beyond int64
    K5 = sr.Matrix.from_dense(np.ones((5, 5)) - np.eye(5), missing=0, device=device)
    for k in (6, 7, 2**63, 2**70, np.uint64(2**64 - 1)):
        assert truss_of(K5, k, method) == {}
    # duplicates (summed into one entry) and an edge stored one way only: the undirected graph
    r = [0, 1, 2, 0, 0, 1, 2, 3, 3]
    c = [1, 2, 0, 1, 1, 0, 3, 1, 0]
    A = sr.Matrix.from_coo(r, c, None, nrows=4, ncols=4, dup_op="plus", device=device)
    assert truss_of(A, 4, method) == nx_truss(A, 4) and len(nx_truss(A, 4)) == 12


@pytest.mark.parametrize("method", METHODS)
def test_long_path_and_strip(device, method):
    # a shuffled path: no triangle, so the 3-truss is empty and k ≤ 2 keeps it, supports 0
    n = 10**4
    v = np.random.default_rng(5).permutation(n)
    P = sr.Matrix.from_edgelist(np.c_[v[:-1], v[1:]], nvertices=n, undirected=True,
                                device=device)
    assert truss_of(P, 3, method) == {}
    assert set(truss_of(P, 2, method).values()) == {0} and alg.k_truss(P, 2).nvals == 2 * n - 2
    # a strip of triangles (i, i + 1, i + 2), its last vertex joined to its first two
    m = 2000
    e = np.r_[np.c_[np.arange(m - 1), np.arange(1, m)], np.c_[np.arange(m - 2), np.arange(2, m)]]
    e = np.r_[e, [[0, m - 1], [1, m - 1]]]
    S = sr.Matrix.from_edgelist(e, undirected=True, device=device)
    for k in (3, 4, 5):
        assert truss_of(S, k, method) == nx_truss(S, k)


@pytest.mark.parametrize("itype", [np.int32, np.int64])
def test_truss_index_types(itype):
    # the kernels' two index types (a Matrix of more than 2^31 entries has int64 indices)
    A = sr.Matrix.from_dense(np.ones((4, 4)), missing=0, device="cpu")  # K4 with its loops
    indptr, indices = A.indptr.astype(itype), A.indices.astype(itype)
    loop = np.arange(16) % 5 == 0
    for comp in (None, False):
        np.testing.assert_array_equal(
            compiled.edge_supports(indptr, indices, compiled=comp), np.where(loop, 0, 2))
        keep, sup = compiled.truss(indptr, indices, 4, compiled=comp)
        np.testing.assert_array_equal(keep, ~loop)
        np.testing.assert_array_equal(sup[keep], 2)
        assert not compiled.truss(indptr, indices, 5, compiled=comp)[0].any()


def test_input_untouched(device):
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [2, 3], [3, 3]], undirected=True,
                                device=device)
    before = [to_host(a).copy() for a in (A.indptr, A.indices, A.values)]
    assert truss_of(A, 3, "wc") == {(0, 1): 1, (1, 0): 1, (1, 2): 1, (2, 1): 1, (0, 2): 1,
                                    (2, 0): 1}
    for a, b in zip((A.indptr, A.indices, A.values), before):
        np.testing.assert_array_equal(to_host(a), b)


def test_bad_method(device):
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device=device)
    for bad in ("WC", "wang", None, 1):
        with pytest.raises(sr.InvalidValue,
                           match=r"k_truss: method must be one of \('auto', 'dot', 'mxm', 'wc'\)"
                                 rf", got {bad!r}"):
            alg.k_truss(A, 3, method=bad)


def test_auto_policy(device, monkeypatch):
    # 'auto': the compiled peeling on a CPU with Numba, 'dot' on the GPU or without Numba
    calls = []
    real = compiled.truss
    monkeypatch.setattr(compiled, "truss", lambda *a, **k: calls.append(1) or real(*a, **k))
    A = sr.Matrix.from_dense(np.ones((5, 5)) - np.eye(5), missing=0, device=device)
    want = {(i, j): 3 for i in range(5) for j in range(5) if i != j}
    assert truss_of(A, 4, "auto") == want
    assert len(calls) == (1 if device == "cpu" and compiled.ENABLED else 0)
    calls.clear()
    monkeypatch.setattr(compiled, "ENABLED", False)
    assert truss_of(A, 4, "auto") == want
    assert calls == []


def test_without_numba_auto_is_dot_and_wc_runs_interpreted(monkeypatch):
    """SEMIRING_NUMBA=0 (the project's switch: ENABLED off): 'auto' runs 'dot', 'wc' the same
    loops interpreted, no kernel is compiled."""
    monkeypatch.setenv("SEMIRING_NUMBA", "0")
    try:
        importlib.reload(compiled)
        assert compiled.ENABLED is False
        rng = np.random.default_rng(3)
        r, c = rng.integers(0, 40, (2, 400))
        A = sr.Matrix.from_coo(r, c, None, nrows=40, ncols=40, dup_op="plus", device="cpu")
        for k in (3, 5):
            ref = nx_truss(A, k)
            assert ref
            for method in METHODS:
                assert truss_of(A, k, method) == ref
        assert compiled._truss is None
    finally:
        monkeypatch.undo()
        importlib.reload(compiled)


@given(data=st.one_of(edge_lists(max_n=16), dense_graphs(16)), k=st.integers(3, 9))
def test_wc_from_the_core_is_the_truss(device, data, k, monkeypatch):
    # 'wc' with the (k - 1)-core cut first (a CPU with Numba) or not: the same truss
    A = build(data, device)
    got = []
    for prune in (False, True):
        monkeypatch.setattr(cores, "TRUSS_CORE_PRUNE", prune)
        got.append(truss_of(A, k, "wc"))
    assert got[0] == got[1]
