"""The ``apsp`` case: all-pairs shortest paths and the min-plus product against the device's
measured peak relaxation rate.

The graph spec gives n (``urand-12``: n = 4096) and the edges; the input is the dense weight
matrix D0 (float32, inf where no edge, 0 on the diagonal). On a GPU run, the first APSP case
measures the peak with the register-only probes of ``semiring/kernels/apsp_probe.cu``
(``fminf(acc, a + b)`` for float32, ``__viaddmin_s32`` and a plain ``min(acc, a + b)`` for
int32) and every GPU impl reports its relaxations per second as a fraction of it.

Impls: this engine's Floyd–Warshall (``algorithms.apsp``) and one min-plus product
(``semiring.gemm``, float32 and int32), a naive CuPy broadcast min-plus product
(chunked), the engine's CPU backend (small n), ``scipy.sparse.csgraph.floyd_warshall`` (n ≤
``SCIPY_MAX_N``) and, when python-graphblas is installed, SuiteSparse:GraphBLAS's min-plus
product of the full D0 (n ≤ ``GRAPHBLAS_MAX_N``). Relaxations: n³ per product and per
Floyd–Warshall. Checked exactly (integer weights) on a sample of rows: Floyd–Warshall against
SciPy's Dijkstra from those sources, the products against a NumPy min-plus of those rows.
"""

from __future__ import annotations

import importlib
import math

import numpy as np

from . import cases as C
from . import generators as gen
from . import metrics as met

#: Rows checked: k rows with k · n² ≤ CHECK_ELEMS (the NumPy reference product costs n² per
#: row), at least 4 and at most n. (Checking every row up to n = 16384 took minutes at n = 2048.)
CHECK_ELEMS = 1 << 28
#: SciPy's Floyd–Warshall only up to this n (O(n³) on one core).
SCIPY_MAX_N = 2048
#: The engine's CPU backend only up to this n.
ENGINE_CPU_MAX_N = 512
#: The naive CuPy broadcast product only up to this n (its n³ temporaries are chunked).
NAIVE_MAX_N = 4096
#: Elements of one naive broadcast chunk (rows × n × n).
NAIVE_CHUNK = 1 << 27
#: SuiteSparse:GraphBLAS's min-plus product of the full D0 only up to this n (as SciPy's FW):
#: 0.9 G relaxations/s measured on 2 cores (n = 2048: 9.8 s there; a 16-core host should take
#: about an eighth of that if its threads scale); n = 4096 is 8x the work.
GRAPHBLAS_MAX_N = 2048
#: int32 "infinity" for the int32 product: INF + INF must not wrap in a plain min-plus.
INT_INF = 1 << 29

_PEAKS: dict = {}


def measure_peaks() -> dict:
    """Peak relaxations/s of the current GPU (once per process): the float32, DPX int32 and
    plain int32 probes, best of 5 launches of about 20-50 ms each."""
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    dev = cupy.cuda.runtime.getDevice()
    if dev in _PEAKS:
        return _PEAKS[dev]
    from semiring import kernels  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)

    mod = kernels.module(("apsp_probe",), kernels.source("apsp_probe.cu"), [], compile=False)
    props = cupy.cuda.runtime.getDeviceProperties(dev)
    sms = props["multiProcessorCount"]
    threads, blocks = 256, sms * 8
    per_iter = 64  # PROBE_TM * PROBE_TN
    out = {}
    for key, fname, dt in (("peak_f32", "probe_fmin_f32", np.float32),
                           ("peak_i32_dpx", "probe_viaddmin_s32", np.int32),
                           ("peak_i32_plain", "probe_min_s32", np.int32)):
        f = mod.get_function(fname)
        init = cupy.asarray(np.arange(16, dtype=dt) * 3 + 1)
        res = cupy.empty(blocks * threads, dtype=dt)
        step = dt(1)

        def launch(iters):
            s, e = cupy.cuda.Event(), cupy.cuda.Event()
            s.record()
            f((blocks,), (threads,), (init, step, np.int32(iters), res))
            e.record()
            e.synchronize()
            return cupy.cuda.get_elapsed_time(s, e) / 1e3

        iters = 256
        launch(iters)
        t = launch(iters)
        iters = max(256, int(iters * 0.03 / max(t, 1e-6)))  # about 30 ms a launch
        best = min(launch(iters) for _ in range(5))
        out[key] = blocks * threads * iters * per_iter / best
    _PEAKS[dev] = out
    return out


def _prepare(ctx: C.CaseContext) -> None:
    H = ctx.graph.host
    n = ctx.graph.n
    D0 = np.full((n, n), np.inf, dtype=np.float32)
    rows = np.repeat(np.arange(n), np.diff(H.indptr))
    D0[rows, H.indices] = H.data.astype(np.float32)
    D0[np.arange(n), np.arange(n)] = 0
    ctx.inputs["D0"] = D0
    k = min(n, max(4, CHECK_ELEMS // max(n * n, 1)))
    rng = np.random.default_rng(ctx.seed)
    ctx.inputs["rows"] = (np.arange(n) if k >= n
                          else np.sort(rng.choice(n, k, replace=False))).astype(np.int64)
    ctx.case_metrics["n"] = n
    ctx.case_metrics["relaxations"] = met.apsp_relaxations(n, "floyd_warshall")
    ctx.case_metrics["checked_rows"] = int(ctx.inputs["rows"].size)
    if ctx.env.get("gpu_name"):
        try:
            ctx.case_metrics.update(measure_peaks())
        except Exception as e:  # the probe must not lose the case
            ctx.case_metrics["peak_error"] = f"{type(e).__name__}: {e}"


def _ref_dist(ctx: C.CaseContext) -> np.ndarray:
    from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    return dijkstra(ctx.graph.host, directed=True, indices=ctx.inputs["rows"])


def _ref_product(ctx: C.CaseContext) -> np.ndarray:
    """Rows of D0 min.+ D0 in NumPy (column chunks bound the temporaries)."""
    D0 = ctx.inputs["D0"]
    n = D0.shape[0]
    out = np.empty((ctx.inputs["rows"].size, n), dtype=np.float32)
    width = max(1, (1 << 24) // max(n, 1))
    for t, i in enumerate(ctx.inputs["rows"]):
        for j0 in range(0, n, width):
            out[t, j0:j0 + width] = (D0[i][:, None] + D0[:, j0:j0 + width]).min(axis=0)
    return out


def _fetch(result) -> np.ndarray:
    D, rows = result
    out = gen.to_numpy(D[rows]).astype(np.float64)
    if D.dtype.kind == "i":
        out[out >= INT_INF] = np.inf
    return out


def _apsp_mod():
    return importlib.import_module("algorithms.apsp")


def _engine_fw(device: str, int32: bool = False):
    def setup(ctx: C.CaseContext):
        n = ctx.graph.n
        if device == "cpu" and n > ENGINE_CPU_MAX_N:
            raise C.Unavailable(f"the CPU backend's Floyd–Warshall is not timed above n = "
                                f"{ENGINE_CPU_MAX_N}")
        apsp = _apsp_mod().apsp
        D0 = ctx.gpu_input("D0") if device == "gpu" else ctx.inputs["D0"]
        if int32:  # apsp's integer "no edge" is the type's maximum
            xp = gen.get_xp("gpu") if device == "gpu" else np
            D0 = xp.where(xp.isinf(D0), np.iinfo(np.int32).max, D0).astype(np.int32)
        rows = ctx.inputs["rows"]
        return lambda: (apsp(D0, "floyd_warshall", progress=False), rows)

    return setup


def _engine_gemm(device: str, int32: bool = False):
    def setup(ctx: C.CaseContext):
        import semiring as sr  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)
        from semiring import gemm  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)

        n = ctx.graph.n
        if device == "cpu" and n > ENGINE_CPU_MAX_N:
            raise C.Unavailable(f"the CPU backend's min-plus product is not timed above n = "
                                f"{ENGINE_CPU_MAX_N}")
        D0 = ctx.gpu_input("D0") if device == "gpu" else ctx.inputs["D0"]
        xp = gen.get_xp("gpu") if device == "gpu" else np
        if int32:
            D0 = xp.where(xp.isinf(D0), INT_INF, D0).astype(np.int32)
        dt = np.int32 if int32 else np.float32
        rows = ctx.inputs["rows"]
        return lambda: (gemm(D0, D0, sr.min_plus, dt), rows)

    return setup


def _naive_cupy(ctx: C.CaseContext):
    """The min-plus product a CuPy user writes: broadcast D[i, :, None] + D[None] and take the
    minimum over k, a chunk of rows at a time."""
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    n = ctx.graph.n
    if n > NAIVE_MAX_N:
        raise C.Unavailable(f"the naive broadcast product is not timed above n = {NAIVE_MAX_N}")
    D = ctx.gpu_input("D0")
    rows = ctx.inputs["rows"]
    step = max(1, NAIVE_CHUNK // (n * n))

    def run():
        Z = cupy.empty_like(D)
        for i0 in range(0, n, step):
            Z[i0:i0 + step] = (D[i0:i0 + step, :, None] + D[None, :, :]).min(axis=1)
        return Z, rows

    return run


def _scipy_fw(ctx: C.CaseContext):
    from scipy.sparse.csgraph import floyd_warshall  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    n = ctx.graph.n
    if n > SCIPY_MAX_N:
        raise C.Unavailable(f"SciPy's Floyd–Warshall is not timed above n = {SCIPY_MAX_N}")
    H = ctx.graph.host
    rows = ctx.inputs["rows"]
    return lambda: (floyd_warshall(H, directed=True), rows)


def _graphblas_minplus(ctx: C.CaseContext):
    """SuiteSparse:GraphBLAS's min-plus product of D0 with itself: D0 as a *full* GraphBLAS
    matrix (+inf stored where there is no edge), so that the product does the n³ relaxations
    the rate counts; the sparse adjacency (no entry for +inf) would give the same values with
    far less work and is not this measurement. Floyd–Warshall in GraphBLAS (n rank-1 updates
    from Python) is not run."""
    gb = C._graphblas()
    n = ctx.graph.n
    if n > GRAPHBLAS_MAX_N:
        raise C.Unavailable(f"the GraphBLAS min-plus product is not timed above n = "
                            f"{GRAPHBLAS_MAX_N}")
    D = gb.Matrix.from_dense(ctx.inputs["D0"])  # every entry stored, +inf included
    rows = ctx.inputs["rows"]
    return lambda: (D.mxm(D, gb.semiring.min_plus).new(), rows)


def _fetch_graphblas(result) -> np.ndarray:
    """The checked rows of a graphblas product (absent entries, if any, are +inf)."""
    D, rows = result
    return np.asarray(D[rows, :].new().to_dense(fill_value=np.inf), dtype=np.float64)


_INT_IMPLS = {"semiring-gpu-minplus-int32", "semiring-gpu-fw-int32"}


def _metrics(ctx: C.CaseContext, impl: C.Impl, seconds: float) -> dict:
    relax = ctx.case_metrics["relaxations"]
    rate = relax / seconds if seconds > 0 else math.nan
    m = {"grelax": rate / 1e9}
    peak = ctx.case_metrics.get("peak_i32_dpx" if impl.name in _INT_IMPLS else "peak_f32")
    if peak and impl.device == "gpu":
        m["fraction_of_peak"] = rate / peak
    return m


def _ratio(results: dict, fast: str, slow: str):
    a, b = results.get(fast), results.get(slow)
    if a is None or b is None or a.status != "ok" or b.status != "ok":
        return None
    return b.timing.median_ms / a.timing.median_ms


def _summary(ctx: C.CaseContext, results: dict) -> dict:
    s = {}
    # targets (issue #7): >= 50x the naive CuPy product and >= 1000x SciPy's FW at n = 2048;
    # >= 70% of the measured peak at n = 16384
    for fast, slow in (("semiring-gpu-minplus", "cupy-naive-minplus"),
                       ("semiring-gpu-fw", "scipy-fw"),
                       ("semiring-gpu-fw", "cupy-naive-minplus"),
                       ("semiring-gpu-minplus", "graphblas-cpu")):
        r = _ratio(results, fast, slow)
        if r is not None:
            s[f"{fast.replace('-', '_')}_vs_{slow.replace('-', '_')}"] = r
    for key in ("peak_f32", "peak_i32_dpx", "peak_i32_plain"):
        if key in ctx.case_metrics:
            s[f"{key}_grelax"] = ctx.case_metrics[key] / 1e9
    # each GPU impl against the peak of its own domain (_metrics: the DPX probe for int32)
    for impl, r in results.items():
        f = r.metrics.get("fraction_of_peak") if r.status == "ok" else None
        if f is not None:
            s[f"{impl.replace('-', '_')}_of_peak"] = f
    return s


def peak_lines(run) -> list[tuple[str, float]]:
    """The measured peaks of a run's APSP cases, in relaxations per second: float32 ``fminf``
    whenever measured, int32 DPX ``__viaddmin_s32`` only when an int32 impl has a rate to
    compare with it (the peak each GPU impl's fraction is taken of, see :func:`_metrics`).

    Parameters
    ----------
    run : bench.runner.RunResult

    Returns
    -------
    list of (str, float)
        (label, relaxations per second), float32 first.
    """
    f32 = i32 = None
    int_plotted = False
    for c in run.cases:
        if c.case.algorithm != "apsp":
            continue
        # measured once per process (measure_peaks): every case carries the same numbers
        f32 = c.case_metrics.get("peak_f32", f32)
        i32 = c.case_metrics.get("peak_i32_dpx", i32)
        int_plotted = int_plotted or any(
            r.impl in _INT_IMPLS and r.status == "ok" and r.metrics.get("grelax")
            for r in c.results)
    out = []
    if f32:
        out.append(("peak float32 fminf (measured)", float(f32)))
    if i32 and int_plotted:
        out.append(("peak int32 DPX viaddmin (measured)", float(i32)))
    return out


def _rate_lines(run) -> list[tuple[str, float]]:
    """:func:`peak_lines` in the rate plot's unit (G relaxations/s), the value in the label."""
    return [(f"{label} {v / 1e9:.3g} G/s", v / 1e9) for label, v in peak_lines(run)]


def plot(run, path):
    """"APSP relaxation rate vs n with the peak as a line" (None without APSP results)."""
    from . import report  # noqa: PLC0415  (a circle: bench.cases imports this module, and report imports bench.cases)

    points = []
    for c in run.cases:
        if c.case.algorithm != "apsp":
            continue
        for r in c.results:
            g = r.metrics.get("grelax") if r.status == "ok" else None
            if g:
                points.append({"impl": r.impl, "n": c.case_metrics["n"], "rate": g * 1e9})
    if not points:
        return None
    return report.plot_relaxation_rate(points, path, peaks=peak_lines(run))


APSP = C.register_algorithm(C.Algorithm(
    name="apsp",
    description="all-pairs shortest paths on the dense weight matrix of the graph (float32, "
                "inf = no edge) and one min-plus product D0 min.+ D0; relaxations "
                "d[i,j] = min(d[i,j], d[i,k] + d[k,j]) per second (n³ per product or per "
                "Floyd–Warshall) and, on the GPU, as a fraction of the measured peak "
                "(register-only probe); checked exactly on a sample of rows",
    prepare=_prepare,
    references={
        "dist": C.Reference("dist", "scipy.sparse.csgraph.dijkstra from the checked rows",
                            _ref_dist, C.compare_exact),
        "product": C.Reference("product", "NumPy min-plus product of the checked rows",
                               _ref_product, C.compare_exact),
    },
    impls=[
        C.Impl("semiring-gpu-fw", "gpu", "dist", _engine_fw("gpu"), fetch=_fetch, engine=True,
               description="algorithms.apsp(D0, 'floyd_warshall') on the GPU (blocked FW)"),
        C.Impl("semiring-gpu-fw-int32", "gpu", "dist", _engine_fw("gpu", True), fetch=_fetch,
               engine=True, description="algorithms.apsp on int32 weights on the GPU (blocked "
                                        "FW, saturating DPX path); fraction of the DPX peak"),
        C.Impl("semiring-gpu-minplus", "gpu", "product", _engine_gemm("gpu"), fetch=_fetch,
               engine=True, description="semiring dense min-plus GEMM, float32, on the GPU"),
        C.Impl("semiring-gpu-minplus-int32", "gpu", "product", _engine_gemm("gpu", True),
               fetch=_fetch, engine=True,
               description="semiring dense min-plus GEMM, int32 (inf = 2^29), on the GPU; "
                           "fraction of the DPX int32 peak"),
        C.Impl("cupy-naive-minplus", "gpu", "product", _naive_cupy, fetch=_fetch,
               description="CuPy broadcast (D[i,:,None] + D[None]).min(1), chunked"),
        C.Impl("semiring-cpu-fw", "cpu", "dist", _engine_fw("cpu"), fetch=_fetch, engine=True,
               description="algorithms.apsp(D0, 'floyd_warshall') on the CPU backend"),
        C.Impl("semiring-cpu-minplus", "cpu", "product", _engine_gemm("cpu"), fetch=_fetch,
               engine=True, description="semiring dense min-plus GEMM on the CPU backend"),
        C.Impl("scipy-fw", "cpu", "dist", _scipy_fw, fetch=_fetch,
               description="scipy.sparse.csgraph.floyd_warshall (all pairs)"),
        C.Impl("graphblas-cpu", "cpu", "product", _graphblas_minplus, fetch=_fetch_graphblas,
               description="python-graphblas (SuiteSparse:GraphBLAS) D0.mxm(D0, min_plus) on "
                           f"the full D0, n <= {GRAPHBLAS_MAX_N}; multithreaded CPU; optional"),
    ],
    impl_metrics=_metrics,
    rate_key="grelax",
    rate_label="G relaxations/s (n³ per product or Floyd–Warshall)",
    param_label=lambda p: "D0",
    summary=_summary,
    extra_plot=plot,
    rate_lines=_rate_lines,
))

# Suites: n = 2^scale of urand graphs
_SUITE_GRAPHS = {
    ("tiny", "cpu"): ["urand-6"],
    ("tiny", "gpu"): ["urand-8"],
    ("quick", "cpu"): ["urand-8", "urand-9", "urand-10"],
    ("quick", "gpu"): ["urand-10", "urand-11", "urand-12"],
    ("full", "cpu"): ["urand-8", "urand-9", "urand-10", "urand-11"],
    ("full", "gpu"): ["urand-10", "urand-11", "urand-12", "urand-13", "urand-14", "urand-15"],
}
for (_name, _dev), _graphs in _SUITE_GRAPHS.items():
    _suite = C.get_suite(_name, _dev)
    if not any(e.algorithm == "apsp" for e in _suite.entries):
        _suite.entries.append(C.SuiteEntry("apsp", _graphs))
