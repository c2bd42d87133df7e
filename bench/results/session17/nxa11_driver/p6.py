import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h import *
def full(f, mode):
    r = run(f, mode)
    return r
bad = 0
for directed in (False, True):
    G = (nx.DiGraph if directed else nx.Graph)([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (3, 4, {"weight": -1})])
    G.add_node(5)
    for s, t in [(9, 0), (0, 9), (9, 9), (0, 5), (5, 0), (0, 0), (9, None), (None, 9), (0, 4), (3, 3)]:
        calls = [
         ("bfs_edges", lambda b: nx.bfs_edges(G, s, backend=b)), ("bfs_tree", lambda b: nx.bfs_tree(G, s, backend=b)),
         ("bfs_layers", lambda b: nx.bfs_layers(G, [s, t], backend=b)), ("bfs_pred", lambda b: nx.bfs_predecessors(G, s, backend=b)),
         ("bfs_succ", lambda b: nx.bfs_successors(G, s, backend=b)), ("desc", lambda b: nx.descendants_at_distance(G, s, 1, backend=b)),
         ("sp", lambda b: nx.shortest_path(G, s, t, backend=b)), ("spw", lambda b: nx.shortest_path(G, s, t, weight="weight", backend=b)),
         ("spbf", lambda b: nx.shortest_path(G, s, t, weight="weight", method="bellman-ford", backend=b)),
         ("spl", lambda b: nx.shortest_path_length(G, s, t, backend=b)), ("splw", lambda b: nx.shortest_path_length(G, s, t, weight="weight", backend=b)),
         ("splbf", lambda b: nx.shortest_path_length(G, s, t, weight="weight", method="bellman-ford", backend=b)),
         ("ssp", lambda b: nx.single_source_shortest_path(G, s, backend=b)), ("sspl", lambda b: nx.single_source_shortest_path_length(G, s, backend=b)),
         ("has", lambda b: nx.has_path(G, s, t, backend=b)),
         ("ssd", lambda b: nx.single_source_dijkstra(G, s, t, backend=b)), ("ssdp", lambda b: nx.single_source_dijkstra_path(G, s, backend=b)),
         ("ssdl", lambda b: nx.single_source_dijkstra_path_length(G, s, backend=b)), ("dp", lambda b: nx.dijkstra_path(G, s, t, backend=b)),
         ("dpl", lambda b: nx.dijkstra_path_length(G, s, t, backend=b)), ("bfp", lambda b: nx.bellman_ford_path(G, s, t, backend=b)),
         ("bfpl", lambda b: nx.bellman_ford_path_length(G, s, t, backend=b)), ("ssbf", lambda b: nx.single_source_bellman_ford(G, s, t, backend=b)),
         ("ssbfp", lambda b: nx.single_source_bellman_ford_path(G, s, backend=b)), ("ssbfl", lambda b: nx.single_source_bellman_ford_path_length(G, s, backend=b)),
         ("tri", lambda b: nx.triangles(G, s, backend=b)), ("clu", lambda b: nx.clustering(G, s, backend=b)),
         ("tri_l", lambda b: nx.triangles(G, [s, t], backend=b)), ("clu_l", lambda b: nx.clustering(G, [s, t], backend=b)),
        ]
        for name, f in calls:
            a = run(f, "nx")
            if G.__networkx_cache__: G.__networkx_cache__.clear()
            bb = run(f, "srfb")
            if a[0] != bb[0] or (a[0] == "raised" and a[1:] != bb[1:]) or (a[0] == "ok" and lx(a[1]) != lx(bb[1]) and "sp" not in name and "p" != name[-1]):
                bad += 1
                print("DIFF", directed, name, s, t, "\n  nx:", str(a)[:200], "\n  sr:", str(bb)[:200])
print(bad)
