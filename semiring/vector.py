"""Vectors: a dense form (values + presence bitmap) for wide frontiers and a sparse form
(sorted index list + values) for narrow ones."""

from __future__ import annotations

import numpy as np

from . import device as _b
from ._operand import Operand
from . import types as _t
from .errors import DimensionMismatch, DomainMismatch, DuplicateIndices, InvalidValue, check_bool
from .matrix import (_as_index_array, _check_host_input, _check_missing, _check_range,
                     _check_size, _check_tolerances, _combine_duplicates, _coo_device,
                     _dtype_arg, _dup_op, _present_of_dense, _stable_argsort, _values_close)
from .ops import lookup

FORMS = ("bitmap", "sparse")


class Vector(_b.Placed, Operand):
    """A sparse vector of a given ``size``: a set of (index, value) entries.

    Two storage forms hold the same entries: ``'bitmap'`` (a dense array of values and a
    dense presence array; ``present is None`` means every entry is present) and ``'sparse'``
    (sorted unique indices and their values). Which one an operation gets is a policy of the
    caller (:meth:`to_form`) or of the operation: the push product (SpMSpV) reads the sparse
    form, the pull product (SpMV) the bitmap form. Converting is done on request and cached.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> v = sr.Vector.from_coo([3, 1], [2.0, 5.0], size=5)
    >>> v.nvals, v.size, v.form
    (2, 5, 'sparse')
    >>> v.to_dense(missing=-1)
    array([-1.,  5., -1.,  2., -1.])
    """


    def __init__(self, size: int, dtype, device: str, *, values=None, present=None,
                 indices=None, svalues=None, jumbled=False):
        # Internal constructor; use from_coo / from_dense. ``jumbled``: the sparse indices are
        # unique but not sorted (a push result, in order of discovery); sorted on demand.
        self._size = int(size)
        self._jumbled = bool(jumbled) and indices is not None
        self._dtype = np.dtype(dtype)
        self._device = device
        self._bitmap = None if values is None else (values, present)
        self._sparse = None if indices is None else (indices, svalues)
        self._form = "bitmap" if values is not None else "sparse"

    @classmethod
    def _result(cls, size: int, dtype: np.dtype, device: str, indices, values,
                jumbled: bool = False) -> "Vector":
        # An operation's sparse result, its arguments already canonical (an int size, a
        # np.dtype, unique int64 indices): __init__ without its conversions, 0.5 µs of a
        # 10 µs product
        v = cls.__new__(cls)
        v._size, v._dtype, v._device = size, dtype, device
        v._jumbled = jumbled
        v._bitmap = None
        v._sparse = (indices, values)
        v._form = "sparse"
        return v

    @classmethod
    def _bitmap_result(cls, size: int, dtype: np.dtype, device: str, values, present
                       ) -> "Vector":
        # An operation's bitmap result, its arguments canonical (as _result)
        v = cls.__new__(cls)
        v._size, v._dtype, v._device = size, dtype, device
        v._jumbled = False
        v._bitmap = (values, present)
        v._sparse = None
        v._form = "bitmap"
        return v

    # ------------------------------------------------------------------ properties
    @property
    def size(self) -> int:
        return self._size

    @property
    def shape(self):
        return (self._size,)

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @property
    def device(self) -> str:
        return self._device

    @property
    def xp(self):
        return _b.xp_of(self._device)

    @property
    def form(self) -> str:
        """The primary storage form: ``'bitmap'`` or ``'sparse'``."""
        return self._form

    @property
    def nvals(self) -> int:
        """Number of entries present."""
        if self._sparse is not None:
            return int(self._sparse[0].size)
        vals, pres = self._bitmap
        return self._size if pres is None else int(pres.sum())

    def __repr__(self):
        return f"<Vector size={self.size}, nvals={self.nvals}, dtype={self.dtype}, form={self.form}, device={self.device}>"

    # ------------------------------------------------------------------ forms
    def bitmap(self):
        """(values, present) dense arrays; ``present`` is None when every entry is present.

        They are the vector's own storage, not copies: read them, do not write into them
        (:meth:`dup` first). Results share storage where the algebra allows it: the plain
        GPU ``mxv`` of one matrix returns the same ``present`` array every call (M's pattern
        decides it), so a write into one result's would change the others'.
        """
        if self._bitmap is None:
            xp = self.xp
            idx, vals = self._sparse
            dense = xp.zeros(self._size, dtype=self._dtype)
            pres = xp.zeros(self._size, dtype=bool)
            dense[idx] = vals
            pres[idx] = True
            self._bitmap = (dense, pres)
        return self._bitmap

    def sparse(self, sorted=True):
        """(indices, values): unique int64 indices of the entries and their values.

        The indices are sorted unless ``sorted=False`` allows them in any order (what a push
        produces; a consumer that does not care then skips the sort).
        """
        if self._sparse is not None and self._jumbled and sorted:
            idx, vals = self._sparse
            order = self.xp.argsort(idx)
            self._sparse = (idx[order], vals[order])
            self._jumbled = False
        if self._sparse is None:
            xp = self.xp
            vals, pres = self._bitmap
            idx = xp.arange(self._size, dtype=xp.int64) if pres is None else xp.flatnonzero(pres).astype(xp.int64)
            self._sparse = (idx, vals[idx] if pres is not None else vals)
        return self._sparse

    def to_form(self, form: str) -> "Vector":
        """The same vector with ``form`` as its primary storage (self when it already is)."""
        if form not in FORMS:
            raise InvalidValue(f"Vector.to_form: form must be one of {FORMS}, got {form!r}")
        if form == self._form:
            return self
        if form == "bitmap":
            v, p = self.bitmap()
            return Vector(self._size, self._dtype, self._device, values=v, present=p)
        i, v = self.sparse(sorted=False)
        return Vector(self._size, self._dtype, self._device, indices=i, svalues=v,
                      jumbled=self._jumbled)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_coo(cls, indices, values=True, *, size=None, dup_op=None, dtype=None, device=None,
                 sort=True):
        """Build from an index list and values (a scalar value is given to every entry).

        Duplicate indices raise :class:`DuplicateIndices` unless ``dup_op`` combines them.
        ``sort=False`` keeps unique indices in the order given (as a push produces them;
        sorted only when a consumer needs it): the duplicate check is then one count per
        index, O(size + len(indices)), instead of a sort; with ``dup_op`` it has no effect.

        Examples
        --------
        >>> import semiring as sr
        >>> v = sr.Vector.from_coo([0, 0, 2], [4, 1, 7], size=3, dup_op="min")
        >>> v.to_dense(missing=0)
        array([1, 0, 7])
        >>> sr.Vector.from_coo([4, 0], [1, 2], size=5, sort=False).to_coo()
        (array([0, 4]), array([2, 1]))
        """
        op = "Vector.from_coo"
        sort = check_bool(op, "sort", sort)
        dev = _coo_device(device, indices, values)
        xp = _b.xp_of(dev)
        idx = _as_index_array(xp, indices, op, "indices")
        if np.ndim(values) == 0:
            dt = _t.lookup_dtype(dtype if dtype is not None else np.asarray(values).dtype, op=op,
                                 arg=_dtype_arg(dtype))
            # (a host scalar through the saturating cast; a CuPy 0-d array as CuPy fills)
            v0 = values if _b.is_cupy_array(values) else _t.cast(np.asarray(values), dt)[()]
            vals = xp.full(idx.size, v0, dtype=dt)
        else:
            _check_host_input(op, "values", values, dev)
            vals = xp.asarray(values)
            if vals.shape != idx.shape:
                raise DimensionMismatch(f"{op}: values must have the length of indices (={idx.size}), got shape {vals.shape}")
            dt = _t.lookup_dtype(dtype if dtype is not None else vals.dtype, op=op,
                                 arg=_dtype_arg(dtype))
            vals = _t.cast(vals, dt)
        if size is None:
            size = int(idx.max()) + 1 if idx.size else 0
        _check_size(op, "size", size)
        _check_range(op, "indices", idx, int(size))
        if not sort and dup_op is None:
            repeated = xp.flatnonzero(_b.bincount(idx, int(size)) > 1) if idx.size > 1 else ()
            if len(repeated):
                raise DuplicateIndices(f"{op}: duplicate index {int(repeated[0])}; pass dup_op= "
                                       f"to combine duplicates")
            # the caller's own arrays (int64 indices, values of the type) are not kept: a
            # later write into them would change the vector, as the sorting path's copies
            # (and Matrix.from_coo's) never do
            if idx is indices:
                idx = idx.copy()
            if vals is values:
                vals = vals.copy()
            return cls(int(size), dt, dev, indices=idx, svalues=vals, jumbled=True)
        order = xp.argsort(idx, kind="stable") if xp is np else _stable_argsort(xp, idx)
        idx, vals = idx[order], vals[order]
        if idx.size > 1:
            dup = idx[1:] == idx[:-1]
            if _b.any_true(dup):
                if dup_op is None:
                    raise DuplicateIndices(f"{op}: duplicate index {int(idx[1:][dup][0])}; pass dup_op= to combine duplicates")
                heads = xp.flatnonzero(xp.concatenate([xp.ones(1, dtype=bool), ~dup]))
                vals = _combine_duplicates(xp, _dup_op(op, dup_op), vals, heads)
                idx = idx[heads]
        return cls(int(size), dt, dev, indices=idx, svalues=vals)

    @classmethod
    def from_dense(cls, array, *, missing=None, device=None):
        """Entries of a 1-D array; those equal to ``missing`` are absent (NaN matches NaN).

        Built on ``device``; by default on the GPU for a CuPy array, else on the default device.
        Without ``missing`` every entry is present, and a contiguous array already on that
        device is wrapped without a copy (a strided view is copied: the GPU kernels read a
        vector by its address).

        Examples
        --------
        >>> import numpy as np, semiring as sr
        >>> sr.Vector.from_dense(np.array([1.0, np.inf, 3.0]), missing=np.inf).nvals
        2
        """
        op = "Vector.from_dense"
        dev = _coo_device(device, array)
        xp = _b.xp_of(dev)
        a = xp.asarray(array) if _b.device_of_array(array) == dev or not _b.is_cupy_array(array) \
            else _b.to_device(array, dev)
        if a.ndim != 1:
            raise DimensionMismatch(f"{op}: array must be 1-D, got shape {a.shape}")
        _t.lookup_dtype(a.dtype, op=op, arg="array.dtype")
        a = _b.contiguous(xp, a)
        pres = None if missing is None else _present_of_dense(xp, a, missing, op)
        return cls(a.size, a.dtype, dev, values=a, present=pres)

    @classmethod
    def from_bitmap(cls, values, present=None, *, device=None):
        """The vector whose entries are ``values[i]`` where ``present[i]`` (every i when
        ``present`` is None): GraphBLAS' bitmap form, without a sentinel value.

        Both arrays are 1-D of one length, on one device; they are wrapped without a copy when
        already on ``device`` and contiguous (so the caller must not change them afterwards).

        Examples
        --------
        >>> import numpy as np, semiring as sr
        >>> v = sr.Vector.from_bitmap(np.array([1.0, 2.0, 3.0]), np.array([True, False, True]))
        >>> v.nvals, v.to_dense(missing=0).tolist()
        (2, [1.0, 0.0, 3.0])
        """
        op = "Vector.from_bitmap"
        dev = _coo_device(device, values, present)
        xp = _b.xp_of(dev)
        _check_host_input(op, "values", values, dev)
        vals = xp.asarray(values)
        if vals.ndim != 1:
            raise DimensionMismatch(f"{op}: values must be 1-D, got shape {vals.shape}")
        _t.lookup_dtype(vals.dtype, op=op, arg="values.dtype")
        vals = _b.contiguous(xp, vals)
        pres = None
        if present is not None:
            _check_host_input(op, "present", present, dev)
            pres = xp.asarray(present)
            if pres.dtype != np.bool_:
                raise DomainMismatch(f"{op}: present must be a bool array, got {pres.dtype}")
            if pres.shape != vals.shape:
                raise DimensionMismatch(f"{op}: present must have values' shape {vals.shape}, "
                                        f"got {pres.shape}")
            pres = _b.contiguous(xp, pres)
        return cls(vals.size, vals.dtype, dev, values=vals, present=pres)

    @classmethod
    def new(cls, size, dtype=np.float64, *, device=None):
        """An empty vector (no entries)."""
        size = _check_size("Vector.new", "size", size)
        dev = _b.resolve_device(device)
        xp = _b.xp_of(dev)
        return cls(size, _t.lookup_dtype(dtype, op="Vector.new"), dev,
                   indices=xp.zeros(0, dtype=xp.int64), svalues=xp.zeros(0, dtype=dtype))

    # ------------------------------------------------------------------ conversions
    def to_dense(self, missing=None):
        """A dense array on the vector's device with ``missing`` where there is no entry.

        Parameters
        ----------
        missing : real number, optional
            The fill where there is no entry. By default the type's zero (``False`` for bool)
            and the vector's dtype. Given, the result's dtype is NumPy's promotion of the
            vector's dtype and ``missing`` (``np.result_type``; a Python scalar is weak: an
            int32 vector with ``missing=-1`` stays int32, a bool vector with ``missing=0``
            gives int64, ``missing=np.inf`` makes an integer vector float64).

        Returns
        -------
        numpy.ndarray or cupy.ndarray

        Examples
        --------
        >>> import numpy as np, semiring as sr
        >>> v = sr.Vector.from_coo([1], [True], size=3)
        >>> v.to_dense(), v.to_dense(missing=-1)
        (array([False,  True, False]), array([-1,  1, -1]))
        """
        if missing is None:
            # (the type's zero: a bool vector stays bool, as NumPy's promotion of a default 0
            # would not keep it)
            dt, missing = self._dtype, 0
        else:
            if not (type(missing) is float or (type(missing) is int and -2**62 < missing < 2**62)):
                _check_missing("Vector.to_dense", missing)  # (which those pass: 2 µs a call)
            dt = np.result_type(self._dtype, missing)
        if self._bitmap is None and self._device == "cpu":
            # a host vector in sparse form (a product's result with empty rows): the fill and
            # one scatter, not the bitmap's two arrays, two scatters and a select (FastSV's
            # and PageRank's out-degrees on urand-10-ef4: 11 -> ~5 µs; session 21, cpu21)
            idx, vals = self._sparse
            out = np.empty(self._size, dtype=dt)
            out.fill(dt.type(missing))  # (np.full: twice the time)
            out[idx] = vals
            return out
        xp = self.xp
        vals, pres = self.bitmap()
        if pres is None:
            return vals.astype(dt, copy=True)
        # (``missing`` as a NumPy scalar: a CuPy array of it is a copy to the device, which
        # waits for the device, in every call)
        return xp.where(pres, vals.astype(dt, copy=False), dt.type(missing))

    def to_coo(self):
        """(indices, values) on the vector's device, indices sorted."""
        i, v = self.sparse()
        return i.copy(), v.copy()

    def _moved(self, dev):
        mv = lambda a: _b.to_device(a, dev)  # noqa: E731
        if self._form == "bitmap":
            v, p = self._bitmap
            return Vector(self._size, self._dtype, dev, values=mv(v), present=mv(p))
        i, v = self._sparse
        return Vector(self._size, self._dtype, dev, indices=mv(i), svalues=mv(v),
                      jumbled=self._jumbled)

    def dup(self) -> "Vector":
        """A copy."""
        if self._form == "bitmap":
            v, p = self._bitmap
            return Vector(self._size, self._dtype, self._device, values=v.copy(),
                          present=None if p is None else p.copy())
        i, v = self._sparse
        return Vector(self._size, self._dtype, self._device, indices=i.copy(), svalues=v.copy(),
                      jumbled=self._jumbled)

    def _assign(self, other: "Vector") -> None:
        """Replace this vector's content with ``other``'s (the output argument of operations)."""
        if other._dtype != self._dtype:
            other = other._cast(self._dtype)
        self._bitmap, self._sparse, self._form = other._bitmap, other._sparse, other._form
        self._jumbled = other._jumbled

    def _cast(self, dtype) -> "Vector":
        dtype = np.dtype(dtype)
        if dtype == self._dtype:
            return self
        if self._form == "bitmap":
            v, p = self._bitmap
            return Vector(self._size, dtype, self._device, values=_t.cast(v, dtype), present=p)
        i, v = self._sparse
        return Vector(self._size, dtype, self._device, indices=i, svalues=_t.cast(v, dtype),
                      jumbled=self._jumbled)

    # ------------------------------------------------------------------ comparison
    def isequal(self, other, *, check_dtype=False) -> bool:
        """Same size, same indices and equal values (NaN equals NaN)."""
        check_bool("Vector.isequal", "check_dtype", check_dtype)
        return self.isclose(other, rel_tol=0.0, abs_tol=0.0, check_dtype=check_dtype)

    def isclose(self, other, *, rel_tol=1e-7, abs_tol=0.0, check_dtype=False) -> bool:
        """Same indices and values equal within tolerances."""
        _check_tolerances("Vector.isclose", rel_tol, abs_tol)
        check_dtype = check_bool("Vector.isclose", "check_dtype", check_dtype)
        other = as_vector(other, op="Vector.isclose", arg="other")
        _b.check_same_device("Vector.isclose", self=self, other=other)
        if self.size != other.size or (check_dtype and self.dtype != other.dtype):
            return False
        (i1, v1), (i2, v2) = self.sparse(), other.sparse()
        if i1.size != i2.size or not bool((i1 == i2).all()):
            return False
        return _values_close(self.xp, v1, v2, rel_tol, abs_tol)


def as_vector(v, *, op: str, arg: str) -> Vector:
    """Accept a Vector or a 1-D NumPy/CuPy array (wrapped as a full vector, not copied)."""
    if isinstance(v, Vector):
        return v
    if isinstance(v, np.ndarray) or _b.is_cupy_array(v):
        if v.ndim != 1:
            raise DimensionMismatch(f"{op}: {arg} must be 1-D, got shape {v.shape}")
        # the caller's name for it in the error (int8, float16, ... are refused), not
        # from_dense's "Vector.from_dense: array.dtype"
        _t.lookup_dtype(v.dtype, op=op, arg=f"{arg}.dtype")
        return Vector.from_dense(v, device=_b.device_of_array(v))  # wrap in place, no copy
    raise DomainMismatch(f"{op}: {arg} must be a semiring.Vector or a 1-D NumPy/CuPy array, got {type(v).__name__}")
