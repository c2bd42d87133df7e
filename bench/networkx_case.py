"""The ``networkx`` case: pure NetworkX against its ``"semiring"`` backend (issue 17, "Measure").

One case per (graph, ``alg``), ``alg`` one of ``nx_semiring.bench.ALGORITHMS``: BFS levels,
SSSP (Dijkstra lengths, the graph's integer weights), PageRank, connected components, sampled
betweenness (``k`` sources, seed 0) and per-vertex triangles. The calls are those of
``python -m nx_semiring.bench`` (:func:`nx_semiring.bench._cases`): NetworkX's own function on
a ``networkx.Graph`` of the bench's graph, and the backend's function on that graph converted
by :func:`nx_semiring.from_networkx`.

Impls:

- ``networkx``: NetworkX itself, called **once** (its result is the reference every other impl
  is checked against; a second call would only repeat minutes of pure Python on the big
  graphs). Building the ``networkx.Graph`` from the CSR is not timed (once per graph).
- ``nx-semiring-gpu`` / ``nx-semiring-cpu``: the backend with the engine on that device.
  Setup converts the graph afresh (``convert_s``: ``from_networkx`` plus the engine's CSR on
  the device, what NetworkX's dispatcher pays once per graph), then makes the first call on it
  (``first_s``: it also builds what the engine caches on the graph); the timed calls are the
  warm ones (``again``). Kernels are compiled beforehand on a small graph (once per process).
  Metrics: ``convert_s``, ``first_s``, ``networkx_s`` and the speed-ups
  ``speedup_once = NetworkX / (convert + first)`` (a graph used once) and
  ``speedup_warm = NetworkX / again``.

Every backend result is checked against NetworkX's (equal; PageRank and betweenness within
1e-6, as :func:`nx_semiring.bench._check`). Where NetworkX would run too long the case is
skipped, every impl reported *unavailable* with the reason: the work estimate of each
algorithm (stored entries; times ``k`` for betweenness; Σ min(deg u, deg v) over the stored
entries for triangles: its set intersections) is bounded by :data:`NX_MAX_WORK`,
:data:`NX_BC_WORK` and :data:`NX_TRIANGLE_WORK`; betweenness lowers its sample ``k`` (at most
``nx_semiring.bench.BC_SOURCES``) to fit its bound first. The case's summary repeats each
backend's phases (``..._phases``: NetworkX, conversion, first call, warm call).
Rate: stored entries per second (G/s).
"""

from __future__ import annotations

import time

import numpy as np

from . import analytics_case
from . import cases as C
from .cases.bfs import _bfs_prepare

#: NetworkX's work per case, in visits of a stored entry (about a minute of pure Python on one
#: core at 2^26): above it NetworkX is not run and the case is skipped with the reason.
NX_MAX_WORK = 1 << 26

#: Betweenness: NetworkX's k sampled sources cost k Brandes passes (a BFS and its dependency
#: sweep in Python dicts, ~0.5 µs a stored entry each), so the sample is cut to
#: k ≤ NX_BC_WORK / stored entries: 2 sources on kron-18, 4 on the 1000² grid, ~10 s of
#: NetworkX each; the backend's per-source time is what the case compares.
NX_BC_WORK = 1 << 24

#: Triangles: NetworkX's set intersections, Σ min(deg u, deg v) over the stored entries, cost
#: 3.2e-8 s a unit (kron-16 on the 2-core helper: 10.4 s for 3.3e8 units), so kron-18's 2.1e9
#: (the issue's graph) is about a minute of NetworkX, run once.
NX_TRIANGLE_WORK = 1 << 32

_WARM: set = set()  # (device, alg) pairs whose kernels were compiled on a small graph


def _nxbench():
    try:
        import networkx  # noqa: F401, PLC0415  (the optional dependency, named in the error)
    except ImportError as e:
        raise C.Unavailable("networkx is not installed (pip install '.[networkx]')") from e
    from nx_semiring import bench  # noqa: PLC0415  (imports networkx and the engine)

    return bench


def _bc_sources(ctx: C.CaseContext) -> int:
    """Betweenness's sample k: nx_semiring.bench.BC_SOURCES, fewer where k × nnz exceeds
    NX_BC_WORK (0: not even one source fits)."""
    k = min(_nxbench().BC_SOURCES, ctx.graph.n)
    return min(k, NX_BC_WORK // max(ctx.graph.nnz, 1))


def _limit(alg: str) -> tuple[str, int]:
    """(name, value) of the work bound of algorithm ``alg``."""
    name = {"bc": "NX_BC_WORK", "triangles": "NX_TRIANGLE_WORK"}.get(alg, "NX_MAX_WORK")
    return name, globals()[name]


def nx_work(ctx: C.CaseContext) -> int:
    """NetworkX's estimated work for the case's algorithm (see :data:`NX_MAX_WORK`)."""
    H = ctx.graph.host
    alg = ctx.params["alg"]
    if alg == "bc":
        return ctx.graph.nnz * max(ctx.inputs["bc_sources"], 1)
    if alg == "triangles":
        deg = np.diff(H.indptr)
        rows = np.repeat(np.arange(H.shape[0]), deg)
        return int(np.minimum(deg[rows], deg[H.indices]).sum())
    return ctx.graph.nnz


def _prepare(ctx: C.CaseContext) -> None:
    _bfs_prepare(ctx)  # the Graph500 source (BFS, SSSP)
    try:
        _nxbench()
    except C.Unavailable as e:  # every impl reports it
        ctx.case_metrics["skipped"] = str(e)
        return
    ctx.inputs["bc_sources"] = _bc_sources(ctx) if ctx.params["alg"] == "bc" else 0
    work = nx_work(ctx)
    ctx.case_metrics.update(nx_work=work, entries=ctx.graph.nnz)
    if ctx.params["alg"] == "bc":
        ctx.case_metrics["bc_sources"] = ctx.inputs["bc_sources"]
    name, limit = _limit(ctx.params["alg"])
    if work > limit or (ctx.params["alg"] == "bc" and ctx.inputs["bc_sources"] < 1):
        ctx.case_metrics["skipped"] = (
            f"NetworkX {ctx.params['alg']} would visit about {work:.3g} stored entries "
            f"> {name} = {limit} (bench/networkx_case.py): not run, so no "
            "reference to check the backend against")


def _calls(ctx: C.CaseContext):
    """(edge attribute, NetworkX's call, the backend's call, "equal"|"close") of the case."""
    if "skipped" in ctx.case_metrics:
        raise C.Unavailable(ctx.case_metrics["skipped"])
    nxb = _nxbench()
    G = analytics_case._nx_graph(ctx, limit=NX_MAX_WORK)  # the graph itself: stored entries
    return nxb._cases(G, ctx.inputs["source"], bc_sources=ctx.inputs["bc_sources"])[
        ctx.params["alg"]]


def _normalize(result):
    """A result NetworkX's way, made comparable: components as a set of frozensets."""
    if isinstance(result, list):
        return {frozenset(c) for c in result}
    return result


def _ref(ctx: C.CaseContext):
    """NetworkX's result (one timed call, shared with the ``networkx`` impl)."""
    if "nx" not in ctx.memo:
        _, f_nx, _, _ = _calls(ctx)
        t = time.perf_counter()
        out = f_nx()
        ctx.memo["nx"] = (time.perf_counter() - t, _normalize(out))
    return ctx.memo["nx"][1]


def _compare(got, ref) -> tuple[bool, str]:
    kind = "equal" if isinstance(ref, set) else None
    if kind is None:  # dicts: exact for integers, 1e-6 for floats (nx_semiring.bench._check)
        kind = "close" if any(isinstance(v, float) for v in ref.values()) else "equal"
    if _nxbench()._check(kind, ref, got):
        return True, f"{len(ref)} entries {'equal' if kind == 'equal' else 'within 1e-6'}"
    if isinstance(ref, set):
        return False, f"{len(got)} components, NetworkX has {len(ref)}; they differ"
    if set(ref) != set(got):
        return False, (f"keys differ: {len(set(ref) - set(got))} missing, "
                       f"{len(set(got) - set(ref))} extra")
    bad = [v for v in ref if not _nxbench()._check(kind, {v: ref[v]}, {v: got[v]})]
    first = ", ".join(f"[{v}] got {got[v]!r} expected {ref[v]!r}" for v in bad[:3])
    return False, f"{len(bad)} of {len(ref)} entries differ; first: {first}"


class _OneCall:
    """The ``networkx`` impl's timed object: the reference's single call is its timing."""

    def __init__(self, ctx: C.CaseContext):
        self.ctx = ctx

    def __call__(self):
        return _ref(self.ctx)

    def self_timed(self, policy):
        from .timing import Timing  # noqa: PLC0415  (bench.timing imports nothing of ours)

        out = _ref(self.ctx)
        return Timing(times_ms=[self.ctx.memo["nx"][0] * 1e3]), out


def _networkx(ctx: C.CaseContext):
    _calls(ctx)
    return _OneCall(ctx)


def _sync(device: str) -> None:
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        cupy.cuda.get_current_stream().synchronize()


def _backend(device: str):
    def setup(ctx: C.CaseContext):
        attr, _, f_sr, _ = _calls(ctx)
        nxb = _nxbench()
        from nx_semiring import from_networkx  # noqa: PLC0415  (optional: networkx)

        def convert(G):
            g = from_networkx(G, edge_attrs=None if attr is None else {attr: 1}, device=device,
                              use_cache=False)  # afresh: convert_s is the whole conversion
            g.matrix(attr)  # the engine's CSR on its device: part of the conversion
            _sync(device)
            return g

        alg = ctx.params["alg"]
        if (device, alg) not in _WARM:  # compile the kernels on a small graph first
            small = nxb.kronecker_graph(8)
            nxb._cases(small, 0)[alg][2](convert(small))
            _sync(device)
            _WARM.add((device, alg))
        G = analytics_case._nx_graph(ctx, limit=NX_MAX_WORK)
        t0 = time.perf_counter()
        g = convert(G)
        t1 = time.perf_counter()
        f_sr(g)
        _sync(device)
        ctx.memo[f"phases:{device}"] = {"convert_s": t1 - t0,
                                        "first_s": time.perf_counter() - t1}
        return lambda: f_sr(g)

    return setup


def _metrics(ctx: C.CaseContext, impl: C.Impl, seconds: float) -> dict:
    m = {"rate_g": ctx.graph.nnz / seconds / 1e9 if seconds > 0 else None, "ms": seconds * 1e3}
    if impl.engine:
        m.update(ctx.memo.get(f"phases:{impl.device}", {}))
        if "nx" in ctx.memo and "convert_s" in m:
            t_nx = ctx.memo["nx"][0]
            m["networkx_s"] = t_nx
            m["speedup_once"] = t_nx / (m["convert_s"] + m["first_s"])
            m["speedup_warm"] = t_nx / seconds if seconds > 0 else None
    return m


def _summary(ctx: C.CaseContext, results: dict) -> dict:
    s = {}
    for name in ("nx-semiring-gpu", "nx-semiring-cpu"):
        r = results.get(name)
        if r is not None and r.status == "ok":
            key = name.replace("-", "_")
            for m in ("speedup_once", "speedup_warm"):
                if r.metrics.get(m) is not None:
                    s[f"{key}_{m}"] = r.metrics[m]
            m = r.metrics
            if "networkx_s" in m:
                s[f"{key}_phases"] = (
                    f"NetworkX {m['networkx_s']:.4g} s, convert {m['convert_s']:.4g} s, first "
                    f"{m['first_s'] * 1e3:.4g} ms, warm {r.timing.median_ms:.4g} ms")
    return s


NETWORKX = C.register_algorithm(C.Algorithm(
    name="networkx",
    description="pure NetworkX against its 'semiring' backend (nx_semiring), per algorithm "
                "(alg=bfs|sssp|pagerank|components|bc|triangles); the backend's conversion "
                "and first call are metrics (convert_s, first_s), its warm call is timed; "
                "NetworkX runs once, its result the reference",
    prepare=_prepare,
    references={"networkx": C.Reference("networkx", "NetworkX's own result (one call)", _ref,
                                         _compare)},
    impls=[
        C.Impl("nx-semiring-gpu", "gpu", "networkx", _backend("gpu"), fetch=_normalize,
               engine=True, description="the nx_semiring backend, engine on the GPU (warm "
                                        "call; convert_s / first_s in the metrics)"),
        C.Impl("nx-semiring-cpu", "cpu", "networkx", _backend("cpu"), fetch=_normalize,
               engine=True, description="the nx_semiring backend, engine on the CPU (warm "
                                        "call; convert_s / first_s in the metrics)"),
        C.Impl("networkx", "cpu", "networkx", _networkx, fetch=_normalize,
               description=f"NetworkX itself, one call (work <= {NX_MAX_WORK})"),
    ],
    impl_metrics=_metrics,
    rate_key="rate_g",
    rate_label="G stored entries/s",
    param_label=lambda p: p.get("alg", ""),
    summary=_summary,
))

ALGS = ("bfs", "sssp", "pagerank", "components", "bc", "triangles")
_PARAMS = [{"alg": a} for a in ALGS]
#: The issue's graphs (kron-18, a 1000 x 1000 grid) on the GPU; small ones on the CPU, the
#: tiny ones run by tests/test_bench.py.
_SUITE_GRAPHS = {
    ("tiny", "cpu"): ["kron-8", "grid-16x16"],
    ("tiny", "gpu"): ["kron-10", "grid-32x32"],
    ("quick", "cpu"): ["kron-12", "grid-100x100"],
    ("quick", "gpu"): ["kron-18", "grid-1000x1000"],
    ("full", "cpu"): ["kron-14", "grid-300x300"],
    ("full", "gpu"): ["kron-18", "grid-1000x1000"],
}
for (_name, _dev), _graphs in _SUITE_GRAPHS.items():
    _suite = C.get_suite(_name, _dev)
    if not any(e.algorithm == "networkx" for e in _suite.entries):
        _suite.entries.append(C.SuiteEntry("networkx", _graphs, _PARAMS))
