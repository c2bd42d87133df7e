"""semiring: GraphBLAS-style sparse linear algebra over semirings, on the GPU (CuPy) or the CPU.

>>> import numpy as np, scipy.sparse as sp
>>> import semiring as sr
>>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 2.0], [0, 0]])))
>>> x = sr.Vector.from_coo([0], [0.0], size=2)
>>> sr.min_plus(x @ A).to_dense(missing=np.inf)
array([inf,  2.])
"""

from . import io, types
from ._backend import default_device, gpu_available
from ._backend import device_of_array as device_of
from ._backend import is_cupy_array as is_gpu_array
from ._backend import to_device
from ._backend import xp_of as array_module
from .errors import (BackendUnavailable, DeviceMismatch, DimensionMismatch, DomainMismatch,
                     DuplicateIndices, InvalidIndex, InvalidValue, NegativeCycleError,
                     OutOfMemory, SemiringError)
from .elementwise import (EwiseExpr, apply, assign, ewise_add, ewise_mult, extract,
                          reduce_cols, reduce_rows, reduce_scalar, select, transpose)
from .expr import MatMulExpr
from .mask import Mask, as_matrix_mask
from .matrix import Matrix, as_matrix
from .operations import mxm, mxv, vxm
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
]


def __getattr__(name):
    # semirings by name at the top level: sr.min_plus, sr.any_secondi, ...
    from .ops import _SEMIRING  # noqa: PLC0415

    if name in _SEMIRING:
        return _SEMIRING[name]
    raise AttributeError(f"module 'semiring' has no attribute {name!r}")


def __dir__():
    from .ops import _SEMIRING  # noqa: PLC0415

    return sorted(set(globals()) | set(_SEMIRING))
