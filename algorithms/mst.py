"""Minimum spanning forest by Borůvka's algorithm, as reductions, hooking and pointer jumping.

Every stored entry ``A(i, j) = w`` with i ≠ j is an undirected edge {i, j} of weight w (both
orientations are separate candidate edges, as in ``scipy.sparse.csgraph``; self-loops never
belong to a forest). A ``scipy.sparse`` input's duplicate entries are one entry, their sum
(``Matrix.from_scipy``, as everywhere in ``algorithms``), where SciPy's
``minimum_spanning_tree`` takes them as parallel edges, the lightest winning:
``algorithms.csgraph.minimum_spanning_tree`` reads them as SciPy does. Edges are totally ordered by (weight, position in A's
CSR order): SciPy's Kruskal sorts the same way (a stable argsort of the CSR data), and a
strict total order has exactly one minimum spanning forest, which Borůvka and Kruskal both
find. So the forest here is SciPy's, tie for tie.

Each round (Borůvka 1926; the GraphBLAS form of LAGraph's ``LAGraph_msf``):

- ``R`` holds the rank of each edge between two different components (symmetric: at (u, v)
  and (v, u); built once, and each round keeps its entries whose ends still lie in different
  components, in CSR order, without a sort); each vertex's lightest such edge is a row
  reduction ``m = R min.⊕ 𝟙`` (``reduce_rows(R, min)``), each component's lightest a
  scatter-min ``cmin⟨f⟩ min= m``;
- each component hooks onto the component at the other end of its lightest edge; two that
  chose each other chose the same edge (the ranks are distinct), and the larger root hooks
  under the smaller one, so the hooks form a forest;
- pointer jumping (``p = p[p]`` until stable) flattens it; ``f = p[f]``.

Every component with an outgoing edge hooks, so the number of components at least halves per
round: O(log n) rounds, each O(m) work (no per-level cost on paths).
"""

from __future__ import annotations

import numpy as np

import semiring as sr

from .components import _jump, _rows_of, _scatter_min


def _ranks(xp, w):
    """rank[e] = position of edge e in the order (w, e): a stable sort of the weights."""
    order = xp.argsort(w, kind="stable") if xp is np else xp.argsort(w)
    rank = xp.empty(w.size, dtype=xp.int64)
    rank[order] = xp.arange(w.size, dtype=xp.int64)
    return rank, order.astype(xp.int64)


def _boruvka(n, u, v, w, device, progress=None):
    """The minimum spanning forest of the edges (u[e], v[e]) of weights w[e] in the order
    (w, e); returns a bool array: True for the edges in the forest. u, v, w on ``device``."""
    xp = sr.array_module(device)
    m = int(u.size)
    chosen = xp.zeros(m, dtype=bool)
    if n == 0 or m == 0:
        return chosen
    u = u.astype(xp.int64, copy=False)
    v = v.astype(xp.int64, copy=False)
    rank, order = _ranks(xp, w)
    e = xp.flatnonzero(u != v)  # self-loops never join two components
    # R(u, v) = R(v, u) = rank(e), the least over parallel edges: built once (one sort);
    # each round keeps the entries between two components, in place (no sort)
    R = sr.Matrix.from_coo(xp.concatenate([u[e], v[e]]), xp.concatenate([v[e], u[e]]),
                           xp.concatenate([rank[e], rank[e]]), nrows=n, ncols=n,
                           dup_op=sr.binary.min, device=device)
    r_rows, r_cols, r_vals = _rows_of(xp, R.indptr, R.nvals), R.indices.astype(xp.int64), R.values
    f = xp.arange(n, dtype=xp.int64)  # each vertex's component (its root vertex)
    NONE = m  # larger than every rank
    rounds = 0
    while True:
        cross = f[r_rows] != f[r_cols]
        r_rows, r_cols, r_vals = r_rows[cross], r_cols[cross], r_vals[cross]
        if r_rows.size == 0:
            break
        rounds += 1
        if rounds > max(n, 1).bit_length() + 1:  # the components at least halve a round
            raise RuntimeError(f"Borůvka: more than {rounds - 1} rounds on {n} vertices: a bug")
        counts = xp.bincount(r_rows, minlength=n)
        indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)])
        Rx = sr.Matrix.from_csr(indptr, r_cols, r_vals, (n, n), check=False)
        # m = R min.⊕ 𝟙            (each vertex's lightest edge leaving its component)
        vi, vr = sr.reduce_rows(Rx, "min").to_coo()
        # cmin⟨f⟩ min= m            (each component's lightest leaving edge)
        cmin = xp.full(n, NONE, dtype=xp.int64)
        _scatter_min(xp, cmin, f[vi], vr)
        roots = xp.flatnonzero(cmin < NONE)
        e = order[cmin[roots]]
        # hook each component onto the other end of its lightest edge
        fe_u = f[u[e]]
        other = xp.where(fe_u == roots, f[v[e]], fe_u)
        p = xp.arange(n, dtype=xp.int64)
        p[roots] = other
        # a pair that chose each other chose the same edge: the smaller root stays a root
        mutual = (p[other] == roots) & (roots < other)
        p[roots[mutual]] = roots[mutual]
        chosen[e] = True
        # p = p[p] until stable;  f = p[f]
        f = _jump(xp, p)[f]
        if progress is not None:
            progress(rounds, int(roots.size))
    return chosen


#: GPU input with fewer stored entries than this runs on a host copy, the forest back on the
#: GPU: each Borůvka round costs launches and host round trips whatever its size. On an H200
#: (bench/results/session19/host_policy_h200.md, best of 2, the copies included) the host
#: took 7.1 / 1.7 / 12.8 ms on kron-10 / grid-30 / grid-100 (21K, 3.5K, 40K entries) against
#: 14 / 16 / 22 ms on the GPU, which won from kron-12 and grid-300 on (97K and 359K entries:
#: 14 against 36 ms, 26 against 137 ms; kron-18 29 ms against 4.7 s).
HOST_MAX_ENTRIES = 1 << 16


def minimum_spanning_forest(A, *, progress=None):
    """A minimum spanning forest of the undirected view of ``A``, by Borůvka's algorithm.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph: each stored entry ``A(i, j) = w`` (i ≠ j) is an undirected edge {i, j} of
        weight w, so a symmetric A lists every edge twice and a directed one is read as
        undirected. A scipy.sparse matrix's duplicate entries are summed first (see the
        module's docstring). Explicit zeros are edges of weight 0; negative weights are allowed;
        self-loops are ignored; a structure-only (iso) matrix has all weights equal. Runs
        where ``A`` lives (CPU or GPU; GPU input below :data:`HOST_MAX_ENTRIES` stored
        entries on a host copy, the forest back on the GPU).
    progress : callable, optional
        Called after each round as ``progress(round, hooked_components)``.

    Returns
    -------
    Matrix
        The forest's edges, each once, in A's orientation with A's value (an entry of A);
        A's dtype. Its weight is the least possible, and among forests of equal weight it is
        the one ``scipy.sparse.csgraph.minimum_spanning_tree`` gives: ties are broken by the
        position in A's CSR order, as SciPy's stable sort breaks them. Unlike SciPy's result
        it keeps edges of weight zero (a missing entry is not a zero here).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> X = sp.csr_matrix(np.array([[0, 8, 0, 3], [0, 0, 2, 5], [0, 0, 0, 6], [0, 0, 0, 0]]))
    >>> T = algorithms.minimum_spanning_forest(X)
    >>> T.to_dense(missing=0)
    array([[0, 0, 0, 3],
           [0, 0, 2, 5],
           [0, 0, 0, 0],
           [0, 0, 0, 0]])
    """
    op = "minimum_spanning_forest"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    if A.dtype.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: A's weights must be real numbers, got dtype {A.dtype}")
    if progress is not None and not callable(progress):
        raise sr.DomainMismatch(f"{op}: progress must be callable or None, got "
                                f"{type(progress).__name__}")
    if A.device == "gpu" and A.nvals < HOST_MAX_ENTRIES:
        return minimum_spanning_forest(A._host_copy(), progress=progress).to_gpu()
    xp = A.xp
    rows, cols, vals = A.to_coo()
    w = vals if A.dtype.kind != "b" else vals.astype(xp.int8)
    keep = _boruvka(A.nrows, rows, cols, w, A.device, progress)
    n = A.nrows
    counts = (xp.bincount(rows[keep], minlength=n) if n
              else xp.zeros(0, dtype=xp.int64))
    indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)])
    if A.is_iso:
        return sr.Matrix.from_csr(indptr, cols[keep], None, A.shape, iso_value=A.iso_value,
                                  dtype=A.dtype, check=False)
    return sr.Matrix.from_csr(indptr, cols[keep], vals[keep], A.shape, check=False)
