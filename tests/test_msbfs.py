"""Multi-source BFS against scipy.sparse.csgraph (one row per source), against the single-source
engine BFS source by source, parents validated (exact when deterministic), on every backend."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from scipy.sparse.csgraph import shortest_path

import algorithms
import semiring as sr
from conftest import to_host

bfs_module = importlib.import_module("algorithms.bfs")  # the module: algorithms.bfs is the function


@st.composite
def graphs_and_sources(draw, max_n=40):
    """Directed or undirected graphs with duplicates, self-loops, explicit zeros, a
    disconnected block, sometimes no edges at all; sources with repeats (maybe none)."""
    n = draw(st.integers(0, max_n))
    m = draw(st.integers(0, 4 * n)) if draw(st.integers(0, 4)) else 0
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    rows, cols = rng.integers(0, max(n, 1), m), rng.integers(0, max(n, 1), m)
    if draw(st.booleans()):  # isolate a block of vertices: disconnected parts
        cut = draw(st.integers(0, n))
        keep = (rows < cut) == (cols < cut)
        rows, cols = rows[keep], cols[keep]
    undirected = draw(st.booleans())
    if undirected:
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    vals = rng.integers(0, 3, rows.size).astype(np.float64)  # explicit zeros are edges too
    S = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    sources = draw(st.lists(st.integers(0, n - 1), max_size=6)) if n else []
    return S, sources, undirected


def reference_levels(S, sources):
    """(len(sources), n) levels from SciPy, -1 where unreached."""
    n = S.shape[0]
    if not len(sources):
        return np.zeros((0, n), dtype=np.int64)
    d = shortest_path(S, method="D", unweighted=True, indices=sources, directed=True)
    return np.where(np.isinf(d), -1, d).astype(np.int64).reshape(len(sources), n)


def check_parents(S, sources, level, parent, deterministic):
    """Every row a BFS tree of its source: parent[src] = src, -1 exactly where unreached, each
    parent edge exists and lies one level up; with ``deterministic`` the smallest such one."""
    n = S.shape[0]
    assert parent.shape == level.shape and parent.dtype == np.int64
    E = S.copy()
    E.data[:] = 1  # structure: explicit zeros are edges
    E = E.toarray() > 0
    for j, src in enumerate(sources):
        lv, par = level[j], parent[j]
        assert par[src] == src
        np.testing.assert_array_equal(par < 0, lv < 0)
        v = np.flatnonzero((lv > 0))
        p = par[v]
        assert ((p >= 0) & (p < n)).all()
        assert E[p, v].all(), "a parent edge that is not in the graph"
        np.testing.assert_array_equal(lv[p], lv[v] - 1)
        if deterministic and v.size:
            cand = E[:, v] & (lv[:, None] == (lv[v] - 1)[None, :])
            np.testing.assert_array_equal(p, cand.argmax(axis=0))


@given(g=graphs_and_sources(), parents=st.booleans(), deterministic=st.booleans(),
       hint=st.booleans(), device_loop=st.booleans())
def test_msbfs_against_scipy_and_single_source(device, g, parents, deterministic, hint,
                                               device_loop):
    S, sources, undirected = g
    A = sr.Matrix.from_scipy(S, device=device)
    src_in = np.array(sources, dtype=np.int64)
    keep = src_in.copy()
    with pytest.MonkeyPatch.context() as mp:  # the GPU's bit-parallel launch, or the loop
        mp.setattr(bfs_module, "DEVICE_LOOP", device_loop)
        out = algorithms.multi_source_bfs(A, src_in, parents=parents,
                                          deterministic=deterministic,
                                          symmetric=undirected and hint)
    np.testing.assert_array_equal(src_in, keep)  # the caller's array is not modified
    level = out[0] if parents else out
    assert type(level) is type(A.indptr)  # on A's device
    level = to_host(level)
    n = S.shape[0]
    assert level.shape == (len(sources), n) and level.dtype == np.int64
    np.testing.assert_array_equal(level, reference_levels(S, sources))
    if parents:
        parent = to_host(out[1])
        check_parents(S, sources, level, parent, deterministic)
    # the same answer as the single-source engine BFS, source by source
    for j, src in enumerate(sources):
        one = algorithms.bfs(A, src, parents=parents, deterministic=deterministic)
        np.testing.assert_array_equal(to_host(one[0] if parents else one), level[j])
        if parents and deterministic:
            np.testing.assert_array_equal(to_host(one[1]), parent[j])


@pytest.mark.parametrize("device_loop", [True, False])
@pytest.mark.parametrize("s", [1, 31, 33, 64, 65, 100, 129])
@pytest.mark.parametrize("parents,deterministic", [(False, False), (True, False), (True, True)])
def test_msbfs_many_sources_skewed_graph(device, s, parents, deterministic, device_loop,
                                         monkeypatch):
    """Frontier matrices wider than a GPU column tile or a 64-source word, hubs with long
    rows, repeated sources; the GPU's bit-parallel launch and the SpMM loop."""
    monkeypatch.setattr(bfs_module, "DEVICE_LOOP", device_loop)
    rng = np.random.default_rng(s)
    n = 600
    deg = np.minimum((rng.pareto(1.2, n) * 1.5).astype(np.int64) + 1, n - 1)
    rows = np.repeat(np.arange(n), deg)
    cols = rng.integers(0, n - 50, rows.size)  # the last 50 vertices have no in-edges
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    sources = rng.integers(0, n - 50, s)
    sources[-1] = sources[0]
    A = sr.Matrix.from_scipy(S, device=device)
    out = algorithms.multi_source_bfs(A, sources, parents=parents, deterministic=deterministic)
    level = to_host(out[0] if parents else out)
    exp = reference_levels(S, sources)
    np.testing.assert_array_equal(level, exp)
    np.testing.assert_array_equal(level[-1], level[0])
    assert exp.max() >= 3 and (exp < 0).any()
    if parents:
        check_parents(S, sources, level, to_host(out[1]), deterministic)


def test_msbfs_undirected_symmetric_hint_and_grid(device):
    """A 2-D grid (many levels), read through A itself with symmetric=True; the caller's
    Matrix keeps its own transpose cache untouched."""
    k = 12
    idx = np.arange(k * k).reshape(k, k)
    r = np.r_[idx[:, :-1].ravel(), idx[:-1, :].ravel()]
    c = np.r_[idx[:, 1:].ravel(), idx[1:, :].ravel()]
    S = sp.coo_matrix((np.ones(2 * r.size), (np.r_[r, c], np.r_[c, r])),
                      shape=(k * k, k * k)).tocsr()
    A = sr.Matrix.from_scipy(S, device=device)
    sources = [0, k * k - 1, 5 * k + 7]
    lv, par = algorithms.multi_source_bfs(A, sources, parents=True, deterministic=True,
                                          symmetric=True)
    assert A._T is None
    lv, par = to_host(lv), to_host(par)
    np.testing.assert_array_equal(lv, reference_levels(S, sources))
    assert lv[0].max() == 2 * (k - 1)
    check_parents(S, sources, lv, par, deterministic=True)


def test_msbfs_empty_inputs(device):
    E = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    lv, par = algorithms.multi_source_bfs(E, [], parents=True)
    assert to_host(lv).shape == (0, 0) and to_host(par).shape == (0, 0)
    B = sr.Matrix.from_coo([], [], None, nrows=5, ncols=5, device=device)  # no edges
    lv, par = algorithms.multi_source_bfs(B, [4, 0, 4], parents=True)
    exp = np.full((3, 5), -1)
    exp[[0, 1, 2], [4, 0, 4]] = 0
    np.testing.assert_array_equal(to_host(lv), exp)
    np.testing.assert_array_equal(to_host(par), np.where(exp == 0, [[4], [0], [4]], -1))
    lv = algorithms.multi_source_bfs(B, np.array([], dtype=np.int32))
    assert to_host(lv).shape == (0, 5) and lv.dtype == np.int64


def test_msbfs_errors(device):
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch,
                       match=r"multi_source_bfs: A must be square, got shape \(2, 3\)"):
        algorithms.multi_source_bfs(A, [0])
    B = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidIndex, match=r"multi_source_bfs: sources must lie in \[0, 2\), got 2"):
        algorithms.multi_source_bfs(B, [0, 2, 1])
    with pytest.raises(sr.InvalidIndex, match=r"got -1"):
        algorithms.multi_source_bfs(B, np.array([-1, 0]))
    with pytest.raises(sr.DomainMismatch, match=r"sources must hold integers, got dtype float64"):
        algorithms.multi_source_bfs(B, [0.5])
    with pytest.raises(sr.DomainMismatch, match=r"sources must hold integers, got dtype bool"):
        algorithms.multi_source_bfs(B, [True, False])
    with pytest.raises(sr.DomainMismatch, match=r"sources must be a 1-D sequence of vertices, got the scalar 0"):
        algorithms.multi_source_bfs(B, 0)
    with pytest.raises(sr.DimensionMismatch, match=r"sources must be 1-D, got shape \(1, 2\)"):
        algorithms.multi_source_bfs(B, [[0, 1]])
    with pytest.raises(sr.DomainMismatch, match="multi_source_bfs: A must be a semiring.Matrix"):
        algorithms.multi_source_bfs(np.eye(2), [0])


def test_msbfs_device_of_sources():
    """A CuPy array of sources runs with a GPU matrix and is refused with a CPU one."""
    if not sr.gpu_available():
        pytest.skip("needs a GPU")
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    S = sp.csr_matrix(np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]]))
    G = sr.Matrix.from_scipy(S, device="gpu")
    lv = algorithms.multi_source_bfs(G, cp.asarray([0, 1]))
    assert isinstance(lv, cp.ndarray)
    np.testing.assert_array_equal(lv.get(), [[0, 1, 2], [-1, 0, 1]])
    with pytest.raises(sr.DeviceMismatch, match=r"multi_source_bfs: A is on the CPU but sources is on the GPU"):
        algorithms.multi_source_bfs(G.to_cpu(), cp.asarray([0]))


def test_msbfs_device_loop_falls_back_once(device):
    # where msbfs_grid cannot launch it raises BackendUnavailable having run nothing; the
    # SpMM loop then gives the same rows, and the device loop is not tried again
    S = sp.diags([1.0] * 5, 1, shape=(6, 6), format="csr")
    A = sr.Matrix.from_scipy(S, device=device)
    tries = []

    def unavailable(*args, **kwargs):
        tries.append(1)
        raise sr.BackendUnavailable("msbfs_grid: no cooperative launch here")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sr.traversal, "msbfs_grid", unavailable)
        mp.setattr(bfs_module, "_grid_unavailable", None)
        for _ in range(2):
            lv = to_host(algorithms.multi_source_bfs(A, [0, 3]))
            np.testing.assert_array_equal(lv, reference_levels(S, [0, 3]))
        assert len(tries) == (1 if device == "gpu" else 0)


def test_msbfs_grid_checks(device):
    from semiring import traversal

    S = sp.diags([1.0] * 3, 1, shape=(4, 4), format="csr")
    A = sr.Matrix.from_scipy(S, device=device)
    if device != "gpu":
        with pytest.raises(sr.DeviceMismatch, match="msbfs_grid: A must be on the GPU"):
            traversal.msbfs_grid(A, np.array([0]))
        return
    import cupy as cp

    with pytest.raises(sr.DomainMismatch, match="msbfs_grid: sources must be a 1-D int64"):
        traversal.msbfs_grid(A, cp.asarray([0], dtype=cp.int32))
    with pytest.raises(sr.InvalidIndex, match=r"msbfs_grid: sources must lie in \[0, 4\), got 4"):
        traversal.msbfs_grid(A, cp.asarray([0, 4]))
    with pytest.raises(sr.DimensionMismatch, match="msbfs_grid: A must be square"):
        traversal.msbfs_grid(sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device="gpu"),
                             cp.asarray([0]))
    level, parent = traversal.msbfs_grid(A, cp.asarray([0, 2, 0]), parents=True)
    np.testing.assert_array_equal(to_host(level), [[0, 1, 2, 3], [-1, -1, 0, 1], [0, 1, 2, 3]])
    np.testing.assert_array_equal(to_host(parent), [[0, 0, 1, 2], [-1, -1, 2, 2], [0, 0, 1, 2]])


@st.composite
def wide_graphs_and_sources(draw):
    """Graphs the bit-parallel launch finds hard: several 64-source batches, repeated sources
    (in one batch and across batches), unreachable parts, directed or undirected, a long path
    (many levels: several level slices) joined to a random part with hubs (long rows for the
    warp and, with a small heavy threshold, the block scan), int32 or int64 indices."""
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    path = draw(st.integers(0, 80))
    blob = draw(st.integers(1, 120))
    n = path + blob + draw(st.integers(0, 10))  # the last vertices: isolated
    r = [np.arange(path - 1)] if path > 1 else []
    c = [np.arange(1, path)] if path > 1 else []
    m = draw(st.integers(0, 6 * blob))
    hub = path + rng.integers(0, blob, 3)  # a few hubs: many in- and out-edges
    rr = path + rng.integers(0, blob, m)
    cc = path + rng.integers(0, blob, m)
    if m:
        k = m // 2
        rr[:k // 2] = rng.choice(hub, k // 2)
        cc[k // 2:k] = rng.choice(hub, k - k // 2)
    r.append(rr)
    c.append(cc)
    if path and draw(st.booleans()):  # the path's end leads into the blob
        r.append(np.array([path - 1]))
        c.append(np.array([path]))
    rows, cols = np.concatenate(r), np.concatenate(c)
    undirected = draw(st.booleans())
    if undirected:
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    if draw(st.booleans()):
        S.indices = S.indices.astype(np.int64)
        S.indptr = S.indptr.astype(np.int64)
    s = draw(st.integers(1, 150))
    sources = rng.integers(0, n, s)
    if s > 70:
        sources[65] = sources[3]  # the same source in two batches
    return S, sources, undirected


@given(g=wide_graphs_and_sources(), parents=st.booleans(),
       heavy=st.sampled_from([0, 2, 9, 4096]), filter_div=st.sampled_from([0, 1, 8, 10**5]))
def test_msbfs_wide_batches_paths_and_hubs(device, g, parents, heavy, filter_div):
    """Rows equal SciPy's, parents the smallest in-neighbour one level up (the single-source
    BFS's deterministic ones) over several batches; on the GPU with every scan path: rows
    longer than ``MSBFS_HEAVY`` go to a whole block (0: every vertex with an in-neighbour), and
    the frontier's bitmap filtering every level (1), none (0) or some (8, 10**5)."""
    from semiring import traversal  # noqa: PLC0415  (its threshold is patched per example)

    S, sources, undirected = g
    A = sr.Matrix.from_scipy(S, device=device)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(traversal, "MSBFS_HEAVY", heavy)
        mp.setattr(bfs_module, "MSBFS_FILTER_DIV", filter_div)
        out = algorithms.multi_source_bfs(A, sources, parents=parents, deterministic=True,
                                          symmetric=undirected)
    level = to_host(out[0] if parents else out)
    np.testing.assert_array_equal(level, reference_levels(S, sources))
    if parents:
        parent = to_host(out[1])
        check_parents(S, sources, level, parent, deterministic=True)
        for j in (0, len(sources) - 1):
            one = algorithms.bfs(A, int(sources[j]), parents=True, deterministic=True)
            np.testing.assert_array_equal(to_host(one[1]), parent[j])


def test_msbfs_deep_path_every_slice(device):
    """A path deeper than 2**16 levels: the level slices of every bit (the widest unpacking of
    the GPU's bit-sliced levels), sources at both ends and in the middle."""
    n = 66000
    S = sp.diags([1.0] * (n - 1), 1, shape=(n, n), format="csr")
    A = sr.Matrix.from_scipy(S, device=device)
    sources = [0, 70, n - 1, 0]
    lv, par = algorithms.multi_source_bfs(A, sources, parents=True, deterministic=True)
    lv, par = to_host(lv), to_host(par)
    v = np.arange(n)
    for j, s in enumerate(sources):
        np.testing.assert_array_equal(lv[j], np.where(v >= s, v - s, -1))
        np.testing.assert_array_equal(par[j], np.where(v > s, v - 1, np.where(v == s, s, -1)))
    assert lv[0, -1] == n - 1 >= 2**16


def test_msbfs_grid_info(device):
    """msbfs_grid reports each batch's depth and levels run (the last one finding nothing)."""
    if device != "gpu":
        pytest.skip("msbfs_grid runs on the GPU only")
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    from semiring import traversal  # noqa: PLC0415  (GPU-only entry point)

    S = sp.diags([1.0] * 9, 1, shape=(10, 10), format="csr")
    A = sr.Matrix.from_scipy(S, device="gpu")
    info = {}
    src = cp.asarray(np.r_[np.zeros(64, dtype=np.int64), [4, 9]])
    level, _ = traversal.msbfs_grid(A, src, info=info)
    assert info == {"depth": [9, 5], "levels": [10, 6]}
    np.testing.assert_array_equal(to_host(level)[64], [-1] * 4 + list(range(6)))
    # the trace: a row a level, each level's new vertices; filtered while the frontier holds
    # fewer than n / filter_div vertices (one or two a level here: always with 4, never with 10)
    for div, filtered in ((4, True), (10, False)):
        info = {}
        level2, _ = traversal.msbfs_grid(A, src, info=info, trace=True, filter_div=div)
        np.testing.assert_array_equal(to_host(level2), to_host(level))
        rows = info["trace"]
        assert [[k for _, k, _ in r] for r in rows] == [[1] * 9 + [0], [1] * 5 + [0]]
        assert all(fl == filtered for r in rows for _, _, fl in r)
        assert all(us >= 0 for r in rows for us, _, _ in r)
    with pytest.raises(sr.DomainMismatch, match="msbfs_grid: info must be a dict or None"):
        traversal.msbfs_grid(A, src, info=[])
    with pytest.raises(sr.InvalidValue, match=r"msbfs_grid: filter_div must be an integer in "
                                              r"\[0, 2\*\*20\), got -1"):
        traversal.msbfs_grid(A, src, filter_div=-1)
