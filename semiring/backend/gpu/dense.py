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
#: The kernel's flags (MP_* in minplus_gemm.cu).
_MP_ACCUMULATE, _MP_X_VEC, _MP_Y_VEC, _MP_Z_VEC = 1, 2, 4, 8

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
    yield "minplus_gemm", minplus_source(), names


def _minplus_kernel(name: str):
    """One tuned-kernel instantiation, compiled alone (a module each) once per device."""
    return kernels.function(("minplus", name), name, minplus_source, [name])


def _minplus_launch(policy: str, X, Y, Z, *, accumulate: bool, tiling=None, kernel=None):
    """Z = X ⊗ Y (or Z ⊕= X ⊗ Y) with the tuned kernel: X, Y and Z with contiguous rows (any
    row pitch), Z overlapping neither, every dimension > 0. ``kernel``: a compiled instantiation of
    ``tiling`` to launch instead (bench/probes/gemm_tune.py)."""
    m, K = X.shape
    n = Y.shape[1]
    tiling = tuple(tiling or minplus_tiling(X.dtype))
    BM, BN, _, TM, TN = tiling
    item = X.dtype.itemsize
    vec = 16 // item
    ldx, ldy, ldz = X.strides[0] // item, Y.strides[0] // item, Z.strides[0] // item

    def aligned(a, ld):
        return ld % vec == 0 and a.data.ptr % 16 == 0

    flags = ((_MP_ACCUMULATE if accumulate else 0)
             | (_MP_X_VEC if aligned(X, ldx) and K % vec == 0 else 0)
             | (_MP_Y_VEC if aligned(Y, ldy) else 0)
             | (_MP_Z_VEC if aligned(Z, ldz) else 0))
    blocks = -(-m // BM) * -(-n // BN)
    (kernel or _minplus_kernel(minplus_name(policy, tiling)))(
        (blocks,), ((BM // TM) * (BN // TN),),
        (X, Y, Z, np.int32(m), np.int32(n), np.int32(K), np.int64(ldx), np.int64(ldy),
         np.int64(ldz), np.int32(flags)))


def gemm_accumulate(Z, X, Y, sr: Semiring, dtype, bound):
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
    if in_place:
        _minplus_launch(policy, _pitched(X), _pitched(Y), Z, accumulate=True)
        return Z
    rtype = Z.dtype
    T = gemm(X, Y, sr, dtype, bound)
    Z[...] = _ew_binary(sr.add.op, rtype, Z, T, m * n).reshape(m, n)
    return Z
