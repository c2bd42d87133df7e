"""aud21: the analytics give the same answer for every form of one graph (canonical CSR,
int64 indices, unsorted rows, duplicate entries that sum to the same weights, CSC, COO,
csr_array, a semiring.Matrix), and leave each form unchanged."""
import numpy as np, scipy.sparse as sp
import semiring as sr, algorithms as alg
rng = np.random.default_rng(3)
def forms(S):
    out = {"csr": S}
    T = S.copy(); T.indices = T.indices.astype(np.int64); T.indptr = T.indptr.astype(np.int64); out["int64idx"] = T
    U = S.copy()
    for i in range(U.shape[0]):  # reverse each row: unsorted
        a, b = U.indptr[i], U.indptr[i + 1]
        U.indices[a:b] = U.indices[a:b][::-1].copy(); U.data[a:b] = U.data[a:b][::-1].copy()
    U.has_sorted_indices = False; out["unsorted"] = U
    C = S.tocoo(); r, c, v = C.row, C.col, C.data
    out["dups"] = sp.csr_matrix((np.concatenate([v / 2, v / 2]), (np.concatenate([r, r]), np.concatenate([c, c]))), shape=S.shape)
    out["csc"] = S.tocsc(); out["coo"] = S.tocoo(); out["csr_array"] = sp.csr_array(S)
    out["Matrix"] = sr.Matrix.from_scipy(S)
    return out
fns = {
    "core_number": lambda A: alg.core_number(A),
    "triangles": lambda A: alg.triangles(A, symmetrize=True),
    "clustering_dir": lambda A: alg.clustering(A, directed=True),
    "k_truss": lambda A: alg.k_truss(A, 3).to_dense(missing=-1),
    "pagerank": lambda A: alg.pagerank(A),
    "bc": lambda A: alg.betweenness_centrality(A),
    "closeness_w": lambda A: alg.closeness_centrality(A, weighted=True),
    "katz": lambda A: alg.katz_centrality(A, alpha=0.05),
    "mst": lambda A: float(alg.minimum_spanning_forest(A).to_scipy().sum()),
    "cc_weak": lambda A: alg.connected_components(A),
    "cc_strong": lambda A: alg.connected_components(A, "strong"),
    "rcm": lambda A: alg.reverse_cuthill_mckee(A),
    "srank": lambda A: alg.structural_rank(A),
    "mbm": lambda A: alg.maximum_bipartite_matching(A),
    "lpa": lambda A: alg.label_propagation(A, seed=1),
    "modularity": lambda A: alg.modularity(A, np.arange(A.shape[0]) % 2, directed=True),
    "bfs": lambda A: alg.bfs(A, 0),
    "sssp": lambda A: alg.sssp(A, 0),
    "ebc": lambda A: alg.edge_betweenness_centrality(A).to_dense(missing=-1),
    "hits": lambda A: alg.hits(A, max_iter=1000, tol=1e-6)[1],
}
bad = 0
for seed in range(30):
    n = int(rng.integers(1, 9))
    D = (rng.random((n, n)) < 0.4) * rng.integers(1, 5, (n, n)).astype(float)
    S = sp.csr_matrix(D)
    F = forms(S)
    for name, f in fns.items():
        ref = None
        for fname, A in F.items():
            keep = A.copy() if sp.issparse(A) else None
            try:
                r = f(A); r = np.asarray(r, dtype=float)
            except Exception as e:
                r = f"{type(e).__name__}: {e}"
            if keep is not None and (abs(keep - A).sum() != 0 or keep.format != A.format):
                print("MUTATED", name, fname); bad += 1
            if ref is None:
                ref = r
            elif isinstance(r, str) or isinstance(ref, str):
                if str(r)[:20] != str(ref)[:20]:
                    print("DIFF", seed, name, fname, str(r)[:150], "| csr:", str(ref)[:150]); bad += 1
            elif r.shape != ref.shape or not np.allclose(r, ref, atol=1e-9, equal_nan=True):
                print("DIFF", seed, name, fname, r, "| csr:", ref); bad += 1
print("bad", bad)
