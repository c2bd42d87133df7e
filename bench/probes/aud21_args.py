"""aud21: awkward arguments to the analytics: every call should answer or raise a
semiring.SemiringError naming the argument (not a bare NumPy/SciPy error); inputs unchanged."""
import numpy as np, scipy.sparse as sp
import semiring as sr, algorithms as alg

S = sp.csr_matrix(np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]], dtype=float))
E = sp.csr_matrix((0, 0)); One = sp.csr_matrix((1, 1)); Loop = sp.csr_matrix(np.array([[1.0]]))
BAD = [None, -1, 1.5, True, np.int64(2), "x", [0], np.array([1, 2]), float("nan"), 10**20, np.uint64(3)]
calls = {
    "k_truss k": lambda v: alg.k_truss(S, v),
    "core_number method": lambda v: alg.core_number(S, method=v),
    "louvain resolution": lambda v: alg.louvain(S, v),
    "louvain seed": lambda v: alg.louvain(S, seed=v),
    "louvain threshold": lambda v: alg.louvain(S, threshold=v),
    "louvain max_level": lambda v: alg.louvain(S, max_level=v),
    "lpa max_iter": lambda v: alg.label_propagation(S, max_iter=v),
    "lpa seed": lambda v: alg.label_propagation(S, seed=v),
    "lpa colors": lambda v: alg.label_propagation(S, colors=v),
    "bc k": lambda v: alg.betweenness_centrality(S, k=v),
    "bc sources": lambda v: alg.betweenness_centrality(S, sources=v),
    "bc seed": lambda v: alg.betweenness_centrality(S, k=2, seed=v),
    "bc normalized": lambda v: alg.betweenness_centrality(S, normalized=v),
    "bc directed": lambda v: alg.betweenness_centrality(S, directed=v),
    "ebc k": lambda v: alg.edge_betweenness_centrality(S, k=v),
    "ebc sources": lambda v: alg.edge_betweenness_centrality(S, sources=v),
    "eig max_iter": lambda v: alg.eigenvector_centrality(S, max_iter=v),
    "eig tol": lambda v: alg.eigenvector_centrality(S, tol=v),
    "eig nstart": lambda v: alg.eigenvector_centrality(S, nstart=v),
    "katz alpha": lambda v: alg.katz_centrality(S, alpha=v),
    "katz beta": lambda v: alg.katz_centrality(S, beta=v),
    "katz nstart": lambda v: alg.katz_centrality(S, nstart=v),
    "hits nstart": lambda v: alg.hits(S, nstart=v),
    "hits max_iter": lambda v: alg.hits(S, max_iter=v),
    "closeness wf": lambda v: alg.closeness_centrality(S, wf_improved=v),
    "closeness weighted": lambda v: alg.closeness_centrality(S, weighted=v),
    "harmonic weighted": lambda v: alg.harmonic_centrality(S, weighted=v),
    "pagerank damping": lambda v: alg.pagerank(S, v),
    "pagerank pers": lambda v: alg.pagerank(S, personalization=v),
    "pagerank nstart": lambda v: alg.pagerank(S, nstart=v),
    "pagerank dangling": lambda v: alg.pagerank(S, dangling=v),
    "pagerank weighted": lambda v: alg.pagerank(S, weighted=v),
    "pagerank tol": lambda v: alg.pagerank(S, tol=v),
    "pagerank max_iter": lambda v: alg.pagerank(S, max_iter=v),
    "pagerank variant": lambda v: alg.pagerank(S, variant=v),
    "tc method": lambda v: alg.triangle_count(S, method=v),
    "tc order": lambda v: alg.triangle_count(S, order=v),
    "tc symmetrize": lambda v: alg.triangle_count(S, symmetrize=v),
    "tri method": lambda v: alg.triangles(S, method=v),
    "clust directed": lambda v: alg.clustering(S, directed=v),
    "clust method": lambda v: alg.clustering(S, method=v),
    "mod labels": lambda v: alg.modularity(S, v),
    "mod resolution": lambda v: alg.modularity(S, [0, 0, 1, 1], v),
    "mod directed": lambda v: alg.modularity(S, [0, 0, 1, 1], directed=v),
    "cw labels": lambda v: alg.community_weights(S, v),
    "flow source": lambda v: alg.maximum_flow(sp.csr_matrix(S.astype(np.int32)), v, 3),
    "flow sink": lambda v: alg.maximum_flow(sp.csr_matrix(S.astype(np.int32)), 0, v),
    "flow method": lambda v: alg.maximum_flow(sp.csr_matrix(S.astype(np.int32)), 0, 3, method=v),
    "mbm perm_type": lambda v: alg.maximum_bipartite_matching(S, perm_type=v),
    "mwfbm maximize": lambda v: alg.min_weight_full_bipartite_matching(S, maximize=v),
    "rcm symmetric_mode": lambda v: alg.reverse_cuthill_mckee(S, symmetric_mode=v),
    "cc connection": lambda v: alg.connected_components(S, v),
    "cc method": lambda v: alg.connected_components(S, method=v),
    "cc symmetric": lambda v: alg.connected_components(S, symmetric=v),
    "mst progress": lambda v: alg.minimum_spanning_forest(S, progress=v),
    "bfs source": lambda v: alg.bfs(S, v),
}
bad = 0
for name, f in calls.items():
    for v in BAD:
        snap = S.data.copy()
        try:
            f(v)
            res = "ok"
        except sr.SemiringError as e:
            res = None
        except Exception as e:
            res = f"{type(e).__name__}: {str(e)[:140]}"
        if not np.array_equal(S.data, snap):
            print("MUTATED", name, v)
        if res not in (None, "ok"):
            bad += 1
            print(f"{name} = {v!r:.30}: {res}")
for name, f in {"E": E, "One": One, "Loop": Loop}.items():
    for fn in [alg.core_number, lambda A: alg.k_truss(A, 3), alg.triangle_count, alg.triangles, alg.clustering,
               lambda A: alg.clustering(A, directed=True), alg.betweenness_centrality, alg.edge_betweenness_centrality,
               alg.eigenvector_centrality, alg.katz_centrality, alg.hits, alg.closeness_centrality, alg.harmonic_centrality,
               alg.pagerank, alg.louvain, alg.label_propagation, alg.minimum_spanning_forest, alg.reverse_cuthill_mckee,
               alg.structural_rank, alg.maximum_bipartite_matching, alg.min_weight_full_bipartite_matching,
               lambda A: alg.modularity(A, np.zeros(A.shape[0], int)), alg.connected_components,
               lambda A: alg.connected_components(A, "strong")]:
        try:
            fn(f)
        except sr.SemiringError:
            pass
        except Exception as e:
            print(name, getattr(fn, "__name__", fn), type(e).__name__, str(e)[:150])
print("bad", bad)
