"""Multi-source BFS (``algorithms.multi_source_bfs``: ``semiring.traversal.msbfs_grid``, 64
sources a launch) against a loop of single-source ``algorithms.bfs`` over the same sources, on
the GPU (a device probe, not a test; issue 20 item 4: the target is ≥ 3× at 64 sources on
kron-20 and kron-22).

    PYTHONPATH=. python3 bench/probes/msbfs_probe.py                 # kron-20 and kron-22
    PYTHONPATH=. python3 bench/probes/msbfs_probe.py kron-18 --sources 64 128 --heavy 1024 4096

Each graph is generated on the GPU (``bench.generators``); the sources are random vertices of
nonzero degree (Graph500's rule). Each figure is the best of 5 runs after a warm-up; levels
alone, then with deterministic parents, each checked equal to the loop's rows. ``--heavy`` and
``--filter`` sweep ``semiring.traversal.MSBFS_HEAVY`` and ``algorithms.bfs.MSBFS_FILTER_DIV``;
each level's time, new vertices and filtering (``f``) are printed from the device's trace.
"""

from __future__ import annotations

import argparse
import importlib
import time

import cupy as cp
import numpy as np

import algorithms
import semiring as sr
from bench import generators as gen
from semiring import traversal

BFS = importlib.import_module("algorithms.bfs")  # the module: algorithms.bfs is the function


def best(f, reps=5):
    r = f()
    ts = []
    for _ in range(reps):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        r = f()
        cp.cuda.Device().synchronize()
        ts.append((time.perf_counter() - t) * 1e3)
    return r, min(ts)


def diff(got, want):
    """'equal', or how many entries differ and the first one (row, vertex, got, want)."""
    bad = got != want
    k = int(bad.sum())
    if not k:
        return "equal"
    j, v = (int(x) for x in cp.argwhere(bad)[0].get())
    return f"MISMATCH: {k} entries, first ({j}, {v}): {int(got[j, v])} != {int(want[j, v])}"


def run_graph(spec, args):
    S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp)
    A = sr.Matrix.from_cupyx(S)
    deg = cp.diff(A.indptr)
    cand = cp.flatnonzero(deg > 0).get()
    print(f"{spec}: n = {A.nrows}, nnz = {A.nvals}, max degree {int(deg.max())}", flush=True)
    for s in args.sources:
        rng = np.random.default_rng(args.seed)
        src = rng.choice(cand, s, replace=cand.size < s).astype(np.int64)
        src_d = cp.asarray(src)

        def loop(parents=False, src=src):
            out = [algorithms.bfs(A, int(v), parents=parents, deterministic=parents,
                                  symmetric=True) for v in src]
            if not parents:
                return cp.stack(out)
            return cp.stack([o[0] for o in out]), cp.stack([o[1] for o in out])

        def multi(parents=False, src_d=src_d):
            return algorithms.multi_source_bfs(A, src_d, parents=parents, deterministic=parents,
                                               symmetric=True)

        loop_lv, t_loop = best(loop)
        for fd in args.filter:
            BFS.MSBFS_FILTER_DIV = fd
            for h in args.heavy:
                traversal.MSBFS_HEAVY = h
                info = {}
                traversal.msbfs_grid(A, src_d, symmetric=True, info=info, trace=True,
                                     filter_div=fd)
                lv, t_ms = best(multi)
                print(f"  s={s:4d} levels   heavy={h:6d} filter_div={fd:3d}  multi_source_bfs "
                      f"{t_ms:8.3f} ms   loop of bfs {t_loop:8.3f} ms   {t_loop / t_ms:6.2f}x   "
                      f"depth {info['depth']} levels {info['levels']}   "
                      f"{diff(lv, loop_lv)}", flush=True)
                if h == args.heavy[0]:
                    for b, rows in enumerate(info["trace"]):
                        print(f"    batch {b}: " + ", ".join(
                            f"{us:.0f} us/{k}{'f' if fl else ''}" for us, k, fl in rows),
                            flush=True)
        traversal.MSBFS_HEAVY = args.heavy[0]
        BFS.MSBFS_FILTER_DIV = args.filter[0]
        # the same search reading Aᵀ (built once, cached): sparse levels filter but never mark
        A.T  # noqa: B018  (the transpose's one-off cost stays out of the timing)
        lv, t_nm = best(lambda src_d=src_d: algorithms.multi_source_bfs(A, src_d, symmetric=False))
        print(f"  s={s:4d} levels   no marks (symmetric=False)  multi_source_bfs {t_nm:8.3f} ms   "
              f"{t_loop / t_nm:6.2f}x   {diff(lv, loop_lv)}", flush=True)
        (llv, lpa), t_lpar = best(lambda: loop(True))
        (mlv, mpa), t_mpar = best(lambda: multi(True))
        print(f"  s={s:4d} parents  heavy={args.heavy[0]:6d}  multi_source_bfs {t_mpar:8.3f} ms   "
              f"loop of bfs {t_lpar:8.3f} ms   {t_lpar / t_mpar:6.2f}x   "
              f"levels {diff(mlv, llv)}, parents {diff(mpa, lpa)}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graphs", nargs="*", default=["kron-20", "kron-22"])
    ap.add_argument("--sources", type=int, nargs="+", default=[64])
    ap.add_argument("--heavy", type=int, nargs="+", default=[traversal.MSBFS_HEAVY],
                    help="values of semiring.traversal.MSBFS_HEAVY to time (the first is kept "
                         "for the parents)")
    ap.add_argument("--filter", type=int, nargs="+", default=[BFS.MSBFS_FILTER_DIV],
                    help="values of algorithms.bfs.MSBFS_FILTER_DIV to time (the first is kept "
                         "for the parents)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    dev = cp.cuda.Device()
    name = cp.cuda.runtime.getDeviceProperties(dev.id)["name"].decode()
    print(f"device {name}, {dev.attributes['MultiProcessorCount']} SMs", flush=True)
    default_heavy, default_filter = traversal.MSBFS_HEAVY, BFS.MSBFS_FILTER_DIV
    try:
        for spec in args.graphs:
            run_graph(spec, args)
            cp.get_default_memory_pool().free_all_blocks()
    finally:
        traversal.MSBFS_HEAVY, BFS.MSBFS_FILTER_DIV = default_heavy, default_filter


if __name__ == "__main__":
    main()
