"""The csgraph facade's engine path (the code GPU input runs) against SciPy, one test per class
of wrong answer the conformance sweep (``bench/probes/csgraph_conformance.py --engine``) found:

1. SciPy's conversion decides which duplicates stay parallel edges: ``tocsr()`` sums a COO's,
   ``astype(float64)`` sums (and sorts the rows of) a non-canonical CSR of any other dtype;
   a float64 CSR keeps them (shortest paths take the smallest). Distances, spanning trees,
   traversal orders and tree weights follow.
2. ``floyd_warshall`` reads its own dense conversion: a masked array's unmasked zeros are no
   edges, parallel edges keep the smallest whatever the dtype, and its float sums are those of
   its k order (bit for bit); ``method='auto'`` picks FW or not by SciPy's rule on the raw
   input.
3. ``construct_dist_matrix`` sums each walk from its far end, as SciPy does (to the bit).
4. ``laplacian``: SciPy's dtypes (normed integer input, uint8..uint32 kept), stored entries
   (a symmetrized sum drops cancelled entries; DIA stays DIA), operators applied as SciPy
   applies them (NaN and inf where SciPy has them).
5. Where shortest paths tie, predecessors are checked for validity, and the check fails on a
   wrong one.

Each test body runs on every device (``device`` fixture): on the CPU with
``_validation.FORCE_ENGINE`` (the engine's code on NumPy: exact), on the GPU with CuPy / cupyx
input (the engine on the device: exact where the sums are exact, integer weights; the
Laplacian's float sums, in another order on the GPU, to a bound in the input dtype's eps).
"""

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
from test_csgraph_facade import check_predecessors, host_only_default_device

DTYPES = [np.float64, np.float32, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
          bool]


@pytest.fixture
def engine(device, monkeypatch):
    """The device, with the engine path forced on host input (GPU input always runs it)."""
    monkeypatch.setattr(_validation, "FORCE_ENGINE", device == "cpu")
    if device == "cpu":
        host_only_default_device(monkeypatch)
    return device



def on(device, S):
    """``S`` (a scipy sparse matrix, stored order kept, or a dense/masked array) as the
    device's input kind: itself on the CPU, cupyx (same format, same stored arrays) or CuPy on
    the GPU."""
    if device == "cpu":
        return S
    import cupy as cp
    import cupyx.scipy.sparse as cps

    if isinstance(S, np.ndarray):
        return cp.asarray(S)
    if S.format == "coo":
        return cps.coo_matrix((cp.asarray(S.data), (cp.asarray(S.row), cp.asarray(S.col))),
                              shape=S.shape)
    cls = {"csr": cps.csr_matrix, "csc": cps.csc_matrix}[S.format]
    out = cls((cp.asarray(S.data), cp.asarray(S.indices), cp.asarray(S.indptr)), shape=S.shape)
    out.has_canonical_format = bool(S.has_canonical_format)
    return out


#: The dtypes cupyx sparse matrices hold (the others exist only as host input).
CUPYX_DTYPES = (np.dtype(np.float64), np.dtype(np.float32), np.dtype(bool))


def small_int(engine):
    """A non-float64 dtype whose cast SciPy's conversion makes (int8; cupyx: float32)."""
    return np.int8 if engine == "cpu" else np.float32


def raw_csr(n, r, c, w, dtype, cls=sp.csr_matrix):
    """A CSR in exactly this stored order (rows grouped, columns as given: unsorted and
    duplicated where the lists are)."""
    o = np.argsort(r, kind="stable")
    ptr = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=n))]).astype(np.int32)
    S = cls((np.asarray(w)[o].astype(dtype), np.asarray(c)[o].astype(np.int32), ptr),
            shape=(n, n))
    return S


def host(x):
    if isinstance(x, tuple):
        return tuple(host(t) for t in x)
    if hasattr(x, "get") and not isinstance(x, np.ndarray):
        return x.get()
    return x


def scipy_quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


# ------------------------------------------------------------------------------ 1. duplicates


def test_duplicates_combine_as_scipys_conversion(engine):
    """The sweep's graph 38 (int8 non-canonical CSR) and graph 7 (COO): SciPy sums."""
    S = raw_csr(2, [0, 0], [1, 1], [5, 1], small_int(engine))
    assert scg.dijkstra(S, indices=0).tolist() == [0.0, 6.0]  # SciPy: the cast sums them
    assert host(csgraph.dijkstra(on(engine, S), indices=0)).tolist() == [0.0, 6.0]
    assert host(csgraph.bellman_ford(on(engine, S), directed=False, indices=1)).tolist() == \
        [6.0, 0.0]
    F = raw_csr(2, [0, 0], [1, 1], [5, 1], np.float64)  # float64: parallel edges, the smaller
    assert host(csgraph.dijkstra(on(engine, F), indices=0)).tolist() == [0.0, 1.0]
    C = sp.coo_matrix((np.array([5.0, 1.0]), ([0, 0], [1, 1])), shape=(2, 2))
    assert host(csgraph.johnson(on(engine, C), indices=0)).tolist() == [0.0, 6.0]
    T = host(csgraph.minimum_spanning_tree(on(engine, S)))
    assert T.toarray().tolist() == scg.minimum_spanning_tree(S).toarray().tolist()


def test_a_cast_sorts_the_rows_traversals_see(engine):
    """The sweep's graph 56: SciPy's cast sorts an int16 CSR's rows, so breadth-first order
    visits neighbours in column order; a float64 CSR keeps its stored order."""
    for dtype in (np.int16 if engine == "cpu" else np.float32, np.float64):
        S = raw_csr(4, [0, 0, 0], [3, 1, 2], [1, 1, 1], dtype)
        exp = scg.breadth_first_order(S, 0, return_predecessors=False)
        got = host(csgraph.breadth_first_order(on(engine, S), 0, return_predecessors=False))
        assert got.tolist() == exp.tolist(), dtype
    assert exp.tolist() == [0, 3, 1, 2]  # float64: the stored order


@given(data=st.data(), n=st.integers(1, 7), directed=st.booleans(),
       dtype=st.sampled_from(DTYPES), fmt=st.sampled_from(["csr", "coo", "csc"]))
def test_duplicates_every_dtype_and_format(engine, data, n, directed, dtype, fmt):
    assume(engine == "cpu" or np.dtype(dtype) in CUPYX_DTYPES)
    m = data.draw(st.integers(0, 3 * n))
    r = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), dtype=int)
    c = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), dtype=int)
    w = np.array(data.draw(st.lists(st.integers(0, 6), min_size=m, max_size=m)), dtype=float)
    if fmt == "csr":
        S = raw_csr(n, r, c, w, dtype)
    else:
        S = sp.coo_matrix((w.astype(dtype), (r, c)), shape=(n, n))
        S = S if fmt == "coo" else S.tocsc()
    x = on(engine, S)
    i = data.draw(st.integers(0, n - 1))
    for fn in (scg.dijkstra, scg.bellman_ford, scg.johnson):
        exp = fn(S.copy(), directed=directed, indices=i)
        got = host(getattr(csgraph, fn.__name__)(x, directed=directed, indices=i))
        np.testing.assert_array_equal(got, exp, err_msg=fn.__name__)
    exp = scg.breadth_first_order(S.copy(), i, directed=directed)
    got = host(csgraph.breadth_first_order(x, i, directed=directed))
    np.testing.assert_array_equal(got[0], exp[0])
    np.testing.assert_array_equal(got[1], exp[1])
    got = host(csgraph.breadth_first_tree(x, i, directed=directed))
    np.testing.assert_array_equal(got.toarray(),
                                  scg.breadth_first_tree(S.copy(), i, directed).toarray())
    got = host(csgraph.minimum_spanning_tree(x))
    np.testing.assert_array_equal(got.toarray(), scg.minimum_spanning_tree(S.copy()).toarray())


# ------------------------------------------------------------------------------ 2. Floyd–Warshall


def test_floyd_warshall_reads_masked_zeros_as_no_edge(engine):
    """The sweep's graph 106: masked int16, every unmasked entry 0."""
    if engine == "gpu":
        pytest.skip("masked arrays are host input")
    M = np.ma.masked_array(np.zeros((3, 3), dtype=np.int16), mask=np.eye(3, dtype=bool))
    M[0, 1] = 4
    for kw in (dict(), dict(unweighted=True)):
        exp = scg.floyd_warshall(M.copy(), **kw)
        np.testing.assert_array_equal(csgraph.floyd_warshall(M, **kw), exp)
        np.testing.assert_array_equal(csgraph.shortest_path(M, **kw), scg.shortest_path(M, **kw))
    assert exp[1, 0] == np.inf
    # every other method reads the unmasked zero as an edge of length 0
    np.testing.assert_array_equal(csgraph.dijkstra(M, indices=1), [0.0, 0.0, 0.0])


def test_floyd_warshall_keeps_parallel_edges_whatever_the_dtype(engine):
    S = raw_csr(2, [0, 0], [1, 1], [5, 1], small_int(engine))
    assert scg.floyd_warshall(S)[0, 1] == 1.0  # its dense conversion: the smaller
    assert host(csgraph.floyd_warshall(on(engine, S)))[0, 1] == 1.0


@given(n=st.integers(2, 9), seed=st.integers(0, 2**31 - 1), directed=st.booleans(),
       preds=st.booleans())
def test_floyd_warshall_float_sums_are_scipys_to_the_bit(engine, n, seed, directed, preds):
    """The sweep's graph 123: 6.529999999999999 where SciPy has 6.53 (another order of the
    same additions). Two-decimal weights make the orders differ in the last bit."""
    rng = np.random.default_rng(seed)
    D = np.round(rng.random((n, n)) * 5, 2) * (rng.random((n, n)) < 0.6)
    exp = scg.floyd_warshall(sp.csr_matrix(D), directed=directed, return_predecessors=preds)
    got = host(csgraph.floyd_warshall(on(engine, sp.csr_matrix(D)), directed=directed,
                                      return_predecessors=preds))
    if preds:
        np.testing.assert_array_equal(got[0], exp[0])
        if np.array_equal(D, np.floor(D)):  # exact sums: the all-pairs product, ties differ
            check_predecessors(got[0], got[1], np.arange(n),
                               scg.csgraph_to_dense(sp.csr_matrix(D), null_value=np.inf),
                               directed, False)
        else:  # the k order: SciPy's predecessors too
            np.testing.assert_array_equal(got[1], exp[1])
    else:
        np.testing.assert_array_equal(got, exp)


@given(n=st.integers(2, 9), seed=st.integers(0, 2**31 - 1), directed=st.booleans(),
       negative=st.booleans(), every=st.booleans())
def test_sssp_float_sums_are_scipys_to_the_bit(engine, n, seed, directed, negative, every):
    """The sweep's seed 7 graph 7: johnson over every source ran an all-pairs product (path
    segments added in another order: 4.1499999999999995 against SciPy's 4.15); Johnson's
    correction is (d' + h(v)) − h(s), SciPy's order. Relaxation one edge at a time gives
    SciPy's bits for Dijkstra, Bellman–Ford and Johnson alike."""
    rng = np.random.default_rng(seed)
    D = np.round(rng.random((n, n)) * 5 - (1.2 if negative and directed else 0), 2)
    D *= rng.random((n, n)) < 0.5
    S = sp.csr_matrix(D)
    ind = None if every else int(rng.integers(0, n))
    for fn in ("bellman_ford", "johnson") + (() if negative and directed else ("dijkstra",)):
        try:
            exp = scipy_quiet(getattr(scg, fn), S.copy(), directed=directed, indices=ind)
        except scg.NegativeCycleError:
            with pytest.raises(scg.NegativeCycleError):
                getattr(csgraph, fn)(on(engine, S), directed=directed, indices=ind)
            continue
        got = host(getattr(csgraph, fn)(on(engine, S), directed=directed, indices=ind))
        np.testing.assert_array_equal(got, exp, err_msg=fn)


def test_auto_chooses_by_scipys_rule_on_the_raw_input(engine):
    """The sweep's graph 115: a negative duplicate that the cast sums away. SciPy picks
    Johnson from the raw data (a negative entry) and answers; so must the engine."""
    S = raw_csr(3, [0, 0, 1, 2], [1, 1, 2, 0], [-2, 5, 1, 1],
                np.int64 if engine == "cpu" else np.float32)
    exp = scg.shortest_path(S.copy(), indices=0, return_predecessors=True)
    got = host(csgraph.shortest_path(on(engine, S), indices=0, return_predecessors=True))
    np.testing.assert_array_equal(got[0], exp[0])
    np.testing.assert_array_equal(got[1], exp[1])


# ------------------------------------------------------------------------------ 3. dist matrix


@given(n=st.integers(2, 9), seed=st.integers(0, 2**31 - 1), directed=st.booleans(),
       null=st.sampled_from([np.inf, -1.0, 0.0]))
def test_construct_dist_matrix_sums_as_scipy_does(engine, n, seed, directed, null):
    """The sweep's graph 190: 11.700000000000001 where SciPy has 11.7."""
    rng = np.random.default_rng(seed)
    D = np.round(rng.random((n, n)) * 5, 2) * (rng.random((n, n)) < 0.5)
    _, P = scg.shortest_path(D, directed=directed, return_predecessors=True)
    exp = scg.construct_dist_matrix(D, P, directed=directed, null_value=null)
    got = host(csgraph.construct_dist_matrix(on(engine, D), on(engine, P) if engine == "gpu"
                                             else P, directed=directed, null_value=null))
    np.testing.assert_array_equal(got, exp)


# ------------------------------------------------------------------------------ 4. laplacian


def _apply(L, X):
    return L @ X if hasattr(L, "matvec") else L(X)


@given(n=st.integers(0, 7), seed=st.integers(0, 2**31 - 1),
       dtype=st.sampled_from([np.float64, np.float32, np.int8, np.int32, np.uint8, np.uint32,
                              np.int64]),
       fmt=st.sampled_from(["csr", "coo", "dense"]), normed=st.booleans(),
       out_degree=st.booleans(), symmetrized=st.booleans(),
       form=st.sampled_from(["array", "function", "lo"]), special=st.booleans())
def test_laplacian_exactly_as_scipy(engine, n, seed, dtype, fmt, normed, out_degree,
                                    symmetrized, form, special):
    """The sweep's laplacian classes: dtype float64 != uint8 (normed operators of unsigned
    input), nnz 24 != 12 (symmetrized), last-bit operator values, NaN rows."""
    assume(engine == "cpu" or fmt == "dense" or np.dtype(dtype) in CUPYX_DTYPES)
    rng = np.random.default_rng(seed)
    W = (np.round(rng.random((n, n)) * 5, 2) if np.dtype(dtype).kind == "f"
         else rng.integers(-2 if np.dtype(dtype).kind == "i" else 0, 6, (n, n)))
    W = (W * (rng.random((n, n)) < 0.5)).astype(dtype)
    if special and n and np.dtype(dtype).kind == "f":
        W[rng.integers(0, n), rng.integers(0, n)] = rng.choice([np.inf, np.nan])
    G = W if fmt == "dense" else sp.coo_matrix(W) if fmt == "coo" else sp.csr_matrix(W)
    kw = dict(normed=normed, use_out_degree=out_degree, symmetrized=symmetrized, form=form,
              return_diag=True)

    def run(f, x):
        try:
            return scipy_quiet(f, x, **kw), None
        except Exception as e:  # noqa: BLE001  (SciPy refuses some dtypes: so must we)
            return None, e

    exp, e1 = run(scg.laplacian, G.copy())
    got, e2 = run(csgraph.laplacian, on(engine, G))
    assert (e1 is None) == (e2 is None), (e1, e2)
    if e1 is not None:
        return
    (L1, d1), (L2, d2) = exp, got
    d2 = host(d2)
    assert d2.dtype == d1.dtype
    # the GPU's sums are exact for integer weights, except the normed operators' products
    exact = engine == "cpu" or (np.dtype(dtype).kind != "f" and not (normed and form != "array"))
    def close(a, b):  # a GPU reduction's order: a few ulps of the result's dtype
        tol = 1e-5 if np.asarray(b).dtype == np.float32 else 1e-12
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)

    check = np.testing.assert_array_equal if exact else close
    check(d2, d1)
    if form == "array":
        if sp.issparse(L1):
            L2 = host(L2)
            assert L2.format == L1.format and L2.dtype == L1.dtype
            if engine == "cpu":
                assert type(L2) is type(L1) and L2.nnz == L1.nnz
            L1, L2 = L1.toarray(), L2.toarray()
        L2 = host(L2)
        assert L2.dtype == L1.dtype
        check(L2, L1)
        return
    if form == "lo":
        assert L2.dtype == L1.dtype
    X = np.arange(2 * n, dtype=float).reshape(n, 2)
    r1 = scipy_quiet(_apply, L1, X)
    r2 = host(scipy_quiet(_apply, L2, on(engine, X) if engine == "gpu" else X))
    if exact or np.dtype(dtype).kind != "f":
        check(np.asarray(r2), np.asarray(r1))
        return
    # GPU, float weights: the operator's degrees are sums in the input's dtype, SciPy's in
    # stored order, the GPU's in another (an H200 run: float32 degrees 3 ulps apart, the
    # float64 result 53.29998970 against 53.30000114). Each sum of k ≤ 2n terms is then
    # within k·eps of the sum of |terms| (eps of the input dtype: float32 sums are not
    # SciPy's to 1e-12, whatever the result's dtype), and L v scales them by |v| and, normed,
    # by d^-½ twice: the bound below, a worst case far under a wrong entry's effect (weights
    # are multiples of 0.01).
    A = np.abs(np.nan_to_num(W.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0))
    g = A.sum(axis=1 if out_degree else 0) + (A.sum(axis=0 if out_degree else 1)
                                              if symmetrized else 0)
    nd = 1.0 / np.nan_to_num(d1.astype(np.float64), nan=1.0, posinf=1.0) if normed else \
        np.ones(max(n, 1))
    scale = max(1.0, g.max(initial=0.0)) * max(1.0, X.max(initial=0.0)) * \
        max(1.0, np.abs(nd).max(initial=0.0)) ** 2
    bound = 4 * (2 * n + 1) * np.finfo(dtype).eps * scale
    np.testing.assert_allclose(np.asarray(r2), np.asarray(r1), rtol=0, atol=bound)


@given(data=st.data(), n=st.integers(0, 7), fmt=st.sampled_from(["csr", "csc", "coo"]),
       dtype=st.sampled_from([np.float64, np.float32, np.complex128]), normed=st.booleans(),
       out_degree=st.booleans(), symmetrized=st.booleans(),
       form=st.sampled_from(["array", "function", "lo"]))
def test_laplacian_of_cupyx_input_by_array_operations(device, data, n, fmt, dtype, normed,
                                                       out_degree, symmetrized, form):
    """The GPU's Laplacian of cupyx input (``_tools._laplacian_own_sparse``: segment sums and
    a sort for A + Aᵀ instead of cuSPARSE, whose A + Aᵀ gave zeros on the H200 host), run
    on the device (on the CPU with NumPy and scipy.sparse containers) against SciPy: raw
    CSR/CSC with unsorted columns and duplicates, COO with duplicates, entries that cancel
    in A + Aᵀ, explicit zeros, n = 0. Integer weights: every sum exact, so equal to the bit except the normed
    operator's products (another association: 1e-12)."""
    from algorithms.csgraph import _tools

    m = data.draw(st.integers(0, 3 * n)) if n else 0
    vertex = st.integers(0, max(n - 1, 0))
    r = np.array(data.draw(st.lists(vertex, min_size=m, max_size=m)), dtype=int)
    c = np.array(data.draw(st.lists(vertex, min_size=m, max_size=m)), dtype=int)
    w = np.array(data.draw(st.lists(st.integers(-3, 5), min_size=m, max_size=m)), dtype=dtype)
    if np.dtype(dtype).kind == "c":  # complex weights (SciPy computes with them; audit8)
        w = w + 1j * np.array(data.draw(st.lists(st.integers(-2, 2), min_size=m, max_size=m)))
    assume(not (normed and (w.real < 0).any()))  # negative degrees: NaN where SciPy puts them
    S = raw_csr(n, r, c, w, dtype) if fmt != "coo" else sp.coo_matrix((w, (r, c)), shape=(n, n))
    if fmt == "csc":  # the same raw arrays read as CSC: unsorted rows, duplicates
        S = sp.csc_matrix((S.data, S.indices, S.indptr), shape=(n, n))
    kw = dict(normed=normed, use_out_degree=out_degree, symmetrized=symmetrized, form=form,
              return_diag=True)
    L1, d1 = scipy_quiet(scg.laplacian, S.copy(), **kw)
    before = S.copy()
    if device == "cpu":
        xp, sps, LinearOperator, x = np, sp, sp.linalg.LinearOperator, S
    else:
        import cupy as xp
        import cupyx.scipy.sparse as sps
        from cupyx.scipy.sparse.linalg import LinearOperator
        x = on(device, S)
    L2, d2 = _tools._laplacian_own_sparse(xp, sps.coo_matrix, sps.csr_matrix, LinearOperator, x,
                                          "laplacian", normed, True, out_degree, form, None,
                                          symmetrized)
    assert (host(x) != before).nnz == 0 and x.dtype == before.dtype  # the input untouched
    d2 = host(d2)
    assert d2.dtype == d1.dtype
    if normed and np.dtype(dtype).kind == "c":
        # a complex square root is not correctly rounded: CuPy's (Thrust's) and NumPy's
        # differ by an ulp (H200, session 16: 0.7071067811865475j against ...476j)
        np.testing.assert_allclose(d2, d1, rtol=4 * np.finfo(np.float64).eps, atol=0)
    else:
        np.testing.assert_array_equal(d2, d1)
    if form == "array":
        L2 = host(L2)
        assert L2.format == L1.format == "coo" and L2.dtype == L1.dtype
        assert L2.nnz == L1.nnz  # SciPy's stored entries (A ⊕ Aᵀ: cancelled ones dropped)
        if normed and np.dtype(dtype).kind == "c":  # (the square roots above)
            np.testing.assert_allclose(L2.toarray(), L1.toarray(),
                                       rtol=8 * np.finfo(np.float64).eps, atol=0)
        else:
            np.testing.assert_array_equal(L2.toarray(), L1.toarray())
        return
    X = np.arange(2 * n, dtype=float).reshape(n, 2)
    r1 = scipy_quiet(_apply, L1, X)
    r2 = host(scipy_quiet(_apply, L2, X if device == "cpu" else xp.asarray(X)))
    assert r2.dtype == r1.dtype
    if normed:
        np.testing.assert_allclose(r2, r1, rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_array_equal(r2, r1)



#: Normed operators whose vertex 0 has a NaN degree (a NaN or inf weight in its row or on its
#: diagonal), from ``bench/probes/csgraph_laplacian_bound.py`` on the H200 (session 12): cupyx's
#: product (cuSPARSE SpMM) answered NaN in every row without an entry in column 0, SciPy
#: only in the rows that read vertex 0.
NAN_ROW0 = [
    (np.array([[np.nan, 0], [0, 0.53]]), "coo", np.float32,
     dict(use_out_degree=True, symmetrized=True, form="function")),
    (np.array([[np.nan, .32, 1.52, 0, .16], [.56, 3.8, 4.92, 1.52, .97],
               [.84, 1.08, 0, 0, 3.84], [4.26, 3.38, 0, 0, 3.28], [0, 2.21, 1.26, 0, 0]]),
     "csr", np.float32, dict(use_out_degree=True, symmetrized=False, form="function")),
    (np.array([[np.inf, 0, 0], [4.39, 1.31, 3.67], [0, 3.78, 0]]), "csr", np.float64,
     dict(use_out_degree=False, symmetrized=True, form="lo")),
]


@pytest.mark.parametrize("case", range(len(NAN_ROW0)))
def test_laplacian_operator_keeps_nan_in_the_rows_that_read_it(device, case):
    """Rows of L v that read no entry of a NaN vertex stay finite, as in SciPy: the GPU's
    operator multiplies over the stored entries only (``_tools._stored_product``)."""
    from algorithms.csgraph import _tools

    W, fmt, dtype, kw = NAN_ROW0[case]
    W = W.astype(dtype)
    S = sp.coo_matrix(W) if fmt == "coo" else sp.csr_matrix(W)
    L1, d1 = scipy_quiet(scg.laplacian, S.copy(), normed=True, return_diag=True, **kw)
    if device == "cpu":  # the cupyx path's code on NumPy
        L2, d2 = _tools._laplacian_own_sparse(
            np, sp.coo_matrix, sp.csr_matrix, sp.linalg.LinearOperator, S, "laplacian", True,
            True, kw["use_out_degree"], kw["form"], None, kw["symmetrized"])
    else:
        L2, d2 = csgraph.laplacian(on(device, S), normed=True, return_diag=True, **kw)
    n = W.shape[0]
    X = np.arange(2 * n, dtype=float).reshape(n, 2)
    r1 = np.asarray(scipy_quiet(_apply, L1, X))
    r2 = host(scipy_quiet(_apply, L2, X if device == "cpu" else on(device, X)))
    assert np.isnan(r1).any() and np.isfinite(r1).any()  # the case this test is about
    np.testing.assert_array_equal(np.isnan(r2), np.isnan(r1))
    np.testing.assert_allclose(r2, r1, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(np.isnan(host(d2)), np.isnan(d1))


def test_laplacian_drops_what_cancels_in_a_plus_a_transposed(device):
    """A(0, 1) = 2, A(1, 0) = −2: A + Aᵀ stores nothing there (SciPy's sparse sum); the
    array-operations Laplacian of GPU input does the same (the random test draws this
    rarely)."""
    S = raw_csr(3, [0, 1, 1, 1], [1, 0, 2, 2], [2.0, -2.0, 1.0, 3.0], np.float64)
    L1 = scg.laplacian(S.copy(), symmetrized=True)
    L2 = host(csgraph.laplacian(on(device, S), symmetrized=True))
    if device == "cpu":  # the GPU's code on NumPy
        from algorithms.csgraph import _tools

        L2 = _tools._laplacian_own_sparse(np, sp.coo_matrix, sp.csr_matrix, None, S,
                                          "laplacian", False, False, False, "array", None, True)
    assert L1.nnz == L2.nnz == 5  # (1, 2), (2, 1) and the diagonal
    np.testing.assert_array_equal(L2.toarray(), L1.toarray())


def test_laplacian_keeps_dia_and_unsigned_dtypes(engine):
    if engine == "gpu":
        pytest.skip("cupyx has no DIA Laplacian path; uint8 operators covered above")
    D = sp.dia_matrix(np.array([[0, 2, 0], [2, 0, 1], [0, 1, 0]], dtype=np.int64))
    for sym in (False, True):
        L = csgraph.laplacian(D, symmetrized=sym)
        assert L.format == scg.laplacian(D.copy(), symmetrized=sym).format == "dia"
    U = sp.csr_matrix(np.array([[0, 2], [2, 0]], dtype=np.uint8))
    lo, d = csgraph.laplacian(U, normed=True, form="lo", return_diag=True)
    lo1, d1 = scg.laplacian(U.copy(), normed=True, form="lo", return_diag=True)
    assert lo.dtype == lo1.dtype == np.uint8 and d.dtype == d1.dtype


# ------------------------------------------------------------------------------ 5. ties


def test_tied_predecessors_are_valid_and_a_wrong_one_is_caught(engine):
    """A 4-cycle 0-1-3, 0-2-3 of unit weights: vertex 3 has two right predecessors."""
    S = sp.csr_matrix(np.array([[0, 1, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0.]]))
    W = scg.csgraph_to_dense(S, null_value=np.inf)
    for fn in ("dijkstra", "bellman_ford", "johnson"):
        d, p = host(getattr(csgraph, fn)(on(engine, S), indices=0, return_predecessors=True))
        np.testing.assert_array_equal(d, scg.dijkstra(S, indices=0))
        check_predecessors(d, p, [0], W, True, False)
        assert p[3] in (1, 2)
        bad = p.copy()
        bad[3] = 0  # an edge 0 → 3 does not exist
        with pytest.raises(AssertionError):
            check_predecessors(d, bad, [0], W, True, False)


def test_sweep_checker_rejects_invalid_predecessors():
    """The conformance sweep's own tie check (bench/probes/csgraph_conformance.py) can fail."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "bench" / "probes" / \
        "csgraph_conformance.py"
    spec = importlib.util.spec_from_file_location("csgraph_conformance", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    S = sp.csr_matrix(np.array([[0, 1, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0.]]))
    kw = dict(indices=0, return_predecessors=True)
    ref = scg.dijkstra(S, **kw)
    other = (ref[0], np.array([-9999, 0, 0, 2 if ref[1][3] == 1 else 1], dtype=np.int32))
    assert mod.tied_predecessors("dijkstra", S, kw, other, ref) is None
    for p3 in (0, 3, -9999):
        wrong = (ref[0], np.array([-9999, 0, 0, p3], dtype=np.int32))
        assert mod.tied_predecessors("dijkstra", S, kw, wrong, ref) is not None
    wrong = (ref[0] + 1, ref[1])
    assert mod.tied_predecessors("dijkstra", S, kw, wrong, ref) == "distances differ"


def test_engine_answers_on_the_device(engine):
    S = raw_csr(3, [0, 1], [1, 2], [1, 1], np.float64)
    d = csgraph.floyd_warshall(on(engine, S))
    if engine == "gpu":
        assert sr.is_gpu_array(d)
    assert to_host(d)[0, 2] == 2.0


# ------------------------------------------------------------------ high diameter (issue 15)


def _path(n, rng):
    """An undirected path 0 - 1 - ... - n-1, integer weights 1..9 (float64, both directions
    stored: SciPy's directed search follows it either way)."""
    r = np.arange(n - 1)
    w = rng.integers(1, 10, n - 1).astype(np.float64)
    return sp.csr_matrix((np.r_[w, w], (np.r_[r, r + 1], np.r_[r + 1, r])), shape=(n, n))


def _grid(side, rng):
    """A side × side 4-neighbour grid, integer weights 1..9 (symmetric)."""
    n = side * side
    v = np.arange(n).reshape(side, side)
    u = np.r_[v[:, :-1].ravel(), v[:-1, :].ravel()]
    t = np.r_[v[:, 1:].ravel(), v[1:, :].ravel()]
    w = rng.integers(1, 10, u.size).astype(np.float64)
    return sp.csr_matrix((np.r_[w, w], (np.r_[u, t], np.r_[t, u])), shape=(n, n))


def _check_sparse_equal(got, exp):
    got = sp.csr_matrix(to_host_sparse(got))
    exp = sp.csr_matrix(exp)
    assert got.shape == exp.shape and got.nnz == exp.nnz
    assert (got != exp).nnz == 0


def to_host_sparse(S):
    return S.get() if hasattr(S, "get") else S


def _check_tight_forest(S, sources, dist, pred):
    """pred is a shortest-path forest of dist (vectorized: the graphs here are large): -9999 at
    the sources and unreached vertices, else an edge pred → v with dist[pred] + w = dist[v],
    and following pred reaches the row's source."""
    for row, s in enumerate(sources):
        d, p = dist[row], pred[row]
        none = ~np.isfinite(d)
        none[s] = True
        np.testing.assert_array_equal(p == -9999, none)
        v = np.flatnonzero(~none)
        u = p[v]
        w = np.asarray(S[u, v]).ravel()
        assert (w > 0).all(), "a predecessor edge that is not in the graph"
        np.testing.assert_array_equal(d[u] + w, d[v])
        hop = np.where(none, -1, p).astype(np.int64)
        hop[s] = s
        for _ in range(int(np.ceil(np.log2(max(d.size, 2)))) + 1):  # pointer doubling
            hop = np.where(hop >= 0, hop[np.maximum(hop, 0)], hop)
        assert (hop[v] == s).all(), "predecessors that do not lead to the source"


def test_high_diameter_graphs_are_linear_on_the_engine(engine, monkeypatch):
    """A path of 10⁵ vertices and a 300² grid (diameter 598) through the engine path, each
    function exact against SciPy (issue 15: O(N + nnz) on every backend, whatever the
    diameter). The size is the regression check: the engine's BFS once ran an O(N) level a hop
    (this path: 129 s on 2 cores) and ``dijkstra`` with several indices a min-plus SpMM over
    every edge a hop (the 256² grid with 8 indices: 14.4 s; the 2048² grid's GPU bench did not
    finish); today the whole test takes about a second on 2 cores. The small-input route to
    SciPy is off here, so that GPU input runs the engine too."""
    for op in list(_validation.HOST_MAX_WORK):
        monkeypatch.setitem(_validation.HOST_MAX_WORK, op, 0)
    for op in list(_validation.HOST_MAX_WORK_BATCH):
        monkeypatch.setitem(_validation.HOST_MAX_WORK_BATCH, op, 0)
    rng = np.random.default_rng(15)
    P = _path(100_000, rng)
    n = P.shape[0]
    x = on(engine, P)
    for i, directed in ((0, True), (n // 2, False)):
        order, pred = csgraph.breadth_first_order(x, i, directed=directed)
        o_exp, p_exp = scg.breadth_first_order(P, i, directed=directed)
        np.testing.assert_array_equal(host(order), o_exp)
        np.testing.assert_array_equal(host(pred), p_exp)
        _check_sparse_equal(csgraph.breadth_first_tree(x, i, directed=directed),
                            scg.breadth_first_tree(P, i, directed=directed))
    np.testing.assert_array_equal(host(csgraph.depth_first_order(x, 7, return_predecessors=False)),
                                  scg.depth_first_order(P, 7, return_predecessors=False))
    ind = [0, n // 2, n - 1]
    d, p = csgraph.dijkstra(x, indices=ind, return_predecessors=True)
    d_exp, p_exp = scg.dijkstra(P, indices=ind, return_predecessors=True)
    np.testing.assert_array_equal(host(d), d_exp)
    np.testing.assert_array_equal(host(p), p_exp)  # a path: one shortest-path tree
    np.testing.assert_array_equal(host(csgraph.dijkstra(x, indices=n - 1)),
                                  scg.dijkstra(P, indices=n - 1))
    np.testing.assert_array_equal(host(csgraph.connected_components(x, directed=False)[1]),
                                  scg.connected_components(P, directed=False)[1])
    _check_sparse_equal(csgraph.minimum_spanning_tree(x), scg.minimum_spanning_tree(P))

    G = _grid(300, rng)
    g = on(engine, G)
    order, pred = csgraph.breadth_first_order(g, 0)
    o_exp, p_exp = scg.breadth_first_order(G, 0)
    np.testing.assert_array_equal(host(order), o_exp)
    np.testing.assert_array_equal(host(pred), p_exp)
    ind = np.r_[0, rng.choice(G.shape[0], 7, replace=False)]
    d, p = csgraph.dijkstra(g, indices=ind, return_predecessors=True)
    d_exp = scg.dijkstra(G, indices=ind)
    np.testing.assert_array_equal(host(d), d_exp)
    _check_tight_forest(G, ind, host(d), host(p))  # ties: any valid forest


def test_thin_tail_after_a_wide_start_goes_to_the_host(engine, monkeypatch):
    """The thin-traversal rule is checked at every level from THIN_LEVELS on, not only at
    that level: a star (one wide level) with a long path hanging off it is handed to SciPy's
    BFS once the levels average fewer than THIN_FRONTIER vertices (else the tail would cost a
    level loop a hop), with SciPy's answer either way."""
    from algorithms.csgraph import _thin, _traversal

    monkeypatch.setattr(_traversal, "THIN_LEVELS", 4)
    monkeypatch.setattr(_traversal, "THIN_FRONTIER", 16)
    # the probe sees the star's 200 edges as a wide first level: the level loop runs
    monkeypatch.setattr(_thin, "PROBE_EDGES", 100)
    monkeypatch.setitem(_validation.HOST_MAX_WORK, "breadth_first_order", 0)
    leaves, tail = 200, 400
    n = 1 + leaves + tail
    u = np.r_[np.zeros(leaves, dtype=np.int64), leaves, np.arange(leaves + 1, n - 1)]
    v = np.r_[np.arange(1, leaves + 1), leaves + 1, np.arange(leaves + 2, n)]
    S = sp.csr_matrix((np.ones(u.size), (u, v)), shape=(n, n))
    calls = []
    real = _thin.host_traversal

    def spy(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(_thin, "host_traversal", spy)
    order, pred = csgraph.breadth_first_order(on(engine, S), 0)
    o_exp, p_exp = scg.breadth_first_order(S, 0)
    np.testing.assert_array_equal(host(order), o_exp)
    np.testing.assert_array_equal(host(pred), p_exp)
    # at level L >= 2 the search has reached 199 + L vertices: at level 4 (the old rule's one
    # check) 203 >= 16 · 4; from level 14 on 199 + L < 16 · L: the host finishes the search
    assert calls, "the thin tail ran level by level on the engine"


def test_spanning_tree_where_composite_sort_keys_overflowed(engine):
    """minimum_spanning_tree on 2²² vertices and 2²⁰ random edges with tied integer weights,
    exact against SciPy (ties broken by stored position, as SciPy's stable sort breaks them).
    Borůvka's candidate matrix is a ``from_coo`` of 2²¹ entries over 2⁴⁴ positions: the GPU's
    sort keys once overflowed int64 there (kron-20 and grid-2048² ran past 12 s on an H200)."""
    n, m = 1 << 22, 1 << 20
    rng = np.random.default_rng(21)
    r = rng.integers(0, n, m)
    c = rng.integers(0, n, m)
    w = rng.integers(1, 50, m).astype(np.float64)
    S = sp.csr_matrix((w, (r, c)), shape=(n, n))  # duplicates summed, as SciPy converts them
    got = host(csgraph.minimum_spanning_tree(on(engine, S)))
    exp = scg.minimum_spanning_tree(S)
    got, exp = sp.csr_matrix(got), sp.csr_matrix(exp)
    assert got.nnz == exp.nnz and (got != exp).nnz == 0
