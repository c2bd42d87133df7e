"""The kernel loader's compile logic (one program per kernel, one build per key across
threads, the parallel compile of a job list) against a stand-in for CuPy, and the
``python -m semiring.warmup`` command line (arguments, ``--list``, the message without a
GPU). On a GPU machine the real compiles run too (``device`` = "gpu")."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

import semiring as sr
from semiring import kernels, warmup
from semiring.backend.gpu import spmv as _gspmv
from semiring.backend.gpu import traversal as _gtrav

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


class FakeCupy:
    """What the loader uses of CuPy: RawModule (recording each program), the current device
    and the Device context manager."""

    def __init__(self, delay=0.0, fail=()):
        self.programs = []  # (names, options, kw)
        self.delay = delay
        self.fail = set(fail)
        self.lock = threading.Lock()
        self.dev = 0
        fake = self

        class RawModule:
            def __init__(self, *, code, options, name_expressions, **kw):
                assert isinstance(code, str) and code
                self.names = list(name_expressions)
                with fake.lock:
                    fake.programs.append((tuple(self.names), tuple(options), kw))

            def compile(self):
                time.sleep(fake.delay)
                if set(self.names) & fake.fail:
                    raise RuntimeError(f"cannot compile {self.names}")

            def get_function(self, name):
                assert name in self.names, (name, self.names)
                self.compile()
                return ("kernel", name)

        class Device:
            def __init__(self, d):
                self.d = d

            def __enter__(self):
                self.prev, fake.dev = fake.dev, self.d

            def __exit__(self, *exc):
                fake.dev = self.prev

        self.RawModule = RawModule
        self.cuda = SimpleNamespace(runtime=SimpleNamespace(getDevice=lambda: fake.dev),
                                    Device=Device)


@pytest.fixture
def fake(monkeypatch):
    f = FakeCupy()
    monkeypatch.setattr(kernels, "_cupy", lambda: f)
    monkeypatch.setattr(kernels, "_cache", {})
    monkeypatch.setattr(kernels, "_building", {})
    monkeypatch.setattr(kernels, "compile_log", [])
    return f


NAMES = ["k<int>", "k<long long>", "k<float>"]


def test_function_compiles_the_one_kernel_alone(fake):
    f = kernels.function(("fam",), "k<int>", lambda: "code", lambda: NAMES)
    assert f == ("kernel", "k<int>")
    assert [p[0] for p in fake.programs] == [("k<int>",)]  # not the other two
    assert kernels.function(("fam",), "k<int>", "code", NAMES) is f  # a hit: no program
    kernels.function(("fam",), "k<float>", "code", NAMES)
    assert [p[0] for p in fake.programs] == [("k<int>",), ("k<float>",)]
    assert [rec[1] for rec in kernels.compile_log] == [("k<int>",), ("k<float>",)]
    with fake.cuda.Device(1):  # another device compiles its own
        kernels.function(("fam",), "k<int>", "code", NAMES)
    assert len(fake.programs) == 3


def test_function_refuses_a_name_its_launcher_does_not_list(fake):
    with pytest.raises(ValueError, match="'k<char>' is not one of the 3 instantiations"):
        kernels.function(("fam",), "k<char>", "code", NAMES)
    assert fake.programs == []


def test_function_passes_options_and_module_keywords(fake):
    kernels.function(("fam",), "k<int>", "code", NAMES, options=("-DX",), compile=False,
                     enable_cooperative_groups=True)
    assert fake.programs == [(("k<int>",), ("-DX",), {"enable_cooperative_groups": True})]


def test_module_compiles_its_whole_program(fake):
    kernels.module(("m",), "code", NAMES)
    assert fake.programs == [(tuple(NAMES), kernels.NVRTC_OPTIONS, {})]


def test_one_build_per_key_across_threads(fake):
    fake.delay = 0.05
    barrier = threading.Barrier(8)
    got = []

    def ask():
        barrier.wait()
        got.append(kernels.function(("fam",), "k<int>", "code", NAMES))
    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(g is got[0] for g in got)
    assert len(fake.programs) == 1


def test_a_failed_build_is_not_kept(fake):
    fake.fail = {"k<int>"}
    for _ in range(2):  # each call tries again, and fails again
        with pytest.raises(RuntimeError, match="cannot compile"):
            kernels.function(("fam",), "k<int>", "code", NAMES)
    assert len(fake.programs) == 2 and not kernels._building
    fake.fail = set()
    assert kernels.function(("fam",), "k<int>", "code", NAMES) == ("kernel", "k<int>")


@pytest.mark.parametrize("workers", [1, 4])
def test_compile_all_runs_every_job_on_the_callers_device(fake, workers):
    seen, done = [], []

    def compile(job):
        seen.append((job, fake.dev))
        time.sleep(0.01)
        return job * 10
    with fake.cuda.Device(3):
        out = kernels.compile_all(range(7), workers=workers, compile=compile,
                                  progress=lambda j, r: done.append((j, r)))
    assert out == [j * 10 for j in range(7)]  # in job order
    assert sorted(seen) == [(j, 3) for j in range(7)]
    assert sorted(done) == [(j, j * 10) for j in range(7)]


def test_compile_all_raises_the_first_error_after_the_others(fake):
    ran = []

    def compile(job):
        if job == 2:
            raise RuntimeError("job 2")
        ran.append(job)
        return job
    with pytest.raises(RuntimeError, match="job 2"):
        kernels.compile_all(range(6), workers=3, compile=compile)
    assert sorted(ran) == [0, 1, 3, 4, 5]


def test_kernel_jobs_cover_every_registered_instantiation():
    jobs = kernels.kernel_jobs()
    assert len(jobs) == sum(len(set(names)) for _, _, names in kernels.instantiations())
    assert len(set((f, lab, n) for f, lab, _, n in jobs)) == len(jobs)  # each once
    # the traversal program is registered as its launcher compiles it: the cooperative kernels
    # with their options, the others without
    grid = {n for f, _, _, n in jobs if f == "traversal_grid"}
    block = {n for f, _, _, n in jobs if f == "traversal"}
    assert grid == set(_gtrav.grid_kernel_names()) and not grid & block
    assert grid | block == set(_gtrav.kernel_names())
    assert kernels.compile_kw("traversal_grid") == {
        "options": _gtrav.GRID_OPTIONS, "enable_cooperative_groups": True}
    assert kernels.compile_kw("spmv") == {}


def test_compile_job_compiles_as_the_launch_does(fake):
    job = next(j for j in kernels.kernel_jobs(["traversal_grid"]) if j[3] == "bfs_grid<int, 0>")
    kernels.compile_job(job)
    assert fake.programs == [(("bfs_grid<int, 0>",), _gtrav.GRID_OPTIONS,
                              {"enable_cooperative_groups": True})]
    # the launcher's own lookup builds the same program (the same CuPy cache key)
    monkey_fn = kernels.function(("traverse_grid", _gtrav.GRID_OPTIONS), "bfs_grid<int, 0>",
                                 _gtrav.source, _gtrav.grid_kernel_names,
                                 options=_gtrav.GRID_OPTIONS, compile=False,
                                 enable_cooperative_groups=True)
    assert monkey_fn == ("kernel", "bfs_grid<int, 0>")
    assert fake.programs[1] == fake.programs[0]


def test_default_warmup_holds_the_first_calls_kernels():
    names = {n for _, _, _, n in warmup.jobs()}
    for dt in (np.float32, np.float64):
        for it in (np.int32, np.int64):
            for xf in (False, True):
                assert _gspmv.kernel_name("spmv_pull", sr.min_plus, dt, it, xf) in names
            assert _gspmv.kernel_name("spmspv_atomic", sr.any_secondi, dt, it) in names
    assert set(_gtrav.kernel_names()) <= names  # every BFS / SSSP kernel
    everything = warmup.jobs(everything=True)
    assert names < {n for _, _, _, n in everything}
    # a domain outside the common ones is left to --all / --dtype
    assert _gspmv.kernel_name("spmv_pull", sr.min_plus, np.int32, np.int32, False) not in names
    ints = {n for _, _, _, n in warmup.jobs(semirings=["min_plus"], dtypes=["int32"])}
    assert _gspmv.kernel_name("spmv_pull", sr.min_plus, np.int32, np.int32, False) in ints


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "semiring.warmup", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env)


def test_cli_list():
    r = _cli("--list", "--family", "traversal_grid")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(_gtrav.grid_kernel_names()) == int(r.stderr.split()[0])
    assert lines[0].split("\t")[:2] == ["traversal_grid", "traversal_grid"]
    r = _cli("--list", "--all")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == len(kernels.kernel_jobs())


@pytest.mark.parametrize("args, message", [
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--all", "--dtype", "float32"], "--all compiles every semiring"),
    (["--semiring", "min_pluss"], "unknown semiring 'min_pluss'"),
    (["--family", "nosuch"], "invalid choice"),
    (["--dtype", "float16"], "invalid choice"),
])
def test_cli_bad_arguments(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        warmup.main(args)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_cli_without_a_gpu(monkeypatch, capsys):
    monkeypatch.setattr(warmup, "_cupy", lambda: None)
    assert warmup.main(["-q"]) == 1
    err = capsys.readouterr().err
    assert "nothing compiled: CuPy is not installed" in err and "cuda12" in err

    class NoDevice:
        class cuda:
            class runtime:
                @staticmethod
                def getDeviceCount():
                    raise RuntimeError("cudaErrorNoDevice")
    monkeypatch.setattr(warmup, "_cupy", lambda: NoDevice)
    assert warmup.main([]) == 1
    assert "no CUDA device answers (RuntimeError: cudaErrorNoDevice)" in capsys.readouterr().err


def test_plain_counter_without_tqdm(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    tick, close = warmup._progress(3, quiet=False)
    for j in range(3):
        tick(j, 0.1)
    close()
    assert "3/3 kernels" in capsys.readouterr().err


@pytest.mark.parametrize("executor", ["thread", "process"])
def test_warmup_compiles_on_the_gpu(device, executor, capsys):
    if device != "gpu":
        pytest.skip("compiles for a GPU")
    assert warmup.main(["--family", "traversal_grid", "--executor", executor, "-j", "2",
                        "-q"]) == 0
    assert "compiled 16 kernels" in capsys.readouterr().err
    # the launcher then finds the kernel in the cache
    f, blocks = _gtrav.grid_function("bfs_grid<int, 0>")
    assert blocks > 0 and f is not None


def test_prefetch_overlaps_and_the_launch_waits_for_it(fake):
    fake.delay = 0.1
    key = ("function", "fam", "k<int>")
    assert not kernels.cached(key)
    fut = kernels.prefetch(kernels.function, ("fam",), "k<int>", "code", NAMES)
    time.sleep(0.02)  # the background compile is under way
    f = kernels.function(("fam",), "k<int>", "code", NAMES)  # waits for it, builds nothing
    assert f == ("kernel", "k<int>") and fut.result() is f
    assert len(fake.programs) == 1 and kernels.cached(key)
    assert kernels.compile_log[0][3].startswith("sr-prefetch")


def test_prefetch_runs_on_the_callers_device(fake):
    with fake.cuda.Device(2):
        fut = kernels.prefetch(lambda: fake.dev)
    assert fut.result() == 2


def test_a_failed_prefetch_raises_at_the_launch(fake):
    fake.fail = {"k<int>"}
    fut = kernels.prefetch(kernels.function, ("fam",), "k<int>", "code", NAMES)
    with pytest.raises(RuntimeError, match="cannot compile"):
        fut.result()
    with pytest.raises(RuntimeError, match="cannot compile"):  # tried again, fails again
        kernels.function(("fam",), "k<int>", "code", NAMES)


@pytest.mark.parametrize("itype", [np.int32, np.int64])
def test_bincount_matches_numpy(device, itype):
    xp = sr.array_module(device)
    rng = np.random.default_rng(3)
    for n, m in [(0, 0), (5, 0), (1, 7), (50, 1000)]:
        x = rng.integers(0, max(n, 1), m).astype(itype) if n else np.zeros(0, dtype=itype)
        got = sr.device.bincount(xp.asarray(x), n)
        assert got.dtype == np.int64 and got.shape == (n,)
        assert np.array_equal(sr.device.bincount(x, n), np.bincount(x, minlength=n))
        assert np.array_equal(got.get() if device == "gpu" else got, np.bincount(x, minlength=n))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sssp_facts_without_nan_reductions(device, dtype):
    """algorithms.sssp reads NaN, the extremes and the method from min and max alone."""
    import scipy.sparse as sp  # noqa: PLC0415  (this test only)

    import algorithms  # noqa: PLC0415  (this test only)

    S = sp.csr_matrix(np.array([[0, 2, 0], [0, 0, 3], [1, 0, 0]], dtype=dtype))
    A = sr.Matrix.from_scipy(S, device=device)
    assert to_np(algorithms.sssp(A, 0)).tolist() == [0, 2, 5]
    for bad in (np.nan, -np.nan):
        S2 = S.copy()
        S2.data[1] = bad
        with pytest.raises(sr.InvalidValue, match="NaN weights"):
            algorithms.sssp(sr.Matrix.from_scipy(S2, device=device), 0)
    S3 = S.copy()
    S3.data[2] = -1  # a negative weight: Bellman-Ford
    assert to_np(algorithms.sssp(sr.Matrix.from_scipy(S3, device=device), 0)).tolist() == [0, 2, 5]


def to_np(a):
    return a.get() if hasattr(a, "get") else np.asarray(a)


@pytest.mark.parametrize("dtype", ["bool", "float32", "float64", "int64"])
def test_exercise_runs_the_first_call_steps(device, dtype):
    steps = 12 + (6 if dtype.startswith("float") else 0) + (2 if device == "gpu" else 0)
    assert warmup.exercise(dtype, device=device) == steps


def test_any_true_matches_numpy(device):
    xp = sr.array_module(device)
    rng = np.random.default_rng(4)
    for a in (np.zeros(0, dtype=bool), np.zeros(7, dtype=bool), rng.random(1000) < 0.001,
              np.eye(3, dtype=bool)):
        assert sr.device.any_true(xp.asarray(a)) is bool(a.any())


def _fake_gpu(monkeypatch, fake):
    fake.cuda.runtime.getDeviceCount = lambda: 1
    fake.cuda.runtime.getDeviceProperties = lambda d: {"name": b"Fake GPU"}
    monkeypatch.setattr(warmup, "_cupy", lambda: fake)


def test_cli_compiles_each_kernel_as_its_launch_does(fake, monkeypatch, capsys):
    _fake_gpu(monkeypatch, fake)
    assert warmup.main(["--family", "traversal_grid", "--family", "fold", "--executor",
                        "thread", "-j", "3", "-q"]) == 0
    err = capsys.readouterr().err
    nfold = sum(1 for f, *_ in warmup.jobs(families=["fold"]))
    ngrid = len(_gtrav.grid_kernel_names())
    assert f"{ngrid + nfold} kernels for GPU 0 (Fake GPU), 3 threads" in err
    assert f"compiled {ngrid + nfold} kernels" in err
    grid = [p for p in fake.programs if p[2]]
    assert sorted(p[0][0] for p in grid) == sorted(_gtrav.grid_kernel_names())
    assert all(p[2] == {"enable_cooperative_groups": True} and p[1] == _gtrav.GRID_OPTIONS
               for p in grid)
    assert all(len(p[0]) == 1 for p in fake.programs)  # a program per kernel
    assert len(fake.programs) == ngrid + nfold


def test_cli_reports_kernels_that_fail_and_exits_1(fake, monkeypatch, capsys):
    _fake_gpu(monkeypatch, fake)
    fake.fail = {"bfs_grid<int, 1>"}
    assert warmup.main(["--family", "traversal_grid", "--executor", "thread", "-j", "2",
                        "-q"]) == 1
    err = capsys.readouterr().err
    ngrid = len(_gtrav.grid_kernel_names())
    assert f"compiled {ngrid - 1} kernels" in err and "1 kernels failed to compile" in err
    assert "traversal_grid traversal_grid bfs_grid<int, 1>: cannot compile" in err


def test_every_family_label_names_a_semiring():
    """The default set filters the per-semiring families by their labels
    ("[<family>_]<semiring>[<dtype>]"): each such label must name a built-in semiring."""
    labels = {lab for _, lab, _, _ in kernels.kernel_jobs() if lab.endswith("]")}
    assert labels
    for lab in labels:
        assert warmup.label_semiring(lab[:lab.index("[")]) is not None, lab
    assert warmup.label_semiring("spgemm_min_plus") == "min_plus"
    assert warmup.label_semiring("dense_min_plus_sat") == "min_plus_sat"
    assert warmup.label_semiring("foo_bar") is None
