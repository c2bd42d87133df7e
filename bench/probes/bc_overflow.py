"""Betweenness where shortest-path counts overflow float64 (issue 17): the engine against
NetworkX on a side x side grid, vertex by vertex: the kind of each value (NaN, inf, 0,
finite) and the largest relative difference of the finite ones.

From a corner, a grid of side >= 516 has more than 2^1024 shortest paths to the far corner
(σ = inf in both NetworkX and the engine); NetworkX's own values are then NaN at nearly
every vertex but 0 at the grid's corners (their dependency has no term), which the engine
must reproduce. Sources: both corners and the centre (NetworkX sampling with exactly these).

Usage: PYTHONPATH=. python3 bench/probes/bc_overflow.py [side (600)] [--device cpu|gpu]
(the 2-core host: side 600 takes ~5 s in NetworkX, ~16 s in the engine on the CPU)
"""

import argparse
import random
import time

import networkx as nx
import numpy as np

import algorithms
import semiring as sr


class FixedSample(random.Random):
    def __init__(self, nodes):
        super().__init__(0)
        self.nodes = list(nodes)

    def sample(self, population, k):
        return list(self.nodes)


def kinds(x):
    return np.select([np.isnan(x), np.isinf(x), x == 0], ["nan", "inf", "zero"], "finite")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("side", type=int, nargs="?", default=600)
    p.add_argument("--device", default=None)
    a = p.parse_args()
    m = a.side
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(m, m), ordering="sorted")
    n = len(G)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, nodelist=range(n), weight=None),
                             device=a.device or sr.default_device())
    src = [0, n - 1, (m // 2) * m + m // 2]
    t = time.perf_counter()
    ref = np.array([v for v in nx.betweenness_centrality(G, k=3, seed=FixedSample(src)).values()])
    t1 = time.perf_counter()
    got = sr.to_device(algorithms.betweenness_centrality(A, sources=src, directed=False), "cpu")
    t2 = time.perf_counter()
    kr, kg = kinds(ref), kinds(got)
    fin = (kr == "finite") & (kg == "finite")
    rel = float(np.max(np.abs(got[fin] - ref[fin]) / np.abs(ref[fin]), initial=0.0))
    print(f"grid {m}x{m}, sources {src}: NetworkX {t1 - t:.1f} s, engine ({A.device}) "
          f"{t2 - t1:.1f} s; NetworkX's kinds {dict(zip(*np.unique(kr, return_counts=True)))}; "
          f"vertices of another kind: {int((kr != kg).sum())}; max relative difference of the "
          f"finite values: {rel:.2e}")


if __name__ == "__main__":
    main()
