"""SpMV pull kernels against cuSPARSE, in one process (issue 20 item 5).

For each graph: cuSPARSE's plus-times SpMV (``cupyx`` ``A @ x``), ``sr.mxv`` min-plus and
plus-times through the tiled kernel (``spmv_tile``) and the binned one (``spmv_pull``), and the
kernels alone (ten launches back to back between two events: device time without host
overhead; cuSPARSE likewise), and with ``--variants`` the kernels compiled with other ``-D``
values (:data:`VARIANTS`); ``--profile GRAPH`` adds the host time per call of ``sr.mxv``,
the launcher and cuSPARSE, and a cProfile of ``sr.mxv``. Best and median of ``--reps`` calls,
CUDA events. Every min-plus result is checked equal to the binned kernel's (and, on graphs of
at most 2**20 rows, to a NumPy reference); plus-times against cuSPARSE (rtol 1e-4).

    PYTHONPATH=. python3 bench/probes/spmv_probe.py --variants --graphs kron-20,urand-22
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
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


def variant_kernel(kind, semi, M, opts, empty=None):
    """``kind`` (spmv_tile or spmv_pull) compiled with extra -D options (float32);
    ``empty=False``: the instantiation with the (acc, found) folds (EMPTY false)."""
    name = gs.kernel_name(kind, semi, np.float32, M.itype, False)
    if empty is False:
        name = name.replace(", true>", ", false>")
    return kernels.function(("spmv-probe", id(semi), opts, np.dtype(M.itype), empty), name,
                            lambda: gs.module_source(semi), [name],
                            options=kernels.NVRTC_OPTIONS + opts)


def launch_tile(f, M, x, sched, out, opres, semi=sr.min_plus, empty=None):
    avals, astride = M._values_for(np.float32)
    f((sched["nblocks"],), (gs.BLOCK,), (
        M.indptr, M.indices, avals, np.int64(astride), x, None, None, sched["tiles"],
        np.int64(sched["ntiles"]), sched["long_rows"], np.int64(sched["nlong"]), out, opres,
        gs._empty(semi.add, np.dtype(np.float32))))


def launch_warp(f, M, x, sched, out, opres, semi=sr.min_plus):
    avals, astride = M._values_for(np.float32)
    f((sched["nblocks"],), (gs.BLOCK,), (
        M.indptr, M.indices, avals, np.int64(astride), x, sched["tasks"],
        np.int64(sched["ntasks"]), sched["long_rows"], np.int64(sched["nlong"]),
        np.int64(sched["long_row"]), out, opres, gs._empty(semi.add, np.dtype(np.float32))))


def seg_schedule(M, chunk):
    """The binned pull's plan with rows binned within chunks of ``chunk`` consecutive rows,
    blocks in (chunk, bin) order (for the kernel compiled with -DSR_SEGS=1)."""
    base = gs.schedule(M, "spmv_pull")
    n = M.nrows
    deg = cp.diff(M.indptr).astype(cp.int64)
    b = cp.zeros(n, dtype=cp.int64)
    for j in range(1, gs.NBINS):
        b += deg > gs.PULL_UNROLL * (1 << (j - 1))
    short = cp.flatnonzero(deg <= gs.LONG_ROW)
    nchunks = -(-n // chunk)
    seg = (short // chunk) * gs.NBINS + b[short]
    rows = short[cp.argsort(seg * (n + 1) + short)].astype(M.itype)
    nseg = nchunks * gs.NBINS
    counts = cp.asnumpy(cp.bincount(seg, minlength=nseg))
    lanes_of = np.tile(np.arange(gs.NBINS), nchunks)
    blocks = -(-counts // (gs.BLOCK >> lanes_of))
    row_start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    block_start = np.concatenate([[0], np.cumsum(blocks)[:-1]])
    blockseg = np.repeat(np.arange(nseg), blocks)
    nlong = int(base["long_rows"].size)
    bins = np.concatenate([[nlong, nseg], row_start, counts, block_start, blockseg])
    return {"rows": rows, "long_rows": base["long_rows"], "bins": cp.asarray(bins, cp.int64),
            "nblocks": nlong + int(blocks.sum())}


def launch_bins(f, M, x, semi, out, opres, empty=None, mode=None, sched=None):
    """``mode``: None the launcher's (gs._pull_terminal), else that mode (0: no early exit,
    1: stop at the monoid's terminal value); ``sched``: another plan than the matrix's
    (:func:`seg_schedule`)."""
    avals, astride = M._values_for(np.float32)
    sched = sched or gs.schedule(M, "spmv_pull")
    m, term = gs._pull_terminal(semi.add, np.dtype(np.float32))
    if mode == gs.TERM_VALUE:
        term = gs._terminal(semi.add, np.dtype(np.float32))[1]
    f((sched["nblocks"],), (gs.BLOCK,), (
        M.indptr, M.indices, avals, np.int64(astride), x, None, None, sched["rows"],
        sched["long_rows"], sched["bins"], out, opres, np.int32(m if mode is None else mode),
        term, gs._empty(semi.add, np.dtype(np.float32))))


def same(a, b):
    (av, ap), (bv, bp) = a, b
    return bool((ap == bp).all()) and bool((av[ap] == bv[bp]).all())


def host_profile(A, M, u, x, calls=300):
    """Host time per call (no sync inside the loop) and a cProfile of sr.mxv."""
    for label, fn in (("sr.mxv min_plus", lambda: sr.mxv(M, u, sr.min_plus)),
                      ("gs.pull min_plus", lambda: gs.pull(M, x, None, None, sr.min_plus,
                                                           np.dtype(np.float32), False)),
                      ("cuSPARSE A @ x", lambda: A @ x)):
        fn()
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        t1 = time.perf_counter()
        cp.cuda.Device().synchronize()
        print(f"  host time per call, {label}: {(t1 - t0) / calls * 1e6:.1f} us")
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(calls):
        sr.mxv(M, u, sr.min_plus)
    pr.disable()
    cp.cuda.Device().synchronize()
    pstats.Stats(pr).sort_stats("tottime").print_stats(14)


#: (kernel, tile, -D options, launch keywords) of the variants timed with --variants (the
#: defaults: SR_STREAM_LOADS=1, SR_ALIGN=0, SR_TILE=gs.TILE, SR_VEC=1 with
#: SR_VEC_MIN_LANES=16: one 16-byte load a thread for groups of 16 or 32 lanes and the long
#: rows; folds from Monoid.empty; no early exit for numbers). Session 12 (issue 20 item 5):
#: the session-8 binned kernel (SR_VEC=0, empty=False, the monoid's early exit), the
#: (chunk, bin) block order (SR_SEGS, "segs": rows a chunk), the tiled kernel's 16-byte
#: stream (SR_TILE_VEC).
VARIANTS = [
    ("spmv_pull", 0, ("-DSR_VEC=0",), {"empty": False, "mode": 1}),  # session 8's kernel
    ("spmv_pull", 0, (), {"mode": 0}),  # the default
    ("spmv_pull", 0, ("-DSR_SEGS=1",), {"mode": 0, "segs": 1 << 15}),
    ("spmv_pull", 0, ("-DSR_SEGS=1",), {"mode": 0, "segs": 1 << 17}),
    ("spmv_tile", 0, (), {}),
    ("spmv_tile", 0, ("-DSR_TILE_VEC=1",), {}),
]


#: Session 13 (issue 20 item 5): several rows a group (SR_ROWS, "rows": the schedule's
#: rows_per_group), their first steps together (SR_FUSE), streams that skip L1 with an
#: evict-first L2 policy (SR_STREAM_LOADS=3), x's gathers with an evict-last one (SR_X_HINT);
#: the warp-streamed pull (spmv_warp: rows in order, every sector of the matrix read once).
VARIANTS13 = [
    ("spmv_pull", 0, (), {"mode": 0}),  # the default
    ("spmv_pull", 0, ("-DSR_ROWS=2",), {"mode": 0, "rows": 2}),
    ("spmv_pull", 0, ("-DSR_ROWS=2", "-DSR_FUSE=1"), {"mode": 0, "rows": 2}),
    ("spmv_pull", 0, ("-DSR_ROWS=4", "-DSR_FUSE=1"), {"mode": 0, "rows": 4}),
    ("spmv_pull", 0, ("-DSR_STREAM_LOADS=3",), {"mode": 0}),
    ("spmv_pull", 0, ("-DSR_STREAM_LOADS=3", "-DSR_X_HINT=1"), {"mode": 0}),
    ("spmv_pull", 0, ("-DSR_ROWS=2", "-DSR_FUSE=1", "-DSR_STREAM_LOADS=3"),
     {"mode": 0, "rows": 2}),
    # the warp-streamed pull: rows in order, tasks of `tile` entries (spmv_warp)
    ("spmv_warp", 512, (), {}),
    ("spmv_warp", 1024, (), {}),
    ("spmv_warp", 512, ("-DSR_WARP_QUADS=2",), {}),
    ("spmv_warp", 1024, ("-DSR_WARP_QUADS=2",), {}),
    ("spmv_warp", 512, ("-DSR_WARP_UNROLL=2",), {}),
    ("spmv_warp", 1024, ("-DSR_WARP_UNROLL=2",), {}),
    ("spmv_warp", 512, ("-DSR_STREAM_LOADS=3",), {}),
]


#: Session 13, second run: the warp-streamed pull with the rows' offsets kept in registers
#: (SR_WARP_BATCH, the default) against the first run's best (offsets loaded every window).
VARIANTS13B = [
    ("spmv_pull", 0, (), {"mode": 0}),  # the binned default
    ("spmv_warp", 512, ("-DSR_WARP_BATCH=0", "-DSR_WARP_UNROLL=2"), {}),  # first run's best
    ("spmv_warp", 512, (), {}),
    ("spmv_warp", 512, ("-DSR_WARP_UNROLL=2",), {}),
    ("spmv_warp", 512, ("-DSR_WARP_QUADS=2",), {}),
    ("spmv_warp", 512, ("-DSR_WARP_MIN_BLOCKS=8",), {}),
    # rows over 1024 entries a block each (not a warp's 8 windows or more in a row)
    ("spmv_warp", 512, (), {"long_row": 1024}),
    ("spmv_warp", 512, ("-DSR_WARP_UNROLL=2",), {"long_row": 1024}),
]


#: Session 13, final: the defaults (two windows a step, long rows from 1024) against 2 quads
#: a lane with the same long rows (measured only with long rows from 4096 before).
VARIANTS13C = [
    ("spmv_warp", 512, (), {"long_row": 1024}),
    ("spmv_warp", 512, ("-DSR_WARP_QUADS=2",), {"long_row": 1024}),
    ("spmv_warp", 512, ("-DSR_WARP_QUADS=2", "-DSR_WARP_UNROLL=1"), {"long_row": 1024}),
]


def report(rows):
    base = rows.get("cuSPARSE plus_times (A @ x)")
    for k, (best, med) in rows.items():
        b = rows["cuSPARSE plus_times x10"] if "x10" in k else base
        print(f"  {k:60s} best {best:7.3f} ms  median {med:7.3f} ms  "
              f"cuSPARSE/this (best) {b[0] / best:5.3f}  (median) {b[1] / med:5.3f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", default="kron-20,kron-22,urand-22,grid-2048x2048")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--variants", action="store_true",
                    help="also time the kernels compiled with other tiles / cache hints")
    ap.add_argument("--profile", default="", help="graph whose host overhead is profiled")
    ap.add_argument("--set", default="12", choices=("12", "13", "13b", "13c"),
                    help="which variants: session 12's (VARIANTS) or 13's (VARIANTS13, 13B, 13C)")
    ap.add_argument("--lean", action="store_true",
                    help="skip the tiled kernel and the plus-times kernel timings")
    args = ap.parse_args()
    dev = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"device: {dev}; tile {gs.TILE}; reps {args.reps}")
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
    mean, top = M.nvals / n, gs.max_degree(M)
    tiled = gs.use_tiles(M, sr.min_plus, None, 0)
    warp = gs.use_warp(M, sr.min_plus, None, None, np.dtype(np.float32))
    pick = "warp" if warp else "tiles" if tiled else "bins"
    print(f"\n{g}: n={n} nnz={A.nnz} itype={np.dtype(M.itype)} mean deg {mean:.1f} max deg "
          f"{top}, auto picks {pick} (generated in {tgen:.1f} s)")
    rows = {}
    rows["cuSPARSE plus_times (A @ x)"] = events(lambda: A @ x, args.reps)
    rows["cuSPARSE plus_times x10"] = events(lambda: A @ x, args.reps, 10)
    res = {}
    for semi in (sr.min_plus, sr.plus_times):
        rows[f"mxv {semi.name} auto"] = events(
            lambda semi=semi: sr.mxv(M, u, semi), args.reps)
        res[(semi.name, "auto")] = sr.mxv(M, u, semi).bitmap()
    rows["mxv min_plus auto x10"] = events(lambda: sr.mxv(M, u, sr.min_plus), args.reps, 10)
    out = cp.empty(n, dtype=cp.float32)
    opres = cp.empty(n, dtype=cp.bool_)
    fb = gs._kernel("spmv_pull", sr.min_plus, np.float32, M.itype, False)
    launch_bins(fb, M, x, sr.min_plus, out, opres)
    res[("min_plus", "bins")] = (out.copy(), opres.copy())
    rows["kernel min_plus bins x10"] = events(
        lambda: launch_bins(fb, M, x, sr.min_plus, out, opres), args.reps, 10)
    print(f"  check auto == bins: "
          f"{same(res[('min_plus', 'auto')], res[('min_plus', 'bins')])}")
    if not args.lean:
        ft = gs._kernel("spmv_tile", sr.min_plus, np.float32, M.itype, False)
        st = gs.schedule(M, "spmv_tile")
        rows["kernel min_plus tile x10"] = events(
            lambda: launch_tile(ft, M, x, st, out, opres), args.reps, 10)
        print(f"  check tile == bins: {same((out, opres), res[('min_plus', 'bins')])}")
        fp = gs._kernel("spmv_tile", sr.plus_times, np.float32, M.itype, False)
        rows["kernel plus_times tile x10"] = events(
            lambda: launch_tile(fp, M, x, st, out, opres, sr.plus_times), args.reps, 10)
        fp = gs._kernel("spmv_pull", sr.plus_times, np.float32, M.itype, False)
        rows["kernel plus_times bins x10"] = events(
            lambda: launch_bins(fp, M, x, sr.plus_times, out, opres), args.reps, 10)
    ref = (A @ x).get()
    v, p = res[("plus_times", "auto")]
    close = np.allclose(cp.where(p, v, 0).get(), ref, rtol=1e-4, atol=1e-3)
    print(f"  check plus_times auto ~ cuSPARSE: {close}")
    if n <= 1 << 20:
        H = A.get()
        xh = x.get()
        prod = H.data + xh[H.indices]
        deg = np.diff(H.indptr)
        refm = np.full(n, np.inf, dtype=np.float32)
        nz = deg > 0
        refm[nz] = np.minimum.reduceat(prod, H.indptr[:-1][nz])
        v, p = res[("min_plus", "bins")]
        print(f"  check min_plus bins == NumPy: "
              f"{bool((p.get() == nz).all() and (v.get()[nz] == refm[nz]).all())}")
    report(rows)
    rows = {"cuSPARSE plus_times x10": rows["cuSPARSE plus_times x10"]}
    variants = {"12": VARIANTS, "13": VARIANTS13, "13b": VARIANTS13B,
                "13c": VARIANTS13C}[args.set]
    for kind, tile, defs, kw in variants if args.variants else ():
        if kind == "spmv_warp":  # (its tile is the schedule's)
            opts, label = tuple(defs), f"{kind} tile {tile} {' '.join(defs)} {kw}"
        else:
            opts = (f"-DSR_TILE={tile or gs.TILE}", *defs)
            label = f"{kind} {' '.join(opts)} {kw}"
        try:
            f = variant_kernel(kind, sr.min_plus, M, opts, kw.get("empty"))
        except cp.cuda.compiler.CompileException as err:  # say so, go on
            print(f"  {label}: {type(err).__name__}: {str(err)[:300]}")
            continue
        out.fill(0)
        opres.fill(False)
        if kind == "spmv_tile":
            sched = gs.tile_schedule(M.indptr, n, tile or gs.TILE)
            run = lambda f=f, sched=sched, kw=kw: launch_tile(f, M, x, sched, out, opres, **kw)
        elif kind == "spmv_warp":
            sched = gs.warp_schedule(M.indptr, n, tile, long_row=kw.get("long_row", gs.LONG_ROW))
            run = lambda f=f, sched=sched: launch_warp(f, M, x, sched, out, opres)
        else:
            kw = dict(kw)
            if "segs" in kw:
                kw["sched"] = seg_schedule(M, kw.pop("segs"))
            if "rows" in kw:
                kw["sched"] = gs.pull_schedule(M.indptr, n, kw.pop("rows"))
            run = lambda f=f, kw=kw: launch_bins(f, M, x, sr.min_plus, out, opres, **kw)
        run()
        okv = same((out, opres), res[("min_plus", "bins")])
        rows[f"{label} x10 (ok={okv})"] = events(run, args.reps, 10)
    if len(rows) > 1:
        rows["cuSPARSE plus_times x10 (again, after the variants)"] = events(
            lambda: A @ x, args.reps, 10)
        report(rows)
    if g == args.profile:
        host_profile(A, M, u, x)


if __name__ == "__main__":
    main()
