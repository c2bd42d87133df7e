"""Betweenness centrality against NetworkX's betweenness_centrality (all sources, sampled k with
the same seed, explicit sources; normalized or not, endpoints or not, directed or undirected),
batched and unbatched, on every backend."""

from __future__ import annotations

import importlib
import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, strategies as st

import algorithms
import semiring as sr
from analytics1_graphs import (as_array, assert_same_overflow, graphs, kinds, overflow_graph,
                               to_nx)
from conftest import to_host

centrality = importlib.import_module("algorithms.centrality")


def check(got, ref, n, xp):
    assert type(got) is xp.ndarray and got.dtype == np.float64 and got.shape == (n,)
    np.testing.assert_allclose(to_host(got), as_array(ref, n), rtol=1e-9, atol=1e-12)


@given(g=graphs(max_n=14), normalized=st.booleans(), endpoints=st.booleans(),
       directed=st.booleans(), iso=st.booleans())
def test_betweenness_all_sources(device, g, normalized, endpoints, directed, iso):
    S, undirected = g
    n = S.shape[0]
    A = sr.Matrix.from_scipy(S, device=device, iso=iso)
    # directed=False takes A ∪ Aᵀ: NetworkX's Graph of the same edges
    G = to_nx(S, directed=directed, weighted=False)
    ref = nx.betweenness_centrality(G, normalized=normalized, endpoints=endpoints)
    got = algorithms.betweenness_centrality(A, normalized=normalized, endpoints=endpoints,
                                            directed=directed)
    check(got, ref, n, sr.array_module(device))


@given(g=graphs(max_n=14), normalized=st.booleans(), endpoints=st.booleans(),
       directed=st.booleans(), data=st.data())
def test_betweenness_sampled(device, g, normalized, endpoints, directed, data):
    S, _ = g
    n = S.shape[0]
    if n == 0:
        return
    A = sr.Matrix.from_scipy(S, device=device)
    xp = sr.array_module(device)
    G = to_nx(S, directed=directed, weighted=False)
    k = data.draw(st.integers(1, n))
    seed = data.draw(st.integers(0, 2**20))
    ref = nx.betweenness_centrality(G, k=k, seed=seed, normalized=normalized, endpoints=endpoints)
    got = algorithms.betweenness_centrality(A, k=k, seed=seed, normalized=normalized,
                                            endpoints=endpoints, directed=directed)
    assert type(got) is xp.ndarray
    np.testing.assert_allclose(to_host(got), as_array(ref, n), rtol=1e-9, atol=1e-12,
                               equal_nan=True)  # k = 1 without endpoints: NaN at the source
    if k < n:  # the same sample passed as sources (NetworkX's own sample of that seed)
        sample = random.Random(seed).sample(list(G), k)
        got2 = algorithms.betweenness_centrality(A, sources=xp.asarray(sample),
                                                 normalized=normalized, endpoints=endpoints,
                                                 directed=directed)
        np.testing.assert_allclose(to_host(got2), as_array(ref, n), rtol=1e-9, atol=1e-12,
                                   equal_nan=True)


@given(g=graphs(max_n=24), batch=st.integers(1, 6), directed=st.booleans(),
       endpoints=st.booleans(), spmv=st.sampled_from([0, 4, 10**6]),
       single=st.sampled_from([0, 4]))
def test_betweenness_batches(device, g, batch, directed, endpoints, spmv, single):
    """Batches of any width, each level as SpMVs (spmv = 10**6) or as SpMMs (spmv = 0), or
    narrow ones source by source with the BFS's levels (single = 4), against NetworkX."""
    S, _ = g
    n = S.shape[0]
    A = sr.Matrix.from_scipy(S, device=device)
    ref = nx.betweenness_centrality(to_nx(S, directed=directed, weighted=False),
                                    endpoints=endpoints)
    old = centrality.MAX_BATCH, centrality.SPMV_MAX_BATCH, centrality.SINGLE_MAX_BATCH
    centrality.MAX_BATCH, centrality.SPMV_MAX_BATCH, centrality.SINGLE_MAX_BATCH = \
        batch, spmv, single
    centrality.FORM = "algebra"  # the batches' mechanics (a source a pass: test_brandes.py)
    try:
        seen = []
        parts = algorithms.betweenness_centrality(A, directed=directed, endpoints=endpoints,
                                                  progress=lambda d, t: seen.append((d, t)))
    finally:
        centrality.MAX_BATCH, centrality.SPMV_MAX_BATCH, centrality.SINGLE_MAX_BATCH = old
        centrality.FORM = "auto"
    check(parts, ref, n, sr.array_module(device))
    if n:
        assert seen[-1] == (n, n) and len(seen) == -(-n // batch)


@pytest.mark.parametrize("deep", [True, False])
@pytest.mark.parametrize("directed", [True, False])
def test_betweenness_long_path(device, monkeypatch, directed, deep):
    """119 levels: a source a pass (semiring.centrality.brandes), or the algebra's form (one
    SpMV a level, forward and backward)."""
    if not deep:
        monkeypatch.setattr(centrality, "FORM", "algebra")
    passes = []
    monkeypatch.setattr(sr.centrality, "brandes",
                        lambda *a, _f=sr.centrality.brandes, **kw: passes.append(1) or _f(*a, **kw))
    n = 120
    A = sr.Matrix.from_coo(np.arange(n - 1), np.arange(1, n), None, nrows=n, ncols=n,
                           device=device)
    G = nx.path_graph(n, create_using=nx.DiGraph if directed else nx.Graph)
    ref = nx.betweenness_centrality(G, normalized=False)
    got = algorithms.betweenness_centrality(A, normalized=False, directed=directed)
    check(got, ref, n, sr.array_module(device))
    assert bool(passes) == deep


class FixedSample(random.Random):
    """A random state whose ``sample`` returns the given nodes: NetworkX's betweenness with
    ``k`` sources and this seed uses exactly those sources."""

    def __init__(self, nodes):
        super().__init__(0)
        self.nodes = list(nodes)

    def sample(self, population, k):
        assert k == len(self.nodes)
        return list(self.nodes)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("sources, path", [
    ([0, 1954], "single"),  # one source at a time, levels first
    ([0, 1954], "spmv"),  # the batch, one SpMV a column
    ([0, 4, 1000, 1954, 1955, 1949], "spmm"),  # the batch, one SpMM a level
    ([0, 4, 1000, 1954, 1955, 1949], "deep"),  # a source a pass (650 layers)
])
def test_betweenness_overflowing_path_counts(device, monkeypatch, directed, sources, path):
    """Path counts past float64 (σ = inf): NetworkX's values, NaN for NaN and 0 for 0 (the
    batched formula σ .* Σ((1 + δ) ./ σ) gave inf · 0 = NaN where NetworkX has no term)."""
    monkeypatch.setattr(centrality, "SINGLE_MAX_BATCH", 4 if path == "single" else 0)
    if path != "deep":
        monkeypatch.setattr(centrality, "FORM", "algebra")
    G = overflow_graph(directed)
    n = len(G)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, nodelist=range(n), weight=None),
                             device=device)
    for normalized, endpoints in [(True, False), (False, True)]:
        ref = nx.betweenness_centrality(G, k=len(sources), seed=FixedSample(sources),
                                        normalized=normalized, endpoints=endpoints)
        ref = as_array(ref, n)
        # the case is the overflow: NaN at most vertices, yet 0 and finite values elsewhere
        assert {"nan", "finite"} <= set(kinds(ref)) and (endpoints or "zero" in set(kinds(ref)))
        got = algorithms.betweenness_centrality(A, sources=sources, normalized=normalized,
                                                endpoints=endpoints, directed=directed)
        assert type(got) is sr.array_module(device).ndarray
        assert_same_overflow(to_host(got), ref)


def test_betweenness_errors(device):
    A = sr.Matrix.from_coo([0, 1], [1, 2], None, nrows=3, ncols=3, device=device)
    bc = algorithms.betweenness_centrality
    with pytest.raises(sr.InvalidValue, match="not both"):
        bc(A, k=1, sources=[0])
    with pytest.raises(sr.InvalidValue, match=r"k must be in \[1, n\]"):
        bc(A, k=4)
    with pytest.raises(sr.InvalidValue, match="k must be"):
        bc(A, k=0)
    with pytest.raises(sr.DomainMismatch, match="k must be an integer"):
        bc(A, k=1.5)
    with pytest.raises(sr.InvalidIndex, match="sources"):
        bc(A, sources=[0, 3])
    with pytest.raises(sr.InvalidValue, match="distinct"):
        bc(A, sources=[1, 1])
    with pytest.raises(sr.InvalidValue, match="empty"):
        bc(A, sources=[])
    with pytest.raises(sr.DomainMismatch, match="seed"):
        bc(A, k=2, seed="x")
    with pytest.raises(sr.DimensionMismatch, match="square"):
        bc(sr.Matrix.from_coo([0], [1], None, nrows=1, ncols=2, device=device))
    E = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert bc(E).shape == (0,) and bc(E, k=0).shape == (0,)
