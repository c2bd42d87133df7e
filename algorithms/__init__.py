"""Graph algorithms written with the ``semiring`` algebra (BFS, SSSP, APSP, csgraph facade).

The algorithms arrive with their issues; this package already exists so that the
distribution's two import packages are in place.
"""
