"""Where a warm NetworkX-backend call spends its time: ``python -m nx_semiring.bench``'s
calls (:func:`nx_semiring.bench._cases`) on a converted graph, timed warm (best of 5) and
profiled once (cProfile, the functions by own time).

Usage: PYTHONPATH=. python3 bench/probes/nx_profile.py GRAPH ALGS [TOP]
GRAPH: grid-SIDE or kron-SCALE; ALGS: comma list of bfs, sssp, pagerank, components, bc,
triangles; TOP: rows of the profile printed (12). The source (BFS, SSSP) is the vertex of
highest degree (vertex 0 of a Kronecker graph may be isolated).
"""

import cProfile
import pstats
import sys
import time

import nx_semiring.bench as B
from nx_semiring.graph import from_networkx


def main(graph, algs, top=12):
    kind, size = graph.split("-")
    G = B.grid_graph(int(size)) if kind == "grid" else B.kronecker_graph(int(size))
    source = max(G.degree, key=lambda item: item[1])[0]
    for alg in algs.split(","):
        attr, _, fsr, _ = B._cases(G, source)[alg]
        g = from_networkx(G, edge_attrs={attr: 1} if attr else None)
        fsr(g)
        best = min(_clock(fsr, g) for _ in range(5))
        print(f"== {graph} {alg}: warm {best * 1e3:.1f} ms (best of 5)")
        pr = cProfile.Profile()
        pr.enable()
        fsr(g)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(top)


def _clock(f, g):
    t = time.perf_counter()
    f(g)
    B._sync()
    return time.perf_counter() - t


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *(int(a) for a in sys.argv[3:]))
