"""The variants the GPU picks by default, run on the CPU against NetworkX (session 18, audit
alg13), on random small graphs with self-loops, isolated vertices, directed and undirected:
weak components by Afforest and FastSV (with and without ``symmetric=True``), strong by
coloring and Tarjan; betweenness in both forms (``centrality.FORM = "algebra"``, the GPU's
on shallow graphs, and ``"per_source"``), k ∈ {None, 1, n/2} × normalized × endpoints, and
the batched SpMM sweep (SINGLE/SPMV_MAX_BATCH = 0); triangle counts by dot3 / dot /
dot_upper / ll in both orders, per-vertex triangles and clustering (directed too) in both
orders; BFS and Bellman–Ford / Δ-stepping pushed, pulled and auto.

Usage: PYTHONPATH=. python3 bench/probes/alg13_variants_nx.py [SEED=0] [N_GRAPHS=150]
(``SEMIRING_NUMBA=0`` for the NumPy paths). Prints ``DIFF`` lines and their count."""
import numpy as np, scipy.sparse as sp, networkx as nx, warnings, sys, itertools
import algorithms as alg
from algorithms import centrality as cen
warnings.simplefilter('ignore')
seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
N = int(sys.argv[2]) if len(sys.argv) > 2 else 150
rng = np.random.default_rng(seed)
diffs = 0
def rep(*a):
    global diffs; diffs += 1; print('DIFF', *[str(x)[:250] for x in a], flush=True)
def part(L):
    L = np.asarray(L); return sorted(sorted(np.flatnonzero(L == l).tolist()) for l in np.unique(L))
for g in range(N):
    n = int(rng.integers(1, 12)); m = int(rng.integers(0, 3*n+1))
    directed = bool(rng.integers(2))
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    G = (nx.DiGraph if directed else nx.Graph)(); G.add_nodes_from(range(n))
    for a, b in zip(r, c): G.add_edge(int(a), int(b), weight=float(rng.integers(0, 3)))
    A = nx.to_scipy_sparse_array(G, nodelist=range(n), format='csr')
    lab = f'[g{g} n={n} m={G.number_of_edges()} dir={directed}]'
    # components: every method
    for conn, meths in [('weak', ['afforest', 'fastsv']), ('strong', ['coloring', 'tarjan'])]:
        f = (nx.weakly_connected_components if conn == 'weak' else nx.strongly_connected_components) if directed else nx.connected_components
        ref = sorted(sorted(s) for s in f(G))
        for meth in meths:
            for sym in ([False, True] if not directed else [False]):
                L = alg.connected_components(A, conn, method=meth, symmetric=sym)
                if part(L) != ref: rep('cc', lab, conn, meth, sym, part(L), ref)
                if L.size and (L.min() != 0 or L.dtype != np.int32): rep('cc-labels', lab, meth, L)
    # betweenness: every FORM
    for form in ['algebra', 'per_source']:
        cen.FORM = form
        for k, norm, ep in itertools.product([None, 1, max(1, n // 2)], [True, False], [True, False]):
            a = nx.betweenness_centrality(G, k=k, normalized=norm, endpoints=ep, seed=5)
            b = alg.betweenness_centrality(A, k=k, normalized=norm, endpoints=ep, seed=5, directed=directed)
            if not np.allclose([a[i] for i in range(n)], b, equal_nan=True): rep('bc', lab, form, k, norm, ep)
        # a batch wide enough for the SpMM path
        old = cen.SINGLE_MAX_BATCH, cen.SPMV_MAX_BATCH
        cen.SINGLE_MAX_BATCH, cen.SPMV_MAX_BATCH = 0, 0
        a = nx.betweenness_centrality(G); b = alg.betweenness_centrality(A, directed=directed)
        if not np.allclose([a[i] for i in range(n)], b): rep('bc-spmm', lab, form)
        cen.SINGLE_MAX_BATCH, cen.SPMV_MAX_BATCH = old
    cen.FORM = 'auto'
    # triangles: every method and order (undirected only)
    if not directed:
        ref_t = nx.triangles(G); ref_total = sum(ref_t.values()) // 3
        for meth, order in itertools.product(['dot3', 'dot', 'dot_upper', 'll'], ['degree', 'index']):
            t = alg.triangle_count(A, method=meth, order=order)
            if t != ref_total: rep('tc', lab, meth, order, t, ref_total)
        for order in ['degree', 'index']:
            if alg.triangles(A, order=order).tolist() != [ref_t[i] for i in range(n)]: rep('tri', lab, order)
            if not np.allclose(alg.clustering(A, order=order), [nx.clustering(G)[i] for i in range(n)]): rep('clu', lab, order)
    else:
        for order in ['degree', 'index']:
            if not np.allclose(alg.clustering(A, directed=True, order=order), [nx.clustering(G)[i] for i in range(n)]): rep('clud', lab, order)
    # BFS / SSSP variants
    src = int(rng.integers(0, n))
    ref = nx.single_source_shortest_path_length(G, src)
    want = [ref.get(i, -1) for i in range(n)]
    for d in ['push', 'pull', 'auto']:
        lv = alg.bfs(A, src, direction=d)
        if lv.tolist() != want: rep('bfs', lab, d, lv, want)
    refw = nx.single_source_dijkstra_path_length(G, src)
    wantw = [refw.get(i, np.inf) for i in range(n)]
    for f in [alg.bellman_ford, alg.delta_stepping]:
        for d in ['push', 'pull', 'auto']:
            x = f(A, src, direction=d)
            if not np.allclose(x, wantw): rep('sssp', lab, f.__name__, d, x, wantw)
print(diffs, 'discrepancies')
