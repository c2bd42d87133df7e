"""Policy sweep on the GPU (a device-tool probe, not a test): BFS's device loop against the
host loop, its blocks per multiprocessor and switching thresholds, the host loop's
fused-level edge budget, and SSSP's pull fraction and fused-round edge budget, on the graphs
given (``bfs`` / ``sssp`` pick one).

    PYTHONPATH=. python3 bench/probes/probe_tune.py kron-22 grid-2048x2048

Each configuration: median of 5 runs (1 on grids for SSSP), checked equal to the first one.
"""

from __future__ import annotations

import importlib
import sys
import time

import cupy as cp

import algorithms
import semiring as sr
from semiring import traversal
from semiring.backend.gpu import traversal as gpu_traversal
from bench import generators as gen
from probe_sssp import timed  # bench/probes/ is on the path when this runs as a script

BFS = importlib.import_module("algorithms.bfs")
SSSP = importlib.import_module("algorithms.sssp")


def sweep(label, module, attr, values, f, reps):
    old = getattr(module, attr)
    ref = None
    for v in values:
        setattr(module, attr, v)
        f()  # warm-up: compiles, caches
        r, ms = timed(f, reps)
        ref = r if ref is None else ref
        print(f"  {label:5s} {attr}={v!s:10s} {ms:9.2f} ms  {'ok' if bool((r == ref).all()) else 'MISMATCH'}",
              flush=True)
    setattr(module, attr, old)


def main(argv):
    what = {a for a in ("bfs", "sssp") if a in argv} or {"bfs", "sssp"}
    for spec in (a for a in argv if a not in ("bfs", "sssp")):
        S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp)
        A = sr.Matrix.from_cupyx(S)
        source = int(cp.argmax(cp.diff(A.indptr) > 0))
        grid = spec.startswith("grid")
        print(spec, flush=True)
        if "bfs" in what:
            def bfs():
                return algorithms.bfs(A, source, symmetric=True)

            for per_sm in (2, 3):
                traversal.BFS_GRID_BLOCKS_PER_SM = per_sm
                for _ in range(2):  # the second run is warm
                    _, _, info = traversal.bfs_grid(A, source, symmetric=True, alpha=BFS.ALPHA,
                                                    beta=BFS.BETA, trace=True)
                steps = info.pop("trace")
                print(f"  device loop, {per_sm} blocks/SM: {info}, "
                      f"{sum(s[0] for s in steps):.0f} us", flush=True)
                for us, size, edges, way in steps[:12]:  # a grid's thousands of levels: the first
                    print(f"    {way:4s} {size:10d} vertices {edges:12d} edges {us:9.1f} us")
            traversal.BFS_GRID_BLOCKS_PER_SM = 2
            for _ in range(3):
                cp.cuda.Device().synchronize()
                t0 = time.perf_counter()
                bfs()
                cp.cuda.Device().synchronize()
                wall = (time.perf_counter() - t0) * 1e3
            print(f"  wall {wall:.3f} ms (host and device, synchronized)", flush=True)
            for step in (2, 4, 8):
                # the options are part of the module's cache key: a new value compiles anew
                gpu_traversal.GRID_OPTIONS = ("-std=c++17", f"-DSR_PULL_STEP={step}")
                sweep("bfs", gpu_traversal, "GRID_OPTIONS", [gpu_traversal.GRID_OPTIONS], bfs, 5)
            gpu_traversal.GRID_OPTIONS = ("-std=c++17",)
            sweep("bfs", BFS, "DEVICE_LOOP", [True, False], bfs, 5)
            sweep("bfs", traversal, "BFS_GRID_BLOCKS_PER_SM", [1, 2, 3, 4], bfs, 5)
            sweep("bfs", BFS, "ALPHA", [4, 14, 40], bfs, 5)
            sweep("bfs", BFS, "BETA", [8, 24, 72], bfs, 5)
            BFS.DEVICE_LOOP = False
            sweep("bfs", BFS, "FUSED_EDGES", [16384, 262144], bfs, 5)
            BFS.DEVICE_LOOP = True
        if "sssp" not in what:
            continue
        W = A  # the generated weights, uniform in [1, 255]
        reps = 1 if grid else 5
        for name, f in (("bf", lambda: algorithms.bellman_ford(W, source, symmetric=True)),
                        ("delta", lambda: algorithms.delta_stepping(W, source, symmetric=True))):
            sweep(name, SSSP, "PULL_FRACTION", [1 / 4, 1 / 16, 1 / 64], f, reps)
            sweep(name, SSSP, "PULL_EDGE_FRACTION", [1.0, 1 / 4, 1 / 8, 1 / 16], f, reps)


if __name__ == "__main__":
    main(sys.argv[1:])
