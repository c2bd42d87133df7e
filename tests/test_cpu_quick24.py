"""Session 24 (cpu24): the CPU quick suite against SciPy, the mechanisms behind its rows.

- ``semiring.matrix.canonical_csr``'s scan of the rows (one flag array, the row offsets
  scattered unfiltered, in NumPy's index type): the same answers as the definition on rows
  that are empty, at either end, unsorted or repeated, with a flag that lies (its speed is
  in bench/results/session24/cpu24_report.md, not a test);
- ``compiled.msbfs``'s threaded searches trip and back off as the parallel pull does;
- the csgraph facade's strong components on a host CSR: SciPy's Tarjan is handed the
  input's own index arrays with one broadcast float64 value, not the input (whose float32
  values SciPy's validation copied to float64 with both index arrays, then scanned).
"""

from __future__ import annotations

import importlib
import os

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import semiring as sr
from algorithms import csgraph
from semiring.matrix import canonical_csr

_graphalg = importlib.import_module("algorithms.csgraph._graphalg")
_validation = importlib.import_module("algorithms.csgraph._validation")


def _canonical_by_definition(indptr, indices) -> bool:
    return all(bool((np.diff(indices[indptr[i]:indptr[i + 1]]) > 0).all())
               for i in range(indptr.size - 1))


def _random_csr(rng, n, density, dtype=np.float32):
    A = sp.random(n, n, density=density, format="csr", dtype=dtype, random_state=rng)
    A.sum_duplicates()
    return sp.csr_matrix((A.data + 1, A.indices.astype(np.int32), A.indptr.astype(np.int32)),
                         shape=A.shape)


@pytest.mark.parametrize("seed", range(40))
def test_canonical_csr_matches_its_definition(seed):
    """Rows empty (first, last, runs of them), single-entry rows, and one entry moved or
    repeated at a row's start, middle or end, with the flag set to True (a lie where the
    rows say otherwise): the answer is the rows' own order."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 9))
    S = _random_csr(rng, n, float(rng.choice([0.0, 0.2, 0.6, 1.0])))
    indptr, indices = S.indptr.copy(), S.indices.copy()
    if indices.size and rng.random() < 0.7:
        k = int(rng.integers(0, indices.size))
        if rng.random() < 0.5:  # a repeat of the previous entry (perhaps the previous row's)
            indices[k] = indices[k - 1] if k else indices[k]
        else:  # any column: sorted, unsorted or a repeat
            indices[k] = int(rng.integers(0, n))
    T = sp.csr_matrix((S.data, indices, indptr), shape=S.shape)
    T.has_canonical_format = True
    assert canonical_csr(T) == _canonical_by_definition(indptr, indices)


def test_canonical_csr_row_starts_only_excuse_a_drop():
    """A drop in the column order is allowed only at a row's first entry: across an empty
    row, at the last entry's row, and not within a row."""
    ok = sp.csr_matrix((np.ones(4), np.array([2, 3, 0, 1], dtype=np.int32),
                        np.array([0, 2, 2, 4, 4], dtype=np.int32)), shape=(4, 4))
    bad = sp.csr_matrix((np.ones(4), np.array([2, 3, 1, 1], dtype=np.int32),
                         np.array([0, 2, 2, 4, 4], dtype=np.int32)), shape=(4, 4))
    ok.has_canonical_format = bad.has_canonical_format = True
    assert canonical_csr(ok) and not canonical_csr(bad)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_strong_components_hand_scipy_the_structure(monkeypatch, dtype):
    """Host CSR, canonical rows: SciPy's strong components receive a float64 CSR over the
    input's own indptr and indices (shared, not copied) with a broadcast value (stride 0)
    and the canonical flag set, so that SciPy's validation copies and scans nothing; the
    answer is SciPy's on the input itself."""
    rng = np.random.default_rng(7)
    S = _random_csr(rng, 300, 0.01, dtype)
    seen = []
    real = scg.connected_components

    def spy(G, *args, **kw):
        seen.append(G)
        return real(G, *args, **kw)

    monkeypatch.setattr(_graphalg._scg, "connected_components", spy)
    n, labels = csgraph.connected_components(S, connection="strong")
    monkeypatch.setattr(_graphalg._scg, "connected_components", real)
    want = real(S, connection="strong")
    assert int(n) == int(want[0]) and np.array_equal(labels, want[1])
    assert len(seen) == 1
    G = seen[0]
    assert G.dtype == np.float64 and G.data.strides == (0,)
    assert G.indices is S.indices or np.shares_memory(G.indices, S.indices)
    assert G.indptr is S.indptr or np.shares_memory(G.indptr, S.indptr)
    assert G._has_canonical_format is True


def test_strong_components_of_a_lying_flag_still_scan():
    """The structure view is only for rows that the scan found canonical: a CSR whose flag
    claims canonical over a repeat still goes to the duplicate-dropping path (SciPy's search
    would not return), with SciPy's answer for the honest CSR."""
    indices = np.array([3, 3, 5, 4, 3, 1, 5, 4, 2, 5, 4, 0], dtype=np.int32)
    indptr = np.array([0, 3, 6, 6, 10, 11, 12], dtype=np.int32)
    honest = sp.csr_array((np.ones(12, dtype=np.float32), indices, indptr), shape=(6, 6))
    want = csgraph.connected_components(honest, connection="strong")
    lying = sp.csr_array((np.ones(12, dtype=np.float32), indices, indptr), shape=(6, 6))
    lying.has_canonical_format = True
    got = csgraph.connected_components(lying, connection="strong")
    assert int(got[0]) == int(want[0]) and np.array_equal(got[1], want[1])


def _spy_on(monkeypatch, name):
    seen = []
    real = getattr(scg, name)
    mod = importlib.import_module("algorithms.csgraph._traversal")

    def spy(G, *args, **kw):
        seen.append(G)
        return real(G, *args, **kw)

    monkeypatch.setattr(mod.scg, name, spy)
    return seen, real


@pytest.mark.parametrize("name", ["breadth_first_order", "depth_first_order"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_directed_orders_hand_scipy_the_structure(monkeypatch, name, dtype):
    """Host CSR, ``directed=True``: SciPy's search receives a float64 CSR over the input's
    own index arrays (shared) with a broadcast value, the canonical flag set where the rows
    were scanned (another dtype than float64), and answers as on the input itself."""
    rng = np.random.default_rng(3)
    S = _random_csr(rng, 400, 0.01, dtype)
    seen, real = _spy_on(monkeypatch, name)
    s = int(np.flatnonzero(np.diff(S.indptr))[0])
    order, pred = getattr(csgraph, name)(S, s)
    monkeypatch.setattr(importlib.import_module("algorithms.csgraph._traversal").scg, name, real)
    want = real(S, s)
    assert np.array_equal(order, want[0]) and np.array_equal(pred, want[1])
    G = seen[0]
    assert G.dtype == np.float64 and G.data.strides == (0,)
    assert np.shares_memory(G.indices, S.indices) and np.shares_memory(G.indptr, S.indptr)
    if dtype != np.float64:
        assert G._has_canonical_format is True


@pytest.mark.parametrize("name", ["breadth_first_order", "depth_first_order"])
@pytest.mark.parametrize("seed", range(12))
def test_directed_orders_follow_scipy_on_unsorted_and_repeated_rows(name, seed):
    """Rows unsorted or repeated (float32: SciPy's cast sums and sorts them; float64: SciPy
    reads them as stored), with a flag that tells the truth or lies, directed and not: the
    facade's order and predecessors are SciPy's on the same input."""
    rng = np.random.default_rng(seed)
    n = 30
    m = 120
    rows = np.sort(rng.integers(0, n, m))
    cols = rng.integers(0, n, m).astype(np.int32)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n))]).astype(np.int32)
    for dtype in (np.float32, np.float64):
        for lie in (False, True):
            for directed in (True, False):
                def make():
                    T = sp.csr_matrix((np.ones(m, dtype=dtype), cols.copy(), indptr.copy()),
                                      shape=(n, n))
                    if lie:
                        T.has_canonical_format = True
                    return T
                s = int(rows[0])
                got = getattr(csgraph, name)(make(), s, directed)
                want = getattr(scg, name)(make(), s, directed)
                assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]), \
                    (dtype, lie, directed)


def test_threaded_multi_source_bfs_backs_off_when_slow(monkeypatch):
    """The threaded searches of ``compiled.msbfs`` (a multi-source BFS of 4 sources or more)
    trip as the parallel pull does: a call slower than its serial estimate turns the threads
    off for PARALLEL_BACKOFF_S, so that the next call runs serially (at load 3.5 on the
    2-core host the threaded searches of urand-10-ef4 took 16 ms against 0.7 serial, and
    nothing turned them off). The levels stay SciPy's."""
    compiled = importlib.import_module("semiring.backend.cpu.compiled")
    if not compiled.ENABLED:
        pytest.skip("Numba is not installed")
    nb = compiled._numba()
    if nb.get_num_threads() < 2:
        pytest.skip("one thread")
    monkeypatch.setattr(compiled.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    rng = np.random.default_rng(5)
    S = _random_csr(rng, 200, 0.02, np.float64)
    M = sr.Matrix.from_scipy(S, device="cpu")
    sources = np.arange(8, dtype=np.int64)
    level = np.empty((sources.size, 200), dtype=np.int64)
    # a first threaded call compiles or loads its overload (not timed); whether this worker
    # process made it already depends on the tests before (CI's order: it had)
    monkeypatch.setattr(compiled, "_load", [-1e9, 1, -1e9, os.getpid()])
    assert compiled.msbfs(M, sources, level)
    # then every timed threaded call counts as slow: one, and the threads are off
    monkeypatch.setattr(compiled, "MSBFS_NS_PER_STEP", 0.0)
    monkeypatch.setattr(compiled, "PARALLEL_TRIP_US", -1e9)
    monkeypatch.setattr(compiled, "_load", [-1e9, 1, -1e9, os.getpid()])
    assert compiled._threads() == nb.get_num_threads()
    assert compiled.msbfs(M, sources, level)
    assert compiled._threads() == 1
    d = scg.shortest_path(S, unweighted=True, indices=sources)
    assert np.array_equal(level, np.where(np.isinf(d), -1, d).astype(np.int64))


def _diamonds(k):
    """k diamonds in series (2^k shortest paths end to end: σ passes float64's range from
    k = 1024), plus a tail, as edge lists of an undirected graph."""
    edges = []
    for i in range(k):
        a, b, c, d = 3 * i, 3 * i + 1, 3 * i + 2, 3 * i + 3
        edges += [(a, b), (a, c), (b, d), (c, d)]
    edges.append((3 * k, 3 * k + 1))
    return np.array(edges)


@pytest.mark.parametrize("case", ["random-directed", "random-undirected", "grid", "sample",
                                  "diamonds"])
def test_edge_betweenness_passes_are_the_algebra_forms_bits(monkeypatch, case):
    """On the CPU with Numba, ``algorithms.edge_betweenness_centrality`` runs a compiled
    pass a source (``sr.centrality.brandes_edges``), not the algebra form's masked SpMM a
    BFS level (a 50 × 50 grid: 11.7 s against 0.05 s); its result has the algebra form's
    bits (NaN where σ overflows, as NetworkX's terms), directed or not, all sources or a
    sample."""
    import algorithms  # noqa: PLC0415  (this test's own use: the analytics package)

    compiled = importlib.import_module("semiring.backend.cpu.compiled")
    if not compiled.ENABLED:
        pytest.skip("Numba is not installed")
    eb = importlib.import_module("algorithms.edge_betweenness")
    cent = importlib.import_module("algorithms.centrality")
    rng = np.random.default_rng(11)
    kw = {}
    if case.startswith("random"):
        S = _random_csr(rng, 120, 0.03, np.float64)
        A = sr.Matrix.from_scipy(S, device="cpu")
        kw["directed"] = case.endswith("-directed")
    elif case == "grid":
        A = sr.Matrix.from_edgelist([(r * 9 + c, r * 9 + c + 1) for r in range(7)
                                     for c in range(8)]
                                    + [(r * 9 + c, r * 9 + c + 9) for r in range(6)
                                       for c in range(9)], undirected=True, device="cpu")
    elif case == "sample":
        A = sr.Matrix.from_scipy(_random_csr(rng, 150, 0.02, np.float64), device="cpu")
        kw.update(k=17, seed=3, normalized=False)
    else:
        A = sr.Matrix.from_edgelist(_diamonds(1030), undirected=True, device="cpu")
        kw["sources"] = [0, 5, 3 * 1030]
    calls = []
    real = eb._batch_edges
    monkeypatch.setattr(eb, "_batch_edges", lambda *a: calls.append(1) or real(*a))
    got = algorithms.edge_betweenness_centrality(A, **kw)
    assert calls == []  # the passes ran, not the algebra form
    monkeypatch.setattr(cent, "FORM", "algebra")
    want = algorithms.edge_betweenness_centrality(A, **kw)
    assert calls  # (the algebra form this time)
    g, w = got.to_coo(), want.to_coo()
    assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(g, w))
    if case == "diamonds":
        assert np.isnan(g[2]).any()


@pytest.mark.parametrize("seed", range(6))
def test_weak_components_of_a_host_csr_run_the_compiled_union(monkeypatch, seed):
    """Host CSR, weak (or ``directed=False``): with Numba the facade runs the CPU backend's
    compiled union over the input's own arrays, not SciPy's search (whose validation copied
    a float32 CSR to float64 and built its transpose); SciPy's answer on the same input:
    count, labels and their int32 type, with unsorted rows, repeats and explicit zeros."""
    if not sr.centrality.compiled("cpu"):
        pytest.skip("Numba is not installed")
    rng = np.random.default_rng(seed)
    n, m = 60, 70
    rows = np.sort(rng.integers(0, n, m))
    cols = rng.integers(0, n, m).astype(np.int32)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n))]).astype(np.int32)
    vals = rng.integers(0, 3, m).astype(np.float32)  # (explicit zeros: edges to SciPy too)
    S = sp.csr_matrix((vals, cols, indptr), shape=(n, n))
    want_weak = scg.connected_components(S.copy(), connection="weak")
    want_undirected = scg.connected_components(S.copy(), directed=False)

    def refuse(*a, **k):
        raise AssertionError("SciPy's search ran")

    monkeypatch.setattr(_graphalg._scg, "connected_components", refuse)
    for got, want in ((csgraph.connected_components(S, connection="weak"), want_weak),
                      (csgraph.connected_components(S, directed=False), want_undirected)):
        assert got[0] == want[0] and got[1].dtype == want[1].dtype
        assert np.array_equal(got[1], want[1])
