"""I/O round trips: Matrix Market (values, explicit zeros, patterns, symmetric files),
NetworkX graphs and edge lists."""

from __future__ import annotations

import io

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st

import semiring as sr
from conftest import to_host
from strategies import dense_matrix, make_matrix


@given(data=st.data())
def test_matrix_market_round_trip(device, data):
    vals, pres = data.draw(dense_matrix(), label="A")
    iso = data.draw(st.booleans(), label="iso")
    A = make_matrix(vals, pres, device, iso=iso)
    buf = io.BytesIO()
    sr.io.mmwrite(buf, A.to_cpu())
    buf.seek(0)
    B = sr.io.mmread(buf, device=device)
    assert B.device == device and B.shape == A.shape and B.nvals == A.nvals
    if iso:
        assert B.is_iso and B.dtype == np.bool_
        assert B.isequal(A)
    else:
        # Matrix Market stores integers and reals: compare the values, not the dtype
        np.testing.assert_array_equal(to_host(B.to_dense(missing=-99)).astype(np.float64),
                                      to_host(A.to_dense(missing=-99)).astype(np.float64))


@pytest.mark.parametrize("values", [[True, False, True], [0.0, 0.0, 0.0], [1, 0, 1]])
def test_mmwrite_keeps_an_explicit_zero_without_its_mirror(values):
    # A(0,1) is stored (False / 0) and A(1,0) is not: the file must not say 'symmetric'
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], values, nrows=2, ncols=2, device="cpu")
    buf = io.BytesIO()
    sr.io.mmwrite(buf, A)
    assert b"general" in buf.getvalue().splitlines()[0]
    buf.seek(0)
    B = sr.io.mmread(buf, device="cpu")
    assert B.nvals == 3
    np.testing.assert_array_equal(B.to_dense(missing=-9).astype(float), A.to_dense(missing=-9).astype(float))


def test_matrix_market_symmetric_and_array_files(tmp_path):
    p = tmp_path / "sym.mtx"
    p.write_text("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 4.0\n3 3 0.0\n")
    A = sr.io.mmread(p, device="cpu")
    np.testing.assert_array_equal(A.to_dense(missing=-1), [[-1, 4, -1], [4, -1, -1], [-1, -1, 0]])
    assert A.nvals == 3  # the explicit zero on the diagonal is an entry
    q = tmp_path / "dense.mtx"
    q.write_text("%%MatrixMarket matrix array integer general\n2 2\n1\n0\n3\n4\n")
    D = sr.io.mmread(q, device="cpu")
    assert D.nvals == 4 and D.to_dense().tolist() == [[1, 3], [0, 4]]


def test_mmwrite_refuses_gpu_matrix_and_non_matrix():
    with pytest.raises(sr.DomainMismatch):
        sr.io.mmwrite(io.BytesIO(), [[1, 2]])
    if sr.gpu_available():
        G = sr.Matrix.from_coo([0], [0], [1.0], device="gpu")
        with pytest.raises(sr.DeviceMismatch, match=r"call \.to_cpu\(\) first"):
            sr.io.mmwrite(io.BytesIO(), G)


def test_networkx_round_trip(device):
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 0.0), (1, 2, 3.5), (2, 2, 1.0), (3, 0, 2.0)])
    G.add_node(4)
    A = sr.Matrix.from_networkx(G, nodelist=range(5), device=device)
    assert A.device == device and A.shape == (5, 5) and A.nvals == 4
    d = to_host(A.to_dense(missing=np.nan))
    assert d[0, 1] == 0.0 and d[1, 2] == 3.5 and d[2, 2] == 1.0 and np.isnan(d[4]).all()
    H = A.to_cpu().to_networkx()
    assert sorted(H.edges(data="weight")) == sorted(G.edges(data="weight"))
    assert set(H.nodes) == set(range(5))
    S = sr.Matrix.from_networkx(nx.cycle_graph(4), weight=None, device=device)
    assert S.is_iso and S.nvals == 8 and S.isequal(S.T)


def test_networkx_errors():
    with pytest.raises(sr.DomainMismatch, match="networkx graph"):
        sr.Matrix.from_networkx([(0, 1)])
    with pytest.raises(sr.DimensionMismatch, match="square"):
        sr.Matrix.from_coo([0], [2], [1.0], nrows=1, ncols=3, device="cpu").to_networkx()


def test_edgelist(device):
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 2]], [5.0, 6.0, 7.0], undirected=True,
                                device=device)
    np.testing.assert_array_equal(to_host(A.to_dense(missing=0)),
                                  [[0, 5, 0], [5, 0, 6], [0, 6, 7]])
    with pytest.raises(sr.DuplicateIndices):
        sr.Matrix.from_edgelist([[0, 1], [1, 0]], undirected=True, device=device)
    B = sr.Matrix.from_edgelist([[0, 1], [1, 0]], undirected=True, dup_op="any", device=device)
    assert B.is_iso and B.nvals == 2
    C = sr.Matrix.from_edgelist(np.array([[3, 1]]), nvertices=5, device=device)
    assert C.shape == (5, 5) and C.nvals == 1
    with pytest.raises(sr.DimensionMismatch, match=r"shape \(m, 2\)"):
        sr.Matrix.from_edgelist([[0, 1, 2]], device=device)
    with pytest.raises(sr.InvalidIndex):
        sr.Matrix.from_edgelist([[0, 7]], nvertices=3, device=device)


def test_edgelist_matches_scipy(device):
    rng = np.random.default_rng(4)
    e = rng.integers(0, 50, (300, 2))
    w = rng.random(300)
    A = sr.Matrix.from_edgelist(e, w, nvertices=50, dup_op="plus", device=device)
    S = sp.coo_matrix((w, (e[:, 0], e[:, 1])), shape=(50, 50)).tocsr()
    np.testing.assert_allclose(to_host(A.to_dense()), S.toarray())


def test_mmread_and_from_networkx_name_the_bad_argument():
    """``mmread(None)`` raised SciPy's bare "Unknown source type" and
    ``from_networkx(G, nodelist=5)`` a TypeError from len(): neither named the argument."""
    for source in (None, 5, 3.5, [b"%%MatrixMarket"]):
        with pytest.raises(sr.DomainMismatch, match=r"mmread: source must be a path"):
            sr.io.mmread(source, device="cpu")
    G = nx.path_graph(3)
    for nodelist in (5, "012", 1.5, iter([2, 1, 0])):  # NetworkX takes len(nodelist)
        with pytest.raises(sr.DomainMismatch, match=r"nodelist must be a sequence"):
            sr.Matrix.from_networkx(G, nodelist=nodelist)
    for nodelist in ([2, 1, 0], (2, 1, 0), range(3), np.array([2, 1, 0])):
        A = sr.Matrix.from_networkx(G, nodelist=nodelist, weight=None, device="cpu")
        assert A.nvals == 4
