"""Weak connected components as one fused mechanism: Afforest on the GPU.

The algebra's weak components (FastSV in :func:`algorithms.connected_components`) cost one
SpMV and a few gathers a round, O(log n) rounds. Afforest (Sutton, Ben-Nun & Barak, IPDPS
2018, "Optimizing Parallel Graph Connectivity Computation via Subgraph Sampling"; GAP's
``cc.cc``) does the same work as a union-find over the edges with lock-free hooking, and skips
most of it:

1. every vertex links to its first ``neighbor_rounds`` neighbours (min-hooking by
   compare-and-swap: the larger of two roots goes under the smaller), each round followed by
   pointer jumping until every tree is a star;
2. a sample of ``samples`` vertices names the most frequent root, the component that the
   sampled subgraph already holds most of the graph in;
3. every remaining edge is linked, except those of the vertices in that component (on a
   symmetric pattern: an edge to a vertex outside it is linked from the other end); on a
   pattern not known to be symmetric every remaining edge is linked;
4. pointer jumping; the roots (each component's least vertex) are flagged and numbered by a
   prefix sum, and each vertex takes its root's number (or, with ``roots=True``, the root).

On the GPU these are the kernels of ``kernels/components.cu`` (launched by
``semiring/backend/gpu/components.py``, after ECL-CC's layout: Jaiganesh & Burtscher, HPDC
2018), with no host synchronization. On the CPU the same labels come from SciPy's compiled
search (``semiring/backend/cpu/components.py``, one O(n + m) pass).
"""

from __future__ import annotations

import numpy as np

from .backend import backend_of
from .errors import DomainMismatch, InvalidValue, check_flags
from .matrix import as_matrix

__all__ = ["CSGRAPH_MAX", "MAX_SAMPLES", "weak_components"]

#: The largest sample of :func:`weak_components` (one thread block sorts it).
MAX_SAMPLES = 1024
#: The CPU's search (SciPy's) takes int32 positions and vertices: below this many of each.
CSGRAPH_MAX = 2**31 - 1


def weak_components(A, *, symmetric=False, neighbor_rounds=2, samples=1024, roots=False):
    """Weak components of a graph (those of A ∪ Aᵀ), numbered by least vertex.

    Afforest on the GPU (see the module docstring); SciPy's compiled search on the CPU. The
    labels do not depend on ``neighbor_rounds`` and ``samples``, only the work does.

    Parameters
    ----------
    A : Matrix, square
        The graph: a stored ``A(i, j)`` (an explicit zero too) is an edge joining i and j;
        values are not read. Runs where A lives.
    symmetric : bool
        Promise that A's pattern equals Aᵀ's: the last linking pass then skips the rows of
        the most frequent component. A pattern that is not symmetric needs ``False`` (every
        remaining edge is linked; an edge stored in one direction only joins its ends all
        the same). A view made by :meth:`Matrix.as_symmetric` counts as the promise.
    neighbor_rounds : int
        Sampling rounds: each vertex links its r-th stored neighbour in round r
        (``>= 0``; Afforest's k, 2 in the paper and in GAP).
    samples : int
        Vertices sampled to find the most frequent component (in ``[1, MAX_SAMPLES]``).
    roots : bool
        Return each vertex's root, its component's least vertex, instead of the component's
        number: Afforest's own result on the GPU, before the numbering's prefix sum.

    Returns
    -------
    labels : int32 array on A's device (int64 where ``roots`` and n >= 2**31)
        ``labels[v]`` = the number of v's component, 0..k-1 in order of each component's
        least vertex; with ``roots``, that least vertex.

    Raises
    ------
    DomainMismatch
        ``symmetric`` or ``roots`` is not a bool, or ``neighbor_rounds`` / ``samples`` not
        integers.
    InvalidValue
        ``neighbor_rounds < 0``, ``samples`` outside ``[1, MAX_SAMPLES]``, or (CPU) A beyond
        SciPy's int32 bounds.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 2, 3], [1, 3, 3], None, nrows=5, ncols=5, device="cpu")
    >>> sr.connectivity.weak_components(A).tolist()
    [0, 0, 1, 1, 2]
    >>> sr.connectivity.weak_components(A, roots=True).tolist()
    [0, 0, 2, 2, 4]
    """
    op = "weak_components"
    A = as_matrix(A, op=op, arg="A", square=True)
    symmetric, roots = check_flags(op, symmetric=symmetric, roots=roots)
    for arg, v in (("neighbor_rounds", neighbor_rounds), ("samples", samples)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise DomainMismatch(f"{op}: {arg} must be an int, got {type(v).__name__}")
    if neighbor_rounds < 0:
        raise InvalidValue(f"{op}: neighbor_rounds must be >= 0, got {neighbor_rounds}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise InvalidValue(f"{op}: samples must lie in [1, {MAX_SAMPLES}], got {samples}")
    n = A.nrows
    if A.device == "cpu" and not (n < CSGRAPH_MAX and A.nvals < CSGRAPH_MAX):
        raise InvalidValue(f"{op}: on the CPU A must have fewer than {CSGRAPH_MAX} rows and "
                           f"entries (SciPy's int32 search), got {n} and {A.nvals}")
    if n == 0:
        return A.xp.zeros(0, dtype=np.int32)
    skip = bool(symmetric) or A.transpose_is_self
    return backend_of(A.device).components.weak_components(A, skip, int(neighbor_rounds),
                                                           int(samples), bool(roots))
