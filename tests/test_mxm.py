"""The public mxm and ``A @ B`` expressions: sparse × sparse with mask / accum / replace,
sparse × dense both ways, dense × dense, against the dense oracle on every backend. The
kernels themselves are tested in test_spgemm.py and test_dense.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import semiring as sr
from conftest import to_host
from oracle import dense_mxm
from strategies import dense_matrix, make_matrix
from test_elementwise import check, draw_output, expected

#: Exact semirings (no float rounding order to worry about) and one positional one.
SEMIRINGS = ["min_plus", "max_plus", "plus_times", "lor_land", "any_pair", "min_secondi",
             "max_min", "plus_pair"]


def _exact(semiring, dom):
    return not (semiring in ("plus_times", "plus_pair") and np.dtype(dom).kind == "f")


@given(data=st.data(), semiring=st.sampled_from(SEMIRINGS))
def test_sparse_times_sparse(device, data, semiring):
    m, k, n = (data.draw(st.integers(0, 7), label=lab) for lab in "mkn")
    Ad, Ap = data.draw(dense_matrix(nrows=m, ncols=k), label="A")
    Bd, Bp = data.draw(dense_matrix(nrows=k, ncols=n, dtype=Ad.dtype), label="B")
    A, B = make_matrix(Ad, Ap, device), make_matrix(Bd, Bp, device)
    srg = sr.ops.lookup("semiring", semiring, op="t", arg="s")
    dom = sr.types.promote(Ad.dtype, Bd.dtype)
    td, tp, _ = dense_mxm(Ad, Ap, Bd, Bp, srg, dom)
    kwargs, view = draw_output(data, (m, n), srg.result_type(dom), device)
    exp_d, exp_p = expected(td, tp, view)
    form = data.draw(st.sampled_from(["eager", "expr"]), label="form")
    if form == "eager":
        C = sr.mxm(A, B, semiring, **kwargs)
    else:
        C = getattr(sr, semiring)(A @ B, **kwargs)
    assert isinstance(C, sr.Matrix) and C.device == device
    if "out" in kwargs:
        assert C is kwargs["out"]
    check(C, exp_d, exp_p, inexact=not _exact(semiring, dom))


def test_triangle_count_by_masked_product(device):
    rng = np.random.default_rng(5)
    n = 60
    D = np.triu((rng.random((n, n)) < 0.15).astype(np.float64), 1)
    D = D + D.T
    A = sr.Matrix.from_dense(D, missing=0, device=device)
    L = sr.select(A, "tril", -1)
    C = sr.plus_pair(L @ L, mask=L.S)
    want = int(round(np.trace(D @ D @ D) / 6))
    assert int(sr.reduce_scalar(C)) == want > 0


def _dense_product_case(data, device, semiring, order, least):
    """Operands of ``order`` (a dense side is a full array on the device), and the oracle's
    product: (xp, m, n, A, B, srg, dom, td, tp)."""
    xp = np if device == "cpu" else pytest.importorskip("cupy")
    m, k, n = (data.draw(st.integers(least, 6), label=lab) for lab in "mkn")
    srg = sr.ops.lookup("semiring", semiring, op="t", arg="s")
    Ad, Ap = data.draw(dense_matrix(nrows=m, ncols=k), label="A")
    Bd, Bp = data.draw(dense_matrix(nrows=k, ncols=n, dtype=Ad.dtype), label="B")
    if order != "sparse@dense":
        Ap = np.ones_like(Ap)
    if order != "dense@sparse":
        Bp = np.ones_like(Bp)
    A = xp.asarray(Ad) if order.startswith("dense") else make_matrix(Ad, Ap, device)
    B = xp.asarray(Bd) if order.endswith("dense") else make_matrix(Bd, Bp, device)
    dom = sr.types.promote(Ad.dtype, Bd.dtype)
    td, tp, _ = dense_mxm(Ad, Ap, Bd, Bp, srg, dom)
    return xp, m, n, A, B, srg, dom, td, tp


@given(data=st.data(), semiring=st.sampled_from(SEMIRINGS),
       order=st.sampled_from(["sparse@dense", "dense@sparse", "dense@dense"]))
def test_products_with_dense_operands(device, data, semiring, order):
    xp, m, n, A, B, srg, dom, td, tp = _dense_product_case(data, device, semiring, order, 0)
    ident = srg.add.identity_of(td.dtype)
    want = np.where(tp, td, ident)
    got = sr.mxm(A, B, semiring)
    assert isinstance(got, xp.ndarray) and got.shape == (m, n)
    assert isinstance(getattr(sr, semiring)(A @ B) if order != "dense@dense" else got, xp.ndarray)
    _close(to_host(got), want, _exact(semiring, dom))
    # out ⊙= with a mask: min-accumulate where allowed and some product exists
    if m and n and semiring in ("min_plus", "max_plus", "min_secondi"):
        out0 = np.full((m, n), 3, dtype=td.dtype)
        allowed = np.random.default_rng(m * 7 + n).random((m, n)) < 0.6
        out = xp.array(out0)  # a copy: out0 stays the "before"
        sr.mxm(A, B, semiring, out=out, accum="min", mask=xp.asarray(allowed))
        exp = np.where(allowed & tp, sr.binary.min.apply_numpy(out0, td, td.dtype), out0)  # fmin
        _close(to_host(out), exp, True)
        out = xp.array(out0)  # a copy: out0 stays the "before"
        sr.mxm(A, B, semiring, out=out, mask=xp.asarray(allowed), complement=True)
        _close(to_host(out), np.where(~allowed, want, out0), True)


@given(data=st.data(), semiring=st.sampled_from(["min_plus", "max_plus", "plus_times",
                                                  "min_secondi"]),
       order=st.sampled_from(["sparse@dense", "dense@sparse", "dense@dense"]))
def test_dense_results_under_every_mask_form(device, data, semiring, order):
    # masks of a product with a dense operand: a bool array (by value), or a sparse Matrix by
    # structure or value, complemented or not; with and without out and accum
    xp, m, n, A, B, srg, dom, td, tp = _dense_product_case(data, device, semiring, order, 1)
    want = np.where(tp, td, srg.add.identity_of(td.dtype))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1), label="mask seed"))
    Mp = rng.random((m, n)) < 0.5                        # the mask's entries
    Mv = np.where(rng.random((m, n)) < 0.3, 0, 1).astype(np.int32)  # some explicit zeros
    form = data.draw(st.sampled_from(["array", "M", "M.S", "M.V", "~M.S", "~M.V"]), label="form")
    M = make_matrix(Mv, Mp, device)
    mask, kw = {"array": (xp.asarray(Mp & (Mv != 0)), {}), "M": (M, {}),
                "M.S": (M.S, {}), "M.V": (M.V, {}), "~M.S": (~M.S, {}),
                "~M.V": (~M.V, {})}[form]
    allowed = Mp if form in ("M.S", "~M.S") else Mp & (Mv != 0)
    if form.startswith("~"):
        allowed = ~allowed
    got = sr.mxm(A, B, semiring, mask=mask, **kw)
    _close(to_host(got), np.where(allowed, want, srg.add.identity_of(td.dtype)),
           _exact(semiring, dom))
    accum = data.draw(st.sampled_from([None, "min", "plus"]), label="accum")
    out0 = np.full((m, n), 3, dtype=td.dtype)
    out = xp.array(out0)  # a copy: out0 stays the "before"
    res = sr.mxm(A, B, semiring, out=out, mask=mask, accum=accum)
    assert res is out
    if accum is None:
        exp = np.where(allowed, want, out0)
    else:
        acc = sr.ops.lookup("binary", accum, op="t", arg="accum")
        exp = np.where(allowed & tp, acc.apply_numpy(out0, td.astype(out0.dtype), out0.dtype),
                       out0)
    _close(to_host(out), exp, _exact(semiring, dom))


def test_dense_result_mask_errors(device):
    xp = np if device == "cpu" else pytest.importorskip("cupy")
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=2, device=device)
    D = xp.ones((2, 2))
    with pytest.raises(sr.DomainMismatch, match="structure=True needs a sparse mask"):
        sr.mxm(A, D, "min_plus", mask=xp.ones((2, 2), bool), structure=True)
    M3 = sr.Matrix.from_coo([0], [0], None, nrows=3, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match="mask.shape"):
        sr.mxm(A, D, "min_plus", mask=M3.S)
    with pytest.raises(sr.DomainMismatch, match="mask must be a Matrix or a mask"):
        sr.mxm(A, D, "min_plus", mask=[[True, False], [False, True]])
    other = "gpu" if device == "cpu" else "cpu"
    if other == "gpu" and not sr.device.gpu_available():
        return
    Mo = sr.Matrix.from_coo([0], [0], None, nrows=2, ncols=2, device=other)
    with pytest.raises(sr.DeviceMismatch, match="mask is on the"):
        sr.mxm(A, D, "min_plus", mask=Mo.S)


def _close(got, want, exact):
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-5,
                                   atol=1e-6)


def test_min_plus_squaring_gives_all_pairs_distances(device):
    from scipy.sparse.csgraph import shortest_path

    xp = np if device == "cpu" else pytest.importorskip("cupy")
    rng = np.random.default_rng(1)
    n = 40
    W = np.where(rng.random((n, n)) < 0.1, rng.integers(1, 9, (n, n)).astype(np.float64), np.inf)
    np.fill_diagonal(W, 0.0)
    D = xp.asarray(W)
    for _ in range(int(np.ceil(np.log2(n)))):
        D = sr.mxm(D, D, "min_plus")
    np.testing.assert_array_equal(to_host(D), shortest_path(np.where(np.isinf(W), 0, W)))


def test_mxm_errors(device):
    xp = np if device == "cpu" else pytest.importorskip("cupy")
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match=r"A @ B: A.ncols \(=3\) must equal B.nrows \(=2\)"):
        A @ A
    with pytest.raises(sr.DimensionMismatch, match=r"mxm: A.ncols \(=3\) must equal B.nrows \(=2\)"):
        sr.mxm(A, A)
    with pytest.raises(sr.DimensionMismatch, match="out.shape"):
        sr.mxm(A, A.T, out=A)
    with pytest.raises(sr.DomainMismatch, match="out must be a semiring.Matrix"):
        sr.mxm(A, A.T, out=xp.zeros((2, 2)))
    with pytest.raises(sr.InvalidValue, match="replace=True needs a sparse result"):
        sr.mxm(A, xp.zeros((3, 2)), replace=True)
    with pytest.raises(sr.DimensionMismatch, match="mask must be a"):
        sr.mxm(A, xp.zeros((3, 2)), mask=xp.ones((3, 3), dtype=bool))
    with pytest.raises(sr.DomainMismatch, match="complement=True needs a mask"):
        sr.mxm(A, xp.zeros((3, 2)), complement=True)
    with pytest.raises(sr.DomainMismatch, match="accum must not be a positional op"):
        sr.mxm(A, A.T, accum="secondi")
    with pytest.raises(sr.DomainMismatch, match="semiring"):
        sr.mxm(A, A.T, "no_such_semiring")
    expr = A @ A.T
    assert isinstance(expr, sr.MatMulExpr) and expr.shape == (2, 2)
    np.testing.assert_array_equal(to_host(sr.plus_times(expr).to_dense()), [[1.0, 0], [0, 0]])
    if device == "gpu":
        with pytest.raises(sr.DeviceMismatch):
            sr.mxm(A, np.zeros((3, 2)))
