"""Eager operations: w⟨M⟩ = w ⊙ (A ⊕.⊗ u), following GraphBLAS.

Every operation computes a result T, then applies the mask M (value or structural, optionally
complemented), the accumulator ⊙ and ``replace`` to the output ``out``:

- Z = out ⊙ T where both have an entry, else whichever has one (Z = T without ``accum``);
- where M allows it, out gets Z (an entry where Z has one, none where Z has none);
- elsewhere out keeps its entries, or loses them all with ``replace=True``.

T is computed only where M allows, so a complemented mask of visited vertices skips them.
Without ``out`` the output starts empty.
"""

from __future__ import annotations

import numpy as np

from . import device as _b
from . import types as _t
from .errors import (DeviceMismatch, DimensionMismatch, DomainMismatch, InvalidValue, OutOfMemory,
                     check_flags)
from ._mfinalize import finalize_matrix
from .backend import backend_of
from .backend.cpu import spmv as _cpu_spmv
from .backend.gpu import spmv as _gpu_spmv
from .dense import gemm, spmm
from .mask import as_mask, as_matrix_mask
from .matrix import Matrix, _check_key_space, as_matrix
from .ops import Semiring, lookup
from .spgemm import dot3, spgemm
from .vector import Vector, as_vector

DIRECTIONS = ("auto", "push", "pull")
#: mxm's methods for a sparse × sparse product: row-wise Gustavson (``spgemm``) or one dot
#: product per mask entry (``dot3``); ``auto`` picks by :func:`_dot_pays`.
MXM_METHODS = ("auto", "gustavson", "dot")
#: method="auto" takes the dot products when their estimated work (the mask's entries plus
#: Σ over them of the shorter row's length, plus the operand's transpose when it is not
#: cached) times this
#: factor is below Gustavson's products (flops). SuiteSparse:GraphBLAS makes the same choice
#: (GB_AxB_meta: dot3 for a sparse, non-complemented mask whose work is less than the
#: saxpy's). 1 is not tuned: each unit on both sides is a binary search and a fold.
DOT_WORK_FACTOR = 1.0


def _backend_module(device):
    """The mxv / vxm mechanism of a device (pull and push)."""
    return backend_of(device).spmv


#: (semiring, A's dtype, u's dtype) -> (domain, result type) of the plain call below, at
#: most MXV_TYPES_KEPT of them (the keys hold their semirings)
_mxv_types: dict = {}
MXV_TYPES_KEPT = 4096


def _mxv_core(op, A, u, semiring, out, mask, accum, replace, structure, complement, direction,
              transpose_a):
    # (each check as cheap as it can be: a small product's whole work is ~10 µs, and these
    # steps cost a CPU call 8 µs before, see bench/results/20261128-cpu-small-calls.md)
    # (direction="pull" as "auto" on the CPU: the plain pull; the GPU's kept plan is "auto"'s)
    # (the flags' identity with False, no truthiness: a flag that is not a bool leaves the
    # plain call for the checks below, which refuse it; np.bool_ flags take them too)
    plain = (out is None and mask is None and accum is None and complement is False
             and replace is False and structure is False
             and type(A) is Matrix and type(semiring) is Semiring
             and (direction == "auto" or (direction == "pull" and A._device == "cpu")))
    if plain and type(u) is np.ndarray and A._device == "cpu":
        # a full host array (PageRank's x ./ outdeg): wrapped as as_vector wraps it, less
        # its checks and calls (4 µs of a 13 µs call), where they pass trivially (else the
        # checks below say what is wrong)
        hu = _host_full(u)
        if hu is not None:
            u = hu
    if plain and type(u) is Vector:
        # the plain call w = A ⊕.⊗ u of containers on one device, sizes matching (else the
        # checks below name what is wrong): no mask, no accumulator, the types cached
        # (grid-64² min-plus on the CPU, 12.3 -> ~11 µs a call; SciPy's plus-times 11.2)
        device = A._device
        if transpose_a:
            inner, nout = A._shape[0], A._shape[1]
        else:
            inner, nout = A._shape[1], A._shape[0]
        if u._device == device and inner == u._size:
            key = (semiring, A._dtype, u._dtype)
            types = _mxv_types.get(key)
            if types is None:
                if len(_mxv_types) >= MXV_TYPES_KEPT:  # (semirings made on the fly)
                    _mxv_types.clear()
                dtype = _t.promote(A._dtype, u._dtype)
                types = _mxv_types[key] = (dtype, semiring.result_type(dtype))
            if device != "gpu":
                if u._form == "bitmap":
                    # a full x of the product's type and a kept compiled route (the CPU
                    # backend's pull, kept from the matrix's first product on): the
                    # route and the result alone (urand-10-ef4 min-plus, 7.2 -> ~6.5 µs a
                    # call, SciPy's A @ x 6.8; bench/results/session14-cpu7.md)
                    vals, pres = u._bitmap
                    # (NumPy's dtype == costs 0.1 µs; the types are mostly the same object)
                    if pres is None and (vals.dtype is types[0] or vals.dtype == types[0]):
                        M = A.T if transpose_a else A
                        route = M._memo.get((_cpu_spmv.ROUTE_KEY, semiring, types[0],
                                             transpose_a))
                        if route is not None:
                            res = route(M, vals)
                            if res is not None:
                                T = Vector._result(nout, types[1], device, res[0], res[1])
                                if res[0].size == nout:  # every row: the bitmap form too
                                    T._bitmap = (res[1], None)
                                return T
                return _product(_backend_module(device), A, u, semiring, types[0], types[1],
                                None, direction, transpose_a, nout, device)
            try:
                if u._form == "bitmap":
                    # a full x of the product's type: the pull's plan kept on the matrix for
                    # this device and stream (its first such product made it), launched
                    # through the driver (gpu/spmv.py: kept_pull, KEPT_LAUNCH); what
                    # _product below does, less its calls (issue 21 item 2: urand-10-ef4
                    # min-plus 20.5 µs a call on an H200, SciPy's A @ x 12.7)
                    vals, pres = u._bitmap
                    if pres is None and vals.dtype == types[0]:
                        res = _gpu_spmv.kept_pull(A.T if transpose_a else A, vals, semiring,
                                                  types[0], transpose_a)
                        if res is not None:
                            return Vector._bitmap_result(nout, types[1], device, res[0],
                                                         res[1])
                return _product(_backend_module(device), A, u, semiring, types[0], types[1],
                                None, "auto", transpose_a, nout, device)
            except Exception as exc:
                _gpu_memory_errors(op, device).__exit__(type(exc), exc, None)
                raise
    replace, structure, complement = check_flags(op, replace=replace, structure=structure,
                                                 complement=complement)
    if type(A) is not Matrix:
        A = as_matrix(A, op=op, arg="A")
    if type(u) is not Vector:
        u = as_vector(u, op=op, arg="u")
    sr = semiring if type(semiring) is Semiring else \
        lookup("semiring", semiring, op=op, arg="semiring")
    acc = None if accum is None else lookup("binary", accum, op=op, arg="accum")
    if acc is not None and acc.positional:
        raise DomainMismatch(f"{op}: accum must not be a positional op, got {acc.name}")
    if direction not in DIRECTIONS:
        raise InvalidValue(f"{op}: direction must be one of {DIRECTIONS}, got {direction!r}")
    if out is not None and not isinstance(out, Vector):
        raise DomainMismatch(f"{op}: out must be a semiring.Vector or None, got {type(out).__name__}")
    # vxm(u, A) is the pull over Aᵀ's rows / the push over A's rows; mxv the other way round
    if transpose_a:
        inner, nout, names = A.nrows, A.ncols, ("A.nrows", "u.size")
    else:
        inner, nout, names = A.ncols, A.nrows, ("A.ncols", "u.size")
    if inner != u.size:
        raise DimensionMismatch(f"{op}: {names[0]} (={inner}) must equal {names[1]} (={u.size})")
    if out is not None and out.size != nout:
        raise DimensionMismatch(f"{op}: out.size (={out.size}) must equal {'A.ncols' if transpose_a else 'A.nrows'} (={nout})")
    m = None if mask is None and not complement else \
        as_mask(mask, structure=structure, complement=complement, op=op, size=nout)
    if replace and out is None:
        replace = False  # nothing to replace in an empty output
    device = A.device
    if u.device != device or out is not None or m is not None:
        device = _b.check_same_device(op, A=A, u=u, out=out, mask=m)

    dtype = _t.promote(A.dtype, u.dtype)
    rtype = sr.result_type(dtype)
    allowed = None if m is None else m.allowed()
    be = _backend_module(device)
    if device != "gpu":  # (no CuPy error to translate)
        return _finalize(_product(be, A, u, sr, dtype, rtype, allowed, direction, transpose_a,
                                  nout, device), out, allowed, acc, replace)
    try:  # (a try costs nothing until it catches; the context manager's calls cost ~1 µs)
        return _finalize(_product(be, A, u, sr, dtype, rtype, allowed, direction, transpose_a,
                                  nout, device), out, allowed, acc, replace)
    except Exception as exc:
        _gpu_memory_errors(op, device).__exit__(type(exc), exc, None)
        raise


#: The dtypes a host array may have to be wrapped by :func:`_host_full` (the domains of
#: :mod:`.types`): any other goes through ``as_vector``, which names it.
_HOST_TYPES = frozenset(_t.C_TYPES)


def _host_full(u):
    """A 1-D, C-contiguous NumPy array of a domain type as a full host Vector wrapping it (as
    ``as_vector`` does, without its checks); None for any other array."""
    if u.ndim != 1 or not u.flags.c_contiguous or u.dtype not in _HOST_TYPES:
        return None
    return Vector._bitmap_result(u.shape[0], u.dtype, "cpu", u, None)


def _product(be, A, u, sr, dtype, rtype, allowed, direction, transpose_a, nout, device):
    if direction == "auto":
        direction = "push" if u.form == "sparse" else "pull"
    if direction == "pull":
        M = A.T if transpose_a else A
        vals, pres = u.bitmap()
        if vals.dtype != dtype:
            vals = vals.astype(dtype)
        res = be.pull(M, vals, pres, allowed, sr, dtype, transpose_a)
    else:
        M = A if transpose_a else A.T
        idx, vals = u.sparse(sorted=False)
        res = be.push(M, idx, vals.astype(dtype, copy=False), allowed, sr, dtype, transpose_a)
    if direction == "push":
        T = Vector._result(nout, rtype, device, res[0], res[1], jumbled=not res[2])
    elif device == "gpu":
        T = Vector._bitmap_result(nout, rtype, device, res[0], res[1])
    else:
        T = Vector._result(nout, rtype, device, res[0], res[1])
        if res[0].size == nout:  # every row has an entry (the indices are 0..nout-1): the
            T._bitmap = (res[1], None)  # bitmap form too, no scatter for to_dense / bitmap
    return T


class _gpu_memory_errors:
    """Turn CuPy's out-of-memory error into OutOfMemory with the bytes needed and free."""

    def __init__(self, op, device):
        self.op, self.device = op, device

    def __enter__(self):
        return self

    def __exit__(self, etype, exc, tb):
        if self.device != "gpu" or exc is None:
            return False
        cp = _b._cupy()
        if isinstance(exc, cp.cuda.memory.OutOfMemoryError):
            free, _total = cp.cuda.runtime.memGetInfo()
            needed = getattr(exc, "_size", None)
            raise OutOfMemory(f"{self.op}: the GPU is out of memory: {needed} bytes needed, "
                              f"{free} bytes free (plus {cp.get_default_memory_pool().free_bytes()} "
                              f"cached by CuPy's pool)", needed=needed, free=free) from exc
        return False


def _finalize(T: Vector, out, allowed, accum, replace) -> Vector:
    """out⟨M⟩ ⊙= T (see the module docstring); returns the output vector."""
    if out is None:
        return T  # T already holds entries only where the mask allows
    xp = out.xp
    T = T._cast(out.dtype)
    tv, tp = T.bitmap()
    wv, wp = out.bitmap()
    n = out.size
    ones = xp.ones(n, dtype=bool)
    tp = ones if tp is None else tp
    wp = ones if wp is None else wp
    if accum is not None:
        both = wp & tp
        if out.device == "gpu":
            av = _gpu_spmv.binary_elementwise(accum, out.dtype, wv, tv)
        else:
            av = accum.apply_numpy(wv, tv, out.dtype)
        zv = xp.where(both, av.astype(out.dtype, copy=False), xp.where(tp, tv, wv))
        zp = wp | tp
    else:
        zv, zp = tv, tp
    if allowed is None:
        rv, rp = zv, zp
    else:
        rv = xp.where(allowed, zv, wv)
        rp = xp.where(allowed, zp, False if replace else wp)
    out._assign(Vector(n, out.dtype, out.device, values=rv, present=rp))
    return out


def mxv(A, u, semiring="plus_times", *, out=None, mask=None, accum=None, replace=False,
        structure=False, complement=False, direction="auto") -> Vector:
    """Matrix-vector product w⟨M⟩ ⊙= A ⊕.⊗ u over a semiring.

    w(i) = ⊕_k A(i,k) ⊗ u(k) over the k where both A(i,k) and u(k) are present.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix
    u : Vector, or a 1-D NumPy/CuPy array (a full vector)
    semiring : Semiring or str
        e.g. ``sr.min_plus`` or ``"min_plus"``; default ``plus_times``.
    out : Vector, optional
        The output w, updated in place (its dtype is kept); a new vector when None.
    mask : Vector or Mask, optional
        ``v`` (value mask), ``v.S`` (structural), ``~v.S`` (complemented).
    accum : BinaryOp or str, optional
        Combines existing entries of ``out`` with the result, e.g. ``sr.binary.min``.
    replace : bool
        Clear the entries of ``out`` outside the mask.
    structure, complement : bool
        Use ``mask`` structurally / complemented (the keyword form of ``~v.S``). The three
        flags take ``True`` / ``False`` (or a ``numpy.bool_``) only: anything else, however
        truthy, raises :class:`~semiring.DomainMismatch` (a ``TypeError``), as in every
        operation.
    direction : {'auto', 'push', 'pull'}
        ``'pull'``: one dot product per output row (SpMV over A's rows, with early exit at the
        monoid's terminal value for boolean results and ``any``); ``'push'``: scatter the columns of A selected by u's entries
        (SpMSpV over the cached transpose). ``'auto'`` pushes when u is in sparse form.

    Returns
    -------
    Vector
        ``out`` when given, else a new vector.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 1.0], [2.0, 3.0]])))
    >>> u = sr.Vector.from_coo([0, 1], [10.0, 20.0], size=2)
    >>> sr.mxv(A, u, sr.min_plus).to_dense()
    array([21., 12.])
    >>> sr.mxv(A, u, "plus_times", mask=sr.Vector.from_coo([1], True, size=2)).to_dense(missing=-1)
    array([-1., 80.])
    """
    return _mxv_core("mxv", A, u, semiring, out, mask, accum, replace, structure, complement,
                     direction, False)  # (transpose_a: positional, a keyword costs)


def vxm(u, A, semiring="plus_times", *, out=None, mask=None, accum=None, replace=False,
        structure=False, complement=False, direction="auto") -> Vector:
    """Vector-matrix product w⟨M⟩ ⊙= u ⊕.⊗ A over a semiring.

    w(j) = ⊕_k u(k) ⊗ A(k,j): u's entry is the first operand of the multiply, so
    ``any_secondi`` gives for each j some k (a BFS parent). Keywords as in :func:`mxv`;
    ``'push'`` scatters A's rows selected by u (SpMSpV), ``'pull'`` takes dot products with
    the columns of A (SpMV over the cached transpose).

    Examples
    --------
    One Bellman-Ford relaxation from vertex 0, keeping the better of old and new distances:

    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 4.0, 1.0], [0, 0, 0], [0, 2.0, 0]])))
    >>> d = sr.Vector.from_coo([0], [0.0], size=3)
    >>> sr.vxm(d, A, sr.min_plus, out=d, accum=sr.binary.min).to_dense(missing=np.inf)
    array([0., 4., 1.])
    >>> sr.vxm(d, A, sr.min_plus, out=d, accum=sr.binary.min).to_dense(missing=np.inf)
    array([0., 3., 1.])
    """
    return _mxv_core("vxm", A, u, semiring, out, mask, accum, replace, structure, complement,
                     direction, True)  # (transpose_a)


def _is_dense(x) -> bool:
    """A 2-D NumPy or CuPy array: a full dense matrix operand."""
    return hasattr(x, "ndim") and hasattr(x, "dtype") and hasattr(x, "shape") and x.ndim == 2 \
        and not hasattr(x, "format")


def mxm(A, B, semiring="plus_times", *, out=None, mask=None, accum=None, replace=False,
        structure=False, complement=False, method="auto"):
    """Matrix-matrix product C⟨M⟩ ⊙= A ⊕.⊗ B over a semiring.

    C(i,j) = ⊕_k A(i,k) ⊗ B(k,j) over the k where both entries are present. The operands pick
    the kernel:

    - sparse × sparse (``Matrix``, scipy or cupyx sparse): SpGEMM, a sparse ``Matrix``; a mask
      restricts the products that are formed at all (``C⟨L⟩ = L plus_pair L`` counts
      triangles without forming L·L). Two methods: ``'gustavson'`` expands every product
      A(i,k)·B(k,j) row by row (hash tables on the GPU), skipping those outside the mask;
      ``'dot'`` (SuiteSparse's "dot3", masks that are not complemented only) computes each
      allowed C(i,j) as one dot product of row i of A and column j of B (a row of the cached
      ``B.T``: ``mxm(A, B.T, mask=M, method='dot')`` reads B's rows), at a cost set by the
      mask's entries and the shorter of the two rows;
    - sparse × dense or dense × sparse (a 2-D NumPy/CuPy array, every entry present): SpMM,
      the multi-source building block (a frontier or distance matrix with one column per
      source);
    - dense × dense: the tiled dense semiring product (min-plus squaring for APSP).

    A result with a dense operand is a dense array; where no product exists (an empty row of
    the sparse operand, or an inner dimension of 0) it holds the add monoid's identity (inf for
    ``min_plus``, the natural "no path"). For dense results ``out`` is an array updated in
    place, ``mask`` a boolean array of the result's shape (a value mask; ``complement`` inverts
    it) or a sparse one (``M.S``, ``~M.V``, a ``Matrix``) on the same device, and ``accum``
    combines ``out`` with the products where some exist; ``replace`` has no meaning for a
    full array and is refused. Outside the mask a dense result without ``out`` holds the
    identity, as where no product exists.

    Parameters
    ----------
    A, B : Matrix, scipy/cupyx sparse matrix, or 2-D NumPy/CuPy array
    semiring : Semiring or str
        Default ``plus_times``.
    out : Matrix or array, optional
        The output, updated in place (its dtype is kept).
    mask : Matrix, Mask (``M.S``, ``~M.V``) or bool array (dense results), optional
    accum : BinaryOp or str, optional
    replace : bool
        Sparse results: clear the entries of ``out`` outside the mask.
    structure, complement : bool
        Use ``mask`` structurally / complemented (the keyword form of ``~M.S``).
    method : {'auto', 'gustavson', 'dot'}
        Sparse × sparse only: how T is computed (above). ``'auto'``: ``'dot'`` when the mask
        is present and not complemented and its estimated work is the smaller
        (``DOT_WORK_FACTOR``), else ``'gustavson'``. Both give the same entries (float sums
        may differ in their order).

    Returns
    -------
    Matrix or array

    Examples
    --------
    Triangles of an undirected graph, as a masked ``plus_pair`` product over its lower triangle:

    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> K4 = sr.Matrix.from_dense(np.ones((4, 4)) - np.eye(4), missing=0, device="cpu")
    >>> L = sr.select(K4, "tril", -1)
    >>> C = sr.mxm(L, L, sr.plus_pair, mask=L.S)
    >>> int(sr.reduce_scalar(C))
    4

    The same count by dot products, C⟨L⟩ = L plus.pair Lᵀ (each entry a row of L against a row
    of L):

    >>> int(sr.reduce_scalar(sr.mxm(L, L.T, sr.plus_pair, mask=L.S, method="dot")))
    4

    Two Bellman-Ford steps for two sources at once (dense distances, one column per source):

    >>> A = sr.Matrix.from_coo([0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0], nrows=3, ncols=3, device="cpu")
    >>> D = np.array([[0.0, np.inf], [np.inf, 0.0], [np.inf, np.inf]])   # sources 0 and 1
    >>> D1 = sr.mxm(A.T, D, sr.min_plus, out=D.copy(), accum="min")
    >>> sr.mxm(A.T, D1, sr.min_plus, out=D1, accum="min")
    array([[ 0., inf],
           [ 1.,  0.],
           [ 2.,  1.]])
    """
    op = "mxm"
    replace, structure, complement = check_flags(op, replace=replace, structure=structure,
                                                 complement=complement)
    sr_ = lookup("semiring", semiring, op=op, arg="semiring")
    acc = None if accum is None else lookup("binary", accum, op=op, arg="accum")
    if acc is not None and acc.positional:
        raise DomainMismatch(f"{op}: accum must not be a positional op, got {acc.name}")
    if method not in MXM_METHODS:
        raise InvalidValue(f"{op}: method must be one of {MXM_METHODS}, got {method!r}")
    dense_a, dense_b = _is_dense(A), _is_dense(B)
    for arg, X, dense in (("A", A, dense_a), ("B", B, dense_b)):
        if dense:  # (named as the caller knows it, not as the dense kernels' "X")
            _t.lookup_dtype(X.dtype, op=op, arg=f"{arg}.dtype")
    if method != "auto" and (dense_a or dense_b):
        raise InvalidValue(f"{op}: method={method!r} is for sparse x sparse products; a "
                           f"product with a dense operand takes method='auto'")
    if not dense_a:
        A = as_matrix(A, op=op, arg="A")
    if not dense_b:
        B = as_matrix(B, op=op, arg="B")
    if A.shape[1] != B.shape[0]:
        raise DimensionMismatch(f"{op}: A.ncols (={A.shape[1]}) must equal B.nrows (={B.shape[0]})")
    shape = (A.shape[0], B.shape[1])
    if not (dense_a or dense_b):  # (the result's entries are addressed by int64 keys)
        _check_key_space(op, *shape)
    if dense_a or dense_b:
        return _mxm_dense(op, A, B, dense_a, dense_b, sr_, shape, out, mask, acc, replace,
                          structure, complement)
    if out is not None:
        if not isinstance(out, Matrix):
            raise DomainMismatch(f"{op}: out must be a semiring.Matrix for a sparse product, got {type(out).__name__}")
        if out.shape != shape:
            raise DimensionMismatch(f"{op}: out.shape (={out.shape}) must equal (A.nrows, B.ncols) (={shape})")
    m = as_matrix_mask(mask, structure=structure, complement=complement, op=op, shape=shape)
    device = _b.check_same_device(op, A=A, B=B, out=out, mask=m)
    dtype = _t.promote(A.dtype, B.dtype)
    if method == "dot" and (m is None or m.complement):
        raise InvalidValue(f"{op}: method='dot' needs a mask that is not complemented (the "
                           f"entries to compute), got "
                           f"{'no mask' if m is None else 'a complemented mask'}")
    with _gpu_memory_errors(op, device):
        pattern = None if m is None else m.pattern()
        if method == "dot" or (method == "auto" and m is not None and not m.complement
                               and _dot_pays(A, B, pattern)):
            # T⟨M⟩ = A ⊕.⊗ B, C(i,j) = A(i,:) · Bᵀ(j,:)   (Bᵀ cached on B)
            T = dot3(A, B.T, sr_, dtype, mask=pattern)
        else:
            T = spgemm(A, B, sr_, dtype, mask=pattern,
                       complement=False if m is None else m.complement)
        return finalize_matrix(T, out, m, acc, replace and out is not None, t_masked=True)


def _dot_pays(A, B, M) -> bool:
    """mxm's method='auto' for a non-complemented mask M: whether the dot products' work
    (nnz(M) + Σ over M's entries of min(|A(i,:)|, |B(:,j)|), plus nnz(B) when Bᵀ is not
    cached) times
    DOT_WORK_FACTOR is below Gustavson's products Σ_k |A(:,k)| |B(k,:)|. One host sync."""
    xp = A.xp
    if M.nvals == 0 or A.nvals == 0 or B.nvals == 0:
        return False
    alen = xp.diff(A.indptr).astype(xp.int64)
    if B.transpose_is_self or B._T is not None:
        bcol = xp.diff(B.T.indptr).astype(xp.int64)
        extra = 0
    else:
        bcol = xp.bincount(B.indices.astype(xp.int64), minlength=B.ncols)
        extra = B.nvals
    acol = xp.bincount(A.indices.astype(xp.int64), minlength=A.ncols)
    brow = xp.diff(B.indptr).astype(xp.int64)
    mrows = xp.repeat(xp.arange(M.nrows, dtype=xp.int64), xp.diff(M.indptr).astype(xp.int64)) \
        if xp is np else xp.searchsorted(M.indptr[1:].astype(xp.int64),
                                         xp.arange(M.nvals, dtype=xp.int64), side="right")
    work = xp.minimum(alen[mrows], bcol[M.indices.astype(xp.int64)]).sum()
    flops = (acol * brow).sum()
    w, f = (int(v) for v in xp.stack([work, flops]).tolist())
    return DOT_WORK_FACTOR * (M.nvals + w + extra) < f


def _mxm_dense(op, A, B, dense_a, dense_b, sr_, shape, out, mask, acc, replace, structure,
               complement):
    if replace:
        raise InvalidValue(f"{op}: replace=True needs a sparse result; a product with a dense operand is a full array")
    dense = A if dense_a else B
    device = _b.device_of_array(dense)
    xp = _b.xp_of(device)
    if out is not None and (not hasattr(out, "ndim") or out.shape != shape or type(out) is not xp.ndarray):
        # (a wrong shape is a DimensionMismatch, as for a sparse product's out)
        err = DimensionMismatch if type(out) is xp.ndarray else DomainMismatch
        raise err(f"{op}: out must be a {xp.__name__} array of shape {shape} for a "
                  f"product with a dense operand, got {type(out).__name__} "
                  f"{getattr(out, 'shape', '')}")
    if isinstance(mask, np.ndarray) or _b.is_cupy_array(mask):
        # a bool array of the result's shape: a value mask over a full result
        if type(mask) is not xp.ndarray or mask.shape != shape:
            err = DimensionMismatch if type(mask) is xp.ndarray else DomainMismatch
            raise err(f"{op}: mask must be a {xp.__name__} array of shape {shape} for a "
                      f"product with a dense operand, or a Matrix / M.S / ~M.V, got "
                      f"{type(mask).__name__} {getattr(mask, 'shape', '')}")
        if structure:
            raise DomainMismatch(f"{op}: structure=True needs a sparse mask (a Matrix or M.S); "
                                 f"every entry of a {xp.__name__} array is present, so it is "
                                 f"used by value")
        allowed = mask.astype(bool) if mask.dtype != bool else mask
        if complement:
            allowed = ~allowed
    elif mask is not None:
        # a Matrix mask (M.S, ~M.V, ...): its allowed set, densified to the result's shape,
        # which is dense anyway

        m = as_matrix_mask(mask, structure=structure, complement=complement, op=op, shape=shape)
        if m.device != device:
            raise DeviceMismatch(f"{op}: the dense operand is on the {device.upper()} but mask is on "
                                 f"the {m.device.upper()}; move one explicitly with .to_gpu() or "
                                 f".to_cpu()")
        allowed = xp.zeros(shape, dtype=bool)
        allowed.reshape(-1)[m.keys()] = True
        if m.complement:
            allowed = ~allowed
    elif complement:
        raise DomainMismatch(f"{op}: complement=True needs a mask")
    else:
        allowed = None
    dtype = _t.promote(A.dtype, B.dtype)
    with _gpu_memory_errors(op, device):
        if dense_a and dense_b:
            # every entry of a dense product has products, unless the inner dimension is 0
            T = gemm(A, B, sr_, dtype)
            present = None if A.shape[1] else xp.zeros(shape, dtype=bool)
        elif dense_b:
            T, present = spmm(A, B, sr_, dtype, want_present=out is not None)
        else:  # X ⊕.⊗ A = ((Aᵀ) ⊕.⊗ Xᵀ)ᵀ with X's value first in the multiply
            T, present = spmm(B.T, xp.ascontiguousarray(A.T), sr_, dtype, xfirst=True,
                              want_present=out is not None)
            T = xp.ascontiguousarray(T.T)
            present = None if present is None else present.T
        if out is None:
            if allowed is None:
                return T
            # outside the mask the result has no entries: the identity, as for no product
            return xp.where(allowed, T, xp.asarray(sr_.add.identity_of(T.dtype), dtype=T.dtype))
        # without accum the mask alone says what is written (the identity where no product);
        # with it, only where products exist: out keeps its value where T has no entry
        write = allowed
        if acc is not None:
            if present is not None:
                write = present if allowed is None else allowed & present
            if device == "gpu":
                T = _gpu_spmv.binary_elementwise(acc, out.dtype, out, _t.cast(T, out.dtype))
            else:
                T = acc.apply_numpy(out, _t.cast(T, out.dtype), out.dtype)
        T = _t.cast(T, out.dtype)
        if write is None:
            out[...] = T
        else:
            xp.copyto(out, T, where=write)
        return out
