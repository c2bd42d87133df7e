"""PageRank by power iteration: one SpMV over the graph per iteration (LAGraph's LAGr_PageRank
and LAGr_PageRankGAP).

Two definitions, which differ in what happens to the rank of a *dangling* vertex (one with no
out-edges, or out-weights summing to 0) and in the stopping rule; both were checked against
their sources (NetworkX 3.6's ``_pagerank_scipy``, GAP's ``src/pr.cc``, LAGraph's
``LAGr_PageRankGAP.c``):

- ``variant="networkx"`` (the default; NetworkX, LAGr_PageRank): a dangling vertex's rank is
  handed out along virtual edges, in proportion to ``dangling`` (the personalization vector
  unless given), so the ranks always sum to 1. Stops when the L1 change of the ranks in one
  iteration is below ``n * tol`` (NetworkX's rule; ``tol`` defaults to 1e-6).
- ``variant="gap"`` (GAP's benchmark kernel, LAGr_PageRankGAP): a dangling vertex's rank is
  dropped (GAP never reads ``score / out_degree`` of a vertex with no out-edges), so with
  sinks the ranks sum to less than 1. Stops when the L1 change is below ``tol`` itself
  (GAP's ``error < epsilon``; ``tol`` defaults to GAP's 1e-4). GAP's ``pr.cc`` updates in
  place (Gauss-Seidel), LAGraph and this module in sweeps (Jacobi): the same fixed point,
  different iteration counts.

Each iteration is ``x' = d · (x ./ outdeg) ⊕.⊗ A + teleport``: one ``plus_times`` (weighted)
or ``plus_first`` (structure only) vector-matrix product, pulled over the cached transpose.
"""

from __future__ import annotations

import numbers

import numpy as np

import semiring as sr

from .cores import _check_flag

__all__ = ["ConvergenceError", "pagerank"]

VARIANTS = ("networkx", "gap")
# defaults per variant: NetworkX's pagerank(tol=1e-6, max_iter=100); GAP's pr (-t 1e-4) with
# LAGraph's itermax (100): Jacobi sweeps take more iterations than GAP's in-place updates
DEFAULT_TOL = {"networkx": 1e-6, "gap": 1e-4}
DEFAULT_MAX_ITER = {"networkx": 100, "gap": 100}
#: Weighted out-degrees beyond 2**±WEIGHT_EXPONENT have each row's weights scaled by a power
#: of two first (its largest into [1/2, 1)): the transition probabilities A(i, j) / outdeg(i)
#: do not change, but the sums stay finite and ``x / outdeg`` stays normal. Unscaled, 1e308
#: twice in a row summed to inf, 1/inf = 0 lost that vertex's rank (the ranks summed to 0.3),
#: and subnormal out-weights made 1/outdeg inf and every rank NaN.
WEIGHT_EXPONENT = 256
#: GPU input with fewer stored entries than this iterates on A's host copy (kept on A), the
#: ranks copied back: an iteration costs the GPU a product, the fused step and a host
#: synchronization, ~90 µs on an H200 host whatever the size, the host ~3 µs per 1000
#: entries. On an H200 (``python -m bench --device gpu --suite small``,
#: bench/results/session20/) urand-10-ef4 (8150 entries, 12 iterations) took 1.18 ms on the
#: GPU against 0.57 ms on the host and SciPy's power iteration's 0.42; urand-13-ef4 (65 498)
#: 1.16 ms against 2.53 (SciPy 2.63).
HOST_MAX_ENTRIES = 1 << 14
#: GPU input with at most this many stored entries and no ``progress`` runs the whole
#: iteration in one cooperative launch (:func:`semiring.centrality.power_iteration`: every
#: sweep's product and vector step on the device, a grid-wide barrier between sweeps, one
#: host synchronization at the end) instead of the loop's launches and synchronization a
#: sweep (and instead of the host copy below :data:`HOST_MAX_ENTRIES`).
#: On an H200 (``bench/probes/pagerank_fused_bound.py``, the small suite's settings, session
#: 26, bench/results/session26/) the fused launch against the loop: urand-10-ef4 0.18 / 0.46
#: ms (SciPy 0.48), urand-13-ef4 0.21 / 1.33 (SciPy 2.41), urand-16-ef8 0.44 / 1.18, the
#: 1000² grid 0.56 / 1.01, kron-16 0.71 / 1.37, kron-18 (7.6 M entries) 1.48 / 1.67; the
#: first build on urand-20-ef16 (33.6 M) 3.4 / 2.4: past ~10⁷ entries the loop's tuned
#: products win over the fused sweep's group of lanes a row.
GPU_FUSED_MAX_ENTRIES = 1 << 23


def host_route(A) -> bool:
    """Whether a power iteration on ``A`` (this module's, and ``algorithms.centrality``'s)
    runs on A's host copy: GPU input of fewer than :data:`HOST_MAX_ENTRIES` stored entries
    (read at call time: tests turn the route off there)."""
    return A.device == "gpu" and A.nvals < HOST_MAX_ENTRIES


def on_host_copy(fn, A, **kwargs):
    """``fn(A's host copy, **kwargs)`` where :func:`host_route` says so (else ``None``): the
    GPU arrays among the arguments copied to the host, the results (an array, or a tuple of
    them) and a ConvergenceError's last iterate back on the GPU."""
    if not host_route(A):
        return None

    def host(v):
        return sr.to_device(v, "cpu") if sr.is_gpu_array(v) else v

    try:
        out = fn(A._host_copy(), **{k: host(v) for k, v in kwargs.items()})
    except ConvergenceError as err:
        err.result = sr.to_device(err.result, "gpu")
        raise
    if isinstance(out, tuple):
        return tuple(sr.to_device(v, "gpu") for v in out)
    return sr.to_device(out, "gpu")


class ConvergenceError(sr.SemiringError, RuntimeError):
    """An iterative method reached its iteration limit without meeting its tolerance (as
    NetworkX's ``PowerIterationFailedConvergence``).

    ``iterations`` is the number of iterations made, ``error`` the last change measured and
    ``result`` the last iterate (on the input's device).
    """

    def __init__(self, message: str = "", *, iterations=None, error=None, result=None):
        super().__init__(message)
        self.iterations = iterations
        self.error = error
        self.result = result

    @classmethod
    def after(cls, op, max_iter, error, threshold, result):
        """The error of a power iteration that made ``max_iter`` iterations, its last L1
        change ``error`` not below ``threshold``."""
        return cls(f"{op}: no convergence in max_iter (={max_iter}) iterations: the L1 change "
                   f"{error:.3g} is not below {threshold:.3g}", iterations=max_iter,
                   error=error, result=result)


def _real(op, arg, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise sr.DomainMismatch(f"{op}: {arg} must be a real number, got {type(value).__name__} {value!r}")
    return float(value)


def _weight(op, arg, v):
    """A dict's value as a float: a real number, a bool or a 0-d real array (a NumPy or CuPy
    scalar array), as the array form's dtype check takes them (``float()`` read the string
    '2' as a weight and raised its own errors, naming nothing, for other objects)."""
    if isinstance(v, (bool, np.bool_)) or (
            getattr(v, "ndim", None) == 0 and getattr(getattr(v, "dtype", None), "kind", "") in "biuf"):
        return float(v)
    return _real(op, arg, v)


def _distribution(op, arg, value, n, xp):
    """A length-n float64 array of non-negative weights with a positive sum, normalized to
    sum 1 (NetworkX normalizes personalization, nstart and dangling the same way). ``value``
    is a sequence/array of n numbers (NumPy, or CuPy on the GPU) or a dict {vertex: weight}
    (missing vertices weigh 0, as in NetworkX)."""
    if isinstance(value, dict):
        keys = list(value)
        bad = [k for k in keys if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral)
               or not 0 <= int(k) < n]
        if bad:
            raise sr.InvalidIndex(f"{op}: {arg} keys must be vertices in [0, {n}), got {bad[0]!r}")
        host = np.zeros(n, dtype=np.float64)
        for k in keys:
            host[int(k)] = _weight(op, f"{arg}[{k}]", value[k])
        arr = xp.asarray(host)
    else:
        if sr.is_gpu_array(value) and xp is np:
            raise sr.DeviceMismatch(f"{op}: A is on the CPU but {arg} is a CuPy array; move one "
                                    f"explicitly")
        try:
            arr = xp.asarray(value)
        except (TypeError, ValueError) as exc:  # ragged lists and the like
            raise sr.DomainMismatch(f"{op}: {arg} must be an array of n real numbers or a dict, "
                                    f"got {type(value).__name__} ({exc})") from None
        if arr.ndim != 1 or arr.shape[0] != n:
            raise sr.DimensionMismatch(f"{op}: {arg} must have shape ({n},) (one weight per vertex), "
                                       f"got shape {arr.shape}")
        if arr.dtype.kind not in "biuf":
            raise sr.DomainMismatch(f"{op}: {arg} must hold real numbers, got dtype {arr.dtype}")
        arr = arr.astype(np.float64)  # a copy: the caller's array is never touched
    bad = ~xp.isfinite(arr) | (arr < 0)
    if bool(bad.any()):
        i = int(xp.flatnonzero(bad)[0])
        raise sr.InvalidValue(f"{op}: {arg} must hold finite non-negative weights, got "
                              f"{float(arr[i])!r} for vertex {i}")
    # divided by the largest weight first: finite weights can sum past float64's range
    # (1e308 twice gave inf, and every normalized weight 0)
    top = float(arr.max()) if n else 0.0
    if top > 0:
        arr = arr / top
    total = float(arr.sum())
    if not total > 0:
        raise sr.InvalidValue(f"{op}: {arg} must have a positive sum, got {total}")
    return arr / total


def _rows_scaled(A, xp):
    """A (real, non-negative, finite) with the values of each row times the power of two
    that brings the row's largest into [1/2, 1) (an all-zero row stays): the same transition
    probabilities, exactly, but for weights below 2**-1074 of their row's largest."""
    # top = reduce_rows(A, max);  A(i, j) = A(i, j) · 2^-e(i),  top(i) = f · 2^e(i)
    top = sr.reduce_rows(A, "max").to_dense(missing=0).astype(np.float64)
    e = xp.frexp(top)[1].astype(np.int32)  # (int32: the exponent type ldexp takes everywhere)
    vals = xp.ldexp(A.values.astype(np.float64), e[A.entry_rows()] * -1)
    return sr.Matrix.from_csr(A.indptr, A.indices, vals, A.shape, check=False)


def _fused(op, A, damping, personalization, nstart, dangling, weighted, variant, threshold,
           max_iter):
    """The ranks by :func:`semiring.centrality.power_iteration` (GPU input), or None where it
    cannot answer (no cooperative launch; an out-degree past 2**±WEIGHT_EXPONENT, which the
    loop scales first)."""
    n, xp = A.nrows, A.xp
    weighted = weighted and not A.is_iso
    if weighted and A.dtype.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: weighted=True needs real values, got dtype {A.dtype}")
    # None: uniform, in the kernel (no array made)
    p = None if personalization is None else _distribution(op, "personalization",
                                                           personalization, n, xp)
    x0 = None if nstart is None else _distribution(op, "nstart", nstart, n, xp)
    u = p if dangling is None else _distribution(op, "dangling", dangling, n, xp)
    try:
        x, _, change, status = sr.centrality.power_iteration(
            A, damping, threshold, max_iter, p=p, u=u, x0=x0, weighted=weighted,
            spread=variant == "networkx")
    except sr.BackendUnavailable:
        return None
    if status == "weights":
        raise sr.InvalidValue(f"{op}: edge weights must be finite and non-negative "
                              f"(weighted=True); pass weighted=False to ignore them")
    if status != "done":  # "scale": the loop scales the rows
        return None
    if change < threshold:
        return x
    raise ConvergenceError.after(op, max_iter, change, threshold, x)


def pagerank(A, damping=0.85, *, personalization=None, tol=None, max_iter=None, nstart=None,
             dangling=None, weighted=True, variant="networkx", progress=None):
    """PageRank of every vertex (personalized PageRank with ``personalization``).

    The ranks x solve ``x = d · (x ./ outdeg) ⊕.⊗ A + d · s · u + (1 - d) · p``: a random
    surfer follows an out-edge of its vertex with probability d (chosen in proportion to the
    edge weights), else jumps to a vertex drawn from p; s is the rank held by dangling
    vertices, handed out in proportion to u (``variant="networkx"``) or dropped
    (``variant="gap"``: GAP's benchmark definition). Power iteration from ``nstart`` until
    the L1 change of one iteration is below the tolerance (see the module's docstring for
    the two definitions and their sources).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j. An undirected graph is a symmetric matrix (both
        directions, as NetworkX converts a Graph). Runs where ``A`` lives (CPU or GPU). GPU
        input of up to :data:`GPU_FUSED_MAX_ENTRIES` stored entries runs the whole iteration
        in one launch (the fused variant, :func:`semiring.centrality.power_iteration`) unless
        ``progress`` is given; with ``progress``, below :data:`HOST_MAX_ENTRIES` entries it
        iterates on a host copy (the ranks back on the GPU).
    damping : float
        The probability d of following an edge, in [0, 1); NetworkX's ``alpha``.
    personalization : array_like of n weights, or dict {vertex: weight}, optional
        The teleport distribution p (normalized to sum 1; a dict's missing vertices weigh 0).
        Default: uniform.
    tol : float, optional
        ``variant="networkx"``: stop when ``‖x' − x‖₁ < n · tol`` (default 1e-6);
        ``variant="gap"``: when ``‖x' − x‖₁ < tol`` (default 1e-4).
    max_iter : int, optional
        At most this many iterations (default 100); :class:`ConvergenceError` past it.
    nstart : array_like of n weights, or dict, optional
        The starting ranks (normalized to sum 1). Default: uniform.
    dangling : array_like of n weights, or dict, optional
        ``variant="networkx"`` only: the distribution u that a dangling vertex's rank goes to
        (normalized). Default: ``personalization`` (NetworkX's rule).
    weighted : bool
        Follow edges in proportion to A's values (NetworkX's ``weight="weight"``); they must
        be finite and non-negative, and a vertex whose out-weights sum to 0 is dangling.
        ``False``, or a structure-only (iso) matrix: every edge weighs 1 (``weight=None``);
        explicit zeros are edges then.
    variant : {'networkx', 'gap'}
        The definition (dangling vertices and the stopping rule), see above.
    progress : callable, optional
        Called as ``progress(iteration, change)`` after each iteration (1-based).

    Returns
    -------
    array of float64, shape (n,)
        The ranks, a NumPy or CuPy array on A's device.

    Raises
    ------
    ConvergenceError
        ``max_iter`` iterations did not meet the tolerance; the error carries the last
        iterate as ``result``.

    Notes
    -----
    Per iteration: ``w = x ./ outdeg`` (0 where the out-degree is 0), one pulled SpMV
    ``t = w ⊕.⊗ A`` over A's cached transpose, a few O(n) vector operations and one host
    synchronization (the change, for the stopping test). The out-degrees are computed once.
    The fused variant does the same sweeps in one cooperative launch, a grid-wide barrier
    between them and one host synchronization at the end; its products sum in another order
    than the loop's, so its ranks may differ from the CPU's in the last bits (and, at the
    tolerance's edge, by a sweep).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 1], [0, 0, 1], [1, 0, 0]], dtype=float))
    >>> np.round(algorithms.pagerank(A), 4)
    array([0.3878, 0.2148, 0.3974])
    >>> np.round(algorithms.pagerank(A, personalization=[1, 0, 0]), 4)
    array([0.4522, 0.1922, 0.3556])
    >>> B = sp.csr_matrix(np.array([[0, 1], [0, 0]], dtype=float))  # vertex 1 is dangling
    >>> np.round(algorithms.pagerank(B), 4)
    array([0.3509, 0.6491])
    >>> float(algorithms.pagerank(B, variant="gap").sum()) < 1  # GAP drops the dangling rank
    True
    """
    op = "pagerank"
    A = sr.as_matrix(A, op=op, arg="A", square=True)
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise sr.InvalidValue(f"{op}: variant must be one of {VARIANTS}, got {variant!r}")
    damping = _real(op, "damping", damping)
    if not 0.0 <= damping < 1.0:
        raise sr.InvalidValue(f"{op}: damping must be in [0, 1), got {damping}")
    tol = DEFAULT_TOL[variant] if tol is None else _real(op, "tol", tol)
    if not (tol > 0 and np.isfinite(tol)):
        raise sr.InvalidValue(f"{op}: tol must be a positive finite number, got {tol}")
    max_iter = DEFAULT_MAX_ITER[variant] if max_iter is None else max_iter
    if isinstance(max_iter, (bool, np.bool_)) or not isinstance(max_iter, numbers.Integral):
        raise sr.DomainMismatch(f"{op}: max_iter must be an integer, got "
                                f"{type(max_iter).__name__} {max_iter!r}")
    if max_iter < 0:
        raise sr.InvalidValue(f"{op}: max_iter must be >= 0, got {max_iter}")
    if variant == "gap" and dangling is not None:
        raise sr.InvalidValue(f"{op}: dangling= needs variant='networkx'; variant='gap' drops the "
                              f"rank of dangling vertices")
    if progress is not None and not callable(progress):
        raise sr.DomainMismatch(f"{op}: progress must be callable, got {type(progress).__name__}")
    # a bool, as the other power iterations take it (bool('no') was True: weighted)
    weighted = _check_flag(op, "weighted", weighted)
    threshold = A.nrows * tol if variant == "networkx" else tol
    if (A.device == "gpu" and progress is None and max_iter > 0 and A.nrows > 0
            and A.nvals <= GPU_FUSED_MAX_ENTRIES):
        fused = _fused(op, A, damping, personalization, nstart, dangling, weighted, variant,
                       threshold, max_iter)
        if fused is not None:
            return fused
    # a small graph's iterations on A's host copy, the ranks back on the GPU
    small = on_host_copy(pagerank, A, damping=damping, personalization=personalization, tol=tol,
                         max_iter=max_iter, nstart=nstart, dangling=dangling,
                         weighted=weighted, variant=variant, progress=progress)
    if small is not None:
        return small
    n = A.nrows
    xp = sr.array_module(A.device)
    if n == 0:
        return xp.zeros(0, dtype=np.float64)
    weighted = weighted and not A.is_iso
    if weighted:
        if A.dtype.kind not in "biuf":
            raise sr.DomainMismatch(f"{op}: weighted=True needs real values, got dtype {A.dtype}")
        vals = A.values
        if vals.size and (not bool(xp.isfinite(vals).all()) or bool((vals < 0).any())):
            raise sr.InvalidValue(f"{op}: edge weights must be finite and non-negative "
                                  f"(weighted=True); pass weighted=False to ignore them")
    p = (xp.full(n, 1.0 / n) if personalization is None
         else _distribution(op, "personalization", personalization, n, xp))
    x = xp.full(n, 1.0 / n) if nstart is None else _distribution(op, "nstart", nstart, n, xp)
    u = p if dangling is None else _distribution(op, "dangling", dangling, n, xp)

    # each edge i → j carries weight A(i, j) (weighted) or 1 (structure): plus_times reads the
    # edge's value, plus_first only the vector's
    semiring = sr.plus_times if weighted else sr.plus_first
    ones = xp.ones(n, dtype=np.float64)
    # outdeg = A ⊕.⊗ 1   (the weighted out-degree: the row sums, in float64)
    outdeg = sr.mxv(A, ones, sr.plus_times if weighted else sr.plus_pair,
                    direction="pull").to_dense(missing=0)
    if weighted and bool(((outdeg > 2.0**WEIGHT_EXPONENT)
                          | ((outdeg > 0) & (outdeg < 2.0**-WEIGHT_EXPONENT))).any()):
        A = _rows_scaled(A, xp)
        outdeg = sr.mxv(A, ones, sr.plus_times, direction="pull").to_dense(missing=0)
    is_dangling = outdeg == 0
    dangling_idx = xp.flatnonzero(is_dangling)
    inv = xp.where(is_dangling, 0.0, 1.0 / xp.where(is_dangling, 1.0, outdeg))
    teleport = (1.0 - damping) * p
    spread = variant == "networkx" and dangling_idx.size > 0
    # s = Σ x(dangling): the rank the dangling vertices hand out (GAP: dropped)
    s = float(x[dangling_idx].sum()) if spread else 0.0
    err = float("inf")
    # w = x ./ outdeg   (0 at dangling vertices)
    w = x * inv
    for it in range(1, max_iter + 1):
        # t = w ⊕.⊗ A       (pull: one dot product per vertex with its in-edges)
        t = sr.vxm(w, A, semiring, direction="pull")
        # x' = d · (t + s · u) + (1 − d) · p;  w' = x' ./ outdeg;  err = ‖x' − x‖₁;
        # s' = Σ x'(dangling)   (one pass, and the iteration's host synchronization)
        x_new, w, err, s_new = sr.centrality.power_step(t, x, u, teleport, inv, damping, s,
                                                        dangling_idx)
        x, s = x_new, (s_new if spread else 0.0)
        if progress is not None:
            progress(it, err)
        if err < threshold:
            return x
    raise ConvergenceError.after(op, max_iter, err, threshold, x)
