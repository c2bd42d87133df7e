"""Bench cases of spmv: y = A min.+ x, dense x."""

from __future__ import annotations

import numpy as np

from .. import generators as gen
from .. import metrics as met
from . import (Algorithm, CaseContext, Impl, Reference, _gb_fetch, _gb_matrix, _graphblas,
               _pair_ratio, _row_ids, _scatter_min_fn, compare_close, compare_exact,
               min_plus_rows, register_algorithm, semiring_module, sr_matrix)


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
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

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
