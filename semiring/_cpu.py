"""CPU mechanism: the same pull and push products as the GPU kernels, vectorized with NumPy.

These are the readable reference the GPU is tested against, and the fallback on machines
without a GPU. No Python loop runs per vertex or per edge.
"""

from __future__ import annotations

import numpy as np

from .ops import Semiring


def _mult(sr: Semiring, a, x, o, k, dtype, xfirst: bool):
    """The semiring's multiply with the operand order of the product (see sr_mult in CUDA)."""
    zero = np.zeros(1, dtype=np.int64)
    if xfirst:
        return sr.mul.apply_numpy(x, a, dtype, pos=(zero, k, k, o))
    return sr.mul.apply_numpy(a, x, dtype, pos=(o, k, k, zero))


def _reduce_sorted(sr: Semiring, o, prods):
    """Reduce products grouped by nondecreasing output index ``o``: sparse (indices, values)."""
    if o.size == 0:
        return o.astype(np.int64), prods
    heads = np.flatnonzero(np.r_[True, o[1:] != o[:-1]])
    return o[heads].astype(np.int64), sr.add.reduce_segments(prods, heads)


def pull(M, x_values, x_present, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_k M(o,k) ⊗ x(k) over M's rows; sparse (indices, values) result."""
    rows = np.repeat(np.arange(M.nrows, dtype=np.int64), np.diff(M.indptr))
    k = M.indices
    sel = None
    if x_present is not None:
        sel = x_present[k]
    if allowed is not None:
        sel = allowed[rows] if sel is None else (sel & allowed[rows])
    avals, astride = M._values_for(dtype)
    if sel is not None:
        rows, k = rows[sel], k[sel]
        a = avals[sel] if astride else avals[:1]
    else:
        a = avals if astride else avals[:1]
    prods = _mult(sr, a, x_values.astype(dtype, copy=False)[k], rows, k.astype(np.int64), dtype, xfirst)
    prods = np.broadcast_to(prods, rows.shape) if prods.shape != rows.shape else prods
    return _reduce_sorted(sr, rows, np.ascontiguousarray(prods))


def push(M, x_indices, x_values, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_{k in x} x(k) ⊗ M(k,o); sparse (indices, values, sorted=True)."""
    ks = np.asarray(x_indices, dtype=np.int64)
    starts = M.indptr[ks].astype(np.int64)
    deg = M.indptr[ks + 1].astype(np.int64) - starts
    total = int(deg.sum())
    # edge e of frontier slot t sits at starts[t] + (e - first edge of t)
    first = np.cumsum(deg) - deg
    slot = np.repeat(np.arange(ks.size), deg)
    p = starts[slot] + (np.arange(total, dtype=np.int64) - first[slot])
    o = M.indices[p].astype(np.int64)
    if allowed is not None:
        keep = allowed[o]
        p, o, slot = p[keep], o[keep], slot[keep]
    avals, astride = M._values_for(dtype)
    a = avals[p] if astride else avals[:1]
    xv = np.asarray(x_values).astype(dtype, copy=False)[slot]
    prods = _mult(sr, a, xv, o, ks[slot], dtype, xfirst)
    prods = np.broadcast_to(prods, o.shape) if prods.shape != o.shape else prods
    order = np.argsort(o, kind="stable")
    return (*_reduce_sorted(sr, o[order], np.ascontiguousarray(prods[order])), True)
