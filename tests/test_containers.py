"""Matrix and Vector: constructors, conversions and their round trips, transpose, comparisons."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st

import semiring as sr
from conftest import to_host
from strategies import dense_matrix, dense_vector, make_matrix, make_vector


def _host_csr(A):
    return to_host(A.indptr), to_host(A.indices), None if A.is_iso else to_host(A.values)


@given(data=st.data())
def test_scipy_round_trip_keeps_explicit_zeros(device, data):
    vals, pres = data.draw(dense_matrix(), label="A")
    r, c = np.nonzero(pres)
    S = sp.csr_matrix((vals[r, c], (r, c)), shape=vals.shape)  # explicit zeros stay entries
    A = sr.Matrix.from_scipy(S, device=device)
    assert A.device == device and A.nvals == S.nnz and A.shape == S.shape and A.dtype == S.dtype
    B = A.to_cpu().to_scipy()
    assert B.nnz == S.nnz
    np.testing.assert_array_equal(B.toarray(), S.toarray())
    np.testing.assert_array_equal(B.indptr, S.indptr)
    np.testing.assert_array_equal(B.indices, S.indices)


def test_from_scipy_wraps_without_copy_and_sums_duplicates():
    S = sp.random(50, 40, density=0.1, format="csr", random_state=1, dtype=np.float32)
    A = sr.Matrix.from_scipy(S, device="cpu")
    assert A.values is S.data and A.indices is S.indices and A.indptr is S.indptr
    C = sp.coo_matrix(([1.0, 2.0, 3.0], ([0, 0, 1], [1, 1, 0])), shape=(2, 2))
    B = sr.Matrix.from_scipy(C, device="cpu")
    np.testing.assert_array_equal(B.to_dense(), [[0, 3.0], [3.0, 0]])
    I = sr.Matrix.from_scipy(S, device="cpu", iso=True)
    assert I.is_iso and I.dtype == np.bool_ and I.nvals == S.nnz


@pytest.mark.parametrize("kind", ["scipy", "cupyx"])
def test_a_lying_canonical_flag_is_not_trusted(device, kind):
    """A CSR whose ``has_canonical_format`` is set True over unsorted rows with duplicates
    (anyone can set the flag) becomes the canonical Matrix of its entries, as SciPy's own
    conversions make it; the input keeps its arrays."""
    S = sp.csr_array((np.array([1.0, 2.0, 3.0, 5.0]), np.array([2, 0, 2, 1]),
                      np.array([0, 3, 3, 4])), shape=(3, 3))
    want = S.toarray()
    if kind == "cupyx":
        if device != "gpu":
            pytest.skip("cupyx input is GPU input")
        import cupyx.scipy.sparse as cps
        S = cps.csr_matrix(S)
    S.has_canonical_format = True  # a lie: row 0 is (2, 0, 2)
    before = to_host(S.indices).copy()
    A = sr.Matrix.from_scipy(S, device=device) if kind == "scipy" else sr.Matrix.from_cupyx(S)
    assert to_host(A.indices).tolist() == [0, 2, 1] and to_host(A.indptr).tolist() == [0, 2, 2, 3]
    np.testing.assert_array_equal(to_host(A.to_dense(missing=0)), want)
    np.testing.assert_array_equal(to_host(S.indices), before)


@given(data=st.data())
def test_dense_and_coo_round_trip(device, data):
    vals, pres = data.draw(dense_matrix(), label="A")
    A = make_matrix(vals, pres, device)
    d = to_host(A.to_dense(missing=0))
    np.testing.assert_array_equal(d, np.where(pres, vals, 0))
    r, c, v = (to_host(a) for a in A.to_coo())
    np.testing.assert_array_equal(pres[r, c], True)
    assert r.size == pres.sum()
    B = sr.Matrix.from_coo(r, c, v, nrows=A.nrows, ncols=A.ncols, device=device)
    assert A.isequal(B, check_dtype=True)
    # missing-value round trip, with a missing value absent from the data
    if vals.dtype.kind in "if":
        miss = 12345
        M = sr.Matrix.from_dense(np.where(pres, vals, miss), missing=miss, device=device)
        assert M.isequal(A)


def test_from_dense_nan_missing(device):
    a = np.array([[np.nan, 1.0], [2.0, np.nan]])
    A = sr.Matrix.from_dense(a, missing=np.nan, device=device)
    assert A.nvals == 2
    np.testing.assert_array_equal(to_host(A.to_dense(missing=-1)), [[-1, 1], [2, -1]])
    assert A.to_dense(missing=np.inf).dtype == np.float64
    I = sr.Matrix.from_dense(np.array([[0, 5]], dtype=np.int32), missing=0, device=device)
    assert I.to_dense(missing=np.inf).dtype == np.float64
    assert I.to_dense(missing=0).dtype == np.int32


def test_from_coo_duplicates(device):
    with pytest.raises(sr.DuplicateIndices, match=r"duplicate entry at \(0, 1\)"):
        sr.Matrix.from_coo([0, 0], [1, 1], [1.0, 2.0], device=device)
    for op, want in [("min", 1.0), ("plus", 3.0), ("first", 2.0), ("second", 1.0), (sr.binary.max, 2.0)]:
        A = sr.Matrix.from_coo([0, 0, 1], [1, 1, 0], [2.0, 1.0, 7.0], dup_op=op, device=device)
        np.testing.assert_array_equal(to_host(A.to_dense()), [[0, want], [7.0, 0]])
    v = sr.Vector.from_coo([2, 2, 0, 2], [1, 5, 3, 4], size=3, dup_op="plus", device=device)
    np.testing.assert_array_equal(to_host(v.to_dense()), [3, 0, 10])
    with pytest.raises(sr.DuplicateIndices):
        sr.Vector.from_coo([1, 1], [1, 2], size=3, device=device)
    # structure-only duplicates collapse with any op
    S = sr.Matrix.from_coo([0, 0], [1, 1], None, dup_op="any", device=device)
    assert S.nvals == 1 and S.is_iso


def test_from_coo_beyond_int64_composite_keys(device):
    """Many entries over a huge key space (n² · entries ≥ 2⁶³, with duplicates): the GPU once
    sorted the keys made unique as key · entries + position, which wraps around int64 there
    and built a corrupt CSR (Borůvka on kron-20 never finished). The first of each run of
    duplicates, the least, and the CSR against SciPy's."""
    n = 1 << 22
    m = (1 << 20) + 5
    rng = np.random.default_rng(7)
    r = rng.integers(0, n, m)
    c = rng.integers(0, n, m)
    r[-5:], c[-5:] = r[:5], c[:5]  # five duplicates, after the entries they repeat
    v = np.arange(m, dtype=np.float64)
    xp = sr.array_module(device)
    for op, pick in (("first", np.minimum), ("min", np.minimum), ("second", np.maximum)):
        A = sr.Matrix.from_coo(xp.asarray(r), xp.asarray(c), xp.asarray(v), nrows=n, ncols=n,
                               dup_op=op, device=device)
        S = sp.coo_matrix((v, (r, c)), shape=(n, n)).tocsr()  # sums: only the structure used
        S.sort_indices()
        ip, ix, vals = _host_csr(A)
        np.testing.assert_array_equal(ip, S.indptr)
        np.testing.assert_array_equal(ix, S.indices)
        # the value of each (row, col): its entries' positions folded by the op, in order
        key = r * n + c
        order = np.argsort(key, kind="stable")
        heads = np.flatnonzero(np.r_[True, np.diff(key[order]) != 0])
        want = pick.reduceat(v[order], heads)
        np.testing.assert_array_equal(vals, want)


@given(data=st.data())
def test_transpose(device, data):
    vals, pres = data.draw(dense_matrix(), label="A")
    iso = data.draw(st.booleans())
    A = make_matrix(vals, pres, device, iso=iso, int64=data.draw(st.booleans()))
    T = A.T
    assert T.T is A and A.T is T and T.shape == A.shape[::-1]
    exp = np.where(pres, True if iso else vals, 0).T
    np.testing.assert_array_equal(to_host(T.to_dense(missing=0)), exp)
    ip, ix, _ = _host_csr(T)
    for r in range(T.nrows):  # canonical: sorted within each row
        assert np.all(np.diff(ix[ip[r]:ip[r + 1]]) > 0)
    assert T.itype == A.itype


def test_index_type_choice():
    assert sr.matrix.index_type(10, 10, 100) == np.int32
    assert sr.matrix.index_type(2**31, 3, 5) == np.int64
    assert sr.matrix.index_type(3, 3, 2**31) == np.int64
    assert sr.matrix.index_type(2**31 - 1, 3, 3) == np.int64  # kernels need headroom
    lim = 2**31 - 1 - sr.matrix.INT32_HEADROOM
    assert sr.matrix.index_type(lim, lim, lim) == np.int32


def test_iso_matrix_and_from_csr(device):
    xp = sr.device.xp_of(device)
    A = sr.Matrix.from_csr(xp.array([0, 2, 2, 3]), xp.array([0, 2, 1]), None, (3, 3))
    assert A.is_iso and A.iso_value == True and A.dtype == np.bool_  # noqa: E712
    np.testing.assert_array_equal(to_host(A.to_dense()), [[1, 0, 1], [0, 0, 0], [0, 1, 0]])
    W = sr.Matrix.from_csr(xp.array([0, 1]), xp.array([0]), None, (1, 1), iso_value=2.5)
    assert W.dtype == np.float64 and float(to_host(W.to_dense())[0, 0]) == 2.5
    with pytest.raises(sr.InvalidValue, match="sorted and unique"):
        sr.Matrix.from_csr(xp.array([0, 2]), xp.array([1, 0]), xp.array([1.0, 2.0]), (1, 2))
    with pytest.raises(sr.InvalidIndex, match=r"\[0, 2\)"):
        sr.Matrix.from_csr(xp.array([0, 1]), xp.array([5]), xp.array([1.0]), (1, 2))
    with pytest.raises(sr.DimensionMismatch, match="indptr"):
        sr.Matrix.from_csr(xp.array([0, 1]), xp.array([0]), xp.array([1.0]), (2, 2))


@given(data=st.data())
def test_vector_forms_round_trip(device, data):
    n = data.draw(st.integers(0, 30))
    vals, pres = data.draw(dense_vector(n), label="v")
    v = make_vector(vals, pres, device, data.draw(st.sampled_from(["bitmap", "sparse"])))
    assert v.nvals == pres.sum() and v.size == n and v.dtype == vals.dtype
    b = v.to_form("bitmap")
    s = v.to_form("sparse")
    assert b.form == "bitmap" and s.form == "sparse"
    assert b.isequal(s, check_dtype=True) and s.isequal(v)
    i, x = (to_host(a) for a in s.to_coo())
    np.testing.assert_array_equal(i, np.flatnonzero(pres))
    np.testing.assert_array_equal(x, vals[pres])
    d = sr.Vector.from_dense(np.where(pres, vals, 0) if vals.dtype != np.bool_ else vals, device=device)
    assert d.nvals == n


def test_vector_from_dense_wraps_and_masks(device):
    xp = sr.device.xp_of(device)
    a = xp.asarray([1.0, np.inf, 3.0])
    v = sr.Vector.from_dense(a, device=device)
    assert v.device == device and v.bitmap()[0] is a and v.nvals == 3
    assert sr.Vector.from_dense(a).device == ("gpu" if device == "gpu" else sr.default_device())
    w = sr.Vector.from_dense(a, missing=np.inf, device=device)
    assert w.nvals == 2
    np.testing.assert_array_equal(to_host(w.to_dense(missing=-1)), [1, -1, 3])
    assert sr.Vector.new(4, np.int32, device=device).nvals == 0


def test_isclose(device):
    a = sr.Vector.from_coo([0, 2], [1.0, 2.0], size=3, device=device)
    b = sr.Vector.from_coo([0, 2], [1.0 + 1e-9, 2.0], size=3, device=device)
    c = sr.Vector.from_coo([0, 1], [1.0, 2.0], size=3, device=device)
    assert a.isclose(b) and not a.isequal(b) and not a.isclose(c)
    A = sr.Matrix.from_dense(np.array([[1.0, np.inf]]), device=device)
    B = sr.Matrix.from_dense(np.array([[1.0 + 1e-12, np.inf]]), device=device)
    assert A.isclose(B) and not A.isequal(B)


@pytest.mark.skipif(not sr.gpu_available(), reason="needs a GPU")
def test_gpu_round_trips():
    import cupyx.scipy.sparse as cps

    S = sp.random(40, 30, density=0.2, format="csr", random_state=2, dtype=np.float32)
    A = sr.Matrix.from_scipy(S, device="cpu")
    G = A.to_gpu()
    assert G.device == "gpu" and G.to_cpu().isequal(A, check_dtype=True)
    C = G.to_cupyx()
    assert isinstance(C, cps.csr_matrix)
    H = sr.Matrix.from_cupyx(C)
    assert H.values is C.data and H.isequal(G)
    v = sr.Vector.from_coo([1, 3], [2.0, 4.0], size=5, device="cpu")
    assert v.to_gpu().device == "gpu" and v.to_gpu().to_cpu().isequal(v)
    with pytest.raises(sr.DomainMismatch, match="cupyx"):
        sr.Matrix.from_dense(np.eye(2, dtype=np.int32), device="gpu").to_cupyx()


@given(n=st.integers(0, 40), seed=st.integers(0, 2**31 - 1), all_present=st.booleans(),
       dtype=st.sampled_from([np.float32, np.int64, np.bool_]))
def test_vector_from_bitmap_and_unsorted_coo(device, n, seed, all_present, dtype):
    rng = np.random.default_rng(seed)
    vals = rng.integers(-3, 4, n).astype(dtype)
    pres = None if all_present else rng.random(n) < 0.5
    v = sr.Vector.from_bitmap(vals, pres, device=device)
    keep = np.ones(n, bool) if pres is None else pres
    assert v.device == device and v.dtype == dtype and v.size == n
    assert v.nvals == int(keep.sum())
    np.testing.assert_array_equal(to_host(v.to_dense(missing=7)),
                                  np.where(keep, vals, np.asarray(7, v.to_dense(7).dtype)))
    # the same entries as unique indices in a random order: sort=False keeps that order
    idx = rng.permutation(np.flatnonzero(keep))
    u = sr.Vector.from_coo(idx, vals[idx], size=n, device=device, sort=False)
    ref = sr.Vector.from_coo(idx, vals[idx], size=n, device=device)
    np.testing.assert_array_equal(to_host(u.sparse(sorted=False)[0]), idx)
    for a, b in zip(u.to_coo(), ref.to_coo()):
        np.testing.assert_array_equal(to_host(a), to_host(b))
    if idx.size > 1:
        with pytest.raises(sr.DuplicateIndices, match="Vector.from_coo: duplicate index"):
            sr.Vector.from_coo(np.r_[idx, idx[:1]], 1.0, size=n, device=device, sort=False)


def test_vector_from_bitmap_validates(device):
    with pytest.raises(sr.DimensionMismatch, match=r"Vector.from_bitmap: present must have values' shape \(3,\), got \(2,\)"):
        sr.Vector.from_bitmap(np.zeros(3), np.zeros(2, bool), device=device)
    with pytest.raises(sr.DomainMismatch, match="Vector.from_bitmap: present must be a bool array, got int64"):
        sr.Vector.from_bitmap(np.zeros(3), np.zeros(3, np.int64), device=device)
    with pytest.raises(sr.DimensionMismatch, match="Vector.from_bitmap: values must be 1-D"):
        sr.Vector.from_bitmap(np.zeros((2, 2)), device=device)


def test_strided_x_is_read_by_its_items(device):
    """A view x[::2] (or x[::-2]) wrapped as a vector is read item by item: the GPU kernels
    get x by its address alone, so the view is copied when wrapped (before, the pull read
    the items that follow x's first: a wrong answer on the GPU only). (spmv8, session 14)"""
    xp = sr.array_module(device)
    rng = np.random.default_rng(21)
    S = sp.random(40, 30, density=0.2, format="csr", random_state=rng)
    A = sr.Matrix.from_scipy(S, device=device)
    base = rng.integers(-3, 4, 60).astype(np.float64)
    for view in (slice(None, None, 2), slice(None, None, -2)):
        for _ in range(3):  # (plans kept on the matrix from the second call on)
            x = sr.Vector.from_dense(xp.asarray(base)[view], device=device)
            got = to_host(sr.mxv(A, x, sr.plus_times).to_dense())
            np.testing.assert_allclose(got, S @ base[view], rtol=1e-12)
        yb = rng.integers(-3, 4, 80).astype(np.float64)
        present = rng.random(80) < 0.5
        y = sr.Vector.from_bitmap(xp.asarray(yb)[view], xp.asarray(present)[view],
                                  device=device)
        got = to_host(sr.vxm(y, A, sr.plus_times).to_dense())
        np.testing.assert_allclose(got, S.T @ np.where(present[view], yb[view], 0),
                                   rtol=1e-12)


def test_strided_csr_arrays_are_read_by_their_items(device):
    """Matrix.from_csr on strided views (every other item of larger arrays): the GPU kernels
    read indptr, indices and values by their address alone, so the views are copied."""
    xp = sr.array_module(device)
    rng = np.random.default_rng(22)
    S = sp.random(30, 25, density=0.25, format="csr", random_state=rng)
    S.sort_indices()

    def spaced(a):  # a strided view holding a's items
        b = np.zeros(2 * a.size, dtype=a.dtype)
        b[::2] = a
        return xp.asarray(b)[::2]

    A = sr.Matrix.from_csr(spaced(S.indptr), spaced(S.indices), spaced(S.data), S.shape)
    x = rng.random(25)
    x_ = sr.Vector.from_dense(xp.asarray(x), device=device)
    got = to_host(sr.mxv(A, x_, sr.plus_times).to_dense())
    np.testing.assert_allclose(got, S @ x, rtol=1e-12)
    np.testing.assert_array_equal(to_host(A.to_dense(0.0)), S.toarray())
