"""Graph generators for the benchmarks: Graph500 Kronecker, GAP urand, 2-D grid, random
geometric graph.

Everything is vectorized over edges (no Python loop per edge or vertex) and runs on whichever
array module ``xp`` it is given: NumPy (CPU) or CuPy (GPU). The random numbers come from a
counter-based hash (SplitMix64 of ``seed``, a stream id and the element's index) written in
plain array arithmetic, so **the same seed gives the same graph on the CPU and on the GPU**
(and whatever the chunking): a GPU benchmark and a CPU benchmark of ``kron-16`` with seed 0
run on identical graphs, and a cached graph is valid for both devices.

Conventions (GAP / Graph500):

- Kronecker: ``n = 2**scale`` vertices, ``edge_factor * n`` generated edge tuples; for each
  of the ``scale`` bit levels the quadrant of every edge is drawn at once with probabilities
  A, B, C, D = 0.57, 0.19, 0.19, 0.05 (as the Graph500 reference generator does), then the
  vertex labels are randomly permuted.
- urand: ``n = 2**scale`` vertices, ``edge_factor * n`` edge tuples with uniform endpoints.
- grid: ``rows x cols`` lattice, 4-neighbour, a high-diameter road-like graph.
- rgg: ``n = 2**scale`` random points in the unit square joined when closer than ``r`` (about
  :data:`RGG_DEGREE` neighbours each), Euclidean weights quantized to [1, 255]: road-like.
- Weights: integers uniform in [1, 255] (GAP), stored as ``dtype`` (float32 by default). For an
  undirected graph the weight is a function of the unordered pair, so ``A`` is symmetric.
- Self-loops and duplicate edges are removed; ``undirected=True`` (the default) symmetrizes.
- The result is a ``scipy.sparse.csr_matrix`` (NumPy) or ``cupyx.scipy.sparse.csr_matrix``
  (CuPy) with sorted column indices and no duplicates, int32 indices when they fit.

:func:`make_graph` adds an on-disk cache (``bench/cache/``, one ``.npz`` of
indptr/indices/data per generator, parameters and seed) so that repeated runs skip generation.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

#: Bumped whenever a generator's output for given parameters changes (invalidates the cache).
GENERATOR_VERSION = 1

#: Where :func:`make_graph` caches generated graphs (gitignored).
DEFAULT_CACHE_DIR = Path(__file__).resolve().parent / "cache"

#: Graph500 Kronecker initiator probabilities (D = 1 - A - B - C = 0.05).
GRAPH500_ABC = (0.57, 0.19, 0.19)
#: Graph500 / GAP edge factor: edge tuples per vertex.
EDGE_FACTOR = 16
#: GAP weights: integers uniform in [WEIGHT_LOW, WEIGHT_HIGH].
WEIGHT_LOW, WEIGHT_HIGH = 1, 255

#: Edges processed per chunk while drawing Kronecker / urand endpoints (bounds temporaries:
#: about 40 bytes per edge of scratch on top of the two endpoint arrays).
_CHUNK = 1 << 24

_INT32_MAX = np.iinfo(np.int32).max

# SplitMix64 constants.
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MASK64 = (1 << 64) - 1

# Stream ids: each random quantity draws from its own stream.
_STREAM_KRON_LEVEL = 0x1000  # + level
_STREAM_PERM = 0x2000
_STREAM_URAND = 0x3000
_STREAM_WEIGHT = 0x4000
_STREAM_FRONTIER = 0x5000
_STREAM_VECTOR = 0x6000
_STREAM_RGG = 0x7000  # + axis


# --------------------------------------------------------------------------------------------
# array-module helpers


def get_xp(xp: Any = None):
    """Resolve an array-module argument.

    ``None``, ``numpy``, ``"cpu"`` -> NumPy; ``cupy`` or ``"gpu"`` -> CuPy (imported here);
    ``"auto"`` -> CuPy when it imports and a device answers, else NumPy.
    """
    if xp is None or xp is np or xp == "cpu" or xp == "numpy":
        return np
    if isinstance(xp, str):
        if xp in ("gpu", "cupy"):
            import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

            return cupy
        if xp == "auto":
            cp = cupy_if_available()
            return cp if cp is not None else np
        raise ValueError(f"xp: expected None, numpy, cupy, 'cpu', 'gpu' or 'auto', got {xp!r}")
    return xp


def cupy_if_available():
    """The cupy module when it imports and a CUDA device answers, else None."""
    try:
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy
    except Exception:
        pass
    return None


def is_cupy(xp) -> bool:
    return getattr(xp, "__name__", "") == "cupy"


def to_numpy(a) -> np.ndarray:
    """Host copy of a NumPy or CuPy array (NumPy arrays are returned as they are)."""
    if hasattr(a, "get") and not isinstance(a, np.ndarray):
        return a.get()
    return np.asarray(a)


def _u64(xp, value: int):
    return xp.uint64(value & _MASK64)


def _splitmix_key(seed: int, stream: int) -> int:
    """A 64-bit key per (seed, stream), computed on the host with Python integers."""
    z = (int(seed) * _GOLDEN + int(stream) * 0xD1B54A32D192ED03 + 0x632BE59BD9B4E019) & _MASK64
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


def _mix64(xp, z):
    """SplitMix64 finalizer on a uint64 array (wrapping arithmetic), in place where possible."""
    z = z ^ (z >> _u64(xp, 30))
    z *= _u64(xp, _MIX1)
    z ^= z >> _u64(xp, 27)
    z *= _u64(xp, _MIX2)
    z ^= z >> _u64(xp, 31)
    return z


def hash_counter(xp, seed: int, stream: int, start: int, count: int):
    """``count`` pseudo-random uint64 values: element ``i`` of stream ``stream`` is
    ``splitmix64(key(seed, stream) + (start + i) * golden)``, the same on NumPy and CuPy."""
    i = xp.arange(start, start + count, dtype=xp.uint64)
    return hash_values(xp, seed, stream, i)


def hash_values(xp, seed: int, stream: int, values):
    """Pseudo-random uint64 per element of an integer array ``values`` (a function of the value:
    equal inputs give equal outputs)."""
    z = values.astype(xp.uint64, copy=True)
    z *= _u64(xp, _GOLDEN)
    z += _u64(xp, _splitmix_key(seed, stream))
    return _mix64(xp, z)


def _sorted_unique(xp, a):
    """Sorted distinct values of a 1-D array (sort + adjacent difference; NumPy 2's hash-based
    ``unique`` is several times slower on large integer keys). May sort ``a`` in place."""
    a.sort()
    if a.size < 2:
        return a
    keep = xp.empty(a.size, dtype=bool)
    keep[0] = True
    xp.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def _index_dtype(n: int, nnz: int):
    return np.int32 if max(n, nnz) <= _INT32_MAX else np.int64


# --------------------------------------------------------------------------------------------
# edge lists (raw tuples, before cleaning)


def kronecker_edges(scale: int, edge_factor: int = EDGE_FACTOR, *, seed: int = 0,
                    abc: tuple[float, float, float] = GRAPH500_ABC, permute: bool = True, xp=None,
                    start: int = 0, stop: int | None = None):
    """Raw Graph500 Kronecker edge tuples ``(src, dst)`` (with self-loops and duplicates).

    Mirrors the Graph500 reference generator (``kronecker_generator.m``): for each of the
    ``scale`` bit levels, every edge draws its quadrant at once: the row bit is 1 with
    probability C + D, the column bit with probability B/(A+B) or D/(C+D) given the row bit.
    Vertex labels are then permuted with a random permutation.

    ``start``, ``stop``: only the tuples ``start:stop`` of the ``edge_factor * 2**scale``
    (default: all). Tuple k's random numbers are a function of (seed, k) alone, so any split
    into ranges, concatenated, is the whole list (:func:`kronecker_chunk`).
    """
    xp = get_xp(xp)
    if scale < 1 or scale > 40:
        raise ValueError(f"kronecker: scale must be in [1, 40], got {scale}")
    a, b, c = abc
    if not (0 < a and 0 <= b and 0 <= c and a + b + c < 1):
        raise ValueError(f"kronecker: bad initiator probabilities A,B,C = {abc}")
    n = 1 << scale
    m_all = int(edge_factor) * n
    first, last = _edge_range(m_all, start, stop, "kronecker_edges")
    m = last - first
    idt = xp.int32 if n - 1 <= _INT32_MAX else xp.int64
    src = xp.zeros(m, dtype=idt)
    dst = xp.zeros(m, dtype=idt)
    ab = a + b
    c_norm = c / (1.0 - ab)
    a_norm = a / ab
    # Integer thresholds on 32-bit uniforms u = k / 2**32:  u > p  <=>  k > floor(p * 2**32).
    t_ab = np.uint32(min(int(ab * 2**32), 2**32 - 1))
    t_c = np.uint32(min(int(c_norm * 2**32), 2**32 - 1))
    t_a = np.uint32(min(int(a_norm * 2**32), 2**32 - 1))
    low32 = _u64(xp, 0xFFFFFFFF)
    for start in range(0, m, _CHUNK):
        stop = min(m, start + _CHUNK)
        s_acc = xp.zeros(stop - start, dtype=idt)
        d_acc = xp.zeros(stop - start, dtype=idt)
        for level in range(scale):
            h = hash_counter(xp, seed, _STREAM_KRON_LEVEL + level, first + start, stop - start)
            u_row = (h >> _u64(xp, 32)).astype(xp.uint32)
            u_col = (h & low32).astype(xp.uint32)
            del h
            row_bit = u_row > t_ab
            col_bit = xp.where(row_bit, u_col > t_c, u_col > t_a)
            s_acc |= row_bit.astype(idt) << level
            d_acc |= col_bit.astype(idt) << level
        src[start:stop] = s_acc
        dst[start:stop] = d_acc
    if permute:
        perm = random_permutation(n, seed=seed, stream=_STREAM_PERM, xp=xp).astype(idt)
        src = perm[src]
        dst = perm[dst]
    return src, dst


def urand_edges(scale: int, edge_factor: int = EDGE_FACTOR, *, seed: int = 0, xp=None,
                start: int = 0, stop: int | None = None):
    """Raw GAP "urand" edge tuples: ``edge_factor * 2**scale`` pairs of uniform endpoints
    (only the tuples ``start:stop`` when given, as :func:`kronecker_edges`)."""
    xp = get_xp(xp)
    if scale < 1 or scale > 40:
        raise ValueError(f"urand: scale must be in [1, 40], got {scale}")
    n = 1 << scale
    first, last = _edge_range(int(edge_factor) * n, start, stop, "urand_edges")
    m = last - first
    idt = xp.int32 if n - 1 <= _INT32_MAX else xp.int64
    src = xp.empty(m, dtype=idt)
    dst = xp.empty(m, dtype=idt)
    mask = _u64(xp, n - 1)  # n is a power of two: the low bits are uniform
    for start in range(0, m, _CHUNK):
        stop = min(m, start + _CHUNK)
        h = hash_counter(xp, seed, _STREAM_URAND, first + start, stop - start)
        src[start:stop] = (h & mask).astype(idt)
        h = hash_counter(xp, seed, _STREAM_URAND + 1, first + start, stop - start)
        dst[start:stop] = (h & mask).astype(idt)
    return src, dst


def _edge_range(m: int, start, stop, op: str) -> tuple[int, int]:
    """``[start, stop)`` checked against the ``m`` edge tuples (``stop=None``: m)."""
    stop = m if stop is None else stop
    for name, v in (("start", start), ("stop", stop)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{op}: {name} must be an int, got {type(v).__name__}")
    if not 0 <= start <= stop <= m:
        raise ValueError(f"{op}: need 0 <= start <= stop <= {m} (the edge tuples), got "
                         f"start={start}, stop={stop}")
    return int(start), int(stop)


def chunk_range(m: int, i: int, nchunks: int) -> tuple[int, int]:
    """``[start, stop)`` of chunk ``i`` of ``nchunks`` near-equal chunks of ``range(m)``
    (sizes differ by at most one; their concatenation is ``range(m)``).

    Examples
    --------
    >>> [chunk_range(10, i, 3) for i in range(3)]
    [(0, 3), (3, 6), (6, 10)]
    """
    if isinstance(nchunks, bool) or not isinstance(nchunks, (int, np.integer)) or nchunks < 1:
        raise ValueError(f"chunk_range: nchunks must be a positive int, got {nchunks!r}")
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < nchunks:
        raise ValueError(f"chunk_range: i must be an int in [0, {nchunks}), got {i!r}")
    return int(m) * int(i) // int(nchunks), int(m) * (int(i) + 1) // int(nchunks)


def grid_edges(rows: int, cols: int, *, xp=None):
    """The ``rows * (cols - 1) + (rows - 1) * cols`` lattice edges of a rows x cols grid
    (vertex ``r * cols + c``), each once, as ``(src, dst)`` with ``src < dst``."""
    xp = get_xp(xp)
    if rows < 1 or cols < 1:
        raise ValueError(f"grid: rows and cols must be >= 1, got {rows} x {cols}")
    n = rows * cols
    idt = xp.int32 if n - 1 <= _INT32_MAX else xp.int64
    v = xp.arange(n, dtype=idt).reshape(rows, cols)
    src = xp.concatenate([v[:, :-1].ravel(), v[:-1, :].ravel()])
    dst = xp.concatenate([v[:, 1:].ravel(), v[1:, :].ravel()])
    return src, dst


def random_permutation(n: int, *, seed: int = 0, stream: int = _STREAM_PERM, xp=None):
    """A seeded random permutation of ``range(n)`` (argsort of hashed keys; device-independent)."""
    xp = get_xp(xp)
    keys = hash_counter(xp, seed, stream, 0, n)
    return xp.argsort(keys, kind="stable") if not is_cupy(xp) else xp.argsort(keys)


# --------------------------------------------------------------------------------------------
# cleaning: drop self-loops and duplicates, symmetrize, weights, CSR


def clean_edges(src, dst, n: int, *, undirected: bool = True, weighted: bool = True,
                dtype=np.float32, seed: int = 0, xp=None):
    """Raw edge tuples cleaned into matrix entries ``(rows, cols, data)``, int64 indices
    sorted by (row, col): self-loops and duplicates removed, both directions of each edge when
    ``undirected``, GAP weights in [1, 255] (or all ones when not ``weighted``) as ``dtype``.

    An entry's weight is a hash of its (unordered, when ``undirected``) pair and ``seed``
    alone, so the entries of a graph cleaned in pieces (:func:`kronecker_chunk`), pooled and
    deduplicated, are those of the whole list cleaned at once, weights included.
    """
    xp = get_xp(xp)
    src = src.astype(xp.int64, copy=False)
    dst = dst.astype(xp.int64, copy=False)
    keep = src != dst
    src = src[keep]
    dst = dst[keep]
    del keep
    n64 = xp.int64(n)
    if undirected:
        lo = xp.minimum(src, dst)
        hi = xp.maximum(src, dst)
        del src, dst
        key = _sorted_unique(xp, lo * n64 + hi)  # each undirected edge once, sorted
        del lo, hi
        lo = key // n64
        hi = key - lo * n64
        del key
        both = xp.concatenate([lo * n64 + hi, hi * n64 + lo])
        del lo, hi
        both.sort()
        key = both
    else:
        key = _sorted_unique(xp, src * n64 + dst)
        del src, dst
    rows = key // n64
    cols = key - rows * n64
    nnz = int(key.size)
    if weighted:
        if undirected:
            canon = xp.minimum(rows, cols) * n64 + xp.maximum(rows, cols)
        else:
            canon = key
        h = hash_values(xp, seed, _STREAM_WEIGHT, canon)
        del canon
        w = (h % _u64(xp, WEIGHT_HIGH - WEIGHT_LOW + 1)).astype(xp.int64) + WEIGHT_LOW
        data = w.astype(dtype)
        del h, w
    else:
        data = xp.ones(nnz, dtype=dtype)
    return rows, cols, data


def edges_to_csr(src, dst, n: int, *, undirected: bool = True, weighted: bool = True,
                 dtype=np.float32, seed: int = 0, xp=None):
    """Clean raw edge tuples into a CSR matrix (:func:`clean_edges`: self-loops and
    duplicates removed, symmetrized when ``undirected``, GAP weights in [1, 255] or all ones,
    as ``dtype``), sorted indices, int32 indices when they fit."""
    xp = get_xp(xp)
    rows, cols, data = clean_edges(src, dst, n, undirected=undirected, weighted=weighted,
                                   dtype=dtype, seed=seed, xp=xp)
    del src, dst
    nnz = int(rows.size)
    idt = _index_dtype(n, nnz)
    counts = xp.bincount(rows, minlength=n) if nnz else xp.zeros(n, dtype=xp.int64)
    del rows
    indptr = xp.concatenate([xp.zeros(1, dtype=idt), xp.cumsum(counts).astype(idt)])
    indices = cols.astype(idt)
    return build_csr(indptr, indices, data, (n, n), xp=xp)


def build_csr(indptr, indices, data, shape, *, xp=None):
    """A canonical CSR matrix (sorted indices, no duplicates: the caller vouches) on xp's device."""
    xp = get_xp(xp)
    if is_cupy(xp):
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        A = cps.csr_matrix((xp.asarray(data), xp.asarray(indices), xp.asarray(indptr)),
                           shape=shape)
        try:
            A.has_canonical_format = True
        except Exception:
            pass
        return A
    import scipy.sparse as sp  # noqa: PLC0415  (lazy: scipy.sparse adds 0.1 s to python -m bench --list's 0.2 s)

    A = sp.csr_matrix((np.asarray(data), np.asarray(indices), np.asarray(indptr)), shape=shape)
    A.has_sorted_indices = True
    A.has_canonical_format = True
    return A


# --------------------------------------------------------------------------------------------
# the three generators


def kronecker(scale: int, edge_factor: int = EDGE_FACTOR, *, seed: int = 0,
              abc: tuple[float, float, float] = GRAPH500_ABC, undirected: bool = True,
              weighted: bool = True, dtype=np.float32, permute: bool = True, xp=None):
    """Graph500 Kronecker graph (R-MAT with A,B,C,D = 0.57,0.19,0.19,0.05), cleaned to CSR.

    ``n = 2**scale``; ``edge_factor * n`` edge tuples are drawn, so the cleaned graph has fewer
    stored entries than ``2 * edge_factor * n`` (duplicates and self-loops are frequent).

    Examples
    --------
    >>> A = kronecker(8, seed=1)
    >>> A.shape, (A != A.T).nnz
    ((256, 256), 0)
    """
    xp = get_xp(xp)
    src, dst = kronecker_edges(scale, edge_factor, seed=seed, abc=abc, permute=permute, xp=xp)
    return edges_to_csr(src, dst, 1 << scale, undirected=undirected, weighted=weighted,
                        dtype=dtype, seed=seed, xp=xp)


def urand(scale: int, edge_factor: int = EDGE_FACTOR, *, seed: int = 0, undirected: bool = True,
          weighted: bool = True, dtype=np.float32, xp=None):
    """GAP uniform random graph: ``2**scale`` vertices, ``edge_factor * 2**scale`` edge tuples
    with uniform endpoints, cleaned to CSR."""
    xp = get_xp(xp)
    src, dst = urand_edges(scale, edge_factor, seed=seed, xp=xp)
    return edges_to_csr(src, dst, 1 << scale, undirected=undirected, weighted=weighted,
                        dtype=dtype, seed=seed, xp=xp)


def _chunk_entries(rows, cols, data, n, xp):
    """A chunk's entries with int32 indices when they fit (half the bytes to cut and send)."""
    idt = xp.int32 if n - 1 <= _INT32_MAX else xp.int64
    return rows.astype(idt), cols.astype(idt), data


def kronecker_chunk(i: int, nchunks: int, scale: int, edge_factor: int = EDGE_FACTOR, *,
                    seed: int = 0, abc: tuple[float, float, float] = GRAPH500_ABC,
                    undirected: bool = True, weighted: bool = True, dtype=np.float32,
                    permute: bool = True, xp=None):
    """Chunk ``i`` of ``nchunks`` of :func:`kronecker`'s graph: ``(rows, cols, data)``.

    The edge tuples :func:`chunk_range` ``(edge_factor * 2**scale, i, nchunks)`` alone are
    drawn (:func:`kronecker_edges` with ``start``, ``stop``) and cleaned (:func:`clean_edges`).
    The chunks' entries, pooled with duplicates merged (an edge may be drawn in two chunks,
    with the same weight), are exactly those of ``kronecker(scale, ...)`` with the same
    arguments: what a distributed build needs so that each worker draws its share of the
    edges only (``semiring.dist.DistMatrix.from_edge_function``). Memory: the chunk's
    ``m / nchunks`` tuples and the ``2**scale`` permutation (``m = edge_factor * 2**scale``).

    Examples
    --------
    >>> parts = [kronecker_chunk(i, 3, 8, seed=1) for i in range(3)]
    >>> r, c, w = (np.concatenate(x) for x in zip(*parts))
    >>> key, first = np.unique(r.astype(np.int64) * 256 + c, return_index=True)
    >>> A = kronecker(8, seed=1).tocoo()
    >>> np.array_equal(key, A.row * 256 + A.col), np.array_equal(w[first], A.data)
    (True, True)
    """
    xp = get_xp(xp)
    n = 1 << scale
    start, stop = chunk_range(int(edge_factor) * n, i, nchunks)
    src, dst = kronecker_edges(scale, edge_factor, seed=seed, abc=abc, permute=permute, xp=xp,
                               start=start, stop=stop)
    return _chunk_entries(*clean_edges(src, dst, n, undirected=undirected, weighted=weighted,
                                       dtype=dtype, seed=seed, xp=xp), n, xp)


def urand_chunk(i: int, nchunks: int, scale: int, edge_factor: int = EDGE_FACTOR, *,
                seed: int = 0, undirected: bool = True, weighted: bool = True,
                dtype=np.float32, xp=None):
    """Chunk ``i`` of ``nchunks`` of :func:`urand`'s graph (as :func:`kronecker_chunk`)."""
    xp = get_xp(xp)
    n = 1 << scale
    start, stop = chunk_range(int(edge_factor) * n, i, nchunks)
    src, dst = urand_edges(scale, edge_factor, seed=seed, xp=xp, start=start, stop=stop)
    return _chunk_entries(*clean_edges(src, dst, n, undirected=undirected, weighted=weighted,
                                       dtype=dtype, seed=seed, xp=xp), n, xp)


def grid2d(rows: int, cols: int | None = None, *, seed: int = 0, undirected: bool = True,
           weighted: bool = True, dtype=np.float32, xp=None):
    """2-D 4-neighbour grid (a high-diameter, road-like graph) with GAP weights.

    Undirected: every vertex has degree 2 (corners), 3 (borders) or 4 (inside) and the matrix
    has ``2 * (rows * (cols - 1) + (rows - 1) * cols)`` entries. Directed (``undirected=False``):
    only the right and down edges.
    """
    xp = get_xp(xp)
    cols = rows if cols is None else cols
    src, dst = grid_edges(rows, cols, xp=xp)
    return edges_to_csr(src, dst, rows * cols, undirected=undirected, weighted=weighted,
                        dtype=dtype, seed=seed, xp=xp)


#: Random geometric graph: the default average degree (``rgg-S``; ``rgg-S-dD`` sets it).
RGG_DEGREE = 8


def rgg_points(scale: int, degree: int = RGG_DEGREE, *, seed: int = 0, xp=None):
    """The ``2**scale`` points ``(x, y)`` of :func:`rgg_edges`, in vertex order (sorted by
    their grid cell of side ``r``, row-major; uniform in [0, 1)² from the seeded hash)."""
    xp = get_xp(xp)
    n = 1 << scale
    g = max(1, int(np.floor(1.0 / float(np.sqrt(degree / (np.pi * n))))))
    unit = float(2.0 ** -53)
    x = (hash_counter(xp, seed, _STREAM_RGG, 0, n) >> _u64(xp, 11)).astype(xp.float64) * unit
    y = (hash_counter(xp, seed, _STREAM_RGG + 1, 0, n) >> _u64(xp, 11)).astype(xp.float64) * unit
    cell = xp.minimum((y * g).astype(xp.int64), g - 1) * g + xp.minimum((x * g).astype(xp.int64),
                                                                        g - 1)
    order = xp.argsort(cell, kind="stable")
    return x[order], y[order]


def rgg_edges(scale: int, degree: int = RGG_DEGREE, *, seed: int = 0, xp=None):
    """The edges of a random geometric graph: ``n = 2**scale`` points uniform in the unit
    square, an edge between every two points closer than ``r = sqrt(degree / (pi n))`` (so
    about ``degree`` neighbours a point), each pair once as ``(lo, hi, distance / r)``.

    Vertices are numbered in the order of the grid cells of side ``r`` (row-major), as road
    networks' files number nearby places nearby. Vectorized: the points are sorted into the
    cells, and each point is compared with the points of its own cell (higher index only) and
    of four of its eight neighbour cells (the other four see it from their side).
    """
    xp = get_xp(xp)
    n = 1 << scale
    r = float(np.sqrt(degree / (np.pi * n)))
    g = max(1, int(np.floor(1.0 / r)))  # cells a side, each at least r wide
    x, y = rgg_points(scale, degree, seed=seed, xp=xp)
    cx = xp.minimum((x * g).astype(xp.int64), g - 1)
    cy = xp.minimum((y * g).astype(xp.int64), g - 1)
    cell = cy * g + cx
    start = xp.searchsorted(cell, xp.arange(g * g + 1, dtype=xp.int64))
    i_all = xp.arange(n, dtype=xp.int64)
    lo_parts, hi_parts, d_parts = [], [], []
    for dx, dy in ((0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
        nx_, ny_ = cx + dx, cy + dy
        ok = (nx_ >= 0) & (nx_ < g) & (ny_ < g)
        i = i_all[ok]
        c2 = (ny_ * g + nx_)[ok]
        s, e = start[c2], start[c2 + 1]
        if dx == 0 and dy == 0:
            s = i + 1  # the same cell: each pair once
        cnt = xp.maximum(e - s, 0)
        total = int(cnt.sum())
        if total == 0:
            continue
        first = xp.cumsum(cnt) - cnt
        src = xp.repeat(i, cnt)
        dst = xp.repeat(s - first, cnt) + xp.arange(total, dtype=xp.int64)
        d = xp.hypot(x[src] - x[dst], y[src] - y[dst]) / r
        near = d < 1.0
        lo_parts.append(src[near])
        hi_parts.append(dst[near])
        d_parts.append(d[near])
        del src, dst, d, near
    if not lo_parts:
        z = xp.zeros(0, dtype=xp.int64)
        return z, z.copy(), xp.zeros(0)
    return xp.concatenate(lo_parts), xp.concatenate(hi_parts), xp.concatenate(d_parts)


def rgg(scale: int, degree: int = RGG_DEGREE, *, seed: int = 0, undirected: bool = True,
        weighted: bool = True, dtype=np.float32, xp=None):
    """Random geometric graph (:func:`rgg_edges`): a high-diameter, road-like mesh whose
    weights are the Euclidean lengths in units of ``r / 255``, rounded up to integers in
    [1, 255] (GAP's range; integers keep float32 path sums exact, so every backend and SciPy
    agree). ``undirected=False`` keeps each edge from its lower to its higher vertex only.
    """
    xp = get_xp(xp)
    n = 1 << scale
    lo, hi, d = rgg_edges(scale, degree, seed=seed, xp=xp)
    w = xp.clip(xp.ceil(d * WEIGHT_HIGH), WEIGHT_LOW, WEIGHT_HIGH)
    del d
    if undirected:
        lo, hi, w = xp.concatenate([lo, hi]), xp.concatenate([hi, lo]), xp.concatenate([w, w])
    key = lo * xp.int64(n) + hi
    del lo, hi
    order = xp.argsort(key)
    key, w = key[order], w[order]
    del order
    rows = key // n
    cols = key - rows * n
    nnz = int(key.size)
    idt = _index_dtype(n, nnz)
    counts = xp.bincount(rows, minlength=n) if nnz else xp.zeros(n, dtype=xp.int64)
    indptr = xp.concatenate([xp.zeros(1, dtype=idt), xp.cumsum(counts).astype(idt)])
    data = w.astype(dtype) if weighted else xp.ones(nnz, dtype=dtype)
    return build_csr(indptr, cols.astype(idt), data, (n, n), xp=xp)


def load_matrix_market(path, *, xp=None, dtype=None, undirected: bool = False,
                       drop_self_loops: bool = False):
    """Read a MatrixMarket file (``scipy.io.mmread``) into a canonical CSR matrix.

    Duplicates are summed (SciPy's rule); indices are sorted and int32 when they fit; values are
    cast to ``dtype`` when given. ``undirected=True`` symmetrizes the pattern (keeping the
    smaller of the two weights of an edge stored both ways); ``drop_self_loops`` removes the
    diagonal.
    """
    import scipy.io  # noqa: PLC0415  (lazy: scipy.io adds 0.16 s to python -m bench --list's 0.2 s)
    import scipy.sparse as sp  # noqa: PLC0415  (lazy: scipy.sparse adds 0.1 s to python -m bench --list's 0.2 s)

    try:  # SciPy >= 1.15: ask for a sparse array (the default changes in 1.20)
        M = scipy.io.mmread(str(path), spmatrix=False)
    except TypeError:
        M = scipy.io.mmread(str(path))
    A = sp.csr_matrix(M)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"load_matrix_market: {path} is {A.shape[0]} x {A.shape[1]}, not square")
    A.sum_duplicates()
    if dtype is not None:
        A = A.astype(dtype)
    n = A.shape[0]
    if drop_self_loops or undirected:
        coo = A.tocoo()
        r, c, v = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data
        if drop_self_loops:
            keep = r != c
            r, c, v = r[keep], c[keep], v[keep]
        if undirected:
            r, c, v = np.concatenate([r, c]), np.concatenate([c, r]), np.concatenate([v, v])
            key = r * n + c
            order = np.argsort(key, kind="stable")
            key, v = key[order], v[order]
            starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if key.size else key
            v = np.minimum.reduceat(v, starts) if key.size else v
            key = key[starts] if key.size else key
            r, c = key // n, key % n
        A = sp.csr_matrix((v, (r, c)), shape=A.shape)
    A.sum_duplicates()
    A.sort_indices()
    n, nnz = A.shape[0], A.nnz
    idt = _index_dtype(n, nnz)
    return build_csr(A.indptr.astype(idt), A.indices.astype(idt), A.data, A.shape, xp=xp)


# --------------------------------------------------------------------------------------------
# vectors and frontiers


def random_frontier(n: int, fraction: float, *, seed: int = 0, xp=None, dtype=np.float32,
                    low: int = 0, high: int = 1000):
    """A seeded random sparse frontier: ``max(1, round(fraction * n))`` distinct vertices.

    Returns ``(indices, values)``: sorted int64 vertex ids and integer-valued ``dtype`` values
    uniform in ``[low, high)`` (integers keep min-plus sums exact in float32).
    """
    xp = get_xp(xp)
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"random_frontier: fraction must be in (0, 1], got {fraction}")
    k = max(1, min(n, int(round(fraction * n))))
    perm = random_permutation(n, seed=seed, stream=_STREAM_FRONTIER, xp=xp)
    idx = xp.sort(perm[:k]).astype(xp.int64)
    vals = random_values(k, seed=seed, stream=_STREAM_FRONTIER + 1, xp=xp, dtype=dtype,
                         low=low, high=high)
    return idx, vals


def random_values(size: int, *, seed: int = 0, stream: int = _STREAM_VECTOR, xp=None,
                  dtype=np.float32, low: int = 0, high: int = 1000):
    """``size`` integer-valued ``dtype`` values uniform in ``[low, high)``, seeded."""
    xp = get_xp(xp)
    h = hash_counter(xp, seed, stream, 0, size)
    return ((h % _u64(xp, high - low)).astype(xp.int64) + low).astype(dtype)


def random_dense_vector(n: int, *, seed: int = 0, xp=None, dtype=np.float32, low: int = 0,
                        high: int = 1000):
    """A dense vector (every entry present) of integer-valued random ``dtype`` values."""
    return random_values(n, seed=seed, stream=_STREAM_VECTOR, xp=xp, dtype=dtype, low=low,
                         high=high)


# --------------------------------------------------------------------------------------------
# graph specs and the cache

#: Graph kinds defined in other modules (``bench/peers_gap.py``: GAP's own generators, kinds
#: ``gap-kron`` / ``gap-urand``): parsers ``(text, seed) -> GraphSpec | None`` tried by
#: :func:`parse_graph_spec`, and ``kind -> generate(spec, xp=)`` used by :func:`generate`.
SPEC_PARSERS: list = []
KIND_GENERATORS: dict = {}

_SPEC_RE = {
    "kron": re.compile(r"^(?:kron|kronecker)-(\d+)(?:-ef(\d+))?$"),
    "urand": re.compile(r"^urand-(\d+)(?:-ef(\d+))?$"),
    "grid": re.compile(r"^grid-(\d+)(?:x(\d+))?$"),
    "rgg": re.compile(r"^rgg-(\d+)(?:-d(\d+))?$"),
}


@dataclass(frozen=True)
class GraphSpec:
    """What graph to make: ``kind`` in {kron, urand, grid, mtx} and its parameters.

    ``label`` is the short name used on the command line and in tables: ``kron-20``,
    ``urand-18``, ``grid-1024x1024``, ``mtx:path``.
    """

    kind: str
    scale: int = 0  # kron/urand: log2(n)
    edge_factor: int = EDGE_FACTOR
    rows: int = 0  # grid
    cols: int = 0
    path: str = ""  # mtx
    seed: int = 0
    undirected: bool = True
    weighted: bool = True
    dtype: str = "float32"

    @property
    def label(self) -> str:
        if self.kind in ("kron", "urand"):
            ef = "" if self.edge_factor == EDGE_FACTOR else f"-ef{self.edge_factor}"
            return f"{self.kind}-{self.scale}{ef}"
        if self.kind in KIND_GENERATORS:  # e.g. gap-kron-22 (-kK: GAP's average degree)
            return f"{self.kind}-{self.scale}" + ("" if self.edge_factor == EDGE_FACTOR
                                                  else f"-k{self.edge_factor}")
        if self.kind == "grid":
            return f"grid-{self.rows}x{self.cols}"
        if self.kind == "rgg":
            return f"rgg-{self.scale}" + ("" if self.edge_factor == RGG_DEGREE
                                          else f"-d{self.edge_factor}")
        return f"mtx:{self.path}"

    def params(self) -> dict:
        """Generator parameters, as stamped on every result record."""
        d: dict[str, Any] = {"kind": self.kind, "label": self.label, "seed": self.seed,
                             "undirected": self.undirected, "weighted": self.weighted,
                             "dtype": self.dtype, "generator_version": GENERATOR_VERSION}
        if self.kind == "kron":
            d.update(scale=self.scale, edge_factor=self.edge_factor,
                     abc=list(GRAPH500_ABC), permuted=True)
        elif self.kind == "urand" or self.kind in KIND_GENERATORS:
            d.update(scale=self.scale, edge_factor=self.edge_factor)
        elif self.kind == "grid":
            d.update(rows=self.rows, cols=self.cols)
        elif self.kind == "rgg":
            d.update(scale=self.scale, degree=self.edge_factor)
        else:
            d.update(path=self.path)
        if self.weighted and self.kind == "rgg":
            d["weights"] = (f"Euclidean length in units of r/{WEIGHT_HIGH}, rounded up, "
                            f"in [{WEIGHT_LOW}, {WEIGHT_HIGH}]")
        elif self.weighted and self.kind != "mtx":
            d["weights"] = f"integers uniform in [{WEIGHT_LOW}, {WEIGHT_HIGH}]"
        return d

    def cache_key(self) -> str | None:
        if self.kind == "mtx" or self.kind in KIND_GENERATORS:  # files of their own
            return None
        p = self.params()
        p.pop("label")
        text = ",".join(f"{k}={p[k]}" for k in sorted(p))
        digest = hashlib.sha1(text.encode()).hexdigest()[:12]
        return f"{self.label}-s{self.seed}-{digest}"

    def with_seed(self, seed: int) -> "GraphSpec":
        return replace(self, seed=seed)


def parse_graph_spec(text: str, *, seed: int = 0) -> GraphSpec:
    """Parse ``kron-20``, ``kronecker-20-ef8``, ``urand-18``, ``grid-512x1024``, ``grid-64``
    or ``mtx:path/to/file.mtx`` into a :class:`GraphSpec`."""
    t = text.strip()
    if t.startswith("mtx:"):
        return GraphSpec(kind="mtx", path=t[4:], seed=seed)
    m = _SPEC_RE["kron"].match(t)
    if m:
        return GraphSpec(kind="kron", scale=int(m.group(1)),
                         edge_factor=int(m.group(2) or EDGE_FACTOR), seed=seed)
    m = _SPEC_RE["urand"].match(t)
    if m:
        return GraphSpec(kind="urand", scale=int(m.group(1)),
                         edge_factor=int(m.group(2) or EDGE_FACTOR), seed=seed)
    m = _SPEC_RE["grid"].match(t)
    if m:
        r = int(m.group(1))
        return GraphSpec(kind="grid", rows=r, cols=int(m.group(2) or r), seed=seed)
    m = _SPEC_RE["rgg"].match(t)
    if m:
        return GraphSpec(kind="rgg", scale=int(m.group(1)),
                         edge_factor=int(m.group(2) or RGG_DEGREE), seed=seed)
    for parse in SPEC_PARSERS:
        spec = parse(t, seed)
        if spec is not None:
            return spec
    raise ValueError(f"graph spec {text!r}: expected kron-S[-efE], urand-S[-efE], grid-RxC, "
                     f"rgg-S[-dD] or mtx:PATH")


def generate(spec: GraphSpec, *, xp=None):
    """Generate the graph of ``spec`` on ``xp`` (no cache)."""
    xp = get_xp(xp)
    dtype = np.dtype(spec.dtype)
    kw = dict(seed=spec.seed, undirected=spec.undirected, weighted=spec.weighted, dtype=dtype,
              xp=xp)
    if spec.kind == "kron":
        return kronecker(spec.scale, spec.edge_factor, **kw)
    if spec.kind == "urand":
        return urand(spec.scale, spec.edge_factor, **kw)
    if spec.kind == "grid":
        return grid2d(spec.rows, spec.cols, **kw)
    if spec.kind == "rgg":
        return rgg(spec.scale, spec.edge_factor, **kw)
    if spec.kind in KIND_GENERATORS:
        return KIND_GENERATORS[spec.kind](spec, xp=xp)
    if spec.kind == "mtx":
        return load_matrix_market(spec.path, xp=xp, dtype=dtype, undirected=spec.undirected,
                                  drop_self_loops=True)
    raise ValueError(f"unknown graph kind {spec.kind!r}")


#: Graph kinds :func:`graph_chunk` makes in chunks (each chunk draws only its share of the
#: edge tuples; the others are made whole: ``DistMatrix.from_function``).
CHUNKED_KINDS = ("kron", "urand")


def graph_chunk(spec: GraphSpec, i: int, nchunks: int, *, xp=None):
    """Chunk ``i`` of ``nchunks`` of the graph of ``spec`` (:data:`CHUNKED_KINDS` only), as
    ``(rows, cols, data)``: :func:`kronecker_chunk` or :func:`urand_chunk` with the spec's
    parameters. Pooled with duplicates merged, the chunks are :func:`generate`'s graph."""
    if spec.kind not in CHUNKED_KINDS:
        raise ValueError(f"graph_chunk: spec.kind must be one of {CHUNKED_KINDS}, got "
                         f"{spec.kind!r}")
    kw = dict(seed=spec.seed, undirected=spec.undirected, weighted=spec.weighted,
              dtype=np.dtype(spec.dtype), xp=xp)
    make = kronecker_chunk if spec.kind == "kron" else urand_chunk
    return make(i, nchunks, spec.scale, spec.edge_factor, **kw)


@dataclass
class CacheInfo:
    hit: bool = False
    path: str | None = None
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)


def make_graph(spec: GraphSpec, *, xp=None, cache_dir: str | os.PathLike | None = DEFAULT_CACHE_DIR,
               info: CacheInfo | None = None):
    """The graph of ``spec`` on ``xp``'s device, from the on-disk cache when there.

    The cache holds one ``.npz`` (indptr, indices, data, shape) per spec (generator, parameters,
    seed, :data:`GENERATOR_VERSION`); since generation is device-independent a graph cached by a
    GPU run serves CPU runs and vice versa. ``cache_dir=None`` disables the cache.
    """
    xp = get_xp(xp)
    info = info if info is not None else CacheInfo()
    key = spec.cache_key()
    t0 = time.perf_counter()
    path = None
    if cache_dir is not None and key is not None:
        path = Path(cache_dir) / f"{key}.npz"
        info.path = str(path)
        if path.exists():
            try:
                with np.load(path) as z:
                    indptr, indices, data = z["indptr"], z["indices"], z["data"]
                    shape = tuple(int(s) for s in z["shape"])
                A = build_csr(xp.asarray(indptr), xp.asarray(indices), xp.asarray(data), shape,
                              xp=xp)
                info.hit = True
                info.seconds = time.perf_counter() - t0
                return A
            except Exception:  # a truncated or stale file: regenerate
                pass
    A = generate(spec, xp=xp)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, indptr=to_numpy(A.indptr), indices=to_numpy(A.indices),
                     data=to_numpy(A.data), shape=np.asarray(A.shape, dtype=np.int64))
        os.replace(tmp, path)
    info.seconds = time.perf_counter() - t0
    return A


# --------------------------------------------------------------------------------------------
# statistics


def degree_stats(A) -> dict:
    """Degree statistics of a CSR matrix (row degrees = out-degrees)."""
    indptr = to_numpy(A.indptr).astype(np.int64)
    deg = np.diff(indptr)
    n = int(A.shape[0])
    mean = float(deg.mean()) if n else 0.0
    return {
        "n": n,
        "nnz": int(indptr[-1]),
        "max_degree": int(deg.max()) if n else 0,
        "mean_degree": mean,
        "isolated_vertices": int((deg == 0).sum()),
        "skew": (float(deg.max()) / mean) if mean > 0 else 0.0,
    }
