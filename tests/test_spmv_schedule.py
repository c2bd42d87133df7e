"""The tiled pull's launch plan (semiring/backend/gpu/spmv.py ``tile_schedule``), checked on
host arrays, so that it runs without a GPU: every row of at most TILE entries lies in exactly
one tile, a tile's rows are consecutive with fewer than 2 * TILE entries (the kernel's shared
memory) and at most TILE_ROWS of them, only a tile's last row may be long, and the long rows
come longest first."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from semiring import kernels
from semiring.backend.gpu import spmv as gs


def check_plan(indptr, tile, max_rows=gs.TILE_ROWS):
    n = indptr.size - 1
    plan = gs.tile_schedule(indptr, n, tile, max_rows)
    tiles, longs = plan["tiles"], plan["long_rows"]
    deg = np.diff(indptr)
    assert tiles.dtype == indptr.dtype and longs.dtype == indptr.dtype
    assert tiles[0] == 0 and tiles[-1] == n and (np.diff(tiles) > 0).all()
    assert plan["ntiles"] == tiles.size - 1 and plan["nlong"] == longs.size
    assert plan["nblocks"] == plan["ntiles"] + plan["nlong"]
    np.testing.assert_array_equal(np.sort(longs), np.flatnonzero(deg > tile))
    assert (np.diff(deg[longs]) <= 0).all()
    covered = np.zeros(n, np.int64)
    for a, b in itertools.pairwise(tiles):
        assert b - a <= max_rows
        assert (deg[a:b - 1] <= tile).all()  # only a tile's last row may be long
        short = np.arange(a, b)[deg[a:b] <= tile]
        covered[short] += 1
        if short.size:
            assert indptr[short[-1] + 1] - indptr[a] < 2 * tile
    np.testing.assert_array_equal(covered, deg <= tile)


@pytest.mark.parametrize("itype", [np.int32, np.int64])
@given(degs=st.lists(st.one_of(st.integers(0, 6), st.integers(0, 80), st.integers(60, 300)),
                     min_size=1, max_size=200),
       tile=st.sampled_from([1, 7, 16, 64, 100]), max_rows=st.sampled_from([1, 3, 511]))
def test_tile_schedule_invariants(itype, degs, tile, max_rows):
    indptr = np.concatenate([[0], np.cumsum(degs)]).astype(itype)
    check_plan(indptr, tile, max_rows)


def test_tile_schedule_awkward():
    """Empty rows only, one row, rows of exactly TILE and TILE + 1 entries."""
    t = gs.TILE
    for degs in ([0] * 5, [3], [t], [t + 1], [t - 1, t, t + 1, 0, 0, 2 * t, 1, t + 1, t + 1],
                 [0, 0, t + 1, 0], [0] * 3000 + [5] * 1000 + [0] * 1100):
        check_plan(np.concatenate([[0], np.cumsum(degs)]).astype(np.int64), t)


def test_tile_constant_matches_kernel():
    """The launcher's TILE is the kernel's SR_TILE (its shared memory holds 2 * SR_TILE)."""
    m = re.search(r"#define SR_TILE (\d+)", kernels.text("spmv.cu"))
    assert m and int(m.group(1)) == gs.TILE


def test_pull_policy_tables():
    """The pull kernels' per-semiring choices, on the host: folds from `empty` (the EMPTY
    instantiation) for idempotent monoids other than `any`, with an `empty` that is neutral;
    the early exit kept for boolean results and `any` only (EARLY_EXIT_NUMERIC)."""
    import semiring as sr

    f32, b = np.dtype(np.float32), np.dtype(np.bool_)
    assert gs.folds_from_empty(sr.min_plus.add, f32) and gs.folds_from_empty(sr.lor_land.add, b)
    assert not gs.folds_from_empty(sr.plus_times.add, f32)
    assert not gs.folds_from_empty(sr.any_pair.add, f32)
    assert np.isnan(gs._empty(sr.min_plus.add, f32))
    assert gs._empty(sr.min_plus.add, np.dtype(np.int64)) == np.iinfo(np.int64).max
    assert gs._empty(sr.max_min.add, np.dtype(np.int32)) == np.iinfo(np.int32).min
    assert gs.kernel_name("spmv_pull", sr.min_plus, np.float32, np.int32).endswith(", true>")
    assert gs.kernel_name("spmv_tile", sr.plus_times, np.float32, np.int64).endswith(", false>")
    assert gs._pull_terminal(sr.min_plus.add, f32)[0] == (
        gs.TERM_VALUE if gs.EARLY_EXIT_NUMERIC else gs.TERM_NONE)
    assert gs._pull_terminal(sr.lor_land.add, b)[0] == gs.TERM_VALUE
    assert gs._pull_terminal(sr.any_pair.add, f32)[0] == gs.TERM_ANY
    assert gs._pull_terminal(sr.plus_times.add, f32)[0] == gs.TERM_NONE


def check_warp_plan(indptr, tile, max_rows, long_row):
    """spmv_warp's plan: consecutive tasks covering every row once; a long row (more than
    ``long_row`` entries) only as a task's last row (the kernel leaves it to its block), listed
    in ``long_rows`` longest first; a block holds BLOCK / 32 tasks after the long rows'."""
    n = indptr.size - 1
    plan = gs.warp_schedule(indptr, n, tile, max_rows, long_row)
    tasks, longs = plan["tasks"], plan["long_rows"]
    deg = np.diff(indptr)
    assert tasks.dtype == indptr.dtype and longs.dtype == indptr.dtype
    assert tasks[0] == 0 and tasks[-1] == n and (np.diff(tasks) > 0).all()
    assert plan["ntasks"] == tasks.size - 1 and plan["nlong"] == longs.size
    assert plan["long_row"] == long_row
    assert plan["nblocks"] == plan["nlong"] + -(-plan["ntasks"] // (gs.BLOCK // 32))
    np.testing.assert_array_equal(np.sort(longs), np.flatnonzero(deg > long_row))
    assert (np.diff(deg[longs]) <= 0).all()
    for a, b in itertools.pairwise(tasks):
        assert b - a <= max_rows
        assert (deg[a:b - 1] <= long_row).all()


@pytest.mark.parametrize("itype", [np.int32, np.int64])
@given(degs=st.lists(st.one_of(st.integers(0, 6), st.integers(0, 80), st.integers(60, 300)),
                     min_size=1, max_size=200),
       tile=st.sampled_from([1, 7, 16, 64]), max_rows=st.sampled_from([1, 3, 40]),
       long_row=st.sampled_from([64, 100, 250]))
def test_warp_schedule_invariants(itype, degs, tile, max_rows, long_row):
    indptr = np.concatenate([[0], np.cumsum(degs)]).astype(itype)
    check_warp_plan(indptr, tile, max_rows, long_row)


def test_warp_schedule_awkward():
    """Empty rows only, one row, rows of exactly WARP_LONG_ROW and WARP_LONG_ROW + 1 entries."""
    t, r = gs.WARP_TILE, gs.WARP_LONG_ROW
    for degs in ([0] * 5, [3], [r], [r + 1], [t - 1, t, t + 1, 0, 0, r, r + 1, 1, 2 * r, 0],
                 [0, 0, r + 1, 0], [0] * 3000 + [5] * 1000 + [0] * 1100):
        check_warp_plan(np.concatenate([[0], np.cumsum(degs)]).astype(np.int64), t,
                        gs.WARP_ROWS, r)


def test_warp_policy(monkeypatch):
    """Where the launcher takes the warp-streamed pull (use_warp, on the host): "auto" for
    4-byte indices and values with a mean degree of at least WARP_MIN_MEAN_DEGREE,
    idempotent monoids with an `empty` and no early exit, no mask, every x(k) present, a
    multiply that is not positional; "always" / "never" as named."""
    import types

    import semiring as sr

    f32 = np.dtype(np.float32)
    dense = types.SimpleNamespace(itype=np.dtype(np.int32), nvals=8000,
                                  nrows=8000 // gs.WARP_MIN_MEAN_DEGREE)
    monkeypatch.setattr(gs, "WARP", "auto")
    assert gs.use_warp(dense, sr.min_plus, None, None, f32)
    assert gs.use_warp(dense, sr.max_min, None, None, f32)
    assert not gs.use_warp(dense, sr.plus_times, None, None, f32)  # no `empty`
    assert not gs.use_warp(dense, sr.lor_land, None, None, np.dtype(np.bool_))  # early exit
    assert not gs.use_warp(dense, sr.min_plus, object(), None, f32)  # a mask
    assert not gs.use_warp(dense, sr.min_plus, None, object(), f32)  # x not all present
    assert not gs.use_warp(dense, sr.min_secondi, None, None, f32)  # positional
    assert not gs.use_warp(dense, sr.min_plus, None, None, np.dtype(np.float64))
    sparse = types.SimpleNamespace(itype=dense.itype, nvals=dense.nvals - 1, nrows=dense.nrows)
    assert not gs.use_warp(sparse, sr.min_plus, None, None, f32)
    wide = types.SimpleNamespace(itype=np.dtype(np.int64), nvals=dense.nvals, nrows=dense.nrows)
    assert not gs.use_warp(wide, sr.min_plus, None, None, f32)
    monkeypatch.setattr(gs, "WARP", "always")
    assert gs.use_warp(sparse, sr.min_plus, None, None, f32)
    assert not gs.use_warp(sparse, sr.plus_times, None, None, f32)
    monkeypatch.setattr(gs, "WARP", "never")
    assert not gs.use_warp(dense, sr.min_plus, None, None, f32)
