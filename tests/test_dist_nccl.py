"""The SPMD form's NCCL exchange (semiring.dist._mesh, ``EXCHANGE='auto'`` on GPU ranks) on 2
GPU workers, one GPU each, against the one-device engine and against the TCP exchange: BFS
levels and parents, SSSP, PageRank, connected components. Needs 2 GPUs (skipped otherwise:
CI has none; tests/test_dist_spmd.py runs the same framing over TCP on CPU workers)."""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.sparse as sp

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast stays off

distributed = pytest.importorskip(
    "distributed", reason='the distributed tests need dask: pip install "semiring[dask]"')
cupy = pytest.importorskip("cupy", reason="the NCCL exchange needs CuPy and 2 GPUs")


def _gpus():
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:  # noqa: BLE001 (no driver: no GPU)
        return 0


pytestmark = pytest.mark.skipif(_gpus() < 2, reason="the NCCL exchange needs 2 GPUs")

import semiring as sr  # noqa: E402
import algorithms  # noqa: E402
import algorithms.dist as adist  # noqa: E402
from semiring import dist  # noqa: E402
from semiring.dist import _mesh  # noqa: E402
from bench import generators as g  # noqa: E402
from conftest import host_routes_off  # noqa: E402


@pytest.fixture(scope="module")
def client():
    c = dist.local_cluster(2, device="gpu")
    host_routes_off(c)
    yield c
    c.close()
    c.cluster.close()


def _worker_gpu():
    return os.environ.get("CUDA_VISIBLE_DEVICES"), cupy.cuda.Device().pci_bus_id


def _rank_exchange(rank):
    return rank.exchange, rank._nccl_why


def test_workers_own_a_gpu_each(client):
    got = client.run(_worker_gpu)
    visible = sorted(v[0] for v in got.values())
    buses = {v[1] for v in got.values()}
    assert visible == ["0", "1"] and len(buses) == 2


def _graphs():
    rng = np.random.default_rng(7)
    n = 3000
    rows, cols = rng.integers(0, n, 6 * n), rng.integers(0, n, 6 * n)
    keep = rows < n - 50                               # 50 vertices without out-edges
    R = sp.coo_matrix((rng.integers(0, 9, keep.sum()).astype(np.int64),
                       (rows[keep], cols[keep])), shape=(n, n)).tocsr()
    R.sum_duplicates()
    K = g.kronecker(13)                                # symmetric, float32 weights
    return [(R, dict(nparts=2)), (R, dict(bounds=[0, 700, n])),
            (K.tocsr(), dict(nparts=2))]


@pytest.mark.parametrize("case", range(3))
def test_nccl_matches_engine_and_tcp(client, case, monkeypatch):
    S, cut = _graphs()[case]
    A = sr.Matrix.from_scipy(S, device="gpu")
    DA = dist.DistMatrix.from_scipy(S, client, device="gpu", **cut)
    src = int(np.argmax(np.diff(S.indptr)))
    ref = {"bfs": algorithms.bfs(A, src, parents=True, deterministic=True),
           "sssp": algorithms.sssp(A, src),
           "cc": algorithms.connected_components(A),
           "pagerank": algorithms.pagerank(A, weighted=False)}
    got = {}
    for mode in ("nccl", "tcp"):
        monkeypatch.setattr(_mesh, "EXCHANGE", mode)
        assert DA.call_spmd(_rank_exchange, keep=False) == [(mode, None)] * 2
        got[mode] = {"bfs": adist.bfs(DA, src, parents=True, deterministic=True),
                     "sssp": adist.sssp(DA, src),
                     "cc": adist.connected_components(DA),
                     "pagerank": adist.pagerank(DA)}
        for d in ("push", "pull"):
            np.testing.assert_array_equal(adist.bfs(DA, src, direction=d).get(),
                                          ref["bfs"][0].get())
        for i in range(2):
            np.testing.assert_array_equal(got[mode]["bfs"][i].get(), ref["bfs"][i].get())
        np.testing.assert_array_equal(got[mode]["sssp"].get(), ref["sssp"].get())
        np.testing.assert_array_equal(got[mode]["cc"].get(), ref["cc"].get())
        np.testing.assert_allclose(got[mode]["pagerank"].get(), ref["pagerank"].get(),
                                   rtol=0, atol=1e-12)
    # the two exchanges move the same bits: PageRank's sums equal to the last bit too
    assert got["nccl"]["pagerank"].get().tobytes() == got["tcp"]["pagerank"].get().tobytes()
