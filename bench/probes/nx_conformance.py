"""An outside-in conformance sweep of the NetworkX backend (issue 17): random NetworkX graphs
of every kind a user hands NetworkX (Graph and DiGraph; int, string, tuple and mixed node
labels in shuffled insertion order; weights missing on some edges, integer, float, zero,
negative, under another attribute name; self-loops; isolated nodes; empty and one-node
graphs; attribute values 0, inf, NaN, bools, beyond int64, ints and floats mixed; a quarter of
the graphs seen through a view or frozen; Dijkstra and BFS cutoffs down to -1, PageRank's
personalization/nstart/dangling dicts that miss nodes, exhausted iterations, sampled
betweenness) through each dispatched function with ``backend="semiring"``, compared with NetworkX
itself: equal where the answer is unique (distances, levels, components, counts), valid where
ties allow several (paths: a path of the right length over existing edges; trees: the same
total weight), the same exception class where NetworkX raises. A call the backend refuses
(``can_run``) is counted, not compared.

Needs the package installed (the entry points): ``pip install -e .``.

Usage: python3 bench/probes/nx_conformance.py [N_GRAPHS=100] [SEED=0] [-v]
Prints one line per discrepancy (``DIFF``) and a summary per function; exit status 1 if any.
"""
from __future__ import annotations

import math
import sys
from collections import Counter

import networkx as nx
import numpy as np

BACKEND = "semiring"


def random_graph(rng, i):
    directed = bool(rng.integers(2))
    n = int(rng.choice([0, 1, 2, 5, 12, 30, 60]))
    G = nx.DiGraph() if directed else nx.Graph()
    kind = rng.integers(4)
    perm = rng.permutation(n)
    labels = {0: lambda k: int(k) * 3 + 7, 1: lambda k: f"v{k}", 2: lambda k: (int(k), "x"),
              3: lambda k: int(k) if k % 2 else f"s{k}"}[int(kind)]
    for k in perm:
        G.add_node(labels(k))
    nodes = list(G)
    m = int(rng.integers(0, 3 * n + 1)) if n else 0
    # 0 none, 1 int, 2 float, 3 some missing, 4 with negatives, 5 awkward values (0, inf, NaN,
    # bools, beyond int64), 6 ints and floats mixed
    wmode = int(rng.integers(7))
    for _ in range(m):
        u, v = nodes[rng.integers(n)], nodes[rng.integers(n)]
        if u == v and rng.random() > 0.2:
            continue
        attrs = {}
        if wmode == 1:
            attrs["weight"] = int(rng.integers(0, 10))
        elif wmode == 2:
            attrs["weight"] = float(rng.random() * 5)
        elif wmode == 3 and rng.random() < 0.7:
            attrs["weight"] = float(rng.integers(1, 6))
        elif wmode == 4:
            attrs["weight"] = float(rng.integers(-2, 8))
        elif wmode == 5 and rng.random() < 0.8:
            attrs["weight"] = AWKWARD[int(rng.integers(len(AWKWARD)))]
        elif wmode == 6:
            attrs["weight"] = int(rng.integers(1, 5)) if rng.random() < 0.5 else \
                float(rng.integers(1, 9)) / 2
        if rng.random() < 0.3:
            attrs["cost"] = float(rng.integers(1, 4))
        G.add_edge(u, v, **attrs)
    return _viewed(rng, G), wmode


# edge attribute values NetworkX adds up as Python numbers (mode 5)
AWKWARD = [0, 0.0, 1, 2.5, float("inf"), float("nan"), True, False, 2**70, 3]


def _viewed(rng, G):
    """G, or (a quarter of the time) a view of it or a frozen copy: a subgraph view, a
    restricted view without one edge, a reverse view (directed), an undirected view."""
    k = int(rng.integers(8))
    nodes = list(G)
    if k == 0 and nodes:
        return G.subgraph(nodes[:max(1, len(nodes) * 3 // 4)])
    if k == 1:
        edges = list(G.edges())
        return nx.restricted_view(G, [], edges[:1])
    if k == 2:
        return G.reverse(copy=False) if G.is_directed() else nx.freeze(G)
    if k == 3 and G.is_directed():
        return G.to_undirected(as_view=True)
    return G


def _call(f, *a, **k):
    try:
        r = f(*a, **k)
        if hasattr(r, "__next__"):
            r = list(r)
        return ("ok", r)
    except NotImplementedError as e:
        if "backend" in str(e).lower() or "semiring" in str(e).lower():
            return ("refused", str(e))
        return ("exc", type(e).__name__)
    except Exception as e:                     # noqa: BLE001 (compared by class)
        return ("exc", type(e).__name__)


def _path_ok(G, p, s, t, length, weight):
    if not p or p[0] != s or p[-1] != t:
        return False
    tot = 0.0
    for a, b in zip(p, p[1:]):
        if not G.has_edge(a, b):
            return False
        tot += 1 if weight is None else G[a][b].get(weight, 1)
    return math.isclose(tot, length, rel_tol=1e-9, abs_tol=1e-9)


def _close(a, b, tol=1e-9):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], tol) for k in a)
    if isinstance(a, float) or isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=tol, abs_tol=tol)
    return a == b


def cases(G, wmode, rng):
    """(name, callable taking backend kwargs, comparer) triples for this graph."""
    nodes = list(G)
    s = nodes[rng.integers(len(nodes))] if nodes else None
    t = nodes[rng.integers(len(nodes))] if nodes else None
    w = "cost" if rng.random() < 0.2 else "weight"
    dist = int(rng.integers(0, 4))
    eq = lambda a, b: a == b                                      # noqa: E731
    out = []
    if s is not None:
        out += [
            ("bfs_edges", lambda **k: nx.bfs_edges(G, s, **k), eq),
            ("bfs_layers", lambda **k: nx.bfs_layers(G, [s], **k), eq),
            ("bfs_predecessors", lambda **k: nx.bfs_predecessors(G, s, **k), eq),
            ("bfs_successors", lambda **k: nx.bfs_successors(G, s, **k), eq),
            ("bfs_tree", lambda **k: sorted(map(repr, nx.bfs_tree(G, s, **k).edges())),
             eq),
            ("descendants_at_distance",
             lambda **k: nx.descendants_at_distance(G, s, dist, **k), eq),
            ("single_source_shortest_path_length",
             lambda **k: nx.single_source_shortest_path_length(G, s, **k), eq),
            ("shortest_path_length", lambda **k: nx.shortest_path_length(G, s, **k), eq),
            ("has_path", lambda **k: nx.has_path(G, s, t, **k), eq),
            ("single_source_dijkstra_path_length",
             lambda **k: nx.single_source_dijkstra_path_length(G, s, weight=w, **k), _close),
            ("dijkstra_path_length",
             lambda **k: nx.dijkstra_path_length(G, s, t, weight=w, **k), _close),
            ("single_source_bellman_ford_path_length",
             lambda **k: nx.single_source_bellman_ford_path_length(G, s, weight=w, **k),
             _close),
            ("bellman_ford_path_length",
             lambda **k: nx.bellman_ford_path_length(G, s, t, weight=w, **k), _close),
        ]
        out.append(("single_source_dijkstra",
                    lambda **k: nx.single_source_dijkstra(G, s, weight=w, **k),
                    lambda a, b: _close(a[0], b[0]) and all(
                        _path_ok(G, a[1][x], s, x, a[0][x], w) for x in a[1])))
        out.append(("dijkstra_path", lambda **k: (nx.dijkstra_path_length(G, s, t, weight=w),
                                                   nx.dijkstra_path(G, s, t, weight=w, **k)),
                    lambda a, b: _path_ok(G, a[1], s, t, a[0], w)))
        out.append(("shortest_path", lambda **k: (nx.shortest_path_length(G, s, t),
                                                   nx.shortest_path(G, s, t, **k)),
                    lambda a, b: _path_ok(G, a[1], s, t, a[0], None)))
    if s is not None:
        cut = float(rng.choice([-1, 0, 1.5, 3]))
        pers = {v: float(rng.integers(0, 3)) for v in nodes if rng.random() < 0.5}
        kk = int(rng.integers(1, len(nodes) + 1))
        out += [
            ("dijkstra_cutoff", lambda **k: nx.single_source_dijkstra_path_length(
                G, s, cutoff=cut, weight=w, **k), _close),
            ("bfs_cutoff", lambda **k: nx.single_source_shortest_path_length(
                G, s, cutoff=cut, **k), eq),
            ("pagerank_personalization", lambda **k: nx.pagerank(
                G, personalization=pers, **k), lambda a, b: _close(a, b, 1e-4)),
            ("pagerank_nstart_dangling", lambda **k: nx.pagerank(
                G, nstart=pers or None, dangling=pers or None, **k),
             lambda a, b: _close(a, b, 1e-4)),
            ("pagerank_max_iter_2", lambda **k: nx.pagerank(G, max_iter=2, **k),
             lambda a, b: _close(a, b, 1e-4)),
            ("betweenness_k_seed", lambda **k: nx.betweenness_centrality(
                G, k=kk, seed=int(kk), endpoints=bool(kk % 2), normalized=bool(kk % 3), **k),
             lambda a, b: _close(a, b, 1e-7)),
        ]
    out += [
        ("negative_edge_cycle", lambda **k: nx.negative_edge_cycle(G, weight=w, **k), eq),
        ("all_pairs_shortest_path_length",
         lambda **k: dict(nx.all_pairs_shortest_path_length(G, **k)), eq),
        ("floyd_warshall_numpy",
         lambda **k: nx.floyd_warshall_numpy(G, weight=w, **k).tolist(),
         lambda a, b: np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
         or np.allclose(np.asarray(a), np.asarray(b), rtol=1e-9, atol=1e-12)),
        ("pagerank", lambda **k: nx.pagerank(G, **k), lambda a, b: _close(a, b, 1e-4)),
        ("betweenness_centrality", lambda **k: nx.betweenness_centrality(G, **k),
         lambda a, b: _close(a, b, 1e-7)),
        ("betweenness_centrality_weighted",
         lambda **k: nx.betweenness_centrality(G, weight=w, normalized=False, **k),
         lambda a, b: _close(a, b, 1e-7)),
        ("core_number", lambda **k: nx.core_number(G, **k), eq),
        ("triangles", lambda **k: nx.triangles(G, **k), eq),
        ("clustering", lambda **k: nx.clustering(G, **k), lambda a, b: _close(a, b, 1e-9)),
        ("clustering_weighted", lambda **k: nx.clustering(G, weight=w, **k),
         lambda a, b: _close(a, b, 1e-9)),
    ]
    if G.is_directed():
        out.append(("strongly_connected_components",
                    lambda **k: sorted(map(lambda c: sorted(map(repr, c)),
                                           nx.strongly_connected_components(G, **k))), eq))
    else:
        out += [
            ("connected_components",
             lambda **k: sorted(map(lambda c: sorted(map(repr, c)),
                                    nx.connected_components(G, **k))), eq),
            ("number_connected_components",
             lambda **k: nx.number_connected_components(G, **k), eq),
            ("is_connected", lambda **k: nx.is_connected(G, **k), eq),
            ("minimum_spanning_tree",
             lambda **k: nx.minimum_spanning_tree(G, weight=w, **k).size(weight=w),
             lambda a, b: _close(a, b, 1e-9)),
        ]
    return out


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if not a.startswith("-")]
    ngraphs = int(args[0]) if args else 100
    seed = int(args[1]) if len(args) > 1 else 0
    nx.config.fallback_to_nx = False
    nx.config.warnings_to_ignore.add("cache")
    rng = np.random.default_rng(seed)
    stats = Counter()
    diffs = 0
    for i in range(ngraphs):
        G, wmode = random_graph(rng, i)
        for name, call, same in cases(G, wmode, rng):
            ref = _call(call)
            got = _call(call, backend=BACKEND)
            if got[0] == "refused":
                stats[name, "refused"] += 1
                continue
            ok = (ref[0] == got[0] == "exc" and ref[1] == got[1]) or (
                ref[0] == got[0] == "ok" and same(got[1], ref[1]))
            stats[name, "ok" if ok else "DIFF"] += 1
            if not ok:
                diffs += 1
                print(f"DIFF graph {i} ({type(G).__name__}, n={G.number_of_nodes()}, "
                      f"m={G.number_of_edges()}, weights mode {wmode}) {name}: "
                      f"nx={str(ref)[:300]} backend={str(got)[:300]}", flush=True)
                if verbose:
                    print("   edges:", list(G.edges(data=True))[:40])
    names = sorted({k[0] for k in stats})
    for nm in names:
        print(f"{nm:40s} ok {stats[nm, 'ok']:4d}  DIFF {stats[nm, 'DIFF']:3d}  "
              f"refused {stats[nm, 'refused']:4d}")
    print(f"{diffs} discrepancies")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
