"""Graph algorithms written with the ``semiring`` algebra.

Each algorithm is a short loop of algebra calls with its math written above each call; the
policy (push/pull switching, Δ, tile sizes) lives here with named constants and the papers it
comes from, the mechanism (kernels) in ``semiring``.

- :func:`bfs`: breadth-first search levels and parents, direction-optimizing.

SSSP, APSP and a ``scipy.sparse.csgraph``-style facade arrive with their issues.
"""

from .bfs import bfs

__all__ = ["bfs"]
