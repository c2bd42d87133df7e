"""GPU SpGEMM: row-wise Gustavson with hash tables (Nagasaka et al. 2017), see
``semiring/kernels/spgemm.cu``: per-row flops, rows binned by their table size, a symbolic
phase counting each row's columns, a scan giving C's row pointers, a numeric phase filling
columns and values (sorted in shared memory). Rows too long for the shared tables get a
bitmap of C's columns in shared memory when one fits (values in a dense row of global
memory; the row comes out sorted), else a table in global memory (sorted from a direct
table, or afterwards by a radix sort when it was hashed). Called by :mod:`semiring.spgemm`."""

from __future__ import annotations

import functools

import numpy as np

from ... import device as _b
from ... import kernels
from ... import types as _t
from ...ops import builtins, monoid
from ..csr import build_csr as _build_csr

#: GPU: threads per block of every SpGEMM kernel (SR_SPG_THREADS in spgemm.cu).
THREADS = 256
#: Shared-memory bins: (log2 threads per row, table slots per row). Small rows share a block
#: (256 >> log_g rows of `slots` each: 2048 slots a block up to 2048-slot rows).
SHARED_BINS = ((2, 32), (3, 64), (4, 128), (5, 256), (6, 512), (7, 1024), (8, 2048),
               (8, 4096), (8, 8192), (8, 16384), (8, 32768))
#: Dynamic shared memory a block may use without opting in (48 KiB on every arch since sm_30).
#: Bins up to the device's opt-in maximum are used (A100: 163 KiB, H100/H200: 227 KiB: 16384
#: numeric slots of 12 bytes), with the kernels' limit raised once when they are loaded.
SHARED_BYTES = 48 * 1024
#: Largest load of a numeric table (exact row nnz / slots): probes stay short. The symbolic
#: phase bounds a row by its flops, which already overestimates its nnz, so it allows a full
#: table.
NUMERIC_LOAD = 0.75
#: Rows with more flops than the largest shared symbolic table first try it anyway, and give up
#: (to a global-memory table) once their distinct columns pass this load.
SYMBOLIC_TRY_LOAD = 0.75
#: Global-memory tables: blocks per multiprocessor of the persistent grid, and the most bytes
#: their regions may take together (the grid shrinks to fit).
GLOBAL_BLOCKS_PER_SM = 4
GLOBAL_TABLE_BYTES = 1 << 30
#: A global-memory row gets a direct table (all of the columns' power of two D, slot = column)
#: when D is at most this many times its hashed table (the power of two >= 2 nnz), else a hashed
#: one. A direct table's row comes out of the numeric phase sorted (compacted in slot order);
#: a hashed one's must be sorted afterwards (a radix sort of its entries), which costs more per
#: entry than a few slots of table fill and scan. At Kronecker 18 (D = 2^18) every
#: global-memory row (nnz > 12288, 85 % of C's 2.9·10⁹ entries) is direct with 8, so nothing
#: is sorted there. The symbolic phase only counts: its tables stay the smaller of the two.
NUMERIC_DIRECT_RATIO = 8
SYMBOLIC_DIRECT_RATIO = 1
#: Bitmap rows: when a bit per column of C fits in a block's shared memory, the rows too long
#: for the shared hash tables get a bitmap instead of a global-memory table (symbolic: count
#: the bits; numeric: values in a dense global row per block, compacted in column order), and
#: the symbolic phase sends to it every row whose hash table would be at least as large as
#: the bitmap (a shared atomicOr per product, no probing, no optimistic pass). At Kronecker 18
#: (32 KiB bitmaps) this replaced global tables holding 87 % of C's entries. False: the hash
#: tables only (tests reach the global-memory path this way).
BITMAP = True
#: Static shared memory of the bitmap kernels beside the bitmap (counters, scan scratch).
BITMAP_STATIC_BYTES = 256

#: How the numeric phase combines into a table: 0 CAS loop with the monoid, 1 atomicAdd, 2 a
#: plain store. Monoids not listed use the CAS loop (any commutative monoid works with it).
COMBINE = {monoid.plus: 1, monoid.any: 2}

# ------------------------------------------------------------------------------------ GPU

def symbolic_source() -> str:
    return kernels.source("common.cuh", "spgemm.cu")


def numeric_source(sr) -> str:
    return kernels.source("common.cuh", "spgemm.cu", ops=kernels.semiring_ops(sr))


def symbolic_names(itype) -> list[str]:
    I = _t.c_type(itype)
    return [f"spgemm_symbolic_{w}<{I}>" for w in ("shared", "global", "bitmap")]


def numeric_names(sr, dtype, itype) -> list[str]:
    T = _t.c_type(dtype)
    R = _t.c_type(sr.result_type(dtype))
    I = _t.c_type(itype)
    c = COMBINE.get(sr.add, 0)
    a, m = f"op_{sr.add.op.name}", f"op_{sr.mul.name}"
    return [f"spgemm_numeric_{w}<{a}, {m}, {T}, {R}, {I}, {c}>"
            for w in ("shared", "global", "bitmap")]


@kernels.register("spgemm")
def all_instantiations():
    """(label, source, name_expressions) of every built-in SpGEMM kernel."""
    yield "spgemm_symbolic", symbolic_source(), symbolic_names(_t.INT32) + symbolic_names(_t.INT64)
    for name, sr in sorted(builtins("semiring").items()):
        src = numeric_source(sr)
        for dt in _t.DTYPES:
            yield (f"spgemm_{name}[{dt}]", src,
                   numeric_names(sr, dt, _t.INT32) + numeric_names(sr, dt, _t.INT64))


def _kernels(kind, sr, dtype, itype):
    """(shared, global, bitmap) kernel functions of a phase, compiled on first use per
    device."""
    sym = kind == "symbolic"  # one symbolic module per index type, whatever the semiring
    key = ("spgemm", kind, None if sym else id(sr), None if sym else np.dtype(dtype),
           np.dtype(itype))

    def build():
        if sym:
            names, src = symbolic_names(itype), symbolic_source
        else:
            names, src = numeric_names(sr, dtype, itype), lambda: numeric_source(sr)
        for n in names[1:]:  # a program each, compiled at once (NVRTC 13 runs them in parallel)
            kernels.prefetch(kernels.function, key, n, src, names)
        fs = tuple(kernels.function(key, n, src, names) for n in names)
        budget = _shared_budget()
        if budget > SHARED_BYTES:  # the shared-table and bitmap kernels may take the opt-in
            fs[0].max_dynamic_shared_size_bytes = budget  # maximum
            fs[2].max_dynamic_shared_size_bytes = budget - BITMAP_STATIC_BYTES
        return fs
    return kernels.memo(key + ("functions",), build)


@functools.lru_cache(maxsize=None)
def _optin_bytes(device_id: int) -> int:
    cp = _b._cupy()
    try:
        return int(cp.cuda.runtime.deviceGetAttribute(
            cp.cuda.runtime.cudaDevAttrMaxSharedMemoryPerBlockOptin, device_id))
    except Exception:  # an old runtime: stay within the default
        return SHARED_BYTES


def _shared_budget() -> int:
    """Dynamic shared memory a block of the shared-table kernels may use on this device."""
    cp = _b._cupy()
    return max(SHARED_BYTES, _optin_bytes(cp.cuda.runtime.getDevice()))


def _bin_rows(cp, bound, caps):
    """Rows with bound > 0 grouped by the first bin whose capacity holds the bound; rows
    beyond the last go to the global bin. Returns (rows sorted by bin, per-bin (start, count)
    for the shared bins, then the global bin, and the largest bound of the global bin)."""
    nb = len(caps)
    b = cp.searchsorted(cp.asarray(np.asarray(caps, dtype=np.int64)), bound, side="left")
    b = cp.where(bound > 0, b, nb + 1)  # empty rows last, never launched
    order = cp.argsort(b)
    counts = _b.bincount(b, nb + 2)
    gmax = cp.max(cp.where(b == nb, bound, 0))
    host = cp.asnumpy(cp.concatenate([counts, gmax[None]]))  # one synchronization
    counts, gmax = host[:nb + 2], int(host[nb + 2])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return order, [(int(starts[i]), int(counts[i])) for i in range(nb + 1)], gmax


def _bitmap_bytes(ncols: int) -> int:
    """Shared memory of a bitmap of ``ncols`` columns (32-bit words)."""
    return 4 * ((int(ncols) + 31) // 32)


def _use_bitmap(ncols: int, budget: int) -> bool:
    return BITMAP and _bitmap_bytes(ncols) + BITMAP_STATIC_BYTES <= budget


def _longest_first(cp, rows, size):
    """``rows`` ordered by decreasing ``size[rows]`` (blocks that start last get short rows)."""
    return rows[cp.argsort(-size[rows])]


def _direct_min(ncols: int, ratio: float) -> int:
    """The least row bound whose direct table (D = pow2 >= ncols slots) is at most ``ratio``
    times its hashed one (pow2 >= 2 * bound): 4 * bound * ratio > D."""
    d = 1 << max(0, int(ncols - 1).bit_length())
    return int(d // (4 * ratio)) + 1


def _global_size(bound: int, ncols: int, direct_min: int) -> int:
    """sr_spg_global_size of spgemm.cu: D = pow2 >= ncols when bound >= direct_min, else the
    smaller of D and pow2 >= 2 * bound (a table of D slots is indexed directly)."""
    d = 1 << max(0, int(ncols - 1).bit_length())
    if bound >= direct_min:
        return d
    s = 1 << max(0, int(2 * bound - 1).bit_length())
    return min(s, d)


def _global_grid(cp, nrows_bin, slot_bytes, cap):
    grid = min(nrows_bin, kernels.num_sms(cp.cuda.Device().id) * GLOBAL_BLOCKS_PER_SM)
    return max(1, min(grid, GLOBAL_TABLE_BYTES // max(1, cap * slot_bytes)))


def spgemm(A, B, sr, dtype, rtype, mask, complement, marks=None):
    cp = _b._cupy()
    _mark(marks, "start")
    nrows, ncols = A.nrows, B.ncols
    wide = any(M is not None and M.itype == _t.INT64 for M in (A, B, mask))
    it = _t.INT64 if wide else _t.INT32
    a_ptr, a_idx = A.indptr.astype(it, copy=False), A.indices.astype(it, copy=False)
    b_ptr, b_idx = B.indptr.astype(it, copy=False), B.indices.astype(it, copy=False)
    if mask is not None:
        m_ptr, m_idx = mask.indptr.astype(it, copy=False), mask.indices.astype(it, copy=False)
    else:
        m_ptr = m_idx = None
    comp = np.int32(1 if complement else 0)
    ksize = np.dtype(it).itemsize
    rsize = np.dtype(rtype).itemsize

    # (1) flops per row; a non-complemented mask bounds a row's nnz by its mask row
    degB = cp.diff(b_ptr).astype(cp.int64)
    cs = cp.concatenate([cp.zeros(1, dtype=cp.int64), cp.cumsum(degB[a_idx])])
    ap64 = a_ptr.astype(cp.int64)
    bound = cs[ap64[1:]] - cs[ap64[:-1]]
    if mask is not None and not complement:
        bound = cp.minimum(bound, cp.diff(m_ptr).astype(cp.int64))
    _mark(marks, "flops")

    # (2)-(3) symbolic phase over bins of the flops bound
    budget = _shared_budget()
    bitmap = _use_bitmap(ncols, budget)
    bmap_bytes = _bitmap_bytes(ncols)
    sym_bins = [(lg, s) for lg, s in SHARED_BINS
                if (THREADS >> lg) * s * ksize + (THREADS >> lg) * 8 <= budget
                and not (bitmap and lg == 8 and s * ksize >= bmap_bytes)]
    order, spans, _ = _bin_rows(cp, bound, [s for _, s in sym_bins])
    rows = order.astype(it)
    rownnz = cp.zeros(nrows, dtype=cp.int64)
    _mark(marks, "symbolic_bins")
    f_shared, f_global, f_bitmap = _kernels("symbolic", sr, dtype, it)
    common = (a_ptr, a_idx, b_ptr, b_idx, m_ptr, m_idx, comp)
    for (lg, s), (start, count) in zip(sym_bins, spans):
        if count:
            rpb = THREADS >> lg
            f_shared(((count + rpb - 1) // rpb,), (THREADS,), common + (
                rows[start:], np.int64(count), np.int32(lg), np.int32(s), np.int64(ncols),
                rownnz, np.int32(s)), shared_mem=rpb * s * ksize + rpb * 8)
    start, count = spans[-1]
    if count and bitmap:  # every row whose hash table would be no smaller than a bitmap
        big = _longest_first(cp, rows[start:start + count], bound)
        f_bitmap((count,), (THREADS,), common + (big, np.int64(count), np.int64(ncols), rownnz),
                 shared_mem=bmap_bytes)
        count = 0
    _mark(marks, "symbolic_bitmap")
    if count:
        # optimistic pass in the largest shared table; only rows that overflow go global
        big = rows[start:start + count]
        lg, s = sym_bins[-1]
        f_shared((count,), (THREADS,), common + (
            big, np.int64(count), np.int32(lg), np.int32(s), np.int64(ncols), rownnz,
            np.int32(int(s * SYMBOLIC_TRY_LOAD))), shared_mem=s * ksize + 8)
        big = big[rownnz[big] < 0]
        count = int(big.size)
    _mark(marks, "symbolic_shared")
    if count:
        dmin = _direct_min(ncols, SYMBOLIC_DIRECT_RATIO)
        cap = _global_size(int(bound[big].max()), ncols, dmin)
        grid = _global_grid(cp, count, ksize, cap)
        gkeys = cp.empty(grid * cap, dtype=it)
        f_global((grid,), (THREADS,), common + (
            big, np.int64(count), bound, np.int64(ncols), gkeys, np.int64(cap), rownnz,
            np.int64(dmin)))
        del gkeys
    _mark(marks, "symbolic_global")

    # (4) row pointers of C
    c_ptr = cp.concatenate([cp.zeros(1, dtype=cp.int64), cp.cumsum(rownnz)])
    nnz = int(c_ptr[-1])
    c_idx = cp.empty(nnz, dtype=it)
    c_val = cp.empty(nnz, dtype=rtype)
    _mark(marks, "scan_alloc")
    if nnz == 0:
        return _build_csr(cp, c_ptr, c_idx, c_val, (nrows, ncols))

    # (5)-(6) numeric phase over bins of the exact row nnz; shared rows come out sorted
    num_bins = [(lg, s) for lg, s in SHARED_BINS
                if (THREADS >> lg) * s * (ksize + rsize) <= budget]
    order, spans, gmax = _bin_rows(cp, rownnz, [int(s * NUMERIC_LOAD) for _, s in num_bins])
    rows = order.astype(it)
    _mark(marks, "numeric_bins")
    avals, astride = A._values_for(dtype)
    bvals, bstride = B._values_for(dtype)
    empty = rtype.type(sr.add.empty_of(rtype))  # NaN for float min/max: a NaN product stays
    f_shared, f_global, f_bitmap = _kernels("numeric", sr, dtype, it)
    common = (a_ptr, a_idx, avals, np.int64(astride), b_ptr, b_idx, bvals, np.int64(bstride),
              m_ptr, m_idx, comp)
    for (lg, s), (start, count) in zip(num_bins, spans):
        if count:
            rpb = THREADS >> lg
            f_shared(((count + rpb - 1) // rpb,), (THREADS,), common + (
                rows[start:], np.int64(count), np.int32(lg), np.int32(s), np.int64(ncols),
                c_ptr, c_idx, c_val, empty), shared_mem=rpb * s * (ksize + rsize))
    _mark(marks, "numeric_shared")
    start, count = spans[-1]
    if count and bitmap:
        big = _longest_first(cp, rows[start:start + count], rownnz)
        grid = _global_grid(cp, count, rsize, ncols)
        gvals = cp.full(grid * ncols, empty, dtype=rtype)  # put back by every row's compaction
        f_bitmap((grid,), (THREADS,), common + (
            big, np.int64(count), np.int64(ncols), c_ptr, c_idx, c_val, empty, gvals,
            cp.zeros(1, dtype=cp.uint64)), shared_mem=bmap_bytes)
        del gvals
        count = 0
        _mark(marks, "numeric_bitmap")
    if count:
        dmin = _direct_min(ncols, NUMERIC_DIRECT_RATIO)
        cap = _global_size(gmax, ncols, dmin)
        grid = _global_grid(cp, count, ksize + rsize, cap)
        gkeys = cp.empty(grid * cap, dtype=it)
        gvals = cp.empty(grid * cap, dtype=rtype)
        big = rows[start:start + count]
        f_global((grid,), (THREADS,), common + (
            big, np.int64(count), np.int64(ncols), c_ptr, c_idx, c_val, empty, gkeys, gvals,
            np.int64(cap), np.int64(dmin)))
        del gkeys, gvals
        _mark(marks, "numeric_global")
        # rows with a direct table came out sorted; only the hashed ones need the sort
        hashed = big[rownnz[big] < dmin]
        if hashed.size:
            _sort_rows(cp, hashed.astype(cp.int64), c_ptr, c_idx, c_val, ncols)
        _mark(marks, "sort")
    C = _build_csr(cp, c_ptr, c_idx, c_val, (nrows, ncols))
    _mark(marks, "build")  # int64 indices past 2^31 entries: a copy
    return C


def _mark(marks, name):
    """Record a CUDA event after a phase when profiling (``marks``: a list, see
    bench/probes/probe_spgemm.py); nothing otherwise."""
    if marks is not None:
        ev = _b._cupy().cuda.Event()
        ev.record()
        marks.append((name, ev))


#: Entries of C sorted per radix sort of the global-memory rows (bounds its temporaries,
#: about 40 bytes an entry, to a few GB).
SORT_BATCH = 1 << 27


def _sort_rows(cp, rows, c_ptr, c_idx, c_val, ncols):
    """Sort the columns (and values) of the listed rows of C in place: radix sorts of
    (rank of the row, column) keys over all their entries, in batches of whole rows."""
    lens = c_ptr[rows + 1] - c_ptr[rows]
    ends = cp.asnumpy(cp.cumsum(lens))
    cuts = np.searchsorted(ends, np.arange(SORT_BATCH, int(ends[-1]), SORT_BATCH), side="left")
    bounds = np.unique(np.concatenate([[0], cuts, [rows.size]]))
    for r0, r1 in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        _sort_batch(cp, rows[r0:r1], c_ptr, c_idx, c_val, ncols)


def _sort_batch(cp, rows, c_ptr, c_idx, c_val, ncols):
    starts = c_ptr[rows]
    lens = c_ptr[rows + 1] - starts
    ends = cp.cumsum(lens)
    total = int(ends[-1])
    e = cp.arange(total, dtype=cp.int64)
    seg = cp.searchsorted(ends, e, side="right")
    pos = starts[seg] + e - (ends - lens)[seg]
    del e
    cols = c_idx[pos]
    if rows.size * max(ncols, 1) < 2**62:
        order = cp.argsort(seg * ncols + cols.astype(cp.int64))
    else:
        order = cp.lexsort(cp.stack([cols.astype(cp.int64), seg]))
    del seg
    c_idx[pos] = cols[order]
    c_val[pos] = c_val[pos][order]
