"""The CPU backend's warm ``sr.mxv`` (min-plus, dense x: the bench's SpMV case) against
SciPy's ``H @ x`` on the same graph, interleaved call by call (each round calls every row
once, in a rotating order, so a shared host's load hits them alike), with the compiled
row loop alone beside SciPy's raw ``csr_matvec`` in both loop forms (LLVM's unrolling on
and off: ``compiled.PULL_UNROLL_MAX_X_BYTES``). Prints medians (and the 25th percentile
and minimum), µs, and the median of the per-round ratios SciPy / row. CPU only.

Usage: PYTHONPATH=. python3 bench/probes/cpu_spmv_vs_scipy.py [--json PATH] [--kernels]
       [--threads N,...] [--budget S] graph ...

``--kernels``: add the serial kernel rows (unrolled, not) and SciPy's raw call;
``--opt3`` with it: the serial kernels at LLVM level 3 too (``compiled.PULL_OPT``).
``--threads N[,N...]``: add the parallel kernel with N threads (``numba.set_num_threads``
in the timed call, chunks as the backend splits them for N threads), and a row timing
``set_num_threads`` alone.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numba
import numpy as np
from scipy.sparse import _sparsetools

import semiring as sr
from bench import generators as gen
from semiring.backend.cpu import compiled

pc = time.perf_counter


def paired(rows, reps):
    """Times of each row's calls, µs, (rows × reps): round i calls every row once,
    starting at row i mod len(rows)."""
    ts = np.zeros((len(rows), reps))
    m = len(rows)
    for i in range(reps):
        for jj in range(m):
            j = (i + jj) % m
            f = rows[j][1]
            t = pc()
            f()
            ts[j, i] = pc() - t
    return ts * 1e6


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--kernels", action="store_true")
    ap.add_argument("--threads", default="")
    ap.add_argument("--opt3", action="store_true",
                    help="with --kernels: the serial kernels also at LLVM level 3")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds a graph, about")
    args = ap.parse_args(argv)
    out = []
    for spec in args.graphs:
        H = gen.generate(gen.parse_graph_spec(spec)).tocsr()
        n = H.shape[0]
        A = sr.Matrix.from_scipy(H, device="cpu")
        x = gen.random_dense_vector(n, seed=0, dtype=H.dtype)
        xv = sr.Vector.from_dense(x, device="cpu")
        for _ in range(3):
            got = sr.mxv(A, xv, sr.min_plus)
        dtype = np.dtype(H.dtype)
        rows = [("scipy H@x", lambda: H @ x), ("sr.mxv", lambda: sr.mxv(A, xv, sr.min_plus))]
        threads = [int(t) for t in args.threads.split(",") if t]
        if args.kernels or threads:
            y = np.empty(n, dtype=dtype)
            rows.append(("scipy csr_matvec raw", lambda: _sparsetools.csr_matvec(
                n, n, H.indptr, H.indices, H.data, x, y)))
            lay = compiled._layout(A, 1)
            r, b = lay[1]
            vals = lay[dtype]
            lanes = 4 if int(np.diff(H.indptr).max()) >= compiled.LANES_MIN_ROW[1] else 1
            ref = got.to_dense(missing=np.inf)
            variants = [(f"kernel serial unroll={u}", False, u, r, b)
                        for u in (True, False)] if args.kernels else []
            for t in threads:
                pr, pb = compiled._layout(A, t)[t]
                for u in (True, False):
                    variants.append((f"kernel parallel x{t} unroll={u}", t, u, pr, pb))
            if args.kernels and args.opt3:
                variants += [(f"kernel serial O3 unroll={u}", "O3", u, r, b) for u in (True, False)]
            for name, par, u, rr, bb in variants:
                if par == "O3":  # (built here, outside the kernel table: PULL_OPT at 3)
                    ops = compiled.ops_of(sr.min_plus, dtype)
                    old, compiled.PULL_OPT = compiled.PULL_OPT, 3
                    try:
                        k = compiled._make_pull(ops.mul, ops.ptype, ops.add, ops.form,
                                                ops.first_only, lanes, False, False, u)
                    finally:
                        compiled.PULL_OPT = old
                    par = 0
                else:
                    if par:
                        numba.set_num_threads(par)
                    k = compiled._kernel("pull", sr.min_plus, dtype, lanes, bool(par), False, u)
                o = np.empty(rr.size, dtype=dtype)
                kargs = (lay["indptr"], lay["indices"], vals, x, rr, bb, o)
                k(*kargs)
                full = np.full(n, np.inf, dtype=dtype)
                full[rr.astype(np.int64)] = o
                assert np.array_equal(full, ref), name  # the same values as sr.mxv
                if par:
                    rows.append((name, lambda k=k, kargs=kargs, t=par: (
                        numba.set_num_threads(t), k(*kargs))))
                else:
                    rows.append((name, lambda k=k, kargs=kargs: k(*kargs)))
            if threads:
                nt = numba.config.NUMBA_NUM_THREADS
                rows.append(("set_num_threads alone", lambda: numba.set_num_threads(nt)))
                numba.set_num_threads(nt)
        for _, f in rows:
            f()
        t0 = pc()
        rows[0][1]()
        one = max(pc() - t0, 1e-6)
        reps = int(min(5000, max(100, args.budget / (one * len(rows) * 1.2))))
        ts = paired(rows, reps)
        load = os.getloadavg()[0]
        print(f"{spec} n={n} nnz={H.nnz} {dtype} reps={reps} load={load:.1f} "
              f"threads-gate={compiled._threads()}", flush=True)
        rec = {"graph": spec, "n": n, "nnz": int(H.nnz), "reps": reps, "load": load, "rows": {}}
        for j, (name, _) in enumerate(rows):
            med, p25, mn = np.median(ts[j]), np.percentile(ts[j], 25), ts[j].min()
            ratio = float(np.median(ts[0] / ts[j]))
            print(f"  {name:34s} med {med:9.2f} p25 {p25:9.2f} min {mn:9.2f} µs"
                  f"  scipy/this {ratio:.3f}", flush=True)
            rec["rows"][name] = {"median_us": med, "p25_us": p25, "min_us": mn,
                                 "scipy_over_this": ratio}
        out.append(rec)
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
