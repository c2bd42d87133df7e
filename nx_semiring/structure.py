"""Dispatched functions read off the converted structure: degree centralities, isolates, and
the spanning-forest functions beside ``minimum_spanning_tree``.

Degrees are the row lengths of the conversion's CSR (``indptr``) and, for in-degrees, a count
of each column among its entries (``adj``): both host arrays of every
:class:`~nx_semiring.graph.SemiringGraph`, whichever device holds its matrices, so these
functions touch no device array (a degree vector from the GPU would cost a copy back for
the same O(n + m) count). NetworkX's values exactly: ``G.degree()`` counts an undirected
self-loop twice (it is stored once), a directed one once out and once in; ``d * (1.0 /
(n - 1.0))`` rounded as NetworkX rounds it; keys in node order. A multigraph's degrees count
its parallel edges, which the conversion merges into one entry: ``can_run`` refuses
multigraphs for the degree centralities (not for isolates, where only "no edge at all"
matters).

The spanning-forest functions (``maximum_spanning_tree``, ``minimum_spanning_edges``,
``maximum_spanning_edges``) share ``minimum_spanning_tree``'s engine call
(:func:`nx_semiring.algorithms._spanning_edges`: Borůvka on the ranks of the edges in
Kruskal's order, which makes the forest Kruskal's, ties included). The edge generators yield
Kruskal's edges in Kruskal's order; ``'prim'`` and ``'boruvka'`` yield in their own search's
order, which the engine does not reproduce, and their trees list the edges in that order:
edge generators and trees leave them to NetworkX (``can_run``), as ``minimum_spanning_tree``
does.

Session 21: ``average_neighbor_degree`` (the degrees and the neighbour sums from the host
arrays, exact integer sums: integer weights, or float weights that are integers) and
``reciprocity`` / ``overall_reciprocity`` (the reciprocated edges: the row lengths of the
engine's P ∘ Pᵀ, the one engine call of this module, on the graph's device).
"""

from __future__ import annotations

import numpy as np

import semiring as sr

from .algorithms import _graph, _host, _nx, _spanning_edges, _spanning_graph, _spanning_tree
from .graph import SemiringGraph

__all__ = ["average_neighbor_degree", "degree_centrality", "in_degree_centrality",
           "is_isolate", "isolates", "maximum_spanning_edges", "maximum_spanning_tree",
           "minimum_spanning_edges", "number_of_isolates", "out_degree_centrality",
           "overall_reciprocity", "reciprocity"]


def _no_multigraph(g: SemiringGraph, name):
    if g.multigraph:
        raise NotImplementedError(f"nx_semiring: {name} of a multigraph counts its parallel "
                                  f"edges, which the conversion merged (NetworkX runs it)")


def _out_degrees(g: SemiringGraph):
    """Entries per row (host int64): the out-degree, or an undirected degree with each
    self-loop once."""
    return np.diff(g.indptr)


def _in_degrees(g: SemiringGraph):
    """Entries per column (host int64)."""
    return np.bincount(g.adj, minlength=g.n)


def _degrees(g: SemiringGraph):
    """NetworkX's ``G.degree()`` of every vertex (simple graphs): in + out for a directed
    graph (a self-loop adds one to each), the row length plus one per self-loop for an
    undirected one (NetworkX counts the loop twice)."""
    if g.directed:
        return _out_degrees(g) + _in_degrees(g)
    rows = g.rows()
    return _out_degrees(g) + np.bincount(rows[g.adj == rows], minlength=g.n)


def _centrality(g: SemiringGraph, deg):
    """NetworkX's ``{n: d * s}`` with ``s = 1.0 / (len(G) - 1.0)``: the same float products
    (an int degree below 2^53 is exact as a float64, and one IEEE multiplication rounds as
    Python's does); ``{n: 1}`` for at most one node."""
    if g.n <= 1:
        return dict.fromkeys(g.nodes, 1)
    s = 1.0 / (g.n - 1.0)
    return dict(zip(g.nodes, (deg.astype(np.float64) * s).tolist()))


def degree_centrality(G):
    """{node: degree / (n - 1)}, NetworkX's floats, from the converted structure.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.degree_centrality(nx.path_graph(3), backend="semiring")
    {0: 0.5, 1: 1.0, 2: 0.5}
    """
    g = _graph(G)
    _no_multigraph(g, "degree_centrality")
    return _centrality(g, _degrees(g) if g.n > 1 else None)


def _directed_only(g):
    if not g.directed:
        raise _nx().NetworkXNotImplemented("not implemented for undirected type")


def in_degree_centrality(G):
    """{node: in-degree / (n - 1)} of a directed graph, NetworkX's floats.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.in_degree_centrality(nx.DiGraph([(0, 1), (2, 1)]), backend="semiring")
    {0: 0.0, 1: 1.0, 2: 0.0}
    """
    g = _graph(G)
    _directed_only(g)
    _no_multigraph(g, "in_degree_centrality")
    return _centrality(g, _in_degrees(g) if g.n > 1 else None)


def out_degree_centrality(G):
    """{node: out-degree / (n - 1)} of a directed graph, NetworkX's floats.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.out_degree_centrality(nx.DiGraph([(0, 1), (0, 2)]), backend="semiring")
    {0: 1.0, 1: 0.0, 2: 0.0}
    """
    g = _graph(G)
    _directed_only(g)
    _no_multigraph(g, "out_degree_centrality")
    return _centrality(g, _out_degrees(g) if g.n > 1 else None)


def _isolated(g: SemiringGraph):
    """Whether each vertex has no edge at all (host bool): no entry in its row and, for a
    directed graph, none in its column (NetworkX's degree 0: no in- and no out-edge). A
    multigraph's merged parallel edges are still an entry."""
    none = np.diff(g.indptr) == 0
    if g.directed:
        none &= np.bincount(g.adj, minlength=g.n) == 0
    return none


def isolates(G):
    """A generator of the nodes without edges, in node order (NetworkX's ``degree == 0``).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1)]); G.add_node(2)
    >>> list(nx.isolates(G, backend="semiring"))
    [2]
    """
    g = _graph(G)
    found = g.labels(np.flatnonzero(_isolated(g)))
    return (v for v in found)


def number_of_isolates(G):
    """The number of nodes without edges (an int).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 0)]); G.add_nodes_from([1, 2])
    >>> nx.number_of_isolates(G, backend="semiring")
    2
    """
    g = _graph(G)
    return int(np.count_nonzero(_isolated(g)))


def is_isolate(G, n):
    """Whether node ``n`` has no edges (NetworkX's ``G.degree(n) == 0``). A ``n`` that is not
    a node is NetworkX's to answer (its ``G.degree(n)`` then reads ``n`` as an nbunch:
    NetworkXError, or a degree view unequal to 0).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_isolate(nx.Graph([(0, 1)]), 0, backend="semiring")
    False
    """
    g = _graph(G)
    if n not in g:
        raise NotImplementedError("nx_semiring: is_isolate of a non-node reads it as an nbunch "
                                  "(NetworkX runs it)")
    v = g.vertex(n)
    if g.indptr[v + 1] > g.indptr[v]:
        return False
    return not (g.directed and bool((g.adj == v).any()))


# ------------------------------------------------------------------------ spanning forests
def maximum_spanning_tree(G, weight="weight", algorithm="kruskal", ignore_nan=False):
    """A maximum spanning forest as a NetworkX graph with G's node, edge and graph
    attributes: NetworkX's Kruskal tree, added in Kruskal's order (decreasing weight, equal
    weights in edge order); ``'prim'`` and ``'boruvka'`` are left to NetworkX.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(4)
    >>> G.add_edge(0, 3, weight=5)
    >>> sorted(nx.maximum_spanning_tree(G, backend="semiring").edges())
    [(0, 1), (0, 3), (1, 2)]
    """
    g = _spanning_graph(G)
    edges = _spanning_edges(g, weight, algorithm, ignore_nan, minimum=False)
    if g.edge_data is None:
        raise NotImplementedError("nx_semiring: maximum_spanning_tree needs a graph converted "
                                  "with its edge attributes")
    return _spanning_tree(g, edges)


def _edge_tuples(g: SemiringGraph, weight, algorithm, data, ignore_nan, minimum):
    if algorithm in ("prim", "boruvka", "borůvka") and not g.directed:
        # can_run refuses them first; a direct call of the backend's function too
        raise NotImplementedError(f"nx_semiring: {algorithm} yields its edges in its own "
                                  f"search's order (NetworkX runs it)")
    edges = _spanning_edges(g, weight, algorithm, ignore_nan, minimum=minimum)
    if data and g.edge_data is None:
        raise NotImplementedError("nx_semiring: data=True needs a graph converted with its "
                                  "edge attributes")
    rows = g.rows()
    e = edges.tolist()
    us, vs = g.labels(rows[edges]), g.labels(g.adj[edges])
    if data:
        ds = g.edge_data
        out = [(u, v, ds[i]) for u, v, i in zip(us, vs, e)]
    else:
        out = list(zip(us, vs))
    return (t for t in out)


def minimum_spanning_edges(G, algorithm="kruskal", weight="weight", keys=True, data=True,
                           ignore_nan=False):
    """A generator of the edges of NetworkX's Kruskal minimum spanning forest, in Kruskal's
    order: ``(u, v, d)`` with G's own attribute dict ``d``, or ``(u, v)`` (``data=False``);
    ``keys`` only matters for multigraphs, which NetworkX runs.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(4)
    >>> G.add_edge(0, 3, weight=5)
    >>> list(nx.minimum_spanning_edges(G, data=False, backend="semiring"))
    [(0, 1), (1, 2), (2, 3)]
    """
    g = _spanning_graph(G)
    return _edge_tuples(g, weight, algorithm, data, ignore_nan, True)


def maximum_spanning_edges(G, algorithm="kruskal", weight="weight", keys=True, data=True,
                           ignore_nan=False):
    """A generator of the edges of NetworkX's Kruskal maximum spanning forest, in Kruskal's
    order (decreasing weight, equal weights in edge order); as
    :func:`minimum_spanning_edges`.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(4)
    >>> G.add_edge(0, 3, weight=5)
    >>> list(nx.maximum_spanning_edges(G, data=False, backend="semiring"))
    [(0, 3), (0, 1), (1, 2)]
    """
    g = _spanning_graph(G)
    return _edge_tuples(g, weight, algorithm, data, ignore_nan, False)


# ------------------------------------------------------------------------ session 21
def _nbunch(g: SemiringGraph, nodes):
    """NetworkX's ``G.nbunch_iter(nodes)`` for a list, tuple or set of nodes: the objects it
    yields (the caller's, in its order, duplicates kept; non-nodes skipped) and their
    vertices. Other containers, iterators (read once: NetworkX would get them exhausted
    after a refusal) and unhashable members (NetworkX's NetworkXError) are NetworkX's."""
    if not isinstance(nodes, (list, tuple, set, frozenset)):
        raise NotImplementedError(f"nx_semiring: nodes= of type {type(nodes).__name__} "
                                  f"(NetworkX reads it as its nbunch)")
    keep = []
    for x in nodes:
        try:
            hash(x)
        except TypeError:
            raise NotImplementedError("nx_semiring: an unhashable member of nodes= (NetworkX "
                                      "raises its NetworkXError)") from None
        if x in g:
            keep.append(x)
    return keep, np.array([g.vertex(x) for x in keep], dtype=np.int64)


def _reciprocal_counts(g: SemiringGraph):
    """Per vertex, the out-neighbours that are in-neighbours too (a self-loop counts): the
    row lengths of the engine's P ∘ Pᵀ (P the pattern), on the host."""
    P = g.matrix()
    R = sr.ewise_mult(P, sr.transpose(P))
    return np.diff(_host(R.indptr)).astype(np.int64)


def overall_reciprocity(G):
    """The fraction of the edges of a directed graph whose reverse is an edge too (a
    self-loop is not counted): NetworkX's float, from the engine's P ∘ Pᵀ. An undirected
    graph's is 0.0 (NetworkX's ``G.to_undirected()`` loses no edge; an undirected multigraph
    NetworkX refuses before dispatching); a directed multigraph's counts parallel edges,
    which the conversion merged: NetworkX runs it.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.overall_reciprocity(nx.DiGraph([(0, 1), (1, 0), (1, 2)]), backend="semiring")
    0.6666666666666666
    """
    g = _graph(G)
    _no_multigraph(g, "overall_reciprocity")
    m = g.number_of_edges()
    if m == 0:
        raise _nx().NetworkXError("Not defined for empty graphs")
    if not g.directed:
        return 0 / m
    rows = g.rows()
    loops = int(np.count_nonzero(g.adj == rows))
    return (int(_reciprocal_counts(g).sum()) - loops) / m


def reciprocity(G, nodes=None):
    """The reciprocity of a directed graph (``nodes=None``: :func:`overall_reciprocity`), of
    one node (``2 |pred ∩ succ| / (|pred| + |succ|)``; NetworkXError for an isolated one), or
    ``{node: that or None}`` for a list, tuple or set of nodes, in its order. Per node, a
    directed multigraph is its simple graph (the sets of neighbours); an undirected graph
    with ``nodes`` is NetworkX's (its ``G.predecessors`` raises AttributeError).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1), (1, 0), (1, 2)])
    >>> nx.reciprocity(G, [0, 1, 2], backend="semiring")
    {0: 1.0, 1: 0.6666666666666666, 2: 0.0}
    """
    g = _graph(G)
    if nodes is None:
        return overall_reciprocity(g)
    if not g.directed:
        raise NotImplementedError("nx_semiring: reciprocity of nodes of an undirected graph "
                                  "(NetworkX's G.predecessors raises AttributeError)")
    both = _reciprocal_counts(g)
    total = _out_degrees(g) + _in_degrees(g)
    if nodes in g:
        v = g.vertex(nodes)
        if total[v] == 0:
            raise _nx().NetworkXError("Not defined for isolated nodes.")
        return 2 * int(both[v]) / int(total[v])
    keep, idx = _nbunch(g, nodes)
    b, t = (2 * both[idx]).tolist(), total[idx].tolist()
    return dict(zip(keep, [x / y if y else None for x, y in zip(b, t)]))


def _weighted_sums(g: SemiringGraph, vals, per_entry):
    """(row sums, column sums) of ``vals * per_entry`` over the stored entries, exact int64
    (host)."""
    terms = vals * per_entry
    c = np.concatenate([np.zeros(1, dtype=terms.dtype), np.cumsum(terms)])
    rows = c[g.indptr[1:]] - c[g.indptr[:-1]]
    cols = np.zeros(g.n, dtype=terms.dtype)
    np.add.at(cols, g.adj, terms)
    return rows, cols


def average_neighbor_degree(G, source="out", target="out", nodes=None, weight=None):
    """{node: the (weighted) mean of its neighbours' degrees}, NetworkX's floats: the sum of
    ``w(u, v) × target_degree(v)`` over u's successors and/or predecessors (``source``)
    over u's (weighted) ``source`` degree; 0.0 where that degree is 0.

    Exact as NetworkX's: integer sums (one true division each), or float weights that are
    integers; other float weights are left to NetworkX (its sums round in its order), as are
    multigraphs (their degrees count parallel edges). ``nodes``: a list, tuple or set, keys
    in its order.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.average_neighbor_degree(nx.path_graph(4), backend="semiring")
    {0: 2.0, 1: 1.5, 2: 1.5, 3: 2.0}
    """
    nx = _nx()
    g = _graph(G, weight)
    if g.directed:
        for name, arg in (("source", source), ("target", target)):
            if arg not in ("in", "out", "in+out"):
                raise nx.NetworkXError(f"{name} argument {arg} must be 'in', 'out' or 'in+out'")
    elif source != "out" or target != "out":
        raise nx.NetworkXError("source and target arguments are only supported for directed "
                               "graphs")
    _no_multigraph(g, "average_neighbor_degree")
    if nodes is not None and nodes in g:
        raise NotImplementedError("nx_semiring: one node as nodes= (NetworkX's degree of it is "
                                  "an int, which its loop cannot unpack: NetworkX raises)")
    out_deg, in_deg = _out_degrees(g), _in_degrees(g)
    if g.directed:
        t_deg = {"in": in_deg, "out": out_deg, "in+out": in_deg + out_deg}[target]
    else:
        t_deg = _degrees(g)
    if weight is None:
        w = np.ones(g.adj.size, dtype=np.int64)
    else:
        w = g.weights(weight)
        if weight in g.numpy_typed or w.dtype.kind not in "iuf":
            raise NotImplementedError("nx_semiring: NumPy-typed or non-numeric weights "
                                      "(NetworkX runs it)")
        if w.dtype.kind == "f":
            if not (bool(np.isfinite(w).all()) and bool((w == np.rint(w)).all())):
                raise NotImplementedError("nx_semiring: non-integral float weights, whose "
                                          "sums round in NetworkX's order (NetworkX runs it)")
        top = float(np.abs(w).max()) if w.size else 0.0
        if 2 * top * max(int(t_deg.max()) if t_deg.size else 0, 1) * max(w.size, 1) >= 2.0**53:
            raise NotImplementedError("nx_semiring: weighted sums beyond 2^53, which round "
                                      "(NetworkX runs it)")
        w = w.astype(np.int64)
    # the (weighted) source degree and the sums over successors (rows) and predecessors
    # (columns)
    deg_out, deg_in = _weighted_sums(g, w, np.ones(g.adj.size, dtype=np.int64))
    num_out, num_in = _weighted_sums(g, w, t_deg[g.adj].astype(np.int64))
    if g.directed:
        if source == "out":
            deg, num = deg_out, num_out
        else:
            # predecessors' sums: each entry (u, v) adds to v the term of u
            _, num_pred = _weighted_sums(g, w, t_deg[g.rows()].astype(np.int64))
            deg, num = (deg_in, num_pred) if source == "in" else \
                (deg_out + deg_in, num_out + num_pred)
    else:
        rows = g.rows()
        loop = g.adj == rows
        # NetworkX's degree counts a self-loop (and its weight) twice; its neighbour sum once
        deg = deg_out + _loop_weights(g, w, loop)
        num = num_out
    if nodes is None:
        keep, idx = g.nodes, slice(None)
    else:
        keep, idx = _nbunch(g, nodes)
    # exact integers below 2^53: Python's int / int rounds as NetworkX's float / float of
    # the same values
    d, s = deg[idx].tolist(), num[idx].tolist()
    return dict(zip(keep, [0.0 if y == 0 else x / y for x, y in zip(s, d)]))


def _loop_weights(g: SemiringGraph, w, loop):
    """Per vertex, the weight of its self-loop (0 without one): NetworkX's undirected degree
    adds it a second time."""
    out = np.zeros(g.n, dtype=w.dtype)
    out[g.rows()[loop]] = w[loop]
    return out
