"""CPU dense products: SpMM (sparse × dense) and GEMM (dense × dense) over a semiring,
vectorized with NumPy in bounded chunks (the reference the GPU kernels are tested against).
Called by :mod:`semiring.dense`, which validates the operands."""

from __future__ import annotations

import numpy as np

from ...matrix import Matrix
from ...ops import ANY, Semiring
from . import compiled

#: CPU: products materialized at once (elements), bounding the memory of one chunk.
CHUNK_ELEMS = 1 << 22


def _mult(sr: Semiring, a, x, i, k, j, dtype, xfirst: bool):
    """The multiply with the operand order and coordinates of the module docstring; the
    arguments broadcast against each other (coordinates are read by positional ops only)."""
    if xfirst:
        return sr.mul.apply_numpy(x, a, dtype, pos=(j, k, k, i) if sr.mul.positional else None)
    return sr.mul.apply_numpy(a, x, dtype, pos=(i, k, k, j) if sr.mul.positional else None)


def negative_zero_possible(*operands) -> bool:
    """Whether a product of these operands' values can be -0.0, so that a zero sum's sign
    depends on where the sum starts (SciPy's and BLAS's sums start from +0.0, the semiring's
    fold from its first product: -0.0 where every product is -0.0): only where some value
    has its sign bit set (a negative, a -0.0, a NaN of that sign). Where none has, the
    passes that redo a fast product's zero sums by the fold are skipped: betweenness's path
    counts have none, and the redo of every row holding a zero made edge betweenness on a
    50² grid 35x slower (session 23)."""
    return any(bool(np.signbit(a).any()) for a in operands)


def _is_any(sr: Semiring, rtype) -> bool:
    return sr.add.terminal_of(rtype) is ANY


def _combine(sr: Semiring, rtype, Y, found, where, part):
    """Y[where] = Y[where] ⊕ part where Y already has a value, else part (k order kept)."""
    old = found[where]
    if old.any():
        cur = Y[where]
        part = np.where(old, sr.add.op.apply_numpy(cur, part, rtype), part)
    Y[where] = part
    found[where] = True


def spmm(A, X, xpres, sr: Semiring, dtype, xfirst, want_present, ymask=None,
              complement=False, fast=True):
    n, s = A.nrows, X.shape[1]
    rtype = sr.result_type(dtype)
    Y = np.full((n, s), sr.add.identity_of(rtype), dtype=rtype)
    found = np.zeros((n, s), dtype=bool)
    if n == 0 or s == 0 or A.nvals == 0:
        return Y, (found if want_present else None)
    if ymask is not None:
        allowed = ~ymask if complement else ymask
        # the product unmasked, then cleared outside the mask, on the rows the mask leaves
        # any entry in (a BFS step touches only its unvisited rows and its frontier's k)
        rows_ok = allowed.any(axis=1)
        Y, found = spmm(_rows_subset(A, rows_ok, xpres), X, xpres, sr, dtype, xfirst,
                             True)
        Y[~allowed] = sr.add.identity_of(rtype)
        found &= allowed
        return Y, (found if want_present else None)
    avals, astride = A._values_for(dtype)
    indptr = A.indptr.astype(np.int64, copy=False)
    deg = np.diff(indptr)
    if (fast and xpres is None and sr.name == "plus_times" and np.dtype(dtype).kind == "f"):
        import scipy.sparse as sp  # noqa: PLC0415  (scipy.sparse: imported on use)

        data = avals if astride else np.broadcast_to(avals, (A.nvals,))
        S = sp.csr_matrix((data, A.indices, indptr), shape=A.shape)
        Y = np.ascontiguousarray(S @ X, dtype=rtype)
        # a zero sum's sign is the fold's, as in the pull (spmv.SCIPY_PULL): SciPy's sums
        # start from +0.0, so products that are all -0.0 summed to +0.0 (the fold: -0.0);
        # the rows holding a zero are redone by the fold
        zrows = (Y == 0).any(axis=1) & (deg > 0)
        if zrows.any() and negative_zero_possible(data, X):
            Yz, _ = spmm(_rows_subset(A, zrows, None), X, None, sr, dtype, xfirst, False,
                         fast=False)
            Y[zrows] = Yz[zrows]
        return Y, (np.repeat((deg > 0)[:, None], s, axis=1) if want_present else None)
    rows = np.repeat(np.arange(n, dtype=np.int64), deg)
    jcol = np.arange(s, dtype=np.int64)[None, :]
    if xpres is None and _is_any(sr, rtype):
        # any value is final: one product per row, from the row's first entry
        first = indptr[:-1][deg > 0]
        chunks = [first]
    else:
        step = max(1, CHUNK_ELEMS // s)
        chunks = [np.arange(p0, min(p0 + step, A.nvals), dtype=np.int64)
                  for p0 in range(0, A.nvals, step)]
    for p in chunks:
        i, k = rows[p], A.indices[p].astype(np.int64)
        a = (avals[p] if astride else avals[:1])[:, None]
        prods = _mult(sr, a, X[k], i[:, None], k[:, None], jcol, dtype, xfirst)
        prods = np.broadcast_to(prods, (p.size, s))
        if xpres is None:
            # segments are the rows (entries of a row are consecutive, in k order)
            heads = np.flatnonzero(np.r_[True, i[1:] != i[:-1]])
            part = sr.add.reduce_segments(np.ascontiguousarray(prods), heads)
            _combine(sr, rtype, Y, found, i[heads], part)
        else:
            # the present (entry, column) pairs, column-major: keys (j, i) come out sorted and
            # each segment keeps k order
            jj, pp = np.nonzero(xpres[k].T)
            if jj.size == 0:
                continue
            key = jj * n + i[pp]
            heads = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
            part = sr.add.reduce_segments(np.ascontiguousarray(prods[pp, jj]), heads)
            _combine(sr, rtype, Y, found, (i[pp[heads]], jj[heads]), part)
    return Y, (found if want_present else None)


def _rows_subset(A, rows_ok, xpres):
    """A's entries in the rows ``rows_ok`` and, with a bitmap X, in the columns k where X's row
    k has a present entry: the only entries whose products can survive. Same shape, same
    order within a row (k order), so positions and folds are unchanged."""
    keep = np.repeat(rows_ok, np.diff(A.indptr.astype(np.int64, copy=False)))
    if xpres is not None:
        keep &= xpres.any(axis=1)[A.indices]
    if keep.all():
        return A
    counts = np.bincount(np.repeat(np.arange(A.nrows), np.diff(A.indptr.astype(np.int64)))[keep],
                         minlength=A.nrows)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(A.itype)
    values = None if A.is_iso else A.values[keep]
    return Matrix(indptr, A.indices[keep], values, A.shape, iso_value=A.iso_value,
                  dtype=A.dtype)


def _reduce_axis1(sr: Semiring, rtype, T):
    """⊕ over axis 1 of a 3-D block of products (non-empty along that axis)."""
    f = sr.add.op.numpy
    if f is np.add and np.dtype(rtype).kind == "f":
        # ufunc.reduce starts a sum from +0.0, so products that are all -0.0 gave +0.0;
        # reduceat folds from the first product, as reduce_segments does (fold: -0.0)
        with np.errstate(all="ignore"):
            return f.reduceat(T, [0], axis=1)[:, 0].astype(rtype, copy=False)
    if isinstance(f, np.ufunc):
        with np.errstate(all="ignore"):
            return f.reduce(T, axis=1).astype(rtype, copy=False)
    while T.shape[1] > 1:  # pairwise: log2(k) vectorized passes for any associative op
        h = T.shape[1] // 2
        head = sr.add.op.apply_numpy(T[:, :h], T[:, h:2 * h], rtype)
        T = np.concatenate([head, T[:, 2 * h:]], axis=1) if T.shape[1] % 2 else head
    return T[:, 0]


def gemm(X, Y, sr: Semiring, dtype, bound=None):
    X, Y = np.ascontiguousarray(X), np.ascontiguousarray(Y)
    m, K = X.shape
    n = Y.shape[1]
    rtype = sr.result_type(dtype)
    if K == 0 or m == 0 or n == 0:
        return np.full((m, n), sr.add.identity_of(rtype), dtype=rtype)
    if sr.name == "plus_times" and np.dtype(dtype).kind in "if":
        with np.errstate(all="ignore"):  # inf * 0 is NaN, as in the fold
            Z = np.ascontiguousarray(np.matmul(X, Y), dtype=rtype)  # integers wrap alike
        if np.dtype(dtype).kind == "f":
            # a zero sum's sign is the fold's (see spmm): BLAS's sums start from +0.0
            zrows = np.flatnonzero((Z == 0).any(axis=1))
            if zrows.size and negative_zero_possible(X, Y):
                Z[zrows] = _gemm_folds(X[zrows], Y, sr, dtype, rtype, K)
        return Z
    if _is_any(sr, rtype):
        K = 1  # any value is final: the k = 0 product
    elif compiled.ENABLED:
        # min / max monoids compiled (Numba): 0.09-0.11 ns a min-plus relaxation in float32
        # against ~1.5 by the chunks below; algorithms.apsp's Floyd–Warshall at n = 512:
        # 146-225 -> 22-31 ms (SciPy's floyd_warshall 79-118; loaded 2-core host)
        Z = np.empty((m, n), dtype=rtype)
        if compiled.gemm(Z, X, Y, sr, dtype, True):
            return Z
    return _gemm_folds(X, Y, sr, dtype, rtype, K)


def _gemm_folds(X, Y, sr: Semiring, dtype, rtype, K):
    """Z = X ⊕.⊗ Y by the NumPy folds (k = 0 .. K-1 of each entry, from its first product),
    in chunks of CHUNK_ELEMS products."""
    m, n = X.shape[0], Y.shape[1]
    kc = max(1, min(K, CHUNK_ELEMS // max(n, 1), 64))
    bi = max(1, min(m, CHUNK_ELEMS // (kc * n)))
    Z = np.empty((m, n), dtype=rtype)
    j = np.arange(n, dtype=np.int64)[None, None, :]
    for i0 in range(0, m, bi):
        i1 = min(m, i0 + bi)
        i = np.arange(i0, i1, dtype=np.int64)[:, None, None]
        acc = None
        for k0 in range(0, K, kc):
            k1 = min(K, k0 + kc)
            k = np.arange(k0, k1, dtype=np.int64)[None, :, None]
            prods = _mult(sr, X[i0:i1, k0:k1, None], Y[None, k0:k1, :], i, k, j, dtype, False)
            prods = np.broadcast_to(prods, (i1 - i0, k1 - k0, n))
            part = _reduce_axis1(sr, rtype, prods)
            acc = part if acc is None else sr.add.op.apply_numpy(acc, part, rtype)
        Z[i0:i1] = acc
    return Z


def gemm_accumulate(Z, X, Y, sr: Semiring, dtype, bound=None, skip_rows=None, skip_cols=None):
    if skip_rows is not None or skip_cols is not None:
        for (i0, i1), (j0, j1) in _rectangles(Z.shape[0], Z.shape[1], skip_rows, skip_cols):
            gemm_accumulate(Z[i0:i1, j0:j1], X[i0:i1], Y[:, j0:j1], sr, dtype, bound)
        return Z
    if compiled.ENABLED and compiled.gemm(Z, X, Y, sr, dtype, False):
        return Z  # (folded into Z in place: min / max monoids, compiled)
    T = gemm(X, Y, sr, dtype)
    Z[...] = sr.add.op.apply_numpy(Z, T, Z.dtype)
    return Z


def _rectangles(m: int, n: int, skip_rows, skip_cols):
    """The rectangles ((i0, i1), (j0, j1)) of an m × n matrix outside the bands."""
    def spans(size, band):
        if band is None or band[1] <= band[0]:
            return [(0, size)]
        return [s for s in ((0, band[0]), (band[1], size)) if s[1] > s[0]]
    return [(r, c) for r in spans(m, skip_rows) for c in spans(n, skip_cols)]


#: Infinity of the packed 16-bit min-plus (semiring.dense.gemm_u16).
U16_INF = 0x7FFF


def gemm_u16(Z, X, Y, accumulate: bool, skip_rows=None, skip_cols=None):
    """Z = min(U16_INF, [Z,] min_k X + Y), every operand clamped to U16_INF (uint16), in
    int32 chunks."""
    if skip_rows is not None or skip_cols is not None:
        for (i0, i1), (j0, j1) in _rectangles(Z.shape[0], Z.shape[1], skip_rows, skip_cols):
            gemm_u16(Z[i0:i1, j0:j1], X[i0:i1], Y[:, j0:j1], accumulate)
        return Z
    m, K = X.shape
    n = Y.shape[1]
    if m == 0 or n == 0:
        return Z
    Xi = np.minimum(X, U16_INF).astype(np.int32)
    Yi = np.minimum(Y, U16_INF).astype(np.int32)
    acc = (np.minimum(Z, U16_INF).astype(np.int32) if accumulate
           else np.full((m, n), U16_INF, dtype=np.int32))
    kc = max(1, min(K, CHUNK_ELEMS // max(n, 1), 64))
    bi = max(1, min(m, CHUNK_ELEMS // (kc * n)))
    for i0 in range(0, m, bi):
        i1 = min(m, i0 + bi)
        for k0 in range(0, K, kc):
            k1 = min(K, k0 + kc)
            part = (Xi[i0:i1, k0:k1, None] + Yi[None, k0:k1, :]).min(axis=1)
            np.minimum(acc[i0:i1], part, out=acc[i0:i1])
    Z[...] = acc
    return Z
