"""Betweenness centrality: Brandes' algorithm (Brandes 2001), many sources at once, as in
LAGraph's LAGr_Betweenness (batched BC: Buluç & Gilbert's Combinatorial BLAS formulation).

For a batch of s sources the path counts σ form a dense n × s matrix, one column per source.
The forward sweep is a multi-source BFS in which every level is one SpMM over ``plus_second``
(σ's of the frontier summed over in-edges, masked to the unvisited (vertex, source) pairs):

    F⟨¬visited⟩ = Aᵀ plus.second F,   σ += F,   level⟨F ≠ 0⟩ = depth

The backward sweep walks the levels in reverse, each level one SpMM the other way:

    W⟨level = d⟩ = (1 + δ) ./ σ,   δ⟨level = d − 1⟩ += σ .* (A plus.second W)

(``plus_second`` is computed as ``plus_times`` over A's structure with every entry 1.0: the
same sums, and the form the CPU backend hands to SciPy.)

which is δ(v) = Σ_{w : v → w, level(w) = level(v) + 1} σ(v)/σ(w) · (1 + δ(w)). Shortest
paths are unweighted (hop counts); weighted betweenness (Dijkstra's order) is not done yet.

A narrow batch (at most ``SINGLE_MAX_BATCH`` sources: one source, as GAP times it) runs its
sources one at a time with the levels known first, from the engine's BFS; each level's
product then pulls only the rows on that level (a vector mask), so each sweep reads every
row once in all (about one SpMV forward, one backward, instead of one per level):

    level = bfs(A, s)
    σ⟨level = d⟩ = Aᵀ plus.second σ                                  d = 1, 2, ..., D
    δ⟨level = d − 1⟩ = σ .* (A plus.second ((1 + δ) ./ σ)⟨level = d⟩)   d = D, ..., 1

(σ is 0 on levels d and beyond when level d is pulled, and no in-neighbour of a vertex on
level d lies below level d − 1, so the forward pull needs no mask on its input.)
"""

from __future__ import annotations

import math
import numbers
import random
import weakref

import numpy as np

import semiring as sr

from .bfs import bfs
from .triangles import _is_symmetric

__all__ = ["BATCH_ELEMENTS", "MAX_BATCH", "SINGLE_MAX_BATCH", "SPMV_MAX_BATCH",
           "betweenness_centrality"]

# Sources per batch: at most BATCH_ELEMENTS // n, so the n × s workspaces (σ, δ, the frontier,
# the levels: about 40 bytes an entry) stay near 40 · BATCH_ELEMENTS bytes (2.7 GB); at
# least 1, at most MAX_BATCH (wider SpMMs stop paying once the graph's rows are long).
BATCH_ELEMENTS = 2**26
MAX_BATCH = 512
# batches of at most this many sources run column by column as SpMVs (see _product)
SPMV_MAX_BATCH = 4
# batches of at most this many sources run one source at a time, levels first (_single: one
# BFS and about two SpMVs of work a source, against 2 D SpMMs of the batch); 0: never.
# H100, one source, best of 3 (bench/probes/tc_bc_probe.py): kron-22 7.10 ms (the SpMV-per-
# level batch path 31.3 ms; the SpMM path measured 1022 ms before), urand-22 8.99 ms (27.2 ms)
SINGLE_MAX_BATCH = 4


#: Graphs of many narrow levels (grids, road networks, long paths) run a source a pass
#: (:func:`semiring.centrality.brandes`: a level costs two thread-block barriers on the GPU, a
#: compiled loop on the CPU, against a masked SpMV and O(n) masks a level in the algebra's
#: form): taken when the first source's BFS has at least DEEP_MIN_LEVELS levels of at most
#: DEEP_MAX_WIDTH vertices on average (a level of that many is four steps of a 1024-thread
#: block). On an H200 (bench/results/20261128-brandes_h200.md), 4 sources: the 1000² grid
#: (1 999 levels of ~500) 29.5 against 1 954 ms, the 2048² grid 102 against 6 716 ms.
DEEP_MIN_LEVELS = 64
DEEP_MAX_WIDTH = 4096
#: Workspace of a batch of that form (about 28 bytes a vertex a source).
DEEP_BATCH_BYTES = 2**31
#: Which form runs: "auto" (a source a pass on graphs of many narrow levels, as above, and on
#: the CPU wherever that pass is compiled: there it beats the algebra's form on every graph,
#: 4 / 64 sources on a 2-core host: kron-14 72 / 210 ms against 6.0 / 82, urand-14 72 / 207
#: against 8.6 / 134), "algebra" (the batched sweeps of the module docstring) or "per_source".
FORM = "auto"
FORMS = ("auto", "algebra", "per_source")


def _sources(op, sources, k, seed, n):
    """The source list (int64, host) and whether it is a sample (NetworkX's rescaling)."""
    if sources is not None and k is not None:
        raise sr.InvalidValue(f"{op}: pass k or sources, not both")
    if k is not None:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
            raise sr.DomainMismatch(f"{op}: k must be an integer, got {type(k).__name__}")
        k = int(k)
        if k == n:  # NetworkX: the same as all sources
            return np.arange(n, dtype=np.int64), False
        if not 1 <= k <= n:
            raise sr.InvalidValue(f"{op}: k must be in [1, n] (n = {n}), got {k}")
        if seed is None or isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            rng = random.Random(seed)
        elif isinstance(seed, random.Random):
            rng = seed
        else:
            raise sr.DomainMismatch(f"{op}: seed must be None, an int or a random.Random, got "
                                    f"{type(seed).__name__}")
        # NetworkX's sample: seed.sample(list(G), k) over the vertices 0 .. n-1 in order
        return np.asarray(rng.sample(range(n), k), dtype=np.int64), True
    if sources is None:
        return np.arange(n, dtype=np.int64), False
    src = sr.to_device(sources, "cpu") if sr.is_gpu_array(sources) else np.asarray(sources)
    if src.ndim != 1:
        raise sr.DimensionMismatch(f"{op}: sources must be 1-D, got shape {src.shape}")
    if src.size and src.dtype.kind not in "iu":
        raise sr.DomainMismatch(f"{op}: sources must be integers, got dtype {src.dtype}")
    if src.size == 0 and n:
        raise sr.InvalidValue(f"{op}: sources must not be empty")
    if src.size and (src.min() < 0 or src.max() >= n):  # (before a uint64 could wrap)
        bad = src[(src < 0) | (src >= n)][0]
        raise sr.InvalidIndex(f"{op}: sources must be vertices in [0, {n}), got {int(bad)}")
    src = src.astype(np.int64)
    if np.unique(src).size != src.size:
        raise sr.InvalidValue(f"{op}: sources must be distinct")
    return src, True


def _rescale(bc, xp, n, normalized, directed, endpoints, sampled):
    """NetworkX 3.6's ``_rescale`` (betweenness.py), on the whole array at once."""
    N = n if endpoints else n - 1
    if N < 2:
        return bc
    k = None if sampled is None else int(sampled.size)
    K = N if k is None else k
    if k is None or endpoints:
        if normalized:
            scale = 1 / (K * (N - 1))
        else:
            scale = N / (K * (1 if directed else 2))
        return bc * scale
    # sampled sources without endpoints: a source cannot count itself
    if normalized:
        s_src = 1 / ((K - 1) * (N - 1)) if K > 1 else math.nan
        s_non = 1 / (K * (N - 1))
    else:
        corr = 1 if directed else 2
        s_src = N / ((K - 1) * corr) if K > 1 else math.nan
        s_non = N / (K * corr)
    scale = xp.full(n, s_non, dtype=np.float64)
    scale[xp.asarray(sampled)] = s_src
    return bc * scale


def _ones(A):
    """A's structure with every entry 1.0 (structure-only: no values stored or read)."""
    return sr.Matrix(A.indptr, A.indices, None, A.shape, iso_value=1.0, dtype=np.float64)


#: (G, Gᵀ) of each A and direction, kept while A lives (and holds the same arrays): their
#: pull schedules (made on a matrix's first product) and BFS state then serve every later
#: call on the same A
_GRAPHS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _graphs(A, directed):
    """(G, Gᵀ): only the structure, G(i, j) = 1 for every edge i → j (∪ j → i when
    undirected), an iso float64 1 so that plus_times multiplies by exactly 1 (= plus_second:
    the CPU backend hands plus_times over floats to SciPy, 20x its generic SpMM); Gᵀ is G
    itself when A is symmetric."""
    arrays, per_a = _GRAPHS.get(A, (None, {}))
    if arrays is None or arrays[0] is not A.indptr or arrays[1] is not A.indices:
        per_a = {}  # new, or A was overwritten (the out= of an operation): made again
        _GRAPHS[A] = ((A.indptr, A.indices), per_a)
    if directed not in per_a:
        G = _ones(A)
        if _is_symmetric(A):
            GT = G = G.as_symmetric()
        elif directed:
            GT = _ones(A.T)  # A.T is cached on A
        else:
            # G = G ∪ Gᵀ, symmetric: its own transpose
            G = GT = _ones(sr.ewise_add(G, G.T, "any")).as_symmetric()
        per_a[directed] = (G, GT)
    return per_a[directed]


def _product(M, X, allowed, xp):
    """Y⟨allowed⟩ = M plus.times X for a dense n × s X (0 outside ``allowed``).

    Narrow batches (s <= SPMV_MAX_BATCH) run one pulled SpMV per column: the SpMM serves a
    row with one thread when s <= 4, so a hub row of a power-law graph (162,839 entries in
    GAP's kron-22) becomes a serial chain of that many loads a level; the pull kernel of
    ``mxv`` bins rows by degree and gives a long row a block. Wider batches take one SpMM.
    """
    if X.shape[1] <= SPMV_MAX_BATCH:
        cols = [sr.mxv(M, xp.ascontiguousarray(X[:, j]), sr.plus_times,
                       direction="pull").to_dense(missing=0) for j in range(X.shape[1])]
        Y = xp.stack(cols, axis=1) if cols else xp.zeros_like(X)
        return xp.where(allowed, Y, 0.0)
    return sr.mxm(M, X, sr.plus_times, mask=allowed)


def _overflow_levels(sigma, level, xp):
    """The levels holding a vertex whose σ passed float64's range (usually none; one host
    synchronization): only their backward step needs ``_dependency``'s successor count."""
    return set(xp.unique(level[xp.isinf(sigma)]).tolist())


def _dependency(sigma, finite, q, succ, xp):
    """One level's dependency increments σ .* q, with NetworkX's arithmetic where σ overflows.

    NetworkX adds σ(v) · ((1 + δ(w)) / σ(w)) for each successor w of v on the shortest-path
    DAG, one term at a time. When path counts pass float64's range (a 1000² grid, 2^1024
    paths through 1024 diamonds) σ(v) is inf, every successor's σ(w) is inf too, so each
    term is inf · 0 or inf · NaN: NaN if v has a successor, and δ(v) stays 0 if it has none.
    The product ``σ .* Σ_w (...)`` would give inf · 0 = NaN for the latter, and for every
    vertex off the level. Hence ``finite``: σ with inf replaced by 0 (σ itself where none
    is inf), so those get 0; ``succ`` (successors on the level, counted by the same product
    over the level's indicator; only for a level below which some σ is inf, else None)
    gives the former their NaN. A finite σ(v) needs nothing: x / inf = 0 and NaN propagate
    through the sum as through NetworkX's terms, and δ itself never overflows (δ(v) <= n).
    """
    inc = finite * q
    if succ is None:
        return inc
    return xp.where((succ > 0) & xp.isinf(sigma), np.nan, inc)


def _single(G, GT, s, endpoints, xp):
    """δ of the one source ``s`` (plus NetworkX's endpoint terms): a length-n float64 array.
    The levels come from the BFS; each level's product pulls only that level's rows."""
    n = G.nrows
    # level = bfs(A, s)
    level = bfs(G, s, symmetric=GT is G)
    depth = int(level.max())  # the host synchronization of the forward sweep
    sigma = xp.zeros(n, dtype=np.float64)
    sigma[s] = 1.0
    for d in range(1, depth + 1):
        # σ⟨level = d⟩ = Aᵀ plus.second σ
        on_d = sr.Vector.from_dense(level == d, device=G.device)
        y = sr.mxv(GT, sigma, sr.plus_times, mask=on_d, direction="pull")
        sigma += y.to_dense(missing=0)
    visited = level >= 0
    divisor = xp.where(visited, sigma, 1.0)
    overflow = _overflow_levels(sigma, level, xp)
    finite = xp.where(xp.isinf(sigma), 0.0, sigma) if overflow else sigma  # see _dependency
    delta = xp.zeros(n, dtype=np.float64)
    for d in range(depth, 0, -1):
        # δ⟨level = d − 1⟩ = σ .* (A plus.second ((1 + δ) ./ σ)⟨level = d⟩)
        on_d = level == d
        below = sr.Vector.from_dense(level == d - 1, device=G.device)
        W = xp.where(on_d, (1.0 + delta) / divisor, 0.0)
        q = sr.mxv(G, W, sr.plus_times, mask=below, direction="pull").to_dense(missing=0)
        succ = None
        if d - 1 in overflow:
            succ = sr.mxv(G, on_d.astype(np.float64), sr.plus_times, mask=below,
                          direction="pull").to_dense(missing=0)
        delta += _dependency(sigma, finite, q, succ, xp)
    delta[s] = 0.0  # a source's own dependency is not its betweenness
    if endpoints:
        # NetworkX: every reached w ≠ s gains 1 (s, w are on the path), s gains (reached − 1)
        delta += visited
        delta[s] = float(visited.sum()) - 1.0
    return delta


def _batch(G, GT, src, endpoints, xp):
    """Σ over the sources in ``src`` of their dependencies δ (plus NetworkX's endpoint
    terms): a length-n float64 array."""
    n, s = G.nrows, int(src.size)
    cols = xp.arange(s)
    F = xp.zeros((n, s), dtype=np.float64)  # F[v, j]: σ of v on source j's frontier
    F[src, cols] = 1.0
    sigma = F.copy()
    visited = F > 0
    level = xp.full((n, s), -1, dtype=np.int32)
    level[src, cols] = 0
    depth = 0
    while True:
        depth += 1
        if depth > n:  # a shortest path has at most n − 1 edges: a deeper frontier is a bug
            raise RuntimeError(f"betweenness_centrality: frontier still non-empty after {n} levels")
        # F⟨¬visited⟩ = Aᵀ plus.second F   (σ of the next level: in-neighbours' counts summed)
        F = _product(GT, F, ~visited, xp)
        reached = F > 0
        if not bool(reached.any()):  # the level's host synchronization
            break
        # σ += F,  level⟨F⟩ = depth,  visited⟨F⟩ = true
        sigma += F
        xp.copyto(level, np.int32(depth), where=reached)
        visited |= reached
    deepest = depth - 1
    divisor = xp.where(visited, sigma, 1.0)
    overflow = _overflow_levels(sigma, level, xp)
    finite = xp.where(xp.isinf(sigma), 0.0, sigma) if overflow else sigma  # see _dependency
    delta = xp.zeros((n, s), dtype=np.float64)
    for d in range(deepest, 0, -1):
        # W⟨level = d⟩ = (1 + δ) ./ σ
        on_d = level == d
        W = xp.where(on_d, (1.0 + delta) / divisor, 0.0)
        # δ⟨level = d − 1⟩ += σ .* (A plus.second W)
        Q = _product(G, W, level == d - 1, xp)
        succ = None
        if d - 1 in overflow:
            succ = _product(G, on_d.astype(np.float64), level == d - 1, xp)
        delta += _dependency(sigma, finite, Q, succ, xp)
    delta[src, cols] = 0.0  # a source's own dependency is not its betweenness
    if endpoints:
        # NetworkX: every reached w ≠ s gains 1 (s, w are on the path), s gains (reached − 1)
        delta += visited
        delta[src, cols] = 0.0
        out = delta.sum(axis=1)
        out[src] += visited.sum(axis=0) - 1
        return out
    return delta.sum(axis=1)


def _per_source(G, GT, s):
    """Whether to run a source a pass (see :data:`FORM`); "auto" judges a graph's levels by
    the BFS from ``s``."""
    if FORM not in FORMS:
        raise sr.InvalidValue(f"betweenness_centrality: centrality.FORM must be one of {FORMS}, "
                              f"got {FORM!r}")
    if (FORM == "algebra" or np.dtype(G.itype) != np.dtype(GT.itype)
            or G.nrows >= sr.centrality.MAX_VERTICES
            or (G.device == "cpu" and max(G.nvals, GT.nvals) >= sr.centrality.MAX_VERTICES)):
        return False  # beyond the passes' 32-bit vertices (or SciPy's int32 search)
    if FORM == "per_source" or (G.device == "cpu" and sr.centrality.compiled("cpu")):
        return True
    level = bfs(G, s, symmetric=GT is G)
    depth = int(level.max())  # one host synchronization
    return depth >= DEEP_MIN_LEVELS and int((level >= 0).sum()) <= DEEP_MAX_WIDTH * (depth + 1)


def _deep_batch(G, GT, src, endpoints, xp):
    """Σ over the sources in ``src`` (host int64) of their dependencies, a source a pass."""
    # δ_s(v) = Σ_{v → w, level(w) = level(v) + 1} σ_s(v) / σ_s(w) · (1 + δ_s(w))
    delta, level, _ = sr.centrality.brandes(G, src, GT=None if GT is G else GT)
    rows, cols = xp.arange(src.size), xp.asarray(src)
    if endpoints:
        # NetworkX: every reached w ≠ s gains 1 (s, w are on the path), s gains (reached − 1)
        visited = level >= 0
        delta += visited
    delta[rows, cols] = 0.0  # a source's own dependency is not its betweenness
    out = delta.sum(axis=0)
    if endpoints:
        out[cols] += visited.sum(axis=1) - 1
    return out


def betweenness_centrality(A, *, k=None, sources=None, normalized=True, endpoints=False,
                           seed=None, directed=True, progress=None):
    """Shortest-path betweenness centrality of every vertex (NetworkX's
    ``betweenness_centrality`` with ``weight=None``).

    ``c(v) = Σ_{s ≠ v ≠ t} σ(s, t | v) / σ(s, t)`` over the sources s (all vertices, or a
    sample) and all targets t, with σ counting shortest (fewest-edge) paths; rescaled exactly
    as NetworkX 3.6 rescales (``normalized``, ``endpoints``, undirected halving, and the
    sampling correction for ``k`` / ``sources``). Brandes' algorithm, a batch of sources at
    once (see the module's docstring).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j; only the structure is read (explicit zeros are
        edges, values are not weights: paths are unweighted, NetworkX's ``weight=None``;
        weighted betweenness may come later). Self-loops and parallel edges never change a
        shortest-path count. Runs where ``A`` lives (CPU or GPU).
    k : int, optional
        Use k sources sampled as NetworkX samples them (``random.Random(seed).sample`` over
        the vertices 0 .. n−1: the same sources as ``nx.betweenness_centrality(G, k=k,
        seed=seed)`` for a graph whose nodes are 0 .. n−1 in order); ``k = n`` means all.
    sources : sequence of int, optional
        The sampled sources themselves (distinct); rescaled as NetworkX rescales a sample of
        that size. Not with ``k``.
    normalized : bool
        Divide by the number of (s, t) pairs (NetworkX's rule).
    endpoints : bool
        Count s and t as lying on their paths.
    seed : None, int or random.Random
        The sample's random state (with ``k``).
    directed : bool
        True (default): the directed graph of A (a NetworkX DiGraph). False: the undirected
        graph of A ∪ Aᵀ (a NetworkX Graph): the same paths for a symmetric A, but unnormalized
        values are halved, as NetworkX counts each unordered pair once.
    progress : callable, optional
        Called as ``progress(done, total)`` (sources) after each batch.

    Returns
    -------
    array of float64, shape (n,)
        A NumPy or CuPy array on A's device. With a sample of one source and
        ``endpoints=False`` that source's value is NaN (NetworkX's 0/0). Where
        shortest-path counts pass float64's range (σ = inf: a 1000² grid, 2^1024 paths),
        NetworkX's own values are NaN at most vertices; these are NaN, 0 and finite exactly
        where NetworkX's are (its term-by-term arithmetic, see ``_dependency``).

    Notes
    -----
    Sources run in batches of ``min(MAX_BATCH, BATCH_ELEMENTS // n)`` (at least 1); a batch
    holds a few dense n × s arrays (σ, δ, the frontier, the levels). A batch of at most
    ``SINGLE_MAX_BATCH`` sources (one source, as GAP times it) runs source by source: the
    engine's BFS gives the levels, then each level pulls only its own rows (about one SpMV of
    work forward and one backward a source, see the module's docstring). Wider batches cost
    one SpMM over the whole graph a BFS level, forward and backward (one SpMV per source for
    at most ``SPMV_MAX_BATCH`` sources), so a graph of diameter D costs about 2 D SpMMs a
    batch. Graphs of many narrow levels (the first source's BFS: at least
    ``DEEP_MIN_LEVELS`` levels of at most ``DEEP_MAX_WIDTH`` vertices on average), and every
    graph on the CPU where Numba is installed, run a source a pass instead
    (:func:`semiring.centrality.brandes`: on the GPU a thread block a source, its levels
    separated by block barriers; on the CPU a compiled loop a source), O(n + m) a source
    (``FORM`` chooses).

    Examples
    --------
    >>> import semiring as sr
    >>> import algorithms
    >>> A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 3]], undirected=True, device="cpu")
    >>> algorithms.betweenness_centrality(A, directed=False)
    array([0.        , 0.66666667, 0.66666667, 0.        ])
    >>> algorithms.betweenness_centrality(A, directed=False, normalized=False)
    array([0., 2., 2., 0.])
    >>> algorithms.betweenness_centrality(A, sources=[0, 3], normalized=False, directed=False)
    array([0.  , 2.25, 2.25, 0.  ])
    """
    op = "betweenness_centrality"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    if progress is not None and not callable(progress):
        raise sr.DomainMismatch(f"{op}: progress must be callable, got {type(progress).__name__}")
    n = A.nrows
    xp = sr.array_module(A.device)
    src, sampled = _sources(op, sources, k, seed, n)
    bc = xp.zeros(n, dtype=np.float64)
    if n == 0:
        return bc
    G, GT = _graphs(A, directed)
    total = int(src.size)
    if total and _per_source(G, GT, int(src[0])):
        batch = max(1, DEEP_BATCH_BYTES // (sr.centrality.WORKSPACE_BYTES * n))
        for start in range(0, total, batch):
            bc += _deep_batch(G, GT, src[start:start + batch], endpoints, xp)
            if progress is not None:
                progress(min(start + batch, total), total)
        return _rescale(bc, xp, n, normalized, directed, endpoints, src if sampled else None)
    batch = max(1, min(MAX_BATCH, BATCH_ELEMENTS // n))
    for start in range(0, total, batch):
        if min(batch, total - start) <= SINGLE_MAX_BATCH:
            for s in src[start:start + batch].tolist():
                bc += _single(G, GT, int(s), endpoints, xp)
        else:
            part = xp.asarray(src[start:start + batch])
            bc += _batch(G, GT, part, endpoints, xp)
        if progress is not None:
            progress(min(start + batch, total), total)
    return _rescale(bc, xp, n, normalized, directed, endpoints, src if sampled else None)
