"""Session 25 (sssp25): the compiled distances-only Dijkstra against SciPy's, timed
alternately in one process (a call of each in turn, ``ROUNDS`` rounds, medians), on the
bench's graphs (GAP weights, float32 integers in [1, 255]) and the bench's source.

    ROUNDS=15 PYTHONPATH=. python3 bench/results/session25/sssp25_alternating.py kron-12 ...

Per graph: ``kernel``: ``sr.traversal.dijkstra_csgraph(A, s, compiled=True)`` against
``compiled=False`` (SciPy's ``dijkstra`` on the same memoized float64 CSR); ``sssp``: the
bench's calls, ``algorithms.delta_stepping`` / ``bellman_ford`` (A float32, symmetric=True)
with CPU_COMPILED_DIJKSTRA on and off, against ``scipy.sparse.csgraph.dijkstra(H, directed=True,
indices=s)`` on the bench's float32 host CSR. Each answer is checked equal to SciPy's first."""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.getcwd())
import scipy.sparse.csgraph as scg  # noqa: E402

import algorithms  # noqa: E402
import importlib  # noqa: E402
sssp_module = importlib.import_module("algorithms.sssp")  # (algorithms.sssp is the function)
import semiring as sr  # noqa: E402
from bench import generators as gen  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", 15))


def source(H):
    deg = np.diff(H.indptr)
    return int(np.random.default_rng(0).choice(np.flatnonzero(deg > 0)))


def policy(on, fn):
    def call():
        old = sssp_module.CPU_COMPILED_DIJKSTRA
        sssp_module.CPU_COMPILED_DIJKSTRA = on
        try:
            return fn()
        finally:
            sssp_module.CPU_COMPILED_DIJKSTRA = old
    return call


def main(labels):
    print(f"numba enabled: {sr.backend.cpu.compiled.ENABLED}; rounds {ROUNDS}; "
          f"load {os.getloadavg()}", flush=True)
    for label in labels:
        H = gen.make_graph(gen.parse_graph_spec(label), xp=np)
        A = sr.Matrix.from_scipy(H, device="cpu")
        s = source(H)
        ref = scg.dijkstra(H, directed=True, indices=s)
        fns = {
            "kernel-ours": lambda: sr.traversal.dijkstra_csgraph(A, s, compiled=True),
            "kernel-scipy": lambda: sr.traversal.dijkstra_csgraph(A, s, compiled=False),
            "delta-ours": policy(True, lambda: algorithms.delta_stepping(A, s, symmetric=True)),
            "delta-scipyroute": policy(False, lambda: algorithms.delta_stepping(A, s, symmetric=True)),
            "bf-ours": policy(True, lambda: algorithms.bellman_ford(A, s, symmetric=True)),
            "scipy-dijkstra": lambda: scg.dijkstra(H, directed=True, indices=s),
        }
        for k, f in fns.items():
            got = f()
            got = got.to_dense(missing=np.inf) if hasattr(got, "to_dense") else np.asarray(got)
            if not np.array_equal(np.asarray(got, dtype=np.float64), ref):
                raise AssertionError(f"{label} {k}: not SciPy's distances")
        t = {k: [] for k in fns}
        for _ in range(ROUNDS):
            for k, f in fns.items():
                t0 = time.perf_counter()
                f()
                t[k].append(time.perf_counter() - t0)
        med = {k: float(np.median(v)) * 1e3 for k, v in t.items()}
        print(f"{label} n={A.nrows} m={A.nvals} s={s} | "
              + " ".join(f"{k} {v:.3f}" for k, v in med.items())
              + f" | kernel x{med['kernel-scipy'] / med['kernel-ours']:.2f}"
              f" delta x{med['scipy-dijkstra'] / med['delta-ours']:.2f}"
              f" (before x{med['scipy-dijkstra'] / med['delta-scipyroute']:.2f})"
              f" bf x{med['scipy-dijkstra'] / med['bf-ours']:.2f}"
              f" | load {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["kron-12", "kron-14", "kron-16", "urand-14", "urand-16",
                          "grid-256x256"])
