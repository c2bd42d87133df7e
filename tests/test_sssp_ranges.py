"""The near–far device loop with warp-range schedules (``sr.traversal.sssp_grid(...,
schedule='ranges')``, kernels/sssp.cu) against SciPy's Dijkstra on the graphs it is picked for
(GAP-like Kronecker and uniform graphs: skewed degrees, hubs spanning many warps' ranges,
frontiers full of zero-degree vertices) and awkward ones (zero weights, unreachable parts,
self-loops, int32 / int64 indices, every distance type, tiny and huge Δ, limits); and the
policy that now sends every graph with w >= 0 to the device loop (``algorithms.sssp``). On the
CPU the function is refused (GPU only) and the algorithms return SciPy's answers."""

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
from bench import generators as gen
from tests.conftest import to_host
from tests.test_sssp import check_tree

sssp_module = importlib.import_module("algorithms.sssp")  # algorithms.sssp is the function
TYPES = [np.int32, np.int64, np.float32, np.float64]


def _as_float(d):
    d = to_host(d)
    if d.dtype.kind == "f":
        return d.astype(np.float64)
    return np.where(d == np.iinfo(d.dtype).max, np.inf, d.astype(np.float64))


def _matrix(S, device, int64):
    A = sr.Matrix.from_scipy(S, device=device)
    if int64:
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values, A.shape,
                      dtype=A.dtype)
    return A


@st.composite
def skewed_graphs(draw):
    """(scipy csr, source): a small Graph500 Kronecker graph (hubs, isolated vertices), a
    uniform random graph, a star of hubs (one vertex reaching thousands, most of them without
    out-edges: frontier windows of zero-degree slots), or a random graph whose edge rows follow
    a power law (self-loops, parallel edges summed, sometimes two unconnected halves); weights
    GAP's [1, 255] or with zeros, in any distance type."""
    kind = draw(st.sampled_from(["kron", "urand", "stars", "power"]))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    if kind in ("kron", "urand"):
        scale = draw(st.integers(1, 11))
        make = gen.kronecker if kind == "kron" else gen.urand
        S = make(scale, draw(st.sampled_from([1, 4, 16])), seed=seed % 1000,
                 undirected=draw(st.booleans()), xp=np).tocoo()
        rows, cols, w = S.row, S.col, S.data
        n = S.shape[0]
    elif kind == "stars":
        hubs = draw(st.integers(1, 4))
        leaves = draw(st.integers(1, 6000))
        n = hubs + leaves
        rows = np.r_[np.repeat(np.arange(hubs), leaves), rng.integers(hubs, n, leaves // 7)]
        cols = np.r_[np.tile(np.arange(hubs, n), hubs), rng.integers(0, n, leaves // 7)]
        w = rng.integers(1, 256, rows.size)
    else:
        n = draw(st.integers(1, 3000))
        m = draw(st.integers(0, 20 * n))
        rows = np.minimum((rng.pareto(1.2, m) * 3).astype(np.int64), n - 1)
        rows = rng.permutation(n)[rows]
        cols = rng.integers(0, n, m)
        if draw(st.booleans()) and n > 2:  # unreachable parts
            cut = n // 2
            cols = np.where(rows < cut, cols % cut, cut + cols % (n - cut))
        w = rng.integers(1, 256, m)
    if draw(st.booleans()):  # zero weights too
        w = np.where(rng.random(w.size) < 0.3, 0, w)
    dtype = np.dtype(draw(st.sampled_from(TYPES)))
    S = sp.csr_matrix((np.asarray(w).astype(dtype), (rows, cols)), shape=(n, n))
    S.sum_duplicates()
    deg = np.diff(S.indptr)
    source = int(np.argmax(deg)) if draw(st.booleans()) else draw(st.integers(0, n - 1))
    return S, source


@settings(max_examples=40)
@given(g=skewed_graphs(), int64=st.booleans(),
       delta=st.sampled_from([0.5, 1, 4, 8, 32, 255, 1e12]),
       limit=st.sampled_from([None, None, None, 0, 60, 300]), per_sm=st.sampled_from([1, 2]))
def test_ranges_match_dijkstra(device, g, int64, delta, limit, per_sm):
    S, source = g
    A = _matrix(S, device, int64)
    if device != "gpu":
        with pytest.raises(sr.DeviceMismatch, match="sssp_grid: A must be on the GPU"):
            sr.traversal.sssp_grid(A, source, delta, schedule="ranges")
        return
    dist, info = sr.traversal.sssp_grid(A, source, delta, limit=limit, blocks_per_sm=per_sm,
                                        schedule="ranges")
    assert dist.dtype == S.dtype and dist.shape == (S.shape[0],)
    ref = csg.dijkstra(S.astype(np.float64), indices=source)
    got = _as_float(dist)
    if limit is not None:  # within the limit exact; beyond it upper bounds (or unreached)
        near = ref <= limit
        np.testing.assert_array_equal(got[near], ref[near])
        assert np.all(got[~near] >= ref[~near])
    else:
        np.testing.assert_array_equal(got, ref)
    assert info["rounds"] >= 1 and info["buckets"] >= 0
    # every round relaxes at least the source's edges once
    assert info["edges"] >= S.indptr[source + 1] - S.indptr[source]


@pytest.mark.parametrize("schedule", ["ranges", "search"])
def test_schedules_agree_on_a_hub(device, schedule):
    """One hub of 200 000 out-edges (its row spans thousands of warps' ranges), each leaf on
    to a chain: both schedules give SciPy's distances."""
    rng = np.random.default_rng(5)
    k = 200_000
    rows = np.r_[np.zeros(k, dtype=np.int64), np.arange(1, k)]
    cols = np.r_[np.arange(1, k + 1), np.arange(2, k + 1)]
    w = rng.integers(1, 256, rows.size).astype(np.float32)
    S = sp.csr_matrix((w, (rows, cols)), shape=(k + 1, k + 1))
    A = sr.Matrix.from_scipy(S, device=device)
    if device != "gpu":
        return
    ref = csg.dijkstra(S.astype(np.float64), indices=0)
    for delta in (1.0, 64.0, 1e12):
        d, _ = sr.traversal.sssp_grid(A, 0, delta, schedule=schedule, blocks_per_sm=2)
        np.testing.assert_array_equal(_as_float(d), ref)


def test_schedule_is_checked(device):
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3, device=device)
    if device != "gpu":
        return
    for bad in ("warp", "", 1):
        with pytest.raises(sr.InvalidValue, match="sssp_grid: schedule must be one of"):
            sr.traversal.sssp_grid(A, 0, 1.0, schedule=bad)


@settings(max_examples=25)
@given(g=skewed_graphs(), method=st.sampled_from(["sssp", "delta_stepping"]),
       predecessors=st.booleans(), limit=st.sampled_from([None, None, 100]))
def test_policy_answers(device, g, method, predecessors, limit):
    """The policy as it runs (DEVICE_LOOP = 'auto': on the GPU every graph with w >= 0 takes the
    device loop, Δ from the mean degree off road-like graphs): SciPy's distances and a valid
    shortest-path tree."""
    S, source = g
    A = sr.Matrix.from_scipy(S, device=device)
    kw = {"limit": limit} if limit is not None else {}
    out = getattr(algorithms, method)(A, source, predecessors=predecessors, **kw)
    dist, pred = out if predecessors else (out, None)
    ref = csg.dijkstra(S.astype(np.float64), indices=source)
    if limit is not None:
        ref[ref > limit] = np.inf
    np.testing.assert_array_equal(_as_float(dist), ref)
    if predecessors and limit is None:
        check_tree(S, source, _as_float(dist), pred)


def test_policy_takes_the_device_loop_off_road_graphs(device):
    """On the GPU delta-stepping takes the device loop on a graph of mean degree 40 too, with
    Δ = DENSE_DELTA_SCALE · max w / d̄; Bellman–Ford only where BELLMAN_DEVICE_DENSE says."""
    S = gen.urand(10, 20, seed=3, xp=np).tocsr()
    A = sr.Matrix.from_scipy(S, device=device)
    facts = {"min": 0.0, "max": 255.0, "min_pos": 1.0}
    gpu = device == "gpu"
    assert not sssp_module._road_like(A)
    assert sssp_module._device_loop(A, facts, "auto") == gpu
    assert not sssp_module._device_loop(A, facts, "push")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sssp_module, "SMALL_EDGES", 0)  # not the small graphs' rule
        mp.setattr(sssp_module, "BELLMAN_DEVICE_DENSE", False)
        assert not sssp_module._device_loop(A, facts, "auto", bellman=True)
        mp.setattr(sssp_module, "BELLMAN_DEVICE_DENSE", True)
        assert sssp_module._device_loop(A, facts, "auto", bellman=True) == gpu
    d_bar = A.nvals / A.nrows
    assert sssp_module._device_delta(A, facts) == pytest.approx(
        max(sssp_module.DENSE_DELTA_SCALE * 255.0 / d_bar, 1.0))
    # a road-like graph keeps DEVICE_DELTA_SCALE · max w
    road = sr.Matrix.from_coo([0, 1], [1, 2], [3.0, 4.0], nrows=3, ncols=3, device=device)
    assert sssp_module._device_delta(road, facts) == sssp_module.DEVICE_DELTA_SCALE * 255.0
    # and the answers are SciPy's
    src = int(np.argmax(np.diff(S.indptr)))
    for f in (algorithms.delta_stepping, algorithms.bellman_ford, algorithms.sssp):
        np.testing.assert_array_equal(_as_float(f(A, src)),
                                      csg.dijkstra(S.astype(np.float64), indices=src))
