"""Issue 18's one-GPU measurement: the Dask path with one GPU worker against the in-process
engine on kron-22 (BFS, SSSP, PageRank, connected components), through each way of calling
the worker; then the SPMD form on two GPU worker processes sharing the GPU (a check of the
GPU ranks' exchange, not a scaling figure: one GPU).

    PYTHONPATH=. python3 bench/probes/dask_one_gpu.py --scale 22 --reps 5 [--json out.json]

The worker makes the graph itself (``DistMatrix.from_function``: the same generator and seed
as the in-process copy). Times are medians after one warm-up; ``gather=False`` (the result
kept on the worker, as the in-process result stays on the GPU) unless the path says
'gather'. Paths: 'mesh' (the default: the mesh's socket to the partition's rank),
'actor' (``DistMatrix.call_direct``, a Dask actor), 'task' (one Dask task through the
scheduler).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import time

import numpy as np

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=22)
    ap.add_argument("--check-scale", type=int, default=18)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", default=None)
    ap.add_argument("--skip-two", action="store_true")
    ap.add_argument("--device", choices=("gpu", "cpu"), default="gpu",
                    help="cpu: the same probe on CPU workers (a check of the probe itself)")
    args = ap.parse_args()
    dev = args.device
    import semiring as sr
    import algorithms
    import algorithms.dist as ad
    from algorithms.dist import _local
    from semiring import dist
    from bench import dask_suite as DS

    rows = []
    info = {"device": dev}
    if dev == "gpu":
        import cupy
        info["gpu"] = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print("device", info, flush=True)
    host = DS.host

    def rec(**r):
        rows.append(r)
        print("ROW", json.dumps(r), flush=True)

    def inproc(op, M, src):
        if op == "pagerank":
            return lambda: algorithms.pagerank(M, weighted=False)
        return DS.inprocess_op(op, M, src)

    def distop(op, DA, src, gather=False):
        if op == "bfs":
            f = functools.partial(ad.bfs, DA, src, gather=gather)
        elif op == "sssp":
            f = functools.partial(ad.sssp, DA, src, gather=gather)
        elif op == "pagerank":
            f = functools.partial(ad.pagerank, DA, gather=gather)
        else:
            f = functools.partial(ad.connected_components, DA, gather=gather)

        def run():  # the workers done (a task's result computed; a held one already is)
            out = f()
            return out if gather else out.wait()
        return run

    OPS = ("bfs", "sssp", "pagerank", "cc")
    s = args.scale
    t0 = time.perf_counter()
    A0 = DS.kron_graph(s, dev)
    M = _matrix(sr, A0, dev)
    deg = np.diff(host(A0.indptr))
    del A0
    rng = np.random.default_rng(1)
    cand = np.flatnonzero(deg > 0)
    src = int(cand[rng.integers(cand.size)])
    info.update(graph=f"kron-{s}", n=M.nrows, nnz=int(M.nvals), source=src,
                inprocess_build_s=round(time.perf_counter() - t0, 2))
    print("graph", info, flush=True)
    ref = {}
    for op in OPS:
        t, out = DS.timed(inproc(op, M, src), args.reps if op != "cc" else 3, dev)
        ref[op] = host(out)
        rec(graph=f"kron-{s}", case=op, path="in-process", workers=0, seconds=t)
    del M
    if dev == "gpu":
        cupy.get_default_memory_pool().free_all_blocks()

    t0 = time.perf_counter()
    client = dist.local_cluster(1, device=dev)
    info["cluster_start_s"] = round(time.perf_counter() - t0, 2)
    DA, tgen = DS.make_dist(client, functools.partial(DS.kron_graph, s, dev), 1 << s, 1, dev)
    info["worker_build_s"] = round(tgen, 2)
    print("cluster", info, flush=True)
    ok = {}
    for op in OPS:
        got = host(distop(op, DA, src, gather=True)())
        if op == "pagerank":
            ok[op] = float(np.abs(got - ref[op]).max())
        else:
            ok[op] = bool(np.array_equal(got, ref[op]))
    rec(case="check", graph=f"kron-{s}", workers=1, **ok)
    for path in ("mesh", "actor", "task"):
        _local.DIRECT = path != "task"
        _local.MESH = path == "mesh"
        for op in OPS:
            t, _ = DS.timed(distop(op, DA, src), args.reps if op != "cc" else 3, "cpu")
            rec(graph=f"kron-{s}", case=op, path=path, workers=1, seconds=t)
    _local.DIRECT, _local.MESH = True, True
    for op in ("bfs", "sssp"):
        t, _ = DS.timed(distop(op, DA, src, gather=True), args.reps, "cpu")
        rec(graph=f"kron-{s}", case=op, path="mesh gather", workers=1, seconds=t)
    # the one-device BFS timed on the worker itself (its compute, without the call)
    got = DA.call_spmd(_timed_on_rank, (src, args.reps), keep=False)
    rec(graph=f"kron-{s}", case="bfs", path="on the worker, timed there", workers=1,
        seconds=got[0])
    # the mesh's own floor: a no-op call to the rank, and the actor's
    from semiring.dist import core, _tasks
    for label, f in (("mesh no-op", lambda: DA.call_spmd(core._rank_size, keep=False)),
                     ("actor no-op", lambda: DA.call_direct("cols", 0, _tasks.block_meta,
                                                           keep=False))):
        t, _ = DS.timed(f, 50, "cpu")
        rec(graph=f"kron-{s}", case="floor", path=label, workers=1, seconds=t)
    del DA
    client.close()
    client.cluster.close()

    if not args.skip_two:
        # two GPU worker processes on the one GPU: the SPMD ranks' exchange on CuPy data
        cs = args.check_scale
        A0 = DS.kron_graph(cs, dev)
        M = _matrix(sr, A0, dev)
        deg = np.diff(host(A0.indptr))
        cand = np.flatnonzero(deg > 0)
        src2 = int(cand[rng.integers(cand.size)])
        client = dist.local_cluster(2, device=dev)
        DA, tgen = DS.make_dist(client, functools.partial(DS.kron_graph, cs, dev), 1 << cs, 2,
                                dev)
        ok = {}
        l0, p0 = algorithms.bfs(M, src2, parents=True, deterministic=True)
        l1, p1 = ad.bfs(DA, src2, parents=True, deterministic=True)
        ok["bfs_levels_parents"] = bool(np.array_equal(host(l0), host(l1))
                                        and np.array_equal(host(p0), host(p1)))
        for d in ("push", "pull"):
            ok[f"bfs_{d}"] = bool(np.array_equal(host(l0), host(ad.bfs(DA, src2, direction=d))))
        ok["sssp"] = bool(np.array_equal(host(algorithms.sssp(M, src2)), host(ad.sssp(DA, src2))))
        ok["cc"] = bool(np.array_equal(host(algorithms.connected_components(M)),
                                       host(ad.connected_components(DA))))
        ok["pagerank_maxdiff"] = float(np.abs(host(algorithms.pagerank(M, weighted=False))
                                              - host(ad.pagerank(DA))).max())
        rec(case="check", graph=f"kron-{cs}", workers=2, **ok)
        for op in OPS:
            t, _ = DS.timed(inproc(op, M, src2), 3, dev)
            rec(graph=f"kron-{cs}", case=op, path="in-process", workers=0, seconds=t)
            t, _ = DS.timed(distop(op, DA, src2), 3, "cpu")
            rec(graph=f"kron-{cs}", case=op, path=f"spmd (2 {dev} processes)", workers=2,
                seconds=t)
        client.close()
        client.cluster.close()

    print()
    print("| graph | case | path | workers | ms |")
    print("|---|---|---|---:|---:|")
    for r in rows:
        if "seconds" in r:
            print(f"| {r['graph']} | {r['case']} | {r['path']} | {r['workers']} | "
                  f"{r['seconds'] * 1e3:.2f} |")
    for r in rows:
        if r["case"] == "check":
            print("check", r)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"info": info, "rows": rows}, f, indent=1)


def _timed_on_rank(rank, src, reps):
    """(On the rank.) Median seconds of algorithms.bfs on the rank's block, synchronized."""
    import algorithms
    from bench import dask_suite as DS
    B = rank.block("cols")
    return DS.timed(lambda: algorithms.bfs(B, src), reps, B.device)[0]


def _matrix(sr, A0, dev):
    return sr.Matrix.from_cupyx(A0) if dev == "gpu" else sr.Matrix.from_scipy(A0, device="cpu")


if __name__ == "__main__":
    main()
