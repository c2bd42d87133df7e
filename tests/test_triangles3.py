"""The per-vertex triangle counts and clustering coefficients by their two methods: 'mxm' (the
masked products) and 'forward' (the edge supports of the forward listing, the CPU backend's
compiled ``edge_supports``, picked by 'auto' on a CPU with Numba), against each other and
NetworkX; compiled and interpreted; awkward inputs; the policy."""

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
from semiring.backend.cpu import compiled

# the module (``algorithms.triangles`` is the function)
tri = importlib.import_module("algorithms.triangles")

METHODS = ["auto", "mxm", "forward"]


@st.composite
def dense_graphs(draw, max_n=22):
    """Random graphs of any density, so triangles are common (edge_lists' are sparse):
    (n, src, dst, w, False) with self-loops and duplicates; w None (iso) or with zeros."""
    n = draw(st.integers(1, max_n))
    p = draw(st.floats(0.0, 1.0))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    src, dst = np.nonzero(rng.random((n, n)) < p)
    extra = rng.integers(0, n, (2, n))  # duplicates and self-loops
    src, dst = np.r_[src, extra[0]], np.r_[dst, extra[1]]
    w = None if draw(st.booleans()) else rng.integers(0, 2, src.size).astype(np.float64)
    return n, src, dst, w, False


def nx_reference(A):
    """NetworkX's triangles and clustering of A's undirected graph (A ∪ Aᵀ; self-loops are
    added to the graph, NetworkX ignores them), as arrays over 0 .. n-1."""
    G = nx_graph(A)
    t, c = nx.triangles(G), nx.clustering(G)
    n = A.nrows
    return np.array([t[i] for i in range(n)], dtype=np.int64), \
        np.array([c[i] for i in range(n)], dtype=np.float64)


def symmetric(A):
    S = A.to_cpu() if A.device == "gpu" else A
    return tri._is_symmetric(S)


def check(A, method, *, symmetrize=False):
    """triangles and clustering of A by ``method``: their types, and the arrays (host)."""
    xp = sr.array_module(A.device)
    t = alg.triangles(A, method=method, symmetrize=symmetrize)
    c = alg.clustering(A, method=method, symmetrize=symmetrize)
    assert type(t) is xp.ndarray and t.dtype == np.int64 and t.shape == (A.nrows,)
    assert type(c) is xp.ndarray and c.dtype == np.float64 and c.shape == (A.nrows,)
    return to_host(t), to_host(c)


@given(data=st.one_of(edge_lists(max_n=18), dense_graphs()), method=st.sampled_from(METHODS))
def test_methods_match_networkx(device, data, method):
    # edge_lists: duplicates, self-loops, explicit zeros, directed or mirrored edge lists
    A = build(data, device)
    want_t, want_c = nx_reference(A)
    if not symmetric(A):
        for f in (alg.triangles, alg.clustering):
            with pytest.raises(sr.InvalidValue, match=rf"{f.__name__}: A must be structurally "
                                                      rf"symmetric"):
                f(A, method=method)
    t, c = check(A, method, symmetrize=True)
    np.testing.assert_array_equal(t, want_t)
    np.testing.assert_allclose(c, want_c, rtol=1e-12, atol=0)
    # the same floats as 'mxm' (the coefficient from the same integer counts)
    np.testing.assert_array_equal(c, check(A, "mxm", symmetrize=True)[1])
    # the total by triangle_count: a third of the per-vertex sum
    assert alg.triangle_count(A, symmetrize=True) * 3 == int(t.sum())


@given(data=st.one_of(edge_lists(max_n=18), dense_graphs(18)))
def test_interpreted_equals_compiled(data, monkeypatch):
    # 'forward' without Numba runs the same listing interpreted over Python lists
    A = build(data, "cpu")
    runs = [check(A, "forward", symmetrize=True)]
    monkeypatch.setattr(compiled, "ENABLED", False)
    runs.append(check(A, "forward", symmetrize=True))
    for (t, c), (t0, c0) in zip(runs, [check(A, "mxm", symmetrize=True)] * 2):
        np.testing.assert_array_equal(t, t0)
        np.testing.assert_array_equal(c, c0)


def test_seeded_graphs_and_a_kronecker_graph():
    """Larger graphs than Hypothesis draws: seeded random graphs of several densities (with
    self-loops) and a Kronecker graph (hubs, the degree order's ties): 'forward' equals
    'mxm' in both orders, and NetworkX on some."""
    from bench.generators import kronecker  # noqa: PLC0415  (only this test needs the generators)

    rng = np.random.default_rng(19)
    mats = []
    for _ in range(12):
        n = int(rng.integers(20, 120))
        src, dst = np.nonzero(rng.random((n, n)) < rng.uniform(0.02, 0.6))
        mats.append(sr.Matrix.from_coo(np.r_[src, dst], np.r_[dst, src], None, nrows=n, ncols=n,
                                       dup_op="any", device="cpu"))
    mats.append(sr.Matrix.from_scipy(kronecker(9, weighted=False, dtype=np.float64),
                                     device="cpu"))
    for g, A in enumerate(mats):
        t, c = check(A, "forward")
        for order in ("degree", "index"):
            np.testing.assert_array_equal(t, to_host(alg.triangles(A, method="mxm",
                                                                  order=order)))
            np.testing.assert_array_equal(c, to_host(alg.clustering(A, method="mxm",
                                                                   order=order)))
        assert t.sum() == 3 * alg.triangle_count(A)
        if g % 4 == 0:
            want_t, want_c = nx_reference(A)
            np.testing.assert_array_equal(t, want_t)
            np.testing.assert_allclose(c, want_c, rtol=1e-12, atol=0)


@pytest.mark.parametrize("method", METHODS)
def test_shapes(device, method):
    def both(A, **kw):
        t = to_host(alg.triangles(A, method=method, **kw))
        c = to_host(alg.clustering(A, method=method, **kw))
        return t.tolist(), c.tolist()

    # n = 0; isolated vertices only; self-loops only
    assert both(sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)) == ([], [])
    assert both(sr.Matrix.from_coo([], [], None, nrows=4, ncols=4, device=device)) == \
        ([0] * 4, [0.0] * 4)
    loops = sr.Matrix.from_coo([0, 2, 4], [0, 2, 4], None, nrows=5, ncols=5, device=device)
    assert both(loops) == ([0] * 5, [0.0] * 5)
    # K4 with a pendant vertex 4 (joined to 3), an isolated vertex 5; then with every
    # self-loop: a loop is no neighbour (vertex 3 keeps degree 4, c = 3 / 6)
    K = np.zeros((6, 6))
    K[:4, :4] = 1 - np.eye(4)
    K[3, 4] = K[4, 3] = 1
    want = ([3, 3, 3, 3, 0, 0], [1.0, 1.0, 1.0, 0.5, 0.0, 0.0])
    for M in (K, K + np.eye(6)):
        assert both(sr.Matrix.from_dense(M, missing=0, device=device)) == want
    # explicit zeros are edges: K4's values all 0
    r, c = np.nonzero(1 - np.eye(4))
    Z = sr.Matrix.from_coo(r, c, np.zeros(r.size), nrows=4, ncols=4, device=device)
    assert both(Z) == ([3] * 4, [1.0] * 4)
    # duplicates (summed into one entry) and an edge stored one way only
    r = [0, 1, 2, 0, 0, 1, 2, 3, 3, 1]
    c = [1, 2, 0, 1, 1, 0, 3, 1, 0, 1]
    A = sr.Matrix.from_coo(r, c, None, nrows=5, ncols=5, dup_op="plus", device=device)
    with pytest.raises(sr.InvalidValue, match="symmetric"):
        alg.triangles(A, method=method)
    want = nx_reference(A)
    assert both(A, symmetrize=True) == (want[0].tolist(), want[1].tolist())
    # a triangle's vertex with one loop and one more neighbour: the loop is not in deg
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [2, 3], [2, 2]], undirected=True,
                                device=device)
    assert both(A) == ([1, 1, 1, 0], [1.0, 1.0, 1 / 3, 0.0])


def test_long_path_and_strip(device):
    # a shuffled path: no triangle; a strip of triangles (i, i + 1, i + 2) closed at the end
    n = 10**4
    v = np.random.default_rng(5).permutation(n)
    P = sr.Matrix.from_edgelist(np.c_[v[:-1], v[1:]], nvertices=n, undirected=True,
                                device=device)
    for method in METHODS:
        assert not to_host(alg.triangles(P, method=method)).any()
        assert not to_host(alg.clustering(P, method=method)).any()
    m = 2000
    e = np.r_[np.c_[np.arange(m - 1), np.arange(1, m)], np.c_[np.arange(m - 2), np.arange(2, m)]]
    e = np.r_[e, [[0, m - 1], [1, m - 1]]]
    S = sr.Matrix.from_edgelist(e, undirected=True, device=device)
    want_t, want_c = nx_reference(S)
    for method in METHODS:
        np.testing.assert_array_equal(to_host(alg.triangles(S, method=method)), want_t)
        np.testing.assert_allclose(to_host(alg.clustering(S, method=method)), want_c,
                                   rtol=1e-12, atol=0)


@pytest.mark.parametrize("itype", [np.int32, np.int64])
def test_index_types(device, itype):
    # both kernel signatures (a Matrix of more than 2^31 entries has int64 indices)
    A = sr.Matrix.from_dense(np.ones((5, 5)), missing=0, device=device)  # K5 with its loops
    G = sr.Matrix(A.indptr.astype(itype), A.indices.astype(itype), None, A.shape, iso_value=1,
                  dtype=np.int64)
    count, t = sr.triangles.forward(G, vertices=True)
    assert count == 10
    np.testing.assert_array_equal(to_host(t), np.full(5, 6))


def test_directed_clustering(device):
    # directed=True is the weighted count over S = P + Pᵀ: 'auto' and 'mxm' run the products,
    # 'forward' is refused
    D = nx.gnp_random_graph(30, 0.2, seed=4, directed=True)
    D.add_edges_from([(0, 0), (3, 3)])
    r, c = zip(*D.edges())
    A = sr.Matrix.from_coo(r, c, None, nrows=30, ncols=30, device=device)
    want = np.array([nx.clustering(D)[i] for i in range(30)])
    for method in ("auto", "mxm"):
        np.testing.assert_allclose(to_host(alg.clustering(A, directed=True, method=method)),
                                   want, rtol=1e-12, atol=0)
    with pytest.raises(sr.InvalidValue, match=r"clustering: method='forward' needs "
                                              r"directed=False.*got directed=True"):
        alg.clustering(A, directed=True, method="forward")


def test_input_untouched(device):
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [2, 3], [3, 3]], undirected=True,
                                device=device)
    before = [to_host(a).copy() for a in (A.indptr, A.indices, A.values)]
    for method in METHODS:
        assert to_host(alg.triangles(A, method=method)).tolist() == [1, 1, 1, 0]
        assert to_host(alg.clustering(A, method=method)).tolist() == [1.0, 1.0, 1 / 3, 0.0]
    for a, b in zip((A.indptr, A.indices, A.values), before):
        np.testing.assert_array_equal(to_host(a), b)


def test_bad_method(device):
    A = sr.Matrix.from_coo([0, 1], [1, 0], None, nrows=2, ncols=2, device=device)
    for f in (alg.triangles, alg.clustering):
        for bad in ("Forward", "dot3", None, 1):
            with pytest.raises(sr.InvalidValue,
                               match=rf"{f.__name__}: method must be one of \('auto', 'mxm', "
                                     rf"'forward'\), got {bad!r}"):
                f(A, method=bad)


def test_auto_policy(device, monkeypatch):
    # 'auto': the compiled listing on a CPU with Numba, the products without it; on the GPU
    # the listing's launches whatever the size (its kernels need no Numba)
    calls, launches = [], []
    real = compiled.edge_supports
    monkeypatch.setattr(compiled, "edge_supports", lambda *a, **k: calls.append(1) or real(*a, **k))
    gpu = importlib.import_module("semiring.backend.gpu.triangles")
    real_gpu = gpu.forward
    monkeypatch.setattr(gpu, "forward", lambda *a: launches.append(1) or real_gpu(*a))
    A = sr.Matrix.from_dense(np.ones((5, 5)) - np.eye(5), missing=0, device=device)
    for f, want in ((alg.triangles, [6] * 5), (alg.clustering, [1.0] * 5)):
        assert to_host(f(A)).tolist() == want
        assert len(calls) == (1 if device == "cpu" and compiled.ENABLED else 0)
        assert len(launches) == (device == "gpu")
        calls.clear(), launches.clear()
        assert to_host(f(A, method="forward")).tolist() == want
        assert (len(calls), len(launches)) == ((1, 0) if device == "cpu" else (0, 1))
        calls.clear(), launches.clear()
    assert to_host(alg.clustering(A, directed=True)).tolist() == [1.0] * 5
    assert calls == [] and launches == []
    monkeypatch.setattr(compiled, "ENABLED", False)
    for f in (alg.triangles, alg.clustering):
        f(A)
    assert calls == [] and len(launches) == (2 if device == "gpu" else 0)


def test_without_numba(monkeypatch):
    """SEMIRING_NUMBA=0 (ENABLED off): 'auto' runs the products, 'forward' the listing
    interpreted; no kernel is compiled."""
    monkeypatch.setenv("SEMIRING_NUMBA", "0")
    try:
        importlib.reload(compiled)
        assert compiled.ENABLED is False
        rng = np.random.default_rng(3)
        r, c = rng.integers(0, 40, (2, 400))
        A = sr.Matrix.from_coo(r, c, None, nrows=40, ncols=40, dup_op="plus", device="cpu")
        want_t, want_c = nx_reference(A)
        assert want_t.any()
        for method in METHODS:
            t, c = check(A, method, symmetrize=True)
            np.testing.assert_array_equal(t, want_t)
            np.testing.assert_allclose(c, want_c, rtol=1e-12, atol=0)
        assert compiled._truss is None
    finally:
        monkeypatch.undo()
        importlib.reload(compiled)


def test_networkx_backend_runs_the_listing(monkeypatch):
    """nx.triangles / clustering / average_clustering / transitivity through the backend (which
    call the engine with 'auto'): NetworkX's answers, and on a CPU with Numba by the listing."""
    pytest.importorskip("nx_semiring")
    calls = []
    real = compiled.edge_supports
    monkeypatch.setattr(compiled, "edge_supports", lambda *a, **k: calls.append(1) or real(*a, **k))
    G = nx.powerlaw_cluster_graph(200, 4, 0.5, seed=7)
    G.add_edges_from([(0, 0), (5, 5)])
    G.__networkx_cache__ = None  # convert on every call (NetworkX warns on a cached one)
    assert nx.triangles(G, backend="semiring") == nx.triangles(G)
    assert nx.clustering(G, backend="semiring") == nx.clustering(G)
    assert nx.average_clustering(G, backend="semiring") == nx.average_clustering(G)
    assert nx.transitivity(G, backend="semiring") == nx.transitivity(G)
    # (the backend's graphs live on the default device: a GPU one runs 'mxm' there)
    listed = compiled.ENABLED and sr.default_device() == "cpu"
    assert len(calls) == (4 if listed else 0)
