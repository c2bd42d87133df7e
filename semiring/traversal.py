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


def _out_edges(indptr, q, max_edges):
    """(frontier slot, position in A's arrays) of every out-edge of the frontier ``q``, or
    None when there are more than ``max_edges`` of them."""
    starts = indptr[q]
    deg = indptr[q + 1] - starts
    total = int(deg.sum())
    if total > max_edges:
        return None
    slot = np.repeat(np.arange(q.size), deg)
    return slot, starts[slot] + (np.arange(total) - (np.cumsum(deg) - deg)[slot])


def _push_levels_cpu(A, level, frontier, depth, parent, deterministic, max_edges, max_levels):
    indptr = A.indptr.astype(np.int64, copy=False)
    q = frontier.astype(np.int64)
    levels = 0
    while levels < max_levels:
        edges = _out_edges(indptr, q, max_edges)
        if edges is None:
            return "wide", depth, levels
        slot, pos = edges
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


_C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long",
            np.dtype(np.float32): "float", np.dtype(np.float64): "double"}


def kernel_names():
    """Every instantiation of the traversal kernels (CI compiles them with NVRTC)."""
    return ([f"push_levels<{I}, {p}>" for I in ("int", "long long") for p in (0, 1, 2)]
            + [f"relax_rounds<{I}, {T}>" for I in ("int", "long long")
               for T in _C_TYPES.values()])


_modules: dict = {}


def _function(name: str):
    cp = _cupy()
    key = cp.cuda.runtime.getDevice()
    mod = _modules.get(key)
    if mod is None:
        mod = _modules[key] = cp.RawModule(code=_source(), options=("-std=c++17",),
                                           name_expressions=kernel_names())
    return mod.get_function(name)


def _kernel(itype, mode: int):
    return _function(f"push_levels<{_C_TYPES[np.dtype(itype)]}, {mode}>")


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


def relax_rounds(A, d, frontier, *, hi=None, pending=None, settled=None, max_edges=MAX_EDGES,
                 max_rounds=None):
    """Run Bellman–Ford relaxation rounds from ``frontier`` while it stays narrow.

    Each round is ``t = f min.+ A; d = min(d, t); f = {v : d(v) improved and d(v) < hi}``,
    over A's rows (the out-edges of the frontier); ``d`` (and ``pending`` / ``settled``) are
    updated in place. With ``pending`` and ``settled`` (bool arrays) it is the light-edge
    phase of a delta-stepping bucket: the frontier's vertices become settled and not pending
    before their edges are relaxed, and every improved vertex becomes pending.

    Parameters
    ----------
    A : Matrix
        Square; its values (or iso value) are the weights, cast to ``d``'s type.
    d : array of int32, int64, float32 or float64, on A's device
        Distances; the type's maximum (integers) or inf (floats) is "unreached". Sums must not
        overflow: the caller picks a type wide enough.
    frontier : integer array
        At most :data:`QUEUE` distinct vertices.
    hi : scalar, optional
        Only improvements below ``hi`` join the next frontier (default: all).
    pending, settled : bool arrays, optional
        Both or neither.
    max_edges, max_rounds : int
        As in :func:`push_levels`.

    Returns
    -------
    status : {'done', 'wide', 'overflow', 'limit'}
    frontier : integer array
        The frontier left to relax (empty when done).
    rounds : int
        The rounds run.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> from semiring.traversal import relax_rounds
    >>> A = sr.Matrix.from_coo([0, 0, 2], [1, 2, 1], [4.0, 1.0, 2.0], nrows=3, ncols=3, device="cpu")
    >>> d = np.array([0.0, np.inf, np.inf])
    >>> relax_rounds(A, d, np.array([0]))[0], d.tolist()
    ('done', [0.0, 3.0, 1.0])
    """
    op = "relax_rounds"
    A = as_matrix(A, op=op, arg="A")
    if A.nrows != A.ncols:
        raise DimensionMismatch(f"{op}: A must be square, got shape {A.shape}")
    xp = A.xp
    n = A.nrows
    if not isinstance(d, xp.ndarray) or d.shape != (n,) or np.dtype(d.dtype) not in _C_TYPES:
        got = f"{type(d).__name__} {getattr(d, 'dtype', '')} {getattr(d, 'shape', '')}"
        raise DomainMismatch(f"{op}: d must be an int32, int64, float32 or float64 {xp.__name__} "
                             f"array of shape ({n},), got {got}")
    if not isinstance(frontier, xp.ndarray) or frontier.ndim != 1 or frontier.dtype.kind not in "iu":
        raise DomainMismatch(f"{op}: frontier must be a 1-D integer {xp.__name__} array, got {frontier!r:.80}")
    if frontier.size > QUEUE:
        raise InvalidValue(f"{op}: frontier must hold at most {QUEUE} vertices, got {frontier.size}")
    if (pending is None) != (settled is None):
        raise InvalidValue(f"{op}: pending and settled go together")
    for arg, a in (("pending", pending), ("settled", settled)):
        if a is not None and (not isinstance(a, xp.ndarray) or a.shape != (n,) or a.dtype != np.bool_):
            raise DomainMismatch(f"{op}: {arg} must be a bool {xp.__name__} array of shape ({n},)")
    if not 0 < max_edges < 2**31:
        raise InvalidValue(f"{op}: max_edges must lie in [1, 2**31), got {max_edges}")
    max_rounds = n + 1 if max_rounds is None else int(max_rounds)
    dt = np.dtype(d.dtype)
    top = np.inf if dt.kind == "f" else np.iinfo(dt).max
    hi = dt.type(top if hi is None else min(hi, top))
    if frontier.size == 0 or max_rounds <= 0:
        return ("done" if frontier.size == 0 else "limit"), frontier, 0
    w, wstride = A._values_for(dt)
    if A.device == "gpu":
        return _relax_rounds_gpu(A, d, w, wstride, frontier, hi, pending, settled,
                                 int(max_edges), max_rounds)
    return _relax_rounds_cpu(A, d, w, wstride, frontier, hi, pending, settled, int(max_edges),
                             max_rounds)


def _relax_rounds_cpu(A, d, w, wstride, frontier, hi, pending, settled, max_edges, max_rounds):
    indptr = A.indptr.astype(np.int64, copy=False)
    q = frontier.astype(np.int64)
    rounds = 0
    while rounds < max_rounds:
        edges = _out_edges(indptr, q, max_edges)
        if edges is None:
            return "wide", q, rounds
        if pending is not None:
            settled[q] = True
            pending[q] = False
        slot, pos = edges
        v = A.indices[pos].astype(np.int64)
        nd = d[q[slot]] + (w[pos] if wstride else w[0])
        # the smallest candidate per target: sort by (v, nd)
        order = np.lexsort((nd, v))
        v, nd = v[order], nd[order]
        first = np.r_[True, v[1:] != v[:-1]] if v.size else np.zeros(0, dtype=bool)
        v, nd = v[first], nd[first]
        better = nd < d[v]
        v, nd = v[better], nd[better]
        d[v] = nd
        if pending is not None:
            pending[v] = True
        rounds += 1
        q = v[nd < hi]
        if q.size == 0:
            return "done", q, rounds
        if q.size > QUEUE:
            return "overflow", q, rounds
    return "limit", q, rounds


def _relax_rounds_gpu(A, d, w, wstride, frontier, hi, pending, settled, max_edges, max_rounds):
    cp = _cupy()
    itype = A.itype
    qa = cp.empty(QUEUE, dtype=itype)
    qb = cp.empty(QUEUE, dtype=itype)
    qa[:frontier.size] = frontier
    flag = cp.zeros(A.nrows + 4, dtype=cp.uint8)  # + 4: the last byte's word is in bounds
    state = cp.asarray([frontier.size, 0, -1, 0], dtype=cp.int64)
    f = _function(f"relax_rounds<{_C_TYPES[np.dtype(itype)]}, {_C_TYPES[np.dtype(d.dtype)]}>")
    pend = 0 if pending is None else pending
    sett = 0 if settled is None else settled
    f((1,), (THREADS,), (A.indptr, A.indices, w, np.int64(wstride), d, pend, sett, hi, flag,
                         qa, qb, state, np.int64(max_edges), np.int64(max_rounds)))
    count, rounds, status, in_b = (int(s) for s in state.get())  # the one host sync
    status = STATUS[status]
    if status == "overflow":
        q = cp.flatnonzero(flag[:A.nrows])
    else:
        q = (qb if in_b else qa)[:count].astype(cp.int64)
    return status, q, rounds
