"""A ``scipy.sparse.csgraph``-compatible facade: SciPy's names, keywords, outputs and sentinels,
computed with the semiring algebra on the CPU or the GPU (where the input lives).

(Work in progress, issue 15: the package layout is in place; every facade function converts
its input with :mod:`algorithms.csgraph._validation`.)
"""

from ._graphalg import (connected_components, maximum_bipartite_matching, maximum_flow,
                        min_weight_full_bipartite_matching, minimum_spanning_tree,
                        reverse_cuthill_mckee, structural_rank)
from ._shortest import (NULL_IDX, NegativeCycleError, bellman_ford, breadth_first_order,
                        breadth_first_tree, dijkstra, floyd_warshall, johnson, shortest_path)

__all__ = ["NULL_IDX", "NegativeCycleError", "bellman_ford", "breadth_first_order",
           "breadth_first_tree", "dijkstra", "floyd_warshall", "johnson", "shortest_path"]
__all__ += ["connected_components", "maximum_bipartite_matching", "maximum_flow",
            "min_weight_full_bipartite_matching", "minimum_spanning_tree",
            "reverse_cuthill_mckee", "structural_rank"]
