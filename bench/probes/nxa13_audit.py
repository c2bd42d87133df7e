"""Third adversarial audit of the NetworkX backend (session 18, helper nxa13).

Run from a scratch directory (NetworkX writes files in some calls)::

    cd /tmp/scratch && python /work/wt/nxa13/bench/probes/nxa13_audit.py [SECTION ...]

Every probe runs one call twice: through plain NetworkX (``backend_priority`` cleared, so
NetworkX's own inner dispatched calls are NetworkX's too) and with the backend preferred as a
user configures it (``backend_priority`` algos/generators = ["semiring"], ``fallback_to_nx``
on, ``should_run`` forced so small graphs reach the backend); a third mode calls with
``backend="semiring"`` where asked (a refusal is then NotImplementedError, the user's
explicit choice). Results are compared to the value and type (``VALUE``: a different value or
exception; ``TYPE``: equal values, other number types; ``ORDER``: equal, other key / element
order). Sections: weight_names, labels, mutation, weights, keywords, empty, huge,
iterators.
"""
import collections
import decimal
import fractions
import itertools
import math
import random
import resource
import signal
import sys
import warnings

import networkx as nx
import numpy as np

from nx_semiring.interface import BackendInterface

BackendInterface.should_run = staticmethod(lambda *a: True)
nx.config.warnings_to_ignore.add("cache")
warnings.simplefilter("ignore", RuntimeWarning)
INF, NAN = float("inf"), float("nan")
# a call that loops (NetworkX's own code on a NaN label can) fails instead of taking the host
resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
CALL_SECONDS = 60


def _alarm(signum, frame):
    raise TimeoutError(f"call took more than {CALL_SECONDS} s")


signal.signal(signal.SIGALRM, _alarm)

# the functions whose dict/list orders nx_semiring documents as the engine's
OURS_ORDER = {"sspl", "ssdpl", "ssd", "ssd_dist", "ssbf", "ssbfpl", "apspl", "apdpl", "apbfpl",
              "msdpl", "stspl", "scc", "apdp", "fwpd", "spl_s", "spl_all", "spl_t", "spl_s_w",
              "spl_t_w", "spl_all_w", "sp_t", "sp_t_w", "louvain", "ssdp", "ssbfp",
              "sp_s_w", "sp_all_w", "ssd_paths", "ssbf_paths", "msdpl2", "ssdpl_c"}


# --------------------------------------------------------------------------- comparison
def drain(r):
    if isinstance(r, nx.Graph):
        return (type(r).__name__, list(r.nodes(data=True)), list(r.edges(data=True)), r.graph)
    if hasattr(r, "__next__") or type(r).__name__ == "dict_values":
        return ("iter", [drain(x) for x in r])
    if isinstance(r, np.ndarray):
        return ("nd", r.dtype.str, r.tolist())
    if isinstance(r, tuple):
        return tuple(drain(x) for x in r)
    if isinstance(r, collections.defaultdict):
        return dict(r)
    if isinstance(r, dict):
        return {k: drain(v) for k, v in r.items()}
    return r


def val(x, order=False):
    """A comparable image: types kept (``order``: dict key order and set order kept)."""
    if isinstance(x, float) and x != x:
        return "nan"
    if isinstance(x, np.generic):
        return ("np", type(x).__name__, repr(x))
    if isinstance(x, (bool, int, float, complex, str)) or x is None:
        return (type(x).__name__, repr(x))
    if isinstance(x, dict):
        items = [(repr(k), val(v, order)) for k, v in x.items()]
        return ("dict", items if order else sorted(items))
    if isinstance(x, (set, frozenset)):
        return ("set", sorted(map(repr, x)))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [val(v, order) for v in x])
    return repr(x)


def loose(x):
    """Values only: numbers as floats (ints beyond 2^53 as their repr)."""
    if isinstance(x, float) and x != x:
        return "nan"
    if isinstance(x, (bool, np.bool_)):
        return ("num", float(x))
    if isinstance(x, (int, float, np.integer, np.floating)):
        return ("num", float(x) if abs(x) < 2**53 or math.isinf(x) else repr(int(x)))
    if isinstance(x, dict):
        return ("dict", sorted((repr(k), loose(v)) for k, v in x.items()))
    if isinstance(x, (set, frozenset)):
        return ("set", sorted(map(repr, x)))
    if isinstance(x, (list, tuple)):
        return ("seq", [loose(v) for v in x])
    return repr(x)


def run(f, mode):
    prio = nx.config.backend_priority
    nx.config.fallback_to_nx = False
    prio.algos, prio.generators = [], []
    signal.alarm(CALL_SECONDS)
    try:
        if mode == "nx":
            r = f(None)
        elif mode == "sr":
            r = f("semiring")
        else:
            nx.config.fallback_to_nx = True
            prio.algos, prio.generators = ["semiring"], ["semiring"]
            r = f(None)
        return "ok", drain(r)
    except Exception as e:  # noqa: BLE001
        return "raised", type(e).__name__, str(e)[:200]
    finally:
        signal.alarm(0)
        prio.algos, prio.generators = [], []
        nx.config.fallback_to_nx = False


def verdict(a, b, name):
    if a[0] != b[0] or (a[0] == "raised" and a[1:] != b[1:]):
        if a[0] == "ok" and b[0] == "ok":
            pass
        elif b[0] == "raised" and b[1] == "NotImplementedError":
            return "REFUSED"
        else:
            return "VALUE"
    if a[0] == "raised":
        return None
    if name in OURS_ORDER and isinstance(a[1], tuple) and a[1][:1] == ("iter",) and \
            isinstance(b[1], tuple) and all(isinstance(x, set) for x in a[1][1] + b[1][1]):
        # a list of sets in the engine's order (SCCs)
        a, b = ("ok", sorted(map(repr, a[1][1]))), ("ok", sorted(map(repr, b[1][1])))
    if val(a[1]) == val(b[1]):
        if name not in OURS_ORDER and val(a[1], True) != val(b[1], True):
            return "ORDER"
        return None
    return "TYPE" if loose(a[1]) == loose(b[1]) else "VALUE"


TALLY = collections.Counter()
SHOWN = collections.Counter()


def check(section, label, name, f, modes=("srfb",), before=None):
    a = run(f, "nx")
    for m in modes:
        if before is not None:
            before()
        b = run(f, m)
        v = verdict(a, b, name)
        TALLY[(section, "calls")] += 1
        if v is None or (v == "REFUSED" and m == "sr"):
            continue
        TALLY[(section, v)] += 1
        key = (section, name, v, m)
        SHOWN[key] += 1
        if SHOWN[key] <= 2:
            print(f"{v} [{section}] {label} {name} ({m})\n   nx: {str(a)[:300]}\n   sr: {str(b)[:300]}")


# --------------------------------------------------------------------------- the calls
def battery(G, s, t, weight="weight", extra=True):
    """(name, call) for the 69 dispatched functions with sources s and target t."""
    w = weight
    fam = nx.community
    bip = nx.bipartite
    L = [
        ("bfs_edges", lambda b: nx.bfs_edges(G, s, backend=b)),
        ("bfs_edges_d", lambda b: nx.bfs_edges(G, s, depth_limit=1, backend=b)),
        ("bfs_tree", lambda b: nx.bfs_tree(G, s, backend=b)),
        ("bfs_layers", lambda b: nx.bfs_layers(G, s, backend=b)),
        ("bfs_layers2", lambda b: nx.bfs_layers(G, [s, t], backend=b)),
        ("bfs_pred", lambda b: nx.bfs_predecessors(G, s, backend=b)),
        ("bfs_succ", lambda b: nx.bfs_successors(G, s, backend=b)),
        ("dad", lambda b: nx.descendants_at_distance(G, s, 2, backend=b)),
        ("sp_st", lambda b: nx.shortest_path(G, s, t, backend=b)),
        ("sp_s", lambda b: nx.shortest_path(G, s, backend=b)),
        ("sp_t", lambda b: nx.shortest_path(G, target=t, backend=b)),
        ("sp_all", lambda b: nx.shortest_path(G, backend=b)),
        ("sp_st_w", lambda b: nx.shortest_path(G, s, t, weight=w, backend=b)),
        ("sp_s_w", lambda b: nx.shortest_path(G, s, weight=w, backend=b)),
        ("sp_st_bf", lambda b: nx.shortest_path(G, s, t, weight=w, method="bellman-ford", backend=b)),
        ("spl_st", lambda b: nx.shortest_path_length(G, s, t, backend=b)),
        ("spl_s", lambda b: nx.shortest_path_length(G, s, backend=b)),
        ("spl_t", lambda b: nx.shortest_path_length(G, target=t, backend=b)),
        ("spl_all", lambda b: nx.shortest_path_length(G, backend=b)),
        ("spl_st_w", lambda b: nx.shortest_path_length(G, s, t, weight=w, backend=b)),
        ("spl_s_w", lambda b: nx.shortest_path_length(G, s, weight=w, backend=b)),
        ("spl_t_w", lambda b: nx.shortest_path_length(G, target=t, weight=w, backend=b)),
        ("spl_all_w", lambda b: nx.shortest_path_length(G, weight=w, backend=b)),
        ("sssp", lambda b: nx.single_source_shortest_path(G, s, backend=b)),
        ("sssp_c", lambda b: nx.single_source_shortest_path(G, s, cutoff=1, backend=b)),
        ("sspl", lambda b: nx.single_source_shortest_path_length(G, s, backend=b)),
        ("apspl", lambda b: nx.all_pairs_shortest_path_length(G, backend=b)),
        ("has_path", lambda b: nx.has_path(G, s, t, backend=b)),
        ("ssd", lambda b: nx.single_source_dijkstra(G, s, weight=w, backend=b)),
        ("ssd_t", lambda b: nx.single_source_dijkstra(G, s, t, weight=w, backend=b)),
        ("ssdp", lambda b: nx.single_source_dijkstra_path(G, s, weight=w, backend=b)),
        ("ssdpl", lambda b: nx.single_source_dijkstra_path_length(G, s, weight=w, backend=b)),
        ("ssdpl_c", lambda b: nx.single_source_dijkstra_path_length(G, s, cutoff=2, weight=w, backend=b)),
        ("dp", lambda b: nx.dijkstra_path(G, s, t, weight=w, backend=b)),
        ("dpl", lambda b: nx.dijkstra_path_length(G, s, t, weight=w, backend=b)),
        ("bfp", lambda b: nx.bellman_ford_path(G, s, t, weight=w, backend=b)),
        ("bfpl", lambda b: nx.bellman_ford_path_length(G, s, t, weight=w, backend=b)),
        ("ssbf", lambda b: nx.single_source_bellman_ford(G, s, weight=w, backend=b)),
        ("ssbf_t", lambda b: nx.single_source_bellman_ford(G, s, t, weight=w, backend=b)),
        ("ssbfp", lambda b: nx.single_source_bellman_ford_path(G, s, weight=w, backend=b)),
        ("ssbfpl", lambda b: nx.single_source_bellman_ford_path_length(G, s, weight=w, backend=b)),
        ("nec", lambda b: nx.negative_edge_cycle(G, weight=w, backend=b)),
        ("fwn", lambda b: nx.floyd_warshall_numpy(G, weight=w, backend=b)),
        ("cc", lambda b: nx.connected_components(G, backend=b)),
        ("ncc", lambda b: nx.number_connected_components(G, backend=b)),
        ("isc", lambda b: nx.is_connected(G, backend=b)),
        ("scc", lambda b: nx.strongly_connected_components(G, backend=b)),
        ("pr", lambda b: _round(nx.pagerank(G, weight=w, backend=b))),
        ("bc", lambda b: _round(nx.betweenness_centrality(G, backend=b))),
        ("bc_k", lambda b: _round(nx.betweenness_centrality(G, k=min(2, len(G)), seed=3, endpoints=True, backend=b))),
        ("tri", lambda b: nx.triangles(G, backend=b)),
        ("clu", lambda b: nx.clustering(G, backend=b)),
        ("core", lambda b: nx.core_number(G, backend=b)),
        ("louvain", lambda b: type(fam.louvain_communities(G, weight=w, backend=b)).__name__),
        ("mst", lambda b: nx.minimum_spanning_tree(G, weight=w, backend=b)),
        ("apdpl", lambda b: nx.all_pairs_dijkstra_path_length(G, weight=w, backend=b)),
        ("apbfpl", lambda b: nx.all_pairs_bellman_ford_path_length(G, weight=w, backend=b)),
        ("apsp", lambda b: nx.all_pairs_shortest_path(G, backend=b)),
        ("apdp", lambda b: nx.all_pairs_dijkstra_path(G, weight=w, backend=b)),
        ("fw", lambda b: nx.floyd_warshall(G, weight=w, backend=b)),
        ("fwpd", lambda b: nx.floyd_warshall_predecessor_and_distance(G, weight=w, backend=b)),
        ("msdpl", lambda b: nx.multi_source_dijkstra_path_length(G, {s, t}, weight=w, backend=b)),
        ("stspl", lambda b: nx.single_target_shortest_path_length(G, t, backend=b)),
        ("anc", lambda b: nx.ancestors(G, s, backend=b)),
        ("desc", lambda b: nx.descendants(G, s, backend=b)),
        ("ecc", lambda b: nx.eccentricity(G, weight=w, backend=b)),
        ("ecc_v", lambda b: nx.eccentricity(G, v=s, backend=b)),
        ("diam", lambda b: nx.diameter(G, weight=w, backend=b)),
        ("rad", lambda b: nx.radius(G, backend=b)),
        ("center", lambda b: nx.center(G, weight=w, backend=b)),
        ("periph", lambda b: nx.periphery(G, backend=b)),
        ("mfv", lambda b: nx.maximum_flow_value(G, s, t, capacity=w, backend=b)),
        ("mcv", lambda b: nx.minimum_cut_value(G, s, t, backend=b)),
        ("hk", lambda b: bip.hopcroft_karp_matching(G, backend=b)),
        ("mwfm", lambda b: bip.minimum_weight_full_matching(G, weight=w, backend=b)),
        ("wcc", lambda b: nx.weakly_connected_components(G, backend=b)),
        ("nwcc", lambda b: nx.number_weakly_connected_components(G, backend=b)),
        ("iwc", lambda b: nx.is_weakly_connected(G, backend=b)),
        ("nscc", lambda b: nx.number_strongly_connected_components(G, backend=b)),
        ("iscc", lambda b: nx.is_strongly_connected(G, backend=b)),
        ("nodecc", lambda b: nx.node_connected_component(G, s, backend=b)),
        ("kcore", lambda b: nx.k_core(G, backend=b)),
        ("kshell", lambda b: nx.k_shell(G, backend=b)),
        ("kcrust", lambda b: nx.k_crust(G, backend=b)),
        ("kcorona", lambda b: nx.k_corona(G, 1, backend=b)),
        ("ktruss", lambda b: nx.k_truss(G, 3, backend=b)),
        ("avgclu", lambda b: nx.average_clustering(G, backend=b)),
        ("trans", lambda b: nx.transitivity(G, backend=b)),
        ("lpc", lambda b: fam.label_propagation_communities(G, backend=b)),
        ("mod", lambda b: fam.modularity(G, [set(G)], weight=w, backend=b)),
    ]
    return L


def _round(d):
    return {k: round(v, 9) for k, v in d.items()}


def run_battery(section, label, G, s, t, weight="weight", modes=("srfb",), only=None):
    for name, f in battery(G, s, t, weight):
        if only and name not in only:
            continue
        check(section, label, name, f, modes)


BASE = [(0, 1, 2), (1, 2, 1), (2, 0, 4), (2, 3, 1), (3, 4, 3), (4, 5, 1), (1, 3, 5),
        (5, 6, 2)]  # triangle, a chain, node 7 isolated


def base_graph(cls, labels=None, weights=None):
    G = cls()
    lab = labels or list(range(8))
    G.add_nodes_from(lab)
    for i, (u, v, w) in enumerate(BASE):
        G.add_edge(lab[u], lab[v], weight=w if weights is None else weights[i % len(weights)])
    return G


# --------------------------------------------------------------------------- sections
def labels():
    kinds = {
        "mixed_int_str": [0, "a", 2, "b", 4, "c", 6, "d"],
        "tuples": [(i, "x") for i in range(8)],
        "nested": [((i,), frozenset({i})) for i in range(8)],
        "np_int64": [np.int64(i) for i in range(8)],
        "np_mixed": [np.int32(0), np.int64(1), 2, np.uint8(3), 4.5, np.float64(5.5), 6, 7],
        "frozensets": [frozenset({i, i + 1}) for i in range(8)],
        "floats": [i + 0.25 for i in range(8)],
        "negative": [-i for i in range(8)],
        "perm": [5, 3, 7, 0, 1, 6, 2, 4],
        "big_ints": [2**64 + i for i in range(8)],
        "bool_int": [True, False, 2, 3, 4, 5, 6, 7],
        "sparse_ints": [10**12 * i for i in range(8)],
        "nan_label": [NAN, 1, 2, 3, 4, 5, 6, 7],
        "empty_str": ["", " ", "0", 0, 1.5, (), frozenset(), "x"],
        "none_like": [0, 1, 2, "None", 4, 5, 6, b"None"],
    }
    for kname, lab in kinds.items():
        for cls in (nx.Graph, nx.DiGraph):
            G = base_graph(cls, lab)
            run_battery("labels", f"{kname}/{cls.__name__}", G, lab[0], lab[4])
    # 1, 1.0, True are one node: sources given as the other objects
    for cls in (nx.Graph, nx.DiGraph):
        G = base_graph(cls)
        aliases = (1.0, True, np.int64(1), np.float64(1.0), fractions.Fraction(1),
                   decimal.Decimal(1))
        for alias in aliases:
            for s, t in ((alias, 4), (4, alias), (alias, alias)):
                run_battery("labels", f"alias {s!r} -> {t!r}/{cls.__name__}", G, s, t)
                check("labels", f"alias {s!r}/{cls.__name__}", "dad0",
                      lambda b, s=s: nx.descendants_at_distance(G, s, 0, backend=b))
                check("labels", f"alias {s!r}/{cls.__name__}", "msdpl2",
                      lambda b, s=s: nx.multi_source_dijkstra_path_length(G, [s, 1, 4], backend=b))
        # nodes added in odd orders, removed then re-added
        H = base_graph(cls, [5, 3, 7, 0, 1, 6, 2, 4])
        H.remove_node(3)
        H.add_edge(3, 5, weight=1)
        H.remove_node(7)
        H.add_node(7)
        H.add_edge(0, 7, weight=2)
        run_battery("labels", f"readded/{cls.__name__}", H, 5, 7)
        H2 = cls()
        H2.add_edges_from([(9, 1, {"weight": 1}), (1, 0, {"weight": 2}), (0, 9, {"weight": 3}),
                           (0, 2, {"weight": 1})])
        H2.add_nodes_from([8, 3])
        run_battery("labels", f"odd_order/{cls.__name__}", H2, 9, 2)
    # a multigraph of mixed labels
    M = nx.MultiGraph()
    M.add_weighted_edges_from([(0, "a", 1), (0, "a", 3), ("a", (1,), 2), ((1,), 0, 5)])
    run_battery("labels", "multi mixed", M, 0, (1,))


def mutation():
    """A warm call, a mutation, the same battery again against NetworkX on the mutated graph."""
    muts = {
        "add_edge": lambda G: G.add_edge(0, 7, weight=0.5),
        "reweight_add_edge": lambda G: G.add_edge(0, 1, weight=10),
        "remove_edge": lambda G: G.remove_edge(2, 3),
        "remove_node": lambda G: G.remove_node(2),
        "readd_node": lambda G: (G.remove_node(0), G.add_edge(0, 6, weight=1)),
        "add_weighted_edges_from": lambda G: G.add_weighted_edges_from([(6, 7, 3), (0, 1, 9)]),
        "add_weighted_edges_from_w2": lambda G: G.add_weighted_edges_from([(6, 7, 3)], weight="w2"),
        "set_edge_attributes": lambda G: nx.set_edge_attributes(G, {(0, 1): 0.25}, "weight"),
        "set_node_attributes": lambda G: nx.set_node_attributes(G, {0: 1}, "x"),
        "clear": lambda G: G.clear(),
        "clear_edges": lambda G: G.clear_edges(),
        "update": lambda G: G.update(edges=[(7, 0, {"weight": 0.1})]),
        "relabel_inplace": lambda G: nx.relabel_nodes(G, {0: "z", 7: 70}, copy=False),
        "remove_edges_from": lambda G: G.remove_edges_from([(1, 2), (4, 5)]),
        "add_path": lambda G: nx.add_path(G, [7, 8, 9], weight=2),
        "contract": lambda G: None,
        "edges_setitem+clear_cache": lambda G: (G.edges[0, 1].__setitem__("weight", 7),
                                               nx._clear_cache(G)),
    }
    for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        for mname, mut in muts.items():
            G = base_graph(cls)
            # warm: the backend's conversions cached on G
            for name, f in battery(G, 0, 4):
                run(f, "srfb")
            try:
                mut(G)
            except Exception:  # noqa: BLE001 (a mutation a multigraph does not take)
                continue
            s = 1 if 1 in G else next(iter(G), 0)
            t = 4 if 4 in G else s
            run_battery("mutation", f"{mname}/{cls.__name__}", G, s, t)
    # views kept across mutations of the viewed graph
    views = {
        "subgraph": lambda G: G.subgraph([0, 1, 2, 3, 4, 7]),
        "edge_subgraph": lambda G: G.edge_subgraph([(0, 1), (1, 2), (2, 3), (3, 4)]),
        "restricted": lambda G: nx.restricted_view(G, [6], [(1, 3)]),
        "reverse": lambda G: G.reverse(copy=False) if G.is_directed() else G.subgraph(G),
        "to_undirected": lambda G: G.to_undirected(as_view=True),
        "copy_view": lambda G: G.copy(as_view=True),
        "subgraph_of_view": lambda G: G.copy(as_view=True).subgraph([0, 1, 2, 3, 4]),
        "frozen_copy_view": lambda G: nx.freeze(G.copy(as_view=True)),
        "to_directed": lambda G: G.to_directed(as_view=True) if not G.is_directed() else G.copy(as_view=True),
    }
    steps = [lambda G: G.add_edge(0, 4, weight=0.5), lambda G: G.remove_edge(1, 2),
             lambda G: nx.set_edge_attributes(G, {(0, 1): 9}, "weight"),
             lambda G: G.add_edge(4, 7, weight=1), lambda G: G.remove_node(3)]
    for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        for vname, mk in views.items():
            G = base_graph(cls)
            try:
                V = mk(G)
            except Exception:  # noqa: BLE001 (a view a multigraph does not take)
                continue
            for i, step in enumerate([lambda G: None] + steps):
                try:
                    step(G)
                except Exception:  # noqa: BLE001
                    continue
                run_battery("mutation", f"view {vname} step {i}/{cls.__name__}", V, 0,
                            4 if 4 in V else 0)


def weights():
    pools = {
        "fraction": [fractions.Fraction(1, 3), fractions.Fraction(1, 2), 1],
        "decimal": [decimal.Decimal("0.1"), decimal.Decimal(2), decimal.Decimal("1.5")],
        "np_mixed": [np.float64(0.5), np.int64(2), np.float32(0.25), np.uint8(3)],
        "bools": [True, False, True],
        "strings": ["1", "2", 3],
        "nan": [1, NAN, 2],
        "inf": [1, INF, 2],
        "neg_inf": [1, -INF, 2],
        "negative": [1, -1, 2, 3],
        "neg_int_only": [-1, -2, -3],
        "zeros": [0, 0, 0],
        "neg_zero": [-0.0, 1.0, 0.0],
        "none": [None, 1, 2],
        "complex": [1j, 1, 2],
        "tiny": [5e-324, 1e-300, 1],
        "huge_float": [1e308, 1e308, 1],
        "huge_int": [2**62, 2**62, 1],
        "bigger_int": [2**70, 1, 2],
        "mixed": [1, 2.5, 3],
        "np_bool": [np.True_, np.False_, np.True_],
        "np_float16": [np.float16(0.1), np.float16(0.2), 1],
    }
    for pname, pool in pools.items():
        for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph):
            G = base_graph(cls, weights=pool)
            run_battery("weights", f"{pname}/{cls.__name__}", G, 0, 4)
    # an attribute some edges lack
    for cls in (nx.Graph, nx.DiGraph):
        G = base_graph(cls)
        for u, v in list(G.edges())[::2]:
            del G.edges[u, v]["weight"]
        nx._clear_cache(G)
        run_battery("weights", f"partial/{cls.__name__}", G, 0, 4)
        run_battery("weights", f"missing name/{cls.__name__}", G, 0, 4, weight="nope")
        run_battery("weights", f"weight=None/{cls.__name__}", G, 0, 4, weight=None)


def keywords():
    G = base_graph(nx.DiGraph)
    U = base_graph(nx.Graph)
    L = []
    for H in (G, U):
        k = type(H).__name__
        L += [
            (f"{k} sspl cutoff", "sspl", lambda b, H=H: nx.single_source_shortest_path_length(H, 0, cutoff=1.5, backend=b)),
            (f"{k} sspl cutoff inf", "sspl", lambda b, H=H: nx.single_source_shortest_path_length(H, 0, cutoff=INF, backend=b)),
            (f"{k} sspl cutoff -inf", "sspl", lambda b, H=H: nx.single_source_shortest_path_length(H, 0, cutoff=-INF, backend=b)),
            (f"{k} sspl cutoff nan", "sspl", lambda b, H=H: nx.single_source_shortest_path_length(H, 0, cutoff=NAN, backend=b)),
            (f"{k} sssp cutoff nan", "sssp", lambda b, H=H: nx.single_source_shortest_path(H, 0, cutoff=NAN, backend=b)),
            (f"{k} sssp cutoff True", "sssp", lambda b, H=H: nx.single_source_shortest_path(H, 0, cutoff=True, backend=b)),
            (f"{k} sssp cutoff 0", "sssp", lambda b, H=H: nx.single_source_shortest_path(H, 0, cutoff=0, backend=b)),
            (f"{k} apspl cutoff", "apspl", lambda b, H=H: nx.all_pairs_shortest_path_length(H, cutoff=1, backend=b)),
            (f"{k} apspl cutoff nan", "apspl", lambda b, H=H: nx.all_pairs_shortest_path_length(H, cutoff=NAN, backend=b)),
            (f"{k} apsp cutoff", "apsp", lambda b, H=H: nx.all_pairs_shortest_path(H, cutoff=1, backend=b)),
            (f"{k} apsp cutoff -1", "apsp", lambda b, H=H: nx.all_pairs_shortest_path(H, cutoff=-1, backend=b)),
            (f"{k} apsp cutoff str", "apsp", lambda b, H=H: nx.all_pairs_shortest_path(H, cutoff="a", backend=b)),
            (f"{k} apdpl cutoff str", "apdpl", lambda b, H=H: nx.all_pairs_dijkstra_path_length(H, cutoff="a", backend=b)),
            (f"{k} apdpl cutoff 0", "apdpl", lambda b, H=H: nx.all_pairs_dijkstra_path_length(H, cutoff=0, backend=b)),
            (f"{k} ssdpl cutoff 0.5", "ssdpl", lambda b, H=H: nx.single_source_dijkstra_path_length(H, 0, cutoff=0.5, backend=b)),
            (f"{k} ssd cutoff target", "ssd_t", lambda b, H=H: nx.single_source_dijkstra(H, 0, 4, cutoff=2, backend=b)),
            (f"{k} ssd target missing", "ssd_t", lambda b, H=H: nx.single_source_dijkstra(H, 0, 99, backend=b)),
            (f"{k} ssd source missing", "ssd_t", lambda b, H=H: nx.single_source_dijkstra(H, 99, 0, backend=b)),
            (f"{k} ssd both missing", "ssd_t", lambda b, H=H: nx.single_source_dijkstra(H, 99, 99, backend=b)),
            (f"{k} dpl both missing", "dpl", lambda b, H=H: nx.dijkstra_path_length(H, 99, 99, backend=b)),
            (f"{k} dp both missing", "dp", lambda b, H=H: nx.dijkstra_path(H, 99, 99, backend=b)),
            (f"{k} dp target missing", "dp", lambda b, H=H: nx.dijkstra_path(H, 0, 99, backend=b)),
            (f"{k} dpl target missing", "dpl", lambda b, H=H: nx.dijkstra_path_length(H, 0, 99, backend=b)),
            (f"{k} bfp both missing", "bfp", lambda b, H=H: nx.bellman_ford_path(H, 99, 99, backend=b)),
            (f"{k} bfpl both missing", "bfpl", lambda b, H=H: nx.bellman_ford_path_length(H, 99, 99, backend=b)),
            (f"{k} bfpl target missing", "bfpl", lambda b, H=H: nx.bellman_ford_path_length(H, 0, 99, backend=b)),
            (f"{k} ssbf both missing", "ssbf_t", lambda b, H=H: nx.single_source_bellman_ford(H, 99, 99, backend=b)),
            (f"{k} ssbf target missing", "ssbf_t", lambda b, H=H: nx.single_source_bellman_ford(H, 0, 99, backend=b)),
            (f"{k} ssbfp missing", "ssbfp", lambda b, H=H: nx.single_source_bellman_ford_path(H, 99, backend=b)),
            (f"{k} sp st missing s", "sp_st", lambda b, H=H: nx.shortest_path(H, 99, 0, backend=b)),
            (f"{k} sp st missing t", "sp_st", lambda b, H=H: nx.shortest_path(H, 0, 99, backend=b)),
            (f"{k} sp st missing both", "sp_st", lambda b, H=H: nx.shortest_path(H, 99, 99, backend=b)),
            (f"{k} sp st same", "sp_st", lambda b, H=H: nx.shortest_path(H, 0, 0, backend=b)),
            (f"{k} sp st w missing both", "sp_st", lambda b, H=H: nx.shortest_path(H, 99, 99, weight="weight", backend=b)),
            (f"{k} sp bf missing both", "sp_st", lambda b, H=H: nx.shortest_path(H, 99, 99, weight="weight", method="bellman-ford", backend=b)),
            (f"{k} spl missing both", "spl_st", lambda b, H=H: nx.shortest_path_length(H, 99, 99, backend=b)),
            (f"{k} spl w missing both", "spl_st", lambda b, H=H: nx.shortest_path_length(H, 99, 99, weight="weight", backend=b)),
            (f"{k} spl bf missing both", "spl_st", lambda b, H=H: nx.shortest_path_length(H, 99, 99, weight="weight", method="bellman-ford", backend=b)),
            (f"{k} sp missing target only", "sp_t", lambda b, H=H: nx.shortest_path(H, target=99, backend=b)),
            (f"{k} spl missing target only", "spl_t", lambda b, H=H: nx.shortest_path_length(H, target=99, backend=b)),
            (f"{k} spl w missing target only", "spl_t", lambda b, H=H: nx.shortest_path_length(H, target=99, weight="weight", backend=b)),
            (f"{k} sp method bad", "sp_st", lambda b, H=H: nx.shortest_path(H, 0, 4, method="x", backend=b)),
            (f"{k} sp method bad unweighted", "sp_st", lambda b, H=H: nx.shortest_path(H, 0, 4, weight=None, method="x", backend=b)),
            (f"{k} spl method bad all", "spl_all", lambda b, H=H: nx.shortest_path_length(H, method="x", backend=b)),
            (f"{k} has_path missing both", "has_path", lambda b, H=H: nx.has_path(H, 99, 98, backend=b)),
            (f"{k} has_path same missing", "has_path", lambda b, H=H: nx.has_path(H, 99, 99, backend=b)),
            (f"{k} msdpl gen", "msdpl", lambda b, H=H: nx.multi_source_dijkstra_path_length(H, iter([0, 4]), backend=b)),
            (f"{k} msdpl list dup", "msdpl", lambda b, H=H: nx.multi_source_dijkstra_path_length(H, [0, 0, 4], backend=b)),
            (f"{k} msdpl cutoff", "msdpl", lambda b, H=H: nx.multi_source_dijkstra_path_length(H, [0], cutoff=1, backend=b)),
            (f"{k} bfs_layers gen", "bfs_layers", lambda b, H=H: nx.bfs_layers(H, iter([0, 4]), backend=b)),
            (f"{k} bfs_layers missing", "bfs_layers", lambda b, H=H: nx.bfs_layers(H, [0, 99], backend=b)),
            (f"{k} bfs_layers dup", "bfs_layers", lambda b, H=H: nx.bfs_layers(H, [4, 0, 4], backend=b)),
            (f"{k} bfs_edges depth 0", "bfs_edges", lambda b, H=H: nx.bfs_edges(H, 0, depth_limit=0, backend=b)),
            (f"{k} bfs_edges depth -1", "bfs_edges", lambda b, H=H: nx.bfs_edges(H, 0, depth_limit=-1, backend=b)),
            (f"{k} bfs_edges depth 1.5", "bfs_edges", lambda b, H=H: nx.bfs_edges(H, 0, depth_limit=1.5, backend=b)),
            (f"{k} bfs_edges reverse", "bfs_edges", lambda b, H=H: nx.bfs_edges(H, 4, reverse=True, backend=b)),
            (f"{k} bfs_tree depth 0", "bfs_tree", lambda b, H=H: nx.bfs_tree(H, 0, depth_limit=0, backend=b)),
            (f"{k} bfs_tree missing", "bfs_tree", lambda b, H=H: nx.bfs_tree(H, 99, backend=b)),
            (f"{k} bfs_succ depth 1", "bfs_succ", lambda b, H=H: nx.bfs_successors(H, 0, depth_limit=1, backend=b)),
            (f"{k} bfs_succ isolated", "bfs_succ", lambda b, H=H: nx.bfs_successors(H, 7, backend=b)),
            (f"{k} bfs_pred isolated", "bfs_pred", lambda b, H=H: nx.bfs_predecessors(H, 7, backend=b)),
            (f"{k} dad neg", "dad", lambda b, H=H: nx.descendants_at_distance(H, 0, -1, backend=b)),
            (f"{k} dad float", "dad", lambda b, H=H: nx.descendants_at_distance(H, 0, 1.0, backend=b)),
            (f"{k} dad 1.5", "dad", lambda b, H=H: nx.descendants_at_distance(H, 0, 1.5, backend=b)),
            (f"{k} dad 0", "dad", lambda b, H=H: nx.descendants_at_distance(H, 0, 0, backend=b)),
            (f"{k} dad str", "dad", lambda b, H=H: nx.descendants_at_distance(H, 0, "1", backend=b)),
            (f"{k} dad missing", "dad", lambda b, H=H: nx.descendants_at_distance(H, 99, 1, backend=b)),
            (f"{k} pr pers partial", "pr", lambda b, H=H: _round(nx.pagerank(H, personalization={0: 1, 3: 2}, backend=b))),
            (f"{k} pr pers stranger", "pr", lambda b, H=H: _round(nx.pagerank(H, personalization={0: 1, 99: 2}, backend=b))),
            (f"{k} pr pers zero", "pr", lambda b, H=H: _round(nx.pagerank(H, personalization={0: 0}, backend=b))),
            (f"{k} pr pers empty", "pr", lambda b, H=H: _round(nx.pagerank(H, personalization={}, backend=b))),
            (f"{k} pr nstart partial", "pr", lambda b, H=H: _round(nx.pagerank(H, nstart={0: 1}, backend=b))),
            (f"{k} pr nstart zero", "pr", lambda b, H=H: _round(nx.pagerank(H, nstart={0: 0}, backend=b))),
            (f"{k} pr nstart empty", "pr", lambda b, H=H: _round(nx.pagerank(H, nstart={}, backend=b))),
            (f"{k} pr dangling partial", "pr", lambda b, H=H: _round(nx.pagerank(H, dangling={6: 1}, backend=b))),
            (f"{k} pr dangling zero", "pr", lambda b, H=H: _round(nx.pagerank(H, dangling={6: 0}, backend=b))),
            (f"{k} pr dangling empty", "pr", lambda b, H=H: _round(nx.pagerank(H, dangling={}, backend=b))),
            (f"{k} pr max_iter 1", "pr", lambda b, H=H: _round(nx.pagerank(H, max_iter=1, backend=b))),
            (f"{k} pr max_iter 0", "pr", lambda b, H=H: _round(nx.pagerank(H, max_iter=0, backend=b))),
            (f"{k} pr tol 0", "pr", lambda b, H=H: _round(nx.pagerank(H, tol=0, max_iter=30, backend=b))),
            (f"{k} pr weight None", "pr", lambda b, H=H: _round(nx.pagerank(H, weight=None, backend=b))),
            (f"{k} pr alpha 1", "pr", lambda b, H=H: _round(nx.pagerank(H, alpha=1, backend=b))),
            (f"{k} pr alpha 0", "pr", lambda b, H=H: _round(nx.pagerank(H, alpha=0, backend=b))),
            (f"{k} bc k=n", "bc", lambda b, H=H: _round(nx.betweenness_centrality(H, k=len(H), backend=b))),
            (f"{k} bc k=n+1", "bc", lambda b, H=H: _round(nx.betweenness_centrality(H, k=len(H) + 1, backend=b))),
            (f"{k} bc k=2 seed", "bc", lambda b, H=H: _round(nx.betweenness_centrality(H, k=2, seed=7, backend=b))),
            (f"{k} bc k=2 Random", "bc", lambda b, H=H: _round(nx.betweenness_centrality(H, k=2, seed=random.Random(7), backend=b))),
            (f"{k} bc unnorm endp", "bc", lambda b, H=H: _round(nx.betweenness_centrality(H, normalized=False, endpoints=True, backend=b))),
            (f"{k} bc norm endp", "bc", lambda b, H=H: _round(nx.betweenness_centrality(H, normalized=True, endpoints=True, backend=b))),
            (f"{k} bc k=1 unnorm", "bc", lambda b, H=H: _round(nx.betweenness_centrality(H, k=1, seed=1, normalized=False, backend=b))),
            (f"{k} bc weight", "bc", lambda b, H=H: _round(nx.betweenness_centrality(H, weight="weight", backend=b))),
            (f"{k} clu nodes", "clu", lambda b, H=H: nx.clustering(H, [0, 1], backend=b)),
            (f"{k} clu node", "clu", lambda b, H=H: nx.clustering(H, 0, backend=b)),
            (f"{k} clu missing node", "clu", lambda b, H=H: nx.clustering(H, 99, backend=b)),
            (f"{k} tri node", "tri", lambda b, H=H: nx.triangles(H, 0, backend=b)),
            (f"{k} tri missing node", "tri", lambda b, H=H: nx.triangles(H, 99, backend=b)),
            (f"{k} tri nodes", "tri", lambda b, H=H: nx.triangles(H, [2, 0], backend=b)),
            (f"{k} louvain res 0", "louvain", lambda b, H=H: type(nx.community.louvain_communities(H, resolution=0, backend=b)).__name__),
            (f"{k} louvain thr", "louvain", lambda b, H=H: type(nx.community.louvain_communities(H, threshold=10, backend=b)).__name__),
            (f"{k} mst prim", "mst", lambda b, H=H: nx.minimum_spanning_tree(H, algorithm="prim", backend=b)),
            (f"{k} mst boruvka", "mst", lambda b, H=H: nx.minimum_spanning_tree(H, algorithm="boruvka", backend=b)),
            (f"{k} mst bad", "mst", lambda b, H=H: nx.minimum_spanning_tree(H, algorithm="x", backend=b)),
            (f"{k} mst weight None", "mst", lambda b, H=H: nx.minimum_spanning_tree(H, weight=None, backend=b)),
            (f"{k} fwn nodelist", "fwn", lambda b, H=H: nx.floyd_warshall_numpy(H, nodelist=list(range(7, -1, -1)), backend=b)),
            (f"{k} fwn nodelist short", "fwn", lambda b, H=H: nx.floyd_warshall_numpy(H, nodelist=[0, 1], backend=b)),
            (f"{k} fwn nodelist stranger", "fwn", lambda b, H=H: nx.floyd_warshall_numpy(H, nodelist=[0, 1, 2, 3, 4, 5, 6, 99], backend=b)),
            (f"{k} fwn weight None", "fwn", lambda b, H=H: nx.floyd_warshall_numpy(H, weight=None, backend=b)),
            (f"{k} ecc v list", "ecc", lambda b, H=H: nx.eccentricity(H, v=[0, 1], backend=b)),
            (f"{k} ecc v missing", "ecc", lambda b, H=H: nx.eccentricity(H, v=99, backend=b)),
            (f"{k} diam usebounds", "diam", lambda b, H=H: nx.diameter(H, usebounds=True, backend=b)),
            (f"{k} mfv cap missing attr", "mfv", lambda b, H=H: nx.maximum_flow_value(H, 0, 4, capacity="nope", backend=b)),
            (f"{k} mfv cap weight", "mfv", lambda b, H=H: nx.maximum_flow_value(H, 0, 4, capacity="weight", backend=b)),
            (f"{k} mfv dinitz", "mfv", lambda b, H=H: nx.maximum_flow_value(H, 0, 4, capacity="weight", flow_func=nx.flow.dinitz, backend=b)),
            (f"{k} mfv kw", "mfv", lambda b, H=H: nx.maximum_flow_value(H, 0, 4, capacity="weight", flow_func=nx.flow.dinitz, cutoff=1, backend=b)),
            (f"{k} mfv kw nofunc", "mfv", lambda b, H=H: nx.maximum_flow_value(H, 0, 4, capacity="weight", cutoff=1, backend=b)),
            (f"{k} mcv same", "mcv", lambda b, H=H: nx.minimum_cut_value(H, 0, 0, capacity="weight", backend=b)),
            (f"{k} kcore k 0", "kcore", lambda b, H=H: nx.k_core(H, 0, backend=b)),
            (f"{k} kcore k 9", "kcore", lambda b, H=H: nx.k_core(H, 9, backend=b)),
            (f"{k} kcore k 1.5", "kcore", lambda b, H=H: nx.k_core(H, 1.5, backend=b)),
            (f"{k} kshell k 1", "kshell", lambda b, H=H: nx.k_shell(H, 1, backend=b)),
            (f"{k} kcrust k 0", "kcrust", lambda b, H=H: nx.k_crust(H, 0, backend=b)),
            (f"{k} kcorona k 2", "kcorona", lambda b, H=H: nx.k_corona(H, 2, backend=b)),
            (f"{k} kcorona k str", "kcorona", lambda b, H=H: nx.k_corona(H, "2", backend=b)),
            (f"{k} ktruss k 2", "ktruss", lambda b, H=H: nx.k_truss(H, 2, backend=b)),
            (f"{k} ktruss k 4", "ktruss", lambda b, H=H: nx.k_truss(H, 4, backend=b)),
            (f"{k} avgclu nodes", "avgclu", lambda b, H=H: nx.average_clustering(H, [0, 1, 7], backend=b)),
            (f"{k} avgclu nz", "avgclu", lambda b, H=H: nx.average_clustering(H, count_zeros=False, backend=b)),
            (f"{k} avgclu empty nodes", "avgclu", lambda b, H=H: nx.average_clustering(H, [], backend=b)),
            (f"{k} mod res", "mod", lambda b, H=H: nx.community.modularity(H, [{0, 1, 2}, {3, 4, 5, 6, 7}], resolution=0.5, backend=b)),
            (f"{k} mod weight None", "mod", lambda b, H=H: nx.community.modularity(H, [{0, 1, 2}, {3, 4, 5, 6, 7}], weight=None, backend=b)),
            (f"{k} mod tuple", "mod", lambda b, H=H: nx.community.modularity(H, ({0, 1, 2}, {3, 4, 5, 6, 7}), backend=b)),
            (f"{k} mod gen", "mod", lambda b, H=H: nx.community.modularity(H, (c for c in [{0, 1, 2}, {3, 4, 5, 6, 7}]), backend=b)),
            (f"{k} mod lists", "mod", lambda b, H=H: nx.community.modularity(H, [[0, 1, 2], [3, 4, 5, 6, 7]], backend=b)),
            (f"{k} mod dup", "mod", lambda b, H=H: nx.community.modularity(H, [[0, 1, 2, 2], [3, 4, 5, 6, 7]], backend=b)),
            (f"{k} nodecc missing", "nodecc", lambda b, H=H: nx.node_connected_component(H, 99, backend=b)),
            (f"{k} anc missing", "anc", lambda b, H=H: nx.ancestors(H, 99, backend=b)),
            (f"{k} stspl missing", "stspl", lambda b, H=H: nx.single_target_shortest_path_length(H, 99, backend=b)),
            (f"{k} stspl cutoff", "stspl", lambda b, H=H: nx.single_target_shortest_path_length(H, 4, cutoff=1, backend=b)),
            (f"{k} nec heuristic", "nec", lambda b, H=H: nx.negative_edge_cycle(H, heuristic=False, backend=b)),
            (f"{k} nec weight None", "nec", lambda b, H=H: nx.negative_edge_cycle(H, weight=None, backend=b)),
        ]
    for label, name, f in L:
        check("keywords", label, name, f, modes=("srfb", "sr"))
    # Dijkstra with a negative weight: NetworkX's ValueError or an answer
    for cls in (nx.Graph, nx.DiGraph):
        N = base_graph(cls, weights=[1, 2, -3, 1])
        for name, f in battery(N, 0, 4):
            check("keywords", f"negative/{cls.__name__}", name, f)
    # max_iter reached
    C = nx.DiGraph(nx.cycle_graph(5))
    C.add_edge(0, 2)
    check("keywords", "pr no convergence", "pr", lambda b: nx.pagerank(C, max_iter=2, tol=1e-12, backend=b), modes=("srfb", "sr"))


def empty():
    graphs = {}
    for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        c = cls.__name__
        graphs[f"null {c}"] = cls()
        one = cls()
        one.add_node(0)
        graphs[f"one {c}"] = one
        loop = cls()
        loop.add_edge(0, 0, weight=2)
        graphs[f"loop {c}"] = loop
        two = cls()
        two.add_nodes_from([0, 1])
        graphs[f"two isolated {c}"] = two
        e = cls()
        e.add_edge(0, 1)
        graphs[f"one edge {c}"] = e
    for label, G in graphs.items():
        nodes = list(G) or [0]
        run_battery("empty", label, G, nodes[0], nodes[-1], modes=("srfb", "sr"))


def huge():
    # 2^k shortest paths through a chain of diamonds: betweenness past float64 (k > 1024)
    for k in (60, 1030):
        G = nx.Graph()
        for i in range(k):
            a, b1, b2, c = 3 * i, 3 * i + 1, 3 * i + 2, 3 * i + 3
            G.add_edges_from([(a, b1), (a, b2), (b1, c), (b2, c)])
        check("huge", f"diamonds {k}", "bc", lambda b, G=G: nx.betweenness_centrality(G, backend=b))
        check("huge", f"diamonds {k}", "bc", lambda b, G=G: nx.betweenness_centrality(G, normalized=False, backend=b))
    # weights summing past float64 / int64
    for w in (1e308, 2**62, 2**63 - 1, 1.7e308, 2**53):
        for cls in (nx.Graph, nx.DiGraph):
            G = nx.path_graph(6, create_using=cls)
            nx.set_edge_attributes(G, w, "weight")
            run_battery("huge", f"path weight {w!r}/{cls.__name__}", G, 0, 5,
                        only={"ssd", "ssdpl", "dpl", "ssbf", "bfpl", "fwn", "fw", "apdpl",
                              "ecc", "diam", "pr", "mst", "mfv", "mod", "nec", "msdpl",
                              "mwfm", "louvain"})
    # a long path: BFS depth, eccentricity
    P = nx.path_graph(3000)
    run_battery("huge", "path 3000", P, 0, 2999,
                only={"bfs_edges", "sspl", "ecc_v", "bfs_layers", "dad", "sp_st", "has_path",
                      "core", "cc"})


def iterators():
    """Arguments that are iterators: a backend that reads one and then refuses hands NetworkX
    an exhausted iterator (its dispatcher does not tee them)."""
    B = nx.Graph([(0, 2), (1, 2), (1, 3)])
    W = nx.Graph([(0, 2, {"weight": 1}), (0, 3, {"weight": 4}), (1, 2, {"weight": 2}),
                  (1, 3, {"weight": 3})])
    F = nx.Graph([(0, 2, {"weight": 1.5}), (1, 2, {"weight": 2.5}), (1, 3, {"weight": 0.5}),
                  (0, 3, {"weight": 1})])
    L = [
        ("mod gen float", "mod", lambda b: nx.community.modularity(F, (c for c in [{0, 2}, {1, 3}]), backend=b)),
        ("mod gen int", "mod", lambda b: nx.community.modularity(W, (c for c in [{0, 2}, {1, 3}]), backend=b)),
        ("mod gen not partition", "mod", lambda b: nx.community.modularity(W, (c for c in [{0, 2}, {1}]), backend=b)),
        ("mod map", "mod", lambda b: nx.community.modularity(F, map(set, [[0, 2], [1, 3]]), backend=b)),
        ("hk top gen", "hk", lambda b: nx.bipartite.hopcroft_karp_matching(B, top_nodes=iter([0, 1]), backend=b)),
        ("hk top gen stranger", "hk", lambda b: nx.bipartite.hopcroft_karp_matching(B, top_nodes=iter([0, 1, 9]), backend=b)),
        ("hk top set", "hk", lambda b: nx.bipartite.hopcroft_karp_matching(B, top_nodes={0, 1}, backend=b)),
        ("hk top dict keys", "hk", lambda b: nx.bipartite.hopcroft_karp_matching(B, top_nodes={0: 1, 1: 1}.keys(), backend=b)),
        ("mwfm top gen", "mwfm", lambda b: nx.bipartite.minimum_weight_full_matching(W, top_nodes=iter([0, 1]), backend=b)),
        ("mwfm top gen stranger", "mwfm", lambda b: nx.bipartite.minimum_weight_full_matching(W, top_nodes=iter([0, 9]), backend=b)),
        ("msdpl gen neg", "msdpl", lambda b: nx.multi_source_dijkstra_path_length(nx.DiGraph([(0, 1, {"weight": -1}), (1, 2, {"weight": 1})]), iter([0]), backend=b)),
        ("ecc gen", "ecc", lambda b: nx.eccentricity(W, v=iter([0, 1]), backend=b)),
        ("ecc gen w", "ecc", lambda b: nx.eccentricity(W, v=iter([0, 1]), weight="weight", backend=b)),
        ("tri gen", "tri", lambda b: nx.triangles(W, iter([0, 1]), backend=b)),
        ("clu gen", "clu", lambda b: nx.clustering(W, iter([0, 1]), backend=b)),
        ("clu gen w", "clu", lambda b: nx.clustering(W, iter([0, 1]), weight="weight", backend=b)),
        ("avgclu gen", "avgclu", lambda b: nx.average_clustering(W, iter([0, 1]), backend=b)),
        ("avgclu gen w", "avgclu", lambda b: nx.average_clustering(W, iter([0, 1]), weight="weight", backend=b)),
        ("bfs_layers gen", "bfs_layers", lambda b: nx.bfs_layers(W, iter([0, 1]), backend=b)),
        ("fwn gen", "fwn", lambda b: nx.floyd_warshall_numpy(W, iter([0, 1, 2, 3]), backend=b)),
        ("pr pers items", "pr", lambda b: _round(nx.pagerank(W, personalization={0: 1, 1: 1}, backend=b))),
        ("mod gen of gens", "mod", lambda b: nx.community.modularity(W, (iter(c) for c in [[0, 2], [1, 3]]), backend=b)),
        ("mod list of gens", "mod", lambda b: nx.community.modularity(W, [iter(c) for c in [[0, 2], [1, 3]]], backend=b)),
    ]
    for label, name, f in L:
        check("iterators", label, name, f, modes=("srfb", "sr"))


def weight_names():
    """Attribute names that are not strings: NetworkX's G.edges(data=True/False) flags."""
    for wname in (0, ("w",), 1.5, True, False, "", frozenset({"a"})):
        for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph):
            G = cls()
            for u, v, w in BASE:
                G.add_edge(u, v)
                (G.edges[u, v, 0] if G.is_multigraph() else G.edges[u, v])[wname] = w
            G.add_node(7)
            run_battery("weight_names", f"{wname!r}/{cls.__name__}", G, 0, 4, weight=wname,
                        modes=("srfb", "sr"))


SECTIONS = {"weight_names": weight_names, "labels": labels, "mutation": mutation, "weights": weights, "keywords": keywords,
            "empty": empty, "huge": huge, "iterators": iterators}

if __name__ == "__main__":
    for sec in sys.argv[1:] or list(SECTIONS):
        SECTIONS[sec]()
        print(f"--- {sec}:", {k[1]: v for k, v in TALLY.items() if k[0] == sec}, flush=True)
