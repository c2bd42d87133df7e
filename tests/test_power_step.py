"""``semiring.centrality.power_step``: PageRank's fused vector step (``kernels/power.cu`` on
the GPU, NumPy on the CPU) against the step written out in NumPy, on random inputs with
dangling vertices, a product with and without missing entries, and sizes around the kernel's
block (256) and past its grid (512 blocks: the grid-stride loop)."""

from __future__ import annotations

import numpy as np
import pytest

import algorithms as alg
import semiring as sr
from conftest import to_host


def _inputs(n, seed, missing):
    rng = np.random.default_rng(seed)
    vals = rng.random(n)
    pres = rng.random(n) > 0.2 if missing else None
    x = rng.random(n)
    x /= x.sum() if n else 1
    u = np.full(n, 1.0 / max(n, 1))
    p = 0.15 * u
    outdeg = rng.integers(0, 4, n).astype(np.float64)  # a quarter dangling
    inv = np.where(outdeg == 0, 0.0, 1.0 / np.where(outdeg == 0, 1.0, outdeg))
    return vals, pres, x, u, p, inv, np.flatnonzero(outdeg == 0)


def _written_out(vals, pres, x, u, p, inv, d, s, dangling):
    t = vals.copy() if pres is None else np.where(pres, vals, 0.0)
    xn = d * (t + s * u) + p
    return xn, xn * inv, np.abs(xn - x), xn[dangling]


@pytest.mark.parametrize("n", [1, 255, 256, 257, 5000, 512 * 256 + 7])
@pytest.mark.parametrize("missing", [False, True])
def test_power_step_is_the_step_written_out(device, n, missing):
    vals, pres, x, u, p, inv, dangling = _inputs(n, n, missing)
    d, s = 0.85, 0.0625
    xn_ref, w_ref, change, dang = _written_out(vals, pres, x, u, p, inv, d, s, dangling)
    on = (lambda a: a) if device == "cpu" else (lambda a: None if a is None else sr.to_device(
        a, "gpu"))
    t = sr.Vector.from_bitmap(on(vals), on(pres), device=device)
    xn, w, err, s_new = sr.centrality.power_step(t, on(x), on(u), on(p), on(inv), d, s,
                                                 on(dangling))
    assert sr.is_gpu_array(xn) == (device == "gpu")
    # the same operations one by one: the same bits (the kernel contracts nothing)
    np.testing.assert_array_equal(to_host(xn), xn_ref)
    np.testing.assert_array_equal(to_host(w), w_ref)
    # the sums in another order: equal up to rounding
    assert err == pytest.approx(float(change.sum()), rel=1e-12, abs=1e-300)
    assert s_new == pytest.approx(float(dang.sum()), rel=1e-12, abs=1e-300)


def test_power_step_refuses_arrays_off_the_products_device_or_of_another_shape(device):
    vals, pres, x, u, p, inv, dangling = (None if a is None else sr.to_device(a, device)
                                          for a in _inputs(8, 1, False))
    t = sr.Vector.from_bitmap(vals, device=device)
    with pytest.raises(sr.DimensionMismatch, match="inv must have shape"):
        sr.centrality.power_step(t, x, u, p, inv[:4], 0.85, 0.0, dangling)
    with pytest.raises(sr.DomainMismatch, match="u must be float64"):
        sr.centrality.power_step(t, x, u.astype(np.float32), p, inv, 0.85, 0.0, dangling)
    if sr.gpu_available():
        other = "cpu" if device == "gpu" else "gpu"
        with pytest.raises(sr.DeviceMismatch, match="x must be on the product's device"):
            sr.centrality.power_step(t, sr.to_device(x, other), u, p, inv, 0.85, 0.0,
                                     dangling)


def test_pagerank_with_dangling_vertices_same_on_both_devices():
    """The whole iteration on the GPU (kernel sums in block order) against the CPU's: the
    ranks within rounding, on a graph with 200 sinks."""
    rng = np.random.default_rng(7)
    n = 3000
    r, c = rng.integers(0, n - 200, 12000), rng.integers(0, n, 12000)  # rows >= n-200: sinks
    A = sr.Matrix.from_coo(r, c, np.ones(r.size), nrows=n, ncols=n, dup_op="plus", device="cpu")
    want = alg.pagerank(A)
    assert abs(float(want.sum()) - 1.0) < 1e-9
    if not sr.gpu_available():
        pytest.skip("the GPU half needs a GPU")
    got = to_host(alg.pagerank(A.to_gpu()))
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-15)
