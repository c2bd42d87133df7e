"""Where GPU input's triangle count should move to its host copy (``triangles.HOST_MAX_ENTRIES``):
``algorithms.triangle_count`` on GPU input by the GPU path (the bound 0) and by the host route
(the bound above the graph), against SciPy's masked product on the host (the small suite's
``scipy-tc``), median of 30 warm calls each, alternating.

Usage: PYTHONPATH=. python3 bench/probes/tc_host_bound.py [GRAPH ...]
(default: urand-10-ef4 urand-12-ef4 urand-13-ef4 grid-100x100 grid-160x160 kron-11 kron-12)
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


def _time(f, sync):
    t = time.perf_counter()
    r = f()
    sync()
    return time.perf_counter() - t, r


def main(names):
    import cupy  # noqa: PLC0415  (a GPU probe)

    sync = cupy.cuda.get_current_stream().synchronize
    saved = T.HOST_MAX_ENTRIES
    for name in names:
        H = gen.make_graph(gen.parse_graph_spec(name), xp=np)
        A = sr.Matrix.from_scipy(H, device="gpu")
        U = degree_oriented(H)
        runs = {"gpu": [], "host": [], "scipy": []}
        counts = set()
        for i in range(32):
            for way, bound in (("gpu", 0), ("host", A.nvals + 1)):
                T.HOST_MAX_ENTRIES = bound
                dt, r = _time(lambda: alg.triangle_count(A), sync)
                counts.add(int(r))
                if i >= 2:
                    runs[way].append(dt)
            dt, r = _time(lambda: scipy_triangles(U), lambda: None)
            counts.add(int(r))
            if i >= 2:
                runs["scipy"].append(dt)
        T.HOST_MAX_ENTRIES = saved
        med = {k: statistics.median(v) * 1e3 for k, v in runs.items()}
        print(f"{name}: nvals {A.nvals}, counts {sorted(counts)}; ms gpu {med['gpu']:.3f} "
              f"host {med['host']:.3f} scipy {med['scipy']:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["urand-10-ef4", "urand-12-ef4", "urand-13-ef4", "grid-100x100",
                          "grid-160x160", "kron-11", "kron-12"])
