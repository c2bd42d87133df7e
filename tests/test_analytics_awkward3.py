"""The analytics of ``algorithms`` on awkward *values* (session 18's audit alg13,
``bench/results/session18/alg13_audit.md``; driver ``bench/probes/alg13_analytics_values.py``):
each test is one defect found there, on every backend. The oracle is the same graph with its
weights rescaled into the normal range (PageRank's transition probabilities and the
normalized personalization do not change under a positive scale), NetworkX, or the float64
answer."""

from __future__ import annotations

import importlib
import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import algorithms
import semiring as sr
from conftest import to_host

apsp_mod = importlib.import_module("algorithms.apsp")  # the function algorithms.apsp shadows it


def _csr(edges, n, dtype=np.float64):
    r, c, w = zip(*edges)
    return sp.csr_array((np.asarray(w, dtype=dtype), (r, c)), shape=(n, n))


# ------------------------------------------------------------------------------ defect 1

@pytest.mark.parametrize("arg", ["personalization", "nstart", "dangling"])
def test_pagerank_distribution_whose_sum_overflows(device, arg):
    # weights 1e308 twice summed to inf and normalized to all zeros: the ranks summed to 1e-5
    # (personalization) instead of 1; the answer is that of the weights 1, 1
    G = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3)])
    G.add_node(4)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, nodelist=range(5)), device=device)
    xp = sr.array_module(device)
    big = xp.asarray([1e308, 1e308, 0, 0, 0])
    got = to_host(algorithms.pagerank(A, **{arg: big}, tol=1e-12, max_iter=500))
    want = to_host(algorithms.pagerank(A, **{arg: xp.asarray([1.0, 1, 0, 0, 0])}, tol=1e-12,
                                       max_iter=500))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert abs(got.sum() - 1) < 1e-12


# ------------------------------------------------------------------------------ defect 2

@pytest.mark.parametrize("w", [1e308, 5e-324, 1e-300, 1e300], ids=str)
def test_pagerank_out_weights_beyond_float64_range(device, w):
    # 1e308 twice: the out-degree overflowed to inf, 1/inf = 0 dropped the vertex's rank
    # (the ranks summed to 0.31); 5e-324: 1/outdeg = inf, every rank NaN (ConvergenceError);
    # the transition probabilities are those of equal weights 1
    edges = [(0, 1, w), (0, 2, w), (1, 2, 1.0), (2, 0, 1.0), (3, 0, 0.0), (3, 1, 0.0)]
    ref = [(i, j, 1.0 if x == w else x) for i, j, x in edges]
    A = sr.Matrix.from_scipy(_csr(edges, 4), device=device)
    B = sr.Matrix.from_scipy(_csr(ref, 4), device=device)
    got = to_host(algorithms.pagerank(A))
    np.testing.assert_allclose(got, to_host(algorithms.pagerank(B)), rtol=0, atol=1e-12)
    assert abs(got.sum() - 1) < 1e-12
    # and NetworkX's on the rescaled graph
    G = nx.DiGraph()
    G.add_nodes_from(range(4))
    G.add_weighted_edges_from(ref)
    np.testing.assert_allclose(got, [nx.pagerank(G)[i] for i in range(4)], atol=1e-6)


def test_pagerank_row_scaling_keeps_the_input(device):
    edges = [(0, 1, 1e308), (0, 2, 1e308), (1, 0, 5e-324), (2, 0, 1.0)]
    S = _csr(edges, 3)
    A = sr.Matrix.from_scipy(S, device=device)
    before = to_host(A.values).copy()
    algorithms.pagerank(A)
    assert np.array_equal(to_host(A.values), before)


# ------------------------------------------------------------------------------ defect 3

@pytest.mark.parametrize("edges,n", [
    ([(0, 1, 1.0), (3, 2, -np.inf)], 4),                   # unreached 3 has a −inf out-edge
    ([(0, 1, -np.inf), (1, 2, 1.0), (4, 1, -np.inf)], 5),  # ... into a reached vertex
    ([(0, 1, -np.inf), (1, 2, 1.0), (2, 3, 2.0)], 5),
], ids=["beside", "into", "dag"])
def test_multi_source_sssp_minus_inf_gives_no_nan(device, edges, n):
    # inf + (−inf) at an unreached vertex is NaN, and minimum(D, Y) took it over a distance:
    # [0, 1, nan, inf] where bellman_ford (and SciPy's) gives [0, 1, inf, inf]
    A = sr.Matrix.from_scipy(_csr(edges, n), device=device)
    got = to_host(algorithms.multi_source_sssp(A, [0, 1]))
    assert not np.isnan(got).any()
    for r, s in enumerate([0, 1]):
        np.testing.assert_array_equal(got[r], to_host(algorithms.bellman_ford(A, s)))


# ------------------------------------------------------------------------------ defect 4

@pytest.mark.parametrize("method", ["sssp", "bellman_ford", "delta_stepping",
                                    "multi_source_sssp"])
def test_float32_distances_past_float32_range(device, method):
    # 3e38 + 3e38 rounded to inf in float32: a reachable vertex read as unreached
    A = sr.Matrix.from_scipy(_csr([(0, 1, 3e38), (1, 2, 3e38), (0, 3, 1.0)], 5, np.float32),
                             device=device)
    f = getattr(algorithms, method)
    call = (lambda: f(A, [0])) if method == "multi_source_sssp" else (lambda: f(A, 0))
    with pytest.raises(algorithms.DistanceOverflow, match="float32 range"):
        call()


@pytest.mark.parametrize("method", ["sssp", "bellman_ford", "delta_stepping",
                                    "multi_source_sssp"])
def test_float32_distances_near_float32_range_that_fit(device, method):
    # relaxed in float64 (the weights could pass float32's range), and they fit: A's type
    A = sr.Matrix.from_scipy(_csr([(0, 1, 3e38), (1, 2, 1.0), (2, 3, 2.0), (3, 4, 1.0)], 6,
                                  np.float32), device=device)
    f = getattr(algorithms, method)
    got = to_host(f(A, [0])[0] if method == "multi_source_sssp" else f(A, 0))
    assert got.dtype == np.float32
    want = np.array([0, 3e38, 3e38, 3e38, 3e38, np.inf], dtype=np.float32)
    np.testing.assert_array_equal(got, want)


# ------------------------------------------------------------------------------ defect 5

@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint64])
def test_unsupported_value_type_error_names_the_call(dtype):
    # the error named Matrix.from_scipy's argument (S.dtype), not the function called
    A = sp.eye(3, format="csr", dtype=dtype)
    for f, name in [(algorithms.pagerank, "pagerank"),
                    (algorithms.connected_components, "connected_components"),
                    (algorithms.core_number, "core_number")]:
        with pytest.raises(sr.DomainMismatch, match=rf"^{name}: A\.dtype must be one of .*"
                                                    rf"got {np.dtype(dtype)}$"):
            f(A)


@pytest.mark.parametrize("kw", [dict(method="floyd_warshall"), dict(method="squaring"),
                                dict(method="batched_sssp"), dict(memory_budget=600)],
                         ids=["fw", "squaring", "batched", "streamed"])
def test_apsp_float32_distances_past_float32_range(device, kw):
    # the same overflow in every APSP method: d(0, 2) = 6e38 read as unreached
    A = sr.Matrix.from_scipy(_csr([(0, 1, 3e38), (1, 2, 3e38), (0, 3, 1.0)], 5, np.float32),
                             device=device)
    with pytest.raises(algorithms.DistanceOverflow, match="float32 range"):
        algorithms.apsp(A, **kw)
    B = sr.Matrix.from_scipy(_csr([(0, 1, 3e38), (1, 2, 1.0), (2, 3, 2.0), (3, 4, 1.0)], 6,
                                  np.float32), device=device)
    D = to_host(algorithms.apsp(B, **kw))
    assert D.dtype == np.float32
    np.testing.assert_array_equal(D[0], np.array([0, 3e38, 3e38, 3e38, 3e38, np.inf],
                                                 dtype=np.float32))


# ------------------------------------------------------------------------------ defect 7

MINUS_INF_CYCLES = {
    # a −inf edge on a cycle (NetworkX: NetworkXUnbounded; apsp: NegativeCycleError)
    "cycle": ([(0, 1, -np.inf), (1, 0, 1.0), (1, 2, 1.0)], 4, {0, 1}),
    "two-cycle": ([(0, 1, -np.inf), (1, 0, -np.inf)], 4, {0, 1}),
    "self-loop": ([(0, 1, -np.inf), (1, 1, -np.inf)], 2, {1}),
    # a finite negative cycle reached only through a −inf edge (apsp sees it)
    "behind": ([(0, 1, -np.inf), (1, 2, -1.0), (2, 1, -1.0)], 3, {1, 2}),
}


@pytest.mark.parametrize("case", list(MINUS_INF_CYCLES))
@pytest.mark.parametrize("method", ["bellman_ford", "sssp", "multi_source_sssp"])
def test_negative_cycle_through_minus_inf_is_reported(device, case, method):
    # −inf + w never lowers −inf: round n changed nothing and the cycle went unreported
    # ([-inf, -inf, -inf, inf]), where apsp raised NegativeCycleError on the same graph
    edges, n, members = MINUS_INF_CYCLES[case]
    A = sr.Matrix.from_scipy(_csr(edges, n), device=device)
    with pytest.raises(sr.NegativeCycleError) as err:
        algorithms.apsp(A)
    f = getattr(algorithms, method)
    with pytest.raises(sr.NegativeCycleError, match="reachable from source 0") as err:
        f(A, [0]) if method == "multi_source_sssp" else f(A, 0)
    assert set(np.asarray(err.value.vertices).tolist()) == members


@pytest.mark.parametrize("edges,n", [
    ([(0, 1, -np.inf), (1, 2, 1.0), (2, 3, 2.0)], 5),                   # a DAG
    ([(0, 1, -np.inf), (1, 2, 5.0), (2, 1, 5.0)], 3),                   # a positive cycle behind
    ([(0, 1, -np.inf), (1, 1, 3.0)], 2),                                # a positive self-loop
    ([(0, 1, -np.inf), (1, 2, np.inf), (2, 1, 1.0), (2, 0, np.inf)], 3),  # +inf edges never relax
], ids=["dag", "positive-cycle", "positive-loop", "inf-edges"])
def test_minus_inf_without_negative_cycle_answers(device, edges, n):
    # NetworkX's answers: -inf distances, no error
    A = sr.Matrix.from_scipy(_csr(edges, n), device=device)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(edges)
    ref = nx.single_source_bellman_ford_path_length(G, 0)
    want = [ref.get(i, np.inf) for i in range(n)]
    np.testing.assert_array_equal(to_host(algorithms.bellman_ford(A, 0)), want)
    np.testing.assert_array_equal(to_host(algorithms.multi_source_sssp(A, [0]))[0], want)


@pytest.mark.parametrize("method", ["floyd_warshall", "squaring", "batched_sssp"])
def test_apsp_dense_float32_past_float32_range(device, method):
    # a dense float32 graph ("no edge" = inf): d(0, 2) = 6e38 was inf, "unreached" (a CuPy
    # array's too, until its bound had a kernel)
    D = np.full((5, 5), np.inf, dtype=np.float32)
    D[0, 1] = D[1, 2] = 3e38
    D[0, 3] = 1
    with pytest.raises(algorithms.DistanceOverflow, match="float32 range"):
        algorithms.apsp(sr.to_device(D, device), method)
    D[1, 2] = 1
    got = algorithms.apsp(sr.to_device(D, device), method)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(to_host(got)[0],
                                  np.array([0, 3e38, 3e38, 1, np.inf], dtype=np.float32))


@pytest.mark.parametrize("pitch", [False, True])
def test_finite_max_abs_of_a_dense_float32_array(device, pitch):
    """The dense float32 bound: max |w| over the finite entries (NaN, ±inf skipped; 0 with
    none finite), through a view with a row pitch too."""
    rng = np.random.default_rng(7)
    W = rng.normal(size=(300, 301)).astype(np.float32) * 1e30
    W[rng.random(W.shape) < 0.2] = np.inf
    W[5, 7], W[9, 9], W[17, 3] = -3e38, -np.inf, np.nan
    a = sr.to_device(W, device)[:, 1:] if pitch else sr.to_device(W, device)
    want = float(np.abs(np.where(np.isfinite(to_host(a)), to_host(a), 0)).max())
    assert apsp_mod._finite_bound(a, sr.array_module(device)) == (0, want)
    if device == "gpu":
        assert sr.dense.finite_max_abs(a) == want
        for empty in (np.full((3, 4), np.inf, np.float32), np.zeros((0, 4), np.float32)):
            assert sr.dense.finite_max_abs(sr.to_device(empty, device)) == 0.0
