"""Audit 28e: session 27's csgraph fuzzers (``bench/probes/aud27_csgraph_fuzz.py``,
``aud27b_csgraph_fuzz.py``) run on the facade's engine path
(``bench/probes/aud28_csgraph_engine_fuzz.py``: ``_validation.FORCE_ENGINE`` in the workers).
One test per discrepancy with SciPy it found, each on the host path and the engine path
(the code GPU input runs, on NumPy)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from algorithms.csgraph import _validation


@pytest.fixture(params=[False, True], ids=["host-path", "engine-path"])
def engine(request, monkeypatch):
    """Both paths: SciPy's routines (host input as it is) and the engine's code on NumPy."""
    monkeypatch.setattr(_validation, "FORCE_ENGINE", request.param)
    return request.param


def test_floyd_warshall_leaves_the_callers_csr_attributes(engine):
    """The engine's Floyd–Warshall read a CSR input through ``tocoo()``, which caches
    ``has_canonical_format`` on the caller's matrix (a new attribute SciPy's call leaves
    alone)."""
    G = sp.csr_matrix((np.array([1.0, 2.0]), np.array([1, 0], dtype=np.int32),
                       np.array([0, 1, 2], dtype=np.int32)), shape=(2, 2))
    before = sorted(vars(G))
    for fn, kw in ((csgraph.shortest_path, {"method": "FW"}), (csgraph.floyd_warshall, {}),
                   (csgraph.floyd_warshall, {"directed": False})):
        expect = scg.floyd_warshall(G.copy(), **{k: v for k, v in kw.items()
                                                 if k != "method"})
        got = fn(G, **kw)
        assert got.tobytes() == expect.tobytes()
        assert sorted(vars(G)) == before
    E = sp.csr_matrix((0, 0))
    before = sorted(vars(E))
    csgraph.shortest_path(E, method="FW")
    assert sorted(vars(E)) == before


def test_floyd_warshall_predecessors_are_scipys_where_paths_tie(engine):
    """Integer weights took the engine's all-pairs product (exact distances) for the
    predecessors too, which names another vertex than SciPy's k order where paths tie
    (the fuzzer's 40-vertex CSC, unweighted and undirected)."""
    w = np.array([5.0, 2.0, 5.0, 1.0, 5.0, 2.0, 2.0, 1.0, 3.0, 2.0])
    r = np.array([12, 12, 27, 8, 2, 39, 0, 27, 26, 39])
    c = np.array([8, 16, 15, 2, 26, 0, 33, 33, 15, 16])
    G = sp.csc_matrix(sp.coo_matrix((w, (r, c)), shape=(40, 40)))
    kw = dict(directed=False, return_predecessors=True, unweighted=True)
    d_s, p_s = scg.shortest_path(G, method="FW", **kw)
    d_f, p_f = csgraph.shortest_path(G, method="FW", **kw)
    assert d_f.tobytes() == d_s.tobytes() and p_f.tobytes() == p_s.tobytes()
    # a square with two paths of equal length from 0 to 3, integer weights, both directions
    S = sp.csr_matrix(np.array([[0, 1, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0.]]))
    for directed in (True, False):
        for unweighted in (False, True):
            kw = dict(directed=directed, return_predecessors=True, unweighted=unweighted)
            d_s, p_s = scg.floyd_warshall(S, **kw)
            d_f, p_f = csgraph.floyd_warshall(S, **kw)
            assert d_f.tobytes() == d_s.tobytes()
            assert p_f.tobytes() == p_s.tobytes(), (directed, unweighted)


def test_floyd_warshall_refuses_a_masked_minus_infinity(engine):
    """A masked array's unmasked -inf is an edge to SciPy (-inf answered); the engine path
    dropped it (inf answered), where a sparse input's -inf is refused (the documented
    deviation): now refused too. The host path answers SciPy's."""
    a = np.zeros((3, 3))
    a[1, 2] = -np.inf
    G = np.ma.masked_array(a, mask=(a == 0))
    expect = scg.floyd_warshall(np.ma.masked_array(a.copy(), mask=(a == 0)))
    assert expect[1, 2] == -np.inf
    if engine:
        import semiring as sr
        with pytest.raises(sr.InvalidValue, match="-inf"):
            csgraph.floyd_warshall(G)
        with pytest.raises(sr.InvalidValue, match="-inf"):
            csgraph.shortest_path(G, method="FW")
    else:
        assert csgraph.floyd_warshall(G).tobytes() == expect.tobytes()
    a[1, 2] = np.inf  # +inf stays no edge on both paths
    G = np.ma.masked_array(a, mask=(a == 0))
    assert csgraph.floyd_warshall(G).tobytes() == scg.floyd_warshall(
        np.ma.masked_array(a.copy(), mask=(a == 0))).tobytes()


@pytest.mark.parametrize("fn,kw", [
    ("johnson", {"directed": False, "indices": [1, 2, 3]}),
    ("shortest_path", {"method": "BF"}),
    ("bellman_ford", {}),
    ("shortest_path", {"method": "FW"}),
    ("dijkstra", {"min_only": True, "indices": [2, 4]}),
])
def test_path_sums_past_float64_overflow_silently(engine, monkeypatch, fn, kw):
    """Weights of 1.5e308: a sum of two is inf, silently in SciPy's compiled loops; the
    engine's relaxation rounds on NumPy (``algorithms.sssp.CPU_CSGRAPH`` off: the GPU's
    algorithm) warned "overflow encountered in add"."""
    import importlib
    import warnings

    monkeypatch.setattr(importlib.import_module("algorithms.sssp"), "CPU_CSGRAPH", False)
    a = np.zeros((5, 5))
    a[2, 4] = a[4, 4] = a[4, 1] = 1.5e308
    a[0, 2] = 1.5e308
    G = sp.csr_matrix(a)
    with warnings.catch_warnings(record=True) as ws_s:
        warnings.simplefilter("always")
        expect = getattr(scg, fn)(G.copy(), **kw)
    with warnings.catch_warnings(record=True) as ws_f:
        warnings.simplefilter("always")
        got = getattr(csgraph, fn)(G, **kw)
    assert [str(w.message) for w in ws_f] == [str(w.message) for w in ws_s] == []
    got, expect = (got if isinstance(got, tuple) else (got,)), (
        expect if isinstance(expect, tuple) else (expect,))
    for x, y in zip(got, expect):
        assert np.asarray(x).tobytes() == np.asarray(y).tobytes()


@pytest.mark.parametrize("form", ["function", "lo"])
@pytest.mark.parametrize("return_diag", [False, True])
def test_laplacian_operator_casts_its_diagonal_as_scipy(engine, form, return_diag):
    """Normed, a negative degree (its square root NaN), an integer dtype: SciPy casts the
    diagonal whether or not it returns it, and warns "invalid value encountered in cast";
    the engine path cast it only when returned."""
    import warnings

    G = sp.csr_matrix((np.array([-3.0]), np.array([5], dtype=np.int32),
                       np.array([0] * 11 + [1], dtype=np.int32)), shape=(11, 11))
    kw = dict(normed=True, form=form, dtype=np.int64, return_diag=return_diag)
    out = []
    for mod in (scg, csgraph):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            res = mod.laplacian(G.copy(), **kw)
        out.append(([(w.category, str(w.message)) for w in ws], res))
    (w_s, r_s), (w_f, r_f) = out
    assert w_f == w_s
    assert ("invalid value encountered in cast" in str(w_s)) == True  # noqa: E712
    if return_diag:
        assert r_f[1].dtype == r_s[1].dtype and r_f[1].tobytes() == r_s[1].tobytes()
