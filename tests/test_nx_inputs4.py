"""The NetworkX backend, fourth audit (session 17): the functions dispatched this session
(``nx_semiring.paths``, ``nx_semiring.analytics``) against NetworkX 3.6.1 on inputs found
by the differential fuzzer ``bench/results/session17/nxa12_driver/fuzz.py``.

The rule, as in ``test_nx_inputs.py``: the backend answers as NetworkX does (to the repr:
values, number types, key order, its exceptions), or it refuses (``NotImplementedError``
from the call, or ``can_run``) so that NetworkX runs the call. Never a different answer.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402
from nx_semiring import analytics as nxan  # noqa: E402
from nx_semiring import paths as nxp  # noqa: E402

from test_nx_inputs import convert  # noqa: E402
from test_nx_inputs2 import INSTALLED  # noqa: E402
from test_nx_inputs2 import semiring_first as _semiring_first  # noqa: E402


@pytest.fixture
def semiring_first(monkeypatch):
    """NetworkX set to prefer the backend, fallback on, ``should_run`` forced."""
    if not INSTALLED:
        pytest.skip("nx_semiring is not installed (its entry points): pip install '.[nx]'")
    with _semiring_first(monkeypatch):
        yield


def _run(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy scalars wrapping in NetworkX
        try:
            return "ok", repr(call())
        except NotImplementedError:
            return "refused", None
        except Exception as exc:  # noqa: BLE001 (compared by type and message)
            return "raised", (type(exc).__name__, str(exc))


def as_networkx_or_refused(nx_call, our_call):
    """Our answer is NetworkX's to the repr (or its exception, message included), or a
    refusal. Returns whether we answered."""
    prio = nx.config.backend_priority
    saved, prio.algos = prio.algos, []  # NetworkX itself, whatever the fixture prefers
    try:
        expected = _run(nx_call)
    finally:
        prio.algos = saved
    got = _run(our_call)
    assert expected[0] != "refused"
    if got[0] == "refused":
        return False
    assert got == expected
    return True


def _dispatched(call):
    """The call through NetworkX's dispatcher with the backend preferred (semiring_first)
    against plain NetworkX (backend ``networkx``): the same repr."""
    prio = nx.config.backend_priority
    saved, prio.algos = prio.algos, []  # NetworkX's inner dispatched calls NetworkX's too
    try:
        expected = _run(lambda: call("networkx"))
    finally:
        prio.algos = saved
    got = _run(lambda: call(None))
    assert got == expected


# --------------------------------------------------------------------------- transitivity
def test_transitivity_of_a_digraph_is_networkx(device, semiring_first):
    """NetworkX's transitivity reads a DiGraph's successor sets (0 here, 0.5 with a
    reciprocal edge); the backend raised NetworkXNotImplemented."""
    for edges in ([(0, 1), (1, 2), (2, 0), (0, 3)], [(0, 1), (1, 0), (1, 2), (2, 0)]):
        D = nx.DiGraph(edges)
        assert not as_networkx_or_refused(lambda: nx.transitivity(D),
                                          lambda: nxan.transitivity(convert(D, device)))
        _dispatched(lambda b: nx.transitivity(D, backend=b))


# --------------------------------------------------------------------------- modularity
def test_modularity_of_int8_weights_is_networkx(device, semiring_first):
    """NetworkX's degree sums of np.int8(90) weights wrap (0.5714285714285712 here, as the
    wrapped sums give); the engine's int64 sums gave another value."""
    G = nx.Graph()
    G.add_nodes_from([1, 5, 6, 3, 7])
    G.add_edges_from([(1, 5), (3, 6), (6, 7)], weight=np.int8(90))
    G.add_edge(3, 7, weight=7)
    parts = [{1, 5}, {3, 6, 7}]
    assert not as_networkx_or_refused(
        lambda: nx.community.modularity(G, parts),
        lambda: nxan.modularity(convert(G, device), parts))
    _dispatched(lambda b: nx.community.modularity(G, parts, backend=b))


# --------------------------------------------------------------------------- matching
@pytest.mark.parametrize("edges, top", [([(0, 0)], [0]), ([(0, 0), (1, 1)], [0]),
                                        ([(0, 1), (2, 2)], [0, 1])])
def test_full_matching_without_a_cross_edge_raises_networkx_error(device, semiring_first,
                                                                  edges, top):
    """Edges, none from top_nodes to the rest: NetworkX's biadjacency_matrix unpacks an
    empty zip (ValueError "not enough values to unpack"); the backend returned {} or
    "cost matrix is infeasible"."""
    G = nx.Graph()
    G.add_nodes_from(range(3))
    G.add_edges_from(edges, weight=1)
    assert as_networkx_or_refused(
        lambda: nx.bipartite.minimum_weight_full_matching(G, top_nodes=top),
        lambda: nxp.minimum_weight_full_matching(convert(G, device), top_nodes=top))
    _dispatched(lambda b: nx.bipartite.minimum_weight_full_matching(G, top_nodes=top,
                                                                    backend=b))


# --------------------------------------------------------------------------- flow
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(caps=st.lists(st.sampled_from([1, 2, 3, 2.0, 0.5, 3.0, float("inf"), None]),
                     min_size=4, max_size=4))
def test_flow_values_of_float_capacities_are_networkx(semiring_first, caps):
    """A float capacity makes NetworkX's flow value a float (2.0) where a path's minimum
    is one; the engine's flow is an int (2)."""
    G = nx.DiGraph()
    for (u, v), c in zip([("s", "a"), ("a", "t"), ("s", "b"), ("b", "t")], caps):
        G.add_edge(u, v, **({} if c is None else {"capacity": c}))
    _dispatched(lambda b: nx.maximum_flow_value(G, "s", "t", backend=b))
    _dispatched(lambda b: nx.minimum_cut_value(G, "s", "t", backend=b))


# --------------------------------------------------------------------------- Floyd–Warshall
@pytest.mark.parametrize("w", [True, 1, 2, np.int64(3)])
@pytest.mark.parametrize("directed", [False, True])
def test_floyd_warshall_int_weights_beside_missing_ones(device, semiring_first, w, directed):
    """NetworkX reads an edge without the attribute as 1.0 and keeps an int (or True)
    weight as it is: {'b': True, 'c': 1.0} from 'b'; the backend gave floats throughout."""
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_edge("a", "b", weight=w)
    G.add_edge("b", "c")
    G.add_edge("c", "a", weight=w)

    def fw(m, g):
        return {u: dict(d) for u, d in m.floyd_warshall(g).items()}

    def fwpd(m, g):
        return {u: dict(d) for u, d in m.floyd_warshall_predecessor_and_distance(g)[1].items()}

    for f in (fw, fwpd):
        as_networkx_or_refused(lambda: f(nx, G), lambda: f(nxp, convert(G, device)))
    _dispatched(lambda b: {u: dict(d) for u, d in nx.floyd_warshall(G, backend=b).items()})


# --------------------------------------------------------------------------- k-core family
def test_core_subgraph_of_a_filtered_view_keeps_networkx_node_order(semiring_first):
    """NetworkX's ``G.subgraph`` of a filtered view filters the viewed graph: its node set
    {5, 2} is iterated (2 first) where it is under half of *that* graph's nodes (2 of 5),
    not of the view's 4 (the backend's order, 5 first)."""
    G = nx.Graph()
    G.add_nodes_from([5, 0, 2, 7, 8])
    G.add_edges_from([(5, 0), (0, 2)])
    view = nx.subgraph_view(G, filter_node=lambda v: v != 8)
    assert list(nx.k_corona(view, 1, backend="networkx")) == [2, 5]
    _dispatched(lambda b: list(nx.k_corona(view, 1, backend=b).nodes))


# --------------------------------------------------------------------------- matching orders
@pytest.mark.parametrize("top", [None, [0, 2, 3, 4], [4, 3, 2, 0]])
def test_matchings_are_keyed_in_networkx_set_order(device, semiring_first, top):
    """NetworkX keys a matching by its ``bipartite.sets``, Python sets: {5, 6, 7, 8}
    iterates 8 first; the backend keyed the right side in node order (5 first)."""
    G = nx.Graph()
    G.add_nodes_from([0, 2, 3, 4, 5, 6, 7, 8])
    G.add_weighted_edges_from([(0, 7, 1), (0, 5, 4), (2, 5, 2), (3, 8, 3), (4, 8, 5),
                               (4, 6, 1), (4, 7, 9)])
    for call in (lambda m, g: m.bipartite.hopcroft_karp_matching(g, top_nodes=top)
                 if m is nx else m.hopcroft_karp_matching(g, top_nodes=top),
                 lambda m, g: m.bipartite.minimum_weight_full_matching(g, top_nodes=top)
                 if m is nx else m.minimum_weight_full_matching(g, top_nodes=top)):
        as_networkx_or_refused(lambda: call(nx, G), lambda: call(nxp, convert(G, device)))
    _dispatched(lambda b: nx.bipartite.hopcroft_karp_matching(G, top_nodes=top, backend=b))
    _dispatched(lambda b: nx.bipartite.minimum_weight_full_matching(G, top_nodes=top,
                                                                    backend=b))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(labels=st.lists(st.one_of(st.integers(-20, 40), st.text("abc", max_size=2)),
                       min_size=2, max_size=8, unique=True),
       data=st.data())
def test_matchings_in_networkx_order_on_random_bipartite_graphs(semiring_first, labels, data):
    """Random bipartite graphs and labels: NetworkX's matching to the repr (key order)."""
    k = data.draw(st.integers(1, len(labels) - 1))
    top, rest = labels[:k], labels[k:]
    G = nx.Graph()
    G.add_nodes_from(data.draw(st.permutations(labels)))
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(top), st.sampled_from(rest)),
                               max_size=12))
    for u, v in pairs:
        G.add_edge(u, v, weight=data.draw(st.integers(1, 9)))
    tn = data.draw(st.sampled_from([None, top]))
    _dispatched(lambda b: nx.bipartite.hopcroft_karp_matching(G, top_nodes=tn, backend=b))
    _dispatched(lambda b: nx.bipartite.minimum_weight_full_matching(G, top_nodes=tn,
                                                                    backend=b))


# --------------------------------------------------------------------------- undirected views
def _reciprocal_digraph():
    D = nx.DiGraph()
    D.add_nodes_from(range(6))
    D.add_edges_from([(0, 1, {}), (1, 0, {"capacity": 1, "weight": 5}),
                      (2, 3, {"capacity": 2, "weight": 1}), (3, 2, {"capacity": 1, "weight": 7}),
                      (4, 2, {"capacity": 1, "weight": 5}), (4, 3, {"capacity": 3, "weight": 2}),
                      (4, 5, {"capacity": 1, "weight": 1}), (4, 1, {"capacity": 1, "weight": 1})])
    return D


def test_flow_of_an_undirected_view_reads_each_edge_once(device, semiring_first):
    """``D.to_undirected(as_view=True)`` holds (2, 3) with capacity 2 one way and 1 the
    other; NetworkX's residual network takes G.edges()'s one (2, from node 2) both ways: 3
    from 4 to 2, where the backend's 2 read each direction's own."""
    U = _reciprocal_digraph().to_undirected(as_view=True)
    assert nx.maximum_flow_value(U, 4, 2, backend="networkx") == 3
    assert as_networkx_or_refused(lambda: nx.maximum_flow_value(U, 4, 2),
                                  lambda: nxp.maximum_flow_value(
                                      nxp.from_networkx(U, edge_attrs={"capacity": float("inf")},
                                                        device=device), 4, 2))
    _dispatched(lambda b: nx.maximum_flow_value(U, 4, 2, backend=b))
    _dispatched(lambda b: nx.minimum_cut_value(U, 2, 4, backend=b))


def test_floyd_warshall_of_an_undirected_view_with_two_weights_is_networkx(device,
                                                                          semiring_first):
    """NetworkX's Floyd–Warshall reads G.edges() (one weight for both directions); the
    backend read each direction's own."""
    D = _reciprocal_digraph()
    D.add_edge(0, 1, weight=3)
    U = D.to_undirected(as_view=True)
    if nx_semiring.NX_RELEASE < (3, 7):  # (3.7 reads G._adj: each direction's own weight)
        assert nx.floyd_warshall(U, backend="networkx")[3][2] == 1  # (2, 3)'s weight both ways
    assert not as_networkx_or_refused(
        lambda: {u: dict(d) for u, d in nx.floyd_warshall(U).items()},
        lambda: {u: dict(d) for u, d in nxp.floyd_warshall(convert(U, device)).items()})
    _dispatched(lambda b: {u: dict(d) for u, d in nx.floyd_warshall(U, backend=b).items()})


# --------------------------------------------------------------------------- eccentricity
@pytest.mark.parametrize("edges", [[("a", "a", 1.5)], [("a", "a", float("inf"))],
                                   [("a", "b", 0.0), ("b", "a", -0.0)],
                                   [("a", "b", 0.0), ("b", "a", 2.5)]])
def test_eccentricity_zero_is_networkx_int(device, semiring_first, edges):
    """NetworkX's eccentricity is max() of a length dict starting with the source's int 0:
    0 where nothing is farther, even with float weights; the backend gave 0.0."""
    D = nx.DiGraph()
    D.add_weighted_edges_from(edges)
    for f in ("eccentricity", "diameter", "radius"):
        as_networkx_or_refused(lambda: getattr(nx, f)(D, weight="weight"),
                               lambda: getattr(nxp, f)(convert(D, device), weight="weight"))
        _dispatched(lambda b: getattr(nx, f)(D, weight="weight", backend=b))


def test_modularity_whose_int64_products_wrap_is_networkx(device, semiring_first):
    """One np.int64 weight makes NetworkX's degree sums NumPy int64: 2^40-weight edges give
    products past 2^63 that wrap (-1.2e11 here; the backend gave the exact value)."""
    G = nx.Graph()
    G.add_edge(0, 1, weight=2**40)
    G.add_edge(1, 2, weight=2**40)
    G.add_edge(2, 3, weight=np.int64(2))
    G.add_edge(3, 0, weight=3)
    parts = [{0, 1}, {2, 3}]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert nx.community.modularity(G, parts, backend="networkx") != 0
    assert not as_networkx_or_refused(lambda: nx.community.modularity(G, parts),
                                      lambda: nxan.modularity(convert(G, device), parts))
    _dispatched(lambda b: nx.community.modularity(G, parts, backend=b))
