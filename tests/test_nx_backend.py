"""The NetworkX backend (nx_semiring): results equal NetworkX's on random graphs, conversion
and its caching, can_run's refusals, NetworkX's errors.

Each test converts a NetworkX graph onto the ``device`` under test and calls the backend's
function on it directly (as NetworkX's dispatcher does), comparing with NetworkX's own run.
The tests marked ``dispatch`` go through NetworkX's dispatcher (``backend="semiring"``,
``nx.config``); they need the package installed (its entry points), as CI installs it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

from analytics1_graphs import assert_same_overflow, kinds, overflow_graph  # noqa: E402
from conftest import to_host  # noqa: E402

import nx_semiring  # noqa: E402
import semiring as sr  # noqa: E402
from nx_semiring import algorithms as nxa  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402

INSTALLED = "semiring" in nx.utils.backends.backends
dispatch = pytest.mark.skipif(not INSTALLED, reason="nx_semiring is not installed (its entry "
                                                    "points): pip install '.[nx]'")


# --------------------------------------------------------------------------- graphs
@st.composite
def graphs(draw, directed=None, multigraph=False, weights="nonneg", max_n=10, max_m=30,
           selfloops=True):
    """A NetworkX graph with shuffled, non-contiguous labels (ints or strings) or the labels
    0..n-1 in order (the conversion's fast path), isolated
    vertices, self-loops, parallel edges (multigraphs), some edges without the attribute."""
    n = draw(st.integers(0, max_n))
    directed = draw(st.booleans()) if directed is None else directed
    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}[(directed, multigraph)]
    G = cls()
    kind = draw(st.sampled_from(["ints", "strings", "identity"]))
    order = list(range(n)) if kind == "identity" else draw(st.permutations(range(n)))
    label = [f"v{3 * i + 1}" if kind == "strings" else 3 * i + 1 if kind == "ints" else i
             for i in range(n)]
    G.add_nodes_from(label[i] for i in order)
    floats = False
    if n:
        if weights == "nonneg":
            # ints or floats, one type a graph, every edge weighted where floats: NetworkX's
            # path sums of a mix are ints or floats path by path, which the backend refuses
            # (session 23, test_nx_kinds23.py)
            floats = draw(st.booleans())
            w = st.sampled_from([0.5, 2.25, 7.0, 0.0, 3.0]) if floats else st.integers(0, 9)
        elif weights == "int":
            w = st.integers(1, 9)
        else:
            w = st.integers(-3, 9)
        edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), w,
                                        st.booleans()), max_size=max_m))
        for u, v, wt, has in edges:
            if u == v and not selfloops:
                continue
            if has or floats:
                G.add_edge(label[u], label[v], weight=wt)
            else:
                G.add_edge(label[u], label[v])
    return G


def st_path_as_networkx(f_nx, f_sr):
    """An s-t path query: NetworkX's answer (or error) exactly, or NotImplementedError where
    several shortest paths tie (NetworkX's search picks its own: it answers)."""
    try:
        exp, got = raises_same(f_nx, f_sr)
    except NotImplementedError as exc:
        assert "several shortest paths" in str(exc)
        return
    assert got == exp


def convert(G, device, weight="weight", **kw):
    attrs = {weight: 1} if weight is not None else None
    return nx_semiring.from_networkx(G, edge_attrs=attrs, device=device, **kw)


def raises_same(f_nx, f_sr):
    """Both raise the same NetworkX exception type, or both return; returns both results."""
    try:
        expected = f_nx()
    except nx.NetworkXException as exc:
        with pytest.raises(type(exc)):
            r = f_sr()
            if hasattr(r, "__next__"):
                list(r)
        return None, None
    return expected, f_sr()


def check_path(G, path, s, t, length=None, weight="weight"):
    assert path[0] == s and path[-1] == t
    total = 0
    for u, v in zip(path, path[1:]):
        assert G.has_edge(u, v)
        if G.is_multigraph():
            total += min(d.get(weight, 1) for d in G[u][v].values())
        else:
            total += G[u][v].get(weight, 1)
    if length is not None:
        assert total == pytest.approx(length)


# --------------------------------------------------------------------------- traversal
@given(G=graphs(), data=st.data())
def test_bfs_family_equals_networkx(device, G, data):
    if len(G) == 0:
        return
    narrow = nxa.NARROW_EDGES
    try:  # levels walked in Python (narrow) or by array operations (wide), both NetworkX's
        nxa.NARROW_EDGES = data.draw(st.sampled_from([0, narrow]))
        _check_bfs_family(device, G, data)
    finally:
        nxa.NARROW_EDGES = narrow


def test_bfs_wide_levels(device):
    G = nx.gnm_random_graph(400, 4000, seed=5, directed=True)
    g = convert(G, device, weight=None)
    assert list(nxa.bfs_edges(g, 0)) == list(nx.bfs_edges(G, 0))
    assert list(nxa.bfs_layers(g, [0, 7, 9])) == list(nx.bfs_layers(G, [0, 7, 9]))
    assert nxa.single_source_shortest_path(g, 3) == nx.single_source_shortest_path(G, 3)


def _check_bfs_family(device, G, data):
    g = convert(G, device, weight=None)
    s = data.draw(st.sampled_from(list(G)))
    depth = data.draw(st.one_of(st.none(), st.integers(0, 4)))
    assert list(nxa.bfs_edges(g, s, depth_limit=depth)) == list(nx.bfs_edges(G, s, depth_limit=depth))
    T, Tn = nxa.bfs_tree(g, s, depth_limit=depth), nx.bfs_tree(G, s, depth_limit=depth)
    assert list(T.nodes) == list(Tn.nodes) and list(T.edges) == list(Tn.edges)
    assert list(nxa.bfs_predecessors(g, s, depth)) == list(nx.bfs_predecessors(G, s, depth))
    assert list(nxa.bfs_successors(g, s, depth)) == list(nx.bfs_successors(G, s, depth))
    srcs = data.draw(st.lists(st.sampled_from(list(G)), min_size=1, max_size=3))
    assert list(nxa.bfs_layers(g, srcs)) == list(nx.bfs_layers(G, srcs))
    assert list(nxa.bfs_layers(g, s)) == list(nx.bfs_layers(G, s))
    for dist in (0, 1, 2, 5):
        assert nxa.descendants_at_distance(g, s, dist) == nx.descendants_at_distance(G, s, dist)
    cutoff = data.draw(st.one_of(st.none(), st.integers(0, 3), st.just(1.5)))
    got = nxa.single_source_shortest_path_length(g, s, cutoff)
    assert got == nx.single_source_shortest_path_length(G, s, cutoff)
    assert all(type(v) is int for v in got.values())
    assert nxa.single_source_shortest_path(g, s, cutoff) == nx.single_source_shortest_path(G, s, cutoff)


@given(G=graphs(multigraph=True), data=st.data())
def test_bfs_multigraph(device, G, data):
    if len(G) == 0:
        return
    g = convert(G, device, weight=None)
    s = data.draw(st.sampled_from(list(G)))
    assert list(nxa.bfs_edges(g, s)) == list(nx.bfs_edges(G, s))
    assert nxa.single_source_shortest_path(g, s) == nx.single_source_shortest_path(G, s)


def test_long_path(device):
    """A path of 3000 vertices (3000 BFS levels): orders and lengths still NetworkX's."""
    G = nx.path_graph(3000)
    g = convert(G, device, weight=None)
    assert list(nxa.bfs_edges(g, 0)) == list(nx.bfs_edges(G, 0))
    assert nxa.single_source_shortest_path_length(g, 1500) == nx.single_source_shortest_path_length(G, 1500)
    assert nxa.dijkstra_path_length(g, 0, 2999, weight=None) == 2999


@given(G=graphs(), data=st.data())
def test_unweighted_lengths_equal_networkx(device, G, data):
    g = convert(G, device, weight=None)
    assert dict(nxa.all_pairs_shortest_path_length(g)) == dict(nx.all_pairs_shortest_path_length(G))
    assert dict(nxa.all_pairs_shortest_path_length(g, 2)) == dict(nx.all_pairs_shortest_path_length(G, 2))
    if len(G) == 0:
        return
    s, t = data.draw(st.sampled_from(list(G))), data.draw(st.sampled_from(list(G)))
    exp, got = raises_same(lambda: nx.shortest_path_length(G, s, t),
                           lambda: nxa.shortest_path_length(g, s, t))
    assert exp == got
    assert nxa.has_path(g, s, t) == nx.has_path(G, s, t)
    st_path_as_networkx(lambda: nx.shortest_path(G, s, t), lambda: nxa.shortest_path(g, s, t))
    if G.is_directed():  # NetworkX's BFS over G.reverse() reads G._pred's order: refused
        with pytest.raises(NotImplementedError):
            nxa.shortest_path(g, target=t)
        with pytest.raises(NotImplementedError):  # (its dict's key order: session 22)
            nxa.shortest_path_length(g, target=t)
        return
    assert nxa.shortest_path_length(g, target=t) == nx.shortest_path_length(G, target=t)
    for v, p in nxa.shortest_path(g, target=t).items():
        check_path(G, p, v, t, nx.shortest_path_length(G, v, t), weight=None)


# --------------------------------------------------------------------------- weighted
@given(G=graphs(), data=st.data())
def test_dijkstra_equals_networkx(device, G, data):
    if len(G) == 0:
        return
    g = convert(G, device)
    s = data.draw(st.sampled_from(list(G)))
    # paths: NetworkX's, or refused where shortest paths tie (session 20: before, a path
    # among the tied ones, checked here as a shortest path only)
    try:
        dist, paths = nxa.single_source_dijkstra(g, s)
    except NotImplementedError as exc:
        assert "several shortest paths" in str(exc)
    else:
        assert dist == pytest.approx(nx.single_source_dijkstra_path_length(G, s))
        assert paths == nx.single_source_dijkstra_path(G, s)
        for v, p in paths.items():
            check_path(G, p, s, v, dist[v])
    cutoff = data.draw(st.sampled_from([None, 0, 3, 7.5]))
    exp = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff)
    assert nxa.single_source_dijkstra_path_length(g, s, cutoff=cutoff) == pytest.approx(exp)
    st_path_as_networkx(lambda: nx.single_source_dijkstra_path(G, s, cutoff=cutoff),
                        lambda: nxa.single_source_dijkstra_path(g, s, cutoff=cutoff))
    t = data.draw(st.sampled_from(list(G)))
    exp, got = raises_same(lambda: nx.dijkstra_path_length(G, s, t),
                           lambda: nxa.dijkstra_path_length(g, s, t))
    assert got == pytest.approx(exp) if exp is not None else got is None
    st_path_as_networkx(lambda: nx.single_source_dijkstra(G, s, t),
                        lambda: nxa.single_source_dijkstra(g, s, t))
    exp, got = raises_same(lambda: nx.shortest_path_length(G, s, t, weight="weight"),
                           lambda: nxa.shortest_path_length(g, s, t, weight="weight"))
    assert got == pytest.approx(exp) if exp is not None else got is None


@given(G=graphs(multigraph=True), data=st.data())
def test_dijkstra_multigraph_takes_the_lightest_parallel_edge(device, G, data):
    if len(G) == 0:
        return
    g = convert(G, device)
    s = data.draw(st.sampled_from(list(G)))
    assert nxa.single_source_dijkstra_path_length(g, s) == pytest.approx(
        nx.single_source_dijkstra_path_length(G, s))


@given(G=graphs(weights="any"), data=st.data())
def test_bellman_ford_equals_networkx(device, G, data):
    g = convert(G, device)
    assert nxa.negative_edge_cycle(g) == nx.negative_edge_cycle(G.copy())
    if len(G) == 0:
        return
    s = data.draw(st.sampled_from(list(G)))
    try:
        exp, got = raises_same(lambda: nx.single_source_bellman_ford_path_length(G, s),
                               lambda: nxa.single_source_bellman_ford_path_length(g, s))
    except NotImplementedError as exc:  # keyed in NetworkX's queue order (session 22)
        assert "queue's order" in str(exc)
        return
    if exp is None:
        return
    assert got == exp and list(got) == list(exp)  # NetworkX's key order too (session 22)
    try:
        dist, paths = nxa.single_source_bellman_ford(g, s)
    except NotImplementedError as exc:  # tied shortest paths (session 20)
        assert "several shortest paths" in str(exc)
    else:
        assert dist == exp
        assert paths == nx.single_source_bellman_ford_path(G, s)
        for v, p in paths.items():
            check_path(G, p, s, v, dist[v])
    t = data.draw(st.sampled_from(list(G)))
    exp, got = raises_same(lambda: nx.bellman_ford_path_length(G, s, t),
                           lambda: nxa.bellman_ford_path_length(g, s, t))
    assert got == exp


@given(G=graphs(weights="any", max_n=8))
def test_floyd_warshall_numpy_equals_networkx(device, G):
    g = convert(G, device)
    try:
        expected = nx.floyd_warshall_numpy(G)
    except nx.NetworkXUnbounded:  # NetworkX 3.7's negative cycle: the backend's error too
        with pytest.raises(nx.NetworkXUnbounded, match="Negative cycle detected."):
            nxa.floyd_warshall_numpy(g)
        return
    if (np.diag(expected) < 0).any():  # a negative cycle: NetworkX answers itself
        with pytest.raises(NotImplementedError):
            nxa.floyd_warshall_numpy(g)
        return
    nodelist = list(reversed(list(G)))
    np.testing.assert_array_equal(nxa.floyd_warshall_numpy(g), expected)
    np.testing.assert_array_equal(nxa.floyd_warshall_numpy(g, nodelist),
                                  nx.floyd_warshall_numpy(G, nodelist))


def test_dijkstra_negative_weight_falls_back(device):
    G = nx.DiGraph([(0, 1, {"weight": -1})])
    with pytest.raises(NotImplementedError):
        nxa.single_source_dijkstra(convert(G, device), 0)


# --------------------------------------------------------------------------- analytics
def _partition(parts):
    return {frozenset(p) for p in parts}


@given(G=graphs())
def test_components_equal_networkx(device, G):
    g = convert(G, device, weight=None)
    if G.is_directed():
        got = list(nxa.strongly_connected_components(g))
        assert _partition(got) == _partition(nx.strongly_connected_components(G))
        with pytest.raises(nx.NetworkXNotImplemented):
            list(nxa.connected_components(g))
        return
    assert list(nxa.connected_components(g)) == list(nx.connected_components(G))
    assert nxa.number_connected_components(g) == nx.number_connected_components(G)
    exp, got = raises_same(lambda: nx.is_connected(G), lambda: nxa.is_connected(g))
    assert exp == got


@given(G=graphs(), data=st.data())
def test_pagerank_close_to_networkx(device, G, data):
    g = convert(G, device)
    weight = data.draw(st.sampled_from(["weight", None]))
    personalize = data.draw(st.booleans()) and len(G) > 0
    p = {v: i + 1 for i, v in enumerate(G)} if personalize else None
    try:
        exp = nx.pagerank(G, weight=weight, personalization=p, tol=1e-9, max_iter=1000)
    except nx.PowerIterationFailedConvergence:  # e.g. a periodic chain: no answer to compare
        return
    got = nxa.pagerank(g, weight=weight, personalization=p, tol=1e-9, max_iter=1000)
    assert list(got) == list(exp)
    assert got == pytest.approx(exp, abs=1e-7)


@given(G=graphs(), data=st.data())
def test_betweenness_equals_networkx(device, G, data):
    g = convert(G, device, weight=None)
    normalized, endpoints = data.draw(st.booleans()), data.draw(st.booleans())
    exp = nx.betweenness_centrality(G, normalized=normalized, endpoints=endpoints)
    got = nxa.betweenness_centrality(g, normalized=normalized, endpoints=endpoints)
    assert got == pytest.approx(exp)
    if len(G) > 1:
        k = data.draw(st.integers(2, len(G)))
        exp = nx.betweenness_centrality(G, k=k, seed=7)
        got = nxa.betweenness_centrality(g, k=k, seed=7)
        assert got == pytest.approx(exp, nan_ok=True)


@pytest.mark.parametrize("directed", [True, False])
def test_betweenness_overflow_equals_networkx(device, directed):
    """Shortest-path counts past float64 (a 1000² grid's; here 1957 vertices): NetworkX's NaN,
    0 and finite values vertex by vertex, sampled (seed 139 draws a source whose counts
    overflow, for both directions), normalized or not."""
    G = overflow_graph(directed)
    g = convert(G, device, weight=None)
    for kw in [{"k": 6, "seed": 139}, {"k": 6, "seed": 139, "normalized": False,
                                        "endpoints": True}]:
        exp = nx.betweenness_centrality(G, **kw)
        assert "nan" in set(kinds(list(exp.values())))  # the sample meets the overflow
        got = nxa.betweenness_centrality(g, **kw)
        assert list(got) == list(exp)
        assert_same_overflow(list(got.values()), list(exp.values()))


@dispatch
def test_dispatch_betweenness_overflow_equals_networkx():
    G = overflow_graph(directed=False)
    exp = nx.betweenness_centrality(G, k=6, seed=139)
    got = nx.betweenness_centrality(G, k=6, seed=139, backend="semiring")
    assert list(got) == list(exp)
    assert_same_overflow(list(got.values()), list(exp.values()))


@given(G=graphs(directed=False), data=st.data())
def test_triangles_clustering_equal_networkx(device, G, data):
    g = convert(G, device, weight=None)
    assert nxa.triangles(g) == nx.triangles(G)
    assert nxa.clustering(g) == pytest.approx(nx.clustering(G))
    if len(G):
        v = data.draw(st.sampled_from(list(G)))
        assert nxa.triangles(g, v) == nx.triangles(G, v)
        assert nxa.clustering(g, [v]) == pytest.approx(nx.clustering(G, [v]))


@given(G=graphs(directed=True, max_m=20))
def test_directed_clustering_equal_networkx(device, G):
    assert nxa.clustering(convert(G, device, weight=None)) == pytest.approx(nx.clustering(G))


@given(G=graphs(selfloops=False))
def test_core_number_equals_networkx(device, G):
    g = convert(G, device, weight=None)
    try:
        got = nxa.core_number(g)
    except NotImplementedError:  # a DiGraph with reciprocal edges
        assert G.is_directed() and any(G.has_edge(v, u) for u, v in G.edges)
        return
    assert got == nx.core_number(G)


def test_core_number_self_loop_raises_as_networkx(device):
    G = nx.Graph([(0, 0), (0, 1)])
    with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
        nxa.core_number(convert(G, device, weight=None))


@given(G=graphs(directed=False, weights="int"))
def test_louvain_is_a_partition(device, G):
    parts = nxa.louvain_communities(convert(G, device), seed=3)
    assert sum(len(p) for p in parts) == len(G)
    assert set().union(*parts) == set(G) if parts else len(G) == 0
    if G.number_of_edges():
        ours = nx.community.modularity(G, parts)
        assert ours >= nx.community.modularity(G, [set(G)]) - 1e-9  # at least one community's


def test_louvain_two_cliques(device):
    G = nx.barbell_graph(5, 0)
    parts = nxa.louvain_communities(convert(G, device), seed=0)
    assert _partition(parts) == {frozenset(range(5)), frozenset(range(5, 10))}


@given(G=graphs(max_n=14, max_m=50), seed=st.integers(0, 50), k=st.sampled_from([1, 2, 3, 8]))
def test_louvain_batches_are_the_colourings_first_classes(device, G, seed, k):
    """Louvain's batches (the backend's louvain_communities) from k - 1 maximal independent
    sets equal the Jones–Plassmann colouring's classes 0..k-2, the rest one batch: the same
    partition as before whichever way they are found."""
    from algorithms import community
    from algorithms.cores import undirected_pattern

    S = undirected_pattern(convert(G, device, weight=None).matrix(), "test")
    want = np.minimum(to_host(community._colouring(S, seed)), k - 1)
    got = to_host(community._first_classes(S, seed, k))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("spec", ["kron-9", "grid-12x12", "urand-9"])
def test_louvain_batches_on_generated_graphs(device, spec):
    from algorithms import community
    from algorithms.cores import undirected_pattern
    from bench import generators as gen

    H = gen.make_graph(gen.parse_graph_spec(spec), xp=np, cache_dir=None)
    S = undirected_pattern(sr.Matrix.from_scipy(H, device=device), "test")
    colour = to_host(community._colouring(S, 3))
    assert colour.max() >= 3  # classes beyond the batches exist: the cut is exercised
    for k in (4, 8):
        np.testing.assert_array_equal(to_host(community._first_classes(S, 3, k)),
                                      np.minimum(colour, k - 1))


@given(G=graphs(directed=False, weights="nonneg", max_m=25), data=st.data())
def test_minimum_spanning_tree_is_networkx_kruskal(device, G, data):
    """The same tree as NetworkX's Kruskal, ties included, with all attributes."""
    for i, v in enumerate(G):
        G.nodes[v]["color"] = i
    G.graph["name"] = "g"
    for u, v, d in G.edges(data=True):
        d["label"] = f"{u}-{v}"
    g = nx_semiring.from_networkx(G, preserve_edge_attrs=True, preserve_node_attrs=True,
                                  preserve_graph_attrs=True, device=device)
    T, E = nxa.minimum_spanning_tree(g), nx.minimum_spanning_tree(G)
    assert T.graph == E.graph and T._node == E._node and T._adj == E._adj


# --------------------------------------------------------------------------- protocol
def test_conversion_labels_weights_and_round_trip(device):
    G = nx.DiGraph()
    G.add_nodes_from(["c", "a", "b"])
    G.add_edge("c", "a", weight=2.5)
    G.add_edge("a", "b")
    G.add_edge("b", "b", weight=0)
    g = convert(G, device)
    assert g.nodes == ["c", "a", "b"] and g.index == {"c": 0, "a": 1, "b": 2}
    assert g.weights("weight").tolist() == [2.5, 1.0, 0.0]   # missing: 1; zero: an edge
    M = g.matrix("weight")
    assert M.device == device and M.nvals == 3
    assert g.matrix("weight") is M and M.T is M.T            # cached, and its transpose
    H = nx_semiring.to_networkx(g)
    assert list(H.nodes) == ["c", "a", "b"]
    assert {(u, v): d["weight"] for u, v, d in H.edges(data=True)} == \
        {("c", "a"): 2.5, ("a", "b"): 1.0, ("b", "b"): 0.0}  # the converted attribute
    assert bi.convert_to_nx(g).number_of_edges() == 3
    assert bi.convert_to_nx({"x": 1}) == {"x": 1}


def test_conversion_refuses_non_numeric_weights(device):
    G = nx.Graph([(0, 1, {"weight": "heavy"})])
    with pytest.raises(NotImplementedError, match="weight"):
        convert(G, device)


def test_empty_graph(device):
    G = nx.Graph()
    g = convert(G, device)
    assert dict(nxa.all_pairs_shortest_path_length(g)) == {}
    assert list(nxa.connected_components(g)) == []
    assert nxa.pagerank(g) == {}
    assert nxa.floyd_warshall_numpy(g).shape == (0, 0)
    with pytest.raises(nx.NetworkXPointlessConcept):
        nxa.is_connected(g)
    assert not nxa.negative_edge_cycle(g)


def test_errors_are_networkx_errors(device):
    G = nx.DiGraph([(0, 1), (2, 3)])
    g = convert(G, device)
    with pytest.raises(nx.NodeNotFound):
        nxa.single_source_shortest_path_length(g, 9)
    with pytest.raises(nx.NodeNotFound):
        nxa.single_source_dijkstra(g, 9)
    with pytest.raises(nx.NetworkXError):
        list(nxa.bfs_edges(g, 9))
    with pytest.raises(nx.NetworkXNoPath):
        nxa.dijkstra_path(g, 0, 3)
    with pytest.raises(nx.NetworkXNoPath):
        nxa.shortest_path(g, 0, 3)
    with pytest.raises(nx.NetworkXNotImplemented):
        list(nxa.connected_components(g))
    C = nx.DiGraph([(0, 1, {"weight": -2}), (1, 0, {"weight": 1})])
    with pytest.raises(nx.NetworkXUnbounded):
        nxa.single_source_bellman_ford(convert(C, device), 0)


class Redefined(nx.Graph):
    """A graph class whose neighbours are not G._adj (as networkx's _AntiGraph)."""

    def neighbors(self, n):
        return iter(set(self) - set(self._adj[n]) - {n})


class Plain(nx.Graph):
    """A subclass that keeps NetworkX's adjacency: converted as usual."""


def test_can_run_refusals():
    G, D, M = nx.path_graph(3), nx.DiGraph([(0, 1)]), nx.MultiGraph([(0, 1), (0, 1)])
    ok = [("bfs_edges", (G, 0), {}), ("pagerank", (D,), {}), ("bfs_edges", (M, 0), {}),
          ("single_source_dijkstra", (M, 0), {}), ("bfs_edges", (G, 0), {"reverse": True}),
          ("core_number", (Plain([(0, 1)]),), {})]
    for name, args, kwargs in ok:
        assert bi.can_run(name, args, kwargs) is True, name
    refused = [
        ("single_source_dijkstra", (G, 0), {"weight": lambda u, v, d: 1}),   # callable weight
        ("bfs_edges", (G, 0), {"sort_neighbors": sorted}),
        ("bfs_tree", (D, 0), {"reverse": True}),                  # needs the predecessor order
        ("pagerank", (M,), {}),                                   # NetworkX sums parallel edges
        ("minimum_spanning_tree", (M,), {}),
        ("betweenness_centrality", (G,), {"weight": "weight"}),  # weighted
        ("clustering", (G,), {"weight": "weight"}),
        ("louvain_communities", (D,), {}),                        # directed modularity
        ("bfs_edges", (G, 0), {"no_such_keyword": 1}),
        ("all_simple_paths", (G, 0, 2), {}),                      # not implemented
        ("bfs_edges", ({0: [1]}, 0), {}),                         # not a graph
        ("core_number", (Redefined([(0, 1)]),), {}),              # its own adjacency
    ]
    for name, args, kwargs in refused:
        why = bi.can_run(name, args, kwargs)
        assert isinstance(why, str) and why, (name, kwargs)


def test_should_run_small_graphs_stay_with_networkx():
    small = nx.path_graph(5)
    for name, args in [("pagerank", (small,)), ("bfs_edges", (small, 0)),
                       ("single_source_dijkstra", (small, 0)), ("triangles", (small,)),
                       ("betweenness_centrality", (small,)), ("minimum_spanning_tree", (small,))]:
        assert isinstance(bi.should_run(name, args, {}), str), name
    # all-pairs BFS of 2000 vertices: predicted seconds in NetworkX, less with the engine
    G = nx.gnm_random_graph(2000, 20000, seed=1)
    assert bi.should_run("all_pairs_shortest_path_length", (G,), {}) is True


def test_should_run_leaves_point_queries_to_networkx():
    G = nx.gnm_random_graph(2000, 20000, seed=1)
    for name, args in [("shortest_path", (G, 0, 5)), ("shortest_path_length", (G, 0, 5)),
                       ("has_path", (G, 0, 5)), ("dijkstra_path", (G, 0, 5)),
                       ("bellman_ford_path_length", (G, 0, 5))]:
        why = bi.should_run(name, args, {})
        assert isinstance(why, str) and "point-to-point" in why, name
    assert nx_semiring.interface.predict("dijkstra_path_length", 10**6, 10**7) == \
        (0.0, math.inf)


@pytest.mark.parametrize("dev", ["cpu", "gpu"])
def test_should_run_model(dev):
    """The model's shape, on both devices' constants: tiny graphs stay with NetworkX, big
    all-source work goes to the engine, a cached conversion only lowers the backend's side,
    and the conversion is part of the prediction."""
    predict = nx_semiring.interface.predict
    for name in nx_semiring.FUNCTIONS:
        t_nx, t_sr = predict(name, 5, 8, device=dev)
        assert t_sr > t_nx, name
    t_nx, t_sr = predict("betweenness_centrality", 10**5, 2 * 10**6, {"k": 64}, device=dev)
    assert t_sr < t_nx
    for name in ("pagerank", "single_source_dijkstra", "connected_components",
                 "minimum_spanning_tree"):
        fresh = predict(name, 10**5, 10**6, device=dev)
        structure = predict(name, 10**5, 10**6, cached=True, device=dev)
        full = predict(name, 10**5, 10**6, cached=True, has_weights=True, device=dev)
        assert fresh[0] == structure[0] == full[0], name           # NetworkX's side
        assert fresh[1] > structure[1] >= full[1], name
    assert predict("shortest_path", 100, 400, {"weight": "w"}, device=dev)[1] < \
        predict("shortest_path", 100, 400, {"weight": "w", "source": 0}, device=dev)[1] * 100
    # NetworkX per unit is slower on a graph beyond the CPU's caches: a step on the GPU
    # host's constants, on the CPU a power of the size (session 23) for every side
    if dev == "gpu":
        big = nx_semiring.interface.LARGE_GRAPH_UNITS
        small_nx = predict("pagerank", 1000, big - 1000, device=dev)[0] / big
        large_nx = predict("pagerank", 1000, 2 * big - 1000, device=dev)[0] / (2 * big)
        assert large_nx == pytest.approx(small_nx *
                                         nx_semiring.interface.NX_LARGE_GRAPH_FACTOR)
    else:
        cache = nx_semiring.interface.CACHE_UNITS
        small = predict("pagerank", 1000, cache - 1000, device=dev)
        large = predict("pagerank", 4000, 4 * cache - 4000, device=dev)
        growth = 4 ** nx_semiring.interface.CACHE_EXPONENT
        assert large[0] / (4 * cache) == pytest.approx(small[0] / cache * growth)
        slowest = 4 ** min(nx_semiring.interface.CONVERT_CACHE_EXPONENT,
                           nx_semiring.interface.ENGINE_CACHE_EXPONENT)
        assert large[1] > small[1] * 4 * slowest * 0.9  # its fixed cost aside


@pytest.mark.parametrize("dev", ["cpu", "gpu"])
def test_should_run_model_of_the_analytics_measured_in_session_18(dev):
    """k_truss, the flow values and modularity (label propagation on the CPU; on the GPU it
    is launch-bound) go to the engine on a large graph; the matchings, answered only where
    unique, stay with NetworkX unless asked for by name."""
    predict = nx_semiring.interface.predict
    names = ["k_truss", "maximum_flow_value", "minimum_cut_value", "modularity"]
    names += ["label_propagation_communities"] if dev == "cpu" else []
    for name in names:
        t_nx, t_sr = predict(name, 10**5, 10**6, cached=name == "modularity",
                             has_weights=True, device=dev)
        assert t_sr < t_nx, name
    for name in ("hopcroft_karp_matching", "minimum_weight_full_matching"):
        assert predict(name, 10**5, 10**6, device=dev) == (0.0, math.inf)
    G = nx.complete_bipartite_graph(3, 3)
    assert "unique" in bi.should_run("hopcroft_karp_matching", (G,), {})


@pytest.mark.host_route
@pytest.mark.parametrize("name", ["core_number", "k_core", "k_truss", "minimum_spanning_tree",
                                  "louvain_communities", "label_propagation_communities"])
def test_should_run_gpu_cost_below_a_host_route_is_the_host_copys(name):
    """Below its algorithm's host-route bound a GPU graph costs the CPU engine's call plus the
    copies (the algorithm runs on a host copy there); from the bound on, the GPU's cost."""
    interface = nx_semiring.interface
    fam = interface._family(name, {})
    bound = interface._host_bound(fam)
    if bound == 0:
        pytest.skip("no host route here (Numba is not installed)")
    stored = bound - 1
    n = stored // 8
    work = interface._work(interface.FAMILIES[fam], n, stored, {})
    fixed, unit = interface.ENGINE_COST["cpu"][fam]
    # (the CPU engine's constants as they are: the CPU host's cache factor is not the GPU
    # host's)
    cpu = fixed + unit * work
    gpu = interface.predict(name, n, stored, cached=True, has_weights=True, device="gpu")[1]
    copy = interface.HOST_COPY_COST[0] + interface.HOST_COPY_COST[1] * work
    assert gpu == pytest.approx(cpu + copy)
    fixed, unit = interface.ENGINE_COST["gpu"][fam]
    work = interface._work(interface.FAMILIES[fam], n, bound, {})
    assert interface.predict(name, n, bound, cached=True, has_weights=True, device="gpu")[1] \
        == pytest.approx(fixed + unit * work)


# --------------------------------------------------------------------------- conversion
_LABELS = {  # label of vertex i: each kind takes another path of the conversion
    "identity": lambda i: i,                  # labels 0..n-1 in order: no lookup
    "dense ints": lambda i: 3 * i + 1,        # one table lookup
    "negative ints": lambda i: -5 * i - 2,
    "sparse ints": lambda i: i * 10**12 - 7,  # sorted search
    "huge ints": lambda i: i + 2**70,         # beyond int64: a dict lookup per edge
    "mixed": lambda i: i if i % 2 else f"s{i}",
    "tuples": lambda i: (i // 3, i % 3),
}


def _expected_coo(H, g, attr="weight"):
    """(row, column, value) of every stored entry, from NetworkX's adjacency directly."""
    out = []
    for u, nbrs in H._adj.items():
        for v, d in nbrs.items():
            w = min(dd.get(attr, 1) for dd in d.values()) if H.is_multigraph() else \
                d.get(attr, 1)
            out.append((g.index[u], g.index[v], w))
    return out


@given(G=graphs(multigraph=False), kind=st.sampled_from(sorted(_LABELS)), data=st.data())
def test_conversion_equals_networkx_adjacency(device, G, kind, data):
    """Labels of every kind in any order, weights with missing attributes, ints and floats:
    the CSR in adjacency order, the values, and the engine's sorted matrix are NetworkX's."""
    perm = data.draw(st.permutations(range(len(G)))) if kind != "identity" else range(len(G))
    H = nx.relabel_nodes(G, {v: _LABELS[kind](p) for v, p in zip(G, perm)})
    g = convert(H, device, use_cache=False)
    assert g.nodes == list(H)
    exp = _expected_coo(H, g)
    assert g.indptr.tolist() == np.cumsum([0] + [len(H._adj[u]) for u in H]).tolist()
    assert g.adj.tolist() == [c for _, c, _ in exp]
    vals = [w for _, _, w in exp]
    assert g.weights("weight").tolist() == vals
    assert g.weights("weight").dtype == (
        np.int64 if all(isinstance(w, int) for w in vals) else np.float64)
    rows, cols, w = (to_host(a) for a in g.matrix("weight").to_coo())
    assert sorted(zip(rows.tolist(), cols.tolist(), w.tolist())) == sorted(exp)
    assert (np.diff(rows * max(g.n, 1) + cols) > 0).all()      # each row sorted
    assert g.matrix().nvals == len(exp)


@pytest.mark.parametrize("kind", sorted(_LABELS))
def test_conversion_of_every_label_kind(device, kind):
    """Each label path on a fixed graph whose labels are not in sorted node order."""
    G = nx.gnm_random_graph(40, 120, seed=5, directed=True)
    perm = np.random.default_rng(1).permutation(40).tolist()
    H = nx.relabel_nodes(G, {v: _LABELS[kind](perm[v]) for v in G})
    g = convert(H, device, weight=None, use_cache=False)
    assert g.adj.tolist() == [g.index[v] for u in H for v in H._adj[u]]
    assert g.nodes == list(H) and g.index == {v: i for i, v in enumerate(H)}


@pytest.mark.parametrize("kind", sorted(_LABELS) + ["bools"])
def test_results_keep_every_label_kind(device, kind):
    """Results are keyed by the graph's own label objects (tuples, huge ints, bools are not
    the vertex numbers), in NetworkX's orders: the fast result paths (labels as vertex
    numbers, the object-array lookup, singleton components) against NetworkX."""
    G = nx.gnm_random_graph(40, 30, seed=3)  # several components, isolated vertices
    G.add_edges_from([(38, 39), (39, 38)])
    if kind == "bools":
        G = nx.Graph([(False, True)])
    else:
        perm = np.random.default_rng(2).permutation(40).tolist()
        G = nx.relabel_nodes(G, {v: _LABELS[kind](perm[v]) for v in G})
    g = convert(G, device, use_cache=False)
    s = next(iter(G))
    for f in ("single_source_shortest_path_length", "single_source_dijkstra_path_length",
              "single_source_bellman_ford_path_length"):
        got, exp = getattr(nxa, f)(g, s), getattr(nx, f)(G, s)
        assert got == exp and sorted(map(repr, got)) == sorted(map(repr, exp))  # True is not 1
        assert list(got.values()) == sorted(got.values())  # NetworkX's order: by distance
    got = list(nxa.connected_components(g))
    assert got == list(nx.connected_components(G))
    assert [sorted(map(repr, c)) for c in got] == \
        [sorted(map(repr, c)) for c in nx.connected_components(G)]
    assert list(nxa.pagerank(g)) == list(G)


def test_groups_of_arbitrary_labels(device):
    """_groups (components, Louvain): sets in label order whatever the numbers (gaps,
    negatives, one-vertex groups anywhere), each set the vertices of its label."""
    G = nx.empty_graph(["a", "b", "c", "d", "e", "f"])
    g = convert(G, device, use_cache=False)
    groups = nxa._groups
    assert groups(g, np.array([7, 2, 7, 9, 2, 0])) == [{"f"}, {"b", "e"}, {"a", "c"}, {"d"}]
    assert groups(g, np.array([-1, 3, 3, -1, 5, 3])) == [{"a", "d"}, {"b", "c", "f"}, {"e"}]
    assert groups(g, np.zeros(6, dtype=np.int32)) == [set("abcdef")]
    assert groups(g, np.arange(6)[::-1].copy()) == [{v} for v in "fedcba"]
    assert groups(convert(nx.Graph(), device, use_cache=False), np.zeros(0)) == []


@given(G=graphs(multigraph=True))
def test_multigraph_conversion_takes_the_smallest_parallel_edge(device, G):
    g = convert(G, device, use_cache=False)
    exp = _expected_coo(G, g)
    assert g.adj.tolist() == [c for _, c, _ in exp]
    assert g.weights("weight").tolist() == [w for _, _, w in exp]


def _same(g, h):
    return (g.nodes == h.nodes and g.indptr.tolist() == h.indptr.tolist()
            and g.adj.tolist() == h.adj.tolist()
            and {a: v.tolist() for a, v in g.values.items()} ==
            {a: v.tolist() for a, v in h.values.items()})


_MUTATIONS = [
    lambda G: G.add_edge(0, 7),
    lambda G: G.add_edge(0, 1, weight=9),               # an attribute, through the API
    lambda G: G.add_weighted_edges_from([(2, 3, 0.5)]),
    lambda G: G.remove_edge(1, 2),
    lambda G: G.add_node("new"),
    lambda G: G.remove_node(3),
    lambda G: G.add_edges_from([(5, 6), (6, 7)]),
    lambda G: G.remove_edges_from([(0, 1)]),
    lambda G: G.update(edges=[(4, 9)]),
    lambda G: G.clear_edges(),
]


@pytest.mark.parametrize("mutate", range(len(_MUTATIONS)))
def test_conversion_cache_is_cleared_by_every_mutation(device, mutate):
    """from_networkx serves NetworkX's cache on G (where NetworkX's dispatcher converts: the
    default device) and never a stale one: NetworkX clears it on every change through its API."""
    G = nx.path_graph(8)
    nx.set_edge_attributes(G, {e: i + 1 for i, e in enumerate(G.edges)}, "weight")
    cached = device == sr.default_device()
    g = convert(G, device)
    assert (convert(G, device) is g) == cached
    assert (len(G.__networkx_cache__.get("backends", {}).get("semiring", {})) == 1) == cached
    _MUTATIONS[mutate](G)
    h = convert(G, device)
    assert h is not g and _same(h, convert(G, device, use_cache=False))


def test_conversion_reuses_the_cached_structure_for_a_new_attribute(device):
    G = nx.gnm_random_graph(30, 80, seed=3)
    for i, (u, v) in enumerate(G.edges):
        G[u][v]["weight"] = i % 7
        if i % 3:
            G[u][v]["cost"] = i / 4
    s = convert(G, device, weight=None)
    w = convert(G, device)
    assert _same(w, convert(G, device, use_cache=False))
    if device == sr.default_device():
        assert w.adj is s.adj and w.indptr is s.indptr and w.index is s.index
        assert w.matrix() is s.matrix()                     # structural matrix shared
    c = nx_semiring.from_networkx(G, edge_attrs={"cost": 0}, device=device)
    assert c.weights("cost").tolist() == [d.get("cost", 0) for _, nbrs in G._adj.items()
                                          for d in nbrs.values()]
    # the same attribute with another default is another conversion
    c2 = nx_semiring.from_networkx(G, edge_attrs={"cost": 5}, device=device)
    assert c2.weights("cost").tolist() == [d.get("cost", 5) for _, nbrs in G._adj.items()
                                           for d in nbrs.values()]


def test_conversion_cache_off(device, monkeypatch):
    G = nx.path_graph(4)
    assert convert(G, device, use_cache=False) is not convert(G, device, use_cache=False)
    assert not G.__networkx_cache__                         # use_cache=False: untouched
    monkeypatch.setattr(nx.config, "cache_converted_graphs", False)
    assert convert(G, device) is not convert(G, device)
    monkeypatch.undo()
    G.__networkx_cache__ = None                             # NetworkX's per-graph switch
    assert convert(G, device) is not convert(G, device)


def test_views_are_not_cached(device):
    """NetworkX does not clear a view's cache when the graph it views changes."""
    G = nx.path_graph(6)
    for H in (G.subgraph(range(5)), nx.restricted_view(G, [5], []),
              G.to_directed(as_view=True)):
        g = convert(H, device)
        assert not H.__networkx_cache__
        G.add_edge(0, 4)
        h = convert(H, device)
        rows = np.repeat(np.arange(h.n), np.diff(h.indptr)).tolist()
        assert sorted((h.nodes[r], h.nodes[c]) for r, c in zip(rows, h.adj.tolist())) == \
            sorted(e for u, nbrs in H.adj.items() for e in ((u, v) for v in nbrs))
        assert (0, 4) in H.edges
        assert convert(H, device) is not g
        G.remove_edge(0, 4)


def test_every_listed_function_is_implemented_with_networkx_signature():
    import inspect

    registered = nx.utils.backends._registered_algorithms
    for name in nx_semiring.FUNCTIONS:
        ours = inspect.signature(getattr(bi, name))
        theirs = inspect.signature(registered[name].orig_func)
        assert list(ours.parameters) == list(theirs.parameters), name
        assert [p.default for p in ours.parameters.values()] == \
            [p.default for p in theirs.parameters.values()], name
    assert set(nx_semiring.get_info()["functions"]) == set(nx_semiring.FUNCTIONS)


@dispatch
def test_dispatch_converts_once_and_caches(monkeypatch):
    calls = []
    real = bi.convert_from_nx

    def counting(*args, **kwargs):
        calls.append(kwargs.get("edge_attrs"))
        return real(*args, **kwargs)

    monkeypatch.setattr(type(bi), "convert_from_nx", staticmethod(counting))
    nx.config.warnings_to_ignore.add("cache")
    G = nx.gnm_random_graph(50, 120, seed=2)
    assert list(nx.bfs_edges(G, 0, backend="semiring")) == list(nx.bfs_edges(G, 0))
    assert nx.pagerank(G, backend="semiring") == pytest.approx(nx.pagerank(G))
    nx.single_source_shortest_path_length(G, 3, backend="semiring")
    assert len(calls) == 2                       # structure once, weight="weight" once
    cached = G.__networkx_cache__["backends"]["semiring"]
    assert all(isinstance(v, nx_semiring.SemiringGraph) for v in cached.values())
    G.add_edge(0, 49)                            # NetworkX clears the cache on mutation
    assert dict(nx.single_source_shortest_path_length(G, 0, backend="semiring")) == \
        nx.single_source_shortest_path_length(G, 0)
    assert len(calls) == 3


@dispatch
def test_dispatch_never_serves_a_stale_view():
    """NetworkX's dispatcher caches a view's conversion but does not clear it when the viewed
    graph changes; can_run drops it (the engine's answer follows the change)."""
    nx.config.warnings_to_ignore.add("cache")
    G = nx.path_graph(6)
    H = G.subgraph(range(5))
    f = nx.single_source_shortest_path_length
    assert f(H, 0, backend="semiring") == {0: 0, 1: 1, 2: 2, 3: 3, 4: 4}
    G.add_edge(0, 4)
    assert f(H, 0, backend="semiring") == f(H, 0) == {0: 0, 1: 1, 2: 2, 3: 2, 4: 1}
    D = G.to_directed(as_view=True)
    assert nx.pagerank(D, backend="semiring") == pytest.approx(nx.pagerank(D))
    G.remove_edge(0, 4)
    assert nx.pagerank(D, backend="semiring") == pytest.approx(nx.pagerank(D))


@dispatch
def test_dispatch_second_attribute_reuses_the_structure(monkeypatch):
    seen = []
    real = bi.convert_from_nx

    def keep(*args, **kwargs):
        seen.append(real(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(type(bi), "convert_from_nx", staticmethod(keep))
    nx.config.warnings_to_ignore.add("cache")
    G = nx.gnm_random_graph(40, 100, seed=4)
    nx.set_edge_attributes(G, {e: i % 5 + 1 for i, e in enumerate(G.edges)}, "weight")
    nx.single_source_shortest_path_length(G, 0, backend="semiring")
    assert nx.single_source_dijkstra_path_length(G, 0, backend="semiring") == \
        nx.single_source_dijkstra_path_length(G, 0)
    assert len(seen) == 2 and seen[1].adj is seen[0].adj     # read only the weights


@dispatch
def test_dispatch_should_run_keeps_small_graphs_with_networkx(monkeypatch):
    calls = []
    real = bi.convert_from_nx
    monkeypatch.setattr(type(bi), "convert_from_nx",
                        staticmethod(lambda *a, **k: calls.append(1) or real(*a, **k)))
    prio = list(nx.config.backend_priority.algos)
    try:
        nx.config.backend_priority.algos = ["semiring"]
        G = nx.path_graph(10)
        assert nx.pagerank(G) == pytest.approx(nx.pagerank(G, backend="networkx"))
        assert nx.shortest_path(G, 0, 9) == list(range(10))
        assert calls == []                                   # NetworkX ran both
    finally:
        nx.config.backend_priority.algos = prio


@dispatch
def test_dispatch_falls_back_or_refuses():
    G = nx.path_graph(4)
    with pytest.raises(NotImplementedError):    # backend= given: no fallback
        list(nx.bfs_edges(G, 0, sort_neighbors=sorted, backend="semiring"))
    prio, fallback = list(nx.config.backend_priority.algos), nx.config.fallback_to_nx
    try:
        nx.config.backend_priority.algos = ["semiring"]
        nx.config.fallback_to_nx = True
        assert list(nx.bfs_edges(G, 0, sort_neighbors=sorted)) == [(0, 1), (1, 2), (2, 3)]
        assert math.isclose(sum(nx.pagerank(G).values()), 1.0)
    finally:
        nx.config.backend_priority.algos = prio
        nx.config.fallback_to_nx = fallback


@dispatch
def test_backend_graph_input_and_graph_results():
    G = nx.cycle_graph(5)
    g = nx_semiring.from_networkx(G)
    assert sorted(nx.bfs_tree(g, 0).edges) == sorted(nx.bfs_tree(G, 0).edges)
    assert nx.shortest_path_length(g, 0, 3) == 2
    T = nx.minimum_spanning_tree(G, backend="semiring")
    assert isinstance(T, nx.Graph) and T.number_of_edges() == 4


# --------------------------------------------------------------------------- result building
@given(data=st.data())
def test_by_distance_is_the_stable_order(device, data):
    """_by_distance's 16-bit radix passes (spans below 2^16, two passes below 2^32) give the
    stable order by distance, as a stable argsort of the distances; _sorted_values gives
    their tolist(), one object per run of equal values (equal values, equal types)."""
    span = data.draw(st.sampled_from([3, (1 << 16) - 1, 1 << 16, (1 << 32) - 1, 1 << 32,
                                      1 << 62]))
    n = data.draw(st.integers(0, 300))
    lo = data.draw(st.integers(-(1 << 40), 1 << 40))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    dist = lo + rng.integers(0, span, size=n, endpoint=True)
    if n:
        dist[rng.integers(0, n)] = lo + span  # the whole span
    if data.draw(st.booleans()):
        dist = dist.astype(np.float64) / 3
    keep = rng.random(n) < 0.8
    got = nxa._by_distance(dist, keep)
    exp = np.flatnonzero(keep)[np.argsort(dist[keep], kind="stable")]
    assert got.tolist() == exp.tolist()
    vals = nxa._sorted_values(dist[got])
    assert vals == dist[got].tolist()
    assert [type(v) for v in vals] == [type(v) for v in dist[got].tolist()]


def test_sorted_values_runs(device):
    """Long runs become shared objects, equal to tolist(); 0.0 and -0.0 stay apart."""
    d = np.repeat(np.array([0, 3, 70000, 2 ** 40]), [5, 1, 7, 3])
    assert nxa._sorted_values(d) == d.tolist()
    assert all(type(v) is int for v in nxa._sorted_values(d))
    f = np.array([-0.0] * 5 + [0.0] * 5 + [2.5] * 4)
    got = nxa._sorted_values(f)
    assert got == f.tolist() and [math.copysign(1, v) for v in got] == [-1] * 5 + [1] * 9
    assert nxa._sorted_values(np.zeros(0, dtype=np.int64)) == []


def test_wide_distances_equal_networkx(device):
    """Integer distances spanning more than 2^16 (the two-pass radix): NetworkX's values and
    types, in NetworkX's order up to ties (by distance)."""
    G = nx.path_graph(300)
    for u, v in G.edges:
        G[u][v]["weight"] = 1000 + 7 * u
    G.add_edge(5, 400, weight=1 << 33)
    g = convert(G, device, use_cache=False)
    got = nxa.single_source_dijkstra_path_length(g, 3)
    exp = nx.single_source_dijkstra_path_length(G, 3)
    assert got == exp and list(got) == list(exp)
    assert all(type(v) is int for v in got.values())


def test_one_component_is_a_fresh_set(device):
    """A connected graph's one component: a new set each call (the caller may change it)."""
    G = nx.relabel_nodes(nx.cycle_graph(6), {i: f"n{i}" for i in range(6)})
    g = convert(G, device, weight=None, use_cache=False)
    first = list(nxa.connected_components(g))
    assert first == [set(G)] and type(first[0]) is set
    first[0].add("extra")
    assert list(nxa.connected_components(g)) == [set(G)]


def test_identity_labels_membership_as_networkx(device):
    """Labels 0..n-1 in order: membership and vertex numbers without the label dict answer
    as NetworkX's dict of nodes does (1.0, True and NumPy ints are nodes, -1, 2.5 and
    unhashable things are not)."""
    G = nx.path_graph(5)
    g = convert(G, device, weight=None, use_cache=False)
    assert g.identity and g._index is None
    probes = [0, 4, 5, -1, -2, 1.0, True, False, np.int64(2), np.float64(3.0), 2.5, "a",
              float("nan"), None, (1,), [1], 2 ** 64]
    for x in probes:
        try:
            expected = x in G
        except TypeError:
            expected = False
        assert (x in g) == expected, x
        if expected:
            assert g.vertex(x) == list(G).index(x)
    with pytest.raises(KeyError):
        g.vertex(7)
    assert g._index is None  # none of it built the label dict
    assert nxa.single_source_shortest_path_length(g, 1.0) == \
        nx.single_source_shortest_path_length(G, 1.0)


def test_node_order_results_repeat_equal(device):
    """Node-order results are NetworkX's, in node order, and independent of each other."""
    G = nx.relabel_nodes(nx.cycle_graph(7), {i: (i * 3) % 7 for i in range(7)})
    G.add_edge(0, 3)
    for relabel in (False, True):
        H = nx.relabel_nodes(G, {v: f"s{v}" for v in G}) if relabel else G
        g = convert(H, device, weight=None, use_cache=False)
        results = [nxa.triangles(g) for _ in range(3)]
        assert all(r == nx.triangles(H) and list(r) == list(H) for r in results)
        results[1][next(iter(H))] = -1
        assert nxa.triangles(g) == nx.triangles(H)
        # converted without the attribute: weight=None (no edge of H has one, so NetworkX's
        # default weight="weight" is the same answer)
        pr = nxa.pagerank(g, weight=None)
        assert list(pr) == list(H) and pr == pytest.approx(nx.pagerank(H))


def test_weight_values_typed_as_np_array(device):
    """The conversion's typed read of edge values (one sum, then np.fromiter) gives what
    np.array gives (bools as int64 after the conversion's cast), and ints beyond int64 or
    mixed with floats keep np.array's types (an object array: refused)."""
    from nx_semiring.graph import _numbers

    cases = [[1, 2, 3], [True, False, 1], [1, 2.5], [1.5, float("nan"), float("inf")],
             [2 ** 70, 1], [2 ** 63 + 5, 1], [np.int64(3), 1], [np.float32(1.5), 2.0],
             [2 ** 70, 1.5], [-2 ** 63, 2 ** 63 - 1], [-2 ** 63 - 1, 0], ["a", 1], [None, 1]]
    for vals in cases:
        exp, got = np.array(vals), _numbers(vals)[0]  # (values, narrow NumPy type)
        if exp.dtype == np.bool_:
            exp = exp.astype(np.int64)
        assert got.dtype == exp.dtype, vals
        np.testing.assert_array_equal(got, exp)  # NaN equal to NaN
    G = nx.Graph([(0, 1, {"weight": 2 ** 70}), (1, 2, {"weight": 1})])
    with pytest.raises(NotImplementedError):
        convert(G, device, use_cache=False)
