"""Session 19's outside-in audit (aud15) of algorithms.maximum_flow against SciPy's
``maximum_flow`` on inputs its authors did not write: capacities outside int32 that SciPy's
int32 cast would wrap, and random graphs with zero, parallel, self-loop and large capacities
compared with SciPy's answer where SciPy's own arithmetic is exact."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import given
from hypothesis import strategies as st

import algorithms
import semiring as sr

I32 = np.iinfo(np.int32)


@pytest.mark.parametrize("cap", [int(I32.min) - 1, -(2**32) + 5, -(2**40)])
@pytest.mark.parametrize("method", ["dinic", "edmonds_karp"])
def test_capacity_below_int32_is_refused_by_scipys_methods(cap, method):
    # SciPy casts to int32: -2**31 - 1 became 2**31 - 1, a negative capacity carrying flow
    A = sp.csr_matrix(np.array([[0, cap], [0, 0]], dtype=np.int64))
    with pytest.raises(sr.InvalidValue, match=rf"method='{method}'.*{cap}.*push_relabel"):
        algorithms.maximum_flow(A, 0, 1, method=method)


@pytest.mark.parametrize("cap", [int(I32.min) - 1, -(2**32) + 5])
def test_capacity_below_int32_auto_names_the_negative_capacity(cap):
    A = sp.csr_matrix(np.array([[0, cap], [0, 0]], dtype=np.int64))
    with pytest.raises(sr.InvalidValue, match=rf"capacities >= 0, got {cap}"):
        algorithms.maximum_flow(A, 0, 1)


def test_negative_capacities_inside_int32_still_match_scipy():
    # SciPy takes them (they carry nothing); the guard above must not refuse them
    D = np.array([[0, -3, 4, 0], [0, 0, 0, 5], [0, 2, 0, -7], [0, 0, 0, 0]], dtype=np.int64)
    ref = scg.maximum_flow(sp.csr_array(D.astype(np.int32)), 0, 3).flow_value
    assert algorithms.maximum_flow(sp.csr_matrix(D), 0, 3).flow_value == ref


@pytest.mark.parametrize("fmt", ["csr", "coo"])
def test_int32_parallel_entries_summing_past_int32_match_scipy(fmt):
    # SciPy keeps the two entries as parallel arcs of 2**31 - 1 each; summed in int32 they
    # wrapped to -2 and the flow was 0
    big = int(I32.max)
    if fmt == "csr":
        A = sp.csr_matrix((np.array([big, big, 5], dtype=np.int32), np.array([1, 1, 2]),
                           np.array([0, 2, 3, 3])), shape=(3, 3))
    else:
        A = sp.coo_matrix((np.array([big, big, 5], dtype=np.int32), ([0, 0, 1], [1, 1, 2])),
                          shape=(3, 3))
    ref = int(scg.maximum_flow(sp.csr_matrix((np.array([big, big], dtype=np.int32),
                                              np.array([1, 1]), np.array([0, 2, 2])),
                                             shape=(2, 2)), 0, 1).flow_value)
    assert ref == 2 * big
    assert algorithms.maximum_flow(A, 0, 1).flow_value == ref
    assert algorithms.maximum_flow(A, 0, 1, method="push_relabel").flow_value == ref
    assert algorithms.maximum_flow(A, 0, 2).flow_value == 5
    assert A.dtype == np.int32 and A.nnz == 3  # the input untouched


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint8, np.uint16, np.uint32])
def test_narrow_integer_capacities_are_taken_as_scipy_takes_them(dtype):
    D = np.array([[0, 3, 2, 0], [0, 0, 1, 2], [0, 0, 0, 3], [0, 0, 0, 0]], dtype=dtype)
    ref = scg.maximum_flow(sp.csr_matrix(D), 0, 3)
    for method in ("auto", "dinic", "edmonds_karp", "push_relabel"):
        res = algorithms.maximum_flow(sp.csr_matrix(D), 0, 3, method=method)
        assert res.flow_value == ref.flow_value


@st.composite
def flow_graphs(draw):
    n = draw(st.integers(2, 16))
    m = draw(st.integers(0, 4 * n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    top = draw(st.sampled_from([2, 100, int(I32.max)]))
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    vals = rng.integers(0, top, m, dtype=np.int64)  # 0s stay explicit; parallel ones add up
    dtype = draw(st.sampled_from([np.int64, np.int32]))
    s, t = (int(x) for x in rng.choice(n, 2, replace=False))
    return sp.coo_matrix((vals.astype(dtype), (rows, cols)), shape=(n, n)), s, t


@given(g=flow_graphs(), method=st.sampled_from(["auto", "dinic", "edmonds_karp", "push_relabel"]))
def test_random_flows_match_scipy_and_are_flows(g, method):
    A, s, t = g
    C = A.astype(np.int64).tocsr()  # the duplicates summed exactly: SciPy's parallel arcs
    if C.nnz and int(C.data.max()) > I32.max:
        if method in ("dinic", "edmonds_karp"):
            with pytest.raises(sr.InvalidValue, match="int32"):
                algorithms.maximum_flow(A, s, t, method=method)
            return
        ref = None  # SciPy's int32 cast would wrap: checked as a flow only
    else:
        ref = int(scg.maximum_flow(C.astype(np.int32), s, t).flow_value)
    res = algorithms.maximum_flow(A, s, t, method=method)
    F = res.flow.to_dense(missing=0).astype(np.int64)
    cap = C.toarray().astype(np.int64)
    assert type(res.flow_value) is int
    assert ref is None or res.flow_value == ref
    np.testing.assert_array_equal(F, -F.T)
    off = ~np.eye(F.shape[0], dtype=bool)
    assert (F[off] <= cap[off]).all()
    net = F.sum(axis=1)
    assert int(net[s]) == res.flow_value == -int(net[t])
    assert not np.delete(net, [s, t]).any()
