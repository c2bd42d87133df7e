"""The CPU backend's products by SciPy's compiled kernels (issue 21, item 3): the pull of the
semirings in ``SCIPY_PULL`` (plus_times by ``A @ x``, plus_pair / any_pair by counts, lor_land
by counts of nonzeros) against the dense oracle and against the segment fold they replace;
BFS levels from SciPy's visit order (``_depths``) against the doubling they replace, both of
its branches; the cached SciPy views. Awkward inputs: empty rows and matrices, explicit
zeros, -0.0 / NaN / inf, iso values, int32 and int64 indices, sparse and bitmap x."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from scipy.sparse.csgraph import breadth_first_order

import semiring as sr
from conftest import to_host
from oracle import dense_product
from strategies import make_matrix

spmv_cpu = importlib.import_module("semiring.backend.cpu.spmv")
trav_cpu = importlib.import_module("semiring.backend.cpu.traversal")

SCIPY_SEMIRINGS = ["plus_times", "plus_pair", "any_pair", "lor_land", "plus_first",
                   "plus_second"]
DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_]


def _values(rng, dtype, shape, special):
    vals = rng.integers(-4, 5, shape).astype(dtype)
    if special and np.dtype(dtype).kind == "f" and vals.size:
        vals.flat[rng.integers(0, vals.size, 4)] = [np.nan, np.inf, -0.0, -np.inf]
    return vals


@given(nrows=st.integers(0, 30), ncols=st.integers(0, 12), seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(SCIPY_SEMIRINGS), dtype=st.sampled_from(DTYPES),
       xdtype=st.sampled_from([None, np.float32, np.int64]), iso=st.booleans(),
       int64=st.booleans(), special=st.booleans(), x_form=st.sampled_from(["full", "bitmap",
                                                                           "sparse"]),
       vxm=st.booleans())
def test_scipy_pull_equals_the_oracle_and_the_fold(device, nrows, ncols, seed, semiring, dtype,
                                                   xdtype, iso, int64, special, x_form, vxm):
    """mxv, and vxm's pull (x the multiply's first operand: plus_first takes x there)."""
    rng = np.random.default_rng(seed)
    present = rng.random((nrows, ncols)) < rng.random((nrows, 1))  # empty and full rows
    vals = _values(rng, dtype, (nrows, ncols), special)
    A = make_matrix(vals, present, device, iso=iso, int64=int64)
    size = nrows if vxm else ncols
    xd = _values(rng, xdtype or dtype, size, special)
    xp_ = np.ones(size, bool) if x_form == "full" else rng.random(size) < 0.6
    idx = np.flatnonzero(xp_)
    x = sr.Vector.from_coo(idx, xd[idx], size=size, dtype=xd.dtype, device=device)
    x = x.to_form("bitmap" if x_form != "sparse" else "sparse")
    S = getattr(sr, semiring)
    product = (lambda: sr.vxm(x, A, S, direction="pull")) if vxm else \
        (lambda: sr.mxv(A, x, S, direction="pull"))
    got = product()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spmv_cpu, "SCIPY_PULL", {})
        fold = product()
    Ad = np.ones(present.shape, dtype=A.dtype) if iso else vals
    ev, ep, _ = dense_product(Ad, present, xd, xp_, S, vxm=vxm)
    gi, gv = (to_host(a) for a in got.sparse()[:2])
    fi, fv = (to_host(a) for a in fold.sparse()[:2])
    assert got.dtype == fold.dtype == ev.dtype
    np.testing.assert_array_equal(gi, np.flatnonzero(ep))
    np.testing.assert_array_equal(fi, gi)
    np.testing.assert_array_equal(gv, ev[ep])
    np.testing.assert_array_equal(gv, fv)
    if gv.dtype.kind == "f":  # the sign of a zero sum too (a row of -0.0 products)
        np.testing.assert_array_equal(np.signbit(gv), np.signbit(fv))


def test_scipy_pull_runs_where_the_table_says(monkeypatch):
    # (without Numba: with it the compiled row loop runs the A @ x kinds first, see
    # COMPILED_BEFORE_SCIPY and tests/test_cpu_small21.py)
    monkeypatch.setattr(importlib.import_module("semiring.backend.cpu.compiled"), "ENABLED",
                        False)
    A = sr.Matrix.from_coo([0, 0, 2], [0, 1, 1], [2.0, -3.0, 4.0], nrows=3, ncols=2,
                           device="cpu")
    x = sr.Vector.from_dense(np.array([1.0, 5.0]), device="cpu")
    ran = []
    real = spmv_cpu.scipy_pull
    monkeypatch.setattr(spmv_cpu, "scipy_pull",
                        lambda *a: ran.append(real(*a) is not None) or real(*a))
    assert sr.mxv(A, x, sr.plus_times).to_dense(missing=-1).tolist() == [-13.0, -1, 20.0]
    assert sr.mxv(A, x, sr.min_plus).to_dense(missing=-1).tolist() == [2.0, -1, 9.0]
    assert sr.mxv(A, x, sr.plus_pair).to_dense(missing=-1).tolist() == [2.0, -1, 1.0]
    assert ran == [True, False, True]  # min_plus is not SciPy's: the row plan / the fold
    # plus_second in mxv sums x over a row's pattern; plus_first there sums A's values (no
    # matvec of x: the fold)
    ran.clear()
    assert sr.mxv(A, x, sr.plus_second).to_dense(missing=-1).tolist() == [6.0, -1, 5.0]
    assert sr.mxv(A, x, sr.plus_first).to_dense(missing=-1).tolist() == [-1.0, -1, 4.0]
    assert ran == [True, False]
    # a mask: the masked pull (only the allowed rows) does not ask SciPy
    ran.clear()
    m = sr.Vector.from_dense(np.array([True, False, False]), device="cpu")
    assert sr.mxv(A, x, sr.plus_times, mask=m).to_dense(missing=-1).tolist() == [-13.0, -1, -1]
    assert ran == []


def test_a_row_of_negative_zeros_keeps_its_sign():
    # csr_matvec starts each row at +0.0 (0 + -0.0 is +0.0); the fold starts at the first
    # product (-0.0): the zero rows are redone by the fold
    A = sr.Matrix.from_coo([0, 0, 1, 2], [0, 1, 0, 1], [-0.0, -0.0, 1.0, 0.0], nrows=3,
                           ncols=2, device="cpu")
    x = sr.Vector.from_dense(np.array([1.0, 2.0]), device="cpu")
    y = sr.mxv(A, x, sr.plus_times).to_dense(missing=np.nan)
    assert y.tolist() == [0.0, 1.0, 0.0]
    assert np.signbit(y).tolist() == [True, False, False]


def test_matvec_declines_where_scipy_fuses_multiply_add(monkeypatch):
    # where the probe finds csr_matvec contracting sum += a * x into an FMA, the fold runs
    e = 2.0**-30
    A = sr.Matrix.from_coo([0, 0], [0, 1], [-1.0, 1 + e], nrows=1, ncols=2, device="cpu")
    x = np.array([1.0, 1 + e])
    assert spmv_cpu._matvec_exact(np.float64)  # SciPy's build here rounds each product
    monkeypatch.setattr(spmv_cpu, "_matvec_probe", {np.dtype(np.float64): False})
    assert spmv_cpu.scipy_pull(A, x, None, sr.plus_times, np.float64, False) is None
    y = sr.mxv(A, sr.Vector.from_dense(x, device="cpu"), sr.plus_times).to_dense()
    assert y.tolist() == [np.add(-1.0, (1 + e) * (1 + e))]


def test_counts_beyond_the_float_mantissa_fall_back():
    # plus_pair over float32 sums ones: a row of 2^24 + 2 entries sums to 2^24 by the fold
    assert spmv_cpu._exact_counts(np.float32, 2**24)
    assert not spmv_cpu._exact_counts(np.float32, 2**24 + 1)
    assert spmv_cpu._exact_counts(np.int32, 2**40)  # integers wrap alike
    assert not spmv_cpu._exact_counts(np.bool_, 1)


def test_scipy_views_are_made_once_per_matrix(monkeypatch):
    # (SciPy's path: without Numba, whose row loop runs plus_times first)
    monkeypatch.setattr(importlib.import_module("semiring.backend.cpu.compiled"), "ENABLED",
                        False)
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.5, 2.5], nrows=2, ncols=2, device="cpu")
    x = sr.Vector.from_dense(np.array([1.0, 1.0]), device="cpu")
    sr.mxv(A, x, sr.plus_times)
    S = A._memo[("cpu.scipy", "values", np.dtype(np.float64))]
    sr.mxv(A, x, sr.plus_times)
    assert A._memo[("cpu.scipy", "values", np.dtype(np.float64))] is S
    assert np.shares_memory(S.data, A.values_for(np.float64)[0])  # shared, not copied
    B = trav_cpu._structure(A)
    assert trav_cpu._structure(A) is B and B.indices.dtype == np.int32
    assert B.data.dtype == np.float64


# ------------------------------------------------------------------- BFS levels from SciPy


def _doubling_depths(order, pred, n):
    """The pointer doubling _depths replaced (each vertex's hops to the root)."""
    level = np.full(n, -1, dtype=np.int64)
    m = order.size
    pos = np.empty(n, dtype=np.int64)
    pos[order] = np.arange(m)
    up = np.zeros(m, dtype=np.int64)
    up[1:] = pos[pred[order[1:]]]
    hops = np.ones(m, dtype=np.int64)
    hops[0] = 0
    while up[-1]:
        hops += hops[up]
        up = up[up]
    level[order] = hops
    return level


@st.composite
def search_graphs(draw):
    n = draw(st.integers(1, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    kind = draw(st.sampled_from(["random", "path", "tree", "grid"]))
    if kind == "random":
        m = draw(st.integers(0, 4 * n))
        r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    elif kind == "path":  # deep: one level a vertex
        r, c = np.arange(n - 1), np.arange(1, n)
    elif kind == "tree":  # a random tree: parents before children
        c = np.arange(1, n)
        r = (rng.random(n - 1) * c).astype(np.int64)
    else:
        w = max(1, int(np.sqrt(n)))
        v = np.arange(n)
        right, down = v[(v % w != w - 1) & (v + 1 < n)], v[v + w < n]
        r, c = np.r_[right, down], np.r_[right + 1, down + w]
    if draw(st.booleans()):
        r, c = np.r_[r, c], np.r_[c, r]
    S = sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, n))
    return S, int(draw(st.integers(0, n - 1)))


@given(g=search_graphs(), loop=st.sampled_from(["default", "none", "short"]),
       scratch=st.booleans(), scan=st.sampled_from([8, 1]))
def test_depths_equal_the_doubling(g, loop, scratch, scan):
    # the level loop, the doubling beyond it, or the doubling alone: the same levels, in
    # kept scratch arrays (reused across these examples' sizes) or new ones, a level's
    # childless first vertices skipped by steps or by the search
    S, source = g
    n = S.shape[0]
    order, pred = breadth_first_order(S, source, directed=True, return_predecessors=True)
    levels = {"default": (trav_cpu.DEPTH_LOOP_LEVELS, trav_cpu.DEPTH_LOOP_PER_VERTEX),
              "none": (0, 2**40), "short": (2, 2**40)}[loop]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(trav_cpu, "DEPTH_LOOP_LEVELS", levels[0])
        mp.setattr(trav_cpu, "DEPTH_LOOP_PER_VERTEX", levels[1])
        mp.setattr(trav_cpu, "SCRATCH_MAX", trav_cpu.SCRATCH_MAX if scratch else 0)
        mp.setattr(trav_cpu, "DEPTH_SCAN", scan)
        compiled = trav_cpu._depths(order, pred, n)  # Numba's loop where installed
        mp.setattr(trav_cpu.compiled, "ENABLED", False)  # the NumPy loop and doubling
        got = trav_cpu._depths(order, pred, n)
    ref = _doubling_depths(order.astype(np.int64), pred.astype(np.int64), n)
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(compiled, ref)


@given(g=search_graphs(), iso=st.booleans(), int64=st.booleans())
def test_bfs_csgraph_levels_equal_the_level_loop(g, iso, int64):
    S, source = g
    A = sr.Matrix.from_scipy(S, device="cpu")
    if iso:
        A = sr.Matrix(A.indptr, A.indices, None, A.shape, iso_value=True, dtype=np.bool_)
    if int64:
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values,
                      A.shape, iso_value=A.iso_value, dtype=A.dtype)
    bfs_module = importlib.import_module("algorithms.bfs")
    level, parent = sr.traversal.bfs_csgraph(A, source, parents=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bfs_module, "VARIANT", "levels")
        ref = bfs_module.bfs(A, source)
    np.testing.assert_array_equal(level, to_host(ref))
    again, _ = sr.traversal.bfs_csgraph(A, source)  # the cached view: the same answer
    np.testing.assert_array_equal(again, level)
    reached = np.flatnonzero(level > 0)
    np.testing.assert_array_equal(level[parent[reached]], level[reached] - 1)


# ------------------------------------------------------------- push: scatter / sort / stable


@given(nrows=st.integers(0, 12), ncols=st.integers(0, 30), seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(["min_plus", "max_plus", "plus_times", "lor_land", "any_pair",
                                 "min_secondi", "any_secondi", "plus_pair", "min_first"]),
       dtype=st.sampled_from(DTYPES), iso=st.booleans(), int64=st.booleans(),
       special=st.booleans(), fraction=st.sampled_from([0, 16, 2**40]))
def test_push_reductions_equal_the_oracle(device, nrows, ncols, seed, semiring, dtype, iso,
                                          int64, special, fraction):
    # fraction 2^40: always the scatter where the monoid allows it; 0: never (a sort)
    rng = np.random.default_rng(seed)
    present = rng.random((nrows, ncols)) < rng.random((nrows, 1))
    vals = _values(rng, dtype, (nrows, ncols), special)
    A = make_matrix(vals, present, device, iso=iso, int64=int64)
    xd = _values(rng, dtype, nrows, special)
    xp_ = rng.random(nrows) < 0.6
    idx = np.flatnonzero(xp_)
    x = sr.Vector.from_coo(idx, xd[idx], size=nrows, dtype=xd.dtype, device=device)
    S = getattr(sr, semiring)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spmv_cpu, "PUSH_SCATTER_FRACTION", fraction)
        got = sr.vxm(x, A, S, direction="push")
    Ad = np.ones(present.shape, dtype=A.dtype) if iso else vals
    ev, ep, cands = dense_product(Ad, present, xd, xp_, S, vxm=True)
    gi, gv = (to_host(a) for a in got.sparse()[:2])
    np.testing.assert_array_equal(gi, np.flatnonzero(ep))
    assert got.dtype == ev.dtype or not gi.size
    if semiring.startswith("any"):  # any one of the candidates
        for i, v in zip(gi, gv):
            assert any(v == c or (np.isnan(v) and np.isnan(c)) for c in cands[i])
    else:
        np.testing.assert_array_equal(gv, ev[ep])


def test_scatter_start_is_neutral_or_declined():
    assert np.isnan(spmv_cpu._scatter_start(sr.min_plus, np.float32))  # fmin(NaN, v) = v
    assert spmv_cpu._scatter_start(sr.min_plus, np.int32) == np.iinfo(np.int32).max
    assert spmv_cpu._scatter_start(sr.plus_times, np.float64) is None  # float sums: order
    assert spmv_cpu._scatter_start(sr.plus_times, np.int64) == 0
    assert spmv_cpu._scatter_start(sr.lor_land, np.bool_) == np.False_
