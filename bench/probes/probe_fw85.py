"""Floyd–Warshall against the relaxation peak on the GPU (issue 20 item 6; a device-tool
probe, not a test): float32 and the packed 16-bit (int16x2 DPX) path, with the peaks of
bench/probes/gemm_tune.measure_peaks measured in the same process.

    PYTHONPATH=. python3 bench/probes/probe_fw85.py [n]        (default 16384)

Prints, for n × n weights (integers in [1, W], half the pairs without an edge; W = 999 for
float32 and int32, W = 32766 // (n − 1) for the packed path, which it then takes):

1. the peaks (T relax/s): fminf, __viaddmin_s32, IADD+IMNMX, __viaddmin_u16x2 (2 per op);
2. single launches of the tuned kernel (n³ or n²·K relaxations): the float32 product with
   K = n, phase 3's shape (Z ⊕= C ⊗ R, K = 256 and 512), and the packed u16 ones;
3. Floyd–Warshall (``algorithms.apsp``, best of REPS, CUDA events) under each schedule of
   SCHEDULES (lookahead, one launch outside the cross, tile), with % of the matching peak;
4. the phases without lookahead (bench/probes/probe_fw_phases.phases);
5. the packed path's distances against the int32 path's (equal, in the caller's type).
"""

from __future__ import annotations

import importlib
import sys

import cupy as cp
import numpy as np

from gemm_tune import measure_peaks  # bench/probes/ is the script's directory
from probe_fw_phases import phases

import semiring as sr

apsp_mod = importlib.import_module("algorithms.apsp")
INT_MAX = np.iinfo(np.int32).max
REPS = 2
#: (label, FW_LOOKAHEAD, FW_ONE_LAUNCH, tile)
SCHEDULES = [("lookahead, 4 rectangles, tile 256", True, False, 256),
             ("lookahead, one launch,  tile 256", True, True, 256),
             ("lookahead, one launch,  tile 512", True, True, 512)]


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


def main(n):
    dev = cp.cuda.Device()
    print(f"device: {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}", flush=True)
    peaks = measure_peaks()
    print("peaks (T relax/s): " + ", ".join(f"{k} {v / 1e12:.2f}" for k, v in peaks.items()),
          flush=True)
    pf, pu = peaks["f32"], peaks["u16x2_dpx"]

    print(f"single launches, n = {n}:")
    W = graph(n, 999)
    Df = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
    sr.gemm(Df[:256, :256], Df[:256, :256], sr.min_plus, np.float32)  # compile
    secs, _ = timed(lambda: sr.gemm(Df, Df, sr.min_plus, np.float32))
    line("f32 product Z = D ⊗ D (K = n)", secs, float(n) ** 3, pf)
    Z = Df.copy()
    for K in (256, 512):
        C, R = cp.ascontiguousarray(Df[:, :K]), cp.ascontiguousarray(Df[:K, :])
        secs, _ = timed(lambda: sr.gemm_accumulate(Z, C, R, sr.min_plus, np.float32))
        line(f"f32 phase 3 shape Z ⊕= C ⊗ R (K = {K})", secs, float(n) * n * K, pf)
    del Z, C, R, Df
    U = cp.minimum(W, 999).astype(cp.uint16)
    sr.dense.gemm_u16(U[:256, :256], U[:256, :256])
    secs, _ = timed(lambda: sr.dense.gemm_u16(U, U))
    line("u16x2 product Z = D ⊗ D (K = n)", secs, float(n) ** 3, pu)
    Z = U.copy()
    for K in (256, 512):
        C, R = cp.ascontiguousarray(U[:, :K]), cp.ascontiguousarray(U[:K, :])
        secs, _ = timed(lambda: sr.dense.gemm_u16_accumulate(Z, C, R))
        line(f"u16x2 phase 3 shape Z ⊕= C ⊗ R (K = {K})", secs, float(n) * n * K, pu)
    del Z, C, R, U, W
    cp.get_default_memory_pool().free_all_blocks()

    print(f"Floyd–Warshall float32, n = {n}:")
    W = graph(n, 999)
    Af = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
    del W
    defaults = (apsp_mod.FW_LOOKAHEAD, apsp_mod.FW_ONE_LAUNCH, apsp_mod.TILE)
    ref = None
    try:
        for label, look, one, tile in SCHEDULES:
            apsp_mod.FW_LOOKAHEAD, apsp_mod.FW_ONE_LAUNCH, apsp_mod.TILE = look, one, tile
            apsp_mod.apsp(Af[:1024, :1024], "floyd_warshall", progress=False)  # warm up
            secs, D = timed(lambda: apsp_mod.apsp(Af, "floyd_warshall", progress=False))
            line(label, secs, float(n) ** 3, pf)
            if ref is None:
                ref = D
            else:
                print(f"    same distances as the first: {bool((D == ref).all())}", flush=True)
            del D
        apsp_mod.FW_LOOKAHEAD, apsp_mod.FW_ONE_LAUNCH, apsp_mod.TILE = defaults
        ph = phases(Af, 256)
        tot = ph["total"]
        print("  phases without lookahead, tile 256: "
              + " | ".join(f"{k} {ph[k]:7.1f} ms {ph[k] / tot * 100:5.1f}%"
                           for k in ("phase 1", "phase 2", "phase 3", "gaps"))
              + f" | total {tot:7.1f} ms; phase 3 alone {float(n) ** 3 / ph['phase 3'] / 1e9:.2f}"
              " T/s", flush=True)
    finally:
        apsp_mod.FW_LOOKAHEAD, apsp_mod.FW_ONE_LAUNCH, apsp_mod.TILE = defaults
    del Af, ref
    cp.get_default_memory_pool().free_all_blocks()

    wmax = max(1, apsp_mod.U16_MAX_DISTANCE // (n - 1))
    print(f"Floyd–Warshall int32 weights in [1, {wmax}] (packed path: (n − 1) · {wmax} <= "
          f"{apsp_mod.U16_MAX_DISTANCE}), n = {n}:")
    W = graph(n, wmax, seed=2)
    got = {}
    default_tile = apsp_mod.TILE_U16
    try:
        for tile in (512, 256):
            apsp_mod.TILE_U16 = tile
            apsp_mod.apsp(W[:1024, :1024], "floyd_warshall", progress=False)
            secs, got[tile] = timed(lambda: apsp_mod.apsp(W, "floyd_warshall", progress=False))
            line(f"packed u16x2, lookahead, one launch, tile {tile}", secs, float(n) ** 3, pu)
    finally:
        apsp_mod.TILE_U16 = default_tile
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
