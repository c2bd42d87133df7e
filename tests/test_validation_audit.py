"""Regression tests of the input-validation audit of the public API (``semiring`` and
``algorithms``, helper valid10): each defect found is a row of a table (the call, the error
class, a regex the message must match: the argument's name and the value given), and no
call may modify its inputs, whether it raises or answers."""

from __future__ import annotations

import io

import numpy as np
import pytest
import scipy.sparse as sp

import algorithms as al
import semiring as sr
from semiring import warmup

from conftest import to_host

_W = np.array([[0, 2.0, 0, 1], [2, 0, 3, 0], [0, 3, 0, 0], [1, 0, 0, 0]])


def _graph(device):
    return sr.Matrix.from_scipy(sp.csr_matrix(_W), device=device)


def _vector(device):
    return sr.Vector.from_dense(np.arange(4.0), device=device)


def _snapshot(x):
    if isinstance(x, sr.Matrix):
        return to_host(x.to_dense(missing=np.nan))
    if isinstance(x, sr.Vector):
        return to_host(x.to_dense(missing=np.nan))
    if sp.issparse(x):
        return x.toarray()
    return to_host(x).copy()


#: (id, call(A, u, device), error class, regex the message must match). A and u are the
#: graph _W and the vector 0..3 on ``device``; each row was a defect of the audit.
DEVICE_CASES = [
    ("Vector.new negative size", lambda A, u, d: sr.Vector.new(-1, device=d),
     sr.InvalidValue, r"Vector\.new: size .*got -1"),
    ("Vector.new str size", lambda A, u, d: sr.Vector.new("4", device=d),
     sr.InvalidValue, r"size .*got '4'"),
    ("Vector.new float size", lambda A, u, d: sr.Vector.new(2.5, device=d),
     sr.InvalidValue, r"size .*got 2\.5"),
    ("from_coo nrows past int64",
     lambda A, u, d: sr.Matrix.from_coo([0], [0], [1.0], nrows=2**63, ncols=4, device=d),
     sr.InvalidValue, r"nrows .*below 2\*\*63, got 9223372036854775808"),
    ("from_dense missing str", lambda A, u, d: sr.Matrix.from_dense(_W, missing="a", device=d),
     sr.DomainMismatch, r"Matrix\.from_dense: missing must be a real number, got 'a'"),
    ("Vector.from_dense missing str",
     lambda A, u, d: sr.Vector.from_dense(np.arange(3.0), missing="a", device=d),
     sr.DomainMismatch, r"Vector\.from_dense: missing .*'a'"),
    ("Matrix.to_dense missing str", lambda A, u, d: A.to_dense(missing="x"),
     sr.DomainMismatch, r"Matrix\.to_dense: missing .*'x'"),
    ("Vector.to_dense missing str", lambda A, u, d: u.to_dense(missing="i"),
     sr.DomainMismatch, r"Vector\.to_dense: missing .*'i'"),
    ("Matrix.isclose negative rel_tol", lambda A, u, d: A.isclose(A, rel_tol=-1),
     sr.InvalidValue, r"Matrix\.isclose: rel_tol .*got -1"),
    ("Vector.isclose NaN abs_tol", lambda A, u, d: u.isclose(u, abs_tol=np.nan),
     sr.InvalidValue, r"Vector\.isclose: abs_tol .*got nan"),
    ("apply complex right", lambda A, u, d: sr.apply(u, "plus", right=1j),
     sr.DomainMismatch, r"apply: right must be a real number.*1j"),
    ("apply str left", lambda A, u, d: sr.apply(A, "minus", left="a"),
     sr.DomainMismatch, r"apply: left must be a real number.*'a'"),
    ("select str thunk", lambda A, u, d: sr.select(A, "valuegt", "a"),
     sr.DomainMismatch, r"select: thunk must be a real number.*'a'"),
    ("select complex thunk", lambda A, u, d: sr.select(u, "valuegt", 1 + 2j),
     sr.DomainMismatch, r"select: thunk .*\(1\+2j\)"),
    ("select op list", lambda A, u, d: sr.select(A, ["tril"]),
     sr.InvalidValue, r"select: op must be one of .*got \['tril'\]"),
    ("assign complex value", lambda A, u, d: sr.assign(u.dup(), 1j, [0]),
     sr.DomainMismatch, r"assign: value must be a real number.*1j"),
    ("assign str value", lambda A, u, d: sr.assign(A.dup(), "a", [0], [1]),
     sr.DomainMismatch, r"assign: value .*'a'"),
    ("extract uint64 index past 2**63",
     lambda A, u, d: sr.extract(u, np.array([2**64 - 1], dtype=np.uint64)),
     sr.InvalidIndex, r"extract: rows must lie in \[0, 4\), got values in "
                      r"\[18446744073709551615, 18446744073709551615\]"),
    ("Vector.from_coo uint64 index past 2**63",
     lambda A, u, d: sr.Vector.from_coo(np.array([2**63], dtype=np.uint64), 1.0, size=4,
                                        device=d),
     sr.InvalidIndex, r"Vector\.from_coo: indices must lie below 2\*\*63, got 9223372036854775808"),
    ("louvain str seed", lambda A, u, d: al.louvain(A, seed="a"),
     sr.InvalidValue, r"louvain: seed must be None or a non-negative integer, got 'a'"),
    ("louvain float seed", lambda A, u, d: al.louvain(A, seed=1.5),
     sr.InvalidValue, r"louvain: seed .*got 1\.5"),
    ("label_propagation negative seed", lambda A, u, d: al.label_propagation(A, seed=-1),
     sr.InvalidValue, r"label_propagation: seed .*got -1"),
    ("as_symmetric of a non-square matrix",
     lambda A, u, d: sr.extract(A, [0, 1], [0, 1, 2]).as_symmetric(),
     sr.DimensionMismatch, r"Matrix\.as_symmetric: the matrix must be square, got shape \(2, 3\)"),
    ("multi_source_sssp uint64 source past 2**63",
     lambda A, u, d: al.multi_source_sssp(A, np.array([2**64 - 1], dtype=np.uint64)),
     sr.InvalidIndex, r"multi_source_sssp: sources must lie in \[0, 4\), got 18446744073709551615"),
    ("betweenness uint64 source past 2**63",
     lambda A, u, d: al.betweenness_centrality(A, sources=np.array([2**64 - 1], dtype=np.uint64)),
     sr.InvalidIndex, r"betweenness_centrality: sources .*got 18446744073709551615"),
    ("reconstruct_path float pred",
     lambda A, u, d: al.reconstruct_path(sr.to_device(np.zeros((2, 2)), d), 0, 1),
     sr.DomainMismatch, r"reconstruct_path: pred must hold integer vertex ids, got dtype float64"),
    ("reconstruct_path pred past n",
     lambda A, u, d: al.reconstruct_path(sr.to_device(np.array([[-9999, 7], [7, -9999]]), d),
                                         0, 1),
     sr.InvalidIndex, r"reconstruct_path: pred\[0\] must hold vertices in \[0, 2\).*got 7"),
]


@pytest.mark.parametrize("case", DEVICE_CASES, ids=[c[0] for c in DEVICE_CASES])
def test_bad_argument_is_refused_by_name(device, case):
    _, call, error, pattern = case
    A, u = _graph(device), _vector(device)
    before = [_snapshot(A), _snapshot(u)]
    with pytest.raises(error, match=pattern):
        call(A, u, device)
    for b, x in zip(before, (A, u)):
        np.testing.assert_array_equal(_snapshot(x), b)


def _dist():
    return pytest.importorskip("semiring.dist")  # (the dask extra)


#: Host-only calls (SciPy input, shapes, device names, the warmup tool).
HOST_CASES = [
    ("from_csr shape of 3", lambda: sr.Matrix.from_csr([0, 0], [], [], (1, 2, 3)),
     sr.DimensionMismatch, r"Matrix\.from_csr: shape must be a pair \(nrows, ncols\), got \(1, 2, 3\)"),
    ("from_csr shape int", lambda: sr.Matrix.from_csr([0, 0], [], [], 1),
     sr.DimensionMismatch, r"shape must be a pair .*got 1"),
    ("from_scipy 1-D sparray", lambda: sr.Matrix.from_scipy(sp.coo_array(np.array([1.0, 0, 2]))),
     sr.DimensionMismatch, r"Matrix\.from_scipy: S must be 2-D, got shape \(3,\)"),
    ("to_device unknown device", lambda: sr.to_device(np.arange(3), "tpu"),
     sr.InvalidValue, r"to_device: device must be one of \('cpu', 'gpu'\), got 'tpu'"),
    ("array_module unknown device", lambda: sr.array_module("cuda"),
     sr.InvalidValue, r"array_module: device .*got 'cuda'"),
    ("min_weight_full_bipartite_matching complex",
     lambda: al.min_weight_full_bipartite_matching(sp.csr_matrix(np.eye(2) * (1 + 1j))),
     sr.DomainMismatch, r"min_weight_full_bipartite_matching: A's weights must be real numbers, "
                        r"got dtype complex128"),
    ("mmwrite non-str comment",
     lambda: sr.io.mmwrite(io.BytesIO(), sr.Matrix.from_scipy(sp.eye(2, format="csr"),
                                                            device="cpu"), comment=3),
     sr.DomainMismatch, r"mmwrite: comment must be a str, got int"),
    ("dist.even_bounds negative n", lambda: _dist().even_bounds(-5, 2),
     sr.InvalidValue, r"even_bounds: n must be an integer >= 0, got -5"),
    ("dist.even_bounds no parts", lambda: _dist().even_bounds(5, 0),
     sr.InvalidValue, r"even_bounds: nparts must be an integer >= 1, got 0"),
    ("warm_cpu unknown semiring", lambda: warmup.warm_cpu(["min_plux"], ["float64"]),
     sr.InvalidValue, r"warm_cpu: semirings .*\['min_plux'\]"),
    ("warm_cpu complex domain", lambda: warmup.warm_cpu(["min_plus"], ["complex64"]),
     sr.DomainMismatch, r"warm_cpu: dtypes must be one of .*got complex64"),
    ("warmup.run unknown executor", lambda: warmup.run([], workers=1, executor="fork"),
     sr.InvalidValue, r"run: executor must be 'process' or 'thread', got 'fork'"),
    ("warmup.run no workers", lambda: warmup.run([], workers=0),
     sr.InvalidValue, r"run: workers must be a positive integer, got 0"),
]


@pytest.mark.parametrize("case", HOST_CASES, ids=[c[0] for c in HOST_CASES])
def test_bad_host_argument_is_refused_by_name(case):
    _, call, error, pattern = case
    with pytest.raises(error, match=pattern):
        call()


@pytest.mark.skipif(sr.gpu_available(), reason="the error of a machine without a GPU")
def test_to_device_gpu_without_cupy_names_the_backend():
    # before: AttributeError 'NoneType' object has no attribute 'asarray' (where CuPy is absent)
    if sr.device._cupy() is None:
        with pytest.raises(sr.BackendUnavailable, match=r"to_device: device='gpu'"):
            sr.to_device(np.arange(3), "gpu")
    with pytest.raises(sr.BackendUnavailable, match=r"run: compiling GPU kernels needs a GPU"):
        warmup.run([], workers=1)


def test_reverse_cuthill_mckee_of_an_empty_graph(device):
    # before: SciPy's ValueError from inside NumPy (the facade already answered this)
    out = al.reverse_cuthill_mckee(sr.Matrix.from_scipy(sp.csr_matrix((0, 0)), device=device))
    assert sr.device_of(out) == device
    assert to_host(out).shape == (0,) and to_host(out).dtype == np.int32


def test_valid_edges_of_the_new_checks_still_answer(device):
    """The checks refuse only what they name: integer-like sizes, real scalars of every
    kind, NaN as ``missing``, numpy integer seeds."""
    A, u = _graph(device), _vector(device)
    assert sr.Vector.new(np.int64(3), device=device).size == 3
    assert sr.Vector.new(0, device=device).nvals == 0
    assert np.array_equal(to_host(sr.apply(u, "plus", right=np.float32(1)).to_dense()),
                          np.arange(4.0) + 1)
    assert np.array_equal(to_host(sr.apply(u, "times", left=True).to_dense()), np.arange(4.0))
    assert sr.select(A, "valuegt", np.int64(1)).nvals == 4
    assert to_host(sr.assign(u.dup(), np.uint8(7), [1]).to_dense()).tolist() == [0, 7, 2, 3]
    assert np.isnan(to_host(A.to_dense(missing=np.nan))[0, 0])
    assert sr.Matrix.from_dense(np.array([[np.nan, 1.0]]), missing=np.nan, device=device).nvals == 1
    assert A.isclose(A, rel_tol=0, abs_tol=np.float32(0.5))
    assert sr.array_module("cpu") is np and sr.to_device(np.arange(2), "cpu").tolist() == [0, 1]
    labels = al.louvain(A, seed=np.int64(3))
    assert to_host(labels).shape == (4,)
    assert np.array_equal(to_host(al.label_propagation(A, seed=np.int32(0))),
                          to_host(al.label_propagation(A, seed=0)))
    pred = sr.to_device(np.array([[-9999, 0], [1, -9999]]), device)
    assert al.reconstruct_path(pred, 0, 1).tolist() == [0, 1]


def test_empty_edge_list_is_an_empty_graph(device):
    # before: DimensionMismatch "edges must have shape (m, 2), got (0,)" for edges=[]
    A = sr.Matrix.from_edgelist([], nvertices=3, device=device)
    assert A.shape == (3, 3) and A.nvals == 0 and A.device == device
    assert sr.Matrix.from_edgelist([], device=device).shape == (0, 0)


def test_read_only_and_strided_inputs_answer_and_stay_unwritten(device):
    """Read-only and non-contiguous NumPy inputs work on the success paths and are never
    written (checked already right by the audit; kept as a guard)."""
    ro = np.arange(4.0)
    ro.flags.writeable = False
    strided = np.arange(8.0)[::2]
    rows = np.array([2, 0, 1, 2])
    cols = np.array([1, 1, 0, 1])
    vals = np.array([3.0, 1.0, 2.0, 4.0])
    for a in (rows, cols, vals):
        a.flags.writeable = False
    A = _graph(device)
    xp = sr.array_module(device)
    want = _W @ np.arange(4.0)
    assert np.array_equal(to_host(sr.mxv(A, xp.asarray(ro)).to_dense()), want)
    assert np.array_equal(to_host(sr.mxv(A, sr.to_device(strided, device)).to_dense()),
                          _W @ strided)
    M = sr.Matrix.from_coo(rows, cols, vals, nrows=3, ncols=2, dup_op="plus", device=device)
    assert to_host(M.to_dense()).tolist() == [[0, 1], [2, 0], [0, 7]]
    assert rows.tolist() == [2, 0, 1, 2] and vals.tolist() == [3.0, 1.0, 2.0, 4.0]
    X = np.ones((4, 2))
    X.flags.writeable = False
    Y, _ = sr.spmm(A, sr.to_device(X, device), "plus_times", np.float64)
    assert np.array_equal(to_host(Y), _W @ X)
    assert np.array_equal(X, np.ones((4, 2)))
