"""One PageRank iteration's steps on the GPU, each timed alone (best of REPS, a device
synchronization each; issue 21 item 2): where a small PageRank's ~100-200 µs an iteration go.
urand-10-ef4 and urand-13-ef4 (the small suite's graphs). GPU only.

Usage: PYTHONPATH=. python3 bench/probes/pagerank_iteration_gpu.py [REPS=200]
"""
import sys

import cupy as cp

import algorithms as alg
import semiring as sr
from bench import generators as gen
from bench.timing import best_wall_ms

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())


def _best(f):
    return best_wall_ms(f, reps)


for label in ("urand-10-ef4", "urand-13-ef4"):
    A = sr.Matrix.from_scipy(gen.make_graph(gen.parse_graph_spec(label)), device="gpu")
    n = A.nrows
    x = cp.full(n, 1.0 / n)
    inv = cp.ones(n)
    u = x.copy()
    tel = 0.15 * u
    idx = cp.arange(3)
    t = x.copy()
    it = [0]
    alg.pagerank(A, 0.85, tol=1e-4 / n, weighted=False, progress=lambda i, e: it.__setitem__(0, i))
    rows = [
        ("pagerank whole", lambda: alg.pagerank(A, 0.85, tol=1e-4 / n, weighted=False)),
        ("empty sync", lambda: None),
        ("w = x * inv", lambda: x * inv),
        ("vxm pull plus_first", lambda: sr.vxm(x, A, sr.plus_first, direction="pull")),
        ("vxm auto plus_first", lambda: sr.vxm(x, A, sr.plus_first)),
        ("mxv(A.T) auto plus_first", lambda: sr.mxv(A.T, x, sr.plus_first)),
        ("vxm pull + to_dense", lambda: sr.vxm(x, A, sr.plus_first, direction="pull").to_dense(missing=0)),
        ("x[idx].sum() * u", lambda: x[idx].sum() * u),
        ("t *= d; t += tel", lambda: (t.__imul__(0.85), t.__iadd__(tel))),
        ("float(abs(t - x).sum())", lambda: float(cp.abs(t - x).sum())),
    ]
    print(f"{label}: n = {n}, {A.nvals} entries, {it[0]} iterations")
    for name, f in rows:
        print(f"  {name:32s} {1e3 * _best(f):9.1f} us")
