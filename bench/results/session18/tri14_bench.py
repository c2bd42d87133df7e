"""tri14: k_truss CPU timings, wall / process ms: method="dot" (the previous default), "auto" (= "wc"), "wc" without the core cut. Usage: python tri14_bench.py grid kron12 ... (run from the repository root)."""
import sys, time
sys.path.insert(0, '.')  # the repository root (run from there)
import numpy as np, scipy.sparse as sp
import semiring as sr, algorithms as alg
from algorithms import cores
from semiring.backend.cpu import compiled
from bench.generators import kronecker, grid_edges
def best(f, reps):
    w, c = [], []
    for _ in range(reps):
        t0 = time.perf_counter(); p0 = time.process_time(); r = f()
        c.append(time.process_time() - p0); w.append(time.perf_counter() - t0)
    return r, min(w) * 1e3, min(c) * 1e3
for wname in sys.argv[1:]:
    if wname.startswith('kron'):
        S = kronecker(int(wname[4:]), weighted=False, dtype=np.float64)
    else:
        src, dst = grid_edges(300, 300)[:2]
        S = sp.coo_matrix((np.ones(len(src)), (np.asarray(src), np.asarray(dst))), shape=(90000, 90000)).tocsr()
        S = ((S + S.T) > 0).astype(np.float64)
    A = sr.Matrix.from_scipy(S, device='cpu')
    C = cores.undirected_pattern(A, 't', loops=True)
    _, sw, sc = best(lambda: compiled.edge_supports(C.indptr, C.indices), 3)
    print(f'{wname}: stored {A.nvals}; compiled supports alone {sw:.1f} ms wall / {sc:.1f} cpu', flush=True)
    for k in (3, 4, 10, 40):
        Td, dw, dc = best(lambda: alg.k_truss(A, k, method='dot'), 1 if A.nvals > 1e6 else 2)
        Tw, ww, wc = best(lambda: alg.k_truss(A, k), 3)
        cores.TRUSS_CORE_PRUNE = False
        Tn, nw, nc = best(lambda: alg.k_truss(A, k, method='wc'), 3)
        cores.TRUSS_CORE_PRUNE = True
        eq = all(np.array_equal(a, b) for X in (Tw, Tn) for a, b in zip(Td.to_coo(), X.to_coo()))
        print(f'  k={k}: dot {dw:.0f}/{dc:.0f}  auto=wc {ww:.1f}/{wc:.1f}  wc no cut {nw:.1f}/{nc:.1f}  edges {Tw.nvals//2} equal {eq}', flush=True)
