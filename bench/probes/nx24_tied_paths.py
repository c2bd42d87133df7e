"""single_source_dijkstra with paths (ties everywhere) through NetworkX and the backend.

Session 24: the backend answers Dijkstra's paths among ties by NetworkX's own heap loop,
compiled (``compiled.dijkstra_order(tree=True)``). Times, on a 316 x 316 grid with integer
weights 1..3 and on kron-15 (``bench.generators.kronecker``, GAP weights 1..255 as ints),
NetworkX's call and the dispatched call with the conversion cached (warm: the best of
``--repeat``), the answers compared (dict orders too), and the lengths-only call and
Bellman–Ford's paths (its queue loop compiled) beside.

    python -m bench.probes.nx24_tied_paths [--grid 316] [--kron 15] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import time
import warnings

import networkx as nx
import numpy as np

from bench import generators as gen


def grid(side, seed=0):
    rng = random.Random(seed)
    G = nx.grid_2d_graph(side, side)
    nx.set_edge_attributes(G, {e: rng.randint(1, 3) for e in G.edges}, "weight")
    return G


def kron(scale, seed=0):
    A = gen.kronecker(scale, seed=seed, dtype=np.int64)
    A = A.tocoo() if hasattr(A, "tocoo") else A
    G = nx.Graph()
    G.add_nodes_from(range(A.shape[0]))
    up = A.row < A.col
    G.add_weighted_edges_from(zip(A.row[up].tolist(), A.col[up].tolist(),
                                  A.data[up].tolist()))
    return G


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--grid", type=int, default=316)
    p.add_argument("--kron", type=int, default=15)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    warnings.simplefilter("ignore")
    for name, G in ((f"grid-{a.grid} (w 1..3)", grid(a.grid)),
                    (f"kron-{a.kron} (w 1..255)", kron(a.kron))):
        s = next(iter(G)) if "grid" in name else max(G, key=G.degree)
        for call in ("single_source_dijkstra", "single_source_dijkstra_path_length",
                     "single_source_bellman_ford"):
            f = getattr(nx, call)
            t_nx, want = best(lambda: f(G, s), a.repeat)
            f(G, s, backend="semiring")  # the conversion, cached on G, and compilation
            t_be, got = best(lambda: f(G, s, backend="semiring"), a.repeat)
            same = (list(want[0].items()), list(want[1].items())) == \
                (list(got[0].items()), list(got[1].items())) if isinstance(want, tuple) \
                else list(want.items()) == list(got.items())
            print(f"{name:22s} {call:36s} n={len(G)} m={G.number_of_edges()}  "
                  f"NetworkX {t_nx * 1e3:8.1f} ms  backend {t_be * 1e3:8.1f} ms  "
                  f"x{t_nx / t_be:5.2f}  same={same}")


if __name__ == "__main__":
    main()
