"""CPU mechanism: the same pull and push products as the GPU kernels, vectorized with NumPy.

These are the readable reference the GPU is tested against, and the fallback on machines
without a GPU. No Python loop runs per vertex or per edge.
"""

from __future__ import annotations

import numpy as np

from .ops import Semiring


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
    heads = np.flatnonzero(np.r_[True, o[1:] != o[:-1]])
    return o[heads].astype(np.int64), sr.add.reduce_segments(prods, heads)


def pull(M, x_values, x_present, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_k M(o,k) ⊗ x(k) over M's rows; sparse (indices, values) result.

    The row segments come from ``indptr`` (shrunk by a prefix count when the mask or x's
    presence drops entries), so no per-entry row array is built unless the op is positional.
    """
    indptr = M.indptr.astype(np.int64, copy=False)
    k = M.indices
    avals, astride = M._values_for(dtype)
    keep = None
    if x_present is not None:
        keep = x_present[k]
    if allowed is not None:
        row_ok = np.repeat(allowed, np.diff(indptr))
        keep = row_ok if keep is None else (keep & row_ok)
    if keep is not None:
        kept = np.concatenate([[0], np.cumsum(keep, dtype=np.int64)])
        indptr = kept[indptr]
        pos = np.flatnonzero(keep)
        k = k[pos]
        a = avals[pos] if astride else avals[:1]
    else:
        a = avals if astride else avals[:1]
    counts = np.diff(indptr)
    out_idx = np.flatnonzero(counts)
    if sr.mul.positional:
        o = np.repeat(out_idx, counts[out_idx])
        prods = _mult(sr, a, x_values.astype(dtype, copy=False)[k], o, k.astype(np.int64), dtype, xfirst)
    else:
        prods = _mult(sr, a, x_values.astype(dtype, copy=False)[k], None, None, dtype, xfirst)
    if prods.shape != k.shape:
        prods = np.broadcast_to(prods, k.shape)
    return out_idx, sr.add.reduce_segments(np.ascontiguousarray(prods), indptr[out_idx])


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
