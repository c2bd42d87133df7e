"""Issue 18 on W GPUs: the Dask path on GPU workers (one process per GPU) against the
in-process engine, BFS / SSSP / PageRank / connected components, every result checked
against the one-device answer.

    PYTHONPATH=. python3 bench/probes/dask_multi_gpu.py --out DIR [--workers 1,2,4]
        [--scales 22,24] [--check-scale 16] [--budget 200] [--tcp]

Sections, in this order, the several-GPU ones first (each skipped, and said so, once
``--budget`` seconds are spent):

- ``ids``: each worker's GPU (CUDA_VISIBLE_DEVICES, PCI bus id) and the exchange its ranks
  chose (NCCL where every rank has a GPU of its own).
- ``check``: kron-(check) on the most workers, NCCL and TCP, each against the in-process
  answer (BFS levels, deterministic parents, push and pull; SSSP, CC, PageRank).
- ``strong``: kron-(strong) on 1 worker (the one-device algorithm; and the SPMD loop on one
  rank, the same code as on W) and on each W of ``--workers`` (the SPMD loop, NCCL; with
  ``--tcp`` also TCP on the most workers).
- ``weak``: kron-(strong + log2 W) on W workers for each W > 1 of ``--workers`` (the same
  entries per GPU as kron-(strong) on one).
- ``base``: kron-(base) on one worker (the one-device algorithm through the mesh) against
  the in-process engine: issue 18's 1.5x target.

Each worker generates its share of the graph's edges on its GPU
(``DistMatrix.from_edge_function`` with ``bench.dask_suite.kron_chunk``: the same generator and
seed as the in-process copy, which is the reference; ``--build whole``: each worker makes the
whole graph, ``DistMatrix.from_function``). The reference is made first, in this process on
GPU 0, its answers kept on the host and the matrix freed before the workers build theirs;
where it does not fit (CuPy out of memory) the row says so and the Dask results are unchecked.
Times: medians after one warm-up (fewer repetitions for calls over a second), results kept on
the workers (``gather=False``) as the in-process ones stay on the GPU. Efficiencies: strong
T1 / (W TW), weak T1 / TW, each against the one-device algorithm on one worker and against
the SPMD loop on one rank. Writes ``DIR/NAME.json`` (every row, check and set-up time, saved
as each comes: a run cut short leaves what it measured) and ``DIR/NAME.txt`` (the table);
``NAME`` is ``dask_multi_gpu`` (``--name``). ``--device cpu`` runs the same on CPU worker
processes (a check of the probe, TCP only).
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

OPS = ("bfs", "sssp", "pagerank", "cc")

def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", default="1,2,4",
                    help="worker counts (GPUs) of the strong and weak scaling")
    ap.add_argument("--scales", default="22,24",
                    help="base,strong Kronecker scales (weak: strong + log2 W on W workers); "
                         "a third, the weak scale on the most workers, is the 2-GPU probe's")
    ap.add_argument("--tcp", action="store_true",
                    help="also time the strong scaling's most workers over TCP")
    ap.add_argument("--name", default="dask_multi_gpu", help="the output files' name")
    ap.add_argument("--check-scale", type=int, default=16)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=480.0,
                    help="seconds: sections not begun by then are skipped")
    ap.add_argument("--device", choices=("gpu", "cpu"), default="gpu")
    ap.add_argument("--skip", default="", help="comma list of: check,base,strong,weak")
    ap.add_argument("--build", choices=("chunks", "whole"), default="chunks",
                    help="chunks: each worker makes its share of the edges "
                         "(DistMatrix.from_edge_function); whole: each makes the whole graph")
    ap.add_argument("--out", default=".")
    args = ap.parse_args(argv)
    T0 = time.perf_counter()
    scales = [int(x) for x in args.scales.split(",")]
    base_s, strong_s = scales[:2]
    Ws = sorted({int(x) for x in args.workers.split(",")} | {1})
    Wmax = Ws[-1]
    # kron-(strong + log2 W) on W: the same entries per GPU (a power of two W)
    weak = {W: strong_s + W.bit_length() - 1 for W in Ws if W > 1 and W & (W - 1) == 0}
    if len(scales) > 2:  # the 2-GPU probe's form: the weak scale on the most workers
        weak = {Wmax: scales[2]} if Wmax > 1 else {}
    skip = set(filter(None, args.skip.split(",")))
    dev = args.device

    import semiring as sr
    import algorithms
    import algorithms.dist as ad
    from algorithms.dist import _local, _spmd
    from semiring import dist
    from semiring.dist import _mesh
    from bench import dask_suite as DS

    host = DS.host
    rows, checks, info = [], [], {"device": dev, "argv": vars(args)}
    os.makedirs(args.out, exist_ok=True)
    if dev == "gpu":
        import cupy
        info["gpus"] = [cupy.cuda.runtime.getDeviceProperties(i)["name"].decode()
                        for i in range(cupy.cuda.runtime.getDeviceCount())]

    def free():
        if dev == "gpu":
            cupy.get_default_memory_pool().free_all_blocks()

    def elapsed():
        return time.perf_counter() - T0

    def save():
        with open(os.path.join(args.out, f"{args.name}.json"), "w") as f:
            json.dump({"info": info, "rows": rows, "checks": checks}, f, indent=1)

    def rec(**r):
        rows.append(r)
        print("ROW", json.dumps(r), flush=True)
        save()

    def check(**c):
        checks.append(c)
        print("CHECK", json.dumps(c), flush=True)
        save()

    def sync():
        if dev == "gpu":
            cupy.cuda.Device().synchronize()

    def timed(fn, sync_here=True):
        """(median seconds, runs): one warm-up, then up to --reps runs within ~4 s."""
        t = time.perf_counter()
        fn()
        if sync_here:
            sync()
        first = time.perf_counter() - t
        reps = max(1, min(args.reps, int(4.0 / max(first, 1e-6))))
        ts = []
        for _ in range(reps):
            t = time.perf_counter()
            fn()
            if sync_here:
                sync()
            ts.append(time.perf_counter() - t)
        return float(np.median(ts)), reps

    def inproc_fn(op, M, src):
        if op == "pagerank":
            return lambda: algorithms.pagerank(M, weighted=False)
        return DS.inprocess_op(op, M, src)

    def dist_fn(op, DA, src, gather=False):
        f = {"bfs": functools.partial(ad.bfs, DA, src),
             "sssp": functools.partial(ad.sssp, DA, src),
             "pagerank": functools.partial(ad.pagerank, DA),
             # the Kronecker graphs are symmetric: the column blocks alone (no row blocks,
             # which the exchange would make through host pieces)
             "cc": functools.partial(ad.connected_components, DA, symmetric=True)}[op]

        def run():  # the workers done (a held result is computed when it comes back)
            out = f(gather=gather)
            return out if gather else out.wait()
        return run

    def in_process(scale):
        """The in-process matrix, its source vertex, the reference answers and times; where
        the graph or its answers do not fit this process's GPU, (None, None, None): said in
        the JSON, the Dask results then unchecked (the source drawn from the workers')."""
        try:
            return _in_process(scale)
        except Exception as err:  # noqa: BLE001 (CuPy's OutOfMemoryError: said, not raised)
            if "OutOfMemory" not in type(err).__name__:
                raise
            info[f"kron-{scale}"] = dict(reference=f"none: {type(err).__name__}: {err}")
            print("graph", scale, info[f"kron-{scale}"], flush=True)
            save()
            gc.collect()
            free()
            return None, None, None

    def _in_process(scale):
        t = time.perf_counter()
        A0 = DS.kron_graph(scale, dev)
        M = sr.Matrix.from_cupyx(A0) if dev == "gpu" else sr.Matrix.from_scipy(A0, device="cpu")
        deg = np.diff(host(A0.indptr))
        del A0
        sync()
        build = time.perf_counter() - t
        rng = np.random.default_rng(1)
        cand = np.flatnonzero(deg > 0)
        src = int(cand[rng.integers(cand.size)])
        ref = {}
        for op in OPS:
            ref[op] = host(inproc_fn(op, M, src)())
        info[f"kron-{scale}"] = dict(n=int(M.nrows), nnz=int(M.nvals), source=src,
                                     inprocess_build_s=round(build, 2))
        print("graph", scale, info[f"kron-{scale}"], flush=True)
        return M, src, ref

    def time_inproc(M, src, scale):
        if M is None:
            return
        for op in OPS:
            t, reps = timed(inproc_fn(op, M, src))
            rec(graph=f"kron-{scale}", case=op, path="in-process", workers=0, exchange="-",
                seconds=t, reps=reps)

    def make(scale, nparts):
        if args.build == "chunks":
            DA, tgen = DS.make_dist(client, functools.partial(DS.kron_chunk, scale, dev),
                                    1 << scale, nparts, dev, chunks=True)
        else:
            DA, tgen = DS.make_dist(client, functools.partial(DS.kron_graph, scale, dev),
                                    1 << scale, nparts, dev)
        rec(graph=f"kron-{scale}", case="setup",
            path=f"generate+cut on the workers ({args.build})",
            workers=nparts, exchange="-", seconds=tgen, reps=1)
        return DA

    def exchange_of(DA):
        got = DA.call_spmd(_rank_stats, (True,), keep=False)
        return got

    def source_of(DA):
        """A vertex with out-edges, drawn as in_process draws it, from the workers' degrees
        (for a graph without an in-process reference)."""
        deg = host(DA.degree("cols").to_dense())
        cand = np.flatnonzero(deg > 0)
        return int(cand[np.random.default_rng(1).integers(cand.size)])

    def verify(DA, src, ref, label, scale):
        """Every op's gathered result against the in-process answer; the exchange used."""
        ok = {}
        if ref is None:
            check(graph=f"kron-{scale}", path=label, workers=DA.nparts,
                  unchecked="no one-device reference (it did not fit)")
            return ok
        for op in OPS:
            got = host(dist_fn(op, DA, src, gather=True)())
            if op == "pagerank":
                ok["pagerank_maxdiff"] = float(np.abs(got - ref[op]).max())
            else:
                ok[op] = bool(np.array_equal(got, ref[op]))
        st = exchange_of(DA) if DA.nparts > 1 or _spmd.ONE_PARTITION else None
        check(graph=f"kron-{scale}", path=label, workers=DA.nparts,
              exchange=None if st is None else st[0][0], **ok)
        return ok

    def time_dist(DA, src, scale, label):
        for op in OPS:
            exchange_of(DA) if (DA.nparts > 1 or _spmd.ONE_PARTITION) else None
            t, reps = timed(dist_fn(op, DA, src), sync_here=False)
            extra = {}
            if DA.nparts > 1 or _spmd.ONE_PARTITION:
                st = exchange_of(DA)  # (exchange, all-gathers, seconds in them) per rank
                extra = dict(exchange=st[0][0], allgathers=st[0][1] // (reps + 1),
                             exchange_s=max(s[2] for s in st) / (reps + 1))
            else:
                extra = dict(exchange="-")
            rec(graph=f"kron-{scale}", case=op, path=label, workers=DA.nparts, seconds=t,
                reps=reps, **extra)

    def budget_left(section):
        if elapsed() > args.budget:
            info.setdefault("skipped", []).append(f"{section}: budget ({args.budget} s) spent "
                                                  f"at {elapsed():.0f} s")
            print("SKIP", section, flush=True)
            return False
        return True

    t = time.perf_counter()
    client = dist.local_cluster(Wmax, device=dev)
    info["cluster_start_s"] = round(time.perf_counter() - t, 2)
    info["workers"] = client.run(_worker_id)
    print("cluster", info, flush=True)

    def release():
        """Drop what the client no longer names (the meshes close with their matrices) and
        hand the pools' free memory back, here and on the workers."""
        gc.collect()
        free()
        if dev == "gpu":
            client.run(_free_pool)

    # ---- check: a small graph on 2 workers, NCCL and TCP, against the in-process answer
    def section_check():
        cs = args.check_scale
        M, src, ref = in_process(cs)
        DA = make(cs, Wmax)
        for mode in ("auto", "tcp"):
            _mesh.EXCHANGE = mode
            verify(DA, src, ref, f"spmd, EXCHANGE={mode}", cs)
            # deterministic parents and both directions, too
            l0, p0 = algorithms.bfs(M, src, parents=True, deterministic=True)
            l1, p1 = ad.bfs(DA, src, parents=True, deterministic=True)
            dirs = {d: bool(np.array_equal(host(ad.bfs(DA, src, direction=d)), host(l0)))
                    for d in ("push", "pull")}
            check(graph=f"kron-{cs}", path=f"spmd bfs parents, EXCHANGE={mode}", workers=Wmax,
                  levels=bool(np.array_equal(host(l1), host(l0))),
                  parents=bool(np.array_equal(host(p1), host(p0))), **dirs)
        _mesh.EXCHANGE = "auto"
        info["ranks"] = DA.call_spmd(_rank_id, keep=False)
        save()
        del DA, M, l0, p0, l1, p1
        release()

    # ---- strong: kron-(strong) on 1 and on each W workers (first: the multi-GPU figures)
    def section_strong():
        M, src, ref = in_process(strong_s)
        time_inproc(M, src, strong_s)
        del M
        release()
        DA = make(strong_s, 1)
        src = source_of(DA) if src is None else src
        verify(DA, src, ref, "one worker (mesh)", strong_s)
        time_dist(DA, src, strong_s, "one worker (mesh)")
        _local.WHOLE_ON_ONE_WORKER, _spmd.ONE_PARTITION = False, True
        try:
            verify(DA, src, ref, "spmd, one rank", strong_s)
            time_dist(DA, src, strong_s, "spmd, one rank")
        finally:
            _local.WHOLE_ON_ONE_WORKER, _spmd.ONE_PARTITION = True, False
        del DA
        release()
        for W in (w for w in Ws if w > 1):
            if not budget_left(f"strong, {W} workers"):
                break
            DA = make(strong_s, W)
            modes = ("auto", "tcp") if (args.tcp or len(scales) > 2) and W == Wmax else ("auto",)
            for mode in modes:
                if mode == "tcp" and not budget_left("strong, tcp"):
                    break
                _mesh.EXCHANGE = mode
                verify(DA, src, ref, f"spmd, EXCHANGE={mode}", strong_s)
                time_dist(DA, src, strong_s, f"spmd, EXCHANGE={mode}")
            _mesh.EXCHANGE = "auto"
            del DA
            release()
        del ref
        release()

    # ---- weak: kron-(strong + log2 W) on W workers
    def section_weak():
        for W, sc in sorted(weak.items()):
            if not budget_left(f"weak, {W} workers"):
                break
            M, src, ref = in_process(sc)
            time_inproc(M, src, sc)
            del M
            release()
            DA = make(sc, W)
            src = source_of(DA) if src is None else src
            verify(DA, src, ref, "spmd, EXCHANGE=auto", sc)
            time_dist(DA, src, sc, "spmd, EXCHANGE=auto")
            del DA, ref
            release()

    # ---- base: one worker against the in-process engine (measured before on an H100)
    def section_base():
        M, src, ref = in_process(base_s)
        time_inproc(M, src, base_s)
        del M
        release()
        DA = make(base_s, 1)
        verify(DA, src, ref, "one worker (mesh)", base_s)
        time_dist(DA, src, base_s, "one worker (mesh)")
        del DA
        release()

    def run_section(name, fn):
        """A section, unless skipped or out of budget; its error recorded, not raised (the
        next sections still run)."""
        if name in skip or not budget_left(name):
            return
        try:
            fn()
        except Exception:  # noqa: BLE001 (recorded in the JSON and printed)
            err = traceback.format_exc()
            info.setdefault("errors", []).append({"section": name, "error": err})
            print("ERROR in", name, err, flush=True)
            save()
        finally:
            _mesh.EXCHANGE = "auto"
            _local.WHOLE_ON_ONE_WORKER, _spmd.ONE_PARTITION = True, False
            release()

    run_section("check", section_check)
    run_section("strong", section_strong)
    run_section("weak", section_weak)
    run_section("base", section_base)

    info["total_s"] = round(elapsed(), 1)
    client.close()
    client.cluster.close()
    lines = table(rows, checks, strong_s, weak)
    text = "\n".join(lines)
    print(text, flush=True)
    with open(os.path.join(args.out, f"{args.name}.txt"), "w") as f:
        f.write(text + "\n")
    save()


def table(rows, checks, strong_s, weak):
    """The rows as a Markdown table, then per op: one worker against in-process, and the
    strong (T1 / (W TW)) and weak (T1 / TW) efficiencies against both one-GPU bases."""
    lines = ["| graph | case | path | workers | exchange | ms | all-gathers | ms in them |",
             "|---|---|---|---:|---|---:|---:|---:|"]
    for r in rows:
        ag = r.get("allgathers", "")
        ex = r.get("exchange_s")
        lines.append(f"| {r['graph']} | {r['case']} | {r['path']} | {r['workers']} | "
                     f"{r.get('exchange', '')} | {r['seconds'] * 1e3:.2f} | {ag} | "
                     f"{'' if ex is None else f'{ex * 1e3:.2f}'} |")
    get = {(r["graph"], r["case"], r["path"], r["workers"]): r["seconds"] for r in rows}
    nccl = "spmd, EXCHANGE=auto"
    Ws = sorted({r["workers"] for r in rows if r["path"] == nccl})
    lines.append("")
    lines.append("ratios (dask / in-process; efficiencies: strong T1 / (W TW), weak T1 / TW)")
    g1 = f"kron-{strong_s}"
    for op in OPS:
        parts = []
        for s in sorted({r["graph"] for r in rows}):
            a, b = get.get((s, op, "in-process", 0)), get.get((s, op, "one worker (mesh)", 1))
            if a and b:
                parts.append(f"{s} one worker {b / a:.2f}x")
        for base in ("one worker (mesh)", "spmd, one rank"):
            t1 = get.get((g1, op, base, 1))
            if not t1:
                continue
            for W in Ws:
                tw = get.get((g1, op, nccl, W))
                if tw:
                    parts.append(f"strong {W} vs {base}: {t1 / (W * tw):.0%}")
                sc = weak.get(W)
                tw = get.get((f"kron-{sc}", op, nccl, W)) if sc is not None else None
                if tw:
                    parts.append(f"weak {W} (kron-{sc}) vs {base}: {t1 / tw:.0%}")
        for W in Ws:
            t2, tt = get.get((g1, op, nccl, W)), get.get((g1, op, "spmd, EXCHANGE=tcp", W))
            if t2 and tt:
                parts.append(f"{W} workers tcp / nccl {tt / t2:.2f}x")
        lines.append(f"{op}: " + "; ".join(parts))
    lines.append("")
    for c in checks:
        lines.append("check " + json.dumps(c))
    return lines


def _worker_id():
    """(On a worker.) Its CUDA_VISIBLE_DEVICES, GPU and PCI bus id."""
    out = {"CUDA_VISIBLE_DEVICES": os.environ.get("CUDA_VISIBLE_DEVICES"),
           "NCCL_NVLS_ENABLE": os.environ.get("NCCL_NVLS_ENABLE")}
    try:
        import cupy
        d = cupy.cuda.Device()
        out.update(gpu=cupy.cuda.runtime.getDeviceProperties(d.id)["name"].decode(),
                   pci_bus_id=d.pci_bus_id, visible=cupy.cuda.runtime.getDeviceCount())
    except Exception as err:  # noqa: BLE001 (a CPU worker: said, not raised)
        out["gpu"] = repr(err)
    return out


def _free_pool():
    """(On a worker.) Its CuPy pool's free blocks back to the driver."""
    import cupy
    gc.collect()
    cupy.get_default_memory_pool().free_all_blocks()
    return cupy.cuda.runtime.memGetInfo()[0]


def _rank_id(rank):
    """(On a rank.) Its rank, device, exchange and why NCCL was not made (None: it was)."""
    return dict(rank=rank.rank, device=rank.device, exchange=rank.exchange,
                nccl_why=rank._nccl_why, worker=_worker_id())


def _rank_stats(rank, reset):
    """(On a rank.) Its exchange (that of this command: the client's EXCHANGE, the same as
    for the calls measured), the all-gathers since the last reset and their seconds."""
    out = (rank.exchange, rank.exchanges, rank.exchange_s)
    if reset:
        rank.exchanges, rank.exchange_s = 0, 0.0
    return out


if __name__ == "__main__":
    main()
