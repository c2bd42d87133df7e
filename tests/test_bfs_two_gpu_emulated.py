"""The two-GPU BFS probe (bench/probes/bfs_two_gpu.cu's bfs2_grid, launched by
bench/probes/bfs_two_gpu.py) without a GPU: the kernel run on the CPU through the host-side
CUDA stand-in (tests/emu/grid_emu.h), each "GPU" a forked process of one block whose buffers
the other writes over shared memory (tests/emu/bfs2_emu.cpp), against SciPy's levels: one and
two GPUs, every direction mode and thresholds that switch every level or two, ownership
splits that leave one GPU without a vertex, several searches over the same buffers (the
cross barrier's stamps are never reset between launches), and a peer that never launches or
starts late (the kernel gives up at its timeout instead of hanging). Also the probe's host
helpers (ownership split, zero-degree bitmap, SciPy-derived levels, sources, gathering).
Checks the kernel's logic, not its timing or the memory model across real GPUs. Needs a
C++20 compiler (g++); the emulated tests are skipped without one."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

from tests.emu_build import Builds, compiler, cxx20, shared_dir

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "probes"))
import bfs_two_gpu as probe  # noqa: E402  (the probe is a script, not a package module)

KERNEL = os.path.join(ROOT, "bench", "probes", "bfs_two_gpu.cu")
EMU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "emu")
#: The builds: kernel options (-D) that change bfs2_grid's code.
BUILDS = {"default": [], "batch1": ["-DSR_PUSH_BATCH=1", "-DSR_GRID_SAMPLES=4"],
          "step2": ["-DSR_PULL_STEP=2"], "devlocal": ["-DB2_SYS_LOCAL=0"]}


@pytest.fixture(scope="session")
def emu(tmp_path_factory):
    cxx = cxx20(tmp_path_factory)
    with open(KERNEL) as f:
        src = f.read()
    # the two inline-PTX statements: the device clock and the system-scope acquire load
    src, k1 = re.subn(r'asm volatile\("mov\.u64 %0, %%globaltimer;".*?\);',
                      "t = (unsigned long long)emu_clock_ns();", src)
    src, k2 = re.subn(r'asm volatile\("ld\.acquire\.sys.*?\);',
                      "v = __atomic_load_n(reinterpret_cast<const unsigned long long*>(p), "
                      "__ATOMIC_SEQ_CST);", src, flags=re.S)
    assert (k1, k2) == (1, 1), "expected the two inline-PTX statements of bfs_two_gpu.cu"
    assert "asm" not in re.sub(r"//.*", "", src), "another inline-PTX statement to replace"
    tmp = tmp_path_factory.mktemp("bfs2_emu")
    (tmp / "bfs2_emu.cu").write_text(src)
    sources = [src]
    for name in ("grid_emu.h", "bfs2_emu.cpp"):
        shutil.copy(os.path.join(EMU, name), tmp / name)
        with open(os.path.join(EMU, name)) as fh:
            sources.append(fh.read())
    names = {tuple(v): k for k, v in BUILDS.items()}
    return Builds(shared_dir(tmp_path_factory, "bfs2_emu_builds"), sources,
                  compiler(cxx, tmp / "bfs2_emu.cpp", lambda o: names[tuple(o)]), BUILDS)


def run_emulated(exe, S, sources, *, gpus=2, split=None, threads=64, alpha=14, beta=24,
                 mode=0, timeout_ms=60000, late_ms=0, absent=-1):
    """[(status0, status1, depth, levels, pushes, pulls, phases), levels] a source."""
    n = S.shape[0]
    if split is None:
        split = probe.split_word(S.indptr, n)
    head = (f"{n} {S.nnz} {gpus} {threads} {alpha} {beta} {mode} {split} {timeout_ms} "
            f"{late_ms} {absent} {len(sources)} {' '.join(map(str, sources))}\n")
    body = "\n".join(" ".join(map(str, a.tolist())) for a in (S.indptr, S.indices))
    out = subprocess.run([exe], input=head + body + "\n", capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.split("\n")
    res = []
    for i in range(len(sources)):
        block = lines[i * (n + 1):(i + 1) * (n + 1)]
        head = tuple(map(int, block[0].split()))
        res.append((head, np.array(list(map(int, block[1:])), dtype=np.int32)))
    return res


def scipy_ref(S, s):
    d = csg.shortest_path(S, method="D", unweighted=True, indices=s, directed=True)
    return np.where(np.isinf(d), -1, d).astype(np.int32)


def graphs():
    """Symmetric CSR graphs with isolated vertices, unreachable parts, n not a multiple of 32."""
    rng = np.random.default_rng(7)
    out = {"kron8": probe.build_graph(8, seed=3), "kron9": probe.build_graph(9, seed=1)}
    # a long path (many narrow levels) plus a random part unreachable from it, n = 150
    n = 150
    r = list(range(69)) + list(rng.integers(80, n, 120))
    c = list(range(1, 70)) + list(rng.integers(80, n, 120))
    P = sp.coo_matrix((np.ones(len(r)), (r, c)), shape=(n, n)).tocsr()
    out["path_rand"] = P
    # a dense random graph (wide levels: the pull finds most vertices at once), n = 200
    R = sp.random(200, 200, density=0.08, random_state=5, format="csr")
    out["dense"] = R
    for k, G in out.items():
        G = ((G + G.T) != 0).astype(np.float32).tocsr()
        G.setdiag(0)
        G.eliminate_zeros()
        G.sort_indices()
        G.indptr = G.indptr.astype(np.int32)
        G.indices = G.indices.astype(np.int32)
        out[k] = G
    return out


GRAPHS = graphs()


def sources_of(S, k=3):
    return probe.pick_sources(S.indptr, k, seed=1)


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("gpus", [1, 2])
@pytest.mark.parametrize("mode,alpha,beta", [(0, 14, 24), (1, 14, 24), (2, 14, 24),
                                             (0, 1000, 1000), (0, 2, 10**6)])
def test_emulated_bfs2_matches_scipy(emu, name, gpus, mode, alpha, beta):
    S = GRAPHS[name]
    srcs = sources_of(S)
    for s, ((st0, st1, depth, levels, pushes, pulls, phases), lev) in zip(
            srcs, run_emulated(emu["default"], S, srcs, gpus=gpus, mode=mode, alpha=alpha,
                               beta=beta)):
        assert (st0, st1) == (0, 0)
        ref = scipy_ref(S, s)
        assert np.array_equal(lev, ref), (name, s, np.flatnonzero(lev != ref)[:10])
        assert depth == ref.max() and levels == depth + 1 and pushes + pulls == levels
        assert phases == levels + 1  # the first barrier, then one a level
        if mode == 1:
            assert pulls == 0
        if mode == 2:
            assert pushes == 0


@pytest.mark.parametrize("build", sorted(BUILDS))
@pytest.mark.parametrize("where", ["none0", "none1", "word1", "edges"])
def test_emulated_bfs2_splits_and_builds(emu, build, where):
    """Every build, with the ownership split anywhere: GPU 0 or GPU 1 owning nothing, a
    single word, the edge split; thresholds switching direction every level or two."""
    S = GRAPHS["kron8"]
    nwords = (S.shape[0] + 31) // 32
    split = {"none0": 0, "none1": nwords, "word1": 1, "edges": None}[where]
    srcs = sources_of(S, 2)
    for mode, alpha, beta in ((0, 1000, 1000), (1, 14, 24), (2, 14, 24)):
        for s, (head, lev) in zip(srcs, run_emulated(emu[build], S, srcs, split=split,
                                                     mode=mode, alpha=alpha, beta=beta)):
            assert head[:2] == (0, 0)
            assert np.array_equal(lev, scipy_ref(S, s)), (build, where, mode, s)


def test_emulated_bfs2_absent_peer_times_out(emu):
    """A peer that never launches: the launched GPU gives up at its timeout (status 1) instead
    of hanging; the next searches on the same buffers (later launch ids: the stamps and the
    abort word are never reset) run normally."""
    S = GRAPHS["kron8"]
    srcs = sources_of(S, 3)
    t0 = time.perf_counter()
    res = run_emulated(emu["default"], S, srcs, absent=1, timeout_ms=300)
    assert time.perf_counter() - t0 < 120
    assert res[0][0][0] == 1  # B2_ERR_TIMEOUT on GPU 0 (GPU 1 never ran: its status word 0)
    for s, (head, lev) in zip(srcs[1:], res[1:]):
        assert head[:2] == (0, 0) and np.array_equal(lev, scipy_ref(S, s))


def test_emulated_bfs2_late_peer_is_aborted(emu):
    """A peer that starts after the other gave up: the first times out and writes the peer's
    abort word, and the peer stops at its first barrier (status 2) instead of waiting out its
    own timeout; the next searches run normally."""
    S = GRAPHS["kron8"]
    srcs = sources_of(S, 2)
    res = run_emulated(emu["default"], S, srcs, late_ms=1500, timeout_ms=200)
    assert res[0][0][:2] == (1, 2)
    assert res[1][0][:2] == (0, 0) and np.array_equal(res[1][1], scipy_ref(S, srcs[1]))


# ------------------------------------------------------------------------------------------
# the probe's host helpers


def test_split_word_halves_the_edges_on_a_word_boundary():
    S = probe.build_graph(12, seed=0)
    n = S.shape[0]
    w = probe.split_word(S.indptr, n, "edges")
    vs, es = probe.owned_share(S.indptr, n, w)
    assert abs(es - 0.5) < 0.02 and 0 < w < (n + 31) // 32
    assert probe.split_word(S.indptr, n, "vertices") == n // 64
    # a graph whose edges sit in its first vertices: the edge split follows them
    indptr = np.r_[np.arange(0, 1001, 10), np.full(900, 1000)].astype(np.int32)
    assert probe.split_word(indptr, 1000, "edges") == 2  # vertex 50 -> word 1.56 -> 2
    with pytest.raises(ValueError, match="split"):
        probe.split_word(S.indptr, n, "rows")
    with pytest.raises(ValueError, match="indptr"):
        probe.split_word(S.indptr[:-1], n)


def test_zero_degree_words_marks_exactly_the_isolated_vertices():
    S = GRAPHS["kron9"]
    n = S.shape[0]
    words = probe.zero_degree_words(S.indptr, n)
    assert words.dtype == np.uint32 and words.size == (n + 31) // 32
    bits = (words[np.arange(n) >> 5] >> (np.arange(n) & 31).astype(np.uint32)) & 1
    assert np.array_equal(bits.astype(bool), np.diff(S.indptr) == 0)
    odd = sp.csr_matrix(np.eye(37, k=1) + np.eye(37, k=-1))  # n = 37: a word and 5 bits
    odd = odd[[i for i in range(37) if i != 36]][:, [i for i in range(37) if i != 36]]
    w = probe.zero_degree_words(odd.indptr, 36)
    assert w.size == 2 and w[1] == 0 and w[0] == 0


def test_scipy_levels_equal_shortest_path_levels():
    for S in GRAPHS.values():
        for s in sources_of(S):
            assert np.array_equal(probe.scipy_levels(S, s), scipy_ref(S, s))


def test_pick_sources_and_gather():
    S = GRAPHS["kron9"]
    srcs = probe.pick_sources(S.indptr, 16, seed=0)
    assert len(set(srcs)) == 16 and all(S.indptr[s + 1] > S.indptr[s] for s in srcs)
    assert srcs == probe.pick_sources(S.indptr, 16, seed=0)
    with pytest.raises(ValueError, match="no vertex"):
        probe.pick_sources(np.zeros(5, dtype=np.int32), 3)
    a, b = np.arange(100), -np.arange(100)
    g = probe.gather_levels([a, b], 2, 100)  # GPU 0 owns the vertices below 64
    assert np.array_equal(g[:64], a[:64]) and np.array_equal(g[64:], b[64:])
    assert np.array_equal(probe.gather_levels([a], 0, 100), a)


def test_build_graph_is_the_bench_kron_structure():
    S = probe.build_graph(10, seed=0)
    assert S.shape == (1024, 1024) and S.has_canonical_format
    assert (S != S.T).nnz == 0 and S.diagonal().sum() == 0
    assert S.indices.dtype == np.int32
    with pytest.raises(ValueError, match="scale"):
        probe.build_graph(28)
