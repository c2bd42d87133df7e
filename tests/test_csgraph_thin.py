"""The facade's long, thin graphs (``algorithms.csgraph._thin``): the probe that finds them on
the engine path and the host searches that serve them, against SciPy on every input kind.

- traversals: with the probe forced to call every graph thin, ``breadth_first_order`` /
  ``_tree`` run SciPy's BFS on a host copy of the structure (renumbered in level order, or
  not), ``depth_first_order`` / ``_tree`` SciPy's DFS on it; the undirected rows (each row and
  its transposed row) are built on the input's device. Orders and trees must be SciPy's
  exactly, for each input kind, direction and ``i_start``;
- shortest paths: with the probe forced to call every graph that is still narrow after one
  level thin, ``dijkstra`` / ``shortest_path`` / ``bellman_ford`` / ``johnson`` / ``yen``
  answer by the host route, which must be the host path's answer exactly (SciPy's);
- the probe's verdicts on the graphs that motivated it: a path is thin, a 2-D grid is not
  thin for shortest paths, a Kronecker-like star is wide.

Each test body runs on every device (``device`` fixture): on the CPU with
``_validation.FORCE_ENGINE`` (the engine path's code on NumPy), on the GPU with GPU input.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import assume, given, strategies as st

import semiring as sr
from algorithms import csgraph
from algorithms.csgraph import _thin, _validation
from conftest import to_host
from test_csgraph_facade import (as_kind, check_device, check_predecessors, graphs,
                                 host_only_default_device, kind, scipy_input, weights)

__all__ = ["kind"]  # the fixture, imported for pytest


@pytest.fixture
def engine(device, monkeypatch):
    """The device, with the engine path forced on host input (GPU input always runs it)."""
    monkeypatch.setattr(_validation, "FORCE_ENGINE", device == "cpu")
    monkeypatch.setattr(_thin, "THIN_ON_CPU", True)
    if device == "cpu":
        host_only_default_device(monkeypatch)
    return device


@pytest.fixture(params=["renumbered", "plain", "small"])
def thin_traversal(engine, request, monkeypatch):
    """Every traversal thin after one level; ``renumbered``: always renumbered (the full levels
    by the engine's BFS), ``plain``: never (the structure as stored); ``small``: the small-input
    path (every graph within ``HOST_MAX_WORK``: SciPy's search on the structure's host copy,
    SciPy building the undirected rows)."""
    from algorithms.csgraph import _traversal

    if request.param == "small":
        monkeypatch.setattr(_traversal, "_small", lambda csgraph, op: True)
    monkeypatch.setattr(_thin, "PROBE_LEVELS", 1)
    if request.param == "renumbered":
        monkeypatch.setattr(_thin, "RENUMBER_NNZ", 0)
        monkeypatch.setattr(_thin, "RENUMBER_WIDTH", 0)
    else:
        monkeypatch.setattr(_thin, "RENUMBER_NNZ", 1 << 62)
    return engine


def _host(x):
    return to_host(x)


@given(data=st.data(), g=graphs(max_n=14), directed=st.booleans(), preds=st.booleans(),
       fn=st.sampled_from(["breadth_first_order", "depth_first_order"]))
def test_thin_traversal_orders_are_scipys(thin_traversal, kind, data, g, directed, preds, fn):
    device = thin_traversal
    assume(g[0] > 0)
    x, ref = as_kind(g, kind, device)
    start = data.draw(st.integers(0, g[0] - 1))
    got = getattr(csgraph, fn)(x, start, directed=directed, return_predecessors=preds)
    exp = getattr(scg, fn)(scipy_input(ref), start, directed=directed,
                           return_predecessors=preds)
    got, exp = (got, exp) if preds else ((got,), (exp,))
    for a, b in zip(got, exp):
        check_device(a, device)
        a = _host(a)
        assert a.dtype == np.int32
        np.testing.assert_array_equal(a, b)


@given(data=st.data(), g=graphs(max_n=14), directed=st.booleans(),
       fn=st.sampled_from(["breadth_first_tree", "depth_first_tree"]))
def test_thin_traversal_trees_are_scipys(thin_traversal, kind, data, g, directed, fn):
    device = thin_traversal
    assume(g[0] > 0)
    x, ref = as_kind(g, kind, device)
    start = data.draw(st.integers(0, g[0] - 1))
    got = getattr(csgraph, fn)(x, start, directed=directed)
    exp = getattr(scg, fn)(scipy_input(ref), start, directed=directed)
    h = got.get() if device == "gpu" else got
    np.testing.assert_array_equal(h.toarray(), exp.toarray())
    assert sorted(zip(*sp.coo_array(h).coords)) == sorted(zip(*sp.coo_array(exp).coords))


def test_with_transpose_is_scipys_undirected_rows():
    """Each row followed by its row of ``S.T.tocsr()`` (in-neighbours ascending, duplicates in
    stored order), for a non-canonical CSR."""
    rng = np.random.default_rng(3)
    n, m = 40, 200
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    o = np.argsort(r, kind="stable")
    ptr = np.r_[0, np.cumsum(np.bincount(r, minlength=n))]
    S = sp.csr_matrix((np.arange(m, dtype=np.float64), c[o], ptr), shape=(n, n))
    ip, ind = _thin._with_transpose(S.indptr, S.indices, n)
    T = S.T.tocsr()
    for v in range(n):
        want = np.r_[S.indices[S.indptr[v]:S.indptr[v + 1]], T.indices[T.indptr[v]:T.indptr[v + 1]]]
        np.testing.assert_array_equal(ind[ip[v]:ip[v + 1]], want)


# ------------------------------------------------------------------------------ shortest paths


@pytest.fixture
def thin_paths(engine, monkeypatch):
    """Every graph still narrow after one BFS level is thin for shortest paths; the calls to
    the host route are counted."""
    monkeypatch.setattr(_thin, "SSSP_PROBE_LEVELS", 1)
    monkeypatch.setattr(_thin, "SSSP_THIN_FRONTIER", 1 << 40)
    calls = []
    real = _validation.host_route

    def spy(fn, *a):
        calls.append(fn.__name__)
        return real(fn, *a)

    monkeypatch.setattr(_validation, "host_route", spy)
    return engine, calls


def _on_host(fn, *args, **kw):
    """The facade's host path on host input (SciPy's answer), errors included."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args, **kw), None
    except Exception as e:  # noqa: BLE001  (the same error type is expected of the route)
        return None, type(e)


def _same_distances_valid_predecessors(got, exp, device, ref, directed, sources):
    """Bellman–Ford and Johnson answered by Dijkstra (no negative weights): SciPy's distances
    exactly; predecessors on shortest paths (ties may name another one)."""
    (dg, pg), (de, pe) = got, exp
    _same_answer(dg, de, device)
    check_device(pg, device)
    W = weights(ref)
    check_predecessors(_host(dg), _host(pg), sources, W, directed, False)


def _same_answer(got, exp, device):
    got, exp = (got, exp) if isinstance(exp, tuple) else ((got,), (exp,))
    assert len(got) == len(exp)
    for a, b in zip(got, exp):
        check_device(a, device)
        a = _host(a)
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


CALLS = {
    "dijkstra": lambda G, s, d: csgraph.dijkstra(G, directed=d, indices=s,
                                                 return_predecessors=True),
    "dijkstra_limit": lambda G, s, d: csgraph.dijkstra(G, directed=d, indices=[s, 0],
                                                       limit=3.0, return_predecessors=True),
    "dijkstra_min_only": lambda G, s, d: csgraph.dijkstra(G, directed=d, indices=[s],
                                                          min_only=True,
                                                          return_predecessors=True),
    "shortest_path_auto": lambda G, s, d: csgraph.shortest_path(G, directed=d, indices=s,
                                                                return_predecessors=True),
    "shortest_path_D_unweighted": lambda G, s, d: csgraph.shortest_path(
        G, method="D", directed=d, indices=s, unweighted=True),
    "bellman_ford": lambda G, s, d: csgraph.bellman_ford(G, directed=d, indices=s,
                                                         return_predecessors=True),
    "johnson": lambda G, s, d: csgraph.johnson(G, directed=d, indices=[s],
                                               return_predecessors=True),
    "yen": lambda G, s, d: csgraph.yen(G, s, 0, 3, directed=d, return_predecessors=True),
}


@given(data=st.data(), g=graphs(max_n=12, negative=True, inf=False), directed=st.booleans(),
       name=st.sampled_from(sorted(CALLS)))
def test_thin_shortest_paths_take_the_host_route_with_its_answer(thin_paths, data, g, directed,
                                                                  name):
    device, calls = thin_paths
    assume(g[0] > 0)
    kind_ = data.draw(st.sampled_from(["cupyx", "cupy"] if device == "gpu" else
                                      ["csr_matrix", "dense"]))
    x, ref = as_kind(g, kind_, device)
    s = data.draw(st.integers(0, g[0] - 1))
    call = CALLS[name]
    if name.startswith("dijkstra") or name == "shortest_path_D_unweighted" or name == "yen":
        if name != "shortest_path_D_unweighted":
            assume(not (np.asarray(g[3]) < 0).any() and not (np.asarray(g[6]) < 0).any())
    saved = _validation.FORCE_ENGINE
    _validation.FORCE_ENGINE = False
    try:
        exp, exp_err = _on_host(call, scipy_input(ref), s, directed)
    finally:
        _validation.FORCE_ENGINE = saved
    del calls[:]
    if exp_err is not None:
        with pytest.raises(exp_err):
            call(x, s, directed)
        return
    got = call(x, s, directed)
    negative = bool((np.asarray(g[3]) < 0).any() or (np.asarray(g[6]) < 0).any())
    if name in ("bellman_ford", "johnson") and not negative:
        _same_distances_valid_predecessors(got, exp, device, scipy_input(ref), directed, [s])
    else:
        _same_answer(got, exp, device)
    # the probe's one level finds the graph thin exactly where the source has a neighbour
    n, r, c = g[0], np.asarray(g[1]), np.asarray(g[2])
    out = (r == s) & (c != s)
    if not directed:
        out |= (c == s) & (r != s)
    routed = [] if not out.any() else [name.split("_")[0] if name != "bellman_ford"
                                       else name]
    if name.startswith("shortest_path"):
        routed = ["shortest_path"] if out.any() else []
    if name == "yen" and device == "cpu":
        routed = []  # on the CPU Yen's spur searches are SciPy's Dijkstra already
    if negative and name in ("bellman_ford", "johnson", "shortest_path_auto"):
        routed = []  # negative weights: the engine stays (no probe)
    if name in ("bellman_ford", "johnson") and routed:
        routed = ["dijkstra"]  # the same distances, where SciPy's make N passes
    assert calls == routed, (calls, routed)


def test_a_path_takes_the_host_route_and_a_grid_does_not(engine, monkeypatch):
    """The probe's verdicts with its real thresholds: a directed path of 2000 vertices is thin
    (dijkstra answers by the host route), a 200² grid is not (the engine runs), whatever the
    source's place."""
    calls = []
    real = _validation.host_route

    def spy(fn, *a):
        calls.append(fn.__name__)
        return real(fn, *a)

    monkeypatch.setattr(_validation, "host_route", spy)
    for op in list(_validation.HOST_MAX_WORK):
        monkeypatch.setitem(_validation.HOST_MAX_WORK, op, 0)
    n = 2000
    P = sp.csr_matrix((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
    x = _on(engine, P)
    d = csgraph.dijkstra(x, indices=0)
    np.testing.assert_array_equal(_host(d), np.arange(n, dtype=np.float64))
    assert calls == ["dijkstra"]
    k = 200
    idx = np.arange(k * k).reshape(k, k)
    u = np.r_[idx[:, :-1].ravel(), idx[:-1, :].ravel()]
    v = np.r_[idx[:, 1:].ravel(), idx[1:, :].ravel()]
    G = sp.csr_matrix((np.ones(2 * u.size), (np.r_[u, v], np.r_[v, u])), shape=(k * k, k * k))
    g = _on(engine, G)
    del calls[:]
    # from a corner the first 64 levels reach 2080 vertices: the verdict needs the second
    # launch (256 levels: 32 896 vertices, not thin)
    for s in (0, k * k // 2 + k // 2):
        d = csgraph.dijkstra(g, indices=s)
        np.testing.assert_array_equal(_host(d), scg.dijkstra(G, indices=s))
    assert calls == []
    # a strip 20 wide: 64 levels reach about 1300 vertices (open), 256 levels about 5100
    # (< 256 · 64): thin
    w, L = 20, 1500
    idx = np.arange(w * L).reshape(L, w)
    u = np.r_[idx[:, :-1].ravel(), idx[:-1, :].ravel()]
    v = np.r_[idx[:, 1:].ravel(), idx[1:, :].ravel()]
    T = sp.csr_matrix((np.ones(2 * u.size), (np.r_[u, v], np.r_[v, u])), shape=(w * L, w * L))
    d = csgraph.dijkstra(_on(engine, T), indices=0)
    np.testing.assert_array_equal(_host(d), scg.dijkstra(T, indices=0))
    assert calls == ["dijkstra"]


def test_probe_verdicts():
    """A path is 'limit' after PROBE_LEVELS narrow levels; a star of 10⁵ leaves is wide at
    once; a small graph explored within the probe is 'done'."""
    n = 1000
    P = sp.csr_matrix((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
    status, level = _thin.probe(P.indptr, P.indices, n, 0, 64)
    assert status == "limit" and int((level >= 0).sum()) == 65
    m = 100_000
    S = sp.csr_matrix((np.ones(m), (np.zeros(m, dtype=np.int64), np.arange(1, m + 1))),
                      shape=(m + 1, m + 1))
    assert _thin.probe(S.indptr, S.indices, m + 1, 0, 64)[0] in ("wide", "overflow")
    status, level = _thin.probe(P.indptr, P.indices, n, n - 5, 64)
    assert status == "done" and level[-1] == 4


def _on(device, S):
    if device == "cpu":
        return S
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

    return cps.csr_matrix(S)


def test_gpu_results_stay_on_the_gpu_for_thin_graphs(device):
    """GPU input answered by the host searches still answers with CuPy arrays."""
    if device != "gpu":
        pytest.skip("GPU input only")
    n = 5000
    P = sp.csr_matrix((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
    x = _on("gpu", P)
    for res in (csgraph.breadth_first_order(x, 0), csgraph.depth_first_order(x, 0),
                csgraph.dijkstra(x, indices=0, return_predecessors=True),
                csgraph.bellman_ford(x, indices=[0, 1])):
        for a in (res if isinstance(res, tuple) else (res,)):
            assert sr.is_gpu_array(a)
