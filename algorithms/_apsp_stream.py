"""Streamed blocked Floyd–Warshall: APSP when D does not fit in GPU memory (issue #7, item 4).

D stays in host memory (pinned on the GPU backend, so copies are asynchronous DMA) and passes
through the device one strip at a time: seed 004's modified Katz–Kider (§4.7), which splits
every phase of a round into pieces that fit. Rounds run over pivot blocks K = [k0, k1) of
``B`` vertices:

1. the pivot row strip R = D[K, :] goes host → device, and D_KK ← D_KK⁺ is closed there by
   the in-memory blocked Floyd–Warshall (``apsp._floyd_warshall``) on the B × B block;
2. R ← D_KK min.+ R (in column chunks), device → host;
3. every other row strip I (``T`` rows, a "tile" spanning all columns) goes host → device
   as X = D[I, :], then

       C_I = X[:, K] min.+ D_KK          (phase 2's column strip, for these rows only)
       X   = min(X, C_I min.+ R)          (phase 3 for the whole strip; X[:, K] becomes C_I)

   and device → host.

Why full-width row strips as tiles: they are contiguous in host memory (one DMA per copy, no
2-D strided copies), and the n × B column strip never has to be resident: each tile computes
its own rows of it from its own columns K (``min(D_IK, C_I min.+ D_KK) = C_I`` because D_KK
is closed with a zero diagonal). The device holds R (B × n), D_KK (two of each with the
lookahead below) and the closure's workspace, and ``STREAM_SLOTS`` tiles with their products.

Overlap: the pivot work runs on one CUDA stream (at the highest priority: its small
products are on the critical path) and the tiles round-robin over ``STREAM_SLOTS`` more,
each tile's H2D copy, products and D2H copy ordered on its slot's stream, so one tile's
copies overlap another's products. Ordering between streams is by events only, and each
wait names exactly the work it depends on:

- a round's tiles wait for their pivot's "R ready" event, and for the tiles of the round
  before that wrote the same rows of D (their D2H precedes this upload);
- with ``STREAM_LOOKAHEAD`` (the default) R and D_KK are double-buffered and round r + 1's
  pivot is enqueued as soon as round r's tiles over its rows K' are: it waits for those
  tiles (it uploads D[K', :]) and for round r − 1's tiles (the last readers of the buffers it
  overwrites), so the pivot's copies and its serial phase 1 run beside round r's other
  tiles instead of between rounds (round r enqueues the rows K' first);
- without it, one buffer: each pivot waits for every tile of the round before (the barrier
  of the first version, kept for comparison in ``bench/probes/probe_stream.py``);
- the host reuses a slot's buffers only after that slot's event (which is also what the
  progress bar counts); nothing else in the loop blocks the host.

The streams are made once per thread and device and reused by later runs, so their arenas
of CuPy's memory pool (one per stream: the temporaries of one stream are never handed to
another while in use) are warm: no cudaMalloc between copies after the first run (a device
memory allocation may serialize the commands issued around it), and no device memory left
cached in the arenas of dead streams.

Cost per round: 2 n² · itemsize bytes of copies against n² · B relaxations (plus n · B² for
the column strip), so B is made as large as the budget allows up to ``STREAM_MAX_BLOCK``,
where the copies already hide behind the products (see there).

:func:`trace` records what a run did (plan, bytes copied, host phases and, on request, the
per-stream spans of copies and products from CUDA events); :func:`overlap_summary` says how
much of the copy time ran under products (``bench/probes/probe_stream.py`` prints both).

On the CPU backend the same code runs on NumPy: "streams" run immediately and copies are
plain slice copies, so the tests exercise the blocking logic without a GPU.
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import math
import threading
import time
import warnings

import numpy as np

import semiring as sr
from semiring import Matrix, OutOfMemory
from semiring import gemm as _gemm
from semiring import gemm_accumulate as _gemm_accumulate

from .apsp import _TOP_PRIORITY, _NoBar, _bar, _check_diagonal, _floyd_warshall, _rate
from .sssp import F32_MAX, DistanceOverflow, _t_max, _weight_type

#: Tiles in flight: one uploading, one computing, one downloading.
STREAM_SLOTS = 3
#: Rows per phase-3 tile (a full-width row strip). Only the overlap granularity depends on
#: it (the traffic per round is 2 n² either way): at n = 150000 a 1024-row float32 tile is
#: 0.6 GB: 25-50 ms of copies each way against ~60 ms of products at B = 4096.
STREAM_ROWS = 1024
#: The largest pivot block. Copies per round are 2 n² · itemsize bytes against n² · B
#: relaxations, so they hide behind the products once B ≥ 2 · itemsize · rate / copy rate
#: (float32 at 1e13 relaxations/s over 25 GB/s: B ≥ 3200). Beyond that a larger B only costs:
#: the column strip C_I = D_IK min.+ D_KK adds n² · B relaxations in all (B/n of the n³:
#: 3% at n = 150000, B = 4096; the in-memory run pays it with its small TILE), phase 1's
#: serial closure n · B². To be tuned on the GPU (``bench/probes/probe_stream.py``).
STREAM_MAX_BLOCK = 4096
#: Blocks of at least this width are rounded down to a multiple of it (whole GEMM tiles).
STREAM_ALIGN = 256
#: Host ↔ device copy rate assumed by the progress estimate (bytes/s, pinned memory).
RATE_COPY = 2e10
#: Round r + 1's pivot (its copies and its serial closure) runs beside round r's tiles, on a
#: second R / D_KK buffer (B · n + B² more device memory), instead of between rounds while
#: every slot waits. Off: the single-buffered barrier of the first version.
STREAM_LOOKAHEAD = True


# ------------------------------------------------------------------------------ planning

def _pivot_buffers(lookahead=None) -> int:
    return 2 if (STREAM_LOOKAHEAD if lookahead is None else lookahead) else 1


def stream_need(n: int, block: int, itemsize: int, tile: int) -> int:
    """Device bytes a streamed run with pivot blocks of ``block`` vertices allocates at most.

    Pivot stream: R (B × n) and D_KK (B²), twice with ``STREAM_LOOKAHEAD``; the in-memory
    closure's workspace (its input copy and phase-3 product 2·B², its strips and their
    copies ~3·t·B, squarings ~3·t² for t = min(tile, B)); phase 2's column chunk and its
    product (2·B²). Each of ``STREAM_SLOTS`` slots: the tile X (T × n; phase 3 accumulates
    into it inside the kernel), X[:, K] and C_I (2·T·B), T = min(B, STREAM_ROWS).
    """
    b = max(1, min(int(block), n))
    t = min(int(tile), b)
    rows = min(b, STREAM_ROWS)
    pivot = _pivot_buffers() * (b * n + b * b) + 4 * b * b + 3 * t * b + 3 * t * t
    slot = rows * n + 2 * rows * b
    return int(itemsize) * (pivot + STREAM_SLOTS * slot)


def block_width(op: str, n: int, itemsize: int, tile: int, budget: int,
                what: str = "memory_budget") -> int:
    """The largest pivot block whose :func:`stream_need` fits in ``budget`` bytes.

    Raises :class:`~semiring.errors.OutOfMemory` naming the minimum when not even a block of
    one vertex fits (``what`` names where the budget came from).

    Examples
    --------
    >>> from algorithms._apsp_stream import block_width, stream_need
    >>> block_width("apsp", 100, 4, 64, stream_need(100, 7, 4, 64))
    7
    """
    least = stream_need(n, 1, itemsize, tile)
    if budget < least:
        raise OutOfMemory(
            f"{op}: {what} (={budget} bytes) is too small for a streamed Floyd–Warshall "
            f"of n = {n} ({itemsize}-byte distances): one pivot block of 1 vertex needs at "
            f"least {least} bytes on the device", needed=least, free=budget)
    lo, hi = 1, max(1, min(n, STREAM_MAX_BLOCK))
    while lo < hi:  # stream_need grows with the block
        mid = (lo + hi + 1) // 2
        if stream_need(n, mid, itemsize, tile) <= budget:
            lo = mid
        else:
            hi = mid - 1
    if lo >= STREAM_ALIGN and lo < n:
        lo -= lo % STREAM_ALIGN
    return lo


# ------------------------------------------------------------------------------ mechanism
# A stream takes work as closures (``launch``): on the GPU a closure runs at once inside
# ``with stream`` and so only *enqueues* its copies and kernels; on the CPU it simply runs.
# Written this way, every read of a buffer happens inside the closure of the stream that
# orders it, which is what lets tests run the same loop under a scheduler that executes the
# streams' closures in random interleavings (respecting only the events) and catch a missing
# wait. Closures bind their loop variables as arguments (they may run later).

class _Now:
    """The CPU's stand-in for a CUDA stream and its events: everything is already done."""

    def launch(self, fn, *args):
        fn(*args)

    def empty(self, shape, dtype):
        return np.empty(shape, dtype=dtype)

    def record(self):
        return self

    def wait_event(self, event):
        pass

    def synchronize(self):
        pass


class _Host:
    """CPU backend: NumPy buffers, copies are slice copies."""

    xp = np
    pinned = None

    def stream(self):
        return _Now()

    def pivot_stream(self):
        return self.stream()

    def host_empty(self, shape, dtype):
        return np.empty(shape, dtype=dtype)

    def upload(self, dst, src):
        np.copyto(dst, src)

    def download(self, dst, src):
        np.copyto(dst, src)

    # Timeline marks (only taken under ``trace(events=True)``): the host clock, since the
    # closures run when their stream runs them.
    def mark(self):
        return time.perf_counter()

    def seconds(self, base, mark):
        return mark - base


class _CudaStream:
    """A non-blocking CUDA stream; persistent buffers come from its arena of CuPy's pool."""

    def __init__(self, cp, s):
        self.s = s
        self.cp = cp

    def launch(self, fn, *args):
        with self.s:  # CuPy's kernels, copies and temporaries go to the current stream
            fn(*args)

    def empty(self, shape, dtype):
        with self.s:
            return self.cp.empty(shape, dtype=dtype)

    def record(self):
        # ordering only: events without timing are the cheap kind to wait on
        return self.s.record(self.cp.cuda.Event(disable_timing=True))

    def wait_event(self, event):
        self.s.wait_event(event)

    def synchronize(self):
        self.s.synchronize()


#: The streamed run's CUDA streams by (device, role), per thread (two threads' runs never
#: share a stream, so never an arena of CuPy's pool either).
_STREAMS = threading.local()


def _cached_stream(cp, role, priority=None):
    """One non-blocking stream per thread, device and role, made once: a stream made per run
    would start with an empty arena of CuPy's pool (cudaMalloc inside the loop) and leave
    the last run's buffers cached in the arena of a dead stream."""
    streams = _STREAMS.__dict__.setdefault("by_key", {})
    key = (cp.cuda.runtime.getDevice(), role)
    s = streams.get(key)
    if s is None:
        s = streams[key] = cp.cuda.Stream(non_blocking=True, priority=priority)
    return s


class _Device:
    """GPU backend: pinned host memory, asynchronous copies on CUDA streams."""

    def __init__(self):
        self.cp = sr.array_module("gpu")
        self.xp = self.cp
        self.pinned = None  # set by host_empty
        self._slots = 0

    def stream(self):
        """The next slot stream of this run (slot i gets the same stream in every run)."""
        self._slots += 1
        return _CudaStream(self.cp, _cached_stream(self.cp, ("slot", self._slots - 1)))

    def pivot_stream(self):
        """The pivot's stream, at the highest priority: with the lookahead its small products
        share the SMs with the tiles' large ones, and the next round waits for them."""
        return _CudaStream(self.cp, _cached_stream(self.cp, "pivot", _TOP_PRIORITY))

    def host_empty(self, shape, dtype):
        """A NumPy array in pinned memory. Not from CuPy's pinned pool: the pool would keep
        n² bytes of page-locked memory cached after the caller drops the result. Where the
        host cannot pin that much, pageable memory, with a RuntimeWarning (not a
        ResourceWarning: Python's default filters hide those, and from pageable memory every
        copy blocks the host, so nothing overlaps)."""
        dtype = np.dtype(dtype)
        nbytes = max(1, math.prod(shape) * dtype.itemsize)
        try:
            mem = self.cp.cuda.PinnedMemoryPointer(self.cp.cuda.PinnedMemory(nbytes), 0)
        except Exception as err:  # cudaErrorMemoryAllocation and the like
            warnings.warn(f"apsp: could not pin {nbytes} bytes of host memory ({err}); the "
                          f"streamed run copies from pageable memory: the copies block the "
                          f"host and overlap nothing", RuntimeWarning, stacklevel=3)
            self.pinned = False
            return np.empty(shape, dtype=dtype)
        self.pinned = True
        return np.ndarray(shape, dtype=dtype, buffer=mem)  # as cupyx.empty_pinned

    # Both operands C-contiguous and of equal size (whole row strips of D and of a device
    # buffer); asynchronous on the current stream (the one whose closure runs).
    def upload(self, dst, src):
        dst.data.copy_from_host_async(src.ctypes.data, src.nbytes,
                                      self.cp.cuda.get_current_stream())

    def download(self, dst, src):
        src.data.copy_to_host_async(dst.ctypes.data, src.nbytes,
                                    self.cp.cuda.get_current_stream())

    def mark(self):
        return self.cp.cuda.get_current_stream().record()  # a new Event: timing enabled

    def seconds(self, base, mark):
        return self.cp.cuda.get_elapsed_time(base, mark) / 1e3


class _Slot:
    """A stream with its own tile buffer X (``rows`` × n) and the event of its last copy."""

    def __init__(self, mech, index: int, rows: int, n: int, block: int, work):
        self.index = index
        self.lane = f"slot{index}"
        self.stream = mech.stream()
        self.X = self.stream.empty((rows, n), work)
        # C_I's block, allocated once and dropped, stays cached in this stream's arena: the
        # first tile's product reuses it instead of calling cudaMalloc between copies
        self.stream.empty((rows, block), work)
        self.done = None


# ------------------------------------------------------------------------------ tracing

class Timeline:
    """What one streamed run did (collected under :func:`trace`).

    Attributes
    ----------
    n, block, rows, slots, rounds, tiles : int
        The plan: vertices, pivot block B, tile height T, slot streams, rounds, row strips.
    lookahead : bool
        Whether round r + 1's pivot ran beside round r's tiles.
    pinned : bool or None
        Whether D lives in pinned host memory (None: the CPU backend).
    bytes_h2d, bytes_d2h : int
        Bytes copied host → device and device → host (pivot strips and tiles).
    setup_s, loop_s, finish_s : float
        Host seconds: building D in host memory (pinning n² bytes included); the rounds,
        up to the last copy's completion; the diagonal check and the result's conversion.
    spans : list of tuple
        With ``events=True``: ``(lane, kind, round, start_s, end_s)``, lane ``"pivot"`` or
        ``"slot<i>"``, kind ``"h2d"``, ``"compute"`` or ``"d2h"``, seconds from the run's
        first mark. On the GPU each span lies between two CUDA events of its stream, so it
        includes any wait for the copy engine or for SMs held by another stream.
    """

    def __init__(self, events: bool):
        self.events = bool(events)
        self.n = self.block = self.rows = self.slots = self.rounds = self.tiles = 0
        self.lookahead = False
        self.pinned = None
        self.bytes_h2d = self.bytes_d2h = 0
        self.setup_s = self.loop_s = self.finish_s = 0.0
        self.spans = []
        self._marks = []  # (lane, kind, round, start mark, end mark), resolved at the end
        self._base = None

    def as_dict(self) -> dict:
        """The plan, bytes, host phases and :func:`overlap_summary` of the spans."""
        out = {k: getattr(self, k) for k in (
            "n", "block", "rows", "slots", "rounds", "tiles", "lookahead", "pinned",
            "bytes_h2d", "bytes_d2h", "setup_s", "loop_s", "finish_s")}
        if self.events:
            out["overlap"] = overlap_summary(self.spans)
        return out


_TRACE = contextvars.ContextVar("apsp_stream_trace", default=None)


@contextlib.contextmanager
def trace(events: bool = False):
    """Collect a :class:`Timeline` of every streamed Floyd–Warshall run inside the block.

    Parameters
    ----------
    events : bool
        Also record the spans of each copy and product (two CUDA events per span on the GPU,
        host clock on the CPU).

    Yields
    ------
    list of Timeline
        Appended to as runs finish.

    Examples
    --------
    >>> import numpy as np, algorithms
    >>> from algorithms import _apsp_stream as st
    >>> W = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=np.float64)
    >>> with st.trace() as runs:
    ...     d = algorithms.apsp(W, memory_budget=st.stream_need(3, 1, 8, 4))
    >>> runs[0].block, runs[0].rounds
    (1, 3)
    """
    runs = []
    token = _TRACE.set((runs, bool(events)))
    try:
        yield runs
    finally:
        _TRACE.reset(token)


def _union(intervals):
    """The union of half-open intervals as sorted, disjoint (start, end) pairs."""
    out = []
    for a, b in sorted((a, b) for a, b in intervals if b > a):
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _length(union) -> float:
    return float(sum(b - a for a, b in union))


def _intersection(u, v):
    """The intersection of two unions (sorted, disjoint) as a union."""
    out, i, j = [], 0, 0
    while i < len(u) and j < len(v):
        a, b = max(u[i][0], v[j][0]), min(u[i][1], v[j][1])
        if b > a:
            out.append((a, b))
        if u[i][1] < v[j][1]:
            i += 1
        else:
            j += 1
    return out


def overlap_summary(spans) -> dict:
    """How much copying ran under products, from ``(lane, kind, round, start, end)`` spans.

    Returns
    -------
    dict
        ``span_s``: first start to last end; ``h2d_s``, ``d2h_s``, ``copy_s``, ``compute_s``:
        the time some copy (of that direction, of either) or some product was in flight
        (unions over all lanes); ``copy_under_compute_s``: copy time during which a product
        was in flight too; ``hidden``: that over ``copy_s`` (0: copies and products strictly
        alternate; 1: every copy ran under a product); ``busy_s``: the union of everything;
        ``mean_slots``: the mean number of slots with a tile in flight while any has
        (1.0 when the tiles run one at a time); ``lanes``: per lane, spans and busy seconds
        by kind.

    Examples
    --------
    >>> from algorithms._apsp_stream import overlap_summary
    >>> s = overlap_summary([("slot0", "h2d", 0, 0.0, 1.0), ("slot0", "compute", 0, 1.0, 3.0),
    ...                      ("slot1", "h2d", 0, 1.0, 2.0), ("slot0", "d2h", 0, 3.0, 4.0)])
    >>> s["copy_s"], s["compute_s"], s["copy_under_compute_s"], s["hidden"]
    (3.0, 2.0, 1.0, 0.3333333333333333)
    """
    spans = list(spans)
    kinds = {k: _union((a, b) for _, kind, _, a, b in spans if kind == k)
             for k in ("h2d", "d2h", "compute")}
    copy = _union(kinds["h2d"] + kinds["d2h"])
    under = _intersection(copy, kinds["compute"])
    busy = _union((a, b) for *_, a, b in spans)
    by_lane = {}
    for lane, kind, _, a, b in spans:
        by_lane.setdefault(lane, {}).setdefault(kind, []).append((a, b))
    lanes = {lane: {kind: {"spans": len(iv), "busy_s": _length(_union(iv))}
                    for kind, iv in kinds_of.items()}
             for lane, kinds_of in by_lane.items()}
    # a slot is busy while one of its tiles is being copied or computed
    slot_busy = [_union(iv for ivs in kinds_of.values() for iv in ivs)
                 for lane, kinds_of in by_lane.items() if lane != "pivot"]
    any_slot = _length(_union(iv for u in slot_busy for iv in u))
    copy_s = _length(copy)
    return {
        "span_s": (max(b for *_, b in spans) - min(a for *_, a, _ in spans)) if spans else 0.0,
        "h2d_s": _length(kinds["h2d"]), "d2h_s": _length(kinds["d2h"]), "copy_s": copy_s,
        "compute_s": _length(kinds["compute"]), "copy_under_compute_s": _length(under),
        "hidden": _length(under) / copy_s if copy_s > 0 else 0.0,
        "busy_s": _length(busy),
        "mean_slots": sum(_length(u) for u in slot_busy) / any_slot if any_slot > 0 else 0.0,
        "lanes": lanes,
    }


# ------------------------------------------------------------------------------ host D

def _host_dense(G, n: int, work, mech, rows: int):
    """D0 (as ``apsp._dense_of``) built in host memory, a row strip at a time from a dense
    array (on the GPU the input fits there, its n² copy in ``work`` may not)."""
    inf = _t_max(work)
    D = mech.host_empty((n, n), work)
    if isinstance(G, Matrix):
        D.fill(inf)
        if G.nvals:
            r, c, _ = G.to_coo()
            vals, stride = G._values_for(work)
            r, c, vals = (sr.to_device(a, "cpu") for a in (r, c, vals))
            D[r, c] = vals if stride else vals[0]
    else:
        src_type = _weight_type(G.dtype)
        for i0 in range(0, n, rows):
            src = G[i0:i0 + rows].astype(src_type, copy=False)
            blk = sr.to_device(src.astype(work), "cpu")
            if src_type != work and work.kind != "f":  # int32 "no edge" becomes int64's
                blk[sr.to_device(src == _t_max(src_type), "cpu")] = inf
            D[i0:i0 + rows] = blk
    diag = D.reshape(-1)[:: n + 1]  # a view of the diagonal
    np.minimum(diag, 0, out=diag)
    return D


def _host_finish(op, D, work, out_type, rows: int):
    """``apsp._finish`` on the host, a row strip at a time (no n² temporaries)."""
    if work == out_type:
        return D
    if np.dtype(out_type).kind == "f":  # float32 in float64 (apsp._work_type)
        out = np.empty(D.shape, dtype=out_type)
        for i0 in range(0, D.shape[0], rows):
            blk = D[i0:i0 + rows]
            if bool((np.isfinite(blk) & (np.abs(blk) > F32_MAX)).any()):
                raise DistanceOverflow(f"{op}: a shortest distance lies outside the float32 "
                                       f"range; use float64 weights")
            out[i0:i0 + rows] = blk
        return out
    inf = _t_max(work)
    info = np.iinfo(out_type)
    out = np.empty(D.shape, dtype=out_type)
    for i0 in range(0, D.shape[0], rows):
        blk = D[i0:i0 + rows]
        reached = blk != inf
        if bool((reached & ((blk >= info.max) | (blk < info.min))).any()):
            raise DistanceOverflow(f"{op}: a shortest distance lies outside the {out_type} "
                                   f"range; use int64 or float64 weights")
        out[i0:i0 + rows] = np.where(reached, blk, info.max)
    return out


# ------------------------------------------------------------------------------ the run

def _strips(start: int, stop: int, rows: int):
    return [(i, min(stop, i + rows)) for i in range(start, stop, rows)]


def _writers(written, i0: int, i1: int):
    """The events of the tiles in ``written`` (sorted, disjoint ``(i0, i1, event)``) whose
    rows meet [i0, i1)."""
    starts = [w[0] for w in written]
    j = max(0, bisect.bisect_right(starts, i0) - 1)
    out = []
    while j < len(written) and written[j][0] < i1:
        if written[j][1] > i0:
            out.append(written[j][2])
        j += 1
    return out


def floyd_warshall_streamed(G, n: int, device: str, work, out_type, srg, tile: int,
                            budget: int, progress, op: str = "apsp", *, what="memory_budget",
                            block=None, rows=None, bound=None):
    """Blocked Floyd–Warshall with D in host memory; returns the distances as a NumPy array.

    ``block`` and ``rows`` override the pivot block width and the tile height chosen from
    ``budget`` (tests use them to reach B ≥ n, which a budget never picks).
    """
    traced = _TRACE.get()
    tl = Timeline(traced[1]) if traced is not None else None
    t_start = time.perf_counter()
    mech = _Device() if device == "gpu" else _Host()
    xp = mech.xp
    work = np.dtype(work)
    s = work.itemsize
    B = int(block) if block is not None else block_width(op, n, s, tile, budget, what)
    B = max(1, min(B, n))
    T = int(rows) if rows is not None else min(B, STREAM_ROWS)
    D = _host_dense(G, n, work, mech, T)

    rounds = [(k0, min(n, k0 + B)) for k0 in range(0, n, B)]
    # the lookahead needs a next round; a single round keeps one buffer
    nbuf = _pivot_buffers() if len(rounds) > 1 else 1
    tiles = sum(1 + len(_strips(0, k0, T)) + len(_strips(k1, n, T)) for k0, k1 in rounds)
    rate = _rate(device, work)
    compute = (float(n) ** 3 + float(n) * n * B + float(n) * B * B) / rate  # + C_I, phase 1
    copies = len(rounds) * 2.0 * n * n * s / RATE_COPY if device == "gpu" else 0.0
    bar = _bar(progress, max(compute, copies), tiles,
               f"{op} (streamed, B={B}; result in host memory)", unit="tile")
    moved = [0, 0]  # bytes host → device, device → host
    marks = tl._marks if tl is not None and tl.events else None

    def mark():
        return mech.mark() if marks is not None else None

    def pivot_round(r, k0, k1, buf):
        R, Dkk = buf[0][:k1 - k0], buf[1][:k1 - k0, :k1 - k0]
        m0 = mark()
        mech.upload(R, D[k0:k1])
        m1 = mark()
        # phase 1: D_KK ← D_KK⁺      (in-memory blocked Floyd–Warshall on the block)
        Dkk[...] = _floyd_warshall(xp.ascontiguousarray(R[:, k0:k1]), srg, work,
                                   min(tile, k1 - k0), _NoBar(), bound)
        # phase 2: D_K* ← D_KK min.+ D_K*      (column chunks of width B)
        for j0 in range(0, n, B):
            R[:, j0:j0 + B] = _gemm(Dkk, R[:, j0:j0 + B], srg, work, bound=bound)
        m2 = mark()
        mech.download(D[k0:k1], R)
        moved[0] += R.nbytes
        moved[1] += R.nbytes
        if marks is not None:
            marks.extend([("pivot", "h2d", r, m0, m1), ("pivot", "compute", r, m1, m2),
                          ("pivot", "d2h", r, m2, mark())])

    def strip(lane, r, X, i0, i1, k0, k1, buf):
        R, Dkk = buf[0][:k1 - k0], buf[1][:k1 - k0, :k1 - k0]
        m0 = mark()
        mech.upload(X, D[i0:i1])
        m1 = mark()
        # C_I = D_IK min.+ D_KK;   D_I* ← min(D_I*, C_I min.+ D_K*)
        C = _gemm(X[:, k0:k1], Dkk, srg, work, bound=bound)
        _gemm_accumulate(X, C, R, srg, work, bound=bound)  # in the kernel: no T × n product
        m2 = mark()
        mech.download(D[i0:i1], X)
        moved[0] += X.nbytes
        moved[1] += X.nbytes
        if marks is not None:
            marks.extend([(lane, "h2d", r, m0, m1), (lane, "compute", r, m1, m2),
                          (lane, "d2h", r, m2, mark())])

    pivot = mech.pivot_stream()
    slots = []
    t_loop = time.perf_counter()
    try:
        if marks is not None:  # before any copy: the pivot's first work follows it
            pivot.launch(lambda: setattr(tl, "_base", mech.mark()))
        bufs = [(pivot.empty((B, n), work), pivot.empty((B, B), work)) for _ in range(nbuf)]
        slots = [_Slot(mech, i, T, n, B, work) for i in range(STREAM_SLOTS)]
        ready = {}
        last = []      # last[r]: each slot's last event in round r (None: no tile of r there)
        written = []   # the tiles of the round before: sorted (i0, i1, event)

        def start_pivot(r, writers):
            k0, k1 = rounds[r]
            for ev in _writers(writers, k0, k1):  # it uploads D[K, :]: wait for their D2H
                pivot.wait_event(ev)
            if r >= nbuf:  # its buffers' last readers: the tiles of round r − nbuf
                for ev in last[r - nbuf]:
                    if ev is not None:
                        pivot.wait_event(ev)
            pivot.launch(pivot_round, r, k0, k1, bufs[r % nbuf])
            ready[r] = pivot.record()
            bar.update()

        start_pivot(0, [])
        turn = 0
        for r, (k0, k1) in enumerate(rounds):
            nxt = rounds[r + 1] if r + 1 < len(rounds) else None
            early = nbuf > 1 and nxt is not None  # start round r + 1's pivot inside round r
            done_r = [None] * STREAM_SLOTS
            cur = []
            # the rows of the next pivot first (they start at k1), so its pivot can start
            for i0, i1 in _strips(k1, n, T) + _strips(0, k0, T):
                sl = slots[turn]
                turn = (turn + 1) % STREAM_SLOTS
                if sl.done is not None:  # its buffer is free once its last copy is done
                    sl.done.synchronize()
                    bar.update()
                sl.stream.wait_event(ready[r])
                for ev in _writers(written, i0, i1):  # the last writers of these rows
                    sl.stream.wait_event(ev)
                sl.stream.launch(strip, sl.lane, r, sl.X[:i1 - i0], i0, i1, k0, k1,
                                 bufs[r % nbuf])
                sl.done = done_r[sl.index] = sl.stream.record()
                cur.append((i0, i1, sl.done))
                if early and i1 >= nxt[1]:  # every tile over the next pivot's rows is queued
                    start_pivot(r + 1, sorted(cur))
                    early = False
            last.append(done_r)
            written = sorted(cur)
            if nxt is not None and r + 1 not in ready:
                start_pivot(r + 1, written)
        for sl in slots:
            if sl.done is not None:
                sl.done.synchronize()
                bar.update()
                sl.done = None
    finally:
        # also on an error: no copy may still be in flight into D or out of a buffer
        # when they are freed
        for st in [pivot] + [sl.stream for sl in slots]:
            st.synchronize()
        bar.close()
    t_finish = time.perf_counter()
    _check_diagonal(op, D.reshape(-1)[:: n + 1], np)
    out = _host_finish(op, D, work, out_type, T)
    if tl is not None:
        tl.n, tl.block, tl.rows, tl.slots = n, B, T, STREAM_SLOTS
        tl.rounds, tl.tiles, tl.lookahead = len(rounds), tiles, nbuf > 1
        tl.pinned = mech.pinned
        tl.bytes_h2d, tl.bytes_d2h = moved
        tl.setup_s, tl.loop_s = t_loop - t_start, t_finish - t_loop
        tl.finish_s = time.perf_counter() - t_finish
        if marks is not None:
            tl.spans = [(lane, kind, r, mech.seconds(tl._base, a), mech.seconds(tl._base, b))
                        for lane, kind, r, a, b in marks]
        traced[0].append(tl)
    return out
