"""Orderings and structural rank, on the CPU by design.

``reverse_cuthill_mckee`` is a breadth-first search whose every level is sorted by degree and
whose frontier order feeds the next level: a sequential order by definition (parallel RCM
variants give a *different*, not an equal, ordering), and SciPy's is the reference.
``structural_rank`` is the size of a maximum bipartite matching (see
:mod:`algorithms.matching`). Both run SciPy's compiled routines on the host; GPU input is
copied to the host explicitly and the result back.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse.csgraph as _scg

import semiring as sr
from semiring.errors import check_bool

from .matching import host_csr


def reverse_cuthill_mckee(A, symmetric_mode=False):
    """The reverse Cuthill–McKee ordering of a square sparse matrix.

    Runs ``scipy.sparse.csgraph.reverse_cuthill_mckee`` on the host, by design (see the module
    docstring): GPU input is copied to the host and the permutation back.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
    symmetric_mode : bool
        Promise that A is symmetric (SciPy then skips forming A + Aᵀ).

    Returns
    -------
    perm : array of int32, on A's device
        ``A[perm][:, perm]`` has a small bandwidth.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]]))
    >>> algorithms.reverse_cuthill_mckee(A).tolist()
    [2, 0, 1]
    """
    op = "reverse_cuthill_mckee"
    symmetric_mode = check_bool(op, "symmetric_mode", symmetric_mode)
    S, device = host_csr(A, op, square=True)
    if S.shape[0] == 0:  # SciPy raises from inside NumPy ("zero-size array to reduction")
        return sr.to_device(np.zeros(0, dtype=np.int32), device)

    return sr.to_device(_scg.reverse_cuthill_mckee(S, symmetric_mode=symmetric_mode), device)


def structural_rank(A):
    """The structural rank of a sparse matrix: the largest rank any choice of values on its
    stored entries can give (the size of a maximum bipartite matching of rows and columns).

    Runs ``scipy.sparse.csgraph.structural_rank`` on the host, by design (see the module
    docstring); GPU input is copied to the host.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, shape (m, n)

    Returns
    -------
    int

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> algorithms.structural_rank(sp.csr_matrix(np.array([[1, 1, 0], [1, 0, 0], [0, 0, 0]])))
    2
    """
    op = "structural_rank"
    S, _device = host_csr(A, op)

    return int(_scg.structural_rank(S))
