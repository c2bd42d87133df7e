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


def source() -> str:
    return kernels.source("bfs_small.cu")


def kernel_names():
    return [f"bfs_small<{I}, {p}>" for I in INDEX_TYPES.values() for p in (0, 1, 2)]


@kernels.register("bfs_small")
def all_instantiations():
    yield "bfs_small", source(), kernel_names()


def function(name: str):
    return kernels.function(("bfs_small",), name, source, kernel_names)


def bfs_small(A, source: int, mode: int):
    """(level, parent or None) as int64 device arrays; ``mode`` 0: no parents, 1: any, 2: the
    least in-neighbour. A: a GPU Matrix of 1 <= n <= MAX_N vertices."""
    cp = _cupy()
    n = A.nrows
    level = cp.empty(n, dtype=cp.int64)
    parent = cp.empty(n, dtype=cp.int64) if mode else None
    f = function(f"bfs_small<{INDEX_TYPES[np.dtype(A.indices.dtype)]}, {mode}>")
    f((1,), (THREADS,), (A.indptr, A.indices, np.int32(n), np.int32(source), level,
                         level if parent is None else parent),
      shared_mem=(4 if mode else 3) * 4 * n)
    return level, parent
