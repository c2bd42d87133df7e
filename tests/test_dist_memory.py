"""Host memory of the distributed build (the 4-GPU run of 2026-11-28: ``block_of_pieces``
killed all four GPU workers in turn, KilledWorker, while the suite's one-partition kron-22 got
its row block from its column block). Two causes, each checked here:

- each GPU worker's nanny limited it to the host's memory over its *cores* (8 GiB of 512 on
  64 cores), not over the workers (``semiring.dist._client.GPU_WORKER_MEMORY``);
- the row block of a one-partition matrix was rebuilt from the column block through host
  pieces of the whole graph, when both are the whole matrix.

And the pieces' block assembly: the pieces are left as they came (Dask holds them), the
indices past 2**31 kept exact (a block's int32 local indices plus its offset)."""

from __future__ import annotations

import functools
import tracemalloc

import numpy as np
import pytest

import semiring as sr

from bench import generators as g
from semiring import dist
from semiring.dist import _tasks as T
from conftest import local_client, to_host

distributed = pytest.importorskip(
    "distributed", reason='the distributed tests need dask: pip install "semiring[dask]"')


def _limit(dask_worker=None):
    import os  # noqa: PLC0415 (on the worker)

    return dask_worker.memory_manager.memory_limit, os.environ.get("CUDA_VISIBLE_DEVICES")


@pytest.mark.parametrize("workers", [1, 2])
def test_gpu_workers_share_the_host_memory(monkeypatch, workers):
    """A GPU cluster's workers each get the host's memory over the workers (as LocalCluster
    and dask-cuda): no worker process starts CUDA here, so CUDA_VISIBLE_DEVICES names the
    GPUs and the test runs on any host. Dask's own NVML monitor would query the named GPU at
    a worker's start (NVMLError on a host of one GPU for worker 1): off, in the configuration
    the nanny hands its worker (an environment variable is overridden by it)."""
    import dask  # noqa: PLC0415 (optional extra)
    from distributed.system import MEMORY_LIMIT  # noqa: PLC0415 (optional extra)

    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
    with dask.config.set({"distributed.diagnostics.nvml": False}):
        client = dist.local_cluster(workers, device="gpu")
    try:
        got = sorted(client.run(_limit).values(), key=lambda x: x[1])
    finally:
        client.close()
        client.cluster.close()
    assert [v for _, v in got] == ["0", "1"][:workers]
    for lim, _ in got:  # parse_memory_limit('auto', 1, workers)
        assert lim == int(MEMORY_LIMIT * min(1, 1 / workers)), (lim, MEMORY_LIMIT, workers)


def test_gpu_worker_memory_limit_passed_through():
    from distributed.system import MEMORY_LIMIT  # noqa: PLC0415 (optional extra)
    from semiring.dist import _client as C  # noqa: PLC0415  (this test only)

    specs = C._gpu_worker_specs(distributed, ["0", "1", "0"], 1, {}, "127.0.0.1", "1GiB")
    assert [s["options"]["memory_limit"] for s in specs.values()] == [1 << 30] * 3
    assert [s["options"]["env"]["CUDA_VISIBLE_DEVICES"] for s in specs.values()] == ["0", "1", "0"]
    specs = C._gpu_worker_specs(distributed, ["0"], 1, {}, "127.0.0.1", 0)
    assert specs["gpu-0"]["options"]["memory_limit"] == 0  # none
    specs = C._gpu_worker_specs(distributed, ["0"] * 4, 1, {}, "127.0.0.1", "auto")
    assert specs["gpu-3"]["options"]["memory_limit"] == MEMORY_LIMIT // 4


@pytest.fixture(scope="module")
def client():
    yield from local_client(2)


def _trace_start():
    tracemalloc.start()
    tracemalloc.reset_peak()


def _trace_peak():
    try:
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_one_partition_row_block_is_the_column_block(client, device):
    """The rows of a one-partition matrix built as columns cost nothing (they were the whole
    graph in host pieces, 5-6 times the block's bytes: 743 MiB of peak for kron-18's 7.6 M
    entries on a CPU worker), and are the same matrix."""
    scale = 16
    n = 1 << scale
    fn = functools.partial(g.kronecker_chunk, scale=scale, seed=2)
    DA = dist.DistMatrix.from_edge_function(fn, (n, n), client, nparts=1, nchunks=4,
                                            dup_op="min", device=device, kinds=("cols",))
    DA.persist(("cols",))
    ref = sr.Matrix.from_scipy(g.kronecker(scale, seed=2), device=device)
    block_bytes = ref.nvals * (ref.indices.itemsize + ref.values.itemsize)
    client.run(_trace_start)
    try:
        nvals = DA.nvals  # the row blocks, made now (the distributed loops' degree too)
        DA.persist(("rows",))
    finally:
        peaks = client.run(_trace_peak)
    assert nvals == ref.nvals
    assert max(peaks.values()) < 0.1 * block_bytes, (peaks, block_bytes)
    (R,) = client.gather(DA.blocks("rows"))
    assert R.isequal(ref)


@pytest.mark.parametrize("kind", ["rows", "cols"])
def test_block_of_pieces_leaves_its_pieces_alone(device, kind):
    """A block from pieces of mixed index types (int32 and int64), an empty piece and
    weights, renumbered from lo: equal to from_coo of the same entries; the pieces (held by
    Dask for other tasks too) unchanged."""
    rng = np.random.default_rng(5)
    lo, hi, n = 7, 19, 30
    pieces, rows, cols, vals = [], [], [], []
    for k, (m, it) in enumerate(((40, np.int32), (0, np.int64), (25, np.int64), (9, np.int32))):
        key = rng.integers(lo, hi, m)
        other = rng.integers(0, n, m)
        r, c = (key, other) if kind == "rows" else (other, key)
        w = rng.random(m).astype(np.float32)
        pieces.append((r.astype(it), c.astype(it), w))
        rows.append(r), cols.append(c), vals.append(w)
    before = [tuple(a.copy() for a in p) for p in pieces]
    B = T.block_of_pieces(kind, lo, hi, n, n, "min", None, device, *pieces)
    r, c, w = (np.concatenate(x) for x in (rows, cols, vals))
    if kind == "rows":
        r = r - lo
        shape = (hi - lo, n)
    else:
        c = c - lo
        shape = (n, hi - lo)
    ref = sr.Matrix.from_coo(r, c, w, nrows=shape[0], ncols=shape[1], dup_op="min",
                             device=device)
    assert B.device == device
    assert B.isequal(ref)
    for p, q in zip(pieces, before):
        assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(p, q))
    E = T.block_of_pieces(kind, lo, hi, n, n, None, np.float64, device)  # no pieces at all
    assert E.nvals == 0 and E.shape == shape


def test_pieces_past_int32_offsets(device):
    """A block whose local indices are int32 while its offset takes them past 2**31 (a graph
    of more than 2**31 vertices; small shapes on the other side, so that no index array of
    2**31 is made): the pieces carry the global indices exactly, int32 only where they fit,
    and make the block of the other cut."""
    big = (1 << 31) + 10
    n = big + 8
    # a row block: rows [big, big + 4) of an n x 8 matrix, cut by columns [0, 6), [6, 8)
    B = sr.Matrix.from_coo([0, 2, 3], [1, 7, 5], [1.0, 2.0, 3.0], nrows=4, ncols=8,
                           device=device)
    assert B.indices.dtype == np.int32
    (r0, c0, w0), (r1, c1, w1) = pieces = T.block_pieces_by(B, big, "rows", (0, 6, 8))
    assert to_host(r0).tolist() == [big, big + 3] and to_host(c0).tolist() == [1, 5]
    assert to_host(r1).tolist() == [big + 2] and to_host(c1).tolist() == [7]
    assert r0.dtype == np.int64 and c0.dtype == np.int32
    assert all(isinstance(a, np.ndarray) for p in pieces for a in p)  # host pieces
    # a column block: columns [big, big + 4) of an 8 x n matrix, cut by rows [0, 5), [5, 8)
    C = sr.Matrix.from_coo([0, 6, 7], [0, 3, 1], [4.0, 5.0, 6.0], nrows=8, ncols=4,
                           device=device)
    (a0, b0, _), (a1, b1, v1) = T.block_pieces_by(C, big, "cols", (0, 5, 8))
    assert to_host(b0).tolist() == [big] and to_host(b1).tolist() == [big + 3, big + 1]
    assert b1.dtype == np.int64 and a1.dtype == np.int32
    # and back: the row block [5, 8) of the 8 x n matrix from the second piece
    R = T.block_of_pieces("rows", 5, 8, 8, n, None, None, device, (a1, b1, v1))
    r, c, v = R.to_coo()
    assert R.shape == (3, n)
    assert (to_host(r).tolist(), to_host(c).tolist(), to_host(v).tolist()) == \
        ([1, 2], [big + 3, big + 1], [5.0, 6.0])


def _wide_past(limit):
    """An index_type that goes int64 past ``limit`` entries (as past 2**31 - 2**16), so that
    small matrices take the wide path: stripes int32, the whole block int64."""
    def index_type(nrows, ncols, nvals):
        return np.dtype(np.int64) if max(nrows, ncols, nvals) > limit else np.dtype(np.int32)
    return index_type


@pytest.mark.parametrize("kind", ["rows", "cols"])
@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("wide", [False, True])
def test_striped_assembly_is_from_coo(device, monkeypatch, kind, weighted, wide):
    """A block past ASSEMBLY_STRIPE entries is assembled in stripes of rows: the same
    matrix as one from_coo of its entries (duplicates folded by dup_op in input order, a row
    heavier than a stripe, empty rows at both ends, pieces of both index types), its index
    type that of the whole."""
    import semiring.matrix as SM  # noqa: PLC0415  (this test only)

    monkeypatch.setattr(T, "ASSEMBLY_STRIPE", 64)
    if wide:
        monkeypatch.setattr(SM, "index_type", _wide_past(300))
    rng = np.random.default_rng(11 + weighted + 2 * wide)
    lo, hi, n = 40, 90, 120
    key = np.concatenate([rng.integers(lo + 3, hi - 4, 500), np.full(100, lo + 20)])
    other = np.concatenate([rng.integers(0, 30, 500), rng.integers(0, n, 100)])
    r, c = (key, other) if kind == "rows" else (other, key)
    w = rng.integers(1, 5, r.size).astype(np.float64) if weighted else None
    cut = [0, 150, 151, 420, r.size]
    pieces = [(r[a:b].astype(np.int32 if q % 2 else np.int64),
               c[a:b].astype(np.int32 if q % 2 else np.int64),
               None if w is None else w[a:b])
              for q, (a, b) in enumerate(zip(cut[:-1], cut[1:]))]
    dt = None if weighted else np.float32
    B = T.block_of_pieces(kind, lo, hi, n, n, "plus", dt, device, *pieces)
    if kind == "rows":
        rr, cc, shape = r - lo, c, (hi - lo, n)
    else:
        rr, cc, shape = r, c - lo, (n, hi - lo)
    ref = sr.Matrix.from_coo(rr, cc, w, nrows=shape[0], ncols=shape[1], dup_op="plus",
                             dtype=dt, device=device)
    assert B.shape == ref.shape and B.nvals == ref.nvals
    assert B.isequal(ref) and B.dtype == ref.dtype and B.is_iso == ref.is_iso
    assert B.itype == (np.int64 if wide else np.int32)
    np.testing.assert_array_equal(to_host(B.indptr), to_host(ref.indptr))


def test_replicated_build_is_the_exchanged_build(client, device):
    """from_edge_function(replicate=True): every block's worker makes every chunk and keeps
    its own entries; the same blocks as the build through pieces (and the one-device graph),
    each chunk made once per block."""
    scale, n, nchunks = 11, 1 << 11, 5
    fn = functools.partial(g.kronecker_chunk, scale=scale, seed=8)
    ref = sr.Matrix.from_scipy(g.kronecker(scale, seed=8), device=device)
    client.run(_clear_chunk_log)
    R = dist.DistMatrix.from_edge_function(fn, (n, n), client, nchunks=nchunks, dup_op="min",
                                           bounds=[0, 700, 1500, n], device=device,
                                           kinds=("cols", "rows"), replicate=True)
    made = sorted(i for log in client.run(_chunk_log).values() for i, _, _ in log)
    assert made == sorted(list(range(nchunks)) * 6)  # 3 column and 3 row blocks
    X = dist.DistMatrix.from_edge_function(fn, (n, n), client, nchunks=nchunks, dup_op="min",
                                           bounds=[0, 700, 1500, n], device=device,
                                           kinds=("cols", "rows"))
    for k in ("cols", "rows"):
        for a, b in zip(client.gather(R.blocks(k)), client.gather(X.blocks(k))):
            assert a.device == device and a.isequal(b)
    assert R.gather().isequal(ref)
    with pytest.raises(sr.InvalidIndex, match=r"fn\(1, 2\): src must lie in \[0, 8\)"):
        dist.DistMatrix.from_edge_function(_bad_chunk, (8, 8), client, nchunks=2,
                                           replicate=True)


def _clear_chunk_log():
    T.CHUNK_LOG.clear()


def _chunk_log():
    return list(T.CHUNK_LOG)


def _bad_chunk(i, nchunks):
    return (np.array([0, 9 if i == 1 else 1]), np.array([1, 2]))
