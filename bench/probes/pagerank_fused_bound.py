"""Where GPU input's PageRank should stop taking the fused variant (``pagerank.
GPU_FUSED_MAX_ENTRIES``): ``algorithms.pagerank`` on GPU input by the fused launch, by the
loop (the fused bound set below the graph), on the matrix's host copy (the route the fused
variant replaced below ``HOST_MAX_ENTRIES``), and the small suite's SciPy power iteration on
the host; then the sweep counts and the L1 distance between the fused and the loop's ranks.
The small suite's settings: damping 0.85, structure only, an L1 change below 1e-4. Median of
warm calls (synchronized), alternating.

Usage: PYTHONPATH=. python3 bench/probes/pagerank_fused_bound.py [GRAPH ...]
"""

import importlib
import statistics
import sys
import time

import numpy as np

import algorithms as alg
import semiring as sr
from bench import generators as gen
from bench.analytics_case import PR_DAMPING, PR_MAX_ITER, PR_TOL, pagerank_power

P = importlib.import_module("algorithms.pagerank")
GRAPHS = ["urand-10-ef4", "urand-13-ef4", "urand-16-ef8", "urand-18-ef8", "urand-20-ef16",
          "grid-100x100", "grid-1000x1000", "kron-12", "kron-16", "kron-18", "kron-20"]


def _time(f, sync):
    t = time.perf_counter()
    r = f()
    sync()
    return time.perf_counter() - t, r


def _bound(A, bound, **kw):
    def run():
        saved, P.GPU_FUSED_MAX_ENTRIES = P.GPU_FUSED_MAX_ENTRIES, bound
        try:
            return alg.pagerank(A, PR_DAMPING, tol=PR_TOL / A.nrows, max_iter=PR_MAX_ITER,
                                weighted=False, **kw)
        finally:
            P.GPU_FUSED_MAX_ENTRIES = saved
    return run


def main(names):
    import cupy  # noqa: PLC0415  (a GPU probe)

    sync = cupy.cuda.get_current_stream().synchronize
    for name in names:
        H = gen.make_graph(gen.parse_graph_spec(name), xp=np)
        A = sr.Matrix.from_scipy(H, device="gpu")
        C = A._host_copy()
        ways = {"fused": _bound(A, 1 << 62), "loop": _bound(A, -1),
                "host": lambda: alg.pagerank(C, PR_DAMPING, tol=PR_TOL / A.nrows,
                                             max_iter=PR_MAX_ITER, weighted=False),
                "scipy": lambda: pagerank_power(H, tol=PR_TOL, max_iter=PR_MAX_ITER)[0]}
        first, _ = _time(ways["fused"], sync)
        one, _ = _time(ways["loop"], sync)
        reps = 30 if one < 0.02 else 7 if one < 0.5 else 3
        runs = {k: [] for k in ways}
        for i in range(reps + 1):
            for way, f in ways.items():
                if way in ("host", "scipy") and A.nvals > 1 << 24:
                    continue
                dt, _ = _time(f, sync)
                if i:
                    runs[way].append(dt)
        med = {k: statistics.median(v) * 1e3 for k, v in runs.items() if v}
        seen = []
        _bound(A, -1, progress=lambda it, e: seen.append(it))()
        x_f, x_l = ways["fused"](), ways["loop"]()
        l1 = float(abs(x_f - x_l).sum())
        print(f"{name}: n {A.nrows} nvals {A.nvals}; ms "
              + " ".join(f"{k} {v:.3f}" for k, v in med.items())
              + f"; loop sweeps {len(seen)}; L1(fused - loop) {l1:.2e}"
              f" (first fused {first * 1e3:.1f})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or GRAPHS)
