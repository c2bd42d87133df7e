"""aud27c: the NetworkX backend ``semiring`` on realistic and larger graphs, in NetworkX's
automatic mode, and across graph mutations (what aud27_nx_fuzz.py did not cover).

Usage (from a scratch directory, not the repository root)::

    cd /tmp && python /work/main/bench/probes/aud27c_nx_fuzz.py
        [--families name,name] [--parts explicit,auto,warm,internal,seq]
        [--timeout T] [--child-limit S] [-v]

    --families   graph families to run (default: all; see FAMILIES below; "list" lists them)
    --parts      explicit: NetworkX alone vs ``backend="semiring"``;
                 auto: NetworkX alone vs ``nx.config.backend_priority.algos = ["semiring"]``
                       with ``fallback_to_nx = True`` and no backend= keyword, on a graph with
                       no cached conversion at the start (should_run decides);
                 warm: auto again after the explicit pass left conversions cached;
                 force: auto with the backend's should_run overridden to True (a cost
                       decision, not a correctness one), from an empty cache: every call
                       can_run accepts goes to the backend, NotImplementedError falls back;
                 internal: NetworkX functions that call dispatched functions inside
                       (average_shortest_path_length, all_shortest_paths, girvan_newman, ...)
                       auto (and, with force, autoforce) vs NetworkX alone;
                 seq: mutations through NetworkX's API between calls (explicit, auto,
                       autoforce), on G, a subgraph view and a reverse/to_directed view;
    --timeout    seconds per call (SIGALRM), default 30
    --child-limit  seconds per family's child process (a hang in compiled code kills it)

"NetworkX alone" is ``nx.config.backend_priority.algos = []`` (NetworkX's own code).
Each family runs in a child process. Results are compared with types, dict key order, list
and generator order and set iteration order; floats within rel 1e-9 / abs 1e-12 for the
numeric measures (APPROX), exactly otherwise. A plain NotImplementedError under backend= is
a decline (counted). Per function: how many backend calls answered and declined (a spy on
nx_semiring.interface.BackendInterface: can_run refusals, should_run refusals, the function
raising NotImplementedError, the function returning). Prints each discrepancy with a
reproducer and a final count. Exit status 0 always (the count is printed).
"""

from __future__ import annotations

import collections
import itertools
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
import traceback
import warnings

# --------------------------------------------------------------------------- families
# name -> code (exec'd with nx, random, math): builds G. The code is the reproducer.
_W = "r = random.Random({s}); nx.set_edge_attributes(G, {{e: {expr} for e in G.edges}}, 'weight')"
FAMILIES = {
    "karate": "G = nx.karate_club_graph()",
    "karate_str": "G = nx.relabel_nodes(nx.karate_club_graph(), lambda i: f'n{i}')",
    "lesmis": "G = nx.les_miserables_graph()",
    "lesmis_float": "G = nx.les_miserables_graph(); nx.set_edge_attributes(G, "
                    "{(u, v): d['weight'] * 0.1 for u, v, d in G.edges(data=True)}, 'weight')",
    "florentine": "G = nx.florentine_families_graph()",
    "davis": "G = nx.davis_southern_women_graph()",
    "ba500_intties": "G = nx.barabasi_albert_graph(500, 3, seed=1); "
                     + _W.format(s=1, expr="r.randint(1, 3)"),
    "ws1000_floatties": "G = nx.watts_strogatz_graph(1000, 6, 0.1, seed=2); "
                        + _W.format(s=2, expr="r.choice([0.1, 0.2, 0.3, 0.5, 1.0])"),
    "rgg400_dist": "G = nx.random_geometric_graph(400, 0.1, seed=3); "
                   "pos = nx.get_node_attributes(G, 'pos'); nx.set_edge_attributes(G, "
                   "{(u, v): math.dist(pos[u], pos[v]) for u, v in G.edges}, 'weight')",
    "grid30": "G = nx.grid_2d_graph(30, 30)",
    "grid20_str_w12": "G = nx.relabel_nodes(nx.grid_2d_graph(20, 20), lambda x: f'{x[0]},{x[1]}'); "
                      + _W.format(s=4, expr="r.randint(1, 2)"),
    "gnp400_dir": "G = nx.gnp_random_graph(400, 0.01, seed=5, directed=True); "
                  + _W.format(s=5, expr="r.randint(1, 3)"),
    "scalefree1000_dig": "G = nx.DiGraph(nx.scale_free_graph(1000, seed=6)); "
                         + _W.format(s=6, expr="r.randint(1, 2)"),
    "scalefree300_multi": "G = nx.scale_free_graph(300, seed=7)",
    "dag300": "D = nx.gnp_random_graph(300, 0.02, seed=8, directed=True); G = nx.DiGraph(); "
              "G.add_nodes_from(D); G.add_edges_from((u, v) for u, v in D.edges if u < v); "
              + _W.format(s=8, expr="r.randint(1, 3)"),
    "tree200": "G = nx.random_labeled_tree(200, seed=9)",
    "ba3000_large": "G = nx.barabasi_albert_graph(3000, 2, seed=10); "
                    + _W.format(s=10, expr="r.randint(1, 2)"),
}

APPROX = {
    "pagerank", "betweenness_centrality", "edge_betweenness_centrality", "clustering",
    "average_clustering", "transitivity", "eigenvector_centrality", "katz_centrality",
    "hits", "closeness_centrality", "harmonic_centrality", "eigenvector_centrality_numpy",
    "katz_centrality_numpy", "global_efficiency", "modularity", "flow_hierarchy",
    "reciprocity", "overall_reciprocity", "average_neighbor_degree", "degree_centrality",
    "in_degree_centrality", "out_degree_centrality", "average_shortest_path_length",
    "local_efficiency", "closeness_vitality", "sigma", "average_degree_connectivity",
    "rich_club_coefficient",
}
REL, ABS = 1e-9, 1e-12

CUR_MODE = ["nx"]
SPY = collections.defaultdict(collections.Counter)  # (mode, name) -> outcome counts
SLOW = []  # (part, name, nx seconds, other mode's seconds) of calls over 5 s
ANSWERED = [0]  # backend functions that returned, all modes (did this call reach the backend?)


# --------------------------------------------------------------------------- comparison
def canon(x):
    import networkx as nx
    import numpy as np

    if isinstance(x, nx.Graph):
        return ("graph", type(x).__name__, [canon(v) for v in x.nodes],
                [canon(e) for e in (x.edges(keys=True, data=True) if x.is_multigraph()
                                    else x.edges(data=True))], canon(dict(x.graph)))
    if isinstance(x, dict):
        return ("dict", [(canon(k), canon(v)) for k, v in x.items()])
    if isinstance(x, np.ndarray):
        return ("ndarray", str(x.dtype), x.shape, [canon(v) for v in x.ravel().tolist()])
    if isinstance(x, (set, frozenset)):
        items = [canon(v) for v in x]
        return (type(x).__name__, sorted(items, key=repr), items)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [canon(v) for v in x])
    if hasattr(x, "__next__") or type(x).__name__ in ("dict_values", "dict_keys", "generator"):
        return ("iter", [canon(v) for v in x])
    if isinstance(x, float):
        return ("float", x)
    return (type(x).__name__, x)


def diff(a, b, approx, path="$"):
    """None if equal, else a short description of the first difference."""
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == 2 == len(b) and \
            a[0] == "float" == b[0]:
        x, y = a[1], b[1]
        if (math.isnan(x) and math.isnan(y)) or x == y:
            return None
        if approx and abs(x - y) <= REL * max(abs(x), abs(y)) + ABS:
            return None
        return f"{path}: {x!r} != {y!r}"
    if type(a) is not type(b):
        return f"{path}: type {type(a).__name__} vs {type(b).__name__}: {str(a)[:80]} / {str(b)[:80]}"
    if isinstance(a, tuple):
        if len(a) != len(b):
            return f"{path}: len {len(a)} vs {len(b)}"
        if len(a) == 2 and isinstance(a[0], str) and not isinstance(a[1], (list, tuple)) \
                and a[0] != b[0]:
            return f"{path}: type {a[0]} vs {b[0]} ({a[1]!r} / {b[1]!r})"
        if len(a) == 3 and a[0] in ("set", "frozenset") and a[0] == b[0]:
            d = diff(a[1], b[1], approx, path + "{}")
            if d:
                return d
            d = diff(a[2], b[2], approx, path + "{iter}")
            return ("SETORDER " + d) if d else None
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, approx, f"{path}.{i}" if i else path)
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: len {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, approx, f"{path}[{i}]")
            if d:
                return d
        return None
    try:
        return None if (a == b) else f"{path}: {a!r:.100} != {b!r:.100}"
    except Exception:  # noqa: BLE001
        return f"{path}: uncomparable"


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def set_mode(mode):
    import networkx as nx

    CUR_MODE[0] = mode
    auto = mode in ("auto", "autoforce")
    nx.config.fallback_to_nx = True
    # functions returning graphs (bfs_tree, k_core, minimum_spanning_tree, ...) read
    # backend_priority.generators in NetworkX 3.6; the others backend_priority.algos
    nx.config.backend_priority.algos = ["semiring"] if auto else []
    nx.config.backend_priority.generators = ["semiring"] if auto else []


PROGRESS = [None]


def run(fn, args, kwargs, mode, timeout, post=None):
    """('ok', canon) / ('declined', msg) / ('err', type, msg) / ('hang',)."""
    import numpy as np

    if PROGRESS[0] is not None:
        PROGRESS[0].seek(0)
        PROGRESS[0].write(f"{mode} {getattr(fn, '__name__', fn)} {kwargs} "
                          f"t={time.time():.0f}".ljust(300))
        PROGRESS[0].flush()

    kwargs = dict(kwargs)
    if mode == "explicit":
        kwargs["backend"] = "semiring"
    set_mode(mode if mode in ("auto", "autoforce") else "nx")
    CUR_MODE[0] = mode
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = fn(*args, **kwargs)
            if post is not None:
                res = post(res)
            return ("ok", canon(res))
    except _Timeout:
        return ("hang",)
    except NotImplementedError as exc:
        if mode == "explicit" and type(exc) is NotImplementedError:
            return ("declined", str(exc)[:150])
        return ("err", type(exc).__name__, str(exc)[:200])
    except Exception as exc:  # noqa: BLE001
        tb = "".join(traceback.format_exception(exc)[-3:])[-500:] if mode != "nx" else ""
        return ("err", type(exc).__name__, str(exc)[:200], tb)
    finally:
        signal.alarm(0)
        set_mode("nx")


def install_spy():
    import nx_semiring
    import nx_semiring.interface as iface

    B = iface.BackendInterface
    orig_can, orig_should = B.can_run, B.should_run

    def can_run(name, args, kwargs):
        r = orig_can(name, args, kwargs)
        if r is not True:
            SPY[(CUR_MODE[0], name)]["can_run_refused"] += 1
        return r

    def should_run(name, args, kwargs):
        r = orig_should(name, args, kwargs)
        if r is not True:
            SPY[(CUR_MODE[0], name)]["should_run_refused"] += 1
            if CUR_MODE[0] == "autoforce":  # a cost decision only: overridden to test
                return True
        return r

    B.can_run = staticmethod(can_run)
    B.should_run = staticmethod(should_run)

    def wrap(name, f):
        def g(*a, **k):
            try:
                r = f(*a, **k)
            except NotImplementedError:
                SPY[(CUR_MODE[0], name)]["raised_NIE"] += 1
                raise
            except Exception:
                SPY[(CUR_MODE[0], name)]["raised_other"] += 1
                raise
            SPY[(CUR_MODE[0], name)]["answered"] += 1
            ANSWERED[0] += 1
            return r
        return g

    for name in nx_semiring.FUNCTIONS:
        setattr(B, name, staticmethod(wrap(name, getattr(B, name))))


# --------------------------------------------------------------------------- calls
def public(name):
    import importlib

    from networkx.utils.backends import _registered_algorithms as R

    d = R[name]
    mod = importlib.import_module(d.orig_func.__module__)
    return getattr(mod, name)


def dispatched_calls(G, r):
    """[(name, args, kwargs)]: realistic options, gated by size (NetworkX's own cost)."""
    import networkx as nx

    n = len(G)
    nodes = list(G)
    directed = G.is_directed()
    multi = G.is_multigraph()
    weighted = any("weight" in d for *_, d in itertools.islice(G.edges(data=True), 5))
    srcs = [nodes[0]] + r.sample(nodes, min(3, n))
    tgts = r.sample(nodes, min(3, n))
    small, medium = n <= 120, n <= 1000
    ws = [None, "weight"] if weighted else [None]
    out = []
    add = lambda name, *a, **k: out.append((name, (G,) + a, k))  # noqa: E731
    for s in srcs[:3]:
        add("bfs_edges", s)
        add("bfs_edges", s, depth_limit=2)
        add("bfs_tree", s)
        add("bfs_predecessors", s)
        add("bfs_successors", s)
        add("bfs_layers", s)
        add("descendants_at_distance", s, 2)
        add("single_source_shortest_path", s)
        add("single_source_shortest_path_length", s)
        add("single_source_shortest_path", s, cutoff=2)
        add("predecessor", s)
        add("ancestors", s)
        add("descendants", s)
        add("single_target_shortest_path_length", s)
        add("single_target_shortest_path", s)
        if not directed:
            add("node_connected_component", s)
        add("is_isolate", s)
        for w in ws:
            add("shortest_path", s, weight=w)
            add("shortest_path_length", s, weight=w)
        if weighted:
            add("single_source_dijkstra", s)
            add("single_source_dijkstra_path", s)
            add("single_source_dijkstra_path_length", s)
            add("single_source_dijkstra", s, cutoff=3)
            add("dijkstra_predecessor_and_distance", s)
            add("single_source_bellman_ford", s)
            add("single_source_bellman_ford_path_length", s)
            add("bellman_ford_predecessor_and_distance", s)
            add("multi_source_dijkstra", [s, srcs[-1]])
            add("multi_source_dijkstra_path_length", {s, srcs[-1]})
            add("multi_source_dijkstra_path", [s, srcs[-1]])
            add("single_source_shortest_path_length", s)
        else:
            add("single_source_dijkstra", s)
            add("dijkstra_predecessor_and_distance", s)
            add("single_source_bellman_ford_path", s)
        for t in tgts[:2]:
            add("has_path", s, t)
            add("bidirectional_shortest_path", s, t)
            for w in ws:
                add("shortest_path", s, t, weight=w)
                add("shortest_path_length", s, t, weight=w)
            add("dijkstra_path", s, t)
            add("dijkstra_path_length", s, t)
            add("bellman_ford_path", s, t)
            add("bellman_ford_path_length", s, t)
            add("bidirectional_dijkstra", s, t)
            add("maximum_flow_value", s, t, capacity="weight")
            add("minimum_cut_value", s, t, capacity="weight")
    for name in ("connected_components", "number_connected_components", "is_connected",
                 "strongly_connected_components", "weakly_connected_components",
                 "number_weakly_connected_components", "is_weakly_connected",
                 "number_strongly_connected_components", "is_strongly_connected",
                 "attracting_components", "number_attracting_components",
                 "core_number", "transitivity", "label_propagation_communities",
                 "degree_centrality", "in_degree_centrality", "out_degree_centrality",
                 "isolates", "number_of_isolates", "is_directed_acyclic_graph",
                 "has_cycle", "is_aperiodic", "is_tree", "is_forest", "is_arborescence",
                 "is_branching", "is_bipartite", "color", "is_semiconnected",
                 "overall_reciprocity", "triangles", "clustering", "average_clustering",
                 "k_core", "k_shell", "k_crust", "k_truss", "flow_hierarchy", "reciprocity",
                 "average_neighbor_degree", "pagerank", "eigenvector_centrality",
                 "katz_centrality", "hits", "sets", "negative_edge_cycle",
                 "dag_longest_path_length", "minimum_spanning_tree", "maximum_spanning_tree",
                 "minimum_spanning_edges", "maximum_spanning_edges", "louvain_communities",
                 "hopcroft_karp_matching", "global_efficiency" if medium else None):
        if name:
            add(name)
    add("is_attracting_component")
    add("k_corona", 2)
    add("k_truss", 3)
    add("k_core", 3)
    add("triangles", nodes=srcs)
    add("clustering", nodes=srcs)
    if weighted:
        add("clustering", weight="weight")
        add("pagerank", weight=None)
        add("pagerank", alpha=0.9, tol=1e-10)
        add("pagerank", personalization={srcs[0]: 1, srcs[-1]: 2})
        add("minimum_spanning_edges", data=False)
        add("dag_longest_path_length", default_weight=2)
        add("average_neighbor_degree", weight="weight")
        add("eigenvector_centrality", weight="weight")
        add("katz_centrality", alpha=0.01, weight="weight")
    add("katz_centrality", alpha=0.01)
    add("degree_centrality")
    if n <= 300:
        add("eigenvector_centrality_numpy")
        add("katz_centrality_numpy", alpha=0.01)
    comms = [set(nodes[: n // 2]), set(nodes[n // 2:])]
    add("modularity", comms)
    add("modularity", comms, weight=None)
    k = min(30, n)
    add("betweenness_centrality", k=k, seed=3)
    if weighted:
        add("betweenness_centrality", k=k, seed=3, weight="weight")
    add("edge_betweenness_centrality", k=k, seed=4)
    if medium and n <= 500:
        for w in ws:
            add("closeness_centrality", distance=w)
            add("harmonic_centrality", distance=w)
            add("eccentricity", weight=w)
            add("diameter", weight=w)
            add("radius", weight=w)
            add("center", weight=w)
            add("periphery", weight=w)
            add("barycenter", weight=w)
            add("average_shortest_path_length", weight=w)
            add("wiener_index", weight=w)
        add("diameter", usebounds=True)
        add("all_pairs_shortest_path_length")
        add("closeness_centrality", u=srcs[0])
        add("eccentricity", v=srcs)
    if small:
        add("betweenness_centrality")
        add("betweenness_centrality", normalized=False, endpoints=True)
        add("edge_betweenness_centrality")
        if weighted:
            add("betweenness_centrality", weight="weight")
        add("all_pairs_shortest_path")
        add("all_pairs_dijkstra_path_length")
        add("all_pairs_dijkstra_path")
        add("all_pairs_dijkstra")
        add("all_pairs_bellman_ford_path_length")
        add("all_pairs_bellman_ford_path")
        add("floyd_warshall")
        add("floyd_warshall_predecessor_and_distance")
        add("floyd_warshall_numpy")
        add("floyd_warshall_numpy", weight=None)
        add("johnson")
        add("all_pairs_shortest_path_length", cutoff=2)
        for w in ws:
            add("schultz_index", weight=w)
            add("gutman_index", weight=w)
            add("hyper_wiener_index", weight=w)
    return out


def internal_calls(G, r):
    """[(label, fn, args, kwargs, post)]: NetworkX functions (most not dispatched to this
    backend) that call dispatched ones inside."""
    import networkx as nx

    n = len(G)
    nodes = list(G)
    directed = G.is_directed()
    weighted = any("weight" in d for *_, d in itertools.islice(G.edges(data=True), 5))
    s, t = nodes[0], r.choice(nodes)
    out = []
    add = lambda label, fn, *a, post=None, **k: out.append((label, fn, (G,) + a, k, post))  # noqa: E731
    lst = list
    add("all_shortest_paths", nx.all_shortest_paths, s, t, post=lst)
    if weighted:
        add("all_shortest_paths[w]", nx.all_shortest_paths, s, t, weight="weight", post=lst)
        add("all_shortest_paths[bf]", nx.all_shortest_paths, s, t, weight="weight",
            method="bellman-ford", post=lst)
        add("single_source_all_shortest_paths[w]", nx.single_source_all_shortest_paths, s,
            weight="weight", post=lambda g: [(k, list(v)) for k, v in g])
    add("single_source_all_shortest_paths", nx.single_source_all_shortest_paths, s,
        post=lambda g: [(k, list(v)) for k, v in g])
    add("shortest_simple_paths", nx.shortest_simple_paths, s, t,
        post=lambda g: list(itertools.islice(g, 5)))
    add("ego_graph", nx.ego_graph, s, radius=2)
    if weighted:
        add("ego_graph[w]", nx.ego_graph, s, radius=3, distance="weight")
    add("condensation", nx.condensation, post=lambda C: (canon(C), C.graph["mapping"]))
    add("is_eulerian", nx.is_eulerian)
    if not directed:
        add("local_efficiency", nx.local_efficiency) if n <= 500 else None
        add("bridges", nx.bridges, post=lst)
        add("has_bridges", nx.has_bridges)
        add("is_biconnected", nx.is_biconnected)
        add("voronoi_cells", nx.voronoi_cells, [s, t])
        add("rich_club_coefficient", nx.rich_club_coefficient, normalized=False)
        add("onion_layers", nx.onion_layers)
        add("average_degree_connectivity", nx.average_degree_connectivity)
        add("k_edge_components", nx.k_edge_components, 2, post=lambda g: sorted(
            map(sorted, map(lambda c: map(repr, c), g))))
        add("is_distance_regular", nx.is_distance_regular) if n <= 500 else None
        add("girvan_newman", nx.community.girvan_newman,
            post=lambda g: list(itertools.islice(g, 2))) if n <= 120 else None
        add("greedy_modularity_communities", nx.community.greedy_modularity_communities) \
            if n <= 500 else None
        add("partition_quality", nx.community.partition_quality,
            [set(nodes[: n // 2]), set(nodes[n // 2:])])
        add("closeness_vitality", nx.closeness_vitality, node=s) if n <= 300 else None
        add("steiner_tree", nx.approximation.steiner_tree, nodes[:5]) if n <= 500 else None
        add("kemeny_constant", nx.kemeny_constant) if n <= 300 and nx.is_connected(G) else None
        add("is_chordal", nx.is_chordal)
        add("node_connectivity_st", nx.node_connectivity, s, t) if n <= 500 and s != t else None
        add("edge_connectivity_st", nx.edge_connectivity, s, t) if n <= 500 and s != t else None
        add("random_reference", nx.random_reference, niter=1, seed=5) if n <= 120 else None
        add("sigma", nx.sigma, niter=1, nrand=1, seed=6) if n <= 40 else None
    else:
        add("dag_longest_path", nx.dag_longest_path) if nx.is_directed_acyclic_graph(G) else None
        add("topological_generations", nx.topological_generations, post=lst) \
            if nx.is_directed_acyclic_graph(G) else None
        add("transitive_closure_dag", nx.transitive_closure_dag) \
            if nx.is_directed_acyclic_graph(G) and n <= 300 else None
        add("flow_hierarchy", nx.flow_hierarchy)
        add("is_strongly_connected", nx.is_strongly_connected)
        add("kosaraju", nx.kosaraju_strongly_connected_components, post=lst)
    add("average_shortest_path_length_cc", lambda G: [
        nx.average_shortest_path_length(G.subgraph(c)) for c in
        itertools.islice((nx.connected_components(G) if not directed
                          else nx.weakly_connected_components(G)), 3)
        if not directed or nx.is_strongly_connected(G.subgraph(c))])
    add("diameter_largest_cc", lambda G: nx.diameter(G.subgraph(max(
        nx.connected_components(G), key=len)))) if not directed and n <= 500 else None
    add("eccentricity_lcc_weighted", lambda G: nx.eccentricity(G.subgraph(max(
        nx.connected_components(G), key=len)), weight="weight")) \
        if not directed and weighted and n <= 500 else None
    add("hits", nx.hits, max_iter=500)
    return [c for c in out if c is not None]


# --------------------------------------------------------------------------- reporting
class Tally:
    def __init__(self):
        self.c = collections.Counter()  # (part, outcome)
        self.per = collections.defaultdict(collections.Counter)  # name -> outcome
        self.bad = 0
        self.seen = set()


def fmt_call(name, args, kwargs):
    a = ", ".join(["G"] + [repr(x)[:100] for x in args[1:]])
    k = ", ".join(f"{key}={v!r}"[:100] for key, v in kwargs.items())
    return f"{name}({a}{', ' + k if k else ''})"


def report(tally, kind, part, fam, hist, call, a, b, verbose):
    tally.bad += 1
    tally.c[(part, kind)] += 1
    key = (kind, part, call.split("(")[0], fam if verbose else "")
    if key in tally.seen and not verbose:
        tally.c[(part, kind + "(repeat, not printed)")] += 1
        return
    tally.seen.add(key)
    print(f"\n{kind} [{part}] {fam}: {call}\n  build: {FAMILIES[fam]}"
          + (f"\n  then: {'; '.join(hist)}" if hist else "")
          + f"\n  nx: {str(a)[:600]}\n  sr: {str(b)[:800]}", flush=True)


def compare(tally, part, fam, hist, name, fn, args, kwargs, mode, timeout, verbose,
            ref=None, post=None):
    approx = name.split("[")[0] in APPROX
    t0 = time.time()
    a = ref if ref is not None else run(fn, args, kwargs, "nx", timeout, post)
    t1 = time.time()
    before = ANSWERED[0]
    b = run(fn, args, kwargs, mode, timeout, post)
    t2 = time.time()
    if t2 - t1 > 5 or (ref is None and t1 - t0 > 5):
        SLOW.append((part, name, round(t1 - t0, 1) if ref is None else None, round(t2 - t1, 1)))
    reached = ANSWERED[0] != before  # the backend answered (this call or one inside it)
    if reached:
        tally.per[f"{part}|{name}"]["reached_backend"] += 1
    call = fmt_call(name, args, kwargs)
    tally.per[f"{part}|{name}"]["calls"] += 1
    if b[0] == "declined":
        tally.per[f"{part}|{name}"]["declined"] += 1
        tally.c[(part, "declined")] += 1
        return a
    if a[0] == "hang":
        tally.c[(part, "nx_hang")] += 1
        return a
    if b[0] == "hang":
        report(tally, "HANG", part, fam, hist, call, a, b, verbose)
        return a
    if a[0] == "err" or b[0] == "err":
        if a[0] == b[0] == "err" and a[1] == b[1]:
            tally.c[(part, "both_err")] += 1
            return a
        report(tally, "EXC", part, fam, hist, call, a, b, verbose)
        return a
    if name == "louvain_communities" or name == "random_reference" or name == "sigma":
        # unseeded Louvain is random in NetworkX too; compare as partitions of the same nodes
        if name == "louvain_communities":
            pa = sorted(repr(x) for s in a[1][1] for x in s[2])
            pb = sorted(repr(x) for s in b[1][1] for x in s[2])
            if pa != pb:
                report(tally, "MISMATCH", part, fam, hist, call, a, b, verbose)
            else:
                tally.c[(part, "ok")] += 1
            return a
    d = diff(a[1], b[1], approx)
    if d is None:
        tally.c[(part, "ok")] += 1
        return a
    kind = "SETORDER" if d.startswith("SETORDER") else "MISMATCH"
    if not reached and mode in ("auto", "autoforce"):  # NetworkX ran every part of it: NetworkX's own nondeterminism (ARPACK)
        tally.c[(part, "nx_vs_nx_" + kind)] += 1
        if verbose:
            print(f"  (not counted: NetworkX ran it both times) {name}: {d}")
        return a
    report(tally, kind, part, fam, hist, call, d + "\n      nx=" + str(a)[:400], str(b)[:400],
           verbose)
    return a


def snapshot(G):
    return (repr(list(G.nodes(data=True))),
            repr(list(G.edges(keys=True, data=True)) if G.is_multigraph()
                 else list(G.edges(data=True))), repr(dict(G.graph)))


def build(fam):
    import networkx as nx

    env = {"nx": nx, "random": random, "math": math}
    exec(FAMILIES[fam], env)  # noqa: S102  (our own recipe strings)
    return env["G"]


# --------------------------------------------------------------------------- seq (mutations)
def mutations(G, r):
    import networkx as nx

    nodes = list(G)
    es = list(G.edges(keys=True) if G.is_multigraph() else G.edges())
    u, v = r.sample(nodes, 2)
    e, e2 = r.choice(es), r.choice(es)
    x = r.choice(nodes)
    many = {ed: r.choice([1, 2, 5]) for ed in r.sample(es, min(len(es), 40))}
    bunch = [(r.choice(nodes), r.choice(nodes), {"weight": r.randint(1, 4)}) for _ in range(10)]
    return [
        (f"G.add_edge({u!r}, {v!r}, weight=1)", lambda: G.add_edge(u, v, weight=1)),
        (f"G.add_edge(*{e!r}[:2], weight=50)", lambda: G.add_edge(e[0], e[1], weight=50)),
        (f"G.remove_edge(*{e2!r})", lambda: G.remove_edge(*e2) if G.has_edge(*e2) else None),
        ("nx.set_edge_attributes(G, {40 edges: 1|2|5}, 'weight')",
         lambda: nx.set_edge_attributes(G, {k: w for k, w in many.items() if G.has_edge(*k)},
                                        "weight")),
        (f"G.remove_node({x!r})", lambda: G.remove_node(x)),
        ("G.add_node('new')", lambda: G.add_node("new")),
        ("G.add_edges_from(10 random weighted edges)", lambda: G.add_edges_from(bunch)),
        ("G.add_edge('new', first node)  (no weight attribute)",
         lambda: G.add_edge("new", nodes[0] if nodes[0] != x else nodes[1])),
        ("nx.set_edge_attributes(G, 3, 'capacity')",
         lambda: nx.set_edge_attributes(G, 3, "capacity")),
        (f"G.remove_edges_from(first 5 edges)",
         lambda: G.remove_edges_from(list(G.edges())[:5])),
    ]


SEQ_FUNCS = [
    ("single_source_dijkstra_path_length", "s"), ("single_source_dijkstra", "s"),
    ("shortest_path", "s", {"weight": "weight"}), ("shortest_path_length", "s"),
    ("bfs_edges", "s"), ("single_source_shortest_path_length", "s"),
    ("dijkstra_predecessor_and_distance", "s"), ("single_source_bellman_ford", "s"),
    ("connected_components",), ("weakly_connected_components",),
    ("strongly_connected_components",), ("number_connected_components",),
    ("pagerank",), ("pagerank", {"weight": None}), ("core_number",), ("triangles",),
    ("clustering",), ("clustering", {"weight": "weight"}),
    ("betweenness_centrality", {"k": 20, "seed": 1}), ("degree_centrality",), ("isolates",),
    ("minimum_spanning_tree",), ("k_core",), ("k_truss", 3),
    ("maximum_flow_value", "s", "t", {"capacity": "capacity"}),
    ("maximum_flow_value", "s", "t", {"capacity": "weight"}),
    ("dag_longest_path_length", {"default_weight": 3}),
    ("eccentricity", {"weight": "weight"}), ("closeness_centrality", {"distance": "weight"}),
    ("average_clustering",), ("transitivity",), ("is_connected",),
    ("katz_centrality", {"alpha": 0.01, "weight": "weight"}),
    ("modularity", "comms"), ("minimum_spanning_edges", {"data": True}),
    ("average_neighbor_degree", {"weight": "weight"}),
]


# families left out of seq (36 calls x 3 views x 11 rounds x 4 runs: weighted eccentricity and
# closeness per round cost NetworkX minutes there)
SEQ_SKIP = {"ws1000_floatties", "grid30", "ba3000_large"}


def seq_part(fam, tally, timeout, verbose):
    """Mutate G through NetworkX's API between rounds of calls (explicit, then auto on the
    warm cache), a subgraph view and a reverse/undirected view held across the mutations."""
    import networkx as nx

    G = build(fam)
    if fam in SEQ_SKIP or len(G) > 1200:
        return 0
    r = random.Random("seq" + fam)
    views = [("G", lambda: G)]
    keep_view = G.subgraph(list(G)[: len(G) * 3 // 4])
    views.append(("G.subgraph(first 3/4 of nodes) held across mutations", lambda: keep_view))
    rv = nx.reverse_view(G) if G.is_directed() else G.to_directed(as_view=True)
    views.append(("nx.reverse_view(G)" if G.is_directed() else "G.to_directed(as_view=True)",
                  lambda: rv))
    hist = []
    ncalls = 0
    for step, (mdesc, mut) in enumerate([("initial", None)] + mutations(G, r)):
        if mut is not None:
            mut()
            hist.append(mdesc)
        for vdesc, get in views:
            H = get()
            if len(H) < 2:
                continue
            nodes = list(H)
            s, t = nodes[0], nodes[len(nodes) // 2]
            for spec in SEQ_FUNCS:
                name = spec[0]
                kw = spec[-1] if isinstance(spec[-1], dict) else {}
                extra = tuple(x for x in spec[1:] if not isinstance(x, dict))
                args = [H]
                for x in extra:
                    args.append({"s": s, "t": t, "comms": [set(nodes[::2]), set(nodes[1::2])]}
                                .get(x, x))
                fn = public(name)
                h = hist + ([f"H = {vdesc}"] if vdesc != "G" else [])
                ref = run(fn, tuple(args), kw, "nx", timeout)
                for mode in ("explicit", "auto", "autoforce"):
                    compare(tally, "seq-" + mode, fam, h, name, fn, tuple(args), kw, mode,
                            timeout, verbose, ref=ref)
                    ncalls += 1
    return ncalls


# --------------------------------------------------------------------------- child / parent
def child(fam, parts, timeout, verbose):
    import networkx as nx

    PROGRESS[0] = open(f"/tmp/aud27c_progress_{fam}", "w")  # noqa: SIM115

    import nx_semiring.interface  # noqa: F401

    install_spy()
    set_mode("nx")
    tally = Tally()
    G = build(fam)
    r = random.Random(fam)
    ncalls = collections.Counter()
    t0 = time.time()
    cl = dispatched_calls(G, r)
    refs = {}
    before = snapshot(G)
    G.__networkx_cache__.clear()
    for part in ("auto", "explicit", "warm", "force"):
        if part not in parts:
            continue
        mode = {"explicit": "explicit", "force": "autoforce"}.get(part, "auto")
        if part == "force":
            G.__networkx_cache__.clear()
        for i, (name, args, kwargs) in enumerate(cl):
            fn = public(name)
            refs[i] = compare(tally, part, fam, [], name, fn, args, kwargs, mode, timeout,
                              verbose, ref=refs.get(i))
            ncalls[part] += 1
    if "internal" in parts:
        G.__networkx_cache__.clear()
        for label, fn, args, kwargs, post in internal_calls(G, random.Random(fam + "i")):
            compare(tally, "internal", fam, [], label, fn, args, kwargs, "auto", timeout,
                    verbose, post=post)
            ncalls["internal"] += 1
        # once more with the conversions cached by an explicit call first
        public("pagerank")(G, backend="semiring") if not G.is_multigraph() else None
        for label, fn, args, kwargs, post in internal_calls(G, random.Random(fam + "i")):
            compare(tally, "internal-warm", fam, [], label, fn, args, kwargs, "auto", timeout,
                    verbose, post=post)
            ncalls["internal-warm"] += 1
    if "force" in parts:
        G.__networkx_cache__.clear()
        for label, fn, args, kwargs, post in internal_calls(G, random.Random(fam + "i")):
            compare(tally, "internal-force", fam, [], label, fn, args, kwargs, "autoforce",
                    timeout, verbose, post=post)
            ncalls["internal-force"] += 1
    after = snapshot(G)
    if after != before:
        tally.bad += 1
        print(f"\nMUTATED {fam}: the input graph changed during the calls", flush=True)
    if "seq" in parts:
        ncalls["seq"] += seq_part(fam, tally, timeout, verbose)
    out = {"c": {f"{p}|{k}": v for (p, k), v in tally.c.items()},
           "per": {k: dict(v) for k, v in tally.per.items()}, "bad": tally.bad,
           "calls": dict(ncalls), "spy": {f"{m}|{n}": dict(c) for (m, n), c in SPY.items()},
           "secs": time.time() - t0, "slow": SLOW, "n": len(G), "m": G.number_of_edges()}
    print("@@RESULT " + json.dumps(out), flush=True)


def parent(args):
    fams = list(FAMILIES) if not args.families else args.families.split(",")
    total = collections.Counter()
    per = collections.defaultdict(collections.Counter)
    spy = collections.defaultdict(collections.Counter)
    calls = collections.Counter()
    bad = 0
    t0 = time.time()
    for fam in fams:
        cmd = [sys.executable, __file__, "--child", fam, "--parts", args.parts,
               "--timeout", str(args.timeout)] + (["-v"] if args.verbose else [])
        print(f"# family {fam}: {FAMILIES[fam]}", flush=True)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.child_limit,
                               check=False)
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            print(out)
            try:
                with open(f"/tmp/aud27c_progress_{fam}") as fh:
                    last = fh.read().strip()
            except OSError:
                last = "?"
            print(f"\nHANG family {fam}: child killed after {args.child_limit}s; last call: "
                  f"{last} (now t={time.time():.0f})", flush=True)
            bad += 1
            continue
        res = None
        for line in p.stdout.splitlines():
            if line.startswith("@@RESULT "):
                res = json.loads(line[9:])
            else:
                print(line)
        if res is None:
            bad += 1
            print(f"\nCRASH family {fam} rc={p.returncode}\n  stderr: {p.stderr[-2000:]}",
                  flush=True)
            continue
        for sl in res["slow"]:
            print(f"#   slow (>5 s): {sl}")
        print(f"#   n={res['n']} m={res['m']} calls={res['calls']} in {res['secs']:.0f}s, "
              f"discrepancies {res['bad']}", flush=True)
        bad += res["bad"]
        total.update(res["c"])
        calls.update(res["calls"])
        for k, v in res["per"].items():
            per[k].update(v)
        for k, v in res["spy"].items():
            spy[k].update(v)
    print("\n==== backend spy per function: mode -> {answered, raised_NIE (declined after "
          "conversion), can_run_refused, should_run_refused}")
    names = sorted({k.split("|", 1)[1] for k in spy})
    for name in names:
        row = {m: dict(spy[f"{m}|{name}"]) for m in ("explicit", "auto", "autoforce")
               if f"{m}|{name}" in spy}
        print(f"  {name}: {row}")
    print("\n==== per part and function: calls compared / declined (backend= only) / "
          "reached_backend (the backend answered this call or a dispatched call inside it)")
    for key in sorted(per):
        print(f"  {key}: {dict(per[key])}")
    print("\n==== outcomes per part: " + json.dumps(dict(sorted(total.items()))))
    print(f"==== compared calls per part: {dict(calls)}; total {sum(calls.values())} "
          f"in {time.time() - t0:.0f}s")
    print(f"==== DISCREPANCIES: {bad}")


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--families", default="")
    ap.add_argument("--parts", default="explicit,auto,warm,force,internal,seq")
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--child-limit", type=int, default=900)
    ap.add_argument("--child", default="")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.families == "list":
        for k, v in FAMILIES.items():
            print(f"{k}: {v}")
        return
    if args.child:
        sys.setrecursionlimit(10000)
        child(args.child, set(args.parts.split(",")), args.timeout, args.verbose)
    else:
        parent(args)


if __name__ == "__main__":
    main()
