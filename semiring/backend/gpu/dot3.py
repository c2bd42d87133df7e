"""GPU masked dot-product SpGEMM ("dot3"): C⟨M⟩ = A ⊕.⊗ B at M's entries, one dot product
of row i of A and row j of Bᵀ per mask entry (``kernels/dot3.cu``). A plan kernel gives each
mask entry its row and a bin by the shorter row's length; each bin is one launch with groups
of 1, 4, 32 or 256 threads an entry; the found entries are compacted into C's CSR (C's
pattern is a subset of M's, in M's order: sorted). Called by :func:`semiring.spgemm.dot3`."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ... import types as _t
from ...device import _cupy
from ...ops import builtins
from ..csr import build_csr as _build_csr
from .spmv import _terminal

#: Threads per block (SR_DOT3_THREADS in dot3.cu).
THREADS = 256
#: Bins of the shorter row's length s: (largest s, log2 of the threads per entry). Beyond the
#: last limit an entry gets a block (LOG_G 8). A thread alone on a short row walks it as a
#: merge (galloping searches); wider groups split the shorter row between their lanes.
#: H100, triangle counting's U·Uᵀ at U (bench/probes/tc_bc_probe.py --phases), kron-22 /
#: urand-22: these 126.8 / 14.9 ms; limits halved 133.8 / 15.4; doubled 124.9 / 14.1;
#: quadrupled 134.9 / 14.1; divided by 4 155.8 / 19.4 (within a few per cent but the last).
BINS = ((8, 0), (64, 2), (1024, 5))
BLOCK_LOG_G = 8
#: Blocks per multiprocessor of the plan kernel's grid-stride launch.
PLAN_BLOCKS_PER_SM = 8


def source(sr) -> str:
    return kernels.source("common.cuh", "dot3.cu", ops=kernels.semiring_ops(sr))


def plan_name(itype) -> str:
    return f"dot3_plan<{_t.c_type(itype)}>"


def group_names(sr, dtype, itype) -> list[str]:
    T = _t.c_type(dtype)
    R = _t.c_type(sr.result_type(dtype))
    I = _t.c_type(itype)
    a, m = f"op_{sr.add.op.name}", f"op_{sr.mul.name}"
    return [f"dot3_group<{a}, {m}, {T}, {R}, {I}, {lg}>"
            for lg in [lg for _, lg in BINS] + [BLOCK_LOG_G]]


def names(sr, dtype, itype) -> list[str]:
    return [plan_name(itype)] + group_names(sr, dtype, itype)


@kernels.register("dot3")
def all_instantiations():
    """(label, source, name_expressions) of every built-in semiring × domain × index type."""
    for name, sr in sorted(builtins("semiring").items()):
        src = source(sr)
        for dt in _t.DTYPES:
            yield (f"dot3_{name}[{dt}]", src,
                   names(sr, dt, _t.INT32) + names(sr, dt, _t.INT64))


def _functions(sr, dtype, itype):
    """(plan, group kernels by bin) compiled on first use per device."""
    key = ("dot3", id(sr), np.dtype(dtype), np.dtype(itype))

    def build():
        ns = names(sr, dtype, itype)
        src = lambda: source(sr)  # noqa: E731
        for n in ns[1:]:  # a program each (the warm-up's cache keys), compiled at once
            kernels.prefetch(kernels.function, key, n, src, ns)
        return tuple(kernels.function(key, n, src, ns) for n in ns)
    return kernels.memo(key + ("functions",), build)


def dot3(A, BT, sr, dtype, rtype, mask):
    """C⟨mask⟩ = A ⊕.⊗ BTᵀ: C(i, j) = ⊕_k A(i, k) ⊗ BT(j, k) at the mask's entries where
    rows i of A and j of BT meet. ``mask`` is a structure-only Matrix (not complemented)."""
    cp = _cupy()
    nrows, ncols = A.nrows, BT.nrows
    wide = any(M.itype == _t.INT64 for M in (A, BT, mask))
    it = _t.INT64 if wide else _t.INT32
    a_ptr, a_idx = A.indptr.astype(it, copy=False), A.indices.astype(it, copy=False)
    b_ptr, b_idx = BT.indptr.astype(it, copy=False), BT.indices.astype(it, copy=False)
    m_ptr, m_idx = mask.indptr.astype(it, copy=False), mask.indices.astype(it, copy=False)
    nnz = int(mask.nvals)
    f_plan, *f_groups = _functions(sr, dtype, it)
    rows = cp.empty(nnz, dtype=it)
    bins = cp.empty(nnz, dtype=cp.int8)
    grid = max(1, min(-(-nnz // THREADS), kernels.num_sms(cp.cuda.Device().id) * PLAN_BLOCKS_PER_SM))
    f_plan((grid,), (THREADS,), (m_ptr, m_idx, np.int64(nrows), np.int64(nnz), a_ptr, b_ptr,
                                 *(np.int64(lim) for lim, _ in BINS), rows, bins))
    out = cp.empty(nnz, dtype=rtype)
    found = cp.zeros(nnz, dtype=cp.bool_)
    avals, astride = A._values_for(dtype)
    bvals, bstride = BT._values_for(dtype)
    mode, term = _terminal(sr.add, rtype)
    for b, lg in enumerate([lg for _, lg in BINS] + [BLOCK_LOG_G]):
        entries = cp.flatnonzero(bins == b)
        count = int(entries.size)
        if count == 0:
            continue
        per_block = THREADS >> lg
        f_groups[b](((count + per_block - 1) // per_block,), (THREADS,), (
            a_ptr, a_idx, avals, np.int64(astride), b_ptr, b_idx, bvals, np.int64(bstride),
            m_idx, rows, entries.astype(cp.int64, copy=False), np.int64(count), out, found,
            np.int32(mode), term))
    del rows, bins
    # C: the found entries, in M's (sorted) order
    kept = cp.concatenate([cp.zeros(1, dtype=cp.int64), cp.cumsum(found, dtype=cp.int64)])
    c_ptr = kept[m_ptr.astype(cp.int64)]
    return _build_csr(cp, c_ptr, m_idx[found], out[found], (nrows, ncols))
