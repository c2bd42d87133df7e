"""algorithms.csgraph's graphalg wrappers (connected_components, minimum_spanning_tree,
maximum_flow, the matchings, reverse_cuthill_mckee, structural_rank) against SciPy itself on
every input kind: the same outputs, types, dtypes and exception classes."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import example, given
from hypothesis import strategies as st

import semiring as sr
from algorithms import csgraph
from algorithms.csgraph import _validation
from conftest import to_host
from graphalg_cases import edge_lists, raw_csr

CPU_KINDS = ("csr_matrix_raw", "csr_array_raw", "csr_array", "csc_matrix", "coo_array", "dense",
             "masked", "list", "matrix")
GPU_KINDS = ("cupyx_raw", "cupy_dense", "matrix_gpu")


def kinds(device):
    return CPU_KINDS if device == "cpu" else GPU_KINDS


def make_input(kind, n, rows, cols, vals):
    """(the input of that kind, the host input SciPy gets for the same graph)."""
    summed = sp.csr_array((vals, (rows, cols)), shape=(n, n))
    if kind == "csr_matrix_raw":
        G = raw_csr(n, rows, cols, vals, sp.csr_matrix)
        return G, G
    if kind == "csr_array_raw":
        G = raw_csr(n, rows, cols, vals, sp.csr_array)
        return G, G
    if kind == "csr_array":
        return summed, summed
    if kind == "csc_matrix":
        G = sp.csc_matrix((vals, (rows, cols)), shape=(n, n))
        return G, G
    if kind == "coo_array":
        G = sp.coo_array((vals, (rows, cols)), shape=(n, n))
        return G, G
    if kind in ("dense", "list"):
        D = summed.toarray()
        return (D.tolist() if kind == "list" and n else D), D  # [] is not 2-D
    if kind == "masked":
        D = summed.toarray()
        mask = np.ones((n, n), dtype=bool)
        mask[rows, cols] = False  # stored entries (zeros included) are edges
        M = np.ma.masked_array(D, mask=mask)
        return M, M
    if kind in ("matrix", "matrix_gpu"):
        A = sr.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n, dup_op=sr.binary.min,
                               device="gpu" if kind == "matrix_gpu" else "cpu")
        return A, sp.csr_array(A.to_cpu().to_scipy() if A.device == "gpu" else A.to_scipy())
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    if kind == "cupyx_raw":
        G = raw_csr(n, rows, cols, vals, sp.csr_matrix)
        C = cps.csr_matrix((cp.asarray(G.data), cp.asarray(G.indices), cp.asarray(G.indptr)),
                           shape=(n, n))
        return C, G
    if kind == "cupy_dense":
        D = summed.toarray()
        return cp.asarray(D), D
    raise AssertionError(kind)


# ------------------------------------------------------------------------ components


@given(case=edge_lists(), data=st.data())
def test_connected_components_exact(device, case, data):
    kind = data.draw(st.sampled_from(kinds(device)))
    directed = data.draw(st.booleans())
    connection = data.draw(st.sampled_from(["weak", "strong", "Strong"]))
    G, ref_in = make_input(kind, *case)
    if directed and connection != "weak" and sp.issparse(ref_in):
        ref_in = first_of_duplicates(ref_in)  # SciPy 1.17's strong search hangs on them
    n_ref, lab_ref = scg.connected_components(ref_in, directed=directed, connection=connection)
    n_got, lab_got = csgraph.connected_components(G, directed=directed, connection=connection)
    assert type(n_got) is int and n_got == n_ref
    assert lab_got.dtype == np.int32 and sr.device_of(lab_got) == device
    np.testing.assert_array_equal(to_host(lab_got), lab_ref)
    assert csgraph.connected_components(G, directed, connection, return_labels=False) == n_ref


def first_of_duplicates(S):
    """S with the repeated entries of each row dropped (the first kept, in stored order)."""
    S = S.tocsr()
    seen, keep = set(), []
    for i in range(S.shape[0]):
        for p in range(S.indptr[i], S.indptr[i + 1]):
            if (i, S.indices[p]) not in seen:
                seen.add((i, S.indices[p]))
                keep.append(p)
    keep = np.array(keep, dtype=np.int64)
    rows = np.repeat(np.arange(S.shape[0]), np.diff(S.indptr))[keep]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=S.shape[0]))])
    return type(S)((S.data[keep], S.indices[keep], indptr), shape=S.shape)


def test_connected_components_strong_with_duplicates_returns(device):
    # SciPy 1.17 spins forever on this CSR (duplicate entries); the facade answers SciPy's
    # labels for the same graph without the repeats
    indptr = np.array([0, 3, 6, 6, 10, 11, 12], np.int32)
    indices = np.array([3, 3, 5, 4, 3, 1, 5, 4, 2, 5, 4, 0], np.int32)
    S = sp.csr_array((np.ones(12), indices, indptr), shape=(6, 6))
    expect = scg.connected_components(first_of_duplicates(S), connection="strong")
    assert expect[0] == 4
    if device == "gpu":
        import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        S = cps.csr_matrix((cp.asarray(S.data), cp.asarray(indices), cp.asarray(indptr)),
                           shape=(6, 6))
    n, labels = csgraph.connected_components(S, connection="strong")
    assert n == expect[0]
    np.testing.assert_array_equal(to_host(labels), expect[1])


def test_connected_components_strong_numbering_is_scipys(device):
    # SciPy numbers strong components in its DFS completion order, not by least vertex
    n, rows, cols = 5, np.array([0, 1, 3, 4]), np.array([1, 2, 4, 3])
    G, ref_in = make_input(kinds(device)[0], n, rows, cols, np.ones(4))
    _, lab = csgraph.connected_components(G, connection="strong")
    assert to_host(lab).tolist() == scg.connected_components(ref_in, connection="strong")[1]\
        .tolist() == [2, 1, 0, 3, 3]



@given(case=edge_lists(), symmetric=st.booleans(), sort_rows=st.booleans())
@example(case=(2, np.array([0, 0, 0, 1]), np.array([1, 1, 1, 0]), np.ones(4)), symmetric=False,
         sort_rows=False)  # parallel entries: symmetric as a pattern (valid10's find)
def test_strong_components_of_a_symmetric_pattern_on_the_device(device, monkeypatch, case,
                                                               symmetric, sort_rows):
    """The engine path's symmetric test (``_graphalg._symmetric_pattern``, on for every size
    here): a symmetric pattern answers Afforest's labels, which must be SciPy's strong
    numbering; any other pattern goes on to SciPy's Tarjan. Stored orders raw (unsorted rows,
    duplicates) or sorted."""
    from algorithms.csgraph import _graphalg

    monkeypatch.setattr(_graphalg, "SYMMETRIC_TEST_NNZ", 0)
    monkeypatch.setattr(_validation, "FORCE_ENGINE", device == "cpu")
    n, rows, cols, vals = case
    if symmetric:
        rows, cols, vals = np.r_[rows, cols], np.r_[cols, rows], np.r_[vals, vals]
    S = raw_csr(n, rows, cols, vals)
    if sort_rows:
        S = S.copy()
        S.has_canonical_format = False
        S.sum_duplicates()
    # the pattern in bool: parallel entries combine as "or" (in numbers they would sum, and
    # three parallel (0, 1) against one (1, 0) would compare unequal)
    pattern = sp.csr_array((np.ones(S.nnz, dtype=bool), S.indices.copy(), S.indptr.copy()),
                           shape=S.shape)
    truly = (pattern != pattern.T).nnz == 0
    xp = np if device == "cpu" else __import__("cupy")
    assert _graphalg._symmetric_pattern(xp, xp.asarray(S.indptr), xp.asarray(S.indices),
                                        n) == (truly and n > 0)
    G = S if device == "cpu" else make_input("cupyx_raw", n, *_coo_of(S))[0]
    expect = scg.connected_components(first_of_duplicates(S), connection="strong")
    got = csgraph.connected_components(G, connection="strong")
    assert got[0] == expect[0]
    assert sr.device_of(got[1]) == device and got[1].dtype == np.int32
    np.testing.assert_array_equal(to_host(got[1]), expect[1])


def _coo_of(S):
    """(rows, cols, vals) of a CSR in its stored order (raw_csr rebuilds the same CSR)."""
    rows = np.repeat(np.arange(S.shape[0]), np.diff(S.indptr))
    return rows, S.indices.astype(np.int64), S.data


# ------------------------------------------------------------------------ spanning tree


@given(case=edge_lists(), data=st.data(), engine=st.booleans())
def test_minimum_spanning_tree_exact(device, case, data, engine):
    """Host input runs SciPy's Kruskal; ``engine`` (FORCE_ENGINE) runs the GPU path's Borůvka
    on NumPy, which must give SciPy's tree too."""
    kind = data.draw(st.sampled_from(kinds(device)))
    n = case[0]
    G, ref_in = make_input(kind, *case)
    ref = scg.minimum_spanning_tree(ref_in)
    saved = _validation.FORCE_ENGINE
    _validation.FORCE_ENGINE = engine
    try:
        got = csgraph.minimum_spanning_tree(G)
    finally:
        _validation.FORCE_ENGINE = saved
    if device == "gpu":
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        assert isinstance(got, cps.csr_matrix)
        got = got.get()
    else:
        assert type(got) is type(ref)
    assert got.dtype == ref.dtype == np.float64 and got.shape == ref.shape == (n, n)
    # the same entries in the same stored order (SciPy keeps the input's order)
    np.testing.assert_array_equal(got.indptr, ref.indptr)
    np.testing.assert_array_equal(got.indices, ref.indices)
    np.testing.assert_array_equal(got.data, ref.data)


def test_minimum_spanning_tree_never_mutates(device):
    G, _ = make_input(kinds(device)[0], 3, np.array([0, 1, 0]), np.array([1, 2, 2]),
                      np.array([1.0, 2.0, 5.0]))
    before = to_host(G.data).copy()
    csgraph.minimum_spanning_tree(G, overwrite=True)
    np.testing.assert_array_equal(to_host(G.data), before)


# ------------------------------------------------------------------------ flow


@st.composite
def capacity_graphs(draw):
    n = draw(st.integers(2, 12))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    m = int(rng.integers(0, 4 * n))
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    caps = rng.integers(0, 9, m).astype(np.int32)
    s, t = rng.choice(n, 2, replace=False)
    return n, rows, cols, caps, int(s), int(t)


@given(case=capacity_graphs(), data=st.data())
def test_maximum_flow_exact(device, case, data):
    n, rows, cols, caps, s, t = case
    method = data.draw(st.sampled_from(["dinic", "edmonds_karp"]))
    ref_in = sp.csr_array((caps, (rows, cols)), shape=(n, n))
    ref = scg.maximum_flow(ref_in, s, t, method=method)
    if device == "cpu":
        for G in (ref_in, sp.csr_matrix(ref_in)):
            got = csgraph.maximum_flow(G, s, t, method=method)
            assert type(got) is type(ref) and got.flow_value == ref.flow_value
            assert type(got.flow) is type(scg.maximum_flow(G, s, t, method=method).flow)
            np.testing.assert_array_equal(got.flow.toarray(), ref.flow.toarray())
    A = sr.Matrix.from_coo(rows, cols, caps, nrows=n, ncols=n, dup_op=sr.binary.plus,
                           device=device)
    got = csgraph.maximum_flow(A, s, t, method=method)
    assert got.flow_value == ref.flow_value
    F = got.flow if device == "gpu" else got.flow
    dense = to_host(F.to_dense(missing=0)) if isinstance(F, sr.Matrix) else F.toarray()
    np.testing.assert_array_equal(dense, ref.flow.toarray())


def _same_error(ours, theirs):
    """Our call raises an exception of the builtin class SciPy raises for the same input."""
    with pytest.raises(Exception) as ref:
        theirs()
    with pytest.raises(Exception) as got:
        ours()
    assert isinstance(got.value, sr.SemiringError), got.value
    assert isinstance(got.value, type(ref.value)), (got.value, ref.value)
    return got.value


def test_maximum_flow_input_rules():
    G = sp.csr_array(np.array([[0, 3], [0, 0]], dtype=np.int32))
    cases = [
        ((G.toarray(), 0, 1), {}), ((sp.csc_array(G), 0, 1), {}),
        ((G.astype(np.float64), 0, 1), {}), ((G, 0, 0), {}), ((G, 0, 2), {}),
        ((G, -1, 1), {}), ((sp.csr_array(np.zeros((2, 3), np.int32)), 0, 1), {}),
        ((G, 0, 1), {"method": "push"}),
    ]
    for args, kw in cases:
        err = _same_error(lambda: csgraph.maximum_flow(*args, **kw),
                          lambda: scg.maximum_flow(*args, **kw))
        assert str(err).startswith("maximum_flow: ")
    with pytest.raises(sr.DomainMismatch, match="source must be an integer"):
        csgraph.maximum_flow(G, 0.0, 1)


# ------------------------------------------------------------------------ matchings, ordering


def _host_kinds(device):
    return ("csr", "csc", "coo", "raw") if device == "cpu" else ("cupyx", "matrix_gpu")


def _bipartite(kind, B):
    """(input of that kind, SciPy's input) for a host CSR array B."""
    if kind == "csr":
        return B, B
    if kind == "csc":
        return sp.csc_matrix(B), sp.csc_matrix(B)
    if kind == "coo":
        return sp.coo_array(B), sp.coo_array(B)
    if kind == "raw":  # reversed order within rows
        r, c = B.nonzero()
        o = np.lexsort((-c, r))
        R = sp.csr_array((B.data[o] if B.has_canonical_format else B[r[o], c[o]], c[o],
                          B.indptr), shape=B.shape)
        return R, R
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)
    import cupyx.scipy.sparse as cps  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    if kind == "cupyx":
        return cps.csr_matrix((cp.asarray(B.data), cp.asarray(B.indices),
                               cp.asarray(B.indptr)), shape=B.shape), B
    A = sr.Matrix.from_scipy(B, device="gpu")
    return A, sp.csr_array(A.to_cpu().to_scipy())


@st.composite
def biadjacency(draw, square=False, full=False):
    m = draw(st.integers(0, 10))
    k = m if square else draw(st.integers(0, 10))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    D = (rng.random((m, k)) < draw(st.sampled_from([0.1, 0.3, 0.6]))) * rng.integers(1, 9, (m, k))
    if full:
        np.fill_diagonal(D, rng.integers(1, 9, min(m, k)))
    if square and draw(st.booleans()):
        D = D + D.T
    return sp.csr_array(D.astype(np.float64))


@given(B=biadjacency(), data=st.data())
def test_maximum_bipartite_matching_exact(device, B, data):
    kind = data.draw(st.sampled_from(_host_kinds(device)))
    perm_type = data.draw(st.sampled_from(["row", "column"]))
    G, ref_in = _bipartite(kind, B)
    got = csgraph.maximum_bipartite_matching(G, perm_type=perm_type)
    ref = scg.maximum_bipartite_matching(ref_in, perm_type=perm_type)
    assert sr.device_of(got) == device and got.dtype == ref.dtype
    np.testing.assert_array_equal(to_host(got), ref)


@given(B=biadjacency(full=True), data=st.data())
def test_min_weight_full_bipartite_matching_exact(device, B, data):
    kind = data.draw(st.sampled_from(_host_kinds(device)))
    maximize = data.draw(st.booleans())
    G, ref_in = _bipartite(kind, B)
    try:
        ref = scg.min_weight_full_bipartite_matching(ref_in, maximize=maximize)
    except ValueError:
        with pytest.raises(ValueError):
            csgraph.min_weight_full_bipartite_matching(G, maximize=maximize)
        return
    got = csgraph.min_weight_full_bipartite_matching(G, maximize=maximize)
    for g, r in zip(got, ref):
        assert sr.device_of(g) == device and g.dtype == r.dtype
        np.testing.assert_array_equal(to_host(g), r)


@given(B=biadjacency(square=True), data=st.data())
def test_reverse_cuthill_mckee_and_structural_rank_exact(device, B, data):
    kind = data.draw(st.sampled_from([k for k in _host_kinds(device) if k != "coo"]))
    symmetric_mode = data.draw(st.booleans())
    G, ref_in = _bipartite(kind, B)
    got = csgraph.reverse_cuthill_mckee(G, symmetric_mode=symmetric_mode)
    if B.shape[0]:
        ref = scg.reverse_cuthill_mckee(ref_in, symmetric_mode=symmetric_mode)
        assert got.dtype == ref.dtype
        np.testing.assert_array_equal(to_host(got), ref)
    else:
        assert to_host(got).shape == (0,)
    assert sr.device_of(got) == device
    assert csgraph.structural_rank(G) == scg.structural_rank(ref_in)


def test_matching_and_ordering_input_rules():
    B = sp.csr_array(np.array([[1.0, 1], [1, 0]]))
    _same_error(lambda: csgraph.maximum_bipartite_matching(B.toarray()),
                lambda: scg.maximum_bipartite_matching(B.toarray()))
    _same_error(lambda: csgraph.maximum_bipartite_matching(sp.dia_array(B)),
                lambda: scg.maximum_bipartite_matching(sp.dia_array(B)))
    _same_error(lambda: csgraph.min_weight_full_bipartite_matching(B.toarray()),
                lambda: scg.min_weight_full_bipartite_matching(B.toarray()))
    _same_error(lambda: csgraph.reverse_cuthill_mckee(B.toarray()),
                lambda: scg.reverse_cuthill_mckee(B.toarray()))
    _same_error(lambda: csgraph.reverse_cuthill_mckee(sp.coo_array(B)),
                lambda: scg.reverse_cuthill_mckee(sp.coo_array(B)))
    _same_error(lambda: csgraph.reverse_cuthill_mckee(sp.csr_array(np.ones((2, 3)))),
                lambda: scg.reverse_cuthill_mckee(sp.csr_array(np.ones((2, 3)))))
    _same_error(lambda: csgraph.structural_rank(B.toarray()),
                lambda: scg.structural_rank(B.toarray()))
    _same_error(lambda: csgraph.connected_components(sp.csr_array(np.ones((2, 3)))),
                lambda: scg.connected_components(sp.csr_array(np.ones((2, 3)))))
    _same_error(lambda: csgraph.connected_components(B, connection="medium"),
                lambda: scg.connected_components(B, connection="medium"))
    _same_error(lambda: csgraph.minimum_spanning_tree(sp.csr_array(np.ones((2, 3)))),
                lambda: scg.minimum_spanning_tree(sp.csr_array(np.ones((2, 3)))))
    with pytest.raises(sr.InvalidValue, match="perm_type must be"):
        csgraph.maximum_bipartite_matching(B, perm_type="x")
    with pytest.raises(sr.DomainMismatch, match="real dtype"):
        csgraph.minimum_spanning_tree(np.ones((2, 2), dtype=complex))
