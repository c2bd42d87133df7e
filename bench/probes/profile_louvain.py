"""cProfile of one warm algorithms.louvain call (host view, GPU synchronized at the end), to
see which steps of a sweep cost on the device at hand.

Usage: PYTHONPATH=. python3 bench/probes/profile_louvain.py [SCALE=14] [--device gpu|cpu]"""
import cProfile
import pstats
import sys
import time

import numpy as np

import algorithms as alg
import semiring as sr
from bench import generators as gen

scale = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 14
device = "cpu" if "cpu" in sys.argv else "gpu"
S = gen.make_graph(gen.parse_graph_spec(f"kron-{scale}"), xp=np, cache_dir=None)
A = sr.Matrix.from_scipy(S, device=device)
if device == "gpu":
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    sync = cp.cuda.runtime.deviceSynchronize
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
else:
    def sync():
        return None
alg.louvain(A)
sync()
t = time.perf_counter()
pr = cProfile.Profile()
pr.enable()
alg.louvain(A)
sync()
pr.disable()
print(f"kron-{scale} on {device}: {time.perf_counter() - t:.3f} s (profiled)")
pstats.Stats(pr).sort_stats("cumtime").print_stats(45)
