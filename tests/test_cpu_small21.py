"""Session 21 (cpu21): the CPU backend's fast paths for small warm calls, each against the
general path it shortcuts, on random inputs with explicit zeros, -0.0, NaN and inf, integer
and bool types, iso values and empty matrices:

- the compiled row loop for SciPy's ``A @ x`` kinds (plus_times, and plus_first /
  plus_second by the x-only kernel), and the x-only kernel for the other monoids (min, max,
  any), against SciPy's path and the NumPy fold;
- ``mxv`` / ``vxm`` of a plain host array with ``direction="pull"`` against a Vector;
- ``Vector.to_dense`` of a host vector in sparse form against the bitmap's;
- the compiled PageRank step against NumPy's;
- the compiled weak components (search, union-find) against SciPy's.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy.sparse.csgraph import connected_components

import algorithms
import semiring as sr

spmv_cpu = importlib.import_module("semiring.backend.cpu.spmv")
compiled = importlib.import_module("semiring.backend.cpu.compiled")
cent_cpu = importlib.import_module("semiring.backend.cpu.centrality")
ops_mod = importlib.import_module("semiring.operations")

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="Numba is not installed")

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_]
X_ONLY = ["plus_first", "plus_second", "min_first", "min_second", "max_first", "max_second",
          "any_first", "any_second", "plus_times", "min_times", "max_min", "lor_land", "plus_pair"]


def _matrix(rng, nrows, ncols, dtype, special, iso, zeros):
    present = rng.random((nrows, ncols)) < rng.random((nrows, 1))  # empty and full rows
    vals = rng.integers(-4, 5, (nrows, ncols)).astype(dtype)
    if special and np.dtype(dtype).kind == "f" and vals.size:
        vals.flat[rng.integers(0, vals.size, 4)] = [np.nan, np.inf, -0.0, -np.inf]
    if zeros and vals.size:  # explicit zeros stored
        vals.flat[rng.integers(0, vals.size, 3)] = 0
    r, c = np.nonzero(present)
    if iso:
        return sr.Matrix.from_coo(r, c, np.ones(1, dtype=dtype)[0], nrows=nrows, ncols=ncols,
                                  device="cpu")
    return sr.Matrix.from_coo(r, c, vals[r, c], nrows=nrows, ncols=ncols, dtype=dtype,
                              device="cpu")


def _x(rng, size, dtype, special):
    x = rng.integers(-4, 5, size).astype(dtype)
    if special and np.dtype(dtype).kind == "f" and size:
        x[rng.integers(0, size, min(size, 3))] = [np.nan, -0.0, np.inf][:min(size, 3)]
    return x


def _general(product, monkeypatch_ctx, scipy: bool):
    """The product without the compiled kernels (SciPy's path where ``scipy``, else the
    NumPy fold alone)."""
    with monkeypatch_ctx() as mp:
        mp.setattr(compiled, "ENABLED", False)
        if not scipy:
            mp.setattr(spmv_cpu, "SCIPY_PULL", {})
        return product()


def _same(got, ref, plus):
    gi, gv = got.sparse()
    ri, rv = ref.sparse()
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(gi, ri)
    np.testing.assert_array_equal(gv, rv)  # (NaN where NaN)
    if plus and gv.dtype.kind == "f":  # a zero sum's sign too
        np.testing.assert_array_equal(np.signbit(gv), np.signbit(rv))


@settings(deadline=None, max_examples=150)
@given(nrows=st.integers(0, 40), ncols=st.integers(0, 40), seed=st.integers(0, 2**31 - 1),
       name=st.sampled_from(X_ONLY), dtype=st.sampled_from(DTYPES), iso=st.booleans(),
       special=st.booleans(), zeros=st.booleans(), vxm=st.booleans(), array=st.booleans())
def test_compiled_pull_equals_scipy_and_the_fold(nrows, ncols, seed, name, dtype, iso, special,
                                                 zeros, vxm, array):
    """The compiled pull (kept on the matrix from its first product: called three times)
    against SciPy's path and the NumPy fold, exactly: the values are small integers, so a
    float sum is exact in any order, and the sign of a zero sum is the fold's."""
    rng = np.random.default_rng(seed)
    A = _matrix(rng, nrows, ncols, dtype, special, iso, zeros)
    xd = _x(rng, nrows if vxm else ncols, dtype, special)
    x = xd if array else sr.Vector.from_dense(xd, device="cpu")
    S = getattr(sr, name)
    if vxm:
        def product():
            return sr.vxm(x, A, S, direction="pull")
    else:
        def product():
            return sr.mxv(A, x, S, direction="pull")
    got = [product() for _ in range(3)]
    plus = name.startswith("plus")
    for g in got[1:]:
        _same(g, got[0], plus)
    _same(got[0], _general(product, pytest.MonkeyPatch.context, scipy=True), plus)
    _same(got[0], _general(product, pytest.MonkeyPatch.context, scipy=False), plus)


def test_the_a_at_x_kinds_run_compiled_first(monkeypatch):
    """plus_times, plus_first in vxm and plus_second in mxv: the compiled row loop, SciPy's
    path not asked (it stays where no kernel runs); the route kept on the pulled matrix."""
    A = sr.Matrix.from_coo([0, 0, 2], [0, 1, 1], [2.0, -3.0, 4.0], nrows=3, ncols=3,
                           device="cpu")
    x = sr.Vector.from_dense(np.array([1.0, 5.0, 7.0]), device="cpu")
    asked = []
    real = spmv_cpu.scipy_pull
    monkeypatch.setattr(spmv_cpu, "scipy_pull", lambda *a: asked.append(a[3]) or real(*a))
    assert sr.mxv(A, x, sr.plus_times).to_dense(missing=-1).tolist() == [-13.0, -1, 20.0]
    assert sr.mxv(A, x, sr.plus_second).to_dense(missing=-1).tolist() == [6.0, -1, 5.0]
    assert sr.vxm(x, A, sr.plus_first).to_dense(missing=-1).tolist() == [1.0, 8.0, -1]
    assert sr.mxv(A, x, sr.plus_pair).to_dense(missing=-1).tolist() == [2.0, -1, 1.0]
    assert asked == [sr.plus_pair]  # (counts: SciPy's)
    assert (spmv_cpu.ROUTE_KEY, sr.plus_times, np.dtype(np.float64), False) in A._memo
    assert (spmv_cpu.ROUTE_KEY, sr.plus_first, np.dtype(np.float64), True) in A.T._memo
    # plus_first in mxv: every product is A's value (no x-only form): the NumPy paths
    assert compiled.xonly_ops(sr.plus_first, np.float64, False) is None
    assert sr.mxv(A, x, sr.plus_first).to_dense(missing=-1).tolist() == [-1.0, -1, 4.0]


def test_a_row_of_negative_zeros_keeps_its_sign_compiled():
    # csr_matvec starts a row at +0.0; the compiled loop at its first product, as the fold
    A = sr.Matrix.from_coo([0, 0, 1, 2], [0, 1, 0, 1], [-0.0, -0.0, 1.0, 0.0], nrows=3,
                           ncols=2, device="cpu")
    x = sr.Vector.from_dense(np.array([1.0, 2.0]), device="cpu")
    for _ in range(3):  # (the first product picks the route, the next take it kept)
        y = sr.mxv(A, x, sr.plus_times).to_dense(missing=np.nan)
        assert y.tolist() == [0.0, 1.0, 0.0]
        assert np.signbit(y).tolist() == [True, False, False]
    z = sr.Vector.from_dense(np.array([-0.0, -0.0]), device="cpu")
    for _ in range(3):
        y = sr.mxv(A, z, sr.plus_second).to_dense(missing=np.nan)
        assert np.signbit(y).tolist() == [True, True, True]


def test_no_kernel_falls_back_to_scipy(monkeypatch):
    """Where the compiled route answers None (no kernel for the types), SciPy's path runs."""
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.5, 2.5], nrows=2, ncols=2, device="cpu")
    x = sr.Vector.from_dense(np.array([2.0, 4.0]), device="cpu")
    monkeypatch.setattr(compiled, "pull_route", lambda *a: compiled._no_route)
    asked = []
    real = spmv_cpu.scipy_pull
    monkeypatch.setattr(spmv_cpu, "scipy_pull", lambda *a: asked.append(1) or real(*a))
    for _ in range(3):
        assert sr.mxv(A, x, sr.plus_times).to_dense().tolist() == [6.0, 5.0]
    assert asked == [1, 1, 1]


@pytest.mark.parametrize("direction", ["pull", "auto"])
def test_host_array_operand_equals_a_vector(direction):
    rng = np.random.default_rng(3)
    A = _matrix(rng, 9, 7, np.float64, True, False, True)
    for name in ("plus_times", "min_plus", "plus_first", "any_pair", "lor_land"):
        S = getattr(sr, name)
        for dtype in (np.float64, np.float32, np.int32, np.bool_):
            xd = _x(rng, 9, dtype, True)
            for k in range(2):
                got = sr.vxm(xd, A, S, direction=direction)
                ref = sr.vxm(sr.Vector.from_dense(xd.copy(), device="cpu"), A, S,
                             direction=direction)
                _same(got, ref, name.startswith("plus"))
    # a strided view and an array of another type: the general path, as before
    xd = np.arange(14.0)[::2]
    _same(sr.mxv(A, xd, sr.plus_times, direction=direction),
          sr.mxv(A, sr.Vector.from_dense(xd.copy(), device="cpu"), sr.plus_times), True)
    with pytest.raises(sr.DomainMismatch, match=r"mxv: u.dtype must be one of .*complex128"):
        sr.mxv(A, np.ones(7, dtype=np.complex128), sr.plus_times, direction=direction)
    with pytest.raises(sr.DimensionMismatch, match="u must be 1-D"):
        sr.mxv(A, np.ones((7, 1)), sr.plus_times, direction=direction)
    with pytest.raises(sr.DimensionMismatch, match=r"A.ncols \(=7\) must equal u.size \(=6\)"):
        sr.mxv(A, np.ones(6), sr.plus_times, direction=direction)
    xd = np.ones(7)
    sr.mxv(A, xd, sr.plus_times, direction=direction)
    assert xd.tolist() == [1.0] * 7  # never written


def test_pull_of_a_sparse_vector_stays_a_pull(monkeypatch):
    """direction='pull' through the plain call's path pulls a sparse-form u too."""
    A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], nrows=3, ncols=3,
                           device="cpu")
    u = sr.Vector.from_coo([1], [5.0], size=3, device="cpu")
    assert u.form == "sparse"
    seen = []
    be = spmv_cpu
    real_pull, real_push = be.pull, be.push
    monkeypatch.setattr(be, "pull", lambda *a: seen.append("pull") or real_pull(*a))
    monkeypatch.setattr(be, "push", lambda *a: seen.append("push") or real_push(*a))
    assert sr.mxv(A, u, sr.plus_times, direction="pull").to_dense().tolist() == [5.0, 0, 0]
    assert sr.mxv(A, u, sr.plus_times).to_dense().tolist() == [5.0, 0, 0]
    assert seen == ["pull", "push"]


@settings(deadline=None, max_examples=200)
@given(size=st.integers(0, 30), seed=st.integers(0, 2**31 - 1), dtype=st.sampled_from(DTYPES),
       missing=st.sampled_from([0, 1, -1, 0.5, -0.0, np.nan, np.inf, 2**40, 2**63, True,
                                np.float32(2.5), np.int64(-7)]))
def test_to_dense_of_a_sparse_vector_equals_the_bitmaps(size, seed, dtype, missing):
    rng = np.random.default_rng(seed)
    keep = rng.random(size) < 0.5
    idx = np.flatnonzero(keep)
    vals = _x(rng, idx.size, dtype, True)
    v = sr.Vector.from_coo(idx, vals, size=size, dtype=dtype, device="cpu")
    assert v._bitmap is None  # (the sparse form alone: the new path)
    b = sr.Vector.from_coo(idx, vals, size=size, dtype=dtype, device="cpu")
    b.bitmap()  # (the bitmap made first: the old path)
    try:
        ref = b.to_dense(missing=missing)
    except Exception as exc:  # noqa: BLE001  (the same error, then)
        with pytest.raises(type(exc)):
            v.to_dense(missing=missing)
        return
    got = v.to_dense(missing=missing)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(ref))
    assert v._bitmap is None and v.sparse()[1] is not got  # (not a view of the vector)


def test_to_dense_refuses_what_it_refused():
    v = sr.Vector.from_coo([1], [2.0], size=3, device="cpu")
    for bad in ("0", np.zeros(2), 1 + 2j):
        with pytest.raises(sr.DomainMismatch, match="missing must be a real number"):
            v.to_dense(missing=bad)
    # (None is the default since session 24: the type's zero, the vector's dtype kept)
    assert v.to_dense(missing=None).dtype == v.dtype


def _step_inputs(n, seed, missing):
    rng = np.random.default_rng(seed)
    vals = rng.random(n)
    if n:
        vals[rng.integers(0, n, 2)] = [-0.0, 0.0]
    pres = rng.random(n) > 0.2 if missing else None
    x = rng.random(n)
    u = np.full(n, 1.0 / max(n, 1))
    p = 0.15 * u
    outdeg = rng.integers(0, 4, n).astype(np.float64)
    inv = np.where(outdeg == 0, 0.0, 1.0 / np.where(outdeg == 0, 1.0, outdeg))
    return vals, pres, x, u, p, inv, np.flatnonzero(outdeg == 0)


@pytest.mark.parametrize("n", [0, 1, 7, 1000, cent_cpu.POWER_COMPILED_MAX,
                               cent_cpu.POWER_COMPILED_MAX + 1])
@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("s", [0.0, 0.0625])
def test_compiled_power_step_equals_numpys(n, missing, s, monkeypatch):
    vals, pres, x, u, p, inv, dangling = _step_inputs(n, n + 1, missing)
    args = (vals, pres, x, u, p, inv, 0.85, s, dangling)
    got = cent_cpu.power_update(*args)
    with monkeypatch.context() as mp:
        mp.setattr(compiled, "ENABLED", False)
        ref = cent_cpu.power_update(*args)
    np.testing.assert_array_equal(got[0], ref[0])  # the same bits, element by element
    np.testing.assert_array_equal(np.signbit(got[0]), np.signbit(ref[0]))
    np.testing.assert_array_equal(got[1], ref[1])
    assert got[2] == pytest.approx(ref[2], rel=1e-12, abs=1e-300)  # sums: another order
    assert got[3] == pytest.approx(ref[3], rel=1e-12, abs=1e-300)
    assert isinstance(got[2], float) and isinstance(got[3], float)
    assert vals.size == n and (pres is None or pres.size == n)  # inputs untouched


cc_cpu = importlib.import_module("semiring.backend.cpu.components")


@settings(deadline=None, max_examples=150)
@given(n=st.integers(1, 60), seed=st.integers(0, 2**31 - 1), density=st.floats(0, 0.2),
       symmetric=st.booleans(), loops=st.booleans(), int64=st.booleans())
def test_compiled_weak_components_equal_scipys(n, seed, density, symmetric, loops, int64):
    """The compiled search (symmetric pattern) and union-find (any pattern) against SciPy's
    weak components, labels and all (both number components by least vertex), and against
    this module's SciPy path."""
    rng = np.random.default_rng(seed)
    P = rng.random((n, n)) < density
    if symmetric:
        P |= P.T
    np.fill_diagonal(P, loops)
    H = sp.csr_matrix(P.astype(np.float64))
    if int64:
        H.indices, H.indptr = H.indices.astype(np.int64), H.indptr.astype(np.int64)
    A = sr.Matrix.from_scipy(H, device="cpu")
    _, ref = connected_components(H, directed=True, connection="weak")
    skips = (False, True) if symmetric else (False,)
    for skip in skips:
        got = cc_cpu.weak_components(A, skip, 2, 1024)
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, ref)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(compiled, "ENABLED", False)
            np.testing.assert_array_equal(cc_cpu.weak_components(A, skip, 2, 1024), ref)
    np.testing.assert_array_equal(algorithms.connected_components(A, symmetric=symmetric), ref)


def test_compiled_weak_components_of_edges_stored_one_way():
    """Union-find joins an edge's ends whichever way it is stored: a chain stored backwards
    and a star into a hub are one component each."""
    A = sr.Matrix.from_coo([3, 2, 1, 6, 7, 8], [2, 1, 0, 5, 5, 5], None, nrows=10, ncols=10,
                           device="cpu")
    got = cc_cpu.weak_components(A, False, 2, 1024)
    assert got.tolist() == [0, 0, 0, 0, 1, 2, 2, 2, 2, 3]


def test_warm_compiles_the_x_only_pull():
    """python -m semiring.warmup --cpu covers the x-only kernels (plus_first and min_first /
    min_second are among its common semirings): each variant a pull may take is made."""
    dt = np.dtype(np.float64)
    assert compiled.warm(sr.plus_first, dt, False) == 8  # 2 index types x 2 x 2 variants
    for parallel in (False, True):
        for unroll in (True, False):
            assert compiled._kernels[("pull", sr.plus_first, dt, 1, parallel, True, unroll,
                                      True)] is not None
            # (x second in plus_first: A's value, no x-only kernel)
            assert ("pull", sr.plus_first, dt, 1, parallel, False, unroll, True) not in \
                compiled._kernels
    assert compiled.warm(sr.any_secondi, dt, False) == 0
