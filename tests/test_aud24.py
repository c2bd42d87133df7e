"""Session 24 (aud24): defects found by the outside-in audit of the analytics and their
NetworkX dispatch (``bench/probes/aud24_analytics.py``: the backend against NetworkX on a
seeded battery of input kinds and keyword variants, and the engine's analytics on bad
arguments), each pinned by the call that showed it:

- ``nx.pagerank`` of float weights whose row sums are subnormal: NetworkX scales its rows by
  ``1.0 / S``, inf there, and raises PowerIterationFailedConvergence; the backend divided
  and returned ranks;
- ``algorithms.pagerank(A, max_iter=2.5)`` and ``algorithms.betweenness_centrality(A, k=2.5)``
  (and edge betweenness) named the argument and the expected kind but not the actual value
  ("got float"); likewise ``betweenness_centrality(A, k=2, seed="x")`` ("got str") and a
  NaN or negative ``personalization`` / ``nstart`` / ``dangling`` of ``pagerank`` (no value);
- ``nx.community.label_propagation_communities`` of a graph that is one community: the
  backend's set was a copy of a frozenset of the nodes, which iterates in that frozenset's
  slot order, not in the order of NetworkX's set (the nodes added one by one in G's order)
  where labels' hashes collide (nodes 0, 8, 16, 24, 32: [0, 32, 16, 8, 24] against
  NetworkX's [0, 32, 8, 16, 24]); seen by the probe on mixed labels;
- ``algorithms.connected_components(A, symmetric="no")`` took the truthy string as the
  promise of a symmetric pattern (every other flag of the analytics is checked as a bool):
  on a directed A its strong components came out as the weak ones.
"""

from __future__ import annotations

import warnings

import pytest

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402,F401  (registers the backend)
import numpy as np  # noqa: E402

import algorithms as alg  # noqa: E402
import semiring as sr  # noqa: E402


def _backend(f, *args, **kwargs):
    """f through the backend, NetworkX's fallback off: the backend's own answer, or
    NotImplementedError where it refuses (NetworkX would then run the call)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs, backend="semiring")


# ------------------------------------------------------------ pagerank: subnormal row sums


@pytest.mark.parametrize("tiny", [5e-324, 1e-310])
@pytest.mark.parametrize("directed", [False, True])
def test_pagerank_of_subnormal_row_sums_is_left_to_networkx(tiny, directed):
    G = (nx.DiGraph if directed else nx.Graph)()
    nx.add_cycle(G, range(5), weight=1.0)
    G.add_edge(0, 5, weight=tiny)
    G.add_edge(5, 6, weight=tiny)
    G.add_edge(6, 0, weight=tiny)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G)  # NetworkX's 1.0 / S overflows: NaN ranks
    with pytest.raises(NotImplementedError):
        _backend(nx.pagerank, G)
    # where NetworkX falls back (the default for a backend preferred by configuration)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        with nx.config.backend_priority(algos=["semiring"]):
            nx.pagerank(G)


def test_pagerank_of_small_normal_row_sums_still_runs_on_the_backend():
    # 1e-300's reciprocal is finite: NetworkX's ranks are the engine's
    G = nx.DiGraph()
    nx.add_cycle(G, range(4), weight=1e-300)
    G.add_edge(0, 2, weight=3e-300)
    want = nx.pagerank(G)
    got = _backend(nx.pagerank, G)
    assert list(got) == list(want)
    assert got == pytest.approx(want, rel=1e-9)


# ------------------------------------------------------ direct calls: the actual value named


def _cycle(device):
    return sr.Matrix.from_coo([0, 1, 2, 1, 2, 0], [1, 2, 0, 0, 1, 2], np.ones(6),
                              nrows=3, ncols=3, device=device)


@pytest.mark.parametrize("call, pattern", [
    (lambda A: alg.pagerank(A, max_iter=2.5), r"pagerank: max_iter must be an integer, got "
                                              r"float 2\.5"),
    (lambda A: alg.pagerank(A, max_iter="7"), r"pagerank: max_iter must be an integer, got "
                                              r"str '7'"),
    (lambda A: alg.betweenness_centrality(A, k=2.5),
     r"betweenness_centrality: k must be an integer, got float 2\.5"),
    (lambda A: alg.edge_betweenness_centrality(A, k=1.5),
     r"edge_betweenness_centrality: k must be an integer, got float 1\.5"),
])
def test_bad_counts_name_the_actual_value(device, call, pattern):
    with pytest.raises(sr.DomainMismatch, match=pattern):
        call(_cycle(device))


@pytest.mark.parametrize("arg", ["personalization", "nstart", "dangling"])
@pytest.mark.parametrize("bad, shown", [(float("nan"), "nan"), (-2.0, "-2.0"),
                                        (float("inf"), "inf")])
def test_pagerank_bad_weight_vectors_name_the_value_and_vertex(device, arg, bad, shown):
    xp = np if device == "cpu" else pytest.importorskip("cupy")
    v = xp.ones(3)
    v[1] = bad
    with pytest.raises(sr.InvalidValue,
                       match=rf"pagerank: {arg} must hold finite non-negative weights, got "
                             rf"{shown} for vertex 1"):
        alg.pagerank(_cycle(device), **{arg: v})


def test_betweenness_bad_seed_names_the_value(device):
    with pytest.raises(sr.DomainMismatch, match=r"seed must be None, an int or a "
                                                r"random\.Random, got str 'x'"):
        alg.betweenness_centrality(_cycle(device), k=2, seed="x")


@pytest.mark.parametrize("flag", ["no", 1, None])
def test_connected_components_symmetric_must_be_a_bool(device, flag):
    D = sr.Matrix.from_coo([0, 1], [1, 2], np.ones(2), nrows=3, ncols=3, device=device)
    with pytest.raises(sr.DomainMismatch, match=r"connected_components: symmetric must be a "
                                                r"bool \(True or False\), got "):
        alg.connected_components(D, "strong", symmetric=flag)
    # the bool promise is still taken, and without it the strong components are right
    assert np.asarray(sr.to_device(alg.connected_components(D, "strong"), "cpu")).tolist() \
        == [0, 1, 2]


# --------------------------------------------- one community: the set in NetworkX's order


@pytest.mark.parametrize("labels", [[0, 8, 16, 24, 32], [64, 0, 32, 8, 16, 24, 40, 48, 56]])
def test_label_propagation_one_community_iterates_as_networkx(labels):
    G = nx.complete_graph(labels)
    want = [list(c) for c in nx.community.label_propagation_communities(G)]
    got = [list(c) for c in _backend(nx.community.label_propagation_communities, G)]
    assert len(want) == 1
    assert got == want
