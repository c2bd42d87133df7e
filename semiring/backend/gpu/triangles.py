"""GPU triangles of a small graph in one launch (``kernels/triangles.cu``): the forward listing
a thread an entry, with the structural symmetry check in the same pass, read back by one copy.
Called by :mod:`semiring.triangles`, which validates."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy

#: C types of the CSR index arrays.
INDEX_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: Threads per block (SR_TC_THREADS in triangles.cu).
THREADS = 256
#: Blocks per multiprocessor of the grid-stride launch.
BLOCKS_PER_SM = 8


def source() -> str:
    return kernels.source("triangles.cu")


def kernel_names():
    return [f"tc_forward<{I}>" for I in INDEX_TYPES.values()]


@kernels.register("triangles")
def all_instantiations():
    yield "triangles", source(), kernel_names()


def function(name: str):
    return kernels.function(("triangles",), name, source, kernel_names)


def forward(A, vertices: bool):
    """(count, t, symmetric): A's triangles, each vertex's (a uint64 device array viewed as
    int64, or None), and whether A's structure is symmetric (the counts mean nothing where
    it is not). A: a GPU Matrix with n > 0."""
    cp = _cupy()
    n, nnz = A.nrows, A.nvals
    out = cp.zeros(2, dtype=cp.uint64)
    t = cp.zeros(n, dtype=cp.uint64) if vertices else None
    if nnz:
        grid = max(1, min(-(-nnz // THREADS), kernels.num_sms(cp.cuda.Device().id) * BLOCKS_PER_SM))
        function(f"tc_forward<{INDEX_TYPES[np.dtype(A.itype)]}>")(
            (grid,), (THREADS,), (A.indptr, A.indices, np.int64(n), np.int64(nnz), out,
                                  np.uint64(0) if t is None else t))  # 0: a null t
    count, asym = (int(x) for x in out.get())
    return count, None if t is None else t.view(cp.int64), asym == 0
