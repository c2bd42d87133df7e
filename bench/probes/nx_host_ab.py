"""The NetworkX backend's warm calls, this version against an older one, interleaved in one
process, beside the floor of building the same result (issue 17).

For each family of the issue's measurement (``nx_semiring.bench._cases``: BFS lengths,
Dijkstra lengths, PageRank, connected components, sampled betweenness, triangles) on one graph
(``nx_semiring.bench``'s Kronecker graph or grid), each version converts the graph once (its
own ``from_networkx``, untimed), makes a first call, then the two versions' warm calls
alternate ``--reps`` times; the best of each is printed with

- ``floor``: building the same result from ready lists: ``dict(zip(keys, values))`` with the
  new result's own keys and values (what NetworkX pays at the end of its own call), or for
  components ``[set(c) for c in lists]``;
- ``engine``: the engine's algorithm alone on the new version's matrix, its result copied to
  the host (what the adapter starts from);
- ``same``: the two versions' results are equal and their dicts iterate in the same order;
- with ``--once``: ``once`` per version, a graph used once: ``from_networkx`` afresh, the
  engine's matrix, and the first call (what the bench reports as ``convert_s + first_s``),
  best of ``--reps``, the versions interleaved.

The older version is a copy of the ``nx_semiring`` package under the name ``nx_semiring_old``
in the folder ``--old`` names, e.g.::

    git archive 3c53cf1 nx_semiring | tar -x -C /tmp/old && mv /tmp/old/nx_semiring \\
        /tmp/old/nx_semiring_old

Usage: PYTHONPATH=. python3 bench/probes/nx_host_ab.py grid:1000 --old /tmp/old
       [--families bfs,sssp,...] [--reps 5] [--bc-sources 2]
"""

import argparse
import importlib
import sys
import time

import algorithms as alg
import semiring as sr
from nx_semiring.bench import grid_graph, kronecker_graph

ATTRS = {"bfs": None, "sssp": "weight", "pagerank": "weight", "components": None, "bc": None,
         "triangles": None}


def _call(algs, fam, g, s, k):
    """The backend's call of ``nx_semiring.bench._cases`` through module ``algs``."""
    return {
        "bfs": lambda: algs.single_source_shortest_path_length(g, s),
        "sssp": lambda: algs.single_source_dijkstra_path_length(g, s),
        "pagerank": lambda: algs.pagerank(g),
        "components": lambda: list(algs.connected_components(g)),
        "bc": lambda: algs.betweenness_centrality(g, k=k, seed=0),
        "triangles": lambda: algs.triangles(g),
    }[fam]


def _sync():
    if sr.default_device() == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        cupy.cuda.get_current_stream().synchronize()


def _timed(f):
    t = time.perf_counter()
    out = f()
    _sync()
    return time.perf_counter() - t, out


def _engine(fam, g, s, k):
    """The engine's call of family ``fam`` on ``g``'s matrix, result on the host."""
    def host(x):
        return sr.to_device(x, "cpu") if sr.is_gpu_array(x) else x

    M, W = g.matrix(), g.matrix("weight") if fam in ("sssp", "pagerank") else None
    i = g.index[s]
    return {
        "bfs": lambda: host(alg.bfs(M, i, symmetric=True)),
        "sssp": lambda: host(alg.sssp(W, i, symmetric=True)),
        "pagerank": lambda: host(alg.pagerank(W, 0.85, tol=1e-6, max_iter=100, weighted=True)),
        "components": lambda: host(alg.connected_components(M, symmetric=True)),
        "bc": lambda: host(alg.betweenness_centrality(M, k=k, seed=0, directed=False)),
        "triangles": lambda: host(alg.triangles(M)),
    }[fam]


def _floor(result):
    """A function that builds ``result`` again from ready lists (the floor)."""
    if isinstance(result, list):
        lists = [list(c) for c in result]
        return lambda: [set(c) for c in lists]
    keys, values = list(result), list(result.values())
    return lambda: dict(zip(keys, values))


def _same(a, b) -> bool:
    if isinstance(a, list):
        return a == b
    return a == b and list(a) == list(b)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("graph", help="grid:SIDE or kron:SCALE")
    p.add_argument("--old", default=None, help="folder holding the package nx_semiring_old")
    p.add_argument("--families", default="bfs,sssp,pagerank,components,triangles")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--bc-sources", type=int, default=2)
    p.add_argument("--once", action="store_true", help="also time conversion + first call")
    a = p.parse_args(argv)
    versions = {"new": "nx_semiring"}
    if a.old:
        sys.path.insert(0, a.old)
        versions = {"old": "nx_semiring_old", "new": "nx_semiring"}
    mods = {tag: (importlib.import_module(f"{name}.graph"),
                  importlib.import_module(f"{name}.algorithms"))
            for tag, name in versions.items()}
    kind, size = a.graph.split(":")
    G = grid_graph(int(size)) if kind == "grid" else kronecker_graph(int(size))
    s = max(G, key=G.degree)
    print(f"{kind}-{size}: {len(G)} nodes, {sum(map(len, G._adj.values()))} stored entries; "
          f"engine on {sr.default_device()}; best of {a.reps}, versions interleaved",
          flush=True)
    cols = " | ".join(f"{t} ms" for t in versions)
    print(f"| family | {cols} | engine ms | floor ms | same |")
    print("|---|" + "---:|" * (len(versions) + 2) + "---|")
    for fam in a.families.split(","):
        attr = ATTRS[fam]
        calls, results = {}, {}
        for tag, (graph, algs) in mods.items():
            g = graph.from_networkx(G, edge_attrs=None if attr is None else {attr: 1},
                                    use_cache=False)
            g.matrix(attr)
            calls[tag] = _call(algs, fam, g, s, a.bc_sources)
            results[tag] = calls[tag]()  # the first call: what the engine caches
        floor = _floor(results["new"])
        engine = _engine(fam, g, s, a.bc_sources)  # g: the new version's graph
        engine()
        best = {t: float("inf") for t in (*versions, "engine", "floor")}
        for _ in range(a.reps):
            for tag in versions:
                best[tag] = min(best[tag], _timed(calls[tag])[0])
            best["engine"] = min(best["engine"], _timed(engine)[0])
            best["floor"] = min(best["floor"], _timed(floor)[0])
        if a.once:
            def once(graph, algs, attr=attr, fam=fam):
                g = graph.from_networkx(G, edge_attrs=None if attr is None else {attr: 1},
                                        use_cache=False)
                g.matrix(attr)
                return _call(algs, fam, g, s, a.bc_sources)()

            for _ in range(a.reps):
                for tag, (graph, algs) in mods.items():
                    key = f"{tag} once"
                    best[key] = min(best.get(key, float("inf")),
                                    _timed(lambda: once(graph, algs))[0])
        same = "-" if len(versions) == 1 else _same(results["old"], results["new"])
        cells = " | ".join(f"{best[t] * 1e3:.1f}" for t in versions)
        once = "".join(f" {t} once {best[f'{t} once'] * 1e3:.1f} ms;" for t in versions
                       if f"{t} once" in best)
        print(f"| {fam} | {cells} | {best['engine'] * 1e3:.1f} | {best['floor'] * 1e3:.1f} | "
              f"{same} |{once}", flush=True)


if __name__ == "__main__":
    main()
