"""aud29: the functions NetworkX 3.7 changed, through the backend ``semiring`` and through
NetworkX alone, on awkward inputs.

Usage (from a scratch directory, not the repository root)::

    cd /tmp && python /work/main/bench/probes/aud29_nx37.py [--seeds N] [--start S]
        [--only name,name] [-v]

Functions: Floyd–Warshall (``floyd_warshall``, ``floyd_warshall_predecessor_and_distance``,
``floyd_warshall_numpy``: 3.7's key orders, int 1 default, int 0 diagonal,
NetworkXUnbounded), the strong components and what is built on them
(``strongly_connected_components`` in 3.7's Tarjan–Zwick order, the attracting components,
``is_semiconnected``), ``is_aperiodic`` (3.7: DFS levels, NetworkXNotImplemented for
undirected graphs), ``closeness_centrality`` (3.7's ``sp=``), ``centroid`` / ``barycenter``
(3.7's name), the flow values (3.7 converts them with every edge attribute; called after
other conversions of the same graph are cached), ``modularity`` (3.7's 0 of no weight) and
the distance measures of a null graph (3.7's eccentricity raises).

Each seed builds a graph: Graph / DiGraph / MultiGraph / MultiDiGraph, 0..12 nodes, labels
that collide in a set's hash table (multiples of 8, -1 beside -2 whose hashes are equal),
strings, mixes; isolated nodes, self-loops, parallel edges; weights int / 0 / negative /
float / -0.0 / bool / missing / inf / NumPy scalars / mixes; views (to_undirected of a
DiGraph, reverse, subgraph, restricted, to_directed). The calls run in a random order on
the same graph object, so the backend's cached conversions serve later calls.

Results are compared by ``repr``-exact canonical forms: types (dict vs defaultdict, int vs
float, NumPy scalars), float reprs (-0.0 is not 0.0), dict key order, list order, set
iteration order; exceptions by type and message. A plain NotImplementedError from the
backend is a decline (NetworkX would run the call), counted. Exit status 0 always.
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import sys
import traceback
import warnings


def canon(x):
    import networkx as nx
    import numpy as np

    if isinstance(x, nx.Graph):
        return ("graph", type(x).__name__, [canon(v) for v in x.nodes],
                [canon(e) for e in (x.edges(keys=True, data=True) if x.is_multigraph()
                                    else x.edges(data=True))])
    if isinstance(x, dict):
        return (type(x).__name__, [(canon(k), canon(v)) for k, v in x.items()])
    if isinstance(x, np.ndarray):
        return ("ndarray", str(x.dtype), x.shape, repr(x.tolist()))
    if isinstance(x, (set, frozenset, list, tuple)):
        return (type(x).__name__, [canon(v) for v in x])
    if hasattr(x, "__next__"):
        return ("iter", [canon(v) for v in x])
    return (type(x).__name__, repr(x))


def run(f, args, kwargs, backend):
    kw = dict(kwargs)
    if backend:
        kw["backend"] = backend
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res = ("ok", canon(f(*args, **kw)))
        except NotImplementedError as exc:
            if backend and type(exc) is NotImplementedError:
                res = ("declined", str(exc)[:160])
            else:
                res = ("err", type(exc).__name__, str(exc)[:200])
        except Exception as exc:  # noqa: BLE001
            tb = "".join(traceback.format_exception(exc)[-2:])[-300:] if backend else ""
            res = ("err", type(exc).__name__, str(exc)[:200], tb)
    warned = sorted({w.category.__name__ for w in caught
                     if w.category in (DeprecationWarning, FutureWarning)})
    return res, warned


SIZES = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 12]


def make_graph(seed):
    import networkx as nx
    import numpy as np

    r = random.Random(seed)
    cls = r.choice([nx.Graph, nx.DiGraph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
    n = r.choice(SIZES)
    kind = r.choice(["mult8", "mult8", "neg", "str", "mixed", "int"])
    if kind == "mult8":
        nodes = [8 * i for i in range(n)]
    elif kind == "neg":
        nodes = [-1 - i for i in range(n)]  # hash(-1) == hash(-2)
    elif kind == "str":
        nodes = [f"v{i}" for i in range(n)]
    elif kind == "mixed":
        nodes = [8 * i if i % 2 else f"s{i}" for i in range(n)]
    else:
        nodes = list(range(n))
    r.shuffle(nodes)
    wkind = r.choice(["int", "int", "zero", "neg", "float", "negzero", "bool", "inf", "np",
                      "npf", "mixed", "ones"])
    vals = {
        "int": lambda: r.randint(1, 5), "zero": lambda: r.choice([0, 0, 1]),
        "neg": lambda: r.randint(-2, 5), "float": lambda: r.choice([0.5, 0.25, 1.5, 0.1]),
        "negzero": lambda: r.choice([-0.0, 0.0, 1.0]), "bool": lambda: r.choice([True, False]),
        "inf": lambda: r.choice([1, 2, math.inf]), "np": lambda: np.int64(r.randint(0, 4)),
        "npf": lambda: np.float64(r.randint(0, 4)) / 2, "mixed": lambda: r.choice([1, 2.5]),
        "ones": lambda: 1,
    }[wkind]
    missing = r.random() < 0.3
    G = cls()
    if r.random() < 0.8:
        G.add_nodes_from(nodes)
    p = r.choice([0.15, 0.3, 0.5, 0.8]) if n <= 12 else r.choice([2.0, 4.0, 8.0]) / n
    loops = r.random() < 0.3
    for u in nodes:
        for v in nodes:
            if (u == v and not loops) or r.random() >= p:
                continue
            d = {}
            if not (missing and r.random() < 0.35):
                d["weight"] = vals()
            if r.random() < 0.6:
                d["capacity"] = r.choice([0, 1, 2, 3, 5])
            if r.random() < 0.2:
                d["label"] = "x"
            G.add_edge(u, v, **d)
    if G.is_multigraph():
        for u, v in list(G.edges())[: r.randint(0, 3)]:
            G.add_edge(u, v, weight=vals())
    if r.random() < 0.3 and nodes:
        G.add_node("iso" if kind != "mult8" else 8 * (n + 1))
    recipe = (f"seed={seed} {cls.__name__} n={n} labels={kind} weights={wkind} p={p} "
              f"loops={loops} missing={missing}")
    base = None
    x = r.random()
    if x < 0.12 and G.is_directed():
        base, G = G, G.to_undirected(as_view=True)
        recipe += " view=to_undirected"
    elif x < 0.2 and G.is_directed():
        base, G = G, nx.reverse_view(G)
        recipe += " view=reverse"
    elif x < 0.26 and len(G) > 2:
        base, G = G, G.subgraph(list(G)[1:])
        recipe += " view=subgraph"
    elif x < 0.3 and len(G) > 2:
        es = list(G.edges(keys=True) if G.is_multigraph() else G.edges())[:1]
        base, G = G, nx.restricted_view(G, [], es)
        recipe += " view=restricted"
    elif x < 0.34 and not G.is_directed():
        base, G = G, G.to_directed(as_view=True)
        recipe += " view=to_directed"
    return G, base, recipe


def calls(G, r):
    import networkx as nx

    nodes = list(G)
    since_37 = tuple(int(x) for x in nx.__version__.split(".")[:2]) >= (3, 7)

    def pick():
        return r.choice(nodes) if nodes else 0

    def w(default="weight"):
        return r.choice([default, default, "weight", None, "capacity", "nosuch"])

    out = []

    def add(f, *a, **k):
        out.append((f, a, k))

    add(nx.floyd_warshall, G, weight=w())
    add(nx.floyd_warshall_predecessor_and_distance, G, weight=w())
    nl = r.choice([None, None, nodes[::-1], nodes[1:]])
    add(nx.floyd_warshall_numpy, G, nodelist=nl, weight=w())
    for f in (nx.strongly_connected_components, nx.number_strongly_connected_components,
              nx.is_strongly_connected, nx.attracting_components,
              nx.number_attracting_components, nx.is_attracting_component,
              nx.is_semiconnected, nx.is_aperiodic, nx.eccentricity, nx.diameter, nx.radius,
              nx.center, nx.periphery):
        add(f, G)
    add(nx.closeness_centrality, G, u=r.choice([None, None, pick()]),
        distance=r.choice([None, None, "weight"]), wf_improved=r.random() < 0.5)
    if since_37:
        sp = r.choice([None, "bfs", "partial"])
        if sp == "bfs":
            sp = dict(nx.all_pairs_shortest_path_length(G))
        elif sp == "partial":
            sp = {v: {v: 0} for v in nodes}
        add(nx.closeness_centrality, G, sp=sp)
        add(nx.centroid, G, weight=w(None))
    add(nx.barycenter, G, weight=w(None))
    s, t = pick(), pick()
    cap = r.choice(["capacity", "capacity", "weight", "nosuch"])
    add(nx.maximum_flow_value, G, s, t, capacity=cap)
    add(nx.minimum_cut_value, G, s, t, capacity=cap)
    # conversions with every attribute, cached on G for the flow calls after them
    add(nx.k_core, G)
    add(nx.minimum_spanning_tree, G, weight=w())
    sub = set(nodes[: r.randint(0, len(nodes))])
    comms = r.choice([[set(nodes)], [sub, set(nodes) - sub], [{v} for v in nodes]])
    comms = [c for c in comms if c] or [set(nodes)]
    add(nx.community.modularity, G, comms, weight=w(), resolution=r.choice([1, 0.5]))
    add(nx.bfs_predecessors, G, pick())
    # floats the backend gives to the bit (Python 3.12's sum() of floats compensates its
    # rounding, a += loop does not: each must add as NetworkX does)
    for f in (nx.global_efficiency, nx.average_clustering, nx.transitivity, nx.clustering,
              nx.degree_centrality, nx.in_degree_centrality, nx.out_degree_centrality,
              nx.overall_reciprocity, nx.reciprocity, nx.harmonic_centrality):
        add(f, G)
    add(nx.closeness_centrality, G)
    add(nx.average_shortest_path_length, G, weight=w(None))
    add(nx.flow_hierarchy, G, weight=w(None))
    add(nx.average_neighbor_degree, G, weight=w(None))
    for f in (nx.wiener_index, nx.schultz_index, nx.gutman_index, nx.hyper_wiener_index):
        add(f, G, weight=w(None))
    r.shuffle(out)
    return out


def snapshot(G):
    return (repr(list(G.nodes(data=True))),
            repr(list(G.edges(keys=True, data=True)) if G.is_multigraph()
                 else list(G.edges(data=True))))


def main():
    import networkx as nx

    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--only", default="")
    ap.add_argument("--sizes", default="",
                    help="node counts to draw from (e.g. 40,70,130), default 0..12")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.sizes:
        SIZES[:] = [int(x) for x in args.sizes.split(",")]
    only = set(args.only.split(",")) if args.only else None
    tally = collections.Counter()
    per = collections.defaultdict(collections.Counter)
    seen = set()
    bad = 0
    ncalls = 0
    print(f"NetworkX {nx.__version__}", flush=True)
    for seed in range(args.start, args.start + args.seeds):
        G, base, recipe = make_graph(seed)
        r = random.Random(seed * 31 + 7)
        before = snapshot(base if base is not None else G)
        for f, a, k in calls(G, r):
            name = f.__name__
            if only and name not in only:
                continue
            ncalls += 1
            nxr = run(f, a, k, None)
            sr = run(f, a, k, "semiring")
            if sr[0][0] == "declined":
                tally["declined"] += 1
                per[name]["declined"] += 1
                continue
            same = nxr[0][:3] == sr[0][:3] if nxr[0][0] == "err" else nxr[0] == sr[0]
            if same and nxr[1] == sr[1]:
                tally["same"] += 1
                per[name]["same" if nxr[0][0] == "ok" else "same_err"] += 1
                continue
            kind = "WARN" if same else ("EXC" if "err" in (nxr[0][0], sr[0][0]) else "MISMATCH")
            tally[kind] += 1
            per[name][kind] += 1
            bad += 1
            key = (kind, name, str(nxr[0])[:50] if kind == "EXC" else "")
            if key in seen and not args.verbose:
                continue
            seen.add(key)
            H = base if base is not None else G
            edges = (list(H.edges(keys=True, data=True)) if H.is_multigraph()
                     else list(H.edges(data=True)))
            print(f"\n{kind} {name}(G, {', '.join(map(repr, a[1:]))}"
                  f"{', ' if k else ''}{', '.join(f'{x}={v!r}' for x, v in k.items())[:300]})"
                  f"\n  recipe: {recipe}\n  build: H = nx.{type(H).__name__}(); "
                  f"H.add_nodes_from({list(H)!r}); H.add_edges_from({edges!r})"[:1800]
                  + f"\n  nx: {str(nxr)[:800]}\n  sr: {str(sr)[:800]}", flush=True)
        if snapshot(base if base is not None else G) != before:
            bad += 1
            print(f"\nMUTATED {recipe}", flush=True)
    print("\n==== per function")
    for name in sorted(per):
        print(f"  {name}: {dict(per[name])}")
    print(f"\n==== {ncalls} compared calls; outcomes {dict(tally)}")
    print(f"==== DISCREPANCIES: {bad}")


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
