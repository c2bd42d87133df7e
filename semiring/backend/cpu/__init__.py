"""The CPU backend: NumPy/SciPy, one module per operation family (see :mod:`semiring.backend`)."""

from . import dense, spgemm, spmv, traversal

__all__ = ["dense", "spgemm", "spmv", "traversal"]
