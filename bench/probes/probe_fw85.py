"""Floyd–Warshall against the relaxation peak on the GPU (issue 20 item 6; a device-tool
probe, not a test): float32 and the packed 16-bit (int16x2 DPX) path, with the peaks of
bench/probes/gemm_tune.measure_peaks measured in the same process.

    PYTHONPATH=. python3 bench/probes/probe_fw85.py [n]        (default 16384; ~35 s on an H100)

Prints, for n × n weights (integers in [1, W], half the pairs without an edge; W = 999 for
float32, W = 32766 // (n − 1) for the packed path, which the int32 input then takes):

1. the peaks (T relax/s): fminf, __viaddmin_s32, IADD+IMNMX, __viaddmin_u16x2 (2 per op);
2. single launches of the tuned kernel (n³ or n²·K relaxations): the products with K = n,
   and phase 3's shape (Z ⊕= C ⊗ R, K = 256 and 512) with Z first or late
   (``semiring.backend.gpu.dense.Z_LATE``);
3. Floyd–Warshall float32 (``algorithms.apsp``, best of REPS, CUDA events) under each
   schedule of SCHEDULES, with % of the fminf peak, and a trace of one lookahead run (CUDA
   events around every pivot and relaxation: the main stream's relaxations, the side's
   pivots, the main stream's waits);
4. the packed path (tiles 512 and 256, and its trace) and the int32 path it replaces, whose
   distances it must equal (in the caller's type).
"""

from __future__ import annotations

import importlib
import sys

import cupy as cp
import numpy as np

from gemm_tune import measure_peaks  # bench/probes/ is the script's directory

import semiring as sr
from semiring.backend.gpu import dense as _gpu_dense

apsp_mod = importlib.import_module("algorithms.apsp")
INT_MAX = np.iinfo(np.int32).max
REPS = 2
#: (label, FW_LOOKAHEAD, FW_ONE_LAUNCH, tile, Z_LATE), None: the committed default; the
#: second is the schedule before session 8. Every schedule runs with the module's
#: FW_SKIP_CROSS and CLOSURE_SUB (session 13; bench/probes/probe_fw_variants.py varies them)
SCHEDULES = [("defaults (as committed)", True, True, None, None),
             ("lookahead, 4 rectangles, tile 256, Z first", True, False, 256, False),
             ("lookahead, one launch, tile 256, Z first", True, True, 256, False),
             ("lookahead, one launch, tile 256, Z late", True, True, 256, True),
             ("lookahead, one launch, tile 512, Z late", True, True, 512, True)]


def timed(fn, reps=REPS):
    best, out = float("inf"), None
    for _ in range(reps):
        out = None
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        out = fn()
        e.record()
        e.synchronize()
        best = min(best, cp.cuda.get_elapsed_time(s, e) / 1e3)
    return best, out


def graph(n, wmax, seed=1):
    rng = cp.random.RandomState(seed)
    W = rng.randint(1, wmax + 1, (n, n), dtype=np.int32)
    W[rng.random_sample((n, n), dtype=np.float32) < 0.5] = INT_MAX
    return W


def line(label, secs, work, peak):
    rate = work / secs
    print(f"  {label:<44} {secs * 1e3:9.1f} ms {rate / 1e12:6.2f} T/s {rate / peak * 100:6.1f}%"
          f" of peak", flush=True)


def trace_lookahead(A, tile, attr="TILE"):
    """One lookahead Floyd–Warshall with CUDA events around each _pivot (on the side stream)
    and each _relax (main): sums over rounds of the main stream's relaxations, of the side's
    pivot work (phases 1-2), and of the main stream's waits (from the end of a round's last
    relaxation to the start of the next round's first: the join on the side's pivot), ms."""
    events = []  # (kind, start event, end event)
    depth = [0]  # phase 1 by sub-tiles calls _pivot / _relax inside a _pivot: not traced

    def wrap(fn, kind):
        def inner(*a, **k):
            if depth[0]:
                return fn(*a, **k)
            depth[0] += 1
            try:
                s, e = cp.cuda.Event(), cp.cuda.Event()
                s.record()  # on the current stream: the side inside lanes.on_side()
                out = fn(*a, **k)
                e.record()
            finally:
                depth[0] -= 1
            events.append((kind, s, e))
            return out
        return inner

    real = apsp_mod._pivot, apsp_mod._relax
    apsp_mod._pivot, apsp_mod._relax = wrap(real[0], "pivot"), wrap(real[1], "relax")
    old_tile = getattr(apsp_mod, attr)
    setattr(apsp_mod, attr, tile)
    try:
        t0, t1 = cp.cuda.Event(), cp.cuda.Event()
        t0.record()
        apsp_mod.apsp(A, "floyd_warshall", progress=False)
        t1.record()
        t1.synchronize()
    finally:
        apsp_mod._pivot, apsp_mod._relax = real
        setattr(apsp_mod, attr, old_tile)
    el = cp.cuda.get_elapsed_time
    relax = sum(el(s, e) for k, s, e in events if k == "relax")
    pivot = sum(el(s, e) for k, s, e in events if k == "pivot")
    first = next(s for k, s, e in events if k == "pivot")
    pivots = [(s, e) for k, s, e in events if k == "pivot"][1:]  # the side's
    relaxes = [(s, e) for k, s, e in events if k == "relax"]
    # main-stream gaps between consecutive relaxations (the join waits for the side)
    gaps = sum(max(0.0, el(relaxes[i][1], relaxes[i + 1][0])) for i in range(len(relaxes) - 1))
    total = el(t0, t1)
    print(f"  trace tile {tile}: total {total:7.1f} ms | main relaxations {relax:7.1f} ms | "
          f"side pivots {sum(el(s, e) for s, e in pivots):6.1f} ms (round 0 on main: "
          f"{el(first, relaxes[0][0]):5.1f} ms) | main gaps between relaxations {gaps:6.1f} ms"
          f" | all pivots {pivot:6.1f} ms", flush=True)


def main(n):
    dev = cp.cuda.Device()
    print(f"device: {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}", flush=True)
    peaks = measure_peaks()
    print("peaks (T relax/s): " + ", ".join(f"{k} {v / 1e12:.2f}" for k, v in peaks.items()),
          flush=True)
    pf, pu = peaks["f32"], peaks["u16x2_dpx"]
    late0 = _gpu_dense.Z_LATE
    every = frozenset([_gpu_dense.U16_POLICY] + [p for p, _ in _gpu_dense.MINPLUS_POLICIES.values()])

    print(f"single launches, n = {n}:")
    W = graph(n, 999)
    Df = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
    sr.gemm(Df[:256, :256], Df[:256, :256], sr.min_plus, np.float32)  # compile
    secs, _ = timed(lambda: sr.gemm(Df, Df, sr.min_plus, np.float32))
    line("f32 product Z = D ⊗ D (K = n)", secs, float(n) ** 3, pf)
    Z = Df.copy()
    try:
        for late in (False, True):
            _gpu_dense.Z_LATE = every if late else frozenset()
            for K in (256, 512):
                C, R = cp.ascontiguousarray(Df[:, :K]), cp.ascontiguousarray(Df[:K, :])
                secs, _ = timed(lambda: sr.gemm_accumulate(Z, C, R, sr.min_plus, np.float32))
                line(f"f32 Z ⊕= C ⊗ R (K = {K}), Z {'late' if late else 'first'}", secs,
                     float(n) * n * K, pf)
        del Z, C, R, Df
        U = cp.minimum(W, 999).astype(cp.uint16)
        sr.dense.gemm_u16(U[:256, :256], U[:256, :256])
        secs, _ = timed(lambda: sr.dense.gemm_u16(U, U))
        line("u16x2 product Z = D ⊗ D (K = n)", secs, float(n) ** 3, pu)
        Z = U.copy()
        for late in (False, True):
            _gpu_dense.Z_LATE = every if late else frozenset()
            for K in (256, 512):
                C, R = cp.ascontiguousarray(U[:, :K]), cp.ascontiguousarray(U[:K, :])
                secs, _ = timed(lambda: sr.dense.gemm_u16_accumulate(Z, C, R))
                line(f"u16x2 Z ⊕= C ⊗ R (K = {K}), Z {'late' if late else 'first'}", secs,
                     float(n) * n * K, pu)
    finally:
        _gpu_dense.Z_LATE = late0
    del Z, C, R, U, W
    cp.get_default_memory_pool().free_all_blocks()

    print(f"Floyd–Warshall float32, n = {n}:")
    W = graph(n, 999)
    Af = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
    del W
    defaults = (apsp_mod.FW_LOOKAHEAD, apsp_mod.FW_ONE_LAUNCH, apsp_mod.TILE)
    ref = None
    try:
        for label, look, one, tile, late in SCHEDULES:
            apsp_mod.FW_LOOKAHEAD, apsp_mod.FW_ONE_LAUNCH = look, one
            apsp_mod.TILE = defaults[2] if tile is None else tile
            _gpu_dense.Z_LATE = late0 if late is None else (every if late else frozenset())
            apsp_mod.apsp(Af[:1024, :1024], "floyd_warshall", progress=False)  # warm up
            secs, D = timed(lambda: apsp_mod.apsp(Af, "floyd_warshall", progress=False))
            line(label, secs, float(n) ** 3, pf)
            if ref is None:
                ref = D
            else:
                print(f"    same distances as the first: {bool((D == ref).all())}", flush=True)
            del D
        apsp_mod.FW_LOOKAHEAD, apsp_mod.FW_ONE_LAUNCH, apsp_mod.TILE = defaults
        _gpu_dense.Z_LATE = late0
        trace_lookahead(Af, apsp_mod.TILE)
    finally:
        apsp_mod.FW_LOOKAHEAD, apsp_mod.FW_ONE_LAUNCH, apsp_mod.TILE = defaults
        _gpu_dense.Z_LATE = late0
    del Af, ref
    cp.get_default_memory_pool().free_all_blocks()

    wmax = max(1, apsp_mod.U16_MAX_DISTANCE // (n - 1))
    print(f"Floyd–Warshall int32 weights in [1, {wmax}] (packed path: (n − 1) · {wmax} <= "
          f"{apsp_mod.U16_MAX_DISTANCE}), n = {n}:")
    W = graph(n, wmax, seed=2)
    got = {}
    default_tile = apsp_mod.TILE_U16
    try:
        for tile in sorted({default_tile, 512, 256}, reverse=True):
            apsp_mod.TILE_U16 = tile
            apsp_mod.apsp(W[:1024, :1024], "floyd_warshall", progress=False)
            secs, got[tile] = timed(lambda: apsp_mod.apsp(W, "floyd_warshall", progress=False))
            line(f"packed u16x2, lookahead, one launch, tile {tile}", secs, float(n) ** 3, pu)
    finally:
        apsp_mod.TILE_U16 = default_tile
    trace_lookahead(W, default_tile, "TILE_U16")
    apsp_mod.FW_U16 = False
    try:
        apsp_mod.apsp(W[:1024, :1024], "floyd_warshall", progress=False)
        secs, D32 = timed(lambda: apsp_mod.apsp(W, "floyd_warshall", progress=False), reps=1)
        line("int32 saturating DPX path (FW_U16 off)", secs, float(n) ** 3, peaks["i32_dpx"])
    finally:
        apsp_mod.FW_U16 = True
    for tile, D in got.items():
        print(f"    packed tile {tile} equals the int32 path: {bool((D == D32).all())}; "
              f"dtype {D.dtype}; unreachable pairs {int((D == INT_MAX).sum())}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 16384)
