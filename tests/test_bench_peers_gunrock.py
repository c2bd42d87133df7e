"""Tests of Gunrock as a bench peer (bench/peers_gunrock.py) on the CPU: the examples' binary
CSR written and read back, the source relabelling, the output parser on captured output of the
examples, the impls' unavailability without a folder, and the whole path (setup, Gunrock's
self-timed trials, the result read back, the check) with stand-in executables that read the
same files and honour the same hooks (bench/gunrock-examples-bench.patch), right and wrong.
"""

from __future__ import annotations

import os
import stat
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import cases as C
from bench import generators as gen
from bench import peers_gunrock as GR
from bench import runner


@pytest.fixture
def gunrock_state():
    saved = dict(GR._state)
    yield
    GR._state.clear()
    GR._state.update(saved)


def _random_csr(n, density, seed, *, weighted=True, isolated=0):
    rng = np.random.default_rng(seed)
    if n == 0:
        return sp.csr_matrix((0, 0), dtype=np.float32)
    M = sp.random(n, n, density=density, random_state=rng, format="csr", dtype=np.float64)
    M = (M + M.T).tolil()
    M.setdiag(0)
    if isolated:
        M[n - isolated:, :] = 0
        M[:, n - isolated:] = 0
    M = M.tocsr()
    M.eliminate_zeros()
    M.sort_indices()
    if weighted:
        M.data = rng.integers(1, 256, M.nnz).astype(np.float32)
        M = ((M + M.T) / 2).tocsr()  # symmetric weights: one weight an undirected edge
        M.data = np.round(M.data).astype(np.float32)
    else:
        M.data = np.ones(M.nnz, dtype=np.float32)
    M.sort_indices()
    return M.astype(np.float32)


# --------------------------------------------------------------------------------------------
# the binary CSR and the relabelling


@settings(deadline=None)
@given(n=st.integers(0, 40), density=st.floats(0.0, 0.5), seed=st.integers(0, 2**16),
       index_dtype=st.sampled_from([np.int32, np.int64]))
def test_binary_csr_roundtrip(tmp_path_factory, n, density, seed, index_dtype):
    A = _random_csr(n, density, seed)
    path = tmp_path_factory.mktemp("csr") / "g.csr"
    GR.write_binary_csr(path, A.indptr.astype(index_dtype), A.indices.astype(index_dtype),
                        A.data)
    # csr_t::read_binary's layout: 3 int32, int32 offsets[n+1], int32 indices, float32 values
    assert path.stat().st_size == 12 + 4 * (n + 1) + 8 * A.nnz
    rows, cols, indptr, indices, values = GR.read_binary_csr(path)
    assert (rows, cols) == (n, n)
    np.testing.assert_array_equal(indptr, A.indptr)
    np.testing.assert_array_equal(indices, A.indices)
    np.testing.assert_array_equal(values, A.data)
    assert indptr.dtype == indices.dtype == np.int32 and values.dtype == np.float32


def test_binary_csr_refuses_bad_input(tmp_path):
    with pytest.raises(ValueError, match="write_binary_csr"):
        GR.write_binary_csr(tmp_path / "g.csr", [0, 2], [0], [1.0, 2.0])
    GR.write_binary_csr(tmp_path / "g.csr", [0, 1], [0], [1.0])
    data = (tmp_path / "g.csr").read_bytes()
    (tmp_path / "t.csr").write_bytes(data[:-4])
    with pytest.raises(ValueError, match="truncated"):
        GR.read_binary_csr(tmp_path / "t.csr")


@settings(deadline=None)
@given(n=st.integers(1, 30), density=st.floats(0.0, 0.4), seed=st.integers(0, 2**16),
       data=st.data())
def test_swap_relabelling_gives_the_source_s_answer(n, density, seed, data):
    from scipy.sparse.csgraph import dijkstra  # noqa: PLC0415  (lazy: SciPy's csgraph, this test only)

    A = _random_csr(n, density, seed, isolated=n // 5)
    s = data.draw(st.integers(0, n - 1))
    p = GR.swap_labels(n, s)
    assert p[0] == s and p[s] == 0 and sorted(p) == list(range(n))
    np.testing.assert_array_equal(p[p], np.arange(n))  # its own inverse
    B = GR.permuted(A, p)
    assert B.has_sorted_indices and B.nnz == A.nnz
    want = dijkstra(A, indices=s)
    got_new = dijkstra(B, indices=0)
    np.testing.assert_array_equal(got_new[p], want)  # what GunrockKernel does with a result


# --------------------------------------------------------------------------------------------
# the output parser


# captured on the H100 (2026-11-25): the examples built by bench/build_gunrock.sh, kron-10,
# GUNROCK_BENCH_TRIALS=3 (the distance lines cut at 300 characters)
BFS_OUTPUT = """GPU Trial Time : 5.53878 (ms)
GPU Trial Time : 0.495872 (ms)
GPU Trial Time : 0.530848 (ms)
GPU distances[:40] = 0 3 3 2147483647 3 2 2147483647 3 2147483647 2 3 2147483647 3 2 2147483647
CPU Distances[:40] = 0 3 3 2147483647 3 2 2147483647 3 2147483647 2 3 2147483647 3 2 2147483647
GPU Elapsed Time : 0.530848 (ms)
CPU Elapsed Time : 0.123 (ms)
Number of errors : 0
"""

TC_OUTPUT = """GPU Trial Time : 6.20374 (ms)
GPU Trial Time : 1.50947 (ms)
GPU Trial Time : 1.50381 (ms)
Per-vertex triangle count[:40] = 51 1 2 0 5 7 0 35 0 208 1 0 3 57 0 0 489 526 0 12 7 374 0 80
Total Graph Traingles : 232365
GPU Elapsed Time : 1.50381 (ms)
CPU Elapsed Time : 9.841 (ms)
Number of errors : 0
"""

STOCK_BFS_OUTPUT = """GPU Elapsed Time : 5.06342 (ms)
CPU Elapsed Time : 0.121 (ms)
Number of errors : 2
"""

# the format of the pr.hxx hook (GUNROCK_BENCH_PR_MAX_ITER), values made up
PR_OUTPUT = """PR Iterations : 21 (largest change 9.7e-09)
GPU Trial Time : 1.86246 (ms)
PR Iterations : 100 (largest change 2.1e-08)
GPU Trial Time : 1.79795 (ms)
GPU rank[:40] = 0.000773659 0.000237106 0.000359266 0.000165902 0.000386055 0.000404171
GPU Elapsed Time : 1.79795 (ms)
"""


def test_parse_output():
    r = GR.parse_output(BFS_OUTPUT, GR.GunrockRun("bfs", []))
    assert r.trial_ms == [5.53878, 0.495872, 0.530848]
    assert r.elapsed_ms == [0.530848] and r.errors == [0] and r.total_triangles is None
    r = GR.parse_output(TC_OUTPUT, GR.GunrockRun("tc", []))
    assert r.trial_ms == [6.20374, 1.50947, 1.50381] and r.elapsed_ms == [1.50381]
    assert r.errors == [0] and r.total_triangles == 232365
    # one process a trial (no hooks): lines accumulate
    r = GR.parse_output(STOCK_BFS_OUTPUT, GR.GunrockRun("bfs", []))
    GR.parse_output(STOCK_BFS_OUTPUT.replace("5.06342", "0.5"), r)
    assert r.trial_ms == [] and r.elapsed_ms == [5.06342, 0.5] and r.errors == [2, 2]
    r = GR.parse_output(PR_OUTPUT, GR.GunrockRun("pr", []))
    assert r.pr_iterations == [(21, 9.7e-09), (100, 2.1e-08)]
    assert r.trial_ms == [1.86246, 1.79795]
    ok, msg = GR._reference("pagerank").compare(
        GR.GunrockRun("pr", [], result=np.array([1.0]), pr_iterations=r.pr_iterations),
        np.array([1.0]))
    assert ok and "PR iterations 21, 100 (largest change at the end 2.1e-08)" in msg


def test_compare_rules():
    cmp = GR._reference("tc").compare
    run = GR.GunrockRun("tc", [], total_triangles=33, errors=[0])
    ok, msg = cmp(run, np.array([11]))
    assert ok, msg
    ok, msg = cmp(run, np.array([12]))
    assert not ok and "differ" in msg
    run.errors = [2]
    ok, msg = cmp(run, np.array([11]))
    assert not ok and "nonzero" in msg
    run = GR.GunrockRun("tc", [], total_triangles=34)  # not a multiple of 3
    assert not cmp(run, np.array([11]))[0]
    # bfs: unreached (INT_MAX) reads as -1; nothing read back and no error count: unchecked
    cmp = GR._reference("bfs").compare
    run = GR.GunrockRun("bfs", [], result=np.array([0, 1, 2**31 - 1], dtype=np.int32))
    assert cmp(run, np.array([0, 1, -1]))[0]
    assert not cmp(run, np.array([0, 1, 2]))[0]
    ok, msg = cmp(GR.GunrockRun("bfs", []), np.array([0]))
    assert not ok and "nothing checked" in msg
    cmp = GR._reference("sssp").compare
    big = np.finfo(np.float32).max
    run = GR.GunrockRun("sssp", [], result=np.array([0, 3.0, big], dtype=np.float32))
    assert cmp(run, np.array([0, 3.0, np.inf]))[0]
    cmp = GR._reference("pagerank").compare
    run = GR.GunrockRun("pr", [], result=np.array([0.5, 0.5], dtype=np.float32))
    assert cmp(run, np.array([0.5, 0.5]))[0]
    assert not cmp(run, np.array([0.9, 0.1]))[0]


def test_pr_tolerance():
    assert GR.pr_tolerance(10) == pytest.approx(1e-5)
    assert GR.pr_tolerance(2**20) == GR.PR_TOL_FLOOR
    assert GR.pr_tolerance(0) == GR.PR_TOL


# --------------------------------------------------------------------------------------------
# unavailable with the reason


def _ctx(alg, spec="kron-7"):
    g = runner._load_graph(gen.parse_graph_spec(spec), "cpu", None)
    ctx = C.CaseContext(C.ALGORITHMS[alg], g, {}, 0, {})
    ctx.algorithm.prepare(ctx)
    return ctx


@pytest.mark.parametrize("alg", list(GR.EXAMPLES))
def test_unavailable_without_a_folder(gunrock_state, alg):
    GR.configure(None)
    impl = C.ALGORITHMS[alg].impl("gunrock")
    assert impl.device == "gpu" and impl.reference == f"gunrock-{alg}"
    with pytest.raises(C.Unavailable, match="--gunrock PATH"):
        impl.setup(_ctx(alg))
    assert "not configured" in GR.status()


def test_unavailable_without_the_executable(gunrock_state, tmp_path):
    GR.configure(tmp_path)
    with pytest.raises(C.Unavailable, match="no executable 'bfs'"):
        C.ALGORITHMS["bfs"].impl("gunrock").setup(_ctx("bfs"))
    assert "missing: bfs, sssp, pr, tc" in GR.status()
    (tmp_path / "sssp").write_text("not executable")
    with pytest.raises(C.Unavailable, match="not executable"):
        C.ALGORITHMS["sssp"].impl("gunrock").setup(_ctx("sssp"))


def test_registered_in_the_four_cases():
    for alg in GR.EXAMPLES:
        assert [i.name for i in C.ALGORITHMS[alg].impls].count("gunrock") == 1
    GR.register()  # idempotent
    assert [i.name for i in C.ALGORITHMS["bfs"].impls].count("gunrock") == 1


# --------------------------------------------------------------------------------------------
# the whole path with stand-in executables (the examples' interface, computed with SciPy)

STAND_IN = r'''
import os, sys
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

HOOKS = {hooks}
WRONG = {wrong}
ERRORS = {errors}
name = os.path.basename(sys.argv[0])
path = [a for a in sys.argv[1:] if a.endswith(".csr")][0]
with open(path, "rb") as f:
    n, _, m = np.fromfile(f, dtype=np.int32, count=3)
    indptr = np.fromfile(f, dtype=np.int32, count=n + 1)
    indices = np.fromfile(f, dtype=np.int32, count=m)
    values = np.fromfile(f, dtype=np.float32, count=m)
A = sp.csr_matrix((values, indices, indptr), shape=(n, n))
if name == "bfs":
    d = dijkstra(A, indices=0, unweighted=True)
    out = np.where(np.isinf(d), 2**31 - 1, d).astype(np.int32)
elif name == "sssp":
    d = dijkstra(A, indices=0)
    out = np.where(np.isinf(d), np.finfo(np.float32).max, d).astype(np.float32)
elif name == "pr":
    tol = float(os.environ.get("GUNROCK_BENCH_PR_TOL", "1e-6"))
    out_w = np.asarray(A.sum(axis=1)).ravel()
    cap = int(os.environ.get("GUNROCK_BENCH_PR_MAX_ITER", "1000000"))
    p = np.full(n, 1.0 / n)
    it = 0
    while True:
        it += 1
        last = p
        dangling = 0.85 * last[out_w == 0].sum()
        share = np.where(out_w > 0, 0.85 * last / np.where(out_w > 0, out_w, 1), 0)
        p = (1 - 0.85 + dangling) / n + A.T @ share
        if np.abs(p - last).max() < tol or it >= cap:
            break
    out = p.astype(np.float32)
else:  # tc: each triangle counted at its three corners
    L = A.copy()
    L.data[:] = 1
    per = np.asarray(((L @ L).multiply(L)).sum(axis=1)).ravel() // 2
    out = per.astype(np.uint32)
if WRONG:
    out = out.copy()
    out[-1] += 1
trials = int(os.environ.get("GUNROCK_BENCH_TRIALS", "1")) if HOOKS else 1
for t in range(trials):
    if HOOKS and name == "pr":
        print(f"PR Iterations : {{it}} (largest change {{np.abs(p - last).max()}})")
    if HOOKS:
        print(f"GPU Trial Time : {{1.5 + t}} (ms)")
if HOOKS and "GUNROCK_BENCH_DUMP" in os.environ:
    out.tofile(os.environ["GUNROCK_BENCH_DUMP"])
if name == "tc":
    print(f"Total Graph Traingles : {{int(out.astype(np.int64).sum())}}")
print("GPU Elapsed Time : 2.25 (ms)")
if name in ("bfs", "sssp") or "--validate" in sys.argv:
    print(f"Number of errors : {{ERRORS}}")
'''


def _stand_ins(folder, *, hooks=True, wrong=False, errors=0):
    folder.mkdir(parents=True, exist_ok=True)
    src = f"#!{sys.executable}\n" + textwrap.dedent(STAND_IN).format(
        hooks=hooks, wrong=wrong, errors=errors)
    if not hooks:
        src = src.replace("GPU Trial Time", "GPU Trial-less")
    for name in ("bfs", "sssp", "pr", "tc"):
        exe = folder / name
        exe.write_text(src)
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return folder


def _run_case(alg, spec="kron-7"):
    ctx = _ctx(alg, spec)
    impl = C.ALGORITHMS[alg].impl("gunrock")
    fn = impl.setup(ctx)
    timing, out = fn.self_timed()
    ref_obj = ctx.algorithm.references[impl.reference]
    ok, msg = ref_obj.compare(impl.fetch(out), ref_obj.compute(ctx))
    return ok, msg, timing, out


@pytest.fixture
def gunrock_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SEMIRING_BENCH_GUNROCK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SEMIRING_BENCH_GUNROCK_TRIALS", "3")
    return tmp_path


@pytest.mark.parametrize("alg", list(GR.EXAMPLES))
def test_stand_in_examples_end_to_end(gunrock_state, gunrock_cache, alg):
    GR.configure(_stand_ins(gunrock_cache / "bin"))
    ok, msg, timing, run = _run_case(alg)
    assert ok, msg
    assert timing.warmup_ms == 1.5 and timing.times_ms == [2.5, 3.5, 4.5]  # 1 + 3 trials
    assert run.hooks and run.processes == 1
    assert "result read back" in msg
    if alg == "pagerank":
        assert "PR iterations" in msg and "at most 100 iterations" in msg
    if alg in ("bfs", "sssp"):
        assert f"source {_ctx(alg).inputs['source']} relabelled to 0" in msg
        assert run.cmd[-1].endswith(f"-s{_ctx(alg).inputs['source']}-"
                                    f"{'w' if alg == 'sssp' else 'ones'}.csr")


@pytest.mark.parametrize("alg", list(GR.EXAMPLES))
def test_stand_in_examples_wrong_answers_are_mismatches(gunrock_state, gunrock_cache, alg):
    GR.configure(_stand_ins(gunrock_cache / "bin", wrong=True))
    ok, msg, _, _ = _run_case(alg)
    assert not ok, msg


def test_nonzero_error_count_is_a_mismatch(gunrock_state, gunrock_cache):
    GR.configure(_stand_ins(gunrock_cache / "bin", errors=3))
    ok, msg, _, _ = _run_case("bfs")
    assert not ok and "Number of errors 3" in msg


def test_examples_without_hooks_run_a_process_a_trial(gunrock_state, gunrock_cache):
    GR.configure(_stand_ins(gunrock_cache / "bin", hooks=False))
    assert "bfs (no bench hooks)" in GR.status()
    ok, msg, timing, run = _run_case("bfs")
    assert ok, msg  # Gunrock's own error count is the check
    assert run.processes == 4 and timing.times_ms == [2.25, 2.25, 2.25]
    assert "processes, one trial each" in msg
    ok, msg, _, _ = _run_case("pagerank")
    assert not ok and "nothing checked" in msg


def test_failed_example_is_an_error(gunrock_state, gunrock_cache):
    folder = gunrock_cache / "bin"
    folder.mkdir()
    exe = folder / "bfs"
    exe.write_text("#!/bin/sh\necho 'CUDA error: no device' >&2\nexit 1\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    GR.configure(folder)
    fn = C.ALGORITHMS["bfs"].impl("gunrock").setup(_ctx("bfs"))
    with pytest.raises(RuntimeError, match="no device"):
        fn.self_timed()


def test_summary_ratio(gunrock_state, gunrock_cache):
    from bench.timing import Timing  # noqa: PLC0415  (this test only)

    alg = C.ALGORITHMS["bfs"]
    mk = lambda name, ms: runner.ImplResult(name, "gpu", "levels", True, "ok",  # noqa: E731
                                            timing=Timing(times_ms=[ms]))
    s = alg.summary(_ctx("bfs"), {"semiring-gpu": mk("semiring-gpu", 2.0),
                                  "gunrock": mk("gunrock", 5.0)})
    assert s["semiring_gpu_vs_gunrock"] == pytest.approx(2.5)


def test_cli_option(gunrock_state, tmp_path, capsys):
    from bench.__main__ import main  # noqa: PLC0415  (this test only)

    assert main(["--gunrock", str(tmp_path), "--list"]) == 0
    err = capsys.readouterr().err
    assert f"Gunrock peer: {tmp_path.resolve()}: no examples" in err
    assert os.fspath(GR.configured()) == os.fspath(tmp_path.resolve())
