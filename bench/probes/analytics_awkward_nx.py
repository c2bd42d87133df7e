"""The analytics of ``algorithms`` against NetworkX on awkward small graphs (session 15,
audit8): self-loops, isolated and dangling vertices, small integer weights (ties), directed
and undirected, each graph handed over as one of seven matrix kinds (canonical CSR, float32,
int64 indices, a raw CSR with unsorted rows, one with duplicate entries, COO, CSC).

Compared per graph: PageRank (weighted, ``weight=None``, another damping, random
personalization; atol 1e-6, NetworkX's own tolerance), weak/strong components (as
partitions), core numbers (NetworkX on the graph without self-loops: it refuses them, the
engine ignores them), triangles and clustering (undirected; directed clustering), the
minimum spanning forest (total weight and edge count: ties may pick other edges), Brandes
betweenness (normalized/endpoints), BFS levels and Dijkstra distances. Duplicate entries
of a scipy matrix are summed (``Matrix.from_scipy``, as SciPy means them): PageRank and SSSP
then compare with NetworkX's graph of the summed weights (directed graphs only).

Usage: PYTHONPATH=. python3 bench/probes/analytics_awkward_nx.py [SEED=0] [N_GRAPHS=200]
Prints one ``DIFF`` line per discrepancy and their count."""
import itertools
import sys
import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp

import algorithms as alg
warnings.simplefilter('ignore')
seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
rng = np.random.default_rng(seed)
diffs = 0
def report(what, msg):
    global diffs
    diffs += 1
    print('DIFF', what, msg[:300], flush=True)

def out(f, *a, **k):
    try: return ('ok', f(*a, **k))
    except Exception as e: return ('err', e)

for g in range(N):
    n = int(rng.integers(1, 9)); m = int(rng.integers(0, 3 * n + 1))
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(1, 4, m).astype(float)   # small ints: ties
    directed = bool(rng.integers(2))
    # NetworkX graph (last weight wins for duplicates in nx.Graph add_edge) -> use canonical
    key = {}
    for a, b, x in zip(r, c, w):
        k = (a, b) if directed else (min(a, b), max(a, b))
        key[k] = x
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(range(n))
    for (a, b), x in key.items():
        G.add_edge(int(a), int(b), weight=float(x))
    A = nx.to_scipy_sparse_array(G, nodelist=range(n), weight='weight', format='csr')
    akind = ['canonical', 'float32', 'int64idx', 'dups', 'coo', 'csc', 'unsorted'][g % 7]
    Gp = G  # the NetworkX graph pagerank compares with (dups: the parallel weights summed)
    if akind == 'float32':
        A = A.astype(np.float32)
    elif akind == 'int64idx':
        A.indices = A.indices.astype(np.int64); A.indptr = A.indptr.astype(np.int64)
    elif akind in ('dups', 'unsorted') and A.nnz:
        C = A.tocoo()
        k = rng.integers(0, C.nnz, 2)
        extra = np.full(k.size, 3.0) if akind == 'dups' else np.zeros(0)
        k = k if akind == 'dups' else k[:0]
        R, Cc, V = np.r_[C.row, C.row[k]], np.r_[C.col, C.col[k]], np.r_[C.data, extra]
        o = np.lexsort((-np.arange(R.size), R))  # rows reversed: unsorted
        R, Cc, V = R[o], Cc[o], V[o]
        ptr = np.searchsorted(R, np.arange(n + 1))
        A = sp.csr_array((V, Cc.astype(np.int32), ptr.astype(np.int32)), shape=(n, n))
        A.has_canonical_format = False
        if akind == 'dups':
            Gp = G.copy()
            for kk in k:
                a_, b_ = int(C.row[kk]), int(C.col[kk])
                Gp[a_][b_]['weight'] = Gp[a_][b_]['weight'] + 3.0
            # (an undirected G stores both directions: the dup lands in one direction only,
            # so the directed reading differs; compare pagerank on a directed view then)
            if not directed:
                Gp = None
    elif akind == 'coo':
        A = A.tocoo()
    elif akind == 'csc':
        A = A.tocsc()
    lab0 = akind
    lab = f'[g{g} {akind} n={n} m={G.number_of_edges()} directed={directed} loops={nx.number_of_selfloops(G)}]'
    # pagerank
    for kw_nx, kw_us in [({}, {}), (dict(weight=None), dict(weighted=False)),
                         (dict(alpha=0.5), dict(damping=0.5))]:
        pers = None
        if rng.integers(3) == 0:
            pv = rng.integers(0, 3, n).astype(float)
            if pv.sum() == 0: pv[0] = 1
            pers = pv
            kw_nx = dict(kw_nx, personalization={i: pv[i] for i in range(n)})
            kw_us = dict(kw_us, personalization=pv)
        if Gp is None: continue
        a = out(nx.pagerank, Gp, **kw_nx); b = out(alg.pagerank, A, **kw_us)
        if a[0] != b[0]:
            report('pagerank', f'{lab} {kw_us}: nx {a[0]} {a[1]!r:.80} / ours {b[0]} {b[1]!r:.80}')
        elif a[0] == 'ok':
            x = np.array([a[1][i] for i in range(n)]); y = np.asarray(b[1])
            if not np.allclose(x, y, atol=1e-6, rtol=0): report('pagerank', f'{lab} {kw_us}: {x} vs {y}')
    # components
    if directed:
        for conn, f in (('weak', nx.weakly_connected_components), ('strong', nx.strongly_connected_components)):
            L = np.asarray(alg.connected_components(A, conn))
            part_us = sorted(sorted(np.flatnonzero(L == l).tolist()) for l in np.unique(L))
            part_nx = sorted(sorted(s) for s in f(G))
            if part_us != part_nx: report('components', f'{lab} {conn}: {part_us} vs {part_nx}')
    else:
        L = np.asarray(alg.connected_components(A))
        part_us = sorted(sorted(np.flatnonzero(L == l).tolist()) for l in np.unique(L))
        part_nx = sorted(sorted(s) for s in nx.connected_components(G))
        if part_us != part_nx: report('components', f'{lab}: {part_us} vs {part_nx}')
    # k-core (NetworkX refuses self-loops: compare on the graph without them)
    H = G.to_undirected() if directed else G.copy()
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    b = out(alg.core_number, A)
    a = nx.core_number(H)
    if b[0] != 'ok': report('core_number', f'{lab}: ours raises {b[1]!r}')
    elif [a[i] for i in range(n)] != np.asarray(b[1]).tolist(): report('core_number', f'{lab}: {a} vs {b[1]}')
    # triangles / clustering (undirected)
    if not directed:
        b = out(alg.triangles, A)
        a = nx.triangles(G)
        if b[0] != 'ok': report('triangles', f'{lab}: ours raises {b[1]!r:.100}')
        elif [a[i] for i in range(n)] != np.asarray(b[1]).tolist(): report('triangles', f'{lab}: {a} vs {b[1]}')
        b = out(alg.clustering, A); a = nx.clustering(G)
        if b[0] != 'ok': report('clustering', f'{lab}: ours raises {b[1]!r:.100}')
        elif not np.allclose([a[i] for i in range(n)], np.asarray(b[1]), atol=1e-12): report('clustering', f'{lab}: {a} vs {b[1]}')
    else:
        b = out(alg.clustering, A, directed=True); a = nx.clustering(G)
        if b[0] != 'ok': report('clustering-directed', f'{lab}: ours raises {b[1]!r:.100}')
        elif not np.allclose([a[i] for i in range(n)], np.asarray(b[1]), atol=1e-12): report('clustering-directed', f'{lab}: {a} vs {b[1]}')
    # MST on the undirected view (ties: weight only)
    U = G.to_undirected() if directed else G
    if not directed and Gp is not None:
        b = out(alg.minimum_spanning_forest, A)
        T = nx.minimum_spanning_tree(U)
        if b[0] != 'ok': report('mst', f'{lab}: ours raises {b[1]!r:.100}')
        else:
            F = b[1]
            F = F.to_scipy() if hasattr(F, 'to_scipy') else F
            wt = float(sp.csr_array(F).sum()); nx_wt = T.size(weight='weight')
            ne = sp.csr_array(F).nnz
            if abs(wt - nx_wt) > 1e-9 or ne != T.number_of_edges(): report('mst', f'{lab}: ours {wt} ({ne} edges) nx {nx_wt} ({T.number_of_edges()})')
    # betweenness
    for normalized, endpoints in itertools.product([True, False], [True, False]):
        b = out(alg.betweenness_centrality, A, normalized=normalized, endpoints=endpoints, directed=directed)
        a = nx.betweenness_centrality(G, normalized=normalized, endpoints=endpoints)
        if b[0] != 'ok': report('betweenness', f'{lab}: ours raises {b[1]!r:.100}'); continue
        if not np.allclose([a[i] for i in range(n)], np.asarray(b[1]), atol=1e-12): report('betweenness', f'{lab} norm={normalized} end={endpoints}: {[a[i] for i in range(n)]} vs {b[1]}')
    # bfs levels
    s = int(rng.integers(0, n))
    b = out(alg.bfs, A, s)
    a = nx.single_source_shortest_path_length(G, s)
    if b[0] != 'ok': report('bfs', f'{lab}: ours raises {b[1]!r:.100}')
    else:
        lv = b[1][0] if isinstance(b[1], tuple) else b[1]
        lv = np.asarray(lv)
        want = np.array([a.get(i, -1) for i in range(n)])
        if not np.array_equal(np.where(lv < 0, -1, lv), want): report('bfs', f'{lab} s={s}: {lv} vs {want}')
    # sssp
    if Gp is None:
        continue
    b = out(alg.sssp, A, s)  # (a scipy matrix's duplicates are summed: Matrix.from_scipy)
    a = nx.single_source_dijkstra_path_length(Gp, s)
    if b[0] != 'ok': report('sssp', f'{lab}: ours raises {b[1]!r:.100}')
    else:
        d = b[1][0] if isinstance(b[1], tuple) else b[1]
        want = np.array([a.get(i, np.inf) for i in range(n)])
        if not np.array_equal(np.asarray(d), want): report('sssp', f'{lab} s={s}: {d} vs {want}')
print(diffs, 'discrepancies', flush=True)
