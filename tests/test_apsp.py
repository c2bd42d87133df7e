"""algorithms.apsp (squaring, blocked Floyd–Warshall, batched SSSP) and the csgraph facade's
floyd_warshall, against scipy.sparse.csgraph.floyd_warshall, on every backend.

The Floyd–Warshall tile is shrunk to TILE_TEST so that sizes across tile boundaries (1,
tile − 1, tile, tile + 1, several tiles) stay small on the CPU.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg
from conftest import to_host
from hypothesis import given
from hypothesis import strategies as st

import algorithms
import semiring as sr
from algorithms import csgraph
from algorithms.sssp import DistanceOverflow

apsp_mod = importlib.import_module("algorithms.apsp")  # the function algorithms.apsp shadows it

TILE_TEST = 4
SIZES = [0, 1, TILE_TEST - 1, TILE_TEST, TILE_TEST + 1, 2 * TILE_TEST + 1, 3 * TILE_TEST + 2]
METHODS = ["squaring", "floyd_warshall", "batched_sssp", "auto"]
DTYPES = [np.float32, np.float64, np.int32, np.int64]


@pytest.fixture(autouse=True)
def small_tile(monkeypatch):
    monkeypatch.setattr(apsp_mod, "TILE", TILE_TEST)
    monkeypatch.setattr(apsp_mod, "TILE_CPU", TILE_TEST)
    monkeypatch.setattr(apsp_mod, "AUTO_MIN_N", 4)  # let 'auto' pick batched SSSP too


@st.composite
def graphs(draw, negative=False):
    """(n, rows, cols, weights as float64, dtype): no duplicates; weights are multiples of
    1/4 (exact in every float type) or integers; with ``negative``, w = w0 + h(u) − h(v)
    with w0 >= 0 (negative edges, no negative cycle)."""
    n = draw(st.sampled_from(SIZES) | st.integers(0, 3 * TILE_TEST + 3))
    dtype = draw(st.sampled_from(DTYPES))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.7, 1.0]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    mask = rng.random((n, n)) < density
    rows, cols = np.nonzero(mask)
    scale = 4.0 if np.dtype(dtype).kind == "f" else 1.0
    w = rng.integers(0, 40, rows.size) / scale
    if negative:
        h = rng.integers(-20, 21, n) / scale
        w = w + h[rows] - h[cols]
    keep = rows != cols if negative else np.ones(rows.size, bool)  # h cancels on loops anyway
    return n, rows[keep], cols[keep], w[keep], dtype


def _scipy(n, rows, cols, w):
    S = sp.csr_matrix((w, (rows, cols)), shape=(n, n))
    return S, csg.floyd_warshall(S) if n else np.zeros((0, 0))


def _build(n, rows, cols, w, dtype, device, kind):
    if kind == "matrix":
        return sr.Matrix.from_coo(rows, cols, w.astype(dtype), nrows=n, ncols=n,
                                  dtype=dtype, device=device)
    inf = np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    D = np.full((n, n), inf, dtype=dtype)
    D[rows, cols] = w.astype(dtype)
    if device == "gpu":
        import cupy  # noqa: PLC0415

        D = cupy.asarray(D)
    return D


def _as_float(d, dtype):
    d = to_host(d)
    out = d.astype(np.float64)
    if np.dtype(dtype).kind == "i":
        out[d == np.iinfo(dtype).max] = np.inf
    return out


def _check_pred(pred, dist, n, rows, cols, w):
    """Every reachable (i, j ≠ i) has a predecessor edge p → j with dist[i,p] + w = dist[i,j],
    the pointers lead back to i (no cycles), the others have −1; sampled paths sum right."""
    pred = to_host(pred)
    assert pred.shape == (n, n) and pred.dtype == np.int64
    W = np.full((n, n), np.inf)
    np.minimum.at(W, (rows, cols), w)
    reach = np.isfinite(dist) & ~np.eye(n, dtype=bool)
    assert np.all(pred[~reach] == -1)
    i, j = np.nonzero(reach)
    p = pred[i, j]
    assert np.all(p >= 0)
    np.testing.assert_allclose(dist[i, p] + W[p, j], dist[i, j], rtol=1e-5, atol=1e-9)
    # pointer jumping: n steps from any reachable j land on the source i (then stay: pred[i,i]
    # is −1, which we map to i)
    P = np.where(pred < 0, np.arange(n)[None, :], pred)
    cur = np.where(reach, np.arange(n)[None, :], np.arange(n)[:, None])
    for _ in range(max(n, 1).bit_length() + 1):
        cur = np.take_along_axis(P, cur, axis=1)
        P = np.take_along_axis(P, P, axis=1)
    assert np.all(cur == np.arange(n)[:, None])
    for a, b in list(zip(i, j))[:5]:
        path = algorithms.reconstruct_path(pred, int(a), int(b))
        assert path[0] == a and path[-1] == b
        np.testing.assert_allclose(W[path[:-1], path[1:]].sum(), dist[a, b], rtol=1e-5)


@given(g=graphs(), method=st.sampled_from(METHODS), kind=st.sampled_from(["matrix", "dense"]),
       want_pred=st.booleans())
def test_apsp_vs_scipy(device, g, method, kind, want_pred):
    n, rows, cols, w, dtype = g
    _, ref = _scipy(n, rows, cols, w)
    A = _build(n, rows, cols, w, dtype, device, kind)
    res = algorithms.apsp(A, method, predecessors=want_pred)
    dist = res[0] if want_pred else res
    assert _b_device(dist) == device
    assert dist.dtype == np.dtype(dtype) and dist.shape == (n, n)
    np.testing.assert_array_equal(_as_float(dist, dtype), ref)
    if want_pred:
        _check_pred(res[1], ref, n, rows, cols, w)


@given(g=graphs(negative=True), method=st.sampled_from(METHODS), want_pred=st.booleans())
def test_apsp_negative_weights(device, g, method, want_pred):
    n, rows, cols, w, dtype = g
    _, ref = _scipy(n, rows, cols, w)
    A = _build(n, rows, cols, w, dtype, device, "matrix")
    res = algorithms.apsp(A, method, predecessors=want_pred)
    dist = res[0] if want_pred else res
    np.testing.assert_array_equal(_as_float(dist, dtype), ref)
    if want_pred:
        _check_pred(res[1], ref, n, rows, cols, w)


@given(g=graphs(), method=st.sampled_from(METHODS), data=st.data())
def test_apsp_negative_cycle(device, g, method, data):
    n, rows, cols, w, dtype = g
    if n == 0:
        return
    # plant a cycle of total weight −1 through k distinct vertices
    k = data.draw(st.integers(1, n))
    cyc = np.random.default_rng(data.draw(st.integers(0, 1000))).permutation(n)[:k]
    keep = np.ones(rows.size, bool)
    nxt = np.roll(cyc, -1)
    for a, b in zip(cyc, nxt):
        keep &= ~((rows == a) & (cols == b))
    cw = np.zeros(k)
    cw[0] = -1.0
    rows = np.concatenate([rows[keep], cyc])
    cols = np.concatenate([cols[keep], nxt])
    w = np.concatenate([w[keep], cw])
    A = _build(n, rows, cols, w, dtype, device, "matrix")
    with pytest.raises(sr.NegativeCycleError) as e:
        algorithms.apsp(A, method)
    assert e.value.vertices is not None and len(e.value.vertices) > 0
    # every named vertex is on a negative closed walk: a shortest walk back to itself is < 0
    # (checked on the named ones against Bellman-Ford's reachability of the cycle)
    assert set(np.asarray(e.value.vertices).tolist()) <= set(range(n))
    if method != "batched_sssp" and method != "auto":
        assert set(cyc.tolist()) <= set(np.asarray(e.value.vertices).tolist())


def _b_device(a):
    return "cpu" if isinstance(a, np.ndarray) else "gpu"


def test_apsp_float_tolerance_and_disconnected(device):
    rng = np.random.default_rng(5)
    n = 2 * TILE_TEST + 3
    W = rng.random((n, n)) * 10
    W[: n // 2, n // 2:] = np.inf  # no edge from the first half to the second
    W[np.eye(n, dtype=bool)] = 0
    ref = csg.floyd_warshall(np.where(np.isfinite(W), W, 0))
    for method in ("squaring", "floyd_warshall", "batched_sssp"):
        A = W if device == "cpu" else __import__("cupy").asarray(W)
        dist, pred = algorithms.apsp(A, method, predecessors=True)
        d = to_host(dist)
        np.testing.assert_allclose(d, ref, rtol=1e-12)
        assert np.all(np.isinf(d[: n // 2, n // 2:]))
        r, c = np.nonzero(np.isfinite(W) & ~np.eye(n, dtype=bool))
        _check_pred(pred, ref, n, r, c, W[r, c])


def test_apsp_int_saturation_and_widening(device):
    big = 2**30 + 5  # two of them exceed int32
    A = sp.csr_matrix(np.array([[0, big, 0], [0, 0, big], [0, 0, 0]], dtype=np.int32))
    M = sr.Matrix.from_scipy(A, device=device)
    for method in ("squaring", "floyd_warshall", "batched_sssp"):
        with pytest.raises(DistanceOverflow, match="int32"):  # 2·big does not fit in int32
            algorithms.apsp(M, method)
    ok = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, big], [0, 0]], dtype=np.int32)),
                              device=device)
    d = to_host(algorithms.apsp(ok, "floyd_warshall"))
    assert d.dtype == np.int32 and d.tolist() == [[0, big], [np.iinfo(np.int32).max, 0]]
    huge = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 2**61], [0, 0]], dtype=np.int64)),
                                device=device)
    with pytest.raises(DistanceOverflow, match="int64"):
        algorithms.apsp(huge)


def test_plus_sat_numpy():
    f = apsp_mod._plus_sat_numpy
    i = np.iinfo(np.int32)
    x = np.array([i.max, 5, i.max - 1, i.min + 1, 3, i.max], dtype=np.int32)
    y = np.array([-7, i.max, 5, -5, -4, i.max], dtype=np.int32)
    assert f(x, y).tolist() == [i.max, i.max, i.max - 1, i.min, -1, i.max]


def test_negative_self_loop_native_vs_facade(device):
    A = sp.csr_matrix(np.array([[-1.0, 1.0], [0, 0]]))
    M = sr.Matrix.from_scipy(A, device=device)
    with pytest.raises(sr.NegativeCycleError) as e:
        algorithms.apsp(M)
    assert list(e.value.vertices) == [0]
    np.testing.assert_array_equal(to_host(csgraph.floyd_warshall(M)), csg.floyd_warshall(A))


@given(g=graphs(), directed=st.booleans(), unweighted=st.booleans())
def test_facade_floyd_warshall(device, g, directed, unweighted):
    n, rows, cols, w, _ = g
    S = sp.csr_matrix((w, (rows, cols)), shape=(n, n))
    G = S if device == "cpu" else sr.Matrix.from_scipy(S, device="gpu")
    if n == 0:
        return
    want_d, want_p = csg.floyd_warshall(S, directed=directed, unweighted=unweighted,
                                        return_predecessors=True)
    d, p = csgraph.floyd_warshall(G, directed=directed, unweighted=unweighted,
                                  return_predecessors=True)
    d, p = to_host(d), to_host(p)
    assert d.dtype == np.float64 and p.dtype == np.int32
    np.testing.assert_array_equal(d, want_d)
    assert np.array_equal(p == -9999, want_p == -9999)
    np.testing.assert_array_equal(to_host(csgraph.shortest_path(G, "FW", directed=directed,
                                                                unweighted=unweighted)), want_d)
    # each predecessor is the last edge of a shortest path (SciPy's tree may differ)
    i, j = np.nonzero(p >= 0)
    Wd = csg.csgraph_to_dense(S, null_value=np.inf)
    if unweighted:
        Wd = np.where(np.isfinite(Wd), 1.0, np.inf)
    if not directed:
        Wd = np.minimum(Wd, Wd.T)
    np.testing.assert_allclose(d[i, p[i, j]] + Wd[p[i, j], j], d[i, j])


def test_facade_negative_cycle_and_dense_input(device):
    neg = np.array([[0, -2.0], [1.0, 0]])
    G = neg if device == "cpu" else __import__("cupy").asarray(neg)
    with pytest.raises(csg.NegativeCycleError):
        csgraph.floyd_warshall(G)
    with pytest.raises(sr.NegativeCycleError):
        csgraph.shortest_path(G, method="FW")
    with pytest.raises(ValueError, match="indices"):
        csgraph.shortest_path(G, method="FW", indices=0)


def test_errors(device):
    with pytest.raises(ValueError, match="method"):
        algorithms.apsp(np.zeros((2, 2)), "nope")
    with pytest.raises(ValueError, match="square"):
        algorithms.apsp(np.zeros((2, 3)))
    with pytest.raises(TypeError, match="dtype"):
        algorithms.apsp(np.zeros((2, 2), dtype=np.complex64))
    with pytest.raises(ValueError, match="NaN"):
        algorithms.apsp(np.array([[0, np.nan], [0, 0]]))
    with pytest.raises(ValueError, match="tile"):
        algorithms.apsp(np.zeros((2, 2)), tile=0)
    with pytest.raises(IndexError, match="j"):
        algorithms.reconstruct_path(np.full((2, 2), -1), 0, 5)
    W = np.array([[0, 1.0], [np.inf, 0]])
    before = W.copy()
    algorithms.apsp(W, "floyd_warshall")
    np.testing.assert_array_equal(W, before)  # inputs are never modified
    assert algorithms.reconstruct_path(np.array([[-1, 0], [-1, -1]]), 1, 0).size == 0


def test_auto_and_bool_input(device, monkeypatch):
    rng = np.random.default_rng(3)
    n = 40
    S = sp.random(n, n, density=0.05, random_state=4, format="csr") * 10
    M = sr.Matrix.from_scipy(S, device=device)
    monkeypatch.setattr(apsp_mod, "AUTO_SPARSE_DENSITY", 0.1)
    assert apsp_mod._auto(M, n) == "batched_sssp"
    assert apsp_mod._auto(_build(n, *S.nonzero(), S.data, np.float64, device, "dense"), n) \
        == "floyd_warshall"
    np.testing.assert_allclose(to_host(algorithms.apsp(M)), csg.floyd_warshall(S), rtol=1e-12)
    B = rng.random((n, n)) < 0.1
    Bd = B if device == "cpu" else __import__("cupy").asarray(B)
    d = to_host(algorithms.apsp(Bd, "squaring"))
    assert d.dtype == np.float64
    np.testing.assert_array_equal(d, csg.floyd_warshall(sp.csr_matrix(B.astype(float))))


def test_progress_bar(capsys):
    pytest.importorskip("tqdm")
    W = np.array([[0, 1.0, 5], [np.inf, 0, 1], [np.inf, np.inf, 0]])
    d = algorithms.apsp(W, "floyd_warshall", progress=True)
    assert d[0, 2] == 2
    assert "apsp" in capsys.readouterr().err


def test_default_tiles_several_rounds(device):
    """The real tile sizes (not the shrunk one): several rounds and a ragged last tile."""
    tile = 256 if device == "gpu" else 64  # TILE and TILE_CPU (the fixture shrank them)
    n = 2 * tile + 3
    rng = np.random.default_rng(11)
    W = np.where(rng.random((n, n)) < 4 / n, rng.integers(1, 256, (n, n)), 0).astype(np.float32)
    S = sp.csr_matrix(W)
    M = sr.Matrix.from_scipy(S, device=device)
    ref = csg.floyd_warshall(S)
    for method in ("floyd_warshall", "squaring", "batched_sssp"):
        d = to_host(algorithms.apsp(M, method, tile=tile))
        assert d.dtype == np.float32
        np.testing.assert_array_equal(d.astype(np.float64), ref)
