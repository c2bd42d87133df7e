"""The compiled distances-only Dijkstra (``sr.traversal.dijkstra_csgraph(A, s, compiled=True)``,
``semiring.backend.cpu.compiled.dijkstra_distances``) against SciPy's ``csgraph.dijkstra``:
bit for bit, on random graphs with zero weights, explicit zeros, duplicates (summed or kept
at their minimum by the Matrix's ``dup_op``), self-loops, isolated and unreachable vertices,
inf weights, integer weights near 2^53, float32, int32 and int64 index arrays, iso matrices
and a path of 10^5 vertices; and ``algorithms.sssp``'s CPU route taking it (issue 21, item 3).

The reference is SciPy's search on a CSR built here from the COO lists (duplicates combined
by NumPy in the Matrix's type), not from the Matrix: the Matrix's own combination and its
float64 view are under test too."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import given, strategies as st

import algorithms
import semiring as sr
from conftest import to_host

compiled = importlib.import_module("semiring.backend.cpu.compiled")
sssp_module = importlib.import_module("algorithms.sssp")  # algorithms.sssp is the function

needs_numba = pytest.mark.skipif(not compiled.ENABLED, reason="Numba not installed (the "
                                 "`cpu` extra) or SEMIRING_NUMBA=0")

KINDS = ["int-small", "dyadic", "thirds", "float32-thirds", "float32-int", "int32", "int64-big",
         "float64-big", "bool", "iso"]


def _combine(rows, cols, w, n, how):
    """Duplicates of (row, col) combined by ``how`` ("plus" or "min") in w's type: sorted COO."""
    key = rows.astype(np.int64) * max(n, 1) + cols
    order = np.argsort(key, kind="stable")
    key, w = key[order], w[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if key.size else np.array([], int)
    fold = np.add if how == "plus" else np.minimum
    vals = fold.reduceat(w, starts) if key.size else w
    return key[starts] // max(n, 1), key[starts] % max(n, 1), vals


@st.composite
def weighted_graphs(draw, max_n=40):
    """(Matrix, reference SciPy CSR of float64 weights): random directed graphs, some a long
    path with a few extra edges, some with a block cut off (unreachable vertices)."""
    n = draw(st.integers(1, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    if draw(st.booleans()):
        m = draw(st.integers(0, 5 * n))
        rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)  # self-loops, duplicates
    else:
        k = draw(st.integers(0, 4))
        rows = np.r_[np.arange(n - 1), rng.integers(0, n, k)]
        cols = np.r_[np.arange(1, n), rng.integers(0, n, k)]
    if draw(st.booleans()):
        cut = draw(st.integers(0, n))
        keep = (rows < cut) == (cols < cut)
        rows, cols = rows[keep], cols[keep]
    kind = draw(st.sampled_from(KINDS))
    dup = draw(st.sampled_from(["plus", "min"]))
    if kind in ("thirds", "float32-thirds"):
        dup = "min"  # (sums of thirds round by order: NumPy's and the Matrix's may differ)
    m = rows.size
    small = rng.integers(0, 6, m)  # 0: zero-weight edges (explicit zeros)
    if kind == "int-small":
        w = small.astype(np.int64)
    elif kind == "int32":
        w = small.astype(np.int32)
    elif kind == "dyadic":
        w = small / 4.0
    elif kind == "thirds":
        w = small / 3.0
    elif kind == "float32-thirds":
        w = (small / 3.0).astype(np.float32)
    elif kind == "float32-int":
        w = small.astype(np.float32)
    elif kind == "int64-big":  # near 2^53: float64 conversions and sums round
        w = (2**53 - rng.integers(0, 5, m) * rng.integers(0, 2, m) * 2**20
             - rng.integers(0, 3, m)).astype(np.int64)
        dup = "min"  # (a sum of two such would leave the exactly representable range)
    elif kind == "float64-big":
        w = rng.choice([0.0, 1.0, 3.0, 2.0**52 + 1, 2.0**53 - 1, 2.0**53, 2.0**53 + 2], m)
        dup = "min"
    else:  # bool, iso: every edge weighs 1 (bool True) or the iso value
        w = np.ones(m, dtype=np.bool_)
    if kind not in ("bool", "iso", "int-small", "int32", "int64-big") and m and draw(
            st.booleans()):
        w = w.copy()
        w[rng.integers(0, m)] = np.inf  # an edge no path improves through
    r, c, v = _combine(rows, cols, w, n, "min" if w.dtype == np.bool_ else dup)
    if kind == "iso":
        iso = np.float32(draw(st.sampled_from([0.0, 0.5, 3.0])))
        A = sr.Matrix.from_coo(r, c, iso, nrows=n, ncols=n, dtype=np.float32, device="cpu")
        v = np.full(r.size, iso)
    else:
        A = sr.Matrix.from_coo(rows, cols, w, nrows=n, ncols=n, dup_op=dup, device="cpu")
    if draw(st.booleans()):  # int64 index arrays (int32 otherwise: from_coo's choice here)
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values,
                      A.shape, iso_value=A.iso_value, dtype=A.dtype)
    R = sp.csr_matrix((v.astype(np.float64), (r, c)), shape=(n, n))
    return A, R


def _bits(d):
    return np.asarray(d, dtype=np.float64).view(np.int64)


@needs_numba
@given(g=weighted_graphs(), data=st.data())
def test_compiled_dijkstra_is_scipys_bit_for_bit(g, data):
    A, R = g
    assert R.nnz == A.nvals  # (the Matrix combined its duplicates as the reference did)
    s = data.draw(st.integers(0, A.nrows - 1))
    ref = scg.dijkstra(R, directed=True, indices=s)
    got = sr.traversal.dijkstra_csgraph(A, s, compiled=True)
    assert got.dtype == np.float64 and got.shape == (A.nrows,)
    np.testing.assert_array_equal(_bits(got), _bits(ref))
    np.testing.assert_array_equal(_bits(sr.traversal.dijkstra_csgraph(A, s)), _bits(ref))


@needs_numba
@pytest.mark.parametrize("itype", [np.int32, np.int64])
def test_compiled_dijkstra_on_a_long_path(itype):
    # 10^5 vertices: a path of fractional weights (float64 sums that round), with shortcuts
    # backwards (never shorter) and a few forwards (decrease-keys of queued vertices)
    n = 10**5
    rng = np.random.default_rng(7)
    k = 2000
    a, b = rng.integers(0, n, k), rng.integers(0, n, k)
    rows = np.r_[np.arange(n - 1), np.maximum(a, b), np.minimum(a, b)]
    cols = np.r_[np.arange(1, n), np.minimum(a, b), np.maximum(a, b)]
    w = np.r_[rng.random(n - 1) / 7, rng.random(k), rng.random(k) * 50]
    A = sr.Matrix.from_coo(rows, cols, w, nrows=n, ncols=n, dup_op="min", device="cpu")
    A = sr.Matrix(A.indptr.astype(itype), A.indices.astype(itype), A.values, A.shape)
    R = sp.csr_matrix((A.values, A.indices, A.indptr), shape=(n, n))
    for s in (0, n // 2, n - 1):
        ref = scg.dijkstra(R, directed=True, indices=s)
        np.testing.assert_array_equal(_bits(sr.traversal.dijkstra_csgraph(A, s, compiled=True)),
                                      _bits(ref))


def test_compiled_dijkstra_validates_as_scipys():
    A = sr.Matrix.from_coo([0], [1], [-1.0], nrows=2, ncols=2, device="cpu")
    with pytest.raises(sr.InvalidValue, match="dijkstra_csgraph: A's weights must be"):
        sr.traversal.dijkstra_csgraph(A, 0, compiled=True)
    N = sr.Matrix.from_coo([0], [1], [np.nan], nrows=2, ncols=2, device="cpu")
    with pytest.raises(sr.InvalidValue, match="NaN"):
        sr.traversal.dijkstra_csgraph(N, 0, compiled=True)
    B = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=2, device="cpu")
    with pytest.raises(sr.InvalidIndex, match=r"source must lie in \[0, 2\), got 2"):
        sr.traversal.dijkstra_csgraph(B, 2, compiled=True)
    with pytest.raises(sr.DomainMismatch, match="source must be an integer"):
        sr.traversal.dijkstra_csgraph(B, 0.0, compiled=True)
    with pytest.raises(sr.DomainMismatch, match="compiled must be a bool"):
        sr.traversal.dijkstra_csgraph(B, 0, compiled="no")
    with pytest.raises(sr.DimensionMismatch):
        sr.traversal.dijkstra_csgraph(
            sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device="cpu"), 0, compiled=True)


def test_without_numba_compiled_runs_scipys(monkeypatch):
    monkeypatch.setattr(compiled, "ENABLED", False)
    A = sr.Matrix.from_coo([0, 1, 0], [1, 2, 2], [2.0, 3.0, 9.0], nrows=4, ncols=4, device="cpu")
    assert compiled.dijkstra_distances(A.indptr, A.indices, A.values, 0) is None
    assert sr.traversal.dijkstra_csgraph(A, 0, compiled=True).tolist() == [0, 2, 5, np.inf]


@pytest.mark.parametrize("method", ["sssp", "delta_stepping", "bellman_ford",
                                    "multi_source_sssp"])
@pytest.mark.parametrize("policy", [True, False])
def test_sssp_cpu_route_takes_the_compiled_dijkstra(monkeypatch, method, policy):
    # w >= 0 on the CPU: the compiled loop where Numba is on and CPU_COMPILED_DIJKSTRA is set,
    # SciPy's otherwise; the same distances either way
    calls = []
    kernel = compiled.dijkstra_distances

    def spy(*args):
        calls.append(args[3])
        return kernel(*args)

    monkeypatch.setattr(compiled, "dijkstra_distances", spy)
    monkeypatch.setattr(sssp_module, "CPU_COMPILED_DIJKSTRA", policy)
    rng = np.random.default_rng(3)
    n = 300
    rows, cols = rng.integers(0, n, 1500), rng.integers(0, n, 1500)
    w = rng.integers(0, 9, 1500).astype(np.float32)
    A = sr.Matrix.from_coo(rows, cols, w, nrows=n, ncols=n, dup_op="min", device="cpu")
    R = A.to_scipy().astype(np.float64)
    if method == "multi_source_sssp":
        got = to_host(algorithms.multi_source_sssp(A, [0, 5, 7]))
        ref = scg.dijkstra(R, directed=True, indices=[0, 5, 7])
    else:
        got = to_host(getattr(algorithms, method)(A, 5))
        ref = scg.dijkstra(R, directed=True, indices=5)
    np.testing.assert_array_equal(np.asarray(got, np.float64), ref)
    assert bool(calls) == (policy and compiled.ENABLED)
