"""Connected components: weak (FastSV) and strong (trimming + coloring), as algebra.

Weak components (the components of the undirected view A ∪ Aᵀ) follow FastSV (Zhang, Azad &
Hu 2020, "FastSV: a distributed-memory connected component algorithm with fast
convergence"; LAGraph's ``LG_CC_FastSV``): every vertex keeps a parent ``f`` (initially
itself) and each round

- takes the least grandparent among its neighbours, ``mngp = S min.second gp`` (one SpMV over
  the symmetric pattern S),
- hooks its tree's root onto it (stochastic hooking, a scatter-min ``f⟨f⟩ min= mngp``) and
  itself onto it (aggressive hooking, ``f = min(f, mngp)``),
- then jumps pointers until every tree is a star (``f = f[f]`` until stable: array gathers).

Labels only decrease, so the parent graph stays a forest whose roots are the least vertex of
each tree; a round with no change ends the search. Full pointer jumping makes every round
start from stars, so a round at least halves the number of trees on any graph: O(log n)
rounds, each one SpMV plus O(log n) gathers, even on a path (no per-level cost). At the end
``f(v)`` is the least vertex of v's component.

Strong components (``connection="strong"``) alternate two steps (Slota, Rajamanickam &
Madduri 2014, "BFS and coloring-based parallel algorithms for strongly connected components
and related problems"; trimming after McLendon et al. 2005):

- **trim**: a vertex without an in-edge (or out-edge) from the remaining vertices is a
  component by itself. Degrees are products (``din = alive plus.pair P``); chains of
  in-degree-1 (out-degree-1) vertices are followed by pointer jumping to their end, so a
  whole directed path or tree hanging off a source is trimmed in one pass, not one vertex
  per round;
- **color**: every remaining vertex takes the least label that reaches it,
  ``c⟨alive⟩ min= c min.first P`` over the changed vertices until none changes; a vertex
  whose color is itself is a root, and the vertices of its color that reach it backwards
  (``b⟨¬b⟩ = Q any.pair b`` over the edges Q inside one color) are its component.

Each coloring round settles at least the component of the least remaining vertex; its cost
is the number of propagation steps (the longest path inside the remaining graph, not the
number of vertices). On a CPU a depth-first search (Tarjan) is the better algorithm: the
default ``method="auto"`` runs SciPy's there (a compiled O(n + m) DFS) and the coloring
algorithm on the GPU; ``method="coloring"`` forces the algebra on either device.
"""

from __future__ import annotations

import math

import numpy as np

import semiring as sr

CONNECTIONS = ("weak", "strong")
STRONG_METHODS = ("auto", "coloring", "tarjan")


def _pattern(A):
    """The structure of A without self-loops, as an iso bool Matrix on A's device."""
    P = sr.select(A, "offdiag")
    return sr.Matrix.from_csr(P.indptr, P.indices, None, P.shape, check=False)


def _scatter_min(xp, a, idx, vals):
    """a[idx] = min(a[idx], vals), duplicates in idx combined by min (in place)."""
    if xp is np:
        np.minimum.at(a, idx, vals)
    else:  # pragma: no cover - GPU
        import cupyx  # noqa: PLC0415

        cupyx.scatter_min(a, idx, vals)


def _jump(xp, f):
    """Pointer jumping: f = f[f] until every tree is a star."""
    while True:
        ff = f[f]
        if bool((ff == f).all()):
            return f
        f = ff


def _keep_entries(P, keep):
    """The entries of the iso pattern P where ``keep`` (one bool per stored entry) holds."""
    xp = P.xp
    n = P.nrows
    rows = xp.repeat(xp.arange(n, dtype=xp.int64), xp.diff(P.indptr).astype(xp.int64))
    counts = xp.bincount(rows[keep], minlength=n) if n else xp.zeros(0, dtype=xp.int64)
    indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)])
    return sr.Matrix.from_csr(indptr, P.indices[keep], None, P.shape, check=False)


def _fastsv(A, progress=None):
    """FastSV on the undirected view of A; returns f (the least vertex of each one's
    component) as an int64 array on A's device."""
    xp = A.xp
    n = A.nrows
    f = xp.arange(n, dtype=xp.int64)
    if n == 0 or A.nvals == 0:
        return f
    P = _pattern(A)
    # S = P ∪ Pᵀ: the undirected view, built once (each round is then one SpMV)
    S = sr.ewise_add(P, sr.transpose(P), "lor")
    rounds = 0
    while True:
        rounds += 1
        # mngp = S min.second f          (f = gp: the trees are stars after the jumping)
        mngp = sr.mxv(S, f, sr.min_second, direction="pull").to_dense(missing=n)
        g = f.copy()
        # g⟨f⟩ min= mngp                 (stochastic hooking: a root takes its star's least
        #                                  neighbouring label)
        _scatter_min(xp, g, f, mngp)
        # g = min(g, mngp)               (aggressive hooking)
        xp.minimum(g, mngp, out=g)
        # g = g[g] until stars           (pointer jumping)
        g = _jump(xp, g)
        if progress is not None:
            progress(rounds, int((g != f).sum()))
        if bool((g == f).all()):
            return f
        f = g


def _vector(xp, n, idx, vals, device):
    return sr.Vector.from_coo(idx, vals, size=n, device=device)


def _min_in_neighbour(P, alive_idx, n, xp, device, transpose=False):
    """t(v) = min{u alive : u → v} (or v → u with ``transpose``), n where none."""
    ids = _vector(xp, n, alive_idx, alive_idx, device)
    if transpose:
        t = sr.mxv(P, ids, sr.min_second)
    else:
        t = sr.vxm(ids, P, sr.min_first)
    return t.to_dense(missing=n)


def _trim(P, alive, rep, xp, device):
    """Remove from ``alive`` every vertex on no cycle of the alive subgraph that trimming can
    see: those whose chain of unique in-neighbours (or out-neighbours) ends at a vertex with
    no in-edge (out-edge); each becomes its own component (``rep[v] = v``)."""
    n = alive.size
    ids = xp.arange(n, dtype=xp.int64)
    jumps = max(1, math.ceil(math.log2(max(n, 2)))) + 1
    while True:
        removed = 0
        for transpose in (False, True):
            idx = xp.flatnonzero(alive)
            if idx.size == 0:
                return
            ones = _vector(xp, n, idx, xp.ones(idx.size, dtype=xp.int32), device)
            # din = alive plus.pair P  (alive in-neighbours; out-neighbours with transpose)
            deg = (sr.mxv(P, ones, sr.plus_pair) if transpose
                   else sr.vxm(ones, P, sr.plus_pair)).to_dense(missing=0)
            # p(v) = the unique alive in-neighbour where din(v) = 1, else v
            nb = _min_in_neighbour(P, idx, n, xp, device, transpose)
            p = xp.where(alive & (deg == 1), nb, ids)
            # follow the chains to their ends by pointer jumping (bounded: a cycle of
            # degree-1 vertices never reaches a fixed point)
            for _ in range(jumps):
                pp = p[p]
                if bool((pp == p).all()):
                    break
                p = pp
            end = p
            dead = alive & (end[end] == end) & (deg[end] == 0)
            k = int(dead.sum())
            if k:
                rep[dead] = ids[dead]
                alive &= ~dead
                removed += k
        if removed == 0:
            return


def _coloring(A, progress=None):
    """Strong components by trimming and coloring; returns rep (the least vertex of each
    one's component) as an int64 array on A's device."""
    xp = A.xp
    n = A.nrows
    device = A.device
    ids = xp.arange(n, dtype=xp.int64)
    rep = ids.copy()
    if n == 0 or A.nvals == 0:
        return rep
    P = _pattern(A)
    rows = xp.repeat(ids, xp.diff(P.indptr).astype(xp.int64))
    cols = P.indices.astype(xp.int64)
    alive = xp.ones(n, dtype=bool)
    phase = 0
    while True:
        _trim(P, alive, rep, xp, device)
        idx = xp.flatnonzero(alive)
        if idx.size == 0:
            return rep
        phase += 1
        mask = sr.Vector.from_dense(alive, device=device)
        # forward coloring: c(v) = the least alive vertex that reaches v
        c = xp.where(alive, ids, n)
        front = idx
        while front.size:
            # t⟨alive⟩ = c_front min.first P   (push from the vertices whose color changed)
            t = sr.vxm(_vector(xp, n, front, c[front], device), P, sr.min_first, mask=mask)
            ti, tv = t.to_coo()
            better = tv < c[ti]
            front = ti[better]
            c[front] = tv[better]
        # Q = the edges of P inside one color (both ends alive)
        keep = alive[rows] & alive[cols] & (c[rows] == c[cols])
        Q = _keep_entries(P, keep)
        # backward reach from the roots (c(v) = v) inside their colors
        reached = alive & (c == ids)
        front = xp.flatnonzero(reached)
        while front.size:
            # b⟨¬reached⟩ = Q any.pair b_front
            t = sr.mxv(Q, _vector(xp, n, front, xp.ones(front.size, dtype=bool), device),
                       sr.any_pair, mask=sr.Vector.from_dense(reached, device=device),
                       complement=True)
            front = t.to_coo()[0]
            reached[front] = True
        rep[reached] = c[reached]
        alive &= ~reached
        if progress is not None:
            progress(phase, int(alive.sum()))


def _tarjan(A):
    """Strong components by SciPy's depth-first search on the host; rep as with coloring."""
    from scipy.sparse.csgraph import connected_components as _cc  # noqa: PLC0415

    n = A.nrows
    S = sr.Matrix.from_csr(sr.to_device(A.indptr, "cpu"), sr.to_device(A.indices, "cpu"),
                           None, A.shape, check=False).to_scipy()
    _, lab = _cc(S, directed=True, connection="strong")
    # the least vertex of each component: the first occurrence of each label
    first = np.full(max(int(lab.max()) + 1 if n else 0, 1), n, dtype=np.int64)
    np.minimum.at(first, lab, np.arange(n, dtype=np.int64))
    return sr.to_device(first[lab], A.device)


def _number(xp, rep):
    """Components numbered 0..k-1 in order of their least vertex, as int32."""
    n = rep.size
    roots = xp.flatnonzero(rep == xp.arange(n, dtype=rep.dtype))
    return xp.searchsorted(roots, rep).astype(xp.int32)


def connected_components(A, connection="weak", *, method="auto", progress=None):
    """Connected components of a graph: weak (of the undirected view) or strong.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph: ``A(i, j)`` stored is an edge i → j (explicit zeros are edges; values are
        not read). Runs where ``A`` lives (CPU or GPU).
    connection : {'weak', 'strong'}
        ``'weak'``: components of A ∪ Aᵀ, by FastSV (see the module docstring).
        ``'strong'``: i and j share a component when each reaches the other.
    method : {'auto', 'coloring', 'tarjan'}
        Strong components only. ``'coloring'``: trimming and coloring as algebra (either
        device); ``'tarjan'``: SciPy's depth-first search on the host (GPU input is copied to
        the host and the labels back); ``'auto'``: coloring on the GPU, Tarjan on the CPU,
        where a sequential O(n + m) search is faster than any number of rounds.
    progress : callable, optional
        Called after each round as ``progress(round, changed)`` (weak: vertices whose parent
        changed; strong coloring: vertices left).

    Returns
    -------
    labels : array of int32, on A's device
        ``labels[v]`` = the number of v's component; components are numbered 0..k-1 in order
        of their least vertex (``labels.max() + 1`` is the number of components).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]))
    >>> algorithms.connected_components(A).tolist()
    [0, 0, 1, 1]
    >>> algorithms.connected_components(A, "strong").tolist()
    [0, 1, 2, 2]
    """
    op = "connected_components"
    A = sr.as_matrix(A, op=op, arg="A")
    if A.nrows != A.ncols:
        raise sr.DimensionMismatch(f"{op}: A must be square, got shape {A.shape}")
    if connection not in CONNECTIONS:
        raise sr.InvalidValue(f"{op}: connection must be one of {CONNECTIONS}, got {connection!r}")
    if method not in STRONG_METHODS:
        raise sr.InvalidValue(f"{op}: method must be one of {STRONG_METHODS}, got {method!r}")
    if progress is not None and not callable(progress):
        raise sr.DomainMismatch(f"{op}: progress must be callable or None, got "
                                f"{type(progress).__name__}")
    xp = A.xp
    if connection == "weak":
        if method != "auto":
            raise sr.InvalidValue(f"{op}: method={method!r} applies to connection='strong'; "
                                  f"weak components always run FastSV (give method='auto')")
        rep = _fastsv(A, progress)
    else:
        if method == "auto":
            method = "coloring" if A.device == "gpu" else "tarjan"
        rep = _coloring(A, progress) if method == "coloring" else _tarjan(A)
    return _number(xp, rep)
