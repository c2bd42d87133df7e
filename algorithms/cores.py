"""k-core decomposition and the k-truss, as peeling loops of masked products.

- :func:`core_number`: every vertex's core number by peeling (Batagelj & Zaveršnik 2003, "An
  O(m) algorithm for cores decomposition of networks"), in the GraphBLAS form of LAGraph's
  ``LAGraph_KCore_All``: degrees are a row reduction of the pattern, and removing a set q of
  vertices lowers their neighbours' degrees by one masked ``plus_pair`` product. The loop is
  the *bucketed* variant: level k removes, round after round, every remaining vertex of degree
  at most k; a round's candidates are only the vertices whose degree just fell, so a round
  costs the removed vertices' edges and only a level costs O(n).
- :func:`k_truss`: the k-truss subgraph by support counting (Cohen 2008, "Trusses: cohesive
  subgraphs for social network analysis"; LAGraph's ``LAGraph_KTruss``): the support of every
  edge is the masked SpGEMM ``C⟨C⟩ = C plus.pair C`` (the triangles through it), edges with
  support below k - 2 are dropped, until nothing is dropped.

Both work on the *undirected view* of A: the pattern of A ∪ Aᵀ, values ignored (explicit zeros
are edges, as everywhere in the algebra), self-loops ignored. NetworkX refuses graphs with
self-loops in ``core_number`` and ``k_truss``; here a self-loop is dropped, so the answers equal
NetworkX's on the graph without its self-loops. A directed graph gives the answers of its
undirected view (NetworkX's ``G.to_undirected()``).
"""

from __future__ import annotations

import numpy as np

import semiring as sr


def _square(A, op):
    A = sr.as_matrix(A, op=op, arg="A")
    if A.nrows != A.ncols:
        raise sr.DimensionMismatch(f"{op}: A must be square (an adjacency matrix), got shape {A.shape}")
    return A


def _count_type(n):
    # counts (degrees, supports) never exceed n: int32 while n fits in it
    return np.dtype(np.int32) if n < 2**31 - 1 else np.dtype(np.int64)


def undirected_pattern(A, op, *, dtype=None):
    """S = offdiag(pattern(A) ∪ pattern(Aᵀ)): a structure-only Matrix whose entries all equal 1
    (of ``dtype``, default the count type), the undirected simple graph of A.

    Shared by :mod:`algorithms.cores` and :mod:`algorithms.community`; ``op`` names the caller
    in error messages.
    """
    A = _square(A, op)
    dt = _count_type(A.nrows) if dtype is None else np.dtype(dtype)
    P = sr.Matrix.from_csr(A.indptr, A.indices, None, A.shape, iso_value=1, dtype=dt, check=False)
    # U = P ∪ Pᵀ  (values are all 1; "first" keeps 1 where both are present)
    U = sr.ewise_add(P, sr.transpose(P), "first")
    # S = offdiag(U)
    U = sr.select(U, "offdiag")
    return sr.Matrix.from_csr(U.indptr, U.indices, None, U.shape, iso_value=1, dtype=dt,
                              check=False)


def core_number(A):
    """The core number of every vertex: the largest k such that the vertex belongs to the
    k-core (the largest subgraph in which every vertex has degree at least k).

    Peeling as algebra (LAGraph ``LAGraph_KCore_All``): ``deg = reduce_rows(S)`` over the
    undirected pattern S, then for k = 0, 1, ... every remaining vertex of degree ≤ k gets core
    number k and is removed, its neighbours' degrees falling by ``d⟨alive⟩ = q plus.pair S``,
    round after round until no remaining vertex has degree ≤ k. Levels with no vertex are
    skipped (k jumps to the smallest remaining degree).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The adjacency matrix. Only its pattern counts, in its undirected view (A ∪ Aᵀ):
        explicit zeros are edges, values are ignored, duplicates cannot occur (a Matrix has
        none; SciPy's are one entry), and self-loops are ignored (NetworkX raises on them).

    Returns
    -------
    array of int64, shape (n,)
        On A's device (NumPy for a CPU matrix, CuPy for a GPU one). Equal to
        ``networkx.core_number`` of the undirected graph without its self-loops.

    Raises
    ------
    DimensionMismatch
        A is not square.
    DomainMismatch
        A is not a sparse matrix.

    Examples
    --------
    A triangle with a pendant vertex and an isolated vertex:

    >>> import semiring as sr, algorithms as alg
    >>> A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [2, 3]], nvertices=5,
    ...                             undirected=True, device="cpu")
    >>> alg.core_number(A)
    array([2, 2, 2, 1, 0])
    """
    op = "core_number"
    S = undirected_pattern(A, op)
    n = S.nrows
    xp = sr.array_module(S.device)
    # deg = S plus.pair 1  (the degree of every vertex: a row reduction of the pattern)
    deg = sr.reduce_rows(S, "plus").to_dense(missing=0).astype(xp.int64)
    alive = xp.ones(n, dtype=bool)
    core = xp.zeros(n, dtype=xp.int64)
    left = n
    k = 0
    while left:
        # next level: k = max(k, min deg over the remaining vertices)   (one O(n) pass a level)
        k = max(k, int(deg[alive].min()))
        q = xp.flatnonzero(alive & (deg <= k))
        while q.size:
            core[q] = k
            alive[q] = False
            left -= int(q.size)
            # d⟨alive⟩ = q plus.pair S   (how many of each vertex's neighbours were removed;
            # the mask is applied to d's entries, not as an O(n) mask vector)
            qv = sr.Vector.from_coo(q, 1, size=n, dtype=S.dtype, device=S.device)
            idx, cnt = sr.vxm(qv, S, sr.plus_pair).sparse(sorted=False)
            keep = alive[idx]
            idx, cnt = idx[keep], cnt[keep]
            deg[idx] -= cnt
            # q = the remaining vertices whose degree fell to k or below
            q = idx[deg[idx] <= k]
    return core


def k_truss(A, k):
    """The k-truss: the largest subgraph in which every edge lies on at least k - 2 triangles
    of the subgraph.

    Support counting as algebra (LAGraph ``LAGraph_KTruss``): starting from the undirected
    pattern C = S, repeat ``C⟨C⟩ = C plus.pair C`` (the support of every edge: its triangles
    in C) and ``C = select(C, support ≥ k - 2)`` until no edge is dropped.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The adjacency matrix, taken as its undirected pattern (A ∪ Aᵀ, values ignored,
        explicit zeros are edges, self-loops ignored: NetworkX raises on them).
    k : int
        For k ≤ 2 every edge is kept (NetworkX's convention).

    Returns
    -------
    Matrix
        n × n, symmetric, on A's device: the edges of the k-truss (both directions), each with
        its support in the truss (the number of triangles of the truss through it) as an int64
        value, as LAGraph returns it. Vertices outside the truss have empty rows. Its edge set
        is the edge set of ``networkx.k_truss`` of the undirected graph without self-loops.

    Raises
    ------
    DomainMismatch
        k is not an integer, or A is not a sparse matrix.
    DimensionMismatch
        A is not square.

    Examples
    --------
    Two triangles sharing the edge (1, 2), plus a tail (3, 4): the 3-truss keeps both
    triangles, the 4-truss nothing (no edge lies on two triangles but (1, 2)).

    >>> import semiring as sr, algorithms as alg
    >>> A = sr.Matrix.from_edgelist([[0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [3, 4]],
    ...                             undirected=True, device="cpu")
    >>> T = alg.k_truss(A, 3)
    >>> T.to_dense(missing=0)
    array([[0, 1, 1, 0, 0],
           [1, 0, 2, 1, 0],
           [1, 2, 0, 1, 0],
           [0, 1, 1, 0, 0],
           [0, 0, 0, 0, 0]])
    >>> alg.k_truss(A, 4).nvals
    0
    """
    op = "k_truss"
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise sr.DomainMismatch(f"{op}: k must be an integer, got {k!r}")
    k = int(k)
    C = undirected_pattern(A, op)
    xp = sr.array_module(C.device)
    if k <= 2:
        # every edge stays; its support: C⟨C⟩ = C plus.pair C, with 0 where it has no triangle
        T = sr.mxm(C, C, sr.plus_pair, mask=C.S)
        Z = sr.Matrix.from_csr(C.indptr, C.indices, None, C.shape, iso_value=0, dtype=C.dtype,
                               check=False)
        C = sr.ewise_add(T, Z, "plus")
    else:
        while True:
            nvals = C.nvals
            # C⟨C⟩ = C plus.pair C   (the support of every edge of C)
            C = sr.mxm(C, C, sr.plus_pair, mask=C.S)
            # C = select(C, C ≥ k - 2)
            C = sr.select(C, "valuege", k - 2)
            if C.nvals == nvals:
                # nothing dropped: the supports were counted in C itself
                break
    vals = C.values if not C.is_iso else xp.full(C.nvals, C.iso_value)
    return sr.Matrix.from_csr(C.indptr, C.indices, vals.astype(xp.int64), C.shape, check=False)
