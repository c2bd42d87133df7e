"""Session 19 audit (helper audm15) of the minimum-weight full matching: both APIs
(``algorithms.min_weight_full_bipartite_matching`` and the csgraph facade's) against SciPy
and ``scipy.optimize.linear_sum_assignment`` on inputs found by a random search.

- Integer dtypes skipped the LAPJVsp range check (it read float dtypes only), and SciPy reads
  them as float64: an 8 × 8 int64 graph of weights 0..5 and ±2⁵⁵, ±2⁶⁰, 10¹⁷ never returned.
- A -inf weight (+inf with ``maximize=True``, which SciPy negates) went to SciPy: "no full
  matching exists" where one exists, or a loop that never returns.
- The native API dropped stored zero weights (SciPy's rule) although its docstring makes every
  stored entry an edge: [[0, 5], [5, 0]] answered the matching of weight 10.
- Integer-valued weights past 2⁵² (1e299, 1e300) were refused as "too far apart" although
  their spread is one gap.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

import algorithms
import semiring as sr
from algorithms import csgraph

INF = np.inf

#: A child process: SciPy's LAPJVsp is compiled, so an alarm cannot stop it; the child is
#: killed at the deadline instead. Each line: the error class each API raised (or "answered").
_CHILD = """
import warnings, numpy as np, scipy.sparse as sp
import algorithms
from algorithms import csgraph
warnings.simplefilter("ignore")
B = 2**60
W = np.array([[-B, 1, 5, 2, 0, 0, B, 3], [1, 1, 10**17, -B, 3, -B, 2, 2],
              [3 * 10**16 + 1, -2**55, 2, 2, 1, 0, 5, 5],
              [3 * 10**16 + 1, B, 2**55, -2**55, -B, -2**55, 3, 5],
              [3, -B, 3 * 10**16 + 1, 3 * 10**16 + 1, 0, 0, 1, 1],
              [2, B, 3, -B, 0, 2**55, B, 1], [B, 3, 10**17, 2**55, -2**55, B, 10**17, 3],
              [10**17, 2**55, 1, -B, B, B, B, 2]], dtype=np.int64)
I = np.inf
P = np.array([[0, 0, 0, 0, 1], [0, 0, 1, 0, 0], [I, 1, 0, 1, 2], [0, 1, 0, 2, 0],
              [0, 3, 0, 1, 0.]])
for S, maximize in ((W, False), (P, True)):
    S = sp.csr_matrix(S)
    if {device!r} == "gpu":
        import cupyx.scipy.sparse as cps
        S = cps.csr_matrix(S.astype(np.float64))
    for f in (algorithms.min_weight_full_bipartite_matching,
              csgraph.min_weight_full_bipartite_matching):
        try:
            f(S, maximize=maximize)
            print("answered")
        except Exception as e:
            print(type(e).__name__)
"""


def test_integer_and_infinite_weights_where_lapjvsp_never_returns_are_refused(device):
    """Before: the child never returned (killed at the deadline)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", _CHILD.replace("{device!r}", repr(device))],
                         cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["InvalidValue"] * 4


@pytest.mark.parametrize("api", ["native", "facade"])
@pytest.mark.parametrize("W, maximize", [([[-INF, 1], [1, 2.]], False),
                                         ([[-INF, 1, 2], [1, 2, 3], [2, 3, 1.]], False),
                                         ([[INF, 1], [1, 2.]], True)])
def test_minus_inf_weights_are_refused_naming_the_argument(device, api, W, maximize):
    """SciPy answers 'no full matching exists' for the first two (the diagonal is one) and
    [0, 1] for the third, where the refusal of -inf says which weight it refuses."""
    f = (algorithms.min_weight_full_bipartite_matching if api == "native"
         else csgraph.min_weight_full_bipartite_matching)
    S = sp.csr_array(np.array(W))
    A = sr.Matrix.from_scipy(S, device=device) if api == "native" else S
    with pytest.raises(sr.InvalidValue, match="-inf" if not maximize else r"\+inf"):
        f(A, maximize=maximize)
    # +inf when minimizing is SciPy's "no edge", and stays so
    if not maximize:
        Q = sp.csr_array(np.where(np.isneginf(np.array(W)), INF, np.array(W)))
        ref = scg.min_weight_full_bipartite_matching(Q)
        got = f(sr.Matrix.from_scipy(Q, device=device) if api == "native" else Q)
        for g, r in zip(got, ref):
            np.testing.assert_array_equal(sr.to_device(g, "cpu"), r)


def test_stored_zero_weights_are_edges_of_the_native_api(device):
    """Before: (0, 1), (1, 0) of weight 10, and 'no full matching exists' for a diagonal of
    zeros, with SciPy's warning 'explicit zero weights are removed before matching'."""
    A = sr.Matrix.from_coo(np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]),
                           np.array([0.0, 5.0, 5.0, 0.0]), nrows=2, ncols=2, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SciPy's warning: zeros dropped
        rows, cols = algorithms.min_weight_full_bipartite_matching(A)
    assert sr.to_device(cols, "cpu").tolist() == [0, 1]
    D = sr.Matrix.from_coo(np.array([0, 1]), np.array([0, 1]), np.array([0, 0]), nrows=2,
                           ncols=2, device=device)
    rows, cols = algorithms.min_weight_full_bipartite_matching(D, maximize=True)
    assert sr.to_device(cols, "cpu").tolist() == [0, 1]
    # the facade keeps SciPy's rule (a stored zero is no edge)
    with pytest.warns(UserWarning, match="explicit zero"):
        assert csgraph.min_weight_full_bipartite_matching(A.to_cpu().to_scipy())[1].tolist() \
            == [1, 0]


@given(data=st.data(), m=st.integers(1, 6), n=st.integers(1, 6),
       maximize=st.booleans(), integers=st.booleans())
def test_full_matching_weight_is_linear_sum_assignments(device, data, m, n, maximize,
                                                        integers):
    """The weight of the native API's full matching, zeros stored as edges, equals
    ``linear_sum_assignment``'s on the dense matrix (missing entries: inf)."""
    cells = st.one_of(st.none(), st.sampled_from([0, 1, 2, 3, -2, 7]) if integers
                      else st.sampled_from([0.0, 0.5, 1.25, -3.0, 2.0, 1e-3]))
    W = np.array(data.draw(st.lists(st.lists(cells, min_size=n, max_size=n), min_size=m,
                                    max_size=m)), dtype=object)
    present = W != None  # noqa: E711 (an object array's elementwise test)
    r, c = np.nonzero(present)
    vals = W[present].astype(np.float64)
    dense = np.full((m, n), -INF if maximize else INF)
    dense[r, c] = vals
    try:
        ri, ci = linear_sum_assignment(dense, maximize=maximize)
        if not np.isfinite(dense[ri, ci]).all():
            raise ValueError
        want = dense[ri, ci].sum()
    except ValueError:  # infeasible
        want = None
    A = sr.Matrix.from_coo(r, c, vals, nrows=m, ncols=n, device=device)
    try:
        rows, cols = algorithms.min_weight_full_bipartite_matching(A, maximize=maximize)
    except ValueError as exc:
        assert want is None, exc
        return
    assert want is not None
    rows, cols = sr.to_device(rows, "cpu"), sr.to_device(cols, "cpu")
    assert rows.size == min(m, n) and np.all(present[rows, cols])
    got = dense[rows, cols].sum()
    assert got == want if integers else np.isclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("api", ["native", "facade"])
def test_integer_valued_weights_one_gap_apart_are_answered(device, api):
    """Before: InvalidValue 'too far apart for float64 (from 1e+299 to 1e+300, two only
    9e+299 apart)'; SciPy answers."""
    S = sp.csr_array(np.array([[1e300, 1e300], [1e300, 1e299]]))
    f = (algorithms.min_weight_full_bipartite_matching if api == "native"
         else csgraph.min_weight_full_bipartite_matching)
    for maximize in (False, True):
        ref = scg.min_weight_full_bipartite_matching(S, maximize=maximize)
        got = f(sr.Matrix.from_scipy(S, device=device) if api == "native" else S,
                maximize=maximize)
        for g, r in zip(got, ref):
            np.testing.assert_array_equal(sr.to_device(g, "cpu"), r)
