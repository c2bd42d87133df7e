"""Connected components: weak (Afforest, or FastSV as algebra) and strong (trimming +
coloring, or Tarjan).

Weak components (the components of the undirected view A ∪ Aᵀ) have two named variants
(``method=``; ``"auto"`` picks by :data:`WEAK_AUTO`):

- ``"afforest"``: Afforest (Sutton, Ben-Nun & Barak, IPDPS 2018, "Optimizing Parallel Graph
  Connectivity Computation via Subgraph Sampling"; GAP's ``cc.cc``), the fused mechanism
  :func:`semiring.connectivity.weak_components`: link each vertex's first
  :data:`NEIGHBOR_ROUNDS` neighbours by min-hooking, compress, find the most frequent
  component among :data:`SAMPLES` sampled vertices, link every other edge outside it,
  compress. Its kernels run on the GPU; on the CPU the same labels come from one sequential
  compiled search (Numba; SciPy's without it), faster there than FastSV's rounds
  (``semiring/backend/cpu/components.py``).
- ``"fastsv"``: FastSV as algebra, below.

FastSV (Zhang, Azad & Hu 2020, "FastSV: a distributed-memory connected component algorithm
with fast convergence"; LAGraph's ``LG_CC_FastSV``): every vertex keeps a parent ``f``
(initially itself) and each round

- takes the least grandparent among its neighbours, ``mngp = S min.second gp`` (one SpMV over
  the pattern when it is symmetric, one over it and one over its transpose otherwise),
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
import scipy.sparse.csgraph as _scg

import semiring as sr
from semiring.errors import check_flags


#: A product from a vector with more than n / BETA entries pulls (one masked dot product per
#: output vertex over the pattern's rows, or its transpose's), a sparser one pushes (SpMSpV
#: over the entries' out-edges): the switch of direction-optimizing BFS (Beamer, Asanović &
#: Patterson 2012, §4: β = 24; :data:`algorithms.bfs.BETA`).
BETA = 24

#: Afforest's sampling rounds (k) and sample size: the paper's and GAP's defaults (Sutton,
#: Ben-Nun & Barak 2018, §IV: two neighbour rounds; GAP's ``SampleFrequentElement``: 1024
#: samples).
NEIGHBOR_ROUNDS = 2
SAMPLES = 1024

CONNECTIONS = ("weak", "strong")
STRONG_METHODS = ("auto", "coloring", "tarjan")
WEAK_METHODS = ("auto", "afforest", "fastsv")
#: ``method="auto"`` for weak components, per device: Afforest's kernels on the GPU (H100,
#: bench/probes/cc_probe.py, kron-22 / urand-22 of bench.generators, best of 5: 1.8 / 2.0 ms
#: with the symmetric promise, 3.0 / 3.1 ms without; FastSV 14.7 / 16.2 ms in the same run),
#: a compiled sequential search on the CPU (kron-16 on a 2-core host: SciPy's search 41 ms
#: with the symmetric promise, 80 ms without, against FastSV's 113 / 162 ms; since session
#: 21 the backend's own compiled search, 5 / 12 ms, where Numba is installed).
WEAK_AUTO = {"gpu": "afforest", "cpu": "afforest"}
#: GPU input with fewer stored entries than these runs ``method="auto"`` on A's host copy
#: (kept on A, ``Matrix._host_copy``), the labels copied back: weak components by SciPy's
#: search, strong ones by Tarjan's (SciPy's), where the GPU's coloring costs rounds of
#: launches and host syncs. On an H200 (bench/probes/small_components_gpu.py, best of 50,
#: session 20): weak, urand-10-ef4 (8150 entries) Afforest 0.200 ms against the host copy's
#: 0.150 (SciPy 0.163), the 64 × 64 grid (16 128) 0.242 against 0.212, urand-12-ef4
#: (32 710) 0.190 against 0.513; strong, coloring 3.3-3.9 ms on all five graphs up to
#: urand-13-ef4 (65 498 entries) against the host copy's 0.20-1.35 ms.
WEAK_HOST_MAX_ENTRIES = 1 << 14
STRONG_HOST_MAX_ENTRIES = 1 << 17


def _rows_of(xp, indptr, nnz):
    """The row of each CSR entry, by a binary search over indptr: ``repeat`` with array counts
    is NumPy's (CuPy takes it only from v14)."""
    if nnz == 0:
        return xp.zeros(0, dtype=xp.int64)
    return xp.searchsorted(indptr[1:].astype(xp.int64), xp.arange(nnz, dtype=xp.int64),
                           side="right").astype(xp.int64)


def _structure(A):
    """The structure of A as an iso bool Matrix sharing A's index arrays (no copy)."""
    return sr.Matrix.from_csr(A.indptr, A.indices, None, A.shape, check=False)


def _pattern(A):
    """The structure of A without self-loops, as an iso bool Matrix on A's device."""
    P = _structure(A)
    xp = A.xp
    rows = _rows_of(xp, A.indptr, A.nvals)
    loop = A.indices == rows
    return _keep_entries(P, ~loop) if bool(loop.any()) else P


def _scatter_min(xp, a, idx, vals):
    """a[idx] = min(a[idx], vals), duplicates in idx combined by min (in place)."""
    if xp is np:
        np.minimum.at(a, idx, vals)
    else:  # pragma: no cover - GPU
        try:
            # (ufunc.at: CuPy's scatter; cupyx.scatter_min is deprecated since CuPy 14)
            xp.minimum.at(a, idx, vals)
        except (TypeError, ValueError, NotImplementedError):  # a dtype its atomics do not
            # cover: the least value per index by a sort
            if idx.size == 0:
                return
            o = xp.lexsort(xp.stack([vals, idx]))
            si, sv = idx[o], vals[o]
            head = xp.concatenate([xp.ones(1, dtype=bool), si[1:] != si[:-1]])
            a[si[head]] = xp.minimum(a[si[head]], sv[head])


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
    rows = _rows_of(xp, P.indptr, P.nvals)
    counts = xp.bincount(rows[keep], minlength=n) if n else xp.zeros(0, dtype=xp.int64)
    indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)])
    return sr.Matrix.from_csr(indptr, P.indices[keep], None, P.shape, check=False)


def _is_symmetric(xp, P, PT):
    return bool(xp.array_equal(P.indptr, PT.indptr)) and bool(
        xp.array_equal(P.indices, PT.indices))


def _fastsv(A, progress=None, symmetric=False, P=None, PT=None):
    """FastSV on the undirected view of A; returns f (the least vertex of each one's
    component) as an int64 array on A's device. ``symmetric``: A's pattern is known to be
    symmetric (no transpose needed); P, PT: A's pattern and its transpose when at hand."""
    xp = A.xp
    n = A.nrows
    f = xp.arange(n, dtype=xp.int64)
    if n == 0 or A.nvals == 0:
        return f
    if P is None:
        P = _structure(A)  # self-loops are harmless here: a vertex is its own neighbour
    # the undirected view S = P ∪ Pᵀ: P itself when P is symmetric (one SpMV a round), else
    # a product with P and one with Pᵀ (its cached transpose) each round; forming the union
    # once would cost a set union of 2·nnz keys, more than the rounds it saves
    if not symmetric:
        PT = P.T if PT is None else PT
        symmetric = _is_symmetric(xp, P, PT)
    rounds = 0
    while True:
        rounds += 1
        # mngp = S min.second f          (f = gp: the trees are stars after the jumping)
        mngp = sr.mxv(P, f, sr.min_second, direction="pull").to_dense(missing=n)
        if not symmetric:
            # mngp = min(mngp, Pᵀ min.second f)
            xp.minimum(mngp, sr.mxv(PT, f, sr.min_second, direction="pull").to_dense(missing=n),
                       out=mngp)
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


def _direction(k, n):
    """'pull' for a vector of k entries out of n when k > n / BETA, else 'push'."""
    return "pull" if k * BETA > n else "push"


class _Pair:
    """A pattern P and its transpose PT, so that every product reads rows: a pull over the
    in-edges reads PT's rows, a push along the out-edges P's rows (the engine's own route
    would transpose again for one of the two)."""

    def __init__(self, P, PT):
        self.P, self.PT = P, PT

    def into(self, u, ops, k, n, **mask):
        """t(v) = ⊕_{u → v} u(u): ``ops`` = (semiring with u first, with u second)."""
        if _direction(k, n) == "pull":
            return sr.mxv(self.PT, u, ops[1], direction="pull", **mask)
        return sr.vxm(u, self.P, ops[0], direction="push", **mask)

    def outof(self, u, ops, k, n, **mask):
        """t(v) = ⊕_{v → w} u(w)."""
        if _direction(k, n) == "pull":
            return sr.mxv(self.P, u, ops[1], direction="pull", **mask)
        return sr.vxm(u, self.PT, ops[0], direction="push", **mask)

    def keep(self, ok):
        """The entries (i, j) where ``ok(i, j)`` holds (elementwise over index arrays), with
        their transpose."""
        r, c = _coords(self.P)
        rt, ct = _coords(self.PT)  # PT's entry (i, j) is P's (j, i)
        return _Pair(_keep_entries(self.P, ok(r, c)), _keep_entries(self.PT, ok(ct, rt)))


def _coords(M):
    xp = M.xp
    return _rows_of(xp, M.indptr, M.nvals), M.indices.astype(xp.int64)


MIN = (sr.min_first, sr.min_second)
COUNT = (sr.plus_pair, sr.plus_pair)
REACH = (sr.any_pair, sr.any_pair)


def _trim(G, alive, rep, xp, device):
    """Remove from ``alive`` every vertex on no cycle of the alive subgraph that trimming can
    see: those whose chain of unique in-neighbours (or out-neighbours) ends at a vertex with
    no in-edge (out-edge); each becomes its own component (``rep[v] = v``)."""
    n = alive.size
    ids = xp.arange(n, dtype=xp.int64)
    jumps = max(1, math.ceil(math.log2(max(n, 2)))) + 1
    while True:
        removed = 0
        for side in (G.into, G.outof):
            idx = xp.flatnonzero(alive)
            if idx.size == 0:
                return
            k = int(idx.size)
            # din = alive plus.pair P    (alive in-neighbours; out-neighbours the second time)
            ones = _vector(xp, n, idx, xp.ones(k, dtype=xp.int32), device)
            deg = side(ones, COUNT, k, n).to_dense(missing=0)
            # nb = alive_ids min.first P (the least alive in-neighbour)
            nb = side(_vector(xp, n, idx, idx, device), MIN, k, n).to_dense(missing=n)
            # p(v) = the unique alive in-neighbour where din(v) = 1, else v
            p = xp.where(alive & (deg == 1), nb, ids)
            # follow the chains to their ends by pointer jumping (bounded: a cycle of
            # degree-1 vertices never reaches a fixed point)
            for _ in range(jumps):
                pp = p[p]
                if bool((pp == p).all()):
                    break
                p = pp
            dead = alive & (p[p] == p) & (deg[p] == 0)
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
    PT = P.T
    if _is_symmetric(xp, P, PT):  # strong components of an undirected graph are its
        return _fastsv(A, progress, True, P)  # components: O(log n) rounds, not O(diameter)
    G = _Pair(P, PT)
    alive = xp.ones(n, dtype=bool)
    phase = 0
    while True:
        _trim(G, alive, rep, xp, device)
        idx = xp.flatnonzero(alive)
        if idx.size == 0:
            return rep
        phase += 1
        mask = sr.Vector.from_dense(alive, device=device)
        # forward coloring: c(v) = the least alive vertex that reaches v
        c = xp.where(alive, ids, n)
        front = idx
        while front.size:
            # t⟨alive⟩ = c_front min.first P   (from the vertices whose color changed)
            t = G.into(_vector(xp, n, front, c[front], device), MIN, int(front.size), n,
                       mask=mask)
            ti, tv = t.to_coo()
            better = tv < c[ti]
            front = ti[better]
            c[front] = tv[better]
        # Q = the edges of P inside one color (both ends alive), and Qᵀ
        Q = G.keep(lambda i, j: alive[i] & alive[j] & (c[i] == c[j]))
        # backward reach from the roots (c(v) = v) inside their colors
        reached = alive & (c == ids)
        front = xp.flatnonzero(reached)
        while front.size:
            # b⟨¬reached⟩ = Q any.pair b_front
            t = Q.outof(_vector(xp, n, front, xp.ones(front.size, dtype=bool), device), REACH,
                        int(front.size), n, mask=sr.Vector.from_dense(reached, device=device),
                        complement=True)
            front = t.to_coo()[0]
            reached[front] = True
        rep[reached] = c[reached]
        alive &= ~reached
        if progress is not None:
            progress(phase, int(alive.sum()))


def _tarjan(A):
    """Strong components by SciPy's depth-first search on the host; rep as with coloring."""

    n = A.nrows
    H = A._host_copy()  # (GPU input: the copy kept on A)
    S = sr.Matrix.from_csr(H.indptr, H.indices, None, A.shape, check=False).to_scipy()
    _, lab = _scg.connected_components(S, directed=True, connection="strong")
    # the least vertex of each component: the first occurrence of each label
    first = np.full(max(int(lab.max()) + 1 if n else 0, 1), n, dtype=np.int64)
    np.minimum.at(first, lab, np.arange(n, dtype=np.int64))
    return sr.to_device(first[lab], A.device)


def _weak(A, method, symmetric, progress):
    """int32 labels of A's weak components by ``method`` ('auto' resolved here)."""
    if method == "auto":
        method = WEAK_AUTO[A.device]
        if A.device == "cpu" and not sr.traversal.csgraph_fits(A):  # SciPy's int32 bounds
            method = "fastsv"
    if method == "afforest":
        # labels = the components of A ∪ Aᵀ numbered by least vertex (one fused pass)
        return sr.connectivity.weak_components(A, symmetric=bool(symmetric),
                                               neighbor_rounds=NEIGHBOR_ROUNDS, samples=SAMPLES)
    return _number(A.xp, _fastsv(A, progress, bool(symmetric)))


def _number(xp, rep):
    """Components numbered 0..k-1 in order of their least vertex, as int32."""
    n = rep.size
    roots = xp.flatnonzero(rep == xp.arange(n, dtype=rep.dtype))
    return xp.searchsorted(roots, rep).astype(xp.int32)


def connected_components(A, connection="weak", *, symmetric=False, method="auto",
                         progress=None):
    """Connected components of a graph: weak (of the undirected view) or strong.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph: ``A(i, j)`` stored is an edge i → j (explicit zeros are edges; values are
        not read). Runs where ``A`` lives (CPU or GPU).
    connection : {'weak', 'strong'}
        ``'weak'``: components of A ∪ Aᵀ, by Afforest or FastSV (see ``method`` and the
        module docstring).
        ``'strong'``: i and j share a component when each reaches the other.
    symmetric : bool
        Promise that A's pattern equals Aᵀ's (an undirected graph): Afforest then skips the
        edges of the largest component in its last pass, FastSV skips building the transpose
        (one SpMV a round over A's rows), and strong components are the weak ones. Without
        the promise FastSV and coloring check it (a symmetric pattern goes to FastSV);
        Afforest links every edge instead (right for any pattern).
    method : {'auto', 'afforest', 'fastsv', 'coloring', 'tarjan'}
        Weak: ``'afforest'`` (:func:`semiring.connectivity.weak_components`: Afforest's
        kernels on the GPU, a compiled sequential search on the CPU), ``'fastsv'`` (FastSV as
        algebra, either device), ``'auto'``: :data:`WEAK_AUTO` (Afforest on both; FastSV on
        the CPU beyond SciPy's int32 bounds). Strong: ``'coloring'``: trimming and coloring
        as algebra (either device); ``'tarjan'``: SciPy's depth-first search on the host
        (GPU input is copied to the host, once, and the labels back); ``'auto'``: coloring
        on the GPU from :data:`STRONG_HOST_MAX_ENTRIES` stored entries on, Tarjan on the
        CPU and below that bound, where a sequential O(n + m) search is faster than any
        number of rounds. Weak ``'auto'`` on GPU input below
        :data:`WEAK_HOST_MAX_ENTRIES` entries runs on the host copy too.
    progress : callable, optional
        Called after each round as ``progress(round, changed)`` (FastSV: vertices whose
        parent changed; strong coloring: vertices left). Afforest has no rounds: not
        called.

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
    >>> algorithms.connected_components(A, method="fastsv").tolist()
    [0, 0, 1, 1]
    """
    op = "connected_components"
    symmetric, = check_flags(op, symmetric=symmetric)
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    if not isinstance(connection, str) or connection not in CONNECTIONS:
        raise sr.InvalidValue(f"{op}: connection must be one of {CONNECTIONS}, got {connection!r}")
    if not isinstance(method, str) or method not in STRONG_METHODS + WEAK_METHODS:
        raise sr.InvalidValue(f"{op}: method must be one of {STRONG_METHODS} (strong) or "
                              f"{WEAK_METHODS} (weak), got {method!r}")
    if progress is not None and not callable(progress):
        raise sr.DomainMismatch(f"{op}: progress must be callable or None, got "
                                f"{type(progress).__name__}")
    if connection == "weak":
        if method not in WEAK_METHODS:
            raise sr.InvalidValue(f"{op}: method={method!r} applies to connection='strong'; "
                                  f"weak components take one of {WEAK_METHODS}")
        if method == "auto" and A.device == "gpu" and A.nvals < WEAK_HOST_MAX_ENTRIES:
            return sr.to_device(_weak(A._host_copy(), method, symmetric, progress), "gpu")
        return _weak(A, method, symmetric, progress)
    if method not in STRONG_METHODS:
        raise sr.InvalidValue(f"{op}: method={method!r} applies to connection='weak'; "
                              f"strong components take one of {STRONG_METHODS}")
    if symmetric:  # strong components of a symmetric pattern are its weak ones
        return connected_components(A, symmetric=True, progress=progress)
    if method == "auto":
        method = ("coloring" if A.device == "gpu" and A.nvals >= STRONG_HOST_MAX_ENTRIES
                  else "tarjan")
    rep = _coloring(A, progress) if method == "coloring" else _tarjan(A)
    return _number(A.xp, rep)
