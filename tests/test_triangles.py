"""Triangle counts (total, per vertex) and clustering coefficients against NetworkX's triangles
and clustering (undirected and directed), every method and orientation, on every backend."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st

import algorithms
import semiring as sr
from analytics1_graphs import as_array, graphs, to_nx
from conftest import to_host

ORDERS = st.sampled_from(["degree", "index"])


@given(g=graphs(max_n=24, undirected=True), order=ORDERS, method=st.sampled_from(["auto", "dot3", "dot", "dot_upper", "ll", "forward"]),
       iso=st.booleans())
def test_triangles_undirected(device, g, order, method, iso):
    S, _ = g
    n = S.shape[0]
    xp = sr.array_module(device)
    A = sr.Matrix.from_scipy(S, device=device, iso=iso)
    G = to_nx(S, directed=False, weighted=False)  # self-loops and explicit zeros included
    ref = as_array(nx.triangles(G), n).astype(np.int64)
    t = algorithms.triangles(A, order=order)
    assert type(t) is xp.ndarray and t.dtype == np.int64 and t.shape == (n,)
    np.testing.assert_array_equal(to_host(t), ref)
    total = algorithms.triangle_count(A, method=method, order=order)
    assert type(total) is int and total == ref.sum() // 3
    c = algorithms.clustering(A, order=order)
    assert type(c) is xp.ndarray and c.dtype == np.float64
    np.testing.assert_allclose(to_host(c), as_array(nx.clustering(G), n), rtol=1e-12, atol=0)
    # the directed coefficient of a symmetric graph is the undirected one
    np.testing.assert_allclose(to_host(algorithms.clustering(A, directed=True, order=order)),
                               to_host(c), rtol=1e-12, atol=1e-15)


@given(g=graphs(max_n=20, undirected=False), order=ORDERS)
def test_asymmetric_input(device, g, order):
    S, _ = g
    n = S.shape[0]
    A = sr.Matrix.from_scipy(S, device=device)
    D = to_nx(S, directed=True, weighted=False)
    U = D.to_undirected()
    E = S.copy()
    E.data[:] = 1
    symmetric = (E != E.T).nnz == 0
    if symmetric:
        np.testing.assert_array_equal(to_host(algorithms.triangles(A)),
                                      as_array(nx.triangles(U), n))
    else:
        for f in (algorithms.triangles, algorithms.triangle_count, algorithms.clustering):
            with pytest.raises(sr.InvalidValue, match=f"{f.__name__}: A must be structurally symmetric"):
                f(A)
    # symmetrize=True: NetworkX's G.to_undirected()
    np.testing.assert_array_equal(to_host(algorithms.triangles(A, symmetrize=True, order=order)),
                                  as_array(nx.triangles(U), n))
    assert algorithms.triangle_count(A, symmetrize=True, order=order) == \
        sum(nx.triangles(U).values()) // 3
    np.testing.assert_allclose(to_host(algorithms.clustering(A, symmetrize=True, order=order)),
                               as_array(nx.clustering(U), n), rtol=1e-12)
    # NetworkX's directed clustering of the DiGraph
    np.testing.assert_allclose(to_host(algorithms.clustering(A, directed=True, order=order)),
                               as_array(nx.clustering(D), n), rtol=1e-12, atol=0)


def test_known_counts(device):
    # K6 has C(6,3) = 20 triangles, 10 through each vertex; a hub and a long path none
    n = 6
    r, c = np.nonzero(np.ones((n, n)) - np.eye(n))
    K = sr.Matrix.from_coo(r, c, None, nrows=n, ncols=n, device=device)
    assert algorithms.triangle_count(K) == 20
    np.testing.assert_array_equal(to_host(algorithms.triangles(K)), np.full(n, 10))
    np.testing.assert_array_equal(to_host(algorithms.clustering(K)), np.ones(n))
    m = 200
    P = sp.diags([np.ones(m - 1), np.ones(m - 1)], [-1, 1], format="csr")
    A = sr.Matrix.from_scipy(P, device=device)
    assert algorithms.triangle_count(A) == 0
    assert not to_host(algorithms.clustering(A)).any()
    E = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert algorithms.triangle_count(E) == 0
    assert algorithms.triangles(E).shape == (0,) and algorithms.clustering(E).shape == (0,)
    assert algorithms.clustering(E, directed=True).shape == (0,)


def test_errors(device):
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device=device)
    for f in (algorithms.triangles, algorithms.triangle_count, algorithms.clustering):
        with pytest.raises(sr.DimensionMismatch, match="square"):
            f(A)
    B = sr.Matrix.from_coo([0, 1], [1, 0], None, nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidValue, match="method"):
        algorithms.triangle_count(B, method="burkhardt")
    with pytest.raises(sr.InvalidValue, match="order"):
        algorithms.triangles(B, order="random")
    with pytest.raises(sr.InvalidValue, match="symmetrize"):
        algorithms.clustering(B, directed=True, symmetrize=True)
    with pytest.raises(sr.DomainMismatch):
        algorithms.triangle_count(np.eye(3))
