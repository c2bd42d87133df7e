"""Betweenness on graphs of many narrow levels: a source a pass (semiring.centrality.brandes)
against the algebra's form (algorithms.centrality.FORM = "algebra"), the
results compared; and which form the policy picks on a Kronecker graph.

    PYTHONPATH=. python3 bench/probes/brandes_probe.py [--device gpu] [--sides 1000,2048]
"""

from __future__ import annotations

import argparse
import importlib
import time

import numpy as np

import algorithms
import semiring as sr
from bench import generators as g

C = importlib.import_module("algorithms.centrality")


def timed(f, sync, reps=3):
    f()
    sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        sync()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=sr.default_device())
    ap.add_argument("--sides", default="1000")
    ap.add_argument("--sources", type=int, default=4)
    ap.add_argument("--kron", type=int, default=18)
    ap.add_argument("--algebra", action="store_true", help="also time the algebra's form")
    a = ap.parse_args()
    dev = a.device
    if dev == "gpu":
        import cupy

        sync = cupy.cuda.Device().synchronize
        print("device", cupy.cuda.runtime.getDeviceProperties(0)["name"].decode())
    else:
        def sync():
            return None
    rng = np.random.default_rng(0)
    graphs = [(f"grid-{s}x{s}", g.grid2d(s, s)) for s in map(int, a.sides.split(","))]
    graphs.append((f"kron-{a.kron}", g.kronecker(a.kron, seed=0)))
    for name, S in graphs:
        A = sr.Matrix.from_scipy(S, device=dev)
        n = A.nrows
        src = rng.choice(n, a.sources, replace=False).tolist()

        def bc():
            return algorithms.betweenness_centrality(A, sources=src, directed=False)

        deep = C._per_source(*C._graphs(A, False), src[0])
        t, x = timed(bc, sync)
        print(f"{name}: n={n} policy={'per source' if deep else 'algebra'} {a.sources} sources "
              f"{t * 1e3:.1f} ms", flush=True)
        if a.algebra and deep:
            C.FORM = "algebra"
            try:
                t2, y = timed(bc, sync, reps=1)
            finally:
                C.FORM = "auto"
            xh, yh = (sr.to_device(v, "cpu") for v in (x, y))
            same = np.allclose(xh, yh, rtol=1e-9, atol=1e-12, equal_nan=True)
            print(f"{name}: algebra's form {t2 * 1e3:.1f} ms ({t2 / t:.1f}x), equal {same}",
                  flush=True)


if __name__ == "__main__":
    main()
