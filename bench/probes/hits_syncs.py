"""hits' power iteration on the engine (NetworkX 3.7's default method): one host sync an
iteration (``nx_semiring.centrality._hits_power_iteration``, session 30) against the loop
it replaced, which read the largest entry and then the L1 change (two syncs an iteration).
Both on the same converted graph; the results must be equal. Prints ms a call (median of
``--reps``), iterations and µs an iteration.

    PYTHONPATH=. python3 bench/probes/hits_syncs.py [--scales 10,14,17] [--reps 7]
"""

from __future__ import annotations

import argparse
import statistics
import time

import networkx as nx
import numpy as np

import algorithms as alg
import semiring as sr
from nx_semiring import centrality as cen
from nx_semiring.algorithms import _graph, _host, _node_dict


def two_syncs(G, max_iter=100, tol=1e-08):
    """The session 29 loop (uniform start, normalized): ``float(h.max())``, then
    ``float(abs(h - hlast).sum())``."""
    g = _graph(G, "weight")
    h = np.full(g.n, 1.0 / g.n)
    M, weighted = cen._hits_matrix(g)
    M, semiring = alg.centrality._weights("hits", M, weighted, M.xp)
    second = sr.plus_times if semiring is sr.plus_times else sr.plus_second
    h = sr.to_device(h, M.device)
    iters = 0
    for iters in range(1, max_iter + 1):
        hlast = h
        a = sr.vxm(hlast, M, semiring, direction="pull").to_dense(missing=0)
        h = sr.mxv(M, a, second, direction="pull").to_dense(missing=0)
        top = float(h.max())
        h = h / top
        if float(abs(h - hlast).sum()) < tol:
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
    args = ap.parse_args()
    print("device", sr.default_device(), "NetworkX", nx.__version__)
    rng = np.random.default_rng(0)
    for s in map(int, args.scales.split(",")):
        n = 1 << s
        src, dst = rng.integers(0, n, 8 * n), rng.integers(0, n, 8 * n)
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        G.add_edges_from(zip(src.tolist(), dst.tolist()))
        h1, a1 = cen._hits_power_iteration(G, 100, 1e-08, None, True)
        h0, a0, iters = two_syncs(G)
        same = h1 == h0 and a1 == a0
        t_new = timed(lambda: cen._hits_power_iteration(G, 100, 1e-08, None, True), args.reps)
        t_old = timed(lambda: two_syncs(G), args.reps)
        print(f"n=2^{s} m={G.number_of_edges()} iterations={iters} equal={same}: "
              f"two syncs {t_old:.2f} ms ({t_old / iters * 1e3:.1f} µs/it), "
              f"one sync {t_new:.2f} ms ({t_new / iters * 1e3:.1f} µs/it), "
              f"{t_old / t_new:.2f}x")


if __name__ == "__main__":
    main()
