"""The whole-search BFS kernel (bfs_grid in semiring/kernels/traverse.cu) run on the CPU through
the host-side CUDA stand-in (tests/emu/grid_emu.h: one block of 32 to 96 threads), against
SciPy's levels: push, pull and the switch between them at thresholds that force it every few
levels, every parent mode, int32 and int64 indices, each kernel option that changes its code
(the L1 loads, the pull's prefetch of the next word and early out-degrees, the batched
bitmap → queue step, the push's edges one or several a thread at once, the pull's skip of
words without an unvisited vertex and its loads a word ahead, the bitmap zeroed by a push, the
flush's loads at once; few samples, so that the push searches the queue itself), on graphs
with isolated vertices, self-loops, duplicate edges and unreachable parts. Its scratch and
outputs start poisoned: the kernel must set what it reads. This checks the kernel's logic
without a GPU; tests/test_bfs.py runs the real launch on one. Needs a C++20 compiler (g++);
skipped without one."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg
from hypothesis import given, settings, strategies as st

from tests.emu_build import build_traverse_emu

#: The builds: kernel options (-D) that change bfs_grid's code.
BUILDS = {"default": [], "l2": ["-DSR_PULL_L1=0", "-DSR_PUSH_L1=0"],
          "noprefetch": ["-DSR_PULL_PREFETCH=0"], "step2": ["-DSR_PULL_STEP=2"],
          "samples4": ["-DSR_GRID_SAMPLES=4"],
          "b2q_word": ["-DSR_B2Q_BATCH=0"], "deg_late": ["-DSR_PULL_DEG_EARLY=0"],
          "lazy": ["-DSR_LAZY_FILL=1"], "push1": ["-DSR_PUSH_BATCH=1"],
          "noskip": ["-DSR_PULL_SKIP=0"], "not_ahead": ["-DSR_PULL_AHEAD=0"],
          "clears0": ["-DSR_PUSH_CLEARS=0"], "flush_loop": ["-DSR_FLUSH_UNROLL=0"],
          "push3_samples4": ["-DSR_PUSH_BATCH=3", "-DSR_GRID_SAMPLES=4"],
          "next8": ["-DSR_PULL_NEXT=8"], "stop": ["-DSR_STOP_ALL=1"],
          "bits": ["-DSR_PUSH_BITS=1"], "stop_bits": ["-DSR_STOP_ALL=1", "-DSR_PUSH_BITS=1"],
          "bits_clears0": ["-DSR_PUSH_BITS=1", "-DSR_PUSH_CLEARS=0"],
          "step8_next12": ["-DSR_PULL_STEP=8", "-DSR_PULL_NEXT=12"]}


@pytest.fixture(scope="session")  # (built once a worker: xdist interleaves modules, and a
# module fixture was torn down and rebuilt between them: 55 s a build set on CI)
def emu(tmp_path_factory):
    return build_traverse_emu(tmp_path_factory, "bfs_grid_emu.cpp", BUILDS)


def run_emulated(exe, S, source, threads, parents, index64, alpha, beta, mode):
    n = S.shape[0]
    T = S.T.tocsr()
    T.sort_indices()
    head = f"{n} {S.nnz} {source} {threads} {parents} {int(index64)} {alpha} {beta} {mode}\n"
    body = "\n".join(" ".join(map(str, a.tolist())) for a in (S.indptr, S.indices, T.indptr, T.indices))
    out = subprocess.run([exe], input=head + body + "\n", capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.split("\n")
    depth, levels, pushes, pulls = map(int, lines[0].split())
    lp = np.array([list(map(int, x.split())) for x in lines[1:n + 1]], dtype=np.int64).reshape(n, 2)
    return lp[:, 0], lp[:, 1], depth, levels, pushes, pulls


@st.composite
def graphs(draw):
    """A directed or symmetric graph of 1 to 300 vertices (several 32-vertex words), its edges
    in clusters with isolated vertices, self-loops and duplicates, and a source."""
    n = draw(st.integers(1, 300))
    m = draw(st.integers(0, 6 * n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    hubs = rng.integers(0, n, size=max(1, n // 20))
    rows = np.where(rng.random(m) < 0.3, rng.choice(hubs, m), rng.integers(0, n, m))
    cols = rng.integers(0, n, m)
    if draw(st.booleans()):
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    S = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))
    S.sum_duplicates()
    S.sort_indices()
    source = draw(st.integers(0, n - 1))
    return S, source


@settings(max_examples=40, deadline=None)
@given(g=graphs(), build=st.sampled_from(sorted(BUILDS)), index64=st.booleans(),
       threads=st.sampled_from([32, 64, 96]), parents=st.sampled_from([0, 1, 2]),
       way=st.sampled_from([(0, 14, 24), (0, 1, 1), (0, 10**6, 10**6), (0, 2, 3), (1, 14, 24),
                            (2, 14, 24), (4, 14, 24), (4, 2, 3), (5, 14, 24), (6, 14, 24)]))
def test_emulated_bfs_grid_matches_scipy(emu, g, build, index64, threads, parents, way):
    S, source = g
    mode, alpha, beta = way
    level, parent, depth, levels, pushes, pulls = run_emulated(
        emu[build], S, source, threads, parents, index64, alpha, beta, mode)
    d = csg.shortest_path(S, unweighted=True, indices=source)
    ref = np.where(np.isinf(d), -1, d).astype(np.int64)
    np.testing.assert_array_equal(level, ref)
    assert depth == ref.max() and levels == depth + 1 == pushes + pulls
    if mode & 3 == 1:
        assert pulls == 0
    if mode & 3 == 2:
        assert pushes == 0
    if not parents:
        return
    assert parent[source] == source
    reached = np.flatnonzero((ref > 0))
    np.testing.assert_array_equal(parent[ref < 0], -1)
    T = S.T.tocsr()
    for v in reached:
        ins = T.indices[T.indptr[v]:T.indptr[v + 1]]
        up = ins[ref[ins] == ref[v] - 1]
        assert parent[v] in up
        if parents == 2:
            assert parent[v] == up.min()


def _clustered(n, m, seed, symmetric):
    rng = np.random.default_rng(seed)
    hubs = rng.integers(0, n, size=max(1, n // 20))
    rows = np.where(rng.random(m) < 0.3, rng.choice(hubs, m), rng.integers(0, n, m))
    cols = rng.integers(0, n, m)
    if symmetric:
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    S = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))
    S.sum_duplicates()
    S.sort_indices()
    return S


@pytest.mark.parametrize("build", sorted(BUILDS))
@pytest.mark.parametrize("way", [(1, 14, 24), (2, 14, 24), (0, 2, 3), (4, 2, 3)])
def test_emulated_bfs_grid_every_build_and_direction(emu, build, way):
    # graphs whose push levels take several passes of the block (hubs of ~60 edges, frontiers
    # of hundreds of edges against 32 / 96 threads), directed ones with heads of out-degree 0
    mode, alpha, beta = way
    # (and one of 3000 vertices: 94 words, several 32-word groups of the pull for one warp)
    for seed, symmetric, threads, n in ((1, True, 32, 260), (2, False, 96, 260),
                                        (3, False, 32, 260), (4, True, 32, 3000)):
        S = _clustered(n, 6 * n, seed, symmetric)
        d = csg.shortest_path(S, unweighted=True, indices=0)
        ref = np.where(np.isinf(d), -1, d).astype(np.int64)
        level, parent, depth, levels, pushes, pulls = run_emulated(
            emu[build], S, 0, threads, 1, seed == 3, alpha, beta, mode)
        np.testing.assert_array_equal(level, ref)
        assert ((pulls == 0) if mode & 3 == 1 else (pushes == 0) if mode & 3 == 2
                else pushes and pulls)
