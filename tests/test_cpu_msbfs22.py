"""The CPU's multi-source BFS by one compiled search a source (session 22,
``semiring.backend.cpu.compiled.msbfs``): the levels and BFS trees of SciPy's
``breadth_first_order`` from each source, as the per-source path makes them, on raw CSRs
(rows unsorted, duplicates, self-loops, int32 and int64 indices), serial and over threads."""

from __future__ import annotations

import numpy as np
import pytest

import algorithms
import semiring as sr
from semiring.backend.cpu import compiled
from semiring.backend.cpu import traversal as cpu_traversal

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="Numba is not installed")


def _raw_csr(rng, n, m, itype):
    r = np.sort(rng.integers(0, n, m))
    c = rng.integers(0, n, m)  # unsorted within rows, duplicates and self-loops kept
    indptr = np.searchsorted(r, np.arange(n + 1)).astype(itype)
    return sr.Matrix(indptr, c.astype(itype), None, (n, n), iso_value=True, dtype=np.bool_)


@pytest.mark.parametrize("threads", [1, 2])
def test_compiled_searches_are_scipys_a_source(monkeypatch, threads):
    monkeypatch.setattr(compiled, "_threads", lambda: threads)
    rng = np.random.default_rng(22)
    for _ in range(120):
        n = int(rng.integers(1, 80))
        A = _raw_csr(rng, n, int(rng.integers(0, 4 * n + 1)),
                     np.int64 if rng.random() < 0.3 else np.int32)
        src = rng.integers(0, n, int(rng.integers(2, 9)))
        for parents in (False, True):
            level, parent = sr.traversal.bfs_csgraph(A, src, parents=parents)
            for j, s in enumerate(src.tolist()):
                want_level, want_parent = cpu_traversal.bfs_csgraph(A, s, parents, False)
                np.testing.assert_array_equal(level[j], want_level)
                if parents:
                    np.testing.assert_array_equal(parent[j], want_parent)


def test_multi_source_bfs_without_numba_is_the_same(monkeypatch):
    rng = np.random.default_rng(5)
    A = _raw_csr(rng, 300, 900, np.int32)
    src = rng.integers(0, 300, 16)
    got = algorithms.multi_source_bfs(A, src, parents=True)
    monkeypatch.setattr(compiled, "ENABLED", False)
    want = algorithms.multi_source_bfs(A, src, parents=True)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert got[0].dtype == want[0].dtype == np.int64


def test_a_long_path_from_many_sources():
    n = 100_000  # diameter 10^5: the queue, not a level loop
    A = sr.Matrix.from_coo(np.arange(n - 1), np.arange(1, n), None, nrows=n, ncols=n,
                           device="cpu")
    src = np.array([0, n // 2, n - 1, 0])
    level = algorithms.multi_source_bfs(A, src)
    np.testing.assert_array_equal(level[0], np.arange(n))
    np.testing.assert_array_equal(level[1, n // 2:], np.arange(n - n // 2))
    assert (level[1, : n // 2] == -1).all()
    assert level[2, n - 1] == 0 and (level[2, : n - 1] == -1).all()
    np.testing.assert_array_equal(level[3], level[0])


def test_warm_searches_compiles_the_searches_a_first_call_needs():
    """``python -m semiring.warmup --cpu`` warms the searches too: their kernels exist after
    it (the memo holds both msbfs variants and the Tarjan replica), and a search after it is
    SciPy's."""
    assert compiled.warm_searches() == 16
    assert compiled._kernels.get(("msbfs", False)) and compiled._kernels.get(("msbfs", True))
    # the distances-only Dijkstra (algorithms.sssp's CPU route), both index widths
    assert len(compiled.dijkstra_kernel().signatures) >= 2
    assert set(compiled._tarjan_k) == set(compiled.TARJAN_VARIANTS) and compiled._groups_k is not None
    assert compiled._spfa_k is not None
    A = _raw_csr(np.random.default_rng(3), 50, 120, np.int32)
    level, _ = sr.traversal.bfs_csgraph(A, [0, 7])
    np.testing.assert_array_equal(level[1], cpu_traversal.bfs_csgraph(A, 7, False, False)[0])
