"""lv15: Louvain on the CPU, wall / process ms, best of --reps, and the modularity of each
result: method="batch" (the colour-class batches as array passes: the only path before
session 19) against "sequential" (the compiled sequential local moves, "auto" on a CPU with
Numba), and NetworkX's louvain_communities (seed 0) on the graphs named by --nx. Weighted
graphs (bench.generators' GAP weights). Usage (from the repository root):
python bench/results/session19/lv15_bench.py [--reps 3] [--nx kron10,kron12] \
    [--methods batch,sequential] kron10 kron12 kron14 kron16 grid100 grid300"""
import argparse, inspect, sys, time
sys.path.insert(0, '.')  # the repository root (run from there)
import numpy as np
import semiring as sr, algorithms as alg
from semiring.backend.cpu import compiled
from bench.generators import kronecker, grid2d


def best(f, reps):
    w, c = [], []
    for _ in range(reps):
        t0 = time.perf_counter(); p0 = time.process_time(); r = f()
        c.append(time.process_time() - p0); w.append(time.perf_counter() - t0)
    return r, min(w) * 1e3, min(c) * 1e3


def graph(name):
    if name.startswith('kron'):
        return kronecker(int(name[4:]), xp=np)
    return grid2d(int(name[4:]), xp=np)


p = argparse.ArgumentParser()
p.add_argument('graphs', nargs='+')
p.add_argument('--reps', type=int, default=3)
p.add_argument('--nx', default='kron10,kron12')
p.add_argument('--methods', default='batch,sequential')
a = p.parse_args()
has_method = 'method' in inspect.signature(alg.louvain).parameters
methods = a.methods.split(',') if has_method else ['(before)']
print(f'Numba: {compiled.ENABLED}; methods {methods}', flush=True)
K = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [3, 4], [2, 3]], undirected=True, device='cpu')
for m in methods:  # compile (or load) the kernels first: the timings are warm
    alg.louvain(K, **({} if m == '(before)' else {'method': m}))
for name in a.graphs:
    H = graph(name)
    A = sr.Matrix.from_scipy(H, device='cpu')
    row = [f'{name} (n {A.nrows}, stored {A.nvals})']
    for m in methods:
        kw = {} if m == '(before)' else {'method': m}
        lab, w, c = best(lambda: alg.louvain(A, seed=0, **kw), a.reps)
        row.append(f'{m} {w:.0f}/{c:.0f} ms Q {alg.modularity(A, lab):.4f} '
                   f'k {int(lab.max()) + 1}')
    if name in a.nx.split(','):
        import networkx as nx
        G = nx.from_scipy_sparse_array(H)
        parts, w, c = best(lambda: nx.community.louvain_communities(G, seed=0), a.reps)
        row.append(f'networkx {w:.0f}/{c:.0f} ms Q {nx.community.modularity(G, parts):.4f} '
                   f'k {len(parts)}')
    print(' | '.join(row), flush=True)
