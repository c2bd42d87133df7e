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


def overflow_graph(directed):
    """1957 vertices whose shortest-path counts pass float64's range (NetworkX's σ is inf).

    650 layers of 3 vertices, each layer joined to the next completely: 3^648 > 2^1024 paths
    from a vertex of layer 0 to the last layer (a 1000² grid overflows the same way, from a
    side of 516 on; smaller grids never do). Gadgets for NetworkX's arithmetic: p1, p2 (after
    layer 646) meet at a sink z whose σ = 2 · 3^646 is inf while theirs is finite (x / inf
    = 0: z adds nothing to them); a leaf after the last layer (inf σ, no successor: δ = 0,
    not inf · 0); a path x → y → t apart (finite values beside the NaNs).
    """
    w, L = 3, 650
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(w * L))
    for layer in range(L - 1):
        G.add_edges_from((layer * w + i, (layer + 1) * w + j) for i in range(w) for j in range(w))
    n = w * L
    p1, p2, z, leaf, x, y, t = range(n, n + 7)  # 1950 .. 1956
    G.add_edges_from((646 * w + i, p) for i in range(w) for p in (p1, p2))
    G.add_edges_from([(p1, z), (p2, z), (n - 1, leaf), (x, y), (y, t)])
    return G


def kinds(x):
    """Each value's kind: NaN, inf, zero or finite (nonzero)."""
    x = np.asarray(x, dtype=np.float64)
    return np.select([np.isnan(x), np.isinf(x), x == 0], ["nan", "inf", "zero"], "finite")


def assert_same_overflow(got, ref):
    """NetworkX's NaN / inf / 0 / finite at every vertex, and its finite values."""
    got, ref = np.asarray(got, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    bad = np.flatnonzero(kinds(got) != kinds(ref))
    assert bad.size == 0, (f"{bad.size} vertices differ, e.g. {bad[:5].tolist()}: "
                           f"got {got[bad[:5]].tolist()}, NetworkX {ref[bad[:5]].tolist()}")
    fin = np.isfinite(ref)
    np.testing.assert_allclose(got[fin], ref[fin], rtol=1e-9, atol=1e-12)
