"""The csgraph facade's route for small GPU input (``_validation.HOST_MAX_WORK``): SciPy's
routine on a host copy, answered on the GPU, giving exactly what the engine path gives."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st

from algorithms import csgraph
from algorithms.csgraph import _thin, _validation
from conftest import to_host

pytestmark = pytest.mark.host_route

CALLS = {
    "breadth_first_order": lambda G: csgraph.breadth_first_order(G, 0),
    "breadth_first_tree": lambda G: csgraph.breadth_first_tree(G, 0, directed=False),
    "depth_first_order": lambda G: csgraph.depth_first_order(G, 1, directed=False),
    "depth_first_tree": lambda G: csgraph.depth_first_tree(G, 0),
    "laplacian": lambda G: csgraph.laplacian(G, normed=False, return_diag=True),
    "dijkstra": lambda G: csgraph.dijkstra(G, indices=[0, 1], return_predecessors=True),
    "bellman_ford": lambda G: csgraph.bellman_ford(G, indices=0),
    "johnson": lambda G: csgraph.johnson(G, indices=1, return_predecessors=True),
    "shortest_path": lambda G: csgraph.shortest_path(G, return_predecessors=True),
    "connected_components": lambda G: csgraph.connected_components(G, connection="strong"),
    "minimum_spanning_tree": lambda G: csgraph.minimum_spanning_tree(G),
}


def _graph(n, seed, kind):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 3 * n + 1))
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 6, m).astype(np.float64)  # explicit zeros too
    if kind == "noncanonical":  # unsorted columns, duplicates: stored order as given
        o = np.argsort(r, kind="stable")
        ptr = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=n))])
        return sp.csr_matrix((w[o], c[o], ptr), shape=(n, n))
    S = sp.csr_matrix((w, (r, c)), shape=(n, n))
    return S.toarray() if kind == "dense" else S


def _gpu(S):
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    if isinstance(S, np.ndarray):
        return cp.asarray(S)
    return cps.csr_matrix((cp.asarray(S.data), cp.asarray(S.indices), cp.asarray(S.indptr)),
                          shape=S.shape)


def _same(a, b):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
        return
    assert type(a) is type(b), (type(a), type(b))
    if hasattr(a, "tocsr") and not isinstance(a, np.ndarray):  # cupyx sparse
        # the same matrix: entries, values and dtype (the engine's trees store each row's
        # entries sorted, SciPy's in its search's order)
        a, b = a.get().tocsr(), b.get().tocsr()  # a Laplacian is COO
        assert a.dtype == b.dtype and a.shape == b.shape and a.nnz == b.nnz
        a.sort_indices()
        b.sort_indices()
        np.testing.assert_array_equal(a.indptr, b.indptr)
        np.testing.assert_array_equal(a.indices, b.indices)
        np.testing.assert_array_equal(a.data, b.data)
        return
    if isinstance(a, (int, np.integer)):
        assert a == b
        return
    a, b = to_host(a), to_host(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)


@given(n=st.integers(2, 30), seed=st.integers(0, 2**32 - 1),
       kind=st.sampled_from(["csr", "noncanonical", "dense"]), name=st.sampled_from(sorted(CALLS)))
def test_small_gpu_input_runs_on_the_host_with_the_engine_answer(device, monkeypatch, n, seed,
                                                                kind, name):
    if device != "gpu":
        pytest.skip("the route is for GPU input")
    S = _graph(n, seed, kind)
    G = _gpu(S)
    call = CALLS[name]
    copies = []
    real = _validation._to_host
    monkeypatch.setattr(_validation, "_to_host", lambda a: copies.append("full") or real(a))
    # the traversals' route copies the structure only (``_thin._to_host``)
    real_thin = _thin._to_host
    monkeypatch.setattr(_thin, "_to_host",
                        lambda a: copies.append("structure") or real_thin(a))
    try:
        routed = call(G)
        error = None
    except Exception as e:  # noqa: BLE001  (the engine must raise the same)
        routed, error = None, e
    # a function whose rule is off (0: the engine is faster at every size) never routes: no
    # full copy (strong components' engine path still reads a host copy of the structure)
    routes = bool(_validation.HOST_MAX_WORK.get(name))
    assert (bool(copies) if routes else "full" in copies) == routes, \
        f"{name}: small GPU input took the wrong path"
    with monkeypatch.context() as mp:
        mp.setattr(_validation, "HOST_MAX_WORK", {})
        copies.clear()
        if error is not None:
            with pytest.raises(type(error)):
                call(G)
            return
        engine = call(G)
        # the engine path of a traversal may still finish on the host (a thin graph: all
        # of these small ones), and strong components run SciPy's Tarjan on the host, both
        # through the structure's copy, never the route's full one
        if name in ("breadth_first_order", "breadth_first_tree", "depth_first_order",
                    "depth_first_tree", "connected_components"):
            assert "full" not in copies
        else:
            assert not copies
    if name in PREDECESSORS:
        # ties let several predecessors be right (issue 15: checked for validity): the same
        # distances, the same unreached vertices, and every engine predecessor on a shortest
        # path
        (dr, pr), (de, pe) = routed, engine
        _same(dr, de)
        pr, pe, d = (np.atleast_2d(to_host(a)) for a in (pr, pe, dr))
        np.testing.assert_array_equal(pr == -9999, pe == -9999)
        w = _edge_weights(S)
        for i, v in zip(*np.nonzero(pe != -9999)):
            u = int(pe[i, v])
            assert (u, int(v)) in w and d[i, v] == d[i, u] + w[u, int(v)], (name, i, v, u)
        return
    _same(routed, engine)


#: The calls above that return predecessors: their ties may resolve differently.
PREDECESSORS = {"dijkstra", "johnson", "shortest_path"}


def _edge_weights(S):
    """{(u, v): the least weight of the edges u → v} of a host graph as csgraph reads it
    (sparse: every stored entry an edge, explicit zeros too; dense: zeros are no edges)."""
    C = sp.coo_matrix(S)
    if isinstance(S, np.ndarray):
        keep = C.data != 0
        C = sp.coo_matrix((C.data[keep], (C.row[keep], C.col[keep])), shape=C.shape)
    w = {}
    for u, v, x in zip(C.row.tolist(), C.col.tolist(), C.data.tolist()):
        w[u, v] = min(x, w.get((u, v), np.inf))
    return w


def test_route_limits(device, monkeypatch):
    S = _graph(40, 1, "csr")
    G = S if device == "cpu" else _gpu(S)
    seen = []
    real = _validation._to_host
    monkeypatch.setattr(_validation, "_to_host", lambda a: seen.append(1) or real(a))
    csgraph.dijkstra(G, indices=0)
    assert bool(seen) == (device == "gpu")  # host input is never copied
    seen.clear()
    monkeypatch.setitem(_validation.HOST_MAX_WORK, "dijkstra", S.nnz * 2 - 1)
    monkeypatch.setitem(_validation.HOST_MAX_WORK_BATCH, "dijkstra", S.nnz * 2 - 1)
    csgraph.dijkstra(G, indices=[0, 1])  # the work of two searches is past the bound
    assert not seen
    monkeypatch.setitem(_validation.HOST_MAX_WORK_BATCH, "dijkstra", S.nnz * 2)
    csgraph.dijkstra(G, indices=[0, 1])  # several sources: the batch bound applies
    assert bool(seen) == (device == "gpu")
    seen.clear()
    monkeypatch.setitem(_validation.HOST_MAX_WORK, "dijkstra", S.nnz - 1)
    csgraph.dijkstra(G, indices=0)  # one source: HOST_MAX_WORK's
    assert not seen
    # predecessors: the bound shifted right by HOST_PREDECESSORS_SHIFT (SciPy's routine on the
    # route), by keyword or by position
    monkeypatch.setitem(_validation.HOST_MAX_WORK, "dijkstra", 2 * S.nnz)
    monkeypatch.setitem(_validation.HOST_PREDECESSORS_SHIFT, "dijkstra", 1)
    for pred in ({"return_predecessors": True}, {}):
        seen.clear()
        csgraph.dijkstra(G, True, 0, **pred)
        assert bool(seen) == (device == "gpu")
    monkeypatch.setitem(_validation.HOST_MAX_WORK, "dijkstra", 2 * S.nnz - 1)
    for args, kw in (((True, 0, True), {}), ((), {"indices": 0, "return_predecessors": 1})):
        seen.clear()
        csgraph.dijkstra(G, *args, **kw)
        assert not seen
    seen.clear()
    csgraph.dijkstra(G, indices=0)  # distances: the whole bound
    assert bool(seen) == (device == "gpu")


@pytest.mark.parametrize("fn", ["bellman_ford", "johnson"])
def test_nonnegative_weights_take_dijkstras_bounds(device, monkeypatch, fn):
    """Bellman–Ford and Johnson past their own bound route as Dijkstra does when they ask
    for distances only on weights >= 0 (their host path is the compiled Dijkstra then);
    predecessors, a negative or NaN weight, or work past Dijkstra's bound keep the engine."""
    S = _graph(40, 1, "csr")
    call = getattr(csgraph, fn)
    seen = []
    real = _validation._to_host
    monkeypatch.setattr(_validation, "_to_host", lambda a: seen.append(1) or real(a))
    monkeypatch.setitem(_validation.HOST_MAX_WORK, fn, 1)
    monkeypatch.setitem(_validation.HOST_MAX_WORK, "dijkstra", S.nnz)
    monkeypatch.setitem(_validation.HOST_MAX_WORK_BATCH, "dijkstra", 2 * S.nnz)
    routes = device == "gpu" and _validation._host_compiled()

    def took_route(*args, G=None, **kw):
        seen.clear()
        out = call(_gpu(S) if G is None and device == "gpu" else (S if G is None else G),
                   *args, **kw)
        return bool(seen), out

    hit, routed = took_route(indices=0)
    assert hit == routes
    assert took_route(indices=[0, 1])[0] == routes  # the batch bound: two searches
    assert not took_route(indices=0, return_predecessors=True)[0]
    assert not took_route(False, 0, True)[0]  # return_predecessors given by position
    monkeypatch.setitem(_validation.HOST_MAX_WORK, "dijkstra", S.nnz - 1)
    hit, engine = took_route(indices=0)
    assert not hit
    _same(routed, engine)
    monkeypatch.setitem(_validation.HOST_MAX_WORK, "dijkstra", S.nnz)
    for bad in (-1.0, np.nan):
        W = S.copy()
        W.data[3] = bad
        if device == "gpu":
            seen.clear()
            try:
                call(_gpu(W), indices=0)
            except Exception:  # noqa: BLE001  (a negative cycle: only where it is raised matters)
                pass
            assert not seen, bad


def test_gpu_weights_nonneg(device):
    if device != "gpu":
        pytest.skip("GPU input only")
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    import semiring as sr  # noqa: PLC0415  (the engine's Matrix as facade input)

    S = _graph(20, 3, "csr")
    check = _validation._gpu_weights_nonneg
    assert check(_gpu(S)) and check(_gpu(S.toarray()))
    assert check(sr.Matrix.from_scipy(S, device="gpu"))
    assert check(_gpu(sp.csr_matrix((20, 20))))  # no entries
    assert check(cp.zeros((3, 3), dtype=bool))
    for bad in (-0.5, np.nan, -np.inf):
        W = S.copy()
        W.data[0] = bad
        assert not check(_gpu(W)) and not check(_gpu(W.toarray())), bad
        assert not check(sr.Matrix.from_scipy(W, device="gpu")), bad
    assert not check(cp.ones((2, 2), dtype=np.complex128))
