"""The GPU backend: CuPy and the CUDA kernels of :mod:`semiring.kernels`, one launcher module
per operation family (see :mod:`semiring.backend`); each registers its kernel instantiations
with :func:`semiring.kernels.register`."""

from . import bfs_peer, blocks, centrality, components, dense, dot3, elementwise, prep, small, spgemm, spmv, traversal, triangles

__all__ = ["bfs_peer", "blocks", "centrality", "components", "dense", "dot3", "elementwise", "prep", "small", "spgemm", "spmv", "traversal", "triangles"]
