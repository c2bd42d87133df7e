"""BFS on road-like graphs: the barrier-free search (sr.traversal.bfs_async) against the
level-synchronous persistent launch (sr.traversal.bfs_grid) and SciPy (a device probe, not a
test).

    PYTHONPATH=. python3 bench/probes/bfs_async_probe.py [--graphs grid-2048x2048 rgg-22 kron-20]
        [--reps 5] [--per-sm 1 2]

For each graph (bench.generators on the GPU, the source drawn as in road_probe.py): SciPy's
breadth_first_order once (time) and its levels (the reference), then best-of-reps of
algorithms.bfs (the policy's pick), bfs_grid (1 block a multiprocessor on road-like graphs, as
the policy ran it), and bfs_async (each --per-sm, with its local levels, messages and
visits), every answer checked against SciPy's levels.
"""

from __future__ import annotations

import argparse
import subprocess
import time

import cupy as cp
import numpy as np
import scipy.sparse.csgraph as csg

import algorithms
import semiring as sr
from bench import generators as gen
from semiring.backend.gpu import traversal as gt


def best(fn, reps):
    fn()  # warm (compiles, caches)
    ts = []
    for _ in range(reps):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        out = fn()
        cp.cuda.Device().synchronize()
        ts.append((time.perf_counter() - t) * 1e3)
    return min(ts), out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graphs", nargs="*", default=["grid-2048x2048", "rgg-22", "kron-20"])
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--per-sm", nargs="*", type=int, default=[1])
    p.add_argument("--parents", action="store_true", help="also time parents=True")
    p.add_argument("--timeout", type=float, default=10.0, help="bfs_async's time limit (s)")
    p.add_argument("--ab", action="store_true",
                   help="also time the cw kernel with -DSR_ASYNC_PUBLISH=1 and with 256 threads")
    p.add_argument("--kernels", nargs="*", default=["cw", "inline"],
                   help="bfs_async's kernels to time (backend.gpu.traversal.ASYNC_KERNEL)")
    a = p.parse_args()
    sr.traversal.BFS_ASYNC_TIMEOUT_S = a.timeout
    name = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    print(f"device: {name or cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    t0 = time.perf_counter()
    for spec in a.graphs:
        t = time.perf_counter()
        S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp, cache_dir=None)
        A = sr.Matrix.from_cupyx(S)
        H = S.get()
        deg = np.diff(H.indptr)
        source = int(np.random.default_rng(0).choice(np.flatnonzero(deg > 0)))
        print(f"{spec}: n {A.nrows}, m {A.nvals}, source {source}, made in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
        t = time.perf_counter()
        csg.breadth_first_order(H, source, directed=True, return_predecessors=False)
        t_bfs = (time.perf_counter() - t) * 1e3
        lv = csg.shortest_path(H, method="D", unweighted=True, indices=source)
        ref = np.where(np.isinf(lv), -1, lv).astype(np.int64)
        print(f"  scipy breadth_first_order {t_bfs:.1f} ms (once); depth {ref.max()}")

        def ok(level):
            return "ok" if np.array_equal(level.get(), ref) else "WRONG"
        ms, out = best(lambda: algorithms.bfs(A, source, symmetric=True), a.reps)
        print(f"  algorithms.bfs          {ms:8.2f} ms  {t_bfs / ms:6.1f}x scipy  {ok(out)}")
        road = A.nvals <= 12 * A.nrows
        ms, (level, _, info) = best(lambda: sr.traversal.bfs_grid(
            A, source, symmetric=True, blocks_per_sm=1 if road else None), a.reps)
        print(f"  bfs_grid                {ms:8.2f} ms  {t_bfs / ms:6.1f}x scipy  levels "
              f"{info['levels']} {1e3 * ms / info['levels']:.2f} us/level  {ok(level)}")
        for kern, per_sm in [(k, b) for k in a.kernels for b in a.per_sm]:
            gt.ASYNC_KERNEL = kern
            ms, (level, _, info) = best(lambda: sr.traversal.bfs_async(
                A, source, symmetric=True, blocks_per_sm=per_sm), a.reps)
            print(f"  bfs_async {kern:6s} {per_sm}/SM {ms:8.2f} ms  {t_bfs / ms:6.1f}x scipy  "
                  f"local levels {info['levels']} ({info['levels'] / info['blocks']:.0f} a block, "
                  f"{1e3 * ms / max(1, ref.max()):.2f} us/depth), messages {info['messages']}, "
                  f"visits {info['visits'] / max(1, np.count_nonzero(ref >= 0)):.3f} n, "
                  f"{info['blocks']} blocks of {info['span']}, shared {info['shared']}  {ok(level)}",
                  flush=True)
        gt.ASYNC_KERNEL = a.kernels[0]
        base = (gt.ASYNC_OPTIONS, gt.ASYNC_THREADS)
        variants = [("publish", ("-DSR_ASYNC_PUBLISH=1",), 512),
                    ("256 threads", ("-DSR_ASYNC_THREADS=256",), 256)] if a.ab else []
        for label, opts, threads in variants:
            gt.ASYNC_OPTIONS, gt.ASYNC_THREADS = base[0] + opts, threads
            try:
                ms, (level, _, info) = best(lambda: sr.traversal.bfs_async(
                    A, source, symmetric=True), a.reps)
            finally:
                gt.ASYNC_OPTIONS, gt.ASYNC_THREADS = base
            print(f"  bfs_async {gt.ASYNC_KERNEL} {label:12s} {ms:8.2f} ms  {t_bfs / ms:6.1f}x scipy  "
                  f"messages {info['messages']}, visits "
                  f"{info['visits'] / max(1, np.count_nonzero(ref >= 0)):.3f} n  {ok(level)}",
                  flush=True)
        if a.parents:
            ms, (level, parent, _) = best(lambda: sr.traversal.bfs_async(
                A, source, symmetric=True, parents=True), a.reps)
            print(f"  bfs_async parents       {ms:8.2f} ms  {ok(level)}")
        print(f"  (elapsed {time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
