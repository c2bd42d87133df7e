"""GPU Brandes dependencies, one thread block a source (``kernels/brandes.cu``), and a power
iteration's fused vector step (``kernels/power.cu``). Called by :mod:`semiring.centrality`,
which validates."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy

#: C types of the CSR's index arrays.
C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: Threads of a block (SR_BRANDES_THREADS in brandes.cu): a level of up to this many vertices
#: is one step of each thread.
THREADS = 1024


def source() -> str:
    return kernels.source("brandes.cu")


def kernel_names():
    return [f"brandes_block<{I}>" for I in C_TYPES.values()]


@kernels.register("brandes")
def all_instantiations():
    yield "brandes", source(), kernel_names()


def function(name: str):
    return kernels.function(("brandes",), name, source, kernel_names)


def dependencies(G, GT, sources):
    """(delta (s × n float64), level (s × n int32), depth (s,) int32) of the sources (a host
    int64 array), one block each; G and GT share their index type."""
    cp = _cupy()
    n, s = G.nrows, int(sources.size)
    I = C_TYPES[np.dtype(G.itype)]
    level = cp.empty((s, n), dtype=cp.int32)
    queue = cp.empty((s, n), dtype=cp.int32)
    start = cp.empty((s, n + 2), dtype=cp.int32)
    sigma = cp.empty((s, n), dtype=cp.float64)
    delta = cp.empty((s, n), dtype=cp.float64)
    depth = cp.empty(s, dtype=cp.int32)
    src = cp.asarray(sources, dtype=cp.int64)
    function(f"brandes_block<{I}>")(
        (s,), (THREADS,),
        (G.indptr, G.indices, GT.indptr, GT.indices, np.int64(n), src, level, queue, start,
         sigma, delta, depth))
    return delta, level, depth


#: Threads of a block of ``power_update`` (SR_POWER_THREADS in power.cu).
POWER_THREADS = 256
#: Blocks of ``power_update`` at most: its per-block sums come to the host (2 doubles each).
POWER_MAX_BLOCKS = 512


def power_source() -> str:
    return kernels.source("power.cu")


@kernels.register("power")
def power_instantiations():
    yield "power", power_source(), ["power_update"]


def power_update(t_vals, t_pres, x, u, p, inv, d, s):
    """(x', w', change, s') of one step (``kernels/power.cu``); one host synchronization (the
    blocks' sums, summed on the host in block order)."""
    cp = _cupy()
    n = int(x.size)
    xn = cp.empty(n, dtype=cp.float64)
    w = cp.empty(n, dtype=cp.float64)
    blocks = max(1, min(POWER_MAX_BLOCKS, -(-n // POWER_THREADS)))
    part = cp.empty(2 * blocks, dtype=cp.float64)
    kernels.function(("power",), "power_update", power_source, ["power_update"])(
        (blocks,), (POWER_THREADS,),
        (t_vals, t_pres, x, u, p, inv, np.float64(d), np.float64(s), np.int64(n), xn, w, part))
    sums = part.get().reshape(blocks, 2)
    return xn, w, float(sums[:, 0].sum()), float(sums[:, 1].sum())
