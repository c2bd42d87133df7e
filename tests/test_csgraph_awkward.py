"""The csgraph facade on the input kinds and arguments an outside reviewer tries first and the
random sweeps did not draw (session 15's audit, ``bench/results/session15/audit8.md``): each
test is one defect found against SciPy 1.17 itself (its answer, its output class, its error
class), run on every backend (``device``; on the CPU both the SciPy path and the engine path,
``_validation.FORCE_ENGINE``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import assume, given, strategies as st

import semiring as sr
from algorithms import csgraph
from algorithms.csgraph import _validation
from conftest import to_host
from test_csgraph_facade import _simple_paths, as_kind, backend, graphs, kind, scipy_input, weights

__all__ = ["backend", "kind"]  # fixtures used by the tests below


def _raw_csr_32(device):
    """A float32 CSR whose row 0 stores (0, 2) = 5 and the column 1 twice (1, then 2), unsorted
    (SciPy's Floyd–Warshall keeps the smaller of the two, its other methods' cast sums them),
    on the device (cupyx) or the host, with the host copy SciPy is called with."""
    data = np.array([5, 1, 2, 3], np.float32)
    indices, indptr = np.array([2, 1, 1, 0], np.int64), np.array([0, 3, 4, 4, 4], np.int64)
    S = sp.csr_array((data, indices, indptr), shape=(4, 4))
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy: GPU runs only)

        G = cps.csr_matrix((cp.asarray(data), cp.asarray(indices.astype(np.int32)),
                            cp.asarray(indptr.astype(np.int32))), shape=(4, 4))
        G.has_canonical_format = False
        return G, S
    return S, S


@pytest.mark.parametrize("directed", [True, False])
def test_floyd_warshall_keeps_the_smallest_of_a_narrow_dtypes_duplicates(backend, directed):
    """Defect 1: a float32 CSR with a duplicate entry: SciPy's Floyd–Warshall (so also
    shortest_path's 'FW' and the 'auto' that picks it) reads the smaller (its dense conversion
    casts without summing); the host path summed them (3 for 1 + 2) through the CSR cast."""
    device, _ = backend
    x, ref = _raw_csr_32(device)
    want = scg.floyd_warshall(ref, directed=directed)
    assert want[0, 1] == 1.0
    for got in (csgraph.floyd_warshall(x, directed=directed),
                csgraph.shortest_path(x, method="FW", directed=directed),
                csgraph.shortest_path(x, directed=directed)):  # 'auto': 4 entries ≥ N²/4 → FW
        np.testing.assert_array_equal(to_host(got), want)
    # the other methods read SciPy's cast, which sums them: unchanged
    np.testing.assert_array_equal(to_host(csgraph.dijkstra(x, directed=directed, indices=0)),
                                  scg.dijkstra(ref, directed=directed, indices=0))


@pytest.mark.parametrize("null_value", [np.inf, -np.inf])
@pytest.mark.parametrize("infinity_null", [True, False])
def test_infinite_null_value_makes_every_infinity_null(backend, null_value, infinity_null):
    """Defect 2: SciPy reads an infinite ``null_value`` as ``infinity_null=True`` (both signs
    are then no edge); ``csgraph_from_dense(null_value=inf, infinity_null=False)`` kept -inf."""
    device, _ = backend
    D = np.array([[0, -np.inf, 1.0], [0, 0, np.inf], [2.0, 0, 0]])
    kw = dict(null_value=null_value, infinity_null=infinity_null)
    want = scg.csgraph_from_dense(D, **kw)
    x = D
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)

        x = cp.asarray(D)
    got = csgraph.csgraph_from_dense(x, **kw)
    got = got.get() if device == "gpu" else got
    assert got.nnz == want.nnz
    np.testing.assert_array_equal(got.toarray(), want.toarray())
    np.testing.assert_array_equal(
        np.ma.getmaskarray(csgraph.csgraph_masked_from_dense(to_host(x), **kw)),
        np.ma.getmaskarray(scg.csgraph_masked_from_dense(D, **kw)))


def test_numpy_matrix_input_answers_a_csr_matrix(backend):
    """Defect 3: SciPy answers a ``numpy.matrix`` with a ``csr_matrix`` in
    ``csgraph_from_dense`` and ``minimum_spanning_tree`` (SciPy's own test_return_type);
    the facade answered ``csr_array``. GPU input (a CuPy array) answers cupyx, as before."""
    device, _ = backend
    D = np.array([[0, 1, 2, 0, 0], [1, 0, 0, 0, 3], [2, 0, 0, 7, 0], [0, 0, 7, 0, 1],
                  [0, 3, 0, 1, 0]], dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        M = np.matrix(D)
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)

        for got in (csgraph.csgraph_from_dense(cp.asarray(D)),
                    csgraph.minimum_spanning_tree(cp.asarray(D))):
            assert type(got).__module__.startswith("cupyx")
        return
    for f in ("csgraph_from_dense", "minimum_spanning_tree"):
        got, want = getattr(csgraph, f)(M), getattr(scg, f)(M)
        assert type(got) is type(want) is sp.csr_matrix, f
        np.testing.assert_array_equal(got.toarray(), want.toarray())
    # SciPy's test_return_type: the trees of that csr_matrix are csr_matrix too
    G = csgraph.csgraph_from_dense(M, null_value=0)
    for directed in (True, False):
        assert isinstance(csgraph.depth_first_tree(G, 0, directed), sp.csr_matrix)
        assert isinstance(csgraph.breadth_first_tree(G, 0, directed), sp.csr_matrix)


def _on(device, G):
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)

        return cp.asarray(G)
    return G


def test_yen_negative_weights_as_scipy(backend):
    """Defect 4: SciPy's yen applies Johnson's reweighting to negative weights (its own
    test_yen_negative_weights: [-2.]) and raises NegativeCycleError on a negative cycle (its
    test_negative_cycles); the facade refused negative weights (InvalidValue)."""
    device, _ = backend
    G = np.array([[0, 0, 0], [-1, 0, 0], [0, -1, 0]], dtype=float)  # SciPy's test graph
    np.testing.assert_array_equal(to_host(csgraph.yen(_on(device, G), 2, 0, 1)), [-2.0])
    G[2, 0] = -3  # SciPy 1.17.1: ([-3, -2], [[2, -9999, -9999], [1, 2, -9999]])
    d, p = csgraph.yen(_on(device, G), 2, 0, 3, return_predecessors=True)
    np.testing.assert_array_equal(to_host(d), [-3.0, -2.0])
    np.testing.assert_array_equal(to_host(p), [[2, -9999, -9999], [1, 2, -9999]])
    cyc = np.ones((5, 5))
    cyc.flat[::6] = 0
    cyc[1, 2] = -2
    for directed in (True, False):
        with pytest.raises(scg.NegativeCycleError):
            csgraph.yen(_on(device, cyc), 0, 1, 1, directed=directed)
    und = np.array([[0, -1.0], [0, 0]])  # an undirected negative edge is a cycle u → v → u
    with pytest.raises(scg.NegativeCycleError):
        csgraph.yen(_on(device, und), 0, 1, 2, directed=False)
    np.testing.assert_array_equal(to_host(csgraph.yen(_on(device, und), 0, 1, 2)), [-1.0])


@given(data=st.data(), g=graphs(negative=True, zeros=False, inf=False), directed=st.booleans(),
       K=st.integers(1, 4))
def test_yen_negative_weights_match_brute_force(backend, kind, data, g, directed, K):
    """The K smallest simple-path lengths of graphs with negative weights, or
    NegativeCycleError exactly where SciPy's johnson raises it (a cycle anywhere)."""
    device, _ = backend
    assume(g[0] > 0)
    x, ref = as_kind(g, kind, device)
    ref_in = scipy_input(ref)
    s, t = data.draw(st.integers(0, g[0] - 1)), data.draw(st.integers(0, g[0] - 1))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scg.johnson(ref_in, directed=directed)
    except scg.NegativeCycleError:
        with pytest.raises(scg.NegativeCycleError):
            csgraph.yen(x, s, t, K, directed=directed)
        return
    W = weights(ref_in)
    if not directed:
        W = np.minimum(W, W.T)
    want = sorted(_simple_paths(W, s, t))[:K]
    got = to_host(csgraph.yen(x, s, t, K, directed=directed))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want)


def test_out_of_range_vertices_raise_scipys_value_error(backend):
    """Defect 5: SciPy raises ValueError for ``indices`` out of range ("indices out of range
    0...N") and yen's ``source``/``sink`` ("must have 0 <= source < N ..."); the facade raised
    InvalidIndex, an IndexError only, so ``pytest.raises(ValueError)`` (SciPy's own
    test_yen_source_sink_validation) failed. Now both, naming the argument."""
    device, _ = backend
    G = _on(device, np.array([[0, 1.0, 0], [0, 0, 2.0], [0, 0, 0]]))
    for f in (csgraph.dijkstra, csgraph.bellman_ford, csgraph.johnson, csgraph.shortest_path):
        for bad in (3, -4, [0, 5]):
            with pytest.raises(ValueError, match="indices"):
                f(G, indices=bad)
            with pytest.raises(sr.InvalidIndex):
                f(G, indices=bad)
    for source, sink in ((0, -1), (10000, 1), (2, 6)):
        with pytest.raises(ValueError, match="must have 0 <="):
            csgraph.yen(G, source, sink, 2)
    with pytest.raises(ValueError, match="i_start"):
        csgraph.breadth_first_order(G, 3)


def test_integral_float_i_start_as_scipy(backend):
    """Defect 6: SciPy reads ``i_start=1.0`` as vertex 1 (as the facade reads ``indices=1.0``);
    the facade refused it. A non-integral one is still refused (SciPy truncates it)."""
    device, _ = backend
    D = np.array([[0, 2, 0, 0], [0, 0, 3, 0], [1, 0, 0, 4], [0, 0, 0, 0]], dtype=float)
    for f in ("breadth_first_order", "depth_first_order"):
        got = getattr(csgraph, f)(_on(device, D), 1.0)
        want = getattr(scg, f)(D, 1)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(to_host(a), b)
    with pytest.raises(sr.DomainMismatch, match="i_start"):
        csgraph.breadth_first_order(_on(device, D), 1.5)


def test_laplacian_form_error_says_scipys_words(backend):
    """SciPy's test_format_error_message matches "Invalid form: 'toto'"."""
    device, _ = backend
    with pytest.raises(ValueError, match="Invalid form: 'toto'"):
        csgraph.laplacian(_on(device, np.eye(3)), form="toto")


@pytest.mark.parametrize("normed", [False, True])
@pytest.mark.parametrize("form", ["array", "function", "lo"])
@pytest.mark.parametrize("sparse", [False, True])
def test_laplacian_of_complex_weights_as_scipy(backend, normed, form, sparse):
    """Defect 7: SciPy's laplacian computes with complex weights (its own test_format and
    test_asymmetric_laplacian run complex64/complex128); the facade refused them."""
    device, _ = backend
    A = np.array([[0, 1 + 2j, 0], [4, 2, 0], [0, 0, 0]], dtype=np.complex128)
    ref = sp.coo_array(A) if sparse else A
    want = scg.laplacian(ref, normed=normed, form=form, return_diag=True)
    x = ref
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy: GPU runs only)

        x = cps.coo_matrix(sp.coo_matrix(A)) if sparse else cp.asarray(A)
    got = csgraph.laplacian(x, normed=normed, form=form, return_diag=True)
    np.testing.assert_allclose(to_host(got[1]), want[1], rtol=1e-12)
    X = np.arange(6, dtype=np.complex128).reshape(3, 2)
    if form == "array":
        L = got[0].get() if device == "gpu" and sparse else got[0]
        L = L.toarray() if sp.issparse(L) else to_host(L)
        W = want[0].toarray() if sp.issparse(want[0]) else want[0]
        assert L.dtype == W.dtype
        np.testing.assert_allclose(L, W, rtol=1e-12)
    else:
        Y = got[0](_on(device, X)) if form == "function" else got[0] @ _on(device, X)
        np.testing.assert_allclose(to_host(Y), want[0](X) if form == "function"
                                   else want[0] @ X, rtol=1e-12)


@pytest.mark.parametrize("f, kw", [("bellman_ford", {}), ("johnson", {}),
                                   ("shortest_path", dict(method="BF")),
                                   ("floyd_warshall", {}), ("dijkstra", dict(unweighted=True)),
                                   ("floyd_warshall", dict(unweighted=True))])
def test_stored_minus_infinity(backend, f, kw):
    """Defect 8: the engine path dropped a stored -inf edge as it drops a stored +inf (which
    lies on no finite path), answering as if the edge were absent (0 → 2 unreached below).
    SciPy's answers to -inf follow no rule (-inf here, NaN from johnson, NegativeCycleError on a
    cycle): host input keeps SciPy's, GPU input (the engine) raises InvalidValue; with
    ``unweighted`` the weight does not count and both answer, except in Floyd–Warshall, whose
    ``unweighted`` keeps infinite entries (SciPy: -inf distances; the engine dropped the edge:
    the extended sweep, seed 1, engine path)."""
    device, engine = backend
    G = sp.csr_array((np.array([1.0, -np.inf, 2.0]), ([0, 1, 0], [1, 2, 3])), shape=(4, 4))
    x = G
    if device == "gpu":
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

        x = cps.csr_matrix(sp.csr_matrix(G))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(scg, f)(G, **kw)
    if device == "cpu" and not engine or (kw.get("unweighted") and f != "floyd_warshall"):
        np.testing.assert_array_equal(to_host(getattr(csgraph, f)(x, **kw)), want)
    else:
        with pytest.raises(sr.InvalidValue, match="-inf"):
            getattr(csgraph, f)(x, **kw)


def test_masked_numpy_matrix_reads_as_its_array(backend):
    """Defect 9: a masked ``numpy.matrix`` failed in every function that converts a masked
    array (DimensionMismatch from the matrix's 2-D fancy indexing; SciPy fails too, with
    ValueError 'data, indices, and indptr should be 1-D'): it now reads as the masked ndarray
    (a masked array has no GPU form: the GPU run checks the same host input)."""
    D = np.array([[0, 2, 0, 0], [0, 0, 3, 0], [1, 0, 0, 4], [0, 0, 0, 0.]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        M = np.ma.masked_array(np.matrix(D), mask=np.matrix(D == 0))
    A = np.ma.masked_array(D, mask=D == 0)
    for f, args in (("dijkstra", ()), ("breadth_first_order", (0,)),
                    ("connected_components", ()), ("csgraph_from_masked", ())):
        got, want = getattr(csgraph, f)(M, *args), getattr(csgraph, f)(A, *args)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        for x, y in zip(got, want):
            x, y = (z.toarray() if sp.issparse(z) else to_host(np.asarray(z)) for z in (x, y))
            np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(to_host(csgraph.dijkstra(A)), scg.dijkstra(A))


@pytest.mark.parametrize("limit", [None, "3"])
def test_dijkstra_limit_must_be_a_number(backend, limit):
    """``limit=None`` raised a bare TypeError from ``float()`` naming no argument, and
    ``limit='3'`` was read as 3 (SciPy: TypeError for both)."""
    device, _ = backend
    with pytest.raises(sr.DomainMismatch, match="limit"):
        csgraph.dijkstra(_on(device, np.eye(2)), limit=limit)


def test_conversions_refuse_a_non_square_graph(backend):
    """Defect 10: ``csgraph_from_dense``, ``csgraph_from_masked`` and ``csgraph_to_masked``
    (and ``csgraph_to_dense`` of GPU input) answered a non-square graph, where SciPy raises
    ValueError ("graph should be a square array"); now a DimensionMismatch (a ValueError)."""
    device, _ = backend
    D = np.ones((2, 3))
    if device == "gpu":
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

        calls = [(csgraph.csgraph_from_dense, _on(device, D)),
                 (csgraph.csgraph_to_dense, cps.csr_matrix(sp.csr_matrix(D))),
                 (csgraph.csgraph_to_masked, cps.csr_matrix(sp.csr_matrix(D)))]
    else:
        calls = [(csgraph.csgraph_from_dense, D), (csgraph.csgraph_masked_from_dense, D),
                 (csgraph.csgraph_from_masked, np.ma.masked_array(D, mask=D == 0)),
                 (csgraph.csgraph_to_dense, sp.csr_array(D)),
                 (csgraph.csgraph_to_masked, sp.csr_array(D))]
    for f, x in calls:
        with pytest.raises(ValueError, match="square"):
            f(x)
    for f, x in calls[:1]:  # SciPy's own error, for the record
        with pytest.raises(ValueError, match="square"):
            getattr(scg, f.__name__)(to_host(x))


def test_undirected_bellman_ford_on_fractional_weights(backend):
    """Defect 11 (SciPy's, which the host path passed on): SciPy 1.17's undirected
    Bellman–Ford raises NegativeCycleError on a path of positive fractional weights (its final
    test ``abs(d(v) − d(u)) > w + 1e-15`` is below one ulp of the distances); the facade now
    answers the distances (Dijkstra's: no negative edge in the sources' components) on every
    path, and still raises where a negative edge is reachable."""
    device, _ = backend
    w = np.array([3.563, 7.493, 7.295, 8.824, 6.83, 5.955, 5.264])
    r = np.arange(7)
    G = sp.csr_matrix((np.r_[w, -1.0], (np.r_[r, 8], np.r_[r + 1, 9])), shape=(10, 10))
    with pytest.raises(scg.NegativeCycleError):  # SciPy's false positive, for the record
        scg.bellman_ford(G, directed=False, indices=0)
    want = scg.dijkstra(G[:8, :8], directed=False, indices=[0, 7], return_predecessors=True)
    x = G
    if device == "gpu":
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

        x = cps.csr_matrix(G)
    for f, kw in ((csgraph.bellman_ford, {}), (csgraph.shortest_path, dict(method="BF"))):
        d, p = f(x, directed=False, indices=[0, 7], return_predecessors=True, **kw)
        np.testing.assert_array_equal(to_host(d)[:, :8], want[0])
        assert np.isinf(to_host(d)[:, 8:]).all()
        np.testing.assert_array_equal(to_host(p)[:, :8], want[1])
        with pytest.raises(scg.NegativeCycleError):  # the negative edge 8 - 9: a real cycle
            f(x, directed=False, indices=[0, 8], **kw)
