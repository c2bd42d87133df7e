"""The distributed path (semiring.dist, algorithms.dist) on a LocalCluster of 2 worker
processes against the one-device engine: products over every kind of semiring with masks,
accumulators and replace; BFS, SSSP, PageRank and connected components on random graphs;
the constructors; the errors. Each partition's work is the engine's own, so the results are
compared for equality (PageRank, a float sum, within 1e-10 of NetworkX)."""

from __future__ import annotations

import os

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
from algorithms.dist import _local, _spmd  # noqa: E402
from semiring import dist  # noqa: E402
from conftest import local_client, to_host  # noqa: E402

#: Each distributed call costs Dask round trips: fewer examples than the one-device tests.
EXAMPLES = max(3, int(os.environ.get("SEMIRING_TEST_EXAMPLES", 40)) // 8)
few = settings(max_examples=EXAMPLES)


@pytest.fixture(scope="module")
def client():
    yield from local_client(2)


@pytest.fixture(autouse=True)
def loop_on_one(monkeypatch):
    """A single partition runs the distributed loop too (test_whole_on_one_worker checks
    the one-task shortcut), and so do several (the SPMD form: tests/test_dist_spmd.py)."""
    monkeypatch.setattr(_local, "WHOLE_ON_ONE_WORKER", False)
    monkeypatch.setattr(_spmd, "SPMD", False)


@st.composite
def graphs(draw, max_n=30, weights="int"):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(0, 4 * n))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    if draw(st.booleans()):  # two parts with no edge between them
        cut = draw(st.integers(0, n))
        keep = (rows < cut) == (cols < cut)
        rows, cols = rows[keep], cols[keep]
    if draw(st.booleans()):  # undirected
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    if weights == "int":  # duplicates summed by the COO→CSR; explicit zeros stay edges
        vals = rng.integers(0, 5, rows.size).astype(np.int32)
    else:
        vals = rng.random(rows.size)
    S = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    S.sum_duplicates()
    return S, draw(st.integers(0, n - 1)), draw(parts(n))


@st.composite
def parts(draw, n):
    """Partition bounds: one part, even parts, or random cuts (empty parts allowed)."""
    k = draw(st.integers(1, 3))
    if draw(st.booleans()):
        return dict(nparts=k)
    cuts = sorted(draw(st.lists(st.integers(0, n), min_size=k - 1, max_size=k - 1)))
    return dict(bounds=[0] + cuts + [n])


def dmat(S, client, device, cut):
    return dist.DistMatrix.from_scipy(S, client, device=device, **cut)


# ---------------------------------------------------------------------------------- products

SEMIRINGS = ["plus_times", "min_plus", "max_plus", "any_pair", "lor_land", "min_first",
             "max_second", "any_secondi", "min_secondi", "min_firsti", "any_firstj",
             "min_secondj", "plus_pair"]


@few
@given(data=st.data())
def test_products_match_engine(client, device, data):
    n = data.draw(st.integers(1, 20))
    ncols = n
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    dens = data.draw(st.sampled_from([0.0, 0.1, 0.4]))
    S = sp.random(n, ncols, density=dens, format="csr", random_state=rng, dtype=np.float64)
    S.data = np.round(S.data * 8) - 2  # negatives and explicit zeros
    A = sr.Matrix.from_scipy(S, device=device)
    DA = dmat(S, client, device, data.draw(parts(n)))
    semi = data.draw(st.sampled_from(SEMIRINGS))
    op = data.draw(st.sampled_from(["mxv", "vxm"]))
    xp = sr.array_module(device)
    present = rng.random(n) < data.draw(st.sampled_from([0.2, 0.7, 1.0]))
    vals = np.round(rng.random(n) * 10)
    idx = np.flatnonzero(present)
    u = sr.Vector.from_coo(xp.asarray(idx), xp.asarray(vals[idx]), size=n, device=device)
    du = dist.DistVector.from_coo(DA, idx, vals[idx])
    kw, dkw = {}, {}
    if data.draw(st.booleans()):  # a mask
        mp = rng.random(n) < 0.5
        midx = np.flatnonzero(mp)
        mvals = rng.integers(0, 2, midx.size).astype(bool)
        m = sr.Vector.from_coo(xp.asarray(midx), xp.asarray(mvals), size=n, device=device)
        dm = dist.DistVector.from_coo(DA, midx, mvals)
        structure, complement = data.draw(st.booleans()), data.draw(st.booleans())
        kw.update(mask=m, structure=structure, complement=complement)
        dkw.update(mask=dm, structure=structure, complement=complement)
    if data.draw(st.booleans()):  # into an existing output, with accum and replace
        op_acc = data.draw(st.sampled_from([None, "plus", "min"]))
        replace = data.draw(st.booleans())
        oidx = np.flatnonzero(rng.random(n) < 0.5)
        ovals = rng.integers(-3, 3, oidx.size).astype(np.float64)
        kw.update(out=sr.Vector.from_coo(xp.asarray(oidx), xp.asarray(ovals), size=n,
                                         device=device),
                  accum=op_acc, replace=replace)
        dkw.update(out=dist.DistVector.from_coo(DA, oidx, ovals), accum=op_acc, replace=replace)
    direction = data.draw(st.sampled_from(["push", "pull"]))
    if op == "mxv":
        ref = sr.mxv(A, u, semi, **kw)
        got = dist.mxv(DA, du, semi, direction=direction, **dkw)
    else:
        ref = sr.vxm(u, A, semi, **kw)
        got = dist.vxm(du, DA, semi, direction=direction, **dkw)
    ri, rv = ref.to_coo()
    gi, gv = got.to_coo()
    np.testing.assert_array_equal(to_host(gi), to_host(ri))
    if semi in ANY_INDEX:  # the any monoid keeps any one product of a row: one of them
        old = dict(zip(oidx.tolist(), ovals.tolist())) if "out" in kw else {}
        _assert_any_products(S, idx, op, kw.get("accum"), old, to_host(gi), to_host(gv),
                             to_host(rv))
    else:
        np.testing.assert_array_equal(to_host(gv), to_host(rv))
    assert got.nvals == ref.nvals


#: Semirings whose add is ``any`` and whose product is the index k of the term (A(i,k) u(k) in
#: mxv, u(k) A(k,j) in vxm): which k a row keeps depends on the order of the partitions' work.
ANY_INDEX = ("any_secondi", "any_firstj")


def _assert_any_products(S, idx, op, accum, old, gi, gv, rv):
    """Each value is the one-device engine's, or a product k of its row (one where both
    operands are stored), accumulated into the output's old value (``old``: index -> value)
    when there is one."""
    A = (S if op == "mxv" else S.T).tocsr()
    present = np.zeros(A.shape[1], dtype=bool)
    present[idx] = True
    acc = {None: lambda o, k: k, "plus": lambda o, k: o + k, "min": min}[accum]
    for i, g, r in zip(gi.tolist(), gv.tolist(), rv.tolist()):
        ks = [k for k in A.indices[A.indptr[i]:A.indptr[i + 1]].tolist() if present[k]]
        allowed = {r} | {k if i not in old else acc(old[i], k) for k in ks}
        assert g in allowed, (i, g, sorted(allowed))


def test_elementwise_and_reductions(client, device):
    n = 11
    S = sp.random(n, n, density=0.3, format="csr", random_state=3)
    DA = dmat(S, client, device, dict(nparts=3))
    a = np.arange(n, dtype=np.float64) - 4
    da = dist.DistVector.from_dense(DA, a)
    db = dist.DistVector.from_coo(DA, [1, 5, 9], [10.0, 20.0, 30.0])
    want = a.copy()
    want[[1, 5, 9]] = np.maximum(a[[1, 5, 9]], [10.0, 20.0, 30.0])
    np.testing.assert_array_equal(to_host(dist.ewise_add(da, db, "max").to_dense()), want)
    assert dist.ewise_mult(da, db).nvals == 3
    assert float(dist.reduce_scalar(da, "min")) == -4.0
    assert dist.reduce_scalar(db, "plus") == 60.0
    assert dist.dot(da, db) == (a[1] * 10 + a[5] * 20 + a[9] * 30)
    assert dist.dot(da, db, "min_plus") == min(a[1] + 10, a[5] + 20, a[9] + 30)
    assert dist.compute(dist.dot(da, db, "plus_first", lazy=True), db.nvals_lazy()) == \
        (a[1] + a[5] + a[9], 3)
    assert to_host(dist.apply(da, "abs").to_dense()).tolist() == np.abs(a).tolist()
    assert dist.select(da, "valuegt", 2.0).nvals == 4
    w = dist.assign(dist.DistVector.full(DA, 1.0), 7.0, mask=db.S)
    assert to_host(w.to_dense()).tolist() == [1, 7, 1, 1, 1, 7, 1, 1, 1, 7, 1]
    idx = dist.DistVector.from_coo(DA, [0, 2], [9, 10])
    assert to_host(dist.extract(da, idx).to_dense(missing=-99)).tolist()[:3] == [5.0, -99, 6.0]
    deg = to_host(DA.degree("rows").to_dense())
    np.testing.assert_array_equal(deg, np.diff(S.indptr))
    np.testing.assert_array_equal(to_host(DA.degree("cols").to_dense()),
                                  np.bincount(S.indices, minlength=n))
    np.testing.assert_allclose(to_host(dist.reduce_rows(DA).to_dense()),
                               np.asarray(S.sum(axis=1)).ravel())
    np.testing.assert_allclose(to_host(dist.reduce_cols(DA).to_dense()),
                               np.asarray(S.sum(axis=0)).ravel())
    assert DA.gather().isequal(sr.Matrix.from_scipy(S, device=device))


# ---------------------------------------------------------------------------------- algorithms

@few
@given(g=graphs())
def test_bfs_matches_engine(client, device, g):
    S, source, cut = g
    DA = dmat(S, client, device, cut)
    A = sr.Matrix.from_scipy(S, device=device)
    ref = to_host(algorithms.bfs(A, source))
    for direction in ("auto", "push", "pull"):
        np.testing.assert_array_equal(to_host(adist.bfs(DA, source, direction=direction)), ref)
    rl, rp = algorithms.bfs(A, source, parents=True, deterministic=True)
    gl, gp = adist.bfs(DA, source, parents=True, deterministic=True)
    np.testing.assert_array_equal(to_host(gp), to_host(rp))
    # any parent: valid (an in-neighbour on the previous level)
    gl, gp = (to_host(x) for x in adist.bfs(DA, source, parents=True))
    np.testing.assert_array_equal(gl, ref)
    assert gp[source] == source
    C = S.tocsc()
    for v in np.flatnonzero(gl > 0):
        ins = C.indices[C.indptr[v]:C.indptr[v + 1]]
        assert gp[v] in ins[gl[ins] == gl[v] - 1]
    np.testing.assert_array_equal(gp == -1, gl == -1)


def test_bfs_long_path_and_dispatch(client, device):
    n = 40
    perm = np.random.default_rng(0).permutation(n)
    S = sp.csr_matrix((np.ones(n - 1), (perm[:-1], perm[1:])), shape=(n, n))
    DA = dmat(S, client, device, dict(nparts=2))
    ref = to_host(algorithms.bfs(S, int(perm[0])))
    np.testing.assert_array_equal(to_host(adist.dispatch("bfs", DA, int(perm[0]))), ref)
    assert sorted(ref.tolist()) == list(range(n))
    # the hook at the top of the one-device functions: the same calls on a DistMatrix
    np.testing.assert_array_equal(to_host(algorithms.bfs(DA, int(perm[0]))), ref)
    np.testing.assert_array_equal(to_host(algorithms.sssp(DA, int(perm[0]))),
                                  to_host(algorithms.sssp(S, int(perm[0]))))
    np.testing.assert_array_equal(to_host(algorithms.bellman_ford(DA, int(perm[0]))),
                                  to_host(algorithms.bellman_ford(S, int(perm[0]))))
    v = adist.bfs(DA, int(perm[0]), gather=False)
    assert isinstance(v, dist.DistVector) and v.nvals == n


@few
@given(g=graphs(weights="int"))
def test_sssp_matches_engine_bitwise(client, device, g):
    S, source, cut = g
    DA = dmat(S, client, device, cut)
    A = sr.Matrix.from_scipy(S, device=device)
    ref = to_host(algorithms.sssp(A, source))
    got = to_host(adist.sssp(DA, source))
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)


@few
@given(g=graphs(weights="float"))
def test_sssp_float_and_negative(client, device, g):
    S, source, cut = g
    DA = dmat(S, client, device, cut)
    A = sr.Matrix.from_scipy(S, device=device)
    np.testing.assert_array_equal(to_host(adist.bellman_ford(DA, source)),
                                  to_host(algorithms.bellman_ford(A, source)))
    # negative weights on a DAG (edges i → j with i < j): no cycle, same distances
    T = sp.triu(S, 1).tocsr()
    T.data = T.data - 0.5
    DT = dmat(T, client, device, cut)
    np.testing.assert_array_equal(to_host(adist.sssp(DT, source)),
                                  to_host(algorithms.sssp(sr.Matrix.from_scipy(T, device=device), source)))


def test_sssp_negative_cycle_and_limit(client, device):
    S = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, -2.0], [0.5, 0, 0]]))
    DA = dmat(S, client, device, dict(nparts=2))
    with pytest.raises(sr.NegativeCycleError):
        adist.sssp(DA, 0)
    W = sp.csr_matrix(np.array([[0, 2.0, 9.0], [0, 0, 2.0], [0, 0, 0]]))
    DW = dmat(W, client, device, dict(nparts=2))
    assert to_host(adist.sssp(DW, 0, limit=3.0)).tolist() == [0.0, 2.0, np.inf]
    B = sp.csr_matrix(np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]], dtype=bool))
    assert to_host(adist.sssp(dmat(B, client, device, dict(nparts=2)), 0)).tolist() == [0.0, 1.0, 2.0]


@few
@given(g=graphs(max_n=25))
def test_pagerank_matches_networkx(client, device, g):
    nx = pytest.importorskip("networkx")
    S, _, cut = g
    DA = dmat(S, client, device, cut)
    G = nx.from_scipy_sparse_array(S, create_using=nx.DiGraph)
    # the same iteration and stopping test as NetworkX's: equal up to rounding, and within
    # the tolerance's reach should the last iteration differ
    ref = nx.pagerank(G, weight=None, tol=1e-7, max_iter=1000)
    got = to_host(adist.pagerank(DA, tol=1e-7, max_iter=1000))
    np.testing.assert_allclose(got, [ref[i] for i in range(S.shape[0])], atol=1e-6)
    assert abs(got.sum() - 1) < 1e-9
    pers = np.arange(S.shape[0]) + 1.0
    ref = nx.pagerank(G, weight=None, tol=1e-7, max_iter=1000,
                      personalization={i: pers[i] for i in range(S.shape[0])})
    got = to_host(adist.pagerank(DA, personalization=pers, tol=1e-7, max_iter=1000))
    np.testing.assert_allclose(got, [ref[i] for i in range(S.shape[0])], atol=1e-6)


@few
@given(g=graphs())
def test_connected_components_match_scipy(client, device, g):
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


def test_empty_and_edgeless(client, device):
    E = sp.csr_matrix((0, 0))
    DE = dmat(E, client, device, dict(nparts=2))
    assert to_host(adist.connected_components(DE)).size == 0
    assert to_host(adist.pagerank(DE)).size == 0
    with pytest.raises(sr.InvalidIndex):
        adist.bfs(DE, 0)
    Z = sp.csr_matrix((5, 5))
    DZ = dmat(Z, client, device, dict(nparts=2))
    assert to_host(adist.bfs(DZ, 3)).tolist() == [-1, -1, -1, 0, -1]
    assert to_host(adist.connected_components(DZ)).tolist() == [0, 1, 2, 3, 4]
    np.testing.assert_allclose(to_host(adist.pagerank(DZ)), 0.2)


@pytest.mark.parametrize("path", ["mesh", "actor", "task"])
def test_whole_on_one_worker(client, device, monkeypatch, path):
    """One partition: the one-device algorithm as one call on its worker (through the mesh's
    socket, an actor's method, or a task through the scheduler), same results."""
    monkeypatch.setattr(_local, "WHOLE_ON_ONE_WORKER", True)
    monkeypatch.setattr(_local, "DIRECT", path != "task")
    monkeypatch.setattr(_local, "MESH", path == "mesh")
    S = sp.random(30, 30, density=0.1, format="csr", random_state=2)
    S.data = np.round(S.data * 9) + 1
    A = sr.Matrix.from_scipy(S, device=device)
    DA = dmat(S, client, device, dict(nparts=1))
    for s in (0, 7):
        rl, rp = algorithms.bfs(A, s, parents=True, deterministic=True)
        gl, gp = adist.bfs(DA, s, parents=True, deterministic=True)
        np.testing.assert_array_equal(to_host(gl), to_host(rl))
        np.testing.assert_array_equal(to_host(gp), to_host(rp))
        np.testing.assert_array_equal(to_host(adist.sssp(DA, s)), to_host(algorithms.sssp(A, s)))
        v = adist.bfs(DA, s, gather=False)
        assert v.nvals == int((to_host(rl) >= 0).sum())
        np.testing.assert_array_equal(to_host(v.to_dense(missing=-1)), to_host(rl))
        lv, pv = adist.bfs(DA, s, parents=True, deterministic=True, gather=False)
        np.testing.assert_array_equal(to_host(pv.to_dense(missing=-1)), to_host(rp))
        d = adist.sssp(DA, s, gather=False)
        np.testing.assert_array_equal(to_host(d.to_dense(missing=np.inf)),
                                      to_host(algorithms.sssp(A, s)))
    # PageRank: the one-device power iteration (structure only) as one task, equal to it and
    # within rounding of the distributed loop on the same single partition
    pers = np.arange(30) + 1.0
    for kw in ({}, dict(personalization=pers)):
        ref = to_host(algorithms.pagerank(A, weighted=False, **kw))
        got = adist.pagerank(DA, **kw)
        np.testing.assert_array_equal(to_host(got), ref)
        v = adist.pagerank(DA, gather=False, **kw)
        assert v.nvals == 30
        np.testing.assert_array_equal(to_host(v.to_dense()), ref)
        monkeypatch.setattr(_local, "WHOLE_ON_ONE_WORKER", False)
        np.testing.assert_allclose(to_host(adist.pagerank(DA, **kw)), ref, rtol=0, atol=1e-12)
        monkeypatch.setattr(_local, "WHOLE_ON_ONE_WORKER", True)
    with pytest.raises(sr.InvalidValue, match="no convergence"):
        adist.pagerank(DA, max_iter=1, tol=1e-12)
    with pytest.raises(sr.InvalidIndex):
        adist.bfs(DA, 30)


def _held_count(DA):
    return DA.servers("cols")[0].held().result()


def test_call_direct_held_parts(client, device, monkeypatch):
    """A direct call's results stay on the worker: usable as partitions (a task takes each on
    first use, once), dropped there when the client lets go of them untaken."""
    import gc  # noqa: PLC0415  (this test only: collect the dropped results' records)

    monkeypatch.setattr(_local, "WHOLE_ON_ONE_WORKER", True)
    monkeypatch.setattr(_local, "DIRECT", True)
    monkeypatch.setattr(_local, "MESH", False)

    S = sp.random(40, 40, density=0.1, format="csr", random_state=4)
    A = sr.Matrix.from_scipy(S, device=device)
    DA = dmat(S, client, device, dict(nparts=1))
    DA.blocks("cols")
    ref_l, ref_p = (to_host(x) for x in algorithms.bfs(A, 3, parents=True, deterministic=True))
    gc.collect()
    base = _held_count(DA)
    lv, pv = adist.bfs(DA, 3, parents=True, deterministic=True, gather=False)
    assert lv.wait() is lv
    assert _held_count(DA) == base + 2
    # the levels taken into Dask's memory (one task), used by the distributed operations
    lv2 = dist.apply(lv, "plus", right=1)
    np.testing.assert_array_equal(to_host(lv2.to_dense(missing=-1)),
                                  np.where(ref_l >= 0, ref_l + 1, -1))
    assert lv.parts is lv.parts and lv.nvals == int((ref_l >= 0).sum())
    assert _held_count(DA) == base + 1
    del lv, lv2, pv  # the parents never taken: dropped on the worker
    gc.collect()
    for _ in range(50):
        if _held_count(DA) == base:
            break
        import time  # noqa: PLC0415  (this test only: the drop is sent, not awaited)
        time.sleep(0.05)
    assert _held_count(DA) == base
    got = DA.call_direct("rows", 0, sr.reduce_rows, ("plus",), keep=False)
    np.testing.assert_allclose(to_host(got.to_dense()), np.asarray(S.sum(axis=1)).ravel())
    with pytest.raises(sr.InvalidValue, match="call_direct: kind"):
        DA.call_direct("diag", 0, sr.reduce_rows)
    with pytest.raises(sr.InvalidIndex, match="call_direct: p must"):
        DA.call_direct("rows", 1, sr.reduce_rows)
    with pytest.raises(sr.DomainMismatch, match="call_direct: fn must"):
        DA.call_direct("rows", 0, "reduce_rows")
    with pytest.raises(ZeroDivisionError):  # the worker's error, raised here
        DA.call_direct("rows", 0, _fail)


def _fail(B):
    return 1 / 0


def test_call_direct_with_two_clients(client, device):
    """The actor handles answer through the matrix's own client, not the process's default
    one (another cluster's, made later: the bench keeps one per worker count)."""
    S = sp.identity(5, format="csr")
    DA = dmat(S, client, device, dict(nparts=1))
    other = dist.local_cluster(1, processes=False)
    try:
        assert distributed.get_client() is other  # the default is now the other client
        assert DA.servers("rows")[0]._client is client  # (without: a call here hangs)
        got = DA.call_direct("rows", 0, sr.reduce_rows, ("plus",), keep=False)
        assert to_host(got.to_dense()).tolist() == [1.0] * 5
    finally:
        other.close()
        other.cluster.close()
    got = DA.call_direct("rows", 0, sr.reduce_rows, ("plus",), keep=False)  # other closed
    assert to_host(got.to_dense()).tolist() == [1.0] * 5


def test_reduce_latency(client):
    """local_cluster sends each message at once (client, scheduler and worker streams), and
    workers that join later do too (the plugins); reduce_latency checks its interval."""
    from semiring.dist import _plugins  # noqa: PLC0415  (imports distributed: after the skip)

    assert client.scheduler_comm.interval == 0.0
    assert client.run_on_scheduler(_intervals) == [0.0] * 3  # 2 workers, 1 client
    assert set(client.run(_worker_interval).values()) == {0.0}
    slow = dist.local_cluster(1, processes=False, low_latency=False)
    try:
        assert slow.scheduler_comm.interval > 0  # dask's own batching
        assert set(slow.run(_worker_interval).values()) != {0.0}
        assert dist.reduce_latency(slow, 0.0005) is slow
        assert slow.scheduler_comm.interval == 0.0005
        assert set(slow.run_on_scheduler(_intervals)) == {0.0005}
        assert set(slow.run(_worker_interval).values()) == {0.0005}
        # a worker that joins later: both plugins set its streams
        slow.cluster.scale(2)
        slow.wait_for_workers(2, timeout=30)
        assert set(slow.run(_worker_interval).values()) == {0.0005}
        assert set(slow.run_on_scheduler(_intervals)) == {0.0005}
        for bad in (-1, "0", True, float("nan")):
            with pytest.raises(sr.InvalidValue, match="reduce_latency: interval"):
                dist.reduce_latency(slow, bad)
    finally:
        slow.close()
        slow.cluster.close()
    assert _plugins.LowLatencyWorker(0.0).name != _plugins.LowLatencyScheduler(0.0).name


def _intervals(dask_scheduler=None):
    return [b.interval for b in (*dask_scheduler.stream_comms.values(),
                                 *dask_scheduler.client_comms.values())]


def _worker_interval(dask_worker=None):
    return dask_worker.batched_stream.interval


# ---------------------------------------------------------------------------------- constructors

def _edges():
    rng = np.random.default_rng(5)
    n, m = 40, 150
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(1, 9, m).astype(np.float64)
    S = sp.coo_matrix((w, (src, dst)), shape=(n, n)).tocsr()  # duplicates summed
    return n, src, dst, w, S, sr.Matrix.from_scipy(S, device="cpu")


def test_from_dask_dataframe(client):
    dd = pytest.importorskip("dask.dataframe", reason="needs dask[dataframe] (pandas)")
    pd = pytest.importorskip("pandas")
    n, src, dst, w, S, ref = _edges()
    df = dd.from_pandas(pd.DataFrame({"s": src, "d": dst, "w": w}), npartitions=3)
    DA = dist.DistMatrix.from_dask_dataframe(df, client, src="s", dst="d", weight="w",
                                             shape=(n, n), dup_op="plus", nparts=3)
    assert DA.gather().isequal(ref)
    assert DA.nvals == S.nnz
    # unweighted edge list: a structure-only matrix; n from the largest vertex
    DU = dist.DistMatrix.from_dask_dataframe(df, client, src="s", dst="d", dup_op="any")
    assert DU.shape[0] == max(src.max(), dst.max()) + 1
    with pytest.raises(sr.InvalidValue, match="no column"):
        dist.DistMatrix.from_dask_dataframe(df, client, src="x")


def test_constructors(client, tmp_path):
    n, src, dst, w, S, ref = _edges()
    # files read by the workers: Matrix Market, .npy and .npz pieces of the same edge list
    import scipy.io
    scipy.io.mmwrite(str(tmp_path / "a.mtx"), sp.coo_matrix((w[:50], (src[:50], dst[:50])), shape=(n, n)))
    np.save(tmp_path / "b.npy", np.c_[src[50:100], dst[50:100], w[50:100]])
    np.savez(tmp_path / "c.npz", src=src[100:], dst=dst[100:], weight=w[100:])
    DF = dist.DistMatrix.from_files([tmp_path / "a.mtx", tmp_path / "b.npy", tmp_path / "c.npz"],
                                    client, shape=(n, n), dup_op="plus")
    assert DF.gather().isequal(ref)
    # the column blocks, made by the all-to-all exchange, give the same products
    x = dist.DistVector.full(DF, 1.0)
    np.testing.assert_allclose(to_host(dist.vxm(x, DF).to_dense()),
                               np.asarray(S.sum(axis=0)).ravel())
    # from_function: every worker builds the matrix and keeps its block
    DG = dist.DistMatrix.from_function(S.copy, (n, n), client, kinds=("rows", "cols"))
    assert DG.gather().isequal(ref)
    # degrees from the other cut (a reduce-scatter of the blocks' counts)
    DC = dist.DistMatrix.from_function(S.copy, (n, n), client, nparts=3, kinds=("cols",))
    np.testing.assert_array_equal(to_host(DC.degree("rows").to_dense()), np.diff(S.indptr))
    DR = dist.DistMatrix.from_function(S.copy, (n, n), client, nparts=3, kinds=("rows",))
    np.testing.assert_array_equal(to_host(DR.degree("cols").to_dense()),
                                  np.bincount(S.indices, minlength=n))
    # unweighted edge files: n from the largest vertex; duplicates refused without dup_op
    np.save(tmp_path / "u.npy", np.c_[src, dst])
    DU = dist.DistMatrix.from_files(tmp_path / "u.npy", client, dup_op="any")
    assert DU.shape[0] == max(src.max(), dst.max()) + 1
    assert DU.gather().isequal(sr.Matrix.from_scipy((S != 0).astype(bool), device="cpu"))
    with pytest.raises(sr.DuplicateIndices):
        dist.DistMatrix.from_files(tmp_path / "u.npy", client)
    # bounds, a non-square matrix
    R = sp.random(7, 4, density=0.5, format="csr", random_state=1)
    DR = dist.DistMatrix.from_scipy(R, client, bounds=[0, 2, 7])
    assert DR.gather().isequal(sr.Matrix.from_scipy(R, device="cpu"))
    y = dist.mxv(DR, dist.DistVector.full(DR.col_layout, 1.0))
    np.testing.assert_allclose(to_host(y.to_dense()), np.asarray(R.sum(axis=1)).ravel())


# ---------------------------------------------------------------------------------- errors

def test_errors(client):
    S = sp.csr_matrix(np.eye(4))
    DA = dist.DistMatrix.from_scipy(S, client)
    with pytest.raises(sr.InvalidIndex, match="bfs: source must lie in"):
        adist.bfs(DA, 4)
    with pytest.raises(sr.DomainMismatch, match="bfs: source must be an integer"):
        adist.bfs(DA, 1.5)
    with pytest.raises(sr.InvalidValue, match="not distributed"):
        adist.bfs(DA, sources=[0, 1])
    with pytest.raises(sr.InvalidValue, match="direction"):
        adist.bfs(DA, 0, direction="sideways")
    with pytest.raises(sr.DomainMismatch, match="DistMatrix"):
        adist.bfs(S, 0)
    with pytest.raises(sr.DimensionMismatch, match="square"):
        adist.bfs(dist.DistMatrix.from_scipy(sp.csr_matrix((3, 4)), client), 0)
    with pytest.raises(sr.InvalidValue, match="predecessors"):
        adist.sssp(DA, 0, predecessors=True)
    with pytest.raises(sr.InvalidValue, match="damping must be in"):
        adist.pagerank(DA, damping=1.5)
    with pytest.raises(sr.InvalidValue, match="strong"):
        adist.connected_components(DA, connection="strong")
    with pytest.raises(sr.InvalidValue, match="no distributed"):
        adist.dispatch("louvain", DA)
    with pytest.raises(sr.InvalidValue, match="bounds"):
        dist.DistMatrix.from_scipy(S, client, bounds=[0, 3])
    other = dist.DistMatrix.from_scipy(S, client, bounds=[0, 1, 4])
    with pytest.raises(sr.DimensionMismatch, match="cut differently"):
        dist.vxm(dist.DistVector.full(other, 1.0), DA)
    with pytest.raises(sr.DimensionMismatch, match="must equal"):
        dist.mxv(dist.DistMatrix.from_scipy(sp.csr_matrix((4, 3)), client),
                 dist.DistVector.full(DA, 1.0))
    with pytest.raises(sr.InvalidIndex):
        dist.DistVector.from_coo(DA, [7], 1.0)
    with pytest.raises(sr.DomainMismatch, match="client"):
        dist.DistMatrix.from_scipy(S, "not a client")
    with pytest.raises(sr.InvalidValue, match="format"):
        dist.DistMatrix.from_files(["x.csv"], client)
    # the caller's matrix is not changed
    before = S.copy()
    adist.bfs(DA, 0)
    assert (S != before).nnz == 0
