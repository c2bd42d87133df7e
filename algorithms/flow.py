"""Maximum flow: push–relabel as array operations (GPU or CPU), or SciPy's Dinic on the host.

``method="push_relabel"`` (the default on the GPU) is Goldberg & Tarjan's algorithm (1988) in
the synchronous form GPU codes use (He & Hong 2010, "Efficient implementation of the
push–relabel algorithm on the GPU"; global relabeling as there), on the arcs of the symmetric
pattern A ∪ Aᵀ (capacity A(i, j), residual r = capacity − flow, flow skew-symmetric). Each
round, over all vertices at once:

- **push**: every active vertex u (excess, height below n) sends its excess along its
  admissible arcs (r(u, v) > 0, h(u) = h(v) + 1) in CSR order, each arc taking
  min(r, what is left), a segmented prefix sum over the arcs;
- **relabel**: an active vertex with excess left (all its admissible arcs saturated) rises to
  1 + min{h(v) : r(u, v) > 0}, a segmented min.

Two arcs u → v and v → u are never admissible together and heights only rise, so the
simultaneous operations are each a valid push or relabel of the sequential algorithm, whose
termination bound they inherit. Now and then (``GLOBAL_RELABEL_FRACTION``) the heights become
exact residual distances to the sink: a breadth-first search (:func:`algorithms.bfs`) over
the reversed residual arcs. The excess moves one arc per round, so a round count below the
longest augmenting path is impossible: high-diameter graphs take many rounds. Phase 1 ends
with a maximum preflow (no active vertex below n); phase 2 returns the remaining excess to the source the same way (heights n + distance to the
source), leaving a maximum flow.

``method="dinic"`` / ``"edmonds_karp"`` run SciPy's on the host; GPU input is copied there
explicitly and the flow back. ``method="auto"`` picks by the graph (policy below): a compiled
sequential Dinic beats rounds of array operations on the CPU always, and on the GPU unless the
graph is large and of low diameter, where the rounds are few and wide.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as _sps
import scipy.sparse.csgraph as _scg

import semiring as sr

from .components import _scatter_min
from .matching import host_csr

from .bfs import bfs as _bfs

METHODS = ("auto", "push_relabel", "dinic", "edmonds_karp")

#: A global relabeling (exact residual distances by a BFS) runs at the start of each phase
#: and again once the vertices relabeled since the last one number GLOBAL_RELABEL_FRACTION · n
#: (the work-based trigger of Cherkassky & Goldberg 1997, as He & Hong 2010 use it on the
#: GPU): stale heights make the excess climb one unit per round, while on graphs where the
#: excess flows straight down exact heights (a long path) no BFS is repeated at all.
GLOBAL_RELABEL_FRACTION = 0.5

#: ``method="auto"`` on GPU input: push–relabel only on graphs of at least this many stored
#: entries whose BFS depth from the source is at most AUTO_PUSH_RELABEL_MAX_DEPTH, Dinic on the
#: host otherwise. Measured on an H200 (bench/probes/flow_policy.py, session 18; Dinic's
#: copies to the host and back included): push–relabel 7.3x and 10.6x faster on kron-18 and
#: kron-20 (7.6M and 31M entries), even on urand-18/20 (1.0x, 1.1x); 3-1000x slower on every
#: graph below 2²² entries and on the high-diameter ones (grid-100: 2.6 s against 2.5 ms;
#: grid-300; rgg-14..20), whose excess moves one arc a round.
AUTO_PUSH_RELABEL_MIN_ENTRIES = 1 << 22
AUTO_PUSH_RELABEL_MAX_DEPTH = 64

#: push–relabel's int64 sums stay exact while the capacities add up to at most this: an
#: excess is at most the source's capacities, a round's prefix sum over the arcs at most
#: Σ (r(u, v) + r(v, u)) = 2 Σ cap. Beyond it they could wrap (2⁶² on three arcs looped
#: forever, session 16): refused before any round (2⁶¹, not 2⁶², leaves room for the
#: float64 rounding of the test's sum).
MAX_TOTAL_CAPACITY = 2**61


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


def maximum_flow(A, source, sink, *, method="auto", progress=None):
    """A maximum flow from ``source`` to ``sink`` with the capacities ``A(i, j)``.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square, integer values
        ``A(i, j)``: the capacity of the edge i → j (duplicates add up, in int64, as in SciPy;
        self-loops carry nothing).
    source, sink : int
        Distinct vertices.
    method : {'auto', 'push_relabel', 'dinic', 'edmonds_karp'}
        ``'push_relabel'``: array rounds where A lives (see the module docstring; capacities
        must be >= 0, summing to at most 2**61). ``'dinic'``, ``'edmonds_karp'``: SciPy's on
        the host (GPU input is copied there explicitly, the flow back; capacities must fit
        int32, as SciPy casts them). ``'auto'``: Dinic, except push–relabel where a capacity
        lies outside int32 and on large low-diameter GPU graphs
        (:data:`AUTO_PUSH_RELABEL_MIN_ENTRIES` stored entries or more, BFS depth from the
        source at most :data:`AUTO_PUSH_RELABEL_MAX_DEPTH`), where its rounds are few and wide.
    progress : callable, optional
        push–relabel only: called after each round as ``progress(phase, round, active)``
        (phase 1 builds the maximum preflow, phase 2 returns the excess to the source).

    Returns
    -------
    FlowResult
        ``(flow_value, flow)``: an int and a :class:`semiring.Matrix` on A's device (see
        :class:`FlowResult`). Maximum flows are not unique: Dinic's is SciPy's, push–relabel's
        has the same value and may route it differently.

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
    >>> algorithms.maximum_flow(A, 0, 3, method="push_relabel").flow_value
    5
    """
    op = "maximum_flow"
    if not isinstance(method, str) or method not in METHODS:
        raise sr.InvalidValue(f"{op}: method must be one of {METHODS}, got {method!r}")
    if progress is not None and not callable(progress):
        raise sr.DomainMismatch(f"{op}: progress must be callable or None, got "
                                f"{type(progress).__name__}")
    if _sps.issparse(A) and A.dtype.kind in "iu" and A.dtype.itemsize < 8 and not (
            A.dtype == np.int32 and A.format == "csr" and A.has_canonical_format):
        # SciPy's parallel entries are parallel arcs, each of its own capacity: summed into one
        # entry in A's narrow type they wrapped (two of 2**31 - 1 in int32: -2, no flow). In
        # int64 the sum is exact, and int8 .. uint32 capacities are taken, as SciPy takes them
        # (a canonical int32 CSR has nothing to sum: wrapped as it is, no copy)
        A = A.astype(np.int64)
    M = sr.as_matrix(A, op=op, arg="A", square=True)
    if np.dtype(M.dtype).kind not in "iu":
        raise sr.DomainMismatch(f"{op}: A's capacities must be integers, got dtype {M.dtype}")
    n = M.nrows
    source = _vertex(op, "source", source, n)
    sink = _vertex(op, "sink", sink, n)
    if source == sink:
        raise sr.InvalidValue(f"{op}: source and sink must differ, got {source} for both")
    # SciPy's flows cast the capacities to int32: one that does not fit would be cut silently
    # (2**62 → 0, and -2**31 - 1 → 2**31 - 1: a negative capacity carrying flow), so those
    # graphs take push–relabel (exact in int64; it refuses negative capacities) or are refused
    lo_cap, hi_cap = _capacity_range(M)
    i32 = np.iinfo(np.int32)
    big = hi_cap > i32.max or lo_cap < i32.min
    if method == "auto":
        method = "push_relabel" if big or _rounds_are_few(M, source) else "dinic"
    if big and method != "push_relabel":
        bad = hi_cap if hi_cap > i32.max else lo_cap
        raise sr.InvalidValue(f"{op}: method={method!r} (SciPy's) takes int32 capacities, A has "
                              f"{bad} outside [-2**31, 2**31 - 1]: use method='push_relabel'")
    if method == "push_relabel":
        return _push_relabel(M, source, sink, op, progress)
    S, device = host_csr(M, op)

    res = _scg.maximum_flow(S, source, sink, method=method)
    return FlowResult(int(res.flow_value), sr.Matrix.from_scipy(res.flow, device=device))


def _capacity_range(M):
    """(least, largest) capacity of M's stored entries as Python ints; (0, 0) without any."""
    if not M.nvals:
        return 0, 0
    if M.is_iso:
        return int(M.iso_value), int(M.iso_value)
    return int(M.values.min()), int(M.values.max())


def _rounds_are_few(M, source):
    """Whether push–relabel's rounds beat Dinic on the host for M (the policy above)."""
    if M.device != "gpu" or M.nvals < AUTO_PUSH_RELABEL_MIN_ENTRIES:
        return False
    # the excess moves one arc a round: the depth from the source bounds the rounds from below
    return int(_bfs(M, source).max()) <= AUTO_PUSH_RELABEL_MAX_DEPTH


def _row_sums(xp, indptr, x):
    """Per-row sums of the per-arc values x (arcs in CSR order), exact for integers."""
    cs = xp.concatenate([xp.zeros(1, dtype=x.dtype), xp.cumsum(x)])
    return cs[indptr[1:]] - cs[indptr[:-1]]


def _row_min(xp, au, x, n, empty):
    out = xp.full(n, empty, dtype=x.dtype)
    _scatter_min(xp, out, au, x)
    return out


class _Arcs:
    """The residual arcs: A ∪ Aᵀ without self-loops, in CSR order, with each one's reverse."""

    def __init__(self, A):
        xp = A.xp
        n = A.nrows
        rows, cols, vals = A.to_coo()
        keep = rows != cols
        rows, cols, vals = rows[keep], cols[keep], vals[keep].astype(xp.int64)
        k1 = rows * n + cols
        keys = xp.unique(xp.concatenate([k1, cols * n + rows]))
        self.n, self.xp = n, xp
        self.au, self.av = keys // max(n, 1), keys % max(n, 1)
        self.cap = xp.zeros(keys.size, dtype=xp.int64)
        self.cap[xp.searchsorted(keys, k1)] = vals
        self.rev = xp.searchsorted(keys, self.av * n + self.au)
        counts = xp.bincount(self.au, minlength=n) if n else xp.zeros(0, dtype=xp.int64)
        self.indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)])
        self.device = A.device

    def distances(self, r, target, avoid):
        """Residual distance of every vertex to ``target`` (-1: none), avoiding ``avoid``:
        BFS from the target over the reversed residual arcs (w → v where r(v, w) > 0)."""
        xp = self.xp
        # the arc (w, v) in CSR order stands for the reversed residual arc v → w
        keep = (r[self.rev] > 0) & (self.au != avoid) & (self.av != avoid)
        counts = xp.bincount(self.au[keep], minlength=self.n)
        indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)])
        R = sr.Matrix.from_csr(indptr, self.av[keep], None, (self.n, self.n), check=False)
        return _bfs(R, target)


def _discharge(arcs, f, excess, h, active_of, relabel_to, progress, phase):
    """Push–relabel rounds until ``active_of(h, excess)`` is empty; f, excess, h in place."""
    xp, au, av, rev, indptr = arcs.xp, arcs.au, arcs.av, arcs.rev, arcs.indptr
    n = arcs.n
    rounds = 0
    relabeled = n + 1  # a global relabeling first
    while True:
        if relabeled >= GLOBAL_RELABEL_FRACTION * n:
            relabel_to(h, arcs.cap - f)
            relabeled = 0
        active = active_of(h, excess)
        if not bool(active.any()):
            return
        rounds += 1
        r = arcs.cap - f
        # push: each active u fills its admissible arcs in CSR order with its excess
        adm = active[au] & (r > 0) & (h[au] == h[av] + 1)
        amt = xp.where(adm, r, 0)
        before = xp.cumsum(amt) - amt  # exclusive prefix over all arcs
        before = before - before[indptr[au]]  # ... made per row
        push = xp.clip(excess[au] - before, 0, amt)
        f += push - push[rev]
        excess += _row_sums(xp, indptr, push[rev]) - _row_sums(xp, indptr, push)
        # relabel: an active vertex with excess left has no admissible arc with residual
        stuck = active & (excess > 0)
        if bool(stuck.any()):
            r = arcs.cap - f
            lowest = _row_min(xp, au, xp.where(r > 0, h[av], 4 * n), n, 4 * n)
            h[stuck] = xp.maximum(h[stuck], lowest[stuck] + 1)
            relabeled += int(stuck.sum())
        if progress is not None:
            progress(phase, rounds, int(active.sum()))


def _push_relabel(A, s, t, op, progress):
    A = sr.as_matrix(A, op=op, arg="A")
    least = _capacity_range(A)[0]
    if least < 0:
        raise sr.InvalidValue(f"{op}: push_relabel needs capacities >= 0, got {least}")
    total = (float(A.iso_value) * A.nvals if A.is_iso
             else float(A.values.sum(dtype=np.float64)) if A.nvals else 0.0)
    if total > MAX_TOTAL_CAPACITY:
        raise sr.InvalidValue(f"{op}: push_relabel needs A's capacities to sum to at most "
                              f"2**61 (its int64 flows would overflow), got {total:.4g}")
    arcs = _Arcs(A)
    xp, n = arcs.xp, arcs.n
    f = xp.zeros(arcs.au.size, dtype=xp.int64)
    excess = xp.zeros(n, dtype=xp.int64)
    h = xp.zeros(n, dtype=xp.int64)
    # saturate the source's arcs
    out = arcs.au == s
    f[out] = arcs.cap[out]
    f[arcs.rev[out]] = -arcs.cap[out]
    excess[:] = _row_sums(xp, arcs.indptr, xp.where(f < 0, -f, 0))  # what flowed in
    excess[s] = 0

    def to_sink(h, r):
        d = arcs.distances(r, t, s)
        h[:] = xp.maximum(h, xp.where(d >= 0, d, n))
        h[s] = n

    def active1(h, excess):
        a = (excess > 0) & (h < n)
        a[s] = a[t] = False
        return a

    _discharge(arcs, f, excess, h, active1, to_sink, progress, 1)
    flow_value = int(excess[t])

    def to_source(h, r):
        d = arcs.distances(r, s, t)
        h[:] = xp.maximum(h, xp.where(d >= 0, n + d, h))  # excess always reaches s
        h[t] = 0

    def active2(h, excess):
        a = excess > 0
        a[s] = a[t] = False
        return a

    _discharge(arcs, f, excess, h, active2, to_source, progress, 2)
    flow = sr.Matrix.from_csr(arcs.indptr, arcs.av, f, (n, n), check=False)
    return FlowResult(flow_value, flow)
