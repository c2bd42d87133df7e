"""CPU weak components: the labels of :func:`semiring.connectivity.weak_components` in one
O(n + m) sequential pass over the pattern (on one core a sequential search is the better
algorithm than Afforest's rounds): compiled where Numba is installed (a breadth-first search
of a symmetric pattern, else union-find over the stored edges), else SciPy's compiled
search. Called by :mod:`semiring.connectivity`, which validates.

The compiled passes replaced SciPy's search there (session 21, cpu21: interleaved medians,
µs, ``symmetric=True`` / ``False`` against SciPy's ``connected_components(H, directed=True,
connection="weak")``): urand-10-ef4 15 / 33 (111), urand-13-ef4 228 / 362 (759), kron-12 162
/ 358 (669), grid-128² 124 / 235 (439), kron-16 5014 / 11786 (51007); SciPy's search
through this module had cost 48 / 106 on urand-10-ef4 and 717 on urand-13-ef4.
"""

from __future__ import annotations

import numpy as np

from . import compiled
from .blocks import component_roots
from .traversal import _structure


def _search_labels(indptr, indices, label, queue):
    """Components of a symmetric pattern by breadth-first search from each vertex not yet
    reached, in increasing order: component c's least vertex is the search's root, so the
    labels come numbered by least vertex."""
    n = label.size
    for v in range(n):
        label[v] = -1
    c = 0
    for root in range(n):
        if label[root] >= 0:
            continue
        label[root] = c
        queue[0] = root
        head, tail = 0, 1
        while head < tail:
            u = queue[head]
            head += 1
            for j in range(indptr[u], indptr[u + 1]):
                w = indices[j]
                if label[w] < 0:
                    label[w] = c
                    queue[tail] = w
                    tail += 1
        c += 1
    return c


def _union_labels(indptr, indices, parent, label):
    """Weak components of any pattern by union-find over its stored edges (each joins its
    ends, in either direction; the larger root under the smaller, path halving), then each
    root's component numbered in increasing order of root, the least vertex."""
    n = parent.size
    for v in range(n):
        parent[v] = v
    for u in range(n):
        for j in range(indptr[u], indptr[u + 1]):
            a = u
            b = indices[j]
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            while parent[b] != b:
                parent[b] = parent[parent[b]]
                b = parent[b]
            if a < b:
                parent[b] = a
            elif b < a:
                parent[a] = b
    c = 0
    for v in range(n):  # parent[v] <= v: its root's label is already known
        r = parent[parent[v]]
        parent[v] = r
        if r == v:
            label[v] = c
            c += 1
        else:
            label[v] = label[r]
    return c


_kernels = None


def _compiled():
    global _kernels
    if _kernels is None:
        _kernels = (compiled._jit(_search_labels), compiled._jit(_union_labels))
    return _kernels


def weak_components(A, skip: bool, neighbor_rounds: int, samples: int, roots: bool = False):
    """int32 labels of A's weak components, numbered by least vertex (A: n > 0; SciPy's
    int32 bounds checked by the caller). Compiled (:func:`_search_labels` where ``skip``,
    A's pattern symmetric, else :func:`_union_labels`) where Numba is on. Else SciPy's:
    where ``skip`` its strong search, the same components on a symmetric pattern and without
    the transpose its weak search builds (kron-16: 41 ms against 75 ms on this project's
    2-core host; FastSV as algebra took 113 ms), its labels, in depth-first finishing order,
    renumbered. ``neighbor_rounds``, ``samples`` steer the GPU's work only. ``roots``: each
    vertex's component's least vertex instead (int32)."""
    from scipy.sparse.csgraph import connected_components  # noqa: PLC0415  (scipy: on use)

    n = A.nrows
    if compiled.ENABLED:
        search, union = _compiled()
        lab = np.empty(n, dtype=np.int32)
        if skip:
            search(A.indptr, A.indices, lab, np.empty(n, dtype=np.int64))
        else:
            union(A.indptr, A.indices, np.empty(n, dtype=np.int64), lab)
        return component_roots(lab).astype(np.int32) if roots else lab
    # A's pattern as the float64 CSR with int32 indices that SciPy's csgraph reads as it
    # is, kept on A (traversal's view): an int8 pattern made each call cost its making
    # (13 µs) and SciPy's validation a float64 copy of it (urand-10-ef4, session 21)
    S = _structure(A)
    k, lab = connected_components(S, directed=True, connection="strong" if skip else "weak")
    lab = lab.astype(np.int32, copy=False)
    # SciPy numbers weak components in order of their least vertex, strong ones in finishing
    # order: checked in O(n) (the first vertex of each label), renumbered where they differ
    first = np.full(k, n, dtype=np.int64)
    np.minimum.at(first, lab, np.arange(n, dtype=np.int64))
    if k > 1 and not bool((first[1:] > first[:-1]).all()):
        rank = np.empty(k, dtype=np.int32)
        rank[np.argsort(first, kind="stable")] = np.arange(k, dtype=np.int32)
        lab = rank[lab]
    return component_roots(lab).astype(np.int32) if roots else lab

