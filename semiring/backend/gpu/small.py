"""GPU whole searches of small graphs in one thread block (``kernels/bfs_small.cu``): one launch
and no host synchronization, for the fixed cost of a small call (issue 21 item 2). Called by
:mod:`semiring.traversal` (``bfs_small``), which validates."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy

#: C types of the CSR index arrays.
INDEX_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: Threads of the block (SR_SMALL_THREADS in bfs_small.cu).
THREADS = 1024
#: Shared memory a block may take without an opt-in: 48 KiB, static and dynamic together.
SHARED_BYTES = 48 * 1024
#: The kernel's static shared memory (its two counters), with room to spare.
STATIC_BYTES = 256
#: The most vertices bfs_small takes: 4 int arrays of n (levels, two queues, parents) in the
#: dynamic shared memory left (a launch asking for 48 KiB of it fails: CUDA_ERROR_INVALID_VALUE
#: on an H100 at n = 3072 with parents).
MAX_N = (SHARED_BYTES - STATIC_BYTES) // 16
#: Copy the CSR into shared memory first (STAGE 1) when it fits beside the levels and queues:
#: every load of the graph in flight at once instead of two dependent L2 loads a level. Within
#: noise at n = 1000, mean degree 8, on an H200 (raw launch + sync 20.0 against 20.3 µs,
#: bench/probes/small_breakdown.py: the graph stays in L2 between calls); on, as it costs
#: nothing there; deep searches (a level's loads repeated hundreds of times) not measured.
STAGE = True
#: Lanes a frontier vertex: the mean out-degree rounded up to a power of two, in this range
#: (a warp a vertex before: 24.7 against 20.0 µs on the same graph and H200).
MIN_LANES, MAX_LANES = 4, 32


def source() -> str:
    return kernels.source("bfs_small.cu")


def kernel_names():
    return [f"bfs_small<{I}, {p}, {s}>" for I in INDEX_TYPES.values() for p in (0, 1, 2)
            for s in (0, 1)]


@kernels.register("bfs_small")
def all_instantiations():
    yield "bfs_small", source(), kernel_names()


def function(name: str):
    return kernels.function(("bfs_small",), name, source, kernel_names)


def _optin_bytes() -> int:
    """Dynamic shared memory a block of this device may opt into."""
    cp = _cupy()
    dev = cp.cuda.Device()
    key = dev.id
    got = _OPTIN.get(key)
    if got is None:
        got = _OPTIN[key] = int(cp.cuda.runtime.deviceGetAttribute(
            cp.cuda.runtime.cudaDevAttrMaxSharedMemoryPerBlockOptin, key))
    return got


_OPTIN: dict = {}


def bfs_small(A, source: int, mode: int):
    """(level, parent or None) as int64 device arrays; ``mode`` 0: no parents, 1: any, 2: the
    least in-neighbour. A: a GPU Matrix of 1 <= n <= MAX_N vertices."""
    cp = _cupy()
    n, nnz = A.nrows, A.nvals
    level = cp.empty(n, dtype=cp.int64)
    parent = cp.empty(n, dtype=cp.int64) if mode else None
    base = (4 if mode else 3) * 4 * n
    staged = base + 4 * (n + 1 + nnz)
    stage = int(STAGE and staged + STATIC_BYTES <= _optin_bytes())
    lanes = min(MAX_LANES, max(MIN_LANES, 1 << max(0, -(-nnz // max(n, 1)) - 1).bit_length()))
    f = function(f"bfs_small<{INDEX_TYPES[np.dtype(A.indices.dtype)]}, {mode}, {stage}>")
    shared = staged if stage else base
    if shared + STATIC_BYTES > SHARED_BYTES and f.max_dynamic_shared_size_bytes < shared:
        f.max_dynamic_shared_size_bytes = shared
    f((1,), (THREADS,), (A.indptr, A.indices, np.int32(n), np.int32(source),
                         np.int32(lanes.bit_length() - 1), level,
                         level if parent is None else parent),
      shared_mem=shared)
    return level, parent
