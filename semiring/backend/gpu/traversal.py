"""GPU traversal kernels (``kernels/traverse.cu``): their instantiations, their loading (one
module of the single-block and bookkeeping kernels, one of the cooperative grid kernels), and
the launch geometry. The launches themselves are in :mod:`semiring.traversal`, which validates
the operands and names each step's algebra."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy
from ...errors import BackendUnavailable

#: C types of the index and distance arrays the kernels take.
C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long",
           np.dtype(np.float32): "float", np.dtype(np.float64): "double"}

#: Threads per block of the persistent grid (SR_GRID_THREADS in traverse.cu).
GRID_THREADS = 512
#: Blocks per multiprocessor of the persistent grid, at most what can be resident at once
#: (the occupancy of the kernel, read off the device). Fewer blocks make a cheaper grid-wide
#: barrier, more give a level's edges more threads: bench/probes/probe_coop.py measures it.
GRID_BLOCKS_PER_SM = 2
#: NVRTC options of the cooperative kernels' module (a probe may set ``-D`` overrides: the
#: options are part of the module's cache key).
GRID_OPTIONS = ("-std=c++17",)

#: Blocks per multiprocessor of the grid-stride bookkeeping kernels.
BOOK_BLOCKS_PER_SM = 8
BOOK_THREADS = 256


def source() -> str:
    return kernels.source("traverse.cu")


def kernel_names():
    """Every instantiation of the traversal kernels."""
    return ([f"push_levels<{I}, {p}>" for I in ("int", "long long") for p in (0, 1, 2)]
            + [f"relax_rounds<{I}, {T}>" for I in ("int", "long long")
               for T in C_TYPES.values()]
            + [f"bfs_commit<{I}, {p}>" for I in ("int", "long long") for p in ("false", "true")]
            + [f"bfs_frontier_of_level<{I}>" for I in ("int", "long long")]
            + [f"relax_commit<{T}>" for T in C_TYPES.values()]
            + [f"bfs_push_level<{I}, {p}>" for I in ("int", "long long") for p in (0, 1, 2)]
            + [f"relax_push<{I}, {T}>" for I in ("int", "long long") for T in C_TYPES.values()]
            + grid_kernel_names())


def grid_kernel_names():
    """The kernels launched cooperatively (every block resident at once), compiled in a module
    of their own."""
    return ([f"{k}<{I}, {p}>" for k in ("push_levels_grid", "bfs_grid")
             for I in ("int", "long long") for p in (0, 1, 2)]
            + [f"msbfs_grid<{I}, {p}>" for I in ("int", "long long") for p in (0, 1)])


@kernels.register("traversal")
def all_instantiations():
    yield "traversal", source(), kernel_names()


def function(name: str):
    """A kernel of the (non-cooperative) traversal module."""
    grid = set(grid_kernel_names())
    return kernels.function(("traverse",), name, source,
                            [k for k in kernel_names() if k not in grid], compile=False)


def grid_function(name: str, op: str = "push_levels_grid", per_sm_max: int | None = None):
    """(kernel, blocks) of a cooperative kernel: the blocks are what the device holds at once
    (occupancy × multiprocessors, at most ``per_sm_max`` (default GRID_BLOCKS_PER_SM) a
    multiprocessor); a cooperative launch of more fails. Raises BackendUnavailable (naming
    ``op``) where the launch cannot be made."""
    cp = _cupy()
    from cupy_backends.cuda.api import driver, runtime  # noqa: PLC0415  (CuPy: GPU only)

    dev = cp.cuda.runtime.getDevice()
    try:
        if not runtime.deviceGetAttribute(runtime.cudaDevAttrCooperativeLaunch, dev):
            raise BackendUnavailable(f"{op}: GPU {dev} cannot launch kernels "
                                     f"cooperatively")
        f = kernels.function(("traverse_grid", GRID_OPTIONS), name, source, grid_kernel_names(),
                             options=GRID_OPTIONS, compile=False, enable_cooperative_groups=True)
        per_sm_max = GRID_BLOCKS_PER_SM if per_sm_max is None else per_sm_max

        def blocks_of():
            per_sm = driver.occupancyMaxActiveBlocksPerMultiprocessor(f.kernel.ptr, GRID_THREADS, 0)
            if per_sm < 1:
                raise BackendUnavailable(f"{op}: no block of {GRID_THREADS} threads "
                                         f"of {name} fits on a multiprocessor of GPU {dev}")
            return kernels.num_sms(dev) * min(per_sm, max(1, per_sm_max))
        blocks = kernels.memo(("traverse_grid_blocks", GRID_OPTIONS, name, GRID_THREADS,
                               per_sm_max), blocks_of)
    except (cp.cuda.compiler.CompileException, driver.CUDADriverError,
            runtime.CUDARuntimeError) as err:
        raise BackendUnavailable(f"{op}: {type(err).__name__}: {err}") from err
    return f, blocks


def driver_error():
    """CuPy's driver error class (what a failed cooperative launch raises)."""
    from cupy_backends.cuda.api import driver  # noqa: PLC0415  (CuPy: GPU only)

    return driver.CUDADriverError


def book_grid(n: int) -> int:
    """Blocks of a grid-stride bookkeeping launch over ``n`` items."""
    cp = _cupy()
    return max(1, min(-(-n // BOOK_THREADS), kernels.num_sms(cp.cuda.Device().id) * BOOK_BLOCKS_PER_SM))
