"""CPU masked dot-product SpGEMM ("dot3"): C⟨M⟩ = A ⊕.⊗ B at M's entries, each
C(i, j) = ⊕_k A(i, k) ⊗ Bᵀ(j, k) over the intersection of row i of A and row j of Bᵀ.

Compiled (:func:`.compiled.dot3`, Numba) where the semiring has a compiled form there;
else vectorized with NumPy, in chunks of mask entries of bounded work: for each entry the shorter
of its two rows is expanded and its keys (row · ncols + k) looked up by binary search in the
other matrix's sorted keys (CSR order is key order); the matches fold per entry in increasing
k (the dense oracle's order) with the monoid. Called by :func:`semiring.spgemm.dot3`."""

from __future__ import annotations

import numpy as np

from ..csr import build_csr as _build_csr
from . import compiled

#: Expanded keys per chunk of mask entries (bounds the temporaries to a few hundred MB; one
#: entry with a longer shorter row is a chunk alone).
CPU_CHUNK_KEYS = 1 << 21


def _keys(M, width):
    """Row · width + column of every entry of M, int64, ascending (CSR order)."""
    ptr = M.indptr.astype(np.int64)
    rows = np.repeat(np.arange(M.nrows, dtype=np.int64), np.diff(ptr))
    return rows * width + M.indices.astype(np.int64)


def dot3(A, BT, sr, dtype, rtype, mask):
    """C⟨mask⟩ = A ⊕.⊗ BTᵀ at the mask's entries where rows i of A and j of BT meet;
    ``mask`` is a structure-only Matrix (not complemented)."""
    nrows, ncols, inner = A.nrows, BT.nrows, A.ncols
    if compiled.ENABLED:
        # row j of BT scanned against row i of A scattered, compiled: triangle counting's
        # U plus.pair Uᵀ at U, kron-14 (213 k entries): 600-1000 ms by the NumPy path below,
        # 23-30 ms (2-core host, loaded)
        got = compiled.dot3(A, BT, sr, dtype, mask)
        if got is not None:
            indptr, indices, vals = got
            return _build_csr(np, indptr, indices, vals.astype(rtype, copy=False),
                              (nrows, ncols))
    a_ptr, b_ptr = A.indptr.astype(np.int64), BT.indptr.astype(np.int64)
    m_ptr = mask.indptr.astype(np.int64)
    mi = np.repeat(np.arange(nrows, dtype=np.int64), np.diff(m_ptr))
    mj = mask.indices.astype(np.int64)
    alen = (a_ptr[1:] - a_ptr[:-1])[mi]
    blen = (b_ptr[1:] - b_ptr[:-1])[mj]
    a_short = alen <= blen
    slen = np.where(a_short, alen, blen)
    akeys, bkeys = _keys(A, inner), _keys(BT, inner)
    avals, astride = A._values_for(dtype)
    bvals, bstride = BT._values_for(dtype)
    out_e, out_v = [], []
    cum = np.concatenate([[0], np.cumsum(slen)])
    targets = np.arange(CPU_CHUNK_KEYS, int(cum[-1]), CPU_CHUNK_KEYS, dtype=np.int64)
    bounds = np.unique(np.concatenate([[0], np.searchsorted(cum, targets, side="right") - 1,
                                       [mi.size]]))
    sides = ((A, a_ptr, BT, bkeys, mi, mj), (BT, b_ptr, A, akeys, mj, mi))
    for e0, e1 in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        if cum[e1] == cum[e0]:
            continue
        parts = []
        for side, (S, s_ptr, L, lkeys, srow, lrow) in enumerate(sides):
            # the entries of the chunk whose shorter row is S's (A's, else BT's)
            ents = np.arange(e0, e1, dtype=np.int64)
            ents = ents[(a_short[e0:e1] if side == 0 else ~a_short[e0:e1]) & (slen[e0:e1] > 0)]
            if ents.size == 0:
                continue
            ln = slen[ents]
            total = int(ln.sum())
            ent = np.repeat(ents, ln)                              # the mask entry of a key
            first = np.cumsum(ln) - ln
            p = np.repeat(s_ptr[srow[ents]] - first, ln) + np.arange(total, dtype=np.int64)
            k = S.indices[p].astype(np.int64)
            # look (the other row, k) up in the other matrix's keys
            want = np.repeat(lrow[ents] * inner, ln) + k
            q = np.minimum(np.searchsorted(lkeys, want), lkeys.size - 1)
            hit = lkeys[q] == want
            if hit.any():
                pa, pb = (p[hit], q[hit]) if side == 0 else (q[hit], p[hit])
                parts.append((ent[hit], k[hit], pa, pb))
        if not parts:
            continue
        ent, k, pa, pb = (np.concatenate(x) for x in zip(*parts))
        if len(parts) > 1:  # entries of both sides: back in entry order (k stays increasing)
            order = np.argsort(ent, kind="stable")
            ent, k, pa, pb = ent[order], k[order], pa[order], pb[order]
        i, j = mi[ent], mj[ent]
        a = avals[pa] if astride else avals[:1]
        b = bvals[pb] if bstride else bvals[:1]
        prods = sr.mul.apply_numpy(a, b, dtype, pos=(i, k, k, j))
        if prods.shape != ent.shape:
            prods = np.broadcast_to(prods, ent.shape)
        # ent is ascending and, within an entry, k is (the shorter row's order)
        heads = np.flatnonzero(np.r_[True, ent[1:] != ent[:-1]])
        out_v.append(sr.add.reduce_segments(np.ascontiguousarray(prods), heads))
        out_e.append(ent[heads])
    if not out_e:
        return _build_csr(np, np.zeros(nrows + 1, np.int64), np.zeros(0, np.int64),
                          np.zeros(0, rtype), (nrows, ncols))
    e = np.concatenate(out_e)
    vals = np.concatenate(out_v).astype(rtype, copy=False)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(mi[e], minlength=nrows))])
    return _build_csr(np, indptr, mj[e], vals, (nrows, ncols))
