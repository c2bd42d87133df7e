"""Triangles: the total count, the count through each vertex, and the local clustering
coefficient, as masked SpGEMM (Azad, Buluç & Gilbert 2015; Wolf et al.'s Sandia variants,
as in LAGraph's LAGr_TriangleCount).

The undirected graph: only A's structure is read (explicit zeros are edges; values are
ignored), self-loops are dropped (NetworkX ignores them), and A must be structurally
symmetric (an undirected graph stored both ways, as ``Matrix.from_networkx`` and the bench
generators store it). An asymmetric A is refused with :class:`semiring.InvalidValue` unless
``symmetrize=True``, which takes the undirected graph of A ∪ Aᵀ (an edge {i, j} where either
direction is present: NetworkX's ``G.to_undirected()``). :func:`clustering` also has
NetworkX's directed definition (``directed=True``).

Orientation. Each undirected edge is kept once, pointing from the higher-ranked end to the
lower-ranked one: D(i, j) for rank(j) < rank(i). With ``order="degree"`` the rank is (degree,
index) ascending (the degree ordering of Cohen 2009 / Schank & Wagner 2005: every vertex has
at most √(2m) higher-ranked neighbours, the columns of D and the rows of Dᵀ, so hubs are
cheap); with ``order="index"`` it is the index and D is
the strict lower triangle L. A triangle k < j < i (in rank) then appears exactly once in

    C⟨D⟩ = D plus.pair Dᵀ    at (i, j)  (k is the common lower neighbour: Sandia "dot", LUT)
    C⟨D⟩ = D plus.pair D     at (i, k)  (j is the middle vertex: Sandia_LL)

The first counts the total (``method="dot"``: Gustavson's row-wise expansion of D·Dᵀ with the
mask applied to each product). ``method="dot3"`` takes the same product the other way up,

    C⟨U⟩ = U plus.pair Uᵀ    at (i, j)  with U = Dᵀ   (k is the common higher neighbour)

each entry one dot product (mxm's ``method="dot"``, SuiteSparse's dot3): the intersection of
the rows U(i, :) and U(j, :), the higher-ranked neighbours of i and of j. In the degree order
those rows hold at most √(2m) entries (D's rows hold a hub's whole neighbourhood): at
Kronecker 18 the longest row of U has 417 entries against D's 25 270, and Σ over the edges of
the shorter row's length times log of the longer is 2.5·10⁹ against 7.2·10⁹ (the orientation
of Schank & Wagner's "forward" algorithm and of the GPU counters that intersect short
adjacency lists, e.g. Green et al. 2014). The per-vertex counts take both products (each by mxm's own choice
of method): t(v) = (triangles where v is the top: the row sums of D·D) + (v the bottom: its
column sums) + (v the middle: the column sums of D·Dᵀ): ``method="mxm"``. On a CPU with
Numba they come instead (``method="forward"``) from the support of every edge, the triangles
through it, by the compiled forward listing that k_truss peels from (Schank & Wagner 2005:
each vertex's higher-ranked neighbours marked, each of them scanning its own higher-ranked
list against the marks, each triangle found once): a triangle through v lies on two of v's
edges, so t(v) is half the sum of the supports over v's row.

On the GPU the products' fixed cost (a chain of launches and host round trips, 2-5 ms) is
most of a small graph's call, so 'auto' takes the forward listing there too, as one fused
mechanism (:func:`semiring.triangles.forward`: a thread an entry, or the orientation made first
and a thread an oriented entry, long walks a warp each), for the per-vertex counts always and for
the count below :data:`GPU_FORWARD_MAX_ENTRIES` stored entries or up to
:data:`GPU_FORWARD_MAX_SKEW`.
"""

from __future__ import annotations

import importlib

import numpy as np

import semiring as sr

from .cores import _check_flag, bincount

__all__ = ["clustering", "triangle_count", "triangles"]

ORDERS = ("degree", "index")
METHODS = ("auto", "dot3", "dot", "dot_upper", "ll", "forward")
# picked by measurement (CPU, kron-16: see the report / docs): degree order
DEFAULT_ORDER = "degree"
DEFAULT_METHOD = "auto"
# method="auto" on each device (bench/probes/tc_bc_probe.py measures them). GPU (H100, best of
# 3): kron-20 dot3 78.0 ms (downward D; the upward U is the faster, below) against dot
# (Gustavson) 627 ms; kron-22 dot3 169 ms (U: orientation 39 ms, product 127 ms; downward D's
# product 350 ms) against 13 992 ms for dot before; urand-22 dot3 57.3 ms. CPU, kron-16 on a
# shared 2-core host: dot 8.0 s, dot3 11.8 s (an earlier run: 17.5 s and 11.1 s) by the NumPy
# paths; with the compiled dot3 (Numba, the `cpu` extra; session 11, loaded 2-core host, best
# of 3, the whole count): kron-14 dot 762 ms, dot3 42 ms, SciPy's masked U @ U 140 ms;
# urand-14 280 / 34 / 69 ms. AUTO_METHOD_CPU_COMPILED where the compiled kernels run.
AUTO_METHOD = {"gpu": "dot3", "cpu": "dot"}
AUTO_METHOD_CPU_COMPILED = "dot3"
#: GPU input with fewer stored entries than this takes ``method="forward"`` under 'auto' in
#: :func:`triangle_count`: the forward listing in two launches and one copy back
#: (:func:`semiring.triangles.forward`), where the products' chain of launches and host round
#: trips (symmetry test, orientation, product, reduction) costs 2-5 ms whatever the size. Its
#: walks are unbalanced on skewed graphs, where the product wins from ~3·10⁶ entries. H200,
#: ms, 'forward' / 'dot3' (bench/probes/tc_forward_bound.py, bench/results/session25/):
#: urand-13-ef4 0.062 / 3.02, urand-18-ef8 (4 194 146 entries) 1.21 / 4.42, grid 1000²
#: (3 996 000) 0.22 / 4.93, kron-16 (1 819 718) 3.54 / 5.04, kron-17 (3 729 472) 8.26 / 6.07
#: (the one loss below the bound), kron-18 (7 612 004) 21.9 / 11.7.
GPU_FORWARD_MAX_ENTRIES = 1 << 22
#: Past :data:`GPU_FORWARD_MAX_ENTRIES` 'auto' still counts by 'forward' where A's longest
#: row is at most this many times its mean row. Since the listing's 'oriented' variant
#: (session 28) only the most skewed graphs keep dot3. H200, session 28, ms, 'forward' /
#: 'dot3' (bench/probes/tc_oriented.py, bench/results/session28/): urand-20 (longest row 2x
#: the mean) 2.18 / 16.2, urand-22 (2x) 8.60 / 52.0, kron-18 (870x) 6.08 / 9.09, kron-20
#: (2168x) 32.3 / 34.9, kron-22 (5324x) 201 / 164. One reduction and a sync tell, at a size
#: where a count takes milliseconds.
GPU_FORWARD_MAX_SKEW = 4096
#: The per-vertex counts of :func:`triangles` and the undirected :func:`clustering` take the
#: listing on the GPU whatever the size: against 'mxm' (two masked products and three
#: reductions) it won on every graph measured, ms: urand-13-ef4 0.32 / 7.49, grid 1000² 0.65 /
#: 14.3, kron-17 9.19 / 84.3, kron-18 22.9 / 156 (session 25, tc_forward_bound.py); since the
#: 'oriented' variant kron-18 7.58, kron-20 37.0, kron-22 214, urand-22 8.40 (session 28).

#: How :func:`triangles` and :func:`clustering` count the triangles through each vertex:
#: 'mxm', the two masked products of :func:`_per_vertex` on A's device; 'forward', the
#: support of every edge by the forward triangle listing (Schank & Wagner 2005, the kernel
#: of k_truss's 'wc': :func:`semiring.backend.cpu.compiled.edge_supports`) on the host, and
#: t(v) = half the sum of the supports of v's edges (a triangle through v lies on two of
#: them). 'forward' runs compiled where Numba is installed, else the same loops interpreted.
VERTEX_METHODS = ("auto", "mxm", "forward")
#: ``method="auto"`` of :func:`triangles` and :func:`clustering`, per device: 'forward' on
#: a CPU where Numba is installed, 'mxm' without it and on the GPU (the shared 2-core host,
#: session 19, best of 3 in three runs, triangles: kron-16 'mxm' 4.7–5.5 s against 'forward' 0.68–0.74 s, kron-14
#: 0.74–1.14 s / 0.056–0.077 s, grid 300×300 60–79 / 5.4–9.7 ms; NetworkX's own triangles
#: 130 ms on kron-12, 'forward' 8 ms: bench/results/session19/tri15_report.md). Two dot3 products
#: (U·Uᵀ and U·Dᵀ masked by U, the third share from the second) took 1.7 s on kron-16.
#: Without Numba the interpreted listing loses to the NumPy products on grid 300×300 (341
#: against 134 ms) and kron-14 (2.4 against 1.6 s). The total count stays on dot3 (kron-16
#: 0.23 s: each triangle once at one edge, no per-edge sums).
#: On the GPU 'forward' too (the listing's kernels need no Numba).
VERTEX_AUTO_METHOD = {"cpu": "forward", "gpu": "forward"}
#: GPU input with fewer stored entries than this is taken by the directed :func:`clustering`'s
#: 'auto' to a host copy, its answer copied back: the GPU's products cost ~2.8 ms of launches
#: and host round trips whatever the size (the undirected counts have 'forward' instead). On
#: an H200 (``python -m bench --suite small``, bench/results/session20/small_gpu/) the GPU
#: counted urand-10-ef4 (8150 entries) in 2.82 ms against the host's 0.455 ms (NumPy paths:
#: that host has no Numba) and SciPy's 0.723 ms; the 100 × 100 grid (39 600) in 2.45 against
#: 1.49 (SciPy 1.47); urand-13-ef4 (65 498) in 2.77 against 3.2.
HOST_MAX_ENTRIES = 1 << 16


def _small_gpu(A, method="auto"):
    """Whether ``A`` (a Matrix) goes to the host route: GPU input below
    :data:`HOST_MAX_ENTRIES` with the method left to 'auto'."""
    return (isinstance(method, str) and method == "auto" and A.device == "gpu"
            and A.nvals < HOST_MAX_ENTRIES)


def _forward_gpu(A, vertices=False) -> bool:
    """Whether 'auto' takes 'forward' for ``A`` (a Matrix) on the GPU: the per-vertex counts
    (``vertices``) always, the count below :data:`GPU_FORWARD_MAX_ENTRIES` and past it where
    A's longest row is at most :data:`GPU_FORWARD_MAX_SKEW` times its mean row."""
    if A.device != "gpu":
        return False
    if vertices or A.nvals < GPU_FORWARD_MAX_ENTRIES:
        return True
    # the longest row against the mean row, nvals / n
    return int(A.xp.diff(A.indptr).max()) * A.nrows <= GPU_FORWARD_MAX_SKEW * A.nvals


def _pattern(A, dtype=np.int64):
    """A's structure as a structure-only matrix of ones (no values read or copied)."""
    return sr.Matrix(A.indptr, A.indices, None, A.shape, iso_value=1, dtype=dtype)


def _is_symmetric(A) -> bool:
    """Whether A's structure equals Aᵀ's (canonical CSR both: compare the arrays)."""
    xp = sr.array_module(A.device)
    AT = A.T
    return bool(xp.array_equal(A.indptr, AT.indptr)) and bool(xp.array_equal(A.indices, AT.indices))


def _undirected(op, A, symmetrize, loops=False):
    """The undirected simple graph of A: a symmetric structure-only int64 matrix, no
    self-loops (``loops``: A's self-loops kept). Refuses an asymmetric A unless
    ``symmetrize``."""
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    symmetrize = _check_flag(op, "symmetrize", symmetrize)
    G = _pattern(A)
    symmetric = _is_symmetric(A)
    if symmetrize and not symmetric:
        # G = G ∪ Gᵀ
        G = _pattern(sr.ewise_add(G, G.T, "any"))
    elif not symmetric:
        raise sr.InvalidValue(f"{op}: A must be structurally symmetric (an undirected graph: A(i, j) "
                              f"present exactly where A(j, i) is); pass symmetrize=True for the "
                              f"undirected graph of A ∪ Aᵀ")
    if loops:
        return G
    # G = offdiag(G)   (self-loops never close a triangle, and NetworkX ignores them)
    return _pattern(sr.select(G, "offdiag"))


def _oriented(G, order, upward=False):
    """D: each edge of the symmetric G once, from the higher-ranked end to the lower one
    (``upward``: U = Dᵀ, from the lower-ranked end to the higher one, built directly)."""
    if order == "index":
        # D = tril(G, -1)   (U = triu(G, 1))
        return _pattern(sr.select(G, "triu", 1) if upward else sr.select(G, "tril", -1))
    xp = sr.array_module(G.device)
    n = G.nrows
    # rank = (degree, index) ascending; keep (i, j) where rank(j) < rank(i)
    deg = xp.diff(G.indptr).astype(xp.int64)
    # the row of each entry
    rows = G.entry_rows()
    cols = G.indices.astype(xp.int64)
    keep = (deg[cols] < deg[rows]) | ((deg[cols] == deg[rows]) & (cols < rows))
    if upward:
        keep = ~keep  # G has no self-loops: every other entry is the other direction
    counts = xp.bincount(rows[keep], minlength=n) if n else xp.zeros(0, dtype=xp.int64)
    indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)]).astype(G.indptr.dtype)
    return sr.Matrix(indptr, G.indices[keep], None, G.shape, iso_value=1, dtype=np.int64)


def _compiled():
    return importlib.import_module("semiring.backend.cpu.compiled")


def _check_choice(op, arg, value, choices):
    # (a str first: `in` compared an array elementwise, NumPy's ambiguous-truth ValueError)
    if not isinstance(value, str) or value not in choices:
        raise sr.InvalidValue(f"{op}: {arg} must be one of {choices}, got {value!r}")


def _dense(v):
    """A Vector's values as a full int64/float64 array (0 where absent)."""
    return v.to_dense(missing=0)


def triangle_count(A, *, symmetrize=False, method=DEFAULT_METHOD, order=DEFAULT_ORDER):
    """The number of triangles of an undirected graph.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The undirected graph: structurally symmetric, only the structure is read (explicit
        zeros are edges); self-loops are ignored. Runs where ``A`` lives (CPU or GPU).
    symmetrize : bool
        Count the triangles of the undirected graph of A ∪ Aᵀ instead of refusing an
        asymmetric A.
    method : {'auto', 'dot3', 'dot', 'dot_upper', 'll', 'forward'}
        ``'dot3'``: ``C⟨U⟩ = U plus.pair Uᵀ`` with U = Dᵀ (each vertex's higher-ranked
        neighbours), one dot product per entry of U (``mxm``'s ``method='dot'``: rows U(i, :)
        and U(j, :), both short in the degree order, intersected: each triangle once, at its
        bottom and middle vertices, found through the top one); ``'dot'``: ``C⟨D⟩ = D
        plus.pair Dᵀ`` by Gustavson's expansion (Sandia LUT: each triangle once, at its top and middle
        vertices, found through the bottom one); ``'dot_upper'``: the same symmetric product
        masked by Dᵀ instead (each triangle at (middle, top): the same products, but a row's
        mask, and so its table, is its short list of higher-ranked neighbours rather than a
        hub's long list of lower-ranked ones); ``'ll'``: ``C⟨D⟩ = D plus.pair D`` (Sandia LL)
        by Gustavson. The count is ``Σ C`` in each case. ``'forward'``: the forward listing,
        no product (:func:`semiring.triangles.forward`: on the GPU a thread an entry, long
        walks a warp each, two launches; on the CPU the edge supports of the compiled
        listing, interpreted without Numba). ``'auto'``: 'forward' for GPU input below
        :data:`GPU_FORWARD_MAX_ENTRIES` stored entries or of even degrees
        (:data:`GPU_FORWARD_MAX_SKEW`), else ``AUTO_METHOD`` of A's device.
    order : {'degree', 'index'}
        How each edge is oriented (see the module's docstring): by (degree, index) ranks, or
        by index (D = the strict lower triangle L).

    Returns
    -------
    int

    Raises
    ------
    semiring.InvalidValue
        A is not structurally symmetric and ``symmetrize`` is False.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> import algorithms
    >>> K5 = sr.Matrix.from_dense(np.ones((5, 5)) - np.eye(5), missing=0, device="cpu")
    >>> algorithms.triangle_count(K5)
    10
    """
    op = "triangle_count"
    _check_choice(op, "method", method, METHODS)
    _check_choice(op, "order", order, ORDERS)
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    symmetrize = _check_flag(op, "symmetrize", symmetrize)
    if method == "forward" or (method == "auto" and _forward_gpu(A)):
        return _forward(op, A, symmetrize, False)[1]
    G = _undirected(op, A, symmetrize)
    if method == "auto":
        method = AUTO_METHOD[G.device]
        if G.device == "cpu" and _compiled().ENABLED:
            method = AUTO_METHOD_CPU_COMPILED
    if method == "dot3":
        # U = Dᵀ: each vertex's higher-ranked neighbours (rows of at most √(2m) in the degree
        # order, where D's rows hold a hub's whole neighbourhood)
        U = _oriented(G, order, upward=True)
        # C⟨U⟩ = U plus.pair Uᵀ   (C(i, j) = U(i, :) · U(j, :): one dot product an entry;
        # sr.dot3 reads Uᵀ's columns as U's rows: no transpose is made)
        C = sr.dot3(U, U, sr.plus_pair, mask=U)
        return int(sr.reduce_scalar(C)) if C.nvals else 0
    D = _oriented(G, order)
    if method == "ll":
        # C⟨D⟩ = D plus.pair D
        C = sr.mxm(D, D, sr.plus_pair, mask=D.S, method="gustavson")
    else:
        # C⟨D⟩ = D plus.pair Dᵀ   ('dot_upper': C⟨Dᵀ⟩, the same symmetric product)
        C = sr.mxm(D, D.T, sr.plus_pair, mask=D.S if method == "dot" else D.T.S,
                   method="gustavson")
    # count = Σ C
    return int(sr.reduce_scalar(C)) if C.nvals else 0


def _per_vertex(D, semiring=sr.plus_pair, W=None):
    """Σ over the triangles through each vertex of 1 (or of the product of W's three edge
    values, W holding the values of the oriented edges of D): the top, middle and bottom
    shares of the two oriented products."""
    n = D.nrows
    xp = sr.array_module(D.device)
    X = D if W is None else W
    # C1⟨D⟩ = D ⊕.⊗ Dᵀ: at (top, middle), summed over the bottom vertex
    C1 = sr.mxm(X, X.T, semiring, mask=D.S)
    # C2⟨D⟩ = D ⊕.⊗ D: at (top, bottom), summed over the middle vertex
    C2 = sr.mxm(X, X, semiring, mask=D.S)
    if W is not None:
        # Cᵢ = Cᵢ .* W   (the third edge's weight)
        C1 = sr.ewise_mult(C1, W, "times")
        C2 = sr.ewise_mult(C2, W, "times")
    if not n:
        return xp.zeros(0, dtype=np.int64 if W is None else np.float64)
    # t = rowsum(C2) + colsum(C2) + colsum(C1)
    return _dense(sr.reduce_rows(C2)) + _dense(sr.reduce_cols(C2)) + _dense(sr.reduce_cols(C1))


def _vertex_method(op, method, A, directed=False):
    """The per-vertex method to run for the Matrix ``A``: ``method`` checked, 'auto'
    resolved."""
    _check_choice(op, "method", method, VERTEX_METHODS)
    if directed:
        if method == "forward":
            raise sr.InvalidValue(f"{op}: method='forward' needs directed=False (the directed "
                                  f"coefficient weighs each triangle by its reciprocated edges, "
                                  f"which edge supports do not hold); got directed=True")
        return "mxm"
    if method != "auto":
        return method
    return _vertex_auto(A.device)


def _vertex_auto(device):
    """triangles' and clustering's ``method="auto"`` on ``device`` (undirected):
    :data:`VERTEX_AUTO_METHOD`'s, 'mxm' on a CPU without Numba (the NetworkX backend's cost
    model asks it too)."""
    method = VERTEX_AUTO_METHOD[device]
    return "mxm" if device == "cpu" and method == "forward" and not _compiled().ENABLED \
        else method


def _forward(op, A, symmetrize, vertices):
    """(G, count, t) by the forward listing (:func:`semiring.triangles.forward`): G the
    undirected graph read, A itself where A is symmetric (self-loops kept: the listing skips
    them), else A ∪ Aᵀ's pattern (``symmetrize``) or the refusal."""
    got = sr.triangles.forward(A, vertices=vertices)
    if got is not None:
        return (A, *got)
    # the listing's symmetry check failed: G = A ∪ Aᵀ, or _undirected's refusal
    G = _undirected(op, A, symmetrize, loops=True)
    return (G, *sr.triangles.forward(G, vertices=vertices))


def _vertex_triangles(op, A, symmetrize, order, method):
    """(G, t): the undirected graph of A and the triangles through each vertex, by
    ``method`` (resolved). For 'forward' G keeps A's self-loops (the listing skips them,
    and dropping them would cost a pass over the pattern)."""
    if method == "forward":
        G, _, t = _forward(op, A, symmetrize, True)
        return G, t
    G = _undirected(op, A, symmetrize)
    return G, _per_vertex(_oriented(G, order))


def _simple_degree(G):
    """Each vertex's neighbours other than itself in the symmetric pattern G (float64)."""
    xp = sr.array_module(G.device)
    rows = G.entry_rows()
    loop = rows == G.indices
    return xp.diff(G.indptr).astype(np.float64) - bincount(xp, rows[loop], G.nrows)


def triangles(A, *, symmetrize=False, order=DEFAULT_ORDER, method="auto"):
    """The number of triangles through each vertex of an undirected graph (NetworkX's
    ``triangles``).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The undirected graph, as in :func:`triangle_count`.
    symmetrize : bool
        Use the undirected graph of A ∪ Aᵀ instead of refusing an asymmetric A.
    order : {'degree', 'index'}
        The orientation of the edges in the products of ``method='mxm'`` (see the module's
        docstring); 'forward' orients by degree itself. The same answer.
    method : {'auto', 'mxm', 'forward'}
        ``'mxm'``: two masked products on A's device (top, middle and bottom shares of each
        vertex). ``'forward'``: the forward triangle listing on A's device
        (:func:`semiring.triangles.forward`): on the GPU a few launches, each triangle's three
        vertices counted where it is found; on the CPU every edge's support (compiled by
        Numba where it is installed, else interpreted, far slower), t(v) half the sum over
        v's edges. ``'auto'``: :data:`VERTEX_AUTO_METHOD` of A's device ('forward'; 'mxm'
        on a CPU without Numba). The same answer.

    Returns
    -------
    array of int64, shape (n,)
        A NumPy or CuPy array on A's device; its sum is three times :func:`triangle_count`.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]]))
    >>> algorithms.triangles(A)
    array([1, 1, 1, 0])
    """
    op = "triangles"
    _check_choice(op, "order", order, ORDERS)
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    symmetrize = _check_flag(op, "symmetrize", symmetrize)
    _, t = _vertex_triangles(op, A, symmetrize, order, _vertex_method(op, method, A))
    return t.astype(np.int64, copy=False)  # (the counts are a fresh array: no copy needed)


def clustering(A, *, directed=False, symmetrize=False, order=DEFAULT_ORDER, method="auto"):
    """The local clustering coefficient of each vertex (NetworkX's unweighted
    ``clustering``).

    Undirected (``directed=False``): ``c(v) = 2 t(v) / (deg(v) (deg(v) − 1))`` with t(v) the
    triangles through v and deg(v) its neighbours other than itself; 0 where deg(v) < 2 or
    t(v) = 0. Directed (``directed=True``; Fagiolo 2007, as NetworkX computes it for a
    DiGraph): with S = A + Aᵀ over the structure without self-loops,
    ``c(v) = (S³)(v, v) / (2 (dₜ(v) (dₜ(v) − 1) − 2 d↔(v)))``, dₜ the in- plus out-degree and
    d↔ the number of reciprocated edges; equal to the undirected coefficient on a symmetric A.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        Only the structure is read (explicit zeros are edges); self-loops are ignored.
        ``directed=False``: structurally symmetric, as in :func:`triangle_count`;
        ``directed=True``: edges ``A(i, j)``: i → j, any structure.
    directed : bool
        NetworkX's directed clustering (a DiGraph) instead of the undirected one (a Graph).
    symmetrize : bool
        ``directed=False`` only: use the undirected graph of A ∪ Aᵀ instead of refusing an
        asymmetric A.
    order : {'degree', 'index'}
        The orientation of the edges in the products (see the module's docstring).
    method : {'auto', 'mxm', 'forward'}
        How the triangles through each vertex are counted, as in :func:`triangles`.
        ``directed=True`` runs 'mxm' ('auto'; 'forward' is refused: the directed coefficient
        weighs each triangle by its reciprocated edges), GPU input below
        :data:`HOST_MAX_ENTRIES` stored entries on a host copy.

    Returns
    -------
    array of float64, shape (n,)
        A NumPy or CuPy array on A's device.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]]))
    >>> algorithms.clustering(A)
    array([1.        , 1.        , 0.33333333, 0.        ])
    >>> B = sp.csr_matrix(np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]]))  # a directed 3-cycle
    >>> algorithms.clustering(B, directed=True)
    array([0.5, 0.5, 0.5])
    """
    op = "clustering"
    _check_choice(op, "order", order, ORDERS)
    directed = _check_flag(op, "directed", directed)
    symmetrize = _check_flag(op, "symmetrize", symmetrize)
    if directed and symmetrize:
        raise sr.InvalidValue(f"{op}: symmetrize=True needs directed=False (the directed "
                              f"coefficient reads both directions of A itself)")
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    if directed and _small_gpu(A, method):
        return sr.to_device(clustering(A._host_copy(), directed=directed, order=order), "gpu")
    method = _vertex_method(op, method, A, directed)
    if not directed:
        G, t = _vertex_triangles(op, A, symmetrize, order, method)
        xp = sr.array_module(G.device)
        t = t.astype(np.float64)
        deg = _simple_degree(G) if method == "forward" else xp.diff(G.indptr).astype(np.float64)
        # c = 2 t / (deg (deg − 1)), 0 where t = 0
        denom = deg * (deg - 1)
        return xp.where(t > 0, 2 * t / xp.where(denom > 0, denom, 1), 0.0)
    xp = sr.array_module(A.device)
    # P = offdiag(A) as ones;  S = P + Pᵀ  (1: one direction, 2: both)
    P = _pattern(sr.select(_pattern(A), "offdiag"))
    S = sr.ewise_add(P, P.T, "plus")
    # dₜ = rowsum(S),  d↔ = the entries of S equal to 2, per row
    dtot = _dense(sr.reduce_rows(S)).astype(np.float64)
    dbi = _dense(sr.reduce_rows(_pattern(sr.select(S, "valueeq", 2)))).astype(np.float64)
    # (S³)(v, v) = 2 Σ over the triangles through v of the product of S's three edge values
    G = _pattern(S)
    D = _oriented(G, order)
    W = sr.ewise_mult(S, D, "first")  # S's values on D's edges
    T = 2 * _per_vertex(D, sr.plus_times, W).astype(np.float64)
    denom = 2 * (dtot * (dtot - 1) - 2 * dbi)
    return xp.where(T > 0, T / xp.where(denom > 0, denom, 1), 0.0)
