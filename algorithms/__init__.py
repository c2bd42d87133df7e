"""Graph algorithms written with the ``semiring`` algebra.

Each algorithm is a short loop of algebra calls with its math written above each call; the
policy (push/pull switching, Δ, tile sizes) lives here with named constants and the papers it
comes from, the mechanism (kernels) in ``semiring``.

Traversal and shortest paths:

- :func:`bfs`: breadth-first search levels and parents, direction-optimizing.
- :func:`multi_source_bfs`: many BFS at once (one row of levels/parents per source), each
  level one masked SpMM of the transposed graph with the frontier matrix.
- :func:`sssp`, :func:`bellman_ford`, :func:`delta_stepping`: single-source shortest paths
  (min-plus relaxations of a frontier), with predecessors and negative-cycle detection;
  :func:`multi_source_sssp`: many sources at once, one SpMM over min-plus a round.
- :func:`apsp`: all-pairs shortest paths (repeated min-plus squaring, blocked Floyd–Warshall,
  batched SSSP), predecessors and :func:`reconstruct_path`.
- :class:`NegativeCycleError`: ``semiring.NegativeCycleError``, raised by every shortest-path
  function here and in :mod:`algorithms.csgraph` (whose own class also derives from SciPy's).

Analytics:

- :func:`connected_components` (weak: FastSV; strong: forward–backward),
  :func:`minimum_spanning_forest` (Borůvka), :func:`maximum_flow` (push–relabel),
  :func:`maximum_bipartite_matching`, :func:`min_weight_full_bipartite_matching`,
  :func:`reverse_cuthill_mckee`, :func:`structural_rank`.
- :func:`pagerank`: PageRank and personalized PageRank (NetworkX's or GAP's definition), one
  SpMV an iteration.
- :func:`betweenness_centrality`: Brandes' betweenness, a batch of sources at once (SpMM
  forward and backward sweeps), exact or sampled; :func:`edge_betweenness_centrality` the
  same sweeps with each edge's terms gathered (an SDDMM over the graph's pattern).
- :func:`eigenvector_centrality`, :func:`katz_centrality`, :func:`hits`: NetworkX's power
  iterations, one or two SpMVs an iteration; :func:`closeness_centrality`,
  :func:`harmonic_centrality`: distances to every vertex from batched multi-source BFS (or
  SSSP when weighted).
- :func:`triangle_count`, :func:`triangles`, :func:`clustering`: triangles (total, per
  vertex) and the local clustering coefficient, as masked SpGEMM.
- :func:`core_number` (k-core decomposition by peeling) and :func:`k_truss` (support counting
  by masked SpGEMM).
- :func:`label_propagation` (semi-synchronous, Cordasco & Gargano 2010), :func:`louvain`
  (parallel local moves by colour classes, aggregation as Sᵀ A S) and :func:`modularity`.

Facades and scale-out:

- :mod:`algorithms.csgraph`: the ``scipy.sparse.csgraph`` facade: SciPy's 26 names,
  signatures and outputs on every input kind, on the CPU or the GPU.
- :mod:`algorithms.dist`: the same algorithms over a ``semiring.dist.DistMatrix`` on Dask
  workers (``algorithms.bfs(DA, source)`` dispatches there).
"""

from semiring import NegativeCycleError

from . import csgraph
from .apsp import apsp, reconstruct_path
from .bfs import bfs, multi_source_bfs
from .centrality import (betweenness_centrality, closeness_centrality, eigenvector_centrality,
                         harmonic_centrality, hits, katz_centrality)
from .community import community_weights, label_propagation, louvain, modularity
from .components import connected_components
from .edge_betweenness import edge_betweenness_centrality
from .cores import core_number, k_truss
from .flow import FlowResult, maximum_flow
from .matching import maximum_bipartite_matching, min_weight_full_bipartite_matching
from .mst import minimum_spanning_forest
from .ordering import reverse_cuthill_mckee, structural_rank
from .pagerank import ConvergenceError, pagerank
from .sssp import DistanceOverflow, bellman_ford, delta_stepping, multi_source_sssp, sssp
from .triangles import clustering, triangle_count, triangles

__all__ = [
    "ConvergenceError", "DistanceOverflow", "FlowResult", "NegativeCycleError", "apsp",
    "bellman_ford", "betweenness_centrality", "bfs", "closeness_centrality", "clustering",
    "community_weights", "connected_components", "edge_betweenness_centrality",
    "eigenvector_centrality", "harmonic_centrality",
    "hits", "katz_centrality",
    "core_number", "csgraph", "delta_stepping", "k_truss", "label_propagation", "louvain",
    "maximum_bipartite_matching", "maximum_flow", "min_weight_full_bipartite_matching",
    "minimum_spanning_forest", "modularity", "multi_source_bfs", "multi_source_sssp",
    "pagerank", "reconstruct_path", "reverse_cuthill_mckee", "sssp", "structural_rank",
    "triangle_count", "triangles",
]
