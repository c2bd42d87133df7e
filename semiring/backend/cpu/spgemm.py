"""CPU SpGEMM: Gustavson's product vectorized with NumPy, in chunks of rows of bounded work:
every product A(i,k)·B(k,j) of the chunk is expanded, disallowed ones dropped, the rest stably
sorted by (i, j), so each output entry folds its products in increasing k, as the dense oracle
does, then reduced with the monoid. Unmasked products with a compiled form (Numba, the ``cpu``
extra) go through :func:`.compiled.spgemm`, the same fold order; without it, unmasked
``plus_times`` over floats goes through SciPy (see :func:`_scipy_plus_times`); this NumPy
path is their oracle. Called by :mod:`semiring.spgemm`, which validates the operands."""

from __future__ import annotations

import numpy as np

from ...ops import binary, monoid
from ..csr import build_csr as _build_csr
from . import compiled
from .dense import _rows_subset, negative_zero_possible

#: CPU: products expanded per chunk of rows (bounds the memory of the expansion to a few
#: hundred MB; a single row with more products is one chunk).
CPU_CHUNK_PRODUCTS = 1 << 21
#: (add monoid, multiply op) pairs whose unmasked float product SciPy computes identically
#: (up to the order of float sums), see :func:`_scipy_plus_times`.
SCIPY_SEMIRINGS = {(monoid.plus, binary.times)}


def _row_flops_cum(A, B):
    """Cumulative products at A's row starts (length nrows + 1), int64."""
    degB = np.diff(B.indptr.astype(np.int64))
    e = degB[A.indices]
    cs = np.concatenate([[0], np.cumsum(e)])
    return cs[A.indptr.astype(np.int64)], degB


def _chunks(cum, limit):
    """Row boundaries [r0, r1) with about ``limit`` products each (at least one row)."""
    total = int(cum[-1])
    nrows = cum.size - 1
    targets = np.arange(limit, total, limit, dtype=np.int64)
    cuts = np.searchsorted(cum, targets, side="right") - 1
    b = np.unique(np.concatenate([[0], cuts, [nrows]]))
    return b


def spgemm(A, B, sr, dtype, rtype, mask, complement, fast=True):
    """C = A ⊕.⊗ B (⟨mask⟩); ``fast=False``: the NumPy fold alone (the others' oracle)."""
    nrows, ncols = A.nrows, B.ncols
    if fast and mask is None and compiled.ENABLED:
        # Gustavson's rows compiled: min-plus A·A on 2 cores, kron-12 / kron-14 / urand-14
        # 1640 / 12590 / 1529 ms by the NumPy path, 161 / 1743 / 586 ms compiled (SciPy's
        # plus-times 98 / 1097 / 197 ms, its columns left unsorted); session 11, rows
        # ordered by a bitmap: kron-12 154 ms, urand-14 342-377 (SciPy 98 / 192-201)
        C = compiled.spgemm(A, B, sr, dtype)
        if C is not None:
            return _build_csr(np, C[0], C[1], C[2].astype(rtype, copy=False), (nrows, ncols))
    if fast and mask is None and (sr.add, sr.mul) in SCIPY_SEMIRINGS \
            and np.dtype(dtype).kind == "f":
        # (after the compiled product, which sums in the same order and keeps the zero sums
        # itself: plus_times A·A, kron-12 149-155 ms compiled against this route's 202,
        # urand-14 351-395 against 684-688: SciPy's product leaves its rows to sort)
        return _zero_signs(_scipy_plus_times(A, B, dtype), A, B, sr, dtype, rtype)
    cum, degB = _row_flops_cum(A, B)
    a_ptr = A.indptr.astype(np.int64)
    b_ptr = B.indptr.astype(np.int64)
    avals, astride = A._values_for(dtype)
    bvals, bstride = B._values_for(dtype)
    out_rows, out_cols, out_vals = [], [], []
    bounds = _chunks(cum, CPU_CHUNK_PRODUCTS)
    for r0, r1 in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        p0, p1 = int(a_ptr[r0]), int(a_ptr[r1])
        if p0 == p1:
            continue
        k = A.indices[p0:p1].astype(np.int64)
        deg = degB[k]
        total = int(deg.sum())
        if total == 0:
            continue
        slot = np.repeat(np.arange(p1 - p0, dtype=np.int64), deg)       # A entry of a product
        first = np.cumsum(deg) - deg
        q = b_ptr[k][slot] + (np.arange(total, dtype=np.int64) - first[slot])  # B position
        j = B.indices[q].astype(np.int64)
        arow = np.repeat(np.arange(r0, r1, dtype=np.int64), np.diff(a_ptr[r0:r1 + 1]))
        i = arow[slot]
        key = (i - r0) * ncols + j
        if mask is not None:
            keep = _in_mask(mask, r0, r1, ncols, key) != complement
            slot, q, i, j, key = slot[keep], q[keep], i[keep], j[keep], key[keep]
            if key.size == 0:
                continue
        a = avals[p0 + slot] if astride else avals[:1]
        b = bvals[q] if bstride else bvals[:1]
        kk = k[slot]
        prods = sr.mul.apply_numpy(a, b, dtype, pos=(i, kk, kk, j))
        if prods.shape != key.shape:
            prods = np.broadcast_to(prods, key.shape)
        order = np.argsort(key, kind="stable")  # products of an entry in increasing k
        key = key[order]
        heads = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        out_vals.append(sr.add.reduce_segments(np.ascontiguousarray(prods[order]), heads))
        hk = key[heads]
        out_rows.append(hk // max(ncols, 1) + r0)
        out_cols.append(hk % max(ncols, 1))
    if not out_vals:
        return _build_csr(np, np.zeros(nrows + 1, np.int64), np.zeros(0, np.int64),
                      np.zeros(0, rtype), (nrows, ncols))
    rows = np.concatenate(out_rows)
    cols = np.concatenate(out_cols)
    vals = np.concatenate(out_vals).astype(rtype, copy=False)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=nrows))])
    return _build_csr(np, indptr, cols, vals, (nrows, ncols))


def _zero_signs(C, A, B, sr, dtype, rtype):
    """C with a zero sum's sign the fold's: -0.0 where every product is -0.0 (SciPy's sums
    start from +0.0, and the entries it drops come back as +0.0); the rows of C holding a
    zero are redone by the NumPy fold, whose pattern there is C's."""
    zero = C.values == 0
    if not zero.any() or not negative_zero_possible(A._values_for(dtype)[0],
                                                    B._values_for(dtype)[0]):
        return C
    rows = np.zeros(A.nrows, dtype=bool)
    rows[C.entry_rows()[zero]] = True
    R = spgemm(_rows_subset(A, rows, None), B, sr, dtype, rtype, None, False, fast=False)
    redo = rows[C.entry_rows()]
    if int(redo.sum()) != R.nvals:  # (the same pattern by construction; else R's rows whole)
        return spgemm(A, B, sr, dtype, rtype, None, False, fast=False)
    vals = C.values.copy()
    vals[redo] = R.values
    return _build_csr(np, C.indptr, C.indices, vals, C.shape)


def _in_mask(M, r0, r1, ncols, key):
    """Whether each (row - r0) * ncols + col key of rows [r0, r1) is an entry of mask M."""
    m_ptr = M.indptr.astype(np.int64)
    lo, hi = int(m_ptr[r0]), int(m_ptr[r1])
    mrows = np.repeat(np.arange(r0, r1, dtype=np.int64), np.diff(m_ptr[r0:r1 + 1]))
    mkeys = (mrows - r0) * ncols + M.indices[lo:hi].astype(np.int64)  # sorted: CSR order
    if mkeys.size == 0:
        return np.zeros(key.size, dtype=bool)
    pos = np.minimum(np.searchsorted(mkeys, key), mkeys.size - 1)
    return mkeys[pos] == key


def _no_zero_sums(a, b) -> bool:
    """Whether no sum of products a·b can be 0: operands of one strict sign each, no NaN, and
    the smallest product does not underflow to 0 (then every product, and every sum of them,
    is of one sign and nonzero; inf stays inf)."""
    if a.size == 0 or b.size == 0:
        return True
    with np.errstate(all="ignore"):
        ext = []
        for v in (a, b):
            lo, hi = v.min(), v.max()
            if np.isnan(lo) or np.isnan(hi) or (lo <= 0 <= hi):
                return False
            ext.append(min(abs(lo), abs(hi)))
        return bool(ext[0] * ext[1] > 0)


def _scipy_plus_times(A, B, dtype):
    """plus_times over floats with SciPy, in the GraphBLAS sense.

    SciPy's product sums in the same order (increasing k) but drops entries whose sum is
    exactly 0 (cancellation, zero operands), which are entries for GraphBLAS. The structure
    therefore comes from a product of the patterns (sums of ones are never 0), the values from
    the product itself, and the dropped entries get their value 0. When no sum can be 0
    (:func:`_no_zero_sums`: e.g. positive weights) SciPy's product is already the answer.
    """
    import scipy.sparse as sps  # noqa: PLC0415  (scipy.sparse: imported on use)

    def csr(M, vals):
        return sps.csr_matrix((vals, M.indices, M.indptr), shape=M.shape)

    avals, astride = A._values_for(dtype)
    bvals, bstride = B._values_for(dtype)
    Sa = csr(A, avals if astride else np.full(A.nvals, avals[0], dtype))
    Sb = csr(B, bvals if bstride else np.full(B.nvals, bvals[0], dtype))
    C = Sa @ Sb
    C.sort_indices()
    if _no_zero_sums(Sa.data, Sb.data):
        return _build_csr(np, C.indptr.astype(np.int64), C.indices, C.data, C.shape)
    P = csr(A, np.ones(A.nvals)) @ csr(B, np.ones(B.nvals))
    P.sort_indices()
    nrows, ncols = P.shape
    vals = np.zeros(P.nnz, dtype=dtype)
    if C.nnz == P.nnz:
        vals[:] = C.data
    elif C.nnz:
        def keys(S):
            r = np.repeat(np.arange(nrows, dtype=np.int64), np.diff(S.indptr))
            return r * ncols + S.indices
        vals[np.searchsorted(keys(P), keys(C))] = C.data
    return _build_csr(np, P.indptr.astype(np.int64), P.indices, vals, (nrows, ncols))
