"""GPU BFS levels on a rank's vertex block (``kernels/blocks.cu``): the launches of
:mod:`semiring.blocks`, which validates the operands. No host sync here: a level's counts
stay in the send buffer's header until the all-gather reads them."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy

#: C types of the index arrays.
C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: C types of the distances.
D_TYPES = {np.dtype(np.int64): "long long", np.dtype(np.float32): "float",
           np.dtype(np.float64): "double"}
#: Threads per block, and blocks per multiprocessor, of the grid-stride launches. The push
#: launches a full grid whatever its frontier: its edge count is on the device, and reading
#: it first would cost a host sync a level.
THREADS = 256
BLOCKS_PER_SM = 8
#: A pull round's rows of more than HEAVY_ROW in-edges go to ``bb_relax_heavy``, cut in tiles of
#: HEAVY_TILE edges, a block a tile, min-combined by one atomic a tile: on 4 H200 a kron-24
#: round took ~5.5 ms on 1, 2 and 4 GPUs alike (bench/results/20261128-spmd_fused_h200x4.md),
#: a hub's ~7·10⁵ in-edges scanned by one warp whatever the cut. Below HEAVY_ROW a warp's scan
#: of a row is at most HEAVY_ROW / 32 = 64 steps.
HEAVY_ROW = 2048
HEAVY_TILE = 2048


def source() -> str:
    return kernels.source("blocks.cu")


def kernel_names():
    """Every instantiation of the block kernels."""
    names = ["bb_join", "bb_popc"]
    for T in D_TYPES.values():
        names += [f"bb_pack<{T}>", f"bb_unpack<{T}>", f"bb_relax_heavy_done<{T}>",
                  f"bb_split<{T}>", f"bb_split_ahead<{T}>", f"bb_unpack_pairs<{T}>"]
        names += [f"bb_relax_{k}<{I}, {T}>" for k in ("pull", "push", "heavy")
                  for I in C_TYPES.values()]
    for I in C_TYPES.values():
        names += [f"bb_list<{I}>", f"bb_first<{I}>", f"bb_roots<{I}>", f"bb_mirror<{I}>",
                  f"bb_pairs_list<{I}>"]
        names += [f"bb_{k}<{I}, {p}>" for k in ("pull", "push") for p in (0, 1, 2)]
    return names


@kernels.register("blocks")
def all_instantiations():
    yield "blocks", source(), kernel_names()


def function(name: str):
    return kernels.function(("blocks",), name, source, kernel_names)


def _full_grid() -> int:
    # kept per device: kernels.num_sms reads every attribute of the device (CuPy's
    # Device.attributes), a cost paid at each launch of a BFS level otherwise
    return kernels.memo(("blocks.full_grid", BLOCKS_PER_SM), lambda: kernels.num_sms(
        _cupy().cuda.Device().id) * BLOCKS_PER_SM)


def _grid(items: int) -> int:
    return max(1, min(_full_grid(), -(-items // THREADS)))


def read_spans(got, spans):
    """The column spans ``[(start, count), ...]`` of every row of the C-ordered device array
    ``got``, side by side in a host array: one strided copy a span (cudaMemcpy2DAsync) into
    pinned memory kept per size, one stream sync, rather than CuPy's slices, concatenate and
    ``get`` (on 2 H200, kron-24's near–far rounds, bench/results/session21 calls 2-3:
    ``split_heads`` 121 → 80 µs a read; ``heads`` 80-95 µs either way, most of it the wait
    for the all-gather the read follows)."""
    cp = _cupy()
    P, stride = got.shape
    item = got.dtype.itemsize
    width = sum(k for _, k in spans)
    host = kernels.memo(("blocks.read_spans", P * width * item), lambda: np.frombuffer(
        cp.cuda.alloc_pinned_memory(max(1, P * width * item)), dtype=np.uint8,
        count=P * width * item))
    stream = cp.cuda.get_current_stream()
    at = 0
    for a, k in spans:
        if k and P:
            cp.cuda.runtime.memcpy2DAsync(host.ctypes.data + at * item, width * item,
                                          got.data.ptr + a * item, stride * item, k * item, P,
                                          cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
        at += k
    stream.synchronize()
    return host.view(got.dtype).reshape(P, width).copy()


def bfs_pull(BT, fbits, level, depth, deg, out, shift, parent, mode):
    np_ = BT.nrows
    if np_ == 0:
        return
    f = function(f"bb_pull<{C_TYPES[np.dtype(BT.itype)]}, {mode}>")
    f((_grid(np_),), (THREADS,), (BT.indptr, BT.indices, np.int64(np_), fbits, np.int64(depth),
                                  level, level if parent is None else parent, deg, out,
                                  np.int32(shift)))


def bfs_push(B, frontier, lens, level, depth, deg, out, shift, parent, mode):
    cp = _cupy()
    nf = int(frontier.size)
    if nf == 0 or B.ncols == 0:
        return
    offsets = cp.cumsum(lens, dtype=cp.int64)
    f = function(f"bb_push<{C_TYPES[np.dtype(B.itype)]}, {mode}>")
    f((_full_grid(),), (THREADS,), (B.indptr, B.indices, frontier, np.int64(nf), offsets,
                                    np.int64(depth), level, level if parent is None else parent,
                                    deg, out, np.int32(shift)))


def join_bits(got, wlo, wn, nwords):
    cp = _cupy()
    fbits = cp.empty(nwords, dtype=cp.uint32)
    if nwords:
        P, stride = got.shape
        function("bb_join")((_grid(nwords),), (THREADS,), (
            got, np.int32(P), np.int64(stride), wlo, wn, np.int64(nwords), fbits))
    return fbits


def bits_list(B, fbits, size):
    cp = _cupy()
    lst = cp.empty(size, dtype=cp.int64)
    lens = cp.empty(size, dtype=cp.int64)
    if size:
        count = cp.zeros(1, dtype=cp.uint64)
        f = function(f"bb_list<{C_TYPES[np.dtype(B.itype)]}>")
        f((_grid(fbits.size),), (THREADS,), (fbits, np.int64(fbits.size), B.indptr, lst, lens,
                                             count))
    return lst, lens


def component_roots(labels):
    cp = _cupy()
    n = int(labels.size)
    first = cp.full(n, n, dtype=cp.int64)
    roots = cp.empty(n, dtype=cp.int64)
    if n:
        L = C_TYPES[np.dtype(labels.dtype)]
        function(f"bb_first<{L}>")((_grid(n),), (THREADS,), (labels, np.int64(n), first))
        function(f"bb_roots<{L}>")((_grid(n),), (THREADS,), (labels, np.int64(n), first, roots))
    return roots


def _heavy_plan(BT, dtype):
    """(rows, tile_row, tile_start, tmin) of BT's rows past HEAVY_ROW in-edges: the rows,
    each tile's row (an index into rows) and first edge, and the rounds' scratch minima
    (each the type's none, reset by every round); None when no row is that long. Kept in
    the matrix's memo (the blocks do not change; made with one host read)."""
    key = ("blocks.heavy", HEAVY_ROW, HEAVY_TILE, np.dtype(dtype).str)
    if key in BT._memo:
        return BT._memo[key]
    cp = _cupy()
    lens = cp.diff(BT.indptr.astype(cp.int64))
    rows = cp.flatnonzero(lens > HEAVY_ROW)
    plan = None
    if rows.size:
        starts = BT.indptr[rows].astype(cp.int64).get()
        nt = -(-lens[rows].get() // HEAVY_TILE)
        tile_row = np.repeat(np.arange(rows.size, dtype=np.int64), nt)
        first = np.repeat(np.cumsum(nt) - nt, nt)
        tile_start = np.repeat(starts, nt) + (np.arange(tile_row.size) - first) * HEAVY_TILE
        tmin = cp.full(rows.size, _none(dtype), dtype=dtype)
        plan = (rows.astype(cp.int64), cp.asarray(tile_row), cp.asarray(tile_start), tmin)
    BT._memo[key] = plan
    return plan


def _none(dtype):
    dtype = np.dtype(dtype)
    return dtype.type(np.inf if dtype.kind == "f" else np.iinfo(dtype).max)


def mirrored(B, BT, lo, hi):
    cp = _cupy()
    n = B.nrows
    it = np.dtype(B.itype)
    lens = cp.diff(B.indptr.astype(cp.int64))
    lens[lo:hi] += cp.diff(BT.indptr.astype(cp.int64))
    ptr = cp.zeros(n + 1, dtype=cp.int64)
    cp.cumsum(lens, out=ptr[1:])
    idx = cp.empty(B.nvals + BT.nvals, dtype=it)
    if n:
        function(f"bb_mirror<{C_TYPES[it]}>")((_grid(32 * n),), (THREADS,), (
            B.indptr, B.indices, BT.indptr, BT.indices, np.int64(n), np.int64(lo),
            np.int64(hi), ptr, idx))
    return ptr, idx


def relax_pull(BT, w, wstride, fbits, d, lo, out, shift):
    np_ = BT.nrows
    if np_ == 0:
        return
    I, T = C_TYPES[np.dtype(BT.itype)], D_TYPES[np.dtype(d.dtype)]
    plan = _heavy_plan(BT, d.dtype)
    f = function(f"bb_relax_pull<{I}, {T}>")
    f((_grid(np_),), (THREADS,), (BT.indptr, BT.indices, w, np.int64(wstride), np.int64(np_),
                                  fbits, d, np.int64(lo), out, np.int32(shift),
                                  np.int64(HEAVY_ROW if plan is not None else 2**62)))
    if plan is not None:
        # t(j) = min over j's tiles of (f min.+ B)(tile) ;  d⟨t < d⟩ = t   (the heavy rows)
        rows, tile_row, tile_start, tmin = plan
        function(f"bb_relax_heavy<{I}, {T}>")(
            (min(int(tile_row.size), _full_grid()),), (THREADS,),
            (BT.indptr, BT.indices, w, np.int64(wstride), rows, tile_row, tile_start,
             np.int64(tile_row.size), np.int64(HEAVY_TILE), fbits, d, tmin))
        function(f"bb_relax_heavy_done<{T}>")((_grid(int(rows.size)),), (THREADS,), (
            rows, np.int64(rows.size), tmin, _none(d.dtype), d, np.int64(lo), out,
            np.int32(shift)))


def relax_push(B, w, wstride, frontier, lens, d, lo, out, shift):
    cp = _cupy()
    nf = int(frontier.size)
    if nf == 0 or B.ncols == 0:
        return
    offsets = cp.cumsum(lens, dtype=cp.int64)
    f = function(f"bb_relax_push<{C_TYPES[np.dtype(B.itype)]}, {D_TYPES[np.dtype(d.dtype)]}>")
    f((_full_grid(),), (THREADS,), (B.indptr, B.indices, w, np.int64(wstride), frontier,
                                    np.int64(nf), offsets, d, np.int64(lo), out, np.int32(shift)))


def _word_sums(got, nw):
    """(P, nw) inclusive sums, row by row, of the set bits of each buffer's words."""
    cp = _cupy()
    P, stride = got.shape
    counts = cp.empty((P, nw), dtype=cp.int64)
    if P * nw:
        function("bb_popc")((_grid(P * nw),), (THREADS,), (got, np.int32(P), np.int64(stride),
                                                           np.int64(nw), counts))
    # the rows' sums from one flat scan (one CUB launch), each row less the total before it,
    # rather than CuPy's scan along an axis: pack and unpack took 0.25 and 0.38 ms a round
    # (kron-24 over 4 H200, 4 × 131 072 words, bench/results/20261128-dask_scaling_h200x4.md),
    # a fifth of a fused Bellman–Ford round
    flat = cp.cumsum(counts.reshape(-1)).reshape(P, nw)
    if P > 1 and nw:
        flat[1:] -= flat[:-1, -1].copy()[:, None]
    return flat


def pack(out, nw, d, lo, shift, kmax):
    cp = _cupy()
    vals = cp.zeros(kmax, dtype=d.dtype)
    if nw:
        incl = _word_sums(out[None], nw)
        function(f"bb_pack<{D_TYPES[np.dtype(d.dtype)]}>")((_grid(nw),), (THREADS,), (
            out, np.int64(nw), incl, d, np.int64(lo), np.int32(shift), vals))
    return vals


def unpack(got, nw, vals, bounds, d):
    cp = _cupy()
    P, stride = got.shape
    if P * nw == 0:
        return
    incl = _word_sums(got, nw)
    b = cp.asarray(np.asarray(bounds, dtype=np.int64))
    function(f"bb_unpack<{D_TYPES[np.dtype(d.dtype)]}>")((_grid(P * nw),), (THREADS,), (
        got, np.int32(P), np.int64(stride), np.int64(nw), incl, b, vals,
        np.int64(vals.shape[1]), d))


def split(chg, pend, nw, d, deg, lo, shift, tau, out, tail, ids, vals):
    if nw == 0:
        return
    T = np.dtype(d.dtype)
    function(f"bb_split<{D_TYPES[T]}>")((_grid(nw),), (THREADS,), (
        chg, pend, np.int64(nw), d, deg, np.int64(lo), np.int32(shift), tau, out, tail, ids,
        vals, np.int64(ids.size)))


def split_ahead(pend, nw, d, deg, lo, shift, delta, out, tail, ids, vals):
    if nw == 0:
        return
    T = np.dtype(d.dtype)
    # (launched whatever the split found: it reads the tail on the device, no host sync)
    function(f"bb_split_ahead<{D_TYPES[T]}>")((_grid(nw),), (THREADS,), (
        pend, np.int64(nw), d, deg, np.int64(lo), np.int32(shift), delta, out, tail, ids, vals,
        np.int64(ids.size)))


def _bounds(bounds):
    cp = _cupy()
    return kernels.memo(("blocks.bounds", bounds),
                        lambda: cp.asarray(np.asarray(bounds, dtype=np.int64)))


def unpack_pairs(got, lay, pairs, bounds, d):
    P, stride = got.shape
    if P * pairs == 0:
        return
    at, ids_at, vals_at = lay
    function(f"bb_unpack_pairs<{D_TYPES[np.dtype(d.dtype)]}>")((_grid(P * pairs),), (THREADS,), (
        got, np.int32(P), np.int64(stride), np.int64(at), np.int64(ids_at), np.int64(vals_at),
        np.int64(pairs), _bounds(bounds), d))


def pairs_list(B, got, lay, pairs, bounds, size):
    cp = _cupy()
    lst = cp.empty(size, dtype=cp.int64)
    lens = cp.empty(size, dtype=cp.int64)
    P, stride = got.shape
    if size and P * pairs:
        at, ids_at, _ = lay
        function(f"bb_pairs_list<{C_TYPES[np.dtype(B.itype)]}>")((_grid(P * pairs),), (THREADS,), (
            got, np.int32(P), np.int64(stride), np.int64(at), np.int64(ids_at), np.int64(pairs),
            _bounds(bounds), B.indptr, lst, lens))
    return lst, lens
