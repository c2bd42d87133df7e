"""The scipy.sparse.csgraph facade returns exactly what SciPy returns."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import given, strategies as st

import semiring as sr
from algorithms import csgraph
from conftest import to_host
from test_bfs import graphs


@given(g=graphs(), directed=st.booleans(), preds=st.booleans())
def test_breadth_first_order_identical_to_scipy(device, g, directed, preds):
    S, source, _ = g
    A = sr.Matrix.from_scipy(S, device=device)
    got = csgraph.breadth_first_order(A, source, directed=directed, return_predecessors=preds)
    exp = scg.breadth_first_order(S, source, directed=directed, return_predecessors=preds)
    if preds:
        for a, b in zip(got, exp):
            assert to_host(a).dtype == b.dtype
            np.testing.assert_array_equal(to_host(a), b)
    else:
        np.testing.assert_array_equal(to_host(got), exp)


def test_scipy_and_dense_inputs_stay_on_the_cpu():
    rng = np.random.default_rng(3)
    D = np.where(rng.random((30, 30)) < 0.1, rng.integers(1, 5, (30, 30)), 0).astype(float)
    D[2, 3] = np.inf  # SciPy: inf and NaN in a dense graph are not edges
    D[4, 5] = np.nan
    for directed in (True, False):
        o1, p1 = csgraph.breadth_first_order(D, 0, directed=directed)
        o2, p2 = scg.breadth_first_order(D, 0, directed=directed)
        assert isinstance(o1, np.ndarray)
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(p1, p2)
    S = sp.csr_matrix(np.where(np.isfinite(D), D, 0.0))
    o, p = csgraph.breadth_first_order(S, 1)
    np.testing.assert_array_equal(o, scg.breadth_first_order(S, 1)[0])


def test_breadth_first_order_errors():
    with pytest.raises(ValueError, match=r"must be square \(N, N\), got shape \(2, 3\)"):
        csgraph.breadth_first_order(np.ones((2, 3)), 0)
    with pytest.raises(IndexError, match=r"i_start must lie in \[0, 2\), got 5"):
        csgraph.breadth_first_order(np.ones((2, 2)), 5)  # SciPy reads out of bounds here
    with pytest.raises(TypeError, match="i_start must be an integer"):
        csgraph.breadth_first_order(np.ones((2, 2)), "0")


@given(g=graphs(), directed=st.booleans())
def test_breadth_first_tree_identical_to_scipy(device, g, directed):
    S, source, _ = g
    A = sr.Matrix.from_scipy(S, device=device)
    got = csgraph.breadth_first_tree(A, source, directed=directed)
    exp = scg.breadth_first_tree(S, source, directed=directed)
    assert got.shape == exp.shape and got.nnz == exp.nnz
    g_host = got.get() if device == "gpu" else got
    np.testing.assert_array_equal(g_host.toarray(), exp.toarray())
    # the stored entries are the same edges (explicit zeros included)
    assert set(zip(*g_host.nonzero())) <= set(zip(*sp.coo_matrix(exp).coords))
    ge, ee = sp.coo_matrix(g_host), sp.coo_matrix(exp)
    assert sorted(zip(ge.row, ge.col)) == sorted(zip(ee.row, ee.col))
