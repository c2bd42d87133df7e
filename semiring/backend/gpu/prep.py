"""GPU preparation steps of a first call (``kernels/prep.cu``): the transpose of a CSR, the
SpMV pull schedule's bins, the device loops' weight check. Each replaces a chain of CuPy
element-wise / scan / reduction kernels, which NVRTC compiles one by one on a fresh kernel
cache (0.1-0.2 s each, about 2.5 s for a CUB reduction: bench/probes/probe_first_call.py),
by one or two kernels of ours, compiled on the loader's prefetch threads at once; the sorts
are CuPy's in-place ``sort`` of keys that carry their payload (Thrust, compiled with CuPy:
no NVRTC compile at run time; ``argsort`` would first copy its input with an element-wise
kernel, a 0.09 s compile).

Installed into :mod:`semiring.matrix` at import (``install_gpu_transpose``: containers import
no backend) and called by :mod:`semiring.backend.gpu.spmv` and :mod:`semiring.traversal`."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy
from ...errors import InvalidValue
from ...matrix import install_gpu_transpose

#: C types of the CSR index arrays.
INDEX_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: The words the transpose's gather moves, by the values' item size.
WORDS = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long"}
#: C types of the weights :func:`weight_check` takes (the signed domains: bool never fails).
CHECK_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long",
               np.dtype(np.float32): "float", np.dtype(np.float64): "double"}
THREADS = 256
#: Blocks per multiprocessor of the grid-stride kernels.
BLOCKS_PER_SM = 8


def source() -> str:
    return kernels.source("prep.cu")


def kernel_names():
    """Every instantiation of the preparation kernels."""
    names = []
    for I in INDEX_TYPES.values():
        names += [f"transpose_keys<{I}>", f"transpose_indptr<{I}>", f"pull_bins<{I}>",
                  f"pull_rows<{I}>"]
        names += [f"transpose_fill<{I}, {V}>" for V in WORDS.values()]
    names += [f"weight_check<{V}>" for V in CHECK_TYPES.values()]
    return names


@kernels.register("prep")
def all_instantiations():
    yield "prep", source(), kernel_names()


def function(name: str):
    """One kernel, compiled alone (a program each) on first use."""
    return kernels.function(("prep",), name, source, kernel_names)


def prefetch(*names: str) -> None:
    """Start compiling the kernels ``names`` on the loader's threads (none already built)."""
    for name in names:
        if not kernels.cached(("function", "prep", name)):
            kernels.prefetch(function, name)


def _grid(n: int) -> tuple:
    cp = _cupy()
    return (max(1, min(-(-n // THREADS), kernels.num_sms(cp.cuda.Device().id) * BLOCKS_PER_SM)),)


def transpose(indptr, indices, values, nrows: int, ncols: int):
    """(indptr, indices, values) of the transpose of a CSR with unique columns in each row, the
    same arrays as a counting sort's: rows ascending within each column. ``values`` may be
    None (a structure-only matrix). A sort of (column, position) keys, in place (Thrust)."""
    cp = _cupy()
    it = np.dtype(indices.dtype)
    I = INDEX_TYPES[it]
    nvals = int(indices.size)
    t_indptr = cp.zeros(ncols + 1, dtype=it)
    t_indices = cp.empty(nvals, dtype=it)
    t_values = None if values is None else cp.empty(nvals, dtype=values.dtype)
    if nvals == 0:
        return t_indptr, t_indices, t_values
    if ncols * nvals >= 2**63:
        raise InvalidValue(f"Matrix.T: ncols (={ncols}) times nvals (={nvals}) must stay below "
                           f"2**63 (the GPU transpose's sort keys)")
    word = WORDS[values.dtype.itemsize] if values is not None else "unsigned char"
    fill, tip = f"transpose_fill<{I}, {word}>", f"transpose_indptr<{I}>"
    prefetch(fill, tip)
    key = cp.empty(nvals, dtype=cp.int64)
    function(f"transpose_keys<{I}>")(_grid(nvals), (THREADS,), (indices, np.int64(nvals), key))
    key.sort()
    function(fill)(_grid(nvals), (THREADS,), (
        key, indptr, np.int64(nrows), np.int64(nvals), t_indices, values, t_values))
    function(tip)(_grid(ncols + 1), (THREADS,), (
        key, np.int64(ncols), np.int64(nvals), t_indptr))
    return t_indptr, t_indices, t_values


def pull_bins(indptr, nrows: int, nbins: int, unroll: int, long_row: int):
    """(rows, counts): the rows in launch order (long rows first, longest first, then by bin
    and row) as the CSR's index type, and the rows of each of the ``nbins + 1`` bins (a host
    array: one sync)."""
    cp = _cupy()
    I = INDEX_TYPES[np.dtype(indptr.dtype)]
    decode = f"pull_rows<{I}>"
    prefetch(decode)
    key = cp.empty(nrows, dtype=cp.int64)
    counts = cp.zeros(nbins + 1, dtype=cp.uint64)
    function(f"pull_bins<{I}>")(_grid(nrows), (THREADS,), (
        indptr, np.int64(nrows), np.int32(nbins), np.int64(unroll), np.int64(long_row), key,
        counts))
    key.sort()
    rows = cp.empty(nrows, dtype=indptr.dtype)
    function(decode)(_grid(nrows), (THREADS,), (key, np.int64(nrows), rows))
    return rows, counts.get().astype(np.int64)


def weight_check(w) -> tuple:
    """(negative or NaN entries, NaN entries) of a weight array (any domain; bool and
    unsigned never fail); one sync."""
    dt = np.dtype(w.dtype)
    if dt not in CHECK_TYPES or w.size == 0:
        return 0, 0
    cp = _cupy()
    counts = cp.zeros(2, dtype=cp.uint64)
    function(f"weight_check<{CHECK_TYPES[dt]}>")(_grid(int(w.size)), (THREADS,), (
        w, np.int64(w.size), counts))
    bad, nan = (int(v) for v in counts.get())
    return bad, nan


install_gpu_transpose(transpose)
