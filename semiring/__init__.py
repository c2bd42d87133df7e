"""semiring: GraphBLAS-style sparse linear algebra over semirings, on the GPU (CuPy) or the CPU.

>>> import numpy as np, scipy.sparse as sp
>>> import semiring as sr
>>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 2.0], [0, 0]])))
>>> x = sr.Vector.from_coo([0], [0.0], size=2)
>>> sr.min_plus(x @ A).to_dense(missing=np.inf)
array([inf,  2.])
"""

from . import blocks, centrality, connectivity, dense, device, io, kernels, ops, traversal, triangles, types
from .ops import _SEMIRING
from .device import default_device, gpu_available
from .device import device_of_array as device_of
from .device import is_cupy_array as is_gpu_array
from .device import to_device
from .device import xp_of as array_module
from .errors import (BackendUnavailable, DeviceMismatch, DimensionMismatch, DomainMismatch,
                     DuplicateIndices, InvalidIndex, InvalidValue, NegativeCycleError,
                     OutOfMemory, SemiringError)
from .elementwise import (EwiseExpr, apply, assign, ewise_add, ewise_mult, extract,
                          reduce_cols, reduce_rows, reduce_scalar, select, transpose)
from .dense import gemm, gemm_accumulate, spmm
from .expr import MatMulExpr
from .mask import Mask, as_matrix_mask
from .matrix import Matrix, as_matrix
from .operations import mxm, mxv, vxm
from .spgemm import dot3
from .ops import ANY, BinaryOp, Monoid, Semiring, UnaryOp, binary, monoid, semiring, unary
from .vector import Vector, as_vector

__version__ = "0.1.0"

__all__ = [
    "ANY", "BackendUnavailable", "BinaryOp", "DeviceMismatch", "DimensionMismatch",
    "DomainMismatch", "DuplicateIndices", "InvalidIndex", "InvalidValue", "Mask", "MatMulExpr",
    "Matrix", "Monoid", "NegativeCycleError", "OutOfMemory", "Semiring",
    "SemiringError", "Vector", "binary", "default_device", "gpu_available", "monoid", "mxm", "mxv",
    "semiring", "types", "vxm", "io",
    # devices and operand coercion, for algorithms built on the algebra
    "array_module", "as_matrix", "as_vector", "device_of", "is_gpu_array", "to_device",
    # element-wise and structural operations (semiring.elementwise)
    "EwiseExpr", "UnaryOp", "apply", "as_matrix_mask", "assign", "ewise_add", "ewise_mult",
    "extract", "reduce_cols", "reduce_rows", "reduce_scalar", "select", "transpose", "unary",
    # products with dense operands (semiring.dense): multi-source BFS / SSSP, APSP
    "gemm", "gemm_accumulate", "spmm",
    # the masked dot-product product C⟨M⟩ = A ⊕.⊗ Bᵀ given Bᵀ's rows (semiring.spgemm)
    "dot3",
    # modules: the fused traversal steps, the dense products, devices, the op tables, the
    # kernel loader, weak components (Afforest), Brandes' dependencies a source a pass, BFS
    # levels on a distributed graph's block, a small graph's triangles in one launch
    "blocks", "centrality", "connectivity", "dense", "device", "kernels", "ops", "traversal",
    "triangles",
]


def __getattr__(name):
    # semirings by name at the top level: sr.min_plus, sr.any_secondi, ...
    if name in _SEMIRING:
        return _SEMIRING[name]
    raise AttributeError(f"module 'semiring' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SEMIRING))
