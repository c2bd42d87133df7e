"""aud21: betweenness / edge betweenness / closeness keywords (k with seed, normalized,
endpoints, directed=False, wf_improved) against NetworkX on random graphs."""
import numpy as np, scipy.sparse as sp, networkx as nx
import algorithms as alg
rng = np.random.default_rng(7)
bad = 0
def vec(d, n): return np.array([d[i] for i in range(n)], float)
for s in range(80):
    n = int(rng.integers(2, 12))
    directed = bool(rng.random() < 0.5)
    G = nx.gnp_random_graph(n, rng.uniform(0.1, 0.6), seed=s, directed=directed)
    if rng.random() < 0.3: G.add_edge(0, 0)
    A = nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr", weight=None).astype(float)
    k = int(rng.integers(1, n + 1)); seed = int(rng.integers(0, 100))
    for norm in (True, False):
        for ep in (True, False):
            a = alg.betweenness_centrality(A, k=k, seed=seed, normalized=norm, endpoints=ep, directed=directed)
            b = vec(nx.betweenness_centrality(G, k=k, seed=seed, normalized=norm, endpoints=ep), n)
            if not np.allclose(a, b, atol=1e-9, equal_nan=True): bad += 1; print("bc", s, directed, k, norm, ep, a, b)
        E = alg.edge_betweenness_centrality(A, k=k, seed=seed, normalized=norm, directed=directed)
        r, c, v = E.to_coo()
        got = {}
        for i, j, x in zip(r.tolist(), c.tolist(), v.tolist()):
            key = (i, j) if directed else tuple(sorted((i, j)))
            got[key] = x
        ref = nx.edge_betweenness_centrality(G, k=k, seed=seed, normalized=norm)
        ref = {((u, v) if directed else tuple(sorted((u, v)))): x for (u, v), x in ref.items()}
        if set(got) != set(ref) or any(abs(got[e] - ref[e]) > 1e-9 for e in ref):
            bad += 1; print("ebc", s, directed, k, norm, sorted(got.items())[:4], sorted(ref.items())[:4])
    for wf in (True, False):
        a = alg.closeness_centrality(A, wf_improved=wf)
        b = vec(nx.closeness_centrality(G, wf_improved=wf), n)
        if not np.allclose(a, b, atol=1e-9): bad += 1; print("close", s, directed, wf, a, b)
    a = alg.harmonic_centrality(A); b = vec(nx.harmonic_centrality(G), n)
    if not np.allclose(a, b, atol=1e-9): bad += 1; print("harm", s, directed, a, b)
print("bad", bad)
