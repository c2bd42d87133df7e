"""The CPU backend: NumPy/SciPy, one module per operation family (see :mod:`semiring.backend`)."""

from . import dense, dot3, elementwise, spgemm, spmv, traversal

__all__ = ["dense", "dot3", "elementwise", "spgemm", "spmv", "traversal"]
