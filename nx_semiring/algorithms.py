"""The dispatched functions: NetworkX's signatures, results and errors, the engine's algorithms.

Each function takes a :class:`~nx_semiring.graph.SemiringGraph` (NetworkX's dispatcher
converts the caller's graph; a NetworkX graph given directly is converted here) and returns
what NetworkX returns: dicts keyed by node, lists of nodes, generators where NetworkX yields,
Python numbers (never NumPy scalars), and NetworkX's exceptions with NetworkX's messages.

Where the answer is unique (levels, distances, layers as sets) it equals NetworkX's. Where
NetworkX fixes an order that depends on its adjacency order (``bfs_edges``, ``bfs_layers``,
``bfs_tree``, ``single_source_shortest_path``), the backend reproduces it: the engine computes
the BFS levels, and one vectorized pass per level over the adjacency in NetworkX's order picks,
for each vertex of the next level, the first parent NetworkX's queue would reach it from
(:func:`_ordered_levels`). Weighted paths are shortest paths from the engine's predecessors;
where several shortest paths tie, the one returned may differ from NetworkX's.

A case the engine does not cover raises ``NotImplementedError`` (NetworkX then falls back to
its own implementation when configured to); :mod:`nx_semiring.interface` refuses most such
cases before conversion (``can_run``).
"""

from __future__ import annotations

import numbers

import numpy as np

import algorithms as alg
import semiring as sr

from .graph import SemiringGraph, from_networkx

# Sources per multi-source BFS batch in all_pairs_shortest_path_length (one 64-bit word of
# the engine's bit-parallel search per vertex; LAGraph_MultiSourceBFS).
APSP_BFS_BATCH = 64


def _nx():
    import networkx as nx  # noqa: PLC0415

    return nx


def _graph(G, weight=None) -> SemiringGraph:
    if isinstance(G, SemiringGraph):
        return G
    attrs = {weight: 1} if isinstance(weight, str) else None
    return from_networkx(G, edge_attrs=attrs)


def _host(a):
    return sr.to_device(a, "cpu") if sr.is_gpu_array(a) else np.asarray(a)


def _labels(g: SemiringGraph, idx):
    nodes = g.nodes
    return [nodes[i] for i in idx.tolist()]


# --------------------------------------------------------------------------- engine calls
def _bfs_level(g: SemiringGraph, s: int) -> np.ndarray:
    """Levels from vertex ``s`` by the engine's BFS (host int64, -1 where unreached)."""
    M, sym = g.engine_matrix()
    return _host(alg.bfs(M, s, symmetric=sym))


def _unreached(dist):
    return np.isinf(dist) if dist.dtype.kind == "f" else dist == np.iinfo(dist.dtype).max


def _weighted_matrix(g: SemiringGraph, weight):
    """Edge attribute ``weight``'s matrix; ``None``: every edge weighs 1 (integer)."""
    return g.matrix(None, unit=1) if weight is None else g.matrix(weight)


def _has_negative(g: SemiringGraph, weight) -> bool:
    if weight is None:
        return False
    w = g.weights(weight)
    return bool(w.size) and bool((w < 0).any())


def _sssp(g: SemiringGraph, s: int, weight, method: str):
    """Distances and predecessors (host arrays) from ``s``; ``method`` 'dijkstra' (refuses
    negative weights: NetworkX's Dijkstra decides by its own visiting order whether to
    raise) or 'bellman-ford' (NetworkXUnbounded on a negative cycle)."""
    nx = _nx()
    if method == "dijkstra" and _has_negative(g, weight):
        raise NotImplementedError("nx_semiring: Dijkstra with negative weights is left to "
                                  "NetworkX (its result depends on its visiting order)")
    M = _weighted_matrix(g, weight)
    sym = not g.directed
    try:
        if method == "dijkstra":
            dist, pred = alg.sssp(M, s, predecessors=True, symmetric=sym)
        else:
            dist, pred = alg.bellman_ford(M, s, predecessors=True, symmetric=sym)
    except sr.NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc
    return _host(dist), _host(pred)


def _by_distance(dist, keep):
    """Indices where ``keep``, ordered by distance, then by index."""
    idx = np.flatnonzero(keep)
    return idx[np.argsort(dist[idx], kind="stable")]


def _path_dict(g: SemiringGraph, order, pred, s: int) -> dict:
    """{node: path from s} for the vertices in ``order``, walking the predecessor tree."""
    nodes = g.nodes
    paths = {s: [nodes[s]]}
    pred = pred.tolist()
    for v in order.tolist():
        if v in paths:
            continue
        stack = []
        u = v
        while u not in paths:
            stack.append(u)
            u = pred[u]
        p = paths[u]
        while stack:
            w = stack.pop()
            p = p + [nodes[w]]
            paths[w] = p
    return {nodes[v]: paths[v] for v in order.tolist()}


def _path_to(g: SemiringGraph, pred, s: int, t: int) -> list:
    nodes = g.nodes
    path = [t]
    while path[-1] != s:
        path.append(int(pred[path[-1]]))
    return [nodes[v] for v in reversed(path)]


# --------------------------------------------------------------------------- BFS order
def _ordered_levels(g: SemiringGraph, frontier, depth_limit, level=None):
    """Yield ``(parents, children)`` (host int64 arrays) level by level in NetworkX's order.

    ``children`` is the next level in the order NetworkX's queue discovers it (the frontier
    in order, each vertex's neighbours in adjacency order, first discovery wins), ``parents``
    the vertex each was discovered from. ``level`` (the engine's BFS levels from a single
    source) says which vertices belong to the next level; without it a seen-set is kept.
    Levels are generated while their depth is below ``depth_limit``.
    """
    indptr, adj = g.indptr, g.adj
    frontier = np.asarray(frontier, dtype=np.int64)
    seen = None
    if level is None:
        seen = np.zeros(g.n, dtype=bool)
        seen[frontier] = True
    depth = 0
    while frontier.size and depth < depth_limit:
        starts = indptr[frontier]
        counts = indptr[frontier + 1] - starts
        total = int(counts.sum())
        if total == 0:
            return
        seg = np.repeat(np.arange(frontier.size, dtype=np.int64), counts)
        offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        cand = adj[starts[seg] + offsets]
        keep = (level[cand] == depth + 1) if seen is None else ~seen[cand]
        cand = cand[keep]
        if cand.size == 0:
            return
        seg = seg[keep]
        _, first = np.unique(cand, return_index=True)
        first.sort()
        children = cand[first]
        if seen is not None:
            seen[children] = True
        yield frontier[seg[first]], children
        frontier = children
        depth += 1


def _source(g: SemiringGraph, source, exc) -> int:
    if source not in g:
        raise exc
    return g.index[source]


# --------------------------------------------------------------------------- traversal
def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """Edges of NetworkX's breadth-first search from ``source``, in NetworkX's order.

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.bfs_edges(nx.path_graph(4), 1, backend="semiring"))
    [(1, 0), (1, 2), (2, 3)]
    """
    nx = _nx()
    g = _graph(G)
    s = _source(g, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    if sort_neighbors is not None or (reverse and g.directed):
        raise NotImplementedError("nx_semiring: bfs_edges with sort_neighbors or reverse=True "
                                  "on a directed graph")
    if depth_limit is None:
        depth_limit = g.n
    level = _bfs_level(g, s)
    nodes = g.nodes
    for parents, children in _ordered_levels(g, [s], depth_limit, level):
        yield from zip([nodes[u] for u in parents.tolist()],
                       [nodes[v] for v in children.tolist()])


def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """NetworkX's BFS tree from ``source`` (a ``networkx.DiGraph``).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(nx.bfs_tree(nx.path_graph(3), 0, backend="semiring").edges())
    [(0, 1), (1, 2)]
    """
    nx = _nx()
    T = nx.DiGraph()
    T.add_node(source)
    T.add_edges_from(bfs_edges(G, source, reverse=reverse, depth_limit=depth_limit,
                               sort_neighbors=sort_neighbors))
    return T


def bfs_predecessors(G, source, depth_limit=None, sort_neighbors=None):
    """``(node, predecessor)`` pairs of NetworkX's BFS, in its order.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.bfs_predecessors(nx.path_graph(3), 0, backend="semiring"))
    {1: 0, 2: 1}
    """
    for s, t in bfs_edges(G, source, depth_limit=depth_limit, sort_neighbors=sort_neighbors):
        yield (t, s)


def bfs_successors(G, source, depth_limit=None, sort_neighbors=None):
    """``(node, [successors])`` of NetworkX's BFS, in its order.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.bfs_successors(nx.star_graph(3), 0, backend="semiring"))
    {0: [1, 2, 3]}
    """
    parent = source
    children = []
    for p, c in bfs_edges(G, source, depth_limit=depth_limit, sort_neighbors=sort_neighbors):
        if p == parent:
            children.append(c)
            continue
        yield (parent, children)
        children = [c]
        parent = p
    yield (parent, children)


def bfs_layers(G, sources):
    """Lists of nodes at each distance from ``sources`` (a node or an iterable of nodes).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.bfs_layers(nx.path_graph(4), 0, backend="semiring"))
    [[0], [1], [2], [3]]
    """
    nx = _nx()
    g = _graph(G)
    if sources in g:
        sources = [sources]
    visited = set(sources)
    current = list(visited)
    for source in current:
        if source not in g:
            raise nx.NetworkXError(f"The node {source} is not in the graph.")
    yield current
    idx = [g.index[v] for v in current]
    level = _bfs_level(g, idx[0]) if len(idx) == 1 else None
    nodes = g.nodes
    for _, children in _ordered_levels(g, idx, np.inf, level):
        yield [nodes[v] for v in children.tolist()]


def descendants_at_distance(G, source, distance):
    """The set of nodes at shortest-path distance ``distance`` from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.descendants_at_distance(nx.path_graph(5), 2, 2, backend="semiring")
    {0, 4}
    """
    nx = _nx()
    g = _graph(G)
    s = _source(g, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    if not isinstance(distance, numbers.Real) or distance < 0:
        return set()
    level = _bfs_level(g, s)
    return set(_labels(g, np.flatnonzero(level == distance)))


# --------------------------------------------------------------------------- unweighted paths
def _cut(level, cutoff):
    """Keep level k when NetworkX's loop reaches it: k == 0 or cutoff > k - 1."""
    keep = level >= 0
    if cutoff is not None:
        keep &= (level == 0) | (cutoff > level - 1)
    return keep


def single_source_shortest_path_length(G, source, cutoff=None):
    """{node: number of edges on a shortest path from ``source``} (levels of the engine's BFS).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path_length(nx.path_graph(4), 1, backend="semiring")
    {1: 0, 0: 1, 2: 1, 3: 2}
    """
    nx = _nx()
    g = _graph(G)
    s = _source(g, source, nx.NodeNotFound(f"Source {source} is not in G"))
    level = _bfs_level(g, s)
    order = _by_distance(level, _cut(level, cutoff))
    return dict(zip(_labels(g, order), level[order].tolist()))


def single_source_shortest_path(G, source, cutoff=None):
    """{node: shortest path from ``source``}, the paths NetworkX's BFS finds.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path(nx.path_graph(3), 0, backend="semiring")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    nx = _nx()
    g = _graph(G)
    s = _source(g, source, nx.NodeNotFound(f"Source {source} not in G"))
    nodes = g.nodes
    paths = {s: [nodes[s]]}
    level = _bfs_level(g, s)
    limit = np.inf if cutoff is None else cutoff
    for parents, children in _ordered_levels(g, [s], limit, level):
        for u, v in zip(parents.tolist(), children.tolist()):
            paths[v] = paths[u] + [nodes[v]]
    return {nodes[v]: p for v, p in paths.items()}


def all_pairs_shortest_path_length(G, cutoff=None):
    """``(node, {target: length})`` for every node, by the engine's multi-source BFS.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_shortest_path_length(nx.path_graph(3), backend="semiring"))[0]
    {0: 0, 1: 1, 2: 2}
    """
    g = _graph(G)
    M, sym = g.engine_matrix()
    nodes = g.nodes
    for b in range(0, g.n, APSP_BFS_BATCH):
        batch = list(range(b, min(g.n, b + APSP_BFS_BATCH)))
        L = _host(alg.multi_source_bfs(M, batch, symmetric=sym))
        for r, s in enumerate(batch):
            level = L[r]
            order = _by_distance(level, _cut(level, cutoff))
            yield (nodes[s], dict(zip(_labels(g, order), level[order].tolist())))


def _bidirectional_checks(g, source, target):
    nx = _nx()
    s = _source(g, source, nx.NodeNotFound(f"Source {source} is not in G"))
    t = _source(g, target, nx.NodeNotFound(f"Target {target} is not in G"))
    return s, t


def _st_unweighted_path(g, source, target):
    nx = _nx()
    s, t = _bidirectional_checks(g, source, target)
    if s == t:
        return [source]
    level = _bfs_level(g, s)
    if level[t] < 0:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    paths = {s: [g.nodes[s]]}
    for parents, children in _ordered_levels(g, [s], level[t], level):
        for u, v in zip(parents.tolist(), children.tolist()):
            paths[v] = paths[u] + [g.nodes[v]]
    return paths[t]


def has_path(G, source, target):
    """Whether ``target`` is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.has_path(nx.DiGraph([(0, 1)]), 1, 0, backend="semiring")
    False
    """
    g = _graph(G)
    s, t = _bidirectional_checks(g, source, target)
    return s == t or bool(_bfs_level(g, s)[t] >= 0)


def _reverse(g: SemiringGraph) -> SemiringGraph:
    """The reversed directed graph (rows: in-neighbours, in increasing vertex order)."""
    if not g.directed:
        return g
    r = g.__dict__.get("_reversed")
    if r is None:
        rows = np.repeat(np.arange(g.n, dtype=np.int64), np.diff(g.indptr))
        perm = np.argsort(g.adj, kind="stable")
        indptr = np.zeros(g.n + 1, dtype=np.int64)
        np.cumsum(np.bincount(g.adj, minlength=g.n), out=indptr[1:])
        r = SemiringGraph(g.nodes, indptr, rows[perm], {k: v[perm] for k, v in g.values.items()},
                          directed=True, multigraph=g.multigraph, device=g.device)
        r._index = g.index
        g._reversed = r
    return r


def _method(method, weight):
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    return "unweighted" if weight is None else method


def _single_source_paths(g, source, weight, method):
    if method == "unweighted":
        return single_source_shortest_path(g, source)
    if method == "dijkstra":
        return single_source_dijkstra_path(g, source, weight=weight)
    return single_source_bellman_ford_path(g, source, weight=weight)


def _single_source_lengths(g, source, weight, method):
    if method == "unweighted":
        return single_source_shortest_path_length(g, source)
    if method == "dijkstra":
        return single_source_dijkstra_path_length(g, source, weight=weight)
    return single_source_bellman_ford_path_length(g, source, weight=weight)


def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    """Shortest paths, as NetworkX's ``shortest_path`` (all four source/target cases).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.shortest_path(nx.path_graph(4), 0, 3, backend="semiring")
    [0, 1, 2, 3]
    """
    nx = _nx()
    method = _method(method, weight)
    g = _graph(G, weight)
    if source is None:
        if target is None:
            return ((v, _single_source_paths(g, v, weight, method)) for v in g.nodes)
        paths = _single_source_paths(_reverse(g), target, weight, method)
        return {v: list(reversed(p)) for v, p in paths.items()}
    if target is None:
        return _single_source_paths(g, source, weight, method)
    if method == "unweighted":
        return _st_unweighted_path(g, source, target)
    if method == "dijkstra":
        _bidirectional_checks(g, source, target)
        if source == target:
            return [source]
        try:
            return single_source_dijkstra(g, source, target, weight=weight)[1]
        except nx.NetworkXNoPath:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.") from None
    return bellman_ford_path(g, source, target, weight=weight)


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    """Shortest path lengths, as NetworkX's ``shortest_path_length``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.shortest_path_length(nx.cycle_graph(6), 0, 3, backend="semiring")
    3
    """
    nx = _nx()
    method = _method(method, weight)
    g = _graph(G, weight)
    if source is None:
        if target is None:
            if method == "unweighted":
                return all_pairs_shortest_path_length(g)
            return ((v, _single_source_lengths(g, v, weight, method)) for v in g.nodes)
        return _single_source_lengths(_reverse(g), target, weight, method)
    if target is None:
        return _single_source_lengths(g, source, weight, method)
    if method == "unweighted":
        s, t = _bidirectional_checks(g, source, target)
        if s == t:
            return 0
        d = int(_bfs_level(g, s)[t])
        if d < 0:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        return d
    if method == "dijkstra":
        return dijkstra_path_length(g, source, target, weight=weight)
    return bellman_ford_path_length(g, source, target, weight=weight)


# --------------------------------------------------------------------------- weighted paths
def _dijkstra(g, source, cutoff, weight):
    nx = _nx()
    s = _source(g, source, nx.NodeNotFound(f"Node {source} not found in graph"))
    dist, pred = _sssp(g, s, weight, "dijkstra")
    keep = ~_unreached(dist)
    if cutoff is not None:
        keep &= dist <= cutoff
    return s, dist, pred, keep


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    """``(distances, paths)`` from ``source`` (or ``(distance, path)`` to ``target``), by the
    engine's SSSP.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3}), (0, 2, {"weight": 7})])
    >>> nx.single_source_dijkstra(G, 0, backend="semiring")
    ({0: 0, 1: 2, 2: 5}, {0: [0], 1: [0, 1], 2: [0, 1, 2]})
    """
    nx = _nx()
    g = _graph(G, weight)
    if source in g and target == source:
        return (0, [target])
    s, dist, pred, keep = _dijkstra(g, source, cutoff, weight)
    if target is None:
        order = _by_distance(dist, keep)
        return (dict(zip(_labels(g, order), dist[order].tolist())),
                _path_dict(g, order, pred, s))
    if target not in g or not keep[g.index[target]]:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    t = g.index[target]
    return (dist[t].item(), _path_to(g, pred, s, t))


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """{node: distance from ``source``} by the engine's SSSP.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 1.5})])
    >>> nx.single_source_dijkstra_path_length(G, 0, backend="semiring")
    {0: 0.0, 1: 1.5}
    """
    g = _graph(G, weight)
    _, dist, _, keep = _dijkstra(g, source, cutoff, weight)
    order = _by_distance(dist, keep)
    return dict(zip(_labels(g, order), dist[order].tolist()))


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    """{node: a shortest path from ``source``} by the engine's SSSP.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_dijkstra_path(nx.path_graph(3), 0, backend="semiring")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    g = _graph(G, weight)
    s, dist, pred, keep = _dijkstra(g, source, cutoff, weight)
    return _path_dict(g, _by_distance(dist, keep), pred, s)


def dijkstra_path_length(G, source, target, weight="weight"):
    """The distance from ``source`` to ``target``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dijkstra_path_length(nx.path_graph(4), 0, 3, backend="semiring")
    3
    """
    nx = _nx()
    g = _graph(G, weight)
    s = _source(g, source, nx.NodeNotFound(f"Node {source} not found in graph"))
    if source == target:
        return 0
    dist, _ = _sssp(g, s, weight, "dijkstra")
    if target not in g or _unreached(dist[g.index[target]]):
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return dist[g.index[target]].item()


def dijkstra_path(G, source, target, weight="weight"):
    """A shortest path from ``source`` to ``target``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dijkstra_path(nx.path_graph(4), 0, 3, backend="semiring")
    [0, 1, 2, 3]
    """
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


def _bellman_ford(g, source, weight):
    nx = _nx()
    s = _source(g, source, nx.NodeNotFound(f"Source {source} not in G"))
    dist, pred = _sssp(g, s, weight, "bellman-ford")
    return s, dist, pred, ~_unreached(dist)


def single_source_bellman_ford(G, source, target=None, weight="weight"):
    """``(distances, paths)`` from ``source`` (or ``(distance, path)`` to ``target``),
    negative weights allowed, by the engine's Bellman–Ford.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 4}), (0, 2, {"weight": 1}), (2, 1, {"weight": -2})])
    >>> nx.single_source_bellman_ford(G, 0, backend="semiring")
    ({1: -1, 0: 0, 2: 1}, {1: [0, 2, 1], 0: [0], 2: [0, 2]})
    """
    nx = _nx()
    g = _graph(G, weight)
    if source == target:
        if source not in g:
            raise nx.NodeNotFound(f"Node {source} is not found in the graph")
        return (0, [source])
    s, dist, pred, keep = _bellman_ford(g, source, weight)
    if target is None:
        order = _by_distance(dist, keep)
        return (dict(zip(_labels(g, order), dist[order].tolist())),
                _path_dict(g, order, pred, s))
    if target not in g or not keep[g.index[target]]:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    t = g.index[target]
    return (dist[t].item(), _path_to(g, pred, s, t))


def single_source_bellman_ford_path(G, source, weight="weight"):
    """{node: a shortest path from ``source``}, negative weights allowed.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_bellman_ford_path(nx.path_graph(3), 0, backend="semiring")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    return single_source_bellman_ford(G, source, weight=weight)[1]


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    """{node: distance from ``source``}, negative weights allowed.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_bellman_ford_path_length(nx.path_graph(3), 0, backend="semiring")
    {0: 0, 1: 1, 2: 2}
    """
    g = _graph(G, weight)
    _, dist, _, keep = _bellman_ford(g, source, weight)
    order = _by_distance(dist, keep)
    return dict(zip(_labels(g, order), dist[order].tolist()))


def bellman_ford_path_length(G, source, target, weight="weight"):
    """The distance from ``source`` to ``target``, negative weights allowed.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 3}), (1, 2, {"weight": -1})])
    >>> nx.bellman_ford_path_length(G, 0, 2, backend="semiring")
    2
    """
    nx = _nx()
    g = _graph(G, weight)
    if source == target:
        if source not in g:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    _, dist, _, keep = _bellman_ford(g, source, weight)
    if target not in g or not keep[g.index[target]]:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return dist[g.index[target]].item()


def bellman_ford_path(G, source, target, weight="weight"):
    """A shortest path from ``source`` to ``target``, negative weights allowed.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bellman_ford_path(nx.path_graph(3), 0, 2, backend="semiring")
    [0, 1, 2]
    """
    return single_source_bellman_ford(G, source, target=target, weight=weight)[1]


def negative_edge_cycle(G, weight="weight", heuristic=True):
    """Whether some cycle has negative total weight (an undirected negative edge is one).

    The engine's Bellman–Ford from a virtual vertex joined to every vertex by a 0-weight
    edge, as NetworkX does it, without touching the caller's graph.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 0, {"weight": -2})])
    >>> nx.negative_edge_cycle(G, backend="semiring")
    True
    """
    g = _graph(G, weight)
    if g.adj.size == 0:
        return False
    if not _has_negative(g, weight):
        return False
    n = g.n
    perm = g.order()
    w = g.weights(weight)[perm]
    # A' = [A 0; 1ᵀ 0]: vertex n reaches every vertex by a 0-weight edge
    indptr = np.concatenate([g.indptr, [g.indptr[-1] + n]])
    indices = np.concatenate([g.adj[perm], np.arange(n, dtype=np.int64)])
    values = np.concatenate([w, np.zeros(n, dtype=w.dtype)])
    dev = g.device
    A = sr.Matrix.from_csr(sr.to_device(indptr, dev), sr.to_device(indices, dev),
                           sr.to_device(values, dev), (n + 1, n + 1), check=False)
    try:
        alg.bellman_ford(A, n)
    except sr.NegativeCycleError:
        return True
    return False


def floyd_warshall_numpy(G, nodelist=None, weight="weight"):
    """The matrix of shortest distances (float64 NumPy array, ``inf`` where unreachable) in
    ``nodelist`` order, by the engine's APSP. Self-loops do not count (NetworkX sets the
    diagonal to 0); with a negative cycle NetworkX's own run answers.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.floyd_warshall_numpy(nx.path_graph(3), backend="semiring")
    array([[0., 1., 2.],
           [1., 0., 1.],
           [2., 1., 0.]])
    """
    nx = _nx()
    g = _graph(G, weight)
    if nodelist is not None:
        if not len(nodelist) == len(g) == len(set(nodelist)):
            raise nx.NetworkXError(
                "nodelist must contain every node in G with no repeats."
                "If you wanted a subgraph of G use G.subgraph(nodelist)")
        missing = set(nodelist) - set(g.nodes)
        if missing:
            raise nx.NetworkXError(f"Nodes {missing} in nodelist is not in G")
    n = g.n
    if n == 0:
        return np.zeros((0, 0))
    perm = g.order()
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(g.indptr))[perm]
    cols = g.adj[perm]
    w = (np.ones(cols.size) if weight is None else g.weights(weight)[perm]).astype(np.float64)
    off = rows != cols
    A = sr.Matrix.from_coo(sr.to_device(rows[off], g.device), sr.to_device(cols[off], g.device),
                           sr.to_device(w[off], g.device), nrows=n, ncols=n, device=g.device)
    try:
        D = _host(alg.apsp(A))
    except sr.NegativeCycleError as exc:
        raise NotImplementedError("nx_semiring: negative cycle; NetworkX's Floyd–Warshall "
                                  "returns its own (negative-diagonal) answer") from exc
    D = np.asarray(D, dtype=np.float64)
    if nodelist is not None:
        p = np.array([g.index[v] for v in nodelist], dtype=np.int64)
        D = D[np.ix_(p, p)]
    return D
