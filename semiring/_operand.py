"""What Matrix and Vector share as operands of the algebra: masks and expression sugar.

The containers sit below the masks and expressions they build, so the builders are installed
here by the modules that define them (:mod:`semiring.mask` installs "mask",
:mod:`semiring.elementwise` "ewise", :mod:`semiring.expr` "matmul"): the containers import
nothing above them.
"""

from __future__ import annotations

#: name -> builder: "mask"(container, structure=), "ewise"(kind, a, b), "matmul"(a, b).
_sugar: dict = {}


class Operand:
    """Mixin: ``x.S`` / ``x.V`` masks, ``~x``, ``x | y``, ``x & y`` and ``@`` expressions."""

    __array_priority__ = 100
    # NumPy and CuPy operators defer to ours (`X @ A` with X an array calls A.__rmatmul__)
    __array_ufunc__ = None

    @property
    def S(self):
        """This object as a structural mask (an entry allows, whatever its value)."""
        return _sugar["mask"](self, structure=True)

    @property
    def V(self):
        """This object as a value mask (an entry allows where its value is nonzero)."""
        return _sugar["mask"](self, structure=False)

    def __invert__(self):
        return ~self.V

    def _ewise(self, kind, left, right):
        return _sugar["ewise"](kind, left, right)

    def __or__(self, other):
        return self._ewise("add", self, other)

    def __ror__(self, other):
        return self._ewise("add", other, self)

    def __and__(self, other):
        return self._ewise("mult", self, other)

    def __rand__(self, other):
        return self._ewise("mult", other, self)

    def __matmul__(self, other):
        return _sugar["matmul"](self, other)

    def __rmatmul__(self, other):
        return _sugar["matmul"](other, self)
