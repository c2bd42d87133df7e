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

import numpy as np

from . import device as _b
from . import types as _t
from .errors import DeviceMismatch, DimensionMismatch, DomainMismatch, InvalidIndex, InvalidValue
from .backend import backend_of
from .backend.gpu import prep as _gprep
from .backend.gpu.dense import GRID_Y_MAX, SAT_BOUND  # noqa: F401  (documented limits)
from .matrix import Matrix
from .ops import lookup

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
    >>> from semiring.dense import spmm
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
    Xd = xp.ascontiguousarray(_t.cast(X, dtype))  # (saturating, as values_for casts A)
    xpres = None if x_present is None else xp.ascontiguousarray(x_present)
    ymask = None if mask is None else xp.ascontiguousarray(mask)
    return backend_of(device).dense.spmm(A, Xd, xpres, sr, dtype, bool(xfirst), bool(want_present), ymask,
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
    >>> from semiring.dense import gemm
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
    Xd, Yd = _t.cast(X, dtype), _t.cast(Y, dtype)  # (the algebra's cast: see types.cast)
    # the GPU's tuned kernel reads views with a row pitch as they are
    return backend_of(device).dense.gemm(Xd, Yd, sr, dtype, bound)


def gemm_accumulate(Z, X, Y, sr, dtype, *, bound=None, skip_rows=None, skip_cols=None):
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
    skip_rows, skip_cols : (start, stop), optional
        Bands of rows and of columns of Z left as they are: only Z(i, j) with i outside
        ``skip_rows`` and j outside ``skip_cols`` are updated (blocked Floyd–Warshall's
        lookahead relaxes everything outside the next pivots' cross this way). On the GPU's
        tuned kernel one launch covers the rest when each band starts on a multiple of the
        tile (128), else one product per rectangle.

    Returns
    -------
    Z

    Examples
    --------
    One Floyd–Warshall pivot (vertex 1) as a rank-1 min-plus update:

    >>> import numpy as np, semiring as sr
    >>> from semiring.dense import gemm_accumulate
    >>> D = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0], [np.inf, np.inf, 0.0]])
    >>> gemm_accumulate(D, D[:, 1:2].copy(), D[1:2, :].copy(), sr.min_plus, np.float64)
    array([[ 0.,  1.,  3.],
           [inf,  0.,  2.],
           [inf, inf,  0.]])

    The same update outside the cross of row and column 1 (which it leaves as it is):

    >>> E = np.array([[0.0, 1.0, 9.0], [5.0, 0.0, 2.0], [1.0, 7.0, 0.0]])
    >>> gemm_accumulate(E, E[:, 1:2].copy(), E[1:2, :].copy(), sr.min_plus, np.float64,
    ...                 skip_rows=(1, 2), skip_cols=(1, 2))
    array([[0., 1., 3.],
           [5., 0., 2.],
           [1., 7., 0.]])
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
    skip_rows = _check_band(op, "skip_rows", skip_rows, Z.shape[0])
    skip_cols = _check_band(op, "skip_cols", skip_cols, Z.shape[1])
    Xd, Yd = _t.cast(X, dtype), _t.cast(Y, dtype)  # (the algebra's cast: see types.cast)
    return backend_of(device).dense.gemm_accumulate(Z, Xd, Yd, sr, dtype, bound, skip_rows,
                                                    skip_cols)


def _check_band(op: str, arg: str, band, size: int):
    """(start, stop) with 0 <= start <= stop <= size, as ints, or None."""
    if band is None:
        return None
    ok = (isinstance(band, (tuple, list)) and len(band) == 2
          and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in band))
    if not ok:
        raise InvalidValue(f"{op}: {arg} must be None or a pair (start, stop) of integers, "
                           f"got {band!r}")
    a, b = int(band[0]), int(band[1])
    if not 0 <= a <= b <= size:
        raise InvalidIndex(f"{op}: {arg} must satisfy 0 <= start <= stop <= {size}, got "
                           f"{(a, b)}")
    return (a, b)


# ------------------------------------------------------------------------------ packed 16-bit

#: Infinity of :func:`gemm_u16`: 0x7FFF; every value at or above it is infinite.
U16_INF = 0x7FFF


def _check_u16(op: str, arg: str, a) -> str:
    dev = _array_device(op, arg, a)
    if a.ndim != 2:
        raise DimensionMismatch(f"{op}: {arg} must be a 2-D array, got {a.ndim}-D shape {a.shape}")
    if a.dtype != np.uint16:
        raise DomainMismatch(f"{op}: {arg}.dtype must be uint16, got {a.dtype}")
    return dev


def gemm_u16(X, Y):
    """Min-plus product of uint16 matrices truncated at ``U16_INF`` (0x7FFF):
    Z(i,j) = min(U16_INF, min_k X'(i,k) + Y'(k,j)), where X' and Y' are X and Y with every
    value above U16_INF read as U16_INF (infinity: infinity plus anything stays infinite).

    The integers 0 … 0x7FFF under (min, +) with every sum from 0x7FFF on taken as infinity
    form a semiring, exact for every input: non-negative integer shortest paths whose finite
    distances stay below 0x7FFF (``algorithms.apsp`` takes it when
    ``(n − 1) · max weight ≤ 32766``). On the GPU it runs the tuned min-plus kernel on packed
    words: two adjacent columns per 32-bit word, two relaxations per sm_90 DPX instruction
    (``__viaddmin_u16x2``; its add wraps modulo 2¹⁶, which the clamping at 0x7FFF keeps from
    ever happening: a sum of two lanes is at most 0xFFFE).

    Parameters
    ----------
    X, Y : numpy.ndarray or cupy.ndarray of uint16
        ``m × k`` and ``k × n`` on one device (any row pitch; odd widths are padded in a copy).

    Returns
    -------
    Z : uint16 array, ``m × n``, C-contiguous, on the operands' device; U16_INF where no
        finite sum exists (or every sum is at least U16_INF), and everywhere when k = 0.

    Examples
    --------
    >>> import numpy as np
    >>> from semiring.dense import gemm_u16, U16_INF
    >>> D = np.array([[0, 1, U16_INF], [U16_INF, 0, 2], [30000, U16_INF, 0]], np.uint16)
    >>> gemm_u16(D, D)
    array([[    0,     1,     3],
           [30002,     0,     2],
           [30000, 30001,     0]], dtype=uint16)
    >>> gemm_u16(D[:, 2:], D[2:, :])  # 30000 + 30000 is past U16_INF: infinite
    array([[32767, 32767, 32767],
           [30002, 32767,     2],
           [30000, 32767,     0]], dtype=uint16)
    """
    op = "gemm_u16"
    device = _check_devices(op, {"X": _check_u16(op, "X", X), "Y": _check_u16(op, "Y", Y)})
    if X.shape[1] != Y.shape[0]:
        raise DimensionMismatch(f"{op}: X.shape[1] (={X.shape[1]}) must equal Y.shape[0] (={Y.shape[0]})")
    xp = _b.xp_of(device)
    Z = xp.empty((X.shape[0], Y.shape[1]), dtype=np.uint16)
    return backend_of(device).dense.gemm_u16(Z, X, Y, False)


def gemm_u16_accumulate(Z, X, Y, *, skip_rows=None, skip_cols=None):
    """In place: Z ← min(Z, X ⊗ Y) over :func:`gemm_u16`'s truncated min-plus (Z's values
    above U16_INF read as U16_INF too), optionally outside bands of rows and columns as
    :func:`gemm_accumulate`'s ``skip_rows`` / ``skip_cols``: Floyd–Warshall's phase 3 on
    packed 16-bit distances.

    Parameters
    ----------
    Z : uint16 array ``m × n`` (a writeable view works), sharing no memory with X or Y
    X, Y : uint16 arrays ``m × k``, ``k × n``, on Z's device
    skip_rows, skip_cols : (start, stop), optional

    Returns
    -------
    Z

    Examples
    --------
    >>> import numpy as np
    >>> from semiring.dense import gemm_u16_accumulate
    >>> D = np.array([[0, 1, 9], [5, 0, 2], [1, 7, 0]], np.uint16)
    >>> gemm_u16_accumulate(D, D[:, 1:2].copy(), D[1:2, :].copy())
    array([[0, 1, 3],
           [5, 0, 2],
           [1, 7, 0]], dtype=uint16)
    """
    op = "gemm_u16_accumulate"
    device = _check_devices(op, {"Z": _check_u16(op, "Z", Z), "X": _check_u16(op, "X", X),
                                 "Y": _check_u16(op, "Y", Y)})
    if X.shape[1] != Y.shape[0]:
        raise DimensionMismatch(f"{op}: X.shape[1] (={X.shape[1]}) must equal Y.shape[0] (={Y.shape[0]})")
    if Z.shape != (X.shape[0], Y.shape[1]):
        raise DimensionMismatch(f"{op}: Z.shape {Z.shape} must equal (X.shape[0], Y.shape[1]) "
                                f"= {(X.shape[0], Y.shape[1])}")
    if not getattr(Z.flags, "writeable", True):
        raise InvalidValue(f"{op}: Z must be writeable")
    xp = _b.xp_of(device)
    if xp.may_share_memory(Z, X) or xp.may_share_memory(Z, Y):
        raise InvalidValue(f"{op}: Z must not share memory with X or Y")
    skip_rows = _check_band(op, "skip_rows", skip_rows, Z.shape[0])
    skip_cols = _check_band(op, "skip_cols", skip_cols, Z.shape[1])
    return backend_of(device).dense.gemm_u16(Z, X, Y, True, skip_rows, skip_cols)


def _check_bound(op: str, bound):
    if bound is None:
        return
    if isinstance(bound, bool) or not isinstance(bound, (int, np.integer)) or bound < 0:
        raise InvalidValue(f"{op}: bound must be None or a non-negative integer, got {bound!r}")



# -- setup passes of dense shortest paths (APSP's D0, the packed path's bounds and layout) --
# On the GPU each is one grid-wide pass of ``semiring/kernels/prep.cu`` (CuPy's reductions and
# masked copies each cost temporaries and several passes over n² entries: the packed call's
# setup 10.1 -> 2.3 ms at n = 16384, bench/results/session14). Each returns None where its
# pass does not apply (a NumPy array, another type or layout): the caller then computes the
# same thing with array operations.

def weight_bounds(a, big: int):
    """(min over every entry, max over the entries != ``big``) of a dense 2-D int32 / int64
    GPU array in one pass, or None (see above).

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> sr.dense.weight_bounds(np.array([[3, 7]]), 7) is None  # NumPy: the caller reduces
    True
    """
    return _gprep.dense_bounds(a, big) if _b.is_cupy_array(a) else None


def finite_max_abs(a):
    """max |x| over the finite entries of a dense 2-D float32 GPU array in one pass (0.0 when
    none is finite; NaN and ±inf skipped), or None (see above).

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> sr.dense.finite_max_abs(np.array([[3.0, np.inf]], np.float32)) is None  # NumPy
    True
    """
    return _gprep.dense_finite_max_abs(a) if _b.is_cupy_array(a) else None


def prefetch_u16(out_type) -> None:
    """Start compiling the packed path's layout kernels for ``out_type`` (GPU; no-op without
    CuPy's kernels cached or needed), while the bounds decide whether the path runs."""
    if _b.gpu_available():
        _gprep.prefetch_u16(out_type)


def pack_u16(w, npad: int):
    """The packed path's D0 from the n × n weights ``w`` (none negative): npad × npad uint16,
    min(w, U16_INF) inside, U16_INF in the padding, 0 on the diagonal; one GPU pass, or None
    (see above)."""
    return _gprep.u16_pack(w, npad) if _b.is_cupy_array(w) else None


def unpack_u16(D, n: int, out_type, big):
    """The packed result's leading n × n in ``out_type``, U16_INF as ``big``; one GPU pass,
    or None (see above)."""
    return _gprep.u16_unpack(D, n, out_type, big) if _b.is_cupy_array(D) else None


def distances_d0(a):
    """(D, NaN entries): a contiguous copy of the square float32 / float64 GPU array ``a``
    with min(a_ii, 0) on the diagonal, and its count of NaN entries; one pass, or None (see
    above)."""
    return _gprep.dense_d0(a) if _b.is_cupy_array(a) else None
