"""Connected components of small GPU input (issue 21 item 2): the GPU's own paths against
the same call on the matrix's host copy (kept on it, ``Matrix._host_copy``; the labels
copied back), weak (Afforest) and strong (coloring rounds on the GPU, SciPy's Tarjan on
the host), best of REPS, a device synchronization each, beside SciPy's
``connected_components`` on the host. GPU only.

Usage: PYTHONPATH=. python3 bench/probes/small_components_gpu.py [REPS=50]
"""
import sys

import cupy as cp
import scipy.sparse.csgraph as csg

import algorithms as alg
import semiring as sr
from bench import generators as gen
from bench.timing import best_wall_ms

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 50
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())


def _best(f):
    return best_wall_ms(f, reps)


for label in ("urand-10-ef4", "grid-64x64", "urand-12-ef4", "grid-100x100", "urand-13-ef4"):
    S = gen.make_graph(gen.parse_graph_spec(label))
    A = sr.Matrix.from_scipy(S, device="gpu")
    H = A._host_copy()
    row = {
        "weak GPU": _best(lambda: alg.connected_components(A, symmetric=True)),
        "weak host copy": _best(lambda: sr.to_device(alg.connected_components(H, symmetric=True), "gpu")),
        "weak SciPy": _best(lambda: csg.connected_components(S, directed=False)),
        "strong GPU coloring": _best(lambda: alg.connected_components(A, "strong", method="coloring")),
        "strong GPU tarjan": _best(lambda: alg.connected_components(A, "strong", method="tarjan")),
        "strong host copy": _best(lambda: sr.to_device(alg.connected_components(H, "strong"), "gpu")),
        "strong SciPy": _best(lambda: csg.connected_components(S, connection="strong")),
    }
    print(f"{label} ({A.nvals} entries): " + ", ".join(f"{k} {v:.3f} ms" for k, v in row.items()))
