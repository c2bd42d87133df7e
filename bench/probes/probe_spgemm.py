"""SpGEMM phase probe on the GPU (a device-tool probe, not a test): where A·A's time goes.

For each graph: our plus_times and min_plus SpGEMM with CUDA events between the phases of
``semiring.backend.gpu.spgemm.spgemm`` (flops, symbolic bins, symbolic shared incl. the optimistic
pass, symbolic global, scan + allocation, numeric bins, numeric shared, numeric global, the
sort of hashed global rows), products, output nnz, G products/s; the rows and entries of the
global-memory bin; then cuSPARSE (cupyx) over row blocks as in the bench's chunked peer, and
the ratio. ``--ratios 8,1`` also times plus_times with other NUMERIC_DIRECT_RATIO values (1:
the old rule, hashed tables + the sort for most global rows). About a minute for the three
graphs on an H100 (the graphs are generated on the GPU and cached under bench/cache).

    PYTHONPATH=. python3 bench/probes/probe_spgemm.py kron-14 kron-16 kron-18 --ratios 8,1
"""

from __future__ import annotations

import argparse
import time

import cupy as cp
import numpy as np

import semiring as sr
from bench import cases as C
from bench import generators as gen
from semiring.backend.gpu import spgemm as _spgemm


def phases(A, sname, reps):
    """Median ms per phase over `reps` calls (after a warm-up), and the last result."""
    semiring = sr.ops.lookup("semiring", sname, op="probe", arg="semiring")
    dt = np.dtype(A.dtype)
    rt = semiring.result_type(dt)
    _spgemm.spgemm(A, A, semiring, dt, rt, None, False)  # compile, pools
    per, C_ = {}, None
    for _ in range(reps):
        C_ = None
        marks = []
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        C_ = _spgemm.spgemm(A, A, semiring, dt, rt, None, False, marks=marks)
        marks[-1][1].synchronize()
        wall = (time.perf_counter() - t0) * 1e3
        for (_, a), (name, b) in zip(marks[:-1], marks[1:]):
            per.setdefault(name, []).append(cp.cuda.get_elapsed_time(a, b))
        per.setdefault("total (events)", []).append(
            cp.cuda.get_elapsed_time(marks[0][1], marks[-1][1]))
        per.setdefault("total (host wall)", []).append(wall)
    return {k: float(np.median(v)) for k, v in per.items()}, C_


def global_bin(A, C_):
    """Rows of C in the global numeric bin (more entries than the largest shared table at
    NUMERIC_LOAD) and their entries, under this device's shared-memory budget."""
    ksize = np.dtype(A.indices.dtype).itemsize
    rsize = np.dtype(C_.values.dtype).itemsize
    budget = _spgemm._shared_budget()
    slots = max(s for lg, s in _spgemm.SHARED_BINS
                if (_spgemm.THREADS >> lg) * s * (ksize + rsize) <= budget)
    lens = cp.diff(C_.indptr.astype(cp.int64))
    big = lens > int(slots * _spgemm.NUMERIC_LOAD)
    return int(big.sum()), int(lens[big].sum())


def cusparse_chunked(S, products, reps):
    """ms of cupyx A[r0:r1] @ A over the bench's row blocks (the slices made first)."""
    limit = C.SPGEMM_BLOCK_PRODUCTS
    while True:
        bounds = C.spgemm_row_blocks(products, S.shape[1], limit)
        try:
            blocks = [S[r0:r1] for r0, r1 in zip(bounds[:-1].tolist(), bounds[1:].tolist())]
            out = [b @ S for b in blocks]  # warm-up
            break
        except Exception as e:
            if not C._cusparse_out_of_resources(e) or limit // 2 < C.SPGEMM_BLOCK_PRODUCTS_FLOOR:
                return None, f"{type(e).__name__}: {e}", 0
            limit //= 2
    nnz = sum(int(o.nnz) for o in out)
    del out
    ts = []
    for _ in range(reps):
        cp.get_default_memory_pool().free_all_blocks()
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        out = [blk @ S for blk in blocks]
        b.record()
        b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
        del out
    return float(np.median(ts)), f"{bounds.size - 1} blocks of <= {limit} products", nnz


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graphs", nargs="*", default=["kron-14", "kron-16", "kron-18"])
    ap.add_argument("--reps", type=int, default=0, help="default: 3 below 10^9 products, else 1")
    ap.add_argument("--ratios", default="", help="extra NUMERIC_DIRECT_RATIO values, e.g. 1")
    ap.add_argument("--no-cusparse", action="store_true")
    args = ap.parse_args()
    dev = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode()
    print(f"device: {dev}; cupy {cp.__version__}; shared budget {_spgemm._shared_budget()} B",
          flush=True)
    for spec in args.graphs:
        S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp)
        H = (cp.asnumpy(S.indptr), cp.asnumpy(S.indices))
        products = C.row_products(H[0], H[1], H[0])
        total = int(products.sum())
        reps = args.reps or (3 if total < 10**9 else 1)
        A = sr.Matrix.from_cupyx(S)
        print(f"\n{spec}: n {S.shape[0]}, nnz {S.nnz}, products {total:.4g}, "
              f"max row products {int(products.max()):.4g}, {A.dtype}", flush=True)
        ours = None
        for sname in ("plus_times", "min_plus"):
            ph, C_ = phases(A, sname, reps)
            tot = ph["total (events)"]
            if sname == "plus_times":
                ours = tot
                nrows, nent = global_bin(A, C_)
                print(f"  output nnz {C_.nvals:.4g} ({C_.indices.dtype}); global numeric bin: "
                      f"{nrows} rows, {nent:.4g} entries ({100 * nent / max(C_.nvals, 1):.0f} %)")
            del C_
            cp.get_default_memory_pool().free_all_blocks()
            print(f"  {sname}: {tot:.2f} ms, {total / tot / 1e6:.2f} G products/s; phases (ms): "
                  + ", ".join(f"{k} {v:.2f}" for k, v in ph.items() if not k.startswith("total"))
                  + f"; host wall {ph['total (host wall)']:.2f}", flush=True)
        for r in [float(x) for x in args.ratios.split(",") if x.strip()]:
            keep = _spgemm.NUMERIC_DIRECT_RATIO
            _spgemm.NUMERIC_DIRECT_RATIO = r
            try:
                ph, C_ = phases(A, "plus_times", reps)
            finally:
                _spgemm.NUMERIC_DIRECT_RATIO = keep
            del C_
            cp.get_default_memory_pool().free_all_blocks()
            print(f"  plus_times NUMERIC_DIRECT_RATIO={r:g}: {ph['total (events)']:.2f} ms; "
                  f"numeric_global {ph.get('numeric_global', 0):.2f}, sort {ph.get('sort', 0):.2f}",
                  flush=True)
        if not args.no_cusparse:
            ms, how, nnz = cusparse_chunked(S, products, reps)
            if ms is None:
                print(f"  cuSPARSE chunked: failed ({how})", flush=True)
            else:
                print(f"  cuSPARSE chunked: {ms:.2f} ms ({how}), {total / ms / 1e6:.2f} "
                      f"G products/s, output nnz {nnz:.4g}; ours/cuSPARSE throughput "
                      f"{ms / ours:.2f} (target >= 0.5)", flush=True)
        del A, S
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
