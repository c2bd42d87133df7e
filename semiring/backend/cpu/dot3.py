"""CPU masked dot-product SpGEMM ("dot3"): C⟨M⟩ = A ⊕.⊗ B at M's entries, each
C(i, j) = ⊕_k A(i, k) ⊗ Bᵀ(j, k) over the intersection of row i of A and row j of Bᵀ.

Vectorized with NumPy, in chunks of mask entries of bounded work: for each entry the shorter
of its two rows is expanded and its keys (row · ncols + k) looked up by binary search in the
other matrix's sorted keys (CSR order is key order); the matches fold per entry in increasing
k (the dense oracle's order) with the monoid. Called by :func:`semiring.spgemm.dot3`."""

from __future__ import annotations

import numpy as np

from ..csr import build_csr as _build_csr

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
    for e0, e1 in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        ln = slen[e0:e1]
        total = int(ln.sum())
        if total == 0:
            continue
        ent = np.repeat(np.arange(e0, e1, dtype=np.int64), ln)    # the mask entry of a key
        off = np.arange(total, dtype=np.int64) - np.repeat(cum[e0:e1] - cum[e0], ln)
        sh = a_short[ent]
        i, j = mi[ent], mj[ent]
        # p: the position of the shorter row's entry; k its column
        p = np.where(sh, a_ptr[i], b_ptr[j]) + off
        # (total > 0: both matrices have entries, so index 0 is valid where unused)
        k = np.where(sh, A.indices[np.where(sh, p, 0)],
                     BT.indices[np.where(sh, 0, p)]).astype(np.int64)
        # look the key (other row, k) up in the other matrix's keys
        want = np.where(sh, j, i) * inner + k
        q = np.empty(total, dtype=np.int64)
        hit = np.zeros(total, dtype=bool)
        for side, keys in ((True, bkeys), (False, akeys)):
            sel = sh == side
            if not sel.any() or keys.size == 0:
                continue
            pos = np.minimum(np.searchsorted(keys, want[sel]), keys.size - 1)
            q[sel] = pos
            hit[sel] = keys[pos] == want[sel]
        if not hit.any():
            continue
        ent, i, j, k, sh, p, q = ent[hit], i[hit], j[hit], k[hit], sh[hit], p[hit], q[hit]
        pa, pb = np.where(sh, p, q), np.where(sh, q, p)
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
