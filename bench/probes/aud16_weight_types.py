"""Session 20's outside-in audit (aud16): every weighted dispatched function of the NetworkX
backend against NetworkX on small random graphs whose edge values mix Python numbers, NumPy
scalars of every width and kind (bool, int8..uint64, float16..float64), Fractions and
Decimals, huge and non-finite values, and missing attributes.

Run from a scratch directory: ``python bench/probes/aud16_weight_types.py [name|all] [seeds]``.
A refusal (NotImplementedError: NetworkX runs the call) counts as agreement; dict key order
is not compared (the backend's length dicts are ordered by distance, documented); values are
compared as floats to 1e-9 relative (the backend returns Python numbers, documented).
"""
import networkx as nx, numpy as np, warnings, random, math, sys
from fractions import Fraction
from decimal import Decimal
warnings.simplefilter("ignore")
import nx_semiring
types=[int, float, bool, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.uint32, np.float16, np.float32, np.float64, np.bool_, Fraction, lambda x: Decimal(int(x))]
vals=[0, 1, 2, 3, -1, -2, 0.5, 0.1, 1e-8, 127, 128, 255, 256, 2**31, 2**53, 2**53+1, 2**63-1, 65504, 65505, 16777217, math.inf, math.nan]
def close(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return set(a.keys()) == set(b.keys()) and all(close(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a)==len(b) and all(close(x,y) for x,y in zip(a,b))
    try:
        fa, fb = float(a), float(b)
        if math.isnan(fa): return math.isnan(fb)
        return fa == fb or abs(fa-fb) <= 1e-9*max(abs(fa),abs(fb))
    except Exception:
        return a == b
W = sys.argv[1] if len(sys.argv) > 1 else "all"
calls = {
 "modularity": lambda G, b: nx.community.modularity(G, [set(list(G)[:len(G)//2]), set(list(G)[len(G)//2:])], backend=b),
 "pagerank": lambda G, b: nx.pagerank(G, backend=b),
 "maxflow": lambda G, b: nx.maximum_flow_value(G.to_directed(), 0, len(G)-1, capacity="weight", backend=b),
 "mincut": lambda G, b: nx.minimum_cut_value(G.to_directed(), 0, len(G)-1, capacity="weight", backend=b),
 "closeness": lambda G, b: nx.closeness_centrality(G, distance="weight", backend=b),
 "harmonic": lambda G, b: nx.harmonic_centrality(G, distance="weight", backend=b),
 "eigenvector": lambda G, b: nx.eigenvector_centrality(G, weight="weight", max_iter=1000, backend=b),
 "katz": lambda G, b: nx.katz_centrality(G, weight="weight", max_iter=1000, alpha=0.01, backend=b),
 "bellman_ford": lambda G, b: nx.single_source_bellman_ford_path_length(G, 0, backend=b),
 "negcycle": lambda G, b: nx.negative_edge_cycle(G, backend=b),
 "fw_numpy": lambda G, b: nx.floyd_warshall_numpy(G, backend=b).tolist(),
 "fw_pred": lambda G, b: nx.floyd_warshall_predecessor_and_distance(G, backend=b)[1],
 "eccentricity": lambda G, b: nx.eccentricity(G, weight="weight", backend=b),
 "mwfm": lambda G, b: nx.bipartite.minimum_weight_full_matching(nx.complete_bipartite_graph(2,2) if False else G, top_nodes=[0], backend=b),
 "dijkstra_path": lambda G, b: nx.dijkstra_path_length(G, 0, len(G)-1, backend=b),
 "sp_len": lambda G, b: nx.shortest_path_length(G, 0, weight="weight", backend=b),
 "louvain": lambda G, b: len(nx.community.louvain_communities(G, backend=b, seed=None)) >= 0,
 "mst_edges": lambda G, b: list(nx.minimum_spanning_edges(G.to_undirected(), data=False,
                                                          backend=b)),
 "max_edges": lambda G, b: list(nx.maximum_spanning_edges(G.to_undirected(), backend=b)),
 "max_tree": lambda G, b: list(nx.maximum_spanning_tree(G.to_undirected(), backend=b)
                               .edges(data=True)),
}
bad={}; refused={}; ok={}
for s in range(int(sys.argv[2]) if len(sys.argv)>2 else 600):
    r=random.Random(s)
    n=r.randint(2,6)
    G=(nx.DiGraph if r.random()<0.3 else nx.Graph)()
    G.add_nodes_from(range(n))
    for u in range(n):
        for v in range(n):
            if u!=v and (G.is_directed() or u<v) and r.random()<0.6:
                t=r.choice(types); x=r.choice(vals)
                try:
                    with np.errstate(all="ignore"): w=t(x)
                except Exception: continue
                if r.random()<0.1: G.add_edge(u,v); continue
                G.add_edge(u,v,weight=w)
    for name, f in calls.items():
        if W!="all" and name!=W: continue
        out=[]
        for b in ("networkx","semiring"):
            try:
                with np.errstate(all="ignore"):
                    out.append(("ok", f(G, b)))
            except NotImplementedError: out.append("REF")
            except Exception as e: out.append(("err", type(e).__name__))
        if out[1]=="REF": refused[name]=refused.get(name,0)+1; continue
        same = (out[0][0]==out[1][0]=="ok" and close(out[0][1], out[1][1])) or (out[0][0]==out[1][0]=="err" and out[0][1]==out[1][1])
        if not same:
            bad[name]=bad.get(name,0)+1
            if bad[name]<=2: print("DIFF", name, [(u,v,type(d.get("weight")).__name__, d.get("weight")) for u,v,d in G.edges(data=True)], type(G).__name__, "\n  nx", str(out[0])[:300], "\n  sr", str(out[1])[:300])
        else: ok[name]=ok.get(name,0)+1
print("bad", bad); print("refused", refused); print("ok", ok)
