"""algorithms.maximum_flow, the matchings, reverse_cuthill_mckee and structural_rank (SciPy's
routines on the host by design): the same answers as SciPy for input on either device, results
on the input's device, and the engine's errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import given
from hypothesis import strategies as st

import algorithms
from algorithms import flow
import semiring as sr
from conftest import to_host


@st.composite
def int_graphs(draw, square=True, max_n=12):
    m = draw(st.integers(0 if not square else 2, max_n))
    k = m if square else draw(st.integers(0, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.1, 0.3, 0.7]))
    D = ((rng.random((m, k)) < density) * rng.integers(1, 9, (m, k))).astype(np.int32)
    return D


@given(D=int_graphs(), data=st.data())
def test_maximum_flow_matches_scipy(device, D, data):
    n = D.shape[0]
    s, t = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
    method = data.draw(st.sampled_from(["dinic", "edmonds_karp"]))
    A = sr.Matrix.from_dense(D, missing=0, device=device)
    res = algorithms.maximum_flow(A, s, t, method=method)
    ref = scg.maximum_flow(sp.csr_array(D), s, t, method=method)
    assert isinstance(res, algorithms.FlowResult) and res.flow_value == ref.flow_value
    assert res.flow.device == device
    np.testing.assert_array_equal(to_host(res.flow.to_dense(missing=0)), ref.flow.toarray())


def check_flow(D, s, t, res):
    """res is a feasible s-t flow of value res.flow_value for the capacities D."""
    F = to_host(res.flow.to_dense(missing=0)).astype(np.int64)
    assert (F == -F.T).all(), "flow is not skew-symmetric"
    cap = D.astype(np.int64).copy()
    np.fill_diagonal(cap, 0)
    assert (F <= cap).all(), "flow exceeds a capacity"
    net = F.sum(axis=1)
    inner = np.setdiff1d(np.arange(D.shape[0]), [s, t])
    assert (net[inner] == 0).all(), "flow is not conserved"
    assert net[s] == res.flow_value == -net[t]


@given(D=int_graphs(max_n=16), data=st.data())
def test_push_relabel_is_a_maximum_flow(device, D, data):
    n = D.shape[0]
    s, t = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
    A = sr.Matrix.from_dense(D, missing=0, device=device)
    rounds = []
    res = algorithms.maximum_flow(A, s, t, method="push_relabel",
                                  progress=lambda *a: rounds.append(a))
    assert res.flow_value == scg.maximum_flow(sp.csr_array(D), s, t).flow_value
    assert res.flow.device == device
    check_flow(D, s, t, res)
    assert algorithms.maximum_flow(A, s, t).flow_value == res.flow_value  # 'auto': Dinic here


@pytest.mark.parametrize("shape", ["star", "path"])
def test_auto_picks_push_relabel_only_for_few_wide_rounds(device, monkeypatch, shape):
    """'auto' runs push–relabel on GPU graphs that are large (here: any size) and shallow
    from the source, Dinic on the host otherwise (CPU input always): on a grid the GPU's
    rounds took 2.6 s where Dinic took 2.5 ms (session 18)."""
    monkeypatch.setattr(flow, "AUTO_PUSH_RELABEL_MIN_ENTRIES", 0)
    monkeypatch.setattr(flow, "AUTO_PUSH_RELABEL_MAX_DEPTH", 8)
    n = 40
    src, dst = ((np.zeros(n - 1, int), np.arange(1, n)) if shape == "star"
                else (np.arange(n - 1), np.arange(1, n)))
    A = sr.Matrix.from_coo(src, dst, np.full(n - 1, 3), nrows=n, ncols=n, device=device)
    rounds = []
    res = algorithms.maximum_flow(A, 0, n - 1, progress=lambda *a: rounds.append(a))
    assert res.flow_value == 3
    assert bool(rounds) == (device == "gpu" and shape == "star")


def test_push_relabel_long_path(device):
    # a path with a bottleneck: exact heights from the first global relabeling let the excess
    # flow straight down (one arc a round: about n rounds, no BFS repeated per round)
    n = 600
    caps = np.full(n - 1, 7, np.int32)
    caps[n // 2] = 3
    A = sr.Matrix.from_coo(np.arange(n - 1), np.arange(1, n), caps, nrows=n, ncols=n,
                           device=device)
    rounds = []
    res = algorithms.maximum_flow(A, 0, n - 1, method="push_relabel",
                                  progress=lambda *a: rounds.append(a))
    assert res.flow_value == 3
    assert len(rounds) < 4 * n


def test_maximum_flow_errors(device):
    A = sr.Matrix.from_dense(np.array([[0, 2], [0, 0]], np.int32), missing=0, device=device)
    with pytest.raises(sr.InvalidValue, match="source and sink must differ"):
        algorithms.maximum_flow(A, 1, 1)
    with pytest.raises(sr.InvalidIndex, match=r"sink must lie in \[0, 2\), got 2"):
        algorithms.maximum_flow(A, 0, 2)
    with pytest.raises(sr.DomainMismatch, match="source must be an integer"):
        algorithms.maximum_flow(A, 0.5, 1)
    with pytest.raises(sr.InvalidValue, match="method must be one of"):
        algorithms.maximum_flow(A, 0, 1, method="push")
    N = sr.Matrix.from_dense(np.array([[0, -2], [0, 0]], np.int32), missing=0, device=device)
    with pytest.raises(sr.InvalidValue, match="push_relabel needs capacities >= 0"):
        algorithms.maximum_flow(N, 0, 1, method="push_relabel")
    F = sr.Matrix.from_dense(np.array([[0, 2.0], [0, 0]]), missing=0, device=device)
    with pytest.raises(sr.DomainMismatch, match="capacities must be integers"):
        algorithms.maximum_flow(F, 0, 1)
    R = sr.Matrix.from_dense(np.ones((2, 3), np.int32), device=device)
    with pytest.raises(sr.DimensionMismatch, match="maximum_flow: A must be square"):
        algorithms.maximum_flow(R, 0, 1)
    with pytest.raises(sr.DomainMismatch, match="maximum_flow: A must be"):
        algorithms.maximum_flow(np.eye(2, dtype=np.int32), 0, 1)


@given(D=int_graphs(square=False), perm_type=st.sampled_from(["row", "column"]))
def test_maximum_bipartite_matching_matches_scipy(device, D, perm_type):
    A = sr.Matrix.from_dense(D, missing=0, device=device)
    got = algorithms.maximum_bipartite_matching(A, perm_type=perm_type)
    ref = scg.maximum_bipartite_matching(sp.csr_array(D), perm_type=perm_type)
    assert sr.device_of(got) == device
    np.testing.assert_array_equal(to_host(got), ref)


@given(D=int_graphs(square=False), maximize=st.booleans())
def test_min_weight_full_bipartite_matching_matches_scipy(device, D, maximize):
    np.fill_diagonal(D, 5)
    A = sr.Matrix.from_dense(D.astype(np.float64), missing=0, device=device)
    try:
        ref = scg.min_weight_full_bipartite_matching(sp.csr_array(D.astype(np.float64)),
                                                     maximize=maximize)
    except ValueError:
        with pytest.raises(ValueError):
            algorithms.min_weight_full_bipartite_matching(A, maximize=maximize)
        return
    got = algorithms.min_weight_full_bipartite_matching(A, maximize=maximize)
    for g, r in zip(got, ref):
        assert sr.device_of(g) == device
        np.testing.assert_array_equal(to_host(g), r)


@given(D=int_graphs(), symmetric_mode=st.booleans())
def test_ordering_matches_scipy(device, D, symmetric_mode):
    if symmetric_mode:
        D = D + D.T
    A = sr.Matrix.from_dense(D, missing=0, device=device)
    got = algorithms.reverse_cuthill_mckee(A, symmetric_mode=symmetric_mode)
    assert sr.device_of(got) == device
    np.testing.assert_array_equal(
        to_host(got), scg.reverse_cuthill_mckee(sp.csr_array(D), symmetric_mode=symmetric_mode))
    assert algorithms.structural_rank(A) == scg.structural_rank(sp.csr_array(D))


def test_matching_errors(device):
    A = sr.Matrix.from_dense(np.ones((2, 3)), device=device)
    with pytest.raises(sr.InvalidValue, match="perm_type must be one of"):
        algorithms.maximum_bipartite_matching(A, perm_type="x")
    with pytest.raises(sr.DimensionMismatch, match="reverse_cuthill_mckee: A must be square"):
        algorithms.reverse_cuthill_mckee(A)
    with pytest.raises(sr.DomainMismatch, match="structural_rank: A must be"):
        algorithms.structural_rank(np.ones((2, 2)))


def test_maximum_flow_capacities_past_int32(device):
    """SciPy's Dinic casts capacities to int32 (2**40 → 0: the ring's flow 3 instead of 4,
    silently); ``'auto'`` runs push–relabel there (exact in int64) and an explicit SciPy
    method is refused, naming the bound. Capacities that fit keep SciPy's answer."""
    u = np.arange(6)
    v = (u + 1) % 6
    w = np.array([2**40, 2**40, 1, 2**40, 2, 3], dtype=np.int64)
    S = sp.csr_matrix((np.r_[w, w], (np.r_[u, v], np.r_[v, u])), shape=(6, 6))
    A = sr.Matrix.from_scipy(S, device=device)
    assert algorithms.maximum_flow(A, 0, 5).flow_value == 4  # cut: {5-0: 3, 2-3: 1}
    for method in ("dinic", "edmonds_karp"):
        with pytest.raises(sr.InvalidValue, match=r"int32 capacities.*push_relabel"):
            algorithms.maximum_flow(A, 0, 5, method=method)
    fit = sr.Matrix.from_scipy(S.minimum(2**31 - 1), device=device)
    ref = scg.maximum_flow(S.minimum(2**31 - 1).astype(np.int32), 0, 5).flow_value
    assert algorithms.maximum_flow(fit, 0, 5, method="dinic").flow_value == ref == 4
