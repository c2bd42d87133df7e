"""Long, thin graphs on the engine path (GPU input): the probe that finds them and the host
traversal that serves them.

A graph of high diameter (a path, a grid, a road network) costs the engine a fixed overhead
per level or round, thousands of times over: the facade's masked-product BFS pays about a
millisecond a level, the device SSSP loop (``sr.traversal.sssp_grid``) a grid-wide barrier a
round (a path of 10⁵ vertices: about 3 s on an H200, where SciPy's Dijkstra takes
milliseconds). SciPy's compiled routines are O(N + nnz) whatever the diameter. So before the
engine runs, :func:`probe` runs a few BFS levels from the source in one launch
(``sr.traversal.push_levels``: one thread block, its levels separated by block barriers,
one host sync in all) and the caller decides from what they reached:

- a traversal (``breadth_first_order`` / ``_tree``) whose first :data:`PROBE_LEVELS` levels
  stay narrow (every frontier within one block's queue and edge budget) runs SciPy's BFS on
  a host copy of the *structure only* (indptr and indices: no weights), renumbered in BFS
  level order first where the graph is large and grows like a 2-D one
  (:data:`RENUMBER_NNZ`, :data:`RENUMBER_WIDTH`): the host search then walks memory almost
  sequentially (2048² grid on the 2-core dev host: SciPy on the original numbering 103-121
  ms, on the renumbered copy 21-25 ms, the same order mapped back);
- a shortest-path search whose first :data:`SSSP_PROBE_LEVELS` levels reach fewer than
  :data:`SSSP_THIN_FRONTIER` vertices a level runs SciPy on a host copy (the caller's
  ``_validation.host_route``).

Depth-first order is sequential by nature: :func:`host_traversal` runs it on a host copy of
the structure, never the weights.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sps
import scipy.sparse.csgraph as scg

import semiring as sr

from . import _validation as _v

#: The probe's edge budget a level: a frontier with more out-edges ends it as wide (one
#: block's budget, ``sr.traversal.MAX_EDGES``).
PROBE_EDGES = sr.traversal.MAX_EDGES
#: Levels the traversal probe runs before calling a traversal thin. A level whose frontier
#: outgrows one block (``sr.traversal.QUEUE`` vertices or ``MAX_EDGES`` edges) ends the probe
#: as wide: the engine's level loop runs (Kronecker graphs end it at level 1 or 2). 64 narrow
#: levels cost the engine's loop 64-128 ms (1-2 ms a level, H100), far above a host copy of a
#: graph whose first 64 levels are narrow.
PROBE_LEVELS = 64
#: A thin traversal is renumbered in BFS level order before SciPy's host search when its
#: graph has at least this many stored entries (below it the arrays sit in the CPU's caches
#: and the renumbering's GPU work and the full levels cost more than they save) ...
RENUMBER_NNZ = 1 << 22
#: ... and its first :data:`PROBE_LEVELS` levels reached at least this many vertices a level
#: (a grid: about PROBE_LEVELS; a path: 1, already in order, and the full levels would cost
#: one BFS level a vertex).
RENUMBER_WIDTH = 8
#: Levels the shortest-path probe runs, and the vertices a level below which the graph is
#: thin for the device SSSP loop: one round costs a grid barrier (about 30 µs on an H200:
#: a path of 10⁵ vertices took 3 s), while SciPy's Dijkstra costs about 0.25 µs a vertex (2048²
#: grid: 1.1 s for 4.2 M vertices), so below ~100 vertices a round the host wins. 256 levels
#: of a 2-D grid reach at least 256²/2 = 32768 vertices even from a corner (128 a level:
#: the GPU, 42 ms against SciPy's 1.1 s on the 2048² grid); a path reaches 257.
SSSP_PROBE_LEVELS = 256
SSSP_THIN_FRONTIER = 64
#: The probe runs in two launches: :data:`SSSP_FIRST_LEVELS` levels first (a level of the
#: one-block kernel costs a few µs: 256 of them about 1-2 ms, a third of a path's whole host
#: answer on the H200), and the rest only where the first ones leave the verdict open: fewer
#: than :data:`SSSP_FIRST_THIN` vertices a level is thin at once (a path, a ladder), at least
#: :data:`SSSP_THIN_FRONTIER` is wide at once (any 2-D grid away from a corner).
SSSP_FIRST_LEVELS = 64
SSSP_FIRST_THIN = 16
#: Host copies of at least this many bytes go through page-locked memory (CuPy's pinned
#: pool, reused call after call): a device-to-host copy runs at the link's rate instead of
#: through the driver's pageable staging buffers.
PINNED_BYTES = _v.PINNED_BYTES
#: Apply the probes on the CPU too (the tests' engine path on NumPy, ``FORCE_ENGINE``); the
#: tests set it False to run the engine on long graphs.
THIN_ON_CPU = True


def applies(device: str) -> bool:
    """Whether the thin-graph rules run for a graph on ``device``."""
    return device == "gpu" or THIN_ON_CPU


def _xp_of(a):
    return sr.array_module("gpu") if sr.is_gpu_array(a) else np


def _with_transpose(indptr, indices, n: int):
    """The rows SciPy's undirected traversals read for vertex v: v's stored row, then v's row
    of ``csgraph.T.tocsr()`` (its in-neighbours in increasing order, a duplicate pair in stored
    order): a directed traversal over these concatenated rows visits exactly as SciPy's
    undirected one does, and the transpose is built on the input's device, not on the host."""
    xp = _xp_of(indptr)
    indptr = indptr.astype(xp.int64)
    nnz = int(indices.size)
    cols = indices.astype(xp.int64)
    deg_out = indptr[1:] - indptr[:-1]
    # the row of each entry (cupy.repeat takes no array of counts)
    rows = xp.searchsorted(indptr, xp.arange(nnz, dtype=xp.int64), side="right") - 1
    # Aᵀ's rows: the entries sorted by column, ties by stored position (row-major: by row)
    perm = xp.argsort(cols * max(nnz, 1) + xp.arange(nnz, dtype=xp.int64))
    deg_in = xp.bincount(cols, minlength=n)[:n] if nnz else xp.zeros(n, dtype=xp.int64)
    tptr = xp.zeros(n + 1, dtype=xp.int64)
    tptr[1:] = xp.cumsum(deg_in)
    out_ptr = xp.zeros(n + 1, dtype=xp.int64)
    out_ptr[1:] = xp.cumsum(deg_out + deg_in)
    itype = xp.int32 if n < 2**31 - 1 else xp.int64
    out = xp.empty(2 * nnz, dtype=itype)
    # an out-entry e of row r lands at out_ptr[r] + (e − indptr[r])
    out[out_ptr[rows] + (xp.arange(nnz, dtype=xp.int64) - indptr[rows])] = cols
    # the k-th entry of Aᵀ (column c) lands after c's out-entries
    tc = cols[perm]
    out[out_ptr[tc] + deg_out[tc] + (xp.arange(nnz, dtype=xp.int64) - tptr[tc])] = rows[perm]
    return (out_ptr.astype(xp.int32) if 2 * nnz < 2**31 - 1 else out_ptr), out


def traversal_structure(csgraph, op: str, directed: bool, combine: bool | None = None,
                        with_canonical: bool = False):
    """``(indptr, indices, n)`` on the input's device: the rows SciPy's traversals read, in its
    stored order (SciPy's own conversion, ``_validation.scipy_view``), for ``directed=False``
    each row followed by its transposed row (:func:`_with_transpose`; ``combine=False``
    leaves that to SciPy's host search, cheaper for a small graph than the launches). The
    structure only: weights are never read (nor copied). ``with_canonical`` appends whether
    the rows are sorted without duplicates (known on the device: the host need not scan)."""
    G = _v._csc_undirected(csgraph, directed)
    canonical = True
    if isinstance(G, sr.Matrix):
        _v._check_square(op, "csgraph", G.shape, True)
        if np.dtype(G.dtype).kind not in "biuf":
            raise sr.DomainMismatch(f"{op}: csgraph must have a real dtype, got {G.dtype}")
        indptr, indices, n = G.indptr, G.indices, G.nrows
    elif _v._is_scipy_sparse(G) or _v._is_cupyx_sparse(G):
        _v._check_square(op, "csgraph", G.shape, True)
        S = _v.scipy_view(G, op)
        indptr, indices, n = S.indptr, S.indices, S.shape[0]
        canonical = _v.canonical_csr(S) if with_canonical else False
    else:  # dense, masked, lists: SciPy's dense conversion sorts each row
        A = _v.as_graph(G, op, dup="first")
        indptr, indices, n = A.indptr, A.indices, A.nrows
    if (not directed) if combine is None else combine:
        indptr, indices = _with_transpose(indptr, indices, n)
        canonical = False
    return (indptr, indices, n, canonical) if with_canonical else (indptr, indices, n)


def probe(indptr, indices, n: int, source: int, max_levels: int):
    """BFS levels from ``source`` for at most ``max_levels`` levels, in one launch (one thread
    block on the GPU; NumPy on the CPU): ``(status, level)`` where status is ``'done'`` (every
    reachable vertex has its level), ``'limit'`` (still narrow after ``max_levels``), or
    ``'wide'`` / ``'overflow'`` (a frontier outgrew the block: not thin)."""
    xp = _xp_of(indptr)
    M = sr.Matrix.from_csr(indptr, indices, None, (n, n), check=False)
    level = xp.full(n, -1, dtype=xp.int64)
    level[source] = 0
    status, _depth, _levels = sr.traversal.push_levels(
        M, level, xp.asarray([source], dtype=xp.int64), 0, max_edges=PROBE_EDGES,
        max_levels=max_levels)
    return status, level


def sssp_is_thin(A: sr.Matrix, source: int) -> bool:
    """Whether the device SSSP loop would spend its time in barriers on ``A`` from ``source``:
    its first :data:`SSSP_PROBE_LEVELS` BFS levels stay narrow and reach fewer than
    :data:`SSSP_THIN_FRONTIER` vertices a level (see the module docstring)."""
    if not applies(A.device) or A.nrows == 0:
        return False
    xp = A.xp
    first = min(SSSP_FIRST_LEVELS, SSSP_PROBE_LEVELS)
    status, level = probe(A.indptr, A.indices, A.nrows, int(source), first)
    if status != "limit":
        return False
    reached = int(xp.count_nonzero(level >= 0))
    if reached < first * SSSP_FIRST_THIN:
        return True
    if reached >= first * SSSP_THIN_FRONTIER:
        return False
    if first >= SSSP_PROBE_LEVELS:
        return reached < SSSP_PROBE_LEVELS * SSSP_THIN_FRONTIER
    # the open case: the remaining levels, from the last level's vertices
    frontier = xp.flatnonzero(level == first).astype(xp.int64)
    M = sr.Matrix.from_csr(A.indptr, A.indices, None, A.shape, check=False)
    status, _depth, _levels = sr.traversal.push_levels(
        M, level, frontier, first, max_edges=PROBE_EDGES,
        max_levels=SSSP_PROBE_LEVELS - first)
    if status != "limit":
        return False
    return int(xp.count_nonzero(level >= 0)) < SSSP_PROBE_LEVELS * SSSP_THIN_FRONTIER


def full_levels(indptr, indices, n: int, source: int, symmetric: bool = False):
    """Every vertex's BFS level by the engine's own search (``algorithms.bfs``: on a road-like
    GPU graph the barrier-free ``bfs_async``), on the traversal structure (``symmetric``: an
    undirected one, each row with its transposed row: no transpose to build)."""
    from ..bfs import bfs  # noqa: PLC0415  (algorithms.bfs imports nothing of the facade)

    M = sr.Matrix.from_csr(indptr, indices, None, (n, n), check=False)
    return bfs(M, int(source), symmetric=symmetric)


def worth_renumbering(status: str, level, nnz: int) -> bool:
    """Whether :func:`host_traversal` should renumber (see :data:`RENUMBER_NNZ`)."""
    if status == "done":
        return True  # the levels are known: the copy keeps the reached vertices only
    if status != "limit" or nnz < RENUMBER_NNZ:
        return False
    xp = _xp_of(level)
    return int(xp.count_nonzero(level >= 0)) >= RENUMBER_WIDTH * PROBE_LEVELS


def _to_host(arrays):
    if not arrays or not sr.is_gpu_array(arrays[0]):
        return arrays
    return _v._gather_to_host(arrays, pinned_from=PINNED_BYTES)


def _to_device(arrays, device: str):
    if device == "cpu":
        return arrays
    return _v._scatter_to_gpu(arrays)


def host_traversal(kind: str, indptr, indices, n: int, source: int, level=None, *,
                   directed: bool = True, need_pred: bool = True):
    """SciPy's directed ``breadth_first_order`` (``kind='bfs'``) or ``depth_first_order``
    (``'dfs'``) on a host copy of the structure ``(indptr, indices)`` (from
    :func:`traversal_structure`): ``(order, predecessors)``, int32, on the structure's device.
    ``directed=False`` runs SciPy's undirected search on the rows as given (for a structure
    built with ``combine=False``). ``need_pred=False`` leaves the predecessors on the host
    (None in their place): one array less to upload.

    With ``level`` (every reachable vertex's BFS level, ``-1`` elsewhere), the reachable
    vertices are renumbered by (level, vertex) on the device first, each row keeping its
    stored order, and the answer is mapped back: the same order, since SciPy's search sees
    the same rows in the same order, with neighbouring vertices of the search near each
    other in memory. None where SciPy's int32 indices cannot hold the copy."""
    xp = _xp_of(indptr)
    device = "gpu" if xp is not np else "cpu"
    if level is not None:
        reached = xp.flatnonzero(level >= 0)
        nr = int(reached.size)
        # the new numbering: by level, ties by vertex (the source alone at level 0: new id 0)
        perm = reached[xp.argsort(level[reached] * max(n, 1) + reached)]
        inv = xp.full(n, -1, dtype=xp.int64)
        inv[perm] = xp.arange(nr, dtype=xp.int64)
        ip64 = indptr.astype(xp.int64)
        deg = (ip64[1:] - ip64[:-1])[perm]
        new_ptr = xp.zeros(nr + 1, dtype=xp.int64)
        new_ptr[1:] = xp.cumsum(deg)
        m = int(new_ptr[-1])
        if nr >= 2**31 - 1 or m >= 2**31 - 1:
            return None
        # each new row gathers its old row's entries in stored order
        pos = xp.arange(m, dtype=xp.int64)
        row = xp.searchsorted(new_ptr, pos, side="right") - 1  # each new entry's new row
        e = ip64[perm[row]] + (pos - new_ptr[row])
        ptr = new_ptr.astype(xp.int32)
        ind = inv[indices[e]].astype(xp.int32)
        start = 0
    else:
        nr, m = n, int(indices.size)
        if n >= 2**31 - 1 or m >= 2**31 - 1:
            return None
        ptr, ind = indptr.astype(xp.int32, copy=False), indices.astype(xp.int32, copy=False)
        start = int(source)
    ptr_h, ind_h = _to_host([ptr, ind])
    # SciPy's traversals read indptr and indices only: a read-only zero-stride data array
    # satisfies its validation without allocating nnz floats
    R = sps.csr_matrix((np.broadcast_to(np.float64(1.0), (m,)), ind_h, ptr_h), shape=(nr, nr))
    run = scg.breadth_first_order if kind == "bfs" else scg.depth_first_order
    order_h, pred_h = run(R, start, directed=directed, return_predecessors=True)
    if not need_pred:
        (order,) = _to_device([order_h], device)
        return (order if level is None else perm[order].astype(xp.int32)), None
    order, pred = _to_device([order_h, pred_h], device)
    if level is None:
        return order, pred
    out_order = perm[order].astype(xp.int32)
    out_pred = xp.full(n, -9999, dtype=xp.int32)
    has = pred >= 0
    out_pred[perm[has]] = perm[pred[has]].astype(xp.int32)
    return out_order, out_pred
