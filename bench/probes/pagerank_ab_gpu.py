"""PageRank's GPU iteration before and after the fused step (session 20: ``power_step``,
``kernels/power.cu``) on large graphs, in one run: ``algorithms.pagerank`` against the module
at OLD (the previous ``algorithms/pagerank.py``, loaded from its file), best of REPS, a
device synchronization each, the ranks compared. GPU only.

Usage: PYTHONPATH=. python3 bench/probes/pagerank_ab_gpu.py OLD [GRAPHS=kron-20,urand-22]
       [REPS=5]
"""
import importlib.util
import sys

import cupy as cp

import algorithms as alg
import semiring as sr
from bench import generators as gen
from bench.timing import best_wall_ms

spec = importlib.util.spec_from_file_location("pagerank_before", sys.argv[1])
old = importlib.util.module_from_spec(spec)
spec.loader.exec_module(old)
graphs = (sys.argv[2] if len(sys.argv) > 2 else "kron-20,urand-22").split(",")
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())


def _best(f):
    return best_wall_ms(f, reps)


for label in graphs:
    A = sr.Matrix.from_scipy(gen.make_graph(gen.parse_graph_spec(label)), device="gpu")
    tol = 1e-4 / A.nrows
    for variant in ("networkx", "gap"):
        new_f = lambda: alg.pagerank(A, 0.85, tol=tol, weighted=False, variant=variant)  # noqa: E731
        old_f = lambda: old.pagerank(A, 0.85, tol=tol, weighted=False, variant=variant)  # noqa: E731
        t_new, t_old = _best(new_f), _best(old_f)
        diff = float(cp.abs(new_f() - old_f()).max())
        print(f"{label} ({A.nvals} entries) {variant}: before {t_old:.2f} ms, after "
              f"{t_new:.2f} ms ({t_old / t_new:.2f}x), max |ranks difference| {diff:.2e}")
