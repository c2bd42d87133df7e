"""Where small GPU input should take the csgraph facade's host route (issue 15 item 4b): for
each routed function and size, SciPy on the host input, the facade on GPU input through the
route (``_validation.HOST_MAX_WORK`` forced high: SciPy on a host copy, results uploaded) and
through the engine (forced 0), best of REPS warm calls, ms. The work estimate the threshold
compares (``_validation._work``: stored entries x searches) is printed with each row.

The route column forces both bounds (``HOST_MAX_WORK`` and ``HOST_MAX_WORK_BATCH``), the engine
column switches the rule off. SciPy's column is left out (nan) past a call's SciPy size (its
Bellman–Ford and Johnson are O(N · nnz)); the route's and the engine's still run.

Usage: PYTHONPATH=. python3 bench/probes/csgraph_route.py [REPS=7] [MAX_N=100000] [N,N,...]"""
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import semiring as sr
from algorithms import csgraph
from algorithms.csgraph import _validation

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 7
max_n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
sizes = ([int(x) for x in sys.argv[3].split(",")] if len(sys.argv) > 3
         else [1000, 3000, 10_000, 30_000, 100_000])
gpu = sr.gpu_available()
if gpu:
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
    sync = cp.cuda.Device().synchronize
else:
    def sync():
        return None


def best(f):
    f()
    sync()
    t = 1e9
    for _ in range(reps):
        sync()
        t0 = time.perf_counter()
        f()
        sync()
        t = min(t, time.perf_counter() - t0)
    return t * 1e3


SRC8 = list(range(8))
CALLS = {  # name: (HOST_MAX_WORK key, call(module, G), max n of SciPy's column)
    "breadth_first_order": ("breadth_first_order",
                            lambda m, G: m.breadth_first_order(G, 0, return_predecessors=False),
                            10**9),
    "breadth_first_tree": ("breadth_first_tree", lambda m, G: m.breadth_first_tree(G, 0), 10**9),
    "dijkstra": ("dijkstra", lambda m, G: m.dijkstra(G, indices=0), 10**9),
    "dijkstra x8": ("dijkstra", lambda m, G: m.dijkstra(G, indices=SRC8), 10**9),
    "dijkstra pred": ("dijkstra", lambda m, G: m.dijkstra(G, indices=0,
                                                          return_predecessors=True), 10**9),
    # SciPy's Bellman-Ford (and Johnson's, which runs it) costs O(n m): 0.35 s at n = 3000
    "bellman_ford": ("bellman_ford", lambda m, G: m.bellman_ford(G, indices=0), 1000),
    "bellman_ford x8": ("bellman_ford", lambda m, G: m.bellman_ford(G, indices=SRC8), 1000),
    "johnson": ("johnson", lambda m, G: m.johnson(G, indices=0), 1000),
    "shortest_path": ("shortest_path", lambda m, G: m.shortest_path(G, indices=0), 10**9),
    "connected_components": ("connected_components",
                             lambda m, G: m.connected_components(G, directed=False), 10**9),
    "minimum_spanning_tree": ("minimum_spanning_tree",
                              lambda m, G: m.minimum_spanning_tree(G), 10**9),
}

print(f"{'call':<22} {'n':>7} {'work':>10} {'scipy':>8} {'route':>8} {'engine':>8}  faster")
saved = dict(_validation.HOST_MAX_WORK), dict(_validation.HOST_MAX_WORK_BATCH)
for n in sizes:
    if n > max_n:
        break
    rng = np.random.default_rng(n)
    m = 8 * n
    S = sp.csr_matrix((rng.integers(1, 10, m).astype(np.float64),
                       (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n))
    S.sum_duplicates()
    G = cps.csr_matrix(S) if gpu else S
    for name, (key, call, nmax) in CALLS.items():
        row = [best(lambda: call(scg, S)) if n <= nmax else float("nan")]
        idx = SRC8 if "x8" in name else (() if name in ("connected_components",
                                                         "minimum_spanning_tree") else 0)
        work = _validation._work(G, idx)
        if gpu:
            for limit in (1 << 62, 0):
                _validation.HOST_MAX_WORK[key] = limit
                if key in _validation.HOST_MAX_WORK_BATCH:
                    _validation.HOST_MAX_WORK_BATCH[key] = limit
                try:
                    row.append(best(lambda: call(csgraph, G)))
                except Exception as e:  # reported, the probe goes on
                    print(f"  {name} n={n} limit={limit}: {type(e).__name__}: {e}")
                    row.append(float("nan"))
            _validation.HOST_MAX_WORK.update(saved[0])
            _validation.HOST_MAX_WORK_BATCH.update(saved[1])
        else:
            row += [float("nan"), float("nan")]
        faster = "route" if row[1] < row[2] else "engine"
        print(f"{name:<22} {n:>7} {work:>10} {row[0]:8.3f} {row[1]:8.3f} {row[2]:8.3f}  {faster}",
              flush=True)
