"""Fused push levels (semiring.traversal.push_levels) against SciPy's BFS levels, including
every way the fused run hands back: done, wide, overflow, limit."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

import semiring as sr
from conftest import to_host
from semiring import traversal


def grid(k):
    """A k × k 4-neighbour grid, both directions."""
    idx = np.arange(k * k).reshape(k, k)
    r = np.r_[idx[:, :-1].ravel(), idx[:-1, :].ravel()]
    c = np.r_[idx[:, 1:].ravel(), idx[1:, :].ravel()]
    return sp.coo_matrix((np.ones(2 * r.size), (np.r_[r, c], np.r_[c, r])), shape=(k * k,) * 2).tocsr()


def levels_of(S, source):
    d = shortest_path(S, unweighted=True, indices=source)
    return np.where(np.isinf(d), -1, d).astype(np.int64)


def start(A, source, parents):
    xp = A.xp
    level = xp.full(A.nrows, -1, dtype=xp.int64)
    level[source] = 0
    parent = None
    if parents:
        parent = xp.full(A.nrows, -1, dtype=xp.int64)
        parent[source] = source
    return level, parent, xp.asarray([source])


def check_parents(S, level, parent, deterministic):
    C = S.tocsc()
    for v in np.flatnonzero(level > 0):
        ins = C.indices[C.indptr[v]:C.indptr[v + 1]]
        prev = ins[level[ins] == level[v] - 1]
        assert parent[v] in prev
        if deterministic:
            assert parent[v] == prev.min()


@pytest.mark.parametrize("parents,deterministic", [(False, False), (True, False), (True, True)])
def test_grid_runs_to_the_end_in_one_call(device, parents, deterministic):
    S = grid(40)
    A = sr.Matrix.from_scipy(S, device=device)
    level, parent, q = start(A, 5, parents)
    status, depth, levels = traversal.push_levels(A, level, q, 0, parent=parent,
                                                  deterministic=deterministic)
    exp = levels_of(S, 5)
    assert (status, depth, levels) == ("done", exp.max(), exp.max())
    np.testing.assert_array_equal(to_host(level), exp)
    if parents:
        check_parents(S, exp, to_host(parent), deterministic)


def test_hand_backs(device):
    S = grid(30)
    A = sr.Matrix.from_scipy(S, device=device)
    exp = levels_of(S, 0)
    # limit: three levels, then on from the frontier at depth 3
    level, _, q = start(A, 0, False)
    assert traversal.push_levels(A, level, q, 0, max_levels=3) == ("limit", 3, 3)
    np.testing.assert_array_equal(to_host(level), np.where(exp <= 3, exp, -1))
    xp = A.xp
    q = xp.flatnonzero(level == 3)
    assert traversal.push_levels(A, level, q, 3) == ("done", exp.max(), exp.max() - 3)
    np.testing.assert_array_equal(to_host(level), exp)
    # wide: the frontier at depth 4 (5 vertices, 16 out-edges) is not expanded
    level, _, q = start(A, 0, False)
    assert traversal.push_levels(A, level, q, 0, max_edges=15) == ("wide", 4, 4)
    np.testing.assert_array_equal(to_host(level), np.where(exp <= 4, exp, -1))


def test_overflow_of_the_queue(device):
    n = traversal.QUEUE + 100  # a star: the centre's leaves outgrow the queue
    rows = np.r_[np.zeros(n - 1, dtype=np.int64), np.arange(1, n)]
    cols = np.r_[np.arange(1, n), np.zeros(n - 1, dtype=np.int64)]
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    A = sr.Matrix.from_scipy(S, device=device)
    level, parent, q = start(A, 0, True)
    assert traversal.push_levels(A, level, q, 0, parent=parent, max_edges=2**20) == ("overflow", 1, 1)
    np.testing.assert_array_equal(to_host(level), levels_of(S, 0))
    np.testing.assert_array_equal(to_host(parent)[1:], 0)


def test_directed_and_unreachable(device):
    rng = np.random.default_rng(3)
    n = 500
    S = sp.random(n, n, density=0.004, random_state=rng, format="csr")
    S.data[:] = 0.0  # explicit zeros are edges too
    A = sr.Matrix.from_scipy(S, device=device)
    for source in (0, 17, 499):
        level, parent, q = start(A, source, True)
        status, depth, _ = traversal.push_levels(A, level, q, 0, parent=parent, deterministic=True)
        exp = levels_of(S, source)
        assert status == "done" and depth == exp.max()
        np.testing.assert_array_equal(to_host(level), exp)
        check_parents(S, exp, to_host(parent), True)


def test_errors(device):
    A = sr.Matrix.from_scipy(grid(3), device=device)
    xp = A.xp
    level = xp.full(9, -1, dtype=xp.int64)
    with pytest.raises(sr.DomainMismatch, match="level must be an int64"):
        traversal.push_levels(A, level.astype(xp.int32), xp.asarray([0]), 0)
    with pytest.raises(sr.DomainMismatch, match=r"level must be an int64 .* of shape \(9,\)"):
        traversal.push_levels(A, level[:4], xp.asarray([0]), 0)
    with pytest.raises(sr.DomainMismatch, match="frontier must be a 1-D integer"):
        traversal.push_levels(A, level, xp.asarray([0.0]), 0)
    with pytest.raises(sr.InvalidValue, match="max_edges must lie in"):
        traversal.push_levels(A, level, xp.asarray([0]), 0, max_edges=0)
    with pytest.raises(sr.DimensionMismatch, match="must be square"):
        traversal.push_levels(sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device=device),
                              level, xp.asarray([0]), 0)
