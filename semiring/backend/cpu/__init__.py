"""The CPU backend: NumPy/SciPy, one module per operation family (see :mod:`semiring.backend`)."""

from . import blocks, centrality, components, dense, dot3, elementwise, spgemm, spmv, traversal, triangles

__all__ = ["blocks", "centrality", "components", "dense", "dot3", "elementwise", "spgemm", "spmv", "traversal", "triangles"]
