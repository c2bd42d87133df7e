"""GPU dense products: the SpMM and generic GEMM kernels of ``kernels/spmm.cu`` and
``gemm.cu`` (one module per (semiring, domain)), and the tuned (min|max) × plus GEMM of
``kernels/minplus_gemm.cu`` (one module per instantiation). Called by :mod:`semiring.dense`,
which validates the operands."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ... import types as _t
from ...device import _cupy
from ...errors import InvalidValue
from ...ops import Semiring, builtins, min_plus_sat
from .elementwise import binary as _ew_binary
from .spmv import TERM_ANY, _terminal
#: GPU SpMM: threads per block, and columns each lane owns (SR_SPMM_THREADS, SR_SPMM_CPT).
SPMM_THREADS = 256
SPMM_CPT = 4

#: GPU GEMM tilings (BM, BN, BK, TM, TN): 4-byte domains and results take 128 × 128 tiles with
#: 8 × 8 results per thread; 8-byte ones (int64, float64, positional results) 64 × 64 with 4 × 4,
#: which keeps the accumulators in registers. Both run 256 threads per block.
GEMM_WIDE = (128, 128, 8, 8, 8)
GEMM_NARROW = (64, 64, 16, 4, 4)

KERNEL_FILES = ("common.cuh", "spmm.cu", "gemm.cu")

#: The tuned (min|max) × plus GEMM of ``kernels/minplus_gemm.cu``: its policy struct for each
#: (add op, multiply op, domain), and whether it needs the caller's ``bound`` (APSP's
#: saturating int32 min-plus, exact on the DPX path only within ``SAT_BOUND``). Every other
#: semiring and domain takes the generic ``gemm_tiled``.
MINPLUS_FILE = "minplus_gemm.cu"
MINPLUS_POLICIES = {
    ("min", "plus", "float32"): ("mp_fmin_plus<float>", False),
    ("max", "plus", "float32"): ("mp_fmax_plus<float>", False),
    ("min", "plus", "float64"): ("mp_fmin_plus<double>", False),
    ("max", "plus", "float64"): ("mp_fmax_plus<double>", False),
    ("min", "plus", "int32"): ("mp_imin_plus", False),
    ("max", "plus", "int32"): ("mp_imax_plus", False),
    ("min", "plus_sat", "int32"): ("mp_imin_plus_sat", True),
}
#: ``bound`` (every finite input and result within [-bound, bound]) up to which the
#: saturating int32 min-plus takes the DPX kernel (MP_SAT_* in minplus_gemm.cu).
SAT_BOUND = 1 << 28
#: Tilings (BM, BN, BK, TM, TN) of the tuned kernel by the domain's item size: this one table
#: is what to change; ``bench/probes/gemm_tune.py`` measures the candidates of MINPLUS_CANDIDATES
#: ((BM/TM)·(BN/TN) threads; TM/2 and TN/2 whole 16-byte vectors). Measured on an H100 at
#: n = 16384 (session 3): BK = 16 gave float32 12.6 T relax/s (90% of the fminf probe) against
#: 12.1 with BK = 8, int32 DPX 15.1 T/s (92% of the __viaddmin_s32 probe) against 14.7, and
#: float64 4.16 against 4.11 T/s; 64×128 tiles tied for int32 and lost for float32.
MINPLUS_TILING = {4: (128, 128, 16, 8, 8), 8: (64, 64, 16, 4, 4)}
MINPLUS_CANDIDATES = {4: [(128, 128, 8, 8, 8), (128, 128, 16, 8, 8), (64, 128, 8, 8, 8),
                          (128, 64, 8, 8, 8)],
                      8: [(64, 64, 8, 4, 4), (64, 64, 16, 4, 4), (128, 64, 8, 8, 4)]}
#: The packed 16-bit min-plus of the same kernel (``gemm_u16``): two unsigned 16-bit lanes per
#: 32-bit word, infinity ``U16_INF``, one ``__viaddmin_u16x2`` per two relaxations on sm_90.
U16_POLICY = "mp_u16x2_min_plus"
U16_INF = 0x7FFF
#: The kernel's flags (MP_* in minplus_gemm.cu).
_MP_ACCUMULATE, _MP_X_VEC, _MP_Y_VEC, _MP_Z_VEC, _MP_Z_LATE = 1, 2, 4, 8, 16
#: Policies whose accumulate has Z join at the end (MP_Z_LATE: the block's Z tile prefetched
#: into L2 first, folded in after the k loop) rather than start the accumulators. Measured
#: on an H100 at n = 16384 (bench/probes/probe_fw85.py, phase 3's shape Z ⊕= C ⊗ R): packed
#: u16 K = 256 77.5 % of its peak against 74.1 % (K = 512 even), float32 80.9 against 81.3 %
#: (Floyd–Warshall float32 77.7 against 78.5 %): on for the packed path only.
Z_LATE = frozenset({U16_POLICY})

#: CUDA's limit on gridDim.y: column tiles of SpMM, column tiles of GEMM.
GRID_Y_MAX = 65535


def _check_grid(op: str, what: str, value: int, tiles: int, per_tile: int):
    if tiles > GRID_Y_MAX:
        raise InvalidValue(f"{op}: {what} (={value}) must be at most {GRID_Y_MAX * per_tile} "
                           f"on the GPU")



def module_source(sr: Semiring) -> str:
    """common.cuh with the semiring's op structs, then the SpMM and GEMM kernels."""
    return kernels.source(*KERNEL_FILES, ops=kernels.semiring_ops(sr))


def gemm_tiling(sr: Semiring, dtype) -> tuple:
    """(BM, BN, BK, TM, TN) of the GEMM kernel for this semiring and domain."""
    rtype = sr.result_type(dtype)
    return GEMM_WIDE if max(np.dtype(dtype).itemsize, rtype.itemsize) <= 4 else GEMM_NARROW


def kernel_name(kind: str, sr: Semiring, dtype, itype=None, xfirst: bool = False) -> str:
    """The C++ name of one instantiation (as compiled and as looked up)."""
    T, R = _t.c_type(dtype), _t.c_type(sr.result_type(dtype))
    a, m = f"op_{sr.add.op.name}", f"op_{sr.mul.name}"
    if kind == "gemm_tiled":
        tiles = ", ".join(str(v) for v in gemm_tiling(sr, dtype))
        return f"gemm_tiled<{a}, {m}, {T}, {R}, {tiles}>"
    return f"{kind}<{a}, {m}, {T}, {R}, {_t.c_type(itype)}, {'true' if xfirst else 'false'}>"


def name_expressions(sr: Semiring, dtype) -> list[str]:
    """Every instantiation of one (semiring, domain) module: SpMM for both index types and
    operand orders, and GEMM."""
    names = [kernel_name("spmm_rows", sr, dtype, it, xf)
             for it in (_t.INT32, _t.INT64) for xf in (False, True)]
    return names + [kernel_name("gemm_tiled", sr, dtype)]


@kernels.register("dense")
def all_instantiations():
    """(label, source, name_expressions) of every built-in semiring × domain, of ``min_plus_sat``
    on the integer domains (integer APSP), and of the tuned min/max-plus kernel."""
    for name, sr in sorted(builtins("semiring").items()):
        src = module_source(sr)
        for dt in _t.DTYPES:
            yield f"dense_{name}[{dt}]", src, name_expressions(sr, dt)
    src = module_source(min_plus_sat)
    for dt in (_t.INT32, _t.INT64):
        yield f"dense_min_plus_sat[{dt}]", src, name_expressions(min_plus_sat, dt)
    yield from minplus_instantiations()


def _kernel(kind: str, sr: Semiring, dtype, itype=None, xfirst: bool = False):
    """The compiled kernel, from a module compiled once per (device, semiring, domain)."""
    return kernels.memo(("dense", kind, id(sr), dtype, itype, xfirst), lambda: kernels.function(
        ("dense", id(sr), np.dtype(dtype)), kernel_name(kind, sr, dtype, itype, xfirst),
        lambda: module_source(sr), name_expressions(sr, dtype)))


def spmm(A, X, xpres, sr: Semiring, dtype, xfirst, want_present, ymask=None,
              complement=False):
    cp = _cupy()
    n, s = A.nrows, X.shape[1]
    rtype = sr.result_type(dtype)
    identity = rtype.type(sr.add.identity_of(rtype))
    Y = cp.empty((n, s), dtype=rtype)
    pres = cp.empty((n, s), dtype=cp.bool_) if want_present else None
    if n == 0 or s == 0:
        return Y, pres
    # lanes per row: enough to cover s with SPMM_CPT columns each, a power of two <= 32
    need = -(-s // SPMM_CPT)
    width_log2 = min(5, max(0, int(need - 1).bit_length()))
    width = 1 << width_log2
    grid = (-(-n // (SPMM_THREADS >> width_log2)), -(-s // (width * SPMM_CPT)))
    _check_grid("spmm", "X.shape[1]", s, grid[1], width * SPMM_CPT)
    avals, astride = A._values_for(dtype)
    mode, term = _terminal(sr.add, rtype)
    _kernel("spmm_rows", sr, dtype, A.itype, xfirst)(grid, (SPMM_THREADS,), (
        A.indptr, A.indices, avals, np.int64(astride), X, xpres, ymask, np.int32(complement),
        np.int64(n), np.int64(s), np.int32(width_log2), Y, pres, identity, np.int32(mode),
        term))
    return Y, pres


def gemm(X, Y, sr: Semiring, dtype, bound=None):
    cp = _cupy()
    m, K = X.shape
    n = Y.shape[1]
    rtype = sr.result_type(dtype)
    if K == 0 or m == 0 or n == 0:
        return cp.full((m, n), sr.add.identity_of(rtype), dtype=rtype)
    policy = minplus_policy(sr, dtype, bound)
    if policy is not None and _minplus_fits(m, n, K):
        Z = cp.empty((m, n), dtype=rtype)
        _minplus_launch(policy, _pitched(X), _pitched(Y), Z, accumulate=False)
        return Z
    X, Y = cp.ascontiguousarray(X), cp.ascontiguousarray(Y)  # gemm_tiled takes no pitch
    Z = cp.empty((m, n), dtype=rtype)
    mode, term = _terminal(sr.add, rtype)
    kend = 1 if mode == TERM_ANY else K  # any value is final: the k = 0 product
    BM, BN, _, TM, TN = gemm_tiling(sr, dtype)
    grid = (-(-m // BM), -(-n // BN))
    _check_grid("gemm", "Y.shape[1]", n, grid[1], BN)
    _kernel("gemm_tiled", sr, dtype)(grid, ((BM // TM) * (BN // TN),), (
        X, Y, np.int64(m), np.int64(n), np.int64(K), np.int64(kend), Z, np.int32(mode), term))
    return Z


# ------------------------------------------------------------------------------ tuned min/max-plus

def minplus_policy(sr: Semiring, dtype, bound=None):
    """The tuned kernel's policy struct for this semiring and domain (see MINPLUS_POLICIES),
    or None: the generic kernel."""
    key = (sr.add.op.name, sr.mul.name, np.dtype(dtype).name)
    entry = MINPLUS_POLICIES.get(key)
    if entry is None or sr.result_type(dtype) != np.dtype(dtype):
        return None
    policy, needs_bound = entry
    if needs_bound and (bound is None or bound > SAT_BOUND):
        return None
    return policy


def _rows_contiguous(a) -> bool:
    """Unit column stride and a positive row pitch: a view the tuned kernel reads as it is
    (its leading dimension is the row pitch)."""
    item = a.dtype.itemsize
    return a.strides[1] == item and a.strides[0] > 0 and a.strides[0] % item == 0


def _pitched(a):
    """``a`` itself when its rows are contiguous, else a C-contiguous copy."""
    return a if _rows_contiguous(a) else _cupy().ascontiguousarray(a)


def _minplus_fits(m: int, n: int, K: int) -> bool:
    """The kernel indexes rows, columns and k with 32-bit ints."""
    return max(m, n, K) < 2**31 - 256


def minplus_name(policy: str, tiling) -> str:
    """The C++ name of one tuned-kernel instantiation."""
    return f"minplus_gemm<{policy}, {', '.join(str(v) for v in tiling)}>"


def minplus_tiling(dtype) -> tuple:
    return MINPLUS_TILING[np.dtype(dtype).itemsize]


def minplus_source() -> str:
    return kernels.source(MINPLUS_FILE)


def minplus_instantiations():
    """(label, source, name_expressions) of the tuned kernel with the tilings of
    MINPLUS_TILING, for CI's NVRTC compile."""
    names = []
    for (_, _, dt), (policy, _) in MINPLUS_POLICIES.items():
        names.append(minplus_name(policy, minplus_tiling(dt)))
    names.append(minplus_name(U16_POLICY, MINPLUS_TILING[4]))
    yield "minplus_gemm", minplus_source(), names


def _minplus_kernel(name: str):
    """One tuned-kernel instantiation, compiled alone (a module each) once per device."""
    return kernels.function(("minplus", name), name, minplus_source, [name])


def _minplus_launch(policy: str, X, Y, Z, *, accumulate: bool, tiling=None, kernel=None,
                    gap=(0, 0, 0, 0)):
    """Z = X ⊗ Y (or Z ⊕= X ⊗ Y) with the tuned kernel: X, Y and Z with contiguous rows (any
    row pitch), Z overlapping neither, every dimension > 0. ``kernel``: a compiled instantiation of
    ``tiling`` to launch instead (bench/probes/gemm_tune.py). ``gap``: (row, rows, column,
    columns) of Z (and X's rows, Y's columns) left out, the row on a multiple of BM and the
    column on a multiple of BN (:func:`_gaps_fit`)."""
    gm, gml, gn, gnl = gap
    m, K = X.shape
    n = Y.shape[1]
    m, n = m - gml, n - gnl  # the launch covers the compacted Z
    if m <= 0 or n <= 0:
        # every entry of Z lies in a band: nothing to do. (A launch of no blocks ran on the
        # H200 and its block order divided by zero tiles: reads and writes far outside Z, the
        # intermittent illegal address of session 15, found by compute-sanitizer in session 16.)
        return
    tiling = tuple(tiling or minplus_tiling(X.dtype))
    BM, BN, _, TM, TN = tiling
    item = X.dtype.itemsize
    vec = 16 // item
    ldx, ldy, ldz = X.strides[0] // item, Y.strides[0] // item, Z.strides[0] // item

    def aligned(a, ld):
        return ld % vec == 0 and a.data.ptr % 16 == 0 and gnl % vec == 0

    flags = ((_MP_ACCUMULATE | (_MP_Z_LATE if policy in Z_LATE else 0) if accumulate else 0)
             | (_MP_X_VEC if aligned(X, ldx) and K % vec == 0 else 0)
             | (_MP_Y_VEC if aligned(Y, ldy) else 0)
             | (_MP_Z_VEC if aligned(Z, ldz) else 0))
    blocks = -(-m // BM) * -(-n // BN)
    kernel = kernel or _minplus_kernel(minplus_name(policy, tiling))
    smem = minplus_smem_bytes(tiling, item)
    if smem > STATIC_SMEM_MAX and _opted_in.get(id(kernel), 0) < smem:
        _opt_in(kernel, smem)
    kernel((blocks,), ((BM // TM) * (BN // TN),),
           (X, Y, Z, np.int32(m), np.int32(n), np.int32(K), np.int64(ldx), np.int64(ldy),
            np.int64(ldz), np.int32(flags), np.int32(gm), np.int32(gml), np.int32(gn),
            np.int32(gnl)), shared_mem=smem if smem > STATIC_SMEM_MAX else 0)


#: Shared memory a block may declare statically; the tuned kernel's tiles beyond it (BK = 32
#: for 4-byte types) are dynamic shared memory, which the launch opts into.
STATIC_SMEM_MAX = 48 * 1024


#: Kernels (by id: they live as long as the process's kernel cache) opted into this much
#: dynamic shared memory.
_opted_in: dict = {}


def _opt_in(kernel, smem: int):
    """Let ``kernel`` (a RawKernel, or a loaded Function of bench/probes/gemm_tune.py) take
    ``smem`` bytes of dynamic shared memory: above 48 KiB a launch must opt in."""
    if hasattr(kernel, "max_dynamic_shared_size_bytes"):
        kernel.max_dynamic_shared_size_bytes = smem
    else:
        from cupy_backends.cuda.api import driver  # noqa: PLC0415  (GPU only)
        driver.funcSetAttribute(kernel.ptr,
                                driver.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem)
    _opted_in[id(kernel)] = smem


def minplus_smem_bytes(tiling, item: int) -> int:
    """The tuned kernel's shared memory for one block: two buffers of X's tile (BK × (BM +
    one 16-byte vector), transposed and padded) and Y's (BK × BN); as SMEM in the kernel."""
    BM, BN, BK = tiling[0], tiling[1], tiling[2]
    return 2 * BK * ((BM + 16 // item) + BN) * item


def _gaps_fit(tiling, skip_rows, skip_cols, m: int, n: int):
    """The kernel's gap for skipping rows [a, b) and columns [c, d) of an m × n Z in one
    launch, or None when a band does not start on a tile boundary (BM rows, BN columns)."""
    BM, BN = tiling[0], tiling[1]
    a, b = skip_rows or (0, 0)
    c, d = skip_cols or (0, 0)
    if (b > a and a % BM) or (d > c and c % BN):
        return None
    return (a, b - a, c, d - c) if b > a or d > c else (0, 0, 0, 0)


def _rectangles(m: int, n: int, skip_rows, skip_cols):
    """The rectangles ((i0, i1), (j0, j1)) of an m × n matrix outside the bands."""
    def spans(size, band):
        if band is None or band[1] <= band[0]:
            return [(0, size)]
        return [s for s in ((0, band[0]), (band[1], size)) if s[1] > s[0]]
    return [(r, c) for r in spans(m, skip_rows) for c in spans(n, skip_cols)]


def gemm_accumulate(Z, X, Y, sr: Semiring, dtype, bound, skip_rows=None, skip_cols=None):
    cp = _cupy()
    m, K = X.shape
    n = Y.shape[1]
    if m == 0 or n == 0:
        return Z
    policy = minplus_policy(sr, dtype, bound)
    item = Z.dtype.itemsize
    in_place = (policy is not None and K > 0 and _minplus_fits(m, n, K)
                and Z.strides[1] == item and Z.strides[0] % item == 0 and Z.strides[0] > 0
                and not cp.may_share_memory(Z, X) and not cp.may_share_memory(Z, Y))
    gap = (0, 0, 0, 0)
    if skip_rows is not None or skip_cols is not None:
        gap = _gaps_fit(minplus_tiling(dtype), skip_rows, skip_cols, m, n) if in_place else None
        if gap is None:  # one product per rectangle outside the bands
            for (i0, i1), (j0, j1) in _rectangles(m, n, skip_rows, skip_cols):
                gemm_accumulate(Z[i0:i1, j0:j1], X[i0:i1], Y[:, j0:j1], sr, dtype, bound)
            return Z
    if in_place:
        _minplus_launch(policy, _pitched(X), _pitched(Y), Z, accumulate=True, gap=gap)
        return Z
    rtype = Z.dtype
    T = gemm(X, Y, sr, dtype, bound)
    Z[...] = _ew_binary(sr.add.op, rtype, Z, T, m * n).reshape(m, n)
    return Z


# ------------------------------------------------------------------------------ packed u16 min-plus

def _u16_words(a):
    """``a`` (uint16, rows contiguous) as uint32 words of two adjacent columns, or None when
    its width, row pitch or base is odd."""
    if (a.shape[1] % 2 or a.strides[1] != 2 or a.strides[0] % 4 or a.strides[0] <= 0
            or a.data.ptr % 4):
        return None
    cp = _cupy()
    return cp.ndarray((a.shape[0], a.shape[1] // 2), dtype=cp.uint32, memptr=a.data,
                      strides=(a.strides[0], 4))


def _u16_dup(X):
    """X (m × K uint16) as words whose two lanes both hold X, in one elementwise kernel
    (x · 0x10001 in uint32; the kernel clamps every lane to U16_INF as it reads a tile)."""
    cp = _cupy()
    return cp.multiply(X, np.uint32(0x10001), dtype=cp.uint32)


def _u16_padded(Y):
    """A copy of Y with an even number of columns (the last one infinite when added)."""
    cp = _cupy()
    k, n = Y.shape
    P = cp.full((k, n + n % 2), U16_INF, dtype=cp.uint16)
    P[:, :n] = Y
    return P


def gemm_u16(Z, X, Y, accumulate: bool, skip_rows=None, skip_cols=None):
    """Z = X ⊗ Y or Z ⊕= X ⊗ Y over the truncated min-plus of semiring.dense.gemm_u16 (Z,
    X, Y uint16, Z overlapping neither; the bands only with ``accumulate``): X's values
    duplicated into both lanes of a word, Y and Z read as words (two adjacent columns) in
    place when their layout allows."""
    cp = _cupy()
    m, K = X.shape
    n = Y.shape[1]
    if m == 0 or n == 0:
        return Z
    if K == 0:  # no products: the identity, or Z clamped (outside the bands)
        if not accumulate:
            Z.fill(U16_INF)
        else:
            for (i0, i1), (j0, j1) in _rectangles(m, n, skip_rows, skip_cols):
                cp.minimum(Z[i0:i1, j0:j1], np.uint16(U16_INF), out=Z[i0:i1, j0:j1])
        return Z
    Zw, Yw = _u16_words(Z), _u16_words(Y)
    if Zw is None or not _minplus_fits(m, n, K):
        # a word view of a padded copy of Z, written back
        T = _u16_padded(Z) if accumulate else cp.empty((m, n + n % 2), dtype=cp.uint16)
        gemm_u16(T, X, Y if Y.shape[1] == T.shape[1] else _u16_padded(Y), accumulate,
                 skip_rows, skip_cols)
        Z[...] = T[:, :n]
        return Z
    if Yw is None:
        # a fresh copy, not ascontiguousarray: a one-row slice at an odd column is already
        # "contiguous" (its row pitch is ignored) yet not word-aligned
        Yw = _u16_words(_u16_padded(Y))
    Xw = _u16_dup(X)
    tiling = MINPLUS_TILING[4]
    gap = (0, 0, 0, 0)
    if skip_rows is not None or skip_cols is not None:
        c, d = skip_cols or (0, 0)
        words = None if (c % 2 or d % 2) else (c // 2, d // 2)
        gap = None if words is None else _gaps_fit(tiling, skip_rows, words, m, n // 2)
        if gap is None:
            for (i0, i1), (j0, j1) in _rectangles(m, n, skip_rows, skip_cols):
                gemm_u16(Z[i0:i1, j0:j1], X[i0:i1], Y[:, j0:j1], True)
            return Z
    _minplus_launch(U16_POLICY, Xw, Yw, Zw, accumulate=accumulate, tiling=tiling, gap=gap)
    return Z
