"""The CPU backend's compiled kernels (Numba, the optional ``cpu`` extra; issue 21, item 3)
against its NumPy paths, which stay the reference: the pull (mxv, dense x), the push (vxm,
sparse x, with and without a mask) and BFS levels from SciPy's visit order. Every semiring of
the table in every domain (those without a compiled form must fall back, and the test
checks which ran), random inputs with empty rows and matrices, isolated vertices,
self-loops, duplicate edges (folded by ``dup_op``), explicit zeros, -0.0 / NaN / ±inf, iso
values, int32 and int64 indices; and the fallback when Numba is absent."""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.sparse.csgraph import breadth_first_order

import algorithms
import semiring as sr
from conftest import to_host
from strategies import make_matrix

compiled = importlib.import_module("semiring.backend.cpu.compiled")
spmv_cpu = importlib.import_module("semiring.backend.cpu.spmv")
trav_cpu = importlib.import_module("semiring.backend.cpu.traversal")

needs_numba = pytest.mark.skipif(not compiled.ENABLED, reason="Numba not installed (the "
                                 "`cpu` extra) or SEMIRING_NUMBA=0")
SEMIRINGS = sorted(sr.ops.builtins("semiring")) + ["min_plus_sat"]
DTYPES = [np.bool_, np.int32, np.int64, np.float32, np.float64]
#: The random tests draw from these (each fold kind: min / max, plus / times, the logical
#: ones, a fallback); every semiring of the table runs in the sweep below. (A semiring's
#: first use in a domain compiles its kernel, about 1.5 s on a fresh cache.)
DRAWN = ["min_plus", "max_times", "plus_times", "max_min", "lxor_land", "land_lor",
         "plus_first", "min_secondi"]


def _values(rng, dtype, shape, special):
    vals = rng.integers(-4, 5, shape).astype(dtype)
    if special and np.dtype(dtype).kind == "f" and vals.size:
        vals.flat[rng.integers(0, vals.size, 5)] = [np.nan, np.inf, -0.0, -np.inf, 0.0]
    return vals


def _same(got, ref, S, dtype):
    """Exact for every fold but plus / times on floats (their fold order may differ from
    NumPy's pairwise ``reduceat``: within rounding, the same NaN and inf positions)."""
    gi, gv = (to_host(a) for a in got.sparse()[:2])
    ri, rv = (to_host(a) for a in ref.sparse()[:2])
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(gi, ri)
    if rv.dtype.kind == "f" and S.add.op.numpy in (np.add, np.multiply):
        np.testing.assert_allclose(gv, rv, rtol=1e-5 if rv.dtype == np.float32 else 1e-12)
    else:  # the same values, NaN where NaN; not the sign of a zero where a min / max fold
        # meets both -0.0 and +0.0 (IEEE leaves fmin(-0, +0) open, and the NumPy push's
        # own unstable sort already makes it depend on the order)
        np.testing.assert_array_equal(gv, rv)


def _numpy_path(mp):
    mp.setattr(compiled, "ENABLED", False)


@given(nrows=st.integers(0, 40), ncols=st.integers(0, 40), seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(DRAWN), dtype=st.sampled_from(DTYPES), iso=st.booleans(),
       int64=st.booleans(), special=st.booleans(), parallel=st.booleans(),
       unroll=st.booleans())
def test_pull_equals_the_numpy_path(device, nrows, ncols, seed, semiring, dtype, iso, int64,
                                    special, parallel, unroll):
    rng = np.random.default_rng(seed)
    # empty rows, full rows, and rows of every length between (the four-lane fold from 8)
    present = rng.random((nrows, ncols)) < rng.random((nrows, 1))
    vals = _values(rng, dtype, (nrows, ncols), special)
    A = make_matrix(vals, present, device, iso=iso, int64=int64)
    xd = _values(rng, dtype, ncols, special)
    x = sr.Vector.from_dense(xd, device=device)
    S = getattr(sr, semiring)
    parallel = parallel and semiring == "min_plus"  # (a parallel kernel compiles in ~3 s)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled, "PARALLEL_MIN_ENTRIES", 0 if parallel else 1 << 30)
        mp.setattr(compiled, "_threads", lambda: 2)  # two ranges or more, whatever the load
        # the row loop with LLVM's unrolling or without (by x's size: none here is large)
        mp.setattr(compiled, "PULL_UNROLL_MAX_X_BYTES", 1 << 30 if unroll else -1)
        mp.setattr(spmv_cpu, "PLAN_MIN_ENTRIES_PER_GROUP", 0)  # the padded plan when tiny
        first = sr.mxv(A, x, S)  # the row loop; then, where the padded plan applies and is
        got = sr.mxv(A, x, S)  # one block (rows of at most PAD_ROW entries), the block fold
        if device == "cpu":  # the compiled kernel ran where the semiring has a form
            direct = compiled.pull(A, to_host(x.bitmap()[0]), S, A.dtype, False,
                                   spmv_cpu._order_free(S, S.result_type(A.dtype)))
            has_form = compiled.ENABLED and (compiled.ops_of(S, A.dtype) is not None or
                                             compiled.xonly_ops(S, A.dtype, False) is not None)
            assert (direct is not None) == (has_form and A.nvals > 0)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        Ah = make_matrix(vals, present, "cpu", iso=iso, int64=int64)
        ref = sr.mxv(Ah, sr.Vector.from_dense(xd, device="cpu"), S)
    _same(got, ref, S, dtype)
    _same(first, ref, S, dtype)


@given(n=st.integers(0, 40), seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(DRAWN), dtype=st.sampled_from(DTYPES), iso=st.booleans(),
       int64=st.booleans(), special=st.booleans(), masked=st.booleans(),
       frontier=st.sampled_from([0.0, 0.05, 0.3, 1.0]))
def test_push_equals_the_numpy_path(device, n, seed, semiring, dtype, iso, int64, special,
                                    masked, frontier):
    rng = np.random.default_rng(seed)
    present = rng.random((n, n)) < rng.random((n, 1))  # self-loops on the diagonal too
    vals = _values(rng, dtype, (n, n), special)
    A = make_matrix(vals, present, device, iso=iso, int64=int64)
    idx = np.flatnonzero(rng.random(n) < frontier)
    xv = _values(rng, dtype, idx.size, special)
    S = getattr(sr, semiring)
    mask_vals = rng.random(n) < 0.5
    kw = {}
    if masked:
        kw["mask"] = sr.Vector.from_dense(mask_vals, device=device).S
    x = sr.Vector.from_coo(idx, xv, size=n, dtype=dtype, device=device)
    got = sr.vxm(x, A, S, direction="push", **kw)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        Ah = make_matrix(vals, present, "cpu", iso=iso, int64=int64)
        if masked:
            kw["mask"] = sr.Vector.from_dense(mask_vals, device="cpu").S
        xh = sr.Vector.from_coo(idx, xv, size=n, dtype=dtype, device="cpu")
        ref = sr.vxm(xh, Ah, S, direction="push", **kw)
    _same(got, ref, S, dtype)
    if device == "cpu" and compiled.ENABLED and compiled.ops_of(S, A.dtype) is not None:
        assert compiled.push(A, idx, xv, None, S, A.dtype, True) is not None


@needs_numba
@settings(max_examples=15)  # each new (semiring, dtype, index types) compiles two kernels
@given(n=st.integers(0, 30), k=st.integers(0, 30), m=st.integers(0, 30),
       seed=st.integers(0, 2**31 - 1), semiring=st.sampled_from(DRAWN),
       dtype=st.sampled_from(DTYPES), iso=st.booleans(), int64=st.booleans(),
       special=st.booleans(), bitmap=st.booleans())
def test_spgemm_equals_the_numpy_path(n, k, m, seed, semiring, dtype, iso, int64, special,
                                      bitmap):
    rng = np.random.default_rng(seed)
    pa = rng.random((n, k)) < rng.random((n, 1))    # empty, sparse and full rows
    pb = rng.random((k, m)) < rng.random((k, 1))
    va, vb = _values(rng, dtype, (n, k), special), _values(rng, dtype, (k, m), special)
    A = make_matrix(va, pa, "cpu", iso=iso, int64=int64)
    B = make_matrix(vb, pb, "cpu", iso=False, int64=int64)
    S = getattr(sr, semiring)
    with pytest.MonkeyPatch.context() as mp:
        # the row's columns ordered by the bitmap, or by a heap sort (beyond 16 entries)
        mp.setattr(compiled, "SPGEMM_BITMAP_SPAN", 1 << 30 if bitmap else 0)
        got = sr.mxm(A, B, S)
        direct = compiled.spgemm(A, B, S, A.dtype)
    has_form = compiled.ops_of(S, A.dtype) is not None
    plus_times_float = (S.add, S.mul) in \
        importlib.import_module("semiring.backend.cpu.spgemm").SCIPY_SEMIRINGS and \
        np.dtype(dtype).kind == "f"
    assert (direct is not None) == has_form
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = sr.mxm(make_matrix(va, pa, "cpu", iso=iso, int64=int64),
                     make_matrix(vb, pb, "cpu", iso=False, int64=int64), S)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    gr, gc, gv = got.to_coo()
    rr, rc, rv = ref.to_coo()
    np.testing.assert_array_equal(gr, rr)
    np.testing.assert_array_equal(gc, rc)
    if plus_times_float:  # SciPy's route, not the compiled one: within rounding
        np.testing.assert_allclose(gv, rv, rtol=1e-5 if rv.dtype == np.float32 else 1e-12)
    else:  # the same fold order as the NumPy path: the same values, NaN where NaN
        np.testing.assert_array_equal(gv, rv)


@needs_numba
@pytest.mark.parametrize("ncols", [40, 3000, 100_000])
@pytest.mark.parametrize("semiring,dtype", [("min_plus", np.int64), ("max_times", np.float64)])
def test_spgemm_orders_wide_rows(ncols, semiring, dtype):
    """The compiled SpGEMM's ways of ordering a row's columns, each against the NumPy path:
    rows of up to SPGEMM_INSERTION columns by insertion, longer ones by a bitmap of one word
    (40 columns) or many (3000), or by a heap sort where they spread over more words than
    SPGEMM_BITMAP_SPAN an entry (100 000)."""
    rng = np.random.default_rng(ncols)
    n, k = 40, 30
    pa = rng.random((n, k)) < np.linspace(0, 0.6, n)[:, None]
    rows_b = [np.sort(rng.choice(ncols, int(rng.integers(0, min(ncols, 60))), replace=False))
              for _ in range(k)]
    rb = np.repeat(np.arange(k), [r.size for r in rows_b])
    cb = np.concatenate(rows_b).astype(np.int64)
    A = make_matrix(_values(rng, dtype, (n, k), True), pa, "cpu")
    B = sr.Matrix.from_coo(rb, cb, _values(rng, dtype, rb.size, True), nrows=k, ncols=ncols,
                           device="cpu")
    S = getattr(sr, semiring)
    got = sr.mxm(A, B, S)
    assert compiled.spgemm(A, B, S, A.dtype) is not None
    lengths = np.diff(got.indptr)
    assert lengths.max() > compiled.SPGEMM_INSERTION  # (not every row by insertion)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = sr.mxm(A, B, S)
    for g, r in zip(got.to_coo(), ref.to_coo()):
        np.testing.assert_array_equal(g, r)


@settings(max_examples=30)
@given(m=st.integers(1, 40), k=st.integers(1, 70), n=st.integers(1, 300),
       seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(["min_plus", "max_plus", "min_times", "max_min", "plus_times"]),
       dtype=st.sampled_from(DTYPES), special=st.booleans(), skip=st.booleans())
def test_dense_gemm_equals_the_numpy_path(m, k, n, seed, semiring, dtype, special, skip):
    """The dense min / max GEMM, compiled (``sr.dense.gemm`` and Floyd–Warshall's
    ``gemm_accumulate`` on a view with bands left out), against the NumPy path: -0.0 /
    NaN / ±inf, every domain; plus_times stays NumPy's matmul (not compiled)."""
    from semiring.dense import gemm, gemm_accumulate  # noqa: PLC0415  (this test only)

    rng = np.random.default_rng(seed)
    X, Y = _values(rng, dtype, (m, k), special), _values(rng, dtype, (k, n), special)
    S = getattr(sr, semiring)
    rtype = S.result_type(np.dtype(dtype))
    Zbig = _values(rng, rtype, (m + 3, n + 5), special)
    bands = dict(skip_rows=(m // 3, m // 2), skip_cols=(n // 4, n // 2)) if skip else {}

    def run():
        Z = Zbig.copy()
        gemm_accumulate(Z[1:m + 1, 2:n + 2], X, Y, S, dtype, **bands)
        return gemm(X, Y, S, dtype), Z

    got = run()
    ran = compiled.gemm(np.empty((m, n), rtype), X, Y, S, dtype, True)
    assert (ran is not None) == (compiled.ENABLED and semiring != "plus_times" and
                                 compiled.ops_of(S, np.dtype(dtype)) is not None)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = run()
    for g, r in zip(got, ref):
        assert g.dtype == r.dtype
        np.testing.assert_array_equal(g, r)  # (min / max: the same values, NaN where NaN)


@settings(max_examples=40)  # each new (semiring, dtype, index types) compiles a kernel
@given(n=st.integers(0, 25), k=st.integers(0, 45), m=st.integers(0, 25),
       seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(DRAWN + ["plus_pair", "any_pair", "plus_second", "min_first"]),
       dtype=st.sampled_from(DTYPES), iso=st.booleans(), int64=st.booleans(),
       special=st.booleans(), skew=st.booleans())
def test_dot3_equals_the_numpy_path(n, k, m, seed, semiring, dtype, iso, int64, special, skew):
    """The masked dot product C⟨M⟩ = A ⊕.⊗ BTᵀ (``sr.dot3``, mxm's ``method="dot"``),
    compiled, against the NumPy path: empty rows and masks, mask entries whose rows do not
    meet, duplicates folded, -0.0 / NaN / ±inf, iso values, int64 indices; ``skew``: rows of
    A with one or two entries against full rows of BT (the binary-search branch)."""
    rng = np.random.default_rng(seed)
    pa = rng.random((n, k)) < rng.random((n, 1))
    pb = rng.random((m, k)) < rng.random((m, 1))
    if skew and k:
        pa[::2] = False
        pa[::2, rng.integers(0, k, 2)] = True
        pb[::3] = True
    pm = rng.random((n, m)) < rng.random((n, 1))
    va, vb = _values(rng, dtype, (n, k), special), _values(rng, dtype, (m, k), special)
    S = getattr(sr, semiring)

    def run():
        A = make_matrix(va, pa, "cpu", iso=iso, int64=int64)
        BT = make_matrix(vb, pb, "cpu", int64=int64)
        M = make_matrix(np.ones((n, m), bool), pm, "cpu", int64=int64)
        return (sr.dot3(A, BT, S, mask=M),
                sr.mxm(A, BT.T, S, mask=M.S, method="dot"))

    got = run()
    A = make_matrix(va, pa, "cpu", iso=iso, int64=int64)
    Mp = make_matrix(np.ones((n, m), bool), pm, "cpu", int64=int64)
    pattern = sr.Matrix(Mp.indptr, Mp.indices, None, Mp.shape, iso_value=True, dtype=np.bool_)
    direct = compiled.dot3(A, make_matrix(vb, pb, "cpu", int64=int64), S, A.dtype, pattern)
    assert (direct is not None) == (compiled.ENABLED and
                                    compiled.dot_ops(S, A.dtype) is not None)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = run()
    for g, r in zip(got, ref):
        assert g.dtype == r.dtype and g.shape == r.shape
        gr, gc, gv = g.to_coo()
        rr, rc, rv = r.to_coo()
        np.testing.assert_array_equal(gr, rr)
        np.testing.assert_array_equal(gc, rc)
        if rv.dtype.kind == "f" and S.add.op.numpy in (np.add, np.multiply):
            np.testing.assert_allclose(gv, rv, rtol=1e-5 if rv.dtype == np.float32 else 1e-12)
        else:  # folded in increasing k as the NumPy path: the same values, NaN where NaN
            np.testing.assert_array_equal(gv, rv)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_semiring_of_the_table(dtype):
    """Every semiring in every domain, pull and push, against the NumPy path: rows of every
    length 0..40 (the four-lane fold from 8), -0.0 / NaN / ±inf, explicit zeros; the
    compiled kernel runs exactly where the semiring has a compiled form. CPU only: its
    subject is the CPU backend's compiled kernels, and the comparison is exact, which the
    GPU's ``any`` monoids (any stored term, by design) do not promise; the GPU's semirings
    are checked against the dense oracle in tests/test_mxv.py."""
    device = "cpu"
    rng = np.random.default_rng(7)
    nrows, ncols = 30, 40
    present = rng.random((nrows, ncols)) < np.linspace(0, 1, nrows)[:, None]
    vals = _values(rng, dtype, (nrows, ncols), True)
    xd = _values(rng, dtype, ncols, True)
    idx = np.flatnonzero(rng.random(nrows) < 0.4)
    for name in SEMIRINGS:
        S = getattr(sr, name)
        A = make_matrix(vals, present, device)
        Ah = make_matrix(vals, present, "cpu")
        xs = sr.Vector.from_coo(idx, vals[idx, 0], size=nrows, dtype=dtype, device=device)
        xsh = sr.Vector.from_coo(idx, vals[idx, 0], size=nrows, dtype=dtype, device="cpu")
        got = (sr.mxv(A, sr.Vector.from_dense(xd, device=device), S),
               sr.vxm(xs, A, S, direction="push"))
        if device == "cpu":
            form = compiled.ENABLED and compiled.ops_of(S, Ah.dtype) is not None
            # (the pull also where every product is x's: plus_second in mxv, by x alone)
            xonly = compiled.ENABLED and compiled.xonly_ops(S, Ah.dtype, False) is not None
            ran = compiled.pull(Ah, xd, S, Ah.dtype, False,
                                spmv_cpu._order_free(S, S.result_type(Ah.dtype)))
            assert (ran is not None) == (form or xonly), name
            ran = compiled.push(Ah, idx, vals[idx, 0], None, S, Ah.dtype, True)
            assert (ran is not None) == form, name
        with pytest.MonkeyPatch.context() as mp:
            _numpy_path(mp)
            ref = (sr.mxv(Ah, sr.Vector.from_dense(xd, device="cpu"), S),
                   sr.vxm(xsh, Ah, S, direction="push"))
        for g, r in zip(got, ref):
            _same(g, r, S, dtype)


@needs_numba
def test_the_compiled_forms_are_the_ufunc_ops():
    """Which semirings compile: those whose multiply and monoid have a ufunc as their NumPy
    twin (read from the table, no list of names in the backend)."""
    forms = {n for n in SEMIRINGS if compiled.ops_of(getattr(sr, n), np.float64) is not None}
    assert {"min_plus", "max_plus", "plus_times", "min_times", "max_min", "lor_land",
            "lxor_land"} <= forms
    assert not forms & {"min_plus_sat", "plus_first", "any_pair", "min_secondi", "any_secondi"}


@pytest.mark.parametrize("sname", ["min_plus", "max_plus"])
def test_the_row_fold_past_leading_nans(device, sname):
    """The row loop's min / max fold drops its NaN test once the accumulator is a number:
    rows whose first products are NaN (stored NaN, NaN in x), all NaN, NaN in the middle,
    ±inf, of 44 to 200 entries (four accumulators from 128), against the NumPy path."""
    rng = np.random.default_rng(5)
    n, m = 40, 200
    present = np.arange(m)[None, :] < (m - 4 * np.arange(n))[:, None]  # row i: m - 4i entries
    vals = rng.integers(-9, 9, (n, m)).astype(np.float64)
    vals[:, :6] = np.nan  # each row's leading products NaN
    vals[3] = np.nan  # a row of NaN only
    vals[::5, 20] = np.inf
    vals[::7, 25] = -np.inf
    vals[1, 150] = -99.0  # a long row's least, in its third lane
    xd = rng.integers(-9, 9, m).astype(np.float64)
    xd[[8, 30]] = np.nan
    S = getattr(sr, sname)
    A = make_matrix(vals, present, device)
    got = sr.mxv(A, sr.Vector.from_dense(xd, device=device), S)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = sr.mxv(make_matrix(vals, present, "cpu"), sr.Vector.from_dense(xd, device="cpu"), S)
    assert np.isnan(to_host(ref.sparse()[1])).sum() == 1  # the all-NaN row, and only it
    _same(got, ref, S, np.float64)


@pytest.mark.parametrize("ncols", [300, 9000])  # x of 1.2 / 36 KiB: unrolled, not
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
@pytest.mark.parametrize("banded", [False, True])
def test_the_kept_pull_takes_any_x(device, ncols, dtype, banded):
    """The plain call's kept route (the serial kernel, or a banded matrix's padded block,
    through its overload's entry point, its argument types fixed by the first call): x fresh
    each call, read-only, unaligned, of another type (converted), and from a strided view;
    a matrix with int64 indices, empty rows, explicit zeros, stored ±inf (NaN in a float
    x), every call against the NumPy path; n = 0 and a matrix of no entries answer empty."""
    rng = np.random.default_rng(ncols)
    nrows = 50
    present = rng.random((nrows, ncols)) < 0.05
    present[::7] = False  # empty rows
    if banded:  # every row three entries: (float) the grids' padded block, one kernel
        present = np.zeros((nrows, ncols), dtype=bool)
        for d in range(3):
            present[np.arange(nrows), (np.arange(nrows) * 5 + d) % ncols] = True
    vals = rng.integers(-9, 9, (nrows, ncols)).astype(dtype)  # (zeros among them: stored)
    if np.dtype(dtype).kind == "f":
        vals[::3, ::11] = np.inf
        vals[1::4, ::13] = -np.inf
    S = sr.min_plus
    for int64 in (False, True):
        A = make_matrix(vals, present, device, int64=int64)
        Ah = make_matrix(vals, present, "cpu", int64=int64)
        for k in range(6):
            xd = rng.integers(-9, 9, ncols).astype(dtype)
            if np.dtype(dtype).kind == "f":
                xd[k::17] = np.nan
            if k == 2:
                xd.flags.writeable = False
            if k == 3 and device == "cpu":  # an unaligned copy of xd (a NumPy array on a
                raw = np.zeros(xd.nbytes + 1, dtype=np.uint8)  # byte offset of 1)
                xu = raw[1:].view(dtype)
                xu[:] = xd
                assert not xu.flags.aligned
                xd = xu
            if k == 4:  # another type: converted to A's on the way
                xd = xd.astype(np.int32 if np.dtype(dtype).kind == "i" else np.float64)
            if k == 5:  # a strided view
                xd = np.repeat(xd, 2)[::2]
            with pytest.MonkeyPatch.context() as mp:  # (the padded plan when tiny)
                mp.setattr(spmv_cpu, "PLAN_MIN_ENTRIES_PER_GROUP", 0)
                got = sr.mxv(A, sr.Vector.from_dense(xd, device=device), S)
            with pytest.MonkeyPatch.context() as mp:
                _numpy_path(mp)
                ref = sr.mxv(Ah, sr.Vector.from_dense(np.ascontiguousarray(xd), device="cpu"),
                             S)
            _same(got, ref, S, dtype)
        if device == "cpu" and compiled.ENABLED:  # the route kept: the row loop on
            # integers, the padded block on the banded floats (and on the random ones where
            # their rows fit one block)
            route = A._memo[(spmv_cpu.ROUTE_KEY, S, np.dtype(dtype), False)]
            if np.dtype(dtype).kind != "f":
                assert "block_route" not in route.__qualname__
            elif banded:
                assert "block_route" in route.__qualname__
    for shape in ((0, 0), (4, 0), (0, 5), (3, 4)):  # no entries
        E = sr.Matrix.from_coo([], [], np.zeros(0, dtype=dtype), nrows=shape[0],
                               ncols=shape[1], device=device)
        for _ in range(3):
            got = sr.mxv(E, sr.Vector.from_dense(np.ones(shape[1], dtype=dtype),
                                                 device=device), S)
            assert got.size == shape[0] and got.nvals == 0


@needs_numba
def test_the_entry_point_is_the_overload_of_those_types():
    """:func:`compiled._entry`: the compiled overload of exactly the arguments' types
    (not another one the kernel also has), the same result as the dispatcher; the
    dispatcher itself where the kernel has no overload of those types yet."""
    k = compiled._kernel("pull", sr.min_plus, np.dtype(np.float64), 1, False, False, True)
    indptr = np.array([0, 2, 3, 3], dtype=np.uint64)
    rows = np.array([0, 1], dtype=np.uint64)
    bounds = np.array([0, 2], dtype=np.int64)
    a = np.array([1.0, 2.0, -1.0])
    x = np.array([5.0, np.nan, 0.5])
    for itype in (np.uint64, np.uint32):  # both overloads compiled, the uint32 one last
        out = np.empty(2)
        k(indptr, np.array([0, 2, 1], dtype=itype), a, x, rows, bounds, out)
    args = (indptr, np.array([0, 2, 1], dtype=np.uint64), a, x, rows, bounds, np.empty(2))
    ep = compiled._entry(k, args)
    assert ep is not k
    ep(*args)
    assert args[-1][0] == 2.5 and np.isnan(args[-1][1])  # min(1 + 5, 2 + 0.5); -1 + NaN
    fresh = compiled._kernel("pull", sr.min_plus, np.dtype(np.float64), 1, False, False, False)
    other = (indptr, args[1], a, x.astype(np.float32), rows, bounds, np.empty(2))
    assert compiled._entry(fresh, other) is fresh  # (no float32-x overload of it)


@needs_numba
@pytest.mark.parametrize("by_rows", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_block_fold_runs_on_a_grid(dtype, by_rows):
    """A grid's padded row plan is one block: its fold is compiled (the vectorized loop over
    rows: ``by_rows``, the kernel compiled for the block's width, row-major tables; else the
    kernel of any width), NaN pads ignored, stored NaN / inf kept."""
    n = 12
    v = np.arange(n * n).reshape(n, n)
    rows = np.r_[v[:, :-1].ravel(), v[:, 1:].ravel(), v[:-1].ravel(), v[1:].ravel()]
    cols = np.r_[v[:, 1:].ravel(), v[:, :-1].ravel(), v[1:].ravel(), v[:-1].ravel()]
    w = np.random.default_rng(3).integers(1, 9, rows.size).astype(dtype)
    w[:3] = [np.nan, np.inf, -np.inf]
    A = sr.Matrix.from_coo(rows, cols, w, nrows=n * n, ncols=n * n, device="cpu")
    x = sr.Vector.from_dense(np.arange(n * n, dtype=dtype), device="cpu")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spmv_cpu, "PLAN_MIN_ENTRIES_PER_GROUP", 0)
        mp.setattr(compiled, "BLOCK_ROWS_WIDTH", 8 if by_rows else 0)
        sr.mxv(A, x, sr.min_plus)
        got = [sr.mxv(A, x, sr.min_plus) for _ in range(2)]  # (the kept route the second time)
        plan = A._memo[spmv_cpu.PLAN_KEY][True]
        assert plan.whole and hasattr(plan, "_k_unsigned")  # the block fold ran
        assert hasattr(plan, "_k_rows") == by_rows  # by the kernel of the block's width
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = sr.mxv(A, x, sr.min_plus)
    for g in got:
        _same(g, ref, sr.min_plus, dtype)


VXM_PULL = ["max_min", "min_plus", "lor_lt"]


@pytest.mark.parametrize("sname", VXM_PULL)
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_vxm_pull_keeps_the_operand_order(device, sname, dtype):
    """vxm with a full u pulls over Aᵀ's rows with u's value the multiply's first operand:
    the compiled kernel takes the order as a constant, one kernel for both orders where the
    multiply commutes (plus), its own where it does not (``lt``, ``fmin``); rows of 0 to 60
    entries (the lanes from 8 on a ufunc fold), -0.0 / NaN / ±inf, the plain call's kept
    route from the second call, against the NumPy path."""
    S = sr.Semiring("lor_lt", sr.monoid.lor, sr.binary.lt, register=False) \
        if sname == "lor_lt" else getattr(sr, sname)
    rng = np.random.default_rng(11)
    n, m = 60, 50  # A: n x m, u: n
    present = rng.random((n, m)) < np.linspace(0, 1.2, m)[None, :]
    vals = _values(rng, dtype, (n, m), True)
    ud = _values(rng, dtype, n, True)
    A = make_matrix(vals, present, device)
    got = [sr.vxm(sr.Vector.from_dense(ud, device=device), A, S) for _ in range(3)]
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = sr.vxm(sr.Vector.from_dense(ud, device="cpu"), make_matrix(vals, present, "cpu"),
                     S)
    for g in got:
        _same(g, ref, S, dtype)
    if device == "cpu" and compiled.ENABLED:  # the compiled pull ran, in the kept route
        assert (spmv_cpu.ROUTE_KEY, S, np.dtype(dtype), True) in A.T._memo


def test_a_pull_result_shares_no_writable_array(device):
    """A pull's result indices are the matrix's non-empty rows, kept with its route on the
    CPU: a caller writing into one result's indices gets NumPy's error there, and the next
    product is unchanged."""
    rng = np.random.default_rng(2)
    vals = rng.integers(1, 9, (30, 30)).astype(np.float64)
    present = rng.random((30, 30)) < 0.2
    present[4] = False  # an empty row: the result is sparse
    A = make_matrix(vals, present, device)
    x = sr.Vector.from_dense(np.arange(30.0), device=device)
    first = [sr.mxv(A, x, sr.min_plus) for _ in range(3)]
    ref = [to_host(a).copy() for a in first[0].sparse()[:2]]
    for y in first:
        idx = y.sparse()[0]
        try:
            idx[:] = 0
        except ValueError:  # read-only: shared with the route (the CPU)
            assert device == "cpu"
    got = sr.mxv(A, x, sr.min_plus).sparse()
    np.testing.assert_array_equal(to_host(got[0]), ref[0])
    np.testing.assert_array_equal(to_host(got[1]), ref[1])


def test_a_push_result_outlives_the_next_push(device):
    """The push's scratch (marks, hit list) is the thread's: a result keeps its values
    after later pushes (sorted hits and scanned marks alike)."""
    rng = np.random.default_rng(5)
    n = 2000  # (few hits of many targets: the sorted hit list)
    rows, cols = np.nonzero(rng.random((n, n)) < 0.002)
    A = sr.Matrix.from_coo(rows, cols, np.ones(rows.size), nrows=n, ncols=n, device=device)
    first = sr.vxm(sr.Vector.from_coo([0, 1], [0.0, 0.0], size=n, device=device), A,
                   sr.min_plus)
    kept = [to_host(a).copy() for a in first.sparse()[:2]]
    for size in (3, n, 1):
        idx = np.sort(rng.choice(n, size, replace=False))
        sr.vxm(sr.Vector.from_coo(idx, np.ones(size), size=n, device=device), A, sr.min_plus)
    for a, b in zip(first.sparse()[:2], kept):
        np.testing.assert_array_equal(to_host(a), b)


@needs_numba
def test_push_scratch_marks_stay_clear():
    """The push keeps a mark a target between calls, all clear: a frontier that hits few
    targets (collected by a sort) then many (by a scan), and a masked one."""
    rng = np.random.default_rng(1)
    n = 500
    rows, cols = np.nonzero(rng.random((n, n)) < 0.02)
    A = sr.Matrix.from_coo(rows, cols, rng.integers(1, 9, rows.size).astype(np.float64),
                           nrows=n, ncols=n, device="cpu")
    for size in (1, 3, 200, 2, n, 1):
        idx = np.sort(rng.choice(n, size, replace=False))
        x = sr.Vector.from_coo(idx, np.zeros(size), size=n, device="cpu")
        got = sr.vxm(x, A, sr.min_plus)
        with pytest.MonkeyPatch.context() as mp:
            _numpy_path(mp)
            ref = sr.vxm(x, A, sr.min_plus)
        _same(got, ref, sr.min_plus, np.float64)
        marks = compiled._scratch_local.bufs["mark"]
        assert not marks.any()


def _graph(rng, n, p, device, int64):
    """A directed graph with isolated vertices, self-loops and duplicate edges (folded)."""
    m = int(p * n * n)
    rows = rng.integers(0, n, m) if n else np.zeros(0, np.int64)
    cols = rng.integers(0, n, m) if n else np.zeros(0, np.int64)
    if n:
        rows = np.r_[rows, rows[: m // 4], np.arange(0, n, 3)]  # duplicates, self-loops
        cols = np.r_[cols, cols[: m // 4], np.arange(0, n, 3)]
    A = sr.Matrix.from_coo(rows, cols, np.ones(rows.size), nrows=n, ncols=n,
                           dup_op=sr.binary.min, device=device)
    if int64:
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values,
                      A.shape, dtype=A.dtype)
    return A


@given(n=st.integers(1, 60), p=st.sampled_from([0.0, 0.02, 0.1, 0.5]),
       seed=st.integers(0, 2**31 - 1), int64=st.booleans(), parents=st.booleans())
def test_bfs_levels_equal_the_numpy_path(n, p, seed, int64, parents):
    """CPU only: the compiled level pass against the NumPy one, parents included (both are
    SciPy's tree). The GPU's parents may name another parent of the same level where there
    are ties (tests/test_bfs.py checks their validity)."""
    device = "cpu"
    rng = np.random.default_rng(seed + 1)
    A = _graph(np.random.default_rng(seed), n, p, device, int64)
    Ah = _graph(np.random.default_rng(seed), n, p, "cpu", int64)
    s = int(rng.integers(0, n))
    got = algorithms.bfs(A, s, parents=parents)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = algorithms.bfs(Ah, s, parents=parents)
    got, ref = (got if parents else (got,)), (ref if parents else (ref,))
    for g, r in zip(got, ref):  # levels, and the parents (SciPy's tree on both paths)
        np.testing.assert_array_equal(to_host(g), to_host(r))


@needs_numba
@given(n=st.integers(1, 80), p=st.sampled_from([0.0, 0.03, 0.2]), seed=st.integers(0, 2**31 - 1))
def test_compiled_levels_equal_the_level_doubling(n, p, seed):
    rng = np.random.default_rng(seed)
    A = _graph(rng, n, p, "cpu", False)
    s = int(rng.integers(0, n))
    order, pred = breadth_first_order(trav_cpu._structure(A), s, directed=True,
                                      return_predecessors=True)
    got = compiled.bfs_levels(order, pred, n)
    with pytest.MonkeyPatch.context() as mp:
        _numpy_path(mp)
        ref = trav_cpu._depths(order, pred, n)
    np.testing.assert_array_equal(got, ref)
    assert got[s] == 0 and (got >= -1).all()


def test_without_numba_the_numpy_paths_run(monkeypatch):
    """Numba absent (its import fails): the backend imports, ENABLED is False, no kernel is
    built, and the products and BFS give the NumPy paths' answers."""
    monkeypatch.setitem(sys.modules, "numba", None)  # `import numba` raises ImportError
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a, **k: None if name == "numba" else _find_spec(name))
    try:
        importlib.reload(compiled)
        assert compiled.ENABLED is False
        A = sr.Matrix.from_coo([0, 0, 2, 1], [0, 1, 1, 2], [2.0, -3.0, 4.0, 1.0], nrows=3,
                               ncols=3, device="cpu")
        x = sr.Vector.from_dense(np.array([1.0, 5.0, 0.0]), device="cpu")
        assert sr.mxv(A, x, sr.min_plus).to_dense(missing=-1).tolist() == [2.0, 1.0, 9.0]
        xs = sr.Vector.from_coo([0], [0.0], size=3, device="cpu")
        assert sr.vxm(xs, A, sr.min_plus).to_dense(missing=-1).tolist() == [2.0, -3.0, -1]
        assert to_host(algorithms.bfs(A, 0)).tolist() == [0, 1, 2]
        assert compiled._kernels == {} and compiled._nb is None
    finally:
        monkeypatch.undo()
        importlib.reload(compiled)


_find_spec = importlib.util.find_spec


def test_validation_comes_before_the_kernels(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("a kernel ran before validation")

    monkeypatch.setattr(compiled, "pull", boom)
    monkeypatch.setattr(compiled, "push", boom)
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2, device="cpu")
    with pytest.raises(sr.DimensionMismatch, match="x"):
        sr.mxv(A, sr.Vector.from_dense(np.ones(3), device="cpu"), sr.min_plus)
    with pytest.raises(sr.DimensionMismatch):
        sr.vxm(sr.Vector.from_coo([0], [1.0], size=3, device="cpu"), A, sr.min_plus)


@needs_numba
def test_threads_follow_the_load_and_back_off(monkeypatch):
    """The parallel pull runs while the load average leaves the cores idle, and a parallel
    call slower than its serial estimate turns the threads off for PARALLEL_BACKOFF_S."""
    nb = compiled._numba()
    if nb.get_num_threads() < 2:
        pytest.skip("one thread")
    monkeypatch.setattr(compiled, "_load", [-1e9, 1, -1e9, os.getpid()])
    monkeypatch.setattr(compiled.os, "getloadavg", lambda: (1e6, 1e6, 1e6))
    assert compiled._threads() == 1  # busy host
    monkeypatch.setattr(compiled, "_load", [-1e9, 1, -1e9, os.getpid()])
    monkeypatch.setattr(compiled.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert compiled._threads() == nb.get_num_threads()
    # every parallel call counts as slow: the next pull runs serial
    monkeypatch.setattr(compiled, "SERIAL_NS_PER_ENTRY", 0.0)
    monkeypatch.setattr(compiled, "PARALLEL_TRIP_US", -1e9)
    monkeypatch.setattr(compiled, "PARALLEL_MIN_ENTRIES", 0)
    A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], nrows=3, ncols=3,
                           device="cpu")
    for _ in range(2):  # (a kernel's first call, its compile or load, is not timed)
        assert compiled._threads() == nb.get_num_threads()
        assert sr.mxv(A, sr.Vector.from_dense(np.zeros(3), device="cpu"),
                      sr.min_plus).to_dense().tolist() == [1.0, 2.0, 3.0]
    assert compiled._threads() == 1
    # in a forked child (another pid) the threads stay off
    monkeypatch.setattr(compiled, "_load", [-1e9, 1, -1e9, -1])
    assert compiled._threads() == 1


@needs_numba
def test_warmup_cpu_compiles_the_kernels(capsys):
    from semiring import warmup  # noqa: PLC0415  (the tool module, imported by this test only)

    assert warmup.main(["--cpu", "-q", "--semiring", "min_plus", "--dtype", "float32"]) == 0
    assert "CPU kernels compiled or loaded for 1 (semiring, domain) pairs" in \
        capsys.readouterr().err
    for lanes in (1, 4):  # (min-plus commutes: one operand order)
        for parallel in (False, True):
            for unroll in (True, False):
                assert compiled._kernels[("pull", sr.min_plus, np.dtype(np.float32), lanes,
                                          parallel, False, unroll, False)] is not None
    for width in range(1, compiled.BLOCK_ROWS_WIDTH + 1):  # a padded block of each width
        assert compiled._kernels[("blockrows", sr.min_plus, np.dtype(np.float32), width,
                                  False, False, True, False)] is not None
    assert warmup.warm_cpu(["any_secondi"], ["float64"]) == 0  # no compiled form
    # every warm also compiles the analytics' kernels, for both index types (one warm here
    # for them all: each test of its own paid a whole warm, 20-30 s on CI)
    for kernels in ([compiled._cores], compiled._truss, compiled._lpa,
                    [compiled.louvain_kernel()]):
        assert kernels is not None and all(len(k.signatures) >= 2 for k in kernels)
    # the distances-only Dijkstra of algorithms.sssp's CPU route, for both index widths
    assert len(compiled.dijkstra_kernel().signatures) >= 2


@needs_numba
def test_a_kernels_optimization_level_stays_its_own():
    """The serial pull compiles at its own LLVM level (PULL_OPT), which Numba reads from its
    config while it compiles: the config is back at the process's level after the compile,
    and every other kernel compiles at that level."""
    from numba.core import config  # noqa: PLC0415  (numba: optional)

    before = int(config.OPT)
    with compiled._opt_level(before + 1 if before < 3 else 1):
        assert int(config.OPT) != before
    assert int(config.OPT) == before
    S = sr.Semiring("min_plus_opt_test", sr.monoid.min, sr.binary.plus, register=False)
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], [1.0, 2.0, 3.0], nrows=2, ncols=2,
                           device="cpu")
    got = sr.mxv(A, sr.Vector.from_dense(np.array([1.0, -5.0]), device="cpu"), S)
    assert got.to_dense().tolist() == [-3.0, -2.0]  # a new dispatcher compiled (or loaded)
    assert int(config.OPT) == before
    # the pull's other compile settings are as scoped: LLVM's unrolling off while held
    from numba.core import codegen  # noqa: PLC0415  (numba: optional)

    builder = codegen.create_pass_builder
    with compiled._no_unroll(True):
        assert codegen.create_pass_builder is not builder
    with compiled._no_unroll(False):
        assert codegen.create_pass_builder is builder
    assert codegen.create_pass_builder is builder


def test_warmup_cpu_without_numba(monkeypatch, capsys):
    from semiring import warmup  # noqa: PLC0415  (the tool module, imported by this test only)

    monkeypatch.setattr(compiled, "ENABLED", False)
    assert warmup.main(["--cpu", "-q"]) == 1
    assert "Numba is not installed" in capsys.readouterr().err


def test_a_ufunc_numba_cannot_compile_falls_back(device):
    """A user's op whose NumPy twin is a ufunc Numba does not compile on scalars
    (``np.heaviside``): the kernel's compile fails once, the NumPy paths answer."""
    op = sr.BinaryOp("heaviside_test",
                     "(x < (T)0) ? (T)0 : ((x > (T)0) ? (T)1 : ((x == (T)0) ? y : x))",
                     np.heaviside, register=False)
    S = sr.Semiring("min_heaviside_test", sr.monoid.min, op, register=False)
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], [2.0, -3.0, 4.0], nrows=2, ncols=2,
                           device=device)
    x = sr.Vector.from_dense(np.array([1.0, 0.0]), device=device)
    xs = sr.Vector.from_coo([0], [1.0], size=2, device=device)
    for _ in range(2):  # the second time without a compile attempt
        assert to_host(sr.mxv(A, x, S).to_dense()).tolist() == [0.0, 1.0]
        assert to_host(sr.vxm(xs, A, S).to_dense()).tolist() == [1.0, 1.0]
