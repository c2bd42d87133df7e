"""Breadth-first search as a frontier product over a boolean or positional semiring.

Each level is one algebra call (Beamer, Asanović & Patterson 2012, "Direction-optimizing
breadth-first search"; the GraphBLAS form of Yang, Buluç & Owens 2018):

- push: the sparse frontier times A, masked by the unvisited vertices (SpMSpV over A's rows);
- pull: Aᵀ times the frontier's bitmap, masked the same way; each unvisited vertex scans its
  in-neighbours and stops at the first one in the frontier (the ``any`` monoid's terminal
  value), so a wide frontier costs far less than its edges.
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring import traversal
from semiring.errors import DimensionMismatch, DomainMismatch, InvalidIndex, InvalidValue
from semiring.matrix import as_matrix

#: Push → pull when the frontier's out-edges exceed the unexplored edges / ALPHA, and pull →
#: push when the frontier holds fewer than n / BETA vertices (Beamer et al. 2012, §4: α = 14,
#: β = 24 were best on their graphs).
ALPHA = 14
BETA = 24

#: A push frontier of at most this many vertices and out-edges runs fused levels
#: (:func:`semiring.traversal.push_levels`) until it grows: on a high-diameter graph one
#: launch per level would cost more than the level's edges.
FUSED_FRONTIER = traversal.QUEUE
FUSED_EDGES = traversal.MAX_EDGES

DIRECTIONS = ("auto", "push", "pull")


def _check_source(source, n: int) -> int:
    if isinstance(source, bool) or not isinstance(source, (int, np.integer)):
        raise DomainMismatch(f"bfs: source must be an integer, got {type(source).__name__}")
    if not 0 <= int(source) < n:
        raise InvalidIndex(f"bfs: source must lie in [0, {n}), got {int(source)}")
    return int(source)


def bfs(A, source, *, parents=False, direction="auto", deterministic=False, symmetric=False):
    """Breadth-first search from ``source`` over the edges ``A(i, j)``: i → j.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph; only its structure is read (explicit zeros are edges, as in
        ``scipy.sparse.csgraph``). Runs where ``A`` lives (CPU or GPU).
    source : int
        The start vertex.
    parents : bool
        Also return a BFS tree: ``parent[source] = source``, ``-1`` where unreached.
    direction : {'auto', 'push', 'pull'}
        ``'auto'`` switches between push and pull by the frontier's size (see ``ALPHA`` and
        ``BETA``); the others force one direction for every level.
    deterministic : bool
        With ``parents=True``: each vertex's parent is its smallest-index in-neighbour on the
        previous level (``min_secondi``), the same on every run; otherwise any such
        in-neighbour (``any_secondi``, cheaper: the pull stops at the first one found).
    symmetric : bool
        Promise that A equals Aᵀ (an undirected graph): the pull then reads A's rows instead
        of building the transpose.

    Returns
    -------
    level : array of int64
        ``level[v]`` = number of edges on a shortest path from ``source``; ``-1`` if unreached.
        A NumPy or CuPy array, on A's device.
    parent : array of int64
        Only with ``parents=True``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]]))
    >>> level, parent = algorithms.bfs(A, 0, parents=True)
    >>> level.tolist(), parent.tolist()
    ([0, 1, 2, -1], [0, 0, 1, -1])
    """
    A = as_matrix(A, op="bfs", arg="A")
    if A.nrows != A.ncols:
        raise DimensionMismatch(f"bfs: A must be square, got shape {A.shape}")
    n = A.nrows
    source = _check_source(source, n)
    if direction not in DIRECTIONS:
        raise InvalidValue(f"bfs: direction must be one of {DIRECTIONS}, got {direction!r}")
    if symmetric and A._T is None:
        A._T = A  # the transpose cache: Aᵀ is A itself
    xp = A.xp
    if parents:
        semiring = sr.min_secondi if deterministic else sr.any_secondi
    else:
        semiring = sr.any_pair

    level = xp.full(n, -1, dtype=xp.int64)
    parent = xp.full(n, -1, dtype=xp.int64) if parents else None
    seen = xp.zeros(n, dtype=bool)
    level[source] = 0
    seen[source] = True
    if parents:
        parent[source] = source
    q = _frontier(xp.asarray([source], dtype=xp.int64), A)

    out_degree = xp.diff(A.indptr).astype(xp.int64)
    edges_frontier = int(out_degree[source])
    edges_left = A.nvals - edges_frontier  # edges out of unvisited vertices
    frontier_size = 1
    pushing = direction != "pull"
    depth = 0
    while True:
        if direction == "auto":
            if pushing and edges_frontier > edges_left / ALPHA:
                pushing = False
            elif not pushing and frontier_size < n / BETA:
                pushing = True
        if pushing and frontier_size <= FUSED_FRONTIER and edges_frontier <= FUSED_EDGES:
            # the push below, level after level on the device, while q stays narrow
            idx, _ = q.sparse(sorted=False)
            status, depth, _ = traversal.push_levels(
                A, level, idx, depth, parent=parent, deterministic=deterministic,
                max_edges=FUSED_EDGES)
            if status == "done":
                break
            # on from the frontier the fused levels left: the vertices at level == depth
            seen = level >= 0
            idx = xp.flatnonzero(level == depth)
            q = _frontier(idx, A)
            frontier_size = int(idx.size)
            edges_frontier, edges_left = _to_host(xp, out_degree[idx].sum(),
                                                  xp.where(seen, 0, out_degree).sum())
            if direction == "auto" and edges_frontier > edges_left / ALPHA:
                pushing = False
            if pushing and frontier_size <= FUSED_FRONTIER and edges_frontier <= FUSED_EDGES:
                continue  # handed back at its level limit: fuse again
        depth += 1
        if depth > n:  # a shortest path has at most n - 1 edges: a frontier this deep is a bug
            raise RuntimeError(f"bfs: frontier still non-empty after {n} levels (n = {n})")
        seen_v = sr.Vector.from_dense(seen, device=A.device)  # a view, no copy
        # push:  q⟨¬seen⟩ = q any.secondi A      (SpMSpV: the frontier's out-edges)
        # pull:  q⟨¬seen⟩ = Aᵀ any.secondi q     (masked SpMV: first in-neighbour in q wins)
        q = sr.vxm(q, A, semiring, mask=seen_v, complement=True,
                   direction="push" if pushing else "pull")
        # level⟨q⟩ = depth,  parent⟨q⟩ = q,  seen⟨q⟩ = true
        if q.form == "bitmap":  # a pull's dense result: no index list needed for the next pull
            vals, pres = q.bitmap()
            xp.copyto(level, depth, where=pres)
            seen |= pres
            if parents:
                xp.copyto(parent, vals, where=pres)
            frontier_size, edges_frontier = _to_host(xp, xp.count_nonzero(pres),
                                                     xp.where(pres, out_degree, 0).sum())
        else:
            idx, vals = q.sparse(sorted=False)
            frontier_size = int(idx.size)
            level[idx] = depth
            seen[idx] = True
            if parents:
                parent[idx] = vals
            if frontier_size and (direction == "auto" or frontier_size <= FUSED_FRONTIER):
                edges_frontier = int(out_degree[idx].sum())  # the switch's inputs: one more sync
        if frontier_size == 0:
            break
        edges_left -= edges_frontier
    return (level, parent) if parents else level


def _frontier(idx, A):
    """A frontier of unique vertices as a sparse bool vector (trusted: no checks, no sort)."""
    return sr.Vector(A.nrows, np.bool_, A.device, indices=idx,
                     svalues=A.xp.ones(idx.size, dtype=bool), jumbled=True)


def _to_host(xp, *scalars):
    """Device scalars to Python ints with one synchronization."""
    return [int(v) for v in (xp.stack(scalars).get() if xp is not np else scalars)]
