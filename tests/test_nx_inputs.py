"""The NetworkX backend on inputs NetworkX accepts that the engine's own tests do not make:
edge attributes that are NaN, +inf, bool, beyond int64, missing on some edges or on all;
negative cutoffs; frozen graphs and views; conversions NetworkX reuses for another attribute.

The rule each test checks: the backend answers as NetworkX does (values, NetworkX's types
where they are fixed, its exceptions), or raises ``NotImplementedError`` (or ``can_run``
refuses) so that NetworkX runs the call itself. Never a different answer.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402
from nx_semiring import algorithms as nxa  # noqa: E402
from semiring.backend.cpu import compiled as _compiled  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402

INF, NAN = float("inf"), float("nan")
# the awkward values of an edge attribute NetworkX adds up as Python numbers
AWKWARD = [0, 1, 3, 2.5, 0.0, INF, NAN, True, False, 2**70, -1, -2.5]


def convert(G, device, weight="weight", **kw):
    attrs = {weight: 1} if weight is not None else None
    return nx_semiring.from_networkx(G, edge_attrs=attrs, device=device, **kw)


def same(a, b):
    """Equal as NetworkX's results compare (NaN equal to NaN), dicts key by key."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def outcome(f):
    """('ok', result) or ('raised', exception type); generators are drained."""
    try:
        r = f()
        return "ok", (list(r) if hasattr(r, "__next__") else r)
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 (compared by type)
        return "raised", type(exc)


def assert_as_networkx_or_refused(f_nx, f_sr):
    """The backend's call returns NetworkX's answer or raises NetworkX's exception, or it
    refuses (NotImplementedError: NetworkX then runs it). Returns whether it answered."""
    expected = outcome(f_nx)
    try:
        got = outcome(f_sr)
    except NotImplementedError:
        return False
    assert got[0] == expected[0], (expected, got)
    assert same(got[1], expected[1]), (expected, got)
    return True


@st.composite
def awkward_graphs(draw):
    """Small graphs of mixed labels (ints, strings, tuples), isolated nodes, self-loops,
    the attribute on some edges only, its values from AWKWARD."""
    directed = draw(st.booleans())
    G = nx.DiGraph() if directed else nx.Graph()
    n = draw(st.integers(1, 7))
    labels = [(i, "t") if i % 3 == 0 else f"s{i}" if i % 3 == 1 else i for i in range(n)]
    G.add_nodes_from(draw(st.permutations(labels)))
    for u, v, w in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1),
                                           st.one_of(st.none(), st.sampled_from(AWKWARD))),
                                 max_size=14)):
        if w is None:
            G.add_edge(labels[u], labels[v])
        else:
            G.add_edge(labels[u], labels[v], weight=w)
    return G


WEIGHTED_CALLS = {
    "single_source_dijkstra_path_length":
        lambda m, G, s, t: m.single_source_dijkstra_path_length(G, s),
    "single_source_dijkstra": lambda m, G, s, t: m.single_source_dijkstra(G, s)[0],
    "dijkstra_path_length": lambda m, G, s, t: m.dijkstra_path_length(G, s, t),
    "single_source_bellman_ford_path_length":
        lambda m, G, s, t: m.single_source_bellman_ford_path_length(G, s),
    "bellman_ford_path_length": lambda m, G, s, t: m.bellman_ford_path_length(G, s, t),
    "negative_edge_cycle": lambda m, G, s, t: m.negative_edge_cycle(G),
    "floyd_warshall_numpy": lambda m, G, s, t: m.floyd_warshall_numpy(G).tolist(),
    "shortest_path_length": lambda m, G, s, t: m.shortest_path_length(G, s, weight="weight"),
}


@pytest.mark.parametrize("name", sorted(WEIGHTED_CALLS))
@settings(max_examples=60, deadline=None)
@given(G=awkward_graphs(), data=st.data())
def test_awkward_weights_as_networkx_or_refused(device, name, G, data):
    call = WEIGHTED_CALLS[name]
    nodes = list(G)
    s, t = data.draw(st.sampled_from(nodes)), data.draw(st.sampled_from(nodes))
    assert_as_networkx_or_refused(lambda: call(nx, G, s, t),
                                  lambda: call(nxa, convert(G, device), s, t))


@pytest.mark.parametrize("directed", [False, True])
def test_nan_weights_fall_back(device, directed):
    # 1.0, not 1: an int beside the NaN (a float) is refused for its sums' types first
    G = (nx.DiGraph if directed else nx.Graph)([(0, 1, {"weight": NAN}),
                                                (1, 2, {"weight": 1.0})])
    g = convert(G, device)
    for f in (lambda: nxa.single_source_dijkstra_path_length(g, 0),
              lambda: nxa.single_source_bellman_ford_path_length(g, 0),
              lambda: nxa.floyd_warshall_numpy(g)):
        with pytest.raises(NotImplementedError, match="NaN"):
            f()
    # without a negative weight there is no negative cycle (NetworkX: False as well);
    # with one, NetworkX's answer depends on where its comparisons meet the NaN
    assert nxa.negative_edge_cycle(g) is nx.negative_edge_cycle(G) is False
    G.add_edge(2, 0, weight=-1.0)
    with pytest.raises(NotImplementedError, match="NaN"):
        nxa.negative_edge_cycle(convert(G, device))


def test_inf_weight_reaches_as_networkx_dijkstra(device):
    # NetworkX's Dijkstra reaches 1 and 2 over the inf edge (distance inf); its
    # Bellman–Ford does not (inf < inf is false); the vertex 4 is not reachable at all
    # floats beside the inf (ints beside it are refused: NetworkX's sums of them are ints,
    # test_nx_kinds23.py)
    G = nx.DiGraph([(0, 1, {"weight": INF}), (1, 2, {"weight": 1.0}), (0, 3, {"weight": 2.0})])
    G.add_node(4)
    g = convert(G, device)
    expected = nx.single_source_dijkstra_path_length(G, 0)
    assert expected == {0: 0, 3: 2, 1: INF, 2: INF}
    assert nxa.single_source_dijkstra_path_length(g, 0) == expected
    assert nxa.dijkstra_path_length(g, 0, 2) == nx.dijkstra_path_length(G, 0, 2) == INF
    with pytest.raises(nx.NetworkXNoPath):
        nxa.dijkstra_path_length(g, 0, 4)
    for cutoff in (5, INF):
        assert nxa.single_source_dijkstra_path_length(g, 0, cutoff=cutoff) == \
            nx.single_source_dijkstra_path_length(G, 0, cutoff=cutoff)
    if _compiled.ENABLED:  # NetworkX's heap loop compiled: its path to 2, the first found
        assert nxa.single_source_dijkstra(g, 0) == nx.single_source_dijkstra(G, 0)
    else:
        with pytest.raises(NotImplementedError):  # NetworkX's path to 2 is the first it found
            nxa.single_source_dijkstra(g, 0)
    assert nxa.single_source_bellman_ford_path_length(g, 0) == \
        nx.single_source_bellman_ford_path_length(G, 0) == {0: 0, 3: 2}


@pytest.mark.parametrize("cutoff", [-1, -0.5, 0])
def test_dijkstra_cutoff_below_zero_keeps_the_source(device, cutoff):
    G = nx.Graph([("a", "b", {"weight": 0.0}), ("b", "c", {"weight": 1.5})])  # floats only
    g = convert(G, device)
    for f in ("single_source_dijkstra_path_length", "single_source_dijkstra_path"):
        assert getattr(nxa, f)(g, "b", cutoff=cutoff) == \
            getattr(nx, f)(G, "b", cutoff=cutoff)
    assert nxa.single_source_dijkstra(g, "b", cutoff=cutoff) == \
        nx.single_source_dijkstra(G, "b", cutoff=cutoff)
    assert nxa.single_source_shortest_path_length(g, "b", cutoff=cutoff) == \
        nx.single_source_shortest_path_length(G, "b", cutoff=cutoff)


def test_source_distance_is_networkx_int_zero(device):
    G = nx.DiGraph([(0, 1, {"weight": 0.5}), (1, 2, {"weight": 0.0})])
    g = convert(G, device)
    results = [nxa.single_source_dijkstra_path_length(g, 0),
               nxa.single_source_dijkstra(g, 0)[0],
               nxa.single_source_bellman_ford_path_length(g, 0),
               nxa.single_source_bellman_ford(g, 0)[0]]
    expected = nx.single_source_dijkstra_path_length(G, 0)
    assert type(expected[0]) is int and type(expected[2]) is float
    for r in results:
        assert r == expected
        assert [type(v) for v in r.values()] == [type(v) for v in expected.values()]


def test_reused_conversion_without_the_attribute_is_never_unweighted(device):
    # NetworkX reuses a conversion with every edge attribute (preserve_edge_attrs, as
    # minimum_spanning_tree asks) for a call that asks for one; an attribute that could not
    # be converted (beyond int64) is not among its values: the weighted call must refuse
    G = nx.Graph([(0, 1, {"weight": 2**70}), (1, 2, {"weight": 1}), (2, 0, {"weight": 1})])
    g = nx_semiring.from_networkx(G, preserve_edge_attrs=True, device=device)
    assert "weight" not in g.values
    with pytest.raises(NotImplementedError):
        nxa.pagerank(g)
    with pytest.raises(NotImplementedError):
        nxa.louvain_communities(g, seed=1)
    with pytest.raises(NotImplementedError):
        nxa.single_source_dijkstra_path_length(g, 0)
    # an attribute that no edge has: every edge weighs NetworkX's default 1
    pr, ref = nxa.pagerank(g, weight="nope"), nx.pagerank(G, weight="nope")
    assert pr.keys() == ref.keys()
    assert all(abs(pr[v] - ref[v]) < 1e-6 for v in ref)
    assert sorted(map(sorted, nxa.louvain_communities(g, weight="nope", seed=1))) == [[0, 1, 2]]


def _views():
    D = nx.DiGraph([("a", ("t", 1)), (("t", 1), 5), (5, "a"), (5, 2.5), (2.5, 2.5)])
    D.add_node("iso")
    U = D.to_undirected()
    return {"subgraph": U.subgraph(["a", ("t", 1), 5, 2.5]), "frozen": nx.freeze(U.copy()),
            "restricted": nx.restricted_view(D, [], [("a", ("t", 1))]),
            "edge_subgraph": D.edge_subgraph([("a", ("t", 1)), (("t", 1), 5)]),
            "reverse": D.reverse(copy=False), "undirected_view": D.to_undirected(as_view=True)}


@pytest.mark.parametrize("view", sorted(_views()))
def test_views_and_frozen_graphs_as_networkx(device, view):
    G = _views()[view]
    g = convert(G, device)
    for s in G:
        assert nxa.single_source_shortest_path_length(g, s) == \
            nx.single_source_shortest_path_length(G, s)
        assert list(nxa.bfs_edges(g, s)) == list(nx.bfs_edges(G, s))
        assert nxa.single_source_dijkstra_path_length(g, s) == \
            nx.single_source_dijkstra_path_length(G, s)
    assert nxa.pagerank(g).keys() == nx.pagerank(G).keys()
    assert nxa.betweenness_centrality(g) == pytest.approx(nx.betweenness_centrality(G))
    # NetworkX's negative_edge_cycle adds a node to G: a frozen graph raises there, so the
    # backend leaves it to NetworkX
    assert isinstance(bi.can_run("negative_edge_cycle", (G,), {}), str)
    with pytest.raises(nx.NetworkXError, match="Frozen"):
        nx.negative_edge_cycle(G)


def test_negative_edge_cycle_of_a_plain_graph_still_runs():
    assert bi.can_run("negative_edge_cycle", (nx.path_graph(3),), {}) is True


def test_louvain_seeded_calls_are_left_to_networkx():
    import random

    G = nx.barbell_graph(4, 0)
    assert isinstance(bi.can_run("louvain_communities", (G,), {"seed": 2}), str)
    assert isinstance(bi.can_run("louvain_communities", (G,), {"seed": random.Random(2)}), str)
    # NetworkX's py_random_state hands seed=None over as the random module's instance
    assert bi.can_run("louvain_communities", (G,), {"seed": random._inst}) is True
    assert bi.can_run("louvain_communities", (G,), {}) is True


@pytest.mark.parametrize("directed", [False, True])
def test_st_paths_only_where_unique(device, directed):
    """s-t shortest paths: NetworkX's (bidirectional) searches pick their own among equally
    short ones, so the backend answers only where the path is unique; its one-sided
    Dijkstra and Bellman–Ford to a target (dijkstra_path, single_source_dijkstra,
    bellman_ford_path, single_source_bellman_ford) are its heap's and queue's, compiled
    (session 24: NetworkX's path among ties too)."""
    cls = nx.DiGraph if directed else nx.Graph
    # a diamond 0-1-3, 0-2-3 (two shortest paths) with a tail 3-4-5 (one)
    G = cls([(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 5)])
    nx.set_edge_attributes(G, 1, "weight")
    g = convert(G, device)
    heap = (lambda m, s, t: m.dijkstra_path(G if m is nx else g, s, t),
            lambda m, s, t: m.single_source_dijkstra(G if m is nx else g, s, t),
            lambda m, s, t: m.bellman_ford_path(G if m is nx else g, s, t),
            lambda m, s, t: m.single_source_bellman_ford(G if m is nx else g, s, t))
    for f in (lambda m, s, t: m.shortest_path(G if m is nx else g, s, t),
              lambda m, s, t: m.shortest_path(G if m is nx else g, s, t, weight="weight"),
              *heap):
        if f in heap and _compiled.ENABLED:
            assert f(nxa, 0, 5) == f(nx, 0, 5)
        else:
            with pytest.raises(NotImplementedError, match="several shortest paths"):
                f(nxa, 0, 5)
        assert f(nxa, 3, 5) == f(nx, 3, 5)
        assert f(nxa, 1, 5) == f(nx, 1, 5)
    # weight=None: unit weights (NetworkX's Dijkstra and Bellman–Ford read data.get(None, 1))
    for f in (nxa.dijkstra_path, nxa.bellman_ford_path):
        assert f(g, 3, 5, weight=None) == [3, 4, 5]
        if _compiled.ENABLED:  # the compiled heap and queue: NetworkX's own pick
            assert f(g, 0, 5, weight=None) == getattr(nx, f.__name__)(G, 0, 5, weight=None)
            continue
        with pytest.raises(NotImplementedError, match="several shortest paths"):
            f(g, 0, 5, weight=None)
    # the lengths are unique: still answered
    assert nxa.shortest_path_length(g, 0, 5) == nx.shortest_path_length(G, 0, 5) == 4
    # a zero-weight edge makes another equally short path through it
    H = cls([(0, 1, {"weight": 1}), (1, 2, {"weight": 0}), (0, 2, {"weight": 1})])
    if _compiled.ENABLED:
        assert nxa.dijkstra_path(convert(H, device), 0, 2) == nx.dijkstra_path(H, 0, 2)
    else:
        with pytest.raises(NotImplementedError):
            nxa.dijkstra_path(convert(H, device), 0, 2)
    with pytest.raises(NotImplementedError):
        nxa.shortest_path(convert(H, device), 0, 2, weight="weight")


@settings(max_examples=60, deadline=None)
@given(G=awkward_graphs(), data=st.data())
def test_st_paths_as_networkx_or_refused(device, G, data):
    nodes = list(G)
    s, t = data.draw(st.sampled_from(nodes)), data.draw(st.sampled_from(nodes))
    for weight in (None, "weight"):  # the conversion may refuse too (beyond int64)
        assert_as_networkx_or_refused(
            lambda: nx.shortest_path(G, s, t, weight=weight),
            lambda: nxa.shortest_path(convert(G, device), s, t, weight=weight))
    assert_as_networkx_or_refused(lambda: nx.bellman_ford_path(G, s, t),
                                  lambda: nxa.bellman_ford_path(convert(G, device), s, t))


def test_weighted_calls_on_an_undirected_view_of_a_digraph_are_left_to_networkx():
    D = nx.DiGraph([(0, 1, {"weight": 1}), (1, 0, {"weight": 5}), (1, 2, {"weight": 2})])
    U = D.to_undirected(as_view=True)
    assert U[0][1]["weight"] != U[1][0]["weight"]  # each direction its own attributes
    for view in (U, U.subgraph([0, 1, 2])):
        for name in ("single_source_dijkstra_path_length", "pagerank",
                     "floyd_warshall_numpy", "minimum_spanning_tree"):
            args = (view, 0) if name.startswith("single") else (view,)
            assert isinstance(bi.can_run(name, args, {}), str), name
        # unweighted calls read the structure, which is symmetric: still run
        assert bi.can_run("single_source_shortest_path_length", (view, 0), {}) is True
        assert bi.can_run("pagerank", (view,), {"weight": None}) is True


def _pr_graph(directed):
    G = nx.gnp_random_graph(12, 0.25, seed=3, directed=directed)
    G = nx.relabel_nodes(G, {i: (f"n{i}" if i % 3 else i) for i in G})
    G.add_node("iso")
    for i, (u, v) in enumerate(G.edges()):
        if i % 4:
            G[u][v]["weight"] = (i % 5) + 0.5
    return G


@pytest.mark.parametrize("directed", [False, True])
def test_pagerank_dicts_and_iterations_as_networkx(device, directed):
    G = _pr_graph(directed)
    g = convert(G, device)
    nodes = list(G)
    missing = {nodes[0]: 1, nodes[3]: 2}   # the other nodes weigh 0
    for kw in ({"personalization": missing}, {"nstart": missing}, {"dangling": missing},
               {"personalization": {nodes[0]: 1, "not a node": 5}},
               {"personalization": missing, "weight": None}, {"alpha": 0.5},
               {"max_iter": 2, "tol": 1e-1}):
        assert_as_networkx_or_refused(lambda: _rounded(nx.pagerank(G, **kw)),
                                      lambda: _rounded(nxa.pagerank(g, **kw)))
    with pytest.raises(ZeroDivisionError):
        nxa.pagerank(g, personalization={nodes[0]: 0})
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nxa.pagerank(g, max_iter=1)


def _rounded(d):
    """PageRank's values to 6 decimals (both sides iterate to tol 1e-6 in their own order)."""
    return {v: round(x, 6) for v, x in d.items()}


@pytest.mark.parametrize("directed", [False, True])
def test_sampled_betweenness_as_networkx(device, directed):
    import random

    G = _pr_graph(directed)
    g = convert(G, device, weight=None)
    for k in (1, 5, len(G) - 1, len(G)):
        for normalized in (True, False):
            for endpoints in (True, False):
                for seed in (7, "rng"):
                    def run(m, h, seed=seed):
                        s = random.Random(3) if seed == "rng" else seed
                        return m.betweenness_centrality(h, k=k, normalized=normalized,
                                                        endpoints=endpoints, seed=s)
                    assert run(nxa, g) == pytest.approx(run(nx, G), abs=1e-12, nan_ok=True)
    with pytest.raises(ValueError):
        nxa.betweenness_centrality(g, k=len(G) + 1, seed=1)
