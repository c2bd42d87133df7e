"""The value types (domains) of the algebra and their C names for the CUDA kernels."""

from __future__ import annotations

import numpy as np

from .errors import DomainMismatch

#: numpy dtype -> C type used in the kernels
C_TYPES = {
    np.dtype(np.bool_): "bool",
    np.dtype(np.int32): "int",
    np.dtype(np.int64): "long long",
    np.dtype(np.float32): "float",
    np.dtype(np.float64): "double",
}

#: The domains every built-in operation is defined on.
DTYPES = tuple(C_TYPES)
BOOL, INT32, INT64, FP32, FP64 = DTYPES

#: Index type of positional results (``secondi`` etc.).
INDEX = INT64

_ALIASES = {
    bool: BOOL, "bool": BOOL, "BOOL": BOOL,
    int: INT64, "int32": INT32, "INT32": INT32, "int64": INT64, "INT64": INT64,
    float: FP64, "float32": FP32, "FP32": FP32, "float64": FP64, "FP64": FP64,
}


def lookup_dtype(dtype, *, op: str = "dtype", arg: str = "dtype") -> np.dtype:
    """Normalize ``dtype`` to one of :data:`DTYPES`, or raise DomainMismatch."""
    if isinstance(dtype, str) and dtype in _ALIASES:
        return _ALIASES[dtype]
    if dtype in _ALIASES and not isinstance(dtype, str):
        return _ALIASES[dtype]
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise DomainMismatch(f"{op}: {arg} must be a dtype, got {dtype!r}") from e
    if dt not in C_TYPES:
        raise DomainMismatch(
            f"{op}: {arg} must be one of {[str(d) for d in DTYPES]}, got {dt}"
        )
    return dt


def promote(*dtypes) -> np.dtype:
    """The common domain of operands, NumPy's promotion limited to :data:`DTYPES`."""
    key = None
    if len(dtypes) == 2 and isinstance(dtypes[0], np.dtype) and isinstance(dtypes[1], np.dtype):
        key = dtypes
        dt = _promoted.get(key)
        if dt is not None:
            return dt
    dt = np.result_type(*dtypes)
    if dt not in C_TYPES:  # uint32 + int32 -> int64; uint64 -> float64 in numpy; keep integers
        dt = INT64 if dt.kind in "iu" else FP64
    if key is not None:
        _promoted[key] = dt
    return dt


#: promote's answers for dtype operands (np.result_type cost every product 0.5-1 µs)
_promoted: dict = {}


def c_type(dtype) -> str:
    return C_TYPES[np.dtype(dtype)]


def max_value(dtype):
    dt = np.dtype(dtype)
    if dt == BOOL:
        return True
    if dt.kind == "f":
        return np.inf
    return np.iinfo(dt).max


def min_value(dtype):
    dt = np.dtype(dtype)
    if dt == BOOL:
        return False
    if dt.kind == "f":
        return -np.inf
    return np.iinfo(dt).min


def cast(a, dtype):
    """``a`` (a NumPy or CuPy array, or a scalar) as ``dtype``, with GraphBLAS's typecasting.

    C's conversions, except where C leaves them undefined: a float cast to an integer
    type saturates at the type's limits and NaN becomes 0, as SuiteSparse:GraphBLAS defines
    (``GB_cast_to_int32`` etc. in its ``GB_casting.h``). NumPy's ``astype`` gives the
    type's minimum there (and CuPy the device's conversion), so every cast of the algebra
    into a narrower type (an output's type, a constructor's ``dtype=``, an assigned scalar)
    goes through this one function. A float cast to bool is ``x != 0`` (NaN is true).

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> sr.types.cast(np.array([np.nan, np.inf, -3e10, -2.7]), np.int32)
    array([          0,  2147483647, -2147483648,          -2], dtype=int32)
    """
    dt = np.dtype(dtype)
    if not hasattr(a, "dtype"):
        a = np.asarray(a)
    if a.dtype.kind != "f" or dt.kind not in "iu":
        if a.dtype.kind == "f" and dt.kind == "f" and dt.itemsize < a.dtype.itemsize:
            with np.errstate(over="ignore"):  # (past float32's range is ±inf, as in C)
                return a.astype(dt, copy=False)
        return a.astype(dt, copy=False)
    if isinstance(a, (np.ndarray, np.generic)):
        xp = np
    else:
        import cupy as xp  # noqa: PLC0415  (GPU-only: a CuPy array came in)
    info = np.iinfo(dt)
    with np.errstate(invalid="ignore", over="ignore"):
        z = a.astype(dt)  # (exact inside the range; what is outside is replaced below)
        z = xp.where(a >= float(info.max), info.max, xp.where(a <= float(info.min), info.min, z))
        z = xp.where(a != a, 0, z).astype(dt, copy=False)
    return z[()] if isinstance(a, np.generic) else z
