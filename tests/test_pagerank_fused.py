"""PageRank's fused variant (:func:`semiring.centrality.power_iteration`: the whole iteration
in one cooperative launch on the GPU) against the loop on the CPU and against NetworkX: awkward
graphs, hubs past the long-row bound, weights the kernel must refuse or hand back for scaling,
every distribution argument, both definitions, index types; the policy that picks it and its
arguments' checks (those on every backend)."""

from __future__ import annotations

import importlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st

import algorithms
import semiring as sr
from analytics1_graphs import as_array, graphs, to_nx
from conftest import DEVICES, to_host

pr = importlib.import_module("algorithms.pagerank")
gpu_only = pytest.mark.skipif(DEVICES[-1] != "gpu", reason="the fused variant is the GPU's")
TIGHT = dict(tol=1e-13, max_iter=5000)


def _gpu_centrality():
    return importlib.import_module("semiring.backend.gpu.centrality")


@pytest.fixture
def spy(monkeypatch):
    """The calls of power_iteration, with its answers."""
    calls = []
    real = sr.centrality.power_iteration

    def wrapped(*a, **k):
        out = real(*a, **k)
        calls.append(None if out is None else out[3])
        return out
    monkeypatch.setattr(sr.centrality, "power_iteration", wrapped)
    return calls


def _weights(draw, n, p_none):
    if n == 0 or draw(st.floats(0, 1)) < p_none:
        return None
    w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), dtype=np.float64)
    w[draw(st.integers(0, n - 1))] += 1
    return w


@gpu_only
@given(g=graphs(max_n=40), weighted=st.booleans(), iso=st.booleans(), data=st.data(),
       damping=st.sampled_from([0.85, 0.0, 0.5, 0.95]), variant=st.sampled_from(pr.VARIANTS),
       long_row=st.sampled_from([1024, 2, 0]), itype=st.sampled_from([np.int32, np.int64]))
def test_fused_against_the_cpu_loop(g, weighted, iso, data, damping, variant, long_row, itype,
                                    spy):
    # long_row 2 / 0: rows past it summed by a block each (hubs, on these small graphs)
    spy.clear()  # (one fixture for every example)
    S, _ = g
    n = S.shape[0]
    S = sp.csr_matrix((S.data, S.indices.astype(itype), S.indptr.astype(itype)), shape=S.shape)
    kw = {}
    for name, p_none in (("personalization", 0.5), ("nstart", 0.7), ("dangling", 0.7)):
        w = None if (name == "dangling" and variant == "gap") else _weights(data.draw, n, p_none)
        if w is not None:
            kw[name] = w
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(_gpu_centrality(), "PAGERANK_LONG_ROW", long_row)
        G = sr.Matrix.from_scipy(S, device="gpu", iso=iso)
        C = sr.Matrix.from_scipy(S, device="cpu", iso=iso)
        import cupy as cp  # noqa: PLC0415  (GPU only)

        gkw = {k: cp.asarray(v) for k, v in kw.items()}
        before = {k: v.copy() for k, v in kw.items()}
        got = algorithms.pagerank(G, damping, weighted=weighted, variant=variant, **TIGHT, **gkw)
        ref = algorithms.pagerank(C, damping, weighted=weighted, variant=variant, **TIGHT, **kw)
    finally:
        mp.undo()
    assert spy == ([] if n == 0 else ["done"])
    assert type(got) is cp.ndarray and got.dtype == np.float64 and got.shape == (n,)
    np.testing.assert_allclose(to_host(got), ref, rtol=0, atol=1e-11)
    for k, v in before.items():  # the caller's arrays are untouched
        np.testing.assert_array_equal(to_host(gkw[k]), v)
    if variant == "networkx" and n:
        G_nx = to_nx(S, directed=True)
        use = weighted and not iso
        want = nx.pagerank(G_nx, alpha=damping, weight="weight" if use else None, **TIGHT,
                           **{k: dict(enumerate(v.tolist())) for k, v in kw.items()})
        np.testing.assert_allclose(to_host(got), as_array(want, n), rtol=0, atol=1e-11)


def _hub_graph(n, hubs, seed, weighted):
    """A sparse random graph plus hubs with edges to and from every vertex: rows far past
    PAGERANK_LONG_ROW in both A and Aᵀ, beside rows of a few entries."""
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, 3 * n), rng.integers(0, n, 3 * n)
    h = rng.choice(n, hubs, replace=False)
    r = np.r_[r, np.repeat(h, n), np.tile(np.arange(n), hubs)]
    c = np.r_[c, np.tile(np.arange(n), hubs), np.repeat(h, n)]
    v = rng.integers(1, 9, r.size).astype(np.float64) if weighted else np.ones(r.size)
    S = sp.csr_matrix((v, (r, c)), shape=(n, n))
    S.sum_duplicates()
    # dangling vertices: a few rows emptied
    S = sp.diags((rng.random(n) > 0.02).astype(np.float64)) @ S
    S = S.tocsr()
    S.eliminate_zeros()
    return S


@gpu_only
@pytest.mark.parametrize("n,hubs,weighted,variant", [(5000, 3, True, "networkx"),
                                                     (3000, 1, False, "gap"),
                                                     (40000, 2, True, "gap"),
                                                     (40000, 4, False, "networkx")])
def test_hubs_past_the_long_row_bound(n, hubs, weighted, variant, spy):
    S = _hub_graph(n, hubs, n + hubs, weighted)
    assert int(np.diff(S.indptr).max()) > _gpu_centrality().PAGERANK_LONG_ROW
    G = sr.Matrix.from_scipy(S, device="gpu")
    got = algorithms.pagerank(G, weighted=weighted, variant=variant, **TIGHT)
    ref = algorithms.pagerank(sr.Matrix.from_scipy(S, device="cpu"), weighted=weighted,
                              variant=variant, **TIGHT)
    assert spy == ["done"]
    np.testing.assert_allclose(to_host(got), ref, rtol=0, atol=1e-12)
    # one device, one grid: the same bits on every run
    again = algorithms.pagerank(G, weighted=weighted, variant=variant, **TIGHT)
    assert bool((again == got).all())


@gpu_only
def test_default_tolerance_stops_where_networkx_does(spy):
    # NetworkX's own rule (change < n · 1e-6): the same sweep count within one, and the ranks
    # within the tolerance
    S = _hub_graph(2000, 2, 7, True)
    G = sr.Matrix.from_scipy(S, device="gpu")
    seen = []
    loop = algorithms.pagerank(G, progress=lambda it, e: seen.append(it))  # the loop
    assert spy == []
    got = algorithms.pagerank(G)
    assert spy == ["done"]
    want = as_array(nx.pagerank(to_nx(S, directed=True)), S.shape[0])
    assert np.abs(to_host(got) - want).sum() < 2 * S.shape[0] * 1e-6
    assert np.abs(to_host(got) - to_host(loop)).sum() < 2 * S.shape[0] * 1e-6


@gpu_only
@pytest.mark.parametrize("bad", [-1.0, np.inf, np.nan])
def test_bad_weights_are_refused(bad, spy):
    S = sp.csr_matrix(np.array([[0, 1.0, 2.0], [3.0, 0, 0], [0, 1.0, 0]]))
    S.data[1] = bad
    G = sr.Matrix.from_scipy(S, device="gpu")
    with pytest.raises(sr.InvalidValue, match="finite and non-negative"):
        algorithms.pagerank(G)
    assert spy == ["weights"]
    got = algorithms.pagerank(G, weighted=False)  # the structure only: no check
    np.testing.assert_allclose(to_host(got), algorithms.pagerank(S, weighted=False), atol=1e-12)


@gpu_only
@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_extreme_out_weights_go_to_the_loop(scale, spy):
    # out-degrees past 2**±256: the kernel hands back, the loop scales the rows
    S = _hub_graph(300, 1, 3, True)
    S.data *= scale
    G = sr.Matrix.from_scipy(S, device="gpu")
    got = algorithms.pagerank(G, **TIGHT)
    assert spy == ["scale"]
    ref = algorithms.pagerank(sr.Matrix.from_scipy(S, device="cpu"), **TIGHT)
    np.testing.assert_allclose(to_host(got), ref, rtol=0, atol=1e-12)
    assert abs(float(got.sum()) - 1) < 1e-9


@gpu_only
def test_convergence_error_carries_the_last_iterate(spy):
    import cupy as cp  # noqa: PLC0415  (GPU only)

    n = 30  # a directed path: the ranks move for n sweeps
    A = sr.Matrix.from_coo(np.arange(n - 1), np.arange(1, n), 1.0, nrows=n, ncols=n, device="gpu")
    with pytest.raises(algorithms.ConvergenceError, match="max_iter") as info:
        algorithms.pagerank(A, max_iter=3, tol=1e-12)
    assert spy == ["done"]
    err = info.value
    assert err.iterations == 3 and err.error > 0 and type(err.result) is cp.ndarray
    seen = []
    with pytest.raises(algorithms.ConvergenceError) as loop:  # the loop's third iterate
        algorithms.pagerank(A, max_iter=3, tol=1e-12, progress=lambda it, e: seen.append(e))
    np.testing.assert_allclose(to_host(err.result), to_host(loop.value.result), atol=1e-15)
    assert abs(err.error - loop.value.error) < 1e-14 and seen[-1] == loop.value.error


@gpu_only
def test_policy(monkeypatch, spy):
    S = _hub_graph(500, 1, 1, True)
    G = sr.Matrix.from_scipy(S, device="gpu")
    want = algorithms.pagerank(S, **TIGHT)
    np.testing.assert_allclose(to_host(algorithms.pagerank(G, **TIGHT)), want, atol=1e-12)
    assert spy == ["done"]
    algorithms.pagerank(G, progress=lambda *a: None)  # progress: the loop's sweeps
    monkeypatch.setattr(pr, "GPU_FUSED_MAX_ENTRIES", S.nnz - 1)  # past the bound: the loop
    np.testing.assert_allclose(to_host(algorithms.pagerank(G, **TIGHT)), want, atol=1e-12)
    assert spy == ["done"]
    monkeypatch.setattr(pr, "GPU_FUSED_MAX_ENTRIES", S.nnz)

    def unavailable(*a, **k):
        raise sr.BackendUnavailable("no cooperative launch here")
    monkeypatch.setattr(_gpu_centrality(), "grid_function", unavailable)
    np.testing.assert_allclose(to_host(algorithms.pagerank(G, **TIGHT)), want, atol=1e-12)
    assert spy == ["done"]  # (the failed call raised: not recorded)


@gpu_only
def test_isolated_vertices_and_one_vertex():
    for n in (1, 7):
        A = sr.Matrix.from_coo([], [], None, nrows=n, ncols=n, device="gpu")
        np.testing.assert_allclose(to_host(algorithms.pagerank(A)), np.full(n, 1 / n))
        np.testing.assert_allclose(to_host(algorithms.pagerank(A, variant="gap")),
                                   np.full(n, 0.15 / n))
    L = sr.Matrix.from_coo([0], [0], [2.0], nrows=1, ncols=1, device="gpu")  # a self-loop
    np.testing.assert_allclose(to_host(algorithms.pagerank(L)), [1.0])


def test_power_iteration_arguments(device):
    xp = sr.array_module(device)
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 1.0], nrows=2, ncols=2, device=device)
    f = sr.centrality.power_iteration
    for kw, err in [(dict(damping=1.0), sr.InvalidValue), (dict(damping=-0.1), sr.InvalidValue),
                    (dict(damping="0.85"), sr.DomainMismatch),
                    (dict(damping=np.nan), sr.DomainMismatch),
                    (dict(threshold=0.0), sr.InvalidValue),
                    (dict(threshold=np.inf), sr.DomainMismatch),
                    (dict(max_iter=0), sr.InvalidValue), (dict(max_iter=2.0), sr.DomainMismatch),
                    (dict(max_iter=True), sr.DomainMismatch),
                    (dict(weighted="yes"), sr.DomainMismatch),
                    (dict(spread=1), sr.DomainMismatch),
                    (dict(p=xp.ones(2, dtype=np.float32)), sr.DomainMismatch),
                    (dict(u=xp.ones(3)), sr.DimensionMismatch),
                    (dict(x0=[0.5, 0.5]), sr.DomainMismatch)]:
        args = dict(damping=0.85, threshold=1e-9, max_iter=10)
        args.update(kw)
        pos = [args.pop(k) for k in ("damping", "threshold", "max_iter")]
        with pytest.raises(err):
            f(A, *pos, **args)
    with pytest.raises(sr.DimensionMismatch):
        f(sr.Matrix.from_coo([], [], None, nrows=2, ncols=3, device=device), 0.85, 1e-9, 10)
    with pytest.raises(sr.DimensionMismatch):
        f(sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device), 0.85, 1e-9, 10)
    B = sr.Matrix.from_coo([0], [1], [True], nrows=2, ncols=2, device=device)
    assert (f(B, 0.85, 1e-9, 10) is None) == (device == "cpu")
    if device == "gpu":
        with pytest.raises(sr.DeviceMismatch):  # a host array where the GPU's is due
            f(A, 0.85, 1e-9, 10, p=np.full(2, 0.5))
    else:
        assert f(A, 0.85, 1e-9, 10) is None


def test_networkx_cost_model_takes_the_fused_launch_below_the_bound():
    # pagerank itself: the fused launch's cost up to the bound, the loop's past it; the
    # family's other power iterations keep theirs (no fused variant)
    interface = pytest.importorskip("nx_semiring.interface")
    bound = pr.GPU_FUSED_MAX_ENTRIES
    fused = interface.GPU_FUSED_PAGERANK_COST
    assert interface._engine_cost("gpu", "pagerank", 100, "pagerank") == fused
    assert interface._engine_cost("gpu", "pagerank", bound, "pagerank") == fused
    assert interface._engine_cost("gpu", "pagerank", bound + 1, "pagerank") \
        == interface.ENGINE_COST["gpu"]["pagerank"]
    for name in ("eigenvector_centrality", "katz_centrality", "hits"):
        assert interface._engine_cost("gpu", "pagerank", bound, name) != fused
    assert interface._engine_cost("cpu", "pagerank", 100, "pagerank") \
        == interface.ENGINE_COST["cpu"]["pagerank"]
    # a small graph: cheaper on the GPU than the loop's cost, as predicted end to end
    n, stored = 2000, 16000
    t_fused = interface.predict("pagerank", n, stored, cached=True, device="gpu")[1]
    t_eig = interface.predict("eigenvector_centrality", n, stored, cached=True, device="gpu")[1]
    assert t_fused < t_eig
