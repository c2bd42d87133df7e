"""CPU timing of core_number, k_truss, label_propagation, louvain, modularity against NetworkX on a
Kronecker graph: python bench/probes/analytics2_cpu.py SCALE [core,truss,lpa,louvain] [nonx]
(run from the repository root; NetworkX k_truss only up to scale 14)."""
import sys, time
sys.path.insert(0, '.')  # the repository root
import numpy as np, networkx as nx
import semiring as sr, algorithms as alg
from bench.generators import kronecker

scale = int(sys.argv[1]) if len(sys.argv) > 1 else 16
which = sys.argv[2].split(',') if len(sys.argv) > 2 else ['core', 'truss', 'lpa', 'louvain', 'mod']
nxon = (sys.argv[3] != 'nonx') if len(sys.argv) > 3 else True
S = kronecker(scale, weighted=False, dtype=np.float64)
A = sr.Matrix.from_scipy(S, device='cpu')
n = A.nrows
print(f'kron-{scale}: n={n} stored entries={A.nvals} (undirected edges {A.nvals // 2})', flush=True)
G = nx.from_scipy_sparse_array(S) if nxon else None
def t(f):
    t0 = time.perf_counter(); r = f(); return r, time.perf_counter() - t0
if 'core' in which:
    c, ts = t(lambda: alg.core_number(A))
    print(f'core_number: semiring {ts:.3f} s, max core {int(c.max())}', flush=True)
    if nxon:
        ref, tn = t(lambda: nx.core_number(G))
        print(f'  networkx {tn:.3f} s, equal {np.array_equal(c, [ref[i] for i in range(n)])}', flush=True)
if 'truss' in which:
    for k in (3, 8):
        T, ts = t(lambda: alg.k_truss(A, k))
        print(f'k_truss k={k}: semiring {ts:.3f} s, {T.nvals // 2} edges', flush=True)
        if nxon and k == 8 and scale <= 14:
            H, tn = t(lambda: nx.k_truss(G, k))
            r, cc, _ = T.to_coo()
            print(f'  networkx {tn:.3f} s, equal {set(zip(r.tolist(), cc.tolist())) == set(H.edges()) | set((b, a) for a, b in H.edges())}', flush=True)
if 'lpa' in which:
    lab, ts = t(lambda: alg.label_propagation(A))
    print(f'label_propagation: semiring {ts:.3f} s, {int(lab.max()) + 1} communities, Q={alg.modularity(A, lab):.4f}', flush=True)
    if nxon:
        comms, tn = t(lambda: list(nx.community.label_propagation_communities(G)))
        print(f'  networkx {tn:.3f} s, {len(comms)} communities, Q={nx.community.modularity(G, comms):.4f}', flush=True)
if 'louvain' in which:
    lab, ts = t(lambda: alg.louvain(A, seed=0))
    q, tq = t(lambda: alg.modularity(A, lab))
    print(f'louvain: semiring {ts:.3f} s, {int(lab.max()) + 1} communities, Q={q:.4f}', flush=True)
    print(f'modularity: semiring {tq:.3f} s', flush=True)
    if nxon:
        comms, tn = t(lambda: nx.community.louvain_communities(G, seed=0))
        qn, tqn = t(lambda: nx.community.modularity(G, comms))
        print(f'  networkx louvain {tn:.3f} s, {len(comms)} communities, Q={qn:.4f}; modularity {tqn:.3f} s', flush=True)
