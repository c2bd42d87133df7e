"""GPU timing of triangle counting (every method) and one-source betweenness centrality on
Kronecker and uniform random graphs (bench.generators, GAP's kinds), in one process:

    PYTHONPATH=. python3 bench/probes/tc_bc_probe.py [GRAPH:METHODS ...] [--bc] [--reps N]
        [--phases] [--budget SECONDS] [--cpu]

GRAPH is kron-S or urand-S; METHODS a comma list of triangle_count methods (auto, dot3, dot,
dot_upper, ll) or "-" for none. Each method runs ``reps`` times (the first also compiles:
best of the rest when reps > 1); the counts must agree. ``--bc`` times
``betweenness_centrality(A, sources=[s])`` (s: a vertex of nonzero degree drawn with a fixed
seed, as GAP's source picker draws them) by the default path and once by the batch path
(SINGLE_MAX_BATCH = 0), and compares them. ``--phases`` times the steps of the dot3 count (symmetry check and
self-loops, orientation, product, sum; the downward orientation's product beside it; the
kernel's bins of ``BINS_ALTERNATIVES``). Steps stop when ``--budget`` seconds have
passed. Results print as they come. ``--cpu`` runs the same steps on the CPU backend (a dry
run of the probe on a machine without a GPU; small graphs).
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import time

import numpy as np

import algorithms as alg
import semiring as sr
from algorithms import centrality
from bench.generators import kronecker, urand

# the module (algorithms.triangles is also the name of the function)
tri = importlib.import_module("algorithms.triangles")
xp = None  # cupy, or numpy with --cpu


def _sync():
    if xp is not np:
        xp.cuda.runtime.deviceSynchronize()


def _sync_time(fn):
    _sync()
    t = time.perf_counter()
    r = fn()
    _sync()
    return r, time.perf_counter() - t


def _device_name():
    if xp is np:
        return "CPU backend"
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return xp.cuda.runtime.getDeviceProperties(0)["name"].decode()


def _graph(name):
    kind, scale = name.split("-")
    gen = {"kron": kronecker, "urand": urand}[kind]
    S, t = _sync_time(lambda: gen(int(scale), weighted=False, dtype=np.float32, xp=xp))
    A = sr.Matrix.from_cupyx(S) if xp is not np else sr.Matrix.from_scipy(S, device="cpu")
    print(f"{name}: n={A.nrows} stored entries={A.nvals} ({t:.1f} s to generate)", flush=True)
    return A


def _best(fn, reps):
    times, r = [], None
    for _ in range(reps):
        r, t = _sync_time(fn)
        times.append(t)
    best = min(times[1:]) if len(times) > 1 else times[0]
    return r, best, times


#: semiring.backend.gpu.dot3.BINS to try (--phases): (largest shorter row, log2 group size)
BINS_ALTERNATIVES = (((8, 0), (64, 2), (1024, 5)), ((4, 0), (32, 2), (512, 5)),
                     ((16, 0), (128, 2), (2048, 5)), ((32, 0), (256, 2), (4096, 5)),
                     ((2, 0), (16, 2), (256, 5)))


def _phases(A):
    op = "triangle_count"
    G, t1 = _sync_time(lambda: tri._undirected(op, A, False))
    U, t2 = _sync_time(lambda: tri._oriented(G, "degree", upward=True))
    C, t4 = _sync_time(lambda: sr.dot3(U, U, sr.plus_pair, mask=U))
    s, t5 = _sync_time(lambda: int(sr.reduce_scalar(C)))
    D, t6 = _sync_time(lambda: tri._oriented(G, "degree"))
    C2, t7 = _sync_time(lambda: sr.dot3(D, D, sr.plus_pair, mask=D))
    s2 = int(sr.reduce_scalar(C2))
    print(f"  dot3 phases: undirected {t1 * 1e3:.1f} ms, oriented U {t2 * 1e3:.1f} ms "
          f"(U: {U.nvals} entries, longest row {int(xp.diff(U.indptr).max())}), "
          f"dot3 {t4 * 1e3:.1f} ms (C: {C.nvals} entries), sum {t5 * 1e3:.1f} ms; count {s}; "
          f"downward D (longest row {int(xp.diff(D.indptr).max())}): oriented "
          f"{t6 * 1e3:.1f} ms, dot3 {t7 * 1e3:.1f} ms, count {s2}", flush=True)
    if xp is np:
        return
    from semiring.backend.gpu import dot3 as gdot3  # noqa: PLC0415  (GPU only: after --cpu)
    default = gdot3.BINS
    try:
        for bins in BINS_ALTERNATIVES:
            gdot3.BINS = bins
            _, best, _ = _best(lambda: sr.dot3(U, U, sr.plus_pair, mask=U), 2)
            print(f"  dot3 of U with BINS={bins}: {best * 1e3:.1f} ms", flush=True)
    finally:
        gdot3.BINS = default


def _bc(name, A, reps):
    deg = sr.to_device(xp.diff(A.indptr), "cpu") if xp is not np else np.diff(A.indptr)
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
    a, b = xp.nan_to_num(r), xp.nan_to_num(r2)
    err = float(xp.max(xp.abs(a - b) / xp.maximum(xp.abs(b), 1.0)))
    print(f"  bc {name} batch path (SpMV per level, SPMV_MAX_BATCH={centrality.SPMV_MAX_BATCH}):"
          f" {t2 * 1e3:.2f} ms; largest relative difference {err:.2e}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graphs", nargs="*", default=["kron-20:dot3,dot", "kron-22:dot3"])
    ap.add_argument("--bc", action="store_true")
    ap.add_argument("--phases", action="store_true")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--budget", type=float, default=80.0)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    global xp
    if args.cpu:
        xp = np
    else:
        import cupy  # noqa: PLC0415  (CuPy: only without --cpu, a GPU machine)
        xp = cupy
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
        if xp is not np:
            xp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
