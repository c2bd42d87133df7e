"""Random small graphs (session 18, audit alg13) for the analytics audit8's sweep
(``analytics_awkward_nx.py``) did not compare: k-truss (both methods) against
``networkx.k_truss``, label propagation with NetworkX's greedy colouring against
``label_propagation_communities`` (the docstring's promise: equal), modularity of random
partitions (directed and undirected, weights 0..3, uniform, or 0 / 5e-324 / 1e-300 / 1 / 1e300
/ subnormal) against ``networkx.community.modularity``, Louvain never below the singletons'
modularity, maximum flow (Dinic, Edmonds–Karp, push–relabel: value, skew symmetry, net flow,
capacities) against ``networkx.maximum_flow_value``, bipartite matching size and structural
rank against Hopcroft–Karp. Self-loops and isolated vertices included.

Usage: PYTHONPATH=. python3 bench/probes/alg13_analytics_random.py [SEED=0] [N_GRAPHS=200]
Prints one ``DIFF`` line per discrepancy and their count."""
import numpy as np, scipy.sparse as sp, networkx as nx, warnings, sys
import scipy.sparse.csgraph as cg
import algorithms as alg
warnings.simplefilter('ignore')
seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
rng = np.random.default_rng(seed)
diffs = 0
def rep(*a):
    global diffs; diffs += 1; print('DIFF', *[str(x)[:250] for x in a], flush=True)
for g in range(N):
    n = int(rng.integers(1, 10)); m = int(rng.integers(0, 3*n+1))
    directed = bool(rng.integers(2))
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    wkind = g % 4
    if wkind == 0: w = rng.integers(0, 4, m).astype(float)
    elif wkind == 1: w = rng.choice([0.0, 5e-324, 1e-300, 1.0, 1e300], m)
    elif wkind == 2: w = rng.integers(0, 3, m).astype(float) * 1e-310
    else: w = rng.random(m)
    G = (nx.DiGraph if directed else nx.Graph)(); G.add_nodes_from(range(n))
    for a, b, x in zip(r, c, w): G.add_edge(int(a), int(b), weight=float(x))
    A = nx.to_scipy_sparse_array(G, nodelist=range(n), format='csr')
    U = G.to_undirected() if directed else G.copy()
    H = U.copy(); H.remove_edges_from(list(nx.selfloop_edges(H)))
    lab = f'[g{g} n={n} m={G.number_of_edges()} dir={directed} wk={wkind}]'
    # k-truss
    for k in [2, 3, 4, 5]:
        T = alg.k_truss(A, k); Ti = T.to_scipy()
        Tc = Ti.tocoo(); ours = sorted((int(i), int(j)) for i, j in zip(Tc.row, Tc.col) if i < j)
        ref = sorted((min(a,b), max(a,b)) for a, b in nx.k_truss(H, k).edges())
        if ours != ref: rep('ktruss', lab, k, ours, ref)
        T2 = alg.k_truss(A, k, method='mxm').to_scipy()
        if (abs(T2 - Ti)).nnz: rep('ktruss-mxm', lab, k)
    # lpa with nx greedy colouring
    col = nx.coloring.greedy_color(U)
    colors = np.array([col[i] for i in range(n)]) if n else np.zeros(0, int)
    labs = alg.label_propagation(A, colors=colors)
    ours = sorted(sorted(np.flatnonzero(labs == l).tolist()) for l in np.unique(labs))
    ref = sorted(sorted(s) for s in nx.community.label_propagation_communities(U))
    if ours != ref: rep('lpa', lab, ours, ref)
    # modularity on random partition
    if G.size(weight='weight') > 0 and wkind in (0, 3):
        part = rng.integers(0, 3, n)
        comms = [set(np.flatnonzero(part == l).tolist()) for l in np.unique(part)]
        q_nx = nx.community.modularity(G, comms)
        q = alg.modularity(A, part, directed=directed)
        if not np.isclose(q, q_nx, rtol=1e-9, atol=1e-12): rep('modularity', lab, q, q_nx)
    # louvain modularity not below singletons
    if not directed and G.size(weight='weight') > 0:
        try:
            lv = alg.louvain(A)
            q = alg.modularity(A, lv)
            q0 = alg.modularity(A, np.arange(n))
            if not q >= q0 - 1e-12: rep('louvain<singletons', lab, q, q0)
        except Exception as e: rep('louvain-err', lab, repr(e))
    # max flow (integer capacities)
    if n >= 2 and wkind in (0, 3):
        Ai = A.astype(np.int64); Ai.data = np.rint(Ai.data * (3 if wkind==3 else 1)).astype(np.int64)
        Gi = nx.from_scipy_sparse_array(Ai, create_using=nx.DiGraph)
        for (s, t) in [(0, n-1), (n-1, 0)]:
            ref = nx.maximum_flow_value(Gi, s, t, capacity='weight')
            for meth in ['dinic', 'edmonds_karp', 'push_relabel']:
                try:
                    res = alg.maximum_flow(Ai, s, t, method=meth)
                    if res.flow_value != ref: rep('flow', lab, meth, s, t, res.flow_value, ref)
                    F = res.flow.to_scipy().toarray()
                    if not np.array_equal(F, -F.T): rep('flow-skew', lab, meth)
                    net = F.sum(axis=1)
                    if net[s] != ref: rep('flow-net', lab, meth, net[s], ref)
                    if (F > Ai.toarray()).any(): rep('flow-cap', lab, meth)
                except Exception as e: rep('flow-err', lab, meth, repr(e))
    # bipartite matching size
    B = sp.random(n, int(rng.integers(1, 10)), density=0.3, random_state=int(rng.integers(1e9)), format='csr')
    mt = alg.maximum_bipartite_matching(B, perm_type='column')
    BG = nx.bipartite.from_biadjacency_matrix(B)
    ref = len(nx.bipartite.hopcroft_karp_matching(BG, top_nodes=range(B.shape[0]))) // 2
    if int((mt >= 0).sum()) != ref: rep('matching', lab, (mt>=0).sum(), ref)
    if alg.structural_rank(B) != ref: rep('srank', lab, alg.structural_rank(B), ref)
print(diffs, 'discrepancies')
