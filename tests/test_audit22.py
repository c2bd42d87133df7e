"""Session 22 (aud22): defects found by the outside-in audit of the algebra
(``bench/probes/aud22_algebra.py``, a differential fuzzer against a dense GraphBLAS oracle),
each pinned by the call that showed it:

- ``Matrix.to_coo`` handed out the matrix's own values array (``Vector.to_coo`` copies): a
  caller's write changed the matrix behind its cached transpose;
- ``Vector.from_coo(..., sort=False)`` kept the caller's index and value arrays: a later
  write into them changed the vector (the sorting path and ``Matrix.from_coo`` copy);
- ``Matrix.from_coo`` with a scalar value and ``dup_op`` ignored the op (two 1s under plus
  gave 1; ``Vector.from_coo`` gives 2);
- ``select`` by value with a Python int thunk outside the values' type compared after the
  thunk wrapped into it (int32 values, ``valuelt`` 2**31 kept nothing);
- errors that named another function's argument (``mxv`` of an int8 array:
  "Vector.from_dense: array.dtype"; a dense int8 operand of ``mxm``: "spmm: X.dtype";
  ``Matrix.from_coo`` of int8 values: "dtype"), a slice of step 0 (Python's bare
  "slice step cannot be zero"), a dense ``mxm``'s ``out`` / ``mask`` of the wrong shape
  raised DomainMismatch (a TypeError) where a sparse one's raises DimensionMismatch.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr

from conftest import to_host


def _xp(device):
    return np if device == "cpu" else pytest.importorskip("cupy")


# ---------------------------------------------------------------------- read-back aliasing


@pytest.mark.parametrize("iso", [False, True])
def test_matrix_to_coo_values_are_a_copy(device, iso):
    vals = None if iso else [2.0, 3.0, 5.0]
    A = sr.Matrix.from_coo([0, 1, 1], [1, 0, 2], vals, nrows=2, ncols=3,
                           dtype=np.float64, device=device)
    before = to_host(A.to_dense(missing=-1))
    At = A.T  # (the cached transpose must keep agreeing with A)
    r, c, v = A.to_coo()
    v[:] = 99.0
    assert to_host(A.to_dense(missing=-1)).tolist() == before.tolist()
    assert to_host(At.to_dense(missing=-1)).T.tolist() == before.tolist()
    # and the read-back is what to_dense says
    assert to_host(v).size == A.nvals


def test_vector_from_coo_unsorted_keeps_no_caller_array(device):
    xp = _xp(device)
    idx = xp.asarray([3, 0, 2], dtype=xp.int64)
    vals = xp.asarray([1.5, 2.5, 3.5])
    u = sr.Vector.from_coo(idx, vals, size=4, sort=False, device=device)
    idx[0] = 1
    vals[:] = -7.0
    assert to_host(u.to_dense(missing=0)).tolist() == [2.5, 0.0, 3.5, 1.5]


# ---------------------------------------------------------------------- from_coo, dup_op


@pytest.mark.parametrize("dup_op", ["plus", "times", "min", "max", "first", "second",
                                    "minus", "any"])
@pytest.mark.parametrize("value", [3, 2.5, True, np.float32(-0.5)])
def test_matrix_from_coo_scalar_folds_duplicates(device, dup_op, value):
    rows, cols = [1, 0, 1, 1, 2], [1, 0, 1, 1, 0]
    A = sr.Matrix.from_coo(rows, cols, value, nrows=3, ncols=2, dup_op=dup_op, device=device)
    # the scalar given to every entry, as an array of it: the same fold
    dt = np.asarray(value).dtype
    B = sr.Matrix.from_coo(rows, cols, np.full(len(rows), value, dtype=dt), nrows=3, ncols=2,
                           dup_op=dup_op, device=device)
    assert A.dtype == B.dtype
    assert to_host(A.to_dense(missing=0)).tolist() == to_host(B.to_dense(missing=0)).tolist()
    # and as the vector does (the matrix's column 1)
    v = sr.Vector.from_coo([1, 1, 1], value, size=3, dup_op=dup_op, device=device)
    assert to_host(v.to_dense(missing=0))[1] == to_host(A.to_dense(missing=0))[1, 1]


def test_matrix_from_coo_scalar_dup_op_keeps_iso_where_it_can(device):
    A = sr.Matrix.from_coo([0, 0, 1], [0, 0, 1], 4, nrows=2, ncols=2, dup_op="min",
                           device=device)
    assert A.is_iso and A.iso_value == 4
    B = sr.Matrix.from_coo([0, 0, 1], [0, 0, 1], 4, nrows=2, ncols=2, dup_op="plus",
                           device=device)
    assert not B.is_iso
    assert to_host(B.to_dense(missing=0)).tolist() == [[8, 0], [0, 4]]
    S = sr.Matrix.from_coo([0, 0], [1, 1], None, nrows=1, ncols=2, dup_op="minus",
                           device=device)  # True - True in bool is False (lxor)
    assert to_host(S.to_dense(missing=True)).tolist() == [[True, False]]


# ---------------------------------------------------------------------- select's thunk


SELECT_CMP = {"valuelt": lambda x, t: x < t, "valuele": lambda x, t: x <= t,
              "valuegt": lambda x, t: x > t, "valuege": lambda x, t: x >= t,
              "valueeq": lambda x, t: x == t, "valuene": lambda x, t: x != t}


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
@pytest.mark.parametrize("thunk", [2**31, -2**31 - 1, 2**40, -2**40, 2**63 - 1, 2**63,
                                   -2**63, 2**64 - 1])
def test_select_python_int_thunk_outside_the_type(device, dtype, thunk):
    vals = np.array([1, -3, 0, 7], dtype=np.int64).astype(dtype)
    a = sr.Vector.from_coo([0, 1, 2, 3], vals, size=4, device=device)
    for op, cmp in SELECT_CMP.items():
        got = to_host(sr.select(a, op, thunk).to_coo()[0]).tolist()
        # Python's exact comparison of the values with the thunk
        want = [i for i, x in enumerate(vals.tolist()) if cmp(int(x), thunk)]
        assert got == want, (op, thunk, dtype)


def test_select_thunk_beyond_64_bits_is_named(device):
    a = sr.Vector.from_coo([0], [1], size=1, device=device)
    with pytest.raises(sr.DomainMismatch,
                       match=r"select: thunk must be an integer in \[-2\*\*63, 2\*\*64\), "
                             r"got -9223372036854775809"):
        sr.select(a, "valuelt", -2**63 - 1)


# ---------------------------------------------------------------------- errors


def test_errors_name_the_callers_argument(device):
    xp = _xp(device)
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.DomainMismatch, match=r"^mxv: u\.dtype must be one of .*got int8"):
        sr.mxv(A, xp.ones(3, dtype=xp.int8))
    with pytest.raises(sr.DomainMismatch, match=r"^vxm: u\.dtype must be one of .*got float16"):
        sr.vxm(xp.ones(3, dtype=xp.float16), A)
    with pytest.raises(sr.DomainMismatch, match=r"^ewise_add: b\.dtype must be one of .*int16"):
        sr.ewise_add(xp.ones(3), xp.ones(3, dtype=xp.int16))
    with pytest.raises(sr.DomainMismatch, match=r"^mxm: B\.dtype must be one of .*got int8"):
        sr.mxm(A, xp.ones((3, 2), dtype=xp.int8))
    with pytest.raises(sr.DomainMismatch, match=r"^mxm: A\.dtype must be one of .*got uint16"):
        sr.mxm(xp.ones((2, 3), dtype=xp.uint16), A)
    with pytest.raises(sr.DomainMismatch,
                       match=r"^Matrix\.from_coo: values\.dtype must be one of .*got int8"):
        sr.Matrix.from_coo([0], [0], np.array([1], dtype=np.int8), device=device)
    with pytest.raises(sr.DomainMismatch,
                       match=r"^Vector\.from_coo: dtype must be one of .*got int8"):
        sr.Vector.from_coo([0], [1.0], dtype="int8", device=device)


def test_slice_of_step_zero_is_named(device):
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidValue, match=r"^extract: cols must be a slice with a nonzero "
                                               r"step, got slice\(None, None, 0\)"):
        sr.extract(A, None, slice(None, None, 0))
    with pytest.raises(sr.InvalidValue, match=r"^assign: rows must be a slice"):
        sr.assign(A, 1.0, slice(0, 2, 0), None)


def test_dense_product_shape_errors_are_dimension_mismatches(device):
    xp = _xp(device)
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device=device)
    X = xp.ones((3, 2))
    with pytest.raises(sr.DimensionMismatch, match=r"^mxm: out must be .* of shape \(2, 2\)"):
        sr.mxm(A, X, out=xp.zeros((3, 3)))
    with pytest.raises(sr.DimensionMismatch, match=r"^mxm: mask must be .* of shape \(2, 2\)"):
        sr.mxm(A, X, mask=xp.ones((2, 3), dtype=bool))
    with pytest.raises(sr.DomainMismatch, match=r"^mxm: out must be"):  # (a type error still)
        sr.mxm(A, X, out=[[0.0, 0.0], [0.0, 0.0]])


POSITION_KEEP = {"tril": lambda i, j, k: j <= i + k, "triu": lambda i, j, k: j >= i + k,
                 "diag": lambda i, j, k: j == i + k, "offdiag": lambda i, j, k: j != i + k,
                 "rowle": lambda i, j, k: i <= k, "rowgt": lambda i, j, k: i > k,
                 "colle": lambda i, j, k: j <= k, "colgt": lambda i, j, k: j > k}


@pytest.mark.parametrize("thunk", [2**63 - 1, 2**63, 2**64 - 1, -2**63, -2**63 + 1, 2**40, 3,
                                   -3, np.uint64(2**63), np.int64(2**62)])
def test_select_position_thunk_past_int64(device, thunk):
    # i + k wrapped in int64 (tril at 2**63 - 1 dropped every row past 0) or raised a bare
    # OverflowError (2**63)
    rows, cols = [0, 1, 1, 2, 2], [1, 0, 1, 0, 2]
    A = sr.Matrix.from_coo(rows, cols, [1.0, 2.0, 3.0, 4.0, 5.0], nrows=3, ncols=3,
                           device=device)
    for op, keep in POSITION_KEEP.items():
        r, c, _ = (to_host(x) for x in sr.select(A, op, thunk).to_coo())
        want = [(i, j) for i, j in zip(rows, cols) if keep(i, j, int(thunk))]
        assert list(zip(r.tolist(), c.tolist())) == want, (op, thunk)


# ---------------------------------------------------------------------- narrowing dtype=


SPECIAL = [np.nan, np.inf, -np.inf, 3e10, -3e10, -2.7, 5.0]


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
def test_dense_building_blocks_cast_operands_as_the_algebra(device, dtype):
    # dtype= narrower than the operands went through NumPy's astype (NaN, inf, 3e10 -> the
    # type's minimum; the device's conversion on the GPU), not types.cast: the same
    # product of operands cast first by types.cast is the answer
    xp = _xp(device)
    dt = np.dtype(dtype)
    vals = np.array(SPECIAL)
    n = vals.size
    A = sr.Matrix.from_coo(np.zeros(n, np.int64), np.arange(n), vals, nrows=1, ncols=n,
                           device=device)
    Ac = sr.Matrix.from_coo(np.zeros(n, np.int64), np.arange(n), sr.types.cast(vals, dt),
                            nrows=1, ncols=n, device=device)
    S = sr.plus_first
    ones = sr.Matrix.from_coo(np.arange(n), np.zeros(n, np.int64), True, nrows=n, ncols=1,
                              device=device)
    mask = sr.Matrix.from_coo([0], [0], True, nrows=1, ncols=1, device=device)

    def same(a, b):
        assert to_host(a).tolist() == to_host(b).tolist()

    same(sr.dot3(A, ones.T, S, dt, mask=mask).to_dense(), sr.dot3(Ac, ones.T, S, dt,
                                                               mask=mask).to_dense())
    same(sr.spgemm.spgemm(A, ones, S, dt).to_dense(), sr.spgemm.spgemm(Ac, ones, S, dt).to_dense())
    X1 = xp.ones((n, 1))
    same(sr.spmm(A, X1, S, dt)[0], sr.spmm(Ac, X1, S, dt)[0])
    Xs = xp.asarray(vals.reshape(n, 1))
    P = sr.Matrix.from_coo(np.arange(n), np.arange(n), True, nrows=n, ncols=n, device=device)
    same(sr.spmm(P, Xs, sr.plus_second, dt)[0],
         sr.spmm(P, xp.asarray(sr.types.cast(vals.reshape(n, 1), dt)), sr.plus_second, dt)[0])
    Xr = xp.asarray(vals.reshape(1, n))
    same(sr.gemm(Xr, X1, S, dt), sr.gemm(xp.asarray(sr.types.cast(vals.reshape(1, n), dt)),
                                         X1, S, dt))
    Z1, Z2 = xp.zeros((1, 1), dtype=dt), xp.zeros((1, 1), dtype=dt)
    sr.gemm_accumulate(Z1, Xr, X1, S, dt)
    sr.gemm_accumulate(Z2, xp.asarray(sr.types.cast(vals.reshape(1, n), dt)), X1, S, dt)
    same(Z1, Z2)


# ---------------------------------------------------------------------- the sign of a zero sum


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dense_products_zero_sum_sign_is_the_folds(device, dtype):
    # a fold of products that are all -0.0 is -0.0 (from its first product, as the sparse
    # products and reduce_* give); SciPy's S @ X and NumPy's matmul / add.reduce start their
    # sums from +0.0. A cancelling sum stays +0.0.
    xp = _xp(device)
    n = 5
    vals = np.array([-0.0, -0.0, 1.0, -1.0, -0.0, 0.0], dtype=dtype)
    rows, cols = [0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1]
    A = sr.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=2, device=device)
    X = xp.ones((2, 3), dtype=dtype)
    Ad = A.to_dense(missing=0.0)
    want = [True, False, False]  # row 0: all -0.0; row 1: 1 - 1; row 2: -0.0 + 0.0
    for got in (sr.mxm(A, X, sr.plus_times), sr.mxm(Ad, X, sr.plus_times),
                sr.mxm(Ad, X, sr.plus_first), sr.spmm(A, X, sr.plus_times, dtype)[0],
                sr.gemm(Ad, X, sr.plus_times, dtype), sr.mxm(X.T.copy(), A.T, sr.plus_times).T):
        g = to_host(got)
        assert (g[:3] == 0).all()
        assert np.signbit(g[:3]).all(axis=1).tolist() == want
    # the sparse product agrees
    sp_ = to_host(sr.mxm(A, sr.Matrix.from_dense(X, device=device), sr.plus_times)
                  .to_dense(missing=1.0))
    assert np.signbit(sp_[:3]).all(axis=1).tolist() == want


# ---------------------------------------------------------------------- from_coo's dup_op fold

#: z = (T) op(z, x), left to right in input order (GrB_Matrix_build; the GPU's segment_fold)
DUP_FOLD = {"minus": lambda z, x: z - x, "lor": lambda z, x: int(z != 0 or x != 0),
            "land": lambda z, x: int(z != 0 and x != 0), "lxor": lambda z, x: int((z != 0) != (x != 0)),
            "eq": lambda z, x: int(z == x), "lt": lambda z, x: int(z < x),
            "ge": lambda z, x: int(z >= x), "pair": lambda z, x: 1,
            "first": lambda z, x: z, "second": lambda z, x: x, "plus": lambda z, x: z + x}


@pytest.mark.parametrize("dup_op", sorted(DUP_FOLD))
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64])
def test_from_coo_dup_op_folds_left_in_input_order(device, dup_op, dtype):
    # a run of one kept its value only for some ops (lor turned a lone 2 into 1), and runs
    # of four or more were regrouped pairwise (minus: 100 - 1 - 2 - 4 - 8 gave 93, not 85)
    idx = [0, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3]
    vals = [2, 7, 7, 100, 1, 2, 4, 8, 5, 0, 3]
    runs = {}
    for i, x in zip(idx, vals):
        runs.setdefault(i, []).append(x)
    want = []
    for i in sorted(runs):
        z = runs[i][0]
        for x in runs[i][1:]:
            z = DUP_FOLD[dup_op](z, x)
        want.append(z)
    v = sr.Vector.from_coo(idx, np.array(vals, dtype=dtype), size=4, dup_op=dup_op,
                           device=device)
    assert to_host(v.to_dense(missing=-1)).tolist() == want
    A = sr.Matrix.from_coo(idx, idx, np.array(vals, dtype=dtype), nrows=4, ncols=4,
                           dup_op=dup_op, device=device)
    assert np.diag(to_host(A.to_dense(missing=-1))).tolist() == want


def test_from_coo_positional_dup_op_is_refused(device):
    with pytest.raises(sr.DomainMismatch, match=r"^Matrix\.from_coo: dup_op must not be a "
                                                r"positional op .*got secondi"):
        sr.Matrix.from_coo([0, 0], [1, 1], [1.0, 2.0], dup_op="secondi", device=device)
    with pytest.raises(sr.DomainMismatch, match=r"^Vector\.from_coo: dup_op must not be a "
                                                r"positional op .*got firsti"):
        sr.Vector.from_coo([0, 0], [1.0, 2.0], dup_op="firsti", device=device)


@pytest.mark.parametrize("numba", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sparse_plus_times_zero_sum_sign_without_numba(monkeypatch, numba, dtype):
    # without Numba, unmasked float plus_times went through SciPy's product, whose sums
    # start from +0.0 and whose dropped zero entries came back as +0.0
    import importlib

    compiled = importlib.import_module("semiring.backend.cpu.compiled")
    if numba and not compiled.ENABLED:
        pytest.skip("Numba is not installed")
    monkeypatch.setattr(compiled, "ENABLED", numba)
    vals = np.array([-0.0, -0.0, 1.0, -1.0, -0.0, 0.0, 2.0], dtype=dtype)
    A = sr.Matrix.from_coo([0, 0, 1, 1, 2, 2, 3], [0, 1, 0, 1, 0, 1, 0], vals, nrows=4,
                           ncols=2, device="cpu")
    B = sr.Matrix.from_dense(np.ones((2, 3), dtype=dtype), device="cpu")
    C = sr.mxm(A, B, sr.plus_times)
    assert C.nvals == 12  # zero sums are entries
    D = C.to_dense(missing=np.nan)
    assert D[3].tolist() == [2.0, 2.0, 2.0]
    assert np.signbit(D[:3]).all(axis=1).tolist() == [True, False, False]


def test_plus_monoid_atomic_start_is_negative_zero_on_floats():
    # the GPU SpGEMM's value tables start from the monoid's empty value: +0.0 turned a sum
    # of products that are all -0.0 into +0.0 (the GPU parameters of
    # test_dense_products_zero_sum_sign_is_the_folds check the product itself)
    for dt in (np.float32, np.float64):
        e = sr.monoid.plus.empty_of(dt)
        assert e == 0 and np.signbit(e) and e.dtype == dt
        assert sr.monoid.plus.identity_of(dt) == 0  # (an empty reduction is still 0.0)
        assert not np.signbit(sr.reduce_scalar(sr.Vector.new(2, dt), "plus"))
    for dt in (np.int32, np.int64, np.bool_):
        assert sr.monoid.plus.empty_of(dt) == 0


# ---------------------------------------------------------------------- the key space


def test_shapes_past_the_int64_key_space_are_refused(device):
    # entries are addressed by the int64 key row * ncols + col: with nrows * ncols past
    # 2**63 the keys wrapped, and from_coo stored (4, 0) at (0, 4)
    big = 2**62 + 1
    with pytest.raises(sr.InvalidValue, match=r"^Matrix\.from_coo: nrows \* ncols "
                                              r"\(=5 \* 4611686018427387905\) must be below"):
        sr.Matrix.from_coo([4], [0], [1.0], nrows=5, ncols=big, device=device)
    xp = _xp(device)
    with pytest.raises(sr.InvalidValue, match=r"^Matrix\.from_csr: nrows \* ncols"):
        sr.Matrix.from_csr(xp.zeros(6, dtype=xp.int64), xp.zeros(0, dtype=xp.int64), None,
                           (5, big))
    A = sr.Matrix.from_coo([4], [0], [1.0], nrows=5, ncols=1, device=device)
    B = sr.Matrix.from_coo([0], [big - 1], [1.0], nrows=1, ncols=big, device=device)
    with pytest.raises(sr.InvalidValue, match=r"^mxm: nrows \* ncols"):
        sr.mxm(A, B)
    # below the bound the far corner is addressed exactly
    C = sr.Matrix.from_coo([2, 0], [5, 2**61 - 1], [1.0, 2.0], nrows=3, ncols=2**61,
                           device=device)
    r, c, v = (to_host(x).tolist() for x in C.to_coo())
    assert (r, c, v) == ([0, 2], [2**61 - 1, 5], [2.0, 1.0])
