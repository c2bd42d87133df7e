"""What both backends' sparse products share: a CSR result as a :class:`~semiring.Matrix`
with the smallest index type that holds it."""

from __future__ import annotations

from ..matrix import Matrix, index_type


def build_csr(xp, indptr, indices, values, shape) -> Matrix:
    """The Matrix of CSR arrays (indices cast to the fitting index type)."""
    it = index_type(shape[0], shape[1], int(indices.size))
    return Matrix(indptr.astype(it, copy=False), indices.astype(it, copy=False), values, shape)
