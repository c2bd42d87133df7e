import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h import *
diffs = []
R = lambda d: {k: round(v, 9) for k, v in d.items()} if isinstance(d, dict) else d
# pagerank kwargs
for directed in (False, True):
    G = (nx.DiGraph if directed else nx.Graph)([(0,1),(1,2),(2,0),(2,3),(4,4)])
    G.add_node(5)
    for kw in [dict(personalization={0: 1}), dict(personalization={0: 0, 1: 0}), dict(personalization={0: -1, 1: 2}),
               dict(personalization={9: 1}), dict(personalization={0: 1, 9: 1}), dict(personalization={}),
               dict(nstart={0: 1}), dict(nstart={0: 0}), dict(nstart={0: -1, 1: 1}), dict(nstart={}), dict(nstart={9: 1}),
               dict(dangling={0: 1}), dict(dangling={3: 1}), dict(dangling={0: 0}), dict(dangling={}), dict(dangling={9: 1}), dict(dangling={0: -1, 1: 2}),
               dict(alpha=0), dict(alpha=1), dict(alpha=1.5), dict(alpha=-0.5), dict(max_iter=0), dict(max_iter=1), dict(tol=0), dict(tol=-1),
               dict(weight=None), dict(weight="missing"), dict(personalization={0: True}), dict(personalization={0: 1.0, 1: float("inf")}),
               dict(personalization={0: float("nan")}), dict(nstart={0: float("nan")}), dict(personalization={0: 1+0j}),
               dict(personalization={0: "a"}), dict(personalization=[1,2]), dict(alpha="x"), dict(max_iter=2.5), dict(max_iter=-1), dict(tol=float('nan')),
               dict(personalization={0: 2**70}), dict(nstart={0: 2**70}), dict(personalization={np.int64(0): 1}), dict(personalization={0.0: 1}),
               ]:
        diffs += cmp(f"pr/{directed}/{kw}", lambda b: R(nx.pagerank(G, backend=b, **kw)), clear=G)
# betweenness
for directed in (False, True):
    G = (nx.DiGraph if directed else nx.Graph)([(0,1),(1,2),(2,0),(2,3),(3,4)])
    G.add_node(5)
    for kw in [dict(k=0), dict(k=1, seed=1), dict(k=3, seed=random.Random(3)), dict(k=6), dict(k=7), dict(k=-1), dict(k=2.0, seed=1), dict(k=True, seed=1),
               dict(k=np.int64(2), seed=2), dict(k=2, seed=np.random.RandomState(0)), dict(k=2, seed=np.random.default_rng(0)),
               dict(normalized=False), dict(endpoints=True), dict(endpoints=True, normalized=False), dict(k=2, seed=5, endpoints=True),
               dict(k=5, seed=1, normalized=False), dict(weight="weight"), dict(k=None, seed=3), dict(k=6.0), dict(k="2")]:
        diffs += cmp(f"bc/{directed}/{kw}", lambda b: R(nx.betweenness_centrality(G, backend=b, **kw)), clear=G)
# cutoffs
for directed in (False, True):
    G = (nx.DiGraph if directed else nx.Graph)([(0,1,{"weight":1.5}),(1,2,{"weight":2}),(2,0,{"weight":0.5}),(2,3,{"weight":3}),(3,4, {"weight": 1})])
    for c in [0, -1, -0.5, 0.5, 1, 1.0, 2.5, True, False, float("inf"), -float("inf"), 10**30, np.int64(2), np.float64(1.5), np.float32(2.5)]:
        for fname, f in [("sspl", lambda b: nx.single_source_shortest_path_length(G, 0, cutoff=c, backend=b)),
                         ("ssp", lambda b: nx.single_source_shortest_path(G, 0, cutoff=c, backend=b)),
                         ("apspl", lambda b: dict(nx.all_pairs_shortest_path_length(G, cutoff=c, backend=b))),
                         ("dij", lambda b: nx.single_source_dijkstra(G, 0, cutoff=c, backend=b)),
                         ("dijl", lambda b: nx.single_source_dijkstra_path_length(G, 0, cutoff=c, backend=b)),
                         ("dijp", lambda b: nx.single_source_dijkstra_path(G, 0, cutoff=c, backend=b)),
                         ("dijt", lambda b: nx.single_source_dijkstra(G, 0, 4, cutoff=c, backend=b)),
                         ("desc", lambda b: nx.descendants_at_distance(G, 0, c, backend=b)),
                         ("bfse", lambda b: nx.bfs_edges(G, 0, depth_limit=c, backend=b)),
                         ("bfst", lambda b: nx.bfs_tree(G, 0, depth_limit=c, backend=b)),
                         ("bfsp", lambda b: nx.bfs_predecessors(G, 0, depth_limit=c, backend=b)),
                         ("bfss", lambda b: nx.bfs_successors(G, 0, depth_limit=c, backend=b)),
                         ]:
            diffs += cmp(f"cut/{directed}/{fname}/{c!r}", f, clear=G)
print(len(diffs))
