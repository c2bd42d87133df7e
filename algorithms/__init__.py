"""Graph algorithms written with the ``semiring`` algebra.

Each algorithm is a short loop of algebra calls with its math written above each call; the
policy (push/pull switching, Δ, tile sizes) lives here with named constants and the papers it
comes from, the mechanism (kernels) in ``semiring``.

- :func:`bfs`: breadth-first search levels and parents, direction-optimizing.
- :func:`multi_source_bfs`: many BFS at once (one row of levels/parents per source), each
  level one masked SpMM of the transposed graph with the frontier matrix.
- :func:`sssp`, :func:`bellman_ford`, :func:`delta_stepping`: single-source shortest paths
  (min-plus relaxations of a frontier), with predecessors and negative-cycle detection;
  :func:`multi_source_sssp`: many sources at once, one SpMM over min-plus a round.
- :mod:`algorithms.csgraph`: the ``scipy.sparse.csgraph`` facade (
  ``breadth_first_order`` and ``breadth_first_tree``, identical to SciPy's output;
  ``dijkstra``, ``bellman_ford``, ``johnson``, ``floyd_warshall`` and ``shortest_path`` with
  SciPy's parameters and outputs).
- :func:`pagerank`: PageRank and personalized PageRank (NetworkX's or GAP's definition), one
  SpMV an iteration.
- :func:`betweenness_centrality`: Brandes' betweenness, a batch of sources at once (SpMM
  forward and backward sweeps), exact or sampled.
- :func:`triangle_count`, :func:`triangles`, :func:`clustering`: triangles (total, per
  vertex) and the local clustering coefficient, as masked SpGEMM.
- :func:`core_number` (k-core decomposition by peeling) and :func:`k_truss` (support counting
  by masked SpGEMM): :mod:`algorithms.cores`.
- :func:`label_propagation` (semi-synchronous, Cordasco & Gargano 2010), :func:`louvain`
  (parallel local moves by colour classes, aggregation as Sᵀ A S) and :func:`modularity`:
  :mod:`algorithms.community`.
- :func:`apsp`: all-pairs shortest paths (repeated min-plus squaring, blocked Floyd–Warshall,
  batched SSSP), predecessors and :func:`reconstruct_path`.
"""

from . import csgraph
from .apsp import apsp, reconstruct_path
from .bfs import bfs, multi_source_bfs
from .centrality import betweenness_centrality
from .components import connected_components
from .flow import FlowResult, maximum_flow
from .matching import maximum_bipartite_matching, min_weight_full_bipartite_matching
from .mst import minimum_spanning_forest
from .pagerank import ConvergenceError, pagerank
from .community import label_propagation, louvain, modularity
from .cores import core_number, k_truss
from .ordering import reverse_cuthill_mckee, structural_rank
from .sssp import DistanceOverflow, bellman_ford, delta_stepping, multi_source_sssp, sssp
from .triangles import clustering, triangle_count, triangles

__all__ = ["ConvergenceError", "DistanceOverflow", "apsp", "bellman_ford", "betweenness_centrality",
           "bfs", "clustering",
           "csgraph", "delta_stepping", "multi_source_bfs", "multi_source_sssp", "pagerank",
           "reconstruct_path", "sssp", "triangle_count", "triangles"]
# graphalg: components, spanning forests, flow, matching, ordering
__all__ += ["FlowResult", "connected_components", "maximum_bipartite_matching", "maximum_flow",
            "min_weight_full_bipartite_matching", "minimum_spanning_forest",
            "reverse_cuthill_mckee", "structural_rank"]
__all__ += ["core_number", "k_truss", "label_propagation", "louvain", "modularity"]
