"""Session 29's audit of the backend against the installed NetworkX (3.6 on CI's Python 3.11,
3.7 on Python 3.12+): each test compares a call through ``backend="semiring"`` with
NetworkX's own answer to the same call, so it holds on both releases; a backend that
declines (NotImplementedError: NetworkX then runs the call where fallback is on) passes too
where exact replication is not attempted.

- the flow values of a multigraph view: NetworkX 3.7 converts the flow functions' graphs
  with every edge attribute, and that conversion of a multigraph view (whose key dicts are
  NetworkX's FilterAtlas) raised TypeError instead of NetworkX's NetworkXError;
- ``modularity`` of NumPy weights: NetworkX's answer is a NumPy float64, its terms added by
  plain additions (Python 3.12's ``sum`` compensates only Python floats' rounding), where the
  backend gave a Python float (and on 3.12 another last bit);
- Floyd–Warshall of -0.0 weights: NetworkX keeps an edge's -0.0 as its distance, the
  engine's distances are 0.0;
- the flow values of a callable capacity: NetworkX 3.7 calls it per edge (before, it is an
  attribute name no edge has), where the backend read every capacity as infinite.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402

DECLINED = "declined"


def _outcome(f, *args, **kw):
    """(canonical result or None, exception class or None); DECLINED where the backend
    declined (a plain NotImplementedError)."""
    try:
        return _canon(f(*args, **kw)), None
    except NotImplementedError as e:
        if type(e) is NotImplementedError and kw.get("backend") == "semiring":
            return DECLINED, None
        return None, type(e)
    except Exception as e:  # noqa: BLE001  (its class is what is compared)
        return None, type(e)


def _canon(x):
    """A comparable form keeping number types, float signs (-0.0), dict key orders and the
    dict classes (NetworkX's Floyd–Warshall returns defaultdicts, whose repr names a lambda)."""
    if isinstance(x, dict):
        return (type(x).__name__, [(_canon(k), _canon(v)) for k, v in x.items()])
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_canon(v) for v in x])
    if isinstance(x, np.ndarray):
        return ("ndarray", str(x.dtype), x.shape, repr(x.tolist()))
    return (type(x).__name__, repr(x))


def _same_or_declined(got, want):
    return got[0] == DECLINED or got == want


# --------------------------------------------------------------------------- flow of a view
def _multigraph_views():
    H = nx.MultiGraph()
    H.add_edge(0, 1, capacity=3, weight=2)
    H.add_edge(0, 1, capacity=2)
    H.add_edge(1, 2, capacity=4, weight=1)
    H.add_edge(2, 3, weight=5)
    D = nx.MultiDiGraph(H)
    return {
        "restricted_view": nx.restricted_view(H, [], [(0, 1, 1)]),
        "edge_subgraph": H.edge_subgraph([(0, 1, 0), (1, 2, 0)]),
        "subgraph_view": nx.subgraph_view(D, filter_edge=lambda u, v, k: k == 0),
        "subgraph": D.subgraph([0, 1, 2]),
    }


@pytest.mark.parametrize("view", sorted(_multigraph_views()))
@pytest.mark.parametrize("func", ["maximum_flow_value", "minimum_cut_value"])
@pytest.mark.parametrize("st", [(0, 2), (1, 1), (0, "absent")])
def test_flow_value_of_a_multigraph_view_as_networkx(view, func, st):
    G = _multigraph_views()[view]
    f = getattr(nx, func)
    want = _outcome(f, G, *st)
    got = _outcome(f, G, *st, backend="semiring")
    assert want[1] is not None  # NetworkX's flows raise for multigraphs and bad terminals
    assert got == want, (view, func, st, got, want)


@pytest.mark.parametrize("view", sorted(_multigraph_views()))
def test_conversion_with_every_edge_attribute_of_a_multigraph_view(view):
    # what NetworkX 3.7's dispatcher asks of the flow functions' graphs (preserve_edge_attrs)
    G = _multigraph_views()[view]
    g = nx_semiring.from_networkx(G, preserve_edge_attrs=True, use_cache=False, device="cpu")
    assert set(g.values) == {"capacity", "weight"}
    # each (u, v) entry: the least of its parallel edges' values, 1 where one lacks it
    want = [min(d.get("capacity", 1) for d in keys.values())
            for u in G for keys in G._adj[u].values()]
    assert g.weights("capacity").tolist() == want
    assert len(g.edge_data) == len(want)


# --------------------------------------------------------------------------- modularity
def _numpy_weighted(seed, kind, directed):
    r = random.Random(seed)
    G = nx.DiGraph() if directed else nx.Graph()
    n = r.randint(4, 14)
    G.add_nodes_from(range(n))
    for u in range(n):
        for v in range(n):
            if r.random() < 0.4 and (u != v or r.random() < 0.3):
                x = r.randint(0, 5)
                w = {"int64": np.int64(x), "float64": np.float64(x), "bool": np.bool_(x % 2),
                     "mixed": r.choice([np.int64(x), x, np.float64(x)]), "python": x}[kind]
                G.add_edge(u, v, **({} if r.random() < 0.2 else {"weight": w}))
    nodes = list(G)
    r.shuffle(nodes)
    k = r.randint(1, n)
    communities = [c for c in (set(nodes[i::k]) for i in range(k)) if c]
    return G, communities, r.choice([1, 0.5, 2, 1.3])


@pytest.mark.parametrize("kind", ["int64", "float64", "bool", "mixed", "python"])
@pytest.mark.parametrize("directed", [False, True])
def test_modularity_of_numpy_weights_as_networkx(kind, directed):
    answered = 0
    for seed in range(25):
        G, communities, resolution = _numpy_weighted(seed, kind, directed)
        want = nx.community.modularity(G, communities, resolution=resolution)
        try:
            got = nx.community.modularity(G, communities, resolution=resolution,
                                          backend="semiring")
        except NotImplementedError:
            continue
        answered += 1
        # the type (np.float64 where a weight is a NumPy scalar) and every bit
        assert type(got) is type(want) and repr(got) == repr(want), (seed, got, want)
    assert answered >= 20  # integer weights: the backend answers


def test_modularity_sums_numpy_terms_as_networkx():
    # singletons of a DiGraph with NumPy weights: NetworkX's terms are np.float64, added one
    # by one (on Python 3.12 a compensated sum of them as floats differs in the last bit)
    G = nx.DiGraph()
    nodes = [24, 72, 8, "s6", "s4", "s8", 56, 40, "s2", "s0"]
    G.add_nodes_from(nodes)
    r = random.Random(3)
    for u in nodes:
        for v in nodes:
            if u != v and r.random() < 0.8:
                G.add_edge(u, v, **({} if r.random() < 0.3 else
                                    {"weight": np.int64(r.randint(0, 4))}))
    communities = [{v} for v in nodes]
    want = nx.community.modularity(G, communities, resolution=0.5)
    got = nx.community.modularity(G, communities, resolution=0.5, backend="semiring")
    assert type(want) is np.float64
    assert type(got) is type(want) and repr(got) == repr(want)


# --------------------------------------------------------------------------- -0.0 weights
def _negative_zero_graphs():
    D = nx.DiGraph()
    D.add_weighted_edges_from([(0, 1, -0.0), (1, 2, 0.0), (2, 0, 1.0), (1, 3, -0.0),
                               (3, 1, 2.0)])
    U = nx.Graph()
    U.add_weighted_edges_from([(0, 1, -0.0), (1, 2, -0.0), (2, 3, 1.5)])
    M = nx.MultiGraph()  # parallel edges: NetworkX's min() keeps the first of equal weights
    M.add_edge(-1, -3, weight=1.0)
    M.add_edge(-1, -3, weight=-0.0)
    M.add_node("iso")
    return {"digraph": D, "graph": U, "multigraph": M}


@pytest.mark.parametrize("graph", sorted(_negative_zero_graphs()))
@pytest.mark.parametrize("func", ["floyd_warshall", "floyd_warshall_predecessor_and_distance",
                                  "floyd_warshall_numpy"])
def test_floyd_warshall_of_negative_zero_weights_as_networkx(graph, func):
    G = _negative_zero_graphs()[graph]
    f = getattr(nx, func)
    want = _outcome(f, G)
    got = _outcome(f, G, backend="semiring")
    assert want[1] is None
    if func != "floyd_warshall_numpy" or graph != "digraph":
        # NetworkX keeps a -0.0 distance (its NumPy variant's minimum() of 0.0 and -0.0 keeps
        # the 0.0 of the digraph's pivot sums)
        assert "-0.0" in repr(want[0])
    assert _same_or_declined(got, want), (got, want)


# --------------------------------------------------------------------------- callable capacity
@pytest.mark.parametrize("func", ["maximum_flow_value", "minimum_cut_value"])
@pytest.mark.parametrize("directed", [True, False])
def test_flow_value_of_a_callable_capacity_as_networkx(func, directed):
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_weighted_edges_from([(0, 1, 2), (1, 2, 3), (0, 2, 1), (2, 3, 4)])

    def capacity(u, v, d):
        return d["weight"] * 2

    f = getattr(nx, func)
    want = _outcome(f, G, 0, 3, capacity=capacity)
    got = _outcome(f, G, 0, 3, capacity=capacity, backend="semiring")
    if nx_semiring.NX_RELEASE >= (3, 7):  # NetworkX calls it: 3 · 2, finite
        assert want == (("int", "6"), None)
    else:  # an attribute name no edge has: every capacity infinite
        assert want[1] is nx.NetworkXUnbounded
    assert _same_or_declined(got, want), (got, want)


def test_flow_value_of_a_callable_capacity_refused_by_can_run():
    from nx_semiring.interface import BackendInterface  # noqa: PLC0415  (test-local)

    G = nx.DiGraph([(0, 1, {"weight": 1})])
    reason = BackendInterface.can_run("maximum_flow_value",
                                      (G, 0, 1), {"capacity": lambda u, v, d: 1})
    assert isinstance(reason, str) and "callable" in reason
    assert BackendInterface.can_run("maximum_flow_value", (G, 0, 1),
                                    {"capacity": "weight"}) is True


def test_infinite_capacity_is_still_unbounded():
    # (the callable refusal leaves attribute names alone: a missing capacity is infinite)
    G = nx.DiGraph([(0, 1), (1, 2, {"capacity": 3}), (0, 2)])
    with pytest.raises(nx.NetworkXUnbounded):
        nx.maximum_flow_value(G, 0, 1, backend="semiring")
    assert nx.maximum_flow_value(G, 1, 2, backend="semiring") == 3
    assert not math.isinf(nx.maximum_flow_value(G, 1, 2))


# --------------------------------------------------------------------------- -inf weights
@pytest.mark.parametrize("edges", [
    [(0, 1, -math.inf), (1, 2, 1.0)],                                  # NaN everywhere
    [(0, 1, -1.0), (1, 0, 1.0), (1, 2, math.inf), (2, 1, -math.inf)],  # NaN everywhere
    [(0, 1, -math.inf), (1, 0, 1.0)],                                  # a -inf cycle
])
def test_floyd_warshall_numpy_of_negative_infinite_weights_as_networkx(edges):
    G = nx.DiGraph()
    G.add_weighted_edges_from(edges)
    want = _outcome(nx.floyd_warshall_numpy, G)
    got = _outcome(nx.floyd_warshall_numpy, G, backend="semiring")
    # NetworkX's -inf + inf is NaN, spread by its minimum() (or a -inf diagonal: 3.7 raises)
    assert want[1] is nx.NetworkXUnbounded or "nan" in want[0][3] or "-inf" in want[0][3]
    assert _same_or_declined(got, want), (got, want)


# --------------------------------------------------------------------------- source aliases
@pytest.mark.parametrize("sources", [[0, False], [0, 0.0, 2], [np.int64(0), 0]])
@pytest.mark.parametrize("func", ["multi_source_dijkstra_path", "multi_source_dijkstra"])
def test_multi_source_paths_from_equal_sources_of_two_types_as_networkx(sources, func):
    # NetworkX's dist keeps the first object given for a node, its paths start with the
    # last: {source: [source] for source in sources}
    G = nx.Graph()
    G.add_weighted_edges_from([(0, 1, 1), (1, 2, 2), (2, 3, 1)])
    f = getattr(nx, func)
    want = _outcome(f, G, sources)
    got = _outcome(f, G, sources, backend="semiring")
    assert want[1] is None
    assert _same_or_declined(got, want), (got, want)
