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
from oracle import dense_mxm
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
    monkeypatch.setattr(apsp_mod, "TILE_INT", TILE_TEST)
    monkeypatch.setattr(apsp_mod, "TILE_CPU", TILE_TEST)
    monkeypatch.setattr(apsp_mod, "TILE_U16", 2 * TILE_TEST)  # even: whole words
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
    rows, cols, w = _weights(np.random.default_rng(seed), n, density, dtype, negative)
    return n, rows, cols, w, dtype


def _weights(rng, n, density, dtype, negative):
    """Edges of density ``density`` with weights w0 (+ h(u) − h(v) with ``negative``, then
    without self-loops: h cancels on them anyway)."""
    mask = rng.random((n, n)) < density
    rows, cols = np.nonzero(mask)
    scale = 4.0 if np.dtype(dtype).kind == "f" else 1.0
    w = rng.integers(0, 40, rows.size) / scale
    if negative:
        h = rng.integers(-20, 21, n) / scale
        w = w + h[rows] - h[cols]
        keep = rows != cols
        rows, cols, w = rows[keep], cols[keep], w[keep]
    return rows, cols, w


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
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

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
    for dt in (np.float32, np.float64):  # on the array's device, with infinities of both signs
        bad = np.array([[0, np.inf, 1], [-np.inf, 0, np.nan], [2, 3, 0]], dtype=dt)
        with pytest.raises(ValueError, match="NaN"):
            algorithms.apsp(_to_dev(device, bad))
        # every method, a streamed run, predecessors (the GPU checks a dense float array
        # in D0's copy where a run makes one, first on every other path)
        for method, kw in (("floyd_warshall", {}), ("squaring", {}), ("batched_sssp", {}),
                           ("floyd_warshall", {"memory_budget": 170}),
                           ("floyd_warshall", {"predecessors": True}),
                           ("auto", {"memory_budget": 170, "predecessors": True})):
            with pytest.raises(ValueError, match="NaN"):
                algorithms.apsp(_to_dev(device, bad), method, **kw)
    assert algorithms.apsp(_to_dev(device, np.zeros((0, 0), np.float32))).shape == (0, 0)
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
    tile = 512 if device == "gpu" else 64  # TILE and TILE_CPU (the fixture shrank them; float32)
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


# ------------------------------------------------------------------------------ streamed FW
# D kept in host memory, row strips streamed through the device (algorithms._apsp_stream):
# forced by a memory_budget below the in-memory need, sized so n spans several pivot blocks.

stream_mod = importlib.import_module("algorithms._apsp_stream")


@st.composite
def stream_cases(draw):
    """(n, rows, cols, w, dtype, B, T, kind): a graph as ``graphs`` (negative edges without
    negative cycles half the time), a pivot block B (1, a few, not dividing n, or ≥ n) and a
    tile height T (rows per streamed strip; None: the default min(B, STREAM_ROWS))."""
    negative = draw(st.booleans())
    n = draw(st.sampled_from([1, 2, 7, 33, 64, 70]) | st.integers(1, 40))
    dtype = draw(st.sampled_from(DTYPES))
    density = draw(st.sampled_from([0.0, 0.05, 0.2, 0.6, 1.0]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rows, cols, w = _weights(rng, n, density, dtype, negative)
    # B = 1 costs n rounds of n strips each: keep it to small n (CPU time)
    B = draw(st.sampled_from([1, 2, 3, 5]) if n <= 24 else st.sampled_from([1, 5, 9, 16]))
    B = draw(st.sampled_from([B, n, n + 3, max(1, n - 1)]))
    T = draw(st.sampled_from([None, None, 1, 2, 7]))
    if T is not None and n > 24:
        T = max(T, 5)
    kind = draw(st.sampled_from(["matrix", "dense"]))
    return n, rows, cols, w, dtype, B, T, kind


def _streamed(A, n, dtype, B, T, monkeypatch):
    """apsp(A) streamed with pivot blocks of B and tiles of T rows: through the public
    memory_budget when a budget can pick B (B < n), else the module function with B forced.
    Asserts the streamed path ran."""
    s = np.dtype(dtype).itemsize
    if T is not None:
        monkeypatch.setattr(stream_mod, "STREAM_ROWS", T)
    runs = []
    real = stream_mod.floyd_warshall_streamed

    def spy(*args, **kw):
        runs.append(args)
        return real(*args, **kw)

    monkeypatch.setattr(stream_mod, "floyd_warshall_streamed", spy)
    budget = stream_mod.stream_need(n, B, s, TILE_TEST)
    if B < n and budget < apsp_mod._in_memory_need(n, dtype, dtype, TILE_TEST, False):
        assert stream_mod.block_width("apsp", n, s, TILE_TEST, budget) == B
        res = algorithms.apsp(A, memory_budget=budget)
    else:  # B ≥ n (one round; a budget that allows it already fits the in-memory run)
        G, n2, dev, out_type, bounds = apsp_mod._prepare(A, "apsp")
        work = apsp_mod._work_type("apsp", out_type, n2, bounds)
        res = spy(G, n2, dev, work, out_type, apsp_mod._semiring_of(work), TILE_TEST, None,
                  False, "apsp", block=B)
    assert len(runs) == 1
    return res


@given(case=stream_cases())
def test_apsp_streamed_vs_scipy(device, case, monkeypatch):
    n, rows, cols, w, dtype, B, T, kind = case
    _, ref = _scipy(n, rows, cols, w)
    A = _build(n, rows, cols, w, dtype, device, kind)
    A_before = to_host(A.to_dense() if kind == "matrix" else A).copy()
    with monkeypatch.context() as mp:
        dist = _streamed(A, n, dtype, B, T, mp)
    assert isinstance(dist, np.ndarray)  # host memory, whatever A's device
    assert dist.dtype == np.dtype(dtype) and dist.shape == (n, n)
    np.testing.assert_array_equal(_as_float(dist, dtype), ref)
    np.testing.assert_array_equal(to_host(A.to_dense() if kind == "matrix" else A), A_before)


@given(g=graphs(), B=st.sampled_from([1, 2, 3, 5]), T=st.sampled_from([None, 1, 3]),
       data=st.data())
def test_apsp_streamed_negative_cycle(device, g, B, T, data, monkeypatch):
    n, rows, cols, w, dtype = g
    if n == 0:
        return
    k = data.draw(st.integers(1, n))
    cyc = np.random.default_rng(data.draw(st.integers(0, 1000))).permutation(n)[:k]
    nxt = np.roll(cyc, -1)
    keep = np.ones(rows.size, bool)
    for a, b in zip(cyc, nxt):
        keep &= ~((rows == a) & (cols == b))
    cw = np.zeros(k)
    cw[0] = -1.0
    A = _build(n, np.concatenate([rows[keep], cyc]), np.concatenate([cols[keep], nxt]),
               np.concatenate([w[keep], cw]), dtype, device, "matrix")
    with monkeypatch.context() as mp, pytest.raises(sr.NegativeCycleError) as e:
        _streamed(A, n, dtype, B, T, mp)
    named = set(np.asarray(e.value.vertices).tolist())
    assert set(cyc.tolist()) <= named <= set(range(n))
    assert str(int(np.asarray(e.value.vertices)[0])) in str(e.value)


def test_apsp_streamed_disconnected_and_isolated(device):
    """Two components, isolated vertices, self-loops (positive and zero), explicit zero
    edges; B = 4 over n = 23 (a ragged last block), dense float input."""
    n = 23
    W = np.full((n, n), np.inf)
    rng = np.random.default_rng(2)
    for part in (np.arange(0, 10), np.arange(12, 20)):  # 10, 11, 20, 21, 22 isolated
        r, c = rng.choice(part, (2, 30))
        W[r, c] = rng.integers(0, 9, 30)
    W[3, 3], W[14, 14], W[5, 6] = 4.0, 0.0, 0.0
    ref = csg.floyd_warshall(csg.csgraph_from_dense(W, null_value=np.inf))
    A = W if device == "cpu" else __import__("cupy").asarray(W)
    budget = stream_mod.stream_need(n, 4, 8, TILE_TEST)
    d = algorithms.apsp(A, "floyd_warshall", memory_budget=budget)
    assert isinstance(d, np.ndarray)
    np.testing.assert_array_equal(d, ref)
    assert np.all(np.isinf(d[:10, 12:])) and np.all(d[np.arange(n), np.arange(n)] == 0)


def test_apsp_streamed_int_widening(device):
    """int32 weights whose sums need int64: the streamed run relaxes in int64 and checks the
    range at the end, as the in-memory one."""
    big = 2**30 + 5
    n = 9
    path = np.zeros((n, n), dtype=np.int32)
    path[0, 1], path[1, 2] = big, big  # 0 → 2 is 2·big: outside int32
    M = sr.Matrix.from_scipy(sp.csr_matrix(path), device=device)
    budget = stream_mod.stream_need(n, 2, 8, TILE_TEST)
    with pytest.raises(DistanceOverflow, match="int32"):
        algorithms.apsp(M, memory_budget=budget)
    path[1, 2] = -big + 7  # 0 → 2 is 12, fine
    M = sr.Matrix.from_scipy(sp.csr_matrix(path), device=device)
    d = algorithms.apsp(M, memory_budget=budget)
    assert isinstance(d, np.ndarray) and d.dtype == np.int32
    ref = csg.floyd_warshall(sp.csr_matrix(path.astype(np.float64)))
    np.testing.assert_array_equal(_as_float(d, np.int32), ref)


def test_apsp_memory_budget_errors(device):
    W = np.array([[0, 1.0, 3], [np.inf, 0, 1], [1, np.inf, 0]])
    A = W if device == "cpu" else __import__("cupy").asarray(W)
    for bad in (1.5, "100", True, np.float64(1e6)):
        with pytest.raises(TypeError, match="memory_budget must be an integer"):
            algorithms.apsp(A, memory_budget=bad)
    for bad in (0, -5):
        with pytest.raises(ValueError, match=f"memory_budget must be positive, got {bad}"):
            algorithms.apsp(A, memory_budget=bad)
    for method in ("squaring", "batched_sssp"):
        with pytest.raises(ValueError, match="memory_budget applies to method"):
            algorithms.apsp(A, method, memory_budget=10**9)
    least = stream_mod.stream_need(3, 1, 8, TILE_TEST)
    with pytest.raises(MemoryError, match=f"at least {least} bytes") as e:
        algorithms.apsp(A, memory_budget=least - 1)
    assert isinstance(e.value, sr.SemiringError)
    assert e.value.needed == least and e.value.free == least - 1
    assert "memory_budget (=%d bytes)" % (least - 1) in str(e.value)
    d = algorithms.apsp(A, memory_budget=least)  # exactly enough: blocks of one vertex
    np.testing.assert_array_equal(d, csg.floyd_warshall(np.where(np.isinf(W), 0, W)))
    d = algorithms.apsp(A, "floyd_warshall", memory_budget=np.int64(least))  # NumPy ints too
    assert isinstance(d, np.ndarray) and d[1, 0] == 2
    # predecessors cannot stream: the error names the bytes the in-memory run needs
    need = apsp_mod._in_memory_need(3, np.float64, np.float64, TILE_TEST, True)
    with pytest.raises(MemoryError, match=f"predecessors=True needs .*{need} bytes"):
        algorithms.apsp(A, predecessors=True, memory_budget=need - 1)
    dist, pred = algorithms.apsp(A, predecessors=True, memory_budget=need)  # fits: in memory
    assert to_host(pred).shape == (3, 3)
    np.testing.assert_array_equal(W, np.array([[0, 1.0, 3], [np.inf, 0, 1], [1, np.inf, 0]]))


def test_apsp_streamed_only_when_needed(device, monkeypatch):
    """A budget at least the in-memory need keeps the in-memory run (result on A's device);
    below it the run streams (result on the host). On the GPU without a budget, the free
    memory times MEMORY_SAFETY decides."""
    n = 20
    rng = np.random.default_rng(8)
    W = np.where(rng.random((n, n)) < 0.2, rng.integers(1, 9, (n, n)), 0).astype(np.float32)
    S = sp.csr_matrix(W)
    M = sr.Matrix.from_scipy(S, device=device)
    ref = csg.floyd_warshall(S)
    need = apsp_mod._in_memory_need(n, np.float32, np.float32, TILE_TEST, False)
    d = algorithms.apsp(M, memory_budget=need)
    assert _b_device(d) == device
    np.testing.assert_array_equal(to_host(d), ref)
    d = algorithms.apsp(M, memory_budget=need - 1)
    assert isinstance(d, np.ndarray)
    np.testing.assert_array_equal(d, ref)
    assert _b_device(algorithms.apsp(M, "floyd_warshall")) == device  # no budget: fits
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        free = cupy.cuda.Device().mem_info[0] + cupy.get_default_memory_pool().free_bytes()
        target = (stream_mod.stream_need(n, 3, 4, TILE_TEST) + need) // 2
        monkeypatch.setattr(apsp_mod, "MEMORY_SAFETY", target / free)
        for method in ("auto", "floyd_warshall"):
            d = algorithms.apsp(M, method)
            assert isinstance(d, np.ndarray)  # streamed: the "device" is nearly full
            np.testing.assert_array_equal(d, ref)


def test_block_width_policy(monkeypatch):
    n, s, t = 1000, 4, 64
    least = stream_mod.stream_need(n, 1, s, t)
    assert stream_mod.block_width("apsp", n, s, t, least) == 1
    for b in (2, 17, 100, 255):
        need = stream_mod.stream_need(n, b, s, t)
        assert stream_mod.block_width("apsp", n, s, t, need) == b
        assert stream_mod.block_width("apsp", n, s, t, need - 1) == b - 1
    # wide blocks are whole multiples of STREAM_ALIGN; never beyond n or STREAM_MAX_BLOCK
    assert stream_mod.block_width("apsp", n, s, t, stream_mod.stream_need(n, 700, s, t)) == 512
    assert stream_mod.block_width("apsp", n, s, t, 10**15) == n
    monkeypatch.setattr(stream_mod, "STREAM_MAX_BLOCK", 300)
    assert stream_mod.block_width("apsp", n, s, t, 10**15) == 256
    # the need grows with the block, the tile and n
    needs = [stream_mod.stream_need(n, b, s, t) for b in range(1, 50)]
    assert needs == sorted(needs) and len(set(needs)) == len(needs)
    assert stream_mod.stream_need(n + 1, 10, s, t) > stream_mod.stream_need(n, 10, s, t)


def test_stream_need_lookahead_buffers(monkeypatch):
    """The lookahead's second R / D_KK costs B · n + B² items; without it the need is the
    single-buffered one."""
    n, s, t, b = 1000, 4, 64, 300
    monkeypatch.setattr(stream_mod, "STREAM_LOOKAHEAD", False)
    one = stream_mod.stream_need(n, b, s, t)
    rows = min(b, stream_mod.STREAM_ROWS)
    assert one == s * (b * n + 5 * b * b + 3 * t * b + 3 * t * t
                       + stream_mod.STREAM_SLOTS * (rows * n + 2 * rows * b))
    monkeypatch.setattr(stream_mod, "STREAM_LOOKAHEAD", True)
    assert stream_mod.stream_need(n, b, s, t) - one == s * (b * n + b * b)


def test_stream_writers():
    ev = [object() for _ in range(4)]
    written = [(0, 3, ev[0]), (3, 5, ev[1]), (7, 9, ev[2]), (9, 12, ev[3])]
    assert stream_mod._writers(written, 0, 1) == [ev[0]]
    assert stream_mod._writers(written, 2, 4) == [ev[0], ev[1]]
    assert stream_mod._writers(written, 5, 7) == []  # a gap (a pivot's rows)
    assert stream_mod._writers(written, 4, 8) == [ev[1], ev[2]]
    assert stream_mod._writers(written, 0, 12) == ev
    assert stream_mod._writers(written, 11, 20) == [ev[3]]
    assert stream_mod._writers([], 0, 5) == []


def test_overlap_summary_intervals():
    u = stream_mod._union([(3, 4), (0, 1), (0.5, 2), (2, 2.5), (5, 5)])
    assert u == [(0, 2.5), (3, 4)]
    assert stream_mod._intersection(u, [(1, 3.5), (3.9, 10)]) == [(1, 2.5), (3, 3.5), (3.9, 4)]
    # two slots: slot1's upload and slot0's download run under the other's product
    spans = [("pivot", "h2d", 0, 0.0, 1.0), ("pivot", "compute", 0, 1.0, 2.0),
             ("pivot", "d2h", 0, 2.0, 3.0),
             ("slot0", "h2d", 0, 3.0, 4.0), ("slot0", "compute", 0, 4.0, 6.0),
             ("slot1", "h2d", 0, 4.0, 5.0), ("slot0", "d2h", 0, 6.0, 7.0),
             ("slot1", "compute", 0, 6.0, 8.0), ("slot1", "d2h", 0, 8.0, 9.0)]
    o = stream_mod.overlap_summary(spans)
    assert o["span_s"] == 9.0 and o["busy_s"] == 9.0
    assert o["h2d_s"] == 3.0 and o["d2h_s"] == 3.0 and o["copy_s"] == 6.0
    assert o["compute_s"] == 5.0 and o["copy_under_compute_s"] == 2.0
    assert o["hidden"] == pytest.approx(1 / 3)
    assert o["mean_slots"] == pytest.approx((4 + 4) / 6)  # slot1 idle in [5, 6)
    assert o["lanes"]["slot0"]["compute"] == {"spans": 1, "busy_s": 2.0}
    # strictly alternating copies and products hide nothing; no spans, no division by zero
    serial = [("slot0", k, 0, a, a + 1) for k, a in (("h2d", 0), ("compute", 1), ("d2h", 2))]
    assert stream_mod.overlap_summary(serial)["hidden"] == 0.0
    assert stream_mod.overlap_summary([])["hidden"] == 0.0


@pytest.mark.parametrize("lookahead", [False, True])
def test_streamed_trace(lookahead, monkeypatch):
    """trace() reports the plan and the bytes each way (one full pass of D per round); with
    events, three spans (upload, products, download) per pivot and per tile. On the CPU the
    closures run one after the other: nothing is hidden, one slot at a time."""
    monkeypatch.setattr(stream_mod, "STREAM_LOOKAHEAD", lookahead)
    n, B = 23, 5
    W = np.where(np.random.default_rng(3).random((n, n)) < 0.2, 1.0, np.inf)
    budget = stream_mod.stream_need(n, B, 8, TILE_TEST)
    with stream_mod.trace() as plain:
        d0 = algorithms.apsp(W, memory_budget=budget)
    with stream_mod.trace(events=True) as runs:
        d1 = algorithms.apsp(W, memory_budget=budget)
    np.testing.assert_array_equal(d0, d1)
    np.testing.assert_array_equal(d1, csg.floyd_warshall(np.where(np.isinf(W), 0, W)))
    assert len(plain) == 1 and not plain[0].spans and "overlap" not in plain[0].as_dict()
    tl = runs[0]
    rounds = -(-n // B)
    assert (tl.n, tl.block, tl.rows, tl.rounds) == (n, B, B, rounds)
    assert tl.lookahead is lookahead and tl.pinned is None
    assert tl.slots == stream_mod.STREAM_SLOTS
    assert tl.bytes_h2d == tl.bytes_d2h == rounds * n * n * 8
    assert tl.tiles == rounds + sum(len(stream_mod._strips(0, k0, B))
                                    + len(stream_mod._strips(min(n, k0 + B), n, B))
                                    for k0 in range(0, n, B))
    assert len(tl.spans) == 3 * tl.tiles
    assert all(b >= a >= 0 for *_, a, b in tl.spans)
    assert min(tl.setup_s, tl.loop_s, tl.finish_s) >= 0
    o = tl.as_dict()["overlap"]
    assert o["hidden"] == 0.0 and o["mean_slots"] == pytest.approx(1.0)
    assert {k for lane in o["lanes"].values() for k in lane} == {"h2d", "compute", "d2h"}


def test_streamed_progress_bar(capsys):
    pytest.importorskip("tqdm")
    n = 12
    W = np.where(np.random.default_rng(1).random((n, n)) < 0.3, 1.0, np.inf)
    d = algorithms.apsp(W, progress=True, memory_budget=stream_mod.stream_need(n, 2, 8, 4))
    np.testing.assert_array_equal(d, csg.floyd_warshall(np.where(np.isinf(W), 0, W)))
    err = capsys.readouterr().err
    assert "streamed" in err and "host memory" in err and "tile" in err


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("B,T", [(1, None), (9, 4), (16, None), (69, 5)])
def test_apsp_streamed_n70(device, dtype, B, T, monkeypatch):
    """n = 70 with negative edges (no negative cycle) over blocks of 1, 9 (70 = 7·9 + 7),
    16 and 69, tiles of 4 or 5 rows not aligned with the blocks."""
    n = 70
    rng = np.random.default_rng(B)
    rows, cols = np.nonzero(rng.random((n, n)) < 0.08)
    keep = rows != cols
    rows, cols = rows[keep], cols[keep]
    h = rng.integers(-20, 21, n)
    w = (rng.integers(0, 40, rows.size) + h[rows] - h[cols]).astype(np.float64)
    _, ref = _scipy(n, rows, cols, w)
    A = _build(n, rows, cols, w, dtype, device, "matrix")
    dist = _streamed(A, n, dtype, B, T, monkeypatch)
    assert isinstance(dist, np.ndarray) and dist.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(_as_float(dist, dtype), ref)


# The ordering of the streamed run: the same loop with "streams" that defer their closures,
# executed by a scheduler that respects only the recorded events (and the host's
# synchronize). A missing wait lets a strip read a stale R / D_KK or stale rows of D, or a
# pivot overwrite its buffers under a strip, and the distances come out wrong. Buffers start
# as garbage. Three schedulers: random interleavings; "on demand", which runs only what a
# host synchronize needs (a closure's dependencies first) and so postpones every other
# closure as long as possible (with a `mix` it now and then first runs some other stream's
# whole queue, again only with what that needs); and
# "latest first", which always runs the most recently enqueued runnable item, so later work
# overtakes earlier work wherever no wait forbids it.

class _LazyEvent:
    def __init__(self, sched, stream):
        self.sched, self.stream, self.done = sched, stream, False

    def synchronize(self):
        self.sched.complete(self.stream, self)


class _LazyStream:
    def __init__(self, sched):
        self.sched, self.items = sched, []
        sched.streams.append(self)

    def _put(self, kind, x):
        self.sched.seq += 1
        self.items.append((kind, x, self.sched.seq))

    def launch(self, fn, *args):
        self._put("run", (fn, args))

    def empty(self, shape, dtype):
        return np.full(shape, -3, dtype=dtype)  # a distance that would show if ever read

    def record(self):
        ev = _LazyEvent(self.sched, self)
        self._put("record", ev)
        return ev

    def wait_event(self, ev):
        self._put("wait", ev)

    def synchronize(self):
        self.sched.complete(self, None)

    def runnable(self):
        return bool(self.items) and (self.items[0][0] != "wait" or self.items[0][1].done)

    def step(self):
        kind, x, _ = self.items.pop(0)
        if kind == "run":
            x[0](*x[1])
        elif kind == "record":
            x.done = True


class _Sched:
    def __init__(self, seed, on_demand=False, mix=0.0, latest_first=False):
        self.rng = np.random.default_rng(seed)
        self.streams = []
        self.seq = 0
        self.on_demand, self.mix, self.latest_first = on_demand, mix, latest_first

    def complete(self, stream, event):
        """Run until ``event`` (None: everything ``stream`` holds) is done."""
        def done():
            return event.done if event is not None else not stream.items
        if not self.on_demand:
            self.run_until(done)
            return
        while not done():
            if self.mix and self.rng.random() < self.mix:
                # now and then all of some other stream's queue first (and only what that
                # needs): later work overtakes earlier work that nothing orders before it
                busy = [s for s in self.streams if s.items and s is not stream]
                if busy:
                    mix, self.mix = self.mix, 0.0  # one level: no runaway recursion
                    self.complete(busy[self.rng.integers(len(busy))], None)
                    self.mix = mix
            if done():
                break
            kind, x, _ = stream.items[0]
            if kind == "wait" and not x.done:
                self.complete(x.stream, x)  # its dependency first, and nothing else
            else:
                stream.step()

    def run_until(self, cond):
        while not cond():
            ready = [s for s in self.streams if s.runnable()]
            assert ready, "deadlock: every stream waits for an event"
            if self.latest_first:
                max(ready, key=lambda s: s.items[0][2]).step()
            else:
                ready[self.rng.integers(len(ready))].step()


def _ordering_run(g, B, T, sched, monkeypatch):
    n, rows, cols, w, dtype = g

    class Lazy(stream_mod._Host):
        def stream(self):
            return _LazyStream(sched)

    monkeypatch.setattr(stream_mod, "_Host", Lazy)
    _, ref = _scipy(n, rows, cols, w)
    A = _build(n, rows, cols, w, dtype, "cpu", "matrix")
    dist = _streamed(A, n, dtype, B, T, monkeypatch)
    np.testing.assert_array_equal(_as_float(dist, dtype), ref)
    assert all(not s.items for s in sched.streams)


@given(g=graphs(negative=True), B=st.sampled_from([1, 2, 3, 5, 8]),
       T=st.sampled_from([1, 2, 4, 7]), seed=st.integers(0, 2**32 - 1),
       lookahead=st.booleans())
def test_apsp_streamed_ordering_random_interleavings(g, B, T, seed, lookahead, monkeypatch):
    if g[0] == 0:
        return
    monkeypatch.setattr(stream_mod, "STREAM_LOOKAHEAD", lookahead)
    _ordering_run(g, B, T, _Sched(seed), monkeypatch)


@given(g=graphs(negative=True), B=st.sampled_from([1, 2, 3, 5, 8]),
       T=st.sampled_from([1, 2, 4, 7]), seed=st.integers(0, 2**32 - 1),
       lookahead=st.booleans(), slots=st.sampled_from([1, 2, 3]),
       mix=st.sampled_from([0.0, 0.0, 0.1, 0.5]))
def test_apsp_streamed_ordering_on_demand(g, B, T, seed, lookahead, slots, mix, monkeypatch):
    """Every closure runs as late as the host's waits allow: a reader of a buffer or of rows
    of D that some wait does not order after its writer runs with the stale data."""
    if g[0] == 0:
        return
    monkeypatch.setattr(stream_mod, "STREAM_LOOKAHEAD", lookahead)
    monkeypatch.setattr(stream_mod, "STREAM_SLOTS", slots)
    _ordering_run(g, B, T, _Sched(seed, on_demand=True, mix=mix), monkeypatch)


@pytest.mark.parametrize("lookahead", [False, True])
def test_apsp_streamed_ordering_rows_of_the_round_before(lookahead, monkeypatch):
    """n = 6, B = T = 2, three slots: round 1's tiles are [4, 6) then [0, 2), round 2's
    [0, 2) then [2, 4), so round 2's tile over rows 0-1 is queued one tile after round 1's
    (fewer than STREAM_SLOTS: no host wait falls between them) and only its own wait
    orders it after that tile. The chain 0 → 2 → 4 → 5 needs round 1 (pivot 2) before
    round 2 (pivot 4) on row 0; schedulers that run a later stream's queue early find it."""
    monkeypatch.setattr(stream_mod, "STREAM_LOOKAHEAD", lookahead)
    rows, cols = np.array([0, 2, 4]), np.array([2, 4, 5])
    g = (6, rows, cols, np.ones(3), np.float64)
    for seed in range(16):
        _ordering_run(g, 2, None, _Sched(seed, on_demand=True, mix=0.5), monkeypatch)


@given(g=graphs(negative=True), B=st.sampled_from([1, 2, 3, 5, 8]),
       T=st.sampled_from([1, 2, 4, 7]), lookahead=st.booleans(),
       slots=st.sampled_from([1, 2, 3]))
def test_apsp_streamed_ordering_latest_first(g, B, T, lookahead, slots, monkeypatch):
    """Later work overtakes earlier work wherever the waits allow (a tile of round r + 1
    before round r's tile of the same rows, a pivot before the last readers of its buffers)."""
    if g[0] == 0:
        return
    monkeypatch.setattr(stream_mod, "STREAM_LOOKAHEAD", lookahead)
    monkeypatch.setattr(stream_mod, "STREAM_SLOTS", slots)
    _ordering_run(g, B, T, _Sched(0, latest_first=True), monkeypatch)


# ------------------------------------------------------------------------------ FW lookahead

LOOKAHEAD_SIZES = [1, TILE_TEST - 1, TILE_TEST, TILE_TEST + 1, 2 * TILE_TEST,
                   3 * TILE_TEST + 1, 4 * TILE_TEST + 3]


def _lanes_everywhere(monkeypatch, lanes: int, align: int):
    """Phase 3's rest over ``lanes`` streams for every work type and size, row boundaries on
    multiples of ``align`` (FW_REST_LANES, FW_LANES_TYPES, FW_LANES_MIN_N, FW_LANE_ALIGN)."""
    monkeypatch.setattr(apsp_mod, "FW_REST_LANES", lanes)
    monkeypatch.setattr(apsp_mod, "FW_LANES_TYPES", frozenset(
        np.dtype(t) for t in (np.float32, np.float64, np.int32, np.int64, np.uint16)))
    monkeypatch.setattr(apsp_mod, "FW_LANES_MIN_N", 0)
    monkeypatch.setattr(apsp_mod, "FW_LANE_ALIGN", align)


def _fw_direct(device, D0, dtype, lookahead, monkeypatch, tile=TILE_TEST):
    """apsp_mod._floyd_warshall on a copy of D0 (the work type's infinity for no edge)."""
    monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", lookahead)
    work = np.dtype(dtype)
    D = D0.copy() if device == "cpu" else __import__("cupy").asarray(D0)
    bound = None
    if work.kind == "i":  # as apsp computes it: from the finite weights
        fin = D0[D0 != np.iinfo(work).max]
        bound = apsp_mod._sum_bound(D0.shape[0], (int(fin.min()), int(fin.max())))
    out = apsp_mod._floyd_warshall(D, apsp_mod._semiring_of(work), work, tile,
                                   apsp_mod._NoBar(), bound)
    assert out is D  # in place
    return to_host(D)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
@pytest.mark.parametrize("n", LOOKAHEAD_SIZES)
def test_fw_lookahead_on_off_vs_scipy(device, n, dtype, monkeypatch):
    """Lookahead on and off: identical distances (each entry gets the same minima), equal to
    SciPy; negative weights (no negative cycle), explicit zero weights, isolated vertices,
    the last round partial or full."""
    rng = np.random.default_rng(n * 7 + np.dtype(dtype).itemsize)
    rows, cols, w = _weights(rng, n, 0.3, dtype, False)
    w[: w.size // 8] = 0.0  # explicit zero-weight edges (before the potentials)
    scale = 4.0 if np.dtype(dtype).kind == "f" else 1.0
    h = rng.integers(-20, 21, n) / scale  # negative edges, no negative cycle
    w = w + h[rows] - h[cols]
    if n > 2:  # vertex n-1 isolated
        keep = (rows != n - 1) & (cols != n - 1)
        rows, cols, w = rows[keep], cols[keep], w[keep]
    _, ref = _scipy(n, rows, cols, w)
    got = {}
    for look in (False, True):
        monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", look)
        A = _build(n, rows, cols, w, dtype, device, "matrix")
        d = algorithms.apsp(A, "floyd_warshall")
        assert d.dtype == np.dtype(dtype) and _b_device(d) == device
        got[look] = to_host(d)
        np.testing.assert_array_equal(_as_float(d, dtype), ref)
    np.testing.assert_array_equal(got[True], got[False])
    if n > 2:
        assert np.all(np.isinf(ref[n - 1, : n - 1])) and np.all(np.isinf(ref[: n - 1, n - 1]))


@given(g=graphs(negative=True), look=st.booleans(), tile=st.sampled_from([1, 2, 3, 5]))
def test_fw_lookahead_random_tiles(device, g, look, tile, monkeypatch):
    """Any tile (1: one pivot a round) against SciPy, and the two modes bit for bit on the
    work matrix itself (int32/int64 in the saturating semiring, floats in min_plus)."""
    n, rows, cols, w, dtype = g
    monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", look)
    _, ref = _scipy(n, rows, cols, w)
    A = _build(n, rows, cols, w, dtype, device, "dense")
    np.testing.assert_array_equal(_as_float(algorithms.apsp(A, "floyd_warshall", tile=tile),
                                            dtype), ref)
    if n:
        D0 = apsp_mod._dense_of(to_host(A), n, np.dtype(dtype), np)
        np.testing.assert_array_equal(_fw_direct(device, D0, dtype, True, monkeypatch, tile),
                                      _fw_direct(device, D0, dtype, False, monkeypatch, tile))


def _assert_cycle_named(n, where, dtype, device, **kw):
    """Floyd–Warshall on a cycle through ``where`` (total weight −1) raises
    NegativeCycleError naming every vertex of the cycle."""
    cyc = np.asarray(where)
    nxt = np.roll(cyc, -1)
    w = np.full(cyc.size, 2.0)
    w[0] = -2.0 * cyc.size + 1  # total −1
    A = _build(n, cyc, nxt, w, dtype, device, "matrix")
    with pytest.raises(sr.NegativeCycleError) as e:
        algorithms.apsp(A, "floyd_warshall", **kw)
    assert set(cyc.tolist()) <= set(np.asarray(e.value.vertices).tolist())


@pytest.mark.parametrize("look", [False, True])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.int64])
@pytest.mark.parametrize("n,where", [(1, [0]), (TILE_TEST + 1, [TILE_TEST]),
                                     (3 * TILE_TEST + 2, [1, 2 * TILE_TEST + 1]),
                                     (3 * TILE_TEST + 2, [TILE_TEST - 1, TILE_TEST, 3 * TILE_TEST + 1])])
def test_fw_lookahead_negative_cycle(device, n, where, dtype, look, monkeypatch):
    """A negative cycle through vertices in different rounds (the last one partial), or a
    negative self-loop: NegativeCycleError naming every vertex of the cycle, either mode."""
    monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", look)
    _assert_cycle_named(n, where, dtype, device)


def test_fw_lookahead_int32_limits(device, monkeypatch):
    """int32 weights near the limits: the relaxation widens to int64 (n·max|w| beyond a
    quarter of the range), lookahead on and off agree with SciPy; the int32 result."""
    big = 2**28 + 3
    n = 2 * TILE_TEST + 1
    rows = np.arange(n - 1)
    cols = rows + 1
    w = np.where(rows % 2 == 0, big, -big + 1).astype(np.float64)
    _, ref = _scipy(n, rows, cols, w)
    for look in (False, True):
        monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", look)
        d = algorithms.apsp(_build(n, rows, cols, w, np.int32, device, "matrix"),
                            "floyd_warshall")
        assert d.dtype == np.int32
        np.testing.assert_array_equal(_as_float(d, np.int32), ref)


@pytest.mark.parametrize("rest", [1, 2, 3])
@pytest.mark.parametrize("cross_side", [False, True])
@pytest.mark.parametrize("one_launch", [True, False])
def test_fw_lookahead_schedule(monkeypatch, one_launch, cross_side, rest):
    """The lookahead's schedule (CPU, recorded with vector clocks on every lane: main, side
    and the other rest lanes of FW_REST_LANES): every round's relaxations cover D but the
    round's own cross; round r + 1's pivot work (its cross, read and written) follows round
    r's relaxations of that cross and precedes every relaxation of round r + 1; and no two
    operations left unordered by the events touch a common entry of D; the caller's stream
    ends after everything. The next cross relaxed on the main lane or on the side
    (FW_CROSS_SIDE); the rest of a round split over 1-3 lanes."""
    monkeypatch.setattr(apsp_mod, "FW_ONE_LAUNCH", one_launch)
    monkeypatch.setattr(apsp_mod, "FW_CROSS_SIDE", cross_side)
    _lanes_everywhere(monkeypatch, rest, 1)
    n, tile = 4 * TILE_TEST + 3, TILE_TEST
    rng = np.random.default_rng(2)
    rows, cols, w = _weights(rng, n, 0.4, np.float64, True)
    D0 = apsp_mod._dense_of(sr.Matrix.from_coo(rows, cols, w, nrows=n, ncols=n,
                                               device="cpu"), n, np.dtype(np.float64), np)
    ops = []  # (kind, round, lane, clock, footprint)
    names = ["main", "side"] + [f"rest{i}" for i in range(1, rest)]

    class Lanes:
        def __init__(self, device, k=1):
            assert k == rest
            self.rest = k
            self.lane, self.vc = "main", {x: [0] * len(names) for x in names}

        def _tick(self):
            self.vc[self.lane][names.index(self.lane)] += 1
            return tuple(self.vc[self.lane])

        def _wait(self, waiter, on):
            self.vc[waiter] = [max(a, b) for a, b in zip(self.vc[waiter], self.vc[on])]

        def _rest_names(self):
            return ["main"] + names[2:]

        def fork(self):
            for x in self._rest_names():
                self._wait("side", x)

        def join(self):
            for x in self._rest_names():
                self._wait(x, "side")

        def gather(self):
            for x in names[2:]:
                self._wait("main", x)

        def _on(self, name):
            lanes = self

            class Ctx:
                def __enter__(self):
                    lanes.lane = name

                def __exit__(self, *exc):
                    lanes.lane = "main"

            return Ctx()

        def on_side(self):
            return self._on("side")

        def on_rest(self, i):
            return self._on(self._rest_names()[i])

    lanes = []
    real_pivot, real_relax = apsp_mod._pivot, apsp_mod._relax
    panels = {}

    def pivot(D, k0, k1, *args):
        R, C = real_pivot(D, k0, k1, *args)
        foot = np.zeros((n, n), bool)
        foot[k0:k1, :] = foot[:, k0:k1] = True
        panels[id(C)] = k0 // tile
        ops.append(("pivot", k0 // tile, lanes[0].lane, lanes[0]._tick(), foot))
        return R, C

    def relax(D, C, R, rws, cls, *args, skip_rows=None, skip_cols=None):
        real_relax(D, C, R, rws, cls, *args, skip_rows=skip_rows, skip_cols=skip_cols)
        foot = np.zeros((n, n), bool)
        foot[rws[0]:rws[1], cls[0]:cls[1]] = True
        if skip_rows is not None:  # bands relative to the rectangle
            foot[rws[0] + skip_rows[0]:rws[0] + skip_rows[1], :] = False
        if skip_cols is not None:
            foot[:, cls[0] + skip_cols[0]:cls[0] + skip_cols[1]] = False
        ops.append(("relax", panels[id(C)], lanes[0].lane, lanes[0]._tick(), foot))

    def make_lanes(device, k=1):
        lanes.append(Lanes(device, k))
        return lanes[0]

    monkeypatch.setattr(apsp_mod, "_Lanes", make_lanes)
    monkeypatch.setattr(apsp_mod, "_pivot", pivot)
    monkeypatch.setattr(apsp_mod, "_relax", relax)
    got = _fw_direct("cpu", D0, np.float64, True, monkeypatch, tile)
    monkeypatch.setattr(apsp_mod, "_pivot", real_pivot)
    monkeypatch.setattr(apsp_mod, "_relax", real_relax)
    np.testing.assert_array_equal(got, _fw_direct("cpu", D0, np.float64, False, monkeypatch,
                                                  tile))

    def before(x, y):  # x happens before y
        return x[3] != y[3] and all(a <= b for a, b in zip(x[3], y[3]))

    rounds = -(-n // tile)
    assert [o[1] for o in ops if o[0] == "pivot"] == list(range(rounds))
    # every round's panels from the side stream (its pool arena: see _floyd_warshall)
    assert {o[2] for o in ops if o[0] == "pivot"} == {"side"}
    for r in range(rounds):
        mine = [o for o in ops if o[0] == "relax" and o[1] == r]
        cover = sum(o[4].astype(int) for o in mine)
        piv = next(o for o in ops if o[0] == "pivot" and o[1] == r)
        # every entry relaxed in round r once, but the round's own cross, which phase 2
        # left final (FW_SKIP_CROSS)
        assert np.all(cover[~piv[4]] == 1) and np.all(cover[piv[4]] == 0)
        assert all(before(piv, o) for o in mine)
        if r + 1 < rounds:
            nxt = next(o for o in ops if o[0] == "pivot" and o[1] == r + 1)
            cross = nxt[4]
            assert all(before(o, nxt) for o in mine if (o[4] & cross).any())
            assert any(not before(o, nxt) for o in mine)  # something overlaps the lookahead
    for i, x in enumerate(ops):
        for y in ops[i + 1:]:
            if not before(x, y) and not before(y, x):
                assert not (x[4] & y[4]).any(), (x[:3], y[:3])
    end = lanes[0].vc["main"]  # the caller's stream at the end has seen every operation
    assert all(all(a <= b for a, b in zip(o[3], end)) for o in ops)
    if rest > 1:  # the rest of some round ran on another lane beside main
        assert {o[2] for o in ops if o[0] == "relax"} >= {"main", "rest1"}


@given(g=graphs(negative=True), look=st.booleans(), tile=st.sampled_from([3, 5, 8]),
       sub=st.sampled_from([1, 2, 3]), skip=st.booleans(), first=st.sampled_from([0, 1, 2]),
       side=st.booleans(), lanes=st.sampled_from([1, 2, 3]))
def test_fw_closure_by_sub_tiles_and_own_cross(device, g, look, tile, sub, skip, first, side,
                                               lanes, monkeypatch):
    """Phase 1 by blocked Floyd–Warshall over sub-tiles (CLOSURE_SUB below the tile), phase
    3 with or without the round's own cross (FW_SKIP_CROSS), a smaller first round
    (FW_FIRST_TILE), the next cross on the side (FW_CROSS_SIDE), the rest over 1-3 streams
    (FW_REST_LANES): SciPy's distances, and the work matrix bit for bit equal to squaring
    with the whole phase 3 and equal rounds without lookahead (negative weights, no
    negative cycle; exact sums)."""
    n, rows, cols, w, dtype = g
    _lanes_everywhere(monkeypatch, lanes, 2)
    _, ref = _scipy(n, rows, cols, w)
    A = _build(n, rows, cols, w, dtype, device, "dense")
    monkeypatch.setattr(apsp_mod, "CLOSURE_SUB", sub)
    monkeypatch.setattr(apsp_mod, "FW_SKIP_CROSS", skip)
    monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", look)
    monkeypatch.setattr(apsp_mod, "FW_FIRST_TILE", first)
    monkeypatch.setattr(apsp_mod, "FW_CROSS_SIDE", side)
    np.testing.assert_array_equal(_as_float(algorithms.apsp(A, "floyd_warshall", tile=tile),
                                            dtype), ref)
    if n:
        D0 = apsp_mod._dense_of(to_host(A), n, np.dtype(dtype), np)
        got = _fw_direct(device, D0, dtype, look, monkeypatch, tile)
        monkeypatch.setattr(apsp_mod, "CLOSURE_SUB", 0)
        monkeypatch.setattr(apsp_mod, "FW_SKIP_CROSS", False)
        np.testing.assert_array_equal(got, _fw_direct(device, D0, dtype, False, monkeypatch,
                                                      tile))


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
@pytest.mark.parametrize("where", [[1, 6], [0, 3, 4], [7]])
def test_fw_closure_by_sub_tiles_negative_cycle(device, dtype, where, monkeypatch):
    """A negative cycle inside one pivot tile closed by sub-tiles (tile 8, CLOSURE_SUB 3),
    or across tiles: NegativeCycleError naming the cycle's vertices."""
    monkeypatch.setattr(apsp_mod, "CLOSURE_SUB", 3)
    _assert_cycle_named(11, where, dtype, device, tile=8)


PITCH_CASES = [("min_plus", np.float32), ("max_plus", np.float32), ("min_plus", np.float64),
               ("min_plus", np.int32), ("min_plus_sat", np.int32)]


@pytest.mark.parametrize("sname,dtype", PITCH_CASES)
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (131, 70, 129), (130, 9, 257), (130, 64, 256)])
@pytest.mark.parametrize("pad,off", [(0, 0), (3, 1), (4, 4), (5, 2)])
def test_gemm_on_pitched_views(device, sname, dtype, m, k, n, pad, off):
    """gemm and gemm_accumulate with X, Y and Z rectangles of larger arrays (row pitch
    ``width + pad``, starting ``off`` columns in: aligned and unaligned pitches and bases, as
    phase 3 reads C[i0:i1], R[:, j0:j1] and writes D[i0:i1, j0:j1]) against the dense
    oracle; nothing outside Z changes and the operands are not modified. (130, 64, 256)
    with pad = off = 0 or 4 has 16-byte aligned pitches and bases: the GPU's vector loads
    and, for the saturating int32 path, its register-prefetch interior loop."""
    from semiring import dense as _dense

    semiring = apsp_mod.min_plus_sat if sname == "min_plus_sat" else getattr(sr, sname)
    dt = np.dtype(dtype)
    rng = np.random.default_rng(m + 3 * k + 7 * n + pad)
    imax = np.iinfo(dt).max if dt.kind == "i" else None

    def vals(shape):
        v = rng.integers(-60, 60, shape).astype(dt)
        hole = rng.random(shape) < 0.2
        v[hole] = imax if dt.kind == "i" else (np.inf if sname == "min_plus" else -np.inf)
        return v

    def embed(a):
        big = vals((a.shape[0] + 2, a.shape[1] + pad + off))
        big[1:-1, off:off + a.shape[1]] = a
        return big, (slice(1, -1), slice(off, off + a.shape[1]))

    Xd, Yd, Z0 = vals((m, k)), vals((k, n)), vals((m, n))
    if sname == "min_plus_sat":
        want_t = apsp_mod._plus_sat_numpy(Xd[:, :, None], Yd[None, :, :]).min(axis=1)
        bound = 1 << 12
    else:
        want_t = dense_mxm(Xd, np.ones((m, k), bool), Yd, np.ones((k, n), bool), semiring,
                           dt)[0]
        bound = None
    Xb, xs = embed(Xd)
    Yb, ys = embed(Yd)
    Zb, zs = embed(Z0)
    X, Y, Z = (_to_dev(device, a) for a in (Xb, Yb, Zb))
    got = _dense.gemm(X[xs], Y[ys], semiring, dt, bound=bound)
    np.testing.assert_array_equal(to_host(got), want_t)
    assert _dense.gemm_accumulate(Z[zs], X[xs], Y[ys], semiring, dt, bound=bound) is not None
    Zh = to_host(Z)
    np.testing.assert_array_equal(Zh[zs], semiring.add.op.apply_numpy(Z0, want_t, dt))
    outside = np.ones(Zb.shape, bool)
    outside[zs] = False
    np.testing.assert_array_equal(Zh[outside], Zb[outside])
    np.testing.assert_array_equal(to_host(X), Xb)
    np.testing.assert_array_equal(to_host(Y), Yb)


def _to_dev(device, a):
    return a.copy() if device == "cpu" else __import__("cupy").asarray(a)


def test_fw_lookahead_gpu_real_tile(device, monkeypatch):
    """GPU: the production TILE (several rounds, a ragged last one) with the tuned kernel's
    real grids, lookahead against no lookahead bit for bit, float32 and the saturating int32
    DPX path, on the default stream and under a caller's non-blocking stream (the streamed
    variant calls it so), and against SciPy."""
    if device != "gpu":
        pytest.skip("the streams are the GPU's")
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    n = 3 * 256 + 9
    rng = np.random.default_rng(8)
    W = np.where(rng.random((n, n)) < 8 / n, rng.integers(1, 256, (n, n)), 0).astype(np.float64)
    S = sp.csr_matrix(W)
    ref = csg.floyd_warshall(S)
    for dtype in (np.float32, np.int32):
        res = {}
        for look in (False, True):
            monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", look)
            M = sr.Matrix.from_scipy(S.astype(dtype), device="gpu")
            res[look] = to_host(algorithms.apsp(M, "floyd_warshall", tile=256))
        np.testing.assert_array_equal(res[True], res[False])
        np.testing.assert_array_equal(_as_float(res[True], dtype), ref)
        # a 512 tile: phase 1 by sub-tiles of CLOSURE_SUB (256), two rounds
        np.testing.assert_array_equal(to_host(algorithms.apsp(
            sr.Matrix.from_scipy(S.astype(dtype), device="gpu"), "floyd_warshall", tile=512)),
            res[True])
        # the next cross relaxed on the side stream (FW_CROSS_SIDE)
        side = apsp_mod.FW_CROSS_SIDE
        monkeypatch.setattr(apsp_mod, "FW_CROSS_SIDE", not side)
        np.testing.assert_array_equal(to_host(algorithms.apsp(
            sr.Matrix.from_scipy(S.astype(dtype), device="gpu"), "floyd_warshall", tile=256)),
            res[True])
        monkeypatch.setattr(apsp_mod, "FW_CROSS_SIDE", side)
        with cp.cuda.Stream(non_blocking=True) as s:
            d = algorithms.apsp(sr.Matrix.from_scipy(S.astype(dtype), device="gpu"),
                                "floyd_warshall", tile=256)
            s.synchronize()
        np.testing.assert_array_equal(to_host(d), res[True])


# ------------------------------------------------------------------------------ packed u16 path

def _spy_u16(monkeypatch):
    """Count the packed path's products (semiring.dense.gemm_u16 / gemm_u16_accumulate)."""
    calls = []
    for name in ("gemm_u16", "gemm_u16_accumulate"):
        real = getattr(sr.dense, name)

        def spy(*a, _real=real, **k):
            calls.append(1)
            return _real(*a, **k)

        monkeypatch.setattr(sr.dense, name, spy)
    return calls


@given(n=st.sampled_from(SIZES) | st.integers(2, 4 * TILE_TEST + 3),
       dtype=st.sampled_from([np.int32, np.int64]), kind=st.sampled_from(["matrix", "dense"]),
       density=st.sampled_from([0.0, 0.1, 0.3, 1.0]), wmax=st.sampled_from([0, 1, 7, 300]),
       look=st.booleans(), one=st.booleans(), want_pred=st.booleans(),
       sub=st.sampled_from([256, 2, 3]), seed=st.integers(0, 2**32 - 1),
       lanes=st.sampled_from([1, 2]))
def test_fw_u16_vs_scipy(device, n, dtype, kind, density, wmax, look, one, want_pred, sub,
                         seed, lanes, monkeypatch):
    """Small non-negative integer weights (zero weights, unreachable pairs, self-loops,
    explicit zeros in a Matrix) take the packed 16-bit path, several rounds, lookahead and
    the one-launch phase 3 on and off, phase 1 by squaring or by sub-tiles (CLOSURE_SUB),
    the rest on one or two streams (FW_REST_LANES): the distances equal SciPy's in the
    caller's type."""
    _lanes_everywhere(monkeypatch, lanes, 2)
    monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", look)
    monkeypatch.setattr(apsp_mod, "FW_ONE_LAUNCH", one)
    monkeypatch.setattr(apsp_mod, "CLOSURE_SUB", sub)
    rng = np.random.default_rng(seed)
    mask = rng.random((n, n)) < density
    rows, cols = np.nonzero(mask)
    w = rng.integers(0, wmax + 1, rows.size).astype(np.float64)
    A = _build(n, rows, cols, w, dtype, device, kind)
    calls = _spy_u16(monkeypatch)
    out = algorithms.apsp(A, "floyd_warshall", predecessors=want_pred)
    dist = out[0] if want_pred else out
    assert dist.dtype == np.dtype(dtype) and sr.device_of(dist) == device
    _, ref = _scipy(n, rows, cols, w)
    np.testing.assert_array_equal(_as_float(dist, dtype), ref)
    assert bool(calls) == (n > 0 and apsp_mod._u16_fits(np.dtype(dtype), n, (0, wmax)))
    if want_pred:
        _check_pred(out[1], ref, n, rows, cols, w)


@pytest.mark.parametrize("total,edges,packed", [(32766, 6, True), (32767, 7, False)])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_fw_u16_boundary(device, total, edges, packed, dtype, monkeypatch):
    """A directed path of n − 1 edges of weight w, (n − 1) · w = total: 32766 is the largest
    bound the packed path takes (its infinity is 32767) and the end-to-end distance comes out
    exact; at 32767 the int32 path runs. A zero-weight back edge 1 → 0; the pairs against
    the path's direction beyond it are unreachable."""
    n, w = edges + 1, total // edges
    assert w * edges == total
    rows, cols = np.r_[np.arange(n - 1), 1], np.r_[np.arange(1, n), 0]
    wts = np.r_[np.full(n - 1, w, np.float64), 0.0]
    A = _build(n, rows, cols, wts, dtype, device, "matrix")
    calls = _spy_u16(monkeypatch)
    dist = to_host(algorithms.apsp(A, "floyd_warshall"))
    assert bool(calls) == packed
    assert dist[0, n - 1] == total and dist[1, 0] == 0
    assert dist[n - 1, 0] == np.iinfo(dtype).max
    np.testing.assert_array_equal(_as_float(dist, dtype), _scipy(n, rows, cols, wts)[1])


def test_fw_u16_refuses_negative_and_large(device, monkeypatch):
    """Negative weights (no negative cycle) or a bound past 32766 keep the int32 path, and
    the results stay exact; a float graph never takes it."""
    calls = _spy_u16(monkeypatch)
    rng = np.random.default_rng(5)
    n = 3 * TILE_TEST + 1
    rows, cols, w = _weights(rng, n, 0.4, np.int32, True)
    assert w.min() < 0
    for dtype, ww in ((np.int32, w), (np.int32, np.abs(w) * 1000), (np.float32, np.abs(w))):
        A = _build(n, rows, cols, ww, dtype, device, "matrix")
        dist = algorithms.apsp(A, "floyd_warshall")
        np.testing.assert_array_equal(_as_float(dist, dtype), _scipy(n, rows, cols, ww)[1])
    assert not calls
    monkeypatch.setattr(apsp_mod, "FW_U16", False)
    assert not apsp_mod._u16_fits(np.dtype(np.int32), 3, (0, 1))


@pytest.mark.parametrize("kind", ["dense", "matrix"])
def test_fw_u16_bool_input(device, kind, monkeypatch):
    """A bool adjacency matrix (unweighted: hop counts; a Matrix's explicit False entries
    are zero-weight edges) takes the packed path, several rounds, and returns float64."""
    rng = np.random.default_rng(8)
    n = 3 * TILE_TEST + 3
    B = rng.random((n, n)) < 0.15
    calls = _spy_u16(monkeypatch)
    if kind == "dense":
        A = B if device == "cpu" else __import__("cupy").asarray(B)
        r, c = np.nonzero(B)
        w = np.ones(r.size)
    else:
        r, c = np.nonzero(B | (rng.random((n, n)) < 0.05))
        w = B[r, c].astype(float)  # False: a zero-weight edge
        A = sr.Matrix.from_coo(r, c, B[r, c], nrows=n, ncols=n, dtype=bool, device=device)
    dist, pred = algorithms.apsp(A, "floyd_warshall", predecessors=True)
    assert calls and to_host(dist).dtype == np.float64
    ref = _scipy(n, r, c, w)[1]
    np.testing.assert_array_equal(to_host(dist), ref)
    _check_pred(pred, ref, n, r, c, w)


@pytest.mark.parametrize("lanes", [1, 2])
@pytest.mark.parametrize("look", [False, True])
def test_fw_u16_production_tile(device, look, lanes, monkeypatch):
    """The packed path with the production tile on the GPU (512: the one-launch bands on
    the kernel's tile boundaries, several rounds, a ragged last round, n padded to a
    multiple of U16_PAD) and TILE_CPU's on the CPU, the rest on one or two streams (each
    lane allocating its duplicated C from its own pool arena): equal to SciPy in int32."""
    monkeypatch.setattr(apsp_mod, "FW_LOOKAHEAD", look)
    _lanes_everywhere(monkeypatch, lanes, 256 if device == "gpu" else 64)
    tile = 512 if device == "gpu" else 64
    n = 2 * tile + 13
    rng = np.random.default_rng(12)
    rows, cols = np.nonzero(rng.random((n, n)) < 6 / n)
    w = rng.integers(0, 30, rows.size).astype(np.float64)  # (n − 1) · 29 <= 32766
    A = _build(n, rows, cols, w, np.int32, device, "dense")
    calls = _spy_u16(monkeypatch)
    d = algorithms.apsp(A, "floyd_warshall", tile=tile)
    assert calls and d.dtype == np.int32
    np.testing.assert_array_equal(_as_float(d, np.int32), _scipy(n, rows, cols, w)[1])


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_fw_setup_bounds_pack_unpack(device, dtype):
    """The packed path's setup (on the GPU prep.cu's grid-wide kernels, on the CPU NumPy)
    against NumPy's reference on awkward dense inputs: weights at the type's limits,
    "no edge" (the type's maximum) everywhere or nowhere, negative weights, self-loops,
    row-pitched views; the packing at and beyond the packed infinity, its padding and
    diagonal; the result's infinity in the caller's type (float64: a bool input's)."""
    xp = np if device == "cpu" else __import__("cupy")
    big, low = np.iinfo(dtype).max, np.iinfo(dtype).min
    rng = np.random.default_rng(21)
    inf16 = sr.dense.U16_INF
    for n, fill in ((1, None), (5, big), (37, None), (300, None)):
        base = rng.integers(-1000, 40000, (n, n + 7)).astype(dtype)
        base[rng.random((n, n + 7)) < 0.3] = big
        if fill is not None:
            base[:] = fill
        if n > 4:
            base[0, 1], base[1, 2], base[2, 3], base[3, 3] = big - 1, low, 0, 7
        dev_base = xp.asarray(base)
        for view, a in ((base[:, :n], dev_base[:, :n]), (base[:, 3:3 + n], dev_base[:, 3:3 + n]),
                        (np.ascontiguousarray(base[:, :n]), xp.ascontiguousarray(dev_base[:, :n]))):
            edges = view[view != big]
            want = (0, 0) if edges.size == 0 else (int(view.min()), int(edges.max()))
            assert apsp_mod._bounds(a, big, xp) == want
            # the packing: min(w, U16_INF) (callers only pack non-negative weights)
            nonneg = xp.maximum(a, 0) if device == "gpu" else np.maximum(view, 0)
            D = to_host(apsp_mod._dense_of_u16(nonneg, n, np.dtype(dtype), xp))
            npad = -(-n // apsp_mod.U16_PAD) * apsp_mod.U16_PAD
            ref = np.full((npad, npad), inf16, np.uint16)
            ref[:n, :n] = np.minimum(np.maximum(view, 0), inf16)
            np.fill_diagonal(ref, 0)
            assert D.dtype == np.uint16 and D.shape == (npad, npad)
            np.testing.assert_array_equal(D, ref)
    # the result: U16_INF (and only it) becomes the caller's infinity, from a padded view
    U = rng.integers(0, inf16 + 1, (13, 16)).astype(np.uint16)
    U[rng.random(U.shape) < 0.3] = inf16
    for out_type, inf in ((dtype, big), (np.float64, np.inf)):
        Ud = xp.asarray(U)[:13, :13] if device == "gpu" else U[:13, :13]
        got = to_host(apsp_mod._finish("apsp", Ud, np.dtype(np.uint16), np.dtype(out_type),
                                       xp))
        ref = U[:13, :13].astype(out_type)
        ref[U[:13, :13] == inf16] = inf
        assert got.dtype == np.dtype(out_type)
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fw_setup_float_d0(device, dtype):
    """Floyd–Warshall's float D0 (on the GPU prep.cu's one-pass copy): a copy of a (row-
    pitched) view with min(w_ii, 0) on the diagonal (a negative self-loop kept, a positive
    one and inf dropped to 0), the input untouched."""
    xp = np if device == "cpu" else __import__("cupy")
    rng = np.random.default_rng(4)
    for n in (1, 6, 131):
        base = rng.uniform(-5, 5, (n, n + 5)).astype(dtype)
        base[rng.random(base.shape) < 0.3] = np.inf
        base[0, 0] = np.inf
        if n > 2:
            base[1, 1], base[2, 2] = -2.5, 3.0
        dev = xp.asarray(base)
        for view, a in ((base[:, :n], dev[:, :n]), (base[:, 5:], dev[:, 5:])):
            before = to_host(a).copy()
            D = apsp_mod._dense_of(a, n, np.dtype(dtype), xp)
            ref = view.copy()
            d = np.arange(n)
            ref[d, d] = np.minimum(ref[d, d], 0)
            assert D.dtype == np.dtype(dtype) and D.shape == (n, n)
            np.testing.assert_array_equal(to_host(D), ref)
            np.testing.assert_array_equal(to_host(a), before)
