import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h import *
R = lambda d: {k: round(v, 9) for k, v in d.items()}
for directed in (False, True):
    G = (nx.DiGraph if directed else nx.Graph)([(0,1),(1,2),(2,0),(2,3),(3,4)])
    G.add_node(5)
    for mk in [lambda: random.Random(3), lambda: np.random.RandomState(0), lambda: np.random.default_rng(0), lambda: 7]:
        for k in (1, 2, 3, 5):
            cmp(f"bc/{directed}/{mk()}/{k}", lambda b: R(nx.betweenness_centrality(G, k=k, seed=mk(), backend=b)), clear=G)
