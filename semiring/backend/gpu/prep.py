"""GPU preparation steps of a first call (``kernels/prep.cu``): the transpose of a CSR, the
SpMV pull schedule's bins, the device loops' weight check; and Floyd–Warshall's dense setup
(``algorithms.apsp``: the integer weights' bounds, the packed path's D0 and its result in
the caller's type, the float D0), one grid-wide pass each where CuPy's reductions to one
value ran in a single block and its expressions made n² temporaries. Each replaces a chain of CuPy
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
#: C types of :func:`dense_bounds` (Floyd–Warshall's integer weights).
BOUND_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: C types of the packed path's weights and results (:func:`u16_pack`, :func:`u16_unpack`;
#: float64: a bool adjacency matrix's hop counts).
U16_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long",
             np.dtype(np.float64): "double"}
#: C types of :func:`dense_d0` (Floyd–Warshall's float D0).
D0_TYPES = {np.dtype(np.float32): "float", np.dtype(np.float64): "double"}
#: The packed path's infinity (PREP_U16_INF in prep.cu; ``semiring.dense.U16_INF``).
U16_INF = 0x7FFF
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
    names += [f"dense_bounds<{V}>" for V in BOUND_TYPES.values()]
    names.append("dense_finite_max_abs")
    names += [f"u16_pack<{V}>" for V in U16_TYPES.values()]
    names += [f"u16_unpack<{V}>" for V in U16_TYPES.values()]
    names += [f"dense_d0<{V}>" for V in D0_TYPES.values()]
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


def _row_pitch(a):
    """``a``'s row pitch in entries when its rows are contiguous (any pitch), else None."""
    item = a.dtype.itemsize
    if a.ndim != 2 or a.strides[1] != item or a.strides[0] < 0 or a.strides[0] % item:
        return None
    return a.strides[0] // item if a.shape[0] > 1 else a.shape[1]


def _row_grid(rows: int) -> tuple:
    """Blocks of the row-wise kernels (a row per block, grid-stride)."""
    cp = _cupy()
    return (max(1, min(rows, kernels.num_sms(cp.cuda.Device().id) * BLOCKS_PER_SM)),)


def prefetch_u16(out_type) -> None:
    """Start compiling the packed path's D0 and result kernels for ``out_type`` (while the
    bounds decide whether the path runs at all)."""
    C = U16_TYPES.get(np.dtype(out_type))
    if C is not None:
        prefetch(f"u16_pack<{C}>", f"u16_unpack<{C}>")


def dense_bounds(a, big: int):
    """(min over every entry, max over the entries != ``big``) of a 2-D int32 / int64 array
    with contiguous rows, in one grid-wide pass and one sync (the second is the type's lowest
    when every entry is ``big``); None for another type or layout (the caller reduces)."""
    dt, ld = np.dtype(a.dtype), _row_pitch(a)
    if dt not in BOUND_TYPES or ld is None or a.size == 0:
        return None
    cp = _cupy()
    out = cp.array([big, np.iinfo(dt).min], dtype=dt)
    rows, cols = a.shape
    function(f"dense_bounds<{BOUND_TYPES[dt]}>")(_row_grid(rows), (THREADS,), (
        a, np.int64(rows), np.int64(cols), np.int64(ld), dt.type(big), out))
    lo, hi = (int(v) for v in out.get())
    return lo, hi


def dense_finite_max_abs(a):
    """max |x| over the finite entries of a 2-D float32 array with contiguous rows (0.0 when
    none is finite), in one grid-wide pass and one sync; None for another type or layout."""
    if np.dtype(a.dtype) != np.float32 or a.ndim != 2:
        return None
    if a.size == 0:
        return 0.0
    ld = _row_pitch(a)
    if ld is None:
        return None
    cp = _cupy()
    out = cp.zeros(1, dtype=cp.uint32)
    rows, cols = a.shape
    function("dense_finite_max_abs")(_row_grid(rows), (THREADS,), (
        a, np.int64(rows), np.int64(cols), np.int64(ld), out))
    return float(out.get().view(np.float32)[0])


def u16_pack(w, npad: int):
    """The packed path's D0 (npad × npad uint16, C-contiguous): min(w, U16_INF) inside the
    n × n weights ``w`` (int32 / int64 / float64, none negative: the caller checked),
    U16_INF in the padding, 0 on the diagonal; one pass. None for another type or layout."""
    dt, ld = np.dtype(w.dtype), _row_pitch(w)
    if dt not in U16_TYPES or ld is None:
        return None
    cp = _cupy()
    D = cp.empty((npad, npad), dtype=cp.uint16)
    if npad:
        function(f"u16_pack<{U16_TYPES[dt]}>")(_row_grid(npad), (THREADS,), (
            w, np.int64(w.shape[0]), np.int64(ld), D, np.int64(npad)))
    return D


def u16_unpack(D, n: int, out_type, big):
    """The packed result's leading n × n in ``out_type`` (int32 / int64 / float64, C-contiguous),
    U16_INF as ``big``; one pass. None for another type or layout."""
    dt, ld = np.dtype(out_type), _row_pitch(D)
    if dt not in U16_TYPES or ld is None or D.dtype != np.uint16:
        return None
    cp = _cupy()
    out = cp.empty((n, n), dtype=dt)
    if n:
        function(f"u16_unpack<{U16_TYPES[dt]}>")(_row_grid(n), (THREADS,), (
            D, np.int64(ld), np.int64(n), dt.type(big), out))
    return out


def dense_d0(a):
    """(D, NaN entries): a C-contiguous copy of the square float32 / float64 ``a`` with
    min(a_ii, 0) on the diagonal, and the count of NaN entries; one pass, one sync. None for
    another type or layout."""
    dt, ld = np.dtype(a.dtype), _row_pitch(a)
    if dt not in D0_TYPES or ld is None:
        return None
    cp = _cupy()
    n = a.shape[0]
    D = cp.empty((n, n), dtype=dt)
    nan = cp.zeros(1, dtype=cp.uint64)
    if n:
        function(f"dense_d0<{D0_TYPES[dt]}>")(_row_grid(n), (THREADS,), (
            a, np.int64(n), np.int64(ld), D, nan))
    return D, int(nan.get()[0])


install_gpu_transpose(transpose)
