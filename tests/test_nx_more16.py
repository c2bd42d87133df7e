"""Session 20's dispatched functions (nx16, issue 17) against NetworkX: the multi-source and
all-pairs paths, ``johnson``, ``single_target_shortest_path``, ``average_shortest_path_length``,
``wiener_index``, ``global_efficiency``, the attracting components and the NumPy eigenvector
and Katz centralities.

The rule of ``test_nx_paths2.py``: each call returns NetworkX's answer or raises its
exception (type and message), or refuses with ``NotImplementedError`` raised by the call
itself where NetworkX's answer is its own choice (ties among shortest paths, orders of its
searches, float sums in its order). Here the answers are compared to the repr where NetworkX
fixes number types (an int total against a float one: ``==`` ignores the difference), and
each function has a test that it does answer where the answer is unique.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402
from semiring.backend.cpu import compiled as _compiled  # noqa: E402
from nx_semiring import algorithms as nxalg  # noqa: E402
from nx_semiring import analytics as nxa  # noqa: E402
from nx_semiring import centrality as nxc  # noqa: E402
from nx_semiring import paths as nxp  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402

from test_nx_backend import INSTALLED, convert, graphs  # noqa: E402

dispatch = pytest.mark.skipif(not INSTALLED, reason="nx_semiring is not installed (its entry "
                                                    "points): pip install '.[nx]'")
FEW = settings(max_examples=25, deadline=None)

TIES = "several shortest paths"
# NetworkX's Bellman–Ford dicts are keyed in its queue's order, answered where it is a BFS
# order (session 22: nx_semiring.algorithms._spfa_order)
QUEUE = "queue's order"


def _typed(r, typed=True):
    """``r`` with every number paired with its type (``==`` says 3 == 3.0; ``typed=False``:
    the numbers alone), generators drained (a dict's key order is not compared)."""
    if hasattr(r, "__next__"):
        r = list(r)
    if isinstance(r, dict):
        return {k: _typed(v, typed) for k, v in r.items()}
    if isinstance(r, (list, tuple)):
        return type(r)(_typed(x, typed) for x in r)
    if isinstance(r, set):
        return r
    if isinstance(r, (bool, int, float)) and typed:
        return (type(r), r if not (isinstance(r, float) and math.isnan(r)) else "nan")
    return r


def outcome(f, typed=True):
    """The answer with its number types, or the exception's type and message; NetworkX's
    AttributeError (reciprocity of an undirected graph's nodes) and ZeroDivisionError
    (flow_hierarchy of a total weight 0) count as outcomes too (test_nx_more21)."""
    try:
        return "ok", _typed(f(), typed)
    except NotImplementedError:
        raise
    except (nx.NetworkXException, ValueError, KeyError, TypeError, AttributeError,
            ZeroDivisionError) as exc:
        return type(exc), str(exc)


def uniform(G, weight="weight"):
    """Whether every edge's ``weight`` is of one Python type (an edge without it: NetworkX's
    int 1). Where ints and floats mix, NetworkX's distances are ints along int-only paths,
    the engine's floats throughout (one dtype an attribute; the values equal: the
    convention of nx_semiring.algorithms), so only the values are compared there."""
    return len({type(d.get(weight, 1)) for *_, d in G.edges(data=True)}) <= 1


def same_or_refused(f_nx, f_sr, refusal=(), typed=True):
    """NetworkX's outcome exactly (number types included unless ``typed`` is false), or a
    NotImplementedError whose message contains one of ``refusal``. Returns whether the
    backend answered."""
    expected = outcome(f_nx, typed)
    try:
        got = outcome(f_sr, typed)
    except NotImplementedError as exc:
        refusal = (refusal,) if isinstance(refusal, str) else refusal
        assert any(r in str(exc) for r in refusal), exc
        return False
    assert got == expected
    return True


def _negative(G):
    return any(d.get("weight", 1) < 0 for *_, d in G.edges(data=True))


# --------------------------------------------------------------------------- multi-source
@FEW
@given(G=graphs(max_m=25), data=st.data())
def test_multi_source_dijkstra_equals_networkx(device, G, data):
    g = convert(G, device)
    nodes = list(G)
    sources = data.draw(st.lists(st.sampled_from(nodes + ["missing"]), max_size=3)
                        if nodes else st.just([]))
    cutoff = data.draw(st.sampled_from([None, 0, 2, 3.5]))
    target = data.draw(st.sampled_from([None, "missing", *nodes]))
    same_or_refused(lambda: nx.multi_source_dijkstra(G, sources, target=target, cutoff=cutoff),
                    lambda: nxp.multi_source_dijkstra(g, sources, target=target,
                                                      cutoff=cutoff), TIES, uniform(G))
    same_or_refused(lambda: nx.multi_source_dijkstra_path(G, sources, cutoff=cutoff),
                    lambda: nxp.multi_source_dijkstra_path(g, sources, cutoff=cutoff), TIES)


def test_multi_source_dijkstra_answers_unique_paths(device):
    """Two sources, a path between them with a unique midpoint split; a parallel edge (the
    lighter one counts), a node without edges, string labels. (An undirected 0-weight edge
    between two nodes at one distance is a tie to the check, each end tight from the
    other: refused although NetworkX's path is determined; a directed one is answered,
    test_multi_source_dijkstra_refuses_ties.)"""
    G = nx.MultiGraph()
    G.add_edge("a", "b", weight=1)
    G.add_edge("b", "c", weight=2)
    G.add_edge("c", "d", weight=4)
    G.add_edge("d", "e", weight=5)
    G.add_edge("c", "d", weight=3)  # parallel: NetworkX reads the least, 3
    G.add_node("z")
    g = convert(G, device)
    for sources in (["a"], ["a", "e"], {"e"}):
        assert same_or_refused(lambda: nx.multi_source_dijkstra(G, sources),
                               lambda: nxp.multi_source_dijkstra(g, sources))
        assert same_or_refused(lambda: nx.multi_source_dijkstra_path(G, sources, cutoff=3),
                               lambda: nxp.multi_source_dijkstra_path(g, sources, cutoff=3))
    assert same_or_refused(lambda: nx.multi_source_dijkstra(G, ["a", "e"], target="c"),
                           lambda: nxp.multi_source_dijkstra(g, ["a", "e"], target="c"))
    assert same_or_refused(lambda: nx.multi_source_dijkstra(G, ["a"], target="z"),
                           lambda: nxp.multi_source_dijkstra(g, ["a"], target="z"))
    assert same_or_refused(lambda: nx.multi_source_dijkstra(G, ["a", "e"], target="e"),
                           lambda: nxp.multi_source_dijkstra(g, ["a", "e"], target="e"))


def test_multi_source_dijkstra_refuses_ties(device):
    # c is 2 from a and 2 from e: NetworkX's heap picks the path
    G = nx.path_graph(["a", "b", "c", "d", "e"])
    g = convert(G, device)
    if _compiled.ENABLED:  # NetworkX's heap loop compiled picks as NetworkX (session 24)
        assert nxp.multi_source_dijkstra(g, ["a", "e"]) == nx.multi_source_dijkstra(G, ["a", "e"])
        assert nxp.multi_source_dijkstra(g, ["a", "e"], target="c") == \
            nx.multi_source_dijkstra(G, ["a", "e"], target="c")
    else:
        with pytest.raises(NotImplementedError, match=TIES):
            nxp.multi_source_dijkstra(g, ["a", "e"])
        with pytest.raises(NotImplementedError, match=TIES):
            nxp.multi_source_dijkstra(g, ["a", "e"], target="c")
    # two sources joined by a 0-weight edge: the second source's own path is [source]
    H = nx.DiGraph([(0, 1, {"weight": 0}), (1, 2, {"weight": 1})])
    assert same_or_refused(lambda: nx.multi_source_dijkstra(H, [0, 1]),
                           lambda: nxp.multi_source_dijkstra(convert(H, device), [0, 1]))


def test_multi_source_dijkstra_on_tie_heavy_graphs(device):
    """Seeded random graphs of weights 1..3, where equal paths are common (in 3000 such
    graphs the engine's predecessors gave another path than NetworkX's in 390 before the
    tie check): NetworkX's answer or the refusal, never another path."""
    rng = np.random.default_rng(5)
    answered = 0
    for _ in range(150):
        n = int(rng.integers(2, 12))
        G = nx.DiGraph() if rng.random() < 0.5 else nx.Graph()
        G.add_nodes_from(rng.choice(100, n, replace=False).tolist())
        nodes = list(G)
        for _ in range(int(rng.integers(1, 30))):
            u, v = rng.choice(nodes, 2).tolist()
            G.add_edge(u, v, weight=int(rng.choice([1, 1, 2, 3])))
        S = rng.choice(nodes, int(rng.integers(1, min(3, n) + 1)), replace=False).tolist()
        g = convert(G, device)
        answered += same_or_refused(lambda: nx.multi_source_dijkstra(G, S),
                                    lambda: nxp.multi_source_dijkstra(g, S), TIES)
    assert answered > 10


def _tie_heavy_graphs(seed, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(2, 12))
        G = nx.DiGraph() if rng.random() < 0.5 else nx.Graph()
        G.add_nodes_from(rng.choice(100, n, replace=False).tolist())
        nodes = list(G)
        for _ in range(int(rng.integers(1, 30))):
            u, v = rng.choice(nodes, 2).tolist()
            G.add_edge(u, v, weight=int(rng.choice([1, 1, 2, 3])))
        yield G, nodes[int(rng.integers(n))]


def test_single_source_paths_equal_networkx_on_tie_heavy_graphs(device):
    """A defect of nx_semiring.algorithms before session 20: single_source_dijkstra(_path),
    single_source_bellman_ford(_path) and the weighted shortest_path(G, source) and
    shortest_path(G) returned the engine's predecessor tree's paths among equally short
    ones (198 of 1000 such graphs differed from NetworkX's single_source_dijkstra_path);
    now NetworkX's answer or the refusal."""
    answered = 0
    for G, s in _tie_heavy_graphs(7, 120):
        g = convert(G, device)
        calls = [(lambda: nx.single_source_dijkstra_path(G, s),
                  lambda: nxalg.single_source_dijkstra_path(g, s)),
                 (lambda: nx.single_source_dijkstra(G, s, cutoff=4),
                  lambda: nxalg.single_source_dijkstra(g, s, cutoff=4)),
                 (lambda: nx.single_source_bellman_ford_path(G, s),
                  lambda: nxalg.single_source_bellman_ford_path(g, s)),
                 (lambda: nx.single_source_bellman_ford(G, s),
                  lambda: nxalg.single_source_bellman_ford(g, s)),
                 (lambda: nx.shortest_path(G, s, weight="weight"),
                  lambda: nxalg.shortest_path(g, s, weight="weight")),
                 (lambda: nx.shortest_path(G, target=s, weight="weight"),
                  lambda: nxalg.shortest_path(g, target=s, weight="weight")),
                 (lambda: nx.shortest_path(G, weight="weight", method="bellman-ford"),
                  lambda: nxalg.shortest_path(g, weight="weight", method="bellman-ford")),
                 (lambda: nx.shortest_path(G, weight="weight"),
                  lambda: nxalg.shortest_path(g, weight="weight"))]
        for f_nx, f_sr in calls:
            # G._pred: a weighted search to a target of a digraph (session 23)
            answered += same_or_refused(f_nx, f_sr, (TIES, QUEUE, "G._pred"))
    assert answered > 100


def test_multi_source_errors_and_iterators(device):
    G = nx.path_graph(3)
    g = convert(G, device)
    for sources in ([], [7], set()):
        same_or_refused(lambda: nx.multi_source_dijkstra(G, sources),
                        lambda: nxp.multi_source_dijkstra(g, sources))
    assert bi.can_run("multi_source_dijkstra", (G, iter([0])), {}) is not True
    assert bi.can_run("multi_source_dijkstra_path", (G, iter([0])), {}) is not True
    assert bi.can_run("multi_source_dijkstra", (G, [0]), {}) is True
    # an object equal to a node of another type: NetworkX's paths hold it, refused
    with pytest.raises(NotImplementedError, match="another type"):
        nxp.multi_source_dijkstra(g, [1.0])
    neg = nx.Graph([(0, 1, {"weight": -1})])
    with pytest.raises(NotImplementedError, match="negative"):
        nxp.multi_source_dijkstra(convert(neg, device), [0])


# --------------------------------------------------------------------------- single target
@FEW
@given(G=graphs(directed=False), data=st.data())
def test_single_target_shortest_path_equals_networkx(device, G, data):
    g = convert(G, device, weight=None)
    t = data.draw(st.sampled_from([*G, "missing"]))
    cutoff = data.draw(st.sampled_from([None, 0, 1, 2.5]))
    assert same_or_refused(lambda: nx.single_target_shortest_path(G, t, cutoff=cutoff),
                           lambda: nxp.single_target_shortest_path(g, t, cutoff=cutoff))


def test_single_target_shortest_path_directed_left_to_networkx(device):
    D = nx.DiGraph([(0, 2), (1, 2)])
    assert "G._pred" in bi.can_run("single_target_shortest_path", (D, 2), {})
    with pytest.raises(NotImplementedError, match="G._pred"):
        nxp.single_target_shortest_path(convert(D, device, weight=None), 2)
    with pytest.raises(nx.NodeNotFound, match="Target 9 not in G"):
        nxp.single_target_shortest_path(convert(D, device, weight=None), 9)


# --------------------------------------------------------------------------- all pairs
@FEW
@given(G=graphs(max_m=20), cutoff=st.sampled_from([None, 1, 4]))
def test_all_pairs_dijkstra_equals_networkx(device, G, cutoff):
    g = convert(G, device)
    same_or_refused(lambda: nx.all_pairs_dijkstra(G, cutoff=cutoff),
                    lambda: nxp.all_pairs_dijkstra(g, cutoff=cutoff), TIES, uniform(G))


@FEW
@given(G=graphs(weights="any", max_m=20))
def test_all_pairs_bellman_ford_path_and_johnson_equal_networkx(device, G):
    """Negative weights: paths where unique; a negative cycle: NetworkXUnbounded, from
    NetworkX's generator after the earlier sources (read by ``_typed``) and from johnson."""
    g = convert(G, device)
    same_or_refused(lambda: nx.all_pairs_bellman_ford_path(G),
                    lambda: nxp.all_pairs_bellman_ford_path(g), (TIES, QUEUE))
    same_or_refused(lambda: nx.johnson(G), lambda: nxp.johnson(g), TIES)
    same_or_refused(lambda: nx.johnson(G, weight=None), lambda: nxp.johnson(g, weight=None),
                    TIES)


def _unique_paths_graph():
    G = nx.DiGraph()
    G.add_weighted_edges_from([("s", "a", 3), ("s", "b", 1), ("b", "a", -1), ("a", "c", 4),
                               ("b", "c", 6), ("c", "s", 2)])
    G.add_node(("t", 1))  # a tuple label, unreachable
    return G


def test_all_pairs_paths_answer_unique_paths(device):
    G = _unique_paths_graph()
    g = convert(G, device)
    # b → a (-1) shortens the path to a after NetworkX's queue found it: its order (session
    # 22), which its queue loop compiled gives (session 24)
    assert same_or_refused(lambda: nx.all_pairs_bellman_ford_path(G),
                           lambda: nxp.all_pairs_bellman_ford_path(g),
                           QUEUE) == _compiled.ENABLED
    assert same_or_refused(lambda: nx.johnson(G), lambda: nxp.johnson(g))
    H = nx.Graph([(0, "x", {"weight": 1}), ("x", 2.5, {"weight": 2}),
                  (0, 2.5, {"weight": 4})])  # mixed labels
    h = convert(H, device)
    assert same_or_refused(lambda: nx.all_pairs_dijkstra(H), lambda: nxp.all_pairs_dijkstra(h))
    assert same_or_refused(lambda: nx.all_pairs_dijkstra(H, cutoff=2),
                           lambda: nxp.all_pairs_dijkstra(h, cutoff=2))


def test_negative_cycles_raise_as_networkx(device):
    G = _unique_paths_graph()
    G["c"]["s"]["weight"] = -7  # s → b → a → c → s weighs -3
    g = convert(G, device)
    assert same_or_refused(lambda: nx.johnson(G), lambda: nxp.johnson(g))
    assert same_or_refused(lambda: nx.all_pairs_bellman_ford_path(G),
                           lambda: nxp.all_pairs_bellman_ford_path(g))
    U = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1})])  # undirected: a cycle
    assert same_or_refused(lambda: nx.johnson(U), lambda: nxp.johnson(convert(U, device)))
    L = nx.DiGraph([(0, 1)])
    L.add_edge(1, 1, weight=-1)  # a negative self-loop
    assert same_or_refused(lambda: nx.johnson(L), lambda: nxp.johnson(convert(L, device)))


def test_johnson_refuses_ties_and_inexact_floats(device):
    G = nx.cycle_graph(4)  # 0 → 2 two ways
    if _compiled.ENABLED:  # NetworkX's reweighted Dijkstra's heap, compiled (session 24)
        assert nxp.johnson(convert(G, device)) == nx.johnson(G)
    else:
        with pytest.raises(NotImplementedError, match=TIES):
            nxp.johnson(convert(G, device))
    F = nx.DiGraph([(0, 1, {"weight": 0.1}), (1, 2, {"weight": 0.2})])
    with pytest.raises(NotImplementedError, match="round"):
        nxp.johnson(convert(F, device))
    assert nxp.johnson(convert(nx.Graph(), device)) == nx.johnson(nx.Graph()) == {}


# --------------------------------------------------------------------------- s-t and predecessors
@FEW
@given(G=graphs(max_m=25), data=st.data())
def test_bidirectional_paths_equal_networkx(device, G, data):
    g = convert(G, device)
    ends = [*G, "missing"]
    s, t = data.draw(st.sampled_from(ends)), data.draw(st.sampled_from(ends))
    same_or_refused(lambda: nx.bidirectional_shortest_path(G, s, t),
                    lambda: nxp.bidirectional_shortest_path(g, s, t), TIES)
    same_or_refused(lambda: nx.bidirectional_dijkstra(G, s, t),
                    lambda: nxp.bidirectional_dijkstra(g, s, t), TIES, uniform(G))


def test_bidirectional_paths_answered_and_refused(device):
    # 4.0, not 4: NetworkX's sums of ints beside floats are typed path by path (refused)
    G = nx.DiGraph([("a", "b", {"weight": 1.5}), ("b", "c", {"weight": 2.25}),
                    ("a", "c", {"weight": 4.0}), ("c", "d", {"weight": 0.5})])
    G.add_node("z")
    g = convert(G, device)
    assert same_or_refused(lambda: nx.bidirectional_dijkstra(G, "a", "d"),
                           lambda: nxp.bidirectional_dijkstra(g, "a", "d"))
    assert same_or_refused(lambda: nx.bidirectional_dijkstra(G, "a", "z"),
                           lambda: nxp.bidirectional_dijkstra(g, "a", "z"))
    assert same_or_refused(lambda: nx.bidirectional_dijkstra(G, "d", "d"),
                           lambda: nxp.bidirectional_dijkstra(g, "d", "d"))
    assert same_or_refused(lambda: nx.bidirectional_shortest_path(G, "a", "d"),
                           lambda: nxp.bidirectional_shortest_path(g, "a", "d"))
    F = nx.path_graph(4)
    nx.set_edge_attributes(F, 0.1, "weight")  # 0.1 + 0.1 + 0.1 rounds by its order
    with pytest.raises(NotImplementedError, match="round"):
        nxp.bidirectional_dijkstra(convert(F, device), 0, 3)
    with pytest.raises(NotImplementedError, match=TIES):
        nxp.bidirectional_shortest_path(convert(nx.cycle_graph(4), device), 0, 2)


@FEW
@given(G=graphs(weights="any", max_m=25), data=st.data(),
       cutoff=st.sampled_from([None, 0, 1, 2.5, -1, float("nan"), float("inf")]),
       return_seen=st.sampled_from([None, True]))
def test_predecessor_functions_equal_networkx(device, G, data, cutoff, return_seen):
    """NetworkX's BFS predecessor lists in its queue order (ties and all); the weighted ones
    where every predecessor list has one node; the errors (a missing source, negative
    cycles and self-loops)."""
    g = convert(G, device)
    s = data.draw(st.sampled_from([*G, "missing"]))
    t = data.draw(st.sampled_from([None, *G, "missing"]))
    assert same_or_refused(lambda: nx.predecessor(G, s, t, cutoff, return_seen),
                           lambda: nxp.predecessor(g, s, t, cutoff, return_seen))
    neg = _negative(G)
    same_or_refused(lambda: nx.dijkstra_predecessor_and_distance(G, s, cutoff=cutoff),
                    lambda: nxp.dijkstra_predecessor_and_distance(g, s, cutoff=cutoff),
                    (TIES, "0-weight", "negative" if neg else TIES), uniform(G))
    same_or_refused(lambda: nx.bellman_ford_predecessor_and_distance(G, s),
                    lambda: nxp.bellman_ford_predecessor_and_distance(g, s),
                    (TIES, "0-weight", QUEUE), uniform(G))


def test_predecessor_functions_answered(device):
    G = _unique_paths_graph()
    g = convert(G, device)
    answered = 0
    for s in G:  # (from s, NetworkX's queue finds a before its shortest path: refused)
        answered += same_or_refused(lambda: nx.bellman_ford_predecessor_and_distance(G, s),
                                    lambda: nxp.bellman_ford_predecessor_and_distance(g, s),
                                    QUEUE)
    assert answered >= 2  # (the others: a shorter path found after the first)
    H = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (0, 2, {"weight": 4}),
                  (2, 3, {"weight": 1}), (3, 4, {"weight": 9})])
    H.add_edge(3, 3, weight=5)  # a self-loop of weight > 0: no list of its own
    h = convert(H, device)
    for cutoff in (None, 3, 4):
        assert same_or_refused(
            lambda: nx.dijkstra_predecessor_and_distance(H, 0, cutoff=cutoff),
            lambda: nxp.dijkstra_predecessor_and_distance(h, 0, cutoff=cutoff))
    H.add_edge(1, 1, weight=0)  # NetworkX lists 1 among its own predecessors
    if _compiled.ENABLED:  # as its heap loop, compiled, lists it (session 24)
        assert nxp.dijkstra_predecessor_and_distance(convert(H, device), 0) == \
            nx.dijkstra_predecessor_and_distance(H, 0)
    else:
        with pytest.raises(NotImplementedError, match="0-weight self-loop"):
            nxp.dijkstra_predecessor_and_distance(convert(H, device), 0)
    C = nx.DiGraph([(0, 1, {"weight": 0}), (1, 0, {"weight": 0})])  # a 0-cycle via source
    if _compiled.ENABLED:  # NetworkX's queue loop compiled lists 1 for 0 too (session 24)
        assert nxp.bellman_ford_predecessor_and_distance(convert(C, device), 0) == \
            nx.bellman_ford_predecessor_and_distance(C, 0)
    else:
        with pytest.raises(NotImplementedError, match="0-weight cycle"):
            nxp.bellman_ford_predecessor_and_distance(convert(C, device), 0)
    L = nx.DiGraph([(0, 1)])
    L.add_edge(5, 5, weight=-1)  # unreachable, still NetworkX's NetworkXUnbounded
    assert same_or_refused(lambda: nx.bellman_ford_predecessor_and_distance(L, 0),
                           lambda: nxp.bellman_ford_predecessor_and_distance(
                               convert(L, device), 0))


# --------------------------------------------------------------------------- measures
@FEW
@given(G=graphs(weights="any", max_m=25),
       method=st.sampled_from([None, "unweighted", "dijkstra", "bellman-ford",
                               "floyd-warshall", "floyd-warshall-numpy"]),
       weight=st.sampled_from([None, "weight"]))
def test_average_shortest_path_length_equals_networkx(device, G, method, weight):
    """Random graphs are mostly disconnected: NetworkXError (not connected / not strongly
    connected) is checked as often as the value; the null graph, one node."""
    g = convert(G, device)
    same_or_refused(lambda: nx.average_shortest_path_length(G, weight=weight, method=method),
                    lambda: nxp.average_shortest_path_length(g, weight=weight, method=method),
                    "negative weights")


@FEW
@given(n=st.integers(2, 9), extra=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8),
                                                     st.sampled_from([0, 1, 3, 0.5, 2.25])),
                                           max_size=12),
       directed=st.booleans(), weight=st.sampled_from([None, "weight"]),
       method=st.sampled_from([None, "bellman-ford", "floyd-warshall",
                               "floyd-warshall-numpy"]))
def test_measures_of_connected_graphs_equal_networkx(device, n, extra, directed, weight,
                                                     method):
    """A cycle (connected either way) plus random chords: the values, to the repr."""
    G = nx.cycle_graph(n, create_using=nx.DiGraph if directed else nx.Graph)
    for u, v, w in extra:
        if u < n and v < n:
            G.add_edge(u, v, weight=w)
    g = convert(G, device)
    assert same_or_refused(
        lambda: nx.average_shortest_path_length(G, weight=weight, method=method),
        lambda: nxp.average_shortest_path_length(g, weight=weight, method=method))
    answered = same_or_refused(lambda: nx.wiener_index(G, weight=weight),
                               lambda: nxp.wiener_index(g, weight=weight), "float-typed")
    # a digraph's total is refused only where int and float weights may mix
    assert answered or (directed and weight is not None and
                        any(isinstance(d.get("weight", 1), float)
                            for *_, d in G.edges(data=True)))
    if not directed:
        assert same_or_refused(lambda: nx.global_efficiency(G),
                               lambda: nxp.global_efficiency(g))


@FEW
@given(G=graphs(directed=False, max_m=30))
def test_global_efficiency_equals_networkx_to_the_bit(device, G):
    assert same_or_refused(lambda: nx.global_efficiency(G),
                           lambda: nxp.global_efficiency(convert(G, device)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_global_efficiency_of_larger_graphs_to_the_bit(device, seed):
    """Thousands of 1/d terms: another order of the additions (a pairwise or sorted sum)
    changes the last bits, NetworkX's running sum is reproduced."""
    G = nx.gnp_random_graph(70, 0.06, seed=seed)
    G.add_nodes_from(["isolated", ("t", 1)])
    assert repr(nxp.global_efficiency(convert(G, device))) == repr(nx.global_efficiency(G))


@FEW
@given(G=graphs(weights="any", max_m=25), weight=st.sampled_from([None, "weight"]))
def test_wiener_index_equals_networkx(device, G, weight):
    g = convert(G, device)
    same_or_refused(lambda: nx.wiener_index(G, weight=weight),
                    lambda: nxp.wiener_index(g, weight=weight),
                    ("negative weights", "float-typed"))


def test_measures_of_awkward_graphs(device):
    cases = [nx.Graph(), nx.empty_graph(1), nx.DiGraph([(0, 0)]), nx.empty_graph(3),
             nx.MultiGraph([(0, 1), (0, 1), (1, 2)]),
             nx.DiGraph([("a", "b", {"weight": 2.5}), ("b", "a", {"weight": 0.5})]),
             nx.DiGraph([("a", "b", {"weight": 2}), ("b", "a")]),
             nx.Graph([((0, 0), "x", {"weight": 0}), ("x", 3, {"weight": 7})])]
    for G in cases:
        g = convert(G, device)
        for weight in (None, "weight"):
            assert same_or_refused(lambda: nx.average_shortest_path_length(G, weight=weight),
                                   lambda: nxp.average_shortest_path_length(g, weight=weight))
            assert same_or_refused(lambda: nx.wiener_index(G, weight=weight),
                                   lambda: nxp.wiener_index(g, weight=weight))
        if not G.is_directed():
            assert same_or_refused(lambda: nx.global_efficiency(G),
                                   lambda: nxp.global_efficiency(g))
    with pytest.raises(nx.NetworkXNotImplemented):
        nxp.global_efficiency(convert(nx.DiGraph([(0, 1)]), device))
    with pytest.raises(ValueError, match="method not supported"):
        nxp.average_shortest_path_length(convert(nx.path_graph(2), device), method="x")


def test_wiener_index_digraph_number_type(device):
    """A digraph's total is NetworkX's int unless its distances are floats: an int-valued
    float weight could be an int or a float object, refused."""
    D = nx.DiGraph([(0, 1, {"weight": 2.0}), (1, 0, {"weight": 3})])
    with pytest.raises(NotImplementedError, match="float-typed"):
        nxp.wiener_index(convert(D, device), weight="weight")
    D = nx.DiGraph([(0, 1, {"weight": 2}), (1, 0, {"weight": 3})])
    assert repr(nxp.wiener_index(convert(D, device), weight="weight")) == "5"
    assert repr(nxp.wiener_index(convert(nx.Graph(D), device), weight="weight")) == \
        repr(nx.wiener_index(nx.Graph(D), weight="weight"))


def test_inexact_float_totals_refused(device):
    G = nx.cycle_graph(3)
    nx.set_edge_attributes(G, 0.1, "weight")
    with pytest.raises(NotImplementedError, match="sum rounds"):
        nxp.average_shortest_path_length(convert(G, device), weight="weight")


@FEW
@given(n=st.integers(1, 9), extra=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8),
                                                     st.sampled_from([1, 2, 0.5, 3.25])),
                                           max_size=12),
       directed=st.booleans(), weight=st.sampled_from([None, "weight"]),
       labels=st.sampled_from(["ints", "strings", "tuples"]))
def test_barycenter_equals_networkx(device, n, extra, directed, weight, labels):
    G = nx.cycle_graph(n, create_using=nx.DiGraph if directed else nx.Graph)
    for u, v, w in extra:
        if u < n and v < n:
            G.add_edge(u, v, weight=w)
    if labels != "ints":
        G = nx.relabel_nodes(G, {v: f"n{v}" if labels == "strings" else (v, "x") for v in G})
    g = convert(G, device)
    tree = not directed and weight is None and G.number_of_edges() == n - 1
    answered = same_or_refused(lambda: nx.barycenter(G, weight=weight),
                               lambda: nxp.barycenter(g, weight=weight), "tree")
    assert answered or tree


def test_barycenter_awkward(device):
    D = nx.DiGraph([(0, 1), (1, 2)])  # 0 reaches all, 2 none: NetworkXNoPath
    with pytest.raises(NotImplementedError, match="disconnected"):
        nxp.barycenter(convert(D, device))
    assert nxp.barycenter(convert(nx.DiGraph(), device)) == nx.barycenter(nx.DiGraph()) == []
    G = nx.complete_graph(4)
    # (NetworkX 3.7 renamed it centroid; 3.6's centroid is the tree centroid, not the backend's)
    name = "centroid" if nx_semiring.NX_RELEASE >= (3, 7) else "barycenter"
    assert "attr=" in bi.can_run(name, (G,), {"attr": "b"})
    assert "not implemented" in bi.can_run({"barycenter": "centroid"}.get(name, "barycenter"),
                                           (G,), {})
    with pytest.raises(NotImplementedError, match="tree"):
        nxp.barycenter(convert(nx.path_graph(3), device))


# --------------------------------------------------------------------------- attracting
@FEW
@given(G=graphs(directed=True, max_m=20))
def test_attracting_components_equal_networkx(device, G):
    g = convert(G, device, weight=None)
    assert same_or_refused(lambda: nx.number_attracting_components(G),
                           lambda: nxa.number_attracting_components(g))
    assert same_or_refused(lambda: nx.is_attracting_component(G),
                           lambda: nxa.is_attracting_component(g))
    # several, or one of several nodes: NetworkX's Tarjan order, by the compiled replica of
    # its search (session 22; refused without Numba)
    assert same_or_refused(lambda: list(nx.attracting_components(G)),
                           lambda: list(nxa.attracting_components(g)),
                           "Numba") or not _compiled.ENABLED


def test_attracting_components_awkward(device):
    for G in (nx.DiGraph(), nx.DiGraph([(0, 0)]), nx.MultiDiGraph([(0, 1), (0, 1), (1, 0)]),
              nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")])):
        g = convert(G, device, weight=None)
        # a component of several nodes: NetworkX's Tarjan order (the compiled replica of its
        # search; refused without Numba, session 22)
        assert same_or_refused(lambda: list(nx.attracting_components(G)),
                               lambda: list(nxa.attracting_components(g)),
                               "Numba") or (len(G) >= 2 and not _compiled.ENABLED)
        assert same_or_refused(lambda: nx.is_attracting_component(G),
                               lambda: nxa.is_attracting_component(g))
    with pytest.raises(nx.NetworkXNotImplemented):
        nxa.number_attracting_components(convert(nx.Graph([(0, 1)]), device))


# --------------------------------------------------------------------------- minimum cut
FLOW_FUNCS = [None, nx.algorithms.flow.edmonds_karp, nx.algorithms.flow.dinitz,
              nx.algorithms.flow.boykov_kolmogorov,
              nx.algorithms.flow.shortest_augmenting_path, nx.algorithms.flow.preflow_push]


@FEW
@given(n=st.integers(2, 9), edges=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8),
                                                     st.sampled_from([None, 0, 1, 2, 3, 5])),
                                           min_size=4, max_size=30),
       directed=st.booleans(), data=st.data())
def test_minimum_cut_equals_networkx(device, n, edges, directed, data):
    """The partition is the least sink side of a minimum cut, the same for every maximum
    flow: NetworkX's with each of its flow functions (preflow_push leaves a preflow)."""
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))
    for u, v, c in edges:
        if u < n and v < n:
            if c is None:
                G.add_edge(u, v)  # no capacity: infinite
            else:
                G.add_edge(u, v, capacity=c)
    s = data.draw(st.sampled_from(list(G)))
    t = data.draw(st.sampled_from([v for v in G if v != s] + ["missing"]))
    flow_func = data.draw(st.sampled_from(FLOW_FUNCS))
    g = nx_semiring.from_networkx(G, edge_attrs={"capacity": float("inf")}, device=device)
    assert same_or_refused(lambda: nx.minimum_cut(G, s, t, flow_func=flow_func),
                           lambda: nxp.minimum_cut(g, s, t, flow_func=flow_func))


def test_minimum_cut_awkward(device):
    G = nx.DiGraph()
    G.add_edge(("s", 0), "a", capacity=4)
    G.add_edge("a", "b", capacity=1)
    G.add_edge("a", 3.5, capacity=1)
    G.add_edge("b", "t", capacity=7)
    G.add_edge(3.5, "t", capacity=7)
    G.add_edge("b", "b", capacity=9)  # a self-loop: not in NetworkX's residual network
    G.add_node("lonely")
    g = nx_semiring.from_networkx(G, edge_attrs={"capacity": float("inf")}, device=device)
    for f in FLOW_FUNCS:
        assert same_or_refused(lambda: nx.minimum_cut(G, ("s", 0), "t", flow_func=f),
                               lambda: nxp.minimum_cut(g, ("s", 0), "t", flow_func=f))
    U = nx.DiGraph([(0, 1), (1, 2)])  # every capacity infinite: unbounded
    u = nx_semiring.from_networkx(U, edge_attrs={"capacity": float("inf")}, device=device)
    assert same_or_refused(lambda: nx.minimum_cut(U, 0, 2), lambda: nxp.minimum_cut(u, 0, 2))
    assert same_or_refused(lambda: nx.minimum_cut(U, 0, 0), lambda: nxp.minimum_cut(u, 0, 0))
    F = nx.DiGraph([(0, 1, {"capacity": 1.5})])
    assert "float capacity" in bi.can_run("minimum_cut", (F, 0, 1), {})


# --------------------------------------------------------------------------- NumPy centralities
def _close(a, b, tol=1e-9):
    assert list(a) == list(b)  # keys in NetworkX's order
    assert all(abs(a[k] - b[k]) <= tol for k in a), (a, b)


@FEW
@given(n=st.integers(3, 12), extra=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11),
                                                     st.integers(1, 5)), max_size=15),
       directed=st.booleans(), weight=st.sampled_from([None, "weight"]))
def test_numpy_centralities_equal_networkx(device, n, extra, directed, weight):
    G = nx.cycle_graph(n, create_using=nx.DiGraph if directed else nx.Graph)
    for u, v, w in extra:
        if u < n and v < n:
            G.add_edge(u, v, weight=w)
    g = convert(G, device)
    _close(nx.eigenvector_centrality_numpy(G, weight=weight),
           nxc.eigenvector_centrality_numpy(g, weight=weight))
    alpha = 0.9 / max(abs(np.linalg.eigvals(nx.to_numpy_array(G, weight=weight))))
    _close(nx.katz_centrality_numpy(G, alpha, weight=weight),
           nxc.katz_centrality_numpy(g, alpha, weight=weight))
    beta = {v: 1 + (hash(str(v)) % 3) for v in reversed(list(G))}  # another key order
    _close(nx.katz_centrality_numpy(G, alpha, beta, normalized=False, weight=weight),
           nxc.katz_centrality_numpy(g, alpha, beta, normalized=False, weight=weight), 1e-8)


def test_numpy_centralities_errors(device):
    for G in (nx.Graph(), nx.Graph([(0, 1), (2, 3)]), nx.DiGraph([(0, 1), (1, 2)])):
        g = convert(G, device)
        assert same_or_refused(lambda: nx.eigenvector_centrality_numpy(G),
                               lambda: nxc.eigenvector_centrality_numpy(g))
    P = nx.path_graph(3)
    p = convert(P, device)
    for beta in ({0: 1, 1: 1}, "foo"):
        assert same_or_refused(lambda: nx.katz_centrality_numpy(P, 0.1, beta),
                               lambda: nxc.katz_centrality_numpy(p, 0.1, beta))
    assert nxc.katz_centrality_numpy(convert(nx.Graph(), device)) == {}
    with pytest.raises(NotImplementedError, match="2 nodes"):
        nxc.eigenvector_centrality_numpy(convert(nx.path_graph(2), device))
    with pytest.raises(NotImplementedError, match="one node"):
        nxc.katz_centrality_numpy(convert(nx.empty_graph(1), device))
    with pytest.raises(NotImplementedError, match="diverges"):  # alpha above 1 / λ_max
        nxc.katz_centrality_numpy(p, alpha=1.0)
    neg = nx.cycle_graph(3)
    neg[0][1]["weight"] = -1
    with pytest.raises(NotImplementedError, match="positive"):
        nxc.eigenvector_centrality_numpy(convert(neg, device), weight="weight")
    assert bi.can_run("eigenvector_centrality_numpy", (nx.MultiGraph([(0, 1)]),), {}) \
        is not True


# --------------------------------------------------------------------------- dispatch
@dispatch
def test_dispatched_through_networkx():
    assert {"multi_source_dijkstra", "johnson", "wiener_index", "global_efficiency",
            "attracting_components", "katz_centrality_numpy"} <= \
        set(nx_semiring.get_info()["functions"])
    G = nx.Graph([(0, 1, {"weight": 1}), (1, 2, {"weight": 2}), (2, 3, {"weight": 4})])
    assert nx.multi_source_dijkstra(G, [0, 3], backend="semiring") == \
        nx.multi_source_dijkstra(G, [0, 3])
    assert repr(nx.johnson(G, backend="semiring")) == repr(nx.johnson(G))  # key order too
    assert repr(nx.wiener_index(G, weight="weight", backend="semiring")) == \
        repr(nx.wiener_index(G, weight="weight"))
    assert nx.global_efficiency(G, backend="semiring") == nx.global_efficiency(G)


# --------------------------------------------------------------------------- cost model
SESSION20 = ["multi_source_dijkstra", "multi_source_dijkstra_path",
             "single_target_shortest_path", "all_pairs_dijkstra", "all_pairs_bellman_ford_path",
             "johnson", "average_shortest_path_length", "wiener_index", "global_efficiency",
             "attracting_components", "number_attracting_components",
             "is_attracting_component", "eigenvector_centrality_numpy", "katz_centrality_numpy",
             "bidirectional_shortest_path", "bidirectional_dijkstra", "predecessor",
             "dijkstra_predecessor_and_distance", "bellman_ford_predecessor_and_distance",
             "centroid" if nx_semiring.NX_RELEASE >= (3, 7) else "barycenter", "minimum_cut"]


@pytest.mark.parametrize("dev", ["cpu", "gpu"])
def test_should_run_model_of_session_20(dev):
    """Every new function is dispatched and priced: a tiny graph stays with NetworkX, s-t
    queries always (NetworkX's search stops early), the others go to the engine on a large
    cached graph (the all-pairs ones searching from every node: n SSSP runs or all-pairs
    BFS, on a graph where NetworkX's side is minutes)."""
    predict = nx_semiring.interface.predict
    assert set(SESSION20) <= set(nx_semiring.FUNCTIONS)
    point = {"bidirectional_shortest_path", "bidirectional_dijkstra"}
    for name in SESSION20:
        t_nx, t_sr = predict(name, 5, 8, device=dev)
        assert t_sr > t_nx, name
        t_nx, t_sr = predict(name, 10**6, 10**7, cached=True, has_weights=True, device=dev)
        if "attracting" in name:  # priced as the strong components (on the GPU: NetworkX)
            assert (t_nx, t_sr) == predict("strongly_connected_components", 10**6, 10**7,
                                           cached=True, has_weights=True, device=dev)
        else:
            assert (t_sr == math.inf) if name in point else t_sr < t_nx, name
    assert predict("multi_source_dijkstra", 10**4, 10**5, {"target": 3}, device=dev) == \
        (0.0, math.inf)
    G = nx.gnm_random_graph(50, 100, seed=1)
    assert isinstance(bi.should_run("johnson", (G,), {}), str)
