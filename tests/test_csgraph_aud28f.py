"""Session 28f: the GPU branches of the csgraph tools, on NumPy (``FORCE_ENGINE`` and
``_tools.OWN_SPARSE_ON_CPU``), against SciPy (``bench/probes/aud28f_csgraph_engine_tools.py``)."""

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from algorithms.csgraph import _tools, _validation

from test_csgraph_facade import backend

__all__ = ["backend"]  # the fixture used by the tests below


@pytest.fixture
def own_sparse(monkeypatch):
    """The Laplacian of cupyx input (``_laplacian_own_sparse``) on scipy.sparse input."""
    monkeypatch.setattr(_validation, "FORCE_ENGINE", True)
    monkeypatch.setattr(_tools, "OWN_SPARSE_ON_CPU", True)


def test_to_dense_lone_nan_weight_is_inf(backend):
    # SciPy fills each cell from inf and keeps entries below it: a NaN never is
    S = sp.csc_matrix(sp.csr_matrix((np.array([np.nan]), [1], [0, 1, 1]), shape=(2, 2)))
    exp = scg.csgraph_to_dense(S)
    got = csgraph.csgraph_to_dense(S)
    assert np.array_equal(exp, got) and got[0, 1] == np.inf


@pytest.mark.parametrize("null_value", [None, "1", [1], 1j])
def test_to_dense_null_value_is_a_c_double(backend, null_value):
    S = sp.csc_matrix(np.eye(2))
    with pytest.raises(TypeError) as e1:
        scg.csgraph_to_dense(S, null_value=null_value)
    with pytest.raises(e1.type):
        csgraph.csgraph_to_dense(S, null_value=null_value)


def test_to_dense_engine_branch_taken_for_sparse(monkeypatch):
    monkeypatch.setattr(_validation, "FORCE_ENGINE", True)
    calls = []
    real = _tools._to_dense_engine
    monkeypatch.setattr(_tools, "_to_dense_engine", lambda *a: calls.append(1) or real(*a))
    S = sp.csr_matrix((np.array([5.0, 1.0, -0.0]), [1, 1, 0], [0, 3, 3]), shape=(2, 2))
    got = csgraph.csgraph_to_dense(S, null_value=-1)
    assert calls and np.array_equal(got, scg.csgraph_to_dense(S, null_value=-1))
    assert np.signbit(got[0, 0])


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
@pytest.mark.parametrize("form", ["function", "lo"])
def test_own_sparse_laplacian_degrees_in_sum_dtype(own_sparse, dtype, form):
    # uint8 degrees: int sums (not wrapped; normed, not a float16 square root)
    W = np.zeros((4, 4), dtype=dtype)
    W[0, 1:] = 100
    W[1, 2] = 5
    S = sp.csr_matrix(W)
    v = np.eye(4)
    for normed in (False, True):
        f1, d1 = scg.laplacian(S, normed=normed, form=form, return_diag=True)
        f2, d2 = csgraph.laplacian(S, normed=normed, form=form, return_diag=True)
        a = f1(v) if form == "function" else f1.matmat(v)
        b = f2(v) if form == "function" else f2.matmat(v)
        np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-12)
        assert d1.dtype == d2.dtype and np.array_equal(d1, d2)


def test_own_sparse_laplacian_bool_repeated_diagonal(own_sparse):
    # scipy.sparse's diagonal() of a bool COO sums repeated entries as bools
    G = sp.coo_array((np.ones(5, dtype=bool), ([0, 0, 0, 1, 2], [0, 0, 1, 0, 1])),
                     shape=(3, 3))
    v = np.eye(3)
    f1, d1 = scg.laplacian(G, normed=True, form="function", return_diag=True)
    f2, d2 = csgraph.laplacian(G, normed=True, form="function", return_diag=True)
    np.testing.assert_allclose(f2(v), f1(v), rtol=1e-12, atol=1e-12)
    assert np.array_equal(d1, d2)


def test_probe_runs_clean():
    import importlib.util  # noqa: PLC0415  (the probe is a script, loaded by path)
    import os  # noqa: PLC0415  (stdlib, this test only)
    path = os.path.join(os.path.dirname(__file__), "..", "bench", "probes",
                        "aud28f_csgraph_engine_tools.py")
    spec = importlib.util.spec_from_file_location("aud28f_probe", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--cases", "25", "--seed", "1", "--quiet",
                     "--only", "csgraph_to_dense,csgraph_to_masked,reconstruct_path,"
                     "construct_dist_matrix,breadth_first_tree,depth_first_tree"]) == 0
