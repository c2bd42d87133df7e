"""lpa15: label_propagation CPU timings (ms, best of 3, wall): the whole call per method,
and the colouring's share: ``_colouring`` (the array path's) alone on the same pattern, and
the compiled method's (degrees, priorities, greedy colouring). Usage:
python lpa15_bench.py kron12 grid300 ... [--methods=array,compiled] [--reps=3] (from the repository root)."""
import sys, time
sys.path.insert(0, '.')  # the repository root (run from there)
import numpy as np
import semiring as sr, algorithms as alg
from algorithms import community
from algorithms.cores import undirected_pattern
from semiring.backend.cpu import compiled
from bench.generators import kronecker, grid2d


REPS = next((int(a.split('=')[1]) for a in sys.argv[1:] if a.startswith('--reps=')), 3)


def best(f, reps=None):
    reps = REPS if reps is None else reps
    w = []
    for _ in range(reps):
        t0 = time.perf_counter(); r = f(); w.append(time.perf_counter() - t0)
    return r, min(w) * 1e3


args = [a for a in sys.argv[1:] if not a.startswith('--')]
methods = next((a.split('=')[1].split(',') for a in sys.argv[1:] if a.startswith('--methods=')), None)
for name in args:
    M = kronecker(int(name[4:]), xp=np) if name.startswith('kron') else grid2d(int(name[4:]), xp=np)
    A = sr.Matrix.from_scipy(M, device='cpu')
    P = undirected_pattern(A, 'b', loops=True)
    S = undirected_pattern(P, 'b')
    _, tc = best(lambda: community._colouring(S, 0))

    def jp():
        deg = compiled.loopless_degrees(P.indptr, P.indices)
        key = np.floor(np.log2(deg + 1.0)).astype(np.int64)
        rank = np.random.default_rng(0).permutation(P.nrows).astype(np.int64)
        return compiled.greedy_colouring(P.indptr, P.indices, key, rank)

    col, tj = best(jp)
    assert np.array_equal(col, community._colouring(S, 0))
    out = [f'{name}: n {A.nrows} stored {A.nvals}; colouring array {tc:.1f} ms, '
           f'compiled {tj:.1f} ms']
    ref = None
    for m in methods or ['default']:
        f = (lambda: alg.label_propagation(A)) if m == 'default' else \
            (lambda: alg.label_propagation(A, method=m))
        lab, t = best(f)
        eq = '' if ref is None else f' equal {np.array_equal(ref, lab)}'
        ref = lab if ref is None else ref
        out.append(f'{m} {t:.1f} ms ({int(lab.max()) + 1 if lab.size else 0} communities){eq}')
    print('; '.join(out), flush=True)
