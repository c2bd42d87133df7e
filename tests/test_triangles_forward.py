"""The forward listing as one mechanism (:func:`semiring.triangles.forward`: one launch on the
GPU, the compiled edge supports on the CPU) against NetworkX and the masked products, on
every backend: awkward graphs, skewed rows, asymmetric input, the policy that picks it."""

from __future__ import annotations

import importlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st

import algorithms as alg
import semiring as sr
from analytics1_graphs import as_array, graphs, to_nx
from conftest import to_host

tri = importlib.import_module("algorithms.triangles")


def _numba() -> bool:
    """Whether the CPU's compiled kernels run (its per-vertex 'auto' is then the listing)."""
    return importlib.import_module("semiring.backend.cpu.compiled").ENABLED


def _each_variant(A, vertices):
    """The GPU listing's answer by each of its variants (``VARIANTS``), as
    :func:`semiring.triangles.forward` gives it, the symmetry checked afresh by each; [] on
    the CPU."""
    if A.device != "gpu" or A.nrows == 0:
        return []
    gpu = importlib.import_module("semiring.backend.gpu.triangles")
    got = []
    for variant in gpu.VARIANTS:
        A._memo.pop(gpu.SYMMETRIC_KEY, None)
        count, t, symmetric = gpu.forward(A, vertices, variant=variant)
        got.append((variant, (count, t) if symmetric else None))
        if symmetric:  # again, the structure remembered: unchecked
            assert A._memo.get(gpu.SYMMETRIC_KEY) is True
            again = gpu.forward(A, vertices, variant=variant)
            assert again[0] == count and again[2], (variant, again[0], count)
            if vertices:
                np.testing.assert_array_equal(to_host(again[1]), to_host(t), err_msg=variant)
    return got


@given(g=graphs(max_n=30), vertices=st.booleans())
def test_against_networkx(device, g, vertices):
    # symmetric or not; self-loops, explicit zeros, isolated vertices, blocks, long paths
    S, _ = g
    n = S.shape[0]
    A = sr.Matrix.from_scipy(S, device=device)
    answers = [("public", sr.triangles.forward(A, vertices=vertices))]
    answers += _each_variant(A, vertices)
    E = S.copy()
    E.data[:] = 1
    if n and (E != E.T).nnz:
        assert all(got is None for _, got in answers), answers
        return
    t = as_array(nx.triangles(to_nx(S, directed=False, weighted=False)), n).astype(np.int64)
    for variant, (count, tv) in answers:
        assert type(count) is int and count == t.sum() // 3, variant
        if not vertices:
            assert tv is None
            continue
        assert type(tv) is sr.array_module(device).ndarray and tv.dtype == np.int64
        np.testing.assert_array_equal(to_host(tv), t, err_msg=variant)


def _skewed(n, seed):
    """Hubs joined to everything, a clique, a sparse rest: rows of very different lengths
    (the GPU thread's walk of the shorter row, its binary searches in the longer)."""
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, 4 * n), rng.integers(0, n, 4 * n)
    hubs = rng.choice(n, 3, replace=False)
    clique = rng.choice(n, 40, replace=False)
    r = np.r_[r, np.repeat(hubs, n), np.repeat(clique, 40)]
    c = np.r_[c, np.tile(np.arange(n), 3), np.tile(clique, 40)]
    S = sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, n))
    S = ((S + S.T) > 0).astype(np.float64).tocsr()
    return S


@pytest.mark.parametrize("seed", [0, 1])
def test_skewed_rows_against_the_products(device, seed):
    S = _skewed(3000, seed)
    A = sr.Matrix.from_scipy(S, device=device)
    want = alg.triangle_count(A, method="dot3")
    want_t = to_host(alg.triangles(A, method="mxm"))
    for variant, (count, t) in [("public", sr.triangles.forward(A, vertices=True))] + \
            _each_variant(A, True):
        assert count == want, variant
        np.testing.assert_array_equal(to_host(t), want_t, err_msg=variant)


def test_the_variant_follows_the_walks_bound():
    """'oriented' where nnz · (nnz / n) reaches ORIENTED_MIN_WORK, 'entries' below."""
    gpu = importlib.import_module("semiring.backend.gpu.triangles")
    w = gpu.ORIENTED_MIN_WORK
    assert gpu.variant_of(1 << 10, 1 << 20) == "oriented"  # 2^30 >= 2^25
    assert gpu.variant_of(w, w) == "oriented"  # exactly at the bound
    assert gpu.variant_of(w + 1, w) == "entries"
    assert gpu.variant_of(1 << 20, 1 << 22) == "entries"  # 2^24: a grid's short rows
    assert gpu.variant_of(1, 0) == "entries"


@pytest.mark.parametrize("itype", [np.int32, np.int64])
def test_variants_on_larger_graphs(device, itype):
    """Both GPU variants on graphs past a warp's walk (hubs: long oriented rows listed for
    warps), with self-loops, isolated vertices and both index types, against the products."""
    rng = np.random.default_rng(7)
    S = _skewed(5000, 4).tolil()
    for v in rng.choice(5000, 50, replace=False):
        S[v, v] = 1  # self-loops: in no triangle
    S = S.tocsr()
    keep = np.ones(5000, dtype=bool)
    keep[rng.choice(5000, 100, replace=False)] = False  # isolated vertices
    S = (sp.diags(keep.astype(float)) @ S @ sp.diags(keep.astype(float))).tocsr()
    S.eliminate_zeros()
    A = sr.Matrix.from_scipy(S, device=device)
    if itype is np.int64:
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values, A.shape,
                      iso_value=A.iso_value, dtype=A.dtype)
    assert np.dtype(A.itype) == np.dtype(itype)
    want = alg.triangle_count(A, method="dot3")
    want_t = to_host(alg.triangles(A, method="mxm"))
    assert want > 0
    for variant, got in _each_variant(A, True):
        count, t = got
        assert count == want, variant
        np.testing.assert_array_equal(to_host(t), want_t, err_msg=variant)


def test_asymmetric_input(device):
    # one edge stored one way: None here; the algorithms refuse it or take A ∪ Aᵀ
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [2, 3]], undirected=True, device=device)
    B = sr.Matrix.from_coo([0, 1, 2, 1, 2, 0], [1, 2, 0, 0, 1, 3], None, nrows=4, ncols=4,
                           device=device)
    assert sr.triangles.forward(A) == (1, None)
    assert sr.triangles.forward(B) is None
    assert [got for _, got in _each_variant(A, False)] in ([], [(1, None)] * 2)
    assert all(got is None for _, got in _each_variant(B, True))
    for f in (alg.triangle_count, alg.triangles, alg.clustering):
        with pytest.raises(sr.InvalidValue, match=f"{f.__name__}: A must be structurally"):
            f(B, method="forward")
    assert alg.triangle_count(B, method="forward", symmetrize=True) == 1
    np.testing.assert_array_equal(to_host(alg.triangles(B, method="forward", symmetrize=True)),
                                  [1, 1, 1, 0])
    np.testing.assert_allclose(to_host(alg.clustering(B, method="forward", symmetrize=True)),
                               [1 / 3, 1.0, 1.0, 0.0])  # 0 has three neighbours


def test_arguments(device):
    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0]], undirected=True, device=device)
    with pytest.raises(sr.DomainMismatch, match="vertices must be a bool"):
        sr.triangles.forward(A, vertices="yes")
    with pytest.raises(sr.DomainMismatch, match="symmetrize must be a bool"):
        alg.triangle_count(A, method="forward", symmetrize=1)
    with pytest.raises(sr.DimensionMismatch, match="square"):
        sr.triangles.forward(sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=3, device=device))
    E = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert sr.triangles.forward(E) == (0, None)
    count, t = sr.triangles.forward(E, vertices=True)
    assert count == 0 and t.shape == (0,) and t.dtype == np.int64
    # no entries at all: zeros, no launch needed
    Z = sr.Matrix.from_coo([], [], None, nrows=3, ncols=3, device=device)
    count, t = sr.triangles.forward(Z, vertices=True)
    assert count == 0 and to_host(t).tolist() == [0, 0, 0]


def test_the_policy_picks_forward_for_small_gpu_input(device, monkeypatch):
    """'auto': the listing for GPU input below GPU_FORWARD_MAX_ENTRIES (the count; past it
    see the skew rule below) and for every GPU input's per-vertex counts, the products for
    the CPU's count; an explicit method is always obeyed."""
    calls = []
    real = sr.triangles.forward
    monkeypatch.setattr(sr.triangles, "forward", lambda A, **kw: calls.append(1) or real(A, **kw))
    S = _skewed(500, 2)
    A = sr.Matrix.from_scipy(S, device=device)
    want = alg.triangle_count(A, method="dot")
    calls.clear()
    assert alg.triangle_count(A) == want
    assert bool(calls) == (device == "gpu")
    monkeypatch.setattr(tri, "GPU_FORWARD_MAX_ENTRIES", A.nvals)  # the bound: the products
    monkeypatch.setattr(tri, "GPU_FORWARD_MAX_SKEW", 0)  # (past it, even degrees: the listing)
    calls.clear()
    assert alg.triangle_count(A) == want
    assert not calls
    np.testing.assert_array_equal(to_host(alg.triangles(A, method="forward")),
                                  to_host(alg.triangles(A, method="mxm")))
    assert calls
    calls.clear()
    alg.triangles(A)  # the per-vertex counts: no bound on the GPU (on a CPU: with Numba)
    alg.clustering(A)
    assert len(calls) == (2 if device == "gpu" or _numba() else 0)
    calls.clear()
    alg.clustering(A, directed=True)  # the directed coefficient: the products (or host)
    assert not calls


def test_networkx_cost_model_takes_the_listing_on_the_gpu():
    interface = pytest.importorskip("nx_semiring.interface")
    for stored in (1, 1 << 23, 1 << 30):
        assert interface._engine_cost("gpu", "triangles", stored) == interface.GPU_FORWARD_COST


def test_even_degrees_keep_the_listing_past_the_bound(device, monkeypatch):
    """Past GPU_FORWARD_MAX_ENTRIES the count stays on the listing where the longest row is
    at most GPU_FORWARD_MAX_SKEW times the mean row; a skewed graph takes the products."""
    calls = []
    real = sr.triangles.forward
    monkeypatch.setattr(sr.triangles, "forward", lambda A, **kw: calls.append(1) or real(A, **kw))
    n = 60  # a ring with chords: every vertex of degree 6, 2n triangles
    ring = nx.circulant_graph(n, [1, 2, 3])
    even = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(ring, format="csr"), device=device)
    hub = sr.Matrix.from_scipy(_skewed(500, 3), device=device)
    monkeypatch.setattr(tri, "GPU_FORWARD_MAX_ENTRIES", 1)
    for A, skew, listing in ((even, 1, True), (even, 0.99, False), (hub, 16, False),
                             (hub, 10**6, True)):
        monkeypatch.setattr(tri, "GPU_FORWARD_MAX_SKEW", skew)
        calls.clear()
        assert alg.triangle_count(A) == alg.triangle_count(A, method="dot")
        assert bool(calls) == (listing and device == "gpu"), (skew, listing)
    assert alg.triangle_count(even) == 3 * n
    # the per-vertex counts take the listing whatever the skew
    calls.clear()
    alg.triangles(hub)
    assert bool(calls) == (device == "gpu" or _numba())


def test_a_symmetric_structure_is_checked_once(device):
    """The GPU listing remembers a structure it found symmetric (the matrix's memo) and
    skips the check on later calls, with the same counts; a changed matrix checks again."""
    S = _skewed(400, 5)
    A = sr.Matrix.from_scipy(S, device=device)
    first = sr.triangles.forward(A, vertices=True)
    again = sr.triangles.forward(A, vertices=True)
    assert first[0] == again[0] == alg.triangle_count(A, method="dot3")
    np.testing.assert_array_equal(to_host(first[1]), to_host(again[1]))
    if device == "gpu":
        key = importlib.import_module("semiring.backend.gpu.triangles").SYMMETRIC_KEY
        assert A._memo.get(key) is True
        j = int(np.flatnonzero(S[0].toarray()[0] == 0)[1])  # an edge 0 -> j stored one way
        T = S.tolil()
        T[0, j] = 1
        B = sr.Matrix.from_scipy(T.tocsr(), device=device)
        assert sr.triangles.forward(B) is None and key not in B._memo
        A._assign(B)  # new content: the fact is dropped, the check runs
        assert key not in A._memo and sr.triangles.forward(A) is None
