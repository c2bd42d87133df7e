"""The barrier-free BFS (semiring.traversal.bfs_async, kernels/bfs_async.cu) against SciPy's
BFS levels: the kernel itself on the CPU through a host-side CUDA stand-in of several blocks
(tests/emu/async_emu.h: its messages, rings and termination), and the real launch on the GPU
directly and through algorithms.bfs (ROAD_ASYNC), on grids, long paths and random graphs with
self-loops, duplicates and unreachable parts, int32 and int64 indices; parents valid (one
level up, an edge) and the smallest such in-neighbour. On the CPU the function is refused
(GPU only) and algorithms.bfs takes its host path."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms
import semiring as sr
from tests.conftest import to_host
from tests.emu_build import Builds, compiler, cxx20, shared_dir

bfs_module = importlib.import_module("algorithms.bfs")  # algorithms.bfs is the function
HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "..", "semiring", "kernels", "bfs_async.cu")


def _grid(r, c):
    idx = np.arange(r * c).reshape(r, c)
    a = np.r_[idx[:, :-1].ravel(), idx[:-1, :].ravel()]
    b = np.r_[idx[:, 1:].ravel(), idx[1:, :].ravel()]
    return r * c, np.r_[a, b], np.r_[b, a]


@st.composite
def bfs_graphs(draw, paths=(1, 2, 17, 10_000, 100_000), grid_side=80):
    """(scipy csr, structure only, explicit zeros kept as edges; source): a grid, a long path
    (one or both directions), or a random sparse graph (self-loops, duplicates folded, two
    unconnected halves sometimes)."""
    kind = draw(st.sampled_from(["grid", "path", "random"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    if kind == "grid":
        n, rows, cols = _grid(draw(st.integers(1, grid_side)), draw(st.integers(1, grid_side)))
    elif kind == "path":
        n = draw(st.sampled_from(paths))
        rows = np.arange(n - 1)
        cols = rows + 1
        if draw(st.booleans()):
            rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    else:
        n = draw(st.integers(1, 400))
        m = draw(st.integers(0, 5 * n))
        rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
        if draw(st.booleans()) and n > 2:
            cut = n // 2
            cols = np.where(rows < cut, cols % cut, cut + cols % (n - cut))
    w = rng.integers(0, 3, rows.size).astype(np.float32)  # zeros: edges all the same
    S = sp.csr_matrix((w, (rows, cols)), shape=(n, n))
    S.sum_duplicates()
    S.sort_indices()
    return S, draw(st.integers(0, n - 1))


def scipy_levels(S, source):
    """BFS levels by SciPy (explicit zeros are edges: the structure with ones)."""
    T = sp.csr_matrix((np.ones(S.nnz), S.indices, S.indptr), shape=S.shape)
    lv = csg.shortest_path(T, method="D", unweighted=True, indices=source)
    return np.where(np.isinf(lv), -1, lv).astype(np.int64)


def check_parents(S, level, parent, source):
    """parent[v] is v's smallest in-neighbour one level up; the source its own; -1 unreached."""
    n = S.shape[0]
    T = S.T.tocsr()
    T.sort_indices()
    want = np.full(n, -1, dtype=np.int64)
    for v in np.flatnonzero(level > 0):
        ins = T.indices[T.indptr[v]:T.indptr[v + 1]]
        want[v] = ins[level[ins] == level[v] - 1].min()
    want[source] = source
    np.testing.assert_array_equal(parent, want)


# ---------------------------------------------------------------- the kernel, emulated on the CPU

@pytest.fixture(scope="session")  # (xdist interleaves modules: a module fixture was torn
# down and rebuilt between them, 55 s a build set on CI)
def emu(tmp_path_factory):
    cxx = cxx20(tmp_path_factory)
    tmp = tmp_path_factory.mktemp("bfs_async_emu")
    sources = []
    for f in ("async_emu.h", "bfs_async_emu.cpp"):
        shutil.copy(os.path.join(HERE, "emu", f), tmp / f)
        with open(os.path.join(HERE, "emu", f)) as fh:
            sources.append(fh.read())
    shutil.copy(KERNEL, tmp / "bfs_async.cu")
    with open(KERNEL) as fh:
        sources.append(fh.read())
    names = {tuple(v): k for k, v in EMU_BUILDS.items()}
    return Builds(shared_dir(tmp_path_factory, "bfs_async_builds"), sources,
                  compiler(cxx, tmp / "bfs_async_emu.cpp", lambda opts: names[tuple(opts)]),
                  EMU_BUILDS)


#: The kernel's builds emulated: the default and the cw kernel's switches (a vertex's edges
#: split over a group of threads of another size, fixed or as wide as a level allows; owned
#: depths not published; mail put on the next level's queue at a level's end).
EMU_BUILDS = {"default": (), "group1": ("-DSR_ASYNC_GROUP=1",),
              "group2_unpublished": ("-DSR_ASYNC_GROUP=2", "-DSR_ASYNC_PUBLISH=0"),
              "group8_adapt_mail": ("-DSR_ASYNC_GROUP=8", "-DSR_ASYNC_GROUP_ADAPT=1",
                                    "-DSR_ASYNC_MAIL_AT_END=1")}


def run_emulated(exe, S, source, blocks, threads, smem, index64, span=None, variant=0, ellw=0):
    n = S.shape[0]
    span = span or max(1, -(-n // blocks))
    T = S.T.tocsr()
    T.sort_indices()
    head = (f"{n} {S.nnz} {source} {blocks} {threads} {span} {int(smem)} {int(index64)} "
            f"{int(variant)} {int(ellw)}\n")
    body = "\n".join(" ".join(map(str, a.tolist()))
                     for a in (S.indptr, S.indices, T.indptr, T.indices))
    out = subprocess.run([exe], input=head + body + "\n", capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    v = np.array(out.stdout.split(), dtype=np.int64)
    return v[:4], v[4:4 + n], v[4 + n:4 + 2 * n]


@settings(max_examples=int(os.environ.get("SEMIRING_EMU_EXAMPLES", "30")))
@given(g=bfs_graphs(paths=(1, 2, 17, 300, 3000), grid_side=40), index64=st.booleans(),
       blocks=st.sampled_from([1, 2, 3, 5]), threads=st.sampled_from([32, 64]),
       smem=st.booleans(), wide=st.booleans(), variant=st.sampled_from([0, 1]),
       build=st.sampled_from(sorted(EMU_BUILDS)), ellw=st.sampled_from([0, 0, 1, 2, 4]))
def test_emulated_kernel_matches_scipy(emu, g, index64, blocks, threads, smem, wide, variant,
                                       build, ellw):
    """bfs_async (variant 0) and bfs_async_cw (1: a communication warp; threads = 64 or 96),
    each build of EMU_BUILDS (its switches change the cw kernel only), with CSR rows or padded
    rows of width ellw (short ones: rows longer than the width go on in their CSR rows)."""
    S, source = g
    if variant:
        threads += 32
    else:
        build, ellw = "default", 0
    n = S.shape[0]
    # wide: spans longer than needed (trailing blocks own nothing)
    span = max(1, -(-n // max(1, blocks - 1))) if wide else None
    (status, levels, sent, visits), level, parent = run_emulated(
        emu[build], S, source, blocks, threads, smem, index64, span, variant, ellw)
    assert status == 0
    ref = scipy_levels(S, source)
    np.testing.assert_array_equal(level, ref)
    assert visits >= np.count_nonzero(ref >= 0)  # every reached vertex expanded at least once
    check_parents(S, level, parent, source)


# ---------------------------------------------------------------- the launch (GPU) / refusal

#: Kernel builds the GPU test draws (each compiles once): the default and the switches a probe
#: compares (a thread a vertex; mail at a level's end; groups as wide as a level allows; no
#: publishing of owned depths).
GPU_OPTIONS = [(), ("-DSR_ASYNC_GROUP=1",),
               ("-DSR_ASYNC_MAIL_AT_END=1", "-DSR_ASYNC_GROUP=8", "-DSR_ASYNC_GROUP_ADAPT=1",
                "-DSR_ASYNC_PUBLISH=0")]

@settings(max_examples=int(os.environ.get("SEMIRING_TEST_EXAMPLES", "40")) // 2 or 1)
@given(g=bfs_graphs(), index64=st.booleans(), shared=st.booleans(),
       per_sm=st.sampled_from([1, 2]), parents=st.booleans(), symmetric=st.booleans(),
       kernel=st.sampled_from(["cw", "inline"]), ell=st.sampled_from([0, 1, 4]),
       options=st.sampled_from(GPU_OPTIONS))
def test_bfs_async_matches_scipy(device, g, index64, shared, per_sm, parents, symmetric, kernel,
                                 ell, options):
    S, source = g
    if symmetric:
        S = (S + S.T).tocsr()
        S.sort_indices()
    A = sr.Matrix.from_scipy(S, device=device)
    if index64:
        A = sr.Matrix(A.xp.asarray(A.indptr, dtype=np.int64), A.xp.asarray(A.indices, dtype=np.int64),
                      A.values, A.shape)
    if device == "cpu":
        with pytest.raises(sr.DeviceMismatch, match="bfs_async: A must be on the GPU"):
            sr.traversal.bfs_async(A, source)
        return
    from semiring.backend.gpu import traversal as gt  # noqa: PLC0415  (GPU only: the test's switch)
    old = gt.ASYNC_SHARED, gt.ASYNC_KERNEL, gt.ASYNC_ELL_WIDTH, gt.ASYNC_OPTIONS
    gt.ASYNC_SHARED, gt.ASYNC_KERNEL, gt.ASYNC_ELL_WIDTH = shared, kernel, ell
    gt.ASYNC_OPTIONS = old[3] + options
    try:
        level, parent, info = sr.traversal.bfs_async(A, source, parents=parents,
                                                     symmetric=symmetric, blocks_per_sm=per_sm)
        if ell:  # a second source: the padded rows kept with A, reused
            source2 = (source * 7 + 3) % S.shape[0]
            level2, _, _ = sr.traversal.bfs_async(A, source2, symmetric=symmetric,
                                                  blocks_per_sm=per_sm)
            np.testing.assert_array_equal(to_host(level2), scipy_levels(S, source2))
    finally:
        gt.ASYNC_SHARED, gt.ASYNC_KERNEL, gt.ASYNC_ELL_WIDTH, gt.ASYNC_OPTIONS = old
    ref = scipy_levels(S, source)
    np.testing.assert_array_equal(to_host(level), ref)
    assert info["visits"] >= np.count_nonzero(ref >= 0)
    assert info["ell_width"] == (ell if kernel == "cw" else 0)  # "inline" reads CSR rows
    if parents:
        check_parents(S, to_host(level), to_host(parent), source)
    else:
        assert parent is None


@settings(max_examples=int(os.environ.get("SEMIRING_TEST_EXAMPLES", "40")) // 2 or 1)
@given(g=bfs_graphs(), road_async=st.booleans(), parents=st.booleans())
def test_algorithms_bfs_road_policy(device, g, road_async, parents, monkeypatch):
    """algorithms.bfs with ROAD_ASYNC on or off: the same levels as SciPy, valid parents."""
    S, source = g
    monkeypatch.setattr(bfs_module, "ROAD_ASYNC", road_async)
    monkeypatch.setattr(bfs_module, "SMALL_N", 0)  # small graphs too (not bfs_small's block)
    A = sr.Matrix.from_scipy(S, device=device)
    out = algorithms.bfs(A, source, parents=parents)
    level = to_host(out[0] if parents else out)
    np.testing.assert_array_equal(level, scipy_levels(S, source))
    if parents:
        parent = to_host(out[1])
        reached = np.flatnonzero(level > 0)
        assert parent[source] == source and np.all(parent[level < 0] == -1)
        T = S.tocsr()
        for v in reached:  # an edge from one level up
            u = parent[v]
            assert level[u] == level[v] - 1 and v in T.indices[T.indptr[u]:T.indptr[u + 1]]


def test_bfs_async_checks_its_input(device):
    A = sr.Matrix.from_scipy(sp.csr_matrix(np.eye(3)), device=device)
    if device == "cpu":
        with pytest.raises(sr.DeviceMismatch, match="bfs_async"):
            sr.traversal.bfs_async(A, 0)
        return
    with pytest.raises(sr.InvalidIndex, match=r"bfs_async: source must lie in \[0, 3\), got 3"):
        sr.traversal.bfs_async(A, 3)
    with pytest.raises(sr.DomainMismatch, match="bfs_async: source must be an integer"):
        sr.traversal.bfs_async(A, 1.0)
    with pytest.raises(sr.InvalidValue, match="bfs_async: blocks_per_sm must be an integer"):
        sr.traversal.bfs_async(A, 0, blocks_per_sm=0)
    with pytest.raises(sr.DimensionMismatch):
        sr.traversal.bfs_async(sr.Matrix.from_scipy(sp.csr_matrix(np.ones((2, 3))), device=device), 0)
