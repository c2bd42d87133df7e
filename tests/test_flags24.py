"""Session 24 (flags24): two input defects left by the session-22 audit (aud22_report.md,
"Left, and why", items 3 and 4).

1. The flags of the API (``replace``, ``structure``, ``complement`` of the core operations,
   their distributed mirrors, and the bool keywords of the algorithms) were read by truth
   value: ``sr.mxv(A, u, out=w, mask=m, replace="no")`` acted as ``replace=True``. Each now
   takes a ``bool`` or ``numpy.bool_`` only (``semiring.errors.check_bool``) and refuses
   anything else with a ``DomainMismatch`` (a TypeError) naming the function, the argument,
   the expected type and the value, before any work.
2. ``Vector.to_dense()`` / ``Matrix.to_dense()`` of a bool container gave int64 (NumPy's
   promotion of the default ``missing=0``); the default now keeps the container's dtype.
"""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest
import scipy.sparse as sp

import algorithms
import semiring as sr
from conftest import local_client, to_host
from semiring import dist

FLAGS = ("replace", "structure", "complement")


def _message(op, arg, value):
    return re.escape(f"{op}: {arg} must be a bool (True or False), got {value!r} "
                     f"({type(value).__name__})")


# ------------------------------------------------------------------ the core's operations


def _operands(device):
    """Small operands whose results depend on every flag: out has entries inside and outside
    the mask, the mask has a stored False (structure matters) and gaps (complement
    matters)."""
    A = sr.Matrix.from_coo([0, 0, 1, 2, 3, 3], [1, 3, 2, 0, 0, 3], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                           nrows=4, ncols=4, device=device)
    u = sr.Vector.from_coo([0, 1, 2, 3], [1.0, 2.0, 3.0, 4.0], size=4, device=device)
    w = sr.Vector.from_coo([0, 1, 2], [10.0, 20.0, 30.0], size=4, device=device)
    m = sr.Vector.from_coo([0, 1], [True, False], size=4, device=device)
    C = sr.Matrix.from_coo([0, 1, 3], [0, 1, 2], [7.0, 8.0, 9.0], nrows=4, ncols=4,
                           device=device)
    M = sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], [True, False, True], nrows=4, ncols=4,
                           device=device)
    return A, u, w, m, C, M


def _dense(x):
    return to_host(x) if not isinstance(x, (sr.Vector, sr.Matrix)) else to_host(x.to_dense(-1))


#: name -> call(operands, **flags): every public function of semiring.operations and
#: semiring.elementwise that takes the three flags, each with an output and a mask
CORE = {
    "mxv": lambda o, **f: sr.mxv(o["A"], o["u"], out=o["w"], mask=o["m"], **f),
    "vxm": lambda o, **f: sr.vxm(o["u"], o["A"], out=o["w"], mask=o["m"], **f),
    "mxm": lambda o, **f: sr.mxm(o["A"], o["A"], out=o["C"], mask=o["M"], **f),
    # a dense operand: the dense path reads structure / complement itself
    "mxm (dense)": lambda o, **f: sr.mxm(o["A"], o["D"], mask=o["M"], **f),
    "ewise_add": lambda o, **f: sr.ewise_add(o["u"], o["w"], out=o["w"], mask=o["m"], **f),
    "ewise_mult": lambda o, **f: sr.ewise_mult(o["u"], o["w"], out=o["w"], mask=o["m"], **f),
    "apply": lambda o, **f: sr.apply(o["u"], "ainv", out=o["w"], mask=o["m"], **f),
    "select": lambda o, **f: sr.select(o["u"], "valuegt", 1.5, out=o["w"], mask=o["m"], **f),
    "reduce_rows": lambda o, **f: sr.reduce_rows(o["A"], out=o["w"], mask=o["m"], **f),
    "reduce_cols": lambda o, **f: sr.reduce_cols(o["A"], out=o["w"], mask=o["m"], **f),
    "transpose": lambda o, **f: sr.transpose(o["A"], out=o["C"], mask=o["M"], **f),
    "extract": lambda o, **f: sr.extract(o["u"], [3, 2, 1, 0], out=o["w"], mask=o["m"], **f),
    "assign": lambda o, **f: sr.assign(o["w"], 5.0, [0, 1, 3], mask=o["m"], **f),
}


def _fresh(device):
    A, u, w, m, C, M = _operands(device)
    D = sr.array_module(device).ones((4, 4))
    return dict(A=A, u=u, w=w, m=m, C=C, M=M, D=D)


@pytest.mark.parametrize("arg", FLAGS)
@pytest.mark.parametrize("name", list(CORE))
@pytest.mark.parametrize("value", ["no", 1, 0, None, 1.0, np.array([True])])
def test_core_flags_refuse_non_bools(device, name, arg, value):
    """A flag that is not a bool is refused, naming the function, the flag and the value
    (before the fix "no", 1 and 1.0 acted as True, 0 and None as False), and the output is
    left as it was."""
    o = _fresh(device)
    before = {k: _dense(o[k]) for k in ("w", "C")}
    op = name.split(" ")[0]
    with pytest.raises(sr.DomainMismatch, match=_message(op, arg, value)) as err:
        CORE[name](o, **{arg: value})
    assert isinstance(err.value, TypeError)
    for k, b in before.items():
        np.testing.assert_array_equal(_dense(o[k]), b)


@pytest.mark.parametrize("arg", FLAGS)
@pytest.mark.parametrize("name", list(CORE))
@pytest.mark.parametrize("value", [True, False])
def test_core_flags_take_bools_and_numpy_bools(device, name, arg, value):
    """True / False work as before, and numpy.bool_ as the same Python bool (the same
    result, or the same error where the combination is refused: replace=True of a dense
    product)."""
    results = []
    for v in (value, np.bool_(value)):
        o = _fresh(device)
        try:
            results.append(("ok", _dense(CORE[name](o, **{arg: v}))))
        except sr.SemiringError as e:
            results.append((type(e), str(e)))
    assert results[0][0] == results[1][0]
    if results[0][0] == "ok":
        np.testing.assert_array_equal(results[0][1], results[1][1])
    else:
        assert results[0][1] == results[1][1]


def test_mxv_replace_false_keeps_out_outside_the_mask(device):
    """The case of the report: replace="no" cleared w outside the mask (as replace=True);
    replace=False keeps w(2) = 30 there, replace=True drops it."""
    o = _fresh(device)
    with pytest.raises(sr.DomainMismatch, match=_message("mxv", "replace", "no")):
        sr.mxv(o["A"], o["u"], out=o["w"], mask=o["m"], replace="no")
    kept = to_host(sr.mxv(o["A"], o["u"], out=o["w"].dup(), mask=o["m"],
                          replace=False).to_dense(-1))
    dropped = to_host(sr.mxv(o["A"], o["u"], out=o["w"].dup(), mask=o["m"],
                             replace=True).to_dense(-1))
    assert kept[2] == 30.0 and dropped[2] == -1


@pytest.mark.parametrize("value", ["no", 1])
def test_plain_mxv_refuses_flags_too(device, value):
    """Without out or mask (the plain fast path of _mxv_core) a flag that is not a bool is
    refused as well (before: ignored)."""
    A, u, *_ = _operands(device)
    for arg in FLAGS:
        with pytest.raises(sr.DomainMismatch, match=_message("mxv", arg, value)):
            sr.mxv(A, u, sr.min_plus, **{arg: value})
        with pytest.raises(sr.DomainMismatch, match=_message("vxm", arg, value)):
            sr.vxm(u, A, sr.min_plus, **{arg: value})
        with pytest.raises(sr.DomainMismatch, match=_message("mxv", arg, value)):
            sr.mxv(A, to_host(u.to_dense()) if device == "cpu" else u.to_dense(),
                   **{arg: value})


def test_plain_mxv_numpy_bool_flags(device):
    """np.bool_ flags leave the plain path for the checked one: the same answer."""
    A, u, *_ = _operands(device)
    want = to_host(sr.mxv(A, u, sr.min_plus).to_dense(-1))
    for arg in FLAGS:
        got = sr.mxv(A, u, sr.min_plus, **{arg: np.False_})
        np.testing.assert_array_equal(to_host(got.to_dense(-1)), want)
    got = sr.mxv(A, u, sr.min_plus, replace=np.True_)  # nothing to replace without out
    np.testing.assert_array_equal(to_host(got.to_dense(-1)), want)


MASKS = {
    "Mask": lambda o, **f: sr.Mask(o["m"], **{"structure": False, **f}),
    "as_mask": lambda o, **f: sr.mask.as_mask(o["m"], **{"structure": False,
                                                         "complement": False, **f},
                                              op="as_mask", size=4),
    "as_matrix_mask": lambda o, **f: sr.as_matrix_mask(o["M"], **{"structure": False,
                                                                  "complement": False, **f},
                                                       op="as_matrix_mask", shape=(4, 4)),
}


@pytest.mark.parametrize("arg", ("structure", "complement"))
@pytest.mark.parametrize("name", list(MASKS))
def test_masks_refuse_non_bools(device, name, arg):
    o = _fresh(device)
    with pytest.raises(sr.DomainMismatch, match=_message(name, arg, "no")):
        MASKS[name](o, **{arg: "no"})
    for v in (True, False):
        a, b = MASKS[name](o, **{arg: v}), MASKS[name](o, **{arg: np.bool_(v)})
        assert (a.structure, a.complement) == (b.structure, b.complement)
        assert type(b.structure) is bool and type(b.complement) is bool


#: (the function's name in messages, the flag, call(device, value)): the containers' flags
CONTAINERS = [
    ("Matrix.from_csr", "check", lambda d, v: sr.Matrix.from_csr(
        np.array([0, 1, 1]), np.array([1]), np.array([2.0]), (2, 2), check=v)),
    ("Matrix.from_scipy", "iso", lambda d, v: sr.Matrix.from_scipy(
        sp.csr_matrix(np.array([[0, 2.0], [0, 0]])), device=d, iso=v)),
    ("Matrix.from_edgelist", "undirected", lambda d, v: sr.Matrix.from_edgelist(
        [[0, 1], [1, 2]], undirected=v, device=d)),
    ("Matrix.isequal", "check_dtype", lambda d, v: _graph(d).isequal(_graph(d), check_dtype=v)),
    ("Matrix.isclose", "check_dtype", lambda d, v: _graph(d).isclose(_graph(d), check_dtype=v)),
    ("Vector.from_coo", "sort", lambda d, v: sr.Vector.from_coo([2, 0], [1, 2], size=3,
                                                                device=d, sort=v)),
    ("Vector.isequal", "check_dtype", lambda d, v: _operands(d)[1].isequal(
        _operands(d)[1], check_dtype=v)),
    ("Vector.isclose", "check_dtype", lambda d, v: _operands(d)[1].isclose(
        _operands(d)[1], check_dtype=v)),
]


def _same(a, b):
    if isinstance(a, (sr.Matrix, sr.Vector)):
        return a.isequal(b, check_dtype=True)
    return a == b


@pytest.mark.parametrize("op, arg, call", [pytest.param(*c, id=f"{c[0]}-{c[1]}")
                                           for c in CONTAINERS])
def test_container_flags(device, op, arg, call):
    for value in ("no", 1, None):
        with pytest.raises(sr.DomainMismatch, match=_message(op, arg, value)):
            call(device, value)
    for value in (True, False):
        assert _same(call(device, value), call(device, np.bool_(value)))


# ------------------------------------------------------------------ the algorithms


def _graph(device):
    S = sp.csr_matrix(np.array([[0, 2.0, 0, 1.0], [0, 0, 1.0, 0], [3.0, 0, 0, 0],
                                [0, 0, 1.0, 4.0]]))
    return sr.Matrix.from_scipy(S, device=device)


#: (function, its flags, positional arguments after A)
ALGORITHMS = [
    (algorithms.bfs, ("parents", "deterministic", "symmetric"), (0,)),
    (algorithms.multi_source_bfs, ("parents", "deterministic", "symmetric"), ([0, 1],)),
    (algorithms.bellman_ford, ("predecessors", "symmetric"), (0,)),
    (algorithms.delta_stepping, ("predecessors", "symmetric"), (0,)),
    (algorithms.sssp, ("predecessors", "symmetric"), (0,)),
    (algorithms.multi_source_sssp, ("predecessors", "symmetric"), ([0, 1],)),
    (algorithms.apsp, ("predecessors",), ()),
    (algorithms.connected_components, ("symmetric",), ()),
    (algorithms.min_weight_full_bipartite_matching, ("maximize",), ()),
    (algorithms.reverse_cuthill_mckee, ("symmetric_mode",), ()),
    (sr.connectivity.weak_components, ("symmetric", "roots"), ()),
]
ALGORITHM_CASES = [pytest.param(f, arg, args, id=f"{f.__name__}-{arg}")
                   for f, flags, args in ALGORITHMS for arg in flags]


def _host(res):
    return [to_host(r) for r in res] if isinstance(res, tuple) else [to_host(res)]


@pytest.mark.parametrize("f, arg, args", ALGORITHM_CASES)
def test_algorithm_flags(device, f, arg, args):
    A = _graph(device)
    for value in ("no", 1, None):
        with pytest.raises(sr.DomainMismatch, match=_message(f.__name__, arg, value)):
            f(A, *args, **{arg: value})
    for value in (True, False):
        want = _host(f(A, *args, **{arg: value}))
        got = _host(f(A, *args, **{arg: np.bool_(value)}))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)


def test_bfs_kept_launch_takes_bools_only(monkeypatch):
    """bfs's kept launch (the GPU's FAST_PATH, keyed by the flags) is looked up before the
    checks: 1 equals True as a key, so a flag of 1 must not reach it. A stand-in launch kept
    in A's memo (the GPU one cannot run here) shows which calls reach it."""
    abfs = importlib.import_module("algorithms.bfs")  # (the module: the package's bfs is
    # the function)
    A = _graph("cpu")
    ran = []

    def run(source):
        ran.append(source)
        return np.zeros(4, np.int32), np.zeros(4, np.int32)

    # (the policy's key reads the GPU's state: a constant stands for it)
    monkeypatch.setattr(abfs, "_fast_state", lambda: "policy")
    A._memo["bfs_fast"] = {(True, "auto", False, False, "policy"): run}
    with pytest.raises(sr.DomainMismatch, match=_message("bfs", "parents", 1)):
        algorithms.bfs(A, 0, parents=1)
    assert ran == []
    algorithms.bfs(A, 0, parents=True)
    assert ran == [0]


def test_csgraph_facade_keeps_scipy_truthiness():
    """The facade mirrors SciPy, which reads return_predecessors (and the like) by truth
    value: the engine's apsp now takes a bool, so the facade passes one."""
    from algorithms import csgraph  # noqa: PLC0415  (this test only)

    A = _graph("cpu")
    d1, p1 = csgraph.floyd_warshall(A, return_predecessors=1)
    d2, p2 = csgraph.floyd_warshall(A, return_predecessors=True)
    np.testing.assert_array_equal(to_host(d1), to_host(d2))
    np.testing.assert_array_equal(to_host(p1), to_host(p2))
    np.testing.assert_array_equal(
        to_host(csgraph.reverse_cuthill_mckee(A.to_scipy(), symmetric_mode=1)),
        to_host(csgraph.reverse_cuthill_mckee(A.to_scipy(), symmetric_mode=True)))


# ------------------------------------------------------------------ to_dense's dtype

DTYPES = [np.bool_, np.int32, np.int64, np.float32, np.float64]  # (the domains: semiring.types)


@pytest.mark.parametrize("form", ["sparse", "bitmap", "full"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_vector_to_dense_keeps_its_dtype(device, dtype, form):
    """The default fill is the type's zero in the vector's own dtype (before: a bool vector
    gave int64); both of to_dense's paths (the host sparse form's scatter, the bitmap's
    select) and a full vector."""
    idx = [0, 1, 2, 3] if form == "full" else [1, 3]
    v = sr.Vector.from_coo(idx, np.ones(len(idx), dtype=dtype), size=4, device=device)
    if form != "sparse":
        v.bitmap()
    assert (v._bitmap is None) == (form == "sparse")  # (which path to_dense takes)
    want = np.zeros(4, dtype=dtype)
    want[idx] = 1
    got = v.to_dense()
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(to_host(got), want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_to_dense_keeps_its_dtype(device, dtype):
    A = sr.Matrix.from_coo([0, 1], [1, 0], np.ones(2, dtype=dtype), nrows=2, ncols=3,
                           device=device)
    got = A.to_dense()
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(to_host(got), np.array([[0, 1, 0], [1, 0, 0]], dtype=dtype))
    P = sr.Matrix.from_coo([0], [2], None, nrows=2, ncols=3, device=device)  # structure only
    assert P.to_dense().dtype == P.dtype


def test_to_dense_explicit_missing_promotes(device):
    """An explicit missing keeps NumPy's promotion (documented): a bool container with
    missing=0 is int64, an int32 one with missing=np.inf float64, with -1 int32."""
    v = sr.Vector.from_coo([1], [True], size=3, device=device)
    A = sr.Matrix.from_coo([0], [1], [True], nrows=2, ncols=2, device=device)
    assert v.to_dense(missing=0).dtype == np.result_type(np.bool_, 0) == np.int64
    assert A.to_dense(missing=0).dtype == np.int64
    assert v.to_dense(missing=False).dtype == np.bool_
    w = sr.Vector.from_coo([1], [3], size=3, dtype=np.int32, device=device)
    assert w.to_dense(missing=np.inf).dtype == np.float64
    assert w.to_dense(missing=-1).dtype == np.int32
    np.testing.assert_array_equal(to_host(w.to_dense(missing=-1)), [-1, 3, -1])


# ------------------------------------------------------------------ semiring.dist


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("distributed")
    yield from local_client(1, processes=False)


def _dist_operands():
    S = sp.csr_matrix(np.array([[0, 1.0, 0, 2.0], [0, 0, 3.0, 0], [4.0, 0, 0, 0],
                                [5.0, 0, 0, 6.0]]))
    DA = dist.DistMatrix.from_scipy(S)
    u = dist.DistVector.from_coo(DA, [0, 1, 2, 3], [1.0, 2.0, 3.0, 4.0])
    w = dist.DistVector.from_coo(DA, [0, 1, 2], [10.0, 20.0, 30.0])
    m = dist.DistVector.from_coo(DA, [0, 1], [True, False])
    return dict(A=DA, u=u, w=w, m=m)


DIST = {
    "mxv": lambda o, **f: dist.mxv(o["A"], o["u"], out=o["w"], mask=o["m"], **f),
    "vxm": lambda o, **f: dist.vxm(o["u"], o["A"], out=o["w"], mask=o["m"], **f),
    "ewise_add": lambda o, **f: dist.ewise_add(o["u"], o["w"], out=o["w"], mask=o["m"], **f),
    "ewise_mult": lambda o, **f: dist.ewise_mult(o["u"], o["w"], out=o["w"], mask=o["m"], **f),
    "apply": lambda o, **f: dist.apply(o["u"], "ainv", out=o["w"], mask=o["m"], **f),
    "select": lambda o, **f: dist.select(o["u"], "valuegt", 1.5, out=o["w"], mask=o["m"], **f),
    "assign": lambda o, **f: dist.assign(o["w"], 5.0, mask=o["m"], **f),
}


@pytest.mark.parametrize("arg", FLAGS)
@pytest.mark.parametrize("name", list(DIST))
def test_dist_flags(client, name, arg):
    """The distributed mirrors refuse on the client (before: the partitions' tasks read the
    flag by truth value); bools and NumPy bools give the same vector."""
    o = _dist_operands()
    before = to_host(o["w"].to_dense(missing=-1))
    with pytest.raises(sr.DomainMismatch, match=_message(name, arg, "no")):
        DIST[name](o, **{arg: "no"})
    np.testing.assert_array_equal(to_host(o["w"].to_dense(missing=-1)), before)
    for v in (True, False):
        a = DIST[name](_dist_operands(), **{arg: v}).to_dense(missing=-1)
        b = DIST[name](_dist_operands(), **{arg: np.bool_(v)}).to_dense(missing=-1)
        np.testing.assert_array_equal(to_host(a), to_host(b))


def test_dist_mask_and_to_dense(client):
    o = _dist_operands()
    with pytest.raises(sr.DomainMismatch, match=_message("DistMask", "complement", "no")):
        dist.DistMask(o["m"], False, "no")
    got = to_host(o["m"].to_dense())
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, [True, False, False, False])


#: (function, its flags, positional arguments after A)
DIST_ALGORITHMS = [
    ("bfs", ("parents", "deterministic", "symmetric", "gather"), (0,)),
    ("connected_components", ("symmetric", "gather"), ()),
    ("pagerank", ("gather",), ()),
    ("sssp", ("predecessors", "symmetric", "gather"), (0,)),
    ("delta_stepping", ("predecessors", "symmetric", "gather"), (0,)),
    ("bellman_ford", ("predecessors", "symmetric", "gather"), (0,)),
]


@pytest.mark.parametrize("name, arg, args", [pytest.param(f, a, args, id=f"{f}-{a}")
                                             for f, flags, args in DIST_ALGORITHMS
                                             for a in flags])
def test_dist_algorithm_flags_refused(client, name, arg, args):
    import algorithms.dist as adist  # noqa: PLC0415  (dask: the distributed tests' extra)

    DA = _dist_operands()["A"]
    with pytest.raises(sr.DomainMismatch, match=_message(name, arg, "no")):
        getattr(adist, name)(DA, *args, **{arg: "no"})
