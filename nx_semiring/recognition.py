"""Dispatched recognition tests and DAG measures on the engine's components and searches.

Session 21 (issue 17): questions users ask of a graph's shape, each answered by one or two
engine calls and a pass over the converted edges (host arrays):

- acyclicity: ``is_directed_acyclic_graph``, ``has_cycle`` (no self-loop and n strong
  components), ``is_aperiodic`` (the engine's BFS levels from the first node: the gcd of
  ``level[u] - level[v] + 1`` over the edges, NetworkX's own formula, which its BFS adds up
  edge by edge); ``is_semiconnected`` (the condensation's longest path, by the engine's
  Bellman–Ford, visits every strong component);
- trees: ``is_tree``, ``is_forest`` (m = n - #weak components), ``is_arborescence``,
  ``is_branching`` (the same and in-degrees at most 1); a multigraph with parallel edges
  (counted by the conversion) is none of them;
- bipartite graphs: ``is_bipartite``, ``bipartite.color``, ``bipartite.sets`` (the engine's
  BFS over the undirected pattern from a virtual vertex joined to one root per weak
  component: the first node, in node order, with an out-edge, which is where NetworkX's
  ``color`` starts that component and colours 1);
- ``dag_longest_path_length``: the engine's Bellman–Ford over the negated weights from a
  virtual vertex joined to every node by a 0-weight edge (NetworkX's path may start at any
  node: its ``dist`` restarts at 0 wherever every predecessor's is lower);
- ``flow_hierarchy``: the weight outside the strong components over the total.

Every answer is a bool, a count or a number NetworkX computes exactly (integer sums, or
floats only where each sum is exact); dicts (``color``) are keyed in node order, where
NetworkX's order is its search's (equal dicts). NetworkX's exceptions and messages are
reproduced; ``NotImplementedError`` where NetworkX must answer (``can_run`` refuses most such
calls first: multigraphs where parallel edges count in a sum, ``top_nodes=``).
"""

from __future__ import annotations

import numpy as np

import algorithms as alg
import semiring as sr
from algorithms.cores import undirected_pattern

from . import NX_RELEASE
from .algorithms import _exact_float_sums, _exact_sums, _host, _nx, _with_virtual_source
from .analytics import _not_undirected
from .graph import SemiringGraph, from_networkx

__all__ = ["color", "dag_longest_path_length", "flow_hierarchy", "has_cycle",
           "is_aperiodic", "is_arborescence", "is_bipartite", "is_branching",
           "is_directed_acyclic_graph", "is_forest", "is_semiconnected", "is_tree", "sets"]


def _graph(G, weight=None, default=1) -> SemiringGraph:
    if isinstance(G, SemiringGraph):
        return G
    return from_networkx(G, edge_attrs={weight: default} if isinstance(weight, str) else None)


def _no_multigraph(g: SemiringGraph, name):
    if g.multigraph:
        raise NotImplementedError(f"nx_semiring: {name} of a multigraph counts its parallel "
                                  f"edges, which the conversion merged (NetworkX runs it)")


def _labels(g: SemiringGraph, connection):
    """Each vertex's component (host, numbered 0..k-1 by least vertex) and k."""
    if g.n == 0:
        return np.zeros(0, dtype=np.int64), 0
    labels = _host(alg.connected_components(g.matrix(), connection)).astype(np.int64)
    return labels, int(labels.max()) + 1


def _has_self_loop(g: SemiringGraph) -> bool:
    return bool((g.adj == g.rows()).any())


def _acyclic(g: SemiringGraph) -> bool:
    """A directed graph without a cycle: no self-loop and every strong component a single
    vertex."""
    if g.n == 0:
        return True
    if _has_self_loop(g):
        return False
    return _labels(g, "strong")[1] == g.n


# --------------------------------------------------------------------------- acyclicity
def has_cycle(G):
    """Whether a directed graph has a cycle (NetworkXError for an undirected one, from
    NetworkX's topological sort).

    Examples
    --------
    >>> import networkx as nx
    >>> from networkx.algorithms.dag import has_cycle
    >>> has_cycle(nx.DiGraph([(0, 1), (1, 2), (2, 0)]), backend="semiring")
    True
    """
    g = _graph(G)
    if not g.directed:
        raise _nx().NetworkXError("Topological sort not defined on undirected graphs.")
    return not _acyclic(g)


def is_directed_acyclic_graph(G):
    """Whether G is a directed graph without a cycle (``False`` for an undirected graph).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_directed_acyclic_graph(nx.DiGraph([(0, 1), (0, 2), (1, 2)]), backend="semiring")
    True
    """
    g = _graph(G)
    return g.directed and _acyclic(g)


def is_aperiodic(G):
    """Whether a strongly connected directed graph is aperiodic: the gcd of the cycle
    lengths is 1, read as NetworkX reads it from BFS levels from the first node.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_aperiodic(nx.DiGraph([(0, 1), (1, 0)]), backend="semiring")
    False
    """
    nx = _nx()
    g = _graph(G)
    if not g.directed:  # (3.7: its not_implemented_for decorator)
        if NX_RELEASE >= (3, 7):
            raise nx.NetworkXNotImplemented("not implemented for undirected type")
        raise nx.NetworkXError("is_aperiodic not defined for undirected graphs")
    if g.n == 0:
        raise nx.NetworkXPointlessConcept("Graph has no nodes.")
    if _labels(g, "strong")[1] != 1:
        raise nx.NetworkXError("Graph is not strongly connected.")
    level = _host(alg.bfs(g.matrix(), 0)).astype(np.int64)
    # NetworkX: gcd(g, levels[u] - levels[v] + 1) over every edge it scans (all of them: the
    # graph is strongly connected); a tree edge adds gcd(g, 0) = g
    return int(np.gcd.reduce(np.abs(level[g.rows()] - level[g.adj] + 1), initial=0)) == 1


def is_semiconnected(G):
    """Whether, of any two nodes of a directed graph, one reaches the other: the
    condensation (the engine's strong components, k of them) has a Hamiltonian path, i.e.
    its longest path has k - 1 edges (a DAG's topological order is then unique, and
    NetworkX's check of its consecutive pairs passes). The longest path is the engine's
    Bellman–Ford over the condensation's edges weighing -1 from a virtual vertex joined to
    every component. NetworkXPointlessConcept for the null graph.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_semiconnected(nx.DiGraph([(1, 2), (2, 3), (3, 2)]), backend="semiring")
    True
    >>> nx.is_semiconnected(nx.DiGraph([(1, 2), (3, 2)]), backend="semiring")
    False
    """
    g = _graph(G)
    _not_undirected(g, "is_semiconnected")
    if g.n == 0:
        raise _nx().NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    labels, k = _labels(g, "strong")
    if k == 1:
        return True
    cu, cv = labels[g.rows()], labels[g.adj]
    between = cu != cv
    # the condensation's edges, once each, rows sorted; vertex k joined to every component
    pairs = np.unique(cu[between] * k + cv[between])
    rows = np.concatenate([pairs // k, np.full(k, k, dtype=np.int64)])
    cols = np.concatenate([pairs % k, np.arange(k, dtype=np.int64)])
    vals = np.concatenate([np.full(pairs.size, -1, dtype=np.int64),
                           np.zeros(k, dtype=np.int64)])
    indptr = np.zeros(k + 2, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=k + 1), out=indptr[1:])
    dev = g.device
    C = sr.Matrix.from_csr(sr.to_device(indptr, dev), sr.to_device(cols, dev),
                           sr.to_device(vals, dev), (k + 1, k + 1), check=False)
    dist = _host(alg.bellman_ford(C, k))[:k]
    return int(-dist.min()) == k - 1


# --------------------------------------------------------------------------- trees
def _pointless(g):
    if g.n == 0:
        raise _nx().NetworkXPointlessConcept("G has no nodes.")


def _tree(g: SemiringGraph) -> bool:
    # NetworkX: len(G) - 1 == G.number_of_edges() and is_connected(G) (weakly if directed)
    return g.n - 1 == g.number_of_edges() and _labels(g, "weak")[1] == 1


def _forest(g: SemiringGraph) -> bool:
    # every weak component c has at least |c| - 1 edges, so all have exactly |c| - 1 (NetworkX
    # checks each) where the total is n - #components
    return g.number_of_edges() == g.n - _labels(g, "weak")[1]


def _parallel(g: SemiringGraph, name) -> bool:
    """Whether g is a multigraph with parallel edges. NetworkX's edge counts include them:
    a tree or forest has none (a component with one more edge than its simple graph's
    |c| - 1 at least), so the answer is False there, and a multigraph without them is its
    simple graph. NotImplementedError where the conversion did not record it."""
    if not g.multigraph:
        return False
    if g.parallel is None:
        raise NotImplementedError(f"nx_semiring: {name} of a multigraph whose parallel edges "
                                  f"the conversion did not count (NetworkX runs it)")
    return g.parallel


def _in_degree_at_most_one(g: SemiringGraph) -> bool:
    return bool((np.bincount(g.adj, minlength=g.n) <= 1).all())


def is_tree(G):
    """Whether G (its undirected view if directed) is a tree: n - 1 edges and connected
    (parallel edges of a multigraph count). NetworkXPointlessConcept for the null graph.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_tree(nx.path_graph(4), backend="semiring")
    True
    """
    g = _graph(G)
    _pointless(g)
    if _parallel(g, "is_tree"):
        return False
    return _tree(g)


def is_forest(G):
    """Whether every (weakly) connected component of G is a tree. NetworkXPointlessConcept for
    the null graph.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_forest(nx.Graph([(0, 1), (2, 3)]), backend="semiring")
    True
    """
    g = _graph(G)
    _pointless(g)
    if _parallel(g, "is_forest"):
        return False
    return _forest(g)


def is_arborescence(G):
    """Whether a directed graph is a tree whose nodes have in-degree at most 1.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_arborescence(nx.DiGraph([(0, 1), (0, 2)]), backend="semiring")
    True
    """
    return _branching(G, "is_arborescence", _tree)


def is_branching(G):
    """Whether a directed graph is a forest whose nodes have in-degree at most 1.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_branching(nx.DiGraph([(0, 1), (2, 1)]), backend="semiring")
    False
    """
    return _branching(G, "is_branching", _forest)


def _branching(G, name, shape) -> bool:
    """A digraph whose undirected ``shape`` (:func:`_tree` or :func:`_forest`) holds and
    whose nodes have in-degree at most 1 (NetworkX's errors for undirected and null graphs;
    parallel edges: False)."""
    g = _graph(G)
    _not_undirected(g, name)
    _pointless(g)
    if _parallel(g, name):
        return False
    return shape(g) and _in_degree_at_most_one(g)


# --------------------------------------------------------------------------- bipartite
def _rooted(M: sr.Matrix, roots, device) -> sr.Matrix:
    """[M 0; e_R 0]: M (structure only) with a vertex n that reaches each vertex of the
    sorted ``roots`` by an edge."""
    n = M.nrows
    indptr, indices = _host(M.indptr).astype(np.int64), _host(M.indices).astype(np.int64)
    indptr = np.concatenate([indptr, [indptr[-1] + roots.size]])
    indices = np.concatenate([indices, roots])
    return sr.Matrix.from_csr(sr.to_device(indptr, device), sr.to_device(indices, device),
                              None, (n + 1, n + 1), check=False)


def _two_colouring(g: SemiringGraph):
    """NetworkX's ``bipartite.color`` of g as a host int array (1 or 0 per vertex), or
    ``None`` where g is not bipartite.

    NetworkX starts a search at each node, in node order, that is uncoloured and has a
    neighbour (``len(G[n])``: an out-neighbour if directed), colours it 1 and alternates
    along the edges of the undirected view; the nodes without any edge get 0. Here: the
    weak components, the first such node of each as its root, and the engine's BFS over the
    undirected pattern from a virtual vertex joined to the roots; colour 1 at an even
    distance from the root. A self-loop, or an edge between two nodes of one colour, is an
    odd cycle."""
    n = g.n
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if _has_self_loop(g):
        return None
    colour = np.zeros(n, dtype=np.int64)
    if g.adj.size == 0:
        return colour
    labels, _ = _labels(g, "weak")
    starts = np.flatnonzero(np.diff(g.indptr) > 0)  # ascending: node order
    roots = np.sort(starts[np.unique(labels[starts], return_index=True)[1]])
    M = g.matrix()
    S = undirected_pattern(M, "is_bipartite") if g.directed else M
    level = _host(alg.bfs(_rooted(S, roots, g.device), n)).astype(np.int64)[:n]
    reached = level > 0
    colour[reached] = level[reached] % 2  # the root is at level 1: colour 1
    if bool((colour[g.rows()] == colour[g.adj]).any()):
        return None
    return colour


def is_bipartite(G):
    """Whether G (its undirected view if directed) is two-colourable.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_bipartite(nx.cycle_graph(4), backend="semiring")
    True
    >>> nx.is_bipartite(nx.cycle_graph(5), backend="semiring")
    False
    """
    return _two_colouring(_graph(G)) is not None


def _colour_order(g: SemiringGraph) -> list:
    """The vertices in the order NetworkX's ``bipartite.color`` inserts them into its dict
    (undirected): from each uncoloured node with neighbours in node order a search that pops
    the last pushed vertex and pushes its uncoloured neighbours in adjacency order; then
    the isolated nodes. One Python pass over the edges, as NetworkX's."""
    indptr, adj = g.indptr.tolist(), g.adj.tolist()
    seen = dict.fromkeys([])
    for n in range(g.n):
        if n in seen or indptr[n] == indptr[n + 1]:
            continue
        seen[n] = None
        stack = [n]
        while stack:
            v = stack.pop()
            for w in adj[indptr[v]:indptr[v + 1]]:
                if w not in seen:
                    seen[w] = None
                    stack.append(w)
    seen.update(dict.fromkeys(i for i in range(g.n) if indptr[i] == indptr[i + 1]))
    return list(seen)


def _undirected_order_only(g: SemiringGraph, name: str) -> None:
    """NetworkX's colour dict of a digraph is keyed in its search's order over each node's
    predecessors (in edge insertion order, which the conversion does not keep) and then
    successors; sets built from it iterate in that order. Exact for undirected graphs only."""
    if g.directed:
        raise NotImplementedError(f"nx_semiring: {name} of a directed graph (NetworkX's "
                                  "answer is ordered by its predecessor dicts' insertion "
                                  "order: NetworkX runs it)")


def color(G):
    """NetworkX's two-colouring ``{node: 1 or 0}`` (``bipartite.color``): in each connected
    component with an edge, 1 for the nodes at an even distance from the first node (in node
    order) that has an out-neighbour; 0 for the nodes without edges. NetworkXError where G is
    not bipartite. Keys in NetworkX's order (its search's, one Python pass over the edges);
    a directed graph: NetworkX runs it (:func:`_undirected_order_only`).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bipartite.color(nx.path_graph(4), backend="semiring")
    {0: 1, 1: 0, 2: 1, 3: 0}
    """
    g = _graph(G)
    _undirected_order_only(g, "bipartite.color")
    colour = _two_colouring(g)
    if colour is None:
        raise _nx().NetworkXError("Graph is not bipartite.")
    nodes, colour = g.nodes, colour.tolist()
    return {nodes[i]: colour[i] for i in _colour_order(g)}


def sets(G, top_nodes=None):
    """The two sides ``(X, Y)`` of a connected bipartite graph (``bipartite.sets``): X the
    nodes NetworkX's ``color`` gives 1. AmbiguousSolution for a disconnected graph,
    NetworkXError where G is not bipartite, NetworkXPointlessConcept for the null graph.
    ``top_nodes=`` leaves nothing for the engine, and a directed graph's order is NetworkX's
    own: NetworkX runs those.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bipartite.sets(nx.path_graph(4), backend="semiring")
    ({0, 2}, {1, 3})
    """
    nx = _nx()
    if top_nodes is not None:
        raise NotImplementedError("nx_semiring: bipartite.sets with top_nodes= is set(G) - "
                                  "set(top_nodes), nothing for the engine (NetworkX runs it)")
    g = _graph(G)
    if g.n == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    if _labels(g, "weak")[1] != 1:
        raise nx.AmbiguousSolution("Disconnected graph: Ambiguous solution for bipartite sets.")
    _undirected_order_only(g, "bipartite.sets")
    colour = _two_colouring(g)
    if colour is None:
        raise nx.NetworkXError("Graph is not bipartite.")
    # built as NetworkX builds them, in its colour dict's order: a set's iteration order
    # follows its insertion order where hashes collide, and NetworkX's callers (the
    # matchings) key their answers in it
    nodes, order = g.nodes, _colour_order(g)
    return ({nodes[i] for i in order if colour[i] == 1},
            {nodes[i] for i in order if colour[i] != 1})


# --------------------------------------------------------------------------- DAG measures
def dag_longest_path_length(G, weight="weight", default_weight=1):
    """The largest total weight of a path of a DAG (NetworkX's ``dag_longest_path_length``:
    a path may start at any node, so the answer is at least the int 0; an edge without
    ``weight`` weighs ``default_weight``; ``weight=None``: every edge does).

    The engine's Bellman–Ford over the negated weights from a virtual vertex joined to every
    node by a 0-weight edge: minus the least distance. Exact: integer weights, or floats
    whose sums are exact in any order (NetworkX adds its path's weights in path order);
    an int where every weight is an int, a float where every weight is a non-integral float
    (an integral value among floats may be an int, and NetworkX's sum along its path is an
    int or a float by the edges it takes: NetworkX runs those).
    NetworkXUnfeasible where G has a cycle, as NetworkX's topological sort raises.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"cost": 1}), (1, 2, {"cost": 1}), (0, 2, {"cost": 42})])
    >>> nx.dag_longest_path_length(G, backend="semiring")
    2
    >>> nx.dag_longest_path_length(G, weight="cost", backend="semiring")
    42
    """
    nx = _nx()
    g = _graph(G, weight, default_weight)
    _not_undirected(g, "dag_longest_path_length")
    _no_multigraph(g, "dag_longest_path_length")  # NetworkX takes the heaviest parallel edge
    if g.n == 0:
        return 0
    if weight is not None and g.adj.size and g.weights(weight).dtype.kind not in "biuf":
        # (None, str, Fraction, Decimal, ints beyond int64 among them): NetworkX adds them
        # along its topological order as it goes, so on a graph with a cycle its TypeError
        # or its NetworkXUnfeasible comes first by that order
        raise NotImplementedError(f"nx_semiring: {g.weights(weight).dtype} weights (NetworkX "
                                  f"runs it)")
    if not _acyclic(g):
        raise nx.NetworkXUnfeasible("Graph contains a cycle or graph changed during iteration")
    if g.adj.size == 0:
        return 0
    if weight is None:
        if not isinstance(default_weight, (int, float)) or isinstance(default_weight, bool):
            raise NotImplementedError("nx_semiring: a default_weight that is not a Python int "
                                      "or float (NetworkX adds it as it is)")
        w = np.full(g.adj.size, default_weight,
                    dtype=np.int64 if isinstance(default_weight, int) else np.float64)
    else:
        # a conversion that kept every edge's dict (NetworkX's cache serves one made for k_core
        # here) read the weights with its own default, which only an edge without one sees
        if g.defaults.get(weight) != default_weight and (weight not in g.values
                                                         or weight in g.partial):
            raise NotImplementedError(f"nx_semiring: {weight!r} converted with default "
                                      f"{g.defaults.get(weight)!r}, not default_weight="
                                      f"{default_weight!r} (NetworkX runs it)")
        _exact_sums(g, weight, sums=False)  # its own type checks below
        w = g.weights(weight)
        if w.dtype.kind == "b" or weight in g.numpy_typed:
            raise NotImplementedError("nx_semiring: bool or NumPy-typed weights, whose sums "
                                      "NetworkX types its own way (NetworkX runs it)")
    if w.dtype.kind == "f":
        if not bool(np.isfinite(w).all()) or not _exact_float_sums(w, g.n):
            raise NotImplementedError("nx_semiring: float weights whose path sums round, or "
                                      "inf/NaN weights (NetworkX runs it)")
        if weight is not None and bool((w == np.rint(w)).any()):
            # one float64 array holds ints beside floats (or a default of the other type):
            # NetworkX's sum is an int or a float by the path it takes, which the engine's
            # value does not tell (an integral float, 3.0, is refused with them)
            raise NotImplementedError("nx_semiring: integral values among float weights, "
                                      "maybe ints beside floats, whose sum NetworkX types by "
                                      "its path (NetworkX runs it)")
    elif w.dtype.kind in "iu":
        if g.n * max(abs(int(w.min())), abs(int(w.max()))) >= 2**62:
            raise NotImplementedError("nx_semiring: integer path sums that may leave int64 "
                                      "(NetworkX runs it)")
        w = w.astype(np.int64)
    else:
        raise NotImplementedError(f"nx_semiring: {w.dtype} weights (NetworkX runs it)")
    A = _with_virtual_source(g, -w[g.order()], np.arange(g.n, dtype=np.int64))
    dist = _host(alg.bellman_ford(A, g.n))[:g.n]
    best = -dist.min()
    if best <= 0:  # NetworkX's path is its first node alone: the int 0
        return 0
    return int(best) if w.dtype.kind in "iu" else float(best)


def flow_hierarchy(G, weight=None):
    """The fraction of the edges' weight (``weight=None``: of the edges) that lies on no
    cycle: 1 - (weight inside the strong components) / (total weight), NetworkX's float.

    Exact as NetworkX's: edge counts (Python ints, one true division), or integer weights,
    whose sums NetworkX forms as exact floats (``G.size(weight)``); other floats are left to
    NetworkX (its sums round in its order).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.flow_hierarchy(nx.DiGraph([(0, 1), (1, 0), (1, 2)]), backend="semiring")
    0.33333333333333337
    """
    nx = _nx()
    g = _graph(G, weight)
    _no_multigraph(g, "flow_hierarchy")
    if g.adj.size == 0:
        raise nx.NetworkXError("flow_hierarchy not applicable to empty graphs")
    if not g.directed:
        raise nx.NetworkXError("G must be a digraph in flow_hierarchy")
    labels, _ = _labels(g, "strong")
    inside = labels[g.rows()] == labels[g.adj]
    if weight is None:
        return 1 - int(inside.sum()) / int(g.adj.size)
    w = g.weights(weight)
    if weight in g.numpy_typed or w.dtype.kind not in "iuf":
        raise NotImplementedError("nx_semiring: NumPy-typed or non-numeric weights, whose "
                                  "sums NetworkX types its own way (NetworkX runs it)")
    if w.dtype.kind == "f" and not (bool(np.isfinite(w).all()) and
                                    bool((w == np.rint(w)).all())):
        raise NotImplementedError("nx_semiring: non-integral float weights, whose sums "
                                  "round in NetworkX's order (NetworkX runs it)")
    if 2 * max(abs(float(w.min())), abs(float(w.max()))) * w.size >= 2.0**53:
        raise NotImplementedError("nx_semiring: weight sums beyond 2^53, which round "
                                  "(NetworkX runs it)")
    ints = w.astype(np.int64)
    # NetworkX: each G.subgraph(c).size(weight) is (in + out weighted degrees) / 2, an exact
    # float of an integer below 2^53, their sum too
    return 1 - float(int(ints[inside].sum())) / float(int(ints.sum()))
