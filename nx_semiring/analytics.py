"""Dispatched functions built on the engine's components, cores, triangles and communities.

The companions of :mod:`nx_semiring.algorithms` (which holds the first 35 functions and the
helpers these reuse): weak and strong connectivity counts and tests, the component of one
node, the k-core family and the k-truss, average clustering and transitivity, label
propagation communities and modularity. Same contract: NetworkX's signatures, its result types
and orders, its exceptions and messages; ``NotImplementedError`` where NetworkX must answer
(it then falls back when configured to), most such cases refused earlier by
:meth:`nx_semiring.interface.BackendInterface.can_run`.

Orders. Component sets come in the order of their first node (NetworkX's order for weak
components too); a set's own iteration order is the engine's (vertex order), NetworkX's the
order its BFS added the nodes: equal sets. The k-core family returns what
``G.subgraph(nodes).copy()`` returns, node for node and neighbour for neighbour
(:func:`_induced_copy` reproduces the order in which NetworkX's subgraph view iterates), and
``k_truss`` what NetworkX's ``G.copy()`` minus the dropped edges and isolated nodes is.
``label_propagation_communities`` colours the graph with NetworkX's own greedy colouring
(largest degree first, :func:`_greedy_colour`) and hands it to the engine's semi-synchronous
propagation, whose classes then update as NetworkX's do: the same communities, in the same
order (a ``dict_values`` as NetworkX returns). ``modularity`` takes each community's sums
from the engine's ``Sᵀ A S`` (exact with integer weights) and finishes NetworkX's formula on
them in Python: NetworkX's float to the bit (non-integer weights are left to NetworkX).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

import algorithms as alg
import semiring as sr
from semiring.backend.cpu import compiled as _compiled

from . import NX_RELEASE
from .algorithms import (_discovery, _graph, _groups, _host, _not_directed, _null_graph, _nx,
                         _order_level, _ordered_levels, _self_loops, _sets_in_search_order,
                         _tarjan, _unit_weights, clustering, core_number, triangles)
from .graph import SemiringGraph, from_networkx

# Integer weights whose absolute sum (twice: the degrees) stays below this give exact float64
# sums in the engine's Sᵀ A S, whatever their order: NetworkX's Python sums, to the bit
EXACT_SUMS = 2**53

# Integer degree sums whose products (out × in, the total squared) reach this wrap in
# NetworkX's modularity where a NumPy int64 weight made its sums NumPy int64
INT64_PRODUCTS = 2**63

__all__ = ["attracting_components", "average_clustering", "is_attracting_component",
           "is_strongly_connected", "number_attracting_components", "is_weakly_connected", "k_core",
           "k_corona", "k_crust", "k_shell", "k_truss", "label_propagation_communities",
           "modularity", "node_connected_component", "number_strongly_connected_components",
           "number_weakly_connected_components", "transitivity",
           "weakly_connected_components"]


def _not_undirected(g, name):
    if not g.directed:
        raise _nx().NetworkXNotImplemented("not implemented for undirected type")


def _labels_of(g, connection):
    return alg.connected_components(g.matrix(), connection)


# --------------------------------------------------------------------------- connectivity
class _Undirected:
    """A directed graph's successors then predecessors per vertex, as CSR arrays in the order
    NetworkX's weak ``_plain_bfs`` reads them (what :func:`_ordered_levels` walks): the
    predecessors in vertex order, where NetworkX reads ``G._pred``'s (edge insertion order,
    which the conversion does not keep; :func:`weakly_connected_components` checks that it
    never decides)."""

    def __init__(self, g, rows, cols, other):
        self.n = g.n
        heads = np.concatenate((rows, cols[other]))  # successor entries, predecessor entries
        tails = np.concatenate((cols, rows[other]))
        key = np.concatenate((2 * rows, 2 * cols[other] + 1))
        self.adj = tails[np.argsort(key, kind="stable")]
        self.indptr = np.concatenate(([0], np.cumsum(np.bincount(heads, minlength=g.n))))


def weakly_connected_components(G):
    """Sets of nodes, one per weakly connected component of a directed graph, in the order of
    their first node (NetworkX's order), each built in NetworkX's search order.

    NetworkX's search reads each node's successors, then its predecessors in ``G._pred``'s
    order, which the conversion does not keep: where the search finds two new nodes among one
    node's predecessors (not among its successors), their order is unknown and NetworkX
    runs the call (a set's iteration order depends on its insertion order).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1), (1, 2), (3, 4)])
    >>> list(nx.weakly_connected_components(G, backend="semiring"))
    [{0, 1, 2}, {3, 4}]
    """
    g = _graph(G)
    _not_undirected(g, "weakly_connected_components")
    labels = _host(_labels_of(g, "weak")).astype(np.int64, copy=False)
    rows = g.rows()
    cols = np.asarray(g.adj, dtype=np.int64)
    walk = _Undirected(g, rows, cols, rows != cols)
    order = None
    if g.n:
        _, roots = np.unique(labels, return_index=True)
        roots = np.sort(roots)
        succ = np.unique(rows * g.n + cols)
        order = [roots]
        for parents, children in _ordered_levels(walk, roots.tolist(), np.inf):
            p = np.asarray(parents, dtype=np.int64)
            c = np.asarray(children, dtype=np.int64)
            by_pred = ~np.isin(p * g.n + c, succ)  # found among p's predecessors
            if bool((np.bincount(p[by_pred], minlength=g.n) > 1).any()):
                raise NotImplementedError(
                    "nx_semiring: weakly_connected_components builds its sets in the order "
                    "of G._pred, which the conversion does not keep (NetworkX runs it)")
            order.append(c)
        order = np.concatenate(order)
    sets = _sets_in_search_order(g, labels, walk, order)
    return (c for c in sets)  # NetworkX's generator


def _count(g, connection) -> int:
    if g.n == 0:
        return 0
    return int(_host(_labels_of(g, connection)).max()) + 1


def number_weakly_connected_components(G):
    """The number of weakly connected components of a directed graph.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_weakly_connected_components(nx.DiGraph([(0, 1), (2, 3)]), backend="semiring")
    2
    """
    g = _graph(G)
    _not_undirected(g, "number_weakly_connected_components")
    return _count(g, "weak")


def is_weakly_connected(G):
    """Whether a directed graph is weakly connected (NetworkXPointlessConcept for the null
    graph).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_weakly_connected(nx.DiGraph([(0, 1), (2, 1)]), backend="semiring")
    True
    """
    g = _graph(G)
    _not_undirected(g, "is_weakly_connected")
    _null_graph(g)
    return _count(g, "weak") == 1


def number_strongly_connected_components(G):
    """The number of strongly connected components of a directed graph.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1), (1, 0), (1, 2)])
    >>> nx.number_strongly_connected_components(G, backend="semiring")
    2
    """
    g = _graph(G)
    _not_undirected(g, "number_strongly_connected_components")
    return _count(g, "strong")


def is_strongly_connected(G):
    """Whether a directed graph is strongly connected (NetworkXPointlessConcept for the null
    graph).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_strongly_connected(nx.DiGraph([(0, 1), (1, 0)]), backend="semiring")
    True
    """
    g = _graph(G)
    _not_undirected(g, "is_strongly_connected")
    _null_graph(g)
    return _count(g, "strong") == 1


def _attracting(g: SemiringGraph):
    """``(labels, attracting)``: each vertex's strong component (0..k-1) and, per
    component, whether no edge leaves it (a sink of the condensation: NetworkX's attracting
    component). NetworkXNotImplemented for an undirected graph."""
    _not_undirected(g, "attracting_components")
    if g.n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    labels = np.unique(_host(_labels_of(g, "strong")), return_inverse=True)[1].reshape(-1)
    rows = g.rows()
    cols = g.adj
    leaving = labels[rows] != labels[cols]
    k = int(labels.max()) + 1
    return labels, np.bincount(labels[rows[leaving]], minlength=k) == 0


def attracting_components(G):
    """The attracting components (strong components that no edge leaves) as sets of nodes,
    in NetworkX's order: the engine's strong components and the edges between them where
    there is at most one, of one node; else NetworkX's own order, its Tarjan search's (the
    components in its completion order, each set built in that search's order), by the CPU
    backend's compiled replica of that search (:func:`.algorithms.strongly_connected_components`;
    without Numba NetworkX runs it).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1), (1, 2), (3, 2)])
    >>> list(nx.attracting_components(G, backend="semiring"))
    [{2}]
    >>> list(nx.attracting_components(nx.DiGraph([(0, 1), (1, 0), (2, 3)]), backend="semiring"))
    [{0, 1}, {3}]
    """
    g = _graph(G)
    labels, attracting = _attracting(g)
    sinks = np.flatnonzero(attracting)
    members = [np.flatnonzero(labels == c) for c in sinks.tolist()]
    if sinks.size <= 1 and all(m.size == 1 for m in members):
        sets = [set(g.labels(m)) for m in members]
        return (c for c in sets)
    # NetworkX's are condensation's sinks among its strong components, in Tarjan's
    # completion order, each the set Tarjan built (its root, then its stack popped): an
    # insertion order a set's iteration order depends on
    order, starts = _tarjan(g, "attracting_components")
    k = starts.size - 1
    comp = np.empty(g.n, dtype=np.int64)
    comp[order] = np.repeat(np.arange(k, dtype=np.int64), np.diff(starts))
    rows = g.rows()
    leaving = comp[rows] != comp[g.adj]
    sink = np.bincount(comp[rows[leaving]], minlength=k) == 0
    names = g.labels(order)
    bounds = starts.tolist()
    sets = [set(names[bounds[c]:bounds[c + 1]]) for c in np.flatnonzero(sink).tolist()]
    return (c for c in sets)


def number_attracting_components(G):
    """The number of attracting components of a directed graph (strong components that no
    edge leaves).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_attracting_components(nx.DiGraph([(0, 1), (0, 2)]), backend="semiring")
    2
    """
    g = _graph(G)
    return int(_attracting(g)[1].sum())


def is_attracting_component(G):
    """Whether the whole directed graph is one attracting component (strongly connected;
    ``False`` for the null graph).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_attracting_component(nx.DiGraph([(0, 1), (1, 0)]), backend="semiring")
    True
    """
    g = _graph(G)
    labels, attracting = _attracting(g)
    return attracting.size == 1


def node_connected_component(G, n):
    """The set of nodes in the connected component of node ``n`` (an undirected graph), by
    the engine's BFS from it. KeyError where ``n`` is not a node, as NetworkX's search raises.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1), (1, 2), (5, 6)])
    >>> nx.node_connected_component(G, 0, backend="semiring")
    {0, 1, 2}
    """
    g = _graph(G)
    _not_directed(g, "node_connected_component")
    hash(n)  # an unhashable node: TypeError, as NetworkX's {source}
    if n not in g:
        raise KeyError(n)
    v = g.vertex(n)
    # inserted in NetworkX's BFS order (a set's iteration order depends on it), from the
    # caller's object: NetworkX's seen set starts as {n}
    order = _discovery(g, [v], level=_order_level(g, v))
    out = {n}
    out.update(g.labels(order[1:]))
    return out


# --------------------------------------------------------------------------- cores
def _attributed(G) -> SemiringGraph:
    """G converted with its node, edge and graph attributes (the subgraphs keep them)."""
    if isinstance(G, SemiringGraph):
        return G
    return from_networkx(G, preserve_edge_attrs=True, preserve_node_attrs=True,
                         preserve_graph_attrs=True)


def _empty_of(g):
    nx = _nx()
    T = (g.nx_class or (nx.DiGraph if g.directed else nx.Graph))()
    T.graph.update(g.graph)
    return T


def _node_attrs(g, v):
    return {} if g.node_data is None else g.node_data[v].copy()


def _edge_attrs(g, e):
    return {} if g.edge_data is None else g.edge_data[e].copy()


def _induced_copy(g: SemiringGraph, keep: list):
    """``G.subgraph(nodes).copy()`` for the nodes whose vertex is in ``keep`` (vertex numbers
    in node order), in NetworkX's orders: its subgraph view holds the nodes as a set and
    iterates that set, not G, when it has fewer than half of G's nodes (``FilterAtlas``);
    a node's neighbours in G's adjacency order. The copy adds the nodes, then the edges in the
    view's adjacency order, as ``Graph.copy`` does."""
    nodes = g.nodes
    chosen = set(nodes[v] for v in keep)  # built as NetworkX's show_nodes builds its set
    if 2 * len(chosen) < g.n:
        index = g.index
        order = [index[v] for v in chosen]
    else:
        order = keep
    T = _empty_of(g)
    T.add_nodes_from((nodes[v], _node_attrs(g, v)) for v in order)
    # the stored entries u → v with both ends kept, rows in the view's order (a stable sort by
    # each row's place in it), each row's entries in G's adjacency order
    inside = np.zeros(g.n, dtype=bool)
    inside[np.asarray(keep, dtype=np.int64)] = True
    rows = g.rows()
    sel = np.flatnonzero(inside[rows] & inside[g.adj])
    if order is not keep:
        place = np.empty(g.n, dtype=np.int64)
        place[np.asarray(order, dtype=np.int64)] = np.arange(len(order))
        sel = sel[np.argsort(place[rows[sel]], kind="stable")]
    T.add_edges_from((nodes[u], nodes[v], _edge_attrs(g, e)) for u, v, e in
                     zip(rows[sel].tolist(), g.adj[sel].tolist(), sel.tolist()))
    return T


def _cores(G, name, given):
    """(the graph with its attributes, its core numbers as a {node: core} dict in node
    order): the engine's (:func:`nx_semiring.algorithms.core_number`, with its errors)."""
    if given is not None:
        raise NotImplementedError(f"nx_semiring: {name} with core_number= given has nothing "
                                  f"for the engine to compute (NetworkX runs it)")
    g = _attributed(G)
    if g.multigraph:
        raise _nx().NetworkXNotImplemented("not implemented for multigraph type")
    return g, core_number(g)


def _core_subgraph(g, core, keep_if, k):
    """NetworkX's ``_core_subgraph``: the nodes whose core number passes ``keep_if(v, k)``."""
    if k is None:
        k = max(core.values())
    values = list(core.values())
    keep = [v for v in range(g.n) if keep_if(v, k, values)]
    return _induced_copy(g, keep)


def k_core(G, k=None, core_number=None):
    """The k-core (the subgraph of the nodes of core number at least k; k defaults to the
    largest core number), with G's node, edge and graph attributes.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.complete_graph(4)
    >>> G.add_edge(3, 4)
    >>> sorted(nx.k_core(G, backend="semiring"))
    [0, 1, 2, 3]
    """
    g, core = _cores(G, "k_core", core_number)
    return _core_subgraph(g, core, lambda v, k, c: c[v] >= k, k)


def k_shell(G, k=None, core_number=None):
    """The k-shell (the subgraph of the nodes of core number exactly k; k defaults to the
    largest core number), with G's attributes.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.complete_graph(4)
    >>> G.add_edge(3, 4)
    >>> sorted(nx.k_shell(G, 1, backend="semiring"))
    [4]
    """
    g, core = _cores(G, "k_shell", core_number)
    return _core_subgraph(g, core, lambda v, k, c: c[v] == k, k)


def k_crust(G, k=None, core_number=None):
    """The k-crust (the subgraph of the nodes of core number at most k; k defaults to the
    largest core number less one), with G's attributes.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.complete_graph(4)
    >>> G.add_edge(3, 4)
    >>> sorted(nx.k_crust(G, backend="semiring"))
    [4]
    """
    g, core = _cores(G, "k_crust", core_number)
    if k is None:
        k = max(core.values()) - 1
    return _core_subgraph(g, core, lambda v, k, c: c[v] <= k, k)


def k_corona(G, k, core_number=None):
    """The k-corona (the subgraph of the nodes of the k-core with exactly k neighbours in it),
    with G's attributes.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(4)
    >>> G.add_edge(0, 2)
    >>> sorted(nx.k_corona(G, 2, backend="semiring"))
    [1, 3]
    """
    g, core = _cores(G, "k_corona", core_number)
    values = list(core.values())
    if not isinstance(k, numbers.Real):
        raise NotImplementedError(f"nx_semiring: k_corona with k of type {type(k).__name__} "
                                  f"(NetworkX compares it itself)")
    # in_core(v) = |{w ∈ N(v) : core(w) ≥ k}|: one count over the stored entries
    c = np.asarray(values, dtype=np.int64) if values else np.zeros(0, dtype=np.int64)
    rows = g.rows()
    in_core = np.bincount(rows[c[g.adj] >= k], minlength=g.n).tolist()
    return _core_subgraph(g, core, lambda v, k, c: c[v] == k and k == in_core[v], k)


def k_truss(G, k):
    """The k-truss (the largest subgraph whose every edge lies on at least k - 2 of its
    triangles, without isolated nodes), by the engine's support peeling; what NetworkX's
    ``G.copy()`` with the dropped edges and the isolated nodes removed is, with G's
    attributes. A graph with self-loops is left to NetworkX (its support counts an endpoint's
    self-loop as a common neighbour).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.complete_graph(4)
    >>> G.add_edge(3, 4)
    >>> sorted(nx.k_truss(G, 3, backend="semiring").edges)
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    """
    nx = _nx()
    g = _attributed(G)
    if g.multigraph:
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    if g.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if not isinstance(k, numbers.Real) or isinstance(k, bool):
        raise NotImplementedError(f"nx_semiring: k_truss with k of type {type(k).__name__} "
                                  f"(NetworkX compares it itself)")
    if _self_loops(g):
        raise NotImplementedError("nx_semiring: k_truss of a graph with self-loops (NetworkX "
                                  "counts a self-loop's node as a common neighbour)")
    # an edge stays while its support s ≥ k - 2, i.e. s ≥ ceil(k) - 2 (s is an integer)
    kk = max(2, math.ceil(k)) if math.isfinite(k) else None
    if kk is None:
        if k > 0:  # k = inf: every edge is dropped; k = -inf: none
            return _truss_copy(g, np.zeros(g.adj.size, dtype=bool))
        kk = 2
    T = alg.k_truss(g.matrix(), kk)
    # the stored entries of G (adjacency order) that are edges of the truss
    ti, tj, _ = T.to_coo()
    ti, tj = _host(ti).astype(np.int64), _host(tj).astype(np.int64)
    rows = g.rows()
    kept = np.isin(rows * g.n + g.adj, ti * g.n + tj) if g.n else np.zeros(0, dtype=bool)
    return _truss_copy(g, kept)


def _truss_copy(g, kept):
    """G.copy() with the stored entries not ``kept`` and then the isolated nodes removed."""
    rows = g.rows()
    has = np.zeros(g.n, dtype=bool)
    has[rows[kept]] = True
    nodes, adj = g.nodes, g.adj
    T = _empty_of(g)
    T.add_nodes_from((nodes[v], _node_attrs(g, v)) for v in np.flatnonzero(has).tolist())
    T.add_edges_from((nodes[int(rows[e])], nodes[int(adj[e])], _edge_attrs(g, e))
                     for e in np.flatnonzero(kept).tolist())
    return T


# --------------------------------------------------------------------------- triangles
def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """The mean clustering coefficient of ``nodes`` (all by default), from the engine's
    clustering, summed in node order as NetworkX sums (ZeroDivisionError on no node).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.average_clustering(nx.complete_graph(3), backend="semiring")
    1.0
    """
    c = clustering(G, nodes, weight=weight).values()
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def transitivity(G):
    """3 × triangles / connected triples (0 when there is none), from the engine's triangle
    counts, as NetworkX's exact ratio of integers. Undirected graphs (NetworkX's answer for a
    directed one counts over successor sets: NetworkX runs it).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.transitivity(nx.complete_graph(4), backend="semiring")
    1.0
    """
    g = _graph(G)
    if g.directed:  # NetworkX counts over successor sets (its triangle iterator's G[v])
        raise NotImplementedError("nx_semiring: transitivity of a directed graph (NetworkX "
                                  "answers from successor sets; NetworkX runs it)")
    if g.multigraph:
        raise _nx().NetworkXNotImplemented("not implemented for multigraph type")
    if g.n == 0:
        return 0
    t = 2 * sum(triangles(g).values())  # NetworkX counts each triangle twice per node
    rows = g.rows()
    d = np.bincount(rows[rows != g.adj], minlength=g.n)  # degrees without self-loops
    contri = sum((d * (d - 1)).tolist())
    return 0 if t == 0 else t / contri


# --------------------------------------------------------------------------- communities
def _greedy_colour(g: SemiringGraph):
    """NetworkX's ``greedy_color(G)`` (strategy ``largest_first``) as an array: nodes by
    decreasing degree (a self-loop counts twice; ties in node order: ``sorted`` is stable),
    each taking the least colour none of its coloured neighbours has. Sequential by nature."""
    rows = g.rows()
    deg = np.diff(g.indptr) + np.bincount(rows[rows == g.adj], minlength=g.n)
    # decreasing (degree, rank) with rank n - 1 - node index: equal degrees in node order;
    # a self-loop is skipped as NetworkX skips its uncoloured node (compiled where Numba is)
    return _compiled.greedy_colouring(np.asarray(g.indptr, dtype=np.int64),
                                      np.asarray(g.adj, dtype=np.int64), deg.astype(np.int64),
                                      np.arange(g.n - 1, -1, -1, dtype=np.int64))


def label_propagation_communities(G):
    """The communities of NetworkX's semi-synchronous label propagation (Cordasco & Gargano),
    computed by the engine's propagation on NetworkX's colouring: the same communities in the
    same order, as a ``dict_values`` of sets.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.barbell_graph(4, 0)
    >>> list(nx.community.label_propagation_communities(G, backend="semiring"))
    [{0, 1, 2, 3}, {4, 5, 6, 7}]
    """
    g = _graph(G)
    _not_directed(g, "label_propagation_communities")
    if g.multigraph:  # NetworkX's colouring orders by degree, parallel edges counted
        raise NotImplementedError("nx_semiring: label_propagation_communities of a "
                                  "multigraph (NetworkX runs it)")
    if g.n == 0:
        return {}.values()
    colours = sr.to_device(_greedy_colour(g), g.device)
    labels = alg.label_propagation(g.matrix(), colors=colours)
    return dict(enumerate(_groups(g, labels))).values()


def modularity(G, communities, weight="weight", resolution=1):
    """Newman's modularity of the partition ``communities`` of G: NetworkX's value to the
    last bit. The engine's community matrix ``Sᵀ A S`` gives each community's internal
    weight and degree sums (:func:`algorithms.community_weights`), exact with integer weights
    (unit weights included); NetworkX's formula is then finished in Python on those sums,
    term by term and summed in the communities' order, as NetworkX does. Non-integer weights
    are left to NetworkX, whose float sums follow its set iteration order, as are a
    ``communities`` that is not a partition of G (NetworkX's NotAPartition names G as
    NetworkX prints it), multigraphs, and NumPy weights narrower than 64 bits (NetworkX's
    degree sums wrap in their type). NumPy weights give NetworkX's NumPy float64, its terms
    added one by one as NetworkX's ``sum`` adds NumPy floats (Python 3.12's ``sum``
    compensates the rounding of Python floats only). Weights summing to 0 give NetworkX
    3.7's 0 (with earlier releases, their ZeroDivisionError).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.barbell_graph(3, 0)
    >>> nx.community.modularity(G, [{0, 1, 2}, {3, 4, 5}], backend="semiring")
    0.35714285714285715
    """
    g = _graph(G, weight)
    if g.multigraph:  # NetworkX sums parallel edges; the conversion keeps their minimum
        raise NotImplementedError("nx_semiring: modularity of a multigraph (NetworkX runs it)")
    if not isinstance(communities, list):
        communities = list(communities)
    label = np.full(g.n, -1, dtype=np.int64)
    index = g.index
    # NetworkX's is_partition iterates every community before it takes their len(): its
    # TypeError for a community that is no collection (an int: "'int' object is not
    # iterable") comes from the iteration
    members = [list(c) for c in communities]
    total = sum(len(c) for c in communities)
    for i, c in enumerate(members):
        for v in c:
            if v in g:
                label[index[v]] = i
    # NetworkX's is_partition: every node in some community, sizes summing to n (so none
    # twice, no stranger)
    if total != g.n or bool((label < 0).any()):
        raise NotImplementedError("nx_semiring: not a partition of G; NetworkX raises its "
                                  "NotAPartition")
    unit = _unit_weights(g, weight)
    if unit:
        M, floats = g.matrix(None, unit=1), False
    else:
        w = g.weights(weight)
        floats = w.dtype.kind == "f"
        if w.dtype.kind not in "biuf" or (floats and not bool((w == np.floor(w)).all())):
            raise NotImplementedError("nx_semiring: modularity with non-integer weights "
                                      "(NetworkX's float sums follow its set iteration order; "
                                      "NetworkX runs it)")
        if float(np.abs(w).sum()) * 2 >= EXACT_SUMS:
            raise NotImplementedError("nx_semiring: modularity with weights summing past "
                                      "2^53 (NetworkX runs it)")
        if g.narrow.get(weight) is not None and g.narrow[weight].kind != "b":
            raise NotImplementedError("nx_semiring: modularity with NumPy weights narrower "
                                      "than 64 bits (NetworkX's degree sums wrap in their "
                                      "type; NetworkX runs it)")
        M = g.matrix(weight)
    k = len(communities)
    try:
        sums = alg.community_weights(M, sr.to_device(label, g.device), directed=g.directed)
    except (sr.InvalidValue, sr.DomainMismatch) as exc:
        raise NotImplementedError(f"nx_semiring: modularity: {exc}") from exc
    # NetworkX's sums are ints with int weights, floats where a weight is a float: the same
    # values (exact), and the same type for norm, whose 1 / D² rounds once from an int D
    kind = float if floats else int
    inner, dout, din = ([kind(x) for x in _host(a).tolist()] for a in sums)
    pad = k - len(inner)
    if pad > 0:  # communities numbered past the last nonempty one: empty, all sums 0
        inner, dout, din = (x + [kind(0)] * pad for x in (inner, dout, din))
    # NetworkX's modularity from here on, the same operations in the same order
    deg_sum = sum(dout)
    if deg_sum == 0 and NX_RELEASE >= (3, 7):
        return 0  # NetworkX 3.7: the modularity of no weight (m == 0) is its int 0
    if deg_sum == 0 and not unit and weight in g.numpy_typed:
        # NetworkX's degree sum is then a NumPy zero: its 1 / 0 is inf and its modularity
        # nan (a RuntimeWarning), where these Python sums raise ZeroDivisionError
        raise NotImplementedError("nx_semiring: modularity of NumPy weights summing to 0 "
                                  "(NetworkX's answer is nan; NetworkX runs it)")
    # (NumPy integers beside floats or beyond int64 made the values float64 here: kind float,
    # but NetworkX's sums of them stay NumPy integers, which wrap the same way)
    if (kind is int or set(g.numpy_typed.get(weight, "")) & {"i", "u"}) and \
            deg_sum**2 >= INT64_PRODUCTS:
        raise NotImplementedError("nx_semiring: modularity whose degree products pass 2^63 "
                                  "(NetworkX's sums are NumPy int64 where one weight is, and "
                                  "their products wrap; NetworkX runs it)")
    # NumPy weights: NetworkX's degree sum is a NumPy scalar, so its norm is 1 / D² in NumPy
    # (D² rounded to a float64 first), each term a NumPy float64, and its sum() of them
    # plain additions (Python 3.12's sum() compensates only Python floats' rounding)
    numpy_sums = not unit and bool(g.numpy_typed.get(weight))
    if numpy_sums and isinstance(resolution, int) and not isinstance(resolution, bool) and \
            abs(resolution) * deg_sum**2 >= INT64_PRODUCTS:
        raise NotImplementedError("nx_semiring: modularity whose resolution × degree products "
                                  "pass 2^63 (NetworkX's NumPy products wrap; NetworkX runs "
                                  "it)")
    if g.directed:
        m = deg_sum
        norm = 1 / (float(m**2) if numpy_sums else m**2)
    else:
        m = deg_sum / 2
        norm = 1 / (float(deg_sum**2) if numpy_sums else deg_sum**2)
        din = dout
    terms = (L_c / m - resolution * o * i * norm for L_c, o, i in zip(inner, dout, din))
    if not numpy_sums:
        return sum(terms)
    total = 0
    for term in terms:
        total = total + term
    return np.float64(total)
