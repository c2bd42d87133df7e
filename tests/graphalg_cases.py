"""Random graphs for the graphalg tests (components, spanning forests, the csgraph wrappers):
edge lists with the awkward cases: self-loops, duplicates, explicit zeros, negative and tied
weights, isolated vertices, disconnected parts, symmetric and directed input, cycles and
paths."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from hypothesis import strategies as st

import semiring as sr

SHAPES = ("random", "symmetric", "blocks", "cycles", "path")


@st.composite
def edge_lists(draw, max_n=24):
    """(n, rows, cols, vals): an edge list in a random stored order, duplicates allowed."""
    n = draw(st.integers(0, max_n))
    shape = draw(st.sampled_from(SHAPES))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if n == 0:
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    m = int(rng.integers(0, 3 * n + 1))
    if shape == "blocks":  # edges only inside a few vertex blocks: several components
        k = int(rng.integers(1, 4))
        block = rng.integers(0, k, n)
        rows = rng.integers(0, n, m)
        cand = [np.flatnonzero(block == block[r]) for r in rows]
        cols = np.array([rng.choice(c) for c in cand], dtype=np.int64).reshape(-1)
    elif shape == "cycles":  # a few directed cycles and chords: strong components
        perm = rng.permutation(n)
        cut = np.sort(rng.choice(np.arange(1, n + 1), size=min(n, 3), replace=False))
        rows, cols, start = [], [], 0
        for end in cut:
            c = perm[start:end]
            rows.extend(c)
            cols.extend(np.roll(c, -1))
            start = end
        extra = int(rng.integers(0, n + 1))
        rows = np.concatenate([np.array(rows, np.int64), rng.integers(0, n, extra)])
        cols = np.concatenate([np.array(cols, np.int64), rng.integers(0, n, extra)])
    elif shape == "path":
        perm = rng.permutation(n)
        rows, cols = perm[:-1], perm[1:]
    else:
        rows = rng.integers(0, n, m)
        cols = rng.integers(0, n, m)
    rows = np.asarray(rows, np.int64)
    cols = np.asarray(cols, np.int64)
    vals = rng.integers(-3, 4, rows.size).astype(np.float64)  # zeros, negatives, ties
    if shape == "symmetric":
        rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
        vals = np.concatenate([vals, vals])
    order = rng.permutation(rows.size)
    return n, rows[order], cols[order], vals[order]


def raw_csr(n, rows, cols, vals, cls=sp.csr_matrix):
    """A CSR in the list's order within each row: unsorted indices, duplicates kept."""
    o = np.argsort(rows, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n))]).astype(np.int32)
    return cls((vals[o], cols[o].astype(np.int32), indptr), shape=(n, n))


def canonical(n, rows, cols, vals, device, dup="min"):
    """The edge list as a canonical semiring.Matrix (duplicates combined) on ``device``."""
    return sr.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n,
                              dup_op=getattr(sr.binary, dup), device=device)


def by_least_vertex(labels):
    """Labels renumbered 0..k-1 in order of each component's least vertex."""
    labels = np.asarray(labels)
    if labels.size == 0:
        return labels.astype(np.int32)
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    ren = np.empty(order.size, dtype=np.int64)
    ren[order] = np.arange(order.size)
    uniq = np.unique(labels)
    return ren[np.searchsorted(uniq, labels)].astype(np.int32)


def check_forest(n, rows, cols, vals, T_rows, T_cols, T_vals):
    """T is a spanning forest of the undirected view of the edge list (self-loops ignored):
    each edge is an input entry with its value, no cycle, and one edge fewer than vertices
    per component. Returns the forest's weight."""
    entries = set(zip(rows.tolist(), cols.tolist(), vals.tolist()))
    for e in zip(T_rows.tolist(), T_cols.tolist(), T_vals.tolist()):
        assert e in entries, f"forest edge {e} is not an entry of the graph"
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in zip(T_rows.tolist(), T_cols.tolist()):
        ru, rv = find(u), find(v)
        assert ru != rv, f"forest edge ({u}, {v}) closes a cycle"
        parent[ru] = rv
    forest_parts = len({find(x) for x in range(n)})

    keep = rows != cols
    G = sp.csr_matrix((np.ones(int(keep.sum())), (rows[keep], cols[keep])), shape=(n, n))
    k = connected_components(G, directed=False)[0] if n else 0
    assert forest_parts == k, f"the forest has {forest_parts} trees, the graph {k} components"
    return float(np.sum(T_vals))
