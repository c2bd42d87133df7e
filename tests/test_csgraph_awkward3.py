"""The csgraph facade's *arguments* in odd values, against SciPy 1.17.1 itself (session 17's
third audit, ``bench/results/session17/sp11_audit.md``; driver
``bench/probes/csgraph_args_audit.py``): each test is one defect found there (SciPy's answer
or its error class), run on every backend (``backend``: on the CPU both the SciPy path and
the engine path, ``_validation.FORCE_ENGINE``; GPU input on the GPU)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from conftest import to_host
from test_csgraph_facade import backend

__all__ = ["backend"]  # the fixture used by the tests below


def _on(device, D):
    """A dense host array as the backend's input (a CuPy array on the GPU)."""
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)

        return cp.asarray(D)
    return D


def _scipy_outcome(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(*args, **kw), None
        except Exception as e:  # noqa: BLE001  (the class is what is compared)
            return None, e


#: A graph whose directed and undirected distances differ (d(1, 0) = 5 directed, 1 not).
ONE_WAY = np.array([[0, 1.0, 0], [5.0, 0, 2.0], [0, 0, 0]])


# ------------------------------------------------------------------------------ defect 1

@pytest.mark.parametrize("fmt", ["dok_array", "lil_matrix", "dia_array", "bsr_array"])
@pytest.mark.parametrize("W", [[[1.0, 2.0], [3.0, 1.0]], [[1.0, 2.0], [3.0, 1e300]]],
                         ids=["plain", "spread"])
def test_min_weight_matching_refuses_other_formats_with_scipys_type_error(backend, fmt, W):
    # SciPy: TypeError "graph must be in CSC, CSR, or COO format."; ours read .data first
    # (AttributeError on DOK, InvalidValue on a DIA's padded data with a wide spread)
    device, _ = backend
    if device == "gpu":
        pytest.skip("scipy.sparse formats cupyx lacks (DOK, LIL, BSR): host input only")
    G = getattr(sp, fmt)(np.array(W))
    _, err = _scipy_outcome(scg.min_weight_full_bipartite_matching, G)
    assert type(err) is TypeError
    with pytest.raises(TypeError, match="CSC, CSR, or COO"):
        csgraph.min_weight_full_bipartite_matching(G)


# ------------------------------------------------------------------------------ defect 2

@pytest.mark.parametrize("null_value", [[0], (0,), [[0]], np.array([1.0]), [np.inf], "0"])
def test_from_dense_one_element_null_value_as_scipy(backend, null_value):
    # SciPy reads DTYPE(null_value): a one-element sequence is its element; ours raised
    # float()'s TypeError on a list
    device, _ = backend
    D = np.array([[0, 1.0, 2.0], [np.inf, 0, 1.0], [0, 0, 0]])
    want = scg.csgraph_from_dense(D, null_value=null_value)
    got = csgraph.csgraph_from_dense(_on(device, D), null_value=null_value)
    assert got.nnz == want.nnz
    np.testing.assert_array_equal(to_host(got.toarray()), want.toarray())


def test_from_dense_sequence_null_value_is_a_value_error(backend):
    device, _ = backend
    D = np.array([[0, 1.0], [2.0, 0]])
    _, err = _scipy_outcome(scg.csgraph_from_dense, D, null_value=[0, 1])
    assert isinstance(err, ValueError)
    with pytest.raises(ValueError, match="null_value"):
        csgraph.csgraph_from_dense(_on(device, D), null_value=[0, 1])


# ------------------------------------------------------------------------------ defect 3

FW_CALLS = [("floyd_warshall", {}), ("shortest_path", {"method": "FW"}),
            ("shortest_path", {})]  # 'auto' on a dense array: SciPy picks FW


@pytest.mark.parametrize("f,kw", FW_CALLS, ids=["fw", "sp-FW", "sp-auto"])
@pytest.mark.parametrize("directed", [0.5, "0", "1", np.float64(0.25), 2, np.array(0.0)],
                         ids=repr)
def test_floyd_warshall_reads_directed_as_scipys_int(backend, f, kw, directed):
    # SciPy's FW calls int(directed): 0.5 and '0' are undirected; the engine path read
    # Python truthiness (directed distances)
    device, _ = backend
    want = getattr(scg, f)(ONE_WAY, directed=directed, **kw)
    got = getattr(csgraph, f)(_on(device, ONE_WAY), directed=directed, **kw)
    np.testing.assert_array_equal(to_host(got), want)


@pytest.mark.parametrize("f,kw", FW_CALLS, ids=["fw", "sp-FW", "sp-auto"])
@pytest.mark.parametrize("directed", [None, "yes", [], [1], np.nan, 1 + 0j, np.array([1])],
                         ids=repr)
def test_floyd_warshall_bad_directed_raises_scipys_class(backend, f, kw, directed):
    # SciPy: int()'s TypeError or ValueError; the engine path answered
    device, _ = backend
    _, err = _scipy_outcome(getattr(scg, f), ONE_WAY, directed=directed, **kw)
    assert err is not None
    with pytest.raises(type(err), match="directed"):
        getattr(csgraph, f)(_on(device, ONE_WAY), directed=directed, **kw)


# ------------------------------------------------------------------------------ defect 4

def _undirected_predecessors():
    return scg.shortest_path(ONE_WAY.copy(), directed=False, return_predecessors=True)[1]


@pytest.mark.parametrize("directed", [0.5, np.float64(0.25), np.array(0.0), 2, -1, True],
                         ids=repr)
def test_construct_dist_matrix_reads_directed_as_scipys_int(backend, directed):
    # SciPy's Cython signature converts directed to an int: 0.5 is undirected
    device, _ = backend
    P = _undirected_predecessors()
    want = scg.construct_dist_matrix(ONE_WAY.copy(), P, directed=directed)
    G = _on(device, ONE_WAY)
    got = csgraph.construct_dist_matrix(G, _on(device, P), directed=directed)
    np.testing.assert_array_equal(to_host(got), want)
    # SciPy 1.17.1 writes inf over the caller's dense zeros (directed=True); ours never
    np.testing.assert_array_equal(to_host(G), ONE_WAY)


@pytest.mark.parametrize("directed", [None, "1", "", [], np.nan, 1 + 0j, np.array([1])],
                         ids=repr)
def test_construct_dist_matrix_bad_directed_raises_scipys_class(backend, directed):
    # SciPy: TypeError ("an integer is required") or ValueError (NaN); ours answered
    device, _ = backend
    P = _undirected_predecessors()
    _, err = _scipy_outcome(scg.construct_dist_matrix, ONE_WAY.copy(), P, directed=directed)
    assert err is not None
    with pytest.raises(type(err), match="directed"):
        csgraph.construct_dist_matrix(_on(device, ONE_WAY), _on(device, P), directed=directed)


# ------------------------------------------------------------------------------ defect 5

FLOW = np.array([[0, 3, 0], [0, 0, 2], [0, 0, 0]], dtype=np.int32)


@pytest.mark.parametrize("source,sink", [(0, 2.0), (0, np.float32(2.0)), (0, np.array(2.0)),
                                         (np.float32(1.0), 1), (1e20, 1), (0, -0.5),
                                         (np.nan, 1), (0.0, 2), (0, 3)], ids=repr)
def test_maximum_flow_vertex_checks_in_scipys_order(backend, source, sink):
    # SciPy checks both ranges and source != sink first (ValueError, whatever the type), then
    # indexes with the source (a float: IndexError); an integral float sink is read as its
    # integer. Ours raised NotAVertex (a TypeError) for every float, 1e20 included, and
    # refused sink=2.0 where SciPy answers 2
    device, _ = backend
    if device == "gpu":
        pytest.skip("integer capacities: cupyx sparse holds no integers (host input only)")
    G = sp.csr_array(FLOW)
    want, err = _scipy_outcome(scg.maximum_flow, G, source, sink)
    if err is None:
        got = csgraph.maximum_flow(G, source, sink)
        assert got.flow_value == want.flow_value
        np.testing.assert_array_equal(got.flow.toarray(), want.flow.toarray())
    else:
        with pytest.raises(type(err)):
            csgraph.maximum_flow(G, source, sink)


# ------------------------------------------------------------------------------ defect 6

@pytest.mark.parametrize("null_value", [None, "0", "yes", [], np.array([1.0])], ids=repr)
def test_construct_dist_matrix_null_value_must_be_a_real_number(backend, null_value):
    # SciPy's compiled signature reads a C double: TypeError for these; ours answered (None
    # as NaN, '0' as 0, array([1]) broadcast) or raised a ValueError
    device, _ = backend
    P = _undirected_predecessors()
    _, err = _scipy_outcome(scg.construct_dist_matrix, ONE_WAY.copy(), P, directed=False,
                            null_value=null_value)
    assert type(err) is TypeError
    with pytest.raises(TypeError, match="null_value"):
        csgraph.construct_dist_matrix(_on(device, ONE_WAY), _on(device, P), directed=False,
                                      null_value=null_value)


@pytest.mark.parametrize("null_value", [np.array(3.0), np.float32(2.0), 5, -np.inf, np.nan],
                         ids=repr)
def test_construct_dist_matrix_real_null_values_as_scipy(backend, null_value):
    device, _ = backend
    G = np.array([[0, 1.0, 0], [0, 0, 2.0], [0, 0, 0]])
    P = scg.shortest_path(G, return_predecessors=True)[1]
    want = scg.construct_dist_matrix(G.copy(), P, null_value=null_value)
    got = csgraph.construct_dist_matrix(_on(device, G), _on(device, P), null_value=null_value)
    np.testing.assert_array_equal(to_host(got), want)
