"""The two-GPU BFS of the SPMD form (algorithms.dist._spmd, ``BFS_LEVELS`` 'peer' and 'auto':
kernels/bfs_peer.cu, one persistent launch a GPU, the two meeting over peer memory opened by
CUDA IPC between the Dask workers' processes) on 2 GPU workers, one GPU each, against the
one-device engine: directed and symmetric graphs, cuts that are not word boundaries (a rank's
slice read partly from the peer's levels), sources without edges, every direction, many
searches in a row on the same buffers, results left on the workers; the policy choosing it,
and falling back where it does not apply; a peer that never launches (an error, not a hang).
Needs 2 GPUs with peer access (skipped otherwise: CI has none; the kernel's logic is tested
on the CPU by tests/test_bfs_peer_emulated.py, the policy by tests/test_dist_peer_policy.py)."""

from __future__ import annotations

import functools
import os
import time

import numpy as np
import pytest
import scipy.sparse as sp

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast stays off

distributed = pytest.importorskip(
    "distributed", reason='the distributed tests need dask: pip install "semiring[dask]"')
cupy = pytest.importorskip("cupy", reason="the peer BFS needs CuPy and 2 GPUs")


def _peers():
    try:
        rt = cupy.cuda.runtime
        return rt.getDeviceCount() >= 2 and rt.deviceCanAccessPeer(0, 1) and rt.deviceCanAccessPeer(1, 0)
    except Exception:  # noqa: BLE001 (no driver: no GPU)
        return False


pytestmark = pytest.mark.skipif(not _peers(), reason="the peer BFS needs 2 GPUs with peer access")

import semiring as sr  # noqa: E402
import algorithms  # noqa: E402
import algorithms.dist as adist  # noqa: E402
from algorithms.dist import _spmd  # noqa: E402
from semiring import dist  # noqa: E402
from bench import generators as g  # noqa: E402
from conftest import host_routes_off  # noqa: E402


@pytest.fixture(scope="module")
def client():
    from semiring.dist import _client as C  # noqa: PLC0415  (the workers' view of the GPUs)

    # SEMIRING_GPU_WORKER_DEVICES=rotated: each worker sees every GPU, its own first
    was = C.GPU_WORKER_DEVICES
    C.GPU_WORKER_DEVICES = os.environ.get("SEMIRING_GPU_WORKER_DEVICES", was)
    try:
        c = dist.local_cluster(2, device="gpu")
    finally:
        C.GPU_WORKER_DEVICES = was
    host_routes_off(c)
    yield c
    c.close()
    c.cluster.close()


@pytest.fixture
def peer(monkeypatch):
    """The peer loop named alone: it raises where it does not apply (so a passing test ran
    it)."""
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "peer")


def _directed(n=3000, seed=7):
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, n, 5 * n), rng.integers(0, n, 5 * n)
    keep = (rows < n - 50) & (cols % 97 != 3)   # 50 without out-edges, some without in-edges
    rows, cols = np.r_[rows[keep], np.arange(0, n, 11)], np.r_[cols[keep], np.arange(0, n, 11)]
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()  # self-loops
    S.sum_duplicates()
    return S


def _path(n=2000):
    """A directed path (n levels: n cross-GPU barriers) and a cycle beside it."""
    r = np.r_[np.arange(n - 1), n + np.arange(50)]
    c = np.r_[np.arange(1, n), n + (np.arange(50) + 1) % 50]
    return sp.coo_matrix((np.ones(r.size), (r, c)), shape=(n + 50, n + 50)).tocsr()


def _sources(S, k=4, seed=1):
    deg = np.diff(S.indptr)
    rng = np.random.default_rng(seed)
    src = [int(x) for x in rng.choice(np.flatnonzero(deg > 0), k - 1, replace=False)]
    return src + [int(np.flatnonzero(deg == 0)[0])] if (deg == 0).any() else src


CASES = {
    "directed_half": (_directed, dict(nparts=2), False),
    "directed_cut700": (_directed, dict(bounds=[0, 700, 3000]), False),
    "directed_cut_word": (_directed, dict(bounds=[0, 1024, 3000]), False),
    "kron13_sym": (lambda: g.kronecker(13).tocsr(), dict(nparts=2), True),
    "kron13_told": (lambda: g.kronecker(13).tocsr(), dict(nparts=2), False),
    "path": (_path, dict(nparts=2), False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_peer_bfs_matches_engine(client, peer, case):
    make, cut, symmetric = CASES[case]
    S = make()
    A = sr.Matrix.from_scipy(S, device="gpu")
    DA = dist.DistMatrix.from_scipy(S, client, device="gpu", **cut)
    for s in _sources(S):
        ref = cupy.asnumpy(algorithms.bfs(A, s))
        for direction in ("auto", "push", "pull"):
            got = adist.bfs(DA, s, direction=direction, symmetric=symmetric)
            np.testing.assert_array_equal(cupy.asnumpy(got), ref, err_msg=f"{case} {s} {direction}")
        v = adist.bfs(DA, s, gather=False, symmetric=symmetric)   # left on the workers
        np.testing.assert_array_equal(cupy.asnumpy(v.to_dense(missing=-1)), ref)


def _peer_verdict(rank, symmetric):
    got = rank.memo.get(("bfs_peer", symmetric))
    return None if got is None else (got[0] is not None, got[1])


def test_auto_picks_peer_where_it_applies(client, monkeypatch):
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "auto")
    S = _directed()
    DA = dist.DistMatrix.from_scipy(S, client, device="gpu", nparts=2)
    loop = _spmd.bfs_level_loop(DA)
    assert isinstance(loop, functools.partial) and loop.func is _spmd.bfs_rank_peer
    ref = cupy.asnumpy(algorithms.bfs(sr.Matrix.from_scipy(S, device="gpu"), 0))
    np.testing.assert_array_equal(cupy.asnumpy(adist.bfs(DA, 0)), ref)
    # both ranks made the search (no fallback), and say so
    assert DA.call_spmd(_peer_verdict, (False,), keep=False) == [(True, None), (True, None)]
    # parents: the fused loop
    assert _spmd.bfs_level_loop(DA, parents=True) is _spmd.bfs_rank_fused
    lv, pa = adist.bfs(DA, 0, parents=True)
    np.testing.assert_array_equal(cupy.asnumpy(lv), ref)


def test_auto_falls_back_on_more_ranks(client, monkeypatch):
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "auto")
    S = _directed()
    DA = dist.DistMatrix.from_scipy(S, client, device="gpu", nparts=3)  # two ranks share a GPU
    assert _spmd.bfs_level_loop(DA) is _spmd.bfs_rank_fused
    ref = cupy.asnumpy(algorithms.bfs(sr.Matrix.from_scipy(S, device="gpu"), 5))
    np.testing.assert_array_equal(cupy.asnumpy(adist.bfs(DA, 5)), ref)


def _launch_alone(rank, timeout_s):
    """Rank 0 launches a search that rank 1 never joins: its kernel must give up."""
    search, why = _spmd._peer_setup(rank, False)
    assert search is not None, why
    if rank.rank == 0:
        search.launch(0, alpha=14, beta=24, mode=0, timeout0_s=timeout_s, timeout_s=timeout_s)
        search.finish()
    return rank.rank


def test_peer_that_never_launches_is_an_error_not_a_hang(client, peer):
    S = _directed()
    DA = dist.DistMatrix.from_scipy(S, client, device="gpu", nparts=2)
    adist.bfs(DA, 1)                                      # the setup, on both ranks
    t = time.perf_counter()
    with pytest.raises(RuntimeError, match="timed out at a cross-GPU barrier"):
        DA.call_spmd(_launch_alone, (0.5,), keep=False)
    assert time.perf_counter() - t < 60
    # the failed command closed the mesh; the next search builds a new one and is right
    ref = cupy.asnumpy(algorithms.bfs(sr.Matrix.from_scipy(S, device="gpu"), 2))
    np.testing.assert_array_equal(cupy.asnumpy(adist.bfs(DA, 2)), ref)


def test_searches_with_and_without_the_symmetric_promise_share_the_buffers(client, peer):
    """symmetric=True first (one CSR replicated), then False (A and Aᵀ gathered again: a
    second search on the same shared buffers), alternating: the launch count is the buffers'
    (the kernel's stamps rise across both searches' launches), every level right."""
    S = g.kronecker(12).tocsr()
    A = sr.Matrix.from_scipy(S, device="gpu")
    DA = dist.DistMatrix.from_scipy(S, client, device="gpu", nparts=2)
    for i, s in enumerate(_sources(S, 6) * 2):
        ref = cupy.asnumpy(algorithms.bfs(A, s))
        got = adist.bfs(DA, s, symmetric=i % 2 == 0)
        np.testing.assert_array_equal(cupy.asnumpy(got), ref, err_msg=f"{i} {s}")
