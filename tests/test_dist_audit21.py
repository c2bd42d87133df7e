"""Session 21's audit of the distributed API (``semiring.dist``, ``algorithms.dist``): each
defect the probes (bench/probes/dist21_*.py) found, against the one-device engine on the
same input. A LocalCluster of 2 thread workers (``processes=False``: the mesh and the tasks
run as with processes, and the cluster starts in a second)."""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import semiring as sr

distributed = pytest.importorskip(
    "distributed", reason='the distributed tests need dask: pip install "semiring[dask]"')

import algorithms  # noqa: E402
import algorithms.dist as adist  # noqa: E402
from algorithms.dist import _spmd  # noqa: E402
from semiring import dist  # noqa: E402


@pytest.fixture(scope="module")
def client():
    # CPU partitions throughout: the audit is of the CPU path (on a GPU host the default is
    # the GPU, and the comparisons read host arrays); the GPU ranks run tests/test_dist*.py
    c = dist.local_cluster(2, processes=False)
    yield c
    c.close()
    c.cluster.close()


@pytest.fixture(autouse=True)
def spmd_on(monkeypatch):
    monkeypatch.setattr(_spmd, "SPMD", True)


# ------------------------------------------------------------------ constructors


@pytest.mark.parametrize("replicate", [False, True])
def test_edge_weights_cast_as_the_engine_casts(client, replicate):
    """dtype= on an edge list: a float weight past an integer type's range saturates and NaN
    becomes 0 (``sr.types.cast``, what ``Matrix.from_coo(dtype=)`` does); NumPy's astype,
    used before, made inf and NaN the type's minimum."""
    s = np.array([0, 1, 2, 3, 4, 4])
    d = np.array([1, 2, 3, 4, 0, 4])
    w = np.array([np.inf, -np.inf, np.nan, 3e10, -2.7, 5.0])

    def chunk(i, k):
        lo, hi = len(s) * i // k, len(s) * (i + 1) // k
        return s[lo:hi], d[lo:hi], w[lo:hi]

    ref = sr.Matrix.from_coo(s, d, w, nrows=5, ncols=5, dtype=np.int32, device="cpu")
    DA = dist.DistMatrix.from_edge_function(chunk, (5, 5), client, nchunks=2, nparts=2,
                                            dtype=np.int32, replicate=replicate, device="cpu")
    got = DA.gather()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got.to_dense(missing=-1), ref.to_dense(missing=-1))


def test_files_dtype_cast_as_the_engine_casts(client, tmp_path):
    s, d, w = np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([np.inf, np.nan, -1e12])
    path = os.path.join(tmp_path, "e.npz")
    np.savez(path, src=s, dst=d, weight=w)
    ref = sr.Matrix.from_coo(s, d, w, nrows=3, ncols=3, dtype=np.int64, device="cpu")
    got = dist.DistMatrix.from_files([path], client, dtype=np.int64, nparts=2, device="cpu").gather()
    np.testing.assert_array_equal(got.to_dense(missing=-1), ref.to_dense(missing=-1))


@pytest.mark.parametrize("shape", [(7, 7), (3, 5)])
def test_files_mtx_shape_from_its_header(client, tmp_path, shape):
    """A Matrix Market file says its shape: vertices past the last edge are vertices (they
    were dropped: the shape came from the largest index alone), and a rectangular file
    stays rectangular."""
    C = sp.coo_matrix((np.array([1.0, 2.0]), (np.array([0, 1]), np.array([1, 2]))), shape=shape)
    path = os.path.join(tmp_path, "m.mtx")
    scipy.io.mmwrite(path, C)
    DA = dist.DistMatrix.from_files([path], client, device="cpu")
    assert DA.shape == shape
    np.testing.assert_array_equal(DA.gather().to_dense(missing=0), C.toarray())
    if shape[0] == shape[1]:
        ref = algorithms.bfs(sr.Matrix.from_scipy(C.tocsr(), device="cpu"), 0)
        np.testing.assert_array_equal(adist.bfs(DA, 0), ref)


def test_files_fractional_index_refused(client, tmp_path):
    """An index column of floats must hold whole numbers (an m × 3 .npy array stores its
    indices as floats, which are read); 0.5 was truncated to vertex 0."""
    good = os.path.join(tmp_path, "good.npy")
    np.save(good, np.array([[0.0, 1.0, 2.5], [2.0, 0.0, 1.0]]))
    M = dist.DistMatrix.from_files([good], client, device="cpu").gather()
    np.testing.assert_array_equal(M.to_dense(missing=0),
                                  np.array([[0, 2.5, 0], [0, 0, 0], [1.0, 0, 0]]))
    bad = os.path.join(tmp_path, "bad.npy")
    np.save(bad, np.array([[0.5, 1.0, 2.0]]))
    with pytest.raises(sr.DomainMismatch, match=r"column 0 \(src\).*0\.5"):
        dist.DistMatrix.from_files([bad], client, shape=(3, 3), device="cpu")
    nan = os.path.join(tmp_path, "nan.npz")
    np.savez(nan, src=np.array([0, 1]), dst=np.array([1.0, np.nan]))
    with pytest.raises(sr.DomainMismatch, match="dst.*nan"):
        dist.DistMatrix.from_files([nan], client, shape=(3, 3), device="cpu")


def test_dataframe_fractional_index_refused(client):
    dd = pytest.importorskip("dask.dataframe", reason="needs dask[dataframe] (pandas)")
    pd = pytest.importorskip("pandas")
    df = dd.from_pandas(pd.DataFrame({"src": [0.5, 1.0], "dst": [1, 2]}), npartitions=1)
    with pytest.raises(sr.DomainMismatch, match=r"df\['src'\].*0\.5"):
        dist.DistMatrix.from_dask_dataframe(df, client, shape=(3, 3), device="cpu")
    with pytest.raises(sr.InvalidValue, match="shape must be"):
        dist.DistMatrix.from_dask_dataframe(df, client, shape=5, device="cpu")


@pytest.mark.parametrize("shape", [(-1, 3), 5, (2, 2.0)])
def test_files_shape_checked(client, tmp_path, shape):
    """shape= of the edge-list constructors checked as from_edge_function checks it (it
    raised TypeError, or even_bounds' error naming 'n')."""
    path = os.path.join(tmp_path, "e.npy")
    np.save(path, np.array([[0, 1]]))
    with pytest.raises(sr.InvalidValue, match="shape must be"):
        dist.DistMatrix.from_files([path], client, shape=shape, device="cpu")


# ------------------------------------------------------------------ PageRank


@pytest.mark.parametrize("nparts", [1, 2])
def test_pagerank_arguments_as_one_device(client, nparts):
    S = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0.0]]))
    A = sr.Matrix.from_scipy(S, device="cpu")
    DA = dist.DistMatrix.from_scipy(S, client, nparts=nparts, device="cpu")
    # a bool tol was taken as 1, an infinite one stopped after one round
    with pytest.raises(sr.DomainMismatch, match="tol must be a real number"):
        adist.pagerank(DA, tol=True)
    with pytest.raises(sr.InvalidValue, match="tol must be a positive finite"):
        adist.pagerank(DA, tol=np.inf)
    with pytest.raises(sr.DomainMismatch, match="damping must be a real number"):
        adist.pagerank(DA, damping="x")
    # a dict {vertex: weight}, as the one-device function reads it (it was refused)
    pers = {0: 1.0, 2: 3.0}
    ref = algorithms.pagerank(A, personalization=pers, weighted=False)
    got = adist.pagerank(DA, personalization=pers)
    np.testing.assert_allclose(got, ref, rtol=1e-13, atol=0)
    # out of iterations: the one-device ConvergenceError (still an InvalidValue)
    with pytest.raises(algorithms.ConvergenceError, match="no convergence"):
        adist.pagerank(DA, max_iter=1)
    with pytest.raises(sr.InvalidValue, match="no convergence"):
        adist.pagerank(DA, max_iter=1)


# ------------------------------------------------------------------ errors, lifecycle


def test_negative_cycle_named_by_the_call(client):
    """bellman_ford's rank loop said 'sssp:' whichever function the caller called."""
    S = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, -2.0], [0, 1.0, 0]]))
    DA = dist.DistMatrix.from_scipy(S, client, nparts=2, device="cpu")
    with pytest.raises(sr.NegativeCycleError, match="^bellman_ford: a negative cycle"):
        adist.bellman_ford(DA, 0)
    with pytest.raises(sr.NegativeCycleError, match="^sssp: a negative cycle"):
        adist.sssp(DA, 0)


def test_closed_client_refused():
    """A closed client: from_scipy raised AttributeError ('NoneType' has no 'ncores'); BFS,
    SSSP and PageRank on a matrix built before ran on over the mesh's sockets, connected
    components raised Dask's ClosedClientError."""
    c = dist.local_cluster(2, processes=False)
    S = sp.random(12, 12, density=0.2, format="csr", random_state=1)
    DA = dist.DistMatrix.from_scipy(S, c, nparts=2, device="cpu")
    adist.bfs(DA, 0)
    c.close()
    try:
        with pytest.raises(sr.InvalidValue, match="client is closed"):
            dist.DistMatrix.from_scipy(S, c, device="cpu")
        for call in (lambda: adist.bfs(DA, 0), lambda: adist.sssp(DA, 0),
                     lambda: adist.pagerank(DA), lambda: adist.connected_components(DA)):
            with pytest.raises(sr.InvalidValue, match="A's client is closed"):
                call()
    finally:
        c.cluster.close()


# ------------------------------------------------------------------ operations' types


@pytest.mark.parametrize("nparts", [1, 3])
def test_recorded_types_are_the_engines(client, nparts):
    """A DistVector's dtype (what the client records, and the type of an empty gather) is
    the engine's result type: reduce_rows with 'lor' is bool (was A's type), a vector times
    a float scalar float64 (was the vector's), plus a Python int keeps int32."""
    S = sp.csr_matrix(np.array([[0, 2.5, 0], [0, 0, 0], [1.0, 0, 0]]))
    A = sr.Matrix.from_scipy(S, device="cpu")
    DA = dist.DistMatrix.from_scipy(S, client, nparts=nparts, device="cpu")
    for fn in ("reduce_rows", "reduce_cols"):
        for monoid in ("lor", "plus", "min"):
            ref = getattr(sr, fn)(A, monoid)
            got = getattr(dist, fn)(DA, monoid)
            assert got.dtype == ref.dtype, (fn, monoid)
            np.testing.assert_array_equal(got.to_dense(missing=0), ref.to_dense(missing=0))
    x = np.array([3, -1, 4], dtype=np.int32)
    u = sr.Vector.from_dense(x, device="cpu")
    U = dist.DistVector.from_dense(DA, x)
    for op, kw in (("times", dict(right=2.5)), ("plus", dict(right=1)),
                   ("minus", dict(left=np.int64(2))), ("gt", dict(right=0))):
        ref = sr.apply(u, op, **kw)
        got = dist.apply(U, op, **kw)
        assert got.dtype == ref.dtype, (op, kw)
        out, want = got.to_dense(missing=-1), ref.to_dense(missing=-1)
        assert out.dtype == want.dtype
        np.testing.assert_array_equal(out, want)
    b = dist.DistVector.from_dense(DA, np.array([True, False, True]))
    for fname, op in (("ewise_add", "plus"), ("ewise_mult", "first"), ("ewise_add", "lt")):
        ref = getattr(sr, fname)(u, sr.Vector.from_dense(np.array([True, False, True]),
                                                         device="cpu"), op)
        got = getattr(dist, fname)(U, b, op)
        assert got.dtype == ref.dtype, (fname, op)
        np.testing.assert_array_equal(got.to_dense(), ref.to_dense())


@pytest.mark.parametrize("spmd", [True, False])
@pytest.mark.parametrize("nparts", [1, 2])
def test_component_roots_int64(client, monkeypatch, spmd, nparts):
    """gather=False: each vertex's least vertex, int64, on every path (the loop of Dask
    tasks, SPMD = False, made them float64 on a weighted matrix: the product's type)."""
    monkeypatch.setattr(_spmd, "SPMD", spmd)
    S = sp.csr_matrix(np.array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 2.5], [0, 0, 0, 1.0, 0],
                                [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]))
    A = sr.Matrix.from_scipy(S, device="cpu")
    DA = dist.DistMatrix.from_scipy(S, client, nparts=nparts, device="cpu")
    roots = adist.connected_components(DA, gather=False)
    got = roots.to_dense(missing=-1)
    assert roots.dtype == np.int64 and got.dtype == np.int64
    np.testing.assert_array_equal(got, [0, 1, 2, 2, 1])
    np.testing.assert_array_equal(adist.connected_components(DA),
                                  algorithms.connected_components(A))
