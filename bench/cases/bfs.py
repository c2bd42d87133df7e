"""Bench cases of bfs: levels from one source (issue "BFS as frontier SpMV"); GTEPS in the Graph500 convention."""

from __future__ import annotations

import numpy as np

from .. import metrics as met
from . import (Algorithm, CaseContext, Impl, Reference, _gb_degree, _gb_fetch_levels,
               _gb_matrix, _gb_transpose, _graphblas, _pair_ratio, compare_exact,
               gb_bfs_levels, register_algorithm, sr_matrix)


def _bfs_prepare(ctx: CaseContext) -> None:
    H = ctx.graph.host
    deg = np.diff(H.indptr)
    rng = np.random.default_rng(ctx.seed)
    # Graph500: a random source of nonzero degree
    candidates = np.flatnonzero(deg > 0)
    source = int(rng.choice(candidates)) if candidates.size else 0
    ctx.inputs["source"] = source
    ctx.case_metrics["source"] = source


def _bfs_ref_levels(ctx: CaseContext) -> np.ndarray:
    if "levels" in ctx.memo:
        return ctx.memo["levels"]
    from scipy.sparse.csgraph import shortest_path  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    d = shortest_path(ctx.graph.host, method="D", unweighted=True,
                      indices=ctx.inputs["source"], directed=True)
    levels = ctx.memo["levels"] = np.where(np.isinf(d), -1, d).astype(np.int64)
    # the work measure needs the reached set, known once the reference exists
    ctx.case_metrics["traversed_edges"] = met.traversed_edges(
        ctx.graph.host, levels >= 0, undirected=ctx.graph.spec.undirected)
    ctx.case_metrics["depth"] = int(levels.max())
    return levels


def _bfs_ref_reached(ctx: CaseContext) -> np.ndarray:
    return np.flatnonzero(_bfs_ref_levels(ctx) >= 0)


def _bfs_semiring(device: str):
    def setup(ctx: CaseContext):
        import algorithms  # noqa: PLC0415  (lazy: algorithms (and SciPy's csgraph) adds 0.2 s to python -m bench --list's 0.2 s)

        A = sr_matrix(ctx, device)
        source = ctx.inputs["source"]
        symmetric = ctx.graph.spec.undirected
        return lambda: algorithms.bfs(A, source, symmetric=symmetric)

    return setup


def _bfs_scipy(ctx: CaseContext):
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    H = ctx.graph.host
    source = ctx.inputs["source"]
    return lambda: breadth_first_order(H, source, directed=True, return_predecessors=False)


def _bfs_cupy_naive(ctx: CaseContext):
    """The level-synchronous BFS a CuPy user writes with cupyx SpMV (plus-times)."""
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    A = ctx.graph.gpu()
    AT = A if ctx.graph.spec.undirected else A.T.tocsr()
    n = A.shape[0]
    source = ctx.inputs["source"]

    def run():
        level = cupy.full(n, -1, dtype=cupy.int64)
        level[source] = 0
        f = cupy.zeros(n, dtype=A.dtype)
        f[source] = 1
        depth = 0
        while True:
            depth += 1
            new = ((AT @ f) > 0) & (level < 0)
            if not bool(new.any()):
                return level
            level[new] = depth
            f = new.astype(A.dtype)

    return run


def _bfs_graphblas(ctx: CaseContext):
    """SuiteSparse:GraphBLAS BFS (:func:`gb_bfs_levels`); the graph, its degrees and (for a
    directed graph) its transpose are made in setup, untimed, as LAGraph caches them."""
    gb = _graphblas()
    A = _gb_matrix(ctx)
    AT = _gb_transpose(ctx)
    degree = _gb_degree(ctx)
    source = ctx.inputs["source"]
    return lambda: gb_bfs_levels(gb, A, AT, degree, source)


def _bfs_metrics(ctx: CaseContext, impl: Impl, seconds: float) -> dict:
    return {"gteps": met.gteps(ctx.case_metrics["traversed_edges"], seconds)}


def _bfs_summary(ctx: CaseContext, results: dict) -> dict:
    s = {}
    for peer in ("cupy-naive-bfs", "scipy-bfs", "semiring-cpu", "graphblas-cpu"):
        r = _pair_ratio(results, "semiring-gpu", peer)
        if r is not None:
            s[f"semiring_gpu_vs_{peer.replace('-', '_')}"] = r
    return s


BFS = register_algorithm(Algorithm(
    name="bfs",
    description="breadth-first search levels from a random source of nonzero degree "
                "(direction-optimizing push/pull products); GTEPS: Graph500 convention, "
                "undirected input edges within the traversed component, each counted once",
    prepare=_bfs_prepare,
    references={
        "levels": Reference("levels", "scipy.sparse.csgraph.shortest_path(unweighted=True)",
                            _bfs_ref_levels, compare_exact),
        "reached": Reference("reached", "the sorted vertices with a level (from SciPy)",
                             _bfs_ref_reached, compare_exact),
    },
    impls=[
        Impl("semiring-gpu", "gpu", "levels", _bfs_semiring("gpu"),
             description="algorithms.bfs(A, source) on the GPU", engine=True),
        Impl("cupy-naive-bfs", "gpu", "levels", _bfs_cupy_naive,
             description="level-synchronous BFS with cupyx SpMV (A @ f), one sync a level"),
        Impl("semiring-cpu", "cpu", "levels", _bfs_semiring("cpu"),
             description="algorithms.bfs(A, source) on the CPU backend", engine=True),
        Impl("scipy-bfs", "cpu", "reached", _bfs_scipy,
             fetch=lambda order: np.sort(np.asarray(order)),
             description="scipy.sparse.csgraph.breadth_first_order (order only)"),
        Impl("graphblas-cpu", "cpu", "levels", _bfs_graphblas, fetch=_gb_fetch_levels,
             description="python-graphblas (SuiteSparse:GraphBLAS) level-synchronous BFS, "
                         "q<!v.S> = q any.pair A (push) or AT any.pair q (pull) chosen per "
                         "level as LAGraph does; multithreaded CPU; optional"),
    ],
    impl_metrics=_bfs_metrics,
    rate_key="gteps",
    rate_label="GTEPS (Graph500: undirected edges in the component, counted once)",
    param_label=lambda p: "levels",
    summary=_bfs_summary,
))
