"""Reading and writing matrices: Matrix Market files (through SciPy's reader and writer),
NetworkX graphs and edge lists.

All of them go through the host: a file or a NetworkX graph lives in CPU memory. Readers build
the Matrix on ``device`` (default: the default device); writers take a CPU matrix, so moving a
GPU matrix back is an explicit ``.to_cpu()``.
"""

from __future__ import annotations

import inspect
import os

import numpy as np

from . import device as _b
from .errors import DomainMismatch
from .matrix import Matrix, as_matrix


def _require_cpu(op: str, A: Matrix) -> None:
    if A.device != "cpu":
        raise _b.DeviceMismatch(f"{op}: the matrix is on the GPU; call .to_cpu() first")


def mmread(source, *, dtype=None, device=None) -> Matrix:
    """Read a Matrix Market file (path or file object) with ``scipy.io.mmread``.

    A ``pattern`` file gives a structure-only matrix (every entry True); explicit zeros in a
    coordinate file stay entries; symmetric files are expanded to both triangles; a dense
    ``array`` file gives a matrix with every entry present.

    Examples
    --------
    >>> import io, numpy as np, scipy.sparse as sp, semiring as sr
    >>> buf = io.BytesIO()
    >>> sr.io.mmwrite(buf, sr.Matrix.from_coo([0, 1], [1, 0], [0.0, 2.5], device="cpu"))
    >>> _ = buf.seek(0)
    >>> A = sr.io.mmread(buf, device="cpu")
    >>> A.nvals, A.to_dense(missing=-1).tolist()
    (2, [[-1.0, 0.0], [2.5, -1.0]])
    """
    import scipy.io as sio  # noqa: PLC0415  (scipy.io: imported on use)
    import scipy.sparse as sps  # noqa: PLC0415  (scipy.sparse: imported on use)

    if not (hasattr(source, "read") or isinstance(source, (str, bytes, os.PathLike))):
        raise DomainMismatch(f"mmread: source must be a path or a file object, got "
                             f"{type(source).__name__}")
    pattern = False
    if not hasattr(source, "read"):
        pattern = sio.mminfo(source)[4] == "pattern"
    else:
        pos = source.tell()
        pattern = sio.mminfo(source)[4] == "pattern"
        source.seek(pos)
    # a sparse array, not the spmatrix whose default SciPy 1.18 warns is changing (in v1.20);
    # an older SciPy, without the keyword, returns the spmatrix
    sparse_array = "spmatrix" in inspect.signature(sio.mmread).parameters
    M = sio.mmread(source, spmatrix=False) if sparse_array else sio.mmread(source)
    dev = _b.resolve_device(device)
    if not sps.issparse(M):
        return Matrix.from_dense(np.asarray(M) if dtype is None else np.asarray(M, dtype=dtype),
                                 device=dev)
    return Matrix.from_scipy(M, device=dev, dtype=dtype, iso=pattern)


def mmwrite(target, A, *, comment: str = "", precision: int | None = None) -> None:
    """Write a CPU matrix as a Matrix Market coordinate file with ``scipy.io.mmwrite``.

    A structure-only matrix whose entries are all True is written as a ``pattern`` file; other
    matrices with their values (explicit zeros included).
    """
    A = as_matrix(A, op="mmwrite", arg="A")
    _require_cpu("mmwrite", A)
    if not isinstance(comment, str):  # (SciPy's writer fails deep in its C++ binding)
        raise DomainMismatch(f"mmwrite: comment must be a str, got {type(comment).__name__}")
    import scipy.io as sio  # noqa: PLC0415  (scipy.io: imported on use)

    field = "pattern" if A.is_iso and A.dtype == np.bool_ and bool(A.iso_value) else None
    if field == "pattern" and A.nvals == 0:
        # SciPy writes an empty matrix as 'real' whatever the field; keep the pattern
        lines = ["%%MatrixMarket matrix coordinate pattern general"]
        lines += [f"%{line}" for line in comment.splitlines()] or ["%"]
        text = ("\n".join(lines) + f"\n{A.nrows} {A.ncols} 0\n").encode()
        if hasattr(target, "write"):
            target.write(text)
        else:
            with open(target, "wb") as f:
                f.write(text)
        return
    S = A.to_scipy()
    if A.dtype == np.bool_ and field is None:
        S = S.astype(np.int64)  # Matrix Market has no boolean field
    # SciPy's own symmetry test compares values only, so it would drop an explicit zero whose
    # mirror is absent: decide on the entries themselves
    sio.mmwrite(target, S, comment=comment, field=field, precision=precision,
                symmetry="symmetric" if _symmetric(A) else "general")


def _symmetric(A: Matrix) -> bool:
    """Whether A equals Aᵀ entry for entry: the same stored positions and values."""
    if A.nrows != A.ncols:
        return False
    T = A.T
    same = np.array_equal(A.indptr, T.indptr) and np.array_equal(A.indices, T.indices)
    return same and (A.is_iso or np.array_equal(A.values, T.values, equal_nan=A.dtype.kind == "f"))


def from_networkx(G, *, nodelist=None, weight="weight", dtype=None, device=None) -> Matrix:
    """The adjacency matrix of a NetworkX graph: vertex i is ``nodelist[i]`` (default: the
    graph's own node order). ``weight=None`` gives a structure-only matrix. An undirected
    graph gives a symmetric matrix; parallel edges of a multigraph are summed (NetworkX's
    rule); edges of weight 0 stay entries.
    """
    return Matrix.from_networkx(G, nodelist=nodelist, weight=weight, dtype=dtype, device=device)


def to_networkx(A, *, create_using=None, weight="weight"):
    """A NetworkX graph with an edge i → j (attribute ``weight``) per entry of a CPU matrix;
    ``create_using`` defaults to ``networkx.DiGraph``."""
    A = as_matrix(A, op="Matrix.to_networkx", arg="A")
    return A.to_networkx(create_using=create_using, weight=weight)


def from_edgelist(edges, weights=None, *, nvertices=None, undirected=False, dup_op=None,
                  dtype=None, device=None) -> Matrix:
    """An adjacency matrix from an (m, 2) array of (source, target) pairs (see
    :meth:`semiring.Matrix.from_edgelist`)."""
    return Matrix.from_edgelist(edges, weights, nvertices=nvertices, undirected=undirected,
                                dup_op=dup_op, dtype=dtype, device=device)
