"""hits' power iteration on the engine (NetworkX 3.7's default method,
``nx_semiring.centrality._hits_power_iteration``): its loop, which reads the largest entry
and then the L1 change (two host reads an iteration), against a variant that stacks both
into one copy (one sync an iteration, a launch more), on GPU input; and with the host route
of small GPU input (``algorithms.pagerank.host_route``, below
``algorithms.pagerank.HOST_MAX_ENTRIES`` stored entries) on and off. The results must be
equal. Prints ms a call (median of ``--reps``), iterations and "µs/it", the call's time over
its iterations: the two result dicts included, most of a call at 2^17 vertices (session 30
call 4's profile: 22 of 36 ms; the loop ~0.2 ms an iteration).

Session 30 (H200, bench/results/session30/): the one-copy variant lost, 0.87x at 2^10
vertices and 0.89x at 2^14, 1.04x at 2^17; the host route is what small graphs needed.

    PYTHONPATH=. python3 bench/probes/hits_syncs.py [--scales 10,14,17] [--reps 7]
        [--profile N]   # then a cProfile of the loop at the last scale, N rows by own time
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import pstats
import statistics
import time

import networkx as nx
import numpy as np

import algorithms as alg
import semiring as sr
from nx_semiring import centrality as cen
from nx_semiring.algorithms import _graph, _host, _node_dict

_pagerank = importlib.import_module("algorithms.pagerank")


def one_copy(G, max_iter=100, tol=1e-08):
    """The loop with both scalars in one copy (uniform start, normalized; no host route)."""
    g = _graph(G, "weight")
    h = np.full(g.n, 1.0 / g.n)
    M, weighted = cen._hits_matrix(g)
    M, semiring = alg.centrality._weights("hits", M, weighted, M.xp)
    second = sr.plus_times if semiring is sr.plus_times else sr.plus_second
    h = sr.to_device(h, M.device)
    xp = M.xp
    iters = 0
    for iters in range(1, max_iter + 1):
        hlast = h
        a = sr.vxm(hlast, M, semiring, direction="pull").to_dense(missing=0)
        h = sr.mxv(M, a, second, direction="pull").to_dense(missing=0)
        top = h.max()
        h = h / top
        top, change = _host(xp.stack((top, abs(h - hlast).sum()))).tolist()
        if change < tol:
            break
    return (_node_dict(g, _host(h / h.sum()).tolist()),
            _node_dict(g, _host(a / a.sum()).tolist()), iters)


def timed(f, reps):
    f()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", default="10,14,17")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--profile", type=int, default=0)
    args = ap.parse_args()
    print("device", sr.default_device(), "NetworkX", nx.__version__,
          "host route below", _pagerank.HOST_MAX_ENTRIES, "entries")
    bound = _pagerank.HOST_MAX_ENTRIES
    rng = np.random.default_rng(0)
    for s in map(int, args.scales.split(",")):
        n = 1 << s
        src, dst = rng.integers(0, n, 8 * n), rng.integers(0, n, 8 * n)
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        G.add_edges_from(zip(src.tolist(), dst.tolist()))

        def loop():
            return cen._hits_power_iteration(G, 100, 1e-08, None, True)

        _pagerank.HOST_MAX_ENTRIES = 0  # the GPU's loop
        h1, a1 = loop()
        h0, a0, iters = one_copy(G)
        same = h1 == h0 and a1 == a0
        t_loop = timed(loop, args.reps)
        t_one = timed(lambda: one_copy(G), args.reps)
        _pagerank.HOST_MAX_ENTRIES = bound
        routed = sr.default_device() == "gpu" and G.number_of_edges() < bound
        t_route = timed(loop, args.reps)
        h2, a2 = loop()
        close = all(abs(h2[v] - h1[v]) <= 1e-12 and abs(a2[v] - a1[v]) <= 1e-12 for v in G)
        print(f"n=2^{s} m={G.number_of_edges()} iterations={iters} equal={same}: "
              f"two reads {t_loop:.2f} ms ({t_loop / iters * 1e3:.1f} µs/it), "
              f"one copy {t_one:.2f} ms ({t_one / iters * 1e3:.1f} µs/it, "
              f"{t_loop / t_one:.2f}x); as routed ({'host copy' if routed else 'as above'}) "
              f"{t_route:.2f} ms ({t_route / iters * 1e3:.1f} µs/it, "
              f"{t_loop / t_route:.2f}x), within 1e-12: {close}")
    if args.profile:
        pr = cProfile.Profile()
        pr.enable()
        loop()
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
