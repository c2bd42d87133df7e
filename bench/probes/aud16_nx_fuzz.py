"""Session 20's outside-in audit (aud16): a differential fuzzer of the NetworkX backend's
session-19 functions against NetworkX itself, on random awkward graphs (mixed labels,
self-loops, isolated nodes, multigraphs, odd weight types, views, frozen graphs).

Run from a scratch directory: ``python bench/probes/aud16_nx_fuzz.py [seeds] [func ...]``.
Each mismatch prints the function, the graph's recipe and both answers; a refusal
(NotImplementedError from the backend: NetworkX would run it) counts as agreement.
"""

from __future__ import annotations

import copy
import math
import random
import sys
import traceback
import warnings
from decimal import Decimal
from fractions import Fraction

import networkx as nx
import numpy as np

import nx_semiring  # noqa: F401

warnings.simplefilter("ignore")

LABELS = [
    lambda i: i, lambda i: 10 * i + 3, lambda i: str(i), lambda i: (i,),
    lambda i: i if i % 2 else f"n{i}", lambda i: -i, lambda i: float(i) + 0.5,
    lambda i: (i, "x") if i % 3 == 0 else i,
]

WEIGHTS = [
    lambda r: r.randint(1, 9), lambda r: r.random() * 10, lambda r: r.choice([True, False]),
    lambda r: np.int64(r.randint(-5, 9)), lambda r: np.float64(r.random()),
    lambda r: np.int32(r.randint(1, 9)), lambda r: np.float32(r.random()),
    lambda r: Fraction(r.randint(1, 9), r.randint(1, 4)),
    lambda r: r.choice([1.0, math.nan, 2.0]), lambda r: r.choice([1, math.inf, 3]),
    lambda r: r.choice([1, -math.inf, 3]), lambda r: r.randint(-9, 9),
    lambda r: r.choice([0, 0, 1]), lambda r: r.choice([2**53 + 1, 1, 2**63 - 1]),
    lambda r: r.choice([1, 2, 3]), lambda r: Decimal(r.randint(1, 9)),
]


def make_graph(seed):
    r = random.Random(seed)
    kind = r.choice([nx.Graph, nx.Graph, nx.DiGraph, nx.DiGraph, nx.MultiGraph,
                     nx.MultiDiGraph])
    n = r.choice([0, 1, 1, 2, 3, 4, 5, 6, 8, 10, 15, 25, 40])
    lab = r.choice(LABELS)
    wf = r.choice(WEIGHTS)
    G = kind()
    nodes = [lab(i) for i in range(n)]
    r.shuffle(nodes) if r.random() < 0.5 else None
    G.add_nodes_from(nodes)
    p = r.choice([0.1, 0.3, 0.5, 0.9]) if n < 20 else r.choice([0.05, 0.1, 0.2])
    loops = r.random() < 0.3
    missing = r.random() < 0.2
    for u in nodes:
        for v in nodes:
            if u == v and not loops:
                continue
            if r.random() < p:
                d = {} if (missing and r.random() < 0.3) else {"weight": wf(r)}
                if r.random() < 0.2:
                    d["other"] = r.randint(0, 3)
                G.add_edge(u, v, **d)
    if G.is_multigraph():
        for u, v in list(G.edges())[: r.randint(0, 4)]:
            G.add_edge(u, v, weight=wf(r))
    view = r.random()
    desc = f"seed={seed} {kind.__name__} n={n} p={p} loops={loops} missing={missing}"
    if view < 0.1 and n > 2:
        G = G.subgraph(nodes[1:])
        desc += " subgraph-view"
    elif view < 0.15 and G.is_directed():
        G = nx.reverse_view(G)
        desc += " reverse-view"
    elif view < 0.2:
        nx.freeze(G)
        desc += " frozen"
    elif view < 0.25 and n > 2:
        G = nx.restricted_view(G, [nodes[0]], list(G.edges(keys=True) if G.is_multigraph()
                                                   else G.edges())[:1])
        desc += " restricted"
    return G, desc


def canon(x):
    if isinstance(x, nx.Graph):
        return ("graph", type(x).__name__, list(x.nodes(data=True)),
                list(x.edges(data=True)), dict(x.graph))
    if isinstance(x, dict):
        return ("dict", [(k, canon(v)) for k, v in x.items()])
    if hasattr(x, "__next__") or type(x).__name__ in ("dict_values", "generator"):
        return ("iter", [canon(v) for v in x])
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [canon(v) for v in x])
    if isinstance(x, (set, frozenset)):
        return ("set", x)
    return x


def same(a, b):
    if type(a) is not type(b):
        if isinstance(a, float) and isinstance(b, float):
            pass
        else:
            return False
    if isinstance(a, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-15
    if isinstance(a, tuple) and len(a) and a[0] == "graph":
        return a == b
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


AUTO = "--auto" in sys.argv  # NetworkX picks the backend itself (should_run consulted)


def run(f, args, kwargs, backend):
    if AUTO and backend == "semiring":
        # backend_priority: NetworkX asks can_run and should_run and falls back by itself
        kwargs = dict(kwargs)
        nx.config.backend_priority.algos = ["semiring"]
        nx.config.fallback_to_nx = True
        try:
            return run(lambda *a, backend=None, **k: f(*a, **k), args, kwargs, "auto")
        finally:
            nx.config.backend_priority.algos = []
            nx.config.fallback_to_nx = False
    # each side gets its own copy of a random.Random seed (NetworkX draws from it)
    kwargs = {k: copy.deepcopy(v) if isinstance(v, (random.Random, np.random.Generator))
              else v for k, v in kwargs.items()}
    try:
        with np.errstate(all="ignore"):
            if backend == "auto":
                return ("ok", canon(f(*args, **kwargs)))
            return ("ok", canon(f(*args, **kwargs, backend=backend)))
    except NotImplementedError as exc:
        if backend == "semiring" and type(exc) is NotImplementedError:
            return ("refused", str(exc)[:80])
        return ("err", type(exc).__name__, str(exc)[:200])
    except Exception as exc:  # noqa: BLE001
        if backend == "semiring" and "semiring" in str(exc) and "can_run" in str(exc):
            return ("refused", str(exc)[:80])
        return ("err", type(exc).__name__, str(exc)[:200],
                "".join(traceback.format_exception(exc)[-3:]) if backend == "semiring" else "")


def snapshot(G):
    return (list(G.nodes(data=True)), [copy.copy(e) for e in G.edges(data=True)])


def calls(G, r):
    nodes = list(G)
    some = nodes[0] if nodes else 0
    cs = [
        ("degree_centrality", nx.degree_centrality, (G,), {}),
        ("in_degree_centrality", nx.in_degree_centrality, (G,), {}),
        ("out_degree_centrality", nx.out_degree_centrality, (G,), {}),
        ("isolates", nx.isolates, (G,), {}),
        ("number_of_isolates", nx.number_of_isolates, (G,), {}),
        ("is_isolate", nx.is_isolate, (G, some), {}),
        ("is_isolate", nx.is_isolate, (G, "nonnode"), {}),
        ("maximum_spanning_tree", nx.maximum_spanning_tree, (G,),
         {"ignore_nan": r.random() < 0.5}),
        ("minimum_spanning_tree", nx.minimum_spanning_tree, (G,),
         {"ignore_nan": r.random() < 0.5}),
        ("maximum_spanning_tree", nx.maximum_spanning_tree, (G,), {"weight": "other"}),
        ("maximum_spanning_tree", nx.maximum_spanning_tree, (G,), {"weight": None}),
        ("minimum_spanning_edges", nx.minimum_spanning_edges, (G,),
         {"data": r.random() < 0.5, "ignore_nan": r.random() < 0.5}),
        ("minimum_spanning_edges", nx.minimum_spanning_edges, (G,),
         {"weight": "missing", "keys": False}),
        ("maximum_spanning_edges", nx.maximum_spanning_edges, (G,),
         {"data": r.random() < 0.5, "ignore_nan": r.random() < 0.5}),
        ("edge_betweenness_centrality", nx.edge_betweenness_centrality, (G,),
         {"normalized": r.random() < 0.5}),
        ("edge_betweenness_centrality", nx.edge_betweenness_centrality, (G,),
         {"normalized": r.random() < 0.5, "k": r.randint(0, max(1, len(nodes))),
          "seed": r.choice([0, 7, 42])}),
        ("edge_betweenness_centrality", nx.edge_betweenness_centrality, (G,),
         {"k": r.randint(0, max(1, len(nodes))), "seed": random.Random(3)}),
        ("triangles", nx.triangles, (G,), {}),
        ("triangles", nx.triangles, (G, some), {}),
        ("triangles", nx.triangles, (G, nodes[:2]), {}),
        ("clustering", nx.clustering, (G,), {}),
        ("clustering", nx.clustering, (G, some), {}),
        ("clustering", nx.clustering, (G, nodes[1:3]), {}),
        ("average_clustering", nx.average_clustering, (G,), {}),
        ("average_clustering", nx.average_clustering, (G,), {"count_zeros": False}),
        ("transitivity", nx.transitivity, (G,), {}),
        ("label_propagation_communities", nx.community.label_propagation_communities,
         (G,), {}),
        ("core_number", nx.core_number, (G,), {}),
        ("k_core", nx.k_core, (G,), {}),
        ("k_core", nx.k_core, (G, r.randint(0, 4)), {}),
        ("k_shell", nx.k_shell, (G,), {}),
        ("k_shell", nx.k_shell, (G, r.randint(0, 4)), {}),
        ("k_crust", nx.k_crust, (G,), {}),
        ("k_crust", nx.k_crust, (G, r.randint(0, 4)), {}),
        ("k_corona", nx.k_corona, (G, r.randint(0, 4)), {}),
        ("k_truss", nx.k_truss, (G, r.randint(0, 5)), {}),
    ]
    return cs


def louvain_check(G, desc, stats):
    """Louvain's partition is not NetworkX's to the node; check it is a partition, and its
    errors are NetworkX's."""
    for kw in ({}, {"weight": None}, {"resolution": 0.5}, {"threshold": 1e-3}):
        a = run(nx.community.louvain_communities, (G,), kw, "networkx")
        b = run(nx.community.louvain_communities, (G,), kw, "semiring")
        if b[0] == "refused":
            stats["refused"] += 1
            continue
        if a[0] != b[0] or (a[0] == "err" and a[1] != b[1]):
            print(f"MISMATCH louvain_communities {kw} {desc}\n  nx: {a[:3]}\n  sr: {b}")
            stats["bad"] += 1
        elif a[0] == "ok":
            sa = set().union(*[s[1] for s in a[1][1]]) if a[1][1] else set()
            sb = set().union(*[s[1] for s in b[1][1]]) if b[1][1] else set()
            if sa != sb or sum(len(s[1]) for s in b[1][1]) != len(sb):
                print(f"MISMATCH louvain_communities partition {kw} {desc}\n  nx: {a}\n  sr: {b}")
                stats["bad"] += 1


def main():
    n_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    only = {a for a in sys.argv[2:] if not a.startswith("-")}
    stats = {"ok": 0, "refused": 0, "bad": 0, "both_err": 0}
    seen = set()
    for seed in range(n_seeds):
        G, desc = make_graph(seed)
        r = random.Random(seed * 7 + 1)
        before = snapshot(G)
        for name, f, args, kwargs in calls(G, r):
            if only and name not in only:
                continue
            a = run(f, args, kwargs, "networkx")
            b = run(f, args, kwargs, "semiring")
            if b[0] == "refused":
                stats["refused"] += 1
                continue
            if a[0] == "err" and b[0] == "err" and a[1] == b[1]:
                stats["both_err"] += 1
                if a[2] != b[2] and (name, a[2], b[2]) not in seen:
                    seen.add((name, a[2], b[2]))
                    print(f"MESSAGE {name} {kwargs} {desc}\n  nx: {a[2]}\n  sr: {b[2]}")
                continue
            if a[0] == b[0] == "ok" and same(a[1], b[1]):
                stats["ok"] += 1
                continue
            key = (name, a[0], b[0], a[1] if a[0] == "err" else "", b[1] if b[0] == "err" else "")
            stats["bad"] += 1
            if key in seen and "-v" not in sys.argv:
                continue
            seen.add(key)
            print(f"MISMATCH {name} {kwargs} {desc}\n  nx: {str(a)[:600]}\n  sr: {str(b)[:1200]}")
        if not only or "louvain_communities" in only:
            louvain_check(G, desc, stats)
        if snapshot(G) != before:
            print(f"MUTATED {desc}")
    print(stats)


if __name__ == "__main__":
    main()
