"""Edge betweenness centrality: Brandes' accumulation onto the edges (Brandes 2008, "On
variants of shortest-path betweenness centrality"), a batch of sources at once, in the
algebra form of :func:`algorithms.betweenness_centrality` (its helpers: the same forward and
backward sweeps, the same float arithmetic).

For a batch of s sources, σ, the BFS levels and the dependencies δ are dense n × s matrices
(forward: ``F⟨¬visited⟩ = Gᵀ plus.second F``, σ += F; backward, deepest level first:
``δ⟨level = d − 1⟩ += σ .* (G plus.second W)``, ``W⟨level = d⟩ = (1 + δ) ./ σ``). An edge
v → w on a shortest path from source j (``level(w) = level(v) + 1``) then carries

    c_j(v, w) = σ_j(v) · (1 + δ_j(w)) / σ_j(w)

(NetworkX's ``c = sigma[v] * coeff``, the same two float operations), and the edge's
betweenness is the sum of c_j over the sources: for every stored entry (v, w) of G, one gather
of the rows v of σ and of the rows w of W = (1 + δ) ./ σ (an SDDMM over G's pattern, masked by
the level condition), m × s values a batch.
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring.matrix import row_of_entries

from . import centrality as _centrality
from .centrality import MAX_BATCH, _check_flag, _dependencies, _graphs, _rescale, _sources

__all__ = ["EDGE_BATCH_ELEMENTS", "edge_betweenness_centrality"]

#: Sources per batch: at most EDGE_BATCH_ELEMENTS // max(n, stored entries), so that the
#: n × s sweeps and the m × s gathers of a batch (about 40 bytes an element) stay near
#: 40 · EDGE_BATCH_ELEMENTS bytes (1.3 GB); at least 1, at most ``centrality.MAX_BATCH``.
EDGE_BATCH_ELEMENTS = 2**25


def _batch_edges(G, GT, src, rows, cols, xp):
    """Σ over the sources in ``src`` of c_j(v, w) for every stored entry (v, w) of G (rows,
    cols: its coordinates in CSR order): a float64 array of G's nvals."""
    sigma, level, _, divisor, delta = _dependencies(G, GT, src, xp,
                                                    "edge_betweenness_centrality")
    # c_j(v, w) = σ_j(v) · ((1 + δ_j(w)) / σ_j(w)) where level_j(w) = level_j(v) + 1
    W = (1.0 + delta) / divisor
    lv, lw = level[rows], level[cols]
    on_path = (lv >= 0) & (lw == lv + 1)
    return xp.where(on_path, sigma[rows] * W[cols], 0.0).sum(axis=1)


def _passes(G, GT) -> bool:
    """Whether a batch runs as compiled passes, a source each (``sr.centrality.brandes_edges``:
    the CPU with Numba, unless ``centrality.FORM`` asks for the algebra), not as the algebra
    form's masked SpMM over the whole n × s block a BFS level: on a grid of side L that is
    about 2L levels of n · s work, where a source's pass is O(n + m) (a 50 × 50 grid's 2500
    sources: 11.7 s against 0.05 s on the loaded 2-core host); the same bits."""
    return (G.device == "cpu" and _centrality.FORM != "algebra"
            and sr.centrality.compiled("cpu") and np.dtype(G.itype) == np.dtype(GT.itype)
            and max(G.nrows, G.nvals, GT.nvals) < sr.centrality.MAX_VERTICES)


def _coordinates(G, xp):
    """Row and column of each stored entry of G, CSR order (arrays on G's device, int64)."""
    rows = row_of_entries(xp, G.indptr, G.nvals)
    return rows, G.indices.astype(np.int64)


def edge_betweenness_centrality(A, *, k=None, sources=None, normalized=True, seed=None,
                                directed=True, progress=None):
    """Shortest-path betweenness centrality of every edge (NetworkX's
    ``edge_betweenness_centrality`` with ``weight=None``).

    ``c(e) = Σ_{s, t} σ(s, t | e) / σ(s, t)`` over the sources s (all vertices, or a sample)
    and all targets t, σ counting the shortest (fewest-edge) paths; rescaled as NetworkX 3.6
    rescales edge betweenness (its ``_rescale`` with ``endpoints=True``: ``1 / (k (n − 1))``
    normalized, ``n / k`` unnormalized, halved for an undirected graph; nothing below two
    vertices).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j; only the structure is read (paths are unweighted,
        NetworkX's ``weight=None``). Runs where ``A`` lives (CPU or GPU).
    k, sources, seed : optional
        A sample of sources, as :func:`algorithms.betweenness_centrality` takes them (``k``
        sampled as NetworkX samples, or the ``sources`` themselves).
    normalized : bool
        Divide by k (n − 1) (NetworkX's rule for edges, directed or not).
    directed : bool
        True (default): the directed graph of A; the result has A's pattern. False: the
        undirected graph of A ∪ Aᵀ; the result has that symmetric pattern, and its entries
        (i, j) and (j, i) both hold the betweenness of the edge {i, j} (the paths through
        i → j and through j → i), halved as NetworkX counts each unordered pair once.
    progress : callable, optional
        Called as ``progress(done, total)`` (sources) after each batch.

    Returns
    -------
    Matrix
        float64, on A's device: ``C(i, j)`` the betweenness of edge i → j (of {i, j} when
        undirected); self-loops hold 0 (no shortest path takes one). Where shortest-path
        counts pass float64's range, NaN where NetworkX's terms are NaN (σ = inf).

    Examples
    --------
    >>> import semiring as sr
    >>> from algorithms.edge_betweenness import edge_betweenness_centrality
    >>> A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 3]], undirected=True, device="cpu")
    >>> C = edge_betweenness_centrality(A, directed=False, normalized=False)
    >>> C.to_dense(missing=0)
    array([[0., 3., 0., 0.],
           [3., 0., 4., 0.],
           [0., 4., 0., 3.],
           [0., 0., 3., 0.]])
    """
    op = "edge_betweenness_centrality"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    if progress is not None and not callable(progress):
        raise sr.DomainMismatch(f"{op}: progress must be callable, got {type(progress).__name__}")
    # (before k's sample, which draws from a random.Random seed)
    normalized = _check_flag(op, "normalized", normalized)
    directed = _check_flag(op, "directed", directed)
    n = A.nrows
    xp = sr.array_module(A.device)
    src, sampled = _sources(op, sources, k, seed, n)
    G, GT = _graphs(A, directed)
    vals = xp.zeros(G.nvals, dtype=np.float64)
    if n and G.nvals:
        rows, cols = _coordinates(G, xp)
        total = int(src.size)
        batch = max(1, min(MAX_BATCH, EDGE_BATCH_ELEMENTS // max(n, G.nvals)))
        passes = _passes(G, GT)
        for start in range(0, total, batch):
            part = src[start:start + batch]
            terms = sr.centrality.brandes_edges(G, part, GT=GT) if passes else None
            vals += terms if terms is not None else _batch_edges(G, GT, xp.asarray(part),
                                                                 rows, cols, xp)
            if progress is not None:
                progress(min(start + batch, total), total)
        if not directed:
            # the edge {i, j}: the paths through i → j and those through j → i (G is
            # symmetric: entry (j, i) is where the key j·n + i falls among the entries')
            keys = rows * n + cols
            order = xp.argsort(keys)
            vals = vals + vals[order[xp.searchsorted(keys[order], cols * n + rows)]]
        vals = _rescale(vals, xp, n, normalized, directed, True, src if sampled else None)
    return sr.Matrix(G.indptr, G.indices, vals, G.shape)
