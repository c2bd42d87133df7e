"""Floyd–Warshall's pivot tile on the GPU (a device-tool probe, not a test): algorithms.apsp
with tile = 256 / 384 / 512 at n = argv (default 16384), float32 and int32 (saturating DPX),
each the median of 3 runs (CUDA events), results checked equal across tiles.

    PYTHONPATH=. python3 bench/probes/probe_fw_tile.py 16384
"""

from __future__ import annotations

import sys

import cupy as cp
import numpy as np

from algorithms.apsp import apsp

INT_MAX = np.iinfo(np.int32).max


def main(n=16384):
    rng = cp.random.RandomState(1)
    W = rng.randint(1, 1000, (n, n), dtype=np.int32)
    W[rng.random_sample((n, n), dtype=np.float32) < 0.5] = INT_MAX
    Wf = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
    for label, A in (("f32", Wf), ("i32", W)):
        ref = None
        for tile in (256, 384, 512):
            apsp(A[:1024, :1024], "floyd_warshall", progress=False, tile=tile)  # compile
            ts = []
            for _ in range(3):
                s, e = cp.cuda.Event(), cp.cuda.Event()
                s.record()
                D = apsp(A, "floyd_warshall", progress=False, tile=tile)
                e.record()
                e.synchronize()
                ts.append(cp.cuda.get_elapsed_time(s, e))
            ms = float(np.median(ts))
            ok = "" if ref is None else ("  equal" if bool((D == ref).all()) else "  DIFFER")
            ref = D if ref is None else ref
            print(f"{label} n={n} tile={tile}: {ms:8.1f} ms  {float(n) ** 3 / ms / 1e9:6.2f} T/s{ok}",
                  flush=True)
            del D
        del ref
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
