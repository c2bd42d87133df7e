"""aud28: the NetworkX backend ``semiring`` on angles aud27/aud27c did not cover.

Usage (from a scratch directory, not the repository root)::

    cd /tmp && python /work/main/bench/probes/aud28_nx_fuzz.py
        [--seeds N] [--start S] [--timeout T] [--parts graphs,config,hand]
        [--sizes 70,130] [--only name,name] [-v]

    graphs  random graphs (aud27's ``calls``: every dispatched function, random options) of
            new kinds: NumPy-scalar node labels (np.int64, np.float64, mixed with Python
            ints), queried with the other type; Graph subclasses with OrderedDict factories;
            ``nx.subgraph_view`` with node/edge filters, nested views, ``G.reverse(copy=False)``,
            ``nx.restricted_view``; weights of Fraction, Decimal, np.float32, np.int32,
            np.uint8, bool/int/float mixes, huge ints, None, missing; node, edge and graph
            attributes (results that are graphs compared with their node data too); sources
            and node lists given as NumPy scalars, sets, tuples, generators (a fresh one per
            run); graph-level attributes;
    config  ``nx.config`` modes: cache_converted_graphs=False, fallback_to_nx with
            backend_priority lists, the same function twice with another ``weight=``;
    hand    hand-made keyword edge cases (pagerank's personalization/nstart/dangling dicts
            with missing, extra or zero keys, max_iter=0, tol=0; betweenness k=0 / k>n with a
            seed; cutoff 0 / negative; normalized/endpoints combos; results that are graphs:
            isolation of their attribute dicts from the input's).

"NetworkX alone" is ``nx.config.backend_priority.algos = []``. Comparison (types, dict key
order, list order, set iteration order; floats within rel 1e-9 for the approximate measures)
and the per-call reporting are aud27_nx_fuzz.py's (imported), with graphs compared with their
node data and adjacency order. Exit status 0 always (the count is printed).
"""

from __future__ import annotations

import argparse
import fractions
import math
import os
import random
import sys
from collections import OrderedDict
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aud27_nx_fuzz as A  # noqa: E402

_canon27 = A.canon


class Gen(list):
    """An argument given to the call as a fresh generator over these items."""


class Fresh:
    """An argument made anew for each run (a random state object: each run its own)."""

    def __init__(self, make, text):
        self.make, self.text = make, text

    def __repr__(self):
        return self.text


def canon(x, depth=0):
    import networkx as nx

    if isinstance(x, nx.Graph):
        return ("graph", type(x).__name__,
                [(_canon27(n), canon(d)) for n, d in x.nodes(data=True)],
                [canon(e) for e in (x.edges(keys=True, data=True) if x.is_multigraph()
                                    else x.edges(data=True))],
                canon(dict(x.graph)), [canon(list(x._adj[n])) for n in x],
                type(x._node).__name__, type(x._adj).__name__)
    return _canon27(x, depth)


_run27 = A.run_call


def run_call(name, args, kwargs, backend, timeout):
    def fresh(v):
        if isinstance(v, Fresh):
            return v.make()
        return (y for y in list(v)) if isinstance(v, Gen) else v
    args = tuple(fresh(v) for v in args)
    kwargs = {k: fresh(v) for k, v in kwargs.items()}
    return _run27(name, args, kwargs, backend, timeout)


A.canon = canon
A.run_call = run_call


# --------------------------------------------------------------------------- graphs
def _ordered_class(base):
    import networkx as nx

    return type("Ordered" + base.__name__, (getattr(nx, base.__name__),), {
        "node_dict_factory": OrderedDict, "adjlist_outer_dict_factory": OrderedDict,
        "adjlist_inner_dict_factory": OrderedDict, "edge_attr_dict_factory": OrderedDict,
        "node_attr_dict_factory": OrderedDict, "graph_attr_dict_factory": OrderedDict})


def _labels(r):
    import numpy as np

    kinds = {
        "np.int64": lambda i: np.int64(i),
        "np.int32": lambda i: np.int32(i),
        "np.float64": lambda i: np.float64(i) + 0.5,
        "np.float64int": lambda i: np.float64(i),
        "int/np.int64": lambda i: np.int64(i) if i % 2 else i,
        "int": lambda i: i,
        "str": lambda i: f"v{i}",
        "bytes": lambda i: b"%d" % i,
        "nested": lambda i: (i, frozenset([i, -i])),
        "float/int": lambda i: float(i) if i % 3 == 0 else i,
    }
    name = r.choice(list(kinds))
    return name, kinds[name]


def _weights(r):
    import numpy as np

    kinds = {
        "fraction": lambda: fractions.Fraction(r.randint(1, 6), r.choice([1, 2, 3])),
        "decimal": lambda: Decimal(r.randint(1, 9)) / 2,
        "np.float32": lambda: np.float32(r.choice([0.1, 0.5, 1.0, 2.25])),
        "np.int32": lambda: np.int32(r.randint(1, 5)),
        "np.uint8": lambda: np.uint8(r.randint(0, 255)),
        "np.int8": lambda: np.int8(r.randint(-2, 100)),
        "bool/int/float": lambda: r.choice([True, 2, 0.5, False, 3.0]),
        "huge": lambda: r.choice([2**63, 2**63 - 1, 2**70, 1]),
        "none": lambda: r.choice([None, 1, 2]),
        "nan/inf": lambda: r.choice([math.nan, math.inf, 1.0, -math.inf, 2.0]),
        "negzero": lambda: r.choice([-0.0, 0.0, 1.0]),
        "tiny": lambda: r.choice([5e-324, 1e-300, 1.0]),
        "ints": lambda: r.randint(1, 4),
        "floats": lambda: r.choice([0.25, 0.5, 1.5, 3.0]),
    }
    name = r.choice(list(kinds))
    return name, kinds[name]


SIZES = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16]


def make_graph(seed):
    """(G, base or None, recipe) for one seed."""
    import networkx as nx

    r = random.Random(seed)
    cls = r.choice([nx.Graph, nx.Graph, nx.DiGraph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
    ordered = r.random() < 0.3
    if ordered:
        cls = _ordered_class(cls)
    n = r.choice(SIZES)
    lname, lab = _labels(r)
    wname, wf = _weights(r)
    nodes = []
    for i in range(n):
        x = lab(i)
        if x not in nodes:
            nodes.append(x)
    G = cls()
    if r.random() < 0.5:
        G.graph.update(name=f"g{seed}", tag=[seed])
    order = list(nodes)
    if r.random() < 0.5:
        r.shuffle(order)
    if r.random() < 0.7:
        for x in order:
            G.add_node(x, **({"color": r.randint(0, 2), "lst": [1]} if r.random() < 0.5 else {}))
    p = r.choice([0.15, 0.3, 0.5]) if n <= 16 else r.choice([2.0, 3.0, 6.0]) / n
    loops = r.random() < 0.2
    missing = r.random() < 0.3
    for u in order:
        for v in order:
            if u == v and not loops:
                continue
            if r.random() < p:
                d = {} if (missing and r.random() < 0.3) else {"weight": wf()}
                if r.random() < 0.3:
                    d["capacity"] = r.randint(0, 5)
                if r.random() < 0.2:
                    d["label"] = [u]
                G.add_edge(u, v, **d)
    if G.is_multigraph():
        for u, v in list(G.edges())[: r.randint(0, 3)]:
            G.add_edge(u, v, weight=wf())
    recipe = (f"seed={seed} {cls.__name__} n={n} labels={lname} weights={wname} p={p} "
              f"loops={loops} missing={missing}")
    base = None
    v = r.random()
    nl = list(G)
    if v < 0.12 and len(G) > 2:
        drop = nl[r.randrange(len(nl))]
        base, G = G, nx.subgraph_view(G, filter_node=lambda x: x != drop)
        recipe += f" view=subgraph_view(filter_node != {drop!r})"
    elif v < 0.22 and G.number_of_edges() > 1:
        keep = set(r.sample(sorted(range(G.number_of_edges())), G.number_of_edges() // 2))
        es = list(G.edges(keys=True) if G.is_multigraph() else G.edges())
        gone = {es[i] for i in range(len(es)) if i not in keep}
        if G.is_multigraph():
            fe = (lambda u, v, k: (u, v, k) not in gone and (v, u, k) not in gone)
        else:
            fe = (lambda u, v: (u, v) not in gone and (v, u) not in gone)
        base, G = G, nx.subgraph_view(G, filter_edge=fe)
        recipe += " view=subgraph_view(filter_edge)"
    elif v < 0.30 and G.is_directed() and not G.is_multigraph():
        base, G = G, G.reverse(copy=False)
        recipe += " view=reverse(copy=False)"
    elif v < 0.36 and G.is_directed() and len(G) > 2:
        base, G = G, nx.reverse_view(G).subgraph(nl[1:])
        recipe += " view=reverse_view.subgraph"
    elif v < 0.42 and len(G) > 3:
        base, G = G, nx.restricted_view(G.subgraph(nl[:-1]), [nl[0]], [])
        recipe += " view=restricted_view(subgraph)"
    elif v < 0.50:
        nx.freeze(G)
        recipe += " frozen"
    return G, base, recipe


def _numpyish(x, r):
    """Another object for node ``x`` that is equal and hashes alike (NumPy scalar <-> int)."""
    import numpy as np

    if type(x) is int and -2**63 <= x < 2**63:
        return r.choice([np.int64(x), np.int32(x) if abs(x) < 2**31 else x])
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if type(x) is float:
        return np.float64(x)
    return x


_NODE_ARGS = {  # name -> positional indices (after G) or keyword names that are nodes
    "source": True, "target": True, "v": True, "u": True, "n": True,
}


def transform(calls, G, r):
    """Swap node arguments for equal objects of another type, node collections for sets,
    tuples and generators."""
    import networkx as nx

    nodes = set(G)
    out = []
    for name, args, kwargs in calls:
        args = list(args)
        for i in range(1, len(args)):
            x = args[i]
            if isinstance(x, nx.Graph):
                continue
            try:
                if x in nodes and r.random() < 0.6:
                    args[i] = _numpyish(x, r)
                    continue
            except TypeError:
                pass
            if isinstance(x, list) and x and r.random() < 0.5 and name not in (
                    "modularity", "floyd_warshall_numpy"):
                kind = r.choice(["tuple", "gen", "np"])
                if kind == "tuple":
                    args[i] = tuple(x)
                elif kind == "gen" and name not in A_ONE_PASS:
                    args[i] = Gen(x)
                else:
                    args[i] = [_numpyish(y, r) for y in x]
        kwargs = dict(kwargs)
        for k, x in list(kwargs.items()):
            if k in _NODE_ARGS:
                try:
                    if x in nodes and r.random() < 0.6:
                        kwargs[k] = _numpyish(x, r)
                except TypeError:
                    pass
            if k in ("nodes", "nbunch", "v") and isinstance(x, list) and r.random() < 0.5:
                kwargs[k] = r.choice([tuple(x), set(x), Gen(x)])
            if k in ("personalization", "nstart", "dangling") and isinstance(x, dict) and \
                    r.random() < 0.5:
                kwargs[k] = {_numpyish(key, r): val for key, val in x.items()}
        out.append((name, tuple(args), kwargs))
    return out


A_ONE_PASS = set()  # filled in main from the interface (functions NetworkX itself reads twice)


# --------------------------------------------------------------------------- config modes
def config_round(G, base, recipe, r, tally, timeout, verbose):
    """cache_converted_graphs=False; weight= changed between calls; backend_priority lists
    with fallback."""
    import networkx as nx

    nodes = list(G)
    if not nodes:
        return
    s = nodes[0]
    cl = [("single_source_dijkstra_path_length", (G, s), {"weight": "weight"}),
          ("single_source_dijkstra_path_length", (G, s), {"weight": "capacity"}),
          ("single_source_dijkstra_path_length", (G, s), {"weight": None}),
          ("single_source_dijkstra_path_length", (G, s), {"weight": "weight"}),
          ("shortest_path_length", (G, s), {"weight": "capacity"}),
          ("shortest_path_length", (G, s), {"weight": "weight"}),
          ("floyd_warshall", (G,), {"weight": "capacity"}),
          ("floyd_warshall", (G,), {"weight": "weight"}),
          ("dag_longest_path_length", (G,), {"weight": "capacity"}),
          ("dag_longest_path_length", (G,), {"weight": "weight"}),
          ("minimum_spanning_tree", (G,), {"weight": "capacity"}),
          ("minimum_spanning_tree", (G,), {"weight": "weight"}),
          ("bfs_tree", (G, s), {}), ("k_core", (G,), {}),
          ("pagerank", (G,), {"weight": "capacity"}), ("pagerank", (G,), {"weight": "weight"}),
          ("average_neighbor_degree", (G,), {"weight": "capacity"}),
          ("average_neighbor_degree", (G,), {"weight": "weight"}),
          ("maximum_flow_value", (G, s, nodes[-1]), {"capacity": "weight"}),
          ("maximum_flow_value", (G, s, nodes[-1]), {})]
    for mode in ("nocache", "auto"):
        saved = (nx.config.cache_converted_graphs, list(nx.config.backend_priority.algos),
                 nx.config.fallback_to_nx)
        try:
            if mode == "nocache":
                nx.config.cache_converted_graphs = False
                for name, a, k in cl:
                    A.compare(name, a, k, G, base, recipe + " cache_converted_graphs=False",
                              tally, timeout, verbose, tag="-NOCACHE")
            else:
                A.AUTO = True
                nx.config.fallback_to_nx = True
                for name, a, k in cl:
                    A.compare(name, a, k, G, base, recipe + " auto", tally, timeout, verbose,
                              tag="-AUTO")
        finally:
            A.AUTO = False
            nx.config.cache_converted_graphs = saved[0]
            nx.config.backend_priority.algos = saved[1]
            nx.config.fallback_to_nx = saved[2]


# --------------------------------------------------------------------------- hand cases
def hand_calls():
    """[(label, G, base, [(name, args, kwargs)])] of keyword edge cases."""
    import networkx as nx
    import numpy as np

    out = []
    K = nx.karate_club_graph()
    D = nx.gnp_random_graph(30, 0.1, seed=3, directed=True)
    for G, lab in ((K, "karate"), (D, "gnp30 directed")):
        ns = list(G)
        cl = []
        for pers in (None, {ns[0]: 1}, {ns[0]: 0}, {x: 0 for x in ns}, {"absent": 1, ns[1]: 1},
                     {ns[2]: np.float32(0.5), ns[3]: 2}, {ns[4]: -1, ns[5]: 2}):
            for nstart in (None, {ns[0]: 1}, {x: 0 for x in ns}, {"absent": 1, ns[0]: 2}):
                for dangling in (None, {ns[0]: 1}, {x: 0 for x in ns}, {"absent": 1}):
                    for mi, tol in ((100, 1e-6), (0, 1e-6), (1, 1e-6), (100, 0), (5, 0.0)):
                        cl.append(("pagerank", (G,), dict(personalization=pers, nstart=nstart,
                                                          dangling=dangling, max_iter=mi,
                                                          tol=tol)))
        for k in (0, 1, 5, len(ns), len(ns) + 1):
            for seed in (0, 42, Fresh(lambda: np.random.RandomState(1), "RandomState(1)")):
                for norm in (True, False):
                    for ep in (True, False):
                        cl.append(("betweenness_centrality", (G,),
                                   dict(k=k, seed=seed, normalized=norm, endpoints=ep)))
                cl.append(("edge_betweenness_centrality", (G,), dict(k=k, seed=seed)))
        for cut in (0, -1, -0.5, 0.5, 1, 2.5, math.inf, -math.inf, math.nan, True, False,
                    np.int64(2), np.float64(1.5)):
            for name in ("single_source_shortest_path_length", "single_source_shortest_path",
                         "all_pairs_shortest_path_length", "all_pairs_shortest_path",
                         "single_target_shortest_path_length"):
                cl.append((name, (G,) + (() if name.startswith("all") else (ns[1],)),
                           dict(cutoff=cut)))
            for name in ("single_source_dijkstra_path_length", "single_source_dijkstra",
                         "single_source_dijkstra_path", "dijkstra_predecessor_and_distance",
                         "all_pairs_dijkstra_path_length", "multi_source_dijkstra_path_length"):
                a = (G,) if name.startswith("all") else (
                    (G, [ns[1], ns[2]]) if name.startswith("multi") else (G, ns[1]))
                cl.append((name, a, dict(cutoff=cut)))
            cl.append(("bfs_edges", (G, ns[0]), dict(depth_limit=cut)))
            cl.append(("bfs_tree", (G, ns[0]), dict(depth_limit=cut)))
            cl.append(("descendants_at_distance", (G, ns[0], cut), {}))
            cl.append(("predecessor", (G, ns[0]), dict(cutoff=cut)))
        for mi in (0, 1, 3):
            for tol in (0, 1e-3):
                cl.append(("eigenvector_centrality", (G,), dict(max_iter=mi, tol=tol)))
                cl.append(("katz_centrality", (G,), dict(max_iter=mi, tol=tol, alpha=0.05)))
                cl.append(("hits", (G,), dict(max_iter=mi, tol=tol)))
        cl.append(("hits", (G,), dict(nstart={ns[0]: 1})))
        cl.append(("katz_centrality", (G,), dict(beta={x: 1 for x in ns[:-1]})))
        cl.append(("katz_centrality", (G,), dict(beta={x: 2 for x in ns})))
        cl.append(("eigenvector_centrality", (G,), dict(nstart={x: 1 for x in ns})))
        cl.append(("eigenvector_centrality", (G,), dict(nstart={x: 0 for x in ns})))
        cl.append(("closeness_centrality", (G,), dict(u=np.int64(ns[0]))))
        cl.append(("triangles", (G, np.int64(ns[0])), {}))
        cl.append(("clustering", (G, np.int64(ns[0])), {}))
        cl.append(("triangles", (G, Gen(ns[:5])), {}))
        cl.append(("clustering", (G, Gen(ns[:5])), {}))
        cl.append(("average_clustering", (G,), dict(nodes=Gen(ns[:5]))))
        cl.append(("eccentricity", (G,), dict(v=Gen(ns[:5]))))
        cl.append(("eccentricity", (G,), dict(v=set(ns[:5]))))
        for k in (0, 1, 2, 3, -1, 100, np.int64(2), 2.0):
            cl.append(("k_core", (G, k), {}))
            cl.append(("k_shell", (G, k), {}))
            cl.append(("k_crust", (G, k), {}))
            cl.append(("k_corona", (G, k), {}))
            cl.append(("k_truss", (G, k), {}))
        cl.append(("louvain_communities", (G,), dict(threshold=0)))
        cl.append(("label_propagation_communities", (G,), {}))
        out.append((lab, G, None, cl))
    return out


def isolation_checks(tally):
    """Results that are graphs: changing them must not change the input (and the reverse),
    as in NetworkX (its copies are shallow: values shared, dicts not)."""
    import networkx as nx

    G = nx.karate_club_graph()
    G.graph["lst"] = [1]
    for x in G:
        G.nodes[x]["d"] = {"k": x}
    calls = [("bfs_tree", (G, 0), {}), ("minimum_spanning_tree", (G,), {}),
             ("maximum_spanning_tree", (G,), {}), ("k_core", (G,), {}),
             ("k_shell", (G,), {}), ("k_crust", (G,), {}), ("k_corona", (G, 2), {}),
             ("k_truss", (G, 3), {})]

    def sig(R):
        return ([R.graph is G.graph] + [R.nodes[x] is G.nodes[x] for x in R if x in G]
                + [R.graph.get("lst") is G.graph["lst"]]
                + [R.nodes[x].get("d") is G.nodes[x].get("d") for x in R if x in G]
                + [R.edges[e] is G.edges[e] for e in R.edges if G.has_edge(*e)]
                + [R.edges[e].get("weight") is G.edges[e].get("weight") for e in R.edges
                   if G.has_edge(*e)])

    for name, a, k in calls:
        f = A.public(name)
        with nx.config(backend_priority=[]):
            want = sig(f(*a, **k))
        got = sig(f(*a, backend="semiring", **k))
        if want != got:
            tally.bad += 1
            print(f"\nISOLATION {name}: nx {want[:12]} sr {got[:12]}", flush=True)
        else:
            tally.note(name, "isolation_ok")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=150)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--parts", default="graphs,config,hand")
    ap.add_argument("--only", default="")
    ap.add_argument("--sizes", default="", help="node counts to draw from (e.g. 70,130: the "
                    "engine's 64-source batches, larger levels), default 1..16")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    sys.setrecursionlimit(10000)
    import nx_semiring.interface as iface

    A_ONE_PASS.update(iface._ONE_PASS_ARGS)
    parts = set(args.parts.split(","))
    if args.sizes:
        SIZES[:] = [int(x) for x in args.sizes.split(",")]
    only = set(args.only.split(",")) if args.only else None
    tally = A.Tally()
    ncalls = 0

    def do(label, G, base, cl):
        nonlocal ncalls
        before = A.snapshot(base if base is not None else G)
        for name, a, k in cl:
            if only and name not in only:
                continue
            ncalls += 1
            A.compare(name, a, k, G, base, label, tally, args.timeout, args.verbose)
        after = A.snapshot(base if base is not None else G)
        if after != before:
            tally.bad += 1
            print(f"\nMUTATED {label}\n  before: {before}\n  after: {after}", flush=True)

    if "hand" in parts:
        isolation_checks(tally)
        for label, G, base, cl in hand_calls():
            do("hand: " + label, G, base, cl)
    for seed in range(args.start, args.start + args.seeds):
        if not parts & {"graphs", "config"}:
            break
        G, base, recipe = make_graph(seed)
        r = random.Random(seed * 7919 + 3)
        if "graphs" in parts:
            do(recipe, G, base, transform(A.calls(G, r), G, r))
        if "config" in parts:
            config_round(G, base, recipe, r, tally, args.timeout, args.verbose)
    print("\n==== per function (answered_ok / declined / both_err / bad kinds)")
    for name in sorted(tally.per):
        print(f"  {name}: {dict(tally.per[name])}")
    print(f"\n==== {ncalls} compared calls (+ config rounds); outcomes {dict(tally.c)}")
    print(f"==== DISCREPANCIES: {tally.bad}")


if __name__ == "__main__":
    main()
