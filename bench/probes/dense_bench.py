"""Timings of the dense kernels on the GPU: semiring GEMM (relaxations per second, against
cuBLAS's plus_times as the roof) and SpMM (a uniform random graph times an n × s matrix).

    PYTHONPATH=. python bench/probes/dense_bench.py [--n 4096] [--graph-scale 20] [--s 32 128]

Compile time is excluded (one warm-up call per case); each time is the median of 5 runs.
"""

from __future__ import annotations

import argparse

import numpy as np


def _time(f, reps=5):
    import cupy as cp

    f()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(reps):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        f()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / 1e3)
    return float(np.median(times))


def main():
    import cupy as cp

    import semiring as sr
    from semiring import gemm, spmm

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--graph-scale", type=int, default=20)
    ap.add_argument("--s", type=int, nargs="+", default=[1, 32, 128])
    args = ap.parse_args()
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())

    n = args.n
    rng = cp.random.default_rng(0)
    for sname, dt in [("min_plus", np.float32), ("min_plus", np.int32), ("min_plus", np.float64),
                      ("lor_land", np.bool_), ("plus_times", np.float32)]:
        X = (rng.random((n, n)) * 100).astype(dt)
        t = _time(lambda: gemm(X, X, sname, dt))
        print(f"gemm {sname:10s} {np.dtype(dt).name:8s} n={n}: {t * 1e3:8.2f} ms  "
              f"{n ** 3 / t / 1e9:8.1f} G relaxations/s")
    X = rng.random((n, n), dtype=np.float32)
    t = _time(lambda: X @ X)
    print(f"cupy matmul (cuBLAS) float32 n={n}: {t * 1e3:8.2f} ms  {n ** 3 / t / 1e9:8.1f} G mul-adds/s")

    nv = 1 << args.graph_scale
    m = 16 * nv
    rows = cp.random.randint(0, nv, m, dtype=cp.int64)
    cols = cp.random.randint(0, nv, m, dtype=cp.int64)
    w = cp.random.randint(1, 256, m).astype(cp.float32)
    A = sr.Matrix.from_coo(rows, cols, w, nrows=nv, ncols=nv, dup_op="min", device="gpu")
    for s in args.s:
        D = (rng.random((nv, s)) * 100).astype(cp.float32)
        P = rng.random((nv, s)) < 0.1
        t = _time(lambda: spmm(A, D, "min_plus", np.float32))
        tp = _time(lambda: spmm(A, D, "min_plus", np.float32, x_present=P, want_present=True))
        print(f"spmm min_plus float32 n={nv} nnz={A.nvals} s={s}: {t * 1e3:8.2f} ms "
              f"({A.nvals * s / t / 1e9:6.2f} G products/s); bitmap X: {tp * 1e3:8.2f} ms")


if __name__ == "__main__":
    main()
