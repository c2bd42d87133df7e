"""Distributed matrices and operations over Dask (``pip install "semiring[dask]"``).

A :class:`DistMatrix` is a sparse matrix cut into 1-D partitions (row blocks for ``mxv``,
column blocks for ``vxm``) held by Dask workers, each partition an ``sr.Matrix`` on its
worker's device (NumPy/SciPy on CPU workers, CuPy on GPU workers); a :class:`DistVector` is a
vector cut the same way. The operations (:func:`mxv`, :func:`vxm`, the element-wise ones,
reductions) run one task per partition, and each task calls the engine itself on its block:
the engine is the per-partition kernel, Dask does the placement, scheduling and transfers.

Clusters: :func:`local_cluster` makes a ``LocalCluster`` of CPU processes, or one worker
process per GPU (``device='gpu'``, as dask-cuda's ``LocalCUDACluster`` does); any existing
``distributed.Client`` works too. The algorithms over these (BFS, SSSP, PageRank, connected
components) are in :mod:`algorithms.dist`; ``algorithms.bfs(DA, source)`` dispatches there.

Importing this module needs no Dask; using it does (:class:`semiring.BackendUnavailable`
names the extra otherwise).

Examples
--------
>>> from semiring import dist
>>> dist.even_bounds(10, 3)
(0, 3, 7, 10)
"""

from ._client import (check_open, get_client, local_cluster, reduce_latency,
                      require_distributed)
from .core import (DistMask, DistMatrix, DistVector, Layout, Lazy, compute, even_bounds,
                   make_layout)
from .ops import (apply, assign, dot, ewise_add, ewise_mult, extract, mxv, nvals, reduce_cols,
                  reduce_rows, reduce_scalar, select, vxm)

__all__ = ["DistMask", "DistMatrix", "DistVector", "Layout", "Lazy", "apply", "assign",
           "check_open", "compute", "dot", "even_bounds", "ewise_add", "ewise_mult", "extract",
           "get_client", "local_cluster", "make_layout", "mxv", "nvals", "reduce_cols",
           "reduce_latency", "reduce_rows", "reduce_scalar", "require_distributed", "select", "vxm"]
