"""The CPU backend: NumPy/SciPy, one module per operation family (see :mod:`semiring.backend`)."""

from . import dense, elementwise, spgemm, spmv, traversal

__all__ = ["dense", "elementwise", "spgemm", "spmv", "traversal"]
