"""What both backends share about CSR matrices: a sparse product's result as a
:class:`~semiring.Matrix` with the smallest index type that holds it, and the out-degrees of a
frontier (public as ``semiring.traversal.frontier_degrees`` / ``frontier_edges``)."""

from __future__ import annotations

import numpy as np

from ..matrix import Matrix, index_type


def build_csr(xp, indptr, indices, values, shape) -> Matrix:
    """The Matrix of CSR arrays (indices cast to the fitting index type)."""
    it = index_type(shape[0], shape[1], int(indices.size))
    return Matrix(indptr.astype(it, copy=False), indices.astype(it, copy=False), values, shape)


def frontier_degrees(A, frontier):
    """The out-degree in A of each vertex of ``frontier``: ``indptr[f + 1] - indptr[f]``.

    ``frontier`` is an integer index array on A's device; the result has A's index type, and
    the cost is the frontier's size, not A's.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> from semiring.traversal import frontier_degrees, frontier_edges
    >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]])), device="cpu")
    >>> frontier_degrees(A, np.array([0, 2])).tolist(), frontier_edges(A, np.array([0, 1]))
    ([2, 0], 3)
    """
    indptr = A.indptr
    return indptr[frontier + 1] - indptr[frontier]


def frontier_edges(A, frontier) -> int:
    """The out-edges in A of the vertices of ``frontier`` (an index array): the sum of
    :func:`frontier_degrees`, a host sync on the GPU."""
    return int(frontier_degrees(A, frontier).sum(dtype=np.int64)) if frontier.size else 0
