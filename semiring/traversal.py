"""Fused traversal levels: the mechanism for runs of narrow frontiers.

A breadth-first search over a high-diameter graph (a road network, a 2-D grid) has thousands
of levels whose frontiers hold a few thousand vertices. One algebra call per level then costs
far more in launches and host round trips than in edges. :func:`push_levels` runs the same
push step level after level, without returning to Python:

    q⟨¬visited⟩ = q any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q

On the GPU one thread block runs the levels (``kernels/traverse.cu``) and hands back when the
frontier outgrows it; on the CPU a NumPy loop does the same with no per-level dispatch.
"""

from __future__ import annotations

import functools
from importlib import resources

import numpy as np

from ._backend import _cupy
from .errors import DimensionMismatch, DomainMismatch, InvalidValue
from .matrix import as_matrix

#: Status codes of :func:`push_levels` (SR_TRAVERSE_* in traverse.cu).
DONE, WIDE, OVERFLOW, LIMIT = 0, 1, 2, 3
STATUS = ("done", "wide", "overflow", "limit")

#: The GPU block's frontier queue (SR_TRAVERSE_QUEUE in traverse.cu): a frontier of more
#: vertices hands back to the multi-block path.
QUEUE = 8192
#: Threads of the GPU block.
THREADS = 1024
#: Default edge budget of one fused level: beyond it a multi-block launch is faster than one
#: block (64 edges a thread).
MAX_EDGES = 64 * THREADS


def push_levels(A, level, frontier, depth, *, parent=None, deterministic=False,
                max_edges=MAX_EDGES, max_levels=None):
    """Run BFS push levels from ``frontier`` until it empties or outgrows one block.

    Each level claims the unvisited (``level == -1``) out-neighbours of the frontier for the
    next depth. ``level`` (and ``parent``) are updated in place.

    Parameters
    ----------
    A : Matrix
        The graph (i → j for each entry ``A(i, j)``), square; only its structure is read.
    level : int64 array of A's size, on A's device
        ``-1`` for unvisited vertices; the frontier's vertices hold ``depth``.
    frontier : integer array
        The vertices at ``depth`` (at most :data:`QUEUE` of them).
    depth : int
    parent : int64 array, optional
        Updated for each newly reached vertex: any in-neighbour on the previous level, or the
        smallest-index one with ``deterministic=True`` (unreached entries must hold -1).
    max_edges : int
        Hand back when a frontier has more out-edges than this.
    max_levels : int, optional
        Hand back after this many levels (default: no limit).

    Returns
    -------
    status : str
        ``'done'`` (the next frontier is empty), ``'wide'`` (the frontier at ``depth`` has more
        than ``max_edges`` edges and was not expanded), ``'overflow'`` (the frontier at
        ``depth`` has more than ``QUEUE`` vertices) or ``'limit'``.
    depth : int
        The depth of the current frontier: the vertices with ``level == depth``.
    levels : int
        The number of levels run.

    Examples
    --------
    A path 0 → 1 → 2 → 3, from vertex 0:

    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> from semiring.traversal import push_levels
    >>> A = sr.Matrix.from_scipy(sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr"), device="cpu")
    >>> level = np.array([0, -1, -1, -1])
    >>> push_levels(A, level, np.array([0]), 0)
    ('done', 3, 3)
    >>> level.tolist()
    [0, 1, 2, 3]
    """
    op = "push_levels"
    A = as_matrix(A, op=op, arg="A")
    if A.nrows != A.ncols:
        raise DimensionMismatch(f"{op}: A must be square, got shape {A.shape}")
    xp = A.xp
    n = A.nrows
    _check_array(op, "level", level, xp, n)
    if parent is not None:
        _check_array(op, "parent", parent, xp, n)
    if not isinstance(frontier, xp.ndarray) or frontier.ndim != 1 or frontier.dtype.kind not in "iu":
        raise DomainMismatch(f"{op}: frontier must be a 1-D integer {xp.__name__} array, got {frontier!r:.80}")
    if frontier.size > QUEUE:
        raise InvalidValue(f"{op}: frontier must hold at most {QUEUE} vertices, got {frontier.size}")
    if not 0 < max_edges < 2**31:
        raise InvalidValue(f"{op}: max_edges must lie in [1, 2**31), got {max_edges}")
    max_levels = n + 1 if max_levels is None else int(max_levels)
    if max_levels < 0:
        raise InvalidValue(f"{op}: max_levels must be >= 0, got {max_levels}")
    if frontier.size == 0:
        return "done", int(depth), 0
    if A.device == "gpu":
        return _push_levels_gpu(A, level, frontier, int(depth), parent, deterministic,
                                int(max_edges), max_levels)
    return _push_levels_cpu(A, level, frontier, int(depth), parent, deterministic,
                            int(max_edges), max_levels)


def _check_array(op, arg, a, xp, n):
    if not isinstance(a, xp.ndarray) or a.shape != (n,) or a.dtype != np.int64:
        got = f"{type(a).__name__} {getattr(a, 'dtype', '')} {getattr(a, 'shape', '')}"
        raise DomainMismatch(f"{op}: {arg} must be an int64 {xp.__name__} array of shape ({n},), got {got}")


def _push_levels_cpu(A, level, frontier, depth, parent, deterministic, max_edges, max_levels):
    indptr = A.indptr.astype(np.int64, copy=False)
    q = frontier.astype(np.int64)
    levels = 0
    while levels < max_levels:
        starts = indptr[q]
        deg = indptr[q + 1] - starts
        total = int(deg.sum())
        if total > max_edges:
            return "wide", depth, levels
        slot = np.repeat(np.arange(q.size), deg)
        pos = starts[slot] + (np.arange(total) - (np.cumsum(deg) - deg)[slot])
        v = A.indices[pos].astype(np.int64)
        fresh = level[v] == -1
        v, u = v[fresh], q[slot[fresh]]
        if v.size == 0:
            return "done", depth, levels
        if parent is not None and deterministic:
            order = np.lexsort((u, v))  # by v, then the smallest u first
            v, u = v[order], u[order]
        nxt, first = np.unique(v, return_index=True)
        depth += 1
        levels += 1
        level[nxt] = depth
        if parent is not None:
            parent[nxt] = u[first]
        if nxt.size > QUEUE:
            return "overflow", depth, levels
        q = nxt
    return "limit", depth, levels


@functools.lru_cache(maxsize=None)
def _source() -> str:
    return resources.files("semiring.kernels").joinpath("traverse.cu").read_text()


def kernel_names():
    """Every instantiation of the traversal kernel (CI compiles them with NVRTC)."""
    return [f"push_levels<{I}, {p}>" for I in ("int", "long long") for p in (0, 1, 2)]


_modules: dict = {}


def _kernel(itype, mode: int):
    cp = _cupy()
    key = cp.cuda.runtime.getDevice()
    mod = _modules.get(key)
    if mod is None:
        mod = _modules[key] = cp.RawModule(code=_source(), options=("-std=c++17",),
                                           name_expressions=kernel_names())
    I = "int" if np.dtype(itype) == np.int32 else "long long"
    return mod.get_function(f"push_levels<{I}, {mode}>")


def _push_levels_gpu(A, level, frontier, depth, parent, deterministic, max_edges, max_levels):
    cp = _cupy()
    itype = A.itype
    qa = cp.empty(QUEUE, dtype=itype)
    qb = cp.empty(QUEUE, dtype=itype)
    qa[:frontier.size] = frontier
    state = cp.asarray([frontier.size, depth, -1, 0], dtype=cp.int64)
    mode = 0 if parent is None else (2 if deterministic else 1)
    dummy = level if parent is None else parent
    _kernel(itype, mode)((1,), (THREADS,), (A.indptr, A.indices, level, dummy, qa, qb, state,
                                             np.int64(max_edges), np.int64(max_levels)))
    _count, depth, status, levels = (int(s) for s in state.get())  # the one host sync
    return STATUS[status], depth, levels
