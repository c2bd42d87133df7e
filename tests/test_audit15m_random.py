"""Session 19 audit (helper audm15): random comparisons of answers that are unique, against
NetworkX and SciPy: a maximum matching's size, a minimum spanning forest's weight and edge
count, modularity of a given partition. Stored zeros, duplicates, self-loops, isolated and
empty rows and columns included.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import given
from hypothesis import strategies as st

import algorithms
import semiring as sr
from algorithms import csgraph

nx = pytest.importorskip("networkx")


def _entries(draw, m, n, values):
    cells = draw(st.lists(st.tuples(st.integers(0, m - 1), st.integers(0, n - 1), values),
                          max_size=3 * max(m, n)))
    r = np.array([c[0] for c in cells], dtype=np.int64)
    c = np.array([c[1] for c in cells], dtype=np.int64)
    w = np.array([c[2] for c in cells], dtype=np.float64)
    return r, c, w


@given(data=st.data(), m=st.integers(1, 7), n=st.integers(1, 7))
def test_maximum_matching_size_is_networkx(device, data, m, n):
    """Every stored entry an edge (zeros and duplicates too): the matching's size is
    NetworkX's Hopcroft–Karp's, and each matched pair is an entry, through both APIs."""
    r, c, w = _entries(data.draw, m, n, st.sampled_from([0.0, 1.0, -2.0, 0.5]))
    S = sp.coo_array((w, (r, c)), shape=(m, n))
    G = nx.Graph()
    G.add_nodes_from(range(m + n))
    G.add_edges_from(zip(r.tolist(), (c + m).tolist()))
    size = len(nx.bipartite.hopcroft_karp_matching(G, top_nodes=range(m))) // 2
    present = np.zeros((m, n), dtype=bool)
    present[r, c] = True
    A = sr.Matrix.from_coo(r, c, w, nrows=m, ncols=n, device=device, dup_op="plus")
    for got in (algorithms.maximum_bipartite_matching(A, perm_type="column"),
                csgraph.maximum_bipartite_matching(S, perm_type="column")):
        col = sr.to_device(got, "cpu")
        rows = np.flatnonzero(col >= 0)
        assert rows.size == size
        assert present[rows, col[rows]].all() and np.unique(col[rows]).size == size


@given(data=st.data(), n=st.integers(1, 9))
def test_spanning_forest_weight_is_networkx(device, data, n):
    """The native forest (stored zeros are edges, self-loops none) weighs NetworkX's Kruskal
    forest, edge for edge in number; the facade's SciPy's tree."""
    r, c, w = _entries(data.draw, n, n, st.sampled_from([0, 1, 2, 3, -1, 5]))
    keep = np.unique(np.minimum(r, c) * n + np.maximum(r, c), return_index=True)[1]
    r, c, w = r[keep], c[keep], w[keep]  # one weight per undirected pair
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(r.tolist(), c.tolist(), w.tolist()))
    T = nx.minimum_spanning_tree(G, backend="networkx")
    A = sr.Matrix.from_coo(r, c, w, nrows=n, ncols=n, device=device)
    F = algorithms.minimum_spanning_forest(A)
    _, _, vals = F.to_coo()
    assert F.nvals == T.number_of_edges() - nx.number_of_selfloops(T)
    assert float(sr.to_device(vals, "cpu").sum()) == T.size(weight="weight")
    S = sp.csr_array((w, (r, c)), shape=(n, n))
    np.testing.assert_array_equal(sp.csr_array(csgraph.minimum_spanning_tree(S)).toarray(),
                                  scg.minimum_spanning_tree(S).toarray())


@given(data=st.data(), n=st.integers(1, 8), directed=st.booleans(),
       resolution=st.sampled_from([1.0, 0.0, -1.0, 0.5, 2.0, 1e6]))
def test_modularity_of_a_partition_is_networkx(device, data, n, directed, resolution):
    """Self-loops, isolated vertices, float weights: the engine's modularity is NetworkX's
    up to rounding (NaN where the graph weighs nothing: NetworkX 3.6 divides by zero there,
    3.7 returns 0)."""
    r, c, w = _entries(data.draw, n, n, st.sampled_from([1.0, 2.0, 0.5, 3.25]))
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(r.tolist(), c.tolist(), w.tolist()))
    labels = np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    parts = [set(np.flatnonzero(labels == k).tolist()) for k in np.unique(labels)]
    u, v, d = zip(*G.edges(data="weight")) if G.number_of_edges() else ((), (), ())
    u, v, d = np.array(u, dtype=np.int64), np.array(v, dtype=np.int64), np.array(d)
    if not directed:
        loop = u == v
        u, v, d = (np.concatenate([u, v[~loop]]), np.concatenate([v, u[~loop]]),
                   np.concatenate([d, d[~loop]]))
    A = sr.Matrix.from_coo(u, v, d.astype(np.float64), nrows=n, ncols=n, device=device)
    got = algorithms.modularity(A, sr.to_device(labels, device), resolution,
                                directed=directed)
    if not G.number_of_edges():  # (the weights are positive: no edge, no weight)
        assert math.isnan(got)
        return
    want = nx.community.modularity(G, parts, resolution=resolution, backend="networkx")
    assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9 * max(1.0, abs(resolution)))
