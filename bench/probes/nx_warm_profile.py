"""Where a warm call of the NetworkX backend spends its time beyond the engine (issue 17).

For each family of the issue's measurement (BFS lengths, Dijkstra lengths, PageRank,
connected components, sampled betweenness, triangles) on one graph
(``nx_semiring.bench.kronecker_graph`` or ``grid_graph``), converted once per edge attribute,
it times (best of ``--reps``, synchronized on the GPU):

- ``call``: the dispatched function on the converted graph (``nx_semiring.algorithms``),
  result built as NetworkX's dict or list of sets;
- ``engine``: the engine's algorithm alone (``algorithms.*``) on the same matrix, result left
  on its device;
- ``host``: that result copied to the host (``sr.to_device(x, "cpu")``);

so ``call - engine - host`` is the adapter's share: labels, ordering, the dict or the sets.
With ``--profile`` a cProfile of one warm call per family (top functions by own time).
Optionally NetworkX's own call once (``--nx``; minutes on kron-18).

Usage: PYTHONPATH=. python3 bench/probes/nx_warm_profile.py [--kron 16 | --grid 300]
       [--families bfs,sssp,...] [--reps 5] [--bc-sources 4] [--profile] [--nx] [--json F]
"""

import argparse
import cProfile
import io
import json
import pstats
import time

import algorithms as alg
import semiring as sr
from nx_semiring import algorithms as nxa
from nx_semiring.bench import grid_graph, kronecker_graph
from nx_semiring.graph import from_networkx


def _sync():
    if sr.default_device() == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        cupy.cuda.get_current_stream().synchronize()


def _best(f, reps):
    best = float("inf")
    out = None
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        _sync()
        best = min(best, time.perf_counter() - t)
    return best, out


def _families(G, g, gw, s, k):
    """family -> (the backend's call, the engine's call, NetworkX's call)"""
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    M, W = g.matrix(), gw.matrix("weight")
    return {
        "bfs": (lambda: nxa.single_source_shortest_path_length(g, s),
                lambda: alg.bfs(M, g.index[s], symmetric=True),
                lambda: nx.single_source_shortest_path_length(G, s)),
        "sssp": (lambda: nxa.single_source_dijkstra_path_length(gw, s),
                 lambda: alg.sssp(W, g.index[s], symmetric=True),
                 lambda: nx.single_source_dijkstra_path_length(G, s)),
        "pagerank": (lambda: nxa.pagerank(gw),
                     lambda: alg.pagerank(W, 0.85, tol=1e-6, max_iter=100, weighted=True),
                     lambda: nx.pagerank(G)),
        "components": (lambda: list(nxa.connected_components(g)),
                       lambda: alg.connected_components(M, symmetric=True),
                       lambda: list(nx.connected_components(G))),
        "bc": (lambda: nxa.betweenness_centrality(g, k=k, seed=0),
               lambda: alg.betweenness_centrality(M, k=k, seed=0, directed=False),
               lambda: nx.betweenness_centrality(G, k=k, seed=0)),
        "triangles": (lambda: nxa.triangles(g), lambda: alg.triangles(M),
                      lambda: nx.triangles(G)),
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kron", type=int, default=0)
    p.add_argument("--grid", type=int, default=0)
    p.add_argument("--families", default="bfs,sssp,pagerank,components,bc,triangles")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--bc-sources", type=int, default=4)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--nx", action="store_true", help="time NetworkX's own call once")
    p.add_argument("--json", default=None)
    a = p.parse_args(argv)
    if a.grid:
        name, G = f"grid-{a.grid}", grid_graph(a.grid)
    else:
        name, G = f"kron-{a.kron or 16}", kronecker_graph(a.kron or 16)
    s = max(G, key=G.degree)
    t = time.perf_counter()
    g = from_networkx(G, use_cache=False)
    g.matrix()
    _sync()
    t_conv = time.perf_counter() - t
    t = time.perf_counter()
    gw = from_networkx(G, edge_attrs={"weight": 1}, use_cache=False)
    gw.matrix("weight")
    _sync()
    t_convw = time.perf_counter() - t
    small = kronecker_graph(8)  # compile the kernels first
    gs, gsw = from_networkx(small, use_cache=False), from_networkx(
        small, edge_attrs={"weight": 1}, use_cache=False)
    calls = _families(G, g, gw, s, min(a.bc_sources, len(G)))
    warm = _families(small, gs, gsw, max(small, key=small.degree), 4)
    print(f"{name}: {len(G)} nodes, {g.adj.size} stored entries, device {sr.default_device()}; "
          f"convert {t_conv:.3f} s (structure), {t_convw:.3f} s (with weights)", flush=True)
    print("| family | call ms | engine ms | host copy ms | adapter ms | NetworkX s |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = []
    for fam in [f for f in a.families.split(",") if f]:
        f_sr, f_eng, f_nx = calls[fam]
        warm[fam][0]()
        warm[fam][1]()
        f_sr()  # first call: what the engine caches on the matrix
        t_call, _ = _best(f_sr, a.reps)
        t_eng, res = _best(f_eng, a.reps)
        t_host, _ = _best(lambda res=res: sr.to_device(res, "cpu") if sr.is_gpu_array(res)
                          else res, a.reps)
        t_nx = None
        if a.nx:
            t = time.perf_counter()
            f_nx()
            t_nx = time.perf_counter() - t
        rows.append({"graph": name, "family": fam, "call_s": t_call, "engine_s": t_eng,
                     "host_s": t_host, "networkx_s": t_nx, "convert_s": t_conv,
                     "convert_weight_s": t_convw})
        nx_cell = "-" if t_nx is None else f"{t_nx:.3f}"
        print(f"| {fam} | {t_call * 1e3:.2f} | {t_eng * 1e3:.2f} | {t_host * 1e3:.2f} | "
              f"{(t_call - t_eng - t_host) * 1e3:.2f} | {nx_cell} |", flush=True)
        if a.profile:
            prof = cProfile.Profile()
            prof.enable()
            f_sr()
            _sync()
            prof.disable()
            buf = io.StringIO()
            pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(8)
            print("\n".join(line for line in buf.getvalue().splitlines()
                            if line.strip() and "Ordered by" not in line
                            and "List reduced" not in line))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
