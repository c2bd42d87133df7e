"""Where blocked Floyd–Warshall's time goes on the GPU, and what the lookahead gains (a
device-tool probe, not a test).

    PYTHONPATH=. python3 bench/probes/probe_fw_phases.py [n ...]        (default: 8192 16384)

For each n and for float32 and int32 weights (integers in [1, 999], half the pairs without
an edge; int32 takes APSP's saturating DPX path, n · 999 <= 2^28, as bench/probes/probe_fw_tile.py):

1. one Floyd–Warshall without lookahead, the production steps of ``algorithms.apsp``
   (``_pivot_closure``, ``_pivot_panels``, ``_relax``) with CUDA events around each phase of
   each round: the sum per phase (1: the pivot tile's closure; 2: its row and column panels
   with their copies; 3: the n × n × TILE accumulate) and the GPU time between them
   ("gaps": launch latency and Python), in ms, with their shares and the rate n³ / total;
2. ``algorithms.apsp(A, "floyd_warshall")`` with ``FW_LOOKAHEAD`` off and on (best of
   ``REPS``, CUDA events), in ms, T relax/s and % of the measured peak of the matching probe
   (``bench/probes/gemm_tune.measure_peaks``: fminf for float32, ``__viaddmin_s32`` for int32),
   checking that the two results are identical (and float32 equal to int32).

About 15 s per n = 16384 on an H100 after the compiles.
"""

from __future__ import annotations

import importlib
import sys

import cupy as cp
import numpy as np

from gemm_tune import measure_peaks  # bench/probes/ is the script's directory

apsp_mod = importlib.import_module("algorithms.apsp")  # the function algorithms.apsp shadows it

INT_MAX = np.iinfo(np.int32).max
#: timed runs of each whole Floyd–Warshall (the best counts)
REPS = 2


def weights(n: int):
    """(float32, int32) n × n weights on the device: the same graph in both types."""
    rng = cp.random.RandomState(1)
    W = rng.randint(1, 1000, (n, n), dtype=np.int32)
    W[rng.random_sample((n, n), dtype=np.float32) < 0.5] = INT_MAX
    return cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32)), W


def elapsed(a, b) -> float:
    return cp.cuda.get_elapsed_time(a, b)


def phases(A, tile: int) -> dict:
    """ms per phase of one Floyd–Warshall without lookahead (the steps of _floyd_warshall)."""
    n = A.shape[0]
    work = np.dtype(A.dtype)
    bound = apsp_mod._sum_bound(n, (1, 999)) if work.kind == "i" else None
    srg = apsp_mod._semiring_of(work)
    D = apsp_mod._dense_of(A, n, work, cp)
    everything = (0, n)
    marks = []
    for k0 in range(0, n, tile):
        k1 = min(n, k0 + tile)
        ev = [cp.cuda.Event() for _ in range(4)]
        ev[0].record()
        Dkk = apsp_mod._pivot_closure(D, k0, k1, srg, work, bound)
        ev[1].record()
        R, C = apsp_mod._pivot_panels(D, Dkk, k0, k1, srg, work, bound)
        ev[2].record()
        apsp_mod._relax(D, C, R, everything, everything, srg, work, bound)
        ev[3].record()
        marks.append(ev)
    marks[-1][3].synchronize()
    out = {f"phase {p + 1}": sum(elapsed(ev[p], ev[p + 1]) for ev in marks) for p in range(3)}
    out["total"] = elapsed(marks[0][0], marks[-1][3])
    out["gaps"] = out["total"] - sum(out[f"phase {p + 1}"] for p in range(3))
    return out


def whole(A, lookahead: bool):
    """(best ms, result) of algorithms.apsp(A, "floyd_warshall") with FW_LOOKAHEAD as given."""
    apsp_mod.FW_LOOKAHEAD = lookahead
    best, D = float("inf"), None
    for _ in range(REPS):
        del D
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        D = apsp_mod.apsp(A, "floyd_warshall", progress=False)
        e.record()
        e.synchronize()
        best = min(best, elapsed(s, e))
    return best, D


def main(sizes):
    dev = cp.cuda.Device()
    print(f"device: {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}, "
          f"TILE = {apsp_mod.TILE}", flush=True)
    peaks = measure_peaks()
    print("peaks (T relax/s): " + ", ".join(f"{k} {v / 1e12:.2f}" for k, v in peaks.items()),
          flush=True)
    default = apsp_mod.FW_LOOKAHEAD
    try:
        for n in sizes:
            Af, Ai = weights(n)
            res = {}
            for label, A, key in (("f32", Af, "f32"), ("i32 sat DPX", Ai, "i32_dpx")):
                for look in (False, True):  # compile and warm up both schedules
                    apsp_mod.FW_LOOKAHEAD = look
                    apsp_mod.apsp(A[:1024, :1024], "floyd_warshall", progress=False)
                ph = phases(A, apsp_mod.TILE)
                tot = ph["total"]
                rate3 = float(n) * n * n / ph["phase 3"] / 1e9
                print(f"{label} n={n} phases (no lookahead): total {tot:8.1f} ms "
                      f"{float(n) ** 3 / tot / 1e9:6.2f} T/s | "
                      + " | ".join(f"{k} {ph[k]:7.1f} ms {ph[k] / tot * 100:5.1f}%"
                                   for k in ("phase 1", "phase 2", "phase 3", "gaps"))
                      + f" | phase 3 alone {rate3:5.2f} T/s", flush=True)
                got = {}
                for look in (False, True):
                    ms, got[look] = whole(A, look)
                    rate = float(n) ** 3 / ms * 1e3
                    print(f"{label} n={n} lookahead {'on ' if look else 'off'}: {ms:8.1f} ms "
                          f"{rate / 1e12:6.2f} T/s {rate / peaks[key] * 100:5.1f}% of peak",
                          flush=True)
                same = bool((got[False] == got[True]).all())
                print(f"{label} n={n} lookahead off and on: {'identical' if same else 'DIFFER'}",
                      flush=True)
                res[label] = got[True]
                del got
            Di = res["i32 sat DPX"]
            agree = bool((cp.where(Di == INT_MAX, cp.float32(np.inf), Di.astype(cp.float32))
                          == res["f32"]).all())
            print(f"n={n}: f32 and i32 distances {'agree' if agree else 'DIFFER'}", flush=True)
            del Af, Ai, res, Di
            cp.get_default_memory_pool().free_all_blocks()
    finally:
        apsp_mod.FW_LOOKAHEAD = default


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [8192, 16384])
