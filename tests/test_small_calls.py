"""First and small calls (issue 21 items 1-2): the kernels that replaced CuPy's element-wise
chains of a first call (the GPU transpose, the pull schedule's bins, the device loops' weight
check: ``semiring/backend/gpu/prep.py``), the small-graph policies (``bfs_grid`` on a few
blocks, the SSSP device loop for small graphs) and ``bfs_grid``'s sync-free counters, each
against SciPy / NumPy on every backend present."""

from __future__ import annotations

import importlib
from collections.abc import Mapping

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from scipy.sparse.csgraph import dijkstra

import algorithms
import semiring as sr
from conftest import to_host
from test_bfs import check_parents, graphs, reference_levels

bfs_module = importlib.import_module("algorithms.bfs")
sssp_module = importlib.import_module("algorithms.sssp")


@st.composite
def csr_matrices(draw, max_n=30):
    """A canonical CSR of any shape (0 rows or columns included), empty rows and columns
    (a block of trailing ones too), random values of a domain, int32 or int64 indices."""
    nr = draw(st.integers(0, max_n))
    nc = draw(st.integers(0, max_n))
    m = draw(st.integers(0, 3 * max(nr, nc))) if nr and nc else 0
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    hi_r = draw(st.integers(1, nr)) if nr else 1  # rows and columns beyond stay empty
    hi_c = draw(st.integers(1, nc)) if nc else 1
    r, c = rng.integers(0, hi_r, m), rng.integers(0, hi_c, m)
    dt = draw(st.sampled_from([np.float64, np.float32, np.int32, np.int64, np.bool_]))
    v = rng.integers(-3, 4, m).astype(dt)
    S = sp.coo_matrix((np.ones(m), (r, c)), shape=(nr, nc)).tocsr()  # the pattern
    S.data = rng.integers(-3, 4, S.nnz).astype(dt) if S.nnz else v[:0]
    return S, draw(st.booleans()), draw(st.booleans())


@given(g=csr_matrices())
def test_transpose_against_scipy(device, g):
    S, iso, int64 = g
    it = np.int64 if int64 else np.int32
    xp = sr.array_module(device)
    A = sr.Matrix.from_csr(xp.asarray(S.indptr.astype(it)), xp.asarray(S.indices.astype(it)),
                           None if iso else xp.asarray(S.data), S.shape,
                           dtype=S.dtype if iso else None)
    T = A.T
    E = S.T.tocsr()
    E.sort_indices()
    assert T.shape == S.shape[::-1] and T.itype == A.itype and T.dtype == A.dtype
    np.testing.assert_array_equal(to_host(T.indptr), E.indptr)
    np.testing.assert_array_equal(to_host(T.indices), E.indices)
    if iso:
        assert T.is_iso
    else:
        np.testing.assert_array_equal(to_host(T.values), E.data)
    assert T.T is A


def _schedule_reference(indptr, spmv):
    """The pull schedule as the former CuPy chain computed it, in NumPy."""
    n = indptr.size - 1
    deg = np.diff(indptr).astype(np.int64)
    b = sum((deg > spmv.PULL_UNROLL * (1 << (j - 1))).astype(np.int64)
            for j in range(1, spmv.NBINS))
    b = np.zeros(n, np.int64) + b
    long = deg > spmv.LONG_ROW
    key = np.where(long, -deg, b * (n + 1) + np.arange(n))
    b[long] = spmv.NBINS
    return np.argsort(key, kind="stable"), np.bincount(b, minlength=spmv.NBINS + 1), deg


@pytest.mark.parametrize("long_row", [3, 4096])
@given(data=st.data())
def test_pull_schedule_against_numpy(device, long_row, data):
    if device != "gpu":
        pytest.skip("the pull schedule is the GPU kernel's")
    import cupy as cp  # noqa: PLC0415  (CuPy: GPU only)

    from semiring.backend.gpu import spmv  # noqa: PLC0415  (the GPU backend's schedule)

    n = data.draw(st.integers(0, 300))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    deg = rng.choice([0, 1, 4, 5, 8, 9, 16, 17, 64, 65, 130, 200], n)
    indptr = np.r_[0, np.cumsum(deg)].astype(data.draw(st.sampled_from([np.int32, np.int64])))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spmv, "LONG_ROW", long_row)
        got = spmv.pull_schedule(cp.asarray(indptr), n)
        order, counts, d = _schedule_reference(indptr, spmv)
    nlong = int(counts[spmv.NBINS])
    rows, long_rows = to_host(got["rows"]), to_host(got["long_rows"])
    assert rows.dtype == indptr.dtype and long_rows.dtype == indptr.dtype
    np.testing.assert_array_equal(rows, order[nlong:])
    # long rows: longest first (ties in any order)
    assert sorted(long_rows.tolist()) == sorted(order[:nlong].tolist())
    np.testing.assert_array_equal(d[long_rows], d[order[:nlong]])
    bins = to_host(got["bins"])
    np.testing.assert_array_equal(bins[spmv.NBINS:2 * spmv.NBINS], counts[:spmv.NBINS])
    assert bins[-1] == nlong


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.bool_])
def test_weight_check(device, dtype):
    if device != "gpu":
        pytest.skip("the device loops' check (GPU)")
    import cupy as cp  # noqa: PLC0415  (CuPy: GPU only)

    from semiring.backend.gpu import prep  # noqa: PLC0415  (the GPU backend's check)

    rng = np.random.default_rng(0)
    for n in (0, 1, 31, 1000, 70_000):
        w = rng.integers(-2, 5, n).astype(dtype)
        if dtype in (np.float32, np.float64) and n:
            w[rng.integers(0, n, 3)] = np.nan
            w[0] = -0.0  # not negative
        bad, nan = prep.weight_check(cp.asarray(w))
        assert (bad, nan) == (int(np.count_nonzero(~(w >= 0))), int(np.count_nonzero(w != w)))


@given(g=graphs(max_n=60), parents=st.booleans(), deterministic=st.booleans(),
       int64=st.booleans(), stage=st.booleans())
def test_small_bfs_in_one_block(device, g, parents, deterministic, int64, stage):
    """A small graph's search runs in one thread block on the GPU (bfs_small): SciPy's levels,
    valid parents (the least in-neighbour one level up with ``deterministic``); the CSR read
    from global memory or from the block's shared copy (``stage``)."""
    from semiring.backend.gpu import small as gsmall  # noqa: PLC0415 (imports without CuPy)

    S, source, undirected = g
    if int64:
        S.indptr, S.indices = S.indptr.astype(np.int64), S.indices.astype(np.int64)
    A = sr.Matrix.from_scipy(S, device=device)
    calls = []
    orig = sr.traversal.bfs_small

    def spy(*a, **kw):
        calls.append(1)
        return orig(*a, **kw)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sr.traversal, "bfs_small", spy)
        mp.setattr(gsmall, "STAGE", stage)
        out = algorithms.bfs(A, source, parents=parents, deterministic=deterministic,
                             symmetric=undirected)
    level, parent = out if parents else (out, None)
    exp = reference_levels(S, source)
    np.testing.assert_array_equal(to_host(level), exp)
    if parents:
        check_parents(S, source, exp, to_host(parent), deterministic)
    assert len(calls) == (1 if device == "gpu" else 0)


@pytest.mark.parametrize("stage", [True, False])
@pytest.mark.parametrize("kind", ["path", "skewed", "star", "dense"])
def test_bfs_small_at_its_limit(device, kind, stage, monkeypatch):
    """n = BFS_SMALL_MAX_N: a path (n levels), a skewed graph with hubs, a star (one wide
    level), a dense graph (its CSR too large to copy into shared memory); levels and both
    kinds of parents against SciPy, the CSR staged in shared memory where it fits or not."""
    if device != "gpu":
        pytest.skip("bfs_small is the GPU's one-block search")
    from semiring.backend.gpu import small as gsmall  # noqa: PLC0415 (imports without CuPy)

    monkeypatch.setattr(gsmall, "STAGE", stage)
    n = sr.traversal.BFS_SMALL_MAX_N
    rng = np.random.default_rng(7)
    if kind == "path":
        r, c = np.arange(n - 1), np.arange(1, n)
    elif kind == "star":
        r, c = np.zeros(n - 1, np.int64), np.arange(1, n)
    elif kind == "dense":  # 4 (n + 1 + nnz) bytes past the 227 KiB a block may take
        r = np.repeat(np.arange(n), 24)
        c = rng.integers(0, n, r.size)
    else:
        deg = np.minimum((rng.pareto(1.0, n) * 3).astype(np.int64), n - 1)
        r = np.repeat(np.arange(n), deg)
        c = rng.integers(0, n, r.size)
    S = sp.coo_matrix((np.ones(r.size), (r, c)), shape=(n, n)).tocsr()
    A = sr.Matrix.from_scipy(S, device="gpu")
    exp = reference_levels(S, 0)
    for parents, det in ((False, False), (True, False), (True, True)):
        level, parent = sr.traversal.bfs_small(A, 0, parents=parents, deterministic=det)
        np.testing.assert_array_equal(to_host(level), exp)
        assert (parent is None) == (not parents)
        if parents:
            check_parents(S, 0, exp, to_host(parent), det)


def test_bfs_small_errors(device):
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device=device)
    if device != "gpu":
        with pytest.raises(sr.DeviceMismatch, match="bfs_small: A must be on the GPU"):
            sr.traversal.bfs_small(A, 0)
        return
    with pytest.raises(sr.InvalidIndex, match=r"bfs_small: source must lie in \[0, 2\), got 2"):
        sr.traversal.bfs_small(A, 2)
    n = sr.traversal.BFS_SMALL_MAX_N + 1
    big = sr.Matrix.from_coo([0], [1], None, nrows=n, ncols=n, device="gpu")
    with pytest.raises(sr.InvalidValue, match=f"bfs_small: A may have at most {n - 1} vertices"):
        sr.traversal.bfs_small(big, 0)
    # beyond SMALL_N (or with a forced direction) algorithms.bfs runs bfs_grid
    level = algorithms.bfs(big, 0)
    assert to_host(level)[:3].tolist() == [0, 1, -1]


@given(g=graphs(max_n=60), blocks=st.sampled_from([1, 2, 3, 7, None]))
def test_bfs_grid_blocks_and_lazy_counters(device, g, blocks):
    if device != "gpu":
        pytest.skip("bfs_grid is the GPU's device loop")
    S, source, _ = g
    A = sr.Matrix.from_scipy(S, device=device)
    level, _, info = sr.traversal.bfs_grid(A, source, blocks=blocks)
    exp = reference_levels(S, source)
    assert isinstance(info, Mapping)
    np.testing.assert_array_equal(to_host(level), exp)
    assert info["depth"] == exp.max() and info["levels"] == exp.max() + 1
    assert dict(info) == {"depth": exp.max(), "levels": exp.max() + 1,
                          "push": info["push"], "pull": info["pull"]}


def test_bfs_grid_blocks_errors(device):
    if device != "gpu":
        pytest.skip("bfs_grid is the GPU's device loop")
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device="gpu")
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(sr.InvalidValue, match="bfs_grid: blocks must be a positive integer"):
            sr.traversal.bfs_grid(A, 0, blocks=bad)


@given(n=st.integers(1, 40), density=st.sampled_from([0.0, 0.1, 0.5, 1.0]),
       seed=st.integers(0, 2**31 - 1), dtype=st.sampled_from([np.float64, np.float32, np.int32]))
def test_small_dense_sssp_takes_the_device_loop(device, n, density, seed, dtype):
    """A small graph of any degree runs the SSSP device loop (GPU): SciPy's distances."""
    S = sp.random(n, n, density=density, format="csr", random_state=seed,
                  data_rvs=lambda k: np.random.default_rng(seed).integers(0, 9, k)).astype(dtype)
    A = sr.Matrix.from_scipy(S, device=device)
    facts = sssp_module._matrix_facts(A)
    assert sssp_module._device_loop(A, facts, "auto") == (device == "gpu")
    d = to_host(algorithms.sssp(A, 0))
    exp = dijkstra(S.astype(np.float64), indices=0)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(d, exp, rtol=1e-6)
    else:
        np.testing.assert_array_equal(np.where(np.isinf(exp), np.iinfo(dtype).max, exp), d)
