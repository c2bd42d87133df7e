"""The fixed cost of warm small calls on the CPU backend against SciPy (issue 21 item 3).

Times ``sr.mxv`` (min-plus, dense x), ``sr.vxm`` (a 3-vertex frontier), ``algorithms.bfs``
and ``algorithms.sssp`` against SciPy's ``A @ x``, ``breadth_first_order`` and ``dijkstra``
on the small graphs of ``python -m bench --suite small`` and the quick suite's grids: the
smallest of 7 medians of 200 calls (50 for the searches), µs. Each engine answer is checked
against SciPy's first (the product's rows against a NumPy min-plus, the levels' reached set,
the distances). On a shared host run it interleaved with the tree it compares against:

    PYTHONPATH=. python3 bench/probes/cpu_call_cost.py [graph ...]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import scipy.sparse.csgraph as cg

import algorithms
import semiring as sr
from bench import generators as gen

GRAPHS = ("urand-10-ef4", "grid-64x64", "urand-13-ef4", "grid-128x128")


def _time(fn, reps=200, rounds=7) -> float:
    best = []
    for _ in range(rounds):
        ts = []
        for _ in range(reps):
            t = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t)
        best.append(np.median(ts))
    return min(best) * 1e6


def main(specs) -> None:
    for spec in specs:
        H = gen.generate(gen.parse_graph_spec(spec)).tocsr()
        A = sr.Matrix.from_scipy(H, device="cpu")
        n = H.shape[0]
        x = (np.random.default_rng(0).random(n) * 10).astype(H.dtype)
        xv = sr.Vector.from_dense(x, device="cpu")
        f = sr.Vector.from_coo([1, 5, 9], np.ones(3, H.dtype), size=n, device="cpu")
        # checks (and warm-up: the first calls compile or load kernels, build plans)
        y = sr.mxv(A, xv, sr.min_plus).to_dense(missing=np.inf)
        rows = np.repeat(np.arange(n), np.diff(H.indptr))
        ref = np.full(n, np.inf, dtype=H.dtype)
        np.minimum.at(ref, rows, H.data + x[H.indices])
        assert np.array_equal(y, ref), spec
        order = cg.breadth_first_order(H, 1, return_predecessors=False)
        assert np.array_equal(np.flatnonzero(algorithms.bfs(A, 1) >= 0), np.sort(order)), spec
        assert np.allclose(algorithms.sssp(A, 1), cg.dijkstra(H, indices=1)), spec
        for _ in range(3):
            sr.mxv(A, xv, sr.min_plus), sr.vxm(f, A, sr.min_plus)
        r = {
            "scipy A@x": _time(lambda: H @ x),
            "mxv": _time(lambda: sr.mxv(A, xv, sr.min_plus)),
            "vxm(3)": _time(lambda: sr.vxm(f, A, sr.min_plus)),
            "bfs": _time(lambda: algorithms.bfs(A, 1), reps=50),
            "scipy bfo": _time(lambda: cg.breadth_first_order(H, 1, return_predecessors=False),
                               reps=50),
            "sssp": _time(lambda: algorithms.sssp(A, 1), reps=50),
            "scipy dijkstra": _time(lambda: cg.dijkstra(H, indices=1), reps=50),
        }
        print(f"{spec} n={n} nnz={H.nnz} {H.dtype}: "
              + " ".join(f"{k}={v:.1f}" for k, v in r.items()), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or GRAPHS)
