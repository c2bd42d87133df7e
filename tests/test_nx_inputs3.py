"""The NetworkX backend, third audit (session 17): edge attributes NumPy types or rounds
otherwise than NetworkX adds them (NumPy scalars narrower than 64 bits, integers beyond
2^53 among floats or beyond int64, parallel edges whose weights do not compare), NetworkX's
wrapped NumPy random generators, and a cached conversion of every edge attribute serving a
weighted call on a graph that lacks the attribute.

The rule each test checks, as in ``test_nx_inputs.py``: the backend answers as NetworkX
does (values, its exceptions), or it refuses (``NotImplementedError`` raised by the call
itself, or by the conversion) so that NetworkX runs the call. Never a different answer.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402
from nx_semiring import algorithms as nxa  # noqa: E402

from test_nx_inputs import assert_as_networkx_or_refused, convert  # noqa: E402
from test_nx_inputs2 import dispatch, semiring_first  # noqa: E402

# the weighted calls that add path weights (NetworkX's sums against the engine's)
SUMS = {
    "dijkstra": lambda m, G: m.single_source_dijkstra_path_length(G, 0),
    "dijkstra_st": lambda m, G: m.dijkstra_path_length(G, 0, 2),
    "bellman_ford": lambda m, G: m.single_source_bellman_ford_path_length(G, 0),
    "shortest_path_length": lambda m, G: m.shortest_path_length(G, 0, weight="weight"),
    "all_pairs": lambda m, G: dict(m.shortest_path_length(G, weight="weight")),
    "target": lambda m, G: m.shortest_path_length(G, target=2, weight="weight"),
    "negative_edge_cycle": lambda m, G: m.negative_edge_cycle(G),
}


def exact_equal(a, b):
    """Equal values (an int and the float of it too, NumPy scalars as their value), dicts
    key by key: 2.1 and np.float32(2.1) differ."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            exact_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def as_networkx_or_refused(call, G, device):
    """NetworkX's answer (compared with :func:`exact_equal`) or a refusal; the conversion
    may refuse too. Returns whether the backend answered."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy scalars wrapping in NetworkX
        try:
            expected = ("ok", call(nx, G))
        except Exception as exc:  # noqa: BLE001 (compared by type)
            expected = ("raised", type(exc))
        try:
            g = convert(G, device)
            got = ("ok", call(nxa, g))
        except NotImplementedError:
            return False
        except Exception as exc:  # noqa: BLE001 (compared by type)
            got = ("raised", type(exc))
    assert got[0] == expected[0], (expected, got)
    assert got[0] == "raised" and got[1] is expected[1] or exact_equal(got[1], expected[1]), \
        (expected, got)
    return True


# --------------------------------------------------------------------------- NumPy scalars
def _path(cls, weights):
    G = cls()
    G.add_nodes_from(range(len(weights) + 1))
    for i, w in enumerate(weights):
        G.add_edge(i, i + 1, weight=w)
    return G


@pytest.mark.parametrize("name", sorted(SUMS))
@pytest.mark.parametrize("directed", [False, True])
def test_float32_weights_are_added_as_networkx_or_refused(device, name, directed):
    """NetworkX adds ``0 + np.float32(0.1) + 2`` in float32 (NumPy's weak Python scalars):
    2.0999999 where the engine's float64 gave 2.100000001490116 before."""
    G = _path(nx.DiGraph if directed else nx.Graph, [np.float32(0.1), 2])
    assert nx.dijkstra_path_length(G, 0, 2) == np.float32(2.1)
    answered = as_networkx_or_refused(SUMS[name], G, device)
    assert name == "negative_edge_cycle" or not answered  # no negative weight: False


@pytest.mark.parametrize("wider", [[], [np.int64(1)], [-0.0]], ids=["int8", "int64", "float"])
@pytest.mark.parametrize("name", sorted(SUMS))
def test_int8_weights_that_wrap_in_networkx_are_refused(device, name, wider):
    """np.int8(100) + np.int8(100) wraps to -56 in NetworkX's sums; the engine's int64
    gave 200. A wider NumPy scalar or a float elsewhere in the graph (whose sum with the
    others is int64 or float64) does not change the sums along the int8 edges."""
    G = _path(nx.DiGraph, [np.int8(100), np.int8(100)] + wider)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert nx.dijkstra_path_length(G, 0, 2) == -56
    answered = as_networkx_or_refused(SUMS[name], G, device)
    assert name == "negative_edge_cycle" or not answered


def test_louvain_of_narrow_weights_is_left_to_networkx(device):
    """NetworkX's Louvain adds np.int8 weights in int8: beside a large Python int it raises
    OverflowError; the backend answered."""
    G = nx.Graph([(0, 1, {"weight": np.int8(90)}), (1, 2, {"weight": 2**40}),
                  (2, 0, {"weight": np.int8(1)})])
    with pytest.raises(OverflowError):
        nx.community.louvain_communities(G, seed=1)
    with pytest.raises(NotImplementedError):
        nxa.louvain_communities(convert(G, device))


@pytest.mark.parametrize("other", [2, float("inf"), -0.0])
def test_small_int32_weights_are_left_to_networkx(device, other):
    """int32 sums that cannot wrap (n · max w below 2^31) are NetworkX's values exactly, but
    np.int32 scalars, the engine's Python ints: answered before session 23 (equal by value),
    refused since (an inf beside them raised OverflowError in the bound before that)."""
    G = _path(nx.DiGraph, [np.int32(5), 2, np.int32(7)])
    G.add_edge(0, 3, weight=other)
    assert isinstance(nx.single_source_dijkstra_path_length(G, 0)[2], np.generic)
    assert not as_networkx_or_refused(SUMS["dijkstra"], G, device)
    assert not as_networkx_or_refused(SUMS["bellman_ford"], G, device)


def test_float32_weights_still_run_where_networkx_converts_to_float64(device):
    """PageRank and Floyd–Warshall read float32 weights into float64 arrays in NetworkX too:
    the backend answers them (eighths: path sums that do not round, which Floyd–Warshall
    needs; rounding ones are NetworkX's, tests/test_nx_aud27.py)."""
    G = nx.gnm_random_graph(12, 30, seed=3, directed=True)
    for u, v in G.edges():
        G[u][v]["weight"] = np.float32(u + v / 8)
    g = convert(G, device)
    want, got = nx.pagerank(G), nxa.pagerank(g)
    assert want.keys() == got.keys() and all(abs(want[v] - got[v]) < 1e-9 for v in want)
    assert np.array_equal(nxa.floyd_warshall_numpy(g), nx.floyd_warshall_numpy(G))


# --------------------------------------------------------------------------- NetworkX's messages
@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiDiGraph])
@pytest.mark.parametrize("name", ["bfs_edges", "bfs_tree", "bfs_predecessors",
                                  "bfs_successors"])
def test_missing_bfs_source_message_as_networkx(device, cls, name):
    """A DiGraph's G.neighbors says 'digraph' in NetworkX's message ('graph' before)."""
    G = cls([(0, 1)])
    with pytest.raises(nx.NetworkXError) as want:
        list(getattr(nx, name)(G, 9))
    with pytest.raises(nx.NetworkXError) as got:
        list(getattr(nxa, name)(convert(G, device, weight=None), 9))
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("call", [lambda m, G: m.single_source_bellman_ford(G, 0, 2),
                                  lambda m, G: m.bellman_ford_path(G, 0, 2),
                                  lambda m, G: m.shortest_path(G, 0, 2, weight="weight",
                                                               method="bellman-ford")])
def test_unreachable_bellman_ford_target_message_as_networkx(device, call):
    G = nx.DiGraph([(0, 1, {"weight": 1}), (2, 0, {"weight": 1})])
    with pytest.raises(nx.NetworkXNoPath) as want:
        call(nx, G)
    with pytest.raises(nx.NetworkXNoPath) as got:
        call(nxa, convert(G, device))
    assert str(got.value) == str(want.value) == "Target 2 cannot be reached from given sources"


@pytest.mark.parametrize("ends", [(None, 0), (0, None), (None, None), (None, 9), (9, None)])
def test_has_path_with_a_missing_end_as_networkx(device, ends):
    """NetworkX's has_path is shortest_path(G, s, t) less NetworkXNoPath: with an end None,
    True (or NodeNotFound for the other end); the backend raised NodeNotFound('... None ...')."""
    G = nx.DiGraph([(0, 1), (2, 0)])
    g = convert(G, device, weight=None)
    try:
        want = ("ok", nx.has_path(G, *ends))
    except nx.NodeNotFound as exc:
        want = ("raised", str(exc))
    try:
        got = ("ok", nxa.has_path(g, *ends))
    except nx.NodeNotFound as exc:
        got = ("raised", str(exc))
    assert got == want


def test_single_source_shortest_path_cutoff_that_does_not_compare(device):
    G = nx.path_graph(3)
    with pytest.raises(TypeError) as want:
        nx.single_source_shortest_path(G, 0, cutoff="a")
    with pytest.raises(TypeError) as got:
        nxa.single_source_shortest_path(convert(G, device, weight=None), 0, cutoff="a")
    assert str(got.value) == str(want.value)


NUMPY_TYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
               np.uint8, np.uint32, int, float]


@settings(max_examples=150, deadline=None)
@given(directed=st.booleans(), data=st.data(),
       edges=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4),
                                st.integers(0, len(NUMPY_TYPES) - 1),
                                st.sampled_from([0, 1, 3, 60, 100, 127, 250, 0.1, 2.5])),
                      min_size=1, max_size=10))
def test_numpy_scalar_weights_as_networkx_or_refused(device, directed, data, edges):
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(range(5))
    for u, v, t, w in edges:
        typ = NUMPY_TYPES[t]
        if typ is int or np.dtype(typ).kind in "iu":
            w = min(int(w), 127)  # every integer type holds it; sums may wrap
        G.add_edge(u, v, weight=typ(w))
    name = data.draw(st.sampled_from(sorted(SUMS)))
    as_networkx_or_refused(SUMS[name], G, device)


# --------------------------------------------------------------------------- big integers
def _big_graphs():
    return {
        # an int past 2^53 among floats: NumPy's float64 array rounded it to 2^53
        "int_among_floats": nx.Graph([(0, 1, {"weight": 2**53 + 1}), (1, 2, {"weight": 0.5}),
                                      (2, 3, {"weight": 1})]),
        # a Python int in [2^63, 2^64): NumPy 2 makes the list float64 (it was uint64)
        "beyond_int64": nx.DiGraph([(0, 1, {"weight": 2**63 + 1}), (1, 2, {"weight": 1}),
                                    (0, 2, {"weight": 3})]),
        # a NumPy uint64 beyond int64 among Python ints: float64 again
        "uint64_scalar": nx.DiGraph([(0, 1, {"weight": np.uint64(2**63 + 1)}),
                                     (1, 2, {"weight": 1})]),
    }


@pytest.mark.parametrize("kind", sorted(_big_graphs()))
@pytest.mark.parametrize("name", sorted(SUMS))
def test_integers_float64_rounds_are_refused(device, kind, name):
    """Before: 9223372036854775809 came back as 9.223372036854776e18 (a float, another
    value), 2^53 + 1 as 9007199254740992.0."""
    G = _big_graphs()[kind]
    answered = as_networkx_or_refused(SUMS[name], G, device)
    assert not answered


def test_integers_float64_rounds_are_refused_by_the_conversion(device):
    for G in _big_graphs().values():
        with pytest.raises(NotImplementedError, match="float64 rounds"):
            convert(G, device)
    # floats of that size (not ints) are float64's own values: converted
    G = nx.Graph([(0, 1, {"weight": 2.0**60}), (1, 2, {"weight": 0.5})])
    assert nxa.dijkstra_path_length(convert(G, device), 0, 2) == nx.dijkstra_path_length(G, 0, 2)


# --------------------------------------------------------------------------- multigraphs
@pytest.mark.parametrize("bad", [None, "x"])
def test_parallel_weights_that_do_not_compare_are_refused(device, bad):
    """min() over a pair's parallel edges raised TypeError out of the conversion, which
    NetworkX's dispatcher does not fall back from; NetworkX answers where its search does not
    reach that pair."""
    G = nx.MultiGraph([(0, 1, {"weight": bad}), (0, 1, {"weight": 2}), (2, 3, {"weight": 1})])
    with pytest.raises(NotImplementedError, match="parallel"):
        convert(G, device)


@dispatch
def test_parallel_weights_that_do_not_compare_fall_back(monkeypatch):
    G = nx.MultiDiGraph([(0, 1, {"weight": None}), (0, 1, {"weight": 2}), (2, 3, {"weight": 1})])
    want = nx.single_source_dijkstra_path_length(G, 2)
    with semiring_first(monkeypatch):
        assert nx.single_source_dijkstra_path_length(G, 2) == want == {2: 0, 3: 1}


# --------------------------------------------------------------------------- random seeds
@pytest.mark.parametrize("make", [lambda: np.random.RandomState(5),
                                  lambda: np.random.default_rng(7)],
                         ids=["RandomState", "Generator"])
@pytest.mark.parametrize("directed", [False, True])
def test_betweenness_with_a_numpy_seed_as_networkx(device, make, directed):
    """NetworkX wraps a NumPy seed (PythonRandomInterface) before dispatching; the backend
    refused it (NotImplementedError, which ``backend="semiring"`` shows the user). Now the
    same draw: the same sources, the same state of the generator after the call."""
    G = nx.gnm_random_graph(25, 60, seed=4, directed=directed)
    g = convert(G, device, weight=None)
    wrap = nx.utils.create_py_random_state
    r_nx, r_sr = wrap(make()), wrap(make())
    for k, endpoints in ((4, False), (3, True)):
        want = nx.betweenness_centrality(G, k=k, seed=r_nx, endpoints=endpoints)
        got = nxa.betweenness_centrality(g, k=k, seed=r_sr, endpoints=endpoints)
        assert list(got) == list(want)
        assert all(abs(got[v] - want[v]) < 1e-12 for v in want)
    assert r_nx.random() == r_sr.random()


# --------------------------------------------------------------------------- cached conversions
def test_preserved_conversion_serves_weights_no_edge_has(device):
    """A conversion with every edge's dict (``minimum_spanning_tree``'s, which NetworkX's
    cache then serves to any weighted call) on a graph without the weight: unit weights, as
    NetworkX's default 1; before, 'edge attribute 'weight' was not converted'."""
    G = nx.path_graph(5)
    G.add_edge(0, 4, color="red")
    g = nx_semiring.from_networkx(G, preserve_edge_attrs=True, device=device)
    assert nxa.single_source_dijkstra_path_length(g, 0) == \
        nx.single_source_dijkstra_path_length(G, 0)
    assert nxa.single_source_bellman_ford_path_length(g, 1) == \
        nx.single_source_bellman_ford_path_length(G, 1)
    assert nxa.shortest_path_length(g, target=3, weight="weight") == \
        nx.shortest_path_length(G, target=3, weight="weight")
    assert nxa.negative_edge_cycle(g) is False
    assert np.array_equal(nxa.floyd_warshall_numpy(g), nx.floyd_warshall_numpy(G))
    with pytest.raises(NotImplementedError):  # an attribute some edge has, not numbers
        nxa.single_source_dijkstra_path_length(g, 0, weight="color")


@dispatch
def test_weighted_calls_after_minimum_spanning_tree_as_networkx():
    G = nx.cycle_graph(6)
    nx.config.warnings_to_ignore.add("cache")
    nx.minimum_spanning_tree(G, backend="semiring")  # caches the preserve-all conversion
    assert nx.dijkstra_path_length(G, 0, 3, backend="semiring") == 3
    assert dict(nx.shortest_path_length(G, weight="weight", backend="semiring")) == \
        dict(nx.shortest_path_length(G, weight="weight"))
    assert nx.negative_edge_cycle(G, backend="semiring") is False


# --------------------------------------------------------------------------- views
def _one_sided_view():
    """An undirected graph's subgraph_view whose filter_edge keeps 1-2 from 2 only: G[2]
    holds 1, G[1] not 2, and G.edges() leaves the edge out."""
    G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (2, 3, {"weight": 5}),
                  (0, 3, {"weight": 9})])
    return nx.subgraph_view(G, filter_edge=lambda u, v: (u, v) != (1, 2))


def test_one_sided_undirected_view_is_refused_by_the_conversion(device):
    V = _one_sided_view()
    assert 1 in V[2] and 2 not in V[1]
    with pytest.raises(NotImplementedError, match="not symmetric"):
        convert(V, device)
    # a symmetric filter converts as before
    W = nx.subgraph_view(V._graph, filter_edge=lambda u, v: {u, v} != {1, 2})
    assert nxa.single_source_dijkstra_path_length(convert(W, device), 0) == \
        nx.single_source_dijkstra_path_length(W, 0)


@dispatch
def test_one_sided_undirected_view_as_networkx(monkeypatch):
    """PageRank and Floyd–Warshall read G.edges() in NetworkX (no 1-2 edge), the conversion
    read G[u] of each row and took the matrix as symmetric: other answers before."""
    V = _one_sided_view()
    want_pr, want_fw = nx.pagerank(V), nx.floyd_warshall_numpy(V)
    want_d = nx.single_source_dijkstra_path_length(V, 0)
    with semiring_first(monkeypatch):
        pr, fw = nx.pagerank(V), nx.floyd_warshall_numpy(V)
        d = nx.single_source_dijkstra_path_length(V, 0)
    assert all(abs(pr[v] - want_pr[v]) < 1e-12 for v in want_pr)
    assert np.array_equal(fw, want_fw) and d == want_d
