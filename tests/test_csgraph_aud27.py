"""The csgraph facade, session 27's audit (``bench/probes/aud27_csgraph_fuzz.py``): a non-float64
CSR whose duplicates SciPy's cast sums reads as SciPy reads it (an edge stored as -1 and 3
weighs 2, no negative weight), on every shortest-path route."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph


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
