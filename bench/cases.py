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

from . import generators as gen
from . import metrics as met
from .timing import TimingPolicy


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
            import cupy  # noqa: PLC0415

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
            import cupy  # noqa: PLC0415

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
    import semiring  # noqa: PLC0415

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
    import cupy  # noqa: PLC0415

    at = getattr(cupy.minimum, "at", None)
    if at is not None:
        return at
    import cupyx  # noqa: PLC0415

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
        import graphblas  # noqa: PLC0415
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



# --------------------------------------------------------------------------------------------
# spmv: y = A min.+ x, dense x


def _spmv_prepare(ctx: CaseContext) -> None:
    n = ctx.graph.n
    dtype = ctx.graph.host.dtype
    ctx.inputs["x"] = gen.random_dense_vector(n, seed=ctx.seed, dtype=dtype)
    ctx.case_metrics["bytes"] = met.spmv_bytes(ctx.graph.host)
    ctx.case_metrics["entries"] = ctx.graph.nnz


def _spmv_ref_min_plus(ctx: CaseContext) -> np.ndarray:
    H = ctx.graph.host
    return min_plus_rows(H.indptr, H.indices, H.data, ctx.inputs["x"], H.shape[0])


def _spmv_ref_plus_times(ctx: CaseContext) -> np.ndarray:
    H = ctx.graph.host
    return H.astype(np.float64) @ ctx.inputs["x"].astype(np.float64)


def _spmv_semiring(device: str):
    def setup(ctx: CaseContext):
        sr = semiring_module()
        A = sr_matrix(ctx, device)
        x = sr.Vector.from_dense(ctx.gpu_input("x") if device == "gpu" else ctx.inputs["x"],
                                 device=device)
        return lambda: sr.mxv(A, x, sr.min_plus)

    return setup


def _spmv_cusparse(ctx: CaseContext):
    A = ctx.graph.gpu()
    x = ctx.gpu_input("x")
    return lambda: A @ x


def _spmv_scipy(ctx: CaseContext):
    A = ctx.graph.host
    x = ctx.inputs["x"]
    return lambda: A @ x


def _spmv_numpy_min_plus(ctx: CaseContext):
    H = ctx.graph.host
    x = ctx.inputs["x"]
    return lambda: min_plus_rows(H.indptr, H.indices, H.data, x, H.shape[0])


def _spmv_graphblas(ctx: CaseContext):
    gb = _graphblas()
    A = _gb_matrix(ctx)
    x = gb.Vector.from_dense(ctx.inputs["x"])
    return lambda: A.mxv(x, gb.semiring.min_plus).new()


def _spmv_cupy_scatter_min(ctx: CaseContext):
    import cupy  # noqa: PLC0415

    scatter_min = _scatter_min_fn()
    A = ctx.graph.gpu()
    rows = _row_ids(ctx, cupy)
    x = ctx.gpu_input("x")
    n = A.shape[0]

    def run():
        y = cupy.full(n, cupy.inf, dtype=A.dtype)
        scatter_min(y, rows, A.data + x[A.indices])
        return y

    return run


def _spmv_metrics(ctx: CaseContext, impl: Impl, seconds: float) -> dict:
    m = {
        "rate_g": met.giga_rate(ctx.graph.nnz, seconds),
        "gbps": met.gbps(ctx.case_metrics["bytes"], seconds),
    }
    peak = ctx.env.get("gpu_peak_gbps")
    if impl.device == "gpu" and peak:
        m["pct_peak_bw"] = 100.0 * m["gbps"] / peak
    return m


def _pair_ratio(results: dict, fast: str, slow: str) -> float | None:
    a, b = results.get(fast), results.get(slow)
    if a is None or b is None or a.status != "ok" or b.status != "ok":
        return None
    return b.timing.median_ms / a.timing.median_ms


def _spmv_summary(ctx: CaseContext, results: dict) -> dict:
    s = {}
    r = _pair_ratio(results, "semiring-gpu", "cusparse-plus-times")
    if r is not None:
        s["semiring_min_plus_vs_cusparse_plus_times_throughput"] = r
    r = _pair_ratio(results, "semiring-cpu", "scipy-plus-times")
    if r is not None:
        s["semiring_cpu_min_plus_vs_scipy_plus_times_throughput"] = r
    return s


SPMV = register_algorithm(Algorithm(
    name="spmv",
    description="y = A min.+ x with dense x (pull SpMV); peers: plus-times SpMV "
                "(cuSPARSE via cupyx, SciPy), same bytes moved",
    prepare=_spmv_prepare,
    references={
        "min_plus": Reference("min_plus", "NumPy gather + minimum.reduceat over rows (exact)",
                              _spmv_ref_min_plus, compare_exact),
        "plus_times": Reference("plus_times", "SciPy A @ x in float64 (rtol 1e-3)",
                                _spmv_ref_plus_times, compare_close(1e-3, 1e-6)),
    },
    impls=[
        Impl("semiring-gpu", "gpu", "min_plus", _spmv_semiring("gpu"),
             description="semiring.mxv(A, x, min_plus) on the GPU", engine=True),
        Impl("cusparse-plus-times", "gpu", "plus_times", _spmv_cusparse,
             description="cupyx.scipy.sparse A @ x (cuSPARSE SpMV): throughput peer"),
        Impl("cupy-scatter-min", "gpu", "min_plus", _spmv_cupy_scatter_min,
             description="CuPy gather + minimum.at scatter (atomics): naive GPU min-plus"),
        Impl("semiring-cpu", "cpu", "min_plus", _spmv_semiring("cpu"),
             description="semiring.mxv(A, x, min_plus) on the CPU backend", engine=True),
        Impl("scipy-plus-times", "cpu", "plus_times", _spmv_scipy,
             description="scipy.sparse A @ x: CPU throughput peer"),
        Impl("numpy-min-plus", "cpu", "min_plus", _spmv_numpy_min_plus,
             description="NumPy gather + minimum.reduceat: CPU min-plus peer"),
        Impl("graphblas-cpu", "cpu", "min_plus", _spmv_graphblas, fetch=_gb_fetch,
             description="python-graphblas (SuiteSparse:GraphBLAS) A.mxv(x, min_plus), "
                         "multithreaded CPU; optional"),
    ],
    impl_metrics=_spmv_metrics,
    rate_key="rate_g",
    rate_label="GE/s (stored entries / time)",
    param_label=lambda p: "dense x",
    summary=_spmv_summary,
    work_key="entries",
    work_label="stored entries (nnz)",
))


# --------------------------------------------------------------------------------------------
# spmspv: y = x min.+ A, sparse x (push)


def _spmspv_prepare(ctx: CaseContext) -> None:
    n = ctx.graph.n
    frac = float(ctx.params["fraction"])
    idx, vals = gen.random_frontier(n, frac, seed=ctx.seed, dtype=ctx.graph.host.dtype)
    ctx.inputs["x_idx"] = idx
    ctx.inputs["x_vals"] = vals
    ctx.case_metrics["frontier_size"] = int(idx.size)
    ctx.case_metrics["frontier_edges"] = met.frontier_edges(ctx.graph.host, idx)


def _spmspv_ref(ctx: CaseContext) -> np.ndarray:
    H = ctx.graph.host
    return push_min_plus(H.indptr, H.indices, H.data, ctx.inputs["x_idx"], ctx.inputs["x_vals"],
                         H.shape[1])


def _spmspv_semiring(device: str):
    def setup(ctx: CaseContext):
        sr = semiring_module()
        A = sr_matrix(ctx, device)
        n = ctx.graph.n
        if device == "gpu":
            x = sr.Vector.from_coo(ctx.gpu_input("x_idx"), ctx.gpu_input("x_vals"), size=n,
                                   device="gpu")
        else:
            x = sr.Vector.from_coo(ctx.inputs["x_idx"], ctx.inputs["x_vals"], size=n,
                                   device="cpu")
        return lambda: sr.vxm(x, A, sr.min_plus)

    return setup


def _spmspv_numpy(ctx: CaseContext):
    H = ctx.graph.host
    idx, vals = ctx.inputs["x_idx"], ctx.inputs["x_vals"]
    return lambda: push_min_plus(H.indptr, H.indices, H.data, idx, vals, H.shape[1])


def _spmspv_graphblas(ctx: CaseContext):
    gb = _graphblas()
    A = _gb_matrix(ctx)
    x = gb.Vector.from_coo(ctx.inputs["x_idx"], ctx.inputs["x_vals"], size=ctx.graph.n)
    return lambda: x.vxm(A, gb.semiring.min_plus).new()


def _spmspv_cupy_scatter_min(ctx: CaseContext):
    import cupy  # noqa: PLC0415

    scatter_min = _scatter_min_fn()
    A = ctx.graph.gpu()
    f_idx = ctx.gpu_input("x_idx")
    f_vals = ctx.gpu_input("x_vals")
    n = A.shape[1]

    def run():
        starts = A.indptr[f_idx].astype(cupy.int64)
        lens = A.indptr[f_idx + 1].astype(cupy.int64) - starts
        ends = cupy.cumsum(lens)
        total = int(ends[-1])  # one host sync, as a frontier-size read would need anyway
        y = cupy.full(n, cupy.inf, dtype=A.dtype)
        if total == 0:
            return y
        k = cupy.arange(total, dtype=cupy.int64)
        seg = cupy.searchsorted(ends, k, side="right")
        pos = k - (ends - lens)[seg] + starts[seg]
        scatter_min(y, A.indices[pos], A.data[pos] + f_vals[seg])
        return y

    return run


def _spmspv_metrics(ctx: CaseContext, impl: Impl, seconds: float) -> dict:
    return {"rate_g": met.giga_rate(ctx.case_metrics["frontier_edges"], seconds)}


def _spmspv_label(p: dict) -> str:
    return f"x {100 * float(p['fraction']):g}%"


SPMSPV = register_algorithm(Algorithm(
    name="spmspv",
    description="y = x min.+ A with sparse x holding a random fraction of the vertices "
                "(push SpMSpV); time should follow the frontier's edges",
    prepare=_spmspv_prepare,
    references={
        "min_plus_push": Reference("min_plus_push",
                                   "NumPy gather of the frontier rows + minimum.reduceat (exact)",
                                   _spmspv_ref, compare_exact),
    },
    impls=[
        Impl("semiring-gpu", "gpu", "min_plus_push", _spmspv_semiring("gpu"),
             description="semiring.vxm(x, A, min_plus) on the GPU, sparse x", engine=True),
        Impl("cupy-scatter-min", "gpu", "min_plus_push", _spmspv_cupy_scatter_min,
             description="CuPy frontier gather + minimum.at scatter: naive GPU push"),
        Impl("semiring-cpu", "cpu", "min_plus_push", _spmspv_semiring("cpu"),
             description="semiring.vxm(x, A, min_plus) on the CPU backend, sparse x",
             engine=True),
        Impl("numpy-push", "cpu", "min_plus_push", _spmspv_numpy,
             description="NumPy gather + argsort + minimum.reduceat: CPU push peer"),
        Impl("graphblas-cpu", "cpu", "min_plus_push", _spmspv_graphblas, fetch=_gb_fetch,
             description="python-graphblas (SuiteSparse:GraphBLAS) x.vxm(A, min_plus), "
                         "multithreaded CPU; optional"),
    ],
    impl_metrics=_spmspv_metrics,
    rate_key="rate_g",
    rate_label="GE/s (frontier edges / time)",
    param_label=_spmspv_label,
    work_key="frontier_edges",
    work_label="frontier edges (entries in the frontier's rows)",
))


# --------------------------------------------------------------------------------------------
# bfs: levels from one source (issue "BFS as frontier SpMV"); GTEPS in the Graph500 convention


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
    from scipy.sparse.csgraph import shortest_path  # noqa: PLC0415

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
        import algorithms  # noqa: PLC0415

        A = sr_matrix(ctx, device)
        source = ctx.inputs["source"]
        symmetric = ctx.graph.spec.undirected
        return lambda: algorithms.bfs(A, source, symmetric=symmetric)

    return setup


def _bfs_scipy(ctx: CaseContext):
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415

    H = ctx.graph.host
    source = ctx.inputs["source"]
    return lambda: breadth_first_order(H, source, directed=True, return_predecessors=False)


def _bfs_cupy_naive(ctx: CaseContext):
    """The level-synchronous BFS a CuPy user writes with cupyx SpMV (plus-times)."""
    import cupy  # noqa: PLC0415

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


# --------------------------------------------------------------------------------------------
# msbfs: levels from s sources at once (issue "BFS", item 4: multi-source BFS as SpMM); GTEPS
# summed over the sources, Graph500 edges of each source's component

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
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415

    out = np.zeros((sources.size, H.shape[0]), dtype=bool)
    for j, src in enumerate(sources):  # directed inputs only (mtx): untimed reference work
        out[j, breadth_first_order(H, int(src), directed=True, return_predecessors=False)] = True
    return out


def _msbfs_components(ctx: CaseContext) -> np.ndarray:
    def make():
        from scipy.sparse.csgraph import connected_components  # noqa: PLC0415

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
    from scipy.sparse.csgraph import shortest_path  # noqa: PLC0415

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
        import algorithms  # noqa: PLC0415

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
    import cupy  # noqa: PLC0415

    import algorithms  # noqa: PLC0415

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
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415

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


# --------------------------------------------------------------------------------------------
# sssp: shortest distances from one source (issue "SSSP"); integer weights in [1, 255] (GAP)


def _sssp_ref(ctx: CaseContext) -> np.ndarray:
    if "dist" in ctx.memo:
        return ctx.memo["dist"]
    from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415

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
        import algorithms  # noqa: PLC0415

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
    from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415

    H = ctx.graph.host
    source = ctx.inputs["source"]
    return lambda: dijkstra(H, directed=True, indices=source)


def _sssp_cupy_naive(ctx: CaseContext):
    """The Bellman–Ford a CuPy user writes: every edge every round, d[dst] = min(d[dst],
    d[src] + w) by a scatter-min, until a round changes nothing (one sync a round)."""
    import cupy  # noqa: PLC0415

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


# --------------------------------------------------------------------------------------------
# spgemm: C = A ⊕.⊗ A (sparse x sparse), plus_times (vs cuSPARSE / SciPy) and min_plus

#: Graphs with at most this many rows are checked on every row; larger ones on a random sample
#: of SPGEMM_SAMPLE rows (the full product of kron-18 has billions of entries).
SPGEMM_CHECK_ALL_ROWS = 1 << 14
SPGEMM_SAMPLE = 1024
#: CPU impls are unavailable above this many products (NumPy min-plus of kron-16: minutes and
#: tens of GB).
SPGEMM_CPU_MAX_PRODUCTS = 3 * 10**8
#: ... and for this engine's CPU backend, whose min-plus product (sort and segmented reduce)
#: took 13 s a run on kron-14 (1.6·10⁸ products; SciPy's plus-times 1.6 s): the quick GPU
#: suite spent 33 s of its SpGEMM minute there.
SPGEMM_ENGINE_CPU_MAX_PRODUCTS = 10**8
#: The chunked cuSPARSE peer: products per row block (cuSPARSE's SpGEMM workspace grows with
#: them: the whole kron-16 product, 1.2·10⁹, failed with CUSPARSE_STATUS_INSUFFICIENT_RESOURCES
#: on an H200, kron-14's 1.6·10⁸ ran), halved in setup (down to the floor) while the largest
#: block still fails that way.
SPGEMM_BLOCK_PRODUCTS = 1 << 28
SPGEMM_BLOCK_PRODUCTS_FLOOR = 1 << 22
#: ... and entries of a block's output (cupyx's int32 indices: at kron-18 the whole product
#: has more than 2^31 entries and cupyx returned a wrong matrix).
SPGEMM_BLOCK_MAX_OUTPUT = 2**31 - 1
#: The plain peer is not run above this many products: its output may not fit int32 indices.
SPGEMM_PLAIN_MAX_PRODUCTS = 2**31 - 1


def _spgemm_prepare(ctx: CaseContext) -> None:
    H = ctx.graph.host
    n = H.shape[0]
    if n <= SPGEMM_CHECK_ALL_ROWS:
        rows = np.arange(n, dtype=np.int64)
    else:
        rng = np.random.default_rng(ctx.seed)
        rows = np.sort(rng.choice(n, SPGEMM_SAMPLE, replace=False)).astype(np.int64)
    ctx.inputs["rows"] = rows
    ctx.inputs["row_products"] = row_products(H.indptr, H.indices, H.indptr)
    ctx.case_metrics["products"] = int(ctx.inputs["row_products"].sum())
    ctx.case_metrics["checked_rows"] = int(rows.size)


def row_products(a_indptr, a_indices, b_indptr) -> np.ndarray:
    """Products A(i,k)·B(k,j) of each row i of A·B (int64, length A.nrows): the sum of B's
    row lengths over the columns of A's row."""
    a_ptr = np.asarray(a_indptr, dtype=np.int64)
    degB = np.diff(np.asarray(b_indptr, dtype=np.int64))
    cs = np.concatenate([[0], np.cumsum(degB[np.asarray(a_indices)])])
    return cs[a_ptr[1:]] - cs[a_ptr[:-1]]


def spgemm_row_blocks(products, ncols: int, max_products: int,
                      max_output: int = SPGEMM_BLOCK_MAX_OUTPUT) -> np.ndarray:
    """Row blocks ``[b[t], b[t+1])`` of a row-wise product, greedy from the first row: each
    block as long as its products stay <= ``max_products`` and its output bound (a row has at
    most min(products, ncols) entries) <= ``max_output``. A single row over a limit is a block
    by itself (rows are not split). Returns the boundaries (int64, first 0, last nrows; one
    block [0, nrows) when the rows are empty or there are none).

    >>> spgemm_row_blocks(np.array([3, 0, 4, 9, 1, 1]), ncols=10, max_products=5).tolist()
    [0, 2, 3, 4, 6]
    """
    if max_products < 1 or max_output < 1:
        raise ValueError(f"spgemm_row_blocks: max_products (={max_products}) and max_output "
                         f"(={max_output}) must be >= 1")
    p = np.asarray(products, dtype=np.int64)
    nrows = p.size
    cum_p = np.concatenate([[0], np.cumsum(p)])
    cum_o = np.concatenate([[0], np.cumsum(np.minimum(p, max(int(ncols), 0)))])
    bounds = [0]
    r0 = 0
    while r0 < nrows:  # one step per block (tens), not per row
        r1 = min(int(np.searchsorted(cum_p, cum_p[r0] + max_products, side="right")),
                 int(np.searchsorted(cum_o, cum_o[r0] + max_output, side="right"))) - 1
        r1 = max(r1, r0 + 1)
        bounds.append(r1)
        r0 = r1
    if nrows == 0:
        bounds.append(0)
    return np.asarray(bounds, dtype=np.int64)


def _encode_rows(indptr, indices, data, rows, *, sort: bool) -> np.ndarray:
    """The listed rows of a CSR product as one float64 array: [nrows, lengths, columns,
    values] (columns sorted within a row first when ``sort``: peers' outputs need not be)."""
    indptr = gen.to_numpy(indptr).astype(np.int64)
    starts, ends = indptr[rows], indptr[rows + 1]
    lens = ends - starts
    total = int(lens.sum())
    seg = np.repeat(np.arange(rows.size), lens)
    pos = starts[seg] + np.arange(total, dtype=np.int64) - (np.cumsum(lens) - lens)[seg]
    if isinstance(indices, np.ndarray):
        cols, vals = indices[pos], data[pos]
    else:  # on the GPU: gather the checked rows there, copy only them
        import cupy  # noqa: PLC0415

        p = cupy.asarray(pos)
        cols, vals = cupy.asnumpy(indices[p]), cupy.asnumpy(data[p])
    cols = cols.astype(np.int64)
    if sort:
        order = np.lexsort((cols, seg))
        cols, vals = cols[order], vals[order]
    return np.concatenate([[rows.size], lens, cols, vals.astype(np.float64)]).astype(np.float64)


def _decode_rows(a: np.ndarray):
    m = int(a[0])
    lens = a[1:1 + m].astype(np.int64)
    total = int(lens.sum())
    cols = a[1 + m:1 + m + total]
    vals = a[1 + m + total:]
    return lens, cols, vals


def compare_rows(rtol: float):
    """Rows of a product: same lengths and columns, values close (rtol; 0: exact)."""
    def cmp(got: np.ndarray, ref: np.ndarray) -> tuple[bool, str]:
        gl, gc, gv = _decode_rows(np.asarray(got))
        rl, rc, rv = _decode_rows(np.asarray(ref))
        if gl.size != rl.size:
            return False, f"{gl.size} rows checked, reference has {rl.size}"
        if not np.array_equal(gl, rl):
            bad = np.flatnonzero(gl != rl)
            return False, (f"{bad.size} of {rl.size} checked rows differ in length; first: "
                           f"row #{bad[0]} has {gl[bad[0]]} entries, expected {rl[bad[0]]}")
        if gv.size != rv.size or not np.array_equal(gc, rc):
            return False, "columns differ from the reference (or are not sorted)"
        if rtol:
            return compare_close(rtol)(gv, rv)
        return compare_exact(gv, rv)

    return cmp


def _spgemm_fetch(sort: bool):
    def fetch(result) -> np.ndarray:
        C, rows = result
        if hasattr(C, "indptr") and hasattr(C, "nvals"):  # an engine Matrix
            data = C.values
        else:  # scipy / cupyx
            data = C.data
        return _encode_rows(C.indptr, C.indices, data, rows, sort=sort)

    return fetch


def _spgemm_ref(semiring_name: str):
    def compute(ctx: CaseContext) -> np.ndarray:
        H = ctx.graph.host
        rows = ctx.inputs["rows"]
        R = H[rows]
        if semiring_name == "plus_times":
            C = R.astype(np.float64) @ H.astype(np.float64)
            C.sort_indices()
            return _encode_rows(C.indptr, C.indices, C.data, np.arange(rows.size), sort=False)
        from semiring._spgemm import spgemm  # noqa: PLC0415

        sr = semiring_module()
        C = spgemm(sr.Matrix.from_scipy(R, device="cpu"), sr.Matrix.from_scipy(H, device="cpu"),
                   semiring_name)
        return _encode_rows(C.indptr, C.indices, C.values, np.arange(rows.size), sort=False)

    return compute


def _spgemm_semiring(device: str, semiring_name: str):
    def setup(ctx: CaseContext):
        from semiring._spgemm import spgemm  # noqa: PLC0415

        if device == "cpu" and ctx.case_metrics["products"] > SPGEMM_ENGINE_CPU_MAX_PRODUCTS:
            raise Unavailable(f"{ctx.case_metrics['products']} products: too many for the CPU "
                              f"backend here (limit {SPGEMM_ENGINE_CPU_MAX_PRODUCTS})")
        A = sr_matrix(ctx, device)
        rows = ctx.inputs["rows"]
        return lambda: (spgemm(A, A, semiring_name), rows)

    return setup


def _cusparse_out_of_resources(e: Exception) -> bool:
    # by name: importing cupy_backends' cusparse module loads the library
    return type(e).__name__ == "CuSparseError" and "INSUFFICIENT_RESOURCES" in str(e)


def _spgemm_cusparse(ctx: CaseContext):
    products = ctx.case_metrics["products"]
    if products > SPGEMM_PLAIN_MAX_PRODUCTS:
        raise Unavailable(f"{products} products: the output may pass 2^31 entries, beyond "
                          f"cupyx's int32 indices (see cusparse-plus-times-chunked)")
    A = ctx.graph.gpu()
    rows = ctx.inputs["rows"]

    def run():
        try:
            return A @ A, rows
        except Exception as e:
            if _cusparse_out_of_resources(e):
                raise Unavailable(f"cuSPARSE: {e} ({products} products; see "
                                  f"cusparse-plus-times-chunked)") from e
            raise

    return run


def _spgemm_cusparse_chunked(ctx: CaseContext):
    """cupyx ``A[r0:r1] @ A`` over row blocks of bounded products (slices made here, untimed;
    every block's product timed). The largest block is tried once here: while cuSPARSE runs
    out of resources on it, the block limit halves."""
    A = ctx.graph.gpu()
    rows = ctx.inputs["rows"]
    products = ctx.inputs["row_products"]
    limit = SPGEMM_BLOCK_PRODUCTS
    while True:
        bounds = spgemm_row_blocks(products, A.shape[1], limit)
        per_block = np.add.reduceat(products, bounds[:-1]) if products.size else np.zeros(1)
        big = int(np.argmax(per_block))
        try:
            A[int(bounds[big]):int(bounds[big + 1])] @ A
            break
        except Exception as e:
            if not _cusparse_out_of_resources(e):
                raise
            if limit // 2 < SPGEMM_BLOCK_PRODUCTS_FLOOR:
                raise Unavailable(f"cuSPARSE: {e} even with blocks of <= {limit} products"
                                  ) from e
            limit //= 2
    ctx.case_metrics["cusparse_blocks"] = int(bounds.size - 1)
    ctx.case_metrics["cusparse_block_products"] = int(limit)
    blocks = [A[r0:r1] for r0, r1 in zip(bounds[:-1].tolist(), bounds[1:].tolist())]
    return lambda: ([Ab @ A for Ab in blocks], bounds, rows)


def _spgemm_fetch_blocks(result) -> np.ndarray:
    """The checked rows of a blocked product, encoded as :func:`_spgemm_fetch` does."""
    parts, bounds, rows = result
    which = np.searchsorted(bounds, rows, side="right") - 1
    lens, cols, vals = [], [], []
    for b in np.unique(which).tolist():
        sel = rows[which == b] - bounds[b]
        C = parts[b]
        bl, bc, bv = _decode_rows(_encode_rows(C.indptr, C.indices, C.data, sel, sort=True))
        lens.append(bl)
        cols.append(bc)
        vals.append(bv)
    cat = (lambda xs: np.concatenate(xs)) if lens else (lambda xs: np.zeros(0))
    return np.concatenate([[rows.size], cat(lens), cat(cols), cat(vals)]).astype(np.float64)


def _spgemm_scipy(ctx: CaseContext):
    if ctx.case_metrics["products"] > SPGEMM_CPU_MAX_PRODUCTS:
        raise Unavailable(f"{ctx.case_metrics['products']} products: too many for SciPy here")
    A = ctx.graph.host
    rows = ctx.inputs["rows"]
    return lambda: (A @ A, rows)


def _spgemm_graphblas(ctx: CaseContext):
    """SuiteSparse:GraphBLAS ``A.mxm(A, plus_times)`` (its own choice of saxpy method), under
    the SciPy peer's limit on products."""
    gb = _graphblas()
    if ctx.case_metrics["products"] > SPGEMM_CPU_MAX_PRODUCTS:
        raise Unavailable(f"{ctx.case_metrics['products']} products: too many for a CPU peer "
                          f"here (limit {SPGEMM_CPU_MAX_PRODUCTS}, as SciPy's)")
    A = _gb_matrix(ctx)
    rows = ctx.inputs["rows"]
    return lambda: (A.mxm(A, gb.semiring.plus_times).new(), rows)


def _spgemm_fetch_graphblas(result) -> np.ndarray:
    """The checked rows of a graphblas product, encoded as :func:`_spgemm_fetch` does (the
    conversion to SciPy CSR is untimed)."""
    C, rows = result
    gb = _graphblas()
    S = gb.io.to_scipy_sparse(C, format="csr")
    return _encode_rows(S.indptr, S.indices, S.data, rows, sort=True)


def _spgemm_metrics(ctx: CaseContext, impl: Impl, seconds: float) -> dict:
    return {"rate_g": met.giga_rate(ctx.case_metrics["products"], seconds)}


def _spgemm_summary(ctx: CaseContext, results: dict) -> dict:
    s = {}
    # targets (H100/H200): plus_times >= 0.5x cuSPARSE; min_plus within 1.5x of plus_times
    # the target against the plain peer where it ran, else against the chunked one
    r = _pair_ratio(results, "semiring-gpu", "cusparse-plus-times")
    if r is not None:
        s["semiring_plus_times_vs_cusparse_throughput"] = r
    else:
        r = _pair_ratio(results, "semiring-gpu", "cusparse-plus-times-chunked")
        if r is not None:
            s["semiring_plus_times_vs_cusparse_chunked_throughput"] = r
    r = _pair_ratio(results, "semiring-gpu-min-plus", "semiring-gpu")
    if r is not None:
        s["semiring_min_plus_vs_plus_times_throughput"] = r
    r = _pair_ratio(results, "semiring-cpu", "scipy-plus-times")
    if r is not None:
        s["semiring_cpu_plus_times_vs_scipy_throughput"] = r
    r = _pair_ratio(results, "semiring-gpu", "graphblas-cpu")
    if r is not None:
        s["semiring_plus_times_vs_graphblas_cpu_throughput"] = r
    return s


SPGEMM = register_algorithm(Algorithm(
    name="spgemm",
    description="C = A ⊕.⊗ A (SpGEMM), plus_times against cuSPARSE (cupyx A @ A) and SciPy, "
                "and min_plus; checked on every row of small graphs, on a random sample of "
                f"{SPGEMM_SAMPLE} rows of larger ones; rate: products A(i,k)·A(k,j) per second",
    prepare=_spgemm_prepare,
    references={
        "plus_times": Reference("plus_times", "SciPy float64 product of the checked rows "
                                "(structure exact, values rtol 1e-3)",
                                _spgemm_ref("plus_times"), compare_rows(1e-3)),
        "min_plus": Reference("min_plus", "the CPU backend's min_plus product of the checked "
                              "rows (itself tested against the dense oracle; exact)",
                              _spgemm_ref("min_plus"), compare_rows(0.0)),
    },
    impls=[
        Impl("semiring-gpu", "gpu", "plus_times", _spgemm_semiring("gpu", "plus_times"),
             fetch=_spgemm_fetch(False), engine=True,
             description="semiring SpGEMM (hash Gustavson) plus_times on the GPU"),
        Impl("semiring-gpu-min-plus", "gpu", "min_plus", _spgemm_semiring("gpu", "min_plus"),
             fetch=_spgemm_fetch(False), engine=True,
             description="semiring SpGEMM min_plus on the GPU"),
        Impl("cusparse-plus-times", "gpu", "plus_times", _spgemm_cusparse,
             fetch=_spgemm_fetch(True),
             description="cupyx.scipy.sparse A @ A (cuSPARSE SpGEMM): throughput peer"),
        Impl("cusparse-plus-times-chunked", "gpu", "plus_times", _spgemm_cusparse_chunked,
             fetch=_spgemm_fetch_blocks,
             description="cupyx A[r0:r1] @ A over row blocks of <= "
                         f"{SPGEMM_BLOCK_PRODUCTS} products (cuSPARSE SpGEMM per block; the "
                         "blocks' outputs kept): the peer where the whole product fails; the "
                         "summary's target ratio uses it when the plain peer did not run"),
        Impl("semiring-cpu", "cpu", "plus_times", _spgemm_semiring("cpu", "plus_times"),
             fetch=_spgemm_fetch(False), engine=True,
             description="semiring SpGEMM plus_times on the CPU backend (SciPy fast path)"),
        Impl("semiring-cpu-min-plus", "cpu", "min_plus", _spgemm_semiring("cpu", "min_plus"),
             fetch=_spgemm_fetch(False), engine=True,
             description="semiring SpGEMM min_plus on the CPU backend (NumPy)"),
        Impl("scipy-plus-times", "cpu", "plus_times", _spgemm_scipy,
             fetch=_spgemm_fetch(True), description="scipy.sparse A @ A: CPU peer"),
        Impl("graphblas-cpu", "cpu", "plus_times", _spgemm_graphblas,
             fetch=_spgemm_fetch_graphblas,
             description="python-graphblas (SuiteSparse:GraphBLAS) A.mxm(A, plus_times), "
                         "multithreaded CPU; optional"),
    ],
    impl_metrics=_spgemm_metrics,
    rate_key="rate_g",
    rate_label="G products/s (A(i,k)·A(k,j) pairs / time)",
    param_label=lambda p: "A·A",
    summary=_spgemm_summary,
    work_key="products",
    work_label="products A(i,k)·A(k,j)",
))


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
#: Multi-source BFS widths (issue "BFS", item 4): a warp's worth of sources and four.
MSBFS_SOURCES = [{"sources": 32}, {"sources": 128}]

register_suite(Suite(
    "tiny", "cpu",
    [SuiteEntry("spmv", ["kron-8", "kron-10", "urand-10", "grid-32x32"]),
     SuiteEntry("spmspv", ["kron-10"], FRACTIONS),
     SuiteEntry("bfs", ["kron-10", "grid-32x32"]),
     SuiteEntry("msbfs", ["kron-10", "grid-32x32"], [{"sources": 32}]),
     SuiteEntry("sssp", ["kron-10", "grid-32x32"]),
     SuiteEntry("spgemm", ["kron-8"])],
    TimingPolicy(warmup=1, min_runs=2, max_runs=3, budget_s=0.05),
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
     SuiteEntry("bfs", ["kron-12", "kron-14", "kron-16", "urand-16", "grid-128x128"]),
     SuiteEntry("msbfs", ["kron-12", "kron-14", "grid-128x128"], MSBFS_SOURCES),
     SuiteEntry("sssp", ["kron-12", "kron-14", "kron-16", "urand-16", "grid-128x128"]),
     SuiteEntry("spgemm", ["kron-10", "kron-12"])],
    TimingPolicy(warmup=1, min_runs=3, max_runs=10, budget_s=0.5),
    description="about a minute on 2 cores"))
register_suite(Suite(
    "quick", "gpu",
    # each target graph of the algorithm issues once; the CPU peers' runs dominate the time
    [SuiteEntry("spmv", ["kron-20", "kron-22", "urand-22", "grid-2048x2048"]),
     SuiteEntry("spmspv", ["kron-22"], FRACTIONS),
     SuiteEntry("bfs", ["kron-20", "kron-22", "urand-22", "grid-2048x2048"]),
     SuiteEntry("msbfs", ["kron-20"], MSBFS_SOURCES),
     SuiteEntry("sssp", ["kron-21", "kron-22", "grid-2048x2048"]),
     # kron-14: the plain cuSPARSE peer runs there (it runs out of resources from kron-16 on);
     # the issue's kron-18 (9.5·10⁹ products) against the chunked peer is in the full suite
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
    TimingPolicy(warmup=1, min_runs=3, max_runs=10, budget_s=1.0),
    description="minutes on a CPU"))
register_suite(Suite(
    "full", "gpu",
    [SuiteEntry("spmv", ["kron-18", "kron-20", "kron-22", "kron-23", "kron-24",
                         "urand-20", "urand-22", "urand-24", "grid-2048x2048", "grid-4096x4096"]),
     SuiteEntry("spmspv", ["kron-20", "kron-22", "kron-24"], FRACTIONS),
     SuiteEntry("bfs", ["kron-20", "kron-22", "kron-24", "urand-22", "grid-2048x2048"]),
     SuiteEntry("msbfs", ["kron-20", "kron-22", "urand-22", "grid-2048x2048"], MSBFS_SOURCES),
     SuiteEntry("sssp", ["kron-20", "kron-21", "kron-22", "kron-24", "urand-22",
                         "grid-2048x2048"]),
     SuiteEntry("spgemm", ["kron-16", "kron-18"])],
    TimingPolicy(warmup=1, min_runs=5, max_runs=20, budget_s=1.0, long_call_s=2.0),
    cpu_impl_max_nnz=1 << 27,
    description="tens of minutes on an H100, scales up to 24",
    cpu_timing=TimingPolicy(warmup=1, min_runs=1, max_runs=5, budget_s=2.0, long_call_s=1.0)))


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
        if t in ("kron", "kronecker", "urand", "grid", "mtx"):
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


# Algorithms defined in their own modules register themselves (and their suite entries) here,
# after everything above exists.
from . import apsp_case  # noqa: E402, F401
from . import analytics_case  # noqa: E402, F401  (cc, pagerank, bc, msbc, tc; GAP peer)
