"""Session 19 audit (helper audm15) of the NetworkX backend's Louvain, modularity, matchings
and spanning trees against NetworkX 3.6.1, on inputs found by a random and a hand-made
search.

The rule, as in ``test_nx_inputs.py``: the backend answers as NetworkX does (values, orders,
its exceptions), or it refuses so that NetworkX runs the call.

- ``louvain_communities`` answered where NetworkX raises: its Louvain squares Python float
  totals, OverflowError for weights of 2^512 (1e200 and up on small graphs),
  ZeroDivisionError for 2^-540 (1e-300), where the engine (which scales the weights) found
  communities.
- ``louvain_communities(max_level=2**63)`` answered where NetworkX's islice raises ValueError.
- ``hopcroft_karp_matching`` / ``minimum_weight_full_matching`` answered with G's node
  objects where NetworkX answers with those of ``top_nodes`` (``np.int64(0)``, ``True``).
- ``modularity`` of a community that is no collection (an int) raised another TypeError
  message than NetworkX's.
- ``minimum_spanning_tree(algorithm='prim' / 'boruvka')`` returned Kruskal's edge order: the
  same edges as NetworkX's tree where no weights tie, but ``list(T.edges)`` and T's adjacency
  in another order.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402
from nx_semiring import algorithms as nxa  # noqa: E402
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
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            r = call()
            if isinstance(r, nx.Graph):
                r = (list(r.nodes(data=True)), list(r.edges(data=True)),
                     {u: list(r._adj[u]) for u in r})
            return "ok", repr(r)
        except NotImplementedError:
            return "refused", None
        except Exception as exc:  # noqa: BLE001 (compared by type and message)
            return "raised", (type(exc).__name__, str(exc))


def _networkx(call):
    prio = nx.config.backend_priority
    # NetworkX itself, whatever the fixture prefers (a function that returns a graph, as
    # minimum_spanning_tree does, follows the generators' priority)
    saved = prio.algos, prio.generators
    prio.algos, prio.generators = [], []
    try:
        return _run(call)
    finally:
        prio.algos, prio.generators = saved


def _as_networkx_or_refused(nx_call, our_call) -> bool:
    expected, got = _networkx(nx_call), _run(our_call)
    assert expected[0] != "refused"
    if got[0] != "refused":
        assert got == expected
    return got[0] != "refused"


# --------------------------------------------------------------------------- Louvain
@pytest.mark.parametrize("graph", ["barbell", "edge", "loop"])
@pytest.mark.parametrize("exponent", [512, 600, 1000, -540, -1000])
def test_louvain_where_networkx_raises_is_left_to_it(device, semiring_first, graph, exponent):
    """NetworkX raises OverflowError (2^512 and up) or ZeroDivisionError (2^-540 and down,
    the single edge; the barbell's seven from 2^-1000); the backend answered communities."""
    G = {"barbell": nx.barbell_graph(3, 0), "edge": nx.Graph([(0, 1)]),
         "loop": nx.Graph([(0, 0), (0, 1)])}[graph]
    nx.set_edge_attributes(G, 2.0**exponent, "weight")
    expected = _networkx(lambda: nx.community.louvain_communities(G, seed=1))
    if exponent != -540 or graph != "barbell":
        assert expected[0] == "raised"
    assert not _as_networkx_or_refused(
        lambda: nx.community.louvain_communities(G, seed=1),
        lambda: nxa.louvain_communities(convert(G, device)))
    got = _run(lambda: nx.community.louvain_communities(G))  # dispatched: NetworkX's
    if expected[0] == "raised":
        assert got == expected
    else:
        assert got[0] == "ok"


@pytest.mark.parametrize("w", [1.0, 2.0**100, 2.0**-100, 7])
def test_louvain_of_ordinary_scales_is_still_answered(device, w):
    G = nx.barbell_graph(4, 0)
    nx.set_edge_attributes(G, w, "weight")
    parts = nxa.louvain_communities(convert(G, device))
    assert sorted(map(sorted, parts)) == [[0, 1, 2, 3], [4, 5, 6, 7]]


# --------------------------------------------------------------------------- spanning trees
def _distinct_weights():
    rng = np.random.default_rng(1)
    G = nx.gnp_random_graph(8, 0.6, seed=3)
    for u, v in G.edges:
        G[u][v]["weight"] = round(float(rng.random()), 3)
    return G


@pytest.mark.parametrize("algorithm", ["prim", "boruvka"])
def test_prim_and_boruvka_trees_are_networkx_in_order(device, semiring_first, algorithm):
    """Before: Prim's tree listed (1, 6) before (1, 3), Borůvka's adjacency of node 1 its
    neighbours in Kruskal's order (the same edges, NetworkX's in its algorithm's order)."""
    G = _distinct_weights()
    g = nx_semiring_graph(G, device)
    _as_networkx_or_refused(lambda: nx.minimum_spanning_tree(G, algorithm=algorithm),
                            lambda: nxa.minimum_spanning_tree(g, algorithm=algorithm))
    expected = _networkx(lambda: nx.minimum_spanning_tree(G, algorithm=algorithm))
    assert _run(lambda: nx.minimum_spanning_tree(G, algorithm=algorithm)) == expected
    assert _run(lambda: nx.minimum_spanning_tree(G, algorithm=algorithm,
                                                 ignore_nan=True)) == _networkx(
        lambda: nx.minimum_spanning_tree(G, algorithm=algorithm, ignore_nan=True))


def nx_semiring_graph(G, device):
    return nx_semiring.from_networkx(G, preserve_edge_attrs=True, preserve_node_attrs=True,
                                     preserve_graph_attrs=True, device=device)


@given(data=st.data(), n=st.integers(1, 9))
def test_kruskal_tree_is_networkx_in_order(device, data, n):
    """Kruskal's tree, ties and missing weights included: the same edges in the same order
    (``list(T.edges(data=True))``) and adjacency order, and so the same weight."""
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))
                       if pairs else st.just([]))
    G = nx.Graph()
    G.add_nodes_from(data.draw(st.permutations(range(n))))
    for u, v in chosen:
        w = data.draw(st.one_of(st.none(), st.sampled_from([1, 2, 2.5, -1, 0, 3])))
        G.add_edge(u, v, **({} if w is None else {"weight": w}))
    g = nx_semiring_graph(G, device)
    assert _as_networkx_or_refused(lambda: nx.minimum_spanning_tree(G),
                                   lambda: nxa.minimum_spanning_tree(g))


@pytest.mark.parametrize("max_level", [2**63, 10**30])
def test_louvain_max_level_past_maxsize_raises_networkx_error(device, semiring_first,
                                                              max_level):
    """NetworkX's islice(partitions, max_level) takes integers up to sys.maxsize: ValueError
    past it. Before: the backend answered the communities."""
    G = nx.barbell_graph(4, 0)
    expected = _networkx(lambda: nx.community.louvain_communities(G, max_level=max_level))
    assert expected[0] == "raised"
    assert _run(lambda: nxa.louvain_communities(convert(G, device), max_level=max_level)) \
        == expected
    assert _run(lambda: nx.community.louvain_communities(G, max_level=max_level)) == expected


# --------------------------------------------------------------------------- matchings
@pytest.mark.parametrize("top", [[np.int64(0), True], [0.0, 1], [True, np.int64(0)]])
def test_matchings_answer_with_the_top_nodes_objects(device, semiring_first, top):
    """NetworkX's left side is set(top_nodes): its answers hold those objects (np.int64(0),
    True, 0.0) where G's nodes are 0 and 1. Before: the backend answered with G's nodes
    ({0: 2, 1: 3, ...} where NetworkX has {np.int64(0): 2, True: 3, ...})."""
    H = nx.Graph([(0, 2), (1, 2), (1, 3)])  # one maximum matching
    assert _as_networkx_or_refused(
        lambda: nx.bipartite.hopcroft_karp_matching(H, top_nodes=top),
        lambda: nxp.hopcroft_karp_matching(convert(H, device, None), top_nodes=top))
    B = nx.Graph([(0, 2, {"weight": 1}), (0, 3, {"weight": 4}), (1, 2, {"weight": 2}),
                  (1, 3, {"weight": 3})])  # one cheapest full matching
    assert _as_networkx_or_refused(
        lambda: nx.bipartite.minimum_weight_full_matching(B, top_nodes=top),
        lambda: nxp.minimum_weight_full_matching(convert(B, device), top_nodes=top))
    for call in (lambda: nx.bipartite.hopcroft_karp_matching(H, top_nodes=top),
                 lambda: nx.bipartite.minimum_weight_full_matching(B, top_nodes=top)):
        assert _run(call) == _networkx(call)


# --------------------------------------------------------------------------- modularity
@pytest.mark.parametrize("parts", [{0: None}.keys(), [{0, 1, 2}, 5], [None, {0}]])
def test_modularity_of_communities_that_are_not_collections_is_networkx_error(
        device, semiring_first, parts):
    """NetworkX's is_partition iterates the communities before it takes their len():
    TypeError "'int' object is not iterable". Before: "object of type 'int' has no len()"."""
    G = nx.barbell_graph(3, 0)
    expected = _networkx(lambda: nx.community.modularity(G, parts))
    assert expected[0] == "raised" and "not iterable" in expected[1][1]
    assert _run(lambda: nxan.modularity(convert(G, device), parts)) == expected
    assert _run(lambda: nx.community.modularity(G, parts)) == expected
