"""GPU mechanism of the elementwise operations: ``kernels/elementwise.cu`` templated on op
functors generated from the op tables, compiled lazily per (op, domain) and memoized per
device. Operands are (array, stride) pairs so that scalars and iso values broadcast."""

from __future__ import annotations

import numpy as np

from . import types as _t
from ._backend import _cupy
from ._gpu import BLOCK, NVRTC_OPTIONS, _kernel_text, _num_sms, functor_source
from .ops import BinaryOp, UnaryOp

_BLOCKS_PER_SM = 8


def unary_functor_source(op: UnaryOp) -> str:
    """The C++ struct generated for a unary op."""
    return (
        f"struct uop_{op.name} {{\n"
        f"  template <typename R, typename T> __device__ __forceinline__ static R\n"
        f"  f(T x, sr_index i, sr_index j) {{\n"
        f"    (void)x; (void)i; (void)j;\n"
        f"    return (R)({op.cuda});\n"
        f"  }}\n}};\n"
    )


def _source(functor: str) -> str:
    from importlib import resources  # noqa: PLC0415

    head = _kernel_text().split("// Warp shuffles", 1)[0]
    ew = resources.files("semiring.kernels").joinpath("elementwise.cu").read_text()
    # the helpers (sr_minv, ...) come before the functors that call them
    helpers, kernels = ew.split("// z[t] = Op(x[t], y[t])", 1)
    return head + helpers + functor + "// z[t] = Op(x[t], y[t])" + kernels


def kernel_name(op, dtype) -> str:
    T = _t.c_type(dtype)
    R = _t.c_type(op.result_type(dtype))
    if isinstance(op, UnaryOp):
        return f"ew_unary<uop_{op.name}, {T}, {R}>"
    return f"ew_binary<op_{op.name}, {T}, {R}>"


def program(op):
    """(source, functor) of the module of one op (all domains)."""
    return _source(unary_functor_source(op) if isinstance(op, UnaryOp) else functor_source(op))


def instantiations():
    """(label, source, name_expressions) of every built-in unary and binary op × domain, for
    CI's NVRTC compile."""
    from .ops import _BINARY, _UNARY  # noqa: PLC0415

    for table, prefix in ((_UNARY, "ew_unary"), (_BINARY, "ew_binary")):
        for name in sorted(table):
            op = table[name]
            yield f"{prefix}_{name}", program(op), [kernel_name(op, dt) for dt in _t.DTYPES]


_modules: dict = {}
_functions: dict = {}


def _function(op, dtype):
    """The kernel of (op, dtype); one module per op holds every domain, so a session compiles
    each op once (as CI does)."""
    cp = _cupy()
    dev = cp.cuda.runtime.getDevice()
    key = (dev, id(op), np.dtype(dtype))
    f = _functions.get(key)
    if f is None:
        name = kernel_name(op, dtype)
        mod = _modules.get((dev, id(op)))
        if mod is None:
            names = [kernel_name(op, dt) for dt in _t.DTYPES]
            mod = cp.RawModule(code=program(op), options=NVRTC_OPTIONS, name_expressions=names)
            try:
                mod.compile()
                _modules[(dev, id(op))] = mod
            except Exception:
                # a user op may compile in some domains only (``x & y`` is not for floats)
                mod = cp.RawModule(code=program(op), options=NVRTC_OPTIONS, name_expressions=[name])
        f = _functions[key] = mod.get_function(name)
    return f


def _operand(cp, a, dtype, n):
    """(device array, stride) of an operand: a scalar or 1-element array broadcasts."""
    if a is None:
        return cp.zeros(1, dtype=dtype), np.int64(0)
    if np.ndim(a) == 0:
        return cp.asarray(np.asarray([a]).astype(dtype)), np.int64(0)
    a = cp.asarray(a).astype(dtype, copy=False)
    if a.size == 1 and n != 1:
        return a, np.int64(0)
    return cp.ascontiguousarray(a), np.int64(1)


def _grid(n):
    cp = _cupy()
    return (max(1, min(-(-n // BLOCK), _num_sms(cp.cuda.Device().id) * _BLOCKS_PER_SM)),)


def binary(op: BinaryOp, dtype, x, y, n, pos=None):
    """z = op(x, y) on ``n`` entries as ``dtype``; ``pos = (ia, ja, ib, jb)`` (arrays or
    scalars) for positional ops."""
    cp = _cupy()
    dt = np.dtype(dtype)
    z = cp.empty(n, dtype=op.result_type(dt))
    if n == 0:
        return z
    pos = (None,) * 4 if pos is None else pos
    args = [*_operand(cp, x, dt, n), *_operand(cp, y, dt, n)]
    for p in pos:
        args += _operand(cp, p, np.int64, n)
    _function(op, dt)(_grid(n), (BLOCK,), (*args, np.int64(n), z))
    return z


def unary(op: UnaryOp, dtype, x, n, pos=None):
    """z = op(x) on ``n`` entries as ``dtype``; ``pos = (i, j)`` for positional ops."""
    cp = _cupy()
    dt = np.dtype(dtype)
    z = cp.empty(n, dtype=op.result_type(dt))
    if n == 0:
        return z
    pos = (None,) * 2 if pos is None else pos
    args = list(_operand(cp, x, dt, n))
    for p in pos:
        args += _operand(cp, p, np.int64, n)
    _function(op, dt)(_grid(n), (BLOCK,), (*args, np.int64(n), z))
    return z
