"""BFS and SSSP on road-like graphs against SciPy in the same run, SciPy's calls interleaved
with ours (a device probe, not a test; issue 20 item 1).

    PYTHONPATH=. python3 bench/probes/road_ratio_probe.py [--graphs grid-2048x2048 rgg-22]
        [--rounds 5] [--sssp-rounds 3] [--variant NAME=OPT,OPT ...] [--no-sssp]

For each graph (bench.generators on the GPU, the source drawn as in road_probe.py): SciPy's
levels and distances (the references), then ``rounds`` rounds of [SciPy breadth_first_order,
algorithms.bfs, each --variant of bfs_async] and ``sssp-rounds`` rounds of [SciPy dijkstra,
algorithms.delta_stepping], every answer checked. SciPy runs on one core (its code is serial).
Reported: min and median of each, and the ratios of SciPy's median to ours (same run). The
engine's calls are warmed once (compiles) before the rounds.

A --variant is ``name=opt,opt``: opts ``-DSR_ASYNC_...=v`` (bfs_async.cu's switches),
``threads=T`` (ASYNC_THREADS, with -DSR_ASYNC_THREADS=T), ``per_sm=B``, ``kernel=cw|inline``,
``ell=W`` (ASYNC_ELL_WIDTH: padded rows of W columns; built on the warm call, kept after),
``all`` (run it on every graph, not only mean degree <= 5).
A variant with -DSR_ASYNC_TRACE=1 also prints where the blocks' time went (the kernel's trace
words): first and last block entries, µs a local level split into head (queue slot to row
bounds), edges, barrier wait and drains, and the entry time against the range's index (the
cost of a crossing between ranges).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import time

import cupy as cp
import numpy as np
import scipy.sparse.csgraph as csg

import algorithms
import semiring as sr
from bench import generators as gen
from semiring.backend.gpu import traversal as gt

bfs_module = importlib.import_module("algorithms.bfs")  # algorithms.bfs is the function


def timed(fn):
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    out = fn()
    cp.cuda.Device().synchronize()
    return (time.perf_counter() - t) * 1e3, out


def host(a):
    a = a[0] if isinstance(a, tuple) else a
    return a.get() if hasattr(a, "get") else np.asarray(a)


def parse_variant(text):
    name, _, opts = text.partition("=")
    v = {"name": name, "opts": (), "threads": gt.ASYNC_THREADS, "per_sm": None, "kernel": "cw",
         "ell": gt.ASYNC_ELL_WIDTH, "all": False}
    for o in filter(None, opts.split(",")):
        if o.startswith("threads="):
            v["threads"] = int(o.split("=")[1])
            v["opts"] += (f"-DSR_ASYNC_THREADS={v['threads']}",)
        elif o.startswith("per_sm="):
            v["per_sm"] = int(o.split("=")[1])
        elif o.startswith("ell="):
            v["ell"] = int(o.split("=")[1])
        elif o == "all":
            v["all"] = True
        elif o.startswith("kernel="):
            v["kernel"] = o.split("=")[1]
        else:
            v["opts"] += (o,)
    return v


def run_variant(v, A, source):
    base = (gt.ASYNC_OPTIONS, gt.ASYNC_THREADS, gt.ASYNC_CTL, gt.ASYNC_KERNEL, gt.ASYNC_ELL_WIDTH)
    trace = any(o.startswith("-DSR_ASYNC_TRACE=1") for o in v["opts"])
    gt.ASYNC_OPTIONS = base[0] + v["opts"]
    gt.ASYNC_THREADS = v["threads"]
    gt.ASYNC_KERNEL = v["kernel"]
    gt.ASYNC_ELL_WIDTH = v["ell"]
    if trace:
        gt.ASYNC_CTL = 8 + 16 * 4096
    try:
        level, _, info = sr.traversal.bfs_async(A, source, symmetric=True,
                                                blocks_per_sm=v["per_sm"])
    finally:
        (gt.ASYNC_OPTIONS, gt.ASYNC_THREADS, gt.ASYNC_CTL, gt.ASYNC_KERNEL,
         gt.ASYNC_ELL_WIDTH) = base
    return level, info


def trace_summary(info, depth):
    b = info["blocks"]
    t = info["trace"][:16 * b].reshape(b, 16).astype(np.float64)
    act = t[:, 2] > 0
    t = t[act]
    idx = np.flatnonzero(act)
    ghz = np.median((t[:, 10] - t[:, 9]) / np.maximum(1.0, t[:, 1] - t[:, 0]))
    levels = t[:, 2]
    us = lambda cyc: cyc / ghz / 1e3  # noqa: E731
    t0 = t[:, 0].min()
    entry = (t[:, 0] - t0) / 1e3
    end = (t[:, 1] - t0) / 1e3
    print(f"    trace: {act.sum()} blocks active, clock {ghz:.2f} GHz, levels a block "
          f"{levels.mean():.0f} (max {levels.max():.0f}; depth {depth}), items a level "
          f"{t[:, 12].sum() / levels.sum():.1f}")
    print(f"    trace: last entry {entry.max():.0f} us, last end {end.max():.0f} us; busy "
          f"{us(t[:, 8].sum()) / act.sum():.0f} us a block of {end.max():.0f}")
    per = lambda j: us(t[:, j].sum()) / levels.sum()  # noqa: E731
    print(f"    trace: a level {per(8):.3f} us = head {per(5):.3f} + edges {per(6):.3f} + "
          f"rest {per(11):.3f} + barrier {per(7):.3f} + drains {us(t[:, 3].sum()) / levels.sum():.3f} "
          f"({t[:, 4].sum() / levels.sum():.2f} drains a level) + other")
    src_block = idx[np.argmin(entry)]
    dist = np.abs(idx - src_block)
    far = dist > 0
    if far.any():
        slope = np.polyfit(dist[far], entry[far], 1)[0]
        print(f"    trace: entry grows {slope:.1f} us a range away from the source's "
              f"(a range = {info['span']} vertices)")


def hilbert_index(x, y, order):
    """The distance along the Hilbert curve of side 2**order of the integer points (x, y)."""
    side = 1 << order
    x, y = x.astype(cp.int64), y.astype(cp.int64)
    d = cp.zeros(x.size, dtype=cp.int64)
    s = side >> 1
    while s > 0:
        rx = (x & s) > 0
        ry = (y & s) > 0
        d += s * s * ((3 * rx.astype(cp.int64)) ^ ry.astype(cp.int64))
        flip = ~ry & rx
        x = cp.where(flip, side - 1 - x, x)
        y = cp.where(flip, side - 1 - y, y)
        swap = ~ry
        x, y = cp.where(swap, y, x), cp.where(swap, x, y)
        s >>= 1
    return d


def hilbert_order(spec, n):
    """rank[v]: v's place when the graph's points are sorted along a Hilbert curve (the grid's
    lattice points, rgg's points), so that a block's range of ids is a compact 2-D region;
    None for other graphs. An experiment with the generator's coordinates: a library would
    need coordinates of its own (e.g., BFS distances from a few far-apart vertices)."""
    g = gen.parse_graph_spec(spec)
    if g.kind == "grid":
        v = cp.arange(n, dtype=cp.int64)
        x, y = v % g.cols, v // g.cols
        order = int(np.ceil(np.log2(max(g.rows, g.cols, 2))))
    elif g.kind == "rgg":
        px, py = gen.rgg_points(g.scale, g.edge_factor, seed=g.seed, xp=cp)
        order = 11
        x = cp.minimum((px * (1 << order)).astype(cp.int64), (1 << order) - 1)
        y = cp.minimum((py * (1 << order)).astype(cp.int64), (1 << order) - 1)
    else:
        return None
    h = hilbert_index(x, y, order)
    perm = cp.argsort(h * n + cp.arange(n, dtype=cp.int64))  # perm[new] = old (ties by id)
    rank = cp.empty(n, dtype=cp.int64)
    rank[perm] = cp.arange(n, dtype=cp.int64)
    return rank


def permuted(S, rank):
    """rank-relabelled copy of the cupyx CSR matrix S (rows and columns), canonical."""
    import cupyx.scipy.sparse as csp  # noqa: PLC0415 (CuPy: the GPU variants only)
    C = S.tocoo()
    r = rank.astype(C.row.dtype)
    B = csp.coo_matrix((C.data, (r[C.row], r[C.col])), shape=S.shape).tocsr()
    B.sum_duplicates()
    B.sort_indices()
    return B


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graphs", nargs="*", default=["grid-2048x2048", "rgg-22"])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--sssp-rounds", type=int, default=3)
    p.add_argument("--no-sssp", action="store_true")
    p.add_argument("--hilbert", nargs="*", default=[],
                   help="names of --variant to run also on the graph relabelled along a "
                        "Hilbert curve of its coordinates (grid, rgg; any mean degree)")
    p.add_argument("--variant", action="append", default=[],
                   help="name=opt,opt (see the module's docstring); async variants: grid-like "
                        "graphs only (mean degree <= algorithms.bfs.ASYNC_MEAN_DEGREE)")
    a = p.parse_args()
    variants = [parse_variant(v) for v in a.variant]
    name = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    print(f"device: {name or cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    t_start = time.perf_counter()
    for spec in a.graphs:
        t = time.perf_counter()
        S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp, cache_dir=None)
        A = sr.Matrix.from_cupyx(S)
        H = S.get()
        deg = np.diff(H.indptr)
        source = int(np.random.default_rng(0).choice(np.flatnonzero(deg > 0)))
        lv = csg.shortest_path(H, method="D", unweighted=True, indices=source)
        lref = np.where(np.isinf(lv), -1, lv).astype(np.int64)
        depth = int(lref.max())
        print(f"{spec}: n {A.nrows}, m {A.nvals}, source {source}, depth {depth}, made in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
        bfs_rows = [("algorithms.bfs", lambda: algorithms.bfs(A, source, symmetric=True))]
        grid_like = A.nvals <= bfs_module.ASYNC_MEAN_DEGREE * A.nrows
        for v in [v for v in variants if grid_like or v["all"]]:
            bfs_rows.append((f"async {v['name']}", (lambda v=v: run_variant(v, A, source))))
        times = {k: [] for k, _ in bfs_rows}
        times["scipy bfs"] = []
        ok, infos = {}, {}
        for w in sorted({v["ell"] for v in variants if v["ell"] and (grid_like or v["all"])}):
            gt.async_ell(A, w)  # compiles
            A._memo.pop(("bfs_async_ell", w), None)
            ms, _ = timed(lambda w=w: gt.async_ell(A, w))
            print(f"  padded rows of width {w} built in {ms:.2f} ms (once per matrix, kept)")
        for k, fn in bfs_rows:  # warm: compiles, caches; the answer checked
            _, out = timed(fn)
            if isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], dict):
                infos[k] = out[1]
            ok[k] = "ok" if np.array_equal(host(out), lref) else "WRONG"
        for _ in range(a.rounds):
            ms, _ = timed(lambda: csg.breadth_first_order(H, source, directed=True,
                                                          return_predecessors=False))
            times["scipy bfs"].append(ms)
            for k, fn in bfs_rows:
                ms, _ = timed(fn)
                times[k].append(ms)
        sc = statistics.median(times["scipy bfs"])
        print(f"  scipy breadth_first_order  min {min(times['scipy bfs']):8.2f}  median {sc:8.2f} ms")
        for k, _ in bfs_rows:
            med = statistics.median(times[k])
            extra = ""
            if k in infos:
                i = infos[k]
                extra = (f"  messages {i['messages']}, visits {i['visits'] / (lref >= 0).sum():.3f} n, "
                         f"{i['blocks']} blocks of {i['span']}, {1e3 * min(times[k]) / max(depth, 1):.2f} us/depth")
            print(f"  bfs {k:26s} min {min(times[k]):8.2f}  median {med:8.2f} ms  "
                  f"{sc / med:6.1f}x scipy (medians)  {ok[k]}{extra}", flush=True)
            if k in infos and "trace" in infos[k]:
                trace_summary(infos[k], depth)
        orders = []
        if a.hilbert:
            orders.append(("hilbert", lambda: hilbert_order(spec, A.nrows)))
        for oname, make in orders:
            t = time.perf_counter()
            rank = make()
            if rank is None:
                continue
            cp.cuda.Device().synchronize()
            t_rank = time.perf_counter() - t
            B = sr.Matrix.from_cupyx(permuted(S, rank))
            hs = int(rank[source])
            print(f"  {oname} order: ranked in {t_rank:.2f} s, relabelled in "
                  f"{time.perf_counter() - t - t_rank:.2f} s (host-timed, once)")
            for v in [v for v in variants if v["name"] in a.hilbert]:
                fn = lambda v=v: run_variant(v, B, hs)  # noqa: E731
                _, (lvl, info) = timed(fn)
                good = "ok" if np.array_equal(lvl[rank].get(), lref) else "WRONG"
                ts = [timed(fn)[0] for _ in range(a.rounds)]
                print(f"  bfs {oname} {v['name']:18s} min {min(ts):8.2f}  median "
                      f"{statistics.median(ts):8.2f} ms  {good}  messages {info['messages']}, "
                      f"visits {info['visits'] / (lref >= 0).sum():.3f} n, "
                      f"{1e3 * min(ts) / max(depth, 1):.2f} us/depth", flush=True)
                if "trace" in info:
                    trace_summary(info, depth)
            del B
        if not a.no_sssp:
            ref = csg.dijkstra(H, directed=True, indices=source)
            fn = lambda: algorithms.delta_stepping(A, source, symmetric=True)  # noqa: E731
            _, out = timed(fn)
            got = host(out).astype(np.float64)
            good = "ok" if np.array_equal(got, ref) else "WRONG"
            ts, td = [], []
            for _ in range(a.sssp_rounds):
                ms, _ = timed(lambda: csg.dijkstra(H, directed=True, indices=source))
                ts.append(ms)
                ms, _ = timed(fn)
                td.append(ms)
            sc = statistics.median(ts)
            print(f"  scipy dijkstra             min {min(ts):8.2f}  median {sc:8.2f} ms")
            print(f"  sssp algorithms.delta_stepping min {min(td):8.2f}  median "
                  f"{statistics.median(td):8.2f} ms  {sc / statistics.median(td):6.1f}x scipy "
                  f"(medians)  {good}", flush=True)
        print(f"  (elapsed {time.perf_counter() - t_start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
