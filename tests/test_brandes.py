"""semiring.centrality.brandes (a source a pass: the GPU's thread block a source, the CPU's
level-by-level NumPy passes) against the algebra's form of the same sweeps
(algorithms.centrality._single, itself checked against NetworkX in test_centrality.py) and the
engine's BFS, on every backend; the backends against each other."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, strategies as st

import algorithms
import semiring as sr
from analytics1_graphs import graphs
from conftest import DEVICES, to_host

centrality = importlib.import_module("algorithms.centrality")


def _pair(S, device, directed):
    A = sr.Matrix.from_scipy(S, device=device)
    return centrality._graphs(A, directed)


@given(g=graphs(max_n=30), directed=st.booleans(), data=st.data())
def test_brandes_matches_the_algebra(device, g, directed, data):
    S, _ = g
    n = S.shape[0]
    G, GT = _pair(S, device, directed)
    xp = sr.array_module(device)
    src = data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=5 if n else 0))
    delta, level, depth = sr.centrality.brandes(G, src, GT=None if GT is G else GT)
    assert delta.shape == level.shape == (len(src), n) and depth.shape == (len(src),)
    assert type(delta) is xp.ndarray and delta.dtype == np.float64 and level.dtype == np.int32
    for j, s in enumerate(src):
        ref_level = to_host(algorithms.bfs(G, s, symmetric=GT is G))
        np.testing.assert_array_equal(to_host(level[j]), ref_level)
        assert int(depth[j]) == int(ref_level.max())
        ref = to_host(centrality._single(G, GT, s, False, xp))
        got = to_host(delta[j]).copy()
        got[s] = 0.0
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=0)


@pytest.mark.skipif("gpu" not in DEVICES, reason="compares the GPU with the CPU")
@pytest.mark.parametrize("side", [1, 7, 64])
def test_brandes_gpu_equals_cpu(side):
    """A grid (rows of at most 4 entries: NumPy's sums are sequential there) gives the same
    bits on both backends, the overflowing path counts of a 64 × 64 grid included."""
    import scipy.sparse as sp

    n = side * side
    idx = np.arange(n).reshape(side, side)
    r = np.r_[idx[:, :-1].ravel(), idx[:-1, :].ravel()]
    c = np.r_[idx[:, 1:].ravel(), idx[1:, :].ravel()]
    S = sp.coo_matrix((np.ones(2 * r.size), (np.r_[r, c], np.r_[c, r])), shape=(n, n)).tocsr()
    src = [0, n - 1, n // 2]
    res = [sr.centrality.brandes(sr.Matrix.from_scipy(S, device=d).as_symmetric(), src)
           for d in ("cpu", "gpu")]
    for a, b in zip(*res):
        np.testing.assert_array_equal(to_host(a), to_host(b))


def test_brandes_errors(device):
    G = sr.Matrix.from_coo([0, 1], [1, 2], None, nrows=3, ncols=3, device=device)
    with pytest.raises(sr.InvalidIndex, match=r"sources must lie in \[0, 3\), got 3"):
        sr.centrality.brandes(G, [0, 3])
    with pytest.raises(sr.DomainMismatch, match="sources must be a 1-D sequence of integers"):
        sr.centrality.brandes(G, [0.5])
    with pytest.raises(sr.DomainMismatch, match="sources must be a 1-D"):
        sr.centrality.brandes(G, 0)
    with pytest.raises(sr.DimensionMismatch, match=r"GT must have shape \(3, 3\)"):
        sr.centrality.brandes(G, [0], GT=sr.Matrix.from_coo([0], [1], None, nrows=2, ncols=2,
                                                            device=device))
    with pytest.raises(sr.DomainMismatch, match="GT must be a Matrix"):
        sr.centrality.brandes(G, [0], GT=np.eye(3))
    delta, level, depth = sr.centrality.brandes(G, [])
    assert delta.shape == level.shape == (0, 3) and depth.shape == (0,)


@given(g=graphs(max_n=40), directed=st.booleans(), data=st.data())
def test_brandes_cpu_compiled_equals_numpy(monkeypatch, g, directed, data):
    """The CPU's two forms (the compiled loop where Numba is installed, the NumPy passes)."""
    cpu_centrality = importlib.import_module("semiring.backend.cpu.centrality")
    if not cpu_centrality.compiled.ENABLED:
        pytest.skip("Numba is not installed (the cpu extra)")
    S, _ = g
    n = S.shape[0]
    G, GT = _pair(S, "cpu", directed)
    src = data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=4 if n else 0))
    a = sr.centrality.brandes(G, src, GT=None if GT is G else GT)
    with monkeypatch.context() as m:
        m.setattr(cpu_centrality.compiled, "ENABLED", False)
        b = sr.centrality.brandes(G, src, GT=None if GT is G else GT)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-13, atol=0)
