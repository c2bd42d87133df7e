"""Random graphs for the analytics tests (PageRank, betweenness, triangles) and their
NetworkX twins: duplicates, self-loops, explicit zeros, isolated vertices, disconnected
blocks, no edges at all, directed or mirrored (undirected), sometimes a long path."""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp
from hypothesis import strategies as st


@st.composite
def graphs(draw, max_n=16, undirected=None, weights=(0, 4)):
    """(S, undirected): a canonical scipy CSR matrix (duplicates summed, explicit zeros kept as
    entries) with non-negative integer values in ``weights``."""
    n = draw(st.integers(0, max_n))
    m = draw(st.integers(0, 4 * n)) if draw(st.integers(0, 5)) else 0
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    rows, cols = rng.integers(0, max(n, 1), m), rng.integers(0, max(n, 1), m)
    if n and draw(st.integers(0, 3)) == 0:  # a long path through every vertex
        perm = rng.permutation(n)
        rows, cols = np.r_[rows, perm[:-1]], np.r_[cols, perm[1:]]
    if draw(st.booleans()):  # cut the graph in two blocks: disconnected parts
        cut = draw(st.integers(0, n))
        keep = (rows < cut) == (cols < cut)
        rows, cols = rows[keep], cols[keep]
    if undirected is None:
        undirected = draw(st.booleans())
    lo, hi = weights
    vals = rng.integers(lo, hi + 1, rows.size).astype(np.float64)  # zeros: explicit zeros
    if undirected:
        rows, cols, vals = np.r_[rows, cols], np.r_[cols, rows], np.r_[vals, vals]
    S = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()  # duplicates summed
    S.sum_duplicates()
    S.sort_indices()
    return S, undirected


def to_nx(S, directed, weighted=True):
    """The NetworkX graph of S's entries (explicit zeros included, as edges of weight 0)."""
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(S.shape[0]))
    C = S.tocoo()
    if weighted:
        G.add_weighted_edges_from(zip(C.row.tolist(), C.col.tolist(), C.data.tolist()))
    else:
        G.add_edges_from(zip(C.row.tolist(), C.col.tolist()))
    return G


def as_array(d, n):
    """A NetworkX result dict over the nodes 0 .. n-1 as a float64 array."""
    return np.array([d[i] for i in range(n)], dtype=np.float64)
