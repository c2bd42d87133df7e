import os, sys, time; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h import *
R = lambda d: {k: round(v, 9) for k, v in d.items()}
n = 10**5
Gs = {"star": nx.star_graph(n - 1), "dpath": nx.path_graph(n, create_using=nx.DiGraph)}
for name, G in Gs.items():
    for u, v in G.edges(): G[u][v]["weight"] = 1.5
    for fname, f in [
        ("sspl", lambda b: nx.single_source_shortest_path_length(G, 0, backend=b)),
        ("bfs_edges", lambda b: list(nx.bfs_edges(G, 0, backend=b))),
        ("bfs_layers", lambda b: list(nx.bfs_layers(G, 0, backend=b))),
        ("dijl", lambda b: nx.single_source_dijkstra_path_length(G, 0, backend=b)),
        ("bfl", lambda b: nx.single_source_bellman_ford_path_length(G, 0, backend=b)),
        ("cc", lambda b: list(nx.connected_components(G, backend=b)) if not G.is_directed() else list(nx.strongly_connected_components(G, backend=b))),
        ("pr", lambda b: R(nx.pagerank(G, backend=b))),
        ("tri", lambda b: nx.triangles(G, backend=b) if not G.is_directed() else 0),
        ("clu", lambda b: nx.clustering(G, backend=b) if name != "star" else 0),
        ("core", lambda b: nx.core_number(G, backend=b)),
        ("mst", lambda b: nx.minimum_spanning_tree(G, backend=b).number_of_edges() if not G.is_directed() else 0),
        ("bc_k", lambda b: R(nx.betweenness_centrality(G, k=3, seed=1, backend=b)) if name != "path" else 0),
        ("nec", lambda b: nx.negative_edge_cycle(G, backend=b)),
        ("desc", lambda b: nx.descendants_at_distance(G, 0, 5, backend=b)),
        ("has", lambda b: nx.has_path(G, 0, n - 1, backend=b)),
    ]:
        t0 = time.time(); a = run(f, "nx"); t1 = time.time()
        b = run(f, "srfb"); t2 = time.time()
        ok = same_loose(a, b)
        if name in ("path", "dpath") and fname == "cc": ok = ok or a[0] == b[0]
        print(name, fname, "OK" if ok else "DIFF", f"nx {t1-t0:.2f}s sr {t2-t1:.2f}s", "" if ok else (str(a)[:200], str(b)[:200]), flush=True)
