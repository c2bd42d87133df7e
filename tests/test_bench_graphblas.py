"""The optional SuiteSparse:GraphBLAS peers (``graphblas-cpu``) of the bench cases: the BFS,
multi-source BFS, Bellman–Ford, SpGEMM and APSP formulations against SciPy on small graphs
(directed, with unreached vertices), each one's check in the runner, and its size limits. All
of this needs python-graphblas (``pip install '.[graphblas]'``) and is skipped without it; the
'unavailable' report without it is tested in tests/test_bench.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra, shortest_path

from bench import apsp_case
from bench import cases as C
from bench import runner

gb = pytest.importorskip("graphblas")

ALGORITHMS = ["spmv", "spmspv", "bfs", "msbfs", "sssp", "spgemm", "apsp"]


def _graph(n: int, density: float, seed: int, symmetric: bool = False) -> sp.csr_matrix:
    """A random graph, integer weights in [1, 255], no self-loops; directed unless asked."""
    rng = np.random.default_rng(seed)
    A = sp.random(n, n, density=density, format="csr", random_state=rng,
                  data_rvs=lambda k: rng.integers(1, 256, k).astype(np.float32))
    A.setdiag(0)
    A.eliminate_zeros()
    if symmetric:
        A = A.maximum(A.T).tocsr()
    A.sort_indices()
    return A


def _levels(A: sp.csr_matrix, sources) -> np.ndarray:
    d = shortest_path(A, method="D", unweighted=True, indices=sources, directed=True)
    return np.where(np.isinf(d), -1, d).astype(np.int64)


class _CountingTranspose:
    """AT for gb_bfs_levels, counting its pull products (mxv)."""

    def __init__(self, M):
        self.M = M
        self.pulls = 0

    def mxv(self, *args, **kwargs):
        self.pulls += 1
        return self.M.mxv(*args, **kwargs)


# the direction heuristic as LAGraph sets it; always push (a pull needs the frontier's edges
# to beat the unexplored ones by a factor 10^12); pull as soon as the frontier grows
@pytest.mark.parametrize("alpha,pulls", [(C.GB_BFS_ALPHA, None), (1e-12, False), (1e12, True)])
@pytest.mark.parametrize("n,density,seed", [(1, 0.0, 0), (40, 0.0, 1), (60, 0.02, 2),
                                            (200, 0.02, 3), (300, 0.1, 4), (500, 0.004, 5)])
def test_bfs_levels_against_scipy(monkeypatch, n, density, seed, alpha, pulls):
    monkeypatch.setattr(C, "GB_BFS_ALPHA", alpha)
    H = _graph(n, density, seed)  # directed: AT is not A
    A = gb.io.from_scipy_sparse(H)
    AT = _CountingTranspose(A.T.new())
    degree = gb.Vector.from_dense(np.diff(H.indptr).astype(np.int64))
    for source in sorted({0, n // 2, n - 1}):
        got = C._gb_fetch_levels(C.gb_bfs_levels(gb, A, AT, degree, source))
        np.testing.assert_array_equal(got, _levels(H, source))
    if pulls is False:
        assert AT.pulls == 0
    if pulls and density >= 0.02 and n >= 60:  # a frontier that grows: pull steps taken
        assert AT.pulls > 0


@pytest.mark.parametrize("n,density,seed", [(50, 0.03, 0), (300, 0.01, 1), (300, 0.05, 2)])
def test_msbfs_levels_against_scipy(n, density, seed):
    H = _graph(n, density, seed)
    rng = np.random.default_rng(seed)
    sources = rng.choice(n, 12).astype(np.int64)  # repeats allowed: rows are still distinct
    sources[:2] = sources[2]
    got = C._gb_fetch_levels(C.gb_msbfs_levels(gb, gb.io.from_scipy_sparse(H), sources))
    assert got.shape == (sources.size, n)
    np.testing.assert_array_equal(got, _levels(H, sources))


@pytest.mark.parametrize("n,density,seed", [(1, 0.0, 0), (80, 0.03, 1), (400, 0.01, 2),
                                            (400, 0.05, 3)])
def test_bellman_ford_against_dijkstra(n, density, seed):
    H = _graph(n, density, seed)
    A = gb.io.from_scipy_sparse(H)
    for source in sorted({0, n - 1}):
        got = C._gb_fetch(C.gb_bellman_ford(gb, A, source))
        want = dijkstra(H, directed=True, indices=source)
        np.testing.assert_array_equal(got, want)  # integer weights: exact


def test_bellman_ford_integer_weights_are_widened():
    """An integer graph (a MatrixMarket file of integers) gets float64 distances (+inf)."""
    H = _graph(60, 0.05, 7).astype(np.int32)
    got = C._gb_fetch(C.gb_bellman_ford(gb, gb.io.from_scipy_sparse(H), 0, np.float64))
    np.testing.assert_array_equal(got, dijkstra(H, directed=True, indices=0))


@pytest.fixture(scope="module")
def tiny_graphblas_run(tmp_path_factory):
    """The tiny CPU suite, graphblas-cpu only (each with the references it is checked
    against)."""
    return runner.run("tiny", "cpu", impls=["graphblas-cpu"], out=None,
                      cache_dir=tmp_path_factory.mktemp("cache"), progress=False)


def test_every_case_has_a_graphblas_peer_that_agrees(tiny_graphblas_run):
    res = tiny_graphblas_run
    # the suite also lists cases no requested impl runs (the networkx cases: no graphblas peer)
    cases = [c for c in res.cases if c.results]
    assert {c.case.algorithm for c in cases} == set(ALGORITHMS)
    assert all(c.case.algorithm == "networkx" for c in res.cases if not c.results)
    for c in cases:
        (r,) = c.results
        assert r.impl == "graphblas-cpu"
        assert r.status == "ok", (c.case.case_id, r.error or r.check)
        assert r.check.startswith(f"vs {r.reference}:")
        assert r.timing.times_ms and all(t > 0 for t in r.timing.times_ms)
        assert r.metrics[C.ALGORITHMS[c.case.algorithm].rate_key] > 0
    refs = {c.case.algorithm: c.results[0].reference for c in cases}
    # the references the peers are checked against: the exact ones where there are two
    assert refs["bfs"] == "levels" and refs["msbfs"] == "levels" and refs["sssp"] == "dist"
    assert refs["spgemm"] == "plus_times" and refs["apsp"] == "product"
    assert res.exit_code == runner.EXIT_OK


def _wrong(setup):
    """An impl that runs the peer's setup and then corrupts the first finite entry of its
    result (x -> 2x + 1: a level, a distance or a product; row 0 of a multi-source BFS, which
    is checked level by level)."""
    def wrapped(ctx):
        fn = setup(ctx)

        def run():
            out = fn()
            v = out[0] if isinstance(out, tuple) else out
            *idx, vals = v.to_coo()
            k = int(np.flatnonzero(np.isfinite(vals))[0])
            pos = tuple(int(i[k]) for i in idx)
            pos = pos if len(pos) > 1 else pos[0]
            v[pos] = v[pos].new().value * 2 + 1
            return out

        return run

    return wrapped


@pytest.mark.parametrize("algorithm,setup,fetch,ref,graph", [
    ("bfs", C._bfs_graphblas, C._gb_fetch_levels, "levels", "kron-8"),
    ("msbfs", C._msbfs_graphblas, C._gb_fetch_levels, "levels", "kron-8"),
    ("sssp", C._sssp_graphblas, C._gb_fetch, "dist", "kron-8"),
    ("spgemm", C._spgemm_graphblas, C._spgemm_fetch_graphblas, "plus_times", "kron-8"),
    ("apsp", apsp_case._graphblas_minplus, apsp_case._fetch_graphblas, "product", "urand-5"),
])
def test_a_wrong_graphblas_result_is_a_mismatch(algorithm, setup, fetch, ref, graph):
    """The check bites: one entry of the peer's result off by one is reported."""
    bad = C.Impl("graphblas-wrong", "cpu", ref, _wrong(setup), fetch=fetch)
    res = runner.run("tiny", "cpu", algorithms=[algorithm], graphs=[graph],
                     impls=["graphblas-wrong"], out=None, cache_dir=None, progress=False,
                     extra_impls=[(algorithm, bad)])
    assert [r.status for c in res.cases for r in c.results] == ["mismatch"]
    assert res.exit_code == runner.EXIT_MISMATCH


def test_size_limits_make_the_peers_unavailable(monkeypatch, tmp_path):
    """Above each case's CPU limit the peer is reported unavailable, with the reason."""
    monkeypatch.setattr(C.msbfs, "MSBFS_ENGINE_CPU_MAX_WORK", 10)
    monkeypatch.setattr(C.sssp, "SSSP_GRAPHBLAS_MAX_NNZ", 10)
    monkeypatch.setattr(C.spgemm, "SPGEMM_CPU_MAX_PRODUCTS", 10)
    monkeypatch.setattr(apsp_case, "GRAPHBLAS_MAX_N", 8)
    res = runner.run("tiny", "cpu", algorithms=["msbfs", "sssp", "spgemm", "apsp"],
                     graphs=["kron-8"], impls=["graphblas-cpu"], out=None,
                     cache_dir=tmp_path, progress=False)
    got = {c.case.algorithm: c.results[0] for c in res.cases}
    assert {a: r.status for a, r in got.items()} == dict.fromkeys(
        ["msbfs", "sssp", "spgemm", "apsp"], "unavailable")
    assert "stored entries x sources" in got["msbfs"].check
    assert "stored entries" in got["sssp"].check
    assert "products" in got["spgemm"].check
    assert "n = 8" in got["apsp"].check
    assert res.exit_code == runner.EXIT_OK
