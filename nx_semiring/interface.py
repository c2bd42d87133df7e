"""The backend object NetworkX loads (entry point ``networkx.backends``: ``semiring``).

NetworkX's dispatcher (``networkx.utils.backends``) calls, for a dispatchable function
``name`` and the call's ``args``/``kwargs``:

1. ``can_run(name, args, kwargs)``: can the engine run this call? ``True``, or a string that
   says why not (NetworkX logs it and runs its own code when ``fallback_to_nx`` is set, or
   another backend). Checked before any conversion, in O(1): unsupported keywords
   (``sort_neighbors=``, ``reverse=True`` on a DiGraph, callable weights, multigraphs where
   parallel edges are not just their minimum).
2. ``should_run(name, args, kwargs)``: is it worth it? Only consulted when NetworkX picks a
   backend by itself (``nx.config.backend_priority``), not for ``backend="semiring"``:
   graphs below ``SHOULD_RUN_MIN_EDGES`` edges stay with NetworkX.
3. ``convert_from_nx(G, edge_attrs=..., ...)`` → :class:`~nx_semiring.graph.SemiringGraph`,
   cached by NetworkX on ``G.__networkx_cache__``; then ``backend.<name>(...)``.
4. ``convert_to_nx(result)`` for results (only graphs change).

Examples
--------
>>> import networkx as nx
>>> from nx_semiring.interface import backend_interface as bi
>>> bi.can_run("bfs_edges", (nx.path_graph(3), 0), {})
True
>>> bi.can_run("bfs_edges", (nx.path_graph(3), 0), {"sort_neighbors": sorted})
'sort_neighbors= is not supported (NetworkX runs it)'
>>> bi.can_run("single_source_dijkstra", (nx.path_graph(3), 0), {"weight": lambda u, v, d: 1})
'callable weights are not supported (NetworkX runs it)'
"""

from __future__ import annotations

import inspect

from . import FUNCTIONS
from . import algorithms as _alg
from .graph import SemiringGraph, from_networkx, to_networkx
from .testing import mark_known_failures

__all__ = ["SHOULD_RUN_MIN_EDGES", "BackendInterface", "backend_interface"]

# Below this many edges NetworkX's own Python is as fast as converting and launching (only
# used when NetworkX chooses the backend itself through backend_priority).
SHOULD_RUN_MIN_EDGES = 1000

# Functions whose NetworkX answer on a multigraph is not that of the simple graph whose edge
# weighs the minimum of its parallel edges (how the conversion collapses them): NetworkX sums
# parallel edges there, or refuses multigraphs itself. Traversals, shortest paths,
# components, triangles and unweighted betweenness read the simple graph.
_MULTIGRAPH_REFUSED = frozenset({"pagerank", "louvain_communities", "clustering",
                                 "core_number", "minimum_spanning_tree"})

# Functions that compute the unweighted answer only
_UNWEIGHTED_ONLY = frozenset({"betweenness_centrality", "clustering"})

_BFS_ORDER = frozenset({"bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors"})

_SIGNATURES = {}


def _signature(name):
    sig = _SIGNATURES.get(name)
    if sig is None:
        sig = _SIGNATURES[name] = inspect.signature(getattr(_alg, name))
    return sig


# What NetworkX's algorithms read of a graph; a subclass that redefines one of them (e.g. the
# complement graph _AntiGraph of networkx.algorithms.approximation.kcomponents) has another
# adjacency than the G._adj the conversion reads
_ADJACENCY_API = ("__getitem__", "__iter__", "__contains__", "__len__", "neighbors", "adj",
                  "adjacency", "degree", "nodes", "edges", "is_directed", "is_multigraph")


def _overridden_adjacency(G):
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    cls = type(G)
    base = next(c for c in cls.__mro__
                if c in (nx.MultiDiGraph, nx.MultiGraph, nx.DiGraph, nx.Graph))
    if cls is base:
        return None
    for attr in _ADJACENCY_API:
        if getattr(cls, attr, None) is not getattr(base, attr, None):
            return attr
    return None


def _is_graph(G) -> bool:
    if isinstance(G, SemiringGraph):
        return True
    try:
        import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)
    except ImportError:
        return False
    return isinstance(G, nx.Graph)


class BackendInterface:
    """NetworkX's backend protocol for this engine (see the module docstring)."""

    @staticmethod
    def convert_from_nx(graph, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                        graph_name=None):
        return from_networkx(graph, edge_attrs=edge_attrs, node_attrs=node_attrs,
                             preserve_edge_attrs=preserve_edge_attrs,
                             preserve_node_attrs=preserve_node_attrs,
                             preserve_graph_attrs=preserve_graph_attrs, name=name,
                             graph_name=graph_name, use_cache="reuse")

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        if isinstance(obj, SemiringGraph):
            return to_networkx(obj)
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """``True`` when the engine runs this call as NetworkX would, else the reason."""
        if name not in FUNCTIONS:
            return f"{name} is not implemented by the semiring backend"
        try:
            bound = _signature(name).bind(*args, **kwargs)
        except TypeError as exc:
            return f"arguments not understood ({exc}); NetworkX reports it"
        bound.apply_defaults()
        a = bound.arguments
        G = a.get("G")
        if not _is_graph(G):
            return f"G must be a NetworkX graph, got {type(G).__name__}"
        if not isinstance(G, SemiringGraph):
            attr = _overridden_adjacency(G)
            if attr is not None:
                return (f"{type(G).__name__} redefines {attr}: its adjacency is not the "
                        f"G._adj that the conversion reads")
        weight = a.get("weight")
        if callable(weight):
            return "callable weights are not supported (NetworkX runs it)"
        if name in _BFS_ORDER:
            if a.get("sort_neighbors") is not None:
                return "sort_neighbors= is not supported (NetworkX runs it)"
            if a.get("reverse") and G.is_directed():
                return ("reverse=True on a directed graph needs NetworkX's predecessor order, "
                        "which the conversion does not keep")
        if name in _UNWEIGHTED_ONLY and weight is not None:
            return f"weighted {name} is not supported (NetworkX runs it)"
        if name == "louvain_communities" and G.is_directed():
            return "directed Louvain (directed modularity) is not supported"
        if G.is_multigraph() and name in _MULTIGRAPH_REFUSED:
            return (f"{name} of a multigraph (NetworkX sums or refuses parallel edges) is not "
                    f"supported")
        return True

    @staticmethod
    def should_run(name, args, kwargs):
        """``True``, or why NetworkX itself is the better choice for this call."""
        G = args[0] if args else kwargs.get("G")
        if G is not None and not isinstance(G, SemiringGraph) and _is_graph(G):
            if G.number_of_edges() < SHOULD_RUN_MIN_EDGES:
                return (f"the graph has fewer than {SHOULD_RUN_MIN_EDGES} edges: NetworkX is "
                        f"faster than converting it")
        return True

    @staticmethod
    def on_start_tests(items):
        """Mark NetworkX's tests that fail through this backend for a documented reason
        (called by NetworkX's conftest when ``NETWORKX_TEST_BACKEND=semiring``)."""
        mark_known_failures(items)


for _name in FUNCTIONS:
    setattr(BackendInterface, _name, staticmethod(getattr(_alg, _name)))

backend_interface = BackendInterface()
