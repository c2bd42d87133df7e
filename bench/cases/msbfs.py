"""Bench cases of msbfs: levels from s sources at once (issue "BFS", item 4: multi-source BFS as SpMM); GTEPS summed over the sources, Graph500 edges of each source's component."""

from __future__ import annotations

import numpy as np

from .. import metrics as met
from . import (Algorithm, CaseContext, Impl, Reference, Unavailable, _gb_fetch_levels,
               _gb_matrix, _graphblas, compare_exact, register_algorithm, sr_matrix)


#: SciPy's levels are computed (untimed, the reference) and SciPy's BFS timed for only the first
#: few sources: one SciPy BFS of kron-22 takes seconds. Every other row is checked by its
#: reached set (a connected component of the undirected graph) and its source's level 0.
MSBFS_SCIPY_SOURCES = 4

#: The CPU backend's multi-source BFS expands (entry, source) products per level: it is
#: reported unavailable above this many stored entries × sources instead of being timed.
MSBFS_ENGINE_CPU_MAX_WORK = 1 << 26


def _msbfs_prepare(ctx: CaseContext) -> None:
    H = ctx.graph.host
    s = int(ctx.params.get("sources", 32))
    deg = np.diff(H.indptr)
    rng = np.random.default_rng(ctx.seed)
    candidates = np.flatnonzero(deg > 0)
    if candidates.size == 0:
        candidates = np.arange(max(H.shape[0], 1))
    # Graph500: random sources of nonzero degree (distinct where the graph has enough)
    sources = rng.choice(candidates, s, replace=candidates.size < s).astype(np.int64)
    ctx.inputs["sources"] = sources
    ctx.case_metrics["sources"] = s
    ctx.case_metrics["scipy_sources"] = min(s, MSBFS_SCIPY_SOURCES)
    edges = _msbfs_source_edges(ctx)
    ctx.case_metrics["traversed_edges"] = int(edges.sum())
    ctx.case_metrics["traversed_edges_scipy"] = int(edges[:MSBFS_SCIPY_SOURCES].sum())


def _msbfs_reached(ctx: CaseContext, rows=None) -> np.ndarray:
    """(len(rows), n) bool: the vertices each source reaches (its component when undirected)."""
    H = ctx.graph.host
    sources = ctx.inputs["sources"] if rows is None else ctx.inputs["sources"][rows]
    if ctx.graph.spec.undirected:
        labels = _msbfs_components(ctx)
        return labels[None, :] == labels[sources][:, None]
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    out = np.zeros((sources.size, H.shape[0]), dtype=bool)
    for j, src in enumerate(sources):  # directed inputs only (mtx): untimed reference work
        out[j, breadth_first_order(H, int(src), directed=True, return_predecessors=False)] = True
    return out


def _msbfs_components(ctx: CaseContext) -> np.ndarray:
    def make():
        from scipy.sparse.csgraph import connected_components  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

        return connected_components(ctx.graph.host, directed=False)[1]

    return ctx.graph.get("components", make)


def _msbfs_source_edges(ctx: CaseContext) -> np.ndarray:
    """Graph500 traversed edges of each source's BFS (exact: the edges of its component)."""
    H = ctx.graph.host
    sources = ctx.inputs["sources"]
    if not ctx.graph.spec.undirected:
        reached = _msbfs_reached(ctx)
        return np.array([met.traversed_edges(H, r, undirected=False) for r in reached])

    def per_component():
        labels = _msbfs_components(ctx)
        indptr = np.asarray(H.indptr).astype(np.int64)
        deg = np.diff(indptr)
        rows = np.repeat(np.arange(H.shape[0]), deg)
        loops = np.bincount(labels[rows[rows == H.indices]], minlength=labels.max() + 1)
        total = np.bincount(labels, weights=deg, minlength=labels.max() + 1).astype(np.int64)
        return (total - loops) // 2 + loops

    return ctx.graph.get("component_edges", per_component)[_msbfs_components(ctx)[sources]]


def _msbfs_ref_levels(ctx: CaseContext) -> dict:
    """SciPy's levels of the first sources (the reached sets of all are checked on the fly)."""
    if "msbfs_ref" in ctx.memo:  # both references share it
        return ctx.memo["msbfs_ref"]
    from scipy.sparse.csgraph import shortest_path  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    k = min(ctx.inputs["sources"].size, MSBFS_SCIPY_SOURCES)
    first = ctx.inputs["sources"][:k]
    d = shortest_path(ctx.graph.host, method="D", unweighted=True, indices=first, directed=True)
    levels = np.where(np.isinf(d), -1, d).astype(np.int64).reshape(k, ctx.graph.n)
    if k:
        ctx.case_metrics["depth"] = int(levels.max())
    ref = ctx.memo["msbfs_ref"] = {"levels": levels, "ctx": ctx}
    return ref


def _msbfs_compare(got: np.ndarray, ref: dict) -> tuple[bool, str]:
    """Rows of SciPy's sources exactly equal; every row: level 0 at its source and levels
    exactly where the source reaches (a reached set is a component: computed on the fly)."""
    ctx = ref["ctx"]
    got = np.asarray(got)
    s = ctx.inputs["sources"].size
    want = (s, ctx.graph.n)
    if got.shape != want and got.shape != (ref["levels"].shape[0], ctx.graph.n):
        return False, f"shape {got.shape} != {want}"
    k = ref["levels"].shape[0]
    ok, msg = compare_exact(got[:k], ref["levels"])
    if not ok:
        return False, f"SciPy's sources: {msg}"
    rows = np.arange(got.shape[0])
    src = ctx.inputs["sources"][rows]
    if (got[rows, src] != 0).any():
        return False, "a source without level 0"
    bad = 0
    for r0 in range(0, rows.size, 16):  # chunks of rows: bounded host memory
        r = rows[r0:r0 + 16]
        bad += int(((got[r] >= 0) != _msbfs_reached(ctx, r)).sum())
    if bad:
        return False, f"{bad} (source, vertex) pairs reached where SciPy does not, or not reached"
    return True, (f"{k} rows exactly equal to SciPy; reached sets of all {got.shape[0]} rows "
                  f"equal")


def _msbfs_semiring(device: str):
    def setup(ctx: CaseContext):
        import algorithms  # noqa: PLC0415  (lazy: algorithms (and SciPy's csgraph) adds 0.2 s to python -m bench --list's 0.2 s)

        sources = ctx.inputs["sources"]
        if device == "cpu" and ctx.graph.nnz * sources.size > MSBFS_ENGINE_CPU_MAX_WORK:
            raise Unavailable(f"the CPU backend's multi-source BFS is not timed above "
                              f"{MSBFS_ENGINE_CPU_MAX_WORK} stored entries x sources")
        A = sr_matrix(ctx, device)
        src = ctx.gpu_input("sources") if device == "gpu" else sources
        symmetric = ctx.graph.spec.undirected
        return lambda: algorithms.multi_source_bfs(A, src, symmetric=symmetric)

    return setup


def _msbfs_loop(ctx: CaseContext):
    """The single-source engine BFS once per source (GPU), rows stacked."""
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    import algorithms  # noqa: PLC0415  (lazy: algorithms (and SciPy's csgraph) adds 0.2 s to python -m bench --list's 0.2 s)

    A = sr_matrix(ctx, "gpu")
    sources = [int(v) for v in ctx.inputs["sources"]]
    symmetric = ctx.graph.spec.undirected
    return lambda: cupy.stack([algorithms.bfs(A, v, symmetric=symmetric) for v in sources])


def gb_msbfs_levels(gb, A, sources):
    """Multi-source BFS with python-graphblas: row j of the frontier matrix ``Q`` is source j's
    frontier, expanded for all sources at once by ``Q⟨¬V.S, replace⟩ = Q any.pair A`` (one
    masked SpGEMM a level, SuiteSparse's choice of method); ``V⟨Q.S⟩ = level``.

    Parameters
    ----------
    gb : module
        ``graphblas``.
    A : graphblas.Matrix
        The graph, n x n.
    sources : numpy.ndarray
        The s source vertices (int).

    Returns
    -------
    graphblas.Matrix
        s x n INT64 levels (no entry where source j does not reach the vertex).
    """
    s, n = int(sources.size), A.nrows
    V = gb.Matrix(gb.dtypes.INT64, s, n)
    Q = gb.Matrix.from_coo(np.arange(s), sources, True, nrows=s, ncols=n, dtype=gb.dtypes.BOOL)
    level = 0
    while Q.nvals:
        V(Q.S) << level
        level += 1
        Q(~V.S, replace=True) << Q.mxm(A, gb.semiring.any_pair)
    return V


def _msbfs_graphblas(ctx: CaseContext):
    """:func:`gb_msbfs_levels` on every source, under the CPU backend's size limit (the same
    (entry, source) products per level; kron-20 with 32 sources is above it)."""
    gb = _graphblas()
    sources = ctx.inputs["sources"]
    if ctx.graph.nnz * sources.size > MSBFS_ENGINE_CPU_MAX_WORK:
        raise Unavailable(f"the GraphBLAS multi-source BFS is not timed above "
                          f"{MSBFS_ENGINE_CPU_MAX_WORK} stored entries x sources (as the CPU "
                          f"backend's)")
    A = _gb_matrix(ctx)
    return lambda: gb_msbfs_levels(gb, A, sources)


def _msbfs_scipy(ctx: CaseContext):
    """SciPy's BFS (breadth_first_order) for the first few sources only; reached sets."""
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    H = ctx.graph.host
    first = [int(v) for v in ctx.inputs["sources"][:MSBFS_SCIPY_SOURCES]]

    def run():
        return [breadth_first_order(H, v, directed=True, return_predecessors=False)
                for v in first]

    return run


def _orders_as_levels(orders, n: int) -> np.ndarray:
    """Reached sets as rows of 0 (reached) / -1: enough for the reached-set check."""
    out = np.full((len(orders), n), -1, dtype=np.int64)
    for j, o in enumerate(orders):
        out[j, np.asarray(o)] = 0
    return out


def _msbfs_compare_reached(got, ref: dict) -> tuple[bool, str]:
    """SciPy's BFS gives the order only: its reached sets against the reference levels."""
    ctx = ref["ctx"]
    rows = _orders_as_levels(got, ctx.graph.n)
    want = ref["levels"][:rows.shape[0]] >= 0
    if rows.shape != want.shape:
        return False, f"{rows.shape[0]} rows, expected {want.shape[0]}"
    bad = int(((rows >= 0) != want).sum())
    if bad:
        return False, f"{bad} vertices reached differently from SciPy's shortest_path"
    return True, f"reached sets of {rows.shape[0]} sources equal"


def _msbfs_metrics(ctx: CaseContext, impl: Impl, seconds: float) -> dict:
    if impl.name == "scipy-bfs":
        edges, count = ctx.case_metrics["traversed_edges_scipy"], ctx.case_metrics["scipy_sources"]
    else:
        edges, count = ctx.case_metrics["traversed_edges"], ctx.case_metrics["sources"]
    return {"gteps": met.gteps(edges, seconds),
            "ms_per_source": seconds * 1e3 / max(count, 1)}


def _msbfs_summary(ctx: CaseContext, results: dict) -> dict:
    """GTEPS ratios (the impls do not all run every source): engine over each peer."""
    out = {}
    eng = results.get("semiring-gpu")
    if eng is None or eng.status != "ok":
        eng = results.get("semiring-cpu")
    if eng is None or eng.status != "ok":
        return out
    for peer in ("semiring-gpu-loop", "scipy-bfs", "semiring-cpu", "graphblas-cpu"):
        r = results.get(peer)
        if r is not None and r.status == "ok" and r is not eng and r.metrics.get("gteps"):
            key = f"{eng.impl.replace('-', '_')}_vs_{peer.replace('-', '_')}_gteps"
            out[key] = eng.metrics["gteps"] / r.metrics["gteps"]
    return out


MSBFS = register_algorithm(Algorithm(
    name="msbfs",
    description="multi-source BFS levels from s random sources of nonzero degree at once "
                "(one masked SpMM of the frontier matrix per level); GTEPS summed over the "
                "sources, Graph500 convention (undirected edges in each source's component, "
                "counted once); SciPy runs only the first few sources",
    prepare=_msbfs_prepare,
    references={
        "levels": Reference("levels", "scipy shortest_path(unweighted) levels of the first "
                            f"{MSBFS_SCIPY_SOURCES} sources; component reached sets of all",
                            _msbfs_ref_levels, _msbfs_compare),
        "reached": Reference("reached", "the same, for an impl giving reached sets of the "
                             "first sources", _msbfs_ref_levels, _msbfs_compare_reached),
    },
    impls=[
        Impl("semiring-gpu", "gpu", "levels", _msbfs_semiring("gpu"),
             description="algorithms.multi_source_bfs(A, sources) on the GPU", engine=True),
        Impl("semiring-gpu-loop", "gpu", "levels", _msbfs_loop,
             description="algorithms.bfs(A, source) on the GPU, once per source", engine=True),
        Impl("semiring-cpu", "cpu", "levels", _msbfs_semiring("cpu"),
             description="algorithms.multi_source_bfs(A, sources) on the CPU backend",
             engine=True),
        Impl("scipy-bfs", "cpu", "reached", _msbfs_scipy, fetch=lambda orders: orders,
             description=f"scipy.sparse.csgraph.breadth_first_order per source, first "
                         f"{MSBFS_SCIPY_SOURCES} sources only"),
        Impl("graphblas-cpu", "cpu", "levels", _msbfs_graphblas, fetch=_gb_fetch_levels,
             description="python-graphblas (SuiteSparse:GraphBLAS) multi-source BFS, "
                         "Q<!V.S> = Q any.pair A for all sources at once; multithreaded CPU; "
                         "optional"),
    ],
    impl_metrics=_msbfs_metrics,
    rate_key="gteps",
    rate_label="GTEPS summed over sources (Graph500 edges of each source's component)",
    param_label=lambda p: f"s={p.get('sources', 32)}",
    summary=_msbfs_summary,
))
