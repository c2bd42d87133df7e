"""The SPMD form on CPU workers (issue 18): BFS, SSSP, PageRank and connected components on
kron-S with 1, 2 and 3 worker processes (one partition each) against the in-process engine,
the loop form of one task per operation for comparison, and the mesh's all-gather alone
(what a level costs beyond the local product).

    PYTHONPATH=. python3 bench/probes/dask_spmd_cpu.py --scales 16,17,18 --workers 1,2,3

Each cluster's workers make the graph themselves (``DistMatrix.from_function``). Medians of
``--reps`` runs after one warm-up, results kept on the workers (``gather=False``).
"""

from __future__ import annotations

import argparse
import functools
import json
import time

import numpy as np


def _allgather_floor(rank, nbytes, reps):
    """Seconds of one all-gather of ``nbytes`` per rank (median), measured on rank 0."""
    x = np.ones(nbytes, dtype=np.uint8)
    rank.allgather(x)
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        rank.allgather(x)
        ts.append(time.perf_counter() - t)
    return float(np.median(ts))


def _exchange_stats(rank):
    """(On a rank.) The all-gathers it made so far and the seconds they took."""
    return rank.exchanges, rank.exchange_s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", default="16,17,18")
    ap.add_argument("--workers", default="1,2,3")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--loop-scale", type=int, default=16, help="the loop form at this scale only")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()

    import semiring as sr
    import algorithms
    import algorithms.dist as ad
    from algorithms.dist import _spmd
    from semiring import dist
    from bench import dask_suite as DS

    scales = [int(s) for s in args.scales.split(",")]
    workers = [int(w) for w in args.workers.split(",")]
    rows = []

    def rec(**r):
        rows.append(r)
        print("ROW", json.dumps(r), flush=True)

    OPS = ("bfs", "sssp", "pagerank", "cc")

    def distop(op, DA, src):
        f = {"bfs": functools.partial(ad.bfs, DA, src, gather=False),
             "sssp": functools.partial(ad.sssp, DA, src, gather=False),
             "pagerank": functools.partial(ad.pagerank, DA, gather=False),
             "cc": functools.partial(ad.connected_components, DA, gather=False)}[op]
        return lambda: f().wait()

    # every cluster up at once, and the runs interleaved (in-process, 1, 2, 3 workers, then
    # again): on a shared host the load drifts, and each median meets the same drift
    clusters = {W: dist.local_cluster(W) for W in workers}
    for s in scales:
        A0 = DS.kron_graph(s, "cpu")
        M = sr.Matrix.from_scipy(A0, device="cpu")
        deg = np.diff(A0.indptr)
        cand = np.flatnonzero(deg > 0)
        src = int(cand[np.random.default_rng(1).integers(cand.size)])
        DAs = {}
        for W in workers:
            DAs[W], _ = DS.make_dist(clusters[W], functools.partial(DS.kron_graph, s, "cpu"),
                                     1 << s, W, "cpu")
            DAs[W].mesh(("cols", "rows"))
        for op in OPS:
            fns = {0: (lambda: algorithms.pagerank(M, weighted=False)) if op == "pagerank"
                   else DS.inprocess_op(op, M, src)}
            for W in workers:
                fns[W] = distop(op, DAs[W], src)
            ts = {k: [] for k in fns}
            for k, f in fns.items():  # warm-up
                f()
            ex0 = {W: DAs[W].call_spmd(_exchange_stats, keep=False) for W in workers if W > 1}
            for _ in range(args.reps):
                for k, f in fns.items():
                    t = time.perf_counter()
                    f()
                    ts[k].append(time.perf_counter() - t)
            for k in fns:
                rec(graph=f"kron-{s}", case=op, workers=k, seconds=float(np.median(ts[k])),
                    path="in-process" if k == 0 else ("whole (mesh)" if k == 1 else "spmd"))
            for W, before in ex0.items():
                # per run: all-gathers, and the seconds each rank spent in them (min-max)
                after = DAs[W].call_spmd(_exchange_stats, keep=False)
                secs = [(a[1] - b[1]) / args.reps for a, b in zip(after, before)]
                rec(graph=f"kron-{s}", case=op, workers=W, path="spmd: in all-gathers",
                    seconds=min(secs), max_s=max(secs),
                    allgathers=(after[0][0] - before[0][0]) / args.reps)
        for W in workers:
            if W > 1 and s == args.loop_scale:
                _spmd.SPMD = False
                for op in ("bfs", "sssp"):
                    t, _ = DS.timed(distop(op, DAs[W], src), 2, "cpu")
                    rec(graph=f"kron-{s}", case=op, path="loop (a task per op)", workers=W,
                        seconds=t)
                _spmd.SPMD = True
            if W > 1 and s == scales[-1]:
                for nb in (8, 1 << 14, 1 << 17, 1 << 20):
                    got = DAs[W].call_spmd(_allgather_floor, (nb, 20), keep=False)
                    rec(graph="-", case=f"allgather {nb} B/rank", path="mesh", workers=W,
                        seconds=got[0])
        del DAs
    for c in clusters.values():
        c.close()
        c.cluster.close()

    print()
    print("| graph | case | path | workers | ms |")
    print("|---|---|---|---:|---:|")
    for r in rows:
        extra = (f" (max {r['max_s'] * 1e3:.3f}, {r['allgathers']:.0f} all-gathers)"
                 if "max_s" in r else "")
        print(f"| {r['graph']} | {r['case']} | {r['path']} | {r['workers']} | "
              f"{r['seconds'] * 1e3:.3f}{extra} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
