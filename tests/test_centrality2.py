"""Eigenvector, Katz, HITS, closeness and harmonic centrality (``algorithms.centrality``)
against NetworkX 3.6 on random graphs (directed and undirected, weighted and not, with
isolated vertices, self-loops, explicit zeros and disconnected parts), the empty graph,
convergence failures and bad arguments, on every backend (the ``device`` fixture: the GPU
where there is one)."""

from __future__ import annotations

import inspect

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms
import semiring as sr
from analytics1_graphs import as_array, graphs, to_nx
from conftest import to_host

RTOL = 1e-12  # NetworkX adds in its adjacency order, the engine in its own
ATOL = 1e-12


def check(got, ref, n, xp, rtol=RTOL, atol=ATOL):
    assert type(got) is xp.ndarray and got.dtype == np.float64 and got.shape == (n,)
    np.testing.assert_allclose(to_host(got), as_array(ref, n), rtol=rtol, atol=atol)


def outcome(f):
    """('ok', value), or 'no convergence' for NetworkX's and the engine's errors of it."""
    try:
        return "ok", f()
    except (nx.PowerIterationFailedConvergence, algorithms.ConvergenceError):
        return "no convergence", None


def matrix(S, device, weighted, iso):
    return sr.Matrix.from_scipy(S, device=device, iso=iso and not weighted)


def graph(S, undirected, weighted):
    return to_nx(S, directed=not undirected, weighted=weighted)


# ------------------------------------------------------------------------------ eigenvector
@given(g=graphs(max_n=16), weighted=st.booleans(), iso=st.booleans(),
       max_iter=st.sampled_from([3, 100]), start=st.booleans())
def test_eigenvector_centrality(device, g, weighted, iso, max_iter, start):
    S, undirected = g
    n = S.shape[0]
    if n == 0:
        return
    G = graph(S, undirected, weighted)
    nstart = {v: 1.0 + (v % 3) for v in range(n)} if start else None
    exp = outcome(lambda: nx.eigenvector_centrality(
        G, max_iter=max_iter, nstart=nstart, weight="weight" if weighted else None))
    A = matrix(S, device, weighted, iso)
    got = outcome(lambda: algorithms.eigenvector_centrality(
        A, max_iter=max_iter, nstart=nstart, weighted=weighted))
    assert got[0] == exp[0]
    if exp[0] == "ok":
        check(got[1], exp[1], n, sr.array_module(device))


def test_eigenvector_centrality_no_convergence(device):
    G = nx.path_graph(30)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.eigenvector_centrality(G, max_iter=2)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, format="csr"), device=device)
    seen = []
    with pytest.raises(algorithms.ConvergenceError, match="max_iter") as info:
        algorithms.eigenvector_centrality(A, max_iter=2, progress=lambda i, e: seen.append(i))
    assert info.value.iterations == 2 and info.value.result.shape == (30,)
    assert seen == [1, 2]


# ------------------------------------------------------------------------------------- Katz
@given(g=graphs(max_n=16), weighted=st.booleans(), iso=st.booleans(),
       alpha=st.sampled_from([0.01, 0.1, 0.3, 1.0]), normalized=st.booleans(),
       beta_kind=st.sampled_from(["scalar", "dict", "array"]), start=st.booleans())
def test_katz_centrality(device, g, weighted, iso, alpha, normalized, beta_kind, start):
    S, undirected = g
    n = S.shape[0]
    G = graph(S, undirected, weighted)
    if beta_kind == "scalar":
        beta_nx = beta = 0.5
    else:
        beta_nx = {v: 0.5 + v % 4 for v in range(n)}
        beta = beta_nx if beta_kind == "dict" else np.array([beta_nx[v] for v in range(n)])
    nstart = {v: float(v % 2) for v in range(n)} if start else None
    exp = outcome(lambda: nx.katz_centrality(
        G, alpha, beta_nx, max_iter=200, nstart=nstart, normalized=normalized,
        weight="weight" if weighted else None))
    A = matrix(S, device, weighted, iso)
    got = outcome(lambda: algorithms.katz_centrality(
        A, alpha, beta, max_iter=200, nstart=nstart, normalized=normalized, weighted=weighted))
    assert got[0] == exp[0]
    if exp[0] == "ok":
        check(got[1], exp[1], n, sr.array_module(device))


def test_katz_centrality_diverges(device):
    # α above 1/λ_max = 1/2 of a cycle: the iterates grow past float64 (inf, then NaN changes)
    G = nx.cycle_graph(5)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.katz_centrality(G, alpha=0.9, max_iter=2000)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, format="csr"), device=device)
    with pytest.raises(algorithms.ConvergenceError):
        algorithms.katz_centrality(A, alpha=0.9, max_iter=2000)


def test_katz_centrality_zero_beta(device):
    # x stays 0: NetworkX's normalization divides by 1 where the norm is 0
    G = nx.path_graph(4)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, format="csr"), device=device)
    got = algorithms.katz_centrality(A, beta=0.0)
    check(got, nx.katz_centrality(G, beta=0.0), 4, sr.array_module(device))


# ------------------------------------------------------------------------------------- HITS
def _simple_top(S, weighted):
    """Whether AᵀA's largest eigenvalue is simple, with a gap of at least 1 % (NetworkX's
    ARPACK answer is then the unique one; else it depends on ARPACK's random start)."""
    M = S.toarray() if weighted else (S.toarray() != 0).astype(np.float64)
    s = np.linalg.svd(M, compute_uv=False)
    return s.size >= 2 and s[0] > 0 and s[1] ** 2 < 0.99 * s[0] ** 2


def nx_hits(G, **kw):
    """NetworkX's singular vectors, which ``algorithms.hits`` computes (NetworkX 3.6's
    ``hits``): 3.7's default is a power iteration stopped at 1e-8, its ``method="svd"``
    3.6's (the power iteration's vertices of score 0 end near 1e-9, past this file's atol)."""
    if "method" in inspect.signature(nx.hits).parameters:
        return nx.hits(G, method="svd", **kw)
    return nx.hits(G, **kw)


@given(g=graphs(max_n=16, weights=(1, 4)), weighted=st.booleans(), start=st.booleans())
def test_hits(device, g, weighted, start):
    S, undirected = g
    n = S.shape[0]
    if n < 2 or not _simple_top(S, weighted):
        return
    G = graph(S, undirected, weighted)
    nstart = {v: 1.0 + v % 3 for v in range(n)} if start else None
    h_nx, a_nx = nx_hits(G, nstart=nstart)
    A = matrix(S, device, weighted, iso=False)
    h, a = algorithms.hits(A, tol=1e-13, max_iter=100000, nstart=nstart, weighted=weighted)
    xp = sr.array_module(device)
    check(h, h_nx, n, xp, rtol=1e-6, atol=1e-9)
    check(a, a_nx, n, xp, rtol=1e-6, atol=1e-9)
    # normalized=False: unit authorities (ARPACK's sign is its own: compared in magnitude)
    h2, a2 = algorithms.hits(A, tol=1e-13, max_iter=100000, normalized=False,
                             weighted=weighted)
    assert abs(float(xp.linalg.norm(a2)) - 1) < 1e-12
    np.testing.assert_allclose(to_host(a2) / to_host(a2).sum(), as_array(a_nx, n), rtol=1e-6,
                               atol=1e-9)


def test_hits_langville_meyer(device):
    """NetworkX's own test graph and answers (test_hits.py)."""
    G = nx.DiGraph([(1, 3), (1, 5), (2, 1), (3, 5), (5, 4), (5, 3), (6, 5)])
    order = list(G)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, nodelist=order, format="csr"),
                             device=device)
    h, a = algorithms.hits(A)
    h_nx, a_nx = nx_hits(G)
    np.testing.assert_allclose(to_host(h), [h_nx[v] for v in order], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(to_host(a), [a_nx[v] for v in order], rtol=1e-6, atol=1e-9)


def test_hits_undefined_and_no_convergence(device):
    E = sr.Matrix.from_coo([], [], None, nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidValue, match="undefined"):
        algorithms.hits(E)
    # a path of 50: AᵀA's top eigenvalue is double, the iteration creeps
    G = nx.path_graph(50)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(G, format="csr"), device=device)
    with pytest.raises(algorithms.ConvergenceError):
        algorithms.hits(A, max_iter=1)
    with pytest.raises(algorithms.ConvergenceError):
        algorithms.hits(A, max_iter=0)


# ------------------------------------------------------------------- closeness and harmonic
@given(g=graphs(max_n=16), weighted=st.booleans(), iso=st.booleans(), wf=st.booleans())
def test_closeness_centrality(device, g, weighted, iso, wf):
    S, undirected = g
    n = S.shape[0]
    G = graph(S, undirected, weighted=True)
    ref = nx.closeness_centrality(G, distance="weight" if weighted else None, wf_improved=wf)
    A = matrix(S, device, weighted, iso)
    got = algorithms.closeness_centrality(A, wf_improved=wf, weighted=weighted)
    check(got, ref, n, sr.array_module(device), rtol=1e-12, atol=0)


@given(g=graphs(max_n=16), weighted=st.booleans(), iso=st.booleans())
def test_harmonic_centrality(device, g, weighted, iso):
    S, undirected = g
    n = S.shape[0]
    G = graph(S, undirected, weighted=True)
    ref = nx.harmonic_centrality(G, distance="weight" if weighted else None)
    A = matrix(S, device, weighted, iso)
    got = algorithms.harmonic_centrality(A, weighted=weighted)
    check(got, ref, n, sr.array_module(device), rtol=1e-12, atol=0)


@settings(max_examples=10)
@given(g=graphs(max_n=30))
def test_distance_centralities_in_batches(device, monkeypatch, g):
    """Batches of 3 sources give the answers of one batch (the sums run over batches)."""
    S, undirected = g
    n = S.shape[0]
    A = sr.Matrix.from_scipy(S, device=device)
    whole = [to_host(f(A)) for f in (algorithms.closeness_centrality,
                                     algorithms.harmonic_centrality)]
    from algorithms import centrality  # noqa: PLC0415  (the module, not the package's function)

    monkeypatch.setattr(centrality, "BATCH_ELEMENTS", 3 * max(n, 1))
    done = []
    parts = [to_host(algorithms.closeness_centrality(A, progress=lambda d, t: done.append(d))),
             to_host(algorithms.harmonic_centrality(A))]
    for w, p in zip(whole, parts):
        np.testing.assert_allclose(p, w, rtol=1e-12)
    assert done == list(range(3, n, 3)) + ([n] if n else [])


def test_distance_centralities_fractional_weights(device):
    # weights 0.1 + 0.2: float sums as NetworkX's Dijkstra adds them along each path
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 0.1), (1, 2, 0.2), (0, 2, 0.35), (2, 3, 0.0), (3, 0, 1.5)])
    rows, cols, vals = zip(*G.edges(data="weight"))
    A = sr.Matrix.from_coo(list(rows), list(cols), list(vals), nrows=4, ncols=4,
                           device=device)  # 2 → 3 an explicit zero: an edge of distance 0
    xp = sr.array_module(device)
    check(algorithms.closeness_centrality(A, weighted=True),
          nx.closeness_centrality(G, distance="weight"), 4, xp, rtol=1e-12, atol=0)
    check(algorithms.harmonic_centrality(A, weighted=True),
          nx.harmonic_centrality(G, distance="weight"), 4, xp, rtol=1e-12, atol=0)


# --------------------------------------------------------------------------- awkward inputs
def test_empty_graph(device):
    E = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.eigenvector_centrality(nx.Graph())
    with pytest.raises(sr.InvalidValue, match="no vertices"):
        algorithms.eigenvector_centrality(E)
    assert algorithms.katz_centrality(E).shape == (0,)
    assert [x.shape for x in algorithms.hits(E)] == [(0,), (0,)]
    assert algorithms.closeness_centrality(E).shape == (0,)
    assert algorithms.harmonic_centrality(E).shape == (0,)


def test_single_vertex(device):
    for S in (sp.csr_matrix((1, 1)), sp.csr_matrix(np.ones((1, 1)))):  # with a self-loop too
        G = to_nx(S, directed=True)
        A = sr.Matrix.from_scipy(S, device=device)
        xp = sr.array_module(device)
        check(algorithms.eigenvector_centrality(A), nx.eigenvector_centrality(G), 1, xp)
        check(algorithms.katz_centrality(A), nx.katz_centrality(G), 1, xp)
        check(algorithms.closeness_centrality(A), nx.closeness_centrality(G), 1, xp)
        check(algorithms.harmonic_centrality(A), nx.harmonic_centrality(G), 1, xp)


def test_inputs_not_changed(device):
    S = sp.csr_matrix(np.array([[0, 2.0, 0], [1, 0, 1], [0, 3, 0]]))
    A = sr.Matrix.from_scipy(S, device=device)
    xp = sr.array_module(device)
    nstart, beta = xp.asarray([1.0, 2.0, 3.0]), xp.asarray([1.0, 1.0, 2.0])
    before = [to_host(A.values).copy(), to_host(nstart).copy(), to_host(beta).copy()]
    algorithms.eigenvector_centrality(A, nstart=nstart)
    algorithms.katz_centrality(A, beta=beta, nstart=nstart)
    algorithms.hits(A, nstart=nstart)
    algorithms.closeness_centrality(A, weighted=True)
    for b, a in zip(before, [A.values, nstart, beta]):
        np.testing.assert_array_equal(to_host(a), b)


@pytest.mark.parametrize("call, err, words", [
    (lambda A, N: algorithms.eigenvector_centrality(A, max_iter=-1), sr.InvalidValue, "max_iter"),
    (lambda A, N: algorithms.eigenvector_centrality(A, max_iter=2.5), sr.DomainMismatch,
     "max_iter"),
    (lambda A, N: algorithms.eigenvector_centrality(A, tol=0), sr.InvalidValue, "tol"),
    (lambda A, N: algorithms.eigenvector_centrality(A, tol="x"), sr.DomainMismatch, "tol"),
    (lambda A, N: algorithms.eigenvector_centrality(A, nstart=[0, 0, 0]), sr.InvalidValue,
     "nstart"),
    (lambda A, N: algorithms.eigenvector_centrality(A, nstart=[1, -1, 0]), sr.InvalidValue,
     "nstart"),
    (lambda A, N: algorithms.eigenvector_centrality(A, nstart=[1, 2]), sr.DimensionMismatch,
     "nstart"),
    (lambda A, N: algorithms.eigenvector_centrality(A, nstart={5: 1}), sr.InvalidIndex, "nstart"),
    (lambda A, N: algorithms.eigenvector_centrality(A, nstart=[1, np.nan, 1]), sr.InvalidValue,
     "nstart"),
    (lambda A, N: algorithms.eigenvector_centrality(A, progress=3), sr.DomainMismatch,
     "progress"),
    (lambda A, N: algorithms.katz_centrality(A, alpha="a"), sr.DomainMismatch, "alpha"),
    (lambda A, N: algorithms.katz_centrality(A, alpha=np.inf), sr.InvalidValue, "alpha"),
    (lambda A, N: algorithms.katz_centrality(A, beta={0: 1}), sr.InvalidValue, "beta"),
    (lambda A, N: algorithms.katz_centrality(A, beta=[1, 2]), sr.DimensionMismatch, "beta"),
    (lambda A, N: algorithms.katz_centrality(A, beta=np.nan), sr.InvalidValue, "beta"),
    (lambda A, N: algorithms.katz_centrality(A, beta=["a", "b", "c"]), sr.DomainMismatch, "beta"),
    (lambda A, N: algorithms.hits(A, nstart=[1, -1, 0]), sr.InvalidValue, "nstart"),
    (lambda A, N: algorithms.hits(A, max_iter=None), sr.DomainMismatch, "max_iter"),
    (lambda A, N: algorithms.closeness_centrality(N, weighted=True), sr.InvalidValue, "A"),
    (lambda A, N: algorithms.harmonic_centrality(N, weighted=True), sr.InvalidValue, "A"),
    (lambda A, N: algorithms.harmonic_centrality(A, progress="x"), sr.DomainMismatch, "progress"),
])
def test_bad_arguments(device, call, err, words):
    """Each bad argument is refused before any work, by an error naming it (N: A with
    negative distances)."""
    S = sp.csr_matrix(np.array([[0, 2.0, 0], [1, 0, 1], [0, 3, 0]]))
    A = sr.Matrix.from_scipy(S, device=device)
    N = sr.Matrix.from_scipy(-S, device=device)
    with pytest.raises(err, match=words):
        call(A, N)


def test_non_square(device):
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=1, ncols=2, device=device)
    for f in (algorithms.eigenvector_centrality, algorithms.katz_centrality, algorithms.hits,
              algorithms.closeness_centrality, algorithms.harmonic_centrality):
        with pytest.raises(sr.DimensionMismatch, match="A"):
            f(A)
