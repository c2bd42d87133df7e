"""Matrix expressions: thin sugar over the eager operations.

``x @ A``, ``A @ x`` and ``A @ B`` (either of A and B may be a dense 2-D array) build a
deferred product; a semiring evaluates it, taking the same keywords as :func:`semiring.vxm`
/ :func:`semiring.mxv` / :func:`semiring.mxm`::

    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 1.0], [1.0, 0]])))
    >>> x = sr.Vector.from_coo([0], [0.0], size=2)
    >>> y = sr.min_plus(x @ A)                       # one relaxation step
    >>> y.to_dense(missing=np.inf)
    array([inf,  1.])
    >>> sr.lor_land(A.T @ y, mask=~y.S).nvals        # pull from y, skipping y's entries
    1
    >>> sr.plus_pair(A @ A, mask=A.S).nvals          # two-hop paths along existing edges
    0
    >>> sr.min_plus(A @ A).to_dense(missing=np.inf)  # two hops
    array([[ 2., inf],
           [inf,  2.]])

Shape and domain errors are raised when the expression is built, not when it is evaluated.
"""

from __future__ import annotations

from .errors import DimensionMismatch, DomainMismatch
from .matrix import Matrix, as_matrix
from . import _operand, operations
from . import ops as _ops
from .operations import _is_dense
from .ops import Semiring, lookup
from .vector import Vector, as_vector


def _is_matrix(obj) -> bool:
    if isinstance(obj, Matrix):
        return True
    try:
        as_matrix(obj, op="@", arg="operand")
        return True
    except DomainMismatch:
        return False


class MatMulExpr:
    """A deferred product: ``A @ u`` (mxv), ``u @ A`` (vxm) or ``A @ B`` (mxm, either operand
    may be a dense 2-D array); evaluate it with a semiring."""

    def __init__(self, kind, left, right):
        self.kind, self.left, self.right = kind, left, right
        if kind == "mxm":
            if left.shape[1] != right.shape[0]:
                raise DimensionMismatch(f"A @ B: A.ncols (={left.shape[1]}) must equal B.nrows (={right.shape[0]})")
            self.shape = (left.shape[0], right.shape[1])
            return
        A, u = (left, right) if kind == "mxv" else (right, left)
        inner = A.ncols if kind == "mxv" else A.nrows
        if inner != u.size:
            lhs = "A.ncols" if kind == "mxv" else "A.nrows"
            raise DimensionMismatch(f"{'A @ u' if kind == 'mxv' else 'u @ A'}: {lhs} (={inner}) must equal u.size (={u.size})")
        self.size = A.nrows if kind == "mxv" else A.ncols
        self.shape = (self.size,)

    def new(self, semiring="plus_times", **kwargs):
        """Evaluate under ``semiring`` (default ``plus_times``) with the keywords of
        :func:`semiring.mxv` / :func:`semiring.vxm` / :func:`semiring.mxm`."""
        return getattr(operations, self.kind)(self.left, self.right, semiring, **kwargs)

    def __repr__(self):
        return f"<MatMulExpr {self.kind} shape={self.shape}>"


def _is_vector(obj) -> bool:
    return isinstance(obj, Vector) or (hasattr(obj, "ndim") and hasattr(obj, "dtype") and obj.ndim == 1)


def matmul_expr(left, right) -> MatMulExpr:
    if _is_vector(left):
        if not _is_matrix(right):
            raise DomainMismatch(f"u @ A: A must be a sparse Matrix, got {type(right).__name__}")
        return MatMulExpr("vxm", as_vector(left, op="u @ A", arg="u"), as_matrix(right, op="u @ A", arg="A"))
    if _is_matrix(left) and _is_vector(right):
        return MatMulExpr("mxv", as_matrix(left, op="A @ u", arg="A"), as_vector(right, op="A @ u", arg="u"))
    if (_is_matrix(left) or _is_dense(left)) and (_is_matrix(right) or _is_dense(right)):
        return MatMulExpr("mxm", left if _is_dense(left) else as_matrix(left, op="A @ B", arg="A"),
                          right if _is_dense(right) else as_matrix(right, op="A @ B", arg="B"))
    raise DomainMismatch(f"@: operands must be matrices (sparse or 2-D dense) and vectors, got "
                         f"{type(left).__name__} and {type(right).__name__}")


def evaluate(expr, semiring: Semiring, **kwargs):
    if not isinstance(expr, MatMulExpr):
        raise DomainMismatch(f"{semiring.name}(...): expected a product such as x @ A or A @ B, got {type(expr).__name__}")
    return expr.new(lookup("semiring", semiring, op=semiring.name, arg="semiring"), **kwargs)


# the call sugar above the tables and containers: sr.min_plus(x @ A), A @ B
_ops._sugar["matmul"] = evaluate
_operand._sugar["matmul"] = matmul_expr
