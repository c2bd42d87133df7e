"""nx_semiring.structure against NetworkX: degree centralities, isolates, and the spanning
forests beside minimum_spanning_tree (maximum_spanning_tree, minimum_spanning_edges,
maximum_spanning_edges).

The rule: NetworkX's result exactly (dict keys in its order and its floats to the bit; the
isolates in node order; Kruskal's edges in Kruskal's order with G's own attribute dicts; the
tree's nodes, neighbours and attributes in NetworkX's order) or its exception, or a
NotImplementedError / a ``can_run`` refusal where NetworkX must answer (multigraph degrees,
Prim's and Borůvka's edge order, non-nodes for is_isolate).

Graphs: ``test_nx_backend.graphs`` (empty graphs, isolated nodes, self-loops, shuffled int or
string labels, directed and undirected, multigraphs where asked), converted onto the
``device`` under test as NetworkX's dispatcher converts them; the ``dispatch`` tests go
through NetworkX's dispatcher.
"""

from __future__ import annotations

import math
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

from test_nx_analytics2 import assert_same_graph  # noqa: E402
from test_nx_backend import convert, dispatch, graphs  # noqa: E402

import nx_semiring  # noqa: E402
from nx_semiring import structure as nxs  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402
from nx_semiring.interface import predict  # noqa: E402

DEGREE = ("degree_centrality", "in_degree_centrality", "out_degree_centrality")


def same_items(got, exp):
    """Equal dicts in equal key order, with equal value types (NetworkX's 1 for n <= 1 is an
    int, its products floats)."""
    assert list(got.items()) == list(exp.items())
    assert [type(x) for x in got.values()] == [type(x) for x in exp.values()]


def mixed_labels(directed):
    """Nodes of mixed types (an int, a string, a tuple, a float, a frozenset), a self-loop,
    an isolated node, reciprocal edges."""
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from([("t", 1), 7, "a", 2.5, frozenset({1}), "lonely"])
    G.add_edges_from([(7, "a"), ("a", 7), (("t", 1), 2.5), (2.5, 2.5), (frozenset({1}), 7)])
    return G


# ------------------------------------------------------------------- degree centralities
@given(G=graphs())
def test_degree_centralities_equal_networkx(device, G):
    g = convert(G, device, weight=None)
    same_items(nxs.degree_centrality(g), nx.degree_centrality(G))
    for name in DEGREE[1:]:
        if G.is_directed():
            same_items(getattr(nxs, name)(g), getattr(nx, name)(G))
        else:
            with pytest.raises(nx.NetworkXNotImplemented, match="undirected type"):
                getattr(nxs, name)(g)


@pytest.mark.parametrize("directed", [False, True])
def test_degree_centralities_mixed_labels(device, directed):
    G = mixed_labels(directed)
    g = convert(G, device, weight=None)
    for name in DEGREE if directed else DEGREE[:1]:
        same_items(getattr(nxs, name)(g), getattr(nx, name)(G))


def test_degree_centrality_rounds_as_networkx(device):
    """n - 1 = 5: NetworkX's d * (1.0 / 5.0), not d / 5, which differs for d = 3."""
    G = nx.star_graph(5)
    G.remove_edge(0, 5)
    G.add_edges_from([(1, 2), (1, 3)])
    exp = nx.degree_centrality(G)
    assert exp[1] == 3 * (1.0 / 5.0) != 3 / 5  # the two roundings do differ
    same_items(nxs.degree_centrality(convert(G, device, weight=None)), exp)


@pytest.mark.parametrize("n", [0, 1])
def test_degree_centrality_tiny(device, n):
    for G in (nx.empty_graph(n), nx.empty_graph(n, create_using=nx.DiGraph)):
        if n:
            G.add_edge(0, 0)  # a self-loop on the one node: still NetworkX's int 1
        g = convert(G, device, weight=None)
        names = DEGREE if G.is_directed() else DEGREE[:1]
        for name in names:
            same_items(getattr(nxs, name)(g), getattr(nx, name)(G))


def test_degree_centrality_multigraph_refused(device):
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    for name in DEGREE[:1]:
        assert "multigraph" in bi.can_run(name, (M,), {})
    D = nx.MultiDiGraph([(0, 1), (0, 1)])
    for name in DEGREE:
        assert "multigraph" in bi.can_run(name, (D,), {})
    with pytest.raises(NotImplementedError, match="parallel"):
        nxs.degree_centrality(convert(M, device, weight=None))


# ------------------------------------------------------------------------------ isolates
def _check_isolates(G, g):
    it = nxs.isolates(g)
    assert isinstance(it, types.GeneratorType)  # NetworkX's is a generator
    assert list(it) == list(nx.isolates(G))
    assert nxs.number_of_isolates(g) == nx.number_of_isolates(G)
    assert type(nxs.number_of_isolates(g)) is int
    assert [nxs.is_isolate(g, v) for v in G] == [nx.is_isolate(G, v) for v in G]


@given(G=graphs())
def test_isolates_equal_networkx(device, G):
    _check_isolates(G, convert(G, device, weight=None))


@given(G=graphs(multigraph=True))
def test_isolates_multigraph_equal_networkx(device, G):
    _check_isolates(G, convert(G, device, weight=None))


@pytest.mark.parametrize("directed", [False, True])
def test_isolates_mixed_labels_and_directions(device, directed):
    """A directed graph's node with only in-edges (or only out-edges) is not an isolate; a
    node with only a self-loop is not one either."""
    G = mixed_labels(directed)
    G.add_edge("sink_src", "sink")
    G.add_node("loop")
    G.add_edge("loop", "loop")
    _check_isolates(G, convert(G, device, weight=None))
    assert list(nxs.isolates(convert(G, device, weight=None))) == ["lonely"]


def test_is_isolate_non_node(device):
    g = convert(nx.path_graph(3), device, weight=None)
    for n in (5, "ab", [0, 1]):
        with pytest.raises(NotImplementedError, match="nbunch"):
            nxs.is_isolate(g, n)


# ------------------------------------------------------------------------ spanning forests
def _attributed(G, device):
    for i, v in enumerate(G):
        G.nodes[v]["color"] = i
    G.graph["name"] = "g"
    for u, v, d in G.edges(data=True):
        d["label"] = f"{u}-{v}"
    return nx_semiring.from_networkx(G, preserve_edge_attrs=True, preserve_node_attrs=True,
                                     preserve_graph_attrs=True, device=device)


def _same_edges(got, exp):
    got, exp = list(got), list(exp)
    assert got == exp
    # G's own dicts, as NetworkX yields them (a caller may change them)
    assert all(a[-1] is b[-1] for a, b in zip(got, exp) if len(b) == 3)


@given(G=graphs(directed=False, weights="any", max_m=25))
def test_spanning_edges_are_networkx_kruskal(device, G):
    """Kruskal's edges in Kruskal's order, ties included, with and without data."""
    g = _attributed(G, device)
    h = convert(G, device)  # NetworkX's conversion for data=False: the weight only
    for f_sr, f_nx in ((nxs.minimum_spanning_edges, nx.minimum_spanning_edges),
                       (nxs.maximum_spanning_edges, nx.maximum_spanning_edges)):
        _same_edges(f_sr(g), f_nx(G))
        _same_edges(f_sr(h, data=False), f_nx(G, data=False))
        _same_edges(f_sr(g, weight=None), f_nx(G, weight=None))
        _same_edges(f_sr(g, weight="missing"), f_nx(G, weight="missing"))


@given(G=graphs(directed=False, weights="any", max_m=25))
def test_maximum_spanning_tree_is_networkx_kruskal(device, G):
    g = _attributed(G, device)
    assert_same_graph(nxs.maximum_spanning_tree(g), nx.maximum_spanning_tree(G))


@given(G=graphs(directed=False, max_n=9, max_m=20), data=st.data())
def test_spanning_trees_prim_boruvka_left_to_networkx(device, G, data):
    """Distinct weights: one forest, which 'prim' and 'boruvka' find too, but NetworkX's tree
    holds its edges in their search's order (list(T.edges), T's adjacency order), which the
    engine does not follow: both trees are NetworkX's, refused by can_run and by the
    backend's functions; through the dispatch NetworkX's tree, order included."""
    ws = data.draw(st.permutations(range(G.number_of_edges())))
    for (u, v, d), w in zip(list(G.edges(data=True)), ws):
        d["weight"] = w - 7
    g = _attributed(G, device)
    for algorithm in ("prim", "boruvka", "borůvka"):
        for name, f_sr in (("maximum_spanning_tree", nxs.maximum_spanning_tree),
                           ("minimum_spanning_tree",
                            nx_semiring.interface.BackendInterface.minimum_spanning_tree)):
            assert "search's order" in bi.can_run(name, (G,), {"algorithm": algorithm})
            with pytest.raises(NotImplementedError, match="search's order"):
                f_sr(g, algorithm=algorithm)


def test_spanning_prim_boruvka_left_to_networkx(device):
    G = nx.cycle_graph(4)
    g = _attributed(G, device)
    for name in ("minimum_spanning_edges", "maximum_spanning_edges"):
        for algorithm in ("prim", "boruvka", "borůvka"):
            assert "search's order" in bi.can_run(name, (G,), {"algorithm": algorithm})
            with pytest.raises(NotImplementedError, match="own search"):
                getattr(nxs, name)(g, algorithm=algorithm)
        assert bi.can_run(name, (G,), {}) is True


def test_unicode_boruvka_name(device):
    """NetworkX's mst.ALGORITHMS takes 'borůvka' for 'boruvka' (NetworkX's
    TestBoruvka::test_unicode_name); the backend raised ValueError ('borůvka is not a valid
    choice for an algorithm') where NetworkX answers: now the name is taken and the call
    left to NetworkX (its search's order)."""
    G = nx.cycle_graph(5)
    for i, (u, v) in enumerate(G.edges()):
        G[u][v]["weight"] = (3 * i) % 5
    g = _attributed(G, device)
    for name, f_sr in (("minimum_spanning_tree",
                        nx_semiring.interface.BackendInterface.minimum_spanning_tree),
                       ("maximum_spanning_tree", nxs.maximum_spanning_tree)):
        with pytest.raises(NotImplementedError, match="search's order"):
            f_sr(g, algorithm="borůvka")
    for name in ("minimum_spanning_edges", "maximum_spanning_edges", "minimum_spanning_tree",
                 "maximum_spanning_tree"):
        assert "search's order" in bi.can_run(name, (G,), {"algorithm": "borůvka"})


def test_maximum_spanning_extreme_int64_weights(device):
    """The decreasing order by stable sort of the reversed weights: no negation, which would
    wrap the smallest int64 to itself and take it for the largest."""
    G = nx.Graph()
    G.add_edge(0, 1, weight=-2**63)
    G.add_edge(1, 2, weight=2**63 - 1)
    G.add_edge(0, 2, weight=0)
    G.add_edge(2, 3, weight=-2**63)
    G.add_edge(0, 3, weight=-2**63)
    g = _attributed(G, device)
    _same_edges(nxs.maximum_spanning_edges(g), nx.maximum_spanning_edges(G))
    _same_edges(nxs.minimum_spanning_edges(g), nx.minimum_spanning_edges(G))
    assert_same_graph(nxs.maximum_spanning_tree(g), nx.maximum_spanning_tree(G))


def test_spanning_nan_weights(device):
    G = nx.Graph()
    G.add_edge(0, 1, weight=math.nan)
    G.add_edge(1, 2, weight=1.5)
    G.add_edge(0, 2, weight=2.5)
    G.add_edge(2, 3, weight=0.5)
    g = _attributed(G, device)
    for f_sr, f_nx in ((nxs.minimum_spanning_edges, nx.minimum_spanning_edges),
                       (nxs.maximum_spanning_edges, nx.maximum_spanning_edges)):
        _same_edges(f_sr(g, ignore_nan=True), f_nx(G, ignore_nan=True))
        with pytest.raises(NotImplementedError, match="NaN"):
            f_sr(g)
        with pytest.raises(ValueError, match="NaN"):
            list(f_nx(G))
    assert_same_graph(nxs.maximum_spanning_tree(g, ignore_nan=True),
                      nx.maximum_spanning_tree(G, ignore_nan=True))


def test_spanning_errors(device):
    D = nx.DiGraph([(0, 1)])
    d = _attributed(D, device)
    for f in (nxs.maximum_spanning_tree, nxs.minimum_spanning_edges,
              nxs.maximum_spanning_edges):
        with pytest.raises(nx.NetworkXNotImplemented, match="directed type"):
            f(d)
    g = _attributed(nx.path_graph(3), device)
    for f in (nxs.maximum_spanning_tree, nxs.minimum_spanning_edges,
              nxs.maximum_spanning_edges):
        with pytest.raises(ValueError, match="not a valid choice"):
            f(g, algorithm="nope")
    M = nx.MultiGraph([(0, 1), (0, 1)])
    for name in ("maximum_spanning_tree", "minimum_spanning_edges", "maximum_spanning_edges"):
        assert "multigraph" in bi.can_run(name, (M,), {})
    G = nx.path_graph(3)
    G.add_edge(0, 1, weight="heavy")
    with pytest.raises(NotImplementedError, match="not numeric"):
        nxs.minimum_spanning_edges(_attributed(G, device))


# ------------------------------------------------------------------------------ protocol
def test_should_run_degree_family():
    """Fresh: the conversion costs more than NetworkX's pass over the nodes; cached (a large
    graph): the backend's pass is predicted cheaper; is_isolate: NetworkX's."""
    n, stored = 90_000, 358_800
    t_nx, t_sr = predict("degree_centrality", n, stored)
    assert t_sr > t_nx
    t_nx, t_sr = predict("degree_centrality", n, stored, cached=True)
    assert t_sr < t_nx
    t_nx, t_sr = predict("isolates", 10, 20, cached=True)
    assert t_sr > t_nx  # ten nodes: NetworkX
    assert "O(1)" in bi.should_run("is_isolate", (nx.path_graph(3), 0), {})


@dispatch
@settings(max_examples=15)
@given(G=graphs())
def test_dispatched(G):
    """``backend="semiring"`` gives NetworkX's answers (the backend's default device)."""
    nx.config.warnings_to_ignore.add("cache")
    same_items(nx.degree_centrality(G, backend="semiring"), nx.degree_centrality(G))
    if G.is_directed():
        same_items(nx.in_degree_centrality(G, backend="semiring"), nx.in_degree_centrality(G))
        same_items(nx.out_degree_centrality(G, backend="semiring"),
                   nx.out_degree_centrality(G))
    assert list(nx.isolates(G, backend="semiring")) == list(nx.isolates(G))
    assert nx.number_of_isolates(G, backend="semiring") == nx.number_of_isolates(G)
    if not G.is_directed():
        _same_edges(nx.maximum_spanning_edges(G, backend="semiring"),
                    nx.maximum_spanning_edges(G))
        _same_edges(nx.minimum_spanning_edges(G, data=False, backend="semiring"),
                    nx.minimum_spanning_edges(G, data=False))
        assert_same_graph(nx.maximum_spanning_tree(G, backend="semiring"),
                          nx.maximum_spanning_tree(G))


@dispatch
def test_dispatched_refusals_and_errors():
    """With the backend first in NetworkX's priority, what it refuses is NetworkX's answer
    (multigraph degrees, a non-node for is_isolate, Prim's edge order); NetworkX's errors."""
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    G = nx.cycle_graph(5)
    with nx.config.backend_priority(algos=["semiring"]):
        assert nx.degree_centrality(M) == {0: 1.0, 1: 1.5, 2: 0.5}
        with pytest.raises(nx.NetworkXError, match="not in the graph"):
            nx.is_isolate(M, 9)  # NetworkX reads a non-node as an nbunch
        # Prim's own order, not Kruskal's (0, 1), (1, 2), (2, 3), (3, 4)
        assert list(nx.minimum_spanning_edges(G, algorithm="prim", data=False)) == \
            [(0, 1), (0, 4), (1, 2), (4, 3)]
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.in_degree_centrality(nx.path_graph(3), backend="semiring")
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.maximum_spanning_edges(nx.DiGraph([(0, 1)]), backend="semiring")
    with pytest.raises(NotImplementedError, match="not implemented by 'semiring'"):
        nx.degree_centrality(M, backend="semiring")  # can_run's refusal, by name
