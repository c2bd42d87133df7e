"""Where the GPU stops paying for the analytics on small graphs: each analytic on a GPU matrix
against the same call on a CPU (host) matrix, Graph500 Kronecker graphs from scale 8 up, best
of REPS warm calls (CUDA-synchronized). Finds the sizes below which a host route would win
(issue 17's should_run sees these as the backend's cost; issue 21's small calls).

Usage: PYTHONPATH=. python3 bench/probes/analytics_small.py [--scales 8,10,12,14,16] [--reps 3]
       [--algs louvain,core,triangles,mst,pagerank,cc,bc]"""
import argparse
import time

import numpy as np

import algorithms as alg
import semiring as sr
from bench import generators as gen

CALLS = {
    "louvain": lambda A: alg.louvain(A),
    "core": lambda A: alg.core_number(A),
    "triangles": lambda A: alg.triangles(A),
    "mst": lambda A: alg.minimum_spanning_forest(A),
    "pagerank": lambda A: alg.pagerank(A),
    "cc": lambda A: alg.connected_components(A),
    "bc": lambda A: alg.betweenness_centrality(A, k=min(64, A.nrows), seed=0),
}


def best(fn, A, reps, sync):
    fn(A)
    sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn(A)
        sync()
        ts.append(time.perf_counter() - t)
    return min(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", default="8,10,12,14,16")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--algs", default=",".join(CALLS))
    ap.add_argument("--cpu-max-scale", type=int, default=14)
    args = ap.parse_args()
    gpu = sr.gpu_available()
    if gpu:
        import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
        print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
        sync = cp.cuda.runtime.deviceSynchronize
    else:
        def sync():
            return None
    print(f"{'scale':>5} {'n':>7} {'nnz':>9} {'alg':<10} {'cpu ms':>9} {'gpu ms':>9} {'gpu/cpu':>8}")
    for s in map(int, args.scales.split(",")):
        S = gen.make_graph(gen.parse_graph_spec(f"kron-{s}"), xp=np, cache_dir=None)
        host = sr.Matrix.from_scipy(S, device="cpu")
        dev = sr.Matrix.from_scipy(S, device="gpu") if gpu else None
        for name in args.algs.split(","):
            fn = CALLS[name]
            tc = best(fn, host, args.reps, lambda: None) if s <= args.cpu_max_scale else float("nan")
            tg = best(fn, dev, args.reps, sync) if gpu else float("nan")
            print(f"{s:>5} {host.nrows:>7} {host.nvals:>9} {name:<10} {tc * 1e3:>9.2f} "
                  f"{tg * 1e3:>9.2f} {tg / tc:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
