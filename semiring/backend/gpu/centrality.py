"""GPU Brandes dependencies, one thread block a source (``kernels/brandes.cu``), and a power
iteration's fused vector step (``kernels/power.cu``). Called by :mod:`semiring.centrality`,
which validates."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy
from ...errors import BackendUnavailable
from .traversal import GRID_OPTIONS, GRID_THREADS, driver_error, grid_function

#: C types of the CSR's index arrays.
C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: Threads of a block (SR_BRANDES_THREADS in brandes.cu): a level of up to this many vertices
#: is one step of each thread.
THREADS = 1024


def source() -> str:
    return kernels.source("brandes.cu")


def kernel_names():
    return [f"brandes_block<{I}>" for I in C_TYPES.values()]


@kernels.register("brandes")
def all_instantiations():
    yield "brandes", source(), kernel_names()


def function(name: str):
    return kernels.function(("brandes",), name, source, kernel_names)


def dependencies(G, GT, sources):
    """(delta (s × n float64), level (s × n int32), depth (s,) int32) of the sources (a host
    int64 array), one block each; G and GT share their index type."""
    cp = _cupy()
    n, s = G.nrows, int(sources.size)
    I = C_TYPES[np.dtype(G.itype)]
    level = cp.empty((s, n), dtype=cp.int32)
    queue = cp.empty((s, n), dtype=cp.int32)
    start = cp.empty((s, n + 2), dtype=cp.int32)
    sigma = cp.empty((s, n), dtype=cp.float64)
    delta = cp.empty((s, n), dtype=cp.float64)
    depth = cp.empty(s, dtype=cp.int32)
    src = cp.asarray(sources, dtype=cp.int64)
    function(f"brandes_block<{I}>")(
        (s,), (THREADS,),
        (G.indptr, G.indices, GT.indptr, GT.indices, np.int64(n), src, level, queue, start,
         sigma, delta, depth))
    return delta, level, depth


#: Threads of a block of ``power_update`` (SR_POWER_THREADS in power.cu).
POWER_THREADS = 256
#: Blocks of ``power_update`` at most: its per-block sums come to the host (2 doubles each).
POWER_MAX_BLOCKS = 512


def power_source() -> str:
    return kernels.source("power.cu")


@kernels.register("power")
def power_instantiations():
    yield "power", power_source(), ["power_update"]


def power_update(t_vals, t_pres, x, u, p, inv, d, s):
    """(x', w', change, s') of one step (``kernels/power.cu``); one host synchronization (the
    blocks' sums, summed on the host in block order)."""
    cp = _cupy()
    n = int(x.size)
    xn = cp.empty(n, dtype=cp.float64)
    w = cp.empty(n, dtype=cp.float64)
    blocks = max(1, min(POWER_MAX_BLOCKS, -(-n // POWER_THREADS)))
    part = cp.empty(2 * blocks, dtype=cp.float64)
    kernels.function(("power",), "power_update", power_source, ["power_update"])(
        (blocks,), (POWER_THREADS,),
        (t_vals, t_pres, x, u, p, inv, np.float64(d), np.float64(s), np.int64(n), xn, w, part))
    sums = part.get().reshape(blocks, 2)
    return xn, w, float(sums[:, 0].sum()), float(sums[:, 1].sum())


# --------------------------------------------------------------------------------------------
# PageRank's whole power iteration in one cooperative launch (kernels/pagerank.cu)

#: Rows of more stored entries than this are summed by a whole block (a row a block), the
#: others by a group of lanes of a warp: a hub's row held a warp for hundreds of steps a sweep.
PAGERANK_LONG_ROW = 1024
#: Blocks a multiprocessor at most (fewer blocks make a cheaper grid-wide barrier).
PAGERANK_BLOCKS_PER_SM = 2
#: Status codes of the kernel's state[2] (SR_PR_STATUS_* in pagerank.cu).
PAGERANK_STATUS = {0: "done", 1: "weights", 2: "scale"}


def pagerank_source() -> str:
    """The program of pagerank_grid: traverse.cu (its grid barrier), then pagerank.cu."""
    return kernels.source("traverse.cu", "pagerank.cu")


def pagerank_kernel_names():
    return [f"pagerank_grid<{I}, {w}>" for I in C_TYPES.values() for w in (0, 1)]


@kernels.register("pagerank_grid", options=lambda: GRID_OPTIONS, enable_cooperative_groups=True)
def pagerank_instantiations():
    yield "pagerank_grid", pagerank_source(), pagerank_kernel_names()


def _pagerank_kernel(name: str):
    return kernels.function(("pagerank_grid", GRID_OPTIONS), name, pagerank_source,
                            pagerank_kernel_names, options=GRID_OPTIONS, compile=False,
                            enable_cooperative_groups=True)


def _long_rows(M, cp):
    """The rows of M with more than PAGERANK_LONG_ROW entries (M's index type), kept with M."""
    key = ("pagerank_long_rows", PAGERANK_LONG_ROW)
    rows = M._memo.get(key)
    if rows is None:
        deg = M.indptr[1:] - M.indptr[:-1]
        rows = M._memo[key] = cp.flatnonzero(deg > PAGERANK_LONG_ROW).astype(M.itype)
    return rows


def _pagerank_scratch(cp, AT, blocks: int):
    """(barrier word, part) for a launch on AT: kept in AT's memo for the next call on the same
    device and stream (calls on one stream run one after another; every whole launch leaves
    the barrier word's low 31 bits zero); the per-thread default stream's calls get their
    own. (The state the host reads is a call's own: two threads' calls on one stream would
    otherwise read each other's.)"""
    stream = cp.cuda.get_current_stream().ptr
    key = (cp.cuda.runtime.getDevice(), stream, blocks)
    kept = AT._memo.get("pagerank_scratch")
    if kept is not None and kept[0] == key:
        return kept[1]
    scratch = (cp.zeros(1, dtype=cp.uint32), cp.empty(4 * blocks, dtype=cp.float64))
    if stream != getattr(cp.cuda.runtime, "streamPerThread", 2):
        AT._memo["pagerank_scratch"] = (key, scratch)
    return scratch


def pagerank(A, AT, weighted, damping, p, u, x0, spread, threshold, max_iter):
    """(x, sweeps, change, status) of pagerank_grid (``kernels/pagerank.cu``) on A and its
    transpose AT (one index type), status one of PAGERANK_STATUS's values; p, u, x0 float64
    arrays of n or None (uniform). One host synchronization (the state). Raises
    BackendUnavailable where the cooperative launch cannot be made (nothing ran)."""
    cp = _cupy()
    n = A.nrows
    I = C_TYPES[np.dtype(A.itype)]
    f, most = grid_function(f"pagerank_grid<{I}, {int(bool(weighted))}>", "pagerank",
                            PAGERANK_BLOCKS_PER_SM, _pagerank_kernel)
    # a group of 2^glog lanes a row, about the mean in-degree (at least 1, at most a warp)
    mean = AT.nvals / max(n, 1)
    glog = min(5, max(0, int(np.ceil(np.log2(max(mean, 1.0))))))
    blocks = int(max(1, min(most, -(-(n << glog) // GRID_THREADS))))
    av, astride = A.values_for(np.float64)
    tv, tstride = AT.values_for(np.float64)
    along, tlong = _long_rows(A, cp), _long_rows(AT, cp)
    bar, part = _pagerank_scratch(cp, AT, blocks)
    xa = cp.empty(n, dtype=cp.float64)
    xb = cp.empty(n, dtype=cp.float64)
    scratch = cp.empty(3 * n + 3, dtype=cp.float64)  # w (two buffers), inv, the state
    state = scratch[3 * n:]
    try:
        f((blocks,), (GRID_THREADS,), (
            A.indptr, av, np.int64(astride), along, np.int64(along.size),
            AT.indptr, AT.indices, tv, np.int64(tstride), tlong, np.int64(tlong.size),
            np.int64(PAGERANK_LONG_ROW), np.int64(n), np.int32(glog), np.float64(damping),
            np.float64(1.0 / n), p, u, x0, np.int32(bool(spread)), np.float64(threshold),
            np.int64(max_iter), xa, xb, scratch[:n], scratch[n:2 * n], scratch[2 * n:3 * n], part,
            bar, state))
    except driver_error() as err:  # e.g. CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
        raise BackendUnavailable(f"pagerank: cooperative launch of {blocks} blocks of "
                                 f"{GRID_THREADS} threads failed: {err}") from err
    sweeps, change, status = state.get().tolist()  # the one host synchronization
    sweeps = int(sweeps)
    return (xb if sweeps % 2 else xa), sweeps, change, PAGERANK_STATUS[int(status)]
