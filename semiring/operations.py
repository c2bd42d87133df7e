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


from . import _backend as _b
from . import types as _t
from .errors import DimensionMismatch, DomainMismatch, InvalidValue, OutOfMemory
from .mask import as_mask
from .matrix import as_matrix
from .ops import lookup
from .vector import Vector, as_vector

DIRECTIONS = ("auto", "push", "pull")


def _backend_module(device):
    if device == "gpu":
        from . import _gpu  # noqa: PLC0415

        return _gpu
    from . import _cpu  # noqa: PLC0415

    return _cpu


def _mxv_core(op, A, u, semiring, out, mask, accum, replace, structure, complement, direction,
              transpose_a):
    A = as_matrix(A, op=op, arg="A")
    u = as_vector(u, op=op, arg="u")
    sr = lookup("semiring", semiring, op=op, arg="semiring")
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
    m = as_mask(mask, structure=structure, complement=complement, op=op, size=nout)
    if replace and out is None:
        replace = False  # nothing to replace in an empty output
    device = _b.check_same_device(op, A=A, u=u, out=out, mask=m)

    dtype = _t.promote(A.dtype, u.dtype)
    rtype = sr.result_type(dtype)
    allowed = None if m is None else m.allowed()
    be = _backend_module(device)
    with _gpu_memory_errors(op, device):
        return _finalize(_product(be, A, u, sr, dtype, rtype, allowed, direction, transpose_a,
                                  nout, device), out, allowed, acc, replace)


def _product(be, A, u, sr, dtype, rtype, allowed, direction, transpose_a, nout, device):
    if direction == "auto":
        direction = "push" if u.form == "sparse" else "pull"
    if direction == "pull":
        M = A.T if transpose_a else A
        vals, pres = u.bitmap()
        res = be.pull(M, vals.astype(dtype, copy=False), pres, allowed, sr, dtype, transpose_a)
    else:
        M = A if transpose_a else A.T
        idx, vals = u.sparse(sorted=False)
        res = be.push(M, idx, vals.astype(dtype, copy=False), allowed, sr, dtype, transpose_a)
    if direction == "push":
        T = Vector(nout, rtype, device, indices=res[0], svalues=res[1], jumbled=not res[2])
    elif device == "gpu":
        T = Vector(nout, rtype, device, values=res[0], present=res[1])
    else:
        T = Vector(nout, rtype, device, indices=res[0], svalues=res[1])
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
            from . import _gpu  # noqa: PLC0415

            av = _gpu.binary_elementwise(accum, out.dtype, wv, tv)
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
        Use ``mask`` structurally / complemented (the keyword form of ``~v.S``).
    direction : {'auto', 'push', 'pull'}
        ``'pull'``: one dot product per output row (SpMV over A's rows, with early exit at the
        monoid's terminal value); ``'push'``: scatter the columns of A selected by u's entries
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
                     direction, transpose_a=False)


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
                     direction, transpose_a=True)
