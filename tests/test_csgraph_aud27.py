"""The csgraph facade, session 27's audit (``bench/probes/aud27_csgraph_fuzz.py``): a non-float64
CSR whose duplicates SciPy's cast sums reads as SciPy reads it (an edge stored as -1 and 3
weighs 2, no negative weight), on every shortest-path route."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from algorithms.csgraph import _validation


def _summed_to_positive(dtype, fmt="csr"):
    data = np.array([-1, 3], dtype=dtype)
    if fmt == "csc":
        return sp.csc_matrix((data, np.array([0, 0], dtype=np.int32),
                              np.array([0, 0, 2], dtype=np.int32)), shape=(2, 2))
    return sp.csr_matrix((data, np.array([1, 1], dtype=np.int32),
                          np.array([0, 2, 2], dtype=np.int32)), shape=(2, 2))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32])
@pytest.mark.parametrize("call", [
    lambda m, G: m.dijkstra(G, indices=0),
    lambda m, G: m.dijkstra(G, indices=0, directed=False),
    lambda m, G: m.dijkstra(G, indices=[0], min_only=True),
    lambda m, G: m.dijkstra(G, indices=[0, 1], return_predecessors=True),
    lambda m, G: m.shortest_path(G, method="D"),
    lambda m, G: m.shortest_path(G, method="auto", indices=0),
])
def test_duplicates_summed_by_the_cast_are_not_negative(dtype, call):
    G = _summed_to_positive(dtype)
    before = (G.data.copy(), G.indices.copy(), G.indptr.copy())
    want, got = call(scg, G), call(csgraph, G)
    for w, g in zip(want if isinstance(want, tuple) else (want,),
                    got if isinstance(got, tuple) else (got,)):
        assert w.dtype == g.dtype and w.shape == g.shape
        np.testing.assert_array_equal(w, g)
    for a, b in zip(before, (G.data, G.indices, G.indptr)):
        np.testing.assert_array_equal(a, b)  # the caller's arrays untouched


def test_an_undirected_csc_of_summed_duplicates():
    C = _summed_to_positive(np.float32, "csc")
    np.testing.assert_array_equal(csgraph.dijkstra(C, directed=False, indices=0),
                                  scg.dijkstra(C, directed=False, indices=0))


@pytest.mark.parametrize("indices", [2**31, [2**40], -2**31 - 1, [[0], [2**33]]])
@pytest.mark.parametrize("fn", ["dijkstra", "bellman_ford", "johnson", "shortest_path"])
def test_python_indices_beyond_int32_overflow_as_in_scipy(fn, indices):
    # SciPy converts indices with np.array(indices, dtype=int32): OverflowError; NumPy int64
    # arrays it wraps silently, which the facade refuses (IndexOutOfRange, documented)
    G = sp.csr_matrix(np.eye(3))
    with pytest.raises(OverflowError):
        getattr(scg, fn)(G, indices=indices)
    with pytest.raises(OverflowError):
        getattr(csgraph, fn)(G, indices=indices)
    with pytest.raises(_validation.IndexOutOfRange):  # and still the facade's range error
        getattr(csgraph, fn)(G, indices=indices)
    with pytest.raises(ValueError) as err:
        getattr(csgraph, fn)(G, indices=np.array([2**40]))
    assert not isinstance(err.value, OverflowError)


@pytest.mark.parametrize("G, kw, scipy_error", [
    (sp.csr_matrix(np.diag([1.0, 1.0], 1)), dict(indices=5, limit="x"), ValueError),
    (np.ones((2, 3)), dict(limit="x"), ValueError),
    (sp.csr_matrix(np.diag([1.0, 1.0], 1)), dict(indices=[2**40], limit=-1.0), OverflowError),
    (sp.csr_matrix(np.array([[0, -1.0], [0, 0]])), dict(unweighted=True, limit=-1.0),
     ValueError),
])
def test_dijkstra_reads_limit_last(G, kw, scipy_error):
    """Of two bad arguments the facade names SciPy's (SciPy reads limit last, after its
    negative-weight warning), with SciPy's warnings."""
    import warnings  # noqa: PLC0415  (this test's warnings only)

    caught = []
    for m in (scg, csgraph):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with pytest.raises(scipy_error):
                m.dijkstra(G, **kw)
        caught.append([(x.category, str(x.message)) for x in w])
    assert caught[0] == caught[1]


@pytest.mark.parametrize("fn", [
    lambda G: csgraph.dijkstra(G, indices=0),
    lambda G: csgraph.dijkstra(G, indices=[0, 1], return_predecessors=True),
    lambda G: csgraph.bellman_ford(G, indices=0),
    lambda G: csgraph.shortest_path(G),
    lambda G: csgraph.connected_components(G),
    lambda G: csgraph.minimum_spanning_tree(G),
])
@pytest.mark.parametrize("itype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_no_flags_left_on_the_callers_matrix(fn, itype, dtype):
    # SciPy's has_canonical_format property stores its answer on the object; SciPy's own
    # routines leave a caller's matrix without it, and so does the facade
    G = sp.csr_matrix((np.array([1, 2, 3], dtype=dtype), np.array([0, 1, 2], dtype=itype),
                       np.array([0, 2, 3, 3], dtype=itype)), shape=(3, 3))
    before = set(vars(G))
    fn(G)
    assert set(vars(G)) == before


# the second audit (bench/probes/aud27b_csgraph_fuzz.py): the other csgraph functions


@pytest.mark.parametrize("make", [sp.csr_array, sp.csr_matrix, sp.csc_array, sp.lil_array])
def test_a_stored_nan_weight_reads_as_scipys_dense_conversion(make):
    # SciPy densifies a sparse graph starting every cell at inf: a stored NaN never wins
    G = make(np.array([[0, np.nan], [1.0, 0]]))
    P = np.array([[-9999, 0], [1, -9999]], np.int32)
    for directed in (True, False):
        np.testing.assert_array_equal(csgraph.construct_dist_matrix(G, P, directed=directed),
                                      scg.construct_dist_matrix(G, P, directed=directed))
    want, got = scg.csgraph_to_masked(G), csgraph.csgraph_to_masked(G)
    np.testing.assert_array_equal(got.mask, want.mask)
    np.testing.assert_array_equal(got.data, want.data)


@pytest.mark.parametrize("call", [
    lambda g: csgraph.reconstruct_path(g, np.array([-9999, 0], np.int32)),
    lambda g: csgraph.construct_dist_matrix(g, np.array([[-9999, 0], [1, -9999]], np.int32)),
    lambda g: csgraph.csgraph_to_masked(g),
    lambda g: csgraph.yen(g, 0, 1, 2),
])
def test_a_non_canonical_csr_is_left_as_it_was(call):
    g = sp.csr_matrix((np.array([1.0, 2.0]), np.array([1, 0], np.int32),
                       np.array([0, 2, 2], np.int32)), shape=(2, 2))
    before = dict(vars(g))
    call(g)
    assert set(vars(g)) == set(before)


@pytest.mark.parametrize("at", [(2, 1), (2, 3), (1, 3), (3, 0)])
def test_construct_dist_matrix_undirected_reads_a_nan_as_scipy_symmetrizes(at):
    # SciPy symmetrizes each pair u < v in place: G[v, u] where G[v, u] <= G[u, v], else
    # G[u, v]; a masked array's unmasked NaN takes part in that comparison
    a = np.zeros((4, 4))
    a[at] = np.nan
    a[0, 1] = 2.0
    m = np.ma.masked_array(a, mask=(a == 0))
    P = np.array([[-9999, 0, 0, 0], [1, -9999, 1, 1], [2, 2, -9999, 2], [3, 3, 3, -9999]],
                 dtype=np.int32)
    for directed in (True, False):
        np.testing.assert_array_equal(csgraph.construct_dist_matrix(m, P, directed=directed),
                                      scg.construct_dist_matrix(m, P, directed=directed))


def test_matching_and_structural_rank_survive_repeated_entries():
    """SciPy's Hopcroft–Karp corrupts the heap on a CSC / CSR with repeated entries (the
    process aborts later: ``munmap_chunk(): invalid pointer``); the facade drops the repeats
    first. In a fresh process, as the abort would take this one down."""
    import subprocess  # noqa: PLC0415  (this test's child process)
    import sys  # noqa: PLC0415  (the child's interpreter: this one's)

    code = r"""
import numpy as np, scipy.sparse as sp
from algorithms import csgraph
r = [3, 2, 6, 0, 3, 6, 4, 6, 2, 4, 4, 2, 3, 1, 0, 5, 2, 4, 2, 4, 2, 2, 3, 7, 3, 6, 7, 7, 1, 5,
     5, 7, 4, 6, 3, 1, 3, 0, 0, 2, 4, 1, 4, 5, 5, 2, 0, 6, 3, 7, 7, 2, 1, 4, 3, 7, 4, 7, 3, 1,
     3, 3, 0, 2, 7, 6, 5, 6, 3, 1, 1, 6, 6, 7, 3, 1, 2, 0, 4, 6, 3, 1, 0, 3]
c = [0, 1, 3, 2, 2, 4, 2, 2, 0, 6, 4, 6, 1, 2, 1, 5, 3, 4, 5, 0, 0, 6, 1, 2, 6, 3, 5, 5, 7, 7,
     7, 6, 7, 6, 3, 5, 1, 0, 2, 7, 5, 7, 2, 5, 7, 4, 2, 7, 1, 0, 2, 4, 6, 2, 7, 4, 1, 4, 2, 7,
     2, 7, 2, 4, 0, 5, 0, 4, 5, 4, 4, 1, 0, 5, 6, 5, 0, 2, 3, 6, 1, 7, 6, 0]
r, c = np.array(r), np.array(c)
o = np.argsort(c, kind="stable")  # columns grouped, rows in drawn order: repeats kept
G = sp.csc_matrix((np.ones(r.size, dtype=np.uint8), r[o].astype(np.int32),
                   np.r_[0, np.cumsum(np.bincount(c, minlength=8))].astype(np.int32)),
                  shape=(8, 8))
for _ in range(20):
    m = csgraph.maximum_bipartite_matching(G, perm_type="row")
    k = csgraph.structural_rank(G)
junk = [np.ones(1000) for _ in range(2000)]
C = sp.csc_matrix((np.ones(r.size), (r, c)), shape=(8, 8))  # canonical: SciPy is safe there
import scipy.sparse.csgraph as scg
assert int(k) == int(scg.structural_rank(C)) == 8
assert sorted(m.tolist()) == list(range(8))
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]
