"""The registry: algorithms (inputs, references, implementations, metrics) and suites.

An :class:`Algorithm` says how to make a case's inputs from a graph, which *references* the
results are checked against (computed on the host, untimed), which *implementations* ("impls")
run it, and which metrics an impl's time turns into. Each :class:`Impl` declares its device
and the reference it must match: ``cusparse-plus-times`` computes a different semiring from
``semiring-gpu`` (min_plus), so it is checked against SciPy's plus-times product, not against
min-plus.

A :class:`Suite` lists, per algorithm, the graphs and parameter sets to run, for a CPU or a
GPU run. Later issues add BFS/SSSP/APSP by calling :func:`register_algorithm` and adding
:class:`SuiteEntry` rows with :func:`register_suite` (or by extending the tables below)::

    register_algorithm(Algorithm(name="bfs", prepare=..., references={...}, impls=[...],
                                 impl_metrics=..., rate_label="GTEPS (Graph500)"))

Engine implementations import :mod:`semiring` when they are set up, so a missing or broken
engine shows up as an error of that impl (and a non-zero exit), not as an import error of the
benchmark.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .. import generators as gen
from ..timing import TimingPolicy


class Unavailable(Exception):
    """Raised by an impl's setup when an optional peer cannot run here (reported, not failed)."""


# --------------------------------------------------------------------------------------------
# per-graph and per-case state


@dataclass
class GraphData:
    """A loaded graph: the host CSR (always: references and CPU impls use it), a lazily made
    device copy, statistics, and a memo of derived objects shared by the cases on this graph."""

    spec: gen.GraphSpec
    host: Any  # scipy.sparse.csr_matrix
    device_csr: Any = None  # cupyx.scipy.sparse.csr_matrix
    stats: dict = field(default_factory=dict)
    memo: dict = field(default_factory=dict)
    load_info: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        return int(self.host.shape[0])

    @property
    def nnz(self) -> int:
        return int(self.host.nnz)

    @property
    def scale(self) -> float:
        """log2 of the vertex count (the x axis of the plots)."""
        return math.log2(self.n) if self.n > 0 else 0.0

    def gpu(self):
        """The graph as a ``cupyx.scipy.sparse.csr_matrix`` (made once)."""
        if self.device_csr is None:
            import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

            H = self.host
            self.device_csr = gen.build_csr(cupy.asarray(H.indptr), cupy.asarray(H.indices),
                                            cupy.asarray(H.data), H.shape, xp=cupy)
        return self.device_csr

    def get(self, key: str, factory: Callable[[], Any]):
        if key not in self.memo:
            self.memo[key] = factory()
        return self.memo[key]

    def describe(self) -> dict:
        d = dict(self.spec.params())
        d.update(self.stats)
        d["scale_log2_n"] = round(self.scale, 3)
        d["undirected_edges"] = self.nnz // 2 if self.spec.undirected else None
        return d


@dataclass
class CaseContext:
    algorithm: "Algorithm"
    graph: GraphData
    params: dict
    seed: int
    env: dict
    inputs: dict = field(default_factory=dict)  # host (NumPy) inputs, made by prepare
    case_metrics: dict = field(default_factory=dict)
    memo: dict = field(default_factory=dict)

    def gpu_input(self, name: str):
        """A CuPy copy of a host input (made once per case)."""
        key = f"gpu:{name}"
        if key not in self.memo:
            import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

            self.memo[key] = cupy.asarray(self.inputs[name])
        return self.memo[key]


# --------------------------------------------------------------------------------------------
# references, impls, algorithms


def compare_exact(got: np.ndarray, ref: np.ndarray) -> tuple[bool, str]:
    """Equality (inf == inf; NaN == NaN), after casting both to float64."""
    got = np.asarray(got)
    ref = np.asarray(ref)
    if got.shape != ref.shape:
        return False, f"shape {got.shape} != reference shape {ref.shape}"
    g = got.astype(np.float64)
    r = ref.astype(np.float64)
    ok = (g == r) | (np.isnan(g) & np.isnan(r))
    return _verdict(ok, g, r, "exactly equal")


def compare_close(rtol: float, atol: float = 0.0):
    def cmp(got: np.ndarray, ref: np.ndarray) -> tuple[bool, str]:
        got = np.asarray(got)
        ref = np.asarray(ref)
        if got.shape != ref.shape:
            return False, f"shape {got.shape} != reference shape {ref.shape}"
        g = got.astype(np.float64)
        r = ref.astype(np.float64)
        ok = np.isclose(g, r, rtol=rtol, atol=atol, equal_nan=True)
        return _verdict(ok, g, r, f"close (rtol={rtol:g}, atol={atol:g})")

    return cmp


def _verdict(ok: np.ndarray, g: np.ndarray, r: np.ndarray, what: str) -> tuple[bool, str]:
    bad = np.flatnonzero(~ok)
    if bad.size == 0:
        return True, f"{ok.size} entries {what}"
    first = ", ".join(f"[{i}] got {g[i]!r} expected {r[i]!r}" for i in bad[:3])
    return False, f"{bad.size} of {ok.size} entries differ (want {what}); first: {first}"


@dataclass(frozen=True)
class Reference:
    name: str
    description: str
    compute: Callable[[CaseContext], np.ndarray]
    compare: Callable[[np.ndarray, np.ndarray], tuple[bool, str]] = compare_exact


def to_host(result) -> np.ndarray:
    """Default fetch: a NumPy/CuPy array, or a semiring Vector (absent entries = +inf)."""
    if hasattr(result, "to_dense") and hasattr(result, "nvals"):
        result = result.to_dense(missing=np.inf)
    return gen.to_numpy(result)


@dataclass(frozen=True)
class Impl:
    """One implementation of an algorithm.

    ``setup(ctx)`` does the untimed preparation (device copies, format conversion) and returns
    the zero-argument callable that is timed; ``fetch(result)`` brings its result to the host
    for the check against ``reference``.
    """

    name: str
    device: str  # 'cpu' | 'gpu'
    reference: str
    setup: Callable[[CaseContext], Callable[[], Any]]
    fetch: Callable[[Any], np.ndarray] = to_host
    description: str = ""
    engine: bool = False  # True for this project's engine, False for peers/baselines


@dataclass
class Algorithm:
    name: str
    description: str
    prepare: Callable[[CaseContext], None]
    references: dict[str, Reference]
    impls: list[Impl]
    impl_metrics: Callable[[CaseContext, Impl, float], dict]
    rate_key: str = "rate_g"  # the metric plotted against scale
    rate_label: str = "G/s"
    param_label: Callable[[dict], str] = lambda p: ",".join(f"{k}={v}" for k, v in p.items())
    summary: Callable[[CaseContext, dict], dict] | None = None
    #: A case metric measuring the work (e.g. frontier edges): time is also plotted against it.
    work_key: str | None = None
    work_label: str = ""
    #: ``extra_plot(run, path) -> path | None``: an algorithm's own plot (APSP: relaxation rate
    #: against n with the measured peak as a line), written next to the generic ones.
    extra_plot: Callable[[Any, Any], Any] | None = None
    #: ``rate_lines(run) -> [(label, value), ...]``: horizontal lines drawn on every panel of the
    #: rate plot, values in the unit of ``rate_key`` (APSP: the measured peaks).
    rate_lines: Callable[[Any], list] | None = None

    def impl(self, name: str) -> Impl:
        for i in self.impls:
            if i.name == name:
                return i
        raise KeyError(name)


ALGORITHMS: dict[str, Algorithm] = {}


def register_algorithm(alg: Algorithm) -> Algorithm:
    ALGORITHMS[alg.name] = alg
    return alg


def add_impl(algorithm: str, impl: Impl) -> Impl:
    """Add an implementation to a registered algorithm (e.g. a new peer)."""
    alg = ALGORITHMS[algorithm]
    alg.impls = [i for i in alg.impls if i.name != impl.name] + [impl]
    return impl


# --------------------------------------------------------------------------------------------
# shared helpers for impls


def semiring_module():
    """The engine, imported on first use."""
    import semiring  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)

    return semiring


def sr_matrix(ctx: CaseContext, device: str):
    """The graph as an engine Matrix on ``device`` (made once per graph, untimed)."""
    sr = semiring_module()
    if device == "gpu":
        return ctx.graph.get("sr.Matrix:gpu", lambda: sr.Matrix.from_cupyx(ctx.graph.gpu()))
    # device="cpu" explicitly: from_scipy's default is the engine's default device (the GPU
    # when one answers)
    return ctx.graph.get("sr.Matrix:cpu",
                         lambda: sr.Matrix.from_scipy(ctx.graph.host, device="cpu"))


def _row_ids(ctx: CaseContext, xp):
    """Row index of every stored entry (host or device), made once per graph."""
    key = f"row_ids:{xp.__name__}"

    def make():
        indptr = ctx.graph.gpu().indptr if gen.is_cupy(xp) else ctx.graph.host.indptr
        nnz = ctx.graph.nnz
        return (xp.searchsorted(indptr, xp.arange(nnz, dtype=indptr.dtype), side="right")
                - 1).astype(indptr.dtype)

    return ctx.graph.get(key, make)


def _scatter_min_fn():
    """``f(y, idx, vals)``: y[idx] = min(y[idx], vals) with repeated indices, on the GPU:
    ``cupy.minimum.at`` (CuPy >= 13), else the older ``cupyx.scatter_min``."""
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    at = getattr(cupy.minimum, "at", None)
    if at is not None:
        return at
    import cupyx  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    if hasattr(cupyx, "scatter_min"):
        return cupyx.scatter_min
    raise Unavailable("neither cupy.minimum.at nor cupyx.scatter_min in this CuPy")


def min_plus_rows(indptr, indices, data, x, n_rows: int) -> np.ndarray:
    """Host reference ``y_i = min_j (A_ij + x_j)`` over stored entries (inf for empty rows),
    vectorized: gather + ``np.minimum.reduceat`` over the non-empty rows."""
    vals = data + x[indices]
    y = np.full(n_rows, np.inf, dtype=np.result_type(data.dtype, x.dtype))
    deg = np.diff(indptr)
    nonempty = np.flatnonzero(deg > 0)
    if nonempty.size:
        y[nonempty] = np.minimum.reduceat(vals, indptr[:-1][nonempty].astype(np.int64))
    return y


def push_min_plus(indptr, indices, data, f_idx, f_vals, n_cols: int) -> np.ndarray:
    """Host reference ``y_j = min_{i in frontier} (x_i + A_ij)`` (inf where no frontier row
    reaches j): vectorized gather of the frontier rows, sort by column, ``np.minimum.reduceat``."""
    f_idx = np.asarray(f_idx, dtype=np.int64)
    starts = indptr[f_idx].astype(np.int64)
    lens = indptr[f_idx + 1].astype(np.int64) - starts
    total = int(lens.sum())
    y = np.full(n_cols, np.inf, dtype=np.result_type(data.dtype, f_vals.dtype))
    if total == 0:
        return y
    seg = np.repeat(np.arange(f_idx.size), lens)
    excl = np.cumsum(lens) - lens
    pos = np.arange(total, dtype=np.int64) - excl[seg] + starts[seg]
    cols = indices[pos]
    vals = data[pos] + f_vals[seg]
    order = np.argsort(cols, kind="stable")
    cols = cols[order]
    vals = vals[order]
    first = np.flatnonzero(np.r_[True, cols[1:] != cols[:-1]])
    y[cols[first]] = np.minimum.reduceat(vals, first)
    return y


# --------------------------------------------------------------------------------------------
# python-graphblas (SuiteSparse:GraphBLAS) on the CPU: the reference GraphBLAS implementation,
# an optional peer (pip install ".[graphblas]").


def _graphblas():
    try:
        import graphblas  # noqa: PLC0415  (python-graphblas is an optional extra)
    except ImportError as e:
        raise Unavailable("python-graphblas is not installed (pip install '.[graphblas]')") from e
    return graphblas


def _gb_matrix(ctx: CaseContext):
    gb = _graphblas()
    return ctx.graph.get("graphblas:A", lambda: gb.io.from_scipy_sparse(ctx.graph.host))


def _gb_fetch(result) -> np.ndarray:
    """A graphblas Vector to a dense float array with +inf where there is no entry."""
    idx, vals = result.to_coo()
    y = np.full(result.size, np.inf)
    y[idx] = vals
    return y


def _gb_fetch_levels(result) -> np.ndarray:
    """A graphblas Vector or Matrix of BFS levels to a dense int64 array, -1 where there is no
    entry (unreached): the form of the BFS references. Untimed, as every fetch is."""
    return np.asarray(result.to_dense(fill_value=-1, dtype=np.int64))


#: LAGraph's direction-optimization constants (``LAGr_BreadthFirstSearch`` in LAGraph 1.x):
#: push -> pull when the frontier grows and its edges exceed the unexplored edges / ALPHA;
#: pull -> push when it shrinks to n / BETA2 vertices or fewer; after a pull phase the edge count
#: is no longer tracked and push -> pull again needs a growing frontier of over n / BETA1.
GB_BFS_ALPHA = 8.0
GB_BFS_BETA1 = 8.0
GB_BFS_BETA2 = 512.0


def gb_bfs_levels(gb, A, AT, degree, source: int):
    """Level-synchronous BFS with python-graphblas, as LAGraph writes it: the frontier ``q``
    (bool) is expanded by ``q⟨¬v.S, replace⟩ = q any.pair A`` (push, SuiteSparse's saxpy) or by
    ``q⟨¬v.S, replace⟩ = AT any.pair q`` (pull, dot products over the unvisited rows), chosen
    per level by LAGraph's heuristic (:data:`GB_BFS_ALPHA`, ...); ``v⟨q.S⟩ = level`` records
    the levels.

    Parameters
    ----------
    gb : module
        ``graphblas``.
    A, AT : graphblas.Matrix
        The graph (by row) and its transpose (``AT is A`` for a symmetric graph).
    degree : graphblas.Vector
        INT64 out-degree of every vertex (LAGraph's cached ``G->out_degree``).
    source : int
        The source vertex.

    Returns
    -------
    graphblas.Vector
        INT64 levels of the reached vertices (no entry where unreached).
    """
    n = A.nrows
    v = gb.Vector(gb.dtypes.INT64, n)
    # as LAGraph: the levels (the complemented mask of every step) bitmap, a dense lookup
    v.ss.config["sparsity_control"] = ["bitmap", "full"]
    q = gb.Vector(gb.dtypes.BOOL, n)
    q[source] = True
    any_pair = gb.semiring.any_pair
    plus = gb.monoid.plus[gb.dtypes.INT64]
    edges_unexplored = A.nvals
    push_pull, do_push, any_pull = True, True, False
    nq, last_nq, nvisited, level = 1, 0, 0, 0
    while True:
        v(q.S) << level
        nvisited += nq
        if nvisited >= n:  # every vertex has a level: no product left to do
            break
        level += 1
        if push_pull:
            if do_push:
                growing = nq > last_nq
                switch = False
                if edges_unexplored < n:
                    push_pull = False  # little of the graph is left: pull would not pay
                elif any_pull:
                    switch = growing and nq > n / GB_BFS_BETA1
                else:
                    in_frontier = int(degree.dup(mask=q.S).reduce(plus).new().value or 0)
                    edges_unexplored -= in_frontier
                    switch = growing and in_frontier > edges_unexplored / GB_BFS_ALPHA
                do_push = not switch
            elif nq < last_nq and nq <= n / GB_BFS_BETA2:
                do_push = True
            any_pull = any_pull or not do_push
        # as LAGraph: a sparse frontier to push (saxpy), a bitmap one to pull (dot products)
        q.ss.config["sparsity_control"] = ["sparse"] if do_push else ["bitmap"]
        if do_push:
            q(~v.S, replace=True) << q.vxm(A, any_pair)
        else:
            q(~v.S, replace=True) << AT.mxv(q, any_pair)
        last_nq, nq = nq, q.nvals
        if nq == 0:
            break
    return v


def _gb_transpose(ctx: CaseContext):
    """The graph's transpose for pull steps: the graph itself when it is symmetric (every
    generated graph), else made once per graph (untimed)."""
    A = _gb_matrix(ctx)
    if ctx.graph.spec.undirected:
        return A
    return ctx.graph.get("graphblas:AT", lambda: A.T.new())


def _gb_degree(ctx: CaseContext):
    """INT64 out-degree of every vertex as a graphblas Vector (made once per graph)."""
    gb = _graphblas()
    return ctx.graph.get("graphblas:degree", lambda: gb.Vector.from_dense(
        np.diff(np.asarray(ctx.graph.host.indptr).astype(np.int64))))


def _pair_ratio(results: dict, fast: str, slow: str) -> float | None:
    a, b = results.get(fast), results.get(slow)
    if a is None or b is None or a.status != "ok" or b.status != "ok":
        return None
    return b.timing.median_ms / a.timing.median_ms


# --------------------------------------------------------------------------------------------
# suites


@dataclass
class SuiteEntry:
    algorithm: str
    graphs: list[str]
    params: list[dict] = field(default_factory=lambda: [{}])


@dataclass
class Suite:
    name: str
    device: str  # 'cpu' | 'gpu'
    entries: list[SuiteEntry]
    timing: TimingPolicy = field(default_factory=TimingPolicy)
    #: CPU impls are skipped on graphs with more stored entries than this (GPU suites).
    cpu_impl_max_nnz: int | None = None
    description: str = ""
    #: Timing of CPU impls when it differs (GPU suites: big graphs, slow CPU calls).
    cpu_timing: TimingPolicy | None = None

    def policy(self, device: str) -> TimingPolicy:
        if device == "cpu" and self.cpu_timing is not None:
            return self.cpu_timing
        return self.timing


SUITES: dict[tuple[str, str], Suite] = {}


def register_suite(suite: Suite) -> Suite:
    SUITES[(suite.name, suite.device)] = suite
    return suite


def get_suite(name: str, device: str) -> Suite:
    try:
        return SUITES[(name, device)]
    except KeyError:
        names = sorted({n for n, _ in SUITES})
        raise KeyError(f"no suite {name!r} for device {device!r} (suites: {', '.join(names)})"
                       ) from None


FRACTIONS = [{"fraction": 0.001}, {"fraction": 0.01}, {"fraction": 0.1}]
#: Warm-up calls of the CPU suites before the timed ones: the CPU backend settled a matrix's
#: compiled route over its first two products until session 22 (the second product of
#: urand-12 min-plus took 2.85 s on a stale cache, kron-16's 72-209 ms on the 2-core host);
#: since session 23 it settles it on the first, loading the serial and threaded variants
#: together where Numba's cache holds both (``tests/test_cpu_route23.py``), but a variant
#: missing from a stale cache still compiles on the call whose thread count first picks it,
#: so three calls stay. The first call's time is kept (``warmup_ms`` in the JSON).
CPU_WARMUP = 3
#: Multi-source BFS widths (issue "BFS", item 4): a warp's worth of sources, one 64-bit word
#: (one launch of the GPU's bit-parallel search: the issue's target width) and two words.
MSBFS_SOURCES = [{"sources": 32}, {"sources": 64}, {"sources": 128}]

register_suite(Suite(
    "tiny", "cpu",
    [SuiteEntry("spmv", ["kron-8", "kron-10", "urand-10", "grid-32x32"]),
     SuiteEntry("spmspv", ["kron-10"], FRACTIONS),
     SuiteEntry("bfs", ["kron-10", "grid-32x32"]),
     SuiteEntry("msbfs", ["kron-10", "grid-32x32"], [{"sources": 32}]),
     SuiteEntry("sssp", ["kron-10", "grid-32x32"]),
     SuiteEntry("spgemm", ["kron-8"])],
    TimingPolicy(warmup=CPU_WARMUP, min_runs=2, max_runs=3, budget_s=0.05),
    description="seconds: the end-to-end test of the harness"))
register_suite(Suite(
    "tiny", "gpu",
    [SuiteEntry("spmv", ["kron-10", "kron-12", "urand-12", "grid-64x64"]),
     SuiteEntry("spmspv", ["kron-12"], FRACTIONS),
     SuiteEntry("bfs", ["kron-12", "grid-64x64"]),
     SuiteEntry("msbfs", ["kron-12", "grid-64x64"], [{"sources": 32}]),
     SuiteEntry("sssp", ["kron-12", "grid-64x64"]),
     SuiteEntry("spgemm", ["kron-10"])],
    TimingPolicy(warmup=1, min_runs=3, max_runs=5, budget_s=0.1),
    description="seconds: the end-to-end test of the harness on a GPU"))
register_suite(Suite(
    "quick", "cpu",
    [SuiteEntry("spmv", ["kron-12", "kron-14", "kron-16", "urand-12", "urand-14", "urand-16",
                         "grid-64x64", "grid-128x128", "grid-256x256"]),
     SuiteEntry("spmspv", ["kron-12", "kron-14", "kron-16"], FRACTIONS),
     SuiteEntry("bfs", ["kron-12", "kron-14", "kron-16", "urand-16", "grid-128x128", "rgg-14"]),
     SuiteEntry("msbfs", ["kron-12", "kron-14", "grid-128x128"], MSBFS_SOURCES),
     SuiteEntry("sssp", ["kron-12", "kron-14", "kron-16", "urand-16", "grid-128x128", "rgg-14"]),
     SuiteEntry("spgemm", ["kron-10", "kron-12"])],
    TimingPolicy(warmup=CPU_WARMUP, min_runs=3, max_runs=10, budget_s=0.5),
    description="about a minute on 2 cores"))
register_suite(Suite(
    "quick", "gpu",
    # each target graph of the algorithm issues once; the CPU peers' runs dominate the time
    [SuiteEntry("spmv", ["kron-20", "kron-22", "urand-22", "grid-2048x2048"]),
     SuiteEntry("spmspv", ["kron-22"], FRACTIONS),
     SuiteEntry("bfs", ["kron-20", "kron-22", "urand-22", "grid-2048x2048", "rgg-22"]),
     SuiteEntry("msbfs", ["kron-20"], MSBFS_SOURCES),
     # grid-2048x2048 and rgg-22 (4.2 M vertices each): issue 20's road-like graphs
     SuiteEntry("sssp", ["kron-21", "kron-22", "grid-2048x2048", "rgg-22"]),
     # kron-14: the plain cuSPARSE peer runs there (it runs out of resources from kron-16 on);
     # the kron-18 (9.5·10⁹ products) against the chunked peer is in the full suite
     SuiteEntry("spgemm", ["kron-14"])],
    TimingPolicy(warmup=1, min_runs=5, max_runs=20, budget_s=0.5, long_call_s=2.0),
    cpu_impl_max_nnz=1 << 28,
    description="a few minutes on an H100",
    cpu_timing=TimingPolicy(warmup=1, min_runs=1, max_runs=3, budget_s=1.0, long_call_s=0.5)))
register_suite(Suite(
    "full", "cpu",
    [SuiteEntry("spmv", ["kron-12", "kron-14", "kron-16", "kron-18", "kron-20",
                         "urand-16", "urand-18", "urand-20", "grid-512x512", "grid-1024x1024"]),
     SuiteEntry("spmspv", ["kron-16", "kron-18", "kron-20"], FRACTIONS),
     SuiteEntry("bfs", ["kron-16", "kron-18", "kron-20", "urand-18", "grid-512x512"]),
     SuiteEntry("msbfs", ["kron-16", "kron-18", "grid-512x512"], MSBFS_SOURCES),
     SuiteEntry("sssp", ["kron-16", "kron-18", "urand-18", "grid-512x512"]),
     SuiteEntry("spgemm", ["kron-12", "kron-14"])],
    TimingPolicy(warmup=CPU_WARMUP, min_runs=3, max_runs=10, budget_s=1.0),
    description="minutes on a CPU"))
register_suite(Suite(
    "full", "gpu",
    [SuiteEntry("spmv", ["kron-18", "kron-20", "kron-22", "kron-23", "kron-24",
                         "urand-20", "urand-22", "urand-24", "grid-2048x2048", "grid-4096x4096"]),
     SuiteEntry("spmspv", ["kron-20", "kron-22", "kron-24"], FRACTIONS),
     SuiteEntry("bfs", ["kron-20", "kron-22", "kron-24", "urand-22", "grid-2048x2048", "rgg-22"]),
     SuiteEntry("msbfs", ["kron-20", "kron-22", "urand-22", "grid-2048x2048"], MSBFS_SOURCES),
     SuiteEntry("sssp", ["kron-20", "kron-21", "kron-22", "kron-24", "urand-22",
                         "grid-2048x2048", "rgg-22"]),
     SuiteEntry("spgemm", ["kron-16", "kron-18"])],
    TimingPolicy(warmup=1, min_runs=5, max_runs=20, budget_s=1.0, long_call_s=2.0),
    cpu_impl_max_nnz=1 << 27,
    description="tens of minutes on an H100, scales up to 24",
    cpu_timing=TimingPolicy(warmup=1, min_runs=1, max_runs=5, budget_s=2.0, long_call_s=1.0)))


#: Small graphs (issue 21 item 2: a warm call on a graph of n <= 10^4 never slower than SciPy):
#: the fixed cost of a call, launches, host syncs and validation, against SciPy's compiled
#: routine on the same machine. urand-10-ef4: 1024 vertices, mean degree 8 (the n = 1000 case
#: of bench/probes/small_calls.py); urand-13-ef4: 8192 vertices. Many short runs. The analytics
#: (cc, pagerank, tc) join from bench/analytics_case.py.
_SMALL = [SuiteEntry("spmv", ["urand-10-ef4", "urand-13-ef4"]),
          SuiteEntry("bfs", ["urand-10-ef4", "urand-13-ef4"]),
          SuiteEntry("msbfs", ["urand-10-ef4", "urand-13-ef4"], [{"sources": 32}]),
          SuiteEntry("sssp", ["urand-10-ef4", "urand-13-ef4"])]
register_suite(Suite(
    "small", "cpu", _SMALL, TimingPolicy(warmup=2, min_runs=20, max_runs=200, budget_s=0.2),
    description="the fixed cost of small calls (n = 1024 and 8192), seconds"))
register_suite(Suite(
    "small", "gpu", _SMALL, TimingPolicy(warmup=2, min_runs=20, max_runs=200, budget_s=0.2),
    description="the fixed cost of small calls (n = 1024 and 8192) against SciPy, seconds"))


@dataclass(frozen=True)
class Case:
    algorithm: str
    graph: gen.GraphSpec
    params: tuple = ()  # sorted (key, value) pairs

    @property
    def params_dict(self) -> dict:
        return dict(self.params)

    @property
    def case_id(self) -> str:
        alg = ALGORITHMS[self.algorithm]
        return f"{self.algorithm}/{self.graph.label}/{alg.param_label(self.params_dict)}"


def expand_suite(suite: Suite, *, algorithms: list[str] | None = None,
                 graphs: list[str] | None = None, seed: int = 0) -> list[Case]:
    """The cases of a suite, filtered.

    ``algorithms``: names to keep (each must be registered; one missing from the suite is an
    error). ``graphs``: tokens; a bare kind (``kron``, ``urand``, ``grid``) keeps the suite's
    graphs of that kind; a full spec (``kron-18``, ``grid-100x100``, ``mtx:path``) replaces the
    suite's graphs by these for every selected algorithm (with the suite's parameter sets).
    """
    entries = suite.entries
    if algorithms:
        unknown = [a for a in algorithms if a not in ALGORITHMS]
        if unknown:
            raise KeyError(f"unknown algorithm(s) {unknown}; registered: {sorted(ALGORITHMS)}")
        missing = [a for a in algorithms if a not in {e.algorithm for e in entries}]
        if missing:
            raise KeyError(f"algorithm(s) {missing} have no cases in suite {suite.name!r} "
                           f"({suite.device})")
        entries = [e for e in entries if e.algorithm in algorithms]
    kinds: set[str] = set()
    explicit: list[str] = []
    for tok in graphs or []:
        t = tok.strip()
        if not t:
            continue
        if t in ("kron", "kronecker", "urand", "grid", "rgg", "mtx"):
            kinds.add("kron" if t == "kronecker" else t)
        else:
            gen.parse_graph_spec(t)  # validate early
            explicit.append(t)
    cases: list[Case] = []
    for e in entries:
        specs = explicit if explicit else e.graphs
        for g in specs:
            spec = gen.parse_graph_spec(g, seed=seed)
            if kinds and spec.kind not in kinds:
                continue
            for p in e.params:
                cases.append(Case(e.algorithm, spec, tuple(sorted(p.items()))))
    return cases


# The algorithms, one module each, register themselves (and their suite entries) when
# imported, after everything above exists; the names below stay reachable as bench.cases.X.
from . import spmv, spmspv, bfs, msbfs, sssp, spgemm  # noqa: E402, F401  (the order of the tables)
from .spmv import SPMV  # noqa: E402, F401
from .spmspv import SPMSPV  # noqa: E402, F401
from .bfs import BFS, _bfs_graphblas  # noqa: E402, F401
from .msbfs import MSBFS, MSBFS_SCIPY_SOURCES, _msbfs_graphblas, gb_msbfs_levels  # noqa: E402, F401
from .sssp import SSSP, _sssp_graphblas, gb_bellman_ford  # noqa: E402, F401
from .spgemm import SPGEMM, _spgemm_cusparse, _spgemm_cusparse_chunked, _spgemm_fetch, _spgemm_fetch_blocks, _spgemm_fetch_graphblas, _spgemm_graphblas, _spgemm_summary, row_products, spgemm_row_blocks  # noqa: E402, F401
from .. import apsp_case  # noqa: E402, F401
from .. import csgraph_case  # noqa: E402, F401
from .. import analytics_case  # noqa: E402, F401  (cc, pagerank, bc, msbc, tc; GAP peer)
from .. import networkx_case  # noqa: E402, F401  (NetworkX against nx_semiring)
from .. import dask_case  # noqa: E402, F401  (--suite dask: semiring.dist on Dask workers)
from .. import peers_gunrock  # noqa: E402, F401  (the GPU peer 'gunrock' in bfs, sssp, pagerank, tc)
