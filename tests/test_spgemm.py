"""SpGEMM (semiring.spgemm.spgemm) × semiring × dtype × mask, against the dense oracle;
skewed degrees (long rows: the global-memory bins on the GPU), empty and odd shapes,
canonical output, errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import semiring as sr
from semiring.backend.cpu import spgemm as _cpu_spgemm
from semiring.backend.gpu import spgemm as _spgemm
from semiring.spgemm import spgemm
from conftest import to_host
from oracle import dense_mxm_candidates as dense_mxm
from strategies import DTYPES, make_matrix, values_of

SEMIRINGS = sr.ops.list_names("semiring", builtin=True)
#: Hypothesis examples per semiring: a third of the profile's (29 semirings x 2 backends).
EXAMPLES = max(5, settings().max_examples // 3)


def _inexact(semiring, dtype):
    return np.dtype(dtype).kind == "f" and semiring.add.name in ("plus", "times")


def check_canonical(C):
    """CSR invariants: indptr from 0 to nvals, nondecreasing; columns sorted and unique
    within each row and in range."""
    ptr = to_host(C.indptr).astype(np.int64)
    idx = to_host(C.indices).astype(np.int64)
    assert ptr.shape == (C.nrows + 1,) and ptr[0] == 0 and ptr[-1] == idx.size
    assert np.all(np.diff(ptr) >= 0)
    if idx.size:
        assert idx.min() >= 0 and idx.max() < C.ncols
        rows = np.repeat(np.arange(C.nrows), np.diff(ptr))
        same = rows[1:] == rows[:-1]
        assert np.all(idx[1:][same] > idx[:-1][same]), "columns not sorted/unique in a row"
    assert C.values is not None and C.values.size == idx.size


def dense_of(C):
    """(values, present) dense arrays of a Matrix (any device)."""
    C = C.to_cpu()
    r, c, v = C.to_coo()
    vals = np.zeros(C.shape, dtype=C.dtype)
    pres = np.zeros(C.shape, dtype=bool)
    vals[r, c] = v
    pres[r, c] = True
    return vals, pres


def assert_matches(C, exp_vals, exp_pres, cands, semiring, dtype):
    check_canonical(C)
    assert C.dtype == exp_vals.dtype
    vals, pres = dense_of(C)
    np.testing.assert_array_equal(pres, exp_pres)
    inexact = _inexact(semiring, dtype)
    for i, j in zip(*np.nonzero(exp_pres)):
        got, want = vals[i, j], exp_vals[i, j]
        if semiring.add.name == "any":
            ok = any(got == c or (np.isnan(got) and np.isnan(c)) for c in cands[i, j])
        elif inexact:
            ok = np.isclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True)
        else:
            ok = got == want or (np.isnan(got) and np.isnan(want))
        assert ok, f"C[{i},{j}]: got {got!r}, expected {want!r} (products {cands[i, j]!r})"


@st.composite
def operand(draw, nrows, ncols, dtype):
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    present = rng.random((nrows, ncols)) < density
    vals = values_of(draw, dtype, nrows * ncols).reshape(nrows, ncols)
    return vals, present


def product_operands(data, device):
    """(m, n, A, B, (Ad, Ap), (Bd, Bp)): an m × k and a k × n operand of random dtypes (iso,
    int32/int64 indices) on ``device``, with their dense values and patterns."""
    m, k, n = (data.draw(st.integers(0, 7), label=lab) for lab in ("m", "k", "n"))
    adt = data.draw(st.sampled_from(DTYPES), label="A.dtype")
    bdt = data.draw(st.sampled_from([adt] * 3 + DTYPES), label="B.dtype")
    Ad, Ap = data.draw(operand(m, k, adt), label="A")
    Bd, Bp = data.draw(operand(k, n, bdt), label="B")
    a_iso, b_iso = data.draw(st.booleans(), label="A iso"), data.draw(st.booleans(), label="B iso")
    if a_iso:
        Ad = np.ones_like(Ad, dtype=np.bool_)
    if b_iso:
        Bd = np.ones_like(Bd, dtype=np.bool_)
    int64 = data.draw(st.booleans(), label="int64 indices")
    A = make_matrix(Ad, Ap, device, iso=a_iso, int64=int64)
    B = make_matrix(Bd, Bp, device, iso=b_iso, int64=int64 and data.draw(st.booleans()))
    return m, n, A, B, (Ad, Ap), (Bd, Bp)


@pytest.mark.parametrize("semiring_name", SEMIRINGS)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_spgemm_against_oracle(device, semiring_name, data):
    semiring = sr.ops.lookup("semiring", semiring_name, op="test", arg="semiring")
    m, n, A, B, (Ad, Ap), (Bd, Bp) = product_operands(data, device)
    dom = sr.types.promote(A.dtype, B.dtype)
    if data.draw(st.booleans(), label="explicit dtype"):
        dom = np.dtype(data.draw(st.sampled_from(DTYPES), label="dtype"))
        # casting inf to an integer is undefined (NumPy and CuPy differ)
        if dom.kind != "f" and (np.isinf(Ad.astype(np.float64)).any() or np.isinf(Bd.astype(np.float64)).any()):
            dom = np.dtype(np.float64)
    mkind = data.draw(st.sampled_from([None, "M", "~M"]), label="mask")
    exp_vals, exp_pres, cands = dense_mxm(Ad, Ap, Bd, Bp, semiring, dom)
    kwargs = {}
    if mkind is not None:
        _, Mp = data.draw(operand(m, n, np.bool_), label="mask pattern")
        M = make_matrix(np.ones((m, n), bool), Mp, device, iso=data.draw(st.booleans()),
                        int64=data.draw(st.booleans()))
        kwargs = {"mask": M, "complement": mkind == "~M"}
        exp_pres = exp_pres & (~Mp if mkind == "~M" else Mp)
    C = spgemm(A, B, semiring, dom, **kwargs)
    assert C.device == device and C.shape == (m, n)
    assert_matches(C, exp_vals, exp_pres, cands, semiring, dom)


# ------------------------------------------------------------------------- skewed degrees


#: Shared-memory budgets: the default 48 KiB, and the opt-in maximum of an H100/H200.
BUDGETS = {"48K": 48 * 1024, "H100": 232448}


def skewed_pair(seed=0, dtype=np.float64, big=False):
    """A (300 x k) with a few long rows and B (k x n) with short rows, so that the longest
    rows of A·B need global memory under a shared budget (``big=False``: 48 KiB, ``True``:
    an H100's 227 KiB). Row 0 has more products than the largest shared symbolic table and
    more distinct columns than its overflow limit and than the largest numeric table (global
    memory in both phases); row 4 has more products than the largest table but at most 300
    columns (the optimistic shared pass holds it); rows 1-3 have thousands of products, the
    rest a handful; some rows are empty."""
    rng = np.random.default_rng(seed)
    m, k, n = (300, 12000, 60000) if big else (300, 6000, 9000)
    kk = k - 1000  # B's rows kk.. have `wide` entries among 300 columns
    lo, wide = (2, 40) if big else (0, 10)
    rows, cols = [], []
    for r, deg in ((0, kk - 100), (1, 1500), (2, 700), (3, 200)):
        rows.append(np.full(deg, r))
        cols.append(rng.choice(kk, deg, replace=False))
    rows.append(np.full(1000, 4))
    cols.append(np.arange(kk, k))
    deg = rng.integers(0, 6, m - 5)
    deg[::7] = 0  # empty rows
    for r, d in enumerate(deg, start=5):
        rows.append(np.full(d, r))
        cols.append(rng.choice(k, d, replace=False))
    ar, ac = np.concatenate(rows), np.concatenate(cols)
    A = sp.csr_matrix((rng.integers(1, 10, ar.size).astype(dtype), (ar, ac)), shape=(m, k))
    bdeg = rng.integers(lo, lo + 6 - (lo > 0), k)
    bdeg[kk:] = wide
    br = np.repeat(np.arange(k), bdeg)
    bc = np.concatenate([rng.choice(n if r < kk else 300, d, replace=False)
                         for r, d in enumerate(bdeg)])
    B = sp.csr_matrix((rng.integers(1, 10, br.size).astype(dtype), (br, bc)), shape=(k, n))
    A.sort_indices()
    B.sort_indices()
    return A, B


def _largest_tables(budget, ksize=4, rsize=8):
    sym = max(s for lg, s in _spgemm.SHARED_BINS if (256 >> lg) * s * ksize + 8 <= budget)
    num = max(s for lg, s in _spgemm.SHARED_BINS if (256 >> lg) * s * (ksize + rsize) <= budget)
    return sym, num


@pytest.mark.parametrize("big", [False, True])
def test_skewed_has_long_rows(big):
    A, B = skewed_pair(big=big)
    sym, num = _largest_tables(BUDGETS["H100" if big else "48K"])
    flops = np.diff(B.indptr)[A.indices]
    row_flops = np.add.reduceat(flops, A.indptr[:5])
    C = A @ B
    assert row_flops[0] > sym and C.getrow(0).nnz > sym * _spgemm.SYMBOLIC_TRY_LOAD
    assert C.getrow(0).nnz > num * _spgemm.NUMERIC_LOAD  # global numeric bin
    assert row_flops[4] > sym and C.getrow(4).nnz <= 300  # optimistic pass holds it


@pytest.mark.parametrize("sname,dtype", [
    ("plus_times", np.float64), ("plus_times", np.float32), ("plus_times", np.int64),
    ("min_plus", np.float32), ("max_times", np.int32), ("plus_pair", np.int32),
    ("lor_land", np.bool_), ("any_secondi", np.float32), ("min_secondi", np.float64),
    ("min_firsti", np.float64), ("min_secondj", np.int64), ("any_pair", np.bool_),
])
@pytest.mark.parametrize("masked", [None, "M", "~M"])
def test_spgemm_skewed(device, sname, dtype, masked, monkeypatch):
    # big: global-memory rows under both the default and an H100's shared-memory budget
    S_A, S_B = skewed_pair(dtype=dtype, big=True)
    semiring = sr.ops.lookup("semiring", sname, op="test", arg="semiring")
    A = sr.Matrix.from_scipy(S_A, device=device)
    B = sr.Matrix.from_scipy(S_B, device=device)
    kwargs = {}
    Sm = None
    if masked:
        P = (S_A @ S_B).tocoo()
        rng = np.random.default_rng(1)
        keep = rng.random(P.nnz) < 0.5  # half of C's entries, plus entries C does not have
        mr = np.concatenate([P.row[keep], rng.integers(0, P.shape[0], 500)])
        mc = np.concatenate([P.col[keep], rng.integers(0, P.shape[1], 500)])
        Sm = sp.csr_matrix((np.ones(mr.size), (mr, mc)), shape=P.shape)
        Sm.sum_duplicates()
        kwargs = {"mask": sr.Matrix.from_scipy(Sm, device=device, iso=True),
                  "complement": masked == "~M"}
    C = spgemm(A, B, semiring, dtype, **kwargs)
    check_canonical(C)
    # reference: the CPU product with a small chunk size (chunk boundaries inside the rows
    # and between them), itself checked against the dense oracle above
    monkeypatch.setattr(_cpu_spgemm, "CPU_CHUNK_PRODUCTS", 1000)
    Ac, Bc = sr.Matrix.from_scipy(S_A, device="cpu"), sr.Matrix.from_scipy(S_B, device="cpu")
    ckw = dict(kwargs)
    if masked:
        ckw["mask"] = sr.Matrix.from_scipy(Sm, device="cpu", iso=True)
    R = spgemm(Ac, Bc, semiring, dtype, **ckw)
    got = C.to_cpu()
    np.testing.assert_array_equal(to_host(got.indptr), R.indptr)
    np.testing.assert_array_equal(to_host(got.indices), R.indices)
    if semiring.add.name == "any":  # any valid product: check it is one
        rows, cols, vals = got.to_coo()
        if semiring.mul.name == "secondi":
            assert np.all(S_A[rows, vals].A1 != 0) and np.all(S_B[vals, cols].A1 != 0)
        else:
            assert np.all(vals == R.values)
    elif _inexact(semiring, dtype):
        np.testing.assert_allclose(got.values, R.values, rtol=1e-5)
    else:
        np.testing.assert_array_equal(got.values, R.values)
    if sname == "plus_times" and not masked:  # and against SciPy (no zero products here)
        S = (S_A.astype(np.float64) @ S_B.astype(np.float64))
        S.sort_indices()
        np.testing.assert_array_equal(R.indices, S.indices)
        np.testing.assert_allclose(R.values, S.data, rtol=1e-5)


GLOBAL_CASES = [
    ("plus_times", np.float32, None), ("min_plus", np.float64, "~M"),
    ("plus_pair", np.int32, "M"), ("lor_land", np.bool_, None), ("min_secondi", np.int64, None),
]


@pytest.mark.parametrize("ratio", [8, 1, 0.125])
@pytest.mark.parametrize("sname,dtype,masked", GLOBAL_CASES)
def test_spgemm_global_hashed_rows(device, sname, dtype, masked, ratio, monkeypatch):
    # without bitmaps, a low numeric load sends rows of thousands of entries to global-memory
    # tables; the ratio makes some of them hashed (compacted in hash order, sorted by the
    # host) next to direct ones (compacted in column order); the symbolic phase takes the
    # optimistic shared pass and global tables
    monkeypatch.setattr(_spgemm, "BITMAP", False)
    monkeypatch.setattr(_spgemm, "NUMERIC_LOAD", 0.1)
    monkeypatch.setattr(_spgemm, "NUMERIC_DIRECT_RATIO", ratio)
    test_spgemm_skewed(device, sname, dtype, masked, monkeypatch)


@pytest.mark.parametrize("sname,dtype,masked", GLOBAL_CASES + [("any_pair", np.bool_, None)])
def test_spgemm_bitmap_rows_share_a_block(device, sname, dtype, masked, monkeypatch):
    # bitmap rows of thousands of entries (low numeric load), all served by one or two blocks
    # of the persistent grid: each block's dense value row must be put back to empty between
    # its rows
    _, S_B = skewed_pair(dtype=dtype, big=True)
    rsize = sr.ops.lookup("semiring", sname, op="test", arg="semiring").result_type(
        np.dtype(dtype)).itemsize
    monkeypatch.setattr(_spgemm, "NUMERIC_LOAD", 0.1)
    monkeypatch.setattr(_spgemm, "GLOBAL_TABLE_BYTES", S_B.shape[1] * rsize)  # a grid of 1
    test_spgemm_skewed(device, sname, dtype, masked, monkeypatch)


# ------------------------------------------------------------------------- shapes, iso


@pytest.mark.parametrize("m,k,n", [(0, 0, 0), (0, 5, 3), (4, 0, 3), (4, 5, 0), (1, 1, 1),
                                   (3, 7, 2)])
def test_spgemm_empty_shapes(device, m, k, n):
    A = sr.Matrix.from_coo([], [], [], nrows=m, ncols=k, dtype=np.float64, device=device)
    rng = np.random.default_rng(0)
    Bd = rng.random((k, n))
    B = sr.Matrix.from_dense(Bd, device=device)
    C = spgemm(A, B, sr.min_plus)
    assert C.shape == (m, n) and C.nvals == 0 and C.device == device
    check_canonical(C)
    Ad = rng.random((m, k))
    C = spgemm(sr.Matrix.from_dense(Ad, device=device), B, sr.plus_times)
    check_canonical(C)
    want = np.ones((m, n), bool) if k else np.zeros((m, n), bool)
    vals, pres = dense_of(C)
    np.testing.assert_array_equal(pres, want)
    np.testing.assert_allclose(vals, Ad @ Bd if k else 0)


def test_spgemm_iso_value_and_dtype(device):
    # iso operands carry their value (3, 2), not 1
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], 3, nrows=2, ncols=2, device=device)
    B = sr.Matrix.from_coo([0, 1], [1, 0], 2, nrows=2, ncols=2, device=device)
    C = spgemm(A, B, sr.plus_times)
    assert C.dtype == np.int64
    np.testing.assert_array_equal(to_host(C.to_dense(missing=-1)), [[6, 6], [6, -1]])
    C = spgemm(A, B, sr.min_plus, np.float32)
    assert C.dtype == np.float32
    np.testing.assert_array_equal(to_host(C.to_dense(missing=-1)), [[5, 5], [5, -1]])


def test_spgemm_explicit_zero_and_cancellation(device):
    # entries whose sum is 0 stay entries (SciPy drops them; GraphBLAS does not)
    S = sp.csr_matrix(np.array([[1.0, -1.0], [0.0, 0.0]]))
    A = sr.Matrix.from_scipy(S, device=device)
    B = sr.Matrix.from_coo([0, 1, 1], [0, 0, 1], [2.0, 2.0, 0.0], device=device)
    C = spgemm(A, B, sr.plus_times)
    check_canonical(C)
    vals, pres = dense_of(C)
    np.testing.assert_array_equal(pres, [[True, True], [False, False]])
    np.testing.assert_array_equal(vals, [[0.0, 0.0], [0.0, 0.0]])


def test_spgemm_int32_wraps_like_numpy(device):
    big = np.iinfo(np.int32).max
    A = sr.Matrix.from_coo([0, 0], [0, 1], np.array([big, big], np.int32), device=device)
    B = sr.Matrix.from_coo([0, 1], [0, 0], np.array([1, 2], np.int32), device=device)
    C = spgemm(A, B, sr.plus_times)
    with np.errstate(over="ignore"):
        want = np.int32(big) * np.int32(1) + np.int32(big) * np.int32(2)
    assert C.dtype == np.int32 and to_host(C.values)[0] == want


def test_spgemm_nan_in_min(device):
    # fmin semantics: a NaN product is ignored unless it is the only one
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 0], [np.nan, 1.0, np.nan], device=device)
    B = sr.Matrix.from_coo([0, 1], [0, 0], [1.0, 1.0], device=device)
    vals, pres = dense_of(spgemm(A, B, sr.min_plus))
    assert pres[0, 0] and vals[0, 0] == 2.0
    assert pres[1, 0] and np.isnan(vals[1, 0])


# ------------------------------------------------------------------------- triangles


def test_triangle_count_masked(device):
    import networkx as nx

    G = nx.gnm_random_graph(60, 400, seed=3)
    S = nx.to_scipy_sparse_array(G, format="csr", dtype=np.float64)
    L = sr.Matrix.from_scipy(sp.tril(S, k=-1, format="csr"), device=device, iso=True)
    # C<L> = L plus.pair L
    C = spgemm(L, L, sr.plus_pair, np.int64, mask=L)
    check_canonical(C)
    assert int(to_host(C.values).sum()) == sum(nx.triangles(G).values()) // 3
    # the masked product is the full product restricted to L's structure
    F = spgemm(L, L, sr.plus_pair, np.int64)
    Fd, Fp = dense_of(F)
    Cd, Cp = dense_of(C)
    Lp = dense_of(L)[1]
    np.testing.assert_array_equal(Cp, Fp & Lp)
    np.testing.assert_array_equal(Cd[Cp], Fd[Cp])


# ------------------------------------------------------------------------- errors


def test_spgemm_errors(device):
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=5, device=device)
    B = sr.Matrix.from_coo([0], [1], [1.0], nrows=4, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match=r"spgemm: A.ncols \(=5\) must equal B.nrows \(=4\)"):
        spgemm(A, B, sr.plus_times)
    B = sr.Matrix.from_coo([0], [1], [1.0], nrows=5, ncols=3, device=device)
    M = sr.Matrix.from_coo([0], [0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match=r"spgemm: mask.shape \(=\(3, 3\)\) must equal"):
        spgemm(A, B, sr.plus_times, mask=M)
    with pytest.raises(sr.DomainMismatch, match="complement=True needs a mask"):
        spgemm(A, B, sr.plus_times, complement=True)
    with pytest.raises(sr.DomainMismatch, match="semiring must be a Semiring"):
        spgemm(A, B, "no_such_semiring")
    with pytest.raises(sr.DomainMismatch, match="spgemm"):
        spgemm(A, B, sr.plus_times, np.complex64)
    with pytest.raises(sr.DomainMismatch, match="B must be a semiring.Matrix"):
        spgemm(A, np.ones((5, 3)), sr.plus_times)


@pytest.mark.skipif(not sr.gpu_available(), reason="needs a GPU")
def test_spgemm_device_mismatch():
    A = sr.Matrix.from_coo([0], [0], [1.0], device="cpu")
    with pytest.raises(sr.DeviceMismatch, match="spgemm: A is on the CPU but B is on the GPU"):
        spgemm(A, A.to_gpu(), sr.plus_times)


def test_spgemm_inputs_unchanged(device):
    rng = np.random.default_rng(5)
    S = sp.random(30, 30, density=0.2, format="csr", random_state=rng)
    A = sr.Matrix.from_scipy(S, device=device)
    before = [to_host(a).copy() for a in (A.indptr, A.indices, A.values)]
    spgemm(A, A, sr.min_plus, mask=A, complement=True)
    for b, a in zip(before, (A.indptr, A.indices, A.values)):
        np.testing.assert_array_equal(b, to_host(a))


# ------------------------------------------------------------------------- GPU host logic


class _Launches:
    """Stand-ins for the six GPU kernels, on NumPy arrays: they check the launch geometry the
    host chose (shared memory, tables large enough, each row served once per phase) and write
    the rows of a reference product (global-memory rows reversed, as the unsorted kernel may)."""

    def __init__(self, ref, bound, budget):
        self.budget = budget
        self.ref = ref  # the CPU product: row lengths and entries
        self.bound = bound
        self.sym_rows, self.num_rows = [], []
        self.used = set()
        self.hashed_rows = set()

    def kernels(self, kind, sr, dtype, itype):
        return (self.sym_shared, self.sym_global, self.sym_bitmap) if kind == "symbolic" else \
            (self.num_shared, self.num_global, self.num_bitmap)

    def _row_len(self, r):
        return int(self.ref.indptr[r + 1] - self.ref.indptr[r])

    def sym_shared(self, grid, block, args, shared_mem):
        rows, count, lg, slots, ncols, rownnz, limit = args[7:]
        rpb = 256 >> int(lg)
        assert block == (256,) and grid[0] * rpb >= count and shared_mem <= self.budget
        assert shared_mem >= rpb * slots * rows.itemsize
        self.used.add("sym_shared" if limit == slots else "sym_try")
        for r in rows[:count].tolist():
            n = self._row_len(r)
            if limit == slots:
                assert self.bound[r] <= slots and n <= self.bound[r]
                self.sym_rows.append(r)
            if n > limit:
                rownnz[r] = -1
            else:
                rownnz[r] = n
                if limit != slots:
                    self.sym_rows.append(r)

    def sym_global(self, grid, block, args):
        rows, count, bound, ncols, gkeys, cap, rownnz, dmin = args[7:]
        assert gkeys.size >= grid[0] * cap
        self.used.add("sym_global")
        for r in rows[:count].tolist():
            assert _spgemm._global_size(int(bound[r]), int(ncols), int(dmin)) <= cap
            rownnz[r] = self._row_len(r)
            self.sym_rows.append(r)

    def sym_bitmap(self, grid, block, args, shared_mem):
        rows, count, ncols, rownnz = args[7:]
        assert block == (256,) and grid[0] == count  # a block a row
        assert 4 * ((int(ncols) + 31) // 32) <= shared_mem <= self.budget
        self.used.add("sym_bitmap")
        for r in rows[:count].tolist():
            rownnz[r] = self._row_len(r)
            self.sym_rows.append(r)

    def num_bitmap(self, grid, block, args, shared_mem):
        rows, count, ncols, c_ptr, c_idx, c_val, empty, gvals, nxt = args[11:]
        assert 4 * ((int(ncols) + 31) // 32) <= shared_mem <= self.budget
        assert gvals.size >= grid[0] * ncols
        np.testing.assert_array_equal(gvals, np.full_like(gvals, empty))  # NaN == NaN here
        assert nxt.size == 1 and int(nxt[0]) == 0
        lens = np.diff(c_ptr)[rows[:count]]
        assert (np.diff(lens) <= 0).all()  # the longest rows first
        self.used.add("num_bitmap")
        for r in rows[:count].tolist():
            c0, c1 = int(c_ptr[r]), int(c_ptr[r + 1])
            p0 = self.ref.indptr[r]
            c_idx[c0:c1] = self.ref.indices[p0:p0 + c1 - c0]  # compacted in column order
            c_val[c0:c1] = self.ref.values[p0:p0 + c1 - c0]
            self.num_rows.append(r)

    def num_shared(self, grid, block, args, shared_mem):
        rows, count, lg, slots, ncols, c_ptr, c_idx, c_val, empty = args[11:]
        rpb = 256 >> int(lg)
        assert grid[0] * rpb >= count and shared_mem <= self.budget
        assert shared_mem >= rpb * slots * (c_idx.itemsize + c_val.itemsize)
        self.used.add("num_shared")
        for r in rows[:count].tolist():
            c0, c1 = int(c_ptr[r]), int(c_ptr[r + 1])
            assert c1 - c0 == self._row_len(r) <= slots * _spgemm.NUMERIC_LOAD
            p0 = self.ref.indptr[r]
            c_idx[c0:c1] = self.ref.indices[p0:p0 + c1 - c0]
            c_val[c0:c1] = self.ref.values[p0:p0 + c1 - c0]
            self.num_rows.append(r)

    def num_global(self, grid, block, args):
        rows, count, ncols, c_ptr, c_idx, c_val, empty, gkeys, gvals, cap, dmin = args[11:]
        assert gkeys.size >= grid[0] * cap and gvals.size >= grid[0] * cap
        for r in rows[:count].tolist():
            c0, c1 = int(c_ptr[r]), int(c_ptr[r + 1])
            size = _spgemm._global_size(c1 - c0, int(ncols), int(dmin))
            assert size <= cap
            # a direct table (slot = column) is compacted in column order; a hashed one in
            # any order (reversed here)
            direct = size >= ncols
            self.used.add("num_global_direct" if direct else "num_global_hashed")
            if not direct:
                self.hashed_rows.add(r)
            step = 1 if direct else -1
            p0 = self.ref.indptr[r]
            c_idx[c0:c1] = self.ref.indices[p0:p0 + c1 - c0][::step]
            c_val[c0:c1] = self.ref.values[p0:p0 + c1 - c0][::step]
            self.num_rows.append(r)


#: (NUMERIC_LOAD, NUMERIC_DIRECT_RATIO, BITMAP) of the emulated driver: the defaults (the
#: long rows get bitmaps), global tables with the defaults (every global numeric row of the
#: skewed pair gets a direct table), and a low load that sends rows of thousands of entries to
#: global memory, some hashed with ratio 1 and 1/8.
GLOBAL_VARIANTS = {"default": (None, None, True), "tables": (None, None, False),
                   "hashed": (0.1, 1, False), "low-ratio": (0.1, 0.125, False)}


@pytest.mark.parametrize("variant", list(GLOBAL_VARIANTS))
@pytest.mark.parametrize("budget", list(BUDGETS))
@pytest.mark.parametrize("masked", [None, "M", "~M"])
def test_gpu_host_logic_emulated(masked, budget, variant, monkeypatch):
    """The GPU driver (_spgemm_gpu: flops, bins, scans, the optimistic pass, global grids,
    the sort of the hashed global rows) run on NumPy with the kernels replaced by checked
    stand-ins."""
    import types

    from semiring import kernels

    S_A, S_B = skewed_pair(big=budget != "48K")
    A = sr.Matrix.from_scipy(S_A, device="cpu")
    B = sr.Matrix.from_scipy(S_B, device="cpu")
    mask = None
    if masked:
        rng = np.random.default_rng(2)
        P = (S_A @ S_B).tocoo()
        keep = rng.random(P.nnz) < (0.7 if masked == "M" else 0.02)
        mask = sr.Matrix.from_coo(P.row[keep], P.col[keep], nrows=P.shape[0], ncols=P.shape[1],
                                  device="cpu")
    comp = masked == "~M"
    ref = spgemm(A, B, sr.min_plus, mask=mask, complement=comp)
    flops = np.add.reduceat(np.r_[np.diff(S_B.indptr)[S_A.indices], 0], S_A.indptr[:-1])
    flops[np.diff(S_A.indptr) == 0] = 0
    bound = np.minimum(flops, np.diff(mask.indptr)) if masked == "M" else flops
    fake = _Launches(ref, bound, BUDGETS[budget])
    fake_cp = types.SimpleNamespace(**{n: getattr(np, n) for n in dir(np) if not n.startswith("__")})
    fake_cp.asnumpy = np.asarray
    fake_cp.cuda = types.SimpleNamespace(Device=lambda *a: types.SimpleNamespace(id=0))
    monkeypatch.setattr(_spgemm._b, "_cupy", lambda: fake_cp)
    monkeypatch.setattr(_spgemm, "_kernels", fake.kernels)
    monkeypatch.setattr(kernels, "num_sms", lambda dev: 132)
    monkeypatch.setattr(_spgemm, "_shared_budget", lambda: BUDGETS[budget])
    load, ratio, bitmap = GLOBAL_VARIANTS[variant]
    monkeypatch.setattr(_spgemm, "BITMAP", bitmap)
    if load is not None:
        monkeypatch.setattr(_spgemm, "NUMERIC_LOAD", load)
        monkeypatch.setattr(_spgemm, "NUMERIC_DIRECT_RATIO", ratio)
    sorted_calls = []
    real_sort = _spgemm._sort_rows
    monkeypatch.setattr(_spgemm, "_sort_rows",
                        lambda cp, rows, *a: (sorted_calls.append(rows), real_sort(cp, rows, *a)))
    dt = np.dtype(np.float64)
    C = _spgemm.spgemm(A, B, sr.min_plus, dt, dt, mask, comp)
    monkeypatch.undo()
    served = np.flatnonzero(bound > 0)
    assert sorted(fake.sym_rows) == served.tolist()  # each row with work once
    assert sorted(fake.num_rows) == np.flatnonzero(np.diff(ref.indptr)).tolist()
    want = {"sym_shared", "num_shared"}
    if masked != "M":  # a mask row bounds the flops: no row is too long for shared memory
        want |= {"sym_bitmap"} if bitmap else {"sym_try", "sym_global"}
    want_global = {"default": {"num_bitmap"}, "tables": {"num_global_direct"},
                   "hashed": {"num_global_direct", "num_global_hashed"},
                   "low-ratio": {"num_global_direct", "num_global_hashed"}}[variant]
    if bitmap and masked == "M":  # rows of a few thousand flops: a bitmap, not a hash table
        want_global = want_global | {"sym_bitmap"}
    assert fake.used - want == want_global and want <= fake.used
    # the host sorts every hashed row (with a ratio below 1 also rows that got a direct
    # table: harmless), and with a ratio >= 1 only those
    got_sorted = set(np.concatenate(sorted_calls).tolist()) if sorted_calls else set()
    assert fake.hashed_rows <= got_sorted
    if (ratio or _spgemm.NUMERIC_DIRECT_RATIO) >= 1:
        assert fake.hashed_rows == got_sorted
    np.testing.assert_array_equal(np.asarray(C.indptr), ref.indptr)
    np.testing.assert_array_equal(np.asarray(C.indices), ref.indices)  # global rows re-sorted
    np.testing.assert_array_equal(np.asarray(C.values), ref.values)
