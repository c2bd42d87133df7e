"""CPU traversal steps: the fused push levels and relaxation rounds as NumPy loops with no
per-level dispatch, and the bookkeeping of one wide level (the same results as the GPU's
kernels). Called by :mod:`semiring.traversal`, which validates the operands."""

from __future__ import annotations

import threading

import numpy as np

from ..csr import frontier_edges
from . import compiled
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


# ------------------------------------------------------------------ whole searches, compiled

#: SciPy's csgraph routines take int32 indices: larger graphs keep the NumPy level loop.
CSGRAPH_MAX = 2**31 - 1


def csgraph_fits(A) -> bool:
    """Whether SciPy's csgraph routines can take A's arrays (int32 positions and vertices)."""
    return A.nrows < CSGRAPH_MAX and A.nvals < CSGRAPH_MAX


#: SciPy views of a Matrix's pattern, made on its first search and kept in its ``_memo``
#: under (VIEW_KEY, weights) until its content changes: a view is n + m int32 indices
#: (shared with A where A's are int32) and m float64 ones, which cost the grid-128² BFS 0.1
#: ms a call to allocate (pages faulted in afresh each time), as much as SciPy's search
#: itself.
VIEW_KEY = "cpu.csgraph"


def _view(A, weights: bool):
    """A's pattern with float64 ones (``weights=False``) or A's values as float64 as a SciPy
    CSR with int32 indices (shared with A's where they are int32): the form SciPy's csgraph
    routines read without a copy. Made once per Matrix and kind, then reused."""
    import scipy.sparse as sp  # noqa: PLC0415  (scipy.sparse: imported on use)

    views = A._memo
    S = views.get((VIEW_KEY, weights))
    if S is None:
        if weights:
            w, wstride = A._values_for(np.float64)
            data = np.array(w if wstride else np.broadcast_to(w[:1], (A.nvals,)),
                            dtype=np.float64)
        else:
            data = np.ones(A.nvals, dtype=np.float64)
        S = views[(VIEW_KEY, weights)] = sp.csr_matrix(
            (data, A.indices.astype(np.int32, copy=False), A.indptr.astype(np.int32, copy=False)),
            shape=A.shape, copy=False)
    return S


def _structure(A):
    """A's pattern as a SciPy CSR of float64 ones (see :func:`_view`)."""
    return _view(A, False)


def _weighted(A):
    """A's values as float64 weights on its pattern, a SciPy CSR (explicit zeros are
    zero-weight edges; see :func:`_view`)."""
    return _view(A, True)


#: :func:`_depths` follows the level boundaries one Python step a level (about 0.07 µs
#: each) for at most this many levels plus one per DEPTH_LOOP_PER_VERTEX visited vertices
#: (the cost of a couple of NumPy passes over them), then by doubling (a pass over the
#: visited vertices a doubling, O(m log depth)): the grid-128² search (254 levels) took 0.25
#: ms by pointer doubling alone, 0.15 ms with a prefix sum of the children counts and the
#: loop, 0.09 ms with the first-child positions below (the loop 0.02 ms of it) on this 2-core
#: host under load; a path of 10^5 vertices takes 64 + 1562 steps, then 17 doublings.
DEPTH_LOOP_LEVELS = 64
DEPTH_LOOP_PER_VERTEX = 64
#: Where a level's first vertex has no children, :func:`_depths` looks this many vertices on
#: one step each before it searches the vertices that have children (about 1.5 µs).
DEPTH_SCAN = 8


#: Per-thread scratch arrays of :func:`_depths`, kept between calls for graphs of at most
#: SCRATCH_MAX vertices (about 33 bytes a vertex: 35 MB at most a thread): an array made
#: afresh each call comes, from 128 KiB on, as new pages from the system (glibc's mmap
#: threshold), each faulted in on its first write: the first-child table of the grid-128²
#: search (n = 16384 int64, exactly 128 KiB) cost 90 µs a call that way, 10 µs kept and
#: cleared.
SCRATCH_MAX = 1 << 20
_scratch_local = threading.local()


def _scratch(name: str, n: int, dtype=np.int64):
    """This thread's scratch array ``name`` of n elements of ``dtype`` (contents undefined);
    a new array beyond SCRATCH_MAX elements."""
    if n > SCRATCH_MAX:
        return np.empty(n, dtype=dtype)
    bufs = _scratch_local.__dict__.setdefault("bufs", {})
    key = (name, np.dtype(dtype))
    buf = bufs.get(key)
    if buf is None or buf.size < n:
        buf = bufs[key] = np.empty(max(n, 64), dtype=dtype)
    return buf[:n]


def _depths(order, pred, n, out=None):
    """BFS levels from SciPy's visit order and BFS tree (``pred[v]`` the vertex that found v,
    -9999 for the root and the unreached).

    SciPy's search is a FIFO queue: the children of the vertex at position j of ``order``
    lie together, after those of positions < j. So level t + 1 starts at the first child of
    the first vertex of level t that has children (of the first such vertex after it, where
    it has none): the levels are the orbit of 0 under that map, followed a step a level while
    that is cheap and by doubling it beyond; no loop per vertex. The first children come
    from the runs of equal parents along the order (one scatter a parent) rather than a
    prefix sum of the children counts (``np.cumsum`` runs at about 2 ns an element, a
    dependent add each). ``out``: an int64 array of n to write the levels into (else a new
    one). With Numba installed the compiled loop (:func:`.compiled.bfs_levels`) runs
    instead."""
    if compiled.ENABLED:
        return compiled.bfs_levels(order, pred, n, out)
    m = order.size
    level = np.empty(n, dtype=np.int64) if out is None else out
    if m < n:
        level.fill(-1)
    if m == 1:
        level[order[0]] = 0
        return level
    o = _scratch("order", m)  # intp: NumPy's take and scatter convert int32 indices first
    np.copyto(o, order)
    # q: each visited vertex's parent (the source's excepted), in visit order; a run of equal
    # parents is one vertex's children, at positions run start + 1 onwards
    q = np.take(pred, o[1:], mode="clip", out=_scratch("parent", m - 1, pred.dtype))
    head = _scratch("head", m - 1, np.bool_)
    head[0] = True
    np.not_equal(q[1:], q[:-1], out=head[1:])
    runs = np.flatnonzero(head)
    u = np.take(q, runs, mode="clip", out=_scratch("runs", runs.size, q.dtype))
    u = u.astype(np.int64, copy=False)
    runs += 1
    first = _scratch("first", n)  # a vertex's first child's position, 0: none
    first.fill(0)
    first[u] = runs
    f = np.take(first, o, mode="clip", out=_scratch("f", m))  # the same by position
    # (clip: the indices are in range, and take buffers an out= in its default mode)
    mv = memoryview(f)  # mv[j]: a Python int, half f.item(j)'s cost
    bounds = [0]
    b, have = 0, None
    for _ in range(DEPTH_LOOP_LEVELS + m // DEPTH_LOOP_PER_VERTEX):
        if b >= m:
            break
        nb = mv[b]
        if nb == 0:  # no children: those of the next vertex that has some (or the end),
            # a few steps on (a grid's levels often start with a leaf), else a search
            j = b + 1
            while j < m and j < b + DEPTH_SCAN:
                nb = mv[j]
                if nb:
                    break
                j += 1
            if nb == 0 and j < m:
                have = np.flatnonzero(f) if have is None else have
                i = int(have.searchsorted(j))
                nb = mv[int(have[i])] if i < have.size else m
            elif nb == 0:
                nb = m
        b = nb
        bounds.append(b)
    if b < m:  # deep: the rest of the orbit by doubling, G = g^(2^s), orbit[t] = g^t(b)
        G = np.empty(m + 1, dtype=np.int64)
        np.minimum.accumulate(np.where(f > 0, f, m)[::-1], out=G[-2::-1])  # next with kids
        G[m] = m
        orbit = np.array([b], dtype=np.int64)
        while orbit[-1] < m:
            orbit = np.concatenate([orbit, np.take(G, orbit)])
            G = np.take(G, G)
        bounds = np.r_[np.asarray(bounds[:-1], dtype=np.int64), orbit[orbit < m], m]
    else:
        bounds = np.asarray(bounds, dtype=np.int64)
    level[o] = np.repeat(np.arange(bounds.size - 1, dtype=np.int64), np.diff(bounds))
    return level


def _smallest_parents(A, level):
    """Each reached vertex's smallest-index in-neighbour one level up (the source keeps
    itself): what the deterministic search returns."""
    n = A.nrows
    indptr = A.indptr.astype(np.int64, copy=False)
    u = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    v = A.indices.astype(np.int64, copy=False)
    lu = level[u]
    keep = (lu >= 0) & (level[v] == lu + 1)
    parent = np.full(n, n, dtype=np.int64)
    np.minimum.at(parent, v[keep], u[keep])
    parent[parent == n] = -1
    return parent


def bfs_csgraph(A, source, parents, deterministic, S=None, level=None, parent=None):
    """A whole BFS by SciPy's compiled ``breadth_first_order`` (O(n + m)), its levels by
    :func:`_depths`; the parents its BFS tree, or with ``deterministic`` the smallest
    in-neighbour a level up. ``S``: A's pattern as SciPy CSR when the caller has it;
    ``level``, ``parent``: int64 arrays of n to fill (a row of a multi-source result)."""
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415  (scipy: on use)

    n = A.nrows
    S = _structure(A) if S is None else S
    order, pred = breadth_first_order(S, int(source), directed=True, return_predecessors=True)
    level = _depths(order, pred, n, level)
    if parents:
        if deterministic:
            found = _smallest_parents(A, level)
            if parent is None:
                parent = found
            else:
                parent[:] = found
        else:
            parent = np.empty(n, dtype=np.int64) if parent is None else parent
            parent.fill(-1)
            parent[order[1:]] = pred[order[1:]]
        parent[source] = source
    else:
        parent = None
    return level, parent


def bfs_many(A, sources, level, parent=None) -> bool:
    """Searches from each of ``sources`` into the rows of ``level`` (and ``parent``) as
    :func:`bfs_csgraph` makes them (SciPy's BFS tree), by the compiled searches of
    :func:`.compiled.msbfs` over A's own CSR, the sources over threads; False where Numba
    is off (nothing written: the caller runs :func:`bfs_csgraph` a source)."""
    return compiled.msbfs(A, np.ascontiguousarray(sources, dtype=np.int64), level, parent)


def dijkstra_csgraph(A, source, use_compiled=False):
    """Distances from ``source`` by SciPy's compiled Dijkstra over A's values as float64
    weights (explicit zeros are zero-weight edges; +inf where unreached); with
    ``use_compiled`` and Numba enabled by the project's (:func:`.compiled.dijkstra_distances`:
    the same distances bit for bit) over A's own CSR and the same float64 weights."""
    S = _weighted(A)
    if use_compiled and compiled.ENABLED:
        lay = compiled._layout(A, 0)
        n = A.nrows  # (below 2^31: csgraph_fits)
        # the heap's arrays kept a thread, as _depths' (pages faulted in afresh each call
        # otherwise: sssp25_report.md)
        scratch = (_scratch("dijkstra.pos", n, np.int32), _scratch("dijkstra.keys", n, np.float64),
                   _scratch("dijkstra.verts", n, np.uint32))
        return compiled.dijkstra_distances(lay["indptr"], lay["indices"], S.data, int(source),
                                           scratch)
    from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415  (scipy: imported on use)

    return dijkstra(S, directed=True, indices=int(source))
