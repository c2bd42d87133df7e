"""Dispatched all-pairs and multi-source paths, distance measures, flow values and matchings.

The conventions of :mod:`nx_semiring.algorithms` (NetworkX's signatures, result types and
errors; ``NotImplementedError`` where the engine's answer would not be NetworkX's, so that
NetworkX answers) hold here too, and the helpers are that module's. What this module adds:

- all-pairs generators (``all_pairs_dijkstra_path_length``, ``all_pairs_bellman_ford_path_length``,
  ``all_pairs_shortest_path``, ``all_pairs_dijkstra_path``) are one single-source run a
  node, as NetworkX's; every refusal is decided by the call, before the generator is returned
  (NetworkX's dispatcher falls back only then). ``all_pairs_dijkstra_path`` returns paths only
  where every shortest path is the only one (:func:`_tied_targets`), since NetworkX's Dijkstra
  picks among ties by its heap order: all sources are searched up front for that check.
- ``floyd_warshall`` / ``floyd_warshall_predecessor_and_distance``: the engine's APSP, as
  NetworkX's dict of defaultdicts. NetworkX's Floyd–Warshall adds the weights of a path in
  its pivots' order, the engine in another, so float weights run here only where every path
  sum is exact in any order (:func:`_exact_float_sums`); the predecessors only where no shortest
  path ties (NetworkX's pivot order picks among ties).
- ``eccentricity`` and the measures built on it (``diameter``, ``radius``, ``center``,
  ``periphery``): the engine's multi-source BFS (unweighted) or one SSSP a node (weighted),
  the measures from the eccentricities exactly as NetworkX's code does; ``usebounds=True``
  (NetworkX's bounding search) gives the same answers, its own error. ``center`` of a tree
  (NetworkX's tree center) is NetworkX's.
- ``maximum_flow_value`` / ``minimum_cut_value``: the engine's maximum flow on NetworkX's
  residual capacities (an edge without the attribute, or of capacity inf, is infinite:
  NetworkXUnbounded where such edges join source and sink, else NetworkX's stand-in for
  infinity, three times the finite capacities' sum). Integer capacities only (the engine's
  flows are integers; with a float capacity NetworkX's value is a float or an int as its
  path minima fall, so :meth:`~nx_semiring.interface.BackendInterface.can_run` leaves such
  graphs to NetworkX).
- ``hopcroft_karp_matching``: the engine's maximum matching where the maximum matching is
  unique (:func:`_unique_matching`); NetworkX's search picks one among several otherwise.
  Both matchings are keyed as NetworkX keys them, in the iteration order of the Python sets
  ``bipartite.sets`` returns (:func:`_side_orders` builds the same sets the same way).

- ``bipartite.minimum_weight_full_matching``: the engine's LAPJVsp where the cheapest full
  matching is the only one of its weight (:func:`_unique_assignment`: NetworkX's dense
  ``linear_sum_assignment`` picks its own among ties).
- ``floyd_warshall`` and its predecessor variant refuse integer weights beside edges without
  the attribute (``SemiringGraph.mixed``): NetworkX reads those as 1.0 and its distances are
  ints or floats path by path.
"""

from __future__ import annotations

import collections
import math

import numpy as np
import scipy.sparse as sp

import algorithms as alg
import semiring as sr
from semiring.backend.cpu import compiled as _cpu_compiled

from . import NX_RELEASE
from .algorithms import (_alias, _all_pairs_refusals, _bellman_ford, _bfs_level,
                         _bidirectional_aliases, _by_distance, _dijkstra, _dijkstra_orders,
                         _discovery, _exact_float_sums, _exact_sums, _fw_negative_cycle, _gc_paused,
                         _graph, _negative_zeros, _heap_pred_lists, _heap_tree, _host,
                         _single_source_dijkstra, _nbunch, _nx, _order_level, _ordered_levels,
                         _path_dict, _paths_from, _real_cutoff, _first_paths, _source, _source_zero,
                         _spfa_order, _spfa_tree, _sssp, _st_unweighted_path, _unique_path,
                         _unreached, _values_of, _walk_paths, _with_virtual_source, APSP_BFS_BATCH,
                         negative_edge_cycle, single_source_dijkstra,
                         single_source_bellman_ford_path_length, single_source_dijkstra_path_length,
                         single_source_shortest_path, single_source_shortest_path_length)
from .graph import SemiringGraph, from_networkx
from .recognition import _colour_order

# Sources per block of the tie check over all pairs: a block's (sources × edges) arrays
# stay near TIE_BLOCK_ENTRIES entries (32 MiB of int64).
TIE_BLOCK_ENTRIES = 1 << 22

# Weighted eccentricities of more than one node take one APSP (dense n × n distances) up to
# this many vertices (128 MiB of float64), else one SSSP a node: on a 19-vertex graph one
# apsp call took 1.1 ms against 2.2 ms for 19 sssp calls (2-core helper, loaded, 50 calls)
ECC_APSP_MAX_N = 4096

# NetworkX's maximum-flow functions (networkx.algorithms.flow): each returns the maximum
# flow's value, the engine's
FLOW_FUNCS = ("boykov_kolmogorov", "dinitz", "edmonds_karp", "preflow_push",
              "shortest_augmenting_path")

# The engine's push–relabel sums capacities in int64 (algorithms.flow.MAX_TOTAL_CAPACITY)
MAX_TOTAL_CAPACITY = 2**61


def _edges(g: SemiringGraph):
    """(rows, columns) of the stored entries in adjacency order (host int64)."""
    return g.rows(), g.adj


def _method(weight):
    return "unweighted" if weight is None else "dijkstra"


# --------------------------------------------------------------------------- all pairs
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    """``(node, {target: distance})`` for every node, one engine SSSP a node.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3})])
    >>> dict(nx.all_pairs_dijkstra_path_length(G, backend="semiring"))[2]
    {2: 0, 1: 3, 0: 5}
    """
    g = _graph(G, weight)
    _real_cutoff(cutoff)
    _all_pairs_refusals(g, weight, _method(weight), paths=False)
    return ((v, single_source_dijkstra_path_length(g, v, cutoff=cutoff, weight=weight))
            for v in g.nodes)


def all_pairs_bellman_ford_path_length(G, weight="weight"):
    """``(node, {target: distance})`` for every node, negative weights allowed, one engine
    Bellman–Ford a node (NetworkXUnbounded from the first node that reaches a negative
    cycle, as NetworkX's generator raises it).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 2, {"weight": -1}), (0, 1, {"weight": 4}), (2, 3, {"weight": -2})])
    >>> dict(nx.all_pairs_bellman_ford_path_length(G, backend="semiring"))[0]
    {0: 0, 2: -1, 1: 4, 3: -3}
    """
    nx = _nx()
    g = _graph(G, weight)
    _all_pairs_refusals(g, weight, "unweighted" if weight is None else "bellman-ford",
                        paths=False)
    # every source searched now: a search whose order NetworkX's queue decides
    # (_spfa_order) refuses the call, which a generator's refusal could not
    out, unbounded = [], None
    for v in g.nodes:
        try:
            out.append((v, single_source_bellman_ford_path_length(g, v, weight=weight)))
        except nx.NetworkXUnbounded as exc:
            unbounded = exc
            break

    def generate():
        yield from out
        if unbounded is not None:
            raise nx.NetworkXUnbounded("Negative cycle detected.")

    return generate()


def all_pairs_shortest_path(G, cutoff=None):
    """``(node, {target: path})`` for every node: the paths NetworkX's BFS finds (its
    adjacency order), by the engine's BFS a node.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_shortest_path(nx.path_graph(3), backend="semiring"))[0]
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    g = _graph(G)
    return ((v, single_source_shortest_path(g, v, cutoff=cutoff)) for v in g.nodes)


def _tied_targets(g: SemiringGraph, dist, sources, weight, keep=None):
    """Whether some target has several shortest paths from its source: row r of ``dist``
    holds the distances from vertex ``sources[r]``. A reached target v ≠ s has one shortest
    path exactly when one of its in-edges (u, v), u ≠ v, is *tight*: u reached and
    dist[u] + w(u, v) == dist[v] (by induction towards the source). ``keep``: the targets
    NetworkX reports per row (a cutoff's), default the reached ones."""
    rows, cols = _edges(g)
    off = rows != cols
    u, v = rows[off], cols[off]
    w = np.int64(1) if weight is None else g.weights(weight)[off]
    n = g.n
    block = max(1, TIE_BLOCK_ENTRIES // max(1, u.size, n))
    for b in range(0, len(sources), block):
        src = np.asarray(sources[b:b + block], dtype=np.int64)
        D = dist[b:b + block]
        du, dv = D[:, u], D[:, v]
        with np.errstate(over="ignore", invalid="ignore"):
            tight = ~_unreached(du) & (du + w == dv) & (v[None, :] != src[:, None])
        if keep is not None:
            tight &= keep[b:b + block][:, v]
        r, e = np.nonzero(tight)
        if r.size and bool((np.bincount(r * n + v[e], minlength=src.size * n) > 1).any()):
            return True
    return False


def all_pairs_dijkstra_path(G, cutoff=None, weight="weight"):
    """``(node, {target: shortest path})`` for every node, by the engine's SSSP a node.

    Only where every shortest path is the only one (with ties NetworkX's heap order picks
    one, and NetworkX answers): all sources are searched when the call is made, the paths
    built as the generator is read.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 1}), (1, 2, {"weight": 1}), (0, 2, {"weight": 5})])
    >>> dict(nx.all_pairs_dijkstra_path(G, backend="semiring"))[0]
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    g = _graph(G, weight)
    runs = _all_pairs_dijkstra_runs(g, cutoff, weight)
    return ((g.nodes[s], _path_dict(g, order, parent, s)) for s, _, order, parent in runs)


def _all_pairs_dijkstra_runs(g, cutoff, weight):
    """``(s, dist, pops, parent)`` of NetworkX's Dijkstra from every node, after NetworkX's
    refusals: its pop order and path tree by its heap compiled (:func:`_heap_tree`: its own
    paths among ties); where that cannot run, the engine's predecessors, and
    NotImplementedError where some pair is joined by several shortest paths. All searched
    now (a refusal from the generator would not reach NetworkX's dispatcher)."""
    _real_cutoff(cutoff)
    _all_pairs_refusals(g, weight, _method(weight), paths=True)
    if _cpu_compiled.ENABLED:
        out = []
        for v in g.nodes:
            s, dist, _, keep = _dijkstra(g, v, cutoff, weight, predecessors=False)
            tree = _heap_tree(g, [s], dist, keep, weight, cutoff)
            if tree is None:
                break
            out.append((s, dist, tree[0], tree[2]))
        else:
            return out
    runs = [_dijkstra(g, v, cutoff, weight) for v in g.nodes]
    if runs:
        dist = np.stack([r[1] for r in runs])
        keep = np.stack([r[3] for r in runs])
        if _tied_targets(g, dist, np.arange(g.n), weight, keep):
            raise NotImplementedError("nx_semiring: several shortest paths join some pair; "
                                      "NetworkX's Dijkstra picks its own (NetworkX runs it)")
    return [(s, dist, _dijkstra_orders(g, [s], dist, keep, weight, cutoff)[0], pred)
            for s, dist, pred, keep in runs]


def all_pairs_dijkstra(G, cutoff=None, weight="weight"):
    """``(node, (distances, paths))`` for every node, by the engine's SSSP a node: as
    :func:`all_pairs_dijkstra_path`, only where every shortest path is the only one.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 1}), (1, 2, {"weight": 1}), (0, 2, {"weight": 5})])
    >>> dict(nx.all_pairs_dijkstra(G, backend="semiring"))[0]
    ({0: 0, 1: 1, 2: 2}, {0: [0], 1: [0, 1], 2: [0, 1, 2]})
    """
    g = _graph(G, weight)
    runs = _all_pairs_dijkstra_runs(g, cutoff, weight)
    return ((g.nodes[s], _lengths_and_paths(g, s, dist, order, parent))
            for s, dist, order, parent in runs)


def _lengths_and_paths(g: SemiringGraph, s, dist, order, parent):
    """NetworkX's single-source ``(distances, paths)`` from vertex ``s``, both in its pop
    order ``order``, the paths along ``parent``."""
    lengths = _source_zero(g, s, dict(zip(g.labels(order), _values_of(dist[order]))))
    return lengths, _path_dict(g, order, parent, s)


def all_pairs_bellman_ford_path(G, weight="weight"):
    """``(node, {target: shortest path})`` for every node, negative weights allowed, by the
    engine's Bellman–Ford a node; only where every shortest path is the only one (NetworkX's
    predecessor lists pick among ties). All sources are searched when the call is made; a
    negative cycle reached from a node raises NetworkXUnbounded where NetworkX's generator
    does, after the earlier nodes' paths.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 2, {"weight": -1}), (0, 1, {"weight": 4}), (2, 3, {"weight": -2})])
    >>> dict(nx.all_pairs_bellman_ford_path(G, backend="semiring"))[0]
    {0: [0], 2: [0, 2], 1: [0, 1], 3: [0, 2, 3]}
    """
    nx = _nx()
    g = _graph(G, weight)
    _all_pairs_refusals(g, weight, "unweighted" if weight is None else "bellman-ford",
                        paths=True)
    runs, unbounded = [], None
    for v in g.nodes:
        try:
            runs.append(_bellman_ford(g, v, weight))
        except nx.NetworkXUnbounded as exc:
            unbounded = exc
            break
    # NetworkX's queue loop compiled, a source: its first paths among ties
    trees = [_spfa_tree(g, s, dist, keep, weight) for s, dist, _, keep in runs]
    if all(t is not None for t in trees):
        def searched():
            for (s, _, _, _), tree in zip(runs, trees):
                yield g.nodes[s], _first_paths(g, s, *tree)
            if unbounded is not None:
                raise nx.NetworkXUnbounded("Negative cycle detected.")

        return searched()
    if runs:
        dist = np.stack([r[1] for r in runs])
        keep = np.stack([r[3] for r in runs])
        if _tied_targets(g, dist, np.array([r[0] for r in runs]), weight, keep):
            raise NotImplementedError("nx_semiring: several shortest paths join some pair; "
                                      "NetworkX's Bellman–Ford picks its own (NetworkX runs "
                                      "it)")

    # NetworkX's queue order a source, refused now rather than by the generator
    orders = [_spfa_order(g, s, dist, keep, weight) for s, dist, _, keep in runs]

    def generate():
        for (s, dist, pred, keep), order in zip(runs, orders):
            yield g.nodes[s], _path_dict(g, order, pred, s)
        if unbounded is not None:
            raise nx.NetworkXUnbounded("Negative cycle detected.")

    return generate()


def johnson(G, weight="weight"):
    """{source: {target: shortest path}} over all pairs, negative weights allowed
    (NetworkXUnbounded for a negative cycle): the engine's APSP, each path NetworkX's
    Dijkstra's over the reweighted edges, its heap loop compiled
    (:func:`~nx_semiring.algorithms._heap_tree`: its own among ties). Without Numba, each
    path walked back along the one tight in-edge of each node, keyed in that Dijkstra's pop
    order (:func:`~nx_semiring.algorithms._dijkstra_orders`), only where every shortest
    path is the only one. Every sum exact only (NetworkX's reweighting adds and subtracts
    potentials, whose float rounding would break ties its own way).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 4}), (0, 2, {"weight": 1}), (2, 1, {"weight": -2})])
    >>> nx.johnson(G, backend="semiring")[0]  # NetworkX's Dijkstra's order (reweighted)
    {0: [0], 2: [0, 2], 1: [0, 2, 1]}
    """
    nx = _nx()
    g = _graph(G, weight)
    if g.n == 0:
        return {}
    _exact_sums(g, weight, sums=False)  # paths only
    w = np.ones(g.adj.size, dtype=np.int64) if weight is None else g.weights(weight)
    if w.dtype.kind == "f" and not bool(np.isfinite(w).all()):
        raise NotImplementedError("nx_semiring: johnson with weights NaN or inf (NetworkX's "
                                  "comparisons decide; NetworkX runs it)")
    # the reweighted sums w(u, v) + h(u) - h(v) along a path reach about 3 n max |w|
    if not _exact_float_sums(4 * w, g.n):
        raise NotImplementedError("nx_semiring: float weights whose reweighted sums round "
                                  "(NetworkX runs it)")
    if g.has_negative(weight) and negative_edge_cycle(g, weight=weight):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    D = _fw_distances(g, weight, sums=False)  # paths only
    rows, cols = _edges(g)
    nodes, n = g.nodes, g.n
    # NetworkX's potentials: its Bellman–Ford from every node at 0, min(0, least distance in)
    Dm = np.where(_unreached(D), 0, D)
    h = np.minimum(Dm.min(axis=0), 0)
    wr = w + h[rows] - h[cols]  # the stored entries' reweighted weights
    if _cpu_compiled.ENABLED:
        # NetworkX's Dijkstra over the reweighted edges, its heap loop compiled: its own
        # paths among ties (session 24); where it leaves the engine's distances, as below
        out = {}
        for s in range(n):
            reached = ~_unreached(D[s])
            with np.errstate(invalid="ignore"):
                dr = np.where(reached, D[s] + h[s] - h, D[s])
            tree = _heap_tree(g, [s], dr, reached, wr, None)
            if tree is None:
                break
            with _gc_paused():
                out[nodes[s]] = _paths_from(nodes, tree[0], tree[2].tolist(), s)
        else:
            return out
    if _tied_targets(g, D, np.arange(g.n), weight):
        raise NotImplementedError("nx_semiring: several shortest paths join some pair; "
                                  "NetworkX's Dijkstra picks its own (NetworkX runs it)")
    off = rows != cols
    u, v = rows[off], cols[off]
    we = np.int64(1) if weight is None else g.weights(weight)[off]
    out = {}
    block = max(1, TIE_BLOCK_ENTRIES // max(1, u.size, n))
    for b in range(0, n, block):
        src = np.arange(b, min(n, b + block), dtype=np.int64)
        Db = D[b:b + block]
        du, dv = Db[:, u], Db[:, v]
        with np.errstate(over="ignore", invalid="ignore"):
            tight = ~_unreached(du) & (du + we == dv) & (v[None, :] != src[:, None])
        r, e = np.nonzero(tight)
        pred = np.full((src.size, n), -1, dtype=np.int64)
        pred[r, v[e]] = u[e]
        for i, s in enumerate(src.tolist()):
            reached = ~_unreached(Db[i])
            # NetworkX's paths are keyed in its Dijkstra's pops over the reweighted edges
            # w + h(u) - h(v): distances D + h(s) - h(v), exact (checked above)
            with np.errstate(invalid="ignore"):
                dr = np.where(reached, Db[i] + h[s] - h, Db[i])
            order = _dijkstra_orders(g, [s], dr, reached, wr)[0]
            with _gc_paused():
                out[nodes[s]] = _paths_from(nodes, order, pred[i].tolist(), s)
    return out


# --------------------------------------------------------------------------- Floyd–Warshall
def _fw_distances(g: SemiringGraph, weight, sums=True):
    """The host (n × n) matrix of NetworkX's Floyd–Warshall distances (the attribute's
    type; the type's maximum or inf where unreachable), by the engine's APSP. Self-loops of
    weight >= 0 do not count (NetworkX starts each node at 0). A negative cycle (or
    self-loop) is NetworkX 3.7's NetworkXUnbounded; earlier releases return their own
    negative diagonal, so that is refused, as are NaN and float sums whose rounding depends
    on the order. ``sums``: as ``_exact_sums``'."""
    rows, cols = _edges(g)
    _exact_sums(g, weight, sums)  # narrow NumPy scalars: NetworkX adds in their type
    w = np.ones(cols.size, dtype=np.int64) if weight is None else g.weights(weight)
    if w.dtype.kind == "f" and (bool(np.isnan(w).any()) or bool(np.isneginf(w).any())):
        raise NotImplementedError("nx_semiring: NaN or -inf weights (NetworkX's comparisons "
                                  "decide; NetworkX runs it)")
    loop = rows == cols
    if bool((w[loop] < 0).any()):
        raise _fw_negative_cycle()
    if not _exact_float_sums(w, g.n):
        raise NotImplementedError("nx_semiring: float weights whose path sums round "
                                  "differently in NetworkX's order of additions (NetworkX "
                                  "runs it)")
    off = ~loop
    dev = g.device
    A = sr.Matrix.from_coo(sr.to_device(rows[off], dev), sr.to_device(cols[off], dev),
                           sr.to_device(w[off], dev), nrows=g.n, ncols=g.n, device=dev)
    try:
        return _host(alg.apsp(A))
    except sr.NegativeCycleError as exc:
        raise _fw_negative_cycle() from exc
    except (sr.InvalidValue, alg.DistanceOverflow) as exc:
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc


def _fw_types(g: SemiringGraph, weight):
    """Refuses weights of one number type beside edges without the attribute, whose default
    is of the other: NetworkX's Floyd–Warshall reads a missing weight as 1.0 before 3.7 (as
    1 from 3.7 on), so beside integer (float) weights its distances are ints or floats path
    by path (and ``True`` where a bool weight is an edge's own distance)."""
    narrow = g.narrow.get(weight) if weight is not None else None
    if weight is not None and weight in g.bools:
        raise NotImplementedError("nx_semiring: Python bool weights (NetworkX's Floyd–Warshall "
                                  "keeps an edge's own True as its distance; NetworkX runs "
                                  "it)")
    if narrow is not None and narrow.kind == "b":
        raise NotImplementedError("nx_semiring: NumPy bool weights (NetworkX's Floyd–Warshall "
                                  "adds two of them as a logical or: np.True_ + np.True_ is "
                                  "np.True_; NetworkX runs it)")
    # the weights whose type NetworkX's default for a missing one is not: 1 from 3.7 on
    kinds, kind, default = ("f", "float", 1) if NX_RELEASE >= (3, 7) else ("biu", "integer", 1.0)
    if weight is not None and weight in g.mixed and g.weights(weight).dtype.kind in kinds:
        raise NotImplementedError(f"nx_semiring: {kind} weights beside edges without them "
                                  f"(NetworkX's {default}): its distances mix ints and floats "
                                  f"path by path (NetworkX runs it)")
    if _one_sided(g, weight):
        raise NotImplementedError("nx_semiring: an undirected view whose two directions of an "
                                  "edge weigh differently (NetworkX's Floyd–Warshall reads "
                                  "one of them: NetworkX runs it)")
    if weight is not None and _negative_zeros(g.weights(weight)):
        raise NotImplementedError("nx_semiring: -0.0 weights (NetworkX's Floyd–Warshall keeps "
                                  "an edge's -0.0 as its distance and passes it on along "
                                  "paths; NetworkX runs it)")


def _one_sided(g: SemiringGraph, weight) -> bool:
    """Whether an undirected graph stores another weight for (u, v) than for (v, u) (an
    undirected view of a DiGraph with both edges): NetworkX's Floyd–Warshall reads
    ``G.edges()``, one of the two for both directions."""
    if g.directed or weight is None:
        return False
    rows, cols = _edges(g)
    w = g.weights(weight)
    a = np.argsort(rows * g.n + cols, kind="stable")
    b = np.argsort(cols * g.n + rows, kind="stable")
    return not np.array_equal(w[a], w[b])


def _key_orders(g: SemiringGraph):
    """Each row's keys (vertex indices) in the order NetworkX's Floyd–Warshall inserts them
    into ``dist[u]``, then the first pivot w₀ and every other node in node order (the first
    pivot's pass reads ``dist[u][w₀]`` and ``dist[u][v]`` of every v, which inserts them).
    Before 3.7: u (the zero diagonal), then the edges' ends as ``G.edges()`` yields the edges
    (undirected: u's earlier neighbours by node order, then its later ones in adjacency
    order). From 3.7 on: u's neighbours in ``G._adj[u]``'s order (a self-loop at its place),
    then u (its zero diagonal, set after them)."""
    n = g.n
    since_37 = NX_RELEASE >= (3, 7)
    for i in range(n):
        nbrs = g.adj[g.indptr[i]:g.indptr[i + 1]]
        if since_37:
            yield list(dict.fromkeys([*nbrs.tolist(), i, 0, *range(n)]))
            continue
        if not g.directed:
            nbrs = np.concatenate([np.sort(nbrs[nbrs < i]), nbrs[nbrs > i]])
        yield list(dict.fromkeys([i, *nbrs.tolist(), 0, *range(n)]))


def _distance_dicts(g: SemiringGraph, D, weight) -> dict:
    """NetworkX's ``dict(dist)``: {u: defaultdict(inf, {v: distance})} over every pair, keys
    in NetworkX's insertion order (:func:`_key_orders`), the diagonal its int 0, distances
    floats where NetworkX adds floats: before 3.7 an edge without the attribute is its 1.0
    (and every edge with ``weight=None``); from 3.7 on its 1."""
    inf = float("inf")
    nodes = g.nodes
    since_37 = NX_RELEASE >= (3, 7)
    as_float = not since_37 and (weight is None or weight in g.partial)
    # NetworkX's dist[u][u] = min(e_weight, 0) over u's self-loops keeps the loop's 0.0
    # where it weighs a float zero (min returns its first argument among equals); 3.7 sets
    # the diagonal's int 0 after the edges
    zero = {}
    if not since_37 and weight is not None and g.weights(weight).dtype.kind == "f":
        rows, w = g.rows(), g.weights(weight)
        for i in np.flatnonzero((rows == g.adj) & (w == 0)).tolist():
            zero[int(rows[i])] = float(w[i])
    out = {}
    for i, keys in zip(range(g.n), _key_orders(g)):
        row = D[i]
        if row.dtype.kind in "iu":
            big = np.iinfo(row.dtype).max
            vals = row.astype(np.float64) if as_float else row
            vals = [inf if x == big else v for x, v in zip(row.tolist(), vals.tolist())] \
                if (row == big).any() else vals.tolist()
        else:
            vals = row.tolist()
        vals[i] = zero.get(i, 0)
        out[nodes[i]] = collections.defaultdict(lambda: inf,
                                                ((nodes[j], vals[j]) for j in keys))
    return out


def floyd_warshall(G, weight="weight"):
    """{u: {v: distance}} (NetworkX's dict of defaultdicts, ``inf`` where unreachable) by the
    engine's APSP.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3})])
    >>> d = nx.floyd_warshall(G, backend="semiring")
    >>> sorted(d[0].items())  # (the keys' order is the installed NetworkX's)
    [(0, 0), (1, 2), (2, 5)]
    """
    g = _graph(G, weight)
    if g.n == 0:
        return {}
    _fw_types(g, weight)
    return _distance_dicts(g, _fw_distances(g, weight), weight)


def floyd_warshall_predecessor_and_distance(G, weight="weight"):
    """``(pred, dist)`` as NetworkX's: ``pred[u][v]`` the node before v on the shortest path
    from u (and ``pred[u][u] = u`` at a self-loop), ``dist`` as :func:`floyd_warshall`.

    Only where no two shortest paths tie (NetworkX's pivot order picks among them) and no
    edge weighs inf (NetworkX records such an edge as a predecessor at distance inf). Both
    dicts are NetworkX's to the repr: ``pred``'s keys in its insertion order
    (:func:`_pred_key_orders`), ``dist``'s key order and number types.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3})])
    >>> pred, dist = nx.floyd_warshall_predecessor_and_distance(G, backend="semiring")
    >>> pred[0], dist[0][2]
    ({1: 0, 2: 1}, 5)
    """
    g = _graph(G, weight)
    if g.n == 0:
        return {}, {}
    _fw_types(g, weight)
    if g.has_inf(weight):
        raise NotImplementedError("nx_semiring: Floyd–Warshall predecessors with edges of "
                                  "weight inf (NetworkX runs it)")
    D = _fw_distances(g, weight)
    if _tied_targets(g, D, np.arange(g.n), weight):
        raise NotImplementedError("nx_semiring: several shortest paths join some pair; "
                                  "NetworkX's pivot order picks the predecessor (NetworkX "
                                  "runs it)")
    rows, cols = _edges(g)
    off = rows != cols
    u, v = rows[off], cols[off]
    w = np.int64(1) if weight is None else g.weights(weight)[off]
    found = {}  # vertex -> {target vertex: predecessor vertex}
    block = max(1, TIE_BLOCK_ENTRIES // max(1, u.size))
    for b in range(0, g.n, block):
        src = np.arange(b, min(g.n, b + block), dtype=np.int64)
        Db = D[b:b + block]
        du, dv = Db[:, u], Db[:, v]
        with np.errstate(over="ignore", invalid="ignore"):
            tight = ~_unreached(du) & (du + w == dv) & (v[None, :] != src[:, None])
        r, e = np.nonzero(tight)
        for i, t, p in zip((src[r]).tolist(), v[e].tolist(), u[e].tolist()):
            found.setdefault(i, {})[t] = p
    for x in rows[~off].tolist():  # NetworkX's pred[u][u] = u of a self-loop
        found.setdefault(x, {})[x] = x
    nodes = g.nodes
    pred = {}
    for i, keys in _pred_key_orders(g):
        row = found[i]
        pred[nodes[i]] = {nodes[t]: nodes[row[t]] for t in keys}
    return pred, _distance_dicts(g, D, weight)


def _pred_key_orders(g: SemiringGraph):
    """``(u, [v, ...])`` in the order NetworkX's Floyd–Warshall inserts ``pred[u]`` and its
    keys: the edges first, as ``G.edges()`` yields them before 3.7 (an undirected edge from
    its earlier end, ``pred[u][v]`` then ``pred[v][u]``), as ``G._adj`` holds them from 3.7
    on (u by u, each u's in its adjacency order), then each pair that its pivot loop first
    finds a path for, by (pivot, v): the first pivot k at which u reaches v through
    intermediate vertices up to k (a boolean Floyd–Warshall over the pivots, n passes of
    n² bits, where NetworkX's own loop costs n³ Python steps). The engine's order of the
    tight entries this replaced differed, and a caller reading ``pred[u]`` in order
    (NetworkX's tests, ``reconstruct_path`` callers listing ``pred[u]``) saw it."""
    n = g.n
    rows, cols = _edges(g)
    if g.directed or NX_RELEASE >= (3, 7):  # (3.7 reads G._adj, both ends of an edge)
        owner, key = rows, cols
    else:  # G.edges(): (u, v) with v not before u, then NetworkX's pred[v][u] beside it
        e = cols >= rows
        owner = np.stack((rows[e], cols[e]), axis=1).reshape(-1)
        key = np.stack((cols[e], rows[e]), axis=1).reshape(-1)
    reach = np.zeros((n, n), dtype=np.bool_)
    reach[rows, cols] = True
    np.fill_diagonal(reach, False)
    first = np.full((n, n), -1, dtype=np.int64)
    for k in range(n):
        new = np.outer(reach[:, k], reach[k, :])
        new &= ~reach
        np.fill_diagonal(new, False)
        if new.any():
            first[new] = k
            reach |= new
    seen_owner = dict.fromkeys(owner.tolist())
    by_owner = {}
    for x, y in zip(owner.tolist(), key.tolist()):
        by_owner.setdefault(x, {})[y] = None
    for x in seen_owner:
        later = np.flatnonzero(first[x] >= 0)
        later = later[np.argsort(first[x][later], kind="stable")]
        yield x, [*by_owner[x], *later.tolist()]


# --------------------------------------------------------------------------- more sources
def _multi_source(g: SemiringGraph, sources, cutoff, weight, predecessors=False):
    """``(src, first, dist, pred, keep)`` of NetworkX's multi-source Dijkstra: the source
    vertices (sorted), each one's first object in ``sources``, the host distances from the
    nearest source and predecessors (a source's is the virtual vertex n; ``None`` unless
    asked), and the vertices NetworkX reports (reached within ``cutoff``, the sources
    always). NetworkX's checks and messages first; ``dist`` is ``None`` where ``sources``
    was an iterator that its own check emptied (NetworkX then searches from nothing). The
    engine's SSSP from a virtual vertex n joined to every source by a 0-weight edge."""
    nx = _nx()
    if not sources:
        raise ValueError("sources must not be empty")
    for s in sources:
        if s not in g:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
    # a generator read twice: empty, as NetworkX. Each source's first object keys its 0, as
    # NetworkX's dist dict keeps it (1.0 given for the node 1: the key 1.0)
    first = {}
    for x in sources:
        first.setdefault(g.vertex(x), x)
    src = sorted(first)
    _real_cutoff(cutoff)
    _exact_sums(g, weight)
    if g.has_negative(weight):
        raise NotImplementedError("nx_semiring: Dijkstra with negative weights is left to "
                                  "NetworkX (its result depends on its visiting order)")
    n = g.n
    if not src:
        return src, first, None, None, None
    w = np.ones(g.adj.size, dtype=np.int64) if weight is None else g.weights(weight)[g.order()]
    # A' = [A 0; e_S 0]: vertex n reaches each source by a 0-weight edge
    A = _with_virtual_source(g, w, src)
    try:
        out = alg.sssp(A, n, predecessors=predecessors)
        dist, pred = (_host(out[0])[:n], _host(out[1])[:n]) if predecessors else \
            (_host(out)[:n], None)
        # NetworkX reaches a vertex over an edge of weight inf too (at distance inf)
        keep = _host(alg.bfs(A, n))[:n] >= 0 if g.has_inf(weight) else ~_unreached(dist)
    except sr.InvalidValue as exc:  # NaN weights: NetworkX's comparisons decide
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc
    except alg.DistanceOverflow as exc:
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc
    if cutoff is not None:
        keep &= ~(dist > cutoff)
        keep[src] = True
    return src, first, dist, pred, keep


def _multi_source_lengths(g: SemiringGraph, src, first, dist, keep, weight, cutoff,
                          pops=None) -> dict:
    if pops is None:
        pops = _dijkstra_orders(g, list(first), dist, keep, weight, cutoff)[0]  # its order
    out = dict(zip(g.labels(pops), _values_of(dist[pops])))
    for s in src:  # NetworkX's sources start at the int 0
        out[g.nodes[s]] = 0
    alias = {g.nodes[s]: first[s] for s in src if _alias(g, s, first[s]) is not None}
    if alias:
        out = {alias.get(k, k): d for k, d in out.items()}
    return out


def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    """{node: distance from the nearest source} by the engine's SSSP from a virtual vertex
    joined to every source by a 0-weight edge.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.multi_source_dijkstra_path_length(nx.path_graph(5), {0, 4}, backend="semiring")
    {0: 0, 4: 0, 1: 1, 3: 1, 2: 2}
    """
    g = _graph(G, weight)
    src, first, dist, _, keep = _multi_source(g, sources, cutoff, weight)
    if dist is None:
        return {}
    return _multi_source_lengths(g, src, first, dist, keep, weight, cutoff)


def _multi_source_paths(g: SemiringGraph, src, pred, order) -> dict:
    """{node: path from its nearest source} for the sources ``src`` (in NetworkX's order)
    and the vertices in ``order`` (NetworkX's pops),
    each path walked back through the predecessors to the first source met (NetworkX's
    sources have no predecessor: a path never passes through a second source)."""
    nodes = g.nodes
    with _gc_paused():
        paths = _walk_paths(nodes, order, pred.tolist(), src)
        return {nodes[v]: paths[v] for v in [*src, *order.tolist()]}


def _refuse_aliases(g: SemiringGraph, src, first, name, sources=()):
    """NotImplementedError where a source is given as an object equal to its node but of
    another type: NetworkX's dist dict keeps the first object given for a node, its paths
    start with the last (``{source: [source] for source in sources}``), e.g. ``[0, False]``:
    ``{0: [False], 1: [False, 1]}``. ``sources``: the caller's (re-iterable) sources."""
    if any(_alias(g, s, first[s]) is not None for s in src) or \
            any(_alias(g, g.vertex(x), x) is not None for x in sources):
        raise NotImplementedError(f"nx_semiring: {name} from an object equal to a node of "
                                  f"another type (1.0 for 1): NetworkX's paths hold the "
                                  f"objects as its heap pops them (NetworkX runs it)")


def _multi_source_ties(g: SemiringGraph, src, dist, keep, weight):
    """NotImplementedError where some reported vertex other than a source has several
    shortest paths from the sources (NetworkX's heap order picks one)."""
    if g.has_inf(weight) and bool(np.isinf(dist[keep]).any()):
        raise NotImplementedError("nx_semiring: Dijkstra paths to vertices at distance inf "
                                  "(NetworkX returns the first it finds)")
    targets = keep.copy()
    targets[src] = False
    if _tied_targets(g, dist[None, :], [src[0]], weight, targets[None, :]):
        raise NotImplementedError("nx_semiring: several shortest paths from the sources join "
                                  "some node; NetworkX's Dijkstra picks its own (NetworkX "
                                  "runs it)")


def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight"):
    """``(distances, paths)`` from the nearest of ``sources`` (or ``(distance, path)`` to
    ``target``), by the engine's SSSP from a virtual vertex joined to every source. Paths
    only where every shortest path from the sources is the only one (to ``target``: along
    its path), else NetworkX's heap order picks one and NetworkX runs the call.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.multi_source_dijkstra(nx.path_graph(4), [0], target=3, backend="semiring")
    (3, [0, 1, 2, 3])
    """
    nx = _nx()
    g = _graph(G, weight)
    if not sources:
        raise ValueError("sources must not be empty")
    for s in sources:
        if s not in g:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
    if target in sources:
        return (0, [target])
    # NetworkX's heap compiled gives its own paths among ties (_heap_tree): the engine's
    # predecessors only where it cannot run
    heap = _cpu_compiled.ENABLED
    src, first, dist, pred, keep = _multi_source(g, sources, cutoff, weight,
                                                 predecessors=not heap)
    if dist is None:
        if target is None:
            return ({}, {})
        raise nx.NetworkXNoPath(f"No path to {target}.")
    _refuse_aliases(g, src, first, "multi_source_dijkstra", sources)
    tree = _heap_tree(g, list(first), dist, keep, weight, cutoff) if heap else None
    if tree is None and heap:
        src, first, dist, pred, keep = _multi_source(g, sources, cutoff, weight,
                                                     predecessors=True)
    if target is None:
        if tree is None:
            _multi_source_ties(g, src, dist, keep, weight)
            order = _dijkstra_orders(g, list(first), dist, keep, weight, cutoff)[0]
        else:
            order, pred = tree[0], tree[2]
        return (_multi_source_lengths(g, src, first, dist, keep, weight, cutoff, order),
                _multi_source_paths(g, list(first), pred, order[len(first):]))
    if target not in g or not keep[g.vertex(target)]:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    t = g.vertex(target)
    if tree is not None:
        # NetworkX stops when it pops the target: its path's parents are final by then
        path = [t]
        while tree[2][path[-1]] >= 0:
            path.append(int(tree[2][path[-1]]))
        out = [first.get(v, g.nodes[v]) if i == len(path) - 1 else g.nodes[v]
               for i, v in enumerate(reversed(path))]
        out[-1] = target  # NetworkX's path ends with the caller's object
        return (dist[t].item(), out)
    if g.has_inf(weight) and bool(np.isinf(dist[t])):
        raise NotImplementedError("nx_semiring: a Dijkstra path to a vertex at distance inf "
                                  "(NetworkX returns the first it finds)")
    is_src = np.zeros(g.n, dtype=bool)
    is_src[src] = True
    path = [t]
    while not is_src[path[-1]]:
        path.append(int(pred[path[-1]]))
    path.reverse()
    _unique_path(g, path, dist, weight)
    out = [g.nodes[v] for v in path]
    out[-1] = target  # NetworkX's path ends with the caller's object
    return (dist[t].item(), out)


def multi_source_dijkstra_path(G, sources, cutoff=None, weight="weight"):
    """{node: shortest path from the nearest of ``sources``}: :func:`multi_source_dijkstra`'s
    paths (only where they are the only shortest ones).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.multi_source_dijkstra_path(nx.path_graph(4), {0, 3}, backend="semiring")
    {0: [0], 3: [3], 1: [0, 1], 2: [3, 2]}
    """
    return multi_source_dijkstra(G, sources, cutoff=cutoff, weight=weight)[1]


def single_target_shortest_path_length(G, target, cutoff=None):
    """{node: number of edges on a shortest path to ``target``}: the engine's BFS from it,
    in NetworkX's queue order (undirected graphs; a directed graph's search runs over
    ``G._pred`` in its order, which the conversion does not keep: NetworkX runs it).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_target_shortest_path_length(nx.path_graph(3), 2, backend="semiring")
    {2: 0, 1: 1, 0: 2}
    """
    nx = _nx()
    g = _graph(G)
    if target not in g:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    if g.directed:
        raise NotImplementedError("nx_semiring: single_target_shortest_path_length of a "
                                  "directed graph is NetworkX's BFS over G._pred, in its "
                                  "order, which the conversion does not keep (NetworkX runs "
                                  "it)")
    return single_source_shortest_path_length(g, target, cutoff=cutoff)


def single_target_shortest_path(G, target, cutoff=None):
    """{node: shortest path to ``target``}: NetworkX's BFS from ``target`` (undirected
    graphs: the paths of :func:`single_source_shortest_path` reversed). A directed graph's
    search runs over ``G._pred`` in its order, which the conversion does not keep: NetworkX
    runs it.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_target_shortest_path(nx.path_graph(3), 2, backend="semiring")
    {2: [2], 1: [1, 2], 0: [0, 1, 2]}
    """
    nx = _nx()
    g = _graph(G)
    if target not in g:
        raise nx.NodeNotFound(f"Target {target} not in G")
    if g.directed:
        raise NotImplementedError("nx_semiring: single_target_shortest_path of a directed "
                                  "graph is NetworkX's BFS over G._pred, in its order, which "
                                  "the conversion does not keep (NetworkX runs it)")
    paths = single_source_shortest_path(g, target, cutoff=cutoff)
    return {v: p[::-1] for v, p in paths.items()}


def bidirectional_shortest_path(G, source, target):
    """A shortest path from ``source`` to ``target`` (unweighted), by the engine's BFS; only
    where it is the only shortest path (NetworkX's bidirectional BFS picks its own among
    ties: NetworkX runs it).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bidirectional_shortest_path(nx.path_graph(4), 0, 3, backend="semiring")
    [0, 1, 2, 3]
    """
    return _st_unweighted_path(_graph(G), source, target)


def bidirectional_dijkstra(G, source, target, weight="weight"):
    """``(distance, path)`` from ``source`` to ``target`` by the engine's SSSP; only where the
    shortest path is the only one (NetworkX's bidirectional search picks its own among
    ties) and every path sum is exact in any order (NetworkX adds the forward and the
    backward half apart, then joins them: its float may round otherwise).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3}), (0, 2, {"weight": 7})])
    >>> nx.bidirectional_dijkstra(G, 0, 2, backend="semiring")
    (5, [0, 1, 2])
    """
    nx = _nx()
    g = _graph(G, weight)
    if source not in g:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in g:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    if source == target:
        return (0, [source])
    _bidirectional_aliases(g, g.vertex(source), g.vertex(target), source, target)
    _exact_sums(g, weight)
    if g.has_negative(weight) or g.has_inf(weight):
        raise NotImplementedError("nx_semiring: bidirectional_dijkstra with negative or "
                                  "infinite weights (NetworkX's search decides what they "
                                  "give: NetworkX runs it)")
    if weight is not None and not _exact_float_sums(g.weights(weight), g.n):
        raise NotImplementedError("nx_semiring: float weights whose path sums round "
                                  "differently in NetworkX's two halves (NetworkX runs it)")
    try:
        return _single_source_dijkstra(g, source, target, None, weight, heap=False)
    except nx.NetworkXNoPath:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.") from None


def _tight_refusals(g: SemiringGraph, s, dist, keep, weight, name):
    """NotImplementedError where NetworkX's predecessor lists would hold more than the one
    tight in-neighbour of each reached vertex, in an order its search fixes: two tight
    in-edges (tied shortest paths), a tight in-edge into the source (a 0-weight cycle
    through it), or a 0-weight self-loop at a reached vertex (NetworkX lists the vertex as
    its own predecessor)."""
    targets = keep.copy()
    targets[s] = False
    if _tied_targets(g, dist[None, :], [s], weight, targets[None, :]):
        raise NotImplementedError(f"nx_semiring: {name}: several shortest paths join some "
                                  f"node; NetworkX lists their predecessors in its search's "
                                  f"order (NetworkX runs it)")
    rows, cols = _edges(g)
    w = np.ones(cols.size, dtype=np.int64) if weight is None else g.weights(weight)
    into = (cols == s) & keep[rows]
    with np.errstate(invalid="ignore"):
        if bool((into & (dist[rows] + w == dist[s])).any()):
            raise NotImplementedError(f"nx_semiring: {name}: a 0-weight cycle through the "
                                      f"source (NetworkX lists its predecessors: NetworkX "
                                      f"runs it)")
        if bool(((rows == cols) & keep[rows] & (w == 0)).any()):
            raise NotImplementedError(f"nx_semiring: {name}: a 0-weight self-loop (NetworkX "
                                      f"lists the node as its own predecessor: NetworkX runs "
                                      f"it)")


def _pred_lists(g: SemiringGraph, s, dist, pred, keep, source, reached=None):
    """NetworkX's ``{node: [predecessor]}`` of a search from ``s`` whose reached vertices
    each have one tight in-edge: the source's list empty; keyed in the order of ``reached``
    (vertex order by default)."""
    nodes = g.nodes
    reached = np.flatnonzero(keep) if reached is None else reached
    out = {source: []}
    out.update((nodes[v], [nodes[p]]) for v, p in zip(reached.tolist(),
                                                      pred[reached].tolist()) if v != s)
    return out


def dijkstra_predecessor_and_distance(G, source, cutoff=None, weight="weight"):
    """``(pred, dist)``: each reached node's list of predecessors on shortest paths, and its
    distance, by the engine's SSSP; only where every shortest path is the only one (NetworkX
    lists tied predecessors in its heap's order: NetworkX runs it).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dijkstra_predecessor_and_distance(nx.path_graph(3), 0, backend="semiring")
    ({0: [], 1: [0], 2: [1]}, {0: 0, 1: 1, 2: 2})
    """
    nx = _nx()
    g = _graph(G, weight)
    if source not in g:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    if _alias(g, g.vertex(source), source) is not None:
        raise NotImplementedError("nx_semiring: a source equal to a node of another type "
                                  "(NetworkX's predecessor lists hold its object: NetworkX "
                                  "runs it)")
    if _cpu_compiled.ENABLED:  # NetworkX's heap compiled: its lists, in its order
        s, dist, _, keep = _dijkstra(g, source, cutoff, weight, predecessors=False)
        tree = _heap_tree(g, [s], dist, keep, weight, cutoff, preds=True)
        if tree is not None:
            pops, finds, _, events = tree
            return (_heap_pred_lists(g, finds, events),
                    _source_zero(g, s, dict(zip(g.labels(pops), _values_of(dist[pops]))),
                                 source))
    s, dist, pred, keep = _dijkstra(g, source, cutoff, weight)
    _tight_refusals(g, s, dist, keep, weight, "dijkstra_predecessor_and_distance")
    # NetworkX's pred dict is keyed as its search first pushes the nodes, dist as it pops them
    pops, finds = _dijkstra_orders(g, [s], dist, keep, weight, cutoff)
    return (_pred_lists(g, s, dist, pred, keep, source, finds),
            _source_zero(g, s, dict(zip(g.labels(pops), _values_of(dist[pops]))), source))


def bellman_ford_predecessor_and_distance(G, source, target=None, weight="weight",
                                          heuristic=False):
    """``(pred, dist)`` as :func:`dijkstra_predecessor_and_distance`, negative weights
    allowed (NetworkXUnbounded for a negative cycle reached, or any negative self-loop), by
    the engine's Bellman–Ford; ``target`` changes nothing (as in NetworkX).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 2, {"weight": -1}), (0, 1, {"weight": 4}), (2, 3, {"weight": -2})])
    >>> nx.bellman_ford_predecessor_and_distance(G, 0, backend="semiring")
    ({0: [], 2: [0], 1: [0], 3: [2]}, {0: 0, 2: -1, 1: 4, 3: -3})
    """
    nx = _nx()
    g = _graph(G, weight)
    if source not in g:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    rows, cols = _edges(g)
    if weight is not None:
        w = g.weights(weight)
        with np.errstate(invalid="ignore"):
            if bool(((rows == cols) & (w < 0)).any()):
                raise nx.NetworkXUnbounded("Negative cycle detected.")
    if g.n == 1:
        return {source: []}, {source: 0}
    if _alias(g, g.vertex(source), source) is not None:
        raise NotImplementedError("nx_semiring: a source equal to a node of another type "
                                  "(NetworkX's predecessor lists hold its object: NetworkX "
                                  "runs it)")
    s, dist, pred, keep = _bellman_ford(g, source, weight)
    tree = _spfa_tree(g, s, dist, keep, weight, heuristic)  # NetworkX's queue loop, compiled
    if tree is not None:
        order, ptr, preds = tree
        nodes = g.nodes
        lab = [nodes[v] for v in preds.tolist()]
        pt = ptr.tolist()
        return ({nodes[v]: lab[pt[i]:pt[i + 1]] for i, v in enumerate(order.tolist())},
                _source_zero(g, s, dict(zip(g.labels(order), _values_of(dist[order]))),
                             source))
    _tight_refusals(g, s, dist, keep, weight, "bellman_ford_predecessor_and_distance")
    order = _spfa_order(g, s, dist, keep, weight)  # both dicts' keys (NetworkX's finds)
    return (_pred_lists(g, s, dist, pred, keep, source, order),
            _source_zero(g, s, dict(zip(g.labels(order), _values_of(dist[order]))), source))


def predecessor(G, source, target=None, cutoff=None, return_seen=None):
    """NetworkX's BFS predecessor lists ({node: [nodes of the previous level adjacent to it,
    in NetworkX's queue order]}) and levels: the engine's BFS levels, NetworkX's queue order
    from the same pass as ``bfs_edges`` (:func:`~nx_semiring.algorithms._ordered_levels`).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.predecessor(nx.cycle_graph(4), 0, backend="semiring")
    {0: [], 1: [0], 3: [0], 2: [1, 3]}
    """
    nx = _nx()
    g = _graph(G)
    s = _source(g, source, nx.NodeNotFound(f"Source {source} not in G"))
    _real_cutoff(cutoff)
    if _alias(g, s, source) is not None:
        raise NotImplementedError("nx_semiring: a source equal to a node of another type "
                                  "(NetworkX's lists hold its object: NetworkX runs it)")
    # NetworkX stops after the level where cutoff <= level, when cutoff is truthy
    if not cutoff or cutoff != cutoff or cutoff == math.inf:
        limit = math.inf
    else:
        limit = 1 if cutoff < 1 else math.ceil(cutoff)
    level = _bfs_level(g, s)
    pos = np.full(g.n, -1, dtype=np.int64)
    pos[s] = 0
    order = [s]
    for _, children in _ordered_levels(g, [s], limit, level):
        pos[children] = np.arange(len(order), len(order) + len(children))
        order.extend(children)
    reached = pos >= 0
    rows, cols = _edges(g)
    e = reached[rows] & reached[cols] & (level[cols] == level[rows] + 1)
    u, w = rows[e], cols[e]
    by = np.lexsort((pos[u], pos[w]))
    nodes = g.nodes
    with _gc_paused():
        pred = {nodes[v]: [] for v in order}
        for a, b in zip(w[by].tolist(), u[by].tolist()):
            pred[nodes[a]].append(nodes[b])
    if return_seen:
        levels = level[order].tolist()
        seen = dict(zip((nodes[v] for v in order), levels))
    if target is not None:
        if return_seen:
            if target not in pred:
                return ([], -1)
            return (pred[target], seen[target])
        if target not in pred:
            return []
        return pred[target]
    if return_seen:
        return (pred, seen)
    return pred


def _reachable(g, source, reverse):
    """NetworkX's ``{child for parent, child in bfs_edges(G, source, reverse=...)}``, built in
    its BFS order (a set's iteration order depends on it). A directed graph's reverse search
    runs over ``G._pred`` in its order, which the conversion does not keep: NetworkX runs
    it."""
    nx = _nx()
    kind = "digraph" if g.directed else "graph"
    s = _source(g, source, nx.NetworkXError(f"The node {source} is not in the {kind}."))
    if reverse and g.directed:
        raise NotImplementedError("nx_semiring: ancestors of a directed graph are built in "
                                  "the order of NetworkX's BFS over G._pred, which the "
                                  "conversion does not keep (NetworkX runs it)")
    return set(g.labels(_discovery(g, [s], level=_order_level(g, s))[1:]))


def descendants(G, source):
    """The set of nodes reachable from ``source`` (without it), by the engine's BFS.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.descendants(nx.DiGraph([(0, 1), (1, 2), (3, 1)]), 1, backend="semiring")
    {2}
    """
    return _reachable(_graph(G), source, reverse=False)


def ancestors(G, source):
    """The set of nodes that reach ``source`` (without it), by the engine's BFS over the
    reversed edges.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.ancestors(nx.path_graph(4), 2, backend="semiring")
    {0, 1, 3}
    """
    return _reachable(_graph(G), source, reverse=True)


# --------------------------------------------------------------------------- distance measures
def _eccentricities(g: SemiringGraph, idx: list, weight, bounding=False) -> list:
    """The eccentricity of each vertex of ``idx`` (Python numbers), NetworkXError where one
    does not reach every vertex: the engine's multi-source BFS, 64 sources a batch, or one
    SSSP a source (NetworkX's Dijkstra: negative weights are NetworkX's). ``bounding``:
    NetworkX's ``usebounds=True`` search (its message for a disconnected graph)."""
    nx = _nx()
    out = []
    unreached = False
    _exact_sums(g, weight)
    if weight is None:
        M, sym = g.engine_matrix()
        for b in range(0, len(idx), APSP_BFS_BATCH):
            L = _host(alg.multi_source_bfs(M, idx[b:b + APSP_BFS_BATCH], symmetric=sym))
            if bool((L < 0).any()):
                unreached = True
                break
            out.extend(L.max(axis=1).tolist())
    elif len(idx) > 1 and g.n <= ECC_APSP_MAX_N and not g.has_inf(weight) and \
            not g.has_negative(weight) and _exact_float_sums(g.weights(weight), g.n):
        # one APSP instead of a SSSP a node: the same sums, exact in any order
        D = _fw_distances(g, weight)[idx]
        if bool(_unreached(D).any()):
            unreached = True
        else:
            out = D.max(axis=1).tolist()
    else:
        inf = g.has_inf(weight)
        for s in idx:
            dist, _ = _sssp(g, s, weight, "dijkstra", predecessors=False)
            reached = _bfs_level(g, s) >= 0 if inf else ~_unreached(dist)
            if not bool(reached.all()):
                unreached = True
                break
            out.append(dist.max().item())
    if unreached:
        if bounding:
            raise nx.NetworkXError("Cannot compute metric because graph is not connected.")
        if g.directed:
            raise nx.NetworkXError("Found infinite path length because the digraph is not "
                                   "strongly connected")
        raise nx.NetworkXError("Found infinite path length because the graph is not "
                               "connected")
    # NetworkX's max() over a length dict that starts with the source's int 0 keeps that 0
    # where nothing is farther (an isolated node, 0-weight edges), even among float lengths
    return [0 if x == 0 else x for x in out]


def eccentricity(G, v=None, sp=None, weight=None):
    """{node: eccentricity} (or one value when ``v`` is a node): the greatest distance from
    each node, by the engine's BFS or SSSP. ``sp`` (precomputed lengths) is NetworkX's.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.eccentricity(nx.path_graph(4), backend="semiring")
    {0: 3, 1: 2, 2: 2, 3: 3}
    """
    g = _graph(G, weight)
    if sp is not None:
        raise NotImplementedError("nx_semiring: eccentricity with sp= (NetworkX reads it)")
    if g.n == 0 and NX_RELEASE >= (3, 7):
        # (before 3.7 NetworkX's loop over no nodes answers {}, as the code below)
        raise _nx().NetworkXPointlessConcept("Cannot compute eccentricity of a null graph.")
    nodes = _nbunch(g, v)
    idx = [g.vertex(x) for x in nodes]
    e = dict(zip(nodes, _eccentricities(g, idx, weight)))
    if v in g:
        return e[v]
    return e


def _measure_eccentricities(G, e, usebounds, weight, name):
    """``e``, else {node: eccentricity} in node order. ``usebounds=True`` on an undirected
    graph is NetworkX's bounding search (``_extrema_bounding``): its diameter, radius and
    node-ordered periphery and center are the exact eccentricities' (its bounds are exact
    sums here: integer or exactly summed weights, no inf), its error its own."""
    if e is not None:
        return e
    g = _graph(G, weight)
    if usebounds is True and not g.directed:
        if g.n == 0:
            # NetworkX's max(degrees, key=...) of no nodes: that ValueError, in the words of
            # the Python running (3.11: "max() arg is an empty sequence", 3.12: "max()
            # iterable argument is empty")
            max(())
        if weight is not None and (g.has_inf(weight)
                                   or not _exact_float_sums(g.weights(weight), g.n)):
            raise NotImplementedError(f"nx_semiring: {name} with usebounds=True and weights "
                                      f"whose bounds round (NetworkX runs it)")
        return dict(zip(g.nodes, _eccentricities(g, list(range(g.n)), weight, True)))
    return eccentricity(g, weight=weight)


def diameter(G, e=None, usebounds=False, weight=None):
    """The greatest eccentricity (``e``: precomputed eccentricities).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.diameter(nx.path_graph(4), backend="semiring")
    3
    """
    return max(_measure_eccentricities(G, e, usebounds, weight, "diameter").values())


def radius(G, e=None, usebounds=False, weight=None):
    """The least eccentricity (``e``: precomputed eccentricities).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.radius(nx.path_graph(4), backend="semiring")
    2
    """
    return min(_measure_eccentricities(G, e, usebounds, weight, "radius").values())


def periphery(G, e=None, usebounds=False, weight=None):
    """The nodes of greatest eccentricity, in node order (``e``'s order where given).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.periphery(nx.path_graph(4), backend="semiring")
    [0, 3]
    """
    e = _measure_eccentricities(G, e, usebounds, weight, "periphery")
    d = max(e.values())
    return [v for v in e if e[v] == d]


def center(G, e=None, usebounds=False, weight=None):
    """The nodes of least eccentricity, in node order (``e``'s order where given). An
    unweighted undirected graph that may be a tree (n - 1 edges) is NetworkX's: it answers
    with its tree center.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.center(nx.cycle_graph(4), backend="semiring")
    [0, 1, 2, 3]
    """
    if e is None and weight is None and usebounds is not True:
        g = _graph(G)
        if not g.directed and g.n == 0:
            # NetworkX's nx.is_tree(G) of the null graph
            raise _nx().NetworkXPointlessConcept("G has no nodes.")
        if not g.directed and (g.multigraph or g.number_of_edges() == g.n - 1):
            raise NotImplementedError("nx_semiring: center of a tree is NetworkX's tree "
                                      "center (NetworkX runs it)")
    e = _measure_eccentricities(G, e, usebounds, weight, "center")
    r = min(e.values())
    return [v for v in e if e[v] == r]


def _connected(g: SemiringGraph) -> bool:
    """Whether g is connected (strongly, when directed): NetworkX's ``is_connected`` /
    ``is_strongly_connected`` of a graph with nodes."""
    if g.directed:
        labels = alg.connected_components(g.matrix(), "strong")
    else:
        labels = alg.connected_components(g.matrix(), symmetric=True)
    return int(_host(labels).max()) == 0


def _distance_rows(g: SemiringGraph, weight, method, sums=True):
    """Yield blocks of rows of the distance matrix of a connected graph, sources in node
    order (host arrays: BFS levels, or the attribute's distances). ``method``: 'unweighted',
    'dijkstra', 'bellman-ford' or a Floyd–Warshall one (NetworkX's negative cycles raised,
    or refused where NetworkX answers with them). ``sums``: as ``_exact_sums``' (what the
    caller returns of the distances)."""
    nx = _nx()
    if method == "unweighted":
        M, sym = g.engine_matrix()
        for b in range(0, g.n, APSP_BFS_BATCH):
            yield _host(alg.multi_source_bfs(M, list(range(b, min(g.n, b + APSP_BFS_BATCH))),
                                             symmetric=sym))
        return
    _exact_sums(g, weight, sums)
    w = g.weights(weight)
    if w.dtype.kind == "f" and not bool(np.isfinite(w).all()):
        raise NotImplementedError("nx_semiring: weights NaN or inf (NetworkX's comparisons "
                                  "and sums decide; NetworkX runs it)")
    if g.has_negative(weight):
        if method != "bellman-ford":
            raise NotImplementedError(f"nx_semiring: negative weights with method={method!r} "
                                      f"(NetworkX's answer follows its own order: NetworkX "
                                      f"runs it)")
        if negative_edge_cycle(g, weight=weight):  # every source of a connected graph
            raise nx.NetworkXUnbounded("Negative cycle detected.")
    if g.n <= ECC_APSP_MAX_N:
        yield _fw_distances(g, weight, sums)
        return
    for s in range(g.n):
        dist, _ = _sssp(g, s, weight, "dijkstra" if method != "bellman-ford" else method,
                        predecessors=False)
        yield dist[None, :]


def _exact_total(g: SemiringGraph, weight, method) -> bool:
    """Whether the sum of all n² distances is exact in any order (NetworkX adds them in its
    dicts' order): integer distances whose total stays below 2^62, or float weights that are
    multiples of 2^-EXACT_FRACTION_BITS whose total stays below 2^53 such units."""
    n = g.n
    if method == "unweighted":
        return True
    w = g.weights(weight)
    if not w.size:
        return True
    if w.dtype.kind == "f":
        return _exact_float_sums(w, n**3)
    return n**3 * max(abs(int(w.min())), abs(int(w.max()))) < 2**62


def _distance_total(g: SemiringGraph, weight, method):
    """The sum of the distances over all ordered pairs of a connected graph, exactly (a
    Python int for integer distances, else a float)."""
    if not _exact_total(g, weight, method):
        raise NotImplementedError("nx_semiring: float distances whose sum rounds in "
                                  "NetworkX's order of additions, or an int64 total that "
                                  "may wrap (NetworkX runs it)")
    total = 0
    # "numpy": the mean divides; wiener_index refuses int and float mixes by itself
    for D in _distance_rows(g, weight, method, sums="numpy"):
        total += int(D.sum()) if D.dtype.kind in "iu" else float(D.sum())
    return total


def average_shortest_path_length(G, weight=None, method=None):
    """The mean distance over all ordered pairs of distinct nodes (NetworkX's errors for
    the null graph and a disconnected one): the engine's multi-source BFS or APSP, the sum
    exact (float weights only where every sum is exact in any order, as NetworkX adds in
    its dicts' order).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.average_shortest_path_length(nx.path_graph(4), backend="semiring")
    1.6666666666666667
    """
    nx = _nx()
    single = ["unweighted", "dijkstra", "bellman-ford"]
    if method is None:
        method = "unweighted" if weight is None else "dijkstra"
    if method not in single + ["floyd-warshall", "floyd-warshall-numpy"]:
        raise ValueError(f"method not supported: {method}")
    g = _graph(G, weight if method != "unweighted" else None)
    n = g.n
    if n == 0:
        raise nx.NetworkXPointlessConcept("the null graph has no paths, thus there is no "
                                          "average shortest path length")
    if n == 1:
        return 0
    if not _connected(g):
        raise nx.NetworkXError("Graph is not strongly connected." if g.directed
                               else "Graph is not connected.")
    if method != "unweighted" and weight is None:
        # NetworkX's single-source searches weigh each edge 1, its Floyd–Warshall 1.0
        method = "unweighted"
    return _distance_total(g, weight, method) / (n * (n - 1))


def wiener_index(G, weight=None):
    """The sum of the distances between all pairs of nodes (``inf`` for a disconnected
    graph; an undirected graph's pairs counted once): the engine's multi-source BFS or
    APSP, the sum exact.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.wiener_index(nx.path_graph(4), backend="semiring")
    10.0
    """
    nx = _nx()
    g = _graph(G, weight)
    if g.n == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    if not _connected(g):
        return float("inf")
    method = "unweighted" if weight is None else "dijkstra"
    if g.directed and method != "unweighted" and g.weights(weight).dtype.kind == "f":
        w = g.weights(weight)
        # NetworkX's total of a digraph is an int unless some distance is a float: sure only
        # where every edge holds a float (a non-integral value), and no edge lacks it
        if weight in g.partial or bool((w == np.floor(w)).any()):
            raise NotImplementedError("nx_semiring: a digraph's float-typed weights among "
                                      "integral ones: whether NetworkX's total is an int or a "
                                      "float depends on its paths (NetworkX runs it)")
        if g.n == 1:
            return 0
    total = _distance_total(g, weight, method)
    return total if g.directed else total / 2


def _index_terms(g: SemiringGraph, weight, name):
    """``(degrees, distance blocks, method)`` for NetworkX's Schultz, Gutman and hyper-Wiener
    indices of a connected undirected simple graph: the degrees NetworkX reads, and the
    engine's distance rows (sources in node order). NetworkX's ``d = dict(G.degree,
    weight=weight)`` is ``dict(mapping, weight=...)``: the *unweighted* degrees (a self-loop
    twice) plus a key ``"weight"``, which a node of that name would read (refused). Integer
    weights only (NetworkX's sums of them are exact ints; float ones round in its order:
    NetworkX runs them)."""
    if "weight" in g:
        raise NotImplementedError(f"nx_semiring: a node named 'weight', whose degree "
                                  f"NetworkX's {name} reads as its weight argument (NetworkX "
                                  f"runs it)")
    rows = g.rows()
    deg = np.diff(g.indptr).astype(np.int64) + np.bincount(rows[g.adj == rows], minlength=g.n)
    if weight is None:
        return deg, _distance_rows(g, weight, "unweighted"), "unweighted"
    w = g.weights(weight)
    if w.dtype.kind not in "iu" or weight in g.numpy_typed:
        raise NotImplementedError(f"nx_semiring: {name} with non-integer or NumPy-typed "
                                  f"weights, whose sums NetworkX rounds or types in its order "
                                  f"(NetworkX runs it)")
    return deg, _distance_rows(g, weight, "dijkstra"), "dijkstra"


def _index_total(g: SemiringGraph, weight, name, term):
    """NetworkX's index: ``inf`` for a disconnected graph, else the sum of ``term(D, du, dv)``
    over the ordered pairs (blocks of distance rows D, the degrees of their sources du and of
    all nodes dv) as a Python int, over 2, as NetworkX divides its int sum."""
    nx = _nx()
    # NetworkX's not_implemented_for decorators first (they wrap its dispatcher; argmap
    # runs the inner one, multigraph, first)
    if g.multigraph:
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    if g.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if g.n == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    if not _connected(g):
        return float("inf")
    deg, blocks, method = _index_terms(g, weight, name)
    top_deg = int(np.abs(deg).max()) if deg.size else 0
    total, start = 0, 0
    for D in blocks:
        D = np.asarray(D)
        if D.dtype.kind == "f":
            D = D.astype(np.int64)  # integer weights: exact integer distances
        k = D.shape[0]
        top = int(D.max()) if D.size else 0
        # every term below 2^63 / (entries of the block): the block's int64 sum is exact
        if (top * (top + 1) + 2 * top * top_deg + top * top_deg * top_deg) * max(D.size, 1) \
                >= 2**63:
            raise NotImplementedError(f"nx_semiring: {name}'s sums beyond int64 (NetworkX "
                                      f"runs it)")
        total += int(term(D, deg[start:start + k, None], deg[None, :]).sum())
        start += k
    return total / 2


def schultz_index(G, weight=None):
    """NetworkX's Schultz index: half the sum over ordered pairs of ``d(u, v) × (deg u + deg
    v)`` (``inf`` for a disconnected graph), the distances from the engine's multi-source
    BFS or APSP (weighted by ``weight``), the sum an exact int. The degrees are unweighted,
    whatever ``weight``, as NetworkX's ``dict(G.degree, weight=weight)`` reads them (see
    :func:`_index_terms`). Integer weights only.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.schultz_index(nx.path_graph(4), backend="semiring")
    28.0
    """
    g = _graph(G, weight)
    return _index_total(g, weight, "schultz_index", lambda D, du, dv: D * (du + dv))


def gutman_index(G, weight=None):
    """NetworkX's Gutman index: half the sum over ordered pairs of ``d(u, v) × deg u × deg
    v`` (``inf`` for a disconnected graph); as :func:`schultz_index`.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.gutman_index(nx.path_graph(4), backend="semiring")
    19.0
    """
    g = _graph(G, weight)
    return _index_total(g, weight, "gutman_index", lambda D, du, dv: D * du * dv)


def hyper_wiener_index(G, weight=None):
    """NetworkX's hyper-Wiener index: half the sum over ordered pairs of ``d + d²``
    (``inf`` for a disconnected graph); as :func:`schultz_index`.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.hyper_wiener_index(nx.path_graph(4), backend="semiring")
    30.0
    """
    g = _graph(G, weight)
    return _index_total(g, weight, "hyper_wiener_index", lambda D, du, dv: D + D * D)


def barycenter(G, weight=None, attr=None, sp=None):
    """The nodes whose distances to all others sum to the least, in node order: the
    engine's multi-source BFS or APSP, each node's sum exact. ``attr=`` (written into G's
    node attributes) and ``sp=`` are NetworkX's; so is an unweighted undirected graph that
    may be a tree (NetworkX answers with its tree centroid) and a disconnected one (its
    error names the graph as ``str(G)``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.barycenter(nx.cycle_graph(3), backend="semiring")
    [0, 1, 2]
    """
    if attr is not None or sp is not None:
        raise NotImplementedError("nx_semiring: barycenter with attr= or sp= (NetworkX writes "
                                  "or reads them: NetworkX runs it)")
    g = _graph(G, weight)
    if weight is None and not g.directed and (g.multigraph or g.n == 0 or
                                              g.number_of_edges() == g.n - 1):
        raise NotImplementedError("nx_semiring: barycenter of a possible tree is NetworkX's "
                                  "tree centroid (NetworkX runs it)")
    if g.n == 0:
        return []
    if not _connected(g):
        raise NotImplementedError("nx_semiring: barycenter of a disconnected graph (NetworkX's "
                                  "NetworkXNoPath names the graph: NetworkX runs it)")
    method = "unweighted" if weight is None else "dijkstra"
    if not _exact_total(g, weight, method):
        raise NotImplementedError("nx_semiring: float distances whose sums round in "
                                  "NetworkX's order of additions (NetworkX runs it)")
    # nodes returned, not sums: their types do not show
    sums = np.concatenate([D.sum(axis=1) for D in _distance_rows(g, weight, method,
                                                                 sums=False)])
    return g.labels(np.flatnonzero(sums == sums.min()))


#: NetworkX 3.7's name of barycenter (its dispatch name from 3.7 on: nx_semiring.FUNCTIONS)
centroid = barycenter


def global_efficiency(G):
    """The mean of 1 / distance over all ordered pairs of distinct nodes (0 where
    unreachable): the engine's multi-source BFS, the terms added in NetworkX's order (its
    sources in node order, each one's targets by distance: equal terms within a distance),
    so the float is NetworkX's to the bit.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.global_efficiency(nx.path_graph(3), backend="semiring")
    0.8333333333333334
    """
    nx = _nx()
    g = _graph(G)
    if g.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    n = g.n
    denom = n * (n - 1)
    if denom == 0:
        return 0
    M, sym = g.engine_matrix()
    g_eff = 0.0
    for b in range(0, n, APSP_BFS_BATCH):
        L = _host(alg.multi_source_bfs(M, list(range(b, min(n, b + APSP_BFS_BATCH))),
                                       symmetric=sym))
        terms = []
        for row in L:
            counts = np.bincount(row[row > 0])
            d = np.flatnonzero(counts)
            terms.append(np.repeat(1.0 / d, counts[d]))
        # one running float sum, left to right, as NetworkX's loop adds
        seq = np.concatenate([[g_eff], *terms])
        g_eff = float(np.add.accumulate(seq)[-1])
    return g_eff / denom


# --------------------------------------------------------------------------- flow
def _known_flow_func(flow_func) -> bool:
    from networkx.algorithms import flow  # noqa: PLC0415  (networkx is an optional extra)

    return any(flow_func is getattr(flow, name) for name in FLOW_FUNCS)


def _flow_value(flowG, s, t, capacity, flow_func, kwargs, partition=False):
    """The maximum flow's value as NetworkX's flow functions compute it (their checks and
    messages in their order; see the module docstring for the capacities); with
    ``partition``, ``(value, (source side, sink side))`` as NetworkX's ``minimum_cut``
    (:func:`_sink_side`)."""
    nx = _nx()
    if flow_func is None:
        if kwargs:
            raise nx.NetworkXError("You have to explicitly set a flow_func if you need to pass "
                                   "parameters via kwargs.")
    elif not callable(flow_func):
        raise nx.NetworkXError("flow_func has to be callable.")
    elif kwargs or not _known_flow_func(flow_func):
        raise NotImplementedError("nx_semiring: a flow function other than NetworkX's, or its "
                                  "keyword arguments (NetworkX runs it)")
    if callable(capacity):  # (NetworkX 3.7 calls it per edge; before, no edge has it)
        raise NotImplementedError("nx_semiring: a callable capacity (NetworkX runs it)")
    inf = float("inf")
    g = flowG if isinstance(flowG, SemiringGraph) else \
        from_networkx(flowG, edge_attrs={capacity: inf})
    for x in (s, t):
        if x not in g:
            raise nx.NetworkXError(f"node {str(x)} not in graph")
    if s == t:
        raise nx.NetworkXError("source and sink are the same node")
    if g.multigraph:
        raise nx.NetworkXError("MultiGraph and MultiDiGraph not supported (yet).")
    # a conversion that kept every edge's dict (NetworkX's cache serves one made for k_core
    # here) read the capacities with its own default, which only an edge without one sees
    if g.defaults.get(capacity) != inf and (capacity not in g.values or capacity in g.partial):
        h = g.with_default(capacity, inf)
        if h is None:
            raise NotImplementedError(f"nx_semiring: {capacity!r} converted with default "
                                      f"{g.defaults.get(capacity)!r}, not NetworkX's inf")
        g = h
    rows, cols = _edges(g)
    _exact_sums(g, capacity, sums=False)  # NetworkX's flow sums in a narrow NumPy type may wrap
    if "u" in g.numpy_typed.get(capacity, ""):
        # NetworkX's residual network subtracts the flows of unsigned NumPy capacities in
        # their type: a reverse edge's flow wraps to 2^k - f, and its preflow-push then
        # raises (ValueError) or stops where the engine's answer is the maximum flow
        raise NotImplementedError("nx_semiring: unsigned NumPy capacities (NetworkX's "
                                  "residual flows wrap below 0; NetworkX runs it)")
    if capacity in g.numpy_typed:
        # NetworkX's flow value is a sum of those NumPy numbers (np.int64 where they all
        # are, a Python int where its paths met only Python ones): its own arithmetic's type
        raise NotImplementedError("nx_semiring: NumPy-typed capacities, whose flow value "
                                  "NetworkX types by its own sums (NetworkX runs it)")
    c = g.weights(capacity)
    if c.dtype.kind == "f" and bool(np.isnan(c).any()):
        raise NotImplementedError("nx_semiring: NaN capacities (NetworkX's comparisons "
                                  "decide; NetworkX runs it)")
    if not g.directed:
        # NetworkX's residual network reads G.edges(): each edge once, from its earlier node,
        # its capacity both ways (an undirected view of a DiGraph holds two, one a side)
        up = rows < cols
        rows, cols, c = (np.concatenate([rows[up], cols[up]]),
                         np.concatenate([cols[up], rows[up]]), np.concatenate([c[up], c[up]]))
    # NetworkX's residual network: edges of capacity > 0, no self-loops
    keep = (rows != cols) & (c > 0)
    rows, cols, c = rows[keep], cols[keep], c[keep]
    infinite = np.isposinf(c) if c.dtype.kind == "f" else np.zeros(c.size, dtype=bool)
    finite = c[~infinite]
    if finite.dtype.kind == "f" and not bool((finite == np.floor(finite)).all()):
        raise NotImplementedError("nx_semiring: non-integer capacities (the engine's flows "
                                  "are integers; NetworkX runs it)")
    total = int(sum(int(x) for x in finite.tolist()))
    si, ti = g.vertex(s), g.vertex(t)
    dev = g.device
    if infinite.any():
        # NetworkX's detect_unboundedness: a path of infinite edges from s to t
        P = sr.Matrix.from_coo(sr.to_device(rows[infinite], dev),
                               sr.to_device(cols[infinite], dev), nrows=g.n, ncols=g.n,
                               dtype=np.bool_, device=dev)
        if int(_host(alg.bfs(P, si))[ti]) >= 0:
            raise nx.NetworkXUnbounded("Infinite capacity path, flow unbounded above.")
    big = 3 * total or 1  # NetworkX's stand-in for infinity
    if total + big * int(infinite.sum()) > MAX_TOTAL_CAPACITY:
        raise NotImplementedError("nx_semiring: capacities beyond the engine's int64 sums "
                                  "(NetworkX runs it)")
    cap = np.where(infinite, big, c).astype(np.int64)
    A = sr.Matrix.from_coo(sr.to_device(rows, dev), sr.to_device(cols, dev),
                           sr.to_device(cap, dev), nrows=g.n, ncols=g.n, device=dev)
    res = alg.maximum_flow(A, si, ti)
    value = int(res.flow_value)
    if not partition:
        return value
    sink = set(g.labels(np.flatnonzero(_sink_side(g, rows, cols, cap, res.flow, ti))))
    return value, (set(g.nodes) - sink, sink)


def _sink_side(g: SemiringGraph, rows, cols, cap, flow, ti):
    """The vertices that reach ``ti`` in the residual network of the maximum flow ``flow``
    (a net flow: F(u, v) = -F(v, u)) over the capacities ``cap`` of the edges ``rows`` →
    ``cols`` (NetworkX's residual network: each edge, and its reverse at capacity 0): the
    sink side of NetworkX's minimum_cut. It is the same set for every maximum flow (the
    least sink side of a minimum cut), and for NetworkX's default preflow_push, which leaves
    a maximum preflow (value_only=True), too: its nodes with excess cannot reach t, so the
    preflow is a maximum flow plus paths from s to them that never enter that set."""
    n = g.n
    indptr, indices, values = (_host(flow.indptr), _host(flow.indices), _host(flow.values))
    frows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    C = sp.csr_array((cap, (rows, cols)), shape=(n, n))
    F = sp.csr_array((values, (frows, indices)), shape=(n, n))
    R = (C - F).tocoo()
    live = R.data > 0  # residual capacity left: pairs whose flow is below their capacity
    # who reaches ti: a BFS from ti over the reversed residual arcs
    B = sr.Matrix.from_coo(sr.to_device(R.col[live].astype(np.int64), g.device),
                           sr.to_device(R.row[live].astype(np.int64), g.device), nrows=n,
                           ncols=n, dtype=np.bool_, dup_op="lor", device=g.device)
    return _host(alg.bfs(B, ti)) >= 0


def maximum_flow_value(flowG, _s, _t, capacity="capacity", flow_func=None, **kwargs):
    """The value of a maximum flow from ``_s`` to ``_t``, by the engine's maximum flow
    (an int: integer capacities only; an edge without ``capacity`` is infinite).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_edge("x", "a", capacity=3); G.add_edge("a", "y", capacity=2)
    >>> nx.maximum_flow_value(G, "x", "y", backend="semiring")
    2
    """
    return _flow_value(flowG, _s, _t, capacity, flow_func, kwargs)


def minimum_cut_value(flowG, _s, _t, capacity="capacity", flow_func=None, **kwargs):
    """The capacity of a minimum ``_s``-``_t`` cut: the maximum flow's value (max-flow
    min-cut), by the engine's maximum flow.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_edge("x", "a", capacity=3); G.add_edge("a", "y", capacity=2)
    >>> nx.minimum_cut_value(G, "x", "y", backend="semiring")
    2
    """
    return _flow_value(flowG, _s, _t, capacity, flow_func, kwargs)


def minimum_cut(flowG, _s, _t, capacity="capacity", flow_func=None, **kwargs):
    """``(cut value, (source side, sink side))`` as NetworkX's ``minimum_cut``: the engine's
    maximum flow, the sink side the nodes that reach ``_t`` in its residual network (the same
    set for every maximum flow: NetworkX's, whichever flow function; :func:`_sink_side`).
    Integer capacities, as :func:`minimum_cut_value`.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_edge("x", "a", capacity=3); G.add_edge("a", "y", capacity=2)
    >>> from nx_semiring import paths  # (dispatch refuses: NetworkX's sets' order)
    >>> value, (S, T) = paths.minimum_cut(G, "x", "y")
    >>> value, sorted(S), sorted(T)
    (2, ['a', 'x'], ['y'])
    """
    return _flow_value(flowG, _s, _t, capacity, flow_func, kwargs, partition=True)


# --------------------------------------------------------------------------- matching
def _top_set(top_nodes):
    """NetworkX's ``X = set(top_nodes)`` of ``bipartite.sets``, made once: ``top_nodes`` may
    be an iterator, which a second ``set(top_nodes)`` would find exhausted (the two helpers
    below each read it; before, the second got an empty side)."""
    return None if top_nodes is None else set(top_nodes)


def _bipartite_sides(g: SemiringGraph, top):
    """NetworkX's ``bipartite.sets`` of an undirected graph, as flags over the vertices (True:
    the left side). ``top``: the set of ``top_nodes`` (:func:`_top_set`). Without it:
    AmbiguousSolution for a disconnected graph, NetworkXError when it is not bipartite, else
    the side of the first node is the left one (NetworkX's ``color`` gives it 1)."""
    nx = _nx()
    if top is not None:
        if any(x not in g for x in top):
            raise NotImplementedError("nx_semiring: top_nodes that are not nodes (NetworkX's "
                                      "search raises its KeyError)")
        left = np.zeros(g.n, dtype=bool)
        left[[g.vertex(x) for x in top]] = True
        return left
    if g.n == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    level = _bfs_level(g, 0)
    if bool((level < 0).any()):
        raise nx.AmbiguousSolution("Disconnected graph: Ambiguous solution for bipartite sets.")
    left = level % 2 == 0
    if not g.adj.size:  # one isolated node: NetworkX's color gives isolates 0 (right side)
        left[:] = False
    rows, cols = _edges(g)
    if bool((left[rows] == left[cols]).any()):
        raise nx.NetworkXError("Graph is not bipartite.")
    return left


def _side_orders(g: SemiringGraph, left, top):
    """The vertices of each side in the order NetworkX's ``bipartite.sets`` iterates them:
    Python sets, built as it builds them (``top``, NetworkX's ``X = set(top_nodes)``, and
    ``set(G) - X``, or from ``bipartite.color``'s dict), so that a result keyed in their
    order is NetworkX's."""
    nodes = g.nodes
    if top is not None:
        X = top
        Y = set(nodes) - X
    else:
        seq = _colour_order(g)
        X = {nodes[i] for i in seq if left[i]}
        Y = {nodes[i] for i in seq if not left[i]}
    index = g.index
    return (np.array([index[x] for x in X], dtype=np.int64),
            np.array([index[y] for y in Y], dtype=np.int64))


def _matching_labels(g: SemiringGraph, top):
    """The node objects NetworkX's matchings answer with: G's nodes, but a node of
    ``top_nodes`` as the object ``top_nodes`` holds (NetworkX's left side is
    ``set(top_nodes)``: ``np.int64(0)`` or ``True`` for G's node 0 or 1 there)."""
    if top is None:
        return g.nodes
    nodes = list(g.nodes)
    index = g.index
    for x in top:
        nodes[index[x]] = x
    return nodes


def _unique_matching(g: SemiringGraph, left, mate) -> bool:
    """Whether the maximum matching ``mate`` (vertex → matched vertex, -1) of the undirected
    bipartite graph is the only one: no free vertex has a neighbour (its neighbours are all
    matched, so a matched edge could be swapped for its edge) and no alternating cycle exists
    (the digraph u → mate(v) over the unmatched edges (u, v) of left vertices u is acyclic:
    its strong components are single vertices)."""
    rows, cols = _edges(g)
    if bool(((mate < 0) & (np.diff(g.indptr) > 0)).any()):
        return False
    sel = left[rows] & (mate[rows] != cols)
    if not sel.any():
        return True
    D = sr.Matrix.from_coo(rows[sel], mate[cols[sel]], nrows=g.n, ncols=g.n, dtype=np.bool_,
                           device="cpu")
    labels = _host(alg.connected_components(D, "strong"))
    return int(np.unique(labels).size) == g.n


def hopcroft_karp_matching(G, top_nodes=None):
    """A maximum matching ({node: mate} both ways) by the engine's maximum bipartite matching,
    where the maximum matching is unique (else NetworkX's search picks one: NetworkX runs it).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 2), (1, 2), (1, 3)])
    >>> nx.bipartite.hopcroft_karp_matching(G, backend="semiring")
    {0: 2, 1: 3, 2: 0, 3: 1}
    """
    g = _graph(G)
    if g.directed:
        raise NotImplementedError("nx_semiring: hopcroft_karp_matching of a directed graph "
                                  "(NetworkX's search reads only the left side's out-edges)")
    top = _top_set(top_nodes)
    left = _bipartite_sides(g, top)
    rows, cols = _edges(g)
    if not rows.size:
        return {}
    if bool((left[rows] == left[cols]).any()):
        raise NotImplementedError("nx_semiring: top_nodes with an edge inside a side "
                                  "(NetworkX's search reads it its own way)")
    L, R = _side_orders(g, left, top)
    pos = np.empty(g.n, dtype=np.int64)
    pos[L] = np.arange(L.size)
    pos[R] = np.arange(R.size)
    lr = left[rows]
    bu = np.where(lr, rows, cols)  # each edge as (left end, right end)
    bv = np.where(lr, cols, rows)
    B = sr.Matrix.from_coo(pos[bu], pos[bv], nrows=L.size, ncols=R.size, dtype=np.bool_,
                           dup_op="lor", device="cpu")  # each undirected edge twice
    col_of_row = _host(alg.maximum_bipartite_matching(B, perm_type="column")).astype(np.int64)
    mate = np.full(g.n, -1, dtype=np.int64)
    m = col_of_row >= 0
    mate[L[m]] = R[col_of_row[m]]
    mate[R[col_of_row[m]]] = L[m]
    if not _unique_matching(g, left, mate):
        raise NotImplementedError("nx_semiring: the maximum matching is not unique; "
                                  "NetworkX's search picks its own (NetworkX runs it)")
    nodes, mates = _matching_labels(g, top), mate.tolist()
    # NetworkX's order: the left side's matches, then the right side's, each side in its
    # set's iteration order
    order = np.concatenate([L[mate[L] >= 0], R[mate[R] >= 0]])
    return {nodes[x]: nodes[mates[x]] for x in order.tolist()}


def _unique_assignment(B, rows, cols) -> bool:
    """Whether the full matching ``rows[k]`` – ``cols[k]`` of the (a × b, a <= b) host
    biadjacency CSR ``B`` (every row matched) is the only one of its cost. Another one
    differs by alternating cycles and paths ending at a free column, each of cost 0: in the
    residual digraph (row → column over unmatched edges at w, column → row over matched ones
    at -w, free column → T → matched column at 0) a cycle of cost 0. With potentials from the
    engine's Bellman–Ford (no negative cycle: the matching is optimal) every arc's reduced
    cost is >= 0, so such a cycle is a cycle of zero-reduced-cost arcs: a strong component
    of two or more vertices."""
    a, b = B.shape
    r = np.repeat(np.arange(a, dtype=np.int64), np.diff(B.indptr))
    c = B.indices.astype(np.int64)
    w = B.data
    mate = np.full(a, -1, dtype=np.int64)
    mate[rows] = cols
    matched = mate[r] == c
    free = np.ones(b, dtype=bool)
    free[cols] = False
    T, root = a + b, a + b + 1
    fc, mc = np.flatnonzero(free), np.flatnonzero(~free)
    src = np.concatenate([r[~matched], a + c[matched], a + fc, np.full(mc.size, T)])
    dst = np.concatenate([a + c[~matched], r[matched], np.full(fc.size, T), a + mc])
    cost = np.concatenate([w[~matched], -w[matched], np.zeros(fc.size + mc.size, w.dtype)])
    n = a + b + 1
    P = sr.Matrix.from_coo(np.concatenate([src, np.full(n, root)]),
                           np.concatenate([dst, np.arange(n)]),
                           np.concatenate([cost, np.zeros(n, w.dtype)]), nrows=n + 1,
                           ncols=n + 1, dup_op="min", device="cpu")
    try:
        p = _host(alg.bellman_ford(P, root))
    except sr.NegativeCycleError:  # not optimal after all: leave it to NetworkX
        return False
    zero = cost + p[src] - p[dst] == 0
    if not zero.any():
        return True
    Z = sr.Matrix.from_coo(src[zero], dst[zero], nrows=n, ncols=n, dtype=np.bool_,
                           dup_op="lor", device="cpu")
    return int(np.unique(_host(alg.connected_components(Z, "strong"))).size) == n


def minimum_weight_full_matching(G, top_nodes=None, weight="weight"):
    """A full matching of least total weight ({node: mate} both ways), by the engine's
    LAPJVsp (``min_weight_full_bipartite_matching``), where it is the only one of that
    weight (:func:`_unique_assignment`; NetworkX's ``linear_sum_assignment`` picks its own
    among ties: NetworkX runs it). Undirected simple graphs, finite weights whose sums are
    exact (ties are then exact).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 2, {"weight": 1}), (0, 3, {"weight": 4}), (1, 2, {"weight": 2}),
    ...               (1, 3, {"weight": 3})])
    >>> nx.bipartite.minimum_weight_full_matching(G, backend="semiring")
    {0: 2, 1: 3, 2: 0, 3: 1}
    """
    g = _graph(G, weight)
    if g.directed or g.multigraph:
        raise NotImplementedError("nx_semiring: minimum_weight_full_matching of a directed "
                                  "graph or multigraph (NetworkX reads it its own way)")
    top = _top_set(top_nodes)
    left = _bipartite_sides(g, top)
    rows, cols = _edges(g)
    w = np.ones(cols.size, dtype=np.int64) if weight is None else g.weights(weight)
    if weight is not None and g.narrow.get(weight) == np.float16:
        # NetworkX's biadjacency_matrix makes a SciPy array of the weights' own dtype, which
        # for float16 scalars is float16: SciPy's ValueError (no float16 sparse arrays)
        raise NotImplementedError("nx_semiring: NumPy float16 weights (NetworkX's sparse "
                                  "matrix of them is refused by SciPy; NetworkX runs it)")
    if w.dtype.kind == "f" and not bool(np.isfinite(w).all()) or not _exact_float_sums(w, g.n):
        raise NotImplementedError("nx_semiring: weights that are not finite or whose sums "
                                  "round (NetworkX runs it)")
    L, R = _side_orders(g, left, top)  # NetworkX's U and V, in its lists' order
    if not L.size:  # NetworkX's biadjacency_matrix
        raise _nx().NetworkXError("row_order is empty list")
    e = left[rows] & ~left[cols]  # NetworkX's biadjacency matrix: edges from U to V
    if rows.size and not e.any():  # its zip(*edges) of a graph with edges, none from U to V
        raise ValueError("not enough values to unpack (expected 3, got 0)")
    if not R.size:  # linear_sum_assignment of a (k × 0) matrix
        return {}
    if not e.any():
        raise ValueError("cost matrix is infeasible")
    pos = np.empty(g.n, dtype=np.int64)
    pos[L] = np.arange(L.size)
    pos[R] = np.arange(R.size)
    u, v, w = pos[rows[e]], pos[cols[e]], w[e]
    if L.size > R.size:  # rows are the smaller side (all matched)
        u, v, L, R = v, u, R, L
    # every full matching has min(|U|, |V|) edges, so a constant added to every weight
    # keeps the cheapest ones: all made >= 1, since SciPy's LAPJVsp drops stored zeros
    shifted = w - w.min() + 1
    if not _exact_float_sums(shifted, g.n):
        raise NotImplementedError("nx_semiring: weights whose shifted sums round (NetworkX "
                                  "runs it)")
    B = sp.csr_array((shifted, (u, v)), shape=(L.size, R.size))
    try:
        ri, ci = alg.min_weight_full_bipartite_matching(B)
    except sr.InvalidValue as exc:  # LAPJVsp's float range: refused
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc
    except ValueError:
        raise ValueError("cost matrix is infeasible") from None
    ri, ci = _host(ri).astype(np.int64), _host(ci).astype(np.int64)
    if not _unique_assignment(B, ri, ci):
        raise NotImplementedError("nx_semiring: several full matchings of least weight; "
                                  "NetworkX's linear_sum_assignment picks its own (NetworkX "
                                  "runs it)")
    nodes = _matching_labels(g, top)
    a, b = L[ri], R[ci]
    if not left[L[0]]:  # swapped: the pairs from NetworkX's U side first
        a, b = b, a
    by_u = np.argsort(pos[a], kind="stable")  # NetworkX's rows: U's order
    d = dict(zip([nodes[x] for x in a[by_u].tolist()], [nodes[x] for x in b[by_u].tolist()]))
    d.update({y: x for x, y in d.items()})
    return d


__all__ = ["all_pairs_bellman_ford_path", "all_pairs_bellman_ford_path_length",
           "all_pairs_dijkstra", "all_pairs_dijkstra_path", "all_pairs_dijkstra_path_length",
           "all_pairs_shortest_path", "ancestors", "average_shortest_path_length",
           "barycenter", "bellman_ford_predecessor_and_distance", "bidirectional_dijkstra",
           "bidirectional_shortest_path", "center", "centroid", "descendants", "diameter",
           "dijkstra_predecessor_and_distance", "eccentricity", "floyd_warshall", "predecessor",
           "floyd_warshall_predecessor_and_distance", "global_efficiency",
           "hopcroft_karp_matching", "johnson", "maximum_flow_value", "minimum_cut", "minimum_cut_value",
           "minimum_weight_full_matching", "multi_source_dijkstra",
           "multi_source_dijkstra_path", "multi_source_dijkstra_path_length", "periphery",
           "radius", "single_target_shortest_path", "single_target_shortest_path_length",
           "wiener_index", "schultz_index", "gutman_index", "hyper_wiener_index"]
