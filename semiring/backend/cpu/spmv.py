"""CPU mechanism: the same pull and push products as the GPU kernels, vectorized with NumPy.

These are the readable reference the GPU is tested against, and the fallback on machines
without a GPU. No Python loop runs per vertex or per edge.
"""

from __future__ import annotations

import numpy as np

from ...ops import Semiring


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


def _expand_rows(indptr, rows):
    """Positions ``p`` in M's arrays of every entry of the listed ``rows``, in row order, and
    the slot (index into ``rows``) each comes from: the CPU form of the frontier expansion."""
    starts = indptr[rows].astype(np.int64)
    deg = indptr[rows + 1].astype(np.int64) - starts
    total = int(deg.sum())
    first = np.cumsum(deg) - deg
    slot = np.repeat(np.arange(rows.size), deg)
    return starts[slot] + (np.arange(total, dtype=np.int64) - first[slot]), slot


def pull(M, x_values, x_present, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_k M(o,k) ⊗ x(k) over M's rows; sparse (indices, values) result.

    With a mask only the allowed rows are expanded (a BFS's late levels touch few rows);
    without one the row segments come straight from ``indptr``.
    """
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


def push(M, x_indices, x_values, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_{k in x} x(k) ⊗ M(k,o); sparse (indices, values, sorted=True)."""
    ks = np.asarray(x_indices, dtype=np.int64)
    p, slot = _expand_rows(M.indptr, ks)
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
