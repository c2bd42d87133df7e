"""A whole direction-optimizing BFS over two GPUs with no host in the level loop (issue 18's
de-risking probe): one persistent cooperative launch of the library's ``bfs_peer`` kernel
(``semiring/kernels/bfs_peer.cu``, this probe's own kernel until session 23) on each GPU,
launched back to back from this one process, the two grids exchanging frontier bits over NVLink (peer memory) and meeting at a cross-GPU barrier after every level. Measures it
against the one-device search (``algorithms.bfs`` on GPU 0, one ``bfs_grid`` launch) on the
same Graph500 sources in the same run; checks every result's levels.

    PYTHONPATH=. python3 bench/probes/bfs_two_gpu.py --scale 24 --sources 16
        [--gpus 2|1] [--reps 3] [--split edges|vertices] [--precheck 12,16] [--trace]
        [--alpha A --beta B] [--per-sm 2] [--timeout-s 2] [--define SR_PULL_STEP=8 ...]

``--gpus 1``: the same kernel alone on GPU 0 (no peer), a baseline of the kernel itself
against ``bfs_grid``. ``--precheck``: before the main graph, small Kronecker graphs searched
from a few sources in each direction mode (auto, push only, pull only), their levels checked
against SciPy's ``breadth_first_order`` and ``algorithms.bfs``.

The graph: ``bench.generators.kronecker(scale, weighted=False)`` made on GPU 0 (symmetrized,
self-loops and duplicates dropped, as the bench makes ``kron-S``), its CSR copied to GPU 1
(both hold the whole graph). Vertex ownership: the 32-vertex words of the bitmaps, split where
the CSR's edges are halved (``--split edges``, default) or at n / 2 (``vertices``); the
Kronecker labels are randomly permuted, so the two are close, and the edge split is the one
that still balances a graph whose labels are not.

Lines printed (flushed as they come; a partial output is readable):

- ``devices``, ``peer``: the GPUs, whether each can access the other's memory (else exit 2);
- ``kernel``: registers, local bytes, resident blocks a multiprocessor, the grid;
- ``graph``: n, stored entries, generation and copy times, the split and each GPU's share;
- ``precheck``: small graphs, ``levels equal: True/False`` against SciPy and the engine;
- ``source``: one line a source: the median of ``--reps`` calls of the 2-GPU search (CUDA
  events on both streams, the later end; ``in-kernel``: the device clock from the first cross
  barrier to the end, the slower GPU) and of ``algorithms.bfs`` on GPU 0, the search's levels
  (push / pull), ``levels equal``;
- ``trace``: with ``--trace``, the first source's levels on GPU 0 (µs, global frontier size,
  out-edges, direction);
- ``RESULT``: the medians over the sources, t1 / t2 (speed-up) and t1 / (P · t2) (efficiency),
  ``levels equal`` over every source; exit status 1 where any level differs, 3 on a kernel
  error (a timed-out cross barrier: the kernel exits, it does not hang).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time

import numpy as np

#: The kernel's source, next to this file.
KERNEL = "bfs_peer<int>"
#: Threads a block (SR_GRID_THREADS in the kernel).
THREADS = 512
#: int64 words of a GPU's state; the first PEER_WORDS are zeroed before each launch, the rest
#: (written by the peer: its arrival stamp, the abort word, the count slots) only once.
STATE_WORDS = 40
PEER_WORDS = 32
#: The state's words the host reads (BP_* in the kernel).
DEPTH, LEVELS, STATUS, PUSHES, PULLS, T0, T1, PHASES = 0, 1, 2, 3, 4, 16, 17, 18
#: The kernel's status codes (BP_ERR_*).
STATUS_TEXT = {0: "ok", 1: "timed out at a cross-GPU barrier", 2: "aborted by the peer",
               3: "a count slot held another phase's stamp", 4: "a queue overflowed"}
#: The levels a traced launch records.
TRACE_LEVELS = 64
#: The packed counters' vertex field (SR_GRID_EDGE_BITS = 36 low bits of edges): n < 2**28.
MAX_N = 2**28


def log(*parts):
    print("[bfs2]", *parts, flush=True)


# ------------------------------------------------------------------------------------------
# host-side pieces (NumPy / SciPy; the tests run them without a GPU)


def build_graph(scale: int, *, seed: int = 0, xp=np):
    """The bench's ``kron-<scale>`` structure: Graph500 Kronecker edges, symmetrized, self-loops
    and duplicates dropped, sorted CSR (``bench.generators.kronecker``), on ``xp``'s device."""
    from bench import generators as gen  # noqa: PLC0415  (the probe's helpers import without the bench)

    if isinstance(scale, bool) or not isinstance(scale, (int, np.integer)) or not 1 <= scale <= 27:
        raise ValueError(f"scale: expected an int in [1, 27] (n < 2**28), got {scale!r}")
    return gen.kronecker(int(scale), seed=seed, weighted=False, xp=xp)


def split_word(indptr, n: int, by: str = "edges") -> int:
    """The first bitmap word (32 vertices) owned by GPU 1 of 2: the word boundary nearest
    where the CSR's entries are halved (``by='edges'``) or nearest n / 2 (``'vertices'``).
    GPU 0 owns words [0, split), GPU 1 [split, ceil(n / 32)). ``indptr`` on the host."""
    if by not in ("edges", "vertices"):
        raise ValueError(f"split: expected 'edges' or 'vertices', got {by!r}")
    indptr = np.asarray(indptr)
    if indptr.shape != (n + 1,):
        raise ValueError(f"indptr: expected n + 1 = {n + 1} entries, got shape {indptr.shape}")
    nwords = (n + 31) // 32
    if by == "vertices":
        v = n / 2
    else:
        m = int(indptr[-1])
        v = int(np.searchsorted(indptr, m / 2)) if m else n / 2
    return int(min(nwords, max(0, round(v / 32))))


def owned_share(indptr, n: int, split: int) -> tuple[float, float]:
    """GPU 0's share of the vertices and of the stored entries under ``split``."""
    indptr = np.asarray(indptr)
    v = min(n, 32 * split)
    m = int(indptr[-1])
    return v / n if n else 0.0, int(indptr[v]) / m if m else 0.0


def zero_degree_words(indptr, n: int) -> np.ndarray:
    """The bitmap (uint32 words, bit v & 31 of word v >> 5) of the vertices without edges,
    ``ceil(n / 32)`` words: the kernel marks them visited from the start (a pull skips words
    whose every vertex is visited). ``indptr`` on the host."""
    indptr = np.asarray(indptr)
    if indptr.shape != (n + 1,):
        raise ValueError(f"indptr: expected n + 1 = {n + 1} entries, got shape {indptr.shape}")
    nwords = (n + 31) // 32
    pad = np.zeros(nwords * 32, dtype=bool)
    pad[:n] = indptr[1:] == indptr[:-1]
    return np.packbits(pad, bitorder="little").view("<u4").astype(np.uint32)


def scipy_levels(H, source: int) -> np.ndarray:
    """BFS levels (int32, -1 where unreached) from SciPy's ``breadth_first_order`` and its
    predecessors: the order lists each vertex after its predecessor."""
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415  (SciPy's csgraph: only where checked)

    order, pred = breadth_first_order(H, source, directed=True, return_predecessors=True)
    level = np.full(H.shape[0], -1, dtype=np.int32)
    level[order[0]] = 0
    for v in order[1:].tolist():
        level[v] = level[pred[v]] + 1
    return level


def pick_sources(indptr, count: int, seed: int = 0) -> list[int]:
    """``count`` distinct Graph500 sources: random vertices of nonzero degree (fewer where the
    graph has fewer)."""
    deg = np.diff(np.asarray(indptr))
    cand = np.flatnonzero(deg > 0)
    if cand.size == 0:
        raise ValueError("graph: no vertex has an edge, no source to search from")
    rng = np.random.default_rng(seed)
    return [int(x) for x in rng.choice(cand, min(count, cand.size), replace=False)]


def gather_levels(parts, split: int, n: int) -> np.ndarray:
    """The levels of every vertex, each from its owner's array (``parts``: one host array of n
    levels a GPU; GPU 0 owns the vertices below ``32 * split``)."""
    if len(parts) == 1:
        return np.asarray(parts[0])
    cut = min(n, 32 * split)
    return np.concatenate([np.asarray(parts[0])[:cut], np.asarray(parts[1])[cut:n]])


# ------------------------------------------------------------------------------------------
# the GPU side


class TwoGpuBfs:
    """The kernel's buffers on each GPU, and a search from a source (``__call__``)."""

    def __init__(self, cp, indptr, indices, noin, n: int, gpus: int, split: int, *,
                 per_sm: int, options: tuple, timeout_s: float):
        from cupy_backends.cuda.api import driver, runtime  # noqa: PLC0415  (CuPy: GPU only)

        self.cp, self.n, self.gpus, self.split = cp, n, gpus, split
        self.timeout_ns = int(timeout_s * 1e9)
        self.launch_id = 0
        nwords = (n + 31) // 32
        self.fstride = (nwords + 31) // 32 * 32
        self.words = [(0, nwords)] if gpus == 1 else [(0, split), (split, nwords)]
        from semiring.backend.gpu import bfs_peer  # noqa: PLC0415  (the library's program text)

        src = bfs_peer.source()
        self.dev = []
        for g in range(gpus):
            with cp.cuda.Device(g):
                d = {}
                if g == 0:
                    d["indptr"], d["indices"] = indptr, indices
                else:  # the whole CSR, peer to peer
                    d["indptr"] = cp.empty_like(indptr)
                    d["indices"] = cp.empty_like(indices)
                    for k in ("indptr", "indices"):
                        runtime.memcpyPeer(d[k].data.ptr, g, self.dev[0][k].data.ptr, 0,
                                           d[k].nbytes)
                d["level"] = cp.empty(n, dtype=cp.int32)
                d["q0"] = cp.empty(n, dtype=cp.int32)
                d["q1"] = cp.empty(n, dtype=cp.int32)
                d["o0"] = cp.empty(n, dtype=cp.int64)
                d["o1"] = cp.empty(n, dtype=cp.int64)
                d["vis"] = cp.empty(self.fstride, dtype=cp.uint32)
                d["fb"] = cp.empty(3 * self.fstride, dtype=cp.uint32)
                d["noin"] = cp.zeros(self.fstride, dtype=cp.uint32)
                d["noin"][:nwords] = cp.asarray(noin)
                d["state"] = cp.zeros(STATE_WORDS, dtype=cp.int64)  # the peer's words: once
                d["trace"] = cp.zeros(1 + 4 * TRACE_LEVELS, dtype=cp.int64)
                d["stream"] = cp.cuda.Stream(non_blocking=True)
                d["events"] = (cp.cuda.Event(), cp.cuda.Event())
                mod = cp.RawModule(code=src, options=("-std=c++17", *options),
                                   enable_cooperative_groups=True, name_expressions=[KERNEL])
                f = mod.get_function(KERNEL)
                if not runtime.deviceGetAttribute(runtime.cudaDevAttrCooperativeLaunch, g):
                    raise SystemExit(f"GPU {g} cannot launch kernels cooperatively")
                fit = driver.occupancyMaxActiveBlocksPerMultiprocessor(f.kernel.ptr, THREADS, 0)
                if fit < 1:
                    raise SystemExit(f"GPU {g}: no block of {THREADS} threads of bfs_peer fits "
                                     f"on a multiprocessor (registers {f.attributes.get('num_regs')})")
                sms = cp.cuda.Device(g).attributes["MultiProcessorCount"]
                d["f"], d["fit"], d["blocks"] = f, fit, sms * min(fit, per_sm)
                self.dev.append(d)
        for g in range(gpus):  # the copies and fills (default stream) before any launch
            cp.cuda.Device(g).synchronize()

    def describe(self) -> str:
        d = self.dev[0]
        a = d["f"].attributes
        return (f"{a.get('num_regs')} registers, {a.get('local_size_bytes')} local bytes, "
                f"{a.get('shared_size_bytes')} shared bytes; occupancy {d['fit']} blocks/SM; grid "
                + ", ".join(f"GPU {g}: {x['blocks']} x {THREADS}" for g, x in enumerate(self.dev)))

    def __call__(self, source: int, *, mode: int = 0, alpha: int = 14, beta: int = 24,
                 trace: bool = False):
        """One search; returns (milliseconds by events (the later GPU), in-kernel ms (the
        slower GPU's device clock from its first cross barrier), info dict). Raises
        RuntimeError on a kernel error (status) on either GPU."""
        cp = self.cp
        from cupy_backends.cuda.api import driver  # noqa: PLC0415  (CuPy: GPU only)

        self.launch_id += 1
        peers = list(reversed(self.dev)) if self.gpus == 2 else [None]
        for g, d in enumerate(self.dev):  # this GPU's own words only: the peer may be running
            with cp.cuda.Device(g):
                d["state"].data.memset_async(0, PEER_WORDS * 8, stream=d["stream"])
        for g, d in enumerate(self.dev):
            with cp.cuda.Device(g):
                d["events"][0].record(d["stream"])
        launched = []
        try:
            for g, (d, p) in enumerate(zip(self.dev, peers)):
                lo, hi = self.words[g]
                # the graph is symmetric: Aᵀ's CSR is A's (the same pointers)
                args = (d["indptr"], d["indices"], d["indptr"], d["indices"],
                        np.int64(self.n), np.int64(source),
                        np.int64(lo), np.int64(hi), d["level"], d["q0"], d["q1"], d["o0"],
                        d["o1"], d["vis"], d["fb"], np.int64(self.fstride), d["noin"],
                        d["state"],
                        np.uint64(0 if p is None else p["level"].data.ptr),
                        np.uint64(0 if p is None else p["vis"].data.ptr),
                        np.uint64(0 if p is None else p["fb"].data.ptr),
                        np.uint64(0 if p is None else p["state"].data.ptr),
                        np.int64(alpha), np.int64(beta), np.int32(mode),
                        np.uint64(self.launch_id), np.int64(self.timeout_ns),
                        np.int64(self.timeout_ns),
                        d["trace"] if trace else np.uint64(0), np.int64(TRACE_LEVELS))
                with cp.cuda.Device(g), d["stream"]:
                    d["f"]((d["blocks"],), (THREADS,), args)
                    d["events"][1].record(d["stream"])
                launched.append(g)
        except driver.CUDADriverError as err:
            for g in launched:  # a launched grid waits for its peer until its timeout, then exits
                self.dev[g]["stream"].synchronize()
            raise RuntimeError(f"cooperative launch failed on GPU {len(launched)}: {err}") from err
        ms, kern, states = [], [], []
        for g, d in enumerate(self.dev):
            with cp.cuda.Device(g):
                d["stream"].synchronize()
                ms.append(cp.cuda.get_elapsed_time(*d["events"]))
                states.append(d["state"].get())
        bad = {g: int(s[STATUS]) for g, s in enumerate(states) if s[STATUS] != 0}
        if bad:
            raise RuntimeError("bfs_peer failed: " + "; ".join(
                f"GPU {g}: {STATUS_TEXT.get(c, c)}" for g, c in bad.items()))
        s0 = states[0]
        for s in states[1:]:
            if any(s[k] != s0[k] for k in (DEPTH, LEVELS, PUSHES, PULLS, PHASES)):
                raise RuntimeError(f"the GPUs ran different searches: {s0[:5]} / {s[:5]}")
        kern = max((s[T1] - s[T0]) / 1e6 for s in states)
        info = {"levels": int(s0[LEVELS]), "push": int(s0[PUSHES]), "pull": int(s0[PULLS]),
                "depth": int(s0[DEPTH])}
        if trace:
            t = self.dev[0]["trace"].get()
            rows = t[1:].reshape(-1, 4)[:min(info["levels"], TRACE_LEVELS)]
            ends = rows[:, 0] - t[0]
            starts = np.r_[0, ends[:-1]]
            info["trace"] = [((e - b) / 1e3, int(c), int(mm), "push" if p else "pull")
                             for b, e, (_, c, mm, p) in zip(starts, ends, rows)]
        return max(ms), kern, info

    def levels(self) -> np.ndarray:
        """The last search's levels, each vertex's from its owner."""
        parts = []
        for g, d in enumerate(self.dev):
            with self.cp.cuda.Device(g):
                parts.append(d["level"].get())
        return gather_levels(parts, self.split, self.n)


def native_peer_atomics():
    """Whether GPU 0 and 1 do atomics on each other's memory natively (NVLink; not over PCIe),
    both ways, from the driver (cuDeviceGetP2PAttribute); None where it cannot be asked."""
    import ctypes  # noqa: PLC0415  (stdlib: the driver's P2P attribute, which CuPy does not wrap)

    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        cuda.cuInit(0)
        dev = [ctypes.c_int(), ctypes.c_int()]
        for i in (0, 1):
            if cuda.cuDeviceGet(ctypes.byref(dev[i]), i) != 0:
                return None
        out = []
        for a, b in ((0, 1), (1, 0)):
            v = ctypes.c_int()
            # CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED = 3
            if cuda.cuDeviceGetP2PAttribute(ctypes.byref(v), 3, dev[a], dev[b]) != 0:
                return None
            out.append(bool(v.value))
        return all(out)
    except (OSError, AttributeError):
        return None


def enable_peers(cp, gpus: int):
    """Peer access both ways between GPU 0 and 1 (exit 2 where it cannot be)."""
    from cupy_backends.cuda.api import runtime  # noqa: PLC0415  (CuPy: GPU only)

    count = runtime.getDeviceCount()
    names = []
    for g in range(count):
        p = runtime.getDeviceProperties(g)
        names.append(f"{g} {p['name'].decode()} ({p['multiProcessorCount']} SMs)")
    log("devices:", "; ".join(names))
    if count < gpus:
        log(f"needs {gpus} GPUs, found {count}")
        sys.exit(2)
    if gpus == 1:
        return
    ok = runtime.deviceCanAccessPeer(0, 1) and runtime.deviceCanAccessPeer(1, 0)
    atomics = native_peer_atomics()
    log(f"peer access 0 <-> 1: {'yes' if ok else 'NO'}; native peer atomics: "
        f"{ {True: 'yes', False: 'NO', None: 'unknown'}[atomics] }")
    if not ok or atomics is False:  # (the claims and the stamps are atomics on peer memory)
        sys.exit(2)
    for a, b in ((0, 1), (1, 0)):
        with cp.cuda.Device(a):
            try:
                runtime.deviceEnablePeerAccess(b)
            except runtime.CUDARuntimeError as err:
                if "AlreadyEnabled" not in str(err) and "704" not in str(err):
                    raise


def events_ms(cp, fn):
    """(milliseconds by CUDA events on the current stream, fn's result)."""
    s = cp.cuda.get_current_stream()
    a, b = cp.cuda.Event(), cp.cuda.Event()
    a.record(s)
    r = fn()
    b.record(s)
    b.synchronize()
    return cp.cuda.get_elapsed_time(a, b), r


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=int, default=24)
    ap.add_argument("--sources", type=int, default=16)
    ap.add_argument("--gpus", type=int, choices=(1, 2), default=2)
    ap.add_argument("--reps", type=int, default=3, help="timed calls a source (median)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", choices=("edges", "vertices"), default="edges")
    ap.add_argument("--precheck", default="12,16",
                    help="small scales checked first (comma-separated; '' for none)")
    ap.add_argument("--scipy-max-scale", type=int, default=20,
                    help="compare with SciPy's levels up to this scale")
    ap.add_argument("--alpha", type=int, default=None, help="default: algorithms.bfs.ALPHA")
    ap.add_argument("--beta", type=int, default=None, help="default: algorithms.bfs.BETA")
    ap.add_argument("--per-sm", type=int, default=2, help="blocks a multiprocessor (at most "
                    "the occupancy)")
    ap.add_argument("--timeout-s", type=float, default=2.0,
                    help="a cross-GPU barrier's wait before the kernel gives up")
    ap.add_argument("--define", action="append", default=[],
                    help="a -D option of the kernel (NAME=VALUE)")
    ap.add_argument("--trace", action="store_true", help="the first source's levels")
    args = ap.parse_args(argv)
    if args.sources < 1 or args.reps < 1:
        ap.error(f"--sources and --reps: expected >= 1, got {args.sources}, {args.reps}")

    import cupy as cp  # noqa: PLC0415  (CuPy: the GPU run only; the helpers above run without)

    import algorithms  # noqa: PLC0415  (the engine: the reference and the 1-GPU timing)
    import semiring as sr  # noqa: PLC0415  (the engine's matrix)

    # (``from algorithms import bfs`` is the function: the module holds ALPHA / BETA)
    bfs_mod = importlib.import_module("algorithms.bfs")

    alpha = bfs_mod.ALPHA if args.alpha is None else args.alpha
    beta = bfs_mod.BETA if args.beta is None else args.beta
    options = tuple(f"-D{d}" for d in args.define)
    P = args.gpus
    t_all = time.perf_counter()
    enable_peers(cp, P)
    log(f"gpus={P} alpha={alpha} beta={beta} split={args.split} per_sm={args.per_sm} "
        f"options={list(options)} timeout={args.timeout_s} s")

    def setup(scale):
        t0 = time.perf_counter()
        with cp.cuda.Device(0):
            S = build_graph(scale, seed=args.seed, xp=cp)
            cp.cuda.Device(0).synchronize()
        t_gen = time.perf_counter() - t0
        n, nnz = S.shape[0], int(S.nnz)
        if S.indices.dtype != cp.int32 or S.indptr.dtype != cp.int32 or n >= MAX_N:
            raise SystemExit(f"kron-{scale}: the probe takes int32 indices and n < 2**28, got "
                             f"{S.indices.dtype}, n = {n}")
        hp = S.indptr.get()
        split = split_word(hp, n, args.split)
        t0 = time.perf_counter()
        run = TwoGpuBfs(cp, S.indptr, S.indices, zero_degree_words(hp, n), n, P, split,
                        per_sm=args.per_sm,
                        options=options, timeout_s=args.timeout_s)
        t_dev = time.perf_counter() - t0
        with cp.cuda.Device(0):
            A = sr.Matrix.from_cupyx(S)
        vs, es = owned_share(hp, n, split)
        log(f"graph kron-{scale}: n={n} nnz={nnz} made on GPU 0 in {t_gen:.1f} s; copied, "
            f"buffers and kernel in {t_dev:.1f} s; split at vertex {min(n, 32 * split)}: GPU 0 "
            f"owns {100 * vs:.1f} % of the vertices, {100 * es:.1f} % of the entries")
        return S, A, run, hp

    def engine_levels(A, s):
        with cp.cuda.Device(0):
            return cp.asnumpy(algorithms.bfs(A, s, symmetric=True)).astype(np.int32)

    all_equal = True
    for sc in [int(x) for x in args.precheck.split(",") if x.strip()]:
        S, A, run, hp = setup(sc)
        if sc == int(args.precheck.split(",")[0]):
            log("kernel:", run.describe())
        H = S.get()
        for s in pick_sources(hp, 3, args.seed):
            ref = scipy_levels(H, s)
            eng = engine_levels(A, s)
            for mode, name in ((0, "auto"), (1, "push"), (2, "pull")):
                _, _, info = run(s, mode=mode, alpha=alpha, beta=beta)
                got = run.levels()
                ok = bool(np.array_equal(got, ref)) and bool(np.array_equal(got, eng))
                all_equal &= ok
                log(f"precheck kron-{sc} source {s} {name}: levels {info['levels']} (push "
                    f"{info['push']}, pull {info['pull']}), levels equal: {ok}")
        del S, A, run

    S, A, run, hp = setup(args.scale)
    log("kernel:", run.describe())
    H = S.get() if args.scale <= args.scipy_max_scale else None
    sources = pick_sources(hp, args.sources, args.seed)
    log(f"sources: {sources}")
    # warm: the first launch of each (module load, the engine's kept launch)
    run(sources[0], alpha=alpha, beta=beta)
    with cp.cuda.Device(0):
        algorithms.bfs(A, sources[0], symmetric=True)
    rows = []
    for i, s in enumerate(sources):
        t2, tk, t1 = [], [], []
        for _ in range(args.reps):
            with cp.cuda.Device(0):
                ms, eng = events_ms(cp, lambda: algorithms.bfs(A, s, symmetric=True))
            t1.append(ms)
            ms, kern, info = run(s, alpha=alpha, beta=beta, trace=args.trace and i == 0)
            t2.append(ms)
            tk.append(kern)
        with cp.cuda.Device(0):
            eng = cp.asnumpy(eng).astype(np.int32)
        got = run.levels()
        ok = bool(np.array_equal(got, eng))
        if H is not None:
            ok = ok and bool(np.array_equal(got, scipy_levels(H, s)))
        all_equal &= ok
        r = (statistics.median(t1), statistics.median(t2), statistics.median(tk))
        rows.append(r)
        log(f"source {s}: {P}-GPU {r[1]:.3f} ms (in-kernel {r[2]:.3f}), 1-GPU engine "
            f"{r[0]:.3f} ms, t1/t2 {r[0] / r[1]:.2f}; levels {info['levels']} (push "
            f"{info['push']}, pull {info['pull']}), reached {int((got >= 0).sum())}; levels "
            f"equal: {ok}")
        if args.trace and i == 0:
            for j, (us, c, mm, way) in enumerate(info["trace"]):
                log(f"trace level {j}: {us:8.1f} us  frontier {c:9d}  out-edges {mm:11d}  {way}")
    t1m = statistics.median(r[0] for r in rows)
    t2m = statistics.median(r[1] for r in rows)
    tkm = statistics.median(r[2] for r in rows)
    log(f"RESULT kron-{args.scale} gpus={P}: median over {len(rows)} sources: {P}-GPU "
        f"{t2m:.3f} ms (in-kernel {tkm:.3f}), 1-GPU engine {t1m:.3f} ms; t1/t2 = "
        f"{t1m / t2m:.2f}, efficiency t1/({P} t2) = {t1m / (P * t2m):.2f}; levels equal: "
        f"{all_equal}; total {time.perf_counter() - t_all:.0f} s")
    return 0 if all_equal else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as err:
        log(f"ERROR: {err}")
        sys.exit(3)
