"""The NetworkX backend, session 27's audit (``bench/probes/aud27_nx_fuzz.py``, ~261 000 calls
against NetworkX 3.6.1): the wrong answers it found, each now NetworkX's own (the backend
refuses the call and NetworkX runs it)."""

from __future__ import annotations

import math

import pytest

nx = pytest.importorskip("networkx")

from nx_semiring.interface import BackendInterface  # noqa: E402

from test_nx_inputs4 import semiring_first  # noqa: E402, F401  (a fixture)


def test_hits_of_an_undirected_view_of_a_weighted_digraph(semiring_first):  # noqa: F811
    # NetworkX's hits reads "weight" without a weight= argument; the view's G[u][v] and
    # G[v][u] differ, which no symmetric matrix holds
    D = nx.DiGraph()
    D.add_weighted_edges_from([(0, 1, 1), (1, 0, 5), (1, 2, 1), (2, 3, 2), (3, 0, 1), (0, 2, 3)])
    V = D.to_undirected(as_view=True)
    assert isinstance(BackendInterface.can_run("hits", (V,), {}), str)
    with nx.config(backend_priority=[]):
        want = nx.hits(V)
    got = nx.hits(V)
    for w, g in zip(want, got):
        assert list(w) == list(g)
        assert all(math.isclose(w[k], g[k], rel_tol=1e-9, abs_tol=1e-12) for k in w)
    assert not isinstance(BackendInterface.can_run("hits", (D.to_undirected(),), {}), str)


def test_dag_longest_path_length_after_a_cached_all_attributes_conversion(semiring_first):  # noqa: F811
    # k_core leaves NetworkX a cached conversion of every attribute, read with default 1;
    # default_weight=2 must still weigh the edges without the attribute
    G = nx.DiGraph([("a", "b", {"other": 1}), ("b", "c", {}), ("c", "d", {})])
    with nx.config(backend_priority=[]):
        want = nx.dag_longest_path_length(G, weight="other", default_weight=2)
    assert want == 5
    nx.k_core(G)
    assert nx.dag_longest_path_length(G, weight="other", default_weight=2) == want
    assert nx.dag_longest_path_length(G, weight="other", default_weight=1) == 3


@pytest.mark.parametrize("loop", [False, True])
def test_floyd_warshall_of_a_multigraph_with_a_nan_parallel_edge(semiring_first, loop):  # noqa: F811
    M = nx.MultiGraph()
    u, v = ("a", "a") if loop else ("a", "b")
    M.add_edge(u, v, weight=2.0)
    M.add_edge(u, v, weight=math.nan)
    assert isinstance(BackendInterface.can_run("floyd_warshall", (M,), {}), str)
    with nx.config(backend_priority=[]):
        want = {x: dict(d) for x, d in nx.floyd_warshall(M).items()}
    got = {x: dict(d) for x, d in nx.floyd_warshall(M).items()}
    assert repr(got) == repr(want)


def test_flow_values_of_numpy_capacities_are_networkx_typed(semiring_first):  # noqa: F811
    # NetworkX's flow value is the sum of the NumPy numbers (np.int64): the backend refuses
    # NumPy-typed capacities, Python ints it answers
    np = pytest.importorskip("numpy")
    F = nx.DiGraph()
    F.add_edge(0, 1, capacity=np.int64(3))
    F.add_edge(1, 2, capacity=np.int64(2))
    for f in (nx.maximum_flow_value, nx.minimum_cut_value):
        with nx.config(backend_priority=[]):
            want = f(F, 0, 2)
        got = f(F, 0, 2)
        assert repr(got) == repr(want) == "np.int64(2)"
    G = nx.DiGraph([(0, 1, {"capacity": 3}), (1, 2, {"capacity": 2})])
    assert repr(nx.maximum_flow_value(G, 0, 2, backend="semiring")) == "2"


def test_floyd_warshall_numpy_of_rounding_float_sums_is_networkxs(semiring_first):  # noqa: F811
    # 0.1 + 0.2 + 0.5 rounds to 0.8 in NetworkX's order of additions, 0.7999999999999999 in
    # another: the backend refuses such weights (as the dict floyd_warshall does)
    np = pytest.importorskip("numpy")
    G = nx.Graph()
    G.add_weighted_edges_from([(0, 1, 0.1), (1, 2, 0.2), (2, 3, 0.5)])
    with nx.config(backend_priority=[]):
        want = nx.floyd_warshall_numpy(G)
    np.testing.assert_array_equal(nx.floyd_warshall_numpy(G), want)
    H = nx.Graph()
    H.add_weighted_edges_from([(0, 1, 0.5), (1, 2, 0.25), (2, 3, 1.5)])  # exact sums: answered
    np.testing.assert_array_equal(nx.floyd_warshall_numpy(H, backend="semiring"),
                                  nx.floyd_warshall_numpy(H, backend="networkx"))
