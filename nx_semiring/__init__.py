"""NetworkX dispatch backend ``"semiring"``: NetworkX functions run on this engine.

NetworkX (>= 3.4) hands a call to an installed backend when asked, per call or by
configuration::

    nx.pagerank(G, backend="semiring")                # one call
    nx.config.backend_priority.algos = ["semiring"]   # every call the backend can run
    NETWORKX_BACKEND_PRIORITY=semiring python script.py

The graph is converted once to :class:`nx_semiring.SemiringGraph` (CSR matrices of the
engine, on the GPU when there is one, with NetworkX's node labels mapped to indices and back),
and NetworkX caches the conversion on the graph (``G.__networkx_cache__``), so later calls
reuse it. :func:`nx_semiring.interface.BackendInterface.can_run` refuses what the engine does
not do (callable weights, multigraph edge keys where they matter, ``sort_neighbors=``, ...),
and NetworkX then runs its own code.

This module is what NetworkX imports to learn about the backend (``get_info``, the
``networkx.backend_info`` entry point); it imports neither the engine nor NetworkX. The
dispatched functions are in :mod:`nx_semiring.algorithms` (traversal, shortest paths,
analytics), :mod:`nx_semiring.paths` (all-pairs and multi-source paths, Floyd–Warshall,
distance measures, flow values, bipartite matching), :mod:`nx_semiring.analytics`
(connectivity, the k-core family and k-truss, clustering aggregates, communities),
:mod:`nx_semiring.centrality` (spectral and distance centralities) and
:mod:`nx_semiring.structure` (degree centralities, isolates, spanning forests),
:mod:`nx_semiring.recognition` (DAGs, trees and forests, bipartite graphs, the DAG longest
path length, flow hierarchy), the backend object in
:mod:`nx_semiring.interface`.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys

__version__ = "0.1.0"


def _release(dist: str) -> tuple:
    """An installed distribution's (major, minor): the imported module's ``__version__``
    where it is imported (NetworkX sets it before it loads its backends), else its metadata
    (no import); (0, 0) where it is not installed."""
    module = sys.modules.get(dist)
    version = getattr(module, "__version__", None)
    if version is None:
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return (0, 0)
    return tuple(int(x) for x in re.findall(r"\d+", version)[:2])


#: The installed NetworkX's (major, minor). Where a release changed a function (its
#: signature, its name, what it returns) the backend follows the installed one: NetworkX's
#: dispatcher hands the backend the user's arguments as its own function takes them.
NX_RELEASE = _release("networkx")

# Every function dispatched to this backend (NetworkX's dispatch names). The interface checks
# that each is implemented; ``get_info`` tells NetworkX about them.
FUNCTIONS = (
    # traversal
    "bfs_edges", "bfs_tree", "bfs_layers", "bfs_predecessors", "bfs_successors",
    "descendants_at_distance",
    # unweighted shortest paths
    "shortest_path", "shortest_path_length", "single_source_shortest_path",
    "single_source_shortest_path_length", "all_pairs_shortest_path_length", "has_path",
    # weighted shortest paths
    "single_source_dijkstra", "single_source_dijkstra_path",
    "single_source_dijkstra_path_length", "dijkstra_path", "dijkstra_path_length",
    "bellman_ford_path", "bellman_ford_path_length", "single_source_bellman_ford",
    "single_source_bellman_ford_path", "single_source_bellman_ford_path_length",
    "negative_edge_cycle", "floyd_warshall_numpy",
    # analytics
    "connected_components", "number_connected_components", "is_connected",
    "strongly_connected_components", "pagerank", "betweenness_centrality", "triangles",
    "clustering", "core_number", "louvain_communities", "minimum_spanning_tree",
    # all-pairs and multi-source paths, distance measures, flow values, matching
    # (nx_semiring.paths)
    "all_pairs_dijkstra_path_length", "all_pairs_bellman_ford_path_length",
    "all_pairs_shortest_path", "all_pairs_dijkstra_path", "floyd_warshall",
    "floyd_warshall_predecessor_and_distance", "multi_source_dijkstra_path_length",
    "single_target_shortest_path_length", "ancestors", "descendants", "eccentricity",
    "diameter", "radius", "center", "periphery", "maximum_flow_value", "minimum_cut_value",
    "hopcroft_karp_matching", "minimum_weight_full_matching",
    # more analytics on the same engine algorithms (nx_semiring.analytics): connectivity,
    # the k-core family and the k-truss, triangle-derived measures, communities
    "weakly_connected_components", "number_weakly_connected_components",
    "is_weakly_connected", "number_strongly_connected_components", "is_strongly_connected",
    "node_connected_component", "k_core", "k_shell", "k_crust", "k_corona", "k_truss",
    "average_clustering", "transitivity", "label_propagation_communities", "modularity",
    # spectral and distance centralities (nx_semiring.centrality)
    "eigenvector_centrality", "katz_centrality", "hits", "closeness_centrality",
    "harmonic_centrality",
    # degree centralities, isolates and more spanning forests (nx_semiring.structure)
    "degree_centrality", "in_degree_centrality", "out_degree_centrality", "isolates",
    "number_of_isolates", "is_isolate", "maximum_spanning_tree", "minimum_spanning_edges",
    "maximum_spanning_edges",
    # edge betweenness (nx_semiring.centrality)
    "edge_betweenness_centrality",
    # session 20: more paths and distance measures (nx_semiring.paths), attracting
    # components (nx_semiring.analytics), the NumPy spectral centralities
    # (nx_semiring.centrality)
    "multi_source_dijkstra", "multi_source_dijkstra_path", "single_target_shortest_path",
    "all_pairs_dijkstra", "all_pairs_bellman_ford_path", "johnson",
    "average_shortest_path_length", "wiener_index", "global_efficiency",
    "attracting_components", "number_attracting_components", "is_attracting_component",
    "eigenvector_centrality_numpy", "katz_centrality_numpy",
    "bidirectional_shortest_path", "bidirectional_dijkstra", "predecessor",
    "dijkstra_predecessor_and_distance", "bellman_ford_predecessor_and_distance",
    "barycenter", "minimum_cut",
    # session 21: recognition tests and DAG measures (nx_semiring.recognition)
    "is_directed_acyclic_graph", "has_cycle", "is_aperiodic", "is_tree", "is_forest",
    "is_arborescence", "is_branching", "is_bipartite", "color", "sets",
    "dag_longest_path_length", "flow_hierarchy", "is_semiconnected",
    # session 21: degree-based measures (nx_semiring.structure)
    "average_neighbor_degree", "reciprocity", "overall_reciprocity",
    # session 21: distance-sum indices beside wiener_index (nx_semiring.paths)
    "schultz_index", "gutman_index", "hyper_wiener_index",
)
if NX_RELEASE >= (3, 7):
    # 3.7 renamed barycenter to centroid; before it, "centroid" is the tree centroid
    # (3.7's tree_centroid), which the backend does not have
    FUNCTIONS = tuple("centroid" if name == "barycenter" else name for name in FUNCTIONS)

_DOCS = {
    "bfs_edges": "Levels from the engine's BFS; edges in NetworkX's order (its adjacency "
                 "order). ``sort_neighbors`` and ``reverse=True`` on a DiGraph fall back.",
    "single_source_dijkstra": "Distances from the engine's SSSP (delta-stepping); with "
                              "negative weights NetworkX runs (it raises or not by its own "
                              "visiting order). Paths by NetworkX's own heap loop, compiled "
                              "(its pick among tied shortest paths), where it reaches the "
                              "engine's nodes at the engine's distances; without Numba only "
                              "where no two shortest paths tie (else NetworkX runs).",
    "dijkstra_predecessor_and_distance": "The engine's SSSP; the predecessor lists, ties "
                                         "included, in the order NetworkX's heap loop "
                                         "(compiled) makes them; without Numba only where "
                                         "no two shortest paths tie.",
    "floyd_warshall_numpy": "The engine's APSP (blocked Floyd–Warshall or batched SSSP); "
                            "-0.0 and -inf weights are left to NetworkX.",
    "all_pairs_shortest_path_length": "The engine's multi-source BFS, 64 sources a batch.",
    "all_pairs_dijkstra_path": "The engine's SSSP from every node, all searched when called; "
                               "paths as single_source_dijkstra's (ties by NetworkX's heap "
                               "loop, compiled; without Numba refused).",
    "floyd_warshall": "The engine's APSP; float weights only where every path sum is exact "
                      "(NetworkX adds in its pivots' order); Python bool and -0.0 weights "
                      "are left to NetworkX (it keeps an edge's own weight object).",
    "floyd_warshall_predecessor_and_distance": "The engine's APSP; only where no two shortest "
                                               "paths tie and no edge weighs inf.",
    "eccentricity": "The engine's multi-source BFS (unweighted) or SSSP a node; sp= is "
                    "NetworkX's.",
    "center": "From the engine's eccentricities; a possible tree (unweighted, undirected, "
              "n - 1 edges, no usebounds) is NetworkX's tree center.",
    "maximum_flow_value": "The engine's maximum flow; integer capacities, a missing one "
                          "infinite; NetworkX's flow functions without keyword arguments; "
                          "a callable capacity (3.7) is NetworkX's to call.",
    "minimum_cut_value": "The engine's maximum flow (max-flow min-cut); as maximum_flow_value.",
    "hopcroft_karp_matching": "The engine's maximum bipartite matching, only where the maximum "
                              "matching is unique (else NetworkX's search picks one); "
                              "undirected graphs.",
    "minimum_weight_full_matching": "The engine's LAPJVsp, only where the cheapest full "
                                    "matching is unique (else NetworkX's "
                                    "linear_sum_assignment picks one); exact weights.",
    "label_propagation_communities": "The engine's semi-synchronous propagation on "
                                     "NetworkX's greedy colouring: NetworkX's communities, "
                                     "in its order.",
    "modularity": "Each community's sums from the engine's Sᵀ A S, NetworkX's formula "
                  "finished on them: its float to the bit. Non-integer weights, multigraphs "
                  "and non-partitions are left to NetworkX.",
    "k_truss": "The engine's support peeling; graphs with self-loops are left to NetworkX.",
    "hits": "The engine's power iteration on AᵀA to NetworkX's ARPACK answer (to ~1e-9), "
            "only where the largest singular value is simple (else ARPACK's random start "
            "picks the answer); normalized=True, max_iter >= 100.",
    "degree_centrality": "Degrees from the converted CSR (row lengths, column counts); "
                         "multigraphs (parallel edges counted) are left to NetworkX.",
    "minimum_spanning_edges": "NetworkX's Kruskal edges in Kruskal's order (the engine's "
                              "Borůvka on the edges' Kruskal ranks); 'prim', 'boruvka' and "
                              "multigraphs are left to NetworkX.",
    "maximum_spanning_edges": "As minimum_spanning_edges, in decreasing weight.",
    "edge_betweenness_centrality": "The engine's batched Brandes sweeps, each edge's terms "
                                   "gathered from the sources' σ and δ; unweighted; "
                                   "multigraphs are left to NetworkX. Values to rounding: "
                                   "edges that tie mathematically differ in their last bits "
                                   "in NetworkX and here, each its own way, so a max() over "
                                   "them (girvan_newman's default) may pick another of the "
                                   "tied edges.",
    "harmonic_centrality": "The engine's multi-source BFS or SSSP from every node; nbunch= "
                           "and sources= are left to NetworkX.",
    "multi_source_dijkstra": "The engine's SSSP from a virtual vertex joined to the sources; "
                             "paths as single_source_dijkstra's (ties by NetworkX's heap "
                             "loop, compiled; without Numba refused).",
    "johnson": "The engine's APSP, paths by NetworkX's Dijkstra over the reweighted edges, "
               "its heap loop compiled (its pick among tied paths); without Numba only where "
               "no two shortest paths tie; every sum exact.",
    "average_shortest_path_length": "The engine's multi-source BFS or APSP; the sum exact "
                                    "(float weights only where every sum is exact in any "
                                    "order).",
    "global_efficiency": "The engine's multi-source BFS; the terms added in NetworkX's order "
                         "(its float to the bit).",
    "attracting_components": "The engine's strong components where there is at most one "
                             "attracting component, of one node; else NetworkX's Tarjan order "
                             "by the compiled replica of its loop (without Numba NetworkX "
                             "runs it).",
    "strongly_connected_components": "NetworkX's Tarjan loop, compiled on the CPU (its "
                                     "completion order and its sets' insertion order are a "
                                     "sequential DFS's); without Numba NetworkX runs it.",
    "connected_components": "The engine's components, each set built in NetworkX's BFS order "
                            "(a set's iteration order depends on it).",
    "weakly_connected_components": "As connected_components (successors, then predecessors); "
                                   "where a node's predecessors in G._pred's order (not kept) "
                                   "would decide the order, NetworkX runs it.",
    "single_source_shortest_path_length": "The engine's BFS levels, keyed in NetworkX's queue "
                                          "order.",
    "single_source_dijkstra_path_length": "The engine's SSSP, keyed in NetworkX's heap order "
                                          "(equal distances by their first tight scan).",
    "single_source_bellman_ford_path_length": "The engine's Bellman–Ford, keyed in NetworkX's "
                                              "queue order: its queue loop compiled; without "
                                              "Numba only where that is a BFS order (else "
                                              "NetworkX runs it).",
    "single_source_bellman_ford": "The engine's Bellman–Ford; the paths and their order by "
                                  "NetworkX's queue loop compiled (its predecessor lists, its "
                                  "first path among ties); without Numba only where no two "
                                  "shortest paths tie and the queue is a BFS order.",
    "bellman_ford_predecessor_and_distance": "As single_source_bellman_ford: NetworkX's "
                                             "predecessor lists, ties included, by its queue "
                                             "loop compiled.",
    "minimum_cut": "Left to NetworkX (can_run): its cut sides are sets built in the order of "
                   "its flow's residual search.",
    "eigenvector_centrality_numpy": "The engine's power iteration run to ~1e-14 (NetworkX's "
                                    "ARPACK to machine precision): equal to ~1e-10.",
    "katz_centrality_numpy": "The engine's Katz iteration run to ~1e-14 (NetworkX's dense "
                             "solve); where it diverges (alpha >= 1 / λ_max) NetworkX runs.",
    "is_directed_acyclic_graph": "The engine's strong components: n of them and no "
                                 "self-loop.",
    "is_tree": "The engine's weak components and the edge count; multigraphs are left to "
               "NetworkX.",
    "is_bipartite": "The engine's BFS over the undirected pattern from one root per weak "
                    "component (NetworkX's colouring's first node).",
    "color": "NetworkX's two-colouring (the engine's BFS parities), keyed in NetworkX's order; "
             "a directed graph is left to NetworkX.",
    "sets": "As color, the sets built in that order; top_nodes= is left to NetworkX.",
    "dag_longest_path_length": "The engine's Bellman–Ford over the negated weights from a "
                               "virtual source; exact sums only; multigraphs are left to "
                               "NetworkX.",
    "average_neighbor_degree": "Exact integer sums from the converted CSR; non-integral "
                               "float weights and multigraphs are left to NetworkX.",
    "reciprocity": "The reciprocated edges from the engine's P ∘ Pᵀ; nodes= a list, tuple or "
                   "set (else NetworkX runs it).",
    "schultz_index": "The engine's multi-source BFS or APSP; exact integer sums (integer "
                     "weights only).",
    "gutman_index": "As schultz_index.",
    "hyper_wiener_index": "As schultz_index.",
    "flow_hierarchy": "The engine's strong components; counts, or integer weights (exact "
                      "sums); multigraphs are left to NetworkX.",
}


def get_info() -> dict:
    """What NetworkX shows about this backend (the ``networkx.backend_info`` entry point).

    Examples
    --------
    >>> import nx_semiring
    >>> info = nx_semiring.get_info()
    >>> info["backend_name"], "bfs_edges" in info["functions"]
    ('semiring', True)
    """
    return {
        "backend_name": "semiring",
        "project": "semiring",
        "package": "nx_semiring",
        "short_summary": "GraphBLAS-style sparse linear algebra on the GPU (CuPy) or CPU.",
        "functions": {name: ({"additional_docs": _DOCS[name]} if name in _DOCS else {})
                      for name in FUNCTIONS},
    }


def __getattr__(name):  # lazy: SemiringGraph and the converters import the engine
    if name in ("SemiringGraph", "from_networkx", "to_networkx"):
        from . import graph  # noqa: PLC0415  (lazy: NetworkX imports this package for get_info, which imports neither the engine nor NetworkX)

        return getattr(graph, name)
    raise AttributeError(f"module 'nx_semiring' has no attribute {name!r}")


__all__ = ["FUNCTIONS", "NX_RELEASE", "SemiringGraph", "from_networkx", "get_info", "to_networkx"]
