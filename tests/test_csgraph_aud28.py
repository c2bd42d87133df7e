"""The csgraph facade, session 28: the differences from SciPy that session 27's audit left
open (``/tmp/aud27b_final.txt``'s list), each against the installed SciPy itself:

1. ``csgraph_to_dense`` / ``csgraph_to_masked`` refuse COO, DOK, BSR and DIA input as SciPy
   does ("csgraph must be lil, csr, or csc format", a ValueError; arrays and matrices alike);
2. a float16 masked array whose fill value has been read gives SciPy's two "overflow
   encountered in cast" RuntimeWarnings per reading of it as a CSR;
3. ``construct_dist_matrix`` adds inf and -inf (or overflows) silently, as SciPy's C loop;
4. tree weights (``reconstruct_path``, and the engine path's traversal trees) are SciPy's
   ``csr_sample_values`` bit for bit: parallel edges summed from 0.0 in stored order, a lone
   -0.0 read as +0.0 where SciPy sums;
5. SciPy's negative-weight warning comes before an index error wherever SciPy's Dijkstra
   reads the graph (``johnson`` and ``shortest_path(method='auto' | 'J')`` with
   ``unweighted=True``, ``dijkstra``), on the engine path too.

Each test runs on the ``backend`` fixture: on the CPU the SciPy path and the engine path
(``_validation.FORCE_ENGINE``); GPU input where a GPU answers (skipped where the input kind is
host-only).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import semiring as sr
from algorithms import csgraph
from conftest import to_host
from test_csgraph_facade import backend

__all__ = ["backend"]  # the fixture used by the tests below


def _outcome(f, *args, **kw):
    """(result or None, exception or None, [(warning class, message)]) of one call, without
    deprecation warnings: SciPy 1.18 deprecates ``spmatrix``, and a GPU input's host copy
    (cupyx's ``get``: a ``csr_matrix``) gives one that no SciPy call on host input gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res, err = f(*args, **kw), None
        except Exception as e:  # noqa: BLE001  (its class is what is compared)
            res, err = None, e
    return res, err, [(w.category, str(w.message)) for w in caught
                      if not issubclass(w.category, DeprecationWarning)]


def _bits(a):
    """float64 values as their bit patterns (so -0.0 is not 0.0)."""
    return np.ascontiguousarray(to_host(a), dtype=np.float64).view(np.int64)


def _gpu_sparse(S):
    """A cupyx copy of a host CSR / CSC / COO with the same stored arrays (order kept)."""
    import cupy as cp  # noqa: PLC0415  (GPU runs only)
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

    if S.format == "coo":
        return cps.coo_matrix((cp.asarray(S.data), (cp.asarray(S.row), cp.asarray(S.col))),
                              shape=S.shape)
    cls = {"csr": cps.csr_matrix, "csc": cps.csc_matrix}[S.format]
    out = cls((cp.asarray(S.data), cp.asarray(S.indices), cp.asarray(S.indptr)), shape=S.shape)
    out.has_canonical_format = False
    return out


ONE_WAY = np.array([[0, 1.0, 0], [5.0, 0, 2.0], [0, 0, 0]])

# ------------------------------------------------------------------------------ 1. formats


@pytest.mark.parametrize("family", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["coo", "dok", "bsr", "dia"])
@pytest.mark.parametrize("fn", ["csgraph_to_dense", "csgraph_to_masked"])
def test_to_dense_refuses_the_formats_scipy_refuses(backend, fn, fmt, family):
    device, _ = backend
    if device == "gpu":
        pytest.skip("scipy.sparse formats: host input (cupyx COO below)")
    G = getattr(sp, f"{fmt}_{family}")(ONE_WAY)
    _, err, _ = _outcome(getattr(scg, fn), G)
    assert type(err) is ValueError and "csgraph must be lil, csr, or csc format" in str(err)
    with pytest.raises(ValueError, match=rf"{fn}: csgraph must be lil, csr, or csc format"
                                         rf".*got {fmt}") as got:
        getattr(csgraph, fn)(G)
    assert isinstance(got.value, sr.InvalidValue)


@pytest.mark.parametrize("family", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "lil"])
def test_to_dense_reads_lil_csr_and_csc_as_scipy(backend, fmt, family):
    device, _ = backend
    if device == "gpu":
        pytest.skip("scipy.sparse formats: host input")
    G = getattr(sp, f"{fmt}_{family}")(ONE_WAY)
    for nv in (0, np.inf, -1.0):
        np.testing.assert_array_equal(csgraph.csgraph_to_dense(G, null_value=nv),
                                      scg.csgraph_to_dense(G, null_value=nv))
    got, want = csgraph.csgraph_to_masked(G), scg.csgraph_to_masked(G)
    np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
    np.testing.assert_array_equal(got.filled(-7), want.filled(-7))


def test_to_dense_refuses_a_cupyx_coo_as_its_host_counterpart(backend):
    device, _ = backend
    if device != "gpu":
        pytest.skip("cupyx input: GPU runs only")
    X = _gpu_sparse(sp.coo_matrix(ONE_WAY))
    for fn in ("csgraph_to_dense", "csgraph_to_masked"):
        with pytest.raises(ValueError, match="lil, csr, or csc format"):
            getattr(csgraph, fn)(X)
    np.testing.assert_array_equal(
        to_host(csgraph.csgraph_to_dense(_gpu_sparse(sp.csr_matrix(ONE_WAY)))),
        scg.csgraph_to_dense(sp.csr_matrix(ONE_WAY)))


# ------------------------------------------------------------------------------ 2. float16


def _float16_masked(fill_read=True):
    """A masked float16 graph; ``fill_read``: its fill value read (as ``repr`` reads it),
    after which NumPy checks 1e20 against float16 on every view."""
    a = np.array([[0, 1.5, 0, 0], [0, 0, 2, 0], [0, 0, 0, 3], [1, 0, 0, 0]], dtype=np.float16)
    M = np.ma.masked_array(a, mask=a == 0)
    if fill_read:
        M.fill_value  # noqa: B018  (the read is the point)
    return M


PRED = np.array([-9999, 0, 1, 2], dtype=np.int32)

MASKED_CALLS = [
    ("dijkstra", (), {}), ("dijkstra", (), dict(indices=0, return_predecessors=True)),
    ("bellman_ford", (), {}), ("johnson", (), {}), ("johnson", (), dict(unweighted=True)),
    ("shortest_path", (), {}),  # 'auto' picks Floyd–Warshall here: a dense reading, silent
    ("shortest_path", (), dict(indices=0)), ("shortest_path", (), dict(method="BF")),
    ("shortest_path", (), dict(method="J")), ("shortest_path", (), dict(method="FW")),
    ("floyd_warshall", (), {}), ("yen", (0, 2, 2), {}),
    ("breadth_first_order", (0,), {}), ("depth_first_order", (0,), dict(directed=False)),
    ("breadth_first_tree", (0,), {}), ("depth_first_tree", (0,), dict(directed=False)),
    ("connected_components", (), {}), ("connected_components", (), dict(connection="strong")),
    ("minimum_spanning_tree", (), {}), ("csgraph_from_masked", (), {}),
    ("reconstruct_path", (PRED,), {}), ("reconstruct_path", (PRED,), dict(directed=False)),
    ("laplacian", (), {}),
]


def _same_answer(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same_answer(g, w)
        return
    if sp.issparse(want):
        assert type(got) is type(want)
        np.testing.assert_array_equal(got.toarray(), want.toarray())
        return
    np.testing.assert_array_equal(to_host(got), np.asarray(want))


@pytest.mark.parametrize("fn, args, kw", MASKED_CALLS,
                         ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(MASKED_CALLS)])
def test_float16_masked_input_warns_as_scipy(backend, fn, args, kw):
    device, _ = backend
    if device == "gpu":
        pytest.skip("masked arrays are host input")
    want, werr, wwarn = _outcome(getattr(scg, fn), _float16_masked(), *args, **kw)
    got, gerr, gwarn = _outcome(getattr(csgraph, fn), _float16_masked(), *args, **kw)
    assert werr is None and gerr is None, (werr, gerr)
    assert gwarn == wwarn
    _same_answer(got, want)


@pytest.mark.parametrize("fn", ["dijkstra", "breadth_first_tree", "connected_components",
                                "csgraph_from_masked"])
def test_float16_masked_input_warns_as_often_as_scipy(backend, fn):
    """The count: two per reading of the graph as a CSR (SciPy's trees read it twice), none
    where the fill value was never read, and none for float32 (1e20 fits)."""
    device, _ = backend
    if device == "gpu":
        pytest.skip("masked arrays are host input")
    args = (0,) if fn == "breadth_first_tree" else ()
    n = 4 if fn == "breadth_first_tree" else 2
    for M, count in ((_float16_masked(), n), (_float16_masked(fill_read=False), 0),
                     (_float16_masked().astype(np.float32), 0)):
        _, _, wwarn = _outcome(getattr(scg, fn), M, *args)
        _, _, gwarn = _outcome(getattr(csgraph, fn), M, *args)
        assert len(wwarn) == count and gwarn == wwarn
        assert all(c is RuntimeWarning and "overflow encountered in cast" in m
                   for c, m in gwarn)


def test_float16_masked_warnings_come_before_scipys_errors(backend):
    device, _ = backend
    if device == "gpu":
        pytest.skip("masked arrays are host input")
    cases = [("dijkstra", (), dict(indices=[9])),  # read, then the indices refused
             ("connected_components", (), dict(connection="x")),  # refused before the read
             ("shortest_path", (), dict(method="D", indices=9))]
    for fn, args, kw in cases:
        _, werr, wwarn = _outcome(getattr(scg, fn), _float16_masked(), *args, **kw)
        _, gerr, gwarn = _outcome(getattr(csgraph, fn), _float16_masked(), *args, **kw)
        assert isinstance(werr, ValueError) and isinstance(gerr, type(werr)), (fn, werr, gerr)
        assert gwarn == wwarn, fn


# ------------------------------------------------------------------------------ 3. silence


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weights", [(-np.inf, np.inf), (np.inf, -np.inf), (1e308, 1e308)],
                         ids=["-inf+inf", "inf-inf", "overflow"])
def test_construct_dist_matrix_adds_silently_as_scipy(backend, directed, weights):
    device, _ = backend
    W = np.zeros((3, 3))
    W[0, 1], W[1, 2] = weights
    S = sp.csr_matrix(W)
    P = np.array([[-9999, 0, 1], [-9999, -9999, 1], [-9999, -9999, -9999]], dtype=np.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", DeprecationWarning)  # (SciPy 1.18's spmatrix: _outcome)
        want = scg.construct_dist_matrix(S.copy(), P, directed=directed)
        got = csgraph.construct_dist_matrix(S if device == "cpu" else _gpu_sparse(S), P,
                                            directed=directed)
    np.testing.assert_array_equal(to_host(got), want)
    assert np.isnan(want[0, 2]) if weights[0] != 1e308 else want[0, 2] == np.inf


# ------------------------------------------------------------------------------ 4. tree bits


def _triplets(T):
    """(row, col, value bits) of a CSR, in row-major order (GPU rows come sorted)."""
    T = T.get() if hasattr(T, "get") else T
    C = sp.coo_array(T)  # (no sum: the stored entries as they are)
    order = np.lexsort((C.col, C.row))
    return C.row[order], C.col[order], _bits(C.data[order])


def _same_tree(got, want, device):
    if device == "cpu":  # SciPy's own stored order (its argsort's)
        assert type(got) is type(want)
        np.testing.assert_array_equal(got.indptr, want.indptr)
        np.testing.assert_array_equal(got.indices, want.indices)
        np.testing.assert_array_equal(_bits(got.data), _bits(want.data))
        return
    for g, w in zip(_triplets(got), _triplets(want)):
        np.testing.assert_array_equal(g, w)


def _input(S, device):
    return S if device == "cpu" else _gpu_sparse(S)


def test_reconstruct_path_sums_parallel_edges_in_scipys_order(backend):
    """Row 0 stores (0, 1) three times: SciPy adds 0.0 + 0.1 + 0.2 + 0.7 in stored order
    (1.0000000000000002); (1, 2) stores a lone -0.0, which SciPy's sum makes +0.0."""
    device, _ = backend
    S = sp.csr_matrix((np.array([0.1, 0.2, 0.7, -0.0]), np.array([1, 1, 1, 2]),
                       np.array([0, 3, 4, 4])), shape=(3, 3))
    pred = np.array([-9999, 0, 1], dtype=np.int32)
    want = scg.reconstruct_path(S.copy(), pred)
    assert want.data.tolist() == [0.1 + 0.2 + 0.7, 0.0]
    assert not np.signbit(want.data[1])
    got = csgraph.reconstruct_path(_input(S, device), pred)
    _same_tree(got, want, device)
    for directed in (True, False):
        _same_tree(csgraph.reconstruct_path(_input(S, device), pred, directed),
                   scg.reconstruct_path(S.copy(), pred, directed), device)


@pytest.mark.parametrize("few_samples", [True, False])
def test_reconstruct_path_reads_a_canonical_csr_as_scipy(backend, few_samples):
    """A canonical CSR: SciPy looks each tree edge up (-0.0 kept) when there are more of them
    than a tenth of the stored entries, else sums from 0.0 (-0.0 read as +0.0)."""
    device, _ = backend
    n = 12
    S = sp.csr_matrix(np.full((n, n), 3.0))  # 144 entries, canonical
    S.data[1] = -0.0  # (0, 1), stored (a dense -0.0 would be no edge)
    pred = np.full(n, -9999, dtype=np.int32)
    if few_samples:
        pred[1] = 0  # one tree edge: 1 <= 144 // 10
    else:
        # a path: 11 entries (i, i + 1), canonical, (0, 1) the -0.0; 11 tree edges > 11 // 10
        pred[1:] = np.arange(n - 1)
        data = np.full(n - 1, 3.0)
        data[0] = -0.0
        S = sp.csr_matrix((data, np.arange(1, n), np.r_[np.arange(n), n - 1]), shape=(n, n))
    want = scg.reconstruct_path(S.copy(), pred)
    assert np.signbit(want.data[0]) == (not few_samples)
    _same_tree(csgraph.reconstruct_path(_input(S, device), pred), want, device)


def _random_graph(rng, n, fmt):
    m = int(rng.integers(0, 3 * n * n // 2 + 1))
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.choice([0.1, 0.2, 0.7, -0.0, 0.0, 1e16, 1.0, 3.3, -1.5], m)
    r = np.sort(r)  # rows ascending, columns in any order, repeats kept
    indptr = np.searchsorted(r, np.arange(n + 1))
    if fmt == "csr":
        return sp.csr_matrix((w, c, indptr), shape=(n, n))
    if fmt == "csr32":
        return sp.csr_matrix((w.astype(np.float32), c, indptr), shape=(n, n))
    if fmt == "csc":
        return sp.csc_matrix((w, c, indptr), shape=(n, n))
    if fmt == "coo":
        return sp.coo_matrix((w, (r, c)), shape=(n, n))
    D, mask = np.zeros((n, n)), np.ones((n, n), bool)
    D[r, c], mask[r, c] = w, False
    return np.ma.masked_array(D, mask=mask)


@pytest.mark.parametrize("fmt", ["csr", "csr32", "csc", "coo", "masked"])
def test_trees_are_scipys_to_the_bit(backend, fmt):
    """Random graphs of parallel edges, zeros and -0.0 weights: ``reconstruct_path`` and the
    traversal trees (whose engine path weighs its edges the same way) against SciPy."""
    device, _ = backend
    if device == "gpu" and fmt in ("csr32", "masked"):
        pytest.skip("host-only input kind here")
    if device == "gpu" and fmt == "coo":
        # (not the trees' weights: a cupyx COO's duplicates are summed by cupyx's
        # sum_duplicates, SciPy's tocsr sums them after its own sort, another order: last-bit
        # differences in the sums, seen on the H200 host, session 28)
        pytest.skip("a cupyx COO's summed duplicates are cupyx's sums")
    rng = np.random.default_rng(28)
    for _ in range(60):
        n = int(rng.integers(1, 16))
        G = _random_graph(rng, n, fmt)
        pred = np.full(n, -9999, dtype=np.int32)
        k = int(rng.integers(0, n + 1))
        pred[rng.choice(n, k, replace=False)] = rng.integers(0, n, k)
        directed, i0 = bool(rng.integers(0, 2)), int(rng.integers(0, n))
        x = G if device == "cpu" or fmt == "masked" else _gpu_sparse(G)
        _same_tree(csgraph.reconstruct_path(x, pred, directed),
                   scg.reconstruct_path(G.copy(), pred, directed), device)
        for fn in ("breadth_first_tree", "depth_first_tree"):
            _same_tree(getattr(csgraph, fn)(x, i0, directed),
                       getattr(scg, fn)(G.copy(), i0, directed), device)


# ------------------------------------------------------------------------------ 5. order

NEGATIVE = np.array([[0, -1.0, 0], [0, 0, 2.0], [1.0, 0, 0]])
BAD_INDICES = [2**31, [2**40], -2**31 - 1, 5, [0, 5], [[0], [7]]]


@pytest.mark.parametrize("indices", BAD_INDICES, ids=[str(i) for i in range(len(BAD_INDICES))])
@pytest.mark.parametrize("call", [
    lambda m, G, i: m.shortest_path(G, method="auto", unweighted=True, indices=i),
    lambda m, G, i: m.shortest_path(G, method="J", unweighted=True, indices=i),
    lambda m, G, i: m.shortest_path(G, method="D", unweighted=True, indices=i),
    lambda m, G, i: m.shortest_path(G, method="D", indices=i),
    lambda m, G, i: m.shortest_path(G, method="BF", unweighted=True, indices=i),
    lambda m, G, i: m.johnson(G, unweighted=True, indices=i),
    lambda m, G, i: m.dijkstra(G, indices=i),
    lambda m, G, i: m.dijkstra(G, unweighted=True, indices=i, directed=False),
], ids=["auto-unweighted", "J-unweighted", "D-unweighted", "D", "BF-unweighted",
        "johnson-unweighted", "dijkstra", "dijkstra-undirected-unweighted"])
@pytest.mark.parametrize("kind", ["csr", "dense", "masked"])
def test_negative_weight_warning_comes_before_the_index_error(backend, kind, call, indices):
    """SciPy's Dijkstra warns of a negative weight as soon as it has the graph, then converts
    the indices: the same warning, then the same error class (OverflowError for a Python
    integer past int32, ValueError out of range), on every path."""
    device, _ = backend
    if device == "gpu" and kind == "masked":
        pytest.skip("masked arrays are host input")
    G = {"csr": sp.csr_matrix(NEGATIVE), "dense": NEGATIVE, "masked": np.ma.masked_equal(
        NEGATIVE, 0)}[kind]
    _, werr, wwarn = _outcome(call, scg, G, indices)
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (GPU runs only)

        G = _gpu_sparse(G) if kind == "csr" else cp.asarray(G)
    _, gerr, gwarn = _outcome(call, csgraph, G, indices)
    assert werr is not None and isinstance(gerr, type(werr)), (werr, gerr)
    assert gwarn == wwarn
