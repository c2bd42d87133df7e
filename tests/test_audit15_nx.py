"""Session 19's outside-in audit (aud15) of the NetworkX backend's k-core family, k_truss,
label propagation and flow values against NetworkX itself, on graphs its authors did not
write: random graphs with mixed node labels, self-loops, isolated nodes and shuffled orders,
and the conversion cache one function leaves for the next."""

from __future__ import annotations

import random
import warnings

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nx_semiring  # noqa: F401  (registers the backend)


def _both(f, *args, **kwargs):
    """NetworkX's answer and the backend's, each as ('ok', value) or ('err', type, text)."""
    out = []
    for extra in ({}, {"backend": "semiring"}):
        try:
            out.append(("ok", f(*args, **kwargs, **extra)))
        except NotImplementedError:
            raise
        except Exception as exc:  # noqa: BLE001  (the exceptions are compared)
            out.append(("err", type(exc).__name__, str(exc)))
    return out


def _graph_key(H):
    return (type(H).__name__, list(H.nodes(data=True)), list(H.edges(data=True)))


@pytest.mark.parametrize(("first", "directed"), [("k_core", False), ("k_core", True),
                                                  ("k_shell", True), ("k_truss", False)])
def test_flow_value_after_a_preserving_conversion_is_cached(first, directed):
    # NetworkX's cache hands maximum_flow_value the k_core conversion (every attribute kept,
    # read with default 1): the backend refused it although every edge has a capacity
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_edge("s", 1, capacity=3)
    G.add_edge(1, "t", capacity=2)
    G.add_edge("s", (2,), capacity=4)
    G.add_edge((2,), "t", capacity=5)
    G.add_edge(1, (2,), capacity=1)
    cache = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = True  # the case needs NetworkX's cache
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NetworkX's note that a cached conversion is used
            getattr(nx, first)(G, *((3,) if first == "k_truss" else ()), backend="semiring")
            for f in (nx.maximum_flow_value, nx.minimum_cut_value):
                assert f(G, "s", "t", backend="semiring") == f(G, "s", "t") == 7
    finally:
        nx.config.cache_converted_graphs = cache


def test_flow_value_after_a_preserving_conversion_with_a_missing_capacity():
    # an edge without the attribute is infinite in NetworkX, 1 in the kept conversion: still
    # NetworkX's answer (the backend refuses that conversion; NetworkX runs it)
    G = nx.DiGraph()
    G.add_edge(0, 1, capacity=3)
    G.add_edge(1, 2)
    cache = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nx.k_core(G, backend="semiring")
            try:
                value = nx.maximum_flow_value(G, 0, 2, backend="semiring")
            except NotImplementedError:  # the refusal: NetworkX runs it when not forced
                value = nx.maximum_flow_value(G, 0, 2, backend="networkx")
            assert value == 3
    finally:
        nx.config.cache_converted_graphs = cache


def _random_graph(seed, directed=False):
    rng = random.Random(seed)
    n = rng.randrange(0, 30)
    G = nx.gnp_random_graph(n, rng.uniform(0, 0.35), seed=rng.randrange(2**32),
                            directed=directed)
    if rng.random() < 0.5:  # mixed node labels
        G = nx.relabel_nodes(G, {v: rng.choice([v, str(v), (v, "x"), v + 0.5]) for v in G})
    if rng.random() < 0.5:  # node and edge orders unlike the labels'
        nodes, edges = list(G), list(G.edges())
        rng.shuffle(nodes)
        rng.shuffle(edges)
        G = G.__class__()
        G.add_nodes_from(nodes)
        G.add_edges_from(edges)
    return G, rng


@given(seed=st.integers(0, 2**32 - 1))
def test_core_family_truss_and_label_propagation_match_networkx(seed):
    cache = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = False  # each call converts G afresh
    try:
        G, rng = _random_graph(seed)
        r = _both(nx.core_number, G)
        assert r[0][0] != "ok" or list(r[0][1].items()) == list(r[1][1].items())
        assert r[0][0] == "ok" or r[0] == r[1]
        for f, args in ((nx.k_core, ()), (nx.k_shell, ()), (nx.k_crust, ()),
                        (nx.k_corona, (rng.randrange(0, 4),)),
                        (nx.k_truss, (rng.randrange(-1, 6),))):
            a, b = _both(f, G, *args)
            if a[0] == "ok":
                assert b[0] == "ok" and _graph_key(a[1]) == _graph_key(b[1])
            else:
                assert a == b
        a, b = _both(nx.community.label_propagation_communities, G)
        assert [set(c) for c in a[1]] == [set(c) for c in b[1]]
    finally:
        nx.config.cache_converted_graphs = cache
