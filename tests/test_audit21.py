"""Session 21's outside-in audit (aud21): defects found by probing the newest code (host
routes, ``Matrix`` caches, ``power_step`` and PageRank, the ``scipy.sparse.csgraph`` facade,
the analytics) with inputs its authors did not write (bench/probes/aud21_*.py). Each test
failed before its fix."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from scipy.sparse.linalg import aslinearoperator

import algorithms as alg
import semiring as sr
from algorithms import csgraph


def _cpu(rows, cols, n):
    return sr.Matrix.from_coo(rows, cols, [1.0] * len(rows), nrows=n, ncols=n, device="cpu")


def test_a_written_symmetric_view_is_not_its_base_any_more():
    # the view of as_symmetric() written as an operation's output held new content while its
    # base kept it as its view: bfs(A, 0, symmetric=True) searched the written graph
    # (levels [0, -1, -1] for the edge 0 - 1)
    A = _cpu([0, 1], [1, 0], 3)
    S = A.as_symmetric()
    B, eye = _cpu([1, 2], [2, 1], 3), _cpu([0, 1, 2], [0, 1, 2], 3)
    sr.mxm(B, eye, sr.plus_times, out=S)
    np.testing.assert_array_equal(S.to_dense(), B.to_dense())
    V = A.as_symmetric()
    assert V is not S and V.transpose_is_self
    np.testing.assert_array_equal(V.to_dense(), A.to_dense())
    np.testing.assert_array_equal(alg.bfs(A, 0, symmetric=True), alg.bfs(A, 0))
    assert alg.bfs(A, 0, symmetric=True).tolist() == [0, 1, -1]


def test_a_symmetric_view_is_kept_while_unwritten():
    A = _cpu([0, 1], [1, 0], 2)
    assert A.as_symmetric() is A.as_symmetric()


@pytest.mark.parametrize("name", ["dijkstra", "shortest_path", "floyd_warshall",
                                  "minimum_spanning_tree", "csgraph_to_dense", "yen"])
@pytest.mark.parametrize("obj", ["linear_operator", None, {0: 1}])
def test_csgraph_input_numpy_reads_as_one_object_raises_scipys_valueerror(name, obj):
    # SciPy finds a 0-d array of one object not 2-D: ValueError; the facade raised only a
    # DomainMismatch (a TypeError), which `except ValueError` written for SciPy missed
    if obj == "linear_operator":
        obj = aslinearoperator(sp.eye(3, format="csr"))
    args = (obj, 0, 1, 1) if name == "yen" else (obj,)
    with pytest.raises(ValueError):
        getattr(scg, name)(*args)
    with pytest.raises(ValueError, match=r"csgraph must be a sparse matrix, a 2-D array"):
        getattr(csgraph, name)(*args)
    with pytest.raises(sr.DomainMismatch):  # (the class the facade raised: still raised)
        getattr(csgraph, name)(*args)


@pytest.mark.parametrize("arg", ["personalization", "nstart", "dangling"])
@pytest.mark.parametrize("value", ["a", "2", None, 1 + 2j, [1, 2]])
def test_pagerank_dict_value_that_is_no_real_number_names_the_argument(arg, value):
    # float() read the string '2' as a weight and raised its own bare ValueError / TypeError
    # for the others, naming no argument (the array form refuses such dtypes already)
    A = sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 1], [0, 0, 0]], dtype=float))
    with pytest.raises(sr.DomainMismatch, match=rf"pagerank: {arg}\[1\] must be a real number"):
        alg.pagerank(A, **{arg: {0: 1.0, 1: value}})


def test_pagerank_dict_values_read_as_the_array_form():
    A = sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 1], [0, 0, 0]], dtype=float))
    ref = alg.pagerank(A, personalization=[0, 2.0, 1.0], nstart=[1, 1, 0], dangling=[1, 0, 0])
    got = alg.pagerank(A, personalization={1: np.float32(2), 2: np.array(1)},
                       nstart={0: True, 1: 1}, dangling={0: np.array(1.0)})
    np.testing.assert_allclose(got, ref, rtol=1e-12)


def test_pagerank_ragged_list_names_the_argument():
    A = sp.csr_matrix(np.array([[0, 1], [1, 0]], dtype=float))
    with pytest.raises(sr.DomainMismatch, match=r"pagerank: personalization must be an array"):
        alg.pagerank(A, personalization=[[1], [2, 3]])


@pytest.mark.parametrize("fn", [alg.betweenness_centrality, alg.edge_betweenness_centrality])
def test_sampled_betweenness_takes_a_numpy_integer_seed(fn):
    # random.Random(np.int64(2)) raised Python's TypeError ("The only supported seed types
    # are ..."), naming no argument, where the documented int seed was meant
    A = sp.csr_matrix(np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]],
                               dtype=float))
    a, b = fn(A, k=2, seed=np.int64(7)), fn(A, k=2, seed=7)
    if isinstance(a, sr.Matrix):
        a, b = a.to_dense(missing=0), b.to_dense(missing=0)
    np.testing.assert_array_equal(a, b)


def _step_args():
    t = sr.Vector.from_dense(np.array([0.5, 0.0]), device="cpu")   # host arrays beside it
    x, inv = np.array([0.5, 0.5]), np.array([1.0, 0.0])
    return t, x, x, 0.15 * x, inv


@pytest.mark.parametrize("dangling, error, match", [
    ([1], sr.DomainMismatch, r"dangling must be a 1-D integer array.*got list"),
    (None, sr.DomainMismatch, r"dangling must be a 1-D integer array.*got NoneType"),
    (np.array([1.0]), sr.DomainMismatch, r"dangling must be a 1-D integer array.*float64"),
    (np.array([[1]]), sr.DomainMismatch, r"dangling must be a 1-D integer array.*\(1, 1\)"),
    (np.array([5]), sr.InvalidIndex, r"dangling must hold vertices in \[0, 2\)"),
])
def test_power_step_refuses_a_bad_dangling_naming_it(dangling, error, match):
    # NumPy's AttributeError / IndexError named nothing
    with pytest.raises(error, match=match):
        sr.centrality.power_step(*_step_args(), 0.85, 0.5, dangling)


@pytest.mark.parametrize("arg", ["damping", "s"])
@pytest.mark.parametrize("value", [None, "0.5", float("nan"), True])
def test_power_step_refuses_a_scalar_that_is_no_finite_real(arg, value):
    # s=None read as 0 on the CPU (NumPy's truth test) and as NaN by the GPU kernel
    kw = {"damping": 0.85, "s": 0.5, arg: value}
    with pytest.raises(sr.DomainMismatch, match=rf"power_step: {arg} must be a finite real"):
        sr.centrality.power_step(*_step_args(), kw["damping"], kw["s"], np.array([1]))


def test_power_step_refuses_an_array_for_the_product():
    _, x, u, p, inv = _step_args()
    with pytest.raises(sr.DomainMismatch, match=r"power_step: t must be a semiring.Vector"):
        sr.centrality.power_step(np.array([0.5, 0.0]), x, u, p, inv, 0.85, 0.5, np.array([1]))


_G = sp.csr_matrix(np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]],
                            dtype=float))
_CHOICES = {
    "pagerank variant": (lambda v: alg.pagerank(_G, variant=v), "variant"),
    "triangle_count method": (lambda v: alg.triangle_count(_G, method=v), "method"),
    "triangle_count order": (lambda v: alg.triangle_count(_G, order=v), "order"),
    "triangles method": (lambda v: alg.triangles(_G, method=v), "method"),
    "clustering method": (lambda v: alg.clustering(_G, method=v), "method"),
    "connected_components connection": (lambda v: alg.connected_components(_G, v), "connection"),
    "connected_components method": (lambda v: alg.connected_components(_G, method=v), "method"),
    "maximum_flow method": (lambda v: alg.maximum_flow(_G.astype(np.int32), 0, 3, method=v),
                            "method"),
    "maximum_bipartite_matching perm_type": (
        lambda v: alg.maximum_bipartite_matching(_G, perm_type=v), "perm_type"),
    "sssp method": (lambda v: alg.sssp(_G, 0, method=v), "method"),
    "apsp method": (lambda v: alg.apsp(_G, method=v), "method"),
    "bfs direction": (lambda v: alg.bfs(_G, 0, direction=v), "direction"),
}


@pytest.mark.parametrize("call", sorted(_CHOICES))
def test_a_choice_given_as_an_array_names_the_argument(call):
    # `value not in CHOICES` compared an array elementwise: NumPy's "truth value of an array
    # ... is ambiguous" ValueError, naming no argument
    fn, arg = _CHOICES[call]
    with pytest.raises(sr.InvalidValue, match=rf"{arg} must be one of"):
        fn(np.array(["auto", "weak"]))


@pytest.mark.parametrize("value", ["no", 0, np.array([True, False])])
def test_pagerank_weighted_is_a_bool(value):
    # bool('no') is True: pagerank ran weighted, where eigenvector, Katz and HITS refuse it
    with pytest.raises(sr.DomainMismatch, match=r"pagerank: weighted must be a bool"):
        alg.pagerank(_G, weighted=value)


@pytest.mark.parametrize("fn", [alg.eigenvector_centrality, alg.katz_centrality, alg.hits])
def test_power_iteration_nstart_dict_takes_numpy_scalar_arrays(fn):
    # a dict value that is a 0-d array (a NumPy or CuPy scalar array) was refused here
    # (DomainMismatch) where the array form and PageRank's dict take it
    ref = fn(_G, nstart=[1.0, 2.0, 1.0, 1.0])
    got = fn(_G, nstart={0: np.array(1.0), 1: np.float32(2), 2: np.array(1), 3: 1})
    for a, b in zip(np.atleast_2d(got), np.atleast_2d(ref)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_bfs_direction_as_an_array_with_sources_names_it():
    with pytest.raises(sr.InvalidValue, match=r"direction=.* applies to one source"):
        alg.bfs(_G, sources=[0, 1], direction=np.array(["auto", "push"]))
