"""Rounds and edges of the distributed SSSP loops (algorithms.dist._spmd): the near–far
search against the Bellman–Ford rounds, counted on the ranks (CPU or GPU: the relaxation
calls of ``semiring.blocks`` wrapped in this process, so the cluster's workers are threads
of it), and optionally timed.

    PYTHONPATH=. python3 bench/probes/near_far_rounds.py [--scale 14] [--ranks 2]
        [--scales 0.5,1,2,4] [--device cpu] [--reps 3] [--out FILE.json]

Methods: "bellman_ford" (the rounds of ``_spmd.ROUNDS``), "sssp auto" (the policy's
default: ``algorithms.sssp(DA, source)``), "near_far xS [direction]" (``delta_stepping`` at S
times the automatic Δ; "wide": pulls only past 1/4 of the vertices or 1/2 of the edges).
Per method (CPU ranks): rounds (relaxation calls of rank 0), exchanges (its near–far splits:
a round's, and a bucket's advance without a relaxation), all-gathers, pushes / pulls, the edges a push relaxes
(its frontier's out-edges into the rank's block) and a pull scans (every in-edge of the
block), summed over the ranks; the near–far search at Δ = scale · the automatic Δ
(``algorithms.dist.sssp.near_far_delta``). Distances checked equal to the one-device engine.
Times: medians of ``--reps`` calls, the methods interleaved call by call.
"""

from __future__ import annotations

import argparse
import json
import threading
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=14)
    ap.add_argument("--graph", default="kron", choices=("kron", "urand", "grid"))
    ap.add_argument("--ranks", default="2", help="rank counts, e.g. 1,2 (one cluster of the most)")
    ap.add_argument("--scales", default="0.5,1,2,4,8")
    ap.add_argument("--directions", default="auto", help="e.g. auto,push,wide")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--budget", type=float, default=1e9, help="seconds: later rank counts skipped")
    ap.add_argument("--exchange", default=None, help="semiring.dist._mesh.EXCHANGE")
    ap.add_argument("--reference", choices=("engine", "bellman_ford"), default="engine",
                    help="check against the in-process engine (its time recorded) or the "
                         "distributed Bellman–Ford rounds (no one-device search to compile)")
    ap.add_argument("--processes", action="store_true",
                    help="CPU ranks in worker processes (no counts), as GPU ranks always are")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    T0 = time.perf_counter()
    import importlib

    import semiring as sr
    import algorithms
    import algorithms.dist as ad
    from algorithms.dist import _local, _spmd
    from semiring import blocks, dist
    from semiring.dist import _mesh
    from bench import generators as g

    dsssp = importlib.import_module("algorithms.dist.sssp")
    if args.exchange:
        _mesh.EXCHANGE = args.exchange
    dev = args.device
    xp = sr.array_module(dev)
    gx = xp if dev == "gpu" else None
    S = {"kron": lambda: g.kronecker(args.scale, xp=gx),
         "urand": lambda: g.urand(args.scale, xp=gx),
         "grid": lambda: g.grid2d(2 ** (args.scale // 2), 2 ** (args.scale - args.scale // 2),
                                  xp=gx)}[args.graph]()
    A = sr.Matrix.from_cupyx(S) if dev == "gpu" else sr.Matrix.from_scipy(S, device="cpu")
    n, nnz = A.nrows, int(S.nnz)
    host = (lambda a: a.get() if hasattr(a, "get") else np.asarray(a))
    deg = np.diff(host(S.indptr))
    src = int(np.flatnonzero(deg > 0)[np.random.default_rng(1).integers((deg > 0).sum())])
    ref, ts = None, [np.nan]
    if args.reference == "engine":
        ref = host(algorithms.sssp(A, src))
        sync = (lambda: xp.cuda.Device().synchronize()) if dev == "gpu" else (lambda: None)
        ts = []
        for _ in range(max(1, args.reps)):
            t = time.perf_counter()
            algorithms.sssp(A, src)
            sync()
            ts.append(time.perf_counter() - t)
    w = host(S.data).astype(np.float64)
    auto = dsssp.near_far_delta(n, nnz, float(w.max()), float(w[w > 0].min()))
    info = dict(graph=f"{args.graph}-{args.scale}", n=n, nnz=nnz, device=dev, source=src,
                auto_delta=auto, in_process_ms=round(1e3 * float(np.median(ts)), 3),
                reference=args.reference, setup_s=round(time.perf_counter() - T0, 1))
    print(json.dumps(info), flush=True)
    counting = dev == "cpu" and not args.processes
    chunks = not counting and args.graph == "kron"   # made on the workers
    if not chunks:
        import scipy.sparse as sps
        Sh = host(S.indptr), host(S.indices), host(S.data)
        Sh = sps.csr_matrix((Sh[2], Sh[1], Sh[0]), shape=S.shape)
    del A, S, w
    if dev == "gpu":
        xp.get_default_memory_pool().free_all_blocks()
    Ws = [int(x) for x in args.ranks.split(",")]
    client = dist.local_cluster(max(Ws), processes=not counting, device=dev)
    _local.WHOLE_ON_ONE_WORKER = False
    _spmd.ONE_PARTITION = True

    log, lock = [], threading.Lock()
    real_push, real_pull, real_split = blocks.relax_push, blocks.relax_pull, blocks.near_split

    def split(*a, lo, **kw):
        real_split(*a, lo=lo, **kw)
        with lock:
            log.append(("split", lo, -1, 0))

    def push(B, frontier, d, *, lo, out, lens=None):
        real_push(B, frontier, d, lo=lo, out=out, lens=lens)
        e = int((lens if lens is not None else
                 B.indptr[frontier + 1] - B.indptr[frontier]).sum())
        with lock:
            log.append(("push", lo, int(frontier.size), e))

    def pull(BT, fbits, d, *, lo, out):
        real_pull(BT, fbits, d, lo=lo, out=out)
        with lock:
            log.append(("pull", lo, -1, int(BT.nvals)))

    real_gather = _spmd._gather_equal

    def gather(rank, a):
        if rank.lo == 0:
            with lock:
                log.append(("gather", 0, -1, 0))
        return real_gather(rank, a)

    if counting:   # the ranks are threads of this process
        blocks.relax_push, blocks.relax_pull, blocks.near_split = push, pull, split
        _spmd._gather_equal = gather
    methods = [("bellman_ford", None, "auto"), ("sssp auto", None, "policy")] + [
        (f"near_far x{s}" + ("" if dn == "auto" else f" {dn}"), float(s) * auto, dn)
        for s in args.scales.split(",") if s for dn in args.directions.split(",")]

    def call(delta, dn, gather):
        if dn == "policy":   # what algorithms.sssp(DA, source) runs
            return ad.sssp(DA, src, gather=gather)
        if delta is None:
            return ad.sssp(DA, src, method="bellman_ford", gather=gather)
        # "wide": auto with pulls only past 1/4 of the vertices or 1/2 of the edges
        saved = dsssp.PULL_FRACTION, dsssp.PULL_EDGE_FRACTION
        if dn == "wide":
            dsssp.PULL_FRACTION, dsssp.PULL_EDGE_FRACTION = 1 / 4, 1 / 2
        try:
            return ad.delta_stepping(DA, src, delta, direction="auto" if dn == "wide" else dn,
                                     gather=gather)
        finally:
            dsssp.PULL_FRACTION, dsssp.PULL_EDGE_FRACTION = saved

    rows = []
    for W in Ws:
        if time.perf_counter() - T0 > args.budget:
            info.setdefault("skipped", []).append(W)
            break
        t = time.perf_counter()
        if chunks:
            import functools
            from bench import dask_suite as DS
            DA, _ = DS.make_dist(client, functools.partial(DS.kron_chunk, args.scale, dev), n,
                                 W, dev, chunks=True)
        else:
            DA = dist.DistMatrix.from_scipy(Sh, client, nparts=W, device=dev)
            DA.persist(("cols",))
        print("built", W, round(time.perf_counter() - t, 1), "at", round(time.perf_counter() - T0, 1),
              flush=True)
        for name, delta, dn in methods:
            log.clear()
            got = host(call(delta, dn, True))
            if ref is None:   # the Bellman–Ford rounds' distances, the first method's
                ref = got
            r0 = [x for x in log if x[1] == 0]
            row = dict(ranks=W, method=name, delta=delta, equal=bool(np.array_equal(got, ref)))
            if counting:
                row.update(rounds=sum(x[0] in ("push", "pull") for x in r0),
                           exchanges=sum(x[0] == "split" for x in r0),
                           gathers=sum(x[0] == "gather" for x in r0),
                           pushes=sum(x[0] == "push" for x in r0),
                           pulls=sum(x[0] == "pull" for x in r0),
                           push_edges=sum(x[3] for x in log if x[0] == "push"),
                           pull_edges=sum(x[3] for x in log if x[0] == "pull"))
            rows.append(row)
            print(json.dumps(row), flush=True)
        if args.reps:
            ts = {name: [] for name, _, _ in methods}
            for _ in range(args.reps):
                for name, delta, dn in methods:   # interleaved call by call
                    t = time.perf_counter()
                    call(delta, dn, False).wait()
                    ts[name].append(time.perf_counter() - t)
            for row in rows:
                if row["ranks"] == W:
                    row["ms"] = round(1e3 * float(np.median(ts[row["method"]])), 3)
                    row["ms_min"] = round(1e3 * float(np.min(ts[row["method"]])), 3)
                    row["ms_all"] = [round(1e3 * t, 2) for t in ts[row["method"]]]
                    print("T", W, row["method"], "median", row["ms"], "min", row["ms_min"],
                          row["ms_all"], flush=True)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(dict(info=info, rows=rows), f, indent=1)
        DA = None
    blocks.relax_push, blocks.relax_pull, blocks.near_split = real_push, real_pull, real_split
    _spmd._gather_equal = real_gather
    info["total_s"] = round(time.perf_counter() - T0, 1)
    print(json.dumps(info), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(dict(info=info, rows=rows), f, indent=1)
    client.close()
    client.cluster.close()


if __name__ == "__main__":
    main()
