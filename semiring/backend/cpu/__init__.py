"""The CPU backend: NumPy/SciPy, one module per operation family (see :mod:`semiring.backend`)."""

from . import centrality, components, dense, dot3, elementwise, spgemm, spmv, traversal

__all__ = ["centrality", "components", "dense", "dot3", "elementwise", "spgemm", "spmv", "traversal"]
