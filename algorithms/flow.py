"""Maximum flow, on the CPU (SciPy's compiled Dinic and Edmonds–Karp).

This module's honest state: the flow is computed on the host by SciPy's compiled code, for
input on either device (GPU input is copied to the host explicitly and the flow back). A GPU
push–relabel (Goldberg & Tarjan 1988; the lock-free GPU variant of He & Hong 2010, with
global relabeling by a backward BFS from the sink) is the intended GPU method and is not
written yet: a synchronous vectorized push–relabel needs the lock-free discharge rule of He &
Hong to stay correct, and it pays off only on large graphs, where one launch per push round
is hidden behind the work.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import semiring as sr

from .matching import host_csr

METHODS = ("auto", "dinic", "edmonds_karp")


class FlowResult(NamedTuple):
    """``flow_value``: the value of a maximum flow; ``flow``: a semiring.Matrix on the input's
    device, ``flow(i, j)`` the flow from i to j (skew-symmetric: ``flow(j, i) = -flow(i, j)``,
    stored at the entries of A and Aᵀ, as SciPy's)."""

    flow_value: int
    flow: sr.Matrix


def _vertex(op, arg, v, n):
    if sr.is_gpu_array(v) or isinstance(v, np.ndarray):
        if v.ndim != 0 or v.dtype.kind not in "iu":
            raise sr.DomainMismatch(f"{op}: {arg} must be an integer, got an array of dtype "
                                    f"{v.dtype} and shape {tuple(v.shape)}")
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise sr.DomainMismatch(f"{op}: {arg} must be an integer, got {type(v).__name__}")
    if not 0 <= int(v) < n:
        raise sr.InvalidIndex(f"{op}: {arg} must lie in [0, {n}), got {int(v)}")
    return int(v)


def maximum_flow(A, source, sink, *, method="auto"):
    """A maximum flow from ``source`` to ``sink`` with the capacities ``A(i, j)``.

    Runs on the host (SciPy's compiled Dinic or Edmonds–Karp; see the module docstring): GPU
    input is copied to the host, and the flow matrix comes back on the input's device.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square, integer values
        ``A(i, j)``: the capacity of the edge i → j (duplicates add up, as in SciPy).
    source, sink : int
        Distinct vertices.
    method : {'auto', 'dinic', 'edmonds_karp'}
        ``'auto'``: Dinic's algorithm (SciPy's default).

    Returns
    -------
    FlowResult
        ``(flow_value, flow)``: an int and a :class:`semiring.Matrix` (see
        :class:`FlowResult`).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 3, 2, 0], [0, 0, 1, 2], [0, 0, 0, 3], [0, 0, 0, 0]]))
    >>> res = algorithms.maximum_flow(A, 0, 3)
    >>> res.flow_value
    5
    >>> res.flow.to_dense(missing=0)[0].tolist()
    [0, 3, 2, 0]
    """
    op = "maximum_flow"
    if method not in METHODS:
        raise sr.InvalidValue(f"{op}: method must be one of {METHODS}, got {method!r}")
    S, device = host_csr(A, op, square=True)
    n = S.shape[0]
    if S.dtype.kind not in "iu":
        raise sr.DomainMismatch(f"{op}: A's capacities must be integers, got dtype {S.dtype}")
    source = _vertex(op, "source", source, n)
    sink = _vertex(op, "sink", sink, n)
    if source == sink:
        raise sr.InvalidValue(f"{op}: source and sink must differ, got {source} for both")
    from scipy.sparse.csgraph import maximum_flow as _mf  # noqa: PLC0415

    res = _mf(S, source, sink, method="dinic" if method == "auto" else method)
    return FlowResult(int(res.flow_value), sr.Matrix.from_scipy(res.flow, device=device))
