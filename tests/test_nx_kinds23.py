"""Input kinds of session 23 (nx23, issue 17): the types of NetworkX's path sums, bool weights
in Floyd–Warshall, and the order of weighted searches to a target of a directed graph.

Found by ``bench/probes/nx23_input_kinds.py`` (NetworkX's answers compared with the backend's
by value, number type, container type and order). Each answer must be NetworkX's, number
types included (``repr`` tells an ``np.int64`` or a float from an int), or the call falls
back to NetworkX.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_semiring import algorithms as nxa  # noqa: E402
from nx_semiring import paths as nxp  # noqa: E402

from test_nx_inputs import convert  # noqa: E402
from test_nx_inputs4 import semiring_first  # noqa: E402, F401  (a fixture)


def _typed(x):
    """repr of x with its dicts' items and their values' types (dict order kept)."""
    if isinstance(x, dict):
        return [(k, _typed(v)) for k, v in x.items()]
    if isinstance(x, (list, tuple)):
        return [_typed(v) for v in x]
    return (type(x).__name__, repr(x))


def _as_networkx_or_refused(f_nx, f_sr):
    """f_sr's answer equals f_nx's, types and order included, or f_sr refuses; True where it
    answered."""
    want = _typed(f_nx())
    try:
        got = f_sr()
    except NotImplementedError:
        return False
    assert _typed(got) == want
    return True


def _ints_beside_inf(cls):
    G = cls()
    G.add_edge("a", "b", weight=1)
    G.add_edge("b", "c", weight=2)
    G.add_edge("a", "d", weight=math.inf)
    return G


def _floats_beside_missing(cls):
    G = cls()
    G.add_edge("a", "b")  # NetworkX's weight 1, an int
    G.add_edge("b", "c", weight=0.5)
    G.add_edge("a", "d", weight=2.5)
    return G


def _numpy_ints(cls):
    G = cls()
    G.add_edge("a", "b", weight=np.int64(3))
    G.add_edge("b", "c", weight=np.int64(2))
    G.add_edge("c", "d", weight=1)
    return G


def _numpy_bools(cls):
    G = cls()
    nx.add_path(G, "abcd")
    nx.set_edge_attributes(G, np.True_, "weight")
    return G


KINDS = {"ints_beside_inf": _ints_beside_inf, "floats_beside_missing": _floats_beside_missing,
         "numpy_ints": _numpy_ints, "numpy_bools": _numpy_bools}
SUMS = {
    "single_source_dijkstra_path_length": (
        lambda G: nx.single_source_dijkstra_path_length(G, "a"),
        lambda g: nxa.single_source_dijkstra_path_length(g, "a")),
    "single_source_dijkstra": (
        lambda G: nx.single_source_dijkstra(G, "a")[0],
        lambda g: nxa.single_source_dijkstra(g, "a")[0]),
    "single_source_bellman_ford_path_length": (
        lambda G: nx.single_source_bellman_ford_path_length(G, "a"),
        lambda g: nxa.single_source_bellman_ford_path_length(g, "a")),
    "all_pairs_dijkstra_path_length": (
        lambda G: dict(nx.all_pairs_dijkstra_path_length(G)),
        lambda g: dict(nxp.all_pairs_dijkstra_path_length(g))),
    "multi_source_dijkstra_path_length": (
        lambda G: nx.multi_source_dijkstra_path_length(G, ["a"]),
        lambda g: nxp.multi_source_dijkstra_path_length(g, ["a"])),
    "floyd_warshall": (
        lambda G: {k: dict(v) for k, v in nx.floyd_warshall(G).items()},
        lambda g: {k: dict(v) for k, v in nxp.floyd_warshall(g).items()}),
    "dijkstra_path_length": (
        lambda G: nx.dijkstra_path_length(G, "a", "c"),
        lambda g: nxa.dijkstra_path_length(g, "a", "c")),
}


@pytest.mark.parametrize("name", sorted(SUMS))
@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiGraph])
def test_path_sums_have_networkx_types_or_are_refused(device, name, kind, cls):
    """Before: ints beside inf (stored as float64) came back as floats where NetworkX's sums
    of ints are ints ({'a': 0, 'b': 1, 'c': 3} against {'a': 0, 'b': 1.0, 'c': 3.0}); floats
    beside edges without the attribute likewise; NumPy int64 (and bool) weights as Python
    ints where NetworkX's sums are np.int64."""
    G = KINDS[kind](cls)
    f_nx, f_sr = SUMS[name]
    try:
        g = convert(G, device)
    except NotImplementedError:
        return
    _as_networkx_or_refused(lambda: f_nx(G), lambda: f_sr(g))


@pytest.mark.parametrize("name", ["single_source_dijkstra_path_length",
                                  "all_pairs_dijkstra_path_length", "floyd_warshall"])
def test_python_ints_and_floats_are_still_answered(device, name):
    """Weights of one Python type are answered (the refusal is only for the mixes)."""
    for value in (2, 2.5):
        G = nx.path_graph(4)
        nx.set_edge_attributes(G, value, "weight")
        f_nx, f_sr = SUMS[name]
        assert _as_networkx_or_refused(lambda: f_nx(nx.relabel_nodes(G, dict(zip(range(4),
                                                                             "abcd")))),
                                       lambda: f_sr(convert(nx.relabel_nodes(
                                           G, dict(zip(range(4), "abcd"))), device)))


def test_negative_edge_cycle_still_answers_numpy_weights(device):
    """A truth value: the NumPy sums' types do not matter there."""
    G = _numpy_ints(nx.DiGraph)
    assert nxa.negative_edge_cycle(convert(G, device)) is nx.negative_edge_cycle(G) is False


@pytest.mark.parametrize("name", ["floyd_warshall", "floyd_warshall_predecessor_and_distance"])
@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiGraph])
def test_floyd_warshall_of_python_bool_weights_is_networkx(semiring_first, name, cls):
    """NetworkX's Floyd–Warshall starts from each edge's weight object: True where the edge is
    the shortest path. Before: the backend's 1."""
    G = cls()
    nx.add_cycle(G, range(4), weight=True)
    G.add_edge(0, 2, weight=False)
    f = getattr(nx, name)
    want = f(G, backend="networkx")
    got = f(G)
    dist = (lambda r: r if name == "floyd_warshall" else r[1])
    assert _typed({k: dict(v) for k, v in dist(got).items()}) == \
        _typed({k: dict(v) for k, v in dist(want).items()})


def _pred_order_digraph():
    D = nx.DiGraph()
    D.add_nodes_from(range(5))
    # 4's predecessors in G._pred's order: 3, then 2, then 1 (not vertex order); equal
    # weights, so NetworkX's Dijkstra over G.reverse() pops them in that order
    D.add_edges_from([(3, 4), (2, 4), (1, 4), (0, 1), (0, 2), (0, 3)], weight=1)
    return D


@pytest.mark.parametrize("method", ["dijkstra", "bellman-ford"])
def test_weighted_search_to_a_target_of_a_digraph_is_networkx(semiring_first, method):
    """shortest_path(G, target=t, weight=...) of a directed graph is NetworkX's search over
    G.reverse(), scanning G._pred in its insertion order. Before: shortest_path_length's
    dict in the engine's vertex order, {4: 0, 1: 1, 2: 1, 3: 1, 0: 2} against NetworkX's
    {4: 0, 3: 1, 2: 1, 1: 1, 0: 2} (both methods; shortest_path was refused there for its
    ties, and answered in vertex order where paths were unique)."""
    D = _pred_order_digraph()
    for f in (nx.shortest_path, nx.shortest_path_length):
        want = f(D, target=4, weight="weight", method=method, backend="networkx")
        got = f(D, target=4, weight="weight", method=method)
        assert _typed(dict(got)) == _typed(dict(want))


@pytest.mark.parametrize("name", ["floyd_warshall", "floyd_warshall_predecessor_and_distance"])
@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiGraph])
@pytest.mark.parametrize("loop", [0.0, 0, 1.5])
def test_floyd_warshall_diagonal_of_a_zero_float_self_loop(semiring_first, name, cls, loop):
    """NetworkX's dist[u][u] is min(loop weight, 0): the loop's 0.0 where it weighs a float
    zero. Before: the backend's int 0."""
    G = cls()
    G.add_edge("a", "b", weight=0.5 if loop != 0 or isinstance(loop, float) else 1)
    G.add_edge("a", "a", weight=loop)
    f = getattr(nx, name)
    want = f(G, backend="networkx")
    got = f(G)
    dist = (lambda r: r if name == "floyd_warshall" else r[1])
    assert _typed({k: dict(v) for k, v in dist(got).items()}) == \
        _typed({k: dict(v) for k, v in dist(want).items()})
