"""NetworkX's eigenvector, Katz, HITS, closeness and harmonic centrality on the engine
(``algorithms.centrality``), and edge betweenness (``algorithms.edge_betweenness``): the
dispatched functions and what :func:`refusal` leaves to NetworkX (called by
``BackendInterface.can_run``).

Each returns NetworkX's dict: keyed in NetworkX's order (the node order; ``nstart``'s key
order where NetworkX iterates over it; the order of ``set(G)`` for harmonic centrality), its
floats to rounding (NetworkX adds in its adjacency order, the engine in its own). HITS is the
exception: NetworkX 3.6 takes A's principal singular vector from ARPACK (``svds``), the engine
iterates to it, so the answers agree to the tolerances (about 1e-9 relative) and only where
that vector is unique (a simple largest singular value: else ARPACK's answer depends on its
random start, and NetworkX runs the call).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

import algorithms as alg
import semiring as sr
from algorithms.pagerank import host_route

from . import NX_RELEASE
from .algorithms import (_exact_sums, _graph, _host, _node_dict, _nx, _sampled_sources,
                         _unit_weights)

__all__ = ["closeness_centrality", "edge_betweenness_centrality", "eigenvector_centrality",
           "eigenvector_centrality_numpy", "harmonic_centrality", "hits", "katz_centrality",
           "katz_centrality_numpy"]

#: HITS: the engine's iteration runs to an L1 change below max(HITS_TOL, n · HITS_TOL_PER_VERTEX)
#: (tighter than ARPACK's answer to NetworkX's tol=1e-8, so that the two agree to ~1e-9), for
#: at most HITS_MAX_ITER iterations (else NetworkX runs the call: its ARPACK converges where
#: a power iteration creeps, on a small spectral gap)
HITS_TOL = 1e-12
HITS_TOL_PER_VERTEX = 1e-15
HITS_MAX_ITER = 10_000
#: HITS: the two starts' authorities (see :func:`hits`) differing by more than this, relative
#: to the largest, mean a multiple largest singular value: NetworkX's answer is ARPACK's pick
HITS_SAME = 1e-7
#: HITS: the seed of that second start
HITS_SEED = 20261129

#: eigenvector_centrality_numpy / katz_centrality_numpy: NetworkX solves to machine
#: precision (ARPACK with tol=0, a dense solve); the engine iterates to an L1 change below
#: n · NUMPY_TOL, at most NUMPY_MAX_ITER iterations, and answers where its estimated error
#: left is below NUMPY_ERROR relative to the largest value (NetworkX's tests compare to
#: 1e-7); a change ratio above NUMPY_RATIO_MAX counts as that (a stalled estimate)
NUMPY_TOL = 1e-14
NUMPY_MAX_ITER = 100_000
NUMPY_ERROR = 1e-10
NUMPY_RATIO_MAX = 0.999
#: ... and they (and hits' singular-vector iteration, within HITS_MAX_ITER) stop as soon as
#: the iteration cannot meet its tolerance within its budget (NetworkX's dense solve or
#: ARPACK answers then: NetworkX runs the call), instead of
#: running out the budget (1.3 s on the 2-core host, over 10 s on the GPU, for a 12-node
#: graph whose iteration diverges): a change that is not finite (diverged), or, every
#: NUMPY_WATCH iterations from 2 · NUMPY_WATCH on, a mean change ratio r over the last
#: NUMPY_WATCH at or above 1 (growing) or too close to 1 to reach the tolerance in the
#: iterations left (creeping). A linear iteration's change shrinks by its spectral ratio
#: each step; a refusal on a transient is safe (NetworkX answers)
NUMPY_WATCH = 64
#: katz_centrality_numpy's first run, which finds the values' scale: NetworkX's
#: katz_centrality's default tolerance
KATZ_FIRST_TOL = 1e-6

_POWER = frozenset({"eigenvector_centrality", "katz_centrality", "hits",
                    "eigenvector_centrality_numpy", "katz_centrality_numpy"})
_DISTANCE = frozenset({"closeness_centrality", "harmonic_centrality"})


def _real(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


# NumPy scalars that NetworkX's arithmetic keeps: a float32 alpha or nstart value makes every
# iterate a float32 (NEP 50: a Python float is weak), an int8 nstart's sum wraps
_WIDE = frozenset({np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.uint64)})


def _plain(v) -> bool:
    """A real number that NetworkX's arithmetic meets as a 64-bit value (a Python int or
    float, or a NumPy float64 / int64 / uint64 scalar)."""
    return _real(v) and (not isinstance(v, np.generic) or v.dtype in _WIDE)


def _start_refusal(G, nstart, name):
    """Why an ``nstart`` dict is left to NetworkX (None: the engine takes it)."""
    if nstart is None:
        return None
    if not isinstance(nstart, dict):
        return f"{name}: nstart that is not a dict is NetworkX's to read"
    try:
        same = len(nstart) == len(G) and all(v in G for v in nstart)
    except TypeError:  # an unhashable key
        same = False
    if not same:
        return (f"{name}: nstart must name every node and only nodes (NetworkX iterates over "
                f"its keys): NetworkX runs it")
    if not all(_real(v) for v in nstart.values()):
        return f"{name}: nstart values that are not real numbers are NetworkX's to report"
    if not all(_plain(v) for v in nstart.values()):
        return (f"{name}: NumPy nstart values narrower than 64 bits: NetworkX iterates in "
                f"their type (float32 rounding, int wrapping): NetworkX runs it")
    return None


def refusal(name, a, G):
    """Why NetworkX runs this call of ``name`` (bound arguments ``a``, graph ``G``), or
    None; the checks of ``BackendInterface.can_run`` common to every function come first."""
    from .interface import _undirected_view_of_directed  # noqa: PLC0415  (interface imports this module)

    if G.is_multigraph() and name in _POWER:
        return (f"{name} of a multigraph (NetworkX refuses it, or sums parallel edges) is not "
                f"supported")
    if name in _DISTANCE:
        distance = a.get("distance")
        if callable(distance):
            return "a callable distance is not supported (NetworkX runs it)"
        if distance is not None and _undirected_view_of_directed(G):
            return ("an undirected view of a directed graph keeps each direction's own edge "
                    "attributes, which no symmetric matrix holds: NetworkX runs it")
    if name == "hits" and _undirected_view_of_directed(G):
        # NetworkX's hits reads "weight" with no weight= argument to say so
        return ("hits of an undirected view of a directed graph: its 'weight' attributes "
                "differ by direction (G[u][v] and G[v][u]), which no symmetric matrix holds: "
                "NetworkX runs it")
    if name == "closeness_centrality" and a.get("u") is not None:
        return "closeness of one node: one search, NetworkX's"
    if name == "harmonic_centrality" and (a.get("nbunch") is not None
                                          or a.get("sources") is not None):
        return "harmonic_centrality with nbunch= or sources=: NetworkX searches from those only"
    if name in ("eigenvector_centrality", "katz_centrality"):
        if not _real(a.get("tol")) or not _real(a.get("max_iter", 0)) or \
                not isinstance(a.get("max_iter"), numbers.Integral):
            return f"{name}: a max_iter or tol that is not a number is NetworkX's to report"
        reason = _start_refusal(G, a.get("nstart"), name)
        if reason:
            return reason
    if name == "katz_centrality":
        alpha, beta = a.get("alpha"), a.get("beta")
        if not _real(alpha):
            return "katz_centrality: an alpha that is not a real number is NetworkX's to read"
        if not _plain(alpha):
            return (f"katz_centrality: a NumPy {alpha.dtype} alpha makes NetworkX's iterates "
                    f"{alpha.dtype}: NetworkX runs it")
        if isinstance(beta, dict):
            try:
                same = set(beta) == set(G)
            except TypeError:
                same = False
            if not same or not all(_real(v) for v in beta.values()):
                return ("katz_centrality: a beta dict must give a real number for every node "
                        "(NetworkX raises NetworkXError otherwise): NetworkX runs it")
            if not all(_plain(v) for v in beta.values()):
                return ("katz_centrality: NumPy beta values narrower than 64 bits make "
                        "NetworkX's iterates narrow: NetworkX runs it")
        elif not _real(beta):
            return "katz_centrality: a beta that is not a real number or a dict is NetworkX's"
    if name == "hits":
        if a.get("normalized") is not True:
            return ("hits with normalized=False returns ARPACK's singular vector with its own "
                    "sign: NetworkX runs it")
        tol = a.get("tol")
        if not _real(tol) or not tol >= 0:  # NaN too
            return ("hits: a tol that is not a non-negative number is svds' to refuse (the "
                    "backend iterates to its own tolerance): NetworkX runs it")
        max_iter = a.get("max_iter")
        if not isinstance(max_iter, numbers.Integral) or max_iter < 100:
            return ("hits with max_iter below NetworkX's default 100: whether ARPACK's "
                    "restarts converge within it is ARPACK's (NetworkX runs it)")
        nstart = a.get("nstart")
        if nstart is not None and (not isinstance(nstart, dict) or len(nstart) != len(G)
                                   or not all(_real(v) for v in nstart.values())
                                   or not any(nstart.values())):
            return ("hits: an nstart that is not n real numbers, not all 0, is ARPACK's to "
                    "refuse: NetworkX runs it")
    return None


def _weights(g, weight, name):
    """The engine matrix of ``weight`` (None: unit weights) and whether it is weighted."""
    if weight is not None and g.narrow.get(weight) is not None:
        raise NotImplementedError(f"nx_semiring: {name}: NetworkX multiplies these weights as "
                                  f"NumPy {g.narrow[weight]} scalars (NetworkX runs it)")
    if weight is not None and g.loop_negation_wraps(weight):
        raise NotImplementedError(f"nx_semiring: {name}: NetworkX's matrix of these NumPy "
                                  f"integer self-loop weights negates them in their own type "
                                  f"(to_scipy_sparse_array; it wraps or raises): NetworkX runs it")
    if _unit_weights(g, weight) or _none_has(g, weight):
        return g.matrix(), False
    return g.matrix(weight), True


def _none_has(g, weight) -> bool:
    """Whether no edge has ``weight`` and its default is NetworkX's 1 (hits always reads
    "weight"): the products are then the unit ones (x · 1 = x exactly), which the
    structure's matrix gives without a float64 copy of the ones and its transpose on every
    call (8 of 28 ms a hits call at 2^14 vertices on the 2-core host)."""
    return weight in g.partial and weight not in g.mixed and g.defaults.get(weight) == 1


def _ordered(g, keys, x):
    """{key: value} in the order of ``keys`` (nodes), values from the engine's array x."""
    vals = _host(x).tolist()
    return {k: vals[g.vertex(k)] for k in keys}


def _start(g, nstart):
    return None if nstart is None else np.array([nstart[v] for v in g.nodes], dtype=np.float64)


def eigenvector_centrality(G, max_iter=100, tol=1e-06, nstart=None, weight=None):
    """{node: eigenvector centrality} by the engine's power iteration on (A + I)ᵀ (NetworkX's
    iteration and stopping rule; PowerIterationFailedConvergence after ``max_iter``).

    Examples
    --------
    >>> import networkx as nx
    >>> c = nx.eigenvector_centrality(nx.path_graph(3), backend="semiring")
    >>> [round(c[v], 6) for v in range(3)]
    [0.5, 0.707107, 0.5]
    """
    nx = _nx()
    g = _graph(G, weight)
    if g.n == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if nstart is not None:
        if all(v == 0 for v in nstart.values()):
            raise nx.NetworkXError("initial vector cannot have all zero values")
        # NetworkX's own division, in nstart's order: its ZeroDivisionError with its message
        # ("division by zero" of ints, "float division by zero" of floats), and NumPy
        # scalars' inf / NaN where the sum is 0 (the engine refuses them: NetworkX runs it)
        nstart_sum = sum(nstart.values())
        nstart = {k: v / nstart_sum for k, v in nstart.items()}
    # NetworkX reads ``G[n][nbr].get(weight, 1) if weight else 1``: a falsy attribute name
    # (0, "", ()) is no weight at all there
    M, weighted = _weights(g, weight if weight else None, "eigenvector_centrality")
    try:
        x = alg.eigenvector_centrality(M, max_iter=max_iter, tol=tol, nstart=_start(g, nstart),
                                       weighted=weighted)
    except alg.ConvergenceError as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    except (sr.InvalidValue, sr.DomainMismatch) as exc:
        raise NotImplementedError(f"nx_semiring: {exc}") from exc
    return _node_dict(g, _host(x).tolist()) if nstart is None else _ordered(g, nstart, x)


def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1e-06, nstart=None,
                    normalized=True, weight=None):
    """{node: Katz centrality} by the engine's iteration x ← α Aᵀx + β (NetworkX's iteration
    and stopping rule; PowerIterationFailedConvergence after ``max_iter``).

    Examples
    --------
    >>> import networkx as nx
    >>> c = nx.katz_centrality(nx.path_graph(3), backend="semiring")
    >>> [round(c[v], 6) for v in range(3)]
    [0.559885, 0.610784, 0.559885]
    """
    nx = _nx()
    g = _graph(G, weight)
    if g.n == 0:
        return {}
    b = np.array([beta[v] for v in g.nodes], dtype=np.float64) if isinstance(beta, dict) \
        else float(beta)
    M, weighted = _weights(g, weight, "katz_centrality")
    try:
        x = alg.katz_centrality(M, alpha, b, max_iter=max_iter, tol=tol,
                                nstart=_start(g, nstart), normalized=bool(normalized),
                                weighted=weighted)
    except alg.ConvergenceError as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    except (sr.InvalidValue, sr.DomainMismatch) as exc:
        raise NotImplementedError(f"nx_semiring: {exc}") from exc
    vals = _host(x).tolist()
    if not normalized and not weighted and type(alpha) is int and isinstance(beta, dict) and \
            all(type(v) is int for v in beta.values()) and \
            (nstart is None or all(type(v) is int for v in nstart.values())):
        # NetworkX's iteration is all Python ints here (unit weights are its int 1, a scalar
        # beta its float(beta)), and so is its answer (walk counts on a DAG, or beta at α 0)
        vals = [int(v) for v in vals]
    return _node_dict(g, vals) if nstart is None else {k: vals[g.vertex(k)] for k in nstart}


class _Hopeless(Exception):
    """An iteration that cannot meet its tolerance within its budget (:func:`_watch`)."""


def _watch(changes: list, threshold: float, max_iter: int):
    """A ``progress`` callback for the engine's iterations (NUMPY_WATCH): appends each
    change to ``changes``; raises :class:`_Hopeless` where the iteration diverged, grows, or
    creeps too slowly to reach ``threshold`` (the stopping rule's bound on the change) by
    ``max_iter``."""
    def progress(it, err):
        changes.append(err)
        if not math.isfinite(err):
            raise _Hopeless(f"its change is {err} at iteration {it}")
        if it < 2 * NUMPY_WATCH or it % NUMPY_WATCH or err < threshold:
            return
        old = changes[-NUMPY_WATCH - 1]
        if not (old > 0 and err > 0):
            return
        r = (err / old) ** (1.0 / NUMPY_WATCH)
        if r >= 1.0:
            raise _Hopeless(f"its change grew by {err / old:.3g} in the last {NUMPY_WATCH} "
                            f"iterations (iteration {it})")
        if math.log(threshold / err) / math.log(r) > max_iter - it:
            raise _Hopeless(f"its change shrinks by {r:.6g} an iteration: {err:.3g} at "
                            f"iteration {it} would meet {threshold:.3g} only after "
                            f"{max_iter} iterations")
    return progress


def _solve_by_iteration(run, name, n, scale=1.0):
    """The engine's power iteration ``run(max_iter=..., tol=..., progress=...)`` (over
    ``n`` vertices, its values of magnitude ``scale``) run far past NetworkX's default
    tolerance, for NetworkX's ``*_numpy`` functions (a dense solve or ARPACK to machine
    precision): NUMPY_TOL · scale per vertex, at most NUMPY_MAX_ITER iterations (stopped
    early where it cannot get there: :func:`_watch`), and accepted only where the error
    left, estimated from the last changes' ratio r as change · r / (1 - r), is below
    NUMPY_ERROR (else NetworkX runs the call)."""
    changes = []
    tol = NUMPY_TOL * scale
    try:
        x = run(max_iter=NUMPY_MAX_ITER, tol=tol,
                progress=_watch(changes, n * tol, NUMPY_MAX_ITER))
    except _Hopeless as exc:
        raise NotImplementedError(f"nx_semiring: {name}: the power iteration cannot converge "
                                  f"in {NUMPY_MAX_ITER} iterations: {exc} (NetworkX's solver "
                                  f"answers: NetworkX runs it)") from exc
    except alg.ConvergenceError as exc:
        raise NotImplementedError(f"nx_semiring: {name}: the power iteration did not converge "
                                  f"in {NUMPY_MAX_ITER} iterations (NetworkX's solver answers: "
                                  f"NetworkX runs it)") from exc
    except (sr.InvalidValue, sr.DomainMismatch) as exc:
        raise NotImplementedError(f"nx_semiring: {name}: {exc}") from exc
    x = _host(x)
    last = changes[-1] if changes else 0.0
    if len(changes) >= 2 and changes[-2] > 0 and last > 0:
        r = min(last / changes[-2], NUMPY_RATIO_MAX)
        left = last * r / (1.0 - r)
    else:
        left = last
    scale = float(np.abs(x).max()) if x.size else 0.0
    if not left <= NUMPY_ERROR * max(scale, np.finfo(np.float64).tiny):
        raise NotImplementedError(f"nx_semiring: {name}: the power iteration's error "
                                  f"estimate {left:.3g} is above {NUMPY_ERROR:g} (NetworkX "
                                  f"runs it)")
    return x


def eigenvector_centrality_numpy(G, weight=None, max_iter=50, tol=0):
    """{node: eigenvector centrality} as NetworkX's ARPACK answer (to ~1e-12): the engine's
    power iteration on (A + I)ᵀ, run to NUMPY_TOL. A connected (strongly, when directed)
    graph with positive weights has a simple largest eigenvalue with a positive
    eigenvector (Perron–Frobenius), so the two agree; NetworkX's errors for the null graph
    and a disconnected one. ``max_iter`` and ``tol`` are ARPACK's: where its restarts would
    not converge NetworkX raises, the engine answers.

    Examples
    --------
    >>> import networkx as nx
    >>> c = nx.eigenvector_centrality_numpy(nx.path_graph(3), backend="semiring")
    >>> [round(c[v], 6) for v in range(3)]
    [0.5, 0.707107, 0.5]
    """
    nx = _nx()
    g = _graph(G, weight)
    if g.n == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if g.multigraph:
        raise NotImplementedError("nx_semiring: eigenvector_centrality_numpy of a multigraph "
                                  "(NetworkX's matrix sums parallel edges): NetworkX runs it")
    if g.directed:
        labels = alg.connected_components(g.matrix(), "strong")
    else:
        labels = alg.connected_components(g.matrix(), symmetric=True)
    if int(_host(labels).max()) != 0:
        raise nx.AmbiguousSolution("`eigenvector_centrality_numpy` does not give consistent "
                                   "results for disconnected graphs")
    if g.n <= 2:
        raise NotImplementedError("nx_semiring: eigenvector_centrality_numpy of at most 2 "
                                  "nodes: SciPy's eigs refuses k = 1 of a sparse 2 × 2 matrix "
                                  "(NetworkX raises its TypeError)")
    M, weighted = _weights(g, weight, "eigenvector_centrality_numpy")
    if weighted:
        w = g.weights(weight)
        if not bool((w > 0).all()) or (w.dtype.kind == "f" and not bool(np.isfinite(w).all())):
            raise NotImplementedError("nx_semiring: eigenvector_centrality_numpy with weights "
                                      "that are not positive and finite (Perron–Frobenius does "
                                      "not hold: NetworkX runs it)")
    x = _solve_by_iteration(lambda **kw: alg.eigenvector_centrality(M, weighted=weighted, **kw),
                            "eigenvector_centrality_numpy", g.n)
    # NetworkX's sign and norm: the eigenvector over sign(sum) · ‖x‖₂
    x = x / (np.sign(x.sum()) * np.linalg.norm(x))
    return _node_dict(g, x.tolist())


def katz_centrality_numpy(G, alpha=0.1, beta=1.0, normalized=True, weight=None):
    """{node: Katz centrality} as NetworkX's dense solve of (I - α Aᵀ) x = β (to ~1e-12): the
    engine's iteration x ← α Aᵀx + β, run to NUMPY_TOL, where it converges (α below
    1 / λ_max; else NetworkX's solve answers, NetworkX runs it). Keyed in ``beta``'s key
    order where it is a dict, as NetworkX's; normalized by sign(sum) · ‖x‖₂ as NetworkX's.

    Examples
    --------
    >>> import networkx as nx
    >>> c = nx.katz_centrality_numpy(nx.path_graph(3), backend="semiring")
    >>> [round(c[v], 6) for v in range(3)]
    [0.559885, 0.610784, 0.559885]
    """
    nx = _nx()
    g = _graph(G, weight)
    if g.multigraph:
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    if g.n == 0:
        return {}
    if isinstance(beta, dict):
        nodelist = list(beta.keys())
        if set(nodelist) != set(g.nodes):
            raise nx.NetworkXError("beta dictionary must have a value for every node")
        b = np.array(list(beta.values()), dtype=float)
    else:
        nodelist = g.nodes
        try:
            b = (np.ones((g.n, 1)) * beta).reshape(-1)
        except (TypeError, ValueError, AttributeError) as err:
            raise nx.NetworkXError("beta must be a number") from err
    if g.n == 1:
        raise NotImplementedError("nx_semiring: katz_centrality_numpy of one node (NetworkX's "
                                  "squeezed 0-d result raises its TypeError)")
    if not _plain(alpha) or b.dtype != np.float64 or not bool(np.isfinite(b).all()) or \
            not math.isfinite(float(alpha)):
        raise NotImplementedError("nx_semiring: katz_centrality_numpy with an alpha or beta "
                                  "that is not a finite 64-bit real (NetworkX runs it)")
    if isinstance(beta, dict):  # the engine's vertex order
        b = b[np.argsort([g.vertex(v) for v in nodelist], kind="stable")]
    M, weighted = _weights(g, weight, "katz_centrality_numpy")
    if weighted:
        w = g.weights(weight)
        if w.dtype.kind == "f" and not bool(np.isfinite(w).all()):
            raise NotImplementedError("nx_semiring: katz_centrality_numpy with weights NaN or "
                                      "inf (NetworkX runs it)")
    # the rounding floor of an iteration's L1 change grows with the values: a first run to
    # NetworkX's default tolerance gives their scale, the tolerance of a second run from it
    try:
        x0 = _host(alg.katz_centrality(M, float(alpha), b, normalized=False, weighted=weighted,
                                       max_iter=NUMPY_MAX_ITER, tol=KATZ_FIRST_TOL,
                                       progress=_watch([], g.n * KATZ_FIRST_TOL,
                                                       NUMPY_MAX_ITER)))
    except (alg.ConvergenceError, _Hopeless) as exc:
        raise NotImplementedError(f"nx_semiring: katz_centrality_numpy: the iteration diverges "
                                  f"or creeps (alpha near or above 1 / λ_max; NetworkX's solve "
                                  f"answers: NetworkX runs it): {exc}") from exc
    except (sr.InvalidValue, sr.DomainMismatch) as exc:
        raise NotImplementedError(f"nx_semiring: katz_centrality_numpy: {exc}") from exc
    scale = max(1.0, float(np.abs(x0).max()))
    x = _solve_by_iteration(lambda **kw: alg.katz_centrality(
        M, float(alpha), b, normalized=False, weighted=weighted, nstart=x0, **kw),
        "katz_centrality_numpy", g.n, scale)
    if normalized:
        # NetworkX's norm: sign(sum) · ‖x‖₂ (a zero sum would divide by 0: NetworkX's NaN)
        norm = np.sign(sum(x.tolist())) * np.linalg.norm(x)
        if norm == 0:
            raise NotImplementedError("nx_semiring: katz_centrality_numpy whose centralities "
                                      "sum to 0 (NetworkX divides by 0: NetworkX runs it)")
        x = x / norm
    vals = x.tolist()
    return {v: vals[g.vertex(v)] for v in nodelist}


def _hits_run(M, weighted, start):
    n = M.nrows
    tol = max(HITS_TOL, n * HITS_TOL_PER_VERTEX)
    try:
        return alg.hits(M, max_iter=HITS_MAX_ITER, tol=tol, nstart=start, weighted=weighted,
                        progress=_watch([], tol, HITS_MAX_ITER))
    except (alg.ConvergenceError, _Hopeless) as exc:
        raise NotImplementedError(f"nx_semiring: hits: the power iteration did not converge "
                                  f"in {HITS_MAX_ITER} iterations (a small spectral gap, "
                                  f"where ARPACK converges): NetworkX runs it ({exc})") from exc
    except (sr.InvalidValue, sr.DomainMismatch) as exc:
        raise NotImplementedError(f"nx_semiring: {exc}") from exc


def _hits_matrix(g):
    """(the engine matrix of ``weight``, weighted) for either hits; negative or non-finite
    weights are NetworkX's (its iterations run on them, the engine's refuse them)."""
    M, weighted = _weights(g, "weight", "hits")
    if weighted:
        w = g.weights("weight")
        if w.dtype.kind == "f" and not bool(np.isfinite(w).all()) or g.has_negative("weight"):
            raise NotImplementedError("nx_semiring: hits with negative or non-finite weights "
                                      "(NetworkX runs it)")
    return M, weighted


def _hits_svd(G, max_iter=100, tol=1e-08, nstart=None, normalized=True):
    """(hubs, authorities) as NetworkX's ``hits`` before 3.7 (3.7's ``method="svd"``): A's
    principal singular vectors, by the
    engine's power iteration on AᵀA (two SpMVs an iteration) to a tighter tolerance than
    ARPACK's. ``nstart`` only starts NetworkX's ARPACK; where the answer is unique it does not
    depend on it, and where it is not (checked by a second iteration from another start)
    NetworkX runs the call."""
    g = _graph(G, "weight")
    if g.n == 0:
        return {}, {}
    if g.n == 1:
        raise NotImplementedError("nx_semiring: hits of one node: ARPACK's svds refuses k = 1 "
                                  "of a 1 × 1 matrix (NetworkX raises it)")
    M, weighted = _hits_matrix(g)
    h, a = _hits_run(M, weighted, None)
    # a second start, positive and random (fixed seed): the same authorities unless A's
    # largest singular value is multiple, when each start gives its own (and ARPACK its own
    # random one). Not a regular sequence: 1 + frac(i φ) is an arithmetic progression on
    # vertices 4, 7, 10, which a path 4 - 7 - 10's AᵀA keeps as uniform's answer
    other = np.random.default_rng(HITS_SEED).uniform(1.0, 2.0, g.n)
    _, a2 = _hits_run(M, weighted, other)
    a_h, a2_h = _host(a), _host(a2)
    if float(np.abs(a_h - a2_h).max()) > HITS_SAME * float(np.abs(a_h).max()):
        raise NotImplementedError("nx_semiring: hits: the largest singular value of A is "
                                  "multiple; NetworkX's answer is ARPACK's pick (NetworkX runs it)")
    return _node_dict(g, _host(h).tolist()), _node_dict(g, a_h.tolist())


def _hits_power_iteration(G, max_iter, tol, nstart, normalized):
    """NetworkX 3.7's ``hits`` (its default ``method="power_iteration"``), its iteration on the
    engine: from h uniform (or ``nstart``, divided by its sum), ``a = Aᵀh``, ``h = A a`` scaled
    to a largest entry of 1, until h's L1 change is below ``tol``; then h and a divided by their
    sums (``normalized``; else a by its largest entry)."""
    nx = _nx()
    g = _graph(G, "weight")
    if g.n == 0:
        return {}, {}
    if nstart is None:
        h = np.full(g.n, 1.0 / g.n)
    else:
        missing = set(g.nodes) - nstart.keys()
        if missing:
            raise nx.NetworkXError(f"nstart must have a value for every node; missing: "
                                   f"{missing}")
        h = np.array([nstart[v] for v in g.nodes], dtype=float)
        s = h.sum()
        if s == 0:
            raise nx.NetworkXError("nstart values must not sum to zero")
        h = h / s
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    M, weighted = _hits_matrix(g)
    if host_route(M):  # (small GPU input: as algorithms.hits, on a host copy)
        M = M._host_copy()
    M, semiring = alg.centrality._weights("hits", M, weighted, M.xp)
    second = sr.plus_times if semiring is sr.plus_times else sr.plus_second
    h = sr.to_device(h, M.device)
    for _ in range(max_iter):
        hlast = h
        # a = Aᵀ ⊕.⊗ h;  h = A ⊕.⊗ a
        a = sr.vxm(hlast, M, semiring, direction="pull").to_dense(missing=0)
        h = sr.mxv(M, a, second, direction="pull").to_dense(missing=0)
        top = float(h.max())
        if not top > 0:  # NetworkX divides by 0 and iterates NaN to its failure
            raise NotImplementedError("nx_semiring: hits: no edge of positive weight along "
                                      "the start (NetworkX runs it)")
        h = h / top
        # (its two host reads, not one copy of both: a stack of the two costs a launch more
        # than the sync it saves, H200 session 30, bench/probes/hits_syncs.py)
        if float(abs(h - hlast).sum()) < tol:
            break
    else:
        raise nx.PowerIterationFailedConvergence(max_iter)
    if normalized:
        h = h / h.sum()
        a = a / a.sum()
    else:
        a = a / a.max()
    return _node_dict(g, _host(h).tolist()), _node_dict(g, _host(a).tolist())


if NX_RELEASE >= (3, 7):  # (3.7's signature)
    def hits(G, max_iter=100, tol=1e-08, nstart=None, normalized=True, *,
             method="power_iteration"):
        if method == "power_iteration":
            return _hits_power_iteration(G, max_iter, tol, nstart, normalized)
        if method == "svd":
            return _hits_svd(G, max_iter, tol, nstart, normalized)
        raise ValueError(f"method not supported: {method}")
else:
    def hits(G, max_iter=100, tol=1e-08, nstart=None, normalized=True):
        return _hits_svd(G, max_iter, tol, nstart, normalized)

hits.__doc__ = """(hubs, authorities) as the installed NetworkX's ``hits``: from 3.7 by ``method``,
    'power_iteration' (its default: its iteration on the engine, :func:`_hits_power_iteration`)
    or 'svd' (the singular vectors, :func:`_hits_svd`); before 3.7 the singular vectors (one
    definition or the other, so that the signature is the installed NetworkX's).

    Examples
    --------
    >>> import networkx as nx
    >>> h, a = nx.hits(nx.DiGraph([(0, 1), (0, 2), (1, 2)]), backend="semiring")
    >>> [round(h[v], 6) for v in range(3)], [round(a[v], 6) for v in range(3)]
    ([0.618034, 0.381966, 0.0], [0.0, 0.381966, 0.618034])
    """


def _distance_matrix(g, distance, name):
    """The engine matrix of the ``distance`` attribute (None: hop counts) and whether it is
    weighted; NotImplementedError where NetworkX's Dijkstra is not the engine's."""
    if distance is None:
        return g.matrix(), False
    _exact_sums(g, distance, sums="numpy")  # closeness and harmonic divide by the sums
    if g.has_negative(distance) or g.has_inf(distance):
        raise NotImplementedError(f"nx_semiring: {name} with negative or infinite distances "
                                  f"(NetworkX's Dijkstra decides what they give): NetworkX "
                                  f"runs it")
    w = g.weights(distance)
    if w.dtype.kind == "f" and bool(np.isnan(w).any()):
        raise NotImplementedError(f"nx_semiring: {name} with NaN distances (NetworkX runs it)")
    return g.matrix(distance), True


def _closeness_centrality(G, u, distance, wf_improved):
    if u is not None:
        raise NotImplementedError("nx_semiring: closeness_centrality of one node (NetworkX "
                                  "runs it)")
    g = _graph(G, distance)
    M, weighted = _distance_matrix(g, distance, "closeness_centrality")
    c = alg.closeness_centrality(M, wf_improved=bool(wf_improved), weighted=weighted)
    return _node_dict(g, _host(c).tolist())


if NX_RELEASE >= (3, 7):  # (3.7's signature)
    def closeness_centrality(G, u=None, distance=None, wf_improved=True, *, sp=None):
        if sp is not None:
            raise NotImplementedError("nx_semiring: closeness_centrality of precomputed "
                                      "distances sp= (NetworkX reads them): NetworkX runs it")
        return _closeness_centrality(G, u, distance, wf_improved)
else:
    def closeness_centrality(G, u=None, distance=None, wf_improved=True):
        return _closeness_centrality(G, u, distance, wf_improved)

closeness_centrality.__doc__ = """{node: closeness} from the engine's searches from every node
    (multi-source BFS, or SSSP with ``distance``), incoming distances as NetworkX's (it
    reverses a DiGraph). The signature is the installed NetworkX's: 3.7's ``sp=`` (distances
    the caller computed) is NetworkX's to read.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.closeness_centrality(nx.path_graph(3), backend="semiring")
    {0: 0.6666666666666666, 1: 1.0, 2: 0.6666666666666666}
    """


def harmonic_centrality(G, nbunch=None, distance=None, sources=None):
    """{node: harmonic centrality} from the engine's searches from every node (multi-source
    BFS, or SSSP with ``distance``), keyed in the order of ``set(G)`` as NetworkX's, its
    floats to the bit (its additions in its order).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.harmonic_centrality(nx.path_graph(3), backend="semiring")
    {0: 1.5, 1: 2.0, 2: 1.5}
    """
    if nbunch is not None or sources is not None:
        raise NotImplementedError("nx_semiring: harmonic_centrality with nbunch= or sources= "
                                  "(NetworkX runs it)")
    g = _graph(G, distance)
    M, weighted = _distance_matrix(g, distance, "harmonic_centrality")
    # NetworkX adds 1 / d(v, u) to u's value source v by source v, in the order of set(G):
    # the same additions in the same order give its floats to the bit (the engine's own
    # harmonic_centrality sums a batch of sources at once, which rounds otherwise). The
    # price on the GPU is a launch a source: H200, kron-14 193 ms against the batch sums' 71
    # (bench/results/session30/call6); NetworkX's own call takes minutes there
    keys = list(set(g.nodes))
    order = np.fromiter(map(g.vertex, keys), dtype=np.int64, count=len(keys))
    xp = M.xp
    h = xp.zeros(g.n, dtype=np.float64)
    for _, D in alg.centrality._distance_batches("harmonic_centrality", M, weighted, None,
                                                 order=order):
        # (0 < d < ∞ only: NetworkX skips a distance of 0, itself and zero-weight paths)
        R = xp.where(xp.isfinite(D) & (D > 0), 1.0 / xp.where(D > 0, D, 1.0), 0.0)
        for row in R:  # h += 1 / d(v, ·), one source at a time
            h += row
    h = _host(h).tolist()
    # NetworkX starts every node at the int 0 and adds 1 / d: a node that no other reaches
    # keeps the int (every term is positive, so only those stay 0)
    return {k: h[g.vertex(k)] or 0 for k in keys}


def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None):
    """{edge: betweenness} by the engine's batched Brandes accumulated onto the edges
    (:func:`algorithms.edge_betweenness_centrality`; unweighted), keyed as
    NetworkX keys it (``G.edges()``, in its order), NetworkX's sampling (``k``, ``seed``)
    and rescaling; its floats to rounding (NetworkX adds the sources' terms in its order).

    Edges whose betweenness is mathematically equal (a hypercube's, a grid's mirror images)
    come out of NetworkX with different last bits, by its order of additions, and out of
    the engine with others: ``max(..., key=...)`` over the result (``girvan_newman``'s
    default ``most_valuable_edge``) may then pick another of the tied edges than NetworkX
    picks (session 19: 4 of 11 small symmetric graphs; 0 of 300 random G(20, 35)).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.edge_betweenness_centrality(nx.path_graph(3), normalized=False, backend="semiring")
    {(0, 1): 2.0, (1, 2): 2.0}
    """
    g = _graph(G)
    if weight is not None:
        raise NotImplementedError("nx_semiring: weighted edge betweenness is not supported")
    if g.multigraph:
        raise NotImplementedError("nx_semiring: edge_betweenness_centrality of a multigraph "
                                  "(NetworkX splits each edge's value among its keys)")
    m = int(g.adj.size)
    rows = g.rows()
    # G.edges(): every entry of a DiGraph; an undirected edge once, from its earlier node
    sel = np.arange(m) if g.directed else np.flatnonzero(g.adj >= rows)
    us, vs = g.labels(rows[sel]), g.labels(g.adj[sel])
    pairs = {v for v in g.nodes if isinstance(v, tuple) and len(v) == 2}
    if pairs and any((u, v) in pairs or (v, u) in pairs for u, v in zip(us, vs)):
        # NetworkX keeps nodes and edges in one dict and deletes the nodes' keys at the end:
        # an edge whose (u, v) or (v, u) is a node loses its value there
        raise NotImplementedError("nx_semiring: edge_betweenness_centrality of a graph with "
                                  "an edge (u, v) that is also a node (NetworkX's node and "
                                  "edge keys collide): NetworkX runs it")
    k, seed, sources = _sampled_sources(g, k, seed, "edge_betweenness_centrality",
                                        whole=False)
    try:
        # NetworkX reads normalized by its truth (its "if normalized:")
        C = alg.edge_betweenness_centrality(g.matrix(), k=k, normalized=bool(normalized),
                                            sources=sources, directed=g.directed,
                                            seed=seed if k is not None else None)
    except (sr.DomainMismatch, sr.InvalidValue) as exc:
        raise NotImplementedError(f"nx_semiring: edge_betweenness_centrality: {exc}") from exc
    vals = np.empty(m, dtype=np.float64)
    if m:  # the engine's CSR order (g.order()) back to the adjacency order
        vals[g.order()] = _host(C.values)
    return dict(zip(zip(us, vs), vals[sel].tolist()))
