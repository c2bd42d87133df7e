"""The two-GPU BFS kernel of the library (semiring/kernels/bfs_peer.cu's bfs_peer, the
program traverse.cu + bfs_peer.cu as semiring/backend/gpu/bfs_peer.py builds it) without a
GPU: the kernel run on the CPU through the host-side CUDA stand-in (tests/emu/grid_emu.h),
each "GPU" a forked process of one block whose buffers the other writes over shared memory
(tests/emu/bfs_peer_emu.cpp), against SciPy's levels: directed graphs (push over A's rows,
pull over Aᵀ's), symmetric ones passed as one CSR, isolated and unreachable vertices, a
source without edges, self-loops, a long path, every direction mode and thresholds that
switch every level or two, ownership splits that leave one GPU without a vertex, both index
types, several searches over the same buffers (the cross barrier's stamps are never reset
between launches), and a peer that never launches or starts late (the kernel gives up at
its timeout with a status, instead of hanging). Checks the kernel's logic, not its timing or
the memory model across real GPUs. Needs a C++20 compiler (g++); skipped without one."""

from __future__ import annotations

import os
import re
import shutil
import time

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

from semiring.backend.gpu import bfs_peer
from tests.emu_build import Builds, compiler, cxx20, shared_dir

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
KERNELS = os.path.join(ROOT, "semiring", "kernels")
EMU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "emu")
#: The builds: kernel options (-D) that change bfs_peer's code.
BUILDS = {"default": [], "mirror1": ["-DSR_PEER_PULL_MIRROR=1"],
          "batch1": ["-DSR_PUSH_BATCH=1", "-DSR_GRID_SAMPLES=4"]}


@pytest.fixture(scope="session")
def emu(tmp_path_factory):
    cxx = cxx20(tmp_path_factory)
    with open(os.path.join(KERNELS, "traverse.cu")) as f:
        trav = f.read()
    with open(os.path.join(KERNELS, "bfs_peer.cu")) as f:
        peer = f.read()
    # the inline PTX: traverse.cu's device clock (the cross barrier's timeout reads it: a
    # real clock here, so that the timeout tests time out) and bfs_peer.cu's acquire load
    trav, k1 = re.subn(r'asm volatile\("mov\.u64 %0, %%globaltimer;".*?\);',
                       "t = (unsigned long long)emu_clock_ns();", trav)
    peer, k2 = re.subn(r'asm volatile\("ld\.acquire\.sys.*?\);',
                       "v = __atomic_load_n(reinterpret_cast<const unsigned long long*>(p), "
                       "__ATOMIC_SEQ_CST);", peer, flags=re.S)
    assert (k1, k2) == (1, 1), "expected one inline-PTX statement in each kernel file"
    for src in (trav, peer):
        assert "asm" not in re.sub(r"//.*", "", src), "another inline-PTX statement to replace"
    tmp = tmp_path_factory.mktemp("bfs_peer_emu")
    (tmp / "traverse_emu.cu").write_text(trav)
    (tmp / "bfs_peer_emu.cu").write_text(peer)
    sources = [trav, peer]
    for name in ("grid_emu.h", "bfs_peer_emu.cpp"):
        shutil.copy(os.path.join(EMU, name), tmp / name)
        with open(os.path.join(EMU, name)) as fh:
            sources.append(fh.read())
    names = {tuple(v): k for k, v in BUILDS.items()}
    return Builds(shared_dir(tmp_path_factory, "bfs_peer_emu_builds"), sources,
                  compiler(cxx, tmp / "bfs_peer_emu.cpp", lambda o: names[tuple(o)]), BUILDS)


def run_emulated(exe, S, sources, *, gpus=2, split=None, threads=64, alpha=14, beta=24,
                 mode=0, timeout_ms=60000, late_ms=0, absent=-1, sym=None, index64=False):
    """[(status0, status1, depth, levels, pushes, pulls, phases), levels] a source. ``S``: A
    (CSR); ``sym``: pass A's arrays as Aᵀ's (default: when A equals Aᵀ)."""
    import subprocess  # noqa: PLC0415  (stdlib: this helper only)

    n = S.shape[0]
    T = S.T.tocsr()
    T.sort_indices()
    if sym is None:
        sym = (S != T).nnz == 0
    if split is None:
        split = bfs_peer.split_word(n, n // 2)
    head = (f"{n} {S.nnz} {gpus} {threads} {alpha} {beta} {mode} {split} {timeout_ms} "
            f"{late_ms} {absent} {len(sources)} {int(sym)} {int(index64)} "
            f"{' '.join(map(str, sources))}\n")
    arrays = (S.indptr, S.indices) if sym else (S.indptr, S.indices, T.indptr, T.indices)
    body = "\n".join(" ".join(map(str, a.tolist())) for a in arrays)
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


def _csr(r, c, n, *, symmetric=False, loops=False):
    r, c = np.asarray(r), np.asarray(c)
    if symmetric:
        r, c = np.r_[r, c], np.r_[c, r]
    G = sp.coo_matrix((np.ones(r.size, dtype=np.float32), (r, c)), shape=(n, n)).tocsr()
    G.sum_duplicates()
    G.data[:] = 1
    if not loops:
        G.setdiag(0)
        G.eliminate_zeros()
    G.sort_indices()
    G.indptr = G.indptr.astype(np.int32)
    G.indices = G.indices.astype(np.int32)
    return G


def graphs():
    """Directed and symmetric graphs: isolated vertices, parts unreachable from the sources,
    self-loops, hubs, a long path, n not a multiple of 32."""
    rng = np.random.default_rng(11)
    out = {}
    # a directed random graph with self-loops and a hub of many in-edges, n = 173
    n = 173
    r, c = rng.integers(0, n, 500), rng.integers(0, n, 500)
    r, c = np.r_[r, rng.integers(0, n, 80), np.arange(0, n, 7)], np.r_[c, np.full(80, 5), np.arange(0, n, 7)]
    keep = (r % 13 != 0) & (c % 17 != 0)   # vertices 13k: no out-edges; 17k: no in-edges
    out["directed"] = _csr(r[keep], c[keep], n, loops=True)
    # a directed long path (one vertex a level, many levels) and a random part beside it
    # that the path's vertices cannot reach, n = 150
    n = 150
    r = list(range(69)) + list(rng.integers(80, n, 120))
    c = list(range(1, 70)) + list(rng.integers(80, n, 120))
    out["path"] = _csr(r, c, n)
    # a dense directed graph (wide levels: the pull finds most vertices at once), n = 200
    R = sp.random(200, 200, density=0.06, random_state=5, format="coo")
    out["dense"] = _csr(R.row, R.col, 200)
    # symmetric: a Kronecker-like skewed graph with isolated vertices, n = 256
    n = 256
    w = rng.zipf(1.6, 900) % n
    out["sym_skewed"] = _csr(w[:450], w[450:], n, symmetric=True)
    return out


GRAPHS = graphs()


def sources_of(S, k=3, *, seed=1):
    """k sources: some with out-edges, and one without (where the graph has one)."""
    deg = np.diff(S.indptr)
    rng = np.random.default_rng(seed)
    have = np.flatnonzero(deg > 0)
    pick = [int(x) for x in rng.choice(have, min(k - 1, have.size), replace=False)]
    none = np.flatnonzero(deg == 0)
    return pick + ([int(none[0])] if none.size else [])


def _check(res, S, srcs, mode=0):
    for s, ((st0, st1, depth, levels, pushes, pulls, phases), lev) in zip(srcs, res):
        assert (st0, st1) == (0, 0)
        ref = scipy_ref(S, s)
        assert np.array_equal(lev, ref), (s, np.flatnonzero(lev != ref)[:10])
        assert depth == ref.max() and levels == depth + 1 and pushes + pulls == levels
        assert phases == levels + 1  # the first barrier, then one a level
        if mode == 1:
            assert pulls == 0
        if mode == 2:
            assert pushes == 0


#: (mode, alpha, beta): Beamer's defaults, push only, pull only, thresholds switching
#: direction every level or two, always pulling after the first level
_MODES = [(0, 14, 24), (1, 14, 24), (2, 14, 24), (0, 1000, 1000), (0, 2, 10**6)]
EMU_ALL = os.environ.get("SEMIRING_EMU_ALL") == "1"


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_emulated_bfs_peer_matches_scipy(emu, name):
    """Every graph on two GPUs in every direction mode (a few sources each: with and without
    out-edges), the graph's own split at n / 2."""
    S = GRAPHS[name]
    srcs = sources_of(S)
    for mode, alpha, beta in _MODES if EMU_ALL or name != "dense" else _MODES[:3]:
        _check(run_emulated(emu["default"], S, srcs, mode=mode, alpha=alpha, beta=beta), S,
               srcs, mode)


def test_emulated_bfs_peer_one_gpu_and_int64(emu):
    """The kernel alone (no peer: it owns every word) and the int64 instantiation on two."""
    S = GRAPHS["directed"]
    srcs = sources_of(S)
    _check(run_emulated(emu["default"], S, srcs, gpus=1, alpha=2, beta=10**6), S, srcs)
    _check(run_emulated(emu["default"], S, srcs, index64=True, alpha=1000, beta=1000), S, srcs)


def test_emulated_bfs_peer_symmetric_as_directed(emu):
    """A symmetric graph passed as two CSRs (A and Aᵀ equal, separate arrays) and as one."""
    S = GRAPHS["sym_skewed"]
    srcs = sources_of(S)
    for sym in (False, True):
        _check(run_emulated(emu["default"], S, srcs, sym=sym, alpha=2, beta=10**6), S, srcs)


@pytest.mark.parametrize("build,where", [
    (b, w) for b, w in [("default", w) for w in ("none0", "none1", "word1")]
    + [(b, "half") for b in sorted(BUILDS)]
    if EMU_ALL or b != "default" or w in ("none1", "word1")])
def test_emulated_bfs_peer_splits_and_builds(emu, build, where):
    """The ownership split anywhere (GPU 0 or GPU 1 owning nothing, a single word, the half)
    and every build; thresholds switching direction every level or two, push only, pull
    only."""
    S = GRAPHS["directed"]
    nwords = (S.shape[0] + 31) // 32
    split = {"none0": 0, "none1": nwords, "word1": 1, "half": None}[where]
    srcs = sources_of(S, 2)
    for mode, alpha, beta in ((0, 1000, 1000), (1, 14, 24), (2, 14, 24)):
        _check(run_emulated(emu[build], S, srcs, split=split, mode=mode, alpha=alpha,
                            beta=beta), S, srcs, mode)


def test_emulated_bfs_peer_absent_peer_times_out(emu):
    """A peer that never launches: the launched GPU gives up at its timeout (status 1) instead
    of hanging; the next searches on the same buffers (later launch ids: the stamps and the
    abort word are never reset) run normally."""
    S = GRAPHS["directed"]
    srcs = sources_of(S, 3)
    t0 = time.perf_counter()
    res = run_emulated(emu["default"], S, srcs, absent=1, timeout_ms=300)
    assert time.perf_counter() - t0 < 120
    assert res[0][0][0] == 1  # BP_ERR_TIMEOUT on GPU 0 (GPU 1 never ran: its status word 0)
    _check(res[1:], S, srcs[1:])


def test_emulated_bfs_peer_late_peer_is_aborted(emu):
    """A peer that starts after the other gave up: the first times out and writes the peer's
    abort word, and the peer stops at its first barrier (status 2) instead of waiting out its
    own timeout; the next searches run normally."""
    S = GRAPHS["path"]
    srcs = sources_of(S, 2)
    res = run_emulated(emu["default"], S, srcs, late_ms=1500, timeout_ms=200)
    assert res[0][0][:2] == (1, 2)
    _check(res[1:], S, srcs[1:])


# ------------------------------------------------------------------------------------------
# the launcher's host helpers


def test_split_word_is_the_word_nearest_the_cut():
    assert bfs_peer.split_word(100, 50) == 2          # 50 -> word boundary 64
    assert bfs_peer.split_word(100, 40) == 1          # 40 -> 32
    assert bfs_peer.split_word(100, 0) == 0
    assert bfs_peer.split_word(100, 100) == 3         # 100 -> 96
    assert bfs_peer.split_word(96, 96) == 3
    assert bfs_peer.split_word(10, 0) == 0 and bfs_peer.split_word(1, 1) == 0
    assert bfs_peer.split_word(10, 9) == 0           # 9 is nearer 0 than 32


def test_shared_layout_is_aligned_and_disjoint():
    for n in (1, 31, 32, 33, 1000, 2**20 + 3):
        lay = bfs_peer.shared_layout(n)
        spans = sorted(v for k, v in lay.items() if not k.startswith("_"))
        assert all(off % 256 == 0 for off, _ in spans)
        assert all(a + sa <= b for (a, sa), (b, _) in zip(spans, spans[1:]))
        assert spans[-1][0] + spans[-1][1] <= lay["_total"]
        assert lay["_fstride"] * 32 >= n and lay["_fstride"] % 32 == 0
        assert lay["state"][1] == 8 * bfs_peer.STATE_WORDS and lay["level"][1] >= 4 * n


def test_noin_words_mark_the_vertices_without_in_edges(monkeypatch):
    """The launcher's bitmap of Aᵀ's empty rows (its array code run on NumPy), against
    np.packbits."""
    monkeypatch.setattr(bfs_peer, "_cupy", lambda: np)
    for name, S in sorted(GRAPHS.items()):
        T = S.T.tocsr()
        n = S.shape[0]
        fstride = bfs_peer.shared_layout(n)["_fstride"]
        got = bfs_peer.noin_words(T.indptr, fstride)
        pad = np.zeros(fstride * 32, dtype=bool)
        pad[:n] = np.diff(T.indptr) == 0
        assert pad.any() or name == "dense", name
        want = np.packbits(pad, bitorder="little").view("<u4")
        np.testing.assert_array_equal(got, want, err_msg=name)


# ------------------------------------------------------------------------------------------
# the launcher's PeerSearch on a stand-in for CuPy (host memory as "device" memory, raw
# addresses as pointers): the launch's arguments against bfs_peer's parameter list, the
# shared buffers' addresses (this GPU's and the peer's), the levels stitched from both
# owners' arrays, the kernel's status as an error


def _kernel_params():
    """bfs_peer's parameter kinds, from the .cu: 'ptr', 'long long', 'int', 'u64'."""
    with open(os.path.join(KERNELS, "bfs_peer.cu")) as f:
        src = f.read()
    sig = src[src.index("bfs_peer(") + len("bfs_peer("):]
    sig = sig[:sig.index(")")]
    kinds = []
    for p in sig.split(","):
        p = p.strip()
        kinds.append("ptr" if "*" in p else "u64" if p.startswith("unsigned long long")
                     else "long long" if p.startswith("long long") else
                     "int" if p.startswith("int ") else p)
    assert set(kinds) <= {"ptr", "u64", "long long", "int"}, kinds
    return kinds


class _Dev(np.ndarray):
    """A host array standing in for a CuPy one (``.data.ptr``: its address)."""

    @property
    def data(self):
        import types  # noqa: PLC0415  (stdlib: this stand-in only)

        return types.SimpleNamespace(ptr=self.__array_interface__["data"][0])

    def astype(self, dtype, copy=True):
        return np.asarray(self).astype(dtype).view(_Dev)


def _stand_in(monkeypatch, launches):
    """Install the stand-in; returns the kept launches' record (the driver's parameters)."""
    import ctypes  # noqa: PLC0415  (stdlib: raw copies between the stand-in's buffers)
    import sys  # noqa: PLC0415  (stdlib: the stand-in's modules)
    import types  # noqa: PLC0415  (stdlib: this stand-in only)

    def memcpy(dst, src, nbytes, kind, stream=None):
        ctypes.memmove(dst, src, nbytes)

    def memset(ptr, value, nbytes, stream=None):
        ctypes.memset(ptr, value, nbytes)

    stream = types.SimpleNamespace(ptr=0, synchronize=lambda: None)
    runtime = types.SimpleNamespace(memcpy=memcpy, memcpyAsync=memcpy, memsetAsync=memset)
    cp = types.SimpleNamespace(
        cuda=types.SimpleNamespace(get_current_stream=lambda: stream, runtime=runtime),
        empty=lambda n, dtype: np.empty(n, dtype=dtype).view(_Dev),
        zeros=lambda n, dtype: np.zeros(n, dtype=dtype).view(_Dev),
        arange=np.arange, uint32=np.uint32, int32=np.int32, int64=np.int64)
    monkeypatch.setattr(bfs_peer, "_cupy", lambda: cp)
    coop = []

    def launch_cooperative(fptr, gx, gy, gz, bx, by, bz, shared, strm, params):
        # the driver's view: an array of pointers, one to each parameter's word
        ptrs = (ctypes.c_uint64 * len(_kernel_params())).from_address(params)
        coop.append((fptr, (gx, gy, gz), (bx, by, bz), shared, strm,
                     [ctypes.c_uint64.from_address(int(p)).value for p in ptrs]))

    api = types.SimpleNamespace(runtime=runtime, driver=types.SimpleNamespace(
        CUDADriverError=RuntimeError, launchCooperativeKernel=launch_cooperative))
    for name in ("cupy_backends", "cupy_backends.cuda"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "cupy_backends.cuda.api", api)
    params = _kernel_params()

    def kernel(grid, block, args):
        assert grid == (6,) and block == (512,)
        assert len(args) == len(params), (len(args), len(params))
        for a, kind in zip(args, params):
            ok = {"ptr": isinstance(a, _Dev) or type(a) is np.uint64,
                  "long long": type(a) is np.int64, "int": type(a) is np.int32,
                  "u64": type(a) is np.uint64}[kind]
            assert ok, (kind, type(a))
        launches.append(args)

    kernel.kernel = types.SimpleNamespace(ptr=77)  # (CuPy's RawKernel.kernel.ptr: the CUfunction)
    monkeypatch.setattr(bfs_peer, "kernel", lambda itype: (kernel, 6))
    return coop


def test_peer_search_launch_levels_and_errors(monkeypatch):
    launches = []
    _stand_in(monkeypatch, launches)
    S = GRAPHS["directed"]
    T = S.T.tocsr()
    n = S.shape[0]
    split = bfs_peer.split_word(n, 70)               # GPU 1 owns from vertex 64
    lay = bfs_peer.shared_layout(n)
    mem = [np.zeros(lay["_total"], dtype=np.uint8) for _ in range(2)]
    base = [m.__array_interface__["data"][0] for m in mem]
    dev = lambda a: np.asarray(a).view(_Dev)         # noqa: E731
    gpus = [bfs_peer.PeerSearch(dev(S.indptr), dev(S.indices), dev(T.indptr), dev(T.indices),
                                n, g, split, base[g]) for g in (0, 1)]
    for g in (0, 1):
        gpus[g].attach(base[1 - g])
    for g in (0, 1):
        gpus[g].launch(5, alpha=14, beta=24, mode=2, timeout0_s=20.0, timeout_s=5.0)
    a0, a1 = launches
    assert (int(a0[6]), int(a0[7])) == (0, split) and (int(a1[6]), int(a1[7])) == (split, 6)
    for g, a in ((0, a0), (1, a1)):
        for k, name in ((8, "level"), (13, "vis"), (14, "fb"), (17, "state")):
            assert int(a[k]) == base[g] + lay[name][0]          # this GPU's
        assert [int(a[k]) for k in (18, 19, 20, 21)] == [          # the peer's
            base[1 - g] + lay[nm][0] for nm in ("level", "vis", "fb", "state")]
        assert int(a[24]) == 2 and int(a[25]) == 1            # mode, the first launch
        assert (int(a[26]), int(a[27])) == (20 * 10**9, 5 * 10**9)
    # the levels, each vertex from its owner's array
    ref = scipy_ref(S, 5)
    cut = 32 * split
    for g in (0, 1):
        want = np.full(n, 99, dtype=np.int32)               # the other owner's part: garbage
        own = slice(0, cut) if g == 0 else slice(cut, n)
        want[own] = ref[own]
        mem[g][lay["level"][0]:lay["level"][0] + 4 * n] = want.view(np.uint8)
    for g, (lo, hi) in ((0, (0, 70)), (1, (70, n)), (0, (60, n)), (1, (0, n))):
        np.testing.assert_array_equal(np.asarray(gpus[g].levels(lo, hi)), ref[lo:hi])
    assert gpus[0].levels(0, 70).dtype == np.int64
    # the kernel's status: an error naming the GPU and the reason
    st = np.frombuffer(mem[1], dtype=np.int64, count=bfs_peer.STATE_WORDS,
                       offset=lay["state"][0])
    assert st[bfs_peer.STATUS] == 0 and gpus[1].finish()[bfs_peer.STATUS] == 0
    mem[1][lay["state"][0] + 8 * bfs_peer.STATUS] = 1
    with pytest.raises(RuntimeError, match="GPU 1's search failed: timed out at a cross-GPU"):
        gpus[1].finish()
    # the host zeroes this GPU's own state words only before a launch (the peer's stamps stay)
    mem[0][lay["state"][0]:lay["state"][0] + 8 * bfs_peer.STATE_WORDS] = 7
    gpus[0].launch(6, alpha=14, beta=24, mode=0, timeout0_s=1.0, timeout_s=1.0)
    st0 = np.frombuffer(mem[0], dtype=np.uint8, count=8 * bfs_peer.STATE_WORDS,
                        offset=lay["state"][0])
    assert (st0[:8 * bfs_peer.PEER_WORDS] == 0).all() and (st0[8 * bfs_peer.PEER_WORDS:] == 7).all()
    assert int(launches[-1][25]) == 2                       # launch ids rise
    # a second search on the same buffers (another CSR) continues their launch count
    shared = [0]
    a = bfs_peer.PeerSearch(dev(S.indptr), dev(S.indices), dev(T.indptr), dev(T.indices), n,
                            0, split, base[0], launches=shared)
    b = bfs_peer.PeerSearch(dev(T.indptr), dev(T.indices), dev(S.indptr), dev(S.indices), n,
                            0, split, base[0], launches=shared)
    for x in (a, b, a):
        x.attach(base[1])
        x.launch(0, alpha=14, beta=24, mode=0, timeout0_s=1.0, timeout_s=1.0)
    assert [int(x[25]) for x in launches[-3:]] == [1, 2, 3] and shared == [3]


def test_peer_search_kept_launch_writes_the_same_parameters(monkeypatch):
    """PEER_KEPT_LAUNCH: the driver gets, for every argument, the word CuPy's launch would
    pass (the same search through both paths), the source and launch id rewritten each call,
    one kept launch per setting."""
    from semiring.backend.gpu.launch import param_word  # noqa: PLC0415  (CuPy's words)

    launches = []
    coop = _stand_in(monkeypatch, launches)
    monkeypatch.setattr(bfs_peer, "PEER_KEPT_LAUNCH", True)
    S = GRAPHS["path"]
    T = S.T.tocsr()
    n = S.shape[0]
    lay = bfs_peer.shared_layout(n)
    mem = [np.zeros(lay["_total"], dtype=np.uint8) for _ in range(2)]
    base = [m.__array_interface__["data"][0] for m in mem]
    dev = lambda a: np.asarray(a).view(_Dev)         # noqa: E731
    x = bfs_peer.PeerSearch(dev(S.indptr), dev(S.indices), dev(T.indptr), dev(T.indices), n,
                            1, bfs_peer.split_word(n, 75), base[1])
    x.attach(base[0])
    kw = dict(alpha=14, beta=24, mode=0, timeout0_s=20.0, timeout_s=5.0)
    for src in (3, 120, 3):
        x.launch(src, **kw)
        want = [param_word(a) for a in x.arguments(src, **kw)]
        fptr, grid, block, shared, strm, words = coop[-1]
        assert (fptr, grid, block, shared, strm) == (77, (6, 1, 1), (512, 1, 1), 0, 0)
        assert words == want, [i for i, (a, b) in enumerate(zip(words, want)) if a != b]
    x.launch(4, **dict(kw, mode=2))                    # another setting: another kept launch
    assert coop[-1][5] == [param_word(a) for a in x.arguments(4, **dict(kw, mode=2))]
    assert len(x._kept) == 2 and not launches           # CuPy's launch never called
    monkeypatch.setattr(bfs_peer, "PEER_KEPT_LAUNCH", False)
    x.launch(5, **kw)
    assert len(launches) == 1 and len(coop) == 4
