"""Triangles by the forward listing as one fused mechanism: a graph's triangle count in a few
launches and one copy back.

The algebra's triangle count (:func:`algorithms.triangle_count`) orients the edges by degree,
takes a masked product and reduces it: a chain of launches and host round trips, 2-5 ms on an
H200 whatever the graph's size, where SciPy's masked product on the host takes 1-5 ms for
graphs of 10⁴-10⁵ edges. The forward listing (Schank & Wagner 2005; the degree order of Cohen
2009) does the same count with each triangle found once, at its lowest edge by rank: for every
edge (u, v) with rank(u) < rank(v) (rank: (degree, index) ascending), the vertices w ranked
above v in both rows.

On the GPU (``kernels/triangles.cu``, launched by ``semiring/backend/gpu/triangles.py``) one of
two variants runs it: on small graphs a thread an entry of A, the structural symmetry check
folded into the same pass; on larger ones the orientation first made as a CSR of its own (each
row's higher-ranked neighbours, the check in its counting pass) and a thread an oriented entry.
In both an entry whose walk is long (an edge between two hubs) is listed for a last launch
that gives each such entry a warp; the results come back by one copy. On the CPU every edge's
support comes from the compiled listing that k-truss peels from
(``semiring/backend/cpu/triangles.py``). On the most skewed large graphs (a Kronecker graph of
2²² vertices) the masked product is the better plan for the count: the algorithm picks
(``algorithms.triangles.GPU_FORWARD_MAX_SKEW``).
"""

from __future__ import annotations

import numpy as np

from .backend import backend_of
from .errors import check_flags
from .matrix import as_matrix

__all__ = ["forward"]


def forward(A, *, vertices=False):
    """The triangles of the undirected graph A, and those through each vertex, by the forward
    listing; None where A's structure is not symmetric.

    Parameters
    ----------
    A : Matrix, square
        The undirected graph: each stored entry (an explicit zero too) an edge, every edge
        stored both ways; values are not read, self-loops are in no triangle. Runs where A
        lives.
    vertices : bool
        Also count the triangles through each vertex.

    Returns
    -------
    (count, t) or None
        ``count``: the number of triangles (int); ``t``: int64 array on A's device, the
        triangles through each vertex (None unless ``vertices``). None: A(i, j) is stored
        where A(j, i) is not (not an undirected graph).

    Raises
    ------
    DomainMismatch
        ``vertices`` is not a bool.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> K4 = sr.Matrix.from_dense(np.ones((4, 4)) - np.eye(4), missing=0, device="cpu")
    >>> count, t = sr.triangles.forward(K4, vertices=True)
    >>> count, t.tolist()
    (4, [3, 3, 3, 3])
    >>> sr.triangles.forward(sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2, device="cpu"))
    """
    op = "triangles.forward"
    A = as_matrix(A, op=op, arg="A", square=True)
    (vertices,) = check_flags(op, vertices=vertices)
    if A.nrows == 0:
        return 0, (A.xp.zeros(0, dtype=np.int64) if vertices else None)
    count, t, symmetric = backend_of(A.device).triangles.forward(A, vertices)
    return (count, t) if symmetric else None
