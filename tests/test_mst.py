"""algorithms.minimum_spanning_forest (Borůvka) against SciPy's Kruskal and a forest checker,
on both backends."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from scipy.sparse.csgraph import minimum_spanning_tree as scipy_mst

import algorithms
import semiring as sr
from conftest import to_host
from graphalg_cases import canonical, check_forest, edge_lists


def _coo(T):
    r, c, v = T.to_coo()
    return to_host(r), to_host(c), to_host(v)


@given(case=edge_lists())
def test_forest_is_scipys(device, case):
    n, rows, cols, vals = case
    A = canonical(*case, device)
    T = algorithms.minimum_spanning_forest(A)
    assert T.device == device and T.shape == (n, n) and T.dtype == A.dtype
    tr, tc, tv = _coo(T)
    ar, ac, av = _coo(A)
    # valid: a spanning forest of A's entries, independent of SciPy
    weight = check_forest(n, ar, ac, av, tr, tc, tv)
    # exact: SciPy's tree on the same CSR (ties broken by stored position in both)
    ref = scipy_mst(sp.csr_matrix((av, ac, to_host(A.indptr)), shape=(n, n)))
    assert math.isclose(weight, float(ref.sum()), abs_tol=1e-9)
    nz = tv != 0  # SciPy drops tree edges of weight zero
    got = sp.csr_matrix((tv[nz], (tr[nz], tc[nz])), shape=(n, n))
    assert got.nnz == ref.nnz and (got != ref).nnz == 0


def test_zero_negative_and_self_loops(device):
    # the zero edge is the lightest and stays in the forest (SciPy would drop it from its
    # output); the self-loop never enters; the negative edge is taken
    A = sr.Matrix.from_coo([0, 0, 1, 2, 2], [1, 2, 2, 2, 0], [0.0, 5.0, 1.0, -7.0, -2.0],
                           nrows=4, ncols=4, device=device)
    tr, tc, tv = _coo(algorithms.minimum_spanning_forest(A))
    assert sorted(zip(tr.tolist(), tc.tolist(), tv.tolist())) == [(0, 1, 0.0), (2, 0, -2.0)]


def test_iso_and_int(device):
    A = sr.Matrix.from_coo([0, 1, 2, 0], [1, 2, 0, 3], None, nrows=5, ncols=5, device=device)
    T = algorithms.minimum_spanning_forest(A)
    assert T.is_iso and T.nvals == 3
    B = sr.Matrix.from_coo([0, 1, 0], [1, 2, 2], np.array([2, 3, 1], np.int32), nrows=3,
                           ncols=3, device=device)
    T = algorithms.minimum_spanning_forest(B)
    assert T.dtype == np.int32 and sorted(_coo(T)[2].tolist()) == [1, 2]
    E = sr.Matrix.from_coo([], [], None, nrows=0, ncols=0, device=device)
    assert algorithms.minimum_spanning_forest(E).nvals == 0


@pytest.mark.parametrize("n", [10_000, 100_000])
def test_long_path_takes_log_rounds(device, n):
    perm = np.random.default_rng(1).permutation(n)
    w = np.random.default_rng(2).integers(1, 5, n - 1).astype(np.float64)
    A = sr.Matrix.from_coo(perm[:-1], perm[1:], w, nrows=n, ncols=n, device=device)
    rounds = []
    T = algorithms.minimum_spanning_forest(A, progress=lambda r, k: rounds.append(r))
    assert T.nvals == n - 1 and math.isclose(float(to_host(T.values).sum()), float(w.sum()))
    assert len(rounds) <= math.ceil(math.log2(n)) + 1, len(rounds)


def test_errors(device):
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device=device)
    with pytest.raises(sr.DimensionMismatch, match="minimum_spanning_forest: A must be square"):
        algorithms.minimum_spanning_forest(A)
    with pytest.raises(sr.DomainMismatch, match="progress must be callable"):
        algorithms.minimum_spanning_forest(
            sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=2, device=device), progress=1)
    with pytest.raises(sr.DomainMismatch, match="minimum_spanning_forest: A must be"):
        algorithms.minimum_spanning_forest([[0, 1], [1, 0]])
