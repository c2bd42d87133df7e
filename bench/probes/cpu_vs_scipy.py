"""The CPU backend against SciPy on the CPU quick suite's SpMV, SpGEMM and PageRank graphs,
call by call interleaved (engine, SciPy, engine, ...: a shared host's load hits both alike),
medians and minimums (issue 21 item 3). TREE: the checkout to import (to compare two
commits, run it on each, alternately). CPU only; graphs cached in bench/cache.

Usage: python3 bench/probes/cpu_vs_scipy.py [TREE=.] [REPS=40]"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "."))
import numpy as np  # noqa: E402
import semiring as sr  # noqa: E402
import algorithms  # noqa: E402
from bench import generators as gen  # noqa: E402
from bench.analytics_case import PR_DAMPING, PR_MAX_ITER, PR_TOL, pagerank_power  # noqa: E402
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 40
def G(spec):
    return gen.make_graph(gen.parse_graph_spec(spec))
cases = []
for spec in ["kron-12", "kron-14", "kron-16", "urand-12", "urand-14", "urand-16", "grid-64x64", "grid-128x128", "grid-256x256"]:
    H = G(spec); A = sr.Matrix.from_scipy(H, device="cpu")
    x = gen.random_dense_vector(H.shape[0], seed=0, dtype=H.dtype); xv = sr.Vector.from_dense(x, device="cpu")
    cases.append((f"spmv {spec}", lambda A=A, xv=xv: sr.mxv(A, xv, sr.min_plus), lambda H=H, x=x: H @ x, reps))
for spec in ["kron-10", "kron-12"]:
    H = G(spec); A = sr.Matrix.from_scipy(H, device="cpu")
    cases.append((f"spgemm min-plus {spec}", lambda A=A: sr.mxm(A, A, sr.min_plus), lambda H=H: H @ H, max(3, reps // 10)))
    cases.append((f"spgemm plus-times {spec}", lambda A=A: sr.mxm(A, A, sr.plus_times), lambda H=H: H @ H, max(3, reps // 10)))
for spec in ["kron-14", "urand-14", "grid-128x128"]:
    H = G(spec); A = sr.Matrix.from_scipy(H, device="cpu"); n = H.shape[0]
    cases.append((f"pagerank {spec}", lambda A=A, n=n: algorithms.pagerank(A, PR_DAMPING, tol=PR_TOL / n, max_iter=PR_MAX_ITER, weighted=False),
                  lambda H=H: pagerank_power(H, tol=PR_TOL, max_iter=PR_MAX_ITER)[0], max(5, reps // 4)))
for name, eng, ref, r in cases:
    eng(); ref(); eng(); ref()
    te, tr = [], []
    for _ in range(r):
        t = time.perf_counter(); eng(); te.append(time.perf_counter() - t)
        t = time.perf_counter(); ref(); tr.append(time.perf_counter() - t)
    me, mr = statistics.median(te) * 1e3, statistics.median(tr) * 1e3
    print(f"{name:28s} engine {me:9.4f} ms (min {min(te)*1e3:9.4f})  scipy {mr:9.4f} ms (min {min(tr)*1e3:9.4f})  ratio median {mr/me:5.2f} min {min(tr)/min(te):5.2f}", flush=True)
