"""GPU elementwise operations: ``kernels/elementwise.cu`` templated on op structs generated
from the op tables, compiled lazily per (op, domain) through :mod:`semiring.kernels`. Operands
are (array, stride) pairs so that scalars and iso values broadcast."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ... import types as _t
from ...device import _cupy
from ...ops import BinaryOp, UnaryOp, builtins
from .spmv import BLOCK

_BLOCKS_PER_SM = 8


def kernel_name(op, dtype) -> str:
    T = _t.c_type(dtype)
    R = _t.c_type(op.result_type(dtype))
    if isinstance(op, UnaryOp):
        return f"ew_unary<uop_{op.name}, {T}, {R}>"
    return f"ew_binary<op_{op.name}, {T}, {R}>"


def program(op) -> str:
    """The module of one op (all domains)."""
    return kernels.source("common.cuh", "elementwise.cu", ops=[op])


@kernels.register("elementwise")
def instantiations():
    """(label, source, name_expressions) of every built-in unary and binary op × domain."""
    for kind, prefix in (("unary", "ew_unary"), ("binary", "ew_binary")):
        for name, op in sorted(builtins(kind).items()):
            yield f"{prefix}_{name}", program(op), [kernel_name(op, dt) for dt in _t.DTYPES]


def _function(op, dtype):
    """The kernel of (op, dtype), compiled alone (a user op may compile in some domains
    only: ``x & y`` is not for floats)."""
    name = kernel_name(op, dtype)
    return kernels.function(("elementwise", id(op)), name, lambda: program(op), [name])


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
    return (max(1, min(-(-n // BLOCK), kernels.num_sms(cp.cuda.Device().id) * _BLOCKS_PER_SM)),)


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
