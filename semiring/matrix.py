"""Sparse matrices in CSR form, on the CPU (NumPy) or the GPU (CuPy)."""

from __future__ import annotations

import numpy as np

from . import device as _b
from ._operand import Operand
from . import types as _t
from .errors import (DimensionMismatch, DomainMismatch, DuplicateIndices, InvalidIndex, InvalidValue,
                     check_bool)
from . import ops as _ops
from .ops import lookup

INT32_MAX = np.iinfo(np.int32).max
#: Headroom below 2^31 kept by int32 matrices: kernels step offsets by up to this much past the
#: last entry in 32-bit arithmetic.
INT32_HEADROOM = 1 << 16


def index_type(nrows: int, ncols: int, nvals: int) -> np.dtype:
    """int32 when every index and offset fits (with headroom), else int64 (graphs beyond
    2^31 edges)."""
    return _t.INT32 if max(nrows, ncols, nvals) <= INT32_MAX - INT32_HEADROOM else _t.INT64


def canonical_csr(S) -> bool:
    """Whether a scipy or cupyx CSR's rows are sorted without duplicates, in truth: its
    ``has_canonical_format`` flag is anyone's to set (``S.has_canonical_format = True``), and
    a flag that claims an order the arrays lack must not make a non-canonical Matrix. The
    flag where it says False, else one pass over the indices (and one sync on the GPU).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from semiring.matrix import canonical_csr
    >>> S = sp.csr_array(([1.0, 2.0], [1, 0], [0, 2, 2]), shape=(2, 2))
    >>> S.has_canonical_format = True  # a lie: row 0 is unsorted
    >>> canonical_csr(S), canonical_csr(sp.csr_array(np.eye(2)))
    (False, True)
    """
    indptr, indices = S.indptr, S.indices
    if isinstance(indices, np.ndarray):
        # SciPy's property computes the flag and stores it on the caller's matrix object;
        # only a flag already there is read (the scan below decides otherwise)
        if vars(S).get("_has_canonical_format", True) is False:
            return False
    elif not S.has_canonical_format:
        return False
    m = int(indices.size)
    if m < 2:
        return True
    # ok[k]: entry k rises over entry k - 1 or starts a row: one flag array of m + 1 and one
    # scatter of the row offsets, clipped to [0, m] (a malformed CSR's stray offsets land on
    # the two ends, True anyway, instead of raising here) and in NumPy's index type (an int32
    # index array takes NumPy's slower casting path: 0.29 against 0.15 ms at 10⁵ rows).
    # The filtered form before (a mask, a compress and a shifted copy of the row starts)
    # cost a path of 10⁵ vertices 1.0 ms a check on the 2-core host, this one 0.3 ms, about
    # SciPy's own csr_has_canonical_format; the csgraph facade scans every CSR it hands to
    # SciPy's strong components (a flag that lies would hang SciPy's search).
    if isinstance(indices, np.ndarray):
        xp, pos = np, np.clip(indptr, 0, m, dtype=np.intp)
    else:
        xp, pos = _b.xp_of("gpu"), indptr
    ok = xp.empty(m + 1, dtype=bool)
    xp.greater(indices[1:], indices[:-1], out=ok[1:m])
    ok[0] = ok[m] = True
    ok[pos] = True
    return bool(ok.all())


def _check_dims(op: str, nrows, ncols):
    for name, v in (("nrows", nrows), ("ncols", ncols)):
        _check_size(op, name, v)
    _check_key_space(op, int(nrows), int(ncols))
    return int(nrows), int(ncols)


def _check_key_space(op: str, nrows: int, ncols: int) -> None:
    """An entry (i, j) is addressed by the int64 key ``i * ncols + j`` (from_coo, masks, the
    element-wise operations): past 2**63 positions the keys wrapped, and from_coo([4], [0],
    nrows=5, ncols=2**62 + 1) stored its entry at (0, 4)."""
    if nrows * ncols > _INT64_MAX:
        raise InvalidValue(f"{op}: nrows * ncols (={nrows} * {ncols}) must be below 2**63 "
                           f"(an entry's key is the int64 row * ncols + col)")


_INT64_MAX = int(np.iinfo(np.int64).max)


def _check_size(op: str, name: str, v) -> int:
    """A dimension: a non-negative integer that int64 indices can reach."""
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or not 0 <= v <= _INT64_MAX:
        raise InvalidValue(f"{op}: {name} must be a non-negative integer below 2**63, got {v!r}")
    return int(v)


def _dtype_arg(dtype) -> str:
    """The argument a constructor's value type comes from, for its error: ``dtype=`` when
    given, else the values' own type."""
    return "dtype" if dtype is not None else "values.dtype"


def _check_missing(op: str, missing) -> None:
    """``missing=`` (the fill of a dense result, or the value a dense input leaves out) must
    be a real number: NumPy would read a string as a dtype name, or compare it as text."""
    dt = missing.dtype if hasattr(missing, "dtype") else np.asarray(missing).dtype
    if getattr(missing, "ndim", 0) != 0 or np.ndim(missing) != 0 or dt.kind not in "biuf":
        raise DomainMismatch(f"{op}: missing must be a real number, got {missing!r}")


def row_of_entries(xp, indptr, nnz):
    """The row of each CSR entry: on the host ``np.repeat`` (one pass: urand-14's 524 k
    entries 0.3 ms against searchsorted's 14), on the GPU a searchsorted over indptr (CuPy
    before v14 refuses array-valued repeat counts)."""
    if nnz == 0:
        return xp.zeros(0, dtype=xp.int64)
    if xp is np:
        n = indptr.size - 1
        return np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr.astype(np.int64)))
    return xp.searchsorted(indptr[1:].astype(xp.int64), xp.arange(nnz, dtype=xp.int64),
                           side="right").astype(xp.int64)


class Matrix(_b.Placed, Operand):
    """A sparse matrix: CSR arrays (``indptr``, ``indices``, ``values``) and a shape.

    A missing entry is not a zero: only stored entries take part in operations, and explicit
    zeros are entries. A *structure-only* (iso) matrix stores no values; every entry has the
    one value ``iso_value`` (True for an unweighted graph). Indices are int32 when they fit and
    int64 otherwise. The transpose is computed on first use of ``.T`` in a push or pull and
    cached, so ``A.T.T is A``.

    The matrix lives where its arrays live (NumPy: ``device == 'cpu'``; CuPy: ``'gpu'``); use
    :meth:`to_gpu` / :meth:`to_cpu` to move it.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> S = sp.csr_matrix(np.array([[0, 1.5], [2.0, 0]]))
    >>> A = sr.Matrix.from_scipy(S)
    >>> A.shape, A.nvals, A.dtype
    ((2, 2), 2, dtype('float64'))
    >>> A.T.to_dense(missing=0)
    array([[0. , 2. ],
           [1.5, 0. ]])
    """


    def __init__(self, indptr, indices, values, shape, *, iso_value=None, dtype=None, _T=None):
        # Internal constructor: arrays are taken as they are (already canonical). Use the
        # from_* class methods to build a Matrix from user data.
        self._indptr = indptr
        self._indices = indices
        self._values = values
        self._shape = (int(shape[0]), int(shape[1]))
        if self._shape[0] * self._shape[1] > _INT64_MAX:  # (an operation's result's shape)
            _check_key_space("Matrix", *self._shape)
        if values is None:
            dt = _t.lookup_dtype(dtype if dtype is not None else np.asarray(iso_value).dtype)
            self._iso = _t.cast(np.asarray(iso_value if iso_value is not None else True), dt)[()]
            self._dtype = dt
        else:
            self._iso = None
            self._dtype = np.dtype(values.dtype)
        self._device = _b.device_of_array(indptr)
        self._T = _T
        self._casts = {}
        self._sched = None
        self._sym = None  # the view of _as_symmetric
        self._base = None  # (a view of as_symmetric: the matrix that keeps it as its _sym)
        # facts derived from this content, kept by the layers that use them (the CPU
        # backend's row plans, kernel layouts and SciPy views; an algorithm's weight range):
        # a Matrix changes only through _assign, which drops them all
        self._memo = {}

    # ------------------------------------------------------------------ properties
    @property
    def shape(self):
        return self._shape

    @property
    def nrows(self):
        return self._shape[0]

    @property
    def ncols(self):
        return self._shape[1]

    @property
    def nvals(self) -> int:
        """Number of stored entries (explicit zeros included)."""
        return int(self._indices.size)

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @property
    def device(self) -> str:
        return self._device

    @property
    def indptr(self):
        return self._indptr

    @property
    def indices(self):
        return self._indices

    @property
    def values(self):
        """The stored values, or None for a structure-only matrix (see ``iso_value``)."""
        return self._values

    @property
    def iso_value(self):
        """The value of every entry of a structure-only matrix, else None."""
        return self._iso

    @property
    def is_iso(self) -> bool:
        return self._values is None

    @property
    def itype(self) -> np.dtype:
        return np.dtype(self._indices.dtype)

    @property
    def xp(self):
        return _b.xp_of(self._device)

    def __repr__(self):
        iso = f", iso_value={self._iso!r}" if self.is_iso else ""
        return (f"<Matrix {self.nrows}x{self.ncols}, nvals={self.nvals}, dtype={self.dtype}"
                f"{iso}, device={self.device}>")

    # ------------------------------------------------------------------ transpose
    @property
    def T(self) -> "Matrix":
        """The transpose, computed on first use and cached (``A.T.T is A``)."""
        if self._T is None:
            self._T = self._transpose()
            self._T._T = self
        return self._T

    def as_symmetric(self) -> "Matrix":
        """This matrix as one whose transpose is itself: for algorithms told that A equals Aᵀ
        (``symmetric=True``), whose pulls then read A's rows. A view over the same arrays
        (no copy), made once and cached here; this matrix's own transpose cache is left
        alone, so a false promise cannot corrupt a later ``A.T``.

        Examples
        --------
        >>> import semiring as sr
        >>> A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 1.0], nrows=2, ncols=2, device="cpu")
        >>> S = A.as_symmetric()
        >>> S.T is S, S.transpose_is_self, A.transpose_is_self
        (True, True, False)
        """
        if self._T is self:
            return self
        if self._shape[0] != self._shape[1]:  # (a false promise may be given; this one can't)
            raise DimensionMismatch(f"Matrix.as_symmetric: the matrix must be square, got shape "
                                    f"{self._shape}")
        if self._sym is None:
            M = Matrix(self._indptr, self._indices, self._values, self._shape,
                       iso_value=self._iso, dtype=self._dtype)
            M._T = M
            M._casts = self._casts  # the same arrays: the same casts
            M._base = self
            self._sym = M
        return self._sym

    _as_symmetric = as_symmetric

    @property
    def transpose_is_self(self) -> bool:
        """Whether ``A.T is A``: a view made by :meth:`as_symmetric`."""
        return self._T is self

    def _transpose(self) -> "Matrix":
        xp = self.xp
        nrows, ncols = self.shape
        if xp is np:
            return self._transpose_host()
        # the GPU's counting sort by (column, row) keys: kernels of the backend (installed at
        # its import: containers import no backend), no CuPy element-wise kernel to compile
        new_indptr, new_indices, values = _gpu_transpose[0](
            self._indptr, self._indices, self._values, nrows, ncols)
        return Matrix(new_indptr, new_indices, values, (ncols, nrows), iso_value=self._iso,
                      dtype=self._dtype)

    def _transpose_host(self) -> "Matrix":
        # SciPy's CSR -> CSC is a counting sort, O(n + nnz), rows in order within each column:
        # the same canonical order as the GPU's sort of (column, row) keys, where an argsort of
        # those keys took 7 s at Kronecker 20 (SciPy: about 0.5 s)
        import scipy.sparse as sps  # noqa: PLC0415  (scipy.sparse: imported on use)

        nrows, ncols = self.shape
        pos = sps.csr_matrix((np.arange(self.nvals, dtype=np.int64), self._indices, self._indptr),
                             shape=self.shape).tocsc()
        perm = pos.data
        values = None if self.is_iso else self._values[perm]
        return Matrix(pos.indptr.astype(self.itype), pos.indices.astype(self.itype), values,
                      (ncols, nrows), iso_value=self._iso, dtype=self._dtype)

    # ------------------------------------------------------------------ helpers for kernels
    def values_for(self, dtype):
        """(values as ``dtype``, stride): stride 0 means one iso value for every entry, so
        entry p's value is ``values[p * stride]``. A cast of the values is cached on the
        matrix, so mixed-type products pay for it once.

        Examples
        --------
        >>> import semiring as sr
        >>> A = sr.Matrix.from_coo([0, 1], [1, 0], nrows=2, ncols=2, device="cpu")
        >>> vals, stride = A.values_for("float32")
        >>> vals.tolist(), stride
        ([1.0], 0)
        """
        dtype = np.dtype(dtype)
        if self.is_iso:
            key = ("iso", dtype)
            if key not in self._casts:
                self._casts[key] = self.xp.asarray(_t.cast(np.asarray([self._iso]), dtype))
            return self._casts[key], 0
        if self._values.dtype == dtype:
            return self._values, 1
        if dtype not in self._casts:
            # (a narrowing dtype= of spgemm / dot3 / spmm: the algebra's one cast, which
            # saturates a float into an integer type and takes NaN to 0, not NumPy's
            # INT_MIN or the device's conversion)
            self._casts[dtype] = _t.cast(self._values, dtype)
        return self._casts[dtype], 1

    _values_for = values_for

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_csr(cls, indptr, indices, values, shape, *, iso_value=None, dtype=None,
                 check=True):
        """Build from CSR arrays (NumPy or CuPy; the matrix lives where they live).

        ``values=None`` makes a structure-only matrix whose entries all equal ``iso_value``
        (default True). With ``check=True`` the arrays are validated (monotone ``indptr``,
        indices in range, sorted and unique within each row); no copy is made when they are
        already canonical with int32/int64 indices.

        Examples
        --------
        >>> import numpy as np, semiring as sr
        >>> A = sr.Matrix.from_csr(np.array([0, 1, 1]), np.array([1]), None, (2, 2))
        >>> A.nvals, A.is_iso, A.dtype
        (1, True, dtype('bool'))
        """
        op = "Matrix.from_csr"
        check = check_bool(op, "check", check)
        if not isinstance(shape, (tuple, list)) or len(shape) != 2:
            raise DimensionMismatch(f"{op}: shape must be a pair (nrows, ncols), got {shape!r}")
        nrows, ncols = _check_dims(op, *shape)
        dev = _b.device_of_array(indptr)
        xp = _b.xp_of(dev)
        for name, arr in (("indices", indices), ("values", values)):
            if arr is not None and _b.device_of_array(arr) != dev:
                raise _b.DeviceMismatch(f"{op}: indptr is on the {dev.upper()} but {name} is not")
        indptr = xp.asarray(indptr)
        indices = xp.asarray(indices)
        if indptr.ndim != 1 or indptr.size != nrows + 1:
            raise DimensionMismatch(f"{op}: indptr must have nrows + 1 (={nrows + 1}) entries, got shape {indptr.shape}")
        if indptr.dtype.kind not in "iu" or indices.dtype.kind not in "iu":
            raise DomainMismatch(f"{op}: indptr and indices must be integer arrays, got {indptr.dtype} and {indices.dtype}")
        nnz = int(indptr[-1])
        if indices.ndim != 1 or indices.size != nnz:
            raise DimensionMismatch(f"{op}: indices must have indptr[-1] (={nnz}) entries, got shape {indices.shape}")
        if values is not None:
            values = xp.asarray(values)
            if values.shape != (nnz,):
                raise DimensionMismatch(f"{op}: values must have shape ({nnz},), got {values.shape}")
            _t.lookup_dtype(values.dtype, op=op, arg="values.dtype")
        it = index_type(nrows, ncols, nnz)
        # (strided views copied: the GPU kernels read these arrays by their address alone)
        indptr = _b.contiguous(xp, indptr.astype(it, copy=False))
        indices = _b.contiguous(xp, indices.astype(it, copy=False))
        if values is not None:
            values = _b.contiguous(xp, values)
        if check:
            if int(indptr[0]) != 0 or (nrows and _b.any_true(xp.diff(indptr) < 0)):
                raise InvalidValue(f"{op}: indptr must start at 0 and be nondecreasing")
            if nnz:
                lo, hi = int(indices.min()), int(indices.max())
                if lo < 0 or hi >= ncols:
                    raise InvalidIndex(f"{op}: column indices must lie in [0, {ncols}), got [{lo}, {hi}]")
                rows = xp.repeat(xp.arange(nrows), xp.diff(indptr).astype(xp.int64))
                same_row = rows[1:] == rows[:-1]
                if _b.any_true(same_row & (indices[1:] <= indices[:-1])):
                    raise InvalidValue(f"{op}: column indices must be sorted and unique within each row; "
                                       f"use Matrix.from_coo(..., dup_op=...) for unsorted or duplicate entries")
        if values is None:
            iso = True if iso_value is None else iso_value
            return cls(indptr, indices, None, (nrows, ncols), iso_value=iso,
                       dtype=dtype if dtype is not None else np.asarray(iso).dtype)
        if dtype is not None:
            values = _t.cast(values, _t.lookup_dtype(dtype, op=op))
        return cls(indptr, indices, values, (nrows, ncols))

    @classmethod
    def from_coo(cls, rows, cols, values=None, *, nrows=None, ncols=None, dup_op=None,
                 dtype=None, device=None):
        """Build from coordinate lists.

        Parameters
        ----------
        rows, cols : array_like of int
        values : array_like, scalar or None
            Per-entry values; a scalar or None makes a structure-only matrix with that value
            (None: True).
        nrows, ncols : int, optional
            Default: one more than the largest index.
        dup_op : BinaryOp, Monoid or str, optional
            How to combine duplicate coordinates (e.g. ``sr.binary.min``). Without it,
            duplicates raise :class:`DuplicateIndices`.
        dtype : dtype, optional
        device : {'cpu', 'gpu'}, optional
            Where to build it; default: the GPU for CuPy arrays, else the default device.

        Examples
        --------
        >>> import semiring as sr
        >>> A = sr.Matrix.from_coo([0, 0, 1], [1, 1, 0], [3.0, 2.0, 5.0], dup_op=sr.binary.min)
        >>> A.to_dense(missing=0)
        array([[0., 2.],
               [5., 0.]])
        """
        op = "Matrix.from_coo"
        dev = _coo_device(device, rows, cols, values)
        xp = _b.xp_of(dev)
        rows = _as_index_array(xp, rows, op, "rows")
        cols = _as_index_array(xp, cols, op, "cols")
        if rows.shape != cols.shape:
            raise DimensionMismatch(f"{op}: rows and cols must have the same length, got {rows.size} and {cols.size}")
        iso = values is None or np.ndim(values) == 0
        if not iso:
            _check_host_input(op, "values", values, dev)
            values = xp.asarray(values)
            if values.shape != rows.shape:
                raise DimensionMismatch(f"{op}: values must have the length of rows (={rows.size}), got shape {values.shape}")
            values = _t.cast(values, _t.lookup_dtype(dtype if dtype is not None else values.dtype, op=op,
                                                      arg=_dtype_arg(dtype)))
        if nrows is None:
            nrows = int(rows.max()) + 1 if rows.size else 0
        if ncols is None:
            ncols = int(cols.max()) + 1 if cols.size else 0
        nrows, ncols = _check_dims(op, nrows, ncols)
        _check_range(op, "rows", rows, nrows)
        _check_range(op, "cols", cols, ncols)
        key = rows * max(ncols, 1) + cols
        order = xp.argsort(key, kind="stable") if xp is np else _stable_argsort(xp, key)
        key = key[order]
        dup = key[1:] == key[:-1]
        has_dup = _b.any_true(dup) if key.size > 1 else False
        if not iso:
            values = values[order]
        if has_dup:
            if dup_op is None:
                first = int(xp.flatnonzero(dup)[0])
                r, c = divmod(int(key[first]), max(ncols, 1))
                raise DuplicateIndices(f"{op}: duplicate entry at ({r}, {c}); pass dup_op= to combine duplicates")
            heads = xp.flatnonzero(xp.concatenate([xp.ones(1, dtype=bool), ~dup]))
            dop = _dup_op(op, dup_op)
            if iso:
                # the scalar is every entry's value, duplicates included: they fold as
                # Vector.from_coo folds them (plus of two 1s is 2); the dup_op was ignored
                isov = True if values is None else values
                dt = _t.lookup_dtype(dtype if dtype is not None else np.asarray(isov).dtype,
                                     op=op, arg=_dtype_arg(dtype))
                v0 = _t.cast(np.asarray(isov), dt)[()]
                folded = _combine_duplicates(xp, dop, xp.full(key.size, v0, dtype=dt), heads)
                same = (folded == v0) | ((folded != folded) & (v0 != v0))  # (NaN is NaN)
                if _b.any_true(~same):  # (else every fold gave the scalar back: still iso)
                    values, iso = folded, False
            else:
                values = _combine_duplicates(xp, dop, values, heads)
            key = key[heads]
        r = key // max(ncols, 1)
        c = (key - r * max(ncols, 1))
        it = index_type(nrows, ncols, int(key.size))
        counts = _b.bincount(r, nrows)
        indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)]).astype(it)
        if iso:
            isov = True if values is None else values
            dt = _t.lookup_dtype(dtype if dtype is not None else np.asarray(isov).dtype, op=op,
                                 arg=_dtype_arg(dtype))
            return cls(indptr, c.astype(it), None, (nrows, ncols), iso_value=isov, dtype=dt)
        return cls(indptr, c.astype(it), values, (nrows, ncols))

    @classmethod
    def from_scipy(cls, S, *, device=None, dtype=None, iso=False):
        """Wrap a ``scipy.sparse`` matrix (any format); ``device='gpu'`` copies it to the GPU.

        A canonical CSR matrix (sorted indices, no duplicates) is wrapped without a copy on
        the CPU. Duplicates are summed, which is what they mean to SciPy. Explicit zeros stay
        entries. ``iso=True`` keeps only the structure (entries equal True).

        Examples
        --------
        >>> import numpy as np, scipy.sparse as sp, semiring as sr
        >>> S = sp.random(5, 5, density=0.4, format="csr", random_state=0)
        >>> A = sr.Matrix.from_scipy(S, device="cpu")
        >>> A.nvals == S.nnz and A.values is S.data
        True
        """
        import scipy.sparse as sps  # noqa: PLC0415  (scipy.sparse: imported on use)

        op = "Matrix.from_scipy"
        iso = check_bool(op, "iso", iso)
        if not sps.issparse(S):
            raise DomainMismatch(f"{op}: S must be a scipy.sparse matrix, got {type(S).__name__}")
        if S.ndim != 2:  # (a 1-D sparray)
            raise DimensionMismatch(f"{op}: S must be 2-D, got shape {S.shape}")
        if S.format != "csr":
            S = S.tocsr()
        if not canonical_csr(S):  # (a copy's flags are its own: sum_duplicates sorts)
            S = S.copy()
            S.sum_duplicates()
        if not iso:
            _t.lookup_dtype(S.dtype, op=op, arg="S.dtype")
        A = cls.from_csr(S.indptr, S.indices, None if iso else S.data, S.shape,
                         dtype=dtype, check=False)
        dev = _b.resolve_device(device)
        return A if dev == "cpu" else A.to_gpu()

    @classmethod
    def from_cupyx(cls, S, *, dtype=None, iso=False):
        """Wrap a ``cupyx.scipy.sparse`` matrix, without a copy when it is canonical CSR."""
        op = "Matrix.from_cupyx"
        iso = check_bool(op, "iso", iso)
        try:
            import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy: GPU only)
        except Exception as e:  # pragma: no cover - only without cupy
            raise DomainMismatch(f"{op}: cupyx is not available") from e
        if not cps.issparse(S):
            raise DomainMismatch(f"{op}: S must be a cupyx.scipy.sparse matrix, got {type(S).__name__}")
        if S.format != "csr":
            S = S.tocsr()
        if not canonical_csr(S):
            S = S.copy()
            S.has_canonical_format = False  # (cupyx: as SciPy's copy, whatever the flag)
            S.sum_duplicates()
        return cls.from_csr(S.indptr, S.indices, None if iso else S.data, S.shape,
                            dtype=dtype, check=False)

    @classmethod
    def from_dense(cls, array, *, missing=None, device=None):
        """Entries of a 2-D array; those equal to ``missing`` (NaN matches NaN) are absent.

        Built on ``device``; by default on the GPU for a CuPy array, else on the default device.

        Examples
        --------
        >>> import numpy as np, semiring as sr
        >>> A = sr.Matrix.from_dense(np.array([[0, 3], [4, 0]]), missing=0)
        >>> A.nvals
        2
        """
        op = "Matrix.from_dense"
        dev = _coo_device(device, array)
        xp = _b.xp_of(dev)
        a = xp.asarray(array) if dev == _b.device_of_array(array) else _b.to_device(array, dev)
        if a.ndim != 2:
            raise DimensionMismatch(f"{op}: array must be 2-D, got shape {a.shape}")
        _t.lookup_dtype(a.dtype, op=op, arg="array.dtype")
        present = _present_of_dense(xp, a, missing, op)
        rows, cols = xp.nonzero(present)
        return cls.from_coo(rows, cols, a[rows, cols], nrows=a.shape[0], ncols=a.shape[1],
                            device=dev)

    @classmethod
    def from_networkx(cls, G, *, nodelist=None, weight="weight", dtype=None, device=None):
        """The adjacency matrix of a NetworkX graph (see :func:`semiring.io.from_networkx`).

        Examples
        --------
        >>> import networkx as nx, semiring as sr
        >>> G = nx.path_graph(3)
        >>> A = sr.Matrix.from_networkx(G, weight=None)
        >>> A.nvals, A.is_iso
        (4, True)
        """
        import networkx as nx  # noqa: PLC0415  (networkx: an optional extra)

        if not isinstance(G, nx.Graph):
            raise DomainMismatch(f"Matrix.from_networkx: G must be a networkx graph, got {type(G).__name__}")
        if nodelist is not None and (isinstance(nodelist, (str, bytes))
                                     or not hasattr(nodelist, "__len__")
                                     or not hasattr(nodelist, "__iter__")):
            # NetworkX takes len(nodelist): an iterator or a number failed there unnamed
            raise DomainMismatch(f"Matrix.from_networkx: nodelist must be a sequence of nodes "
                                 f"or None, got {type(nodelist).__name__}")
        S = nx.to_scipy_sparse_array(G, nodelist=nodelist, weight=weight, format="csr",
                                     dtype=dtype)
        return cls.from_scipy(S, device=_b.resolve_device(device), iso=weight is None)

    def to_networkx(self, *, create_using=None, weight="weight"):
        """A NetworkX graph of this CPU matrix (see :func:`semiring.io.to_networkx`)."""
        import networkx as nx  # noqa: PLC0415  (networkx: an optional extra)

        op = "Matrix.to_networkx"
        if self.device != "cpu":
            raise _b.DeviceMismatch(f"{op}: the matrix is on the GPU; call .to_cpu() first")
        if self.nrows != self.ncols:
            raise DimensionMismatch(f"{op}: A must be square, got shape {self.shape}")
        return nx.from_scipy_sparse_array(self.to_scipy(), create_using=create_using or nx.DiGraph,
                                          edge_attribute=weight)

    @classmethod
    def from_edgelist(cls, edges, weights=None, *, nvertices=None, undirected=False,
                      dup_op=None, dtype=None, device=None):
        """An adjacency matrix from an (m, 2) array of (source, target) pairs.

        ``weights=None`` (or a scalar) gives a structure-only matrix. ``undirected=True`` adds
        each edge in both directions (a self-loop once). Duplicate pairs raise
        :class:`DuplicateIndices` unless ``dup_op`` combines them (an undirected edge listed
        both ways is a duplicate once symmetrized).

        Examples
        --------
        >>> import semiring as sr
        >>> A = sr.Matrix.from_edgelist([[0, 1], [1, 2]], undirected=True)
        >>> A.shape, A.nvals
        ((3, 3), 4)
        """
        op = "Matrix.from_edgelist"
        undirected = check_bool(op, "undirected", undirected)
        xp = _b.xp_of("gpu") if _b.is_cupy_array(edges) else np
        e = xp.asarray(edges)
        if e.ndim == 1 and e.size == 0:  # [] : no edges (NumPy cannot tell its width)
            e = e.reshape(0, 2)
        if e.ndim != 2 or e.shape[1] != 2:
            raise DimensionMismatch(f"{op}: edges must have shape (m, 2), got {e.shape}")
        src, dst = e[:, 0], e[:, 1]
        w = weights
        if undirected:
            off = src != dst
            src, dst = xp.concatenate([src, dst[off]]), xp.concatenate([dst, src[off]])
            if w is not None and np.ndim(w) > 0:
                w = xp.asarray(w)
                if w.shape != (e.shape[0],):
                    raise DimensionMismatch(f"{op}: weights must have one value per edge (={e.shape[0]}), got shape {w.shape}")
                w = xp.concatenate([w, w[off]])
        n = nvertices
        if n is None:
            n = int(max(int(src.max()), int(dst.max()))) + 1 if src.size else 0
        return cls.from_coo(src, dst, w, nrows=n, ncols=n, dup_op=dup_op, dtype=dtype,
                            device=device)

    # ------------------------------------------------------------------ conversions
    def _moved(self, dev):
        mv = lambda a: _b.to_device(a, dev)  # noqa: E731
        return Matrix(mv(self._indptr), mv(self._indices), mv(self._values), self._shape,
                      iso_value=self._iso, dtype=self._dtype)

    def _host_copy(self):
        """This matrix on the CPU, a GPU matrix's copy made once and kept in its memo: the
        host routes of small GPU input (``algorithms``' ``*_HOST_MAX_*`` bounds) keep the
        copy's own caches (its transpose, the compiled passes' plans) from call to call.
        Internal: the copy is shared, never changed, never handed to a caller (a change to
        this matrix drops the memo, and the copy with it)."""
        if self._device == "cpu":
            return self
        host = self._memo.get("host_copy")
        if host is None:
            host = self._memo["host_copy"] = self._moved("cpu")
        return host

    def _full_values(self):
        if self.is_iso:
            return self.xp.full(self.nvals, self._iso, dtype=self._dtype)
        return self._values

    def to_scipy(self):
        """A ``scipy.sparse.csr_matrix`` (on the CPU; raises for a GPU matrix).

        It shares this matrix's arrays, as :meth:`from_scipy` wraps a SciPy matrix's: no
        copy is made, so write only into ``.copy()`` of it (a write into the view would
        change this matrix behind its cached transpose and plans). :meth:`to_coo` gives
        new arrays.
        """
        import scipy.sparse as sps  # noqa: PLC0415  (scipy.sparse: imported on use)

        if self._device != "cpu":
            raise _b.DeviceMismatch("Matrix.to_scipy: the matrix is on the GPU; call .to_cpu() first or use to_cupyx()")
        return sps.csr_matrix((self._full_values(), self._indices, self._indptr), shape=self._shape)

    def to_cupyx(self):
        """A ``cupyx.scipy.sparse.csr_matrix`` (GPU matrix; float and bool values only),
        sharing this matrix's arrays as :meth:`to_scipy` does."""
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy: GPU only)

        if self._device != "gpu":
            raise _b.DeviceMismatch("Matrix.to_cupyx: the matrix is on the CPU; call .to_gpu() first or use to_scipy()")
        if self._dtype.kind not in "fb":
            raise DomainMismatch(f"Matrix.to_cupyx: cupyx sparse matrices hold bool, float32 or float64, got {self._dtype}")
        return cps.csr_matrix((self._full_values(), self._indices, self._indptr), shape=self._shape)

    def entry_rows(self):
        """The row of each stored entry, in storage order (int64, on the matrix's device).

        >>> import semiring as sr
        >>> sr.Matrix.from_coo([0, 2, 2], [1, 0, 1], None, nrows=3, ncols=2).entry_rows().tolist()
        [0, 2, 2]
        """
        return row_of_entries(self.xp, self._indptr, self.nvals)

    def to_coo(self):
        """(rows, cols, values) arrays on the matrix's device: new arrays, as
        :meth:`Vector.to_coo` gives (a write into them leaves the matrix as it was).

        >>> import semiring as sr
        >>> A = sr.Matrix.from_coo([1, 0], [0, 1], [2.0, 3.0])
        >>> r, c, v = A.to_coo()
        >>> v[:] = 0
        >>> A.to_dense(missing=-1).tolist()
        [[-1.0, 3.0], [2.0, -1.0]]
        """
        rows, cols, vals = self._coo()
        # (the stored values themselves were handed out: a caller's write changed the matrix
        # behind its cached transpose, casts and plans)
        return rows, cols, vals if self.is_iso else vals.copy()

    def _coo(self):
        """to_coo's arrays, the values the matrix's own (read, never written)."""
        xp = self.xp
        rows = xp.repeat(xp.arange(self.nrows, dtype=xp.int64), xp.diff(self._indptr).astype(xp.int64))
        return rows, self._indices.astype(xp.int64), self._full_values()

    def to_dense(self, missing=None):
        """A dense array with ``missing`` where there is no entry.

        Parameters
        ----------
        missing : real number, optional
            The fill where there is no entry. By default the type's zero (``False`` for bool)
            and the matrix's dtype. Given, the result's dtype is NumPy's promotion of the
            matrix's dtype and ``missing`` (``np.result_type``; a Python scalar is weak: an
            int32 matrix with ``missing=-1`` stays int32, a bool matrix with ``missing=0``
            gives int64, ``missing=np.inf`` makes an integer matrix float64).

        Returns
        -------
        numpy.ndarray or cupy.ndarray

        Examples
        --------
        >>> import numpy as np, semiring as sr
        >>> A = sr.Matrix.from_coo([0], [1], [True], nrows=2, ncols=2)
        >>> A.to_dense()
        array([[False,  True],
               [False, False]])
        >>> A.to_dense(missing=np.inf)
        array([[inf,  1.],
               [inf, inf]])
        """
        xp = self.xp
        if missing is None:
            dt, missing = self._dtype, 0  # (the type's zero: a bool matrix stays bool)
        else:
            _check_missing("Matrix.to_dense", missing)
            dt = np.result_type(self._dtype, missing)
        out = xp.full(self._shape, missing, dtype=dt)
        rows, cols, vals = self._coo()
        out[rows, cols] = vals
        return out

    # ------------------------------------------------------------------ comparison
    def isequal(self, other, *, check_dtype=False) -> bool:
        """Same shape, same structure and equal values (NaN equals NaN)."""
        check_bool("Matrix.isequal", "check_dtype", check_dtype)
        return self.isclose(other, rel_tol=0.0, abs_tol=0.0, check_dtype=check_dtype)

    def isclose(self, other, *, rel_tol=1e-7, abs_tol=0.0, check_dtype=False) -> bool:
        """Same structure and values equal within tolerances (inf equals inf)."""
        _check_tolerances("Matrix.isclose", rel_tol, abs_tol)
        check_dtype = check_bool("Matrix.isclose", "check_dtype", check_dtype)
        other = as_matrix(other, op="Matrix.isclose", arg="other")
        _b.check_same_device("Matrix.isclose", self=self, other=other)
        if self.shape != other.shape or self.nvals != other.nvals:
            return False
        if check_dtype and self.dtype != other.dtype:
            return False
        xp = self.xp
        if not (bool((self._indptr == other._indptr).all()) and bool((self._indices == other._indices).all())):
            return False
        return _values_close(xp, self._full_values(), other._full_values(), rel_tol, abs_tol)

    # ------------------------------------------------------------------ output updates
    def _assign(self, other: "Matrix") -> None:
        """Replace this matrix's content with ``other``'s (the output argument of operations);
        this matrix keeps its dtype, and its cached transpose, casts and schedule are dropped."""
        if other.shape != self.shape:
            raise DimensionMismatch(f"Matrix._assign: shape {other.shape} must equal {self.shape}")
        if other._dtype != self._dtype:
            other = other._cast(self._dtype)
        self._indptr, self._indices, self._values = other._indptr, other._indices, other._values
        self._iso = other._iso
        if self._T is not None:
            self._T._T = None
        self._T = None
        self._casts = {}
        self._sched = None
        self._sym = None
        self._memo = {}
        # a view written to (an operation's out=) no longer holds its base's content: the base
        # makes a new view, else its as_symmetric() would answer the view's new content
        if self._base is not None and self._base._sym is self:
            self._base._sym = None
        self._base = None

    def _cast(self, dtype) -> "Matrix":
        dtype = np.dtype(dtype)
        if dtype == self._dtype:
            return self
        if self.is_iso:
            return Matrix(self._indptr, self._indices, None, self._shape,
                          iso_value=_t.cast(np.asarray(self._iso), dtype)[()], dtype=dtype)
        return Matrix(self._indptr, self._indices, _t.cast(self._values, dtype), self._shape)

    def dup(self) -> "Matrix":
        """A copy."""
        return Matrix(self._indptr.copy(), self._indices.copy(),
                      None if self.is_iso else self._values.copy(), self._shape,
                      iso_value=self._iso, dtype=self._dtype)


# ---------------------------------------------------------------------- module helpers

def _check_tolerances(op, rel_tol, abs_tol) -> None:
    """As :func:`math.isclose`: tolerances are non-negative numbers (and not NaN, which
    would make every comparison of a NaN-free pair false or true depending on the path)."""
    for name, t in (("rel_tol", rel_tol), ("abs_tol", abs_tol)):
        if isinstance(t, bool) or not isinstance(t, (int, float, np.integer, np.floating)) \
                or not t >= 0:
            raise InvalidValue(f"{op}: {name} must be a non-negative number, got {t!r}")


def _values_close(xp, a, b, rel_tol, abs_tol) -> bool:
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        return bool(xp.all(a == b))
    a = a.astype(xp.float64)
    b = b.astype(xp.float64)
    same = (a == b) | (xp.isnan(a) & xp.isnan(b))
    with np.errstate(invalid="ignore"):
        close = xp.abs(a - b) <= xp.maximum(rel_tol * xp.maximum(xp.abs(a), xp.abs(b)), abs_tol)
    return bool(xp.all(same | close))


def _present_of_dense(xp, a, missing, op):
    if missing is None:
        return xp.ones(a.shape, dtype=bool)
    _check_missing(op, missing)
    if isinstance(missing, float) and np.isnan(missing):
        return ~xp.isnan(a) if a.dtype.kind == "f" else xp.ones(a.shape, dtype=bool)
    return a != missing


def _coo_device(device, *arrays):
    """Where a constructor builds its object: ``device`` when given; the GPU for CuPy input;
    otherwise (NumPy arrays, lists, SciPy matrices) the default device."""
    if device is not None:
        return _b.resolve_device(device)
    if any(_b.is_cupy_array(a) for a in arrays):
        return "gpu"
    return _b.default_device()


def _check_host_input(op, arg, a, device):
    """A CuPy array given to build a CPU object is an error, not a silent copy."""
    if device == "cpu" and _b.is_cupy_array(a):
        raise _b.DeviceMismatch(f"{op}: {arg} is on the GPU but the object is built on the CPU; "
                                f"pass device='gpu' or move it with .get()")


def _as_index_array(xp, a, op, arg):
    _check_host_input(op, arg, a, "cpu" if xp is np else "gpu")
    a = xp.asarray(a)
    if a.ndim != 1:
        raise DimensionMismatch(f"{op}: {arg} must be 1-D, got shape {a.shape}")
    if a.size and a.dtype.kind not in "iu":
        raise DomainMismatch(f"{op}: {arg} must hold integers, got {a.dtype}")
    if a.size and a.dtype == np.uint64 and int(a.max()) > _INT64_MAX:  # (would wrap negative)
        raise InvalidIndex(f"{op}: {arg} must lie below 2**63, got {int(a.max())}")
    return a.astype(xp.int64, copy=False)


def _check_range(op, arg, a, n):
    if a.size:
        lo, hi = int(a.min()), int(a.max())
        if lo < 0 or hi >= n:
            raise InvalidIndex(f"{op}: {arg} must lie in [0, {n}), got values in [{lo}, {hi}]")


def _stable_argsort(xp, key):
    """A stable argsort of ``key`` on the GPU (repeated keys keep their input order: the
    duplicates' fold order). CuPy's ``argsort`` is stable (its documentation: ``kind=None``
    "is equivalent to 'stable'"; a 1-D sort is thrust's ``stable_sort_by_key``). Keys made
    unique as ``key · size + position`` overflowed int64 once max(key) · size reached 2⁶³:
    a ``from_coo`` of n² = 2⁴⁰ positions and 2²⁶ entries (Borůvka's candidate edges on
    kron-20) sorted wrapped keys into a corrupt CSR (the csgraph facade's
    minimum_spanning_tree on kron-20 and grid-2048² then ran past 12 s on an H200)."""
    return xp.argsort(key)


def _dup_op(op: str, dup_op):
    """The BinaryOp of a constructor's ``dup_op`` (a positional op is refused: a duplicate
    has no second position to read)."""
    d = lookup("binary", dup_op, op=op, arg="dup_op")
    if d.positional:
        raise DomainMismatch(f"{op}: dup_op must not be a positional op (duplicates share one "
                             f"position), got {d.name}")
    return d


def _combine_duplicates(xp, op, values, heads):
    """Fold runs of duplicates with ``op`` left to right in input order, z = (T) op(z, x)
    in the values' type T (runs start at ``heads``), as GrB_Matrix_build and the GPU's
    ``segment_fold`` kernel do; a run of one keeps its value. (A float plus / times run is
    summed in NumPy's ``reduceat`` order: its rounding, as every float fold's of the
    algebra, is the implementation's.)"""
    if xp is not np:
        return _gpu_fold[0](op, values, heads)
    dt = values.dtype
    n = values.size
    lengths = np.diff(np.append(heads, n))
    f = op.numpy
    with np.errstate(all="ignore"):
        if f in (np.add, np.multiply, np.fmin, np.fmax):  # (associative: reduceat's order)
            return f.reduceat(values, heads).astype(dt, copy=False) if n else values[:0]
        if op is _ops.binary.first or op is _ops.binary.any:
            return values[heads]
        if op is _ops.binary.second:
            return values[np.append(heads[1:], n) - 1]
        if f in (np.logical_or, np.logical_and, np.logical_xor):
            # associative on x != 0 (NaN is true, as C's test): the fold of a longer run
            # in bool, cast to T; a run of one is its value (reduceat gave bool(x), which
            # turned a lone 2 into 1)
            out = _t.cast(f.reduceat(values != 0, heads), dt) if n else values[:0]
            one = lengths == 1
            out[one] = values[heads[one]]
            return out
        # any other op (minus, the comparisons, a user's): one vectorized step per position
        # of the longest run, in order (a pairwise fold regrouped minus: 100 - 1 - 2 - 4 - 8
        # gave 93)
        out = values[heads].copy()
        live = np.flatnonzero(lengths > 1)
        t = 1
        while live.size:
            z = op.apply_numpy(out[live], values[heads[live] + t], dt)
            out[live] = _t.cast(z, dt)
            t += 1
            live = live[lengths[live] > t]
        return out


#: ``[fold(op, values, heads)]``: the GPU fold of runs of duplicates, installed by
#: :mod:`semiring.backend.gpu.spmv` at import (containers import no backend: the backend, the
#: layer above, plugs its kernel in).
_gpu_fold: list = []


def install_gpu_fold(fold) -> None:
    _gpu_fold[:] = [fold]


#: ``[transpose(indptr, indices, values, nrows, ncols)]``: the GPU transpose of a canonical
#: CSR, installed by :mod:`semiring.backend.gpu.prep` at import (as ``_gpu_fold``).
_gpu_transpose: list = []


def install_gpu_transpose(transpose) -> None:
    _gpu_transpose[:] = [transpose]


def as_matrix(A, *, op: str, arg: str, square: bool = False) -> Matrix:
    """Accept a Matrix, a scipy.sparse or a cupyx.scipy.sparse matrix (wrapped, not copied);
    with ``square=True`` also require nrows == ncols (an adjacency matrix), naming ``op`` and
    ``arg`` in the error.

    Examples
    --------
    >>> import scipy.sparse as sp, semiring as sr
    >>> sr.as_matrix(sp.eye(2, 3, format="csr"), op="bfs", arg="A", square=True)
    Traceback (most recent call last):
    ...
    semiring.errors.DimensionMismatch: bfs: A must be square, got shape (2, 3)
    """
    M = _as_matrix(A, op=op, arg=arg)
    if square and M.nrows != M.ncols:
        raise DimensionMismatch(f"{op}: {arg} must be square, got shape {M.shape}")
    return M


def _as_matrix(A, *, op: str, arg: str) -> Matrix:
    if isinstance(A, Matrix):
        return A
    import scipy.sparse as sps  # noqa: PLC0415  (scipy.sparse: imported on use)

    if sps.issparse(A):
        # the caller's name for A in the error, not from_scipy's (int8, uint16, ... are refused)
        _t.lookup_dtype(A.dtype, op=op, arg=f"{arg}.dtype")
        return Matrix.from_scipy(A, device="cpu")
    cp = _b._cupy()
    if cp is not None:
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy: GPU only)

        if cps.issparse(A):
            return Matrix.from_cupyx(A)
    raise DomainMismatch(
        f"{op}: {arg} must be a semiring.Matrix or a scipy/cupyx sparse matrix, got {type(A).__name__}"
    )
