"""Fixed cost of a warm call on a small graph (issue 21 item 2, issue 15): each public entry
point on a GPU matrix / GPU input against SciPy's compiled routine on the host, n = 10^3 and
10^4, best of REPS warm calls; then a cProfile of the slowest GPU call's host side.

Usage: PYTHONPATH=. python3 bench/probes/small_calls.py [REPS=30]"""
import cProfile
import io
import pstats
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import algorithms
import semiring as sr
from algorithms import csgraph

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 30
gpu = sr.gpu_available()
if gpu:
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
    sync = cp.cuda.Device().synchronize
else:
    def sync():
        return None


def best(f):
    f(); sync()
    t = 1e9
    for _ in range(reps):
        sync(); t0 = time.perf_counter(); f(); sync(); t = min(t, time.perf_counter() - t0)
    return t * 1e3


_xs = {}


def _x_of(A):
    if A.device not in _xs or _xs[A.device].size != A.nrows:
        _xs[A.device] = sr.Vector.from_dense(A.xp.ones(A.nrows), device=A.device)
    return _xs[A.device]


rows = []
for n in (1000, 10_000):
    rng = np.random.default_rng(n)
    m = 8 * n
    S = sp.csr_matrix((rng.integers(1, 10, m).astype(np.float64),
                       (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n))
    S.sum_duplicates()
    Ac = sr.Matrix.from_scipy(S, device="cpu")
    x = np.ones(n)
    cases = {
        "bfs": (lambda: scg.breadth_first_order(S, 0, return_predecessors=False),
                lambda A: algorithms.bfs(A, 0)),
        "sssp": (lambda: scg.dijkstra(S, indices=0), lambda A: algorithms.sssp(A, 0)),
        "mxv min_plus": (lambda: S @ x, lambda A: sr.mxv(A, sr.Vector.from_dense(
            A.xp.ones(n), device=A.device), sr.min_plus)),
        # x made before the timing, as SciPy's (the row above times its ones() too)
        "mxv min_plus, x prebuilt": (lambda: S @ x, lambda A: sr.mxv(A, _x_of(A), sr.min_plus)),
    }
    for name, (ref, ours) in cases.items():
        r = {"n": n, "call": name, "scipy": best(ref), "cpu": best(lambda: ours(Ac))}
        if gpu:
            Ag = Ac.to_gpu()
            r["gpu"] = best(lambda: ours(Ag))
        rows.append(r)
    facade = {
        "csgraph.breadth_first_order": (lambda G: scg.breadth_first_order(G, 0, return_predecessors=False),
                                        lambda G: csgraph.breadth_first_order(G, 0, return_predecessors=False)),
        "csgraph.dijkstra": (lambda G: scg.dijkstra(G, indices=0),
                             lambda G: csgraph.dijkstra(G, indices=0)),
        "csgraph.connected_components": (lambda G: scg.connected_components(G),
                                         lambda G: csgraph.connected_components(G)),
    }
    for name, (ref, ours) in facade.items():
        r = {"n": n, "call": name, "scipy": best(lambda: ref(S)), "cpu": best(lambda: ours(S))}
        if gpu:
            G = cps.csr_matrix(S)
            r["gpu"] = best(lambda: ours(G))
            r["_gpu_f"] = (lambda G=G, ours=ours: ours(G))
        rows.append(r)

print(f"{'n':>6} {'call':<32} {'scipy ms':>9} {'cpu ms':>9} {'gpu ms':>9}")
for r in rows:
    print(f"{r['n']:>6} {r['call']:<32} {r['scipy']:9.3f} {r['cpu']:9.3f} {r.get('gpu', float('nan')):9.3f}")
if gpu:
    # the floor: an empty kernel's launch and a synchronization, a bare synchronization
    empty = cp.RawKernel(r'extern "C" __global__ void sr_empty() {}', "sr_empty")
    print(f"floor: launch + sync {best(lambda: empty((1,), (1,), ())):.4f} ms, "
          f"sync alone {best(lambda: None):.4f} ms, "
          f"one 8-byte copy to the host {best(lambda: cp.zeros(1).get()):.4f} ms")
    S = sp.csr_matrix((np.random.default_rng(1000).integers(1, 10, 8000).astype(np.float64),
                       (np.random.default_rng(1).integers(0, 1000, 8000),
                        np.random.default_rng(2).integers(0, 1000, 8000))), shape=(1000, 1000))
    S.sum_duplicates()
    Ag = sr.Matrix.from_scipy(S, device="gpu")
    xg = sr.Vector.from_dense(cp.ones(1000), device="gpu")
    native = {"bfs": lambda: algorithms.bfs(Ag, 0), "sssp": lambda: algorithms.sssp(Ag, 0),
              "mxv min_plus": lambda: sr.mxv(Ag, xg, sr.min_plus)}
    for name, f in native.items():
        f(); sync()
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(20):
            f()
        sync()
        pr.disable()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(14)
        print(f"== cProfile, 20 calls of native {name} on the GPU, n = 1000 (by own time)")
        print(s.getvalue()[:3500])
    for r in rows:
        if r["n"] == 1000 and "_gpu_f" in r:
            pr = cProfile.Profile()
            pr.enable()
            for _ in range(20):
                r["_gpu_f"]()
            sync()
            pr.disable()
            s = io.StringIO()
            pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(18)
            print(f"== cProfile, 20 calls of {r['call']} on GPU input, n = 1000")
            print(s.getvalue()[:5000])
