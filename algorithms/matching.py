"""Bipartite matchings, on the CPU by design.

``maximum_bipartite_matching`` (Hopcroft–Karp) and ``min_weight_full_bipartite_matching``
(LAPJVsp, a shortest augmenting path method) augment one path at a time: each augmentation
depends on the previous one, and at the sizes these are used for the GPU's parallel
alternatives (auction algorithms, parallel push–relabel matchings) do not beat a compiled
sequential code. So both run SciPy's compiled routines on the host: GPU input is copied to the
host explicitly and the result back to the GPU, and the docstrings say so.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sps
import scipy.sparse.csgraph as _scg

import semiring as sr
from semiring.errors import check_bool

PERM_TYPES = ("row", "column")


#: SciPy's LAPJVsp (``min_weight_full_bipartite_matching``) can loop forever once float64
#: rounding bends its reduced costs below zero. Weights that are all integers sum exactly
#: while spread · (m + n) <= 2⁵²; other weights are refused beyond a spread of this many
#: times their least gap (session 16, random graphs of up to 13 × 13: hangs seen from a spread
#: of 4e12 gaps, weights ±1e12, 1e12 / 3, 0.5 …: 1 graph in 400; none in 480 of up to 4e10).
LAPJVSP_MAX_SPREAD = 2.0**32


def check_lapjvsp_range(S, op: str, arg: str, maximize: bool = False):
    """InvalidValue where SciPy's LAPJVsp can loop forever (see ``LAPJVSP_MAX_SPREAD``):
    finite weights too far apart for float64 (an 11 × 11 graph of weights 0, 5e-324, 1, 2 and
    ±1e16 never returned), integer weights included (SciPy reads them as float64: int64
    weights of ±2⁶⁰ beside 0..5 never returned either), and a weight of -inf (+inf with
    ``maximize``, which SciPy negates first): SciPy's reduced costs become NaN there, and it
    answers 'no full matching exists' where one exists ([[-inf, 1], [1, 2]]) or never returns.
    (+inf with ``maximize=False`` is SciPy's way to write "no edge": left to it.)"""
    w = S.data
    if w.dtype.kind not in "biuf" or w.size == 0:
        return
    w = w.astype(np.float64, copy=False)  # what LAPJVsp reads
    bad = np.inf if maximize else -np.inf
    if bool((w == bad).any()):
        none = "-inf (no edge, with maximize=True)" if maximize else "+inf (no edge)"
        raise sr.InvalidValue(f"{op}: {arg}'s weights must be finite or {none}, got "
                              f"{bad:+}: SciPy's LAPJVsp answers wrongly or loops forever there")
    w = np.unique(w[np.isfinite(w)])  # sorted
    if w.size < 2:
        return
    spread, gap = float(w[-1]) - float(w[0]), float(np.diff(w).min())
    # integers sum exactly while spread · (m + n) <= 2⁵²; other weights (integers beyond
    # that too: 1e299 and 1e300) are safe while their spread is within LAPJVSP_MAX_SPREAD gaps
    ok = spread <= LAPJVSP_MAX_SPREAD * gap or (
        bool((w == np.floor(w)).all()) and spread * (S.shape[0] + S.shape[1]) <= 2.0**52)
    if not ok:
        raise sr.InvalidValue(f"{op}: {arg}'s weights are too far apart for float64 (from "
                              f"{float(w[0]):.4g} to {float(w[-1]):.4g}, two only {gap:.4g} "
                              f"apart): SciPy's LAPJVsp can loop forever there; rescale or "
                              f"round them")


def _zeros_as_edges(S, op: str):
    """S, or where some stored weight is 0 a float64 copy with every weight shifted by one
    constant c: SciPy's LAPJVsp drops stored zeros as non-edges (with a warning), where a
    stored entry is an edge here ([[0, 5], [5, 0]] answered the matching of weight 10, and
    'no full matching exists' for a diagonal of zeros). Every full matching has min(m, n)
    edges, so each one's weight grows by min(m, n) · c: the least (and greatest) ones stay
    so. Integer weights are shifted to >= 1, exactly while they stay below 2⁵³; others by a
    power of two above max |w| (so w + c > 0), up to the rounding of w + c. +inf stays inf."""
    w = S.data
    if w.size == 0 or bool(w.all()):
        return S
    w = w.astype(np.float64)
    fin = w[np.isfinite(w)]  # 0 among them
    lo, top = float(fin.min()), float(np.abs(fin).max())
    if bool((fin == np.floor(fin)).all()) and float(fin.max()) - lo + 1 <= 2.0**53:
        c = 1.0 - lo
    else:
        c = math.ldexp(1.0, math.frexp(top)[1])  # top = f · 2^e, f in [1/2, 1): 2^e > top
    with np.errstate(over="ignore"):
        shifted = w + c
    if not bool(np.isfinite(shifted[np.isfinite(w)]).all()):
        raise sr.InvalidValue(f"{op}: A's weights beside a zero weight must stay finite when "
                              f"shifted by {c:.4g} (SciPy's LAPJVsp drops zero weights; the "
                              f"shift keeps them), got weights up to {top:.4g}")
    S = sps.csr_array(S)  # (a copy of its structure: the caller's matrix is not modified)
    return sps.csr_array((shifted, S.indices.copy(), S.indptr.copy()), shape=S.shape)


def _is_cupyx_sparse(A) -> bool:
    if not type(A).__module__.startswith("cupyx"):
        return False
    import cupyx.scipy.sparse as cps  # noqa: PLC0415 (CuPy is optional: GPU input only)

    return cps.issparse(A)


def host_csr(A, op: str, arg: str = "A", *, square: bool = False):
    """(a scipy.sparse CSR matrix on the host, the device the input lives on) for a
    semiring.Matrix, scipy.sparse (any format) or cupyx.scipy.sparse input. GPU input is
    copied to the host; host CSR input is passed through (SciPy's routines do not modify it),
    other formats are converted with ``tocsr()``."""

    if isinstance(A, sr.Matrix):
        device = A.device
        M = A.to_cpu() if device == "gpu" else A
        S = M.to_scipy()
    elif sps.issparse(A):
        device, S = "cpu", A.tocsr()
    elif _is_cupyx_sparse(A):
        device, S = "gpu", A.tocsr().get()
    else:
        raise sr.DomainMismatch(f"{op}: {arg} must be a semiring.Matrix or a scipy/cupyx "
                                f"sparse matrix, got {type(A).__name__}")
    if S.ndim != 2:
        raise sr.DimensionMismatch(f"{op}: {arg} must be 2-D, got shape {S.shape}")
    if square and S.shape[0] != S.shape[1]:
        raise sr.DimensionMismatch(f"{op}: {arg} must be square, got shape {S.shape}")
    return S, device


def maximum_bipartite_matching(A, perm_type="row"):
    """A maximum cardinality matching of the bipartite graph whose biadjacency matrix is A.

    Runs ``scipy.sparse.csgraph.maximum_bipartite_matching`` (Hopcroft–Karp) on the host, by
    design (see the module docstring): GPU input is copied to the host and the result back.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, shape (m, n)
        Row i and column j can be matched when ``A(i, j)`` is stored (explicit zeros count).
    perm_type : {'row', 'column'}
        ``'row'``: one entry per column, the row matched to it; ``'column'``: one entry per
        row, the column matched to it. -1 where unmatched.

    Returns
    -------
    array of int32, on A's device

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> B = sp.csr_matrix(np.array([[1, 1, 0], [1, 0, 0], [0, 0, 0], [0, 1, 1]]))
    >>> algorithms.maximum_bipartite_matching(B).tolist()
    [1, 0, 3]
    >>> algorithms.maximum_bipartite_matching(B, perm_type="column").tolist()
    [1, 0, -1, 2]
    """
    op = "maximum_bipartite_matching"
    if not isinstance(perm_type, str) or perm_type not in PERM_TYPES:
        raise sr.InvalidValue(f"{op}: perm_type must be one of {PERM_TYPES}, got {perm_type!r}")
    S, device = host_csr(A, op)

    return sr.to_device(_scg.maximum_bipartite_matching(S, perm_type=perm_type), device)


def min_weight_full_bipartite_matching(A, maximize=False):
    """A full matching of minimum (or maximum) total weight of the bipartite graph whose
    biadjacency matrix is A: every row matched when m <= n, every column when n < m.

    Runs ``scipy.sparse.csgraph.min_weight_full_bipartite_matching`` (LAPJVsp) on the host,
    by design (see the module docstring): GPU input is copied to the host and the result back.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, shape (m, n)
        ``A(i, j)`` stored: row i and column j can be matched at that cost (a stored zero
        too, which SciPy's routine drops: the weights are then shifted by one constant
        first, see :func:`_zeros_as_edges`). +inf, as in SciPy, is no edge (when
        minimizing); -inf (+inf when maximizing) is refused.
    maximize : bool
        Maximize the total weight instead.

    Returns
    -------
    row_ind, col_ind : arrays on A's device
        Row ``row_ind[k]`` is matched to column ``col_ind[k]``.

    Raises
    ------
    ValueError
        SciPy's: no full matching exists. ``InvalidValue`` (a ValueError): weights too far
        apart for float64 sums, or -inf (:func:`check_lapjvsp_range`: SciPy's loop can
        never end there).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> W = sp.csr_matrix(np.array([[5, 1, 0], [1, 2, 3], [0, 4, 1.0]]))
    >>> rows, cols = algorithms.min_weight_full_bipartite_matching(W)
    >>> rows.tolist(), cols.tolist()
    ([0, 1, 2], [1, 0, 2])
    """
    op = "min_weight_full_bipartite_matching"
    maximize = check_bool(op, "maximize", maximize)
    S, device = host_csr(A, op)
    if S.dtype.kind not in "biuf":  # (SciPy would drop a complex weight's imaginary part)
        raise sr.DomainMismatch(f"{op}: A's weights must be real numbers, got dtype {S.dtype}")
    check_lapjvsp_range(S, op, "A", maximize)
    rows, cols = _scg.min_weight_full_bipartite_matching(_zeros_as_edges(S, op),
                                                         maximize=maximize)
    return sr.to_device(rows, device), sr.to_device(cols, device)
