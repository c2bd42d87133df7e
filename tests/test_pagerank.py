"""PageRank against NetworkX's pagerank (weighted and not, personalized, dangling weights,
starting vectors) and GAP's definition against a dense linear solve, on every backend."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st

import algorithms
import semiring as sr
from analytics1_graphs import as_array, graphs, to_nx
from conftest import to_host

TIGHT = dict(tol=1e-13, max_iter=5000)


@st.composite
def weights_or_none(draw, n, p_none=0.5):
    """None, or n non-negative weights with a positive sum (an array or a dict)."""
    if n == 0 or draw(st.floats(0, 1)) < p_none:
        return None
    w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), dtype=np.float64)
    w[draw(st.integers(0, n - 1))] += 1
    return w


@given(g=graphs(), weighted=st.booleans(), iso=st.booleans(), data=st.data(),
       damping=st.sampled_from([0.85, 0.0, 0.5, 0.95]))
def test_pagerank_against_networkx(device, g, weighted, iso, data, damping):
    S, undirected = g
    n = S.shape[0]
    A = sr.Matrix.from_scipy(S, device=device, iso=iso)
    xp = sr.array_module(device)
    pers = data.draw(weights_or_none(n))
    dang = data.draw(weights_or_none(n, 0.7))
    nstart = data.draw(weights_or_none(n, 0.7))
    as_dict = data.draw(st.booleans())
    kw, nxkw = {}, {}
    for name, w in (("personalization", pers), ("dangling", dang), ("nstart", nstart)):
        if w is not None:
            kw[name] = dict(enumerate(w.tolist())) if as_dict else xp.asarray(w)
            nxkw[name] = dict(enumerate(w.tolist()))
    before = {k: to_host(v).copy() for k, v in kw.items() if not isinstance(v, dict)}
    G = to_nx(S, directed=not undirected)
    use_weights = weighted and not iso
    ref = nx.pagerank(G, alpha=damping, weight="weight" if use_weights else None, **TIGHT, **nxkw)
    got = algorithms.pagerank(A, damping, weighted=weighted, **TIGHT, **kw)
    assert type(got) is xp.ndarray and got.dtype == np.float64 and got.shape == (n,)
    np.testing.assert_allclose(to_host(got), as_array(ref, n), rtol=0, atol=1e-11)
    if n:
        assert abs(float(got.sum()) - 1) < 1e-9
    for k, v in before.items():  # the caller's arrays are untouched
        np.testing.assert_array_equal(to_host(kw[k]), v)
    # NetworkX's default tolerance and max_iter: the same iterates stop at the same iteration,
    # or both give up (a slowly mixing graph at damping 0.95)
    try:
        ref = nx.pagerank(G, alpha=damping, weight="weight" if use_weights else None, **nxkw)
    except nx.PowerIterationFailedConvergence:
        with pytest.raises(algorithms.ConvergenceError):
            algorithms.pagerank(A, damping, weighted=weighted, **kw)
        return
    got = algorithms.pagerank(A, damping, weighted=weighted, **kw)
    np.testing.assert_allclose(to_host(got), as_array(ref, n), rtol=0, atol=1e-6 * max(n, 1))


def gap_oracle(S, damping, p, weighted):
    """x = (1 − d) p + d Pᵀ x with P the row-normalized weights and dangling rows zero."""
    E = S.copy()
    if not weighted:
        E.data[:] = 1  # the structure: explicit zeros are edges
    W = E.toarray()
    out = W.sum(axis=1)
    P = np.divide(W, out[:, None], out=np.zeros_like(W), where=out[:, None] > 0)
    return np.linalg.solve(np.eye(S.shape[0]) - damping * P.T, (1 - damping) * p)


@given(g=graphs(), weighted=st.booleans(), data=st.data(),
       damping=st.sampled_from([0.85, 0.3, 0.9]))
def test_pagerank_gap_against_dense_solve(device, g, weighted, data, damping):
    S, _ = g
    n = S.shape[0]
    A = sr.Matrix.from_scipy(S, device=device)
    pers = data.draw(weights_or_none(n))
    p = np.full(n, 1.0 / max(n, 1)) if pers is None else pers / pers.sum()
    got = algorithms.pagerank(A, damping, weighted=weighted, variant="gap", personalization=pers,
                              tol=1e-14, max_iter=5000)
    if n:
        np.testing.assert_allclose(to_host(got), gap_oracle(S, damping, p, weighted), rtol=0,
                                   atol=1e-11)
    # with sinks GAP's ranks sum to less than 1; without, they match NetworkX's
    nx_ranks = algorithms.pagerank(A, damping, weighted=weighted, personalization=pers,
                                   tol=1e-14, max_iter=5000)
    out = S.copy()
    if not weighted:
        out.data[:] = 1
    has_sink = bool((np.asarray(out.sum(axis=1)).ravel() == 0).any())
    if n and not has_sink:
        np.testing.assert_allclose(to_host(got), to_host(nx_ranks), rtol=0, atol=1e-11)
    if n and has_sink and damping > 0:
        assert float(got.sum()) < 1


def test_pagerank_convergence_error(device):
    # a directed path: the ranks move for n iterations
    n = 30
    A = sr.Matrix.from_coo(np.arange(n - 1), np.arange(1, n), 1.0, nrows=n, ncols=n, device=device)
    with pytest.raises(algorithms.ConvergenceError, match="max_iter") as info:
        algorithms.pagerank(A, max_iter=3, tol=1e-12)
    err = info.value
    assert isinstance(err, sr.SemiringError) and isinstance(err, RuntimeError)
    assert err.iterations == 3 and err.error > 0 and err.result.shape == (n,)
    with pytest.raises(algorithms.ConvergenceError):
        algorithms.pagerank(A, max_iter=0)
    with pytest.raises(nx.PowerIterationFailedConvergence):  # NetworkX fails alike
        nx.pagerank(to_nx(A.to_scipy() if device == "cpu" else A.to_cpu().to_scipy(), True),
                    max_iter=3, tol=1e-12)
    seen = []
    algorithms.pagerank(A, progress=lambda it, e: seen.append((it, e)))
    assert [it for it, _ in seen] == list(range(1, len(seen) + 1)) and seen[-1][1] < n * 1e-6


def test_pagerank_empty_and_isolated(device):
    xp = sr.array_module(device)
    E = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    got = algorithms.pagerank(E)
    assert type(got) is xp.ndarray and got.shape == (0,) and got.dtype == np.float64
    I = sr.Matrix.from_coo([], [], None, nrows=4, ncols=4, device=device)  # no edges at all
    np.testing.assert_allclose(to_host(algorithms.pagerank(I)), np.full(4, 0.25))
    np.testing.assert_allclose(to_host(algorithms.pagerank(I, variant="gap")), np.full(4, 0.15 / 4))


def test_pagerank_errors(device):
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, -1.0], nrows=2, ncols=2, device=device)
    B = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidValue, match="pagerank: edge weights"):
        algorithms.pagerank(A)
    algorithms.pagerank(A, weighted=False)  # the structure alone is fine
    with pytest.raises(sr.InvalidValue, match=r"pagerank: damping must be in \[0, 1\), got 1.5"):
        algorithms.pagerank(B, 1.5)
    with pytest.raises(sr.DomainMismatch, match="damping"):
        algorithms.pagerank(B, "0.85")
    with pytest.raises(sr.DimensionMismatch, match="square"):
        algorithms.pagerank(sr.Matrix.from_coo([0], [1], 1.0, nrows=1, ncols=2, device=device))
    with pytest.raises(sr.DimensionMismatch, match="personalization"):
        algorithms.pagerank(B, personalization=[1, 2, 3])
    with pytest.raises(sr.InvalidValue, match="positive sum"):
        algorithms.pagerank(B, personalization=[0, 0])
    with pytest.raises(sr.InvalidValue, match="non-negative"):
        algorithms.pagerank(B, nstart=[1, -1])
    with pytest.raises(sr.InvalidIndex, match="dangling"):
        algorithms.pagerank(B, dangling={5: 1.0})
    with pytest.raises(sr.InvalidValue, match="variant"):
        algorithms.pagerank(B, variant="cugraph")
    with pytest.raises(sr.InvalidValue, match="dangling"):
        algorithms.pagerank(B, variant="gap", dangling=[1, 1])
    with pytest.raises(sr.InvalidValue, match="tol"):
        algorithms.pagerank(B, tol=0)
    with pytest.raises(sr.DomainMismatch, match="max_iter"):
        algorithms.pagerank(B, max_iter=2.5)
    with pytest.raises(sr.DomainMismatch, match="progress"):
        algorithms.pagerank(B, progress=3)
    if device == "cpu" and sr.gpu_available():
        import cupy as cp
        with pytest.raises(sr.DeviceMismatch):
            algorithms.pagerank(B, personalization=cp.ones(2))
