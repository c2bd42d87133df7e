"""What NetworkX's own order of a BFS length dict costs the backend (issue 17, session 15).

``single_source_shortest_path_length`` through the backend returns the levels ordered by
(distance, vertex) (``_length_dict``); NetworkX's dict is in its BFS discovery order (each
level in the order its queue finds it). The values are equal, the key order is not. This
probe times, on one graph, warm calls (best of ``--reps``, interleaved):

- ``by_distance``: the backend's call as it is (engine BFS, one sort, the dict);
- ``nx_order``: the engine's BFS, then the discovery order of each level by
  ``nx_semiring.algorithms._ordered_levels`` (one pass per level: vectorized over a wide
  level's out-edges, Python over a narrow one), then the dict;
- ``order_pass``: that pass alone;

and checks that ``nx_order``'s dict equals NetworkX's in order (``--check``, NetworkX's own
call once).

Usage: PYTHONPATH=. python3 bench/probes/nx_bfs_order.py [--grid 1000 | --kron 16]
       [--reps 5] [--check]
"""

import argparse
import time

import numpy as np

from nx_semiring import algorithms as nxa
from nx_semiring.bench import grid_graph, kronecker_graph
from nx_semiring.graph import from_networkx


def nx_order_lengths(g, s):
    level = nxa._bfs_level(g, s)
    keys, vals = [g.nodes[s]], [0]
    d = 0
    for _, children in nxa._ordered_levels(g, [s], np.inf, level):
        d += 1
        keys += g.labels(np.asarray(children, dtype=np.int64))
        vals += [d] * len(children)
    return dict(zip(keys, vals))


def order_pass(g, s):
    level = nxa._bfs_level(g, s)
    t0 = time.perf_counter()
    for _ in nxa._ordered_levels(g, [s], np.inf, level):
        pass
    return time.perf_counter() - t0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--grid", type=int, default=0)
    p.add_argument("--kron", type=int, default=0)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--source", type=int, default=0, help="-1: the vertex of largest degree")
    p.add_argument("--check", action="store_true")
    a = p.parse_args()
    G = grid_graph(a.grid) if a.grid else kronecker_graph(a.kron or 14)
    name = f"grid-{a.grid}" if a.grid else f"kron-{a.kron or 14}"
    g = from_networkx(G, use_cache=False)
    s = a.source if a.source >= 0 else int(np.argmax(np.diff(g.indptr)))  # -1: a hub
    nxa.single_source_shortest_path_length(g, s)  # warm: matrices, label arrays
    nx_order_lengths(g, s)
    t = {"by_distance": [], "nx_order": [], "order_pass": []}
    for _ in range(a.reps):
        t0 = time.perf_counter()
        r1 = nxa.single_source_shortest_path_length(g, s)
        t["by_distance"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        r2 = nx_order_lengths(g, s)
        t["nx_order"].append(time.perf_counter() - t0)
        t["order_pass"].append(order_pass(g, s))
    assert r1 == r2
    best = {k: min(v) * 1e3 for k, v in t.items()}
    print(f"{name}: n={g.n} stored={g.adj.size} reached={len(r1)} levels={max(r1.values()) + 1}")
    for k, v in best.items():
        print(f"  {k:12s} best {v:8.1f} ms   (all: {' '.join(f'{x * 1e3:.1f}' for x in t[k])})")
    print(f"  nx_order / by_distance = {best['nx_order'] / best['by_distance']:.2f}")
    if a.check:
        import networkx as nx  # noqa: PLC0415  (only for --check)

        ref = nx.single_source_shortest_path_length(G, s)
        print("  NetworkX order equal:", list(ref) == list(r2), "; by_distance order equal:",
              list(ref) == list(r1))


if __name__ == "__main__":
    main()
