"""CPU elementwise operations: an op on ``n`` entries with NumPy, operands broadcast from
scalars or one-value arrays as the GPU's (array, stride) pairs do (see
:mod:`semiring.backend.gpu.elementwise`, the same names)."""

from __future__ import annotations

import numpy as np


def binary(op, dtype, x, y, n, pos=None):
    """z = op(x, y) on ``n`` entries as ``dtype``; ``pos = (ia, ja, ib, jb)`` for positional
    ops."""
    dt = np.dtype(dtype)
    xa = np.broadcast_to(np.asarray(x).astype(dt, copy=False), (n,))
    ya = np.broadcast_to(np.asarray(y).astype(dt, copy=False), (n,))
    z = np.asarray(op.apply_numpy(xa, ya, dt, pos=pos))
    if z.shape != (n,) or not z.flags.writeable:
        z = np.broadcast_to(z, (n,)).copy()  # a real array, never a read-only view
    return z.astype(op.result_type(dt), copy=False)


def unary(op, dtype, x, n, pos=None):
    """z = op(x) on ``n`` entries as ``dtype``; ``pos = (i, j)`` for positional ops."""
    dt = np.dtype(dtype)
    xa = np.broadcast_to(np.asarray(x).astype(dt, copy=False), (n,))
    z = op.apply_numpy(xa, dt, pos=pos)
    return z if z.flags.writeable else z.copy()
