"""SpMV pull kernels against cuSPARSE, in one process (issue 20 item 5).

For each graph: cuSPARSE's plus-times SpMV (``cupyx`` ``A @ x``), ``sr.mxv`` min-plus and
plus-times through the tiled kernel (``spmv_tile``) and the binned one (``spmv_pull``), and the
kernels alone (launches back to back between two events: device time, no host overhead),
variants of the tiled kernel compiled with other ``-D`` values (``--variants``). Best and median
of ``--reps`` calls, CUDA events. Every min-plus result is checked equal to the binned kernel's
(and, on graphs of at most 2**20 rows, to a NumPy reference); plus-times against cuSPARSE
(rtol 1e-4).

    PYTHONPATH=. python3 bench/probes/spmv_probe.py --graphs kron-20,urand-22
"""

from __future__ import annotations

import argparse
import statistics
import time

import cupy as cp
import numpy as np

import semiring as sr
from bench import generators as gen
from semiring import kernels
from semiring.backend.gpu import spmv as gs


def events(fn, reps, inner=1):
    """(best, median) ms of ``fn`` (``inner`` calls between two events, per call)."""
    fn()
    cp.cuda.Device().synchronize()
    t = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        for _ in range(inner):
            fn()
        b.record()
        b.synchronize()
        t.append(cp.cuda.get_elapsed_time(a, b) / inner)
    return min(t), statistics.median(t)


def variant_kernel(semi, M, opts):
    """spmv_tile compiled with extra -D options (float32, M's index type)."""
    name = gs.kernel_name("spmv_tile", semi, np.float32, M.itype, False)
    return kernels.function(("spmv-probe", id(semi), opts, np.dtype(M.itype)), name,
                            lambda: gs.module_source(semi), [name],
                            options=kernels.NVRTC_OPTIONS + opts)


def launch_tile(f, M, x, sched, out, opres):
    avals, astride = M._values_for(np.float32)
    f((sched["nblocks"],), (gs.BLOCK,), (
        M.indptr, M.indices, avals, np.int64(astride), x, None, None, sched["tiles"],
        np.int64(sched["ntiles"]), sched["long_rows"], np.int64(sched["nlong"]), out, opres))


def launch_bins(M, x, semi, out, opres):
    avals, astride = M._values_for(np.float32)
    sched = gs.schedule(M, "spmv_pull")
    mode, term = gs._terminal(semi.add, np.dtype(np.float32))
    gs._kernel("spmv_pull", semi, np.float32, M.itype, False)((sched["nblocks"],), (gs.BLOCK,), (
        M.indptr, M.indices, avals, np.int64(astride), x, None, None, sched["rows"],
        sched["long_rows"], sched["bins"], out, opres, np.int32(mode), term))


def same(a, b):
    (av, ap), (bv, bp) = a, b
    return bool((ap == bp).all()) and bool((av[ap] == bv[bp]).all())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", default="kron-20,kron-22,urand-22,grid-2048x2048")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--variants", default="512:4,2048:4,1024:8",
                    help="tile:unroll pairs of spmv_tile to compile and time")
    args = ap.parse_args()
    dev = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"device: {dev}; tile {gs.TILE}, unroll default; reps {args.reps}")
    for g in args.graphs.split(","):
        probe_graph(g, args)


def probe_graph(g, args):
    t0 = time.perf_counter()
    A = gen.make_graph(gen.parse_graph_spec(g), xp=cp, cache_dir=None)
    x = gen.random_dense_vector(A.shape[0], seed=0, xp=cp)
    cp.cuda.Device().synchronize()
    tgen = time.perf_counter() - t0
    M = sr.Matrix.from_cupyx(A)
    u = sr.Vector.from_dense(x, device="gpu")
    n = A.shape[0]
    print(f"\n{g}: n={n} nnz={A.nnz} itype={np.dtype(M.itype)} max deg="
          f"{int(cp.diff(A.indptr).max())} (generated in {tgen:.1f} s)")
    rows = {}
    rows["cusparse plus_times (A @ x)"] = events(lambda A=A, x=x: A @ x, args.reps)
    res = {}
    for tiled in (True, False):
        gs.TILED = tiled
        tag = "tile" if tiled else "bins"
        for semi in (sr.min_plus, sr.plus_times):
            rows[f"mxv {semi.name} {tag}"] = events(
                lambda M=M, u=u, semi=semi: sr.mxv(M, u, semi), args.reps)
            res[(semi.name, tag)] = sr.mxv(M, u, semi).bitmap()
    gs.TILED = True
    out = cp.empty(n, dtype=cp.float32)
    opres = cp.empty(n, dtype=cp.bool_)
    for semi in (sr.min_plus, sr.plus_times):
        rows[f"kernel {semi.name} bins x10"] = events(
            lambda M=M, x=x, semi=semi: launch_bins(M, x, semi, out, opres), args.reps, 10)
        f = gs._kernel("spmv_tile", semi, np.float32, M.itype, False)
        sched = gs.schedule(M, "spmv_tile")
        rows[f"kernel {semi.name} tile x10"] = events(
            lambda f=f, M=M, x=x, sched=sched: launch_tile(f, M, x, sched, out, opres),
            args.reps, 10)
    ok = same(res[("min_plus", "tile")], res[("min_plus", "bins")])
    print(f"  check min_plus tile == bins: {ok}")
    ref = (A @ x).get()
    for tag in ("tile", "bins"):
        v, p = res[("plus_times", tag)]
        close = np.allclose(cp.where(p, v, 0).get(), ref, rtol=1e-4, atol=1e-3)
        print(f"  check plus_times {tag} ~ cuSPARSE: {close}")
    if n <= 1 << 20:
        H = A.get()
        xh = x.get()
        prod = H.data + xh[H.indices]
        deg = np.diff(H.indptr)
        refm = np.full(n, np.inf, dtype=np.float32)
        nz = deg > 0
        refm[nz] = np.minimum.reduceat(prod, H.indptr[:-1][nz])
        v, p = res[("min_plus", "tile")]
        print(f"  check min_plus tile == NumPy: "
              f"{bool((p.get() == nz).all() and (v.get()[nz] == refm[nz]).all())}")
    for spec in filter(None, args.variants.split(",")):
        tile, unroll = (int(s) for s in spec.split(":"))
        opts = (f"-DSR_TILE={tile}", f"-DSR_TILE_UNROLL={unroll}")
        f = variant_kernel(sr.min_plus, M, opts)
        sched = gs.tile_schedule(M.indptr, n, tile)
        out.fill(0)
        launch_tile(f, M, x, sched, out, opres)
        okv = same((out, opres), res[("min_plus", "bins")])
        rows[f"kernel min_plus tile {tile}/{unroll} x10 (ok={okv})"] = events(
            lambda f=f, M=M, x=x, sched=sched: launch_tile(f, M, x, sched, out, opres),
            args.reps, 10)
    base = rows["cusparse plus_times (A @ x)"]
    for k, (best, med) in rows.items():
        print(f"  {k:48s} best {best:7.3f} ms  median {med:7.3f} ms  "
              f"cuSPARSE/this (best) {base[0] / best:5.3f}  (median) {base[1] / med:5.3f}")
    cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
