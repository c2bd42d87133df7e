"""CPU traversal steps: the fused push levels and relaxation rounds as NumPy loops with no
per-level dispatch, and the bookkeeping of one wide level (the same results as the GPU's
kernels). Called by :mod:`semiring.traversal`, which validates the operands."""

from __future__ import annotations

import numpy as np

from ..csr import frontier_edges
from . import spmv as _spmv


def _out_edges(indptr, q, max_edges):
    """(frontier slot, position in A's arrays) of every out-edge of the frontier ``q``, or
    None when there are more than ``max_edges`` of them."""
    starts = indptr[q]
    deg = indptr[q + 1] - starts
    total = int(deg.sum())
    if total > max_edges:
        return None
    slot = np.repeat(np.arange(q.size), deg)
    return slot, starts[slot] + (np.arange(total) - (np.cumsum(deg) - deg)[slot])


def push_levels(A, level, frontier, depth, parent, deterministic, max_edges, max_levels, queue):
    indptr = A.indptr.astype(np.int64, copy=False)
    q = frontier.astype(np.int64)
    levels = 0
    while levels < max_levels:
        edges = _out_edges(indptr, q, max_edges)
        if edges is None:
            return "wide", depth, levels
        slot, pos = edges
        v = A.indices[pos].astype(np.int64)
        fresh = level[v] == -1
        v, u = v[fresh], q[slot[fresh]]
        if v.size == 0:
            return "done", depth, levels
        if parent is not None and deterministic:
            order = np.lexsort((u, v))  # by v, then the smallest u first
            v, u = v[order], u[order]
        nxt, first = np.unique(v, return_index=True)
        depth += 1
        levels += 1
        level[nxt] = depth
        if parent is not None:
            parent[nxt] = u[first]
        if nxt.size > queue:
            return "overflow", depth, levels
        q = nxt
    return "limit", depth, levels


def push_levels_grid(A, level, frontier, depth, parent, deterministic, max_edges, max_levels,
                     queue):
    """The CPU has no grid: the same levels, the grid's queue."""
    return push_levels(A, level, frontier, depth, parent, deterministic, max_edges, max_levels,
                       queue)


def relax_rounds(A, d, w, wstride, frontier, hi, pending, settled, max_edges, max_rounds,
                 queue):
    indptr = A.indptr.astype(np.int64, copy=False)
    q = frontier.astype(np.int64)
    rounds = 0
    while rounds < max_rounds:
        edges = _out_edges(indptr, q, max_edges)
        if edges is None:
            return "wide", q, rounds
        if pending is not None:
            settled[q] = True
            pending[q] = False
        slot, pos = edges
        v = A.indices[pos].astype(np.int64)
        nd = d[q[slot]] + (w[pos] if wstride else w[0])
        # the smallest candidate per target: sort by (v, nd)
        order = np.lexsort((nd, v))
        v, nd = v[order], nd[order]
        first = np.r_[True, v[1:] != v[:-1]] if v.size else np.zeros(0, dtype=bool)
        v, nd = v[first], nd[first]
        better = nd < d[v]
        v, nd = v[better], nd[better]
        d[v] = nd
        if pending is not None:
            pending[v] = True
        rounds += 1
        q = v[nd < hi]
        if q.size == 0:
            return "done", q, rounds
        if q.size > queue:
            return "overflow", q, rounds
    return "limit", q, rounds


def frontier_of_level(A, level, depth, n):
    frontier, unseen = level == depth, level < 0
    deg = np.diff(A.indptr.astype(np.int64))
    return (frontier, unseen, int(np.count_nonzero(frontier)), int(deg[frontier].sum()),
            int(deg[unseen].sum()))


def pull_level(A, AT, sr, frontier, unseen, level, depth, parent, n):
    idx, vals = _spmv.pull(AT, frontier, frontier, unseen, sr, np.bool_, True)
    q = np.zeros(n, dtype=bool)
    q[idx] = True
    level[idx] = depth
    unseen[idx] = False
    if parent is not None:
        parent[idx] = vals
    return q, int(idx.size), frontier_edges(A, idx)


def pull_relax(AT, min_plus, d, dt, frontier, hi, pending, settled, n):
    idx, t = _spmv.pull(AT, d, frontier, None, min_plus, dt, True)
    t = t.astype(dt, copy=False)
    imp = t < d[idx]
    if pending is not None:
        settled |= frontier
        pending &= ~frontier
        pending[idx[imp]] = True
    d[idx[imp]] = t[imp]
    nxt = np.zeros(n, dtype=bool)
    nxt[idx[imp & (t < hi)]] = True
    return nxt, int(np.count_nonzero(nxt))


def push_level(A, frontier, unseen, level, depth, parent, deterministic):
    push_levels(A, level, frontier, int(depth) - 1, parent, deterministic, 2**62, 1, 2**62)
    q = np.flatnonzero(unseen & (level == depth))
    unseen[q] = False
    return q, int(q.size), frontier_edges(A, q)


def push_relax(A, d, dt, w, wstride, frontier, hi, pending, settled, n):
    _, q, _ = relax_rounds(A, d, w, wstride, frontier, hi, pending, settled, 2**62, 1, 2**62)
    return q, int(q.size)
