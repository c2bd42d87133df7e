"""The CPU's fast paths against the reference paths they replace (issue 21, item 3): SciPy's
compiled BFS (``sr.traversal.bfs_csgraph``, the ``"csgraph"`` variant of ``algorithms.bfs``
and the CPU's ``multi_source_bfs``) against the NumPy level loop and LAGraph's algebra loop,
on random graphs with the awkward cases: empty graphs, isolated vertices, self-loops,
duplicates, explicit zeros, int32/int64 indices, iso values, long paths."""

from __future__ import annotations

import importlib
import time

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st

import algorithms
import semiring as sr
from conftest import to_host

bfs_module = importlib.import_module("algorithms.bfs")


@st.composite
def graphs(draw, max_n=40):
    """(scipy CSR with duplicates summed, COO parts, n): random directed or undirected
    graphs, some with a disconnected block, some a long path with extra edges."""
    n = draw(st.integers(1, max_n))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        m = draw(st.integers(0, 4 * n))
        rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    else:  # a path 0 → 1 → ... (high diameter) plus a few random edges
        k = draw(st.integers(0, 3))
        rows = np.r_[np.arange(n - 1), rng.integers(0, n, k)]
        cols = np.r_[np.arange(1, n), rng.integers(0, n, k)]
    if draw(st.booleans()):  # isolate a block: disconnected parts
        cut = draw(st.integers(0, n))
        keep = (rows < cut) == (cols < cut)
        rows, cols = rows[keep], cols[keep]
    if draw(st.booleans()):
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    vals = rng.integers(0, 3, rows.size).astype(np.float64)  # explicit zeros are edges
    return rows, cols, vals, n


def matrix(g, device, form):
    rows, cols, vals, n = g
    A = sr.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n, device=device, dup_op="plus")
    if form == "iso":
        A = sr.Matrix(A.indptr, A.indices, None, A.shape, iso_value=True, dtype=np.bool_)
    if form == "int64":
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values,
                      A.shape, iso_value=A.iso_value, dtype=A.dtype)
    return A


def run_variant(A, variant, source, **kw):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bfs_module, "VARIANT", variant)
        return algorithms.bfs(A, source, **kw)


def check_tree(A, level, parent, source, deterministic):
    """parent[v] is an in-neighbour of v one level up (the smallest with deterministic)."""
    S = sp.csr_matrix((np.ones(A.nvals), to_host(A.indices), to_host(A.indptr)),
                      shape=A.shape).tocsc()
    assert parent[source] == source
    np.testing.assert_array_equal(parent == -1, level == -1)
    for v in np.flatnonzero(level > 0):
        ins = S.indices[S.indptr[v]:S.indptr[v + 1]]
        on_prev = ins[level[ins] == level[v] - 1]
        assert parent[v] in on_prev
        if deterministic:
            assert parent[v] == on_prev.min()


@given(g=graphs(), form=st.sampled_from(["values", "iso", "int64"]), parents=st.booleans(),
       deterministic=st.booleans(), data=st.data())
def test_csgraph_bfs_equals_the_level_loop(device, g, form, parents, deterministic, data):
    A = matrix(g, device, form)
    n = A.nrows
    source = data.draw(st.integers(0, n - 1))
    ref = run_variant(A, "levels", source, parents=True, deterministic=True)
    alg = run_variant(A, "algebra", source, parents=True, deterministic=True)
    np.testing.assert_array_equal(to_host(ref[0]), to_host(alg[0]))
    np.testing.assert_array_equal(to_host(ref[1]), to_host(alg[1]))
    out = algorithms.bfs(A, source, parents=parents, deterministic=deterministic)
    level = to_host(out[0] if parents else out)
    np.testing.assert_array_equal(level, to_host(ref[0]))
    if parents:
        parent = to_host(out[1])
        check_tree(A, level, parent, source, deterministic)
        if deterministic:
            np.testing.assert_array_equal(parent, to_host(ref[1]))
    if device == "cpu":
        assert bfs_module._variant(A) == "csgraph"
        lv, pa = sr.traversal.bfs_csgraph(A, source, parents=parents,
                                          deterministic=deterministic)
        np.testing.assert_array_equal(lv, to_host(ref[0]))
        assert (pa is None) != parents
    else:
        with pytest.raises(sr.DeviceMismatch, match="bfs_csgraph"):
            sr.traversal.bfs_csgraph(A, source)


@given(g=graphs(max_n=25), parents=st.booleans(), deterministic=st.booleans(), data=st.data())
def test_multi_source_bfs_rows_equal_single_searches(device, g, parents, deterministic, data):
    A = matrix(g, device, "values")
    n = A.nrows
    src = data.draw(st.lists(st.integers(0, n - 1), max_size=6))  # duplicates, or none
    out = algorithms.multi_source_bfs(A, src, parents=parents, deterministic=deterministic)
    level = to_host(out[0] if parents else out)
    assert level.shape == (len(src), n) and level.dtype == np.int64
    for r, s in enumerate(src):
        ref_level, ref_parent = run_variant(A, "levels", s, parents=True, deterministic=True)
        np.testing.assert_array_equal(level[r], to_host(ref_level))
        if parents:
            check_tree(A, level[r], to_host(out[1])[r], s, deterministic)
            if deterministic:
                np.testing.assert_array_equal(to_host(out[1])[r], to_host(ref_parent))
    # the NumPy SpMM loop (the reference the fast path replaced) agrees too
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bfs_module, "CPU_CSGRAPH", False)
        old = algorithms.multi_source_bfs(A, src)
    np.testing.assert_array_equal(to_host(old), level)


def test_edgeless_and_self_loops(device):
    A = sr.Matrix.from_coo([2, 2], [2, 2], [0.0, 0.0], nrows=5, ncols=5, device=device,
                           dup_op="plus")
    level, parent = algorithms.bfs(A, 2, parents=True)
    assert to_host(level).tolist() == [-1, -1, 0, -1, -1]
    assert to_host(parent).tolist() == [-1, -1, 2, -1, -1]
    assert to_host(algorithms.multi_source_bfs(A, [])).shape == (0, 5)


def test_a_long_path_takes_milliseconds_not_seconds(device):
    # issue 15: O(n + m) on every backend; the CPU's NumPy loop paid a dispatch per level
    n = 100_000
    S = sp.diags([1.0] * (n - 1), 1, shape=(n, n), format="csr")
    A = sr.Matrix.from_scipy(S, device=device)
    algorithms.bfs(A, 0)  # warm (kernel compiles on a GPU)
    t = time.perf_counter()
    level = to_host(algorithms.bfs(A, 0))
    took = time.perf_counter() - t
    np.testing.assert_array_equal(level, np.arange(n))
    if device == "cpu":
        assert took < 1.0, took  # tens of ms here; the level loop took seconds


def test_bfs_csgraph_validates():
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=3, ncols=3, device="cpu")
    with pytest.raises(sr.InvalidIndex, match="bfs_csgraph: source must lie in"):
        sr.traversal.bfs_csgraph(A, 3)
    with pytest.raises(sr.DomainMismatch, match="bfs_csgraph"):
        sr.traversal.bfs_csgraph(A, 1.5)
    with pytest.raises(sr.DimensionMismatch, match="bfs_csgraph"):
        sr.traversal.bfs_csgraph(sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device="cpu"), 0)
    level, parent = sr.traversal.bfs_csgraph(A, [0, 2])
    assert level.tolist() == [[0, 1, -1], [-1, -1, 0]] and parent is None


# ------------------------------------------------------------------------ SSSP by Dijkstra

sssp_module = importlib.import_module("algorithms.sssp")


@st.composite
def weighted(draw, max_n=30):
    rows, cols, _, n = draw(graphs(max_n=max_n))
    dtype = draw(st.sampled_from(["float32", "float32-frac", "float32-big", "float64",
                                  "int32", "int64", "bool", "iso"]))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    w = rng.integers(0, 6, rows.size).astype(np.float64)  # zeros: zero-weight edges
    if dtype == "float32-frac":
        w = w / 3  # not integers: float32 sums round, Dijkstra's float64 ones differ
    elif dtype == "float32-big":
        # integers whose float32 path sums pass 2^24 and round (2^24 + 1 + 1 is 2^24)
        w = rng.choice([1.0, 3.0, 2.0**23 + 1, 2.0**24], rows.size)
    if draw(st.booleans()) and w.size:
        w[rng.integers(0, w.size)] = np.inf if dtype.startswith("float") else w[0]
    if dtype == "iso":
        A = sr.Matrix.from_coo(rows, cols, 1.0, nrows=n, ncols=n, dup_op="min", device="cpu")
        A = sr.Matrix(A.indptr, A.indices, None, A.shape, iso_value=np.float32(3),
                      dtype=np.float32)
    else:
        dt = {"bool": np.bool_}.get(dtype, np.dtype(dtype.split("-")[0]))
        A = sr.Matrix.from_coo(rows, cols, w.astype(dt), nrows=n, ncols=n, dup_op="min",
                               device="cpu")
    return A


@given(A=weighted(), method=st.sampled_from(["bellman_ford", "delta_stepping"]),
       predecessors=st.booleans(), limit=st.sampled_from([None, 0, 4.5, 7]), data=st.data())
def test_cpu_dijkstra_equals_the_relaxation_rounds(device, A, method, predecessors, limit,
                                                    data):
    A = A.to_gpu() if device == "gpu" else A
    source = data.draw(st.integers(0, A.nrows - 1))
    kw = {"limit": limit} if method == "delta_stepping" else {}
    run = getattr(algorithms, method)
    out = run(A, source, predecessors=predecessors, **kw)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sssp_module, "CPU_CSGRAPH", False)
        ref = run(A, source, predecessors=True, **kw)
    dist = to_host(out[0] if predecessors else out)
    assert dist.dtype == to_host(ref[0]).dtype
    np.testing.assert_array_equal(dist, to_host(ref[0]))
    if predecessors:  # a shortest-path tree: each pred's distance plus its edge's weight
        pred = to_host(out[1])
        np.testing.assert_array_equal(pred == -1, (to_host(ref[1]) == -1))
        D = sr.Matrix.to_dense(A.to_cpu() if device == "gpu" else A, missing=-1)
        for v in np.flatnonzero(pred >= 0):
            assert D[pred[v], v] != -1 or D.dtype == np.bool_
            step = dist[pred[v]] + np.asarray(D[pred[v], v], dist.dtype)
            # (float sums round at every step: past 2^24 a float32 tree edge's sum may land
            # one ulp from the distance, found along the same path in float64)
            assert step == dist[v] or (dist.dtype.kind == "f" and np.isfinite(dist[v]) and abs(
                float(step) - float(dist[v])) <= float(np.spacing(abs(dist[v]))))


def test_cpu_dijkstra_is_taken_where_exact():
    A = sr.Matrix.from_coo([0, 1], [1, 2], np.array([1.0, 2.0], np.float32), nrows=3, ncols=3,
                           device="cpu")
    facts = sssp_module._matrix_facts(A)
    assert sssp_module._cpu_dijkstra(A, 0, facts, np.dtype(np.float32), "auto") is not None
    assert sssp_module._cpu_dijkstra(A, 0, facts, np.dtype(np.float32), "push") is None
    F = sr.Matrix.from_coo([0, 1], [1, 2], np.array([0.1, 0.2], np.float32), nrows=3, ncols=3,
                           device="cpu")
    assert sssp_module._cpu_dijkstra(F, 0, sssp_module._matrix_facts(F),
                                     np.dtype(np.float32), "auto") is None
    with pytest.raises(sr.InvalidValue, match="dijkstra_csgraph: A's weights must be"):
        sr.traversal.dijkstra_csgraph(sr.Matrix.from_coo([0], [1], [-1.0], nrows=2, ncols=2,
                                                                 device="cpu"), 0)


def test_cpu_dijkstra_declines_where_float32_sums_round(device):
    # float32: 2^24 + 1 + 1 sums to 2^24 in the relaxation, 2^24 + 2 in float64
    w = np.array([2.0**24, 1, 1], np.float32)
    A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 3], w, nrows=4, ncols=4, device=device)
    for method in (algorithms.bellman_ford, algorithms.delta_stepping):
        assert to_host(method(A, 0)).tolist() == [0, 2.0**24, 2.0**24, 2.0**24]


# --------------------------------------------------------------- ewise_add: the keys' union

@given(n=st.integers(0, 60), pa=st.floats(0, 1), pb=st.floats(0, 1),
       op=st.sampled_from(["plus", "min", "first", "second"]),
       accum=st.sampled_from([None, "plus"]), seed=st.integers(0, 2**31 - 1))
def test_ewise_add_union_against_dense(device, n, pa, pb, op, accum, seed):
    # the union of two sorted key lists (a merge on the CPU, np.unique before) with the
    # output's keys too (accum=): against a dense oracle, empty operands included
    rng = np.random.default_rng(seed)
    ha, hb, hw = rng.random((3, n, 4)) < np.array([pa, pb, 0.3])[:, None, None]
    va, vb, vw = rng.integers(-5, 6, (3, n, 4)).astype(np.float64)
    mk = lambda h, v: sr.Matrix.from_coo(*np.nonzero(h), v[h], nrows=n, ncols=4,  # noqa: E731
                                         device=device)
    A, B, W = mk(ha, va), mk(hb, vb), mk(hw, vw)
    f = {"plus": np.add, "min": np.minimum, "first": lambda x, y: x, "second": lambda x, y: y}[op]
    t = np.where(ha & hb, f(va, vb), np.where(ha, va, vb))
    th = ha | hb
    if accum is None:
        C = sr.ewise_add(A, B, op)
        exp, eh = t, th
    else:
        C = sr.ewise_add(A, B, op, out=W, accum=accum)
        exp, eh = np.where(th & hw, vw + t, np.where(th, t, vw)), th | hw
    got = to_host(C.to_dense(missing=np.nan))
    np.testing.assert_array_equal(~np.isnan(got), eh)
    np.testing.assert_array_equal(got[eh], exp[eh])


def test_ewise_add_of_a_million_keys_is_not_seconds():
    # NumPy 2.4's np.unique (its hash path) took 2-3 s on 2·10^6 keys here
    n = 2000
    mk = lambda s: sr.Matrix.from_coo(*np.unravel_index(  # noqa: E731
        np.sort(np.random.default_rng(s).choice(n * n, 10**6, replace=False)), (n, n)),
        1.0, nrows=n, ncols=n)
    A, B = mk(1), mk(2)
    t = time.perf_counter()
    C = sr.ewise_add(A, B)
    took = time.perf_counter() - t
    assert C.nvals == np.union1d(*(np.ravel_multi_index((to_host(M.to_coo()[0]),
                                                         to_host(M.to_coo()[1])), (n, n))
                                   for M in (A, B))).size
    assert took < 1.5, took


# ------------------------------------------------------- SpMV: short rows as dense blocks

spmv_cpu = importlib.import_module("semiring.backend.cpu.spmv")


@given(nrows=st.integers(0, 30), ncols=st.integers(0, 12), seed=st.integers(0, 2**31 - 1),
       semiring=st.sampled_from(["min_plus", "max_plus", "min_plus_sat", "plus_times",
                                 "lor_land", "max_times", "any_pair", "min_secondi"]),
       dtype=st.sampled_from([np.float32, np.float64, np.int32, np.int64, np.bool_]),
       iso=st.booleans(), int64=st.booleans(), special=st.booleans(), x_sparse=st.booleans(),
       pad=st.sampled_from([(4096, 64), (0, 64), (3, 4), (0, 2)]))
def test_spmv_row_blocks_equal_the_segment_fold(device, nrows, ncols, seed, semiring, dtype,
                                                iso, int64, special, x_sparse, pad):
    from strategies import make_matrix  # noqa: PLC0415  (the tests' helper module)
    rng = np.random.default_rng(seed)
    # rows of every length 0..ncols: short ones (blocks) and long ones (reduceat) together
    present = rng.random((nrows, ncols)) < rng.random((nrows, 1))
    vals = rng.integers(-4, 5, (nrows, ncols)).astype(dtype)
    if special and np.dtype(dtype).kind == "f" and vals.size:
        vals.flat[rng.integers(0, vals.size, 3)] = [np.nan, np.inf, -0.0]
    A = make_matrix(vals, present, device, iso=iso, int64=int64)
    xd = rng.integers(-4, 5, ncols).astype(dtype)
    x = sr.Vector.from_dense(xd, device=device) if not x_sparse else sr.Vector.from_coo(
        np.flatnonzero(xd > 0), xd[xd > 0], size=ncols, dtype=dtype, device=device)
    S = getattr(sr, semiring)
    with pytest.MonkeyPatch.context() as mp:
        # the NumPy row plan (the compiled pull, where Numba is installed, would run first:
        # tests/test_cpu_numba.py checks it against this path)
        mp.setattr(spmv_cpu.compiled, "ENABLED", False)
        mp.setattr(spmv_cpu, "PLAN_MIN_ENTRIES_PER_GROUP", 0)  # the plan even when tiny
        # the padded plan (min / max monoids over plus / times in floats): one block (the
        # default on rows this short), a block a length, or blocks and rows beyond them
        mp.setattr(spmv_cpu, "PAD_BLOCK_COST", pad[0])
        mp.setattr(spmv_cpu, "PAD_ROW", pad[1])
        first = sr.mxv(A, x, S)  # the fold (a matrix's first product), then the plan
        got = sr.mxv(A, x, S)
    if (device == "cpu" and A.nvals and not x_sparse and not iso and semiring != "min_secondi"
            and spmv_cpu._order_free(S, S.result_type(A.dtype))
            and spmv_cpu.scipy_pull(A, to_host(x.bitmap()[0]), None, S, A.dtype, False) is None):
        plans = A._memo.get(spmv_cpu.PLAN_KEY)  # the plan did run (padded where it applies)
        padded = spmv_cpu._paddable(A, S, A.dtype)
        assert isinstance(plans, dict) and isinstance(plans.get(padded), spmv_cpu._RowPlan)
        assert plans[padded].padded == padded
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spmv_cpu.compiled, "ENABLED", False)
        mp.setattr(spmv_cpu, "_order_free", lambda *a: False)
        mp.setattr(spmv_cpu, "SCIPY_PULL", {})  # SciPy's kernels: tests/test_cpu_scipy.py
        ref = sr.mxv(A, x, S)
    assert got.dtype == ref.dtype
    gi, gv = (to_host(a) for a in got.sparse()[:2])
    ri, rv = (to_host(a) for a in ref.sparse()[:2])
    np.testing.assert_array_equal(gi, ri)
    np.testing.assert_array_equal(to_host(first.sparse()[0]), ri)
    if semiring == "any_pair":
        return
    np.testing.assert_array_equal(gv, rv)
    np.testing.assert_array_equal(to_host(first.sparse()[1]), rv)
