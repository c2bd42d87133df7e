import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h import *
from decimal import Decimal
from fractions import Fraction
diffs = []
def graphs():
    out = {}
    G = nx.path_graph(5); out["path"] = G
    D = nx.DiGraph([(0,1),(1,2),(2,0),(2,3)]); out["di"] = D
    G = nx.Graph(); G.add_nodes_from([np.int64(i) for i in range(4)]); G.add_edges_from([(np.int64(0),np.int64(1)),(np.int64(1),np.int64(2))]); out["npint"] = G
    G = nx.Graph([(0, 1.5), (1.5, True), ("a", (1,2)), ((1,2), frozenset({3})), ("", 0)]); out["mixed"] = G
    G = nx.Graph([(0, 2**70), (2**70, -5)]); out["bigint"] = G
    G = nx.Graph(); G.add_nodes_from([3,1,2,0]); G.add_edges_from([(3,1),(1,2)]); out["perm"] = G
    G = nx.Graph(); G.add_nodes_from([1.0, 2.0, 0.0]); G.add_edge(1.0, 2.0); out["floats"] = G
    return out
WV = [0, 1, -0.0, 2**53+1, 2**63, 2**64+3, Decimal("1.5"), Fraction(1,3), True, False, float("inf"), "3", 1+2j, np.int32(5), np.float32(0.1), np.uint64(2**63+1), None]
for name, G in graphs().items():
    nodes = list(G)
    for s in nodes[:3] + [1, 1.0, True, np.int64(1)]:
        for fname, f in [
            ("sspl", lambda b: nx.single_source_shortest_path_length(G, s, backend=b)),
            ("ssp", lambda b: nx.single_source_shortest_path(G, s, backend=b)),
            ("bfs_edges", lambda b: nx.bfs_edges(G, s, backend=b)),
            ("bfs_tree", lambda b: nx.bfs_tree(G, s, backend=b)),
            ("bfs_layers", lambda b: nx.bfs_layers(G, s, backend=b)),
            ("desc", lambda b: nx.descendants_at_distance(G, s, 1, backend=b)),
            ("dij", lambda b: nx.single_source_dijkstra(G, s, backend=b)),
            ("bf", lambda b: nx.single_source_bellman_ford(G, s, backend=b)),
            ("sp", lambda b: nx.shortest_path(G, s, backend=b)),
            ("sptgt", lambda b: nx.shortest_path(G, target=s, backend=b)),
            ("spl", lambda b: nx.shortest_path_length(G, s, backend=b)),
            ("has", lambda b: nx.has_path(G, s, nodes[-1], backend=b)),
            ("tri", lambda b: nx.triangles(G, s, backend=b) if not G.is_directed() else 0),
            ("clu", lambda b: nx.clustering(G, s, backend=b)),
        ]:
            diffs += cmp(f"{name}/{fname}/{s!r}", f, clear=G)
    for fname, f in [
        ("cc", lambda b: nx.connected_components(G, backend=b) if not G.is_directed() else 0),
        ("scc", lambda b: nx.strongly_connected_components(G, backend=b) if G.is_directed() else 0),
        ("pr", lambda b: {k: round(v, 9) for k, v in nx.pagerank(G, backend=b).items()}),
        ("bc", lambda b: {k: round(v, 9) for k, v in nx.betweenness_centrality(G, backend=b).items()}),
        ("core", lambda b: nx.core_number(G, backend=b)),
        ("mst", lambda b: nx.minimum_spanning_tree(G, backend=b) if not G.is_directed() else 0),
        ("fw", lambda b: nx.floyd_warshall_numpy(G, backend=b)),
        ("apspl", lambda b: nx.all_pairs_shortest_path_length(G, backend=b)),
        ("nec", lambda b: nx.negative_edge_cycle(G, backend=b)),
    ]:
        diffs += cmp(f"{name}/{fname}", f, clear=G)
# weights
for w in WV:
    for directed in (False, True):
        G = (nx.DiGraph if directed else nx.Graph)([(0,1,{"weight": w}),(1,2,{"weight": 2}),(0,2,{"weight":5}), (2,3)])
        for fname, f in [
            ("dij", lambda b: nx.single_source_dijkstra(G, 0, backend=b)),
            ("dijl", lambda b: nx.single_source_dijkstra_path_length(G, 0, backend=b)),
            ("dpl", lambda b: nx.dijkstra_path_length(G, 0, 2, backend=b)),
            ("bf", lambda b: nx.single_source_bellman_ford(G, 0, backend=b)),
            ("bfpl", lambda b: nx.bellman_ford_path_length(G, 0, 2, backend=b)),
            ("spl", lambda b: nx.shortest_path_length(G, 0, weight="weight", backend=b)),
            ("aspl", lambda b: dict(nx.shortest_path_length(G, weight="weight", backend=b))),
            ("nec", lambda b: nx.negative_edge_cycle(G, backend=b)),
            ("fw", lambda b: nx.floyd_warshall_numpy(G, backend=b)),
            ("pr", lambda b: {k: round(v, 9) for k, v in nx.pagerank(G, backend=b).items()}),
            ("mst", lambda b: nx.minimum_spanning_tree(G, backend=b) if not directed else 0),
            ("lv", lambda b: sorted(map(sorted, nx.community.louvain_communities(G, backend=b))) if not directed else 0),
        ]:
            diffs += cmp(f"w={w!r}/{directed}/{fname}", f, clear=G)
print(len(diffs), "diffs")
