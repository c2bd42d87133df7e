"""Graphs made in chunks on the workers (``DistMatrix.from_edge_function`` with
``bench.generators.kronecker_chunk`` / ``urand_chunk``) on a LocalCluster of 3 worker
processes: the same matrix as the one-device generator, bit for bit; BFS, SSSP, PageRank and
connected components on it equal to the one-device engine's; each chunk made once, where it
was placed, no larger than its share, and each worker's peak memory well below the whole
graph's; bad input refused with the argument, the expected and the actual value named."""

from __future__ import annotations

import functools
import tracemalloc

import numpy as np
import pytest

import semiring as sr

import algorithms
import algorithms.dist as adist
from bench import generators as g
from semiring import dist
from semiring.dist import _tasks as T
from conftest import host_routes_off, to_host

WORKERS = 3


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("distributed",
                        reason='the distributed tests need dask: pip install "semiring[dask]"')
    c = dist.local_cluster(WORKERS)
    host_routes_off(c)
    yield c
    c.close()
    c.cluster.close()


def kron(scale, nchunks, client, device, **kw):
    """kron-scale made in ``nchunks`` chunks on the workers, and the one-device matrix."""
    gen = {k: kw.pop(k) for k in ("seed", "undirected", "weighted", "dtype") if k in kw}
    fn = functools.partial(g.kronecker_chunk, scale=scale, **gen)
    n = 1 << scale
    DA = dist.DistMatrix.from_edge_function(fn, (n, n), client, nchunks=nchunks, dup_op="min",
                                            device=device, **kw)
    return DA, sr.Matrix.from_scipy(g.kronecker(scale, **gen), device=device)


# ---------------------------------------------------------------------------------- the graph

@pytest.mark.parametrize("scale,nchunks,cut", [
    (1, 1, dict()),                               # 2 vertices, 32 tuples: nearly all duplicates
    (6, 5, dict(nparts=2)),
    (9, 7, dict(bounds=[0, 0, 100, 512])),        # an empty partition, uneven ones
    (10, 1, dict(nparts=4, kinds=("cols",))),     # the column cut made from the edges
    (10, 40, dict(kinds=("rows", "cols"))),       # more chunks than workers, both cuts
])
def test_chunked_kronecker_is_the_one_device_graph(client, device, scale, nchunks, cut):
    DA, ref = kron(scale, nchunks, client, device, seed=3, **cut)
    assert DA.dtype == ref.dtype == np.float32
    assert DA.nvals == ref.nvals
    assert DA.gather().isequal(ref)
    for k in cut.get("kinds", ("rows",)):  # the blocks made from the edges, each kind
        got = DA.client.gather(DA.blocks(k))
        b = DA.layout(k).bounds
        for q, B in enumerate(got):
            cut_of = T.row_block if k == "rows" else T.col_block  # from_function's cuts
            assert B.isequal(cut_of(ref, b[q], b[q + 1]))


@pytest.mark.parametrize("kw", [dict(undirected=False), dict(weighted=False),
                                dict(dtype=np.int32, seed=9)])
def test_chunked_kronecker_variants(client, device, kw):
    DA, ref = kron(8, 4, client, device, **kw)
    assert DA.gather().isequal(ref)


def test_chunked_urand_and_graph_chunk(client, device):
    spec = g.parse_graph_spec("urand-9", seed=4)
    fn = functools.partial(_spec_chunk, spec)
    DA = dist.DistMatrix.from_edge_function(fn, (512, 512), client, nchunks=5, dup_op="min",
                                            device=device)
    assert DA.gather().isequal(sr.Matrix.from_scipy(g.generate(spec), device=device))
    with pytest.raises(ValueError, match="spec.kind must be one of"):
        g.graph_chunk(g.parse_graph_spec("grid-4x4"), 0, 1)


def _spec_chunk(spec, i, nchunks):
    return g.graph_chunk(spec, i, nchunks)


def test_chunk_tasks_on_the_device(device):
    """The workers' tasks themselves, in this process (no Dask: they run where it is not
    installed, e.g. on the GPU machine): chunks drawn on ``device``, checked, cut by row and
    by column partition, each block assembled from its pieces, equal to the one-device
    matrix's cut."""
    xp = sr.array_module(device)
    scale, nchunks, n = 10, 3, 1 << 10
    ref = sr.Matrix.from_scipy(g.kronecker(scale, seed=6), device=device)
    cuts = {"rows": (0, 300, 300, n), "cols": (0, 511, n)}
    fn = functools.partial(g.kronecker_chunk, scale=scale, seed=6, xp=xp)
    chunks = [T.edge_chunk_pieces(fn, i, nchunks, n, n, cuts, "test") for i in range(nchunks)]
    for kind, b in cuts.items():
        for q in range(len(b) - 1):
            pieces = [T.kind_piece(c, kind, q) for c in chunks]
            assert all(isinstance(a, np.ndarray) for p in pieces for a in p)  # host pieces
            B = T.block_of_pieces(kind, b[q], b[q + 1], n, n, "min", None, device, *pieces)
            assert B.device == device
            cut_of = T.row_block if kind == "rows" else T.col_block
            assert B.isequal(cut_of(ref, b[q], b[q + 1]))
    # a chunk of device arrays out of range: the check reads them where they are
    bad = functools.partial(_chunk_of, (xp.array([0, n]), xp.array([1, 2])))
    with pytest.raises(sr.InvalidIndex, match=rf"fn\(0, 1\): src must lie in \[0, {n}\)"):
        T.edge_chunk_pieces(bad, 0, 1, n, n, cuts, "test")
    if device == "gpu":  # src on the GPU, dst on the host
        mixed = functools.partial(_chunk_of, (xp.array([0, 1]), np.array([1, 2])))
        with pytest.raises(sr.DomainMismatch, match="must be on one device"):
            T.edge_chunk_pieces(mixed, 0, 1, n, n, cuts, "test")


# ---------------------------------------------------------------------------------- algorithms

def test_algorithms_on_the_chunked_graph_match_the_engine(client, device):
    DA, A = kron(11, 6, client, device, seed=5, kinds=("cols",))
    src = int(np.flatnonzero(np.diff(to_host(A.indptr)))[7])
    np.testing.assert_array_equal(to_host(adist.bfs(DA, src)), to_host(algorithms.bfs(A, src)))
    l0, p0 = algorithms.bfs(A, src, parents=True, deterministic=True)
    l1, p1 = adist.bfs(DA, src, parents=True, deterministic=True)
    np.testing.assert_array_equal(to_host(p1), to_host(p0))
    np.testing.assert_array_equal(to_host(adist.sssp(DA, src)), to_host(algorithms.sssp(A, src)))
    np.testing.assert_array_equal(to_host(adist.connected_components(DA)),
                                  to_host(algorithms.connected_components(A)))
    np.testing.assert_allclose(to_host(adist.pagerank(DA)),
                               to_host(algorithms.pagerank(A, weighted=False)), rtol=0,
                               atol=1e-12)


# ---------------------------------------------------------------------------------- memory

def test_each_chunk_made_once_where_placed_and_no_larger_than_its_share(client):
    workers = sorted(client.nthreads())
    client.run(lambda: T.CHUNK_LOG.clear())  # on the workers (a bound method would travel as a copy)
    scale, nchunks = 9, 7
    kron(scale, nchunks, client, "cpu", seed=1)
    logs = client.run(lambda: list(T.CHUNK_LOG))
    m = g.EDGE_FACTOR << scale
    seen = []
    for w, log in logs.items():
        for i, k, entries in log:
            assert k == nchunks and workers[i % WORKERS] == w  # made on the worker it was given
            start, stop = g.chunk_range(m, i, nchunks)
            assert entries <= 2 * (stop - start)  # its tuples, both directions, at most
            seen.append(i)
    assert sorted(seen) == list(range(nchunks))  # each chunk made once


def test_a_chunk_draws_its_share_only():
    """The generator's peak memory for one chunk of eight is a fraction of the whole graph's
    (it draws its tuples only, plus the 2**scale permutation)."""
    def peak(f):
        tracemalloc.start()
        try:
            f()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    whole = peak(lambda: g.kronecker(14, seed=1))
    chunk = max(peak(lambda: g.kronecker_chunk(i, 8, 14, seed=1)) for i in (0, 7))
    assert chunk < 0.25 * whole, (chunk, whole)
    s, d = g.kronecker_edges(14, seed=1, start=100, stop=1100)
    assert s.size == d.size == 1000


def _trace_start():
    tracemalloc.start()
    tracemalloc.reset_peak()


def _trace_peak():
    try:
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_no_worker_peaks_near_the_whole_graph(client):
    """Each worker's peak (NumPy arrays and Python objects, tracemalloc) while the matrix is
    built is far below one process building the whole graph: with 3 workers about 0.64 of
    it (the block's COO-to-CSR sort costs more per entry than the one-device cleaning, and
    each worker holds its chunk's pieces meanwhile); making the whole graph on each worker
    (``from_function``) is at least 1.0."""
    scale = 15
    tracemalloc.start()
    try:
        g.kronecker(scale, seed=1)
        whole = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    client.run(_trace_start)
    try:
        DA, _ = kron(scale, WORKERS, client, "cpu", seed=1)
        DA.persist(("rows",))
    finally:
        peaks = client.run(_trace_peak)
    assert max(peaks.values()) < 0.8 * whole, (peaks, whole)


# ---------------------------------------------------------------------------------- errors

def _chunk_of(out, i, nchunks):
    return out


def _raise(i, nchunks):
    raise RuntimeError(f"chunk {i} of {nchunks} failed")


def test_from_edge_function_errors(client):
    op = "DistMatrix.from_edge_function"
    fe = dist.DistMatrix.from_edge_function
    ok = functools.partial(_chunk_of, (np.array([0, 1]), np.array([1, 2])))
    with pytest.raises(sr.DomainMismatch, match=f"{op}: fn must be callable, got int"):
        fe(3, (4, 4), client)
    for bad in (0, -2, 1.5, True, "2"):
        with pytest.raises(sr.InvalidValue, match=f"{op}: nchunks must be a positive int, got"):
            fe(ok, (4, 4), client, nchunks=bad)
    for bad in ((4,), (4, -1), (4.0, 4), None, "44"):
        with pytest.raises(sr.InvalidValue, match=f"{op}: shape must be \\(nrows, ncols\\)"):
            fe(ok, bad, client)
    with pytest.raises(sr.InvalidValue, match="kinds must be distinct names"):
        fe(ok, (4, 4), client, kinds=("diag",))
    with pytest.raises(sr.InvalidValue, match="kinds must be distinct names"):
        fe(ok, (4, 4), client, kinds=())
    # what fn returns, checked on the worker, the chunk named
    cases = [
        ([0, 1], sr.DimensionMismatch, r"fn\(0, 1\): src must be 1-D, got shape \(\)"),
        ((np.array([0]),), sr.DomainMismatch, r"fn\(0, 1\) must return .*got a tuple of 1"),
        (np.array([0, 1]), sr.DomainMismatch, r"fn\(0, 1\) must return .*got a ndarray"),
        ((np.zeros((2, 2), int), np.zeros((2, 2), int)), sr.DimensionMismatch,
         r"fn\(0, 1\): src must be 1-D, got shape \(2, 2\)"),
        ((np.array([0.0, 1.0]), np.array([1, 2])), sr.DomainMismatch,
         r"fn\(0, 1\): src must hold integers, got float64"),
        ((np.array([0, 1]), np.array([1])), sr.DimensionMismatch,
         r"fn\(0, 1\): dst must have the length of src \(=2\), got 1"),
        ((np.array([0, 1]), np.array([1, 2]), np.ones(3)), sr.DimensionMismatch,
         r"fn\(0, 1\): weight must have the length of src \(=2\), got 3"),
        ((np.array([0, 1]), np.array([1, 2]), np.array(["a", "b"])), sr.DomainMismatch,
         r"fn\(0, 1\): weight must be numbers, got <U1"),
        ((np.ma.array([0, 1], mask=[0, 1]), np.array([1, 2])), sr.DomainMismatch,
         r"fn\(0, 1\): src must be a plain array, got a masked array"),
        ((np.array([0, 4]), np.array([1, 2])), sr.InvalidIndex,
         r"fn\(0, 1\): src must lie in \[0, 4\), got values in \[0, 4\]"),
        ((np.array([0, 1]), np.array([-1, 2])), sr.InvalidIndex,
         r"fn\(0, 1\): dst must lie in \[0, 4\), got values in \[-1, 2\]"),
    ]
    for out, err, msg in cases:
        with pytest.raises(err, match=msg):
            fe(functools.partial(_chunk_of, out), (4, 4), client, nchunks=1)
    # a chunk's own failure comes back as it is; the others built nothing
    with pytest.raises(RuntimeError, match="chunk 0 of 1 failed"):
        fe(_raise, (4, 4), client, nchunks=1)
    # duplicates (two chunks with the same edges) refused without dup_op
    with pytest.raises(sr.DuplicateIndices):
        fe(ok, (4, 4), client, nchunks=2)
    D = fe(ok, (4, 4), client, nchunks=2, dup_op="any")
    assert D.nvals == 2 and D.dtype == np.bool_
    # empty chunks, a rectangular shape
    E = fe(functools.partial(_chunk_of, (np.zeros(0, int), np.zeros(0, int))), (3, 5), client)
    assert E.shape == (3, 5) and E.nvals == 0
