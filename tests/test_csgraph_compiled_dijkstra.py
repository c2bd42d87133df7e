"""The csgraph facade's plain host Dijkstra by the CPU backend's compiled loop
(``_shortest.HOST_COMPILED_DIJKSTRA``): SciPy's distances bit for bit, on the fast path's CSR
where SciPy takes it as it is and on the validated CSR of every other input kind; SciPy's own
routine wherever the two could differ (a fast-path CSR with duplicates, which SciPy sums when
it casts the dtype and relaxes apart when it does not; NaN weights; the other options)."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import given, strategies as st

from algorithms import csgraph
from semiring.backend.cpu import compiled

shortest = importlib.import_module("algorithms.csgraph._shortest")

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="needs Numba (the cpu extra)")


@pytest.fixture
def calls(monkeypatch):
    seen = []
    real = compiled.dijkstra_distances
    monkeypatch.setattr(compiled, "dijkstra_distances",
                        lambda *a, **k: seen.append(1) or real(*a, **k))
    return seen


def _csr(n, m, seed, dtype, canonical, extra):
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 9, m).astype(dtype)  # zeros: explicit zero-weight edges
    if extra == "inf" and m and np.dtype(dtype).kind == "f":
        w[rng.integers(0, m)] = np.inf
    if extra == "nan" and m and np.dtype(dtype).kind == "f":
        w[rng.integers(0, m)] = np.nan
    if canonical:
        S = sp.csr_matrix((w, (r, c)), shape=(n, n))  # duplicates summed, rows sorted
        S.sum_duplicates()
        return S
    o = np.argsort(r, kind="stable")  # rows in order, columns as drawn, duplicates kept
    ptr = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=n))]).astype(np.int32)
    return sp.csr_matrix((w[o], c[o].astype(np.int32), ptr), shape=(n, n))


@given(n=st.integers(1, 40), m=st.integers(0, 200), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float64, np.float32, np.int64, np.int32, np.bool_]),
       canonical=st.booleans(), extra=st.sampled_from(["", "inf", "nan"]),
       source=st.integers(0, 39), unweighted=st.booleans(), negative=st.booleans(),
       limit=st.sampled_from([np.inf, 0.0, 1.0, 2.5, 7.0, 1e300]), directed=st.booleans())
def test_bit_for_bit_with_scipy(calls, n, m, seed, dtype, canonical, extra, source, unweighted,
                                negative, limit, directed):
    calls.clear()  # (one fixture for all of Hypothesis' examples)
    S = _csr(n, m, seed, dtype, canonical, extra)
    if negative and unweighted and S.nnz and S.dtype.kind in "fi":
        S.data[0] = -S.data[0] - 1  # a negative weight: SciPy warns, even unweighted
    source %= n
    with warnings.catch_warnings(record=True) as want_warned:
        warnings.simplefilter("always")
        want = scg.dijkstra(S, directed, indices=source, unweighted=unweighted, limit=limit)
    with warnings.catch_warnings(record=True) as got_warned:
        warnings.simplefilter("always")
        got = csgraph.dijkstra(S, directed, indices=source, unweighted=unweighted, limit=limit)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))
    assert [str(w.message) for w in got_warned] == [str(w.message) for w in want_warned]
    # the loop ran exactly where SciPy reads the arrays as they are (float64, or rows sorted
    # without duplicates; any CSR when unweighted) and no weight is NaN or negative
    as_is = unweighted or S.dtype == np.float64 or bool(shortest._v.canonical_csr(S))
    data = S.data.astype(float)
    plain = as_is and not np.isnan(data).any() and not (data < 0).any()
    assert bool(calls) == plain


@given(n=st.integers(1, 30), m=st.integers(0, 150), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float64, np.float32, np.int64]), canonical=st.booleans(),
       kind=st.sampled_from(["csr", "coo", "csc", "dense", "masked"]),
       extra=st.sampled_from(["", "inf", "nan"]),
       which=st.sampled_from(["list", "none", "2d", "negative", "int"]))
def test_every_input_kind_and_sources(calls, n, m, seed, dtype, canonical, kind, extra, which):
    """Through the full validation (any input kind, several sources, negative indices): the
    validated float64 CSR the facade hands SciPy, read by the loop exactly as SciPy reads it
    (a float32 CSR's duplicates summed, a float64 one's parallel edges)."""
    calls.clear()
    S = _csr(n, m, seed, dtype, canonical, extra)
    if kind == "coo":
        G = S.tocoo()
    elif kind == "csc":
        G = S.tocsc()
    elif kind == "dense":
        G = S.toarray()
    elif kind == "masked":
        D = S.toarray()
        G = np.ma.masked_array(D, mask=D == 0)
    else:
        G = S
    rng = np.random.default_rng(seed)
    indices = {"list": rng.integers(0, n, 3).tolist(), "none": None,
               "2d": rng.integers(0, n, (2, 2)), "negative": -1, "int": int(rng.integers(0, n))}[which]
    for name, kw in (("dijkstra", {}), ("shortest_path", {"method": "D"}),
                     ("shortest_path", {"method": "auto"}), ("dijkstra", {"unweighted": True}),
                     ("dijkstra", {"limit": 3.0}), ("dijkstra", {"limit": 2, "unweighted": True}),
                     ("dijkstra", {"directed": False}),
                     ("shortest_path", {"method": "D", "directed": False}),
                     ("dijkstra", {"directed": False, "unweighted": True, "limit": 3}),
                     ("dijkstra", {"min_only": True}),
                     ("dijkstra", {"min_only": True, "directed": False, "limit": 4.0}),
                     ("shortest_path", {"method": "auto", "unweighted": True})):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = getattr(scg, name)(G, indices=indices, **kw)
            except ValueError:  # SciPy's shortest_path refuses a COO (the facade takes it)
                assert kind == "coo" and name == "shortest_path"
                continue
        got = getattr(csgraph, name)(G, indices=indices, **kw)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))


def test_duplicates_read_as_scipy_reads_them(calls):
    # an edge 0 -> 1 stored twice (5 and 1): SciPy sums a float32 graph's (6: its cast) and
    # relaxes a float64 graph's apart (1); the facade gives each what SciPy gives: the float64
    # one by the loop on the fast path, the float32 one by SciPy's routine there and, after
    # the full validation made SciPy's cast of it (session 27), by the loop on the cast
    for dtype, want, loops in ((np.float32, 6.0, (False, True)), (np.float64, 1.0, (True, True))):
        S = sp.csr_matrix((np.array([5, 1, 2], dtype=dtype), np.array([1, 1, 2]),
                           np.array([0, 2, 3, 3])), shape=(3, 3))
        for indices, loop in zip((0, [0]), loops):  # the fast path and the full validation
            calls.clear()
            assert csgraph.dijkstra(S, indices=indices).ravel()[1] == want
            assert bool(calls) == loop, (dtype, indices)


def test_other_options_stay_scipys(calls):
    S = sp.csr_matrix(np.array([[0, 1.0, 4.0], [0, 0, 2.0], [0, 0, 0]]))
    assert csgraph.dijkstra(S, indices=0).tolist() == [0.0, 1.0, 3.0]
    assert len(calls) == 1
    calls.clear()
    for kw in ({"return_predecessors": True}, {"min_only": True, "return_predecessors": True},
               {"limit": 2.0, "return_predecessors": True},
               {"directed": False, "return_predecessors": True}):
        kw = {"indices": 0, **kw}
        got, want = csgraph.dijkstra(S, **kw), scg.dijkstra(S, **kw)
        for a, b in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            np.testing.assert_array_equal(a, b)
    assert not calls
    # shortest_path: 'D' and 'auto' with a source (Dijkstra in SciPy) take the loop, and
    # 'J' and 'BF' on weights >= 0 (Dijkstra's distances there); 'FW' SciPy's routine
    for method, loop in (("D", True), ("auto", True), ("J", True), ("BF", True),
                         ("FW", False)):
        if method == "FW":
            calls.clear()
            assert csgraph.shortest_path(S, method=method)[0].tolist() == [0.0, 1.0, 3.0]
            assert not calls
            continue
        calls.clear()
        assert csgraph.shortest_path(S, method=method, indices=0).tolist() == [0.0, 1.0, 3.0]
        assert bool(calls) == loop, method


def test_unweighted_hop_counts_whatever_the_duplicates(calls):
    # a float32 CSR with a duplicate edge (SciPy's cast sums it; unweighted, every entry
    # weighs 1 either way): the loop answers, and its hops are SciPy's
    S = sp.csr_matrix((np.array([5, 1, 2], dtype=np.float32), np.array([1, 1, 2]),
                       np.array([0, 2, 3, 3])), shape=(3, 3))
    for indices in (0, [0]):  # the fast path and the full validation
        calls.clear()
        got = csgraph.dijkstra(S, indices=indices, unweighted=True)
        np.testing.assert_array_equal(got, scg.dijkstra(S, indices=indices, unweighted=True))
        assert got.ravel().tolist() == [0.0, 1.0, 2.0] and calls
    calls.clear()
    got = csgraph.shortest_path(S, indices=0, unweighted=True)
    assert got.tolist() == [0.0, 1.0, 2.0] and calls


@given(n=st.integers(1, 40), m=st.integers(0, 200), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float64, np.float32, np.int64]), canonical=st.booleans(),
       extra=st.sampled_from(["", "inf", "nan"]), k=st.integers(0, 6),
       directed=st.booleans(), unweighted=st.booleans(),
       limit=st.sampled_from([np.inf, 0.0, 2.5, 7.0]))
def test_min_only_bit_for_bit(calls, n, m, seed, dtype, canonical, extra, k, directed,
                              unweighted, limit):
    # the distance to the nearest of several sources (repeats among them; none: every vertex)
    calls.clear()
    S = _csr(n, m, seed, dtype, canonical, extra)
    indices = None if k == 0 else np.random.default_rng(seed).integers(0, n, k).tolist()
    kw = dict(directed=directed, indices=indices, unweighted=unweighted, limit=limit,
              min_only=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = scg.dijkstra(S, **kw)
    got = csgraph.dijkstra(S, **kw)
    assert got.dtype == want.dtype and got.shape == want.shape == (n,)
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))
    if not np.isnan(S.data.astype(float)).any() and (
            unweighted or S.dtype == np.float64 or shortest._v.canonical_csr(S)):
        assert calls  # the loop answered


@given(n=st.integers(1, 30), m=st.integers(0, 150), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float64, np.float32, np.int64]), canonical=st.booleans(),
       extra=st.sampled_from(["", "inf", "nan", "negative", "wide"]),
       name=st.sampled_from(["bellman_ford", "johnson", "BF", "J", "D", "auto"]),
       directed=st.booleans(),
       unweighted=st.booleans(), which=st.sampled_from(["int", "none", "list"]))
def test_bellman_ford_and_johnson_distances_by_the_loop(calls, n, m, seed, dtype, canonical,
                                                        extra, name, directed, unweighted,
                                                        which):
    # weights >= 0: the compiled Dijkstra's distances are SciPy's Bellman-Ford / Johnson
    # distances bit for bit (the functions and shortest_path's methods); a negative weight (a
    # negative cycle maybe) stays SciPy's
    calls.clear()
    S = _csr(n, m, seed, dtype, canonical, extra if extra in ("inf", "nan") else "")
    rng = np.random.default_rng(seed)
    if extra == "wide" and S.nnz and S.dtype == np.float64:  # 40 decades: rounding shows
        S.data = rng.random(S.nnz) * 10.0 ** rng.integers(-20, 20, S.nnz)
    if extra == "negative" and S.nnz and S.dtype.kind in "fi":
        S.data[0] = -S.data[0] - 1
    indices = {"int": int(rng.integers(0, n)), "none": None,
               "list": rng.integers(0, n, 3).tolist()}[which]
    kw = dict(directed=directed, indices=indices, unweighted=unweighted)
    if name in ("BF", "J", "D", "auto"):  # shortest_path's methods
        if name in ("D", "auto") and extra == "negative":
            return  # (SciPy's Dijkstra hangs on an undirected negative edge)
        kw["method"], name = name, "shortest_path"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = getattr(scg, name)(S, **kw)
        except scg.NegativeCycleError:
            # SciPy's undirected Bellman-Ford raises falsely on converged fractional distances
            # (its absolute tolerance): the facade answers Dijkstra's distances where no
            # negative edge lies in a source's component (README's deviations), else raises
            F = sp.csr_matrix((S.data.astype(np.float64), S.indices, S.indptr), shape=S.shape)
            if shortest._undirected_bf_false_cycle(name, (F,), kw):
                want = scg.dijkstra(S, False, indices=indices)
            else:
                with pytest.raises(scg.NegativeCycleError):
                    getattr(csgraph, name)(S, **kw)
                return
        got = getattr(csgraph, name)(S, **kw)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))
    # the weights the loop would read: the fast path (one int source, or none) the caller's
    # CSR as it is, and a non-float64 one with duplicates not at all (SciPy's cast sums them);
    # the full validation SciPy's cast itself (an entry -1 beside a 3 is an edge of 2)
    summed = not (S.dtype == np.float64 or shortest._v.canonical_csr(S))
    data = (S.astype(np.float64) if summed and which == "list" else S).data.astype(float)
    # 'auto' without sources: SciPy's Floyd-Warshall on N²/4 entries or more, its own then
    auto_all = (kw.get("method") == "auto" and indices is None
                and shortest._auto_method(S, None) != "D")
    if not (np.isnan(data).any() or (data < 0).any() or auto_all) and (
            unweighted or not summed or which == "list"):
        assert calls  # the loop answered
    elif (data < 0).any():
        assert not calls


def test_bellman_ford_predecessors_stay_scipys(calls):
    S = sp.csr_matrix(np.array([[0, 1.0, 1.0, 0], [0, 0, 0, 1.0], [0, 0, 0, 1.0], [0, 0, 0, 0]]))
    for name in ("bellman_ford", "johnson"):
        got = getattr(csgraph, name)(S, indices=0, return_predecessors=True)
        want = getattr(scg, name)(S, indices=0, return_predecessors=True)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    assert not calls
    monkey = shortest.HOST_COMPILED_SOURCES_PATHS
    try:
        shortest.HOST_COMPILED_SOURCES_PATHS = False
        csgraph.bellman_ford(S, indices=0)
        assert not calls
    finally:
        shortest.HOST_COMPILED_SOURCES_PATHS = monkey
    csgraph.bellman_ford(S, indices=0)
    assert calls


def test_limit_drops_what_scipy_drops(calls):
    # 0 -> 1 -> 2 weighs 1 + 1.5: a limit of 2.5 keeps vertex 2 (SciPy's test is <=), 2.4
    # drops it; 0 -> 3 by 0-weight edges stays at limit 0
    S = sp.csr_matrix(([1.0, 0.0, 1.5], ([0, 0, 1], [1, 3, 2])), shape=(4, 4))
    for limit, want in ((2.5, [0, 1, 2.5, 0]), (2.4, [0, 1, np.inf, 0]),
                        (0.0, [0, np.inf, np.inf, 0])):
        calls.clear()
        got = csgraph.dijkstra(S, indices=0, limit=limit)
        np.testing.assert_array_equal(got, scg.dijkstra(S, indices=0, limit=limit))
        np.testing.assert_array_equal(got, want)
        assert calls


def test_without_numba_scipys_routine(calls, monkeypatch):
    monkeypatch.setattr(compiled, "ENABLED", False)
    S = sp.csr_matrix(np.array([[0, 1.0], [0, 0]]))
    assert csgraph.dijkstra(S, indices=0).tolist() == [0.0, 1.0]
    assert not calls
    monkeypatch.setattr(compiled, "ENABLED", True)
    monkeypatch.setattr(shortest, "HOST_COMPILED_DIJKSTRA", False)
    assert csgraph.dijkstra(S, indices=0).tolist() == [0.0, 1.0]
    assert not calls
