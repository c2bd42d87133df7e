"""tri15: per-vertex triangles and clustering on the CPU, wall / process ms, best of --reps:
method="mxm" (the masked products: the code path before session 19) against "auto" (= "forward"
on a CPU with Numba: the compiled edge supports), triangle_count (dot3, unchanged) beside, and
NetworkX's triangles on the small graphs. Usage (from the repository root):
python bench/results/session19/tri15_bench.py [--reps 3] [--nx kron12] grid300 kron12 kron14 kron16"""
import argparse, sys, time
sys.path.insert(0, '.')  # the repository root (run from there)
import numpy as np, scipy.sparse as sp
import semiring as sr, algorithms as alg
from semiring.backend.cpu import compiled
from bench.generators import kronecker, grid_edges


def best(f, reps):
    w, c = [], []
    for _ in range(reps):
        t0 = time.perf_counter(); p0 = time.process_time(); r = f()
        c.append(time.process_time() - p0); w.append(time.perf_counter() - t0)
    return r, min(w) * 1e3, min(c) * 1e3


def graph(name):
    if name.startswith('kron'):
        return kronecker(int(name[4:]), weighted=False, dtype=np.float64)
    side = int(name[4:])
    src, dst = grid_edges(side, side)[:2]
    S = sp.coo_matrix((np.ones(len(src)), (np.asarray(src), np.asarray(dst))),
                      shape=(side * side, side * side)).tocsr()
    return ((S + S.T) > 0).astype(np.float64)


p = argparse.ArgumentParser()
p.add_argument('graphs', nargs='+')
p.add_argument('--reps', type=int, default=3)
p.add_argument('--nx', default='kron12')
a = p.parse_args()
print(f'Numba: {compiled.ENABLED}', flush=True)
# compile (or load) the kernels first: the timings are warm
alg.triangles(sr.Matrix.from_dense(np.ones((4, 4)), missing=0, device='cpu'))
for name in a.graphs:
    S = graph(name)
    A = sr.Matrix.from_scipy(S, device='cpu')
    row = [f'{name} (n {A.nrows}, stored {A.nvals})']
    res = {}
    for f in ('triangles', 'clustering'):
        for m in ('mxm', 'auto'):
            res[f, m], w, c = best(lambda: getattr(alg, f)(A, method=m), a.reps)
            row.append(f'{f} {m} {w:.1f}/{c:.1f}')
    total, w, c = best(lambda: alg.triangle_count(A), a.reps)
    row.append(f'triangle_count {w:.1f}/{c:.1f}')
    eq = all(np.array_equal(res[f, 'mxm'], res[f, 'auto']) for f in ('triangles', 'clustering'))
    eq = eq and 3 * total == int(res['triangles', 'auto'].sum())
    row.append(f'equal {eq}; triangles {int(res["triangles", "auto"].sum()) // 3}')
    if name in a.nx.split(','):
        import networkx as nx
        G = nx.from_scipy_sparse_array(S)
        t, w, c = best(lambda: nx.triangles(G), a.reps)
        row.append(f'nx.triangles {w:.0f}/{c:.0f} equal '
                   f'{[t[i] for i in range(A.nrows)] == res["triangles", "auto"].tolist()}')
        _, w, c = best(lambda: nx.clustering(G), a.reps)
        row.append(f'nx.clustering {w:.0f}/{c:.0f}')
    print('; '.join(row), flush=True)
