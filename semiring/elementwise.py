"""Eager element-wise and structural operations on matrices and vectors, GraphBLAS style.

Every operation computes a result T and then updates its output as ``mxv`` does (see
:mod:`semiring.operations`): out⟨M⟩ ⊙= T with a mask M (a Matrix mask for matrix outputs, a
Vector mask for vector outputs: ``M.S``, ``~M.V``, or the ``structure=``/``complement=``
keywords), an accumulator ⊙ and ``replace``. Without ``out`` the result is a new object holding
T where the mask allows. A missing entry is not a zero: only stored entries take part.

- :func:`ewise_add` (union), :func:`ewise_mult` (intersection); also ``a | b`` and ``a & b``
  evaluated by an op: ``sr.binary.min(a | b)``, ``(a & b).new()``.
- :func:`apply` (a :class:`~semiring.ops.UnaryOp`, or a BinaryOp bound to a scalar),
  :func:`select` (keep entries by position or value), :func:`transpose`.
- :func:`reduce_rows`, :func:`reduce_cols` (Matrix → Vector), :func:`reduce_scalar`
  (Matrix or Vector → scalar; the monoid's identity when there are no entries).
- :func:`extract` (sub-matrix / sub-vector), :func:`assign` (GrB_assign).

Everything is sparse on both backends: entries are addressed by int64 keys ``i * ncols + j``
(sorted in CSR order), merged with ``searchsorted``; nothing makes an n × n dense array.

Examples
--------
>>> import numpy as np, semiring as sr
>>> A = sr.Matrix.from_coo([0, 1], [1, 0], [2.0, 3.0], nrows=2, ncols=2)
>>> B = sr.Matrix.from_coo([0, 1], [1, 1], [5.0, 7.0], nrows=2, ncols=2)
>>> sr.ewise_add(A, B, "min").to_dense(missing=0)
array([[0., 2.],
       [3., 7.]])
>>> sr.binary.times(A & B).to_dense(missing=0)
array([[ 0., 10.],
       [ 0.,  0.]])
>>> sr.reduce_rows(A, "plus").to_dense(missing=0)
array([2., 3.])
"""

from __future__ import annotations

import numpy as np

from . import device as _b
from . import types as _t
from ._mfinalize import (matrix_from_keys, apply_binary, apply_unary, entries, finalize, match, positions,
                         rebuild, union)
from .errors import (DimensionMismatch, DomainMismatch, DuplicateIndices, InvalidIndex,
                     InvalidValue, check_flags)
from .mask import as_mask, as_matrix_mask
from .matrix import Matrix, as_matrix, index_type
from . import _operand
from . import ops as _ops
from .backend.gpu import spmv as _gpu_spmv
from .operations import _gpu_memory_errors
from .ops import _BINARY, _UNARY, BinaryOp, Monoid, lookup
from .vector import Vector, as_vector

# ---------------------------------------------------------------------- argument handling


def _container(x, op, arg):
    """A Matrix or a Vector (scipy/cupyx sparse matrices and 1-D arrays are wrapped)."""
    if isinstance(x, (Matrix, Vector)):
        return x
    if (isinstance(x, np.ndarray) or _b.is_cupy_array(x)) and x.ndim == 1:
        return as_vector(x, op=op, arg=arg)
    try:
        return as_matrix(x, op=op, arg=arg)
    except DomainMismatch:
        raise DomainMismatch(f"{op}: {arg} must be a semiring.Matrix or semiring.Vector (or a "
                             f"scipy/cupyx sparse matrix, a 1-D array), got {type(x).__name__}") from None


def _real_scalar(op, arg, value):
    """Refuse a bound scalar (``left=``/``right=`` of apply, select's thunk, assign's value)
    that is not one real number: NumPy would drop a complex one's imaginary part with a
    warning and fail on a string far from the argument's name."""
    if _b.is_cupy_array(value) or np.ndim(value) != 0:
        raise DomainMismatch(f"{op}: {arg} must be a scalar, got {type(value).__name__} of "
                             f"shape {np.shape(value)}")
    kind = np.asarray(value).dtype.kind
    if kind == "O" and isinstance(value, int):  # (NumPy holds it as an object: no domain does)
        raise DomainMismatch(f"{op}: {arg} must be an integer in [-2**63, 2**64), got {value!r}")
    if kind not in "biuf":
        raise DomainMismatch(f"{op}: {arg} must be a real number (bool, integer or float), "
                             f"got {value!r}")


def _shape_name(x):
    return "shape" if isinstance(x, Matrix) else "size"


def _shape_of(x):
    return x.shape if isinstance(x, Matrix) else x.size


def _same_kind(op, a, b, names=("a", "b")):
    if isinstance(a, Matrix) != isinstance(b, Matrix):
        raise DomainMismatch(f"{op}: {names[0]} and {names[1]} must both be matrices or both vectors, "
                             f"got {type(a).__name__} and {type(b).__name__}")
    if _shape_of(a) != _shape_of(b):
        s = _shape_name(a)
        raise DimensionMismatch(f"{op}: {names[0]}.{s} (={_shape_of(a)}) must equal {names[1]}.{s} (={_shape_of(b)})")


def _output(op, like_matrix, shape, out, mask, accum, replace, structure, complement, **operands):
    """Validate out / mask / accum against the result's kind and shape; returns
    (mask, accum, replace, device)."""
    replace, structure, complement = check_flags(op, replace=replace, structure=structure,
                                                 complement=complement)
    kind = Matrix if like_matrix else Vector
    if out is not None:
        if not isinstance(out, kind):
            raise DomainMismatch(f"{op}: out must be a semiring.{kind.__name__} or None, got {type(out).__name__}")
        if _shape_of(out) != shape:
            s = _shape_name(out)
            raise DimensionMismatch(f"{op}: out.{s} (={_shape_of(out)}) must equal the result {s} (={shape})")
    if like_matrix:
        m = as_matrix_mask(mask, structure=structure, complement=complement, op=op, shape=shape)
    else:
        m = as_mask(mask, structure=structure, complement=complement, op=op, size=shape)
    acc = None if accum is None else lookup("binary", accum, op=op, arg="accum")
    if acc is not None and acc.positional:
        raise DomainMismatch(f"{op}: accum must not be a positional op, got {acc.name}")
    if replace and out is None:
        replace = False
    device = _b.check_same_device(op, out=out, mask=m, **operands)
    return m, acc, replace, device


def _finish(op, device, T, out, m, acc, replace):

    with _gpu_memory_errors(op, device):
        return finalize(T, out, m, acc, replace)


def _binary_op(op, arg, value):
    if isinstance(value, Monoid):
        return value.op
    return lookup("binary", value, op=op, arg=arg)


# ---------------------------------------------------------------------- ewise_add / ewise_mult


def ewise_add(a, b, op="plus", *, out=None, mask=None, accum=None, replace=False,
              structure=False, complement=False):
    """Union: T = a ⊕ b, with ``op(a, b)`` where both have an entry and the one present
    elsewhere (cast to the result type), GraphBLAS eWiseAdd.

    Parameters
    ----------
    a, b : Matrix or Vector (of the same shape)
    op : BinaryOp, Monoid or str
        Default ``plus`` (on bool: logical or). Positional ops are refused (an entry present in
        one operand only has no second position).
    out, mask, accum, replace, structure, complement
        As in :func:`semiring.mxv`; the mask is a Matrix (or ``M.S`` ...) for matrices.

    Returns
    -------
    Matrix or Vector
        ``out`` when given. The type is ``op``'s result type over the common domain of a, b.

    Examples
    --------
    >>> import semiring as sr
    >>> u = sr.Vector.from_coo([0, 2], [1, 5], size=4)
    >>> v = sr.Vector.from_coo([2, 3], [10, 20], size=4)
    >>> sr.ewise_add(u, v).to_dense(missing=-1)
    array([ 1, -1, 15, 20])
    """
    name = "ewise_add"
    a, b = _container(a, name, "a"), _container(b, name, "b")
    bop = _binary_op(name, "op", op)
    if bop.positional:
        raise DomainMismatch(f"{name}: op must not be positional (an entry of one operand only has no "
                             f"position in the other), got {bop.name}")
    _same_kind(name, a, b)
    m, acc, replace, device = _output(name, isinstance(a, Matrix), _shape_of(a), out, mask, accum,
                                      replace, structure, complement, a=a, b=b)
    dom = _t.promote(a.dtype, b.dtype)
    rt = bop.result_type(dom)
    xp = a.xp
    (ka, va), (kb, vb) = entries(a), entries(b)
    u, pa, pb = union(ka, kb)
    vals = xp.empty(u.size, dtype=rt)
    ina, inb = pa >= 0, pb >= 0
    aonly, bonly = xp.flatnonzero(ina & ~inb), xp.flatnonzero(inb & ~ina)
    vals[aonly] = va[pa[aonly]].astype(rt)
    vals[bonly] = vb[pb[bonly]].astype(rt)
    both = xp.flatnonzero(ina & inb)
    if both.size:
        vals[both] = apply_binary(bop, dom, va[pa[both]], vb[pb[both]], device, int(both.size))
    return _finish(name, device, rebuild(a, u, vals, rt), out, m, acc, replace)


def ewise_mult(a, b, op="times", *, out=None, mask=None, accum=None, replace=False,
               structure=False, complement=False):
    """Intersection: T = a ⊗ b, ``op(a, b)`` where both have an entry (GraphBLAS eWiseMult).

    ``op`` is a BinaryOp, Monoid or name (default ``times``; on bool: logical and);
    positional ops (``firsti`` ...) give the entry's coordinates. Other keywords as in
    :func:`ewise_add`.

    Examples
    --------
    >>> import semiring as sr
    >>> u = sr.Vector.from_coo([0, 2], [1, 5], size=4)
    >>> v = sr.Vector.from_coo([2, 3], [10, 20], size=4)
    >>> sr.ewise_mult(u, v).to_dense(missing=-1)
    array([-1, -1, 50, -1])
    """
    name = "ewise_mult"
    a, b = _container(a, name, "a"), _container(b, name, "b")
    bop = _binary_op(name, "op", op)
    _same_kind(name, a, b)
    m, acc, replace, device = _output(name, isinstance(a, Matrix), _shape_of(a), out, mask, accum,
                                      replace, structure, complement, a=a, b=b)
    dom = _t.promote(a.dtype, b.dtype)
    rt = bop.result_type(dom)
    (ka, va), (kb, vb) = entries(a), entries(b)
    ia, ib = match(ka, kb)
    k = ka[ia]
    pos = None
    if bop.positional:
        i, j = positions(a, k)
        pos = (i, j, i, j)
    vals = apply_binary(bop, dom, va[ia], vb[ib], device, int(k.size), pos)
    return _finish(name, device, rebuild(a, k, vals, rt), out, m, acc, replace)


class EwiseExpr:
    """A deferred ``a | b`` (union, :func:`ewise_add`) or ``a & b`` (intersection,
    :func:`ewise_mult`); evaluate it by calling a BinaryOp or Monoid on it
    (``sr.binary.min(a | b)``, ``sr.monoid.plus(a | b, mask=M.S)``) or with :meth:`new`.

    Default ops: ``|`` is ``plus`` and ``&`` is ``times``, the defaults of the eager
    functions (on bool they are logical or / and). Shape, kind and device errors are raised
    when the expression is built.

    Examples
    --------
    >>> import semiring as sr
    >>> u = sr.Vector.from_coo([0, 1], [3, 4], size=3)
    >>> v = sr.Vector.from_coo([1, 2], [1, 9], size=3)
    >>> sr.binary.max(u | v).to_dense(missing=0), (u & v).new().to_dense(missing=0)
    (array([3, 4, 9]), array([0, 4, 0]))
    """

    def __init__(self, kind, a, b):
        sym = "|" if kind == "add" else "&"
        op = f"a {sym} b"
        a, b = _container(a, op, "a"), _container(b, op, "b")
        _same_kind(op, a, b)
        _b.check_same_device(op, a=a, b=b)
        self.kind, self.a, self.b = kind, a, b

    @property
    def shape(self):
        return self.a.shape

    def new(self, op=None, **kwargs):
        """Evaluate with ``op`` (default: ``plus`` for ``|``, ``times`` for ``&``) and the
        keywords of :func:`ewise_add` / :func:`ewise_mult`."""
        if self.kind == "add":
            return ewise_add(self.a, self.b, "plus" if op is None else op, **kwargs)
        return ewise_mult(self.a, self.b, "times" if op is None else op, **kwargs)

    def __repr__(self):
        return f"<EwiseExpr {'|' if self.kind == 'add' else '&'} shape={self.shape}>"


def evaluate_ewise(expr, op, **kwargs):
    if not isinstance(expr, EwiseExpr):
        raise DomainMismatch(f"{op.name}(...): expected an element-wise expression such as a | b "
                             f"or a & b, got {type(expr).__name__}")
    return expr.new(op, **kwargs)


# ---------------------------------------------------------------------- apply


def apply(a, op, *, left=None, right=None, out=None, mask=None, accum=None, replace=False,
          structure=False, complement=False):
    """T = op(a) entry by entry: a :class:`~semiring.ops.UnaryOp` (``identity``, ``ainv``,
    ``abs``, ``minv``, ``lnot``, ``one``, positional ``rowindex`` / ``colindex``), or a
    BinaryOp with a scalar bound on the left (``op(left, a)``) or the right (``op(a, right)``).

    The domain is a's type (promoted with the bound scalar's; Python scalars do not widen it).
    Keywords as in :func:`ewise_add`.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1], [1, 0], [2, -3], nrows=2, ncols=2)
    >>> sr.apply(A, "abs").to_dense(missing=0)
    array([[0, 2],
           [3, 0]])
    >>> sr.apply(A, "plus", right=10).to_dense(missing=0)
    array([[ 0, 12],
           [ 7,  0]])
    >>> sr.apply(A, "rowindex").to_dense(missing=-1)
    array([[-1,  0],
           [ 1, -1]])
    """
    name = "apply"
    a = _container(a, name, "a")
    if left is not None and right is not None:
        raise InvalidValue(f"{name}: give at most one of left= and right=, got both")
    bound = left if left is not None else right
    if bound is None:
        if isinstance(op, (BinaryOp, Monoid)) or (isinstance(op, str) and op not in _unary_names()
                                                   and op in _binary_names()):
            raise DomainMismatch(f"{name}: op {getattr(op, 'name', op)!r} is a binary op: bind a scalar "
                                 f"with left= or right=")
        uop = lookup("unary", op, op=name, arg="op")
    else:
        uop = None
        bop = _binary_op(name, "op", op)
        _real_scalar(name, "left" if left is not None else "right", bound)
    m, acc, replace, device = _output(name, isinstance(a, Matrix), _shape_of(a), out, mask, accum,
                                      replace, structure, complement, a=a)
    k, v = entries(a)
    n = int(k.size)
    if uop is not None:
        dom = a.dtype
        pos = positions(a, k) if uop.positional else None
        vals = apply_unary(uop, dom, v, device, n, pos)
        rt = uop.result_type(dom)
    else:
        dom = _t.promote(np.result_type(a.dtype, bound))
        rt = bop.result_type(dom)
        pos = None
        if bop.positional:
            i, j = positions(a, k)
            pos = (i, j, i, j)
        s = np.asarray(bound).astype(dom)[()]
        x, y = (s, v) if left is not None else (v, s)
        vals = apply_binary(bop, dom, x, y, device, n, pos)
    return _finish(name, device, rebuild(a, k, vals, rt), out, m, acc, replace)


def _unary_names():
    return _UNARY


def _binary_names():
    return _BINARY


# ---------------------------------------------------------------------- select

#: value ⋄ t for every value of an integer type, where the integer t lies above the type's
#: range (below it: the negation, eq and ne aside)
_ABOVE_ALL = {"less": True, "less_equal": True, "greater": False, "greater_equal": False,
              "equal": False, "not_equal": True}


def _cmp(ufunc_name):
    def f(xp, i, j, v, thunk):
        dom = _t.promote(np.result_type(v.dtype, thunk))
        if dom.kind in "biu" and isinstance(thunk, (int, np.integer)) \
                and not isinstance(thunk, (bool, np.bool_)):
            # NumPy's promotion keeps a Python int "weak" (int32 values, thunk 2**31: int32),
            # and its cast into that type wrapped (valuelt 2**31 kept no entry); compare it
            # where it fits, as NumPy's own comparisons do
            t = int(thunk)
            if not np.iinfo(dom).min <= t <= np.iinfo(dom).max:
                if np.iinfo(_t.INT64).min <= t <= np.iinfo(_t.INT64).max:
                    dom = _t.INT64
                else:  # beyond every domain: the same answer for every value
                    r = _ABOVE_ALL[ufunc_name]
                    if t < 0 and ufunc_name not in ("equal", "not_equal"):
                        r = not r
                    return xp.full(v.shape, r, dtype=bool)
        return getattr(xp, ufunc_name)(v.astype(dom, copy=False), np.asarray(thunk).astype(dom)[()])
    return f


#: Select ops: name -> (thunk kind, keep(xp, i, j, values, thunk) -> bool array). Thunk kinds:
#: 'offset' (an integer, default 0: the diagonal k as in SuiteSparse GrB_TRIL etc.),
#: 'index' (an integer, required), 'value' (a scalar, required), None (no thunk).
SELECT_OPS = {
    "tril": ("offset", lambda xp, i, j, v, k: j <= i + k),
    "triu": ("offset", lambda xp, i, j, v, k: j >= i + k),
    "diag": ("offset", lambda xp, i, j, v, k: j == i + k),
    "offdiag": ("offset", lambda xp, i, j, v, k: j != i + k),
    "rowle": ("index", lambda xp, i, j, v, k: i <= k),
    "rowgt": ("index", lambda xp, i, j, v, k: i > k),
    "colle": ("index", lambda xp, i, j, v, k: j <= k),
    "colgt": ("index", lambda xp, i, j, v, k: j > k),
    "nonzero": (None, lambda xp, i, j, v, k: v != 0),
    "zero": (None, lambda xp, i, j, v, k: v == 0),
    "valueeq": ("value", _cmp("equal")),
    "valuene": ("value", _cmp("not_equal")),
    "valuelt": ("value", _cmp("less")),
    "valuele": ("value", _cmp("less_equal")),
    "valuegt": ("value", _cmp("greater")),
    "valuege": ("value", _cmp("greater_equal")),
}


def select(a, op, thunk=None, *, out=None, mask=None, accum=None, replace=False,
           structure=False, complement=False):
    """T = the entries of ``a`` that ``op`` keeps (GraphBLAS GrB_select).

    Parameters
    ----------
    a : Matrix or Vector
        A vector's entry i sits at (i, 0), as in an n × 1 matrix.
    op : str
        Position: ``'tril'`` (j <= i + k), ``'triu'`` (j >= i + k), ``'diag'`` (j == i + k),
        ``'offdiag'`` (j != i + k), with ``thunk`` = k (default 0, SuiteSparse's
        convention); ``'rowle'``, ``'rowgt'``, ``'colle'``, ``'colgt'`` (i <= thunk, ...).
        Value: ``'valueeq'``, ``'valuene'``, ``'valuelt'``, ``'valuele'``, ``'valuegt'``,
        ``'valuege'`` (value ⋄ thunk, compared in the common type of a and thunk; NaN
        compares false but for ``valuene``), ``'nonzero'``, ``'zero'`` (no thunk).
    thunk : scalar, optional

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_dense(np.array([[1, 2], [3, 4]]))
    >>> sr.select(A, "triu").to_dense(missing=0)
    array([[1, 2],
           [0, 4]])
    >>> sr.select(A, "valuele", 2).to_dense(missing=0)
    array([[1, 2],
           [0, 0]])
    """
    name = "select"
    a = _container(a, name, "a")
    if not isinstance(op, str) or op not in SELECT_OPS:  # (a list or dict is unhashable)
        raise InvalidValue(f"{name}: op must be one of {sorted(SELECT_OPS)}, got {op!r}")
    tkind, keepf = SELECT_OPS[op]
    if thunk is not None:
        _real_scalar(name, "thunk", thunk)
    if tkind is None and thunk is not None:
        raise InvalidValue(f"{name}: op {op!r} takes no thunk, got {thunk!r}")
    if tkind in ("index", "value") and thunk is None:
        raise InvalidValue(f"{name}: op {op!r} needs a thunk (got None)")
    if tkind in ("offset", "index"):
        thunk = 0 if thunk is None else thunk
        if isinstance(thunk, (bool, np.bool_)) or np.asarray(thunk).dtype.kind not in "iu":
            raise DomainMismatch(f"{name}: thunk of {op!r} must be an integer, got {thunk!r}")
        thunk = int(thunk)
        # past the shape every k selects as the nearest one inside it does; the clamp keeps
        # i + k in int64 (tril at k = 2**63 - 1 wrapped and dropped rows past 0; 2**63 raised
        # Python's bare OverflowError)
        nrows, ncols = a.shape if isinstance(a, Matrix) else (a.size, 1)
        lo, hi = {"offset": (-nrows, ncols)}.get(tkind, (-1, nrows if op.startswith("row")
                                                         else ncols))
        thunk = min(max(thunk, lo), hi)
    m, acc, replace, device = _output(name, isinstance(a, Matrix), _shape_of(a), out, mask, accum,
                                      replace, structure, complement, a=a)
    k, v = entries(a)
    i, j = positions(a, k)
    keep = keepf(a.xp, i, j, v, thunk)
    return _finish(name, device, rebuild(a, k[keep], v[keep], a.dtype), out, m, acc, replace)


# ---------------------------------------------------------------------- reduce


def _monoid(name, monoid):
    return lookup("monoid", monoid, op=name, arg="monoid")


def _reduce_domain(mono, dtype):
    # a monoid whose op yields bool (lor, land, lxor) works in bool: values are cast first,
    # as GraphBLAS casts the input to the monoid's type
    return _t.BOOL if mono.op.result == "bool" else np.dtype(dtype)


#: Rows longer than this are reduced on the GPU by pairwise halving (log2(longest row) passes
#: over the entries) instead of one thread folding each row (one launch, but serial per row).
LONG_SEGMENT = 256


def _segment_reduce(mono, values, starts, device, matrix=None, rows=None):
    """⊕ of each segment of ``values`` from ``starts`` (non-empty segments). ``matrix``, with
    ``rows``: the Matrix whose non-empty rows ``rows`` these segments are, if they are."""
    if device == "gpu":
        xp = _b.xp_of(device)
        lengths = xp.diff(xp.concatenate([starts, xp.asarray([values.size], dtype=xp.int64)]))
        if int(lengths.max()) > LONG_SEGMENT:
            if matrix is not None:
                red = _rows_by_pull(mono, matrix, values.dtype)
                if red is not None:
                    return red[rows]
            return _segment_tree_reduce(mono.op, values.dtype, values, starts, device)
        return _gpu_spmv.segment_fold(mono.op, values, starts)
    return mono.reduce_segments(values, starts)


def _rows_by_pull(mono, A, dom):
    """w(i) = ⊕_j A(i, j) ⊗ x(j) with ⊗ = first: the rows' reductions by the SpMV pull kernel
    (rows binned by length, a long row by a whole block), where the table has the semiring
    ``<monoid>_first``; dense over A's rows (an empty row's slot undefined). None where it
    does not apply."""
    s = _ops._SEMIRING.get(f"{mono.name}_first")
    if s is None or s.add is not mono or np.dtype(A.dtype) != np.dtype(dom):
        return None
    xp = _b.xp_of("gpu")
    x = xp.zeros(A.ncols, dtype=dom)          # first ignores x: any values, all present
    out, _ = _gpu_spmv.pull(A, x, None, None, s, dom, False)
    return out


def _segment_tree_reduce(op, dom, values, starts, device):
    """⊕ of each non-empty segment ``values[starts[s]:starts[s+1]]`` by pairwise halving: each
    pass combines entries 2t and 2t+1 of a segment, so the longest row takes log2 passes and
    every pass is a handful of elementwise launches over what is left."""
    xp = _b.xp_of(device)
    v = values
    n = int(v.size)
    lengths = xp.diff(xp.concatenate([starts, xp.asarray([n], dtype=xp.int64)]))
    starts = starts.astype(xp.int64)
    while n > starts.size:
        seg = xp.searchsorted(starts, xp.arange(n, dtype=xp.int64), side="right") - 1
        pos = xp.arange(n, dtype=xp.int64) - starts[seg]
        left = xp.flatnonzero(pos % 2 == 0)
        pair = left[(pos[left] + 1) < lengths[seg[left]]]
        nv = v[left]
        if pair.size:
            z = apply_binary(op, dom, v[pair], v[pair + 1], device, int(pair.size))
            # pair is a subsequence of left: its slots in nv by searchsorted
            nv[xp.searchsorted(left, pair)] = z.astype(dom, copy=False)
        v = nv
        lengths = (lengths + 1) // 2
        starts = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(lengths)[:-1]])
        n = int(v.size)
    return v


def _reduce_rows_of(name, A, mono, out, mask, accum, replace, structure, complement, orig):
    m, acc, replace, device = _output(name, False, A.nrows, out, mask, accum, replace, structure,
                                      complement, A=orig)
    xp = A.xp
    dom = _reduce_domain(mono, A.dtype)
    indptr = A.indptr.astype(xp.int64)
    rows = xp.flatnonzero(indptr[1:] > indptr[:-1]).astype(xp.int64)
    vals = A._full_values().astype(dom, copy=False)
    red = (_segment_reduce(mono, vals, indptr[rows], device, matrix=A, rows=rows) if rows.size
           else vals[:0])
    T = Vector(A.nrows, dom, device, indices=rows, svalues=red.astype(dom, copy=False))
    return _finish(name, device, T, out, m, acc, replace)


def reduce_rows(A, monoid="plus", *, out=None, mask=None, accum=None, replace=False,
                structure=False, complement=False) -> Vector:
    """w(i) = ⊕_j A(i, j) over the entries of row i; rows without entries have none.

    ``monoid``: a Monoid or name (``plus``, ``min``, ``max``, ``times``, ``any``, ``lor``, ...).
    The result type is A's (bool for ``lor``/``land``/``lxor``, whose input is cast to bool).
    ``out``, ``mask`` (a Vector mask), ``accum``, ``replace`` as in :func:`semiring.mxv`.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_dense(np.array([[1, 5], [0, 0], [7, 2]]), missing=0)
    >>> sr.reduce_rows(A, "max").to_dense(missing=-1)
    array([ 5, -1,  7])
    """
    name = "reduce_rows"
    A = as_matrix(A, op=name, arg="A")
    return _reduce_rows_of(name, A, _monoid(name, monoid), out, mask, accum, replace, structure,
                           complement, A)


def reduce_cols(A, monoid="plus", *, out=None, mask=None, accum=None, replace=False,
                structure=False, complement=False) -> Vector:
    """w(j) = ⊕_i A(i, j) over the entries of column j (a row reduction of the cached
    transpose); keywords as in :func:`reduce_rows`.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_dense(np.array([[1, 5], [0, 0], [7, 2]]), missing=0)
    >>> sr.reduce_cols(A, "plus").to_dense()
    array([8, 7])
    """
    name = "reduce_cols"
    A = as_matrix(A, op=name, arg="A")
    mono = _monoid(name, monoid)
    return _reduce_rows_of(name, A.T, mono, out, mask, accum, replace, structure, complement, A)


def reduce_scalar(a, monoid="plus", *, accum=None, out=None):
    """⊕ of every entry of a Matrix or Vector, as a NumPy scalar; the monoid's identity when
    there are no entries (e.g. 0 for ``plus``, +inf for float ``min``).

    With ``accum``, the reduction is combined into the scalar ``out`` (GraphBLAS's
    ``s ⊙= ⊕ A`` for a C scalar): the result is ``accum(out, ⊕ A)`` in ``out``'s type.

    On the GPU the entries are combined pairwise (log n launches), so a float sum may round
    differently from the CPU's left-to-right sum.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_dense(np.array([[1, 5], [0, 0], [7, 2]]), missing=0)
    >>> int(sr.reduce_scalar(A, "plus")), float(sr.reduce_scalar(sr.Vector.new(3), "min"))
    (15, inf)
    >>> int(sr.reduce_scalar(A, "max", accum="plus", out=100))   # 100 + max
    107
    """
    name = "reduce_scalar"
    a = _container(a, name, "a")
    mono = _monoid(name, monoid)
    acc = None
    if accum is not None:
        acc = lookup("binary", accum, op=name, arg="accum")
        if acc.positional:
            raise DomainMismatch(f"{name}: accum must not be a positional op, got {acc.name}")
        if out is None:
            raise InvalidValue(f"{name}: accum={acc.name} needs out= (the scalar to accumulate "
                               f"into)")
        out = np.asarray(out)
        if out.ndim != 0 or out.dtype.kind not in "biuf":
            raise DomainMismatch(f"{name}: out must be a real scalar, got "
                                 f"{type(out).__name__} of dtype {out.dtype} and shape "
                                 f"{out.shape}")
    elif out is not None:
        raise InvalidValue(f"{name}: out= is the scalar that accum combines into; give accum "
                           f"too (without it the result is simply returned)")
    r = _reduce_all(name, a, mono)
    if acc is None:
        return r
    ot = out.dtype
    return acc.apply_numpy(out, _t.cast(np.asarray(r), ot), ot).astype(ot)[()]


#: Monoids whose whole-array reduction on the GPU is CuPy's own (CUB's device-wide reduction:
#: a launch or two) instead of :func:`_tree_reduce`'s log2(n) launches, over integer and float
#: domains: ``plus`` adds in the domain's type (integers wrap exactly as the tree's adds; floats
#: round in another order, as the tree's already do from the CPU's). The tree took 1-3.5 ms
#: for dot3's sum of 2-16·10⁶ counts (H200, session 27, bench/probes/tc_stages.py).
GPU_NATIVE_REDUCE = {"plus": "sum"}


def _reduce_all(name, a, mono):
    device = a.device
    dom = _reduce_domain(mono, a.dtype)
    _k, v = entries(a)
    v = v.astype(dom, copy=False)
    n = int(v.size)
    if n == 0:
        return mono.identity_of(dom)
    if device == "cpu":
        return mono.reduce_segments(v, np.zeros(1, dtype=np.int64))[0].astype(dom)[()]

    with _gpu_memory_errors(name, device):
        native = GPU_NATIVE_REDUCE.get(mono.name)
        if native is not None and dom.kind in "iuf":
            return getattr(_b.xp_of(device), native)(v, dtype=dom).get()[()]
        return _tree_reduce(mono.op, dom, v, device)


def _tree_reduce(op, dom, v, device):
    """⊕ of a non-empty array by pairwise halving: log2(n) elementwise launches (a monoid is
    associative and commutative, so the pairing does not change the result, floats aside)."""
    xp = _b.xp_of(device)
    n = int(v.size)
    while n > 1:
        h = n // 2
        z = apply_binary(op, dom, v[:h], v[h:2 * h], device, h).astype(dom, copy=False)
        v = z if n % 2 == 0 else xp.concatenate([z, v[2 * h:]])
        n = int(v.size)
    host = v.get() if device == "gpu" else v
    return host[0].astype(dom)[()]


# ---------------------------------------------------------------------- transpose


def transpose(A, *, out=None, mask=None, accum=None, replace=False, structure=False,
              complement=False) -> Matrix:
    """T = Aᵀ, with the usual out / mask / accum / replace; without them this is the cached
    ``A.T`` itself (no copy).

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_coo([0], [1], [3.0], nrows=2, ncols=2)
    >>> sr.transpose(A) is A.T
    True
    >>> C = sr.Matrix.from_coo([1], [0], [1.0], nrows=2, ncols=2)
    >>> sr.transpose(A, out=C, accum="plus").to_dense(missing=0)
    array([[0., 0.],
           [4., 0.]])
    """
    name = "transpose"
    A = as_matrix(A, op=name, arg="A")
    shape = (A.ncols, A.nrows)
    m, acc, replace, device = _output(name, True, shape, out, mask, accum, replace, structure,
                                      complement, A=A)
    return _finish(name, device, A.T, out, m, acc, replace)


# ---------------------------------------------------------------------- extract / assign


def _index_list(name, arg, idx, n, xp):
    """An int64 index array from an index list, a slice or None (all of 0..n-1)."""
    if idx is None:
        return xp.arange(n, dtype=xp.int64)
    if isinstance(idx, slice):
        if idx.step == 0:  # (Python's own error named neither the operation nor the argument)
            raise InvalidValue(f"{name}: {arg} must be a slice with a nonzero step, got {idx!r}")
        try:
            return xp.arange(*idx.indices(n), dtype=xp.int64)
        except TypeError:
            raise DomainMismatch(f"{name}: {arg} must be a slice of integers, got {idx!r}") from None
    if isinstance(idx, (int, np.integer)) and not isinstance(idx, (bool, np.bool_)):
        idx = [idx]
    if _b.is_cupy_array(idx) and xp is np:
        raise _b.DeviceMismatch(f"{name}: {arg} is on the GPU but the operand is on the CPU")
    arr = xp.asarray(idx)
    if arr.ndim != 1:
        raise DimensionMismatch(f"{name}: {arg} must be 1-D, got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "iu":
        raise DomainMismatch(f"{name}: {arg} must hold integers, got {arr.dtype}")
    if arr.size:  # (in the input's type: a uint64 index past 2**63 would wrap negative)
        lo, hi = int(arr.min()), int(arr.max())
        if lo < 0 or hi >= n:
            raise InvalidIndex(f"{name}: {arg} must lie in [0, {n}), got values in [{lo}, {hi}]")
    return arr.astype(xp.int64, copy=False)


def _expand(xp, counts):
    """For segments of the given lengths: (segment of each output slot, offset within it)."""
    counts = counts.astype(xp.int64)
    total = int(counts.sum()) if counts.size else 0
    if total == 0:
        z = xp.zeros(0, dtype=xp.int64)
        return z, z
    ends = xp.cumsum(counts)
    t = xp.arange(total, dtype=xp.int64)
    seg = xp.searchsorted(ends, t, side="right").astype(xp.int64)
    return seg, t - (ends[seg] - counts[seg])


def _extract_matrix(A, I, J):
    """(keys, values) of C = A(I, J), C of shape (len(I), len(J)); duplicates allowed."""
    xp = A.xp
    indptr = A.indptr.astype(xp.int64)
    start = indptr[I]
    p, off = _expand(xp, indptr[I + 1] - start)      # entries of the selected rows
    e = start[p] + off
    col = A.indices[e].astype(xp.int64)
    # each entry's column may be selected at several positions q of J
    order = xp.argsort(J, kind="stable") if xp is np else xp.argsort(J)
    sj = J[order]
    lo = xp.searchsorted(sj, col, side="left")
    hi = xp.searchsorted(sj, col, side="right")
    r, k = _expand(xp, hi - lo)
    q = order[lo[r] + k]
    keys = p[r] * max(int(J.size), 1) + q
    srt = xp.argsort(keys)
    vals = A._full_values()[e[r]]
    return keys[srt], vals[srt]


def _extract_rows(A, I):
    """C = A(I, :) as a Matrix: the rows' entries in their stored (sorted) order, iso kept;
    O(len(I) + entries taken), where :func:`_extract_matrix` sorts and searches the columns."""
    xp = A.xp
    indptr = A.indptr.astype(xp.int64)
    start = indptr[I]
    count = indptr[I + 1] - start
    p, off = _expand(xp, count)
    e = start[p] + off
    ptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(count)])
    it = index_type(int(I.size), A.ncols, int(e.size))
    vals = None if A.is_iso else A.values[e]
    return Matrix(ptr.astype(it), A.indices[e].astype(it), vals, (int(I.size), A.ncols),
                  iso_value=A.iso_value if A.is_iso else None, dtype=A.dtype)


def extract(a, rows=None, cols=None, *, out=None, mask=None, accum=None, replace=False,
            structure=False, complement=False):
    """T = A(rows, cols) (a len(rows) × len(cols) Matrix) or v(rows) (a Vector): entry (p, q)
    is A(rows[p], cols[q]) when that entry exists (GrB_extract).

    ``rows`` / ``cols``: index lists (duplicates allowed), slices, or None for all. For a
    vector, ``rows`` are its indices and ``cols`` must be None. Keywords as in
    :func:`ewise_add`, with ``out`` / ``mask`` of the result's shape.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_dense(np.array([[1, 2, 0], [0, 3, 4]]), missing=0)
    >>> sr.extract(A, [1, 1, 0], slice(1, 3)).to_dense(missing=0)
    array([[3, 4],
           [3, 4],
           [2, 0]])
    >>> sr.extract(sr.Vector.from_coo([2], [9], size=4), [2, 0, 2]).to_dense(missing=0)
    array([9, 0, 9])
    """
    name = "extract"
    # (here too, as assign: the index lists are made before _output checks them)
    check_flags(name, replace=replace, structure=structure, complement=complement)
    a = _container(a, name, "a")
    xp = a.xp
    if isinstance(a, Matrix):
        I = _index_list(name, "rows", rows, a.nrows, xp)
        J = _index_list(name, "cols", cols, a.ncols, xp)
        shape = (int(I.size), int(J.size))
        m, acc, replace, device = _output(name, True, shape, out, mask, accum, replace,
                                          structure, complement, a=a)

        if cols is None or (isinstance(cols, slice) and cols.indices(a.ncols) == (0, a.ncols, 1)):
            T = _extract_rows(a, I)  # whole rows: A's own column order, no search
        else:
            keys, vals = _extract_matrix(a, I, J)
            T = matrix_from_keys(keys, vals, shape, a.dtype)
    else:
        if cols is not None:
            raise InvalidValue(f"{name}: a vector takes one index list (rows=), got cols={cols!r}")
        I = _index_list(name, "rows", rows, a.size, xp)
        m, acc, replace, device = _output(name, False, int(I.size), out, mask, accum, replace,
                                          structure, complement, a=a)
        vals, pres = a.bitmap()
        sel = xp.arange(I.size, dtype=xp.int64) if pres is None else \
            xp.flatnonzero(pres[I]).astype(xp.int64)
        T = Vector(int(I.size), a.dtype, device, indices=sel, svalues=vals[I[sel]])
    return _finish(name, device, T, out, m, acc, replace)


def assign(out, value, rows=None, cols=None, *, mask=None, accum=None, replace=False,
           structure=False, complement=False):
    """out⟨M⟩(rows, cols) ⊙= value, GraphBLAS GrB_assign; ``out`` is updated and returned.

    Parameters
    ----------
    out : Matrix or Vector
        Changed in place.
    value : Matrix, Vector or scalar
        A len(rows) × len(cols) Matrix (len(rows) Vector for a vector ``out``), or a scalar
        given to every position of the region.
    rows, cols : index list, slice or None (all)
        The region; duplicates are refused (GraphBLAS leaves them undefined).
    mask : Matrix / Vector mask of ``out``'s shape (GrB_assign, not subassign)
    accum, replace, structure, complement
        Without ``accum`` the region of out becomes ``value`` (entries of out in the region
        that value lacks are deleted); with it, Z(rows, cols) = out(rows, cols) ⊙ value. Then
        out⟨M⟩ = Z, with ``replace`` clearing out outside the mask.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> C = sr.Matrix.from_dense(np.array([[1, 1], [1, 1]]))
    >>> sr.assign(C, 7, [1], None).to_dense(missing=0)
    array([[1, 1],
           [7, 7]])
    >>> w = sr.Vector.from_coo([0, 1], [5, 5], size=3)
    >>> sr.assign(w, sr.Vector.from_coo([1], [2], size=2), [0, 2], accum="plus").to_dense(missing=0)
    array([5, 5, 2])
    """
    name = "assign"
    # (here too: the index lists are made and sorted before _output checks them)
    check_flags(name, replace=replace, structure=structure, complement=complement)
    if not isinstance(out, (Matrix, Vector)):
        raise DomainMismatch(f"{name}: out must be a semiring.Matrix or semiring.Vector, got {type(out).__name__}")
    xp = out.xp
    is_m = isinstance(out, Matrix)
    nrows, ncols = out.shape if is_m else (out.size, 1)
    I = _index_list(name, "rows", rows, nrows, xp)
    if is_m:
        J = _index_list(name, "cols", cols, ncols, xp)
    else:
        if cols is not None:
            raise InvalidValue(f"{name}: a vector takes one index list (rows=), got cols={cols!r}")
        J = xp.zeros(1, dtype=xp.int64)
    for arg, X in (("rows", I), ("cols", J)):
        if X.size > 1 and bool((xp.sort(X)[1:] == xp.sort(X)[:-1]).any()):
            raise DuplicateIndices(f"{name}: {arg} must not repeat an index (GrB_assign leaves duplicates undefined)")
    scalar = not isinstance(value, (Matrix, Vector)) and np.ndim(value) == 0 and not _b.is_cupy_array(value)
    if scalar:
        _real_scalar(name, "value", value)
    else:
        value = _container(value, name, "value")
        want = (int(I.size), int(J.size)) if is_m else int(I.size)
        if isinstance(value, Matrix) != is_m:
            raise DomainMismatch(f"{name}: value must be a {'Matrix' if is_m else 'Vector'} like out, got {type(value).__name__}")
        if _shape_of(value) != want:
            s = _shape_name(value)
            raise DimensionMismatch(f"{name}: value.{s} (={_shape_of(value)}) must equal the region {s} (={want})")
    m, acc, replace, device = _output(name, is_m, _shape_of(out), out, mask, accum, replace,
                                      structure, complement, value=None if scalar else value)
    # the region's keys in out, and the keys of out's entries inside / outside it
    W = ncols
    ok, ov = entries(out)
    oi, oj = ok // max(W, 1), ok % max(W, 1)
    in_i = xp.zeros(nrows, dtype=bool)
    in_i[I] = True
    in_j = xp.zeros(ncols, dtype=bool)
    in_j[J] = True
    inside = in_i[oi] & in_j[oj]
    if scalar:
        p, q = _expand(xp, xp.full(int(I.size), int(J.size), dtype=xp.int64))
        sk = I[p] * W + J[q]
        dt = out.dtype
        sv = xp.full(int(sk.size), _t.cast(np.asarray(value), dt)[()], dtype=dt)
    else:
        vk, vv = entries(value)
        if is_m:
            vw = max(value.ncols, 1)
            sk = I[vk // vw] * W + J[vk % vw]
        else:
            sk = I[vk]
        sv = vv
    srt = xp.argsort(sk)
    sk, sv = sk[srt], sv[srt]
    dt = out.dtype
    sv = _t.cast(sv, dt)
    if acc is not None:
        # S = out(region) ⊙ value over their union
        rk, rv = ok[inside], ov[inside]
        u, pr, ps = union(rk, sk)
        uv = xp.empty(u.size, dtype=dt)
        inr, ins = pr >= 0, ps >= 0
        ro, so = xp.flatnonzero(inr & ~ins), xp.flatnonzero(ins & ~inr)
        uv[ro] = rv[pr[ro]]
        uv[so] = sv[ps[so]]
        both = xp.flatnonzero(inr & ins)
        if both.size:
            uv[both] = apply_binary(acc, dt, rv[pr[both]], sv[ps[both]], device,
                                    int(both.size)).astype(dt, copy=False)
        sk, sv = u, uv
    zk = xp.concatenate([ok[~inside], sk])
    zv = xp.concatenate([ov[~inside], sv])
    srt = xp.argsort(zk)
    Z = rebuild(out, zk[srt], zv[srt], dt)
    return _finish(name, device, Z, out, m, None, replace)


# the call sugar above the tables and containers: sr.binary.min(a | b), a | b, a & b
_ops._sugar["ewise"] = evaluate_ewise
_operand._sugar["ewise"] = EwiseExpr
