"""CPU weak components: the labels of :func:`semiring.connectivity.weak_components` by SciPy's
compiled search (one O(n + m) pass over the pattern; on one core a sequential search is the
better algorithm than Afforest's rounds). Called by :mod:`semiring.connectivity`, which
validates."""

from __future__ import annotations

import numpy as np


def weak_components(A, skip: bool, neighbor_rounds: int, samples: int, roots: bool = False):
    """int32 labels of A's weak components, numbered by least vertex (A: n > 0; SciPy's
    int32 bounds checked by the caller). ``skip`` (A's pattern is symmetric): SciPy's strong
    search, the same components on a symmetric pattern and without the transpose its weak
    search builds (kron-16: 41 ms against 75 ms on this project's 2-core host; FastSV as
    algebra took 113 ms); its labels, in depth-first finishing order, are renumbered.
    ``neighbor_rounds``, ``samples`` steer the GPU's work only. ``roots``: each vertex's
    component's least vertex instead (int32)."""
    import scipy.sparse as sp  # noqa: PLC0415  (scipy.sparse: imported on use)
    from scipy.sparse.csgraph import connected_components  # noqa: PLC0415  (scipy: on use)

    n = A.nrows
    S = sp.csr_matrix((np.ones(A.nvals, dtype=np.int8), A.indices, A.indptr), shape=A.shape)
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
    if roots:
        # numbered in order of their least vertex, a label's first vertex is where the
        # running maximum of the labels grows: O(n), no sort
        grows = np.empty(n, dtype=bool)
        grows[0] = True
        np.greater(lab[1:], np.maximum.accumulate(lab[:-1]), out=grows[1:])
        return np.flatnonzero(grows).astype(np.int32)[lab]
    return lab
