"""Random graphs for the analytics tests (cores, community): a Hypothesis strategy that draws
the awkward cases (n = 0, no edges, isolated vertices, self-loops, duplicate edges, explicit
zeros, directed or symmetric, iso / integer / float weights), and their NetworkX twins."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import semiring as sr


@st.composite
def edge_lists(draw, max_n=14, symmetric=None, weights=None, loops=None, nonnegative=True):
    """(n, src, dst, w, symmetric): w is None (iso) or an array; symmetric edge lists list
    every edge in both directions with the same weight."""
    n = draw(st.integers(0, max_n))
    m = draw(st.integers(0, 4 * n)) if n else 0
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    src = rng.integers(0, max(n, 1), m)
    dst = rng.integers(0, max(n, 1), m)
    # a few vertices only on one side, to leave some isolated
    if loops is None:
        loops = draw(st.booleans())
    if not loops:
        keep = src != dst
        src, dst = src[keep], dst[keep]
    if src.size and draw(st.booleans()):
        # duplicates of some edges
        pick = rng.integers(0, src.size, max(1, src.size // 3))
        src, dst = np.concatenate([src, src[pick]]), np.concatenate([dst, dst[pick]])
    kind = draw(st.sampled_from(["iso", "int", "float", "zero"])) if weights is None else weights
    if kind == "iso":
        w = None
    elif kind == "int":
        w = rng.integers(0 if nonnegative else -3, 6, src.size).astype(np.int64)
    elif kind == "float":
        w = rng.random(src.size) * 4 if nonnegative else rng.standard_normal(src.size)
    else:
        w = np.zeros(src.size)
    sym = draw(st.booleans()) if symmetric is None else symmetric
    if sym:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        w = None if w is None else np.concatenate([w, w])
    return n, src, dst, w, sym


def build(data, device):
    """The Matrix of an edge list (duplicates summed, so symmetric lists stay symmetric)."""
    n, src, dst, w, _ = data
    return sr.Matrix.from_coo(src, dst, w, nrows=n, ncols=n, dup_op="plus", device=device)


def entries(A):
    """(rows, cols, values) of a Matrix as NumPy arrays (values float64; iso → its value)."""
    B = A.to_cpu() if A.device == "gpu" else A
    r, c, v = B.to_coo()
    return np.asarray(r), np.asarray(c), np.asarray(v).astype(np.float64)


def nx_graph(A, *, directed=False, loops=True):
    """A NetworkX (Di)Graph of a Matrix's entries, weights as 'weight'; nodes 0..n-1."""
    import networkx as nx

    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(A.nrows))
    r, c, v = entries(A)
    for i, j, x in zip(r.tolist(), c.tolist(), v.tolist()):
        if i == j and not loops:
            continue
        G.add_edge(i, j, weight=x)
    return G


def partition(labels):
    """A labelling as a sorted list of frozensets (order of the smallest vertex)."""
    groups = {}
    for i, lab in enumerate(np.asarray(labels).tolist()):
        groups.setdefault(lab, set()).add(i)
    return sorted(map(frozenset, groups.values()), key=min)
