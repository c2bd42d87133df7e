"""The SPMD form of the distributed algorithms (algorithms.dist._spmd over the mesh of
semiring.dist._mesh) on a LocalCluster of 2 worker processes, with 2 or 3 partitions (two on
one worker, empty ones too), against the one-device engine: BFS levels and parents, SSSP,
PageRank, connected components; the mesh itself: its calls, held results, a rank's error.
Each test runs over the TCP exchange and over the NCCL path's framing (``EXCHANGE='framed'``)."""

from __future__ import annotations

import gc
import os
import time

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy.sparse.csgraph import connected_components as scipy_cc

import semiring as sr

distributed = pytest.importorskip(
    "distributed", reason='the distributed tests need dask: pip install "semiring[dask]"')

import algorithms  # noqa: E402
import algorithms.dist as adist  # noqa: E402
from algorithms.dist import _spmd  # noqa: E402
from semiring import dist  # noqa: E402
from semiring.dist import _mesh, _tasks  # noqa: E402
from conftest import local_client, to_host  # noqa: E402

EXAMPLES = max(3, int(os.environ.get("SEMIRING_TEST_EXAMPLES", 40)) // 8)
few = settings(max_examples=EXAMPLES, deadline=None)


@pytest.fixture(scope="module")
def client():
    yield from local_client(2)


@pytest.fixture(autouse=True, params=["tcp", "framed"])
def spmd_on(monkeypatch, request):
    """Every test over both exchanges: 'tcp' (the host path) and 'framed' (the NCCL path's
    padded buffers, headers and sparse-or-bitmap choice, over TCP: the GPU-to-GPU path's
    framing, tested without GPUs; tests/test_dist_nccl.py runs NCCL itself on 2 GPUs)."""
    monkeypatch.setattr(_spmd, "SPMD", True)
    monkeypatch.setattr(_mesh, "EXCHANGE", request.param)
    return request.param


@st.composite
def graphs(draw, max_n=40, weights="int"):
    """(CSR, source, cut): random digraphs with isolated vertices, self-loops, explicit
    zeros, disconnected halves or undirected edges; 2 or 3 parts, even or random (empty parts
    allowed)."""
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, 4 * n))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    if draw(st.booleans()):
        cut = draw(st.integers(0, n))
        keep = (rows < cut) == (cols < cut)
        rows, cols = rows[keep], cols[keep]
    if draw(st.booleans()):
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    vals = (rng.integers(0, 5, rows.size).astype(np.int32) if weights == "int"
            else rng.random(rows.size))
    S = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    S.sum_duplicates()
    k = draw(st.integers(2, 3))
    if draw(st.booleans()):
        part = dict(nparts=k)
    else:
        cuts = sorted(draw(st.lists(st.integers(0, n), min_size=k - 1, max_size=k - 1)))
        part = dict(bounds=[0] + cuts + [n])
    return S, draw(st.integers(0, n - 1)), part


def dmat(S, client, device, cut):
    return dist.DistMatrix.from_scipy(S, client, device=device, **cut)


@few
@given(g=graphs())
def test_spmd_bfs_matches_engine(client, device, g):
    S, source, cut = g
    DA = dmat(S, client, device, cut)
    A = sr.Matrix.from_scipy(S, device=device)
    ref = to_host(algorithms.bfs(A, source))
    for direction in ("auto", "push", "pull"):
        np.testing.assert_array_equal(to_host(adist.bfs(DA, source, direction=direction)), ref)
    rl, rp = algorithms.bfs(A, source, parents=True, deterministic=True)
    gl, gp = adist.bfs(DA, source, parents=True, deterministic=True)
    np.testing.assert_array_equal(to_host(gl), to_host(rl))
    np.testing.assert_array_equal(to_host(gp), to_host(rp))
    # any parent: an in-neighbour on the level before
    gl, gp = (to_host(x) for x in adist.bfs(DA, source, parents=True))
    C = S.tocsc()
    for v in np.flatnonzero(gl > 0):
        ins = C.indices[C.indptr[v]:C.indptr[v + 1]]
        assert gp[v] in ins[gl[ins] == gl[v] - 1]
    np.testing.assert_array_equal(gp == -1, gl == -1)
    # kept on the workers: DistVectors the distributed operations take
    v = adist.bfs(DA, source, gather=False)
    assert isinstance(v, dist.DistVector) and v.nparts == DA.nparts
    np.testing.assert_array_equal(to_host(v.to_dense(missing=-1)), ref)


def test_spmd_bfs_long_path(client, device):
    """A path of 60 vertices over 3 partitions: 59 levels, each one all-gather."""
    n = 60
    perm = np.random.default_rng(3).permutation(n)
    S = sp.csr_matrix((np.ones(n - 1), (perm[:-1], perm[1:])), shape=(n, n))
    DA = dmat(S, client, device, dict(nparts=3))
    ref = to_host(algorithms.bfs(S, int(perm[0])))
    np.testing.assert_array_equal(to_host(algorithms.bfs(DA, int(perm[0]))), ref)
    assert sorted(ref.tolist()) == list(range(n))
    np.testing.assert_array_equal(to_host(algorithms.sssp(DA, int(perm[0]))),
                                  to_host(algorithms.sssp(S, int(perm[0]))))


@few
@given(g=graphs(weights="int"))
def test_spmd_sssp_matches_engine_bitwise(client, device, g):
    S, source, cut = g
    DA = dmat(S, client, device, cut)
    A = sr.Matrix.from_scipy(S, device=device)
    ref = to_host(algorithms.sssp(A, source))
    got = to_host(adist.sssp(DA, source))
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)
    d = adist.sssp(DA, source, gather=False)
    np.testing.assert_array_equal(to_host(d.to_dense()), ref)


@few
@given(g=graphs(weights="float"))
def test_spmd_sssp_float_and_negative(client, device, g):
    S, source, cut = g
    DA = dmat(S, client, device, cut)
    np.testing.assert_array_equal(
        to_host(adist.bellman_ford(DA, source)),
        to_host(algorithms.bellman_ford(sr.Matrix.from_scipy(S, device=device), source)))
    T = sp.triu(S, 1).tocsr()  # a DAG with negative weights: no cycle
    T.data = T.data - 0.5
    np.testing.assert_array_equal(
        to_host(adist.sssp(dmat(T, client, device, cut), source)),
        to_host(algorithms.sssp(sr.Matrix.from_scipy(T, device=device), source)))


def test_spmd_sssp_cycle_limit_overflow(client, device):
    S = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, -2.0], [0.5, 0, 0]]))
    DA = dmat(S, client, device, dict(nparts=2))
    with pytest.raises(sr.NegativeCycleError):
        adist.sssp(DA, 0)
    # the mesh is rebuilt after the error: the next call works
    W = sp.csr_matrix(np.array([[0, 2.0, 9.0], [0, 0, 2.0], [0, 0, 0]]))
    DW = dmat(W, client, device, dict(nparts=3))
    assert to_host(adist.sssp(DW, 0, limit=3.0)).tolist() == [0.0, 2.0, np.inf]
    assert to_host(adist.sssp(DW, 0)).tolist() == [0.0, 2.0, 4.0]
    B = sp.csr_matrix(np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]], dtype=bool))
    assert to_host(adist.sssp(dmat(B, client, device, dict(nparts=2)), 0)).tolist() == \
        [0.0, 1.0, 2.0]
    big = np.iinfo(np.int32).max // 2 + 10
    I = sp.csr_matrix(np.array([[0, big, 0], [0, 0, big], [0, 0, 0]], dtype=np.int32))
    with pytest.raises(algorithms.DistanceOverflow):
        adist.sssp(dmat(I, client, device, dict(nparts=2)), 0)


@few
@given(g=graphs(max_n=30))
def test_spmd_pagerank_matches_engine(client, device, g):
    S, _, cut = g
    DA = dmat(S, client, device, cut)
    A = sr.Matrix.from_scipy(S, device=device)
    ref = to_host(algorithms.pagerank(A, weighted=False, tol=1e-9, max_iter=500))
    got = to_host(adist.pagerank(DA, tol=1e-9, max_iter=500))
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    pers = np.arange(S.shape[0]) + 1.0
    ref = to_host(algorithms.pagerank(A, weighted=False, personalization=pers))
    v = adist.pagerank(DA, personalization=pers, gather=False)
    np.testing.assert_allclose(to_host(v.to_dense()), ref, rtol=0, atol=1e-12)


@few
@given(g=graphs())
def test_spmd_connected_components_match_scipy(client, device, g):
    S, _, cut = g
    DA = dmat(S, client, device, cut)
    _, ref = scipy_cc(S, directed=True, connection="weak")
    got = to_host(adist.connected_components(DA))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, ref)
    U = (S + S.T).tocsr()
    _, ref = scipy_cc(U, directed=False)
    got = to_host(adist.connected_components(dmat(U, client, device, cut), symmetric=True))
    np.testing.assert_array_equal(got, ref)
    # gather=False: each vertex's component's least vertex
    _, lab = scipy_cc(S, directed=True, connection="weak")
    _, first = np.unique(lab, return_index=True)
    roots = to_host(adist.connected_components(DA, gather=False).to_dense())
    np.testing.assert_array_equal(roots, first[lab])


def test_spmd_empty_and_edgeless(client, device):
    Z = sp.csr_matrix((5, 5))
    DZ = dmat(Z, client, device, dict(bounds=[0, 0, 2, 5]))
    assert to_host(adist.bfs(DZ, 3)).tolist() == [-1, -1, -1, 0, -1]
    assert to_host(adist.connected_components(DZ)).tolist() == [0, 1, 2, 3, 4]
    np.testing.assert_allclose(to_host(adist.pagerank(DZ)), 0.2)
    assert to_host(adist.sssp(DZ, 1)).tolist() == [np.inf, 0.0, np.inf, np.inf, np.inf]


def _rank_info(rank, x):
    return rank.rank, rank.size, rank.lo, rank.hi, int(rank.allreduce(np.int64(x), "plus"))


def _rank_fail(rank):
    if rank.rank == 1:
        raise ZeroDivisionError("rank 1 fails")
    rank.allgather(rank.rank)  # rank 0 waits for rank 1: its abort ends the wait
    return rank.rank


def _rank_slices(rank):
    v = sr.Vector.from_coo(np.arange(rank.hi - rank.lo), np.full(rank.hi - rank.lo, rank.rank,
                                                                 dtype=np.int64),
                           size=rank.hi - rank.lo)
    w = rank.allgather_vector(v, "bitmap")
    return v, sr.Vector.from_dense(w.to_dense()[rank.lo:rank.hi] + 1)


def _held(client):
    return sum(client.run(lambda: len(_tasks.HELD)).values())


def test_mesh_calls_errors_and_held(client, device):
    S = sp.random(10, 10, density=0.3, format="csr", random_state=1)
    DA = dmat(S, client, device, dict(bounds=[0, 4, 4, 10]))
    got = DA.call_spmd(_rank_info, (2,), keep=False)
    assert got == [(0, 3, 0, 4, 6), (1, 3, 4, 4, 6), (2, 3, 4, 10, 6)]
    # a rank's error comes back here; its peer stops waiting; the next call has a new mesh
    with pytest.raises(ZeroDivisionError, match="rank 1 fails"):
        DA.call_spmd(_rank_fail, keep=False)
    assert DA.call_spmd(_rank_info, (1,), keep=False)[0] == (0, 3, 0, 4, 3)
    # results kept on the workers: DistVectors; untaken ones dropped with the next call
    gc.collect()
    base = _held(client)
    a, b = DA.call_spmd(_rank_slices, dtypes=(np.int64, np.int64))
    assert _held(client) == base + 6
    assert to_host(b.to_dense()).tolist() == [1] * 4 + [3] * 6
    assert _held(client) == base + 3
    del a, b
    gc.collect()
    DA.call_spmd(_rank_info, (0,), keep=False)  # carries the drops
    for _ in range(50):
        if _held(client) == base:
            break
        time.sleep(0.05)
    assert _held(client) == base
    # held results outlive their mesh (an error closes it): dropped through Dask then
    a, b = DA.call_spmd(_rank_slices, dtypes=(np.int64, np.int64))
    assert _held(client) == base + 6
    with pytest.raises(ZeroDivisionError):
        DA.call_spmd(_rank_fail, keep=False)
    assert to_host(a.to_dense()).tolist() == [0] * 4 + [2] * 6  # taken after the close
    del a, b
    gc.collect()
    for _ in range(50):
        if _held(client) == base:
            break
        time.sleep(0.05)
    assert _held(client) == base
    with pytest.raises(sr.DomainMismatch, match="call_spmd: fn must"):
        DA.call_spmd("nope")
    with pytest.raises(sr.InvalidValue, match="mesh: kinds"):
        DA.mesh(("diag",))
    R = dist.DistMatrix.from_scipy(sp.random(4, 6, density=0.5, format="csr"), client)
    with pytest.raises(sr.DimensionMismatch, match="mesh needs a square"):
        R.mesh()


def test_mesh_refuses_strangers(client, device):
    """A connection without the mesh's key is closed before anything it sends is read."""
    import socket  # noqa: PLC0415  (this test only)

    DA = dmat(sp.identity(6, format="csr"), client, device, dict(nparts=2))
    addr = DA.mesh().socks[1].getpeername()
    s = socket.create_connection(addr, timeout=10)
    try:
        s.sendall(_mesh._HELLO.pack(b"c", b"0" * 32, 0))
        _mesh._send(s, ("call", "t", _rank_info, (1,), {}, False, [], "auto"))
        got = s.recv(1)
    except (ConnectionResetError, BrokenPipeError):
        got = b""
    finally:
        s.close()
    assert got == b""  # closed by the rank, no reply
    assert [r[:2] for r in DA.call_spmd(_rank_info, (1,), keep=False)] == [(0, 2), (1, 2)]


def test_exchange_choice_without_nccl(client, device):
    """Ranks NCCL cannot join (CPU ranks; GPU ranks sharing one GPU: the fixture's workers
    all see their process's default GPU): 'auto' falls back to TCP, 'nccl' raises naming
    why, a bad mode is refused; the mesh works after each (a failed command closes it, the
    next builds another)."""
    DA = dmat(sp.identity(6, format="csr"), client, device, dict(nparts=2))
    for mode, want in (("auto", "tcp"), ("tcp", "tcp"), ("framed", "framed")):
        _mesh.EXCHANGE = mode
        assert DA.call_spmd(_rank_exchange, keep=False) == [want, want]
    _mesh.EXCHANGE = "nccl"
    why = "CPU" if device == "cpu" else "ranks share a GPU"
    with pytest.raises(sr.BackendUnavailable, match=f"exchange='nccl'.*{why}"):
        DA.call_spmd(_rank_exchange, keep=False)
    _mesh.EXCHANGE = "udp"
    with pytest.raises(sr.InvalidValue, match="exchange must be one of"):
        DA.call_spmd(_rank_exchange, keep=False)
    _mesh.EXCHANGE = "tcp"
    assert DA.call_spmd(_rank_exchange, keep=False) == ["tcp", "tcp"]


def _rank_exchange(rank):
    return rank.exchange


@pytest.mark.parametrize("extra", [None, 3, 2**62 + 1, -7, 0.1, -0.0, np.inf, True,
                                   (1, 2.5), (np.int64(5), np.float64(1e-300), False)])
def test_extra_packing_exact(extra):
    """A gather's extra travels through NCCL as int64 bit patterns: back exactly, same
    types (an int stays an int, a float's bits are kept)."""
    packed = _mesh._pack_extra(extra)
    got = _mesh._unpack_extra(np.array(packed[0], dtype=np.int64), packed[1])
    items = extra if isinstance(extra, tuple) else (extra,)
    back = got if isinstance(extra, tuple) else (got,)
    assert type(got) is type(extra) or not isinstance(extra, tuple)
    for a, b in zip(items, back):
        if a is None:
            assert b is None
            continue
        assert np.array(a).tobytes() == np.array(b, dtype=np.array(a).dtype).tobytes()
        assert isinstance(b, bool) == isinstance(a, (bool, np.bool_))
    assert _mesh._pack_extra(("text",)) is None and _mesh._pack_extra(2**64) is None


def test_extra_scalar_arrays_exact(device):
    """0-d arrays in an extra (a reduction left on the rank's device) travel as their bit
    patterns, placed in the head row on the device: back as Python numbers, exactly; over
    TCP they are read on the host first."""
    xp = sr.array_module(device)
    # -0.0 made from a 1-d array: CuPy makes a 0-d array from a scalar by ndarray.fill,
    # which memsets any value == 0, -0.0 too (cupy/_core/core.pyx, fill)
    neg0 = xp.asarray(np.array([-0.0])).reshape(())
    assert np.signbit(to_host(neg0))
    vals = (xp.asarray(2**62 + 3), xp.asarray(0.1) * 3, neg0, xp.asarray(True),
            xp.asarray(np.uint32(7)), xp.asarray(np.float32(1.5)), 4, 0.25)
    bits, shape = _mesh._pack_extra(vals)
    row = _mesh._head_row(xp, [9, *bits])
    assert sr.is_gpu_array(row) == (device == "gpu") and row.dtype == np.int64
    got = _mesh._unpack_extra(to_host(row)[1:], shape)
    assert got[0] == 2**62 + 3 and isinstance(got[0], int)
    assert np.float64(got[1]).tobytes() == np.float64(0.1 * 3).tobytes()
    assert np.signbit(got[2]) and got[3] is True and got[4] == 7 and got[5] == 1.5
    assert got[6:] == (4, 0.25)
    host = _mesh._host_extra(vals)
    assert host[0] == 2**62 + 3 and type(host[0]) is int and host[1] == 0.1 * 3
    assert not any(isinstance(h, np.ndarray) or sr.is_gpu_array(h) for h in host)
    assert _mesh._pack_extra((xp.zeros(2),)) is None  # an array, not a scalar: over TCP


def test_mesh_frames():
    """The framing alone (over a socket pair): objects with NumPy buffers, the abort."""
    import socket  # noqa: PLC0415  (this test only)

    a, b = socket.socketpair()
    try:
        x = {"i": np.arange(5, dtype=np.int32), "f": np.zeros(0), "s": "text"}
        _mesh._send(a, (x, 3))
        got, k = _mesh._recv(b)
        assert k == 3 and got["s"] == "text" and got["i"].tolist() == [0, 1, 2, 3, 4]
        assert got["i"].dtype == np.int32 and got["f"].size == 0
        _mesh._send_abort(a)
        with pytest.raises(_mesh.PeerError):
            _mesh._recv(b)
    finally:
        a.close()
        b.close()
