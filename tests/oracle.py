"""Dense NumPy oracle of the semiring operations, written from the GraphBLAS definitions.

Deliberately naive (small sizes only): a product is present where some k has both operands,
and its value is the monoid's fold of the products in index order.
"""

from __future__ import annotations

import numpy as np

import semiring as sr


def dense_product(Ad, Ap, ud, up, semiring, *, vxm: bool):
    """(values, present) of A ⊕.⊗ u (mxv) or u ⊕.⊗ A (vxm) from dense arrays + presence."""
    sr_ = semiring
    if vxm:
        Ad, Ap = Ad.T, Ap.T
    nout, ninner = Ad.shape
    dom = np.result_type(Ad.dtype, ud.dtype)
    dom = sr.types.promote(Ad.dtype, ud.dtype)
    rt = sr_.result_type(dom)
    vals = np.zeros(nout, dtype=rt)
    pres = np.zeros(nout, dtype=bool)
    cands = [[] for _ in range(nout)]
    for o in range(nout):
        acc = None
        for k in range(ninner):
            if not (Ap[o, k] and up[k]):
                continue
            a = np.asarray([Ad[o, k]]).astype(dom)
            x = np.asarray([ud[k]]).astype(dom)
            if vxm:  # u(k) ⊗ A(k, o): positions first (0, k), second (k, o)
                p = sr_.mul.apply_numpy(x, a, dom, pos=(np.int64(0), np.int64(k), np.int64(k), np.int64(o)))
            else:    # A(o, k) ⊗ u(k): positions first (o, k), second (k, 0)
                p = sr_.mul.apply_numpy(a, x, dom, pos=(np.int64(o), np.int64(k), np.int64(k), np.int64(0)))
            p = np.asarray(p).reshape(-1)[:1].astype(rt)
            cands[o].append(p[0])
            acc = p if acc is None else sr_.add.op.apply_numpy(acc, p, rt).astype(rt)
        if acc is not None:
            vals[o] = acc[0]
            pres[o] = True
    return vals, pres, cands


def finalize(wd, wp, td, tp, allowed, accum, replace, out_dtype):
    """GraphBLAS w⟨M⟩ ⊙= T on dense arrays + presence."""
    td = td.astype(out_dtype)
    if accum is not None:
        both = wp & tp
        av = accum.apply_numpy(wd, td, out_dtype).astype(out_dtype)
        zd = np.where(both, av, np.where(tp, td, wd))
        zp = wp | tp
    else:
        zd, zp = td, tp
    if allowed is None:
        return zd, zp
    rd = np.where(allowed, zd, wd)
    rp = np.where(allowed, zp, False if replace else wp)
    return rd, rp


def dense_mxm(Ad, Ap, Bd, Bp, semiring, dom):
    """(values, present, candidates) of C = A ⊕.⊗ B from dense arrays + presence, operands
    taken in domain ``dom``: C(i,j) folds A(i,k) ⊗ B(k,j) in increasing k; positional ops see
    (i, k) for the first operand and (k, j) for the second."""
    m, n = Ap.shape[0], Bp.shape[1]
    rt = semiring.result_type(dom)
    vals = np.zeros((m, n), dtype=rt)
    pres = np.zeros((m, n), dtype=bool)
    cands = {}
    for i in range(m):
        for j in range(n):
            ks = np.flatnonzero(Ap[i, :] & Bp[:, j])
            if ks.size == 0:
                continue
            a = Ad[i, ks].astype(dom)
            b = Bd[ks, j].astype(dom)
            p = semiring.mul.apply_numpy(a, b, dom, pos=(np.full(ks.size, i), ks, ks,
                                                         np.full(ks.size, j)))
            p = np.broadcast_to(np.asarray(p), ks.shape).astype(rt)
            acc = p[:1]
            for t in range(1, ks.size):
                acc = semiring.add.op.apply_numpy(acc, p[t:t + 1], rt).astype(rt)
            vals[i, j] = acc[0]
            pres[i, j] = True
            cands[i, j] = p
    return vals, pres, cands
