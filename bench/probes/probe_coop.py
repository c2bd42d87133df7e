"""push_levels (one block) against push_levels_grid (one persistent cooperative grid) on the
GPU (a device-tool probe, not a test): the fused push levels alone from the source, then the
whole BFS with each, levels (and deterministic parents) checked equal.

    PYTHONPATH=. python3 bench/probes/probe_coop.py                  # grid-2048x2048 and kron-22
    PYTHONPATH=. python3 bench/probes/probe_coop.py kron-20 grid-1024x1024

Each figure: the median of 5 runs after one warm-up. The grid's shape is swept over
GRID_THREADS × GRID_BLOCKS_PER_SM (capped by the kernel's occupancy).
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
from semiring import traversal
from semiring.backend.gpu import traversal as gpu_traversal

BFS = importlib.import_module("algorithms.bfs")


def timed(f, reps=5):
    f()
    ts = []
    for _ in range(reps):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        r = f()
        cp.cuda.Device().synchronize()
        ts.append((time.perf_counter() - t) * 1e3)
    return r, float(np.median(ts))


def fused_run(fn, A, source, parents, **kw):
    """One fused run from the source as the BFS starts it: (status, depth, levels), level, parent."""
    def run():
        level = cp.full(A.nrows, -1, dtype=cp.int64)
        level[source] = 0
        parent = None
        if parents:
            parent = cp.full(A.nrows, -1, dtype=cp.int64)
            parent[source] = source
        out = fn(A, level, cp.asarray([source], dtype=cp.int64), 0, parent=parent,
                 deterministic=parents, max_edges=BFS.FUSED_EDGES, **kw)
        return out, level, parent
    return run


def same(a, b):
    return a is None and b is None or bool((a == b).all())


def main(argv):
    specs = argv or ["grid-2048x2048", "kron-22"]
    dev = cp.cuda.Device()
    coop = cp.cuda.runtime.deviceGetAttribute(cp.cuda.runtime.cudaDevAttrCooperativeLaunch, dev.id)
    print(f"device {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}, "
          f"{dev.attributes['MultiProcessorCount']} SMs, cooperative launch {coop}", flush=True)
    for spec in specs:
        S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp)
        A = sr.Matrix.from_cupyx(S)
        source = int(cp.argmax(cp.diff(A.indptr) > 0))
        print(f"{spec}: n = {A.nrows}, nnz = {A.nvals}, source {source}", flush=True)
        BFS.FUSED_GRID = False
        ref_level = algorithms.bfs(A, source, direction="pull", symmetric=True)
        BFS.FUSED_GRID = True

        def check(out, level):
            """A fused run's levels are the BFS's up to the depth it stopped at."""
            return bool((level == cp.where(ref_level <= out[1], ref_level, -1)).all())

        for parents in (False, True):
            (st_b, lv_b, pa_b), ms_b = timed(fused_run(traversal.push_levels, A, source, parents))
            print(f"  fused  parents={parents!s:5s} block          {ms_b:9.3f} ms  {st_b}"
                  f"  ({1e3 * ms_b / max(1, st_b[2]):.2f} us/level)"
                  f"  {'levels ok' if check(st_b, lv_b) else 'LEVELS WRONG'}", flush=True)
            old = gpu_traversal.GRID_THREADS, gpu_traversal.GRID_BLOCKS_PER_SM
            for threads in (256, 512):
                for per_sm in (1, 2, 4):
                    gpu_traversal.GRID_THREADS, gpu_traversal.GRID_BLOCKS_PER_SM = threads, per_sm
                    (st_g, lv_g, pa_g), ms_g = timed(
                        fused_run(traversal.push_levels_grid, A, source, parents))
                    # the block hands back 'overflow' past 8192 vertices, the grid later:
                    # the two are compared where they stopped at the same place
                    ok = check(st_g, lv_g)
                    if st_g == st_b:
                        ok = ok and same(lv_g, lv_b) and same(pa_g, pa_b)
                    print(f"  fused  parents={parents!s:5s} grid {threads:4d}×{per_sm}/SM "
                          f"{ms_g:9.3f} ms  {st_g}  ({1e3 * ms_g / max(1, st_g[2]):.2f} us/level)"
                          f"  {'ok' if ok else 'WRONG'}", flush=True)
            gpu_traversal.GRID_THREADS, gpu_traversal.GRID_BLOCKS_PER_SM = old
        ref = None
        for grid in (False, True):
            BFS.FUSED_GRID = grid
            (lv, pa), ms = timed(lambda: algorithms.bfs(A, source, parents=True,
                                                        deterministic=True, symmetric=True))
            ref = (lv, pa) if ref is None else ref
            ok = bool((lv == ref[0]).all() and (pa == ref[1]).all())
            print(f"  bfs    FUSED_GRID={grid!s:5s}  {ms:9.3f} ms  "
                  f"{'equal' if ok else 'MISMATCH'}"
                  f"{'  (grid unavailable: ' + BFS._grid_unavailable + ')' if BFS._grid_unavailable else ''}",
                  flush=True)
            (lv2), ms2 = timed(lambda: algorithms.bfs(A, source, symmetric=True))
            print(f"  bfs    FUSED_GRID={grid!s:5s}  {ms2:9.3f} ms  (levels only)  "
                  f"{'equal' if bool((lv2 == ref[0]).all()) else 'MISMATCH'}", flush=True)
        BFS.FUSED_GRID = True


if __name__ == "__main__":
    main(sys.argv[1:])
