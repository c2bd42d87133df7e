"""Session 19's outside-in audit (aud15) of algorithms.core_number, k_truss and
label_propagation against NetworkX, on inputs their authors did not write: random patterns
with duplicate entries, explicit zeros and negative values, self-loops, asymmetric (directed)
input, isolated vertices and 0-vertex graphs, every method; and label propagation's contract
(a partition numbered by smallest vertex, NetworkX's stopping rule, the same answer for the
same seed, the input untouched)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

import algorithms
from algorithms import community, cores
import semiring as sr
from conftest import to_host


@st.composite
def patterns(draw, max_n=24):
    """A COO matrix with duplicates, explicit zeros and self-loops, and NetworkX's simple
    undirected graph of its pattern (self-loops dropped, as the engine documents)."""
    n = draw(st.integers(0, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    m = int(rng.integers(0, 4 * n + 1)) if n else 0
    rows, cols = rng.integers(0, max(n, 1), m), rng.integers(0, max(n, 1), m)
    A = sp.coo_matrix((rng.integers(-1, 2, m), (rows, cols)), shape=(n, n))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((int(i), int(j)) for i, j in zip(rows, cols) if i != j)
    return A, G


def _matrix(A, device):
    # duplicates summed by SciPy first (an entry can sum to an explicit zero: still an edge)
    return sr.Matrix.from_scipy(A.tocsr(), device=device)


@given(g=patterns(), method=st.sampled_from(cores.CORE_METHODS))
def test_core_number_matches_networkx(device, g, method):
    A, G = g
    ref = nx.core_number(G)
    got = to_host(algorithms.core_number(_matrix(A, device), method=method))
    assert got.dtype == np.int64
    assert got.tolist() == [ref[v] for v in range(A.shape[0])]


@given(g=patterns(), k=st.integers(-2, 7), method=st.sampled_from(cores.TRUSS_METHODS))
def test_k_truss_matches_networkx(device, g, k, method):
    A, G = g
    T = algorithms.k_truss(_matrix(A, device), k, method=method)
    H = nx.k_truss(G, k)
    r, c, v = (to_host(x).tolist() for x in T.to_coo())
    assert T.shape == A.shape and T.device == device
    assert {frozenset(e) for e in zip(r, c)} == {frozenset(e) for e in H.edges}
    assert len(r) == 2 * H.number_of_edges()  # both directions, no self-loop
    # each value: the edge's triangles inside the truss
    assert v == [len(set(H[i]) & set(H[j])) for i, j in zip(r, c)]


@given(g=patterns(), seed=st.integers(0, 2**31))
def test_label_propagation_partition_and_stopping_rule(device, g, seed):
    A, _ = g
    A = A.tocsr()
    before = (A.indptr.copy(), A.indices.copy(), A.data.copy())
    M = sr.Matrix.from_scipy(A, device=device)
    lab = to_host(algorithms.label_propagation(M, seed=seed))
    again = to_host(algorithms.label_propagation(M, seed=seed))
    assert np.array_equal(lab, again) and lab.dtype == np.int64
    for a, b in zip(before, (A.indptr, A.indices, A.data)):
        np.testing.assert_array_equal(a, b)
    n = A.shape[0]
    if n == 0:
        assert lab.shape == (0,)
        return
    k = int(lab.max()) + 1
    firsts = [int(np.flatnonzero(lab == c)[0]) for c in range(k)]
    assert firsts == sorted(firsts) and set(lab.tolist()) == set(range(k))
    # the voters: the neighbours in A ∪ Aᵀ, a self-loop making a vertex its own
    P = sp.csr_matrix((np.ones(A.nnz), A.indices, A.indptr), shape=(n, n))
    P = (P + P.T).tocsr()
    for v in range(n):
        nb = P.indices[P.indptr[v]:P.indptr[v + 1]]
        if nb.size:
            cnt = np.bincount(lab[nb], minlength=k)
            assert cnt[lab[v]] == cnt.max()
        else:
            assert (lab == lab[v]).sum() == 1  # an isolated vertex is its own community


@pytest.mark.parametrize(("colors", "error"), [
    (np.arange(3), sr.DimensionMismatch),            # one per vertex: 4
    (np.zeros(4), sr.DomainMismatch),                # floats
    ([[0, 1, 2, 3]], sr.DimensionMismatch),
])
def test_label_propagation_checks_colors_before_any_pass_over_a(monkeypatch, colors, error):
    def no_pass(*args, **kwargs):
        raise AssertionError("A's pattern built before colors= was checked")

    monkeypatch.setattr(community, "undirected_pattern", no_pass)
    A = sp.csr_matrix(np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]]))
    with pytest.raises(error, match="label_propagation: colors must"):
        algorithms.label_propagation(A, colors=colors)
