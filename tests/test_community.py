"""modularity, label_propagation and louvain against NetworkX, on every backend."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from conftest import to_host
from graphgen import build, edge_lists, entries, nx_graph, partition
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms as alg
import semiring as sr


def on(device, a):
    return sr.to_device(np.asarray(a), device)


# ---------------------------------------------------------------------- modularity


@given(data=edge_lists(symmetric=True), seed=st.integers(0, 2**32 - 1),
       resolution=st.sampled_from([1.0, 0.5, 2.0, 0.0]))
def test_modularity_matches_networkx(device, data, seed, resolution):
    A = build(data, device)
    n = A.nrows
    labels = np.random.default_rng(seed).integers(-3, 4, n)
    got = alg.modularity(A, on(device, labels), resolution)
    G = nx_graph(A)
    if G.size(weight="weight") == 0:
        assert np.isnan(got)
        return
    want = nx.community.modularity(G, partition(labels), resolution=resolution)
    assert got == pytest.approx(want, rel=1e-9, abs=1e-12)


@given(data=edge_lists(symmetric=False), seed=st.integers(0, 2**32 - 1))
def test_modularity_directed_matches_networkx(device, data, seed):
    A = build(data, device)
    labels = np.random.default_rng(seed).integers(0, 3, A.nrows)
    got = alg.modularity(A, on(device, labels), directed=True)
    G = nx_graph(A, directed=True)
    if G.size(weight="weight") == 0:
        assert np.isnan(got)
        return
    assert got == pytest.approx(nx.community.modularity(G, partition(labels)), rel=1e-9, abs=1e-12)


def test_modularity_errors(device):
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 1.0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidValue, match="modularity: A must be symmetric"):
        alg.modularity(A, on(device, [0, 0, 1]))
    S = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 1.0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match=r"modularity: labels must have shape \(3,\)"):
        alg.modularity(S, on(device, [0, 1]))
    with pytest.raises(sr.DomainMismatch, match="modularity: labels must hold integers"):
        alg.modularity(S, on(device, [0.5, 1, 1]))
    with pytest.raises(sr.InvalidValue, match="modularity: resolution must be a finite number"):
        alg.modularity(S, on(device, [0, 1, 1]), resolution=np.nan)
    N = sr.Matrix.from_coo([0, 1], [1, 0], [np.inf, np.inf], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidValue, match="modularity: A's weights must be finite"):
        alg.modularity(N, on(device, [0, 1, 1]))
    if device == "gpu":
        with pytest.raises(sr.DeviceMismatch, match="modularity: labels is on the CPU but A is on the GPU"):
            alg.modularity(S, np.array([0, 1, 1]))
    assert alg.modularity(S, [0, 1, 1]) == pytest.approx(-0.5)
    with pytest.raises(sr.DimensionMismatch, match="modularity: A must be square"):
        alg.modularity(sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device=device), [0, 1])


@given(data=edge_lists(), seed=st.integers(0, 2**32 - 1))
def test_community_weights_are_networkx_sums(device, data, seed):
    """Each community's internal weight (an edge once, a self-loop once) and out-/in-degree
    sums, as NetworkX's modularity sums them; a label no vertex has is an empty community."""
    A = build(data, device)
    directed = not data[4]
    labels = np.random.default_rng(seed).integers(0, 4, A.nrows)
    inner, dout, din = (to_host(x) for x in alg.community_weights(A, on(device, labels),
                                                                    directed=directed))
    G = nx_graph(A, directed=directed)
    k = int(labels.max()) + 1 if labels.size else 0
    assert inner.shape == dout.shape == din.shape == (k,)
    out_deg = dict(G.out_degree(weight="weight") if directed else G.degree(weight="weight"))
    in_deg = dict(G.in_degree(weight="weight")) if directed else out_deg
    for c in range(k):
        comm = set(np.flatnonzero(labels == c).tolist())
        L_c = sum(w for u, v, w in G.edges(comm, data="weight") if v in comm)
        assert inner[c] == pytest.approx(L_c, rel=1e-12, abs=1e-9)
        assert dout[c] == pytest.approx(sum(out_deg[u] for u in comm), rel=1e-12, abs=1e-9)
        assert din[c] == pytest.approx(sum(in_deg[u] for u in comm), rel=1e-12, abs=1e-9)


def test_community_weights_errors(device):
    S = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 1.0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidValue, match="community_weights: labels must be nonnegative"):
        alg.community_weights(S, on(device, [0, -1, 1]))
    with pytest.raises(sr.InvalidValue, match="community_weights: A must be symmetric"):
        alg.community_weights(sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=2,
                                                 device=device), on(device, [0, 1]))
    inner, dout, din = alg.community_weights(S, on(device, [2, 2, 0]))
    assert to_host(inner).tolist() == [0.0, 0.0, 1.0] and to_host(dout).tolist() == [0.0, 0.0, 2.0]


# ---------------------------------------------------------------------- label propagation


def nx_colours(G):
    col = nx.coloring.greedy_color(G)
    return np.array([col[i] for i in range(G.number_of_nodes())], dtype=np.int64)


@given(data=edge_lists())
def test_label_propagation_with_networkx_colouring_equals_networkx(device, data):
    A = build(data, device)
    G = nx_graph(A)                                   # the undirected view, self-loops kept
    labels = alg.label_propagation(A, colors=on(device, nx_colours(G)))
    assert sr.device_of(labels) == device and labels.dtype == np.int64
    want = sorted(map(frozenset, nx.community.label_propagation_communities(G)), key=min)
    assert partition(to_host(labels)) == want


def check_lpa_labelling(A, labels):
    """NetworkX's stopping rule: every vertex with neighbours carries one of its neighbours'
    most frequent labels; labels are 0..k-1 in order of the smallest vertex."""
    labels = to_host(labels)
    G = nx_graph(A)
    for v in G:
        if len(G[v]):
            counts = {}
            for u in G[v]:
                counts[labels[u]] = counts.get(labels[u], 0) + 1
            top = max(counts.values())
            assert counts.get(labels[v], 0) == top, (v, counts, labels[v])
    if labels.size:
        firsts = [min(s) for s in partition(labels)]
        assert [labels[f] for f in firsts] == list(range(len(firsts)))


@given(data=edge_lists(), seed=st.integers(0, 100))
def test_label_propagation_default_colouring_is_a_fixed_point(device, data, seed):
    A = build(data, device)
    labels = alg.label_propagation(A, seed=seed)
    check_lpa_labelling(A, labels)
    np.testing.assert_array_equal(to_host(alg.label_propagation(A, seed=seed)), to_host(labels))


def test_label_propagation_examples(device):
    empty = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert to_host(alg.label_propagation(empty)).shape == (0,)
    iso = sr.Matrix.from_coo([], [], None, nrows=3, ncols=3, device=device)
    np.testing.assert_array_equal(to_host(alg.label_propagation(iso)), [0, 1, 2])
    n = 2000                                             # a long path
    path = sr.Matrix.from_edgelist(np.c_[np.arange(n - 1), np.arange(1, n)], undirected=True,
                                   device=device)
    check_lpa_labelling(path, alg.label_propagation(path))
    G = nx.path_graph(n)
    labels = alg.label_propagation(path, colors=on(device, nx_colours(G)))
    want = sorted(map(frozenset, nx.community.label_propagation_communities(G)), key=min)
    assert partition(to_host(labels)) == want


def test_label_propagation_errors(device):
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2]], undirected=True, device=device)
    with pytest.raises(sr.InvalidValue, match=r"label_propagation: colors must differ on neighbours"):
        alg.label_propagation(A, colors=on(device, [0, 0, 1]))
    with pytest.raises(sr.DimensionMismatch, match="label_propagation: colors must have shape"):
        alg.label_propagation(A, colors=on(device, [0, 1]))
    with pytest.raises(sr.InvalidValue, match="label_propagation: max_iter must be a positive"):
        alg.label_propagation(A, max_iter=0)
    # max_iter=1 stops after one sweep
    alg.label_propagation(A, max_iter=1)


# ---------------------------------------------------------------------- Louvain


@given(data=edge_lists(symmetric=True), seed=st.integers(0, 100),
       resolution=st.sampled_from([1.0, 0.5, 2.0]), prune=st.booleans(),
       batches=st.sampled_from([None, 2, 32]))
def test_louvain_valid_and_improves_modularity(device, data, seed, resolution, prune, batches,
                                               monkeypatch):
    from algorithms import community

    monkeypatch.setattr(community, "PRUNE", prune)
    monkeypatch.setitem(community.MAX_BATCHES, device, batches)
    A = build(data, device)
    n = A.nrows
    labels = alg.louvain(A, resolution, seed=seed)
    assert sr.device_of(labels) == device and labels.dtype == np.int64
    h = to_host(labels)
    assert h.shape == (n,)
    if n:
        firsts = [min(s) for s in partition(h)]
        assert [h[f] for f in firsts] == list(range(len(firsts)))
    check_modularity(A, labels, resolution)


def check_modularity(A, labels, resolution):
    """Louvain's labels of A: every vertex alone on a graph of no weight, else a partition
    whose modularity (NetworkX's) is at least the singletons', as ``alg.modularity`` has it."""
    n, h = A.nrows, to_host(labels)
    G = nx_graph(A)
    if G.size(weight="weight") == 0:
        np.testing.assert_array_equal(h, np.arange(n))
        return
    q = nx.community.modularity(G, partition(h), resolution=resolution)
    q0 = nx.community.modularity(G, [{i} for i in range(n)], resolution=resolution)
    assert q >= q0 - 1e-12
    assert alg.modularity(A, labels, resolution) == pytest.approx(q, rel=1e-9, abs=1e-12)


def planted(groups, size, p_in, p_out, seed, weighted):
    G = nx.planted_partition_graph(groups, size, p_in, p_out, seed=seed)
    rng = np.random.default_rng(seed)
    for u, v in G.edges():
        G[u][v]["weight"] = float(rng.integers(1, 5)) if weighted else 1.0
    return G


@settings(max_examples=12)
@given(seed=st.integers(0, 10**6), groups=st.integers(3, 10), size=st.integers(15, 40),
       p_in=st.sampled_from([0.3, 0.5, 0.8]), p_out=st.sampled_from([0.005, 0.02, 0.05]),
       weighted=st.booleans())
@pytest.mark.parametrize("batches", [8, 32])     # the GPU's and the CPU's MAX_BATCHES
def test_louvain_planted_partition_close_to_networkx(device, batches, seed, groups, size, p_in,
                                                     p_out, weighted, monkeypatch):
    from algorithms import community

    monkeypatch.setitem(community.MAX_BATCHES, device, batches)
    G = planted(groups, size, p_in, p_out, seed, weighted)
    A = sr.Matrix.from_networkx(G, nodelist=range(G.number_of_nodes()), device=device)
    # both are randomized: compare the means over five seeds, and every run with the worst
    qs = [nx.community.modularity(G, partition(to_host(alg.louvain(A, seed=seed + s))))
          for s in range(5)]
    q_nx = [nx.community.modularity(G, nx.community.louvain_communities(G, seed=seed + s))
            for s in range(5)]
    q_planted = nx.community.modularity(G, [set(range(g * size, (g + 1) * size))
                                            for g in range(groups)])
    assert np.mean(qs) >= np.mean(q_nx) - 0.02, (qs, q_nx)
    assert min(qs) >= min(q_nx) - 0.04, (qs, q_nx)
    assert min(qs) >= q_planted - 0.05, (qs, q_planted)
    q = min(qs)
    assert q > 0.2


def test_louvain_planted_partition_known_weak_run(monkeypatch):
    """The case Hypothesis found in session 9 for the test above: one of five runs ended at
    modularity 0.326 against NetworkX's worst 0.380, with whole colour classes as batches and
    no refinement (``MIN_BATCHES``, ``REFINE``)."""
    from algorithms import community

    monkeypatch.setitem(community.MAX_BATCHES, "cpu", 32)
    seed = 259
    G = planted(3, 16, 0.3, 0.05, seed, False)
    A = sr.Matrix.from_networkx(G, nodelist=range(G.number_of_nodes()), device="cpu")
    qs = [nx.community.modularity(G, partition(to_host(alg.louvain(A, seed=seed + s))))
          for s in range(5)]
    q_nx = [nx.community.modularity(G, nx.community.louvain_communities(G, seed=seed + s))
            for s in range(5)]
    assert min(qs) >= min(q_nx) - 0.04, (qs, q_nx)


@pytest.mark.parametrize("seed", [3, 259, 4242])
def test_louvain_refinement_never_lowers_modularity(device, seed, monkeypatch):
    from algorithms import community

    G = planted(4, 20, 0.3, 0.05, seed, True)
    A = sr.Matrix.from_networkx(G, nodelist=range(G.number_of_nodes()), device=device)
    got = {}
    for refine in (False, True):
        monkeypatch.setattr(community, "REFINE", refine)
        got[refine] = [alg.modularity(A, alg.louvain(A, seed=s)) for s in range(3)]
    assert all(r >= u - 1e-12 for u, r in zip(got[False], got[True])), got


def test_louvain_examples(device):
    empty = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert to_host(alg.louvain(empty)).shape == (0,)
    iso = sr.Matrix.from_coo([1], [1], [0.0], nrows=3, ncols=3, device=device)
    np.testing.assert_array_equal(to_host(alg.louvain(iso)), [0, 1, 2])
    # karate club: NetworkX's Louvain reaches about 0.42-0.44
    G = nx.karate_club_graph()
    A = sr.Matrix.from_networkx(G, nodelist=range(G.number_of_nodes()), device=device)
    q = alg.modularity(A, alg.louvain(A))
    assert q > 0.40
    # max_level=1: one level of local moves only; the full run is at least as good
    q1 = alg.modularity(A, alg.louvain(A, max_level=1))
    assert q >= q1 - 1e-12
    # a ring of 30 cliques (the resolution limit's example): γ = 1 merges none below 0
    n_cl, k = 30, 5
    e = [[c * k + i, c * k + j] for c in range(n_cl) for i in range(k) for j in range(i + 1, k)]
    e += [[c * k, ((c + 1) % n_cl) * k + 1] for c in range(n_cl)]
    R = sr.Matrix.from_edgelist(e, undirected=True, device=device)
    labels = to_host(alg.louvain(R, resolution=3.0))
    assert partition(labels) == [frozenset(range(c * k, (c + 1) * k)) for c in range(n_cl)]


@pytest.mark.parametrize("scale", [1e200, 1.7e308, 1e-200, 5e-324])
def test_louvain_is_scale_free_near_float_limits(device, scale):
    """Louvain on cW is Louvain on W: with weights of 1e200, (2m)² overflowed and every gain
    was nan (each vertex stayed alone); subnormal weights underflowed the same way."""
    G = nx.karate_club_graph()
    A = sr.Matrix.from_networkx(G, nodelist=range(G.number_of_nodes()), weight=None,
                                device=device)
    labels = alg.louvain(A, seed=7)
    want = to_host(labels)
    assert want.max() > 0  # communities found, not singletons, at weight 1
    C = sr.apply(A, "times", right=scale)
    np.testing.assert_array_equal(to_host(alg.louvain(C, seed=7)), want)
    for directed in (False, True):  # Q too (it was nan, or a ZeroDivisionError)
        np.testing.assert_allclose(alg.modularity(C, labels, directed=directed),
                                   alg.modularity(A, labels, directed=directed), rtol=1e-12)


def test_louvain_errors(device):
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 1.0], nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidValue, match="louvain: A must be symmetric"):
        alg.louvain(A)
    N = sr.Matrix.from_coo([0, 1], [1, 0], [-1.0, -1.0], nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidValue, match="louvain: A's weights must be nonnegative"):
        alg.louvain(N)
    S = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 1.0], nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidValue, match="louvain: max_level must be a positive"):
        alg.louvain(S, max_level=0)
    with pytest.raises(sr.InvalidValue, match="louvain: resolution must be a finite number"):
        alg.louvain(S, resolution="x")
    with pytest.raises(sr.InvalidValue, match="louvain: threshold must be a finite number"):
        alg.louvain(S, threshold=np.inf)
    before = to_host(S.values).copy()
    alg.louvain(S)
    np.testing.assert_array_equal(to_host(S.values), before)


@given(data=edge_lists(), seed=st.integers(0, 100))
def test_default_colouring_is_proper(device, data, seed):
    from algorithms import community
    from algorithms.cores import undirected_pattern

    S = undirected_pattern(build(data, device), "test")
    colour = to_host(community._colouring(S, seed))
    r, c, _ = entries(S)
    assert colour.shape == (S.nrows,) and (colour >= 0).all()
    assert (colour[r] != colour[c]).all()
    # greedy: a vertex of colour x has neighbours of every colour below x
    for v in range(S.nrows):
        nb = set(colour[c[r == v]].tolist())
        assert all(x in nb for x in range(colour[v]))
