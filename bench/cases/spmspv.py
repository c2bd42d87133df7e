"""Bench cases of spmspv: y = x min.+ A, sparse x (push)."""

from __future__ import annotations

import numpy as np

from .. import generators as gen
from .. import metrics as met
from . import (Algorithm, CaseContext, Impl, Reference, _gb_fetch, _gb_matrix, _graphblas,
               _scatter_min_fn, compare_exact, push_min_plus, register_algorithm,
               semiring_module, sr_matrix)


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
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

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
