"""Blocks with int64 indices through the whole distributed path (issue 18's graph larger than
one GPU: a block of more than 2**31 - 2**16 entries takes the engine's int64 index type,
``semiring.matrix.index_type``). Small graphs take that path here with ``index_type``
lowered to a few thousand entries: the chunked build (pieces, the striped assembly, whose
stripes stay int32 while their block is int64), the SPMD loops of BFS, SSSP, connected
components and PageRank, over the TCP exchange and the NCCL path's framing; each against the
one-device engine on the same graph with its usual index types.

The worker threads share this process (``local_cluster(processes=False)``), so the lowered
limit holds on the workers too."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import semiring as sr

import algorithms
import algorithms.dist as adist
from bench import generators as g
from semiring import dist
from semiring.dist import _tasks as T
from conftest import to_host

pytest.importorskip("distributed",
                    reason='the distributed tests need dask: pip install "semiring[dask]"')

from semiring.dist import _mesh  # noqa: E402 (needs distributed's sockets only, after the skip)

WIDE_PAST = 3000  # entries: blocks and transposes above it int64, stripes below it int32


def _index_type(nrows, ncols, nvals):
    return np.dtype(np.int64) if max(nrows, ncols, nvals) > WIDE_PAST else np.dtype(np.int32)


@pytest.fixture(scope="module")
def client():
    c = dist.local_cluster(3, processes=False)
    yield c
    c.close()
    c.cluster.close()


@pytest.fixture
def wide(monkeypatch):
    import semiring._mfinalize as MF  # noqa: PLC0415  (this test only)
    import semiring.backend.csr as BC  # noqa: PLC0415  (this test only)
    import semiring.matrix as SM  # noqa: PLC0415  (this test only)

    for mod in (SM, BC, MF):
        monkeypatch.setattr(mod, "index_type", _index_type)
    monkeypatch.setattr(T, "ASSEMBLY_STRIPE", 2500)


@pytest.mark.parametrize("exchange", ["tcp", "framed"])
def test_int64_blocks_through_the_spmd_loops(client, device, wide, monkeypatch, exchange):
    monkeypatch.setattr(_mesh, "EXCHANGE", exchange)
    scale, n = 10, 1 << 10
    S = g.kronecker(scale, seed=4)
    M = sr.Matrix(S.indptr.astype(np.int32), S.indices.astype(np.int32), S.data, S.shape)
    M = M if device == "cpu" else M.to_gpu()
    assert M.itype == np.int32 and M.nvals > 4 * WIDE_PAST  # the reference: int32
    fn = functools.partial(g.kronecker_chunk, scale=scale, seed=4)
    DA = dist.DistMatrix.from_edge_function(fn, (n, n), client, nchunks=5, dup_op="min",
                                            bounds=[0, 300, 700, n], device=device,
                                            kinds=("cols",))
    blocks = client.gather(DA.blocks("cols"))
    assert [B.itype for B in blocks] == [np.dtype(np.int64)] * 3
    src = int(np.flatnonzero(np.diff(S.indptr))[7])
    lv0, pa0 = algorithms.bfs(M, src, parents=True, deterministic=True)
    lv1, pa1 = adist.bfs(DA, src, parents=True, deterministic=True)
    np.testing.assert_array_equal(to_host(lv1), to_host(lv0))
    np.testing.assert_array_equal(to_host(pa1), to_host(pa0))
    for d in ("push", "pull"):
        np.testing.assert_array_equal(to_host(adist.bfs(DA, src, direction=d)), to_host(lv0))
    np.testing.assert_array_equal(to_host(adist.sssp(DA, src)),
                                  to_host(algorithms.sssp(M, src)))
    np.testing.assert_array_equal(to_host(adist.connected_components(DA)),
                                  to_host(algorithms.connected_components(M)))
    np.testing.assert_allclose(to_host(adist.pagerank(DA)),
                               to_host(algorithms.pagerank(M, weighted=False)),
                               rtol=0, atol=1e-15)
