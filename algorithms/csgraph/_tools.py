"""Conversions and the Laplacian: csgraph_from_dense, csgraph_from_masked,
csgraph_masked_from_dense, csgraph_to_dense, csgraph_to_masked, laplacian.

Host input runs SciPy's own routine (on a copy where SciPy would write into its input); GPU
input (CuPy arrays, cupyx sparse, a GPU ``semiring.Matrix``) is computed on the GPU with
vectorized array operations and answered on the GPU. NumPy's masked arrays have no GPU
counterpart: the two functions that return one return it on the host.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

import semiring as sr

from . import _validation as _v
from ._shortest import _scg


def _dense_arg(graph, op: str):
    """A dense 2-D array argument: a CuPy array stays on the GPU, anything else is NumPy."""
    if sr.is_gpu_array(graph):
        a = graph
    else:
        a = np.asarray(graph)
    if a.ndim != 2:
        raise sr.DimensionMismatch(f"{op}: graph must be 2-D, got shape {a.shape}")
    if a.dtype.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: graph must have a real dtype, got {a.dtype}")
    return a


def csgraph_from_dense(graph, null_value=0, nan_null=True, infinity_null=True):
    """The sparse graph of a dense array, as ``scipy.sparse.csgraph.csgraph_from_dense``: the
    entries equal to ``null_value`` (None: none), infinite (``infinity_null``) or NaN
    (``nan_null``) are not edges; the others are, zeros included when ``null_value`` is not 0.
    A float64 ``csr_array`` (SciPy's kind; ``csr_matrix`` for a ``numpy.matrix``), or for a
    CuPy array a ``cupyx`` CSR on the GPU.
    Computed by :func:`._validation.as_graph`, the conversion every facade function uses
    (deviation: an empty 0 × 0 array works; SciPy fails on it with some switches).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> G = csgraph.csgraph_from_dense(np.array([[0, 2.0], [np.inf, 0]]))
    >>> type(G).__name__, G.nnz, G.toarray().tolist()
    ('csr_array', 1, [[0.0, 2.0], [0.0, 0.0]])
    """
    op = "csgraph_from_dense"
    a = _dense_arg(graph, op)
    A = _v.as_graph(a, op, arg="graph", square=True, null_value=null_value,
                    infinity_null=infinity_null, nan_null=nan_null)
    # SciPy answers a numpy.matrix with a csr_matrix (the matrix family stays a matrix)
    kind = "cupyx" if sr.is_gpu_array(a) else \
        "spmatrix" if isinstance(graph, np.matrix) else "sparray"
    return _v.sparse_output(kind, A.values, A.indices, A.indptr, A.shape)


def csgraph_from_masked(graph):
    """The sparse graph of a masked array, as ``scipy.sparse.csgraph.csgraph_from_masked``:
    every unmasked entry is an edge (zeros included), a masked one is not. A float64
    ``csr_array``. Deviation: a mask given as the scalar ``nomask`` (no entry masked) works
    (SciPy fails on it).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> M = np.ma.masked_array([[0, 1.0], [0, 0]], mask=[[0, 1], [0, 0]])
    >>> csgraph.csgraph_from_masked(M).nnz
    3
    """
    op = "csgraph_from_masked"
    if not isinstance(graph, np.ma.MaskedArray):
        graph = np.ma.asarray(graph)
    else:  # SciPy's own np.ma.asarray of it, and its warnings
        _v.masked_warnings(graph)
    A = _v.as_graph(graph, op, arg="graph", square=True)
    return _v.sparse_output("sparray", A.values, A.indices, A.indptr, A.shape)


def csgraph_masked_from_dense(graph, null_value=0, nan_null=True, infinity_null=True,
                              copy=True):
    """A masked array of a dense graph, as ``scipy.sparse.csgraph.csgraph_masked_from_dense``:
    the non-edges (``null_value``, inf, NaN as switched) masked. ``copy=False`` shares the
    caller's array (SciPy's opt-in: the caller then must not change it). A CuPy array is
    answered on the host (NumPy has masked arrays, CuPy does not).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> csgraph.csgraph_masked_from_dense(np.array([[0, 2.0], [1.0, 0]])).mask.tolist()
    [[True, False], [False, True]]
    """
    op = "csgraph_masked_from_dense"
    a = _dense_arg(graph, op)
    if sr.is_gpu_array(a):
        a = a.get()
    return _scg().csgraph_masked_from_dense(a, null_value=null_value, nan_null=nan_null,
                                            infinity_null=infinity_null, copy=copy)


#: The sparse formats SciPy's ``csgraph_to_dense`` (and ``csgraph_to_masked``) reads: another
#: format's conversion to CSR would sum its duplicate entries, which a graph keeps as parallel
#: edges, so SciPy refuses it (a ``ValueError``, for sparse arrays and matrices alike).
TO_DENSE_FORMATS = ("lil", "csr", "csc")


def _check_to_dense_format(csgraph, op: str) -> None:
    """SciPy's format rule (:data:`TO_DENSE_FORMATS`) for scipy.sparse and cupyx input (a
    cupyx COO or DIA as its host counterpart), as :class:`semiring.InvalidValue` (a
    ``ValueError``, SciPy's class). A graph that is not 2-D raises
    :class:`._validation.NotTwoD` first (SciPy names the format first there: each is a
    ``ValueError``)."""
    if not (_v._is_scipy_sparse(csgraph) or _v._is_cupyx_sparse(csgraph)):
        return
    _v.check_2d(op, "csgraph", csgraph.shape)
    if csgraph.format not in TO_DENSE_FORMATS:
        raise sr.InvalidValue(f"{op}: csgraph must be lil, csr, or csc format (another "
                              f"format's conversion would sum its duplicate entries), got "
                              f"{csgraph.format}")


def _to_dense_engine(A: sr.Matrix, null_value):
    """D = A as a dense array, the smallest of parallel edges, ``null_value`` elsewhere."""
    xp = A.xp
    D = xp.full(A.shape, np.float64(null_value), dtype=xp.float64)
    r, c, v = A.to_coo()
    D[r, c] = v
    return D


def csgraph_to_dense(csgraph, null_value=0):
    """The dense array of a sparse graph, as ``scipy.sparse.csgraph.csgraph_to_dense``: float64,
    ``null_value`` where there is no edge, explicit zeros kept as 0 and parallel edges reduced
    to the smallest (unlike ``toarray()``, which sums them). On the GPU for GPU input.

    Sparse input in CSR, CSC or LIL format only, as SciPy: a COO, DOK, BSR or DIA matrix or
    array (cupyx COO and DIA too) raises :class:`semiring.InvalidValue`, a ``ValueError`` as
    SciPy's "csgraph must be lil, csr, or csc format" (converting it would sum its duplicate
    entries); a graph that is not 2-D raises its 2-D error first. Deviation: a dense array or
    a ``semiring.Matrix`` is read as every function reads it (SciPy: "csgraph must be sparse").

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> S = sp.csr_array(([5.0, 1.0, 0.0], [1, 1, 0], [0, 3, 3]), shape=(2, 2))
    >>> csgraph.csgraph_to_dense(S, null_value=-1).tolist()
    [[0.0, 1.0], [-1.0, -1.0]]
    """
    op = "csgraph_to_dense"
    S = _v.scipy_csr(csgraph)
    if S is not None:  # SciPy reads a CSR as it is (parallel edges: the smallest) and never
        return _scg().csgraph_to_dense(S, null_value=null_value)  # writes into it
    # SciPy's null_value is a C double, converted before the graph is looked at (a string,
    # None or a list: its TypeError, whatever the graph)
    null_value = _v.real_number(null_value, op, "null_value")
    _check_to_dense_format(csgraph, op)
    if _v.is_gpu_input(csgraph) or _v.engine_forced() or isinstance(csgraph, sr.Matrix) \
            or not _v._is_scipy_sparse(csgraph):
        # a stored NaN weight is inf, as SciPy's fill keeps only entries below the cell's
        A = _v.stored_nan_as_inf(_v.as_graph(csgraph, op, dup="min", square=True,
                                             cast_sums=False), csgraph)
        return _to_dense_engine(A, null_value)
    S = _v.as_scipy_csr(csgraph, op, square=True, cast_sums=False)
    return _scg().csgraph_to_dense(S, null_value=null_value)


def csgraph_to_masked(csgraph):
    """A masked array of a sparse graph, as ``scipy.sparse.csgraph.csgraph_to_masked``: the
    entries float64 (parallel edges: the smallest), the non-edges masked, and like SciPy a
    stored inf or NaN weight masked as well. On the host for
    every input (NumPy has masked arrays, CuPy does not). Formats and deviations as
    :func:`csgraph_to_dense` (COO, DOK, BSR, DIA raise SciPy's ``ValueError``).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> int(csgraph.csgraph_to_masked(sp.csr_array(np.array([[0, 2.0], [0, 0]]))).count())
    1
    """
    op = "csgraph_to_masked"
    _check_to_dense_format(csgraph, op)
    A = _v.stored_nan_as_inf(_v.as_graph(csgraph, op, dup="min", square=True,
                                         cast_sums=False), csgraph)
    if A.device == "gpu":
        A = A.to_cpu()
    # as SciPy: the dense graph with NaN for "no edge", then every NaN and inf masked (a stored
    # inf or NaN weight is masked too)
    return np.ma.masked_invalid(_to_dense_engine(A, np.nan))


# ------------------------------------------------------------------------------ laplacian


class UnsignedLaplacian(sr.DomainMismatch, OverflowError):
    """The Laplacian array of an unsigned or bool graph, whose dtype cannot hold its negated
    entries: SciPy fails with NumPy's error, an ``OverflowError`` (unsigned, ``normed=False``:
    "Python integer -1 out of bounds") or a ``UFuncTypeError`` (a ``TypeError``: bool, or
    ``normed=True``). The engine path raises this one class, both of those, so that code that
    catches SciPy's error catches it on every path."""


def _lap_modules(csgraph):
    """(graph, xp, sparse module, LinearOperator) for the engine's Laplacian: the input itself
    on its device (a ``semiring.Matrix`` as a CSR of its kind)."""
    gpu = _v.is_gpu_input(csgraph)
    if gpu:
        import cupy as xp  # noqa: PLC0415  (CuPy is optional: GPU input only)
        import cupyx.scipy.sparse as sps  # noqa: PLC0415  (CuPy is optional: GPU input only)
        from cupyx.scipy.sparse.linalg import LinearOperator  # noqa: PLC0415  (CuPy is optional: GPU input only)
    else:  # the tests' FORCE_ENGINE switch: the same code on NumPy
        xp, sps, LinearOperator = np, scipy.sparse, scipy.sparse.linalg.LinearOperator
    if isinstance(csgraph, sr.Matrix):
        A = csgraph
        vals = A.values if not A.is_iso else xp.full(A.nvals, A.iso_value, dtype=A.dtype)
        cls = sps.csr_matrix if gpu else sps.csr_array
        csgraph = cls((vals.copy(), A.indices.copy(), A.indptr.copy()), shape=A.shape)
    elif _own_sparse(csgraph) and csgraph.format not in ("csr", "csc", "coo"):
        # :func:`_laplacian_own_sparse` reads these three formats' arrays (never writing them)
        csgraph = csgraph.tocsr()
    return csgraph, xp, sps, LinearOperator


#: Tests only (with ``_validation.FORCE_ENGINE``): a scipy.sparse CSR, CSC or COO (the
#: formats cupyx has) takes the engine's Laplacian of cupyx input, :func:`_laplacian_own_sparse`
#: (the GPU's path for every sparse input: a GPU ``semiring.Matrix`` comes as a cupyx CSR).
#: Off, FORCE_ENGINE's sparse input runs SciPy's own steps on NumPy (the same bits as SciPy);
#: on, the GPU's segment sums (float64 sums cast to the dtype: a float32 degree can differ in
#: its last bit, as on the GPU). ``bench/probes/aud28f_csgraph_engine_tools.py`` sets it.
OWN_SPARSE_ON_CPU = False


def _own_sparse(g) -> bool:
    """Whether the engine's Laplacian of sparse ``g`` runs :func:`_laplacian_own_sparse`: cupyx
    input, and scipy.sparse CSR, CSC or COO input under :data:`OWN_SPARSE_ON_CPU`."""
    if _v._is_cupyx_sparse(g):
        return True
    return (OWN_SPARSE_ON_CPU and _v.engine_forced() and _v._is_scipy_sparse(g)
            and g.format in ("csr", "csc", "coo"))


def _coo_setdiag(xp, m, values):
    """``m.setdiag(values)`` of a COO, as scipy.sparse does it: the stored diagonal entries
    dropped, the N new ones appended (dtype: the promotion of both)."""
    keep = m.row != m.col
    n = values.shape[0]
    ar = xp.arange(n, dtype=m.row.dtype)
    row = xp.concatenate((m.row[keep], ar))
    col = xp.concatenate((m.col[keep], ar))
    data = xp.concatenate((m.data[keep], values))
    return type(m)((data, (row, col)), shape=m.shape)


def _sparse_astype(m, dtype):
    """``m.astype(dtype, copy=False)`` (SciPy's cast; cupyx's ``astype`` takes no ``copy``)."""
    if not _v._is_cupyx_sparse(m):
        return m.astype(dtype, copy=False)
    return m if np.dtype(m.dtype) == np.dtype(dtype) else m.astype(dtype)


def _lap_operator_form(xp, LinearOperator, m, gsum, d, normed, symmetrized, form, shape,
                       dtype, return_diag, stored=False):
    """The operator forms ('function', 'lo') of the Laplacian of m from its degree sums:
    normed, v ↦ D^-½ (d⊙v − Av) D^-½ with isolated vertices' scale 1 (SciPy's); the diagonal
    returned is d, or its square root when normed. ``stored``: A v by
    :func:`_stored_product` (a CSR m)."""
    if normed:
        isolated = d == 0
        w = xp.where(isolated, 1, xp.sqrt(d))
        f, ret = _lap_operator(xp, m, gsum, 1.0 / w, symmetrized, stored), w
    else:
        f, ret = _lap_operator(xp, m, gsum, None, symmetrized, stored), d
    if form == "lo":
        f = LinearOperator(matvec=f, matmat=f, shape=shape, dtype=dtype)
    # cast whether or not it is returned: SciPy always does, and NumPy's cast of a NaN
    # (normed, a negative degree) to an integer dtype warns "invalid value encountered in
    # cast" there
    ret = ret.astype(dtype, copy=False)
    return (f, ret) if return_diag else f


def _lap_operator(xp, m, gsum, nd, symmetrized, stored=False):
    """v ↦ L v without forming L: d ⊙ v − A v (− (vᴴ A)ᴴ when symmetrized), normed
    nd ⊙ L (nd ⊙ v), in SciPy's order of operations (so SciPy's bits on the CPU). ``stored``:
    A v over m's stored entries by :func:`_stored_product` (cupyx input's path, whatever the
    device: the tests run it on NumPy)."""
    product = _stored_product(xp, m) if stored else (lambda v: m @ v)

    def lap(v):
        out = v * gsum[:, None] - product(v)
        if symmetrized:
            # (vᴴ A)ᴴ = Aᴴ v, through the transposes SciPy takes (the same sums); cupyx input
            # never comes here (:func:`_laplacian_own_sparse` applies A ⊕ Aᴴ itself)
            out = out - xp.conjugate(xp.transpose(xp.transpose(xp.conjugate(v)) @ m))
        return out

    if nd is None:
        return lap
    return lambda v: nd[:, None] * lap(v * nd[:, None])


def _stored_product(xp, m):
    """v ↦ m v over m's stored entries only, as SciPy's CSR product reads them: each output
    row sums m(i, j)·v(j) over the entries stored in row i, in the dtype SciPy promotes to.

    The GPU's operator forms use it instead of cupyx's ``m @ v`` (cuSPARSE SpMM), which on the
    H200 host answered NaN in rows without an entry in column 0 whenever v's row 0 held a
    NaN (a padded entry (0, 0.0) times v(0)): the normed operator of a graph whose vertex 0 has
    a NaN degree gave NaN rows where SciPy's are finite (48 of 11110 random Laplacians,
    ``bench/probes/csgraph_laplacian_bound.py``, session 12; session 11's one failure of
    ``test_laplacian_exactly_as_scipy[gpu]``). Each entry's product is gathered and the rows
    summed by scatter-adds (float64 atomics on the GPU: another order than SciPy's, within
    the rounding the tests allow)."""
    n = int(m.shape[0])
    nnz = int(m.indices.size)
    ptr = m.indptr.astype(xp.int64)
    rows = xp.searchsorted(ptr, xp.arange(nnz, dtype=xp.int64), side="right") - 1
    cols = m.indices.astype(xp.int64)
    vals = m.data

    def product(v):
        dt = xp.result_type(vals.dtype, v.dtype)
        out = xp.zeros((n,) + tuple(v.shape[1:]), dtype=dt)
        if nnz:
            w = vals.astype(dt, copy=False)
            contrib = v[cols].astype(dt, copy=False) * (w[:, None] if v.ndim == 2 else w)
            if np.dtype(dt).kind == "c":
                # complex weights: the two parts apart (CuPy's add.at takes real dtypes only)
                re = xp.zeros(out.shape, dtype=np.finfo(dt).dtype)
                im = xp.zeros(out.shape, dtype=np.finfo(dt).dtype)
                xp.add.at(re, rows, contrib.real)
                xp.add.at(im, rows, contrib.imag)
                return (re + 1j * im).astype(dt, copy=False)
            xp.add.at(out, rows, contrib)
        return out

    return product


def _lap_triplets(xp, m):
    """(row, col, data) of a CSR, CSC or COO matrix read from its own arrays (int64 indices,
    the stored order, duplicates kept): no conversion of the sparse library's."""
    if m.format == "coo":
        return m.row.astype(xp.int64), m.col.astype(xp.int64), m.data
    ptr = m.indptr.astype(xp.int64)
    major = xp.searchsorted(ptr, xp.arange(m.indices.size, dtype=xp.int64), side="right") - 1
    minor = m.indices.astype(xp.int64)
    return (major, minor, m.data) if m.format == "csr" else (minor, major, m.data)


def _sparse_sum_dtype(dtype):
    """The dtype of a scipy.sparse matrix's ``sum`` (SciPy's ``get_sum_dtype``): unsigned
    integers as ``numpy.uint``, other integers and bool as ``numpy.int_``, floats their own."""
    dt = np.dtype(dtype)
    if dt.kind == "u" and np.can_cast(dt, np.uint):
        return np.dtype(np.uint)
    if np.can_cast(dt, np.int_):
        return np.dtype(np.int_)
    return dt


def _segment_sum(xp, idx, w, n: int, dtype):
    """s(i) = +.reduce of w over idx == i, in float64 (one atomic add per entry on the GPU),
    then cast to ``dtype``: within a rounding of the dtype of SciPy's sums in stored order."""
    if idx.size == 0:
        return xp.zeros(n, dtype=dtype)
    if np.dtype(w.dtype).kind == "c":  # bincount sums reals: the two parts apart
        re = xp.bincount(idx, weights=w.real.astype(xp.float64), minlength=n)
        im = xp.bincount(idx, weights=w.imag.astype(xp.float64), minlength=n)
        return (re + 1j * im).astype(dtype)
    return xp.bincount(idx, weights=w.astype(xp.float64), minlength=n).astype(dtype)


def _lap_canonical(xp, r, c, v, n: int):
    """(row, col, data) row-major sorted with duplicates summed (SciPy's sum_duplicates)."""
    nn = max(n, 1)
    key, inv = xp.unique(r * nn + c, return_inverse=True)
    return key // nn, key % nn, _segment_sum(xp, inv.ravel(), v, int(key.size), v.dtype)


def _laplacian_own_sparse(xp, coo_cls, csr_cls, LinearOperator, g, op, normed, return_diag,
                          use_out_degree, form, dtype, symmetrized, *, bool_diagonal=False):
    """The Laplacian of a sparse ``g`` (CSR, CSC or COO) by array operations of ``xp`` alone,
    ``coo_cls`` / ``csr_cls`` only holding the results: the GPU's path for cupyx input.

    cupyx's sparse sum and ``A + Aᵀ`` run cuSPARSE (SpMV, csrgeam2/spgeam), which on the H200
    host answered all zeros for ``A + Aᵀ`` of a 2 × 2 ``semiring.Matrix`` and of a
    non-canonical CSR, and an invalid nnz for a 0 × 0 one; here the degrees are segment sums
    and A + Aᵀ a sort of both triplet lists. The operator (``form`` 'function' / 'lo')
    applies S = A (+ Aᵀ when symmetrized), canonical, over its stored entries
    (:func:`_stored_product`: cuSPARSE's SpMM spread a NaN of v's row 0 to other rows): the
    same L v as SciPy's v ⊙ d − A v (− Aᵀ v). NumPy runs the same code in the tests."""
    n = int(g.shape[0])
    if form == "array" and np.dtype(g.dtype).kind in "ub":
        raise UnsignedLaplacian(f"{op}: the Laplacian array of a {np.dtype(g.dtype)} graph "
                                f"has entries its dtype cannot hold (SciPy fails too); pass a "
                                f"signed or float graph")
    r, c, v = _lap_triplets(xp, g)

    def degrees(r, c, v, both):
        # d = A +.reduce(axis) − diag(A)   (both: the two directions, the diagonal twice); the
        # sums in scipy.sparse's sum dtype (an int8 or uint8 graph's degrees are int64 /
        # uint64, not wrapped in its own dtype: normed, a uint8 degree's sqrt was float16)
        sdt = _sparse_sum_dtype(v.dtype)
        gsum = _segment_sum(xp, r if use_out_degree else c, v, n, sdt)
        on = r == c
        gdiag = _segment_sum(xp, r[on], v[on], n, v.dtype)
        if bool_diagonal:
            # a bool graph (counted in float64 here): scipy.sparse's diagonal() sums repeated
            # diagonal entries as bools, True, where its sum() counts them
            gdiag = xp.minimum(gdiag, 1)
        if not both:
            return gsum, gsum - gdiag
        gsum += _segment_sum(xp, c if use_out_degree else r, v, n, sdt)
        return gsum, gsum - gdiag - gdiag

    if form != "array" or symmetrized:
        # SciPy's operator sums the stored entries (both directions when symmetrized); its
        # array form sums the entries of A ⊕ Aᴴ
        gsum, d = degrees(r, c, v, symmetrized and form != "array")
        # S = A with duplicates summed; symmetrized S = A ⊕ Aᴴ, the entries that cancel not
        # stored (as SciPy's sparse sum drops them)
        r, c, v = _lap_canonical(xp, r, c, v, n)
        if symmetrized:
            r, c, v = _lap_canonical(xp, xp.concatenate([r, c]), xp.concatenate([c, r]),
                                     xp.concatenate([v, xp.conjugate(v)]), n)
            keep = v != 0
            r, c, v = r[keep], c[keep], v[keep]
            if form == "array":
                gsum, d = degrees(r, c, v, False)
    else:  # the stored entries as they are (SciPy's tocoo keeps duplicates)
        gsum, d = degrees(r, c, v, False)
    if form != "array":
        dtype = v.dtype if dtype is None else dtype
        it = xp.int32 if max(n, int(v.size)) < 2**31 - 1 else xp.int64
        indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64),
                                 xp.cumsum(_segment_sum(xp, r, xp.ones(r.size), n, xp.int64))])
        a = csr_cls((v, c.astype(it), indptr.astype(it)), shape=(n, n))
        a.has_canonical_format = True
        return _lap_operator_form(xp, LinearOperator, a, gsum, d, normed, False, form,
                                  (n, n), dtype, return_diag, stored=True)
    dtype = v.dtype if dtype is None else dtype
    w = d
    if normed:
        isolated = w == 0
        w = xp.where(isolated, 1, xp.sqrt(w))
        # L(i, j) = −S(i, j) / w(i) / w(j) in S's dtype, step by step as SciPy's in-place ops
        data = (v / w[r]).astype(v.dtype)
        data = (data / w[c]).astype(v.dtype)
        diag = 1 - isolated
    else:
        data = v.copy()  # never the caller's array
        diag = w
    data *= -1
    it = xp.int32 if max(n, int(v.size) + n) < 2**31 - 1 else xp.int64
    m = _coo_setdiag(xp, coo_cls((data, (r.astype(it), c.astype(it))), shape=(n, n)), diag)
    m = _sparse_astype(m, dtype)
    return (m, w.astype(dtype)) if return_diag else m


def _laplacian_engine(csgraph, op, normed, return_diag, use_out_degree, form, dtype,
                      symmetrized):
    """L = D − A on the input's device, with SciPy's arithmetic, step for step (the same
    element-wise operations in the same order and dtypes, so that the CPU run of this code is
    SciPy's answer to the bit and the GPU's differs only where a GPU reduction sums in another
    order): the degrees d = A's column (in-degree) or row sums without the diagonal, ``normed``
    D^-½ (D − A) D^-½ with an isolated vertex's degree read as 1; a COO of A's entries and the
    new diagonal for sparse input, a dense array for dense input, or an operator (``form``)
    that applies L without forming it."""
    g, xp, sps, LinearOperator = _lap_modules(csgraph)
    sparse = sps.issparse(g)
    shape = tuple(g.shape)
    if len(shape) != 2 or shape[0] != shape[1]:
        raise sr.DimensionMismatch(f"{op}: csgraph must be square (N, N), got shape {shape}")
    dt = np.dtype(g.dtype)
    if dt.kind not in "biufc":
        raise sr.DomainMismatch(f"{op}: csgraph must have a real or complex dtype, got {dt}")
    if normed and (np.issubdtype(dt, np.signedinteger) or np.issubdtype(dt, np.uint)):
        g = g.astype(np.float64)  # SciPy's rule (np.uint is uint64 only: uint8..32 stay)
    elif sparse and dt == bool and form != "array" and _own_sparse(g):
        # cupyx sums a bool matrix as bools: count in float64 (SciPy's sums count too), the
        # results cast back to bool as SciPy's are
        dtype = dt if dtype is None else dtype
        g = g.astype(np.float64)
    if sparse and _own_sparse(g):
        # (cupyx has matrices only; a forced scipy.sparse array answers SciPy's array kind)
        coo_cls = sps.coo_array if isinstance(g, getattr(sps, "sparray", ())) else sps.coo_matrix
        return _laplacian_own_sparse(xp, coo_cls, sps.csr_matrix, LinearOperator, g, op,
                                     normed, return_diag, use_out_degree, form, dtype,
                                     symmetrized, bool_diagonal=dt == bool)
    axis = 1 if use_out_degree else 0
    if form != "array":
        m = g if sparse else xp.array(g)
        dtype = m.dtype if dtype is None else dtype
        # d = A +.reduce(axis) − diag(A)   (symmetrized: both directions, the diagonal twice)
        gsum = xp.asarray(m.sum(axis=axis)).ravel()
        gdiag = m.diagonal()
        d = gsum - gdiag
        if symmetrized:
            gsum += xp.asarray(m.sum(axis=1 - axis)).ravel()
            d = gsum - gdiag - gdiag
        return _lap_operator_form(xp, LinearOperator, m, gsum, d, normed, symmetrized, form,
                                  shape, dtype, return_diag)
    if np.dtype(g.dtype).kind in "ub":
        # SciPy negates (and, normed, divides) the entries in the input's own dtype, which an
        # unsigned or bool dtype cannot hold: NumPy refuses, CuPy would wrap around
        raise UnsignedLaplacian(f"{op}: the Laplacian array of a {np.dtype(g.dtype)} graph "
                                f"has entries its dtype cannot hold (SciPy fails too); pass a "
                                f"signed or float graph")
    if dtype is None:
        dtype = g.dtype
    if sparse:
        m = g.tocoo() if g.format in ("lil", "dok") else g
        if symmetrized:
            # A ← A + Aᴴ (a sparse sum: entries that cancel are not stored)
            m = m + m.T.conj()
        dia = m.format == "dia"  # SciPy keeps a DIA input's format (its sum too)
        # d = A +.reduce(axis) − diag(A)
        w = xp.asarray(m.sum(axis=axis)).ravel() - m.diagonal()
        if normed:
            m = m.tocoo(copy=True)
            isolated = w == 0
            w = xp.where(isolated, 1, xp.sqrt(w))
            # L(i, j) = −A(i, j) / w(i) / w(j), L(i, i) = 1 (0 where isolated)
            m.data /= w[m.row]
            m.data /= w[m.col]
            m.data *= -1
            m = _coo_setdiag(xp, m, 1 - isolated)
        elif dia:
            m = m.copy()
            m.data *= -1
            m.setdiag(w)
        else:
            m = m.tocoo(copy=True)
            m.data *= -1
            m = _coo_setdiag(xp, m, w)
        m = _sparse_astype(m, dtype)
        return (m, w.astype(dtype)) if return_diag else m
    m = xp.array(g)
    diag = xp.arange(shape[0])
    if symmetrized:
        m += m.T.conj()
    # the diagonal ignored: d = A +.reduce(axis)
    m[diag, diag] = 0
    w = m.sum(axis=axis)
    if normed:
        isolated = w == 0
        w = xp.where(isolated, 1, xp.sqrt(w))
        m /= w
        m /= w[:, None]
        m *= -1
        m[diag, diag] = 1 - isolated
    else:
        m *= -1
        m[diag, diag] = w
    m, w = m.astype(dtype, copy=False), w.astype(dtype, copy=False)
    return (m, w) if return_diag else m


def laplacian(csgraph, normed=False, return_diag=False, use_out_degree=False, *, copy=True,
              form="array", dtype=None, symmetrized=False):
    """The Laplacian matrix of a graph, as ``scipy.sparse.csgraph.laplacian`` (same keywords,
    dtypes and output kinds: a COO matrix/array for sparse input, an ndarray for dense input,
    a function or LinearOperator for ``form='function'`` / ``'lo'``).

    Host input runs SciPy's own ``laplacian`` on a copy; GPU input is computed on the GPU
    element-wise: degrees as one segmented sum over the edges (the diagonal ignored), the
    entries −a_ij (normed: −a_ij / √(d_i d_j)), the diagonal d (normed: 1, 0 where isolated),
    except small GPU input (``form='array'``, a signed or float CSR, dense array or
    ``semiring.Matrix`` of at most ``_validation.HOST_MAX_WORK['laplacian']`` = 2¹⁶ stored
    entries): SciPy's ``laplacian`` on a host copy, the result uploaded (COO for sparse input,
    as the GPU path answers), since the element-wise path's launches cost about 2 ms whatever
    the size (n = 1024, 10⁴ entries, H200: 2.35 ms against SciPy's 0.32 ms).

    Weights of every real or complex dtype, as SciPy (the functions other than ``laplacian``
    refuse complex weights, whose imaginary part SciPy drops).

    Deviations: the caller's input is never modified (SciPy writes into it with ``copy=False``;
    here ``copy`` has no effect); a masked array's masked entries are zeros (SciPy reads the
    data underneath the mask); lists are accepted (SciPy fails on them).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> csgraph.laplacian(np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]))
    array([[ 2, -1, -1],
           [-1,  2, -1],
           [-1, -1,  2]])
    """
    op = "laplacian"
    if form not in ("array", "function", "lo"):
        raise sr.InvalidValue(f"{op}: form must be 'array', 'function' or 'lo' "
                              f"(Invalid form: {form!r})")  # SciPy's words too
    if _v.scipy_csr(csgraph) is not None:  # the common case: SciPy works on its own copy
        return _scg().laplacian(csgraph, normed=normed, return_diag=return_diag,
                                use_out_degree=use_out_degree, copy=True, form=form,
                                dtype=dtype, symmetrized=symmetrized)
    if (form == "array" and _v.is_gpu_input(csgraph) and _v._routable(csgraph)
            and len(getattr(csgraph, "shape", ())) == 2
            and np.dtype(csgraph.dtype).kind in "if"
            and _v._entries(csgraph) <= _v.HOST_MAX_WORK.get(op, 0)):
        # small GPU input: SciPy's Laplacian on a host copy, the result uploaded at once (the
        # engine's element-wise path costs about 2 ms of launches whatever the size)
        return _v.host_route(laplacian, csgraph, (), dict(
            normed=normed, return_diag=return_diag, use_out_degree=use_out_degree,
            form=form, dtype=dtype, symmetrized=symmetrized))
    if _v.is_gpu_input(csgraph) or (
            _v.FORCE_ENGINE and not isinstance(csgraph, (list, np.ma.MaskedArray))):
        return _laplacian_engine(csgraph, op, normed, return_diag, use_out_degree, form, dtype,
                                 symmetrized)
    if isinstance(csgraph, sr.Matrix):
        g = csgraph.to_scipy()
        g = scipy.sparse.csr_array(g, copy=True)
    elif _v._is_scipy_sparse(csgraph):
        g = csgraph.copy()
    elif isinstance(csgraph, np.ma.MaskedArray):
        g = np.array(np.ma.filled(csgraph, 0))  # filled() returns the data itself without a mask
    else:
        g = np.array(csgraph)
    if g.ndim != 2 or g.shape[0] != g.shape[1]:
        raise sr.DimensionMismatch(f"{op}: csgraph must be square (N, N), got shape {g.shape}")
    if np.dtype(g.dtype).kind not in "biufc":
        raise sr.DomainMismatch(f"{op}: csgraph must have a real or complex dtype, got {g.dtype}")
    # g is the facade's own copy: SciPy may work in it (copy=False), one copy in all as SciPy's
    return _scg().laplacian(g, normed=normed, return_diag=return_diag,
                            use_out_degree=use_out_degree, copy=False, form=form, dtype=dtype,
                            symmetrized=symmetrized)
