"""k-core decomposition and the k-truss, as peeling loops of masked products.

- :func:`core_number`: every vertex's core number by peeling (Batagelj & Zaveršnik 2003, "An
  O(m) algorithm for cores decomposition of networks"), in the GraphBLAS form of LAGraph's
  ``LAGraph_KCore_All``: degrees are a row reduction of the pattern, and removing a set q of
  vertices lowers their neighbours' degrees by one masked ``plus_pair`` product. The loop is
  the *bucketed* variant: level k removes, round after round, every remaining vertex of degree
  at most k; a round's candidates are only the vertices whose degree just fell, so a round
  costs the removed vertices' edges and only a level costs O(n).
  On the CPU, where Numba is installed, the default ``method="auto"`` runs instead the
  paper's own sequential bucket algorithm as one compiled O(n + m) pass
  (``semiring.backend.cpu.compiled.core_numbers``): the peeling's rounds are as many as the
  longest chain of vertices that wait on each other (a path of n vertices: n / 2 rounds of a
  few NumPy calls each), which one core runs in far less time as a single loop. The GPU
  keeps the peeling (its rounds are launches over all the removed vertices at once).
- :func:`k_truss`: the k-truss subgraph by support counting (Cohen 2008, "Trusses: cohesive
  subgraphs for social network analysis"; LAGraph's ``LAGraph_KTruss``): the support of every
  edge is the masked SpGEMM ``C⟨C⟩ = C plus.pair C`` (the triangles through it), edges with
  support below k - 2 are dropped, until nothing is dropped. By default the product is
  formed mask-first (dot products over the edges) and later rounds update the supports of
  the surviving edges instead of recounting them. On the CPU, where Numba is installed, the
  default ``method="auto"`` runs instead the sequential truss peeling of Wang & Cheng 2012
  ("Truss decomposition in massive networks") for the one k asked, compiled
  (``semiring.backend.cpu.compiled.truss``): the supports by the forward triangle listing,
  then a queue of the edges below k - 2, each taken closing its surviving triangles and
  lowering their two other edges. The GPU keeps the array passes.

Both work on the *undirected view* of A: the pattern of A ∪ Aᵀ, values ignored (explicit zeros
are edges, as everywhere in the algebra), self-loops ignored. NetworkX refuses graphs with
self-loops in ``core_number`` and ``k_truss``; here a self-loop is dropped, so the answers equal
NetworkX's on the graph without its self-loops. A directed graph gives the answers of its
undirected view (NetworkX's ``G.to_undirected()``).
"""

from __future__ import annotations

import importlib

import numpy as np

import semiring as sr
from semiring.errors import check_bool


#: A bool argument: a bool or NumPy bool, nothing merely truthy (a string "no" is); the
#: engine's own check, so that every flag of the API says the same
_check_flag = check_bool


def _square(A, op):
    A = sr.as_matrix(A, op=op, arg="A")
    if A.nrows != A.ncols:
        raise sr.DimensionMismatch(f"{op}: A must be square (an adjacency matrix), got shape {A.shape}")
    return A


def _count_type(n):
    # counts (degrees, supports) never exceed n: int32 while n fits in it
    return np.dtype(np.int32) if n < 2**31 - 1 else np.dtype(np.int64)


def undirected_pattern(A, op, *, dtype=None, loops=False):
    """S = offdiag(pattern(A) ∪ pattern(Aᵀ)): a structure-only Matrix whose entries all equal 1
    (of ``dtype``, default the count type), the undirected simple graph of A; with
    ``loops=True`` A's self-loops stay.

    Shared by :mod:`algorithms.cores` and :mod:`algorithms.community`; ``op`` names the caller
    in error messages.
    """
    A = _square(A, op)
    dt = _count_type(A.nrows) if dtype is None else np.dtype(dtype)

    def iso(M):
        return sr.Matrix.from_csr(M.indptr, M.indices, None, M.shape, iso_value=1, dtype=dt,
                                  check=False)

    P = iso(A)
    T = sr.transpose(P)
    if not (bool((P.indptr == T.indptr).all()) and bool((P.indices == T.indices).all())):
        # U = P ∪ Pᵀ  (values are all 1; "first" keeps 1 where both are present), unless A's
        # pattern is symmetric already
        P = iso(sr.ewise_add(P, T, "first"))
    # S = offdiag(U)
    return P if loops else iso(sr.select(P, "offdiag"))


#: core_number's methods: the peeling as algebra, or Batagelj & Zaversnik's bucket algorithm
#: (2003, "An O(m) algorithm for cores decomposition of networks") as one sequential pass on
#: the host.
CORE_METHODS = ("auto", "peel", "bz")

#: ``method="auto"`` of :func:`core_number`, per device. CPU: 'bz' where Numba is installed
#: (the compiled pass; without it the same loop runs interpreted, and 'peel' instead). On this
#: project's 2-core host (bench/results/session18/core13.md, best of 3, the undirected
#: pattern included): path 10^5 1983 ms peeling, 2.9 ms compiled (NetworkX 242 ms); grid
#: 300x300 45 / 4.0 ms; Kronecker 16 134 / 34 ms; interpreted, the pass alone took 159 /
#: 215 / 742 ms on those three. GPU: 'bz' too below :data:`CORE_HOST_MAX_ENTRIES` (GPU input
#: to 'bz' goes through the host), 'peel' above it.
CORE_AUTO = {"cpu": "bz", "gpu": "bz"}

#: GPU input with fewer stored entries than this goes to the compiled bucket pass on the host
#: (where Numba is installed). Peeling on the GPU is launch-bound, one round per vertex set
#: peeled: on an H200 (bench/results/session19/host_policy_h200.md, best of 2, the copies to
#: the host and back included) it is slower at every size measured, 143x on kron-10, 67x on
#: grid-300, 19x on grid-1000 (4.0M entries), 2x on kron-18 (7.6M); on kron-20 (31M entries,
#: one call each) peeling won, 1.2 against 1.7 s, the copies outgrowing the pass.
CORE_HOST_MAX_ENTRIES = 1 << 24


def _compiled():
    return importlib.import_module("semiring.backend.cpu.compiled")


def _core_auto(device, nvals=0):
    """core_number's ``method="auto"`` for a matrix of ``nvals`` stored entries on ``device``:
    CORE_AUTO's, 'peel' without Numba and for GPU matrices from CORE_HOST_MAX_ENTRIES on."""
    method = CORE_AUTO[device]
    if method == "bz" and (not _compiled().ENABLED
                           or (device == "gpu" and nvals >= CORE_HOST_MAX_ENTRIES)):
        return "peel"
    return method


def core_number(A, *, method="auto"):
    """The core number of every vertex: the largest k such that the vertex belongs to the
    k-core (the largest subgraph in which every vertex has degree at least k).

    Peeling as algebra (LAGraph ``LAGraph_KCore_All``): ``deg = reduce_rows(S)`` over the
    undirected pattern S, then for k = 0, 1, ... every remaining vertex of degree ≤ k gets core
    number k and is removed, its neighbours' degrees falling by ``d⟨alive⟩ = q plus.pair S``,
    round after round until no remaining vertex has degree ≤ k. Levels with no vertex are
    skipped (k jumps to the smallest remaining degree). Or, ``method="bz"``, Batagelj &
    Zaversnik's bucket algorithm over S on the host: the vertices in bins by degree, taken
    lowest first, each lowering its higher-degree neighbours in O(1) (one O(n + m) pass).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The adjacency matrix. Only its pattern counts, in its undirected view (A ∪ Aᵀ):
        explicit zeros are edges, values are ignored, duplicates cannot occur (a Matrix has
        none; SciPy's are one entry), and self-loops are ignored (NetworkX raises on them).
    method : {'auto', 'peel', 'bz'}
        ``'peel'``: the algebra above, on A's device. ``'bz'``: the bucket pass on the host,
        compiled by Numba where it is installed (the ``cpu`` extra; else interpreted, far
        slower), GPU input copied there and the answer back. ``'auto'``: :data:`CORE_AUTO`
        of A's device: 'bz' where Numba is installed (for GPU input below
        :data:`CORE_HOST_MAX_ENTRIES` stored entries), else 'peel'. The same numbers.

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
    InvalidValue
        method is not one of :data:`CORE_METHODS`.

    Examples
    --------
    A triangle with a pendant vertex and an isolated vertex:

    >>> import semiring as sr, algorithms as alg
    >>> A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [2, 3]], nvertices=5,
    ...                             undirected=True, device="cpu")
    >>> alg.core_number(A)
    array([2, 2, 2, 1, 0])
    >>> alg.core_number(A, method="peel")
    array([2, 2, 2, 1, 0])
    """
    op = "core_number"
    if not isinstance(method, str) or method not in CORE_METHODS:
        raise sr.InvalidValue(f"{op}: method must be one of {CORE_METHODS}, got {method!r}")
    A = _square(A, op)
    if method == "auto":
        method = _core_auto(A.device, A.nvals)
    if method == "peel":
        return _peel(undirected_pattern(A, op))
    # S = pattern(A) ∪ pattern(Aᵀ) with its self-loops, which the pass skips (dropping them
    # here cost more than the pass: Kronecker 16, 23 ms against 16)
    S = undirected_pattern(A, op, loops=True)
    core = _compiled().core_numbers(sr.to_device(S.indptr, "cpu"), sr.to_device(S.indices, "cpu"))
    return sr.to_device(core, S.device)


def _peel(S):
    """core_number by the algebra's peeling (LAGraph_KCore_All), on S's device."""
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


#: k_truss first keeps only the (k - 1)-core of the graph, where core_number's 'auto' is the
#: compiled bucket pass (a CPU with Numba): a vertex of the k-truss has k - 1 neighbours in it
#: (each of its edges lies on k - 2 triangles), so the truss of the core is the truss (Cohen
#: 2008, §3), and the supports are counted over the core's edges only. On this project's
#: 2-core host (bench/results/session18/core13.md) the pass costs 20-80 ms, against supports
#: of seconds on a Kronecker graph; the grid 300x300 at k ≥ 5 has an empty 4-core.
TRUSS_CORE_PRUNE = True

#: k_truss's methods: the supports as the masked product ``C⟨C⟩ = C plus.pair C`` recounted
#: each round ('mxm'), the supports by triangle listing then updated as edges drop ('dot'),
#: both as array passes on A's device; or 'wc', the sequential truss peeling of Wang & Cheng
#: (2012, "Truss decomposition in massive networks") for one k, on the host.
TRUSS_METHODS = ("auto", "dot", "mxm", "wc")

#: ``method="auto"`` of :func:`k_truss`, per device. CPU: 'wc' where Numba is installed (the
#: compiled supports and peeling, :func:`semiring.backend.cpu.compiled.truss`; without Numba
#: 'dot', as the same loops interpreted are far slower). Measured in
#: bench/results/session18/tri14.md. GPU: 'dot' (the peeling is sequential), except below
#: :data:`TRUSS_HOST_MAX_ENTRIES`.
TRUSS_AUTO = {"cpu": "wc", "gpu": "dot"}

#: GPU input with fewer stored entries than this runs on a host copy (CPU's 'auto', the
#: truss back on the GPU) where Numba is installed: on an H200
#: (bench/results/session19/host_policy_h200.md, k = 4, best of 2, copies included) the host
#: took 3.9 / 0.5 / 1.4 ms on kron-10 / grid-30 / grid-100 (21K, 3.5K, 40K entries) against
#: 15 / 5.4 / 5.8 ms on the GPU, which won from kron-12 and grid-300 on (97K, 359K entries:
#: 13 against 21 ms, 7.5 against 11 ms; kron-18 89 ms against 7.9 s).
TRUSS_HOST_MAX_ENTRIES = 1 << 16


def _truss_auto(device):
    """k_truss's ``method="auto"`` on ``device``: TRUSS_AUTO's, 'dot' without Numba."""
    method = TRUSS_AUTO[device]
    return "dot" if method == "wc" and not _compiled().ENABLED else method


#: Largest number of (edge, neighbour) candidates a chunk of the dot-product support expands
#: at once (int64 arrays of this length, a few of them live at a time).
SUPPORT_CHUNK = 1 << 24


def bincount(xp, x, minlength, weights=None):
    """``xp.bincount(x, weights, minlength)`` that takes an empty x (CuPy's reduces x.max())."""
    if x.size == 0:
        return xp.zeros(minlength, dtype=xp.int64 if weights is None else xp.float64)
    return xp.bincount(x, weights=weights, minlength=minlength)


def segment_ids(xp, counts):
    """The segment of every slot of consecutive segments of the given lengths (NumPy's
    ``repeat(arange(len(counts)), counts)``; CuPy's ``repeat`` takes no device array)."""
    ends = xp.cumsum(counts.astype(xp.int64))
    total = int(ends[-1]) if counts.size else 0
    return xp.searchsorted(ends, xp.arange(total, dtype=xp.int64), side="right")


def expand(xp, counts):
    """For segments of the given lengths: (segment of each slot, offset within it)."""
    counts = counts.astype(xp.int64)
    seg = segment_ids(xp, counts)
    return seg, xp.arange(seg.size, dtype=xp.int64) - (xp.cumsum(counts) - counts)[seg]


def edge_support(C):
    """T⟨C⟩ = C plus.pair Cᵀ for a symmetric pattern C without diagonal, as the values of
    C's entries (int64, in C's entry order): the triangles through each edge.

    Mask-first, by listing every triangle once over the degree-ordered orientation (Chiba &
    Nishizeki 1985; Schank & Wagner 2005): each vertex i, with its higher-ranked neighbours
    (rank: degree, then index) sorted by rank, pairs every one j of them with each k ranked
    above j and looks up the edge (j, k) (a binary search in C's sorted keys); a triangle
    found adds one to the support of its three edges, in both directions. The pairs number
    Σ_i d⁺(i)(d⁺(i) - 1)/2, O(m √m) (d⁺ ≤ √(2m)), where the Gustavson product
    ``sr.mxm(C, C, sr.plus_pair, mask=C.S)`` enumerates every wedge Σ_k d_k², which the hubs
    of a power-law graph dominate: on Kronecker 16, 3.3·10⁷ pairs against 1.2·10⁹ wedges.

    The masked dot product ``sr.dot3(C, C, sr.plus_pair, mask=C)`` computes the same T; which
    of the two is faster on the GPU has not been measured (triangle_count's dot3 runs over the
    upward orientation U, whose rows are short; C's hub rows are not).
    """
    xp = sr.array_module(C.device)
    n = C.nrows
    indptr = C.indptr.astype(xp.int64)
    deg = xp.diff(indptr)
    rows = segment_ids(xp, deg)
    cols = C.indices.astype(xp.int64)
    keys = rows * n + cols                                   # sorted: CSR order
    m = int(keys.size)
    if m == 0:
        return xp.zeros(0, dtype=xp.int64)
    mirror = xp.searchsorted(keys, cols * n + rows)          # entry (j, i) of entry (i, j)
    # rank: by degree, then index, as 0..n-1
    rank = xp.empty(n, dtype=xp.int64)
    rank[xp.argsort(deg * n + xp.arange(n, dtype=xp.int64))] = xp.arange(n, dtype=xp.int64)
    # the oriented edges i → j (rank i < rank j), grouped by i, sorted by the rank of j
    up = xp.flatnonzero(rank[rows] < rank[cols])
    up = up[xp.argsort(rows[up] * n + rank[cols[up]])]
    ri = rows[up]
    dplus = bincount(xp, ri, n)
    start = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(dplus)])
    t = xp.arange(up.size, dtype=xp.int64)
    cnt = start[ri + 1] - t - 1                               # the k ranked above j
    ends = _host(xp.cumsum(cnt))
    sup = xp.zeros(m, dtype=xp.int64)
    lo = 0
    while lo < up.size:
        base = int(ends[lo - 1]) if lo else 0
        hi = max(lo + 1, int(np.searchsorted(ends, base + SUPPORT_CHUNK, side="right")))
        seg, off = expand(xp, cnt[lo:hi])
        a = lo + seg                                          # the pair's (i → j) slot
        b = a + 1 + off                                       # its (i → k) slot
        p_ij, p_ik = up[a], up[b]
        q = cols[p_ij] * n + cols[p_ik]                       # is (j, k) an entry?
        p_jk = xp.minimum(xp.searchsorted(keys, q), m - 1)
        hit = keys[p_jk] == q
        p = xp.concatenate([p_ij[hit], p_ik[hit], p_jk[hit]])
        sup += bincount(xp, xp.concatenate([p, mirror[p]]), m)
        lo = hi
    return sup


def _host(a):
    return a.get() if sr.is_gpu_array(a) else np.asarray(a)


def k_truss(A, k, *, method="auto"):
    """The k-truss: the largest subgraph in which every edge lies on at least k - 2 triangles
    of the subgraph.

    Support counting as algebra (LAGraph ``LAGraph_KTruss``): starting from the undirected
    pattern C = S, repeat ``C⟨C⟩ = C plus.pair C`` (the support of every edge: its triangles
    in C) and ``C = select(C, support ≥ k - 2)`` until no edge is dropped: ``method="mxm"``,
    the engine's masked Gustavson SpGEMM, which enumerates every wedge (Σ d², far slower on
    graphs with hubs). The default ``method="dot"`` computes the first support mask-first
    (one dot product per edge, :func:`edge_support`) and then, instead of recounting, lowers
    the supports of the edges whose triangles lost an edge (:func:`_truss_peel`). Or,
    ``method="wc"``, Wang & Cheng's sequential peeling on the host (the default on a CPU
    with Numba): the supports by listing each triangle once over the degree orientation,
    then the edges of support below k - 2 taken one at a time from a queue, each lowering
    the supports of the two other edges of every triangle it still closes, an edge joining
    the queue when its support falls below k - 2. The same truss and supports. On a CPU with
    Numba every method starts from the (k - 1)-core of S, found by the compiled bucket pass
    of :func:`core_number` (:data:`TRUSS_CORE_PRUNE`), which holds the k-truss.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The adjacency matrix, taken as its undirected pattern (A ∪ Aᵀ, values ignored,
        explicit zeros are edges, self-loops ignored: NetworkX raises on them).
    k : int
        For k ≤ 2 every edge is kept (NetworkX's convention).
    method : {'auto', 'dot', 'mxm', 'wc'}
        ``'dot'`` and ``'mxm'``: the array passes above, on A's device. ``'wc'``: the
        sequential peeling on the host, compiled by Numba where it is installed (the ``cpu``
        extra; else interpreted, far slower), GPU input copied there and the truss back.
        ``'auto'``: :data:`TRUSS_AUTO` of A's device, 'dot' on a CPU without Numba; GPU
        input below :data:`TRUSS_HOST_MAX_ENTRIES` stored entries runs on a host copy where
        Numba is installed. The same answer.

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
    InvalidValue
        method is not one of :data:`TRUSS_METHODS`.
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
    >>> alg.k_truss(A, 3, method="dot").to_dense(missing=0)[1]
    array([1, 0, 2, 1, 0])
    """
    op = "k_truss"
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise sr.DomainMismatch(f"{op}: k must be an integer, got {k!r}")
    k = int(k)
    if not isinstance(method, str) or method not in TRUSS_METHODS:
        raise sr.InvalidValue(f"{op}: method must be one of {TRUSS_METHODS}, got {method!r}")
    A = _square(A, op)
    if (method == "auto" and A.device == "gpu" and A.nvals < TRUSS_HOST_MAX_ENTRIES
            and _compiled().ENABLED):
        return k_truss(A._host_copy(), k).to_gpu()
    if method == "auto":
        method = _truss_auto(A.device)
    # (the kernel skips self-loops: dropping them here would cost a pass over the pattern)
    C = undirected_pattern(A, op, loops=method == "wc")
    xp = sr.array_module(C.device)
    # a support is at most n - 2: every k above n drops every edge, and the clamp keeps k - 2
    # inside the int64 supports it is compared with (k = 2**70 is a valid, empty question)
    k = min(k, C.nrows + 1)
    if k > 2 and TRUSS_CORE_PRUNE and C.device == "cpu" and _core_auto("cpu") == "bz":
        # C = C[v, v] over the vertices v of the (k - 1)-core
        C = _core_subgraph(C, k - 1)
    if method == "wc":
        return _truss_wc(C, k)
    if method == "dot":
        # T⟨C⟩ = C plus.pair Cᵀ (dot form), then the peeling with support updates
        return _truss_peel(C, edge_support(C), k)
    while True:
        # T⟨C⟩ = C plus.pair C   (the support of every edge of C)
        T = sr.mxm(C, C, sr.plus_pair, mask=C.S)
        # with 0 where an edge has no triangle: T ∪ 0·C
        Z = sr.Matrix.from_csr(C.indptr, C.indices, None, C.shape, iso_value=0,
                               dtype=T.dtype, check=False)
        sup = sr.ewise_add(T, Z, "plus").values.astype(xp.int64)
        C = sr.Matrix.from_csr(C.indptr, C.indices, sup, C.shape, check=False)
        if k <= 2:
            break
        nvals = C.nvals
        # C = select(C, C ≥ k - 2)
        C = sr.select(C, "valuege", k - 2)
        if C.nvals == nvals:
            # nothing dropped: the supports were counted in C itself
            break
    return C


def _truss_wc(C, k):
    """k_truss by :func:`semiring.backend.cpu.compiled.truss` over the symmetric pattern C
    (self-loops allowed: skipped), on the host; the truss back on C's device."""
    indptr, indices = sr.to_device(C.indptr, "cpu"), sr.to_device(C.indices, "cpu")
    keep, sup = _compiled().truss(indptr, indices, k)
    rows = np.repeat(np.arange(C.nrows, dtype=np.int64), np.diff(indptr.astype(np.int64)))
    ptr = np.zeros(C.nrows + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows[keep], minlength=C.nrows), out=ptr[1:])
    ptr, idx, sup = (sr.to_device(a, C.device) for a in (ptr, indices[keep], sup[keep]))
    return sr.Matrix.from_csr(ptr, idx, sup, C.shape, check=False)


def _core_subgraph(C, c):
    """The subgraph of the symmetric pattern C (no self-loops) induced by the vertices of core
    number at least c, as a pattern of C's shape and type (C itself where that is all of it),
    by the bucket pass of :func:`core_number`."""
    xp = sr.array_module(C.device)
    core = sr.to_device(_compiled().core_numbers(sr.to_device(C.indptr, "cpu"),
                                                 sr.to_device(C.indices, "cpu")), C.device)
    keep = core >= c
    rows = C.entry_rows()
    e = keep[rows] & keep[C.indices]
    if bool(e.all()):
        return C
    indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64),
                             xp.cumsum(bincount(xp, rows[e], C.nrows))]).astype(C.indptr.dtype)
    return sr.Matrix.from_csr(indptr, C.indices[e], None, C.shape, iso_value=1, dtype=C.dtype,
                              check=False)


def _truss_peel(C, sup, k):
    """The k-truss of the symmetric pattern C whose edges have supports ``sup`` (in entry
    order), by peeling: drop every edge of support < k - 2 at once, then lower the supports
    of the surviving edges of the triangles that died, instead of counting them all again
    (the support updates of truss decomposition, Wang & Cheng 2012, "Truss decomposition in
    massive networks"). A triangle with several dropped edges is charged once, by its dropped
    edge of smallest id. Each round costs the dropped edges' intersections and O(m)."""
    xp = sr.array_module(C.device)
    n = C.nrows
    indptr = C.indptr.astype(xp.int64)
    cols = C.indices.astype(xp.int64)
    rows = segment_ids(xp, xp.diff(indptr))
    while k > 2:
        drop = sup < k - 2
        if not bool(drop.any()):
            break
        keys = rows * n + cols
        # canon(p): the id of entry p's undirected edge (its upper entry); mirror(p): (j, i)
        canon = xp.searchsorted(keys, xp.minimum(rows, cols) * n + xp.maximum(rows, cols))
        mirror = xp.searchsorted(keys, cols * n + rows)
        deg = xp.diff(indptr)
        d = xp.flatnonzero(drop & (rows < cols))             # the dropped edges, once each
        i, j = rows[d], cols[d]
        small = deg[i] <= deg[j]
        s, o = xp.where(small, i, j), xp.where(small, j, i)
        cnt = deg[s]
        ends = _host(xp.cumsum(cnt)) if cnt.size else np.zeros(0, dtype=np.int64)
        dec = xp.zeros(keys.size, dtype=xp.int64)
        lo = 0
        while lo < d.size:
            base = int(ends[lo - 1]) if lo else 0
            hi = max(lo + 1, int(np.searchsorted(ends, base + SUPPORT_CHUNK, side="right")))
            seg, off = expand(xp, cnt[lo:hi])
            p_sx = indptr[s[lo:hi]][seg] + off                # the entry (s, x)
            q = o[lo:hi][seg] * n + cols[p_sx]                # is (o, x) an entry too?
            p_ox = xp.minimum(xp.searchsorted(keys, q), keys.size - 1)
            hit = keys[p_ox] == q
            p_sx, p_ox, c1 = p_sx[hit], p_ox[hit], d[lo:hi][seg[hit]]
            c2, c3 = canon[p_sx], canon[p_ox]
            # the triangle (s, o, x) is charged by its dropped edge of smallest id
            owner = ~((drop[c2] & (c2 < c1)) | (drop[c3] & (c3 < c1)))
            p = xp.concatenate([p_sx[owner & ~drop[p_sx]], p_ox[owner & ~drop[p_ox]]])
            dec += bincount(xp, xp.concatenate([p, mirror[p]]), keys.size)
            lo = hi
        keep = ~drop
        sup = (sup - dec)[keep]
        rows, cols = rows[keep], cols[keep]
        indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(bincount(xp, rows, n))])
    return sr.Matrix.from_csr(indptr, cols, sup, C.shape, check=False)
