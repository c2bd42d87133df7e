"""Timing probe of the analytics1 functions (PageRank, betweenness, triangles, clustering) on a
Kronecker graph, on the GPU when one answers (else the CPU), after a GPU-vs-CPU agreement check
on a smaller graph. Every triangle-count variant (method x order) is timed.

Usage: PYTHONPATH=. python bench/probes/analytics1_timing.py [SCALE=20] [CHECK_SCALE=14]"""
import sys, time
import numpy as np
import semiring as sr, algorithms
from bench.generators import kronecker

scale = int(sys.argv[1]) if len(sys.argv) > 1 else 20
check_scale = int(sys.argv[2]) if len(sys.argv) > 2 else 14
dev = "gpu" if sr.gpu_available() else "cpu"
xp = sr.array_module(dev)
sync = (lambda: xp.cuda.Device().synchronize()) if dev == "gpu" else (lambda: None)
host = lambda a: a.get() if dev == "gpu" else np.asarray(a)

def build(s, device):
    S = kronecker(s, weighted=False, xp=xp if device == "gpu" else np)
    return S, (sr.Matrix.from_cupyx(S) if device == "gpu" else sr.Matrix.from_scipy(S, device="cpu"))

def tm(f, reps=3):
    r = f(); sync()  # warm-up: kernels compiled, transposes cached
    best = 1e9
    for _ in range(reps):
        sync(); t = time.perf_counter(); r = f(); sync(); best = min(best, time.perf_counter() - t)
    return r, best * 1e3

print(f"device: {dev}", flush=True)
if dev == "gpu":
    import cupy as cp
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), flush=True)
# agreement of the GPU with the CPU on a smaller graph
if dev == "gpu":
    Sg, Ag = build(check_scale, "gpu")
    Ac = Ag.to_cpu()
    for name, f in [("pagerank", lambda A: algorithms.pagerank(A)),
                    ("pagerank gap", lambda A: algorithms.pagerank(A, variant="gap")),
                    ("betweenness k=64", lambda A: algorithms.betweenness_centrality(A, k=64, seed=1)),
                    ("triangles", lambda A: algorithms.triangles(A)),
                    ("clustering", lambda A: algorithms.clustering(A))]:
        g, c = host(f(Ag)), f(Ac)
        print(f"kron-{check_scale} {name}: GPU vs CPU max |diff| {np.abs(g - c).max():.3e}", flush=True)
    print(f"kron-{check_scale} triangle_count GPU {algorithms.triangle_count(Ag)} CPU {algorithms.triangle_count(Ac)}", flush=True)

S, A = build(scale, dev)
n = A.nrows
print(f"kron-{scale}: n={n} nnz={A.nvals}", flush=True)
its = []
pr, t = tm(lambda: algorithms.pagerank(A, progress=lambda i, e: its.append(i)))
print(f"pagerank networkx variant (tol 1e-6·n): {t:.2f} ms, {its[-1]} iterations, sum {float(pr.sum()):.6f}", flush=True)
its = []
pr, t = tm(lambda: algorithms.pagerank(A, variant="gap", progress=lambda i, e: its.append(i)))
print(f"pagerank gap variant (tol 1e-4): {t:.2f} ms, {its[-1]} iterations ({t/its[-1]:.3f} ms an iteration)", flush=True)
its = []
pr, t = tm(lambda: algorithms.pagerank(A, variant="gap", tol=1e-9, progress=lambda i, e: its.append(i)))
print(f"pagerank gap variant (tol 1e-9): {t:.2f} ms, {its[-1]} iterations ({t/its[-1]:.3f} ms an iteration)", flush=True)
if dev == "gpu":  # naive CuPy power iteration (cupyx SpMV), NetworkX's algorithm, same stop
    import cupyx.scipy.sparse as cps
    Sf = S.astype(cp.float64)
    def cupy_pr():
        out = Sf.sum(axis=1).ravel(); inv = cp.where(out > 0, 1.0 / cp.where(out > 0, out, 1), 0)
        PT = (cps.diags(inv) @ Sf).T.tocsr(); x = cp.full(n, 1.0 / n); dang = (out == 0).astype(cp.float64)
        for _ in range(100):
            xl = x; x = 0.85 * (PT @ x + cp.dot(x, dang) / n) + 0.15 / n
            if float(cp.abs(x - xl).sum()) < n * 1e-6:
                return x
    x, t = tm(cupy_pr)
    print(f"naive CuPy pagerank (cupyx SpMV, incl. its setup): {t:.2f} ms; max |diff| {float(cp.abs(x - algorithms.pagerank(A)).max()):.2e}", flush=True)
for k in (1, 64, 256):
    bc, t = tm(lambda: algorithms.betweenness_centrality(A, k=k, seed=1), reps=2)
    print(f"betweenness k={k}: {t:.1f} ms ({t/k:.2f} ms a source)", flush=True)
counts = {}
for order in ("degree", "index"):
    for method in ("dot", "dot_upper", "ll"):
        c, t = tm(lambda: algorithms.triangle_count(A, method=method, order=order), reps=2)
        counts[(order, method)] = c
        print(f"triangle_count order={order} method={method}: {c} triangles, {t:.1f} ms", flush=True)
assert len(set(counts.values())) == 1
tv, t = tm(lambda: algorithms.triangles(A), reps=2)
print(f"triangles per vertex: {t:.1f} ms; sum/3 = {int(tv.sum()) // 3}", flush=True)
cl, t = tm(lambda: algorithms.clustering(A), reps=2)
print(f"clustering: {t:.1f} ms; mean {float(cl.mean()):.4f}", flush=True)
cd, t = tm(lambda: algorithms.clustering(A, directed=True), reps=2)
print(f"clustering directed=True (symmetric input): {t:.1f} ms; max |diff| to undirected {float(abs(cd - cl).max()):.2e}", flush=True)
