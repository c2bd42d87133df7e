"""BFS against scipy.sparse.csgraph: levels equal, parents valid (exact when deterministic),
push, pull and auto agree, on every backend."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from scipy.sparse.csgraph import breadth_first_order, shortest_path

import algorithms
import semiring as sr
from semiring import traversal
from conftest import to_host

bfs_module = importlib.import_module("algorithms.bfs")  # the module: algorithms.bfs is the function


@st.composite
def graphs(draw, max_n=40):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, 4 * n))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n, m)
    cols = rng.integers(0, n, m)
    if draw(st.booleans()):  # isolate a block of vertices: disconnected parts
        cut = draw(st.integers(0, n))
        keep = (rows < cut) == (cols < cut)
        rows, cols = rows[keep], cols[keep]
    undirected = draw(st.booleans())
    if undirected:
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    # duplicates and self-loops stay in the COO input; explicit zeros are edges too
    vals = rng.integers(0, 3, rows.size).astype(np.float64)
    S = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    source = draw(st.integers(0, n - 1))
    return S, source, undirected


def reference_levels(S, source):
    d = shortest_path(S, method="D", unweighted=True, indices=source, directed=True)
    return np.where(np.isinf(d), -1, d).astype(np.int64)


def check_parents(S, source, level, parent, deterministic):
    n = S.shape[0]
    assert parent[source] == source
    np.testing.assert_array_equal(parent == -1, level == -1)
    C = S.tocsc()  # column v: the in-neighbours of v
    for v in np.flatnonzero(level > 0):
        ins = C.indices[C.indptr[v]:C.indptr[v + 1]]
        on_prev = ins[level[ins] == level[v] - 1]
        assert parent[v] in on_prev, (v, parent[v], on_prev)
        if deterministic:
            assert parent[v] == on_prev.min()
    assert n == level.size


#: The whole search on the device (the default on the GPU: in one block for these small
#: graphs, "grid" the cooperative launch; on the CPU the host loop), with the direction
#: flipping nearly every level; the host loop with fused push levels over the
#: whole device, in one block, off (one algebra call per level), and handing back after every
#: few edges (so the BFS leaves and re-enters the fused run), in either form; and the search
#: written with the plain operations (vxm, assign: LAGraph's form), directions flipping too.
HOST = {"DEVICE_LOOP": False}
FUSED = {"default": {}, "flip": {"ALPHA": 10**6, "BETA": 2, "SMALL_N": 0},
         "grid": {"SMALL_N": 0},
         "host": HOST, "host-flip": {**HOST, "ALPHA": 10**6, "BETA": 2},
         "block": {**HOST, "FUSED_GRID": False}, "off": {**HOST, "FUSED_FRONTIER": 0},
         "tiny": {**HOST, "FUSED_EDGES": 6},
         "tiny-block": {**HOST, "FUSED_EDGES": 6, "FUSED_GRID": False},
         "copy": {"VARIANT": "host"},  # SciPy's search on a host copy (GPU: copied back)
         "algebra": {"VARIANT": "algebra"},
         "algebra-flip": {"VARIANT": "algebra", "ALPHA": 10**6, "BETA": 2}}


@given(g=graphs(), parents=st.booleans(), deterministic=st.booleans(),
       direction=st.sampled_from(["auto", "push", "pull"]), hint=st.booleans(),
       fused=st.sampled_from(sorted(FUSED)))
def test_bfs_against_scipy(device, g, parents, deterministic, direction, hint, fused):
    S, source, undirected = g
    A = sr.Matrix.from_scipy(S, device=device)
    with pytest.MonkeyPatch.context() as mp:
        for name, value in FUSED[fused].items():
            mp.setattr(bfs_module, name, value)
        out = algorithms.bfs(A, source, parents=parents, deterministic=deterministic,
                             direction=direction, symmetric=undirected and hint)
    level = to_host(out[0] if parents else out)
    exp = reference_levels(S, source)
    np.testing.assert_array_equal(level, exp)
    order = breadth_first_order(S, source, directed=True, return_predecessors=False)
    np.testing.assert_array_equal(np.sort(order), np.flatnonzero(exp >= 0))
    if parents:
        check_parents(S, source, level, to_host(out[1]), deterministic)


def test_directions_agree_on_a_skewed_graph(device):
    rng = np.random.default_rng(7)
    n = 3000
    deg = np.minimum((rng.pareto(1.1, n) * 2).astype(np.int64) + 1, n - 1)
    rows = np.repeat(np.arange(n), deg)
    cols = rng.integers(0, n, rows.size)
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    S = (S + S.T).tocsr()
    A = sr.Matrix.from_scipy(S, device=device)
    exp = reference_levels(S, 0)
    variants = {"push": {}, "pull": {}, "auto": {}, "auto-flip": {"ALPHA": 10**6, "BETA": 2},
                "push-host": HOST, "pull-host": HOST, "auto-host": HOST,
                "push-unfused": {**HOST, "FUSED_FRONTIER": 0},
                "push-block": {**HOST, "FUSED_GRID": False}}
    results = {}
    for d, patch in variants.items():
        with pytest.MonkeyPatch.context() as mp:
            for name, value in patch.items():
                mp.setattr(bfs_module, name, value)
            lv, par = algorithms.bfs(A, 0, parents=True, deterministic=True, direction=d.split("-")[0])
        lv, par = to_host(lv), to_host(par)
        np.testing.assert_array_equal(lv, exp)
        check_parents(S, 0, lv, par, deterministic=True)
        results[d] = par
    # deterministic parents are the same whatever the direction and the loop
    for d in variants:
        np.testing.assert_array_equal(results[d], results["push"], err_msg=d)
    assert exp.max() >= 3


def test_fused_falls_back_to_one_block_once(device):
    # where the cooperative launch cannot be made the grid raises BackendUnavailable having
    # changed nothing; the BFS then runs push_levels, and does not try the grid again
    S = sp.diags([1.0] * 9, 1, shape=(10, 10), format="csr")
    A = sr.Matrix.from_scipy(S, device=device)
    tries = []

    def unavailable(*args, **kwargs):
        tries.append(1)
        raise sr.BackendUnavailable("push_levels_grid: no cooperative launch here")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sr.traversal, "push_levels_grid", unavailable)
        mp.setattr(bfs_module, "DEVICE_LOOP", False)
        mp.setattr(bfs_module, "_grid_unavailable", None)
        for _ in range(2):
            np.testing.assert_array_equal(to_host(algorithms.bfs(A, 0, direction="push")),
                                          np.arange(10))
        assert len(tries) == 1
        assert "no cooperative launch" in bfs_module._grid_unavailable



def test_device_loop_falls_back_to_the_host_loop_once(device):
    # where bfs_grid cannot launch it raises BackendUnavailable having run nothing; the BFS
    # then runs its host loop, and does not try the device loop again
    S = sp.diags([1.0] * 9, 1, shape=(10, 10), format="csr")
    A = sr.Matrix.from_scipy(S, device=device)
    tries = []

    def unavailable(*args, **kwargs):
        tries.append(1)
        raise sr.BackendUnavailable("bfs_grid: no cooperative launch here")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sr.traversal, "bfs_grid", unavailable)
        mp.setattr(bfs_module, "_grid_unavailable", None)
        mp.setattr(bfs_module, "SMALL_N", 0)  # not the one-block search of small graphs
        mp.setattr(bfs_module, "ROAD_ASYNC", False)  # nor the barrier-free one of paths
        for _ in range(2):
            lv, par = algorithms.bfs(A, 0, parents=True)
            np.testing.assert_array_equal(to_host(lv), np.arange(10))
            np.testing.assert_array_equal(to_host(par), np.r_[0, np.arange(9)])
        assert len(tries) == (1 if device == "gpu" else 0)  # the CPU never tries it


def test_bfs_grid_levels_and_counts(device):
    # a Kronecker-like skewed graph of a few thousand vertices plus a path hanging off it:
    # wide levels (pulls under auto), then a long tail of one-vertex levels (pushes)
    if device != "gpu":
        S = sp.csr_matrix((2, 2))
        with pytest.raises(sr.DeviceMismatch, match="bfs_grid: A must be on the GPU"):
            traversal.bfs_grid(sr.Matrix.from_scipy(S, device=device), 0)
        return
    rng = np.random.default_rng(3)
    n, tail = 4000, 300
    deg = np.minimum((rng.pareto(1.0, n) * 3).astype(np.int64) + 1, n - 1)
    rows = np.repeat(np.arange(n), deg)
    cols = rng.integers(0, n, rows.size)
    path = np.arange(n - 1, n + tail)
    rows, cols = np.r_[rows, path[:-1]], np.r_[cols, path[1:]]
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n + tail + 5,) * 2).tocsr()
    S = (S + S.T).tocsr()
    exp = reference_levels(S, 0)
    A = sr.Matrix.from_scipy(S, device="gpu")
    seen = {}
    for direction in ("auto", "push", "pull"):
        for parents, det in ((False, False), (True, False), (True, True)):
            lv, par, info = traversal.bfs_grid(A, 0, parents=parents, deterministic=det,
                                                  direction=direction, symmetric=True)
            lv = to_host(lv)
            np.testing.assert_array_equal(lv, exp)
            assert par is None if not parents else par.shape == (S.shape[0],)
            if parents:
                check_parents(S, 0, lv, to_host(par), det)
            if det:
                seen[direction] = to_host(par)
            assert info["depth"] == exp.max()
            assert info["levels"] == exp.max() + 1  # the last level finds nothing
            assert info["push"] + info["pull"] == info["levels"]
            if direction != "auto":
                assert info[direction] == info["levels"]
            else:
                assert info["push"] > 0 and info["pull"] > 0
    # the profile: a row a level, the sizes those of the levels found
    _, _, info = traversal.bfs_grid(A, 0, trace=True)
    sizes = np.bincount(exp[exp >= 0])
    assert [t[1] for t in info["trace"]] == sizes[:traversal.TRACE_LEVELS].tolist()
    assert len(info["trace"]) == min(info["levels"], traversal.TRACE_LEVELS)
    assert 0 < [t[3] for t in info["trace"]].count("pull") <= info["pull"]
    # one run of pulls: the edges left to check top-down lose only the pushed frontiers' (as
    # GAP counts them), so the tail of one-vertex levels stays in push
    ways = "".join("P" if t[3] == "pull" else "." for t in info["trace"])
    assert ways.strip(".").count(".") == 0 and ways.endswith("."), ways
    assert all(t[0] >= 0 for t in info["trace"])
    np.testing.assert_array_equal(seen["push"], seen["pull"])
    np.testing.assert_array_equal(seen["push"], seen["auto"])


def test_bfs_grid_kept_scratch_across_calls_and_streams(device):
    # info=False (algorithms.bfs's launch) keeps the scratch with Aᵀ for the next call on the
    # same stream: calls one after another (no sync between them), from other sources, with
    # parents, on another stream (a workspace of its own) and on another graph all stay exact
    if device != "gpu":
        pytest.skip("bfs_grid is the GPU's device loop")
    import cupy as cp

    rng = np.random.default_rng(7)
    n = 3000
    rows, cols = rng.integers(0, n, 12000), rng.integers(0, n // 2, 12000)  # half: no in-edges
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    A = sr.Matrix.from_scipy(S, device="gpu")
    srcs = [0, 5, int(rows[0]), n - 1]
    outs = []
    for s in srcs * 2:
        lv, par, info = traversal.bfs_grid(A, s, parents=True, info=False)
        assert info is None
        outs.append((s, lv, par))
    with cp.cuda.Stream(non_blocking=True) as side:
        for s in srcs:
            outs.append((s, *traversal.bfs_grid(A, s, parents=True, info=False)[:2]))
    side.synchronize()
    B = sr.Matrix.from_scipy((S + S.T).tocsr(), device="gpu")
    lvB, _, _ = traversal.bfs_grid(B, 1, symmetric=True, info=False)
    np.testing.assert_array_equal(to_host(lvB), reference_levels((S + S.T).tocsr(), 1))
    for s, lv, par in outs:
        exp = reference_levels(S, s)
        np.testing.assert_array_equal(to_host(lv), exp)
        check_parents(S, s, exp, to_host(par), False)
    with pytest.raises(sr.InvalidValue, match="bfs_grid: info must be True or False"):
        traversal.bfs_grid(A, 0, info=None)


def test_bfs_fast_path_keeps_the_launch_not_the_outputs(device):
    # algorithms.bfs keeps its launch in A's memo (FAST_PATH): calls one after another from
    # other sources and with other settings each return arrays of their own (an earlier result
    # is not overwritten by a later call), all equal to SciPy's; a changed policy (VARIANT,
    # ALPHA) or a changed A (an operation writing into it) is seen by the next call
    rng = np.random.default_rng(17)
    n = 4 * traversal.BFS_SMALL_MAX_N + 7  # past the one-block search of small graphs
    m = 12 * n  # mean degree 24: bfs_grid, not the barrier-free search of road-like graphs
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    rows, cols = rows[rows % 97 != 5], cols[rows % 97 != 5]  # vertices without out-edges
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    A = sr.Matrix.from_scipy(S, device=device)
    U = sr.Matrix.from_scipy((S + S.T).tocsr(), device=device)
    outs = []
    for s in (0, 3, 11, 0, n - 1, 5):
        outs.append((S, s, False, algorithms.bfs(A, s)))
        outs.append((S, s, True, algorithms.bfs(A, s, parents=True)))
        outs.append(((S + S.T).tocsr(), s, False, algorithms.bfs(U, s, symmetric=True)))
    assert len({id(o[3]) for o in outs if not o[2]}) == len([o for o in outs if not o[2]])
    for M, s, parents, out in outs:
        exp = reference_levels(M, s)
        if parents:
            np.testing.assert_array_equal(to_host(out[0]), exp)
            check_parents(M, s, exp, to_host(out[1]), False)
        else:
            np.testing.assert_array_equal(to_host(out), exp)
    if device == "gpu":
        assert A._memo.get("bfs_fast"), "the launch was not kept"
    kept_calls = []
    kept_call = traversal._KeptLaunch.__call__

    def counted(self, source):
        kept_calls.append(source)
        return kept_call(self, source)

    with pytest.MonkeyPatch.context() as mp:  # a policy change is seen (here: the host loop)
        mp.setattr(traversal._KeptLaunch, "__call__", counted)
        np.testing.assert_array_equal(to_host(algorithms.bfs(A, 3)), reference_levels(S, 3))
        assert kept_calls == ([3] if device == "gpu" else [])  # the kept launch, on the GPU
        mp.setattr(bfs_module, "VARIANT", "levels")
        np.testing.assert_array_equal(to_host(algorithms.bfs(A, 3)), reference_levels(S, 3))
        mp.setattr(bfs_module, "VARIANT", "auto")
        mp.setattr(bfs_module, "ALPHA", bfs_module.ALPHA + 1)
        np.testing.assert_array_equal(to_host(algorithms.bfs(A, 4)), reference_levels(S, 4))
        assert kept_calls == ([3, 4] if device == "gpu" else [])  # kept anew for the new α
    with pytest.raises(sr.InvalidIndex, match=r"bfs: source must lie in \[0, "):
        algorithms.bfs(A, n)
    with pytest.raises(sr.InvalidIndex):
        algorithms.bfs(A, -1)
    # A changed in place (new edges from vertex 5's row): the kept launch is dropped with it
    E = sp.coo_matrix((np.ones(3), ([5, 5, 5], [1, 2, n - 2])), shape=(n, n)).tocsr()
    sr.ewise_add(A, sr.Matrix.from_scipy(E, device=device), out=A)
    S2 = (S + E).tocsr()
    np.testing.assert_array_equal(to_host(algorithms.bfs(A, 5)), reference_levels(S2, 5))
    np.testing.assert_array_equal(to_host(algorithms.bfs(A, 0)), reference_levels(S2, 0))


def test_bfs_grid_no_in_edges_bitmap(device):
    # the vertices bfs_grid marks visited from the start: Aᵀ's empty rows, bit v % 32 of word
    # v // 32 (n not a multiple of 32: the last word's bits past n are clear), kept in the memo
    if device != "gpu":
        pytest.skip("bfs_grid's scratch is GPU-only")
    import cupy as cp

    rng = np.random.default_rng(11)
    n = 1000
    rows, cols = rng.integers(0, n, 3000), rng.integers(0, n, 3000) // 3
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    AT = sr.Matrix.from_scipy(S.T.tocsr(), device="gpu")
    bits = traversal._no_in_edges(AT, cp)
    assert bits.dtype == cp.uint32 and bits.size == -(-n // 32)
    got = np.unpackbits(to_host(bits).view(np.uint8), bitorder="little")[:n].astype(bool)
    np.testing.assert_array_equal(got, np.diff(S.T.tocsr().indptr) == 0)
    assert not np.unpackbits(to_host(bits).view(np.uint8), bitorder="little")[n:].any()
    assert traversal._no_in_edges(AT, cp) is bits


def test_bfs_grid_errors(device):
    if device != "gpu":
        pytest.skip("bfs_grid is the GPU's device loop (its CPU refusal: test_bfs_grid_levels_and_counts)")
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device="gpu")
    with pytest.raises(sr.InvalidIndex, match=r"bfs_grid: source must lie in \[0, 2\), got 5"):
        traversal.bfs_grid(A, 5)
    with pytest.raises(sr.InvalidValue, match="bfs_grid: direction must be one of"):
        traversal.bfs_grid(A, 0, direction="sideways")
    with pytest.raises(sr.InvalidValue, match=r"bfs_grid: alpha must be an integer in \[1"):
        traversal.bfs_grid(A, 0, alpha=0)
    with pytest.raises(sr.DimensionMismatch, match="bfs_grid: A must be square"):
        traversal.bfs_grid(sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device="gpu"), 0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sr.traversal, "BFS_GRID_MAX_N", 1)
        with pytest.raises(sr.InvalidValue, match="bfs_grid: A may have at most 1 vertices, got 2"):
            traversal.bfs_grid(A, 0)

def test_single_vertex_and_isolated_source(device):
    A = sr.Matrix.from_coo([], [], None, nrows=1, ncols=1, device=device)
    np.testing.assert_array_equal(to_host(algorithms.bfs(A, 0)), [0])
    B = sr.Matrix.from_coo([1, 2], [2, 1], None, nrows=4, ncols=4, device=device)
    lv, par = algorithms.bfs(B, 3, parents=True)
    np.testing.assert_array_equal(to_host(lv), [-1, -1, -1, 0])
    np.testing.assert_array_equal(to_host(par), [-1, -1, -1, 3])


def test_bfs_errors(device):
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match=r"bfs: A must be square, got shape \(2, 3\)"):
        algorithms.bfs(A, 0)
    B = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidIndex, match=r"bfs: source must lie in \[0, 2\), got 2"):
        algorithms.bfs(B, 2)
    with pytest.raises(sr.InvalidIndex):
        algorithms.bfs(B, -1)
    with pytest.raises(sr.DomainMismatch, match="source must be an integer"):
        algorithms.bfs(B, 0.5)
    with pytest.raises(sr.InvalidValue, match="direction must be one of"):
        algorithms.bfs(B, 0, direction="up")
    with pytest.raises(sr.DomainMismatch, match="A must be a semiring.Matrix"):
        algorithms.bfs(np.eye(2), 0)


def test_bfs_source_forms_and_sources_keyword(device):
    A = sr.Matrix.from_coo([0, 1, 3], [1, 2, 0], None, nrows=4, ncols=4, device=device)
    xp = A.xp
    want = to_host(algorithms.bfs(A, 3))
    np.testing.assert_array_equal(want, [1, 2, 3, 0])
    # a 0-d integer array on A's device is a vertex (e.g. the argmax of a level array)
    np.testing.assert_array_equal(to_host(algorithms.bfs(A, xp.asarray(3))), want)
    np.testing.assert_array_equal(to_host(algorithms.bfs(A, np.int32(3))), want)
    # sources=[...]: the multi-source search, one row per source
    lv, par = algorithms.bfs(A, sources=[0, 3], parents=True, deterministic=True)
    mlv, mpar = algorithms.multi_source_bfs(A, [0, 3], parents=True, deterministic=True)
    np.testing.assert_array_equal(to_host(lv), to_host(mlv))
    np.testing.assert_array_equal(to_host(par), to_host(mpar))
    np.testing.assert_array_equal(to_host(lv)[1], want)
    with pytest.raises(sr.InvalidValue, match="source or sources, not both"):
        algorithms.bfs(A, 0, sources=[1])
    with pytest.raises(sr.InvalidValue, match="is required"):
        algorithms.bfs(A)
    with pytest.raises(sr.InvalidValue, match="applies to one source"):
        algorithms.bfs(A, sources=[0], direction="push")
    with pytest.raises(sr.DomainMismatch, match=r"got an array of dtype float64 and shape \(\)"):
        algorithms.bfs(A, xp.asarray(1.0))
    with pytest.raises(sr.DomainMismatch, match=r"shape \(2,\).*sources=\[...\]"):
        algorithms.bfs(A, xp.asarray([0, 1]))


def test_bfs_cupy_source_with_a_cpu_matrix():
    cp = pytest.importorskip("cupy")
    if not sr.device.gpu_available():
        pytest.skip("needs a GPU")
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device="cpu")
    with pytest.raises(sr.DeviceMismatch, match="A is on the CPU but source is a CuPy array"):
        algorithms.bfs(A, cp.asarray(0))


def test_symmetric_promise_leaves_the_callers_transpose_alone(device):
    # a false promise (A is not symmetric) may give wrong levels, but must not corrupt A.T
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3, device=device)
    algorithms.bfs(A, 0, symmetric=True)
    algorithms.bfs(A, 0, direction="pull", symmetric=True)
    algorithms.multi_source_bfs(A, [0, 1], symmetric=True)
    algorithms.sssp(A, 0, symmetric=True)
    algorithms.bellman_ford(A, 0, symmetric=True)
    algorithms.multi_source_sssp(A, [0], symmetric=True)
    np.testing.assert_array_equal(to_host(A.T.to_dense(missing=0)),
                                  [[0, 0, 0], [1, 0, 0], [0, 2, 0]])
    assert sr.transpose(A) is not A
    # a true promise reads A's rows for the pull and gives the same levels
    U = sr.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], None, nrows=3, ncols=3, device=device)
    for d in ("push", "pull", "auto"):
        np.testing.assert_array_equal(to_host(algorithms.bfs(U, 2, direction=d, symmetric=True)),
                                      [2, 1, 0])
