"""Sparse × dense (SpMM) and dense × dense semiring products, on the CPU and the GPU.

Dense operands are plain 2-D NumPy or CuPy arrays: "full" matrices, every entry present
(SpMM's ``x_present`` marks the present entries of a bitmap X). They are the building blocks
of multi-source BFS (a frontier matrix n × s), batched SSSP (distances n × s under min_plus)
and APSP (dense min_plus products). The backend follows the arrays: NumPy runs here, CuPy runs
the kernels of ``semiring/kernels/spmm.cu`` and ``gemm.cu``. The public ``mxm`` / ``A @ X``
dispatch, masks and accumulators sit on top of these functions.

Coordinates of a positional multiply: in ``A ⊕.⊗ X`` the entry A(i,k) is at (i, k) and X(k,j)
at (k, j). With ``xfirst=True`` the product is the transposed one, ``Yᵀ = Xᵀ ⊕.⊗ Aᵀ``, the
multi-source form of ``vxm``: X's value is the first operand, at (j, k), and A's the second, at
(k, i). Either way ``secondi`` gives the inner index k (a BFS parent).
"""

from __future__ import annotations

import functools
from importlib import resources

import numpy as np

from . import _backend as _b
from . import types as _t
from .errors import DeviceMismatch, DimensionMismatch, DomainMismatch, InvalidValue
from .matrix import Matrix
from .ops import ANY, Semiring, lookup

#: CPU: products materialized at once (elements), bounding the memory of one chunk.
CHUNK_ELEMS = 1 << 22

#: GPU SpMM: threads per block, and columns each lane owns (SR_SPMM_THREADS, SR_SPMM_CPT).
SPMM_THREADS = 256
SPMM_CPT = 4

#: GPU GEMM tilings (BM, BN, BK, TM, TN): 4-byte domains and results take 128 × 128 tiles with
#: 8 × 8 results per thread; 8-byte ones (int64, float64, positional results) 64 × 64 with 4 × 4,
#: which keeps the accumulators in registers. Both run 256 threads per block.
GEMM_WIDE = (128, 128, 8, 8, 8)
GEMM_NARROW = (64, 64, 16, 4, 4)

KERNEL_FILES = ("spmm.cu", "gemm.cu")

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
#: is what to change; ``tools/gemm_tune.py`` measures the candidates of MINPLUS_CANDIDATES
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


# ------------------------------------------------------------------------------ validation

def _array_device(op: str, arg: str, a) -> str:
    """The device of a dense operand, which must be a NumPy or CuPy array."""
    if _b.is_cupy_array(a):
        return "gpu"
    if isinstance(a, np.ndarray):
        return "cpu"
    raise DomainMismatch(f"{op}: {arg} must be a NumPy or CuPy array, got {type(a).__name__}")


def _check_dense(op: str, arg: str, a) -> str:
    dev = _array_device(op, arg, a)
    if a.ndim != 2:
        raise DimensionMismatch(f"{op}: {arg} must be a 2-D array, got {a.ndim}-D shape {a.shape}")
    _t.lookup_dtype(a.dtype, op=op, arg=f"{arg}.dtype")
    return dev


def _where(dev: str, what: str) -> str:
    return f"{what} is on the {dev.upper()}"


def _check_devices(op: str, named: dict) -> str:
    """The one device of the named (name -> device) operands, or DeviceMismatch naming both."""
    seen = {}
    for name, dev in named.items():
        seen.setdefault(dev, name)
    if len(seen) > 1:
        (d1, n1), (d2, n2) = list(seen.items())[:2]
        raise DeviceMismatch(
            f"{op}: {_where(d1, n1)} but {_where(d2, n2)}; move one explicitly "
            f"(.to_gpu() / .to_cpu() for a Matrix, cupy.asarray / .get() for an array)")
    return next(iter(seen))


# ------------------------------------------------------------------------------ public API

def spmm(A, X, sr, dtype, *, xfirst=False, x_present=None, want_present=False, mask=None,
         complement=False):
    """Sparse × dense product over a semiring: Y(i,j) = ⊕_k A(i,k) ⊗ X(k,j).

    Parameters
    ----------
    A : Matrix
        Sparse, ``nrows × ncols``; only its stored entries take part.
    X : numpy.ndarray or cupy.ndarray
        Dense, ``ncols × s``, on A's device.
    sr : Semiring or str
    dtype : dtype
        The domain: A's values and X are taken as ``dtype``; Y has ``sr.result_type(dtype)``.
    xfirst : bool
        Make X's value the first operand of the multiply (see the module docstring for the
        coordinates of positional ops), as the spmv kernels' ``xfirst``.
    x_present : bool array of X's shape, optional
        X's present entries (a bitmap frontier matrix); only they contribute. None: all.
    want_present : bool
        Also return Y's presence: True where some product exists.
    mask : bool array of Y's shape (``A.nrows × s``), optional
        Compute Y(i,j) only where ``mask`` is True (False with ``complement``); elsewhere Y
        holds the identity and is absent, as where no product exists. The GPU kernel skips
        the masked-out entries (a row whose entries are all masked out is never read): the
        multi-source BFS step ``F⟨¬visited⟩ = Aᵀ any.secondi F``.
    complement : bool
        Use the complement of ``mask``.

    Returns
    -------
    (Y, present)
        Y (``A.nrows × s``, C-contiguous, on A's device) holds the add monoid's identity where
        no product exists; ``present`` is the bool presence array, or None when not asked for.

    Examples
    --------
    Two Bellman-Ford relaxations at once (sources 0 and 2), distances as columns:

    >>> import numpy as np, semiring as sr
    >>> from semiring._dense import spmm
    >>> At = sr.Matrix.from_coo([1, 2, 0], [0, 1, 2], [4.0, 1.0, 2.0], nrows=3, ncols=3,
    ...                       device="cpu")
    >>> D = np.array([[0.0, np.inf], [np.inf, np.inf], [np.inf, 0.0]])
    >>> Y, _ = spmm(At, D, sr.min_plus, np.float64)
    >>> Y
    array([[inf,  2.],
           [ 4., inf],
           [inf, inf]])
    >>> spmm(At, D, "min_plus", np.float64, x_present=np.isfinite(D), want_present=True)[1]
    array([[False,  True],
           [ True, False],
           [False, False]])
    """
    op = "spmm"
    if not isinstance(A, Matrix):
        raise DomainMismatch(f"{op}: A must be a semiring.Matrix, got {type(A).__name__}")
    sr = lookup("semiring", sr, op=op, arg="semiring")
    dtype = _t.lookup_dtype(dtype, op=op, arg="dtype")
    named = {"A": A.device, "X": _check_dense(op, "X", X)}
    if x_present is not None:
        named["x_present"] = _array_device(op, "x_present", x_present)
    if mask is not None:
        named["mask"] = _array_device(op, "mask", mask)
    elif complement:
        raise InvalidValue(f"{op}: complement=True needs a mask")
    device = _check_devices(op, named)
    if X.shape[0] != A.ncols:
        raise DimensionMismatch(f"{op}: A.ncols (={A.ncols}) must equal X.shape[0] (={X.shape[0]})")
    if x_present is not None:
        if x_present.shape != X.shape:
            raise DimensionMismatch(
                f"{op}: x_present.shape {x_present.shape} must equal X.shape {X.shape}")
        if x_present.dtype != np.bool_:
            raise DomainMismatch(f"{op}: x_present.dtype must be bool, got {x_present.dtype}")
    if mask is not None:
        if mask.shape != (A.nrows, X.shape[1]):
            raise DimensionMismatch(f"{op}: mask.shape {mask.shape} must equal Y's shape "
                                    f"(A.nrows, X.shape[1]) = {(A.nrows, X.shape[1])}")
        if mask.dtype != np.bool_:
            raise DomainMismatch(f"{op}: mask.dtype must be bool, got {mask.dtype}")
    xp = _b.xp_of(device)
    Xd = xp.ascontiguousarray(X.astype(dtype, copy=False))
    xpres = None if x_present is None else xp.ascontiguousarray(x_present)
    ymask = None if mask is None else xp.ascontiguousarray(mask)
    impl = _spmm_gpu if device == "gpu" else _spmm_cpu
    return impl(A, Xd, xpres, sr, dtype, bool(xfirst), bool(want_present), ymask,
                bool(complement))


def gemm(X, Y, sr, dtype, *, bound=None):
    """Dense × dense product over a semiring: Z(i,j) = ⊕_k X(i,k) ⊗ Y(k,j).

    Every entry of X and Y is present; X(i,k) is the multiply's first operand, at (i, k), and
    Y(k,j) the second, at (k, j). With an inner dimension of 0, Z is the add monoid's identity.
    On the GPU, min-plus and max-plus over float32, float64 and int32 run a tuned kernel
    (``kernels/minplus_gemm.cu``; int32 with the sm_90 DPX instructions), everything else the
    generic one.

    Parameters
    ----------
    X, Y : numpy.ndarray or cupy.ndarray
        Dense ``m × k`` and ``k × n`` arrays on one device. The tuned GPU kernel reads views
        whose rows are contiguous (``X.strides[1]`` one item, any positive row pitch, e.g.
        a column strip ``D[:, k0:k1]``) in place; other layouts are copied first.
    sr : Semiring or str
    dtype : dtype
        The domain both are taken as; Z has ``sr.result_type(dtype)``.
    bound : int, optional
        The caller's promise that every finite input and every finite result lies in
        ``[-bound, bound]``. APSP's saturating int32 min-plus (``algorithms.apsp``) takes the
        DPX kernel when ``bound <= SAT_BOUND``; other semirings ignore it.

    Returns
    -------
    Z : array, ``m × n``, C-contiguous, on the operands' device.

    Examples
    --------
    One min-plus squaring of a distance matrix (paths of up to two edges):

    >>> import numpy as np, semiring as sr
    >>> from semiring._dense import gemm
    >>> D = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0], [np.inf, np.inf, 0.0]])
    >>> gemm(D, D, sr.min_plus, np.float64)
    array([[ 0.,  1.,  3.],
           [inf,  0.,  2.],
           [inf, inf,  0.]])
    """
    op = "gemm"
    sr = lookup("semiring", sr, op=op, arg="semiring")
    dtype = _t.lookup_dtype(dtype, op=op, arg="dtype")
    _check_bound(op, bound)
    device = _check_devices(op, {"X": _check_dense(op, "X", X), "Y": _check_dense(op, "Y", Y)})
    if X.shape[1] != Y.shape[0]:
        raise DimensionMismatch(f"{op}: X.shape[1] (={X.shape[1]}) must equal Y.shape[0] (={Y.shape[0]})")
    Xd, Yd = X.astype(dtype, copy=False), Y.astype(dtype, copy=False)
    if device == "gpu":  # the tuned kernel reads views with a row pitch as they are
        return _gemm_gpu(Xd, Yd, sr, dtype, bound)
    return _gemm_cpu(np.ascontiguousarray(Xd), np.ascontiguousarray(Yd), sr, dtype)


def gemm_accumulate(Z, X, Y, sr, dtype, *, bound=None):
    """In place: Z ← Z ⊕ (X ⊕.⊗ Y), ⊕ being the semiring's add monoid (APSP's
    ``D ← min(D, D_*k min.+ D_k*)``).

    On the GPU the tuned min-plus / max-plus kernel starts its accumulators from Z and writes
    the result over it (no temporary, no second pass), and reads Z, X and Y with their row
    pitch (a rectangle of a larger array, as blocked Floyd–Warshall's phase 3 on
    sub-rectangles of D, is neither copied nor gathered); other semirings, and a Z that
    shares memory with X or Y or whose rows are not contiguous, compute the product first.

    Parameters
    ----------
    Z : numpy.ndarray or cupy.ndarray
        ``m × n``, of type ``sr.result_type(dtype)``, on the operands' device; updated in place
        (a writeable view works).
    X, Y, sr, dtype, bound
        As in :func:`gemm`.

    Returns
    -------
    Z

    Examples
    --------
    One Floyd–Warshall pivot (vertex 1) as a rank-1 min-plus update:

    >>> import numpy as np, semiring as sr
    >>> from semiring._dense import gemm_accumulate
    >>> D = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0], [np.inf, np.inf, 0.0]])
    >>> gemm_accumulate(D, D[:, 1:2].copy(), D[1:2, :].copy(), sr.min_plus, np.float64)
    array([[ 0.,  1.,  3.],
           [inf,  0.,  2.],
           [inf, inf,  0.]])
    """
    op = "gemm_accumulate"
    sr = lookup("semiring", sr, op=op, arg="semiring")
    dtype = _t.lookup_dtype(dtype, op=op, arg="dtype")
    _check_bound(op, bound)
    device = _check_devices(op, {"Z": _check_dense(op, "Z", Z), "X": _check_dense(op, "X", X),
                                 "Y": _check_dense(op, "Y", Y)})
    if X.shape[1] != Y.shape[0]:
        raise DimensionMismatch(f"{op}: X.shape[1] (={X.shape[1]}) must equal Y.shape[0] (={Y.shape[0]})")
    if Z.shape != (X.shape[0], Y.shape[1]):
        raise DimensionMismatch(f"{op}: Z.shape {Z.shape} must equal (X.shape[0], Y.shape[1]) "
                                f"= {(X.shape[0], Y.shape[1])}")
    rtype = sr.result_type(dtype)
    if Z.dtype != rtype:
        raise DomainMismatch(f"{op}: Z.dtype must be the result type {rtype}, got {Z.dtype}")
    if not getattr(Z.flags, "writeable", True):  # CuPy arrays have no read-only flag
        raise InvalidValue(f"{op}: Z must be writeable")
    Xd, Yd = X.astype(dtype, copy=False), Y.astype(dtype, copy=False)
    if device == "gpu":
        return _gemm_accumulate_gpu(Z, Xd, Yd, sr, dtype, bound)
    T = _gemm_cpu(np.ascontiguousarray(Xd), np.ascontiguousarray(Yd), sr, dtype)
    Z[...] = sr.add.op.apply_numpy(Z, T, rtype)
    return Z


def _check_bound(op: str, bound):
    if bound is None:
        return
    if isinstance(bound, bool) or not isinstance(bound, (int, np.integer)) or bound < 0:
        raise InvalidValue(f"{op}: bound must be None or a non-negative integer, got {bound!r}")


# ------------------------------------------------------------------------------ CPU

def _mult(sr: Semiring, a, x, i, k, j, dtype, xfirst: bool):
    """The multiply with the operand order and coordinates of the module docstring; the
    arguments broadcast against each other (coordinates are read by positional ops only)."""
    if xfirst:
        return sr.mul.apply_numpy(x, a, dtype, pos=(j, k, k, i) if sr.mul.positional else None)
    return sr.mul.apply_numpy(a, x, dtype, pos=(i, k, k, j) if sr.mul.positional else None)


def _is_any(sr: Semiring, rtype) -> bool:
    return sr.add.terminal_of(rtype) is ANY


def _combine(sr: Semiring, rtype, Y, found, where, part):
    """Y[where] = Y[where] ⊕ part where Y already has a value, else part (k order kept)."""
    old = found[where]
    if old.any():
        cur = Y[where]
        part = np.where(old, sr.add.op.apply_numpy(cur, part, rtype), part)
    Y[where] = part
    found[where] = True


def _spmm_cpu(A, X, xpres, sr: Semiring, dtype, xfirst, want_present, ymask=None,
              complement=False):
    n, s = A.nrows, X.shape[1]
    rtype = sr.result_type(dtype)
    Y = np.full((n, s), sr.add.identity_of(rtype), dtype=rtype)
    found = np.zeros((n, s), dtype=bool)
    if n == 0 or s == 0 or A.nvals == 0:
        return Y, (found if want_present else None)
    if ymask is not None:
        allowed = ~ymask if complement else ymask
        # the product unmasked, then cleared outside the mask, on the rows the mask leaves
        # any entry in (a BFS step touches only its unvisited rows and its frontier's k)
        rows_ok = allowed.any(axis=1)
        Y, found = _spmm_cpu(_rows_subset(A, rows_ok, xpres), X, xpres, sr, dtype, xfirst,
                             True)
        Y[~allowed] = sr.add.identity_of(rtype)
        found &= allowed
        return Y, (found if want_present else None)
    avals, astride = A._values_for(dtype)
    indptr = A.indptr.astype(np.int64, copy=False)
    deg = np.diff(indptr)
    if (xpres is None and sr.name == "plus_times" and np.dtype(dtype).kind == "f"):
        import scipy.sparse as sp  # noqa: PLC0415

        data = avals if astride else np.broadcast_to(avals, (A.nvals,))
        S = sp.csr_matrix((data, A.indices, indptr), shape=A.shape)
        Y = np.ascontiguousarray(S @ X, dtype=rtype)
        return Y, (np.repeat((deg > 0)[:, None], s, axis=1) if want_present else None)
    rows = np.repeat(np.arange(n, dtype=np.int64), deg)
    jcol = np.arange(s, dtype=np.int64)[None, :]
    if xpres is None and _is_any(sr, rtype):
        # any value is final: one product per row, from the row's first entry
        first = indptr[:-1][deg > 0]
        chunks = [first]
    else:
        step = max(1, CHUNK_ELEMS // s)
        chunks = [np.arange(p0, min(p0 + step, A.nvals), dtype=np.int64)
                  for p0 in range(0, A.nvals, step)]
    for p in chunks:
        i, k = rows[p], A.indices[p].astype(np.int64)
        a = (avals[p] if astride else avals[:1])[:, None]
        prods = _mult(sr, a, X[k], i[:, None], k[:, None], jcol, dtype, xfirst)
        prods = np.broadcast_to(prods, (p.size, s))
        if xpres is None:
            # segments are the rows (entries of a row are consecutive, in k order)
            heads = np.flatnonzero(np.r_[True, i[1:] != i[:-1]])
            part = sr.add.reduce_segments(np.ascontiguousarray(prods), heads)
            _combine(sr, rtype, Y, found, i[heads], part)
        else:
            # the present (entry, column) pairs, column-major: keys (j, i) come out sorted and
            # each segment keeps k order
            jj, pp = np.nonzero(xpres[k].T)
            if jj.size == 0:
                continue
            key = jj * n + i[pp]
            heads = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
            part = sr.add.reduce_segments(np.ascontiguousarray(prods[pp, jj]), heads)
            _combine(sr, rtype, Y, found, (i[pp[heads]], jj[heads]), part)
    return Y, (found if want_present else None)


def _rows_subset(A, rows_ok, xpres):
    """A's entries in the rows ``rows_ok`` and, with a bitmap X, in the columns k where X's row
    k has a present entry: the only entries whose products can survive. Same shape, same
    order within a row (k order), so positions and folds are unchanged."""
    keep = np.repeat(rows_ok, np.diff(A.indptr.astype(np.int64, copy=False)))
    if xpres is not None:
        keep &= xpres.any(axis=1)[A.indices]
    if keep.all():
        return A
    counts = np.bincount(np.repeat(np.arange(A.nrows), np.diff(A.indptr.astype(np.int64)))[keep],
                         minlength=A.nrows)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(A.itype)
    values = None if A.is_iso else A.values[keep]
    return Matrix(indptr, A.indices[keep], values, A.shape, iso_value=A.iso_value,
                  dtype=A.dtype)


def _reduce_axis1(sr: Semiring, rtype, T):
    """⊕ over axis 1 of a 3-D block of products (non-empty along that axis)."""
    f = sr.add.op.numpy
    if isinstance(f, np.ufunc):
        with np.errstate(all="ignore"):
            return f.reduce(T, axis=1).astype(rtype, copy=False)
    while T.shape[1] > 1:  # pairwise: log2(k) vectorized passes for any associative op
        h = T.shape[1] // 2
        head = sr.add.op.apply_numpy(T[:, :h], T[:, h:2 * h], rtype)
        T = np.concatenate([head, T[:, 2 * h:]], axis=1) if T.shape[1] % 2 else head
    return T[:, 0]


def _gemm_cpu(X, Y, sr: Semiring, dtype):
    m, K = X.shape
    n = Y.shape[1]
    rtype = sr.result_type(dtype)
    if K == 0 or m == 0 or n == 0:
        return np.full((m, n), sr.add.identity_of(rtype), dtype=rtype)
    if sr.name == "plus_times" and np.dtype(dtype).kind in "if":
        with np.errstate(all="ignore"):  # inf * 0 is NaN, as in the fold
            return np.ascontiguousarray(np.matmul(X, Y), dtype=rtype)  # integers wrap alike
    if _is_any(sr, rtype):
        K = 1  # any value is final: the k = 0 product
    kc = max(1, min(K, CHUNK_ELEMS // max(n, 1), 64))
    bi = max(1, min(m, CHUNK_ELEMS // (kc * n)))
    Z = np.empty((m, n), dtype=rtype)
    j = np.arange(n, dtype=np.int64)[None, None, :]
    for i0 in range(0, m, bi):
        i1 = min(m, i0 + bi)
        i = np.arange(i0, i1, dtype=np.int64)[:, None, None]
        acc = None
        for k0 in range(0, K, kc):
            k1 = min(K, k0 + kc)
            k = np.arange(k0, k1, dtype=np.int64)[None, :, None]
            prods = _mult(sr, X[i0:i1, k0:k1, None], Y[None, k0:k1, :], i, k, j, dtype, False)
            prods = np.broadcast_to(prods, (i1 - i0, k1 - k0, n))
            part = _reduce_axis1(sr, rtype, prods)
            acc = part if acc is None else sr.add.op.apply_numpy(acc, part, rtype)
        Z[i0:i1] = acc
    return Z


# ------------------------------------------------------------------------------ GPU

@functools.lru_cache(maxsize=None)
def _dense_text() -> str:
    pkg = resources.files("semiring.kernels")
    return "\n".join(pkg.joinpath(f).read_text() for f in KERNEL_FILES)


def module_source(sr: Semiring) -> str:
    """common.cuh with the semiring's op structs, then the SpMM and GEMM kernels."""
    from . import _gpu  # noqa: PLC0415

    common = resources.files("semiring.kernels").joinpath("common.cuh").read_text()
    head, rest = common.split("// Warp shuffles", 1)
    ops = {sr.add.op.name: sr.add.op, sr.mul.name: sr.mul}
    functors = "".join(_gpu.functor_source(o) for o in ops.values())
    return head + functors + "// Warp shuffles" + rest + "\n" + _dense_text()


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


def all_instantiations():
    """(label, source, name_expressions) of every built-in semiring × domain, and of the tuned
    min/max-plus kernel, for CI's NVRTC compile (``.ci/compile_kernels.py``)."""
    from .ops import _SEMIRING  # noqa: PLC0415

    for name in sorted(_SEMIRING):
        sr = _SEMIRING[name]
        src = module_source(sr)
        for dt in _t.DTYPES:
            yield f"dense_{name}[{dt}]", src, name_expressions(sr, dt)
    yield from minplus_instantiations()


_modules: dict = {}
_functions: dict = {}


def _kernel(kind: str, sr: Semiring, dtype, itype=None, xfirst: bool = False):
    """The compiled kernel, from a module compiled once per (device, semiring, domain)."""
    from . import _gpu  # noqa: PLC0415

    cp = _b._cupy()
    dev = cp.cuda.runtime.getDevice()
    fkey = (dev, kind, id(sr), np.dtype(dtype), None if itype is None else np.dtype(itype), xfirst)
    f = _functions.get(fkey)
    if f is None:
        mkey = (dev, id(sr), np.dtype(dtype))
        mod = _modules.get(mkey)
        if mod is None:
            mod = cp.RawModule(code=module_source(sr), options=_gpu.NVRTC_OPTIONS,
                               name_expressions=name_expressions(sr, dtype))
            mod.compile()
            _modules[mkey] = mod
        f = _functions[fkey] = mod.get_function(kernel_name(kind, sr, dtype, itype, xfirst))
    return f


def _spmm_gpu(A, X, xpres, sr: Semiring, dtype, xfirst, want_present, ymask=None,
              complement=False):
    from . import _gpu  # noqa: PLC0415

    cp = _b._cupy()
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
    mode, term = _gpu._terminal(sr.add, rtype)
    _kernel("spmm_rows", sr, dtype, A.itype, xfirst)(grid, (SPMM_THREADS,), (
        A.indptr, A.indices, avals, np.int64(astride), X, xpres, ymask, np.int32(complement),
        np.int64(n), np.int64(s), np.int32(width_log2), Y, pres, identity, np.int32(mode),
        term))
    return Y, pres


def _gemm_gpu(X, Y, sr: Semiring, dtype, bound=None):
    from . import _gpu  # noqa: PLC0415

    cp = _b._cupy()
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
    mode, term = _gpu._terminal(sr.add, rtype)
    kend = 1 if mode == _gpu.TERM_ANY else K  # any value is final: the k = 0 product
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
    return a if _rows_contiguous(a) else _b._cupy().ascontiguousarray(a)


def _minplus_fits(m: int, n: int, K: int) -> bool:
    """The kernel indexes rows, columns and k with 32-bit ints."""
    return max(m, n, K) < 2**31 - 256


def minplus_name(policy: str, tiling) -> str:
    """The C++ name of one tuned-kernel instantiation."""
    return f"minplus_gemm<{policy}, {', '.join(str(v) for v in tiling)}>"


def minplus_tiling(dtype) -> tuple:
    return MINPLUS_TILING[np.dtype(dtype).itemsize]


@functools.lru_cache(maxsize=None)
def minplus_source() -> str:
    return resources.files("semiring.kernels").joinpath(MINPLUS_FILE).read_text()


def minplus_instantiations():
    """(label, source, name_expressions) of the tuned kernel with the tilings of
    MINPLUS_TILING, for CI's NVRTC compile."""
    names = []
    for (_, _, dt), (policy, _) in MINPLUS_POLICIES.items():
        names.append(minplus_name(policy, minplus_tiling(dt)))
    yield "minplus_gemm", minplus_source(), names


_mp_functions: dict = {}


def _minplus_kernel(name: str):
    """One tuned-kernel instantiation, compiled alone (a module each) once per device."""
    from . import _gpu  # noqa: PLC0415

    cp = _b._cupy()
    key = (cp.cuda.runtime.getDevice(), name)
    f = _mp_functions.get(key)
    if f is None:
        mod = cp.RawModule(code=minplus_source(), options=_gpu.NVRTC_OPTIONS,
                           name_expressions=[name])
        mod.compile()
        f = _mp_functions[key] = mod.get_function(name)
    return f


def _minplus_launch(policy: str, X, Y, Z, *, accumulate: bool, tiling=None, kernel=None):
    """Z = X ⊗ Y (or Z ⊕= X ⊗ Y) with the tuned kernel: X, Y and Z with contiguous rows (any
    row pitch), Z overlapping neither, every dimension > 0. ``kernel``: a compiled instantiation of
    ``tiling`` to launch instead (tools/gemm_tune.py)."""
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


def _gemm_accumulate_gpu(Z, X, Y, sr: Semiring, dtype, bound):
    cp = _b._cupy()
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
    from . import _elemgpu  # noqa: PLC0415

    rtype = Z.dtype
    T = _gemm_gpu(X, Y, sr, dtype, bound)
    Z[...] = _elemgpu.binary(sr.add.op, rtype, Z, T, m * n).reshape(m, n)
    return Z
