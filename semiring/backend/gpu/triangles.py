"""GPU triangles by the forward listing (``kernels/triangles.cu``), in two variants: 'entries',
a thread an entry of A with the structural symmetry check in the same pass, and 'oriented', the
forward orientation made first as a CSR of its own and a thread an oriented entry; in both the
entries of long walks then a warp each, read back by one copy. Called by
:mod:`semiring.triangles`, which validates."""

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
#: (``tc_listed_warps``) instead of its own thread. H200, the count in ms for 16 / 64 / 256 /
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
#: The listing's variants: 'entries' (``tc_forward``: two launches, a thread an entry of A,
#: half of them stopping at the rank test, each walking two whole rows and reading the rank
#: of each common vertex) and 'oriented' (``tc_orient_count``, a scan, ``tc_orient_fill``,
#: then ``tc_oriented``: a thread an oriented entry, rows of half the length, no rank reads).
VARIANTS = ("entries", "oriented")
#: The listing takes the 'oriented' variant where nnz · (nnz / n), a lower bound of the
#: entries' walks (Σ over rows of their length squared), is at least this: its four launches
#: and scan cost ~0.2 ms more than 'entries'' two, repaid where the walks are long (measured
#: with a sync for the oriented size, since gone).
#: H200, session 28, count warm, ms 'entries' / 'oriented' (bench/probes/tc_oriented.py,
#: bench/results/session28/): below it urand-13-ef4 (5.6·10⁵) 0.105 / 0.214, kron-12 (9.7·10⁴
#: entries, bound 2.3·10⁶) 0.225 / 0.357, urand-16-ef8 (1.7·10⁷) 0.172 / 0.278, grid 1000²
#: (1.6·10⁷) 0.219 / 0.449, kron-14 (4.4·10⁷: its one loss) 0.538 / 0.365; above it
#: urand-18-ef8 (6.7·10⁷) 0.562 / 0.408, kron-16 2.94 / 1.27, kron-18 16.5 / 6.08,
#: urand-20 6.51 / 2.18.
ORIENTED_MIN_WORK = 1 << 25


def source() -> str:
    return kernels.source("triangles.cu")


def kernel_names():
    return [name for I in INDEX_TYPES.values()
            for name in [f"{k}<{I}>" for k in ("tc_forward", "tc_orient_count", "tc_orient_fill",
                                               "tc_oriented")]
            + [f"tc_listed_warps<{I}, {o}>" for o in ("false", "true")]]


@kernels.register("triangles")
def all_instantiations():
    yield "triangles", source(), kernel_names()


def function(name: str):
    return kernels.function(("triangles",), name, source, kernel_names)


def forward(A, vertices: bool, variant=None):
    """(count, t, symmetric): A's triangles, each vertex's (a uint64 device array viewed as
    int64, or None), and whether A's structure is symmetric (the counts mean nothing where
    it is not). A: a GPU Matrix with n > 0. ``variant``: one of :data:`VARIANTS`, by default
    :func:`variant_of` A."""
    cp = _cupy()
    n, nnz = A.nrows, A.nvals
    out = cp.zeros(3, dtype=cp.uint64)
    t = cp.zeros(n, dtype=cp.uint64) if vertices else None
    check = not A._memo.get(SYMMETRIC_KEY, False)
    if variant is None:
        variant = variant_of(n, nnz)
    if nnz:
        I = INDEX_TYPES[np.dtype(A.itype)]
        tv = np.uint64(0) if t is None else t  # 0: a null t
        sms = kernels.num_sms(cp.cuda.Device().id) * BLOCKS_PER_SM
        if variant == "entries":
            work = cp.empty(nnz, dtype=A.itype)
            grid = (max(1, min(-(-nnz // THREADS), sms)),)
            function(f"tc_forward<{I}>")(grid, (THREADS,), (A.indptr, A.indices, np.int64(n),
                                                            np.int64(nnz), np.int64(WARP_WALK),
                                                            np.int32(check), out, tv, work))
            function(f"tc_listed_warps<{I}, false>")(grid, (THREADS,), (A.indptr, A.indices,
                                                                        np.uint64(0), np.int64(n),
                                                                        out, tv, work))
        else:
            _oriented(A, I, n, check, sms, out, tv)
    count, asym, _ = (int(x) for x in out.get())
    if asym == 0:
        A._memo[SYMMETRIC_KEY] = True
    return count, None if t is None else t.view(cp.int64), asym == 0


def variant_of(n: int, nnz: int) -> str:
    """The listing's variant for a graph of n vertices and nnz stored entries (n > 0):
    'oriented' from :data:`ORIENTED_MIN_WORK` (no sync: the sizes alone)."""
    return "oriented" if nnz * nnz >= ORIENTED_MIN_WORK * n else "entries"


def _oriented(A, I, n, check, sms, out, tv):
    """The 'oriented' variant's launches (see :data:`VARIANTS`)."""
    cp = _cupy()
    rows = (max(1, min(-(-n // (THREADS // 32)), sms)),)  # a warp a row
    count = cp.empty(n, dtype=A.itype)
    function(f"tc_orient_count<{I}>")(rows, (THREADS,), (A.indptr, A.indices, np.int64(n),
                                                          np.int32(check), count, out))
    optr = cp.zeros(n + 1, dtype=A.itype)
    cp.cumsum(count, dtype=A.itype, out=optr[1:])
    # the oriented size without a sync: at most every entry (a symmetric structure keeps nnz / 2
    # at most, but room for nnz holds whatever the structure, a memo gone stale included)
    cap = A.nvals
    oind = cp.empty(cap, dtype=A.itype)
    orow = cp.empty(cap, dtype=A.itype)
    function(f"tc_orient_fill<{I}>")(rows, (THREADS,), (A.indptr, A.indices, np.int64(n), optr,
                                                         np.int64(cap), oind, orow))
    if cap:
        work = cp.empty(cap, dtype=A.itype)
        grid = (max(1, min(-(-cap // THREADS), sms)),)
        function(f"tc_oriented<{I}>")(grid, (THREADS,), (optr, oind, orow, np.int64(n),
                                                         np.int64(cap), np.int64(WARP_WALK), out,
                                                         tv, work))
        function(f"tc_listed_warps<{I}, true>")(grid, (THREADS,), (optr, oind, orow, np.int64(n),
                                                                   out, tv, work))
