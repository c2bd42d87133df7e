"""Where a small warm analytics call goes on the GPU (issue 21 item 2): PageRank, triangle
counting and connected components on urand-10-ef4 / urand-13-ef4 (the small suite's graphs),
each timed whole (best of REPS, a device synchronization each) and once under cProfile
(50 calls: the Python functions that hold the time, by cumulative time), and the same call on
a host copy (with the copies) for the host-route policy. GPU only.

Usage: PYTHONPATH=. python3 bench/probes/small_analytics_gpu.py [REPS=30]
"""
import cProfile
import io
import pstats
import sys

import cupy as cp

import algorithms as alg
import semiring as sr
from bench import generators as gen
from bench.timing import best_wall_ms

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 30
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())


sync = cp.cuda.Device().synchronize


def _best(f):
    return best_wall_ms(f, reps)


def _back(r):
    """A host result's arrays copied to the GPU (a host route's last step)."""
    if isinstance(r, tuple):
        return tuple(_back(x) for x in r)
    return cp.asarray(r) if hasattr(r, "__array__") and not isinstance(r, (int, float)) else r


CALLS = {
    "pagerank": lambda A: alg.pagerank(A, 0.85, tol=1e-4 / A.nrows, max_iter=100, weighted=False),
    "triangle_count": lambda A: alg.triangle_count(A),
    "connected_components": lambda A: alg.connected_components(A, symmetric=True),
}
for label in ("urand-10-ef4", "urand-13-ef4"):
    H = gen.make_graph(gen.parse_graph_spec(label))
    A = sr.Matrix.from_scipy(H, device="gpu")
    for name, f in CALLS.items():
        gpu = _best(lambda: f(A))
        host = _best(lambda: _back(f(A.to_cpu())))
        print(f"{label} {name}: GPU {gpu:.3f} ms, host copy {host:.3f} ms")
        if label == "urand-10-ef4":
            pr = cProfile.Profile()
            pr.enable()
            for _ in range(50):
                f(A); sync()
            pr.disable()
            s = io.StringIO()
            pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(28)
            print("\n".join(s.getvalue().splitlines()[6:40]))
