"""Session 24 (cpu24): the CPU quick suite's engine calls and SciPy's same computation, timed
alternately in one process (ours, SciPy, ours, SciPy ...: ``ROUNDS`` rounds of a few calls
each, medians), on the bench's graphs (``bench/cache``) and the bench's sources / inputs.

    ROUNDS=15 PYTHONPATH=. python3 bench/results/session24/cpu24_alternating.py kron-14:spmv \
        rgg-14:sssp-delta kron-14:connected_components_strong urand-13-ef4:msbfs32 ...

Row kinds: spmv, bfs, sssp-delta, sssp-bf, msbfsS (S sources; SciPy: one
breadth_first_order a source), spgemm, spgemm-minplus (against SciPy's plus-times A @ A), cc, pagerank, tc, and each csgraph facade function
name (as bench/csgraph_case.py calls it). Output: cpu24_alternating.txt. Timing only: the
bench checks the answers."""
import sys, time, os, json
import numpy as np
sys.path.insert(0, os.getcwd())
from bench import generators as gen
import semiring as sr, algorithms
from algorithms import csgraph as fac
import scipy.sparse.csgraph as scg

def graph(label):
    return gen.make_graph(gen.parse_graph_spec(label), xp=np, cache_dir="bench/cache")

def source(H):
    deg = np.diff(H.indptr); c = np.flatnonzero(deg > 0)
    return int(np.random.default_rng(0).choice(c))

def pair(label, what):
    H = graph(label); s = source(H)
    if what.startswith("sssp-"):
        A = sr.Matrix.from_scipy(H, device="cpu")
        fn = getattr(algorithms, {"sssp-delta": "delta_stepping", "sssp-bf": "bellman_ford"}[what])
        return (lambda: fn(A, s, symmetric=True)), (lambda: scg.dijkstra(H, directed=True, indices=s))
    if what == "pagerank":
        from bench.analytics_case import pagerank_power, PR_TOL, PR_MAX_ITER, PR_DAMPING
        A = sr.Matrix.from_scipy(H, device="cpu")
        n = H.shape[0]
        return (lambda: algorithms.pagerank(A, PR_DAMPING, tol=PR_TOL / n, max_iter=PR_MAX_ITER, weighted=False, variant="networkx")), (lambda: pagerank_power(H, tol=PR_TOL, max_iter=PR_MAX_ITER)[0])
    if what.startswith("msbfs"):
        ns = int(what[5:])
        from scipy.sparse.csgraph import breadth_first_order
        A = sr.Matrix.from_scipy(H, device="cpu")
        cand = np.flatnonzero(np.diff(H.indptr) > 0)
        src = np.random.default_rng(0).choice(cand, ns, replace=cand.size < ns).astype(np.int64)
        return (lambda: algorithms.multi_source_bfs(A, src, symmetric=True)), (lambda: [breadth_first_order(H, int(v), directed=True, return_predecessors=False) for v in src])
    if what == "cc":
        from scipy.sparse.csgraph import connected_components
        A = sr.Matrix.from_scipy(H, device="cpu")
        return (lambda: algorithms.connected_components(A, symmetric=True)), (lambda: connected_components(H, directed=True, connection="weak")[1])
    if what == "bfs":
        from scipy.sparse.csgraph import breadth_first_order
        A = sr.Matrix.from_scipy(H, device="cpu")
        return (lambda: algorithms.bfs(A, s, symmetric=True)), (lambda: breadth_first_order(H, s, directed=True, return_predecessors=False))
    if what in ("spgemm", "spgemm-minplus"):
        from semiring.spgemm import spgemm
        A = sr.Matrix.from_scipy(H, device="cpu")
        name = "min_plus" if what == "spgemm-minplus" else "plus_times"
        return (lambda: spgemm(A, A, name)), (lambda: H @ H)
    if what == "tc":
        from bench.analytics_case import scipy_triangles, degree_oriented
        A = sr.Matrix.from_scipy(H, device="cpu")
        return (lambda: algorithms.triangle_count(A)), (lambda: scipy_triangles(degree_oriented(H)))
    if what == "spmv":
        A = sr.Matrix.from_scipy(H, device="cpu")
        x = np.random.default_rng(1).random(H.shape[0]).astype(H.dtype)
        x = gen.random_dense_vector(H.shape[0], seed=0, dtype=H.dtype)
        xv = sr.Vector.from_dense(x, device="cpu")
        return (lambda: sr.mxv(A, xv, sr.min_plus)), (lambda: H @ x)
    fnname = what
    def call(mod):
        if fnname == "dijkstra_batch":
            deg = np.diff(H.indptr); cand = np.flatnonzero(deg > 0)
            st = int(np.searchsorted(cand, s)); idx = np.resize(np.roll(cand, -st), 8).astype(np.int64)
            return lambda: mod.dijkstra(H, indices=idx)
        if fnname == "connected_components_strong":
            return lambda: mod.connected_components(H, connection="strong")[1]
        f = getattr(mod, fnname)
        if fnname in ("breadth_first_order", "depth_first_order"):
            return lambda: f(H, s, return_predecessors=False)
        if fnname == "breadth_first_tree": return lambda: f(H, s)
        if fnname in ("dijkstra", "bellman_ford"): return lambda: f(H, indices=s)
        if fnname == "connected_components": return lambda: f(H, directed=False)[1]
        return lambda: f(H)
    return call(fac), call(scg)

def bench(a, b, rounds=15, inner=5):
    t0 = time.perf_counter(); a(); el = time.perf_counter() - t0
    inner = max(1, min(50, int(0.02 / max(el, 1e-6))))
    a(); b(); a(); b()
    ta, tb = [], []
    for _ in range(rounds):
        for f, t in ((a, ta), (b, tb)):
            t0 = time.perf_counter()
            for _ in range(inner): f()
            t.append((time.perf_counter() - t0) / inner * 1e3)
    return float(np.median(ta)), float(np.median(tb))

if __name__ == "__main__":
    rounds = int(os.environ.get("ROUNDS", "15"))
    for item in sys.argv[1:]:
        label, what = item.split(":")
        a, b = pair(label, what)
        la0 = os.getloadavg()[0]
        ma, mb = bench(a, b, rounds)
        print(f"{label:16s} {what:28s} ours {ma:9.4f} ms  scipy {mb:9.4f} ms  ratio {mb/ma:5.2f}  load {la0:.2f}->{os.getloadavg()[0]:.2f}", flush=True)
