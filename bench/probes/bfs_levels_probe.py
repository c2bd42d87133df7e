"""BFS (``algorithms.bfs``: one ``bfs_grid`` launch) on Kronecker / uniform graphs: where the
time goes and which kernel options, thresholds and grids cut it (a device-tool probe, not a
test; issue 20 item 3).

    PYTHONPATH=. python3 bench/probes/bfs_levels_probe.py kron-22 urand-22 kron-24 \\
        [--variants old,base,...] [--alphas 14,40] [--betas 24] [--reps 9] [--quick]
        [--json out.json] [--gap GAPBS --bench-source] [--interleave] [--host]

(``--gap``: GAP's own graphs, ``gap-kron-22`` ..., as ``python -m bench --gap`` makes them;
``--bench-source``: the bench's source first; ``--interleave``: the variants timed call by
call in turn; ``--host``: with ``--quick``, the host breakdown too.)

For each graph (made on the GPU by ``bench.generators``; sources of nonzero degree drawn as the
bench draws them):

- the host's share of a warm call: ``algorithms.bfs`` timed by CUDA events around it (as
  ``python -m bench`` times it), its host time alone (``perf_counter`` before and after the
  call, no sync), the same for ``bfs_grid`` and for the bare launch, and the kernel's own
  levels (``trace=True``, device clock);
- each kernel variant (NVRTC ``-D`` options of ``kernels/traverse.cu``, the module's cache key):
  median of ``--reps`` calls of ``algorithms.bfs`` (events), the traced levels, the levels
  checked equal to the first variant's and valid (``check_levels``);
- thresholds (``alpha``, ``beta``) and blocks a multiprocessor on the last variant.

Prints a table at the end; ``--json`` keeps every figure.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import json
import pstats
import statistics
import sys
import time

import cupy as cp
import cupyx
import numpy as np

import algorithms
import semiring as sr
from bench import generators as gen
from semiring import traversal
from semiring.backend.gpu import traversal as gpu_traversal

BFS = importlib.import_module("algorithms.bfs")

#: The kernel variants, by name: extra NVRTC options of the cooperative module (the switches
#: of bfs_grid in kernels/traverse.cu; session 12's figures in bench/results/session12-bfs5/).
VARIANTS = {
    # the former kernel: 40 registers with spills, loads through L2, a word a step in the
    # bitmap -> queue step, out-degrees after the scan, no prefetch, the fill at the start
    "old": ("-DSR_BFS_MINB=3", "-DSR_PULL_L1=0", "-DSR_PUSH_L1=0", "-DSR_B2Q_BATCH=0",
            "-DSR_PULL_DEG_EARLY=0", "-DSR_PULL_PREFETCH=0", "-DSR_LAZY_FILL=0"),
    "base": (),                                    # this tree's defaults
    "fill": ("-DSR_LAZY_FILL=0",),                 # level / parent filled before the first level (the default)
    "lazy": ("-DSR_LAZY_FILL=1",),                 # their -1 written by the first pull
    "nopf": ("-DSR_PULL_PREFETCH=0",),             # no prefetch of the pull's next word
    "late": ("-DSR_PULL_DEG_EARLY=0",),            # out-degrees loaded after the scan
    "l2": ("-DSR_PULL_L1=0", "-DSR_PUSH_L1=0"),    # frontier bits and the push's search via L2
    "b2qw": ("-DSR_B2Q_BATCH=0",),                 # the bitmap -> queue step a word a step
    "s2": ("-DSR_PULL_STEP=2",),
    "s8": ("-DSR_PULL_STEP=8",),
    # session 13 (bench/results/session13-bfs6): the push's edges a batch a thread
    # (SR_PUSH_BATCH, default 4), the pull's 32-word groups skipping done words (SR_PULL_SKIP)
    # over a visited bitmap that starts with the vertices no edge enters (SR_NOIN), their first
    # in-neighbours loaded a word ahead (SR_PULL_AHEAD, default on: "ahead" is base now)
    "s12": ("-DSR_PUSH_BATCH=1", "-DSR_PULL_SKIP=0", "-DSR_NOIN=0", "-DSR_PUSH_CLEARS=0",
            "-DSR_FLUSH_UNROLL=0", "-DSR_PULL_AHEAD=0"),  # session 12's kernel
    "pb1": ("-DSR_PUSH_BATCH=1",),
    "pb2": ("-DSR_PUSH_BATCH=2",),
    "pb8": ("-DSR_PUSH_BATCH=8",),
    "noskip": ("-DSR_PULL_SKIP=0",),
    "nonoin": ("-DSR_NOIN=0",),
    "ahead": ("-DSR_PULL_AHEAD=1",),
    "noahead": ("-DSR_PULL_AHEAD=0",),
    "clr0": ("-DSR_PUSH_CLEARS=0",),
    "fl0": ("-DSR_FLUSH_UNROLL=0",),
    # all five switches of session 13 off, but the scratch kept and the vertices without
    # in-edges marked (SR_NOIN) as in base
    "s12n": ("-DSR_PUSH_BATCH=1", "-DSR_PULL_SKIP=0", "-DSR_PUSH_CLEARS=0", "-DSR_FLUSH_UNROLL=0",
             "-DSR_PULL_AHEAD=0"),
    # session 14: a lane's steps after its first (loaded ahead, SR_PULL_STEP = 4 in-neighbours)
    # take SR_PULL_NEXT in-neighbours at once (default: SR_PULL_STEP)
    "n8": ("-DSR_PULL_NEXT=8",),
    "n12": ("-DSR_PULL_NEXT=12",),
    "n16": ("-DSR_PULL_NEXT=16",),
    "s8na": ("-DSR_PULL_STEP=8", "-DSR_PULL_AHEAD=0"),
    # session 14: the search stops once every vertex is visited (SR_STOP_ALL), a push sets
    # its claims' bits in the next frontier's bitmap (SR_PUSH_BITS); batch 1 measured both on
    # (the count in a register) as "base", "ns0" and "nb0" (one of them off), all slower than
    # both off ("s13k", now the default: the same cubin as base)
    "s13k": ("-DSR_STOP_ALL=0", "-DSR_PUSH_BITS=0"),  # session 13's kernel (but the fill bit)
    "ns0": ("-DSR_STOP_ALL=0", "-DSR_PUSH_BITS=1"),
    "nb0": ("-DSR_STOP_ALL=1", "-DSR_PUSH_BITS=0"),
    "stop": ("-DSR_STOP_ALL=1",),  # the count in shared memory (batch 2)
    "bits": ("-DSR_PUSH_BITS=1",),
    "stopbits": ("-DSR_STOP_ALL=1", "-DSR_PUSH_BITS=1"),
    "wb256": ("-DSR_WARP_BUF=256",),  # the push's append buffers twice as long
    "smp4k": ("-DSR_GRID_SAMPLES=4096",),  # the push's slot search: twice the samples
    "s6n12": ("-DSR_PULL_STEP=6", "-DSR_PULL_NEXT=12"),
    "s8n16": ("-DSR_PULL_STEP=8", "-DSR_PULL_NEXT=16"),
}

#: The host's switches (session 14), (algorithms.bfs.FAST_PATH, traversal.BFS_GRID_DIRECT,
#: traversal.BFS_GRID_HOST_FILL) by name, for --hostab: the kept launch reused by
#: algorithms.bfs, the driver's launch with a kept parameter block, level's -1 by a memset
#: issued before the launch. (Batch 2 also had "nospare", without a spare level allocated
#: after each launch, since removed: bench/results/session14-bfs7.)
HOST_CONFIGS = {"all": (True, True, True), "nofast": (False, True, True),
                "cupylaunch": (False, False, True), "s13": (False, False, False),
                "fillonly": (True, True, False),
                # session 14's defaults (the fill in the kernel: the memset measured neutral),
                # and without the fast path
                "kept": (True, True, False), "kept_nofast": (False, True, False)}


def set_host(name):
    BFS.FAST_PATH, traversal.BFS_GRID_DIRECT, traversal.BFS_GRID_HOST_FILL = HOST_CONFIGS[name]


def host_ab(A, s, reps, names):
    """The host configurations call by call in turn: events (ms) and host time (us, no sync
    inside) of algorithms.bfs, each result checked equal to the first configuration's."""
    out, ref = {}, None
    for name in names:  # warm each (the kept launch is made on a configuration's first call)
        set_host(name)
        L = algorithms.bfs(A, s, symmetric=True)
        if ref is None:
            ref = L
        elif not bool((L == ref).all()):
            print(f"  hostab {name}: MISMATCH", flush=True)
    for _ in range(reps):
        for name in names:
            set_host(name)
            out.setdefault(f"{name}_events_ms", []).extend(
                events_ms(lambda: algorithms.bfs(A, s, symmetric=True), 1)[1])
            out.setdefault(f"{name}_host_us", []).append(
                host_us(lambda: algorithms.bfs(A, s, symmetric=True), 1))
    set_host("kept")
    # the floor: the kept launch alone (traversal.bfs_grid_runner), no algorithms.bfs around it
    run = traversal.bfs_grid_runner(A.as_symmetric(), symmetric=True, alpha=BFS.ALPHA,
                                    beta=BFS.BETA)
    if run is not None:
        if not bool((run(s)[0] == ref).all()):
            print("  hostab runner: MISMATCH", flush=True)
        out["runner_events_ms"] = events_ms(lambda: run(s), reps)[1]
        out["runner_host_us"] = [host_us(lambda: run(s), reps)]
    return {k: statistics.median(v) for k, v in out.items()}


def events_ms(f, reps):
    """Median and all of ``reps`` calls of f, each timed by CUDA events around it (the
    bench's way: the host's work before the launch is inside)."""
    s = cp.cuda.get_current_stream()
    ts = []
    for _ in range(reps):
        s.synchronize()
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record(s)
        out = f()
        b.record(s)
        b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
    return statistics.median(ts), ts, out


def host_us(f, reps):
    """Median host time of a call (no sync inside the timed span), device idle at its start."""
    ts = []
    for _ in range(reps):
        cp.cuda.get_current_stream().synchronize()
        t0 = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t0) * 1e6)
    cp.cuda.get_current_stream().synchronize()
    return statistics.median(ts)


def check_levels(A, L, s):
    """Whether L is the BFS level array of A from s: L[s] = 0, no edge from a reached u skips
    a level (L[v] <= L[u] + 1, v reached), every reached v != s has an in-neighbour one level
    up. Vectorized over the edges on the GPU."""
    n = A.nrows
    if int(L[s]) != 0:
        return False
    nnz = A.nvals
    cnt = cp.zeros(nnz + 1, dtype=cp.int32)  # rows ending at each entry, summed: its row
    cupyx.scatter_add(cnt, A.indptr[1:n], 1)
    rows = cp.cumsum(cnt[:nnz], dtype=cp.int32)
    del cnt
    Lu = L[rows]
    Lv = L[A.indices]
    del rows
    if bool(((Lu >= 0) & ((Lv < 0) | (Lv > Lu + 1))).any()):
        return False
    tree = (Lu >= 0) & (Lv == Lu + 1)
    mark = cp.zeros(n, dtype=cp.int8)
    mark[A.indices[tree]] = 1
    reached = L > 0
    return bool((mark[reached] == 1).all()) and int((L == 0).sum()) == 1


def set_variant(opts):
    gpu_traversal.GRID_OPTIONS = ("-std=c++17", *opts)


def kernel_attrs(A):
    """Registers and local (spill) bytes of this variant's bfs_grid<I, 0>."""
    f, _ = gpu_traversal.grid_function(f"bfs_grid<{gpu_traversal.C_TYPES[np.dtype(A.itype)]}, 0>",
                                       "bfs_grid", traversal.BFS_GRID_BLOCKS_PER_SM)
    a = f.attributes
    return f"{a.get('num_regs')} registers, {a.get('local_size_bytes')} B local"


def host_breakdown(A, s, reps):
    """Where a warm call's host time goes (µs, medians; no sync inside the timed spans), and
    the top of a cProfile of a few hundred calls."""

    A_sym = A.as_symmetric()
    n = A.nrows
    isz = np.dtype(A.itype).itemsize
    kname = f"bfs_grid<{gpu_traversal.C_TYPES[np.dtype(A.itype)]}, 0>"
    scratch = cp.empty(256, dtype=cp.uint8)
    h = {
        "bfs_events_ms": events_ms(lambda: algorithms.bfs(A, s, symmetric=True), reps)[0],
        "bfs_host_us": host_us(lambda: algorithms.bfs(A, s, symmetric=True), reps),
        "bfs_grid_host_us": host_us(lambda: traversal.bfs_grid(
            A_sym, s, symmetric=True, alpha=BFS.ALPHA, beta=BFS.BETA), reps),
        "grid_function_us": host_us(lambda: gpu_traversal.grid_function(
            kname, "bfs_grid", traversal.BFS_GRID_BLOCKS_PER_SM), reps),
        "empty_n_us": host_us(lambda: cp.empty(n, dtype=cp.int64), reps),
        "workspace_us": host_us(lambda: traversal._bfs_workspace(cp, n, isz), reps),
        "memset_us": host_us(lambda: scratch.data.memset_async(0, 96), reps),
        "no_in_edges_us": host_us(lambda: traversal._no_in_edges(A_sym, cp), reps),
        "get_device_us": host_us(lambda: cp.cuda.runtime.getDevice(), reps),
        "as_matrix_us": host_us(lambda: sr.as_matrix(A, op="bfs", arg="A", square=True), reps),
    }
    # the kept scratch and kernel lookup (traversal.BFS_GRID_KEEP) on and off, call by call
    ab = {}
    for _ in range(reps):
        for keep in (True, False):
            traversal.BFS_GRID_KEEP = keep
            ab.setdefault(f"keep{int(keep)}_events_ms", []).extend(
                events_ms(lambda: algorithms.bfs(A, s, symmetric=True), 1)[1])
            ab.setdefault(f"keep{int(keep)}_host_us", []).append(
                host_us(lambda: algorithms.bfs(A, s, symmetric=True), 1))
    traversal.BFS_GRID_KEEP = True
    h.update({k: statistics.median(v) for k, v in ab.items()})
    f, blocks = gpu_traversal.grid_function(kname, "bfs_grid", traversal.BFS_GRID_BLOCKS_PER_SM)
    ws, ptr = traversal._bfs_workspace(cp, n, isz)
    lvl = cp.empty(n, dtype=cp.int64)
    noin = traversal._no_in_edges(A_sym, cp)
    kargs = (A.indptr, A.indices, A.indptr, A.indices, np.int64(n), np.int64(s), lvl, lvl,
             *ptr, np.int64(BFS.ALPHA), np.int64(BFS.BETA), np.int32(0), np.uint64(0),
             np.int64(traversal.TRACE_LEVELS), noin)
    h["raw_launch_us"] = host_us(lambda: f((blocks,), (gpu_traversal.GRID_THREADS,), kargs), reps)
    h["raw_events_ms"] = events_ms(lambda: f((blocks,), (gpu_traversal.GRID_THREADS,), kargs), reps)[0]
    kint = tuple(int(x.data.ptr) if isinstance(x, cp.ndarray) else x for x in kargs)
    kint = tuple(np.uint64(x) if isinstance(x, int) else x for x in kint)
    h["raw_launch_ptrs_us"] = host_us(lambda: f((blocks,), (gpu_traversal.GRID_THREADS,), kint), reps)
    cp.cuda.get_current_stream().synchronize()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(300):
        algorithms.bfs(A, s, symmetric=True)
        cp.cuda.get_current_stream().synchronize()
    pr.disable()
    buf = io.StringIO()
    pstats.Stats(pr, stream=buf).sort_stats("tottime").print_stats(22)
    h["cprofile"] = buf.getvalue()
    return h


def trace_of(A, s, **kw):
    _, _, info = traversal.bfs_grid(A, s, symmetric=True, trace=True, **kw)
    return info["trace"]


def fmt_trace(steps):
    return " / ".join(f"{us:.0f}{'p' if way == 'pull' else ''}" for us, _, _, way in steps)


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--variants", default="old,base,fill,nopf,l2")
    ap.add_argument("--alphas", default="14,40,100")
    ap.add_argument("--betas", default="8,24,64")
    ap.add_argument("--per-sm", default="2")
    ap.add_argument("--sweep-variant", default="base")
    ap.add_argument("--sources", type=int, default=2)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--json", default=None)
    ap.add_argument("--quick", action="store_true",
                    help="the variants only (no host breakdown, no threshold sweep)")
    ap.add_argument("--gap", default=None,
                    help="a gapbs checkout: GAP's own graphs (gap-kron-22, ...) as graphs")
    ap.add_argument("--bench-source", action="store_true",
                    help="the first source is python -m bench's (its seed-0 draw)")
    ap.add_argument("--interleave", action="store_true",
                    help="time the variants call by call in turn (one warm-up each first)")
    ap.add_argument("--host", action="store_true",
                    help="with --quick: the host breakdown of the first variant too")
    ap.add_argument("--hostab", default=None,
                    help="host configurations (HOST_CONFIGS names, comma-separated) timed call "
                         "by call on the first variant and source")
    args = ap.parse_args(argv)
    if args.gap:
        from bench import peers_gap  # noqa: PLC0415  (registers the gap-* graph kinds)

        peers_gap.configure(args.gap, suites=False)
    dev = cp.cuda.Device()
    print(f"device {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}, "
          f"{dev.attributes['MultiProcessorCount']} SMs", flush=True)
    out = {"graphs": {}}
    table = []
    for spec in args.graphs:
        t0 = time.perf_counter()
        S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp)
        A = sr.Matrix.from_cupyx(S)
        del S
        deg = cp.diff(A.indptr)
        cand = cp.flatnonzero(deg > 0).get()
        rng = np.random.default_rng(0)
        srcs = [int(x) for x in rng.choice(cand, args.sources, replace=False)]
        if args.bench_source:  # bench.cases.bfs: default_rng(0).choice of the nonzero degrees
            b = int(np.random.default_rng(0).choice(cand))
            srcs = [b] + [x for x in srcs if x != b][:args.sources - 1]
        print(f"{spec}: n={A.nrows} nnz={A.nvals} itype={A.itype} sources={srcs} "
              f"(made in {time.perf_counter() - t0:.1f} s)", flush=True)
        g = out["graphs"][spec] = {"n": A.nrows, "nnz": A.nvals, "sources": srcs,
                                   "variants": {}, "alpha": {}}
        ref, te = {}, {}
        last = None
        names = args.variants.split(",")
        if args.interleave:
            inter = {}
            for name in names:
                set_variant(VARIANTS[name])
                algorithms.bfs(A, srcs[0], symmetric=True)  # compile, warm
                print(f"  {name}: {kernel_attrs(A)}", flush=True)
            for s in srcs:
                for name in names:  # a warm-up each, then the calls in turn
                    set_variant(VARIANTS[name])
                    algorithms.bfs(A, s, symmetric=True)
                for _ in range(args.reps):
                    for name in names:
                        set_variant(VARIANTS[name])
                        _, ts, _ = events_ms(lambda: algorithms.bfs(A, s, symmetric=True), 1)
                        inter.setdefault((name, s), []).extend(ts)
            for (name, s), ts in inter.items():
                print(f"  interleaved {name:7s} src {s:9d} median {statistics.median(ts):7.3f} ms "
                      f"min {min(ts):7.3f}", flush=True)
            g["interleaved"] = {f"{k[0]}/{k[1]}": v for k, v in inter.items()}
        for name in names:
            set_variant(VARIANTS[name])
            try:
                algorithms.bfs(A, srcs[0], symmetric=True)  # compile, warm
            except Exception as err:  # noqa: BLE001  (a probe: report and go on)
                print(f"  {name}: {type(err).__name__}: {err}", flush=True)
                continue
            last = name
            row = {}
            for s in srcs:
                med, ts, L = events_ms(lambda: algorithms.bfs(A, s, symmetric=True), args.reps)
                if s not in ref:
                    ref[s] = L
                    ok = check_levels(A, L, s)
                    # Graph500: undirected edges in the component, each once (a symmetric
                    # graph without self-loops: half its reached vertices' degrees)
                    te[s] = int(deg[L >= 0].sum()) // 2
                else:
                    ok = bool((L == ref[s]).all())
                steps = trace_of(A, s, alpha=BFS.ALPHA, beta=BFS.BETA)
                row[s] = {"ms": med, "all": ts, "ok": ok, "trace": steps,
                          "gteps": te[s] / med / 1e6}
                print(f"  {name:7s} src {s:9d} {med:7.3f} ms {te[s] / med / 1e6:6.1f} GTEPS "
                      f"{'ok' if ok else 'MISMATCH'}  "
                      f"device {sum(x[0] for x in steps):6.0f} us: {fmt_trace(steps)}", flush=True)
            g["variants"][name] = row
            table.append((spec, name, statistics.mean(r["ms"] for r in row.values()),
                          all(r["ok"] for r in row.values())))
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(out, fh, default=str)
        if args.hostab and last is not None:
            set_variant(VARIANTS[names[0]])
            h = host_ab(A, srcs[0], max(args.reps, 15), args.hostab.split(","))
            g["hostab"] = h
            print("  hostab (" + names[0] + f", src {srcs[0]}): " + ", ".join(
                f"{k} {v:.3f}" for k, v in h.items()), flush=True)
            if args.json:
                with open(args.json, "w") as fh:
                    json.dump(out, fh, default=str)
        if args.host and last is not None:
            set_variant(VARIANTS[names[0]])
            h = host_breakdown(A, srcs[0], max(args.reps, 30))
            g["host_breakdown"] = h
            print("  host (" + names[0] + "): " + ", ".join(
                f"{k} {v:.3f}" for k, v in h.items() if k != "cprofile"), flush=True)
            print(h["cprofile"], flush=True)
            if args.json:
                with open(args.json, "w") as fh:
                    json.dump(out, fh, default=str)
        if last is None or args.quick:
            continue
        if args.sweep_variant in g["variants"]:
            last = args.sweep_variant
        set_variant(VARIANTS[last])
        s = srcs[0]
        # the host's share of one warm call
        A_sym = A.as_symmetric()
        f, blocks = gpu_traversal.grid_function(f"bfs_grid<{gpu_traversal.C_TYPES[np.dtype(A.itype)]}, 0>",
                                                "bfs_grid", traversal.BFS_GRID_BLOCKS_PER_SM)
        n = A.nrows
        ws, ptr = traversal._bfs_workspace(cp, n, np.dtype(A.itype).itemsize)
        lvl = cp.empty(n, dtype=cp.int64)
        kargs = (A.indptr, A.indices, A.indptr, A.indices, np.int64(n), np.int64(s), lvl, lvl,
                 *ptr, np.int64(BFS.ALPHA), np.int64(BFS.BETA), np.int32(0), np.uint64(0),
                 np.int64(traversal.TRACE_LEVELS), traversal._no_in_edges(A_sym, cp))

        def raw():
            f((blocks,), (gpu_traversal.GRID_THREADS,), kargs)

        def old_alloc():  # the former allocations: five arrays, a zero fill, seven views
            q = cp.empty((2, n), dtype=A.itype)
            o = cp.empty((2, n), dtype=cp.int64)
            bits = cp.empty((3, (n + 31) // 32), dtype=cp.uint32)
            st = cp.zeros(12, dtype=cp.int64)
            return q[0], q[1], o[0], o[1], bits[0], bits[1], bits[2], st, cp.empty(n, dtype=cp.int64)

        def new_alloc():
            return traversal._bfs_workspace(cp, n, np.dtype(A.itype).itemsize), cp.empty(n, dtype=cp.int64)

        h = {
            "bfs_events_ms": events_ms(lambda: algorithms.bfs(A, s, symmetric=True), args.reps)[0],
            "bfs_grid_events_ms": events_ms(lambda: traversal.bfs_grid(A_sym, s, symmetric=True, alpha=BFS.ALPHA, beta=BFS.BETA), args.reps)[0],
            "raw_events_ms": events_ms(raw, args.reps)[0],
            "bfs_host_us": host_us(lambda: algorithms.bfs(A, s, symmetric=True), args.reps),
            "bfs_grid_host_us": host_us(lambda: traversal.bfs_grid(A_sym, s, symmetric=True, alpha=BFS.ALPHA, beta=BFS.BETA), args.reps),
            "raw_host_us": host_us(raw, args.reps),
            "old_alloc_host_us": host_us(old_alloc, args.reps),
            "new_alloc_host_us": host_us(new_alloc, args.reps),
            "grid_function_host_us": host_us(lambda: gpu_traversal.grid_function(
                f"bfs_grid<{gpu_traversal.C_TYPES[np.dtype(A.itype)]}, 0>", "bfs_grid",
                traversal.BFS_GRID_BLOCKS_PER_SM), args.reps),
            "device_levels_us": sum(x[0] for x in trace_of(A, s, alpha=BFS.ALPHA, beta=BFS.BETA)),
        }
        g["host"] = h
        print("  host: " + ", ".join(f"{k} {v:.3f}" for k, v in h.items()), flush=True)
        # thresholds and grids on the last variant
        for per_sm in [int(x) for x in args.per_sm.split(",")]:
            for alpha in [int(x) for x in args.alphas.split(",")]:
                for beta in [int(x) for x in args.betas.split(",")]:
                    row = []
                    for s in srcs:
                        med, _, (L, _, _) = events_ms(lambda: traversal.bfs_grid(
                            A_sym, s, symmetric=True, alpha=alpha, beta=beta,
                            blocks_per_sm=per_sm), args.reps)
                        ok = bool((L == ref[s]).all())
                        steps = trace_of(A_sym, s, alpha=alpha, beta=beta, blocks_per_sm=per_sm)
                        row.append((med, ok, steps))
                        print(f"  {last} per_sm={per_sm} alpha={alpha:3d} beta={beta:3d} src {s:9d} "
                              f"{med:7.3f} ms {'ok' if ok else 'MISMATCH'} device "
                              f"{sum(x[0] for x in steps):6.0f} us: {fmt_trace(steps)}", flush=True)
                    g["alpha"][f"{per_sm}/{alpha}/{beta}"] = row
                    table.append((spec, f"{last} sm{per_sm} a{alpha} b{beta}",
                                  statistics.mean(r[0] for r in row), all(r[1] for r in row)))
        del A, A_sym, ref, ws, lvl
        cp.get_default_memory_pool().free_all_blocks()
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(out, fh, default=str)
    print("\n| graph | variant | ms (mean of the sources' medians) | levels |")
    print("|---|---|---:|---|")
    for spec, name, ms, ok in table:
        print(f"| {spec} | {name} | {ms:.3f} | {'ok' if ok else 'MISMATCH'} |")


if __name__ == "__main__":
    main(sys.argv[1:])
