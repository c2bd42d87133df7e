"""The NetworkX backend, third adversarial audit (session 18): inputs found by the driver
``bench/probes/nxa13_audit.py`` against NetworkX 3.6.1: iterator arguments the backend read
before refusing, a NaN node label, float path sums past the largest float, -inf weights,
NumPy bool weights, and paths to a target of a directed graph.

The rule, as in ``test_nx_inputs.py``: the backend answers as NetworkX does (to the repr:
values, number types, key order, its exceptions with their messages), or it refuses
(``NotImplementedError`` from the call, or ``can_run``) so that NetworkX runs the call.
Never a different answer.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_semiring import algorithms as nxa  # noqa: E402
from nx_semiring import paths as nxp  # noqa: E402
from nx_semiring.interface import BackendInterface  # noqa: E402

from test_nx_inputs import convert  # noqa: E402
from test_nx_inputs4 import semiring_first  # noqa: E402, F401  (a fixture)

INF, NAN = float("inf"), float("nan")


def _drained(r):
    if hasattr(r, "__next__"):
        return [_drained(x) for x in r]
    return r


def _run(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return "ok", repr(_drained(call()))
        except NotImplementedError:
            return "refused", None
        except Exception as exc:  # noqa: BLE001 (compared by type and message)
            return "raised", (type(exc).__name__, str(exc))


def _dispatched(make_call):
    """``make_call()`` builds a fresh call (fresh iterators): once through plain NetworkX
    (``backend_priority`` cleared, so NetworkX's inner dispatched calls are NetworkX's), once
    with the backend preferred (semiring_first): the same repr."""
    prio = nx.config.backend_priority
    saved, prio.algos = prio.algos, []
    try:
        expected = _run(make_call())
    finally:
        prio.algos = saved
    got = _run(make_call())
    assert got == expected
    return expected


def _items(x):
    """Dicts as sorted (key, value) lists, recursively (orders documented as the engine's)."""
    if isinstance(x, dict):
        return sorted((k, _items(v)) for k, v in x.items())
    if isinstance(x, tuple):
        return tuple(map(_items, x))
    return x


def _as_networkx_or_refused(nx_call, our_call):
    expected = _run(nx_call)
    got = _run(our_call)
    assert expected[0] != "refused"
    if got[0] != "refused":
        assert got == expected
    return got[0] != "refused"


# --------------------------------------------------------------------------- iterators
def _float_graph():
    return nx.Graph([(0, 2, {"weight": 1.5}), (1, 2, {"weight": 2.5}), (1, 3, {"weight": 0.5}),
                     (0, 3, {"weight": 1})])


@pytest.mark.parametrize("parts", [[{0, 2}, {1, 3}], [{0, 2}, {1}]])
def test_modularity_of_a_generator_of_communities_is_networkx(semiring_first, parts):
    """The backend read the generator, then refused (float weights, not a partition): NetworkX
    got it exhausted. Before: NotAPartition of [] (NetworkX: -0.1528..., or NotAPartition
    naming the communities)."""
    G = _float_graph()
    _dispatched(lambda: lambda: nx.community.modularity(G, (c for c in parts)))
    _dispatched(lambda: lambda: nx.community.modularity(G, map(set, parts)))


def test_can_run_leaves_one_pass_arguments_to_networkx():
    G = nx.Graph([(0, 1)])
    for name, args, kw in [("modularity", (G, iter([{0, 1}])), {}),
                           ("hopcroft_karp_matching", (G,), {"top_nodes": iter([0])}),
                           ("minimum_weight_full_matching", (G,), {"top_nodes": iter([0])}),
                           ("eccentricity", (G,), {"v": iter([0])})]:
        assert isinstance(BackendInterface.can_run(name, args, kw), str)
        assert BackendInterface.can_run(name, args, {k: list(v) for k, v in kw.items()}) \
            is True or name == "modularity"
    assert BackendInterface.can_run("modularity", (G, [{0, 1}]), {}) is True


@pytest.mark.parametrize("top", [[0, 1], [1, 0]])
def test_matchings_read_an_iterator_of_top_nodes_once(device, top):
    """_bipartite_sides and _side_orders each built set(top_nodes): the second found the
    iterator exhausted. Before: InvalidIndex (hopcroft_karp_matching) and NetworkXError
    'row_order is empty list' (minimum_weight_full_matching)."""
    H = nx.Graph([(0, 2), (1, 2), (1, 3)])  # one maximum matching
    h = convert(H, device, None)
    assert _as_networkx_or_refused(
        lambda: nx.bipartite.hopcroft_karp_matching(H, top_nodes=iter(top)),
        lambda: nxp.hopcroft_karp_matching(h, top_nodes=iter(top)))
    B = nx.Graph([(0, 2, {"weight": 1}), (0, 3, {"weight": 4}), (1, 2, {"weight": 2}),
                  (1, 3, {"weight": 3})])  # one cheapest full matching
    g = convert(B, device)
    assert _as_networkx_or_refused(
        lambda: nx.bipartite.minimum_weight_full_matching(B, top_nodes=iter(top)),
        lambda: nxp.minimum_weight_full_matching(g, top_nodes=iter(top)))


@pytest.mark.parametrize("top", [[0, 1], [0, 1, 9], [0, 9], [0, 1, 2]])
def test_matchings_with_an_iterator_of_top_nodes_are_networkx(semiring_first, top):
    """A stranger in top_nodes: the backend read the iterator and refused, NetworkX got it
    empty. Before: {} where NetworkX raises KeyError, 'row_order is empty list' where it
    answers."""
    B = nx.Graph([(0, 2, {"weight": 1}), (0, 3, {"weight": 4}), (1, 2, {"weight": 2}),
                  (1, 3, {"weight": 3})])
    _dispatched(lambda: lambda: nx.bipartite.hopcroft_karp_matching(B, top_nodes=iter(top)))
    _dispatched(lambda: lambda: nx.bipartite.minimum_weight_full_matching(
        B, top_nodes=iter(top)))


def test_eccentricity_of_an_iterator_of_nodes_is_networkx(semiring_first):
    """Negative weights: the backend read v, then refused Dijkstra. Before: {} (NetworkX:
    {0: 2, 1: 2})."""
    N = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1}), (2, 0, {"weight": 3})])
    got = _dispatched(lambda: lambda: nx.eccentricity(N, v=iter([0, 1]), weight="weight"))
    assert got[0] == "ok"


# --------------------------------------------------------------------------- NaN label
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("place", [0, 2])
def test_betweenness_with_a_nan_node_is_networkx(semiring_first, directed, place):
    """NetworkX's ``if w != s`` takes a NaN source for another node and adds its own
    dependency to it. Before (undirected, NaN in the triangle): 0.0 where NetworkX has
    0.142857."""
    labels = [0, 1, 2, 3, 4, 5]
    labels[place] = NAN
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(labels)
    for u, v in [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (1, 3), (4, 5)]:
        G.add_edge(labels[u], labels[v])
    _dispatched(lambda: lambda: nx.betweenness_centrality(G))
    _dispatched(lambda: lambda: nx.betweenness_centrality(G, endpoints=True))


def test_nan_label_is_known_to_the_conversion(device):
    G = nx.Graph([(NAN, 1), (1, 2)])
    assert convert(G, device).self_unequal
    assert not convert(nx.Graph([("a", 1), (1, 2)]), device).self_unequal
    assert not convert(nx.path_graph(3), device).self_unequal


# --------------------------------------------------------------------------- float overflow
@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph])
@pytest.mark.parametrize("w", [1e308, 1.7e308])
def test_dijkstra_reaches_vertices_whose_distance_overflows_to_inf(semiring_first, cls, w):
    """1e308 + 1e308 is inf in NetworkX's Python sums too, and its Dijkstra reports the vertex
    at distance inf. Before: those vertices missing (lengths), NetworkXNoPath (s-t), and
    'graph is not connected' (eccentricity, diameter) where NetworkX answers inf."""
    G = nx.path_graph(6, create_using=cls)
    nx.set_edge_attributes(G, w, "weight")
    # length dicts compared as sorted items: their order is the engine's (documented)
    for call in (lambda: _items(nx.single_source_dijkstra_path_length(G, 0)),
                 lambda: _items(nx.single_source_dijkstra(G, 0)),
                 lambda: nx.dijkstra_path_length(G, 0, 5),
                 lambda: _items(dict(nx.all_pairs_dijkstra_path_length(G))),
                 lambda: _items(nx.multi_source_dijkstra_path_length(G, {0, 5})),
                 lambda: _items(nx.shortest_path_length(G, 0, weight="weight"))):
        _dispatched(lambda call=call: call)
    if cls is nx.Graph:
        _dispatched(lambda: lambda: nx.eccentricity(G, weight="weight"))
        _dispatched(lambda: lambda: nx.diameter(G, weight="weight"))


def test_huge_float_weights_mark_inf_paths(device):
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 1e308, "weight")
    assert convert(G, device).has_inf("weight")
    nx.set_edge_attributes(G, 1e300, "weight")
    assert not convert(G, device).has_inf("weight")


@pytest.mark.parametrize("directed", [False, True])
def test_pagerank_of_row_sums_past_the_largest_float_is_networkx(semiring_first, directed):
    """NetworkX's 1 / inf makes an overflowing row dangling. Before: other values
    (0.025 against 0.1299 on a path of 1e308 weights)."""
    G = nx.path_graph(6, create_using=nx.DiGraph if directed else nx.Graph)
    nx.set_edge_attributes(G, 1e308, "weight")
    if directed:
        G.add_edge(1, 5, weight=1e308)
    expected = nx.pagerank(G, backend="networkx")
    got = nx.pagerank(G)
    assert got.keys() == expected.keys()
    assert all(abs(got[k] - expected[k]) < 1e-12 for k in got)


# --------------------------------------------------------------------------- -inf
@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiGraph])
def test_minus_inf_weights_in_bellman_ford_are_networkx(semiring_first, cls):
    """The engine's Bellman–Ford finds no negative cycle through a -inf edge and the
    distances called -inf unreached. Before: ({0: 0}, {}) where NetworkX raises
    NetworkXUnbounded (undirected) or answers -inf; negative_edge_cycle False (NetworkX
    True)."""
    G = cls()
    G.add_nodes_from(range(5))
    for u, v, w in [(0, 1, 1), (1, 2, -INF), (2, 3, 2), (3, 4, 1)]:
        G.add_edge(u, v, weight=w)
    for call in (lambda: nx.single_source_bellman_ford(G, 0),
                 lambda: nx.single_source_bellman_ford_path_length(G, 0),
                 lambda: nx.bellman_ford_path_length(G, 0, 4),
                 lambda: nx.bellman_ford_path(G, 0, 4),
                 lambda: dict(nx.all_pairs_bellman_ford_path_length(G)),
                 lambda: nx.negative_edge_cycle(G),
                 lambda: nx.shortest_path(G, 0, 4, weight="weight", method="bellman-ford")):
        _dispatched(lambda call=call: call)


def test_minus_inf_weights_are_refused_by_the_call(device):
    G = nx.DiGraph([(0, 1, {"weight": -INF}), (1, 2, {"weight": 1})])
    g = convert(G, device)
    for call in (lambda: nxa.single_source_bellman_ford_path_length(g, 0),
                 lambda: nxa.negative_edge_cycle(g),
                 lambda: nxa.shortest_path_length(g, weight="weight", method="bellman-ford")):
        with pytest.raises(NotImplementedError):
            call()


# --------------------------------------------------------------------------- NumPy bools
@pytest.mark.parametrize("directed", [False, True])
def test_floyd_warshall_of_numpy_bool_weights_is_networkx(semiring_first, directed):
    """np.True_ + np.True_ is np.True_ in NetworkX's Floyd–Warshall. Before: 2 where
    NetworkX has np.True_."""
    G = nx.path_graph(4, create_using=nx.DiGraph if directed else nx.Graph)
    nx.set_edge_attributes(G, np.True_, "weight")
    G.add_edge(0, 3, weight=np.False_)
    _dispatched(lambda: lambda: {k: dict(v) for k, v in nx.floyd_warshall(G).items()})
    pred, dist = nx.floyd_warshall_predecessor_and_distance(G)
    expected = nx.floyd_warshall_predecessor_and_distance(G, backend="networkx")
    assert repr({k: dict(v) for k, v in dist.items()}) == \
        repr({k: dict(v) for k, v in expected[1].items()})


def test_numpy_bool_weights_dijkstra_is_left_to_networkx(device):
    """0 + np.True_ is an np.int64: NetworkX's Dijkstra sums are exact but NumPy scalars,
    the engine's Python ints (answered before session 23, equal by value): refused."""
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, np.True_, "weight")
    assert type(nx.single_source_dijkstra_path_length(G, 0)[1]) is np.int64
    with pytest.raises(NotImplementedError, match="NumPy scalars"):
        nxa.single_source_dijkstra_path_length(convert(G, device), 0)


# --------------------------------------------------------------------------- target only
def _pred_order_digraph():
    D = nx.DiGraph()
    D.add_nodes_from(range(5))
    # 3's predecessors in NetworkX's _pred order: 2, then 1 (not vertex order)
    D.add_edges_from([(2, 3), (1, 3), (3, 4), (0, 2), (0, 1)])
    return D


def test_shortest_path_to_a_target_of_a_digraph_is_networkx(semiring_first):
    """NetworkX's BFS over G.reverse() follows G._pred's order. Before: 0's path [0, 1, 3, 4]
    (NetworkX: [0, 2, 3, 4]) and keys 1 before 2."""
    D = _pred_order_digraph()
    _dispatched(lambda: lambda: nx.shortest_path(D, target=4))
    _dispatched(lambda: lambda: nx.has_path(D, None, 4))
    assert isinstance(BackendInterface.can_run("shortest_path", (D,), {"target": 4}), str)
    assert BackendInterface.can_run("shortest_path", (D.to_undirected(),), {"target": 4})


def test_shortest_path_to_a_target_of_a_digraph_is_refused_by_the_call(device):
    g = convert(_pred_order_digraph(), device, None)
    with pytest.raises(NotImplementedError):
        nxa.shortest_path(g, target=4)
    U = nx.Graph([(2, 3), (1, 3), (3, 4), (0, 2), (0, 1)])
    assert nxa.shortest_path(convert(U, device, None), target=4) == nx.shortest_path(U, target=4)


# --------------------------------------------------------------------------- weight=True
@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph])
def test_weight_true_or_false_is_networkx(semiring_first, flag, cls):
    """NetworkX reads weight=True/False as G.edges(data=...)'s flag in these functions (its
    TypeError or ValueError). Before: answers from the edges' attribute True."""
    G = cls()
    for u, v, w in [(0, 1, 2), (1, 2, 1), (2, 0, 4), (2, 3, 1)]:
        G.add_edge(u, v)
        G.edges[u, v][flag] = w
    _dispatched(lambda: lambda: nx.pagerank(G, weight=flag))
    _dispatched(lambda: lambda: nx.floyd_warshall_numpy(G, weight=flag))
    _dispatched(lambda: lambda: nx.community.modularity(G, [{0, 1}, {2, 3}], weight=flag))
    if cls is nx.Graph:
        _dispatched(lambda: lambda: nx.community.louvain_communities(G, weight=flag))
    assert isinstance(BackendInterface.can_run("pagerank", (G,), {"weight": flag}), str)
    assert BackendInterface.can_run("single_source_dijkstra", (G, 0), {"weight": flag})


# --------------------------------------------------------------------------- 1.0 for 1
_ALIASES = [1.0, True, np.int64(1), np.float64(1.0)]


def _int_graph(cls):
    G = cls()
    G.add_nodes_from(range(6))
    for u, v, w in [(0, 1, 2), (1, 2, 1), (2, 0, 4), (2, 3, 1), (3, 4, 3), (1, 3, 5)]:
        G.add_edge(u, v, weight=w)
    return G


@pytest.mark.parametrize("alias", _ALIASES, ids=repr)
@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph])
def test_source_equal_to_a_node_of_another_type_is_networkx(semiring_first, cls, alias):
    """NetworkX's searches start from the caller's object: 1.0 for the node 1 keys its
    results and starts its paths. Before: the graph's label 1 (equal, another type)."""
    G = _int_graph(cls)
    calls = [lambda: list(nx.bfs_edges(G, alias)),
             lambda: list(nx.bfs_predecessors(G, alias)),
             lambda: list(nx.bfs_successors(G, alias)),
             lambda: nx.descendants_at_distance(G, alias, 0),
             lambda: nx.single_source_shortest_path(G, alias),
             lambda: _items(nx.single_source_shortest_path_length(G, alias)),
             lambda: nx.shortest_path(G, alias),
             lambda: _items(nx.single_source_dijkstra(G, alias)),
             lambda: nx.single_source_dijkstra_path(G, alias),
             lambda: _items(nx.single_source_dijkstra_path_length(G, alias)),
             lambda: _items(nx.single_source_bellman_ford(G, alias)),
             lambda: _items(nx.single_source_bellman_ford_path_length(G, alias)),
             lambda: nx.dijkstra_path(G, alias, 4), lambda: nx.dijkstra_path(G, 0, alias),
             lambda: nx.bellman_ford_path(G, alias, 4), lambda: nx.bellman_ford_path(G, 0, alias),
             lambda: nx.single_source_dijkstra(G, alias, 4),
             lambda: nx.shortest_path(G, alias, 4), lambda: nx.shortest_path(G, 4, alias),
             lambda: nx.shortest_path(G, 0, alias, weight="weight"),
             lambda: _items(nx.single_target_shortest_path_length(G, alias)),
             lambda: _items(nx.multi_source_dijkstra_path_length(G, [alias, 1, 4]))]
    if not G.is_directed():
        calls += [lambda: nx.node_connected_component(G, alias),
                  lambda: nx.shortest_path(G, target=alias)]
    for call in calls:
        _dispatched(lambda call=call: call)


def test_alias_of_the_label_itself_is_none(device):
    g = convert(_int_graph(nx.Graph), device)
    assert nxa._alias(g, 1, 1) is None
    assert nxa._alias(g, 1, 1.0) == 1.0
