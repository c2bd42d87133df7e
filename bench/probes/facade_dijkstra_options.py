"""The csgraph facade's Dijkstra options the compiled loop took in session 26 against SciPy's
on the host: ``unweighted=True`` (hop counts), a ``limit`` (the median of the weights times
4: part of each graph), ``directed=False`` (Aᵀ's rows relaxed too) and ``min_only`` (one
search from every source; with one source a plain search), alternating call by call, median ms; the answers compared bit
for bit. One source and 8 sources, float32 CSRs of the bench's graphs.

Usage: PYTHONPATH=. python3 bench/probes/facade_unweighted_dijkstra.py [REPS=15] [GRAPH ...]
"""
import statistics
import sys
import time

import numpy as np
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from bench import generators as gen

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
names = sys.argv[2:] or ["urand-10-ef5", "kron-14", "grid-256x256", "urand-16"]
for name in names:
    S = gen.make_graph(gen.parse_graph_spec(name), xp=np)
    cases = {"unweighted": {"unweighted": True},
             "limit": {"limit": 4 * float(np.median(S.data))},
             "undirected": {"directed": False}, "min_only": {"min_only": True}}
    for (case, kw), sources in ((c, s) for c in cases.items() for s in (0, list(range(8)))):
        ours, theirs = [], []
        for _ in range(reps):
            t = time.perf_counter()
            a = scg.dijkstra(S, indices=sources, **kw)
            theirs.append(time.perf_counter() - t)
            t = time.perf_counter()
            b = csgraph.dijkstra(S, indices=sources, **kw)
            ours.append(time.perf_counter() - t)
        assert np.array_equal(a.view(np.uint64), b.view(np.uint64))
        s, o = statistics.median(theirs) * 1e3, statistics.median(ours) * 1e3
        k = 1 if sources == 0 else len(sources)
        print(f"{name:<14} {case:<10} {k} source(s): SciPy {s:8.3f} ms, facade {o:8.3f} ms, {s / o:5.2f}x",
              flush=True)
