"""SpGEMM mechanism: C = A ⊕.⊗ B over a semiring, sparse × sparse, optionally masked.

This is the product T of ``mxm``; the mask/accumulate/replace step and the public ``mxm`` /
``A @ B`` live elsewhere. The mask here is *structural*: T gets entries only where the mask
has an entry (``complement=True``: only where it has none), and products outside the allowed
set are never formed into T.

CPU: Gustavson's product vectorized with NumPy, in chunks of rows of bounded work: every
product A(i,k)·B(k,j) of the chunk is expanded, disallowed ones dropped, the rest stably
sorted by (i, j), so each output entry folds its products in increasing k, as the dense
oracle does, then reduced with the monoid. Unmasked ``plus_times`` over floats goes through
SciPy.

GPU: row-wise Gustavson with hash tables (Nagasaka et al. 2017), see
``semiring/kernels/spgemm.cu``: per-row flops, rows binned by their table size, a symbolic
phase counting each row's columns, a scan giving C's row pointers, a numeric phase filling
columns and values (sorted in shared memory). Rows too long for the shared tables get a
bitmap of C's columns in shared memory when one fits (values in a dense row of global
memory; the row comes out sorted), else a table in global memory (sorted from a direct
table, or afterwards by a radix sort when it was hashed).
"""

from __future__ import annotations

from . import device as _b
from . import types as _t
from .backend import backend_of
from .errors import DimensionMismatch, DomainMismatch
from .matrix import Matrix, as_matrix, index_type
from .ops import lookup

OP = "spgemm"



def spgemm(A, B, sr, dtype=None, *, mask=None, complement: bool = False) -> Matrix:
    """T = A ⊕.⊗ B over a semiring: T(i,j) = ⊕_k A(i,k) ⊗ B(k,j) over the k where both exist.

    Parameters
    ----------
    A, B : Matrix (or scipy / cupyx sparse matrices)
        ``A.ncols`` must equal ``B.nrows``; both on one device.
    sr : Semiring or str
        Any semiring of the tables, positional ones included (``min_secondi`` gives the inner
        index k, ``min_firsti`` the row i, ``min_secondj`` the column j).
    dtype : dtype, optional
        The domain both operands are taken in (default: their promoted type). The result type
        is the semiring's result type on it (int64 for positional ops).
    mask : Matrix, optional
        Structure-only mask of shape ``(A.nrows, B.ncols)``: T gets entries only where the
        mask has one; products elsewhere are skipped.
    complement : bool
        Allow only where the mask has no entry.

    Returns
    -------
    Matrix
        On A's device, CSR with sorted unique column indices.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> from semiring.spgemm import spgemm
    >>> A = sr.Matrix.from_dense(np.array([[0, 2.0], [3.0, 4.0]]), missing=0, device="cpu")
    >>> spgemm(A, A, sr.min_plus).to_dense(missing=np.inf)
    array([[5., 6.],
           [7., 5.]])
    >>> M = sr.Matrix.from_coo([1], [1], nrows=2, ncols=2, device="cpu")
    >>> spgemm(A, A, "plus_times", mask=M).to_dense(missing=0)
    array([[ 0.,  0.],
           [ 0., 22.]])
    """
    A = as_matrix(A, op=OP, arg="A")
    B = as_matrix(B, op=OP, arg="B")
    sr = lookup("semiring", sr, op=OP, arg="semiring")
    if A.ncols != B.nrows:
        raise DimensionMismatch(f"{OP}: A.ncols (={A.ncols}) must equal B.nrows (={B.nrows})")
    if mask is not None:
        mask = as_matrix(mask, op=OP, arg="mask")
        if mask.shape != (A.nrows, B.ncols):
            raise DimensionMismatch(f"{OP}: mask.shape (={mask.shape}) must equal "
                                    f"(A.nrows, B.ncols) (={(A.nrows, B.ncols)})")
    elif complement:
        raise DomainMismatch(f"{OP}: complement=True needs a mask")
    device = _b.check_same_device(OP, A=A, B=B, mask=mask)
    dtype = _t.promote(A.dtype, B.dtype) if dtype is None else _t.lookup_dtype(dtype, op=OP)
    rtype = sr.result_type(dtype)
    nrows, ncols = A.nrows, B.ncols
    xp = A.xp
    if A.nvals == 0 or B.nvals == 0 or (mask is not None and not complement and mask.nvals == 0):
        it = index_type(nrows, ncols, 0)
        return Matrix(xp.zeros(nrows + 1, dtype=it), xp.zeros(0, dtype=it),
                      xp.zeros(0, dtype=rtype), (nrows, ncols))
    return backend_of(device).spgemm.spgemm(A, B, sr, dtype, rtype, mask, complement)


def dot3(A, BT, sr, dtype=None, *, mask) -> Matrix:
    """T⟨M⟩ = A ⊕.⊗ BTᵀ at the entries of a mask only, each one dot product (SuiteSparse's
    "dot3"): T(i,j) = ⊕_k A(i,k) ⊗ BT(j,k) over the k where row i of A and row j of BT both
    have an entry; no entry where they do not meet.

    The product ``A ⊕.⊗ B`` masked by M, given ``BT = Bᵀ`` in CSR (``B.T``: cached on B), at a
    cost set by the mask's entries and the shorter row of each pair instead of by the
    expansion of every product (:func:`spgemm`). ``sr.mxm(A, B, semiring, mask=M,
    method="dot")`` calls it with ``B.T``; ``sr.dot3(A, X, ...)`` is ``A ⊕.⊗ Xᵀ`` with no
    transpose made at all (``sr.dot3(U, U, sr.plus_pair, mask=U)``: U·Uᵀ at U's entries).
    The mask is read structurally (its entries, whatever their values).

    Parameters
    ----------
    A, BT : Matrix (or scipy / cupyx sparse matrices)
        ``A.ncols`` must equal ``BT.ncols`` (the inner dimension); both on one device.
    sr : Semiring or str
        Any semiring of the tables, positional ones included (``A(i,k) ⊗ B(k,j)`` sees the
        positions (i, k, k, j), as in :func:`spgemm`).
    dtype : dtype, optional
        The domain both operands are taken in (default: their promoted type).
    mask : Matrix
        Structure-only mask of shape ``(A.nrows, BT.nrows)``: the entries to compute.

    Returns
    -------
    Matrix
        On A's device, CSR with sorted unique column indices, its pattern within the mask's.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> A = sr.Matrix.from_dense(np.array([[1.0, 2.0], [0, 3.0]]), missing=0, device="cpu")
    >>> M = sr.Matrix.from_coo([0, 1], [1, 0], nrows=2, ncols=2, device="cpu")
    >>> sr.dot3(A, A, "plus_times", mask=M).to_dense(missing=0)   # (A Aᵀ) at (0, 1), (1, 0)
    array([[0., 6.],
           [6., 0.]])
    """
    op = "dot3"
    A = as_matrix(A, op=op, arg="A")
    BT = as_matrix(BT, op=op, arg="BT")
    sr = lookup("semiring", sr, op=op, arg="semiring")
    if A.ncols != BT.ncols:
        raise DimensionMismatch(f"{op}: A.ncols (={A.ncols}) must equal BT.ncols (={BT.ncols})")
    if mask is None:
        raise DomainMismatch(f"{op}: mask is required (the entries to compute), got None")
    mask = as_matrix(mask, op=op, arg="mask")
    if mask.shape != (A.nrows, BT.nrows):
        raise DimensionMismatch(f"{op}: mask.shape (={mask.shape}) must equal "
                                f"(A.nrows, BT.nrows) (={(A.nrows, BT.nrows)})")
    device = _b.check_same_device(op, A=A, BT=BT, mask=mask)
    dtype = _t.promote(A.dtype, BT.dtype) if dtype is None else _t.lookup_dtype(dtype, op=op)
    rtype = sr.result_type(dtype)
    nrows, ncols = A.nrows, BT.nrows
    if A.nvals == 0 or BT.nvals == 0 or mask.nvals == 0:
        it = index_type(nrows, ncols, 0)
        return Matrix(A.xp.zeros(nrows + 1, dtype=it), A.xp.zeros(0, dtype=it),
                      A.xp.zeros(0, dtype=rtype), (nrows, ncols))
    return backend_of(device).dot3.dot3(A, BT, sr, dtype, rtype, mask)
