"""A ``scipy.sparse.csgraph``-compatible facade: SciPy's names, keywords, outputs and sentinels,
computed with the semiring algebra on the CPU or the GPU (where the input lives).

The native API (``algorithms.bfs``, ``algorithms.sssp``, ...) is the one to use in new code;
this module is for code written against SciPy. Its functions return what SciPy returns: the
traversals element for element, the shortest paths the same distances and predecessors that
form a valid shortest-path tree (where several trees exist, not necessarily SciPy's).
"""

from __future__ import annotations

import warnings

import numpy as np

import semiring as sr
from semiring import _backend as _b
from semiring.errors import DimensionMismatch, DomainMismatch, InvalidIndex, InvalidValue
from semiring.matrix import Matrix, as_matrix

from ..apsp import apsp as _apsp_native
from ..sssp import _matrix_facts
from ..sssp import sssp as _sssp_native

#: SciPy's "no predecessor" value.
NULL_IDX = -9999

try:  # SciPy is a dependency, but keep the facade importable without csgraph's extension
    from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycleError
except ImportError:  # pragma: no cover
    _ScipyNegativeCycleError = Exception


class NegativeCycleError(sr.NegativeCycleError, _ScipyNegativeCycleError):
    """A negative cycle: caught by ``except semiring.NegativeCycleError`` and by
    ``except scipy.sparse.csgraph.NegativeCycleError`` alike."""


def _as_graph(csgraph, op: str) -> Matrix:
    """A Matrix from what SciPy's csgraph accepts: sparse matrices (explicit zeros are edges)
    or dense arrays (0, inf and NaN are not edges), on the device the input lives on."""
    if isinstance(csgraph, Matrix):
        A = csgraph
    elif isinstance(csgraph, np.ndarray) or _b.is_cupy_array(csgraph) or isinstance(csgraph, list):
        dev = _b.device_of_array(csgraph)
        xp = _b.xp_of(dev)
        a = xp.asarray(csgraph)
        if a.ndim != 2:
            raise DimensionMismatch(f"{op}: csgraph must be 2-D, got shape {a.shape}")
        edge = a != 0
        if a.dtype.kind == "f":
            edge &= xp.isfinite(a)
        rows, cols = xp.nonzero(edge)
        A = Matrix.from_coo(rows, cols, a[rows, cols].astype(xp.float64), nrows=a.shape[0],
                            ncols=a.shape[1], device=dev)
    else:
        A = as_matrix(csgraph, op=op, arg="csgraph")
    if A.nrows != A.ncols:
        raise DimensionMismatch(f"{op}: csgraph must be square (N, N), got shape {A.shape}")
    return A


def breadth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """Breadth-first ordering from ``i_start``, identical to
    ``scipy.sparse.csgraph.breadth_first_order`` (the same order and the same predecessors).

    SciPy visits the queue first in, first out, and each vertex's neighbours in the order of
    its CSR row (then, for ``directed=False``, of its transposed row). Per level that is two
    products: each unvisited vertex takes as parent the frontier vertex earliest in the order,

        p⟨¬seen⟩ = pos min.first A          (out-edges u → v)
        p'⟨¬seen⟩ = A min.second pos        (in-edges v → u, undirected only)

    and the new level is sorted by (parent's position, out before in, vertex).

    Returns int32 arrays on the input's device: ``node_array`` and, when
    ``return_predecessors``, ``predecessors`` (-9999 for ``i_start`` and unreached vertices).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]]))
    >>> order, pred = csgraph.breadth_first_order(G, 0)
    >>> order.tolist(), pred.tolist()
    ([0, 1, 2, 3], [-9999, 0, 0, 1])
    """
    op = "breadth_first_order"
    A = _as_graph(csgraph, op)
    n = A.nrows
    if isinstance(i_start, bool) or not isinstance(i_start, (int, np.integer)):
        raise DomainMismatch(f"{op}: i_start must be an integer, got {type(i_start).__name__}")
    if not 0 <= int(i_start) < n:
        raise InvalidIndex(f"{op}: i_start must lie in [0, {n}), got {int(i_start)}")
    i_start = int(i_start)
    xp = A.xp
    order = xp.empty(n, dtype=xp.int64)
    order[0] = i_start
    count = 1
    pred = xp.full(n, NULL_IDX, dtype=xp.int32)
    seen = xp.zeros(n, dtype=bool)
    seen[i_start] = True
    pos = sr.Vector.from_coo(xp.asarray([i_start]), xp.asarray([0], dtype=xp.int64), size=n,
                             device=A.device)
    while True:
        unseen = dict(mask=sr.Vector.from_dense(seen, device=A.device), complement=True)
        # p⟨¬seen⟩ = pos min.first A
        p_out = sr.vxm(pos, A, sr.min_first, **unseen).to_dense(missing=n).astype(xp.int64)
        best, via_in = p_out, None
        if not directed:
            # p'⟨¬seen⟩ = A min.second pos
            p_in = sr.mxv(A, pos, sr.min_second, **unseen).to_dense(missing=n).astype(xp.int64)
            best = xp.minimum(p_out, p_in)
            via_in = p_out != best  # found through the transposed row only
        new = xp.flatnonzero(best < n)
        if new.size == 0:
            break
        keys = [new, best[new]] if via_in is None else [new, via_in[new], best[new]]
        new = new[xp.lexsort(xp.stack(keys))]
        k = int(new.size)
        order[count:count + k] = new
        pred[new] = order[best[new]].astype(xp.int32)
        seen[new] = True
        pos = sr.Vector.from_coo(new, xp.arange(count, count + k, dtype=xp.int64), size=n,
                                 device=A.device)
        count += k
    node_array = order[:count].astype(xp.int32)
    return (node_array, pred) if return_predecessors else node_array


def _entries_at(A: Matrix, rows, cols):
    """A(rows[t], cols[t]) as float64, 0 where there is no entry (SciPy's csgraph[i, j])."""
    xp = A.xp
    n = max(A.ncols, 1)
    r, c, v = A.to_coo()
    keys = r * n + c  # sorted: the CSR is canonical
    want = rows.astype(xp.int64) * n + cols.astype(xp.int64)
    at = xp.minimum(xp.searchsorted(keys, want), max(keys.size - 1, 0))
    out = xp.zeros(want.size, dtype=xp.float64)
    if keys.size:
        hit = keys[at] == want
        out[hit] = v[at[hit]].astype(xp.float64)
    return out


def breadth_first_tree(csgraph, i_start, directed=True):
    """The breadth-first tree from ``i_start``, identical to
    ``scipy.sparse.csgraph.breadth_first_tree``: an N × N CSR matrix with an entry
    parent → child weighted by ``csgraph[parent, child]`` (undirected: the smaller of the two
    directions, where SciPy reads a missing or zero weight as inf). A ``scipy.sparse`` matrix
    for CPU input, a ``cupyx.scipy.sparse`` one for GPU input.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]]))
    >>> csgraph.breadth_first_tree(G, 0).toarray()
    array([[0., 1., 2., 0.],
           [0., 0., 0., 1.],
           [0., 0., 0., 0.],
           [0., 0., 0., 0.]])
    """
    A = _as_graph(csgraph, "breadth_first_tree")
    _, pred = breadth_first_order(A, i_start, directed=directed)
    xp = A.xp
    n = A.nrows
    child = xp.flatnonzero(pred >= 0)
    parent = pred[child].astype(xp.int64)
    weight = _entries_at(A, parent, child)
    if not directed:
        back = _entries_at(A, child, parent)
        weight[weight == 0] = xp.inf
        back[back == 0] = xp.inf
        weight = xp.minimum(weight, back)
    order = xp.argsort(parent * max(n, 1) + child)
    parent, child, weight = parent[order], child[order], weight[order]
    indptr = xp.searchsorted(parent, xp.arange(n + 1, dtype=xp.int64)).astype(xp.int32)
    if A.device == "gpu":
        import cupyx.scipy.sparse as cps  # noqa: PLC0415

        return cps.csr_matrix((weight, child.astype(xp.int32), indptr), shape=(n, n))
    import scipy.sparse as sps  # noqa: PLC0415

    return sps.csr_matrix((weight, child.astype(np.int32), indptr), shape=(n, n))


# ------------------------------------------------------------------------------ shortest paths


def _weighted(csgraph, op: str, directed: bool, unweighted: bool) -> Matrix:
    """The graph as SciPy computes on it: float64 weights (1.0 when ``unweighted``), and for
    ``directed=False`` both directions of every edge, the smaller weight where both exist."""
    A = _as_graph(csgraph, op)
    xp = A.xp
    n = A.nrows
    if not directed:
        r, c, v = A.to_coo()
        v = v.astype(xp.float64)
        A = Matrix.from_coo(xp.concatenate([r, c]), xp.concatenate([c, r]),
                            xp.concatenate([v, v]), nrows=n, ncols=n, dup_op=sr.binary.min,
                            device=A.device)
    if unweighted:
        return Matrix(A.indptr, A.indices, None, A.shape, iso_value=1.0, dtype=np.float64)
    if A.dtype != np.float64:
        vals = xp.full(A.nvals, float(A.iso_value), dtype=xp.float64) if A.is_iso \
            else A.values.astype(xp.float64)
        return Matrix(A.indptr, A.indices, vals, A.shape)
    return A


def _sources(indices, n: int, op: str):
    """(list of sources, whether the result is 1-D)."""
    if indices is None:
        return list(range(n)), False
    if _b.is_cupy_array(indices):
        indices = indices.get()
    a = np.asarray(indices)
    if a.dtype.kind not in "iu":
        raise DomainMismatch(f"{op}: indices must be integers, got {a.dtype}")
    if a.ndim > 1:
        raise DimensionMismatch(f"{op}: indices must be a scalar or 1-D, got shape {a.shape}")
    bad = a[(a < 0) | (a >= n)] if a.size else a
    if bad.size:
        raise InvalidIndex(f"{op}: indices must lie in [0, {n}), got {int(bad.ravel()[0])}")
    return [int(i) for i in a.ravel()], a.ndim == 0


def _run(A, sources, method: str, op: str, **kw):
    """Distances (float64, inf) and int64 predecessors (−1), one row per source."""
    xp = A.xp
    dists, preds = [], []
    for s in sources:  # one SSSP per source for now; batched (SpMM) SSSP comes with APSP
        try:
            d, p = _sssp_native(A, s, method, predecessors=True, **kw)
        except sr.NegativeCycleError as e:
            raise NegativeCycleError(f"{op}: {e}", vertices=e.vertices) from e
        dists.append(d)
        preds.append(p)
    if not sources:
        return xp.zeros((0, A.nrows)), xp.zeros((0, A.nrows), dtype=xp.int64)
    return xp.stack(dists), xp.stack(preds)


def _output(dist, pred, one: bool, return_predecessors: bool):
    pred = _b.xp_of(_b.device_of_array(pred)).where(pred < 0, NULL_IDX, pred).astype(np.int32)
    if one:
        dist, pred = dist[0], pred[0]
    return (dist, pred) if return_predecessors else dist


def _has_negative(A: Matrix) -> bool:
    return _matrix_facts(A)["min"] < 0


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
             limit=np.inf, min_only=False):
    """Shortest paths from ``indices``, as ``scipy.sparse.csgraph.dijkstra`` (same parameters,
    float64 distances with ``inf``, int32 predecessors with −9999).

    Computed by :func:`algorithms.delta_stepping`. Like SciPy, negative weights give a
    warning; the distances then come from :func:`algorithms.bellman_ford` (exact, and a
    :class:`NegativeCycleError` where SciPy's answer would be wrong). ``limit`` stops the
    delta-stepping after the last bucket within it; farther vertices are unreached. With
    ``min_only=True``: the distance from the nearest of the sources, and with
    ``return_predecessors`` also ``sources`` (the source each vertex's path starts from).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1.0, 4.0], [0, 0, 2.0], [0, 0, 0]]))
    >>> dist, pred = csgraph.dijkstra(G, indices=0, return_predecessors=True)
    >>> dist.tolist(), pred.tolist()
    ([0.0, 1.0, 3.0], [-9999, 0, 1])
    """
    op = "dijkstra"
    A = _weighted(csgraph, op, directed, unweighted)
    limit = float(limit)
    if not limit >= 0:
        raise InvalidValue(f"{op}: limit must be >= 0, got {limit}")
    sources, one = _sources(indices, A.nrows, op)
    method = "delta_stepping"
    if _has_negative(A):
        warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if the "
                      "graph contains negative cycles. Consider johnson or bellman_ford.",
                      UserWarning, stacklevel=2)
        method = "bellman_ford"
    kw = {"limit": limit} if method == "delta_stepping" and limit != np.inf else {}
    dist, pred = _run(A, sources, method, op, **kw)
    xp = A.xp
    if limit != np.inf:
        far = dist > limit
        dist = xp.where(far, xp.inf, dist)
        pred = xp.where(far, -1, pred)
    if not min_only:
        return _output(dist, pred, one, return_predecessors)
    n = A.nrows
    if not sources:
        best = xp.full(n, xp.inf)
        return (best, xp.full(n, NULL_IDX, dtype=xp.int32),
                xp.full(n, NULL_IDX, dtype=xp.int32)) if return_predecessors else best
    row = xp.argmin(dist, axis=0)
    cols = xp.arange(n)
    best = dist[row, cols]
    reached = xp.isfinite(best)
    src = xp.asarray(np.asarray(sources, dtype=np.int64))[row]
    src = xp.where(reached, src, NULL_IDX).astype(xp.int32)
    p = xp.where(pred[row, cols] < 0, NULL_IDX, pred[row, cols]).astype(xp.int32)
    return (best, p, src) if return_predecessors else best


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False,
                 unweighted=False):
    """Shortest paths with negative weights, as ``scipy.sparse.csgraph.bellman_ford``.

    Computed by :func:`algorithms.bellman_ford`; a negative cycle reachable from one of the
    sources raises :class:`NegativeCycleError` (SciPy's class as well as semiring's).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 2.0, 0], [0, 0, -1.0], [0, 0, 0]]))
    >>> csgraph.bellman_ford(G, indices=0).tolist()
    [0.0, 2.0, 1.0]
    """
    op = "bellman_ford"
    A = _weighted(csgraph, op, directed, unweighted)
    sources, one = _sources(indices, A.nrows, op)
    dist, pred = _run(A, sources, "bellman_ford", op)
    return _output(dist, pred, one, return_predecessors)


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None):
    """Shortest paths, as ``scipy.sparse.csgraph.shortest_path``.

    ``method``: ``'auto'`` (``'D'`` for non-negative weights, else ``'BF'``), ``'FW'``
    (:func:`floyd_warshall`; like SciPy, ``indices`` is not accepted with it), ``'D'``
    (:func:`dijkstra`), ``'BF'`` (:func:`bellman_ford`) or ``'J'`` (:func:`johnson`).
    ``overwrite`` is accepted and ignored (the input is never modified). Multiple sources run
    one SSSP each for now.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1.0], [3.0, 0]]))
    >>> csgraph.shortest_path(G).tolist()
    [[0.0, 1.0], [3.0, 0.0]]
    """
    op = "shortest_path"
    if method == "FW":
        if indices is not None:
            raise InvalidValue(f"{op}: indices is not supported with method='FW' (as in SciPy)")
        return floyd_warshall(csgraph, directed=directed,
                              return_predecessors=return_predecessors, unweighted=unweighted)
    if method not in ("auto", "D", "BF", "J"):
        raise InvalidValue(f"{op}: method must be one of 'auto', 'FW', 'D', 'BF', 'J', "
                           f"got {method!r}")
    A = _weighted(csgraph, op, directed, unweighted)
    if method == "auto":
        method = "BF" if _has_negative(A) else "D"
    kw = dict(directed=True, indices=indices, return_predecessors=return_predecessors)
    if method == "D":
        return dijkstra(A, **kw)
    if method == "J":
        return johnson(A, **kw)
    return bellman_ford(A, **kw)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False):
    """Shortest paths by Johnson's reweighting, as ``scipy.sparse.csgraph.johnson``.

    One :func:`algorithms.bellman_ford` from a virtual vertex joined to every vertex by a
    zero-weight edge gives potentials h; the weights w + h(u) − h(v) are non-negative, so each
    source runs :func:`algorithms.delta_stepping`, and d(s, v) = d'(s, v) − h(s) + h(v). Like
    SciPy, a negative cycle anywhere in the graph raises :class:`NegativeCycleError`.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 2.0, 0], [0, 0, -1.0], [0, 0, 0]]))
    >>> csgraph.johnson(G, indices=0).tolist()
    [0.0, 2.0, 1.0]
    """
    op = "johnson"
    A = _weighted(csgraph, op, directed, unweighted)
    sources, one = _sources(indices, A.nrows, op)
    if not _has_negative(A):
        dist, pred = _run(A, sources, "delta_stepping", op)
        return _output(dist, pred, one, return_predecessors)
    xp = A.xp
    n = A.nrows
    r, c, w = A.to_coo()
    virt = xp.full(n, n, dtype=xp.int64)
    V = Matrix.from_coo(xp.concatenate([r, virt]), xp.concatenate([c, xp.arange(n)]),
                        xp.concatenate([w, xp.zeros(n)]), nrows=n + 1, ncols=n + 1,
                        device=A.device)
    try:
        h = _sssp_native(V, n, "bellman_ford")[:n]
    except sr.NegativeCycleError as e:
        raise NegativeCycleError(f"{op}: {e}", vertices=e.vertices) from e
    # w'(u, v) = w + h(u) − h(v) >= 0 (rounding may leave −0.0 or a tiny negative: clip)
    rw = xp.maximum(w + h[r] - h[c], 0.0)
    R = Matrix(A.indptr, A.indices, rw, A.shape)
    dist, pred = _run(R, sources, "delta_stepping", op)
    dist = dist - h[xp.asarray(np.asarray(sources, dtype=np.int64))][:, None] + h[None, :]
    return _output(dist, pred, one, return_predecessors)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False):
    """All-pairs shortest paths, as ``scipy.sparse.csgraph.floyd_warshall``: the (N, N)
    float64 distance matrix (``inf`` where unreachable) and, with ``return_predecessors``,
    the (N, N) int32 predecessor matrix (−9999 on the diagonal and where unreachable).

    Computed by :func:`algorithms.apsp` with ``method='floyd_warshall'`` (blocked, on the
    input's device). A negative cycle anywhere raises :class:`NegativeCycleError`, as SciPy
    does. Like SciPy, self-loops are ignored (the diagonal is 0), negative ones included
    (the native :func:`algorithms.apsp` reports a negative self-loop as a negative cycle).
    ``overwrite`` is accepted and ignored (the input is never modified).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1.0, 4.0], [0, 0, 2.0], [1.0, 0, 0]]))
    >>> dist, pred = csgraph.floyd_warshall(G, return_predecessors=True)
    >>> dist.tolist()
    [[0.0, 1.0, 3.0], [3.0, 0.0, 2.0], [1.0, 2.0, 0.0]]
    >>> pred.tolist()
    [[-9999, 0, 1], [2, -9999, 1], [2, 0, -9999]]
    """
    op = "floyd_warshall"
    A = _weighted(csgraph, op, directed, unweighted)
    r, c, v = A.to_coo()
    off = r != c
    if not bool(off.all()):  # SciPy ignores self-loops
        A = Matrix.from_coo(r[off], c[off], v[off], nrows=A.nrows, ncols=A.ncols,
                            device=A.device)
    try:
        res = _apsp_native(A, "floyd_warshall", predecessors=return_predecessors)
    except sr.NegativeCycleError as e:
        raise NegativeCycleError(f"{op}: {e}", vertices=e.vertices) from e
    if not return_predecessors:
        return res
    dist, pred = res
    return dist, A.xp.where(pred < 0, NULL_IDX, pred).astype(np.int32)
