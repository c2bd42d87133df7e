"""dist21: semiring.dist operations against the one-device ones on whole vectors/matrices:
values, presence, the recorded dtype against the parts' dtype and the one-device dtype."""
import itertools
import sys

import numpy as np
import scipy.sparse as sp

import semiring as sr
from semiring import dist

BAD = []
N_OK = [0]


def vec_ref(x, missing):
    return sr.Vector.from_dense(x, missing=missing, device="cpu")


def check(tag, ref_fn, got_fn):
    try:
        r = ref_fn()
        rerr = None
    except Exception as e:  # noqa: BLE001
        rerr = type(e).__name__
    try:
        g = got_fn()
        gerr = None
    except Exception as e:  # noqa: BLE001
        gerr = type(e).__name__ + ": " + str(e)[:120]
    if rerr or gerr:
        if (rerr is None) != (gerr is None) or (rerr and not gerr.startswith(rerr)):
            BAD.append((tag, "ref err", rerr, "got err", gerr))
        return
    if np.isscalar(r) or getattr(r, "ndim", 1) == 0:
        if not (type(g) is type(r) or np.asarray(g).dtype == np.asarray(r).dtype) or not np.array_equal(np.asarray(g), np.asarray(r), equal_nan=True):
            BAD.append((tag, "scalar", repr(r), repr(g)))
        else:
            N_OK[0] += 1
        return
    # r: sr.Vector ; g: DistVector
    rd = r.to_dense(missing=-99) if r.dtype != np.bool_ else r.to_dense(missing=False)
    gd = g.to_dense(missing=-99) if g.dtype != np.bool_ else g.to_dense(missing=False)
    rc = r.to_coo()[0]; gc = g.to_coo()[0]
    if g.dtype != r.dtype or gd.dtype != rd.dtype or not np.array_equal(rd, gd, equal_nan=True) or not np.array_equal(np.asarray(rc), np.asarray(gc)):
        BAD.append((tag, "ref", r.dtype, rd[:10], "got rec", g.dtype, "parts", gd.dtype, gd[:10]))
    else:
        N_OK[0] += 1


def main(seed=0, count=20):
    c = dist.local_cluster(2, processes=False)
    rng = np.random.default_rng(seed)
    dts = [np.float64, np.float32, np.int32, np.int64, np.bool_]
    for it in range(count):
        n = int(rng.integers(0, 12))
        da, db = dts[it % 5], dts[int(rng.integers(0, 5))]
        S = sp.random(n, n, density=0.3, format="csr", random_state=it, dtype=np.float64)
        S.data = np.round(S.data * 10) - 3
        S = S.astype(da)
        A = sr.Matrix.from_scipy(S, device="cpu")
        nparts = int(rng.integers(1, 4))
        DA = dist.DistMatrix.from_scipy(S, c, nparts=nparts)
        xa = (rng.integers(-3, 5, n)).astype(da)
        xb = (rng.integers(-3, 5, n)).astype(db)
        ma = (rng.random(n) < 0.3); mb = (rng.random(n) < 0.3)
        ua, ub = vec_ref(np.where(ma, 0, xa).astype(da), None), None
        ua = sr.Vector.from_coo(np.flatnonzero(~ma), xa[~ma], size=n, dtype=da, device="cpu")
        ub = sr.Vector.from_coo(np.flatnonzero(~mb), xb[~mb], size=n, dtype=db, device="cpu")
        Ua = dist.DistVector.from_coo(DA, np.flatnonzero(~ma), xa[~ma], dtype=da)
        Ub = dist.DistVector.from_coo(DA, np.flatnonzero(~mb), xb[~mb], dtype=db)
        tag = f"it{it} n={n} {np.dtype(da)}/{np.dtype(db)} parts={nparts}"
        for S_ in ("plus_times", "min_plus", "max_first", "any_secondi", "plus_pair", "min_second", "lor_land"):
            check(tag + f" mxv {S_}", lambda: sr.mxv(A, ub, S_), lambda: dist.mxv(DA, Ub, S_))
            check(tag + f" vxm {S_}", lambda: sr.vxm(ua, A, S_), lambda: dist.vxm(Ua, DA, S_))
            check(tag + f" vxm push {S_}", lambda: sr.vxm(ua, A, S_), lambda: dist.vxm(Ua, DA, S_, direction="push"))
            check(tag + f" mxv mask {S_}", lambda: sr.mxv(A, ub, S_, mask=ua, complement=True), lambda: dist.mxv(DA, Ub, S_, mask=Ua, complement=True))
        for op in ("plus", "minus", "min", "times", "div", "lt", "eq", "first", "pair", "lor"):
            check(tag + f" ewise_add {op}", lambda: sr.ewise_add(ua, ub, op), lambda: dist.ewise_add(Ua, Ub, op))
            check(tag + f" ewise_mult {op}", lambda: sr.ewise_mult(ua, ub, op), lambda: dist.ewise_mult(Ua, Ub, op))
        for op in ("identity", "ainv", "abs", "minv", "lnot", "one"):
            check(tag + f" apply {op}", lambda: sr.apply(ua, op), lambda: dist.apply(Ua, op))
        check(tag + " apply times right=2.5", lambda: sr.apply(ua, "times", right=2.5), lambda: dist.apply(Ua, "times", right=2.5))
        check(tag + " apply gt right=1", lambda: sr.apply(ua, "gt", right=1), lambda: dist.apply(Ua, "gt", right=1))
        for m in ("plus", "min", "max", "times", "lor", "any"):
            check(tag + f" reduce_scalar {m}", lambda: sr.reduce_scalar(ua, m), lambda: dist.reduce_scalar(Ua, m))
            check(tag + f" reduce_rows {m}", lambda: sr.reduce_rows(A, m), lambda: dist.reduce_rows(DA, m))
            check(tag + f" reduce_cols {m}", lambda: sr.reduce_cols(A, m), lambda: dist.reduce_cols(DA, m))
        check(tag + " dot", lambda: sr.reduce_scalar(sr.ewise_mult(ua, ub, "times")), lambda: dist.dot(Ua, Ub))
        check(tag + " select gt 0", lambda: sr.select(ua, "valuegt", 0), lambda: dist.select(Ua, "valuegt", 0))
        idx = rng.integers(0, max(n, 1), n)
        if n:
            I = sr.Vector.from_dense(idx, device="cpu"); DI = dist.DistVector.from_dense(DA, idx)
            check(tag + " extract", lambda: sr.extract(ua, idx), lambda: dist.extract(Ua, DI))
        check(tag + " nvals", lambda: ua.nvals, lambda: dist.nvals(Ua))
    c.close(); c.cluster.close()
    seen = set()
    for b in BAD:
        key = b[0].split(" ", 4)[-1] if False else " ".join(b[0].split()[4:]) + str(b[1:3])
        print(*b)
    print("mismatches:", len(BAD), "ok:", N_OK[0])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0, int(sys.argv[2]) if len(sys.argv) > 2 else 20)
