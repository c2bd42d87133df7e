"""python-graphblas (SuiteSparse:GraphBLAS) as a CPU engine, weighed (issue 21 item 3):
min-plus SpMV and SpGEMM medians on a few quick-suite graphs against the engine and SciPy's
plus-times, with GraphBLAS's thread count NTHREADS. Needs `pip install python-graphblas`.

Usage: PYTHONPATH=. python3 bench/probes/cpu_graphblas.py [NTHREADS=1]"""
import statistics
import sys
import time

import graphblas as gb

import semiring as sr
from bench import generators as gen

nthreads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
gb.ss.config["nthreads"] = nthreads


def med(f, r):
    f()
    ts = []
    for _ in range(r):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1e3


for spec, kind in [("kron-14", "spmv"), ("urand-14", "spmv"), ("grid-64x64", "spmv"),
                   ("kron-12", "spgemm"), ("kron-10", "spgemm")]:
    H = gen.make_graph(gen.parse_graph_spec(spec))
    G = gb.io.from_scipy_sparse(H)
    A = sr.Matrix.from_scipy(H, device="cpu")
    x = gen.random_dense_vector(H.shape[0], seed=0, dtype=H.dtype)
    if kind == "spmv":
        gx, xv, r = gb.Vector.from_dense(x), sr.Vector.from_dense(x, device="cpu"), 200
        fs = {"graphblas": lambda: G.mxv(gx, gb.semiring.min_plus).new(),
              "engine": lambda: sr.mxv(A, xv, sr.min_plus), "scipy": lambda: H @ x}
    else:
        r = 5
        fs = {"graphblas": lambda: G.mxm(G, gb.semiring.min_plus).new(),
              "engine": lambda: sr.mxm(A, A, sr.min_plus), "scipy": lambda: H @ H}
    print(f"nthreads={nthreads} {kind} {spec}",
          " ".join(f"{k}={med(f, r):.4f}ms" for k, f in fs.items()), flush=True)
