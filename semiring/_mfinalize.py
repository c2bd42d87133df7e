"""out⟨M⟩ ⊙= T for matrices (and the key-space helpers the elementwise operations share).

The semantics are those of ``_finalize`` in :mod:`semiring.operations` (GraphBLAS):

- Z = out ⊙ T where both have an entry, else whichever has one (Z = T without ``accum``);
- where M allows it, out gets Z (an entry where Z has one, none where Z has none);
- elsewhere out keeps its entries, or loses them all with ``replace=True``.

Everything stays sparse: an entry (i, j) is the int64 key ``i * ncols + j``; CSR order is key
order, so the union of T's and out's keys is a sort-free merge by ``searchsorted``, and the
mask is asked only at those keys (:meth:`Mask.allowed_at`), never densified.
"""

from __future__ import annotations

import numpy as np

from . import types as _t
from .backend import backend_of
from .errors import DomainMismatch
from .matrix import Matrix, index_type, row_of_entries
from .vector import Vector

# ---------------------------------------------------------------------- keys <-> containers


def matrix_keys(A):
    """Sorted int64 keys ``row * ncols + col`` of A's entries."""
    xp = A.xp
    rows = row_of_entries(xp, A.indptr, A.nvals)
    return rows * max(A.ncols, 1) + A.indices.astype(xp.int64)


def matrix_from_keys(keys, values, shape, dtype, *, iso_value=None):
    """A Matrix from sorted unique int64 keys and their values (None: structure-only, with
    ``iso_value`` or True)."""

    nrows, ncols = int(shape[0]), int(shape[1])
    xp = _xp_of(keys)
    nnz = int(keys.size)
    it = index_type(nrows, ncols, nnz)
    w = max(ncols, 1)
    rows = keys // w
    cols = keys - rows * w
    indptr = xp.searchsorted(rows, xp.arange(nrows + 1, dtype=xp.int64)).astype(it) if nnz \
        else xp.zeros(nrows + 1, dtype=it)
    if values is None:
        return Matrix(indptr, cols.astype(it), None, (nrows, ncols),
                      iso_value=True if iso_value is None else iso_value, dtype=dtype)
    return Matrix(indptr, cols.astype(it), values.astype(dtype, copy=False), (nrows, ncols))


def _xp_of(a):
    return np if isinstance(a, np.ndarray) else __import__("cupy")


def entries(x):
    """(keys, values, nrows/size-shape) of a Matrix or Vector; values are full (iso expanded)."""
    if isinstance(x, Matrix):
        return matrix_keys(x), x._full_values()
    idx, vals = x.sparse()
    return idx, vals


def positions(x, keys):
    """(i, j) int64 coordinates of keys of a Matrix, or (index, 0) of a Vector."""
    if isinstance(x, Matrix):
        w = max(x.ncols, 1)
        i = keys // w
        return i, keys - i * w
    return keys, x.xp.zeros(keys.size, dtype=x.xp.int64)


def rebuild(like, keys, values, dtype):
    """A container of ``like``'s kind and shape holding sorted unique keys and values."""
    if isinstance(like, Matrix):
        return matrix_from_keys(keys, values.astype(dtype, copy=False), like.shape, dtype)
    return Vector(like.size, dtype, like.device, indices=keys, svalues=values.astype(dtype, copy=False))


# ---------------------------------------------------------------------- op application


def apply_binary(op, domain, x, y, device, n, pos=None):
    """op(x, y) in ``domain`` on ``n`` entries (arrays or scalars), on ``device``."""
    return backend_of(device).elementwise.binary(op, np.dtype(domain), x, y, n, pos)


def apply_unary(op, domain, x, device, n, pos=None):
    """op(x) in ``domain`` on ``n`` entries (an array or a scalar), on ``device``."""
    return backend_of(device).elementwise.unary(op, np.dtype(domain), x, n, pos)


# ---------------------------------------------------------------------- set operations


def match(ka, kb):
    """For sorted unique keys: (positions in ka of keys also in kb, their positions in kb)."""
    xp = _xp_of(ka)
    if ka.size == 0 or kb.size == 0:
        z = xp.zeros(0, dtype=xp.int64)
        return z, z
    pos = xp.minimum(xp.searchsorted(kb, ka), kb.size - 1)
    hit = kb[pos] == ka
    ia = xp.flatnonzero(hit).astype(xp.int64)
    return ia, pos[ia].astype(xp.int64)


def union(ka, kb):
    """Sorted unique union U of sorted unique keys, with each key's position in ka / kb (-1
    where absent)."""
    xp = _xp_of(ka)
    u = xp.concatenate([ka, kb])
    if kb.size and ka.size and xp is np:
        # two sorted runs: a stable sort merges them in linear time (timsort), then drop the
        # repeats; np.unique's hash path took 2-3 s on 2·10^6 keys (NumPy 2.4)
        u.sort(kind="stable")
        u = u[np.r_[True, u[1:] != u[:-1]]]
    elif kb.size and ka.size:
        u = xp.unique(u)  # sort of at most nnz(a) + nnz(b)
    elif u.size:
        u = u.copy()
    pa = xp.full(u.size, -1, dtype=xp.int64)
    pb = xp.full(u.size, -1, dtype=xp.int64)
    ua, ia = match(u, ka)
    pa[ua] = ia
    ub, ib = match(u, kb)
    pb[ub] = ib
    return u, pa, pb


# ---------------------------------------------------------------------- finalize


def finalize_keys(tk, tv, wk, wv, mask, accum, replace, out_dtype, device):
    """Key-space out⟨M⟩ ⊙= T: (keys, values) of the new output. ``wk is None``: no out."""
    xp = _xp_of(tk)
    out_dtype = np.dtype(out_dtype)
    tv = _t.cast(tv, out_dtype)
    if wk is None:
        if mask is None:
            return tk, tv
        keep = mask.allowed_at(tk)
        return tk[keep], tv[keep]
    u, pt, pw = union(tk, wk)
    int_ = pt >= 0
    inw = pw >= 0
    # Z = out ⊙ T
    zv = xp.empty(u.size, dtype=out_dtype)
    ti = xp.flatnonzero(int_)  # integer scatters, not boolean ones: plain on both backends
    zv[ti] = tv[pt[ti]]
    if accum is not None:
        wonly = inw & ~int_
        wo = xp.flatnonzero(wonly)
        zv[wo] = wv[pw[wo]]
        both = xp.flatnonzero(inw & int_)
        if both.size:
            a = apply_binary(accum, out_dtype, wv[pw[both]], tv[pt[both]], device, int(both.size))
            zv[both] = a.astype(out_dtype, copy=False)
        zp = int_ | inw
    else:
        zp = int_
    if mask is None:
        keep = zp
        rv = zv
    else:
        allowed = mask.allowed_at(u)
        # outside the mask out keeps its value unless replace
        keep = xp.where(allowed, zp, xp.zeros_like(inw) if replace else inw)
        rv = zv
        kw = ~allowed & inw
        kw = xp.flatnonzero(kw)
        rv[kw] = wv[pw[kw]]
    return u[keep], rv[keep]


def finalize_matrix(T, out, mask, accum, replace, *, t_masked=False):
    """out⟨M⟩ ⊙= T for matrices; returns the output Matrix (``out`` updated in place when
    given, else a new matrix: T restricted to the mask).

    Parameters
    ----------
    T : Matrix
        The operation's result. Entries outside the mask are ignored (with ``t_masked=True``
        the caller promises there are none, and ``out=None`` then returns T as is).
    out : Matrix or None
    mask : Mask or None
        A matrix mask (from :func:`semiring.mask.as_matrix_mask`).
    accum : BinaryOp or None
    replace : bool

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> from semiring._mfinalize import finalize_matrix
    >>> C = sr.Matrix.from_coo([0, 1], [0, 1], [5.0, 6.0], nrows=2, ncols=2)
    >>> T = sr.Matrix.from_coo([0, 1], [0, 0], [1.0, 2.0], nrows=2, ncols=2)
    >>> M = sr.Matrix.from_coo([0], [0], True, nrows=2, ncols=2)
    >>> finalize_matrix(T, C, M.S, sr.binary.plus, False).to_dense(missing=0)
    array([[6., 0.],
           [0., 6.]])
    """
    if out is None:
        if mask is None or t_masked:
            return T
        tk, tv = matrix_keys(T), T._full_values()
        k, v = finalize_keys(tk, tv, None, None, mask, None, False, T.dtype, T.device)
        return matrix_from_keys(k, v, T.shape, T.dtype)
    if accum is not None and getattr(accum, "positional", False):
        raise DomainMismatch(f"finalize_matrix: accum must not be a positional op, got {accum.name}")
    tk, tv = matrix_keys(T), T._full_values()
    wk, wv = matrix_keys(out), out._full_values()
    k, v = finalize_keys(tk, tv, wk, wv, mask, accum, replace, out.dtype, out.device)
    out._assign(matrix_from_keys(k, v, out.shape, out.dtype))
    return out


def finalize(T, out, mask, accum, replace):
    """out⟨M⟩ ⊙= T for a Matrix or a Vector result (mask of the same kind)."""
    if isinstance(T, Matrix):
        return finalize_matrix(T, out, mask, accum, replace)
    tk, tv = T.sparse()
    if out is None:
        k, v = finalize_keys(tk, tv, None, None, mask, None, False, T.dtype, T.device)
        return rebuild(T, k, v, T.dtype)
    wk, wv = out.sparse()
    k, v = finalize_keys(tk, tv, wk, wv, mask, accum, replace, out.dtype, out.device)
    out._assign(rebuild(out, k, v, out.dtype))
    return out
