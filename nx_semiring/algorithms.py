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
(:func:`_ordered_levels`). Dijkstra's paths (single-source, multi-source, all-pairs, to a
target by ``dijkstra_path``) and predecessor lists follow NetworkX's own heap loop, compiled
(:func:`_heap_tree`, session 24): a path's parent is the vertex popped when the distance last
strictly improved, as NetworkX's, so among tied shortest paths NetworkX's pick; the loop must
reach exactly the engine's vertices at the engine's distances. Bellman–Ford's follow its
queue loop (SPFA), compiled the same way (:func:`_spfa_tree`: its predecessor lists, its
first path over them, its dicts' order). Without Numba, weighted single-source paths are
shortest paths from the engine's predecessors, returned only where no two shortest paths
tie (:func:`_single_source_ties`; before session 20 they were returned among ties too, and
differed from NetworkX's). A bidirectional s-t path (``shortest_path(G, s, t)``,
``bidirectional_dijkstra``) is returned only where it is the only shortest path
(:func:`_unique_path`): NetworkX's bidirectional searches pick their own among ties, and
callers such as ``minimum_cycle_basis`` build on that choice; with ties NetworkX answers.

Dicts and sets come in NetworkX's order (session 22; before, BFS, Dijkstra and
Bellman–Ford length dicts were ordered by (distance, vertex) and component sets built in
vertex order): a Python set's iteration order depends on its insertion order, and
NetworkX's own functions read these answers in order when they call them inside
(``greedy_color``, ``cuthill_mckee_ordering``, ``ego_graph``, ``voronoi_cells``,
``all_shortest_paths``). BFS length dicts and the sets of ``connected_components`` and
``descendants`` follow NetworkX's queue (:func:`_discovery`; one pass per level: 3.5x a warm
BFS call on a 1000² grid, measured in ``bench/results/session15/nx8_suite.md``); Dijkstra's
dicts its heap (:func:`_dijkstra_orders`: ties among equal distances settled by the first
tight scan); Bellman–Ford's its queue (:func:`_spfa_order`: the compiled queue loop; without
Numba only where that is a BFS order, else NetworkX runs the call). ``strongly_connected_components`` is left to NetworkX (``can_run``):
Tarjan's completion order and its sets' DFS order are a sequential search.

One type is the engine's: distances of an attribute that mixes ints and floats are floats
throughout (the engine's one dtype), where NetworkX's sums
stay ints along int-only paths; the values are equal (integers float64 would round, beyond
2^53, are refused by the conversion; NumPy scalars narrower than 64 bits, which NetworkX adds
in their own type, by the weighted searches: ``graph._numbers``).

A case the engine does not cover raises ``NotImplementedError`` (NetworkX then falls back to
its own implementation when configured to); :mod:`nx_semiring.interface` refuses most such
cases before conversion (``can_run``). The refusal comes from the call itself, never from a
generator it returned: NetworkX's dispatcher falls back only on the former (the all-pairs
generators check up front, :func:`_all_pairs_refusals`).
"""

from __future__ import annotations

import contextlib
import itertools
import gc
import math
import numbers
import random
import sys
import warnings

import numpy as np

import algorithms as alg
import semiring as sr
from algorithms.components import _scatter_min
from semiring.backend.cpu import compiled as _cpu_compiled
from semiring.device import _cupy

from . import NX_RELEASE
from .graph import FLOAT_MAX, SemiringGraph, from_networkx

# Out-edges of a BFS level below which the NetworkX-order pass walks it in Python instead of
# with array operations (whose fixed cost per level dominates on long, thin graphs).
NARROW_EDGES = 256

# The gain below which the engine's Louvain stops sweeping a level's local moves, whatever
# the caller's threshold: NetworkX applies its threshold between levels only and sweeps a
# level until nobody moves, which parallel sweeps (whose simultaneous moves can undo each
# other's gains) approach by this gain; 1e-7 is NetworkX's default threshold (and the
# engine's), with which the two agreed before.
LOUVAIN_SWEEP_THRESHOLD = 1e-7

# The total edge weight (the stored entries' sum) outside which louvain_communities is left
# to NetworkX: its Louvain squares Python float totals (the degree sum in modularity, m in
# its gains), which raises OverflowError past about 2^511 (weights of 1e200) and, below about
# 2^-537, squares to 0 and raises ZeroDivisionError (weights of 1e-300), where the engine
# (which scales such weights, alg.louvain) answered; 2^±500 leaves a margin for the sums'
# order.
LOUVAIN_TOTAL_RANGE = (2.0**-500, 2.0**500)

# Float weights run through Floyd–Warshall (nx_semiring.paths; floyd_warshall_numpy with
# negative weights) only where every path sum is exact in any order of additions: each
# weight a multiple of 2^-EXACT_FRACTION_BITS, and n times the largest below 2^53 in those
# units (NetworkX adds along its pivots, the engine otherwise).
EXACT_FRACTION_BITS = 20

# Sources per multi-source BFS batch in all_pairs_shortest_path_length (one 64-bit word of
# the engine's bit-parallel search per vertex; LAGraph_MultiSourceBFS).
APSP_BFS_BATCH = 64

#: NetworkX's BFS order on the GPU (:func:`_queue`): graphs of at least this many stored
#: entries run their first DEVICE_QUEUE_LEVELS levels on the device (a level ~0.25 ms there,
#: ~8 ns a stored entry scanned by the host's compiled queue: kron-18, 7.6·10⁶ entries in 7
#: levels, ~50 ms on the H200's host).
DEVICE_QUEUE_MIN_ENTRIES = 1 << 19
DEVICE_QUEUE_LEVELS = 16
#: ... and a level of more out-edges than this goes to the host (the device's arrays of a
#: level take ~24 bytes an out-edge).
DEVICE_QUEUE_MAX_EDGES = 1 << 27

# A sorted result's values become one Python object per run of equal values where runs
# average at least RUN_VALUES entries (shorter: ``tolist``), repeated by ``itertools.repeat``
# from LONG_RUNS entries a run on (an object array's ``repeat`` below): the crossovers of
# _sorted_values' measurements (10^6 values, 2-core helper: at 4 a run the two ways and
# ``tolist`` are within 15 %, at 30 itertools and the object array tie).
RUN_VALUES = 4
LONG_RUNS = 32


@contextlib.contextmanager
def _gc_paused():
    """Python's cyclic garbage collector paused while a result of many containers is built
    (sets, path lists: they hold only labels, no reference cycles). Their allocation burst
    otherwise triggers collections that traverse the caller's whole heap, a NetworkX graph
    of millions of dicts: kron-18's 88 375 components took 0.81 s a warm call on the H200
    host (Python 3.12), nearly all in the sets' list comprehension. The objects stay tracked
    and are collected as usual later."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _nx():
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    return nx


def _graph(G, weight=None) -> SemiringGraph:
    if isinstance(G, SemiringGraph):
        return G
    attrs = {weight: 1} if isinstance(weight, str) else None
    return from_networkx(G, edge_attrs=attrs)


def _host(a):
    return sr.to_device(a, "cpu") if sr.is_gpu_array(a) else np.asarray(a)


# --------------------------------------------------------------------------- engine calls
def _bfs_level(g: SemiringGraph, s: int):
    """Levels from vertex ``s`` by the engine's BFS (int64, -1 where unreached), on the
    host."""
    M, sym = g.engine_matrix()
    return _host(alg.bfs(M, s, symmetric=sym))


def _order_level(g: SemiringGraph, s: int):
    """The engine's levels from ``s`` where the NetworkX-order pass reads them, None where
    the compiled queue answers without them (:func:`_ordered_levels`)."""
    return None if _cpu_compiled.ENABLED else _bfs_level(g, s)


def _unreached(dist):
    return np.isinf(dist) if dist.dtype.kind == "f" else dist == np.iinfo(dist.dtype).max


def _weighted_matrix(g: SemiringGraph, weight):
    """Edge attribute ``weight``'s matrix; ``None``: every edge weighs 1 (integer)."""
    return g.matrix(None, unit=1) if weight is None else g.matrix(weight)


def _exact_sums(g: SemiringGraph, weight, sums=True):
    """NotImplementedError where NetworkX adds attribute ``weight``'s values otherwise than
    the engine: as NumPy scalars narrower than 64 bits (``SemiringGraph.narrow``), float32
    rounding each sum, or integers that may wrap around (negative ones, or n + 1 edges of
    the largest magnitude reach the type's bound: NetworkX's Dijkstra adds an edge to a path
    of up to n - 1, negative_edge_cycle a first edge of weight 1); its path lengths are
    NetworkX's to give.

    ``sums``: the call returns path sums (lengths, distances), whose types NetworkX's
    additions decide too: they are NumPy scalars where NumPy scalars are among the weights
    (``0 + np.int64(5)`` is an ``np.int64``), and ints or floats path by path where Python
    ints and floats mix (``SemiringGraph.int_float``, e.g. ints beside ``inf``, or floats
    beside edges without the attribute, NetworkX's int 1), where the engine's are one type:
    refused too. ``False`` for callers that return only paths or truth values, ``"numpy"``
    for those that divide by the sums (a Python division is a float whatever the sum's
    type, a NumPy scalar's a NumPy float)."""
    if sums is True and weight is not None and weight in g.int_float:
        raise NotImplementedError("nx_semiring: Python ints (or bools) beside floats among the "
                                  "weights: NetworkX's path sums are ints or floats path by "
                                  "path (NetworkX runs it)")
    if sums and weight is not None and weight in g.numpy_typed:
        raise NotImplementedError("nx_semiring: NumPy scalar weights: NetworkX's path sums are "
                                  "NumPy scalars, the engine's Python numbers (NetworkX runs "
                                  "it)")
    dtype = g.narrow.get(weight) if weight is not None else None
    if (dtype is None or dtype.kind == "b") and weight in g.numpy_typed:
        # NumPy int64 or uint64 scalars (bools beside them included): NetworkX's path sums
        # are 64-bit NumPy scalars, which wrap where the engine's overflow is refused (its
        # Dijkstra then saw "contradictory paths", its negative_edge_cycle a cycle)
        if "u" in g.numpy_typed[weight] and g.has_negative(weight):
            # np.uint64(3) + -1: NetworkX's OverflowError (a Python int out of its bounds)
            raise NotImplementedError("nx_semiring: unsigned NumPy weights beside negative "
                                      "ones (NetworkX's sums raise OverflowError; NetworkX "
                                      "runs it)")
        w = g.weights(weight)
        # (float64 here where they were read beside floats or Python ints beyond int64's
        # reach, np.uint64 beside an int: NetworkX's sums of them are NumPy integers still)
        top = float(np.max(np.abs(w), where=np.isfinite(w), initial=0)) if w.dtype.kind == "f" \
            else max(int(w.max()), -int(w.min())) if w.size else 0
        if set(g.numpy_typed[weight]) & {"i", "u"} and (g.n + 1) * top > np.iinfo(np.int64).max:
            raise NotImplementedError("nx_semiring: NetworkX adds these path weights as NumPy "
                                      "64-bit integers, which may wrap (NetworkX runs it)")
        return
    if dtype is None or dtype.kind == "b":  # NumPy bools: 0 + np.True_ is an int64
        return
    if dtype.kind in "iu" and not g.has_negative(weight):
        w = g.weights(weight)  # float64 where floats join them: their finite values bound
        top = float(np.max(w, where=np.isfinite(w), initial=0)) if w.dtype.kind == "f" \
            else (int(w.max()) if w.size else 0)
        if (g.n + 1) * top <= np.iinfo(dtype).max:
            return  # no sum of a simple path leaves the type: NetworkX's sums are exact
    raise NotImplementedError(f"nx_semiring: NetworkX adds these path weights as NumPy {dtype} "
                              f"scalars (rounded or wrapped in {dtype}), the engine in 64 bits "
                              f"(NetworkX runs it)")


def _fw_negative_cycle():
    """The outcome of a negative cycle (or self-loop) in NetworkX's Floyd–Warshall: 3.7's
    NetworkXUnbounded; before 3.7 its own negative diagonal, which the engine does not
    reproduce (NotImplementedError: NetworkX runs it)."""
    if NX_RELEASE >= (3, 7):
        return _nx().NetworkXUnbounded("Negative cycle detected.")
    return NotImplementedError("nx_semiring: negative cycle; NetworkX's Floyd–Warshall "
                               "returns its own (negative-diagonal) answer")


def _negative_zeros(w) -> bool:
    """Whether float weights ``w`` hold a -0.0: NetworkX's Floyd–Warshall keeps an edge's own
    weight as its distance (and passes a -0.0 on where a path of it is strictly shorter), and
    NumPy's ``minimum`` of 0.0 and -0.0 returns either, where the engine's distances are
    0.0: the sign of a zero distance is then NetworkX's to give."""
    if w.dtype.kind != "f":
        return False
    return bool(np.signbit(w[w == 0]).any())


def _exact_float_sums(w, n) -> bool:
    """Whether every path sum of weights ``w`` (at most n - 1 of them) is exact in float64
    in any order of additions (integers always are; int64 overflow is the engine's
    DistanceOverflow)."""
    if w.dtype.kind != "f":
        return True
    f = w[np.isfinite(w)]
    if not f.size:
        return True
    scaled = f * 2.0**EXACT_FRACTION_BITS
    return bool((scaled == np.rint(scaled)).all()) and \
        float(np.abs(scaled).max()) * max(n, 1) < 2.0**53


def _no_negative_inf(g: SemiringGraph, weight):
    """NotImplementedError where an edge weighs -inf: the engine's Bellman–Ford finds no
    negative cycle through it (-inf + w improves nothing) and its distances call -inf
    unreached, where NetworkX raises NetworkXUnbounded (an undirected -inf edge) or
    reports -inf."""
    if weight is not None:
        w = g.weights(weight)
        if w.dtype.kind == "f" and bool(np.isneginf(w).any()):
            raise NotImplementedError("nx_semiring: an edge weighs -inf (the engine's "
                                      "Bellman–Ford does not detect its negative cycles; "
                                      "NetworkX runs it)")


def _sssp(g: SemiringGraph, s: int, weight, method: str, predecessors=True, host=True):
    """Distances and predecessors (host arrays; predecessors ``None`` unless asked) from
    ``s``; ``method`` 'dijkstra' (refuses negative weights: NetworkX's Dijkstra decides by its
    own visiting order whether to raise) or 'bellman-ford' (NetworkXUnbounded on a negative
    cycle)."""
    nx = _nx()
    _exact_sums(g, weight)
    if method == "dijkstra" and g.has_negative(weight):
        raise NotImplementedError("nx_semiring: Dijkstra with negative weights is left to "
                                  "NetworkX (its result depends on its visiting order)")
    if method == "bellman-ford":
        _no_negative_inf(g, weight)
    M = _weighted_matrix(g, weight)
    sym = not g.directed
    run = alg.sssp if method == "dijkstra" else alg.bellman_ford
    try:
        out = run(M, s, predecessors=predecessors, symmetric=sym)
    except sr.NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc
    except sr.InvalidValue as exc:  # NaN weights: NetworkX's answer follows its visiting order
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc
    except alg.DistanceOverflow as exc:  # int64 sums may wrap; NetworkX's Python ints do not
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc
    if not predecessors:
        return (_host(out) if host else out), None
    return _host(out[0]), _host(out[1])


def _by_distance(dist, keep):
    """Indices where ``keep``, ordered by distance, then by index.

    Integer distances are sorted as 16-bit keys where they span fewer than 2^16 values (BFS
    levels, most integer-weighted SSSP): NumPy's stable sort of 16-bit integers is a radix
    sort, 3-4x faster than its merge sort of 64-bit ones (2^18 keys: 3.3 against 12 ms).
    Spans below 2^32 (SSSP on a 1000² grid with weights up to 255: ~2.6e5) take two such
    passes, low half then high half (an LSD radix sort; the second pass keeps the first's
    order among equal high halves, so the result is the stable order): 10^6 keys 48 → 14 ms
    on the 2-core helper.
    """
    idx = np.flatnonzero(keep)
    d = dist[idx]
    if d.dtype.kind in "iu" and d.size:
        lo = int(d.min())
        span = int(d.max()) - lo
        if span < 1 << 16:
            d = (d - lo).astype(np.uint16)
        elif span < 1 << 32:
            d = d - lo
            first = np.argsort((d & 0xFFFF).astype(np.uint16), kind="stable")
            second = np.argsort((d[first] >> 16).astype(np.uint16), kind="stable")
            return idx[first[second]]
    return idx[np.argsort(d, kind="stable")]


def _sorted_values(d) -> list:
    """``d.tolist()`` for a sorted host array, each distinct value one Python object.

    A BFS's 10^6 levels on a 1000² grid are 2000 distinct ints, for which ``tolist``
    allocates 10^6 objects. One object per run of equal values, repeated: by
    ``itertools.repeat`` where runs are long (at least ``LONG_RUNS`` entries on average), by
    an object array's ``repeat`` where they are shorter, ``tolist`` itself where most values
    are distinct or all are ints that CPython keeps cached (-5..256). 10^6 values on the
    2-core helper (interleaved, loaded): 2000 runs tolist 52 → 7 ms, 30 000 runs 58 → 15 ms,
    118 000 runs 49 → 29 ms. Runs are split by bit pattern, so 0.0 and -0.0 stay distinct.
    """
    if d.size < 2 or (d.dtype.kind in "iu" and -5 <= d[0] and d[-1] <= 256):
        return d.tolist()
    bits = d.view(f"i{d.itemsize}") if d.dtype.kind == "f" else d
    new = np.empty(d.size, dtype=np.bool_)
    new[0] = True
    np.not_equal(bits[1:], bits[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    if starts.size * RUN_VALUES > d.size:
        return d.tolist()
    counts = np.diff(starts, append=d.size)
    if starts.size * LONG_RUNS <= d.size:
        return list(itertools.chain.from_iterable(map(itertools.repeat, d[starts].tolist(),
                                                      counts.tolist())))
    objs = np.empty(starts.size, dtype=object)
    objs[:] = d[starts].tolist()
    return objs.repeat(counts).tolist()


def _alias(g: SemiringGraph, v: int, obj):
    """``obj``, the caller's source or target, where NetworkX's result holds it in place of
    vertex v's label: an equal object of another type (1.0, True, np.int64(1) or
    Fraction(1) for the node 1: one dict key, NetworkX's searches start from the caller's
    object); else ``None`` (the label itself)."""
    return obj if type(obj) is not type(g.nodes[v]) else None


def _rekey(d: dict, old, new) -> dict:
    """``d`` with its key ``old`` (a label object) replaced by the equal object ``new`` in
    its place (assigning an equal key keeps the old key object)."""
    return {(new if k is old else k): x for k, x in d.items()}


def _source_zero(g: SemiringGraph, s: int, lengths: dict, source=None) -> dict:
    """``lengths`` with the source's distance NetworkX's ``0`` (an int: its searches start
    from ``{source: 0}``; the engine's float distances give ``0.0``), keyed by the caller's
    ``source`` object where it is another (:func:`_alias`). Reassigning a key keeps its
    place."""
    lengths[g.nodes[s]] = 0
    alias = _alias(g, s, source) if source is not None else None
    return lengths if alias is None else _rekey(lengths, g.nodes[s], alias)


def _node_dict(g: SemiringGraph, values: list) -> dict:
    """{node: value} in node order. ``dict(zip(nodes, values))``: a template dict of the
    nodes copied and updated (no table growth) was 12 % faster on the 2-core helper but
    within 1 % on the H200 host (PageRank on a 1000² grid, 106.2 against 106.9 ms, session
    14), not worth a second dict of every node per graph."""
    return dict(zip(g.nodes, values))


def _path_dict(g: SemiringGraph, order, pred, s: int, source=None) -> dict:
    """{node: path from s} for the vertices in ``order``, walking the predecessor tree."""
    nodes = g.nodes
    with _gc_paused():
        paths = _paths_from(nodes, order, pred.tolist(), s)
    alias = _alias(g, s, source) if source is not None else None
    if alias is None:
        return paths
    # NetworkX's paths start from the caller's object, its dict is keyed by it
    return {(alias if k is nodes[s] else k): [alias, *p[1:]] for k, p in paths.items()}


def _walk_paths(nodes, order, pred, sources, loops=False) -> dict:
    """{vertex: path (node list)} for ``sources`` (each its own path) and the vertices of
    ``order`` (by distance), each walked back through ``pred`` (a list) to the first vertex
    with a path: a source, or a vertex met before. ``loops``: ``pred`` may hold a loop or
    end at -1 without a source (NetworkX's predecessor lists: NotImplementedError there)."""
    paths = {s: [nodes[s]] for s in sources}
    for v in order.tolist():
        if v in paths:
            continue
        stack = []
        on = set() if loops else None
        u = v
        while u not in paths:
            if on is not None:
                if u < 0 or u in on:
                    raise NotImplementedError("nx_semiring: NetworkX's predecessor lists "
                                              "loop (NetworkX runs it)")
                on.add(u)
            stack.append(u)
            u = pred[u]
        p = paths[u]
        while stack:
            w = stack.pop()
            p = p + [nodes[w]]
            paths[w] = p
    return paths


def _paths_from(nodes, order, pred, s):
    paths = _walk_paths(nodes, order, pred, [s])
    return {nodes[v]: paths[v] for v in order.tolist()}


def _path_to(g: SemiringGraph, pred, s: int, t: int, dist=None, weight=None, source=None,
             target=None) -> list:
    """The path from ``s`` to ``t`` in the predecessor tree, as labels, from the caller's
    ``source`` to its ``target`` object where they are other objects (NetworkX's weighted
    s-t searches start from one and stop at the other: :func:`_alias`); with ``dist``, only
    where it is the one shortest path (:func:`_unique_path`)."""
    nodes = g.nodes
    path = [t]
    while path[-1] != s:
        path.append(int(pred[path[-1]]))
    path.reverse()
    if dist is not None:
        _unique_path(g, path, dist, weight)
    out = [nodes[v] for v in path]
    for i, v, obj in ((0, s, source), (-1, t, target)):
        if obj is not None and _alias(g, v, obj) is not None:
            out[i] = obj
    return out


def _unique_path(g: SemiringGraph, path: list, dist, weight):
    """NotImplementedError unless ``path`` (vertex numbers, from the source) is the only
    shortest path to its end: NetworkX's s-t searches (bidirectional BFS and Dijkstra, a
    Dijkstra or Bellman–Ford stopped at the target) each pick their own among equally short
    paths, which the engine's predecessor tree does not reproduce. The path is the only one
    exactly when each of its vertices has one *tight* in-edge, from a reached vertex ``u``
    with ``dist[u] + w(u, v) == dist[v]`` (by induction from the end); self-loops aside.
    One gather of the path's in-edges."""
    if len(path) < 2:
        return
    r = _reverse(g)  # rows: in-neighbours (g itself where undirected)
    v = np.asarray(path[1:], dtype=np.int64)
    starts, counts = r.indptr[v], r.indptr[v + 1] - r.indptr[v]
    seg = np.repeat(np.arange(v.size, dtype=np.int64), counts)
    pos = np.repeat(starts - (np.cumsum(counts) - counts), counts) + \
        np.arange(int(counts.sum()), dtype=np.int64)
    u = r.adj[pos]
    du, dv = dist[u], dist[v][seg]
    w = 1 if weight is None else r.weights(weight)[pos]  # weight=None: every edge weighs 1
    tight = ~_unreached(du) & (du + w == dv) & (u != v[seg])
    if bool((np.bincount(seg[tight], minlength=v.size) > 1).any()):
        raise NotImplementedError("nx_semiring: several shortest paths join source and target; "
                                  "NetworkX's search picks its own (NetworkX runs it)")


def _single_source_ties(g: SemiringGraph, s: int, dist, keep, weight):
    """NotImplementedError unless every vertex reported (``keep``) other than the source
    has one *tight* in-edge (from a reached ``u`` with ``dist[u] + w(u, v) == dist[v]``,
    self-loops aside): then each has one shortest path from ``s``, which NetworkX's
    Dijkstra and Bellman–Ford find too; with ties each picks its own by its visiting order
    (in 1000 random graphs of weights 1..3, the engine's predecessor tree gave another path
    than NetworkX's single_source_dijkstra_path in 198). An undirected 0-weight edge between
    two vertices at one distance counts as a tie (each end tight from the other): refused
    though NetworkX's paths are determined there."""
    rows, cols = g.rows(), g.adj
    off = (rows != cols) & keep[cols]
    off[cols == s] = False
    u, v = rows[off], cols[off]
    du, dv = dist[u], dist[v]
    w = 1 if weight is None else g.weights(weight)[off]
    with np.errstate(over="ignore", invalid="ignore"):
        tight = ~_unreached(du) & (du + w == dv)
    if bool((np.bincount(v[tight], minlength=g.n) > 1).any()):
        raise NotImplementedError("nx_semiring: several shortest paths join the source and "
                                  "some node; NetworkX's search picks its own (NetworkX runs "
                                  "it)")


def _dijkstra_orders(g: SemiringGraph, sources, dist, keep, weight, cutoff=None):
    """``(pops, finds)``: the vertices NetworkX's Dijkstra from ``sources`` (vertex numbers,
    in its order) reports (``keep``), in the order it pops them (its ``dist`` dict's keys;
    its ``paths``, built from ``dist`` at the end) and in the order it first pushes them (its
    ``pred`` dict's keys). ``weight``: an attribute name, None (1 an edge) or an array of
    the stored entries' weights.

    Its heap pops by (distance, push count). Within a group of equal distances a vertex's
    count is that of its first push at that distance, made when its first-popped tight
    in-neighbour scans it: the key (pop rank of that in-neighbour, position in its
    adjacency). Groups are settled in increasing distance: with positive weights every
    tight in-neighbour lies in an earlier group (one vectorized pass a group); where a
    0-weight edge (or +inf: inf + w == inf) joins two vertices of one group, the group's
    pops are replayed with a heap (Python, that group only). A vertex is first pushed by
    the first in-neighbour popped before it (within ``cutoff``): the same key over those
    in-edges. The order by (distance, vertex) this replaced differed from both, and
    NetworkX's callers read them (``voronoi_cells``, ``ego_graph``, ``all_shortest_paths``).
    """
    keep = _host(keep)
    dist = _host(dist)
    src = np.asarray(list(sources), dtype=np.int64)
    heap = _dijkstra_heap(g, src, dist, keep, weight, cutoff)
    if heap is not None:
        return heap
    order = _by_distance(dist, keep)
    is_src = np.zeros(g.n, dtype=np.bool_)
    is_src[src] = True
    order = np.concatenate((src, order[~is_src[order]]))  # pushed first, at distance 0
    rank = np.empty(g.n, dtype=np.int64)
    rank[order] = np.arange(order.size)
    rows, cols = g.rows(), g.adj
    pos = np.arange(cols.size, dtype=np.int64) - g.indptr[rows]
    live = keep[rows] & keep[cols] & (rows != cols) & ~is_src[cols]
    u, v, pos = rows[live], cols[live], pos[live]
    if weight is None:
        w = np.ones(u.size, dtype=np.int64)
    elif isinstance(weight, np.ndarray):  # the entries' weights themselves (johnson's)
        w = weight[live]
    else:
        w = g.weights(weight)[live]
    with np.errstate(over="ignore", invalid="ignore"):
        du = dist[u]
        tight = du + w == dist[v]
        level = tight & (du == dist[v])  # 0-weight (or inf) edges inside a group
        reach = np.ones(u.size, dtype=np.bool_) if cutoff is None else ~(du + w > cutoff)
    width = int(pos.max(initial=0)) + 1
    big = np.iinfo(np.int64).max
    d = dist[order]
    tied = np.flatnonzero(d[1 + src.size:] == d[src.size:-1]) + src.size if order.size > 1 \
        else np.empty(0, dtype=np.int64)
    if tied.size:
        # tie groups [a, b) of the pop order, settled in increasing distance
        starts = np.flatnonzero(np.diff(np.concatenate(([-2], tied))) != 1)
        ga = tied[starts]
        gb = np.concatenate((tied[starts[1:] - 1], tied[-1:])) + 2
        by = np.argsort(rank[v[tight]], kind="stable")
        tu, tv, tp, tl = u[tight][by], v[tight][by], pos[tight][by], level[tight][by]
        tr = rank[tv]
        best = np.empty(g.n, dtype=np.int64)
        for a, b in zip(ga.tolist(), gb.tolist()):
            lo, hi = np.searchsorted(tr, [a, b])
            members = order[a:b]
            inner = tl[lo:hi] & (rank[tu[lo:hi]] >= a)  # from a vertex of this group
            if bool(inner.any()):
                members = _replayed_group(members, tu[lo:hi], tv[lo:hi], tp[lo:hi], inner,
                                          rank, a, width)
            else:
                best[members] = big
                np.minimum.at(best, tv[lo:hi], rank[tu[lo:hi]] * width + tp[lo:hi])
                members = members[np.argsort(best[members], kind="stable")]
            order[a:b] = members
            rank[members] = np.arange(a, b)
    found = reach & (rank[u] < rank[v])
    first = np.full(g.n, big, dtype=np.int64)
    np.minimum.at(first, v[found], rank[u[found]] * width + pos[found])
    first[src] = np.arange(-src.size, 0)
    finds = order[np.argsort(first[order], kind="stable")]
    return order, finds


def _dijkstra_heap(g, src, dist, keep, weight, cutoff, tree=False, preds=False):
    """``(pops, finds)`` of :func:`_dijkstra_orders` replayed from the engine's distances
    (:func:`semiring.backend.cpu.compiled.dijkstra_replay`: positive weights, no
    predecessor lists) or else by NetworkX's own heap loop, compiled
    (:func:`semiring.backend.cpu.compiled.dijkstra_order`), where it reaches exactly the
    vertices ``keep`` at the engine's distances ``dist``; else None (no Numba, weights of
    another type, another answer: the caller's pass). With ``tree`` / ``preds``,
    ``(pops, finds, parent, events)``: NetworkX's path tree and predecessor-list events
    (see ``dijkstra_order``)."""
    if not _cpu_compiled.ENABLED or not g.n or np.unique(src).size != src.size:
        return None
    if weight is None:
        w = np.ones(g.adj.size, dtype=np.int64)
    elif isinstance(weight, np.ndarray):
        w = weight
    else:
        w = g.weights(weight)
    if w.dtype.kind in "biu":
        if w.dtype.kind == "u" and w.size and int(w.max()) > np.iinfo(np.int64).max:
            return None
        w = w.astype(np.int64, copy=False)
    if not preds:
        replay = _cpu_compiled.dijkstra_replay(g.indptr, g.adj, w, src, dist,
                                               _by_distance(dist, keep), keep, cutoff)
        if replay is not None:
            # (its parent: the first tight scan, the last strict improvement in NetworkX)
            return (replay[0], replay[1], replay[2], None) if tree else replay[:2]
    found = _cpu_compiled.dijkstra_order(g.indptr, g.adj, w, src, cutoff, tree=tree,
                                         preds=preds)
    if found is None:
        return None
    pops, finds, d = found[:3]
    if pops.size != int(np.count_nonzero(keep)) or not bool(keep[pops].all()):
        return None
    with np.errstate(invalid="ignore"):
        if not bool(np.all((d[pops] == dist[pops]) | (np.isnan(d[pops]) & np.isnan(dist[pops]))
                           if d.dtype.kind == "f" else d[pops] == dist[pops])):
            return None
    if tree or preds:
        return pops, finds, found[3], found[4]
    return pops, finds


def _heap_tree(g, sources, dist, keep, weight, cutoff, preds=False):
    """``(pops, finds, parent, events)`` of NetworkX's Dijkstra from ``sources`` (vertex
    numbers, in its order) by its heap loop compiled (:func:`_dijkstra_heap`), where that
    reaches exactly the engine's vertices at the engine's distances; else None (no Numba:
    the caller's tie refusals). Its paths follow ``parent`` (the vertex popped when a
    vertex's distance last strictly improved: NetworkX's ``pred_dict[v][0]``), which picks
    NetworkX's own path among tied ones; ``events`` (with ``preds``) its predecessor lists'
    updates (:func:`_heap_pred_lists`)."""
    if not _cpu_compiled.ENABLED:
        return None
    return _dijkstra_heap(g, np.asarray(list(sources), dtype=np.int64), _host(dist),
                          _host(keep), weight, cutoff, tree=True, preds=preds)


def _heap_pred_lists(g: SemiringGraph, finds, events) -> dict:
    """NetworkX's ``pred`` dict of a Dijkstra (sources given as the nodes themselves, not
    equal objects of another type), from the heap's events ``(eu, ev, er)``: a vertex's
    list is reset to ``[v]`` at each strict improvement (``er`` 1) and ``v`` appended at
    each equal distance (``er`` 0; to a popped vertex too, e.g. over a 0-weight edge or
    self-loop), so it holds the events from its last reset on, in their order. Keyed as
    NetworkX's dict: the sources, then the vertices in their first push's order
    (``finds``)."""
    nodes = g.nodes
    eu, ev, er = events
    idx = np.arange(eu.size, dtype=np.int64)
    last = np.full(g.n, -1, dtype=np.int64)
    np.maximum.at(last, eu[er == 1], idx[er == 1])
    live = idx >= last[eu]
    eu, ev = eu[live], ev[live]
    by = np.argsort(eu, kind="stable")  # each vertex's events, in their order
    eu, ev = eu[by], ev[by]
    starts = np.zeros(g.n + 1, dtype=np.int64)
    np.cumsum(np.bincount(eu, minlength=g.n), out=starts[1:])
    lab = [nodes[v] for v in ev.tolist()]
    st = starts.tolist()
    return {nodes[v]: lab[st[v]:st[v + 1]] for v in finds.tolist()}


def _replayed_group(members, tu, tv, tp, internal, rank, a, width):
    """A tie group's pops (from rank ``a`` on) replayed as NetworkX's heap makes them where
    0-weight edges join its vertices: each vertex pushed once, at its first tight scan, by
    a vertex of an earlier group (those scans all come first) or of this one as it pops."""
    import heapq  # noqa: PLC0415  (only here)

    key = {}
    ext = ~internal
    for x, k in zip(tv[ext].tolist(), (rank[tu[ext]] * width + tp[ext]).tolist()):
        if k < key.get(x, k + 1):
            key[x] = k
    out_edges = {}
    for x, y, p in zip(tu[internal].tolist(), tv[internal].tolist(), tp[internal].tolist()):
        out_edges.setdefault(x, []).append((p, y))
    heap = [(k, x) for x, k in key.items()]
    heapq.heapify(heap)
    popped = []
    r = a
    while heap:
        _, x = heapq.heappop(heap)
        popped.append(x)
        for p, y in sorted(out_edges.get(x, ())):
            if y not in key:  # first push of y at this distance
                key[y] = r * width + p
                heapq.heappush(heap, (key[y], y))
        r += 1
    if len(popped) != members.size:  # not every member pushed: no replay (NetworkX runs it)
        raise NotImplementedError("nx_semiring: NetworkX's Dijkstra order among nodes at one "
                                  "distance is its own here (NetworkX runs it)")
    return np.asarray(popped, dtype=np.int64)


# --------------------------------------------------------------------------- BFS order
def _queue(g, frontier, depth_limit):
    """NetworkX's BFS queue from ``frontier`` as arrays ``(order, parent, bounds)``
    (:func:`semiring.backend.cpu.compiled.bfs_queue`), or None without Numba.

    A graph on the GPU of at least ``DEVICE_QUEUE_MIN_ENTRIES`` stored entries runs its
    first ``DEVICE_QUEUE_LEVELS`` levels there (:func:`_device_queue`: a level a few array
    passes, ~0.25 ms whatever its width) and the rest, if any, on the host from where the
    device stopped: a Kronecker graph's few wide levels on the device, a grid's thousands
    of narrow ones on the host. Without Numba the device runs every level."""
    if not g.n:
        return None
    frontier = np.asarray(frontier, dtype=np.int64)
    if getattr(g, "device", None) != "gpu" or g.adj.size < DEVICE_QUEUE_MIN_ENTRIES:
        # (a walk of another adjacency, _Adjacency or _Undirected: the host's)
        return _cpu_compiled.bfs_queue(g.indptr, g.adj, frontier, depth_limit)
    indptr, adj = g.device_adjacency()
    limit = _level_limit(depth_limit, g.n)
    order, parent, bounds, seen, last = _device_queue(
        indptr, adj, frontier, limit,
        DEVICE_QUEUE_LEVELS if _cpu_compiled.ENABLED else None, DEVICE_QUEUE_MAX_EDGES)
    if last is None:
        return order, parent, bounds
    if not _cpu_compiled.ENABLED:  # (a level too wide for the device: the NumPy pass)
        return None
    rest = _cpu_compiled.bfs_queue(g.indptr, g.adj, last, limit - (bounds.size - 1), seen=seen)
    return (np.concatenate((order, rest[0])), np.concatenate((parent, rest[1])),
            np.concatenate((bounds, rest[2][1:] + bounds[-1])))


def _level_limit(depth_limit, n) -> int:
    """The levels a search below ``depth_limit`` may make: depth < depth_limit for an
    integer depth is depth < ceil(depth_limit); NaN or at most 0: none."""
    return n + 1 if depth_limit >= n + 1 else math.ceil(depth_limit) if depth_limit > 0 else 0


def _device_queue(indptr, adj, frontier, limit, max_levels=None, max_edges=None, xp=None):
    """NetworkX's BFS queue (as :func:`semiring.backend.cpu.compiled.bfs_queue`) level by
    level on the arrays' device (``xp``: their module, CuPy by default).

    A level's out-edges are numbered in queue order, (frontier position, adjacency slot):
    NetworkX's queue discovers a vertex at its least such number among the unseen, so the
    next level is the out-edges that are their child's least number (a scatter-min), in
    number order: no sort. Returns host arrays ``(order, parent, bounds, seen, last)``;
    ``last``: None where the search ended, else the last level (the frontier to go on from,
    with ``seen``) where ``max_levels`` levels were made first or the next level has more
    than ``max_edges`` out-edges (its arrays, ~24 bytes an edge, would not fit)."""
    if xp is None:
        xp = _cupy()
    n = int(indptr.size) - 1
    big = np.iinfo(np.int64).max
    seen = xp.zeros(n, dtype=xp.bool_)
    best = xp.full(n, big, dtype=xp.int64)
    F = xp.asarray(frontier, dtype=xp.int64)
    seen[F] = True
    orders, parents, bounds = [], [], [0]
    while len(bounds) - 1 < limit:
        if max_levels is not None and len(bounds) - 1 >= max_levels:
            return _host_parts(xp, orders, parents, bounds) + (_host(seen), _host(F))
        deg = indptr[F + 1] - indptr[F]
        ends = xp.cumsum(deg)
        total = int(ends[-1]) if F.size else 0
        if not total:
            break
        if max_edges is not None and total > max_edges:
            return _host_parts(xp, orders, parents, bounds) + (_host(seen), _host(F))
        k = xp.arange(total, dtype=xp.int64)
        i = xp.searchsorted(ends, k, side="right")
        child = adj[indptr[F[i]] + k - (ends[i] - deg[i])].astype(xp.int64, copy=False)
        new = ~seen[child]
        k, i, child = k[new], i[new], child[new]
        if not k.size:
            break
        _scatter_min(xp, best, child, k)
        first = best[child] == k
        best[child] = big
        child, i = child[first], i[first]
        seen[child] = True
        orders.append(child)
        parents.append(F[i])
        bounds.append(bounds[-1] + int(child.size))
        F = child
    return _host_parts(xp, orders, parents, bounds) + (None, None)


def _host_parts(xp, orders, parents, bounds):
    empty = np.empty(0, dtype=np.int64)
    order = _host(xp.concatenate(orders)) if orders else empty
    parent = _host(xp.concatenate(parents)) if parents else empty
    return order, parent, np.asarray(bounds, dtype=np.int64)


def _ordered_levels(g: SemiringGraph, frontier, depth_limit, level=None):
    """Yield ``(parents, children)`` (lists of vertex numbers) level by level in NetworkX's
    order.

    ``children`` is the next level in the order NetworkX's queue discovers it (the frontier
    in order, each vertex's neighbours in adjacency order, first discovery wins), ``parents``
    the vertex each was discovered from. ``level`` (the engine's BFS levels from a single
    source) says which vertices belong to the next level; without it a seen-set is kept.
    Levels are generated while their depth is below ``depth_limit``. A level whose frontier
    has at most ``NARROW_EDGES`` out-edges is walked in Python (a long path costs O(1) a
    level), a wider one by array operations over all its out-edges at once: each candidate
    child's first discovery by ``np.minimum.at`` of its positions, no sort (the
    ``np.unique`` it replaced, session 15, 2-core helper, interleaved best of 4: the whole
    pass from kron-17's hub 314 → 199 ms, a 1000² grid's 748 → 748 ms; 8·10^6 random
    candidates alone 1.8 s → 80 ms). With Numba, the whole search is one compiled queue
    instead (:func:`semiring.backend.cpu.compiled.bfs_queue`, NetworkX's loop itself), and
    ``level`` is not read.
    """
    searched = _queue(g, frontier, depth_limit)
    if searched is not None:
        order, parent, bounds = searched
        b = bounds.tolist()
        for d in range(len(b) - 1):
            yield parent[b[d]:b[d + 1]].tolist(), order[b[d]:b[d + 1]].tolist()
        return
    indptr, adj = g.indptr, g.adj
    ptr = indptr.tolist()
    front = [int(v) for v in frontier]
    lv = None if level is None else level.tolist()
    seen = None
    if level is None:
        seen = bytearray(g.n)
        for v in front:
            seen[v] = 1
    first_at = None  # the wide levels' scatter-min buffer (allocated once, n entries)
    depth = 0
    while front and depth < depth_limit:
        narrow = len(front) <= NARROW_EDGES and \
            sum(ptr[u + 1] - ptr[u] for u in front) <= NARROW_EDGES
        parents, children = [], []
        if narrow:
            target = depth + 1
            found = set()
            for u in front:
                for v in adj[ptr[u]:ptr[u + 1]].tolist():
                    if seen is None:
                        if lv[v] != target or v in found:
                            continue
                        found.add(v)
                    elif seen[v]:
                        continue
                    else:
                        seen[v] = 1
                    parents.append(u)
                    children.append(v)
        else:
            f = np.asarray(front, dtype=np.int64)
            starts = indptr[f]
            counts = indptr[f + 1] - starts
            total = int(counts.sum())
            seg = np.repeat(np.arange(f.size, dtype=np.int64), counts)
            offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts,
                                                                   counts)
            cand = adj[starts[seg] + offsets]
            if seen is None:
                keep = level[cand] == depth + 1
            else:
                keep = np.frombuffer(seen, dtype=np.bool_)[cand] == 0
            cand = cand[keep]
            if cand.size:
                seg = seg[keep]
                # each vertex's first discovery (NetworkX's queue keeps it): a scatter-min of
                # the candidates' positions into a buffer of the touched vertices, then the
                # candidates that hold their vertex's minimum, already in discovery order
                if first_at is None:
                    first_at = np.empty(g.n, dtype=np.int64)
                pos = np.arange(cand.size, dtype=np.int64)
                first_at[cand] = cand.size
                np.minimum.at(first_at, cand, pos)
                first = np.flatnonzero(first_at[cand] == pos)
                ch = cand[first]
                if seen is not None:
                    np.frombuffer(seen, dtype=np.uint8)[ch] = 1
                parents, children = f[seg[first]].tolist(), ch.tolist()
        if not children:
            return
        yield parents, children
        front = children
        depth += 1


def _source(g: SemiringGraph, source, exc) -> int:
    if source not in g:
        raise exc
    return g.vertex(source)


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
    # NetworkX's message is its G.neighbors' (a DiGraph's successors say "digraph")
    s = _source(g, source, nx.NetworkXError(
        f"The node {source} is not in the {'digraph' if g.directed else 'graph'}."))
    if sort_neighbors is not None or (reverse and g.directed):
        raise NotImplementedError("nx_semiring: bfs_edges with sort_neighbors or reverse=True "
                                  "on a directed graph")
    if depth_limit is None:
        depth_limit = g.n
    level = _order_level(g, s)
    nodes = g.nodes
    alias = _alias(g, s, source)
    for parents, children in _ordered_levels(g, [s], depth_limit, level):
        # NetworkX's queue starts from the caller's source object: the first level's parent
        up = [nodes[u] for u in parents] if alias is None else [alias] * len(parents)
        alias = None
        yield from zip(up, [nodes[v] for v in children])


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
    if NX_RELEASE >= (3, 7):
        # deprecated there, NetworkX's generator warning on its first step: so does this one
        warnings.warn("\n\nbfs_predecessors is deprecated and will be removed in NetworkX 3.9\n"
                      "Use ``(t, s) for (s, t) in bfs_edges`` instead",
                      category=DeprecationWarning, stacklevel=2)
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
    if not current:  # no sources: NetworkX's loop yields no layer at all
        return
    yield current
    idx = [g.index[v] for v in current]
    level = _order_level(g, idx[0]) if len(idx) == 1 else None
    nodes = g.nodes
    for _, children in _ordered_levels(g, idx, np.inf, level):
        yield [nodes[v] for v in children]


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
    if distance == 0:  # NetworkX's first layer, the caller's source object
        return {source}
    level = _order_level(g, s)
    if level is not None and not bool((level == distance).any()):
        return set()
    # NetworkX's set(layer): the layer in its BFS order (a set's iteration order depends on it)
    for depth, (_, children) in enumerate(_ordered_levels(g, [s], distance, level), 1):
        if depth == distance:
            return set(g.labels(np.asarray(children, dtype=np.int64)))
    return set()


# --------------------------------------------------------------------------- unweighted paths
def _real_cutoff(cutoff):
    """NotImplementedError for a cutoff that is not a real number (a string, a complex, a
    Decimal): NetworkX compares it with its distances as Python does, raising TypeError or
    not; the engine's arrays compare otherwise."""
    if cutoff is not None and not isinstance(cutoff, numbers.Real):
        raise NotImplementedError(f"nx_semiring: cutoff of type {type(cutoff).__name__} "
                                  f"(NetworkX compares it itself)")


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
    _real_cutoff(cutoff)
    out = _bfs_lengths(g, s, None, cutoff)
    alias = _alias(g, s, source)
    return out if alias is None else _rekey(out, g.nodes[s], alias)


def _bfs_lengths(g: SemiringGraph, s: int, level, cutoff) -> dict:
    """{node: level} of the vertices NetworkX's BFS from ``s`` reaches within ``cutoff``, in
    the order its queue discovers them (:func:`_discovery`): NetworkX's callers read the
    dict in that order (``ego_graph``'s subgraph, ``cuthill_mckee``'s farthest node), where
    the order by (distance, vertex) this replaced differed within a level. ``level``: the
    levels from ``s`` (None: the compiled queue's, else the engine's)."""
    limit = np.inf if cutoff is None else cutoff
    searched = _queue(g, [s], limit) if level is None else None
    if searched is not None:
        order, _, bounds = searched
        order = np.concatenate(([s], order))
        depth = np.repeat(np.arange(bounds.size, dtype=np.int64),
                          np.diff(np.concatenate(([0], bounds + 1))))
        return dict(zip(g.labels(order), _values_of(depth)))
    level = _host(_bfs_level(g, s) if level is None else level)
    order = _discovery(g, [s], limit, level)
    return dict(zip(g.labels(order), _values_of(level[order])))


def _values_of(d) -> list:
    """``d.tolist()``, each distinct value one Python object where the values are few
    (:func:`_sorted_values` on their sorted copy, scattered back; on ``d`` itself where it
    is sorted already: BFS levels in queue order, distances in Dijkstra's pop order)."""
    if d.size < 2:
        return d.tolist()
    if bool((d[1:] >= d[:-1]).all()):
        return _sorted_values(d)
    perm = np.argsort(d, kind="stable")
    objs = np.empty(d.size, dtype=object)
    objs[perm] = _sorted_values(d[perm])
    return objs.tolist()


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
    paths = {s: [nodes[s] if _alias(g, s, source) is None else source]}
    level = _order_level(g, s)
    limit = np.inf if cutoff is None else cutoff
    # NetworkX's loop compares cutoff > 0 first: its TypeError for a cutoff that does not
    # compare with an int (a string), before any level
    limit > 0  # noqa: B015 (evaluated for its exception)
    for parents, children in _ordered_levels(g, [s], limit, level):
        for u, v in zip(parents, children):
            paths[v] = paths[u] + [nodes[v]]
    return {nodes[v]: p for v, p in paths.items()} if _alias(g, s, source) is None else \
        {(source if v == s else nodes[v]): p for v, p in paths.items()}


def all_pairs_shortest_path_length(G, cutoff=None):
    """``(node, {target: length})`` for every node, by the engine's multi-source BFS.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_shortest_path_length(nx.path_graph(3), backend="semiring"))[0]
    {0: 0, 1: 1, 2: 2}
    """
    g = _graph(G)
    _real_cutoff(cutoff)  # refused by the call, not by the generator (see _all_pairs_refusals)
    return _all_pairs_levels(g, cutoff)


def _all_pairs_levels(g, cutoff):
    M, sym = g.engine_matrix()
    nodes = g.nodes
    for b in range(0, g.n, APSP_BFS_BATCH):
        batch = list(range(b, min(g.n, b + APSP_BFS_BATCH)))
        L = _host(alg.multi_source_bfs(M, batch, symmetric=sym))
        for r, s in enumerate(batch):
            yield (nodes[s], _bfs_lengths(g, s, L[r], cutoff))


def _bidirectional_checks(g, source, target):
    nx = _nx()
    s = _source(g, source, nx.NodeNotFound(f"Source {source} is not in G"))
    t = _source(g, target, nx.NodeNotFound(f"Target {target} is not in G"))
    return s, t


def _bidirectional_aliases(g, s, t, source, target):
    """NotImplementedError where the caller's source or target is another object than its
    node's label (:func:`_alias`): NetworkX's bidirectional searches end a path with the
    caller's object or the graph's label as the two searches happen to meet."""
    if _alias(g, s, source) is not None or _alias(g, t, target) is not None:
        raise NotImplementedError("nx_semiring: a bidirectional search's path from or to an "
                                  "object equal to a node of another type (1.0 for 1): "
                                  "NetworkX's ends depend on where its searches meet "
                                  "(NetworkX runs it)")


def _st_unweighted_path(g, source, target):
    nx = _nx()
    s, t = _bidirectional_checks(g, source, target)
    if s == t:
        return [source]
    _bidirectional_aliases(g, s, t, source, target)
    level = _bfs_level(g, s)
    if level[t] < 0:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    # NetworkX's is a bidirectional BFS's path: the same where it is the only shortest one,
    # each vertex's one in-neighbour a level closer (else NetworkX runs it)
    r = _reverse(g)
    path = [t]
    while path[-1] != s:
        v = path[-1]
        nbrs = r.adj[r.indptr[v]:r.indptr[v + 1]]
        closer = nbrs[level[nbrs] == level[v] - 1]
        if closer.size != 1:
            raise NotImplementedError("nx_semiring: several shortest paths join source and "
                                      "target; NetworkX's search picks its own (NetworkX "
                                      "runs it)")
        path.append(int(closer[0]))
    path.reverse()
    return [g.nodes[v] for v in path]


def has_path(G, source, target):
    """Whether ``target`` is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.has_path(nx.DiGraph([(0, 1)]), 1, 0, backend="semiring")
    False
    """
    g = _graph(G)
    if source is None or target is None:
        # NetworkX's has_path is shortest_path(G, source, target) without NetworkXNoPath:
        # a missing end asks it for every path from (or to) the other (or all pairs), which
        # raises only for a missing node (paths to a target: its BFS over G.reverse())
        if source is None and target is not None:
            _source(g, target, _nx().NodeNotFound(f"Source {target} not in G"))
        else:
            shortest_path(g, source, target)
        return True
    s, t = _bidirectional_checks(g, source, target)
    return s == t or bool(_bfs_level(g, s)[t] >= 0)


def _reverse(g: SemiringGraph) -> SemiringGraph:
    """The reversed directed graph (rows: in-neighbours, in increasing vertex order)."""
    if not g.directed:
        return g
    r = g.__dict__.get("_reversed")
    if r is None:
        rows = g.rows()
        perm = np.argsort(g.adj, kind="stable")
        indptr = np.zeros(g.n + 1, dtype=np.int64)
        np.cumsum(np.bincount(g.adj, minlength=g.n), out=indptr[1:])
        r = SemiringGraph(g.nodes, indptr, rows[perm], {k: v[perm] for k, v in g.values.items()},
                          directed=True, multigraph=g.multigraph, device=g.device)
        r._index = g.index
        r.narrow = g.narrow
        r.partial = g.partial
        r.mixed = g.mixed
        r.numpy_typed = g.numpy_typed
        r.int_float = g.int_float
        r.bools = g.bools
        r._perm = perm
        g._reversed = r
    for k in g.values.keys() - r.values.keys():  # attributes g read after r was made
        r.values[k] = g.values[k][r._perm]
    return r


def _method(method, weight):
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    return "unweighted" if weight is None else method


def _all_pairs_refusals(g, weight, method, paths):
    """NotImplementedError now, before the all-pairs generator is returned, for what a
    single-source run would refuse at some source (Dijkstra with negative weights, NaN
    weights, Dijkstra paths where an edge weighs +inf): NetworkX's dispatcher falls back
    only on an error raised by the call itself, not by a generator it returned."""
    if method == "unweighted":
        return
    _exact_sums(g, weight)
    if method == "dijkstra" and g.has_negative(weight):
        raise NotImplementedError("nx_semiring: Dijkstra with negative weights is left to "
                                  "NetworkX (its result depends on its visiting order)")
    if method == "bellman-ford":
        _no_negative_inf(g, weight)
    w = g.weights(weight)
    if w.dtype.kind == "f" and bool(np.isnan(w).any()):
        raise NotImplementedError("nx_semiring: NaN weights (NetworkX's comparisons decide; "
                                  "NetworkX runs it)")
    # the engine's int64 distances refuse where n · max |w| may wrap (alg.DistanceOverflow)
    if w.dtype.kind in "iu" and w.size and \
            g.n * max(abs(int(w.min())), abs(int(w.max()))) >= np.iinfo(np.int64).max:
        raise NotImplementedError("nx_semiring: int64 distances may overflow (NetworkX's Python "
                                  "ints do not; NetworkX runs it)")
    if paths and method == "dijkstra" and g.has_inf(weight):
        raise NotImplementedError("nx_semiring: Dijkstra paths over edges of weight inf "
                                  "(NetworkX returns the first it finds)")


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
            _all_pairs_refusals(g, weight, method, paths=True)
            if method == "unweighted":
                return ((v, _single_source_paths(g, v, weight, method)) for v in g.nodes)
            # NetworkX's all_pairs_dijkstra_path / all_pairs_bellman_ford_path: their tie
            # check runs over every source when called (a refusal from the generator would
            # not reach the dispatcher)
            from . import paths  # noqa: PLC0415  (nx_semiring.paths imports this module)

            if method == "dijkstra":
                return paths.all_pairs_dijkstra_path(g, weight=weight)
            return paths.all_pairs_bellman_ford_path(g, weight=weight)
        if g.directed:
            # weighted too: Dijkstra's pops among equal distances and Bellman–Ford's queue
            # follow the scan order of G._pred as well
            raise NotImplementedError("nx_semiring: shortest_path to a target of a directed "
                                      "graph is NetworkX's search over G.reverse(), in "
                                      "G._pred's order, which the conversion does not keep "
                                      "(NetworkX runs it)")
        paths = _single_source_paths(_reverse(g), target, weight, method)
        return {v: list(reversed(p)) for v, p in paths.items()}
    if target is None:
        return _single_source_paths(g, source, weight, method)
    if method == "unweighted":
        return _st_unweighted_path(g, source, target)
    if method == "dijkstra":
        s, t = _bidirectional_checks(g, source, target)
        if source == target:
            return [source]
        _bidirectional_aliases(g, s, t, source, target)  # NetworkX's bidirectional_dijkstra
        try:
            return _single_source_dijkstra(g, source, target, None, weight, heap=False)[1]
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
            _all_pairs_refusals(g, weight, method, paths=False)
            if method == "bellman-ford":  # its refusals made when called (NetworkX's call)
                from . import paths  # noqa: PLC0415  (nx_semiring.paths imports this module)

                return paths.all_pairs_bellman_ford_path_length(g, weight=weight)
            return ((v, _single_source_lengths(g, v, weight, method)) for v in g.nodes)
        if g.directed:  # weighted too (shortest_path's reason)
            raise NotImplementedError("nx_semiring: shortest_path_length to a target of a "
                                      "directed graph is NetworkX's search over G._pred, in "
                                      "its order, which the conversion does not keep "
                                      "(NetworkX runs it)")
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
def _dijkstra(g, source, cutoff, weight, predecessors=True, host=True):
    """``(s, dist, pred, keep)``: the source's vertex, distances and predecessors from it,
    and which vertices NetworkX's Dijkstra reports: those it reaches within ``cutoff``, the
    source always (whatever the cutoff). NetworkX reaches a vertex over an edge of weight
    +inf too (at distance inf), so where the attribute holds +inf the reached vertices are
    the structurally reachable ones (one BFS more, only then); their paths NetworkX picks by
    its visiting order (the first found), left to it."""
    nx = _nx()
    s = _source(g, source, nx.NodeNotFound(f"Node {source} not found in graph"))
    inf = g.has_inf(weight)
    dist, pred = _sssp(g, s, weight, "dijkstra", predecessors, host or inf)
    if inf:
        keep = _bfs_level(g, s) >= 0
        if predecessors and bool(np.isinf(dist[keep]).any()):
            raise NotImplementedError("nx_semiring: Dijkstra paths to vertices at distance inf "
                                      "(NetworkX returns the first it finds)")
    else:
        keep = ~_unreached(dist)
    if cutoff is not None:
        _real_cutoff(cutoff)
        keep &= ~(dist > cutoff)  # NetworkX skips a vertex when dist > cutoff (NaN: never)
        keep[s] = True
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
    return _single_source_dijkstra(G, source, target, cutoff, weight, heap=True)


def _single_source_dijkstra(G, source, target, cutoff, weight, heap):
    """:func:`single_source_dijkstra`; ``heap=False`` for NetworkX's bidirectional s-t
    searches (``shortest_path(G, s, t)``, ``bidirectional_dijkstra``), which pick their own
    path among ties: then only a path that is the only shortest one (:func:`_unique_path`)."""
    nx = _nx()
    g = _graph(G, weight)
    if source in g and target == source:
        return (0, [target])
    if target is None:
        s, dist, pops, parent = _dijkstra_paths(g, source, cutoff, weight)
        return (_source_zero(g, s, dict(zip(g.labels(pops), _values_of(dist[pops]))),
                             source),
                _path_dict(g, pops, parent, s, source))
    if heap:
        s, dist, _, keep = _dijkstra(g, source, cutoff, weight, predecessors=False)
        if target not in g or not keep[g.vertex(target)]:
            raise nx.NetworkXNoPath(f"No path to {target}.")
        t = g.vertex(target)
        # NetworkX stops when it pops the target: its path's vertices were all popped
        # before, their parents final, as in the whole search
        tree = _heap_tree(g, [s], dist, keep, weight, cutoff)
        if tree is not None:
            return (dist[t].item(), _path_to(g, tree[2], s, t, None, weight, source, target))
    s, dist, pred, keep = _dijkstra(g, source, cutoff, weight)
    if target not in g or not keep[g.vertex(target)]:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    t = g.vertex(target)
    return (dist[t].item(), _path_to(g, pred, s, t, dist, weight, source, target))


def _dijkstra_paths(g, source, cutoff, weight):
    """``(s, dist, pops, parent)``: NetworkX's single-source Dijkstra's pop order (its
    dicts' keys) and path tree, by its heap compiled (:func:`_heap_tree`: its own paths
    among ties); without it, the engine's predecessors where no two shortest paths tie
    (else NotImplementedError)."""
    if _cpu_compiled.ENABLED:
        s, dist, _, keep = _dijkstra(g, source, cutoff, weight, predecessors=False)
        tree = _heap_tree(g, [s], dist, keep, weight, cutoff)
        if tree is not None:
            return s, dist, tree[0], tree[2]
    s, dist, pred, keep = _dijkstra(g, source, cutoff, weight)
    _single_source_ties(g, s, dist, keep, weight)
    return s, dist, _dijkstra_orders(g, [s], dist, keep, weight, cutoff)[0], pred


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """{node: distance from ``source``} by the engine's SSSP.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 1.5})])
    >>> nx.single_source_dijkstra_path_length(G, 0, backend="semiring")
    {0: 0, 1: 1.5}
    """
    g = _graph(G, weight)
    s, dist, _, keep = _dijkstra(g, source, cutoff, weight, predecessors=False)
    pops, _ = _dijkstra_orders(g, [s], dist, keep, weight, cutoff)  # NetworkX's dict order
    return _source_zero(g, s, dict(zip(g.labels(pops), _values_of(_host(dist)[pops]))), source)


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    """{node: a shortest path from ``source``} by the engine's SSSP.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_dijkstra_path(nx.path_graph(3), 0, backend="semiring")
    {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    """
    g = _graph(G, weight)
    s, _, pops, parent = _dijkstra_paths(g, source, cutoff, weight)
    return _path_dict(g, pops, parent, s, source)


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
    dist, _ = _sssp(g, s, weight, "dijkstra", predecessors=False)
    if target not in g or _unreached(dist[g.vertex(target)]) and not (
            g.has_inf(weight) and _bfs_level(g, s)[g.vertex(target)] >= 0):  # see _dijkstra
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return dist[g.vertex(target)].item()


def dijkstra_path(G, source, target, weight="weight"):
    """A shortest path from ``source`` to ``target``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.dijkstra_path(nx.path_graph(4), 0, 3, backend="semiring")
    [0, 1, 2, 3]
    """
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


class _Adjacency:
    """CSR arrays (``n``, ``indptr``, ``adj``) for :func:`_ordered_levels` to walk."""

    def __init__(self, n, indptr, adj):
        self.n, self.indptr, self.adj = n, indptr, adj


def _spfa_tree(g: SemiringGraph, s: int, dist, keep, weight, heuristic=True):
    """``(order, ptr, preds)`` of NetworkX's Bellman–Ford from vertex ``s`` by its queue loop
    compiled (:func:`semiring.backend.cpu.compiled.spfa_order`): the vertices in the order
    they first get a distance (its dicts' keys) and each one's predecessor list (its order,
    ties included), where that reaches exactly the vertices ``keep`` at the engine's
    distances ``dist``; else None (no Numba, weights of another type, a negative cycle,
    another answer)."""
    if not _cpu_compiled.ENABLED or not g.n:
        return None
    keep, dist = _host(keep), _host(dist)
    w = np.ones(g.adj.size, dtype=np.int64) if weight is None else g.weights(weight)
    if w.dtype.kind in "biu":
        if w.dtype.kind == "u" and w.size and int(w.max()) > np.iinfo(np.int64).max:
            return None
        w = w.astype(np.int64, copy=False)
    found = _cpu_compiled.spfa_order(g.indptr, g.adj, w, [s], heuristic)
    if found is None:
        return None
    order, d, ptr, preds = found
    if order.size != int(np.count_nonzero(keep)) or not bool(keep[order].all()):
        return None
    if not bool(np.all(d[order] == dist[order])):
        return None
    return order, ptr, preds


def _first_paths(g: SemiringGraph, s: int, order, ptr, preds, targets=None) -> dict:
    """{node: path} as NetworkX's ``_build_paths_from_predecessors`` gives first, for the
    vertices ``targets`` (default ``order``) from the predecessor lists of a search from
    ``s`` (``preds[ptr[i]:ptr[i + 1]]`` of ``order[i]``). Its depth-first walk takes each
    node's first predecessor first, and the chain of first predecessors (each the node's
    last strict improvement) reaches ``s`` without a loop: two nodes each the other's last
    improver would make a negative cycle (NetworkX raised). So the path is that chain,
    walked once a node and shared; a loop all the same is refused."""
    nodes = g.nodes
    first = np.full(g.n, -1, dtype=np.int64)
    has = ptr[1:] > ptr[:-1]
    first[order[has]] = preds[ptr[:-1][has]]
    first = first.tolist()
    targets = order if targets is None else np.asarray(targets, dtype=np.int64)
    with _gc_paused():
        paths = _walk_paths(nodes, targets, first, [s], loops=True)
    return {nodes[v]: paths[v] for v in targets.tolist()}


def _spfa_order(g: SemiringGraph, s: int, dist, keep, weight) -> np.ndarray:
    """The reported vertices (``keep``) in the order NetworkX's Bellman–Ford first gives
    them a distance (its dist, pred and paths dicts' keys), or NotImplementedError. With
    Numba its queue loop compiled gives the order (:func:`_spfa_tree`); the pass below is
    the one without it.

    Its FIFO queue scans a node when it pops it (unless one of its predecessors waits in the
    queue); where every node gets its final distance when first found, no node re-enters
    the queue and the search is a BFS: nodes found in NetworkX's BFS order
    (:func:`_ordered_levels`). That holds exactly when each node's BFS parent is a tight
    in-neighbour (``dist[parent] + w == dist[node]``) and the BFS reaches just the reported
    nodes; elsewhere (a later, shorter path, e.g. over a negative edge) the order is the
    queue's, not reproduced here: NetworkX runs it. The order by (distance, vertex) this
    replaced differed, and NetworkX's callers read it (``all_shortest_paths``,
    ``shortest_path(method="bellman-ford")``)."""
    keep = _host(keep)
    dist = _host(dist)
    tree = _spfa_tree(g, s, dist, keep, weight)  # NetworkX's queue loop, compiled
    if tree is not None:
        return tree[0]
    walk = g
    if weight is not None and g.has_inf(weight):
        # an edge of weight inf finds nothing (dist + inf < inf is false): left out
        fin = ~np.isposinf(g.weights(weight))
        walk = _Adjacency(g.n, np.concatenate(([0], np.cumsum(np.bincount(
            g.rows()[fin], minlength=g.n)))), g.adj[fin])
    parents, children = [], []
    for p, c in _ordered_levels(walk, [s], np.inf):
        parents.extend(p)
        children.extend(c)
    par = np.asarray(parents, dtype=np.int64)
    chi = np.asarray(children, dtype=np.int64)
    order = np.concatenate(([s], chi)).astype(np.int64)
    ok = order.size == int(np.count_nonzero(keep)) and bool(keep[order].all())
    if ok and chi.size:
        rows, cols = g.rows(), g.adj
        w = 1 if weight is None else g.weights(weight)
        with np.errstate(over="ignore", invalid="ignore"):
            tight = dist[rows] + w == dist[cols]
        pairs = np.unique(rows[tight] * g.n + cols[tight])
        ok = bool(np.isin(par * g.n + chi, pairs).all())
    if not ok:
        raise NotImplementedError("nx_semiring: NetworkX's Bellman–Ford finds some node "
                                  "before its shortest path (its queue's order, not "
                                  "reproduced: NetworkX runs it)")
    return order


def _bellman_ford(g, source, weight, predecessors=True):
    nx = _nx()
    s = _source(g, source, nx.NodeNotFound(f"Source {source} not in G"))
    dist, pred = _sssp(g, s, weight, "bellman-ford", predecessors)
    return s, dist, pred, ~_unreached(dist)


def single_source_bellman_ford(G, source, target=None, weight="weight"):
    """``(distances, paths)`` from ``source`` (or ``(distance, path)`` to ``target``),
    negative weights allowed, by the engine's Bellman–Ford.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 2, {"weight": -1}), (0, 1, {"weight": 4}), (2, 3, {"weight": -2})])
    >>> nx.single_source_bellman_ford(G, 0, backend="semiring")
    ({0: 0, 2: -1, 1: 4, 3: -3}, {0: [0], 2: [0, 2], 1: [0, 1], 3: [0, 2, 3]})
    """
    nx = _nx()
    g = _graph(G, weight)
    if source == target:
        if source not in g:
            raise nx.NodeNotFound(f"Node {source} is not found in the graph")
        return (0, [source])
    s, dist, pred, keep = _bellman_ford(g, source, weight)
    # NetworkX's queue loop compiled: its predecessor lists, its first path among ties
    tree = _spfa_tree(g, s, dist, keep, weight) if _alias(g, s, source) is None else None
    if target is None:
        if tree is not None:
            order = tree[0]
            return (_source_zero(g, s, dict(zip(g.labels(order), _values_of(dist[order]))),
                                 source),
                    _first_paths(g, s, *tree))
        _single_source_ties(g, s, dist, keep, weight)
        order = _spfa_order(g, s, dist, keep, weight)
        return (_source_zero(g, s, dict(zip(g.labels(order), _values_of(dist[order]))),
                             source),
                _path_dict(g, order, pred, s, source))
    if target not in g or not keep[g.vertex(target)]:
        # NetworkX's: its path builder (_build_paths_from_predecessors) raises it
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    t = g.vertex(target)
    if tree is not None:
        path = _first_paths(g, s, *tree, targets=[t])[g.nodes[t]]
        if _alias(g, t, target) is not None:
            path = [*path[:-1], target]
        return (dist[t].item(), path)
    return (dist[t].item(), _path_to(g, pred, s, t, dist, weight, source, target))


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
    s, dist, _, keep = _bellman_ford(g, source, weight, predecessors=False)
    order = _spfa_order(g, s, dist, keep, weight)  # NetworkX's dict order
    return _source_zero(g, s, dict(zip(g.labels(order), _values_of(_host(dist)[order]))),
                        source)


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
    _, dist, _, keep = _bellman_ford(g, source, weight, predecessors=False)
    if target not in g or not keep[g.vertex(target)]:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return dist[g.vertex(target)].item()


def bellman_ford_path(G, source, target, weight="weight"):
    """A shortest path from ``source`` to ``target``, negative weights allowed.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bellman_ford_path(nx.path_graph(3), 0, 2, backend="semiring")
    [0, 1, 2]
    """
    return single_source_bellman_ford(G, source, target=target, weight=weight)[1]


def _with_virtual_source(g: SemiringGraph, w, targets):
    """The engine matrix [A 0; e_T 0] of g (weights ``w`` in sorted-adjacency order) with a
    vertex n that reaches each vertex of ``targets`` by an edge of weight 0."""
    n, k = g.n, len(targets)
    indptr = np.concatenate([g.indptr, [g.indptr[-1] + k]])
    indices = np.concatenate([g.sorted_adj(), np.asarray(targets, dtype=np.int64)])
    values = np.concatenate([w, np.zeros(k, dtype=w.dtype)])
    dev = g.device
    return sr.Matrix.from_csr(sr.to_device(indptr, dev), sr.to_device(indices, dev),
                              sr.to_device(values, dev), (n + 1, n + 1), check=False)


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
    if not g.has_negative(weight) and g.narrow.get(weight) is None and \
            weight not in g.numpy_typed:
        return False
    _exact_sums(g, weight, sums=False)  # NetworkX's NumPy integer sums may wrap below 0
    if not g.has_negative(weight):
        return False
    _no_negative_inf(g, weight)
    n = g.n
    # A' = [A 0; 1ᵀ 0]: vertex n reaches every vertex by a 0-weight edge
    A = _with_virtual_source(g, g.weights(weight)[g.order()], np.arange(n, dtype=np.int64))
    try:
        alg.bellman_ford(A, n)
    except sr.NegativeCycleError:
        return True
    except sr.InvalidValue as exc:  # NaN weights: NetworkX's comparisons decide
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc
    except alg.DistanceOverflow as exc:  # int64 sums may wrap; NetworkX's Python ints do not
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc
    return False


def floyd_warshall_numpy(G, nodelist=None, weight="weight"):
    """The matrix of shortest distances (float64 NumPy array, ``inf`` where unreachable) in
    ``nodelist`` order, by the engine's APSP. Self-loops do not count (NetworkX sets the
    diagonal to 0); a negative cycle is NetworkX 3.7's NetworkXUnbounded (earlier releases
    answer their own negative diagonal: NetworkX runs it), and float weights whose path sums
    round (their bits are NetworkX's order of additions) are NetworkX's to run.

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
    cols = g.sorted_adj()
    w = (np.ones(cols.size) if weight is None else g.weights(weight)[perm]).astype(np.float64)
    if weight is not None and not _exact_float_sums(g.weights(weight), n):
        # path sums that round take the bits NetworkX's order of additions leaves (its pivots'
        # order against the engine's: 0.1 + 0.2 + 0.5 is 0.8 one way, 0.7999999999999999 the
        # other; with a negative weight beyond any tolerance: 1e8 + 0.7 - 1e8), as the dict
        # floyd_warshall refuses them
        raise NotImplementedError("nx_semiring: float weights whose path sums round "
                                  "(NetworkX's order of additions decides; NetworkX runs it)")
    if _negative_zeros(w):
        raise NotImplementedError("nx_semiring: -0.0 weights (the sign of NetworkX's zero "
                                  "distances is its own loop's; NetworkX runs it)")
    off = rows != cols
    if NX_RELEASE >= (3, 7) and bool((w[~off] < 0).any()):
        # NetworkX 3.7 reads the diagonal before setting it to 0 (before, a self-loop is
        # dropped with the diagonal, as below)
        raise _fw_negative_cycle()
    if bool(np.isneginf(w[off]).any()):
        # NetworkX's -inf + inf (a non-edge) is NaN, which its minimum() spreads through its
        # matrix; the engine's distances call -inf unreached
        raise NotImplementedError("nx_semiring: -inf weights (NetworkX's matrix fills with "
                                  "NaN; NetworkX runs it)")
    A = sr.Matrix.from_coo(sr.to_device(rows[off], g.device), sr.to_device(cols[off], g.device),
                           sr.to_device(w[off], g.device), nrows=n, ncols=n, device=g.device)
    try:
        D = _host(alg.apsp(A))
    except sr.NegativeCycleError as exc:  # (3.7 checks its diagonal after the pivots too)
        raise _fw_negative_cycle() from exc
    except sr.InvalidValue as exc:  # NaN weights: NetworkX's matrix of NaN sums
        raise NotImplementedError(f"nx_semiring: {exc} (NetworkX runs it)") from exc
    D = np.asarray(D, dtype=np.float64)
    if nodelist is not None:
        p = np.array([g.index[v] for v in nodelist], dtype=np.int64)
        D = D[np.ix_(p, p)]
    return D


# --------------------------------------------------------------------------- analytics
def _discovery(g, roots, depth_limit=np.inf, level=None) -> np.ndarray:
    """The vertices NetworkX's BFS from ``roots`` (vertex numbers, in order) reaches, in the
    order its queue discovers them: the roots, then each level of :func:`_ordered_levels`.
    From several roots in different components, each component's vertices come in the order
    of a search from its own root (the level-synchronous queue restricted to one component
    is that search's queue)."""
    out = [np.asarray(roots, dtype=np.int64)]
    searched = _queue(g, out[0], depth_limit)
    if searched is not None:
        return np.concatenate((out[0], searched[0]))
    for _, children in _ordered_levels(g, [int(r) for r in roots], depth_limit, level):
        out.append(np.asarray(children, dtype=np.int64))
    return np.concatenate(out)


def _sets_in_search_order(g, labels, walk=None, order=None) -> list:
    """Node sets by component (``labels``), in the order of each component's first vertex,
    each set built in the order NetworkX's ``_plain_bfs`` from that vertex inserts its nodes.

    A Python set's iteration order depends on its insertion order wherever two hashes
    collide in its table (strings: on PYTHONHASHSEED), and NetworkX's callers read these
    sets in that order (``arbitrary_element``, ``greedy_color``'s BFS roots, ``cuthill_mckee``,
    ``generate_network_text``): equal sets built in vertex order were not enough. ``walk``:
    the adjacency searched (``indptr``, ``adj``, ``n``), ``g``'s by default; ``order``: that
    search's discovery order where the caller has it.
    """
    if labels.size and bool(labels.min() == labels.max()):
        # one component (decided where the labels are: two reductions, no copy of them):
        # one search from vertex 0, no grouping
        if order is None:
            order = _discovery(g if walk is None else walk, np.zeros(1, dtype=np.int64))
        with _gc_paused():
            return [set(g.labels(order))]
    labels = _host(labels).astype(np.int64, copy=False)
    if not labels.size:
        return []
    _, first, comp = np.unique(labels, return_index=True, return_inverse=True)
    comp = comp.reshape(-1)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    comp = rank[comp]  # components numbered by their first vertex
    roots = np.sort(first)
    if order is None:
        order = _discovery(g if walk is None else walk, roots)
    seq = order[np.argsort(comp[order], kind="stable")]
    ends = np.cumsum(np.bincount(comp, minlength=first.size))
    starts = np.concatenate(([0], ends[:-1]))
    names = g.labels(seq)
    multi = np.flatnonzero(ends - starts > 1)
    with _gc_paused():
        if 2 * multi.size >= first.size:
            return [set(names[a:b]) for a, b in zip(starts.tolist(), ends.tolist())]
        # mostly one-vertex components (a Kronecker graph's isolated vertices: a third of
        # kron-18's nodes): `{v}` for every component, then the others replaced from their
        # slices; a slice and set() a singleton cost 2.2x the literal (58 -> 26 ms on kron-18's
        # 88 375 components, 2-core host)
        out = [{names[a]} for a in starts.tolist()]
        for i, a, b in zip(multi.tolist(), starts[multi].tolist(), ends[multi].tolist()):
            out[i] = set(names[a:b])
        return out


def _not_directed(g, name):
    nx = _nx()
    if g.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")


def _null_graph(g):
    """NetworkX's refusal of connectivity questions about a graph without nodes."""
    if g.n == 0:
        raise _nx().NetworkXPointlessConcept("Connectivity is undefined for the null graph.")


def _groups(g: SemiringGraph, labels):
    """Node sets by label, in label order, each set filled in vertex order.

    One group of every vertex (a connected graph) is ``set(g.nodes)``: its labels added in
    node order, as NetworkX adds them one by one. (Not a copy of a frozenset of the nodes,
    which is faster but copies the frozenset's table in slot order: where labels' hashes
    collide, a set iterating in another order than NetworkX's.) One-vertex groups (a Kronecker graph's
    isolated vertices: a third of kron-15's) are made directly as one-element sets; the
    others from one stable sort of their vertices by group (16-bit keys where there are at
    most 2^16 such groups: NumPy's radix sort), each set from a slice of the sorted labels.
    Building the sets is then most of the time (NetworkX's own ``connected_components``
    builds the same sets).
    """
    if labels.size and bool(labels.min() == labels.max()):
        # one group (a connected graph), decided where the labels are (two reductions on the
        # GPU, no copy of them)
        return [set(g.nodes)]
    labels = _host(labels).astype(np.int64, copy=False)
    if not labels.size:
        return []
    if int(labels.min()) < 0:
        labels = np.unique(labels, return_inverse=True)[1].reshape(-1)
    sizes = np.bincount(labels)
    if not sizes.all():  # unused numbers: renumber 0..k-1 in the same order
        labels = (np.cumsum(sizes > 0) - 1)[labels]
        sizes = sizes[sizes > 0]
    with _gc_paused():
        return _sets_by_label(g, labels, sizes)


def _sets_by_label(g, labels, sizes):
    # every group's set made from its first vertex in one comprehension (most groups of a
    # Kronecker graph are one vertex), then the groups of several vertices replaced, each
    # from a slice of their vertices sorted by group: no object arrays, one list
    single = sizes == 1
    alone = single[labels]
    first = np.empty(sizes.size, dtype=np.int64)
    sv = np.flatnonzero(alone)
    first[labels[sv]] = sv
    many = np.flatnonzero(~alone)
    multi = np.flatnonzero(~single)  # the groups of several vertices, in label order
    if many.size:
        if multi.size == 1:
            order = many
        else:
            key = (np.cumsum(~single) - 1)[labels[many]]
            if multi.size <= 1 << 16:
                key = key.astype(np.uint16)
            order = many[np.argsort(key, kind="stable")]
        ends = np.cumsum(sizes[multi])
        starts = ends - sizes[multi]
        first[multi] = order[starts]
    out = [{v} for v in g.labels(first)]
    if many.size:
        ordered = g.labels(order)
        for i, a, b in zip(multi.tolist(), starts.tolist(), ends.tolist()):
            out[i] = set(ordered[a:b])
    return out


def connected_components(G):
    """Sets of nodes, one per connected component, in the order of their first node, each
    built in NetworkX's BFS order (its iteration order, see :func:`_sets_in_search_order`).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.connected_components(nx.Graph([(0, 1), (2, 3)]), backend="semiring"))
    [{0, 1}, {2, 3}]
    """
    g = _graph(G)
    _not_directed(g, "connected_components")
    yield from _sets_in_search_order(g, alg.connected_components(g.matrix(), symmetric=True))


def number_connected_components(G):
    """The number of connected components.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_connected_components(nx.Graph([(0, 1), (2, 3)]), backend="semiring")
    2
    """
    g = _graph(G)
    _not_directed(g, "number_connected_components")
    if g.n == 0:
        return 0
    return int(_host(alg.connected_components(g.matrix(), symmetric=True)).max()) + 1


def is_connected(G):
    """Whether the graph is connected (NetworkXPointlessConcept for the null graph).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_connected(nx.path_graph(3), backend="semiring")
    True
    """
    g = _graph(G)
    _not_directed(g, "is_connected")
    _null_graph(g)
    return number_connected_components(g) == 1


def strongly_connected_components(G):
    """Sets of nodes, one per strongly connected component, in NetworkX's order: its Tarjan
    search's, which yields the components as it completes them and builds each set in its
    own order (``condensation``, ``attracting_components`` and ``simple_cycles`` read both,
    and a set's iteration order follows its insertion order where hashes collide). That
    search is sequential, so it runs as the CPU backend's compiled replica of NetworkX's
    loop (:func:`semiring.backend.cpu.compiled.tarjan`), not as the engine's parallel
    components, whose order is not NetworkX's; without Numba NetworkX runs it.

    Examples
    --------
    >>> import networkx as nx
    >>> from nx_semiring import algorithms
    >>> G = nx.DiGraph([(0, 1), (1, 0), (1, 2)])
    >>> list(algorithms.strongly_connected_components(G))
    [{2}, {0, 1}]
    """
    nx = _nx()
    g = _graph(G)
    if not g.directed:
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    members, starts = _tarjan(g, "strongly_connected_components")
    names = g.labels(members)
    with _gc_paused():
        comps = [set(names[a:b]) for a, b in zip(starts[:-1].tolist(), starts[1:].tolist())]
    yield from comps


def _tarjan(g: SemiringGraph, name: str):
    """The installed NetworkX's Tarjan search over g (3.7 changed it), as
    :func:`semiring.backend.cpu.compiled.tarjan` replicates it: ``(members, starts)``, the
    strong components in its completion order, each one's vertices in the order its set gets
    them. NotImplementedError without Numba (NetworkX runs ``name``: its order is a
    sequential search's, which no engine order reproduces)."""
    variant = "tarjan_zwick" if NX_RELEASE >= (3, 7) else "nuutila"
    found = _cpu_compiled.tarjan(g.indptr, g.adj, variant)
    if found is None:
        raise NotImplementedError(f"nx_semiring: {name} follows NetworkX's sequential Tarjan "
                                  f"order with the CPU backend's compiled loop, which needs "
                                  f"Numba (the cpu extra): NetworkX runs it")
    return found


def _unit_weights(g: SemiringGraph, weight) -> bool:
    """Whether every edge weighs NetworkX's default 1 for ``weight``: ``weight=None``, or an
    attribute no edge has. A conversion that lacks the attribute serves only where it kept
    every edge's dict (NetworkX reuses a conversion with all attributes for a call that asks
    for one; an attribute that was not numeric is not among its values) and no edge has it;
    else NotImplementedError (NetworkX runs it), never a silently unweighted answer."""
    if weight is None:
        return True
    if weight in g.values:
        return False
    if g.edge_data is not None and not g.multigraph and \
            not any(weight in d for d in g.edge_data):
        return True
    raise NotImplementedError(f"nx_semiring: edge attribute {weight!r} was not converted as "
                              f"numbers (convert with edge_attrs={{{weight!r}: 1}}, or pass "
                              f"weight=None for unit weights)")


def _node_weights(g, d, name):
    """A dict {node: weight} as an array over the vertices (missing nodes weigh 0)."""
    if d is None:
        return None
    return np.array([d.get(v, 0) for v in g.nodes], dtype=np.float64)


def _row_sums_overflow(g: SemiringGraph, weight) -> bool:
    """Whether a vertex's out-edge weights (float) may sum past the largest float."""
    w = g.weights(weight)
    if w.dtype.kind != "f" or not w.size:
        return False
    deg = int(np.diff(g.indptr).max())
    return float(np.max(np.abs(w), where=np.isfinite(w), initial=0)) * deg >= FLOAT_MAX


def _row_sums_reciprocal_overflow(g: SemiringGraph, weight) -> bool:
    """Whether a vertex's out-edge weights (float) sum to a nonzero value whose reciprocal
    overflows (below 2**-1024: subnormal weights). NetworkX scales its rows by ``1.0 / S``,
    inf there, so inf times the weights makes NaN or inf ranks and it raises
    PowerIterationFailedConvergence, where the engine divides and converges."""
    w = g.weights(weight)
    if w.dtype.kind != "f" or not w.size:
        return False
    sums = np.bincount(g.rows(), weights=w.astype(np.float64), minlength=g.n)
    nonzero = sums[sums != 0]
    with np.errstate(divide="ignore", over="ignore"):
        return bool(np.isinf(1.0 / nonzero[np.isfinite(nonzero)]).any())


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None,
             weight="weight", dangling=None):
    """{node: PageRank} by the engine's power iteration (NetworkX's definition and stopping
    rule; PowerIterationFailedConvergence after ``max_iter``).

    Examples
    --------
    >>> import networkx as nx
    >>> pr = nx.pagerank(nx.DiGraph([(0, 1), (1, 2), (2, 0)]), backend="semiring")
    >>> [round(pr[v], 6) for v in range(3)]
    [0.333333, 0.333333, 0.333333]
    """
    nx = _nx()
    g = _graph(G, weight)
    if g.n == 0:
        return {}
    p = _node_weights(g, personalization, "personalization")
    if p is not None and p.sum() == 0:
        raise ZeroDivisionError
    x0 = _node_weights(g, nstart, "nstart")
    u = _node_weights(g, dangling, "dangling")
    if weight is not None and weight in g.values and g.loop_negation_wraps(weight):
        raise NotImplementedError("nx_semiring: pagerank: NetworkX's matrix of these NumPy "
                                  "integer self-loop weights negates them in their own type "
                                  "(to_scipy_sparse_array; it wraps or raises): NetworkX runs it")
    M = g.matrix() if _unit_weights(g, weight) else g.matrix(weight)
    if weight is not None and weight in g.values and _row_sums_overflow(g, weight):
        raise NotImplementedError("nx_semiring: pagerank of float weights whose row sums may "
                                  "pass the largest float (NetworkX's 1 / inf makes such a "
                                  "row dangling; NetworkX runs it)")
    if weight is not None and weight in g.values and _row_sums_reciprocal_overflow(g, weight):
        raise NotImplementedError("nx_semiring: pagerank of float weights whose row sums' "
                                  "reciprocals overflow (NetworkX's 1.0 / S is inf there: its "
                                  "ranks turn NaN and it raises PowerIterationFailedConvergence; "
                                  "NetworkX runs it)")
    try:
        x = alg.pagerank(M, alpha, personalization=p, tol=tol, max_iter=max_iter, nstart=x0,
                         dangling=u, weighted=weight is not None)
    except alg.ConvergenceError as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    except (sr.InvalidValue, sr.DomainMismatch) as exc:
        raise NotImplementedError(f"nx_semiring: pagerank: {exc}") from exc
    return _node_dict(g, _host(x).tolist())


def _sampled_sources(g, k, seed, name, whole=True):
    """(k, seed, sources) for the engine's betweenness of ``g`` as NetworkX samples ``k``
    sources with ``seed``: k = n is every source (``whole``: NetworkX's betweenness skips its
    draw there; its edge betweenness draws all n, ``whole=False``, from the caller's
    generator, whose state the caller then sees advanced); a NumPy RandomState or Generator
    seed draws NetworkX's own sources here (sources given, k and seed None)."""
    if k is not None and k == g.n and (whole or not hasattr(seed, "sample")):
        k = None
    if k is not None and not 0 <= k <= g.n:
        raise ValueError("Sample larger than population or is negative")  # random.sample's
    if k == 0:
        raise NotImplementedError(f"nx_semiring: {name} with k=0")
    sources = None
    if k is not None and seed is not None and hasattr(seed, "sample") and (
            k == g.n or not isinstance(seed, (numbers.Integral, random.Random))):
        # NetworkX's py_random_state wraps a NumPy RandomState or Generator (its
        # PythonRandomInterface), and edge betweenness draws all n too: NetworkX's own
        # draw, the same call on the same labels, leaving the generator as NetworkX does
        sources = np.fromiter((g.vertex(v) for v in seed.sample(list(g.nodes), k)),
                              dtype=np.int64)
        k = seed = None
    return k, seed, sources


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    """{node: betweenness} by the engine's batched Brandes (unweighted; NetworkX's sampling
    and rescaling, so ``k``/``seed`` pick NetworkX's sources).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.betweenness_centrality(nx.path_graph(3), backend="semiring")
    {0: 0.0, 1: 1.0, 2: 0.0}
    """
    g = _graph(G)
    if weight is not None:
        raise NotImplementedError("nx_semiring: weighted betweenness is not supported")
    if g.self_unequal:
        raise NotImplementedError("nx_semiring: betweenness_centrality of a graph with a node "
                                  "unequal to itself (NaN): NetworkX's w != s counts such a "
                                  "source's own dependency (NetworkX runs it)")
    k, seed, sources = _sampled_sources(g, k, seed, "betweenness_centrality")
    try:
        # NetworkX reads normalized and endpoints by their truth (its "if normalized:")
        bc = alg.betweenness_centrality(g.matrix(), k=k, normalized=bool(normalized),
                                        endpoints=bool(endpoints),
                                        seed=seed if k is not None else None,
                                        sources=sources, directed=g.directed)
    except sr.DomainMismatch as exc:
        raise NotImplementedError(f"nx_semiring: betweenness_centrality: {exc}") from exc
    return _node_dict(g, _host(bc).tolist())


class _Nodes:
    """The two things NetworkX's ``Graph.nbunch_iter`` reads of a graph (``in`` and
    ``_adj``'s keys), so that the backend's node lists are NetworkX's own: the nodes of
    ``nodes`` in G in its order, and its NetworkXError for a non-iterable or an unhashable
    node, with its messages."""

    def __init__(self, g):
        self._g = g
        self._adj = g.index

    def __contains__(self, node):
        return node in self._g


def _nbunch(g, nodes):
    return list(_nx().Graph.nbunch_iter(_Nodes(g), nodes))


def triangles(G, nodes=None):
    """{node: triangles through it} (or one count when ``nodes`` is a node), by the engine's
    masked SpGEMM.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.triangles(nx.complete_graph(4), backend="semiring")
    {0: 3, 1: 3, 2: 3, 3: 3}
    """
    nx = _nx()
    g = _graph(G)
    _not_directed(g, "triangles")
    if nodes is not None and g.multigraph:
        # NetworkX counts a multigraph's triangles for nodes=None only; for given nodes its
        # helper (_triangles_and_degree_iter) is not implemented for multigraphs
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    t = _host(alg.triangles(g.matrix())).tolist() if g.n else []
    if nodes is None:
        return _node_dict(g, t)
    if nodes in g:
        return t[g.index[nodes]]
    return {v: t[g.index[v]] for v in _nbunch(g, nodes)}


def clustering(G, nodes=None, weight=None):
    """{node: clustering coefficient} (or one value when ``nodes`` is a node), unweighted,
    directed (Fagiolo) or not, by the engine's masked SpGEMM.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.clustering(nx.complete_graph(3), backend="semiring")
    {0: 1.0, 1: 1.0, 2: 1.0}
    """
    g = _graph(G)
    if weight is not None:
        raise NotImplementedError("nx_semiring: weighted clustering is not supported")
    c = _host(alg.clustering(g.matrix(), directed=g.directed)).tolist() if g.n else []
    c = [0 if x == 0 else x for x in c]
    if nodes in g:
        return c[g.index[nodes]]
    if nodes is None:
        return _node_dict(g, c)
    return {v: c[g.index[v]] for v in _nbunch(g, nodes)}


def _self_loops(g) -> bool:
    rows = g.rows()
    return bool((rows == g.adj).any())


def core_number(G):
    """{node: core number} by the engine's peeling.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.core_number(nx.complete_graph(4), backend="semiring")
    {0: 3, 1: 3, 2: 3, 3: 3}
    """
    nx = _nx()
    g = _graph(G)
    if _self_loops(g):
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; Consider using "
            "G.remove_edges_from(nx.selfloop_edges(G)).")
    if g.directed and g.adj.size:
        # NetworkX counts a reciprocated pair u → v, v → u twice; the engine's undirected
        # view once
        rows = g.rows()
        if np.isin(rows * g.n + g.adj, g.adj * g.n + rows).any():
            raise NotImplementedError("nx_semiring: core_number of a DiGraph with reciprocal "
                                      "edges (NetworkX counts them twice)")
    core = _host(alg.core_number(g.matrix())).tolist() if g.n else []
    return _node_dict(g, core)


def _int_seed(seed):
    if seed is None or isinstance(seed, numbers.Integral):
        return seed
    if isinstance(seed, random.Random):
        return seed.getrandbits(32)
    raise NotImplementedError(f"nx_semiring: seed of type {type(seed).__name__}")


def louvain_communities(G, weight="weight", resolution=1, threshold=1e-07, max_level=None,
                        seed=None):
    """A list of node sets, the communities of the engine's Louvain (NetworkX's gain and
    stopping rules; local moves in parallel, so the partition may differ from NetworkX's,
    whose result depends on its random visiting order too).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.barbell_graph(4, 0)
    >>> sorted(map(sorted, nx.community.louvain_communities(G, backend="semiring")))
    [[0, 1, 2, 3], [4, 5, 6, 7]]

    With a ``seed`` NetworkX runs the call (``can_run``): a seed asks for NetworkX's own
    partition for it, which the engine's parallel moves do not reproduce.
    """
    g = _graph(G, weight)
    if max_level is not None:
        if max_level <= 0:
            raise ValueError("max_level argument must be a positive integer or None")
        # NetworkX's islice(..., max_level): an integer up to sys.maxsize
        if not isinstance(max_level, numbers.Integral) or max_level > sys.maxsize:
            raise ValueError("Stop argument for islice() must be None or an integer: "
                             "0 <= x <= sys.maxsize.")
    if g.directed:
        raise NotImplementedError("nx_semiring: louvain_communities of a directed graph")
    if g.n == 0:
        return []
    if weight is not None and g.narrow.get(weight) is not None and g.narrow[weight].kind != "b":
        # NetworkX's degrees and gains are sums of these NumPy scalars in their own type
        # (rounded, wrapped, or OverflowError beside a large Python int)
        raise NotImplementedError(f"nx_semiring: louvain_communities of NumPy "
                                  f"{g.narrow[weight]} weights (NetworkX runs it)")
    M = g.matrix(None, unit=1) if _unit_weights(g, weight) else g.matrix(weight)
    total = float(sr.reduce_scalar(M, "plus")) if M.nvals else None
    if total == 0:
        # edges of total weight 0: NetworkX's modularity divides by it (ZeroDivisionError)
        # before 3.7; 3.7's gains are then its null-model terms alone, in its shuffled order
        raise NotImplementedError("nx_semiring: louvain_communities of edges weighing 0 in "
                                  "all (NetworkX runs it)")
    if total is not None and not LOUVAIN_TOTAL_RANGE[0] <= abs(total) <= LOUVAIN_TOTAL_RANGE[1]:
        raise NotImplementedError(f"nx_semiring: louvain_communities of edges weighing "
                                  f"{total:.4g} in all (NetworkX's squares of its totals "
                                  f"overflow or vanish: it raises OverflowError or "
                                  f"ZeroDivisionError; NetworkX runs it)")
    try:
        # NetworkX's threshold is between levels; its sweeps go on until nobody moves, which
        # the engine's sweeps (parallel on the GPU, sequential on a CPU with Numba) approach
        # with its default 1e-7 (see alg.louvain)
        labels = alg.louvain(M, resolution, seed=_int_seed(seed), threshold=threshold,
                             max_level=max_level,
                             sweep_threshold=LOUVAIN_SWEEP_THRESHOLD)
    except (sr.InvalidValue, sr.DomainMismatch) as exc:
        raise NotImplementedError(f"nx_semiring: louvain_communities: {exc}") from exc
    return _groups(g, labels)


# NetworkX's names of its spanning-tree algorithms (networkx.algorithms.tree.mst.ALGORITHMS:
# Borůvka's with and without its diacritic)
SPANNING_ALGORITHMS = ("kruskal", "prim", "boruvka", "borůvka")


def _spanning_graph(G) -> SemiringGraph:
    """G converted with every node, edge and graph attribute (what NetworkX's dispatcher
    converts for the spanning-tree functions: ``preserve_all_attrs``)."""
    if isinstance(G, SemiringGraph):
        return G
    return from_networkx(G, preserve_edge_attrs=True, preserve_node_attrs=True,
                         preserve_graph_attrs=True)


def _spanning_edges(g: SemiringGraph, weight, algorithm, ignore_nan, minimum=True):
    """The positions in ``g.adj`` (host int64) of the edges of the minimum (or maximum)
    spanning forest NetworkX's Kruskal picks, in the order Kruskal adds them.

    Kruskal sorts G.edges() by weight, stably (``reverse=True`` for the maximum, which keeps
    equal weights in edge order too), and takes each edge that joins two trees. The engine's
    Borůvka runs on the ranks of the edges in that order, which are distinct, so its forest
    is the unique one of the ranks: Kruskal's. ``'prim'`` and ``'boruvka'``:
    NotImplementedError (their forest is Kruskal's where no weights tie, but NetworkX lists
    its edges in their search's order; NetworkX runs them). NaN weights: NotImplementedError where NetworkX
    raises its ValueError; left out with ``ignore_nan`` as NetworkX leaves them out.
    """
    nx = _nx()
    if g.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if algorithm not in SPANNING_ALGORITHMS:
        raise ValueError(f"{algorithm} is not a valid choice for an algorithm.")
    if g.multigraph:
        raise NotImplementedError("nx_semiring: spanning trees of a multigraph (its edge keys) "
                                  "are NetworkX's")
    rows = g.rows()
    # NetworkX's G.edges(): each edge once, from its earlier node, in adjacency order
    sel = np.flatnonzero(g.adj >= rows)
    if weight in g.values:
        w = g.values[weight][sel]
    elif g.edge_data is not None and any(weight in g.edge_data[e] for e in sel.tolist()):
        raise NotImplementedError(f"nx_semiring: edge attribute {weight!r} is not numeric")
    elif g.edge_data is None and weight is not None:
        raise NotImplementedError(f"nx_semiring: edge attribute {weight!r} was not converted")
    else:  # no edge has it: NetworkX's d.get(weight, 1)
        w = np.ones(sel.size, dtype=np.int64)
    narrow = g.narrow.get(weight)
    if narrow is not None and narrow.kind in "fc" and (g.edge_data is None or not all(
            isinstance(g.edge_data[e].get(weight, 1), np.generic) for e in sel.tolist())):
        # Kruskal's sort compares a float32 (float16) scalar with a Python number in the
        # narrow type (NumPy's weak Python scalars: np.float32(0.1) == 0.1), where the
        # float64 values here tell them apart: another order of ties, another forest
        raise NotImplementedError(f"nx_semiring: NumPy {narrow} weights beside Python "
                                  f"numbers compare in {narrow} (NetworkX runs it)")
    if w.dtype.kind == "f" and np.isnan(w).any():
        if not ignore_nan:
            raise NotImplementedError("nx_semiring: NaN weight (NetworkX raises its error)")
        sel, w = sel[~np.isnan(w)], w[~np.isnan(w)]
    if algorithm != "kruskal":  # prim, boruvka, borůvka
        # the same forest as Kruskal's where no weights tie, but NetworkX lists its edges (the
        # generators' order, the tree's list(T.edges) and adjacency order) in the order its
        # Prim or Borůvka finds them, which the engine's forest does not give
        raise NotImplementedError(f"nx_semiring: {algorithm} lists its edges in its own "
                                  f"search's order (NetworkX runs it)")
    loop = g.adj[sel] == rows[sel]
    if minimum:
        kruskal = np.argsort(w, kind="stable")   # Kruskal's order of the edges sel[...]
    else:
        # decreasing weight, equal weights in edge order (sorted(..., reverse=True) is
        # stable): the stable ascending order of the reversed weights, read backwards
        # (no negation, which would wrap the smallest int64)
        kruskal = (w.size - 1 - np.argsort(w[::-1], kind="stable"))[::-1]
    rank = np.empty(sel.size, dtype=np.int64)
    rank[kruskal] = np.arange(1, sel.size + 1)
    keep = ~loop
    u, v, r = rows[sel][keep], g.adj[sel][keep], rank[keep]
    if not g.n or not r.size:
        return np.zeros(0, dtype=np.int64)
    dev = g.device
    A = sr.Matrix.from_coo(sr.to_device(np.concatenate([u, v]), dev),
                           sr.to_device(np.concatenate([v, u]), dev),
                           sr.to_device(np.concatenate([r, r]), dev), nrows=g.n, ncols=g.n,
                           device=dev)
    F = alg.minimum_spanning_forest(A)
    if not F.nvals:
        return np.zeros(0, dtype=np.int64)
    _, _, ranks = F.to_coo()
    chosen = np.sort(_host(ranks).astype(np.int64)) - 1   # Kruskal's order
    return sel[kruskal[chosen]]


def _spanning_tree(g: SemiringGraph, edges):
    """NetworkX's tree of the forest edges ``edges`` (positions in ``g.adj``, in the order
    NetworkX adds them): G's class, graph attributes, nodes with theirs, the edges with
    their attribute dicts."""
    T = (g.nx_class or _nx().Graph)()  # NetworkX's G.__class__(): a subclass stays one
    T.graph.update(g.graph)
    if g.node_data is not None:
        T.add_nodes_from(zip(g.nodes, g.node_data))
    else:
        T.add_nodes_from(g.nodes)
    rows = g.rows()
    nodes, data = g.nodes, g.edge_data
    T.add_edges_from((nodes[rows[e]], nodes[g.adj[e]], data[e]) for e in edges.tolist())
    return T


def minimum_spanning_tree(G, weight="weight", algorithm="kruskal", ignore_nan=False):
    """A minimum spanning forest as a NetworkX graph with G's node, edge and graph attributes,
    by the engine's Borůvka. Equal to NetworkX's Kruskal tree: the engine runs on the ranks of
    the edges in Kruskal's order (weight, then NetworkX's edge order), which are distinct, so
    the forest is unique and is the one Kruskal picks. ``'prim'`` and ``'boruvka'`` are left
    to NetworkX (its tree lists their edges in their search's order).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(4)
    >>> G.add_edge(0, 3, weight=5)
    >>> sorted(nx.minimum_spanning_tree(G, backend="semiring").edges(data=True))
    [(0, 1, {}), (1, 2, {}), (2, 3, {})]
    """
    g = _spanning_graph(G)
    edges = _spanning_edges(g, weight, algorithm, ignore_nan)
    if g.edge_data is None:
        raise NotImplementedError("nx_semiring: minimum_spanning_tree needs a graph converted "
                                  "with its edge attributes")
    return _spanning_tree(g, edges)
