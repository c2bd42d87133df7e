"""The NetworkX backend's later analytics (nx_semiring.analytics) against NetworkX on random
graphs: connectivity counts and tests, node_connected_component, the k-core family and the
k-truss (the same graphs in NetworkX's node, neighbour and attribute order), average
clustering and transitivity (equal floats), label propagation communities (the same sets in
the same order), modularity (the same float); NetworkX's errors; can_run's refusals.

Graphs: ``test_nx_backend.graphs`` (empty graphs, isolated nodes, self-loops, shuffled int
or string labels, directed and undirected, multigraphs where asked), converted onto the
``device`` under test and handed to the backend's function as NetworkX's dispatcher does.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

from test_nx_backend import convert, dispatch, graphs, raises_same  # noqa: E402

import nx_semiring  # noqa: E402
from nx_semiring import analytics as nxa  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402


def attributed(G, device):
    """G with node, edge and graph attributes, and its conversion keeping all of them (as
    NetworkX's dispatcher converts for the functions that return subgraphs)."""
    for i, v in enumerate(G):
        G.nodes[v]["color"] = i
    for u, v, d in G.edges(data=True):
        d["label"] = f"{u}-{v}"
    G.graph["name"] = "g"
    return nx_semiring.from_networkx(G, preserve_edge_attrs=True, preserve_node_attrs=True,
                                     preserve_graph_attrs=True, device=device)


def assert_same_graph(T, E):
    """Equal graphs in every order NetworkX exposes: nodes, each node's neighbours (and
    predecessors), with their attribute dicts, the class and the graph's attributes."""
    assert type(T) is type(E)
    assert T.graph == E.graph
    assert list(T._node.items()) == list(E._node.items())
    assert [(u, list(nb.items())) for u, nb in T._adj.items()] == \
        [(u, list(nb.items())) for u, nb in E._adj.items()]
    if E.is_directed():
        assert [(u, list(nb.items())) for u, nb in T._pred.items()] == \
            [(u, list(nb.items())) for u, nb in E._pred.items()]


def same_call(f_nx, f_sr):
    """NetworkX's result, after checking the backend raises what NetworkX raises (NetworkX's
    exceptions, ValueError, ZeroDivisionError) or returns; None where both raised."""
    try:
        expected = f_nx()
    except (nx.NetworkXException, ValueError, ZeroDivisionError) as exc:
        with pytest.raises(type(exc)):
            f_sr()
        return None, None
    return expected, f_sr()


# --------------------------------------------------------------------------- connectivity
@given(G=graphs())
def test_connectivity_equals_networkx(device, G):
    g = convert(G, device, weight=None)
    if not G.is_directed():
        for f in (nxa.weakly_connected_components, nxa.number_weakly_connected_components,
                  nxa.is_weakly_connected, nxa.number_strongly_connected_components,
                  nxa.is_strongly_connected):
            with pytest.raises(nx.NetworkXNotImplemented, match="undirected type"):
                r = f(g)
                if hasattr(r, "__next__"):
                    list(r)
        for v in G:
            assert nxa.node_connected_component(g, v) == nx.node_connected_component(G, v)
        return
    try:  # refused where G._pred's order (not kept) decides the sets' insertion order
        got = list(nxa.weakly_connected_components(g))
    except NotImplementedError:
        pass
    else:  # the sets' iteration order too (session 22)
        assert repr(got) == repr(list(nx.weakly_connected_components(G)))
    assert nxa.number_weakly_connected_components(g) == nx.number_weakly_connected_components(G)
    assert nxa.number_strongly_connected_components(g) == \
        nx.number_strongly_connected_components(G)
    for f_sr, f_nx in ((nxa.is_weakly_connected, nx.is_weakly_connected),
                       (nxa.is_strongly_connected, nx.is_strongly_connected)):
        exp, got = raises_same(lambda: f_nx(G), lambda: f_sr(g))
        assert type(got) is type(exp) and got == exp
    if len(G):
        with pytest.raises(nx.NetworkXNotImplemented, match="directed type"):
            nxa.node_connected_component(g, next(iter(G)))


def test_node_connected_component_errors(device):
    g = convert(nx.Graph([(0, 1), (2, 3)]), device, weight=None)
    with pytest.raises(KeyError):
        nxa.node_connected_component(g, 7)
    with pytest.raises(TypeError):
        nxa.node_connected_component(g, [0])
    with pytest.raises(nx.NetworkXPointlessConcept, match="null graph"):
        nxa.is_weakly_connected(convert(nx.DiGraph(), device, weight=None))


# --------------------------------------------------------------------------- cores
@given(G=graphs(selfloops=False, max_n=12), data=st.data())
def test_core_subgraphs_equal_networkx(device, G, data):
    g = attributed(G, device)
    k = data.draw(st.one_of(st.none(), st.integers(0, 4)))
    try:
        nxa.core_number(g)
    except NotImplementedError:  # a DiGraph with reciprocal edges (core_number refuses it)
        assert G.is_directed() and any(G.has_edge(v, u) for u, v in G.edges)
        return
    for f_sr, f_nx in ((nxa.k_core, nx.k_core), (nxa.k_shell, nx.k_shell),
                       (nxa.k_crust, nx.k_crust)):
        exp, got = same_call(lambda: f_nx(G, k), lambda: f_sr(g, k))
        if exp is not None:
            assert_same_graph(got, exp)
    kc = 1 if k is None else k
    assert_same_graph(nxa.k_corona(g, kc), nx.k_corona(G, kc))


def test_core_subgraph_iterates_the_node_set_when_small(device):
    """Fewer than half of G's nodes: NetworkX's subgraph view iterates its set of them, not
    G (string labels: the set's order is not G's)."""
    G = nx.Graph()
    G.add_nodes_from(f"v{i}" for i in range(40, 0, -1))
    G.add_edges_from(("v1", f"v{i}") for i in range(2, 41))
    G.add_edges_from((f"v{i}", f"v{j}") for i in range(30, 37) for j in range(i + 1, 37))
    g = attributed(G, device)
    for k in (None, 3, 6):
        assert_same_graph(nxa.k_core(g, k), nx.k_core(G, k))
        assert_same_graph(nxa.k_shell(g, k), nx.k_shell(G, k))


def test_core_subgraph_errors(device):
    with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
        nxa.k_core(attributed(nx.Graph([(0, 0), (0, 1)]), device))
    with pytest.raises(ValueError):  # max() of no core numbers, as NetworkX's
        nxa.k_core(attributed(nx.Graph(), device))
    with pytest.raises(NotImplementedError, match="core_number="):
        nxa.k_shell(attributed(nx.path_graph(3), device), core_number={0: 1, 1: 1, 2: 1})


@given(G=graphs(directed=False, selfloops=False, max_n=12, max_m=40), data=st.data())
def test_k_truss_equals_networkx(device, G, data):
    g = attributed(G, device)
    k = data.draw(st.one_of(st.integers(-1, 6), st.sampled_from([2.5, 3.5, float("inf")])))
    assert_same_graph(nxa.k_truss(g, k), nx.k_truss(G, k))


def test_k_truss_refusals(device):
    with pytest.raises(nx.NetworkXNotImplemented, match="directed type"):
        nxa.k_truss(attributed(nx.DiGraph([(0, 1)]), device), 3)
    with pytest.raises(NotImplementedError, match="self-loops"):
        nxa.k_truss(attributed(nx.Graph([(0, 0), (0, 1)]), device), 3)


# --------------------------------------------------------------------------- triangles
@given(G=graphs(max_n=12), data=st.data())
def test_average_clustering_and_transitivity_equal_networkx(device, G, data):
    g = convert(G, device, weight=None)
    zeros = data.draw(st.booleans())
    nodes = None if len(G) == 0 else \
        data.draw(st.one_of(st.none(), st.lists(st.sampled_from(list(G)), unique=True)))
    exp, got = same_call(lambda: nx.average_clustering(G, nodes, count_zeros=zeros),
                         lambda: nxa.average_clustering(g, nodes, count_zeros=zeros))
    assert type(got) is type(exp) and got == exp
    if G.is_directed():  # NetworkX answers from successor sets; the backend refuses
        assert isinstance(nx.transitivity(G), (int, float))
        with pytest.raises(NotImplementedError, match="directed"):
            nxa.transitivity(g)
        return
    exp, got = nx.transitivity(G), nxa.transitivity(g)
    assert type(got) is type(exp) and got == exp


# --------------------------------------------------------------------------- communities
@given(G=graphs(directed=False, max_n=14, max_m=40))
def test_label_propagation_equals_networkx(device, G):
    g = convert(G, device, weight=None)
    got, exp = nxa.label_propagation_communities(g), nx.community.label_propagation_communities(G)
    assert type(got) is type(exp) and list(got) == list(exp)


@pytest.mark.parametrize("seed", [1, 2])
def test_label_propagation_larger_graphs(device, seed):
    """Colour classes of many sizes and several sweeps (NetworkX's own test graphs are a few
    dozen nodes)."""
    for G in (nx.gnm_random_graph(300, 900, seed=seed),
              nx.relabel_nodes(nx.powerlaw_cluster_graph(200, 3, 0.3, seed=seed),
                               {i: f"n{(i * 37) % 200}" for i in range(200)})):
        got = nxa.label_propagation_communities(convert(G, device, weight=None))
        assert list(got) == list(nx.community.label_propagation_communities(G))
    with pytest.raises(nx.NetworkXNotImplemented, match="directed type"):
        nxa.label_propagation_communities(convert(nx.DiGraph([(0, 1)]), device, weight=None))


@given(G=graphs(weights="signed", max_n=12), data=st.data())
def test_modularity_equals_networkx(device, G, data):
    """Integer weights (negative ones and missing ones, 1, included): NetworkX's float to
    the bit, its ZeroDivisionError where the weights sum to 0."""
    g = convert(G, device)
    k = data.draw(st.integers(1, 4))
    label = {v: data.draw(st.integers(0, k - 1)) for v in G}
    parts = [{v for v in G if label[v] == c} for c in range(k)]
    weight = data.draw(st.sampled_from(["weight", None]))
    gamma = data.draw(st.sampled_from([1, 0.5, 2.0, -1]))
    exp, got = same_call(lambda: nx.community.modularity(G, parts, weight=weight,
                                                         resolution=gamma),
                         lambda: nxa.modularity(g, parts, weight=weight, resolution=gamma))
    assert type(got) is type(exp) and got == exp


@given(G=graphs(weights="nonneg", max_n=10))
def test_modularity_non_integer_weights_left_to_networkx(device, G):
    g = convert(G, device)
    parts = [set(G)]
    if any(d.get("weight", 1) % 1 for _, _, d in G.edges(data=True)):
        with pytest.raises(NotImplementedError, match="non-integer"):
            nxa.modularity(g, parts)
    else:
        exp, got = same_call(lambda: nx.community.modularity(G, parts),
                             lambda: nxa.modularity(g, parts))
        assert got == exp


@pytest.mark.parametrize("directed", [False, True])
def test_modularity_larger_graphs_to_the_bit(device, directed):
    """Many communities, integer weights as ints and as integral floats."""
    import random

    rng = random.Random(4)
    G = nx.gnm_random_graph(400, 2400, seed=4, directed=directed)
    parts = list(nx.community.label_propagation_communities(G.to_undirected()))
    for kind in (int, float):
        for u, v in G.edges:
            G[u][v]["weight"] = kind(rng.randint(1, 9))
        g = convert(G, device)
        assert nxa.modularity(g, parts) == nx.community.modularity(G, parts)
        assert nxa.modularity(g, parts, resolution=0.7) == \
            nx.community.modularity(G, parts, resolution=0.7)


def test_modularity_not_a_partition_left_to_networkx(device):
    G = nx.path_graph(4)
    g = convert(G, device)
    for parts in ([{0, 1}, {2}], [{0, 1}, {1, 2, 3}], [{0, 1}, {2, 3, 9}]):
        with pytest.raises(nx.NetworkXError):
            nx.community.modularity(G, parts)
        with pytest.raises(NotImplementedError, match="partition"):
            nxa.modularity(g, parts)
    assert nxa.modularity(g, iter([{0, 1}, set(), {2, 3}, set()])) == \
        nx.community.modularity(G, [{0, 1}, set(), {2, 3}, set()])


# --------------------------------------------------------------------------- protocol
def test_can_run_refusals():
    M = nx.MultiGraph([(0, 1), (0, 1)])
    for name, args in (("k_core", (M,)), ("k_truss", (M, 3)), ("transitivity", (M,)),
                       ("average_clustering", (M,)), ("modularity", (M, [{0, 1}])),
                       ("label_propagation_communities", (M,))):
        assert "multigraph" in bi.can_run(name, args, {})
    G = nx.path_graph(3)
    assert "core_number=" in bi.can_run("k_corona", (G, 1), {"core_number": {0: 1}})
    assert "weighted" in bi.can_run("average_clustering", (G,), {"weight": "weight"})
    for name, args in (("k_core", (G,)), ("k_truss", (G, 3)), ("transitivity", (G,)),
                       ("modularity", (G, [{0, 1, 2}])),
                       ("node_connected_component", (G, 0))):
        assert bi.can_run(name, args, {}) is True
    assert "NetworkX" in bi.should_run("k_truss", (G, 3), {})  # 3 nodes: not worth converting


@dispatch
def test_dispatch_through_networkx():
    G = nx.karate_club_graph()
    assert list(nx.community.label_propagation_communities(G, backend="semiring")) == \
        list(nx.community.label_propagation_communities(G))
    assert_same_graph(nx.k_truss(G, 4, backend="semiring"), nx.k_truss(G, 4))
    assert_same_graph(nx.k_core(G, 3, backend="semiring"), nx.k_core(G, 3))
    assert nx.transitivity(G, backend="semiring") == nx.transitivity(G)
    # a branching: each node's one predecessor is the only G._pred order (session 22: more
    # are refused, their order is not kept)
    D = nx.bfs_tree(nx.gnp_random_graph(30, 0.05, seed=3), 0)
    D.add_edges_from([(5, 7), (8, 9)])
    assert repr(list(nx.weakly_connected_components(D, backend="semiring"))) == \
        repr(list(nx.weakly_connected_components(D)))
