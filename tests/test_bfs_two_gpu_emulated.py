"""The two-GPU BFS probe's host side (bench/probes/bfs_two_gpu.py, which launches the
library's bfs_peer kernel, semiring/kernels/bfs_peer.cu, from one process owning both GPUs):
its helpers (ownership split, zero-degree bitmap, SciPy-derived levels, sources, gathering)
and its GPU-side Python on a stand-in for CuPy, the launch's arguments checked against
bfs_peer's parameter list. The kernel itself runs on the CPU in tests/test_bfs_peer_emulated.py."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "bench", "probes"))
import bfs_two_gpu as probe  # noqa: E402  (the probe is a script, not a package module)
from tests.test_bfs_peer_emulated import _kernel_params  # noqa: E402  (bfs_peer's parameters)



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
        for s in probe.pick_sources(S.indptr, 3, seed=1):
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


# ------------------------------------------------------------------------------------------
# the probe's GPU-side Python (main, TwoGpuBfs) on a stand-in for CuPy: every call the probe
# makes, the launch's arguments checked against bfs_peer's parameter list, a "kernel" that
# writes SciPy's levels into each GPU's owned part only (garbage elsewhere)


class _Arr(np.ndarray):
    registry = {}

    def get(self):
        return np.asarray(self).copy()

    @property
    def data(self):
        arr = self

        class Ptr:
            ptr = arr.__array_interface__["data"][0]

            @staticmethod
            def memset_async(value, nbytes, stream=None):
                np.asarray(arr).view(np.uint8)[:nbytes] = value
        _Arr.registry[Ptr.ptr] = self
        return Ptr


def _arr(a):
    return np.ascontiguousarray(a).view(_Arr)


class _Ctx:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def synchronize(self):
        pass


def _fake_cupy(status=None):
    """(cupy, cupy_backends.cuda.api) stand-ins; status: {gpu: code} the kernel reports."""
    import types  # noqa: PLC0415  (stdlib, this stand-in only)

    params = _kernel_params()
    calls = []

    class Device(_Ctx):
        def __init__(self, g=0):
            self.id = g
            self.attributes = {"MultiProcessorCount": 3}

    class Event:
        def record(self, stream=None):
            pass

        def synchronize(self):
            pass

    class Kernel:
        kernel = types.SimpleNamespace(ptr=1)
        attributes = {"num_regs": 64, "local_size_bytes": 0, "shared_size_bytes": 24592}

        def __call__(self, grid, block, args):
            assert grid == (6,) and block == (probe.THREADS,)  # 3 SMs x min(2, occupancy 2)
            assert len(args) == len(params), (len(args), len(params))
            for a, kind in zip(args, params):
                ok = {"ptr": isinstance(a, _Arr) or type(a) is np.uint64,
                      "long long": type(a) is np.int64, "int": type(a) is np.int32,
                      "u64": type(a) is np.uint64}[kind]
                assert ok, (kind, type(a))
            indptr, indices, tindptr, tindices, n, source, lo, hi, level = args[:9]
            assert tindptr is indptr and tindices is indices  # symmetric: the same arrays
            state, peer_state = args[17], args[21]
            calls.append((int(lo), int(hi), int(peer_state) != 0))
            S = sp.csr_matrix((np.ones(len(indices)), np.asarray(indices), np.asarray(indptr)),
                              shape=(int(n), int(n)))
            ref = scipy_ref(S, int(source))
            level[:] = 77  # the peer's part: not this GPU's to write
            a, b = 32 * int(lo), min(int(n), 32 * int(hi))
            level[a:b] = ref[a:b]
            st = np.asarray(state)
            assert (st[:probe.PEER_WORDS] == 0).all()  # the host zeroed this GPU's words
            g = len(calls) - 1 if len(calls) <= 2 else (len(calls) - 1) % (2 if peer_state else 1)
            st[probe.DEPTH] = ref.max()
            st[probe.LEVELS] = ref.max() + 1
            st[probe.PUSHES], st[probe.PULLS] = 1, ref.max()
            st[probe.PHASES] = ref.max() + 2
            st[probe.T0], st[probe.T1] = 0, 250_000
            st[probe.STATUS] = (status or {}).get(g if peer_state else 0, 0)
            if type(args[28]) is not np.uint64:  # a trace: start, then 4 words a level
                t = np.asarray(args[28])
                t[0] = 0
                for j in range(int(ref.max()) + 1):
                    t[1 + 4 * j:5 + 4 * j] = (10_000 * (j + 1), j + 1, 5 * (j + 1), j % 2)

    class RawModule:
        def __init__(self, code, options, enable_cooperative_groups, name_expressions):
            assert enable_cooperative_groups and name_expressions == [probe.KERNEL]
            assert "bfs_peer(" in code and "sr_grid_sync" in code  # traverse.cu, then bfs_peer.cu

        def get_function(self, name):
            assert name == probe.KERNEL
            return Kernel()

    cuda = types.SimpleNamespace(
        Device=Device, Stream=lambda non_blocking=False: _Ctx(), Event=Event,
        get_elapsed_time=lambda a, b: 0.5, get_current_stream=lambda: _Ctx())
    cp = types.SimpleNamespace(
        cuda=cuda, RawModule=RawModule, int32=np.int32, int64=np.int64, uint32=np.uint32,
        ndarray=type("NotACupyArray", (), {}),  # (semiring may look: the engine stays on the CPU)
        empty=lambda n, dtype: _arr(np.full(n, 0x5A, dtype=dtype)),
        zeros=lambda n, dtype: _arr(np.zeros(n, dtype=dtype)),
        empty_like=lambda a: _arr(np.empty_like(np.asarray(a))),
        asarray=lambda a: _arr(np.asarray(a)), asnumpy=lambda a: np.asarray(a))

    class RuntimeErr(Exception):
        pass

    def memcpy_peer(dst, dd, src, sd, nbytes):
        d, s = _Arr.registry[dst], _Arr.registry[src]
        np.asarray(d).view(np.uint8)[:nbytes] = np.asarray(s).view(np.uint8)[:nbytes]

    runtime = types.SimpleNamespace(
        getDeviceCount=lambda: 2, deviceCanAccessPeer=lambda a, b: 1,
        deviceEnablePeerAccess=lambda b: None, memcpyPeer=memcpy_peer,
        getDeviceProperties=lambda g: {"name": b"Fake H200", "multiProcessorCount": 3},
        deviceGetAttribute=lambda attr, g: 1, cudaDevAttrCooperativeLaunch=95,
        CUDARuntimeError=RuntimeErr)
    driver = types.SimpleNamespace(
        occupancyMaxActiveBlocksPerMultiprocessor=lambda f, threads, smem: 2,
        CUDADriverError=RuntimeErr)
    api = types.SimpleNamespace(runtime=runtime, driver=driver)
    return cp, api, calls


class _FakeSparse:
    def __init__(self, H):
        self.host, self.shape, self.nnz = H, H.shape, H.nnz
        self.indptr, self.indices = _arr(H.indptr), _arr(H.indices)

    def get(self):
        return self.host


@pytest.fixture
def fake_gpu(monkeypatch):
    import semiring as sr  # noqa: PLC0415  (the engine's Matrix, patched for the stand-in)
    from semiring import device  # noqa: PLC0415  (its cached CuPy lookups, primed below)

    # semiring caches its CuPy lookups (lru_cache): made here, with the real sys.modules, so
    # that the stand-in is never cached for the tests that run after this one
    real = device._cupy(), device.gpu_available()
    if real[1]:  # (a real CuPy already imported reaches past the stand-in: the 2-H200 run's
        # three errors, session 22; there the probe runs for real)
        pytest.skip("a GPU answers: the probe itself runs there (bench/probes/bfs_two_gpu.py)")

    def install(status=None):
        cp, api, calls = _fake_cupy(status)
        monkeypatch.setitem(sys.modules, "cupy", cp)
        for name in ("cupy_backends", "cupy_backends.cuda"):
            monkeypatch.setitem(sys.modules, name, type(sys)(name))
        monkeypatch.setitem(sys.modules, "cupy_backends.cuda.api", api)
        monkeypatch.setattr(probe, "build_graph",
                            lambda scale, seed=0, xp=None: _FakeSparse(GRAPHS[f"kron{scale}"]))
        monkeypatch.setattr(probe, "native_peer_atomics", lambda: True)
        monkeypatch.setattr(sr.Matrix, "from_cupyx", staticmethod(lambda S: S.host))
        return calls
    yield install
    assert (device._cupy(), device.gpu_available()) == real


@pytest.mark.parametrize("gpus", [1, 2])
def test_probe_main_on_a_cupy_stand_in(fake_gpu, capsys, gpus):
    calls = fake_gpu()
    rc = probe.main(["--scale", "9", "--sources", "3", "--reps", "2", "--gpus", str(gpus),
                     "--precheck", "8", "--trace"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert out.count("levels equal: True") == 3 * 3 + 3 + 1 and "levels equal: False" not in out
    assert "RESULT kron-9 gpus=" + str(gpus) in out and "efficiency" in out
    assert "trace level 0:" in out
    if gpus == 2:
        assert "native peer atomics: yes" in out
        # each launch pair: GPU 0 then GPU 1, complementary word ranges, peers given
        lo0, hi0, p0 = calls[0]
        lo1, hi1, p1 = calls[1]
        assert lo0 == 0 and hi0 == lo1 and hi1 == (256 + 31) // 32 and p0 and p1
    else:
        assert all(not peer and lo == 0 for lo, hi, peer in calls)


def test_probe_main_reports_a_kernel_error(fake_gpu):
    fake_gpu(status={1: 1})
    with pytest.raises(RuntimeError, match="GPU 1: timed out at a cross-GPU barrier"):
        probe.main(["--scale", "9", "--sources", "2", "--precheck", ""])
