"""The csgraph facade against SciPy 1.17.1 itself, session 18's fourth audit
(``bench/results/session18/sp12_audit.md``; driver ``bench/probes/sp12_audit.py``): the
stored layout of sparse answers and the number types SciPy reads as vertices and counts.
Each test is one defect found there, run on every backend (``backend``: on the CPU both the
SciPy path and the engine path, ``_validation.FORCE_ENGINE``; GPU input on the GPU)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import semiring as sr
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


def _tree_graph(n=40, seed=3):
    """A random weighted tree (each vertex's parent drawn among the earlier ones, edges both
    ways: its breadth- and depth-first trees have vertices with many children) plus a few
    one-way edges."""
    rng = np.random.default_rng(seed)
    D = np.where(rng.random((n, n)) < 0.03, rng.integers(1, 9, (n, n)).astype(float), 0.0)
    for v in range(1, n):
        u = int(rng.integers(0, max(1, v // 4)))
        D[u, v] = D[v, u] = float(rng.integers(1, 9))
    return D


def _same_storage(got, want):
    """The CSR arrays exactly as SciPy stores them (each row's column order included)."""
    assert type(got) is type(want)
    np.testing.assert_array_equal(got.indptr, want.indptr)
    np.testing.assert_array_equal(got.indices, want.indices)
    np.testing.assert_array_equal(got.data, want.data)
    assert got.has_sorted_indices == want.has_sorted_indices


# ------------------------------------------------------------------------------ defect 1

@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("pred_dtype", [np.int32, np.int64, ">i4"])
@pytest.mark.parametrize("kind", ["csr_array", "csr_matrix", "dense"])
def test_reconstruct_path_stores_rows_in_scipys_order(backend, directed, pred_dtype, kind):
    # SciPy's reconstruct_path stores a row's children in np.argsort(predecessors) order
    # (unsorted: has_sorted_indices False); ours sorted them (both paths)
    device, _ = backend
    if device == "gpu":
        pytest.skip("CuPy's argsort is stable: GPU answers store sorted rows")
    D = _tree_graph()
    G = D if kind == "dense" else getattr(sp, kind)(D)
    _, pred = scg.breadth_first_order(G, 0, directed=directed)
    pred = pred.astype(pred_dtype)
    want = scg.reconstruct_path(G, pred, directed=directed)
    assert not want.has_sorted_indices  # (the case this test is about)
    _same_storage(csgraph.reconstruct_path(G, pred, directed=directed), want)


# ------------------------------------------------------------------------------ defect 2

@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("name", ["breadth_first_tree", "depth_first_tree"])
@pytest.mark.parametrize("kind", ["csr_array", "csr_matrix", "dense", "coo_array"])
def test_traversal_trees_store_rows_in_scipys_order(backend, directed, name, kind):
    # SciPy's trees are its reconstruct_path of the traversal's int32 predecessors; the
    # engine path built them with sorted rows
    device, _ = backend
    if device == "gpu":
        pytest.skip("CuPy's argsort is stable: GPU answers store sorted rows")
    D = _tree_graph(seed=5)
    G = D if kind == "dense" else getattr(sp, kind)(D)
    want = getattr(scg, name)(G, 0, directed=directed)
    assert not want.has_sorted_indices
    _same_storage(getattr(csgraph, name)(G, 0, directed=directed), want)


# ------------------------------------------------------------------------------ defect 3

class _Index:
    """An integer only through ``__index__`` (as SciPy's ``K`` is read)."""

    def __index__(self):
        return 2


@pytest.mark.parametrize("K", [np.array(2), np.array(2, dtype=np.uint8), _Index()],
                         ids=["0-d int64", "0-d uint8", "__index__"])
def test_yen_reads_k_as_an_index(backend, K):
    # SciPy allocates np.empty(K): 0-d integer arrays and __index__ objects are counts;
    # ours refused anything but int / np.integer
    device, _ = backend
    D = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 1, 0.]])
    want = scg.yen(sp.csr_array(D), 0, 3, K)
    got = csgraph.yen(_on(device, D), 0, 3, K)
    np.testing.assert_array_equal(to_host(got), want)


@pytest.mark.parametrize("K", [np.array([2]), np.array(2.0), np.array(True), 2.0, True],
                         ids=["1-D", "0-d float", "0-d bool", "float", "bool"])
def test_yen_refuses_what_scipy_refuses_as_k(backend, K):
    device, _ = backend
    D = np.array([[0, 1.0], [0, 0]])
    with pytest.raises(TypeError):
        scg.yen(sp.csr_array(D), 0, 1, K)
    with pytest.raises(TypeError, match="K must be an integer"):
        csgraph.yen(_on(device, D), 0, 1, K)


# ------------------------------------------------------------------------------ defect 4

@pytest.mark.parametrize("connection", [b"weak", b"strong"])
def test_connection_bytes_is_scipys_value_error(backend, connection):
    # SciPy calls connection.lower() and raises ValueError for bytes; ours a TypeError
    device, _ = backend
    D = np.array([[0, 1.0], [0, 0]])
    with pytest.raises(ValueError):
        scg.connected_components(D, connection=connection)
    with pytest.raises(ValueError, match="'weak' or 'strong'"):
        csgraph.connected_components(_on(device, D), connection=connection)


# ------------------------------------------------------------------------------ defect 5

G5 = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 1, 0.]])


@pytest.mark.parametrize("indices", [np.array([0, 2], dtype=object), [Fraction(1), 2],
                                     Decimal(3), np.array([[0], [Decimal(1)]], dtype=object),
                                     [_Index(), 0], np.array(1, dtype=object),
                                     [np.array(1.0, dtype=object), 0]],
                         ids=["object ints", "Fraction", "Decimal", "2-D object",
                              "__index__", "0-d object", "0-d arrays in a list"])
@pytest.mark.parametrize("name", ["dijkstra", "bellman_ford", "johnson", "shortest_path"])
def test_integral_numbers_of_other_types_as_indices(backend, indices, name):
    # SciPy converts indices to int32 (int() / __index__ of each); ours refused object arrays
    device, _ = backend
    want = getattr(scg, name)(G5, indices=indices, return_predecessors=True)
    got = getattr(csgraph, name)(_on(device, G5), indices=indices, return_predecessors=True)
    np.testing.assert_array_equal(to_host(got[0]), want[0])
    np.testing.assert_array_equal(to_host(got[1]), want[1])


@pytest.mark.parametrize("v", [Fraction(1), Decimal(1), np.array(1, dtype=object)],
                         ids=["Fraction", "Decimal", "0-d object"])
def test_integral_numbers_of_other_types_as_vertices(backend, v):
    # SciPy reads i_start, yen's source/sink and maximum_flow's sink as numbers; ours
    # refused all but int, NumPy integers and integral floats
    device, _ = backend
    G = _on(device, G5)
    o, p = csgraph.breadth_first_order(G, v)
    wo, wp = scg.breadth_first_order(G5, v)
    np.testing.assert_array_equal(to_host(o), wo)
    np.testing.assert_array_equal(to_host(p), wp)
    np.testing.assert_array_equal(to_host(csgraph.depth_first_order(G, v)[0]),
                                  scg.depth_first_order(G5, v)[0])
    np.testing.assert_array_equal(to_host(csgraph.yen(G, v, 3, 2)), scg.yen(G5, v, 3, 2))
    np.testing.assert_array_equal(to_host(csgraph.yen(G, 0, v, 2)), scg.yen(G5, 0, v, 2))
    C = sp.csr_array(G5.astype(np.int32))
    # on the GPU an integer semiring.Matrix: cupyx cannot hold integers, and the facade
    # refuses float capacities there (README's table)
    Cg = sr.Matrix.from_scipy(C, device="gpu") if device == "gpu" else C
    assert csgraph.maximum_flow(Cg, 0, v).flow_value == scg.maximum_flow(C, 0, v).flow_value


@pytest.mark.parametrize("v", [Fraction(3, 2), Decimal("1.5"), np.array(True, dtype=object),
                               Decimal("NaN")],
                         ids=["Fraction 3/2", "Decimal 1.5", "0-d object bool", "Decimal nan"])
def test_non_integral_numbers_stay_refused(backend, v):
    # the documented deviation (SciPy truncates them / reads True as 1)
    device, _ = backend
    G = _on(device, G5)
    with pytest.raises(TypeError, match="i_start must be an integer"):
        csgraph.breadth_first_order(G, v)
    with pytest.raises(TypeError, match="indices must be integers"):
        csgraph.dijkstra(G, indices=np.array([v, 0], dtype=object))


# ------------------------------------------------------------------------------ defect 6

def _not_2d(shape_kind):
    if shape_kind == "1-D csr":
        return sp.csr_array(np.array([0, 1.0, 2.0]))
    if shape_kind == "1-D coo":
        return sp.coo_array(np.array([0, 1.0, 2.0]))
    return sp.coo_array(np.ones((2, 2, 2)))


@pytest.mark.parametrize("shape_kind", ["1-D csr", "1-D coo", "3-D coo"])
@pytest.mark.parametrize("name", ["maximum_bipartite_matching", "structural_rank",
                                  "min_weight_full_bipartite_matching", "reverse_cuthill_mckee",
                                  "floyd_warshall", "csgraph_to_dense", "csgraph_to_masked",
                                  "dijkstra"])
def test_sparse_arrays_not_2d_raise_a_named_error_of_scipys_class(backend, shape_kind, name):
    # SciPy fails on 1-D / 3-D sparse arrays by unpacking or indexing their shape (ValueError
    # or IndexError, no argument named); ours raised a bare IndexError
    # (min_weight_full_bipartite_matching), passed SciPy's unnamed one through, or a
    # ValueError where SciPy's was an IndexError (floyd_warshall, csgraph_to_dense of 1-D CSR)
    device, _ = backend
    if device == "gpu":
        pytest.skip("scipy.sparse 1-D and n-D arrays: host input only")
    G = _not_2d(shape_kind)
    try:
        getattr(scg, name)(G)
    except Exception as e:  # noqa: BLE001  (its class is what is compared)
        want = type(e)
    else:
        pytest.fail("SciPy answered")
    with pytest.raises(Exception) as got:
        getattr(csgraph, name)(G)
    assert isinstance(got.value, want), (type(got.value), want)
    if want is not TypeError:  # (TypeError: SciPy's format error comes first, as ours)
        assert "must be 2-D" in str(got.value)


@pytest.mark.parametrize("mask", ["nulls", "some vertices"])
def test_reconstruct_path_reads_a_masked_predecessor_arrays_data(backend, mask):
    # (a guard for defect 1's fix, which sorts the caller's own array as SciPy does: SciPy's
    # count of negatives skips masked entries, then indexes out of bounds with a masked
    # -9999 or builds rows from the unsorted masked tail; the facade reads the data)
    device, _ = backend
    if device == "gpu":
        pytest.skip("masked arrays are host input")
    D = _tree_graph(seed=8)
    _, pred = scg.breadth_first_order(D, 0)
    m = pred < 0 if mask == "nulls" else np.arange(pred.size) % 7 == 3
    want = scg.reconstruct_path(D, pred)
    _same_storage(csgraph.reconstruct_path(D, np.ma.masked_array(pred, mask=m)), want)
