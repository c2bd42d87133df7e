"""What each ``bench/csgraph_case.py`` function costs through the csgraph facade's engine path
(issue 15: "high-diameter graphs must cost O(n + m) on every backend"), against SciPy.

On the CPU the engine path is forced on host input (``_validation.FORCE_ENGINE``, the tests'
switch: the GPU's code on NumPy); on the GPU the input is a cupyx CSR. The small-input route
to SciPy (``_validation.HOST_MAX_WORK``) is left as it is unless ``--no-route``. Each call runs
once warm (one untimed call first) under an alarm of ``--limit`` seconds (``inf`` when it
ran out); ``--scipy`` also times SciPy's routine on the host CSR. Graphs: bench specs
(``kron-14``, ``grid-256x256``, ...) or ``path-N`` (an undirected path, weights 1..9).

Usage: PYTHONPATH=. python3 bench/probes/csgraph_cost.py --device cpu --scipy \\
    --graphs kron-14,grid-256x256,path-100000 [--functions dijkstra_batch,...] [--limit 60]
"""
import argparse
import signal
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from algorithms.csgraph import _validation
from bench.csgraph_case import BATCH, BF_MAX_NNZ, FUNCTIONS
from bench.generators import make_graph, parse_graph_spec


cp = cps = None  # CuPy is optional: imported for --device gpu


class _Late(Exception):
    pass


def _alarm(*_):
    raise _Late()


def _graph(spec: str, xp=np) -> sp.csr_matrix:
    if spec.startswith("path-"):
        n = int(spec[5:])
        r = np.arange(n - 1)
        w = np.random.default_rng(0).integers(1, 10, n - 1).astype(np.float64)
        return sp.csr_matrix((np.r_[w, w], (np.r_[r, r + 1], np.r_[r + 1, r])), shape=(n, n))
    A = make_graph(parse_graph_spec(spec), xp=xp)  # generated on the device where there is one
    A = A.get() if hasattr(A, "get") else A
    return sp.csr_matrix(A) if not sp.issparse(A) else A.tocsr()


def _call(mod, fn, G, s, batch):
    if fn == "dijkstra_batch":
        return mod.dijkstra(G, indices=batch)
    f = getattr(mod, fn)
    if fn in ("breadth_first_order", "depth_first_order"):
        return f(G, s, return_predecessors=False)
    if fn == "breadth_first_tree":
        return f(G, s)
    if fn in ("dijkstra", "bellman_ford"):
        return f(G, indices=s)
    if fn == "connected_components":
        return f(G, directed=False)[1]
    return f(G)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--graphs", default="kron-14,grid-256x256")
    ap.add_argument("--functions", default=",".join(FUNCTIONS))
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--scipy", action="store_true")
    ap.add_argument("--no-route", action="store_true")
    a = ap.parse_args()
    global cp, cps
    if a.no_route:
        for table in (_validation.HOST_MAX_WORK, _validation.HOST_MAX_WORK_BATCH):
            for k in table:
                table[k] = 0
    if a.device == "gpu":
        import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)
        print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), flush=True)
        sync = cp.cuda.Device().synchronize
    else:
        _validation.FORCE_ENGINE = True

        def sync():
            return None
    signal.signal(signal.SIGALRM, _alarm)
    for spec in a.graphs.split(","):
        H = _graph(spec, cp if a.device == "gpu" else np)
        deg = np.diff(H.indptr)
        cand = np.flatnonzero(deg)
        s, batch = int(cand[0]), cand[:BATCH].astype(np.int64)
        G = H if a.device == "cpu" else cps.csr_matrix(H)
        print(f"{spec}: n {H.shape[0]}, nnz {H.nnz}", flush=True)
        for fn in a.functions.split(","):
            if fn == "bellman_ford" and H.nnz > BF_MAX_NNZ:
                continue
            row = f"  {fn:22s}"
            if a.scipy:
                t0 = time.perf_counter()
                _call(scg, fn, H, s, batch)
                ts = (time.perf_counter() - t0) * 1e3
                row += f" scipy {ts:9.1f} ms"
            signal.alarm(max(1, int(a.limit)))
            try:
                _call(csgraph, fn, G, s, batch)  # warm: first-call compiles and caches
                sync()
                t0 = time.perf_counter()
                _call(csgraph, fn, G, s, batch)
                sync()
                te = (time.perf_counter() - t0) * 1e3
            except _Late:
                te = float("inf")
            finally:
                signal.alarm(0)
            row += f"  facade-{a.device} {te:9.1f} ms"
            if a.scipy:
                row += f"  x{te / ts:7.1f}"
            print(row, flush=True)


if __name__ == "__main__":
    main()
