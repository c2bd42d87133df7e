"""Where GPU input's triangle counts should stop taking the one-launch forward listing
(``triangles.GPU_FORWARD_MAX_ENTRIES``): ``algorithms.triangle_count`` on GPU input by
'forward' and by the products ('dot3'), the count on the matrix's host copy (the route the
listing replaced), SciPy's masked product on the host with its degree orientation (the small
suite's ``scipy-tc``); then the per-vertex counts (``triangles``) by 'forward' and 'mxm'; and
'forward' with other warp bounds (``fwN``: ``WARP_WALK`` = N; ``fwinf``: every walk a
thread's). Median of warm calls (synchronized), alternating.

Usage: PYTHONPATH=. python3 bench/probes/tc_forward_bound.py [GRAPH ...]
"""

import importlib
import statistics
import sys
import time

import numpy as np

import algorithms as alg
import semiring as sr
from bench import generators as gen
from bench.analytics_case import degree_oriented, scipy_triangles

T = importlib.import_module("algorithms.triangles")
K = importlib.import_module("semiring.backend.gpu.triangles")
GRAPHS = ["urand-10-ef4", "urand-13-ef4", "urand-15-ef4", "urand-16-ef8", "urand-18-ef8",
          "grid-100x100", "grid-300x300", "grid-1000x1000", "kron-10", "kron-12", "kron-14",
          "kron-15", "kron-16", "kron-18"]


def _time(f, sync):
    t = time.perf_counter()
    r = f()
    sync()
    return time.perf_counter() - t, r


def _walk(A, walk):
    def run():
        saved, K.WARP_WALK = K.WARP_WALK, walk
        try:
            return alg.triangle_count(A, method="forward")
        finally:
            K.WARP_WALK = saved
    return run


def main(names):
    import cupy  # noqa: PLC0415  (a GPU probe)

    sync = cupy.cuda.get_current_stream().synchronize
    for name in names:
        H = gen.make_graph(gen.parse_graph_spec(name), xp=np)
        A = sr.Matrix.from_scipy(H, device="gpu")
        C = A._host_copy()
        ways = {
            "forward": lambda: alg.triangle_count(A, method="forward"),
            "dot3": lambda: alg.triangle_count(A, method="dot3"),
            "host": lambda: alg.triangle_count(C),
            "scipy": lambda: scipy_triangles(degree_oriented(H)),
            "t_forward": lambda: int(alg.triangles(A, method="forward").sum()) // 3,
            "t_mxm": lambda: int(alg.triangles(A, method="mxm").sum()) // 3,
        }
        for walk in (16, 256, 1 << 62):
            ways[f"fw{walk if walk < 1 << 40 else 'inf'}"] = _walk(A, walk)
        first, _ = _time(ways["forward"], sync)
        one, _ = _time(ways["dot3"], sync)
        reps = 30 if one < 0.02 else 5 if one < 0.5 else 2
        runs = {k: [] for k in ways}
        counts = set()
        for i in range(reps + 1):
            for way, f in ways.items():
                if way in ("host", "scipy") and A.nvals > 1 << 22:
                    continue
                dt, r = _time(f, sync)
                counts.add(int(r))
                if i:
                    runs[way].append(dt)
        med = {k: statistics.median(v) * 1e3 for k, v in runs.items() if v}
        print(f"{name}: nvals {A.nvals}, counts {sorted(counts)}; ms "
              + " ".join(f"{k} {v:.3f}" for k, v in med.items())
              + f" (first forward {first * 1e3:.1f})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or GRAPHS)
