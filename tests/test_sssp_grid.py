"""The device-side SSSP loop (semiring.traversal.sssp_grid, the near–far pile in one persistent
launch) against SciPy's Dijkstra, directly and through algorithms.delta_stepping /
bellman_ford (DEVICE_LOOP): grids, long paths, random graphs with zero weights, duplicates,
self-loops and unreachable parts, every distance type, int32 and int64 indices, any Δ, limits.
On the CPU the function is refused (GPU only) and the algorithms take their host paths."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms
import semiring as sr
from tests.conftest import to_host
from tests.test_sssp import check_tree

sssp_module = importlib.import_module("algorithms.sssp")  # algorithms.sssp is the function
TYPES = [np.int32, np.int64, np.float32, np.float64]


def _grid(r, c):
    idx = np.arange(r * c).reshape(r, c)
    a = np.r_[idx[:, :-1].ravel(), idx[:-1, :].ravel()]
    b = np.r_[idx[:, 1:].ravel(), idx[1:, :].ravel()]
    return r * c, np.r_[a, b], np.r_[b, a]


@st.composite
def road_graphs(draw, paths=(1, 2, 17, 10_000, 100_000)):
    """(scipy csr with duplicates summed, weights' dtype, source): a grid, a path (long), or a
    random graph (self-loops, parallel edges, two unconnected halves sometimes)."""
    kind = draw(st.sampled_from(["grid", "path", "random"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    if kind == "grid":
        n, rows, cols = _grid(draw(st.integers(1, 60)), draw(st.integers(1, 60)))
    elif kind == "path":
        n = draw(st.sampled_from(paths))
        rows = np.arange(n - 1)
        cols = rows + 1
        if draw(st.booleans()):  # both directions
            rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    else:
        n = draw(st.integers(1, 300))
        m = draw(st.integers(0, 4 * n))
        rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
        if draw(st.booleans()) and n > 2:  # unreachable parts
            cut = n // 2
            cols = np.where(rows < cut, cols % cut, cut + cols % (n - cut))
    hi = draw(st.sampled_from([1, 10, 256]))
    w = rng.integers(0, hi, rows.size)  # zeros included (hi = 1: all zero)
    dtype = np.dtype(draw(st.sampled_from(TYPES)))
    S = sp.csr_matrix((w.astype(dtype), (rows, cols)), shape=(n, n))
    S.sum_duplicates()
    return S, dtype, draw(st.integers(0, n - 1))


def _matrix(S, device, int64):
    A = sr.Matrix.from_scipy(S, device=device)
    if int64:
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values, A.shape,
                      dtype=A.dtype)
    return A


def _as_float(d):
    d = to_host(d)
    if d.dtype.kind == "f":
        return d.astype(np.float64)
    return np.where(d == np.iinfo(d.dtype).max, np.inf, d.astype(np.float64))


@settings(max_examples=40)
@given(g=road_graphs(), int64=st.booleans(), delta=st.sampled_from([0.5, 1, 3, 40, 1000, 1e12]),
       limit=st.sampled_from([None, None, 0, 30, 500]))
def test_sssp_grid_matches_dijkstra(device, g, int64, delta, limit):
    S, dtype, source = g
    A = _matrix(S, device, int64)
    if device != "gpu":
        with pytest.raises(sr.DeviceMismatch, match="sssp_grid: A must be on the GPU"):
            sr.traversal.sssp_grid(A, source, delta)
        return
    dist, info = sr.traversal.sssp_grid(A, source, delta, limit=limit)
    assert dist.dtype == dtype and dist.shape == (S.shape[0],)
    ref = csg.dijkstra(S.astype(np.float64), indices=source)
    got = _as_float(dist)
    if limit is not None:  # within the limit exact; beyond it upper bounds (or unreached)
        near = ref <= limit
        np.testing.assert_array_equal(got[near], ref[near])
        assert np.all(got[~near] >= ref[~near])
    else:
        np.testing.assert_array_equal(got, ref)
    assert info["rounds"] >= 1 and info["edges"] >= 0 and info["buckets"] >= 0


@settings(max_examples=30)
@given(g=road_graphs(paths=(1, 2, 17, 10_000)), method=st.sampled_from(["delta_stepping", "bellman_ford"]),
       predecessors=st.booleans(), limit=st.sampled_from([None, 100]))
def test_algorithms_take_the_device_loop(device, g, method, predecessors, limit):
    """DEVICE_LOOP = 'always': the algorithms' answers (and trees) are SciPy's; on the CPU the
    host paths run (same answers)."""
    S, dtype, source = g
    A = sr.Matrix.from_scipy(S, device=device)
    kw = {"limit": limit} if method == "delta_stepping" else {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sssp_module, "DEVICE_LOOP", "always")
        out = getattr(algorithms, method)(A, source, predecessors=predecessors, **kw)
    dist, pred = out if predecessors else (out, None)
    ref = csg.dijkstra(S.astype(np.float64), indices=source)
    if kw and limit is not None:
        ref[ref > limit] = np.inf
    np.testing.assert_array_equal(_as_float(dist), ref)
    if predecessors and limit is None:
        check_tree(S, source, _as_float(dist), pred)


def test_policy(device):
    """The device loop on the GPU for w >= 0, direction 'auto' and road-like graphs (mean
    degree <= ROAD_MEAN_DEGREE) or small ones (at most SMALL_EDGES edges), or any graph and
    direction with DEVICE_LOOP = 'always'."""
    n, r, c = _grid(30, 30)
    road = sr.Matrix.from_coo(r, c, np.ones(r.size), nrows=n, ncols=n, device=device)
    dense = sr.Matrix.from_scipy(sp.random(200, 200, density=0.2, format="csr", random_state=1),
                                 device=device)
    facts = {"min": 0.0}
    gpu = device == "gpu"
    assert sssp_module._device_loop(road, facts, "auto") == gpu
    assert dense.nvals <= sssp_module.SMALL_EDGES  # small: the loop, whatever its degree
    assert sssp_module._device_loop(dense, facts, "auto") == gpu
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sssp_module, "SMALL_EDGES", dense.nvals - 1)
        assert not sssp_module._device_loop(dense, facts, "auto")
        assert sssp_module._device_loop(road, facts, "auto") == gpu
    assert not sssp_module._device_loop(road, facts, "push")
    assert not sssp_module._device_loop(road, {"min": -1.0}, "auto")
    assert sssp_module._road_like(road) and not sssp_module._road_like(dense)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sssp_module, "DEVICE_LOOP", "always")
        assert sssp_module._device_loop(dense, facts, "pull") == gpu
        mp.setattr(sssp_module, "DEVICE_LOOP", "never")
        assert not sssp_module._device_loop(road, facts, "auto")


@pytest.mark.parametrize("per_sm", [1, 2])
def test_blocks_per_sm(device, per_sm):
    """Both grid shapes give the same answers (sssp_grid and bfs_grid)."""
    n, r, c = _grid(40, 50)
    w = np.random.default_rng(per_sm).integers(1, 256, r.size).astype(np.float32)
    S = sp.csr_matrix((w, (r, c)), shape=(n, n))
    A = sr.Matrix.from_scipy(S, device=device)
    if device != "gpu":
        return
    d, _ = sr.traversal.sssp_grid(A, 7, 300.0, blocks_per_sm=per_sm)
    np.testing.assert_array_equal(_as_float(d), csg.dijkstra(S.astype(np.float64), indices=7))
    level, _, _ = sr.traversal.bfs_grid(A, 7, blocks_per_sm=per_sm)
    ref = csg.shortest_path(S, unweighted=True, indices=7)
    np.testing.assert_array_equal(to_host(level), np.where(np.isinf(ref), -1, ref))
    for bad in (0, 33, 1.5, True):
        with pytest.raises(sr.InvalidValue, match="sssp_grid: blocks_per_sm must be an integer"):
            sr.traversal.sssp_grid(A, 0, 1.0, blocks_per_sm=bad)
        with pytest.raises(sr.InvalidValue, match="bfs_grid: blocks_per_sm must be an integer"):
            sr.traversal.bfs_grid(A, 0, blocks_per_sm=bad)


def test_sssp_grid_errors(device):
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3, device=device)
    if device != "gpu":
        with pytest.raises(sr.DeviceMismatch, match="got a cpu matrix"):
            sr.traversal.sssp_grid(A, 0, 1.0)
        return
    f = sr.traversal.sssp_grid
    with pytest.raises(sr.InvalidIndex, match=r"sssp_grid: source must lie in \[0, 3\), got 3"):
        f(A, 3, 1.0)
    with pytest.raises(sr.DomainMismatch, match="sssp_grid: source must be an integer"):
        f(A, 0.5, 1.0)
    for bad in (0, -1.0, float("inf"), float("nan"), True, "1"):
        with pytest.raises(sr.InvalidValue, match="sssp_grid: delta must be a positive finite"):
            f(A, 0, bad)
    with pytest.raises(sr.DomainMismatch, match="sssp_grid: dtype must be one of"):
        f(A, 0, 1.0, dtype=np.int16)
    with pytest.raises(sr.InvalidValue, match="sssp_grid: limit must be a number >= 0"):
        f(A, 0, 1.0, limit=-1)
    neg = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, -2.0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidValue, match="sssp_grid: A's weights must be non-negative.*negative"):
        f(neg, 0, 1.0)
    nan = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, np.nan], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidValue, match="non-negative numbers, got a NaN"):
        f(nan, 0, 1.0)
    with pytest.raises(sr.DimensionMismatch):
        f(sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device=device), 0, 1.0)
    # an iso (structure-only) matrix weighs every edge 1; int32 distances on request
    iso = sr.Matrix.from_coo([0, 1], [1, 2], None, nrows=3, ncols=3, device=device)
    d, _ = f(iso, 0, 1.0, dtype=np.int32)
    assert to_host(d).tolist() == [0, 1, 2]
