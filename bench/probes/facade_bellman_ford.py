"""The csgraph facade's ``bellman_ford`` and ``johnson`` asking for distances only on weights
>= 0 (the compiled Dijkstra's distances, bit for bit) against SciPy's own routines, alternating
call by call, median ms; one source and 8. SciPy's Bellman–Ford makes N - 1 passes over the
edges whatever the graph, so the graphs are small.

Usage: PYTHONPATH=. python3 bench/probes/facade_bellman_ford.py [REPS=7] [GRAPH ...]
"""
import statistics
import sys
import time

import numpy as np
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from bench import generators as gen

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 7
names = sys.argv[2:] or ["urand-10-ef5", "grid-32x32", "kron-10"]
for name in names:
    S = gen.make_graph(gen.parse_graph_spec(name), xp=np)
    for fn in ("bellman_ford", "johnson"):
        for sources in (0, list(range(8))):
            ours, theirs = [], []
            for _ in range(reps):
                t = time.perf_counter()
                a = getattr(scg, fn)(S, indices=sources)
                theirs.append(time.perf_counter() - t)
                t = time.perf_counter()
                b = getattr(csgraph, fn)(S, indices=sources)
                ours.append(time.perf_counter() - t)
            assert np.array_equal(a.view(np.uint64), b.view(np.uint64))
            s, o = statistics.median(theirs) * 1e3, statistics.median(ours) * 1e3
            k = 1 if sources == 0 else len(sources)
            print(f"{name:<14} {fn:<13} {k} source(s): SciPy {s:9.3f} ms, facade {o:8.3f} ms, "
                  f"{s / o:7.1f}x", flush=True)
