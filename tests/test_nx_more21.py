"""Session 21's dispatched functions (nx21, issue 17) against NetworkX: the recognition tests
(``is_directed_acyclic_graph``, ``has_cycle``, ``is_aperiodic``, ``is_tree``, ``is_forest``,
``is_arborescence``, ``is_branching``, ``is_bipartite``, ``bipartite.color``,
``bipartite.sets``), ``dag_longest_path_length`` and ``flow_hierarchy``.

The rule of ``test_nx_more16.py``: each call returns NetworkX's answer or raises its
exception (type and message), or refuses with ``NotImplementedError`` where NetworkX must
answer (multigraphs whose parallel edges count, sums that round in NetworkX's order). Number
types are compared (an int against a float: ``==`` would not see it), and each function has
a test that it does answer.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402
from nx_semiring import paths as nxp  # noqa: E402
from nx_semiring import recognition as nxr  # noqa: E402
from nx_semiring import structure as nxs  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402

from test_nx_backend import INSTALLED, convert, graphs  # noqa: E402
from test_nx_more16 import outcome, same_or_refused  # noqa: E402

dispatch = pytest.mark.skipif(not INSTALLED, reason="nx_semiring is not installed (its entry "
                                                    "points): pip install '.[nx]'")
SOME = settings(max_examples=40, deadline=None)

SESSION21 = ["is_directed_acyclic_graph", "has_cycle", "is_semiconnected", "is_aperiodic", "is_tree", "is_forest",
             "is_arborescence", "is_branching", "is_bipartite", "color", "sets",
             "dag_longest_path_length", "flow_hierarchy", "average_neighbor_degree",
             "reciprocity", "overall_reciprocity", "schultz_index", "gutman_index",
             "hyper_wiener_index"]

MULTI = "parallel edges"


def _nx_call(name):
    """NetworkX's public function ``name`` (its decorators included: not_implemented_for
    wraps the dispatcher), run by NetworkX itself."""
    module = sys.modules[nx.utils.backends._registered_algorithms[name].orig_func.__module__]
    return functools.partial(getattr(module, name), backend="networkx")


def _both(name, G, g, *args, **kwargs):
    """(NetworkX's outcome, ours) of ``name`` on G and its conversion g."""
    ours = getattr(nxr, name, None) or getattr(nxs, name, None) or getattr(nxp, name)
    return (lambda: _nx_call(name)(G, *args, **kwargs),
            lambda: ours(g, *args, **kwargs))


@st.composite
def dags(draw, max_n=9, max_m=20, weights=st.integers(-4, 9)):
    """A random DAG (edges forward in a random order of the nodes), some edges without the
    weight, some nodes isolated, string or int labels; sometimes one back edge (a cycle)."""
    n = draw(st.integers(0, max_n))
    order = draw(st.permutations(range(n)))
    strings = draw(st.booleans())
    label = [f"n{i}" if strings else 5 * i + 2 for i in range(n)]
    G = nx.DiGraph()
    G.add_nodes_from(label[i] for i in draw(st.permutations(range(n))))
    if n >= 2:
        for i, j, w, has in draw(st.lists(st.tuples(st.integers(0, n - 1),
                                                    st.integers(0, n - 1), weights,
                                                    st.booleans()), max_size=max_m)):
            if i == j:
                continue
            u, v = label[order[min(i, j)]], label[order[max(i, j)]]
            if has:
                G.add_edge(u, v, weight=w)
            else:
                G.add_edge(u, v)
        if draw(st.booleans()) and G.number_of_edges():
            u, v = draw(st.sampled_from(sorted(G.edges, key=str)))
            G.add_edge(v, u)  # a 2-cycle, or more through the DAG's paths
    return G


# --------------------------------------------------------------------------- acyclicity
@SOME
@given(G=st.one_of(graphs(max_m=14), dags(), graphs(multigraph=True, max_m=10)))
def test_acyclicity_equals_networkx(device, G):
    g = convert(G, device)
    for name in ("is_directed_acyclic_graph", "has_cycle"):
        assert same_or_refused(*_both(name, G, g)), name


@SOME
@given(G=st.one_of(graphs(directed=True, max_m=30), graphs(directed=True, multigraph=True)))
def test_is_aperiodic_equals_networkx(device, G):
    g = convert(G, device)
    assert same_or_refused(*_both("is_aperiodic", G, g))
    # a strongly connected graph: the question NetworkX answers
    H = G.copy()
    nodes = list(H)
    H.add_edges_from(zip(nodes, nodes[1:] + nodes[:1]))
    assert same_or_refused(*_both("is_aperiodic", H, convert(H, device)))


def test_is_aperiodic_answers_cycle_lengths(device):
    """Cycles of lengths 4 and 6 share gcd 2 (periodic); adding a 3-cycle makes it 1; a
    self-loop makes any strongly connected graph aperiodic."""
    G = nx.DiGraph()
    nx.add_cycle(G, ["a", "b", "c", "d"])
    nx.add_cycle(G, ["a", "x", "y", "z", "w", "v"])
    g = convert(G, device)
    assert nxr.is_aperiodic(g) is False is nx.is_aperiodic(G)
    nx.add_cycle(G, ["b", "q", "r"])
    assert nxr.is_aperiodic(convert(G, device)) is True is nx.is_aperiodic(G)
    H = nx.DiGraph([(0, 1), (1, 0), (1, 1)])
    assert nxr.is_aperiodic(convert(H, device)) is True is nx.is_aperiodic(H)


@SOME
@given(G=st.one_of(graphs(directed=True, max_m=14), dags(),
                   graphs(directed=True, multigraph=True, max_m=10)))
def test_is_semiconnected_equals_networkx(device, G):
    assert same_or_refused(*_both("is_semiconnected", G, convert(G, device)))


def test_is_semiconnected_on_seeded_graphs(device):
    """Random digraphs of 2..12 nodes and up to 2n edges (a third of them semiconnected):
    NetworkX's answer, and both answers occur."""
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(300):
        n = int(rng.integers(2, 13))
        G = nx.DiGraph()
        G.add_nodes_from(rng.choice(100, n, replace=False).tolist())
        nodes = list(G)
        for _ in range(int(rng.integers(0, 2 * n + 1))):
            u, v = rng.choice(nodes, 2).tolist()
            G.add_edge(u, v)
        got = nxr.is_semiconnected(convert(G, device))
        assert got is nx.is_semiconnected(G)
        seen.add(got)
    assert seen == {True, False}
    with pytest.raises(nx.NetworkXPointlessConcept):
        nxr.is_semiconnected(convert(nx.DiGraph(), device))


# --------------------------------------------------------------------------- trees
@SOME
@given(G=st.one_of(graphs(max_m=12), graphs(multigraph=True, max_m=8)), extra=st.booleans())
def test_trees_and_forests_equal_networkx(device, G, extra):
    """Random graphs (few edges: forests are common) and, with ``extra``, a spanning tree of
    G's nodes built on top of nothing (a tree, or an arborescence when directed)."""
    if extra:
        nodes = list(G)
        H = G.__class__()
        H.add_nodes_from(nodes)
        H.add_edges_from((nodes[i // 2], nodes[i]) for i in range(1, len(nodes)))
        G = H
    g = convert(G, device)
    names = ["is_tree", "is_forest"] + (["is_arborescence", "is_branching"] if G.is_directed()
                                        else [])
    for name in names:
        assert same_or_refused(*_both(name, G, g)), name


def test_tree_answers(device):
    T = nx.DiGraph([("r", "a"), ("r", "b"), ("b", "c")])
    T.add_node("x")
    g = convert(T, device)
    assert (nxr.is_tree(g), nxr.is_forest(g), nxr.is_branching(g)) == (False, True, True)
    T.remove_node("x")
    g = convert(T, device)
    assert (nxr.is_tree(g), nxr.is_arborescence(g)) == (True, True)
    T.add_edge("a", "c")  # c has two parents: a tree of the undirected view no more
    g = convert(T, device)
    assert (nxr.is_tree(g), nxr.is_forest(g), nxr.is_branching(g)) == (False, False, False)
    U = nx.Graph([(0, 1)])
    U.add_edge(2, 2)  # a self-loop is a cycle
    assert nxr.is_forest(convert(U, device)) is False is nx.is_forest(U)
    # a multigraph's parallel edges count in NetworkX's edge totals: never a tree or forest
    M = nx.MultiGraph([(0, 1), (0, 1)])
    assert nxr.is_tree(convert(M, device)) is False is nx.is_tree(M)
    assert nxr.is_forest(convert(M, device)) is False is nx.is_forest(M)
    M = nx.MultiDiGraph([(0, 1), (1, 2)])
    assert nxr.is_arborescence(convert(M, device)) is True is nx.is_arborescence(M)
    M.add_edge(1, 2)
    assert nxr.is_branching(convert(M, device)) is False is nx.is_branching(M)
    with pytest.raises(nx.NetworkXPointlessConcept, match="G has no nodes."):
        nxr.is_forest(convert(nx.Graph(), device))
    with pytest.raises(nx.NetworkXNotImplemented):
        nxr.is_arborescence(convert(nx.path_graph(3), device))


# --------------------------------------------------------------------------- bipartite
@SOME
@given(G=st.one_of(graphs(max_m=14), graphs(multigraph=True, max_m=10)), even=st.booleans())
def test_bipartite_equals_networkx(device, G, even):
    """Random graphs and, with ``even``, the same edges kept only between nodes of different
    parity of their position (bipartite, with isolated nodes and several components)."""
    if even:
        pos = {v: i for i, v in enumerate(G)}
        G = G.edge_subgraph([e for e in G.edges(keys=True) if (pos[e[0]] + pos[e[1]]) % 2]
                            if G.is_multigraph() else
                            [e for e in G.edges if (pos[e[0]] + pos[e[1]]) % 2]).copy()
        G.add_nodes_from(pos)  # the isolated ones again, at the end
    g = convert(G, device)
    for name in ("is_bipartite", "color", "sets"):
        answered = same_or_refused(*_both(name, G, g), refusal="directed graph")
        assert answered or (G.is_directed() and name != "is_bipartite"), name
    if even:
        assert nxr.is_bipartite(g) is True


def test_bipartite_colour_starts_where_networkx_does(device):
    """The colour 1 goes to the first node, in node order, with a neighbour. A digraph's
    colour dict is keyed in an order the conversion does not keep (its predecessor dicts'):
    NetworkX runs it."""
    G = nx.Graph()
    G.add_nodes_from(["sink", "iso", "mid", "top"])
    G.add_edges_from([("mid", "sink"), ("top", "mid")])
    g = convert(G, device)
    assert list(nxr.color(g).items()) == list(nx.bipartite.color(G).items()) \
        == [("sink", 1), ("mid", 0), ("top", 1), ("iso", 0)]
    H = nx.Graph([("mid", "sink"), ("top", "mid")])
    assert nxr.sets(convert(H, device)) == nx.bipartite.sets(H) == ({"mid"}, {"sink", "top"})
    with pytest.raises(nx.AmbiguousSolution):
        nxr.sets(g)
    D = convert(nx.DiGraph([("mid", "sink"), ("top", "mid")]), device)
    for f in (nxr.color, nxr.sets):
        with pytest.raises(NotImplementedError, match="directed"):
            f(D)
    with pytest.raises(nx.NetworkXError, match="Graph is not bipartite."):
        nxr.color(convert(nx.Graph([(0, 0)]), device))
    with pytest.raises(NotImplementedError, match="top_nodes"):
        nxr.sets(g, top_nodes=["sink"])


@SOME
@given(a=st.integers(1, 24), b=st.integers(1, 24), seed=st.integers(0, 2**30))
def test_bipartite_sides_iterate_in_networkx_order(device, a, b, seed):
    """``sets`` builds its sets in NetworkX's colour order and ``color`` keys its dict in
    it: a set's iteration order follows insertion where string hashes collide, and
    NetworkX's matchings key their answers in it (a GPU run found
    ``hopcroft_karp_matching``'s fallback answering in another order through our ``sets``).
    String labels, shuffled node order, a connected graph."""
    rng = np.random.default_rng(seed)
    labels = [f"v{i}{chr(97 + i % 26)}" for i in range(a + b)]
    G = nx.Graph()
    G.add_nodes_from(rng.permutation(labels).tolist())
    left, right = labels[:a], labels[a:]
    for i, v in enumerate(right):  # connected: every right node to a left one, the left
        G.add_edge(left[i % a], v)  # nodes chained through right ones where there are
    for i in range(1, a):
        G.add_edge(left[i], right[i % b])
    for _ in range(int(rng.integers(0, 2 * (a + b)))):
        G.add_edge(left[int(rng.integers(a))], right[int(rng.integers(b))])
    if not nx.is_connected(G):
        return
    g = convert(G, device)
    assert list(nxr.color(g).items()) == list(nx.bipartite.color(G).items())
    X, Y = nxr.sets(g)
    x, y = nx.bipartite.sets(G)
    assert (list(X), list(Y)) == (list(x), list(y))


# --------------------------------------------------------------------------- DAG measures
@SOME
@given(G=dags(), default=st.sampled_from([1, 2, -1, 0.5]), weight=st.sampled_from(
    ["weight", None, "other"]))
def test_dag_longest_path_length_equals_networkx(device, G, default, weight):
    attrs = {weight: default} if weight is not None else None
    g = nx_semiring.from_networkx(G, edge_attrs=attrs, device=device)
    same_or_refused(*_both("dag_longest_path_length", G, g, weight=weight,
                           default_weight=default), "integral values among float weights")


@SOME
@given(G=dags(weights=st.sampled_from([0.25, -1.5, 3.0, 2.125])))
def test_dag_longest_path_length_of_exact_floats(device, G):
    g = nx_semiring.from_networkx(G, edge_attrs={"weight": 1}, device=device)
    same_or_refused(*_both("dag_longest_path_length", G, g),
                    "integral values among float weights")


def test_dag_longest_path_length_answers(device):
    G = nx.DiGraph([("a", "b", {"w": 3}), ("b", "c", {"w": -1}), ("c", "d", {"w": 4}),
                    ("a", "d", {"w": 5})])
    g = nx_semiring.from_networkx(G, edge_attrs={"w": 1}, device=device)
    assert nxr.dag_longest_path_length(g, "w") == 6 == nx.dag_longest_path_length(G, "w")
    assert type(nxr.dag_longest_path_length(g, "w")) is int
    N = nx.DiGraph([(0, 1, {"weight": -2})])  # every path negative: NetworkX's [0], length 0
    assert nxr.dag_longest_path_length(convert(N, device)) == 0
    assert nxr.dag_longest_path_length(convert(N, device), weight=None,
                                       default_weight=2.5) == 2.5
    # ints beside a float default: NetworkX's 5 (the int-only path) is an int
    M = nx.DiGraph([(0, 1, {"weight": 5})])
    M.add_edge(2, 3)
    m = nx_semiring.from_networkx(M, edge_attrs={"weight": 0.5}, device=device)
    assert not same_or_refused(*_both("dag_longest_path_length", M, m, default_weight=0.5),
                               "integral values among float weights")
    with pytest.raises(nx.NetworkXUnfeasible, match="contains a cycle"):
        nxr.dag_longest_path_length(convert(nx.DiGraph([(0, 1), (1, 0)]), device))
    with pytest.raises(NotImplementedError, match="round"):
        nxr.dag_longest_path_length(convert(nx.DiGraph([(0, 1, {"weight": 0.1}),
                                                        (1, 2, {"weight": 0.2})]), device))


@SOME
@given(G=st.one_of(graphs(max_m=20, weights="any"), dags(), graphs(multigraph=True)),
       weight=st.sampled_from([None, "weight"]))
def test_flow_hierarchy_equals_networkx(device, G, weight):
    g = convert(G, device)
    assert same_or_refused(*_both("flow_hierarchy", G, g, weight=weight),
                           (MULTI, "round")) or G.is_multigraph() or weight is not None


def test_flow_hierarchy_answers(device):
    G = nx.DiGraph([(0, 1, {"weight": 3}), (1, 0, {"weight": 2}), (1, 2, {"weight": 4}),
                    (2, 2, {"weight": 1})])
    g = convert(G, device)
    for weight in (None, "weight"):
        assert outcome(lambda: nxr.flow_hierarchy(g, weight)) == \
            outcome(lambda: nx.flow_hierarchy(G, weight))
    Z = nx.DiGraph([(0, 1, {"weight": 0})])  # total weight 0: NetworkX's 0.0 / 0.0
    with pytest.raises(ZeroDivisionError, match="float division by zero"):
        nx.flow_hierarchy(Z, "weight")
    with pytest.raises(ZeroDivisionError, match="float division by zero"):
        nxr.flow_hierarchy(convert(Z, device), "weight")
    with pytest.raises(nx.NetworkXError, match="empty graphs"):
        nxr.flow_hierarchy(convert(nx.DiGraph([(0, 1)]).subgraph([0]).copy(), device))
    with pytest.raises(nx.NetworkXError, match="must be a digraph"):
        nxr.flow_hierarchy(convert(nx.path_graph(2), device))


# --------------------------------------------------------------------------- degree-based
@SOME
@given(G=st.one_of(graphs(max_m=20, weights="any"), graphs(multigraph=True, max_m=10)),
       data=st.data())
def test_average_neighbor_degree_equals_networkx(device, G, data):
    g = convert(G, device)
    nodes = list(G)
    some = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(nodes + ["missing"]))
                               if nodes else st.none(), st.just(set(nodes[:3]))))
    weight = data.draw(st.sampled_from([None, "weight"]))
    kinds = ["in", "out", "in+out", "bad"] if G.is_directed() else ["out", "in"]
    source, target = data.draw(st.sampled_from(kinds)), data.draw(st.sampled_from(kinds))
    answered = same_or_refused(*_both("average_neighbor_degree", G, g, source, target, some,
                                      weight), ("parallel edges", "non-integral"))
    assert answered or G.is_multigraph() or weight is not None
    if answered and some is None:  # keys in NetworkX's order too
        r = _nx_call("average_neighbor_degree")
        try:
            assert list(nxs.average_neighbor_degree(g, source, target, None, weight)) == \
                list(r(G, source, target, None, weight))
        except nx.NetworkXError:
            pass


@SOME
@given(G=st.one_of(graphs(directed=True, max_m=25), graphs(directed=False, max_m=10),
                   graphs(directed=True, multigraph=True, max_m=15)), data=st.data())
def test_reciprocity_equals_networkx(device, G, data):
    """Directed graphs; undirected ones (NetworkX's decorator refuses only undirected
    multigraphs: their overall reciprocity is 0.0, their nodes' NetworkX's AttributeError);
    directed multigraphs (per node their simple graph; overall, parallel edges count)."""
    g = convert(G, device)
    nodes = list(G)
    some = data.draw(st.one_of(st.none(), st.sampled_from(nodes) if nodes else st.none(),
                               st.lists(st.sampled_from(nodes + [-1])) if nodes else st.none(),
                               st.just(tuple(nodes[::2]))))
    refusals = ("parallel edges", "AttributeError")
    answered = same_or_refused(*_both("reciprocity", G, g, some), refusals)
    assert answered or G.is_multigraph() or not G.is_directed()
    answered = same_or_refused(*_both("overall_reciprocity", G, g), refusals)
    assert answered or G.is_multigraph()


def test_reciprocity_answers(device):
    G = nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c"), ("c", "c")])
    G.add_node("z")
    g = convert(G, device)
    assert nxs.overall_reciprocity(g) == nx.overall_reciprocity(G) == 0.5
    assert nxs.reciprocity(g, ["c", "z", "a", "q"]) == nx.reciprocity(G, ["c", "z", "a", "q"])
    assert list(nxs.reciprocity(g, ["c", "z", "a"])) == ["c", "z", "a"]
    assert nxs.reciprocity(g, "c") == nx.reciprocity(G, "c") == 2 / 3
    with pytest.raises(nx.NetworkXError, match="isolated"):
        nxs.reciprocity(g, "z")
    with pytest.raises(nx.NetworkXError, match="empty"):
        nxs.overall_reciprocity(convert(nx.DiGraph([(0, 0)]).subgraph([]).copy(), device))
    with pytest.raises(NotImplementedError, match="iterator"):
        nxs.reciprocity(g, iter(["a"]))
    assert "iterator" in bi.can_run("reciprocity", (G, iter(["a"])), {})


# --------------------------------------------------------------------------- indices
INDICES = ("schultz_index", "gutman_index", "hyper_wiener_index")


@SOME
@given(G=st.one_of(graphs(directed=False, max_m=20, weights="any"),
                   graphs(directed=False, max_m=20, weights="int")),
       connect=st.booleans(), weight=st.sampled_from([None, "weight"]))
def test_distance_indices_equal_networkx(device, G, connect, weight):
    """Undirected graphs (with ``connect``, a path through the nodes added: connected),
    self-loops (their degree counts twice), edges without the weight, int and float
    weights (floats are left to NetworkX)."""
    if connect:
        nodes = list(G)
        G.add_edges_from(zip(nodes, nodes[1:]), weight=2)
    g = convert(G, device)
    for name in INDICES:
        answered = same_or_refused(*_both(name, G, g, weight=weight),
                                   ("non-integer", "negative weights"))
        assert answered or weight is not None, name


def test_distance_indices_answer(device):
    G = nx.Graph([("a", "b", {"weight": 3}), ("b", "c", {"weight": 1}), ("c", "a")])
    G.add_edge("c", "c", weight=2)
    G.add_edge("c", "d", weight=4)
    g = convert(G, device)
    for name in INDICES:
        for weight in (None, "weight"):
            assert outcome(lambda: getattr(nxp, name)(g, weight)) == \
                outcome(lambda: getattr(nx, name)(G, weight)), (name, weight)
    W = nx.relabel_nodes(G, {"d": "weight"})  # NetworkX's d["weight"] is its weight argument
    with pytest.raises(NotImplementedError, match="named 'weight'"):
        nxp.schultz_index(convert(W, device))
    G.add_node("z")
    assert nxp.gutman_index(convert(G, device)) == float("inf")
    with pytest.raises(nx.NetworkXNotImplemented):
        nxp.schultz_index(convert(nx.DiGraph([(0, 1)]), device))
    with pytest.raises(nx.NetworkXPointlessConcept):
        nxp.hyper_wiener_index(convert(nx.Graph(), device))


# --------------------------------------------------------------------------- dispatch
@dispatch
def test_session21_functions_dispatch_and_refuse():
    G = nx.DiGraph([(0, 1), (1, 2)])
    assert nx.is_directed_acyclic_graph(G, backend="semiring") is True
    assert nx.dag_longest_path_length(G, backend="semiring") == 2
    assert bi.can_run("sets", (nx.path_graph(3),), {"top_nodes": [0]}) != True  # noqa: E712
    assert "multigraph" in bi.can_run("dag_longest_path_length", (nx.MultiDiGraph([(0, 1)]),),
                                      {})
    assert bi.can_run("is_tree", (nx.MultiGraph([(0, 1)]),), {}) is True
    assert bi.can_run("is_bipartite", (nx.MultiGraph([(0, 1)]),), {}) is True


@pytest.mark.parametrize("dev", ["cpu", "gpu"])
def test_should_run_model_of_session_21(dev):
    """Every new function is dispatched and priced: a tiny graph stays with NetworkX, a
    large cached one goes to the engine."""
    predict = nx_semiring.interface.predict
    assert set(SESSION21) <= set(nx_semiring.FUNCTIONS)
    for name in SESSION21:
        t_nx, t_sr = predict(name, 5, 8, device=dev)
        assert t_sr > t_nx, name
        like = {"dag_longest_path_length": "single_source_bellman_ford"}.get(
            name, "wiener_index" if name in INDICES else "strongly_connected_components")
        assert predict(name, 10**6, 10**7, cached=True, has_weights=True, device=dev) == \
            predict(like, 10**6, 10**7, cached=True, has_weights=True, device=dev), name


def test_larger_random_graphs_equal_networkx(device):
    """Seeded graphs of 30..200 nodes: sparse random DAGs (a back edge now and then), random
    trees and forests, bipartite graphs with one odd edge now and then."""
    rng = np.random.default_rng(21)
    for _ in range(12):
        n = int(rng.integers(30, 200))
        order = rng.permutation(n)
        D = nx.DiGraph()
        D.add_nodes_from(rng.permutation(n).tolist())
        for _ in range(2 * n):
            i, j = sorted(rng.choice(n, 2, replace=False).tolist())
            D.add_edge(int(order[i]), int(order[j]), weight=int(rng.integers(-5, 20)))
        if rng.random() < 0.3:
            u, v = next(iter(D.edges))
            D.add_edge(v, u, weight=1)
        d = convert(D, device)
        for name in ("is_directed_acyclic_graph", "dag_longest_path_length", "flow_hierarchy",
                     "is_forest", "is_bipartite"):
            assert same_or_refused(*_both(name, D, d)), name
        T = nx.random_labeled_tree(n, seed=int(rng.integers(1 << 30)))
        if rng.random() < 0.5:
            T.remove_edges_from(list(T.edges)[: int(rng.integers(1, 5))])
        t = convert(T, device)
        for name in ("is_tree", "is_forest", "is_bipartite", "color"):
            assert same_or_refused(*_both(name, T, t)), name
        B = nx.bipartite.random_graph(n // 2, n - n // 2, 0.05, seed=int(rng.integers(1 << 30)))
        if rng.random() < 0.5:
            B.add_edge(0, 1)
        b = convert(B, device)
        for name in ("is_bipartite", "color", "sets"):
            assert same_or_refused(*_both(name, B, b)), name
