import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h import *
bad = 0
for cache in (True, False):
    nx.config.cache_converted_graphs = cache
    for directed in (False, True):
        G = (nx.DiGraph if directed else nx.Graph)([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (2, 3, {"weight": 5}), (0, 3, {"weight": 9})])
        views = {"sub": lambda: G.subgraph([0, 1, 2, 3]), "rev": lambda: G.reverse(copy=False) if directed else G.subgraph(G),
                 "filt": lambda: nx.subgraph_view(G, filter_edge=lambda u, v: (u, v) != (1, 2)), "copyview": lambda: G.copy(as_view=True)}
        for vname, mk in views.items():
            V = mk()
            calls = [lambda b: nx.single_source_dijkstra_path_length(V, 0, backend=b), lambda b: nx.single_source_shortest_path_length(V, 0, backend=b),
                     lambda b: nx.pagerank(V, backend=b), lambda b: nx.floyd_warshall_numpy(V, backend=b).tolist()]
            for step, mut in enumerate([lambda: None, lambda: G.add_edge(0, 2, weight=0.5), lambda: G.remove_edges_from([(2, 3)]), lambda: nx.set_edge_attributes(G, {(0, 1): 7}, "weight"), lambda: G.add_edge(3, 4, weight=1), lambda: G.remove_edges_from([(3, 4)])]):
                mut()
                for i, f in enumerate(calls):
                    a = run(f, "nx"); bb = run(f, "srfb")
                    if not same_loose(a, bb) and not (i == 2 and a[0] == bb[0] == "ok" and all(abs(a[1][k] - bb[1][k]) < 1e-9 for k in a[1])):
                        bad += 1; print("DIFF", cache, directed, vname, step, i, str(a)[:150], str(bb)[:150])
nx.config.cache_converted_graphs = True
print(bad)
