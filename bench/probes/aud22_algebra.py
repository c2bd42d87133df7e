"""Session 22, aud22: a differential fuzzer of the algebra (``semiring/``) on the CPU backend
against a small dense NumPy oracle of the GraphBLAS C API's semantics.

The oracle (below, ``O*``) works entry by entry on dense (values, present) pairs with Python
loops over NumPy scalars: the operator's inputs cast to the operation's domain, its output to
the operator's result type, a monoid folded over the present products only (no entry where
there is none), integer overflow wrapping as C does, a float cast into an integer type
saturating with NaN -> 0 (SuiteSparse's GB_casting.h, which the project follows), and the
write rule C⟨M,r⟩ = C ⊙ T. ``any`` is checked by membership in the candidate products.

Beyond the values it checks, for each case: the result's canonical form (CSR sorted, indices
in range, the dtype), that no input array was changed (the caller's NumPy arrays and every
container's storage, the output's old arrays too), repeated calls (the CPU backend keeps
routes and row plans on a matrix from its second product on), transposed and symmetric views
as inputs and outputs, aliasing (``out`` also an input or the mask) and the errors of bad
arguments (named argument, expected and actual value).

Usage::

    python bench/probes/aud22_algebra.py [--cases N] [--seed S] [--only OP]

Prints one line per disagreement (a reproducer: op, seed, case) and a table of case counts.
"""

from __future__ import annotations

import argparse
import collections
import math
import sys
import traceback
import warnings
import zlib

import numpy as np
import scipy.sparse as sp

import semiring as sr

warnings.filterwarnings("ignore")

DOMAINS = [np.dtype(t) for t in (np.bool_, np.int32, np.int64, np.float32, np.float64)]
BOOL = np.dtype(np.bool_)
INDEX = np.dtype(np.int64)

# ------------------------------------------------------------------------- oracle: scalars


def ocast(x, dt):
    """C's conversion of one scalar to ``dt``, with SuiteSparse's float -> int saturation."""
    dt = np.dtype(dt)
    x = np.asarray(x)[()]
    if dt == BOOL:
        return np.bool_(x != 0)
    if dt.kind in "iu":
        if isinstance(x, np.floating):
            if x != x:
                return dt.type(0)
            info = np.iinfo(dt)
            if x >= float(info.max):
                return dt.type(info.max)
            if x <= float(info.min):
                return dt.type(info.min)
            return dt.type(int(x))
        return dt.type(_wrap(int(x), dt))
    return dt.type(x)


def _wrap(v, dt):
    bits = 8 * dt.itemsize
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def _fmin(x, y):
    if x != x:
        return y
    if y != y:
        return x
    return x if x <= y else y


def _fmax(x, y):
    if x != x:
        return y
    if y != y:
        return x
    return x if x >= y else y


POSITIONAL = {"firsti": 0, "firstj": 1, "secondi": 2, "secondj": 3}
BOOL_RESULT = {"lor", "land", "lxor", "eq", "ne", "lt", "le", "gt", "ge"}


def oresult(name, dom):
    if name in POSITIONAL:
        return INDEX
    if name in BOOL_RESULT:
        return BOOL
    return np.dtype(dom)


def obin(name, x, y, dom, pos=None):
    """z = name(x, y) with x, y cast to ``dom``; z of the op's result type."""
    dom = np.dtype(dom)
    if name in POSITIONAL:
        return np.int64(pos[POSITIONAL[name]])
    x, y = ocast(x, dom), ocast(y, dom)
    with np.errstate(all="ignore"):
        if name == "lor":
            return np.bool_((x != 0) or (y != 0))
        if name == "land":
            return np.bool_((x != 0) and (y != 0))
        if name == "lxor":
            return np.bool_((x != 0) != (y != 0))
        if name in ("eq", "ne", "lt", "le", "gt", "ge"):
            return np.bool_({"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y,
                             "gt": x > y, "ge": x >= y}[name])
        if name in ("first", "any"):
            return x
        if name == "second":
            return y
        if name == "pair":
            return dom.type(1)
        if dom == BOOL:
            a, b = bool(x), bool(y)
            r = {"plus": a or b, "minus": a != b, "times": a and b, "min": a and b,
                 "max": a or b}[name]
            return np.bool_(r)
        if name == "min":
            return dom.type(_fmin(x, y))
        if name == "max":
            return dom.type(_fmax(x, y))
        if dom.kind in "iu":
            a, b = int(x), int(y)
            r = {"plus": a + b, "minus": a - b, "times": a * b}[name]
            return dom.type(_wrap(r, dom))
        r = {"plus": x + y, "minus": x - y, "times": x * y}[name]
        return dom.type(r)


def ounary(name, x, dom, i=0, j=0):
    dom = np.dtype(dom)
    x = ocast(x, dom)
    if name == "rowindex":
        return np.int64(i)
    if name == "colindex":
        return np.int64(j)
    if name == "identity":
        return x
    if name == "one":
        return dom.type(1)
    if name == "lnot":
        return ocast(np.bool_(not (x != 0)), dom)
    if dom == BOOL:
        return {"ainv": x, "abs": x, "minv": np.bool_(True)}[name]
    with np.errstate(all="ignore"):
        if dom.kind == "f":
            return dom.type({"ainv": -x, "abs": abs(x), "minv": dom.type(1) / x}[name])
        v = int(x)
        if name == "ainv":
            return dom.type(_wrap(-v, dom))
        if name == "abs":
            return dom.type(_wrap(abs(v), dom))
        # GB_IMINV
        return dom.type({0: np.iinfo(dom).max, 1: 1, -1: -1}.get(v, 0))


MONOIDS = ["plus", "times", "min", "max", "any", "lor", "land", "lxor"]


def ofold(mname, vals, dom):
    """The monoid's fold of a non-empty list, left to right ('any': the first)."""
    r = vals[0]
    for v in vals[1:]:
        r = obin(mname, r, v, dom)
    return r


# ------------------------------------------------------------------------- oracle: objects


class D:
    """A dense oracle object: values, present (bool), dtype; 1-D (vector) or 2-D."""

    def __init__(self, vals, pres, dtype):
        self.dtype = np.dtype(dtype)
        self.vals = np.asarray(vals, dtype=self.dtype).copy()
        self.pres = np.asarray(pres, dtype=bool).copy()
        self.vals[~self.pres] = 0
        self.cands = None  # 'any' results: list of candidate sets per entry (or None)
        self.scale = {}  # float sums: the terms' magnitude per entry (order-free tolerance)

    @property
    def shape(self):
        return self.pres.shape

    def copy(self):
        d = D(self.vals, self.pres, self.dtype)
        d.cands = self.cands
        return d

    def T(self):
        return D(self.vals.T, self.pres.T, self.dtype)


def dmask(mobj, structure, complement, shape):
    """The allowed set of a mask given as a D."""
    if mobj is None:
        return None
    if structure:
        m = mobj.pres.copy()
    else:
        m = mobj.pres & np.vectorize(lambda v: bool(v != 0), otypes=[bool])(mobj.vals) \
            if mobj.vals.size else mobj.pres.copy()
    return ~m if complement else m


def ofinalize(T, out, allowed, accum, replace):
    """C⟨M,r⟩ = C ⊙ T."""
    if out is None:
        R = T.copy()
        R.scale = T.scale
        if allowed is not None:
            R.pres &= allowed
            R.vals[~R.pres] = 0
        return R
    dt = out.dtype
    Z = D(np.zeros(T.shape, dtype=dt), np.zeros(T.shape, dtype=bool), dt)
    cands = {}
    for idx in np.ndindex(*T.shape):
        t, c = T.pres[idx], out.pres[idx]
        if accum is None:
            if t:
                Z.vals[idx], Z.pres[idx] = ocast(T.vals[idx], dt), True
        elif t and c:
            Z.vals[idx] = ocast(obin(accum, out.vals[idx], ocast(T.vals[idx], dt), dt), dt)
            Z.pres[idx] = True
        elif t:
            Z.vals[idx], Z.pres[idx] = ocast(T.vals[idx], dt), True
        elif c:
            Z.vals[idx], Z.pres[idx] = out.vals[idx], True
    R = D(np.zeros(T.shape, dtype=dt), np.zeros(T.shape, dtype=bool), dt)
    for idx in np.ndindex(*T.shape):
        a = True if allowed is None else allowed[idx]
        if a:
            R.vals[idx], R.pres[idx] = Z.vals[idx], Z.pres[idx]
            if T.cands is not None and T.pres[idx] and idx in T.cands:
                if accum is None or not out.pres[idx]:
                    cands[idx] = {_key(ocast(v, dt)) for v in T.cands[idx]}
                else:
                    cands[idx] = {_key(ocast(obin(accum, out.vals[idx], ocast(v, dt), dt), dt))
                                  for v in T.cands[idx]}
        elif not replace and out.pres[idx]:
            R.vals[idx], R.pres[idx] = out.vals[idx], True
    if T.cands is not None:
        R.cands = cands
    # (the sums' order tolerance passes through accumulators that move a value by at most
    # the change of T's: second, plus, minus, min, max)
    R.scale = {k: v for k, v in T.scale.items()
               if (allowed is None or allowed[k]) and (accum in (None, "second", "plus", "minus",
                                                                 "min", "max")
                                                       or not out.pres[k])}
    return R


def _key(v):
    v = np.asarray(v)[()]
    if isinstance(v, np.floating) and v != v:
        return "nan"
    return float(v) if isinstance(v, np.floating) else int(v)


def promote(a, b):
    dt = np.result_type(a, b)
    if dt not in DOMAINS:
        dt = np.dtype(np.int64) if dt.kind in "iu" else np.dtype(np.float64)
    return dt


def oproduct(A, B, add, mul, dom, positional_of):
    """C(i,j) = ⊕_k A(i,k) ⊗ B(k,j) on dense D's; ``positional_of(i, k, j)`` -> pos tuple."""
    rt = oresult(mul, dom)
    n, m = A.shape[0], B.shape[1]
    T = D(np.zeros((n, m), dtype=rt), np.zeros((n, m), dtype=bool), rt)
    cands = {}
    scale = {}
    for i in range(n):
        for j in range(m):
            prods = [obin(mul, A.vals[i, k], B.vals[k, j], dom, positional_of(i, k, j))
                     for k in range(A.shape[1]) if A.pres[i, k] and B.pres[k, j]]
            if prods:
                T.pres[i, j] = True
                T.vals[i, j] = ofold(add, prods, rt)
                if add == "plus" and rt.kind == "f" and len(prods) > 1:
                    # a float sum's order is the implementation's: its rounding may be
                    # as large as the terms' magnitudes times the type's epsilon
                    with np.errstate(all="ignore"):
                        scale[(i, j)] = float(sum(abs(float(p)) for p in prods)) * 16 * \
                            float(np.finfo(rt).eps)
                if add == "any":
                    cands[(i, j)] = prods
    T.cands = cands if add == "any" else None
    T.scale = scale
    return T


# ------------------------------------------------------------------------- comparisons


def as_D(x):
    """Our Matrix / Vector as a D, checking its canonical form."""
    if isinstance(x, sr.Vector):
        idx, vals = x.sparse()
        assert idx.dtype == np.int64, f"vector indices {idx.dtype}"
        assert vals.dtype == x.dtype, f"vector values {vals.dtype} != dtype {x.dtype}"
        assert idx.size == vals.size
        if idx.size:
            assert (np.diff(idx) > 0).all(), "vector indices not sorted unique"
            assert idx.min() >= 0 and idx.max() < x.size
        assert x.nvals == idx.size
        v = np.zeros(x.size, dtype=x.dtype)
        p = np.zeros(x.size, dtype=bool)
        v[idx] = vals
        p[idx] = True
        bv, bp = x.bitmap()
        assert bv.shape == (x.size,) and (bp is None or bp.shape == (x.size,))
        bpp = np.ones(x.size, bool) if bp is None else bp
        assert (bpp == p).all(), "bitmap form's presence differs from sparse form's"
        assert _same_vals(bv[bpp], vals), "bitmap form's values differ from sparse form's"
        return D(v, p, x.dtype)
    if isinstance(x, sr.Matrix):
        n, m = x.shape
        ip, ix = x.indptr, x.indices
        assert ip.shape == (n + 1,) and ip[0] == 0 and (np.diff(ip) >= 0).all()
        assert ix.size == ip[-1] == x.nvals
        assert ip.dtype == ix.dtype and ip.dtype in (np.int32, np.int64)
        vals = x._full_values()
        assert vals.dtype == x.dtype, f"matrix values {vals.dtype} != dtype {x.dtype}"
        v = np.zeros((n, m), dtype=x.dtype)
        p = np.zeros((n, m), dtype=bool)
        for i in range(n):
            cols = ix[ip[i]:ip[i + 1]]
            if cols.size:
                assert (np.diff(cols) > 0).all(), "CSR row not sorted unique"
                assert cols.min() >= 0 and cols.max() < m
            v[i, cols] = vals[ip[i]:ip[i + 1]]
            p[i, cols] = True
        return D(v, p, x.dtype)
    raise TypeError(type(x))


def _same_vals(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        a, b = a.astype(np.float64), b.astype(np.float64)
        return bool(((a == b) | (np.isnan(a) & np.isnan(b))).all())
    return bool((a == b).all())


def close(a, b, dt, tol):
    if dt.kind != "f":
        return a == b
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if a == b:
        return True
    if math.isinf(a) or math.isinf(b):
        return False
    return abs(a - b) <= tol * max(abs(a), abs(b), 1e-30)


def compare(ours, want: D, tol=0.0, zsign=False):
    """'' when ``ours`` (a container) equals the oracle's D, else what differs; ``zsign``:
    a float zero's sign too (where no fold's order decides it: copies, casts, selections)."""
    try:
        got = as_D(ours)
    except AssertionError as e:
        return f"malformed result: {e}"
    if got.dtype != want.dtype:
        return f"dtype {got.dtype} != oracle {want.dtype}"
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    if not (got.pres == want.pres).all():
        diff = np.argwhere(got.pres != want.pres)[:4].tolist()
        return f"presence differs at {diff}: ours {got.pres.astype(int).tolist()} oracle " \
               f"{want.pres.astype(int).tolist()}"
    for idx in zip(*np.nonzero(want.pres)):
        g, w = got.vals[idx], want.vals[idx]
        if want.cands is not None and idx in want.cands:
            if _key(g) not in {c if isinstance(c, (str, int, float)) and
                               not isinstance(c, np.generic) else _key(c)
                               for c in want.cands[idx]}:
                return f"any: {idx} ours {g!r} not among candidates {want.cands[idx]}"
            continue
        sc = want.scale.get(tuple(int(t) for t in idx))
        if sc is not None and want.dtype != BOOL and not math.isnan(float(w)) and \
                not math.isinf(sc) and abs(float(g) - float(w)) <= \
                sc + (1 if want.dtype.kind in "iu" else 0):
            continue
        if not close(g, w, want.dtype, tol):
            return f"value at {idx}: ours {g!r} oracle {w!r}"
        if zsign and want.dtype.kind == "f" and w == 0 and np.signbit(g) != np.signbit(w):
            return f"sign of zero at {idx}: ours {g!r} oracle {w!r}"
    return ""


# ------------------------------------------------------------------------- generators


def pool(dt, rng, awkward):
    dt = np.dtype(dt)
    if dt == BOOL:
        return [False, True]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        base = [0, 1, -1, 2, 3, -5, 7]
        if awkward:
            base += [int(info.max), int(info.min), int(info.max) - 1, int(info.min) + 1]
            if dt.itemsize == 8:
                base += [2**31 - 1, -2**31, 2**31, 2**32 + 3]
        return base
    base = [0.0, 1.0, -1.0, 2.0, 0.5, -3.0, 4.0]
    if awkward:
        base += [np.inf, -np.inf, np.nan, -0.0, 1e30, -1e30, 3e9]
    return base


def rvals(dt, n, rng, awkward=True):
    p = pool(dt, rng, awkward)
    return np.array([p[i] for i in rng.integers(0, len(p), n)], dtype=dt) if n else \
        np.zeros(0, dtype=dt)


class Inputs:
    """The caller's arrays handed to constructors, snapshotted to check they are unchanged."""

    def __init__(self):
        self.arrays = []

    def add(self, *arrs):
        for a in arrs:
            if isinstance(a, np.ndarray):
                self.arrays.append((a, a.copy()))
        return arrs

    def changed(self):
        return [a for a, c in self.arrays if not _same_arr(a, c)]


def _same_arr(a, c):
    return a.dtype == c.dtype and a.shape == c.shape and \
        (a.tobytes() == c.tobytes())


def rmatrix(rng, n, m, dt=None, density=None, inputs=None, awkward=True):
    """(our Matrix, its oracle D), built by one of the constructors (random route)."""
    dt = np.dtype(dt) if dt is not None else DOMAINS[rng.integers(len(DOMAINS))]
    density = rng.choice([0.0, 0.3, 0.6, 1.0]) if density is None else density
    pres = rng.random((n, m)) < density
    iso = rng.random() < 0.15
    vals = np.zeros((n, m), dtype=dt)
    if iso:
        v0 = rvals(dt, 1, rng, awkward)[0]
        vals[pres] = v0
    else:
        vals[pres] = rvals(dt, int(pres.sum()), rng, awkward)
    want = D(vals, pres, dt)
    inputs = inputs if inputs is not None else Inputs()
    route = rng.integers(0, 6)
    r, c = np.nonzero(pres)
    if route == 0:   # from_coo, shuffled, maybe duplicates folded by dup_op
        order = rng.permutation(r.size)
        r, c = r[order], c[order]
        v = vals[r, c]
        if iso:
            inputs.add(r, c)
            A = sr.Matrix.from_coo(r, c, vals[pres][0] if r.size else dt.type(0),
                                   nrows=n, ncols=m, dtype=dt, device="cpu")
            if not r.size:
                want = D(np.zeros((n, m), dt), pres, dt)
            return A, want
        dup = rng.random() < 0.4 and r.size > 0
        if dup:
            op = ["first", "second", "min", "max", "plus", "times", "any", "minus", "lor",
                  "eq", "lt"][rng.integers(11)]
            if dt.kind == "f" and op in ("plus", "times"):
                op = "max"  # (a float sum's order is the implementation's: reduceat's)
            k = int(rng.integers(1, 4))
            pick = rng.integers(0, r.size, k)
            extra = rvals(dt, k, rng, awkward)
            rr = np.concatenate([r, r[pick]])
            cc = np.concatenate([c, c[pick]])
            vv = np.concatenate([v, extra])
            order = rng.permutation(rr.size)
            rr, cc, vv = rr[order], cc[order], vv[order]
            # the oracle: fold each coordinate's values in input order
            acc = {}
            for a, b, x in zip(rr, cc, vv):
                acc.setdefault((a, b), []).append(x)
            cands = {}
            for (a, b), xs in acc.items():
                want.vals[a, b] = ofold(op if op != "any" else "first", xs, dt)
                if op == "any":
                    cands[(a, b)] = xs
            want.vals[~pres] = 0
            if op == "any":
                want.cands = cands
            inputs.add(rr, cc, vv)
            A = sr.Matrix.from_coo(rr, cc, vv, nrows=n, ncols=m, dup_op=op, device="cpu")
            if op == "any":  # check the pick now; later oracles read the value picked
                msg = compare(A, want)
                if msg:
                    raise AssertionError(f"from_coo(dup_op='any'): {msg}")
                want = as_D(A)
            return A, want
        inputs.add(r, c, v)
        return sr.Matrix.from_coo(r, c, v, nrows=n, ncols=m, device="cpu"), want
    if route == 1:   # from_dense with a missing value absent from the entries
        if dt == BOOL or iso:
            a = vals.copy()
            inputs.add(a)
            return sr.Matrix.from_coo(r, c, vals[r, c], nrows=n, ncols=m, device="cpu"), want
        a = vals.copy()
        miss = {"f": np.nan, "i": 12345}[dt.kind]
        if dt.kind == "f" and np.isnan(vals[pres]).any():
            miss = 777.0
        a[~pres] = miss
        inputs.add(a)
        return sr.Matrix.from_dense(a, missing=miss, device="cpu"), want
    if route == 2:   # from_scipy: a COO / CSC / non-canonical CSR
        S = sp.coo_matrix((vals[r, c], (r, c)), shape=(n, m))
        fmt = rng.integers(0, 3)
        if fmt == 1:
            S = S.tocsc()
        elif fmt == 2:
            S = S.tocsr()
            # jumble each row's order (not canonical)
            for i in range(n):
                lo, hi = S.indptr[i], S.indptr[i + 1]
                perm = rng.permutation(hi - lo) + lo
                S.indices[lo:hi] = S.indices[perm].copy()
                S.data[lo:hi] = S.data[perm].copy()
            S.has_canonical_format = False
        for arr in ("data", "row", "col", "indices", "indptr"):
            if hasattr(S, arr):
                inputs.add(getattr(S, arr))
        return sr.Matrix.from_scipy(S, device="cpu"), want
    if route == 3:   # from_csr, canonical
        S = sp.csr_matrix((vals[r, c], (r, c)), shape=(n, m))
        S.sort_indices()
        ip, ix, d = S.indptr.astype(np.int64), S.indices.astype(np.int64), S.data.astype(dt)
        inputs.add(ip, ix, d)
        if iso and r.size:
            return sr.Matrix.from_csr(ip, ix, None, (n, m), iso_value=vals[pres][0], dtype=dt), want
        return sr.Matrix.from_csr(ip, ix, d, (n, m)), want
    if route == 4:   # a transposed view of a matrix built the other way round
        At, _ = rmatrix_exact(want.T(), inputs)
        return At.T, want
    # route 5: a symmetric view, when the content is symmetric
    if n == m:
        sym = D(np.where(np.triu(np.ones((n, n), bool)), vals, vals.T),
                np.where(np.triu(np.ones((n, n), bool)), pres, pres.T), dt)
        B, _ = rmatrix_exact(sym, inputs)
        return B.as_symmetric(), sym
    return rmatrix_exact(want, inputs)


def rmatrix_exact(want: D, inputs):
    r, c = np.nonzero(want.pres)
    v = want.vals[r, c]
    inputs.add(r, c, v)
    return sr.Matrix.from_coo(r, c, v, nrows=want.shape[0], ncols=want.shape[1],
                              dtype=want.dtype, device="cpu"), want


def rvector(rng, n, dt=None, density=None, inputs=None, awkward=True):
    dt = np.dtype(dt) if dt is not None else DOMAINS[rng.integers(len(DOMAINS))]
    density = rng.choice([0.0, 0.3, 0.7, 1.0]) if density is None else density
    pres = rng.random(n) < density
    vals = np.zeros(n, dtype=dt)
    vals[pres] = rvals(dt, int(pres.sum()), rng, awkward)
    want = D(vals, pres, dt)
    inputs = inputs if inputs is not None else Inputs()
    idx = np.flatnonzero(pres)
    route = rng.integers(0, 6)
    if route == 0:
        order = rng.permutation(idx.size)
        i, v = idx[order], vals[idx][order]
        inputs.add(i, v)
        u = sr.Vector.from_coo(i, v, size=n, device="cpu")
    elif route == 1:
        order = rng.permutation(idx.size)
        i, v = idx[order], vals[idx][order]
        inputs.add(i, v)
        u = sr.Vector.from_coo(i, v, size=n, sort=False, device="cpu")
    elif route == 2:
        a, p = vals.copy(), pres.copy()
        # the absent slots of a bitmap hold anything: nothing may read them
        a[~p] = rvals(dt, int((~p).sum()), rng)
        inputs.add(a, p)
        u = sr.Vector.from_bitmap(a, None if p.all() else p, device="cpu")
    elif route == 3 and pres.all():
        a = vals.copy()
        inputs.add(a)
        u = sr.Vector.from_dense(a, device="cpu")
    elif route == 4 and dt.kind == "f":
        a = vals.copy()
        a[~pres] = np.nan
        if np.isnan(vals[pres]).any():
            a[~pres] = 777.0
            inputs.add(a)
            u = sr.Vector.from_dense(a, missing=777.0, device="cpu")
        else:
            inputs.add(a)
            u = sr.Vector.from_dense(a, missing=np.nan, device="cpu")
    elif route == 5 and idx.size and rng.random() < 0.6:
        # duplicates folded by dup_op, in input order
        op = ["first", "second", "min", "max", "plus", "times", "minus", "lor"][rng.integers(8)]
        if dt.kind == "f" and op in ("plus", "times"):
            op = "min"  # (a float sum's order is the implementation's: reduceat's)
        k = int(rng.integers(1, 4))
        pick = rng.integers(0, idx.size, k)
        ii = np.concatenate([idx, idx[pick]])
        vv = np.concatenate([vals[idx], rvals(dt, k, rng, awkward)])
        order = rng.permutation(ii.size)
        ii, vv = ii[order], vv[order]
        acc = {}
        for a, x in zip(ii, vv):
            acc.setdefault(int(a), []).append(x)
        for a, xs in acc.items():
            want.vals[a] = ocast(ofold(op, xs, dt), dt)
        inputs.add(ii, vv)
        u = sr.Vector.from_coo(ii, vv, size=n, dup_op=op, device="cpu")
    else:
        inputs.add(idx, vals[idx])
        u = sr.Vector.from_coo(idx, vals[idx].copy(), size=n, device="cpu")
    if rng.random() < 0.3:
        u = u.to_form(["bitmap", "sparse"][rng.integers(2)])
    return u, want


# ------------------------------------------------------------------------- storage snapshots


def storage(x):
    """Every array a container holds (both vector forms; a matrix's CSR)."""
    arrs = []
    if isinstance(x, sr.Vector):
        for f in (x._bitmap, x._sparse):
            if f is not None:
                arrs += [a for a in f if a is not None]
    elif isinstance(x, sr.Matrix):
        arrs += [x.indptr, x.indices] + ([x.values] if x.values is not None else [])
    return arrs


class Snap:
    def __init__(self, *objs):
        self.items = []
        for o in objs:
            for a in storage(o):
                self.items.append((a, a.copy()))

    def changed(self):
        return [a for a, c in self.items if not _same_arr(a, c)]


# ------------------------------------------------------------------------- the cases

SEMIRINGS = sorted(sr.ops.builtins("semiring"))
ACCUMS = ["plus", "minus", "times", "min", "max", "first", "second", "lor", "land", "lxor",
          "eq", "lt", "any", "pair"]


def split(name):
    for m in MONOIDS:
        if name.startswith(m + "_"):
            return m, name[len(m) + 1:]
    raise KeyError(name)


def zsign_ok(add, mul, accum=None):
    """Whether a zero result's sign is the oracle's whatever the fold's order: a sum or
    product of exactly zero is -0.0 only when every term is (min / max / any of zeros pick
    either, as fmin does)."""
    return add in ("plus", "times") and mul not in ("min", "max", "any") and \
        accum not in ("min", "max", "any")


def tol_of(dt, add, mul):
    if np.dtype(dt).kind != "f":
        return 0.0
    if add in ("plus", "times") or mul in ("plus", "times", "minus"):
        return 1e-5 if np.dtype(dt) == np.float32 else 1e-12
    return 0.0


def rmask_vec(rng, n, inputs):
    """(mask argument, kwargs, allowed) for a vector output of size n."""
    if rng.random() < 0.4:
        return None, {}, None
    mv, md = rvector(rng, n, inputs=inputs)
    style = rng.integers(0, 5)
    if style == 0:
        arg, s, c = mv, False, False
    elif style == 1:
        arg, s, c = mv.S, True, False
    elif style == 2:
        arg, s, c = mv.V, False, False
    elif style == 3:
        arg, s, c = ~mv.S, True, True
    else:
        arg, s, c = ~mv.V, False, True
    kw = {}
    if rng.random() < 0.2 and style == 0:
        kw = {"structure": True, "complement": True}
        s, c = True, True
    return (arg, kw, dmask(md, s, c, (n,)), mv)


def rmask_mat(rng, shape, inputs):
    if rng.random() < 0.4:
        return None, {}, None
    Mm, Md = rmatrix(rng, *shape, inputs=inputs)
    style = rng.integers(0, 5)
    arg, s, c = [(Mm, False, False), (Mm.S, True, False), (Mm.V, False, False),
                 (~Mm.S, True, True), (~Mm.V, False, True)][style]
    return (arg, {}, dmask(Md, s, c, shape), Mm)


def rout(rng, shape, inputs, want_kind):
    """(out, its D) or (None, None)."""
    if rng.random() < 0.45:
        return None, None
    if want_kind == "vector":
        return rvector(rng, shape[0], inputs=inputs)
    return rmatrix(rng, *shape, inputs=inputs)


def run_case(kind, rng, stats, fails, case_id):
    inputs = Inputs()
    try:
        msg = CASES[kind](rng, inputs)
    except Exception as e:  # noqa: BLE001
        msg = f"raised {type(e).__name__}: {e}\n{traceback.format_exc(limit=4)}"
    if msg is None:
        stats[kind, "skipped"] += 1
        return
    ch = inputs.changed()
    if ch and not msg:
        msg = f"caller's input array changed: {ch[0]!r}"
    stats[kind, "cases"] += 1
    if msg:
        stats[kind, "fail"] += 1
        fails.append(f"[{kind} case {case_id}] {msg}")


def _unpack_mask(m):
    if m[0] is None and len(m) == 3:
        return None, {}, None, None
    return m


def case_mxv(rng, inputs, vxm=False):
    n, m = int(rng.integers(0, 6)), int(rng.integers(0, 6))
    A, Ad = rmatrix(rng, n, m, inputs=inputs)
    u, ud = rvector(rng, n if vxm else m, inputs=inputs)
    name = SEMIRINGS[rng.integers(len(SEMIRINGS))]
    add, mul = split(name)
    dom = promote(A.dtype, u.dtype)
    nout = m if vxm else n
    if vxm:
        Ud = D(ud.vals[None, :], ud.pres[None, :], ud.dtype)
        T = oproduct(Ud, Ad, add, mul, dom, lambda i, k, j: (0, k, k, j))
        sc = {(j,): v for (i, j), v in T.scale.items()}
        T = D(T.vals[0], T.pres[0], T.dtype)
        T.scale = sc
        cands = None
        if add == "any":
            cands = {(j,): v for (i, j), v in oproduct(Ud, Ad, add, mul, dom,
                                                        lambda i, k, j: (0, k, k, j)).cands.items()}
        T.cands = cands
    else:
        Ud = D(ud.vals[:, None], ud.pres[:, None], ud.dtype)
        T2 = oproduct(Ad, Ud, add, mul, dom, lambda i, k, j: (i, k, k, 0))
        T = D(T2.vals[:, 0], T2.pres[:, 0], T2.dtype)
        T.scale = {(i,): v for (i, j), v in T2.scale.items()}
        T.cands = None if T2.cands is None else {(i,): v for (i, j), v in T2.cands.items()}
    mk = _unpack_mask(rmask_vec(rng, nout, inputs))
    marg, mkw, allowed, mobj = mk
    out, outd = rout(rng, (nout,), inputs, "vector")
    alias = rng.random() < 0.15 and ((vxm and m == n) or (not vxm and n == m))
    if alias:  # out is the input vector itself
        out, outd = u, ud
    if out is not None and rng.random() < 0.2:
        marg, mkw, allowed, mobj = _self_mask(rng, out, outd)
    accum = ACCUMS[rng.integers(len(ACCUMS))] if (out is not None and rng.random() < 0.5) else None
    replace = bool(rng.random() < 0.3) and out is not None
    direction = ["auto", "push", "pull"][rng.integers(3)]
    snap = Snap(A, u, mobj, out)
    kw = dict(out=out, mask=marg, accum=accum, replace=replace, direction=direction, **mkw)
    f = sr.vxm if vxm else sr.mxv
    want = ofinalize(T, outd, allowed, accum, replace)
    reps = 1 if out is not None else int(rng.integers(1, 4))
    for _ in range(reps):
        r = f(u, A, name, **kw) if vxm else f(A, u, name, **kw)
        if out is not None and r is not out:
            return "out= given but not returned"
        msg = compare(r, want, tol_of(dom, add, mul), zsign=zsign_ok(add, mul, accum))
        if msg:
            return f"{'vxm' if vxm else 'mxv'}({name}, A {A.dtype} {A.shape} iso={A.is_iso} " \
                   f"sym={A.transpose_is_self}, u {u.dtype} {u.form}, dir={direction}, " \
                   f"mask={marg!r} {mkw}, accum={accum}, replace={replace}, out=" \
                   f"{None if out is None else out.dtype}, alias={alias}): {msg}\n" \
                   f"  A={Ad.vals.tolist()} pres={Ad.pres.astype(int).tolist()}\n" \
                   f"  u={ud.vals.tolist()} pres={ud.pres.astype(int).tolist()}"
    ch = [a for a, c in snap.items if not _same_arr(a, c)]
    if ch:
        return f"{'vxm' if vxm else 'mxv'}({name}): an input's storage was written: {ch[0]!r}"
    return ""


def case_vxm(rng, inputs):
    return case_mxv(rng, inputs, vxm=True)


def case_mxm(rng, inputs):
    n, k, m = (int(rng.integers(0, 5)) for _ in range(3))
    A, Ad = rmatrix(rng, n, k, inputs=inputs)
    B, Bd = rmatrix(rng, k, m, inputs=inputs)
    alias_b = rng.random() < 0.1 and n == k == m
    if alias_b:
        B, Bd = A, Ad
    name = SEMIRINGS[rng.integers(len(SEMIRINGS))]
    add, mul = split(name)
    dom = promote(A.dtype, B.dtype)
    T = oproduct(Ad, Bd, add, mul, dom, lambda i, kk, j: (i, kk, kk, j))
    marg, mkw, allowed, mobj = _unpack_mask(rmask_mat(rng, (n, m), inputs))
    out, outd = rout(rng, (n, m), inputs, "matrix")
    alias = rng.random() < 0.15 and n == k == m
    if alias:
        which = rng.integers(0, 3)
        if which == 0:
            out, outd = A, Ad
        elif which == 1:
            out, outd = B, Bd
        elif mobj is not None:
            out = mobj
            outd = as_D(mobj)
    accum = ACCUMS[rng.integers(len(ACCUMS))] if (out is not None and rng.random() < 0.5) else None
    replace = bool(rng.random() < 0.3) and out is not None
    method = "auto"
    if rng.random() < 0.4:
        method = "gustavson"
    elif marg is not None and not (isinstance(marg, sr.Mask) and marg.complement) \
            and rng.random() < 0.5:
        method = "dot"
    snap = Snap(A, B, mobj, out)
    want = ofinalize(T, outd, allowed, accum, replace)
    r = sr.mxm(A, B, name, out=out, mask=marg, accum=accum, replace=replace, method=method,
               **mkw)
    msg = compare(r, want, tol_of(dom, add, mul), zsign=zsign_ok(add, mul, accum))
    if msg:
        return f"mxm({name}, A {A.dtype} {A.shape} iso={A.is_iso} symview={A.transpose_is_self}, " \
               f"B {B.dtype} {B.shape} iso={B.is_iso}, method={method}, mask={marg!r}, " \
               f"accum={accum}, replace={replace}, out={None if out is None else out.dtype}, " \
               f"alias={alias}): {msg}\n  A={Ad.vals.tolist()} {Ad.pres.astype(int).tolist()}" \
               f"\n  B={Bd.vals.tolist()} {Bd.pres.astype(int).tolist()}"
    ch = [a for a, c in snap.items if not _same_arr(a, c)]
    if ch:
        return f"mxm({name}): an input's storage was written"
    return ""


def case_mxm_dense(rng, inputs):
    """mxm with a dense operand: a dense result, the identity where no product."""
    n, k, m = (int(rng.integers(0, 5)) for _ in range(3))
    which = rng.integers(0, 3)
    names = [s for s in SEMIRINGS if not split(s)[0] == "any"]
    name = names[rng.integers(len(names))]
    add, mul = split(name)
    dt = DOMAINS[rng.integers(len(DOMAINS))]
    if which == 0:
        A, Ad = rmatrix(rng, n, k, inputs=inputs)
        Bd_ = rvals(dt, k * m, rng).reshape(k, m)
        inputs.add(Bd_)
        B, Bd = Bd_, D(Bd_, np.ones((k, m), bool), dt)
    elif which == 1:
        Ad_ = rvals(dt, n * k, rng).reshape(n, k)
        inputs.add(Ad_)
        A, Ad = Ad_, D(Ad_, np.ones((n, k), bool), dt)
        B, Bd = rmatrix(rng, k, m, inputs=inputs)
    else:
        Ad_ = rvals(dt, n * k, rng).reshape(n, k)
        Bd_ = rvals(dt, k * m, rng).reshape(k, m)
        inputs.add(Ad_, Bd_)
        A, Ad = Ad_, D(Ad_, np.ones((n, k), bool), dt)
        B, Bd = Bd_, D(Bd_, np.ones((k, m), bool), dt)
    dom = promote(A.dtype, B.dtype)
    T = oproduct(Ad, Bd, add, mul, dom, lambda i, kk, j: (i, kk, kk, j))
    ident = {"plus": 0, "times": 1, "min": None, "max": None, "lor": False, "land": True,
             "lxor": False}[add]
    rt = T.dtype
    if add == "min":
        ident = np.inf if rt.kind == "f" else (True if rt == BOOL else np.iinfo(rt).max)
    if add == "max":
        ident = -np.inf if rt.kind == "f" else (False if rt == BOOL else np.iinfo(rt).min)
    full = np.where(T.pres, T.vals, np.asarray(ident).astype(rt) if rt != BOOL else bool(ident))
    # a mask: a bool array (a value mask over the full result) or a sparse one
    allowed, mkw = None, {}
    mstyle = rng.integers(0, 4)
    if mstyle == 1:
        mm = rng.random((n, m)) < 0.5
        inputs.add(mm)
        comp = bool(rng.random() < 0.3)
        mkw = {"mask": mm, "complement": comp}
        allowed = ~mm if comp else mm
    elif mstyle == 2:
        marg, mkw0, allowed, mobj = _unpack_mask(rmask_mat(rng, (n, m), inputs))
        mkw = {"mask": marg, **mkw0}
    use_out = rng.random() < 0.4
    accum = None
    if use_out:
        odt = DOMAINS[rng.integers(len(DOMAINS))]
        out = rvals(odt, n * m, rng).reshape(n, m)
        out0 = out.copy()
        accum = ACCUMS[rng.integers(len(ACCUMS))] if rng.random() < 0.5 else None
        want = np.empty((n, m), dtype=odt)
        for idx in np.ndindex(n, m):
            if allowed is not None and not allowed[idx]:
                want[idx] = out0[idx]
            elif accum is None:
                want[idx] = ocast(full[idx], odt)
            elif T.pres[idx]:
                want[idx] = ocast(obin(accum, out0[idx], ocast(full[idx], odt), odt), odt)
            else:
                want[idx] = out0[idx]
        r = sr.mxm(A, B, name, out=out, accum=accum, **mkw)
        if r is not out:
            return "dense mxm: out not returned"
    else:
        want = full.astype(rt)
        if allowed is not None:
            want = np.where(allowed, want, np.asarray(ident).astype(rt))
        r = sr.mxm(A, B, name, **mkw)
    if not isinstance(r, np.ndarray) or r.shape != (n, m):
        return f"dense mxm: result {type(r)} {getattr(r, 'shape', None)}"
    if r.dtype != want.dtype:
        return f"dense mxm({name}, which={which}, A {A.dtype}, B {B.dtype}): dtype {r.dtype} " \
               f"!= oracle {want.dtype}"
    tol = tol_of(dom, add, mul)
    for idx in np.ndindex(n, m):
        sc = T.scale.get(idx)
        if sc is not None and not math.isinf(sc) and not math.isnan(float(want[idx])) and \
                want.dtype != BOOL and \
                abs(float(r[idx]) - float(want[idx])) <= sc + (want.dtype.kind in "iu"):
            continue  # a float sum's order is the implementation's
        if want.dtype.kind == "f" and want[idx] == 0 and zsign_ok(add, mul, accum) and \
                (not use_out or accum is not None or T.pres[idx]) and \
                np.signbit(r[idx]) != np.signbit(want[idx]):
            return f"dense mxm({name}, which={which}): sign of zero at {idx}: ours " \
                   f"{r[idx]!r} oracle {want[idx]!r}"
        if not close(r[idx], want[idx], want.dtype, tol):
            return f"dense mxm({name}, which={which}, A {A.dtype}, B {B.dtype}, out=" \
                   f"{use_out}, accum={accum}): at {idx} ours {r[idx]!r} oracle {want[idx]!r}" \
                   f"\n  A={Ad.vals.tolist()} {Ad.pres.astype(int).tolist()}" \
                   f"\n  B={Bd.vals.tolist()} {Bd.pres.astype(int).tolist()}"
    return ""


EWISE_OPS = ["plus", "minus", "times", "min", "max", "first", "second", "pair", "any", "lor",
             "land", "lxor", "eq", "ne", "lt", "le", "gt", "ge"]


def _pair_objs(rng, inputs):
    is_m = rng.random() < 0.6
    if is_m:
        n, m = int(rng.integers(0, 5)), int(rng.integers(0, 5))
        a, ad = rmatrix(rng, n, m, inputs=inputs)
        b, bd = rmatrix(rng, n, m, inputs=inputs)
        return is_m, (n, m), a, ad, b, bd
    n = int(rng.integers(0, 7))
    a, ad = rvector(rng, n, inputs=inputs)
    b, bd = rvector(rng, n, inputs=inputs)
    return is_m, (n,), a, ad, b, bd


def _out_mask(rng, is_m, shape, inputs):
    if is_m:
        marg, mkw, allowed, mobj = _unpack_mask(rmask_mat(rng, shape, inputs))
        out, outd = rout(rng, shape, inputs, "matrix")
    else:
        marg, mkw, allowed, mobj = _unpack_mask(rmask_vec(rng, shape[0], inputs))
        out, outd = rout(rng, shape, inputs, "vector")
    if out is not None and rng.random() < 0.2:
        marg, mkw, allowed, mobj = _self_mask(rng, out, outd)
    accum = ACCUMS[rng.integers(len(ACCUMS))] if (out is not None and rng.random() < 0.5) else None
    replace = bool(rng.random() < 0.3) and out is not None
    return marg, mkw, allowed, mobj, out, outd, accum, replace


def _self_mask(rng, out, outd):
    """The output as its own mask (``out=w, mask=w.S``, ``~w.V``, ...)."""
    style = rng.integers(0, 4)
    arg, s, c = [(out.S, True, False), (out.V, False, False), (~out.S, True, True),
                 (~out.V, False, True)][style]
    return arg, {}, dmask(outd, s, c, outd.shape), out


def _pos(idx, is_m):
    return (idx[0], idx[1]) if is_m else (idx[0], 0)


def case_ewise(rng, inputs, union):
    is_m, shape, a, ad, b, bd = _pair_objs(rng, inputs)
    ops = EWISE_OPS + ([] if union else list(POSITIONAL))
    op = ops[rng.integers(len(ops))]
    dom = promote(a.dtype, b.dtype)
    rt = oresult(op, dom)
    T = D(np.zeros(shape, rt), np.zeros(shape, bool), rt)
    cands = {}
    for idx in np.ndindex(*shape):
        pa, pb = ad.pres[idx], bd.pres[idx]
        i, j = _pos(idx, is_m)
        if pa and pb:
            T.vals[idx] = obin(op, ad.vals[idx], bd.vals[idx], dom, (i, j, i, j))
            T.pres[idx] = True
        elif union and (pa or pb):
            T.vals[idx] = ocast(ad.vals[idx] if pa else bd.vals[idx], rt)
            T.pres[idx] = True
    marg, mkw, allowed, mobj, out, outd, accum, replace = _out_mask(rng, is_m, shape, inputs)
    if rng.random() < 0.1:
        out, outd = a, ad
    snap = Snap(a, b, mobj, out)
    want = ofinalize(T, outd, allowed, accum, replace)
    f = sr.ewise_add if union else sr.ewise_mult
    r = f(a, b, op, out=out, mask=marg, accum=accum, replace=replace, **mkw)
    msg = compare(r, want, 0.0, zsign=op not in ("min", "max") and accum not in ("min", "max"))
    if msg:
        return f"{f.__name__}({op}, a {a.dtype} b {b.dtype} {shape}, mask={marg!r}, " \
               f"accum={accum}, replace={replace}, out={None if out is None else out.dtype})" \
               f": {msg}\n  a={ad.vals.tolist()} {ad.pres.astype(int).tolist()}\n" \
               f"  b={bd.vals.tolist()} {bd.pres.astype(int).tolist()}"
    if [a_ for a_, c in snap.items if not _same_arr(a_, c)]:
        return f"{f.__name__}: an input's storage was written"
    return ""


UNARY = ["identity", "ainv", "abs", "minv", "lnot", "one", "rowindex", "colindex"]


def case_apply(rng, inputs):
    is_m = rng.random() < 0.6
    if is_m:
        shape = (int(rng.integers(0, 5)), int(rng.integers(0, 5)))
        a, ad = rmatrix(rng, *shape, inputs=inputs)
    else:
        shape = (int(rng.integers(0, 7)),)
        a, ad = rvector(rng, shape[0], inputs=inputs)
    bound = None
    if rng.random() < 0.5:
        op = UNARY[rng.integers(len(UNARY))]
        rt = np.dtype(np.int64) if op in ("rowindex", "colindex") else a.dtype
        dom = a.dtype
    else:
        op = (EWISE_OPS + list(POSITIONAL))[rng.integers(len(EWISE_OPS) + 4)]
        bdt = DOMAINS[rng.integers(len(DOMAINS))]
        bound = rvals(bdt, 1, rng)[0]
        if rng.random() < 0.3:  # a Python scalar
            bound = bound.item()
        side = "left" if rng.random() < 0.5 else "right"
        dom = promote(a.dtype, np.result_type(a.dtype, bound))
        rt = oresult(op, dom)
    T = D(np.zeros(shape, rt), np.zeros(shape, bool), rt)
    for idx in zip(*np.nonzero(ad.pres)):
        i, j = _pos(idx, is_m)
        if bound is None:
            T.vals[idx] = ounary(op, ad.vals[idx], dom, i, j)
        else:
            s = ocast(bound, dom)
            x, y = (s, ad.vals[idx]) if side == "left" else (ad.vals[idx], s)
            T.vals[idx] = obin(op, x, y, dom, (i, j, i, j))
        T.pres[idx] = True
    marg, mkw, allowed, mobj, out, outd, accum, replace = _out_mask(rng, is_m, shape, inputs)
    if rng.random() < 0.15:
        out, outd = a, ad
    snap = Snap(a, mobj, out)
    want = ofinalize(T, outd, allowed, accum, replace)
    kw = {} if bound is None else {side: bound}
    r = sr.apply(a, op, out=out, mask=marg, accum=accum, replace=replace, **kw, **mkw)
    msg = compare(r, want, 0.0, zsign=op not in ("min", "max") and accum not in ("min", "max"))
    if msg:
        return f"apply({op}, {kw}, a {a.dtype} {shape}, mask={marg!r}, accum={accum}, " \
               f"out={None if out is None else out.dtype}): {msg}\n" \
               f"  a={ad.vals.tolist()} {ad.pres.astype(int).tolist()}"
    if [a_ for a_, c in snap.items if not _same_arr(a_, c)]:
        return "apply: an input's storage was written"
    return ""


SELECT = {"tril": "offset", "triu": "offset", "diag": "offset", "offdiag": "offset",
          "rowle": "index", "rowgt": "index", "colle": "index", "colgt": "index",
          "nonzero": None, "zero": None, "valueeq": "value", "valuene": "value",
          "valuelt": "value", "valuele": "value", "valuegt": "value", "valuege": "value"}


def case_select(rng, inputs):
    is_m = rng.random() < 0.6
    if is_m:
        shape = (int(rng.integers(0, 5)), int(rng.integers(0, 5)))
        a, ad = rmatrix(rng, *shape, inputs=inputs)
    else:
        shape = (int(rng.integers(0, 7)),)
        a, ad = rvector(rng, shape[0], inputs=inputs)
    op = list(SELECT)[rng.integers(len(SELECT))]
    kind = SELECT[op]
    thunk = None
    if kind in ("offset", "index"):
        thunk = int(rng.integers(-3, 4)) if (kind == "index" or rng.random() < 0.7) else None
        if thunk is not None and rng.random() < 0.15:
            thunk = [2**63 - 1, 2**63, -2**63, 2**40, -2**31 - 1][rng.integers(5)]
    elif kind == "value":
        tdt = [a.dtype, DOMAINS[rng.integers(len(DOMAINS))]][rng.integers(2)]
        thunk = rvals(tdt, 1, rng)[0]
        if rng.random() < 0.3:  # a Python scalar, maybe outside the values' type
            thunk = [thunk.item(), 2**31, -2**31 - 1, 2**40, 2**63, -2**63, 2**63 - 1,
                     2.5][rng.integers(8)]
    T = D(np.zeros(shape, a.dtype), np.zeros(shape, bool), a.dtype)
    for idx in zip(*np.nonzero(ad.pres)):
        i, j = (int(t) for t in _pos(idx, is_m))  # (Python ints: exact for any thunk)
        v = ad.vals[idx]
        k = 0 if thunk is None else thunk
        if kind == "value" and isinstance(thunk, int) and a.dtype.kind in "biu":
            x, t = int(v), thunk  # an integer thunk: compared exactly (as NumPy 2 does)
            keep = {"valueeq": x == t, "valuene": x != t, "valuelt": x < t, "valuele": x <= t,
                    "valuegt": x > t, "valuege": x >= t}[op]
        elif kind == "value":
            cdt = promote(a.dtype, np.result_type(a.dtype, thunk))
            x, t = ocast(v, cdt), ocast(thunk, cdt)
            keep = {"valueeq": x == t, "valuene": x != t, "valuelt": x < t, "valuele": x <= t,
                    "valuegt": x > t, "valuege": x >= t}[op]
        else:
            keep = {"tril": j <= i + k, "triu": j >= i + k, "diag": j == i + k,
                    "offdiag": j != i + k, "rowle": i <= k, "rowgt": i > k, "colle": j <= k,
                    "colgt": j > k, "nonzero": v != 0, "zero": v == 0}[op]
        if keep:
            T.vals[idx], T.pres[idx] = v, True
    marg, mkw, allowed, mobj, out, outd, accum, replace = _out_mask(rng, is_m, shape, inputs)
    if rng.random() < 0.15:
        out, outd = a, ad
    snap = Snap(a, mobj, out)
    want = ofinalize(T, outd, allowed, accum, replace)
    r = sr.select(a, op, thunk, out=out, mask=marg, accum=accum, replace=replace, **mkw)
    msg = compare(r, want, 0.0, zsign=True)
    if msg:
        return f"select({op}, {thunk!r}, a {a.dtype} {shape}, accum={accum}): {msg}\n" \
               f"  a={ad.vals.tolist()} {ad.pres.astype(int).tolist()}"
    if [a_ for a_, c in snap.items if not _same_arr(a_, c)]:
        return "select: an input's storage was written"
    return ""


def case_reduce(rng, inputs):
    n, m = int(rng.integers(0, 5)), int(rng.integers(0, 5))
    A, Ad = rmatrix(rng, n, m, inputs=inputs)
    mono = MONOIDS[rng.integers(len(MONOIDS))]
    dom = BOOL if mono in ("lor", "land", "lxor") else A.dtype
    which = ["rows", "cols", "scalar", "vscalar"][rng.integers(4)]
    tol = tol_of(dom, mono, "")
    snap = Snap(A)
    if which in ("scalar", "vscalar"):
        if which == "vscalar":
            v, vd = rvector(rng, n, inputs=inputs)
            dom = BOOL if mono in ("lor", "land", "lxor") else v.dtype
            tol = tol_of(dom, mono, "")
            vals = [ocast(x, dom) for x in vd.vals[vd.pres]]
            obj = v
        else:
            vals = [ocast(x, dom) for x in Ad.vals[Ad.pres]]
            obj = A
        ident = {"plus": 0, "times": 1, "any": 0, "lor": False, "land": True, "lxor": False}
        if vals:
            want = ofold(mono, vals, dom)
        elif mono == "min":
            want = ocast(np.inf, dom) if dom.kind == "f" else (
                np.bool_(True) if dom == BOOL else dom.type(np.iinfo(dom).max))
        elif mono == "max":
            want = ocast(-np.inf, dom) if dom.kind == "f" else (
                np.bool_(False) if dom == BOOL else dom.type(np.iinfo(dom).min))
        else:
            want = ocast(ident[mono], dom)
        accum = None
        if rng.random() < 0.3:
            accum = ["plus", "min", "max", "times", "first", "second"][rng.integers(6)]
            odt = DOMAINS[rng.integers(len(DOMAINS))]
            o = rvals(odt, 1, rng)[0]
            want = ocast(obin(accum, o, ocast(want, odt), odt), odt)
            r = sr.reduce_scalar(obj, mono, accum=accum, out=o)
        else:
            r = sr.reduce_scalar(obj, mono)
        rd = np.asarray(r).dtype
        if rd != np.asarray(want).dtype:
            return f"reduce_scalar({mono}, {obj.dtype}, accum={accum}): dtype {rd} != " \
                   f"{np.asarray(want).dtype}"
        if mono == "any" and vals and accum is None:
            if _key(r) not in {_key(x) for x in vals}:
                return f"reduce_scalar(any): {r!r} not among {vals}"
        elif mono == "plus" and dom.kind == "f" and len(vals) > 1 and accum is None and \
                not math.isnan(float(want)) and abs(float(r) - float(want)) <= \
                sum(abs(float(x)) for x in vals) * 16 * float(np.finfo(dom).eps):
            pass  # (a float sum's order: the implementation's)
        elif not close(r, want, np.asarray(want).dtype, tol):
            return f"reduce_scalar({mono}, {obj.dtype} {vals}, accum={accum}): ours {r!r} " \
                   f"oracle {want!r}"
        return ""
    src = Ad if which == "rows" else Ad.T()
    size = src.shape[0]
    T = D(np.zeros(size, dom), np.zeros(size, bool), dom)
    cands = {}
    for i in range(size):
        vals = [ocast(x, dom) for x in src.vals[i][src.pres[i]]]
        if vals:
            T.vals[i], T.pres[i] = ofold(mono, vals, dom), True
            cands[(i,)] = vals
            if mono == "plus" and dom.kind == "f" and len(vals) > 1:
                with np.errstate(all="ignore"):  # (a float sum's order: the implementation's)
                    T.scale[(i,)] = float(sum(abs(float(x)) for x in vals)) * 16 * \
                        float(np.finfo(dom).eps)
    if mono == "any":
        T.cands = cands
    marg, mkw, allowed, mobj, out, outd, accum, replace = _out_mask(rng, False, (size,), inputs)
    want = ofinalize(T, outd, allowed, accum, replace)
    f = sr.reduce_rows if which == "rows" else sr.reduce_cols
    r = f(A, mono, out=out, mask=marg, accum=accum, replace=replace, **mkw)
    msg = compare(r, want, tol, zsign=zsign_ok(mono, 'first', accum))
    if msg:
        return f"reduce_{which}({mono}, A {A.dtype} {A.shape}, accum={accum}): {msg}\n" \
               f"  A={Ad.vals.tolist()} {Ad.pres.astype(int).tolist()}"
    if [a_ for a_, c in snap.items if not _same_arr(a_, c)]:
        return "reduce: an input's storage was written"
    return ""


def _rindex(rng, n):
    style = rng.integers(0, 4)
    if style == 0:
        return None, np.arange(n)
    if style == 1 and n:
        a, b = sorted(rng.integers(0, n + 1, 2))
        st = int(rng.integers(1, 3))
        if rng.random() < 0.3:
            return slice(b, a, -st) if b > a else slice(a, b, st), np.arange(n)[
                slice(b, a, -st) if b > a else slice(a, b, st)]
        return slice(a, b, st), np.arange(n)[a:b:st]
    k = int(rng.integers(0, n + 2)) if n else 0
    idx = rng.integers(0, n, k) if n else np.zeros(0, np.int64)
    idx = idx.astype([np.int64, np.int32, np.uint32][rng.integers(3)])
    return idx, idx.astype(np.int64)


def case_extract(rng, inputs):
    is_m = rng.random() < 0.6
    if is_m:
        n, m = int(rng.integers(0, 5)), int(rng.integers(0, 5))
        a, ad = rmatrix(rng, n, m, inputs=inputs)
        rows, I = _rindex(rng, n)
        cols, J = _rindex(rng, m)
        shape = (I.size, J.size)
        T = D(ad.vals[np.ix_(I, J)], ad.pres[np.ix_(I, J)], a.dtype)
    else:
        n = int(rng.integers(0, 7))
        a, ad = rvector(rng, n, inputs=inputs)
        rows, I = _rindex(rng, n)
        cols = None
        shape = (I.size,)
        T = D(ad.vals[I], ad.pres[I], a.dtype)
    for x in (rows, cols):
        if isinstance(x, np.ndarray):
            inputs.add(x)
    marg, mkw, allowed, mobj, out, outd, accum, replace = _out_mask(rng, is_m, shape, inputs)
    snap = Snap(a, mobj, out)
    want = ofinalize(T, outd, allowed, accum, replace)
    r = sr.extract(a, rows, cols, out=out, mask=marg, accum=accum, replace=replace, **mkw)
    msg = compare(r, want, 0.0, zsign=True)
    if msg:
        return f"extract(a {a.dtype} {ad.shape}, rows={rows!r}, cols={cols!r}, accum={accum}" \
               f"): {msg}"
    if [a_ for a_, c in snap.items if not _same_arr(a_, c)]:
        return "extract: an input's storage was written"
    return ""


def case_assign(rng, inputs):
    is_m = rng.random() < 0.6
    if is_m:
        n, m = int(rng.integers(0, 5)), int(rng.integers(0, 5))
        out, outd = rmatrix(rng, n, m, inputs=inputs)
        shape = (n, m)
    else:
        n = int(rng.integers(0, 7))
        out, outd = rvector(rng, n, inputs=inputs)
        shape = (n,)

    def uniq(k):
        style = rng.integers(0, 3)
        if style == 0:
            return None, np.arange(k)
        if style == 1 and k:
            a, b = sorted(rng.integers(0, k + 1, 2))
            return slice(a, b), np.arange(k)[a:b]
        perm = rng.permutation(k)[:int(rng.integers(0, k + 1))] if k else np.zeros(0, np.int64)
        return perm, perm

    rows, I = uniq(shape[0])
    if is_m:
        cols, J = uniq(shape[1])
    else:
        cols, J = None, np.zeros(1, np.int64)
    scalar = rng.random() < 0.35
    dt = out.dtype
    if scalar:
        vdt = DOMAINS[rng.integers(len(DOMAINS))]
        value = rvals(vdt, 1, rng)[0]
        vd = D(np.full((I.size, J.size), ocast(value, dt)), np.ones((I.size, J.size), bool), dt)
    elif is_m:
        value, vd0 = rmatrix(rng, I.size, J.size, inputs=inputs)
        vd = vd0
    else:
        value, vd0 = rvector(rng, I.size, inputs=inputs)
        vd = D(vd0.vals[:, None], vd0.pres[:, None], vd0.dtype)
    accum = ACCUMS[rng.integers(len(ACCUMS))] if rng.random() < 0.4 else None
    marg, mkw, allowed, mobj = _unpack_mask(
        rmask_mat(rng, shape, inputs) if is_m else rmask_vec(rng, shape[0], inputs))
    replace = bool(rng.random() < 0.3)
    # Z = out with the region (I, J) replaced by value (or out ⊙ value there)
    od2 = outd if is_m else D(outd.vals[:, None], outd.pres[:, None], dt)
    Z = od2.copy()
    for p, i in enumerate(I):
        for q, j in enumerate(J):
            vp = vd.pres[p, q]
            vv = ocast(vd.vals[p, q], dt)
            if accum is None:
                Z.pres[i, j] = vp
                Z.vals[i, j] = vv if vp else 0
            elif vp and od2.pres[i, j]:
                Z.vals[i, j] = ocast(obin(accum, od2.vals[i, j], vv, dt), dt)
            elif vp:
                Z.vals[i, j], Z.pres[i, j] = vv, True
    if not is_m:
        Z = D(Z.vals[:, 0], Z.pres[:, 0], dt)
    want = ofinalize(Z, outd, allowed, None, replace)
    snap = Snap(mobj, value if not scalar else None)
    r = sr.assign(out, value, rows, cols, mask=marg, accum=accum, replace=replace, **mkw)
    if r is not out:
        return "assign: out not returned"
    msg = compare(r, want, 0.0, zsign=accum not in ("min", "max", "any"))
    if msg:
        return f"assign(out {dt} {shape}, value={'scalar ' + repr(value) if scalar else value}" \
               f", rows={rows!r}, cols={cols!r}, accum={accum}, mask={marg!r}, replace=" \
               f"{replace}): {msg}"
    if [a_ for a_, c in snap.items if not _same_arr(a_, c)]:
        return "assign: an input's storage was written"
    return ""


def case_transpose(rng, inputs):
    n, m = int(rng.integers(0, 5)), int(rng.integers(0, 5))
    A, Ad = rmatrix(rng, n, m, inputs=inputs)
    T = Ad.T()
    marg, mkw, allowed, mobj, out, outd, accum, replace = _out_mask(rng, True, (m, n), inputs)
    if rng.random() < 0.15 and n == m:
        out, outd = A, Ad
    snap = Snap(A, mobj, out)
    want = ofinalize(T, outd, allowed, accum, replace)
    r = sr.transpose(A, out=out, mask=marg, accum=accum, replace=replace, **mkw)
    msg = compare(r, want, 0.0, zsign=True)
    if msg:
        return f"transpose(A {A.dtype} {A.shape}, accum={accum}, out=" \
               f"{None if out is None else out is A}): {msg}"
    if [a_ for a_, c in snap.items if not _same_arr(a_, c)]:
        return "transpose: an input's storage was written"
    # A itself must still read as before (a transpose written into an alias of A aside)
    if out is not A:
        msg = compare(A, Ad, 0.0)
        if msg:
            return f"transpose: A changed: {msg}"
    return ""


def case_construct(rng, inputs):
    """Constructors and read-back: to_dense, to_coo, to_scipy, from_* round trips, and that
    a read-back array written by the caller does not change the object."""
    if rng.random() < 0.5:
        n, m = int(rng.integers(0, 5)), int(rng.integers(0, 5))
        A, Ad = rmatrix(rng, n, m, inputs=inputs)
        msg = compare(A, Ad, 0.0, zsign=True)
        if msg:
            return f"matrix construction: {msg}"
        r, c, v = A.to_coo()
        if v.size:
            v0 = v.copy()
            v[0] = ~v[0] if v.dtype == BOOL else v[0] + 1 if v.dtype.kind != "f" else 99.0
            msg = compare(A, Ad, 0.0)
            v[:] = v0
            if msg:
                return f"Matrix.to_coo's values alias the matrix's storage: after writing " \
                       f"into them: {msg}"
        dn = A.to_dense(missing=0)
        if dn.size:
            dn[...] = 1
            msg = compare(A, Ad, 0.0)
            if msg:
                return f"Matrix.to_dense aliases: {msg}"
        return ""
    n = int(rng.integers(0, 7))
    u, ud = rvector(rng, n, inputs=inputs)
    msg = compare(u, ud, 0.0, zsign=True)
    if msg:
        return f"vector construction: {msg}"
    i, v = u.to_coo()
    if v.size:
        v[0] = ~v[0] if v.dtype == BOOL else 99
        msg = compare(u, ud, 0.0)
        if msg:
            return f"Vector.to_coo aliases: {msg}"
    dn = u.to_dense(missing=0)
    if dn.size:
        dn[...] = 1
        msg = compare(u, ud, 0.0)
        if msg:
            return f"Vector.to_dense aliases: {msg}"
    return ""


def rmatrix_regular(rng, n, m, dt, lengths, iso=False):
    """A matrix whose rows have one of a few lengths (the CPU backend's row plans group rows
    by length; past PLAN_MIN_ENTRIES_PER_GROUP entries a length they are built)."""
    pres = np.zeros((n, m), bool)
    for i in range(n):
        d = min(int(lengths[rng.integers(len(lengths))]), m)
        pres[i, rng.choice(m, d, replace=False)] = True
    vals = np.zeros((n, m), dt)
    vals[pres] = rvals(dt, 1, rng)[0] if iso else rvals(dt, int(pres.sum()), rng)
    r, c = np.nonzero(pres)
    if iso:
        A = sr.Matrix.from_coo(r, c, vals[pres][0] if r.size else dt.type(1), nrows=n,
                               ncols=m, dtype=dt, device="cpu")
    else:
        A = sr.Matrix.from_coo(r, c, vals[r, c], nrows=n, ncols=m, device="cpu")
    return A, D(vals, pres, dt)


def case_mxv_medium(rng, inputs):
    """Larger products, called several times with one matrix: the CPU backend's kept routes,
    row plans (padded or not), SciPy's kernels and the compiled loops, each settled on a
    matrix's first, second or later product."""
    vxm = rng.random() < 0.5
    n = int(rng.integers(40, 400))
    m = int(rng.integers(1, 80))
    dt = DOMAINS[rng.integers(len(DOMAINS))]
    nl = int(rng.integers(1, 3))
    lengths = rng.integers(0, min(m, 40) + 1, nl)
    A, Ad = rmatrix_regular(rng, n, m, dt, lengths, iso=rng.random() < 0.2)
    if rng.random() < 0.3 and False:
        pass
    if vxm:  # u ⊕.⊗ A with A given as the transpose of the regular one
        A, Ad = A.T, Ad.T()
    name = SEMIRINGS[rng.integers(len(SEMIRINGS))]
    add, mul = split(name)
    udt = [dt, DOMAINS[rng.integers(len(DOMAINS))]][rng.integers(2)]
    k = A.nrows if vxm else A.ncols
    u, ud = rvector(rng, k, dt=udt, density=[1.0, 1.0, 0.5, 0.05][rng.integers(4)],
                    inputs=inputs)
    dom = promote(A.dtype, u.dtype)
    if vxm:
        Ud = D(ud.vals[None, :], ud.pres[None, :], ud.dtype)
        T2 = oproduct(Ud, Ad, add, mul, dom, lambda i, kk, j: (0, kk, kk, j))
        T = D(T2.vals[0], T2.pres[0], T2.dtype)
        T.cands = None if T2.cands is None else {(j,): v for (i, j), v in T2.cands.items()}
        T.scale = {(j,): v for (i, j), v in T2.scale.items()}
    else:
        Ud = D(ud.vals[:, None], ud.pres[:, None], ud.dtype)
        T2 = oproduct(Ad, Ud, add, mul, dom, lambda i, kk, j: (i, kk, kk, 0))
        T = D(T2.vals[:, 0], T2.pres[:, 0], T2.dtype)
        T.cands = None if T2.cands is None else {(i,): v for (i, j), v in T2.cands.items()}
        T.scale = {(i,): v for (i, j), v in T2.scale.items()}
    masked = rng.random() < 0.25
    nout = T.shape[0]
    for rep in range(4):
        if masked:
            marg, mkw, allowed, mobj = _unpack_mask(rmask_vec(rng, nout, inputs))
        else:
            marg, mkw, allowed = None, {}, None
        uu = u
        if rep == 3 and u.nvals == u.size and rng.random() < 0.5:
            uu = u.bitmap()[0].copy()  # a plain NumPy array of the vector's type
        want = ofinalize(T, None, allowed, None, False)
        f = sr.vxm if vxm else sr.mxv
        r = f(uu, A, name, mask=marg, **mkw) if vxm else f(A, uu, name, mask=marg, **mkw)
        msg = compare(r, want, tol_of(dom, add, mul), zsign=zsign_ok(add, mul))
        if msg:
            return f"{'vxm' if vxm else 'mxv'} medium rep {rep} ({name}, A {A.dtype} " \
                   f"{A.shape} nvals={A.nvals} iso={A.is_iso} lengths={lengths.tolist()}, u " \
                   f"{u.dtype} nvals={u.nvals} {u.form}, mask={marg!r}): {msg}"
    return ""


def case_mxm_medium(rng, inputs):
    n, k, m = int(rng.integers(5, 30)), int(rng.integers(1, 30)), int(rng.integers(1, 30))
    dt = DOMAINS[rng.integers(len(DOMAINS))]
    A, Ad = rmatrix_regular(rng, n, k, dt, rng.integers(0, k + 1, 2), iso=rng.random() < 0.2)
    B, Bd = rmatrix_regular(rng, k, m, DOMAINS[rng.integers(len(DOMAINS))],
                            rng.integers(0, m + 1, 2))
    name = SEMIRINGS[rng.integers(len(SEMIRINGS))]
    add, mul = split(name)
    dom = promote(A.dtype, B.dtype)
    T = oproduct(Ad, Bd, add, mul, dom, lambda i, kk, j: (i, kk, kk, j))
    marg, mkw, allowed, mobj = _unpack_mask(rmask_mat(rng, (n, m), inputs))
    for rep in range(2):
        method = ["auto", "gustavson", "dot"][rng.integers(3)]
        if method == "dot" and (marg is None or (isinstance(marg, sr.Mask) and marg.complement)):
            method = "auto"
        want = ofinalize(T, None, allowed, None, False)
        r = sr.mxm(A, B, name, mask=marg, method=method, **mkw)
        msg = compare(r, want, tol_of(dom, add, mul), zsign=zsign_ok(add, mul))
        if msg:
            return f"mxm medium ({name}, A {A.dtype} {A.shape} iso={A.is_iso}, B {B.dtype} " \
                   f"{B.shape}, method={method}, mask={marg!r}): {msg}"
    return ""


CASES = {
    "mxv": case_mxv, "vxm": case_vxm, "mxm": case_mxm, "mxm_dense": case_mxm_dense,
    "ewise_add": lambda rng, inp: case_ewise(rng, inp, True),
    "ewise_mult": lambda rng, inp: case_ewise(rng, inp, False),
    "apply": case_apply, "select": case_select, "reduce": case_reduce,
    "extract": case_extract, "assign": case_assign, "transpose": case_transpose,
    "construct": case_construct, "mxv_medium": case_mxv_medium,
    "mxm_medium": case_mxm_medium,
}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=300, help="random cases per op")
    p.add_argument("--seed", type=int, default=22)
    p.add_argument("--only", action="append", help="an op of %s" % sorted(CASES))
    p.add_argument("--max-fails", type=int, default=30)
    a = p.parse_args(argv)
    stats = collections.Counter()
    fails = []
    kinds = a.only or list(CASES)
    for kind in kinds:
        for c in range(a.cases):
            rng = np.random.default_rng([a.seed, c, zlib.crc32(kind.encode())])
            run_case(kind, rng, stats, fails, c)
    for f in fails[:a.max_fails]:
        print(f)
        print()
    print(f"{'op':12s} {'cases':>6s} {'fail':>5s}")
    for kind in kinds:
        print(f"{kind:12s} {stats[kind, 'cases']:6d} {stats[kind, 'fail']:5d}")
    print(f"total failures: {len(fails)}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
