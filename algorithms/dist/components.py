"""Connected components on a DistMatrix: min-label propagation with pointer jumping.

Each round every vertex takes the least label among itself and its neighbours (both edge
directions: weak connectivity), then jumps to its label's label (``f = f(f)``, Shiloach &
Vishkin 1982's shortcut, as in FastSV: Zhang, Azad & Hu 2020). Labels are vertices of the
same component and only decrease, and the least vertex m of a component keeps f(m) = m, so
the fixed point labels every vertex with its component's least vertex; components are then
numbered 0..k-1 in order of that vertex (the agreed ``connected_components`` output).
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring.errors import check_flags
from semiring import dist

from . import _local, _spmd
from ._common import check_choice, check_matrix

CONNECTIONS = ("weak", "strong")


def connected_components(A, connection="weak", *, symmetric=False, gather=True):
    """Weakly connected components of a :class:`semiring.dist.DistMatrix`.

    Parameters
    ----------
    A : semiring.dist.DistMatrix, square
        Edges i → j where ``A(i, j)`` is present (values are not read).
    connection : {'weak'}
        ``'strong'`` is not distributed (raises).
    symmetric : bool
        Promise that A equals Aᵀ: one product a round instead of two (and only the column
        blocks are used).
    gather : bool
        Return int32 labels on the client, components numbered 0..k-1 in order of their
        least vertex; ``False`` returns the DistVector of each vertex's least vertex.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms.dist, semiring.dist as dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> DA = dist.DistMatrix.from_scipy(sp.csr_matrix(np.array([[0, 0, 0], [0, 0, 0], [1, 0, 0]])))
    >>> algorithms.dist.connected_components(DA).tolist()
    [0, 1, 0]
    >>> client.close(); client.cluster.close()
    """
    op = "connected_components"
    symmetric, gather = check_flags(op, symmetric=symmetric, gather=gather)
    A = check_matrix(A, op)
    check_choice(connection, CONNECTIONS, op, "connection")
    if connection == "strong":
        raise sr.InvalidValue(f"{op}: connection='strong' is not distributed; run "
                              f"algorithms.connected_components on one device")
    n = A.nrows
    if _local.applies(A, op):
        # one partition: the one-device algorithm on the worker (the same labels)
        return _local.whole(A, op if gather else "connected_components_roots", (),
                            dict(connection="weak"), (None,), (np.int32 if gather else np.int64,),
                            gather=gather)
    if _spmd.applies(A):
        # each partition's rank propagates labels, all-gathering them with its peers
        loop = _spmd.components_loop()
        one_block = symmetric or loop is _spmd.components_rank_forests
        roots = _spmd.run(A, loop, (bool(symmetric),),
                          kinds=("cols",) if one_block else ("cols", "rows"), gather=gather,
                          missing=(None,), dtypes=(np.int64,))
        return _labels(roots) if gather else roots
    # f(i) = i
    f = dist.DistVector.arange(A, dtype=np.int64)
    changed = n > 0
    while changed:
        # g = f min.first A                     (least label among the in-neighbours; into
        # an int64 vector: the product's own type is A's and f's promoted, float64 for a
        # weighted A, which made the labels float)
        g = dist.vxm(f, A, sr.min_first, out=dist.DistVector.new(A, np.int64),
                     direction="pull")
        if not symmetric:
            # g min= A min.second f             (... and among the out-neighbours)
            dist.mxv(A, f, sr.min_second, out=g, accum="min", direction="pull")
        # f' = min(f, g)
        f_new = dist.ewise_add(f, g, "min")
        # f' = f'(f')                            (pointer jumping)
        f_new = dist.extract(f_new, f_new)
        # changed = ∨ (f' ≠ f)
        changed = bool(dist.reduce_scalar(dist.ewise_mult(f_new, f, "ne"), "lor"))
        f = f_new
    if not gather:
        return f
    return _labels(f.to_dense())


def _labels(roots):
    # components numbered 0..k-1 in order of their least vertex
    xp = sr.array_module("gpu" if sr.is_gpu_array(roots) else "cpu")
    _, labels = xp.unique(roots, return_inverse=True)
    return labels.astype(xp.int32).reshape(-1)
