"""Session 21-22's dispatched functions against NetworkX on input kinds (nx23, issue 17).

For each function of sessions 21-22 (the recognition tests, the structure measures, the
distance-sum indices, and the functions whose dicts and sets session 22 put in NetworkX's
order), each call variant (keyword arguments of the kinds NetworkX's signature accepts) and
each graph of a battery of input kinds — the four graph classes, the null and one-node graphs,
isolated nodes, self-loops, mixed unorderable labels (1, "a", (0, 1), frozenset), weights
missing on some edges, int / float / bool / NumPy / Fraction / Decimal weights, negative,
zero, inf and nan weights, frozen graphs, subgraph and reverse views — it runs the call with
NetworkX's own code and with the backend preferred (``backend_priority.algos = ["semiring"]``,
``fallback_to_nx``, ``should_run`` forced true: a refusal by ``can_run`` or the backend's
``NotImplementedError`` makes NetworkX run it) and compares the materialized answers
(values, number types, container types, dict key and set iteration order) or the exceptions'
types and messages. It prints the differing cases and a count.

Usage: PYTHONPATH=. python bench/probes/nx23_input_kinds.py [--seeds 3] [--only NAME,...]
(run from a scratch directory; the package must be installed for NetworkX's entry points)
"""

from __future__ import annotations

import argparse
import decimal
import fractions
import math
import random
import sys
import warnings

import networkx as nx
import numpy as np

from nx_semiring.interface import BackendInterface

warnings.simplefilter("ignore")
RAN = []
for _n in __import__("nx_semiring").FUNCTIONS:
    _f = getattr(BackendInterface, _n)

    def _w(*a, __f=_f, __n=_n, **k):
        RAN.append(__n)
        return __f(*a, **k)

    setattr(BackendInterface, _n, staticmethod(_w))
BackendInterface.should_run = staticmethod(lambda *a: True)
nx.config.warnings_to_ignore.add("cache")


def _clear(G):
    for H in (G, getattr(G, "_graph", None)):
        c = getattr(H, "__networkx_cache__", None)
        if c:
            c.clear()


def mat(r, depth=0):
    """An order- and type-keeping structure of r whose repr is compared."""
    if depth > 6:
        return repr(r)
    if isinstance(r, nx.Graph):
        edges = r.edges(keys=True, data=True) if r.is_multigraph() else r.edges(data=True)
        return (type(r).__name__, [(n, mat(d, depth + 1)) for n, d in r.nodes(data=True)],
                [tuple(e[:-1]) + (mat(e[-1], depth + 1),) for e in edges], mat(dict(r.graph)))
    if isinstance(r, dict):
        return (type(r).__name__, [(k, mat(v, depth + 1)) for k, v in r.items()])
    if isinstance(r, (list, tuple)):
        return (type(r).__name__, [mat(v, depth + 1) for v in r])
    if isinstance(r, (set, frozenset)):
        return (type(r).__name__, list(r))
    if isinstance(r, np.ndarray):
        return ("ndarray", str(r.dtype), r.tolist())
    if isinstance(r, (float, np.floating)):
        x = float(r)
        return (type(r).__name__, "nan" if math.isnan(x) else float(f"{x:.12g}"))
    if isinstance(r, (fractions.Fraction, decimal.Decimal)):
        return (type(r).__name__, str(r))
    if isinstance(r, (str, int, bool, type(None), np.integer, np.bool_)):
        return (type(r).__name__, r)
    if hasattr(r, "__iter__"):
        return (type(r).__name__, [mat(v, depth + 1) for v in r])
    return repr(r)


def run(backend_on, f, G):
    prio = nx.config.backend_priority
    _clear(G)
    if backend_on:
        prio.algos = ["semiring"]
        nx.config.fallback_to_nx = True
    else:
        prio.algos = []
    del RAN[:]
    try:
        try:
            r = ("ok", mat(f()))
        except Exception as e:  # noqa: BLE001  (NetworkX's exceptions are compared)
            r = ("exc", type(e).__name__, str(e)[:200])
    finally:
        prio.algos = []
    _clear(G)
    return r, list(RAN)


LABELS = {
    "int": lambda i: i,
    "mixed": lambda i: [1, "a", (0, 1), frozenset({2}), 2.5, "b", (3,), 7, None.__class__.__name__,
                        frozenset(), ("x", 1), 11][i % 12] if i < 12 else ("z", i),
}
WEIGHTS = {
    "int": lambda r: r.randint(0, 5),
    "float": lambda r: r.choice([0.5, 1.25, 2.0, 3.75, 0.0]),
    "bool": lambda r: r.choice([True, False, True]),
    "np_int": lambda r: np.int64(r.randint(1, 5)),
    "np_float": lambda r: np.float32(r.choice([0.5, 1.5, 2.25])),
    "fraction": lambda r: fractions.Fraction(r.randint(1, 6), r.randint(1, 3)),
    "decimal": lambda r: decimal.Decimal(r.choice(["0.5", "1.25", "2", "3.1"])),
    "negative": lambda r: r.randint(-2, 4),
    "inf": lambda r: r.choice([1, 2, math.inf]),
    "nan": lambda r: r.choice([1, 2, math.nan]),
    "mixed_num": lambda r: r.choice([1, 2.5, np.int64(3), fractions.Fraction(1, 2)]),
}


def graphs(seed):
    """(name, graph) pairs of the battery."""
    rng = random.Random(seed)
    out = []
    for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        c = cls.__name__
        out.append((f"{c}-null", cls()))
        one = cls()
        one.add_node("a")
        out.append((f"{c}-one", one))
        loop = cls()
        loop.add_edge(1, 1, weight=2)
        out.append((f"{c}-one-loop", loop))
        for lab in LABELS:
            for wk in WEIGHTS:
                n = rng.randint(2, 8)
                nodes = [LABELS[lab](i) for i in range(n)]
                rng.shuffle(nodes)
                G = cls()
                G.add_nodes_from(nodes + [LABELS[lab](n)])  # one isolated node at least
                shape = rng.choice(["random", "tree", "dag", "cycle"])
                for _ in range(rng.randint(0, 2 * n)):
                    i, j = rng.randrange(n), rng.randrange(n)
                    if shape == "tree" and j >= i:
                        continue
                    if shape == "dag" and i >= j:
                        continue
                    u, v = nodes[i], nodes[j]
                    if rng.random() < 0.8:
                        G.add_edge(u, v, weight=WEIGHTS[wk](rng))
                    else:
                        G.add_edge(u, v)  # no weight
                if shape == "cycle":
                    for i in range(n):
                        G.add_edge(nodes[i], nodes[(i + 1) % n], weight=WEIGHTS[wk](rng))
                if rng.random() < 0.3 and n:
                    G.add_edge(nodes[0], nodes[0], weight=WEIGHTS[wk](rng))
                out.append((f"{c}-{lab}-{wk}-{shape}", G))
                if rng.random() < 0.25:
                    out.append((f"{c}-{lab}-{wk}-{shape}-frozen", nx.freeze(G.copy())))
                if rng.random() < 0.25 and len(G) > 2:
                    keep = list(G)[:-1]
                    out.append((f"{c}-{lab}-{wk}-{shape}-subgraph", G.subgraph(keep)))
                if G.is_directed() and rng.random() < 0.3:
                    out.append((f"{c}-{lab}-{wk}-{shape}-reverse", G.reverse(copy=False)))
    return out


def _first(G):
    return next(iter(G), None)


def _two(G):
    it = iter(G)
    a = next(it, None)
    return a, next(it, a)


# name -> [(variant, call(G))]
W = ("weight", None, "missing")
CALLS = {
    "is_directed_acyclic_graph": [("", lambda G: nx.is_directed_acyclic_graph(G))],
    "has_cycle": [("", lambda G: nx.algorithms.dag.has_cycle(G))],
    "is_semiconnected": [("", lambda G: nx.is_semiconnected(G))],
    "is_aperiodic": [("", lambda G: nx.is_aperiodic(G))],
    "is_tree": [("", lambda G: nx.is_tree(G))],
    "is_forest": [("", lambda G: nx.is_forest(G))],
    "is_arborescence": [("", lambda G: nx.is_arborescence(G))],
    "is_branching": [("", lambda G: nx.is_branching(G))],
    "is_bipartite": [("", lambda G: nx.is_bipartite(G))],
    "color": [("", lambda G: nx.bipartite.color(G))],
    "sets": [("", lambda G: nx.bipartite.sets(G)),
             ("top", lambda G: nx.bipartite.sets(G, top_nodes=[_first(G)]))],
    "dag_longest_path_length": [
        (f"w={w}", lambda G, w=w: nx.dag_longest_path_length(G, weight=w))
        for w in W] + [("default_weight=2", lambda G: nx.dag_longest_path_length(
            G, default_weight=2)), ("default_weight=0.5", lambda G: nx.dag_longest_path_length(
                G, default_weight=0.5))],
    "flow_hierarchy": [(f"w={w}", lambda G, w=w: nx.flow_hierarchy(G, weight=w)) for w in W],
    "average_neighbor_degree": [
        (f"{s}/{t}/w={w}", lambda G, s=s, t=t, w=w: nx.average_neighbor_degree(
            G, source=s, target=t, weight=w))
        for s in ("out", "in", "in+out") for t in ("out", "in", "in+out") for w in W] + [
        ("nodes", lambda G: nx.average_neighbor_degree(G, nodes=list(G)[:2])),
        ("node", lambda G: nx.average_neighbor_degree(G, nodes=_first(G)))],
    "reciprocity": [("", lambda G: nx.reciprocity(G)),
                    ("nodes", lambda G: nx.reciprocity(G, nodes=list(G)[:3])),
                    ("node", lambda G: nx.reciprocity(G, nodes=_first(G)))],
    "overall_reciprocity": [("", lambda G: nx.overall_reciprocity(G))],
    "schultz_index": [(f"w={w}", lambda G, w=w: nx.schultz_index(G, weight=w)) for w in W],
    "gutman_index": [(f"w={w}", lambda G, w=w: nx.gutman_index(G, weight=w)) for w in W],
    "hyper_wiener_index": [(f"w={w}", lambda G, w=w: nx.hyper_wiener_index(G, weight=w))
                           for w in W],
    "wiener_index": [(f"w={w}", lambda G, w=w: nx.wiener_index(G, weight=w)) for w in W],
    "connected_components": [("", lambda G: list(nx.connected_components(G)))],
    "node_connected_component": [("", lambda G: nx.node_connected_component(G, _first(G)))],
    "weakly_connected_components": [("", lambda G: list(nx.weakly_connected_components(G)))],
    "strongly_connected_components": [("", lambda G: list(nx.strongly_connected_components(G)))],
    "attracting_components": [("", lambda G: list(nx.attracting_components(G))),
                              ("n", lambda G: nx.number_attracting_components(G))],
    "descendants": [("", lambda G: nx.descendants(G, _first(G)))],
    "ancestors": [("", lambda G: nx.ancestors(G, _first(G)))],
    "descendants_at_distance": [(f"d={d}", lambda G, d=d: nx.descendants_at_distance(
        G, _first(G), d)) for d in (0, 1, 2)],
    "single_source_shortest_path_length": [
        (f"cutoff={c}", lambda G, c=c: nx.single_source_shortest_path_length(G, _first(G), c))
        for c in (None, 0, 1, 2.5)],
    "all_pairs_shortest_path_length": [
        (f"cutoff={c}", lambda G, c=c: dict(nx.all_pairs_shortest_path_length(G, c)))
        for c in (None, 1)],
    "single_target_shortest_path_length": [
        ("", lambda G: dict(nx.single_target_shortest_path_length(G, _first(G))))],
    "shortest_path_length": [
        (f"{m}/w={w}", lambda G, m=m, w=w: (lambda r: dict(r) if not isinstance(r, dict) else r)(
            nx.shortest_path_length(G, _first(G), weight=w, method=m)))
        for m in ("dijkstra", "bellman-ford") for w in W] + [
        ("target", lambda G: nx.shortest_path_length(G, target=_first(G))),
        ("all", lambda G: dict(nx.shortest_path_length(G)))],
    "shortest_path": [
        (f"{m}/w={w}", lambda G, m=m, w=w: nx.shortest_path(G, _first(G), weight=w, method=m))
        for m in ("dijkstra", "bellman-ford") for w in W] + [
        ("target", lambda G: nx.shortest_path(G, target=_first(G), weight="weight"))],
    "single_source_dijkstra": [
        (f"w={w}/cutoff={c}", lambda G, w=w, c=c: nx.single_source_dijkstra(
            G, _first(G), cutoff=c, weight=w)) for w in W for c in (None, 2)],
    "single_source_dijkstra_path_length": [
        (f"w={w}", lambda G, w=w: nx.single_source_dijkstra_path_length(G, _first(G), weight=w))
        for w in W],
    "multi_source_dijkstra_path_length": [
        ("", lambda G: nx.multi_source_dijkstra_path_length(G, set(_two(G))))],
    "all_pairs_dijkstra_path_length": [
        (f"w={w}", lambda G, w=w: {k: v for k, v in nx.all_pairs_dijkstra_path_length(
            G, weight=w)}) for w in W],
    "dijkstra_predecessor_and_distance": [
        (f"w={w}", lambda G, w=w: nx.dijkstra_predecessor_and_distance(G, _first(G), weight=w))
        for w in W],
    "single_source_bellman_ford": [
        (f"w={w}", lambda G, w=w: nx.single_source_bellman_ford(G, _first(G), weight=w))
        for w in W],
    "single_source_bellman_ford_path_length": [
        (f"w={w}", lambda G, w=w: nx.single_source_bellman_ford_path_length(G, _first(G),
                                                                           weight=w))
        for w in W],
    "bellman_ford_predecessor_and_distance": [
        (f"w={w}", lambda G, w=w: nx.bellman_ford_predecessor_and_distance(G, _first(G),
                                                                          weight=w))
        for w in W] + [("target", lambda G: nx.bellman_ford_predecessor_and_distance(
            G, _first(G), target=_two(G)[1]))],
    "all_pairs_bellman_ford_path_length": [
        ("", lambda G: dict(nx.all_pairs_bellman_ford_path_length(G)))],
    "negative_edge_cycle": [(f"w={w}/{h}", lambda G, w=w, h=h: nx.negative_edge_cycle(
        G, weight=w, heuristic=h)) for w in W for h in (True, False)],
    "floyd_warshall_predecessor_and_distance": [
        (f"w={w}", lambda G, w=w: nx.floyd_warshall_predecessor_and_distance(G, weight=w))
        for w in W],
    "floyd_warshall": [(f"w={w}", lambda G, w=w: nx.floyd_warshall(G, weight=w)) for w in W],
    "johnson": [(f"w={w}", lambda G, w=w: nx.johnson(G, weight=w)) for w in W],
    "bfs_layers": [("", lambda G: list(nx.bfs_layers(G, _first(G))))],
    "bfs_edges": [(f"depth={d}/reverse={r}", lambda G, d=d, r=r: list(nx.bfs_edges(
        G, _first(G), reverse=r, depth_limit=d))) for d in (None, 1) for r in (False, True)],
    "bfs_tree": [("", lambda G: nx.bfs_tree(G, _first(G)))],
    "bfs_successors": [("", lambda G: list(nx.bfs_successors(G, _first(G))))],
    "bfs_predecessors": [("", lambda G: list(nx.bfs_predecessors(G, _first(G))))],
    "single_target_shortest_path": [("", lambda G: nx.single_target_shortest_path(
        G, _first(G)))],
    "single_source_shortest_path": [("", lambda G: nx.single_source_shortest_path(
        G, _first(G)))],
    "is_strongly_connected": [("", lambda G: nx.is_strongly_connected(G)),
                              ("n", lambda G: nx.number_strongly_connected_components(G))],
    "is_weakly_connected": [("", lambda G: nx.is_weakly_connected(G)),
                            ("n", lambda G: nx.number_weakly_connected_components(G))],
    "is_attracting_component": [("", lambda G: nx.is_attracting_component(G))],
    "is_connected": [("", lambda G: nx.is_connected(G)),
                     ("n", lambda G: nx.number_connected_components(G))],
    "eccentricity": [(f"w={w}", lambda G, w=w: nx.eccentricity(G, weight=w)) for w in W],
    "diameter": [(f"w={w}", lambda G, w=w: nx.diameter(G, weight=w)) for w in W],
    "closeness_centrality": [(f"d={w}", lambda G, w=w: nx.closeness_centrality(G, distance=w))
                             for w in W],
    "average_shortest_path_length": [(f"w={w}", lambda G, w=w: nx.average_shortest_path_length(
        G, weight=w)) for w in W],
    "barycenter": [(f"w={w}", lambda G, w=w: nx.barycenter(G, weight=w)) for w in W],
    "bidirectional_dijkstra": [("", lambda G: nx.bidirectional_dijkstra(G, *_two(G)))],
    "dijkstra_path_length": [(f"w={w}", lambda G, w=w: nx.dijkstra_path_length(
        G, *_two(G), weight=w)) for w in W],
    "global_efficiency": [("", lambda G: nx.global_efficiency(G))],
    "predecessor": [("", lambda G: nx.predecessor(G, _first(G))),
                    ("cutoff", lambda G: nx.predecessor(G, _first(G), cutoff=1)),
                    ("return_seen", lambda G: nx.predecessor(G, _first(G), return_seen=True))],
}


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=2)
    p.add_argument("--only", default="")
    a = p.parse_args()
    only = [x for x in a.only.split(",") if x]
    diffs = total = ran = 0
    seen = set()
    for seed in range(a.seeds):
        for gname, G in graphs(seed):
            for name, variants in CALLS.items():
                if only and name not in only:
                    continue
                for vname, call in variants:
                    ref, _ = run(False, lambda: call(G), G)
                    got, used = run(True, lambda: call(G), G)
                    total += 1
                    ran += bool(used)
                    if ref != got:
                        diffs += 1
                        key = (name, vname, gname.split("-")[0], gname.split("-")[-1])
                        if key in seen:
                            continue
                        seen.add(key)
                        print(f"DIFF {name} [{vname}] on {gname} (seed {seed}; backend ran "
                              f"{used})\n  nx:  {str(ref)[:400]}\n  us:  {str(got)[:400]}",
                              flush=True)
    print(f"\n{total} comparisons, the backend answered in {ran}, {diffs} differed")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
