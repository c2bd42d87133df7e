"""Bench cases of sssp: shortest distances from one source (issue "SSSP"); integer weights in [1, 255] (GAP)."""

from __future__ import annotations

import numpy as np

from .. import metrics as met
from .bfs import _bfs_metrics, _bfs_prepare
from . import (Algorithm, CaseContext, Impl, Reference, Unavailable, _gb_fetch, _gb_matrix,
               _graphblas, _pair_ratio, _row_ids, _scatter_min_fn, compare_exact,
               register_algorithm, sr_matrix)


def _sssp_ref(ctx: CaseContext) -> np.ndarray:
    if "dist" in ctx.memo:
        return ctx.memo["dist"]
    from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    d = ctx.memo["dist"] = dijkstra(ctx.graph.host, directed=True, indices=ctx.inputs["source"])
    ctx.case_metrics["traversed_edges"] = met.traversed_edges(
        ctx.graph.host, np.isfinite(d), undirected=ctx.graph.spec.undirected)
    ctx.case_metrics["max_dist"] = float(d[np.isfinite(d)].max())
    return d


#: The engine's CPU backend takes tens of seconds per SSSP beyond this many stored entries
#: (thousands of buckets on a 2048² grid): it is reported unavailable there, not timed.
SSSP_ENGINE_CPU_MAX_NNZ = 1 << 23


def _sssp_semiring(device: str, method: str):
    def setup(ctx: CaseContext):
        import algorithms  # noqa: PLC0415  (lazy: algorithms (and SciPy's csgraph) adds 0.2 s to python -m bench --list's 0.2 s)

        if device == "cpu" and ctx.graph.nnz > SSSP_ENGINE_CPU_MAX_NNZ:
            raise Unavailable(f"the CPU backend's SSSP is not timed above "
                              f"{SSSP_ENGINE_CPU_MAX_NNZ} stored entries")

        A = sr_matrix(ctx, device)
        source = ctx.inputs["source"]
        fn = getattr(algorithms, method)
        symmetric = ctx.graph.spec.undirected
        # untimed: the per-matrix light/heavy split and weight facts are cached
        fn(A, source, symmetric=symmetric)
        return lambda: fn(A, source, symmetric=symmetric)

    return setup


def _sssp_scipy(ctx: CaseContext):
    from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    H = ctx.graph.host
    source = ctx.inputs["source"]
    return lambda: dijkstra(H, directed=True, indices=source)


def _sssp_cupy_naive(ctx: CaseContext):
    """The Bellman–Ford a CuPy user writes: every edge every round, d[dst] = min(d[dst],
    d[src] + w) by a scatter-min, until a round changes nothing (one sync a round)."""
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    A = ctx.graph.gpu()
    n = A.shape[0]
    src = _row_ids(ctx, cupy)
    dst = A.indices
    w = A.data
    source = ctx.inputs["source"]
    scatter_min = _scatter_min_fn()

    def run():
        d = cupy.full(n, cupy.inf, dtype=w.dtype)
        d[source] = 0
        for _ in range(n):
            new = d.copy()
            scatter_min(new, dst, d[src] + w)
            if not bool((new < d).any()):
                return d
            d = new
        return d

    return run


#: The GraphBLAS Bellman–Ford is not timed above this many stored entries either, as the CPU
#: backend's SSSP (:data:`SSSP_ENGINE_CPU_MAX_NNZ`): its rounds follow the hop diameter (2149
#: on grid-1024x1024, each relaxing ~5 % of the vertices: 6.9 s on 2 cores), so the quick GPU
#: suite's grid-2048x2048 would take many seconds a run.
SSSP_GRAPHBLAS_MAX_NNZ = SSSP_ENGINE_CPU_MAX_NNZ


def gb_bellman_ford(gb, A, source: int, dtype=np.float32):
    """Bellman–Ford with python-graphblas over min_plus, relaxing from the vertices improved in
    the previous round only: ``t = f min.+ A``; ``f = t⟨t < d⟩``; ``d⟨f.S⟩ = f``, until no
    vertex improves (at most n - 1 rounds with non-negative weights). The same rounds as the
    whole-vector ``d(min) << d min.+ A`` with the work of the improved rows only.

    Parameters
    ----------
    gb : module
        ``graphblas``.
    A : graphblas.Matrix
        The weighted graph (non-negative weights).
    source : int
        The source vertex.
    dtype : numpy dtype
        The distances' type (the weights').

    Returns
    -------
    graphblas.Vector
        Distances, every vertex present (+inf where unreached).
    """
    n = A.nrows
    # d full (+inf) so that t < d is one element-wise product over t's entries
    d = gb.Vector.from_dense(np.full(n, np.inf, dtype=dtype))
    d[source] = 0
    f = gb.Vector(d.dtype, n)
    f[source] = 0
    for _ in range(n):
        if f.nvals == 0:
            break
        t = f.vxm(A, gb.semiring.min_plus).new()
        better = t.ewise_mult(d, gb.binary.lt).new()
        f = t.dup(mask=better.V)
        d(f.S) << f
    return d


def _sssp_graphblas(ctx: CaseContext):
    gb = _graphblas()
    if ctx.graph.nnz > SSSP_GRAPHBLAS_MAX_NNZ:
        raise Unavailable(f"the GraphBLAS Bellman–Ford is not timed above "
                          f"{SSSP_GRAPHBLAS_MAX_NNZ} stored entries (as the CPU backend's SSSP; "
                          f"its rounds follow the hop diameter)")
    A = _gb_matrix(ctx)
    source = ctx.inputs["source"]
    dtype = ctx.graph.host.dtype
    if not np.issubdtype(dtype, np.floating):  # +inf marks the unreached vertices
        dtype = np.float64
    return lambda: gb_bellman_ford(gb, A, source, dtype)


def _sssp_summary(ctx: CaseContext, results: dict) -> dict:
    s = {}
    for fast in ("semiring-gpu-delta", "semiring-gpu-bf"):
        for peer in ("scipy-dijkstra", "cupy-naive-bf", "semiring-cpu-delta",
                     "graphblas-cpu"):
            r = _pair_ratio(results, fast, peer)
            if r is not None:
                s[f"{fast.replace('-', '_')}_vs_{peer.replace('-', '_')}"] = r
    return s


SSSP = register_algorithm(Algorithm(
    name="sssp",
    description="single-source shortest distances from a random source of nonzero degree, "
                "weights uniform integers in [1, 255]; GTEPS as for bfs (undirected input "
                "edges within the reached component, each counted once)",
    prepare=_bfs_prepare,
    references={
        "dist": Reference("dist", "scipy.sparse.csgraph.dijkstra", _sssp_ref, compare_exact),
    },
    impls=[
        Impl("semiring-gpu-delta", "gpu", "dist", _sssp_semiring("gpu", "delta_stepping"),
             description="algorithms.delta_stepping(A, source) on the GPU", engine=True),
        Impl("semiring-gpu-bf", "gpu", "dist", _sssp_semiring("gpu", "bellman_ford"),
             description="algorithms.bellman_ford(A, source) on the GPU", engine=True),
        Impl("cupy-naive-bf", "gpu", "dist", _sssp_cupy_naive,
             description="Bellman–Ford over every edge each round (CuPy scatter-min)"),
        Impl("semiring-cpu-delta", "cpu", "dist", _sssp_semiring("cpu", "delta_stepping"),
             description="algorithms.delta_stepping(A, source) on the CPU backend", engine=True),
        Impl("semiring-cpu-bf", "cpu", "dist", _sssp_semiring("cpu", "bellman_ford"),
             description="algorithms.bellman_ford(A, source) on the CPU backend", engine=True),
        Impl("scipy-dijkstra", "cpu", "dist", _sssp_scipy,
             description="scipy.sparse.csgraph.dijkstra (one source)"),
        Impl("graphblas-cpu", "cpu", "dist", _sssp_graphblas, fetch=_gb_fetch,
             description="python-graphblas (SuiteSparse:GraphBLAS) Bellman–Ford over min_plus "
                         "from the improved vertices, multithreaded CPU; optional"),
    ],
    impl_metrics=_bfs_metrics,
    rate_key="gteps",
    rate_label="GTEPS (Graph500: undirected edges in the component, counted once)",
    param_label=lambda p: "dist",
    summary=_sssp_summary,
))
