"""The algebra as data: binary operators, monoids and semirings, kept in tables.

Each :class:`BinaryOp` carries a CUDA C++ expression (compiled into the kernels) and a NumPy
function (the CPU backend and the reference the GPU is tested against). A :class:`Monoid` is
an associative, commutative op with an identity and, optionally, a *terminal* value at which a
reduction may stop early (``lor`` at True, ``min`` at -inf, ``any`` at any value). A
:class:`Semiring` is an additive monoid and a multiplicative op. Names follow GraphBLAS and
python-graphblas: ``min_plus``, ``lor_land``, ``any_secondi``.

Users define new ones by constructing them; construction registers them in the tables::

    >>> import numpy as np, semiring as sr
    >>> absdiff = sr.BinaryOp("absdiff", cuda="(x > y) ? (x - y) : (y - x)",
    ...                       numpy=lambda x, y: np.where(x > y, x - y, y - x))
    >>> min_absdiff = sr.Semiring("min_absdiff", sr.monoid.min, absdiff)
    >>> sr.semiring.min_absdiff is min_absdiff
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Callable

import numpy as np

from . import types as _t
from .errors import DomainMismatch, InvalidValue

#: Result-type rules of a binary op: the domain itself, bool, or the index type (positional).
RESULT_RULES = ("same", "bool", "index")

#: A monoid whose terminal value is "anything": the reduction may stop at its first value.
ANY = "any"

_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

binary = SimpleNamespace()
monoid = SimpleNamespace()
semiring = SimpleNamespace()
unary = SimpleNamespace()
_UNARY: dict[str, "UnaryOp"] = {}
_BINARY: dict[str, "BinaryOp"] = {}
_MONOID: dict[str, "Monoid"] = {}
_SEMIRING: dict[str, "Semiring"] = {}

#: The evaluators behind the call sugar of the tables (``sr.min_plus(x @ A)``,
#: ``sr.binary.min(a | b)``): "matmul" and "ewise", installed by :mod:`semiring.expr` and
#: :mod:`semiring.elementwise`, the layer above. The tables are data and import nothing above
#: them.
_sugar: dict = {}


def _check_name(kind: str, name: str, table: dict) -> None:
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise InvalidValue(f"{kind}: name must be a C identifier, got {name!r}")
    if name in table:
        raise InvalidValue(f"{kind}: a {kind} named {name!r} already exists")


def _check_and_register(op, kind: str, table: dict, namespace) -> None:
    """Validate a unary or binary op's fields; enter it in its table unless register=False."""
    if op.result not in RESULT_RULES:
        raise InvalidValue(f"{kind}: result must be one of {RESULT_RULES}, got {op.result!r}")
    if not isinstance(op.cuda, str) or not op.cuda.strip():
        raise InvalidValue(f"{kind}: cuda must be a non-empty C++ expression, got {op.cuda!r}")
    if not callable(op.numpy):
        raise InvalidValue(f"{kind}: numpy must be callable, got {op.numpy!r}")
    if op.register:
        _check_name(kind, op.name, table)
        table[op.name] = op
        setattr(namespace, op.name, op)


@dataclass(frozen=True, eq=False)
class BinaryOp:
    """A binary operator ``z = f(x, y)``.

    Parameters
    ----------
    name : str
        A C identifier, unique among binary ops.
    cuda : str
        A C++ expression in ``x`` and ``y`` (both of the domain type ``T``) and, for positional
        ops, the coordinates ``ia, ja`` of the first operand and ``ib, jb`` of the second.
        The helpers ``sr_min``/``sr_max`` (NaN-ignoring, like ``fmin``) may be used.
    numpy : callable
        ``numpy(x, y)`` on arrays of the domain type, or for ``positional=True`` ops
        ``numpy(x, y, ia, ja, ib, jb)``. A ``numpy.ufunc`` makes reductions faster.
    result : {'same', 'bool', 'index'}
        The result type: the operands' domain, bool, or int64 (positional ops).
    positional : bool
        Whether the op reads coordinates.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> sr.binary.plus.numpy(np.array([1, 2]), np.array([3, 4]))
    array([4, 6])
    """

    name: str
    cuda: str
    numpy: Callable
    result: str = "same"
    positional: bool = False
    register: bool = field(default=True, repr=False)

    def __post_init__(self):
        _check_and_register(self, "BinaryOp", _BINARY, binary)

    def result_type(self, domain) -> np.dtype:
        """The result dtype when applied to operands of ``domain``."""
        if self.result == "bool":
            return _t.BOOL
        if self.result == "index":
            return _t.INDEX
        return np.dtype(domain)

    def apply_numpy(self, x, y, domain, pos=None):
        """Vectorized application on the CPU; ``pos = (ia, ja, ib, jb)`` for positional ops."""
        rt = self.result_type(domain)
        if self.positional:
            z = self.numpy(x, y, *pos)
        else:
            with np.errstate(all="ignore"):
                z = self.numpy(x, y)
        return np.asarray(z).astype(rt, copy=False)

    def __call__(self, expr, **kwargs):
        """Evaluate ``a | b`` (union) or ``a & b`` (intersection) with this op, e.g.
        ``sr.binary.min(a | b)``; keywords as in :func:`semiring.ewise_add`."""
        return _sugar["ewise"](expr, self, **kwargs)

    def __repr__(self):
        return f"BinaryOp({self.name!r})"


@dataclass(frozen=True, eq=False)
class Monoid:
    """An associative, commutative :class:`BinaryOp` with an identity.

    Parameters
    ----------
    name : str
    op : BinaryOp
    identity : callable
        ``identity(dtype)`` gives the identity in that domain.
    terminal : callable or None
        ``terminal(dtype)`` gives the value at which a reduction can stop, :data:`ANY` if any
        value is final, or None if there is none in that domain.
    idempotent : bool
        ``op(x, x) == x``: the GPU may combine with atomics and duplicates do no harm.
    empty : callable or None
        ``empty(dtype)``: the value an atomic reduction starts from, when the identity is not
        neutral for every value (``fmin``'s identity inf swallows a NaN; NaN itself does not).
        Default: the identity.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> sr.monoid.min.identity(np.float32)
    inf
    >>> sr.monoid.lor.terminal(np.bool_)
    True
    """

    name: str
    op: BinaryOp
    identity: Callable
    terminal: Callable | None = None
    idempotent: bool = False
    empty: Callable | None = None
    register: bool = field(default=True, repr=False)

    def __post_init__(self):
        if not isinstance(self.op, BinaryOp) or self.op.positional:
            raise InvalidValue(f"Monoid: op must be a non-positional BinaryOp, got {self.op!r}")
        if self.register:
            _check_name("Monoid", self.name, _MONOID)
            _MONOID[self.name] = self
            setattr(monoid, self.name, self)

    def identity_of(self, dtype):
        return np.asarray(self.identity(np.dtype(dtype))).astype(dtype)[()]

    def empty_of(self, dtype):
        """Start value of an atomic reduction (see ``empty``)."""
        f = self.empty if self.empty is not None else self.identity
        return np.asarray(f(np.dtype(dtype))).astype(dtype)[()]

    def terminal_of(self, dtype):
        """Terminal value in ``dtype``: a scalar, :data:`ANY`, or None."""
        if self.terminal is None:
            return None
        t = self.terminal(np.dtype(dtype))
        if t is None or t is ANY:
            return t
        return np.asarray(t).astype(dtype)[()]

    def reduce_segments(self, values, starts):
        """Reduce consecutive segments of ``values`` beginning at ``starts`` (all non-empty)."""
        if len(starts) == 0:
            return values[:0]
        if self.terminal is not None and self.terminal(values.dtype) is ANY:
            return values[starts]
        f = self.op.numpy
        if isinstance(f, np.ufunc):
            with np.errstate(all="ignore"):
                return f.reduceat(values, starts).astype(values.dtype, copy=False)
        return _pairwise_segment_reduce(self, values, starts)

    def __call__(self, expr, **kwargs):
        """Evaluate ``a | b`` or ``a & b`` with this monoid's op (``sr.monoid.min(a | b)``)."""
        return _sugar["ewise"](expr, self.op, **kwargs)

    def __repr__(self):
        return f"Monoid({self.name!r})"


def _pairwise_segment_reduce(m: Monoid, values, starts):
    """Segmented reduction with any vectorized binary function: log(max segment) passes."""
    n = len(values)
    seg = np.zeros(n, dtype=np.int64)
    seg[starts[1:]] = 1
    seg = np.cumsum(seg)
    vals, segs = values, seg
    while len(vals) > len(starts):
        # pair element 2t with 2t+1 where both are in the same segment
        first = np.r_[True, segs[1:] != segs[:-1]]
        pos = np.arange(len(vals)) - np.maximum.accumulate(np.where(first, np.arange(len(vals)), 0))
        left = (pos % 2 == 0)
        has_right = np.r_[segs[1:] == segs[:-1], False] & left
        li = np.flatnonzero(left)
        out = vals[li].copy()
        hr = has_right[li]
        out[hr] = m.op.apply_numpy(vals[li[hr]], vals[li[hr] + 1], vals.dtype)
        vals, segs = out, segs[li]
    return vals


@dataclass(frozen=True, eq=False)
class Semiring:
    """A semiring: an additive :class:`Monoid` and a multiplicative :class:`BinaryOp`.

    Calling a semiring on a matrix expression evaluates it under that semiring; the keywords
    are those of :func:`semiring.mxv`::

        >>> import numpy as np, scipy.sparse as sp, semiring as sr
        >>> A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 2.0], [1.0, 0]])))
        >>> x = sr.Vector.from_coo([0], [0.0], size=2)
        >>> sr.min_plus(x @ A).to_dense(missing=np.inf)
        array([inf,  2.])
    """

    name: str
    add: Monoid
    mul: BinaryOp
    register: bool = field(default=True, repr=False)

    def __post_init__(self):
        if not isinstance(self.add, Monoid):
            raise InvalidValue(f"Semiring: add must be a Monoid, got {self.add!r}")
        if not isinstance(self.mul, BinaryOp):
            raise InvalidValue(f"Semiring: mul must be a BinaryOp, got {self.mul!r}")
        if self.register:
            _check_name("Semiring", self.name, _SEMIRING)
            _SEMIRING[self.name] = self
            setattr(semiring, self.name, self)

    def result_type(self, domain) -> np.dtype:
        return self.mul.result_type(domain)

    def __call__(self, expr, **kwargs):
        return _sugar["matmul"](expr, self, **kwargs)

    def __repr__(self):
        return f"Semiring({self.name!r})"


@dataclass(frozen=True, eq=False)
class UnaryOp:
    """A unary operator ``z = f(x)`` (the op of :func:`semiring.apply`).

    Parameters
    ----------
    name : str
        A C identifier, unique among unary ops.
    cuda : str
        A C++ expression in ``x`` (of the domain type ``T``) and, for positional ops, the
        coordinates ``i, j`` of the entry (a vector entry has ``j == 0``).
    numpy : callable
        ``numpy(x)``, or ``numpy(x, i, j)`` for ``positional=True`` ops.
    result : {'same', 'bool', 'index'}
    positional : bool

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> sr.unary.minv.apply_numpy(np.array([0, 1, -1, 4], dtype=np.int32), np.int32)
    array([2147483647,          1,         -1,          0], dtype=int32)
    """

    name: str
    cuda: str
    numpy: Callable
    result: str = "same"
    positional: bool = False
    register: bool = field(default=True, repr=False)

    def __post_init__(self):
        _check_and_register(self, "UnaryOp", _UNARY, unary)

    def result_type(self, domain) -> np.dtype:
        return BinaryOp.result_type(self, domain)

    def apply_numpy(self, x, domain, pos=None):
        """Vectorized application on the CPU; ``pos = (i, j)`` for positional ops."""
        rt = self.result_type(domain)
        x = np.asarray(x).astype(domain, copy=False)
        with np.errstate(all="ignore"):
            z = self.numpy(x, *pos) if self.positional else self.numpy(x)
        return np.broadcast_to(np.asarray(z), x.shape).astype(rt)

    def __repr__(self):
        return f"UnaryOp({self.name!r})"


#: lookup's tables by kind (built once: a dict a call cost a small product 0.3 µs)
_TABLES = {"binary": (BinaryOp, _BINARY), "monoid": (Monoid, _MONOID),
           "semiring": (Semiring, _SEMIRING), "unary": (UnaryOp, _UNARY)}


def lookup(kind: str, obj, *, op: str, arg: str):
    """Resolve a table entry given as an object or its name."""
    cls, table = _TABLES[kind]
    if isinstance(obj, cls):
        return obj
    if isinstance(obj, str) and obj in table:
        return table[obj]
    if kind == "binary" and isinstance(obj, Monoid):
        return obj.op
    raise DomainMismatch(
        f"{op}: {arg} must be a {cls.__name__} or the name of one, got {obj!r}"
    )


def list_names(kind: str, *, builtin: bool = False) -> list[str]:
    """Names in one table, sorted; ``builtin=True``: only those defined by this package."""
    names = {"binary": _BINARY, "monoid": _MONOID, "semiring": _SEMIRING, "unary": _UNARY}[kind]
    return sorted(_BUILTIN[kind] if builtin else names)


# ---------------------------------------------------------------------------------------
# Built-ins. Functions of dtype give identities and terminals.

def _first(x, y):
    return np.broadcast_arrays(x, y)[0].copy()


def _second(x, y):
    return np.broadcast_arrays(x, y)[1].copy()


def _minus(x, y):
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype == np.bool_ and y.dtype == np.bool_:
        return x != y  # what (bool)(x - y) gives in C
    return np.subtract(x, y)


def _pair(x, y):
    return np.ones(np.broadcast(x, y).shape, dtype=np.int8)


def _pos(index):
    def f(x, y, ia, ja, ib, jb):
        v = {"ia": ia, "ja": ja, "ib": ib, "jb": jb}[index]
        return np.broadcast_to(np.asarray(v, dtype=np.int64), np.broadcast(x, y, v).shape).copy()
    return f


BinaryOp("plus", "x + y", np.add)
BinaryOp("minus", "x - y", _minus)
BinaryOp("times", "x * y", np.multiply)
BinaryOp("min", "sr_min(x, y)", np.fmin)
BinaryOp("max", "sr_max(x, y)", np.fmax)
BinaryOp("first", "x", _first)
BinaryOp("second", "y", _second)
BinaryOp("pair", "1", _pair)
BinaryOp("any", "x", _first)
BinaryOp("lor", "(x != 0) || (y != 0)", np.logical_or, result="bool")
BinaryOp("land", "(x != 0) && (y != 0)", np.logical_and, result="bool")
BinaryOp("lxor", "(x != 0) != (y != 0)", np.logical_xor, result="bool")
BinaryOp("eq", "x == y", np.equal, result="bool")
BinaryOp("ne", "x != y", np.not_equal, result="bool")
BinaryOp("lt", "x < y", np.less, result="bool")
BinaryOp("le", "x <= y", np.less_equal, result="bool")
BinaryOp("gt", "x > y", np.greater, result="bool")
BinaryOp("ge", "x >= y", np.greater_equal, result="bool")
BinaryOp("firsti", "ia", _pos("ia"), result="index", positional=True)
BinaryOp("firstj", "ja", _pos("ja"), result="index", positional=True)
BinaryOp("secondi", "ib", _pos("ib"), result="index", positional=True)
BinaryOp("secondj", "jb", _pos("jb"), result="index", positional=True)


def _int_or(dtype, int_value, float_value):
    return float_value if np.dtype(dtype).kind == "f" else int_value


# the start of an atomic float sum is -0.0, the IEEE identity of + for every value: from
# +0.0 a sum of products that are all -0.0 came out +0.0 (the GPU SpGEMM's tables), where the
# fold from its first product, on the CPU, gives -0.0
Monoid("plus", binary.plus, lambda d: 0, empty=lambda d: -0.0 if np.dtype(d).kind == "f" else 0)
Monoid("times", binary.times, lambda d: 1,
       terminal=lambda d: None if np.dtype(d).kind == "f" else 0)
def _nan_or_identity(identity):
    return lambda d: np.nan if np.dtype(d).kind == "f" else identity(d)


Monoid("min", binary.min, _t.max_value, terminal=_t.min_value, idempotent=True,
       empty=_nan_or_identity(_t.max_value))
Monoid("max", binary.max, _t.min_value, terminal=_t.max_value, idempotent=True,
       empty=_nan_or_identity(_t.min_value))
Monoid("any", binary.any, lambda d: 0, terminal=lambda d: ANY, idempotent=True)
Monoid("lor", binary.lor, lambda d: False, terminal=lambda d: True, idempotent=True)
Monoid("land", binary.land, lambda d: True, terminal=lambda d: False, idempotent=True)
Monoid("lxor", binary.lxor, lambda d: False)

for _add, _mul in [
    ("plus", "times"), ("min", "plus"), ("max", "plus"), ("min", "times"), ("max", "times"),
    ("max", "min"), ("min", "max"), ("lor", "land"), ("land", "lor"), ("lxor", "land"),
    ("any", "pair"), ("plus", "pair"), ("plus", "first"), ("plus", "second"),
    ("min", "first"), ("min", "second"), ("max", "first"), ("max", "second"),
    ("any", "first"), ("any", "second"),
    ("any", "secondi"), ("min", "secondi"), ("max", "secondi"),
    ("any", "firstj"), ("min", "firstj"), ("any", "firsti"), ("min", "firsti"),
    ("any", "secondj"), ("min", "secondj"),
]:
    Semiring(f"{_add}_{_mul}", getattr(monoid, _add), getattr(binary, _mul))
del _add, _mul


# Unary ops (GraphBLAS GrB_IDENTITY, AINV, ABS, MINV, LNOT, GxB_ONE, POSITIONI/J). The bool
# cases follow SuiteSparse: ainv and abs are the identity, minv is true.
def _minv(x):
    if x.dtype == np.bool_:
        return np.ones_like(x)
    if x.dtype.kind == "f":
        return np.divide(x.dtype.type(1), x)
    top = np.iinfo(x.dtype).max
    return np.where(x == 0, top, np.where(x == 1, 1, np.where(x == -1, -1, 0))).astype(x.dtype)


UnaryOp("identity", "x", lambda x: x.copy())
UnaryOp("ainv", "sr_ainv(x)", lambda x: x.copy() if x.dtype == np.bool_ else np.negative(x))
UnaryOp("abs", "sr_abs(x)", lambda x: x.copy() if x.dtype == np.bool_ else np.abs(x))
UnaryOp("minv", "sr_minv(x)", _minv)
UnaryOp("lnot", "!(x != 0)", lambda x: (x == 0).astype(x.dtype))
UnaryOp("one", "1", lambda x: np.ones_like(x))
UnaryOp("rowindex", "i", lambda x, i, j: np.asarray(i, dtype=np.int64), result="index",
        positional=True)
UnaryOp("colindex", "j", lambda x, i, j: np.asarray(j, dtype=np.int64), result="index",
        positional=True)

#: The names defined above, before any user's: what CI compiles and the tests sweep.
_BUILTIN = {"binary": frozenset(_BINARY), "monoid": frozenset(_MONOID),
            "semiring": frozenset(_SEMIRING), "unary": frozenset(_UNARY)}


def builtins(kind: str) -> dict:
    """The built-in entries of one table (``"binary"``, ``"monoid"``, ``"semiring"``,
    ``"unary"``) by name: those CI compiles and the tests sweep (no user-defined ones).

    >>> import semiring as sr
    >>> sr.ops.builtins("semiring")["min_plus"] is sr.min_plus
    True
    """
    table = {"binary": _BINARY, "monoid": _MONOID, "semiring": _SEMIRING, "unary": _UNARY}[kind]
    return {name: table[name] for name in _BUILTIN[kind]}


# min-plus with a saturating integer add: the semiring of integer APSP (after _BUILTIN: its
# kernels are the dense ones on the integer domains only, see semiring.backend.gpu.dense).
def plus_sat_numpy(x, y):
    """x + y, saturating for integers: the type's maximum is infinity (max + w = max) and a
    sum outside the range clamps (to max − 1 above, min below) instead of wrapping."""
    x, y = np.asarray(x), np.asarray(y)
    dt = np.result_type(x, y)
    z = x + y
    if dt.kind != "i":
        return z
    info = np.iinfo(dt)
    z = np.where((y > 0) & (x > info.max - y), info.max - 1, z)
    z = np.where((y < 0) & (x < info.min - y), info.min, z)
    return np.where((x == info.max) | (y == info.max), info.max, z).astype(dt, copy=False)


# The integer type's maximum from its size; floating types ((T)0.5 != 0, a constant the
# compiler folds) add plainly, as the NumPy function does.
_SAT_MAX = "((T)(~0ULL >> (65 - 8 * sizeof(T))))"
_SAT_CUDA = (f"((T)0.5 != (T)0) ? (T)(x + y) : "
             f"(x == {_SAT_MAX} || y == {_SAT_MAX}) ? {_SAT_MAX} : "
             f"((y > 0) ? ((x > {_SAT_MAX} - y) ? (T)({_SAT_MAX} - 1) : (T)(x + y)) "
             f": ((x < -{_SAT_MAX} - 1 - y) ? (T)(-{_SAT_MAX} - 1) : (T)(x + y)))")

BinaryOp("plus_sat", _SAT_CUDA, plus_sat_numpy)
#: min-plus with a saturating integer add (``binary.plus_sat``): shortest paths on integer
#: weights where the type's maximum is infinity (:func:`algorithms.apsp`).
min_plus_sat = Semiring("min_plus_sat", monoid.min, binary.plus_sat)
