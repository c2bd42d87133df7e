"""The NetworkX backend's all-pairs and multi-source paths, distance measures, flow values and
matchings (``nx_semiring.paths``, issue 17) against NetworkX on random graphs.

The rule, as in ``test_nx_inputs.py``: each call returns NetworkX's answer or raises its
exception (type and message), or refuses with ``NotImplementedError`` raised by the call
itself (never by a generator it returned) where NetworkX's answer is its own choice among
ties; each test also checks that the backend answers where the answer is unique.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402
from semiring.backend.cpu import compiled as _compiled  # noqa: E402
from nx_semiring import paths as nxp  # noqa: E402
from nx_semiring.graph import from_networkx  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402

from test_nx_backend import INSTALLED, convert, graphs  # noqa: E402

dispatch = pytest.mark.skipif(not INSTALLED, reason="nx_semiring is not installed (its entry "
                                                    "points): pip install '.[nx]'")
FEW = settings(max_examples=15)


def outcome(f):
    """('ok', value) with generators drained and defaultdicts as dicts, or (type, message)."""
    try:
        r = f()
        if hasattr(r, "__next__"):
            r = list(r)
    except NotImplementedError:
        raise
    except (nx.NetworkXException, ValueError, KeyError) as exc:
        return type(exc), str(exc)
    return "ok", _plain(r)


def _plain(r):
    if isinstance(r, dict):
        return {k: _plain(v) for k, v in r.items()}
    if isinstance(r, (list, tuple)):
        return type(r)(_plain(x) for x in r)
    return r


# Floyd–Warshall's refusal of int weights beside edges without them (NetworkX's 1.0; from
# 3.7 on, of float weights beside its 1)
MIXED_TYPES = "weights beside edges without them"
# NetworkX's Bellman–Ford dicts are keyed in its queue's order, answered where it is a BFS
# order (session 22: nx_semiring.algorithms._spfa_order)
QUEUE = "queue's order"


# The types of NetworkX's path sums (session 23): ints or floats path by path where Python
# ints and floats mix among the weights (graphs()' "nonneg" weights, edges without the
# attribute weighing its int 1), NumPy scalars where those are: refused for any call that
# returns sums (nx_semiring.algorithms._exact_sums), whatever else the test allows
SUM_TYPES = ("ints or floats path by path", "path sums are NumPy scalars")


def same_or_refused(f_nx, f_sr, refusal=None):
    """NetworkX's outcome exactly, or a refusal whose message contains ``refusal`` (None: no
    refusal allowed) or one of :data:`SUM_TYPES`. Returns whether the backend answered."""
    expected = outcome(f_nx)
    try:
        got = outcome(f_sr)
    except NotImplementedError as exc:
        refusals = ((refusal,) if isinstance(refusal, str) else tuple(refusal or ())) + \
            SUM_TYPES
        assert any(r in str(exc) for r in refusals), exc
        return False
    assert got == expected
    return True


def _negative_cycle(G) -> bool:
    """Whether NetworkX's Floyd–Warshall finds a negative cycle: 3.7 raises
    NetworkXUnbounded, earlier releases return a negative diagonal."""
    try:
        dist = nx.floyd_warshall(G)
    except nx.NetworkXUnbounded:
        return True
    return any(dist[u][u] < 0 for u in G)


# --------------------------------------------------------------------------- all pairs
@given(G=graphs(), cutoff=st.sampled_from([None, 0, 1, 2.5]))
def test_all_pairs_lengths_equal_networkx(device, G, cutoff):
    g = convert(G, device)
    same_or_refused(lambda: nx.all_pairs_dijkstra_path_length(G, cutoff=cutoff),
                    lambda: nxp.all_pairs_dijkstra_path_length(g, cutoff=cutoff))
    same_or_refused(lambda: nx.all_pairs_dijkstra_path_length(G, weight=None),
                    lambda: nxp.all_pairs_dijkstra_path_length(g, weight=None))
    same_or_refused(lambda: nx.all_pairs_shortest_path(G, cutoff=cutoff),
                    lambda: nxp.all_pairs_shortest_path(g, cutoff=cutoff))


@given(G=graphs(weights="any"))
def test_all_pairs_bellman_ford_equals_networkx(device, G):
    """Negative weights and cycles: NetworkXUnbounded while the generator is read, as
    NetworkX's; Dijkstra refuses negative weights when called."""
    g = convert(G, device)
    same_or_refused(lambda: nx.all_pairs_bellman_ford_path_length(G),
                    lambda: nxp.all_pairs_bellman_ford_path_length(g), QUEUE)
    negative = any(d.get("weight", 1) < 0 for *_, d in G.edges(data=True))
    same_or_refused(lambda: nx.all_pairs_dijkstra_path_length(G),
                    lambda: nxp.all_pairs_dijkstra_path_length(g),
                    "negative weights" if negative else None)


@given(G=graphs(), cutoff=st.sampled_from([None, 1, 4]))
def test_all_pairs_dijkstra_path_equals_networkx_or_ties(device, G, cutoff):
    g = convert(G, device)
    same_or_refused(lambda: nx.all_pairs_dijkstra_path(G, cutoff=cutoff),
                    lambda: nxp.all_pairs_dijkstra_path(g, cutoff=cutoff),
                    "several shortest paths")


def test_all_pairs_dijkstra_path_answers_unique_paths(device):
    G = nx.DiGraph([("a", "b", {"weight": 1}), ("b", "c", {"weight": 2}),
                    ("a", "c", {"weight": 5}), ("c", "a", {"weight": 0})])
    G.add_node("z")
    assert same_or_refused(lambda: nx.all_pairs_dijkstra_path(G),
                           lambda: nxp.all_pairs_dijkstra_path(convert(G, device)))
    G.add_edge("a", "c", weight=3)  # a → c ties with a → b → c
    if _compiled.ENABLED:  # NetworkX's heap loop compiled picks as NetworkX (session 24)
        assert list(nxp.all_pairs_dijkstra_path(convert(G, device))) == \
            list(nx.all_pairs_dijkstra_path(G))
        return
    with pytest.raises(NotImplementedError, match="several shortest paths"):
        nxp.all_pairs_dijkstra_path(convert(G, device))  # by the call, not the generator


@given(G=graphs(multigraph=True, weights="any", max_n=8), data=st.data())
def test_multigraphs_take_the_lightest_parallel_edge(device, G, data):
    """Parallel edges: NetworkX's shortest paths, Floyd–Warshall and measures read the
    lightest (the conversion keeps the least weight); Hopcroft–Karp the structure."""
    g = convert(G, device)
    negative = any(d.get("weight", 1) < 0 for *_, d in G.edges(data=True))
    same_or_refused(lambda: nx.all_pairs_bellman_ford_path_length(G),
                    lambda: nxp.all_pairs_bellman_ford_path_length(g), QUEUE)
    same_or_refused(lambda: nx.all_pairs_dijkstra_path_length(G),
                    lambda: nxp.all_pairs_dijkstra_path_length(g),
                    "negative weights" if negative else None)
    cycle = _negative_cycle(G)
    same_or_refused(lambda: nx.floyd_warshall_predecessor_and_distance(G),
                    lambda: nxp.floyd_warshall_predecessor_and_distance(g),
                    ("negative" if cycle else "several shortest paths", MIXED_TYPES))
    same_or_refused(lambda: nx.eccentricity(G, weight="weight"),
                    lambda: nxp.eccentricity(g, weight="weight"),
                    "negative weights" if negative else None)
    if len(G):
        s = data.draw(st.sampled_from(list(G)))
        same_or_refused(lambda: nx.multi_source_dijkstra_path_length(G, [s]),
                        lambda: nxp.multi_source_dijkstra_path_length(g, [s]),
                        "negative weights" if negative else None)
        same_or_refused(lambda: nx.ancestors(G, s), lambda: nxp.ancestors(g, s),
                        "G._pred" if G.is_directed() else None)  # its order (session 22)


# --------------------------------------------------------------------------- Floyd–Warshall
@given(G=graphs(weights="any", max_n=8))
def test_floyd_warshall_equals_networkx(device, G):
    """Distances always (exact dyadic weights), except negative cycles before NetworkX 3.7
    (its negative diagonal; 3.7's NetworkXUnbounded is the backend's too); predecessors
    where no shortest paths tie."""
    g = convert(G, device)
    negative = _negative_cycle(G)
    same_or_refused(lambda: nx.floyd_warshall(G), lambda: nxp.floyd_warshall(g),
                    ("negative", MIXED_TYPES) if negative else MIXED_TYPES)
    same_or_refused(lambda: nx.floyd_warshall_predecessor_and_distance(G),
                    lambda: nxp.floyd_warshall_predecessor_and_distance(g),
                    ("negative" if negative else "several shortest paths", MIXED_TYPES))


def test_floyd_warshall_predecessors_answered(device):
    G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (0, 2, {"weight": 4})])
    G.add_edge(2, 2, weight=3)  # a self-loop: NetworkX's pred[2][2] = 2
    G.add_node(7)               # no entries: no key in pred
    assert same_or_refused(lambda: nx.floyd_warshall_predecessor_and_distance(G),
                           lambda: nxp.floyd_warshall_predecessor_and_distance(
                               convert(G, device)))


@FEW
@given(G=graphs(max_n=8), kind=st.sampled_from(["missing", "int", "dyadic"]),
       weight=st.sampled_from(["weight", None]), data=st.data())
def test_floyd_warshall_dicts_are_networkx_to_the_repr(device, G, kind, weight, data):
    """Key order and number types too (``==`` ignores both): NetworkX inserts u, then the
    edges' ends as G.edges() yields them, then every node by its first pivot; its diagonal is
    the int 0, an edge without the attribute (or every edge with weight=None) weighs 1.0.
    Before, rows came in node order and the values were the engine's dtype throughout."""
    for u, v, d in G.edges(data=True):
        d.pop("weight", None)
        if kind != "missing":
            d["weight"] = data.draw(st.integers(0, 5) if kind == "int" else
                                    st.sampled_from([0.5, 1.5, 2.0, 3.25]))
    g = nx_semiring.from_networkx(G, edge_attrs=None if weight is None else {weight: 1},
                                  device=device)
    want = nx.floyd_warshall_predecessor_and_distance(G, weight=weight)[1]
    try:
        got = nxp.floyd_warshall(g, weight=weight)
    except NotImplementedError as exc:
        assert "negative" in str(exc)
        return
    assert repr({u: dict(r) for u, r in got.items()}) == \
        repr({u: dict(r) for u, r in want.items()})


@pytest.mark.parametrize("value", [np.int8(100), np.int16(30000), np.float32(0.1)])
def test_narrow_numpy_weights_left_to_networkx(device, value):
    """NetworkX adds NumPy scalars narrower than 64 bits in their type (int8 100 + 100 =
    -56): the weighted searches of nx_semiring.paths refuse them as nx_semiring.algorithms'
    do (before: 64-bit answers where NetworkX wraps, raises or rounds in float32)."""
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, value, "weight")
    nx.set_edge_attributes(G, value, "capacity")
    g = convert(G, device)
    calls = [lambda: nxp.floyd_warshall(g), lambda: nxp.eccentricity(g, weight="weight"),
             lambda: nxp.multi_source_dijkstra_path_length(g, {0}),
             lambda: nxp.all_pairs_dijkstra_path_length(g)]
    for call in calls:
        with pytest.raises(NotImplementedError, match="NumPy"):
            call()
    D = nx.DiGraph(G)
    with pytest.raises(NotImplementedError, match="NumPy"):
        nxp.maximum_flow_value(nx_semiring.from_networkx(
            D, edge_attrs={"capacity": float("inf")}, device=device), 0, 3)


def test_floyd_warshall_inexact_floats_refused(device):
    G = nx.Graph([(0, 1, {"weight": 0.1}), (1, 2, {"weight": 0.2}), (2, 3, {"weight": 0.3})])
    with pytest.raises(NotImplementedError, match="round"):
        nxp.floyd_warshall(convert(G, device))


# --------------------------------------------------------------------------- more sources
@given(G=graphs(), data=st.data())
def test_multi_source_and_single_target_equal_networkx(device, G, data):
    g = convert(G, device)
    nodes = list(G)
    sources = data.draw(st.sets(st.sampled_from(nodes + ["missing"])) if nodes else
                        st.just(set()))
    cutoff = data.draw(st.sampled_from([None, 0, 2, 3.5]))
    same_or_refused(lambda: nx.multi_source_dijkstra_path_length(G, sources, cutoff=cutoff),
                    lambda: nxp.multi_source_dijkstra_path_length(g, sources, cutoff=cutoff))
    t = data.draw(st.sampled_from(nodes + ["missing"]))
    pred_order = "G._pred" if G.is_directed() else None  # not kept: refused (session 22)
    same_or_refused(lambda: nx.single_target_shortest_path_length(G, t, cutoff=cutoff),
                    lambda: nxp.single_target_shortest_path_length(g, t, cutoff=cutoff),
                    pred_order)
    same_or_refused(lambda: nx.ancestors(G, t), lambda: nxp.ancestors(g, t), pred_order)
    same_or_refused(lambda: nx.descendants(G, t), lambda: nxp.descendants(g, t))


# --------------------------------------------------------------------------- distance measures
@given(G=graphs(max_m=40), weight=st.sampled_from([None, "weight"]),
       usebounds=st.booleans())
def test_distance_measures_equal_networkx(device, G, weight, usebounds):
    g = convert(G, device)
    same_or_refused(lambda: nx.eccentricity(G, weight=weight),
                    lambda: nxp.eccentricity(g, weight=weight))
    for f in ("diameter", "radius", "periphery", "center"):
        tree = f == "center" and weight is None and not usebounds and not G.is_directed()
        same_or_refused(lambda: getattr(nx, f)(G, usebounds=usebounds, weight=weight),
                        lambda: getattr(nxp, f)(g, usebounds=usebounds, weight=weight),
                        "tree" if tree else None)


@FEW
@given(G=graphs(directed=False, max_m=40), data=st.data())
def test_eccentricity_of_some_nodes(device, G, data):
    g = convert(G, device)
    nodes = list(G)
    v = data.draw(st.one_of(st.sampled_from(nodes + ["missing"]),
                            st.lists(st.sampled_from(nodes + ["missing"])) if nodes else
                            st.just([])))
    same_or_refused(lambda: nx.eccentricity(G, v=v), lambda: nxp.eccentricity(g, v=v))
    e = nx.eccentricity(nx.path_graph(3))
    assert nxp.diameter(g, e=e) == nx.diameter(G, e=e) == 2


# --------------------------------------------------------------------------- flow
@st.composite
def flow_graphs(draw):
    """Capacities: integers (zero and negative too: NetworkX drops those edges), integral
    floats, inf, or none (infinite); self-loops; directed or not."""
    G = draw(st.sampled_from([nx.Graph, nx.DiGraph]))()
    n = draw(st.integers(2, 8))
    G.add_nodes_from(f"v{i}" for i in range(n))
    cap = st.one_of(st.none(), st.integers(-1, 9), st.sampled_from([2.0, float("inf")]))
    for u, v, c in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), cap),
                                 max_size=20)):
        if c is None:
            G.add_edge(f"v{u}", f"v{v}")
        else:
            G.add_edge(f"v{u}", f"v{v}", capacity=c)
    return G


@given(G=flow_graphs(), data=st.data())
def test_flow_values_equal_networkx(device, G, data):
    # the dispatcher's conversion: a missing capacity is infinite
    g = from_networkx(G, edge_attrs={"capacity": float("inf")}, device=device, use_cache=False)
    nodes = list(G) + ["missing"]
    s, t = data.draw(st.sampled_from(nodes)), data.draw(st.sampled_from(nodes))
    flow_func = data.draw(st.sampled_from([None, nx.flow.edmonds_karp, nx.flow.dinitz]))
    for f in ("maximum_flow_value", "minimum_cut_value"):
        same_or_refused(lambda: getattr(nx, f)(G, s, t, flow_func=flow_func),
                        lambda: getattr(nxp, f)(g, s, t, flow_func=flow_func))


def test_flow_errors_as_networkx(device):
    G = nx.MultiDiGraph([(0, 1)])
    g = from_networkx(G, edge_attrs={"capacity": float("inf")}, device=device)
    for s, t in ((5, 1), (0, 5), (0, 0), (0, 1)):
        same_or_refused(lambda: nx.maximum_flow_value(G, s, t),
                        lambda: nxp.maximum_flow_value(g, s, t))
    D = nx.DiGraph([(0, 1)])
    same_or_refused(lambda: nx.maximum_flow_value(D, 0, 1, cutoff=3),
                    lambda: nxp.maximum_flow_value(D, 0, 1, cutoff=3))
    same_or_refused(lambda: nx.maximum_flow_value(D, 0, 1, flow_func=3),
                    lambda: nxp.maximum_flow_value(D, 0, 1, flow_func=3))


# --------------------------------------------------------------------------- matching
@st.composite
def bipartite_graphs(draw):
    a, b = draw(st.integers(0, 5)), draw(st.integers(0, 5))
    G = nx.Graph()
    G.add_nodes_from((("L", i) for i in range(a)))
    G.add_nodes_from((f"R{j}" for j in range(b)))
    if a and b:
        for i, j in draw(st.lists(st.tuples(st.integers(0, a - 1), st.integers(0, b - 1)),
                                  max_size=12)):
            G.add_edge(("L", i), f"R{j}")
    return G


def _maximum_matchings(G, left):
    """Every maximum matching (frozensets of (left, right) pairs), by enumeration."""
    left = [v for v in G if v in left]
    found = []

    def extend(i, used, pairs):
        if i == len(left):
            found.append(frozenset(pairs))
            return
        extend(i + 1, used, pairs)
        for r in G[left[i]]:
            if r not in used:
                extend(i + 1, used | {r}, pairs + [(left[i], r)])

    extend(0, frozenset(), [])
    best = max(map(len, found))
    return {m for m in found if len(m) == best}


@given(G=bipartite_graphs(), top=st.booleans())
def test_hopcroft_karp_equals_networkx_where_unique(device, G, top):
    """Answered exactly where the maximum matching is unique (then it is NetworkX's)."""
    g = convert(G, device, weight=None)
    top_nodes = [v for v in G if isinstance(v, tuple)] if top else None
    answered = same_or_refused(
        lambda: nx.bipartite.hopcroft_karp_matching(G, top_nodes),
        lambda: nxp.hopcroft_karp_matching(g, top_nodes), "not unique")
    if len(G) and (top or nx.is_connected(G)):
        left = top_nodes if top else nx.bipartite.sets(G)[0]
        assert answered == (len(_maximum_matchings(G, set(left))) == 1)


def test_hopcroft_karp_unique_answered(device):
    G = nx.Graph([("a", 1), ("b", 1), ("b", 2), ("c", 2), ("c", 3)])  # a-1, b-2, c-3 only
    assert same_or_refused(lambda: nx.bipartite.hopcroft_karp_matching(G, ["a", "b", "c"]),
                           lambda: nxp.hopcroft_karp_matching(convert(G, device, None),
                                                              ["a", "b", "c"]))
    G.add_edge("a", 2)  # a-2, b-1, c-3 too: the alternating cycle a-1-b-2-a
    with pytest.raises(NotImplementedError, match="not unique"):
        nxp.hopcroft_karp_matching(convert(G, device, None), ["a", "b", "c"])


@st.composite
def weighted_bipartite_graphs(draw):
    G = draw(bipartite_graphs())
    for u, v in G.edges:
        w = draw(st.one_of(st.none(), st.integers(-2, 4), st.sampled_from([0.5, 1.25])))
        if w is not None:
            G[u][v]["weight"] = w
    G.__networkx_cache__.clear()
    return G


def _cheapest_full_matchings(G, U, V):
    """Every full matching (of the smaller side) of least weight, by enumeration."""
    small, large = (U, V) if len(U) <= len(V) else (V, U)
    small = [v for v in G if v in small]
    found = []

    def extend(i, used, pairs, cost):
        if i == len(small):
            found.append((cost, frozenset(pairs)))
            return
        for r in G[small[i]]:
            if r in large and r not in used:
                extend(i + 1, used | {r}, pairs + [(small[i], r)],
                       cost + G[small[i]][r].get("weight", 1))

    extend(0, frozenset(), [], 0)
    if not found:
        return []
    best = min(c for c, _ in found)
    return [m for c, m in found if c == best]


@given(G=weighted_bipartite_graphs(), top=st.booleans())
def test_minimum_weight_full_matching_equals_networkx_where_unique(device, G, top):
    g = convert(G, device)
    top_nodes = [v for v in G if isinstance(v, tuple)] if top else None
    answered = same_or_refused(
        lambda: nx.bipartite.minimum_weight_full_matching(G, top_nodes),
        lambda: nxp.minimum_weight_full_matching(g, top_nodes), "several full matchings")
    if len(G) and (top or nx.is_connected(G)):
        U = set(top_nodes if top else nx.bipartite.sets(G)[0])
        V = set(G) - U
        if U and V:
            cheapest = _cheapest_full_matchings(G, U, V)
            if cheapest:  # (none: both raise "cost matrix is infeasible")
                assert answered == (len(cheapest) == 1)


# --------------------------------------------------------------------------- dispatch
def test_can_run_reads_flowG():
    G = nx.DiGraph([(0, 1, {"capacity": 2})])
    assert bi.can_run("maximum_flow_value", (G, 0, 1), {}) is True
    assert isinstance(bi.can_run("maximum_flow_value", (G, 0, 1),
                                 {"flow_func": nx.flow.edmonds_karp, "cutoff": 1}), str)
    assert isinstance(bi.can_run("eccentricity", (G,), {"sp": {}}), str)
    assert isinstance(bi.should_run("maximum_flow_value", (G, 0, 1), {}), str)


@dispatch
def test_dispatched_through_networkx():
    G = nx.DiGraph()
    G.add_edge("x", "a", capacity=3)
    G.add_edge("a", "y")  # no capacity: infinite
    assert nx.maximum_flow_value(G, "x", "y", backend="semiring") == 3
    assert nx.descendants(G.copy(), "x", backend="semiring") == {"a", "y"}
    H = nx.cycle_graph(5)
    assert nx.diameter(H, usebounds=True, backend="semiring") == 2
    assert dict(nx.floyd_warshall(H, backend="semiring")[0]) == dict(nx.floyd_warshall(H)[0])


@pytest.mark.parametrize("name", ["diameter", "radius", "periphery", "center"])
def test_bounding_search_of_the_null_graph_raises_networkx_error_in_this_pythons_words(name):
    """NetworkX's usebounds=True search takes max() of no nodes: its ValueError's message is
    the running Python's own (3.11 and 3.12 word it differently; a copy of 3.11's failed on
    the GPU host's 3.12)."""
    with pytest.raises(ValueError) as want:
        getattr(nx, name)(nx.Graph(), usebounds=True)
    with pytest.raises(ValueError) as got:
        getattr(nx, name)(nx.Graph(), usebounds=True, backend="semiring")
    assert str(got.value) == str(want.value)
