"""The grid size of a small graph's whole-search launch (issue 21 item 2): ``bfs_grid`` on a
1000- and a 10^4-vertex random graph (mean degree 8) and a Kronecker graph of 2^10 vertices,
warm, best of REPS (each call + a device synchronization, as small_calls.py times), for caps
of the grid's blocks; the launch + sync floor of an empty kernel beside it.

Usage: PYTHONPATH=. python3 bench/probes/small_grid.py [REPS=30]"""
import sys
import time

import cupy as cp
import numpy as np
import scipy.sparse as sp

import semiring as sr
from bench import generators as gen

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 30
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
sync = cp.cuda.Device().synchronize


def best(f):
    f(); sync()
    t = 1e9
    for _ in range(reps):
        sync(); t0 = time.perf_counter(); f(); sync(); t = min(t, time.perf_counter() - t0)
    return t * 1e3


empty = cp.RawKernel(r'extern "C" __global__ void sr_empty() {}', "sr_empty")
print(f"floor: empty launch + sync {best(lambda: empty((1,), (1,), ())):.4f} ms")
graphs = {}
for n in (1000, 10_000):
    rng = np.random.default_rng(n)
    m = 8 * n
    S = sp.csr_matrix((rng.integers(1, 10, m).astype(np.float64),
                       (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n))
    S.sum_duplicates()
    graphs[f"random n={n} m={S.nnz}"] = S
K = gen.kronecker(10, xp=np)
graphs[f"kron-10 n={K.shape[0]} m={K.nnz}"] = sp.csr_matrix(K)
for name, S in graphs.items():
    A = sr.Matrix.from_scipy(S, device="gpu")
    ref = sr.traversal.bfs_grid(A, 0)[0].get()
    row = []
    for b in (1, 2, 4, 8, 16, 32, 66, 132, None):
        lv = sr.traversal.bfs_grid(A, 0, blocks=b)[0].get()
        ok = np.array_equal(lv, ref)
        ms = best(lambda: sr.traversal.bfs_grid(A, 0, blocks=b))
        row.append(f"{b or 'all'}:{ms:.4f}{'' if ok else '(WRONG)'}")
    print(f"bfs_grid {name} levels {int(ref.max()) + 1}: " + "  ".join(row))
