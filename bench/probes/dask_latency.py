"""Where the Dask path's per-call latency goes (issue 18): a task's round trip through a
``LocalCluster`` of processes with dask.distributed's batched-send intervals (its defaults)
and without them (:func:`semiring.dist.reduce_latency`), against the direct paths that skip
the scheduler (``client.run``, an actor's method); the round trips and tasks of one
multi-partition BFS; and BFS / SSSP / PageRank on kron graphs, in-process against 1 and 2
Dask workers, before and after.

    PYTHONPATH=. python3 bench/probes/dask_latency.py [--device cpu|gpu] [--scales 16,17,18]
        [--workers 1,2] [--ops bfs,sssp,pagerank] [--skip floor,count,algos]

Prints one line per figure (milliseconds: median of the runs, after one warm-up). The
algorithms run on one cluster per (workers, scale) in the order of ``CONFIGS``: the code as
it was (Dask's batched sends, one task, PageRank's distributed loop on one partition), then
with :func:`semiring.dist.reduce_latency`, then with direct calls (one partition only).
"""

from __future__ import annotations

import argparse
import functools
import time

import numpy as np


def _noop(x=None):
    return 1


def _ones(n):
    return np.ones(n)


def _same(a):
    return a


class _Actor:
    def f(self, x=None):
        return 1


def med(fn, reps=30):
    fn()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)) * 1e3


def floor(dist, workers):
    """The fixed cost of one round trip, by path, intervals at Dask's defaults then at 0."""
    import distributed  # noqa: PLC0415  (optional: the dask extra)

    client = dist.local_cluster(workers, low_latency=False)
    w = sorted(client.nthreads())[0]
    actor = client.submit(_Actor, actor=True, workers=[w]).result()
    import scipy.sparse as sp  # noqa: PLC0415  (a one-partition matrix for call_direct)

    DA = dist.DistMatrix.from_scipy(sp.identity(8, format="csr"), client, nparts=1)
    DA.servers("rows")
    big = client.submit(_ones, 1 << 20, workers=[w], pure=False)
    big.result()
    for label in ("dask defaults", "reduce_latency"):
        if label == "reduce_latency":
            dist.reduce_latency(client)
        res = {
            "submit().result()": med(lambda: client.submit(_noop, pure=False).result()),
            "submit(workers=[w]) + wait": med(lambda: distributed.wait(client.submit(
                _noop, pure=False, workers=[w], allow_other_workers=True))),
            "gather of 8 MB (a task's result)": med(lambda: client.gather(client.submit(
                _same, big, pure=False)), 10),
            "client.run (scheduler broadcast)": med(lambda: client.run(_noop, workers=[w])),
            "actor method (client -> worker)": med(lambda: actor.f().result()),
            "DistMatrix.call_direct (no-op, keep=False)": med(lambda: DA.call_direct(
                "rows", 0, _noop, keep=False)),
        }
        for k, v in res.items():
            print(f"floor workers={workers} [{label}] {k}: {v:.2f} ms", flush=True)
    client.close()
    client.cluster.close()


def count_bfs(dist, ad, kron):
    """Round trips (blocking gathers, results) and tasks of one BFS on 2 partitions."""
    client = dist.local_cluster(2)
    A = kron(12)
    DA = dist.DistMatrix.from_scipy(A, client, nparts=2)
    DA.persist(("rows", "cols"))
    DA.degree("rows").to_dense()
    counts = {"submit": 0, "gather": 0, "result": 0}
    orig = {k: getattr(type(client), k) for k in ("submit", "gather")}
    import distributed  # noqa: PLC0415  (optional: the dask extra)

    orig_result = distributed.Future.result

    def wrap(name, fn):
        def inner(*a, **k):
            counts[name] += 1
            return fn(*a, **k)
        return inner

    type(client).submit = wrap("submit", orig["submit"])
    type(client).gather = wrap("gather", orig["gather"])
    distributed.Future.result = wrap("result", orig_result)
    try:
        for gather in (False, True):
            for k in counts:
                counts[k] = 0
            level = ad.bfs(DA, 0, gather=gather)
            if not gather:
                distributed.wait(level.parts)
                level = level.to_dense(missing=-1)
            depth = int(np.asarray(level).max())
            nbytes = np.asarray(level).nbytes
            print(f"count kron-12 bfs 2 parts gather={gather}: levels {depth}, tasks "
                  f"{counts['submit']}, blocking gathers {counts['gather']} + results "
                  f"{counts['result']}, result to the client {nbytes} bytes", flush=True)
    finally:
        type(client).submit, type(client).gather = orig["submit"], orig["gather"]
        distributed.Future.result = orig_result
    client.close()
    client.cluster.close()


#: The configurations timed, in order on one cluster: (label, reduce_latency, direct calls,
#: PageRank's one-partition task). The first is the code before issue 18's latency work.
CONFIGS = (("before: dask defaults, tasks, PageRank loop", False, False, False),
           ("reduce_latency, tasks", True, False, True),
           ("reduce_latency, direct calls", True, True, True))


def algos(args, dist, DS, sr):
    from algorithms.dist import _local  # noqa: PLC0415  (the switches this probe flips)

    dev = args.device
    for workers in args.workers:
        for scale in args.scales:
            client = dist.local_cluster(workers, device=dev, low_latency=False)
            n = 1 << scale
            DA, setup = DS.make_dist(client, functools.partial(DS.kron_graph, scale, dev),
                                     n, workers, dev)
            deg = DS.host(DA.degree("cols").to_dense())
            src = int(np.flatnonzero(deg > 0)[0])
            if workers == args.workers[0]:
                A0 = DS.kron_graph(scale, dev)
                M = sr.Matrix.from_cupyx(A0) if dev == "gpu" else \
                    sr.Matrix.from_scipy(A0, device="cpu")
                del A0
                for op in args.ops:
                    reps = args.reps if op == "bfs" else max(1, args.reps // 3)
                    t, _ = DS.timed(DS.inprocess_op(op, M, src), reps, dev)
                    print(f"algo kron-{scale} {op} in-process: {t * 1e3:.2f} ms", flush=True)
                del M
            for label, low, direct, pr_whole in CONFIGS:
                if direct and workers > 1:
                    continue  # direct calls serve one partition
                if low:
                    dist.reduce_latency(client)
                _local.DIRECT = direct
                for op in args.ops:
                    _local.WHOLE_ON_ONE_WORKER = pr_whole or op != "pagerank"
                    reps = args.reps if op == "bfs" else max(1, args.reps // 3)
                    t, _ = DS.timed(DS.dist_op(op, DA, src), reps, dev)
                    print(f"algo kron-{scale} {op} dask workers={workers} [{label}]: "
                          f"{t * 1e3:.2f} ms", flush=True)
            _local.DIRECT, _local.WHOLE_ON_ONE_WORKER = True, True
            del DA
            client.close()
            client.cluster.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    ap.add_argument("--scales", default="16,17,18")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--ops", default="bfs,sssp,pagerank")
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--skip", default="")
    args = ap.parse_args()
    args.scales = [int(s) for s in args.scales.split(",")]
    args.workers = [int(w) for w in args.workers.split(",")]
    args.ops = args.ops.split(",")
    skip = set(filter(None, args.skip.split(",")))

    import semiring as sr  # noqa: PLC0415  (after argparse: --help stays quick)
    from semiring import dist  # noqa: PLC0415  (optional: the dask extra)
    import algorithms.dist as ad  # noqa: PLC0415  (optional: the dask extra)
    from bench import dask_suite as DS  # noqa: PLC0415  (after argparse)

    if "floor" not in skip:
        for w in args.workers:
            floor(dist, w)
    if "count" not in skip:
        count_bfs(dist, ad, lambda s: DS.kron_graph(s, "cpu"))
    if "algos" not in skip:
        algos(args, dist, DS, sr)


if __name__ == "__main__":
    main()
