"""GPU traversal steps (``kernels/traverse.cu``): the kernels' instantiations and loading (one
module of the single-block and bookkeeping kernels, one of the cooperative grid kernels), the
launch geometry, and the launches: fused push levels (one block or the persistent grid),
fused relaxation rounds, and the bookkeeping of one wide level. Called by
:mod:`semiring.traversal`, which validates the operands and names each step's algebra."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy
from ...errors import BackendUnavailable
from ..csr import frontier_degrees
from . import spmv as _spmv

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

#: The frontier buffers of :func:`push_levels_grid` (vertices): a next frontier of more
#: vertices hands back as ``'overflow'``. It must stay below 2**28 (the vertex field of the
#: kernel's packed counter).
GRID_QUEUE = 64 * QUEUE

#: C types of the index and distance arrays the kernels take.
C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long",
           np.dtype(np.float32): "float", np.dtype(np.float64): "double"}

#: Threads per block of the persistent grid (SR_GRID_THREADS in traverse.cu).
GRID_THREADS = 512
#: Blocks per multiprocessor of the persistent grid, at most what can be resident at once
#: (the occupancy of the kernel, read off the device). Fewer blocks make a cheaper grid-wide
#: barrier, more give a level's edges more threads: bench/probes/probe_coop.py measures it.
GRID_BLOCKS_PER_SM = 2
#: NVRTC options of the cooperative kernels' module (a probe may set ``-D`` overrides: the
#: options are part of the module's cache key).
GRID_OPTIONS = ("-std=c++17",)

#: Blocks per multiprocessor of the grid-stride bookkeeping kernels.
BOOK_BLOCKS_PER_SM = 8
BOOK_THREADS = 256


def source() -> str:
    return kernels.source("traverse.cu")


def kernel_names():
    """Every instantiation of the traversal kernels."""
    return ([f"push_levels<{I}, {p}>" for I in ("int", "long long") for p in (0, 1, 2)]
            + [f"relax_rounds<{I}, {T}>" for I in ("int", "long long")
               for T in C_TYPES.values()]
            + [f"bfs_commit<{I}, {p}>" for I in ("int", "long long") for p in ("false", "true")]
            + [f"bfs_frontier_of_level<{I}>" for I in ("int", "long long")]
            + [f"relax_commit<{T}>" for T in C_TYPES.values()]
            + [f"bfs_push_level<{I}, {p}>" for I in ("int", "long long") for p in (0, 1, 2)]
            + [f"relax_push<{I}, {T}>" for I in ("int", "long long") for T in C_TYPES.values()]
            + [f"msbfs_write<{p}>" for p in (0, 1)]
            + grid_kernel_names())


def grid_kernel_names():
    """The kernels launched cooperatively (every block resident at once), compiled in a module
    of their own."""
    return ([f"{k}<{I}, {p}>" for k in ("push_levels_grid", "bfs_grid")
             for I in ("int", "long long") for p in (0, 1, 2)]
            + [f"msbfs_grid<{I}, {p}>" for I in ("int", "long long") for p in (0, 1)]
            + sssp_grid_kernel_names())


def sssp_grid_kernel_names():
    """The instantiations of the near–far SSSP grid kernel (index × distance types)."""
    return [f"sssp_grid<{I}, {T}>" for I in ("int", "long long") for T in C_TYPES.values()]


@kernels.register("traversal")
def all_instantiations():
    yield "traversal", source(), _block_kernel_names()


@kernels.register("traversal_grid", options=lambda: GRID_OPTIONS,
                  enable_cooperative_groups=True)
def grid_instantiations():
    """The cooperative kernels, compiled as :func:`grid_function` compiles them."""
    yield "traversal_grid", source(), grid_kernel_names()


def _block_kernel_names():
    grid = set(grid_kernel_names())
    return [k for k in kernel_names() if k not in grid]


def function(name: str):
    """A kernel of the (non-cooperative) traversal module."""
    return kernels.function(("traverse",), name, source, _block_kernel_names, compile=False)


def grid_function(name: str, op: str = "push_levels_grid", per_sm_max: int | None = None,
                  lookup=None):
    """(kernel, blocks) of a cooperative kernel: the blocks are what the device holds at once
    (occupancy × multiprocessors, at most ``per_sm_max`` (default GRID_BLOCKS_PER_SM) a
    multiprocessor); a cooperative launch of more fails. Raises BackendUnavailable (naming
    ``op``) where the launch cannot be made. ``lookup(name)`` finds the kernel (default: the
    traversal module's cooperative kernels)."""
    cp = _cupy()
    from cupy_backends.cuda.api import driver, runtime  # noqa: PLC0415  (CuPy: GPU only)

    dev = cp.cuda.runtime.getDevice()
    try:
        if not kernels.memo(("cooperative_launch",), lambda: runtime.deviceGetAttribute(
                runtime.cudaDevAttrCooperativeLaunch, dev)):
            raise BackendUnavailable(f"{op}: GPU {dev} cannot launch kernels "
                                     f"cooperatively")
        f = (_grid_kernel if lookup is None else lookup)(name)
        per_sm_max = GRID_BLOCKS_PER_SM if per_sm_max is None else per_sm_max

        def blocks_of():
            per_sm = driver.occupancyMaxActiveBlocksPerMultiprocessor(f.kernel.ptr, GRID_THREADS, 0)
            if per_sm < 1:
                raise BackendUnavailable(f"{op}: no block of {GRID_THREADS} threads "
                                         f"of {name} fits on a multiprocessor of GPU {dev}")
            return kernels.num_sms(dev) * min(per_sm, max(1, per_sm_max))
        blocks = kernels.memo(("traverse_grid_blocks", GRID_OPTIONS, SSSP_OPTIONS, name,
                               GRID_THREADS, per_sm_max), blocks_of)
    except (cp.cuda.compiler.CompileException, driver.CUDADriverError,
            runtime.CUDARuntimeError) as err:
        raise BackendUnavailable(f"{op}: {type(err).__name__}: {err}") from err
    return f, blocks


def _grid_kernel(name: str):
    return kernels.function(("traverse_grid", GRID_OPTIONS), name, source, grid_kernel_names,
                            options=GRID_OPTIONS, compile=False, enable_cooperative_groups=True)


def prefetch_grid(name: str):
    """Start compiling a cooperative kernel on a background thread (:func:`kernels.prefetch`):
    on a fresh kernel cache its compile then overlaps the caller's other first-call work."""
    if not kernels.cached(("function", "traverse_grid", GRID_OPTIONS, name)):
        kernels.prefetch(_grid_kernel, name)


def driver_error():
    """CuPy's driver error class (what a failed cooperative launch raises)."""
    from cupy_backends.cuda.api import driver  # noqa: PLC0415  (CuPy: GPU only)

    return driver.CUDADriverError


def book_grid(n: int) -> int:
    """Blocks of a grid-stride bookkeeping launch over ``n`` items."""
    cp = _cupy()
    return max(1, min(-(-n // BOOK_THREADS), kernels.num_sms(cp.cuda.Device().id) * BOOK_BLOCKS_PER_SM))


def _kernel(itype, mode: int):
    return function(f"push_levels<{C_TYPES[np.dtype(itype)]}, {mode}>")


def push_levels(A, level, frontier, depth, parent, deterministic, max_edges, max_levels,
                queue=QUEUE):
    # the block's queue is the kernel's QUEUE
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


def push_levels_grid(A, level, frontier, depth, parent, deterministic, max_edges, max_levels,
                     queue):
    cp = _cupy()
    itype = A.itype
    mode = 0 if parent is None else (2 if deterministic else 1)
    f, blocks = grid_function(f"push_levels_grid<{C_TYPES[np.dtype(itype)]}, {mode}>")
    # a next frontier never holds more than n vertices (the given one may repeat some)
    cap = min(queue, max(A.nrows, frontier.size))
    q = cp.empty((2, cap), dtype=itype)
    o = cp.empty((2, cap), dtype=cp.int64)
    q[1, :frontier.size] = frontier  # the kernel appends it (with its edge offsets) to q[0]
    # SR_GRID_STATE words: size and depth in, then counters, flags and the barrier at zero
    state = cp.asarray(np.array([frontier.size, depth] + [0] * 10, dtype=np.int64))
    dummy = level if parent is None else parent
    try:
        f((blocks,), (GRID_THREADS,), (A.indptr, A.indices, level, dummy, q[0], q[1], o[0], o[1],
                                       state, np.int64(cap), np.int64(max_edges),
                                       np.int64(max_levels)))
    except driver_error() as err:  # e.g. CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
        raise BackendUnavailable(f"push_levels_grid: cooperative launch of {blocks} blocks of "
                                 f"{GRID_THREADS} threads failed: {err}") from err
    _count, depth, status, levels = (int(s) for s in state[:4].get())  # the one host sync
    return STATUS[status], depth, levels


def relax_rounds(A, d, w, wstride, frontier, hi, pending, settled, max_edges, max_rounds,
                 queue=QUEUE):
    # the block's queue is the kernel's QUEUE
    cp = _cupy()
    itype = A.itype
    qa = cp.empty(QUEUE, dtype=itype)
    qb = cp.empty(QUEUE, dtype=itype)
    qa[:frontier.size] = frontier
    flag = cp.zeros(A.nrows + 4, dtype=cp.uint8)  # + 4: the last byte's word is in bounds
    state = cp.asarray([frontier.size, 0, -1, 0], dtype=cp.int64)
    f = function(f"relax_rounds<{C_TYPES[np.dtype(itype)]}, {C_TYPES[np.dtype(d.dtype)]}>")
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


def _edge_launch(A, frontier):
    """What a multi-block launch over the frontier's out-edges needs: the inclusive prefix
    sum of its degrees, their total (a host sync), a next-frontier buffer (at most one vertex
    per edge, at most n) and zeroed counters."""
    cp = _cupy()
    offsets = cp.cumsum(frontier_degrees(A, frontier), dtype=cp.int64)
    total = int(offsets[-1])
    nxt = cp.empty(max(1, min(A.nrows, total)), dtype=cp.int64)
    return offsets, total, nxt, cp.zeros(3, dtype=cp.uint64)


def frontier_of_level(A, level, depth, n):
    cp = _cupy()
    frontier = cp.empty(n, dtype=cp.bool_)
    unseen = cp.empty(n, dtype=cp.bool_)
    counters = cp.zeros(3, dtype=cp.uint64)
    if n:
        f = function(f"bfs_frontier_of_level<{C_TYPES[np.dtype(A.itype)]}>")
        f((book_grid(n),), (BOOK_THREADS,), (level, np.int64(n), np.int64(depth), A.indptr,
                                               frontier, unseen, counters))
    size, edges, left = (int(c) for c in counters.get())  # the one host sync
    return frontier, unseen, size, edges, left


def pull_level(A, AT, sr, frontier, unseen, level, depth, parent, n):
    cp = _cupy()
    vals, q = _spmv.pull(AT, frontier, frontier, unseen, sr, np.bool_, True)
    counters = cp.zeros(3, dtype=cp.uint64)
    if n:
        I = C_TYPES[np.dtype(A.itype)]
        f = function(f"bfs_commit<{I}, {'false' if parent is None else 'true'}>")
        f((book_grid(n),), (BOOK_THREADS,), (
            q, vals if parent is not None else level, np.int64(n), np.int64(depth), level,
            parent if parent is not None else level, unseen, A.indptr, counters))
    size, edges, _ = (int(c) for c in counters.get())  # the one host sync
    return q, size, edges


def pull_relax(AT, min_plus, d, dt, frontier, hi, pending, settled, n):
    cp = _cupy()
    if dt.kind == "f":
        # off the frontier x is inf, the identity of min and absorbing for +: the pull then
        # needs no presence bitmap, one random load per edge instead of two dependent ones
        x = cp.where(frontier, d, dt.type(np.inf))
        t, tpres = _spmv.pull(AT, x, None, None, min_plus, dt, True)
    else:  # an integer "infinity" would wrap when added to: the bitmap says who counts
        t, tpres = _spmv.pull(AT, d, frontier, None, min_plus, dt, True)
    nxt = cp.empty(n, dtype=cp.bool_)
    counters = cp.zeros(3, dtype=cp.uint64)
    if n:
        f = function(f"relax_commit<{C_TYPES[dt]}>")
        f((book_grid(n),), (BOOK_THREADS,), (
            t, tpres, frontier, np.int64(n), hi, d, nxt,
            0 if pending is None else pending, 0 if settled is None else settled, counters))
    return nxt, int(counters[0].get())  # the one host sync


def push_level(A, frontier, unseen, level, depth, parent, deterministic):
    offsets, total, nxt, counters = _edge_launch(A, frontier)
    if total:
        mode = 0 if parent is None else (2 if deterministic else 1)
        f = function(f"bfs_push_level<{C_TYPES[np.dtype(A.itype)]}, {mode}>")
        f((book_grid(total),), (BOOK_THREADS,), (
            A.indptr, A.indices, frontier, np.int64(frontier.size), offsets, np.int64(depth),
            level, level if parent is None else parent, unseen, nxt, counters))
    size, edges, _ = (int(c) for c in counters.get())  # the one host sync (after the total)
    return nxt[:size], size, edges


def push_relax(A, d, dt, w, wstride, frontier, hi, pending, settled, n):
    cp = _cupy()
    if pending is not None:
        settled[frontier] = True
        pending[frontier] = False
    offsets, total, nxt, counters = _edge_launch(A, frontier)
    if total:
        flag = cp.zeros(n, dtype=cp.int32)
        f = function(f"relax_push<{C_TYPES[np.dtype(A.itype)]}, {C_TYPES[dt]}>")
        f((book_grid(total),), (BOOK_THREADS,), (
            A.indptr, A.indices, w, np.int64(wstride), frontier, np.int64(frontier.size),
            offsets, hi, d, 0 if pending is None else pending, flag, nxt, counters))
    size = int(counters[0].get())  # the one host sync (after the total)
    return nxt[:size], size


#: Words of the sssp_grid kernel's state (SR_SSSP_STATE in traverse.cu) and of sssp_ranges'
#: (SR_SSSP_RANGES_STATE in sssp.cu).
SSSP_STATE = 16
SSSP_RANGES_STATE = 20

#: The near–far kernels by edge schedule of a round (``sr.traversal.sssp_grid``'s
#: ``schedule``): "search" (sssp_grid in traverse.cu: each edge searches its frontier slot,
#: shared-memory samples then L2) or "ranges" (sssp_ranges in sssp.cu: a contiguous range of
#: edges a warp, slots found once a warp and read in windows of 32).
SSSP_KERNELS = {"search": "sssp_grid", "ranges": "sssp_ranges"}
#: NVRTC options of the sssp.cu module (a probe may add ``-D`` overrides of its SR_SSSP_*
#: switches: the options are part of the cache key).
SSSP_OPTIONS = ("-std=c++17",)


def sssp_grid_name(itype, dt) -> str:
    """The instantiation of the near–far kernel ("search" schedule) for an index and a
    distance type."""
    return f"sssp_grid<{C_TYPES[np.dtype(itype)]}, {C_TYPES[np.dtype(dt)]}>"


def sssp_source() -> str:
    """The program of sssp_ranges: traverse.cu's helpers, then sssp.cu."""
    return kernels.source("traverse.cu", "sssp.cu")


def sssp_ranges_kernel_names():
    """The instantiations of the warp-range near–far kernel (index × distance types)."""
    return [f"sssp_ranges<{I}, {T}>" for I in ("int", "long long") for T in C_TYPES.values()]


@kernels.register("traversal_sssp", options=lambda: SSSP_OPTIONS,
                  enable_cooperative_groups=True)
def sssp_instantiations():
    """The cooperative kernels of sssp.cu, compiled as :func:`sssp_grid` compiles them."""
    yield "traversal_sssp", sssp_source(), sssp_ranges_kernel_names()


def _sssp_kernel(name: str):
    return kernels.function(("traverse_sssp", SSSP_OPTIONS), name, sssp_source,
                            sssp_ranges_kernel_names, options=SSSP_OPTIONS, compile=False,
                            enable_cooperative_groups=True)


def sssp_grid(A, source, delta, dt, limit, blocks_per_sm, max_rounds, schedule="search"):
    """One launch of the near–far SSSP kernel of ``schedule`` (SSSP_KERNELS): (distances in
    ``dt``, rounds, buckets, edges relaxed, status). The kernel initializes every buffer; the
    host allocates them."""
    cp = _cupy()
    n = A.nrows
    itype = A.itype
    w, wstride = A.values_for(dt)
    kname = SSSP_KERNELS[schedule]
    f, blocks = grid_function(f"{kname}<{C_TYPES[np.dtype(itype)]}, {C_TYPES[dt]}>",
                              "sssp_grid", blocks_per_sm,
                              None if schedule == "search" else _sssp_kernel)
    d = cp.empty(n, dtype=dt)
    q = cp.empty((2, n), dtype=itype)
    o = cp.empty((2, n), dtype=cp.int64)
    far = cp.empty((2, n), dtype=itype)
    stamp = cp.empty(n, dtype=cp.int32)
    farbits = cp.empty((n + 31) // 32, dtype=cp.uint32)
    state = cp.zeros(SSSP_STATE if schedule == "search" else SSSP_RANGES_STATE, dtype=cp.int64)
    try:
        f((blocks,), (GRID_THREADS,), (
            A.indptr, A.indices, w, np.int64(wstride), np.int64(n), np.int64(source),
            dt.type(delta), dt.type(limit), d, q[0], q[1], o[0], o[1], far[0], far[1], stamp,
            farbits, state, np.int64(max_rounds)))
    except driver_error() as err:  # e.g. CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
        raise BackendUnavailable(f"sssp_grid: cooperative launch of {blocks} blocks of "
                                 f"{GRID_THREADS} threads failed: {err}") from err
    rounds, buckets, edges, status = (int(v) for v in state[:4].get())  # the one host sync
    return d, rounds, buckets, edges, status


# --------------------------------------------------------------------------------------------
# The barrier-free BFS (kernels/bfs_async.cu): blocks owning vertex ranges, messages between
# them, no grid-wide barrier per level.

#: Threads per block of bfs_async (SR_ASYNC_THREADS in bfs_async.cu; a probe sets both). On
#: an H100 the grid took 9.44 ms with 256 (and SR_ASYNC_PUBLISH=0) against 9.84 ms with 512;
#: on an H200 (road_ratio_probe.py, padded rows, 4 threads a vertex, same run) 4.94 ms with
#: 256 against 5.46 ms with 512 in a build that loaded a group's row before the unqueue,
#: whose 512 without that load (the default since) took 4.98 ms: 256 with the default not yet
#: measured, so 512 stays.
ASYNC_THREADS = 512
#: Shared slots of each of a block's two local queues (SR_ASYNC_QUEUE): 2 × 4 bytes each.
ASYNC_QUEUE = 2048
#: Status codes of bfs_async (SR_ASYNC_* in bfs_async.cu).
ASYNC_DONE, ASYNC_TIMEOUT = 0, 1
#: NVRTC options of bfs_async's module (a probe may add ``-D`` overrides).
ASYNC_OPTIONS = ("-std=c++17",)
#: Words of bfs_async's control block (SR_ASYNC_CTL; a probe of the -DSR_ASYNC_TRACE=1 build
#: adds SR_ASYNC_TRACE_WORDS a block and reads them as ``info["trace"]``).
ASYNC_CTL = 8
#: Hold each block's depths in shared memory where they fit (False: always in global memory,
#: the path of larger graphs; tests and probes switch it).
ASYNC_SHARED = True
#: Which kernel of bfs_async.cu runs the search: "cw" (bfs_async_cw: the block's last warp
#: sends and receives the messages, the others run the local levels) or "inline"
#: (bfs_async: every thread sends its own messages during the level). On an H100
#: (bench/probes/bfs_async_probe.py, the 2048² grid, best of 5) 9.8 ms against 14.7 ms: a
#: message costs a chain of global atomics that "inline" pays inside the level.
ASYNC_KERNEL = "cw"
ASYNC_KERNELS = {"cw": "bfs_async_cw", "inline": "bfs_async"}
#: Columns of a padded row (bfs_async_ell) the "cw" kernel reads in place of the CSR row
#: (0: the CSR rows). A padded row needs no row pointer first, so a level's chain holds one
#: global load (prefetched into L1 when the vertex was queued) instead of two dependent ones.
#: The rows are built once per matrix (a pass over its columns, n × width ints of device
#: memory) and kept with it; rows longer than the width read their rest from the CSR row.
#: On an H200 (bench/probes/road_ratio_probe.py, the 2048² grid, same run) 4.83 ms with width
#: 4 against 6.17 ms with the CSR rows (4 threads a vertex both); built in 0.16 ms.
ASYNC_ELL_WIDTH = 4


def async_source() -> str:
    return kernels.source("bfs_async.cu")


def async_kernel_names():
    """The search of kernels/bfs_async.cu, launched cooperatively (every block resident: its
    blocks wait for each other's messages)."""
    return [f"{k}<{I}>" for k in ("bfs_async", "bfs_async_cw") for I in ("int", "long long")]


def async_plain_kernel_names():
    """The parents' pass and the padded rows' build of kernels/bfs_async.cu (ordinary
    launches)."""
    return [f"{k}<{I}>" for k in ("bfs_parents_of_levels", "bfs_async_ell")
            for I in ("int", "long long")]


@kernels.register("traversal_async", options=lambda: ASYNC_OPTIONS,
                  enable_cooperative_groups=True)
def async_instantiations():
    yield "traversal_async", async_source(), async_kernel_names()


@kernels.register("traversal_async_plain", options=lambda: ASYNC_OPTIONS)
def async_plain_instantiations():
    yield "traversal_async_plain", async_source(), async_plain_kernel_names()


def _async_function(name: str):
    return kernels.function(("bfs_async", ASYNC_OPTIONS), name, async_source,
                            async_kernel_names, options=ASYNC_OPTIONS, compile=False,
                            enable_cooperative_groups=True)


def _async_plain_function(name: str):
    return kernels.function(("bfs_async_plain", ASYNC_OPTIONS), name, async_source,
                            async_plain_kernel_names, options=ASYNC_OPTIONS, compile=False)


def prefetch_async(name: str):
    """Start compiling a bfs_async kernel on a background thread (see :func:`prefetch_grid`)."""
    if not kernels.cached(("function", "bfs_async", ASYNC_OPTIONS, name)):
        kernels.prefetch(_async_function, name)


def async_geometry(name: str, n: int, per_sm_max: int, op: str):
    """(kernel, blocks, span, use_smem, dynamic shared bytes) of a bfs_async launch over n
    vertices: as many blocks as the device holds at once (at most ``per_sm_max`` a
    multiprocessor), each owning ``span`` consecutive vertices, their depths and queued-bits
    in shared memory where they fit. Raises BackendUnavailable where it cannot launch."""
    cp = _cupy()
    from cupy_backends.cuda.api import driver, runtime  # noqa: PLC0415  (CuPy: GPU only)

    dev = cp.cuda.runtime.getDevice()
    try:
        if not runtime.deviceGetAttribute(runtime.cudaDevAttrCooperativeLaunch, dev):
            raise BackendUnavailable(f"{op}: GPU {dev} cannot launch kernels cooperatively")
        f = _async_function(name)
        sms = kernels.num_sms(dev)
        optin = kernels.memo(("async_optin",), lambda: runtime.deviceGetAttribute(
            runtime.cudaDevAttrMaxSharedMemoryPerBlockOptin, dev))
        static = int(getattr(f, "shared_size_bytes", 0) or 48 * 1024)
        budget = optin - static - 1024

        def geometry(per_sm):
            blocks = max(1, sms * per_sm)
            span = max(1, -(-n // blocks))
            dyn = 4 * (span + (span + 31) // 32)
            smem = ASYNC_SHARED and dyn <= budget
            return blocks, span, smem, dyn if smem else 0

        per_sm = max(1, per_sm_max)
        while True:
            blocks, span, smem, dyn = geometry(per_sm)
            if dyn:
                f.max_dynamic_shared_size_bytes = max(dyn, int(getattr(f, "max_dynamic_shared_size_bytes", 0) or 0))
            fit = driver.occupancyMaxActiveBlocksPerMultiprocessor(f.kernel.ptr, ASYNC_THREADS, dyn)
            if fit >= per_sm:
                break
            if per_sm == 1:
                raise BackendUnavailable(f"{op}: no block of {ASYNC_THREADS} threads with "
                                         f"{dyn} bytes of shared memory fits on a "
                                         f"multiprocessor of GPU {dev}")
            per_sm = max(1, min(per_sm - 1, fit))
    except (cp.cuda.compiler.CompileException, driver.CUDADriverError,
            runtime.CUDARuntimeError) as err:
        raise BackendUnavailable(f"{op}: {type(err).__name__}: {err}") from err
    return f, blocks, span, smem, dyn


def async_ell(A, width: int):
    """The padded rows of A (bfs_async_ell: ``width`` columns a row, -1 past a row's end, -2
    in the last slot of a longer row), built on first use and kept in A's memo."""
    cp = _cupy()
    key = ("bfs_async_ell", width)
    ell = A._memo.get(key)
    if ell is None:
        n = A.nrows
        ell = cp.empty(max(1, n * width), dtype=cp.int32)
        if n:
            f = _async_plain_function(f"bfs_async_ell<{C_TYPES[np.dtype(A.itype)]}>")
            f((book_grid(n * width),), (BOOK_THREADS,),
              (A.indptr, A.indices, np.int64(n), np.int32(width), ell))
        A._memo[key] = ell
    return ell


def bfs_async(A, source, blocks_per_sm, timeout_s):
    """One launch of bfs_async: (level int64, info). The kernel initializes its buffers."""
    return _async_launch(A, source, blocks_per_sm, timeout_s)


def _async_launch(A, source, blocks_per_sm, timeout_s, ell_width=None):
    """One launch of bfs_async: (level int64, info). The kernel initializes its buffers.
    ``ell_width``: padded rows of that width (default ASYNC_ELL_WIDTH; 0: the CSR rows)."""
    cp = _cupy()
    n = A.nrows
    I = C_TYPES[np.dtype(A.itype)]
    width = ASYNC_ELL_WIDTH if ell_width is None else ell_width
    width = width if ASYNC_KERNEL == "cw" and n * max(1, width) < 2**31 else 0
    ell = None
    if width:
        try:
            ell = async_ell(A, width)
        except cp.cuda.memory.OutOfMemoryError:  # a speed-up only: the CSR rows then
            width = 0
    if ell is None:
        ell = cp.empty(1, dtype=cp.int32)
    f, blocks, span, smem, dyn = async_geometry(f"{ASYNC_KERNELS[ASYNC_KERNEL]}<{I}>", n,
                                                blocks_per_sm, "bfs_async")
    level = cp.empty(n, dtype=cp.int64)
    dist = cp.empty(n, dtype=cp.int32)
    inq = cp.empty(n, dtype=cp.int32)
    box = cp.empty(n, dtype=cp.uint64)
    spill = cp.empty(2 * n, dtype=cp.int32)
    words = (span + 31) // 32
    gbits = cp.empty(1 if smem else blocks * words, dtype=cp.uint32)
    tails = cp.zeros(blocks, dtype=cp.uint64)
    ctl = cp.zeros(ASYNC_CTL, dtype=cp.int64)
    try:
        f((blocks,), (ASYNC_THREADS,), (
            A.indptr, A.indices, np.int64(n), np.int64(source), np.int64(span), dist, inq, box,
            spill, gbits, tails, ctl, level, np.int32(smem), np.int64(int(timeout_s * 1e9)),
            ell, np.int32(width)),
          shared_mem=dyn)
    except driver_error() as err:  # e.g. CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
        raise BackendUnavailable(f"bfs_async: cooperative launch of {blocks} blocks of "
                                 f"{ASYNC_THREADS} threads failed: {err}") from err
    status, levels, sent, visits = (int(v) for v in ctl[2:6].get())  # the one host sync
    info = {"status": status, "levels": levels, "messages": sent, "visits": visits,
            "blocks": blocks, "span": span, "shared": bool(smem), "ell_width": width}
    if ASYNC_CTL > 8:  # a probe's trace build (SR_ASYNC_TRACE): the words past the counters
        info["trace"] = ctl[8:].get()
    return level, info


def bfs_parents_of_levels(AT, level):
    """parent[v]: the first in-neighbour u of v in Aᵀ's row (sorted: the smallest) with
    level[u] = level[v] - 1; the source (level 0) its own, -1 where unreached."""
    cp = _cupy()
    n = level.size
    parent = cp.empty(n, dtype=cp.int64)
    if n:
        f = _async_plain_function(f"bfs_parents_of_levels<{C_TYPES[np.dtype(AT.itype)]}>")
        f((book_grid(n),), (BOOK_THREADS,), (AT.indptr, AT.indices, level, np.int64(n), parent))
    return parent
