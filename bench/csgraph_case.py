"""The ``csgraph`` case: each ``algorithms.csgraph`` facade function against
``scipy.sparse.csgraph`` on the same graph (issue 15, "Measure").

One case per (graph, function): ``fn`` names the call (a source-taking function gets the
Graph500 source of :func:`bench.cases.bfs._bfs_prepare`). Impls: the facade on the host CSR
(``facade-cpu``: validation, then SciPy's compiled routine), the facade on the cupyx CSR
(``facade-gpu``: the engine on the GPU), and SciPy itself (``scipy-csgraph``). Every result is
reduced on the host to a vector checked exactly against SciPy's: distances and orders as they
are, a tree as its column sums (the weight of each vertex's tree edge), a Laplacian as its
diagonal and column sums. The ``n = 1000`` latency case is the graph ``urand-10-ef5`` (1024
vertices, density about 1 %). The summary gives each facade impl's speed-up over SciPy.

Functions whose facade is not present (the graphalg names before they merge) are reported
unavailable. Rate: stored entries per second (G/s).

Big graphs (more than :data:`ONCE_NNZ` stored entries: the GPU suite's kron-20 and
grid-2048x2048) would spend minutes in SciPy's routines alone (measured on 2 cores at kron-18:
``minimum_spanning_tree`` 2.8 s, ``dijkstra`` of 16 sources 3.6 s; kron-20 is 4x that), so
there SciPy runs once: the reference's call, timed, is also the ``scipy-csgraph`` impl's single
timed run (a compiled routine has no warm-up to discount). ``facade-cpu`` is not timed there:
on a scipy.sparse CSR it hands the input to the same SciPy routine after a few attribute checks
(``algorithms.csgraph._validation.scipy_csr``), so its ratio is 1 by construction; its fixed
cost is what the ``urand-10-ef5`` latency case and the CPU suite's graphs measure.
"""

from __future__ import annotations

import time

import numpy as np

from . import cases as C
from .cases.bfs import _bfs_prepare

#: Sources of the batched ``dijkstra`` case (the issue's batched-sources item): the first
#: ``BATCH`` vertices of nonzero degree after the Graph500 source.
BATCH = 8

#: Above this many stored entries SciPy runs once (the reference's timed call) and
#: ``facade-cpu`` is not timed (see the module docstring).
ONCE_NNZ = 1 << 22

#: The functions timed, with how each is called and reduced for the check.
FUNCTIONS = ("breadth_first_order", "depth_first_order", "breadth_first_tree", "dijkstra",
             "dijkstra_batch", "bellman_ford", "laplacian", "connected_components",
             "connected_components_strong", "minimum_spanning_tree")

#: SciPy's bellman_ford makes n passes over every edge, n · m work (2 cores: kron-12, 97 k
#: entries, 1.6 s; kron-13 4.2 s; kron-16 did not finish in 4 minutes; a path of 10⁵
#: vertices, 2·10⁵ entries, 111 s): not timed beyond this many stored entries, nor beyond
#: BF_MAX_WORK = n · m.
BF_MAX_NNZ = 1 << 18
BF_MAX_WORK = 1 << 30


def _prepare(ctx: C.CaseContext) -> None:
    _bfs_prepare(ctx)
    H = ctx.graph.host
    deg = np.diff(H.indptr)
    cand = np.flatnonzero(deg > 0)
    s = ctx.inputs["source"]
    start = int(np.searchsorted(cand, s)) if cand.size else 0
    batch = np.resize(np.roll(cand, -start), min(BATCH, max(cand.size, 1))) if cand.size \
        else np.zeros(1, dtype=np.int64)
    ctx.inputs["batch"] = batch.astype(np.int64)


def _call(mod, fn: str, G, ctx: C.CaseContext):
    """The zero-argument call of ``fn`` from module ``mod`` (the facade or SciPy) on G."""
    s = ctx.inputs["source"]
    if fn == "dijkstra_batch":
        idx = ctx.inputs["batch"]
        return lambda: mod.dijkstra(G, indices=idx)
    if fn == "connected_components_strong":  # SciPy's numbering: its DFS completion order
        return lambda: mod.connected_components(G, connection="strong")[1]
    if not hasattr(mod, fn):
        raise C.Unavailable(f"{mod.__name__}.{fn} is not there (yet)")
    f = getattr(mod, fn)
    if fn in ("breadth_first_order", "depth_first_order"):
        return lambda: f(G, s, return_predecessors=False)
    if fn == "breadth_first_tree":
        return lambda: f(G, s)
    if fn in ("dijkstra", "bellman_ford"):
        if fn == "bellman_ford" and (ctx.graph.nnz > BF_MAX_NNZ
                                     or ctx.graph.nnz * ctx.graph.host.shape[0] > BF_MAX_WORK):
            raise C.Unavailable(f"bellman_ford is not timed above {BF_MAX_NNZ} stored entries "
                                f"or n · entries = {BF_MAX_WORK} (SciPy's n passes)")
        return lambda: f(G, indices=s)
    if fn == "connected_components":
        return lambda: f(G, directed=False)[1]
    return lambda: f(G)


def _reduce(result) -> np.ndarray:
    """A host vector of a result: arrays as they are, sparse matrices as diagonal + column
    sums (exact for trees and Laplacians with integer weights)."""
    if hasattr(result, "tocoo"):
        S = result.get() if type(result).__module__.startswith("cupyx") else result
        S = S.tocsr()
        return np.concatenate([np.asarray(S.diagonal(), dtype=np.float64),
                               np.asarray(S.sum(axis=0), dtype=np.float64).ravel()])
    if isinstance(result, tuple):
        result = result[0]
    return np.asarray(result.get() if hasattr(result, "get") else result, dtype=np.float64)


def _ref(ctx: C.CaseContext) -> np.ndarray:
    import scipy.sparse.csgraph as scg  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    if "ref" not in ctx.memo:
        fn = ctx.params["fn"]
        try:
            call = _call(scg, fn, ctx.graph.host, ctx)
            t0 = time.perf_counter()
            raw = call()
            ctx.memo["ref_ms"] = (time.perf_counter() - t0) * 1e3
            ctx.memo["ref"] = _reduce(raw)
            if ctx.graph.nnz > ONCE_NNZ:
                ctx.memo["ref_raw"] = raw  # the scipy-csgraph impl's result (_OnceTimed)
        except C.Unavailable:
            ctx.memo["ref"] = None
    return ctx.memo["ref"]


class _OnceTimed:
    """The ``scipy-csgraph`` impl on a big graph: the reference's single timed call is its
    timing and its result (``measure``'s ``self_timed`` hook)."""

    def __init__(self, ctx: C.CaseContext, call):
        self.ctx, self.call = ctx, call

    def __call__(self):
        return self.call()

    def self_timed(self, policy):
        from .timing import Timing  # noqa: PLC0415  (bench.timing imports nothing of ours)

        if "ref_raw" not in self.ctx.memo:  # the reference was not computed: one call here
            t0 = time.perf_counter()
            out = self.call()
            return Timing(times_ms=[(time.perf_counter() - t0) * 1e3]), out
        return Timing(times_ms=[self.ctx.memo["ref_ms"]]), self.ctx.memo.pop("ref_raw")


def _facade(device: str):
    def setup(ctx: C.CaseContext):
        from algorithms import csgraph  # noqa: PLC0415  (lazy: algorithms (and SciPy's csgraph) adds 0.2 s to python -m bench --list's 0.2 s)

        if device == "cpu" and ctx.graph.nnz > ONCE_NNZ:
            raise C.Unavailable(f"facade-cpu is SciPy's routine on the input itself (ratio 1 "
                                f"by construction): not timed above {ONCE_NNZ} stored entries")
        G = ctx.graph.host if device == "cpu" else ctx.graph.gpu()
        if device == "gpu" and ctx.params["fn"] == "bellman_ford" and (
                ctx.graph.nnz > BF_MAX_NNZ
                or ctx.graph.nnz * ctx.graph.host.shape[0] > BF_MAX_WORK):
            raise C.Unavailable("bellman_ford: see BF_MAX_NNZ, BF_MAX_WORK")
        return _call(csgraph, ctx.params["fn"], G, ctx)

    return setup


def _scipy(ctx: C.CaseContext):
    import scipy.sparse.csgraph as scg  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    call = _call(scg, ctx.params["fn"], ctx.graph.host, ctx)
    return _OnceTimed(ctx, call) if ctx.graph.nnz > ONCE_NNZ else call


def _metrics(ctx: C.CaseContext, impl: C.Impl, seconds: float) -> dict:
    return {"rate_g": ctx.graph.nnz / seconds / 1e9 if seconds > 0 else None,
            "ms": seconds * 1e3}


def _summary(ctx: C.CaseContext, results: dict) -> dict:
    s = {}
    for fast in ("facade-gpu", "facade-cpu"):
        r = C._pair_ratio(results, fast, "scipy-csgraph")
        if r is not None:
            s[f"{fast.replace('-', '_')}_vs_scipy"] = r
    return s


CSGRAPH = C.register_algorithm(C.Algorithm(
    name="csgraph",
    description="the scipy.sparse.csgraph facade (algorithms.csgraph) against SciPy, per "
                "function; a source-taking call uses the Graph500 source; dijkstra_batch: "
                f"{BATCH} sources at once",
    prepare=_prepare,
    references={"scipy": C.Reference("scipy", "scipy.sparse.csgraph, reduced to a vector",
                                     _ref, C.compare_exact)},
    impls=[
        C.Impl("facade-gpu", "gpu", "scipy", _facade("gpu"), fetch=_reduce, engine=True,
               description="algorithms.csgraph.<fn> on the cupyx CSR (GPU path)"),
        C.Impl("facade-cpu", "cpu", "scipy", _facade("cpu"), fetch=_reduce, engine=True,
               description="algorithms.csgraph.<fn> on the SciPy CSR (host path)"),
        C.Impl("scipy-csgraph", "cpu", "scipy", _scipy, fetch=_reduce,
               description="scipy.sparse.csgraph.<fn>"),
    ],
    impl_metrics=_metrics,
    rate_key="rate_g",
    rate_label="G stored entries/s",
    param_label=lambda p: p.get("fn", ""),
    summary=_summary,
))

_PARAMS = [{"fn": f} for f in FUNCTIONS]
# Not in the tiny suites: tests/test_bench.py pins the tiny suite's algorithm set (the lead
# adds "csgraph" there at merge if wanted); `--suite quick --algorithms csgraph` is the case.
# grid-100000x1 is a path of 10⁵ vertices (the long, thin case of algorithms/csgraph/_thin.py)
_SUITE_GRAPHS = {
    ("quick", "cpu"): ["kron-14", "grid-256x256", "grid-100000x1", "urand-10-ef5"],
    ("quick", "gpu"): ["kron-20", "grid-2048x2048", "grid-100000x1", "urand-10-ef5"],
    ("full", "cpu"): ["kron-16", "grid-512x512", "grid-100000x1", "urand-10-ef5"],
    ("full", "gpu"): ["kron-20", "grid-2048x2048", "grid-100000x1", "urand-10-ef5"],
}
for (_name, _dev), _graphs in _SUITE_GRAPHS.items():
    _suite = C.get_suite(_name, _dev)
    if not any(e.algorithm == "csgraph" for e in _suite.entries):
        _suite.entries.append(C.SuiteEntry("csgraph", _graphs, _PARAMS))
