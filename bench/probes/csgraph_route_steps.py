"""Where the csgraph facade's host route spends a small GPU call (n = 1000, 8n entries): its
steps timed one by one, then a cProfile by own time."""
import cProfile, pstats, io, time
import numpy as np, scipy.sparse as sp, cupy as cp, cupyx.scipy.sparse as cps
from algorithms import csgraph
from algorithms.csgraph import _validation as V
n = 1000; rng = np.random.default_rng(n); m = 8 * n
S = sp.csr_matrix((rng.integers(1, 10, m).astype(np.float64), (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n)); S.sum_duplicates()
G = cps.csr_matrix(S)
V.HOST_MAX_WORK["connected_components"] = 1 << 15
sync = cp.cuda.Device().synchronize
def best(f, reps=50):
    f(); sync(); t = 1e9
    for _ in range(reps):
        sync(); t0 = time.perf_counter(); f(); sync(); t = min(t, time.perf_counter() - t0)
    return t * 1e6
H = V._to_host(G)
ind, ptr, dat = H.indices, H.indptr, H.data
steps = {
  "gather (3 arrays, one get)": lambda: V._gather_to_host([G.indptr, G.indices, G.data], pinned_from=V.PINNED_BYTES),
  "G.data.get() alone": lambda: G.data.get(),
  "sps.csr_matrix from arrays": lambda: sp.csr_matrix((dat, ind, ptr), shape=G.shape),
  "_to_host(G)": lambda: V._to_host(G),
  "dijkstra on host copy": lambda: csgraph.dijkstra(H, indices=0),
  "cc on host copy": lambda: csgraph.connected_components(H, directed=False),
  "upload 1 array (_to_gpu_result)": lambda: V._to_gpu_result(np.zeros(n)),
  "upload (n, labels) tuple": lambda: V._to_gpu_result((5, np.zeros(n, dtype=np.int32))),
  "cp.asarray(8 KB)": lambda: cp.asarray(np.zeros(n)),
  "dijkstra GPU input (route)": lambda: csgraph.dijkstra(G, indices=0),
  "cc GPU input (route)": lambda: csgraph.connected_components(G, directed=False),
  "scipy dijkstra": lambda: __import__("scipy.sparse.csgraph", fromlist=["x"]).dijkstra(S, indices=0),
  "scipy cc": lambda: __import__("scipy.sparse.csgraph", fromlist=["x"]).connected_components(S, directed=False),
}
for k, f in steps.items():
    print(f"{k:<34} {best(f):8.1f} us")
for name, f in (("dijkstra", steps["dijkstra GPU input (route)"]), ("cc", steps["cc GPU input (route)"])):
    pr = cProfile.Profile(); pr.enable()
    for _ in range(200): f()
    pr.disable(); out = io.StringIO(); pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(16)
    print(f"== {name}"); print("\n".join(l for l in out.getvalue().splitlines()[6:] if l.strip())[:3500])
