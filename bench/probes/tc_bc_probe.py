"""GPU timing of triangle counting (every method) and one-source betweenness centrality on
Kronecker and uniform random graphs (bench.generators, GAP's kinds), in one process:

    PYTHONPATH=. python3 bench/probes/tc_bc_probe.py [GRAPH:METHODS ...] [--bc] [--reps N]
        [--phases] [--budget SECONDS]

GRAPH is kron-S or urand-S; METHODS a comma list of triangle_count methods (auto, dot3, dot,
dot_upper, ll) or "-" for none. Each method runs ``reps`` times (the first also compiles:
best of the rest when reps > 1); the counts must agree. ``--bc`` times
``betweenness_centrality(A, sources=[s])`` (s: a vertex of the largest degree class drawn
with a fixed seed) by the default path and once by the batch path (SINGLE_MAX_BATCH = 0),
and compares them. ``--phases`` times the steps of the dot3 count (symmetry check and
self-loops, orientation, transpose, product, sum). Steps stop when ``--budget`` seconds have
passed. Results print as they come.
"""

from __future__ import annotations

import argparse
import subprocess
import time

import cupy as cp
import numpy as np

import algorithms as alg
import semiring as sr
from algorithms import centrality, triangles as tri
from bench.generators import kronecker, urand


def _sync_time(fn):
    cp.cuda.runtime.deviceSynchronize()
    t = time.perf_counter()
    r = fn()
    cp.cuda.runtime.deviceSynchronize()
    return r, time.perf_counter() - t


def _device_name():
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return cp.cuda.runtime.getDeviceProperties(0)["name"].decode()


def _graph(name):
    kind, scale = name.split("-")
    gen = {"kron": kronecker, "urand": urand}[kind]
    S, t = _sync_time(lambda: gen(int(scale), weighted=False, dtype=np.float32, xp=cp))
    A = sr.Matrix.from_cupyx(S)
    print(f"{name}: n={A.nrows} stored entries={A.nvals} ({t:.1f} s to generate)", flush=True)
    return A


def _best(fn, reps):
    times, r = [], None
    for _ in range(reps):
        r, t = _sync_time(fn)
        times.append(t)
    best = min(times[1:]) if len(times) > 1 else times[0]
    return r, best, times


def _phases(A):
    op = "triangle_count"
    G, t1 = _sync_time(lambda: tri._undirected(op, A, False))
    D, t2 = _sync_time(lambda: tri._oriented(G, "degree"))
    DT, t3 = _sync_time(lambda: D.T)
    C, t4 = _sync_time(lambda: sr.mxm(D, DT, sr.plus_pair, mask=D.S, method="dot"))
    s, t5 = _sync_time(lambda: int(sr.reduce_scalar(C)))
    print(f"  dot3 phases: undirected {t1 * 1e3:.1f} ms, oriented {t2 * 1e3:.1f} ms "
          f"(D: {D.nvals} entries, longest row {int(cp.diff(D.indptr).max())}), "
          f"D.T {t3 * 1e3:.1f} ms, mxm dot {t4 * 1e3:.1f} ms (C: {C.nvals} entries), "
          f"sum {t5 * 1e3:.1f} ms; count {s}", flush=True)


def _bc(name, A, reps):
    deg = cp.asnumpy(cp.diff(A.indptr))
    rng = np.random.default_rng(0)
    s = int(rng.choice(np.flatnonzero(deg > 0)))
    fn = lambda: alg.betweenness_centrality(A, sources=[s], normalized=False)  # noqa: E731
    r, best, times = _best(fn, reps)
    print(f"  bc {name} source {s} (degree {deg[s]}): best {best * 1e3:.2f} ms "
          f"(runs {', '.join(f'{t * 1e3:.2f}' for t in times)} ms)", flush=True)
    old = centrality.SINGLE_MAX_BATCH
    centrality.SINGLE_MAX_BATCH = 0
    try:
        r2, t2 = _sync_time(fn)
    finally:
        centrality.SINGLE_MAX_BATCH = old
    a, b = cp.nan_to_num(r), cp.nan_to_num(r2)
    err = float(cp.max(cp.abs(a - b) / cp.maximum(cp.abs(b), 1.0)))
    print(f"  bc {name} batch path (SpMV per level, SPMV_MAX_BATCH={centrality.SPMV_MAX_BATCH}):"
          f" {t2 * 1e3:.2f} ms; largest relative difference {err:.2e}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graphs", nargs="*", default=["kron-20:dot3,dot", "kron-22:dot3"])
    ap.add_argument("--bc", action="store_true")
    ap.add_argument("--phases", action="store_true")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--budget", type=float, default=80.0)
    args = ap.parse_args()
    t0 = time.perf_counter()
    print(f"device: {_device_name()}", flush=True)
    for spec in args.graphs:
        name, _, methods = spec.partition(":")
        if time.perf_counter() - t0 > args.budget:
            print(f"budget spent: {spec} skipped", flush=True)
            continue
        A = _graph(name)
        counts = {}
        for m in [m for m in methods.split(",") if m and m != "-"]:
            if time.perf_counter() - t0 > args.budget:
                print(f"  budget spent: tc {m} skipped", flush=True)
                continue
            c, best, times = _best(lambda: alg.triangle_count(A, method=m), args.reps)  # noqa: B023
            counts[m] = c
            print(f"  tc {name} {m}: {c} triangles, best {best * 1e3:.1f} ms "
                  f"(runs {', '.join(f'{t * 1e3:.1f}' for t in times)} ms)", flush=True)
        if len(set(counts.values())) > 1:
            print(f"  MISMATCH: {counts}", flush=True)
        if args.phases and time.perf_counter() - t0 <= args.budget:
            _phases(A)
        if args.bc and time.perf_counter() - t0 <= args.budget:
            _bc(name, A, args.reps)
        del A
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
