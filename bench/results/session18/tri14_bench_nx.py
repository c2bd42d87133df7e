"""tri14: k_truss CPU timings against NetworkX (one run each, equal edge sets checked): python tri14_bench_nx.py kron12 grid ..."""
import sys, time, os
sys.path.insert(0, '.')  # the repository root (run from there)
import numpy as np, networkx as nx, scipy.sparse as sp
import semiring as sr, algorithms as alg
from algorithms import cores
from bench.generators import kronecker, grid_edges
which = sys.argv[1:]
def best(f, reps):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); r = f(); ts.append(time.perf_counter() - t0)
    return r, min(ts)
def edges(T):
    r, c, _ = T.to_coo(); return set(zip(r.tolist(), c.tolist()))
graphs = []
for w in which:
    if w.startswith('kron'):
        s = int(w[4:]); S = kronecker(s, weighted=False, dtype=np.float64)
    else:
        src, dst = grid_edges(300, 300)[:2]
        n = 90000; S = sp.coo_matrix((np.ones(len(src)), (np.asarray(src), np.asarray(dst))), shape=(n, n)).tocsr()
        S = ((S + S.T) > 0).astype(np.float64)
    A = sr.Matrix.from_scipy(S, device='cpu')
    print(f'{w}: n={A.nrows} stored={A.nvals}', flush=True)
    alg.k_truss(A, 3, method='wc')  # compile / load
    nx_ok = True
    for k in (3, 4, 10, 40):
        reps = 1 if A.nvals > 1e6 else 3
        Td, td = best(lambda: alg.k_truss(A, k, method='dot'), reps)
        Tw, tw = best(lambda: alg.k_truss(A, k), 3)
        cores.TRUSS_CORE_PRUNE = False
        Tn, tn = best(lambda: alg.k_truss(A, k, method='wc'), 3)
        cores.TRUSS_CORE_PRUNE = True
        same = (Td.to_coo()[0].tolist() == Tw.to_coo()[0].tolist() and np.array_equal(Td.indices, Tw.indices)
                and np.array_equal(Td.values, Tw.values) and np.array_equal(Tn.values, Tw.values) and np.array_equal(Tn.indices, Tw.indices))
        line = f'  k={k}: dot {td*1e3:.1f} ms, auto(wc) {tw*1e3:.1f} ms, wc-noprune {tn*1e3:.1f} ms, truss edges {Tw.nvals//2}, equal {same}'
        if nx_ok and w in ('kron12', 'kron13', 'kron14', 'grid'):
            G = nx.from_scipy_sparse_array(S)
            t0 = time.perf_counter(); H = nx.k_truss(G, k); tx = time.perf_counter() - t0
            want = {(u, v) for u, v in H.edges()} | {(v, u) for u, v in H.edges()}
            line += f', networkx {tx*1e3:.0f} ms equal {edges(Tw) == want}'
            if tx > 60: nx_ok = False
        print(line, flush=True)
