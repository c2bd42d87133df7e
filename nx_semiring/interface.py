"""The backend object NetworkX loads (entry point ``networkx.backends``: ``semiring``).

NetworkX's dispatcher (``networkx.utils.backends``) calls, for a dispatchable function
``name`` and the call's ``args``/``kwargs``:

1. ``can_run(name, args, kwargs)``: can the engine run this call? ``True``, or a string that
   says why not (NetworkX logs it and runs its own code when ``fallback_to_nx`` is set, or
   another backend). Checked before any conversion, in O(1): unsupported keywords
   (``sort_neighbors=``, ``reverse=True`` on a DiGraph, callable weights, multigraphs where
   parallel edges are not just their minimum).
2. ``should_run(name, args, kwargs)``: is it worth it? Only consulted when NetworkX picks a
   backend by itself (``nx.config.backend_priority``), not for ``backend="semiring"``. It
   declines where the backend is predicted slower than NetworkX *including the conversion*,
   so that enabling the backend never slows a script down (nx-cugraph's ``should_run``
   declines cheap calls the same way). The rule (:func:`predict`): NetworkX costs
   ``NX_SECONDS_PER_UNIT[family] × work`` (× ``NX_LARGE_GRAPH_FACTOR`` beyond
   ``LARGE_GRAPH_UNITS``, where its dicts outgrow the CPU's caches); the backend costs the
   conversion (``CONVERT_SECONDS_PER_ENTRY × (n + stored entries)``, plus
   ``WEIGHT_SECONDS_PER_ENTRY × stored entries`` for an edge attribute,
   ``PRESERVE_SECONDS_PER_ENTRY`` where NetworkX asks for all of them; nothing for what
   ``G.__networkx_cache__`` already holds) plus ``fixed + per_unit × work`` of
   ``ENGINE_COST[device][family]``. ``work`` is ``n + stored entries`` for one traversal
   (BFS, components, SSSP, PageRank, triangles, cores, Louvain, MST), times the sources for
   betweenness (``k``) and all-pairs BFS (``n``), and ``n³`` for ``floyd_warshall_numpy``.
   Point-to-point queries (a ``target``, ``has_path``) are always left to NetworkX: its
   bidirectional or early-stopping search usually sees a small part of the graph, which no
   formula in n and m predicts. So are the bipartite matchings (``"unique_only"``): the
   engine answers only where the matching is unique, which on most graphs it is not, so
   asking would usually cost the engine's search and then NetworkX's (they run where asked
   for by name). k_truss, label propagation, modularity and the flow values are linear
   families measured as the others; the degree centralities and isolates cost per node
   (``"nodes"``: both sides one pass over the nodes), edge betweenness per source as
   betweenness, with its own measured constants (``"edge_bc"``).
   nx_semiring.paths' searches from every node count as all-pairs BFS (unweighted) or n
   SSSP runs (weighted). The constants are measured (``bench/probes/nx_should_run.py``)
   and rounded in NetworkX's favour: where the model errs, NetworkX runs. On the CPU
   (session 23) every per-unit cost, NetworkX's, the conversion's and the engine's, grows
   as ``(units / CACHE_UNITS) ** exponent`` beyond ``CACHE_UNITS`` (``CACHE_EXPONENT``,
   ``CONVERT_CACHE_EXPONENT``, ``ENGINE_CACHE_EXPONENT``; in place of the GPU host's
   ``NX_LARGE_GRAPH_FACTOR`` step), and on graphs of fewer than ``SPARSE_DEGREE``
   stored entries a node (grids, roads: hundreds of BFS levels) the engine's searches cost
   ``ENGINE_SPARSE_FACTOR`` more a unit. Calls the engine answers only where no shortest
   paths tie (Floyd–Warshall's predecessors; Dijkstra's, Johnson's and Bellman–Ford's
   paths and predecessors too without Numba, whose heap and queue loops compiled give
   NetworkX's pick among ties), and, without Numba, Bellman–Ford's length dicts, which it
   answers only where NetworkX's queue is a BFS (one weight on every edge, seen in a
   cached conversion), are left to NetworkX: on most graphs the backend would convert,
   search and then refuse.
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

import collections.abc
import importlib
import inspect
import random

import numpy as np

import semiring as sr
from algorithms import community as _community
from algorithms import components as _components
from algorithms import cores as _cores
from algorithms import mst as _mst

from . import FUNCTIONS

_tri = importlib.import_module("algorithms.triangles")  # the function algorithms.triangles shadows it
_pagerank = importlib.import_module("algorithms.pagerank")  # (as algorithms.pagerank does)
from . import algorithms as _alg
from . import analytics as _ana
from . import centrality as _cen
from . import paths as _paths
from . import recognition as _rec
from . import structure as _str
from .graph import SemiringGraph, from_networkx, to_networkx
from .testing import mark_known_failures, start_tally

__all__ = ["CACHE_EXPONENT", "CACHE_UNITS", "CONVERT_CACHE_EXPONENT",
           "CONVERT_SECONDS_PER_ENTRY", "ENGINE_CACHE_EXPONENT", "ENGINE_COST",
           "ENGINE_SPARSE_FACTOR", "FAMILIES", "LARGE_GRAPH_UNITS", "SPARSE_DEGREE",
           "NX_LARGE_GRAPH_FACTOR", "NX_SECONDS_PER_UNIT", "PRESERVE_SECONDS_PER_ENTRY",
           "WEIGHT_SECONDS_PER_ENTRY", "BackendInterface", "backend_interface", "predict"]

# ---------------------------------------------------------------- should_run's cost model
# Work of one call, per family: "linear" n + stored entries (one traversal), "sources" that
# times the sources (betweenness: k, else n), "pairs" n times it (all-pairs BFS), "cubic" n³,
# "nodes" n (a pass over the nodes: the degree family).
FAMILIES = {
    "bfs": "linear", "bfs_order": "linear", "components": "linear", "sssp": "linear",
    "bellman_ford": "linear", "pagerank": "linear", "bc": "sources", "triangles": "linear",
    "core": "linear", "louvain": "linear", "mst": "linear", "apsp_bfs": "pairs",
    "fw": "cubic", "k_truss": "linear", "label_propagation": "linear", "modularity": "linear",
    "flow": "linear",
}

# dispatched function -> family; None: a point-to-point query, left to NetworkX
_FAMILY_OF = {
    "bfs_edges": "bfs_order", "bfs_tree": "bfs_order", "bfs_predecessors": "bfs_order",
    "bfs_successors": "bfs_order", "bfs_layers": "bfs", "descendants_at_distance": "bfs",
    "single_source_shortest_path": "bfs", "single_source_shortest_path_length": "bfs",
    "all_pairs_shortest_path_length": "apsp_bfs", "has_path": None,
    "single_source_dijkstra": "sssp", "single_source_dijkstra_path": "sssp",
    "single_source_dijkstra_path_length": "sssp", "dijkstra_path": None,
    "dijkstra_path_length": None, "bellman_ford_path": None, "bellman_ford_path_length": None,
    "single_source_bellman_ford": "bellman_ford", "single_source_bellman_ford_path":
    "bellman_ford", "single_source_bellman_ford_path_length": "bellman_ford",
    "negative_edge_cycle": "bellman_ford", "floyd_warshall_numpy": "fw",
    "connected_components": "components", "number_connected_components": "components",
    "is_connected": "components", "strongly_connected_components": "components",
    "pagerank": "pagerank", "betweenness_centrality": "bc", "triangles": "triangles",
    "clustering": "triangles", "core_number": "core", "louvain_communities": "louvain",
    "minimum_spanning_tree": "mst",
    # shortest_path / shortest_path_length: by their arguments (see _family)
    # nx_semiring.paths (all-pairs ones by their weight, see _family)
    "multi_source_dijkstra_path_length": "sssp", "single_target_shortest_path_length": "bfs",
    "ancestors": "bfs", "descendants": "bfs",
    "maximum_flow_value": "flow", "minimum_cut_value": "flow",
    # answered only where the matching is unique: left to NetworkX unless asked for by name
    "hopcroft_karp_matching": "unique_only", "minimum_weight_full_matching": "unique_only",
}

# nx_semiring.paths' functions that search from every node: all-pairs BFS when unweighted,
# n SSSP runs when weighted. NetworkX's dict-of-dicts Floyd–Warshall (n³ Python steps, not
# the "fw" family's NumPy floyd_warshall_numpy) is counted as n SSSP runs too (the engine's
# APSP on sparse graphs is batched SSSP): less than NetworkX's cost, so in its favour, until
# measured
_ALL_SOURCES_WEIGHTED = frozenset({"floyd_warshall", "floyd_warshall_predecessor_and_distance"})
_ALL_SOURCES = frozenset({
    "all_pairs_dijkstra_path_length", "all_pairs_bellman_ford_path_length",
    "all_pairs_shortest_path", "all_pairs_dijkstra_path", "eccentricity", "diameter",
    "radius", "center", "periphery",
    # session 20 (nx16): the all-pairs paths, Johnson's (its weight= defaults to "weight":
    # n SSSP runs), and the measures summed over all pairs (global_efficiency has no
    # weight=: all-pairs BFS)
    "all_pairs_dijkstra", "all_pairs_bellman_ford_path", "johnson",
    "average_shortest_path_length", "wiener_index", "global_efficiency", "barycenter",
    "centroid",
    # session 21 (nx21): the distance-sum indices beside wiener_index
    "schultz_index", "gutman_index", "hyper_wiener_index"})

# Functions whose edge attribute the conversion reads (their weight= argument), and those
# converted with every attribute (NetworkX's preserve_all_attrs: the tree keeps them)
_WEIGHTED = frozenset({"sssp", "bellman_ford", "pagerank", "louvain", "fw"})
_PRESERVED = frozenset({"mst"})

# NetworkX's seconds per work unit (pure Python, one core): about the median of what
# bench/probes/nx_should_run.py measured on Kronecker graphs and grids (kron-8..12,
# grid-20..100), rounded down
NX_SECONDS_PER_UNIT = {
    "bfs": 7e-8, "bfs_order": 8e-8, "components": 5e-8, "sssp": 4.5e-7,
    "bellman_ford": 6e-7, "pagerank": 7e-7, "bc": 4e-7, "triangles": 5e-7,
    "core": 2.5e-7, "louvain": 1.5e-5, "mst": 1.2e-6, "apsp_bfs": 1.3e-7, "fw": 1.7e-9,
    "k_truss": 1.2e-6, "label_propagation": 9e-7, "modularity": 2.2e-7, "flow": 1e-6,
}

# The conversion's seconds per (vertex + stored entry) for the structure, per stored entry
# for one edge attribute, and per stored entry for all of them (preserve_edge_attrs), the
# probe's medians rounded up (a Kronecker graph, whose dicts lie in random memory order, is
# the slow case)
CONVERT_SECONDS_PER_ENTRY = 1.2e-7
WEIGHT_SECONDS_PER_ENTRY = 1.5e-7
PRESERVE_SECONDS_PER_ENTRY = 6e-7

# The engine's (fixed seconds, seconds per work unit) of the first call on a converted graph
# (what it caches on the graph, e.g. transposes, and the results as NetworkX's dicts
# included), per device and family: the probe's medians, rounded up. On the CPU the engine
# is NumPy/SciPy: triangles (and cores without Numba: see below) cost more than NetworkX's
# whole call, so the model leaves them to NetworkX there. BFS and components per unit re-measured after their results
# were built without per-node Python work (session 9, nx_should_run.py on kron-10..14 and
# grid-50..200, a loaded 2-core host: warm 6.9e-9 and 3.7e-8 s per unit, rounded up): with
# the conversion cached they now run on the engine.
ENGINE_COST = {
    "cpu": {
        "bfs": (5e-4, 1e-8), "bfs_order": (5e-4, 1.5e-7), "components": (5e-4, 5e-8),
        "sssp": (1e-3, 1.1e-7), "bellman_ford": (1e-3, 1.1e-7), "pagerank": (1e-3, 2e-7),
        "bc": (2e-2, 3.6e-7), "triangles": (5e-3, 3e-6), "core": (3e-3, 7e-7),
        "louvain": (0.2, 1.3e-5), "mst": (3e-3, 9e-7), "apsp_bfs": (2e-2, 7.5e-8),
        "fw": (5e-2, 1.5e-8), "k_truss": (4e-4, 3.5e-7), "label_propagation": (1e-2, 4.5e-7),
        "modularity": (1e-3, 6e-8), "flow": (3e-4, 1.4e-7),
    },
    # H100 host (bench/probes/nx_should_run.py on kron-8..12, and nx_semiring.bench on
    # kron-18 and grid-1000). Per-unit costs are the worst of a skewed graph and a grid (a
    # grid's 2000 BFS levels): BFS 3e-8, SSSP 9e-8, betweenness 4e-8 per unit on grid-1000.
    # core_number, louvain_communities, minimum_spanning_tree, k_truss and label
    # propagation: these GPU costs hold above their host routes' bounds (below them,
    # _engine_cost takes the CPU engine's cost: the algorithms run on a host copy there).
    "gpu": {
        "bfs": (1e-3, 3e-8), "bfs_order": (1e-3, 5e-8), "components": (5e-3, 1.4e-7),
        "sssp": (3e-3, 9e-8), "bellman_ford": (2e-3, 9e-8), "pagerank": (6e-3, 3e-8),
        "bc": (2e-2, 4e-8), "triangles": (1.5e-2, 2.5e-7), "core": (5e-2, 2e-6),
        "louvain": (1.0, 1e-4), "mst": (1e-2, 1.5e-6), "apsp_bfs": (5e-3, 5e-9),
        "fw": (5e-2, 1e-10), "k_truss": (6e-3, 4e-7), "label_propagation": (0.2, 6e-6),
        "modularity": (1e-2, 4e-8), "flow": (3e-3, 1.5e-7),
    },
}

# NetworkX slows down per unit once its dicts outgrow the CPU's caches: from kron-12 to
# kron-18 on the H100 host, BFS went from 9e-8 to 2.4e-7 s per unit and connected components
# from 7e-8 to 3.6e-7 (grid-1000: 2e-7 both); the conversion, one sequential pass, much less
# (9e-8 to 1.3e-7). Above LARGE_GRAPH_UNITS (n + stored entries) NetworkX's side is
# multiplied by NX_LARGE_GRAPH_FACTOR (the low end of those ratios).
LARGE_GRAPH_UNITS = 1 << 20
NX_LARGE_GRAPH_FACTOR = 2.5

# core_number on a CPU with Numba is Batagelj–Zaversnik in one compiled pass (algorithms.cores'
# policy): nx_should_run.py on kron-5..12 and grid-5..100 (session 18, the 2-core host) fit
# 1e-4 s + 1.6e-8 s per unit, rounded up here; "core" above is the peeling's (no Numba)
if _cores._core_auto("cpu") == "bz":
    ENGINE_COST["cpu"]["core"] = (3e-4, 3e-8)

# triangles / clustering on a CPU with Numba sum the compiled edge supports (algorithms.
# triangles' policy): nx_should_run.py --families triangles (session 19, tri15, the 2-core
# host) measured the warm call at 4e-8 to 1.8e-7 s per unit (kron-8..14, grid-300), rounded up
if _tri._vertex_auto("cpu") == "forward":
    ENGINE_COST["cpu"]["triangles"] = (3e-4, 2e-7)

# label propagation on a CPU with Numba: the compiled colouring and sweeps (session 19, lpa15,
# the 2-core host: ~1 ms + 35 ns per stored entry on kron-16, 105 ns on grid-1000; the
# backend's NetworkX colouring compiled too), rounded up
if _community._lpa_auto("cpu") == "compiled":
    ENGINE_COST["cpu"]["label_propagation"] = (2e-3, 1.5e-7)

# Louvain on a CPU with Numba: the compiled sequential local moves (session 19, lv15,
# nx_should_run.py --families louvain on the 2-core host: warm 2.8-189 ms on kron-8..14,
# fit -4e-3 s + 5.4e-7 s per unit), rounded up
if _community._louvain_auto("cpu") == "sequential":
    ENGINE_COST["cpu"]["louvain"] = (2e-3, 7e-7)

# On the CPU, NetworkX's dicts, the conversion's walk over them and the engine's arrays cost
# more per unit once the graph outgrows the caches, NetworkX's the most (session 23, the
# 2-core host: BFS in NetworkX 6e-8 s a unit up to 5·10⁴ units, 1.9e-7 at 2·10⁵, 5.4e-7 at
# 9·10⁵, 6.9e-7 at 3.9·10⁶; the conversion 7.6e-8, 1.6e-7, 2.2e-7, 7.6e-7; the engine's BFS
# 5.5e-8 at 10⁴ units, 5.7e-8 at 9·10⁵): beyond CACHE_UNITS (n + stored entries) each CPU
# per-unit cost is multiplied by (units / CACHE_UNITS) ** exponent, NetworkX's
# CACHE_EXPONENT, the conversion's CONVERT_CACHE_EXPONENT, the engine's
# ENGINE_CACHE_EXPONENT. Chosen among 0.5-0.7, 0.35-0.5 and 0-0.5 as the agreement with the
# clock over the probe's 170 rows (136 fresh, 140 cached, against 118 and 121 for session
# 22's model; bench/results/session23/nx23_should_run.md), with exponents below NetworkX's
# measured growth and at or above the engine's (NetworkX's favour). The GPU side keeps
# NX_LARGE_GRAPH_FACTOR (measured on the H100 host).
CACHE_UNITS = 5e4
CACHE_EXPONENT = 0.6
CONVERT_CACHE_EXPONENT = 0.35
ENGINE_CACHE_EXPONENT = 0.25

# The engine's level-synchronous searches cost per level: on graphs of few edges a node
# (grids, roads, trees: hundreds of levels) the CPU engine's first call costs more per unit
# than on the Kronecker graphs, by more than NetworkX's does (session 23, grid-32..316
# against kron-9..15 of as many units: BFS lengths 4-16 times on the engine, 1.4-7 times in
# NetworkX; SSSP 12-27 against 1.4-3.4; edge betweenness 47-144 against 8-18; the engine's
# Floyd–Warshall, batched SSSP on a sparse graph, 12.6 s on grid-32 against 1.2 s on
# kron-10, both n = 1024). Below SPARSE_DEGREE stored entries a node the CPU engine's
# per-unit cost of these families is multiplied by ENGINE_SPARSE_FACTOR, the largest
# measured ratio of the two ratios (a guess at the diameter from n and m: a sparse random
# graph of short paths is priced as a grid, NetworkX's favour).
SPARSE_DEGREE = 6
ENGINE_SPARSE_FACTOR = {"bfs": 6, "bfs_order": 11, "components": 3, "sssp": 9,
                        "bellman_ford": 2, "bc": 2.5, "edge_bc": 8, "apsp_bfs": 2, "fw": 11}

# With Numba, NetworkX's BFS orders come from one compiled queue (compiled.bfs_queue, session
# 23), not a NumPy pass a level, and its Dijkstra orders from its heap loop compiled
# (compiled.dijkstra_order), not a pass a tie group: no cost a level, and ordered results
# cost about what lengths do (nx_should_run.py --kron 13,15 --grid 100,316,447 --families
# bfs,bfs_order,components after it, the 2-core host: warm 3.1e-8 s a unit for bfs_order,
# 1.8e-8 bfs, 1.7e-8 components; grid-447's first calls 39-47 ms against NetworkX's
# 147-203; grid-316 SSSP lengths 55 ms warm against NetworkX's 268, kron-15 37 against 891)
if _alg._cpu_compiled.ENABLED:
    for _fam in ("bfs", "bfs_order", "components", "sssp"):
        ENGINE_SPARSE_FACTOR[_fam] = 1
    ENGINE_COST["cpu"]["bfs_order"] = (5e-4, 5e-8)


def _cache_factor(units, exponent=None) -> float:
    """The CPU's per-unit slowdown of a graph of ``units`` (n + stored entries): NetworkX's
    (``CACHE_EXPONENT``), or another ``exponent``'s."""
    return max(1.0, units / CACHE_UNITS) ** (CACHE_EXPONENT if exponent is None else exponent)


# GPU graphs below a host route's bound (the launch-bound analytics: algorithms.cores,
# .community, .mst) run on a host copy: the CPU engine's cost, plus the copies there and back
HOST_COPY_COST = (2e-4, 2e-9)


def _host_bound(fam):
    """Stored entries below which GPU input of family ``fam`` takes its algorithm's host
    route (0: none), read live from the algorithms' policies."""
    compiled = _cores._compiled().ENABLED
    bounds = {
        "core": _cores.CORE_HOST_MAX_ENTRIES if compiled else 0,
        "core_subgraph": _cores.CORE_HOST_MAX_ENTRIES if compiled else 0,
        "k_truss": _cores.TRUSS_HOST_MAX_ENTRIES if compiled else 0,
        "label_propagation": _community._lpa_host_max(),
        "louvain": _community._louvain_host_max(),
        "mst": _mst.HOST_MAX_ENTRIES,
        "components": _components.WEAK_HOST_MAX_ENTRIES,  # (strong's bound is higher)
        # (the family's other power iterations; pagerank itself: GPU_FUSED_PAGERANK_COST)
        "pagerank": _pagerank.HOST_MAX_ENTRIES,
    }
    return bounds.get(fam, 0)


# triangles / clustering of GPU input: the forward listing (algorithms.triangles' 'auto' on the
# GPU; the directed clustering's host route below triangles.HOST_MAX_ENTRIES is costed the
# same). H200 (session 25, tc_forward_bound.py): the per-vertex counts 0.25-0.7 ms on graphs
# of 10^4-10^6 entries, 9.2 ms on kron-17 (3.9·10^6 units), 22.9 on kron-18; rounded up
# (session 28's oriented variant: kron-18 7.6 ms, kron-22 214 ms for 1.3·10^8 entries)
GPU_FORWARD_COST = (1e-3, 4e-9)
# pagerank (the function; not the family's other power iterations) of GPU input up to
# algorithms.pagerank's GPU_FUSED_MAX_ENTRIES: the fused launch
# (NetworkX passes no progress callback, so its small graphs never take the host route), where
# the loop's fixed cost was its sweeps' launches and host synchronizations (~90 µs a sweep,
# NetworkX's tolerance asking for tens of sweeps). H200 (session 26, pagerank_fused_bound.py):
# the fused call 0.18-1.5 ms on graphs of 10^4 to 7.6·10^6 entries; rounded up. The per-unit
# cost stays the loop's: it is the answer's dict.
GPU_FUSED_PAGERANK_COST = (1e-3, ENGINE_COST["gpu"]["pagerank"][1])


def _engine_cost(device, fam, stored, name=None):
    """(fixed seconds, seconds per work unit) of the engine's call of family ``fam``
    (``name``: the function, where one of the family costs otherwise)."""
    if device == "gpu" and fam == "triangles":
        return GPU_FORWARD_COST
    if device == "gpu" and name == "pagerank" and stored <= _pagerank.GPU_FUSED_MAX_ENTRIES:
        return GPU_FUSED_PAGERANK_COST
    if device == "gpu" and stored < _host_bound(fam):
        fixed, unit = ENGINE_COST["cpu"][fam]
        return fixed + HOST_COPY_COST[0], unit + HOST_COPY_COST[1]
    return ENGINE_COST.get(device or "cpu", ENGINE_COST["cpu"])[fam]

# nx_semiring.analytics: the same engine calls as the families above. The k-core family
# ("core_subgraph") costs core_number's units on both sides (each then builds the same
# subgraph in Python) and is converted with every attribute, as minimum_spanning_tree is.
# k_truss, label propagation, modularity and the flow values: measured by
# bench/probes/nx_should_run.py on kron-5..12 and grid-5..100 (session 18, the 2-core CPU
# host and an H200 host; bench/results/session18/). NetworkX's per-unit costs are its lowest
# (its label propagation and k_truss cost far more per unit on grids and on skewed graphs
# respectively). k_truss' work on both sides grows with the triangles, not n + m: its engine
# constants keep the smallest ratio NetworkX / engine measured (3.7 on the CPU, 3 on the GPU).
# On the GPU, label propagation is launch-bound (0.1-0.9 s a call at every size measured,
# hence its host route below 2^21 entries)
# and the flow is Dinic on the host below 2²² entries (algorithms.flow's policy).
FAMILIES["core_subgraph"] = FAMILIES["core"]
NX_SECONDS_PER_UNIT["core_subgraph"] = NX_SECONDS_PER_UNIT["core"]
for _costs in ENGINE_COST.values():
    _costs["core_subgraph"] = _costs["core"]
del _costs
_PRESERVED = _PRESERVED | {"core_subgraph", "k_truss"}  # NetworkX's preserve_all_attrs
_WEIGHTED = _WEIGHTED | {"modularity", "flow"}  # weight=, capacity=
_FAMILY_OF.update({
    "weakly_connected_components": "components", "number_weakly_connected_components":
    "components", "is_weakly_connected": "components",
    "number_strongly_connected_components": "components", "is_strongly_connected":
    "components", "node_connected_component": "bfs", "k_core": "core_subgraph",
    "k_shell": "core_subgraph", "k_crust": "core_subgraph", "k_corona": "core_subgraph",
    "average_clustering": "triangles", "transitivity": "triangles",
    "k_truss": "k_truss", "label_propagation_communities": "label_propagation",
    "modularity": "modularity",
})


# nx_semiring.centrality: power iterations cost as PageRank's; closeness and harmonic
# centrality search from every node, as the all-pairs functions (by their distance=)
_FAMILY_OF.update(dict.fromkeys(("eigenvector_centrality", "katz_centrality", "hits"),
                                "pagerank"))

# nx_semiring.structure: the degree centralities and isolates ("degree") read the converted
# CSR on the host, whatever the device, and build a dict or list of the nodes; NetworkX's own
# call is one pass over its nodes (len() of each adjacency dict). Both sides cost per node
# ("nodes" work: n), whatever the edges (the backend's in-degree count over the stored
# entries is NumPy's bincount, a few ns an entry). bench/probes/nx_should_run.py (session 19,
# the 2-core CPU host, kron-8..14 and grid-20..300): NetworkX 1.9e-7 to 3e-7 s a node
# (kron-14 3.93 ms, grid-300 17.9 ms), the backend's warm call 6.1e-8 to 1.2e-7 s a node
# (kron-14 1.15 ms, grid-300 6.68 ms, kron-8 0.03 ms): with the conversion cached the backend
# runs them, a fresh conversion (n + stored entries) always costs more than NetworkX's call.
# is_isolate is a point query; the spanning-forest functions cost as minimum_spanning_tree.
FAMILIES["degree"] = "nodes"
NX_SECONDS_PER_UNIT["degree"] = 1.8e-7  # the lowest measured, rounded down
for _costs in ENGINE_COST.values():
    _costs["degree"] = (1e-4, 1.3e-7)  # the highest measured, rounded up; host arrays only
del _costs
_FAMILY_OF.update(dict.fromkeys(("degree_centrality", "in_degree_centrality",
                                 "out_degree_centrality", "isolates", "number_of_isolates"),
                                "degree"))
_FAMILY_OF.update(dict.fromkeys(("maximum_spanning_tree", "minimum_spanning_edges",
                                 "maximum_spanning_edges"), "mst"))
_FAMILY_OF["is_isolate"] = None

# edge_betweenness_centrality: the "edge_bc" family, per source as betweenness ("sources":
# k, else n, times n + stored entries), measured apart: the engine runs the algebra's sweeps
# (an SpMM and O(n s) masks a BFS level) plus the m × s gathers of the edges' terms, where
# vertex betweenness on a CPU with Numba runs compiled passes. bench/probes/nx_should_run.py
# (session 19, the 2-core CPU host, k = 8, kron-8..14 and grid-20..200): NetworkX 2.8e-7
# (kron-10) to 2.3e-6 (grid-100) s a unit, median 5.6e-7; the warm call 5.4e-8 (kron-12) to
# 7.6e-7 (grid-200, 400 levels), median 1.9e-7, 2.2 ms at kron-8. The medians rounded in
# NetworkX's favour agree with the clock on every graph measured (NetworkX on kron-8 and
# grid-20, the backend from kron-10 and grid-50 on). The GPU's constants are not measured
# (no GPU here): the CPU's per unit with a larger fixed cost (launches a level).
FAMILIES["edge_bc"] = "sources"
NX_SECONDS_PER_UNIT["edge_bc"] = 4e-7
ENGINE_COST["cpu"]["edge_bc"] = (5e-3, 2.5e-7)
ENGINE_COST["gpu"]["edge_bc"] = (2e-2, 2.5e-7)
_FAMILY_OF["edge_betweenness_centrality"] = "edge_bc"

# session 20 (nx16): the multi-source paths cost one SSSP (the engine's from a virtual
# source) plus the tie check's pass over the edges, single_target_shortest_path one BFS; the
# attracting components the strong components and a pass over the edges; the NumPy
# eigenvector and Katz centralities as the power iterations (NetworkX's ARPACK or dense
# solve costs more per unit than its power iteration, so this is in NetworkX's favour);
# the all-pairs paths and measures: _ALL_SOURCES above. Not measured yet.
_FAMILY_OF.update({
    "multi_source_dijkstra": "sssp", "multi_source_dijkstra_path": "sssp",
    "single_target_shortest_path": "bfs", "attracting_components": "components",
    "number_attracting_components": "components", "is_attracting_component": "components",
    "eigenvector_centrality_numpy": "pagerank", "katz_centrality_numpy": "pagerank",
    "bidirectional_shortest_path": None, "bidirectional_dijkstra": None,
    "predecessor": "bfs_order", "dijkstra_predecessor_and_distance": "sssp",
    "bellman_ford_predecessor_and_distance": "bellman_ford", "minimum_cut": "flow",
})


# session 21 (nx21): nx_semiring.recognition's tests cost the strong or weak components (the
# bipartite ones a BFS besides) and a pass over the edges; dag_longest_path_length one
# Bellman–Ford. Not measured: priced as those families.
_FAMILY_OF.update(dict.fromkeys((
    "is_directed_acyclic_graph", "has_cycle", "is_aperiodic", "is_tree", "is_forest",
    "is_arborescence", "is_branching", "is_bipartite", "color", "sets", "flow_hierarchy",
    "is_semiconnected"), "components"))
_FAMILY_OF["dag_longest_path_length"] = "bellman_ford"
# average_neighbor_degree and the reciprocities: one pass over the edges each side (the
# latter an engine P ∘ Pᵀ), priced as components
_FAMILY_OF.update(dict.fromkeys(("average_neighbor_degree", "reciprocity",
                                 "overall_reciprocity"), "components"))


# Session 23 (nx23), the 2-core CPU host with Numba, after session 22's ordered passes:
# bench/probes/nx_should_run.py on kron-7..17 and grid-10..447 (10² to 2·10⁵ nodes;
# bench/results/session23/nx23_should_run.md). NetworkX's seconds per unit are the lowest
# measured on graphs below CACHE_UNITS (rounded down: NetworkX's favour); the engine's are its
# first call on a fresh conversion on the Kronecker graphs where the fixed cost no longer
# dominates (kron-9..13; rounded up). Changes: BFS orders cost what BFS lengths do (the
# ordered passes are per level, not per node: 3e-8 to 5.5e-8 a unit on kron-9..13, against
# the 1.5e-7 of session 9's per-node dicts); betweenness (the compiled Brandes: 8e-9 to 3e-8
# a unit) and Floyd–Warshall (2.3e-10 a unit at n = 512; 5e-10 kept for n = 1024) far
# cheaper than they were written; NetworkX's SSSP, PageRank, betweenness, Louvain, MST,
# all-pairs BFS and Floyd–Warshall cheaper per unit than the older medians.
NX_SECONDS_PER_UNIT.update({
    "bfs": 5.5e-8, "bfs_order": 6e-8, "components": 5e-8, "sssp": 2e-7, "bellman_ford": 3.5e-7,
    "pagerank": 5e-7, "bc": 1.4e-7, "louvain": 5e-6, "mst": 7.5e-7, "apsp_bfs": 4.5e-8,
    "fw": 8e-10, "flow": 1.2e-6, "edge_bc": 2e-7,
})
ENGINE_COST["cpu"].update({
    "bfs": (2.5e-4, 3.5e-8), "bfs_order": (2.5e-4, 3.5e-8), "components": (3e-4, 3.5e-8),
    "sssp": (1e-3, 1.2e-7), "bellman_ford": (5e-4, 8e-8), "pagerank": (1e-3, 1.5e-7),
    "mst": (1e-3, 5e-7), "apsp_bfs": (1e-2, 3.5e-8), "fw": (2e-3, 5e-10),
    "modularity": (1e-3, 1.5e-7), "flow": (3e-4, 2.5e-7), "edge_bc": (2e-3, 1.2e-7),
})
if _cores._compiled().ENABLED:  # Numba's compiled passes (measured with them)
    ENGINE_COST["cpu"].update({"bc": (3e-3, 5e-8), "core": (3e-4, 5e-8),
                               "core_subgraph": (3e-4, 5e-8)})
NX_SECONDS_PER_UNIT["core_subgraph"] = NX_SECONDS_PER_UNIT["core"]


# Calls the backend answers only where no two shortest paths tie (their paths or
# predecessors are NetworkX's pick among the tied ones), which on most graphs some do: on
# kron-9..11 and grid-32..100 (integer weights 1..255) single_source_dijkstra(_path),
# dijkstra_predecessor_and_distance, single_source_bellman_ford and weighted shortest_path
# were all refused (session 23), after the conversion and the engine's search. Left to
# NetworkX unless asked for by name, as the unique matchings are.
_TIES_REFUSED = frozenset({
    "single_source_dijkstra", "single_source_dijkstra_path", "dijkstra_predecessor_and_distance",
    "multi_source_dijkstra", "multi_source_dijkstra_path", "all_pairs_dijkstra",
    "all_pairs_dijkstra_path", "single_source_bellman_ford", "single_source_bellman_ford_path",
    "bellman_ford_predecessor_and_distance", "all_pairs_bellman_ford_path", "johnson",
    "floyd_warshall_predecessor_and_distance"})
# With Numba, Dijkstra's paths and predecessor lists come from NetworkX's own heap loop
# compiled (nx_semiring.algorithms._heap_tree, session 24), Bellman–Ford's from its queue
# loop compiled (_spfa_tree): NetworkX's pick among tied paths, answered on those graphs too
# (the bellman_ford family's constants were measured before the compiled queue)
_HEAP_ANSWERED = frozenset({
    "single_source_dijkstra", "single_source_dijkstra_path", "dijkstra_predecessor_and_distance",
    "multi_source_dijkstra", "multi_source_dijkstra_path", "all_pairs_dijkstra",
    "all_pairs_dijkstra_path", "johnson", "single_source_bellman_ford",
    "single_source_bellman_ford_path", "bellman_ford_predecessor_and_distance",
    "all_pairs_bellman_ford_path"})
# Bellman–Ford's length dicts are answered where NetworkX's queue is a BFS (each node found
# at its final distance: nx_semiring.algorithms._spfa_order), which edges of unequal weights
# usually break (all refused on the graphs above): left to NetworkX unless the cached
# conversion shows one weight on every edge; with Numba its queue loop compiled gives the
# order on any graph
_QUEUE_REFUSED = frozenset({"single_source_bellman_ford_path_length",
                            "all_pairs_bellman_ford_path_length"})
if _alg._cpu_compiled.ENABLED:
    _TIES_REFUSED = _TIES_REFUSED - _HEAP_ANSWERED
    _QUEUE_REFUSED = frozenset()


def _rarely_answered(name, a):
    """``"ties"``, ``"queue"`` or None: whether the call is one the backend refuses on most
    graphs (see :data:`_TIES_REFUSED`, :data:`_QUEUE_REFUSED`)."""
    if name in ("shortest_path", "shortest_path_length") and a.get("target") is None and \
            a.get("weight") is not None:
        if _alg._cpu_compiled.ENABLED:  # the compiled heap and queue (see _HEAP_ANSWERED)
            return None
        if name == "shortest_path":
            return "ties"
        return "queue" if a.get("method") == "bellman-ford" else None
    if name in _TIES_REFUSED:
        return "ties"
    return "queue" if name in _QUEUE_REFUSED else None


def _family(name, a):
    """The cost family of a call (``a``: its bound arguments), or None for a point query."""
    if name == "multi_source_dijkstra" and a.get("target") is not None:
        return None  # NetworkX's search stops at the target
    if name in ("closeness_centrality", "harmonic_centrality"):
        return "apsp_bfs" if a.get("distance") is None else "sssp_all"
    if name in ("shortest_path", "shortest_path_length"):
        if a.get("source") is not None and a.get("target") is not None:
            return None
        weighted = a.get("weight") is not None
        if a.get("source") is None and a.get("target") is None:
            return "sssp_all" if weighted else "apsp_bfs"
        return ("bellman_ford" if a.get("method") == "bellman-ford" else "sssp") \
            if weighted else "bfs"
    if name in _ALL_SOURCES_WEIGHTED:
        return "sssp_all"
    if name in _ALL_SOURCES:
        return "apsp_bfs" if a.get("weight") is None else "sssp_all"
    return _FAMILY_OF.get(name, "bfs")


def _work(kind, n, stored, kwargs):
    if kind == "nodes":
        return float(n)
    linear = n + stored
    if kind == "linear":
        return float(linear)
    if kind == "sources":
        k = kwargs.get("k")
        try:
            sources = n if k is None else max(0, min(int(k), n))
        except (TypeError, ValueError, OverflowError):  # not a count: the call reports it
            sources = n
        return float(linear) * sources
    if kind == "pairs":
        return float(linear) * n
    return float(n) ** 3


def predict(name, n, stored, kwargs=None, *, cached=False, has_weights=False, device=None):
    """``(NetworkX's, the backend's)`` predicted seconds for dispatched function ``name`` on
    a graph of ``n`` vertices and ``stored`` adjacency entries (an undirected edge twice).

    ``cached``: a conversion of the graph is in its cache (only a missing edge attribute is
    read, unless ``has_weights``). A point-to-point query predicts ``(0, inf)``.

    Examples
    --------
    >>> from nx_semiring.interface import predict
    >>> nx_s, sr_s = predict("pagerank", 10, 30, device="cpu")
    >>> sr_s > nx_s            # ten vertices: NetworkX is faster than converting
    True
    >>> nx_s, sr_s = predict("betweenness_centrality", 10**5, 10**6, device="cpu")
    >>> sr_s < nx_s
    True
    """
    kwargs = dict(kwargs or {})
    fam = _family(name, kwargs)
    if fam is None or fam == "unique_only":
        return 0.0, float("inf")
    weighted = fam in _WEIGHTED or fam == "sssp_all"
    if fam == "sssp_all":  # all-pairs Dijkstra: n single-source runs on both sides
        fam, per_source = "sssp", n
    else:
        per_source = 1
    weighted = weighted and kwargs.get("weight", "weight") is not None
    work = _work(FAMILIES[fam], n, stored, kwargs) * per_source
    t_nx = NX_SECONDS_PER_UNIT[fam] * work
    fixed, unit = _engine_cost(device, fam, stored, name)
    if device == "gpu":
        cache = 1.0
        if n + stored > LARGE_GRAPH_UNITS:
            t_nx *= NX_LARGE_GRAPH_FACTOR
    else:
        cache = _cache_factor(n + stored)
        t_nx *= cache
        unit *= _cache_factor(n + stored, ENGINE_CACHE_EXPONENT)
        if stored < SPARSE_DEGREE * n:
            unit *= ENGINE_SPARSE_FACTOR.get(fam, 1)
        cache = _cache_factor(n + stored, CONVERT_CACHE_EXPONENT)
    t_sr = fixed * per_source + unit * work
    convert = 0.0
    if not cached:
        convert += CONVERT_SECONDS_PER_ENTRY * (n + stored)
    if fam in _PRESERVED:  # NetworkX converts with every attribute
        if not (cached and has_weights):
            convert += PRESERVE_SECONDS_PER_ENTRY * stored
    elif weighted and not (cached and has_weights):
        convert += WEIGHT_SECONDS_PER_ENTRY * stored
    return t_nx, t_sr + convert * cache


def _one_weight(g, weight) -> bool:
    """Whether conversion ``g`` holds attribute ``weight`` with one value >= 0 on every
    edge (a Bellman–Ford whose queue is a BFS)."""
    if g is None or not g.has_attr(weight):
        return False
    w = g.weights(weight)
    return not w.size or bool(w.min() == w.max() and w.min() >= 0)


def _cached(G, weight, preserved):
    """(a conversion of G in its cache or None, whether one with edge attribute ``weight``
    is, or with all of them if ``preserved``)"""
    cache = getattr(G, "__networkx_cache__", None) or {}
    graphs = [g for g in cache.get("backends", {}).get("semiring", {}).values()
              if isinstance(g, SemiringGraph)]
    first = graphs[0] if graphs else None
    if preserved:
        return first, any(g.edge_data is not None for g in graphs)
    return first, any(g.has_attr(weight) for g in graphs)


# Functions whose NetworkX answer on a multigraph is not that of the simple graph whose edge
# weighs the minimum of its parallel edges (how the conversion collapses them): NetworkX sums
# parallel edges there, or refuses multigraphs itself. Traversals, shortest paths,
# components, triangles and unweighted betweenness read the simple graph.
_MULTIGRAPH_REFUSED = frozenset({
    "pagerank", "louvain_communities", "clustering", "core_number", "minimum_spanning_tree",
    # nx_semiring.analytics' (degrees, modularity's sums, the colouring's degree order)
    "k_core", "k_shell", "k_crust", "k_corona", "k_truss", "average_clustering",
    "transitivity", "label_propagation_communities", "modularity",
    # nx_semiring.structure's (degrees count parallel edges; spanning edges carry keys)
    "degree_centrality", "in_degree_centrality", "out_degree_centrality",
    "maximum_spanning_tree", "minimum_spanning_edges", "maximum_spanning_edges",
    # edge betweenness of a multigraph splits each edge's value among its keys
    "edge_betweenness_centrality",
    # nx_semiring.recognition's (weight sums count parallel edges; the longest path takes
    # the heaviest of them); degrees count them
    "dag_longest_path_length", "flow_hierarchy", "average_neighbor_degree"})

# Functions that compute the unweighted answer only
_UNWEIGHTED_ONLY = frozenset({"betweenness_centrality", "clustering",
                              "edge_betweenness_centrality"})

# the k-core family's subgraphs (a given core_number= is NetworkX's whole work)
_CORE_SUBGRAPHS = frozenset({"k_core", "k_shell", "k_crust", "k_corona"})

def _float_capacity(G, capacity) -> bool:
    """Whether some edge of the NetworkX graph has a finite non-integer-typed ``capacity``
    (one pass over the edges: NetworkX's residual network is one too)."""
    try:
        edges = list(G.edges(data=capacity))
    except TypeError:  # an unhashable name: the flow function raises it
        return False
    for *_, c in edges:
        if isinstance(c, (float, np.floating)) and c != float("inf"):
            return True
    return False


_BFS_ORDER = frozenset({"bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors"})

# Functions whose NetworkX code reads the weight through G.edges(data=weight) (or
# to_scipy_sparse_array / to_numpy_array, which do): there weight=True or False is the data
# flag (every edge's whole dict, or none), not an attribute name, and NetworkX raises its
# TypeError or ValueError; the other functions read d.get(weight, 1) like the conversion
_EDGES_DATA_WEIGHT = frozenset({"pagerank", "floyd_warshall_numpy", "louvain_communities",
                                "modularity", "eigenvector_centrality_numpy",
                                "katz_centrality_numpy", "average_shortest_path_length"})

# Arguments that the backend reads before it may still refuse the call: NetworkX's dispatcher
# hands a refused call's arguments to NetworkX as they are, so an iterator among them would
# reach NetworkX exhausted (a generator of communities became NotAPartition of [], an
# iterator of top_nodes an empty side). Iterators there are left to NetworkX from the start.
_ONE_PASS_ARGS = {"modularity": "communities", "hopcroft_karp_matching": "top_nodes",
                  "minimum_weight_full_matching": "top_nodes", "eccentricity": "v",
                  "multi_source_dijkstra": "sources", "multi_source_dijkstra_path": "sources",
                  "reciprocity": "nodes", "average_neighbor_degree": "nodes"}

_SIGNATURES = {}


def _function(name):
    """The backend's implementation of dispatched function ``name``: nx_semiring.paths and
    nx_semiring.analytics hold the later ones (their ``__all__``), nx_semiring.algorithms the
    rest."""
    for module in (_paths, _ana, _cen, _str, _rec):
        if name in module.__all__:
            return getattr(module, name)
    return getattr(_alg, name)


def _signature(name):
    sig = _SIGNATURES.get(name)
    if sig is None:
        sig = _SIGNATURES[name] = inspect.signature(_function(name))
    return sig


# What NetworkX's algorithms read of a graph; a subclass that redefines one of them (e.g. the
# complement graph _AntiGraph of networkx.algorithms.approximation.kcomponents) has another
# adjacency than the G._adj the conversion reads
_ADJACENCY_API = ("__getitem__", "__iter__", "__contains__", "__len__", "neighbors", "adj",
                  "adjacency", "degree", "nodes", "edges", "is_directed", "is_multigraph")


# The methods NetworkX's graph-returning functions build their result with, beyond the
# class's constructor and add_nodes_from / add_edges_from (which the backend's results call
# too): k_core's family returns G.subgraph(nodes).copy(), k_truss G.copy() less the edges and
# nodes it removes. A subclass that redefines one of them (a copy() that carries its own
# state) shapes NetworkX's result in ways the backend's does not follow
_RESULT_API = dict.fromkeys(("k_core", "k_shell", "k_crust", "k_corona"), ("subgraph", "copy"))
_RESULT_API["k_truss"] = ("copy", "remove_edges_from", "remove_nodes_from", "remove_edge",
                          "remove_node")


def _overridden_adjacency(G, api=_ADJACENCY_API):
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    cls = type(G)
    base = next(c for c in cls.__mro__
                if c in (nx.MultiDiGraph, nx.MultiGraph, nx.DiGraph, nx.Graph))
    if cls is base:
        return None
    for attr in api:
        if getattr(cls, attr, None) is not getattr(base, attr, None):
            return attr
    return None


def _forget_view(G):
    """Drop this backend's conversions cached on a graph view (``G.subgraph(...)``,
    ``reverse_view``, ``to_undirected(as_view=True)``, ...: they have ``_graph``): NetworkX's
    dispatcher caches on a view too, but does not clear a view's cache when the graph it
    views changes, so a cached conversion of a view may be stale. Called by ``can_run``,
    which NetworkX calls before it looks in the cache."""
    if hasattr(G, "_graph"):
        cache = getattr(G, "__networkx_cache__", None)
        if cache:
            cache.get("backends", {}).pop("semiring", None)


def _undirected_view_of_directed(G) -> bool:
    """Whether G is an undirected view (``to_undirected(as_view=True)``, maybe under other
    views) of a directed graph: its edge u-v reads D[u][v]'s attributes from u and D[v][u]'s
    from v."""
    if G.is_directed():
        return False
    while hasattr(G, "_graph"):
        G = G._graph
        if G.is_directed():
            return True
    return False


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
        G = a.get("G", a.get("flowG"))  # the flow functions name it flowG
        if not _is_graph(G):
            return f"G must be a NetworkX graph, got {type(G).__name__}"
        if not isinstance(G, SemiringGraph):
            _forget_view(G)
            attr = _overridden_adjacency(G)
            if attr is not None:
                return (f"{type(G).__name__} redefines {attr}: its adjacency is not the "
                        f"G._adj that the conversion reads")
            attr = _overridden_adjacency(G, _RESULT_API.get(name, ()))
            if attr is not None:
                return (f"{type(G).__name__} redefines {attr}, with which NetworkX's {name} "
                        f"builds its result graph: NetworkX runs it")
        for key in ("source", "target"):
            try:
                hash(a.get(key))
            except TypeError:
                return (f"{key} {a[key]!r} is unhashable: NetworkX raises its TypeError where "
                        f"it looks it up")
        target = a.get("target")
        if target is not None and not isinstance(G, SemiringGraph) and \
                name not in ("average_neighbor_degree", "reciprocity") and target not in G:
            # NetworkX searches until its queue or heap is empty, comparing each node it
            # pops with the target (``v == target``): its error (NetworkXNoPath, or
            # NodeNotFound, or a NumPy label's elementwise comparison with a tuple target
            # raising ValueError) is its own search's
            return (f"target {target!r} is not a node of G: NetworkX's search reports it "
                    f"(NetworkX runs it)")
        if isinstance(a.get(_ONE_PASS_ARGS.get(name)), collections.abc.Iterator):
            return (f"{_ONE_PASS_ARGS[name]}= is an iterator, which the backend would read "
                    f"before it may refuse, leaving NetworkX an exhausted one: NetworkX runs it")
        weight = a.get("weight")
        if callable(weight):
            return "callable weights are not supported (NetworkX runs it)"
        if isinstance(weight, bool) and name in _EDGES_DATA_WEIGHT:
            return (f"weight={weight} is G.edges(data=...)'s flag in NetworkX's {name}, not an "
                    f"attribute name: NetworkX runs it")
        if weight is not None and not isinstance(G, SemiringGraph) and \
                _undirected_view_of_directed(G):
            return ("an undirected view of a directed graph keeps each direction's own edge "
                    "attributes (G[u][v] and G[v][u] may differ), which no symmetric matrix "
                    "holds: NetworkX runs it")
        if name in _BFS_ORDER:
            if a.get("sort_neighbors") is not None:
                return "sort_neighbors= is not supported (NetworkX runs it)"
            if a.get("reverse") and G.is_directed():
                return ("reverse=True on a directed graph needs NetworkX's predecessor order, "
                        "which the conversion does not keep")
        if name == "shortest_path" and a.get("source") is None and \
                a.get("target") is not None and weight is None and G.is_directed():
            return ("shortest_path to a target of a directed graph is NetworkX's BFS over "
                    "G.reverse(), in G._pred's order, which the conversion does not keep: "
                    "NetworkX runs it")
        if name in ("barycenter", "centroid") and (a.get("attr") is not None or
                                                   a.get("sp") is not None):
            return (f"{name} with attr= (written into G's node attributes) or sp= "
                    "(precomputed lengths): NetworkX runs it")
        if name == "single_target_shortest_path" and G.is_directed():
            return ("single_target_shortest_path of a directed graph is NetworkX's BFS over "
                    "G._pred, in its order, which the conversion does not keep: NetworkX runs "
                    "it")
        if name in ("floyd_warshall", "floyd_warshall_predecessor_and_distance") and \
                isinstance(weight, str) and not isinstance(G, SemiringGraph):
            # (a pass over the edges, against the call's n³ steps)
            weights = [w for *_, w in G.edges(data=weight)]
            if any(type(w) is bool for w in weights):
                return (f"{name} of bool weights: NetworkX's distance of an edge is its weight "
                        f"object itself (True), the engine's an int: NetworkX runs it")
            if G.is_multigraph() and any(isinstance(w, float) and w != w for w in weights):
                return (f"{name} of a multigraph with a NaN weight: NetworkX folds parallel "
                        f"edges by min(w, d) edge by edge, where a NaN wins or loses by its "
                        f"place; the conversion keeps the least: NetworkX runs it")
        if name in _UNWEIGHTED_ONLY and weight is not None:
            return f"weighted {name} is not supported (NetworkX runs it)"
        if name == "negative_edge_cycle" and getattr(G, "frozen", False):
            return ("NetworkX's negative_edge_cycle adds a node to G for its search, which a "
                    "frozen graph or view refuses (NetworkXError): NetworkX runs it")
        # NetworkX's py_random_state turns seed=None into the random module's own instance
        # before dispatching: that is the unseeded call, the engine's
        if name == "louvain_communities" and a.get("seed") not in (None, random._inst):
            return ("a seed asks for NetworkX's partition for that seed (its random order of "
                    "moves, one vertex at a time); the engine moves vertices in parallel and "
                    "finds another: NetworkX runs it")
        if name == "louvain_communities" and G.is_directed():
            return "directed Louvain (directed modularity) is not supported"
        # nx_semiring.paths
        if name == "eccentricity" and a.get("sp") is not None:
            return "sp= (precomputed path lengths) is read by NetworkX (NetworkX runs it)"
        if name in ("maximum_flow_value", "minimum_cut_value", "minimum_cut") and \
                a.get("flow_func") is not None and (a.get("kwargs") or (
                    callable(a["flow_func"]) and not _paths._known_flow_func(a["flow_func"]))):
            return ("a flow function other than NetworkX's, or its keyword arguments (cutoff= "
                    "may stop below the maximum): NetworkX runs it")
        if name in ("maximum_flow_value", "minimum_cut_value", "minimum_cut") and \
                callable(a.get("capacity")):
            # NetworkX 3.7 calls it for each edge's capacity (before, it is an attribute name
            # no edge has: every capacity infinite)
            return "a callable capacity is NetworkX's to call (NetworkX runs it)"
        if name in ("maximum_flow_value", "minimum_cut_value", "minimum_cut") and \
                not isinstance(G, SemiringGraph) and _float_capacity(
                G, a.get("capacity", "capacity")):
            return ("a float capacity: NetworkX's flow value is a float or an int as its path "
                    "minima fall, the engine's an int: NetworkX runs it")
        if name == "minimum_cut":
            return ("NetworkX's cut sides are sets built from its BFS over the residual "
                    "network's predecessors (set(shortest_path_length(R, target=t))), an "
                    "insertion order a set's iteration order depends on and the engine does "
                    "not reproduce: NetworkX runs it")
        if name == "transitivity" and G.is_directed():
            return ("transitivity of a directed graph counts over successor sets: NetworkX "
                    "runs it")
        if name == "hopcroft_karp_matching" and G.is_directed():
            return ("hopcroft_karp_matching of a directed graph reads only the left side's "
                    "out-edges: NetworkX runs it")
        if G.is_multigraph() and name in _MULTIGRAPH_REFUSED:
            return (f"{name} of a multigraph (NetworkX sums or refuses parallel edges) is not "
                    f"supported")
        # nx_semiring.analytics' functions
        if name in _CORE_SUBGRAPHS and a.get("core_number") is not None:
            return (f"{name} with core_number= given leaves nothing for the engine to "
                    f"compute: NetworkX runs it")
        if name in _CORE_SUBGRAPHS and hasattr(G, "_NODE_OK") and \
                len(G._graph._node) != len(G):
            return (f"{name} of a filtered view: NetworkX's subgraph of it filters the viewed "
                    f"graph, whose size decides its node order: NetworkX runs it")
        if name == "average_clustering" and weight is not None:
            return "weighted average_clustering is not supported (NetworkX runs it)"
        if name in ("minimum_spanning_edges", "maximum_spanning_edges",
                    "minimum_spanning_tree", "maximum_spanning_tree") and \
                a.get("algorithm") in ("prim", "boruvka", "borůvka"):
            return (f"{name} with algorithm={a['algorithm']!r} lists its edges in its "
                    f"search's order, which the engine does not follow: NetworkX runs it")
        if name in ("color", "sets") and G.is_directed():
            return (f"bipartite.{name} of a directed graph is ordered by NetworkX's predecessor "
                    f"dicts (edge insertion order, not kept by the conversion): NetworkX runs it")
        if name == "sets" and a.get("top_nodes") is not None:
            return ("bipartite.sets with top_nodes= is set(G) - set(top_nodes), nothing for "
                    "the engine: NetworkX runs it")
        if name in _cen.__all__:  # nx_semiring.centrality's own refusals
            return _cen.refusal(name, a, G) or True
        return True

    @staticmethod
    def should_run(name, args, kwargs):
        """``True``, or why NetworkX itself is predicted faster for this call, the conversion
        included (:func:`predict`; see the module docstring)."""
        try:
            bound = _signature(name).bind(*args, **kwargs)
        except TypeError:
            return True  # can_run reports it
        bound.apply_defaults()
        a = bound.arguments
        G = a.get("G", a.get("flowG"))
        if G is None or isinstance(G, SemiringGraph) or not _is_graph(G):
            return True
        fam = _family(name, a)
        if name == "is_isolate":
            return "is_isolate reads one node's adjacency: NetworkX's O(1) beats any conversion"
        if fam is None:
            return ("a point-to-point query: NetworkX's search stops early, usually faster "
                    "than converting the graph")
        if fam == "unique_only":
            return (f"{name} is answered by the engine only where the matching is unique, "
                    f"rarely: NetworkX runs it unless the call asks for backend='semiring'")
        weight = a.get("weight", None)
        cached, has_weights = _cached(G, weight if isinstance(weight, str) else None,
                                      fam in _PRESERVED)
        rare = _rarely_answered(name, a)
        if rare == "ties":
            return (f"{name} is answered by the engine only where no shortest paths tie, "
                    f"which on most graphs some do: NetworkX runs it unless the call asks "
                    f"for backend='semiring'")
        if rare == "queue" and weight is not None and not (
                has_weights and _one_weight(cached, weight)):
            return (f"{name} is answered by the engine only where NetworkX's Bellman–Ford "
                    f"queue is a BFS, which edges of unequal weights usually break: NetworkX "
                    f"runs it unless the call asks for backend='semiring'")
        if cached is not None:  # its sizes: no pass over G._adj (8 ms at kron-18)
            n, stored = cached.n, int(cached.adj.size)
        else:
            n = len(G._adj)
            stored = sum(map(len, G._adj.values()))
        cached = cached is not None
        t_nx, t_sr = predict(name, n, stored, a, cached=cached, has_weights=has_weights,
                             device=sr.default_device())
        if t_sr >= t_nx:
            return (f"predicted {t_sr * 1e3:.3g} ms on the backend "
                    f"({'conversion cached' if cached else 'conversion included'}) against "
                    f"{t_nx * 1e3:.3g} ms in NetworkX ({n} nodes, {stored} stored entries)")
        return True

    @staticmethod
    def on_start_tests(items):
        """Mark NetworkX's tests that fail through this backend for a documented reason
        (called by NetworkX's conftest when ``NETWORKX_TEST_BACKEND=semiring``), and count
        the dispatched calls where ``python -m nx_semiring.testing`` asks for it."""
        mark_known_failures(items)
        start_tally(items)


for _name in FUNCTIONS:
    setattr(BackendInterface, _name, staticmethod(_function(_name)))

backend_interface = BackendInterface()
