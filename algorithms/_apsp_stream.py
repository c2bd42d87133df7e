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
is closed with a zero diagonal). The device holds R (B × n), D_KK and its closure workspace,
and ``STREAM_SLOTS`` tiles with their products.

Overlap: the pivot work runs on one CUDA stream and the tiles round-robin over
``STREAM_SLOTS`` more, each tile's H2D copy, products and D2H copy ordered on its slot's
stream, so one tile's copies overlap another's products. Ordering between them is by events:
a round's tiles wait for the pivot's "R ready" event; the next round's pivot waits for every
slot's last event (it overwrites R and reads rows the tiles wrote back); the host reuses a
slot's buffers only after that slot's event (which is also what the progress bar counts).
CuPy's memory pool keeps one arena per stream, so the temporaries of one stream are never
handed to another while in use.

Cost per round: 2 n² · itemsize bytes of copies against n² · B relaxations (plus n · B² for
the column strip), so B is made as large as the budget allows up to ``STREAM_MAX_BLOCK``,
where the copies already hide behind the products (see there).

On the CPU backend the same code runs on NumPy: "streams" run immediately and copies are
plain slice copies, so the tests exercise the blocking logic without a GPU.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from semiring import _backend as _b
from semiring._dense import gemm as _gemm
from semiring._dense import gemm_accumulate as _gemm_accumulate
from semiring.errors import OutOfMemory
from semiring.matrix import Matrix

from .apsp import _NoBar, _bar, _check_diagonal, _floyd_warshall, _rate
from .sssp import DistanceOverflow, _t_max, _weight_type

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
#: serial closure n · B². To be tuned on the GPU (``tools/apsp_stream_check.py``).
STREAM_MAX_BLOCK = 4096
#: Blocks of at least this width are rounded down to a multiple of it (whole GEMM tiles).
STREAM_ALIGN = 256
#: Host ↔ device copy rate assumed by the progress estimate (bytes/s, pinned memory).
RATE_COPY = 2e10


# ------------------------------------------------------------------------------ planning

def stream_need(n: int, block: int, itemsize: int, tile: int) -> int:
    """Device bytes a streamed run with pivot blocks of ``block`` vertices allocates at most.

    Pivot stream: R (B × n); D_KK (B²) and the in-memory closure's workspace (its phase-3
    product B², its strips and their copies ~3·t·B, squarings ~3·t² for t = min(tile, B));
    phase 2's column chunk and its product (2·B²). Each of ``STREAM_SLOTS`` slots: the tile
    X (T × n; phase 3 accumulates into it inside the kernel), X[:, K] and C_I (2·T·B),
    T = min(B, STREAM_ROWS).
    """
    b = max(1, min(int(block), n))
    t = min(int(tile), b)
    rows = min(b, STREAM_ROWS)
    pivot = b * n + 5 * b * b + 3 * t * b + 3 * t * t
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

    def stream(self):
        return _Now()

    def host_empty(self, shape, dtype):
        return np.empty(shape, dtype=dtype)

    def upload(self, dst, src):
        np.copyto(dst, src)

    def download(self, dst, src):
        np.copyto(dst, src)


class _CudaStream:
    """A non-blocking CUDA stream; persistent buffers come from its arena of CuPy's pool."""

    def __init__(self, cp):
        self.s = cp.cuda.Stream(non_blocking=True)
        self.cp = cp

    def launch(self, fn, *args):
        with self.s:  # CuPy's kernels, copies and temporaries go to the current stream
            fn(*args)

    def empty(self, shape, dtype):
        with self.s:
            return self.cp.empty(shape, dtype=dtype)

    def record(self):
        return self.s.record()

    def wait_event(self, event):
        self.s.wait_event(event)

    def synchronize(self):
        self.s.synchronize()


class _Device:
    """GPU backend: pinned host memory, asynchronous copies on CUDA streams."""

    def __init__(self):
        self.cp = _b._cupy()
        self.xp = self.cp

    def stream(self):
        return _CudaStream(self.cp)

    def host_empty(self, shape, dtype):
        """A NumPy array in pinned memory. Not from CuPy's pinned pool: the pool would keep
        n² bytes of page-locked memory cached after the caller drops the result. Where the
        host cannot pin that much, pageable memory (copies then wait for the host)."""
        dtype = np.dtype(dtype)
        nbytes = max(1, math.prod(shape) * dtype.itemsize)
        try:
            mem = self.cp.cuda.PinnedMemoryPointer(self.cp.cuda.PinnedMemory(nbytes), 0)
        except Exception as err:  # cudaErrorMemoryAllocation and the like
            warnings.warn(f"apsp: could not pin {nbytes} bytes of host memory ({err}); the "
                          f"streamed run copies from pageable memory (slower)", ResourceWarning,
                          stacklevel=3)
            return np.empty(shape, dtype=dtype)
        return np.ndarray(shape, dtype=dtype, buffer=mem)  # as cupyx.empty_pinned

    # Both operands C-contiguous and of equal size (whole row strips of D and of a device
    # buffer); asynchronous on the current stream (the one whose closure runs).
    def upload(self, dst, src):
        dst.data.copy_from_host_async(src.ctypes.data, src.nbytes,
                                      self.cp.cuda.get_current_stream())

    def download(self, dst, src):
        src.data.copy_to_host_async(dst.ctypes.data, src.nbytes,
                                    self.cp.cuda.get_current_stream())


class _Slot:
    """A stream with its own tile buffer X (``rows`` × n) and the event of its last copy."""

    def __init__(self, mech, rows: int, n: int, work):
        self.stream = mech.stream()
        self.X = self.stream.empty((rows, n), work)
        self.done = None


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
            r, c, vals = (_b.to_device(a, "cpu") for a in (r, c, vals))
            D[r, c] = vals if stride else vals[0]
    else:
        src_type = _weight_type(G.dtype)
        for i0 in range(0, n, rows):
            src = G[i0:i0 + rows].astype(src_type, copy=False)
            blk = _b.to_device(src.astype(work), "cpu")
            if src_type != work and work.kind != "f":  # int32 "no edge" becomes int64's
                blk[_b.to_device(src == _t_max(src_type), "cpu")] = inf
            D[i0:i0 + rows] = blk
    diag = D.reshape(-1)[:: n + 1]  # a view of the diagonal
    np.minimum(diag, 0, out=diag)
    return D


def _host_finish(op, D, work, out_type, rows: int):
    """``apsp._finish`` on the host, a row strip at a time (no n² temporaries)."""
    if work == out_type:
        return D
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


def floyd_warshall_streamed(G, n: int, device: str, work, out_type, srg, tile: int,
                            budget: int, progress, op: str = "apsp", *, what="memory_budget",
                            block=None, rows=None, bound=None):
    """Blocked Floyd–Warshall with D in host memory; returns the distances as a NumPy array.

    ``block`` and ``rows`` override the pivot block width and the tile height chosen from
    ``budget`` (tests use them to reach B ≥ n, which a budget never picks).
    """
    mech = _Device() if device == "gpu" else _Host()
    xp = mech.xp
    work = np.dtype(work)
    s = work.itemsize
    B = int(block) if block is not None else block_width(op, n, s, tile, budget, what)
    B = max(1, min(B, n))
    T = int(rows) if rows is not None else min(B, STREAM_ROWS)
    D = _host_dense(G, n, work, mech, T)

    rounds = [(k0, min(n, k0 + B)) for k0 in range(0, n, B)]
    tiles = sum(1 + len(_strips(0, k0, T)) + len(_strips(k1, n, T)) for k0, k1 in rounds)
    rate = _rate(device, work)
    compute = (float(n) ** 3 + float(n) * n * B + float(n) * B * B) / rate  # + C_I, phase 1
    copies = len(rounds) * 2.0 * n * n * s / RATE_COPY if device == "gpu" else 0.0
    bar = _bar(progress, max(compute, copies), tiles,
               f"{op} (streamed, B={B}; result in host memory)", unit="tile")

    def pivot_round(k0, k1):
        R, Dkk = Rbuf[:k1 - k0], Dbuf[:k1 - k0, :k1 - k0]
        mech.upload(R, D[k0:k1])
        # phase 1: D_KK ← D_KK⁺      (in-memory blocked Floyd–Warshall on the block)
        Dkk[...] = _floyd_warshall(xp.ascontiguousarray(R[:, k0:k1]), srg, work,
                                   min(tile, k1 - k0), _NoBar(), bound)
        # phase 2: D_K* ← D_KK min.+ D_K*      (column chunks of width B)
        for j0 in range(0, n, B):
            R[:, j0:j0 + B] = _gemm(Dkk, R[:, j0:j0 + B], srg, work, bound=bound)
        mech.download(D[k0:k1], R)

    def strip(X, i0, i1, k0, k1):
        R, Dkk = Rbuf[:k1 - k0], Dbuf[:k1 - k0, :k1 - k0]
        mech.upload(X, D[i0:i1])
        # C_I = D_IK min.+ D_KK;   D_I* ← min(D_I*, C_I min.+ D_K*)
        C = _gemm(X[:, k0:k1], Dkk, srg, work, bound=bound)
        _gemm_accumulate(X, C, R, srg, work, bound=bound)  # in the kernel: no T × n product
        mech.download(D[i0:i1], X)

    pivot = mech.stream()
    slots = []
    try:
        Rbuf = pivot.empty((B, n), work)
        Dbuf = pivot.empty((B, B), work)
        slots = [_Slot(mech, T, n, work) for _ in range(STREAM_SLOTS)]
        turn = 0
        for k0, k1 in rounds:
            for sl in slots:  # round r's strips read R, D_KK and write rows uploaded next
                if sl.done is not None:
                    pivot.wait_event(sl.done)
            pivot.launch(pivot_round, k0, k1)
            ready = pivot.record()
            bar.update()
            for i0, i1 in _strips(0, k0, T) + _strips(k1, n, T):
                sl = slots[turn]
                turn = (turn + 1) % STREAM_SLOTS
                if sl.done is not None:  # its buffer is free once its last copy is done
                    sl.done.synchronize()
                    bar.update()
                sl.stream.wait_event(ready)
                sl.stream.launch(strip, sl.X[:i1 - i0], i0, i1, k0, k1)
                sl.done = sl.stream.record()
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
    _check_diagonal(op, D.reshape(-1)[:: n + 1], np)
    return _host_finish(op, D, work, out_type, T)
