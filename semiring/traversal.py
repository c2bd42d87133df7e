"""Fused traversal levels: the mechanism for runs of narrow frontiers.

A breadth-first search over a high-diameter graph (a road network, a 2-D grid) has thousands
of levels whose frontiers hold a few thousand vertices. One algebra call per level then costs
far more in launches and host round trips than in edges. :func:`push_levels` runs the same
push step level after level, without returning to Python:

    q⟨¬visited⟩ = q any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q

On the GPU one thread block runs the levels (``kernels/traverse.cu``) and hands back when the
frontier outgrows it; :func:`push_levels_grid` runs them over the whole device instead (one
persistent cooperative grid, a grid-wide barrier between levels). On the CPU a NumPy loop does
the same with no per-level dispatch.

Each function validates its operands here, then runs the step of its device's backend
(``backend_of(A.device).traversal``: ``semiring/backend/cpu/traversal.py``, NumPy, and
``semiring/backend/gpu/traversal.py``, the launches of ``kernels/traverse.cu``);
:func:`bfs_grid` and :func:`msbfs_grid`, the GPU's whole-search launches, launch from here;
:func:`sssp_grid`, the whole near–far shortest-path search, from the GPU backend.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from . import ops
from .backend import backend_of
from .backend.csr import frontier_degrees, frontier_edges
from .backend.gpu import prep as _gprep
from .backend.gpu import small as _gs
from .backend.gpu import traversal as _gt
from .backend.gpu.launch import KeptLaunch as _KeptKernel
from .backend.gpu.traversal import (  # noqa: F401  (the kernels' constants, documented here)
    DONE, GRID_QUEUE, LIMIT, MAX_EDGES, OVERFLOW, QUEUE, STATUS, THREADS, WIDE)
from .device import _cupy
from .errors import BackendUnavailable, DeviceMismatch, DomainMismatch
from .errors import InvalidIndex, InvalidValue, check_bool
from .matrix import as_matrix

__all__ = ["QUEUE", "THREADS", "MAX_EDGES", "GRID_QUEUE", "STATUS", "BFS_GRID_MAX_N",
           "BFS_SMALL_MAX_N", "bfs_async", "bfs_csgraph", "bfs_grid", "bfs_small", "csgraph_fits", "dijkstra_csgraph", "frontier_degrees", "frontier_edges", "frontier_of_level", "msbfs_grid",
           "pull_level", "pull_relax", "push_level", "push_levels", "push_levels_grid",
           "push_relax", "relax_rounds", "sssp_grid"]


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
    A, max_levels = _check_push_levels(op, A, level, frontier, parent, max_edges, max_levels,
                                       QUEUE)
    if frontier.size == 0:
        return "done", int(depth), 0
    return backend_of(A.device).traversal.push_levels(
        A, level, frontier, int(depth), parent, deterministic, int(max_edges), max_levels, QUEUE)


def _check_push_levels(op, A, level, frontier, parent, max_edges, max_levels, queue):
    """The checks of push_levels and push_levels_grid: (A as a Matrix, max_levels as an int)."""
    A = as_matrix(A, op=op, arg="A", square=True)
    xp = A.xp
    n = A.nrows
    _check_array(op, "level", level, xp, n)
    if parent is not None:
        _check_array(op, "parent", parent, xp, n)
    if not isinstance(frontier, xp.ndarray) or frontier.ndim != 1 or frontier.dtype.kind not in "iu":
        raise DomainMismatch(f"{op}: frontier must be a 1-D integer {xp.__name__} array, got {frontier!r:.80}")
    if frontier.size > queue:
        raise InvalidValue(f"{op}: frontier must hold at most {queue} vertices, got {frontier.size}")
    if not 0 < max_edges < 2**31:
        raise InvalidValue(f"{op}: max_edges must lie in [1, 2**31), got {max_edges}")
    max_levels = n + 1 if max_levels is None else int(max_levels)
    if max_levels < 0:
        raise InvalidValue(f"{op}: max_levels must be >= 0, got {max_levels}")
    return A, max_levels


def _check_array(op, arg, a, xp, n):
    if not isinstance(a, xp.ndarray) or a.shape != (n,) or a.dtype != np.int64:
        got = f"{type(a).__name__} {getattr(a, 'dtype', '')} {getattr(a, 'shape', '')}"
        raise DomainMismatch(f"{op}: {arg} must be an int64 {xp.__name__} array of shape ({n},), got {got}")


def push_levels_grid(A, level, frontier, depth, *, parent=None, deterministic=False,
                     max_edges=MAX_EDGES, max_levels=None, queue=GRID_QUEUE):
    """Run BFS push levels from ``frontier`` over the whole device, until it empties or grows.

    The contract of :func:`push_levels` (the same step, statuses and in-place updates), run by
    one persistent grid instead of one block: every block of a cooperative launch stays
    resident, the levels are separated by a grid-wide barrier, and each level's edges are
    spread over every thread of the device. A frontier may hold up to ``queue`` vertices.

    Parameters
    ----------
    A, level, frontier, depth, parent, deterministic, max_edges, max_levels
        As in :func:`push_levels`; ``frontier`` holds at most ``queue`` vertices.
    queue : int
        The frontier buffers' size: a next frontier of more vertices hands back as
        ``'overflow'`` (in ``[1, 2**28 - 64]``; default :data:`GRID_QUEUE`).

    Returns
    -------
    status : str
        ``'done'``, ``'wide'``, ``'overflow'`` (the frontier at ``depth`` has more than
        ``queue`` vertices) or ``'limit'``, as in :func:`push_levels`.
    depth : int
    levels : int

    Raises
    ------
    BackendUnavailable
        On a GPU that cannot launch the kernel cooperatively (nothing was changed then; the
        single-block :func:`push_levels` does the same work).

    Examples
    --------
    A path 0 → 1 → 2 → 3, from vertex 0, stopping after two levels:

    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> from semiring.traversal import push_levels_grid
    >>> A = sr.Matrix.from_scipy(sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr"), device="cpu")
    >>> level = np.array([0, -1, -1, -1])
    >>> push_levels_grid(A, level, np.array([0]), 0, max_levels=2)
    ('limit', 2, 2)
    >>> level.tolist()
    [0, 1, 2, -1]
    """
    op = "push_levels_grid"
    if isinstance(queue, bool) or not isinstance(queue, (int, np.integer)) or not 0 < queue <= 2**28 - 64:
        raise InvalidValue(f"{op}: queue must be an integer in [1, {2**28 - 64}], got {queue!r}")
    A, max_levels = _check_push_levels(op, A, level, frontier, parent, max_edges, max_levels,
                                       int(queue))
    if frontier.size == 0:
        return "done", int(depth), 0
    # the CPU has no grid: its loop is the same levels with the grid's queue
    return backend_of(A.device).traversal.push_levels_grid(
        A, level, frontier, int(depth), parent, deterministic, int(max_edges), max_levels,
        int(queue))


#: Blocks per multiprocessor of :func:`bfs_grid`'s persistent grid (capped by the kernel's
#: occupancy, 3 on an H100). Measured there (bench/probes/probe_tune.py, 1 / 2 / 3 blocks): kron-22
#: 0.63 / 0.53 / 0.58 ms, urand-22 1.20 / 1.17 / 1.23 ms, the 2048² grid 23 / 26 / 29 ms
#: (4095 levels: a cheaper barrier with fewer blocks).
BFS_GRID_BLOCKS_PER_SM = 2
#: The most vertices :func:`bfs_grid` (and the other device loops) takes: its queue counter's
#: vertex field holds 28 bits (SR_GRID_EDGE_BITS in kernels/traverse.cu), and a level holds
#: at most n - 1 vertices.
BFS_GRID_MAX_N = 2**28
#: The levels a traced :func:`bfs_grid` records.
TRACE_LEVELS = 64
_DIRECTION_MODES = {"auto": 0, "push": 1, "pull": 2}


def _grid_operand(A, source, op: str):
    """(A as a square GPU Matrix of at most BFS_GRID_MAX_N vertices, n), the source checked:
    the operands of the device-side loops."""
    A = as_matrix(A, op=op, arg="A", square=True)
    if A.device != "gpu":
        raise DeviceMismatch(f"{op}: A must be on the GPU (this is the device-side loop), "
                             f"got a {A.device} matrix")
    n = A.nrows
    if n > BFS_GRID_MAX_N:
        raise InvalidValue(f"{op}: A may have at most {BFS_GRID_MAX_N} vertices, got {n}")
    if isinstance(source, bool) or not isinstance(source, (int, np.integer)):
        raise DomainMismatch(f"{op}: source must be an integer, got {type(source).__name__}")
    if not 0 <= int(source) < n:
        raise InvalidIndex(f"{op}: source must lie in [0, {n}), got {int(source)}")
    return A, n


#: algorithms.bfs's launches of bfs_grid (``info=False``) keep their scratch with Aᵀ (one
#: workspace a matrix, ~24 bytes a vertex, held while Aᵀ lives, for the device and stream of
#: its last call; its barrier word is left zero by every whole search, so it is zeroed
#: once) instead of a pool request and a memset
#: a call, and bfs_grid keeps (kernel, blocks) by (name, options, blocks a multiprocessor,
#: device) instead of asking grid_function (four cache lookups and the device's
#: attributes). On an H200 (bench/probes/bfs_levels_probe.py --host, session 13, gap-kron-22,
#: on and off call by call): a warm algorithms.bfs 52 -> 33 us on the host, 0.283 -> 0.265 ms
#: in events (the workspace and its memset took 9.5 us, grid_function 3.7).
BFS_GRID_KEEP = True
_BFS_GRID_FN: dict = {}
#: bfs_grid fills ``level`` (and ``parent``) with -1 by a memset issued before the launch
#: (the kernel then writes only the source's entries: its mode bit 4) instead of in the
#: kernel, hoping the memset would run while the host makes the cooperative launch. It did
#: not pay: on an H200 (session 14, bench/probes/bfs_levels_probe.py --hostab, call by call)
#: GAP's urand-22 0.410 ms with it against 0.407 without, kron-22 0.253 / 0.254, and it
#: costs the host ~3.5 us. Off.
BFS_GRID_HOST_FILL = False
#: bfs_grid's kept launches (:data:`BFS_GRID_KEEP`) call the driver's cooperative launch with
#: a kept parameter block (the kernel's 24 arguments, 8 bytes each; the source and the
#: outputs' addresses written in per call) instead of CuPy's launch, which wraps each
#: argument in an object every call. On an H200 (session 14, bench/probes/bfs_levels_probe.py
#: --hostab, call by call, algorithms.bfs without its FAST_PATH): GAP's urand-22 0.428 ->
#: 0.420 ms, kron-22 0.285 -> 0.270 ms (host 49 -> 30 and 52 -> 32 us).
BFS_GRID_DIRECT = True
#: (Not kept, session 14: the next call's ``level`` allocated right after a launch, while the
#: device searches, to take CuPy's allocation off the next call's path: GAP's urand-22 0.378
#: ms with or without it, kron-22 0.233 against 0.227 without, and n int64 more held.)


class _KeptLaunch:
    """A whole bfs_grid search with fixed operands (A, Aᵀ, the kept workspace, thresholds,
    mode): a call allocates the outputs, fills them with -1 (:data:`BFS_GRID_HOST_FILL`) and
    makes the cooperative launch through the driver with a kept parameter block
    (:class:`semiring.backend.gpu.launch.KeptLaunch`: a block a thread), into which it writes
    only the source and the outputs' addresses. ``args``: the kernel's arguments as integers
    (addresses and values); ``keep``: what the addresses point into, alive while this launch
    is kept."""

    __slots__ = ("kernel", "n", "parents", "fill", "_empty", "_i64", "_what")

    #: the positions of the source, level and parent among bfs_grid's arguments
    SLOTS = (5, 6, 7)

    def __init__(self, cp, f, blocks, stream, args, keep, n, parents, fill, what):
        self.kernel = _KeptKernel(f.kernel.ptr, int(blocks), _gt.GRID_THREADS, stream, args,
                                  self.SLOTS, cooperative=True, keep=keep)
        self.n, self.parents, self.fill, self._what = int(n), bool(parents), bool(fill), what
        self._empty, self._i64 = cp.empty, cp.int64

    def __call__(self, source: int):
        """(level, parent or None) of the search from ``source`` (checked by the caller)."""
        n = self.n
        level = self._empty(n, dtype=self._i64)
        parent = self._empty(n, dtype=self._i64) if self.parents else None
        if self.fill:  # -1 everywhere (bytes 0xFF), filled while the host launches
            level.data.memset_async(0xFF, 8 * n)
            if parent is not None:
                parent.data.memset_async(0xFF, 8 * n)
        lp = level.data.ptr
        kernel = self.kernel
        try:
            kernel.launch(source, lp, lp if parent is None else parent.data.ptr)
        except kernel.error as err:  # e.g. CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
            raise BackendUnavailable(f"{self._what}: cooperative launch of {kernel.grid[0]} "
                                     f"blocks of {_gt.GRID_THREADS} threads failed: "
                                     f"{err}") from err
        return level, parent


def _kept_workspace(cp, n: int, isize: int, AT, dev: int):
    """:func:`_bfs_workspace`'s (array, addresses), kept in AT's memo for the next call on the
    same device and stream: calls on one stream run one after another, so one workspace
    serves them all. The per-thread default stream (one address, a stream a thread) gets a
    workspace a call."""
    stream = cp.cuda.get_current_stream().ptr
    kept = AT._memo.get("bfs_grid_workspace")
    if kept is not None and kept[0] == (dev, stream, n, isize):
        return kept[1]
    ws = _bfs_workspace(cp, n, isize)
    if stream != getattr(cp.cuda.runtime, "streamPerThread", 2):
        AT._memo["bfs_grid_workspace"] = ((dev, stream, n, isize), ws)
    return ws


def _kept_launch(cp, A, AT, n, dev, f, blocks, kname, per_sm, alpha, beta, dmode,
                 parents, op):
    """The :class:`_KeptLaunch` of bfs_grid on (A, AT) with these settings, kept in AT's memo
    beside the workspace it launches on (:func:`_kept_workspace`: the same device and
    stream); None on the per-thread default stream, whose calls get a workspace each."""
    stream = cp.cuda.get_current_stream().ptr
    if stream == getattr(cp.cuda.runtime, "streamPerThread", 2):
        return None
    fill = BFS_GRID_HOST_FILL
    dmode |= 4 if fill else 0  # the kernel's mode bit: level / parent come filled
    key = (dev, stream, kname, _gt.GRID_OPTIONS, per_sm, blocks, A.indptr.data.ptr,
           A.indices.data.ptr, int(alpha), int(beta), dmode)
    kept = AT._memo.setdefault("bfs_grid_launch", {})
    launch = kept.get(key)
    if launch is None:
        ws, ptr = _kept_workspace(cp, n, np.dtype(A.itype).itemsize, AT, dev)
        noin = _no_in_edges(AT, cp)
        args = [x.data.ptr if isinstance(x, cp.ndarray) else int(x) for x in (
            A.indptr, A.indices, AT.indptr, AT.indices, n, 0, 0, 0, *ptr, alpha, beta, dmode, 0,
            TRACE_LEVELS, noin)]
        launch = _KeptLaunch(cp, f, blocks, stream, args, (ws, noin, A.indptr, A.indices), n,
                             parents, fill, op)
        if len(kept) > 16:  # settings come and go (a probe's sweep): keep a few
            kept.clear()
        kept[key] = launch
    return launch


def _bfs_workspace(cp, n: int, isize: int):
    """bfs_grid's scratch as one device allocation: (the array, the addresses of q0, q1, o0,
    o1, vis, fb0, fb1, state as np.uint64, in the kernel's argument order). The state words
    come first (:class:`_WorkspaceWords` reads them there), zeroed."""
    words = (n + 31) // 32
    sizes = (16 * 8, n * isize, n * isize, n * 8, n * 8, words * 4, words * 4, words * 4)
    offs, at = [], 0
    for sz in sizes:
        offs.append(at)
        at += -(-sz // 256) * 256  # each part 256-byte aligned
    ws = cp.empty(at, dtype=cp.uint8)
    # the state words zeroed (the grid barrier's word and the visited count, state[12], must
    # start at zero, and every search leaves them so; the kernel sets the rest): one memset of
    # 128 bytes on the current stream, where cp.zeros is an allocation too
    ws.data.memset_async(0, 16 * 8)
    base = ws.data.ptr
    state, q0, q1, o0, o1, vis, fb0, fb1 = (np.uint64(base + o) for o in offs)
    return ws, (q0, q1, o0, o1, vis, fb0, fb1, state)


def _no_in_edges(AT, cp):
    """The vertices no edge enters (AT's empty rows) as a bitmap of ceil(n / 32) uint32 words,
    bit v % 32 of word v // 32; made once and kept in AT's memo (dropped if AT changes).
    bfs_grid marks them visited from the start: no level can find them, so a pull skips the
    words they fill (kron-22: 1.8 M of its 4.2 M vertices)."""
    bits = AT._memo.get("bfs_no_in_edges")
    if bits is None:
        n = AT.nrows
        empty = cp.zeros(-(-n // 32) * 32, dtype=cp.bool_)
        empty[:n] = AT.indptr[1:] == AT.indptr[:-1]
        bits = AT._memo["bfs_no_in_edges"] = cp.packbits(empty, bitorder="little").view(cp.uint32)
    return bits


class _WorkspaceWords:
    """The first ``k`` int64 words of a workspace (its state), viewed only when read."""

    def __init__(self, ws, k):
        self._ws, self._k = ws, k

    def __getitem__(self, sl):
        return self._ws[:8 * self._k].view(np.int64)[sl]


class _DeviceInfo(Mapping):
    """A launch's counters (a dict of ints), read from the device on first access: a caller
    that never reads them pays no host synchronization."""

    def __init__(self, state, keys):
        self._state, self._keys, self._d = state, keys, None

    def _dict(self):
        if self._d is None:
            vals = self._state[:len(self._keys)].get()  # the host sync, on first access
            self._d = {k: int(v) for k, v in zip(self._keys, vals)}
            self._state = None
        return self._d

    def __getitem__(self, k):
        return self._dict()[k]

    def __iter__(self):
        return iter(self._dict())

    def __len__(self):
        return len(self._dict())

    def __repr__(self):
        return repr(self._dict())


def _bfs_grid_kernel(op, A, parents, deterministic, direction, alpha, beta, symmetric,
                     blocks_per_sm, blocks):
    """bfs_grid's settings checked, its kernel and grid looked up: (cp, AT, device, kernel,
    blocks, kernel name, blocks a multiprocessor)."""
    if direction not in _DIRECTION_MODES:
        raise InvalidValue(f"{op}: direction must be one of {tuple(_DIRECTION_MODES)}, "
                           f"got {direction!r}")
    for arg, v in (("alpha", alpha), ("beta", beta)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 < v < 2**20:
            raise InvalidValue(f"{op}: {arg} must be an integer in [1, 2**20), got {v!r}")
    per_sm = _blocks_per_sm(op, blocks_per_sm, BFS_GRID_BLOCKS_PER_SM)
    if blocks is not None and (isinstance(blocks, bool) or not isinstance(blocks, (int, np.integer))
                               or blocks < 1):
        raise InvalidValue(f"{op}: blocks must be a positive integer or None, got {blocks!r}")
    cp = _cupy()
    mode = 0 if not parents else (2 if deterministic else 1)
    kname = f"bfs_grid<{_gt.C_TYPES[np.dtype(A.itype)]}, {mode}>"
    if not symmetric and A._T is None:  # the kernel compiles (if it must) while A.T is built
        _gt.prefetch_grid(kname)
    AT = A if symmetric else A.T
    dev = cp.cuda.runtime.getDevice()
    fkey = (kname, _gt.GRID_OPTIONS, per_sm, dev)
    hit = _BFS_GRID_FN.get(fkey) if BFS_GRID_KEEP else None
    if hit is None:
        hit = _gt.grid_function(kname, op, per_sm)
        if BFS_GRID_KEEP:
            _BFS_GRID_FN[fkey] = hit
    f, most = hit
    blocks = most if blocks is None else min(int(blocks), most)
    return cp, AT, dev, f, blocks, kname, per_sm


def bfs_grid_runner(A, *, parents=False, deterministic=False, direction="auto", alpha=14,
                    beta=24, symmetric=False, blocks_per_sm=None):
    """``run(source) -> (level, parent or None)``: :func:`bfs_grid` with ``info=False`` and
    these settings, checked and looked up once (the kept launch of :data:`BFS_GRID_DIRECT`,
    for the current device and stream), for callers that search one graph from many sources;
    ``run`` takes a source already checked (an int in [0, n)). None where that launch is not
    kept (:data:`BFS_GRID_KEEP` or :data:`BFS_GRID_DIRECT` off, the per-thread default
    stream): call bfs_grid then. ``run`` raises BackendUnavailable where the launch fails.

    Examples
    --------
    >>> import scipy.sparse as sp, semiring as sr
    >>> from semiring.traversal import bfs_grid_runner
    >>> A = sr.Matrix.from_scipy(sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr"),
    ...                          device="gpu")  # doctest: +SKIP
    >>> run = bfs_grid_runner(A)  # doctest: +SKIP
    >>> run(1)[0].tolist()  # doctest: +SKIP
    [-1, 0, 1, 2]
    """
    op = "bfs_grid"
    A = as_matrix(A, op=op, arg="A", square=True)
    if A.nrows == 0:
        raise InvalidValue(f"{op}: A must have at least one vertex, got 0")
    A, n = _grid_operand(A, 0, op)
    if not (BFS_GRID_KEEP and BFS_GRID_DIRECT):
        return None
    cp, AT, dev, f, blocks, kname, per_sm = _bfs_grid_kernel(
        op, A, parents, deterministic, direction, alpha, beta, symmetric, blocks_per_sm, None)
    return _kept_launch(cp, A, AT, n, dev, f, blocks, kname, per_sm, alpha, beta,
                        _DIRECTION_MODES[direction], parents, op)


def bfs_grid_state():
    """What a kept launch is made under now (the current device and stream and this module's
    switches): a caller keeping a :func:`bfs_grid_runner` compares it before reusing one.
    GPU only (CuPy must be importable)."""
    cp = _cupy()
    return (cp.cuda.runtime.getDevice(), cp.cuda.get_current_stream().ptr, BFS_GRID_KEEP,
            BFS_GRID_DIRECT, BFS_GRID_HOST_FILL, BFS_GRID_BLOCKS_PER_SM, BFS_GRID_MAX_N,
            _gt.GRID_OPTIONS)


def bfs_grid(A, source, *, parents=False, deterministic=False, direction="auto", alpha=14,
             beta=24, symmetric=False, trace=False, blocks_per_sm=None, blocks=None,
             info=True):
    """A whole breadth-first search in one persistent launch, switching direction on the device.

    Every level is the push step of :func:`push_levels_grid` or the pull step of
    :func:`pull_level` (each unvisited vertex scans its in-neighbours, stopping at the first
    in the frontier's bitmap), run by one cooperative grid with a grid-wide barrier between
    levels. After each barrier every block reads the same counters (the frontier's vertices
    and out-edges) and takes the same decision (Beamer, Asanović & Patterson 2012): push →
    pull when the frontier's out-edges exceed the edges not yet checked top-down / ``alpha``
    (as GAP counts them: the graph's edges less those of the frontiers pushed, so that a
    search's sparse tail stays in push), pull → push when it holds fewer than n / ``beta``
    vertices. The host launches once and synchronizes once. GPU only: on the CPU,
    ``algorithms.bfs`` runs the same levels from Python.

    Parameters
    ----------
    A : Matrix, on the GPU, square, at most :data:`BFS_GRID_MAX_N` vertices
        The graph (edges ``A(i, j)``: i → j); only its structure is read.
    source : int
    parents : bool
        Also return the BFS tree (``parent[source] = source``, ``-1`` where unreached).
    deterministic : bool
        Each parent the smallest-index in-neighbour on the previous level. A pull finds that
        one anyway (A's rows are sorted and the scan stops at the first found); a push then
        takes the minimum with an atomic.
    direction : {'auto', 'push', 'pull'}
    alpha, beta : int
        The switching thresholds (positive).
    symmetric : bool
        Promise that A equals Aᵀ: the pull reads A's rows (no transpose is built).
    trace : bool
        Profile the levels (``info['trace']``); costs a few loads and stores a level.
    blocks_per_sm : int, optional
        Blocks of the persistent grid per multiprocessor (capped by the kernel's occupancy);
        default :data:`BFS_GRID_BLOCKS_PER_SM`. Fewer blocks make a cheaper barrier: a
        high-diameter graph's thousands of narrow levels run faster on one.
    blocks : int, optional
        At most this many blocks in all (a small graph's levels are mostly barrier: a few
        blocks sync faster than the whole device); default: no cap beyond ``blocks_per_sm``.
    info : bool
        Return the counters (below). With False (and no ``trace``) ``info`` is None and the
        search's scratch is kept with Aᵀ for the next call on the same stream
        (:data:`BFS_GRID_KEEP`): ``level`` (and ``parent``) are then its only allocations.

    Returns
    -------
    level : cupy.ndarray of int64
    parent : cupy.ndarray of int64, or None
    info : mapping or None
        ``levels`` (the search's levels, the last one finding nothing: where every vertex is
        visited before it, that one is known empty and not run, its time 0), ``push`` and
        ``pull`` (levels in each direction), ``depth`` (the deepest level reached); with
        ``trace``, ``trace``: one ``(microseconds, frontier vertices, frontier out-edges,
        'push' | 'pull')`` per level (the first :data:`TRACE_LEVELS`), timed on the device. Read from the device on
        first access (without ``trace``): the search itself makes no host synchronization,
        the results are device arrays that a later read (or the caller's sync) waits for.

    Raises
    ------
    BackendUnavailable
        Where the cooperative launch cannot be made (nothing has run then).

    Examples
    --------
    A path 0 → 1 → 2 → 3 on the GPU (skipped where there is none):

    >>> import scipy.sparse as sp, semiring as sr
    >>> from semiring.traversal import bfs_grid
    >>> S = sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr")
    >>> A = sr.Matrix.from_scipy(S, device="gpu")  # doctest: +SKIP
    >>> level, parent, info = bfs_grid(A, 0, parents=True)  # doctest: +SKIP
    >>> level.tolist(), parent.tolist(), info["depth"]  # doctest: +SKIP
    ([0, 1, 2, 3], [0, 0, 1, 2], 3)
    """
    op = "bfs_grid"
    A, n = _grid_operand(A, source, op)
    if not isinstance(info, (bool, np.bool_)):
        raise InvalidValue(f"{op}: info must be True or False, got {info!r}")
    cp, AT, dev, f, blocks, kname, per_sm = _bfs_grid_kernel(
        op, A, parents, deterministic, direction, alpha, beta, symmetric, blocks_per_sm, blocks)
    dmode = _DIRECTION_MODES[direction]
    keep = BFS_GRID_KEEP and not info and not trace
    if keep and BFS_GRID_DIRECT:
        run = _kept_launch(cp, A, AT, n, dev, f, blocks, kname, per_sm, alpha, beta, dmode,
                           parents, op)
        if run is not None:
            level, parent = run(int(source))
            return level, parent, None
    # the kernel writes every entry of level and parent (or the source's alone, with
    # BFS_GRID_HOST_FILL) and zeroes its bitmaps and counters; its scratch (state, bitmaps,
    # queues) is one allocation passed as addresses (one pool request and no views: on an
    # H200's host 11 us against 26 for five arrays, a zero fill and seven views, spent before
    # the launch; bench/results/session12-bfs5)
    level = cp.empty(n, dtype=cp.int64)
    parent = cp.empty(n, dtype=cp.int64) if parents else None
    if BFS_GRID_HOST_FILL:  # -1 everywhere (bytes 0xFF), filled while the host launches
        level.data.memset_async(0xFF, 8 * n)
        if parent is not None:
            parent.data.memset_async(0xFF, 8 * n)
        dmode |= 4
    isize = np.dtype(A.itype).itemsize
    ws, ptr = _kept_workspace(cp, n, isize, AT, dev) if keep else _bfs_workspace(cp, n, isize)
    tr = cp.zeros(1 + 4 * TRACE_LEVELS, dtype=cp.int64) if trace else None
    try:
        f((blocks,), (_gt.GRID_THREADS,), (
            A.indptr, A.indices, AT.indptr, AT.indices, np.int64(n), np.int64(source), level,
            level if parent is None else parent, *ptr, np.int64(alpha), np.int64(beta),
            np.int32(dmode), tr if trace else np.uint64(0),
            np.int64(TRACE_LEVELS), _no_in_edges(AT, cp)))
    except _gt.driver_error() as err:  # e.g. CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
        raise BackendUnavailable(f"{op}: cooperative launch of {blocks} blocks of "
                                 f"{_gt.GRID_THREADS} threads failed: {err}") from err
    if keep:  # the kept scratch's counters belong to whichever call ran last
        return level, parent, None
    state = _WorkspaceWords(ws, 12)
    # no host sync here: the counters are read if and when info is
    info = _DeviceInfo(state, ("depth", "levels", "push", "pull"))
    if trace:
        info = dict(info)
        t = tr.get()
        rows = t[1:].reshape(-1, 4)[:min(info["levels"], TRACE_LEVELS)]
        ends = rows[:, 0] - t[0]
        starts = np.r_[0, ends[:-1]]
        info["trace"] = [((e - b) / 1e3, int(c), int(m), "push" if p else "pull")
                         for b, e, (_, c, m, p) in zip(starts, ends, rows)]
    return level, parent, info



#: The most vertices :func:`bfs_small` takes (its levels, queues and parents in 48 KiB of a
#: block's shared memory).
BFS_SMALL_MAX_N = _gs.MAX_N


def bfs_small(A, source, *, parents=False, deterministic=False):
    """A whole breadth-first search of a small graph in one thread block: one launch, no host
    synchronization.

    The push levels of :func:`bfs_grid` (``q⟨¬visited⟩ = q any.secondi A``, every unvisited
    head claimed once), run by one block with the levels, the frontier queues and the parents
    in shared memory and ``__syncthreads`` between levels: a level costs about two dependent
    loads from global memory, where the cooperative grid pays a grid-wide barrier (on an
    H100, bench/probes/small_grid.py: ``bfs_grid`` took about 0.11 ms on a 1000-vertex graph
    whatever its grid, 1 to 264 blocks). GPU only: ``algorithms.bfs`` picks it for small graphs
    (its ``SMALL_N``).

    Parameters
    ----------
    A : Matrix, on the GPU, square, 1 to :data:`BFS_SMALL_MAX_N` vertices
        The graph (edges ``A(i, j)``: i → j); only its structure is read.
    source : int
    parents : bool
        Also return the BFS tree (``parent[source] = source``, ``-1`` where unreached).
    deterministic : bool
        Each parent the smallest-index in-neighbour on the previous level; otherwise the one
        that claimed the vertex.

    Returns
    -------
    level : cupy.ndarray of int64
    parent : cupy.ndarray of int64, or None

    Examples
    --------
    A path 0 → 1 → 2 → 3 on the GPU (skipped where there is none):

    >>> import scipy.sparse as sp, semiring as sr
    >>> S = sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr")
    >>> A = sr.Matrix.from_scipy(S, device="gpu")  # doctest: +SKIP
    >>> level, parent = sr.traversal.bfs_small(A, 0, parents=True)  # doctest: +SKIP
    >>> level.tolist(), parent.tolist()  # doctest: +SKIP
    ([0, 1, 2, 3], [0, 0, 1, 2])
    """
    op = "bfs_small"
    A, n = _grid_operand(A, source, op)
    if n > BFS_SMALL_MAX_N:
        raise InvalidValue(f"{op}: A may have at most {BFS_SMALL_MAX_N} vertices, got {n}")
    return _gs.bfs_small(A, int(source), 0 if not parents else (2 if deterministic else 1))


#: Blocks per multiprocessor of :func:`bfs_async` (each owns a range of vertices; fewer
#: blocks, longer ranges: fewer edges between blocks). Its shared memory (the range's depths)
#: allows one on an H100 for a 4M-vertex graph.
BFS_ASYNC_BLOCKS_PER_SM = 1
#: A safety net: :func:`bfs_async` stops (and raises) after this many seconds on the device.
#: No correct search comes near it (the 2048² grid takes milliseconds).
BFS_ASYNC_TIMEOUT_S = 30.0


def bfs_async(A, source, *, parents=False, symmetric=False, blocks_per_sm=None):
    """A whole breadth-first search in one persistent launch with no grid-wide barrier.

    The levels are the fixed point of ``level(v) = min(level(v), level(u) + 1)`` over the
    edges u → v (the relaxation of Bellman–Ford with unit weights), reached asynchronously:
    each block owns a range of consecutive vertices and runs its own levels on them (its
    frontier and its vertices' levels in shared memory, block barriers only); an edge into
    another block's range lowers the level there with an atomic min and, where it improved,
    sends the vertex to its owner's inbox (Groute's asynchronous model, Ben-Nun et al. 2017,
    with the work split by vertex range). The search ends when no message is in flight and
    every block is idle (a counter of messages sent and not yet released). The result is the
    level-synchronous search's, exactly; the time is that of the longest chain of local levels
    plus the messages along it, not of a grid-wide barrier per level: for graphs numbered with
    locality (a grid row by row, a road network by area) and thousands of narrow levels.
    A level reads its rows from a padded copy of A's columns (4 a row, the GPU backend's
    ``ASYNC_ELL_WIDTH``; built on the first call and kept with A: n × 4 ints), 4 threads a
    vertex, so that its chain holds one global load and one edge's relaxation. Parents come
    from a second pass over the final levels. GPU only.

    Parameters
    ----------
    A : Matrix, on the GPU, square, at most :data:`BFS_GRID_MAX_N` vertices
        The graph (edges ``A(i, j)``: i → j); only its structure is read.
    source : int
    parents : bool
        Also return a BFS tree: ``parent[v]`` is v's smallest in-neighbour one level up (the
        ``min_secondi`` parent, the same on every run), ``parent[source] = source``, ``-1``
        where unreached.
    symmetric : bool
        Promise that A equals Aᵀ: the parents' pass reads A's rows (no transpose is built).
    blocks_per_sm : int, optional
        Blocks a multiprocessor (default :data:`BFS_ASYNC_BLOCKS_PER_SM`; fewer where the
        shared memory does not allow them).

    Returns
    -------
    level : cupy.ndarray of int64
    parent : cupy.ndarray of int64, or None
    info : dict
        ``levels`` (local levels run, summed over the blocks), ``messages`` (vertices sent
        between blocks), ``visits`` (frontier vertices expanded: n when no vertex is expanded
        twice), ``blocks``, ``span`` (vertices a block), ``shared`` (the levels held in
        shared memory) and ``ell_width`` (the padded rows' width; 0: the CSR rows).

    Raises
    ------
    BackendUnavailable
        Where the cooperative launch cannot be made (nothing has run then).

    Examples
    --------
    A path 0 → 1 → 2 → 3 on the GPU (skipped where there is none):

    >>> import scipy.sparse as sp, semiring as sr
    >>> S = sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr")
    >>> A = sr.Matrix.from_scipy(S, device="gpu")  # doctest: +SKIP
    >>> level, parent, info = sr.traversal.bfs_async(A, 0, parents=True)  # doctest: +SKIP
    >>> level.tolist(), parent.tolist()  # doctest: +SKIP
    ([0, 1, 2, 3], [0, 0, 1, 2])
    """
    op = "bfs_async"
    A, n = _grid_operand(A, source, op)
    per_sm = _blocks_per_sm(op, blocks_per_sm, BFS_ASYNC_BLOCKS_PER_SM)
    level, info = _gt.bfs_async(A, int(source), per_sm, BFS_ASYNC_TIMEOUT_S)
    if info["status"] != _gt.ASYNC_DONE:
        raise RuntimeError(f"{op}: the search did not end within {BFS_ASYNC_TIMEOUT_S} s "
                           f"(n = {n}): a bug")
    parent = None
    if parents:
        AT = A if symmetric else A.T
        parent = _gt.bfs_parents_of_levels(AT, level)
    return level, parent, info


#: Sources per launch of :func:`msbfs_grid`: one bit each of a 64-bit word a vertex.
MSBFS_BATCH = 64
#: In-degree above which :func:`msbfs_grid` scans a vertex's in-neighbours with a whole block
#: (2048 a step) instead of a warp (128 a step): a Kronecker hub (10^5 in-neighbours) scanned
#: by one warp would hold the grid at the barrier for about a millisecond a level.
MSBFS_HEAVY = 4096
#: Levels of :func:`msbfs_grid` that keep a bitmap of their frontier (for ``filter_div``): one
#: bit a vertex each, never reused within a launch (so read through L1 safely).
MSBFS_FILTER_LEVELS = 32


def msbfs_grid(A, sources, *, parents=False, symmetric=False, filter_div=0, info=None,
               trace=False):
    """Many breadth-first searches at once, bit-parallel, each batch of sources in one launch.

    Up to :data:`MSBFS_BATCH` searches share one 64-bit word a vertex (Then et al. 2014): bit
    j of ``F[v]`` says v is on source j's frontier. Each level is the pull step
    ``F'⟨¬S⟩ = Aᵀ bor.second F`` (the SpMM of :func:`algorithms.multi_source_bfs` over the
    frontier matrix, 64 columns packed to a word): each vertex ORs its in-neighbours' words and
    stops once every running search has reached it, so one pass over the graph serves 64
    searches. The scan is balanced by in-degree: a lane scans a short row, a warp a longer one
    (128 in-neighbours a step), a block one of more than :data:`MSBFS_HEAVY`. Sparse levels
    (``filter_div``) skip the words of in-neighbours off the frontier and, on a symmetric
    graph, the vertices no frontier vertex points to (Beamer's push for a small frontier, as
    marks). A persistent
    cooperative grid runs every level of a batch, a grid-wide barrier between them; levels are
    kept as bit slices during the search (a word per bit of the depth, one bit a source) and
    written out as int64 by one coalesced pass after it. Parents are the first in-neighbour
    found in row order, which is the smallest (A's rows are sorted): ``min_secondi``, the same
    on every run. GPU only.

    Parameters
    ----------
    A : Matrix, on the GPU, square, fewer than 2**32 vertices
        The graph (edges ``A(i, j)``: i → j); only its structure is read.
    sources : cupy.ndarray of int64, 1-D
        The start vertices, in ``[0, n)``; duplicates allowed.
    parents : bool
    symmetric : bool
        Promise that A equals Aᵀ: the pull reads A's rows (no transpose is built).
    filter_div : int
        A sparse level, whose frontier holds fewer than n / ``filter_div`` vertices (of the
        first :data:`MSBFS_FILTER_LEVELS`), tests each in-neighbour's bit in a bitmap of the
        frontier before loading its 64-bit word; with ``symmetric``, the frontier first marks
        its neighbours (a push of one bit a vertex) and only those scan their rows. 0: never.
    info : dict, optional
        Filled with ``levels`` (levels run, a list: one entry a batch) and ``depth`` (the
        deepest level of each batch); reading them synchronizes with the device.
    trace : bool
        With ``info``: ``info['trace']``, for each batch one ``(microseconds, new vertices,
        filtered)`` per level (the first :data:`TRACE_LEVELS`), timed on the device.

    Returns
    -------
    level : cupy.ndarray of int64, shape ``(len(sources), n)``
    parent : same shape, or None

    Raises
    ------
    BackendUnavailable
        Where the cooperative launch cannot be made (before any batch has run), or A has
        2**32 vertices or more.

    Examples
    --------
    >>> import cupy as cp, scipy.sparse as sp, semiring as sr  # doctest: +SKIP
    >>> from semiring.traversal import msbfs_grid  # doctest: +SKIP
    >>> S = sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr")  # doctest: +SKIP
    >>> level, parent = msbfs_grid(sr.Matrix.from_scipy(S, device="gpu"),
    ...                            cp.asarray([0, 2]), parents=True)  # doctest: +SKIP
    >>> level.tolist(), parent.tolist()  # doctest: +SKIP
    ([[0, 1, 2, 3], [-1, -1, 0, 1]], [[0, 0, 1, 2], [-1, -1, 2, 2]])
    """
    op = "msbfs_grid"

    A = as_matrix(A, op=op, arg="A", square=True)
    if A.device != "gpu":
        raise DeviceMismatch(f"{op}: A must be on the GPU (this is the device-side loop), "
                             f"got a {A.device} matrix")
    cp = _cupy()
    n = A.nrows
    if (not isinstance(sources, cp.ndarray) or sources.ndim != 1
            or sources.dtype != cp.int64):
        raise DomainMismatch(f"{op}: sources must be a 1-D int64 CuPy array")
    if info is not None and not isinstance(info, dict):
        raise DomainMismatch(f"{op}: info must be a dict or None, got {type(info).__name__}")
    if isinstance(filter_div, bool) or not isinstance(filter_div, (int, np.integer)) \
            or not 0 <= filter_div < 2**20:
        raise InvalidValue(f"{op}: filter_div must be an integer in [0, 2**20), got {filter_div!r}")
    s = int(sources.size)
    if s:
        lo, hi = (int(v) for v in cp.stack([sources.min(), sources.max()]).get())
        if lo < 0 or hi >= n:

            raise InvalidIndex(f"{op}: sources must lie in [0, {n}), got {lo if lo < 0 else hi}")
    if n >= 2**32:  # the level slices: a word per bit of the depth, at most 32
        raise BackendUnavailable(f"{op}: at most 2**32 - 1 vertices, got {n}")
    level = cp.empty((s, n), dtype=cp.int64)
    parent = cp.empty((s, n), dtype=cp.int64) if parents else None
    if s == 0 or n == 0:
        return level, parent
    tname = _gt.C_TYPES[np.dtype(A.itype)]
    f, blocks = _gt.grid_function(f"msbfs_grid<{tname}, {int(parents)}>", op,
                                  BFS_GRID_BLOCKS_PER_SM)
    write = _gt.function(f"msbfs_write<{int(parents)}>")
    AT = A if symmetric else A.T
    # the rows a block scans (Aᵀ's: in-degrees), in increasing order
    heavy = cp.flatnonzero(cp.diff(AT.indptr) > MSBFS_HEAVY).astype(AT.itype)
    nb = max(1, (n - 1).bit_length())  # level slices: enough for a depth of n - 1
    words = cp.empty((3 + nb, n), dtype=cp.uint64)  # F, F', S, the slices: the kernel zeroes them
    batches = -(-s // MSBFS_BATCH)
    states = cp.zeros((batches, 12), dtype=cp.int64)
    nfb = MSBFS_FILTER_LEVELS if filter_div else 0
    # frontier and mark bitmaps, one a level, each on whole 128-byte lines (the kernel's nwp)
    fbits = cp.empty((2, max(nfb, 1), -(-n // 1024) * 32), dtype=cp.uint32)
    trace = trace and info is not None
    tr = cp.zeros((batches, 1 + 3 * TRACE_LEVELS), dtype=cp.int64) if trace else None
    # the parents found, vertex-major (n × 64, 32 bits each): msbfs_write makes the rows
    P = cp.empty((n, MSBFS_BATCH), dtype=cp.uint32) if parents else fbits[0]
    wblocks = _gt.book_grid(n)
    for b, j0 in enumerate(range(0, s, MSBFS_BATCH)):
        j1 = min(s, j0 + MSBFS_BATCH)
        if nfb:
            fbits.fill(0)
        try:
            f((blocks,), (_gt.GRID_THREADS,), (
                AT.indptr, AT.indices, np.int64(n), sources[j0:j1], np.int32(j1 - j0), heavy,
                np.int64(heavy.size), np.int64(MSBFS_HEAVY), words[0], words[1], words[2],
                words[3:], np.int32(nb), P, states[b], fbits[0], fbits[1],
                np.int64(nfb), np.int64(filter_div), np.int32(bool(symmetric)),
                tr[b] if trace else np.uint64(0),
                np.int64(TRACE_LEVELS)))
        except _gt.driver_error() as err:
            raise BackendUnavailable(f"{op}: cooperative launch of {blocks} blocks of "
                                     f"{_gt.GRID_THREADS} threads failed: {err}") from err
        write((wblocks,), (_gt.BOOK_THREADS,), (
            words[2], words[3:], np.int64(n), np.int32(j1 - j0), states[b], level[j0:j1], P,
            level[j0:j1] if parent is None else parent[j0:j1]))
    if info is not None:
        st = states.get()
        info["depth"] = [int(v) for v in st[:, 0]]
        info["levels"] = [int(v) for v in st[:, 1]]
        if trace:
            info["trace"] = []
            for t, lv in zip(tr.get(), info["levels"]):
                rows = t[1:].reshape(-1, 3)[:min(lv, TRACE_LEVELS)]
                ends = rows[:, 0] - t[0]
                starts = np.r_[0, ends[:-1]]
                info["trace"].append([((e - a) / 1e3, int(k), bool(fl))
                                      for a, e, (_, k, fl) in zip(starts, ends, rows)])
    return level, parent


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
    A, dt, hi = _relax_args(op, A, d, pending, settled, hi)
    xp, n = A.xp, A.nrows
    if not isinstance(frontier, xp.ndarray) or frontier.ndim != 1 or frontier.dtype.kind not in "iu":
        raise DomainMismatch(f"{op}: frontier must be a 1-D integer {xp.__name__} array, got {frontier!r:.80}")
    if frontier.size > QUEUE:
        raise InvalidValue(f"{op}: frontier must hold at most {QUEUE} vertices, got {frontier.size}")
    if not 0 < max_edges < 2**31:
        raise InvalidValue(f"{op}: max_edges must lie in [1, 2**31), got {max_edges}")
    max_rounds = n + 1 if max_rounds is None else int(max_rounds)
    if frontier.size == 0 or max_rounds <= 0:
        return ("done" if frontier.size == 0 else "limit"), frontier, 0
    w, wstride = A._values_for(dt)
    return backend_of(A.device).traversal.relax_rounds(
        A, d, w, wstride, frontier, hi, pending, settled, int(max_edges), max_rounds, QUEUE)


def _relax_args(op, A, d, pending, settled, hi):
    """The checks every relaxation takes (A square; d a distance array of A's size on A's
    device; pending and settled bool arrays, both or neither); returns (A, d's dtype, hi in
    it, the type's "unreached" when None)."""
    A = as_matrix(A, op=op, arg="A", square=True)
    xp, n = A.xp, A.nrows
    if not isinstance(d, xp.ndarray) or d.shape != (n,) or np.dtype(d.dtype) not in _gt.C_TYPES:
        got = f"{type(d).__name__} {getattr(d, 'dtype', '')} {getattr(d, 'shape', '')}"
        raise DomainMismatch(f"{op}: d must be an int32, int64, float32 or float64 {xp.__name__} "
                             f"array of shape ({n},), got {got}")
    if (pending is None) != (settled is None):
        raise InvalidValue(f"{op}: pending and settled go together")
    for arg, a in (("pending", pending), ("settled", settled)):
        if a is not None and (not isinstance(a, xp.ndarray) or a.shape != (n,) or a.dtype != np.bool_):
            raise DomainMismatch(f"{op}: {arg} must be a bool {xp.__name__} array of shape ({n},)")
    dt = np.dtype(d.dtype)
    top = np.inf if dt.kind == "f" else np.iinfo(dt).max
    hi = dt.type(top if hi is None else min(hi, top))
    return A, dt, hi


# ------------------------------------------------------------------------------ bitmap levels
# A wide BFS level runs as one multi-block pull over Aᵀ's rows; these keep its bookkeeping to
# one launch and one host synchronization each (the frontier's size and edges, which the
# push/pull switch needs), instead of a whole-vector CuPy call per assign and per count.

def frontier_of_level(A, level, depth):
    """The bitmap form of the frontier ``level == depth``, the unseen set, and their sizes.

    ``frontier = (level == depth)``, ``unseen = (level < 0)``: the state a pull level needs,
    from the ``level`` array that :func:`push_levels` leaves (one pass, one host sync).

    Parameters
    ----------
    A : Matrix
        The graph (its out-degrees are counted).
    level : int64 array of A's size
    depth : int

    Returns
    -------
    frontier, unseen : bool arrays
    size : int
        The frontier's vertices.
    edges : int
        Their out-edges.
    edges_unseen : int
        The out-edges of the unseen vertices.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> from semiring.traversal import frontier_of_level
    >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.ones((3, 3))), device="cpu")
    >>> f, u, size, edges, left = frontier_of_level(A, np.array([0, 1, -1]), 1)
    >>> f.tolist(), u.tolist(), size, edges, left
    ([False, True, False], [False, False, True], 1, 3, 3)
    """
    op = "frontier_of_level"
    A = as_matrix(A, op=op, arg="A")
    n = A.nrows
    _check_array(op, "level", level, A.xp, n)
    return backend_of(A.device).traversal.frontier_of_level(A, level, depth, n)


def pull_level(A, frontier, unseen, level, depth, *, parent=None, deterministic=False,
               symmetric=False):
    """One BFS level in the pull direction, its bookkeeping included:

        q⟨unseen⟩ = Aᵀ any.secondi frontier ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q ;
        unseen⟨q⟩ = false

    The product is the masked SpMV of :func:`semiring.vxm` (``direction='pull'``): each
    unseen vertex scans its in-neighbours and stops at the first in the frontier
    (``any_pair`` without parents, ``any_secondi`` with them, ``min_secondi`` when
    ``deterministic``: the smallest such in-neighbour, with no early stop).

    Parameters
    ----------
    A : Matrix
        The graph, square (edges ``A(i, j)``: i → j); only its structure is read.
    frontier, unseen : bool arrays of A's size
        The frontier at ``depth - 1`` and the unvisited vertices; ``unseen`` is updated in place.
    level : int64 array
        Updated in place: ``depth`` for each vertex reached.
    depth : int
    parent : int64 array, optional
        Updated in place with each reached vertex's parent.
    deterministic : bool
    symmetric : bool
        Promise that A equals Aᵀ: the pull reads A's rows (no transpose is built).

    Returns
    -------
    q : bool array
        The next frontier.
    size : int
        Its vertices.
    edges : int
        Its out-edges.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> from semiring.traversal import pull_level
    >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]])), device="cpu")
    >>> level = np.array([0, -1, -1])
    >>> q, size, edges = pull_level(A, level == 0, level < 0, level, 1)
    >>> q.tolist(), size, edges, level.tolist()
    ([False, True, True], 2, 1, [0, 1, 1])
    """
    op = "pull_level"
    A = as_matrix(A, op=op, arg="A", square=True)
    xp, n = A.xp, A.nrows
    for arg, a in (("frontier", frontier), ("unseen", unseen)):
        if not isinstance(a, xp.ndarray) or a.shape != (n,) or a.dtype != np.bool_:
            raise DomainMismatch(f"{op}: {arg} must be a bool {xp.__name__} array of shape ({n},)")
    _check_array(op, "level", level, xp, n)
    if parent is not None:
        _check_array(op, "parent", parent, xp, n)

    name = "any_pair" if parent is None else ("min_secondi" if deterministic else "any_secondi")
    sr = ops.lookup("semiring", name, op=op, arg="semiring")
    AT = A if symmetric else A.T
    return backend_of(A.device).traversal.pull_level(A, AT, sr, frontier, unseen, level, depth, parent, n)


def pull_relax(A, d, frontier, *, hi=None, pending=None, settled=None):
    """One relaxation round in the pull direction, its bookkeeping included:

        t = f min.+ A ;  improved = t < d ;  d⟨improved⟩ = t ;  f = improved ∧ (t < hi)

    The product is the SpMV of :func:`semiring.vxm` (``direction='pull'``) over Aᵀ's rows:
    every vertex takes the minimum over its in-edges from the frontier. With ``pending`` and
    ``settled`` it is a light round of a delta-stepping bucket, as in :func:`relax_rounds`:
    the frontier becomes settled and not pending, every improved vertex pending.

    Parameters
    ----------
    A : Matrix
        Square; its values (or iso value) are the weights, cast to ``d``'s type.
    d : array of int32, int64, float32 or float64, on A's device
        Distances, updated in place (the type's maximum or inf is "unreached"; sums must not
        overflow: the caller picks a type wide enough).
    frontier : bool array
        The vertices whose out-edges are relaxed.
    hi : scalar, optional
        Only improvements below ``hi`` join the next frontier (default: all).
    pending, settled : bool arrays, optional
        Both or neither; updated in place.

    Returns
    -------
    frontier : bool array
        The next frontier.
    size : int
        Its vertices (the round's one host synchronization).

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> from semiring.traversal import pull_relax
    >>> A = sr.Matrix.from_coo([0, 0, 2], [1, 2, 1], [4.0, 1.0, 2.0], nrows=3, ncols=3, device="cpu")
    >>> d = np.array([0.0, np.inf, np.inf])
    >>> f, size = pull_relax(A, d, np.array([True, False, False]))
    >>> f.tolist(), size, d.tolist()
    ([False, True, True], 2, [0.0, 4.0, 1.0])
    """
    op = "pull_relax"
    A, dt, hi = _relax_args(op, A, d, pending, settled, hi)
    xp, n = A.xp, A.nrows
    if not isinstance(frontier, xp.ndarray) or frontier.shape != (n,) or frontier.dtype != np.bool_:
        raise DomainMismatch(f"{op}: frontier must be a bool {xp.__name__} array of shape ({n},)")

    min_plus = ops.lookup("semiring", "min_plus", op=op, arg="semiring")
    AT = A.T
    return backend_of(A.device).traversal.pull_relax(AT, min_plus, d, dt, frontier, hi, pending, settled, n)


def push_level(A, frontier, unseen, level, depth, *, parent=None, deterministic=False):
    """One BFS level in the push direction over the whole device, its bookkeeping included:

        q⟨¬seen⟩ = frontier any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q ;
        unseen⟨q⟩ = false

    The product is the masked SpMSpV of :func:`semiring.vxm` (``direction='push'``), with the
    mask read from ``level`` (unvisited: ``-1``) and each head claimed once, as in
    :func:`push_levels`; this is its multi-block form, for frontiers too wide for one block.

    Parameters
    ----------
    A : Matrix
        The graph, square (edges ``A(i, j)``: i → j); only its structure is read.
    frontier : int64 array
        The vertices at ``depth - 1``, distinct.
    unseen : bool array of A's size
        Updated in place (``level < 0``, kept for the pull direction).
    level : int64 array
        Updated in place: ``depth`` for each vertex reached.
    depth : int
    parent : int64 array, optional
        Updated in place: any in-neighbour on the frontier, or the smallest with
        ``deterministic=True``.
    deterministic : bool

    Returns
    -------
    q : int64 array
        The next frontier, in no particular order.
    size : int
        Its vertices.
    edges : int
        Its out-edges.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> from semiring.traversal import push_level
    >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]])), device="cpu")
    >>> level = np.array([0, -1, -1])
    >>> q, size, edges = push_level(A, np.array([0]), level < 0, level, 1)
    >>> sorted(q.tolist()), size, edges, level.tolist()
    ([1, 2], 2, 1, [0, 1, 1])
    """
    op = "push_level"
    A = as_matrix(A, op=op, arg="A", square=True)
    xp, n = A.xp, A.nrows
    if not isinstance(frontier, xp.ndarray) or frontier.ndim != 1 or frontier.dtype != np.int64:
        raise DomainMismatch(f"{op}: frontier must be a 1-D int64 {xp.__name__} array, got {frontier!r:.80}")
    if not isinstance(unseen, xp.ndarray) or unseen.shape != (n,) or unseen.dtype != np.bool_:
        raise DomainMismatch(f"{op}: unseen must be a bool {xp.__name__} array of shape ({n},)")
    _check_array(op, "level", level, xp, n)
    if parent is not None:
        _check_array(op, "parent", parent, xp, n)
    if frontier.size == 0:
        return frontier, 0, 0
    return backend_of(A.device).traversal.push_level(A, frontier, unseen, level, depth, parent, deterministic)


def push_relax(A, d, frontier, *, hi=None, pending=None, settled=None):
    """One relaxation round in the push direction over the whole device:

        t = f min.+ A ;  d = min(d, t) ;  f = {v : d(v) improved, t(v) < hi}

    The multi-block form of one :func:`relax_rounds` round (atomic min on d), for frontiers
    too wide for one block; the arguments and the delta-stepping mode are the same.

    Returns
    -------
    frontier : int64 array
        The next frontier, distinct vertices in no particular order.
    size : int

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> from semiring.traversal import push_relax
    >>> A = sr.Matrix.from_coo([0, 0, 2], [1, 2, 1], [4.0, 1.0, 2.0], nrows=3, ncols=3, device="cpu")
    >>> d = np.array([0.0, np.inf, np.inf])
    >>> f, size = push_relax(A, d, np.array([0]))
    >>> sorted(f.tolist()), size, d.tolist()
    ([1, 2], 2, [0.0, 4.0, 1.0])
    """
    op = "push_relax"
    A, dt, hi = _relax_args(op, A, d, pending, settled, hi)
    xp, n = A.xp, A.nrows
    if not isinstance(frontier, xp.ndarray) or frontier.ndim != 1 or frontier.dtype != np.int64:
        raise DomainMismatch(f"{op}: frontier must be a 1-D int64 {xp.__name__} array, got {frontier!r:.80}")
    if frontier.size == 0:
        return frontier, 0
    w, wstride = A._values_for(dt)
    return backend_of(A.device).traversal.push_relax(A, d, dt, w, wstride, frontier, hi, pending, settled, n)


def csgraph_fits(A) -> bool:
    """Whether :func:`bfs_csgraph` can take A: a CPU matrix whose vertices and entries fit
    SciPy's int32 csgraph indices."""
    A = as_matrix(A, op="csgraph_fits", arg="A")
    return A.device == "cpu" and backend_of("cpu").traversal.csgraph_fits(A)


def bfs_csgraph(A, source, *, parents=False, deterministic=False):
    """Whole breadth-first searches on the CPU by SciPy's compiled ``breadth_first_order``.

    The same levels (and BFS trees) as the level-synchronous search, in O(n + m) a source with
    no cost per level: the CPU's counterpart of :func:`bfs_grid` (a high-diameter graph, a
    path or a grid, would otherwise pay a NumPy dispatch per level). The levels come from
    SciPy's visit order and tree: along its FIFO order each level starts at the first child
    of the previous level's first parent (a few NumPy passes and a Python step a level,
    doubling beyond a cap for very deep graphs).

    Parameters
    ----------
    A : Matrix on the CPU, square, :func:`csgraph_fits`
        The graph (edges ``A(i, j)``: i → j); only its structure is read (explicit zeros are
        edges).
    source : int or 1-D sequence of int
        One start vertex, or several (one search each, one row of the results each).
    parents : bool
        Also return the BFS tree(s): ``parent[source] = source``, ``-1`` where unreached.
    deterministic : bool
        With ``parents``: each parent the smallest-index in-neighbour on the previous level
        (else the one SciPy's search found it from).

    Returns
    -------
    level : numpy.ndarray of int64, shape (n,) or (len(source), n)
    parent : numpy.ndarray of int64 of the same shape, or None

    Examples
    --------
    >>> import scipy.sparse as sp, semiring as sr
    >>> S = sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr")
    >>> level, parent = sr.traversal.bfs_csgraph(sr.Matrix.from_scipy(S, device="cpu"), 1,
    ...                                        parents=True)
    >>> level.tolist(), parent.tolist()
    ([-1, 0, 1, 2], [-1, 1, 1, 2])
    """
    op = "bfs_csgraph"
    A, cpu = _csgraph_operand(A, op)
    n = A.nrows
    many = np.ndim(source) == 1
    src = np.asarray(source).reshape(-1) if many else np.asarray([source]).reshape(-1)
    if np.ndim(source) > 1 or (src.size and (src.dtype == np.bool_ or src.dtype.kind not in "iu")):
        raise DomainMismatch(f"{op}: source must be an integer or a 1-D sequence of integers, "
                             f"got {source!r}")
    if src.size and (int(src.min()) < 0 or int(src.max()) >= n):
        bad = int(src.min()) if int(src.min()) < 0 else int(src.max())
        raise InvalidIndex(f"{op}: source must lie in [0, {n}), got {bad}")
    level = np.empty((src.size, n), dtype=np.int64)
    parent = np.empty((src.size, n), dtype=np.int64) if parents else None
    if src.size > 1 and not (parents and deterministic) and cpu.bfs_many(A, src, level, parent):
        return level, parent  # (one compiled search a source, the sources over threads)
    S = cpu._structure(A)
    for r, s in enumerate(src.tolist()):  # each search fills its rows
        cpu.bfs_csgraph(A, s, parents, deterministic, S, level[r],
                        parent[r] if parents else None)
    if not many:
        level = level[0]
        parent = None if parent is None else parent[0]
    return level, parent


def _csgraph_operand(A, op: str):
    """(A as a square CPU Matrix within SciPy's int32 indices, the CPU traversal backend)."""
    A = as_matrix(A, op=op, arg="A", square=True)
    if A.device != "cpu":
        raise DeviceMismatch(f"{op}: A must be on the CPU (SciPy's search), got a {A.device} "
                             f"matrix")
    cpu = backend_of("cpu").traversal
    if not cpu.csgraph_fits(A):
        raise InvalidValue(f"{op}: A must have fewer than {cpu.CSGRAPH_MAX} vertices and "
                           f"entries (SciPy's int32 indices), got {A.nrows} and {A.nvals}")
    return A, cpu


def dijkstra_csgraph(A, source, *, compiled=False):
    """Shortest distances from ``source`` on the CPU by SciPy's compiled Dijkstra, or by the
    project's compiled one (``compiled=True``).

    The weights are A's values as float64 (explicit zeros are zero-weight edges; a
    structure-only matrix weighs every edge its iso value, True: 1) and must be non-negative;
    the sums run in float64. ``algorithms.sssp`` uses it on the CPU where its result is
    provably the one of the min-plus relaxation in A's type (see its ``CPU_CSGRAPH``).

    ``compiled=True`` runs a Numba loop with a 4-ary heap and decrease-key instead of SciPy's
    Fibonacci heap (where Numba is off, SciPy's runs). Both compute each candidate as
    ``dist[v] + w`` in float64 and settle vertices in non-decreasing distance; with w >= 0
    float64 rounding is monotone, so both give each vertex the least float64 path sum over
    its in-edges' candidates: the same distances bit for bit, whatever order ties settle in.

    Parameters
    ----------
    A : Matrix on the CPU, square, :func:`csgraph_fits`, no negative or NaN weight
    source : int
    compiled : bool
        The project's compiled loop (Numba, the ``cpu`` extra) instead of SciPy's.

    Returns
    -------
    dist : numpy.ndarray of float64, ``inf`` where unreached

    Examples
    --------
    >>> import scipy.sparse as sp, semiring as sr
    >>> S = sp.csr_matrix([[0, 2.0, 9.0], [0, 0, 3.0], [0, 0, 0]])
    >>> sr.traversal.dijkstra_csgraph(sr.Matrix.from_scipy(S, device="cpu"), 0).tolist()
    [0.0, 2.0, 5.0]
    """
    op = "dijkstra_csgraph"
    A, cpu = _csgraph_operand(A, op)
    if isinstance(source, bool) or not isinstance(source, (int, np.integer)):
        raise DomainMismatch(f"{op}: source must be an integer, got {type(source).__name__}")
    if not 0 <= int(source) < A.nrows:
        raise InvalidIndex(f"{op}: source must lie in [0, {A.nrows}), got {int(source)}")
    compiled = check_bool(op, "compiled", compiled)
    if A.nvals:
        bad = A._memo.get(_WEIGHTS_KEY)
        if bad is None:  # (two passes over the weights: checked once per matrix content)
            w, _ = A._values_for(np.float64)
            bad = A._memo[_WEIGHTS_KEY] = "NaN" if bool(np.isnan(w).any()) else \
                "negative" if bool((w < 0).any()) else ""
        if bad:
            raise InvalidValue(f"{op}: A's weights must be non-negative numbers, got a {bad} "
                               f"weight")
    return cpu.dijkstra_csgraph(A, int(source), compiled)


#: dijkstra_csgraph's check of A's weights, kept in A's ``_memo``: "NaN", "negative" or ""
#: (both passes cost grid-128² 0.1 ms a search, 3 % of it)
_WEIGHTS_KEY = "dijkstra.weights"


#: Blocks per multiprocessor of :func:`sssp_grid`'s persistent grid (at most 2: the kernel
#: uses 64 registers a thread at 512 threads a block). Fewer blocks make a cheaper grid-wide
#: barrier, as for :data:`BFS_GRID_BLOCKS_PER_SM`: on an H100 (bench/probes/road_probe.py,
#: Δ = 16 · max w) one block took 37.9 ms on the 2048² grid and 18.0 ms on rgg-22, two 42.1 and
#: 20.0 ms; but Kronecker-22 22.1 ms on one against 12.9 on two. ``algorithms.sssp`` picks per
#: graph.
SSSP_GRID_BLOCKS_PER_SM = 1
#: A safety net against a hung launch: :func:`sssp_grid` stops (and raises) after this many
#: rounds per vertex (plus a constant). No correct search comes near it.
SSSP_GRID_ROUNDS_PER_VERTEX = 64
_SSSP_TYPES = tuple(np.dtype(t) for t in (np.int32, np.int64, np.float32, np.float64))
#: How :func:`sssp_grid` spreads a round's edges over the grid: "search" (each edge searches
#: its slot: shared-memory samples, then dependent L2 loads; traverse.cu) or "ranges" (a
#: contiguous range a warp, its frontier slots found once and read 32 at a time:
#: kernels/sssp.cu; ``algorithms.sssp`` picks it off road-like graphs: OTHER_SCHEDULE).
#: bench/probes/sssp_dense_probe.py compares them.
SSSP_GRID_SCHEDULE = "search"
SSSP_GRID_SCHEDULES = ("ranges", "search")


def _blocks_per_sm(op, v, default):
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 < v <= 32:
        raise InvalidValue(f"{op}: blocks_per_sm must be an integer in [1, 32] or None, "
                           f"got {v!r}")
    return int(v)


def _weight_check(A) -> tuple:
    """(negative or NaN weights, NaN weights) of a GPU matrix, counted once per matrix (its
    arrays do not change) by one kernel of ours: no CuPy reduction (``any`` is a CUB one,
    about 2.5 s a pass to compile on a fresh kernel cache)."""
    key = ("weight_check",)
    if key not in A._casts:
        if A.is_iso:
            w = np.asarray(A.iso_value)
            A._casts[key] = (int(not w >= 0), int(w != w))
        else:
            A._casts[key] = _gprep.weight_check(A.values)
    return A._casts[key]


def sssp_grid(A, source, delta, *, dtype=None, limit=None, blocks_per_sm=None, schedule=None):
    """A whole single-source shortest-path search in one persistent launch (near–far pile).

    The near–far method of Davidson, Baxter, Garland & Owens (IPDPS 2014) on the device: the
    vertices with a distance below a bound ``S`` form the near queue, relaxed round after round
    (each round ``t = f min.+ A ;  d = min(d, t)``, its improvements below ``S`` the next near
    queue, the others piled as *far*), rounds separated by a grid-wide barrier; when the near
    queue empties, ``m`` is the least distance in the far pile, ``S = m + delta``, and the pile's
    vertices below ``S`` become the near queue. The host launches once and synchronizes once:
    a road network or a mesh, thousands of rounds deep, pays no host round trip per round or
    bucket. The distances are the min-plus relaxation's fixed point in ``dtype`` (every vertex
    is relaxed again whenever it improves), whatever ``delta``: it sets only the work. GPU only:
    ``algorithms.delta_stepping`` picks it (its ``DEVICE_LOOP``) and runs the buckets elsewhere.

    Parameters
    ----------
    A : Matrix, on the GPU, square, at most :data:`BFS_GRID_MAX_N` vertices
        Edge i → j of weight ``A(i, j)`` (explicit zeros are zero-weight edges; an iso matrix
        weighs every edge its value), every weight non-negative, cast to ``dtype``.
    source : int
    delta : positive number
        The bucket width Δ (rounded up to an integer for integer distances).
    dtype : {int32, int64, float32, float64}, optional
        The distances' type (default: A's, float64 for bool). Sums must not overflow it: the
        caller picks a type wide enough (``algorithms.sssp`` does).
    limit : number, optional
        Stop once every distance up to ``limit`` is final: farther vertices may hold upper
        bounds (the caller reports them unreached).
    blocks_per_sm : int, optional
        Blocks of the persistent grid per multiprocessor (capped by the kernel's occupancy);
        default :data:`SSSP_GRID_BLOCKS_PER_SM`.
    schedule : {'ranges', 'search'}, optional
        How a round's edges are spread over the grid (default :data:`SSSP_GRID_SCHEDULE`):
        ``'ranges'`` gives each warp a contiguous range of them, its frontier slots found once
        and read 32 at a time; ``'search'`` has every edge search its slot. Same answers.

    Returns
    -------
    dist : cupy.ndarray of ``dtype``
        ``inf`` (floats) or the type's maximum (integers) where unreached.
    info : dict
        ``rounds`` (relaxation rounds), ``buckets`` (far-pile splits) and ``edges`` (edges
        relaxed, repeats included).

    Raises
    ------
    BackendUnavailable
        Where the cooperative launch cannot be made (nothing has run then).

    Examples
    --------
    On the GPU (skipped where there is none):

    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_coo([0, 0, 2], [1, 2, 1], [5.0, 1.0, 2.0], nrows=3, ncols=3,
    ...                        device="gpu")  # doctest: +SKIP
    >>> dist, info = sr.traversal.sssp_grid(A, 0, 2.0)  # doctest: +SKIP
    >>> dist.tolist()  # doctest: +SKIP
    [0.0, 3.0, 1.0]
    """
    op = "sssp_grid"
    A, n = _grid_operand(A, source, op)
    schedule = SSSP_GRID_SCHEDULE if schedule is None else schedule
    if schedule not in SSSP_GRID_SCHEDULES:
        raise InvalidValue(f"{op}: schedule must be one of {SSSP_GRID_SCHEDULES}, "
                           f"got {schedule!r}")
    dt = np.dtype(np.float64 if A.dtype == np.bool_ else A.dtype) if dtype is None else None
    if dt is None:
        try:
            dt = np.dtype(dtype)
        except TypeError:
            dt = None
    if dt not in _SSSP_TYPES:
        raise DomainMismatch(f"{op}: dtype must be one of int32, int64, float32, float64, "
                             f"got {dtype!r}")
    number = (int, float, np.integer, np.floating)
    if isinstance(delta, bool) or not isinstance(delta, number) or not np.isfinite(delta) \
            or not delta > 0:
        raise InvalidValue(f"{op}: delta must be a positive finite number, got {delta!r}")
    big = np.inf if dt.kind == "f" else np.iinfo(dt).max
    delta = float(delta) if dt.kind == "f" else min(int(np.ceil(delta)), int(big))
    if limit is None:
        limit = big
    elif isinstance(limit, bool) or not isinstance(limit, number) or not limit >= 0:
        raise InvalidValue(f"{op}: limit must be a number >= 0 or None, got {limit!r}")
    elif dt.kind != "f":
        limit = min(int(np.floor(limit)), int(big)) if np.isfinite(limit) else int(big)
    per_sm = _blocks_per_sm(op, blocks_per_sm, SSSP_GRID_BLOCKS_PER_SM)
    # the kernel compiles (if it must) on another thread while the weights are checked
    _gt.prefetch_grid(_gt.sssp_grid_name(A.itype, dt))
    if A.nvals:
        bad, nan = _weight_check(A)
        if bad:  # a negative or NaN weight
            raise InvalidValue(f"{op}: A's weights must be non-negative numbers, got a "
                               f"{'NaN' if nan else 'negative'} weight")
    max_rounds = SSSP_GRID_ROUNDS_PER_VERTEX * n + 4096
    d, rounds, buckets, edges, status = _gt.sssp_grid(
        A, int(source), delta, dt, limit, per_sm, max_rounds, schedule)
    if status != DONE:
        raise RuntimeError(f"{op}: more than {max_rounds} rounds: a bug")
    return d, {"rounds": rounds, "buckets": buckets, "edges": edges}
