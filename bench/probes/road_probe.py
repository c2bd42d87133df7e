"""SSSP and BFS on road-like (high-diameter) graphs on the GPU (a device probe, not a test).

    PYTHONPATH=. python3 bench/probes/road_probe.py [--graphs grid-2048x2048 rgg-22]
        [--scales 1 2 4 8 16] [--reps 5] [--others kron-20 urand-20]

For each graph (bench.generators, generated on the GPU, a random source of nonzero degree):
SciPy's Dijkstra and BFS once (the reference answers and the peers' times), then best-of-reps
of: delta_stepping with the host-driven buckets (DEVICE_LOOP = "never": the rounds before the
device loop), delta_stepping with the device loop (sr.traversal.sssp_grid, the near–far pile in
one launch) at the default Δ, bellman_ford on the device, and the device loop at Δ =
scale · max w for each scale (rounds, buckets, edges relaxed, µs a round); then BFS
(algorithms.bfs) and bfs_grid at 1 and 2 blocks a multiprocessor, with µs a level. Every
answer is checked against SciPy's. ``--others`` times the host buckets against the device loop
on other graphs (the policy's degree threshold: which graphs the device loop should take).
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import time

import cupy as cp
import numpy as np
import scipy.sparse.csgraph as csg

import algorithms
import semiring as sr
from bench import generators as gen

sssp_module = importlib.import_module("algorithms.sssp")


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


def host(a):
    a = a[0] if isinstance(a, tuple) else a
    return a.get() if hasattr(a, "get") else np.asarray(a)


def check(name, got, ref):
    got = host(got).astype(np.float64)
    ok = np.array_equal(np.where(np.isinf(ref), np.inf, got), ref) and np.array_equal(
        np.isinf(got), np.isinf(ref))
    if not ok:
        bad = np.flatnonzero(got != ref)
        print(f"    MISMATCH {name}: {bad.size} vertices differ, e.g. {bad[:5].tolist()} "
              f"got {got[bad[:5]].tolist()} want {ref[bad[:5]].tolist()}")
    return "ok" if ok else "WRONG"


def with_loop(mode, fn):
    def run():
        old = sssp_module.DEVICE_LOOP
        sssp_module.DEVICE_LOOP = mode
        try:
            return fn()
        finally:
            sssp_module.DEVICE_LOOP = old
    return run


def graph(spec):
    t = time.perf_counter()
    S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp, cache_dir=None)
    A = sr.Matrix.from_cupyx(S)
    H = S.get()
    deg = np.diff(H.indptr)
    source = int(np.random.default_rng(0).choice(np.flatnonzero(deg > 0)))
    print(f"{spec}: n {A.nrows}, m {A.nvals}, source {source}, made in "
          f"{time.perf_counter() - t:.1f} s")
    return A, H, source


def road(spec, scales, reps, blocks):
    A, H, source = graph(spec)
    t = time.perf_counter()
    ref = csg.dijkstra(H, directed=True, indices=source)
    t_dij = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    csg.breadth_first_order(H, source, directed=True, return_predecessors=False)
    t_bfs = (time.perf_counter() - t) * 1e3
    lv = csg.shortest_path(H, method="D", unweighted=True, indices=source)
    print(f"  scipy dijkstra {t_dij:.0f} ms (once), breadth_first_order {t_bfs:.1f} ms (once); "
          f"max dist {ref[np.isfinite(ref)].max():.0f}, depth {lv[np.isfinite(lv)].max():.0f}")
    wmax = float(A.values.max())
    sym = True
    rows = [
        ("delta host buckets", with_loop("never", lambda: algorithms.delta_stepping(A, source, symmetric=sym))),
        ("delta device loop", with_loop("always", lambda: algorithms.delta_stepping(A, source, symmetric=sym))),
        ("bellman_ford device", with_loop("always", lambda: algorithms.bellman_ford(A, source, symmetric=sym))),
    ]
    for name, fn in rows:
        ms, out = best(fn, reps)
        print(f"  sssp {name:22s} {ms:8.2f} ms  {t_dij / ms:6.1f}x scipy  {check(name, out, ref)}")
    old_b = sr.traversal.SSSP_GRID_BLOCKS_PER_SM
    for b in blocks:
        sr.traversal.SSSP_GRID_BLOCKS_PER_SM = b
        for s in scales:
            delta = s * wmax
            ms, (d, info) = best(lambda: sr.traversal.sssp_grid(A, source, delta), reps)
            r = info["rounds"]
            print(f"  sssp_grid {b} block/SM delta {s:4g}*max w {ms:7.2f} ms {t_dij / ms:5.1f}x "
                  f"rounds {r:5d} buckets {info['buckets']:4d} edges {info['edges'] / A.nvals:5.2f} m "
                  f"{1e3 * ms / max(r, 1):5.2f} us/round  {check('grid', d, ref)}")
    sr.traversal.SSSP_GRID_BLOCKS_PER_SM = old_b
    lref = np.where(np.isinf(lv), -1, lv)
    ms, out = best(lambda: algorithms.bfs(A, source, symmetric=sym), reps)
    ok = "ok" if np.array_equal(host(out), lref) else "WRONG"
    print(f"  bfs algorithms.bfs       {ms:8.2f} ms  {t_bfs / ms:6.1f}x scipy  {ok}")
    old = sr.traversal.BFS_GRID_BLOCKS_PER_SM
    for b in (1, 2):
        sr.traversal.BFS_GRID_BLOCKS_PER_SM = b
        ms, (level, _, info) = best(lambda: sr.traversal.bfs_grid(A, source, symmetric=sym), reps)
        ok = "ok" if np.array_equal(host(level), lref) else "WRONG"
        print(f"  bfs_grid {b} block/SM      {ms:8.2f} ms  {t_bfs / ms:6.1f}x  levels "
              f"{info['levels']} ({info['push']} push, {info['pull']} pull) "
              f"{1e3 * ms / info['levels']:.2f} us/level  {ok}")
    sr.traversal.BFS_GRID_BLOCKS_PER_SM = old
    # one block runs the levels (push_levels: __syncthreads between levels, no grid barrier)
    # until a frontier outgrows its queue (QUEUE vertices)
    def block_levels():
        level = cp.full(A.nrows, -1, dtype=cp.int64)
        level[source] = 0
        return sr.traversal.push_levels(A, level, cp.asarray([source]), 0, max_edges=2**31 - 1)
    ms, (status, depth, levels) = best(block_levels, reps)
    print(f"  bfs push_levels (1 block)  {ms:8.2f} ms  {status} after {levels} levels "
          f"{1e3 * ms / max(levels, 1):.2f} us/level")


def ab(spec, scales, reps, blocks):
    A, H, source = graph(spec)
    wmax = float(A.values.max())
    for b in blocks:
        sr.traversal.SSSP_GRID_BLOCKS_PER_SM = b
        for s in scales:
            ms, (d, info) = best(lambda: sr.traversal.sssp_grid(A, source, s * wmax), reps)
            print(f"  sssp_grid {b} block/SM delta {s:4g}*max w {ms:7.2f} ms rounds {info['rounds']}")
    for b in (1, 2):
        sr.traversal.BFS_GRID_BLOCKS_PER_SM = b
        ms, (level, _, info) = best(lambda: sr.traversal.bfs_grid(A, source, symmetric=True), reps)
        print(f"  bfs_grid {b} block/SM      {ms:8.2f} ms  {1e3 * ms / info['levels']:.2f} us/level")


def others(spec, reps, scales, blocks):
    A, H, source = graph(spec)
    ref = csg.dijkstra(H, directed=True, indices=source)
    for name, mode in (("host buckets", "never"), ("device loop", "always")):
        ms, out = best(with_loop(mode, lambda: algorithms.delta_stepping(A, source, symmetric=True)), reps)
        print(f"  sssp delta {name:14s} {ms:8.2f} ms  {check(name, out, ref)}")
    wmax = float(A.values.max())
    for b in blocks:
        for s in scales:
            ms, (d, info) = best(lambda: sr.traversal.sssp_grid(A, source, s * wmax,
                                                                blocks_per_sm=b), reps)
            print(f"  sssp_grid {b} block/SM delta {s:4g}*max w {ms:7.2f} ms rounds "
                  f"{info['rounds']} buckets {info['buckets']} edges {info['edges'] / A.nvals:.2f} m "
                  f"{check('grid', d, ref)}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graphs", nargs="*", default=["grid-2048x2048", "rgg-22"])
    p.add_argument("--scales", nargs="*", type=float, default=[1, 2, 4, 8, 16])
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--others", nargs="*", default=[])
    p.add_argument("--other-scales", nargs="*", type=float, default=[],
                   help="sssp_grid's delta scales on the --others graphs")
    p.add_argument("--blocks", nargs="*", type=int, default=[2], help="sssp_grid blocks a multiprocessor")
    p.add_argument("--ab", action="store_true", help="also time with -DSR_GRID_SAMPLES_ALL=1 "
                   "(every block loads the frontier's samples every level)")
    a = p.parse_args()
    name = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    print(f"device: {name or cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    t = time.perf_counter()
    for spec in a.graphs:
        road(spec, a.scales, a.reps, a.blocks)
        print(f"  (elapsed {time.perf_counter() - t:.0f} s)", flush=True)
    if a.ab:
        from semiring.backend.gpu import traversal as gt  # noqa: PLC0415  (the module's options)
        gt.GRID_OPTIONS = gt.GRID_OPTIONS + ("-DSR_GRID_SAMPLES_ALL=1",)
        print("with -DSR_GRID_SAMPLES_ALL=1 (every block loads the samples every level):")
        for spec in a.graphs:
            ab(spec, a.scales, a.reps, a.blocks)
        print(f"  (elapsed {time.perf_counter() - t:.0f} s)", flush=True)
    for spec in a.others:
        others(spec, a.reps, a.other_scales, a.blocks)
        print(f"  (elapsed {time.perf_counter() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
