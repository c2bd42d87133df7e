"""Differential fuzz of the 34 functions dispatched in session 17 (nx_semiring.paths /
analytics): python fuzz.py SEED N. Prints DIFF lines and a counter of (call, class, view)."""
import os, sys; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nxa11_driver"))  # nxa11's h.py
from h import *
import collections
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
WV = [1, 2, 3, 0, 0.5, 2.5, -1, -0.0, float("inf"), True, 2**40, np.float64(1.5), np.int64(2), None,
      np.float32(0.3), np.int32(3), np.int8(90), 2**53 + 1, 2**63 + 5, 0.1, 7, 5]
CV = [1, 2, 3, 0, 5, 2.0, 0.5, -1, float("inf"), np.int64(4), np.int8(100), 2**62, True, None, 10]
def make(bip=False):
    directed = (not bip) and rng.random() < 0.5
    multi = rng.random() < 0.2
    cls = {(0,0): nx.Graph, (1,0): nx.DiGraph, (0,1): nx.MultiGraph, (1,1): nx.MultiDiGraph}[(directed, multi)]
    G = cls()
    n = rng.randint(0, 9)
    kind = rng.choice(["int", "perm", "mixed", "npint", "str"])
    if kind == "int": labels = list(range(n))
    elif kind == "perm": labels = rng.sample(range(100), n)
    elif kind == "npint": labels = [np.int64(i) for i in range(n)]
    elif kind == "str": labels = [f"v{i}" for i in range(n)]
    else: labels = [rng.choice([i, (i, "t"), f"s{i}", frozenset({i}), float(i) + 0.5]) for i in range(n)]
    labels = list(dict.fromkeys(labels))
    G.add_nodes_from(labels)
    m = rng.randint(0, 2 * len(labels) + 3)
    wset = rng.sample(WV, 3) if rng.random() < 0.7 else [1, 2, 3]
    cset = rng.sample(CV, 3) if rng.random() < 0.6 else [1, 2, 3]
    top = labels[: len(labels) // 2 + rng.randint(0, 1)] if bip else []
    for _ in range(m):
        if not labels: break
        u, v = rng.choice(labels), rng.choice(labels)
        if bip and rng.random() < 0.9:
            if not top or len(top) == len(labels): continue
            u, v = rng.choice(top), rng.choice([x for x in labels if x not in top])
            if rng.random() < .5: u, v = v, u
        d = {}
        if rng.random() > 0.15: d["weight"] = rng.choice(wset)
        if rng.random() > 0.15: d["capacity"] = rng.choice(cset)
        G.add_edge(u, v, **d)
    return G, top
def view(G):
    k = rng.choice(["plain"] * 5 + ["sub", "edge_sub", "filter", "reverse", "frozen", "uview", "restricted", "copyview"])
    nodes = list(G)
    if not nodes: return "plain", G
    if k == "sub": return k, G.subgraph(nodes[: max(1, len(nodes) - 1)])
    if k == "edge_sub": return k, G.edge_subgraph(list(G.edges(keys=True) if G.is_multigraph() else G.edges())[::2])
    if k == "filter": return k, nx.subgraph_view(G, filter_node=lambda v: v != nodes[-1] or len(nodes) == 1)
    if k == "reverse": return k, (G.reverse(copy=False) if G.is_directed() else G)
    if k == "frozen": return k, nx.freeze(G)
    if k == "uview": return k, G.to_undirected(as_view=True)
    if k == "restricted": return k, nx.restricted_view(G, nodes[-1:] if len(nodes) > 1 else [], [])
    if k == "copyview": return k, G.copy(as_view=True)
    return k, G
def fwd(r):
    if isinstance(r, tuple): return tuple(fwd(x) for x in r)
    if isinstance(r, dict): return {k: fwd(v) for k, v in r.items()}
    return r
def ends(r):
    if isinstance(r, tuple): return (r[0], ends(r[1]))
    if isinstance(r, list) and r and isinstance(r[0], list): return [ends(x) for x in r]
    if isinstance(r, list): return ("path", repr(r[0]), repr(r[-1]), len(r))
    if isinstance(r, dict): return {k: ends(v) for k, v in r.items()}
    return r
def calls(G, top):
    nodes = list(G) or [0]
    s, t = rng.choice(nodes), rng.choice(nodes)
    c = rng.choice([None, None, 0, 1, 2, 1.5, -1])
    w = rng.choice(["weight", "weight", None, "missing"])
    kk = rng.choice([None, None, 0, 1, 2, 3])
    us = rng.random() < 0.4
    srcs = rng.sample(nodes, rng.randint(1, len(nodes)))
    cap = rng.choice(["capacity", "capacity", "weight", "missing"])
    comm = None
    r = rng.random()
    if r < 0.6:
        lab = {v: rng.randint(0, 2) for v in G}
        comm = [set(v for v in G if lab[v] == i) for i in range(3)]
        comm = [x for x in comm if x] or [set()]
    elif r < 0.8:
        comm = [set(rng.sample(nodes, rng.randint(0, len(nodes)))) for _ in range(2)]
    else:
        comm = [set(G)]
    res = rng.choice([1, 0, 0.5, 2, 1.5])
    tn = top if top and rng.random() < 0.7 else None
    global ARGS
    ARGS = dict(s=s, t=t, c=c, w=w, kk=kk, us=us, srcs=srcs, cap=cap, res=res, tn=tn)
    ecc = None
    if rng.random() < 0.3:
        try: ecc = nx.eccentricity(G)
        except Exception: ecc = {v: 1 for v in G}
    L = [
     ("apdpl", lambda b: dict(nx.all_pairs_dijkstra_path_length(G, cutoff=c, weight=w or "weight", backend=b)), "exact"),
     ("apbfpl", lambda b: dict(nx.all_pairs_bellman_ford_path_length(G, weight=w or "weight", backend=b)), "exact"),
     ("apsp", lambda b: dict(nx.all_pairs_shortest_path(G, cutoff=c, backend=b)), "exact"),
     ("apdp", lambda b: dict(nx.all_pairs_dijkstra_path(G, cutoff=c, weight=w or "weight", backend=b)), "exact"),
     ("apdp_e", lambda b: ends(dict(nx.all_pairs_dijkstra_path(G, cutoff=c, weight=w or "weight", backend=b))), "exact"),
     ("fw", lambda b: fwd(nx.floyd_warshall(G, weight=w or "weight", backend=b)), "exact"),
     ("fwpd_pred", lambda b: fwd(nx.floyd_warshall_predecessor_and_distance(G, weight=w or "weight", backend=b))[0], "exact"),
     ("fwpd", lambda b: fwd(nx.floyd_warshall_predecessor_and_distance(G, weight=w or "weight", backend=b))[1], "exact"),
     ("msdpl", lambda b: nx.multi_source_dijkstra_path_length(G, set(srcs), cutoff=c, weight=w or "weight", backend=b), "exact"),
     ("stspl", lambda b: nx.single_target_shortest_path_length(G, t, cutoff=c, backend=b), "exact"),
     ("desc", lambda b: nx.descendants(G, s, backend=b), "exact"),
     ("anc", lambda b: nx.ancestors(G, s, backend=b), "exact"),
     ("ecc", lambda b: nx.eccentricity(G, weight=w, backend=b), "exact"),
     ("ecc_v", lambda b: nx.eccentricity(G, v=s, weight=w, backend=b), "exact"),
     ("ecc_vs", lambda b: nx.eccentricity(G, v=srcs, weight=w, backend=b), "exact"),
     ("diam", lambda b: nx.diameter(G, e=ecc, usebounds=us, weight=w, backend=b), "exact"),
     ("rad", lambda b: nx.radius(G, e=ecc, usebounds=us, weight=w, backend=b), "exact"),
     ("cen", lambda b: nx.center(G, e=ecc, usebounds=us, weight=w, backend=b), "exact"),
     ("per", lambda b: nx.periphery(G, e=ecc, usebounds=us, weight=w, backend=b), "exact"),
     ("mfv", lambda b: nx.maximum_flow_value(G, s, t, capacity=cap, backend=b), "exact"),
     ("mcv", lambda b: nx.minimum_cut_value(G, s, t, capacity=cap, backend=b), "exact"),
     ("mfv_ek", lambda b: nx.maximum_flow_value(G, s, t, capacity=cap, flow_func=nx.flow.edmonds_karp, backend=b), "exact"),
     ("hk", lambda b: nx.bipartite.hopcroft_karp_matching(G, top_nodes=tn, backend=b), "exact"),
     ("mwfm", lambda b: nx.bipartite.minimum_weight_full_matching(G, top_nodes=tn, weight=w, backend=b), "exact"),
     ("wcc", lambda b: nx.weakly_connected_components(G, backend=b), "exact"),
     ("nwcc", lambda b: nx.number_weakly_connected_components(G, backend=b), "exact"),
     ("iwc", lambda b: nx.is_weakly_connected(G, backend=b), "exact"),
     ("nscc", lambda b: nx.number_strongly_connected_components(G, backend=b), "exact"),
     ("isc", lambda b: nx.is_strongly_connected(G, backend=b), "exact"),
     ("ncc", lambda b: nx.node_connected_component(G, s, backend=b), "exact"),
     ("kcore", lambda b: nx.k_core(G, k=kk, backend=b), "exact"),
     ("kshell", lambda b: nx.k_shell(G, k=kk, backend=b), "exact"),
     ("kcrust", lambda b: nx.k_crust(G, k=kk, backend=b), "exact"),
     ("kcorona", lambda b: nx.k_corona(G, k=kk or 0, backend=b), "exact"),
     ("ktruss", lambda b: nx.k_truss(G, k=kk if kk is not None else 3, backend=b), "exact"),
     ("avgclu", lambda b: nx.average_clustering(G, nodes=srcs if rng.random() < .3 else None, weight=None, count_zeros=us, backend=b), "exact"),
     ("trans", lambda b: nx.transitivity(G, backend=b), "exact"),
     ("lpc", lambda b: list(map(sorted, map(lambda x: map(repr, x), nx.community.label_propagation_communities(G, backend=b)))), "exact"),
     ("mod", lambda b: nx.community.modularity(G, comm, weight=w, resolution=res, backend=b), "exact"),
     # missing nodes and odd arguments: NetworkX's exception (class and message) or answer
     ("msdpl_miss", lambda b: nx.multi_source_dijkstra_path_length(G, {s, "zz"}, backend=b), "exact"),
     ("msdpl_none", lambda b: nx.multi_source_dijkstra_path_length(G, set(), backend=b), "exact"),
     ("ecc_miss", lambda b: nx.eccentricity(G, v="zz", backend=b), "exact"),
     ("ncc_miss", lambda b: nx.node_connected_component(G, "zz", backend=b), "exact"),
     ("desc_miss", lambda b: nx.descendants(G, "zz", backend=b), "exact"),
     ("anc_miss", lambda b: nx.ancestors(G, "zz", backend=b), "exact"),
     ("stspl_miss", lambda b: nx.single_target_shortest_path_length(G, "zz", backend=b), "exact"),
     ("kcore_neg", lambda b: nx.k_core(G, k=-1, backend=b), "exact"),
     ("ktruss_neg", lambda b: nx.k_truss(G, k=rng.choice([-1, 0, 1, 2, 2.5]), backend=b), "exact"),
     ("mfv_same", lambda b: nx.maximum_flow_value(G, s, s, backend=b), "exact"),
     ("mfv_miss", lambda b: nx.maximum_flow_value(G, s, "zz", backend=b), "exact"),
     ("hk_badtop", lambda b: nx.bipartite.hopcroft_karp_matching(G, top_nodes=[s, "zz"], backend=b), "exact"),
     ("mwfm_none", lambda b: nx.bipartite.minimum_weight_full_matching(G, top_nodes=[], backend=b), "exact"),
     ("diam_e", lambda b: nx.diameter(G, e={v: rng.choice([1, 2.5, 3]) for v in G}, backend=b), "exact"),
     ("avgclu_miss", lambda b: nx.average_clustering(G, nodes=[s, "zz"], backend=b), "exact"),
     ("mod_np", lambda b: nx.community.modularity(G, [set(G)], resolution=np.float64(res), backend=b), "exact"),
    ]
    return L
def cmp2(a, b, how):
    if how == "exact":
        return a[0] == b[0] and (ex(a[1]) == ex(b[1]) if a[0] == "ok" else a[1] == b[1])
    return same_loose(a, b)
def exr(x):  # ex() plus key order of dicts
    if isinstance(x, dict): return ("dict", [(repr(k), exr(v)) for k, v in x.items()])
    if isinstance(x, (list, tuple)): return (type(x).__name__, [exr(v) for v in x])
    return ex(x)
# orders documented as the engine's (nx_semiring.algorithms / paths docstrings): length dicts
# by (distance, vertex), weighted path dicts likewise, Floyd-Warshall predecessor keys
OURS = {"apdpl", "apbfpl", "msdpl", "stspl", "apdp", "apdp_e", "fwpd_pred"}
SHOWTYPE = os.environ.get("SHOWTYPE") == "1"  # number types (int/float, NumPy scalars): documented as ours
bad = collections.Counter()
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
ONLY = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
shown = 0; ncalls = 0
for it in range(N):
    bip = rng.random() < 0.3
    G0, top = make(bip)
    vk, G = view(G0)
    for name, f, how in calls(G, top):
        if ONLY and name not in ONLY: continue
        st = rng.getstate()
        a = run(f, "nx")
        rng.setstate(st)
        for H in (G, G0):
            if getattr(H, "__networkx_cache__", None): H.__networkx_cache__.clear()
        b = run(f, "srfb")
        ncalls += 1
        ok = cmp2(a, b, how)
        loose = ok or cmp2(a, b, "loose")
        order = ok and a[0] == "ok" and name not in OURS and exr(a[1]) != exr(b[1])
        if not ok or order:
            kind = "ORDER" if ok else "TYPE" if loose else "VALUE"
            if kind == "TYPE" and not SHOWTYPE: continue
            key = (name, type(G0).__name__, vk, kind)
            bad[key] += 1
            if bad[key] <= 1 and shown < 80:
                shown += 1
                print("DIFF", key, "edges:", list(G.edges(data=True)), "nodes:", list(G)[:10], "top", top)
                print("   args:", ARGS)
                print("   nx:", str(a)[:400]); print("   sr:", str(b)[:400])
print("calls", ncalls)
print(sorted(bad.items(), key=lambda x: -x[1]))
