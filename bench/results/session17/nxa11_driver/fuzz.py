import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h import *
from decimal import Decimal
from fractions import Fraction
R = lambda d: {k: round(v, 7) for k, v in d.items()} if isinstance(d, dict) else d
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
WV = [1, 2, 3, 0, 0.5, 2.5, -1, -0.0, float("inf"), True, 2**40, np.float64(1.5), np.int64(2), None, np.float32(0.3), np.int32(3), np.int8(90), 2**53 + 1, 2**63 + 5, "a"]
def make():
    directed = rng.random() < 0.5
    multi = rng.random() < 0.25
    cls = {(0,0): nx.Graph, (1,0): nx.DiGraph, (0,1): nx.MultiGraph, (1,1): nx.MultiDiGraph}[(directed, multi)]
    G = cls()
    n = rng.randint(1, 9)
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
    for _ in range(m):
        u, v = rng.choice(labels), rng.choice(labels)
        if rng.random() < 0.15: G.add_edge(u, v)
        else: G.add_edge(u, v, weight=rng.choice(wset))
    return G
def view(G):
    k = rng.choice(["plain"] * 4 + ["sub", "edge_sub", "filter", "reverse", "frozen", "uview", "restricted", "copyview"])
    nodes = list(G)
    if k == "sub": return k, G.subgraph(nodes[: max(1, len(nodes) - 1)])
    if k == "edge_sub": return k, G.edge_subgraph(list(G.edges(keys=True) if G.is_multigraph() else G.edges())[::2])
    if k == "filter": return k, nx.subgraph_view(G, filter_node=lambda v: v != nodes[-1] or len(nodes) == 1)
    if k == "reverse": return k, (G.reverse(copy=False) if G.is_directed() else G)
    if k == "frozen": return k, nx.freeze(G)
    if k == "uview": return k, G.to_undirected(as_view=True)
    if k == "restricted": return k, nx.restricted_view(G, nodes[-1:] if len(nodes) > 1 else [], [])
    if k == "copyview": return k, G.copy(as_view=True)
    return k, G
def ends(r):
    if isinstance(r, tuple): return (r[0], ends(r[1]))
    if isinstance(r, list) and r and isinstance(r[0], list): return [ends(x) for x in r]
    if isinstance(r, list): return ("path", repr(r[0]), repr(r[-1]))
    if isinstance(r, dict): return {k: ends(v) for k, v in r.items()}
    return r
def calls(G):
    nodes = list(G)
    s, t = rng.choice(nodes), rng.choice(nodes)
    c = rng.choice([None, 0, 1, 2, 1.5, -1])
    k = rng.choice([None, 1, 2, len(nodes)])
    w = rng.choice(["weight", "weight", None, "missing"])
    dd = rng.choice([0, 1, 2]); nrm = rng.random() < .5; ep = rng.random() < .5
    L = [
     ("bfs_edges", lambda b: nx.bfs_edges(G, s, depth_limit=c if c is None or c >= 0 else None, backend=b), "exact"),
     ("bfs_tree", lambda b: nx.bfs_tree(G, s, backend=b), "exact"),
     ("bfs_layers", lambda b: nx.bfs_layers(G, [s, t] if s != t else s, backend=b), "exact"),
     ("bfs_pred", lambda b: nx.bfs_predecessors(G, s, backend=b), "exact"),
     ("bfs_succ", lambda b: nx.bfs_successors(G, s, backend=b), "exact"),
     ("desc", lambda b: nx.descendants_at_distance(G, s, dd, backend=b), "exact"),
     ("sp", lambda b: nx.shortest_path(G, s, t, weight=w, backend=b), "exact"),
     ("sp_s", lambda b: ends(nx.shortest_path(G, s, weight=w, backend=b)), "loose"),
     ("sp_t", lambda b: ends(nx.shortest_path(G, target=t, weight=w, backend=b)), "loose"),
     ("sp_all", lambda b: ends(dict(nx.shortest_path(G, weight=w, backend=b))), "loose"),
     ("spl", lambda b: nx.shortest_path_length(G, s, t, weight=w, backend=b), "loose"),
     ("spl_s", lambda b: nx.shortest_path_length(G, s, weight=w, backend=b), "loose"),
     ("spl_t", lambda b: nx.shortest_path_length(G, target=t, weight=w, backend=b), "loose"),
     ("spl_all", lambda b: dict(nx.shortest_path_length(G, weight=w, backend=b)), "loose"),
     ("spl_bf", lambda b: nx.shortest_path_length(G, s, weight=w, method="bellman-ford", backend=b), "loose"),
     ("ssp", lambda b: nx.single_source_shortest_path(G, s, cutoff=c, backend=b), "exact"),
     ("sspl", lambda b: nx.single_source_shortest_path_length(G, s, cutoff=c, backend=b), "loose"),
     ("apspl", lambda b: dict(nx.all_pairs_shortest_path_length(G, cutoff=c, backend=b)), "loose"),
     ("has_path", lambda b: nx.has_path(G, s, t, backend=b), "exact"),
     ("ssd", lambda b: ends(nx.single_source_dijkstra(G, s, cutoff=c, weight=w or "weight", backend=b)), "loose"),
     ("ssd_t", lambda b: nx.single_source_dijkstra(G, s, t, weight=w or "weight", backend=b), "loose"),
     ("ssdp", lambda b: ends(nx.single_source_dijkstra_path(G, s, cutoff=c, weight=w or "weight", backend=b)), "loose"),
     ("ssdl", lambda b: nx.single_source_dijkstra_path_length(G, s, cutoff=c, weight=w or "weight", backend=b), "loose"),
     ("dp", lambda b: nx.dijkstra_path(G, s, t, weight=w or "weight", backend=b), "exact"),
     ("dpl", lambda b: nx.dijkstra_path_length(G, s, t, weight=w or "weight", backend=b), "loose"),
     ("bfp", lambda b: nx.bellman_ford_path(G, s, t, weight=w or "weight", backend=b), "exact"),
     ("bfpl", lambda b: nx.bellman_ford_path_length(G, s, t, weight=w or "weight", backend=b), "loose"),
     ("ssbf", lambda b: ends(nx.single_source_bellman_ford(G, s, weight=w or "weight", backend=b)), "loose"),
     ("ssbf_t", lambda b: nx.single_source_bellman_ford(G, s, t, weight=w or "weight", backend=b), "loose"),
     ("ssbfp", lambda b: ends(nx.single_source_bellman_ford_path(G, s, weight=w or "weight", backend=b)), "loose"),
     ("ssbfl", lambda b: nx.single_source_bellman_ford_path_length(G, s, weight=w or "weight", backend=b), "loose"),
     ("nec", lambda b: nx.negative_edge_cycle(G, weight=w or "weight", backend=b), "exact"),
     ("fw", lambda b: nx.floyd_warshall_numpy(G, weight=w, backend=b).tolist(), "loose"),
     ("fw_nl", lambda b: nx.floyd_warshall_numpy(G, nodelist=list(reversed(nodes)), weight=w, backend=b).tolist(), "loose"),
     ("cc", lambda b: nx.connected_components(G, backend=b), "exact"),
     ("ncc", lambda b: nx.number_connected_components(G, backend=b), "exact"),
     ("isc", lambda b: nx.is_connected(G, backend=b), "exact"),
     ("scc", lambda b: sorted(map(sorted, map(lambda c: map(repr, c), nx.strongly_connected_components(G, backend=b)))), "exact"),
     ("pr", lambda b: R(nx.pagerank(G, weight=w, backend=b)), "loose"),
     ("pr_p", lambda b: R(nx.pagerank(G, personalization={s: 1, t: 2}, dangling={t: 1}, nstart={s: 1}, backend=b)), "loose"),
     ("bc", lambda b: R(nx.betweenness_centrality(G, k=k, seed=3, normalized=nrm, endpoints=ep, backend=b)), "loose"),
     ("tri", lambda b: nx.triangles(G, backend=b), "exact"),
     ("tri_n", lambda b: nx.triangles(G, s, backend=b), "exact"),
     ("clu", lambda b: R(nx.clustering(G, backend=b)), "loose"),
     ("clu_n", lambda b: R(nx.clustering(G, [s, t], backend=b)), "loose"),
     ("core", lambda b: nx.core_number(G, backend=b), "exact"),
     ("mst", lambda b: nx.minimum_spanning_tree(G, weight=w or "weight", backend=b), "exact"),
     ("mst_p", lambda b: nx.minimum_spanning_tree(G, algorithm="prim", backend=b), "exact"),
     ("lv", lambda b: len(nx.community.louvain_communities(G, weight=w, backend=b)) * 0, "exact"),
    ]
    return L
def cmp2(a, b, how):
    if how == "exact":
        return a[0] == b[0] and (ex(a[1]) == ex(b[1]) if a[0] == "ok" else a[1] == b[1])
    return same_loose(a, b)
import collections
bad = collections.Counter()
N = int(sys.argv[2]) if len(sys.argv) > 2 else 300
shown = 0
for it in range(N):
    G0 = make()
    vk, G = view(G0)
    if len(G) == 0: continue
    for name, f, how in calls(G):
        a = run(f, "nx")
        if getattr(G, "__networkx_cache__", None): G.__networkx_cache__.clear()
        if getattr(G0, "__networkx_cache__", None): G0.__networkx_cache__.clear()
        b = run(f, "srfb")
        if not cmp2(a, b, how):
            key = (name, type(G0).__name__, vk)
            bad[key] += 1
            if bad[key] <= 1 and shown < 60:
                shown += 1
                print("DIFF", key, "edges:", list(G.edges(data=True))[:12], "nodes:", list(G)[:10])
                print("   nx:", str(a)[:300]); print("   sr:", str(b)[:300])
print(sorted(bad.items(), key=lambda x: -x[1]))
