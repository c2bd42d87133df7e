"""The ``dask`` case of ``python -m bench --suite dask``: the engine on Dask workers
(``semiring.dist``, ``algorithms.dist``) against the in-process engine (issue 18, "Measure").

One case per (graph, ``op``), ``op`` one of ``bench.dask_suite.OPS``: BFS levels and SSSP
distances from the Graph500 source, ``y = 1 plus.first A`` (pull: the column counts) and weak
connected components, the same calls as ``python -m bench.dask_suite``
(:func:`bench.dask_suite.dist_op`, :func:`bench.dask_suite.inprocess_op`).

Impls, each checked against a host reference (SciPy's BFS levels and Dijkstra distances, its
component labels, the column counts), every result record carrying ``workers`` (0: in-process)
in its metrics:

- ``in-process-gpu`` / ``in-process-cpu``: the engine on a Matrix in this process.
- ``dask-gpu-W`` (W = 1, 2, 4) / ``dask-cpu-W`` (W = 1, 2): a local cluster of W worker
  processes (:func:`semiring.dist.local_cluster`; on the GPU one per GPU), the graph made by
  each worker itself (:func:`bench.dask_suite.make_dist`, untimed, ``dist_setup_s``) in W
  column blocks. ``dask-*-1`` against ``in-process-*`` is the cost of the Dask path (the
  issue's target: within 1.5×); W = 2, 4 on the same graph is strong scaling; a GPU impl
  whose W exceeds the GPUs here is *unavailable* with the reason. Timed by the wall clock
  (the work is in other processes). Kronecker and urand graphs are made in chunks, each
  worker drawing its share of the edges (:func:`make_dist`, :data:`BUILD`): no worker holds
  the whole edge list, so kron-26 on four GPUs fits where one could not make it.
- ``dask-gpu-1-loop``: one worker through the distributed loop (one task per operation)
  rather than the whole one-device algorithm as one task (``algorithms.dist._local``);
  ``dask-cpu-2-loop``: two workers through that loop rather than the SPMD form (each
  worker's rank runs the loop, one all-gather among the workers a round:
  ``algorithms.dist._spmd``), which ``dask-*-W`` (W >= 2) runs.

Weak scaling reads across cases: ``entries_per_worker`` in each record; the GPU suite has
kron-24 on one worker, kron-25 on two and kron-26 on four (a case's ``workers`` parameter
limits which worker counts run). Clusters are started on first use and kept for the run
(:func:`close_clusters` at exit).
"""

from __future__ import annotations

import atexit
import functools

import numpy as np

from . import cases as C
from . import dask_suite as DS
from . import generators as G
from .cases.bfs import _bfs_prepare, _bfs_ref_levels
from .cases.sssp import _sssp_ref
from .timing import TimingPolicy, measure

GPU_WORKERS = (1, 2, 4)
CPU_WORKERS = (1, 2)

_CLIENTS: dict = {}  # (device, workers) -> distributed.Client


def _require_dask():
    try:
        import distributed  # noqa: F401, PLC0415  (the optional dependency, named below)
    except ImportError as e:
        raise C.Unavailable("dask.distributed is not installed (pip install '.[dask]')") from e


def client_for(device: str, workers: int):
    """A local cluster of ``workers`` processes on ``device`` (started once, kept)."""
    _require_dask()
    key = (device, workers)
    if key not in _CLIENTS:
        if device == "gpu":
            import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

            have = cupy.cuda.runtime.getDeviceCount()
            if have < workers:
                raise C.Unavailable(f"{workers} GPU workers need {workers} GPUs; {have} here "
                                    "(scaling not measured)")
        from semiring import dist  # noqa: PLC0415  (optional: distributed)

        if not _CLIENTS:  # registered after distributed's own exit hooks, so it runs first
            atexit.unregister(close_clusters)
            atexit.register(close_clusters)
        _CLIENTS[key] = dist.local_cluster(workers, device=device)
    return _CLIENTS[key]


def close_clusters() -> None:
    """Close every cluster this module started (quietly: Dask logs each worker's retirement
    at INFO)."""
    if _CLIENTS:
        import logging  # noqa: PLC0415  (only when there is something to close)

        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name.startswith("distributed"):
                logging.getLogger(name).setLevel(logging.WARNING)
    while _CLIENTS:
        _, client = _CLIENTS.popitem()
        cluster = client.cluster
        client.close()
        cluster.close()



def _prepare(ctx: C.CaseContext) -> None:
    _bfs_prepare(ctx)
    ctx.case_metrics["entries"] = ctx.graph.nnz


#: From this many stored entries on, a case's reference is the one-device engine in this
#: process on the GPU (``in-process-gpu``'s call, itself checked against SciPy by the tests
#: and by the smaller cases), not SciPy: SciPy's Dijkstra and search on kron-22 (1.3·10⁸
#: entries) take tens of seconds each, on kron-24 minutes, and kron-26 (2.1·10⁹) is past its
#: int32 indices. So the Dask results of the large cases are checked exactly against the
#: one-device engine's; ``case_metrics['reference']`` says which one a case used.
ENGINE_REF_MIN_NNZ = 1 << 24


def _engine_here() -> bool:
    try:
        import semiring as sr  # noqa: PLC0415  (lazy, as everywhere in this module)
    except ImportError:
        return False
    return sr.gpu_available()


def _ref(ctx: C.CaseContext) -> np.ndarray:
    op = ctx.params["op"]
    H = ctx.graph.host
    if ctx.graph.nnz >= ENGINE_REF_MIN_NNZ and _engine_here():
        ctx.case_metrics["reference"] = "the one-device engine (GPU, in this process)"
        return _fetch((op, DS.inprocess_op(op, C.sr_matrix(ctx, "gpu"),
                                            ctx.inputs["source"])()))
    ctx.case_metrics["reference"] = "SciPy"
    if op == "bfs":
        return _bfs_ref_levels(ctx)
    if op == "sssp":
        return _sssp_ref(ctx)
    if op == "spmv":
        return np.bincount(H.indices, minlength=H.shape[1]).astype(np.float64)
    from scipy.sparse.csgraph import connected_components  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    return connected_components(H, directed=False)[1]


def _fetch(out) -> np.ndarray:
    """(op, result) -> the host vector, ``bench.dask_suite.MISSING[op]`` where absent;
    components numbered 0..k-1 in order of their least vertex (``algorithms.dist``'s ungathered
    result holds each vertex's least vertex; the renumbering is not timed)."""
    op, res = out
    if hasattr(res, "to_dense"):  # sr.Vector, DistVector
        res = res.to_dense(missing=DS.MISSING[op])
    res = np.asarray(DS.host(res))
    return np.unique(res, return_inverse=True)[1].reshape(-1) if op == "cc" else res


class _Wall:
    """A timed call measured by the wall clock (``measure``'s ``self_timed`` hook): the work
    runs in the workers' processes, out of reach of this process's CUDA events."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self):
        return self.fn()

    def self_timed(self, policy: TimingPolicy):
        return measure(self.fn, "cpu", policy)


def _in_process(device: str):
    def setup(ctx: C.CaseContext):
        if "workers" in ctx.params:
            raise C.Unavailable("a weak-scaling point: only its worker count runs")
        op = ctx.params["op"]
        f = DS.inprocess_op(op, C.sr_matrix(ctx, device), ctx.inputs["source"])
        return lambda: (op, f())

    return setup


def _dask(device: str, workers: int, loop: bool = False):
    def setup(ctx: C.CaseContext):
        allowed = ctx.params.get("workers")
        if allowed is not None and workers not in np.atleast_1d(allowed):
            raise C.Unavailable(f"this case runs {allowed} workers only (weak scaling)")
        client = client_for(device, workers)
        spec = ctx.graph.spec
        DA, secs = ctx.graph.get(f"dask:{device}:{workers}", lambda: make_dist(
            client, spec, ctx.graph.n, workers, device))
        ctx.memo[f"dist_setup_s:{device}:{workers}"] = secs
        ctx.memo[f"dist:{device}:{workers}"] = DA
        op = ctx.params["op"]
        f = DS.dist_op(op, DA, ctx.inputs["source"])
        if not loop:
            return _Wall(lambda: (op, f()))
        from algorithms.dist import _local, _spmd  # noqa: PLC0415  (the switches the script flips too)

        def run():
            _local.WHOLE_ON_ONE_WORKER = False
            _spmd.SPMD = False
            try:
                return op, f()
            finally:
                _local.WHOLE_ON_ONE_WORKER = True
                _spmd.SPMD = True

        return _Wall(run)

    return setup


#: How the cases build their DistMatrix (``bench.dask_suite.BUILDS``): 'chunks' where the
#: graph's kind is made in chunks (each worker makes its share of the edges: kron-26 on four
#: GPUs without the whole edge list on one), else 'whole'.
BUILD = "chunks"


def make_dist(client, spec, n, workers, device):
    """The DistMatrix of ``spec`` on ``workers`` column blocks, each worker making its
    share of the edges (``bench.dask_suite.spec_chunk``) where the kind allows, else the
    whole graph (``bench.dask_suite.spec_graph``); (matrix, seconds)."""
    if BUILD == "chunks" and spec.kind in G.CHUNKED_KINDS:
        return DS.make_dist(client, functools.partial(DS.spec_chunk, spec, device), n,
                            workers, device, chunks=True)
    return DS.make_dist(client, functools.partial(DS.spec_graph, spec, device), n, workers,
                        device)


def _workers(impl: C.Impl) -> int:
    return 0 if impl.name.startswith("in-process") else int(impl.name.split("-")[2])


def _metrics(ctx: C.CaseContext, impl: C.Impl, seconds: float) -> dict:
    w = _workers(impl)
    m = {"workers": w, "ms": seconds * 1e3,
         "rate_g": ctx.graph.nnz / seconds / 1e9 if seconds > 0 else None,
         "entries_per_worker": ctx.graph.nnz / max(w, 1)}
    if w:
        m["dist_setup_s"] = ctx.memo.get(f"dist_setup_s:{impl.device}:{w}")
        DA = ctx.memo.get(f"dist:{impl.device}:{w}")
        if ctx.params.get("op") == "bfs" and DA is not None and not impl.name.endswith("-loop"):
            # which BFS ran: the two-GPU kernel ('peer'), the fused rank loop, one device
            m["bfs_loop"] = DS.bfs_loop(DA)
    return m


def _summary(ctx: C.CaseContext, results: dict) -> dict:
    s = {}
    for dev, ws in (("gpu", GPU_WORKERS), ("cpu", CPU_WORKERS)):
        r = C._pair_ratio(results, f"dask-{dev}-1", f"in-process-{dev}")
        if r is not None:  # time(dask, 1 worker) / time(in-process): the issue's <= 1.5
            s[f"dask_{dev}_1_over_in_process"] = 1.0 / r
        for w in ws[1:]:
            r = C._pair_ratio(results, f"dask-{dev}-{w}", f"dask-{dev}-1")
            if r is not None:  # time(1) / (w * time(w))
                s[f"dask_{dev}_{w}_strong_efficiency"] = r / w
    r = C._pair_ratio(results, "dask-gpu-1", "dask-gpu-1-loop")
    if r is not None:
        s["dask_gpu_1_loop_over_whole"] = r
    r = C._pair_ratio(results, "dask-cpu-2", "dask-cpu-2-loop")
    if r is not None:  # the loop of one task per operation against the SPMD form
        s["dask_cpu_2_loop_over_spmd"] = r
    return s


def _impls():
    out = [C.Impl("in-process-gpu", "gpu", "result", _in_process("gpu"), fetch=_fetch,
                  engine=True, description="the engine in this process, on the GPU")]
    for w in GPU_WORKERS:
        out.append(C.Impl(f"dask-gpu-{w}", "gpu", "result", _dask("gpu", w), fetch=_fetch,
                          engine=True, description=f"algorithms.dist on {w} GPU worker(s), "
                                                   "one per GPU (wall clock)"))
    out.append(C.Impl("dask-gpu-1-loop", "gpu", "result", _dask("gpu", 1, loop=True),
                      fetch=_fetch, engine=True, description="one GPU worker through the "
                      "distributed loop (WHOLE_ON_ONE_WORKER off)"))
    out.append(C.Impl("in-process-cpu", "cpu", "result", _in_process("cpu"), fetch=_fetch,
                      engine=True, description="the engine in this process, on the CPU"))
    for w in CPU_WORKERS:
        out.append(C.Impl(f"dask-cpu-{w}", "cpu", "result", _dask("cpu", w), fetch=_fetch,
                          engine=True, description=f"algorithms.dist on a LocalCluster of {w} "
                                                   "CPU process(es) (wall clock)"))
    out.append(C.Impl("dask-cpu-2-loop", "cpu", "result", _dask("cpu", 2, loop=True),
                      fetch=_fetch, engine=True, description="two CPU workers through the "
                      "distributed loop of one task per operation (SPMD off)"))
    return out


DASK = C.register_algorithm(C.Algorithm(
    name="dask",
    description="the engine on Dask workers (semiring.dist / algorithms.dist) against the "
                "in-process engine: op=bfs|sssp|spmv|cc; workers in every record; strong "
                "scaling over 1, 2, 4 GPU workers where the GPUs exist",
    prepare=_prepare,
    references={"result": C.Reference(
        "result", "SciPy: BFS levels, Dijkstra distances, component labels; column counts "
        "(from ENGINE_REF_MIN_NNZ entries on: the one-device engine on the GPU)",
        _ref, C.compare_exact)},
    impls=_impls(),
    impl_metrics=_metrics,
    rate_key="rate_g",
    rate_label="G stored entries/s",
    param_label=lambda p: p.get("op", "") + (f",workers={p['workers']}" if "workers" in p
                                             else ""),
    summary=_summary,
))


def _params(**extra):
    return [dict(op=op, **extra) for op in DS.OPS]


C.register_suite(C.Suite(
    "dask", "cpu",
    [C.SuiteEntry("dask", ["kron-8", "grid-16x16"], _params())],
    TimingPolicy(warmup=1, min_runs=2, max_runs=3, budget_s=0.2),
    description="Dask on the CPU: a LocalCluster of 1 and 2 processes, small graphs (seconds)"))
C.register_suite(C.Suite(
    "dask", "gpu",
    # kron-22: one worker against in-process; kron-24: strong scaling over 1, 2, 4 GPUs and
    # weak scaling's first point; kron-25 on 2 and kron-26 on 4 GPUs: its other points
    [C.SuiteEntry("dask", ["kron-22", "kron-24"], _params()),
     C.SuiteEntry("dask", ["kron-25"], _params(workers=2)),
     C.SuiteEntry("dask", ["kron-26"], _params(workers=4))],
    TimingPolicy(warmup=1, min_runs=3, max_runs=10, budget_s=2.0, long_call_s=2.0),
    cpu_impl_max_nnz=1 << 22,
    description="Dask on 1-4 GPUs (scaling where the GPUs exist), kron-22..26"))
