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

from .bfs import bfs, multi_source_bfs
from .cores import _check_flag
from .pagerank import ConvergenceError, _real, _weight, on_host_copy
from .sssp import multi_source_sssp
from .triangles import _is_symmetric

__all__ = ["BATCH_ELEMENTS", "MAX_BATCH", "SINGLE_MAX_BATCH", "SPMV_MAX_BATCH",
           "betweenness_centrality", "closeness_centrality", "eigenvector_centrality",
           "harmonic_centrality", "hits", "katz_centrality"]

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
            raise sr.DomainMismatch(f"{op}: k must be an integer, got {type(k).__name__} {k!r}")
        k = int(k)
        if k == n:  # NetworkX: the same as all sources
            return np.arange(n, dtype=np.int64), False
        if not 1 <= k <= n:
            raise sr.InvalidValue(f"{op}: k must be in [1, n] (n = {n}), got {k}")
        if seed is None or isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            # (int: Python 3.11's random.Random refuses NumPy integers with a TypeError)
            rng = random.Random(None if seed is None else int(seed))
        elif isinstance(seed, random.Random):
            rng = seed
        else:
            raise sr.DomainMismatch(f"{op}: seed must be None, an int or a random.Random, got "
                                    f"{type(seed).__name__} {seed!r}")
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


def _dependencies(G, GT, src, xp, op="betweenness_centrality"):
    """Brandes' two sweeps for the sources in ``src`` at once (a column each): (σ, level,
    visited, σ with 1 where unreached, δ), each n × len(src) (δ of the sources themselves
    not yet zeroed)."""
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
            raise RuntimeError(f"{op}: frontier still non-empty after {n} levels")
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
    return sigma, level, visited, divisor, delta


def _batch(G, GT, src, endpoints, xp):
    """Σ over the sources in ``src`` of their dependencies δ (plus NetworkX's endpoint
    terms): a length-n float64 array."""
    _, _, visited, _, delta = _dependencies(G, GT, src, xp)
    cols = xp.arange(int(src.size))
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
    normalized = _check_flag(op, "normalized", normalized)
    endpoints = _check_flag(op, "endpoints", endpoints)
    directed = _check_flag(op, "directed", directed)
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


# --------------------------------------------------------------------------------------------
# Spectral and distance centralities: NetworkX 3.6's eigenvector_centrality, katz_centrality,
# hits, closeness_centrality and harmonic_centrality, each a loop of SpMVs (power iteration)
# or of multi-source searches (all-pairs distances a batch of sources at a time).


# GPU input with fewer stored entries than algorithms.pagerank's HOST_MAX_ENTRIES iterates
# on A's host copy (pagerank.on_host_copy), as pagerank's loop does: a GPU iteration costs
# its launches and a host synchronization whatever the size. H200 (session 30,
# bench/probes/hits_syncs.py, NetworkX 3.7's hits on the engine, 8·10³ entries): 258 µs an
# iteration on the GPU, 62 on the host copy.


def _check_progress(op, progress):
    if progress is not None and not callable(progress):
        raise sr.DomainMismatch(f"{op}: progress must be callable, got {type(progress).__name__}")


def _check_iteration(op, max_iter, tol):
    """max_iter (a non-negative int) and tol (a positive finite real), checked as pagerank's."""
    if isinstance(max_iter, (bool, np.bool_)) or not isinstance(max_iter, numbers.Integral):
        raise sr.DomainMismatch(f"{op}: max_iter must be an integer, got "
                                f"{type(max_iter).__name__} {max_iter!r}")
    if max_iter < 0:
        raise sr.InvalidValue(f"{op}: max_iter must be >= 0, got {max_iter}")
    tol = _real(op, "tol", tol)
    if not (tol > 0 and math.isfinite(tol)):
        raise sr.InvalidValue(f"{op}: tol must be a positive finite number, got {tol}")
    return int(max_iter), tol


def _start_sum(op, x):
    """The exact sum of a starting vector (``math.fsum``: a sum that cancels to 0 only by
    rounding, e.g. (1e16, 1, -1e16), is not refused), refused when 0."""
    total = math.fsum(sr.to_device(x, "cpu").tolist())
    if total == 0:
        raise sr.InvalidValue(f"{op}: nstart must have a non-zero sum, got {total}")
    return total


def _vertex_values(op, arg, value, n, xp):
    """A length-n float64 copy of ``value``: an array_like of n reals (NumPy, or CuPy on the
    GPU) or a dict {vertex: value} (missing vertices 0)."""
    if isinstance(value, dict):
        keys = list(value)
        bad = [k for k in keys if isinstance(k, (bool, np.bool_))
               or not isinstance(k, numbers.Integral) or not 0 <= int(k) < n]
        if bad:
            raise sr.InvalidIndex(f"{op}: {arg} keys must be vertices in [0, {n}), got {bad[0]!r}")
        host = np.zeros(n, dtype=np.float64)
        for k in keys:
            host[int(k)] = _weight(op, f"{arg}[{k}]", value[k])
        return xp.asarray(host)
    if sr.is_gpu_array(value) and xp is np:
        raise sr.DeviceMismatch(f"{op}: A is on the CPU but {arg} is a CuPy array; move one "
                                f"explicitly")
    # checked on the host unless already on the GPU: CuPy refuses strings and objects with
    # its own ValueError before our check could name the argument
    try:
        arr = value if sr.is_gpu_array(value) else np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise sr.DomainMismatch(f"{op}: {arg} must be an array of n real numbers or a dict, "
                                f"got {type(value).__name__} ({exc})") from None
    if arr.ndim != 1 or arr.shape[0] != n:
        raise sr.DimensionMismatch(f"{op}: {arg} must have shape ({n},) (one value per vertex), "
                                   f"got shape {tuple(arr.shape)}")
    if arr.dtype.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: {arg} must hold real numbers, got dtype {arr.dtype}")
    arr = xp.asarray(arr).astype(np.float64)  # a copy: the caller's array is never touched
    if not bool(xp.isfinite(arr).all()):
        raise sr.InvalidValue(f"{op}: {arg} must hold finite numbers")
    return arr


def _weights(op, A, weighted, xp):
    """(A, the semiring of x ↦ Aᵀx) for a power iteration: ``plus_times`` over A's values
    (real, as float64) when ``weighted`` and A stores values, else ``plus_first``: every edge
    weighs 1 (explicit zeros are edges then)."""
    if not weighted or A.is_iso:
        return A, sr.plus_first
    if A.dtype.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: weighted=True needs real values in A, got dtype {A.dtype}")
    if A.dtype != np.float64:  # NetworkX multiplies by Python floats and ints
        A = sr.Matrix.from_csr(A.indptr, A.indices, A.values.astype(np.float64), A.shape,
                               check=False)
    return A, sr.plus_times


def _euclid(x, xp):
    """‖x‖₂ as a 0-d device array, scaled by the largest magnitude first so that the squares
    cannot overflow (NetworkX's math.hypot does not)."""
    top = xp.abs(x).max()
    safe = xp.where(top > 0, top, 1.0)
    return top * xp.sqrt(((x / safe) ** 2).sum())


def eigenvector_centrality(A, *, max_iter=100, tol=1e-6, nstart=None, weighted=True,
                           progress=None):
    """Eigenvector centrality of every vertex: NetworkX 3.6's ``eigenvector_centrality``.

    The principal left eigenvector of A, by power iteration on ``(A + I)ᵀ`` exactly as
    NetworkX iterates (the shift by I makes the iteration converge on bipartite graphs too):
    ``x ← (x + Aᵀ x) / ‖x + Aᵀ x‖₂`` from ``nstart`` (normalized to sum 1), until the L1
    change of an iteration is below ``n · tol``.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j (a vertex is central when central vertices point
        to it). An undirected graph is a symmetric matrix. Runs where ``A`` lives; GPU input
        of fewer than ``algorithms.pagerank.HOST_MAX_ENTRIES`` stored entries iterates on a
        host copy (kept on ``A``: launches would cost more), the result on the GPU.
    max_iter : int
        At most this many iterations; :class:`ConvergenceError` past them.
    tol : float
        The stopping rule's tolerance (positive).
    nstart : array_like of n reals, or dict {vertex: value}, optional
        The starting vector (default all ones): not all zero, with a non-zero sum (it is
        divided by its sum, as NetworkX divides it).
    weighted : bool
        Multiply by A's values (real; NetworkX's ``weight="weight"``). ``False``, or a
        structure-only matrix: every edge weighs 1 (``weight=None``, NetworkX's default).
    progress : callable, optional
        Called as ``progress(iteration, change)`` after each iteration (1-based).

    Returns
    -------
    array of float64, shape (n,)
        Unit Euclidean norm; a NumPy or CuPy array on A's device.

    Raises
    ------
    InvalidValue
        ``A`` has no vertices (NetworkX's NetworkXPointlessConcept), or ``nstart`` is all
        zeros or sums to zero.
    ConvergenceError
        ``max_iter`` iterations did not meet the tolerance (NetworkX's
        PowerIterationFailedConvergence); ``result`` holds the last iterate.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    >>> np.round(algorithms.eigenvector_centrality(A), 4)
    array([0.5   , 0.7071, 0.5   ])
    """
    op = "eigenvector_centrality"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    small = on_host_copy(eigenvector_centrality, A, max_iter=max_iter, tol=tol, nstart=nstart,
                          weighted=weighted, progress=progress)
    if small is not None:
        return small
    max_iter, tol = _check_iteration(op, max_iter, tol)
    _check_progress(op, progress)
    weighted = _check_flag(op, "weighted", weighted)
    n = A.nrows
    xp = sr.array_module(A.device)
    if n == 0:
        raise sr.InvalidValue(f"{op}: A has no vertices: the centrality of the null graph is "
                              f"undefined")
    x = xp.ones(n) if nstart is None else _vertex_values(op, "nstart", nstart, n, xp)
    if not bool((x != 0).any()):
        raise sr.InvalidValue(f"{op}: nstart must not be all zeros")
    x = x / _start_sum(op, x)
    M, semiring = _weights(op, A, weighted, xp)
    threshold = n * tol
    err = float("inf")
    for it in range(1, max_iter + 1):
        # y = x ⊕ (x ⊕.⊗ A)   (x (A + I): each vertex keeps its value and gains its in-edges')
        y = x + sr.vxm(x, M, semiring, direction="pull").to_dense(missing=0)
        # x' = y / ‖y‖₂        (‖y‖₂ = 0: divided by 1, as NetworkX's `hypot(...) or 1`)
        norm = _euclid(y, xp)
        y = y / xp.where(norm == 0, 1.0, norm)
        err = float(xp.abs(y - x).sum())  # the iteration's host synchronization
        x = y
        if progress is not None:
            progress(it, err)
        if err < threshold:
            return x
    raise ConvergenceError.after(op, max_iter, err, threshold, x)


def katz_centrality(A, alpha=0.1, beta=1.0, *, max_iter=1000, tol=1e-6, nstart=None,
                    normalized=True, weighted=True, progress=None):
    """Katz centrality of every vertex: NetworkX 3.6's ``katz_centrality``.

    The solution of ``x = α Aᵀ x + β`` by NetworkX's iteration ``x ← α · (x ⊕.⊗ A) + β`` from
    ``nstart`` (default 0) until the L1 change of an iteration is below ``n · tol``, then
    divided by its Euclidean norm if ``normalized`` (not where that norm is 0). It converges
    when ``α`` is below ``1 / λ_max`` of A.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j. Runs where ``A`` lives; small GPU input on a
        host copy, as :func:`eigenvector_centrality`'s.
    alpha : float
        The attenuation factor α.
    beta : float, or array_like of n reals, or dict {vertex: value}
        The weight β of each vertex (a scalar: the same for all; a dict must name every
        vertex, as NetworkX requires).
    max_iter : int
        At most this many iterations; :class:`ConvergenceError` past them.
    tol : float
        The stopping rule's tolerance (positive).
    nstart : array_like of n reals, or dict {vertex: value}, optional
        The starting vector, used as given (NetworkX does not normalize it). Default 0.
    normalized : bool
        Divide the result by its Euclidean norm.
    weighted : bool
        Multiply by A's values (NetworkX's ``weight="weight"``). ``False``, or a
        structure-only matrix: every edge weighs 1 (``weight=None``, NetworkX's default).
    progress : callable, optional
        Called as ``progress(iteration, change)`` after each iteration (1-based).

    Returns
    -------
    array of float64, shape (n,)
        A NumPy or CuPy array on A's device (empty for an empty A).

    Raises
    ------
    ConvergenceError
        ``max_iter`` iterations did not meet the tolerance (NetworkX's
        PowerIterationFailedConvergence, e.g. α above 1 / λ_max); ``result`` holds the last
        iterate.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    >>> np.round(algorithms.katz_centrality(A, 0.1), 4)
    array([0.5599, 0.6108, 0.5599])
    >>> np.round(algorithms.katz_centrality(A, 0.1, normalized=False), 4)
    array([1.1224, 1.2245, 1.1224])
    """
    op = "katz_centrality"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    small = on_host_copy(katz_centrality, A, alpha=alpha, beta=beta, max_iter=max_iter,
                          tol=tol, nstart=nstart, normalized=normalized, weighted=weighted,
                          progress=progress)
    if small is not None:
        return small
    alpha = _real(op, "alpha", alpha)
    if not math.isfinite(alpha):
        raise sr.InvalidValue(f"{op}: alpha must be finite, got {alpha}")
    max_iter, tol = _check_iteration(op, max_iter, tol)
    _check_progress(op, progress)
    normalized = _check_flag(op, "normalized", normalized)
    weighted = _check_flag(op, "weighted", weighted)
    n = A.nrows
    xp = sr.array_module(A.device)
    if isinstance(beta, numbers.Real) and not isinstance(beta, (bool, np.bool_)):
        b = float(beta)
        if not math.isfinite(b):
            raise sr.InvalidValue(f"{op}: beta must be finite, got {b}")
        b = xp.full(n, b)
    elif isinstance(beta, dict) and set(beta) != set(range(n)):
        raise sr.InvalidValue(f"{op}: beta as a dict must have a value for every vertex "
                              f"0 .. {n - 1} and no other key, got {len(beta)} keys")
    else:
        b = _vertex_values(op, "beta", beta, n, xp)
    x = xp.zeros(n) if nstart is None else _vertex_values(op, "nstart", nstart, n, xp)
    if n == 0:
        return xp.zeros(0, dtype=np.float64)
    M, semiring = _weights(op, A, weighted, xp)
    threshold = n * tol
    err = float("inf")
    for it in range(1, max_iter + 1):
        # x' = α (x ⊕.⊗ A) ⊕ β
        y = alpha * sr.vxm(x, M, semiring, direction="pull").to_dense(missing=0) + b
        with np.errstate(over="ignore", invalid="ignore"):  # diverging (α > 1/λ): inf, NaN
            err = float(xp.abs(y - x).sum())  # the iteration's host synchronization
        x = y
        if progress is not None:
            progress(it, err)
        if err < threshold:
            if normalized:
                # x / ‖x‖₂, unchanged where ‖x‖₂ = 0 (NetworkX's ZeroDivisionError → s = 1)
                norm = _euclid(x, xp)
                x = x * xp.where(norm == 0, 1.0, 1.0 / xp.where(norm == 0, 1.0, norm))
            return x
    raise ConvergenceError.after(op, max_iter, err, threshold, x)


def hits(A, *, max_iter=100, tol=1e-8, nstart=None, normalized=True, weighted=True,
         progress=None):
    """HITS hubs and authorities of every vertex (NetworkX 3.6's ``hits``).

    The authorities are the principal eigenvector of ``AᵀA`` (A's principal right singular
    vector), by power iteration as NetworkX's ``_hits_scipy`` iterates: ``a ← Aᵀ(A a)``, scaled
    to a largest entry of 1, until the L1 change of an iteration is below ``tol``; the hubs
    are then ``h = A a``. NetworkX's ``hits`` takes the same vector from ARPACK (``svds``):
    the same answer wherever the principal singular value is simple (up to the tolerances);
    where it is not (a bipartite undirected graph, two equal components), every vector of
    its singular space is an answer, and ARPACK's depends on its random start.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j (i is a hub pointing to the authority j). Runs
        where ``A`` lives; small GPU input on a host copy, as :func:`eigenvector_centrality`'s.
    max_iter : int
        At most this many iterations; :class:`ConvergenceError` past them.
    tol : float
        The stopping rule's tolerance (positive).
    nstart : array_like of n reals, or dict {vertex: value}, optional
        The starting authorities (divided by their sum, which must not be 0). Default uniform.
    normalized : bool
        Divide hubs and authorities by their sums (NetworkX's default); else the authorities
        have unit Euclidean norm (non-negative) and the hubs are ``A a``.
    weighted : bool
        Multiply by A's values (NetworkX reads the ``weight`` attribute). ``False``, or a
        structure-only matrix: every edge weighs 1.
    progress : callable, optional
        Called as ``progress(iteration, change)`` after each iteration (1-based).

    Returns
    -------
    hubs, authorities : arrays of float64, shape (n,)
        NumPy or CuPy arrays on A's device.

    Raises
    ------
    InvalidValue
        The iterate became 0 (A has no edge of non-zero weight, or ``nstart`` has no part
        along ``AᵀA``'s range): hubs and authorities are undefined.
    ConvergenceError
        ``max_iter`` iterations did not meet the tolerance; ``result`` holds the last
        authorities.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]], dtype=float))
    >>> h, a = algorithms.hits(A)
    >>> np.round(h, 4), np.round(a, 4)
    (array([0.618, 0.382, 0.   ]), array([0.   , 0.382, 0.618]))
    """
    op = "hits"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    small = on_host_copy(hits, A, max_iter=max_iter, tol=tol, nstart=nstart,
                          normalized=normalized, weighted=weighted, progress=progress)
    if small is not None:
        return small
    max_iter, tol = _check_iteration(op, max_iter, tol)
    _check_progress(op, progress)
    normalized = _check_flag(op, "normalized", normalized)
    weighted = _check_flag(op, "weighted", weighted)
    n = A.nrows
    xp = sr.array_module(A.device)
    x = xp.full(n, 1.0 / max(n, 1)) if nstart is None else \
        _vertex_values(op, "nstart", nstart, n, xp)
    if n == 0:
        return xp.zeros(0, dtype=np.float64), xp.zeros(0, dtype=np.float64)
    if nstart is not None:
        x = x / _start_sum(op, x)
    M, semiring = _weights(op, A, weighted, xp)
    # A a reads the vector as the product's second operand (mxv), Aᵀ h as its first (vxm)
    second = sr.plus_times if semiring is sr.plus_times else sr.plus_second
    err = float("inf")
    for it in range(1, max_iter + 1):
        # h = A ⊕.⊗ a;  a' = Aᵀ ⊕.⊗ h   (a' = AᵀA a: each authority sums its hubs' scores)
        h = sr.mxv(M, x, second, direction="pull").to_dense(missing=0)
        y = sr.vxm(h, M, semiring, direction="pull").to_dense(missing=0)
        # a' = a' / max(a')
        top = float(y.max())
        if not top > 0:
            raise sr.InvalidValue(f"{op}: the iterate AᵀA a is {top} at its largest: A has no "
                                  f"edge of positive weight along nstart; hubs and "
                                  f"authorities are undefined")
        y = y / top
        err = float(xp.abs(y - x).sum())  # the iteration's host synchronization
        x = y
        if progress is not None:
            progress(it, err)
        if err < tol:
            break
    else:
        raise ConvergenceError.after(op, max_iter, err, tol, x)
    a = x
    # h = A ⊕.⊗ a
    h = sr.mxv(M, a, second, direction="pull").to_dense(missing=0)
    if normalized:
        return h / h.sum(), a / a.sum()
    norm = _euclid(a, xp)
    return h / norm, a / norm


def _distance_batches(op, A, weighted, progress, order=None):
    """Yield (sources, D): D[j, v] = the distance from ``sources[j]`` to v as float64 (inf
    where unreached), a batch of sources at a time, every vertex a source once (in the
    order of ``order``, a permutation of the vertices, else 0 .. n − 1): the engine's
    multi-source BFS (hops), or its multi-source SSSP over A's values (``weighted``)."""
    n = A.nrows
    xp = sr.array_module(A.device)
    if weighted and not A.is_iso:
        if A.dtype.kind not in "biuf":
            raise sr.DomainMismatch(f"{op}: weighted=True needs real distances in A, got "
                                    f"dtype {A.dtype}")
        vals = A.values
        if vals.size and (bool(xp.isnan(vals).any()) or bool((vals < 0).any())):
            raise sr.InvalidValue(f"{op}: A's distances must be non-negative and not NaN "
                                  f"(weighted=True); pass weighted=False for hop counts")
        # NetworkX adds Python ints and floats: sums in float32 round, and integer sums
        # overflow (multi_source_sssp raises DistanceOverflow where n · max|w| leaves int32 or
        # int64). The totals below are float64 sums of the distances anyway
        if A.dtype != np.float64:
            A = sr.Matrix.from_csr(A.indptr, A.indices, vals.astype(np.float64), A.shape,
                                   check=False)
    else:
        weighted = False
    batch = max(1, min(MAX_BATCH, BATCH_ELEMENTS // max(n, 1)))
    order = np.arange(n, dtype=np.int64) if order is None else np.asarray(order, dtype=np.int64)
    for start in range(0, n, batch):
        src = order[start:start + batch]
        if weighted:
            # D = the least fixed point of D = min(I₀, D min.+ A)   (a row a source)
            D = multi_source_sssp(A, src)  # float64: inf where unreached
        else:
            # level = the BFS levels of every source at once (one masked SpMM a level)
            level = multi_source_bfs(A, src)
            D = xp.where(level < 0, np.inf, level.astype(np.float64))
        yield src, D
        if progress is not None:
            progress(min(n, start + batch), n)


def closeness_centrality(A, *, wf_improved=True, weighted=False, progress=None):
    """Closeness centrality of every vertex: NetworkX 3.6's ``closeness_centrality``.

    ``c(u) = (r(u) − 1) / Σ_v d(v, u)``, the distances *to* u from the r(u) vertices that
    reach it (u included), times ``(r(u) − 1) / (n − 1)`` with ``wf_improved`` (Wasserman and
    Faust's scaling for graphs that are not strongly connected); 0 where the sum is 0. All
    the distances come from searches from every vertex, a batch of sources at a time
    (:func:`multi_source_bfs`, or :func:`multi_source_sssp` when ``weighted``).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j. Runs where ``A`` lives.
    wf_improved : bool
        Scale by the fraction of the other vertices that reach u.
    weighted : bool
        Distances are sums of A's values (non-negative; NetworkX's ``distance=``). ``False``,
        or a structure-only matrix: hop counts (every stored entry is an edge).
    progress : callable, optional
        Called as ``progress(done, n)`` (sources searched) after each batch.

    Returns
    -------
    array of float64, shape (n,)
        A NumPy or CuPy array on A's device.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    >>> algorithms.closeness_centrality(A)
    array([0.66666667, 1.        , 0.66666667])
    >>> D = sp.csr_matrix(np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]], dtype=float))
    >>> algorithms.closeness_centrality(D)  # incoming distances: 2 reaches nobody
    array([0.        , 0.5       , 0.66666667])
    """
    op = "closeness_centrality"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    _check_progress(op, progress)
    wf_improved = _check_flag(op, "wf_improved", wf_improved)
    weighted = _check_flag(op, "weighted", weighted)
    n = A.nrows
    xp = sr.array_module(A.device)
    reached = xp.zeros(n, dtype=np.float64)  # r(u): the vertices reaching u, u included
    total = xp.zeros(n, dtype=np.float64)    # Σ_v d(v, u) over them
    for _, D in _distance_batches(op, A, weighted, progress):
        finite = xp.isfinite(D)
        # r += Σ_j [D(j, u) < ∞],  Σ += Σ_j D(j, u)   (column sums over the batch's sources)
        reached += finite.sum(axis=0)
        total += xp.where(finite, D, 0.0).sum(axis=0)
    if n <= 1:
        return xp.zeros(n, dtype=np.float64)
    # NetworkX's arithmetic, operation for operation: (r − 1) / Σ, then · (r − 1) / (n − 1)
    c = (reached - 1.0) / xp.where(total > 0, total, 1.0)
    if wf_improved:
        c = c * ((reached - 1.0) / (n - 1))
    return xp.where(total > 0, c, 0.0)


def harmonic_centrality(A, *, weighted=False, progress=None):
    """Harmonic centrality of every vertex: NetworkX 3.6's ``harmonic_centrality``.

    ``h(u) = Σ_{v : 0 < d(v, u) < ∞} 1 / d(v, u)``, the distances *to* u (a distance of 0,
    from u itself or over edges of distance 0, adds nothing, as NetworkX skips it). All the
    distances come from searches from every vertex, a batch of sources at a time
    (:func:`multi_source_bfs`, or :func:`multi_source_sssp` when ``weighted``).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j. Runs where ``A`` lives.
    weighted : bool
        Distances are sums of A's values (non-negative; NetworkX's ``distance=``). ``False``,
        or a structure-only matrix: hop counts (every stored entry is an edge).
    progress : callable, optional
        Called as ``progress(done, n)`` (sources searched) after each batch.

    Returns
    -------
    array of float64, shape (n,)
        A NumPy or CuPy array on A's device.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    >>> algorithms.harmonic_centrality(A)
    array([1.5, 2. , 1.5])
    """
    op = "harmonic_centrality"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    _check_progress(op, progress)
    weighted = _check_flag(op, "weighted", weighted)
    n = A.nrows
    xp = sr.array_module(A.device)
    h = xp.zeros(n, dtype=np.float64)
    for _, D in _distance_batches(op, A, weighted, progress):
        # h += Σ_j 1 / D(j, u)   over 0 < D(j, u) < ∞   (column sums over the batch's sources)
        h += xp.where(xp.isfinite(D) & (D > 0), 1.0 / xp.where(D > 0, D, 1.0), 0.0).sum(axis=0)
    return h
