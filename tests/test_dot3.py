"""The masked dot-product SpGEMM (semiring.spgemm.dot3, mxm(..., method='dot')) × semiring ×
dtype against the dense oracle; skewed rows (every group size of the GPU kernel, a block per
entry included) against the Gustavson product; mxm's method='auto'; errors; the caller's
arrays untouched."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import semiring as sr
from semiring import operations as _ops
from semiring.backend.cpu import dot3 as _cpu_dot3
from semiring.backend.gpu import dot3 as _gpu_dot3
from semiring.spgemm import dot3
from conftest import to_host
from oracle import dense_mxm_candidates as dense_mxm
from strategies import make_matrix
from test_spgemm import _inexact, assert_matches, check_canonical, operand, product_operands

SEMIRINGS = sr.ops.list_names("semiring", builtin=True)
#: Hypothesis examples per semiring: a third of the profile's (29 semirings x 2 backends).
EXAMPLES = max(5, settings().max_examples // 3)


@pytest.mark.parametrize("semiring_name", SEMIRINGS)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_dot3_against_oracle(device, semiring_name, data):
    semiring = sr.ops.lookup("semiring", semiring_name, op="test", arg="semiring")
    m, n, A, B, (Ad, Ap), (Bd, Bp) = product_operands(data, device)
    _, Mp = data.draw(operand(m, n, np.bool_), label="mask pattern")
    M = make_matrix(np.ones((m, n), bool), Mp, device, iso=data.draw(st.booleans()),
                    int64=data.draw(st.booleans()))
    dom = sr.types.promote(A.dtype, B.dtype)
    exp_vals, exp_pres, cands = dense_mxm(Ad, Ap, Bd, Bp, semiring, dom)
    exp_pres = exp_pres & Mp
    saved = [to_host(x).copy() for x in (A.indptr, A.indices, B.indptr, B.indices)]
    if data.draw(st.booleans(), label="through mxm"):
        C = sr.mxm(A, B, semiring, mask=M.S, method="dot")
    else:
        C = dot3(A, B.T, semiring, mask=M)
    assert C.device == device and C.shape == (m, n)
    assert_matches(C, exp_vals, exp_pres, cands, semiring, dom)
    for before, after in zip(saved, (A.indptr, A.indices, B.indptr, B.indices)):
        np.testing.assert_array_equal(before, to_host(after))


def power_law_pair(seed=0, n=3000, hubs=(2500, 1500, 900, 300, 70, 20)):
    """A symmetric 0/1 graph (n × n, float64 weights 1..9) with a few hub rows of the given
    degrees over many short rows, so that the shorter row of a mask entry falls in every bin
    of the GPU kernel (a thread, 4 lanes, a warp, a block)."""
    rng = np.random.default_rng(seed)
    rows, cols = [], []
    for h, d in enumerate(hubs):
        rows.append(np.full(d, h))
        cols.append(rng.choice(np.arange(len(hubs), n), d, replace=False))
    for h in range(len(hubs)):  # hubs linked to each other
        rows.append(np.full(len(hubs), h))
        cols.append(np.arange(len(hubs)))
    r = rng.integers(0, n, 6 * n)
    c = rng.integers(0, n, 6 * n)
    rows.append(r)
    cols.append(c)
    r, c = np.concatenate(rows), np.concatenate(cols)
    keep = r != c
    S = sp.csr_matrix((np.ones(keep.sum()), (r[keep], c[keep])), shape=(n, n))
    S = ((S + S.T) > 0).astype(np.float64).tocsr()
    S.data = rng.integers(1, 10, S.nnz).astype(np.float64)
    S.sort_indices()
    return S


@pytest.mark.parametrize("sname,dtype", [
    ("plus_times", np.float64), ("plus_times", np.int64), ("plus_pair", np.int32),
    ("plus_pair", np.int64), ("min_plus", np.float32), ("lor_land", np.bool_),
    ("any_secondi", np.float64), ("min_secondi", np.int64), ("max_times", np.int32),
])
@pytest.mark.parametrize("int64", [False, True])
def test_dot3_power_law_against_gustavson(device, sname, dtype, int64):
    S = power_law_pair()
    semiring = sr.ops.lookup("semiring", sname, op="test", arg="semiring")
    # the shorter rows of the mask entries reach every bin (the largest beyond the warp's)
    deg = np.diff(S.indptr)
    coo = S.tocoo()
    shorter = np.minimum(deg[coo.row], deg[coo.col])
    limits = [lim for lim, _ in _gpu_dot3.BINS]
    assert (shorter <= limits[0]).any() and (shorter > limits[-1]).any()
    assert ((shorter > limits[0]) & (shorter <= limits[1])).any()
    assert ((shorter > limits[1]) & (shorter <= limits[2])).any()

    def mat(dev):
        A = sr.Matrix.from_scipy(S.astype(dtype), device=dev)
        if int64:
            A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values,
                          A.shape, dtype=A.dtype)
        return A

    A = mat(device)
    # C⟨A⟩ = A ⊕.⊗ Aᵀ, every entry of A (a symmetric pattern) a dot product of two rows
    C = sr.mxm(A, A.T, semiring, mask=A.S, method="dot")
    check_canonical(C)
    Ac = mat("cpu")
    R = sr.mxm(Ac, Ac.T, semiring, mask=Ac.S, method="gustavson")
    got = C.to_cpu()
    np.testing.assert_array_equal(to_host(got.indptr), R.indptr)
    np.testing.assert_array_equal(to_host(got.indices), R.indices)
    if semiring.add.name == "any":
        rows, cols, vals = got.to_coo()
        assert np.all(S[rows, vals].A1 != 0) and np.all(S[vals, cols].A1 != 0)
    elif _inexact(semiring, dtype):
        np.testing.assert_allclose(got.values, R.values, rtol=1e-5)
    else:
        np.testing.assert_array_equal(got.values, R.values)


def test_dot3_cpu_chunks(monkeypatch):
    # chunk boundaries inside and between entries give the same product
    S = power_law_pair(seed=3, n=800, hubs=(600, 200, 40))
    A = sr.Matrix.from_scipy(S, device="cpu")
    R = dot3(A, A, "plus_times", mask=A)
    monkeypatch.setattr(_cpu_dot3, "CPU_CHUNK_KEYS", 97)
    C = dot3(A, A, "plus_times", mask=A)
    np.testing.assert_array_equal(C.indptr, R.indptr)
    np.testing.assert_array_equal(C.indices, R.indices)
    np.testing.assert_array_equal(C.values, R.values)
    P = (S @ S.T).multiply(S > 0).tocsr()  # SciPy: plus_times of the symmetric S, at S
    P.sort_indices()
    np.testing.assert_allclose(C.values, P.data)


def test_mxm_auto_takes_dot_where_it_pays(device, monkeypatch):
    S = power_law_pair(seed=1, n=1500, hubs=(1200, 600))
    A = sr.Matrix.from_scipy(S, device=device)
    L = sr.select(A, "tril", -1)
    calls = []
    real = _ops.dot3
    monkeypatch.setattr(_ops, "dot3", lambda *a, **k: calls.append(1) or real(*a, **k))
    # C⟨A⟩ = A plus.pair A: the hubs' wedges are many more than the masked dot products
    C = sr.mxm(A, A, sr.plus_pair, mask=A.S)
    assert calls == [1]
    R = sr.mxm(A, A, sr.plus_pair, mask=A.S, method="gustavson")
    np.testing.assert_array_equal(to_host(C.indices), to_host(R.indices))
    np.testing.assert_array_equal(to_host(C.values), to_host(R.values))
    # no mask, or a complemented one: Gustavson
    sr.mxm(L, L, sr.plus_pair)
    sr.mxm(L, L, sr.plus_pair, mask=~L.S)
    assert calls == [1]
    # a mask with far more entries than products: Gustavson
    E = sr.Matrix.from_coo([0], [1], nrows=A.nrows, ncols=A.ncols, device=device)
    full = sr.Matrix.from_scipy(sp.csr_matrix(np.ones((40, 40))), device=device)
    sr.mxm(sr.extract(E, range(40), range(40)), full, sr.plus_pair, mask=full.S)
    assert calls == [1]


def test_dot3_empty_and_value_mask(device):
    A = sr.Matrix.from_dense(np.array([[1.0, 0, 2.0], [0, 0, 0], [3.0, 4.0, 0]]), missing=0,
                             device=device)
    # a value mask: its false entries compute nothing
    M = sr.Matrix.from_coo([0, 0, 2, 2], [0, 2, 0, 1], [True, False, True, False], nrows=3,
                           ncols=3, device=device)
    C = sr.mxm(A, A.T, sr.plus_times, mask=M, method="dot")
    np.testing.assert_array_equal(to_host(C.to_dense(missing=-1)), [[5, -1, -1], [-1, -1, -1],
                                                                     [3, -1, -1]])
    Z = sr.Matrix.from_coo([], [], nrows=3, ncols=3, device=device)
    for X, Y in ((Z, A), (A, Z)):
        C = dot3(X, Y, "plus_times", mask=A)
        assert C.nvals == 0 and C.shape == (3, 3)
    assert dot3(A, A, "plus_times", mask=Z).nvals == 0
    E = sr.Matrix.from_coo([], [], nrows=0, ncols=3, device=device)
    assert dot3(E, A, "plus_times", mask=sr.Matrix.from_coo([], [], nrows=0, ncols=3,
                                                               device=device)).shape == (0, 3)


def test_dot3_errors(device):
    assert sr.dot3 is dot3  # the public name
    A = sr.Matrix.from_dense(np.eye(3), missing=0, device=device)
    B = sr.Matrix.from_dense(np.ones((2, 3)), missing=0, device=device)
    with pytest.raises(sr.InvalidValue, match="mxm: method must be one of"):
        sr.mxm(A, A, method="hash", mask=A.S)
    with pytest.raises(sr.InvalidValue, match="mxm: method='dot' needs a mask"):
        sr.mxm(A, A, method="dot")
    with pytest.raises(sr.InvalidValue, match="complemented"):
        sr.mxm(A, A, method="dot", mask=~A.S)
    xp = sr.array_module(device)
    with pytest.raises(sr.InvalidValue, match="sparse x sparse"):
        sr.mxm(A, xp.ones((3, 2)), method="dot")
    with pytest.raises(sr.DimensionMismatch, match=r"dot3: A.ncols \(=3\) must equal BT.ncols \(=2\)"):
        dot3(A, sr.Matrix.from_dense(np.ones((3, 2)), missing=0, device=device), "plus_times",
             mask=A)
    with pytest.raises(sr.DimensionMismatch, match=r"dot3: mask.shape"):
        dot3(A, B, "plus_times", mask=A)
    with pytest.raises(sr.DomainMismatch, match="dot3: mask is required"):
        dot3(A, A, "plus_times", mask=None)
