"""Tests of the benchmark package: generators, references, metrics, timing and the runner.

The runner tests run the ``tiny`` CPU suite end to end into a temporary folder (seconds). GPU
variants run where a device answers.
"""

from __future__ import annotations

import importlib.util
import json
import math

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import cases as C
from bench import generators as gen
from bench import metrics as met
from bench import report, runner
from bench.__main__ import main as bench_main
from bench.timing import TimingPolicy, measure

HAS_GPU = gen.cupy_if_available() is not None
#: the plots need Matplotlib (the bench and test extras); without it the reports leave them out
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
needs_matplotlib = pytest.mark.skipif(not HAS_MATPLOTLIB,
                                      reason="the plots need matplotlib (pip install '.[bench]')")
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="no GPU answers")


def _assert_clean_csr(A, n):
    """Square n x n, canonical CSR (sorted, no duplicates), no self-loops."""
    assert A.shape == (n, n)
    assert A.format == "csr"
    indptr, indices = np.asarray(A.indptr), np.asarray(A.indices)
    assert indptr[0] == 0 and indptr[-1] == A.nnz and np.all(np.diff(indptr) >= 0)
    # strictly increasing column indices inside every row: sorted and no duplicates
    rows = np.repeat(np.arange(n), np.diff(indptr))
    same_row = rows[1:] == rows[:-1]
    assert np.all(indices[1:][same_row] > indices[:-1][same_row])
    assert not np.any(rows == indices), "self-loop present"
    assert indices.min() >= 0 and indices.max() < n


def _assert_symmetric(A):
    diff = (A != A.T)
    assert diff.nnz == 0, "A is not symmetric (pattern or weights)"


def _assert_gap_weights(A):
    d = np.asarray(A.data)
    assert d.dtype == np.float32
    assert d.min() >= 1 and d.max() <= 255
    assert np.all(d == np.round(d))


# --------------------------------------------------------------------------------------------
# generators


def test_kronecker_size_clean_symmetric_weights():
    scale = 10
    n = 1 << scale
    A = gen.kronecker(scale, seed=1)
    _assert_clean_csr(A, n)
    _assert_symmetric(A)
    _assert_gap_weights(A)
    assert A.indices.dtype == np.int32 and A.indptr.dtype == np.int32
    # at most 2 entries per generated tuple; Kronecker makes many duplicates, so well below
    assert 0.3 * 2 * 16 * n < A.nnz < 2 * 16 * n
    # weights spread over [1, 255]
    assert len(np.unique(A.data)) > 200


def test_kronecker_quadrant_probabilities():
    # scale 1 without permutation: each tuple is one quadrant, drawn with A, B, C, D
    src, dst = gen.kronecker_edges(1, edge_factor=100_000, permute=False, seed=3)
    m = src.size
    assert m == 200_000
    freq = {q: np.mean((src == q[0]) & (dst == q[1])) for q in [(0, 0), (0, 1), (1, 0), (1, 1)]}
    for q, p in zip([(0, 0), (0, 1), (1, 0), (1, 1)], [0.57, 0.19, 0.19, 0.05]):
        assert abs(freq[q] - p) < 0.006, (q, freq[q], p)
    # at a larger scale the top bit of the row is set with probability C + D = 0.24
    src, _ = gen.kronecker_edges(12, permute=False, seed=3)
    assert abs(np.mean(src >> 11) - 0.24) < 0.01


def test_kronecker_permutation_is_a_relabeling():
    s0, d0 = gen.kronecker_edges(8, permute=False, seed=5)
    s1, d1 = gen.kronecker_edges(8, permute=True, seed=5)
    perm = gen.random_permutation(256, seed=5)
    assert sorted(perm.tolist()) == list(range(256))
    assert np.array_equal(perm[s0], s1) and np.array_equal(perm[d0], d1)


def test_generators_deterministic_for_a_seed():
    for make in (lambda s: gen.kronecker(9, seed=s), lambda s: gen.urand(9, seed=s),
                 lambda s: gen.grid2d(7, 9, seed=s)):
        a, b, c = make(4), make(4), make(5)
        assert np.array_equal(a.indptr, b.indptr)
        assert np.array_equal(a.indices, b.indices)
        assert np.array_equal(a.data, b.data)
        assert not (np.array_equal(a.indices, c.indices) and np.array_equal(a.data, c.data))


def test_urand_size_and_uniformity():
    scale = 12
    n = 1 << scale
    U = gen.urand(scale, seed=2)
    _assert_clean_csr(U, n)
    _assert_symmetric(U)
    _assert_gap_weights(U)
    # few duplicates with uniform endpoints: almost all 2 * 16 * n entries survive
    assert 0.98 * 2 * 16 * n < U.nnz <= 2 * 16 * n
    deg = np.diff(U.indptr)
    assert abs(deg.mean() - 32) < 1 and deg.max() < 3 * deg.mean()


def test_kronecker_degree_skew_far_above_urand():
    K = gen.degree_stats(gen.kronecker(12, seed=0))
    U = gen.degree_stats(gen.urand(12, seed=0))
    assert K["skew"] > 10 * U["skew"], (K, U)
    assert K["isolated_vertices"] > 0 and U["isolated_vertices"] == 0


def test_grid_structure():
    R, Cc = 6, 9
    G = gen.grid2d(R, Cc, seed=0)
    n = R * Cc
    _assert_clean_csr(G, n)
    _assert_symmetric(G)
    _assert_gap_weights(G)
    assert G.nnz == 2 * (R * (Cc - 1) + (R - 1) * Cc)
    deg = np.diff(G.indptr)
    assert deg.min() == 2 and deg.max() == 4
    assert np.sum(deg == 2) == 4  # corners
    assert np.sum(deg == 3) == 2 * (R - 2) + 2 * (Cc - 2)  # borders
    # neighbours are the 4 lattice neighbours
    v = 2 * Cc + 3  # row 2, column 3
    assert sorted(G.indices[G.indptr[v]:G.indptr[v + 1]].tolist()) == [v - Cc, v - 1, v + 1,
                                                                       v + Cc]
    D = gen.grid2d(R, Cc, undirected=False)
    assert D.nnz == R * (Cc - 1) + (R - 1) * Cc
    assert np.all(sp.triu(D, k=1).nnz == D.nnz)


@pytest.mark.parametrize("scale,seed", [(0, 0), (3, 1), (8, 2), (9, 5)])
def test_rgg_is_every_pair_closer_than_r(scale, seed):
    # against the brute force over all pairs of the same points
    n = 1 << scale
    x, y = gen.rgg_points(scale, seed=seed)
    r = np.sqrt(gen.RGG_DEGREE / (np.pi * n))
    d = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    near = (d < r) & ~np.eye(n, dtype=bool)
    G = gen.rgg(scale, seed=seed, dtype=np.float64)
    np.testing.assert_array_equal(G.toarray() > 0, near)
    w = np.clip(np.ceil(d / r * gen.WEIGHT_HIGH), gen.WEIGHT_LOW, gen.WEIGHT_HIGH)
    np.testing.assert_array_equal(G.toarray()[near], w[near])
    assert G.has_sorted_indices and (G != G.T).nnz == 0
    D = gen.rgg(scale, seed=seed, undirected=False)
    assert D.nnz * 2 == G.nnz and (sp.triu(D, 1) != D).nnz == 0
    assert gen.parse_graph_spec("rgg-9-d6").label == "rgg-9-d6"
    assert gen.parse_graph_spec("rgg-9").label == "rgg-9"


def test_directed_unweighted_and_dtype_options():
    D = gen.kronecker(9, undirected=False, seed=0)
    _assert_clean_csr(D, 512)
    assert (D != D.T).nnz > 0
    W = gen.urand(8, weighted=False, dtype=np.float64)
    assert W.dtype == np.float64 and np.all(W.data == 1)
    I = gen.kronecker(8, dtype=np.int32)
    assert I.dtype == np.int32 and I.data.min() >= 1 and I.data.max() <= 255


def test_random_frontier_and_vectors():
    n = 5000
    idx, vals = gen.random_frontier(n, 0.01, seed=7)
    assert idx.size == 50 and vals.size == 50
    assert np.all(np.diff(idx) > 0) and idx.min() >= 0 and idx.max() < n
    assert vals.dtype == np.float32 and np.all(vals == np.round(vals))
    assert vals.min() >= 0 and vals.max() < 1000
    idx2, vals2 = gen.random_frontier(n, 0.01, seed=7)
    assert np.array_equal(idx, idx2) and np.array_equal(vals, vals2)
    assert gen.random_frontier(n, 0.0001, seed=7)[0].size == 1  # at least one vertex
    assert gen.random_frontier(10, 1.0)[0].tolist() == list(range(10))
    with pytest.raises(ValueError):
        gen.random_frontier(n, 0.0)
    x = gen.random_dense_vector(1000, seed=1)
    assert x.shape == (1000,) and x.dtype == np.float32 and len(np.unique(x)) > 500


def test_cache_roundtrip(tmp_path):
    spec = gen.parse_graph_spec("kron-9", seed=3)
    info1 = gen.CacheInfo()
    A = gen.make_graph(spec, cache_dir=tmp_path, info=info1)
    assert not info1.hit and list(tmp_path.glob("*.npz"))
    info2 = gen.CacheInfo()
    B = gen.make_graph(spec, cache_dir=tmp_path, info=info2)
    assert info2.hit and info2.path == info1.path
    assert (A != B).nnz == 0 and B.indices.dtype == np.int32
    # another seed or generator is another file
    gen.make_graph(spec.with_seed(4), cache_dir=tmp_path)
    gen.make_graph(gen.parse_graph_spec("urand-9", seed=3), cache_dir=tmp_path)
    assert len(list(tmp_path.glob("*.npz"))) == 3


def test_parse_graph_spec():
    assert gen.parse_graph_spec("kron-18").scale == 18
    assert gen.parse_graph_spec("kronecker-12-ef8").edge_factor == 8
    g = gen.parse_graph_spec("grid-30x40")
    assert (g.rows, g.cols, g.label) == (30, 40, "grid-30x40")
    assert gen.parse_graph_spec("grid-64").cols == 64
    assert gen.parse_graph_spec("mtx:/tmp/a.mtx").path == "/tmp/a.mtx"
    with pytest.raises(ValueError):
        gen.parse_graph_spec("kron")


def test_load_matrix_market(tmp_path):
    M = sp.coo_matrix((np.array([5.0, 3.0, 7.0, 2.0]), (np.array([0, 1, 2, 1]),
                                                         np.array([1, 0, 2, 2]))), shape=(3, 3))
    path = tmp_path / "g.mtx"
    scipy.io.mmwrite(str(path), M)
    A = gen.load_matrix_market(path)
    assert A.format == "csr" and A.has_sorted_indices and A.indices.dtype == np.int32
    assert np.array_equal(A.toarray(), M.toarray())
    S = gen.load_matrix_market(path, undirected=True, drop_self_loops=True, dtype=np.float32)
    want = np.array([[0, 3, 0], [3, 0, 2], [0, 2, 0]], dtype=np.float32)  # min of 5 and 3
    assert S.dtype == np.float32 and np.array_equal(S.toarray(), want)


# --------------------------------------------------------------------------------------------
# references (the oracles of the benchmark) against brute force


def _dense_min_plus_rows(A, x):
    D = A.toarray()
    present = np.zeros(A.shape, dtype=bool)
    present[np.repeat(np.arange(A.shape[0]), np.diff(A.indptr)), A.indices] = True
    vals = np.where(present, D + x[None, :], np.inf)
    return vals.min(axis=1)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 30), density=st.floats(0.0, 0.5), seed=st.integers(0, 2**16))
def test_min_plus_references_match_brute_force(n, density, seed):
    rng = np.random.default_rng(seed)
    A = sp.random(n, n, density=density, format="csr", random_state=rng,
                  data_rvs=lambda k: rng.integers(1, 256, k).astype(np.float32))
    A.sort_indices()
    x = rng.integers(0, 1000, n).astype(np.float32)
    y = C.min_plus_rows(A.indptr, A.indices, A.data, x, n)
    assert np.array_equal(y, _dense_min_plus_rows(A, x))
    # push: y_j = min over frontier i of x_i + A_ij  ==  pull over A^T restricted to frontier
    k = int(rng.integers(0, n + 1))
    f = np.sort(rng.choice(n, size=k, replace=False)).astype(np.int64)
    xf = rng.integers(0, 1000, k).astype(np.float32)
    got = C.push_min_plus(A.indptr, A.indices, A.data, f, xf, n)
    xfull = np.full(n, np.inf, dtype=np.float32)
    xfull[f] = xf
    AT = sp.csr_matrix(A.T)
    AT.sort_indices()
    assert np.array_equal(got, _dense_min_plus_rows(AT, xfull))


def test_compare_functions():
    ok, msg = C.compare_exact(np.array([1.0, np.inf]), np.array([1.0, np.inf], dtype=np.float32))
    assert ok, msg
    ok, msg = C.compare_exact(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 3.0]))
    assert not ok and "1 of 3" in msg and "[1]" in msg
    assert not C.compare_exact(np.zeros(2), np.zeros(3))[0]
    assert C.compare_close(1e-3)(np.array([1000.0]), np.array([1000.5]))[0]
    assert not C.compare_close(1e-3)(np.array([1000.0]), np.array([1002.0]))[0]


# --------------------------------------------------------------------------------------------
# metrics and timing


def test_traversed_edges_graph500_convention():
    # two components: a triangle {0,1,2} and an edge {3,4}; 5 isolated
    e = [(0, 1), (1, 2), (0, 2), (3, 4)]
    r = [a for a, b in e] + [b for a, b in e]
    c = [b for a, b in e] + [a for a, b in e]
    A = sp.csr_matrix((np.ones(len(r)), (r, c)), shape=(6, 6))
    assert met.traversed_edges(A, np.array([1, 1, 1, 0, 0, 0], dtype=bool)) == 3
    levels = np.array([0, 1, 1, -1, -1, -1])  # BFS levels from 0, -1 unreached
    assert met.traversed_edges(A, levels) == 3
    dist = np.array([np.inf, np.inf, np.inf, 0.0, 1.0, np.inf])
    assert met.traversed_edges(A, dist) == 1
    assert met.traversed_edges(A, np.ones(6, dtype=bool)) == 4
    assert met.traversed_edges(A, np.ones(6, dtype=bool), undirected=False) == 8
    assert met.gteps(3e9, 1.5) == pytest.approx(2.0)
    L = sp.csr_matrix((np.ones(3), ([0, 0, 1], [0, 1, 0])), shape=(2, 2))  # a self-loop
    assert met.traversed_edges(L, np.array([True, True])) == 2


def test_bytes_ratios_relaxations():
    A = gen.grid2d(4, 4)
    assert met.spmv_bytes(A) == A.indptr.nbytes + A.indices.nbytes + A.data.nbytes + 2 * 16 * 4
    r = met.ratio_matrix({"a": 2.0, "b": 6.0, "c": float("nan")})
    assert r["a"]["b"] == pytest.approx(3.0) and r["b"]["a"] == pytest.approx(1 / 3)
    assert "c" not in r["a"]
    assert met.apsp_relaxations(8) == 512
    assert met.apsp_relaxations(8, "minplus_squaring") == 512 * 3
    assert met.frontier_edges(A, np.array([0, 5])) == 2 + 4


def test_measure_runs_and_keeps_last_result():
    calls = []

    def fn():
        calls.append(len(calls))
        return len(calls)

    t, out = measure(fn, "cpu", TimingPolicy(warmup=1, min_runs=3, max_runs=3, budget_s=10))
    assert len(calls) == 4 and len(t.times_ms) == 3 and out == 4
    assert t.warmup_ms is not None and all(ms >= 0 for ms in t.times_ms)
    assert t.min_ms <= t.median_ms


def test_environment_record():
    env = met.environment(gpu=False)
    for k in ("date", "numpy_version", "scipy_version", "cpu_model", "python"):
        assert env[k], k
    assert met.device_name("cpu", env) == env["cpu_model"]


@needs_matplotlib
def test_relaxation_plot(tmp_path):
    pts = [{"impl": "fw", "n": n, "rate": 1e9 * n / 1024} for n in (256, 512, 1024)]
    p = report.plot_relaxation_rate(pts, tmp_path / "apsp.png", peak=2e9)
    assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 2000


def _apsp_run(peaks: dict, int32_ok: bool):
    """A RunResult of APSP cases made by hand, as a GPU run would leave them (no GPU needed):
    three sizes, a float32 and an int32 engine impl and a CPU peer, the peaks in every case."""
    from bench import apsp_case  # noqa: F401  (registers the algorithm)
    from bench.runner import CaseResult, ImplResult, RunResult

    cases = []
    for scale in (10, 11, 12):
        n = 1 << scale
        spec = gen.parse_graph_spec(f"urand-{scale}")
        results = [
            ImplResult("semiring-gpu-fw", "gpu", "dist", True, "ok",
                       metrics={"grelax": 0.5 * scale}),
            ImplResult("semiring-gpu-minplus-int32", "gpu", "product", True,
                       "ok" if int32_ok else "error", metrics={"grelax": 0.7 * scale}),
            ImplResult("scipy-fw", "cpu", "dist", False, "ok", metrics={"grelax": 0.01}),
        ]
        cases.append(CaseResult(C.Case("apsp", spec), {**spec.params(), "kind": "urand",
                                                       "scale_log2_n": float(scale), "n": n},
                                {}, {"n": n, **peaks}, results, {}, {}, {}))
    return RunResult("quick", "gpu", {"gpu_name": "planted GPU"}, cases, "now", 1.0, 0)


def _horizontal_lines(fig) -> list[float]:
    """The y values of the axhline-s of a figure's visible axes."""
    ys = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for ln in ax.get_lines():
            x, y = ln.get_xdata(), ln.get_ydata()
            if len(y) == 2 and list(x) == [0, 1] and y[0] == y[1]:
                ys.append(float(y[0]))
    return ys


@pytest.mark.parametrize("int32_ok", [True, False])
@needs_matplotlib
def test_apsp_rate_plot_draws_the_peaks(tmp_path, monkeypatch, int32_ok):
    """The main APSP plot (rate against log2 n) and the extra one (against n) both draw the
    measured float32 peak as a horizontal line, and the int32 DPX peak when an int32 impl is
    plotted; the y range takes the peaks in. No GPU: the run is made by hand."""
    import matplotlib.pyplot as plt

    figures = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: figures.append(fig))
    peaks = {"peak_f32": 3.0e13, "peak_i32_dpx": 5.0e13, "peak_i32_plain": 1.0e13}
    files = report.write_all(_apsp_run(peaks, int32_ok), tmp_path)
    for key in ("plot_apsp", "plot_apsp_extra"):
        assert open(files[key], "rb").read(8) == b"\x89PNG\r\n\x1a\n", key
    assert len(figures) == 2  # the rate plot, the extra plot (no work metric for APSP)
    main, extra = figures
    want = [3.0e13] + ([5.0e13] if int32_ok else [])
    assert sorted(_horizontal_lines(main)) == pytest.approx([v / 1e9 for v in want])
    assert sorted(_horizontal_lines(extra)) == pytest.approx(want)
    ax = main.axes[0]
    assert ax.get_ylim()[1] >= max(want) / 1e9
    labels = [t.get_text() for lg in main.legends for t in lg.get_texts()]
    assert "peak float32 fminf (measured) 3e+04 G/s" in labels
    assert ("peak int32 DPX viaddmin (measured) 5e+04 G/s" in labels) == int32_ok
    assert "semiring-gpu-fw" in labels
    for fig in figures:
        real_close(fig)


@needs_matplotlib
def test_apsp_rate_plot_without_peaks(tmp_path):
    """A CPU run measures no peak: the plots are made without a line."""
    files = report.write_all(_apsp_run({}, True), tmp_path)
    assert "plot_apsp" in files and "plot_apsp_extra" in files


# --------------------------------------------------------------------------------------------
# the runner, end to end


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench_out")
    cache = tmp_path_factory.mktemp("bench_cache")
    res = runner.run("tiny", "cpu", out=out, cache_dir=cache, progress=False)
    return res, out


OPTIONAL_PEERS = {"graphblas-cpu": "graphblas"}


def test_tiny_cpu_suite_end_to_end(tiny_run):
    res, out = tiny_run
    # JSON: well formed, every case, every record self-contained
    data = json.loads((out / "latest.json").read_text())
    stamped = json.loads(open(res.files["json"]).read())
    assert data == stamped
    assert data["schema"] == report.SCHEMA and data["device"] == "cpu"
    suite = C.get_suite("tiny", "cpu")
    n_cases = sum(len(e.graphs) * len(e.params) for e in suite.entries)
    assert len(data["cases"]) == n_cases
    algs = {c["algorithm"] for c in data["cases"]}
    assert algs == {"spmv", "spmspv", "bfs", "msbfs", "sssp", "spgemm", "apsp", "networkx"}
    for case in data["cases"]:
        names = {r["impl"] for r in case["results"]}
        assert not any(C.ALGORITHMS[case["algorithm"]].impl(i).device == "gpu" for i in names)
        peers = [r for r in case["results"] if not r["engine"]]
        assert peers
        for r in peers:
            if (r["impl"] in OPTIONAL_PEERS and r["status"] == "unavailable"
                    and importlib.util.find_spec(OPTIONAL_PEERS[r["impl"]]) is None):
                continue  # its package is not installed here
            assert r["status"] == "ok", r
        # every case has a graphblas-cpu peer (ok above when python-graphblas is installed),
        # but NetworkX's own case (its peer is NetworkX: tests/test_bench_networkx.py)
        if case["algorithm"] != "networkx":
            assert "graphblas-cpu" in {r["impl"] for r in peers}, case["algorithm"]
        for r in case["results"]:
            assert r["env"]["numpy_version"] == np.__version__
            assert r["env"]["scipy_version"] and r["env"]["date"]
            assert r["device_name"] == data["environment"]["cpu_model"]
            assert r["graph"]["label"] == case["graph"]["label"]
            assert r["graph"]["seed"] == 0 and r["graph"]["n"] > 0
            if r["status"] == "ok":
                # NetworkX's own impl is called once (its result is the reference)
                assert r["ms_median"] > 0 and r["runs"] >= (1 if r["impl"] == "networkx" else 2)
                assert r["metrics"][C.ALGORITHMS[case["algorithm"]].rate_key] > 0
                assert r["check"].startswith("vs " + r["reference"])
        # ratio matrix is consistent: r[a][b] * r[b][a] == 1
        for a, row in case["ratios"].items():
            for b, v in row.items():
                assert v * case["ratios"][b][a] == pytest.approx(1.0)
    spmv = [c for c in data["cases"] if c["algorithm"] == "spmv"]
    for c in spmv:
        for r in c["results"]:
            if r["status"] == "ok":
                assert r["metrics"]["gbps"] == pytest.approx(
                    c["case_metrics"]["bytes"] / (r["ms_median"] / 1e3) / 1e9, rel=1e-6)
    fronts = sorted((c["params"]["fraction"], c["case_metrics"]["frontier_edges"])
                    for c in data["cases"] if c["algorithm"] == "spmspv")
    assert [f for f, _ in fronts] == [0.001, 0.01, 0.1]
    assert fronts[0][1] < fronts[1][1] < fronts[2][1]  # frontier edges grow with the frontier
    # Markdown
    md = (out / "latest.md").read_text()
    assert md.startswith("# semiring benchmarks: suite `tiny` on CPU")
    assert "| graph | n | nnz | case | impl |" in md and "## Conventions" in md
    for name in ("scipy-plus-times", "numpy-min-plus", "numpy-push", "kron-10", "grid-32x32"):
        assert name in md
    # plots
    for a in ("spmv", "spmspv") if HAS_MATPLOTLIB else ():
        png = res.files[f"plot_{a}"]
        blob = open(png, "rb").read()
        assert blob[:8] == b"\x89PNG\r\n\x1a\n" and len(blob) > 5000
        assert f"]({png.rsplit('/', 1)[1]})" in md


def test_engine_agrees_in_tiny_suite(tiny_run):
    pytest.importorskip("semiring")
    res, _ = tiny_run
    eng = [(c.case.case_id, r) for c in res.cases for r in c.results if r.engine]
    assert eng
    bad = [(cid, r.status, r.error or r.check) for cid, r in eng if r.status != "ok"]
    assert not bad, bad
    assert res.exit_code == runner.EXIT_OK


def _wrong_spmv(ctx):
    H = ctx.graph.host
    x = ctx.inputs["x"]
    return lambda: C.min_plus_rows(H.indptr, H.indices, H.data, x, H.shape[0]) + 1


def _raising(ctx):
    def run():
        raise RuntimeError("boom")

    return run


def test_disagreement_is_loud_and_fails(tmp_path, capsys):
    bad = C.Impl("planted-wrong", "cpu", "min_plus", _wrong_spmv)
    res = runner.run("tiny", "cpu", algorithms=["spmv"], graphs=["kron-8"],
                     impls=["numpy-min-plus", "planted-wrong"], out=tmp_path,
                     cache_dir=None, progress=False, extra_impls=[("spmv", bad)])
    assert res.exit_code == runner.EXIT_MISMATCH
    statuses = {r.impl: r.status for r in res.cases[0].results}
    assert statuses == {"numpy-min-plus": "ok", "planted-wrong": "mismatch"}
    err = capsys.readouterr().err
    assert "DISAGREEMENT" in err and "planted-wrong" in err
    data = json.loads((tmp_path / "latest.json").read_text())
    assert data["exit_code"] == 1 and data["failures"][0]["impl"] == "planted-wrong"
    assert "FAILURES" in (tmp_path / "latest.md").read_text()


def test_failing_impl_is_reported(tmp_path):
    boom = C.Impl("planted-error", "cpu", "min_plus", _raising)
    res = runner.run("tiny", "cpu", algorithms=["spmv"], graphs=["grid-8x8"],
                     impls=["numpy-min-plus", "planted-error"], out=None, cache_dir=None,
                     progress=False, extra_impls=[("spmv", boom)])
    assert res.exit_code == runner.EXIT_ERROR
    r = {r.impl: r for r in res.cases[0].results}["planted-error"]
    assert r.status == "error" and "boom" in r.error


def test_cli(tmp_path, capsys):
    rc = bench_main(["--device", "cpu", "--suite", "tiny", "--algorithms", "spmspv",
                     "--graphs", "grid-20x20", "--impls", "numpy-push", "--out",
                     str(tmp_path), "--no-progress", "--no-cache", "--no-plots"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "suite 'tiny' on CPU" in out and "numpy-push" in out and "grid-20x20" in out
    data = json.loads((tmp_path / "latest.json").read_text())
    assert [c["params"]["fraction"] for c in data["cases"]] == [0.001, 0.01, 0.1]
    assert not list(tmp_path.glob("*.png"))
    assert bench_main(["--device", "cpu", "--algorithms", "nope", "--no-write"]) == 3
    assert bench_main(["--device", "cpu", "--impls", "nope", "--no-write"]) == 3
    if not HAS_GPU:
        assert bench_main(["--device", "gpu", "--no-write"]) == 3
        assert "no GPU answers" in capsys.readouterr().err
    assert bench_main(["--list"]) == 0
    assert "cusparse-plus-times" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------
# GPU (where a device answers)


@needs_gpu
def test_generators_identical_on_gpu():
    import cupy

    for make in (lambda xp: gen.kronecker(11, seed=9, xp=xp), lambda xp: gen.urand(10, xp=xp),
                 lambda xp: gen.grid2d(13, 17, xp=xp)):
        H, D = make(np), make(cupy)
        assert np.array_equal(H.indptr, D.indptr.get())
        assert np.array_equal(H.indices, D.indices.get())
        assert np.array_equal(H.data, D.data.get())
    idx, vals = gen.random_frontier(1000, 0.05, seed=2, xp=cupy)
    hidx, hvals = gen.random_frontier(1000, 0.05, seed=2)
    assert np.array_equal(idx.get(), hidx) and np.array_equal(vals.get(), hvals)


@needs_gpu
def test_tiny_gpu_suite(tmp_path):
    res = runner.run("tiny", "gpu", out=tmp_path, cache_dir=None, progress=False)
    recs = [r for c in res.cases for r in c.results]
    assert {r.device for r in recs} == {"cpu", "gpu"}
    peers = [r for r in recs if not r.engine and r.status != "unavailable"]
    assert all(r.status == "ok" for r in peers), [(r.impl, r.error or r.check) for r in peers]
    data = json.loads((tmp_path / "latest.json").read_text())
    gpu_recs = [r for c in data["cases"] for r in c["results"] if r["device"] == "gpu"]
    assert gpu_recs and all(r["env"]["cupy_version"] and r["env"]["cuda_runtime_version"]
                            for r in gpu_recs)
    assert all(r["device_name"] == data["environment"]["gpu_name"] for r in gpu_recs)
    assert res.exit_code == runner.EXIT_OK, res.failures()
    assert math.isfinite(res.seconds)


def test_graphblas_peer_agrees_or_is_unavailable(tmp_path, monkeypatch):
    """SuiteSparse:GraphBLAS (python-graphblas) is an optional CPU peer: it agrees with the
    references when installed and is reported 'unavailable' (not failed) when it is not."""
    import importlib.util
    import sys

    kw = dict(algorithms=["spmv", "spmspv", "bfs", "msbfs", "sssp", "spgemm"], graphs=["kron-8"],
              impls=["graphblas-cpu"], out=tmp_path / "a", cache_dir=tmp_path / "cache",
              progress=False)
    if importlib.util.find_spec("graphblas") is not None:
        res = runner.run("tiny", "cpu", **kw)
        statuses = [r.status for c in res.cases for r in c.results]
        assert statuses and all(s == "ok" for s in statuses), statuses
    monkeypatch.setitem(sys.modules, "graphblas", None)  # import now fails
    kw["out"] = tmp_path / "b"
    res = runner.run("tiny", "cpu", **kw)
    statuses = [r.status for c in res.cases for r in c.results]
    assert statuses and all(s == "unavailable" for s in statuses), statuses
    assert {c.case.algorithm for c in res.cases} == set(kw["algorithms"])
    assert res.exit_code == 0
    # apsp (its own module) on its own graph size
    res = runner.run("tiny", "cpu", algorithms=["apsp"], impls=["graphblas-cpu"],
                     out=None, cache_dir=tmp_path / "cache", progress=False)
    assert [r.status for c in res.cases for r in c.results] == ["unavailable"]
    assert "python-graphblas is not installed" in res.cases[0].results[0].check


def test_bfs_case_counts_graph500_edges(tiny_run):
    """The BFS case reports GTEPS over the Graph500 edge count of the traversed component and
    checks every implementation against SciPy's levels (or its reached set)."""
    res, out = tiny_run
    data = json.loads((out / "latest.json").read_text())
    cases = [c for c in data["cases"] if c["algorithm"] == "bfs"]
    assert cases
    for c in cases:
        te = c["case_metrics"]["traversed_edges"]
        assert te > 0 and c["case_metrics"]["depth"] >= 1
        ok = [r for r in c["results"] if r["status"] == "ok"]
        assert {r["impl"] for r in ok} >= {"semiring-cpu", "scipy-bfs"}
        for r in ok:
            assert r["metrics"]["gteps"] == pytest.approx(te / (r["ms_median"] / 1e3) / 1e9,
                                                          rel=1e-6)


def test_sssp_case_checks_against_dijkstra(tiny_run):
    """The SSSP case checks every implementation against SciPy's Dijkstra distances and
    reports GTEPS over the reached component."""
    res, out = tiny_run
    data = json.loads((out / "latest.json").read_text())
    cases = [c for c in data["cases"] if c["algorithm"] == "sssp"]
    assert cases
    for c in cases:
        te = c["case_metrics"]["traversed_edges"]
        assert te > 0 and c["case_metrics"]["max_dist"] >= 1
        ok = {r["impl"] for r in c["results"] if r["status"] == "ok"}
        assert ok >= {"semiring-cpu-delta", "semiring-cpu-bf", "scipy-dijkstra"}


def test_msbfs_case_sums_graph500_edges_over_sources(tiny_run):
    """The multi-source BFS case: GTEPS over the Graph500 edges of every source's component
    (SciPy's over its first few sources only), engine checked against SciPy."""
    res, out = tiny_run
    data = json.loads((out / "latest.json").read_text())
    cases = [c for c in data["cases"] if c["algorithm"] == "msbfs"]
    assert cases
    for c in cases:
        m = c["case_metrics"]
        assert m["sources"] == 32 and m["scipy_sources"] == C.MSBFS_SCIPY_SOURCES
        assert m["traversed_edges"] > m["traversed_edges_scipy"] > 0 and m["depth"] >= 1
        ok = {r["impl"]: r for r in c["results"] if r["status"] == "ok"}
        assert set(ok) >= {"semiring-cpu", "scipy-bfs"}
        assert ok["semiring-cpu"]["metrics"]["gteps"] == pytest.approx(
            m["traversed_edges"] / (ok["semiring-cpu"]["ms_median"] / 1e3) / 1e9, rel=1e-6)
        assert ok["scipy-bfs"]["metrics"]["gteps"] == pytest.approx(
            m["traversed_edges_scipy"] / (ok["scipy-bfs"]["ms_median"] / 1e3) / 1e9, rel=1e-6)


def test_msbfs_edges_and_check_catch_errors(tmp_path):
    """Per-source Graph500 edges equal met.traversed_edges of SciPy's reached sets, and a
    multi-source BFS wrong in one row beyond SciPy's sources is reported as a mismatch."""
    import algorithms
    from scipy.sparse.csgraph import breadth_first_order

    spec = gen.parse_graph_spec("kron-9", seed=0)
    g = C.GraphData(spec, gen.generate(spec, xp=np))
    ctx = C.CaseContext(C.ALGORITHMS["msbfs"], g, {"sources": 8}, 0, {})
    C.ALGORITHMS["msbfs"].prepare(ctx)
    H = g.host
    want = sum(met.traversed_edges(H, np.isin(np.arange(g.n), breadth_first_order(
        H, int(v), directed=True, return_predecessors=False)), undirected=True)
        for v in ctx.inputs["sources"])
    assert ctx.case_metrics["traversed_edges"] == want

    def wrong(ctx):
        def run():
            lv = algorithms.multi_source_bfs(H, ctx.inputs["sources"])
            lv[-1, lv[-1] > 0] = -1  # the last source reaches only itself
            return lv
        return run

    res = runner.run("tiny", "cpu", algorithms=["msbfs"], graphs=["kron-9"],
                     impls=["wrong-msbfs"], out=None, cache_dir=None, progress=False,
                     extra_impls=[("msbfs", C.Impl("wrong-msbfs", "cpu", "levels", wrong))])
    statuses = [r.status for c in res.cases for r in c.results]
    assert statuses == ["mismatch"]


def test_csgraph_case_runs_on_a_tiny_graph():
    """The csgraph case (not in the tiny suite) prepares and agrees with SciPy on a tiny graph
    (its prepare once named a helper that the split of bench/cases.py moved)."""
    res = runner.run("quick", "cpu", algorithms=["csgraph"], graphs=["kron-7"], out=None,
                     cache_dir=None, progress=False)
    assert res.exit_code == runner.EXIT_OK, res.failures()
    assert {r.status for c in res.cases for r in c.results} <= {"ok", "unavailable"}
