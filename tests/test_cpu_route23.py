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
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import semiring as sr

compiled = importlib.import_module("semiring.backend.cpu.compiled")
spmv_cpu = importlib.import_module("semiring.backend.cpu.spmv")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="Numba not installed (the "
                                "`cpu` extra) or SEMIRING_NUMBA=0")


def _specializations() -> int:
    """Every specialization (compiled or loaded overload) of every Numba dispatcher alive.
    (Dispatchers found by ``type``: ``isinstance`` on a dead weak proxy among the collector's
    objects raises ReferenceError, which CI hit.)"""
    from numba.core.dispatcher import Dispatcher  # noqa: PLC0415  (numba: optional)

    return sum(len(o.overloads) for o in gc.get_objects() if issubclass(type(o), Dispatcher))


def _grid(side: int, dtype=np.float64):
    v = np.arange(side * side).reshape(side, side)
    rows = np.r_[v[:, :-1].ravel(), v[:, 1:].ravel(), v[:-1].ravel(), v[1:].ravel()]
    cols = np.r_[v[:, 1:].ravel(), v[:, :-1].ravel(), v[1:].ravel(), v[:-1].ravel()]
    w = np.random.default_rng(5).integers(1, 9, rows.size).astype(dtype)
    return sr.Matrix.from_coo(rows, cols, w, nrows=side * side, ncols=side * side,
                              device="cpu")


def _later_calls_load_nothing(call):
    """Run ``call`` once, then twice more; the count of specializations the 2nd and 3rd
    calls added, the first result, the later ones."""
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


CHILD = r"""
import gc, json, sys
import numpy as np
import algorithms, semiring as sr
from numba.core.dispatcher import Dispatcher
from semiring.backend.cpu import compiled

kind, threads = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(2)
n, d = (3000, 8) if kind != "msbfs" else (500, 4)
A = sr.Matrix.from_coo(rng.integers(0, n, n * d), rng.integers(0, n, n * d),
                       rng.uniform(1, 10, n * d), nrows=n, ncols=n, device="cpu", dup_op="min")
x = sr.Vector.from_dense(rng.uniform(0, 5, n), device="cpu")
answers = iter(threads)
compiled._threads = lambda: next(answers)
def call():
    if kind == "msbfs":
        return algorithms.multi_source_bfs(A, np.arange(8))
    return sr.mxv(A, x, getattr(sr, kind)).to_dense(missing=np.inf)
def specializations():
    return sum(len(o.overloads) for o in gc.get_objects() if issubclass(type(o), Dispatcher))
out = []
for _ in threads:
    before = specializations()
    r = call()
    out.append([specializations() - before, r.tolist()])
print(json.dumps({"nvals": A.nvals, "calls": out}))
"""


def _child(kind, threads, cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=ROOT, SEMIRING_NUMBA="1")
    p = subprocess.run([sys.executable, "-c", CHILD, kind, json.dumps(threads)], env=env,
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not compiled.ENABLED or compiled._numba().config.NUMBA_NUM_THREADS < 2,
                    reason="one Numba thread: the searches never run threaded")
@pytest.mark.parametrize("kind", ["min_plus", "plus_times", "msbfs"])
def test_a_threaded_route_loads_both_variants_at_once(kind, tmp_path):
    """A pull of at least PARALLEL_MIN_ENTRIES entries, or a multi-source BFS, whose thread
    count changes between calls (the host's load) loads no variant on the later calls of a
    fresh process whose Numba cache holds both (a process that ran both filled it), and
    every call gives the first one's answer."""
    _child(kind, [1, 2], tmp_path)  # (the serial and the threaded variant into the cache)
    for threads in ([1, 2, 1], [2, 1, 2]):
        got = _child(kind, threads, tmp_path)
        if kind != "msbfs":
            assert got["nvals"] >= compiled.PARALLEL_MIN_ENTRIES
        assert [c[0] for c in got["calls"][1:]] == [0, 0]
        assert all(c[1] == got["calls"][0][1] for c in got["calls"])


@pytest.mark.skipif(not compiled.ENABLED or compiled._numba().config.NUMBA_NUM_THREADS < 2,
                    reason="one Numba thread: the searches never run threaded")
@pytest.mark.parametrize("threads", [[1, 2, 2], [2, 1, 1]])
@pytest.mark.parametrize("kind", ["min_plus", "msbfs"])
def test_a_route_on_a_cold_cache_compiles_nothing_later(kind, threads, tmp_path):
    """On an empty Numba cache a route whose first call ran serially does not compile the
    threaded variant when the host's load later allows threads (a 1.9 s stall on that
    call): it stays serial; one whose first call ran threaded has the serial variant
    compiled beside it, for the back-off after a slow threaded call (which came on the 3rd
    call of urand-12 and n = 10⁴ products on the busy 2-core host: 0.8-1.8 s). The same
    answers throughout."""
    got = _child(kind, threads, tmp_path)
    assert [c[0] for c in got["calls"][1:]] == [0, 0]
    assert all(c[1] == got["calls"][0][1] for c in got["calls"])


FIRST_CALLS = r"""
import gc, json, sys
import numpy as np
import algorithms, semiring as sr
from numba.core.dispatcher import Dispatcher

rng = np.random.default_rng(4)
n, m = 300, 1200
A = sr.Matrix.from_coo(rng.integers(0, n, m), rng.integers(0, n, m), rng.uniform(1, 10, m),
                       nrows=n, ncols=n, device="cpu", dup_op="min")
A = sr.ewise_add(A, A.T, sr.binary.min)  # (symmetric: the components' search, triangles)
x = sr.Vector.from_dense(rng.uniform(0, 5, n), device="cpu")
calls = {
    "mxv plus_times": lambda: sr.mxv(A, x, sr.plus_times),
    "bfs": lambda: algorithms.bfs(A, 0),
    "multi_source_bfs": lambda: algorithms.multi_source_bfs(A, np.arange(8)),
    "pagerank": lambda: algorithms.pagerank(A),
    "connected_components": lambda: algorithms.connected_components(A),
    "triangle_count": lambda: algorithms.triangle_count(A),
}
compiled = {}
for name, call in calls.items():
    call()
    compiled[name] = [d.py_func.__qualname__ for d in gc.get_objects()
                      if issubclass(type(d), Dispatcher) and sum(d._cache_misses.values())]
print(json.dumps(compiled))
"""


def test_the_cpu_warmup_fills_what_the_first_calls_load(tmp_path):
    """``python -m semiring.warmup --cpu`` (here for plus_times over float64, the semiring of
    the product, PageRank's and the degrees') leaves nothing for a fresh process's first
    calls to compile: every kernel they load is in Numba's cache (before session 23
    PageRank's power step, the weak components' search and the triangle count's dot3
    compiled on a first call after the warm-up)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=ROOT, SEMIRING_NUMBA="1")
    p = subprocess.run([sys.executable, "-m", "semiring.warmup", "--cpu", "--quiet",
                        "--semiring", "plus_times", "--dtype", "float64"], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0, p.stderr[-2000:]
    p = subprocess.run([sys.executable, "-c", FIRST_CALLS], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    compiled_by = json.loads(p.stdout.strip().splitlines()[-1])
    assert compiled_by == {name: [] for name in compiled_by}
