"""CPU triangles by the forward listing: every entry's support (the triangles through the
edge) by :func:`compiled.edge_supports` (Numba's compiled loop where the ``cpu`` extra is
installed, else the same loop interpreted), after a structural symmetry check against the
cached transpose. Called by :mod:`semiring.triangles`, which validates."""

from __future__ import annotations

import numpy as np

from . import compiled


def forward(A, vertices: bool):
    """(count, t, symmetric) as in the GPU's ``forward``: t int64 (or None); the listing runs
    only on a symmetric A (count 0 and t None where A is not)."""
    AT = A.T
    if not (np.array_equal(A.indptr, AT.indptr) and np.array_equal(A.indices, AT.indices)):
        return 0, None, False
    sup = compiled.edge_supports(A.indptr, A.indices)
    if not vertices:
        # Σ supports = 6 × the triangles (each on three edges, each edge stored both ways)
        return int(sup.sum()) // 6, None, True
    # t(v) = ½ Σ over v's row of the supports (prefix sums: a row may be empty)
    prefix = np.zeros(sup.size + 1, dtype=np.int64)
    np.cumsum(sup, out=prefix[1:])
    ptr = A.indptr.astype(np.int64)
    t = (prefix[ptr[1:]] - prefix[ptr[:-1]]) // 2
    return int(t.sum()) // 3, t, True
