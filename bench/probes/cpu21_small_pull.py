"""Fixed cost of warm CPU products and analytics on small graphs against SciPy's own calls
(issue 21 items 2-3): urand-10-ef4 / urand-13-ef4, A/B interleaved, the median over ROUNDS
of each round's best of REPS calls, µs.

Usage: PYTHONPATH=. python bench/probes/cpu21_small_pull.py [ROUNDS=7] [REPS=200] [WHICH=all]
"""
import sys
import time

import numpy as np
import scipy.sparse.csgraph as scg

import algorithms
import semiring as sr
from algorithms import csgraph
from bench import generators as gen
from bench.analytics_case import pagerank_power

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 200
which = sys.argv[3] if len(sys.argv) > 3 else "all"


def best_us(f, k):
    t = 1e9
    for _ in range(k):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t * 1e6


def compare(cases, k):
    """cases: {name: fn}; interleaved rounds, median of the rounds' best (µs)."""
    for f in cases.values():
        f()
        f()
    res = {name: [] for name in cases}
    for _ in range(rounds):
        for name, f in cases.items():
            res[name].append(best_us(f, k))
    return {name: float(np.median(v)) for name, v in res.items()}


for scale in (10, 13):
    H = gen.urand(scale, 4)
    n = H.shape[0]
    A = sr.Matrix.from_scipy(H, device="cpu")
    x = np.random.default_rng(0).random(n)
    xv = sr.Vector.from_dense(x, device="cpu")
    H64 = H.astype(np.float64)
    HT = H64.T
    k = reps if scale == 10 else max(reps // 8, 10)
    if which in ("all", "prod"):
        r = compare({
            "scipy A.T @ x": lambda: HT @ x,
            "scipy A @ x": lambda: H64 @ x,
            "vxm plus_first Vector": lambda: sr.vxm(xv, A, sr.plus_first),
            "vxm plus_first array pull": lambda: sr.vxm(x, A, sr.plus_first, direction="pull"),
            "vxm plus_times Vector": lambda: sr.vxm(xv, A, sr.plus_times),
            "mxv plus_times Vector": lambda: sr.mxv(A, xv, sr.plus_times),
            "mxv plus_second Vector": lambda: sr.mxv(A, xv, sr.plus_second),
            "mxv min_plus Vector": lambda: sr.mxv(A, xv, sr.min_plus),
            "vxm plus_first + to_dense": lambda: sr.vxm(xv, A, sr.plus_first).to_dense(missing=0),
        }, k)
        for name, v in r.items():
            print(f"n={n} {name:32s} {v:9.1f} us", flush=True)
    if which in ("all", "alg"):
        kk = max(k // 20, 5)
        r = compare({
            "scipy pagerank_power": lambda: pagerank_power(H, tol=1e-4, max_iter=100)[0],
            "pagerank cpu": lambda: algorithms.pagerank(A, 0.85, tol=1e-4 / n, max_iter=100,
                                                        weighted=False),
            "scipy cc weak": lambda: scg.connected_components(H, directed=True,
                                                               connection="weak")[1],
            "cc cpu (symmetric)": lambda: algorithms.connected_components(A, symmetric=True),
            "csgraph cc": lambda: csgraph.connected_components(H, directed=True,
                                                               connection="weak"),
            "scipy bfo": lambda: scg.breadth_first_order(H, 0, return_predecessors=True),
            "bfs cpu": lambda: algorithms.bfs(A, 0),
            "scipy dijkstra": lambda: scg.dijkstra(H, indices=0),
            "sssp cpu": lambda: algorithms.sssp(A, 0),
        }, kk)
        for name, v in r.items():
            print(f"n={n} {name:32s} {v:9.1f} us", flush=True)
