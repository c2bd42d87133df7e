"""The fixed cost of a small call (issue 21, item 3): what ``mxv`` / ``vxm`` now keep between
calls, against the general paths. The CPU backend's compiled pull and push keep their choice
per matrix and semiring (``spmv.ROUTE_KEY``: a grid's padded block, the row loop) and their
scratch slices; a matrix's derived facts live in its ``_memo``, which ``_assign`` (an
``out=`` Matrix) drops. Each product is called again and again with new vectors (the cached
route from the third call on) and checked against the NumPy path (Numba off, a fresh
matrix): empty matrices and frontiers, isolated vertices, explicit zeros, ±inf and NaN,
int32's limits, iso values, int64 indices."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import algorithms
import semiring as sr
from conftest import to_host
from strategies import make_matrix

compiled = importlib.import_module("semiring.backend.cpu.compiled")
spmv_cpu = importlib.import_module("semiring.backend.cpu.spmv")

SEMIRINGS = ["min_plus", "max_plus", "plus_times", "min_times", "max_min", "lor_land",
             "any_pair", "plus_first"]
DTYPES = [np.int32, np.int64, np.float32, np.float64, np.bool_]
I32 = np.iinfo(np.int32)


def _values(rng, dtype, shape, awkward):
    """Small integers; ``awkward``: explicit zeros, and per type its edge values (±inf, NaN,
    -0.0 for floats; int32's least and greatest, whose sums wrap, as NumPy's do)."""
    vals = rng.integers(-4, 5, shape).astype(dtype)
    if awkward and vals.size:
        dt = np.dtype(dtype)
        edge = ([np.inf, -np.inf, np.nan, -0.0, 0.0] if dt.kind == "f" else
                [I32.max, I32.min, 0, I32.max - 1, 0] if dt.kind in "iu" else [False, True])
        vals.flat[rng.integers(0, vals.size, len(edge))] = np.asarray(edge).astype(dtype)
    return vals


def _same(got, ref, S):
    gi, gv = (to_host(a) for a in got.sparse()[:2])
    ri, rv = (to_host(a) for a in ref.sparse()[:2])
    assert got.dtype == ref.dtype and got.size == ref.size
    np.testing.assert_array_equal(gi, ri)
    if rv.dtype.kind == "f" and S.add.op.numpy in (np.add, np.multiply):
        np.testing.assert_allclose(gv, rv, rtol=1e-5 if rv.dtype == np.float32 else 1e-12)
    else:  # (a min / max fold meeting -0.0 and +0.0 may keep either: IEEE leaves it open)
        np.testing.assert_array_equal(gv, rv)


def _numpy_reference(fn):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled, "ENABLED", False)
        return fn()


@settings(max_examples=60, deadline=None)
@given(nrows=st.integers(0, 30), ncols=st.integers(0, 30), seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(SEMIRINGS), dtype=st.sampled_from(DTYPES),
       xtype=st.sampled_from([None, np.float64, np.int32]), grid=st.booleans(),
       iso=st.booleans(), int64=st.booleans(), awkward=st.booleans())
def test_repeated_pulls_equal_the_numpy_path(device, nrows, ncols, seed, semiring, dtype, xtype,
                                             grid, iso, int64, awkward):
    """mxv with a dense x, five times with new x on the same matrix (the route is settled on
    the second call, a grid's padded block from then on), each against the NumPy path."""
    rng = np.random.default_rng(seed)
    if grid:  # rows of at most 4 entries (the padded block), some rows empty
        present = np.zeros((nrows, ncols), dtype=bool)
        for i in range(nrows):
            if ncols and rng.random() < 0.8:
                present[i, rng.choice(ncols, min(ncols, rng.integers(1, 5)), replace=False)] = True
    else:
        present = rng.random((nrows, ncols)) < rng.random((nrows, 1))
    vals = _values(rng, dtype, (nrows, ncols), awkward)
    A = make_matrix(vals, present, device, iso=iso, int64=int64)
    Ah = make_matrix(vals, present, "cpu", iso=iso, int64=int64)
    S = getattr(sr, semiring)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spmv_cpu, "PLAN_MIN_ENTRIES_PER_GROUP", 0)  # the plan on tiny matrices
        kept = []
        for _ in range(5):
            xd = _values(rng, xtype or dtype, ncols, awkward)
            got = sr.mxv(A, sr.Vector.from_dense(xd, device=device), S)
            ref = _numpy_reference(lambda: sr.mxv(Ah, sr.Vector.from_dense(xd, device="cpu"), S))
            _same(got, ref, S)
            kept.append((got, ref))
    for got, ref in kept:  # a later call (the GPU's launch plan) left earlier results alone
        _same(got, ref, S)
    if device == "gpu" and A.nrows and A.ncols:  # the calls after the first ran from a plan
        plans = importlib.import_module("semiring.backend.gpu.spmv").PLAN_KEY
        assert any(isinstance(k, tuple) and k[0] == plans for k in A._sched)
    if device == "cpu" and compiled.ENABLED and A.nvals and \
            compiled.ops_of(S, sr.types.promote(A.dtype, np.dtype(xtype or dtype))) is not None \
            and S not in spmv_cpu.SCIPY_PULL:  # the compiled route was kept on A
        assert any(isinstance(k, tuple) and k[0] == spmv_cpu.ROUTE_KEY for k in A._memo)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 40), seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(SEMIRINGS), dtype=st.sampled_from(DTYPES), iso=st.booleans(),
       int64=st.booleans(), awkward=st.booleans(), masked=st.booleans())
def test_repeated_pushes_equal_the_numpy_path(device, n, seed, semiring, dtype, iso, int64,
                                              awkward, masked):
    """vxm with sparse frontiers (empty, one vertex, many), several on the same matrix and
    between matrices of other sizes (the scratch slices kept by size), masked or not."""
    rng = np.random.default_rng(seed)
    present = rng.random((n, n)) < rng.random()
    vals = _values(rng, dtype, (n, n), awkward)
    A = make_matrix(vals, present, device, iso=iso, int64=int64)
    Ah = make_matrix(vals, present, "cpu", iso=iso, int64=int64)
    S = getattr(sr, semiring)
    other = make_matrix(np.ones((n + 7, n + 7)), np.eye(n + 7, dtype=bool), device)
    for size in (0, 1, n // 2, n):
        idx = np.sort(rng.choice(n, size, replace=False)) if n else np.zeros(0, np.int64)
        xv = _values(rng, dtype, idx.size, awkward)
        m = rng.random(n) < 0.5
        kw = {"mask": sr.Vector.from_dense(m, device=device)} if masked else {}
        got = sr.vxm(sr.Vector.from_coo(idx, xv, size=n, device=device), A, S, **kw)
        sr.vxm(sr.Vector.from_coo([0], [1.0], size=n + 7, device=device), other, S)
        hkw = {"mask": sr.Vector.from_dense(m, device="cpu")} if masked else {}
        ref = _numpy_reference(lambda: sr.vxm(sr.Vector.from_coo(idx, xv, size=n, device="cpu"),
                                              Ah, S, **hkw))
        _same(got, ref, S)
    if device == "cpu" and compiled.ENABLED:
        marks = getattr(compiled._scratch_local, "bufs", {}).get("mark")
        assert marks is None or not marks.any()  # every mark clear between calls


def test_scratch_slices_follow_a_regrown_buffer():
    """A push on few targets, then on more than the scratch holds (the buffers regrow, the
    kept slices are dropped), then on few again: each against the NumPy path."""
    rng = np.random.default_rng(3)
    for n in (10, 5000, 10, 7000, 10):
        rows, cols = np.nonzero(rng.random((n, 20)) < 0.3)
        cols = (cols * (n // 20 or 1)) % n
        A = sr.Matrix.from_coo(rows, cols, rng.integers(1, 9, rows.size).astype(np.float64),
                               nrows=n, ncols=n, dup_op=sr.binary.min, device="cpu")
        x = sr.Vector.from_coo(np.arange(min(n, 5)), np.zeros(min(n, 5)), size=n, device="cpu")
        got = sr.vxm(x, A, sr.min_plus)
        _same(got, _numpy_reference(lambda: sr.vxm(x, A, sr.min_plus)), sr.min_plus)
        if compiled.ENABLED:
            acc, mark, hits = compiled._scratch(n, np.dtype(np.float64))
            assert acc.size == mark.size == hits.size == n and not mark.any()


def test_out_drops_a_matrix_cached_facts(device):
    """A matrix whose content an operation replaces (``out=``) loses what was kept of the
    old content: its pull route and plan, kernel layout, SciPy views and the shortest
    paths' weight facts (a weak-keyed table kept them: the next product read the old
    arrays)."""
    rng = np.random.default_rng(7)
    n = 60
    r, c = np.nonzero(rng.random((n, n)) < 0.05)
    C = sr.Matrix.from_coo(r, c, rng.integers(1, 9, r.size).astype(np.float64), nrows=n,
                           ncols=n, device=device)
    x = sr.Vector.from_dense(rng.integers(0, 9, n).astype(np.float64), device=device)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spmv_cpu, "PLAN_MIN_ENTRIES_PER_GROUP", 0)
        for _ in range(3):  # the plan and the route kept
            sr.mxv(C, x, sr.min_plus)
        sr.vxm(sr.Vector.from_coo([0, 1], [0.0, 0.0], size=n, device=device), C, sr.min_plus)
        algorithms.bfs(C, 0)
        algorithms.sssp(C, 0)
        r2, c2 = np.nonzero(rng.random((n, n)) < 0.3)
        B = sr.Matrix.from_coo(r2, c2, rng.integers(-3, 9, r2.size).astype(np.float64),
                               nrows=n, ncols=n, device=device)
        sr.mxm(B, sr.Matrix.from_coo(np.arange(n), np.arange(n), np.ones(n), nrows=n, ncols=n,
                                     device=device), sr.plus_times, out=C)  # C = B, in place
        assert C.nvals == B.nvals and not C._memo
        fresh = sr.Matrix.from_scipy(B.to_scipy() if device == "cpu" else
                                     B.to_cpu().to_scipy(), device="cpu")
        xh = sr.Vector.from_dense(to_host(x.bitmap()[0]), device="cpu")
        for _ in range(3):
            _same(sr.mxv(C, x, sr.min_plus), sr.mxv(fresh, xh, sr.min_plus), sr.min_plus)
        f = [0, 1]
        _same(sr.vxm(sr.Vector.from_coo(f, [0.0, 0.0], size=n, device=device), C, sr.min_plus),
              sr.vxm(sr.Vector.from_coo(f, [0.0, 0.0], size=n, device="cpu"), fresh,
                     sr.min_plus), sr.min_plus)
    np.testing.assert_array_equal(to_host(algorithms.bfs(C, 0)), to_host(algorithms.bfs(fresh, 0)))
    if bool((B.to_cpu().values < 0).any()):  # now a negative weight: no Dijkstra
        if device == "cpu":
            with pytest.raises(sr.InvalidValue, match="negative"):
                sr.traversal.dijkstra_csgraph(C, 0)
        try:
            got = algorithms.sssp(C, 0)
        except sr.NegativeCycleError:
            with pytest.raises(sr.NegativeCycleError):
                algorithms.sssp(fresh, 0)
        else:
            np.testing.assert_array_equal(to_host(got), to_host(algorithms.sssp(fresh, 0)))


def test_the_checks_still_come_first(device):
    """The cheaper checks of mxv / vxm name the argument, the expected and the actual value
    as before, and run before any kernel."""
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=2, ncols=3, device=device)
    u3 = sr.Vector.from_dense(np.ones(3), device=device)
    with pytest.raises(sr.DimensionMismatch, match=r"mxv: A.ncols \(=3\) must equal u.size \(=2\)"):
        sr.mxv(A, sr.Vector.from_dense(np.ones(2), device=device), sr.min_plus)
    with pytest.raises(sr.DomainMismatch, match="mxv: semiring must be a Semiring or the name"):
        sr.mxv(A, u3, "no_such_semiring")
    with pytest.raises(sr.DomainMismatch, match="mxv: complement=True needs a mask"):
        sr.mxv(A, u3, sr.min_plus, complement=True)
    with pytest.raises(sr.DomainMismatch, match="mxv: u must be a semiring.Vector or a 1-D"):
        sr.mxv(A, [1.0, 2.0, 3.0], sr.min_plus)
    with pytest.raises(sr.InvalidValue, match="vxm: direction must be one of"):
        sr.vxm(sr.Vector.from_dense(np.ones(2), device=device), A, sr.min_plus,
               direction="sideways")
    with pytest.raises(sr.DimensionMismatch, match=r"mxv: mask.size \(=5\) must equal"):
        sr.mxv(A, u3, sr.min_plus, mask=sr.Vector.from_dense(np.ones(5, bool), device=device))
    # a plain 1-D array and a structural flag without a mask are accepted, as before
    got = sr.mxv(A, np.ones(3) if device == "cpu" else u3.bitmap()[0], sr.min_plus,
                 structure=True)
    np.testing.assert_array_equal(to_host(got.to_dense(missing=np.inf)), [2.0, 3.0])
