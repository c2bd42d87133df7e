"""Session 27's outside-in audit (aud27): a differential fuzzer of every function the NetworkX
backend ``semiring`` dispatches (``nx_semiring.FUNCTIONS``) against NetworkX itself.

Usage (run from a scratch directory, not the repository root)::

    cd /tmp && python /work/main/bench/probes/aud27_nx_fuzz.py [--seeds N] [--start S]
        [--only name,name] [--chunk C] [--timeout T] [--auto] [--no-hand] [--no-cache] [-v]

Each seed builds one random awkward graph (Graph / DiGraph / MultiGraph / MultiDiGraph, n in
0..30, mixed labels incl. 0 / False / 0.0 / 1.0 / True aliases, tuples, strings, isolated
nodes, self-loops, parallel edges, weights missing on some edges or 0, negative, bool, ints
beyond 2**63, inf, nan, str, None, NumPy scalars; subgraph / reverse / to_undirected /
to_directed / edge-subgraph / restricted views and frozen graphs) and calls every dispatched
function with random options (sources not in G or given as an equal alias of another type,
cutoffs 0 / negative / float, weight= missing / None / partial / callable, k / seed /
normalized / endpoints, PageRank personalization / nstart / dangling, small max_iter, tol 0,
...), once through NetworkX (no backend) and once with ``backend="semiring"``. Results are
compared exactly (types, dict key order, list / generator order, graph node and edge order
with data, set contents and set iteration order); floats within 1e-9 relative only for the
centrality-like results (APPROX below). Exceptions must have the same type. A plain
NotImplementedError from the semiring side is a decline (NetworkX would run it), counted.
The input graph must be unchanged. ``--no-cache`` off (default): after the calls, the graph
(not a frozen one) is mutated through NetworkX's API (add / remove an edge, a new weight by
add_edge, set_edge_attributes, remove a node) and a subset is called again on the graph and on
a view of it held across the mutation (stale cached conversions).

Every seed range runs in a child process; each call has a SIGALRM timeout (``--timeout``),
and a child that stops answering (a hang in compiled code) is killed and its current call
reported as HANG. Hand-made cases (``hand_cases``) run first unless ``--no-hand``.
Prints each discrepancy (MISMATCH / EXC / HANG / MUTATED / STALE / LATE-DECLINE) with a
reproducer recipe, and a final tally.
"""

from __future__ import annotations

import collections
import copy
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import warnings

APPROX = {
    "pagerank", "betweenness_centrality", "edge_betweenness_centrality", "clustering",
    "average_clustering", "transitivity", "eigenvector_centrality", "katz_centrality",
    "hits", "closeness_centrality", "harmonic_centrality", "eigenvector_centrality_numpy",
    "katz_centrality_numpy", "global_efficiency", "modularity", "flow_hierarchy",
    "reciprocity", "overall_reciprocity", "average_neighbor_degree", "degree_centrality",
    "in_degree_centrality", "out_degree_centrality", "average_shortest_path_length",
    "louvain_communities",
}


# --------------------------------------------------------------------------- graphs
def _labels(r):
    kinds = [
        lambda i: i,
        lambda i: str(i),
        lambda i: (i, "t"),
        lambda i: i if i % 2 else f"s{i}",
        lambda i: (i,) if i % 3 == 0 else (str(i) if i % 3 == 1 else i),
        lambda i: -i - 1,
        lambda i: i + 0.5,
        lambda i: 2**70 + i,
        lambda i: frozenset([i]),
    ]
    return r.choice(kinds)


def _weight_fn(r):
    import numpy as np

    kinds = {
        "int": lambda: r.randint(1, 9),
        "ties": lambda: r.randint(1, 2),
        "float": lambda: r.choice([0.1, 0.2, 0.3, 0.5, 1.7]),
        "zero": lambda: r.choice([0, 0, 1, 2]),
        "neg": lambda: r.randint(-3, 9),
        "bool": lambda: r.choice([True, False]),
        "huge": lambda: r.choice([2**64 + 1, 1, 2**63]),
        "inf": lambda: r.choice([1.0, math.inf, 2.0]),
        "nan": lambda: r.choice([1.0, math.nan, 2.0]),
        "str": lambda: r.choice([1, "x", 2]),
        "none": lambda: r.choice([1, None, 2]),
        "np": lambda: np.int64(r.randint(1, 5)),
        "npf": lambda: np.float64(r.randint(1, 5)) / 2,
        "mixed": lambda: r.choice([1, 2.5, 3]),
    }
    name = r.choice(list(kinds) + ["int", "int", "ties", "float"])
    return name, kinds[name]


def make_graph(seed):
    """(G, base or None, recipe) for one seed."""
    import networkx as nx

    r = random.Random(seed)
    cls = r.choice([nx.Graph, nx.Graph, nx.DiGraph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
    n = r.choice([0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 30])
    lab = _labels(r)
    wname, wf = _weight_fn(r)
    nodes = [lab(i) for i in range(n)]
    alias = r.random() < 0.15 and n >= 2
    G = cls()
    order = list(nodes)
    if r.random() < 0.5:
        r.shuffle(order)
    if r.random() < 0.7:
        G.add_nodes_from(order)
    p = r.choice([0.1, 0.2, 0.3, 0.5, 0.8]) if n <= 12 else r.choice([0.05, 0.1, 0.2])
    loops = r.random() < 0.25
    missing = r.random() < 0.25
    for u in order:
        for v in order:
            if u == v and not loops:
                continue
            if r.random() < p:
                d = {} if (missing and r.random() < 0.3) else {"weight": wf()}
                if r.random() < 0.3:
                    d["other"] = r.randint(0, 3)
                if r.random() < 0.3:
                    d["capacity"] = r.randint(0, 5)
                G.add_edge(u, v, **d)
    if G.is_multigraph():
        for u, v in list(G.edges())[: r.randint(0, 4)]:
            G.add_edge(u, v, weight=wf())
    if alias and 0 in G:  # edges given through False / 0.0: the same node 0
        other = next((x for x in G if x != 0), None)
        if other is not None:
            G.add_edge(False, other, weight=1)
            G.add_edge(other, 0.0)
    recipe = (f"seed={seed} {cls.__name__} n={n} labels#{lab.__code__.co_firstlineno} "
              f"weights={wname} p={p} loops={loops} missing={missing} alias={alias}")
    base = None
    v = r.random()
    if v < 0.08 and len(G) > 2:
        base, G = G, G.subgraph(list(G)[1:])
        recipe += " view=subgraph"
    elif v < 0.14 and G.is_directed():
        base, G = G, nx.reverse_view(G)
        recipe += " view=reverse"
    elif v < 0.20 and G.is_directed():
        base, G = G, G.to_undirected(as_view=True)
        recipe += " view=to_undirected"
    elif v < 0.24 and not G.is_directed():
        base, G = G, G.to_directed(as_view=True)
        recipe += " view=to_directed"
    elif v < 0.28 and G.number_of_edges() > 1:
        es = list(G.edges(keys=True) if G.is_multigraph() else G.edges())
        base, G = G, G.edge_subgraph(es[1:])
        recipe += " view=edge_subgraph"
    elif v < 0.32 and len(G) > 2:
        es = list(G.edges(keys=True) if G.is_multigraph() else G.edges())[:1]
        base, G = G, nx.restricted_view(G, [list(G)[0]], es)
        recipe += " view=restricted"
    elif v < 0.38:
        nx.freeze(G)
        recipe += " frozen"
    return G, base, recipe


# --------------------------------------------------------------------------- calls
def calls(G, r):
    """[(name, args, kwargs)] for one graph: every dispatched function, random options."""
    import networkx as nx

    nodes = list(G)
    pick = (lambda: r.choice(nodes)) if nodes else (lambda: 0)

    def src():
        x = r.random()
        if x < 0.08 or not nodes:
            return r.choice(["absent", 10**6, (99, 99)])
        s = pick()
        if x < 0.16 and s == 0 and not isinstance(s, bool):
            return r.choice([False, 0.0])
        if x < 0.16 and s == 1 and not isinstance(s, bool):
            return r.choice([True, 1.0])
        return s

    def w(default="weight"):
        return r.choice([default, default, "weight", None, "other", "nosuch"])

    def cutoff():
        return r.choice([None, None, 0, 1, 2, -1, 1.5, 3, math.inf])

    sub = nodes[: r.randint(0, len(nodes))]
    out = []
    add = lambda name, *a, **k: out.append((name, a, k))  # noqa: E731
    for _ in range(2):
        s, t = src(), src()
        add("bfs_edges", G, s, depth_limit=r.choice([None, 0, 1, 2, -1]),
            reverse=r.random() < 0.2)
        add("bfs_tree", G, s, depth_limit=r.choice([None, 1, 2]), reverse=r.random() < 0.2)
        add("bfs_layers", G, r.choice([s, [s], sub[:2], [s, s]]))
        add("bfs_predecessors", G, s, depth_limit=r.choice([None, 1, 2]))
        add("bfs_successors", G, s, depth_limit=r.choice([None, 1, 2]))
        add("descendants_at_distance", G, s, r.choice([0, 1, 2, -1, 5]))
        add("shortest_path", G, r.choice([s, None]), r.choice([t, None, None]),
            weight=w(None), method=r.choice(["dijkstra", "bellman-ford"]))
        add("shortest_path_length", G, r.choice([s, None]), r.choice([t, None, None]),
            weight=w(None), method=r.choice(["dijkstra", "bellman-ford"]))
        add("single_source_shortest_path", G, s, cutoff=cutoff())
        add("single_source_shortest_path_length", G, s, cutoff=cutoff())
        add("all_pairs_shortest_path_length", G, cutoff=cutoff())
        add("has_path", G, s, t)
        add("single_source_dijkstra", G, s, target=r.choice([None, t]), cutoff=cutoff(),
            weight=w())
        add("single_source_dijkstra_path", G, s, cutoff=cutoff(), weight=w())
        add("single_source_dijkstra_path_length", G, s, cutoff=cutoff(), weight=w())
        add("dijkstra_path", G, s, t, weight=w())
        add("dijkstra_path_length", G, s, t, weight=w())
        add("bellman_ford_path", G, s, t, weight=w())
        add("bellman_ford_path_length", G, s, t, weight=w())
        add("single_source_bellman_ford", G, s, target=r.choice([None, t]), weight=w())
        add("single_source_bellman_ford_path", G, s, weight=w())
        add("single_source_bellman_ford_path_length", G, s, weight=w())
        add("negative_edge_cycle", G, weight=w(), heuristic=r.random() < 0.5)
        add("floyd_warshall_numpy", G, nodelist=r.choice([None, None, sub, nodes[::-1]]),
            weight=w())
        add("multi_source_dijkstra_path_length", G, r.choice([{s}, [s, t], sub[:3]]),
            cutoff=cutoff(), weight=w())
        add("multi_source_dijkstra", G, r.choice([{s}, [s, t], sub[:3]]),
            target=r.choice([None, t]), cutoff=cutoff(), weight=w())
        add("multi_source_dijkstra_path", G, r.choice([{s}, [s, t]]), cutoff=cutoff(),
            weight=w())
        add("single_target_shortest_path_length", G, t, cutoff=cutoff())
        add("single_target_shortest_path", G, t, cutoff=cutoff())
        add("ancestors", G, s)
        add("descendants", G, s)
        add("node_connected_component", G, s)
        add("is_isolate", G, s)
        add("bidirectional_shortest_path", G, s, t)
        add("bidirectional_dijkstra", G, s, t, weight=w())
        add("predecessor", G, s, target=r.choice([None, t]), cutoff=cutoff(),
            return_seen=r.choice([None, True]))
        add("dijkstra_predecessor_and_distance", G, s, cutoff=cutoff(), weight=w())
        add("bellman_ford_predecessor_and_distance", G, s, target=r.choice([None, t]),
            weight=w(), heuristic=r.random() < 0.5)
        cap = r.choice(["capacity", "weight", "nosuch"])
        add("maximum_flow_value", G, s, t, capacity=cap)
        add("minimum_cut_value", G, s, t, capacity=cap)
        add("minimum_cut", G, s, t, capacity=cap)
    add("all_pairs_dijkstra_path_length", G, cutoff=cutoff(), weight=w())
    add("all_pairs_bellman_ford_path_length", G, weight=w())
    add("all_pairs_shortest_path", G, cutoff=cutoff())
    add("all_pairs_dijkstra_path", G, cutoff=cutoff(), weight=w())
    add("all_pairs_dijkstra", G, cutoff=cutoff(), weight=w())
    add("all_pairs_bellman_ford_path", G, weight=w())
    add("johnson", G, weight=w())
    add("floyd_warshall", G, weight=w())
    add("floyd_warshall_predecessor_and_distance", G, weight=w())
    for name in ("connected_components", "number_connected_components", "is_connected",
                 "strongly_connected_components", "weakly_connected_components",
                 "number_weakly_connected_components", "is_weakly_connected",
                 "number_strongly_connected_components", "is_strongly_connected",
                 "attracting_components", "number_attracting_components", "core_number",
                 "transitivity", "label_propagation_communities", "degree_centrality",
                 "in_degree_centrality", "out_degree_centrality", "isolates",
                 "number_of_isolates", "global_efficiency", "is_directed_acyclic_graph",
                 "has_cycle", "is_aperiodic", "is_tree", "is_forest", "is_arborescence",
                 "is_branching", "is_bipartite", "color", "is_semiconnected",
                 "overall_reciprocity", "hopcroft_karp_matching"):
        add(name, G)
    add("is_attracting_component", G)
    # centralities
    pers = r.choice([None, {pick(): 1}, {x: r.choice([0, 1, 2]) for x in sub},
                     {"absent": 1}, {x: 0 for x in nodes}, {pick(): -1, pick(): 2}])
    add("pagerank", G, alpha=r.choice([0.85, 0.5, 1.0, 0.0]), personalization=pers,
        max_iter=r.choice([100, 100, 3, 0, 1]), tol=r.choice([1e-6, 0, 1e-12, 1e-3]),
        nstart=r.choice([None, {x: 1 for x in nodes}, {pick(): 1}, {x: 0 for x in nodes}]),
        weight=w(), dangling=r.choice([None, {pick(): 1}, {x: 1 for x in sub}]))
    add("pagerank", G)
    k = r.choice([None, None, 0, 1, 2, len(nodes), len(nodes) + 1])
    add("betweenness_centrality", G, k=k, normalized=r.random() < 0.5,
        weight=r.choice([None, None, "weight"]), endpoints=r.random() < 0.5,
        seed=r.choice([0, 7]) if k is not None else None)
    add("betweenness_centrality", G)
    add("edge_betweenness_centrality", G, k=k, normalized=r.random() < 0.5,
        seed=r.choice([0, 7]) if k is not None else None)
    add("triangles", G, r.choice([None, sub, pick()]))
    add("clustering", G, r.choice([None, sub, pick()]), weight=r.choice([None, None, "weight"]))
    add("average_clustering", G, nodes=r.choice([None, sub]), count_zeros=r.random() < 0.5)
    add("louvain_communities", G, weight=w(), resolution=r.choice([1, 0.5, 2]))
    add("minimum_spanning_tree", G, weight=w(), ignore_nan=r.random() < 0.5)
    add("maximum_spanning_tree", G, weight=w(), ignore_nan=r.random() < 0.5)
    add("minimum_spanning_edges", G, weight=w(), keys=r.random() < 0.5,
        data=r.random() < 0.5, ignore_nan=r.random() < 0.5)
    add("maximum_spanning_edges", G, weight=w(), keys=r.random() < 0.5,
        data=r.random() < 0.5, ignore_nan=r.random() < 0.5)
    add("eccentricity", G, v=r.choice([None, pick(), sub]), weight=w(None))
    for name in ("diameter", "radius", "center", "periphery"):
        add(name, G, usebounds=r.random() < 0.2, weight=w(None))
    # NetworkX 3.7 renamed barycenter to centroid (and gave closeness_centrality sp=)
    bary = "centroid" if _nx37() else "barycenter"
    add(bary, G, weight=w(None))
    add("minimum_weight_full_matching", G, top_nodes=r.choice([None, sub]), weight=w())
    add("hopcroft_karp_matching", G, top_nodes=sub)
    add("k_core", G, r.choice([None, 0, 1, 2, 3]))
    add("k_shell", G, r.choice([None, 0, 1, 2]))
    add("k_crust", G, r.choice([None, 0, 1, 2]))
    add("k_corona", G, r.choice([0, 1, 2]))
    add("k_truss", G, r.choice([0, 1, 2, 3, 4]))
    comms = r.choice([[set(nodes)], [set(sub), set(nodes) - set(sub)], [set(sub)]])
    add("modularity", G, comms, weight=w(), resolution=r.choice([1, 0.5]))
    add("eigenvector_centrality", G, max_iter=r.choice([100, 1000, 2]),
        tol=r.choice([1e-6, 1e-9]), weight=w(None))
    add("katz_centrality", G, alpha=r.choice([0.1, 0.05, 0.5]), beta=r.choice([1.0, 2.0]),
        max_iter=r.choice([1000, 3]), normalized=r.random() < 0.5, weight=w(None))
    add("hits", G, max_iter=r.choice([100, 1000, 2]), normalized=r.random() < 0.7)
    add("closeness_centrality", G, u=r.choice([None, None, pick()]),
        distance=r.choice([None, None, "weight"]), wf_improved=r.random() < 0.5)
    if _nx37() and r.random() < 0.3:
        add("closeness_centrality", G, sp=r.choice([{}, {pick(): {pick(): 1}}]))
    add("harmonic_centrality", G, distance=r.choice([None, None, "weight"]))
    add("average_shortest_path_length", G, weight=w(None),
        method=r.choice([None, "dijkstra", "bellman-ford", "floyd-warshall",
                         "floyd-warshall-numpy", "unweighted"]))
    for name in ("wiener_index", "schultz_index", "gutman_index", "hyper_wiener_index"):
        add(name, G, weight=w(None))
    add("eigenvector_centrality_numpy", G, weight=w(None))
    add("katz_centrality_numpy", G, alpha=r.choice([0.1, 0.05]), normalized=r.random() < 0.5,
        weight=w(None))
    add("sets", G, top_nodes=r.choice([None, None, sub]))
    add("dag_longest_path_length", G, weight=w(), default_weight=r.choice([1, 2, 0.5]))
    add("flow_hierarchy", G, weight=w(None))
    add("average_neighbor_degree", G, source=r.choice(["out", "in"]),
        target=r.choice(["out", "in"]), nodes=r.choice([None, sub]), weight=w(None))
    add("reciprocity", G, nodes=r.choice([None, sub, pick()]))
    return out


def _nx37():
    """Whether the installed NetworkX is 3.7 or later (barycenter is then centroid)."""
    import networkx as nx

    return tuple(int(x) for x in nx.__version__.split(".")[:2]) >= (3, 7)


# --------------------------------------------------------------------------- compare
AUTO = False


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def canon(x, depth=0):
    """A comparable form keeping types and orders."""
    import networkx as nx
    import numpy as np

    if isinstance(x, nx.Graph):
        return ("graph", type(x).__name__, [canon(v) for v in x.nodes],
                [canon(e) for e in (x.edges(keys=True, data=True) if x.is_multigraph()
                                    else x.edges(data=True))],
                canon(dict(x.graph)))
    if isinstance(x, dict):
        return ("dict", [(canon(k), canon(v)) for k, v in x.items()])
    if isinstance(x, np.ndarray):
        return ("ndarray", str(x.dtype), x.shape, [canon(v) for v in x.ravel().tolist()])
    if isinstance(x, (set, frozenset)):
        items = [canon(v) for v in x]
        return (type(x).__name__, sorted(items, key=repr), items)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [canon(v) for v in x])
    if hasattr(x, "__next__") or type(x).__name__ in ("dict_values", "dict_keys",
                                                       "generator"):
        return ("iter", [canon(v) for v in x])
    if isinstance(x, float):
        return ("float", x)
    return (type(x).__name__, x)


def same(a, b, approx, setorder, loose=False):
    """Equal (set iteration order differences appended to ``setorder``); ``loose``: a bool
    or float equal to an int counts as that int (equal keys of another type: 0 / False /
    0.0)."""
    if loose:
        a, b = _loose(a), _loose(b)
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == 2 and a[0] == "float" \
            and b[0] == "float":
        x, y = a[1], b[1]
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        if x == y:
            return True
        # (an absolute floor of 1e-11: hits' entries that are 0 in exact arithmetic come out
        # as ±1e-18..1e-11 noise from ARPACK and from the engine's iteration alike)
        return approx and abs(x - y) <= 1e-9 * max(abs(x), abs(y)) + 1e-11
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        if len(a) != len(b):
            return False
        if len(a) == 3 and a[0] in ("set", "frozenset") and b[0] == a[0]:
            if not same(a[1], b[1], approx, setorder, loose):
                return False
            if not same(a[2], b[2], approx, setorder, loose):
                setorder.append((a[2], b[2]))
            return True
        return all(same(x, y, approx, setorder, loose) for x, y in zip(a, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y, approx, setorder, loose)
                                        for x, y in zip(a, b))
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # noqa: BLE001
        return False


_PUBLIC = {}


def public(name):
    """NetworkX's public function (the decorators outside the dispatchable included:
    not_implemented_for, py_random_state, ... run before dispatching)."""
    import importlib

    from networkx.utils.backends import _registered_algorithms as R

    f = _PUBLIC.get(name)
    if f is None:
        d = R[name]
        mod = importlib.import_module(d.orig_func.__module__)
        f = _PUBLIC[name] = getattr(mod, name)
    return f


def _loose(x):
    if isinstance(x, tuple) and len(x) == 2 and x[0] in ("bool", "float") and \
            isinstance(x[1], (bool, float)) and x[1] == int(x[1]) if (
            isinstance(x, tuple) and len(x) == 2 and x[0] in ("bool", "float")
            and not (isinstance(x[1], float) and not math.isfinite(x[1]))) else False:
        return ("int", int(x[1]))
    if isinstance(x, tuple) and len(x) == 3 and x[0] in ("set", "frozenset"):
        items = [_loose(v) for v in x[2]]
        return (x[0], sorted(items, key=repr), items)
    return x


def run_call(name, args, kwargs, backend, timeout):
    import networkx as nx
    import numpy as np
    from networkx.utils.backends import _registered_algorithms as R

    f = public(name)
    kwargs = dict(kwargs)
    auto = backend and AUTO
    if backend and not auto:
        kwargs["backend"] = backend
    if auto:  # NetworkX picks the backend itself (can_run, should_run, fallback)
        nx.config.backend_priority.algos = ["semiring"]
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    phase = "call"
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = f(*args, **kwargs)
            phase = "consume"
            return ("ok", canon(res))
    except _Timeout:
        return ("hang", phase)
    except NotImplementedError as exc:
        if backend and type(exc) is NotImplementedError:
            return ("declined", phase, str(exc)[:150])
        return ("err", type(exc).__name__, str(exc)[:200])
    except RecursionError as exc:
        return ("err", "RecursionError", str(exc)[:100])
    except Exception as exc:  # noqa: BLE001
        tb = "".join(traceback.format_exception(exc)[-2:])[-400:] if backend else ""
        return ("err", type(exc).__name__, str(exc)[:200], tb)
    finally:
        signal.alarm(0)
        if auto:
            nx.config.backend_priority.algos = []


def snapshot(G):
    return (repr(list(G.nodes(data=True))),
            repr(list(G.edges(keys=True, data=True)) if G.is_multigraph()
                 else list(G.edges(data=True))), repr(dict(G.graph)))


def fmt_args(args, kwargs):
    a = ", ".join(["G"] + [repr(x)[:120] for x in args[1:]])
    k = ", ".join(f"{key}={v!r}"[:120] for key, v in kwargs.items())
    return a + (", " + k if k else "")


def graph_code(G, base):
    """A reproducer's construction of G (the graph or, for a view, its base and the view)."""
    H = base if base is not None else G
    edges = list(H.edges(keys=True, data=True)) if H.is_multigraph() else list(H.edges(data=True))
    s = (f"H = nx.{type(H).__name__}(); H.add_nodes_from({list(H)!r}); "
         f"H.add_edges_from({edges!r})")
    return s


class Tally:
    def __init__(self):
        self.c = collections.Counter()
        self.per = collections.defaultdict(collections.Counter)
        self.seen = set()
        self.bad = 0

    def note(self, name, what):
        self.c[what] += 1
        self.per[name][what] += 1


def compare(name, args, kwargs, G, base, recipe, tally, timeout, verbose, tag=""):
    a = run_call(name, args, kwargs, None, timeout)
    b = run_call(name, args, kwargs, "semiring", timeout)
    approx = name in APPROX
    if b[0] == "declined":
        tally.note(name, "declined")
        if b[1] == "consume":
            report(tally, "LATE-DECLINE", name, args, kwargs, G, base, recipe, a, b, verbose,
                   tag)
        return b
    if b[0] == "hang" and a[0] != "hang":
        report(tally, "HANG", name, args, kwargs, G, base, recipe, a, b, verbose, tag)
        return b
    if a[0] == "hang":
        tally.note(name, "nx_hang")
        return b
    if a[0] == "err" and b[0] == "err":
        if a[1] == b[1]:
            tally.note(name, "both_err")
            return b
        report(tally, "EXC", name, args, kwargs, G, base, recipe, a, b, verbose, tag)
        return b
    if a[0] != b[0]:
        report(tally, "EXC", name, args, kwargs, G, base, recipe, a, b, verbose, tag)
        return b
    if name == "louvain_communities" and a[0] == "ok":  # unseeded: random in NetworkX too
        a, b = ("ok", ("partition", _partition(a[1]))), ("ok", ("partition", _partition(b[1])))
    so = []
    if same(a[1], b[1], approx, so):
        if so:
            report(tally, "SETORDER", name, args, kwargs, G, base, recipe, so[0][0], so[0][1],
                   verbose, tag)
        else:
            tally.note(name, "answered_ok")
        return b
    if ("alias=True" in recipe or "alias" in recipe.split(":")[-1] or _has_alias_arg(args, kwargs)) \
            and same(a[1], b[1], approx, [], loose=True):
        report(tally, "ALIASTYPE", name, args, kwargs, G, base, recipe, a, b, verbose, tag)
        return b
    report(tally, "MISMATCH", name, args, kwargs, G, base, recipe, a, b, verbose, tag)
    return b


def _partition(c):
    """Whether a canonical list of sets is a partition (disjoint, non-empty) of its union."""
    sets = [frozenset(repr(x) for x in s[2]) for s in c[1]]
    return all(sets) and sum(map(len, sets)) == len(frozenset().union(*sets))


def _has_alias_arg(args, kwargs):
    def alias(x):
        if isinstance(x, bool) or (isinstance(x, float) and x in (0.0, 1.0)):
            return True
        if isinstance(x, (list, set, tuple, frozenset)):
            return any(alias(y) for y in x)
        if isinstance(x, dict):
            return any(alias(y) for y in x)
        return False
    return any(alias(x) for x in args[1:]) or any(
        alias(v) for k, v in kwargs.items() if k not in ("reverse", "normalized", "endpoints",
                                                         "keys", "data", "ignore_nan",
                                                         "heuristic", "return_seen",
                                                         "count_zeros", "usebounds",
                                                         "wf_improved"))


def report(tally, kind, name, args, kwargs, G, base, recipe, a, b, verbose, tag):
    tally.note(name, kind)
    tally.bad += 1
    key = (kind, name, str(a)[:60] if kind == "EXC" else "", str(b)[:60] if kind == "EXC" else "")
    if key in tally.seen and not verbose:
        return
    tally.seen.add(key)
    print(f"\n{kind}{tag} {name}({fmt_args(args, kwargs)})\n  recipe: {recipe}\n"
          f"  build:  {graph_code(G, base)[:1500]}\n"
          f"  nx: {str(a)[:700]}\n  sr: {str(b)[:900]}", flush=True)


# --------------------------------------------------------------------------- mutation / cache
def mutations(G, r):
    """Mutations through NetworkX's API (each clears G.__networkx_cache__)."""
    import networkx as nx

    nodes = list(G)
    ms = []
    if len(nodes) >= 2:
        u, v = r.sample(nodes, 2)
        ms.append(("add_edge", lambda: G.add_edge(u, v, weight=r.choice([1, 5, 0.25]))))
    if G.number_of_edges():
        e = r.choice(list(G.edges(keys=True) if G.is_multigraph() else G.edges()))
        ms.append(("remove_edge", lambda: G.remove_edge(*e)))
        ms.append(("reweight_add_edge", lambda: G.add_edge(e[0], e[1], weight=7)))
        ms.append(("set_edge_attributes",
                   lambda: nx.set_edge_attributes(G, {e: 9} if not G.is_multigraph() else
                                                  {e: 9}, "weight")))
    if nodes:
        x = r.choice(nodes)
        ms.append(("remove_node", lambda: G.remove_node(x)))
    ms.append(("add_node", lambda: G.add_node("new_isolated")))
    return ms


CACHE_FUNCS = ["single_source_dijkstra_path_length", "shortest_path_length", "pagerank",
               "connected_components", "weakly_connected_components", "bfs_edges",
               "betweenness_centrality", "all_pairs_shortest_path_length", "core_number",
               "triangles", "isolates", "degree_centrality", "floyd_warshall",
               "single_source_bellman_ford_path_length", "minimum_spanning_tree",
               "eccentricity", "number_strongly_connected_components"]


def cache_round(G, base, recipe, r, tally, timeout, verbose):
    """Call, mutate through the API, call again; on a view, mutate the viewed graph."""
    import networkx as nx

    owner = base if base is not None else G
    if nx.is_frozen(owner):
        return
    nodes = list(G)

    def cs():
        out = []
        for name in CACHE_FUNCS:
            s = nodes[0] if nodes else 0
            if name in ("single_source_dijkstra_path_length",
                        "single_source_bellman_ford_path_length", "bfs_edges"):
                if s not in G:
                    continue
                out.append((name, (G, s), {}))
            elif name == "shortest_path_length":
                if s in G:
                    out.append((name, (G, s), {"weight": "weight"}))
            elif G.is_multigraph() and name in ("pagerank", "core_number",
                                                "minimum_spanning_tree",
                                                "degree_centrality"):
                continue
            else:
                out.append((name, (G,), {}))
        return out

    for step, (mname, mutate) in enumerate(mutations(owner, r)[:3]):
        first = [(c, run_call(c[0], c[1], c[2], "semiring", timeout)) for c in cs()]
        try:
            mutate()
        except Exception:  # noqa: BLE001
            continue
        nodes = list(G)
        for (name, args, kwargs), _ in first:
            if name in ("single_source_dijkstra_path_length", "bfs_edges",
                        "shortest_path_length", "single_source_bellman_ford_path_length") \
                    and args[1] not in G:
                continue
            compare(name, args, kwargs, G, base, recipe + f" after {mname}", tally, timeout,
                    verbose, tag=f"-STALE?({mname})")
        # second, a direct change behind NetworkX's back (documented as the user's to clear)


# --------------------------------------------------------------------------- hand cases
def hand_cases():
    """[(label, G, base, [(name, args, kwargs)])] of hand-made awkward inputs."""
    import networkx as nx

    cases = []
    E = nx.Graph()
    cases.append(("empty Graph", E, None, None))
    D0 = nx.DiGraph()
    cases.append(("empty DiGraph", D0, None, None))
    S = nx.Graph()
    S.add_node(0)
    cases.append(("single node", S, None, None))
    L = nx.Graph()
    L.add_edge(0, 0, weight=2)
    cases.append(("single self-loop", L, None, None))
    # 0 / False / 0.0 aliases, 1 / True / 1.0
    A = nx.Graph()
    A.add_nodes_from([1, "a", 0, (0,), 2])
    A.add_edge(False, True, weight=2)
    A.add_edge(1.0, "a", weight=1)
    A.add_edge(0.0, (0,), weight=3)
    A.add_edge(2, "a")
    cases.append(("aliases 0/False/0.0", A, None,
                  [(n, (A, s), {}) for s in (False, 0.0, True, 1.0, 0, 1)
                   for n in ("single_source_shortest_path_length", "single_source_dijkstra",
                             "bfs_edges", "bfs_successors", "bfs_predecessors",
                             "single_source_shortest_path", "descendants", "ancestors",
                             "node_connected_component", "dijkstra_predecessor_and_distance",
                             "bellman_ford_predecessor_and_distance", "predecessor",
                             "single_source_bellman_ford", "descendants_at_distance"
                             if False else "single_source_dijkstra_path_length",
                             "eccentricity", "is_isolate", "bfs_tree")]
                  + [("shortest_path", (A, False, "a"), {}),
                     ("shortest_path", (A, False), {"weight": "weight"}),
                     ("shortest_path_length", (A, 0.0), {}),
                     ("shortest_path", (A,), {"target": True}),
                     ("descendants_at_distance", (A, False, 1), {}),
                     ("bfs_layers", (A, [False, 2]), {}),
                     ("multi_source_dijkstra", (A, {False, 2}), {}),
                     ("multi_source_dijkstra_path_length", (A, [0.0, True]), {}),
                     ("single_target_shortest_path_length", (A, False), {}),
                     ("single_target_shortest_path", (A, True), {}),
                     ("has_path", (A, False, True), {}),
                     ("bidirectional_shortest_path", (A, False, 2), {}),
                     ("bidirectional_dijkstra", (A, False, 2), {}),
                     ("triangles", (A, False), {}), ("clustering", (A, True), {}),
                     ("eccentricity", (A,), {"v": [False, 2]}),
                     ("pagerank", (A,), {"personalization": {False: 1}}),
                     ("pagerank", (A,), {"nstart": {False: 1, True: 1}}),
                     ("pagerank", (A,), {"dangling": {0.0: 1}}),
                     ("maximum_flow_value", (A, False, 2), {}),
                     ("reciprocity", (A, False), {}),
                     ("average_neighbor_degree", (A,), {"nodes": [False, 2]}),
                     ("closeness_centrality", (A,), {"u": False}),
                     ("k_corona", (A, 0), {}),
                     ("modularity", (A, [{False, True, "a"}, {(0,), 2}]), {}),
                     ("floyd_warshall_numpy", (A,), {"nodelist": [False, True, "a", (0,), 2]}),
                     ]))
    # weights with huge ints, nan, inf, str, None, bool
    for label, vals in (("huge", [2**64, 2**63 + 5, 1]), ("nan", [math.nan, 1.0, 2.0]),
                        ("inf", [math.inf, 1, 2]), ("str", ["1", 1, 2]),
                        ("None", [None, 1, 2]), ("bool", [True, False, True]),
                        ("neg", [-1, 2, 3]), ("zero", [0, 0, 1]),
                        ("negcycle", [-5, 1, 1])):
        for cls in (nx.Graph, nx.DiGraph):
            G = cls()
            G.add_edge("a", "b", weight=vals[0])
            G.add_edge("b", "c", weight=vals[1])
            G.add_edge("c", "a", weight=vals[2])
            G.add_edge("c", "d")
            cases.append((f"weights {label} {cls.__name__}", G, None, None))
    # multigraph with parallel edges, one weight missing
    M = nx.MultiDiGraph()
    M.add_edge(0, 1, weight=3)
    M.add_edge(0, 1)
    M.add_edge(0, 1, weight=0.5)
    M.add_edge(1, 2, weight=-1)
    M.add_edge(2, 2)
    M.add_node(9)
    cases.append(("multidigraph parallel", M, None, None))
    # nodes added in unusual orders
    U = nx.DiGraph()
    U.add_nodes_from([5, 3, "z", 1])
    U.add_edges_from([(1, 5), (5, 3), (3, 1), ("z", 5), (7, 1)])
    cases.append(("unusual order digraph", U, None, None))
    # views
    B = nx.DiGraph([(0, 1, {"weight": 1}), (1, 0, {"weight": 5}), (1, 2, {"weight": 2}),
                    (2, 3, {"weight": 1})])
    cases.append(("to_undirected view asymmetric weights", B.to_undirected(as_view=True), B,
                  None))
    cases.append(("reverse view", nx.reverse_view(B), B, None))
    return cases


def all_calls_for(G, r):
    return calls(G, r)


# --------------------------------------------------------------------------- child / parent
def child(args):
    import networkx as nx

    import nx_semiring.interface as iface

    # spy on can_run: count NetworkX's dispatch decisions
    counts = collections.Counter()
    orig = iface.BackendInterface.can_run

    def spy(name, a, k):
        res = orig(name, a, k)
        counts["can_run_true" if res is True else "can_run_refused"] += 1
        return res

    iface.BackendInterface.can_run = staticmethod(spy)
    iface.backend_interface.can_run = spy
    if args.auto:
        global AUTO
        AUTO = True
        nx.config.fallback_to_nx = True
    tally = Tally()
    only = set(args.only.split(",")) if args.only else None
    prog = open(args.progress, "w")  # noqa: SIM115
    ncalls = 0

    def do(label, G, base, cl, r):
        nonlocal ncalls
        before = snapshot(base if base is not None else G)
        for name, a, k in cl:
            if only and name not in only:
                continue
            prog.write(json.dumps([label, name, fmt_args(a, k)[:300]]) + "\n")
            prog.flush()
            ncalls += 1
            compare(name, a, k, G, base, label, tally, args.timeout, args.verbose)
        after = snapshot(base if base is not None else G)
        if after != before:
            tally.bad += 1
            print(f"\nMUTATED {label}\n  before: {before}\n  after: {after}", flush=True)

    if args.hand:
        for label, G, base, cl in hand_cases():
            r = random.Random(label)
            cl2 = calls(G, r) if cl is None else cl + calls(G, r)
            do("hand: " + label, G, base, cl2, r)
    for seed in range(args.start, args.start + args.seeds):
        G, base, recipe = make_graph(seed)
        r = random.Random(seed * 7919 + 1)
        do(recipe, G, base, calls(G, r), r)
        if args.cache:
            prog.write(json.dumps([recipe, "cache_round", ""]) + "\n")
            prog.flush()
            cache_round(G, base, recipe, r, tally, args.timeout, args.verbose)
    out = {"c": dict(tally.c), "per": {k: dict(v) for k, v in tally.per.items()},
           "bad": tally.bad, "calls": ncalls, "dispatch": dict(counts)}
    print("@@RESULT " + json.dumps(out), flush=True)


def parent(args):
    total = collections.Counter()
    per = collections.defaultdict(collections.Counter)
    dispatch = collections.Counter()
    calls_n = bad = 0
    start = args.start
    end = args.start + args.seeds
    first = True
    t0 = time.time()
    while start < end or (first and args.hand):
        n = min(args.chunk, end - start)
        prog = tempfile.mktemp(prefix="aud27_prog_")
        cmd = [sys.executable, __file__, "--child", "--start", str(start), "--seeds", str(n),
               "--timeout", str(args.timeout), "--progress", prog]
        for flag in ("auto", "verbose"):
            if getattr(args, flag):
                cmd.append("--" + flag)
        if not args.cache:
            cmd.append("--no-cache")
        if not (first and args.hand):
            cmd.append("--no-hand")
        if args.only:
            cmd += ["--only", args.only]
        limit = args.timeout * 6 + 60 + 20 * n
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, check=False)
            outp = p.stdout
            res = None
            for line in outp.splitlines():
                if line.startswith("@@RESULT "):
                    res = json.loads(line[9:])
                else:
                    print(line)
            if res is None:
                bad += 1
                print(f"\nCRASH child seeds {start}..{start + n - 1} rc={p.returncode}\n"
                      f"  last call: {_last(prog)}\n  stderr: {p.stderr[-1500:]}", flush=True)
                start += n  # skip the chunk (reported)
                first = False
                continue
        except subprocess.TimeoutExpired as exc:
            bad += 1
            print((exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else
                  (exc.stdout or ""))
            print(f"\nHANG child seeds {start}..{start + n - 1}: killed after {limit}s\n"
                  f"  last call: {_last(prog)}", flush=True)
            start += n
            first = False
            continue
        total.update(res["c"])
        for k, v in res["per"].items():
            per[k].update(v)
        dispatch.update(res["dispatch"])
        calls_n += res["calls"]
        bad += res["bad"]
        start += n
        first = False
        try:
            os.unlink(prog)
        except OSError:
            pass
    print("\n==== per function (answered_ok / declined / both_err / bad kinds)")
    for name in sorted(per):
        print(f"  {name}: {dict(per[name])}")
    print(f"\n==== {calls_n} compared calls in {time.time() - t0:.0f}s; outcomes {dict(total)}")
    print(f"==== dispatch decisions (can_run spy): {dict(dispatch)}")
    print(f"==== DISCREPANCIES: {bad}")


def _last(prog):
    try:
        with open(prog) as fh:
            lines = fh.read().splitlines()
        return lines[-1] if lines else "(none)"
    except OSError:
        return "(no progress file)"


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=300)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=50)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--only", default="")
    ap.add_argument("--auto", action="store_true")
    ap.add_argument("--no-hand", dest="hand", action="store_false")
    ap.add_argument("--no-cache", dest="cache", action="store_false")
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--progress", default=os.devnull)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.child:
        sys.setrecursionlimit(10000)
        child(args)
    else:
        parent(args)


if __name__ == "__main__":
    main()
