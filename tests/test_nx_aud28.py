"""The NetworkX backend, session 28's audit (``bench/probes/aud28_nx_fuzz.py``: NumPy-scalar
labels and arguments, OrderedDict graph subclasses, filtered and nested views, weights of
NumPy, Fraction and Decimal types, nx.config modes, keyword edge cases): the wrong answers it
found, each now NetworkX's own."""

from __future__ import annotations

import math

import pytest

nx = pytest.importorskip("networkx")
np = pytest.importorskip("numpy")

from nx_semiring.interface import BackendInterface  # noqa: E402, F401

from test_nx_inputs4 import semiring_first  # noqa: E402, F401  (a fixture)


def _close(want, got):
    assert list(want) == list(got)
    assert all(math.isclose(want[k], got[k], rel_tol=1e-9, abs_tol=1e-12) for k in want)


def _loop_graph(val):
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    nx.set_edge_attributes(G, {e: type(val)(2) for e in G.edges}, "weight")
    G.add_edge(1, 1, weight=val)
    return G


@pytest.mark.parametrize("val", [np.uint8(200), np.uint64(7), np.bool_(True)])
def test_pagerank_and_hits_of_numpy_unsigned_self_loop_weights(semiring_first, val):  # noqa: F811
    # NetworkX's to_scipy_sparse_array symmetrizes an undirected graph by adding -wt of each
    # self-loop in the weight's own type: -np.uint8(200) is 56, -np.uint64(7) is 2**64 - 7,
    # -np.True_ raises TypeError. The engine's matrix holds the loop's value once.
    G = _loop_graph(val)
    for f in (nx.pagerank, nx.hits):
        with pytest.raises(NotImplementedError):  # refused: NetworkX's own answer below
            f(G, backend="semiring")
        try:
            with nx.config(backend_priority=[]), np.errstate(all="ignore"):
                want = f(G)
        except TypeError:
            with pytest.raises(TypeError), np.errstate(all="ignore"):
                f(G)
            continue
        with np.errstate(all="ignore"):
            got = f(G)
        if f is nx.hits:
            for w, g in zip(want, got):
                _close(w, g)
        else:
            _close(want, got)


def test_pagerank_of_numpy_int_self_loop_weights_is_still_answered(semiring_first):  # noqa: F811
    G = _loop_graph(np.int64(3))
    want = nx.pagerank(G, backend="networkx")
    _close(want, nx.pagerank(G, backend="semiring"))
    D = nx.DiGraph(_loop_graph(np.uint8(200)))  # directed: no symmetrizing
    _close(nx.pagerank(D, backend="networkx"), nx.pagerank(D, backend="semiring"))


def test_dag_longest_path_length_of_a_cycle_with_none_weights(semiring_first):  # noqa: F811
    # NetworkX adds the weights along its lazy topological order: here it meets the None
    # before it finds the cycle, so TypeError, not NetworkXUnfeasible
    H = nx.DiGraph()
    H.add_edges_from([(b"4", b"1", {"weight": None}), (b"8", b"7", {"weight": 2}),
                      (b"7", b"8", {"weight": 1})])
    with nx.config(backend_priority=[]), pytest.raises(TypeError):
        nx.dag_longest_path_length(H)
    with pytest.raises(TypeError):
        nx.dag_longest_path_length(H)  # the backend refuses: NetworkX's answer
    C = nx.DiGraph([(0, 1, {"weight": 1}), (1, 0, {"weight": 2})])
    with pytest.raises(nx.NetworkXUnfeasible):
        nx.dag_longest_path_length(C, backend="semiring")


@pytest.mark.parametrize("name", ["dijkstra_path", "dijkstra_path_length", "bellman_ford_path",
                                  "shortest_path", "has_path", "bidirectional_dijkstra"])
def test_a_target_not_in_g_is_left_to_networkxs_search(semiring_first, name):  # noqa: F811
    # NumPy float labels: NetworkX's ``v == target`` against a tuple target is an array, its
    # truth value a ValueError; a target absent from G is NetworkX's search's to report
    G = nx.DiGraph()
    G.add_weighted_edges_from([(np.float64(0.0), np.float64(1.0), 1),
                               (np.float64(1.0), np.float64(2.0), 2)])
    f = getattr(nx, name)
    assert isinstance(BackendInterface.can_run(name, (G, 0.0, (99, 99)), {}), str)
    with nx.config(backend_priority=[]):
        try:
            f(G, 0.0, (99, 99))
        except Exception as exc:  # noqa: BLE001
            want = type(exc)
        else:
            want = None
    if want is None:
        f(G, 0.0, (99, 99))
    else:
        with pytest.raises(want):
            f(G, 0.0, (99, 99))
    assert BackendInterface.can_run(name, (G, 0.0, 2.0), {}) is True


@pytest.mark.parametrize("key", [0, ""])
def test_eigenvector_centrality_of_a_falsy_weight_name_is_unweighted(semiring_first, key):  # noqa: F811
    # NetworkX's eigenvector_centrality reads ``G[n][nbr].get(weight, 1) if weight else 1``
    G = nx.Graph()
    G.add_edges_from([(0, 1, {key: 6, "w": 3}), (1, 2, {key: 2}), (0, 2, {key: 10}),
                      (2, 3, {key: 4})])
    want = nx.eigenvector_centrality(G, weight=key, backend="networkx")
    _close(want, nx.eigenvector_centrality(G, weight=key, backend="semiring"))
    _close(nx.eigenvector_centrality(G, backend="networkx"), want)


class _CopyingGraph(nx.Graph):
    """A subclass whose copy() carries state of its own (NetworkX's k_core family returns
    G.subgraph(nodes).copy(), k_truss G.copy() with edges removed)."""

    def copy(self, as_view=False):
        H = super().copy(as_view)
        H.copied_from = id(self)
        return H


@pytest.mark.parametrize("name,args", [("k_core", ()), ("k_shell", ()), ("k_crust", ()),
                                       ("k_corona", (2,)), ("k_truss", (3,))])
def test_core_subgraphs_of_a_subclass_that_redefines_copy(semiring_first, name, args):  # noqa: F811
    G = _CopyingGraph(nx.karate_club_graph())
    assert isinstance(BackendInterface.can_run(name, (G, *args), {}), str)
    f = getattr(nx, name)
    got = f(G, *args)
    assert type(got) is _CopyingGraph and hasattr(got, "copied_from")  # NetworkX's copy()
    with nx.config(backend_priority=[]):
        want = f(G, *args)
    assert list(got.edges(data=True)) == list(want.edges(data=True))
    assert BackendInterface.can_run(name, (nx.karate_club_graph(), *args), {}) is True
