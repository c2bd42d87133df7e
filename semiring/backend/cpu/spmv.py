"""CPU mechanism: the same pull and push products as the GPU kernels, vectorized with NumPy.

These are the readable reference the GPU is tested against, and the fallback on machines
without a GPU. No Python loop runs per vertex or per edge.
"""

from __future__ import annotations

import threading

import numpy as np

from ...ops import ANY, Semiring
from ...ops import semiring as _semirings
from . import compiled
from .dense import negative_zero_possible

#: Rows of at most this many entries are reduced, one block per row length, elementwise
#: across the rows (``ufunc.reduce`` along axis 0) instead of by ``ufunc.reduceat``, whose
#: cost per segment dominated short rows: min-plus SpMV on the 256² grid (rows of 2-4
#: entries) took 4.6 ms, 1.7 ms of it in ``minimum.reduceat``, against 0.19 ms for SciPy's
#: plus-times; 0.7 ms this way. Min-plus on this 2-core host, ms for 4 / 8 / 16 / 32 / 64:
#: urand-16 5.8 / 6.0 / 5.9 / 4.2 / 3.6, kron-16 3.5 / 3.3 / 3.1 / 2.9-3.1 / 3.1, kron-12
#: 0.25 (8) / 0.29 (32) / 0.43 (64) (one group's fixed cost is a few NumPy calls).
SHORT_ROW = 32
#: Reductions whose result does not depend on the order of the fold (so a padded block may
#: fold its row in any order): min / max (fmin, fmax ignore NaN; minimum, maximum propagate
#: it, in either fold), logical or / and; plus and times only on integers and bool (exact).
_ORDER_FREE = (np.fmin, np.fmax, np.minimum, np.maximum, np.logical_or, np.logical_and)
_ORDER_FREE_INT = (np.add, np.multiply)
#: The row plan costs about 20 bytes an entry beside the matrix (positions, column indices,
#: values): matrices with more entries keep the segment fold.
PLAN_MAX_ENTRIES = 1 << 25
#: The row plan pays a few NumPy calls per row length: below this many entries per length
#: (and one), the segment fold is as fast (min-plus, ms, plan / fold: kron-10 0.16 / 0.09,
#: urand-10 0.13 / 0.12, kron-12 0.29 / 0.35, urand-12 0.30 / 0.48, 64² grid 0.04 / 0.11).
PLAN_MIN_ENTRIES_PER_GROUP = 2048
#: Per-matrix layouts of the short / long rows, kept in the matrix's ``_memo`` under this
#: key (dropped when its content changes), built on the second product with the matrix for
#: the NumPy fold (a matrix used once does not pay for the layout), on the first for a
#: grid's compiled block (:func:`_compiled_route`): {padded: plan} (see PAD_BLOCK_COST),
#: each built on its first use; False: seen once; "fold": not worth it.
PLAN_KEY = "cpu.plan"


def _order_free(sr: Semiring, rtype) -> bool:
    f = sr.add.op.numpy
    if sr.add.terminal is not None and sr.add.terminal(np.dtype(rtype)) is not None and \
            f not in _ORDER_FREE:
        return False  # e.g. any: its own fold (the first product)
    return f in _ORDER_FREE or (f in _ORDER_FREE_INT and np.dtype(rtype).kind in "biu")


class _RowPlan:
    """M's rows by length: for each length d in 1..SHORT_ROW, the rows of exactly d entries as
    a (d, rows) table of positions in M's arrays (``groups``: (slots in ``out_idx``, positions,
    column indices)), reduced along axis 0, elementwise across the rows (no padding, no
    segment loop); the longer rows as consecutive segments (``long_*``, ``reduceat``).
    ``out_idx``: the non-empty rows, in order."""

    def __init__(self, M, widths=None):
        indptr = M.indptr.astype(np.int64, copy=False)
        deg = np.diff(indptr)
        self.out_idx = np.flatnonzero(deg)
        slot_of = np.cumsum(deg > 0) - 1  # a non-empty row's place in out_idx
        self.groups = []
        self.padded = widths is not None
        lo = 0
        for w in (range(1, SHORT_ROW + 1) if widths is None else widths):
            # the rows of lengths lo+1..w (exactly w without widths), padded to w: the pads'
            # positions are -1, their column 0 (any column: NaN values, see PAD_BLOCK_COST)
            rows = np.flatnonzero((deg > (w - 1 if widths is None else lo)) & (deg <= w))
            lo = w
            if rows.size:
                pos = indptr[rows][None, :] + np.arange(w, dtype=np.int64)[:, None]
                if widths is not None:
                    pos[np.arange(w)[:, None] >= deg[rows][None, :]] = -1
                k = np.where(pos >= 0, M.indices[np.maximum(pos, 0)], 0).astype(np.intp)
                self.groups.append((slot_of[rows], pos, k))
        # a group holding every non-empty row, in order: its fold is the output itself
        self.whole = len(self.groups) == 1 and self.groups[0][0].size == self.out_idx.size
        lrows = np.flatnonzero(deg > (SHORT_ROW if widths is None else PAD_ROW))
        ldeg = deg[lrows]
        first = np.cumsum(ldeg) - ldeg
        seg = np.repeat(np.arange(lrows.size), ldeg)
        self.long_slot = slot_of[lrows]
        self.long_pos = indptr[lrows][seg] + (np.arange(int(ldeg.sum())) - first[seg])
        self.long_k = M.indices[self.long_pos].astype(np.intp)
        self.long_heads = first
        self._values = {}  # dtype -> M's values in the layout above (groups..., long)
        self._buffers = {}  # dtype -> product buffers in that layout (see buffers)
        self._lock = threading.Lock()

    def values(self, M, dtype):
        """M's values as ``dtype`` laid out as the groups and the long rows (gathered once
        per type), or None for a structure-only (iso) M."""
        v = self._values.get(np.dtype(dtype))
        if v is None:
            avals, astride = M._values_for(dtype)
            if not astride:
                return None
            v = self._values[np.dtype(dtype)] = (
                [np.where(pos >= 0, avals[np.maximum(pos, 0)], np.nan).astype(dtype)
                 if self.padded else avals[pos] for _, pos, _ in self.groups]
                + [avals[self.long_pos]])
        return v


    def buffers(self, dtype):
        """Product buffers in the plan's layout for one call, or None while another thread
        holds them (that call allocates its own). Release with ``_lock.release()``."""
        if not self._lock.acquire(blocking=False):
            return None
        bufs = self._buffers.get(np.dtype(dtype))
        if bufs is None:
            bufs = self._buffers[np.dtype(dtype)] = (
                [np.empty(k.shape, dtype=dtype) for _, _, k in self.groups]
                + [np.empty(self.long_k.shape, dtype=dtype)])
        return bufs


def _plan(M, padded: bool = False, at_once: bool = False):
    """M's row plan where it pays (see PLAN_MIN_ENTRIES_PER_GROUP), else None; built on the
    second call with M (``at_once``: on this one). ``padded``: the padded layout (see
    PAD_BLOCK_COST)."""
    memo = M._memo
    plan = memo.get(PLAN_KEY)
    if plan is None and not at_once:  # first sight: remember it, fold this time
        memo[PLAN_KEY] = False
        return None
    if plan is None or plan is False:  # (not yet decided)
        plan = memo[PLAN_KEY] = {} if _plan_worth(M) else "fold"
    if plan == "fold":
        return None
    layout = plan.get(padded)
    if layout is None:  # each layout built on its first use
        layout = plan[padded] = _RowPlan(M, _pad_widths(M) if padded else None)
    return layout


def _plan_worth(M) -> bool:
    """Whether M's row plan pays (see PLAN_MIN_ENTRIES_PER_GROUP)."""
    deg = np.diff(M.indptr.astype(np.int64, copy=False))
    short = np.bincount(np.minimum(deg, SHORT_ROW + 1), minlength=SHORT_ROW + 2)
    lengths = int(np.count_nonzero(short[1:SHORT_ROW + 1]))
    return M.nvals >= PLAN_MIN_ENTRIES_PER_GROUP * (lengths + 1)


def _one_block(M) -> bool:
    """Whether M's padded plan would be one block holding every non-empty row (a grid's:
    what :func:`.compiled.block_route` runs), decided without building the plan: no row
    longer than PAD_ROW, the plan worth it, and one width in :func:`_pad_widths`."""
    deg = np.diff(M.indptr.astype(np.int64, copy=False))
    top = int(deg.max()) if deg.size else 0
    return 0 < top <= PAD_ROW and _plan_worth(M) and len(_pad_widths(M, top)) == 1


#: The padded row plan: the rows of at most PAD_ROW entries in blocks of consecutive
#: lengths, each row padded to its block's width with NaN values (at column 0), the blocks
#: chosen per matrix (:func:`_pad_widths`) to minimize PAD_BLOCK_COST (a block's fixed
#: cost: a few NumPy calls, about 4 µs, as padded entries of gather, product and fold at
#: about 1 ns) a block plus its padded entries. Taken by the semirings whose product of NaN
#: is NaN for every x (plus, minus, times) and whose monoid ignores NaN (fmin, fmax: the min
#: and max monoids) in a float type, where a NaN pad changes no fold (a row of NaN products
#: stays NaN): min-plus on kron-12 ran 10 blocks for 30 (0.16 ms for 0.21), on a grid (rows
#: of 2 to 4) one block, which is the output itself (no scatter).
PAD_BLOCK_COST = 4096
#: The longest row of a block of the padded plan (the longer ones: ``reduceat``).
PAD_ROW = 64


def _pad_widths(M, top: int = PAD_ROW):
    """The block widths of M's padded row plan (increasing; a block holds the rows longer
    than the previous width, up to its own): the cheapest cover of the row lengths 1..PAD_ROW
    by consecutive ranges (dynamic programming over the lengths). ``top``: the longest row
    where it is at most PAD_ROW (the lengths past it hold no row: the same widths, the
    search over top² lengths rather than PAD_ROW²)."""
    deg = np.diff(M.indptr.astype(np.int64, copy=False))
    top = max(1, min(int(top), PAD_ROW))
    count = np.bincount(np.minimum(deg, PAD_ROW + 1), minlength=PAD_ROW + 2).tolist()
    cost, back = [0] * (top + 1), [0] * (top + 1)
    for w in range(1, top + 1):
        best, rows = None, 0
        for lo in range(w - 1, -1, -1):  # the block (lo, w]
            rows += count[lo + 1]
            c = cost[lo] + (PAD_BLOCK_COST + w * rows if rows else 0)
            if best is None or c < best:
                best, back[w] = c, lo
        cost[w] = best
    widths, w = [], top
    while w:
        lo = back[w]
        if sum(count[lo + 1:w + 1]):
            widths.append(w)
        w = lo
    return widths[::-1]


_PAD_FOLDS = (np.fmin, np.fmax)
_PAD_MULS = (np.add, np.subtract, np.multiply)


def warm(sr: Semiring, dtype) -> int:
    """Compile the compiled kernels of ``sr`` in ``dtype`` ahead of a first call (see
    :func:`.compiled.warm`); the kernels run, 0 without Numba or a compiled form."""
    dtype = np.dtype(dtype)
    block = (dtype.kind == "f" and sr.add.op.numpy in _PAD_FOLDS and sr.mul.numpy in _PAD_MULS
             and sr.mul.result == "same")  # (_paddable's test of the semiring and type)
    return compiled.warm(sr, dtype, _order_free(sr, sr.result_type(dtype)), block)


def _paddable(M, sr: Semiring, dtype) -> bool:
    """Whether the padded row plan gives this product exactly (see PAD_BLOCK_COST)."""
    dtype = np.dtype(dtype)
    return (dtype.kind == "f" and sr.add.op.numpy in _PAD_FOLDS and sr.mul.numpy in _PAD_MULS
            and sr.mul.result == "same" and M._values_for(dtype)[1])


def _pull_rows(M, plan, x_values, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_k M(o,k) ⊗ x(k) over every row, by the row plan: the rows of each short
    length as one block reduced elementwise, the long ones by ``reduceat``."""
    laid = plan.values(M, dtype)
    iso = None if laid is not None else M._values_for(dtype)[0][:1]
    x = x_values.astype(dtype, copy=False)
    inplace = isinstance(sr.mul.numpy, np.ufunc) and sr.mul.result == "same"
    bufs = plan.buffers(dtype) if inplace else None
    try:
        return _pull_blocks(plan, laid, iso, x, sr, dtype, xfirst, bufs)
    finally:
        if bufs is not None:
            plan._lock.release()


def _pull_blocks(plan, laid, iso, x, sr: Semiring, dtype, xfirst: bool, bufs):
    """The row plan's products and folds (``bufs``: kept product buffers, or None), under
    one ``errstate`` (about 0.75 µs each: two a group cost kron-12's 30 groups 45 µs)."""
    with np.errstate(all="ignore"):  # products and folds in the products' type
        return _pull_blocks_raw(plan, laid, iso, x, sr, dtype, xfirst, bufs)


def _pull_blocks_raw(plan, laid, iso, x, sr: Semiring, dtype, xfirst: bool, bufs):
    mul = sr.mul.numpy
    fold = sr.add.op.numpy
    inplace = isinstance(mul, np.ufunc) and sr.mul.result == "same"
    out = None

    def products(g, k):
        a = iso if laid is None else laid[g]
        if inplace:  # x's gather is the buffer: np.take, clip mode (k is in range), writes
            # into a kept buffer (raise mode copies through a temporary), 2x fancy indexing
            buf = np.take(x, k, mode="clip", out=None if bufs is None else bufs[g])
            return mul(buf, a, out=buf) if xfirst else mul(a, buf, out=buf)
        prods = _mult(sr, a, np.take(x, k), None, None, dtype, xfirst)
        return np.broadcast_to(prods, k.shape) if prods.shape != k.shape else prods

    for g, (slot, _, k) in enumerate(plan.groups):
        prods = products(g, k)
        part = fold.reduce(prods, axis=0)
        if plan.whole and part.dtype == prods.dtype:
            out = part  # every row, in order (the grids: one width)
            break
        if out is None:
            out = np.empty(plan.out_idx.size, dtype=prods.dtype)
        out[slot] = part  # (in the products' type, as reduce_segments casts)
    if plan.long_pos.size:
        part = sr.add.reduce_segments(
            np.ascontiguousarray(products(len(plan.groups), plan.long_k)), plan.long_heads)
        if out is None:
            out = np.empty(plan.out_idx.size, dtype=part.dtype)
        out[plan.long_slot] = part
    if out is None:  # no entries
        out = np.ascontiguousarray(products(len(plan.groups), plan.long_k))[:0].copy()
    return plan.out_idx.astype(np.int64, copy=False), out


def _mult(sr: Semiring, a, x, o, k, dtype, xfirst: bool):
    """The semiring's multiply with the operand order of the product (see sr_mult in CUDA).

    ``o`` (output) and ``k`` (inner) indices are read by positional ops only."""
    if not sr.mul.positional:
        return sr.mul.apply_numpy(x, a, dtype) if xfirst else sr.mul.apply_numpy(a, x, dtype)
    zero = np.zeros(1, dtype=np.int64)
    if xfirst:
        return sr.mul.apply_numpy(x, a, dtype, pos=(zero, k, k, o))
    return sr.mul.apply_numpy(a, x, dtype, pos=(o, k, k, zero))


def _reduce_sorted(sr: Semiring, o, prods):
    """Reduce products grouped by nondecreasing output index ``o``: sparse (indices, values)."""
    if o.size == 0:
        return o.astype(np.int64), prods
    new = np.empty(o.size, dtype=bool)  # (np.r_ costs 7 µs a call: a tiny product's share)
    new[0] = True
    np.not_equal(o[1:], o[:-1], out=new[1:])
    heads = np.flatnonzero(new)
    return o.take(heads).astype(np.int64), sr.add.reduce_segments(prods, heads)


def _expand_rows(indptr, rows):
    """Positions ``p`` in M's arrays of every entry of the listed ``rows``, in row order, and
    the slot (index into ``rows``) each comes from: the CPU form of the frontier expansion."""
    starts = indptr.take(rows).astype(np.int64)
    deg = indptr.take(rows + 1).astype(np.int64) - starts
    total = int(deg.sum())
    first = np.cumsum(deg) - deg
    slot = np.repeat(np.arange(rows.size), deg)
    return starts.take(slot) + (np.arange(total, dtype=np.int64) - first.take(slot)), slot

# ------------------------------------------------------------ SciPy's compiled kernels, exactly

#: Semirings whose whole pull (every row, dense x, no mask) SciPy's compiled CSR kernels give
#: exactly, by how (the CPU backend picks from this table; the rest runs the row plan or the
#: segment fold below):
#:
#: - ``"matvec"``: ``y = A @ x`` in the product type, every x present: ``csr_matvec`` folds a
#:   row left to right from 0 in that type, the compiled row loop from its first product,
#:   so their sums are the same but for the sign of a zero sum (0 + -0.0 is +0.0): rows that
#:   sum to zero are redone by the fold. (NumPy's ``add.reduceat``, the NumPy fold, sums a
#:   float segment of more than 8 products pairwise: on longer rows its float sums may differ
#:   from these in the last bits, as the compiled loop's do; integers and exact sums agree.)
#:   Only on :data:`MATVEC_TYPES`, and only where the probe :func:`_matvec_exact` finds no
#:   fused multiply-add in SciPy's build.
#: - ``"first"`` / ``"second"``: plus_first with x the first operand of the multiply (vxm's
#:   pull), plus_second with x the second (mxv's): every product is x(k) itself, the row's
#:   fold is ``P @ x`` over A's pattern P (ones in the product type), exact as ``"matvec"``
#:   (1 · x is x) and under the same conditions. PageRank's unweighted step t = w plus.first
#:   A ran the segment fold there: 2.9 ms on grid-128², SciPy's product 0.11 ms. (Where the
#:   product is A's value instead, the NumPy paths run.)
#: - ``"count"``: the present x's a row, ``S @ present`` over A's pattern (the row lengths
#:   when every x is present): plus_pair's value, where the type holds the counts exactly;
#:   ``"any"``: 1 on the rows with a count (any_pair).
#: - ``"lor"``: ``(A ≠ 0) @ (x ≠ 0 and present) > 0``, on the rows with a present x:
#:   lor_land's value.
SCIPY_PULL = {
    _semirings.plus_times: "matvec",
    _semirings.plus_first: "first",
    _semirings.plus_second: "second",
    _semirings.plus_pair: "count",
    _semirings.any_pair: "any",
    _semirings.lor_land: "lor",
}
#: The kinds of :data:`SCIPY_PULL` that the compiled row loop (:mod:`.compiled`, where Numba
#: is installed) runs first, without a mask and with every x present: its fold is
#: csr_matvec's (a row left to right, in the product type; from the row's first product, so
#: a zero sum keeps the fold's sign), ``"first"`` / ``"second"`` by its x-only form
#: (:func:`.compiled.xonly_ops`). SciPy's path cost a call its operator dispatch, the empty
#: rows' gather and the zero-sign pass: ``sr.vxm(x, A, plus_first)`` on urand-10-ef4 took
#: 14.6 µs against SciPy's own ``A.T @ x`` 8.1 and the compiled min-plus 6.3 (session 21,
#: cpu21_report.md).
COMPILED_BEFORE_SCIPY = ("matvec", "first", "second")
#: The types in which csr_matvec's products and sums are NumPy's (IEEE floats, wrapping
#: integers).
MATVEC_TYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.int32),
                np.dtype(np.int64))
#: Per-matrix SciPy views, in the matrix's ``_memo`` by ("cpu.scipy", kind, type):
#: ("pattern", int type): ones; ("values", dtype): A's values in dtype; ("nonzero", dtype):
#: A's values in dtype ≠ 0, as the count type (:func:`_count_type`).
_matvec_probe: dict = {}


def _matvec_exact(dtype) -> bool:
    """Whether SciPy's ``csr_matvec`` rounds each product before adding it (no fused
    multiply-add, which a build for a target with FMA may contract ``sum += a * x`` into):
    one row whose two sums differ by the rounding of the product, checked once a type."""
    dtype = np.dtype(dtype)
    ok = _matvec_probe.get(dtype)
    if ok is None:
        import scipy.sparse as sp  # noqa: PLC0415  (scipy.sparse: imported on use)

        if dtype.kind == "f":
            e = dtype.type(2.0 ** -(np.finfo(dtype).nmant // 2 + 1))
            a = np.array([-1, 1 + e], dtype=dtype)
            x = np.array([1, 1 + e], dtype=dtype)
            S = sp.csr_matrix((a, np.array([0, 1], dtype=np.int32),
                               np.array([0, 2], dtype=np.int32)), shape=(1, 2))
            y = S @ x
            with np.errstate(all="ignore"):
                ok = bool(y.dtype == dtype and y[0] == np.add(a[0] * x[0], a[1] * x[1]))
        else:
            ok = True
        _matvec_probe[dtype] = ok
    return ok


def _scipy_view(M, kind: str, dtype):
    """M as a SciPy CSR (made once per matrix and kind, kept in its ``_memo``)."""
    import scipy.sparse as sp  # noqa: PLC0415  (scipy.sparse: imported on use)

    views = M._memo
    key = ("cpu.scipy", kind, np.dtype(dtype))
    S = views.get(key)
    if S is None:
        if kind == "pattern":
            data = np.ones(M.nvals, dtype=dtype)
        else:
            avals, astride = M._values_for(dtype)
            data = (avals != 0).astype(_count_type(M)) if kind == "nonzero" else avals
            if not astride:
                data = np.full(M.nvals, data[0], dtype=data.dtype)
        S = views[key] = sp.csr_matrix((data, M.indices, M.indptr), shape=M.shape, copy=False)
    return S


def _nonempty_rows(M):
    """M's non-empty rows (int64), kept in its ``_memo``: a product's result indices (2 of a
    PageRank iteration's passes over n), shared by the results, hence read-only (a caller
    writing into a result's indices gets NumPy's error, not a corrupted cache)."""
    rows = M._memo.get("cpu.rows")
    if rows is None:
        rows = np.flatnonzero(np.diff(M.indptr)).astype(np.int64)
        rows.flags.writeable = False
        M._memo["cpu.rows"] = rows
    return rows


def _count_type(M):
    return np.dtype(np.int32) if M.nvals < 2**31 else np.dtype(np.int64)


def _exact_counts(dtype, longest: int) -> bool:
    """Whether ``dtype`` holds every count up to ``longest`` as its sequential sum of ones
    would (integers wrap alike; floats exactly up to 2^(mantissa bits + 1))."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return True
    return dtype.kind == "f" and longest <= 2 ** (np.finfo(dtype).nmant + 1)


def scipy_pull(M, x_values, x_present, sr: Semiring, dtype, xfirst: bool):
    """The whole pull (no mask) by SciPy's compiled kernels where :data:`SCIPY_PULL` maps
    ``sr`` onto them exactly: sparse (indices, values), or None where it does not apply."""
    how = SCIPY_PULL.get(sr)
    if how is None or M.nvals == 0:
        return None
    dtype = np.dtype(dtype)
    indptr = M.indptr
    if how in ("matvec", "first", "second"):
        if x_present is not None or dtype not in MATVEC_TYPES or not _matvec_exact(dtype):
            return None
        if how != "matvec" and (how == "first") != bool(xfirst):
            return None  # every product is A's value, not x's
        S = _scipy_view(M, "values" if how == "matvec" else "pattern", dtype)
        rows = _nonempty_rows(M)
        y = S @ x_values.astype(dtype, copy=False)
        if rows.size != y.size:  # (no empty row: y is the result as it is)
            y = y[rows]
        if dtype.kind == "f":  # a zero sum's sign: the fold's (see SCIPY_PULL)
            z = np.flatnonzero(y == 0)
            if z.size and negative_zero_possible(S.data, x_values):
                y[z] = _fold_rows(M, x_values, rows[z], sr, dtype, xfirst)
        return rows.astype(np.int64, copy=False), y
    if dtype.kind not in "iuf":
        return None
    ct = _count_type(M)
    if x_present is None:
        counts = np.diff(indptr)
    else:
        counts = _scipy_view(M, "pattern", ct) @ x_present.astype(ct)
    rows = np.flatnonzero(counts)
    if how == "any":
        return rows.astype(np.int64, copy=False), np.ones(rows.size, dtype=dtype)
    if how == "count":
        c = counts[rows]
        if not _exact_counts(dtype, int(c.max()) if c.size else 0):
            return None
        return rows.astype(np.int64, copy=False), c.astype(dtype)
    # "lor": a row's entries with a ≠ 0 and a present x ≠ 0
    xt = x_values != 0
    if x_present is not None:
        xt &= x_present
    hits = _scipy_view(M, "nonzero", dtype) @ xt.astype(ct)
    return rows.astype(np.int64, copy=False), hits[rows] > 0


def _fold_rows(M, x_values, rows, sr: Semiring, dtype, xfirst: bool):
    """The pull's values on the listed (non-empty) rows by the reference segment fold."""
    p, slot = _expand_rows(M.indptr, rows)
    avals, astride = M._values_for(dtype)
    a = avals[p] if astride else avals[:1]
    k = M.indices[p]
    prods = _mult(sr, a, x_values.astype(dtype, copy=False)[k], None, None, dtype, xfirst)
    prods = np.ascontiguousarray(np.broadcast_to(prods, k.shape))
    heads = np.flatnonzero(np.r_[True, slot[1:] != slot[:-1]])
    return sr.add.reduce_segments(prods, heads)



#: The compiled pull's path for (semiring, type, operand order), kept in a matrix's
#: ``_memo`` under (ROUTE_KEY, ...) once settled (:func:`_compiled_route`): choosing it
#: afresh (the plan's state, the semiring's traits, the kernel's key) cost 4-5 µs a call,
#: half of SciPy's whole product on the 64² grid.
ROUTE_KEY = "cpu.route"


def _compiled_route(M, sr: Semiring, dtype, xfirst: bool):
    """(run, settled): the compiled pull of M for ``sr`` in ``dtype`` as ``run(M, x_values)``
    (None where no kernel runs: the NumPy paths follow), and whether the choice is final
    (always: it is made on M's first product): a grid's one padded block
    (:func:`compiled.block_route`, its plan built on that product), else the row loop
    (:func:`compiled.pull`). Deciding on the second product (the plan's rule for the NumPy
    fold) made that product build the plan and load the block's kernel beside the row
    loop's: 14 / 42 ms on a warm Numba cache, a compile on a cold one (grids of 10^4 / 10^5
    vertices; a random graph's second product built a plan it did not use, 6.5 / 22 ms;
    session 23, ``bench/results/session23/felt23_calls.md``)."""
    order_free = _order_free(sr, sr.result_type(dtype))
    if _paddable(M, sr, dtype) and M.nvals <= PLAN_MAX_ENTRIES and _one_block(M):
        plan = _plan(M, True, at_once=True)
        if plan is not None and plan.whole and not plan.long_pos.size:
            run = compiled.block_route(plan, plan.values(M, dtype), sr, dtype, xfirst,
                                       order_free)
            if run is not None:
                return run, True
    return compiled.pull_route(M, sr, dtype, xfirst, order_free), True


def pull(M, x_values, x_present, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_k M(o,k) ⊗ x(k) over M's rows; sparse (indices, values) result.

    With a mask only the allowed rows are expanded (a BFS's late levels touch few rows);
    without one the row segments come straight from ``indptr``. Semirings that SciPy's
    compiled kernels give exactly (:data:`SCIPY_PULL`) run there when no mask is given.
    """
    # compiled, where sr has a form: a grid's one padded block (its plan built on the
    # matrix's first product), else the row loop; the choice kept on M from that product
    # (ROUTE_KEY), for the semirings SciPy's kernels do not run (so a kept route comes first)
    compiled_ok = allowed is None and x_present is None and compiled.ENABLED
    route = None
    if compiled_ok:
        key = (ROUTE_KEY, sr, dtype, xfirst)
        route = M._memo.get(key)
        if route is not None:
            res = route(M, x_values)
            if res is not None:
                return res
            compiled_ok = False  # (no kernel runs for these types: the NumPy paths)
    # SciPy's A @ x kinds run after the compiled row loop, which folds a row as csr_matvec
    # does (left to right, from its first product: no zero-sign pass) with none of SciPy's
    # per-call work (see COMPILED_BEFORE_SCIPY)
    scipy_late = compiled_ok and SCIPY_PULL.get(sr) in COMPILED_BEFORE_SCIPY
    if allowed is None and not sr.mul.positional and not scipy_late:
        res = scipy_pull(M, x_values, x_present, sr, dtype, xfirst)
        if res is not None:
            return res
    if compiled_ok:
        route, settled = _compiled_route(M, sr, dtype, xfirst)
        if settled and (sr not in SCIPY_PULL or scipy_late):
            M._memo[key] = route
        res = route(M, x_values)
        if res is not None:
            return res
        if scipy_late:  # (no kernel for these types)
            res = scipy_pull(M, x_values, x_present, sr, dtype, xfirst)
            if res is not None:
                return res
    if (allowed is None and x_present is None and not sr.mul.positional
            and M.nvals <= PLAN_MAX_ENTRIES and _order_free(sr, sr.result_type(dtype))):
        plan = _plan(M, _paddable(M, sr, dtype))
        if plan is not None:
            return _pull_rows(M, plan, x_values, sr, dtype, xfirst)
    avals, astride = M._values_for(dtype)
    if allowed is not None:
        rows = np.flatnonzero(allowed)
        p, slot = _expand_rows(M.indptr, rows)
    else:
        rows, p, slot = None, None, None
    k = M.indices if p is None else M.indices[p]
    if x_present is not None:
        keep = np.flatnonzero(x_present[k])
        k = k[keep]
        p = keep if p is None else p[keep]
        slot = None if slot is None else slot[keep]
    if p is None:  # every entry of every row: the segments are the rows
        indptr = M.indptr.astype(np.int64, copy=False)
        counts = np.diff(indptr)
        out_idx = np.flatnonzero(counts)
        heads = indptr[out_idx]
        o = np.repeat(out_idx, counts[out_idx]) if sr.mul.positional else None
        a = avals if astride else avals[:1]
    else:
        o = rows[slot] if rows is not None else \
            np.searchsorted(M.indptr, p, side="right").astype(np.int64) - 1
        heads = np.flatnonzero(np.r_[True, o[1:] != o[:-1]]) if o.size else o
        out_idx = o[heads]
        a = avals[p] if astride else avals[:1]
    xv = x_values.astype(dtype, copy=False)[k]
    if sr.mul.positional:
        prods = _mult(sr, a, xv, o, k.astype(np.int64), dtype, xfirst)
    else:
        prods = _mult(sr, a, xv, None, None, dtype, xfirst)
    if prods.shape != k.shape:
        prods = np.broadcast_to(prods, k.shape)
    if out_idx.size == 0:
        return out_idx.astype(np.int64), np.ascontiguousarray(prods)[:0]
    return out_idx.astype(np.int64), sr.add.reduce_segments(np.ascontiguousarray(prods), heads)


#: The push reduces its products by target: with an order-free monoid (``_order_free``) by
#: ``ufunc.at`` into a dense output once the products reach 1/PUSH_SCATTER_FRACTION of the
#: targets (min-plus, 65536 targets, ms: 170k products 0.78 scatter / 4.3 sort / 13 stable
#: sort; 13k: 0.11 / 0.21 / 0.72; 1000: 0.035 / 0.020 / 0.028), else by NumPy's default
#: sort (introsort / SIMD: the order of equal targets does not matter there), and by a
#: stable sort (the reference fold's order) for the others (plus on floats, any, ...).
PUSH_SCATTER_FRACTION = 16


def _scatter_start(sr: Semiring, rtype):
    """The value a scatter reduction (``ufunc.at``) starts from where it is neutral for
    every product, else None: fmin / fmax from the monoid's ``empty`` (NaN on floats,
    so that an all-NaN target stays NaN), integer and bool domains from the identity."""
    rtype = np.dtype(rtype)
    f = sr.add.op.numpy
    if f in (np.fmin, np.fmax) and rtype.kind == "f":
        start = sr.add.empty_of(rtype)
        return start if np.isnan(start) else None
    if rtype.kind in "biu" and f in _ORDER_FREE + _ORDER_FREE_INT:
        return sr.add.identity_of(rtype)
    return None


def push(M, x_indices, x_values, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_{k in x} x(k) ⊗ M(k,o); sparse (indices, values, sorted=True).

    The frontier's rows are expanded without a slot array (each x value and k repeated by its
    row's length, the positions as one repeat plus a range), the product made in place and
    the fold by the monoid's ufunc under one ``errstate``: few NumPy calls, whose fixed cost
    (0.3-1.5 µs each) is most of a push from a frontier of a few vertices. Where the
    semiring has a compiled form (:mod:`.compiled`, Numba installed) that runs instead."""
    if compiled.ENABLED:
        res = compiled.push(M, x_indices, x_values, allowed, sr, dtype, xfirst)
        if res is not None:
            return res
    ks = np.asarray(x_indices, dtype=np.int64)
    indptr = M.indptr
    starts = indptr.take(ks)
    deg = indptr[1:].take(ks)
    deg -= starts
    ends = np.add.accumulate(deg, dtype=np.int64)
    total = int(ends[-1]) if ends.size else 0
    # p = starts[slot] + (t - first[slot]) for t in 0..total: one repeat plus a range
    ends -= deg
    p = np.repeat(starts - ends, deg)
    p += np.arange(total, dtype=p.dtype)
    xv = np.repeat(np.asarray(x_values).astype(dtype, copy=False), deg)
    kk = np.repeat(ks, deg) if sr.mul.positional else None
    o = M.indices.take(p)  # A's index type: its sort is the cheaper
    if allowed is not None:
        keep = np.flatnonzero(allowed.take(o))
        p, o, xv = p.take(keep), o.take(keep), xv.take(keep)
        kk = None if kk is None else kk.take(keep)
    avals, astride = M._values_for(dtype)
    a = avals.take(p) if astride else avals[:1]
    traits = _push_traits(sr, dtype)
    with np.errstate(all="ignore"):
        if kk is None and traits.inplace and a.dtype == xv.dtype:
            # in place into the repeated x values (a fresh array of the product type)
            mul = sr.mul.numpy
            prods = mul(xv, a, out=xv) if xfirst else mul(a, xv, out=xv)
        elif kk is not None:
            prods = _mult(sr, a, xv, o.astype(np.int64), kk, dtype, xfirst)
        else:
            prods = _mult(sr, a, xv, None, None, dtype, xfirst)
        prods = np.broadcast_to(prods, o.shape) if prods.shape != o.shape else prods
        order_free = traits.order_free if prods.dtype == traits.rtype else \
            _order_free(sr, prods.dtype)
        if order_free and o.size * PUSH_SCATTER_FRACTION >= M.ncols:
            start = _scatter_start(sr, prods.dtype)
            if start is not None:  # every target's fold in any order: one pass, no sort
                y = np.full(M.ncols, start, dtype=prods.dtype)
                sr.add.op.numpy.at(y, o, prods)
                hit = np.zeros(M.ncols, dtype=bool)
                hit[o] = True
                idx = np.flatnonzero(hit)
                return idx.astype(np.int64, copy=False), y.take(idx), True
        order = o.argsort() if order_free else o.argsort(kind="stable")
        o, prods = o.take(order), prods.take(order)
        if o.size == 0 or not traits.ufunc_fold or prods.dtype != traits.rtype:
            return (*_reduce_sorted(sr, o, prods), True)
        new = np.empty(o.size, dtype=bool)
        new[0] = True
        np.not_equal(o[1:], o[:-1], out=new[1:])
        heads = np.flatnonzero(new)
        if heads.size == o.size:  # no target twice: the products are the result
            return o.astype(np.int64), np.ascontiguousarray(prods), True
        vals = sr.add.op.numpy.reduceat(prods, heads)
        return o.take(heads).astype(np.int64), vals.astype(prods.dtype, copy=False), True


class _PushTraits:
    """What the push reads of a semiring in one product type (see :func:`_push_traits`)."""

    __slots__ = ("rtype", "order_free", "inplace", "ufunc_fold")

    def __init__(self, sr: Semiring, dtype):
        mul = sr.mul.numpy
        self.rtype = sr.result_type(dtype)
        self.order_free = _order_free(sr, self.rtype)
        # a product in place: a ufunc whose result is its operands' type
        self.inplace = isinstance(mul, np.ufunc) and sr.mul.result == "same"
        # the fold by ufunc.reduceat, as Monoid.reduce_segments does it (not for any: ANY)
        t = sr.add.terminal
        self.ufunc_fold = isinstance(sr.add.op.numpy, np.ufunc) and \
            (t is None or t(self.rtype) is not ANY)


#: _PushTraits by (semiring, product type): reading them (the monoid's terminal value, the
#: result type) cost a few µs a push, a third of one from a frontier of a few vertices.
_push_traits_memo: dict = {}


def _push_traits(sr: Semiring, dtype) -> _PushTraits:
    key = (sr, dtype)
    traits = _push_traits_memo.get(key)
    if traits is None:
        traits = _push_traits_memo[key] = _PushTraits(sr, np.dtype(dtype))
    return traits
