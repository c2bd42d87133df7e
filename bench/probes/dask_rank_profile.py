"""Where a fused SPMD rank loop's time goes (issue 18): kron-(scale) on W GPU workers, each
rank's BFS levels, Bellman–Ford rounds ("sssp"), near–far rounds ("near_far") and component
forests timed step by step.

    PYTHONPATH=. python3 bench/probes/dask_rank_profile.py --out DIR [--scale 24]
        [--workers 1,4] [--ops bfs,sssp,near_far,cc] [--reps 3]

On every rank the steps the loops call (``semiring.blocks``' functions, the all-gather
``algorithms.dist._spmd._gather_equal``, ``semiring.connectivity.weak_components``) are
wrapped by a timer that synchronizes the device before and after each call: the sum per
step (its launches' host cost plus its device time; an all-gather's time includes waiting
for the slowest rank), its calls, and the loop's time with and without the timers. Also
each rank's cost of ``kernels.num_sms`` (every device attribute read) and of the kept grid.
Writes DIR/dask_rank_profile.json after every row.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import time
import traceback

import numpy as np

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast stays off (KINDS.md)

BLOCK_STEPS = ("send_buffer", "bfs_push", "bfs_pull", "bits_list", "join_bits", "heads",
               "relax_pull", "relax_push", "pack_changed", "unpack_changed", "component_roots",
               "split_buffer", "near_split", "split_heads")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=24)
    ap.add_argument("--workers", default="1,4")
    ap.add_argument("--ops", default="bfs,sssp,cc")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--budget", type=float, default=150.0)
    ap.add_argument("--device", choices=("gpu", "cpu"), default="gpu")
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    T0 = time.perf_counter()
    from algorithms.dist import _local, _spmd
    from semiring import dist
    from bench import dask_suite as DS

    dev, scale = args.device, args.scale
    Ws = [int(w) for w in args.workers.split(",")]
    rows = []
    os.makedirs(args.out, exist_ok=True)

    def rec(**r):
        rows.append(r)
        print("ROW", json.dumps(r), flush=True)
        with open(os.path.join(args.out, "dask_rank_profile.json"), "w") as f:
            json.dump({"argv": vars(args), "rows": rows}, f, indent=1)

    client = dist.local_cluster(max(Ws), device=dev)
    A0 = DS.kron_graph(scale, "cpu" if dev == "cpu" else dev)
    deg = np.diff(DS.host(A0.indptr))
    del A0
    gc.collect()
    src = int(np.flatnonzero(deg > 0)[np.random.default_rng(1).integers((deg > 0).sum())])
    for W in Ws:
        if time.perf_counter() - T0 > args.budget:
            rec(W=W, skipped="budget")
            break
        try:
            DA, tgen = DS.make_dist(client, functools.partial(DS.kron_chunk, scale, dev),
                                    1 << scale, W, dev, chunks=True)
            rec(W=W, case="setup", seconds=tgen)
            if W == 1:
                _local.WHOLE_ON_ONE_WORKER, _spmd.ONE_PARTITION = False, True
            # the fused loops, whatever the policy picks
            _spmd.BFS_LEVELS, _spmd.ROUNDS, _spmd.COMPONENTS = "fused", "fused", "forests"
            for op in args.ops.split(","):
                fn = {"bfs": _spmd.bfs_level_loop, "sssp": _spmd.bellman_ford_loop,
                      "cc": _spmd.components_loop,
                      "near_far": lambda: _spmd.near_far_rank}[op]()
                a = _args(op, src, DA)
                got = DA.call_spmd(_profile_rank, (fn, a, args.reps), keep=False)
                rec(W=W, case=op, loop=getattr(fn, "__name__", repr(fn)), ranks=got)
        except Exception:  # noqa: BLE001 (recorded; the next W still runs)
            rec(W=W, error=traceback.format_exc())
        finally:
            _local.WHOLE_ON_ONE_WORKER, _spmd.ONE_PARTITION = True, False
            DA = None
            gc.collect()
    for r in rows:
        for k, rk in enumerate(r.get("ranks", [])):
            steps = " ".join(f"{s}={v[0] * 1e3:.3f}/{v[1]}" for s, v in
                             sorted(rk["steps"].items(), key=lambda x: -x[1][0]))
            print(f"P W={r['W']} {r['case']} rank {k}: loop {rk['loop_s'] * 1e3:.3f} ms, timed "
                  f"{rk['timed_s'] * 1e3:.3f} ms | {steps} | num_sms {rk['num_sms_us']:.1f} us, "
                  f"grid {rk['grid_us']:.2f} us", flush=True)
    client.close()
    client.cluster.close()


def _args(op, src, DA):
    if op == "bfs":
        from algorithms.dist.bfs import ALPHA, BETA
        return (src, False, "auto", False, ALPHA, BETA, False)
    if op == "sssp":
        from algorithms.dist.sssp import PULL_FRACTION, _types
        out, work = _types(DA, "sssp")
        return (src, work, "auto", PULL_FRACTION, None, out, False)
    if op == "near_far":
        import importlib
        return (*importlib.import_module("algorithms.dist.sssp").near_far_args(DA, src), False)
    return (False, False)


def _profile_rank(rank, fn, args, reps):
    """(On a rank.) The loop's median seconds, then once more with every step timed."""
    import semiring as sr
    from algorithms.dist import _spmd
    from semiring import kernels

    gpu = rank.device == "gpu"
    if gpu:
        import cupy
        sync = cupy.cuda.Device().synchronize
    else:
        def sync():
            return None
    ts = []
    for _ in range(reps + 1):
        sync()
        t = time.perf_counter()
        fn(rank, *args)
        sync()
        ts.append(time.perf_counter() - t)
    steps = {}

    def timer(name, f):
        @functools.wraps(f)
        def w(*a, **k):
            sync()
            t = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                sync()
                s = steps.setdefault(name, [0.0, 0])
                s[0] += time.perf_counter() - t
                s[1] += 1
        return w

    saved = [(sr.blocks, s, getattr(sr.blocks, s)) for s in BLOCK_STEPS]
    saved += [(_spmd, "_gather_equal", _spmd._gather_equal),
              (_spmd, "_join_forests", _spmd._join_forests),
              (sr.connectivity, "weak_components", sr.connectivity.weak_components)]
    try:
        for mod, name, f in saved:
            setattr(mod, name, timer(name, f))
        sync()
        t = time.perf_counter()
        fn(rank, *args)
        sync()
        timed = time.perf_counter() - t
    finally:
        for mod, name, f in saved:
            setattr(mod, name, f)
    num_sms_us = grid_us = 0.0
    if gpu:
        from semiring.backend.gpu import blocks as gb
        t = time.perf_counter()
        for _ in range(20):
            kernels.num_sms(cupy.cuda.Device().id)
        num_sms_us = (time.perf_counter() - t) / 20 * 1e6
        t = time.perf_counter()
        for _ in range(200):
            gb._full_grid()
        grid_us = (time.perf_counter() - t) / 200 * 1e6
    return {"loop_s": float(np.median(ts[1:])), "timed_s": timed, "steps": steps,
            "num_sms_us": num_sms_us, "grid_us": grid_us,
            "exchange": rank.exchange}


if __name__ == "__main__":
    main()
