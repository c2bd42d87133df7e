"""The SPMD rank loops (algorithms.dist._spmd) on kron-(scale) over 1, 2 and 4 GPU workers
against the one-device algorithm on one worker: strong scaling, BFS first (the fused block
levels against the algebra loop), every result checked against the in-process engine.

    PYTHONPATH=. python3 bench/probes/spmd_ranks.py --out DIR [--scale 24] [--workers 1,2,4]
        [--ops bfs,cc,sssp,pagerank] [--reps 5] [--budget 150]

Writes DIR/spmd_ranks.json after every row (a partial run keeps what it measured). Times:
medians after one warm-up, results kept on the workers (``gather=False``).
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import os
import time
import traceback

import numpy as np

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast stays off (KINDS.md)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=24)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--ops", default="bfs,cc,sssp,pagerank")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=150.0,
                    help="seconds: later worker counts and the algebra loops are skipped after")
    ap.add_argument("--variants", default="fused,algebra",
                    help="the loops to time: fused (BFS_LEVELS / ROUNDS 'fused', COMPONENTS "
                         "'forests'), mirrored "
                         "(COMPONENTS 'mirrored': CC only), nearfar (SSSP only: the near-far "
                         "rank loop, algorithms.dist.sssp.AUTO_METHOD['gpu'] = "
                         "'delta_stepping'; nearfarN: with Δ scaled by N) and algebra (the "
                         "'algebra' / 'labels' loops)")
    ap.add_argument("--weak", default="",
                    help="scale:workers pairs (e.g. 25:2,26:4): weak scaling, the fused loops")
    ap.add_argument("--algebra-ops", default="bfs,cc,sssp",
                    help="the ops whose algebra loops are timed (with --variants algebra)")
    ap.add_argument("--profile", action="store_true",
                    help="also time the fused loops' steps on the ranks "
                         "(bench/probes/dask_rank_profile.py), once each")
    ap.add_argument("--device", choices=("gpu", "cpu"), default="gpu")
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    T0 = time.perf_counter()
    import semiring as sr  # noqa: F401
    import algorithms
    import algorithms.dist as ad
    from algorithms.dist import _local, _spmd
    from semiring import dist
    from bench import dask_suite as DS
    AUTO_METHOD = dict(importlib.import_module("algorithms.dist.sssp").AUTO_METHOD)
    DELTA_SCALE = importlib.import_module("algorithms.dist.sssp").NEAR_FAR_DELTA_SCALE

    dev, scale = args.device, args.scale
    Ws = [int(w) for w in args.workers.split(",")]
    ops = args.ops.split(",")
    variants = args.variants.split(",")
    weak = [tuple(int(x) for x in p.split(":")) for p in args.weak.split(",") if p]
    rows, info = [], {"argv": vars(args)}
    os.makedirs(args.out, exist_ok=True)
    host = DS.host
    if dev == "gpu":
        import cupy

    def save():
        with open(os.path.join(args.out, "spmd_ranks.json"), "w") as f:
            json.dump({"info": info, "rows": rows}, f, indent=1)

    def rec(**r):
        rows.append(r)
        print("ROW", json.dumps(r), flush=True)
        save()

    def sync():
        if dev == "gpu":
            cupy.cuda.Device().synchronize()

    def timed(fn, sync_here=False):
        t = time.perf_counter()
        fn()
        if sync_here:
            sync()
        first = time.perf_counter() - t
        reps = max(1, min(args.reps, int(3.0 / max(first, 1e-6))))
        ts = []
        for _ in range(reps):
            t = time.perf_counter()
            fn()
            if sync_here:
                sync()
            ts.append(time.perf_counter() - t)
        return float(np.median(ts)), reps

    def call(op, DA, src, gather=False, **kw):
        f = {"bfs": functools.partial(ad.bfs, DA, src, **kw),
             "sssp": functools.partial(ad.sssp, DA, src),
             "pagerank": functools.partial(ad.pagerank, DA),
             "cc": functools.partial(ad.connected_components, DA)}[op]
        out = f(gather=gather)
        if gather:
            return out
        for o in (out if isinstance(out, tuple) else (out,)):
            o.wait()
        return out

    client = dist.local_cluster(max(Ws + [w for _, w in weak]), device=dev)
    print("cluster up", round(time.perf_counter() - T0, 1), flush=True)
    graph = f"kron-{scale}"

    def reference(scale):
        """(source, answers) of the in-process engine on kron-(scale); its times recorded."""
        A0 = DS.kron_graph(scale, dev)
        M = sr.Matrix.from_cupyx(A0) if dev == "gpu" else sr.Matrix.from_scipy(A0, device="cpu")
        deg = np.diff(host(A0.indptr))
        del A0
        src = int(np.flatnonzero(deg > 0)[np.random.default_rng(1).integers((deg > 0).sum())])
        ref = {"bfs": host(algorithms.bfs(M, src))}
        rl, rp = algorithms.bfs(M, src, parents=True, deterministic=True)
        ref["bfs_parents"] = host(rp)
        for op in ops:
            if op != "bfs":
                ref[op] = host({"sssp": lambda: algorithms.sssp(M, src),
                                "cc": lambda: algorithms.connected_components(M),
                                "pagerank": lambda: algorithms.pagerank(M, weighted=False)}[op]())
        for op in ops:
            fn = DS.inprocess_op(op, M, src) if op != "pagerank" else (
                lambda: algorithms.pagerank(M, weighted=False))
            t, reps = timed(fn, sync_here=True)
            rec(graph=f"kron-{scale}", case=op, path="in-process", workers=0, seconds=t, reps=reps)
        info[f"kron-{scale}"] = dict(n=int(M.nrows), nnz=int(M.nvals), source=src)
        del M, rl, rp
        gc.collect()
        if dev == "gpu":
            cupy.get_default_memory_pool().free_all_blocks()
        return src, ref

    src, ref = reference(scale)

    def stats(DA):
        return DA.call_spmd(_rank_stats, (True,), keep=False)

    def measure(DA, W, op, path, **kw):
        st = stats(DA)
        got = call(op, DA, src, gather=True, **kw)
        if op == "pagerank":
            ok = float(np.abs(host(got) - ref[op]).max())
        elif op == "bfs" and kw.get("parents"):
            ok = bool(np.array_equal(host(got[0]), ref["bfs"])
                      and np.array_equal(host(got[1]), ref["bfs_parents"]))
        else:
            ok = bool(np.array_equal(host(got), ref[op]))
        stats(DA)
        t, reps = timed(lambda: call(op, DA, src, **kw))
        st = stats(DA)
        extra = {}
        if path.startswith("spmd") and op in RANK_ARGS and not kw:
            # the loop alone, timed on the ranks (no mesh call, no client): the rest of a
            # call's time is the call itself
            fn = {"bfs": _spmd.bfs_level_loop, "sssp": functools.partial(_sssp_loop, dev),
                  "cc": _spmd.components_loop}[op]()
            args_ = RANK_ARGS[op](src, DA)
            try:
                extra["rank_loop_s"] = max(DA.call_spmd(_timed_rank, (fn, args_, reps),
                                                        keep=False))
            except Exception as err:  # noqa: BLE001 (recorded: the call's time stands)
                extra["rank_loop_error"] = repr(err)
            if args.profile and path != "spmd algebra":
                from bench.probes.dask_rank_profile import _profile_rank
                try:
                    prof = DA.call_spmd(_profile_rank, (fn, args_, 1), keep=False)
                    extra["profile"] = prof
                    for k, rk in enumerate(prof):
                        steps = " ".join(f"{s}={v[0] * 1e3:.3f}/{v[1]}" for s, v in sorted(
                            rk["steps"].items(), key=lambda x: -x[1][0]))
                        print(f"P {graph} {op} W={W} rank {k}: loop {rk['loop_s'] * 1e3:.3f} "
                              f"timed {rk['timed_s'] * 1e3:.3f} ms | {steps} | num_sms "
                              f"{rk['num_sms_us']:.1f} us grid {rk['grid_us']:.2f} us",
                              flush=True)
                except Exception as err:  # noqa: BLE001 (recorded)
                    extra["profile_error"] = repr(err)
        rec(graph=graph, case=op + ("+parents" if kw.get("parents") else ""), path=path, workers=W,
            seconds=t, reps=reps, equal=ok, exchange=st[0][0],
            allgathers=st[0][1] // (reps + 1), exchange_s=max(s[2] for s in st) / (reps + 1),
            **extra)

    def run_workers(scale, Ws, variants):
        for W in Ws:
            if time.perf_counter() - T0 > args.budget:
                info.setdefault("skipped", []).append(f"W={W}: budget")
                save()
                break
            try:
                t = time.perf_counter()
                DA, tgen = DS.make_dist(client, functools.partial(DS.kron_chunk, scale, dev),
                                        1 << scale, W, dev, chunks=True)
                rec(graph=graph, case="setup", path="generate+cut", workers=W, seconds=tgen, reps=1)
                if W == 1:
                    for op in ops:
                        measure(DA, W, op, "one worker, one-device algorithm")
                    _local.WHOLE_ON_ONE_WORKER, _spmd.ONE_PARTITION = False, True
                # the fused loops first, then the algebra ones (skipped once over budget)
                for variant in variants:
                    # "mirrored": the forests on each rank's edges stored both ways
                    fused = variant != "algebra"
                    _spmd.BFS_LEVELS = "fused" if fused else "algebra"
                    _spmd.ROUNDS = "fused" if fused else "algebra"
                    _spmd.COMPONENTS = "mirrored" if variant == "mirrored" else (
                        "forests" if fused else "labels")
                    # nearfarN: the near-far loop with Δ scaled by N (the rule's
                    # NEAR_FAR_DELTA_SCALE, read on the ranks)
                    client.run(_set_attr, "algorithms.dist.sssp", "NEAR_FAR_DELTA_SCALE",
                               float(variant[7:]) if variant.startswith("nearfar") and
                               variant[7:] else DELTA_SCALE)
                    dsssp = importlib.import_module("algorithms.dist.sssp")
                    dsssp.AUTO_METHOD[dev] = ("delta_stepping" if variant.startswith("nearfar")
                                              else AUTO_METHOD[dev])
                    for op in ops:
                        if variant == "mirrored" and op != "cc":
                            continue   # the same loops as "fused"
                        if variant.startswith("nearfar") and op != "sssp":
                            continue
                        if variant == "algebra" and op not in args.algebra_ops.split(","):
                            continue
                        if variant == "algebra" and time.perf_counter() - T0 > args.budget:
                            info.setdefault("skipped", []).append(f"W={W} {op} algebra: budget")
                            continue
                        if op == "pagerank" and variant == "algebra":
                            continue
                        path = "spmd" if op == "pagerank" else f"spmd {variant}"
                        measure(DA, W, op, path)
                        if op == "bfs":
                            measure(DA, W, op, path, parents=True, deterministic=True)
            except Exception:  # noqa: BLE001 (recorded; the next W still runs)
                info.setdefault("errors", []).append({"W": W, "error": traceback.format_exc()})
                print("ERROR", W, traceback.format_exc(), flush=True)
                save()
            finally:
                _local.WHOLE_ON_ONE_WORKER, _spmd.ONE_PARTITION = True, False
                _spmd.BFS_LEVELS = _spmd.ROUNDS = "fused"
                _spmd.COMPONENTS = "forests"
                importlib.import_module("algorithms.dist.sssp").AUTO_METHOD[dev] = AUTO_METHOD[dev]
                client.run(_set_attr, "algorithms.dist.sssp", "NEAR_FAR_DELTA_SCALE",
                           DELTA_SCALE)
                DA = None
                gc.collect()
                if dev == "gpu":
                    client.run(_free_pool)

    run_workers(scale, Ws, variants)
    for sc, W in weak:
        if time.perf_counter() - T0 > args.budget:
            info.setdefault("skipped", []).append(f"weak kron-{sc} W={W}: budget")
            save()
            continue
        graph = f"kron-{sc}"
        src, ref = reference(sc)
        run_workers(sc, [W], [v for v in variants if v != "algebra"] or ["fused"])
    # a call with gather=False returns once the workers' futures are done, which need not
    # wait for their GPUs (a loop with no host read, e.g. CC on one rank): where the loop
    # timed on the ranks with its device synchronized took longer, that time counts
    get = {(r["graph"], r["case"], r["path"], r["workers"]):
           max(r["seconds"], r.get("rank_loop_s") or 0.0) for r in rows}
    g0 = f"kron-{scale}"
    eff = {}
    for op in ops:
        base = get.get((g0, op, "one worker, one-device algorithm", 1))
        for W in Ws:
            for path in (["spmd"] if op == "pagerank" else
                         ["spmd fused", "spmd mirrored", "spmd algebra"] +
                         [f"spmd {v}" for v in variants if v.startswith("nearfar")]):
                t = get.get((g0, op, path, W))
                if base and t:
                    eff[f"strong {op} {path} W={W}"] = round(base / (W * t), 3)
        for sc, W in weak:
            for path in (["spmd"] if op == "pagerank" else
                         ["spmd fused", "spmd mirrored"] +
                         [f"spmd {v}" for v in variants if v.startswith("nearfar")]):
                t = get.get((f"kron-{sc}", op, path, W))
                if base and t:
                    eff[f"weak {op} {path} kron-{sc} W={W}"] = round(base / t, 3)
    info["efficiency_vs_one_device_one_worker"] = eff
    info["total_s"] = round(time.perf_counter() - T0, 1)
    save()
    for r in rows:  # the table: graph, case, path, workers, ms, the loop on the ranks, equal
        loop = r.get("rank_loop_s")
        print(f"T {r['graph']} {r['case']} | {r['path']} | W={r['workers']} | "
              f"{r['seconds'] * 1e3:.3f} ms | loop {'' if loop is None else f'{loop * 1e3:.3f}'}"
              f" | {r.get('exchange', '')} ag={r.get('allgathers', '')} "
              f"ex={r.get('exchange_s', 0) * 1e3:.2f} | {r.get('equal', '')}", flush=True)
    print(json.dumps(eff, indent=1), flush=True)
    client.close()
    client.cluster.close()


def _bfs_args(src, DA):
    from algorithms.dist.bfs import ALPHA, BETA
    return (src, False, "auto", False, ALPHA, BETA, False)


def _sssp_args(src, DA):
    import importlib
    dsssp = importlib.import_module("algorithms.dist.sssp")
    if dsssp.AUTO_METHOD[DA.device] == "delta_stepping":   # the near–far loop (_sssp_loop)
        return (*dsssp.near_far_args(DA, src), False)
    out, work = dsssp._types(DA, "sssp")
    return (src, work, "auto", dsssp.PULL_FRACTION, None, out, False)


def _sssp_loop(device="gpu"):
    """The rank loop that ``algorithms.dist.sssp``'s method 'auto' runs on ``device``."""
    import importlib
    from algorithms.dist import _spmd
    if importlib.import_module("algorithms.dist.sssp").AUTO_METHOD[device] == "delta_stepping":
        return _spmd.near_far_rank
    return _spmd.bellman_ford_loop()


#: The rank functions' arguments as algorithms.dist passes them (gather=False).
RANK_ARGS = {"bfs": _bfs_args, "sssp": _sssp_args, "cc": lambda src, DA: (False, False)}


def _timed_rank(rank, fn, args, reps):
    """(On a rank.) The median seconds of ``fn(rank, *args)``, the device synchronized."""
    sync = (lambda: None)
    if rank.device == "gpu":
        import cupy
        sync = cupy.cuda.Device().synchronize
    ts = []
    for _ in range(max(1, reps)):
        sync()
        t = time.perf_counter()
        fn(rank, *args)
        sync()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts))


def _set_attr(module, name, value):
    """(On a worker.) module.name = value."""
    setattr(importlib.import_module(module), name, value)
    return value


def _free_pool():
    import cupy
    gc.collect()
    cupy.get_default_memory_pool().free_all_blocks()
    return cupy.cuda.runtime.memGetInfo()[0]


def _rank_stats(rank, reset):
    out = (rank.exchange, rank.exchanges, rank.exchange_s)
    if reset:
        rank.exchanges, rank.exchange_s = 0, 0.0
    return out


if __name__ == "__main__":
    main()
