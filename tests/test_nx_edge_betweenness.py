"""edge_betweenness_centrality on the engine (algorithms.edge_betweenness, the backend's
nx_semiring.centrality.edge_betweenness_centrality) against NetworkX: NetworkX's keys in its
order (``G.edges()``), its values to rounding (it adds the sources' terms in its own order),
its sampling (``k``, ``seed``) and rescaling, its NaN / inf / 0 where shortest-path counts
pass float64's range; what the backend leaves to NetworkX (weights, multigraphs, edges that
are also nodes).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

from analytics1_graphs import assert_same_overflow, kinds, overflow_graph  # noqa: E402
from conftest import to_host  # noqa: E402
from test_nx_backend import convert, dispatch, graphs  # noqa: E402

import semiring as sr  # noqa: E402
from algorithms.edge_betweenness import edge_betweenness_centrality  # noqa: E402
from nx_semiring import centrality as nxc  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402
from nx_semiring.interface import predict  # noqa: E402


def same_edges(got, exp, rtol=1e-12, atol=1e-14):
    assert list(got) == list(exp)
    for e, x in exp.items():
        assert math.isclose(got[e], x, rel_tol=rtol, abs_tol=atol), (e, got[e], x)


@given(G=graphs(), normalized=st.booleans(), data=st.data())
def test_edge_betweenness_equals_networkx(device, G, normalized, data):
    g = convert(G, device, weight=None)
    same_edges(nxc.edge_betweenness_centrality(g, normalized=normalized),
               nx.edge_betweenness_centrality(G, normalized=normalized))
    if len(G) > 1:
        k = data.draw(st.integers(1, len(G)))
        seed = data.draw(st.integers(0, 99))
        same_edges(nxc.edge_betweenness_centrality(g, k=k, seed=seed, normalized=normalized),
                   nx.edge_betweenness_centrality(G, k=k, seed=seed, normalized=normalized))


@pytest.mark.parametrize("directed", [False, True])
def test_edge_betweenness_mixed_labels(device, directed):
    """Nodes of mixed types (tuples among them, no edge equal to a node), a self-loop (0.0
    as NetworkX keys it), an isolated node, reciprocal edges."""
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from([("t", 1), 7, "a", 2.5, frozenset({1}), "lonely"])
    G.add_edges_from([(7, "a"), ("a", 7), (("t", 1), 2.5), (2.5, 2.5), (frozenset({1}), 7),
                      ("a", ("t", 1))])
    g = convert(G, device, weight=None)
    for normalized in (True, False):
        same_edges(nxc.edge_betweenness_centrality(g, normalized=normalized),
                   nx.edge_betweenness_centrality(G, normalized=normalized))


def test_edge_betweenness_larger_graphs(device):
    """Batches of several sources through the SpMM sweeps (the Hypothesis graphs' are a few
    vertices): a Kronecker-like random graph and a grid, sampled and not."""
    for G in (nx.gnm_random_graph(120, 400, seed=5), nx.grid_2d_graph(9, 11),
              nx.gnp_random_graph(80, 0.05, seed=2, directed=True)):
        g = convert(G, device, weight=None)
        same_edges(nxc.edge_betweenness_centrality(g), nx.edge_betweenness_centrality(G),
                   rtol=1e-11)
        same_edges(nxc.edge_betweenness_centrality(g, k=10, seed=4, normalized=False),
                   nx.edge_betweenness_centrality(G, k=10, seed=4, normalized=False),
                   rtol=1e-11)


def test_edge_betweenness_small_batches(device, monkeypatch):
    """Sources split into batches of one and of three (EDGE_BATCH_ELEMENTS // m): the same
    sums as one batch."""
    from algorithms import edge_betweenness as eb  # noqa: PLC0415  (its constant is patched)

    G = nx.gnm_random_graph(40, 90, seed=8)
    g = convert(G, device, weight=None)
    exp = nx.edge_betweenness_centrality(G)
    for per in (1, 3):
        monkeypatch.setattr(eb, "EDGE_BATCH_ELEMENTS", per * 2 * G.number_of_edges())
        same_edges(nxc.edge_betweenness_centrality(g), exp)


@pytest.mark.parametrize("directed", [True, False])
def test_edge_betweenness_overflow_equals_networkx(device, directed):
    """Shortest-path counts past float64: NetworkX's NaN, 0 and finite values edge by edge
    (each term σ(v) · (1 + δ(w)) / σ(w) as NetworkX computes it: inf · 0 is NaN)."""
    G = overflow_graph(directed)
    g = convert(G, device, weight=None)
    kw = {"k": 6, "seed": 139}
    exp = nx.edge_betweenness_centrality(G, **kw)
    assert "nan" in set(kinds(list(exp.values())))  # the sample meets the overflow
    got = nxc.edge_betweenness_centrality(g, **kw)
    assert list(got) == list(exp)
    assert_same_overflow(list(got.values()), list(exp.values()))


def test_engine_function_pattern_and_symmetry(device):
    """The engine's result: A's pattern (directed), A ∪ Aᵀ's with both entries of an edge
    holding its value (undirected), 0 on self-loops; errors name the argument."""
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [2, 2], [2, 3]], device=device)
    C = edge_betweenness_centrality(A, normalized=False)
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 2), (2, 3)])
    exp = nx.edge_betweenness_centrality(D, normalized=False)
    dense = to_host(C.to_dense(missing=-1))
    for (u, v), x in exp.items():
        assert dense[u, v] == pytest.approx(x)
    assert C.nvals == A.nvals
    U = edge_betweenness_centrality(A, directed=False, normalized=False)
    Ud = to_host(U.to_dense(missing=0))
    np.testing.assert_array_equal(Ud, Ud.T)
    exp = nx.edge_betweenness_centrality(D.to_undirected(), normalized=False)
    for (u, v), x in exp.items():
        assert Ud[u, v] == pytest.approx(x)
    with pytest.raises(sr.InvalidValue, match="k must be in"):
        edge_betweenness_centrality(A, k=9)
    with pytest.raises(sr.DomainMismatch, match="progress"):
        edge_betweenness_centrality(A, progress=3)
    none = np.zeros(0, dtype=np.int64)
    E = edge_betweenness_centrality(sr.Matrix.from_coo(none, none, none.astype(float), nrows=3,
                                                       ncols=3, device=device))
    assert E.nvals == 0 and E.shape == (3, 3)


def test_edge_betweenness_refusals(device):
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    assert "multigraph" in bi.can_run("edge_betweenness_centrality", (M,), {})
    G = nx.path_graph(3)
    assert "weighted" in bi.can_run("edge_betweenness_centrality", (G,),
                                    {"weight": "weight"})
    assert bi.can_run("edge_betweenness_centrality", (G,), {}) is True
    # an edge that is also a node: NetworkX's one dict of nodes and edges loses its value
    H = nx.Graph([(0, 1), (1, (0, 1))])
    with pytest.raises(NotImplementedError, match="also a node"):
        nxc.edge_betweenness_centrality(convert(H, device, weight=None))
    with pytest.raises(ValueError, match="Sample larger"):
        nxc.edge_betweenness_centrality(convert(G, device, weight=None), k=4)
    with pytest.raises(NotImplementedError, match="k=0"):
        nxc.edge_betweenness_centrality(convert(G, device, weight=None), k=0)


def test_should_run_edge_betweenness():
    t_nx, t_sr = predict("edge_betweenness_centrality", 64, 800, {"k": 8}, device="cpu")
    assert t_sr > t_nx  # kron-6-like, 8 sources, a fresh conversion: NetworkX
    # session 23, the 2-core host: the engine's warm call 75 ms against NetworkX's 173 on
    # kron-10, 951 against 230 on grid-50 (each BFS level an SpMM: hundreds of them)
    t_nx, t_sr = predict("edge_betweenness_centrality", 1024, 20800, {"k": 8}, cached=True,
                         device="cpu")
    assert t_sr < t_nx
    t_nx, t_sr = predict("edge_betweenness_centrality", 2500, 9800, {"k": 8}, cached=True,
                         device="cpu")
    assert t_sr > t_nx


@dispatch
@settings(max_examples=15)
@given(G=graphs())
def test_dispatched(G):
    nx.config.warnings_to_ignore.add("cache")
    same_edges(nx.edge_betweenness_centrality(G, backend="semiring"),
               nx.edge_betweenness_centrality(G))


@dispatch
def test_dispatched_numpy_seed():
    """A NumPy random state as seed: NetworkX's own draw of the sources."""
    G = nx.gnm_random_graph(30, 60, seed=1)
    exp = nx.edge_betweenness_centrality(G, k=5, seed=np.random.RandomState(3))
    got = nx.edge_betweenness_centrality(G, k=5, seed=np.random.RandomState(3),
                                         backend="semiring")
    same_edges(got, exp)
