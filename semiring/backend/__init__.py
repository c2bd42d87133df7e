"""The backends, chosen in one place: :func:`backend_of` maps a device to its package.

``semiring/backend/cpu/`` (NumPy/SciPy) and ``semiring/backend/gpu/`` (CuPy and the CUDA
kernels of :mod:`semiring.kernels`) hold one module per operation family, the same names on
each side:

=========== ========================================================================
spmv        ``pull`` / ``push``: one mxv / vxm product (row-parallel or frontier)
dense       ``spmm``, ``gemm``, ``gemm_accumulate``: products with dense operands
spgemm      ``spgemm``: sparse × sparse, masked
traversal   fused steps: ``push_levels``, ``relax_rounds``, one level's step and its commit
elementwise ``binary``, ``unary``: an op on n entries (operands broadcast from scalars)
components  ``weak_components``: Afforest's kernels (GPU), SciPy's search (CPU)
=========== ========================================================================

The operations (:mod:`semiring.operations`, :mod:`semiring.dense`, ...) validate their
operands, then call ``backend_of(device).<family>``.
Containers (:class:`~semiring.Matrix`, :class:`~semiring.Vector`) never import a backend.
Importing a GPU module needs no GPU: CuPy is imported on the first launch.
"""

from __future__ import annotations

from . import cpu, gpu

__all__ = ["backend_of", "cpu", "gpu"]


def backend_of(device: str):
    """The backend package of a device: ``cpu`` or ``gpu``.

    >>> from semiring.backend import backend_of
    >>> backend_of("cpu").__name__
    'semiring.backend.cpu'
    """
    return gpu if device == "gpu" else cpu
