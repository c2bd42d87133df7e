"""The Dask suite: distributed BFS / SSSP / SpMV / connected components on GPU (or CPU)
workers against the in-process engine, strong and weak scaling over the workers.

    python -m bench.dask_suite --device gpu --workers 2 --out results.json

Each worker generates its share of the Kronecker graph's edges on its own device
(``DistMatrix.from_edge_function`` with :func:`kron_chunk`: nothing but the generator's
arguments travels, and no worker makes the whole edge list, so the graph may exceed one
worker's memory); the edges are cut by column block and each block gathered by its worker.
``--build whole`` has every worker make the whole graph and keep its block
(``DistMatrix.from_function``: the former path, for comparison). The in-process baseline runs
in this process (on GPU 0 for ``--device gpu``). Prints a Markdown table; the JSON has every
timing with the worker count and partition count.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time

import numpy as np

from bench import generators as g

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")


def kron_graph(scale, device):
    """The graph on this process's device (a worker's GPU, or the CPU)."""
    xp = None
    if device == "gpu":
        import cupy as xp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    return g.kronecker(scale, xp=xp)


def _xp(device):
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        return cupy
    return np


def kron_chunk(scale, device, i, nchunks):
    """Chunk ``i`` of ``nchunks`` of :func:`kron_graph`'s entries, made on this process's
    device (``bench.generators.kronecker_chunk``): pooled, exactly kron_graph's matrix."""
    return g.kronecker_chunk(i, nchunks, scale, xp=_xp(device))


def spec_chunk(spec, device, i, nchunks):
    """Chunk ``i`` of ``nchunks`` of the graph ``spec`` (a kind in
    ``bench.generators.CHUNKED_KINDS``), made on this process's device."""
    return g.graph_chunk(spec, i, nchunks, xp=_xp(device))


#: How the suites build a DistMatrix: 'chunks' (each worker makes its share of the edges:
#: ``from_edge_function``) or 'whole' (each worker makes the whole graph: ``from_function``).
BUILDS = ("chunks", "whole")


def spec_graph(spec, device):
    """The bench's graph ``spec`` (a ``bench.generators.GraphSpec``) made on this process's
    device, uncached: what each worker of ``python -m bench --suite dask`` builds."""
    xp = np
    if device == "gpu":
        import cupy as xp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    return g.make_graph(spec, xp=xp, cache_dir=None)


def make_dist(client, fn, n, nparts, device, *, chunks=False, nchunks=None):
    """(the DistMatrix of an n x n graph in ``nparts`` column blocks, persisted; the seconds
    it took). ``chunks=False``: ``fn()`` is the whole graph, made by each worker itself
    (``DistMatrix.from_function``); ``chunks=True``: ``fn(i, nchunks)`` is chunk i of its
    entries (:func:`kron_chunk`), made on worker i mod W (``DistMatrix.from_edge_function``,
    ``nchunks`` default one per worker; an edge drawn in two chunks has one weight, so
    duplicates merge by ``min``). Nothing but ``fn`` travels either way."""
    from semiring import dist  # noqa: PLC0415  (optional: distributed)

    t = time.perf_counter()
    if chunks:
        DA = dist.DistMatrix.from_edge_function(fn, (n, n), client, nchunks=nchunks,
                                                nparts=nparts, device=device, dup_op="min",
                                                kinds=("cols",))
    else:
        DA = dist.DistMatrix.from_function(fn, (n, n), client, nparts=nparts, device=device,
                                           kinds=("cols",))
    DA.persist(("cols",))
    return DA, time.perf_counter() - t


#: The timed operations; the value read where a result vector has no entry.
OPS = ("bfs", "sssp", "spmv", "cc")
MISSING = {"bfs": -1, "sssp": np.inf, "spmv": 0, "cc": -1}


def dist_op(op, DA, src):
    """The zero-argument call of ``op`` on the DistMatrix ``DA`` (its DistVector result, the
    workers done): BFS levels and SSSP distances from ``src``, y = 1 plus.first A (pull),
    weak components."""
    import distributed  # noqa: PLC0415  (optional)

    import semiring as sr  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)
    from semiring import dist  # noqa: PLC0415  (lazy: semiring.dist and algorithms.dist add 0.2 s to python -m bench --list's 0.2 s)
    import algorithms.dist as ad  # noqa: PLC0415  (lazy: semiring.dist and algorithms.dist add 0.2 s to python -m bench --list's 0.2 s)

    if op == "bfs":
        f = lambda: ad.bfs(DA, src, gather=False)  # noqa: E731
    elif op == "sssp":
        f = lambda: ad.sssp(DA, src, gather=False)  # noqa: E731
    elif op == "spmv":
        x = dist.DistVector.full(DA, 1.0, dtype=np.float32)
        f = lambda: dist.vxm(x, DA, sr.plus_first, direction="pull")  # noqa: E731
    elif op == "cc":
        f = lambda: ad.connected_components(DA, symmetric=True, gather=False)  # noqa: E731
    elif op == "pagerank":
        f = lambda: ad.pagerank(DA, gather=False)  # noqa: E731
    else:
        raise ValueError(f"dist_op: op must be one of {OPS} or 'pagerank', got {op!r}")

    def run():
        v = f()
        # computed on the workers (a result held by a direct call already is)
        v.wait() if hasattr(v, "wait") else distributed.wait(v.parts)
        return v

    return run


def inprocess_op(op, M, src):
    """The same operation on the engine Matrix ``M`` in this process."""
    import semiring as sr  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)
    import algorithms  # noqa: PLC0415  (lazy: algorithms (and SciPy's csgraph) adds 0.2 s to python -m bench --list's 0.2 s)

    if op == "bfs":
        return lambda: algorithms.bfs(M, src)
    if op == "sssp":
        return lambda: algorithms.sssp(M, src)
    if op == "spmv":
        x = sr.Vector.from_dense(sr.array_module(M.device).ones(M.nrows, dtype=np.float32),
                                 device=M.device)
        return lambda: sr.vxm(x, M, sr.plus_first, direction="pull")
    if op == "cc":
        return lambda: algorithms.connected_components(M)
    if op == "pagerank":  # the structure's, as algorithms.dist.pagerank
        return lambda: algorithms.pagerank(M, weighted=False)
    raise ValueError(f"inprocess_op: op must be one of {OPS}, got {op!r}")


def _sync(device):
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)
        cupy.cuda.Device().synchronize()


def timed(fn, reps, device):
    """(median seconds, last result) of ``reps`` runs after one warm-up run."""
    out = fn()
    _sync(device)
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        _sync(device)
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)), out


def host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def _nccl_allgather(uid, nranks, rank, sizes, reps):
    """On a worker: time NCCL all-gathers of ``size`` bytes per rank (the exchange a level
    of a distributed BFS needs: each rank's slice of the frontier bitmap)."""
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    from cupy.cuda import nccl  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    comm = nccl.NcclCommunicator(nranks, uid, rank)
    stream = cupy.cuda.Stream.null
    out = {}
    for size in sizes:
        send = cupy.ones(size, dtype=cupy.uint8)
        recv = cupy.empty(size * nranks, dtype=cupy.uint8)
        comm.allGather(send.data.ptr, recv.data.ptr, size, nccl.NCCL_UINT8, stream.ptr)
        stream.synchronize()
        ts = []
        for _ in range(reps):
            t = time.perf_counter()
            comm.allGather(send.data.ptr, recv.data.ptr, size, nccl.NCCL_UINT8, stream.ptr)
            stream.synchronize()
            ts.append(time.perf_counter() - t)
        out[size] = float(np.median(ts))
    comm.destroy()
    return out


def _peer_made(rank):
    """(On a rank.) Whether its two-GPU BFS search was made, or why not (None: not tried)."""
    got = rank.memo.get(("bfs_peer", False))
    return None if got is None else (got[0] is not None, got[1])


def bfs_loop(DA):
    """The loop the BFS rows ran on ``DA`` (after a run): 'one-device' (one partition, the
    engine on its worker), 'peer' (the two-GPU kernel, both ranks made it), 'fused (peer: why
    not)' (the ranks' fallback), or the policy's named loop."""
    from algorithms.dist import _local, _spmd  # noqa: PLC0415  (lazy: the policy's module)

    if _local.applies(DA, "bfs"):
        return "one-device"
    loop = _spmd.bfs_level_loop(DA)
    if getattr(loop, "func", None) is not _spmd.bfs_rank_peer:
        return getattr(loop, "__name__", str(loop))
    made = DA.call_spmd(_peer_made, keep=False)
    if all(m is not None and m[0] for m in made):
        return "peer"
    why = next((m[1] for m in made if m is not None and m[1]), "not tried")
    return f"fused (peer: {why})"


def _dask_part(size):
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    return cupy.ones(size, dtype=cupy.uint8)


def _dask_touch(parts):
    return sum(int(p.size) for p in parts)


def exchange_probe(client, sizes, reps=5):
    """Seconds of one all-gather of ``size`` bytes per worker: through Dask (each worker's
    task receives the other's array) and through NCCL (cupy.cuda.nccl)."""
    import distributed  # noqa: PLC0415  (dask is an optional extra)

    workers = sorted(client.nthreads())
    res = {"dask": {}, "nccl": {}, "workers": len(workers)}
    for size in sizes:
        parts = [client.submit(_dask_part, size, workers=[w], pure=False) for w in workers]
        distributed.wait(parts)
        ts = []
        for _ in range(reps + 1):
            t = time.perf_counter()
            futs = [client.submit(_dask_touch, parts, workers=[w], pure=False) for w in workers]
            client.gather(futs)
            ts.append(time.perf_counter() - t)
        res["dask"][size] = float(np.median(ts[1:]))
        del parts
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    if cupy.cuda.runtime.getDeviceCount() < len(workers):
        res["nccl_error"] = "fewer GPUs than workers: not run"
        return res
    try:
        from cupy.cuda import nccl  # noqa: PLC0415  (CuPy is optional: GPU runs only)
        uid = nccl.get_unique_id()
        futs = [client.submit(_nccl_allgather, uid, len(workers), r, sizes, reps,
                              workers=[w], pure=False) for r, w in enumerate(workers)]
        got = client.gather(futs)
        res["nccl"] = {size: max(g[size] for g in got) for size in sizes}
    except Exception as err:  # report, do not fail the suite
        res["nccl_error"] = repr(err)
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--device", choices=("cpu", "gpu"), default="gpu")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--check-scale", type=int, default=18)
    ap.add_argument("--base-scale", type=int, default=22, help="one worker vs in-process")
    ap.add_argument("--strong-scale", type=int, default=24)
    ap.add_argument("--weak-scale", type=int, default=23,
                    help="on one worker (+ log2 W on W: e.g. 24 on 1, 26 on 4)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default=None)
    ap.add_argument("--skip", default="", help="comma list of: check,base,strong,weak,probe")
    ap.add_argument("--build", choices=BUILDS, default="chunks",
                    help="chunks: each worker makes its share of the edges (a graph larger "
                         "than one worker); whole: each makes the whole graph (the old path)")
    args = ap.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))

    import semiring as sr  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)
    from semiring import dist  # noqa: PLC0415  (lazy: semiring.dist and algorithms.dist add 0.2 s to python -m bench --list's 0.2 s)
    import algorithms  # noqa: PLC0415  (lazy: algorithms (and SciPy's csgraph) adds 0.2 s to python -m bench --list's 0.2 s)
    import algorithms.dist as ad  # noqa: PLC0415  (lazy: semiring.dist and algorithms.dist add 0.2 s to python -m bench --list's 0.2 s)

    dev = args.device
    rows = []
    info = {"device": dev, "workers": args.workers, "build": args.build}
    if dev == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)
        info["gpu"] = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
        info["gpus_visible"] = cupy.cuda.runtime.getDeviceCount()

    def save():
        if args.out:
            with open(args.out, "w") as f:
                json.dump({"info": info, "rows": rows}, f, indent=1)

    def record(**r):
        rows.append(r)
        print("ROW", json.dumps(r), flush=True)
        save()

    t0 = time.perf_counter()
    client = dist.local_cluster(args.workers, device=dev)
    info["cluster_start_s"] = round(time.perf_counter() - t0, 2)
    print("cluster", info, flush=True)

    def make(scale, nparts):
        if args.build == "chunks":
            return make_dist(client, functools.partial(kron_chunk, scale, dev), 1 << scale,
                             nparts, dev, chunks=True)
        return make_dist(client, functools.partial(kron_graph, scale, dev), 1 << scale, nparts,
                         dev)

    def pick_source(DA):
        deg = host(DA.degree("cols").to_dense())
        rng = np.random.default_rng(1)
        cand = np.flatnonzero(deg > 0)
        return int(cand[rng.integers(cand.size)]), int(deg.sum())

    def dist_runs(DA, label, scale, nparts, src, nvals):
        common = dict(graph=f"kron-{scale}", n=DA.nrows, nnz=nvals, workers=nparts, path="dask",
                      build=args.build)
        for op in OPS:
            reps = 1 if op in ("sssp", "cc") else args.reps
            t, _ = timed(dist_op(op, DA, src), reps, dev)
            extra = {"bfs_loop": bfs_loop(DA)} if op == "bfs" else {}
            record(case=op, seconds=t, **common, **extra)

    # ---- the exchange itself: Dask against NCCL, for a level's frontier slice
    if "probe" not in skip and dev == "gpu" and args.workers >= 2:
        # (NCCL needs one GPU per rank: on fewer GPUs than workers only Dask's side runs)
        sizes = [1 << 10, 1 << 20, 1 << 23, 1 << 26]
        pr = exchange_probe(client, sizes)
        info["exchange_probe"] = pr
        save()
        print("exchange probe (bytes per worker: seconds)", pr, flush=True)

    # ---- correctness on the workers: kron-check against the in-process engine
    if "check" not in skip:
        s = args.check_scale
        A0 = kron_graph(s, dev)
        M = sr.Matrix.from_cupyx(A0) if dev == "gpu" else sr.Matrix.from_scipy(A0, device="cpu")
        S_host = A0.get() if dev == "gpu" else A0
        for nparts in sorted({1, args.workers}):
            DA, _ = make(s, nparts)
            src, _ = pick_source(DA)
            ok = {}
            ok["bfs_levels"] = np.array_equal(host(algorithms.bfs(M, src)), host(ad.bfs(DA, src)))
            l0, p0 = algorithms.bfs(M, src, parents=True, deterministic=True)
            l1, p1 = ad.bfs(DA, src, parents=True, deterministic=True)
            ok["bfs_parents_det"] = np.array_equal(host(p0), host(p1))
            for d in ("push", "pull"):
                ok[f"bfs_{d}"] = np.array_equal(host(l0), host(ad.bfs(DA, src, direction=d)))
            ok["sssp_bitwise"] = np.array_equal(host(algorithms.sssp(M, src)),
                                                host(ad.sssp(DA, src)))
            from scipy.sparse import csgraph  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)
            _, lab = csgraph.connected_components(S_host, directed=False)
            ok["cc"] = np.array_equal(lab, host(ad.connected_components(DA)))
            # PageRank against a SciPy power iteration of the same formula
            n = S_host.shape[0]
            deg = np.diff(S_host.indptr).astype(np.float64)
            inv = np.divide(1.0, deg, out=np.zeros(n), where=deg > 0)
            P = S_host.copy()
            P.data[:] = 1.0
            r = np.full(n, 1.0 / n)
            for _ in range(100):
                rn = 0.85 * (P.T @ (r * inv)) + (0.85 * r[deg == 0].sum() + 0.15) / n
                done = np.abs(rn - r).sum() < n * 1e-6
                r = rn
                if done:
                    break
            ok["pagerank_maxdiff"] = float(np.abs(host(ad.pagerank(DA)) - r).max())
            record(case="check", graph=f"kron-{s}", workers=nparts, source=src, **ok)
            del DA
        del M, A0

    # ---- one worker against the in-process engine
    if "base" not in skip:
        s = args.base_scale
        A0 = kron_graph(s, dev)
        M = sr.Matrix.from_cupyx(A0) if dev == "gpu" else sr.Matrix.from_scipy(A0, device="cpu")
        del A0
        DA, tgen = make(s, 1)
        src, nvals = pick_source(DA)
        common = dict(graph=f"kron-{s}", n=M.nrows, nnz=nvals, workers=0, path="in-process")
        for op in ("bfs", "sssp", "spmv"):
            t, _ = timed(inprocess_op(op, M, src), 1 if op == "sssp" else args.reps, dev)
            record(case=op, seconds=t, **common)
        del M
        if dev == "gpu":
            import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)
            cupy.get_default_memory_pool().free_all_blocks()
        dist_runs(DA, "base", s, 1, src, nvals)
        # the same single partition through the distributed loop (one task per operation)
        from algorithms.dist import _local  # noqa: PLC0415  (lazy: semiring.dist and algorithms.dist add 0.2 s to python -m bench --list's 0.2 s)
        _local.WHOLE_ON_ONE_WORKER = False
        common = dict(graph=f"kron-{s}", n=DA.nrows, nnz=nvals, workers=1, path="dask-loop")
        for op in ("bfs", "sssp"):
            t, _ = timed(dist_op(op, DA, src), args.reps if op == "bfs" else 1, dev)
            record(case=op, seconds=t, **common)
        _local.WHOLE_ON_ONE_WORKER = True
        del DA

    # ---- strong scaling: the same graph on 1 and on all workers
    if "strong" not in skip:
        s = args.strong_scale
        for nparts in (1, args.workers):
            DA, tgen = make(s, nparts)
            src, nvals = pick_source(DA)
            record(case="setup", seconds=tgen, graph=f"kron-{s}", workers=nparts, path="dask",
                   build=args.build)
            dist_runs(DA, "strong", s, nparts, src, nvals)
            del DA

    # ---- weak scaling: kron-(weak) on one worker, kron-(weak + log2 W) on W (W a power of
    # two: the same edges per worker), the latter skipped where strong scaling ran it
    W = args.workers
    if "weak" not in skip and W >= 2 and W & (W - 1) == 0:
        s = args.weak_scale
        for nparts, sc in ((1, s), (W, s + W.bit_length() - 1)):
            if nparts == W and sc == args.strong_scale and "strong" not in skip:
                continue
            DA, tgen = make(sc, nparts)
            src, nvals = pick_source(DA)
            record(case="setup", seconds=tgen, graph=f"kron-{sc}", workers=nparts,
                   path="dask", build=args.build)
            dist_runs(DA, "weak", sc, nparts, src, nvals)
            del DA

    # ---- the table
    print()
    print("| graph | case | path | workers | seconds |")
    print("|---|---|---|---:|---:|")
    for r in rows:
        if "seconds" in r:
            print(f"| {r['graph']} | {r['case']} | {r.get('path', '')} | {r['workers']} | "
                  f"{r['seconds'] * 1e3:.2f} ms |")
    for r in rows:
        if r["case"] == "check":
            print("check", r)
    client.close()
    client.cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
