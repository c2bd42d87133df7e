"""What Matrix and Vector share as operands of the algebra: masks and expression sugar."""

from __future__ import annotations


class Operand:
    """Mixin: ``x.S`` / ``x.V`` masks, ``~x``, ``x | y``, ``x & y`` and ``@`` expressions."""

    __array_priority__ = 100
    # NumPy and CuPy operators defer to ours (`X @ A` with X an array calls A.__rmatmul__)
    __array_ufunc__ = None

    @property
    def S(self):
        """This object as a structural mask (an entry allows, whatever its value)."""
        from .mask import Mask  # noqa: PLC0415

        return Mask(self, structure=True)

    @property
    def V(self):
        """This object as a value mask (an entry allows where its value is nonzero)."""
        from .mask import Mask  # noqa: PLC0415

        return Mask(self, structure=False)

    def __invert__(self):
        return ~self.V

    def _ewise(self, kind, left, right):
        from .elementwise import EwiseExpr  # noqa: PLC0415

        return EwiseExpr(kind, left, right)

    def __or__(self, other):
        return self._ewise("add", self, other)

    def __ror__(self, other):
        return self._ewise("add", other, self)

    def __and__(self, other):
        return self._ewise("mult", self, other)

    def __rand__(self, other):
        return self._ewise("mult", other, self)

    def __matmul__(self, other):
        from .expr import matmul_expr  # noqa: PLC0415

        return matmul_expr(self, other)

    def __rmatmul__(self, other):
        from .expr import matmul_expr  # noqa: PLC0415

        return matmul_expr(other, self)
