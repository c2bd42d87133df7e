"""Shortest paths of the facade: shortest_path, dijkstra, bellman_ford, johnson, floyd_warshall,
yen, reconstruct_path, construct_dist_matrix and NegativeCycleError.

Two paths, chosen by where the input lives (:func:`_engine`):

- *host input* (SciPy, NumPy, masked, lists, a CPU ``semiring.Matrix``): the input is converted
  by :mod:`._validation` (a fresh float64 CSR in the caller's stored order), checked for the
  facade's deviations (negative weights in ``dijkstra``, negative undirected edges), and handed
  to SciPy's compiled routine, the best CPU implementation there is: the answer is SciPy's,
  element for element, at SciPy's speed plus one copy of the edges.
- *GPU input* (CuPy, cupyx, a GPU ``semiring.Matrix``), or a host graph of 2³¹ vertices or more
  (beyond SciPy's int32 indices): the engine's algorithms (:func:`algorithms.delta_stepping`,
  :func:`algorithms.multi_source_sssp`, :func:`algorithms.apsp`), results on the input's device.
"""

from __future__ import annotations

import heapq
import importlib
import warnings

import numpy as np
import scipy.sparse as sps
import scipy.sparse.csgraph as scg

import semiring as sr
from semiring.matrix import row_of_entries

from ..apsp import apsp as _apsp_native
from ..sssp import multi_source_sssp as _multi_source_sssp
from ..sssp import sssp as _sssp_native
from . import _thin
from . import _validation as _v

#: SciPy's "no predecessor" value.
NULL_IDX = -9999

try:  # SciPy is a dependency, but keep the facade importable without csgraph's extension
    from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycleError
except ImportError:  # pragma: no cover
    _ScipyNegativeCycleError = Exception

#: Beyond this many vertices SciPy's int32 indices overflow: the engine path runs instead.
SCIPY_MAX_N = 2**31 - 1


class NegativeCycleError(sr.NegativeCycleError, _ScipyNegativeCycleError):
    """A negative cycle: caught by ``except semiring.NegativeCycleError``, by
    ``except algorithms.NegativeCycleError`` and by
    ``except scipy.sparse.csgraph.NegativeCycleError`` alike.

    Examples
    --------
    >>> import numpy as np, scipy.sparse.csgraph as scg
    >>> from algorithms import csgraph
    >>> G = np.array([[0, 1.0], [-2.0, 0]])
    >>> try:
    ...     csgraph.bellman_ford(G, indices=0)
    ... except scg.NegativeCycleError as e:
    ...     print(type(e).__name__)
    NegativeCycleError
    """

    def __init__(self, message: str = "", vertices=None):
        sr.NegativeCycleError.__init__(self, message, vertices=vertices)


def _scg():
    return scg


def _scipy(op: str, name: str, *args, **kw):
    """SciPy's routine ``name``, its NegativeCycleError re-raised as the facade's (which is
    also SciPy's and semiring's), the message prefixed once with ``op``, except SciPy's false
    one of an undirected Bellman–Ford (:func:`_undirected_bf_false_cycle`): the distances
    then."""
    try:
        return getattr(_scg(), name)(*args, **kw)
    except _ScipyNegativeCycleError as e:
        if isinstance(e, NegativeCycleError):
            raise
        if _undirected_bf_false_cycle(name, args, kw):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # negative edges unreachable from the sources
                return _scg().dijkstra(args[0], directed=False, indices=kw.get("indices"),
                                       return_predecessors=kw.get("return_predecessors",
                                                                  False))
        raise NegativeCycleError(f"{op}: {e}") from e


def _undirected_bf_false_cycle(name: str, args, kw) -> bool:
    """Whether SciPy's NegativeCycleError from an undirected Bellman–Ford is false.

    SciPy 1.17's ``_bellman_ford_undirected`` tests each edge after its N − 1 passes with
    ``abs(d(v) − d(u)) > w + 1e-15``: an absolute tolerance, while d(v) = d(u) + w is rounded
    to d's precision, so with fractional weights and distances past about 8 (one ulp of 8 is
    1.8e-15) the test fails on converged distances. A path of 8 vertices with weights 3.563,
    7.493, 7.295, 8.824, 6.83, 5.955, 5.264 raised it from every source (found by session
    15's audit on a random graph of 400 vertices). An undirected graph has a negative cycle
    reachable from a source exactly when a negative edge lies in a source's component; with
    none, the shortest paths are Dijkstra's (the directed test, d(u) + w + 1e-15 < d(v), has
    no such flaw: a relaxation leaves d(v) <= d(u) + w as computed)."""
    if kw.get("directed", True) or kw.get("unweighted", False):
        return False
    if not (name == "bellman_ford" or (name == "shortest_path" and kw.get("method") == "BF")):
        return False
    S = args[0]
    if not sps.issparse(S) or S.format != "csr":
        return False
    data = np.asarray(S.data, dtype=np.float64)
    neg = ~(data >= 0)  # NaN counts as negative: SciPy's error stands
    if not bool(neg.any()):
        return True
    n = S.shape[0]
    _, labels = _scg().connected_components(S, directed=False)
    src = kw.get("indices")
    src = np.arange(n) if src is None else np.asarray(src, dtype=np.int64).ravel() % max(n, 1)
    rows = np.repeat(np.arange(n), np.diff(S.indptr))
    return not bool(np.isin(labels[rows[neg]], labels[src]).any())


def _engine(csgraph, n: int | None = None) -> bool:
    """Whether the engine path runs: GPU input, a graph beyond SciPy's int32 indices, or the
    tests' switch ``_validation.FORCE_ENGINE`` (which runs the GPU code on NumPy)."""
    return _v.is_gpu_input(csgraph) or _v.engine_forced() or (n is not None and n > SCIPY_MAX_N)


def _negative_edge(data):
    """(row-free) index of the most negative weight, or None."""
    if data.size == 0:
        return None
    if data.dtype.kind == "f":  # argmin stops at a NaN, which hid the negative weights
        data = np.where(np.isnan(data), np.inf, data)
    k = int(data.argmin())
    return k if float(data[k]) < 0 else None


def _check_negative(op: str, method: str, rows, cols, data, directed: bool, unweighted: bool):
    """The facade's deviations for negative weights (module docstring): ``dijkstra`` refuses
    them (SciPy warns and may answer wrongly, or hang on a negative cycle), an undirected
    negative edge is a negative cycle for ``dijkstra`` (SciPy hangs)."""
    if unweighted or method != "D":
        return
    k = _negative_edge(data)
    if k is None:
        return
    u, v, w = int(rows[k]), int(cols[k]), float(data[k])
    if not directed:
        raise NegativeCycleError(f"{op}: the undirected edge ({u}, {v}) has negative weight {w}: "
                                 f"u → v → u is a negative cycle", vertices=np.array([u, v]))
    raise sr.InvalidValue(f"{op}: Dijkstra's algorithm needs non-negative weights, got {w} on "
                          f"edge ({u}, {v}); use bellman_ford or johnson (or "
                          f"shortest_path(method='auto'))")


def _fast(csgraph, indices, signed: bool):
    """The fast path's test for the shortest-path functions: the input itself (see
    :func:`._validation.scipy_csr`) when ``indices`` is None or one in-range ``int``, its
    results fit :data:`._validation.CHECK_BYTES_FROM` and, where ``signed`` (the Dijkstra
    methods, where negative weights are the facade's deviation), no weight is negative; else
    None (the full validation runs)."""
    S = _v.scipy_csr(csgraph)
    if S is None:
        return None
    n = S.shape[0]
    if indices is None:
        if n * n * 12 >= _v.CHECK_BYTES_FROM:
            return None
    elif not _v.fast_vertex(indices, n):
        return None
    # fmin: a NaN weight must not hide a negative one (minimum's NaN fails the test, and
    # SciPy's Dijkstra looped forever on such a graph)
    if signed and S.data.size and S.data.dtype.kind in "if" and np.fmin.reduce(S.data) < 0:
        return None
    return S


#: Host input's plain Dijkstra (``dijkstra``, and ``shortest_path`` where it runs Dijkstra:
#: distances only) runs the CPU backend's compiled loop where Numba is
#: installed (``compiled.dijkstra_distances``: a 4-ary heap with decrease-key; SciPy's float64
#: distances bit for bit, as ``algorithms.sssp.CPU_COMPILED_DIJKSTRA`` argues and
#: ``tests/test_sssp_compiled.py`` checks) instead of SciPy's Fibonacci heap, a source at a
#: time as SciPy's loop, over the CSR the facade hands SciPy where SciPy reads it as it is:
#: float64 (a duplicate entry is a parallel edge to both), or another dtype whose rows are
#: sorted without duplicates in truth (:func:`._validation.canonical_csr`; SciPy's float64 cast
#: sums duplicates: an edge stored as 5 and 1 weighs 6 in a float32 CSR, 1 in a float64 one,
#: and those inputs stay SciPy's); weights >= 0 and no NaN. 2-core host, alternating, the
#: bench's float32 graphs, one and 8 sources: 1.4-3.3x SciPy's time
#: (bench/results/session25/facade_dijkstra_alternating.txt). Session 26: ``unweighted=True``
#: too (every stored entry weighs 1 there, so the hop counts are exact whatever SciPy's cast
#: does to duplicates), a ``limit`` (a candidate above it dropped, as SciPy's test drops it),
#: ``directed=False`` (Sᵀ's rows relaxed after S's, Sᵀ made as SciPy makes it) and
#: ``min_only`` (one search from every source).
HOST_COMPILED_DIJKSTRA = True


def _plain(return_predecessors) -> bool:
    """Whether a ``dijkstra`` call's options are those the compiled loop answers: distances
    only (:data:`HOST_COMPILED_DIJKSTRA`), directed or not, weighted or not, any limit,
    ``min_only`` or not."""
    return HOST_COMPILED_DIJKSTRA and not return_predecessors


def _compiled_dijkstra(S, sources, shape, unweighted=False, limit=np.inf, directed=True,
                       min_only=False):
    """The distances of a plain ``dijkstra`` call (:func:`_plain`) on the CSR ``S`` handed to
    SciPy, from ``sources`` (int64, in range), shaped ``shape + (N,)``, by the compiled loop
    (``unweighted``: every stored entry weighs 1, as SciPy's ``unweighted=True``; ``limit``:
    SciPy's, a float >= 0; ``directed`` false: Sᵀ's rows relaxed too, Sᵀ made as SciPy
    makes it, ``S.T.tocsr()``; ``min_only``: one search from every source, shape (N,)); or
    None where SciPy's routine runs: Numba off, a NaN or negative weight (SciPy warns of a
    negative one even when unweighted), or a weighted CSR that SciPy would not read as it is
    (its float64 cast sums duplicates: a CSR of another dtype whose rows are not sorted
    without duplicates)."""
    compiled = importlib.import_module("semiring.backend.cpu.compiled")
    if not compiled.ENABLED:
        return None
    if not unweighted and S.dtype != np.float64 and not _v.canonical_csr(S):
        return None
    w = S.data
    # NaN fails the test too (minimum propagates it): such weights stay SciPy's
    if w.size and not np.minimum.reduce(w) >= 0:
        return None
    n = S.shape[0]

    # the loop's views of a CSR: unsigned indices of S's width (both CSRs of one search share
    # a kernel signature) and float64 weights
    utype = np.uint32 if S.indices.dtype.itemsize == 4 else np.uint64

    def arrays(M):
        ix = M.indices.astype(S.indices.dtype, copy=False).view(utype)
        ww = np.ones(M.data.size) if unweighted else M.data.astype(np.float64, copy=False)
        return M.indptr.astype(np.int64).view(np.uint64), ix, ww

    second = arrays(S.T.tocsr()) if not directed else None
    d = compiled.dijkstra_distances(*arrays(S), sources, limit=limit, second=second,
                                    min_only=min_only)
    return d if min_only else d.reshape(shape + (n,))


def _compiled_fast(S, indices, unweighted, limit=np.inf, directed=True, min_only=False):
    """:func:`_compiled_dijkstra` on the fast path's CSR, whose ``indices`` is None (every
    vertex a source: the N × N distances) or one in-range int; None where SciPy's routine
    runs (another ``indices``, or as :func:`_compiled_dijkstra` says)."""
    n = S.shape[0]
    if indices is None:
        src, shape = np.arange(n, dtype=np.int64), (n,)
    elif _v.fast_vertex(indices, n):
        src, shape = np.array([indices], dtype=np.int64), ()
    else:
        return None
    return _compiled_dijkstra(S, src, shape, unweighted, limit, directed, min_only)


def _scipy_indices(idx, shape):
    if shape == ():
        return int(idx[0])
    return idx.reshape(shape)


class _Rows:
    """The row of each stored entry, computed only when asked for (an error message)."""

    def __init__(self, S):
        self._S = S

    def __getitem__(self, k):
        return int(np.searchsorted(self._S.indptr, k, side="right") - 1)


#: SciPy's warning for a Dijkstra graph of negative weights (where it does not refuse them).
SCIPY_NEGATIVE_WARNING = ("Graph has negative weights: dijkstra will give inaccurate results "
                          "if the graph contains negative cycles. Consider johnson or "
                          "bellman_ford.")


def _scipy_warns_negative(method: str, unweighted: bool) -> bool:
    """Whether SciPy's routine for ``method`` warns of negative weights
    (:data:`SCIPY_NEGATIVE_WARNING`) once it has the graph: its ``dijkstra``, and its
    ``johnson`` with ``unweighted=True``, which hands the graph to its ``dijkstra``
    (``shortest_path(method='auto')`` picks 'J' on a negative weight: the same warning)."""
    return method == "D" or (method == "J" and unweighted)


def _indices_after_warning(indices, n, op, method, data, unweighted):
    """:func:`._validation.normalize_indices`, where SciPy's Dijkstra
    (:func:`_scipy_warns_negative`) on negative weights gives SciPy's warning before refusing
    the indices, as SciPy warns before it converts them, whatever the index error (out of
    range, or a Python integer past int32). (Where they are accepted SciPy's routine warns,
    or the facade refuses the weights: ``dijkstra``'s deviation.)"""
    try:
        return _v.normalize_indices(indices, n, op)
    except Exception:
        if _scipy_warns_negative(method, unweighted) and _negative_edge(data) is not None:
            warnings.warn(SCIPY_NEGATIVE_WARNING, UserWarning, stacklevel=3)
        raise


def _limit(op, limit) -> float:
    """``dijkstra``'s ``limit`` as a float >= 0 (inf included), as SciPy's ``double limit``
    takes it; raises :class:`semiring.DomainMismatch` for a non-number (a string too) and
    :class:`semiring.InvalidValue` below 0 or NaN."""
    try:
        if isinstance(limit, (str, bytes)):
            raise TypeError
        value = float(limit)
    except (TypeError, ValueError) as e:
        raise sr.DomainMismatch(f"{op}: limit must be a real number, got "
                                f"{type(limit).__name__}") from e
    if not value >= 0:
        raise sr.InvalidValue(f"{op}: limit must be >= 0, got {value}")
    return value


def _host_graph(csgraph, op, directed=True):
    """(the CSR SciPy reads, in stored order, its row of each entry): the caller's own CSR
    where SciPy reads it as it is, else SciPy's cast of it (a non-float64 CSR whose rows are
    not sorted without duplicates: the cast sums them, so an edge stored as -1 and 3 weighs
    2, not a negative weight)."""
    S = _v.as_scipy_csr(csgraph, op, directed=directed, borrow=True)
    if S.dtype != np.float64 and not _v.canonical_csr(S):
        S = _v.scipy_view(S, op)
    return S, _Rows(S)


# ------------------------------------------------------------------------------ engine path


def _prepared(A: sr.Matrix, directed: bool, unweighted: bool) -> sr.Matrix:
    """The graph as SciPy computes on it: weights 1.0 when ``unweighted``, and for
    ``directed=False`` both directions of every edge, the smaller weight where both exist."""
    xp = A.xp
    n = A.nrows
    if not directed:
        r, c, v = A.to_coo()
        # A ∪ Aᵀ with min on the overlap (SciPy relaxes both directions of every edge)
        A = sr.Matrix.from_coo(xp.concatenate([r, c]), xp.concatenate([c, r]),
                               xp.concatenate([v, v]), nrows=n, ncols=n, dup_op=sr.binary.min,
                               device=A.device)
    if unweighted:
        return sr.Matrix.from_csr(A.indptr, A.indices, xp.ones(A.nvals), A.shape, check=False)
    r, c, v = A.to_coo()
    fin = xp.isfinite(v)
    if not bool(fin.all()):
        # a stored inf edge lies on no finite path: drop it (algorithms.apsp's predecessor
        # search would count it tight, inf <= d + n·ε·inf; reported to issue 19's owner)
        A = sr.Matrix.from_coo(r[fin], c[fin], v[fin], nrows=n, ncols=n, device=A.device)
    return A


def _finish(dist, pred, shape, return_predecessors: bool, xp):
    """SciPy's sentinels and shapes: -9999 where there is no predecessor (sources, unreached
    vertices, and vertices whose only path has infinite length), int32."""
    pred = xp.where((pred < 0) | ~xp.isfinite(dist), NULL_IDX, pred).astype(xp.int32)
    n = dist.shape[-1]
    dist = dist.reshape(shape + (n,))
    pred = pred.reshape(shape + (n,))
    return (dist, pred) if return_predecessors else dist


def _check_memory(op: str, nbytes: int, device: str):
    _v.check_output_bytes(op, nbytes, device)


def _raise_cycle(op: str, e):
    raise NegativeCycleError(f"{op}: {str(e).split(': ', 1)[-1] if ': ' in str(e) else e}",
                             vertices=getattr(e, "vertices", None)) from e


def _batched(A: sr.Matrix, sources, op: str, method: str, limit=None):
    """Distances (float64) and int64 predecessors (-1), one row per source: one
    :func:`algorithms.delta_stepping` for a single non-negative source, else every source at
    once by :func:`algorithms.multi_source_sssp` (one min-plus SpMM a round, at most
    ``BATCH_ROUNDS`` of them with w ≥ 0 before each unfinished source runs its own search, so a
    high-diameter graph stays O(sources · (N + nnz)); a reachable negative cycle raises)."""
    xp = A.xp
    n = A.nrows
    k = int(sources.size)
    _check_memory(op, k * n * 16, A.device)
    if k == 0:
        return xp.zeros((0, n)), xp.zeros((0, n), dtype=xp.int64)
    try:
        if k == 1:
            kw = {"limit": limit} if (limit is not None and method == "delta_stepping") else {}
            d, p = _sssp_native(A, int(sources[0]), method, predecessors=True, **kw)
            return d.astype(xp.float64)[None, :], p.astype(xp.int64)[None, :]
        d, p = _multi_source_sssp(A, xp.asarray(sources), predecessors=True)
    except sr.NegativeCycleError as e:
        _raise_cycle(op, e)
    return d.astype(xp.float64), p.astype(xp.int64)


def _refuse_minus_infinity(op: str, r, c, w, unweighted: bool):
    """A stored -inf weight (where weights count): raise :class:`semiring.InvalidValue`.

    SciPy's answers to it are no rule to follow (session 15's audit, on one graph:
    ``bellman_ford`` -inf or NaN distances or NegativeCycleError, ``johnson`` NaN rows,
    ``floyd_warshall`` -inf), and the engine used to drop the edge as it drops a stored +inf
    (which lies on no finite path), answering as if the edge did not exist."""
    if unweighted or not w.size:
        return
    bad = w == -np.inf
    if bool(bad.any()):
        k = int(bad.argmax())
        raise sr.InvalidValue(f"{op}: edge ({int(r[k])}, {int(c[k])}) has weight -inf: shortest "
                              f"path lengths are undefined")


def _engine_paths(csgraph, op, method, directed, indices, return_predecessors, unweighted,
                  limit=None, min_only=False, bad_limit=None):
    """The engine's shortest paths, in SciPy's order of checks and warnings: the graph, SciPy's
    negative-weight warning where its Dijkstra runs (before an index error, as the host path;
    :func:`_indices_after_warning`), the indices, the facade's refusals, then ``bad_limit``
    (``dijkstra``'s refused ``limit``: SciPy reads it last)."""
    # a path sum beyond float64's range is inf, silently, as in SciPy's compiled loops; the
    # engine's NumPy sums (its relaxation rounds on the CPU) would warn "overflow encountered
    # in add" (session 28's engine fuzz: weights of 1.5e308)
    with np.errstate(over="ignore"):
        return _engine_paths_run(csgraph, op, method, directed, indices, return_predecessors,
                                 unweighted, limit, min_only, bad_limit)


def _engine_paths_run(csgraph, op, method, directed, indices, return_predecessors, unweighted,
                      limit, min_only, bad_limit):
    """:func:`_engine_paths`' work."""
    if method == "FW":
        return _fw_engine(csgraph, op, directed, return_predecessors, unweighted)
    A0 = _v.as_graph(csgraph, op, dup="min", directed=directed)
    n = A0.nrows
    r, c, w = A0.to_coo()
    idx, shape = _indices_after_warning(indices, n, op, method, w, unweighted)
    _refuse_minus_infinity(op, r, c, w, unweighted)
    _check_negative(op, method, r, c, w, directed, unweighted)
    # (weighted Dijkstra on negative weights was refused above: the warning is unweighted's)
    warn = unweighted and _scipy_warns_negative(method, True) and _negative_edge(w) is not None
    if bad_limit is not None:
        if warn:
            warnings.warn(SCIPY_NEGATIVE_WARNING, UserWarning, stacklevel=4)
        raise bad_limit
    A = _prepared(A0, directed, unweighted)
    xp = A.xp
    has_neg = bool(A.nvals) and float(A.values.min()) < 0
    if not has_neg and idx.size and _thin.sssp_is_thin(A, int(idx[0])):
        # a long, thin graph: the device loop would pay a barrier a round (a path of 10⁵
        # vertices: 3 s); SciPy's Dijkstra on a host copy is O((N + nnz) log N) a source.
        # Without negative weights Bellman–Ford's and Johnson's distances are Dijkstra's
        # (SciPy's own run N passes over every edge: the path, 111 s). With negative weights
        # the engine stays (its rounds number the hops; SciPy's are O(N · nnz) anyway).
        if op in ("bellman_ford", "johnson"):
            raise _v.ThinGraph(op, use=dijkstra.__wrapped__)
        raise _v.ThinGraph(op, method="D" if op == "shortest_path" else None)
    if warn:  # (after the redirect: SciPy's routine on the host copy gives its own)
        warnings.warn(SCIPY_NEGATIVE_WARNING, UserWarning, stacklevel=4)
    if method == "J":
        return _johnson_engine(A, op, idx, shape, return_predecessors, has_neg, method)
    if min_only:
        return _min_only_engine(A, op, idx, return_predecessors, limit)
    native = "delta_stepping" if (method == "D" and not has_neg) else "bellman_ford"
    dist, pred = _batched(A, idx, op, native, limit)
    if return_predecessors and not has_neg:
        pred = _settled_first(A, idx, dist, pred)
    if limit is not None:
        far = dist > limit
        dist = xp.where(far, xp.inf, dist)
        pred = xp.where(far, -1, pred)
    return _finish(dist, pred, shape, return_predecessors, xp)


#: :func:`_settled_first` looks at this many (source, edge) pairs at a time.
SETTLED_FIRST_CHUNK = 1 << 24


def _settled_first(A: sr.Matrix, sources, dist, pred):
    """Dijkstra's predecessors where paths of equal length meet, as SciPy's: a vertex keeps
    the predecessor that reached its final distance first, i.e. the one settled first, the
    one of least distance (SciPy's heap pops in distance order; a relaxation replaces a
    predecessor only on a strictly shorter path). Δ-stepping settles buckets in parallel and
    may take a later one (SciPy's own test_predecessors: 0 → 1 through 3 at distance 1
    instead of straight from 0). Among the tight edges p → v (d(p) + w = d(v)), p of least
    d(p) replaces the engine's predecessor where that one's d is larger; where it ties, the
    engine's stays (SciPy's order among equal distances is its heap's; keeping the engine's
    tree there keeps it a tree: every replacement strictly lowers d, so a cycle, whose
    vertices share one distance, has no replaced edge). Non-negative weights only (with
    negative ones d(p) may exceed d(v) and that argument fails). SciPy's Johnson runs
    Dijkstra (the same rule); its Bellman–Ford keeps the last strict improvement in its edge
    order, which is this rule where the path of fewest edges also passes the nearest
    predecessor (SciPy's test_predecessors: every method, one tree), not always."""
    xp = A.xp
    r, c, w = A.to_coo()
    n, k = A.nrows, dist.shape[0]
    if not r.size or not k:
        return pred
    out = pred.copy()
    step = max(1, SETTLED_FIRST_CHUNK // r.size)
    src = xp.asarray(np.asarray(sources, dtype=np.int64))
    for lo in range(0, k, step):
        d = dist[lo:lo + step]
        dr = d[:, r]
        # the tight edges p → v of each source's search (its source keeps no predecessor)
        tight = (dr + w[None, :] == d[:, c]) & xp.isfinite(dr)
        tight &= c[None, :] != src[lo:lo + step, None]
        row, e = xp.nonzero(tight)
        if not row.size:
            continue
        key = row * n + c[e]  # (source, v)
        # per (source, v): the least d(p), then the least p
        order = xp.lexsort(xp.stack([r[e], dr[row, e], key]))
        key, row, e = key[order], row[order], e[order]
        first = xp.ones(key.size, dtype=bool)
        first[1:] = key[1:] != key[:-1]
        row, e = row[first], e[first]
        v, p = c[e], r[e]
        mine = out[lo + row, v]
        d_mine = xp.where(mine >= 0, d[row, xp.maximum(mine, 0)], xp.inf)
        better = d[row, p] < d_mine
        out[lo + row[better], v[better]] = p[better]
    return out


def _potentials(A: sr.Matrix, op: str):
    """Johnson's potentials h: one Bellman–Ford from a virtual vertex joined to every vertex by
    a zero-weight edge; a negative cycle anywhere raises (as SciPy's johnson does)."""
    xp = A.xp
    n = A.nrows
    r, c, w = A.to_coo()
    virt = xp.full(n, n, dtype=xp.int64)
    V = sr.Matrix.from_coo(xp.concatenate([r, virt]), xp.concatenate([c, xp.arange(n)]),
                           xp.concatenate([w, xp.zeros(n)]), nrows=n + 1, ncols=n + 1,
                           device=A.device)
    try:
        return _sssp_native(V, n, "bellman_ford")[:n].astype(xp.float64)
    except sr.NegativeCycleError as e:
        vert = getattr(e, "vertices", None)
        if vert is not None:  # never the virtual vertex n
            vert = np.asarray(sr.to_device(vert, "cpu"))
            vert = vert[vert < n]
        raise NegativeCycleError(f"{op}: the graph has a negative cycle"
                                 + (f" through vertex {int(vert[0])}" if vert is not None
                                    and len(vert) else ""), vertices=vert) from e


def _johnson_engine(A, op, idx, shape, return_predecessors, has_neg, method):
    """Johnson's reweighting (J, and FW's negative-cycle rule) on the engine: w + h(u) − h(v)
    ≥ 0, then every source at once; d(s, v) = d'(s, v) − h(s) + h(v)."""
    xp = A.xp
    if method == "FW":
        # SciPy's Floyd–Warshall ignores self-loops, negative ones included
        r, c, v = A.to_coo()
        off = r != c
        if not bool(off.all()):
            A = sr.Matrix.from_coo(r[off], c[off], v[off], nrows=A.nrows, ncols=A.ncols,
                                   device=A.device)
            has_neg = bool(A.nvals) and float(A.values.min()) < 0
    if not has_neg:
        # every vertex in order (indices=None or its spelling out) is one all-pairs product;
        # repeated or reordered sources (indices=[0, 0]) are rows of their own
        # (only where the sums are exact: a min-plus product adds path segments in another
        # order than Dijkstra's one edge at a time, which can differ in the last bit)
        if method == "FW" or (shape == (A.nrows,) and np.array_equal(idx, np.arange(A.nrows))
                              and _exact_sums(A.values, A.nrows, xp)):
            return _all_pairs(A, op, return_predecessors, shape, settled_first=method == "J")
        dist, pred = _batched(A, idx, op, "delta_stepping")
        if return_predecessors:
            pred = _settled_first(A, idx, dist, pred)
        return _finish(dist, pred, shape, return_predecessors, xp)
    h = _potentials(A, op)
    if method == "FW":
        return _all_pairs(A, op, return_predecessors, shape)
    r, c, w = A.to_coo()
    # w'(u, v) = w + h(u) − h(v) ≥ 0 (rounding may leave a tiny negative: clip)
    R = sr.Matrix.from_csr(A.indptr, A.indices, xp.maximum(w + h[r] - h[c], 0.0), A.shape,
                           check=False)
    dist, pred = _batched(R, idx, op, "delta_stepping")
    hs = h[xp.asarray(idx)]
    # d(s, v) = (d'(s, v) + h(v)) − h(s): SciPy's order of the two corrections
    dist = (dist + h[None, :]) - hs[:, None]
    return _finish(dist, pred, shape, return_predecessors, xp)


def _fw_graph(csgraph, op: str, directed: bool) -> sr.Matrix:
    """The graph SciPy's Floyd–Warshall reads: its dense conversion, where a dense or masked
    input's zeros are no edges (a masked array's unmasked zero too, unlike every other method,
    which reads it as an edge of length 0), a sparse input's explicit zeros are edges, a stored
    inf is no edge, and parallel edges of a sparse input keep the smallest whatever the dtype
    (SciPy's dense conversion casts without summing them)."""
    if isinstance(csgraph, np.ma.MaskedArray):
        a = np.ma.getdata(csgraph)
        _v._check_square(op, "csgraph", a.shape, True)
        vals = _v.to_float64(a, op)
        # a -inf entry stays, for _fw_engine to refuse as it refuses a sparse input's (it
        # used to drop it silently: inf where SciPy answers -inf)
        rows, cols = np.nonzero(~np.ma.getmaskarray(csgraph) & (vals != 0) & (vals != np.inf))
        # host input stays on the host (without device= the default device, the GPU where
        # one answers, took it: CuPy results for a masked array on an H200 host)
        return sr.Matrix.from_coo(rows, cols, vals[rows, cols], nrows=a.shape[0],
                                  ncols=a.shape[1], device="cpu")
    if _v._is_scipy_sparse(csgraph) or _v._is_cupyx_sparse(csgraph):
        # SciPy's csgraph_to_dense keeps the smallest stored weight, never a NaN one
        S = _v._csc_undirected(csgraph, directed)
        _v._check_square(op, "csgraph", S.shape, True)
        C = _v.scipy_view(S, op, cast_sums=False)
        # the entries read from C's arrays, not by C.tocoo(): C may be the caller's matrix,
        # and tocoo() reads its has_canonical_format, which SciPy caches on the object
        xp = sr.array_module("gpu") if _v._is_cupyx_sparse(S) else np
        nnz = int(C.indptr[-1])
        rows = row_of_entries(xp, C.indptr, nnz)
        vals = _v.to_float64(C.data[:nnz], op)
        keep = ~(vals != vals)  # NaN
        return sr.Matrix.from_coo(rows[keep], C.indices[:nnz][keep], vals[keep],
                                  nrows=S.shape[0], ncols=S.shape[1], dup_op=sr.binary.min,
                                  device="gpu" if _v._is_cupyx_sparse(S) else "cpu")
    return _v.as_graph(csgraph, op, dup="min", directed=directed, cast_sums=False)


#: Integer weights below this bound (|w| · N) add up exactly in float64, in any order: then
#: any all-pairs method gives SciPy's Floyd–Warshall distances to the last bit and the fastest
#: (:func:`algorithms.apsp`) runs. Other weights run Floyd–Warshall's own k order
#: (:func:`_fw_rank1`), since a blocked or squaring schedule sums path segments in another
#: order and may differ from SciPy in the last bit.
EXACT_SUM_BOUND = 2.0**52


def _exact_sums(w, n: int, xp) -> bool:
    """Whether every path length over weights ``w`` (n vertices) is an exact float64 sum in
    any order: integer weights with n · max |w| below :data:`EXACT_SUM_BOUND`."""
    if not w.size:
        return True
    return bool(xp.all(w == xp.floor(w))) and float(xp.abs(w).max()) * max(n, 1) < \
        EXACT_SUM_BOUND


def _fw_rank1(D, return_predecessors: bool, xp):
    """SciPy's Floyd–Warshall on a dense float64 D (diagonal 0, inf for no edge), in its k
    order: N rank-1 updates, each the same additions SciPy makes (bit-identical distances and
    predecessors)."""
    n = D.shape[0]
    ar = xp.arange(n)
    P = None
    if return_predecessors:
        P = xp.where(xp.isinf(D), NULL_IDX, ar[:, None]).astype(xp.int32)
        P[ar, ar] = NULL_IDX
    for k in range(n):
        # D ← D min (D(:, k) + D(k, :)): one min-plus rank-1 update, pivot k, in place (cand
        # is made before D changes, as SciPy's row k and column k stay put without a negative
        # cycle)
        cand = D[:, k:k + 1] + D[k:k + 1, :]
        better = cand < D
        xp.copyto(D, cand, where=better)
        if P is not None:
            xp.copyto(P, P[k:k + 1, :].copy(), where=better)
    return D, P


def _fw_engine(csgraph, op, directed, return_predecessors, unweighted):
    """``floyd_warshall`` on the engine: the graph as SciPy's FW reads it (:func:`_fw_graph`),
    self-loops ignored (SciPy zeroes the diagonal), ``unweighted`` every finite weight 1; a
    negative cycle anywhere raises."""
    A0 = _fw_graph(csgraph, op, directed)
    xp = A0.xp
    n = A0.nrows
    r, c, w = A0.to_coo()
    # (whatever ``unweighted``: SciPy's Floyd–Warshall keeps every infinite entry as it is)
    _refuse_minus_infinity(op, r, c, w, False)
    if unweighted:
        w = xp.where(xp.isinf(w), w, 1.0)
    keep = (r != c) & ~xp.isinf(w)
    r, c, w = r[keep], c[keep], w[keep]
    _check_memory(op, n * n * (12 if return_predecessors else 8), A0.device)
    # exact sums make any all-pairs method's distances SciPy's, but not its predecessors:
    # where paths tie, SciPy's are those of its k order (the last strict improvement), which
    # only that order gives
    if not return_predecessors and _exact_sums(w, n, xp):
        A = _prepared(sr.Matrix.from_coo(r, c, w, nrows=n, ncols=n, dup_op=sr.binary.min,
                                         device=A0.device), directed, False)
        has_neg = bool(A.nvals) and float(A.values.min()) < 0
        return _johnson_engine(A, op, None, (n,), return_predecessors, has_neg, "FW")
    D = xp.full((n, n), xp.inf)
    D[r, c] = w
    ar = xp.arange(n)
    if not directed:
        # both directions take D(j, i) where D(j, i) <= D(i, j), else D(i, j), for i < j
        # (SciPy's rule: with a NaN weight it differs from the minimum)
        pick = xp.where(D.T <= D, D.T, D)
        D = xp.where(ar[None, :] > ar[:, None], pick, pick.T)
    D[ar, ar] = 0.0
    D, P = _fw_rank1(D, return_predecessors, xp)
    neg = xp.flatnonzero(xp.diagonal(D) < 0)
    if neg.size:
        raise NegativeCycleError(f"{op}: negative cycle in nodes "
                                 f"{np.asarray(sr.to_device(neg, 'cpu')).tolist()}",
                                 vertices=neg)
    return (D, P) if return_predecessors else D


def _all_pairs(A, op, return_predecessors, shape, settled_first=False):
    """All pairs by :func:`algorithms.apsp` (its method chosen by density and device);
    ``settled_first``: predecessors as Dijkstra's (:func:`_settled_first`; non-negative A)."""
    n = A.nrows
    _check_memory(op, n * n * (12 if return_predecessors else 8), A.device)
    try:
        # (SciPy reads return_predecessors' truth value; the engine's apsp takes a bool)
        res = _apsp_native(A, predecessors=bool(return_predecessors))
    except sr.NegativeCycleError as e:
        _raise_cycle(op, e)
    xp = A.xp
    if return_predecessors:
        dist, pred = res
    else:
        dist, pred = res, xp.full((n, n), -1, dtype=xp.int64)
    dist = dist.astype(xp.float64)  # (one n × n cast, shared by the two steps below)
    if return_predecessors and settled_first:
        pred = _settled_first(A, np.arange(n), dist, pred)
    return _finish(dist, pred, shape, return_predecessors, xp)


def _min_only_engine(A, op, idx, return_predecessors, limit):
    """``min_only``: one SSSP from a virtual vertex s* joined to every source by a zero-weight
    edge; the source of each vertex is the root of its tree (pointer doubling)."""
    xp = A.xp
    n = A.nrows
    _check_memory(op, n * 24, A.device)
    if idx.size == 0:
        dist = xp.full(n, xp.inf)
        none = xp.full(n, NULL_IDX, dtype=xp.int32)
        return (dist, none, none.copy()) if return_predecessors else dist
    r, c, w = A.to_coo()
    src = xp.asarray(idx)
    # A* = [A 0; e_S 0]: s* → s with weight 0 for every source s
    V = sr.Matrix.from_coo(xp.concatenate([r, xp.full(src.size, n, dtype=xp.int64)]),
                           xp.concatenate([c, src]), xp.concatenate([w, xp.zeros(src.size)]),
                           nrows=n + 1, ncols=n + 1, dup_op=sr.binary.min, device=A.device)
    dist, pred = _batched(V, np.array([n]), op, "delta_stepping", limit)
    dist, pred = dist[0, :n], pred[0, :n]
    if limit is not None:
        far = dist > limit
        dist = xp.where(far, xp.inf, dist)
        pred = xp.where(far, -1, pred)
    reached = xp.isfinite(dist)
    # root(v): follow pred until s*; sources point at themselves
    up = xp.where(pred == n, xp.arange(n), pred)
    up = xp.where(reached & (up >= 0), up, xp.arange(n))
    for _ in range(max(1, int(np.ceil(np.log2(max(n, 2)))) + 1)):
        nxt = up[up]
        if bool((nxt == up).all()):
            break
        up = nxt
    sources = xp.where(reached, up, NULL_IDX).astype(xp.int32)
    pred = xp.where((pred == n) | (pred < 0) | ~reached, NULL_IDX, pred).astype(xp.int32)
    return (dist, pred, sources) if return_predecessors else dist


# ------------------------------------------------------------------------------ public names


@_v.on_host_when_small
def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
             limit=np.inf, min_only=False):
    """Shortest paths by Dijkstra's algorithm, as ``scipy.sparse.csgraph.dijkstra``: same
    signature, float64 distances (``inf`` unreached), int32 predecessors (-9999).

    Host input runs SciPy's own ``dijkstra``: a ``scipy.sparse`` CSR with int32 indices and one
    ``int`` source (or none) goes to it as it is, after a check for negative weights (SciPy's
    cost plus a few µs); other inputs after conversion. Where Numba is installed, a plain call
    (distances only, weights >= 0; directed or not, any ``limit``, ``min_only`` or not) runs
    the CPU backend's compiled Dijkstra a source at a time (``min_only``: all at once)
    instead, on the CSR SciPy would read, where SciPy reads it as it is (float64, or rows
    sorted without duplicates; any CSR with ``unweighted``): SciPy's distances bit for bit,
    in about half its time (:data:`HOST_COMPILED_DIJKSTRA`). GPU input runs
    :func:`algorithms.delta_stepping` for one source and :func:`algorithms.multi_source_sssp`
    (every source in one min-plus SpMM a round; past ``algorithms.sssp.BATCH_ROUNDS`` rounds,
    as on a grid or a road network, one Δ-stepping a source) for several; ``min_only`` runs
    one SSSP from a virtual vertex joined to every source. Small GPU input (stored entries ×
    sources at most ``_validation.HOST_MAX_WORK['dijkstra']`` = 2¹⁷ for one source,
    ``HOST_MAX_WORK_BATCH``'s 2¹⁹ for several, half those with predecessors) runs the host
    path on a host copy instead, answered on the GPU: there it beats the engine's fixed cost
    (H200 host, 8N entries, one source: N = 10⁴ route 1.4 ms, engine 3.2 ms; N = 3·10⁴
    route 5.0 ms, engine 3.2 ms). A long, thin GPU graph (a path, a
    ladder: the first ``_thin.SSSP_PROBE_LEVELS`` = 256 BFS levels from the first source,
    one launch, reach fewer than ``_thin.SSSP_THIN_FRONTIER`` = 64 vertices a level) runs
    SciPy on a host copy too: the device loop pays a grid barrier a round (a path of 10⁵
    vertices: 3 s on an H200), SciPy's search is O((N + nnz) log N). 2-D grids and road
    networks stay on the GPU.

    Deviations from SciPy: negative weights raise :class:`semiring.InvalidValue` (SciPy warns
    and may answer wrongly); an undirected negative edge raises :class:`NegativeCycleError`
    (SciPy hangs); ``indices`` out of range raise :class:`semiring.InvalidIndex`.

    Parameters
    ----------
    csgraph : sparse matrix or array, dense or masked array, list, CuPy array, semiring.Matrix
    directed : bool
    indices : int or array_like of int, optional
        The sources (negative ones count from the end); all vertices by default.
    return_predecessors, unweighted : bool
    limit : float
        Distances above ``limit`` are reported as ``inf``.
    min_only : bool
        The distance from the nearest source; with ``return_predecessors`` also the source.

    Returns
    -------
    dist : ndarray, float64, shape ``np.shape(indices) + (N,)`` (``(N,)`` when ``min_only``)
    predecessors : ndarray, int32 (with ``return_predecessors``)
    sources : ndarray, int32 (with ``return_predecessors`` and ``min_only``)

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1.0, 4.0], [0, 0, 2.0], [0, 0, 0]]))
    >>> dist, pred = csgraph.dijkstra(G, indices=0, return_predecessors=True)
    >>> dist.tolist(), pred.tolist()
    ([0.0, 1.0, 3.0], [-9999, 0, 1])
    """
    op = "dijkstra"
    _v.masked_warnings(csgraph)  # SciPy's validate_graph comes first
    # SciPy reads limit last (after the graph, its negative-weight warning and indices): a bad
    # one is raised there, so that of two bad arguments the same one is named
    try:
        limit, bad_limit = _limit(op, limit), None
    except sr.SemiringError as e:
        bad_limit = e
    S = _fast(csgraph, indices, not unweighted) if bad_limit is None else None
    if S is not None:  # the common case, at SciPy's cost or less
        d = (_compiled_fast(S, indices, unweighted, limit, directed, min_only)
             if _plain(return_predecessors) else None)
        if d is not None:
            return d
        return scg.dijkstra(S, directed, indices, return_predecessors, unweighted, limit,
                            min_only)
    if _engine(csgraph):
        return _engine_paths(csgraph, op, "D", directed, indices, return_predecessors,
                             unweighted, None if bad_limit is not None or limit == np.inf
                             else limit, min_only, bad_limit=bad_limit)
    S, rows = _host_graph(csgraph, op, directed)
    n = S.shape[0]
    if n > SCIPY_MAX_N and bad_limit is None:  # pragma: no cover - a > 2**31-vertex graph
        return _engine_paths(S, op, "D", directed, indices, return_predecessors, unweighted,
                             None if limit == np.inf else limit, min_only)
    idx, shape = _indices_after_warning(indices, n, op, "D", S.data, unweighted)
    _check_negative(op, "D", rows, S.indices, S.data, directed, unweighted)
    if bad_limit is not None:
        if unweighted and _negative_edge(S.data) is not None:  # SciPy warns, then refuses
            warnings.warn(SCIPY_NEGATIVE_WARNING, UserWarning, stacklevel=2)
        raise bad_limit
    _v.check_output_bytes(op, (1 if min_only else idx.size) * n * 12, "cpu")
    d = (_compiled_dijkstra(S, idx, shape, unweighted, limit, directed, min_only)
         if _plain(return_predecessors) else None)
    if d is not None:
        return d
    return _scipy(op, "dijkstra", S, directed=directed,
                  indices=None if indices is None else _scipy_indices(idx, shape),
                  return_predecessors=return_predecessors, unweighted=unweighted,
                  limit=limit, min_only=min_only)


#: Host input's ``bellman_ford`` and ``johnson`` asking for distances only, on a graph without
#: a negative or NaN weight (the same CSR rule as :data:`HOST_COMPILED_DIJKSTRA`'s), run the
#: compiled Dijkstra: with weights >= 0 both solve the same least fixpoint d(v) = min over
#: in-edges of fl(d(u) + w), which any of the three reaches bit for bit (rounding is
#: monotone; Johnson's potentials are all 0.0 there). SciPy's Bellman–Ford makes up to N
#: passes over the edges. Checked on 3000 random graphs (uniform and 40-decade weights,
#: duplicates, inf, directed or not) before it was written, and by
#: ``tests/test_csgraph_compiled_dijkstra.py``.
HOST_COMPILED_SOURCES_PATHS = True


def _sources_paths(csgraph, op, method, directed, indices, return_predecessors, unweighted):
    """``bellman_ford`` and ``johnson``: the engine for GPU input, else SciPy's routine of the
    same name on the validated host graph (or the compiled Dijkstra's distances,
    :data:`HOST_COMPILED_SOURCES_PATHS`)."""
    _v.masked_warnings(csgraph)  # SciPy's validate_graph comes first
    plain = HOST_COMPILED_SOURCES_PATHS and _plain(return_predecessors)
    S = _fast(csgraph, indices, False)
    if S is not None:  # the common case, at SciPy's cost or less
        d = _compiled_fast(S, indices, unweighted, directed=directed) if plain else None
        if d is not None:
            return d
        return _scipy(op, op, S, directed=directed, indices=indices,
                      return_predecessors=return_predecessors, unweighted=unweighted)
    if _engine(csgraph):
        return _engine_paths(csgraph, op, method, directed, indices, return_predecessors,
                             unweighted)
    S, _rows = _host_graph(csgraph, op, directed)
    idx, shape = _indices_after_warning(indices, S.shape[0], op, method, S.data, unweighted)
    _v.check_output_bytes(op, idx.size * S.shape[0] * 12, "cpu")
    d = _compiled_dijkstra(S, idx, shape, unweighted, directed=directed) if plain else None
    if d is not None:
        return d
    return _scipy(op, op, S, directed=directed,
                  indices=None if indices is None else _scipy_indices(idx, shape),
                  return_predecessors=return_predecessors, unweighted=unweighted)


@_v.on_host_when_small
def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False,
                 unweighted=False):
    """Shortest paths with negative weights, as ``scipy.sparse.csgraph.bellman_ford``: a
    negative cycle reachable from one of the sources raises :class:`NegativeCycleError` (an
    undirected negative edge is one).

    Host input runs SciPy's own ``bellman_ford`` on the validated graph, except distances
    only on weights >= 0 with Numba installed: the compiled Dijkstra's, bit for bit (the same
    least fixpoint; :data:`HOST_COMPILED_SOURCES_PATHS`). GPU input runs
    :func:`algorithms.multi_source_sssp` (every source at once, one min-plus SpMM a round),
    except below ``_validation.HOST_MAX_WORK['bellman_ford']`` = 2¹¹ stored entries × sources,
    where SciPy on a host copy is faster (SciPy's is O(N · nnz): N = 1000, 8000 entries, H100
    host: SciPy 23.7 ms, the engine 2.3 ms), within :func:`dijkstra`'s bounds for distances
    on weights >= 0 (``_validation.HOST_NONNEG_BOUNDS_OF``: the host copy's compiled Dijkstra,
    H200 host, N = 10⁴: 1.5 ms against the engine's 3.0), and for long, thin graphs (the
    probe of :func:`dijkstra`: one round a hop on the GPU, where SciPy's passes over the edges
    stop when nothing changes).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 2.0, 0], [0, 0, -1.0], [0, 0, 0]]))
    >>> csgraph.bellman_ford(G, indices=0).tolist()
    [0.0, 2.0, 1.0]
    """
    return _sources_paths(csgraph, "bellman_ford", "BF", directed, indices, return_predecessors,
                          unweighted)


@_v.on_host_when_small
def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False):
    """Shortest paths by Johnson's reweighting, as ``scipy.sparse.csgraph.johnson``: a negative
    cycle anywhere in the graph raises :class:`NegativeCycleError`, as in SciPy.

    Host input runs SciPy's own ``johnson``, except distances only on weights >= 0 with Numba
    installed: the compiled Dijkstra's, bit for bit (Johnson's potentials are 0 there;
    :data:`HOST_COMPILED_SOURCES_PATHS`). GPU input: one Bellman–Ford from a virtual vertex
    joined to every vertex gives potentials h; the weights w + h(u) − h(v) are non-negative and
    every source runs at once (:func:`algorithms.multi_source_sssp`); below
    ``_validation.HOST_MAX_WORK['johnson']`` = 2¹¹ stored entries × sources SciPy runs on a
    host copy (its Bellman–Ford is O(N · nnz): N = 1000, H100 host, 33 ms against 3.7 ms), as
    it does for long, thin graphs (the probe of :func:`dijkstra`); distances on weights >= 0
    take :func:`dijkstra`'s bounds (``_validation.HOST_NONNEG_BOUNDS_OF``).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 2.0, 0], [0, 0, -1.0], [0, 0, 0]]))
    >>> csgraph.johnson(G, indices=0).tolist()
    [0.0, 2.0, 1.0]
    """
    return _sources_paths(csgraph, "johnson", "J", directed, indices, return_predecessors,
                          unweighted)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False):
    """All-pairs shortest paths, as ``scipy.sparse.csgraph.floyd_warshall``: the (N, N)
    float64 distances and, with ``return_predecessors``, int32 predecessors (-9999 on the
    diagonal and where unreachable). Self-loops are ignored, negative ones included; a negative
    cycle anywhere raises :class:`NegativeCycleError`. ``overwrite`` is accepted and has no
    effect: the caller's input is never modified.

    Host input runs SciPy's own ``floyd_warshall``. GPU input reads the graph as SciPy's does
    (its dense conversion: a masked array's unmasked zeros are no edges, parallel edges keep
    the smallest whatever the dtype) and, with integer weights (whose float64 sums are exact in
    any order, :data:`EXACT_SUM_BOUND`), runs :func:`algorithms.apsp` (blocked Floyd–Warshall
    or min-plus squaring on the GPU) after a Bellman–Ford from a virtual vertex where there are
    negative weights (to raise on a negative cycle as SciPy does); other weights run SciPy's
    own k order as N rank-1 min-plus updates on the GPU (:func:`_fw_rank1`: N launches of N²
    work), since any other order of the additions can differ from SciPy in the last bit.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1.0, 4.0], [0, 0, 2.0], [1.0, 0, 0]]))
    >>> dist, pred = csgraph.floyd_warshall(G, return_predecessors=True)
    >>> dist.tolist()
    [[0.0, 1.0, 3.0], [3.0, 0.0, 2.0], [1.0, 2.0, 0.0]]
    >>> pred.tolist()
    [[-9999, 0, 1], [2, -9999, 1], [2, 0, -9999]]
    """
    op = "floyd_warshall"
    S = _fast(csgraph, None, False)
    if S is not None:  # the common case, at SciPy's cost (SciPy densifies: a fresh array)
        return _scipy(op, "floyd_warshall", S, directed=directed,
                      return_predecessors=return_predecessors, unweighted=unweighted,
                      overwrite=False)
    directed = _v.int_flag(directed, op, "directed")  # SciPy's int(directed)
    if _engine(csgraph):
        return _engine_paths(csgraph, op, "FW", directed, None, return_predecessors,
                             unweighted)
    S, _rows = _host_graph(csgraph, op, directed)
    _v.check_output_bytes(op, S.shape[0] ** 2 * 12, "cpu")
    return _scipy(op, "floyd_warshall", _fw_input(csgraph, S, op, directed), directed=directed,
                  return_predecessors=return_predecessors, unweighted=unweighted, overwrite=True)


def _fw_input(csgraph, S, op: str, directed: bool):
    """What SciPy's Floyd–Warshall reads: the validated CSR ``S``, except

    - for a masked array, which SciPy's ``floyd_warshall`` reads densely, an unmasked zero as
      no edge (its other methods read every unmasked entry as an edge, zeros included): a
      float64 copy of the masked array then, so that SciPy reads it exactly so
      (``unweighted=True`` shows the difference: an unmasked zero is no edge, not an edge of
      length 1);
    - for a sparse input, which SciPy densifies without its CSR cast (``csgraph_to_dense``):
      the input's CSR with a plain cast of its data, so that a non-float64 CSR's duplicates
      stay parallel edges (the smallest wins) instead of being summed by the cast ``S`` had.
    """
    if isinstance(csgraph, np.ma.MaskedArray):
        return np.ma.array(csgraph, dtype=np.float64, copy=True)
    if _v._is_scipy_sparse(csgraph):
        return _v.as_scipy_csr(csgraph, op, directed=directed, borrow=True, cast_sums=False)
    return S


def _auto_method(csgraph, indices) -> str:
    """SciPy's choice for ``method='auto'``, read from the input as SciPy reads it (before
    any conversion): Dijkstra, or Johnson where a stored weight is negative, when there are
    sources or fewer than N²/4 edges, else Floyd–Warshall. The count and the sign are those of
    the input's own entries (a CSR's duplicates each count; a COO's too, though the conversion
    sums them; a dense array's finite non-zero entries; a masked array's unmasked ones): the
    methods differ in what they read (Floyd–Warshall drops a masked array's zeros, a stored
    inf that ``unweighted`` makes length 1 for the others, and keeps parallel edges a cast
    sums), so only SciPy's choice gives SciPy's answers."""
    if isinstance(csgraph, sr.Matrix):
        n, count = csgraph.nrows, int(csgraph.nvals)
        edges = csgraph.values if not csgraph.is_iso else np.asarray([csgraph.iso_value])
    elif _v._is_scipy_sparse(csgraph) or _v._is_cupyx_sparse(csgraph):
        n, count = csgraph.shape[0], int(csgraph.nnz)
        edges = csgraph.data if csgraph.format in ("csr", "csc", "coo") else csgraph.tocoo().data
    elif isinstance(csgraph, np.ma.MaskedArray):
        n, count = csgraph.shape[0], int(csgraph.count())
        edges = csgraph.compressed()
    else:
        try:
            a = csgraph if sr.is_gpu_array(csgraph) else np.asarray(csgraph)
        except Exception:  # noqa: BLE001  (not a graph: the method's validation says why)
            return "D"
        if a.ndim != 2 or a.dtype.kind not in "biuf":
            return "D"
        xp = sr.array_module("gpu") if sr.is_gpu_array(a) else np
        n = a.shape[0]
        edges = a[xp.isfinite(a)] if a.dtype.kind in "fc" else a.ravel()
        edges = edges[edges != 0]
        count = int(edges.size)
    negative = bool(edges.size) and np.dtype(edges.dtype).kind in "if" and bool((edges < 0).any())
    if indices is not None or count < n * n / 4:
        return "J" if negative else "D"
    return "FW"


@_v.on_host_when_small
def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None):
    """Shortest paths, as ``scipy.sparse.csgraph.shortest_path``.

    ``method``: ``'auto'`` (SciPy's rule: ``'D'`` or, with negative weights, ``'J'`` when
    ``indices`` is given or the graph is sparse, else ``'FW'``), ``'FW'``, ``'D'``, ``'BF'`` or
    ``'J'``; each method raises :class:`NegativeCycleError` exactly where SciPy's does (``'BF'``:
    a cycle reachable from a source; ``'J'``, ``'FW'``, ``'auto'``: a cycle anywhere), and
    ``'D'`` as :func:`dijkstra`. Like SciPy, ``indices`` is refused with ``'FW'``.
    ``overwrite`` has no effect (the input is never modified).

    Paths: host input runs SciPy's ``shortest_path`` (a ``scipy.sparse`` CSR as it is, see
    :func:`dijkstra`); GPU input the engine's method, or SciPy on a host copy within
    ``_validation.HOST_MAX_WORK['shortest_path']`` or on a long, thin graph (the bounds,
    probe and reasons of :func:`dijkstra`).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from algorithms import csgraph
    >>> G = sp.csr_matrix(np.array([[0, 1.0], [3.0, 0]]))
    >>> csgraph.shortest_path(G).tolist()
    [[0.0, 1.0], [3.0, 0.0]]
    """
    op = "shortest_path"
    if method not in ("auto", "FW", "D", "BF", "J"):
        raise sr.InvalidValue(f"{op}: method must be one of 'auto', 'FW', 'D', 'BF', 'J', "
                              f"got {method!r}")
    if method == "FW" and indices is not None:
        raise sr.InvalidValue(f"{op}: indices is not supported with method='FW' (as in SciPy)")
    kw = dict(directed=directed, return_predecessors=return_predecessors, unweighted=unweighted)
    S = _fast(csgraph, indices, method == "D" and not unweighted)
    if S is not None:  # the common case, at SciPy's cost or less ('auto' as SciPy chooses it)
        # SciPy's 'auto' takes Dijkstra with a source, or without one on fewer than N²/4
        # entries, where no weight is negative, which _compiled_dijkstra checks (else
        # Floyd–Warshall, whose sums are associated otherwise: SciPy's); 'BF' and 'J' give
        # Dijkstra's distances on such graphs (HOST_COMPILED_SOURCES_PATHS)
        d = None
        if _plain(return_predecessors) and (
                method == "D" or (method in ("BF", "J") and HOST_COMPILED_SOURCES_PATHS)
                or (method == "auto" and (indices is not None
                                          or _auto_method(S, None) == "D"))):
            d = _compiled_fast(S, indices, unweighted, directed=directed)
        if d is not None:
            return d
        return _scipy(op, "shortest_path", S, method=method, indices=indices, overwrite=False,
                      **kw)
    if method == "auto":
        method = _auto_method(csgraph, indices)
    if method != "FW" and isinstance(csgraph, np.ma.MaskedArray):
        # SciPy's own validation reads a masked array densely (silently); its dijkstra,
        # bellman_ford and johnson then read it as a CSR, with that reading's warnings
        _v._check_square(op, "csgraph", csgraph.shape, True)
        _v.masked_warnings(csgraph)
    if method == "FW":
        kw["directed"] = directed = _v.int_flag(directed, op, "directed")  # SciPy's int()
    if _engine(csgraph):
        return _engine_paths(csgraph, op, method, directed, indices, return_predecessors,
                             unweighted)
    S, rows = _host_graph(csgraph, op, directed)
    idx, shape = _indices_after_warning(indices, S.shape[0], op, method, S.data, unweighted)
    _check_negative(op, method, rows, S.indices, S.data, directed, unweighted)
    _v.check_output_bytes(op, idx.size * S.shape[0] * 12, "cpu")
    if _plain(return_predecessors) and (
            method == "D" or (method in ("BF", "J") and HOST_COMPILED_SOURCES_PATHS)):
        d = _compiled_dijkstra(S, idx, shape, unweighted, directed=directed)
        if d is not None:
            return d
    ind = None if indices is None else _scipy_indices(idx, shape)
    if method == "FW":
        S = _fw_input(csgraph, S, op, directed)
    return _scipy(op, "shortest_path", S, method=method, indices=ind, overwrite=True, **kw)


# ------------------------------------------------------------------------------ yen


def _spur_search(A: sr.Matrix, r, c, w, keep, spur: int, sink: int):
    """The shortest spur → sink path over the kept edges: (length, vertices) or None.
    Host graphs run SciPy's Dijkstra, GPU graphs :func:`algorithms.delta_stepping`."""
    n = A.nrows
    if A.device == "cpu":
        S = sps.csr_array((np.where(keep, w, np.inf), A.indices, A.indptr), shape=A.shape)
        d, p = _scg().dijkstra(S, indices=spur, return_predecessors=True)
        if not np.isfinite(d[sink]):
            return None
        length, path, v = float(d[sink]), [sink], sink
        while v != spur:
            v = int(p[v])
            path.append(v)
        return length, path[::-1]
    M = sr.Matrix.from_coo(r[keep], c[keep], w[keep], nrows=n, ncols=n, device=A.device)
    d, p = _sssp_native(M, spur, "delta_stepping", predecessors=True)
    d, p = sr.to_device(d, "cpu"), sr.to_device(p, "cpu")
    if not np.isfinite(d[sink]):
        return None
    length, path, v = float(d[sink]), [sink], sink
    while v != spur:
        v = int(p[v])
        path.append(v)
    return length, path[::-1]


def _yen_paths(A: sr.Matrix, source: int, sink: int, K: int):
    """Yen (1971): the k-th shortest loopless path is a root of one of the first k − 1 paths
    followed by a spur path that avoids the root's vertices and the edges the earlier paths
    leave the root by. Each spur is one SSSP on the graph with those edges removed."""
    xp = A.xp
    r, c, w = A.to_coo()
    r_h, c_h = np.asarray(sr.to_device(r, "cpu")), np.asarray(sr.to_device(c, "cpu"))
    n = A.nrows
    if K == 0:
        return []
    if source == sink:
        return [(0.0, [source])]
    first = _spur_search(A, r, c, w, xp.ones(A.nvals, dtype=bool), source, sink)
    if first is None:
        return []
    found = [first]
    seen = {tuple(first[1])}
    # next_of[root] = the vertices the paths found so far take right after ``root`` (a
    # prefix of theirs): the edges a spur at the root's end must avoid, in one look-up (a
    # scan of every found path per spur made K paths cost O(K²): K = 10⁶ on the 9-clique's
    # 13700 paths ran for minutes, SciPy's takes a second)
    next_of = {}

    def record(path):
        for j in range(len(path) - 1):
            next_of.setdefault(tuple(path[:j + 1]), set()).add(path[j + 1])

    record(first[1])
    heap = []
    key = r_h.astype(np.int64) * max(n, 1) + c_h
    wh = np.asarray(sr.to_device(w, "cpu"))

    def weight(u, v):
        k = np.searchsorted(key, u * max(n, 1) + v)
        return float(wh[k])

    while len(found) < K:
        prev = found[-1][1]
        # the root's length as SciPy computes it (to the last bit): the previous path's length
        # minus its edges, walking back from the sink
        roots = [0.0] * len(prev)
        root = found[-1][0]
        for j in range(len(prev) - 1, 0, -1):
            root -= weight(prev[j - 1], prev[j])
            roots[j - 1] = root
        for i in range(len(prev) - 1):
            spur, root = prev[i], prev[:i + 1]
            gone_edges = {(spur, x) for x in next_of.get(tuple(root), ())}
            gone_vertices = np.zeros(n, dtype=bool)
            gone_vertices[root[:-1]] = True
            keep = ~(gone_vertices[r_h] | gone_vertices[c_h])
            for u, v in gone_edges:
                keep[np.searchsorted(key, u * max(n, 1) + v)] = False
            res = _spur_search(A, r, c, w, sr.to_device(keep, A.device), spur, sink)
            if res is None:
                continue
            path = root[:-1] + res[1]
            if tuple(path) in seen:
                continue
            seen.add(tuple(path))
            cost = res[0] + roots[i]
            heapq.heappush(heap, (cost, path))
        if not heap:
            break
        found.append(heapq.heappop(heap))
        record(found[-1][1])
    return found


def yen(csgraph, source, sink, K, *, directed=True, return_predecessors=False,
        unweighted=False):
    """The ``K`` shortest loopless paths from ``source`` to ``sink`` (Yen 1971), as
    ``scipy.sparse.csgraph.yen``: their lengths (float64, ascending, fewer than ``K`` where
    fewer paths exist) and, with ``return_predecessors``, a (len, N) int32 array of
    predecessors per path (-9999 off the path). Among paths of equal length the order (and
    which ones make the first ``K``) may differ from SciPy's.

    Yen's loop runs here in Python, each spur path one SSSP over the graph with the root's
    vertices and used edges removed: SciPy's compiled Dijkstra for host input, the engine's
    :func:`algorithms.delta_stepping` for GPU input (results copied back to the GPU), except
    on a long, thin GPU graph (the probe of :func:`dijkstra`), where every spur would run the
    device loop's barrier-bound rounds: the whole search then runs on a host copy.
    SciPy's own ``yen`` is not called: in SciPy 1.17.1 it corrupts the heap on ordinary
    inputs (``free(): invalid pointer``, the process aborts) and fails on graphs without
    edges. Negative weights: as SciPy, Johnson's reweighting (Bellman–Ford potentials from a
    virtual vertex; a negative cycle raises :class:`NegativeCycleError`), then Yen on the
    non-negative weights.

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> G = np.array([[0, 1.0, 4.0], [0, 0, 2.0], [0, 0, 0]])
    >>> csgraph.yen(G, 0, 2, 2).tolist()
    [3.0, 4.0]
    """
    op = "yen"
    _v.masked_warnings(csgraph)  # SciPy's validate_graph comes first
    A = _v.as_graph(csgraph, op, dup="min", directed=directed)
    n = A.nrows
    source = _v.normalize_vertex(source, n, op, "source")
    sink = _v.normalize_vertex(sink, n, op, "sink")
    K = _v.normalize_count(K, op, "K")
    _refuse_minus_infinity(op, *A.to_coo(), unweighted)
    A = _prepared(A, directed, unweighted)
    h = None
    if not unweighted and A.nvals and float(A.values.min()) < 0:
        # SciPy applies Johnson's reweighting: potentials h (a negative cycle anywhere raises
        # NegativeCycleError, an undirected negative edge being one), then Yen on
        # w + h(u) − h(v) ≥ 0, which shifts every source → sink path by h(source) − h(sink)
        # and so keeps their order; the lengths are shifted back at the end
        h = _potentials(A, op)
        xp = A.xp
        r, c, w = A.to_coo()
        A = sr.Matrix.from_csr(A.indptr, A.indices, xp.maximum(w + h[r] - h[c], 0.0), A.shape,
                               check=False)
        h = np.asarray(sr.to_device(h, "cpu"))
    if A.device == "gpu" and _thin.sssp_is_thin(A, source):
        # a long, thin graph: each spur search would run the device loop's barrier-bound
        # rounds; SciPy's Dijkstra on a host copy runs them instead (results on the GPU)
        return _v.host_route(yen, csgraph, (source, sink, K),
                             dict(directed=directed, return_predecessors=return_predecessors,
                                  unweighted=unweighted))
    paths = _yen_paths(A, source, sink, K)
    dist = np.array([p[0] for p in paths], dtype=np.float64)
    if h is not None:
        dist = (dist + h[sink]) - h[source]  # Johnson's correction, as for johnson()
    if not return_predecessors:
        return sr.to_device(dist, A.device) if A.device == "gpu" else dist
    pred = np.full((len(paths), n), NULL_IDX, dtype=np.int32)
    for row, (_, path) in enumerate(paths):
        pred[row, path[1:]] = path[:-1]
    if A.device == "gpu":
        return sr.to_device(dist, "gpu"), sr.to_device(pred, "gpu")
    return dist, pred


# ------------------------------------------------------------------------------ path tools


def _pred_array(predecessors, n_expected, op, xp, reconstruct=False):
    """``predecessors`` as int64: integers, and floats of integral values (others refused:
    SciPy would cast NaN or 1.5 to an index; bools too: SciPy before 1.18 misreads them).
    ``reconstruct`` (``reconstruct_path``): under SciPy 1.18 a dtype other than an integer
    one is refused with SciPy's ValueError (gh-23577)."""
    p = xp.asarray(predecessors)
    if reconstruct and _v.SCIPY_1_18 and p.dtype.kind not in "iu":
        raise sr.InvalidValue(f"{op}: `predecessors` must be of an integral dtype, got "
                              f"{p.dtype}")
    if p.dtype.kind not in "iu":
        if p.size == 0 or p.dtype.kind != "f" or not bool(xp.all(p == xp.floor(p))):
            if p.size:
                raise sr.DomainMismatch(f"{op}: predecessors must be integers, got {p.dtype}")
    return p.astype(xp.int64)


def _lookup(A: sr.Matrix, rows, cols, missing: float):
    """A[rows[t], cols[t]] as float64 (a canonical A: parallel edges already combined),
    ``missing`` where there is no entry."""
    xp = A.xp
    n = max(A.ncols, 1)
    r, c, v = A.to_coo()
    keys = r.astype(xp.int64) * n + c.astype(xp.int64)  # sorted: A is canonical
    want = rows.astype(xp.int64) * n + cols.astype(xp.int64)
    out = xp.full(want.size, missing, dtype=xp.float64)
    if keys.size and want.size:
        pos = xp.minimum(xp.searchsorted(keys, want), keys.size - 1)
        hit = keys[pos] == want
        out[hit] = v[pos[hit]]
    return out


def _tree_weight(A: sr.Matrix, parent, child, directed: bool, missing: float,
                 in_place: bool = False):
    """SciPy's weight of a tree edge parent → child: ``A[parent, child]`` (``missing`` where
    absent); for ``directed=False`` the smaller of the two directions, where SciPy reads a
    zero or missing weight as inf (``in_place``: by the rule of SciPy's in-place
    symmetrization, which differs from the minimum only where a weight is NaN)."""
    xp = A.xp
    w = _lookup(A, parent, child, missing)
    if directed:
        return w
    back = _lookup(A, child, parent, xp.inf)
    w[w == 0] = xp.inf
    back[back == 0] = xp.inf
    if not in_place:  # reconstruct_path: SciPy's np.minimum
        return xp.minimum(w, back)
    # construct_dist_matrix: SciPy symmetrizes each pair u < v in place, G[v, u] where
    # G[v, u] <= G[u, v], else G[u, v] (so a NaN, a masked array's unmasked one, beside the
    # other direction: the upper triangle's entry wins)
    upper = xp.where(parent < child, w, back)
    lower = xp.where(parent < child, back, w)
    return xp.where(lower <= upper, lower, upper)


def _rows_rise(xp, indptr, indices) -> bool:
    """Whether every row's column indices strictly rise (SciPy's C
    ``csr_has_canonical_format``, which reads the arrays, never the matrix's flag, and only
    the ``indptr[-1]`` entries the rows hold)."""
    nnz = int(indptr[-1])
    if nnz < 2:
        return True
    ok = xp.empty(nnz, dtype=bool)
    ok[0] = True
    xp.greater(indices[1:nnz], indices[:nnz - 1], out=ok[1:])
    starts = indptr[1:-1].astype(xp.int64)
    ok[starts[(starts > 0) & (starts < nnz)]] = True  # a row's first entry rises over nothing
    return bool(ok.all())


def _sampled_csr(csgraph, A: sr.Matrix, op: str, directed: bool):
    """(indptr, indices, float64 data, rows rise) of the CSR SciPy's ``reconstruct_path``
    indexes: for sparse input its ``validate_graph``'s (:func:`._validation.scipy_view`: the
    caller's float64 CSR as stored, another format through ``tocsr``, another dtype through
    its summing cast; an undirected CSC as its transpose), for every other input ``A``
    (canonical, as SciPy's ``csgraph_from_dense`` / ``csgraph_from_masked`` build theirs)."""
    if csgraph is not None and (_v._is_scipy_sparse(csgraph) or _v._is_cupyx_sparse(csgraph)):
        C = _v.scipy_view(_v._csc_undirected(csgraph, directed), op)
        xp = A.xp
        data = C.data.astype(xp.float64, copy=False)  # never written: the caller's own may be
        return C.indptr, C.indices, data, _rows_rise(xp, C.indptr, C.indices)
    data = A.values if not A.is_iso else A.xp.full(A.nvals, float(A.iso_value))
    return A.indptr, A.indices, data.astype(A.xp.float64, copy=False), True


def _csr_sample(xp, csr, rows, cols):
    """``S[rows, cols]`` of a CSR ``csr`` = (indptr, indices, float64 data, rows rise) by the
    rule of SciPy's ``csr_sample_values`` (what ``S[rows, cols]`` runs), bit for bit: where the
    rows rise and there are more samples than a tenth of the entries, each sample is the
    stored value (0.0 where none); otherwise each is a sum from 0.0 of the row's entries in its
    column, in stored order, so that parallel edges add in SciPy's order and a lone -0.0
    weight becomes +0.0 (0.0 + -0.0). The sums run one rank of the parallel edges at a time
    (as many rounds as the most parallel edges of one sampled pair, exact on every device)."""
    indptr, indices, data, rise = csr
    nnz = int(indptr[-1])
    ncols = int(indices.max()) + 1 if nnz else 1
    ncols = max(ncols, int(cols.max()) + 1 if cols.size else 1)
    want = rows.astype(xp.int64) * ncols + cols.astype(xp.int64)
    out = xp.zeros(want.size, dtype=xp.float64)
    if not (nnz and want.size):
        return out
    keys = row_of_entries(xp, indptr, nnz) * ncols + indices[:nnz].astype(xp.int64)
    vals = data[:nnz]
    if want.size > nnz // 10 and rise:  # keys sorted, each once: the stored value
        pos = xp.minimum(xp.searchsorted(keys, want), nnz - 1)
        hit = keys[pos] == want
        out[hit] = vals[pos[hit]]
        return out
    uniq, inv = xp.unique(want, return_inverse=True)
    pos = xp.minimum(xp.searchsorted(uniq, keys), uniq.size - 1)
    hit = uniq[pos] == keys
    group, vals = pos[hit], vals[hit]  # the matching entries, in stored order
    acc = xp.zeros(uniq.size, dtype=xp.float64)
    if group.size:
        # each group's entries in stored order (position as the tie-break: any sort will do),
        # rank r = the r-th of its group; round r adds every group's r-th entry
        order = xp.argsort(group * group.size + xp.arange(group.size, dtype=xp.int64))
        group, vals = group[order], vals[order]
        rank = xp.arange(group.size, dtype=xp.int64) - xp.searchsorted(group, group)
        for r in range(int(rank.max()) + 1):
            at = rank == r
            acc[group[at]] = acc[group[at]] + vals[at]
    return acc[inv.ravel()]


def _scipy_tree_weight(csr, xp, parent, child, directed: bool):
    """SciPy's ``reconstruct_path`` weight of each tree edge parent → child: ``S[parent,
    child]`` (:func:`_csr_sample`); for ``directed=False`` ``numpy.minimum`` of both
    directions, a zero (or missing) one read as inf."""
    w = _csr_sample(xp, csr, parent, child)
    if directed:
        return w
    back = _csr_sample(xp, csr, child, parent)
    w[w == 0] = xp.inf
    back[back == 0] = xp.inf
    return xp.minimum(w, back)


def reconstruct_path(csgraph, predecessors, directed=True):
    """The shortest-path tree a row of predecessors encodes, as
    ``scipy.sparse.csgraph.reconstruct_path``: an N × N CSR matrix with the edge
    ``predecessors[j] → j`` for each j that has one, weighted as SciPy weighs it, bit for bit:
    ``csgraph[p, j]`` as SciPy's CSR indexing reads it (:func:`_csr_sample`: parallel edges
    summed from 0.0 in stored order, so a lone -0.0 of a non-canonical CSR is +0.0; 0 where
    there is no edge) and for ``directed=False`` the smaller of the two directions, a zero or
    missing weight read as inf. The kind
    follows SciPy's rule (:func:`._validation.graph_kind`): ``csr_matrix`` for a
    ``scipy.sparse`` matrix input, ``csr_array`` for other host input, ``cupyx`` CSR on the GPU.

    Vectorized on the input's device (one gather per edge). Deviation: a predecessor outside
    [0, N) other than -9999 raises :class:`semiring.InvalidIndex` (SciPy reads out of bounds).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> G = np.array([[0, 1.0, 4.0], [0, 0, 2.0], [0, 0, 0]])
    >>> _, pred = csgraph.dijkstra(G, indices=0, return_predecessors=True)
    >>> csgraph.reconstruct_path(G, pred).toarray()
    array([[0., 1., 0.],
           [0., 0., 2.],
           [0., 0., 0.]])
    """
    op = "reconstruct_path"
    _v.masked_warnings(csgraph)  # SciPy's validate_graph comes first
    A = _v.as_graph(csgraph, op, dup="sum")
    xp = A.xp
    n = A.nrows
    p = _pred_array(predecessors, n, op, xp, reconstruct=True) if not (
        sr.is_gpu_array(predecessors) and A.device == "cpu") else \
        _pred_array(predecessors.get(), n, op, np, reconstruct=True)
    if p.shape != (n,):
        raise sr.DimensionMismatch(f"{op}: predecessors must have shape ({n},), got {p.shape}")
    bad = p >= n
    if bool(bad.any()):
        j = int(xp.flatnonzero(bad)[0])
        raise sr.InvalidIndex(f"{op}: predecessors[{j}] must be negative (none) or lie in "
                              f"[0, {n}), got {int(p[j])}")
    # SciPy sorts the caller's array in its own dtype (its argsort order is the rows' order);
    # a masked array's data, mask ignored (SciPy's count of negatives skips masked entries
    # and then indexes out of bounds with them)
    key = np.asarray(np.ma.getdata(predecessors)) if isinstance(
        predecessors, np.ndarray) and A.device == "cpu" else p
    return tree_csr(A, p, key, directed, _v.graph_kind(csgraph), csgraph)


def tree_csr(A: sr.Matrix, pred, key, directed: bool, kind: str, csgraph=None):
    """The tree of the edges pred[v] → v (``pred`` int64, negative: none) weighted as SciPy's
    ``reconstruct_path`` weighs them (:func:`_scipy_tree_weight`, on the CSR SciPy would index:
    ``csgraph``'s for sparse input, else ``A``), stored as SciPy stores it: the
    children in ``argsort(key)`` order (``key``: the predecessor array SciPy would sort, in
    its dtype), so each row's column indices come in NumPy's unstable argsort order, unsorted
    (``has_sorted_indices`` False) as in SciPy's answer. On the GPU CuPy's argsort is stable:
    the rows come sorted."""
    xp = A.xp
    n = A.nrows
    order = xp.argsort(key)
    child = order[int((key < 0).sum()):]
    parent = pred[child]
    w = _scipy_tree_weight(_sampled_csr(csgraph, A, "reconstruct_path", directed), xp, parent,
                           child, directed)
    indptr = xp.searchsorted(parent, xp.arange(n + 1)).astype(xp.int32)
    return _v.sparse_output(kind, w, child.astype(xp.int32), indptr, (n, n))


def construct_dist_matrix(graph, predecessors, directed=True, null_value=np.inf):
    """The distances along the paths that ``predecessors`` encodes, as
    ``scipy.sparse.csgraph.construct_dist_matrix``: ``dist[i, j]`` is the length of the walk
    j → predecessors[i, j] → … back to i (or to the first vertex without a predecessor), 0 on
    the diagonal and ``null_value`` where j has no predecessor. Weights as SciPy reads them:
    the smaller of parallel edges, inf where there is no edge, and for ``directed=False`` the
    smaller of the two directions with a zero weight read as inf.

    On the input's device, every walk at once, one edge a round (as many rounds as the longest
    walk, each a gather over the walks still going: SciPy's O(N² · depth) work). The sums are
    SciPy's to the last bit: each walk adds its edges from the j end, one at a time, as SciPy
    does (a pointer-doubling sum would add them in another order). Deviations: any integer
    dtype is accepted (SciPy demands int32); a predecessor of N or more raises
    :class:`semiring.InvalidIndex` (SciPy reads out of bounds), and predecessors that cycle
    without reaching i raise :class:`semiring.InvalidValue` (SciPy loops forever).

    Examples
    --------
    >>> import numpy as np
    >>> from algorithms import csgraph
    >>> G = np.array([[0, 1.0, 4.0], [0, 0, 2.0], [0, 0, 0]])
    >>> _, pred = csgraph.shortest_path(G, return_predecessors=True)
    >>> csgraph.construct_dist_matrix(G, pred).tolist()
    [[0.0, 1.0, 3.0], [inf, 0.0, 2.0], [inf, inf, 0.0]]
    """
    op = "construct_dist_matrix"
    directed = _v.int_flag(directed, op, "directed", strings=False)  # SciPy's Cython int
    null_value = _v.real_number(null_value, op, "null_value")  # and its C double
    # SciPy reads the graph through its dense conversion: parallel edges keep the smallest
    A = _v.as_graph(graph, op, dup="min", arg="graph", directed=directed, cast_sums=False)
    A = _v.stored_nan_as_inf(A, graph)
    xp = A.xp
    n = A.nrows
    P = _pred_array(sr.to_device(predecessors, A.device), n, op, xp)
    if P.shape != (n, n):
        raise sr.DimensionMismatch(f"{op}: predecessors must have shape ({n}, {n}), "
                                   f"got {P.shape}")
    bad = P >= n
    if bool(bad.any()):
        i, j = (int(t) for t in np.unravel_index(int(xp.flatnonzero(bad.ravel())[0]), P.shape))
        raise sr.InvalidIndex(f"{op}: predecessors[{i}, {j}] must be negative (none) or lie in "
                              f"[0, {n}), got {int(P[i, j])}")
    ar = xp.arange(n)
    out = xp.full((n, n), xp.float64(null_value), dtype=xp.float64)
    # the walks: every (i, j), j ≠ i, whose j has a predecessor in row i; each walks back
    # from j one edge a round, summing as SciPy sums (from the j end, one edge at a time: the
    # same additions in the same order, so the same bits)
    first = P.copy()
    first[ar, ar] = -1
    i, cur = (t.astype(xp.int64) for t in xp.nonzero(first >= 0))
    start_j = cur.copy()
    acc = xp.zeros(i.size)
    for _ in range(n + 1):
        if not i.size:
            break
        k1 = P[i, cur]
        stop = k1 < 0  # the chain breaks before reaching i: SciPy keeps the partial sum
        if bool(stop.any()):
            out[i[stop], start_j[stop]] = acc[stop]
        go = ~stop
        i, cur, acc, start_j, k1 = i[go], cur[go], acc[go], start_j[go], k1[go]
        # acc ← acc + w(k1 → cur); SciPy's C loop adds silently, so NumPy's warnings of an
        # inf + -inf (NaN) or an overflow to inf are not the caller's to see
        w = _tree_weight(A, k1, cur, directed, xp.inf, in_place=True)
        with np.errstate(invalid="ignore", over="ignore"):
            acc = acc + w
        cur = k1
        home = cur == i
        if bool(home.any()):
            out[i[home], start_j[home]] = acc[home]
            keep = ~home
            i, cur, acc, start_j = i[keep], cur[keep], acc[keep], start_j[keep]
    if i.size:
        raise sr.InvalidValue(f"{op}: the predecessors of some row form a cycle that does not "
                              f"reach the row's vertex")
    out[ar, ar] = 0.0
    return out
