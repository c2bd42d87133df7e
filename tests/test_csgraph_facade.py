"""The csgraph facade against SciPy: every function × every input kind × every keyword.

Each property draws a small graph (empty graphs, isolated vertices, self-loops, explicit zeros,
duplicate entries, disconnected parts, negative weights where the function takes them) and an
input kind, calls the facade and ``scipy.sparse.csgraph`` on the same graph, and compares: the
values exactly (host path: it is SciPy's own code after validation) or, where several answers
are right (predecessors among equal-length paths on the engine path), for validity.

Backends: the ``device`` fixture (CPU always, GPU where a device answers) and, on the CPU, the
``engine`` switch (``_validation.FORCE_ENGINE``) that runs the GPU path's code on NumPy, so the
engine path is checked on machines without a GPU too.

SciPy's own inconsistencies, excluded here (each a documented deviation or a SciPy quirk):

1. Duplicate entries: SciPy's conversion *sums* a COO's duplicates and a non-float64 CSR's
   (its cast), while a float64 CSR's are parallel edges (the *smallest* for shortest paths).
   Both facade paths follow SciPy (``tests/test_csgraph_engine_exact.py`` checks every dtype
   and format); here duplicates are drawn only in float64 CSR form.
2. ``dijkstra`` with negative weights (SciPy warns and may answer wrongly, or hangs on a
   negative cycle, an undirected negative edge included): the facade raises; never compared.
3. ``laplacian`` of a masked array (SciPy reads the data under the mask) and of a list (SciPy
   fails): the facade reads masked entries as zeros; compared against SciPy on the filled array.
4. ``shortest_path(method='auto')`` of a list (SciPy fails on ``csgraph[np.isfinite(csgraph)]``):
   compared against SciPy on the array.
6. ``floyd_warshall`` (so ``shortest_path`` when it picks 'FW'), ``construct_dist_matrix``,
   ``csgraph_to_dense`` and ``csgraph_to_masked`` refuse sparse formats other than CSR, CSC and
   LIL (the other functions take every format): the facade takes every format; compared
   against SciPy on the CSR.
7. ``yen``: SciPy 1.17.1's corrupts the heap on ordinary inputs (``free(): invalid pointer``,
   the process aborts), fails on graphs without edges and on int64 indices. The facade runs
   its own Yen loop; checked against a brute-force enumeration of the simple paths.
8. ``csgraph_from_dense`` (and ``csgraph_from_masked``) fail when no entry is masked (a mask
   of ``nomask``: e.g. ``nan_null=infinity_null=False`` and no entry equal to ``null_value``):
   the facade answers; compared against SciPy on the same masked array with a full mask.
9. A stored ``inf`` edge with ``unweighted=True``: ``floyd_warshall`` (and 'auto' when it
   picks it) reads it as no edge, the other methods as an edge of length 1. The facade's
   engine path does the same per method.
5. Out-of-range ``i_start`` (SciPy returns an empty order or reads out of bounds), ``source`` /
   ``sink``, non-int32 predecessors of ``construct_dist_matrix``: the facade raises; tested as
   errors, never compared.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg
from hypothesis import assume, given, strategies as st

import semiring as sr
from algorithms import csgraph
from algorithms.csgraph import _validation
from conftest import to_host

HOST_KINDS = ["csr_matrix", "csr_array", "coo_array", "csc_matrix", "lil_array", "noncanonical",
              "dense", "masked", "list", "matrix"]
GPU_KINDS = ["cupyx", "cupyx_noncanonical", "cupy", "matrix"]


@pytest.fixture(params=HOST_KINDS + [k for k in GPU_KINDS if k not in HOST_KINDS])
def kind(device, request):
    """The input kind: every host kind on the CPU, every GPU kind on the GPU."""
    if request.param not in (GPU_KINDS if device == "gpu" else HOST_KINDS):
        pytest.skip(f"{request.param} input is not a {device} kind")
    return request.param


@pytest.fixture(params=[False, True], ids=["scipy-path", "engine-path"])
def backend(device, request, monkeypatch):
    """(device, engine): the engine path forced on host input when engine is True."""
    if device == "gpu" and request.param:
        pytest.skip("GPU input always runs the engine path")
    monkeypatch.setattr(_validation, "FORCE_ENGINE", request.param)
    if device == "cpu":
        host_only_default_device(monkeypatch)
    return device, request.param



def host_only_default_device(monkeypatch):
    """Make the engine path's host run fail where it builds an object without naming its
    device: there the default device decides, the GPU on a machine that has one, and host
    input would answer with CuPy arrays (an H200 run: ``floyd_warshall`` of a masked array).
    On a machine without a GPU the default is the CPU and such a call would pass unseen."""
    from semiring import device as _device

    def no_default():
        raise AssertionError("host input built an object on the default device")

    monkeypatch.setattr(_device, "default_device", no_default)


# ------------------------------------------------------------------------------ graphs


@st.composite
def graphs(draw, max_n=9, negative=False, zeros=True, dups=True, inf=True):
    """(n, rows, cols, vals, dup_rows, dup_cols, dup_vals): a canonical edge list (explicit zeros
    allowed) and extra duplicate entries of existing edges (for CSR kinds)."""
    n = draw(st.integers(0, max_n))
    m = draw(st.integers(0, 3 * n)) if n else 0
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    r = rng.integers(0, max(n, 1), m)
    c = rng.integers(0, max(n, 1), m)
    if n and draw(st.booleans()):  # two disconnected parts
        cut = draw(st.integers(0, n))
        keep = (r < cut) == (c < cut)
        r, c = r[keep], c[keep]
    key = np.unique(r * max(n, 1) + c)
    r, c = key // max(n, 1), key % max(n, 1)
    lo = -3 if negative and draw(st.booleans()) else (0 if zeros else 1)
    vals = rng.integers(lo, 6, r.size).astype(np.float64)
    if inf and vals.size and draw(st.integers(0, 3)) == 0:  # a stored inf: an edge of length inf
        vals[rng.integers(0, vals.size)] = np.inf
    if dups and r.size and draw(st.booleans()):
        k = draw(st.integers(1, 3))
        pick = rng.integers(0, r.size, k)
        dr, dc = r[pick], c[pick]
        dv = vals[pick] + rng.integers(0, 4, k)  # never smaller: the min is the canonical value
    else:
        dr = dc = np.zeros(0, dtype=np.int64)
        dv = np.zeros(0)
    return n, r, c, vals, dr, dc, dv


def canonical(g):
    n, r, c, v = g[:4]
    return sp.csr_array((v, (r, c)), shape=(n, n))


def noncanonical(g):
    """A raw CSR: each row's entries reversed (unsorted) with the duplicates appended."""
    n, r, c, v, dr, dc, dv = g
    R, C, V = np.r_[r, dr], np.r_[c, dc], np.r_[v, dv]
    order = np.lexsort((-np.arange(R.size), R))  # by row, later entries first
    R, C, V = R[order], C[order], V[order]
    indptr = np.searchsorted(R, np.arange(n + 1)).astype(np.int32)
    S = sp.csr_matrix((V, C.astype(np.int32), indptr), shape=(n, n))
    S.has_canonical_format = False
    return S


def as_kind(g, kind: str, device: str):
    """(input of that kind, the host SciPy equivalent SciPy is called with)."""
    S = canonical(g)
    n = S.shape[0]
    if kind in ("dense", "masked", "list", "cupy"):
        # dense kinds: no explicit zeros (a zero is a non-edge) -- replace them by 1
        S = S.copy()
        S.data[S.data == 0] = 1.0
        D = S.toarray()
        if kind == "dense":
            D = D.copy()
            D[D == 0] = np.inf if n % 2 else 0.0  # inf is a non-edge too
            return D, D
        if kind == "list":  # [] of a 0 x 0 graph is 1-D: it stays an array
            return (D.tolist() if n else D), D
        if kind == "cupy":
            import cupy as cp
            return cp.asarray(D), D
        mask = D == 0
        data = np.where(mask, 7.0, D)  # masked entries hold junk
        M = np.ma.masked_array(data, mask=mask)
        return M, M
    if kind == "noncanonical":
        S = noncanonical(g)
        return S, S
    if kind == "cupyx_noncanonical":
        import cupyx.scipy.sparse as cps
        S = noncanonical(g)
        G = cps.csr_matrix((sr.to_device(S.data, "gpu"), sr.to_device(S.indices, "gpu"),
                            sr.to_device(S.indptr, "gpu")), shape=S.shape)
        G.has_canonical_format = False
        return G, S
    if kind == "cupyx":
        import cupyx.scipy.sparse as cps
        return cps.csr_matrix(sp.csr_matrix(S)), S
    if kind == "matrix":
        return sr.Matrix.from_scipy(sp.csr_matrix(S), device=device), S
    cls = {"csr_matrix": sp.csr_matrix, "csr_array": sp.csr_array, "coo_array": sp.coo_array,
           "csc_matrix": sp.csc_matrix, "lil_array": sp.lil_array}[kind]
    X = cls(S)
    return X, X


def scipy_input(ref):
    """What SciPy is called with: a list as an array (inconsistency 4), a sparse format other
    than CSR/CSC/LIL as CSR of the same class family (inconsistency 6)."""
    if isinstance(ref, list):
        return np.asarray(ref)
    if sp.issparse(ref) and ref.format not in ("csr", "csc", "lil"):
        return sp.csr_matrix(ref) if isinstance(ref, sp.spmatrix) else sp.csr_array(ref)
    return ref


def kinds(device):
    return st.sampled_from(GPU_KINDS if device == "gpu" else HOST_KINDS)


def snapshot(x):
    """A deep copy of an input, to check that the facade did not modify it."""
    if isinstance(x, sr.Matrix):
        return (to_host(x.indptr).copy(), to_host(x.indices).copy(),
                None if x.is_iso else to_host(x.values).copy())
    if isinstance(x, np.ma.MaskedArray):
        return x.data.copy(), np.ma.getmaskarray(x).copy()
    if isinstance(x, list):
        return [list(r) for r in x]
    if hasattr(x, "tocoo") and hasattr(x, "format"):
        C = x.tocoo()
        return (to_host(C.row).copy(), to_host(C.col).copy(), to_host(C.data).copy(), x.format)
    return to_host(x).copy()


def same(a, b):
    if isinstance(a, tuple):
        return all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, list):
        return a == b
    if isinstance(a, (str, bool, type(None))) or isinstance(b, (str, bool, type(None))):
        return a == b
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def check_device(x, device):
    if device == "gpu":
        assert sr.is_gpu_array(x), type(x)
    else:
        assert isinstance(x, np.ndarray), type(x)


def weights(ref, unweighted=False):
    """w*(u, v): the smallest weight of an edge u → v of SciPy's input (inf where none; 1.0 for
    every edge, a stored inf included, when ``unweighted``)."""
    if isinstance(ref, np.ma.MaskedArray):
        S = scg.csgraph_from_masked(np.ma.masked_array(ref.data, mask=np.ma.getmaskarray(ref)))
    elif isinstance(ref, np.ndarray):
        S = sp.csr_array(_validation.as_scipy_csr(ref, "test"))
    else:
        S = sp.csr_array(ref)
    if unweighted:
        C = S.tocoo()
        W = np.full(S.shape, np.inf)
        W[C.row, C.col] = 1.0
        return W
    return scg.csgraph_to_dense(S, null_value=np.inf)


def check_predecessors(dist, pred, sources, W, directed, unweighted):
    """A valid shortest-path forest: pred = -9999 exactly at the sources and unreached (or
    infinitely far) vertices; else the edge pred → v is tight and the chain reaches the source."""
    if not directed:
        W = np.minimum(W, W.T)
    n = W.shape[0]
    if n == 0:
        return
    dist, pred = dist.reshape(-1, n), pred.reshape(-1, n)
    for row, s in enumerate(sources):
        d, p = dist[row], pred[row]
        none = p == -9999
        expect_none = ~np.isfinite(d)
        expect_none[s] = True
        np.testing.assert_array_equal(none, expect_none)
        for v in np.flatnonzero(~none):
            u = p[v]
            assert np.isclose(d[u] + W[u, v], d[v]), (row, u, v)
            seen, x = 0, v
            while x != s and seen <= n:
                x, seen = p[x], seen + 1
            assert x == s


def assert_dist(got, exp):
    got = to_host(got)
    assert got.dtype == np.float64
    assert got.shape == exp.shape
    np.testing.assert_allclose(got, exp, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------------------ shortest paths


def _reference(fn, *args, **kw):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args, **kw), None
    except scg.NegativeCycleError as e:
        return None, e


def _has_negative(g):
    return bool((g[3] < 0).any()) or bool((g[6] < 0).any())


@given(data=st.data(), g=graphs(negative=True), directed=st.booleans(), preds=st.booleans(),
       unweighted=st.booleans(), method=st.sampled_from(["auto", "D", "BF", "J", "FW"]),
       ind=st.sampled_from(["none", "scalar", "list", "empty", "negative", "2d"]))
def test_shortest_path_matches_scipy(backend, kind, data, g, directed, preds, unweighted, method,
                                     ind):
    device, engine = backend
    x, ref = as_kind(g, kind, device)
    n = g[0]
    if ind != "none" and n == 0:
        ind = "empty"
    indices = {"none": None, "scalar": n - 1 if n else None, "list": [0, n - 1] if n else [],
               "empty": [], "negative": [-1] if n else [], "2d": [[0], [n - 1]] if n else None}[ind]
    if method == "FW":
        indices = None
    negative = _has_negative(g) and not unweighted
    ref_in = scipy_input(ref)
    before = snapshot(x)
    kw = dict(method=method, directed=directed, return_predecessors=preds, unweighted=unweighted,
              indices=indices)
    if method == "D" and negative and _negative_in(x, ref_in):
        err = csgraph.NegativeCycleError if not directed else sr.InvalidValue
        with pytest.raises(err):
            csgraph.shortest_path(x, **kw)
        assert same(snapshot(x), before)
        return
    exp, exc = _reference(scg.shortest_path, ref_in, **kw)
    if exc is not None:
        with pytest.raises(csgraph.NegativeCycleError) as info:
            csgraph.shortest_path(x, **kw)
        assert isinstance(info.value, sr.NegativeCycleError)
        assert str(info.value).count("shortest_path:") == 1
        return
    got = csgraph.shortest_path(x, **kw)
    assert same(snapshot(x), before)
    if preds:
        (d, p), (ed, ep) = got, exp
        check_device(d, device)
        assert_dist(d, ed)
        p = to_host(p)
        assert p.dtype == np.int32 and p.shape == ep.shape
        if not engine and device == "cpu":
            np.testing.assert_array_equal(p, ep)
        srcs = (np.arange(n) if indices is None else
                np.atleast_1d(np.asarray(indices, dtype=np.int64)).ravel() % max(n, 1))
        check_predecessors(to_host(d), p, srcs, weights(ref_in, unweighted), directed,
                           unweighted)
        if method in ("D", "J") and not negative and (engine or device == "gpu") and n:
            # SciPy's Dijkstra keeps the predecessor that reached a vertex first, one of least
            # distance among those on a shortest path; so does the engine (_settled_first)
            dh, ph, eh = (np.reshape(a, (-1, n)) for a in (to_host(d), p, ep))
            on = eh >= 0
            assert (ph[on] >= 0).all()
            np.testing.assert_array_equal(np.take_along_axis(dh, np.where(on, ph, 0), 1)[on],
                                          np.take_along_axis(dh, np.where(on, eh, 0), 1)[on])
    else:
        check_device(got, device)
        assert_dist(got, exp)


def _negative_in(x, ref):
    """Whether SciPy's graph has a negative edge (what the facade's dijkstra refuses)."""
    W = weights(ref)
    return bool((W < 0).any())


@given(data=st.data(), g=graphs(), directed=st.booleans(), preds=st.booleans(),
       limit=st.sampled_from([np.inf, 0.0, 2.0, 5.5]), min_only=st.booleans(),
       ind=st.sampled_from(["none", "scalar", "list", "empty"]))
def test_dijkstra_limit_and_min_only_match_scipy(backend, kind, data, g, directed, preds, limit,
                                                 min_only, ind):
    device, engine = backend
    x, ref = as_kind(g, kind, device)
    n = g[0]
    indices = {"none": None, "scalar": 0 if n else None, "list": list(range(0, n, 2)),
               "empty": []}[ind]
    ref_in = scipy_input(ref)
    kw = dict(directed=directed, indices=indices, return_predecessors=preds, limit=limit,
              min_only=min_only)
    exp = scg.dijkstra(ref_in, **kw)
    got = csgraph.dijkstra(x, **kw)
    if not preds:
        check_device(got, device)
        assert_dist(got, exp)
        return
    assert len(got) == len(exp)
    assert_dist(got[0], exp[0])
    for a, b in zip(got[1:], exp[1:]):
        a = to_host(a)
        assert a.dtype == np.int32 and a.shape == b.shape
        if not engine and device == "cpu":
            np.testing.assert_array_equal(a, b)
    d = to_host(got[0])
    if min_only:
        srcs_of = to_host(got[2])
        np.testing.assert_array_equal(srcs_of == -9999, ~np.isfinite(d))
        srcs = set(np.atleast_1d(np.asarray(indices if indices is not None else np.arange(n),
                                            dtype=np.int64)).tolist())
        assert set(srcs_of[srcs_of >= 0].tolist()) <= srcs
    else:
        srcs = np.arange(n) if indices is None else np.atleast_1d(np.asarray(indices,
                                                                              dtype=np.int64))
        check_predecessors(d, to_host(got[1]), srcs, weights(ref_in), directed, False)


@pytest.mark.parametrize("fn", ["dijkstra", "bellman_ford", "johnson"])
def test_indices_as_scipy_reads_them(backend, fn):
    G = sp.csr_array(np.array([[0, 1.0, 0], [0, 0, 2.0], [0, 0, 0]]))
    f = getattr(csgraph, fn)
    assert f(G, indices=[]).shape == (0, 3)
    assert f(G, indices=np.array([], dtype=np.int64), return_predecessors=True)[1].shape == (0, 3)
    np.testing.assert_array_equal(f(G, indices=-1), getattr(scg, fn)(G, indices=-1))
    assert f(G, indices=[[0], [1]]).shape == (2, 1, 3)
    assert f(G, indices=np.int32(1)).shape == (3,)
    with pytest.raises(sr.InvalidIndex, match=rf"{fn}: indices must lie in \[-3, 3\), got 3"):
        f(G, indices=[0, 3])
    with pytest.raises(sr.DomainMismatch, match="indices must be integers"):
        f(G, indices=[0.5])


# ------------------------------------------------------------------------------ the issue's cases


def test_the_issues_wrong_answers(backend):
    device, _ = backend
    M = np.ma.masked_array([[0, 1.0], [0, 0]], mask=[[0, 1], [0, 0]])
    np.testing.assert_array_equal(csgraph.dijkstra(M, indices=0), [0, np.inf])
    S = sp.csr_matrix(([5.0, 1.0], [1, 1], [0, 2, 2]), shape=(2, 2))
    np.testing.assert_array_equal(csgraph.dijkstra(S, indices=0), [0, 1])
    Si = sp.csr_matrix(([np.inf], [1], [0, 1, 1]), shape=(2, 2))
    d, p = csgraph.dijkstra(Si, indices=0, return_predecessors=True)
    np.testing.assert_array_equal(p, [-9999, -9999])
    assert type(csgraph.breadth_first_tree(sp.csr_array(S), 0)).__name__ == "csr_array"
    assert type(csgraph.breadth_first_tree(S, 0)).__name__ == "csr_matrix"
    assert type(csgraph.breadth_first_tree(M, 0)).__name__ == "csr_array"
    assert type(csgraph.breadth_first_tree(M.data, 0)).__name__ == "csr_array"
    D = np.zeros((4, 4))
    D[0, 1], D[2, 3], D[3, 2] = 1, -2, 1  # a negative cycle not reachable from 0
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.shortest_path(D, indices=0)  # 'auto' runs Johnson: a cycle anywhere
    assert np.isfinite(csgraph.shortest_path(D, method="BF", indices=0)[1])
    for dt in (np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.int64, np.float16,
               np.float32, np.bool_):
        G = np.array([[0, 1], [0, 0]], dtype=dt)
        np.testing.assert_array_equal(csgraph.dijkstra(G, indices=0), [0, 1])
        if dt != np.float16:  # scipy.sparse has no float16
            np.testing.assert_array_equal(csgraph.dijkstra(sp.csr_array(G), indices=0), [0, 1])
    import algorithms
    assert issubclass(csgraph.NegativeCycleError, algorithms.NegativeCycleError)
    with pytest.raises(algorithms.NegativeCycleError) as info:
        csgraph.bellman_ford(np.array([[0, 1.0], [-2.0, 0]]), indices=0)
    assert str(info.value).count("bellman_ford:") == 1
    with pytest.raises(csgraph.NegativeCycleError) as info:
        csgraph.johnson(np.array([[0, 1.0], [-2.0, 0]]))
    assert info.value.vertices is None or all(int(v) < 2 for v in info.value.vertices)
    assert "2" not in str(info.value).replace("-2", "")


def test_deviations():
    with pytest.raises(sr.InvalidValue, match="dijkstra: Dijkstra's algorithm needs non-negative"):
        csgraph.dijkstra(np.array([[0, 2.0], [-1.0, 0]]), indices=0)
    with pytest.raises(csgraph.NegativeCycleError, match="undirected edge"):
        csgraph.dijkstra(np.array([[0, 2.0], [-1.0, 0]]), directed=False)  # SciPy hangs
    with pytest.raises(sr.InvalidIndex, match=r"breadth_first_order: i_start must lie in \[0, 2\)"):
        csgraph.breadth_first_order(np.ones((2, 2)), 2)
    with pytest.raises(sr.InvalidIndex, match="depth_first_tree: i_start"):
        csgraph.depth_first_tree(np.ones((2, 2)), -1)
    with pytest.raises(sr.DomainMismatch, match="dijkstra: csgraph must have a real dtype"):
        csgraph.dijkstra(np.array([[0, 1j], [0, 0]]))
    with pytest.raises(sr.DimensionMismatch, match=r"dijkstra: csgraph must be square"):
        csgraph.dijkstra(np.ones((2, 3)))
    with pytest.raises(sr.InvalidIndex, match="yen: sink"):
        csgraph.yen(np.ones((2, 2)), 0, 5, 1)
    with pytest.raises(sr.InvalidValue, match="cycle"):
        csgraph.construct_dist_matrix(np.ones((2, 2)), np.array([[-9999, 1], [0, -9999]]))


def test_results_larger_than_memory_raise_out_of_memory(monkeypatch):
    monkeypatch.setattr(_validation, "_free_bytes", lambda device: 1000)
    monkeypatch.setattr(_validation, "CHECK_BYTES_FROM", 0)  # the query runs for any size
    G = sp.csr_array(np.eye(100))
    with pytest.raises(sr.OutOfMemory, match=r"dijkstra: the results need 120000 bytes") as info:
        csgraph.dijkstra(G)
    assert info.value.needed == 120000 and info.value.free == 1000
    monkeypatch.setattr(_validation, "FORCE_ENGINE", True)
    with pytest.raises(sr.OutOfMemory, match="floyd_warshall"):
        csgraph.floyd_warshall(G)


def test_no_stale_answer_after_the_caller_changes_its_arrays(backend):
    S = sp.csr_matrix(np.array([[0, 5.0], [0, 0]]))
    assert csgraph.dijkstra(S, indices=0)[1] == 5
    S.data[0] = 2.0
    assert csgraph.dijkstra(S, indices=0)[1] == 2
    D = np.array([[0, 5.0], [0, 0]])
    assert csgraph.dijkstra(D, indices=0)[1] == 5
    D[0, 1] = 3.0
    assert csgraph.dijkstra(D, indices=0)[1] == 3
    A = _validation.as_graph(S, "t")
    S.data[0] = 9.0
    assert float(A.values[0]) == 2.0  # the converted graph owns its values


# ------------------------------------------------------------------------------ traversals


@given(data=st.data(), g=graphs(max_n=12), directed=st.booleans(), preds=st.booleans(),
       fn=st.sampled_from(["breadth_first_order", "depth_first_order"]))
def test_traversal_orders_identical_to_scipy(backend, kind, data, g, directed, preds, fn):
    device, _ = backend
    assume(g[0] > 0)
    x, ref = as_kind(g, kind, device)
    start = data.draw(st.integers(0, g[0] - 1))
    before = snapshot(x)
    got = getattr(csgraph, fn)(x, start, directed=directed, return_predecessors=preds)
    exp = getattr(scg, fn)(scipy_input(ref), start,
                           directed=directed, return_predecessors=preds)
    assert same(snapshot(x), before)
    got, exp = (got, exp) if preds else ((got,), (exp,))
    for a, b in zip(got, exp):
        check_device(a, device)
        a = to_host(a)
        assert a.dtype == b.dtype == np.int32
        np.testing.assert_array_equal(a, b)


@given(data=st.data(), g=graphs(max_n=12), directed=st.booleans(),
       fn=st.sampled_from(["breadth_first_tree", "depth_first_tree"]))
def test_traversal_trees_identical_to_scipy(backend, kind, data, g, directed, fn):
    device, _ = backend
    assume(g[0] > 0)
    x, ref = as_kind(g, kind, device)
    start = data.draw(st.integers(0, g[0] - 1))
    got = getattr(csgraph, fn)(x, start, directed=directed)
    exp = getattr(scg, fn)(scipy_input(ref), start,
                           directed=directed)
    expected_kind = {"gpu": "csr_matrix"}.get(device, type(exp).__name__)
    if device == "cpu" and kind == "matrix":
        expected_kind = "csr_array"
    assert type(got).__name__ == expected_kind
    h = got.get() if device == "gpu" else got
    np.testing.assert_array_equal(h.toarray(), exp.toarray())
    assert sorted(zip(*sp.coo_array(h).coords)) == sorted(zip(*sp.coo_array(exp).coords))


def test_long_path_is_linear_on_the_host():
    n = 100_000
    P = sp.csr_array((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
    t = time.perf_counter()
    order = csgraph.breadth_first_order(P, 0, return_predecessors=False)
    elapsed = time.perf_counter() - t
    np.testing.assert_array_equal(order, np.arange(n))
    assert elapsed < 1.0, elapsed  # SciPy: ~1 ms; the old per-level facade: 46 s
    d = csgraph.dijkstra(P, indices=0)
    assert d[-1] == n - 1


@pytest.mark.parametrize("thin", [False, True], ids=["levels", "thin-to-host"])
def test_long_path_engine(backend, thin, monkeypatch):
    """A path on the engine path: level by level, or (``thin``) handed to the host BFS after
    a few thin levels, as the GPU does after THIN_LEVELS (the same answer either way)."""
    from algorithms.csgraph import _thin, _traversal

    monkeypatch.setattr(_traversal, "THIN_ON_CPU", thin)
    monkeypatch.setattr(_thin, "THIN_ON_CPU", thin)
    monkeypatch.setattr(_traversal, "THIN_LEVELS", 4 if thin else _traversal.THIN_LEVELS)
    n = 300
    P = sp.csr_array((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
    x = sr.Matrix.from_scipy(sp.csr_matrix(P), device=backend[0])
    order, pred = csgraph.breadth_first_order(x, 0)
    check_device(order, backend[0])
    np.testing.assert_array_equal(to_host(order), np.arange(n))
    np.testing.assert_array_equal(to_host(pred), np.r_[-9999, np.arange(n - 1)])
    T = csgraph.breadth_first_tree(x, 0, directed=False)
    T = T.get() if backend[0] == "gpu" else T
    np.testing.assert_array_equal(T.toarray(), scg.breadth_first_tree(P, 0, directed=False)
                                  .toarray())
    np.testing.assert_array_equal(to_host(csgraph.dijkstra(x, indices=[0, 5]))[1, 5:],
                                  np.arange(n - 5))


# ------------------------------------------------------------------------------ path tools


@given(data=st.data(), g=graphs(), directed=st.booleans())
def test_reconstruct_path_and_dist_matrix_match_scipy(backend, kind, data, g, directed):
    device, _ = backend
    assume(g[0] > 0)
    x, ref = as_kind(g, kind, device)
    ref_in = scipy_input(ref)
    _, P = scg.shortest_path(ref_in, directed=directed, return_predecessors=True)
    i = data.draw(st.integers(0, g[0] - 1))
    got = csgraph.reconstruct_path(x, sr.to_device(P[i], device), directed=directed)
    exp = scg.reconstruct_path(ref_in, P[i], directed=directed)
    h = got.get() if device == "gpu" else got
    if device == "cpu":
        want = "csr_array" if kind == "matrix" else type(exp).__name__
        assert type(got).__name__ == want
    np.testing.assert_array_equal(h.toarray(), exp.toarray())
    D = csgraph.construct_dist_matrix(x, sr.to_device(P, device), directed=directed)
    check_device(D, device)
    np.testing.assert_array_equal(to_host(D), scg.construct_dist_matrix(ref_in, P,
                                                                        directed=directed))
    D2 = csgraph.construct_dist_matrix(x, P.astype(np.int64), directed=directed, null_value=-1)
    np.testing.assert_array_equal(to_host(D2), scg.construct_dist_matrix(
        ref_in, P, directed=directed, null_value=-1))


@given(data=st.data(), g=graphs(zeros=False, inf=False), directed=st.booleans(),
       K=st.integers(0, 4),
       preds=st.booleans(), unweighted=st.booleans())
def test_yen_matches_scipy(backend, kind, data, g, directed, K, preds, unweighted):
    device, _ = backend
    assume(g[0] > 0)
    x, ref = as_kind(g, kind, device)
    ref_in = scipy_input(ref)
    s, t = data.draw(st.integers(0, g[0] - 1)), data.draw(st.integers(0, g[0] - 1))
    kw = dict(directed=directed, return_predecessors=preds, unweighted=unweighted)
    got = csgraph.yen(x, s, t, K, **kw)
    # SciPy's yen corrupts the heap (inconsistency 7): the reference is a brute-force
    # enumeration of the simple paths
    W = weights(ref_in, unweighted)
    if not directed:
        W = np.minimum(W, W.T)
    lengths = sorted(_simple_paths(W, s, t))
    d = to_host(got[0] if preds else got)
    assert d.dtype == np.float64
    np.testing.assert_allclose(d, lengths[:K])
    if preds:
        P = to_host(got[1])
        assert P.dtype == np.int32 and P.shape == (len(d), g[0])
        walks = set()
        for row, length in zip(P, d):  # each row a distinct simple s -> t path of that length
            path, v = [t], t
            while v != s:
                v = int(row[v])
                assert v >= 0 and v not in path
                path.append(v)
            assert int((row != -9999).sum()) == len(path) - 1
            assert np.isclose(sum(W[path[j + 1], path[j]] for j in range(len(path) - 1)), length)
            walks.add(tuple(path))
        assert len(walks) == len(d)


def _simple_paths(W, s, t):
    """The lengths of every simple s -> t path (DFS; the graphs are tiny)."""
    if s == t:
        return [0.0]
    out, n = [], W.shape[0]

    def walk(u, seen, length):
        for v in range(n):
            if np.isfinite(W[u, v]) and v not in seen and u != v:
                if v == t:
                    out.append(length + W[u, v])
                else:
                    walk(v, seen | {v}, length + W[u, v])

    walk(s, {s}, 0.0)
    return out


@given(data=st.data(), g=graphs(negative=True, inf=False), normed=st.booleans(), diag=st.booleans(),
       out_degree=st.booleans(), symmetrized=st.booleans(),
       dtype=st.sampled_from([None, np.float32]))
def test_laplacian_matches_scipy(backend, kind, data, g, normed, diag, out_degree, symmetrized,
                                 dtype):
    device, _ = backend
    assume(not (normed and _has_negative(g)))  # negative degrees: NaN wherever SciPy puts them
    if kind == "noncanonical":
        pytest.skip("laplacian sums duplicates as toarray does: covered by the CSR kinds")
    x, ref = as_kind(g, kind, device)
    if isinstance(ref, np.ma.MaskedArray):
        ref = np.ma.filled(ref, 0)  # deviation 3: masked entries are zeros
    ref_in = scipy_input(ref)
    if isinstance(ref_in, np.ndarray):
        ref_in = np.where(np.isfinite(ref_in), ref_in, 0.0) if kind != "dense" else ref_in
    assume(not (isinstance(ref_in, np.ndarray) and not np.isfinite(ref_in).all()))
    if device == "cpu" and kind == "matrix":
        ref_in = sp.csr_array(ref_in)
    before = snapshot(x)
    kw = dict(normed=normed, return_diag=diag, use_out_degree=out_degree,
              symmetrized=symmetrized, dtype=dtype)
    got = csgraph.laplacian(x, **kw)
    exp = scg.laplacian(ref_in.copy(), **kw)
    assert same(snapshot(x), before)
    got, exp = (got, exp) if diag else ((got,), (exp,))
    for a, b in zip(got, exp):
        a_h = a.get() if device == "gpu" else a
        if sp.issparse(b):
            assert sp.issparse(a_h) or hasattr(a_h, "toarray")
            if device == "cpu":
                assert type(a_h).__name__ == type(b).__name__
            a_h, b = a_h.toarray(), b.toarray()
        assert a_h.dtype == b.dtype
        np.testing.assert_allclose(a_h, b, rtol=1e-6, atol=1e-9)


def test_laplacian_forms(backend):
    G = np.array([[0, 1, 2.0], [1, 0, 0], [2, 0, 0]])
    v = np.array([[1.0], [2.0], [3.0]])  # SciPy's operators take 2-D blocks
    for form in ("function", "lo"):
        f = csgraph.laplacian(sp.csr_array(G), form=form)
        g = scg.laplacian(sp.csr_array(G), form=form)
        apply = (lambda op, x: op(x)) if form == "function" else (lambda op, x: op @ x)
        np.testing.assert_allclose(apply(f, v), apply(g, v))
    with pytest.raises(sr.InvalidValue, match="laplacian: form must be"):
        csgraph.laplacian(G, form="nope")


@given(g=graphs(), null=st.sampled_from([0, -1.0, np.nan]), nan_null=st.booleans(),
       inf_null=st.booleans())
def test_converters_match_scipy(device, g, null, nan_null, inf_null):
    S = canonical(g)
    D = S.toarray()
    if D.size:
        D.flat[:: max(1, D.size // 3)] = np.inf
        D.flat[1:: max(1, D.size // 2)] = np.nan
    kw = dict(null_value=null, nan_null=nan_null, infinity_null=inf_null)
    x = sr.to_device(D, device)
    got = csgraph.csgraph_from_dense(x, **kw)
    try:
        exp = scg.csgraph_from_dense(D, **kw)
    except np.exceptions.AxisError:  # inconsistency 8: SciPy fails where nothing is a non-edge
        E0 = scg.csgraph_masked_from_dense(D, **kw)
        exp = scg.csgraph_from_masked(np.ma.masked_array(E0.data, mask=np.ma.getmaskarray(E0)))
    h = got.get() if device == "gpu" else got
    assert h.nnz == exp.nnz
    np.testing.assert_array_equal(h.toarray(), exp.toarray())
    M = csgraph.csgraph_masked_from_dense(x, **kw)
    E = scg.csgraph_masked_from_dense(D, **kw)
    np.testing.assert_array_equal(np.ma.getmaskarray(M), np.ma.getmaskarray(E))
    np.testing.assert_array_equal(M.filled(-7), E.filled(-7))
    fm = csgraph.csgraph_from_masked(E)
    E_full = np.ma.masked_array(E.data, mask=np.ma.getmaskarray(E))  # SciPy fails on nomask
    np.testing.assert_array_equal(fm.toarray(), scg.csgraph_from_masked(E_full).toarray())
    assert type(fm).__name__ == "csr_array"
    N = noncanonical(g)
    X = N if device == "cpu" else sr.Matrix.from_scipy(S, device="gpu")
    for nv in (0, np.inf, -1):
        np.testing.assert_array_equal(to_host(csgraph.csgraph_to_dense(X, null_value=nv)),
                                      scg.csgraph_to_dense(N, null_value=nv))
    got_m = csgraph.csgraph_to_masked(X)
    exp_m = scg.csgraph_to_masked(N)
    np.testing.assert_array_equal(np.ma.getmaskarray(got_m), np.ma.getmaskarray(exp_m))
    np.testing.assert_array_equal(got_m.filled(-7), exp_m.filled(-7))


def test_every_scipy_name_is_here_with_scipy_signature():
    import inspect

    graphalg = {"connected_components", "minimum_spanning_tree", "maximum_flow",
                "maximum_bipartite_matching", "min_weight_full_bipartite_matching",
                "reverse_cuthill_mckee", "structural_rank"}
    for name in scg.__all__:
        if name in graphalg and not hasattr(csgraph, name):
            continue  # the graphalg branch's names, added at merge
        assert hasattr(csgraph, name), name
        if name == "NegativeCycleError":
            assert issubclass(csgraph.NegativeCycleError, scg.NegativeCycleError)
            continue
        try:
            want = inspect.signature(getattr(scg, name))
        except (TypeError, ValueError):  # a Cython function without a signature
            continue
        got = inspect.signature(getattr(csgraph, name))
        assert list(got.parameters) == list(want.parameters), name
        for p in want.parameters.values():
            q = got.parameters[p.name]
            assert q.kind == p.kind, (name, p.name)
            if p.default is not inspect.Parameter.empty:
                assert same(q.default, p.default), (name, p.name)


@pytest.mark.parametrize("indices", [[0, 0], [1, 0], [0, 1, 1]])
def test_johnson_repeated_or_reordered_indices_are_rows_of_their_own(device, monkeypatch,
                                                                     indices):
    # n sources that are not 0..n-1 in order must not be read as "all pairs" (a GPU run of
    # tests/test_sssp.py found johnson(indices=[0, 0]) answering rows for sources 0 and 1)
    monkeypatch.setattr(_validation, "FORCE_ENGINE", True)
    for w in (1.0, -1.0):  # without and with negative weights (two code paths)
        S = sp.csr_matrix(np.array([[0, 2.0, 0], [1.0, 0, w], [0, 3.0, 0]]))
        for nodes in (indices[:2], indices):
            S2 = S[:len(nodes), :len(nodes)] if len(nodes) == 2 else S
            G2 = S2 if device == "cpu" else sr.Matrix.from_scipy(S2, device="gpu")
            want, wp = scg.johnson(S2, indices=nodes, return_predecessors=True)
            got, gp = csgraph.johnson(G2, indices=nodes, return_predecessors=True)
            np.testing.assert_array_equal(to_host(got), want)
            np.testing.assert_array_equal(to_host(gp), wp)


def test_auto_counts_edges_as_scipy_does(backend):
    # SciPy's 'auto' counts the input's stored entries (a duplicate included): 3 >= 3²/4 picks
    # Floyd–Warshall, which drops the stored inf edge that unweighted=True makes length 1 for
    # Dijkstra (CI's Hypothesis run found the engine path counting the deduplicated graph)
    device, _engine = backend
    S = sp.csr_matrix((np.array([np.inf, np.inf, 0.0]), np.array([0, 0, 1]),
                       np.array([0, 0, 2, 3])), shape=(3, 3))
    G = S
    if device == "gpu":
        import cupyx.scipy.sparse as cps
        G = cps.csr_matrix((sr.to_device(S.data, "gpu"), sr.to_device(S.indices, "gpu"),
                            sr.to_device(S.indptr, "gpu")), shape=S.shape)
        G.has_canonical_format = False
    want = scg.shortest_path(S, directed=False, unweighted=True)
    got = csgraph.shortest_path(G, directed=False, unweighted=True)
    np.testing.assert_array_equal(to_host(got), want)


def test_floyd_warshall_reads_a_masked_array_as_scipy_does():
    """SciPy's Floyd–Warshall reads a masked array densely: an unmasked zero is no edge (its
    other methods read it as a zero-weight edge); with ``unweighted=True`` the facade read it
    as an edge of length 1 (found by bench/probes/csgraph_conformance.py)."""
    M = np.ma.masked_array([[0, 0, 2.0], [0, 0, 0], [1, 0, 0]],
                           mask=[[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    for unweighted in (False, True):
        for directed in (True, False):
            kw = dict(directed=directed, unweighted=unweighted, return_predecessors=True)
            for got, ref in ((csgraph.floyd_warshall(M, **kw), scg.floyd_warshall(M, **kw)),
                             (csgraph.shortest_path(M, method="FW", **kw),
                              scg.shortest_path(M, method="FW", **kw)),
                             (csgraph.shortest_path(M, **kw), scg.shortest_path(M, **kw))):
                np.testing.assert_array_equal(got[0], ref[0])
                np.testing.assert_array_equal(got[1], ref[1])
    assert csgraph.floyd_warshall(M, unweighted=True)[0, 1] == np.inf  # no edge 0 → 1
    assert csgraph.dijkstra(M, indices=0)[1] == 0.0  # Dijkstra: a zero-weight edge


def test_yen_lengths_are_scipys_to_the_last_bit():
    """SciPy's yen computes a candidate's root length as the previous path's length minus its
    edges from the sink back; summing the root forwards differed in the last bit
    (11.2 against 11.199999999999998; found by bench/probes/csgraph_conformance.py)."""
    rng = np.random.default_rng(7)
    for _ in range(60):
        n = int(rng.integers(3, 9))
        m = int(rng.integers(n, 3 * n + 1))
        r, c = rng.integers(0, n, m), rng.integers(0, n, m)
        w = np.round(rng.random(m) * 5, 2) + 0.01
        G = sp.csr_array((w, (r, c)), shape=(n, n))
        G.indices, G.indptr = G.indices.astype(np.int32), G.indptr.astype(np.int32)
        s, t = int(rng.integers(0, n)), int(rng.integers(0, n))
        for directed in (True, False):
            got = csgraph.yen(G, s, t, 4, directed=directed)
            ref = scg.yen(G, s, t, 4, directed=directed)
            assert got.tolist() == ref.tolist()


#: SciPy's own test_predecessors graph (scipy/sparse/csgraph/tests/test_shortest_path.py):
#: undirected, 0 → 1 is as long straight (3) as through 3 (1 + 2), and so on
_TIED = np.array([[0, 3, 3, 0, 0],
                  [0, 0, 0, 2, 4],
                  [0, 0, 0, 0, 0],
                  [1, 0, 0, 0, 0],
                  [2, 0, 0, 2, 0]], dtype=float)


@pytest.mark.parametrize("method", ["auto", "D", "BF", "J"])
@pytest.mark.parametrize("directed", [True, False])
def test_predecessors_of_tied_paths_as_scipy(backend, method, directed):
    """Where shortest paths tie, the predecessors SciPy's test_predecessors expects: Dijkstra
    keeps the one reached first (least distance); the engine's parallel search took 3 for
    0 → 1 (_shortest._settled_first)."""
    device, _ = backend
    x = sr.array_module(device).asarray(_TIED)
    got = csgraph.shortest_path(x, method, directed=directed, return_predecessors=True)
    exp = scg.shortest_path(_TIED, method, directed=directed, return_predecessors=True)
    np.testing.assert_array_equal(to_host(got[0]), exp[0])
    np.testing.assert_array_equal(to_host(got[1]), exp[1])


@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 24), directed=st.booleans(),
       method=st.sampled_from(["D", "J"]), batch=st.booleans())
def test_dijkstra_predecessors_reached_first(backend, seed, n, directed, method, batch):
    """Small integer weights (many ties, zero-weight edges too): every predecessor is one of
    least distance among a vertex's shortest-path predecessors, as SciPy's Dijkstra's is, and
    the predecessors stay a tree (check_predecessors)."""
    device, _ = backend
    rng = np.random.default_rng(seed)
    e = np.flatnonzero(rng.random(n * n) < 0.3)  # distinct edges, weights 0 (stored), 1, 2
    none = np.array([], dtype=np.int64)
    g = (n, e // n, e % n, rng.integers(0, 3, e.size).astype(float), none, none, none + 0.0)
    x, S = as_kind(g, "cupyx" if device == "gpu" else "csr_array", device)
    indices = None if batch else int(rng.integers(0, n))
    d, p = csgraph.shortest_path(x, method, directed=directed, indices=indices,
                                 return_predecessors=True)
    ed, ep = scg.shortest_path(S, method, directed=directed, indices=indices,
                               return_predecessors=True)
    d, p = to_host(d).reshape(-1, n), to_host(p).reshape(-1, n)
    ep = ep.reshape(-1, n)
    np.testing.assert_array_equal(d, ed.reshape(-1, n))
    on = ep >= 0
    assert ((p >= 0) == on).all()
    np.testing.assert_array_equal(np.take_along_axis(d, np.where(on, p, 0), 1),
                                  np.take_along_axis(d, np.where(on, ep, 0), 1))
    srcs = np.arange(n) if batch else np.array([indices])
    check_predecessors(d, p, srcs, weights(S), directed, False)
