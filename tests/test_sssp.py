"""SSSP (algorithms.sssp) and its csgraph facade against scipy.sparse.csgraph.

Graphs: random weights including 0, negative edges without negative cycles (weights
reweighted by a potential), negative cycles, unreachable parts, self-loops, duplicates (summed,
as SciPy does), int32/int64/float32/float64, iso matrices, a single vertex, no edges. Every test
runs on every backend (the ``device`` fixture), both methods, push and pull.
"""

from __future__ import annotations

import contextlib
import importlib

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms
import semiring as sr
from algorithms import csgraph
from algorithms.sssp import DistanceOverflow
from tests.conftest import to_host

WEIGHT_TYPES = [np.int32, np.int64, np.float32, np.float64]


@st.composite
def graphs(draw, negative="none", max_n=12):
    """(scipy csr with possible duplicates, source). negative: 'none' (w >= 0), 'potential'
    (negative edges, no negative cycle) or 'any' (negative cycles possible)."""
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, 3 * n))
    seed = draw(st.integers(0, 2**31 - 1))
    dtype = np.dtype(draw(st.sampled_from(WEIGHT_TYPES)))
    rng = np.random.default_rng(seed)
    # unreachable parts: edges only inside two blocks sometimes
    split = draw(st.booleans())
    rows = rng.integers(0, n, m)
    cols = rng.integers(0, n, m)
    if split and n > 2:
        cut = n // 2
        cols = np.where(rows < cut, cols % cut, cut + cols % (n - cut))
    w = rng.integers(0, 10, m).astype(np.int64)  # zeros included
    if negative == "any":
        w = rng.integers(-4, 10, m)
    if dtype.kind == "f" and draw(st.booleans()):
        w = w + 0.5 * rng.integers(0, 2, m)
    if negative == "potential":
        # reweight after summing duplicates: the sum of k reweighted copies of an edge would
        # carry k times the potential difference, and could close a negative cycle
        S = sp.coo_matrix((w, (rows, cols)), shape=(n, n)).tocsr()
        S.sum_duplicates()
        p = rng.integers(0, 8, n)
        r = np.repeat(np.arange(n), np.diff(S.indptr))
        S.data = S.data + p[r] - p[S.indices]
        rows, cols, w = r, S.indices, S.data
    A = sp.coo_matrix((w.astype(dtype), (rows, cols)), shape=(n, n)).tocsr()  # may hold duplicates
    source = draw(st.integers(0, n - 1))
    return A, source


def _ref(A, source, method="D"):
    S = A.astype(np.float64)
    S.sum_duplicates()
    fn = csg.dijkstra if method == "D" else csg.bellman_ford
    return fn(S, directed=True, indices=source)


def _as_float(dist, dtype):
    dist = to_host(dist)
    if np.dtype(dtype).kind == "f":
        return dist.astype(np.float64)
    big = np.iinfo(dist.dtype).max
    return np.where(dist == big, np.inf, dist.astype(np.float64))


def check_tree(A, source, dist, pred):
    """pred: −1 at the source and unreachable vertices; d[pred] + w = d elsewhere; following
    pred from any reachable vertex ends at the source (a tree, no cycle)."""
    S = A.astype(np.float64)
    S.sum_duplicates()
    n = S.shape[0]
    dist = np.asarray(dist, dtype=np.float64)
    pred = to_host(pred)
    reach = np.isfinite(dist)
    assert pred[source] == -1
    assert np.all(pred[~reach] == -1)
    v = np.flatnonzero(reach)
    v = v[v != source]
    assert np.all(pred[v] >= 0), "a reachable vertex without a predecessor"
    u = pred[v]
    w = np.asarray(S[u, v]).ravel()
    assert np.all(_has_entry(S, u, v)), "predecessor edge missing"
    assert np.allclose(dist[u] + w, dist[v], rtol=1e-6, atol=0)
    hop = pred.copy()
    hop[source] = source
    for _ in range(n):
        hop = np.where(hop >= 0, hop[np.maximum(hop, 0)], hop)
    assert np.all(hop[v] == source), "predecessors form a cycle"


def _has_entry(S, u, v):
    S = S.tocsr()
    S.sort_indices()
    out = np.zeros(u.size, dtype=bool)
    for t, (a, b) in enumerate(zip(u, v)):  # test-side check, tiny graphs
        cols = S.indices[S.indptr[a]:S.indptr[a + 1]]
        out[t] = b in cols
    return out


METHODS = ["bellman_ford", "delta_stepping"]
DIRS = ["push", "pull", "auto"]
#: Fused relaxation rounds as the algorithms use them, off, and handing back after a few
#: edges (so the loops leave and re-enter the fused runs).
#: "default" leaves DEVICE_LOOP as the algorithms set it, "device" forces the device loop
#: (GPU, w >= 0), the others turn it off so that the host paths run on the GPU too.
FUSED = {"default": {}, "off": {"FUSED_FRONTIER": 0, "DEVICE_LOOP": "never"},
         "tiny": {"FUSED_EDGES": 3, "DEVICE_LOOP": "never"},
         # every round written with the plain operations (vxm, then compares and assigns)
         "algebra": {"ROUNDS": "algebra", "FUSED_FRONTIER": 0, "DEVICE_LOOP": "never"},
         "device": {"DEVICE_LOOP": "always"}}
sssp_module = importlib.import_module("algorithms.sssp")  # algorithms.sssp is the function


@contextlib.contextmanager
def fused_mode(mode):
    with pytest.MonkeyPatch.context() as mp:
        for name, value in FUSED[mode].items():
            mp.setattr(sssp_module, name, value)
        yield


@settings(max_examples=60)
@given(g=graphs(), method=st.sampled_from(METHODS), direction=st.sampled_from(DIRS),
       data=st.data(), fused=st.sampled_from(sorted(FUSED)))
def test_nonnegative_matches_dijkstra(device, g, method, direction, data, fused):
    A, s = g
    M = sr.Matrix.from_scipy(A, device=device)
    delta = data.draw(st.sampled_from([None, 0.5, 1, 3, 100])) if method == "delta_stepping" else None
    kw = {"delta": delta} if method == "delta_stepping" else {}
    with fused_mode(fused):
        dist, pred = algorithms.sssp(M, s, method, predecessors=True, direction=direction, **kw)
    assert to_host(dist).dtype == A.dtype
    got = _as_float(dist, A.dtype)
    want = _ref(A, s)
    np.testing.assert_allclose(got, want, rtol=1e-6 if A.dtype == np.float32 else 0)
    check_tree(A, s, got, pred)


@settings(max_examples=60)
@given(g=graphs(negative="potential"), direction=st.sampled_from(DIRS),
       fused=st.sampled_from(sorted(FUSED)))
def test_negative_edges_match_bellman_ford(device, g, direction, fused):
    A, s = g
    M = sr.Matrix.from_scipy(A, device=device)
    with fused_mode(fused):
        dist, pred = algorithms.bellman_ford(M, s, predecessors=True, direction=direction)
    got = _as_float(dist, A.dtype)
    np.testing.assert_allclose(got, _ref(A, s, "BF"), rtol=1e-6 if A.dtype == np.float32 else 0)
    check_tree(A, s, got, pred)
    same = algorithms.sssp(M, s)  # auto: Bellman–Ford where a weight is negative
    assert np.array_equal(_as_float(same, A.dtype), got)


@settings(max_examples=80)
@given(g=graphs(negative="any"), direction=st.sampled_from(DIRS),
       fused=st.sampled_from(sorted(FUSED)))
def test_negative_cycle_exactly_where_scipy_raises(device, g, direction, fused):
    A, s = g
    M = sr.Matrix.from_scipy(A, device=device)
    try:
        want = _ref(A, s, "BF")
    except csg.NegativeCycleError:
        with pytest.raises(sr.NegativeCycleError) as ei, fused_mode(fused):
            algorithms.bellman_ford(M, s, direction=direction)
        cyc = np.asarray(to_host(ei.value.vertices))
        # the named vertices form a cycle of negative weight: check with the dense minimum
        S = A.astype(np.float64)
        S.sum_duplicates()
        assert cyc.size >= 1
        sub = S[cyc][:, cyc]
        # a negative cycle inside the named vertices: SciPy detects it from any of them
        with pytest.raises(csg.NegativeCycleError):
            csg.bellman_ford(sub, indices=0)
        with pytest.raises(csg.NegativeCycleError):  # the facade's error is SciPy's too
            csgraph.bellman_ford(M, indices=s)
        return
    with fused_mode(fused):
        got = _as_float(algorithms.bellman_ford(M, s, direction=direction), A.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-6 if A.dtype == np.float32 else 0)


@settings(max_examples=30)
@given(g=graphs(), method=st.sampled_from(METHODS))
def test_iso_matrix_weighs_every_edge_one(device, g, method):
    A, s = g
    M = sr.Matrix.from_scipy(A, device=device, iso=True)
    dist, pred = algorithms.sssp(M, s, method, predecessors=True)
    want = csg.dijkstra(A, indices=s, unweighted=True)
    assert to_host(dist).dtype == np.float64
    np.testing.assert_array_equal(to_host(dist), want)
    ones = A.copy()
    ones.sum_duplicates()
    ones.data[:] = 1
    check_tree(ones, s, to_host(dist), pred)


def test_zero_weight_cycles_give_a_tree(device):
    # 0 -> 1 (1), 1 <-> 2 <-> 3 zero-weight cycle, 3 -> 1 (0): every tight choice is circular
    r = [0, 1, 2, 3, 2, 3, 1]
    c = [1, 2, 3, 1, 1, 2, 3]
    w = [1, 0, 0, 0, 0, 0, 0]
    A = sp.csr_matrix((np.array(w, dtype=np.int64), (r, c)), shape=(5, 5))
    M = sr.Matrix.from_coo(r, c, np.array(w, dtype=np.int64), nrows=5, ncols=5, device=device)
    for method in METHODS:
        dist, pred = algorithms.sssp(M, 0, method, predecessors=True)
        assert to_host(dist).tolist() == [0, 1, 1, 1, np.iinfo(np.int64).max]
        assert to_host(pred)[1] == 0 and to_host(pred)[4] == -1
        check_tree(A, 0, _as_float(dist, np.int64), pred)  # A keeps its explicit zeros
    # a zero-sum cycle of negative and positive edges
    M2 = sr.Matrix.from_coo([0, 1, 2], [1, 2, 1], np.array([1, -2, 2]), nrows=3, ncols=3,
                            device=device)
    dist, pred = algorithms.bellman_ford(M2, 0, predecessors=True)
    assert to_host(dist).tolist() == [0, 1, -1] and to_host(pred).tolist() == [-1, 0, 1]


def test_single_vertex_and_no_edges(device):
    for dt in WEIGHT_TYPES:
        M = sr.Matrix.from_coo([], [], np.zeros(0, dtype=dt), nrows=3, ncols=3, device=device)
        for method in METHODS:
            dist, pred = algorithms.sssp(M, 1, method, predecessors=True)
            inf = np.inf if np.dtype(dt).kind == "f" else np.iinfo(dt).max
            assert to_host(dist).tolist() == [inf, 0, inf]
            assert to_host(pred).tolist() == [-1, -1, -1]
    one = sr.Matrix.from_coo([0], [0], np.array([-1.0]), nrows=1, ncols=1, device=device)
    with pytest.raises(sr.NegativeCycleError) as ei:
        algorithms.bellman_ford(one, 0)
    assert to_host(ei.value.vertices).tolist() == [0]


def test_integer_limits(device):
    big = 10**9
    # int32: three edges of 10^9 pass int32's range: an error, not a wrap-around
    M = sr.Matrix.from_coo([0, 1, 2], [1, 2, 3], np.full(3, big, dtype=np.int32),
                          nrows=4, ncols=4, device=device)
    for method in METHODS:
        with pytest.raises(DistanceOverflow):
            algorithms.sssp(M, 0, method)
        # two edges fit (relaxed in int64, returned in int32)
        d = algorithms.sssp(M, 1, method)
        assert to_host(d).dtype == np.int32 and to_host(d).tolist() == [
            2**31 - 1, 0, big, 2 * big]
    neg = sr.Matrix.from_coo([0, 1, 2], [1, 2, 3], np.full(3, -big, dtype=np.int32),
                             nrows=4, ncols=4, device=device)
    with pytest.raises(DistanceOverflow):
        algorithms.bellman_ford(neg, 0)
    assert to_host(algorithms.bellman_ford(neg, 1)).tolist() == [2**31 - 1, 0, -big, -2 * big]
    # int64: a bound check up front
    M64 = sr.Matrix.from_coo([0, 1], [1, 2], np.full(2, 2**62, dtype=np.int64),
                          nrows=3, ncols=3, device=device)
    with pytest.raises(DistanceOverflow):
        algorithms.sssp(M64, 0)
    ok64 = sr.Matrix.from_coo([0, 1], [1, 2], np.full(2, 2**60, dtype=np.int64),
                          nrows=3, ncols=3, device=device)
    assert to_host(algorithms.sssp(ok64, 0)).tolist() == [0, 2**60, 2**61]


def test_validation(device):
    M = sr.Matrix.from_coo([0], [1], np.array([1.0]), nrows=2, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match="square"):
        algorithms.bellman_ford(M, 0)
    A = sr.Matrix.from_coo([0, 1], [1, 0], np.array([1.0, 2.0]), device=device)
    for fn in (algorithms.bellman_ford, algorithms.delta_stepping, algorithms.sssp):
        with pytest.raises(sr.InvalidIndex, match=r"source must lie in \[0, 2\), got 2"):
            fn(A, 2)
        with pytest.raises(sr.DomainMismatch, match="source must be an integer"):
            fn(A, 0.5)
    with pytest.raises(sr.InvalidValue, match="delta"):
        algorithms.delta_stepping(A, 0, delta=0)
    with pytest.raises(sr.InvalidValue, match="direction"):
        algorithms.bellman_ford(A, 0, direction="sideways")
    with pytest.raises(sr.InvalidValue, match="method"):
        algorithms.sssp(A, 0, method="dijkstra")
    nan = sr.Matrix.from_coo([0, 1], [1, 0], np.array([np.nan, 2.0]), device=device)
    with pytest.raises(sr.InvalidValue, match="NaN"):
        algorithms.sssp(nan, 0)
    neg = sr.Matrix.from_coo([0, 1], [1, 0], np.array([-1.0, 2.0]), device=device)
    with pytest.raises(sr.InvalidValue, match="bellman_ford"):
        algorithms.delta_stepping(neg, 0)
    assert to_host(algorithms.sssp(neg, 0)).tolist() == [0.0, -1.0]


# ------------------------------------------------------------------------------ csgraph facade

@settings(max_examples=40)
@given(g=graphs(negative="potential", max_n=8), directed=st.booleans(),
       unweighted=st.booleans(), multi=st.booleans())
def test_facade_matches_scipy(device, g, directed, unweighted, multi):
    A, s = g
    A = A.astype(np.float64)
    A.sum_duplicates()
    G = A if device == "cpu" else sr.Matrix.from_scipy(A, device="gpu")
    indices = [s, 0] if multi else s
    kw = dict(directed=directed, indices=indices, return_predecessors=True,
              unweighted=unweighted)
    try:
        want, _ = csg.bellman_ford(A, **kw)
    except csg.NegativeCycleError:
        with pytest.raises(csg.NegativeCycleError):
            csgraph.bellman_ford(G, **kw)
        with pytest.raises(csg.NegativeCycleError):
            csgraph.shortest_path(G, method="BF", **kw)
        with pytest.raises(csg.NegativeCycleError):
            csgraph.johnson(G, **kw)
        return
    fns = [csgraph.bellman_ford, lambda G, **k: csgraph.shortest_path(G, "BF", **k)]
    try:  # Johnson reweights from a virtual source: a negative cycle anywhere is an error
        csg.johnson(A, **kw)
        fns.append(lambda G, **k: csgraph.shortest_path(G, "J", **k))
        # 'auto' picks Dijkstra or Johnson, as SciPy's (issue 15): it raises where Johnson does
        fns.append(lambda G, **k: csgraph.shortest_path(G, "auto", **k))
    except csg.NegativeCycleError:
        with pytest.raises(csg.NegativeCycleError):
            csgraph.johnson(G, **kw)
        with pytest.raises(csg.NegativeCycleError):
            csgraph.shortest_path(G, "auto", **kw)
    for fn in fns:
        dist, pred = fn(G, **kw)
        dist, pred = to_host(dist), to_host(pred)
        assert dist.dtype == np.float64 and pred.dtype == np.int32
        np.testing.assert_allclose(dist, want, rtol=1e-12, atol=1e-9)
        W = A.copy()
        if unweighted:
            W.data[:] = 1
        if not directed:
            W = _undirected(W)
        d2, p2 = dist.reshape(-1, A.shape[0]), pred.reshape(-1, A.shape[0])
        for row, src in enumerate(np.atleast_1d(indices)):
            check_tree(W, src, d2[row], np.where(p2[row] == -9999, -1, p2[row]))


def _undirected(W):
    """SciPy's undirected graph: both directions, the smaller weight where both exist."""
    W = W.tocoo()
    r = np.r_[W.row, W.col]
    c = np.r_[W.col, W.row]
    v = np.r_[W.data, W.data]
    key = r * W.shape[0] + c
    order = np.lexsort((v, key))
    key, v = key[order], v[order]
    first = np.ones(key.size, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    return sp.csr_matrix((v[first], (key[first] // W.shape[0], key[first] % W.shape[0])),
                         shape=W.shape)


@settings(max_examples=30)
@given(g=graphs(max_n=8), limit=st.sampled_from([np.inf, 0.0, 3.0, 7.5]),
       min_only=st.booleans())
def test_dijkstra_facade(device, g, limit, min_only):
    A, s = g
    A = A.astype(np.float64)
    A.sum_duplicates()
    G = A if device == "cpu" else sr.Matrix.from_scipy(A, device="gpu")
    idx = [s, 0]
    want = csg.dijkstra(A, indices=idx, limit=limit, min_only=min_only,
                        return_predecessors=True)
    got = csgraph.dijkstra(G, indices=idx, limit=limit, min_only=min_only,
                           return_predecessors=True)
    np.testing.assert_array_equal(to_host(got[0]), want[0])
    assert to_host(got[1]).dtype == np.int32
    if min_only:
        src = to_host(got[2])
        reach = np.isfinite(want[0])
        assert np.all(src[~reach] == -9999)
        each = csg.dijkstra(A, indices=idx, limit=limit)
        for v in np.flatnonzero(reach):  # the named source attains the minimum
            assert each[idx.index(src[v]) if src[v] in idx else 0, v] == want[0][v]
    # a single index gives 1-D results
    d1 = csgraph.dijkstra(G, indices=s)
    np.testing.assert_array_equal(to_host(d1), csg.dijkstra(A, indices=s))


def test_facade_all_sources_and_errors(device):
    A = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, 2.0], [0, 0, 0]]))
    G = A if device == "cpu" else sr.Matrix.from_scipy(A, device="gpu")
    np.testing.assert_array_equal(to_host(csgraph.shortest_path(G)), csg.shortest_path(A))
    np.testing.assert_array_equal(to_host(csgraph.dijkstra(G, directed=False)),
                                  csg.dijkstra(A, directed=False))
    np.testing.assert_array_equal(to_host(csgraph.shortest_path(G, method="FW")),
                                  csg.shortest_path(A, method="FW"))
    with pytest.raises(ValueError, match="method"):
        csgraph.shortest_path(G, method="X")
    neg = sp.csr_matrix(np.array([[0, -1.0], [-1.0, 0]]))
    Gn = neg if device == "cpu" else sr.Matrix.from_scipy(neg, device="gpu")
    with pytest.raises(csg.NegativeCycleError):
        csgraph.bellman_ford(Gn, indices=0)
    # Johnson, like SciPy's, raises for a negative cycle anywhere (unreachable from 0 here)
    far = sp.csr_matrix(([1.0, -1.0, -1.0], ([0, 2, 3], [1, 3, 2])), shape=(4, 4))
    Gf = far if device == "cpu" else sr.Matrix.from_scipy(far, device="gpu")
    with pytest.raises(csg.NegativeCycleError):
        csg.johnson(far, indices=0)
    with pytest.raises(csg.NegativeCycleError):
        csgraph.johnson(Gf, indices=0)
    assert to_host(csgraph.bellman_ford(Gf, indices=0)).tolist() == [0.0, 1.0, np.inf, np.inf]
    with pytest.raises(sr.NegativeCycleError):
        csgraph.shortest_path(Gn, indices=0)
    # issue 15: dijkstra refuses negative weights (SciPy warns and may answer wrongly)
    with pytest.raises(sr.InvalidValue, match="non-negative weights"):
        csgraph.dijkstra(sp.csr_matrix(np.array([[0, -1.0], [0, 0]])), indices=0)


@settings(max_examples=20)
@given(g=graphs(), method=st.sampled_from(METHODS))
def test_symmetric_hint(device, g, method):
    """symmetric=True on an undirected graph pulls over A's own rows: same distances."""
    A, s = g
    A.sum_duplicates()
    U = (A + A.T).tocsr()
    want = algorithms.sssp(sr.Matrix.from_scipy(U, device=device), s, method, direction="pull")
    got = algorithms.sssp(sr.Matrix.from_scipy(U, device=device), s, method, direction="pull",
                          symmetric=True)
    assert np.array_equal(to_host(got), to_host(want))
    np.testing.assert_allclose(_as_float(got, U.dtype), _ref(U, s),
                               rtol=1e-6 if U.dtype == np.float32 else 0)


def test_delta_below_float_resolution(device):
    """lo + Δ rounds to lo when distances dwarf Δ: each bucket still takes its first vertex."""
    w = np.array([1e20, 1.0, 1e20, 2.0])
    M = sr.Matrix.from_coo([0, 1, 2, 1], [1, 2, 3, 3], w, nrows=4, ncols=4, device=device)
    d = algorithms.delta_stepping(M, 0, delta=1.0)
    want = csg.dijkstra(sp.csr_matrix((w, ([0, 1, 2, 1], [1, 2, 3, 3])), shape=(4, 4)), indices=0)
    np.testing.assert_array_equal(to_host(d), want)


@settings(max_examples=40)
@given(g=graphs(negative="any"), data=st.data())
def test_multi_source_equals_one_source_at_a_time(device, g, data):
    A, _ = g
    n = A.shape[0]
    M = sr.Matrix.from_scipy(A, device=device)
    sources = data.draw(st.lists(st.integers(0, n - 1), max_size=5), label="sources")
    want, cycle = [], False
    for s in sources:
        try:
            want.append(_as_float(algorithms.bellman_ford(M, s), A.dtype))
        except sr.NegativeCycleError:
            cycle = True
    if cycle:
        with pytest.raises(sr.NegativeCycleError):
            algorithms.multi_source_sssp(M, sources)
        return
    dist, pred = algorithms.multi_source_sssp(M, sources, predecessors=True)
    assert to_host(dist).shape == (len(sources), n) and to_host(dist).dtype == A.dtype
    for r, s in enumerate(sources):
        got = _as_float(to_host(dist)[r], A.dtype)
        np.testing.assert_allclose(got, want[r], rtol=1e-6 if A.dtype == np.float32 else 0)
        check_tree(A, s, got, to_host(pred)[r])


def test_multi_source_errors(device):
    M = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidIndex, match=r"sources must lie in \[0, 3\), got 5"):
        algorithms.multi_source_sssp(M, [0, 5])
    with pytest.raises(sr.DomainMismatch, match="sources must be a sequence"):
        algorithms.multi_source_sssp(M, 1)
    with pytest.raises(sr.DomainMismatch, match="1-D sequence of integers"):
        algorithms.multi_source_sssp(M, [0.5])
    with pytest.raises(sr.DimensionMismatch, match="must be square"):
        algorithms.multi_source_sssp(sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3,
                                                        device=device), [0])
    assert to_host(algorithms.multi_source_sssp(M, [])).shape == (0, 3)


@settings(max_examples=40)
@given(g=st.one_of(graphs(), graphs(negative="potential")), data=st.data())
@pytest.mark.parametrize("route", ["csgraph", "rounds"])
def test_multi_source_past_the_round_cap(device, route, g, data):
    """multi_source_sssp with w >= 0 stops its batched rounds at BATCH_ROUNDS and finishes
    each still-changing source by Δ-stepping (set to 1 round here, so that nearly every graph
    takes that path); on the CPU SciPy's Dijkstra a source (``route="csgraph"``) or, with
    CPU_CSGRAPH off, the batch and the cap as on the GPU. Negative weights keep the batch.
    Every way gives bellman_ford's distances and a valid tree."""
    A, _ = g
    n = A.shape[0]
    M = sr.Matrix.from_scipy(A, device=device)
    sources = data.draw(st.lists(st.integers(0, n - 1), max_size=5), label="sources")
    mod = importlib.import_module("algorithms.sssp")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mod, "BATCH_ROUNDS", 1)
        mp.setattr(mod, "CPU_CSGRAPH", route == "csgraph")
        dist, pred = algorithms.multi_source_sssp(M, sources, predecessors=True)
        want = [_as_float(algorithms.bellman_ford(M, s), A.dtype) for s in sources]
    assert to_host(dist).shape == (len(sources), n) and to_host(dist).dtype == A.dtype
    for r, s in enumerate(sources):
        got = _as_float(to_host(dist)[r], A.dtype)
        np.testing.assert_allclose(got, want[r], rtol=1e-6 if A.dtype == np.float32 else 0)
        check_tree(A, s, got, to_host(pred)[r])
