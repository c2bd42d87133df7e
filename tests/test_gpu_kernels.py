"""The GPU kernels against the CPU backend on larger inputs than the oracle can take: skewed
degrees (rows long enough for the block-per-row kernel), early exit at terminal values, the
sort-based push for non-idempotent monoids, int64 indices."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

import semiring as sr
from conftest import to_host

pytestmark = pytest.mark.skipif(not sr.gpu_available(), reason="needs a GPU")

CASES = ["min_plus", "max_plus", "plus_times", "lor_land", "any_pair", "plus_pair", "min_secondi",
         "any_secondi", "max_min", "land_lor", "min_first", "plus_second"]


def skewed(n=9000, seed=0, dtype=np.float32):
    """Power-law-ish rows plus a few rows and columns longer than the long-row threshold."""
    from semiring.backend.gpu import spmv as _gpu

    rng = np.random.default_rng(seed)
    deg = np.minimum((rng.pareto(1.2, n) * 3).astype(np.int64), n - 1)
    deg[:3] = [_gpu.LONG_ROW + 17, 2 * _gpu.LONG_ROW, n - 1]
    rows = np.repeat(np.arange(n), deg)
    cols = rng.integers(0, n, rows.size)
    cols[: deg[0]] = np.arange(deg[0])  # one long row with distinct columns
    hub = rng.integers(0, n, 5000)
    rows = np.r_[rows, hub]
    cols = np.r_[cols, np.full(hub.size, 7)]  # a long column (long row of the transpose)
    vals = rng.integers(1, 100, rows.size).astype(dtype)
    S = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    S.sum_duplicates()
    S.data[::97] = 0  # explicit zeros are entries
    return S


def _compare(sname, got, exp, A, u, kind):
    gi, gv = (to_host(a) for a in got.sparse())
    ei, ev = (to_host(a) for a in exp.sparse())
    np.testing.assert_array_equal(gi, ei)
    if sname == "any_secondi":
        # a valid inner index: the edge exists and the vector has an entry there
        S = A.to_cpu().to_scipy()
        M = S.T.tocsr() if kind == "vxm" else S
        up = to_host(u.to_form("bitmap").bitmap()[1]) if u.to_form("bitmap").bitmap()[1] is not None else np.ones(u.size, bool)
        for o, k in zip(gi[:2000], gv[:2000]):
            assert M[o, k] != 0 or k in M.indices[M.indptr[o]:M.indptr[o + 1]]
            assert up[k]
    elif np.dtype(gv.dtype).kind == "f" and sname.startswith("plus"):
        np.testing.assert_allclose(gv, ev, rtol=1e-5)
    else:
        np.testing.assert_array_equal(gv, ev)


@pytest.mark.parametrize("sname", CASES)
@pytest.mark.parametrize("kind", ["mxv", "vxm"])
@pytest.mark.parametrize("direction", ["push", "pull"])
@pytest.mark.parametrize("frac", [0.001, 0.3, 1.0])
def test_gpu_matches_cpu(sname, kind, direction, frac):
    S = skewed()
    Ac = sr.Matrix.from_scipy(S, device="cpu")
    Ag = Ac.to_gpu()
    n = S.shape[0]
    rng = np.random.default_rng(5)
    idx = np.sort(rng.choice(n, max(1, int(frac * n)), replace=False))
    uc = sr.Vector.from_coo(idx, rng.integers(0, 50, idx.size).astype(np.float32), size=n, device="cpu")
    ug = uc.to_gpu()
    mvals = rng.random(n) < 0.5
    mc = sr.Vector.from_coo(np.flatnonzero(mvals), True, size=n, device="cpu")
    for mask in (None, "~S"):
        kw = {"direction": direction}
        if mask:
            kw_c = dict(kw, mask=~mc.S)
            kw_g = dict(kw, mask=~mc.to_gpu().S)
        else:
            kw_c = kw_g = kw
        f = sr.mxv if kind == "mxv" else sr.vxm
        args_c = (Ac, uc) if kind == "mxv" else (uc, Ac)
        args_g = (Ag, ug) if kind == "mxv" else (ug, Ag)
        exp = f(*args_c, sname, **kw_c)
        got = f(*args_g, sname, **kw_g)
        assert got.device == "gpu" and exp.nvals > 0
        _compare(sname, got, exp, Ac, uc, kind)


@pytest.mark.parametrize("sname", ["min_plus", "plus_times", "lor_land", "any_secondi"])
def test_gpu_int64_indices(sname):
    S = skewed(9000, seed=1)
    Ac = sr.Matrix.from_scipy(S, device="cpu")
    Ag = Ac.to_gpu()
    A64 = sr.Matrix(Ag.indptr.astype(np.int64), Ag.indices.astype(np.int64), Ag.values, Ag.shape)
    assert A64.itype == np.int64
    rng = np.random.default_rng(2)
    idx = np.sort(rng.choice(9000, 200, replace=False))
    u = sr.Vector.from_coo(idx, np.float32(1.5), size=9000, device="gpu")
    for direction in ("push", "pull"):
        a = sr.vxm(u, A64, sname, direction=direction)
        b = sr.vxm(u, Ag, sname, direction=direction)
        c = sr.vxm(u.to_cpu(), Ac, sname, direction=direction)
        _compare(sname, a, c, Ac, u.to_cpu(), "vxm")
        _compare(sname, b, c, Ac, u.to_cpu(), "vxm")


def test_gpu_plus_times_matches_cusparse():
    import cupy as cp
    import cupyx.scipy.sparse as cps

    S = skewed(20000, seed=3, dtype=np.float64)
    C = cps.csr_matrix(S)
    x = cp.asarray(np.random.default_rng(0).random(S.shape[1]))
    got = sr.mxv(C, x, sr.plus_times).to_dense()
    np.testing.assert_allclose(got.get(), (C @ x).get(), rtol=1e-10)


def test_gpu_plus_push_long_segments():
    """plus over a push with many products per output: the sort + segmented reduction path."""
    n = 5000
    rows = np.repeat(np.arange(n), 20)
    cols = np.tile(np.arange(20), n)  # every row hits the same 20 outputs: segments of n
    S = sp.csr_matrix((np.ones(rows.size, np.int64), (rows, cols)), shape=(n, n))
    u = sr.Vector.from_coo(np.arange(n), np.int64(2), size=n, device="gpu")
    got = sr.vxm(u, sr.Matrix.from_scipy(S, device="gpu"), sr.plus_times, direction="push")
    i, v = (to_host(a) for a in got.sparse())
    np.testing.assert_array_equal(i, np.arange(20))
    np.testing.assert_array_equal(v, np.full(20, 2 * n))


def tile_edges(seed=0):
    """Rows around the tiled pull's boundaries: degrees TILE - 1, TILE, TILE + 1 (the first
    row a block of its own) and 2 * TILE, runs of empty rows, rows that start just before a
    tile boundary and end after it, long runs of short rows (one tile holds hundreds of rows)."""
    from semiring.backend.gpu import spmv as _gpu

    t = _gpu.TILE
    rng = np.random.default_rng(seed)
    deg = np.concatenate([
        rng.integers(0, 5, 700), [t - 1, t, t + 1, 0, 0, 2 * t], rng.integers(20, 45, 300),
        np.zeros(500, np.int64), [t - 3, 7, t, 1], rng.integers(0, 3, 2000), [t + 1] * 3,
        rng.integers(60, 300, 40), rng.integers(0, 4, 2 * t)])  # n > 2 * TILE: distinct columns
    n = deg.size
    rows = np.repeat(np.arange(n), deg)
    cols = np.concatenate([rng.choice(n, d, replace=False) for d in deg])
    vals = rng.integers(-50, 100, rows.size).astype(np.float32)
    S = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
    S.data[::53] = 0  # explicit zeros are entries
    return S


@pytest.mark.parametrize("sname", ["min_plus", "max_plus", "plus_times", "lor_land", "max_min",
                                   "plus_pair", "any_pair", "min_first", "min_secondi"])
@pytest.mark.parametrize("int64", [False, True])
def test_gpu_tiled_pull_boundaries(sname, int64, monkeypatch):
    """The tiled pull (spmv_tile), the binned one (spmv_pull) and the warp-streamed one
    (spmv_warp, where it applies: dense x, no mask, a monoid folding from `empty`) against the
    CPU backend, dense and sparse x, with and without a mask (the launcher then takes the
    binned kernel)."""
    from semiring.backend.gpu import spmv as _gpu

    S = tile_edges()
    n = S.shape[0]
    Ac = sr.Matrix.from_scipy(S, device="cpu")
    Ag = Ac.to_gpu()
    if int64:
        Ag = sr.Matrix(Ag.indptr.astype(np.int64), Ag.indices.astype(np.int64), Ag.values,
                       Ag.shape)
        assert Ag.itype == np.int64
    rng = np.random.default_rng(1)
    dense = sr.Vector.from_dense(rng.integers(-20, 20, n).astype(np.float32), device="cpu")
    idx = np.sort(rng.choice(n, n // 3, replace=False))
    sparse = sr.Vector.from_coo(idx, rng.integers(-20, 20, idx.size).astype(np.float32), size=n,
                                device="cpu")
    m = sr.Vector.from_coo(np.flatnonzero(rng.random(n) < 0.5), True, size=n, device="cpu")
    for uc in (dense, sparse):
        for mask in (None, m):
            kw_c = {} if mask is None else {"mask": mask.S}
            kw_g = {} if mask is None else {"mask": mask.to_gpu().S}
            exp = sr.mxv(Ac, uc, sname, direction="pull", **kw_c)
            for tiled, warp in (("always", "never"), ("never", "never"), ("auto", "never"),
                                ("never", "always")):
                monkeypatch.setattr(_gpu, "TILED", tiled)
                monkeypatch.setattr(_gpu, "WARP", warp)
                got = sr.mxv(Ag, uc.to_gpu(), sname, direction="pull", **kw_g)
                _compare(sname, got, exp, Ac, uc, "mxv")


def test_gpu_tile_schedule():
    """Every row of at most TILE entries lies in exactly one tile, a tile's entries are fewer
    than 2 * TILE, and the long rows come longest first."""
    import cupy as cp

    from semiring.backend.gpu import spmv as _gpu

    S = tile_edges(seed=2)
    indptr = cp.asarray(S.indptr.astype(np.int32))
    n = S.shape[0]
    plan = _gpu.tile_schedule(indptr, n)
    tiles, longs = plan["tiles"].get(), plan["long_rows"].get()
    ip, deg = S.indptr, np.diff(S.indptr)
    t = _gpu.TILE
    assert tiles[0] == 0 and tiles[-1] == n and (np.diff(tiles) > 0).all()
    assert plan["ntiles"] == tiles.size - 1 and plan["nlong"] == longs.size
    np.testing.assert_array_equal(np.sort(longs), np.flatnonzero(deg > t))
    assert (np.diff(deg[longs]) <= 0).all()
    for a, b in itertools.pairwise(tiles):
        short = np.arange(a, b)[deg[a:b] <= t]
        assert (deg[a:b - 1] <= t).all()  # only a tile's last row may be long
        if short.size:
            assert ip[short[-1] + 1] - ip[a] < 2 * t
            assert len(set(ip[short] // t)) == 1


def nan_rows(seed=0):
    """Rows in every bin of the binned pull and of the tiled one (degrees 0 to 5000: groups of
    1 to 32 lanes, the 16-byte loads of the 32-lane groups and of a long row's block), starting
    at every offset mod 4, with NaN, inf and -inf weights: rows all NaN, one NaN among numbers,
    -inf (min's terminal) early and late."""
    from semiring.backend.gpu import spmv as _gpu

    rng = np.random.default_rng(seed)
    deg = np.concatenate([rng.integers(0, 70, 400), rng.integers(60, 300, 60),
                          [_gpu.LONG_ROW + 3, 129, 130, 131, 132, 5, 6, 7]])
    n = max(int(deg.max()) + 1, deg.size)
    rows = np.repeat(np.arange(deg.size), deg)
    cols = np.concatenate([rng.choice(n, d, replace=False) for d in deg])
    vals = rng.integers(-50, 100, rows.size).astype(np.float32)
    starts = np.r_[0, np.cumsum(deg)[:-1]]
    special = rng.random(deg.size)
    for r in np.flatnonzero(deg):
        s, d = starts[r], deg[r]
        if special[r] < 0.1:
            vals[s:s + d] = np.nan
        elif special[r] < 0.25:
            vals[s + rng.integers(d)] = np.nan
        elif special[r] < 0.35:
            vals[s + rng.integers(d)] = -np.inf
        elif special[r] < 0.45:
            vals[s + rng.integers(d)] = np.inf
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


@pytest.mark.parametrize("sname", ["min_plus", "max_plus", "min_first", "max_min", "plus_times"])
@pytest.mark.parametrize("tiled", ["always", "never", "warp"])
def test_gpu_pull_nan_inf(sname, tiled, monkeypatch):
    """NaN, inf and -inf products through the pull kernels (binned, tiled, warp-streamed), from the monoid's `empty` (fmin /
    fmax ignore a NaN, a row of NaN gives NaN) and through the (acc, found) folds, dense and
    sparse x (x holding NaN too), against the CPU backend; then the same matrix with its
    indices and values 4 bytes off a 16-byte boundary, where the 16-byte loads do not apply."""
    import cupy as cp

    from semiring.backend.gpu import spmv as _gpu

    S = nan_rows()
    n = S.shape[0]
    Ac = sr.Matrix.from_scipy(S, device="cpu")
    Ag = Ac.to_gpu()
    ind = cp.empty(S.nnz + 1, dtype=Ag.indices.dtype)
    val = cp.empty(S.nnz + 1, dtype=np.float32)
    ind[1:] = Ag.indices
    val[1:] = Ag.values
    Aoff = sr.Matrix(Ag.indptr, ind[1:], val[1:], Ag.shape)
    assert Aoff.indices.data.ptr % 16 != 0
    rng = np.random.default_rng(1)
    xd = rng.integers(-20, 20, n).astype(np.float32)
    xd[rng.random(n) < 0.02] = np.nan
    dense = sr.Vector.from_dense(xd, device="cpu")
    idx = np.sort(rng.choice(n, n // 2, replace=False))
    sparse = sr.Vector.from_coo(idx, xd[idx], size=n, device="cpu")
    monkeypatch.setattr(_gpu, "TILED", "never" if tiled == "warp" else tiled)
    monkeypatch.setattr(_gpu, "WARP", "always" if tiled == "warp" else "never")
    for uc in (dense, sparse):
        exp = sr.mxv(Ac, uc, sname, direction="pull")
        for A in (Ag, Aoff):
            got = sr.mxv(A, uc.to_gpu(), sname, direction="pull")
            _compare(sname, got, exp, Ac, uc, "mxv")
