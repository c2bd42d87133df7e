"""Matrix expressions: thin sugar over the eager operations.

``x @ A`` and ``A @ x`` build a deferred product; a semiring evaluates it, taking the same
keywords as :func:`semiring.vxm` / :func:`semiring.mxv`::

    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 1.0], [1.0, 0]])))
    >>> x = sr.Vector.from_coo([0], [0.0], size=2)
    >>> y = sr.min_plus(x @ A)                       # one relaxation step
    >>> y.to_dense(missing=np.inf)
    array([inf,  1.])
    >>> sr.lor_land(A.T @ y, mask=~y.S).nvals        # pull from y, skipping y's entries
    1

Shape and domain errors are raised when the expression is built, not when it is evaluated.
"""

from __future__ import annotations

from .errors import DimensionMismatch, DomainMismatch, SemiringError
from .matrix import Matrix, as_matrix
from .ops import Semiring, lookup
from .vector import Vector, as_vector


class NotImplementedYet(SemiringError, NotImplementedError):
    """An expression whose operation is not implemented yet."""


def _is_matrix(obj) -> bool:
    if isinstance(obj, Matrix):
        return True
    try:
        as_matrix(obj, op="@", arg="operand")
        return True
    except DomainMismatch:
        return False


class MatMulExpr:
    """A deferred product ``A @ u`` (mxv) or ``u @ A`` (vxm); evaluate with a semiring."""

    def __init__(self, kind, left, right):
        self.kind, self.left, self.right = kind, left, right
        A, u = (left, right) if kind == "mxv" else (right, left)
        inner = A.ncols if kind == "mxv" else A.nrows
        if inner != u.size:
            lhs = "A.ncols" if kind == "mxv" else "A.nrows"
            raise DimensionMismatch(f"{'A @ u' if kind == 'mxv' else 'u @ A'}: {lhs} (={inner}) must equal u.size (={u.size})")
        self.size = A.nrows if kind == "mxv" else A.ncols

    def new(self, semiring="plus_times", **kwargs) -> Vector:
        """Evaluate under ``semiring`` (default ``plus_times``) with mxv/vxm keywords."""
        from .operations import mxv, vxm  # noqa: PLC0415

        f = mxv if self.kind == "mxv" else vxm
        return f(self.left, self.right, semiring, **kwargs)

    def __repr__(self):
        return f"<MatMulExpr {self.kind} size={self.size}>"


def matmul_expr(left, right) -> MatMulExpr:
    if isinstance(left, Vector) or (not _is_matrix(left) and hasattr(left, "ndim") and left.ndim == 1):
        if not _is_matrix(right):
            raise DomainMismatch(f"u @ A: A must be a Matrix, got {type(right).__name__}")
        return MatMulExpr("vxm", as_vector(left, op="u @ A", arg="u"), as_matrix(right, op="u @ A", arg="A"))
    if _is_matrix(left):
        if _is_matrix(right):
            raise NotImplementedYet("A @ B: matrix-matrix products (mxm) are not implemented yet")
        return MatMulExpr("mxv", as_matrix(left, op="A @ u", arg="A"), as_vector(right, op="A @ u", arg="u"))
    raise DomainMismatch(f"@: operands must be a Matrix and a Vector, got {type(left).__name__} and {type(right).__name__}")


def evaluate(expr, semiring: Semiring, **kwargs):
    if not isinstance(expr, MatMulExpr):
        raise DomainMismatch(f"{semiring.name}(...): expected a product such as x @ A, got {type(expr).__name__}")
    return expr.new(lookup("semiring", semiring, op=semiring.name, arg="semiring"), **kwargs)
