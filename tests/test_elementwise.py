"""Element-wise and structural operations × ops × dtypes × mask / accum / replace, on every
backend, against the dense NumPy oracle (tests/oracle.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import semiring as sr
from conftest import to_host
from oracle import assign as o_assign
from oracle import coords, ewise, extract as o_extract, finalize, reduce_rows as o_reduce_rows
from strategies import DTYPES, dense_matrix, dense_vector, make_matrix, make_vector

MASKS = [None, "V", "S", "~V", "~S"]
ACCUMS = [None, "plus", "min", "second", "times", "lor"]
EWISE_OPS = ["plus", "minus", "times", "min", "max", "first", "second", "pair", "any", "lor",
             "land", "lxor", "eq", "ne", "lt", "ge"]
POSITIONAL = ["firsti", "firstj", "secondi", "secondj"]


# ---------------------------------------------------------------------- drawing helpers

def draw_shape(data, kind, max_dim=8):
    if kind == "matrix":
        return (data.draw(st.integers(0, max_dim), label="nrows"),
                data.draw(st.integers(0, max_dim), label="ncols"))
    return (data.draw(st.integers(0, 12), label="size"),)


def draw_operand(data, shape, dtype, device, label):
    """(object, dense values, presence): a Matrix (maybe iso, maybe int64 indices) or a
    Vector (either form)."""
    if len(shape) == 2:
        d, p = data.draw(dense_matrix(nrows=shape[0], ncols=shape[1], dtype=dtype), label=label)
        d = _with_nans(data, d, label)
        iso = data.draw(st.booleans(), label=f"{label} iso")
        if iso:
            d = np.ones_like(d).astype(np.bool_)
        obj = make_matrix(d, p, device, iso=iso, int64=data.draw(st.booleans(), label=f"{label} int64"))
        return obj, d, p
    d, p = data.draw(dense_vector(shape[0], dtype), label=label)
    d = _with_nans(data, d, label)
    return make_vector(d, p, device, data.draw(st.sampled_from(["bitmap", "sparse"]))), d, p


def _with_nans(data, d, label):
    """Float values with some NaNs (fmin/fmax ignore them, comparisons are false)."""
    if d.dtype.kind == "f" and d.size and data.draw(st.booleans(), label=f"{label} NaNs"):
        d = d.copy()
        d.flat[data.draw(st.lists(st.integers(0, d.size - 1), max_size=3), label=f"{label} NaN at")] = np.nan
    return d


def draw_output(data, shape, rtype, device):
    """Keywords (out, mask, accum, replace) and the oracle's view of them."""
    kwargs = {}
    allowed = None
    mkind = data.draw(st.sampled_from(MASKS), label="mask")
    if mkind is not None:
        m, md, mp = draw_operand(data, shape, None, device, "mask")
        structure = "S" in mkind
        mask = m.S if structure else m.V
        allowed = mp if structure else (mp & (md != 0))
        if mkind.startswith("~"):
            mask, allowed = ~mask, ~allowed
        kwargs["mask"] = mask
    use_out = data.draw(st.booleans(), label="out")
    out_dtype = np.dtype(rtype)
    acc, replace = None, False
    if use_out:
        # casting inf/nan to an integer is undefined (NumPy and CuPy differ): floats stay floats
        safe = [np.float32, np.float64] if out_dtype.kind == "f" else DTYPES
        out_dtype = np.dtype(data.draw(st.sampled_from([out_dtype] + safe), label="out.dtype"))
        out, wd, wp = draw_operand(data, shape, out_dtype, device, "out")
        if out.dtype != out_dtype:  # an iso draw is bool; keep the requested type
            out = out._cast(out_dtype)
            wd = wd.astype(out_dtype)
        accum = data.draw(st.sampled_from(ACCUMS), label="accum")
        replace = data.draw(st.booleans(), label="replace")
        kwargs.update(out=out, replace=replace)
        if accum is not None:
            kwargs["accum"] = accum
            acc = sr.ops.lookup("binary", accum, op="test", arg="accum")
    else:
        wd, wp = np.zeros(shape, dtype=out_dtype), np.zeros(shape, dtype=bool)
    return kwargs, (wd, wp, allowed, acc, replace, out_dtype)


def expected(td, tp, view):
    wd, wp, allowed, acc, replace, out_dtype = view
    with np.errstate(all="ignore"):
        return finalize(wd, wp, td, tp, allowed, acc, replace, out_dtype)


def dense_of(result):
    """(values, present) of a result on the host."""
    if isinstance(result, sr.Matrix):
        rows, cols, vals = (to_host(a) for a in result.to_coo())
        d = np.zeros(result.shape, dtype=result.dtype)
        p = np.zeros(result.shape, dtype=bool)
        d[rows, cols] = vals
        p[rows, cols] = True
        return d, p
    idx, vals = (to_host(a) for a in result.to_coo())
    d = np.zeros(result.size, dtype=result.dtype)
    p = np.zeros(result.size, dtype=bool)
    d[idx] = vals
    p[idx] = True
    return d, p


def check(result, exp_d, exp_p, *, inexact=False):
    d, p = dense_of(result)
    np.testing.assert_array_equal(p, exp_p)
    got, want = d[exp_p], exp_d[exp_p].astype(result.dtype)
    if inexact:
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-5,
                                   atol=1e-6, equal_nan=True)
    elif got.dtype.kind == "f":
        np.testing.assert_array_equal(got, want)  # NaN equals NaN here
    else:
        assert (got == want).all(), (got, want)
    if isinstance(result, sr.Matrix):  # canonical CSR: sorted unique columns per row
        ip, ix = to_host(result.indptr), to_host(result.indices)
        assert ip[0] == 0 and ip[-1] == ix.size and (np.diff(ip) >= 0).all()
        rows = np.repeat(np.arange(result.nrows), np.diff(ip))
        assert not ((rows[1:] == rows[:-1]) & (ix[1:] <= ix[:-1])).any()


def snapshot(obj):
    return dense_of(obj) if obj is not None else None


def assert_unchanged(obj, snap):
    d, p = dense_of(obj)
    np.testing.assert_array_equal(p, snap[1])
    np.testing.assert_array_equal(d[p], snap[0][p])


# ---------------------------------------------------------------------- ewise_add / ewise_mult

@pytest.mark.parametrize("kind", ["matrix", "vector"])
@given(data=st.data())
def test_ewise_against_oracle(device, kind, data):
    which = data.draw(st.sampled_from(["add", "mult"]), label="which")
    ops = EWISE_OPS + (POSITIONAL if which == "mult" else [])
    opname = data.draw(st.sampled_from(ops), label="op")
    op = sr.ops.lookup("binary", opname, op="test", arg="op")
    shape = draw_shape(data, kind)
    adt = data.draw(st.sampled_from(DTYPES), label="a.dtype")
    bdt = data.draw(st.sampled_from([adt, *DTYPES]), label="b.dtype")
    a, ad, ap = draw_operand(data, shape, adt, device, "a")
    b, bd, bp = draw_operand(data, shape, bdt, device, "b")
    with np.errstate(all="ignore"):
        td, tp = ewise(which, ad, ap, bd, bp, op)
    kwargs, view = draw_output(data, shape, td.dtype, device)
    sa, sb = snapshot(a), snapshot(b)
    spelling = data.draw(st.sampled_from(["eager", "sugar", "monoid"]), label="spelling")
    if spelling == "sugar":
        expr = (a | b) if which == "add" else (a & b)
        result = op(expr, **kwargs)
    elif spelling == "monoid" and opname in sr.ops.list_names("monoid"):
        expr = (a | b) if which == "add" else (a & b)
        result = getattr(sr.monoid, opname)(expr, **kwargs)
    else:
        f = sr.ewise_add if which == "add" else sr.ewise_mult
        result = f(a, b, opname, **kwargs)
    if "out" in kwargs:
        assert result is kwargs["out"] and result.dtype == view[-1]
    exp_d, exp_p = expected(td, tp, view)
    check(result, exp_d, exp_p)
    assert_unchanged(a, sa)
    if not ("out" in kwargs and kwargs["out"] is b):
        assert_unchanged(b, sb)


def test_ewise_defaults_and_sugar(device):
    A = sr.Matrix.from_coo([0, 1], [1, 0], [2, 3], nrows=2, ncols=2, device=device)
    B = sr.Matrix.from_coo([0, 1], [1, 1], [5, 7], nrows=2, ncols=2, device=device)
    assert (A | B).new().isequal(sr.ewise_add(A, B, "plus"))
    assert (A & B).new().isequal(sr.ewise_mult(A, B, "times"))
    np.testing.assert_array_equal(to_host(sr.binary.min(A | B).to_dense(missing=0)), [[0, 2], [3, 7]])
    np.testing.assert_array_equal(to_host(sr.monoid.max(A & B).to_dense(missing=0)), [[0, 5], [0, 0]])
    Ab = sr.Matrix.from_coo([0], [0], True, nrows=2, ncols=2, device=device)
    Bb = sr.Matrix.from_coo([0, 1], [0, 1], True, nrows=2, ncols=2, device=device)
    assert (Ab | Bb).new().nvals == 2 and (Ab & Bb).new().nvals == 1  # or / and on bool
    with pytest.raises(sr.DimensionMismatch, match=r"a \| b: a.shape \(=\(2, 2\)\) must equal b.shape \(=\(3, 2\)\)"):
        A | sr.Matrix.from_coo([], [], [], nrows=3, ncols=2, device=device)
    with pytest.raises(sr.DomainMismatch, match="both be matrices or both vectors"):
        A & sr.Vector.new(2, device=device)
    with pytest.raises(sr.DomainMismatch, match="expected an element-wise expression"):
        sr.binary.plus(A)


# ---------------------------------------------------------------------- apply

UNARY = sr.ops.list_names("unary", builtin=True)
APPLY_BINARY = ["plus", "minus", "times", "min", "max", "first", "second", "lt", "ge", "firsti",
                "secondj"]


@pytest.mark.parametrize("kind", ["matrix", "vector"])
@given(data=st.data())
def test_apply_against_oracle(device, kind, data):
    shape = draw_shape(data, kind)
    adt = data.draw(st.sampled_from(DTYPES), label="a.dtype")
    a, ad, ap = draw_operand(data, shape, adt, device, "a")
    i, j = coords(ad.shape)
    side = data.draw(st.sampled_from([None, "left", "right"]), label="bound")
    with np.errstate(all="ignore"):
        if side is None:
            opname = data.draw(st.sampled_from(UNARY), label="op")
            op = sr.ops.lookup("unary", opname, op="test", arg="op")
            td = op.apply_numpy(ad.astype(a.dtype), a.dtype, pos=(i, j))
            call = {}
        else:
            opname = data.draw(st.sampled_from(APPLY_BINARY), label="op")
            op = sr.ops.lookup("binary", opname, op="test", arg="op")
            s = data.draw(st.sampled_from([2, -1, 0, 1.5, True, np.float32(3), np.int32(-7)]), label="scalar")
            dom = sr.types.promote(np.result_type(a.dtype, s))
            sv = np.full(ad.shape, np.asarray(s).astype(dom))
            x, y = (sv, ad.astype(dom)) if side == "left" else (ad.astype(dom), sv)
            td = op.apply_numpy(x, y, dom, pos=(i, j, i, j))
            call = {side: s}
    td = np.asarray(td).reshape(ad.shape)
    kwargs, view = draw_output(data, shape, td.dtype, device)
    sa = snapshot(a)
    result = sr.apply(a, opname, **call, **kwargs)
    exp_d, exp_p = expected(td, ap, view)
    check(result, exp_d, exp_p)
    if not ("out" in kwargs and kwargs["out"] is a):
        assert_unchanged(a, sa)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_apply_integer_limits(device, dtype):
    info = np.iinfo(dtype)
    vals = np.array([info.min, info.max, -1, 0, 1, 2, -2], dtype=dtype)
    v = sr.Vector.from_coo(np.arange(vals.size), vals, device=device)
    for name in ("ainv", "abs", "minv", "lnot", "one", "identity"):
        got = to_host(sr.apply(v, name).to_dense())
        with np.errstate(all="ignore"):
            want = sr.ops.lookup("unary", name, op="t", arg="o").apply_numpy(vals, dtype)
        np.testing.assert_array_equal(got, want, err_msg=name)
    np.testing.assert_array_equal(to_host(sr.apply(v, "minv").to_dense()),
                                  [0, 0, -1, info.max, 1, 0, 0])


# ---------------------------------------------------------------------- select

SELECTS = sorted(sr.elementwise.SELECT_OPS)


@pytest.mark.parametrize("kind", ["matrix", "vector"])
@given(data=st.data())
def test_select_against_oracle(device, kind, data):
    shape = draw_shape(data, kind)
    adt = data.draw(st.sampled_from(DTYPES), label="a.dtype")
    a, ad, ap = draw_operand(data, shape, adt, device, "a")
    opname = data.draw(st.sampled_from(SELECTS), label="op")
    tkind = sr.elementwise.SELECT_OPS[opname][0]
    if tkind in ("offset", "index"):
        thunk = data.draw(st.sampled_from([None, 0, 1, -1, 3, -5]) if tkind == "offset"
                          else st.integers(-2, 9), label="thunk")
    elif tkind == "value":
        thunk = data.draw(st.sampled_from([0, 1, -3, 2.5, np.inf, np.nan, True, np.int32(5)]), label="thunk")
    else:
        thunk = None
    i, j = coords(ad.shape)
    k = 0 if thunk is None else thunk
    v = ad
    with np.errstate(invalid="ignore"):
        rule = {
            "tril": j <= i + k, "triu": j >= i + k, "diag": j == i + k, "offdiag": j != i + k,
            "rowle": i <= k, "rowgt": i > k, "colle": j <= k, "colgt": j > k,
            "nonzero": v != 0, "zero": v == 0,
        }
        if tkind == "value":
            dom = sr.types.promote(np.result_type(v.dtype, thunk))
            vv, tt = v.astype(dom), np.asarray(thunk).astype(dom)
            rule.update(valueeq=vv == tt, valuene=vv != tt, valuelt=vv < tt, valuele=vv <= tt,
                        valuegt=vv > tt, valuege=vv >= tt)
    tp = ap & rule[opname]
    kwargs, view = draw_output(data, shape, a.dtype, device)
    result = sr.select(a, opname, thunk, **kwargs)
    exp_d, exp_p = expected(ad, tp, view)
    check(result, exp_d, exp_p)


def test_select_delta_stepping_split(device):
    """Light and heavy edges (Δ-stepping) partition A."""
    rng = np.random.default_rng(1)
    D = np.where(rng.random((40, 40)) < 0.2, rng.integers(1, 255, (40, 40)), 0).astype(np.float64)
    A = sr.Matrix.from_dense(D, missing=0, device=device)
    light, heavy = sr.select(A, "valuele", 50.0), sr.select(A, "valuegt", 50.0)
    assert light.nvals + heavy.nvals == A.nvals
    assert sr.ewise_add(light, heavy, "first").isequal(A)
    assert sr.ewise_mult(light, heavy).nvals == 0


# ---------------------------------------------------------------------- reduce

MONOIDS = sr.ops.list_names("monoid", builtin=True)


def _reduce_inexact(mono, dtype):
    return np.dtype(dtype).kind == "f" and mono.name in ("plus", "times")


@given(data=st.data())
def test_reduce_rows_cols_against_oracle(device, data):
    shape = draw_shape(data, "matrix")
    adt = data.draw(st.sampled_from(DTYPES), label="A.dtype")
    A, ad, ap = draw_operand(data, shape, adt, device, "A")
    mono = sr.ops.lookup("monoid", data.draw(st.sampled_from(MONOIDS), label="monoid"), op="t", arg="m")
    axis = data.draw(st.sampled_from(["rows", "cols"]), label="axis")
    if axis == "cols":
        ad, ap = ad.T, ap.T
    with np.errstate(all="ignore"):
        td, tp, cands = o_reduce_rows(ad, ap, mono)
    kwargs, view = draw_output(data, (ad.shape[0],), td.dtype, device)
    f = sr.reduce_rows if axis == "rows" else sr.reduce_cols
    if mono.name == "any":  # any value of the row will do: take the one the engine chose
        d, p = dense_of(f(A, mono))
        np.testing.assert_array_equal(p, tp)
        for r in np.flatnonzero(tp):
            assert d[r] in np.asarray(cands[r]) or np.isnan(d[r]), (r, d[r], cands[r])
        td = np.where(tp, d, td)
    result = f(A, mono, **kwargs)
    exp_d, exp_p = expected(td, tp, view)
    check(result, exp_d, exp_p, inexact=_reduce_inexact(mono, adt))


@pytest.mark.parametrize("kind", ["matrix", "vector"])
@given(data=st.data())
def test_reduce_scalar_against_oracle(device, kind, data):
    shape = draw_shape(data, kind)
    adt = data.draw(st.sampled_from(DTYPES), label="a.dtype")
    a, ad, ap = draw_operand(data, shape, adt, device, "a")
    mono = sr.ops.lookup("monoid", data.draw(st.sampled_from(MONOIDS), label="monoid"), op="t", arg="m")
    flat = ad[ap].reshape(1, -1)
    with np.errstate(all="ignore"):
        td, tp, cands = o_reduce_rows(flat, np.ones_like(flat, dtype=bool), mono)
    got = sr.reduce_scalar(a, mono)
    dom = td.dtype
    assert np.asarray(got).dtype == dom
    if not tp[0]:
        assert got == mono.identity_of(dom) or (np.isnan(got) and np.isnan(mono.identity_of(dom)))
    elif mono.name == "any":
        assert got in np.asarray(cands[0]) or np.isnan(got)
    elif _reduce_inexact(mono, dom):
        np.testing.assert_allclose(float(got), float(td[0]), rtol=1e-5, atol=1e-6, equal_nan=True)
    else:
        assert got == td[0] or (np.isnan(got) and np.isnan(td[0])), (got, td[0])


@given(data=st.data())
def test_reduce_scalar_accumulates_into_out(device, data):
    a, ad, ap = draw_operand(data, draw_shape(data, "matrix"), np.int64, device, "a")
    mono = sr.ops.lookup("monoid", data.draw(st.sampled_from(["plus", "min", "max"]),
                                             label="monoid"), op="t", arg="m")
    acc = data.draw(st.sampled_from(["plus", "min", "max", "minus", "times"]), label="accum")
    out = data.draw(st.sampled_from([np.int64(7), 7, np.float64(-2.5), np.int32(3)]), label="out")
    r = sr.reduce_scalar(a, mono)
    got = sr.reduce_scalar(a, mono, accum=acc, out=out)
    ot = np.asarray(out).dtype
    op = sr.ops.lookup("binary", acc, op="t", arg="accum")
    want = op.apply_numpy(np.asarray(out), np.asarray(r).astype(ot), ot)
    assert np.asarray(got).dtype == ot and got == want, (got, want)


def test_reduce_scalar_accum_errors(device):
    A = sr.Matrix.from_coo([0], [0], [2.0], nrows=1, ncols=1, device=device)
    with pytest.raises(sr.InvalidValue, match="needs out="):
        sr.reduce_scalar(A, "plus", accum="plus")
    with pytest.raises(sr.InvalidValue, match="give accum too"):
        sr.reduce_scalar(A, "plus", out=1.0)
    with pytest.raises(sr.DomainMismatch, match="must not be a positional op"):
        sr.reduce_scalar(A, "plus", accum="secondi", out=1)
    with pytest.raises(sr.DomainMismatch, match=r"out must be a real scalar.*shape \(2,\)"):
        sr.reduce_scalar(A, "plus", accum="plus", out=[1, 2])


# ---------------------------------------------------------------------- transpose

@given(data=st.data())
def test_transpose_against_oracle(device, data):
    shape = draw_shape(data, "matrix")
    adt = data.draw(st.sampled_from(DTYPES), label="A.dtype")
    A, ad, ap = draw_operand(data, shape, adt, device, "A")
    kwargs, view = draw_output(data, shape[::-1], A.dtype, device)
    result = sr.transpose(A, **kwargs)
    exp_d, exp_p = expected(ad.T, ap.T, view)
    check(result, exp_d, exp_p)
    if not kwargs:
        assert result is A.T


def test_transpose_into_itself(device):
    A = sr.Matrix.from_coo([0, 0, 1], [1, 2, 2], [1, 2, 3], nrows=3, ncols=3, device=device)
    At = A.T
    sr.transpose(A, out=A, accum="plus")
    np.testing.assert_array_equal(to_host(A.to_dense()), [[0, 1, 2], [1, 0, 3], [2, 3, 0]])
    np.testing.assert_array_equal(to_host(A.T.to_dense()), [[0, 1, 2], [1, 0, 3], [2, 3, 0]])
    np.testing.assert_array_equal(to_host(At.to_dense()), [[0, 0, 0], [1, 0, 0], [2, 3, 0]])


# ---------------------------------------------------------------------- extract / assign

def _draw_index(data, n, label, allow_dups=True):
    how = data.draw(st.sampled_from(["list", "slice", "all"]), label=f"{label} kind")
    if how == "all" or n == 0:
        return None, np.arange(n)
    if how == "slice":
        a = data.draw(st.integers(-n, n), label=f"{label} start")
        b = data.draw(st.integers(-n, n), label=f"{label} stop")
        s = data.draw(st.sampled_from([1, 2, -1]), label=f"{label} step")
        sl = slice(a, b, s)
        return sl, np.arange(n)[sl]
    if allow_dups:
        idx = data.draw(st.lists(st.integers(0, n - 1), max_size=2 * n), label=label)
    else:
        idx = data.draw(st.lists(st.integers(0, n - 1), max_size=n, unique=True), label=label)
    return idx, np.array(idx, dtype=np.int64)


@pytest.mark.parametrize("kind", ["matrix", "vector"])
@given(data=st.data())
def test_extract_against_oracle(device, kind, data):
    shape = draw_shape(data, kind)
    adt = data.draw(st.sampled_from(DTYPES), label="a.dtype")
    a, ad, ap = draw_operand(data, shape, adt, device, "a")
    rows, R = _draw_index(data, shape[0], "rows")
    if kind == "matrix":
        cols, C = _draw_index(data, shape[1], "cols")
        td, tp = o_extract(ad, ap, R, C)
        result_shape = (R.size, C.size)
    else:
        cols = None
        td, tp = o_extract(ad, ap, R)
        result_shape = (R.size,)
    kwargs, view = draw_output(data, result_shape, a.dtype, device)
    result = sr.extract(a, rows, cols, **kwargs)
    exp_d, exp_p = expected(td, tp, view)
    check(result, exp_d, exp_p)


@pytest.mark.parametrize("kind", ["matrix", "vector"])
@given(data=st.data())
def test_assign_against_oracle(device, kind, data):
    shape = draw_shape(data, kind)
    wdt = data.draw(st.sampled_from(DTYPES), label="out.dtype")
    w, wd, wp = draw_operand(data, shape, wdt, device, "out")
    if w.dtype != wdt:
        w, wd = w._cast(wdt), wd.astype(wdt)
    rows, R = _draw_index(data, shape[0], "rows", allow_dups=False)
    if kind == "matrix":
        cols, C = _draw_index(data, shape[1], "cols", allow_dups=False)
        rshape = (R.size, C.size)
    else:
        cols, C, rshape = None, None, (R.size,)
    # a slice with step -1 may still be fine; skip only real duplicates
    scalar = data.draw(st.booleans(), label="scalar value")
    # casting inf/nan to an integer is undefined (NumPy and CuPy differ): no float values
    # into an integer or bool output
    safe = DTYPES if np.dtype(wdt).kind == "f" else [np.bool_, np.int32, np.int64]
    if scalar:
        s = data.draw(st.sampled_from([0, 1, -4, True]), label="scalar")
        value = s
        vd, vp = np.full(rshape, np.asarray(s).astype(wdt)), np.ones(rshape, dtype=bool)
    else:
        vdt = data.draw(st.sampled_from(safe), label="value.dtype")
        value, vd, vp = draw_operand(data, rshape, vdt, device, "value")
    allowed = None
    kwargs = {}
    mkind = data.draw(st.sampled_from(MASKS), label="mask")
    if mkind is not None:
        m, md, mp = draw_operand(data, shape, None, device, "mask")
        structure = "S" in mkind
        kwargs["mask"] = m.S if structure else m.V
        allowed = mp if structure else (mp & (md != 0))
        if mkind.startswith("~"):
            kwargs["mask"], allowed = ~kwargs["mask"], ~allowed
    accum = data.draw(st.sampled_from(ACCUMS), label="accum")
    acc = None if accum is None else sr.ops.lookup("binary", accum, op="t", arg="a")
    replace = data.draw(st.booleans(), label="replace")
    with np.errstate(all="ignore"):
        exp_d, exp_p = o_assign(wd, wp, vd, vp, R, C, acc, allowed, replace)
    result = sr.assign(w, value, rows, cols, accum=accum, replace=replace, **kwargs)
    assert result is w and result.dtype == wdt
    check(result, exp_d, exp_p)


def test_assign_refuses_duplicates_and_bad_shapes(device):
    C = sr.Matrix.from_coo([0], [0], [1.0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.DuplicateIndices, match="assign: rows must not repeat"):
        sr.assign(C, 1.0, [0, 0], None)
    with pytest.raises(sr.DimensionMismatch, match=r"assign: value.shape \(=\(1, 1\)\) must equal the region shape \(=\(2, 3\)\)"):
        sr.assign(C, sr.Matrix.from_coo([0], [0], [1.0], nrows=1, ncols=1, device=device), [0, 1], None)
    with pytest.raises(sr.InvalidIndex, match=r"extract: cols must lie in \[0, 3\), got values in \[0, 3\]"):
        sr.extract(C, None, [0, 3])


# ---------------------------------------------------------------------- masks and finalize

def test_matrix_mask_keys_and_complement_stay_sparse(device):
    n = 1 << 20  # n² = 2^40 positions: densifying would not fit anywhere
    M = sr.Matrix.from_coo([0, 5, n - 1], [3, 5, n - 1], [1, 0, 2], nrows=n, ncols=n, device=device)
    np.testing.assert_array_equal(to_host(M.S.keys()), [3, 5 * n + 5, n * n - 1])
    np.testing.assert_array_equal(to_host(M.V.keys()), [3, n * n - 1])
    assert M.V.pattern().isequal(sr.Matrix.from_coo([0, n - 1], [3, n - 1], True, nrows=n, ncols=n, device=device))
    assert M.S.pattern().isequal(sr.Matrix.from_coo([0, 5, n - 1], [3, 5, n - 1], True, nrows=n, ncols=n, device=device))
    keys = [3, 4, 5 * n + 5, n * n - 1]
    assert to_host((~M.V).allowed_at(keys)).tolist() == [False, True, True, False]
    A = sr.Matrix.from_coo([0, 1, n - 1], [3, 1, 0], [7, 8, 9], nrows=n, ncols=n, device=device)
    C = sr.apply(A, "ainv", mask=~M.S)
    np.testing.assert_array_equal(to_host(C.to_coo()[2]), [-8, -9])
    with pytest.raises(sr.DomainMismatch, match="never densified"):
        M.S.allowed()


def test_finalize_matrix_direct(device):
    from semiring._mfinalize import finalize_matrix

    rng = np.random.default_rng(5)
    for _ in range(20):
        shape = tuple(rng.integers(0, 7, 2))
        td, tp = rng.integers(-5, 5, shape).astype(np.float64), rng.random(shape) < 0.4
        wd, wp = rng.integers(-5, 5, shape).astype(np.float64), rng.random(shape) < 0.4
        md, mp = rng.integers(0, 2, shape), rng.random(shape) < 0.5
        T, W, Mm = (make_matrix(d, p, device) for d, p in ((td, tp), (wd, wp), (md, mp)))
        for mk in MASKS:
            for accum in (None, sr.binary.plus):
                for replace in (False, True):
                    allowed = None
                    mask = None
                    if mk is not None:
                        mask = Mm.S if "S" in mk else Mm.V
                        allowed = mp if "S" in mk else (mp & (md != 0))
                        if mk[0] == "~":
                            mask, allowed = ~mask, ~allowed
                    out = W.dup()
                    res = finalize_matrix(T, out, mask, accum, replace)
                    assert res is out
                    check(res, *finalize(wd, wp, td, tp, allowed, accum, replace, np.float64))
                    fresh = finalize_matrix(T, None, mask, None, False)
                    exp_p = tp if allowed is None else tp & allowed
                    check(fresh, td, exp_p)


def test_mask_argument_errors(device):
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device=device)
    v = sr.Vector.new(2, device=device)
    with pytest.raises(sr.DimensionMismatch, match=r"apply: mask.shape \(=\(3, 2\)\) must equal the output shape \(=\(2, 3\)\)"):
        sr.apply(A, "abs", mask=A.T.S)
    with pytest.raises(sr.DomainMismatch, match="apply: mask must be over a Matrix, got a mask over a Vector"):
        sr.apply(A, "abs", mask=v.S)
    with pytest.raises(sr.DomainMismatch, match="reduce_rows: mask must be a Vector"):
        sr.reduce_rows(A, mask=A)
    with pytest.raises(sr.DimensionMismatch, match=r"ewise_add: a.shape \(=\(2, 3\)\) must equal b.shape \(=\(3, 2\)\)"):
        sr.ewise_add(A, A.T)
    with pytest.raises(sr.DomainMismatch, match="ewise_add: op must not be positional"):
        sr.ewise_add(A, A, "firsti")
    with pytest.raises(sr.DomainMismatch, match="apply: op 'plus' is a binary op"):
        sr.apply(A, "plus")
    with pytest.raises(sr.InvalidValue, match="select: op 'valuele' needs a thunk"):
        sr.select(A, "valuele")
    with pytest.raises(sr.DomainMismatch, match="accum must not be a positional op"):
        sr.apply(A, "abs", out=A.dup(), accum="firsti")
    with pytest.raises(sr.DimensionMismatch, match=r"transpose: out.shape \(=\(2, 3\)\) must equal the result shape \(=\(3, 2\)\)"):
        sr.transpose(A, out=A)
    with pytest.raises(sr.DomainMismatch, match="reduce_rows: monoid must be a Monoid"):
        sr.reduce_rows(A, "minus")


def test_mixed_devices_are_refused(device):
    if device != "gpu":
        pytest.skip("needs a GPU")
    A = sr.Matrix.from_coo([0], [0], [1.0], nrows=1, ncols=1, device="gpu")
    B = sr.Matrix.from_coo([0], [0], [1.0], nrows=1, ncols=1, device="cpu")
    with pytest.raises(sr.DeviceMismatch):
        sr.ewise_add(A, B)
    with pytest.raises(sr.DeviceMismatch):
        A | B


def test_scipy_and_arrays_are_accepted(device):
    import scipy.sparse as sps

    S = sps.csr_matrix(np.array([[0, 2.0], [3.0, 0]]))
    if device == "cpu":
        np.testing.assert_array_equal(sr.reduce_rows(S).to_dense(), [2.0, 3.0])
        np.testing.assert_array_equal(sr.ewise_add(np.array([1, 2]), np.array([3, 4])).to_dense(), [4, 6])
        assert sr.transpose(S).isequal(sr.Matrix.from_scipy(S.T.tocsr(), device="cpu"))


@pytest.mark.parametrize("monoid", MONOIDS)
def test_tree_reduce_matches_left_fold(monoid):
    """The GPU's pairwise scalar reduction, run on the CPU: the same answer as the fold."""
    from semiring.elementwise import _tree_reduce

    mono = sr.ops.lookup("monoid", monoid, op="t", arg="m")
    rng = np.random.default_rng(2)
    for n in (1, 2, 3, 7, 64, 101):
        for dt in DTYPES:
            v = rng.integers(-3, 4, n).astype(dt)
            dom = sr.types.BOOL if mono.op.result == "bool" else np.dtype(dt)
            v = v.astype(dom)
            want = mono.reduce_segments(v, np.zeros(1, dtype=np.int64))[0]
            got = _tree_reduce(mono.op, dom, v, "cpu")
            assert got == want or (mono.name == "any" and got in v), (monoid, n, dt, got, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_op_every_dtype_matches_numpy(device, dtype):
    """Each unary and binary op's CUDA expression against its NumPy function (on the GPU this
    compiles and runs every built-in kernel instantiation)."""
    ext = {np.dtype(np.bool_): [True, False],
           np.dtype(np.int32): [np.iinfo(np.int32).min, -7, -1, 0, 1, 3, np.iinfo(np.int32).max],
           np.dtype(np.int64): [np.iinfo(np.int64).min, -7, -1, 0, 1, 3, np.iinfo(np.int64).max],
           np.dtype(np.float32): [-np.inf, -2.5, -0.0, 0.0, 1.0, 3.0, np.inf, np.nan],
           np.dtype(np.float64): [-np.inf, -2.5, -0.0, 0.0, 1.0, 3.0, np.inf, np.nan]}[np.dtype(dtype)]
    x = np.array(ext, dtype=dtype)
    xs, ys = np.meshgrid(x, x)
    xs, ys = xs.ravel(), ys.ravel()
    n = xs.size
    u = sr.Vector.from_coo(np.arange(n), xs, size=n, device=device)
    w = sr.Vector.from_coo(np.arange(n), ys, size=n, device=device)
    idx = np.arange(n, dtype=np.int64)
    zero = np.zeros(n, dtype=np.int64)
    for name in sr.ops.list_names("unary", builtin=True):
        op = sr.ops.lookup("unary", name, op="t", arg="o")
        want = op.apply_numpy(xs, dtype, pos=(idx, zero))
        got = to_host(sr.apply(u, name).to_dense())
        np.testing.assert_array_equal(got, want, err_msg=name)
    for name in sr.ops.list_names("binary", builtin=True):
        op = sr.ops.lookup("binary", name, op="t", arg="o")
        with np.errstate(all="ignore"):
            want = op.apply_numpy(xs, ys, dtype, pos=(idx, zero, idx, zero))
        got = to_host(sr.ewise_mult(u, w, name).to_dense())
        np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.parametrize("monoid", MONOIDS)
def test_segment_tree_reduce_matches_fold(monoid):
    """The GPU's pairwise row reduction (rows longer than LONG_SEGMENT), run on the CPU."""
    from semiring.elementwise import _segment_tree_reduce

    mono = sr.ops.lookup("monoid", monoid, op="t", arg="m")
    rng = np.random.default_rng(4)
    for lengths in ([1], [2], [3, 1, 7], [1000, 1, 2, 513], list(rng.integers(1, 40, 50))):
        lengths = np.array(lengths)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        for dt in DTYPES:
            dom = sr.types.BOOL if mono.op.result == "bool" else np.dtype(dt)
            v = rng.integers(-3, 4, lengths.sum()).astype(dt).astype(dom)
            want = mono.reduce_segments(v, starts)
            got = _segment_tree_reduce(mono.op, dom, v, starts, "cpu")
            if mono.name == "any":
                assert all(g in v[s:s + n] for g, s, n in zip(got, starts, lengths))
            else:
                np.testing.assert_array_equal(got, want, err_msg=f"{monoid} {dt}")


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64])
def test_reduce_long_rows(device, dtype):
    """Rows longer than LONG_SEGMENT (the GPU reduces them by the SpMV pull kernel with
    <monoid>_first where the table has it, else by pairwise halving), beside short and
    empty rows."""
    rng = np.random.default_rng(6)
    D = rng.integers(-9, 9, (5, 2000)).astype(dtype)
    P = rng.random((5, 2000)) < np.array([[0.9], [0.001], [0.5], [0.0], [0.05]])
    A = make_matrix(D, P, device)
    monoids = [("plus", np.sum), ("min", np.min), ("max", np.max)]
    if dtype == np.int64:       # a float product of ~1800 values overflows: order-dependent
        monoids.append(("times", np.prod))
    for mono, f in monoids:
        got = to_host(sr.reduce_rows(A, mono).to_dense(missing=0))
        want = [f(D[r][P[r]]) if P[r].any() else 0 for r in range(5)]
        np.testing.assert_array_equal(got, np.array(want, dtype=dtype), err_msg=mono)
    got = to_host(sr.reduce_rows(A, "any").to_dense(missing=0))
    assert all(got[r] in D[r][P[r]] if P[r].any() else got[r] == 0 for r in range(5))
    # iso: every stored value the iso value
    I = sr.Matrix.from_csr(A.indptr, A.indices, None, A.shape, iso_value=3, dtype=dtype)
    got = to_host(sr.reduce_rows(I, "max").to_dense(missing=0))
    np.testing.assert_array_equal(got, [3 if P[r].any() else 0 for r in range(5)])


@pytest.mark.parametrize("target", [np.int32, np.int64])
@pytest.mark.parametrize("source", [np.float32, np.float64])
def test_float_to_integer_cast_saturates(device, source, target):
    """A float cast into an integer type saturates and NaN becomes 0 (SuiteSparse's
    GB_cast_to_int32 etc.; NumPy's astype gives INT_MIN): into an output's type, through a
    constructor's dtype= and as an assigned scalar, on both containers."""
    info = np.iinfo(target)
    src = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, -2.7, 2.7, -0.0], dtype=source)
    want = np.array([0, info.max, info.min, info.max, info.min, -2, 2, 0], dtype=target)
    n = src.size
    x = sr.Vector.from_coo(np.arange(n), src, size=n, device=device)
    w = sr.apply(x, "identity", out=sr.Vector.new(n, target, device=device))
    assert w.dtype == target and np.array_equal(to_host(w.to_dense()), want)
    A = sr.Matrix.from_coo(np.zeros(n, np.int64), np.arange(n), src, nrows=1, ncols=n, device=device)
    C = sr.Matrix.from_coo([], [], np.zeros(0, target), nrows=1, ncols=n, device=device)
    sr.ewise_add(A, A, "first", out=C)
    assert np.array_equal(to_host(C.to_dense())[0], want)
    v = sr.Vector.from_coo(np.arange(n), src, size=n, dtype=target, device=device)
    assert np.array_equal(to_host(v.to_dense()), want)
    for s, t in zip(src, want):
        u = sr.assign(sr.Vector.new(1, target, device=device), s, [0])
        assert to_host(u.to_dense())[0] == t
