"""The SpGEMM bench case's chunked cuSPARSE peer on the CPU: row blocks against a brute-force
count, the peer's setup/run/fetch with SciPy standing in for cupyx (and a planted
out-of-resources error), the fetch of blocks against the whole product, the summary's
choice of peer. The GPU runs it for real (tests/test_bench.py's GPU runner test, and
``python -m bench --algorithms spgemm``)."""

from __future__ import annotations

import types

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import cases as C
from bench import generators as gen
from bench.runner import ImplResult
from bench.timing import Timing

HAS_GPU = gen.cupy_if_available() is not None


def _brute_products(A: sp.csr_matrix, B: sp.csr_matrix) -> np.ndarray:
    """Products of each row of A·B, one row at a time (the definition)."""
    out = np.zeros(A.shape[0], dtype=np.int64)
    for i in range(A.shape[0]):
        for k in A.indices[A.indptr[i]:A.indptr[i + 1]]:
            out[i] += B.indptr[k + 1] - B.indptr[k]
    return out


@st.composite
def _csr_pair(draw):
    m = draw(st.integers(0, 12))
    k = draw(st.integers(0, 12))
    n = draw(st.integers(0, 12))
    dens = draw(st.sampled_from([0.0, 0.1, 0.5, 1.0]))
    seed = draw(st.integers(0, 2**16))
    A = sp.random(m, k, density=dens, format="csr", random_state=seed)
    B = sp.random(k, n, density=dens, format="csr", random_state=seed + 1)
    return A, B


@settings(max_examples=60, deadline=None)
@given(_csr_pair())
def test_row_products_brute_force(pair):
    A, B = pair
    np.testing.assert_array_equal(C.row_products(A.indptr, A.indices, B.indptr),
                                  _brute_products(A, B))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=40), st.integers(0, 30), st.integers(1, 80),
       st.integers(1, 80))
def test_row_blocks_brute_force(products, ncols, max_p, max_o):
    p = np.asarray(products, dtype=np.int64)
    b = C.spgemm_row_blocks(p, ncols, max_p, max_o)
    out = np.minimum(p, ncols)
    assert b[0] == 0 and b[-1] == p.size and b.dtype == np.int64
    if p.size == 0:
        assert b.tolist() == [0, 0]
        return
    assert np.all(np.diff(b) >= 1)  # every row in exactly one non-empty block
    for r0, r1 in zip(b[:-1].tolist(), b[1:].tolist()):
        ps, os_ = int(p[r0:r1].sum()), int(out[r0:r1].sum())
        if r1 - r0 > 1:  # a block of several rows is within both limits
            assert ps <= max_p and os_ <= max_o
        # greedy: the block could not take its next row
        if r1 < p.size:
            assert ps + p[r1] > max_p or os_ + out[r1] > max_o


def test_row_blocks_rejects_bad_limits():
    with pytest.raises(ValueError, match="max_products"):
        C.spgemm_row_blocks(np.array([1]), 3, 0)


def test_row_blocks_large_products_no_overflow():
    # kron-18-like: 9.5e9 products in total, single rows above the limit
    p = np.full(1000, 10**7, dtype=np.int64)
    p[5] = 3 * 2**28
    b = C.spgemm_row_blocks(p, 262144, 2**28)
    sums = np.add.reduceat(p, b[:-1])
    assert b[-1] == 1000 and np.all((sums <= 2**28) | (np.diff(b) == 1))


class _OutOfResources(Exception):
    pass


_OutOfResources.__name__ = "CuSparseError"  # matched by name, as cupy_backends' class


class _FakeGPU:
    """SciPy csr standing in for cupyx's: products of more than `fail_above` products raise
    cuSPARSE's out-of-resources error."""

    def __init__(self, S, fail_above=None, products=None):
        self.S = S
        self.fail_above = fail_above
        self.shape = S.shape
        self.products = (C.row_products(S.indptr, S.indices, S.indptr) if products is None
                         else products)

    def __getitem__(self, sl):
        return _FakeGPU(self.S[sl], self.fail_above, self.products[sl])

    def __matmul__(self, other):
        if self.fail_above is not None and self.products.sum() > self.fail_above:
            raise _OutOfResources("CUSPARSE_STATUS_INSUFFICIENT_RESOURCES")
        return self.S @ other.S


def _ctx(S, fail_above=None, seed=0):
    spec = gen.parse_graph_spec("kron-8")
    graph = C.GraphData(spec, S)
    graph.device_csr = _FakeGPU(S, fail_above)
    ctx = C.CaseContext(C.SPGEMM, graph, {}, seed, {})
    C.SPGEMM.prepare(ctx)
    return ctx


@pytest.mark.parametrize("fail_above", [None, 6000])
def test_chunked_peer_matches_reference(monkeypatch, fail_above):
    S = gen.make_graph(gen.parse_graph_spec("kron-8"), xp=np, cache_dir=None)
    ctx = _ctx(S, fail_above)
    monkeypatch.setattr(C.spgemm, "SPGEMM_BLOCK_PRODUCTS", 20000)
    monkeypatch.setattr(C.spgemm, "SPGEMM_BLOCK_PRODUCTS_FLOOR", 1000)
    run = C._spgemm_cusparse_chunked(ctx)
    nblocks = ctx.case_metrics["cusparse_blocks"]
    limit = ctx.case_metrics["cusparse_block_products"]
    assert limit == (20000 if fail_above is None else 5000)  # halved twice past 6000
    assert nblocks > 3
    parts, bounds, rows = run()
    assert len(parts) == nblocks == bounds.size - 1
    got = C._spgemm_fetch_blocks((parts, bounds, rows))
    ref = C.SPGEMM.references["plus_times"].compute(ctx)
    ok, msg = C.SPGEMM.references["plus_times"].compare(got, ref)
    assert ok, msg
    # the same encoding as the whole product's fetch
    whole = C._spgemm_fetch(True)((S @ S, rows))
    np.testing.assert_array_equal(got, whole)


def test_chunked_peer_unavailable_below_floor(monkeypatch):
    S = gen.make_graph(gen.parse_graph_spec("kron-8"), xp=np, cache_dir=None)
    ctx = _ctx(S, fail_above=10)
    monkeypatch.setattr(C.spgemm, "SPGEMM_BLOCK_PRODUCTS", 20000)
    monkeypatch.setattr(C.spgemm, "SPGEMM_BLOCK_PRODUCTS_FLOOR", 1000)
    with pytest.raises(C.Unavailable, match="INSUFFICIENT_RESOURCES"):
        C._spgemm_cusparse_chunked(ctx)


def test_chunked_fetch_sampled_rows_and_empty_blocks():
    rng = np.random.default_rng(3)
    S = sp.random(300, 300, density=0.02, format="csr", random_state=4)
    S.data[:] = rng.integers(1, 9, S.nnz)
    keep = np.ones(300)
    keep[100:160] = 0  # empty rows: blocks with no product
    S = (sp.diags(keep) @ S).tocsr()
    S.eliminate_zeros()
    p = C.row_products(S.indptr, S.indices, S.indptr)
    bounds = C.spgemm_row_blocks(p, 300, 40)
    parts = [S[r0:r1] @ S for r0, r1 in zip(bounds[:-1], bounds[1:])]
    for rows in (np.arange(300), np.sort(rng.choice(300, 17, replace=False)), np.array([120])):
        got = C._spgemm_fetch_blocks((parts, bounds, rows))
        np.testing.assert_array_equal(got, C._spgemm_fetch(True)((S @ S, rows)))


def test_plain_peer_guards():
    S = gen.make_graph(gen.parse_graph_spec("kron-8"), xp=np, cache_dir=None)
    ctx = _ctx(S, fail_above=10)
    run = C._spgemm_cusparse(ctx)
    with pytest.raises(C.Unavailable, match="chunked"):
        run()  # out of resources: reported, not an error of the run
    ctx.case_metrics["products"] = 2**31
    with pytest.raises(C.Unavailable, match="int32"):
        C._spgemm_cusparse(ctx)


def _res(name, status, ms):
    return ImplResult(name, "gpu", "plus_times", False, status,
                      timing=Timing(times_ms=[ms]))


def test_summary_picks_the_peer():
    ctx = types.SimpleNamespace()
    both = {"semiring-gpu": _res("semiring-gpu", "ok", 10.0),
            "cusparse-plus-times": _res("cusparse-plus-times", "ok", 5.0),
            "cusparse-plus-times-chunked": _res("cusparse-plus-times-chunked", "ok", 6.0)}
    s = C._spgemm_summary(ctx, both)
    assert s == {"semiring_plus_times_vs_cusparse_throughput": 0.5}
    both["cusparse-plus-times"] = _res("cusparse-plus-times", "unavailable", float("nan"))
    s = C._spgemm_summary(ctx, both)
    assert s == {"semiring_plus_times_vs_cusparse_chunked_throughput": 0.6}


def test_registered():
    names = [i.name for i in C.SPGEMM.impls]
    assert "cusparse-plus-times" in names and "cusparse-plus-times-chunked" in names
    full = C.get_suite("full", "gpu")  # the kron-18 target, against the chunked peer
    assert "kron-18" in {g for e in full.entries if e.algorithm == "spgemm" for g in e.graphs}
