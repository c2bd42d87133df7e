"""Issue 18's last measurement: a graph larger than one GPU, built on W GPU workers and
searched there, every result checked by properties that need no one-GPU reference.

    PYTHONPATH=. python3 bench/probes/dask_beyond_one_gpu.py --scale 28 --workers 4 --out DIR

The graph is Kronecker kron-(scale) (Graph500 generator, edge factor 16, symmetric, GAP
weights in [1, 255] as float32), made by ``DistMatrix.from_edge_function`` in ``--nchunks``
chunks (``bench.dask_suite.kron_chunk``), cut into W column blocks: by default every worker
draws every chunk on its GPU and keeps its block's entries (``replicate=True``: nothing
crosses between workers); ``--build pieces``: worker i mod W draws chunk i and sends its
pieces through the host. No process ever holds the whole list. Then BFS (levels), SSSP,
PageRank and connected components (the SPMD loops over NCCL), each timed on its first call
(which makes the blocks' transposes) and on a second, and checked on the workers, each rank
over its own block's entries against the whole result vector (all-gathered among the ranks):

- BFS: level(source) = 0; on every entry (u, v) both ends reached or neither (the graph is
  symmetric) and |level(u) - level(v)| <= 1; every reached v but the source has an
  in-neighbour u with level(u) = level(v) - 1.
- SSSP: d(source) = 0; d(v) <= d(u) + w(u, v) on every entry, in the distances' type; every
  reached v but the source has an entry with equality (its parent edge); reached where BFS
  reached.
- CC (each vertex's least vertex): equal on both ends of every entry; root(v) <= v and
  root(root(v)) = root(v); the source's component is the set BFS reached.
- PageRank: sums to 1 (|sum - 1| <= 1e-9), no negative rank; one more power step changes it by
  less than NetworkX's n * tol in L1 (the fixed point; out-degree = in-degree, symmetric).

Each step (cluster, build, every call and check) is written to ``DIR/dask_beyond.json`` as
it ends: a run cut by its timeout keeps what it measured. ``--device cpu --scale 12 --stripe
4096`` runs the same on CPU worker processes (a check of the probe and of the striped block
assembly). Memory and time estimated before the run: ``bench/results/`` (the 4-GPU file).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import time
import traceback

import numpy as np

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast stays off (KINDS.md)

#: PageRank's tolerance (NetworkX's and algorithms.dist.pagerank's default): its L1 change
#: stops below n * tol.
TOL = 1e-6
#: Entries a rank checks at once (row stripes of its block: a few GB of temporaries).
CHECK_STRIPE = 1 << 27


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=28)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--nchunks", type=int, default=16,
                    help="edge chunks (a chunk's generation on the GPU peaks near 100 bytes "
                         "a tuple: 2**scale * 16 / nchunks tuples)")
    ap.add_argument("--build", choices=("replicate", "pieces"), default="replicate",
                    help="replicate: each block's worker makes every chunk and keeps its "
                         "entries (no exchange); pieces: chunk i on worker i mod W, its "
                         "pieces sent through the host to the blocks' workers")
    ap.add_argument("--device", choices=("gpu", "cpu"), default="gpu")
    ap.add_argument("--stripe", type=int, default=0,
                    help="semiring.dist._tasks.ASSEMBLY_STRIPE on the workers (0: its own)")
    ap.add_argument("--memory-limit", default="auto",
                    help="each worker's host memory limit (local_cluster's memory_limit)")
    ap.add_argument("--budget", type=float, default=200.0,
                    help="seconds: second calls are skipped past it")
    ap.add_argument("--out", default=".")
    args = ap.parse_args(argv)
    T0 = time.perf_counter()
    os.makedirs(args.out, exist_ok=True)

    import algorithms.dist as ad
    from bench import dask_suite as DS
    from semiring import dist

    dev, W, scale = args.device, args.workers, args.scale
    n = 1 << scale
    info = {"argv": vars(args), "graph": f"kron-{scale}", "n": n, "steps": []}
    path = os.path.join(args.out, "dask_beyond.json")

    def save():
        with open(path, "w") as f:
            json.dump(info, f, indent=1)

    def step(**r):
        r["at_s"] = round(time.perf_counter() - T0, 2)
        info["steps"].append(r)
        print("STEP", json.dumps(r), flush=True)
        save()

    t = time.perf_counter()
    client = dist.local_cluster(W, device=dev, memory_limit=(
        0 if args.memory_limit in ("0", "none") else args.memory_limit))
    step(step="cluster", seconds=round(time.perf_counter() - t, 2), workers=W,
         ids=client.run(_worker_id))
    if args.stripe:
        client.run(_set_stripe, args.stripe)
    try:
        # ---- build: each worker draws its chunks of the edges, cut by column block
        t = time.perf_counter()
        DA = dist.DistMatrix.from_edge_function(
            functools.partial(DS.kron_chunk, scale, dev), (n, n), client, nchunks=args.nchunks,
            device=dev, dup_op="min", kinds=("cols",), replicate=args.build == "replicate")
        DA.persist(("cols",))
        build_s = time.perf_counter() - t
        blocks = DA.call_spmd(_block_stats, keep=False)
        nvals = sum(b["nvals"] for b in blocks)
        info["nnz"] = nvals
        step(step="build", seconds=round(build_s, 2), nnz=nvals, blocks=blocks,
             memory=client.run(_memory))
        src = DA.call_spmd(_pick_source, keep=False)[0]
        info["source"] = src

        # ---- the four algorithms: first call, second call, then the check on the ranks
        calls = {
            "bfs": lambda: ad.bfs(DA, src, gather=False),
            "sssp": lambda: ad.sssp(DA, src, gather=False),
            "cc": lambda: ad.connected_components(DA, symmetric=True, gather=False),
            "pagerank": lambda: ad.pagerank(DA, gather=False),
        }
        got = {}
        for op, fn in calls.items():
            try:
                t = time.perf_counter()
                v = fn().wait()
                first = time.perf_counter() - t
                second = None
                if time.perf_counter() - T0 < args.budget:
                    del v
                    t = time.perf_counter()
                    v = fn().wait()
                    second = time.perf_counter() - t
                got[op] = v
                st = DA.call_spmd(_rank_stats, keep=False)
                step(step=op, first_s=round(first, 4),
                     seconds=None if second is None else round(second, 4),
                     exchange=st[0][0], allgathers=st[0][1], memory=client.run(_memory))
            except Exception:  # noqa: BLE001 (recorded; the next algorithm still runs)
                step(step=op, error=traceback.format_exc())
        keys = {op: _held_keys(v) for op, v in got.items()}
        try:
            t = time.perf_counter()
            res = DA.call_spmd(_check_rank, (keys, src), keep=False)
            summed = _combine(res, n)
            step(step="check", seconds=round(time.perf_counter() - t, 2), **summed)
        except Exception:  # noqa: BLE001 (recorded)
            step(step="check", error=traceback.format_exc())
    except Exception:  # noqa: BLE001 (recorded: the build or the source)
        step(step="error", error=traceback.format_exc())
    finally:
        info["total_s"] = round(time.perf_counter() - T0, 1)
        save()
        client.close()
        client.cluster.close()


# ------------------------------------------------------------------ on the workers / ranks

def _worker_id():
    out = {"CUDA_VISIBLE_DEVICES": os.environ.get("CUDA_VISIBLE_DEVICES")}
    try:
        import cupy
        d = cupy.cuda.Device()
        out.update(gpu=cupy.cuda.runtime.getDeviceProperties(d.id)["name"].decode(),
                   pci_bus_id=d.pci_bus_id)
    except Exception as err:  # noqa: BLE001 (a CPU worker)
        out["gpu"] = repr(err)[:80]
    return out


def _set_stripe(k):
    from semiring.dist import _tasks as T
    T.ASSEMBLY_STRIPE = int(k)
    return k


def _memory():
    """(On a worker.) GPU bytes in use (the driver's count: the pool's cached blocks too) and
    the pool's, host RSS and its peak (GB)."""
    import resource

    out = {"rss_peak_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, 2)}
    try:
        import cupy
        free, total = cupy.cuda.runtime.memGetInfo()
        pool = cupy.get_default_memory_pool()
        out.update(gpu_used_gb=round((total - free) / 1e9, 2),
                   pool_used_gb=round(pool.used_bytes() / 1e9, 2),
                   pool_total_gb=round(pool.total_bytes() / 1e9, 2))
    except Exception:  # noqa: BLE001 (a CPU worker)
        pass
    return out


def _block_stats(rank):
    B = rank.block("cols")
    return {"rank": rank.rank, "lo": rank.lo, "hi": rank.hi, "nvals": int(B.nvals),
            "itype": str(np.dtype(B.itype)), "device": B.device}


def _pick_source(rank):
    """A vertex with edges, drawn among rank 0's (the same on every rank's answer)."""
    B = rank.block("cols")
    xp = B.xp
    if rank.rank != 0:
        return None
    deg = xp.bincount(B.indices, minlength=B.ncols) if B.nvals else xp.zeros(B.ncols)
    cand = _host(xp.flatnonzero(deg > 0))
    return int(cand[np.random.default_rng(1).integers(cand.size)]) + rank.lo


def _rank_stats(rank):
    out = (rank.exchange, rank.exchanges, rank.exchange_s)
    rank.exchanges, rank.exchange_s = 0, 0.0
    return out


def _held_keys(v):
    """The (token, index) under which each rank holds its slice of ``v`` (a DistVector just
    returned by an SPMD call, its slices still on the ranks' workers, semiring.dist._tasks.HELD)."""
    from semiring.dist.core import Held

    parts = v._parts
    if not all(isinstance(h, Held) for h in parts):
        raise RuntimeError("the result's slices are no longer held by the ranks")
    return [(h.token, h.index) for h in parts]


def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def _scatter(xp, op, a, idx, vals):
    """a[idx] = op(a[idx], vals) with repeated indices folded (NumPy ufunc.at, cupyx.scatter_*)."""
    if xp is np:
        getattr(np, {"min": "minimum", "add": "add"}[op]).at(a, idx, vals)
    else:
        import cupyx
        getattr(cupyx, f"scatter_{op}")(a, idx, vals)


def _stripes(B):
    """Row ranges of the block with about CHECK_STRIPE entries each."""
    ip = _host(B.indptr).astype(np.int64)
    cuts = np.searchsorted(ip, np.arange(0, int(ip[-1]), CHECK_STRIPE), side="right") - 1
    cuts = sorted(set(int(c) for c in cuts) | {0, B.nrows})
    return list(zip(cuts[:-1], cuts[1:])), ip


def _check_rank(rank, keys, src):
    """(On a rank.) Violations of each property over this rank's block's entries (see the
    module's docstring), and the rank's sums."""
    from semiring.dist import _tasks as T

    B = rank.block("cols")                                  # A(:, lo:hi)
    xp, lo, hi, n = B.xp, rank.lo, rank.hi, rank.n
    out = {}

    def whole(op, missing):
        mine = T.HELD[tuple(keys[op][rank.rank])].to_dense(missing=missing)
        return mine, rank.allgather_dense(mine)

    stripes, ip = _stripes(B)
    vals = None if B.is_iso else B.values

    def entries():
        for r0, r1 in stripes:
            a, b = int(ip[r0]), int(ip[r1])
            if a == b:
                continue
            # each entry's row: the last row pointer at or before its position (CuPy's
            # repeat takes no device array of counts)
            pos = xp.arange(a, b, dtype=xp.int64)
            u = xp.searchsorted(B.indptr[r0:r1 + 1].astype(xp.int64), pos, side="right") - 1 + r0
            del pos
            j = B.indices[a:b].astype(xp.int64)             # local column: vertex lo + j
            w = None if vals is None else vals[a:b]
            yield u, j, w

    # least level among in-neighbours: int32 (cupyx.scatter_min takes no int64 values)
    big = np.iinfo(np.int32).max
    if "bfs" in keys:
        Lp, L = whole("bfs", -1)
        low = xp.full(hi - lo, big, dtype=xp.int32)
        bad_reach = bad_span = 0
        for u, j, _ in entries():
            lu, lv = L[u], Lp[j]
            ru, rv = lu >= 0, lv >= 0
            bad_reach += int((ru != rv).sum())
            bad_span += int((ru & rv & (xp.abs(lu - lv) > 1)).sum())
            _scatter(xp, "min", low, j, xp.where(ru, lu, big).astype(xp.int32))
        reached = Lp >= 0
        is_src = xp.zeros(hi - lo, dtype=bool)
        if lo <= src < hi:
            is_src[src - lo] = True
            out["bfs_source_level"] = int(Lp[src - lo])
        out.update(bfs_reached=int(reached.sum()), bfs_bad_reach=bad_reach,
                   bfs_bad_span=bad_span,
                   bfs_no_parent=int((reached & ~is_src & (low != Lp - 1)).sum()),
                   bfs_max_level=int(Lp.max()) if Lp.size else -1)
    if "sssp" in keys:
        Dp, D = whole("sssp", np.inf)
        best = xp.full(hi - lo, np.inf, dtype=D.dtype)
        bad_relax = bad_reach = 0
        for u, j, w in entries():
            du = D[u]
            cand = du + (xp.ones(u.size, D.dtype) if w is None else w.astype(D.dtype))
            fin = xp.isfinite(du)
            bad_relax += int((fin & (Dp[j] > cand)).sum())
            bad_reach += int((fin != xp.isfinite(Dp[j])).sum())
            _scatter(xp, "min", best, j, xp.where(fin, cand, np.inf))
        reached = xp.isfinite(Dp)
        is_src = xp.zeros(hi - lo, dtype=bool)
        if lo <= src < hi:
            is_src[src - lo] = True
            out["sssp_source_distance"] = float(Dp[src - lo])
        out.update(sssp_reached=int(reached.sum()), sssp_bad_relax=bad_relax,
                   sssp_bad_reach=bad_reach,
                   sssp_no_parent_edge=int((reached & ~is_src & (best != Dp)).sum()),
                   sssp_max_distance=float(Dp[reached].max()) if bool(reached.any()) else 0.0)
        if "bfs" in keys:
            out["sssp_vs_bfs_reached"] = int((reached != (Lp >= 0)).sum())
    if "cc" in keys:
        Rp, R = whole("cc", -1)
        bad_edge = 0
        for u, j, _ in entries():
            bad_edge += int((R[u] != Rp[j]).sum())
        v = xp.arange(lo, hi, dtype=xp.int64)
        out.update(cc_bad_edge=bad_edge, cc_bad_root=int(((Rp > v) | (R[Rp] != Rp)).sum()),
                   cc_roots=int((Rp == v).sum()))
        if "bfs" in keys:
            out["cc_vs_bfs"] = int(((Rp == R[src]) != (Lp >= 0)).sum())
    if "pagerank" in keys:
        Pp, P = whole("pagerank", 0.0)
        deg_p = xp.bincount(B.indices, minlength=hi - lo) if B.nvals \
            else xp.zeros(hi - lo, xp.int64)                # in-degree = out-degree
        deg = rank.allgather_dense(deg_p.astype(xp.int64))
        share = xp.where(deg > 0, P / xp.maximum(deg, 1), 0.0)
        y = xp.zeros(hi - lo, dtype=xp.float64)
        for u, j, _ in entries():
            _scatter(xp, "add", y, j, share[u])
        lost = float(P[deg == 0].sum())
        alpha = 0.85
        nxt = (alpha * lost + 1.0 - alpha) / n + alpha * y
        out.update(pr_sum=float(Pp.sum()), pr_negative=int((Pp < 0).sum()),
                   pr_step_l1=float(xp.abs(nxt - Pp).sum()))
    return out


def _combine(res, n):
    """The ranks' counts summed (sums added, maxima maxed), with the verdicts."""
    out = {}
    for r in res:
        for k, v in r.items():
            if k.endswith("_max_level") or k.endswith("_max_distance"):
                out[k] = max(out.get(k, v), v)
            elif k in ("bfs_source_level", "sssp_source_distance"):
                out[k] = v
            else:
                out[k] = out.get(k, 0) + v
    ok = {}
    if "bfs_reached" in out:
        ok["bfs"] = (out.get("bfs_source_level") == 0 and out["bfs_bad_reach"] == 0
                     and out["bfs_bad_span"] == 0 and out["bfs_no_parent"] == 0)
    if "sssp_reached" in out:
        ok["sssp"] = (out.get("sssp_source_distance") == 0.0 and out["sssp_bad_relax"] == 0
                      and out["sssp_bad_reach"] == 0 and out["sssp_no_parent_edge"] == 0
                      and out.get("sssp_vs_bfs_reached", 0) == 0)
    if "cc_bad_edge" in out:
        ok["cc"] = (out["cc_bad_edge"] == 0 and out["cc_bad_root"] == 0
                    and out.get("cc_vs_bfs", 0) == 0)
    if "pr_sum" in out:
        ok["pagerank"] = (abs(out["pr_sum"] - 1.0) <= 1e-9 and out["pr_negative"] == 0
                          and out["pr_step_l1"] < n * TOL)
    out["ok"] = ok
    return out


if __name__ == "__main__":
    main()
