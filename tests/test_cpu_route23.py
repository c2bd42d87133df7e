"""The CPU backend's compiled route is decided on a call kind's first call and kept: the 2nd
and 3rd call of the same kind on the same matrix load or compile no Numba specialization
(issue 21, the speed a CPU user feels in a fresh process).

Before session 23 a grid's second min-plus product built its padded plan and loaded the
block's kernel beside the row loop's it had run first (5-28 ms on a warm Numba cache, a
compile on a cold one), and a large matrix's pull or multi-source BFS loaded the serial or
the threaded variant on the call where the thread count changed (the host's load, or the
back-off after a slow threaded call). These tests count every specialization of every Numba
dispatcher of the process (``Dispatcher.overloads``) around the later calls; no timing."""

from __future__ import annotations

import gc
import importlib

import numpy as np
import pytest

import algorithms
import semiring as sr

compiled = importlib.import_module("semiring.backend.cpu.compiled")
spmv_cpu = importlib.import_module("semiring.backend.cpu.spmv")

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="Numba not installed (the "
                                "`cpu` extra) or SEMIRING_NUMBA=0")


def _specializations() -> int:
    """Every specialization (compiled or loaded overload) of every Numba dispatcher alive."""
    from numba.core.dispatcher import Dispatcher  # noqa: PLC0415  (numba: optional)

    return sum(len(o.overloads) for o in gc.get_objects() if isinstance(o, Dispatcher))


def _grid(side: int, dtype=np.float64):
    v = np.arange(side * side).reshape(side, side)
    rows = np.r_[v[:, :-1].ravel(), v[:, 1:].ravel(), v[:-1].ravel(), v[1:].ravel()]
    cols = np.r_[v[:, 1:].ravel(), v[:, :-1].ravel(), v[1:].ravel(), v[:-1].ravel()]
    w = np.random.default_rng(5).integers(1, 9, rows.size).astype(dtype)
    return sr.Matrix.from_coo(rows, cols, w, nrows=side * side, ncols=side * side,
                              device="cpu")


def _random(n: int, degree: int, seed: int = 2):
    rng = np.random.default_rng(seed)
    m = n * degree
    return sr.Matrix.from_coo(rng.integers(0, n, m), rng.integers(0, n, m),
                              rng.uniform(1, 10, m), nrows=n, ncols=n, device="cpu", dup_op="min")


def _later_calls_load_nothing(call, threads=None):
    """Run ``call`` once, then twice more, ``threads`` (a list) giving :func:`_threads`'s
    answer on each call; the count of specializations the 2nd and 3rd calls added."""
    answers = iter(threads or [])
    with pytest.MonkeyPatch.context() as mp:
        if threads is not None:
            mp.setattr(compiled, "_threads", lambda: next(answers))
        first = call()
        before = _specializations()
        later = [call(), call()]
        return _specializations() - before, first, later


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_grid_product_keeps_its_first_route(dtype):
    """A grid's min-plus product runs its padded block from the first call: the second
    builds no plan and loads no kernel, and the results are the reference's."""
    A = _grid(50, dtype)  # (9800 entries: the plan pays, one block of width 4)
    x = sr.Vector.from_dense(np.arange(A.ncols, dtype=dtype), device="cpu")
    added, first, later = _later_calls_load_nothing(lambda: sr.mxv(A, x, sr.min_plus))
    assert added == 0
    plan = A._memo[spmv_cpu.PLAN_KEY][True]
    assert plan.whole and hasattr(plan, "_k_unsigned")  # the block fold ran
    S = A.to_scipy().tocoo()
    ref = np.full(A.nrows, np.inf, dtype=dtype)
    np.minimum.at(ref, S.row, S.data + x.to_dense()[S.col])
    for got in (first, *later):
        assert np.array_equal(got.to_dense(missing=np.inf), ref)


@pytest.mark.skipif(not compiled.ENABLED or compiled._numba().config.NUMBA_NUM_THREADS < 2,
                    reason="one Numba thread: the pull never runs threaded")
@pytest.mark.parametrize("threads", [[1, 2, 1], [2, 1, 2]])
@pytest.mark.parametrize("sname", ["min_plus", "plus_times"])
def test_a_large_pull_loads_both_variants_at_once(threads, sname):
    """A pull of at least PARALLEL_MIN_ENTRIES entries whose thread count changes between
    calls (the host's load) loads no variant on the later calls."""
    A = _random(3000, 8)
    assert A.nvals >= compiled.PARALLEL_MIN_ENTRIES
    semiring = getattr(sr, sname)
    x = sr.Vector.from_dense(np.random.default_rng(0).uniform(0, 5, A.ncols), device="cpu")
    added, first, later = _later_calls_load_nothing(lambda: sr.mxv(A, x, semiring), threads)
    assert added == 0
    for got in later:  # (serial and threaded: the same rows, the same values)
        assert np.array_equal(got.to_dense(missing=np.inf), first.to_dense(missing=np.inf))


@pytest.mark.skipif(not compiled.ENABLED or compiled._numba().config.NUMBA_NUM_THREADS < 2,
                    reason="one Numba thread: the searches never run threaded")
@pytest.mark.parametrize("threads", [[1, 2, 1], [2, 1, 2]])
def test_multi_source_bfs_loads_both_variants_at_once(threads):
    """A multi-source BFS whose thread count changes between calls loads no variant on the
    later calls, and every call gives the first one's levels."""
    A = _random(500, 4)
    sources = np.arange(8)
    added, first, later = _later_calls_load_nothing(
        lambda: algorithms.multi_source_bfs(A, sources), threads)
    assert added == 0
    for got in later:
        assert np.array_equal(got, first)
