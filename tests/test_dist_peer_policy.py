"""The policy of the two-GPU BFS (algorithms.dist._spmd: ``BFS_LEVELS`` 'auto' picks 'peer'
only for GPU blocks in exactly two partitions, levels only, n below the kernel's limit; the
ranks then check the rest and fall back to 'fused' where it fails) on a CPU LocalCluster:
the variant is never chosen on CPU ranks, 'peer' named alone raises there with the reason,
the ranks' own fallback gives the engine's levels, and the mesh's peer memory says why it
cannot be made. The kernel itself: tests/test_bfs_peer_emulated.py (CPU) and
tests/test_dist_peer_bfs.py (2 GPUs)."""

from __future__ import annotations

import functools
import types

import numpy as np
import pytest
import scipy.sparse as sp

import semiring as sr

distributed = pytest.importorskip(
    "distributed", reason='the distributed tests need dask: pip install "semiring[dask]"')

import algorithms  # noqa: E402
import algorithms.dist as adist  # noqa: E402
from algorithms.dist import _local, _spmd  # noqa: E402
from semiring import dist  # noqa: E402
from semiring.backend.gpu import bfs_peer  # noqa: E402
from conftest import local_client  # noqa: E402


@pytest.fixture(scope="module")
def client():
    yield from local_client(2)


@pytest.fixture(autouse=True)
def spmd(monkeypatch):
    monkeypatch.setattr(_spmd, "SPMD", True)
    monkeypatch.setattr(_local, "WHOLE_ON_ONE_WORKER", False)


def _graph(n=300, seed=3):
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, 3 * n), rng.integers(0, n, 3 * n)
    keep = r < n - 20
    S = sp.coo_matrix((np.ones(keep.sum()), (r[keep], c[keep])), shape=(n, n)).tocsr()
    S.sum_duplicates()
    return S


def _fake(device="gpu", nparts=2, nrows=1000):
    """What peer_applies reads of a DistMatrix."""
    return types.SimpleNamespace(device=device, nparts=nparts, nrows=nrows, ncols=nrows)


def test_peer_applies_only_to_two_gpu_partitions_and_levels():
    assert _spmd.peer_applies(_fake()) is None
    assert "cpu" in _spmd.peer_applies(_fake(device="cpu"))
    assert "3 partitions" in _spmd.peer_applies(_fake(nparts=3))
    assert "1 partitions" in _spmd.peer_applies(_fake(nparts=1))
    assert "parents" in _spmd.peer_applies(_fake(), parents=True)
    assert "limit" in _spmd.peer_applies(_fake(nrows=bfs_peer.MAX_N))
    assert _spmd.peer_applies(_fake(nrows=bfs_peer.MAX_N - 1)) is None


def test_auto_and_peer_choose_by_the_policy(monkeypatch):
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "auto")
    loop = _spmd.bfs_level_loop(_fake(), symmetric=True)
    assert isinstance(loop, functools.partial) and loop.func is _spmd.bfs_rank_peer
    assert loop.keywords == {"symmetric": True, "strict": False}
    assert _spmd.bfs_level_loop(_fake(), parents=True) is _spmd.bfs_rank_fused
    assert _spmd.bfs_level_loop(_fake(device="cpu")) is _spmd.bfs_rank_fused
    assert _spmd.bfs_level_loop(_fake(nparts=4)) is _spmd.bfs_rank_fused
    assert _spmd.bfs_level_loop() is _spmd.bfs_rank_fused      # no matrix: the fused loop
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "peer")
    assert _spmd.bfs_level_loop(_fake()).keywords["strict"] is True
    with pytest.raises(sr.BackendUnavailable, match="partitions"):
        _spmd.bfs_level_loop(_fake(nparts=3))
    with pytest.raises(sr.BackendUnavailable, match="levels only"):
        _spmd.bfs_level_loop(_fake(), parents=True)
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "fused")
    assert _spmd.bfs_level_loop(_fake()) is _spmd.bfs_rank_fused
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "algebra")
    assert _spmd.bfs_level_loop(_fake()) is _spmd.bfs_rank


def test_cpu_ranks_never_run_the_peer_loop(client, monkeypatch):
    S = _graph()
    DA = dist.DistMatrix.from_scipy(S, client, device="cpu", nparts=2)
    ref = algorithms.bfs(sr.Matrix.from_scipy(S, device="cpu"), 4)
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "auto")
    assert _spmd.bfs_level_loop(DA) is _spmd.bfs_rank_fused
    np.testing.assert_array_equal(adist.bfs(DA, 4), ref)
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "peer")
    with pytest.raises(sr.BackendUnavailable, match="BFS_LEVELS='peer' does not apply.*cpu"):
        adist.bfs(DA, 4)


def _peer_run(rank, strict):
    return _spmd.bfs_rank_peer(rank, 4, False, "auto", False, 14, 24, True, strict=strict)


def test_ranks_fall_back_where_their_checks_fail(client):
    """The ranks' own checks (the client's passed, say, for a matrix the ranks see otherwise):
    on CPU ranks the verdict is the same on both, the loop falls back to the fused levels
    (the engine's), or raises with ``strict``."""
    S = _graph()
    DA = dist.DistMatrix.from_scipy(S, client, device="cpu", nparts=2)
    ref = algorithms.bfs(sr.Matrix.from_scipy(S, device="cpu"), 4)
    got = DA.call_spmd(_peer_run, (False,), keep=False)
    np.testing.assert_array_equal(np.concatenate([g[0] for g in got]), ref)
    with pytest.raises(sr.BackendUnavailable, match="holds its blocks on the CPU"):
        DA.call_spmd(_peer_run, (True,), keep=False)


def _peer_memory(rank):
    return rank.peer_memory("test", 1024)


def test_peer_memory_says_why_not_on_cpu_ranks(client):
    S = _graph()
    DA = dist.DistMatrix.from_scipy(S, client, device="cpu", nparts=2)
    got = DA.call_spmd(_peer_memory, keep=False)
    assert [p for p, _ in got] == [None, None]
    assert got[0][1] == got[1][1] and "holds its blocks on the CPU" in got[0][1]


def test_peer_loop_refuses_parents(client):
    S = _graph()
    DA = dist.DistMatrix.from_scipy(S, client, device="cpu", nparts=2)
    with pytest.raises(sr.InvalidValue, match="levels only"):
        DA.call_spmd(functools.partial(_spmd.bfs_rank_peer, strict=False),
                     (0, True, "auto", False, 14, 24, True), keep=False)


def _whole(rank, symmetric):
    B = rank.block("cols")
    counts = rank.allgather(int(B.nvals))
    ip, ix, tip, tix = _spmd._whole_graph(rank, B, counts, np.dtype(np.int32), symmetric)
    return [np.asarray(a) for a in (ip, ix, tip, tix)], ip is tip and ix is tix


@pytest.mark.parametrize("exchange", ["tcp", "framed"])
@pytest.mark.parametrize("cut", [dict(nparts=2), dict(bounds=[0, 37, 300]),
                                 dict(bounds=[0, 0, 300]), dict(bounds=[0, 300, 300])])
def test_ranks_gather_the_whole_graph(client, monkeypatch, exchange, cut):
    """The peer BFS's replicated graph, gathered on every rank from the column blocks: A's
    CSR and Aᵀ's (the same arrays where A is symmetric), whatever the cut (empty parts too),
    over TCP and over the NCCL path's framing."""
    from semiring.dist import _mesh  # noqa: PLC0415  (the exchange switch, this test only)

    monkeypatch.setattr(_mesh, "EXCHANGE", exchange)
    S = _graph()
    S.sort_indices()
    sym = ((S + S.T) != 0).astype(np.float64).tocsr()
    sym.sort_indices()
    for M in (S, sym):
        DA = dist.DistMatrix.from_scipy(M, client, device="cpu", **cut)
        T = M.T.tocsr()
        T.sort_indices()
        for told in (False, True) if M is sym else (False,):
            for (ip, ix, tip, tix), same in DA.call_spmd(_whole, (told,), keep=False):
                np.testing.assert_array_equal(tip, T.indptr)
                np.testing.assert_array_equal(tix, T.indices)
                np.testing.assert_array_equal(ip, M.indptr)
                np.testing.assert_array_equal(ix, M.indices)
                assert same == (M is sym)


# ------------------------------------------------------------------------------------------
# Rank.peer_memory's GPU side on a stand-in for CuPy (a rank alone, its peer's messages
# scripted): the handle exchanged, the peer's opened (or its pointer taken in one process),
# the reasons it cannot be made, the same verdict from the peers' answers, and the release


class _FakeRT:
    class CUDARuntimeError(Exception):
        pass

    def __init__(self, devices, access=True):
        self.devices, self.access, self.log = devices, access, []

    def malloc(self, n):
        self.log.append(("malloc", n))
        return 4096

    def memset(self, p, v, n):
        self.log.append(("memset", p, n))

    def deviceSynchronize(self):
        self.log.append(("sync",))

    def ipcGetMemHandle(self, p):
        return bytes(range(64))

    def getDeviceCount(self):
        return len(self.devices)

    def deviceCanAccessPeer(self, a, b):
        return int(self.access)

    def deviceEnablePeerAccess(self, d):
        self.log.append(("enable", d))

    def ipcOpenMemHandle(self, h):
        self.log.append(("open", h))
        return 8192

    def ipcCloseMemHandle(self, p):
        self.log.append(("close", p))

    def free(self, p):
        self.log.append(("free", p))


def _fake_cupy(rt):
    class Device:
        def __init__(self, d=0):
            self.id = d
            self.pci_bus_id = rt.devices[d]

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    return types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=rt, Device=Device))


def _rank_alone(monkeypatch, rt, peer_msg, peer_why=None):
    import os  # noqa: PLC0415  (stdlib: the peer's pid)
    import socket  # noqa: PLC0415  (stdlib: the peer's host)
    import sys  # noqa: PLC0415  (stdlib: the stand-in's module)

    from semiring.dist import _mesh  # noqa: PLC0415  (the Rank, this test only)

    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(rt))
    R = _mesh.Rank("k" * 32, 0, 2, (0, 5, 10), "127.0.0.1")
    R.blocks["cols"] = types.SimpleNamespace(device="gpu")
    msg = dict(why=None, host=socket.gethostname(), pid=os.getpid() + 1, bus="0000:02:00.0",
               handle=b"\x07" * 64, ptr=12288)
    msg.update(peer_msg)
    sent = []

    def allgather(obj):
        sent.append(obj)
        if len(sent) == 1:
            return [obj, tuple(msg[k] for k in ("why", "host", "pid", "bus", "handle", "ptr"))]
        return [obj, peer_why]

    monkeypatch.setattr(R, "allgather", allgather)
    return R, sent


def test_peer_memory_opens_the_peers_handle_and_releases_it(monkeypatch):
    rt = _FakeRT(["0000:01:00.0"])               # the worker sees its own GPU only
    R, sent = _rank_alone(monkeypatch, rt, {})
    try:
        pointers, why = R.peer_memory("x", 100)
        assert why is None and pointers == [4096, 8192]
        assert sent[0][0] is None and sent[0][3] == "0000:01:00.0" and len(sent[0][4]) == 64
        assert ("open", b"\x07" * 64) in rt.log and ("memset", 4096, 100) in rt.log
        assert R.peer_memory("x", 100) == (pointers, None) and len(sent) == 2  # kept
    finally:
        R.close()
    assert rt.log[-3:] == [("sync",), ("close", 8192), ("free", 4096)]


def test_peer_memory_in_one_process_takes_the_pointer(monkeypatch):
    import os  # noqa: PLC0415  (stdlib: this process's pid)

    rt = _FakeRT(["0000:01:00.0", "0000:02:00.0"])
    R, _ = _rank_alone(monkeypatch, rt, {"pid": os.getpid()})
    try:
        assert R.peer_memory("x", 100) == ([4096, 12288], None)
        assert ("enable", 1) in rt.log and not any(e[0] == "open" for e in rt.log)
    finally:
        R.close()
    assert ("free", 4096) in rt.log and not any(e[0] == "close" for e in rt.log)


@pytest.mark.parametrize("case,match", [
    ({"bus": "0000:01:00.0"}, "share a GPU"),
    ({"host": "elsewhere"}, "different hosts"),
    ({"why": "rank 1 holds its blocks on the CPU"}, "rank 1 holds its blocks on the CPU"),
    ("no access", "no peer access"),
    ("peer says", "rank 1: no"),
])
def test_peer_memory_says_why_not_and_frees(monkeypatch, case, match):
    rt = _FakeRT(["0000:01:00.0", "0000:02:00.0"], access=case != "no access")
    R, _ = _rank_alone(monkeypatch, rt, case if isinstance(case, dict) else {},
                       peer_why="rank 1: no" if case == "peer says" else None)
    try:
        pointers, why = R.peer_memory("x", 100)
        assert pointers is None and match in why
        assert ("free", 4096) in rt.log and not R._peer_mem  # nothing kept
    finally:
        R.close()


def test_gpu_workers_see_their_gpu_first_or_alone():
    from semiring.dist import _client as C  # noqa: PLC0415  (this test only)

    def visible(devices):
        specs = C._gpu_worker_specs(distributed, ["0", "1", "0"], 1, {}, "127.0.0.1", 0,
                                    devices=devices)
        return [s["options"]["env"]["CUDA_VISIBLE_DEVICES"] for s in specs.values()]

    assert visible("own") == ["0", "1", "0"]
    assert visible("rotated") == ["0,1", "1,0", "0,1"]      # device 0: the worker's own
    assert visible(None) == visible(C.GPU_WORKER_DEVICES)
    with pytest.raises(sr.InvalidValue, match="GPU_WORKER_DEVICES"):
        visible("all")
