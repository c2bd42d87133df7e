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
    A float64 ``csr_array`` (SciPy's kind), or for a CuPy array a ``cupyx`` CSR on the GPU.
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
    A = _v.as_graph(a, op, arg="graph", square=False, null_value=null_value,
                    infinity_null=infinity_null, nan_null=nan_null)
    kind = "cupyx" if sr.is_gpu_array(a) else "sparray"
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
    A = _v.as_graph(graph, op, arg="graph", square=False)
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

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> S = sp.csr_array(([5.0, 1.0, 0.0], [1, 1, 0], [0, 3, 3]), shape=(2, 2))
    >>> csgraph.csgraph_to_dense(S, null_value=-1).tolist()
    [[0.0, 1.0], [-1.0, -1.0]]
    """
    op = "csgraph_to_dense"
    if _v.is_gpu_input(csgraph):
        return _to_dense_engine(_v.as_graph(csgraph, op, dup="min", square=False,
                                            cast_sums=False), null_value)
    if isinstance(csgraph, sr.Matrix) or not _v._is_scipy_sparse(csgraph):
        A = _v.as_graph(csgraph, op, dup="min", square=False, cast_sums=False)
        return _to_dense_engine(A, null_value)
    S = _v.as_scipy_csr(csgraph, op, square=False, cast_sums=False)
    return _scg().csgraph_to_dense(S, null_value=null_value)


def csgraph_to_masked(csgraph):
    """A masked array of a sparse graph, as ``scipy.sparse.csgraph.csgraph_to_masked``: the
    entries float64 (parallel edges: the smallest), the non-edges masked, and like SciPy a
    stored inf or NaN weight masked as well. On the host for
    every input (NumPy has masked arrays, CuPy does not).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> int(csgraph.csgraph_to_masked(sp.csr_array(np.array([[0, 2.0], [0, 0]]))).count())
    1
    """
    op = "csgraph_to_masked"
    A = _v.as_graph(csgraph, op, dup="min", square=False, cast_sums=False)
    if A.device == "gpu":
        A = A.to_cpu()
    # as SciPy: the dense graph with NaN for "no edge", then every NaN and inf masked (a stored
    # inf or NaN weight is masked too)
    return np.ma.masked_invalid(_to_dense_engine(A, np.nan))


# ------------------------------------------------------------------------------ laplacian


def _laplacian_engine(csgraph, op, normed, return_diag, use_out_degree, form, dtype,
                      symmetrized):
    """L = D − A on the GPU, as SciPy builds it: the diagonal of A ignored, degrees the
    column (in-degree) or row sums, ``normed``: D^-½ (D − A) D^-½ with isolated vertices'
    degree read as 1."""
    device = "gpu" if _v.is_gpu_input(csgraph) else "cpu"
    xp = sr.array_module(device)
    if isinstance(csgraph, sr.Matrix):
        in_dtype = np.dtype(csgraph.dtype)
        r, c, v = csgraph.to_coo()
        dense = False
    elif sr.is_gpu_array(csgraph) or isinstance(csgraph, np.ndarray):
        a = csgraph
        in_dtype = a.dtype
        r, c = xp.nonzero(a)
        v = a[r, c]
        dense = True
    else:  # sparse: the stored entries, duplicates kept (they add up)
        C = csgraph.tocoo()
        r, c, v = C.row, C.col, C.data
        in_dtype = C.dtype
        dense = False
    n = csgraph.shape[0]
    if csgraph.shape[0] != csgraph.shape[1]:
        raise sr.DimensionMismatch(f"{op}: csgraph must be square (N, N), got shape "
                                   f"{tuple(csgraph.shape)}")
    if np.dtype(in_dtype).kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: csgraph must have a real dtype, got {in_dtype}")
    out_dtype = np.dtype(dtype) if dtype is not None else (
        np.dtype(np.float64) if normed and np.dtype(in_dtype).kind in "iu" else np.dtype(in_dtype))
    r = r.astype(xp.int64)
    c = c.astype(xp.int64)
    v = v.astype(xp.float64)
    if symmetrized:
        # A ← A + Aᵀ
        r, c, v = xp.concatenate([r, c]), xp.concatenate([c, r]), xp.concatenate([v, v])
    off = r != c
    r, c, v = r[off], c[off], v[off]
    # w = A +.reduce over the degree axis (the diagonal ignored)
    w = xp.bincount(r if use_out_degree else c, weights=v, minlength=n)[:n].astype(xp.float64)
    if normed:
        isolated = w == 0
        s = xp.where(isolated, 1.0, xp.sqrt(w))
        v = -v / s[r] / s[c]
        diag = 1.0 - isolated
        wret = s
    else:
        v = -v
        diag = w
        wret = w
    ar = xp.arange(n, dtype=xp.int64)
    if device == "gpu":
        import cupyx  # noqa: PLC0415  (CuPy is optional: GPU input only)
        import cupyx.scipy.sparse as sps  # noqa: PLC0415  (CuPy is optional: GPU input only)
        from cupyx.scipy.sparse.linalg import LinearOperator  # noqa: PLC0415  (CuPy is optional: GPU input only)

        scatter_add = cupyx.scatter_add
        coo = sps.coo_matrix
    else:  # the tests' FORCE_ENGINE switch: the same code on NumPy
        sps, LinearOperator = scipy.sparse, scipy.sparse.linalg.LinearOperator

        scatter_add = np.add.at
        coo = sps.coo_matrix if _v.graph_kind(csgraph) == "spmatrix" else sps.coo_array
    rr, cc = xp.concatenate([r, ar]), xp.concatenate([c, ar])
    vv = xp.concatenate([v, diag.astype(xp.float64)])
    if form == "array":
        if dense:
            # L = −A off the diagonal, d on it
            L = xp.zeros((n, n), dtype=xp.float64)
            scatter_add(L, (rr, cc), vv)
            L = L.astype(out_dtype)
        else:
            L = coo((vv.astype(out_dtype), (rr, cc)), shape=(n, n))
        return (L, wret.astype(out_dtype)) if return_diag else L
    M = coo((vv, (rr, cc)), shape=(n, n)).tocsr()

    def matvec(x):
        return M @ x

    if form == "function":
        return (matvec, wret.astype(out_dtype)) if return_diag else matvec
    lo = LinearOperator((n, n), matvec=matvec, matmat=matvec, dtype=out_dtype)
    return (lo, wret.astype(out_dtype)) if return_diag else lo


def laplacian(csgraph, normed=False, return_diag=False, use_out_degree=False, *, copy=True,
              form="array", dtype=None, symmetrized=False):
    """The Laplacian matrix of a graph, as ``scipy.sparse.csgraph.laplacian`` (same keywords,
    dtypes and output kinds: a COO matrix/array for sparse input, an ndarray for dense input,
    a function or LinearOperator for ``form='function'`` / ``'lo'``).

    Host input runs SciPy's own ``laplacian`` on a copy; GPU input is computed on the GPU
    element-wise: degrees as one segmented sum over the edges (the diagonal ignored), the
    entries −a_ij (normed: −a_ij / √(d_i d_j)), the diagonal d (normed: 1, 0 where isolated).

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
        raise sr.InvalidValue(f"{op}: form must be 'array', 'function' or 'lo', got {form!r}")
    if _v.scipy_csr(csgraph) is not None:  # the common case: SciPy works on its own copy
        return _scg().laplacian(csgraph, normed=normed, return_diag=return_diag,
                                use_out_degree=use_out_degree, copy=True, form=form,
                                dtype=dtype, symmetrized=symmetrized)
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
    if np.dtype(g.dtype).kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: csgraph must have a real dtype, got {g.dtype}")
    # g is the facade's own copy: SciPy may work in it (copy=False), one copy in all as SciPy's
    return _scg().laplacian(g, normed=normed, return_diag=return_diag,
                            use_out_degree=use_out_degree, copy=False, form=form, dtype=dtype,
                            symmetrized=symmetrized)
