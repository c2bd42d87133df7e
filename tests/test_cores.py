"""core_number and k_truss against NetworkX on random graphs, on every backend."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from conftest import to_host
from graphgen import build, edge_lists, entries, nx_graph
from hypothesis import given
from hypothesis import strategies as st

import algorithms as alg
import semiring as sr
from algorithms import cores


def nx_core(A):
    G = nx_graph(A, loops=False)          # the undirected view without self-loops
    ref = nx.core_number(G)
    return np.array([ref[i] for i in range(A.nrows)], dtype=np.int64)


@given(data=edge_lists())
def test_core_number_matches_networkx(device, data):
    A = build(data, device)
    got = alg.core_number(A)
    assert sr.device_of(got) == device
    assert got.dtype == np.int64
    np.testing.assert_array_equal(to_host(got), nx_core(A))


def test_core_number_examples(device):
    # n = 0, no edges, only self-loops, a clique, a long path (many rounds at level 1)
    empty = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert to_host(alg.core_number(empty)).shape == (0,)
    loops = sr.Matrix.from_coo([0, 1, 2], [0, 1, 2], None, nrows=4, ncols=4, device=device)
    np.testing.assert_array_equal(to_host(alg.core_number(loops)), [0, 0, 0, 0])
    K = sr.Matrix.from_dense(np.ones((6, 6)) - np.eye(6), missing=0, device=device)
    np.testing.assert_array_equal(to_host(alg.core_number(K)), [5] * 6)
    n = 3000
    path = sr.Matrix.from_edgelist(np.c_[np.arange(n - 1), np.arange(1, n)], undirected=True,
                                   device=device)
    np.testing.assert_array_equal(to_host(alg.core_number(path)), np.ones(n))
    # a directed cycle is the undirected cycle: 2-core
    cyc = sr.Matrix.from_coo(np.arange(5), (np.arange(5) + 1) % 5, None, device=device)
    np.testing.assert_array_equal(to_host(alg.core_number(cyc)), [2] * 5)


def test_core_number_scipy_input_and_untouched():
    S = sp.csr_matrix(np.array([[0, 1, 1], [1, 0, 1], [1, 1, 5.0]]))
    before = S.toarray().copy()
    np.testing.assert_array_equal(alg.core_number(S), [2, 2, 2])
    np.testing.assert_array_equal(S.toarray(), before)


def truss_edges(T):
    r, c, v = entries(T)
    return {(i, j): x for i, j, x in zip(r.tolist(), c.tolist(), v.tolist())}


@given(data=edge_lists(max_n=12), k=st.integers(-1, 6), method=st.sampled_from(["dot", "mxm"]),
       chunk=st.sampled_from([1, 7, 1 << 24]))
def test_k_truss_matches_networkx(device, data, k, method, chunk, monkeypatch):
    monkeypatch.setattr(cores, "SUPPORT_CHUNK", chunk)     # chunks of one edge and more
    A = build(data, device)
    T = alg.k_truss(A, k, method=method)
    assert T.device == device and T.shape == A.shape and T.dtype == np.int64
    got = truss_edges(T)
    H = nx.k_truss(nx_graph(A, loops=False), k)
    want = {}
    for u, v in H.edges():
        s = len(set(H[u]) & set(H[v]))          # triangles of the truss through (u, v)
        want[(u, v)] = want[(v, u)] = s
    assert got == want


@given(data=edge_lists(max_n=14), chunk=st.sampled_from([1, 7, 1 << 24]))
def test_edge_support_is_the_masked_dot_product(device, data, chunk, monkeypatch):
    # T⟨C⟩ = C plus.pair Cᵀ two ways: the triangle listing and sr.dot3 over C's entries
    monkeypatch.setattr(cores, "SUPPORT_CHUNK", chunk)
    C = cores.undirected_pattern(build(data, device), "test")
    sup = to_host(cores.edge_support(C))
    T = sr.dot3(C, C, sr.plus_pair, mask=C)
    d = {(i, j): x for i, j, x in zip(*(to_host(a).tolist() for a in T.to_coo()))}
    r, c, _ = (to_host(a) for a in C.to_coo())
    np.testing.assert_array_equal(sup, [d.get((i, j), 0) for i, j in zip(r.tolist(), c.tolist())])


def test_k_truss_examples(device):
    K5 = sr.Matrix.from_dense(np.ones((5, 5)) - np.eye(5), missing=0, device=device)
    assert alg.k_truss(K5, 5).nvals == 20
    assert alg.k_truss(K5, 6).nvals == 0
    np.testing.assert_array_equal(to_host(alg.k_truss(K5, 5).to_dense()),
                                  3 * (np.ones((5, 5)) - np.eye(5)))
    # a long path of triangles (a strip): the 3-truss is everything, the 4-truss its inside
    n = 400
    e = np.r_[np.c_[np.arange(n - 1), np.arange(1, n)], np.c_[np.arange(n - 2), np.arange(2, n)]]
    strip = sr.Matrix.from_edgelist(e, undirected=True, device=device)
    assert alg.k_truss(strip, 3).nvals == strip.nvals
    H = nx.k_truss(nx.Graph(e.tolist()), 4)
    for method in ("dot", "mxm"):
        assert alg.k_truss(strip, 4, method=method).nvals == 2 * H.number_of_edges()
    empty = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert alg.k_truss(empty, 3).nvals == 0


@pytest.mark.parametrize("k", [6, 7, 2**62, 2**63, 2**70, np.uint64(2**64 - 1)])
@pytest.mark.parametrize("method", ["dot", "mxm"])
def test_k_truss_beyond_any_support_is_empty(device, k, method):
    """No edge of K5 has more than 3 triangles: every k ≥ 6 is the empty truss, also a k
    beyond int64 (it was an error from the select inside, naming its thunk, not k)."""
    K5 = sr.Matrix.from_dense(np.ones((5, 5)) - np.eye(5), missing=0, device=device)
    T = alg.k_truss(K5, k, method=method)
    assert T.nvals == 0 and T.shape == (5, 5)


def test_errors(device):
    R = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match="core_number: A must be square"):
        alg.core_number(R)
    with pytest.raises(sr.DimensionMismatch, match="k_truss: A must be square"):
        alg.k_truss(R, 3)
    A = sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device=device)
    for bad in (2.5, "3", True, None):
        with pytest.raises(sr.DomainMismatch, match="k_truss: k must be an integer"):
            alg.k_truss(A, bad)
    with pytest.raises(sr.InvalidValue,
                       match=r"k_truss: method must be one of \('auto', 'dot', 'mxm', 'wc'\), "
                             "got 'hash'"):
        alg.k_truss(A, 3, method="hash")
    with pytest.raises(sr.DomainMismatch, match="core_number: A must be"):
        alg.core_number(np.eye(3))
