"""Each named variant of the SPMD rank loops (algorithms.dist._spmd: BFS_LEVELS 'fused' /
'algebra', COMPONENTS 'forests' / 'mirrored' / 'labels', ROUNDS 'fused' /
'algebra') against the one-device engine, on a LocalCluster
of 2 worker processes with 1 to 4 partitions of any cut (empty ones too), over the TCP
exchange and the NCCL path's framing."""

from __future__ import annotations

import importlib
import os

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph  # noqa: F401 (sp.csgraph)
from hypothesis import given, settings, strategies as st

import semiring as sr

distributed = pytest.importorskip(
    "distributed", reason='the distributed tests need dask: pip install "semiring[dask]"')

import algorithms  # noqa: E402
import algorithms.dist as adist  # noqa: E402
from algorithms.dist import _local, _spmd  # noqa: E402
from semiring import dist  # noqa: E402
from semiring.dist import _mesh  # noqa: E402
from conftest import local_client, to_host  # noqa: E402

dsssp = importlib.import_module("algorithms.dist.sssp")

EXAMPLES = max(2, int(os.environ.get("SEMIRING_TEST_EXAMPLES", 40)) // 7)
few = settings(max_examples=EXAMPLES, deadline=None)


@pytest.fixture(scope="module")
def client():
    yield from local_client(2)


@pytest.fixture(autouse=True, params=["tcp", "framed"])
def exchange(monkeypatch, request):
    monkeypatch.setattr(_spmd, "SPMD", True)
    monkeypatch.setattr(_spmd, "ONE_PARTITION", True)   # one partition runs the rank loop too
    monkeypatch.setattr(_local, "WHOLE_ON_ONE_WORKER", False)
    monkeypatch.setattr(_mesh, "EXCHANGE", request.param)
    return request.param


@st.composite
def graphs(draw, max_n=90):
    """(CSR, source, cut): digraphs with isolated vertices, self-loops, a hub of many
    in-edges (a warp's scan on the GPU), undirected or not; 1 to 4 parts of any cut."""
    n = draw(st.integers(1, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    m = draw(st.integers(0, 4 * n))
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    if draw(st.booleans()):
        hub = int(rng.integers(0, n))
        r, c = np.r_[r, rng.integers(0, n, 60)], np.r_[c, np.full(60, hub)]
    if draw(st.booleans()):
        s = rng.integers(0, n, max(1, n // 4))
        r, c = np.r_[r, s], np.r_[c, s]
    if draw(st.booleans()):
        keep = (r < n // 2) == (c < n // 2)
        r, c = r[keep], c[keep]
    if draw(st.booleans()):
        r, c = np.r_[r, c], np.r_[c, r]
    S = sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, n))
    S.sum_duplicates()
    k = draw(st.integers(1, 4))
    if draw(st.booleans()):
        cut = dict(nparts=k)
    else:
        cuts = sorted(draw(st.lists(st.integers(0, n), min_size=k - 1, max_size=k - 1)))
        cut = dict(bounds=[0] + cuts + [n])
    return S, draw(st.integers(0, n - 1)), cut


@few
@given(g=graphs())
# ("peer" needs two GPU ranks with peer access: tests/test_dist_peer_bfs.py; "auto" here
# runs the fused loop, or the peer one where it applies)
@pytest.mark.parametrize("loop", [c for c in _spmd.BFS_LEVELS_CHOICES if c != "peer"])
def test_bfs_loops_match_engine(client, device, loop, g, monkeypatch):
    monkeypatch.setattr(_spmd, "BFS_LEVELS", loop)
    S, source, cut = g
    DA = dist.DistMatrix.from_scipy(S, client, device=device, **cut)
    A = sr.Matrix.from_scipy(S, device=device)
    ref = to_host(algorithms.bfs(A, source))
    rl, rp = (to_host(x) for x in algorithms.bfs(A, source, parents=True, deterministic=True))
    for direction in ("auto", "push", "pull"):
        np.testing.assert_array_equal(to_host(adist.bfs(DA, source, direction=direction)), ref)
        gl, gp = adist.bfs(DA, source, parents=True, deterministic=True, direction=direction)
        np.testing.assert_array_equal(to_host(gl), rl)
        np.testing.assert_array_equal(to_host(gp), rp)
    gl, gp = (to_host(x) for x in adist.bfs(DA, source, parents=True))
    C = S.tocsc()
    for v in np.flatnonzero(gl > 0):   # any parent: an in-neighbour on the level before
        ins = C.indices[C.indptr[v]:C.indptr[v + 1]]
        assert gp[v] in ins[gl[ins] == gl[v] - 1]
    np.testing.assert_array_equal(gp == -1, gl == -1)
    assert gp[source] == source


@few
@given(g=graphs())
@pytest.mark.parametrize("loop", _spmd.COMPONENTS_CHOICES)
def test_components_loops_match_engine(client, device, loop, g, monkeypatch):
    monkeypatch.setattr(_spmd, "COMPONENTS", loop)
    S, _, cut = g
    DA = dist.DistMatrix.from_scipy(S, client, device=device, **cut)
    ref = to_host(algorithms.connected_components(sr.Matrix.from_scipy(S, device=device)))
    np.testing.assert_array_equal(to_host(adist.connected_components(DA)), ref)
    sym = bool((S != S.T).nnz == 0)
    np.testing.assert_array_equal(to_host(adist.connected_components(DA, symmetric=sym)), ref)
    roots = to_host(adist.connected_components(DA, gather=False).to_dense())
    first = {}
    for v, lab in enumerate(ref):
        first.setdefault(lab, v)
    np.testing.assert_array_equal(roots, [first[lab] for lab in ref])


@few
@given(g=graphs(), kind=st.sampled_from(["int", "negative", "float32", "float64", "inf"]),
       seed=st.integers(0, 2**31 - 1))
@pytest.mark.parametrize("loop", ("near_far",) + _spmd.ROUNDS_CHOICES)
def test_sssp_loops_match_engine(client, device, loop, g, kind, seed, monkeypatch):
    """The near–far search (sssp's 'auto'; negative weights: its fall-back to the rounds) and
    the Bellman–Ford rounds of each ROUNDS variant; zero weights (int) and explicit zeros."""
    if loop == "near_far":
        monkeypatch.setattr(dsssp, "AUTO_METHOD", dict.fromkeys(("cpu", "gpu"), "delta_stepping"))
        # a room of 1 pair: piles past it send their distances packed, the second exchange
        monkeypatch.setattr(_spmd, "NEAR_PAIRS_MIN", 1 if seed % 2 else 1024)
    else:
        monkeypatch.setattr(dsssp, "AUTO_METHOD", dict.fromkeys(("cpu", "gpu"), "bellman_ford"))
        monkeypatch.setattr(_spmd, "ROUNDS", loop)
    S, source, cut = g
    S = S.copy()
    rng = np.random.default_rng(seed)
    if kind == "int":
        S.data = rng.integers(0, 9, S.nnz).astype(np.int32)
    elif kind == "negative":                 # a DAG's edges may be negative: no cycle
        S = sp.triu(S, k=1, format="csr")
        S.data = rng.integers(-5, 9, S.nnz).astype(np.int64)
    elif kind == "inf":                      # stored inf: an edge no path can use
        S.data = np.where(rng.random(S.nnz) < 0.3, np.inf, rng.random(S.nnz))
    else:
        S.data = rng.random(S.nnz).astype(kind)
    DA = dist.DistMatrix.from_scipy(S, client, device=device, **cut)
    A = sr.Matrix.from_scipy(S, device=device)
    ref = to_host(algorithms.bellman_ford(A, source))
    for direction in ("auto", "push", "pull"):
        got = to_host(adist.sssp(DA, source, direction=direction))
        assert got.dtype == ref.dtype
        np.testing.assert_array_equal(got, ref)
    if kind != "negative":
        lim = float(np.median(ref[np.isfinite(ref.astype(float))])) if S.nnz else 1.0
        np.testing.assert_array_equal(to_host(adist.sssp(DA, source, limit=lim)),
                                      to_host(algorithms.sssp(A, source, limit=lim)))
    if loop == "near_far" and kind != "negative":
        # any Δ: one vertex a bucket (tiny), a few, one bucket (Bellman–Ford's)
        for delta in (1e-3, 0.3, 4, 1e30):
            for direction in ("auto", "push", "pull"):
                got = to_host(adist.delta_stepping(DA, source, delta, direction=direction))
                np.testing.assert_array_equal(got, ref)
            np.testing.assert_array_equal(
                to_host(adist.delta_stepping(DA, source, delta, limit=lim)),
                to_host(algorithms.sssp(A, source, limit=lim)))
        if device == "cpu" and kind == "float64":   # SciPy's own distances, bit for bit
            np.testing.assert_array_equal(to_host(adist.sssp(DA, source)),
                                          sp.csgraph.dijkstra(S, indices=source))
    if loop == "near_far" and kind == "negative" and S.nnz and S.data.min() < 0:
        with pytest.raises(sr.InvalidValue, match="negative"):
            adist.delta_stepping(DA, source)


def test_near_far_arguments_checked(client):
    S = sp.csr_matrix(np.ones((6, 6)))
    DA = dist.DistMatrix.from_scipy(S, client, nparts=2)
    for delta in (0, -1.0, np.nan, np.inf, "1", True):
        with pytest.raises(sr.InvalidValue, match="delta"):
            adist.delta_stepping(DA, 0, delta)
    for limit in (-1, np.nan, "2"):
        with pytest.raises(sr.InvalidValue, match="limit"):
            adist.delta_stepping(DA, 0, limit=limit)
        with pytest.raises(sr.InvalidValue, match="limit"):  # (unchecked there before)
            adist.bellman_ford(DA, 0, limit=limit)
    with pytest.raises(sr.InvalidValue, match="predecessors"):
        adist.delta_stepping(DA, 0, predecessors=True)
    with pytest.raises(sr.InvalidValue, match="delta and limit"):
        adist.sssp(DA, 0, "bellman_ford", delta=1.0)


@pytest.mark.parametrize("spmd", [True, False])
def test_delta_stepping_refuses_negative_weights_in_both_forms(client, device, spmd,
                                                               monkeypatch):
    """The loop of Dask tasks ran Bellman–Ford's rounds instead: distances where there is no
    negative cycle, a NegativeCycleError where there is one; the ranks and the one-device
    function refuse the weights (InvalidValue)."""
    monkeypatch.setattr(_spmd, "SPMD", spmd)
    for cols in ([1, 2, 3], [1, 2, 1]):  # no cycle; the cycle 1 → 2 → 1 of weight -2
        S = sp.csr_matrix((np.array([1.0, -3.0, 1.0]), ([0, 1, 2], cols)), shape=(40, 40))
        DA = dist.DistMatrix.from_scipy(S, client, device=device, bounds=[0, 2, 40])
        with pytest.raises(sr.InvalidValue, match="negative weights"):
            adist.delta_stepping(DA, 0)
        A = sr.Matrix.from_scipy(S, device=device)
        with pytest.raises(sr.InvalidValue, match="negative weights"):
            algorithms.delta_stepping(A, 0)
        if cols[-1] == 3:  # method "auto" runs Bellman–Ford's rounds on either form
            np.testing.assert_array_equal(to_host(adist.sssp(DA, 0)),
                                          to_host(algorithms.sssp(A, 0)))
        else:
            with pytest.raises(sr.NegativeCycleError):
                adist.sssp(DA, 0)


def test_sssp_negative_cycle_raises(client, device, monkeypatch):
    S = sp.csr_matrix((np.array([1, -3, 1], dtype=np.int64), ([0, 1, 2], [1, 2, 1])),
                      shape=(40, 40))
    DA = dist.DistMatrix.from_scipy(S, client, device=device, bounds=[0, 2, 40])
    for loop in _spmd.ROUNDS_CHOICES:
        monkeypatch.setattr(_spmd, "ROUNDS", loop)
        with pytest.raises(sr.NegativeCycleError):
            adist.sssp(DA, 0)


def test_variant_names_checked(client, monkeypatch):
    S = sp.csr_matrix(np.ones((4, 4)))
    DA = dist.DistMatrix.from_scipy(S, client, nparts=2)
    monkeypatch.setattr(_spmd, "BFS_LEVELS", "nope")
    with pytest.raises(sr.InvalidValue, match="BFS_LEVELS"):
        adist.bfs(DA, 0)
    monkeypatch.setattr(_spmd, "COMPONENTS", "nope")
    with pytest.raises(sr.InvalidValue, match="COMPONENTS"):
        adist.connected_components(DA)
    monkeypatch.setattr(_spmd, "ROUNDS", "nope")
    with pytest.raises(sr.InvalidValue, match="ROUNDS"):
        adist.sssp(DA, 0, method="bellman_ford")
    with pytest.raises(sr.InvalidValue, match="ROUNDS"):   # the near–far's fall-back
        adist.sssp(DA, 0)


@given(n=st.integers(1, 80), P=st.integers(2, 4), m=st.integers(0, 200),
       seed=st.integers(0, 2**31 - 1))
@settings(max_examples=60, deadline=None)
def test_join_forests_equals_union_components(n, P, m, seed):
    # the ranks' forests: each rank's roots are its own edges' least vertices; the join is the
    # least vertex of each component of all the ranks' edges together
    from scipy.sparse.csgraph import connected_components as cc
    rng = np.random.default_rng(seed)
    rows, cols, rank = rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(0, P, m)

    def roots_of(r, c):
        _, lab = cc(sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, n)), directed=False)
        least = np.full(n, n)
        np.minimum.at(least, lab, np.arange(n))
        return least[lab]

    R = np.stack([roots_of(rows[rank == p], cols[rank == p]) for p in range(P)]).astype(np.int32)
    got = _spmd._join_forests(R)
    np.testing.assert_array_equal(got, roots_of(rows, cols))
    assert got.dtype == np.int32
