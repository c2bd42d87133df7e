"""The CPU fast products (SciPy's ``A @ x``, ``S @ X``, BLAS's matmul, SciPy's SpGEMM) redo
their zero sums by the semiring's fold only where a product can be -0.0 (some operand value
with its sign bit set, ``dense.negative_zero_possible``): session 23 found the redo of every
row holding a zero made edge betweenness on a 50² grid 35x slower. Where a sign bit is set the
redo still gives the fold's -0.0 (tests/test_audit22.py)."""

import numpy as np
import pytest

import semiring as sr
from semiring.backend.cpu import dense, spgemm, spmv


def _never(*args, **kwargs):
    raise AssertionError("the zero-sign redo ran on operands with no sign bit set")


def _matrix(rng, n, density, dtype, negative=False):
    mask = rng.random((n, n)) < density
    r, c = np.nonzero(mask)
    v = rng.random(r.size).astype(dtype) + 0.5
    if negative:
        v[::3] *= -1
    return sr.Matrix.from_coo(r, c, v, nrows=n, ncols=n, device="cpu")


def test_negative_zero_possible():
    assert not dense.negative_zero_possible(np.array([0.0, 1.0, np.inf]), np.array([2.0]))
    assert dense.negative_zero_possible(np.array([0.0, -0.0]))
    assert dense.negative_zero_possible(np.array([1.0]), np.array([-3.0]))
    assert not dense.negative_zero_possible(np.array([], dtype=np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_spmm_skips_the_redo_without_sign_bits(monkeypatch, dtype):
    rng = np.random.default_rng(1)
    A = _matrix(rng, 40, 0.1, dtype)
    X = np.zeros((40, 6), dtype=dtype)  # mostly zero: nearly every row of Y holds a zero
    X[::7, ::2] = 1.5
    want = A.to_dense(missing=0).astype(dtype) @ X
    monkeypatch.setattr(dense, "_rows_subset", _never)
    Y, _ = dense.spmm(A, X, None, sr.plus_times, np.dtype(dtype), False, False)
    np.testing.assert_allclose(Y, want, rtol=1e-6)  # (BLAS's sum order against SciPy's)
    assert not np.signbit(Y).any()


def test_spmm_redoes_with_a_sign_bit():
    rng = np.random.default_rng(2)
    A = _matrix(rng, 30, 0.1, np.float64, negative=True)
    X = np.zeros((30, 4))
    X[0] = -0.0
    called = []
    real = dense._rows_subset

    def spy(*args, **kwargs):
        called.append(1)
        return real(*args, **kwargs)

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(dense, "_rows_subset", spy)
    try:
        dense.spmm(A, X, None, sr.plus_times, np.dtype(np.float64), False, False)
    finally:
        monkeypatch.undo()
    assert called


def test_gemm_skips_the_redo_without_sign_bits(monkeypatch):
    rng = np.random.default_rng(3)
    X = np.where(rng.random((20, 9)) < 0.3, rng.random((20, 9)), 0.0)
    Y = np.where(rng.random((9, 7)) < 0.3, rng.random((9, 7)), 0.0)
    monkeypatch.setattr(dense, "_gemm_folds", _never)
    Z = dense.gemm(X, Y, sr.plus_times, np.dtype(np.float64))
    np.testing.assert_allclose(Z, X @ Y, rtol=1e-12)


def test_scipy_pull_skips_the_redo_without_sign_bits(monkeypatch):
    rng = np.random.default_rng(4)
    A = _matrix(rng, 50, 0.08, np.float64)
    x = np.zeros(50)
    x[::5] = 2.0
    monkeypatch.setattr(spmv, "_fold_rows", _never)
    monkeypatch.setattr(spmv.compiled, "ENABLED", False)  # SciPy's A @ x route, not the loop
    y = sr.mxv(A, sr.Vector.from_dense(x, device="cpu"), "plus_times")
    want = A.to_dense(missing=0) @ x
    got = y.to_dense(missing=0)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_scipy_spgemm_skips_the_redo_without_sign_bits(monkeypatch):
    rng = np.random.default_rng(5)
    A = _matrix(rng, 30, 0.1, np.float64)
    B = _matrix(rng, 30, 0.1, np.float64)
    monkeypatch.setattr(spgemm.compiled, "ENABLED", False)  # SciPy's product route
    monkeypatch.setattr(spgemm, "_rows_subset", _never)
    C = sr.mxm(A, B, "plus_times")
    want = A.to_dense(missing=0) @ B.to_dense(missing=0)
    np.testing.assert_allclose(C.to_dense(missing=0), want, rtol=1e-12)
