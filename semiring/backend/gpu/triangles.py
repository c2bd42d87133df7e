"""GPU triangles by the forward listing (``kernels/triangles.cu``): a thread an entry with the
structural symmetry check in the same pass, the entries of long walks then a warp each, read
back by one copy. Called by :mod:`semiring.triangles`, which validates."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy

#: C types of the CSR index arrays.
INDEX_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: Threads per block (SR_TC_THREADS in triangles.cu).
THREADS = 256
#: Blocks per multiprocessor of the grid-stride launches.
BLOCKS_PER_SM = 8
#: An entry whose walk (the shorter of its two rows) is longer than this goes to a warp
#: (``tc_forward_warps``) instead of its own thread. H200, the count in ms for 16 / 64 / 256 /
#: no warps (bench/probes/tc_forward_bound.py, bench/results/session25/): kron-16 3.16 /
#: 3.54 / 7.25 / 10.3, kron-17 7.27 / 8.26 / 11.9 / 27.5, urand-18-ef8 1.50 / 1.21 / 1.21 /
#: 1.21, grid 1000² 0.28 / 0.22 / 0.23 / 0.22: 64, within 12 % of the best on each.
WARP_WALK = 64
#: The memo key (``Matrix._memo``: facts of the matrix's content) of a structure a checked
#: listing found symmetric: later listings of the same matrix skip the check (step 1 of
#: ``tc_forward``: each entry's reverse searched, a row read at random an entry). H200,
#: session 27, the thread pass (bench/probes/tc_variants.py): urand-18-ef8 1.02 -> 0.40 ms,
#: urand-20 16.5 -> 5.9, kron-18 19.7 -> 15.7.
SYMMETRIC_KEY = "tc_symmetric"


def source() -> str:
    return kernels.source("triangles.cu")


def kernel_names():
    return [f"{k}<{I}>" for I in INDEX_TYPES.values() for k in ("tc_forward", "tc_forward_warps")]


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
    out = cp.zeros(3, dtype=cp.uint64)
    t = cp.zeros(n, dtype=cp.uint64) if vertices else None
    check = not A._memo.get(SYMMETRIC_KEY, False)
    if nnz:
        I = INDEX_TYPES[np.dtype(A.itype)]
        tv = np.uint64(0) if t is None else t  # 0: a null t
        work = cp.empty(nnz, dtype=A.itype)
        grid = (max(1, min(-(-nnz // THREADS),
                           kernels.num_sms(cp.cuda.Device().id) * BLOCKS_PER_SM)),)
        function(f"tc_forward<{I}>")(grid, (THREADS,), (A.indptr, A.indices, np.int64(n),
                                                        np.int64(nnz), np.int64(WARP_WALK),
                                                        np.int32(check), out, tv, work))
        function(f"tc_forward_warps<{I}>")(grid, (THREADS,), (A.indptr, A.indices, np.int64(n),
                                                              out, tv, work))
    count, asym, _ = (int(x) for x in out.get())
    if asym == 0:
        A._memo[SYMMETRIC_KEY] = True
    return count, None if t is None else t.view(cp.int64), asym == 0
