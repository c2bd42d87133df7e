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
    """(values, present, products) of C = A ⊕.⊗ B from dense arrays + presence.

    C(i,j) folds A(i,k) ⊗ B(k,j) over the k where both are present, in k order; A(i,k) is the
    first operand at (i, k), B(k,j) the second at (k, j). ``products`` lists (values, both
    present) per k, for checking an ``any`` result. Vectorized over (i, j), a loop over k.
    """
    m, K = Ad.shape
    n = Bd.shape[1]
    rt = semiring.result_type(dom)
    vals = np.zeros((m, n), dtype=rt)
    pres = np.zeros((m, n), dtype=bool)
    i = np.arange(m, dtype=np.int64)[:, None]
    j = np.arange(n, dtype=np.int64)[None, :]
    products = []
    with np.errstate(all="ignore"):
        for k in range(K):
            kk = np.int64(k)
            a = Ad[:, k].astype(dom)[:, None]
            b = Bd[k, :].astype(dom)[None, :]
            p = semiring.mul.apply_numpy(a, b, dom, pos=(i, kk, kk, j))
            p = np.broadcast_to(np.asarray(p).astype(rt), (m, n))
            q = Ap[:, k][:, None] & Bp[k, :][None, :]
            folded = np.where(pres, semiring.add.op.apply_numpy(vals, p, rt).astype(rt), p)
            vals = np.where(q, folded, vals)
            pres = pres | q
            products.append((p, q))
    return vals, pres, products


# ---------------------------------------------------------------------- element-wise oracles
# Arrays are dense (values, present) pairs of any shape: a matrix is 2-D, a vector 1-D (its
# entry i sits at (i, 0)).

def coords(shape):
    """(i, j) int64 coordinate arrays of every position of a 1-D or 2-D shape."""
    if len(shape) == 1:
        return np.arange(shape[0], dtype=np.int64), np.zeros(shape[0], dtype=np.int64)
    i, j = np.indices(shape, dtype=np.int64)
    return i, j


def ewise(kind, ad, ap, bd, bp, op):
    """ewise_add ('add': union) or ewise_mult ('mult': intersection) under a BinaryOp."""
    dom = sr.types.promote(ad.dtype, bd.dtype)
    rt = op.result_type(dom)
    i, j = coords(ad.shape)
    both = op.apply_numpy(ad.astype(dom), bd.astype(dom), dom, pos=(i, j, i, j)).astype(rt)
    if kind == "mult":
        return np.where(ap & bp, both, np.zeros((), rt)), ap & bp
    vals = np.where(ap & bp, both, np.where(ap, ad.astype(rt), bd.astype(rt)))
    return vals, ap | bp


def reduce_rows(ad, ap, monoid):
    """(values, present, candidates) of the row reductions, folded left to right."""
    dom = sr.types.BOOL if monoid.op.result == "bool" else ad.dtype
    vals = np.zeros(ad.shape[0], dtype=dom)
    cands = []
    for r in range(ad.shape[0]):
        row = ad[r][ap[r]].astype(dom)
        cands.append(list(row))
        if row.size:
            acc = row[:1]
            for x in row[1:]:
                acc = monoid.op.apply_numpy(acc, np.asarray([x]), dom).astype(dom)
            vals[r] = acc[0]
    return vals, ap.any(axis=1), cands


def extract(ad, ap, rows, cols=None):
    """A(rows, cols) / v(rows) by fancy indexing (duplicates allowed)."""
    if cols is None:
        return ad[rows], ap[rows]
    ix = np.ix_(rows, cols)
    return ad[ix], ap[ix]


def assign(wd, wp, vd, vp, rows, cols, accum, allowed, replace):
    """GrB_assign: Z = w with Z(rows, cols) = w(rows, cols) ⊙ value (or value), then w⟨M⟩ = Z."""
    zd, zp = wd.copy(), wp.copy()
    ix = rows if cols is None else np.ix_(rows, cols)
    rd, rp = wd[ix], wp[ix]
    vd = vd.astype(wd.dtype)
    if accum is None:
        sd, sp_ = vd, vp
    else:
        sd, sp_ = finalize(rd, rp, vd, vp, None, accum, False, wd.dtype)
    zd[ix] = np.where(sp_, sd, zd[ix])
    zp[ix] = sp_
    return finalize(wd, wp, zd, zp, allowed, None, replace, wd.dtype)


def dense_mxm_candidates(Ad, Ap, Bd, Bp, semiring, dom):
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
