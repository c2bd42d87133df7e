import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h import *
bad = 0
for directed in (False, True):
    G = (nx.DiGraph if directed else nx.Graph)([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (3, 4, {"weight": -1}), (2, 0, {"weight": 1})])
    G.add_node(5)
    E = nx.DiGraph() if directed else nx.Graph()
    calls = [
     ("fw_nl_short", lambda b: nx.floyd_warshall_numpy(G, nodelist=[0, 1], backend=b)),
     ("fw_nl_dup", lambda b: nx.floyd_warshall_numpy(G, nodelist=[0, 1, 2, 3, 4, 4], backend=b)),
     ("fw_nl_missing", lambda b: nx.floyd_warshall_numpy(G, nodelist=[0, 1, 2, 3, 4, 9], backend=b)),
     ("fw_empty", lambda b: nx.floyd_warshall_numpy(E, backend=b)),
     ("pr_empty", lambda b: nx.pagerank(E, backend=b)),
     ("pr_pers0", lambda b: nx.pagerank(G, personalization={0: 0}, backend=b)),
     ("pr_iter0", lambda b: nx.pagerank(G, max_iter=0, backend=b)),
     ("bc_k_big", lambda b: nx.betweenness_centrality(G, k=10, backend=b)),
     ("bc_k_neg", lambda b: nx.betweenness_centrality(G, k=-1, backend=b)),
     ("bc_k0", lambda b: nx.betweenness_centrality(G, k=0, backend=b)),
     ("bc_empty", lambda b: nx.betweenness_centrality(E, backend=b)),
     ("mst_alg", lambda b: nx.minimum_spanning_tree(G, algorithm="foo", backend=b)),
     ("mst_empty", lambda b: nx.minimum_spanning_tree(E, backend=b)),
     ("lv_maxl", lambda b: nx.community.louvain_communities(G, max_level=0, backend=b)),
     ("lv_empty", lambda b: nx.community.louvain_communities(E, backend=b)),
     ("cc", lambda b: nx.connected_components(G, backend=b)),
     ("ncc", lambda b: nx.number_connected_components(G, backend=b)),
     ("isc", lambda b: nx.is_connected(G, backend=b)),
     ("isc_empty", lambda b: nx.is_connected(E, backend=b)),
     ("ncc_empty", lambda b: nx.number_connected_components(E, backend=b)),
     ("scc", lambda b: nx.strongly_connected_components(G, backend=b)),
     ("scc_empty", lambda b: nx.strongly_connected_components(E, backend=b)),
     ("tri", lambda b: nx.triangles(G, backend=b)),
     ("tri_empty", lambda b: nx.triangles(E, backend=b)),
     ("clu_empty", lambda b: nx.clustering(E, backend=b)),
     ("core_empty", lambda b: nx.core_number(E, backend=b)),
     ("core_loop", lambda b: nx.core_number(nx.Graph([(0, 0)]), backend=b)),
     ("nec_empty", lambda b: nx.negative_edge_cycle(E, backend=b)),
     ("nec", lambda b: nx.negative_edge_cycle(G, backend=b)),
     ("bf_negcyc", lambda b: nx.single_source_bellman_ford(G, 3, backend=b)),
     ("bfl_negcyc", lambda b: nx.bellman_ford_path_length(G, 3, 4, backend=b)),
     ("sp_method", lambda b: nx.shortest_path(G, 0, 1, weight="weight", method="foo", backend=b)),
     ("spl_method", lambda b: nx.shortest_path_length(G, 0, 1, weight="weight", method="foo", backend=b)),
     ("spl_method_nw", lambda b: nx.shortest_path_length(G, 0, 1, method="foo", backend=b)),
     ("apspl_empty", lambda b: dict(nx.all_pairs_shortest_path_length(E, backend=b))),
     ("sp_all_empty", lambda b: dict(nx.shortest_path(E, backend=b))),
     ("desc_neg", lambda b: nx.descendants_at_distance(G, 0, -1, backend=b)),
     ("bfs_layers_missing", lambda b: list(nx.bfs_layers(G, [0, 9], backend=b))),
     ("dij_neg", lambda b: nx.single_source_dijkstra(G, 3, backend=b)),
     ("sspl_cut_str", lambda b: nx.single_source_shortest_path_length(G, 0, cutoff="a", backend=b)),
     ("ssp_cut_str", lambda b: nx.single_source_shortest_path(G, 0, cutoff="a", backend=b)),
     ("bfse_dl_str", lambda b: list(nx.bfs_edges(G, 0, depth_limit="a", backend=b))),
     ("tri_nodes_missing", lambda b: nx.triangles(G, [0, 9], backend=b)),
     ("clu_nodes_missing", lambda b: nx.clustering(G, [0, 9], backend=b)),
     ("pr_alpha_str", lambda b: nx.pagerank(G, alpha="x", backend=b)),
     ("pr_nstart_zero", lambda b: nx.pagerank(G, nstart={0: 0}, backend=b)),
     ("pr_dangling_zero", lambda b: nx.pagerank(G, dangling={0: 0}, backend=b)),
    ]
    for name, f in calls:
        a = run(f, "nx")
        if G.__networkx_cache__: G.__networkx_cache__.clear()
        bb = run(f, "srfb")
        if a[0] != bb[0] or (a[0] == "raised" and a[1:] != bb[1:]) or (a[0] == "ok" and lx(a[1]) != lx(bb[1]) and name != "scc"):
            bad += 1
            print("DIFF", directed, name, "\n  nx:", str(a)[:200], "\n  sr:", str(bb)[:200])
print(bad)
