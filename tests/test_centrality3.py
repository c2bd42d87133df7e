"""Audit (aud14) of eigenvector, Katz, HITS, closeness and harmonic centrality: the cases
that ``test_centrality2.py`` and ``test_nx_centrality.py`` did not reach. Engine: distance
sums in the matrix's own narrow type, and flags that are not bools. Backend: harmonic
centrality's int 0, eigenvector's division of nstart by its sum, NumPy scalars narrower
than 64 bits, and HITS' tol. The probe driver is ``bench/probes/aud14_centrality.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp

nx = pytest.importorskip("networkx")

import algorithms  # noqa: E402
import semiring as sr  # noqa: E402
from conftest import to_host  # noqa: E402
from nx_semiring import centrality as nxc  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402

from test_nx_backend import INSTALLED, convert  # noqa: E402

dispatch = pytest.mark.skipif(not INSTALLED, reason="nx_semiring is not installed (its entry "
                                                    "points): pip install '.[nx]'")


def path_matrix(values, device):
    """The directed path 0 → 1 → ... → len(values) with these edge values."""
    k = len(values)
    S = sp.csr_matrix((values, (np.arange(k), np.arange(1, k + 1))), shape=(k + 1, k + 1))
    return S, sr.Matrix.from_scipy(S, device=device)


def networkx_distances(S):
    G = nx.from_scipy_sparse_array(sp.csr_array(S.astype(np.float64)), create_using=nx.DiGraph)
    n = S.shape[0]
    c = nx.closeness_centrality(G, distance="weight")
    h = nx.harmonic_centrality(G, distance="weight")
    return [c[v] for v in range(n)], [h[v] for v in range(n)]


# ----------------------------------------------------------------------- engine: distances
@pytest.mark.parametrize("values", [
    np.full(3, 2**30, dtype=np.int32),              # sums past 2**31: DistanceOverflow before
    np.array([0.1, 0.2, 0.3], dtype=np.float32),    # float32 sums round off NetworkX's
    np.ones(3, dtype=bool),                         # True + True must be 2
], ids=["int32-wide-sums", "float32", "bool"])
def test_weighted_distances_add_as_networkx(device, values):
    S, A = path_matrix(values, device)
    ref_c, ref_h = networkx_distances(S)
    c = algorithms.closeness_centrality(A, weighted=True)
    h = algorithms.harmonic_centrality(A, weighted=True)
    np.testing.assert_allclose(to_host(c), ref_c, rtol=1e-12, atol=0)
    np.testing.assert_allclose(to_host(h), ref_h, rtol=1e-12, atol=0)
    assert A.dtype == values.dtype  # the caller's matrix keeps its type


@pytest.mark.parametrize("f, arg", [
    (algorithms.eigenvector_centrality, "weighted"), (algorithms.katz_centrality, "normalized"),
    (algorithms.katz_centrality, "weighted"), (algorithms.hits, "normalized"),
    (algorithms.hits, "weighted"), (algorithms.closeness_centrality, "wf_improved"),
    (algorithms.closeness_centrality, "weighted"), (algorithms.harmonic_centrality, "weighted"),
])
def test_flags_must_be_bools(device, f, arg):
    A = sr.Matrix.from_scipy(sp.csr_matrix(np.array([[0, 1.0], [1.0, 0]])), device=device)
    with pytest.raises(sr.DomainMismatch, match=rf"{arg} must be a bool \(True or False\), got 'no' \(str\)"):
        f(A, **{arg: "no"})
    f(A, **{arg: np.bool_(False)})  # NumPy's bools are bools


# ------------------------------------------------------------------ backend: harmonic's int 0
def _typed(d):
    return [(k, type(v).__name__, v) for k, v in d.items()]


def test_harmonic_unreached_nodes_keep_networkx_int_zero(device):
    G = nx.DiGraph([("a", "b"), ("b", "c")])
    G.add_node(7)  # isolated
    for dist in (None, "weight"):
        exp = nx.harmonic_centrality(G, distance=dist)
        got = nxc.harmonic_centrality(convert(G, device), distance=dist)
        assert _typed(got) == _typed(exp)  # {"a": 0, 7: 0} ints, the rest floats
    U = nx.empty_graph(2)
    assert _typed(nxc.harmonic_centrality(convert(U, device))) == \
        _typed(nx.harmonic_centrality(U))


@dispatch
def test_harmonic_int_zero_through_dispatch():
    G = nx.path_graph(3, create_using=nx.DiGraph)
    G.add_node("x")
    assert _typed(nx.harmonic_centrality(G, backend="semiring")) == \
        _typed(nx.harmonic_centrality(G))


# ---------------------------------------------------------- backend: eigenvector's nstart sum
def _raised(f):
    try:
        f()
    except (ZeroDivisionError, nx.NetworkXException, NotImplementedError) as exc:
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize("nstart", [
    {"a": 1.0, "b": -1.0, "c": 0.0},  # floats: "float division by zero"
    {"a": 1, "b": -1.0, "c": 0},
    {"a": 1, "b": -1, "c": 0},        # ints: "division by zero"
    # 0 by rounding before Python 3.12, 1.0 from 3.12 on (sum() of floats is compensated):
    # as NetworkX's sum on the Python that runs both
    {"a": 1e16, "b": 1.0, "c": -1e16},
])
def test_eigenvector_nstart_zero_sum_as_networkx(device, nstart):
    G = nx.path_graph(["a", "b", "c"])
    exp = _raised(lambda: nx.eigenvector_centrality(G, nstart=nstart))
    got = _raised(lambda: nxc.eigenvector_centrality(convert(G, device, weight=None),
                                                     nstart=nstart))
    assert got == exp
    if sum(nstart.values()) == 0:
        assert exp[0] is ZeroDivisionError


def test_eigenvector_numpy_nstart_zero_sum_is_not_zerodivision(device):
    """NumPy scalars divide by 0 into inf / NaN (NetworkX then fails to converge): the backend
    must not raise Python's ZeroDivisionError; it refuses (NetworkX runs it)."""
    G = nx.path_graph(["a", "b", "c"])
    nstart = {"a": np.float64(1), "b": np.float64(-1), "c": np.float64(0)}
    with np.errstate(divide="ignore", invalid="ignore"):
        exp = _raised(lambda: nx.eigenvector_centrality(G, nstart=nstart))
        got = _raised(lambda: nxc.eigenvector_centrality(convert(G, device, weight=None),
                                                         nstart=nstart))
    assert exp[0] is nx.PowerIterationFailedConvergence
    assert got == exp or got[0] is NotImplementedError


def test_eigenvector_nstart_sum_in_nstart_order(device):
    """NetworkX divides by sum(nstart.values()) in nstart's order; the answer follows it."""
    G = nx.path_graph(["a", "b", "c"])
    nstart = {"c": 3, "a": 1.5, "b": -0.25}
    exp = nx.eigenvector_centrality(G, nstart=nstart)
    got = nxc.eigenvector_centrality(convert(G, device, weight=None), nstart=nstart)
    assert list(got) == list(exp)
    assert all(math.isclose(got[k], exp[k], rel_tol=1e-12) for k in exp)


# ------------------------------------------------------- backend: what can_run leaves to NetworkX
@pytest.mark.parametrize("name, kwargs, word", [
    ("katz_centrality", {"alpha": np.float32(0.1)}, "alpha"),
    ("katz_centrality", {"alpha": np.float16(0.1)}, "alpha"),
    ("katz_centrality", {"beta": {0: np.float32(1), 1: 1.0, 2: 1.0}}, "beta"),
    ("katz_centrality", {"nstart": {0: np.float32(1), 1: 1.0, 2: 1.0}}, "nstart"),
    ("eigenvector_centrality", {"nstart": {0: np.int8(100), 1: np.int8(100), 2: 1}}, "nstart"),
    ("eigenvector_centrality", {"nstart": {0: np.float32(1), 1: 1, 2: 1}}, "nstart"),
    ("hits", {"tol": -1.0}, "tol"),
    ("hits", {"tol": float("nan")}, "tol"),
    ("hits", {"tol": "x"}, "tol"),
])
def test_narrow_scalars_and_bad_hits_tol_go_to_networkx(name, kwargs, word):
    G = nx.path_graph(3)
    reason = bi.can_run(name, (G,), kwargs)
    assert reason is not True and word in reason


@pytest.mark.parametrize("name, kwargs", [
    ("katz_centrality", {"alpha": np.float64(0.1)}),
    ("katz_centrality", {"beta": {0: np.float64(1), 1: np.int64(2), 2: 1.0}}),
    ("eigenvector_centrality", {"nstart": {0: np.int64(1), 1: 2, 2: 3.0}}),
    ("hits", {"tol": 0}), ("hits", {"tol": 1e-8}),
])
def test_wide_scalars_and_hits_tol_run_here(name, kwargs):
    assert bi.can_run(name, (nx.path_graph(3),), kwargs) is True


def test_narrow_alpha_networkx_iterates_in_float32():
    """Why alpha np.float32 is refused: NetworkX's answers are float32 (NEP 50)."""
    c = nx.katz_centrality(nx.path_graph(3), alpha=np.float32(0.1))
    assert all(type(v) is np.float32 for v in c.values())


@pytest.mark.parametrize("wf", [0, 1, "", np.bool_(True)])
def test_closeness_truthy_wf_improved_as_networkx(device, wf):
    G = nx.DiGraph([(0, 1), (1, 2)])
    G.add_node(3)
    exp = nx.closeness_centrality(G, wf_improved=wf)
    got = nxc.closeness_centrality(convert(G, device, weight=None), wf_improved=wf)
    assert list(got) == list(exp) and all(math.isclose(got[k], exp[k]) for k in exp)
    assert nxc.katz_centrality(convert(G, device, weight=None), normalized=0) == \
        pytest.approx(nx.katz_centrality(G, normalized=0), rel=1e-12)


@pytest.mark.parametrize("w", [2**62, 2**63 - 1])
def test_huge_int_distances_as_networkx(device, w):
    """NetworkX adds Python ints; the engine's int64 SSSP raised DistanceOverflow here."""
    G = nx.DiGraph()
    nx.add_path(G, range(5), weight=w)
    for f_nx, f_sr in ((nx.closeness_centrality, nxc.closeness_centrality),
                       (nx.harmonic_centrality, nxc.harmonic_centrality)):
        exp = f_nx(G, distance="weight")
        got = f_sr(convert(G, device), distance="weight")
        assert _typed(got) == _typed(exp) or all(
            type(got[k]) is type(exp[k]) and math.isclose(got[k], exp[k], rel_tol=1e-12)
            for k in exp) and list(got) == list(exp)
    S = sp.csr_matrix(np.diag(np.full(4, w, dtype=np.int64), 1))
    A = sr.Matrix.from_scipy(S, device=device)
    ref_c, _ = networkx_distances(S)
    np.testing.assert_allclose(to_host(algorithms.closeness_centrality(A, weighted=True)),
                               ref_c, rtol=1e-12, atol=0)


@pytest.mark.parametrize("kwargs", [
    {"alpha": 1, "beta": {0: 1, 1: 2, 2: 3, "x": 1}, "normalized": False},  # walk counts
    {"alpha": 0, "beta": {0: 5, 1: -2, 2: 0, "x": 1}, "normalized": False},
    {"alpha": 1, "beta": {0: 1, 1: 2, 2: 3, "x": 1}, "normalized": False,
     "nstart": {"x": 0, 2: 4, 1: 0, 0: 1}},
    {"alpha": 1, "beta": 2, "normalized": False},                            # float(beta)
    {"alpha": 1, "beta": {0: 1, 1: 2, 2: 3, "x": 1}, "normalized": True},
])
def test_katz_integer_arithmetic_keeps_networkx_types(device, kwargs):
    """NetworkX's Katz iteration in Python ints (int alpha, a beta dict of ints, unit
    weights, not normalized) returns ints; otherwise floats. (A beta dict of ints and floats
    gives NetworkX's per-node mix, not matched: the backend returns floats there.)"""
    G = nx.DiGraph([(0, 1), (1, 2), ("x", 2)])
    exp = nx.katz_centrality(G, **kwargs)
    got = nxc.katz_centrality(convert(G, device, weight=None), **kwargs)
    assert [(k, type(v)) for k, v in got.items()] == [(k, type(v)) for k, v in exp.items()]
    assert all(math.isclose(got[k], exp[k], rel_tol=1e-12) for k in exp)
