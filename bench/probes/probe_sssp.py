"""SSSP timing probe on the GPU (a device-tool probe, not a test): Bellman–Ford and
delta-stepping at several Δ scales, fused rounds on and off.

    PYTHONPATH=. python3 bench/probes/probe_sssp.py kron-21 kron-22 grid-2048x2048
"""

from __future__ import annotations

import importlib
import sys
import time

import cupy as cp
import numpy as np

import algorithms
import semiring as sr
from bench import generators as gen

S_MOD = importlib.import_module("algorithms.sssp")


def timed(f, reps):
    ts = []
    for _ in range(reps):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        r = f()
        cp.cuda.Device().synchronize()
        ts.append((time.perf_counter() - t) * 1e3)
    return r, float(np.median(ts))


def main(specs):
    for spec in specs:
        S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp)
        A = sr.Matrix.from_cupyx(S)
        source = int(cp.argmax(cp.diff(A.indptr) > 0))
        reps = 1 if spec.startswith("grid") else 3
        ref = None
        for fused in (True, False):
            S_MOD.FUSED_FRONTIER = sr.traversal.QUEUE if fused else 0
            configs = [("bf", None)] + [("delta", k) for k in (4.0, 32.0, 256.0)]
            for name, scale in configs:
                if scale is not None:
                    S_MOD.DELTA_SCALE = scale
                f = (lambda: algorithms.bellman_ford(A, source, symmetric=True)) if name == "bf" \
                    else (lambda: algorithms.delta_stepping(A, source, symmetric=True))
                f()  # warm-up: compiles, splits
                d, ms = timed(f, reps)
                if ref is None:
                    ref = d
                ok = bool((d == ref).all())
                print(f"{spec:16s} fused={fused!s:5s} {name:5s} scale={scale!s:6s} {ms:9.2f} ms  {'ok' if ok else 'MISMATCH'}", flush=True)
            if spec.startswith("grid") and not fused:
                break


if __name__ == "__main__":
    main(sys.argv[1:])
