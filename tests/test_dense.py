"""spmm (sparse × dense) and gemm (dense × dense) against the dense oracle, on every backend:
every semiring × domain, shapes around the kernels' tiles, bitmap X, positional multiplies,
iso A, both operand orders, int64 indices, integer limits, NaN, validation."""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, strategies as st
from scipy.sparse.csgraph import shortest_path

from algorithms.apsp import _plus_sat_numpy, min_plus_sat
import semiring as sr
from conftest import to_host
from oracle import dense_mxm
from semiring import dense as _dense
from semiring import kernels
from semiring.backend.cpu import dense as _cpu_dense
from semiring.backend.gpu import dense as _gpu_dense
from semiring.dense import gemm, spmm
from strategies import DTYPES, make_matrix

SEMIRINGS = sr.ops.list_names("semiring", builtin=True)
#: On the GPU every (semiring, domain) compiles a module (~0.5 s each): this subset covers
#: each kind of add and multiply; SEMIRING_DENSE_ALL=1 runs all of them there too.
GPU_SEMIRINGS = {"min_plus", "max_plus", "plus_times", "lor_land", "any_pair", "plus_pair",
                 "any_secondi", "min_secondi", "max_min", "min_firsti", "any_secondj",
                 "min_first", "max_times"}
S_VALUES = [0, 1, 2, 5, 31, 32, 33, 100]


def _semiring(name):
    return sr.ops.lookup("semiring", name, op="test", arg="semiring")


def _maybe_skip(device, name):
    if device == "gpu" and name not in GPU_SEMIRINGS and not os.environ.get("SEMIRING_DENSE_ALL"):
        pytest.skip("GPU compile budget: a representative subset of semirings runs on the GPU")


def rand_values(rng, dtype, shape, *, nan=False):
    """Small integers with the awkward floats (±0, ±inf, 0.5, NaN when asked)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    v = rng.integers(-20, 21, shape)
    if dt.kind == "i":
        return v.astype(dt)
    v = v.astype(dt)
    specials = np.array([0.0, -0.0, 0.5, np.inf, -np.inf] + ([np.nan] if nan else []), dtype=dt)
    pick = rng.random(shape) < 0.15
    v[pick] = rng.choice(specials, int(pick.sum()))
    return v


def _to(device, a):
    if a is None or device == "cpu":
        return a
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    return cp.asarray(a)


def _inexact(semiring, rtype):
    return np.dtype(rtype).kind == "f" and semiring.add.name in ("plus", "times")


def check_result(semiring, got, got_pres, vals, pres, products, *, check_pres=True):
    """Compare a dense result with the oracle: presence, identity where absent, values."""
    got = to_host(got)
    rtype = vals.dtype
    assert got.dtype == rtype and got.shape == vals.shape
    if got_pres is not None and check_pres:
        np.testing.assert_array_equal(to_host(got_pres), pres)
    identity = semiring.add.identity_of(rtype)
    np.testing.assert_array_equal(got[~pres], np.full(int((~pres).sum()), identity, dtype=rtype))
    g, e = got[pres], vals[pres]
    if semiring.add.terminal_of(rtype) is sr.ANY:
        ok = np.zeros(got.shape, dtype=bool)
        for p, q in products:
            same = (p == got) | (np.isnan(p) & np.isnan(got)) if rtype.kind == "f" else p == got
            ok |= q & same
        assert ok[pres].all(), "an `any` result that is none of the products"
    elif _inexact(semiring, rtype):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, e)


def run_spmm(device, semiring, Ad, Ap, Xd, Xp, dom, *, iso=False, int64=False, xfirst=False,
             use_present=True):
    """spmm on the device and the oracle's answer, with the inputs checked unchanged."""
    A = make_matrix(Ad, Ap, device, iso=iso, int64=int64)
    if iso:
        Ad = np.ones_like(Ad, dtype=np.bool_)
    X = _to(device, Xd.copy())
    P = _to(device, Xp.copy()) if use_present else None
    Y, pres = spmm(A, X, semiring, dom, xfirst=xfirst, x_present=P, want_present=True)
    assert type(Y) is type(X) and Y.flags.c_contiguous
    np.testing.assert_array_equal(to_host(X), Xd)
    if use_present:
        np.testing.assert_array_equal(to_host(P), Xp)
    Xp = Xp if use_present else np.ones(Xd.shape, dtype=bool)
    if xfirst:  # Yᵀ = Xᵀ ⊕.⊗ Aᵀ
        v, p, prods = dense_mxm(Xd.T, Xp.T, Ad.T, Ap.T, semiring, dom)
        v, p, prods = v.T, p.T, [(a.T, b.T) for a, b in prods]
    else:
        v, p, prods = dense_mxm(Ad, Ap, Xd, Xp, semiring, dom)
    return Y, pres, v, p, prods


# ---------------------------------------------------------------------------------- spmm

@pytest.mark.parametrize("semiring_name", SEMIRINGS)
@given(data=st.data())
def test_spmm_against_oracle(device, semiring_name, data):
    _maybe_skip(device, semiring_name)
    semiring = _semiring(semiring_name)
    adt = data.draw(st.sampled_from(DTYPES), label="A.dtype")
    xdt = data.draw(st.sampled_from([adt, adt] + DTYPES), label="X.dtype")
    n = data.draw(st.integers(0, 9), label="nrows")
    k = data.draw(st.integers(0, 9), label="ncols")
    s = data.draw(st.sampled_from(S_VALUES), label="s")
    density = data.draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]), label="density")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    nan = data.draw(st.booleans(), label="nan")
    Ad, Ap = rand_values(rng, adt, (n, k), nan=nan), rng.random((n, k)) < density
    Xd = rand_values(rng, xdt, (k, s), nan=nan)
    Xp = rng.random((k, s)) < data.draw(st.sampled_from([0.0, 0.3, 0.8, 1.0]), label="x dens")
    dom = sr.types.promote(adt, xdt)
    Y, pres, v, p, prods = run_spmm(
        device, semiring, Ad, Ap, Xd, Xp, dom,
        iso=data.draw(st.booleans(), label="iso"), int64=data.draw(st.booleans(), label="int64"),
        xfirst=data.draw(st.booleans(), label="xfirst"),
        use_present=data.draw(st.booleans(), label="x_present"))
    assert Y.shape == (n, s)
    check_result(semiring, Y, pres, v, p, prods)


@pytest.mark.parametrize("sname", ["min_plus", "plus_times", "lor_land", "any_secondi",
                                   "min_secondi", "any_pair", "max_min"])
@pytest.mark.parametrize("s", [1, 31, 32, 33, 100, 129])
@pytest.mark.parametrize("xfirst", [False, True])
def test_spmm_wide_and_long_rows(device, sname, s, xfirst):
    """Rows longer than a warp (the entry loop runs several rounds), column tiles of every
    width, a bitmap X, isolated vertices and a self-loop on every vertex."""
    semiring = _semiring(sname)
    rng = np.random.default_rng(s)
    n, k = 150, 120
    dom = np.dtype(np.float32) if sname != "lor_land" else np.dtype(np.bool_)
    Ap = rng.random((n, k)) < np.where(np.arange(n) % 10 == 0, 0.9, 0.05)[:, None]
    Ap[np.arange(0, n, 7)] = False  # isolated rows
    Ap[np.arange(min(n, k)), np.arange(min(n, k))] = True  # self-loops
    Ad = rand_values(rng, dom, (n, k))
    Xd = rand_values(rng, dom, (k, s))
    Xp = rng.random((k, s)) < 0.6
    Y, pres, v, p, prods = run_spmm(device, semiring, Ad, Ap, Xd, Xp, dom, xfirst=xfirst)
    check_result(semiring, Y, pres, v, p, prods)
    assert p.any()


@pytest.mark.parametrize("sname", ["lor_land", "any_pair", "any_secondi", "land_lor", "min_plus"])
def test_spmm_early_exit_terminal(device, sname):
    """Dense rows whose results reach the terminal value early: the result is unchanged."""
    semiring = _semiring(sname)
    rng = np.random.default_rng(1)
    n, k, s = 40, 300, 40
    dom = np.dtype(np.bool_) if sname in ("lor_land", "land_lor") else np.dtype(np.int32)
    Ap = rng.random((n, k)) < 0.8
    Ad = np.ones((n, k), dtype=dom) if dom != np.bool_ else rng.random((n, k)) < 0.9
    Xd = rand_values(rng, dom, (k, s))
    if sname == "min_plus":  # int32 min reaches its terminal (INT_MIN) in one column
        Xd[5, 3] = np.iinfo(np.int32).min
        Ad[:, 5] = 0
    Xp = rng.random((k, s)) < 0.9
    Y, pres, v, p, prods = run_spmm(device, semiring, Ad, Ap, Xd, Xp, dom)
    check_result(semiring, Y, pres, v, p, prods)


def test_spmm_multi_source_bfs_parents(device):
    """One multi-source BFS step: frontier columns as a bitmap X, parents by any_secondi over
    Aᵀ with xfirst (the vxm form): each parent is an in-neighbour present in that column."""
    rng = np.random.default_rng(4)
    n, s = 200, 33
    G = rng.random((n, n)) < 0.03
    At = make_matrix(np.ones((n, n), bool).T, G.T, device, iso=True)  # Aᵀ(i, k) = G(k, i)
    F = rng.random((n, s)) < 0.1
    X = _to(device, np.zeros((n, s), dtype=np.int64))
    Y, pres = spmm(At, X, sr.any_secondi, np.int64, xfirst=True, x_present=_to(device, F),
                   want_present=True)
    Y, pres = to_host(Y), to_host(pres)
    np.testing.assert_array_equal(pres, (G.T.astype(int) @ F.astype(int)) > 0)
    i, j = np.nonzero(pres)
    assert G[Y[i, j], i].all() and F[Y[i, j], j].all()
    assert (Y[~pres] == 0).all()  # the any monoid's identity


@pytest.mark.parametrize("sname", ["min_plus", "plus_times", "lor_land", "any_secondi",
                                   "min_secondi", "any_pair", "plus_pair"])
@given(data=st.data())
def test_spmm_output_mask(device, sname, data):
    """Y⟨M⟩ and Y⟨¬M⟩: the unmasked product where the mask allows, the identity and absent
    elsewhere; rows wholly masked out, bitmap X, both operand orders, long rows."""
    semiring = _semiring(sname)
    n = data.draw(st.integers(0, 70), label="nrows")
    k = data.draw(st.integers(0, 70), label="ncols")
    s = data.draw(st.sampled_from(S_VALUES + [64, 129]), label="s")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    dom = np.dtype(np.bool_) if sname == "lor_land" else np.dtype(np.int32)
    Ap = rng.random((n, k)) < data.draw(st.sampled_from([0.0, 0.1, 0.6]), label="density")
    Ad = rand_values(rng, dom, (n, k))
    Xd = rand_values(rng, dom, (k, s))
    Xp = rng.random((k, s)) < data.draw(st.sampled_from([0.0, 0.2, 1.0]), label="x dens")
    M = rng.random((n, s)) < data.draw(st.sampled_from([0.0, 0.3, 0.9, 1.0]), label="m dens")
    M[rng.random(n) < 0.3] = data.draw(st.booleans(), label="whole rows")
    complement = data.draw(st.booleans(), label="complement")
    xfirst = data.draw(st.booleans(), label="xfirst")
    A = make_matrix(Ad, Ap, device, iso=data.draw(st.booleans(), label="iso"))
    if A.is_iso:
        Ad = np.ones_like(Ad, dtype=np.bool_)
    Md = _to(device, M.copy())
    Y, pres = spmm(A, _to(device, Xd), semiring, dom, xfirst=xfirst, x_present=_to(device, Xp),
                   want_present=True, mask=Md, complement=complement)
    np.testing.assert_array_equal(to_host(Md), M)  # the mask is not modified
    if xfirst:
        v, p, prods = dense_mxm(Xd.T, Xp.T, Ad.T, Ap.T, semiring, dom)
        v, p, prods = v.T, p.T, [(a.T, b.T) for a, b in prods]
    else:
        v, p, prods = dense_mxm(Ad, Ap, Xd, Xp, semiring, dom)
    allowed = ~M if complement else M
    v = np.where(allowed, v, semiring.add.identity_of(v.dtype)).astype(v.dtype)
    p = p & allowed
    check_result(semiring, Y, pres, v, p, prods)


def test_spmm_mask_validation(device):
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device=device)
    X = _to(device, np.ones((3, 4)))
    with pytest.raises(sr.DimensionMismatch, match=r"spmm: mask.shape \(3, 4\) must equal Y's shape"):
        spmm(A, X, sr.min_plus, np.float64, mask=_to(device, np.ones((3, 4), bool)))
    with pytest.raises(sr.DomainMismatch, match=r"spmm: mask.dtype must be bool, got int64"):
        spmm(A, X, sr.min_plus, np.float64, mask=_to(device, np.ones((2, 4), np.int64)))
    with pytest.raises(sr.InvalidValue, match=r"spmm: complement=True needs a mask"):
        spmm(A, X, sr.min_plus, np.float64, complement=True)
    with pytest.raises(sr.DomainMismatch, match=r"spmm: mask must be a NumPy or CuPy array"):
        spmm(A, X, sr.min_plus, np.float64, mask=[[True] * 4] * 2)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("sname", ["plus_times", "min_plus", "max_plus", "plus_pair", "max_times"])
def test_spmm_integer_limits_wrap_like_numpy(device, dtype, sname):
    semiring = _semiring(sname)
    info = np.iinfo(dtype)
    ext = np.array([info.max, info.min, info.max - 1, info.min + 1, -1, 0, 1, 2], dtype=dtype)
    rng = np.random.default_rng(11)
    Ad, Ap = rng.choice(ext, (12, 14)), rng.random((12, 14)) < 0.6
    Xd, Xp = rng.choice(ext, (14, 33)), rng.random((14, 33)) < 0.8
    Y, pres, v, p, prods = run_spmm(device, semiring, Ad, Ap, Xd, Xp, np.dtype(dtype))
    check_result(semiring, Y, pres, v, p, prods)


def test_spmm_lone_nan_survives(device):
    """fmin ignores a NaN next to a number, but a NaN alone is the answer (as fmin.reduce)."""
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], [np.inf, np.inf, 3.0], nrows=2, ncols=2,
                           device=device)
    X = _to(device, np.array([[-np.inf, -np.inf], [2.0, np.nan]]))
    Y, _ = spmm(A, X, sr.min_plus, np.float64)
    Y = to_host(Y)
    assert Y[0, 0] == np.inf  # fmin(inf + -inf = NaN, inf + 2)
    assert np.isnan(Y[0, 1])  # NaN and NaN: a lone NaN
    assert Y[1, 0] == 5.0
    assert np.isnan(Y[1, 1])  # only 3 + NaN


def test_spmm_empty_shapes(device):
    for n, k, s in [(0, 0, 0), (0, 3, 4), (3, 0, 4), (3, 4, 0), (5, 5, 1)]:
        A = sr.Matrix.from_coo([], [], [], nrows=n, ncols=k, dtype=np.float32, device=device)
        Y, pres = spmm(A, _to(device, np.ones((k, s), np.float32)), sr.min_plus, np.float32,
                       want_present=True)
        assert Y.shape == (n, s) and pres.shape == (n, s)
        assert (to_host(Y) == np.inf).all() and not to_host(pres).any()


def test_spmm_user_defined_monoid_without_ufunc(device):
    """A user monoid whose op is not a ufunc: the CPU's pairwise segmented reduction."""
    if device == "gpu" and not os.environ.get("SEMIRING_DENSE_ALL"):
        pytest.skip("GPU compile budget")
    op = sr.binary.__dict__.get("dense_tmax") or sr.BinaryOp(
        "dense_tmax", cuda="(x < y) ? y : x", numpy=lambda x, y: np.maximum(x, y))
    mon = sr.monoid.__dict__.get("dense_tmax") or sr.Monoid(
        "dense_tmax", op, lambda d: np.iinfo(d).min if np.dtype(d).kind == "i" else -np.inf)
    srg = sr.semiring.__dict__.get("dense_tmax_plus") or sr.Semiring("dense_tmax_plus", mon,
                                                                     sr.binary.plus)
    rng = np.random.default_rng(2)
    Ad, Ap = rand_values(rng, np.int64, (20, 15)), rng.random((20, 15)) < 0.5
    Xd, Xp = rand_values(rng, np.int64, (15, 7)), rng.random((15, 7)) < 0.7
    for use_present in (False, True):
        Y, pres, v, p, prods = run_spmm(device, srg, Ad, Ap, Xd, Xp, np.dtype(np.int64),
                                        use_present=use_present)
        check_result(srg, Y, pres, v, p, prods)
    Z = gemm(_to(device, Xd.T.copy()), _to(device, Xd), srg, np.int64)
    v, p, prods = dense_mxm(Xd.T, np.ones((7, 15), bool), Xd, np.ones((15, 7), bool), srg,
                            np.dtype(np.int64))
    check_result(srg, Z, None, v, p, prods)


def test_spmm_chunks(device, monkeypatch):
    """The CPU's memory-bounded chunks split rows: partial results combine in k order."""
    monkeypatch.setattr(_cpu_dense, "CHUNK_ELEMS", 64)
    rng = np.random.default_rng(9)
    for sname in ("plus_times", "min_secondi", "any_first", "max_plus"):
        semiring = _semiring(sname)
        Ad, Ap = rand_values(rng, np.int64, (30, 40)), rng.random((30, 40)) < 0.5
        Xd, Xp = rand_values(rng, np.int64, (40, 9)), rng.random((40, 9)) < 0.7
        for use_present in (False, True):
            Y, pres, v, p, prods = run_spmm(device, semiring, Ad, Ap, Xd, Xp,
                                            np.dtype(np.int64), use_present=use_present)
            check_result(semiring, Y, pres, v, p, prods)
        Z = gemm(_to(device, Xd.T.copy()), _to(device, Xd), semiring, np.int64)
        v, p, prods = dense_mxm(Xd.T, np.ones((9, 40), bool), Xd, np.ones((40, 9), bool),
                                semiring, np.dtype(np.int64))
        check_result(semiring, Z, None, v, p, prods)


# ---------------------------------------------------------------------------------- gemm

@pytest.mark.parametrize("semiring_name", SEMIRINGS)
@given(data=st.data())
def test_gemm_against_oracle(device, semiring_name, data):
    _maybe_skip(device, semiring_name)
    semiring = _semiring(semiring_name)
    xdt = data.draw(st.sampled_from(DTYPES), label="X.dtype")
    ydt = data.draw(st.sampled_from([xdt, xdt] + DTYPES), label="Y.dtype")
    dims = st.sampled_from([0, 1, 2, 3, 7, 8, 9, 17])
    m, k, n = data.draw(dims, label="m"), data.draw(dims, label="k"), data.draw(dims, label="n")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    nan = data.draw(st.booleans(), label="nan")
    Xd, Yd = rand_values(rng, xdt, (m, k), nan=nan), rand_values(rng, ydt, (k, n), nan=nan)
    dom = sr.types.promote(xdt, ydt)
    X, Y = _to(device, Xd.copy()), _to(device, Yd.copy())
    Z = gemm(X, Y, semiring, dom)
    np.testing.assert_array_equal(to_host(X), Xd)
    np.testing.assert_array_equal(to_host(Y), Yd)
    assert type(Z) is type(X) and Z.flags.c_contiguous and Z.shape == (m, n)
    v, p, prods = dense_mxm(Xd, np.ones((m, k), bool), Yd, np.ones((k, n), bool), semiring, dom)
    check_result(semiring, Z, None, v, p, prods)


@pytest.mark.parametrize("sname,dtype", [
    ("min_plus", np.float32), ("min_plus", np.int32), ("min_plus", np.float64),
    ("plus_times", np.float32), ("max_min", np.int64), ("lor_land", np.bool_),
    ("any_secondi", np.float32), ("min_firsti", np.int32), ("any_secondj", np.float64),
])
@pytest.mark.parametrize("m,k,n", [(127, 7, 129), (128, 8, 128), (129, 9, 127), (63, 17, 65),
                                   (64, 16, 64), (65, 15, 1), (259, 33, 131), (1, 300, 2)])
def test_gemm_tile_edges(device, sname, dtype, m, k, n):
    """Shapes at the GPU tiles' edges (64, 128; K steps 8, 16) and several tiles."""
    semiring = _semiring(sname)
    rng = np.random.default_rng(m * 1000 + n)
    Xd, Yd = rand_values(rng, dtype, (m, k)), rand_values(rng, dtype, (k, n))
    Z = gemm(_to(device, Xd), _to(device, Yd), semiring, dtype)
    v, p, prods = dense_mxm(Xd, np.ones((m, k), bool), Yd, np.ones((k, n), bool), semiring,
                            np.dtype(dtype))
    check_result(semiring, Z, None, v, p, prods)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("sname", ["plus_times", "min_plus", "max_plus", "plus_pair"])
def test_gemm_integer_limits_wrap_like_numpy(device, dtype, sname):
    semiring = _semiring(sname)
    info = np.iinfo(dtype)
    ext = np.array([info.max, info.min, info.max - 1, info.min + 1, -1, 0, 1, 2], dtype=dtype)
    rng = np.random.default_rng(3)
    Xd, Yd = rng.choice(ext, (20, 19)), rng.choice(ext, (19, 21))
    Z = gemm(_to(device, Xd), _to(device, Yd), semiring, dtype)
    v, p, prods = dense_mxm(Xd, np.ones(Xd.shape, bool), Yd, np.ones(Yd.shape, bool), semiring,
                            np.dtype(dtype))
    check_result(semiring, Z, None, v, p, prods)


def test_gemm_min_plus_squaring_is_apsp(device):
    """Repeated min-plus squaring of a distance matrix gives SciPy's shortest paths."""
    rng = np.random.default_rng(5)
    n = 70
    W = np.where(rng.random((n, n)) < 0.05, rng.integers(1, 10, (n, n)), 0).astype(np.float64)
    D = np.where(W > 0, W, np.inf)
    np.fill_diagonal(D, 0)
    Dd = _to(device, D)
    for _ in range(7):  # 2^7 > n
        Dd = gemm(Dd, Dd, sr.min_plus, np.float64)
    np.testing.assert_array_equal(to_host(Dd), shortest_path(W, directed=True))


# ---------------------------------------------------------------------------------- validation

def test_validation_messages(device):
    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device=device)
    X = _to(device, np.ones((3, 4)))
    with pytest.raises(sr.DimensionMismatch, match=r"spmm: A.ncols \(=3\) must equal X.shape\[0\] \(=2\)"):
        spmm(A, _to(device, np.ones((2, 4))), sr.min_plus, np.float64)
    with pytest.raises(sr.DimensionMismatch, match=r"spmm: X must be a 2-D array, got 1-D"):
        spmm(A, _to(device, np.ones(3)), sr.min_plus, np.float64)
    with pytest.raises(sr.DomainMismatch, match=r"spmm: X must be a NumPy or CuPy array, got list"):
        spmm(A, [[1.0] * 4] * 3, sr.min_plus, np.float64)
    with pytest.raises(sr.DomainMismatch, match=r"spmm: A must be a semiring.Matrix"):
        spmm(np.ones((2, 3)), X, sr.min_plus, np.float64)
    with pytest.raises(sr.DomainMismatch, match=r"spmm: X.dtype must be one of"):
        spmm(A, _to(device, np.ones((3, 4), np.complex64)), sr.min_plus, np.float64)
    with pytest.raises(sr.DomainMismatch, match=r"spmm: dtype must be one of"):
        spmm(A, X, sr.min_plus, np.complex128)
    with pytest.raises(sr.DomainMismatch, match=r"spmm: semiring must be a Semiring"):
        spmm(A, X, "no_such_semiring", np.float64)
    with pytest.raises(sr.DimensionMismatch, match=r"spmm: x_present.shape \(3, 3\) must equal X.shape \(3, 4\)"):
        spmm(A, X, sr.min_plus, np.float64, x_present=_to(device, np.ones((3, 3), bool)))
    with pytest.raises(sr.DomainMismatch, match=r"spmm: x_present.dtype must be bool, got int64"):
        spmm(A, X, sr.min_plus, np.float64, x_present=_to(device, np.ones((3, 4), np.int64)))
    with pytest.raises(sr.DimensionMismatch, match=r"gemm: X.shape\[1\] \(=4\) must equal Y.shape\[0\] \(=3\)"):
        gemm(_to(device, np.ones((2, 4))), X, sr.min_plus, np.float64)
    with pytest.raises(sr.DimensionMismatch, match=r"gemm: Y must be a 2-D array, got 3-D"):
        gemm(X, _to(device, np.ones((4, 1, 1))), sr.min_plus, np.float64)


def test_device_mismatch_names_both():
    if not sr.gpu_available():
        pytest.skip("needs a GPU")
    import cupy as cp  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    A = sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3, device="gpu")
    with pytest.raises(sr.DeviceMismatch, match=r"spmm: A is on the GPU but X is on the CPU"):
        spmm(A, np.ones((3, 4)), sr.min_plus, np.float64)
    with pytest.raises(sr.DeviceMismatch, match=r"spmm: A is on the CPU but X is on the GPU"):
        spmm(A.to_cpu(), cp.ones((3, 4)), sr.min_plus, np.float64)
    with pytest.raises(sr.DeviceMismatch, match=r"but x_present is on the CPU"):
        spmm(A, cp.ones((3, 4)), sr.min_plus, np.float64, x_present=np.ones((3, 4), bool))
    with pytest.raises(sr.DeviceMismatch, match=r"gemm: X is on the GPU but Y is on the CPU"):
        gemm(cp.ones((2, 3)), np.ones((3, 4)), sr.min_plus, np.float64)


# ---------------------------------------------------------------------------------- GPU vs CPU

gpu_only = pytest.mark.skipif(not sr.gpu_available(), reason="needs a GPU")


@gpu_only
@pytest.mark.parametrize("sname", ["min_plus", "plus_times", "lor_land", "any_secondi",
                                   "min_secondi", "max_min"])
@pytest.mark.parametrize("s", [1, 33, 100, 300])
def test_gpu_spmm_matches_cpu_skewed(sname, s):
    """A power-law graph with rows of thousands of entries, and int64 indices too."""
    rng = np.random.default_rng(s)
    n = 4000
    deg = np.minimum((rng.pareto(1.2, n) * 3).astype(np.int64), n - 1)
    deg[:2] = [3000, n - 1]
    rows = np.repeat(np.arange(n), deg)
    cols = rng.integers(0, n, rows.size)
    S = sp.coo_matrix((rng.integers(1, 100, rows.size).astype(np.float32), (rows, cols)),
                      shape=(n, n)).tocsr()
    S.sum_duplicates()
    dom = np.dtype(np.bool_) if sname == "lor_land" else np.dtype(np.float32)
    Ac = sr.Matrix.from_scipy(S, device="cpu", dtype=dom)
    Ag = Ac.to_gpu()
    A64 = sr.Matrix(Ag.indptr.astype(np.int64), Ag.indices.astype(np.int64), Ag.values, Ag.shape)
    X = rand_values(rng, dom, (n, s))
    P = rng.random((n, s)) < 0.3
    for xfirst in (False, True):
        yc, pc = spmm(Ac, X, sname, dom, xfirst=xfirst, x_present=P, want_present=True)
        for A in (Ag, A64):
            yg, pg = spmm(A, _to("gpu", X), sname, dom, xfirst=xfirst, x_present=_to("gpu", P),
                          want_present=True)
            np.testing.assert_array_equal(to_host(pg), pc)
            if sname == "any_secondi":  # a present in-entry of the row
                i, j = np.nonzero(pc)
                k = to_host(yg)[i, j]
                assert (np.asarray(S[i, k]).ravel() != 0).all()  # values are 1..99
                assert P[k, j].all()
            elif sname == "plus_times":
                np.testing.assert_allclose(to_host(yg), yc, rtol=1e-5)
            else:
                np.testing.assert_array_equal(to_host(yg), yc)


@gpu_only
@pytest.mark.parametrize("sname,dtype", [("min_plus", np.float32), ("min_plus", np.int32),
                                         ("min_plus", np.float64), ("plus_times", np.float64),
                                         ("max_min", np.int64), ("lor_land", np.bool_)])
def test_gpu_gemm_matches_cpu_large(sname, dtype):
    rng = np.random.default_rng(0)
    Xd, Yd = rand_values(rng, dtype, (517, 300)), rand_values(rng, dtype, (300, 389))
    zc = gemm(Xd, Yd, sname, dtype)
    zg = to_host(gemm(_to("gpu", Xd), _to("gpu", Yd), sname, dtype))
    if sname == "plus_times":
        np.testing.assert_allclose(zg, zc, rtol=1e-9)
    else:
        np.testing.assert_array_equal(zg, zc)


# ---------------------------------------------------------------------------------- tuned min/max-plus

TUNED = [("min_plus", np.float32), ("max_plus", np.float32), ("min_plus", np.float64),
         ("max_plus", np.float64), ("min_plus", np.int32), ("max_plus", np.int32)]
#: 1, 2, 127, 128, 129, 255, 300 in m, k and n independently (around the 128 and 64 tiles)
TUNED_SHAPES = [(1, 1, 1), (2, 300, 2), (127, 128, 129), (129, 127, 128), (255, 2, 300),
                (300, 255, 1), (128, 129, 255), (1, 129, 127)]


def _tuned_operands(rng, dtype, shape):
    """rand_values, and for int32 the type's extremes too (sums wrap, as NumPy's do)."""
    dt = np.dtype(dtype)
    if dt.kind != "i":
        return rand_values(rng, dt, shape, nan=True)
    info = np.iinfo(dt)
    ext = np.array([info.max, info.min, info.max - 1, info.min + 1], dt)
    return np.where(rng.random(shape) < 0.1, rng.choice(ext, shape),
                    rng.integers(-50, 50, shape)).astype(dt)


@pytest.mark.parametrize("sname,dtype", TUNED)
@pytest.mark.parametrize("m,k,n", TUNED_SHAPES)
def test_tuned_minplus_against_oracle(device, sname, dtype, m, k, n):
    """The tuned kernel's domains (its tile edges, ±inf, NaN, negative values, int32 wrap)."""
    semiring = _semiring(sname)
    rng = np.random.default_rng(m * 10007 + k * 101 + n)
    Xd, Yd = _tuned_operands(rng, dtype, (m, k)), _tuned_operands(rng, dtype, (k, n))
    Z = gemm(_to(device, Xd), _to(device, Yd), semiring, dtype)
    v, p, prods = dense_mxm(Xd, np.ones((m, k), bool), Yd, np.ones((k, n), bool), semiring,
                            np.dtype(dtype))
    check_result(semiring, Z, None, v, p, prods)


def test_tuned_minplus_dispatch():
    """The policy table: (min|max)-plus over float32/float64/int32 only, and the saturating
    int32 min-plus only within SAT_BOUND."""
    for sname, dt in TUNED:
        assert _gpu_dense.minplus_policy(_semiring(sname), dt) is not None
    for sname, dt in [("min_plus", np.int64), ("min_plus", np.int16), ("plus_times", np.float32),
                      ("min_times", np.float32), ("max_min", np.int32), ("min_plus", np.bool_)]:
        assert _gpu_dense.minplus_policy(_semiring(sname), dt) is None, (sname, dt)
    assert _gpu_dense.minplus_policy(min_plus_sat, np.int32) is None
    assert _gpu_dense.minplus_policy(min_plus_sat, np.int32, _dense.SAT_BOUND + 1) is None
    assert _gpu_dense.minplus_policy(min_plus_sat, np.int32, _dense.SAT_BOUND) == "mp_imin_plus_sat"
    assert _gpu_dense.minplus_policy(min_plus_sat, np.int64, 10) is None
    names = next(iter(_gpu_dense.minplus_instantiations()))[2]
    assert len(names) == len(_gpu_dense.MINPLUS_POLICIES) + 1  # and the packed u16 one


@pytest.mark.parametrize("sname,dtype", TUNED)
def test_gemm_accumulate(device, sname, dtype):
    """Z ← Z ⊕ (X ⊕.⊗ Y) in place: a whole array, a view with padded rows, and a Z that
    overlaps X (the product is then computed first)."""
    semiring = _semiring(sname)
    rtype = np.dtype(dtype)
    rng = np.random.default_rng(11)
    m, k, n = 131, 70, 129
    Xd, Yd = _tuned_operands(rng, dtype, (m, k)), _tuned_operands(rng, dtype, (k, n))
    Z0 = _tuned_operands(rng, dtype, (m, n))
    T = dense_mxm(Xd, np.ones((m, k), bool), Yd, np.ones((k, n), bool), semiring, rtype)[0]
    want = semiring.add.op.apply_numpy(Z0, T, rtype)
    Z = _to(device, Z0.copy())
    X, Y = _to(device, Xd.copy()), _to(device, Yd.copy())
    assert _dense.gemm_accumulate(Z, X, Y, semiring, dtype) is Z
    np.testing.assert_array_equal(to_host(Z), want)
    np.testing.assert_array_equal(to_host(X), Xd)
    np.testing.assert_array_equal(to_host(Y), Yd)
    big = _to(device, np.zeros((m, n + 3), dtype))
    big[:, :n] = _to(device, Z0)
    _dense.gemm_accumulate(big[:, :n], X, Y, semiring, dtype)
    np.testing.assert_array_equal(to_host(big[:, :n]), want)
    np.testing.assert_array_equal(to_host(big[:, n:]), 0)
    # Z overlaps X: square operands, Z = X's own storage
    S0 = _tuned_operands(rng, dtype, (n, n))
    S = _to(device, S0.copy())
    Ts = dense_mxm(S0, np.ones((n, n), bool), S0, np.ones((n, n), bool), semiring, rtype)[0]
    _dense.gemm_accumulate(S, S, _to(device, S0.copy()), semiring, dtype)
    np.testing.assert_array_equal(to_host(S), semiring.add.op.apply_numpy(S0, Ts, rtype))


def test_gemm_accumulate_generic_and_empty(device):
    """A semiring without the tuned kernel, and an inner dimension of 0 (Z ⊕ identity)."""
    semiring = _semiring("plus_times")
    rng = np.random.default_rng(4)
    Xd, Yd, Z0 = (rng.integers(-5, 5, s).astype(np.int64) for s in ((9, 4), (4, 7), (9, 7)))
    Z = _to(device, Z0.copy())
    _dense.gemm_accumulate(Z, _to(device, Xd), _to(device, Yd), semiring, np.int64)
    np.testing.assert_array_equal(to_host(Z), Z0 + Xd @ Yd)
    Zf0 = np.array([[1.0, np.nan]], np.float32)
    Zf = _to(device, Zf0.copy())
    _dense.gemm_accumulate(Zf, _to(device, np.zeros((1, 0), np.float32)),
                           _to(device, np.zeros((0, 2), np.float32)), sr.min_plus, np.float32)
    np.testing.assert_array_equal(to_host(Zf), np.fmin(Zf0, np.inf))


@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (129, 255, 127), (300, 64, 300)])
def test_saturating_int32_within_bound(device, m, k, n):
    """APSP's min_plus_sat over int32 with bound <= SAT_BOUND (the DPX path on the GPU)
    against the saturating NumPy oracle, plain and accumulated."""
    rng = np.random.default_rng(m + k + n)
    lim, imax = 1 << 27, np.iinfo(np.int32).max
    Xd, Yd, Z0 = (rng.integers(-lim, lim, s).astype(np.int32) for s in ((m, k), (k, n), (m, n)))
    for a in (Xd, Yd, Z0):
        a[rng.random(a.shape) < 0.3] = imax
    Xd[0, :] = imax  # a row of infinities: its results stay infinite
    want = _plus_sat_numpy(Xd[:, :, None], Yd[None, :, :]).min(axis=1)
    for bound in (_dense.SAT_BOUND, None):  # the fast path, and the generic saturating kernel
        Z = gemm(_to(device, Xd), _to(device, Yd), min_plus_sat, np.int32, bound=bound)
        np.testing.assert_array_equal(to_host(Z), want)
        Za = _to(device, Z0.copy())
        _dense.gemm_accumulate(Za, _to(device, Xd), _to(device, Yd), min_plus_sat, np.int32,
                               bound=bound)
        np.testing.assert_array_equal(to_host(Za), np.minimum(Z0, want))
    assert (to_host(Z)[0] == imax).all()


def test_gemm_accumulate_validation(device):
    X, Y = _to(device, np.ones((2, 3))), _to(device, np.ones((3, 4)))
    with pytest.raises(sr.DimensionMismatch, match=r"gemm_accumulate: Z.shape \(2, 3\) must equal \(X.shape\[0\], Y.shape\[1\]\) = \(2, 4\)"):
        _dense.gemm_accumulate(_to(device, np.ones((2, 3))), X, Y, sr.min_plus, np.float64)
    with pytest.raises(sr.DomainMismatch, match=r"gemm_accumulate: Z.dtype must be the result type float64, got float32"):
        _dense.gemm_accumulate(_to(device, np.ones((2, 4), np.float32)), X, Y, sr.min_plus,
                               np.float64)
    with pytest.raises(sr.DimensionMismatch, match=r"gemm_accumulate: X.shape\[1\] \(=3\) must equal Y.shape\[0\] \(=4\)"):
        _dense.gemm_accumulate(_to(device, np.ones((2, 4))), X, _to(device, np.ones((4, 4))),
                               sr.min_plus, np.float64)
    with pytest.raises(sr.InvalidValue, match=r"gemm: bound must be None or a non-negative integer, got -1"):
        gemm(X, Y, sr.min_plus, np.float64, bound=-1)
    with pytest.raises(sr.InvalidValue, match=r"gemm_accumulate: bound must be None"):
        _dense.gemm_accumulate(_to(device, np.ones((2, 4))), X, Y, sr.min_plus, np.float64,
                               bound=1.5)
    Z = np.ones((2, 4))
    Z.flags.writeable = False
    if device == "cpu":
        with pytest.raises(sr.InvalidValue, match=r"gemm_accumulate: Z must be writeable"):
            _dense.gemm_accumulate(Z, X, Y, sr.min_plus, np.float64)


@gpu_only
def test_gpu_tuned_kernel_is_used():
    """min-plus float32 on the GPU compiles and runs the tuned kernel (not the generic one)."""
    rng = np.random.default_rng(1)
    Xd = rand_values(rng, np.float32, (300, 200))
    zg = to_host(gemm(_to("gpu", Xd), _to("gpu", Xd.T.copy()), "min_plus", np.float32))
    np.testing.assert_array_equal(zg, gemm(Xd, Xd.T.copy(), "min_plus", np.float32))
    name = _gpu_dense.minplus_name("mp_fmin_plus<float>", _gpu_dense.MINPLUS_TILING[4])
    assert any(key[1:4] == ("function", "minplus", name) for key in kernels._cache)


# ---------------------------------------------------------------------------------- bands, packed u16

def _u16_oracle(X, Y, Z0=None):
    """min(0x7FFF, [Z0,] min_k X' + Y'), X', Y', Z0 clamped to 0x7FFF, in int64."""
    inf = _dense.U16_INF
    Xi = np.minimum(X, inf).astype(np.int64)
    Yi = np.minimum(Y, inf).astype(np.int64)
    T = (Xi[:, :, None] + Yi[None, :, :]).min(axis=1, initial=inf)
    if Z0 is not None:
        T = np.minimum(T, np.minimum(Z0, inf))
    return T.astype(np.uint16)


def _u16_values(rng, shape):
    """Small values, 0, the infinity, values above it (read as infinity) and 0xFFFF."""
    inf = _dense.U16_INF
    ext = np.array([0, 1, inf - 1, inf, inf + 1, 0xFFFF], np.uint16)
    return np.where(rng.random(shape) < 0.25, rng.choice(ext, shape),
                    rng.integers(0, 20000, shape)).astype(np.uint16)


@given(m=st.integers(0, 140), k=st.integers(0, 40), n=st.integers(0, 140),
       seed=st.integers(0, 2**32 - 1), pitch=st.booleans())
def test_gemm_u16_vs_oracle(device, m, k, n, seed, pitch):
    """The packed 16-bit min-plus: odd and even widths (padded copies), views with a row pitch
    (in place when even), the infinity and values above it, k = 0."""
    rng = np.random.default_rng(seed)
    X, Y, Z0 = _u16_values(rng, (m, k)), _u16_values(rng, (k, n)), _u16_values(rng, (m, n))
    want = _u16_oracle(X, Y)
    np.testing.assert_array_equal(to_host(_dense.gemm_u16(_to(device, X), _to(device, Y))), want)
    big = _to(device, np.zeros((m, n + 2 * pitch + 1), np.uint16))
    Z = big[:, 1:n + 1] if pitch else big[:, :n]  # an odd offset: not a word view
    Z[...] = _to(device, Z0)
    out = _dense.gemm_u16_accumulate(Z, _to(device, X), _to(device, Y))
    np.testing.assert_array_equal(to_host(out), _u16_oracle(X, Y, Z0))
    np.testing.assert_array_equal(to_host(big)[:, n + 1:] if pitch else to_host(big)[:, n:],
                                  0)  # outside Z untouched


@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("offset", [0, 1])
def test_gemm_u16_views_at_odd_columns(device, k, offset):
    """Y a view from an odd column: with one row it counts as contiguous (its pitch is
    ignored) yet is not word-aligned, which the GPU path once took for a word view (None:
    Floyd–Warshall's phase 3 on a one-vertex-deep tile, found by Hypothesis on the H200)."""
    rng = np.random.default_rng(k * 10 + offset)
    X, Ybig, Z0 = (_u16_values(rng, (5, k)), _u16_values(rng, (k, 9)),
                   _u16_values(rng, (5, 4)))
    Y = _to(device, Ybig)[:, offset:offset + 4]
    np.testing.assert_array_equal(to_host(_dense.gemm_u16(_to(device, X), Y)),
                                  _u16_oracle(X, Ybig[:, offset:offset + 4]))
    Z = _to(device, Z0.copy())
    _dense.gemm_u16_accumulate(Z, _to(device, X), Y)
    np.testing.assert_array_equal(to_host(Z), _u16_oracle(X, Ybig[:, offset:offset + 4], Z0))


@pytest.mark.parametrize("m,k,n,rows,cols", [
    (300, 24, 300, (128, 256), (128, 256)),   # on tile boundaries: one launch on the GPU
    (300, 24, 300, (0, 256), None),           # a band from the start
    (300, 9, 290, (130, 140), (3, 5)),        # off the boundaries: rectangles
    (64, 8, 64, (0, 64), (0, 64)),            # everything skipped
    (260, 16, 520, (256, 260), (512, 520)),   # bands at the end
    (40, 0, 50, (8, 16), (0, 8)),             # k = 0: nothing changes (the packed Z clamps)
])
def test_gemm_accumulate_skip_bands(device, m, k, n, rows, cols):
    """Z outside the bands gets Z ⊕ X ⊗ Y, the bands keep their values: float32 min-plus
    (the tuned kernel's gaps), saturating int32 (its DPX path) and the packed u16."""
    rng = np.random.default_rng(m + n + k)
    keep = np.zeros((m, n), bool)
    if rows:
        keep[rows[0]:rows[1], :] = True
    if cols:
        keep[:, cols[0]:cols[1]] = True
    for semiring, dt, bound in ((sr.min_plus, np.float32, None),
                                (min_plus_sat, np.int32, 1 << 20)):
        X = rng.integers(0, 1000, (m, k)).astype(dt)
        Y = rng.integers(0, 1000, (k, n)).astype(dt)
        Z0 = rng.integers(0, 3000, (m, n)).astype(dt)
        big = np.inf if dt == np.float32 else np.iinfo(np.int32).max
        want = np.where(keep, Z0, np.minimum(Z0, (X[:, :, None] + Y[None]).min(axis=1,
                                                                           initial=big)))
        Z = _to(device, Z0.copy())
        _dense.gemm_accumulate(Z, _to(device, X), _to(device, Y), semiring, dt, bound=bound,
                               skip_rows=rows, skip_cols=cols)
        np.testing.assert_array_equal(to_host(Z), want)
    X, Y, Z0 = _u16_values(rng, (m, k)), _u16_values(rng, (k, n)), _u16_values(rng, (m, n))
    want = np.where(keep, Z0, _u16_oracle(X, Y, Z0))
    Z = _to(device, Z0.copy())
    _dense.gemm_u16_accumulate(Z, _to(device, X), _to(device, Y), skip_rows=rows, skip_cols=cols)
    np.testing.assert_array_equal(to_host(Z), want)


@gpu_only
@pytest.mark.parametrize("rows,cols", [((0, 64), (0, 64)), ((0, 64), None), (None, (0, 70)),
                                       ((0, 3), (0, 3))])
def test_gpu_no_launch_when_the_bands_cover_z(monkeypatch, rows, cols):
    """Bands over every row or every column of Z leave nothing to relax: no tuned-kernel
    launch at all. (A launch of no blocks ran on the H200 and its block order divided by
    zero tiles: reads and writes outside Z, compute-sanitizer's finding behind session 15's
    intermittent illegal address in Floyd–Warshall's phase 3, whose one round skips all.)"""
    grids = []
    real = _gpu_dense._minplus_kernel

    def spy(name):
        k = real(name)
        return lambda grid, block, args, **kw: (grids.append(grid), k(grid, block, args, **kw))
    monkeypatch.setattr(_gpu_dense, "_minplus_kernel", spy)
    m = rows[1] if rows else 3
    n = cols[1] if cols else 3
    rng = np.random.default_rng(m * n)
    for semiring, dt, bound in ((sr.min_plus, np.float64, None), (sr.min_plus, np.float32, None),
                                (min_plus_sat, np.int32, 1 << 20)):
        X, Y = rng.integers(0, 9, (m, 5)).astype(dt), rng.integers(0, 9, (5, n)).astype(dt)
        Z0 = rng.integers(0, 30, (m, n)).astype(dt)
        Z = _to("gpu", Z0.copy())
        _dense.gemm_accumulate(Z, _to("gpu", X), _to("gpu", Y), semiring, dt, bound=bound,
                               skip_rows=rows, skip_cols=cols)
        np.testing.assert_array_equal(to_host(Z), Z0)
    Z0 = _u16_values(rng, (m, n))
    Z = _to("gpu", Z0.copy())
    _dense.gemm_u16_accumulate(Z, _to("gpu", _u16_values(rng, (m, 4))),
                               _to("gpu", _u16_values(rng, (4, n))), skip_rows=rows,
                               skip_cols=cols)
    np.testing.assert_array_equal(to_host(Z), Z0)
    assert grids == [], grids


def test_u16_and_band_errors(device):
    X = _to(device, np.zeros((3, 2), np.uint16))
    Y = _to(device, np.zeros((2, 4), np.uint16))
    with pytest.raises(sr.DomainMismatch, match=r"gemm_u16: X.dtype must be uint16, got int32"):
        _dense.gemm_u16(_to(device, np.zeros((3, 2), np.int32)), Y)
    with pytest.raises(sr.DimensionMismatch, match=r"gemm_u16: X.shape\[1\] \(=2\) must equal"):
        _dense.gemm_u16(X, _to(device, np.zeros((3, 4), np.uint16)))
    Z = _to(device, np.zeros((3, 4), np.uint16))
    with pytest.raises(sr.InvalidIndex, match=r"gemm_u16_accumulate: skip_rows must satisfy "
                                              r"0 <= start <= stop <= 3, got \(2, 5\)"):
        _dense.gemm_u16_accumulate(Z, X, Y, skip_rows=(2, 5))
    with pytest.raises(sr.InvalidValue, match="skip_cols must be None or a pair"):
        _dense.gemm_u16_accumulate(Z, X, Y, skip_cols=3)
    with pytest.raises(sr.InvalidValue, match="must not share memory"):
        _dense.gemm_u16_accumulate(X[:, :1], X[:, 1:], _to(device, np.zeros((1, 1), np.uint16)))
    with pytest.raises(sr.InvalidIndex, match="gemm_accumulate: skip_cols"):
        _dense.gemm_accumulate(_to(device, np.zeros((3, 4), np.float32)),
                               _to(device, np.zeros((3, 2), np.float32)),
                               _to(device, np.zeros((2, 4), np.float32)), sr.min_plus,
                               np.float32, skip_cols=(-1, 2))
