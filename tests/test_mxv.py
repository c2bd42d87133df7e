"""mxv / vxm × semiring × dtype × mask / accum / replace × direction, against the dense oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import semiring as sr
from conftest import to_host
from oracle import dense_product, finalize
from strategies import DTYPES, dense_matrix, dense_vector, make_matrix, make_vector

SEMIRINGS = sr.ops.list_names("semiring", builtin=True)
ACCUMS = [None, "min", "plus", "second", "lor", "times"]
MASKS = [None, "V", "S", "~V", "~S"]


def _inexact(semiring, dtype):
    """Float sums and products depend on the order of the reduction."""
    return np.dtype(dtype).kind == "f" and semiring.add.name in ("plus", "times")


def _check(result, exp_pres, accept, out_dtype, inexact):
    vals = to_host(result.to_dense(missing=0)).astype(out_dtype)
    _, pres = result.bitmap()
    pres = np.ones(result.size, bool) if pres is None else to_host(pres)
    np.testing.assert_array_equal(pres, exp_pres)
    for i in np.flatnonzero(exp_pres):
        ok = [np.isclose(vals[i], a, rtol=1e-5, atol=1e-6, equal_nan=True) if inexact
              else (vals[i] == a or (np.isnan(vals[i]) and np.isnan(a))) for a in accept[i]]
        assert any(ok), f"entry {i}: got {vals[i]!r}, expected one of {accept[i]!r}"


@pytest.mark.parametrize("semiring_name", SEMIRINGS)
@given(data=st.data())
def test_product_against_oracle(device, semiring_name, data):
    kind = data.draw(st.sampled_from(["mxv", "vxm"]), label="kind")
    semiring = sr.ops.lookup("semiring", semiring_name, op="test", arg="semiring")
    adt = data.draw(st.sampled_from(DTYPES), label="A.dtype")
    udt = data.draw(st.sampled_from([adt] * 3 + DTYPES), label="u.dtype")
    Ad, Ap = data.draw(dense_matrix(dtype=adt), label="A")
    iso = data.draw(st.booleans(), label="iso")
    if iso:
        Ad = np.ones_like(Ad)  # structure-only: every entry is True, i.e. 1
        Ad = Ad.astype(np.bool_)
    int64 = data.draw(st.booleans(), label="int64 indices")
    nin, nout = (Ad.shape[1], Ad.shape[0]) if kind == "mxv" else (Ad.shape[0], Ad.shape[1])
    ud, up = data.draw(dense_vector(nin, udt), label="u")
    form = data.draw(st.sampled_from(["bitmap", "sparse"]), label="u form")
    direction = data.draw(st.sampled_from(["auto", "push", "pull"]), label="direction")
    mkind = data.draw(st.sampled_from(MASKS), label="mask")
    accum = data.draw(st.sampled_from(ACCUMS), label="accum")
    replace = data.draw(st.booleans(), label="replace")
    use_out = data.draw(st.booleans(), label="out")

    A = make_matrix(Ad, Ap, device, iso=iso, int64=int64)
    u = make_vector(ud, up, device, form)
    tvals, tpres, cands = dense_product(Ad, Ap, ud, up, semiring, vxm=(kind == "vxm"))
    rtype = tvals.dtype

    kwargs = {"direction": direction}
    allowed = None
    if mkind is not None:
        md, mp = data.draw(dense_vector(nout), label="mask vector")
        mvec = make_vector(md, mp, device, data.draw(st.sampled_from(["bitmap", "sparse"])))
        structure = "S" in mkind
        m = mvec.S if structure else mvec.V
        allowed = mp if structure else (mp & (md != 0))
        if mkind.startswith("~"):
            m, allowed = ~m, ~allowed
        kwargs["mask"] = m
    out_dtype = rtype
    if use_out:
        # casting inf/nan to an integer is undefined (NumPy and CuPy differ): floats stay floats
        safe = [np.float32, np.float64] if rtype.kind == "f" else DTYPES
        out_dtype = np.dtype(data.draw(st.sampled_from([rtype] + safe), label="out.dtype"))
        wd, wp = data.draw(dense_vector(nout, out_dtype), label="w")
        kwargs["out"] = make_vector(wd, wp, device, data.draw(st.sampled_from(["bitmap", "sparse"])))
        kwargs["replace"] = replace
        if accum is not None:
            kwargs["accum"] = accum
    else:
        wd, wp = np.zeros(nout, dtype=out_dtype), np.zeros(nout, dtype=bool)
        accum = None
    acc = None if accum is None else sr.ops.lookup("binary", accum, op="test", arg="accum")

    Acopy = (to_host(A.indptr).copy(), to_host(A.indices).copy(),
             None if A.is_iso else to_host(A.values).copy())
    ucopy = to_host(u.to_dense(missing=0)).copy()
    result = sr.mxv(A, u, semiring, **kwargs) if kind == "mxv" else sr.vxm(u, A, semiring, **kwargs)
    if use_out:
        assert result is kwargs["out"] and result.dtype == out_dtype

    # the expected presence and the acceptable values of each output entry
    exp_d, exp_p = finalize(wd, wp, tvals, tpres, allowed, acc, replace, out_dtype)
    accept = []
    for i in range(nout):
        from_t = tpres[i] and (allowed is None or allowed[i])
        if not from_t:
            accept.append([exp_d[i]])
            continue
        cs = [np.asarray(c).astype(out_dtype)[()] for c in cands[i]] if semiring.add.name == "any" \
            else [np.asarray(tvals[i]).astype(out_dtype)[()]]
        if acc is not None and wp[i]:
            cs = [acc.apply_numpy(np.asarray([wd[i]]), np.asarray([c]), out_dtype).astype(out_dtype)[0] for c in cs]
        accept.append(cs)
    _check(result, exp_p, accept, out_dtype, _inexact(semiring, rtype))

    # inputs are never modified
    np.testing.assert_array_equal(to_host(A.indptr), Acopy[0])
    np.testing.assert_array_equal(to_host(A.indices), Acopy[1])
    if Acopy[2] is not None:
        np.testing.assert_array_equal(to_host(A.values), Acopy[2])
    if not (use_out and kwargs["out"] is u):
        np.testing.assert_array_equal(to_host(u.to_dense(missing=0)), ucopy)


@pytest.mark.parametrize("kind", ["mxv", "vxm"])
def test_expression_equals_eager(device, kind):
    rng = np.random.default_rng(3)
    S = (rng.random((30, 30)) < 0.2) * rng.integers(1, 9, (30, 30)).astype(np.float32)
    A = sr.Matrix.from_dense(S, missing=0, device=device)
    x = sr.Vector.from_coo([0, 5, 7], [0.0, 1.0, 2.0], size=30, device=device)
    mask = sr.Vector.from_coo([1, 2, 3], True, size=30, device=device)
    if kind == "vxm":
        e = sr.min_plus(x @ A, mask=~mask.S)
        f = sr.vxm(x, A, sr.min_plus, mask=mask, structure=True, complement=True)
    else:
        e = sr.min_plus(A @ x, mask=~mask.S)
        f = sr.mxv(A, x, sr.min_plus, mask=mask, structure=True, complement=True)
    assert e.isequal(f)
    assert e.nvals > 0
    assert (x @ A).new().isequal(sr.vxm(x, A))  # default semiring plus_times


def test_semiring_by_name_and_table(device):
    A = sr.Matrix.from_dense(np.array([[1, 2], [3, 4]], dtype=np.int64), device=device)
    u = sr.Vector.from_dense(np.array([5, 6]), device=device)
    assert sr.mxv(A, u, "plus_times").isequal(sr.mxv(A, u, sr.semiring.plus_times))
    np.testing.assert_array_equal(to_host(sr.mxv(A, u, "plus_times").to_dense()), [17, 39])
    np.testing.assert_array_equal(to_host(sr.mxv(A, u, sr.max_min).to_dense()), [2, 4])


def test_user_defined_semiring(device):
    name = "absdiff_t"
    op = sr.binary.__dict__.get(name) or sr.BinaryOp(
        name, cuda="(x > y) ? (x - y) : (y - x)", numpy=lambda x, y: np.where(x > y, x - y, y - x))
    srg = sr.semiring.__dict__.get("max_absdiff_t") or sr.Semiring("max_absdiff_t", sr.monoid.max, op)
    rng = np.random.default_rng(0)
    D = rng.integers(-50, 50, (20, 15)).astype(np.int32)
    P = rng.random((20, 15)) < 0.4
    A = sr.Matrix.from_dense(np.where(P, D, 0), missing=0, device=device)
    A = sr.Matrix.from_coo(*np.nonzero(P), D[P], nrows=20, ncols=15, device=device)
    u = rng.integers(-50, 50, 15).astype(np.int32)
    got = to_host(sr.mxv(A, sr.Vector.from_dense(u, device=device), srg).to_dense(missing=-1))
    exp = np.where(P.any(1), np.where(P, np.abs(D - u[None, :]), -1).max(1), -1)
    np.testing.assert_array_equal(got, exp)


@pytest.mark.parametrize("sname", ["max_times", "min_plus"])
@pytest.mark.parametrize("direction", ["push", "pull"])
def test_lone_nan_product_survives(device, sname, direction):
    """fmin/fmax ignore a NaN next to a number, but a NaN alone is the answer (as NumPy's
    fmax.reduce gives): the atomic push must not turn it into the identity."""
    inf = np.inf
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], [inf, inf, 3.0], nrows=2, ncols=2, device=device)
    u = sr.Vector.from_coo([0, 1], [0.0 if sname == "max_times" else -inf, 2.0], size=2,
                           device=device).to_form("sparse" if direction == "push" else "bitmap")
    got = to_host(sr.vxm(u, A, sname, direction=direction).to_dense(missing=-1.0))
    # column 0: only u(0) (x) A(0,0) = NaN; column 1: NaN and u(1) (x) 3 -> the number wins
    assert np.isnan(got[0])
    assert got[1] == (6.0 if sname == "max_times" else 5.0)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("sname", ["plus_times", "min_plus", "max_plus", "plus_pair", "max_min"])
@pytest.mark.parametrize("direction", ["push", "pull"])
def test_integer_limits_wrap_like_numpy(device, dtype, sname, direction):
    """Integer arithmetic at the type's limits: sums and products wrap exactly as NumPy's do
    (GraphBLAS semantics; 'infinity' is an absent entry, never a large number)."""
    info = np.iinfo(dtype)
    extremes = np.array([info.max, info.min, info.max - 1, info.min + 1, -1, 0, 1, 2], dtype=dtype)
    rng = np.random.default_rng(11)
    n = 12
    Ad = rng.choice(extremes, (n, n)).astype(dtype)
    Ap = rng.random((n, n)) < 0.6
    ud = rng.choice(extremes, n).astype(dtype)
    up = rng.random(n) < 0.8
    semiring = getattr(sr, sname)
    A = make_matrix(Ad, Ap, device)
    u = make_vector(ud, up, device, "sparse" if direction == "push" else "bitmap")
    with np.errstate(over="ignore"):
        exp_v, exp_p, _ = dense_product(Ad, Ap, ud, up, semiring, vxm=True)
    got = sr.vxm(u, A, semiring, direction=direction)
    _, pres = got.bitmap()
    pres = np.ones(n, bool) if pres is None else to_host(pres)
    np.testing.assert_array_equal(pres, exp_p)
    np.testing.assert_array_equal(to_host(got.to_dense(missing=0))[exp_p], exp_v[exp_p])
