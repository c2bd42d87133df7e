"""The NetworkX backend's conversion, step by step (issue 17): what ``convert_from_nx`` costs
per graph, against NetworkX's own ``nx.to_scipy_sparse_array`` (the same pass over ``G._adj``).

For each graph (``nx_semiring.bench``'s: Graph500 Kronecker with its labels permuted, and a
side x side grid, both with integer weights in [1, 255]) it prints the best of ``REPS`` runs of

- ``structure``: ``from_networkx(G)`` (labels, CSR in NetworkX's adjacency order);
- ``weight``: ``from_networkx(G, edge_attrs={"weight": 1})`` (the structure and one attribute);
- ``weight + matrix``: that and the engine's CSR of the weights (``g.matrix("weight")``, rows
  sorted; on the CPU here): what ``python -m nx_semiring.bench`` reports as ``convert``;
- ``weight after structure``: converting for ``weight`` when the structure-only conversion is
  in ``G.__networkx_cache__`` (a BFS, then an SSSP on the same graph);
- ``cached``: the same call again (served from the cache);
- ``nx.to_scipy_sparse_array``: NetworkX's own conversion with the weights, for comparison;
- ``walk``: every neighbour key of ``G._adj`` visited once and nothing kept, in C (a
  ``chain`` drained by a ``deque`` of length 0): the least any reader of the graph pays;
- with ``--bound``, NetworkX's BFS (``single_source_shortest_path_length`` from the vertex of
  largest degree) and ``connected_components`` once each, and their times over ``walk``: the
  most a backend can gain on a graph used once, whatever its engine (issue 17's target).

The cache is cleared before every timed conversion but the two that read it, so the probe
times the same work on a version of ``from_networkx`` that does not cache.

``--old PATH`` also times another version of ``nx_semiring/graph.py`` (e.g. from
``git show f83499c:nx_semiring/graph.py > /tmp/old_graph.py``) on the same graph, interleaved
with this one run by run (the first three steps), for before/after figures on a shared machine.

Usage: PYTHONPATH=. python3 bench/probes/nx_convert.py [kron:15] [grid:300] ... [--reps R]
       [--old /tmp/old_graph.py] [--bound]
"""

import argparse
import collections
import itertools
import time

import networkx as nx

from nx_semiring.bench import grid_graph, kronecker_graph
from nx_semiring.graph import from_networkx


def _best(f, reps, before=None):
    best = float("inf")
    for _ in range(reps):
        if before is not None:
            before()
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def probe(G, reps):
    def clear():
        G.__networkx_cache__.clear()

    def structure_cached():
        clear()
        nx.utils.backends._set_to_cache(G.__networkx_cache__, (False, False),
                                        from_networkx(G, device="cpu"), backend_name="semiring")

    W = {"weight": 1}
    return {
        "structure": _best(lambda: from_networkx(G, device="cpu"), reps, clear),
        "weight": _best(lambda: from_networkx(G, edge_attrs=W, device="cpu"), reps, clear),
        "weight + matrix": _best(
            lambda: from_networkx(G, edge_attrs=W, device="cpu").matrix("weight"), reps, clear),
        "weight after structure": _best(lambda: from_networkx(G, edge_attrs=W, device="cpu"),
                                        reps, structure_cached),
        "cached": _best(lambda: from_networkx(G, edge_attrs=W, device="cpu"), reps),
        "nx.to_scipy_sparse_array": _best(lambda: nx.to_scipy_sparse_array(G), reps, clear),
        "walk": _best(lambda: collections.deque(
            itertools.chain.from_iterable(G._adj.values()), maxlen=0), reps),
    }


def bound(G, walk):
    source = max(G, key=G.degree)
    for name, f in (("BFS", lambda: nx.single_source_shortest_path_length(G, source)),
                    ("components", lambda: list(nx.connected_components(G)))):
        t = _best(f, 1)
        print(f"  NetworkX {name:19s} {t * 1e3:10.1f} ms = {t / walk:5.1f} x walk "
              f"(the bound with the conversion)", flush=True)


def compare(G, old, reps):
    """Best of ``reps`` of the old and this ``from_networkx``, interleaved run by run."""
    W = {"weight": 1}
    steps = {
        "structure": (lambda m: m.from_networkx(G, device="cpu")),
        "weight": (lambda m: m.from_networkx(G, edge_attrs=W, device="cpu")),
        "weight + matrix": (
            lambda m: m.from_networkx(G, edge_attrs=W, device="cpu").matrix("weight")),
    }
    import nx_semiring.graph as new  # noqa: PLC0415  (this version, beside the old one)

    for name, f in steps.items():
        best = {"old": float("inf"), "new": float("inf")}
        for _ in range(reps):
            for tag, mod in (("old", old), ("new", new)):
                G.__networkx_cache__.clear()
                t = time.perf_counter()
                f(mod)
                best[tag] = min(best[tag], time.perf_counter() - t)
        print(f"  {name:28s} old {best['old'] * 1e3:10.1f} ms   new {best['new'] * 1e3:10.1f} ms",
              flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("graphs", nargs="*", default=["kron:15", "grid:300"])
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--old", default=None, help="another nx_semiring/graph.py to compare")
    p.add_argument("--bound", action="store_true",
                   help="also time NetworkX's BFS and components against the walk")
    a = p.parse_args()
    old = None
    if a.old:
        import importlib.util  # noqa: PLC0415  (only with --old)

        spec = importlib.util.spec_from_file_location("old_graph", a.old)
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)
    for spec in a.graphs:
        kind, size = spec.split(":")
        t = time.perf_counter()
        G = kronecker_graph(int(size)) if kind == "kron" else grid_graph(int(size))
        print(f"{kind}-{size}: {len(G)} nodes, {G.number_of_edges()} edges "
              f"({time.perf_counter() - t:.1f} s to build)", flush=True)
        if old is not None:
            compare(G, old, a.reps)
        times = probe(G, a.reps)
        for name, t in times.items():
            print(f"  {name:28s} {t * 1e3:10.1f} ms", flush=True)
        if a.bound:
            bound(G, times["walk"])
        del G


if __name__ == "__main__":
    main()
