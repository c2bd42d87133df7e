"""All-pairs shortest paths as dense min-plus products (and batched SSSP for sparse graphs).

- ``"squaring"``: D ← D min.+ D, at most ⌈log₂ n⌉ products, stopping as soon as a
  product leaves D unchanged (seed 001; Tran's min-plus APSP in seed 004). D starts as the
  edge weights with a zero (or the negative self-loop) diagonal, so every product can only
  lower entries and the k-th product holds the shortest walks of up to 2ᵏ edges.
- ``"floyd_warshall"``: blocked Floyd–Warshall (Venkataraman et al. 2003; Katz & Kider 2008;
  seed 004), three phases per round of ``TILE`` pivot vertices k:

  1. the diagonal tile D_kk closed over its own vertices (repeated squaring of the tile:
     ⌈log₂ b⌉ small products, the same closure as b steps of Floyd–Warshall; a tile larger
     than ``CLOSURE_SUB`` by blocked Floyd–Warshall over sub-tiles of that size);
  2. its row panel D_k* ← D_kk min.+ D_k* and its column panel D_*k ← D_*k min.+ D_kk;
  3. every tile outside that cross (``FW_SKIP_CROSS``: phase 2 left the cross final),
     D ← min(D, D_*k min.+ D_k*): one min-plus GEMM of inner size b.

  Any n: the last round takes the remaining ``n mod TILE`` vertices. Phases 2 and 3 are the
  dense semiring GEMM (``semiring.gemm``) on copies of the panels, phase 3 accumulating
  into D in place. With ``FW_LOOKAHEAD`` (the lookahead of blocked dense
  factorizations such as LU) phases 1–2 of round k + 1 overlap phase 3 of round k on a
  second CUDA stream: phase 3 relaxes round k + 1's pivot rows and columns first; the rest
  of phase 3 is split by rows over ``FW_REST_LANES`` streams (float32 from
  ``FW_LANES_MIN_N`` vertices), so that one launch's tail overlaps another's.
- ``"batched_sssp"``: for sparse graphs, Bellman–Ford from many sources at once: the distance
  matrix D (n × s, one column per source) relaxed by SpMM, D = min(D, Aᵀ min.+ D), until a
  round changes nothing (at most n rounds; a change in round n proves a negative cycle).
- ``"auto"``: ``batched_sssp`` for a sparse Matrix with at most ``AUTO_SPARSE_DENSITY · n²``
  entries and more than ``AUTO_MIN_N`` vertices, else ``floyd_warshall`` (n³ relaxations
  against ⌈log₂ n⌉ · n³ for squaring; batched SSSP costs rounds · n · nnz, rounds being the
  largest number of edges on a shortest path, a few dozen on random sparse graphs).

Value types: float32, float64, int32 and int64 distances (bool, i.e. unweighted, counts
edges in float64). "Infinity" is ``inf`` for floats and the type's maximum for integers,
in the input (a dense array) as in the output. Integer sums never wrap: the products use the
``min_plus_sat`` semiring whose multiply is a saturating add (max + w = max; a sum beyond the
type's range clamps, which only a negative cycle can cause), and the relaxation runs in a type
where every real distance sum fits (``n · max|w| ≤ max / 4``): int32 relaxes in int64 when it
does not, and then any distance outside int32 raises :class:`~algorithms.DistanceOverflow`;
int64 beyond the bound raises it up front (use float64). A sparse float32 graph whose
distances could pass float32's range (``(n − 1) · max|w|``) relaxes in float64 and raises it
for a distance beyond that range, which float32 would round to inf ("unreached"); a dense
float32 array's bound costs one pass over it (a row strip at a time on the host, one kernel
of ``semiring.dense`` on the GPU).

Larger than device memory: when D (n² distances) and the in-memory workspace do not fit in
the free device memory (times ``MEMORY_SAFETY``), or in ``memory_budget=`` bytes when given,
``"floyd_warshall"`` and ``"auto"`` run a streamed blocked Floyd–Warshall
(``algorithms._apsp_stream``): D stays in (pinned) host memory and row strips pass through
the device on CUDA streams, copies overlapped with the products; the result is then a NumPy
array in host memory.

The products run the tuned min-plus kernel of ``semiring/kernels/minplus_gemm.cu`` on the
GPU; phase 3 accumulates into D inside it (``semiring.gemm_accumulate``). int32 work
with ``n · max|w| ≤ 2^28`` (``sr.dense.SAT_BOUND``) takes its saturating DPX path (infinity
loaded as 2^30 − 1, which no sum of real distances reaches), larger int32 bounds the generic
saturating kernel.

Packed 16-bit Floyd–Warshall (``FW_U16``): integer weights (int32 or int64, or a bool
adjacency matrix: hop counts, returned in float64), none negative,
with ``(n − 1) · max w ≤ U16_MAX_DISTANCE`` (32766), run on uint16 distances whose infinity
is 0x7FFF (``semiring.dense.gemm_u16``: two adjacent columns per 32-bit word, two
relaxations per sm_90 ``__viaddmin_u16x2``). Every value Floyd–Warshall holds is the length
of a shortest path over some vertex subset, at most (n − 1) · max w, so nothing finite
reaches 0x7FFF and the result is exact; it is returned in the caller's type. Negative
weights and larger bounds take the int32 path above.
"""

from __future__ import annotations

import contextlib
import math
import threading

import numpy as np

import semiring as sr
from semiring.errors import check_flags
from semiring import (DimensionMismatch, DomainMismatch, InvalidIndex, InvalidValue, Matrix,
                      OutOfMemory, as_matrix)
from semiring import gemm as _gemm
from semiring import gemm_accumulate as _gemm_accumulate
from semiring import spmm as _spmm


from .sssp import (F32_MAX, DistanceOverflow, _matrix_facts, _negative_cycle, _semiring_of, _t_max,
                   _weight_type)

#: Pivot vertices per blocked Floyd–Warshall round on the GPU (the inner size of the phase-3
#: GEMM). Phase 1 closes the pivot block (by sub-tiles of CLOSURE_SUB), phase 3 wants a deep
#: k; tests shrink it. Measured on an H200 at n = 16384 (bench/probes/probe_fw_variants.py,
#: session 13, float32, % of the fminf peak in the same run): own cross skipped, tile 256
#: 82.4 %, 512 83.3 %, 1024 83.3 %; with the next cross on the side (FW_CROSS_SIDE) 512
#: 84.2 %, 1024 84.0 % (session 8's schedule, tile 256: 79.9 %); with FW_FIRST_TILE 256,
#: 512 and 1024 84.5 %. At n = 8192 tile 512 loses (64.2 % against 75.8 % for 256): its
#: rounds are too short to hide the next pivot's chain, so below TILE_MIN_N vertices the
#: tile is TILE_SMALL.
TILE = 512
TILE_MIN_N = 16384
TILE_SMALL = 256
#: The same for int32 work (the DPX kernel): a deeper phase 3 pays more there. With
#: lookahead at n = 16384 on an H100 (bench/probes/probe_fw_tile.py), int32 tile 256 / 384 / 512 gave
#: 11.60 / 11.94 / 12.02 T relax/s (71 / 73 / 73 % of the DPX peak), float32 10.76 / 10.68 /
#: 10.63 T/s (77 / 76 / 76 % of the fminf peak).
TILE_INT = 512
#: The same on the CPU backend, where phase 1's small products cost as much per relaxation
#: as phase 3's (measured: 64 is 3x faster than 256 at n = 512).
TILE_CPU = 64
#: Floyd–Warshall lookahead on the GPU: phases 1–2 of round k + 1 (⌈log₂ TILE⌉ sequential
#: TILE³ squarings on a few blocks, two thin panel products and their copies: most SMs idle)
#: run on a second stream while phase 3 of round k relaxes the rest of D (``_floyd_warshall``).
#: Without it Floyd–Warshall reached 73 % (float32) / 67 % (int32 DPX) of the measured peak
#: at n = 16384 on an H100 against the min-plus GEMM's 90 / 92 % (bench/results/perf-history.md,
#: issue #7's target is ≥ 70 %); bench/probes/probe_fw_phases.py times it off and on. The CPU runs
#: the same steps in order.
FW_LOOKAHEAD = True

#: Packed 16-bit Floyd–Warshall (``semiring.dense.gemm_u16``: two relaxations per sm_90 DPX
#: instruction, ``__viaddmin_u16x2``): taken automatically for integer weights, none negative,
#: when every finite distance provably stays below the packed infinity, i.e.
#: ``(n − 1) · max weight ≤ U16_MAX_DISTANCE`` (a shortest path has at most n − 1 edges; every
#: value Floyd–Warshall holds is a shortest path over some vertex subset, so no larger).
#: Exact: the result is the same as the int32 path's, returned in the caller's type. Negative
#: weights keep the int32 path (the packed lanes are unsigned).
FW_U16 = True
U16_MAX_DISTANCE = sr.dense.U16_INF - 1
#: Pivot vertices per round on the packed path (even: whole 32-bit words; a multiple of 256
#: puts the lookahead's bands on the kernel's tile boundaries); below TILE_MIN_N vertices
#: TILE_SMALL, as for TILE. H200, session 13 (loop alone, % of the __viaddmin_u16x2 peak):
#: n = 16384 tile 512 79.7 %, 1024 75.4 %; n = 8192 256 53.0 %, 512 45.8 %.
TILE_U16 = 512
#: The packed path's D is padded to a multiple of this many vertices (isolated ones): rows
#: of whole 16-byte vectors of words.
U16_PAD = 8
#: With lookahead, the first pivot block's size when smaller than the tile (0: the tile):
#: round 0's phases 1–2 run alone, nothing to hide them behind. H200, n = 16384, float32:
#: tile 512 84.5 % of the peak against 84.0 %, tile 1024 84.5 against 84.3 %.
FW_FIRST_TILE = 256
#: The lookahead's relaxation of the next round's cross on the side stream, ahead of the
#: pivot work there, instead of on the main stream before the rest: it then runs beside the
#: rest of the round (whose blocks fill the cross launches' tails) rather than alone. H200,
#: n = 16384, float32 (see TILE): tile 512 84.2 % of the peak against 83.3 % off.
FW_CROSS_SIDE = True
#: One launch for phase 3 outside the next round's cross (``skip_rows`` / ``skip_cols`` of
#: ``gemm_accumulate``) instead of four rectangles: fewer launch tails per round.
FW_ONE_LAUNCH = True
#: Phase 3 leaves out the round's own cross, final after phase 2 (``_floyd_warshall``):
#: 2 · TILE / n of the relaxations saved. H200, n = 16384, float32, tile 256: 82.4 % of the
#: fminf peak against 79.9 % (session 8's schedule).
FW_SKIP_CROSS = True
#: Phase 1 closes a pivot tile larger than this by blocked Floyd–Warshall over sub-tiles of
#: this size instead of ⌈log₂ b⌉ squarings (0: always squaring): b³ relaxations instead of
#: b³ · ⌈log₂ b⌉, what lets a 1024 tile pay (H200, n = 16384, float32, tile 512: 83.3 %
#: either way; 1024 by sub-tiles 83.3 %).
CLOSURE_SUB = 256

#: With lookahead on the GPU, phase 3's rest of a round (outside both crosses) is split by
#: rows over this many streams ("rest lanes"), each lane's part one launch, for work types
#: in FW_LANES_TYPES from FW_LANES_MIN_N vertices (else 1: the rest as one launch on the
#: caller's stream): the launches of different lanes overlap, so one launch's last, partial
#: wave and the next one's first are filled by the other lane's blocks. H200, session 14
#: (bench/probes/probe_fw_variants.py, same run): float32 at n = 16384 85.2 % of the fminf
#: peak against 84.7 % with one lane; at n = 8192 (tile 256) 77.1 % against 77.8 %, so not
#: below 16384 vertices. The packed path's two lanes ran at 25.80 against 25.46 T relax/s,
#: but with the round-0 panels from the main stream's pool arena (since moved to the side,
#: see _floyd_warshall) and wrong distances; after that fix, on the merged tree, 25.53
#: against 25.29 with one lane and equal distances (bench/results/session14/fw_final_h200.log):
#: one run only, so one lane there until measured again.
FW_REST_LANES = 2
FW_LANES_TYPES = frozenset({np.dtype(np.float32)})
FW_LANES_MIN_N = 16384
#: The rest lanes' row boundaries fall on multiples of this: the kernel's row tile (BM =
#: 128) divides it, so a part's skipped band still starts on a tile boundary (one launch).
FW_LANE_ALIGN = 256

#: method="auto": batched SSSP when a Matrix has at most this fraction of n² entries ...
AUTO_SPARSE_DENSITY = 1 / 256
#: ... and more than this many vertices (below, Floyd–Warshall is a handful of launches).
AUTO_MIN_N = 256

#: Sources relaxed together by batched SSSP (the width s of the SpMM's dense operand).
SSSP_BATCH = 4096

#: Show a progress bar (tqdm) when a run is expected to take longer than this (seconds).
PROGRESS_SECONDS = 2.0
#: Rough relaxation rates (per second) for that estimate: GPU min-plus GEMM (4- and 8-byte
#: types), GPU SpMM, and the CPU backend's NumPy products.
RATE_GPU_GEMM = {4: 5e12, 8: 1e12}
RATE_GPU_SPMM = 2e10
RATE_CPU = 1e9

#: Fraction of the free device memory (CUDA's free bytes plus CuPy's pool's free blocks, within
#: the pool's limit when one is set) a run plans to use: the rest absorbs the allocator's rounding, fragmentation and the
#: kernels' own needs. Beyond it, Floyd–Warshall streams D through the device.
MEMORY_SAFETY = 0.8

METHODS = ("auto", "squaring", "floyd_warshall", "batched_sssp")

#: The value types distances are computed in (bool input counts edges in float64).
VALUE_TYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.int32),
               np.dtype(np.int64))


# ------------------------------------------------------------------------------ the semiring

#: x + y, saturating for integers (``sr.binary.plus_sat``'s NumPy function; the type's maximum
#: is infinity, a sum outside the range clamps instead of wrapping).
_plus_sat_numpy = sr.binary.plus_sat.numpy

#: min-plus with a saturating integer add: the semiring of integer APSP (``sr.min_plus_sat``).
min_plus_sat = sr.min_plus_sat


# ------------------------------------------------------------------------------ input

def _prepare(A, op: str, check_nan: bool = True):
    """(graph, n, device, out_type, weight bounds (lo, hi)); graph is a Matrix or a dense
    array (square, supported type, no NaN; with ``check_nan=False`` a float array's NaN check
    is the caller's: :func:`_refuse_nan`, or :func:`_dense_of` with ``nan_op``)."""
    if isinstance(A, np.ndarray) or sr.is_gpu_array(A):
        dev = sr.device_of(A)
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise DimensionMismatch(f"{op}: A must be a square 2-D array, got shape {A.shape}")
        out_type = _weight_type(A.dtype)
        if out_type not in VALUE_TYPES:
            raise DomainMismatch(f"{op}: A.dtype must be one of float32, float64, int32, int64 "
                                 f"or bool, got {A.dtype}")
        xp = sr.array_module(dev)
        if A.dtype == np.bool_:  # an adjacency matrix: True is an edge of weight 1
            return xp.where(A, 1.0, xp.inf), A.shape[0], dev, out_type, (0, 1)
        a = A.astype(out_type, copy=False)
        if out_type.kind == "f":
            if check_nan:
                _refuse_nan(a, op, xp)
            # float64 weights need no bounds (only integer work types and float32, whose sums
            # could pass its range, are sized by them)
            bounds = _finite_bound(a, xp) if out_type == np.float32 else (0, 0)
            return A, A.shape[0], dev, out_type, bounds
        lo, hi = _bounds(a, _t_max(out_type), xp)
        return A, A.shape[0], dev, out_type, (lo, hi)
    M = as_matrix(A, op=op, arg="A", square=True)
    out_type = _weight_type(M.dtype)
    if out_type not in VALUE_TYPES:
        raise DomainMismatch(f"{op}: A.dtype must be one of float32, float64, int32, int64 or "
                             f"bool, got {M.dtype}")
    facts = _matrix_facts(M)
    if facts["nan"]:
        raise InvalidValue(f"{op}: A has NaN weights; shortest paths are undefined")
    return M, M.nrows, M.device, out_type, (facts["min"], facts["max"])


#: Rows a strip of :func:`_finite_bound` (its temporaries: a strip of the input's size).
BOUND_STRIP = 1024


def _finite_bound(a, xp):
    """(0, max |w| over the finite entries) of a dense float32 array ("no edge" is inf): on
    the GPU one pass of ours (``sr.dense.finite_max_abs``: CuPy's masked reductions would
    compile on a first call, which the dense path keeps free of), else a row strip at a
    time."""
    top = sr.dense.finite_max_abs(a)
    if top is not None:
        return 0, top
    top = 0.0
    for i in range(0, a.shape[0], BOUND_STRIP):
        blk = a[i:i + BOUND_STRIP]
        if blk.size:
            top = max(top, float(xp.abs(xp.where(xp.isfinite(blk), blk, 0)).max()))
    return 0, top


def _refuse_nan(a, op: str, xp):
    """InvalidValue when the float array ``a`` holds a NaN."""
    # max propagates NaN (NumPy and CuPy alike): one pass, no n² mask
    if a.size and bool(xp.isnan(a.max())):
        raise InvalidValue(f"{op}: A has NaN weights; shortest paths are undefined")


def _bounds(a, big, xp):
    """(smallest, largest) edge weight of a dense integer array whose "no edge" is ``big``
    (the type's maximum), (0, 0) without edges. On the GPU one grid-wide pass of ours
    (``sr.dense.weight_bounds``: CuPy's masked reduction cost a temporary and passes over
    n² entries); else the smallest entry (``big`` itself when there is no edge) and the
    largest entry below ``big``."""
    if not a.size:
        return 0, 0
    got = None
    if xp is not np:
        sr.dense.prefetch_u16(a.dtype)  # the packed path's kernels, should the bounds allow it
        got = sr.dense.weight_bounds(a, big)
    if got is None:
        lo = a.min().item()
        hi = xp.where(a != big, a, lo).max().item() if lo != big else lo
    else:
        lo, hi = got
    return (0, 0) if lo == big else (lo, hi)


def _sum_bound(n: int, bounds) -> int:
    """n · max|w|: a bound on every real distance and on every weight (a shortest path has
    fewer than n edges), so every finite entry of D lies in [-bound, bound]."""
    return max(n, 1) * max(abs(int(bounds[0])), abs(int(bounds[1])))


def _work_type(op: str, out_type, n: int, bounds) -> np.dtype:
    """The type the products run in: every sum of two real distances fits (module docstring),
    and no float32 sum rounds to inf ("unreached": float64 then, as sssp's ``_work_type``)."""
    if out_type.kind == "f":
        big = max(abs(float(bounds[0])), abs(float(bounds[1])))
        if out_type == np.float32 and max(n - 1, 1) * big >= F32_MAX:
            return np.dtype(np.float64)
        return out_type
    big = max(abs(int(bounds[0])), abs(int(bounds[1])))
    bound = max(n, 1) * big
    if bound <= np.iinfo(out_type).max // 4:
        return out_type
    if out_type == np.int32:
        return np.dtype(np.int64)
    raise DistanceOverflow(
        f"{op}: int64 distances may overflow: n (={n}) times the largest |weight| (={big}) "
        f"exceeds a quarter of the int64 range; use float64 weights")


def _dense_of_u16(G, n: int, out_type, xp):
    """The packed path's D0 (uint16, infinity ``sr.dense.U16_INF``), padded with isolated
    vertices to a multiple of ``U16_PAD``, diagonal 0. The weights are non-negative and
    below U16_INF (``_u16_fits``), so min(w, U16_INF) maps "no edge" (the type's maximum) to
    the packed infinity and keeps every weight."""
    npad = -(-n // U16_PAD) * U16_PAD
    W = G if not isinstance(G, Matrix) else _dense_of(G, n, out_type, xp)
    if xp is not np:  # one pass of ours (sr.dense.pack_u16) where the layout allows
        D = sr.dense.pack_u16(W, npad)
        if D is not None:
            return D
    D = xp.full((npad, npad), sr.dense.U16_INF, dtype=np.uint16)
    D[:n, :n] = xp.minimum(W, sr.dense.U16_INF)
    d = xp.arange(npad)
    D[d, d] = 0
    return D


def _dense_of(G, n: int, work, xp, nan_op=None):
    """D0: the edge weights in ``work`` (infinity where no edge), diagonal min(0, self-loop).
    ``nan_op``: a dense float G's NaN check is done here (InvalidValue naming the op), in
    the same pass as the copy on the GPU (sr.dense.distances_d0)."""
    inf = _t_max(work)
    if isinstance(G, Matrix):
        D = xp.full((n, n), inf, dtype=work)
        if G.nvals:
            r, c, _ = G.to_coo()
            vals, stride = G.values_for(work)
            D[r, c] = vals if stride else vals[0]
    else:
        src = G.astype(_weight_type(G.dtype), copy=False)
        if xp is not np and src.dtype == work and work.kind == "f":
            # the copy, the diagonal and the NaN count in one pass of ours
            got = sr.dense.distances_d0(src)
            if got is not None:
                if nan_op is not None and got[1]:
                    raise InvalidValue(f"{nan_op}: A has NaN weights; shortest paths are "
                                       f"undefined")
                return got[0]
        if nan_op is not None and src.dtype.kind == "f":
            _refuse_nan(src, nan_op, xp)
        D = src.astype(work)  # a copy: the input is never modified
        if src.dtype != work and work.kind != "f":  # int32 "no edge" becomes int64's
            D[src == _t_max(src.dtype)] = inf
    d = xp.arange(n)
    D[d, d] = xp.minimum(D[d, d], 0)
    return D


def _edges_of(G, n: int, work, xp) -> Matrix:
    """The graph as a Matrix of ``work`` values (a dense array's finite off-diagonal and
    negative diagonal entries are its edges)."""
    if isinstance(G, Matrix):
        return G
    a = G.astype(_weight_type(G.dtype), copy=False)
    edge = xp.isfinite(a) if a.dtype.kind == "f" else a != _t_max(a.dtype)
    r, c = xp.nonzero(edge)
    return Matrix.from_coo(r, c, a[r, c].astype(work), nrows=n, ncols=n,
                           device=sr.device_of(a))


# ------------------------------------------------------------------------------ progress

class _NoBar:
    def update(self, k=1):
        pass

    def close(self):
        pass


def _bar(progress, expected_s: float, total: int, desc: str, unit: str = "round"):
    """A tqdm bar when asked for (``progress=True``) or when ``progress is None`` and the run
    is expected to take more than ``PROGRESS_SECONDS``; without tqdm, none."""
    if progress is False or (progress is None and expected_s <= PROGRESS_SECONDS):
        return _NoBar()
    try:
        from tqdm.auto import tqdm  # noqa: PLC0415  (tqdm: an optional extra)
    except ImportError:
        return _NoBar()
    return tqdm(total=total, desc=desc, unit=unit, leave=False)


def _rate(device: str, work, kind: str = "gemm") -> float:
    if device == "cpu":
        return RATE_CPU
    if kind == "spmm":
        return RATE_GPU_SPMM
    return RATE_GPU_GEMM[4 if np.dtype(work).itemsize <= 4 else 8]


# ------------------------------------------------------------------------------ methods

def _steps(b: int) -> int:
    """Squarings that cover every walk of up to b edges among b vertices: every shortest path
    (b − 1 edges) and every simple cycle (b edges, so a negative one shows on the diagonal)."""
    return math.ceil(math.log2(b)) if b > 1 else 0


def _packed(work) -> bool:
    return np.dtype(work) == np.uint16


def _product(X, Y, srg, work, bound):
    """X min.+ Y in the work type (uint16: the packed path's truncated min-plus)."""
    if _packed(work):
        return sr.dense.gemm_u16(X, Y)
    return _gemm(X, Y, srg, work, bound=bound)


def _squaring(D, srg, work, bar, bound=None):
    for _ in range(_steps(D.shape[0])):
        # D ← D min.+ D        (walks of up to twice as many edges)
        N = _gemm(D, D, srg, work, bound=bound)
        bar.update()
        if bool((N == D).all()):
            break
        D = N
    return D


def _pivot_closure(D, k0: int, k1: int, srg, work, bound):
    """Phase 1: D_kk ← D_kk⁺, the closure of the pivot tile over its own vertices, written
    back into D; returns it (contiguous). Up to ``CLOSURE_SUB`` pivots by squaring; a larger
    tile by blocked Floyd–Warshall over sub-tiles of ``CLOSURE_SUB`` (b³ relaxations instead
    of b³ · ⌈log₂ b⌉; the same closure)."""
    Dkk = sr.array_module(sr.device_of(D)).ascontiguousarray(D[k0:k1, k0:k1])
    b = k1 - k0
    if CLOSURE_SUB and b > CLOSURE_SUB:
        # D_kk ← D_kk⁺      (Floyd–Warshall on the tile alone, in its caller's stream)
        Dkk = _floyd_warshall(Dkk, srg, work, CLOSURE_SUB, _NoBar(), bound, lookahead=False)
    else:
        for _ in range(_steps(b)):
            Dkk = _product(Dkk, Dkk, srg, work, bound)
    D[k0:k1, k0:k1] = Dkk
    return Dkk


def _pivot_panels(D, Dkk, k0: int, k1: int, srg, work, bound):
    """Phase 2: D_k* ← D_kk min.+ D_k*, then D_*k ← D_*k min.+ D_kk, written into D; returns
    (R, C), their own copies, which phase 3 reads while it rewrites D."""
    R = _product(Dkk, D[k0:k1, :], srg, work, bound)
    D[k0:k1, :] = R
    # the column strip goes to the kernel as a view with D's row pitch: no gather copy
    C = _product(D[:, k0:k1], Dkk, srg, work, bound)
    D[:, k0:k1] = C
    return R, C


def _pivot(D, k0: int, k1: int, srg, work, bound):
    """Phases 1 and 2 of the round of pivots [k0, k1): (R, C)."""
    return _pivot_panels(D, _pivot_closure(D, k0, k1, srg, work, bound), k0, k1, srg, work,
                         bound)


def _relax(D, C, R, rows, cols, srg, work, bound, skip_rows=None, skip_cols=None):
    """Phase 3 on one rectangle of D: D_IJ ← min(D_IJ, C_I min.+ R_J), in place (the kernel
    reads and writes D's rows with its pitch: the rectangle is not copied), leaving out the
    bands ``skip_rows`` / ``skip_cols`` (relative to the rectangle)."""
    (i0, i1), (j0, j1) = rows, cols
    if i1 > i0 and j1 > j0:
        if _packed(work):
            sr.dense.gemm_u16_accumulate(D[i0:i1, j0:j1], C[i0:i1], R[:, j0:j1],
                                         skip_rows=skip_rows, skip_cols=skip_cols)
        else:
            _gemm_accumulate(D[i0:i1, j0:j1], C[i0:i1], R[:, j0:j1], srg, work, bound=bound,
                             skip_rows=skip_rows, skip_cols=skip_cols)


def _spans(span, band):
    """The pieces of [lo, hi) outside ``band`` (None: the whole span)."""
    lo, hi = span
    if band is None or band[1] <= band[0]:
        return [span]
    return [p for p in ((lo, band[0]), (band[1], hi)) if p[1] > p[0]]


def _relax_outside(D, C, R, rows, cols, srg, work, bound, skip_rows=None, skip_cols=None):
    """Phase 3 on rows × cols of D less the bands ``skip_rows`` / ``skip_cols`` (absolute
    indices of D, inside the rectangle): one launch (FW_ONE_LAUNCH), else one per
    rectangle outside the bands."""
    if FW_ONE_LAUNCH:
        def rel(band, base):
            return None if band is None else (band[0] - base, band[1] - base)
        _relax(D, C, R, rows, cols, srg, work, bound, skip_rows=rel(skip_rows, rows[0]),
               skip_cols=rel(skip_cols, cols[0]))
        return
    for rr in _spans(rows, skip_rows):
        for cc in _spans(cols, skip_cols):
            _relax(D, C, R, rr, cc, srg, work, bound)


class _Lanes:
    """Where the lookahead's work runs. GPU: the caller's current stream ("main"), a second,
    non-blocking stream ("side": no implicit ordering with the legacy default stream, only
    the events below) at the highest priority so that its small products take SMs ahead of
    phase 3's queued blocks (they are on the critical path), and ``rest`` lanes for phase
    3's rest of a round: main and ``rest − 1`` more non-blocking streams. CPU: in order."""

    def __init__(self, device: str, rest: int = 1):
        self.cp = sr.array_module("gpu") if device == "gpu" else None
        self.rest = max(1, int(rest))
        if self.cp is not None:
            self.main = self.cp.cuda.get_current_stream()
            self.side = _side_stream(self.cp)
            self.lanes = [self.main] + [_side_stream(self.cp, i) for i in range(1, self.rest)]

    def fork(self):
        """The side stream's next work waits for every rest lane's work so far."""
        if self.cp is not None:
            for s in self.lanes:
                self.side.wait_event(s.record())

    def join(self):
        """Every rest lane's next work waits for the side stream's work so far."""
        if self.cp is not None:
            ev = self.side.record()
            for s in self.lanes:
                s.wait_event(ev)

    def gather(self):
        """The main stream's next work waits for the other rest lanes' work so far."""
        if self.cp is not None:
            for s in self.lanes[1:]:
                self.main.wait_event(s.record())

    def on_side(self):
        """Context: CuPy's kernels, copies and allocations of the block go to the side."""
        return self.side if self.cp is not None else contextlib.nullcontext()

    def on_rest(self, i: int):
        """Context: the same on rest lane ``i`` (0: the main stream)."""
        return self.lanes[i] if self.cp is not None and i else contextlib.nullcontext()


#: The lookahead streams of the calling thread, by device (thread-local: two threads' runs
#: never share a side stream, so never its arena of CuPy's pool either).
_SIDE_STREAMS = threading.local()
#: Lower is higher; CUDA clamps a priority outside the device's range to its end (CuPy does
#: not expose cudaDeviceGetStreamPriorityRange), so this is the device's highest (-5 on an
#: H100). With equal priorities the block scheduler would start the side's blocks only once
#: the running phase-3 launch had dispatched all of its own: little overlap.
_TOP_PRIORITY = -100


def _side_stream(cp, lane: int = 0):
    """One lookahead stream per device, thread and lane (0: the side stream, at the top
    priority; i > 0: rest lane i, at the default one), made once: its arena of CuPy's
    memory pool is reused from run to run instead of left behind with a stream made per
    call."""
    streams = _SIDE_STREAMS.__dict__.setdefault("by_device", {})
    key = (cp.cuda.runtime.getDevice(), lane)
    s = streams.get(key)
    if s is None:
        s = streams[key] = cp.cuda.Stream(non_blocking=True,
                                          priority=_TOP_PRIORITY if lane == 0 else 0)
    return s


def _rest_lanes(work, n: int) -> int:
    """Phase 3's rest lanes for ``work`` at n vertices (FW_REST_LANES)."""
    return FW_REST_LANES if np.dtype(work) in FW_LANES_TYPES and n >= FW_LANES_MIN_N else 1


def _lane_rows(n: int, lanes: int):
    """The rest lanes' row spans [p0, p1) of 0..n: ``lanes`` near-equal parts, the
    boundaries rounded to multiples of FW_LANE_ALIGN (fewer parts when n is too small for
    that). The same in every round: a lane's rows are its own, so its stream orders their
    writes from round to round (the join orders a lane after the side only)."""
    cuts = [0]
    for i in range(1, lanes):
        row = int(round(i * n / lanes / FW_LANE_ALIGN)) * FW_LANE_ALIGN
        if cuts[-1] < row < n:
            cuts.append(row)
    cuts.append(n)
    return list(zip(cuts, cuts[1:]))


def _relax_rest(D, C, R, band, lanes, srg, work, bound):
    """Phase 3 on D outside ``band`` (rows and columns), the rows split over the rest lanes
    (FW_REST_LANES, :func:`_lane_rows`): each part one launch on its lane."""
    n = D.shape[0]
    for i, (p0, p1) in enumerate(_lane_rows(n, lanes.rest)):
        rows = band
        if band is not None:
            rows = (max(band[0], p0), min(band[1], p1))
            if rows[0] >= rows[1]:
                rows = None
            elif rows == (p0, p1):  # every row of the part is in the band
                continue
        with lanes.on_rest(i):
            _relax_outside(D, C, R, (p0, p1), (0, n), srg, work, bound, rows, band)


def _rounds(n: int, tile: int, lookahead: bool):
    """The pivot blocks [k0, k1): ``tile`` vertices each, the last one the rest; with
    lookahead the first only FW_FIRST_TILE (when smaller), since nothing hides its pivot
    work (phases 1–2 of round 0 run alone, and their chain grows with the tile)."""
    first = min(tile, FW_FIRST_TILE) if lookahead and FW_FIRST_TILE else tile
    starts = [0] + list(range(first, n, tile))
    return [(k0, min(n, k1)) for k0, k1 in zip(starts, starts[1:] + [n]) if k0 < n]


def _floyd_warshall(D, srg, work, tile: int, bar, bound=None, lookahead=None):
    """Blocked Floyd–Warshall on D in place (module docstring); returns D.

    Phase 3 of the round of pivots [k0, k1) leaves out the round's own cross (rows and
    columns [k0, k1)) with ``FW_SKIP_CROSS``: phase 2 left it final (with D_kk closed and
    a zero diagonal, D_kk min.+ R = R), so relaxing it again is 2 · b · n · b wasted
    relaxations a round, 2b/n of all the work (the textbook blocked algorithm skips it).

    With lookahead (``FW_LOOKAHEAD`` unless ``lookahead`` says), phase 3 of round r relaxes
    round r + 1's cross (its pivot rows D[a:b, :] and columns D[:, a:b], all that phases
    1–2 of round r + 1 read and write) first; then phases 1–2 of round r + 1 run on the
    side stream while the main stream relaxes the rest of D outside both crosses (disjoint
    memory: no race, and the cross is never written by both, so no stale phase-3 minimum
    overwrites a newer phase-2 value). Round r + 1's phase 3 waits for both. With
    ``FW_CROSS_SIDE`` the cross's relaxation runs on the side stream too, ahead of the pivot
    work, once round r − 1's rest is done: beside round r's rest instead of before it.
    The rest runs on ``_rest_lanes`` streams, each a fixed band of rows (the main stream
    the first): a lane orders its own rows from round to round, the side waits for every
    lane (fork), every lane for the side (join), and the caller's stream for every lane at
    the end. Every round's pivot work runs on the side (round 0's after a fork), so that
    every panel comes from the side's arena of CuPy's pool.
    Every entry ends with the same minimum of the same sums as without lookahead: the
    results are identical.
    """
    n = D.shape[0]
    if lookahead is None:
        lookahead = FW_LOOKAHEAD
    rounds = _rounds(n, tile, lookahead)
    everything = (0, n)

    def own(k0, k1):  # the band phase 3 of round [k0, k1) leaves out
        return (k0, k1) if FW_SKIP_CROSS else None

    if not lookahead or len(rounds) < 2:
        for k0, k1 in rounds:
            R, C = _pivot(D, k0, k1, srg, work, bound)
            # phase 3: D ← min(D, D_*k min.+ D_k*)      (in place: the GEMM starts from D)
            _relax_outside(D, C, R, everything, everything, srg, work, bound,
                           own(k0, k1), own(k0, k1))
            bar.update()
        return D
    lanes = _Lanes(sr.device_of(D), _rest_lanes(work, n))
    # Every round's panels come from the side stream (round 0's too), so from its arena of
    # CuPy's pool, where a freed block is reused only by side work, which follows a fork,
    # i.e. every lane's reads of it. Round 0's on the main stream would go back to the
    # main's arena when round 1 replaces them, and main's next allocation (the packed
    # path's duplicated C) could take them while another lane still reads them.
    lanes.fork()
    with lanes.on_side():
        R, C = _pivot(D, *rounds[0], srg, work, bound)
    lanes.join()
    for r in range(len(rounds)):
        k0, k1 = rounds[r]
        if r + 1 == len(rounds):  # the last round: nothing to look ahead to
            _relax_rest(D, C, R, own(k0, k1), lanes, srg, work, bound)
            bar.update()
            break
        a, b = rounds[r + 1]  # a == k1: both crosses together are the band [lo, b)
        lo = k0 if FW_SKIP_CROSS else a

        def cross():
            # phase 3 of round r on the cross of round r + 1: its rows, then its columns
            # outside the rows of both crosses
            _relax_outside(D, C, R, (a, b), everything, srg, work, bound, None, own(k0, k1))
            _relax_outside(D, C, R, everything, (a, b), srg, work, bound, (lo, b), None)
        if not FW_CROSS_SIDE:  # on the main stream, after round r − 1's rest on every lane
            lanes.gather()
            cross()
        # phases 1-2 of round r + 1 on the side, once the cross is final for round r ...
        lanes.fork()
        with lanes.on_side():
            if FW_CROSS_SIDE:  # after round r − 1's rest (the fork), beside round r's
                cross()
            R_next, C_next = _pivot(D, a, b, srg, work, bound)
        # ... while phase 3 of round r relaxes the rest of D on the rest lanes
        _relax_rest(D, C, R, (lo, b), lanes, srg, work, bound)
        lanes.join()
        # Round r's panels are dropped only now: their memory (from the side's arena of
        # CuPy's pool) is reused by side work enqueued after the next fork, which every
        # lane records after this round's rectangles, their last readers.
        R, C = R_next, C_next
        bar.update()
    # The last panels come from the side's arena too, and a later run may use another main
    # stream: the side's next work waits for this run's last readers; the caller's stream
    # (main) waits for the other rest lanes.
    lanes.fork()
    lanes.gather()
    return D


def _batched_sssp(M: Matrix, n: int, work, srg, xp, bar, op: str):
    """D (n × n, row = source) by Bellman–Ford from SSSP_BATCH sources at a time."""
    At = M.T
    inf = _t_max(work)
    out = xp.empty((n, n), dtype=work)
    for s0 in range(0, n, SSSP_BATCH):
        s1 = min(n, s0 + SSSP_BATCH)
        cols = xp.arange(s1 - s0)
        D = xp.full((n, s1 - s0), inf, dtype=work)
        D[s0 + cols, cols] = 0
        for _ in range(n):
            # Y = Aᵀ min.+ D;  D = min(D, Y)
            Y, _ = _spmm(At, D, srg, work)
            better = Y < D
            bar.update()
            if not bool(better.any()):
                break
            D = xp.minimum(D, Y)
        else:  # still lowering in round n: a negative cycle reachable from some source
            src = s0 + int(xp.flatnonzero(better.any(axis=0))[0].item())
            cycle = _negative_cycle(M, src, work)
            raise sr.NegativeCycleError(
                f"{op}: a negative cycle is reachable from vertex {src}"
                + ("" if cycle is None else f"; it passes through vertices {_few(cycle)}"),
                vertices=cycle)
        out[s0:s1] = D.T
    return out


def _check_diagonal(op: str, diag, xp):
    """Raise NegativeCycleError naming the vertices with d(i, i) < 0: each lies on a closed
    walk of negative weight (which holds a negative cycle, not always through that vertex).
    Which of them a method finds depends on how far it went before it stopped (squaring
    stops after the products that changed something; Floyd–Warshall closes every pivot), so
    the set is "found", not "all"."""
    if not bool((diag < 0).any()):  # one reduction and sync in the usual case
        return
    neg = xp.flatnonzero(diag < 0)
    if neg.size:
        verts = sr.to_device(neg, "cpu")
        raise sr.NegativeCycleError(
            f"{op}: the graph has a negative cycle: d(v, v) < 0 for vertices {_few(verts)} "
            f"({verts.size} found; each lies on a closed walk of negative weight)",
            vertices=verts)


def _few(v, k: int = 10) -> str:
    v = [int(x) for x in v[:k]]
    return ", ".join(map(str, v)) + (", ..." if len(v) == k else "")


# ------------------------------------------------------------------------------ predecessors

def _predecessors(M: Matrix, D, work, xp):
    """pred[i, v]: the vertex before v on a shortest path from i (−1: none).

    A BFS of the tight subgraph (edges u → v with D[i,u] + w = D[i,v]) from every source at
    once, over (source, vertex) pairs: each pair is expanded once (O(n · nnz) work in all),
    and a vertex's parent is at the previous BFS level, so zero-weight cycles never close a
    loop of predecessors. Float sums associate differently in the products than along a path,
    so floats count an edge tight within a relative tolerance of n·ε.
    """
    n = D.shape[0]
    pred = xp.full((n, n), -1, dtype=xp.int64)
    if n == 0 or M.nvals == 0:
        return pred
    inf = _t_max(work)
    seen = xp.zeros((n, n), dtype=bool)
    fi = xp.arange(n, dtype=xp.int64)
    seen[fi, fi] = True
    fu = fi.copy()
    indptr = M.indptr.astype(xp.int64)
    indices = M.indices.astype(xp.int64)
    wvals, stride = M.values_for(work)
    tol = n * float(np.finfo(work).eps) if work.kind == "f" else 0.0
    chunk = 1 << 22
    while fi.size:
        starts = indptr[fu]
        deg = indptr[fu + 1] - starts
        ends = xp.cumsum(deg)
        total = int(ends[-1].item()) if ends.size else 0
        new_keys = []
        for e0 in range(0, total, chunk):  # edges of the frontier pairs, in bounded pieces
            e = xp.arange(e0, min(total, e0 + chunk), dtype=xp.int64)
            slot = xp.searchsorted(ends, e, side="right")
            p = starts[slot] + e - (ends[slot] - deg[slot])
            i, u, v = fi[slot], fu[slot], indices[p]
            du = D[i, u]
            dv = D[i, v]
            w = wvals[p] if stride else wvals[0]
            ok = (du != inf) & ~seen[i, v]
            cand = xp.where(ok, du, 0) + w
            if tol:
                ok &= cand <= dv + tol * (xp.abs(cand) + xp.abs(dv))
            else:
                ok &= cand == dv
            i, u, v = i[ok], u[ok], v[ok]
            pred[i, v] = u
            seen[i, v] = True
            new_keys.append(i * n + v)
        if not new_keys:
            break
        keys = xp.unique(xp.concatenate(new_keys))
        fi, fu = keys // n, keys % n
    return pred


def reconstruct_path(pred, i: int, j: int):
    """The vertices of the path i → … → j that ``pred`` (from :func:`apsp`) encodes.

    Parameters
    ----------
    pred : array (n × n) of int
        ``pred[i, v]`` is the vertex before v on a shortest path from i; −1 (or SciPy's
        −9999) where there is none.
    i, j : int
        Source and target.

    Returns
    -------
    numpy.ndarray of int64
        ``[i, ..., j]``; ``[i]`` when i == j; empty when j is unreachable from i.

    Examples
    --------
    >>> import numpy as np, algorithms
    >>> W = np.array([[0, 1, 5], [np.inf, 0, 1], [np.inf, np.inf, 0]])
    >>> dist, pred = algorithms.apsp(W, predecessors=True)
    >>> algorithms.reconstruct_path(pred, 0, 2).tolist()
    [0, 1, 2]
    """
    op = "reconstruct_path"
    if not (isinstance(pred, np.ndarray) or sr.is_gpu_array(pred)) or pred.ndim != 2 \
            or pred.shape[0] != pred.shape[1]:
        raise DimensionMismatch(f"{op}: pred must be a square 2-D array, got "
                                f"{getattr(pred, 'shape', type(pred).__name__)}")
    if np.dtype(pred.dtype).kind not in "iu":
        raise DomainMismatch(f"{op}: pred must hold integer vertex ids, got dtype {pred.dtype}")
    n = pred.shape[0]
    for name, v in (("i", i), ("j", j)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise DomainMismatch(f"{op}: {name} must be an integer, got {type(v).__name__}")
        if not 0 <= int(v) < n:
            raise InvalidIndex(f"{op}: {name} must lie in [0, {n}), got {int(v)}")
    i, j = int(i), int(j)
    row = sr.to_device(pred[i], "cpu")  # one row on the host: the walk is sequential
    if n and int(row.max()) >= n:
        raise InvalidIndex(f"{op}: pred[{i}] must hold vertices in [0, {n}) or negatives (none), "
                           f"got {int(row.max())}")
    path = [j]
    while path[-1] != i:
        p = int(row[path[-1]])
        if p < 0 or len(path) > n:
            return np.zeros(0, dtype=np.int64)
        path.append(p)
    return np.asarray(path[::-1], dtype=np.int64)


# ------------------------------------------------------------------------------ public

def _in_memory_need(n: int, work, out_type, tile: int, predecessors: bool) -> int:
    """Device bytes of an in-memory run: D and another n² (squaring's product, batched SSSP's
    output; Floyd–Warshall's phase 3 now accumulates into D in the kernel, so this is
    conservative for it, and covers the lookahead's second pair of panels, which the
    next term leaves out), the panels (3 · tile · n), the output when it is a narrower type
    than ``work``, and predecessors' pred (int64) and seen (bool)."""
    need = np.dtype(work).itemsize * (2 * n * n + 3 * min(tile, n) * n)
    if np.dtype(work) != np.dtype(out_type):
        need += np.dtype(out_type).itemsize * n * n
    if predecessors:
        need += 9 * n * n
    return int(need)


def _device_budget(device: str, memory_budget):
    """(bytes a run may plan to use on the device, where that figure comes from):
    ``memory_budget`` when given; on the GPU ``MEMORY_SAFETY`` of the free memory; None (no
    limit) on the CPU."""
    if memory_budget is not None:
        return int(memory_budget), "memory_budget"
    if device != "gpu":
        return None, None
    cp = sr.array_module("gpu")
    pool = cp.get_default_memory_pool()
    free = cp.cuda.Device().mem_info[0] + pool.free_bytes()
    if pool.get_limit():  # CuPy's own cap (set_limit, CUPY_GPU_MEMORY_LIMIT)
        free = min(free, max(0, pool.get_limit() - pool.used_bytes()))
    return int(free * MEMORY_SAFETY), f"the free device memory × MEMORY_SAFETY ({MEMORY_SAFETY})"


def _auto(G, n: int) -> str:
    if isinstance(G, Matrix) and n > AUTO_MIN_N and G.nvals <= AUTO_SPARSE_DENSITY * n * n:
        return "batched_sssp"
    return "floyd_warshall"


def apsp(A, method="auto", *, predecessors=False, tile=None, progress=None,
         memory_budget=None):
    """Shortest distances between every pair of vertices; negative weights allowed.

    Parameters
    ----------
    A : Matrix, scipy/cupyx sparse matrix, or 2-D NumPy/CuPy array, square
        Edge i → j of weight ``A(i, j)``. Sparse: stored entries are the edges (explicit
        zeros are zero-weight edges). Dense array: every entry is an edge weight except
        "infinity" (``inf`` for floats, the type's maximum for integers), which means no
        edge (a bool array is an adjacency matrix: True is an edge of weight 1); 0 is a
        zero-weight edge (unlike SciPy's csgraph, whose facade
        :func:`algorithms.csgraph.floyd_warshall` keeps its conventions). Runs where A lives.
    method : {'auto', 'squaring', 'floyd_warshall', 'batched_sssp'}
        See the module docstring; ``'auto'`` picks batched SSSP for sparse matrices with at
        most ``AUTO_SPARSE_DENSITY · n²`` entries and n > ``AUTO_MIN_N``, else blocked
        Floyd–Warshall.
    predecessors : bool
        Also return ``pred`` (n × n int64): ``pred[i, j]`` is the vertex before j on a
        shortest path from i, −1 for j == i and unreachable j. See :func:`reconstruct_path`.
    tile : int, optional
        Pivot vertices per Floyd–Warshall round (default on the GPU ``TILE``, ``TILE_INT``
        where the work type is int32, ``TILE_U16`` on the packed 16-bit path, the first two
        at most ``TILE_SMALL`` below ``TILE_MIN_N`` vertices; ``TILE_CPU``
        on the CPU).
    progress : bool or None
        Show a tqdm progress bar: always, never, or (None) when the run is expected to take
        more than ``PROGRESS_SECONDS``.
    memory_budget : int, optional
        Device bytes the run may use (default: ``MEMORY_SAFETY`` of the free GPU memory; no
        limit on the CPU). When the in-memory method needs more, ``'floyd_warshall'`` and
        ``'auto'`` stream D through the device (module docstring), with the largest pivot
        block that fits; ``'squaring'`` and ``'batched_sssp'`` do not take a budget.

    Returns
    -------
    dist : array (n × n) of A's type (float64 for bool)
        ``dist[i, j]``; infinity (as above) where j is unreachable from i. A self-loop of
        positive weight does not count: ``dist[i, i]`` is 0. On A's device, except after a
        streamed run (D larger than the device memory or ``memory_budget``): then a NumPy
        array in host memory (pinned when A is on the GPU), whatever A's device.
    pred : array (n × n) of int64
        Only with ``predecessors=True`` (not available with a streamed run: pred and its
        workspace are n² more on the device; the error names the bytes needed).

    Raises
    ------
    NegativeCycleError
        When some cycle has negative weight; ``err.vertices`` lists vertices on one.
    DistanceOverflow
        Integer distances that cannot be represented (see the module docstring).
    OutOfMemory
        ``predecessors=True`` when the in-memory run does not fit, or a budget too small for
        even a streamed run with one-vertex blocks (the message names the minimum).

    Examples
    --------
    >>> import numpy as np, algorithms
    >>> W = np.array([[0, 4, np.inf], [np.inf, 0, -1], [2, np.inf, 0]], dtype=np.float32)
    >>> algorithms.apsp(W, "floyd_warshall")
    array([[ 0.,  4.,  3.],
           [ 1.,  0., -1.],
           [ 2.,  6.,  0.]], dtype=float32)

    The same within 170 bytes of device memory: D streams through it a vertex at a time.

    >>> algorithms.apsp(W, memory_budget=170)[1]
    array([ 1.,  0., -1.], dtype=float32)
    """
    op = "apsp"
    predecessors, = check_flags(op, predecessors=predecessors)
    if not isinstance(method, str) or method not in METHODS:
        raise InvalidValue(f"{op}: method must be one of {METHODS}, got {method!r}")
    if tile is not None and (isinstance(tile, bool) or not isinstance(tile, (int, np.integer))
                             or tile < 1):
        raise InvalidValue(f"{op}: tile must be a positive integer, got {tile!r}")
    if progress not in (None, True, False):
        raise InvalidValue(f"{op}: progress must be True, False or None, got {progress!r}")
    if memory_budget is not None:
        if isinstance(memory_budget, bool) or not isinstance(memory_budget, (int, np.integer)):
            raise DomainMismatch(f"{op}: memory_budget must be an integer number of bytes, got "
                                 f"{type(memory_budget).__name__}")
        if memory_budget <= 0:
            raise InvalidValue(f"{op}: memory_budget must be positive, got {memory_budget}")
        if method in ("squaring", "batched_sssp"):
            raise InvalidValue(f"{op}: memory_budget applies to method 'floyd_warshall' or "
                               f"'auto' (the streamed variant is Floyd–Warshall), got "
                               f"method={method!r}")
    # bool input: an adjacency matrix (or explicit False entries as zero-weight edges)
    unweighted = getattr(A, "dtype", None) == np.bool_
    # a dense float array on the GPU: the NaN check joins D0's copy (one pass less) where
    # the run makes one; every other path checks first (nan_check)
    defer_nan = (sr.is_gpu_array(A) and getattr(A, "ndim", 0) == 2
                 and np.dtype(A.dtype).kind == "f")
    G, n, device, out_type, bounds = _prepare(A, op, check_nan=not defer_nan)

    def nan_check():
        if defer_nan:
            _refuse_nan(G, op, sr.array_module(device))

    work = _work_type(op, out_type, n, bounds)
    tile_given = tile
    if tile is None:
        tile = TILE_CPU if device != "gpu" else (TILE_INT if np.dtype(work) == np.int32
                                                 else _gpu_tile(TILE, n))
    # the products may take the DPX int32 kernel when every finite entry is this small
    bound = _sum_bound(n, bounds) if work.kind == "i" else None
    xp = sr.array_module(device)
    srg = _semiring_of(work)
    streamable = method in ("auto", "floyd_warshall")
    if method == "auto":
        method = _auto(G, n)
    if n == 0:
        D = xp.zeros((0, 0), dtype=out_type)
        return (D, xp.zeros((0, 0), dtype=xp.int64)) if predecessors else D
    if streamable:
        budget, what = _device_budget(device, memory_budget)
        need = _in_memory_need(n, work, out_type, tile, predecessors)
        if budget is not None and need > budget:
            nan_check()
            if predecessors:
                raise OutOfMemory(
                    f"{op}: predecessors=True needs D, its workspace and pred on the device "
                    f"({need} bytes for n = {n}) but {what} allows {budget} bytes; a streamed "
                    f"run (without predecessors) needs less", needed=need, free=budget)
            from . import _apsp_stream  # noqa: PLC0415  (it imports this module's Floyd–Warshall)

            return _apsp_stream.floyd_warshall_streamed(G, n, device, work, out_type, srg,
                                                        int(tile), budget, progress, op,
                                                        what=what, bound=bound)
    if method == "batched_sssp":
        nan_check()
        M = _edges_of(G, n, work, xp)
        rounds_guess = max(1, int(math.log2(max(n, 2))) * 2)
        expected = rounds_guess * n * max(M.nvals, 1) / _rate(device, work, "spmm")
        bar = _bar(progress, expected, None, op)
        try:
            D = _batched_sssp(M, n, work, srg, xp, bar, op)
        finally:
            bar.close()
    else:
        packed = method == "floyd_warshall" and _u16_fits(out_type, n, bounds, unweighted)
        if packed:  # D0 straight in uint16 (no n² copy in the work type first)
            work = np.dtype(np.uint16)
            tile = tile_given or (_gpu_tile(TILE_U16, n) if device == "gpu" else TILE_CPU)
            D = _dense_of_u16(G, n, out_type, xp)
        else:
            D = _dense_of(G, n, work, xp, nan_op=op if defer_nan else None)
        if method == "squaring":
            expected = float(n) ** 3 * _steps(n) / _rate(device, work)
            bar = _bar(progress, expected, _steps(n), op)
            try:
                D = _squaring(D, srg, work, bar, bound)
            finally:
                bar.close()
        else:
            expected = float(n) ** 3 / _rate(device, work)
            bar = _bar(progress, expected, len(_rounds(n, int(tile), FW_LOOKAHEAD)), op)
            try:
                D = _floyd_warshall(D, srg, work, int(tile), bar, bound)[:n, :n]
            finally:
                bar.close()
        _check_diagonal(op, D.diagonal(), xp)
    dist = _finish(op, D, work, out_type, xp)
    if predecessors:
        if _packed(work):  # the tight edges from the distances in the caller's type
            D, work = dist, np.dtype(out_type)
        return dist, _predecessors(_edges_of(G, n, work, xp), D, work, xp)
    return dist


def _gpu_tile(tile: int, n: int) -> int:
    """The pivot block on the GPU: ``tile`` from TILE_MIN_N vertices on, at most TILE_SMALL
    below (shorter rounds must still hide the next pivot's chain)."""
    return tile if n >= TILE_MIN_N else min(tile, TILE_SMALL)


def _u16_fits(out_type, n: int, bounds, unweighted: bool = False) -> bool:
    """The packed 16-bit path is exact (FW_U16): integer weights (an integer type, or bool
    input: weights 0 and 1 in float64), none negative, and every finite distance at most
    (n − 1) · max weight ≤ U16_MAX_DISTANCE."""
    return (FW_U16 and (np.dtype(out_type).kind == "i" or unweighted)
            and int(bounds[0]) >= 0 and max(n - 1, 0) * int(bounds[1]) <= U16_MAX_DISTANCE)


def _finish(op, D, work, out_type, xp):
    """Distances in the output type; unreachable = inf / the type's maximum."""
    if work == out_type:
        return D
    if _packed(work):  # one pass: unreachable (U16_INF) becomes the type's maximum
        out = sr.dense.unpack_u16(D, D.shape[0], out_type, _t_max(out_type)) if xp is not np \
            else None
        if out is not None:
            return out
        return xp.where(D == sr.dense.U16_INF, out_type.type(_t_max(out_type)),
                        D).astype(out_type, copy=False)
    if out_type.kind == "f":  # float32 in float64: ±inf stay (unreached, −inf weights)
        if bool((xp.isfinite(D) & (xp.abs(D) > F32_MAX)).any()):
            raise DistanceOverflow(f"{op}: a shortest distance lies outside the float32 range; "
                                   f"use float64 weights")
        return D.astype(out_type)
    inf = _t_max(work)
    reached = D != inf
    info = np.iinfo(out_type)
    if bool((reached & ((D >= info.max) | (D < info.min))).any()):
        raise DistanceOverflow(f"{op}: a shortest distance lies outside the {out_type} range; "
                               f"use int64 or float64 weights")
    return xp.where(reached, D, info.max).astype(out_type)


__all__ = ["apsp", "reconstruct_path", "min_plus_sat", "TILE", "TILE_INT", "TILE_U16"]
