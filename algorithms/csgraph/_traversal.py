"""Traversals of the facade: breadth_first_order, breadth_first_tree, depth_first_order,
depth_first_tree.

Host input runs SciPy's compiled traversal on the validated graph (a fresh float64 CSR in the
caller's stored order, so neighbours are visited in stored order exactly as SciPy visits
them): O(N + nnz) whatever the diameter. GPU input (:func:`_bfs_device`, :func:`_dfs_device`):
a small graph, or a long and thin one (a path, a grid, a road network: ``_thin``'s probe),
runs SciPy's search on a host copy of the *structure* (indptr and indices; no weights), the
large thin ones renumbered in BFS level order first so that the host search walks memory
nearly in order; a traversal that widens early (a Kronecker graph) runs the breadth-first
ones as a loop of masked products on the GPU (one level a round). Depth-first order is
inherently sequential and runs on the host by design (the structure copied to the host, the
undirected rows built on the GPU, the results back to the GPU).
"""

from __future__ import annotations

import scipy.sparse.csgraph as scg

import semiring as sr

from . import _thin
from . import _validation as _v
from ._shortest import NULL_IDX, _engine, _lookup, _scg, tree_csr


#: The engine's BFS gives up at any level from this one on where the levels so far averaged
#: fewer than :data:`THIN_FRONTIER` vertices: a long, thin traversal (a path, a grid, a road
#: network) costs a fixed launch-and-sync overhead per level on the GPU and O(N) dense work per
#: level on either backend, while SciPy's host BFS is O(N + nnz) whatever the diameter. The
#: answer is the same (SciPy's order is the specification); the levels already run are wasted,
#: at most max(THIN_LEVELS, reached / THIN_FRONTIER) of them, checked at every level so a
#: thin tail after a wide start (a lollipop) hands over too. Measured on an H100: one GPU
#: level costs 1 to 2 ms at n = 1000 to 10⁴ (a path of 10⁴ vertices: 77 ms with 64 levels,
#: SciPy 0.07 ms), so 16 levels bound the waste to tens of ms; Kronecker graphs stay below it.
#: On 2 cores (the tests' engine path on NumPy) a path of 10⁴ vertices ran every level in
#: 1.7 s against SciPy's 0.1 ms, 10⁵ vertices in 129 s: O(N · levels).
THIN_LEVELS = 16
THIN_FRONTIER = 4096
#: Apply the thin-traversal rule on the CPU too (the tests' engine path on NumPy); the tests
#: set it False to run a long traversal's every level.
THIN_ON_CPU = True


def _start(i_start, n: int, op: str) -> int:
    return _v.normalize_vertex(i_start, n, op, "i_start")


def _host(csgraph, op, directed):
    S = _v.as_scipy_csr(csgraph, op, directed=directed, borrow=True)
    return S, S.shape[0]


def _as_kind(T, kind: str):
    """SciPy's tree (a csr_array of our float64 copy) as the kind SciPy answers the caller."""
    return _v.sparse_output(kind, T.data, T.indices, T.indptr, T.shape)


def _to_gpu(res, device: str = "gpu"):
    if isinstance(res, tuple):
        return tuple(sr.to_device(r, device) for r in res)
    return sr.to_device(res, device)


# ------------------------------------------------------------------------------ engine BFS


def _slots(csgraph, directed: bool):
    """For a non-canonical sparse CSR input (unsorted or duplicate column indices), the rank of
    each edge (u, v) in u's stored row (its first occurrence): SciPy visits neighbours in stored
    order. None for canonical input (the rank is then the column order)."""
    csgraph = _v._csc_undirected(csgraph, directed)
    if not (_v._is_scipy_sparse(csgraph) or _v._is_cupyx_sparse(csgraph)):
        return None
    # the stored order SciPy traverses: that of its own conversion (a COO's or a cast's
    # duplicates summed and rows sorted), not the caller's
    csgraph = _v.scipy_view(csgraph, "breadth_first_order")
    if _v.canonical_csr(csgraph):
        return None
    device = "gpu" if _v.is_gpu_input(csgraph) else "cpu"
    xp = sr.array_module(device)
    indptr = csgraph.indptr.astype(xp.int64)
    n = csgraph.shape[0]
    pos = xp.arange(csgraph.indices.size, dtype=xp.int64)
    rows = xp.searchsorted(indptr, pos, side="right") - 1  # the row of each stored entry
    slot = pos - indptr[rows]
    return sr.Matrix.from_coo(rows, csgraph.indices, slot.astype(xp.float64), nrows=n, ncols=n,
                              dup_op=sr.binary.min, device=device)


def _bfs_engine(csgraph, A: sr.Matrix, i_start: int, directed: bool):
    """SciPy's breadth-first order and predecessors by a loop of masked products.

    SciPy visits the queue first in, first out, and each vertex's neighbours in the order of
    its CSR row (then, for ``directed=False``, of its transposed row). Per level: each unvisited
    vertex takes as parent the frontier vertex earliest in the order,

        p⟨¬seen⟩ = pos min.first A          (out-edges u → v)
        p'⟨¬seen⟩ = A min.second pos        (in-edges v → u, undirected only)

    and the new level is sorted by (parent's position, out before in, rank in the row).
    One level costs a few launches, a sync and O(N) dense work: from :data:`THIN_LEVELS` levels
    on, as soon as the frontiers averaged fewer than :data:`THIN_FRONTIER` vertices, it returns
    None and the caller finishes on the host (issue 20 owns the per-level cost).
    """
    xp = A.xp
    n = A.nrows
    slots = _slots(csgraph, directed)
    order = xp.empty(n, dtype=xp.int64)
    order[0] = i_start
    count = 1
    pred = xp.full(n, NULL_IDX, dtype=xp.int32)
    seen = xp.zeros(n, dtype=bool)
    seen[i_start] = True
    pos = sr.Vector.from_coo(xp.asarray([i_start]), xp.asarray([0], dtype=xp.int64), size=n,
                             device=A.device)
    levels = 0
    while True:
        levels += 1
        if levels >= THIN_LEVELS and count < THIN_FRONTIER * levels and (
                A.device == "gpu" or THIN_ON_CPU):
            return None  # long and thin: the host BFS is O(N + nnz) (see THIN_LEVELS)
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
        parent = order[best[new]]
        rank = new
        if slots is not None:
            out_edge = xp.ones(new.size, dtype=bool) if via_in is None else ~via_in[new]
            rank = xp.where(out_edge, _lookup(slots, parent, new, 0.0).astype(xp.int64), new)
        keys = [rank, best[new]] if via_in is None else [rank, via_in[new], best[new]]
        perm = xp.lexsort(xp.stack(keys))
        new, parent = new[perm], parent[perm]
        k = int(new.size)
        order[count:count + k] = new
        pred[new] = parent.astype(xp.int32)
        seen[new] = True
        pos = sr.Vector.from_coo(new, xp.arange(count, count + k, dtype=xp.int64), size=n,
                                 device=A.device)
        count += k
    return order[:count].astype(xp.int32), pred


def _tree_from_pred(csgraph, A: sr.Matrix, pred, directed: bool, kind: str):
    """SciPy's traversal tree: the edge pred[v] → v weighted ``csgraph[pred[v], v]`` (parallel
    edges summed), for ``directed=False`` the smaller of both directions (zero read as inf)."""
    xp = A.xp
    # SciPy's trees are its reconstruct_path of its traversal's int32 predecessors: the same
    # argsort of the same int32 array stores each row's children in SciPy's order
    return tree_csr(A, pred.astype(xp.int64), pred.astype(xp.int32), directed, kind, csgraph)


def _small(csgraph, op: str) -> bool:
    """GPU input within ``_validation.HOST_MAX_WORK[op]`` stored entries."""
    limit = _v.HOST_MAX_WORK.get(op, 0)
    return bool(limit) and _v.is_gpu_input(csgraph) and \
        len(getattr(csgraph, "shape", ())) == 2 and _v._entries(csgraph) <= limit


def _bfs_device(csgraph, i_start, directed: bool, op: str, need_pred: bool = True):
    """SciPy's breadth-first order and predecessors for the engine path (GPU input):
    ``(order, pred, A or None)``, on the input's device.

    A probe (:func:`._thin.probe`: :data:`._thin.PROBE_LEVELS` levels in one launch) decides:
    a traversal that widens early (a Kronecker graph) runs the level loop of
    :func:`_bfs_engine` on the GPU; a narrow one (a path, a grid, a road network) runs
    SciPy's O(N + nnz) search on a host copy of the structure (no weights), renumbered in
    level order where that makes the host search cache-friendly (:func:`._thin.host_traversal`);
    a level loop that turns thin later (a lollipop) hands over to the same host search."""
    if _small(csgraph, op):
        # SciPy's search on a host copy of the structure: one transfer each way (a level
        # loop's launches cost more than the whole search at this size)
        indptr, indices, n = _thin.traversal_structure(csgraph, op, directed, combine=False)
        order, pred = _thin.host_traversal("bfs", indptr, indices, n, _start(i_start, n, op),
                                           directed=directed, need_pred=need_pred)
        return order, pred, None
    indptr, indices, n = _thin.traversal_structure(csgraph, op, directed)
    i = _start(i_start, n, op)
    status = "wide"
    if _thin.applies("gpu" if sr.is_gpu_array(indptr) else "cpu"):
        status, level = _thin.probe(indptr, indices, n, i, _thin.PROBE_LEVELS)
    if status in ("wide", "overflow"):
        A = _v.as_graph(csgraph, op, dup="sum", directed=directed)
        res = _bfs_engine(csgraph, A, i, directed)
        if res is not None:
            return res[0], res[1], A
        res = _thin.host_traversal("bfs", indptr, indices, n, i, need_pred=need_pred)
        if res is None:
            raise sr.InvalidValue(f"{op}: a thin traversal of more than 2**31 - 1 entries "
                                  f"is not supported")
        return res[0], res[1], A
    if _thin.worth_renumbering(status, level, int(indices.size)):
        if status == "limit":  # every level, by the engine's own (barrier-free) search
            level = _thin.full_levels(indptr, indices, n, i, symmetric=not directed)
        res = _thin.host_traversal("bfs", indptr, indices, n, i, level, need_pred=need_pred)
        if res is not None:
            return res[0], res[1], None
    res = _thin.host_traversal("bfs", indptr, indices, n, i, need_pred=need_pred)
    if res is None:  # beyond SciPy's int32 indices: the level loop
        A = _v.as_graph(csgraph, op, dup="sum", directed=directed)
        res = _bfs_engine(csgraph, A, i, directed)
        if res is None:
            raise sr.InvalidValue(f"{op}: a thin traversal of more than 2**31 - 1 entries "
                                  f"is not supported")
        return res[0], res[1], A
    return res[0], res[1], None


def _dfs_device(csgraph, i_start, directed: bool, op: str, need_pred: bool = True):
    """SciPy's depth-first order and predecessors for GPU input: SciPy's search on a host copy
    of the structure only (indptr and indices, one transfer; the undirected rows built on the
    GPU), answered on the GPU. Depth-first order is sequential by nature: no GPU path."""
    small = _small(csgraph, op)  # SciPy's host search builds the undirected rows
    indptr, indices, n = _thin.traversal_structure(csgraph, op, directed,
                                                   combine=not directed and not small)
    i = _start(i_start, n, op)
    res = _thin.host_traversal("dfs", indptr, indices, n, i, directed=directed or not small,
                               need_pred=need_pred)
    if res is None:
        raise sr.InvalidValue(f"{op}: SciPy's depth-first search takes at most 2**31 - 1 "
                              f"entries, got {int(indices.size)}")
    return res


# ------------------------------------------------------------------------------ public names


def breadth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """Breadth-first ordering from ``i_start``, identical to
    ``scipy.sparse.csgraph.breadth_first_order``: the same order and the same predecessors
    (int32, -9999 for ``i_start`` and unreached vertices), neighbours visited in stored order.

    Host input runs SciPy's compiled BFS on the validated graph: O(N + nnz), a path of 10⁵
    vertices in about a millisecond. GPU input (:func:`_bfs_device`):

    - up to ``_validation.HOST_MAX_WORK['breadth_first_order']`` = 2²⁰ stored entries, SciPy's
      search on a host copy of the structure only (one transfer each way; no weights, so no
      float64 cast either), answered with CuPy arrays: a level loop's launches cost more than
      the whole search there (9 ms at N = 1000 on an H100, SciPy 0.23 ms on a copy);
    - larger graphs: a probe runs :data:`._thin.PROBE_LEVELS` = 64 BFS levels in one launch.
      A traversal that widens early (a frontier beyond one block: Kronecker graphs at level
      1 or 2) runs one masked product a level on the GPU (:func:`_bfs_engine`); one that stays
      narrow (a path, a grid, a road network) runs SciPy's O(N + nnz) search on a host copy of
      the structure, renumbered in BFS level order first where the graph is large and grows
      like a 2-D one (the levels by the engine's barrier-free BFS; the renumbered host search
      walks memory almost in order: the 2048² grid's search 103-121 -> 21-25 ms on the dev
      host), its order mapped back on the GPU. A level loop whose levels average fewer than
      :data:`THIN_FRONTIER` vertices from level :data:`THIN_LEVELS` on (a thin tail after a
      wide start) hands over to the same host search.

    Every path gives SciPy's order and predecessors exactly.

    Deviation: ``i_start`` outside [0, N) raises :class:`semiring.InvalidIndex` (SciPy returns
    an empty order, or reads out of bounds for a negative one).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]]))
    >>> order, pred = csgraph.breadth_first_order(G, 0)
    >>> order.tolist(), pred.tolist()
    ([0, 1, 2, 3], [-9999, 0, 0, 1])
    """
    S = _v.scipy_csr(csgraph)
    if S is not None and _v.fast_vertex(i_start, S.shape[0]):  # the common case, at SciPy's cost
        if directed is True:  # (undirected: SciPy's transpose would copy the broadcast values)
            S = _v.scipy_structure(S)  # the rows SciPy reads, without its copies
        return scg.breadth_first_order(S, i_start, directed, return_predecessors)
    op = "breadth_first_order"
    _v.masked_warnings(csgraph)  # SciPy's validate_graph comes first
    if _engine(csgraph):
        order, pred, _A = _bfs_device(csgraph, i_start, directed, op,
                                      need_pred=bool(return_predecessors))
        return (order, pred) if return_predecessors else order
    S, n = _host(csgraph, op, directed)
    i = _start(i_start, n, op)
    return _scg().breadth_first_order(S, i, directed=directed,
                                      return_predecessors=return_predecessors)


@_v.on_host_when_small
def breadth_first_tree(csgraph, i_start, directed=True):
    """The breadth-first tree from ``i_start``, identical to
    ``scipy.sparse.csgraph.breadth_first_tree``: an N × N CSR matrix with an entry
    parent → child weighted by ``csgraph[parent, child]`` (parallel edges summed; undirected:
    the smaller of the two directions, a zero or missing weight read as inf). Its kind follows
    SciPy: ``csr_matrix`` for a ``scipy.sparse`` matrix input, ``csr_array`` for other host
    input, a ``cupyx.scipy.sparse.csr_matrix`` for GPU input.

    Paths as :func:`breadth_first_order` (the tree's weights then gathered on the GPU), except
    that small GPU input, up to ``_validation.HOST_MAX_WORK['breadth_first_tree']`` = 2¹⁹
    stored entries, runs SciPy's ``breadth_first_tree`` on a host copy of the whole graph
    (H100, 8N entries: N = 3·10⁴ route 8.1 ms, engine 19.4 ms; N = 10⁵ route 27.6 ms, engine
    16.7 ms).

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
    S = _v.scipy_csr(csgraph)
    if S is not None and _v.fast_vertex(i_start, S.shape[0]):  # SciPy answers S's own kind
        return scg.breadth_first_tree(S, i_start, directed)
    op = "breadth_first_tree"
    kind = _v.graph_kind(csgraph)
    # SciPy reads the graph twice: its breadth_first_order, then its reconstruct_path
    _v.masked_warnings(csgraph)
    if _engine(csgraph):
        _, pred, A = _bfs_device(csgraph, i_start, directed, op)
        if A is None:
            A = _v.as_graph(csgraph, op, dup="sum", directed=directed)
        _v.masked_warnings(csgraph)
        return _tree_from_pred(csgraph, A, pred, directed, kind)
    S, n = _host(csgraph, op, directed)
    i = _start(i_start, n, op)
    _v.masked_warnings(csgraph)
    return _as_kind(_scg().breadth_first_tree(S, i, directed=directed), kind)


def depth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """Depth-first ordering from ``i_start``, identical to
    ``scipy.sparse.csgraph.depth_first_order`` (neighbours in stored order; int32 order and
    predecessors, -9999 for ``i_start`` and unreached vertices).

    Runs on the CPU by design, on every input: depth-first order is inherently sequential
    (each step depends on the last; no parallel algorithm reproduces it in less than its
    length), so SciPy's compiled O(N + nnz) routine runs on the host. GPU input copies only
    the structure (indptr and indices, one transfer; for ``directed=False`` beyond
    ``_validation.HOST_MAX_WORK['depth_first_order']`` = 2²⁰ entries each row joined to its
    transposed row on the GPU first, which SciPy would build on the host) and gets its
    results back on the GPU (the predecessors only when asked for). Deviation: ``i_start``
    outside [0, N) raises :class:`semiring.InvalidIndex`.

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
    >>> order, pred = csgraph.depth_first_order(G, 0)
    >>> order.tolist(), pred.tolist()
    ([0, 1, 3, 2], [-9999, 0, 0, 1])
    """
    S = _v.scipy_csr(csgraph)
    if S is not None and _v.fast_vertex(i_start, S.shape[0]):
        if directed is True:  # (as breadth_first_order)
            S = _v.scipy_structure(S)
        return scg.depth_first_order(S, i_start, directed, return_predecessors)
    op = "depth_first_order"
    _v.masked_warnings(csgraph)  # SciPy's validate_graph comes first
    if _engine(csgraph):
        order, pred = _dfs_device(csgraph, i_start, directed, op,
                                  need_pred=bool(return_predecessors))
        return (order, pred) if return_predecessors else order
    S, n = _host(csgraph, op, directed)
    i = _start(i_start, n, op)
    return _scg().depth_first_order(S, i, directed=directed,
                                    return_predecessors=return_predecessors)


@_v.on_host_when_small
def depth_first_tree(csgraph, i_start, directed=True):
    """The depth-first tree from ``i_start``, identical to
    ``scipy.sparse.csgraph.depth_first_tree`` (weights and output kind as in
    :func:`breadth_first_tree`). The search runs on the CPU by design, as
    :func:`depth_first_order` (for GPU input on a copy of the structure; the tree's weights
    are gathered on the GPU), except that GPU input of at most
    ``_validation.HOST_MAX_WORK['depth_first_tree']`` = 2¹⁹ stored entries runs SciPy's
    ``depth_first_tree`` on a host copy of the whole graph, as :func:`breadth_first_tree`
    does (the GPU gathers' launches cost more there).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
    >>> csgraph.depth_first_tree(G, 0).toarray()
    array([[0., 1., 2., 0.],
           [0., 0., 0., 1.],
           [0., 0., 0., 0.],
           [0., 0., 0., 0.]])
    """
    S = _v.scipy_csr(csgraph)
    if S is not None and _v.fast_vertex(i_start, S.shape[0]):  # SciPy answers S's own kind
        return scg.depth_first_tree(S, i_start, directed)
    op = "depth_first_tree"
    kind = _v.graph_kind(csgraph)
    # SciPy reads the graph twice: its depth_first_order, then its reconstruct_path
    _v.masked_warnings(csgraph)
    if _engine(csgraph):
        _, pred = _dfs_device(csgraph, i_start, directed, op)
        A = _v.as_graph(csgraph, op, dup="sum", directed=directed)
        _v.masked_warnings(csgraph)
        return _tree_from_pred(csgraph, A, pred, directed, kind)
    S, n = _host(csgraph, op, directed)
    i = _start(i_start, n, op)
    _v.masked_warnings(csgraph)
    return _as_kind(_scg().depth_first_tree(S, i, directed=directed), kind)
