"""The csgraph facade on input kinds the first audit (``test_csgraph_awkward.py``), SciPy's
own suite and the random sweep did not draw (session 16's second audit,
``bench/results/session16/audit-sp9.md``): each test is one defect found against SciPy 1.17.1
itself (its answer, or its error class), run on every backend (``backend``: on the CPU both
the SciPy path and the engine path, ``_validation.FORCE_ENGINE``; GPU input on the GPU)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import given, strategies as st

import semiring as sr
from algorithms import csgraph
from algorithms.csgraph import _validation
from conftest import to_host
from test_csgraph_facade import backend, check_predecessors

__all__ = ["backend"]  # the fixture used by the tests below


def _host(x):
    """A facade answer (array, sparse, tuple of them; NumPy, CuPy or cupyx) on the host."""
    if isinstance(x, tuple):
        return tuple(_host(y) for y in x)
    if type(x).__module__.startswith("cupyx"):
        return x.get().toarray()
    if sp.issparse(x):
        return x.toarray()
    return to_host(x) if not isinstance(x, (int, np.integer)) else int(x)


def _equal(got, want):
    got, want = _host(got), _host(want)
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for x, y in zip(got, want):
            _equal(x, y)
        return
    if isinstance(want, int):
        assert got == want
        return
    np.testing.assert_array_equal(got, want)


def _dense_on(device, D):
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)

        return cp.asarray(D)
    return D


# ------------------------------------------------------------------------------ defect 1

#: Weights a dense graph can hold that SciPy reads as its null value 0: ``numpy.ma.
#: masked_values`` (SciPy's csgraph_masked_from_dense) tests |x| <= 1e-8 (atol), not x == 0.
NEAR_ZERO = [1e-9, -5e-9, 1e-8, 1e-300, 5e-324, 2e-8, 1e-7, -2e-8]

#: The functions whose dense input goes through SciPy's csgraph_from_dense /
#: csgraph_masked_from_dense (the Laplacian reads the array itself: not one of them).
DENSE_READERS = [
    ("dijkstra", (), {}),
    ("dijkstra", (), dict(directed=False, indices=0, return_predecessors=True)),
    ("bellman_ford", (), {}),
    ("johnson", (), dict(indices=[0, -1])),
    ("floyd_warshall", (), dict(return_predecessors=True)),
    ("shortest_path", (), {}),  # 'auto'
    ("connected_components", (), dict(connection="strong")),
    ("connected_components", (), dict(directed=False)),
    ("breadth_first_order", (0,), {}),
    ("depth_first_order", (0,), dict(directed=False)),
    ("breadth_first_tree", (0,), {}),
    ("minimum_spanning_tree", (), {}),
    ("csgraph_from_dense", (), {}),
    ("laplacian", (), {}),  # reads the array itself: near-zero weights count, as in SciPy
]


@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 7),
       dtype=st.sampled_from([np.float64, np.float32]))
def test_dense_near_zero_weight_is_no_edge_as_scipy(backend, seed, n, dtype):
    """Defect 1: SciPy finds a dense graph's null entries with ``numpy.ma.masked_values``,
    whose float test is ``isclose(x, null_value, rtol=1e-5, atol=1e-8)``: a weight of 1e-9
    (or a subnormal) is no edge. The facade compared ``x != 0`` and kept it as an edge:
    different distances, components, orders and trees (e.g. ``dijkstra([[0, 1e-9], [0, 0]])``:
    SciPy [[0, inf], [inf, 0]], the facade d(0, 1) = 1e-9)."""
    device, _ = backend
    rng = np.random.default_rng(seed)
    D = np.where(rng.random((n, n)) < 0.5, rng.integers(1, 5, (n, n)).astype(float), 0.0)
    tiny = rng.random((n, n)) < 0.4
    D[tiny] = rng.choice(NEAR_ZERO, int(tiny.sum()))
    D = np.abs(D).astype(dtype)  # no negative weight: dijkstra's rule is not the point here
    x = _dense_on(device, D)
    for f, args, kw in DENSE_READERS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(scg, f)(D.copy(), *args, **kw)
        got = getattr(csgraph, f)(x, *args, **kw)
        if f == "laplacian":  # float sums: the GPU adds in another order
            np.testing.assert_allclose(_host(got), want, rtol=1e-6 if dtype == np.float32
                                       else 1e-12)
        elif kw.get("return_predecessors") and (device == "gpu" or _validation.FORCE_ENGINE):
            # the engine may name another predecessor where paths tie: any tight one is right
            _equal(got[0], want[0])
            W = scg.csgraph_to_dense(scg.csgraph_from_dense(D), null_value=np.inf)
            src = range(n) if kw.get("indices") is None else [kw["indices"]]
            check_predecessors(want[0], _host(got[1]), src, W, kw.get("directed", True), False)
        else:
            _equal(got, want)
    np.testing.assert_array_equal(to_host(x), D)  # never written


@pytest.mark.parametrize("null_value", [1.0, 1000.0, -3.0])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_dense_null_value_is_matched_by_isclose(backend, null_value, dtype):
    """Defect 1, with a ``null_value``: SciPy masks the entries within rtol 1e-5 (plus 1e-8)
    of it, so 1000.004 is null when the null value is 1000 (the facade compared exactly)."""
    device, _ = backend
    D = np.array([[null_value, null_value * (1 + 4e-6), 2.0],
                  [null_value + 1e-9, null_value, null_value * (1 + 4e-5)],
                  [0.0, 7.0, null_value]]).astype(dtype)
    want = scg.csgraph_from_dense(D, null_value=null_value)
    got = csgraph.csgraph_from_dense(_dense_on(device, D), null_value=null_value)
    _equal(got, want)
    assert _host(got).shape == want.shape
    got_nnz = got.nnz if hasattr(got, "nnz") else None
    assert got_nnz == want.nnz
    M = scg.csgraph_masked_from_dense(D, null_value=null_value)
    np.testing.assert_array_equal(
        np.ma.getmaskarray(csgraph.csgraph_masked_from_dense(_dense_on(device, D),
                                                             null_value=null_value)),
        np.ma.getmaskarray(M))


def test_integer_dense_null_is_exact(backend):
    """The isclose rule is NumPy's for float arrays only: an integer or bool graph's null
    entries are those equal to ``null_value`` (no change; checked with the fix)."""
    device, _ = backend
    D = np.array([[0, 1, 2], [3, 0, 1], [1, 1, 0]], dtype=np.int64)
    for nv in (0, 1, 1.000001):
        _equal(csgraph.csgraph_from_dense(_dense_on(device, D), null_value=nv),
               scg.csgraph_from_dense(D, null_value=nv))


# ------------------------------------------------------------------------------ defect 2


def _lying_csr(device, rng, n, dtype=np.float64, cls=sp.csr_array):
    """A CSR with unsorted rows and duplicate entries whose ``has_canonical_format`` flag
    says True (the flag is anyone's to set), with SciPy's host copy (same flag)."""
    m = int(rng.integers(1, 3 * n + 1))
    r = np.sort(rng.integers(0, n, m))
    c = rng.integers(0, n, m)
    w = rng.integers(1, 6, m).astype(dtype)
    ptr = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=n))]).astype(np.int32)
    S = cls((w, c.astype(np.int32), ptr), shape=(n, n))
    S.has_canonical_format = True
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

        G = cps.csr_matrix((cp.asarray(w), cp.asarray(c.astype(np.int32)), cp.asarray(ptr)),
                           shape=(n, n))
        G.has_canonical_format = True
        return G, S
    return S, S


LYING_CALLS = [
    ("dijkstra", (), {}),
    ("johnson", (), dict(directed=False)),
    ("bellman_ford", (), dict(indices=0)),
    ("floyd_warshall", (), {}),
    ("shortest_path", (), dict(method="D", unweighted=True)),
    ("breadth_first_order", (0,), {}),
    ("depth_first_order", (0,), {}),
    ("breadth_first_tree", (0,), {}),
    ("depth_first_tree", (0,), dict(directed=False)),
    ("minimum_spanning_tree", (), {}),
    ("connected_components", (), {}),
    ("csgraph_to_dense", (), {}),
    ("csgraph_to_masked", (), {}),
    ("laplacian", (), dict(use_out_degree=True)),  # integer weights: exact in any order
]


@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 7),
       dtype=st.sampled_from([np.float64, np.float32]))
def test_lying_canonical_flag_is_not_trusted(backend, seed, n, dtype):
    """Defect 2: a CSR whose ``has_canonical_format`` says True over unsorted rows with
    duplicates. SciPy's csgraph routines never read the flag (they answer for the stored
    entries: parallel edges); the facade's conversion trusted it and built a "canonical"
    engine matrix of unsorted, duplicated columns: wrong distances on the engine path
    (``johnson`` d(0, 1) = 5 where a parallel edge of weight 1 exists), empty traversal
    trees, and ``csgraph_to_masked`` keeping the first of two parallel edges, not the
    smaller. A float32 one: SciPy's cast to float64 builds a new matrix, which sums the
    duplicates whatever the old flag said; the engine path's conversion read the flag and
    kept them as parallel edges (the smallest, where SciPy adds them: d(0, 1) = 1, SciPy 6)."""
    device, engine = backend
    rng = np.random.default_rng(seed)
    x, S = _lying_csr(device, rng, n, dtype)
    for f, args, kw in LYING_CALLS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(scg, f)(S, *args, **kw)
        got = getattr(csgraph, f)(x, *args, **kw)
        if f == "csgraph_to_masked":
            np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
            np.testing.assert_array_equal(np.ma.filled(got, 0), np.ma.filled(want, 0))
            continue
        _equal(got, want)


def _strong_in_child(S, engine, q):
    _validation.FORCE_ENGINE = engine
    n, labels = csgraph.connected_components(S, connection="strong")
    q.put((int(n), np.asarray(labels).tolist()))


def test_lying_flag_strong_components_answer(backend):
    """Defect 2's worst case: strong components of a CSR with duplicate entries whose flag
    says canonical. SciPy 1.17.1's strong search never returns on duplicates (the facade
    answers them, README); the facade's fast path trusted the flag, handed the CSR to that
    search, and never returned either. Now the rows are checked: the answer is the one for
    the same CSR with a truthful flag (SciPy's numbering, on the CSR without the repeats)."""
    device, engine = backend
    data = np.ones(12)
    indices = np.array([3, 3, 5, 4, 3, 1, 5, 4, 2, 5, 4, 0], dtype=np.int32)  # SciPy's hang
    indptr = np.array([0, 3, 6, 6, 10, 11, 12], dtype=np.int32)
    honest = sp.csr_array((data, indices, indptr), shape=(6, 6))
    want = csgraph.connected_components(honest, connection="strong")
    lying = sp.csr_array((data, indices, indptr), shape=(6, 6))
    lying.has_canonical_format = True
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

        G = cps.csr_matrix((cp.asarray(data), cp.asarray(indices), cp.asarray(indptr)),
                           shape=(6, 6))
        G.has_canonical_format = True
        n, labels = csgraph.connected_components(G, connection="strong")
        got = (int(n), to_host(labels).tolist())
    else:  # in a child process: a regression hangs there, not here
        import multiprocessing as mp  # noqa: PLC0415  (only the hang test's child process needs it)

        ctx = mp.get_context("fork")
        q = ctx.Queue()
        child = ctx.Process(target=_strong_in_child, args=(lying, engine, q), daemon=True)
        child.start()
        child.join(60)
        alive = child.is_alive()
        if alive:
            child.kill()
        assert not alive, "strong components of a CSR whose flag lies never returned"
        got = q.get(timeout=5)
    assert got == (int(want[0]), np.asarray(want[1]).tolist())


def test_canonical_csr_checks_the_arrays():
    """``_validation.canonical_csr``: True only where every row is strictly increasing (the
    flag False is answered False without a scan: the callers then canonicalize anyway)."""
    S = sp.csr_array(([1.0, 2.0, 3.0], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 3))
    assert _validation.canonical_csr(S)  # empty row 1; row 2 starts again at a lower column
    S.has_canonical_format = True
    assert _validation.canonical_csr(S)
    T = sp.csr_array(([1.0, 2.0], [1, 1], [0, 2, 2, 2]), shape=(3, 3))  # a duplicate
    T.has_canonical_format = True
    assert not _validation.canonical_csr(T)
    assert _validation.canonical_csr(sp.csr_array((2, 2)))


# ------------------------------------------------------------------------------ defect 3


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, bool])
@pytest.mark.parametrize("normed", [False, True])
def test_unsigned_laplacian_raises_scipys_error_class(backend, dtype, normed):
    """Defect 3: the Laplacian array of an unsigned graph: SciPy fails with NumPy's
    ``OverflowError`` (its negation of the entries in the graph's dtype); the engine path
    raised DomainMismatch, a TypeError, which ``except OverflowError`` misses. Now one class
    that is both (bool and ``normed`` fail in SciPy with a TypeError)."""
    device, _ = backend
    D = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]]).astype(dtype)
    with pytest.raises(Exception) as want:  # noqa: PT011  (SciPy's class is the point)
        scg.laplacian(sp.csr_array(D), normed=normed)
    x = sp.csr_array(D)
    if device == "gpu":
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

        if np.dtype(dtype) not in (np.dtype(bool),):  # cupyx holds no uint8/uint16 matrix
            pytest.skip("cupyx sparse has no unsigned dtype")
        x = cps.csr_matrix(sp.csr_matrix(D))
    # NumPy's UFuncTypeError is private: the class to match is its TypeError
    expected = TypeError if isinstance(want.value, TypeError) else type(want.value)
    assert expected in (TypeError, OverflowError)
    with pytest.raises(expected):
        csgraph.laplacian(x, normed=normed)


# ------------------------------------------------------------------------------ defect 4


@pytest.mark.parametrize("f, args", [("dijkstra", ()), ("floyd_warshall", ()),
                                     ("minimum_spanning_tree", ()),
                                     ("breadth_first_order", (0,))])
def test_ragged_list_raises_value_error(backend, f, args):
    """Defect 4: a ragged list of lists (no 2-D array): SciPy fails with NumPy's
    ``ValueError``; the facade raised DomainMismatch, a TypeError."""
    ragged = [[0, 1], [1]]
    with pytest.raises(ValueError):  # noqa: PT011  (the class SciPy raises)
        getattr(scg, f)(ragged, *args)
    with pytest.raises(ValueError, match="csgraph"):
        getattr(csgraph, f)(ragged, *args)


# ------------------------------------------------------------------------------ SciPy's bug


@pytest.mark.parametrize("f, kw", [("floyd_warshall", {}), ("shortest_path", {}),
                                   ("shortest_path", dict(method="FW", directed=False))])
def test_fortran_ordered_dense_floyd_warshall(backend, f, kw):
    """SciPy 1.17.1's Floyd–Warshall on a Fortran-ordered dense array (``numpy.asfortranarray``,
    a transpose's ``.T``) computes nothing: its compiled kernel raises "ndarray is not
    C-contiguous" inside a ``noexcept`` function, the error is printed and ignored, and the
    input comes back with its zeros as inf (no diagonal 0, no path). The facade answers the
    distances, SciPy's own answer on the C-ordered copy (a documented deviation)."""
    device, _ = backend
    D = np.array([[0, 1.0, 0, 0], [0, 0, 2.0, 0], [0, 0, 0, 3.0], [4.0, 0, 0, 0]])
    F = np.asfortranarray(D)
    want = getattr(scg, f)(D, **kw)
    got = getattr(csgraph, f)(_dense_on(device, F), **kw)
    _equal(got, want)
    assert np.isfinite(want).all()  # every vertex reaches every other: SciPy's F answer has inf


def test_vertex_errors_are_scipys_classes():
    """A negative ``i_start`` is SciPy's OverflowError (its unsigned conversion) as well as our
    out-of-range error; a float ``source`` of maximum_flow SciPy's IndexError as well as a
    TypeError."""
    G = sp.csr_array(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    for f in (csgraph.breadth_first_order, csgraph.depth_first_order,
              csgraph.breadth_first_tree, csgraph.depth_first_tree):
        with pytest.raises(OverflowError):
            scg_f = getattr(scg, f.__name__)
            scg_f(G, -1)
        with pytest.raises(OverflowError):
            f(G, -1)
        with pytest.raises(ValueError):
            f(G, np.int64(-2))
    F = sp.csr_array(np.array([[0, 3], [0, 0]], dtype=np.int32))
    for src in (0.0, np.float64(0.0)):
        with pytest.raises(IndexError):
            scg.maximum_flow(F, src, 1)
        with pytest.raises(IndexError):
            csgraph.maximum_flow(F, src, 1)
        with pytest.raises(TypeError):
            csgraph.maximum_flow(F, src, 1)
