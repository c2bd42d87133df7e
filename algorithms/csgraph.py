"""A ``scipy.sparse.csgraph``-compatible facade: SciPy's names, keywords, outputs and sentinels,
computed with the semiring algebra on the CPU or the GPU (where the input lives).

The native API (``algorithms.bfs``, ...) is the one to use in new code; this module is for code
written against SciPy. Its functions return exactly what SciPy returns, element for element.
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring import _backend as _b
from semiring.errors import DimensionMismatch, DomainMismatch, InvalidIndex
from semiring.matrix import Matrix, as_matrix

#: SciPy's "no predecessor" value.
NULL_IDX = -9999


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
