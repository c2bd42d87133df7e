"""Graph algorithms written with the ``semiring`` algebra.

Each algorithm is a short loop of algebra calls with its math written above each call; the
policy (push/pull switching, Δ, tile sizes) lives here with named constants and the papers it
comes from, the mechanism (kernels) in ``semiring``.

- :func:`bfs`: breadth-first search levels and parents, direction-optimizing.
- :mod:`algorithms.csgraph`: the ``scipy.sparse.csgraph`` facade (so far
  ``breadth_first_order`` and ``breadth_first_tree``, identical to SciPy's output).

SSSP and APSP arrive with their issues.
"""

from . import csgraph
from .bfs import bfs

__all__ = ["bfs", "csgraph"]
