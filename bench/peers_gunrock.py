"""Gunrock (its ``essentials`` C++/CUDA library, github.com/gunrock/essentials) as an optional
same-hardware GPU peer of ``python -m bench``: its example programs ``bfs``, ``sssp``, ``pr``
and ``tc`` run on the case's graph, on the GPU this process uses.

Configure it with ``python -m bench --gunrock PATH`` or ``SEMIRING_BENCH_GUNROCK=PATH``, PATH a
folder holding the built examples (the executables ``bfs``, ``sssp``, ``pr``, ``tc``; how to
build them offline: bench/README.md, "Gunrock"). The ``gunrock`` impl is registered in the
``bfs``, ``sssp``, ``pagerank`` and ``tc`` cases (GPU runs only); without a path, or where an
executable is missing or fails, it is reported *unavailable* with the reason (not a failure).

What runs:

- The case's graph is written once per graph (and source) as the examples' binary CSR
  (``csr_t::read_binary``: int32 rows, int32 columns, int32 nonzeros, int32 offsets[n+1],
  int32 column indices, float32 values; :func:`write_binary_csr`) under
  ``bench/cache/gunrock/graphs/`` (``SEMIRING_BENCH_GUNROCK_CACHE`` moves it). The examples read
  ``.mtx`` too, but parsing text costs seconds a process on a 2^20-vertex graph.
- ``bfs`` and ``sssp`` always start at vertex 0: the file has the case's source and vertex 0
  swapped (:func:`swap_labels`), and the result is swapped back. ``sssp`` reads the graph's
  weights (float32 sums of integers: exact); ``bfs``, ``pr`` and ``tc`` read a copy whose
  values are all 1 (``pr`` weighs its transitions by the values).
- ``pr``: Gunrock's push PageRank (damping 0.85, uniform teleport, dangling rank spread
  uniformly): with unit values, NetworkX's definition, the bench's ``ranks`` reference. It stops
  when the largest change of a rank falls below ``tol`` (L-infinity), not at an L1 change as the
  other impls: the peer passes ``tol`` = :func:`pr_tolerance`: ``PR_TOL / n`` (which implies an
  L1 change below ``PR_TOL``, the other impls' rule) floored at :data:`PR_TOL_FLOOR`, since
  float32 ranks summed by atomics in varying order never meet a much smaller one: on kron-18
  (H100, 2026-11-25) ``tol`` 1e-10 and 1e-4/n = 3.8e-10 ran past 6 s (the run was stopped),
  1e-9 took 12-18 ms, 1e-8 7.5-8.3 ms, 1e-6 (the example's default) 4.4-4.8 ms, with an L1
  distance to the float64 reference of 3.9e-7, 6.6e-7 and 6.4e-5. The iterations are capped
  at :data:`PR_MAX_ITER` (the bench's cap; a hook in ``pr.hxx``) and reported in the check.
- ``tc -r``: Gunrock's intersection count over the edges (u, v), u < v; its per-vertex counts
  count a triangle at each of its three corners, so the triangle count is their total / 3.
  ``--validate`` (Gunrock's serial CPU count) is passed up to :data:`TC_VALIDATE_MAX_WORK`.

Trials: ``bench/gunrock-examples-bench.patch`` (applied with the CUDA 13 patch before building)
adds environment hooks to the four examples: ``GUNROCK_BENCH_TRIALS=k`` runs the algorithm k
times in one process and prints ``GPU Trial Time : X (ms)`` for each, ``GUNROCK_BENCH_DUMP``
writes the last trial's result vector, ``GUNROCK_BENCH_PR_TOL`` sets ``pr``'s tolerance and
``GUNROCK_BENCH_PR_MAX_ITER`` caps its iterations (in ``pr.hxx``'s ``is_converged``, which then
prints ``PR Iterations : N``). With them, one process runs one warm-up trial and :data:`TRIALS` timed ones (the median is the
time). Examples built without the patch (detected by the absent ``GPU Trial Time`` string in
the executable) run one process per trial and report the median of their ``GPU Elapsed Time``
lines (a first call in a fresh process: cold caches and first-launch costs included; and
``sssp``'s own line is already the mean of 5 calls); their results cannot be read back, so the
check is then Gunrock's own error count only (bfs, sssp; none for pr and tc: unchecked is a
mismatch).

Times are Gunrock's own: CUDA events on its stream around the enactor's loop (the problem's
allocation and initialization outside; ``tc`` adds its host-timed final reduction). The
processes run with ``CUDA_MODULE_LOADING=EAGER`` (kernels loaded at start-up, not inside the
first timed trial). Checks: the result read back (levels, distances, ranks, per-vertex counts'
total / 3) against the case's reference with the case's comparison, and Gunrock's own error
count against its CPU code (``Number of errors``: bfs, sssp, tc with ``--validate``) must be 0.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import cases as C
from . import generators as gen
from .timing import Timing

#: The environment variable naming the folder of built examples (as ``--gunrock PATH``).
ENV_VAR = "SEMIRING_BENCH_GUNROCK"
#: bench algorithm -> Gunrock example.
EXAMPLES = {"bfs": "bfs", "sssp": "sssp", "pagerank": "pr", "tc": "tc"}
#: Timed trials (after one warm-up trial), unless ``SEMIRING_BENCH_GUNROCK_TRIALS`` says.
TRIALS = 5
#: One Gunrock process's time limit (seconds).
RUN_TIMEOUT_S = 300
#: PageRank (the bench's, bench/analytics_case.py): damping is fixed at 0.85 in pr.cu.
PR_DAMPING = 0.85
PR_TOL = 1e-4
PR_MAX_ITER = 100
#: The smallest L-infinity tolerance passed to ``pr`` (float32 ranks, atomic sums: see the
#: module docstring for the measurements).
PR_TOL_FLOOR = 1e-8
#: Gunrock's TC ``--validate`` (serial, sum of squared degrees steps) is off above this.
TC_VALIDATE_MAX_WORK = 10**9
#: The string the bench hooks print (bench/gunrock-examples-bench.patch).
TRIAL_MARK = b"GPU Trial Time"

_state: dict = {"dir": None}


class GunrockUnavailable(C.Unavailable):
    pass


# --------------------------------------------------------------------------------------------
# configuration


def configure(path: str | os.PathLike | None) -> None:
    """Use the Gunrock examples built in the folder ``path`` (None: none; the ``gunrock`` impls
    then report themselves unavailable)."""
    _state["dir"] = None if path is None else Path(path).expanduser().resolve()


def configured() -> Path | None:
    return _state["dir"]


def cache_root() -> Path:
    return Path(os.environ.get("SEMIRING_BENCH_GUNROCK_CACHE",
                               gen.DEFAULT_CACHE_DIR / "gunrock"))


def executable(example: str) -> Path:
    """The built example ``example``; raises :class:`GunrockUnavailable` with the reason."""
    d = _state["dir"]
    if d is None:
        raise GunrockUnavailable(f"Gunrock not configured: pass --gunrock PATH (a folder with "
                                 f"its built examples bfs, sssp, pr, tc) or set {ENV_VAR}")
    exe = d / example
    if not exe.is_file():
        raise GunrockUnavailable(f"Gunrock: no executable {example!r} in {d}")
    if not os.access(exe, os.X_OK):
        raise GunrockUnavailable(f"Gunrock: {exe} is not executable")
    return exe


def has_bench_hooks(exe: Path) -> bool:
    """Whether ``exe`` was built with bench/gunrock-examples-bench.patch (its trial lines)."""
    with open(exe, "rb") as f:
        return TRIAL_MARK in f.read()


def status() -> str:
    """One line: Gunrock's configuration (for the run's notes)."""
    d = _state["dir"]
    if d is None:
        return f"Gunrock peer: not configured (--gunrock PATH or {ENV_VAR})"
    found = []
    for ex in EXAMPLES.values():
        try:
            exe = executable(ex)
        except GunrockUnavailable:
            continue
        found.append(ex + ("" if has_bench_hooks(exe) else " (no bench hooks)"))
    missing = [ex for ex in EXAMPLES.values() if not any(f.split()[0] == ex for f in found)]
    return (f"Gunrock peer: {d}: " + (", ".join(found) if found else "no examples")
            + (f"; missing: {', '.join(missing)}" if missing else ""))


# --------------------------------------------------------------------------------------------
# the examples' binary CSR (formats/csr.hxx, csr_t::read_binary; vertex_t = edge_t = 4 bytes,
# weight_t = float in bfs, sssp, pr and tc)


def write_binary_csr(path, indptr, indices, data) -> Path:
    """Write a CSR as Gunrock's ``.csr``: int32 n_rows, n_cols, nnz; int32 offsets[n+1],
    int32 indices[nnz], float32 values[nnz] (square: n_cols = n_rows)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = len(indptr) - 1
    m = int(indptr[-1]) if n >= 0 and len(indptr) else 0
    if m > np.iinfo(np.int32).max or n > np.iinfo(np.int32).max:
        raise GunrockUnavailable(f"Gunrock's examples index with int32: {n} vertices, {m} "
                                 f"stored entries do not fit")
    if len(indices) != m or len(data) != m:
        raise ValueError(f"write_binary_csr: indices ({len(indices)}) and data ({len(data)}) "
                         f"must have indptr[-1] = {m} entries")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        np.array([n, n, m], dtype=np.int32).tofile(f)
        np.asarray(indptr, dtype=np.int32).tofile(f)
        np.asarray(indices, dtype=np.int32).tofile(f)
        np.asarray(data, dtype=np.float32).tofile(f)
    os.replace(tmp, path)
    return path


def read_binary_csr(path):
    """Read Gunrock's ``.csr``: (n_rows, n_cols, indptr int32, indices int32, values float32)."""
    with open(path, "rb") as f:
        n, n_cols, m = (int(v) for v in np.fromfile(f, dtype=np.int32, count=3))
        indptr = np.fromfile(f, dtype=np.int32, count=n + 1)
        indices = np.fromfile(f, dtype=np.int32, count=m)
        values = np.fromfile(f, dtype=np.float32, count=m)
    if len(indptr) != n + 1 or len(indices) != m or len(values) != m:
        raise ValueError(f"read_binary_csr: {path} is truncated")
    return n, n_cols, indptr, indices, values


def swap_labels(n: int, source: int) -> np.ndarray:
    """The relabelling that swaps ``source`` and 0 (an involution: its own inverse):
    new vertex i is old vertex ``p[i]``."""
    p = np.arange(n, dtype=np.int64)
    if n:
        p[0], p[source] = source, 0
    return p


def permuted(H, p: np.ndarray):
    """``P H P^T`` for the relabelling ``p`` (new i = old p[i]), indices sorted."""
    B = H[p][:, p].tocsr()
    B.sort_indices()
    return B


def _graph_key(ctx: C.CaseContext) -> str:
    spec = ctx.graph.spec
    key = spec.cache_key() if hasattr(spec, "cache_key") else None
    return key or "g-" + hashlib.sha1(repr(spec.params()).encode()).hexdigest()[:12]


def graph_file(ctx: C.CaseContext, *, source: int = 0, weighted: bool) -> Path:
    """The case's graph as a ``.csr`` with ``source`` relabelled to 0 (made once per graph
    and source); values: the graph's weights, or all 1 without ``weighted``."""
    def make():
        H = ctx.graph.host
        if H.shape[0] != H.shape[1]:
            raise GunrockUnavailable(f"Gunrock's examples take a square graph, not {H.shape}")
        tag = f"{_graph_key(ctx)}-s{source}-{'w' if weighted else 'ones'}"
        path = cache_root() / "graphs" / f"{tag}.csr"
        if not path.exists():
            B = permuted(H, swap_labels(H.shape[0], source)) if source else H
            if not B.has_sorted_indices:
                B = B.sorted_indices()
            data = B.data if weighted else np.ones(B.nnz, dtype=np.float32)
            write_binary_csr(path, B.indptr, B.indices, data)
        return path

    return ctx.graph.get(f"gunrock:csr:{source}:{int(weighted)}", make)


# --------------------------------------------------------------------------------------------
# running an example and reading its output


@dataclass
class GunrockRun:
    example: str
    cmd: list
    trial_ms: list = field(default_factory=list)
    elapsed_ms: list = field(default_factory=list)  # "GPU Elapsed Time" lines (one a process)
    errors: list = field(default_factory=list)  # "Number of errors" lines
    total_triangles: int | None = None  # tc -r: the per-vertex counts' total (3 × triangles)
    pr_iterations: list = field(default_factory=list)  # pr: (iterations, largest change) a trial
    result: np.ndarray | None = None  # the result vector read back, original labels
    hooks: bool = True
    processes: int = 1
    note: str = ""
    stdout_tail: str = ""


def parse_output(text: str, run: GunrockRun) -> GunrockRun:
    """Parse an example's stdout into ``run`` (appends: one call a process)."""
    run.trial_ms += [float(x) for x in re.findall(r"^GPU Trial Time : (\S+) \(ms\)", text, re.M)]
    run.elapsed_ms += [float(x) for x in re.findall(r"^GPU Elapsed Time : (\S+) \(ms\)", text,
                                                   re.M)]
    run.errors += [int(x) for x in re.findall(r"^Number of errors : (\d+)", text, re.M)]
    tri = re.findall(r"^Total Graph Tr(?:ai|ia)ngles : (\d+)", text, re.M)
    if tri:
        run.total_triangles = int(tri[-1])
    run.pr_iterations += [(int(i), float(c)) for i, c in re.findall(
        r"^PR Iterations : (\d+) \(largest change (\S+)\)", text, re.M)]
    run.stdout_tail = text[-1500:]
    return run


def _env(extra: dict) -> dict:
    env = dict(os.environ)
    env.setdefault("CUDA_MODULE_LOADING", "EAGER")
    env.update(extra)
    return env


def run_example(example: str, args: list, *, trials: int, warmup: bool = True,
                dump_dtype=None, extra_env: dict | None = None) -> GunrockRun:
    """Run ``example`` with ``args``: with the bench hooks, one process of ``warmup + trials``
    trials (the last one's result vector read back as ``dump_dtype``); without, one process a
    trial. Raises RuntimeError on a failed or unparsable run."""
    exe = executable(example)
    hooks = has_bench_hooks(exe)
    cmd = [str(exe), *args]
    run = GunrockRun(example, cmd, hooks=hooks)
    extra = dict(extra_env or {})
    with tempfile.TemporaryDirectory(prefix="gunrock-") as tmp:
        dump = Path(tmp) / "result.bin"
        if hooks:
            extra["GUNROCK_BENCH_TRIALS"] = str(trials + int(warmup))
            if dump_dtype is not None:
                extra["GUNROCK_BENCH_DUMP"] = str(dump)
            procs = 1
        else:
            procs = trials + int(warmup)
        run.processes = procs
        for _ in range(procs):
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                                   env=_env(extra))
            except subprocess.TimeoutExpired as e:
                raise RuntimeError(f"Gunrock {example} ran past {RUN_TIMEOUT_S} s: "
                                   f"{' '.join(cmd)}") from e
            parse_output(p.stdout, run)
            if p.returncode != 0 or not run.elapsed_ms:
                raise RuntimeError(f"Gunrock {example} failed (exit {p.returncode}): "
                                   f"{(p.stdout + p.stderr)[-600:]}")
        if hooks and len(run.trial_ms) != trials + int(warmup):
            raise RuntimeError(f"Gunrock {example}: {len(run.trial_ms)} trial lines, expected "
                               f"{trials + int(warmup)}: {run.stdout_tail[-600:]}")
        if hooks and dump_dtype is not None:
            run.result = np.fromfile(dump, dtype=dump_dtype)
    return run


def _trials() -> int:
    v = os.environ.get("SEMIRING_BENCH_GUNROCK_TRIALS")
    return int(v) if v else TRIALS


def pr_tolerance(n: int) -> float:
    """``pr``'s L-infinity tolerance: PR_TOL / n (so the L1 change is below PR_TOL, the other
    impls' rule), floored at PR_TOL_FLOOR."""
    return max(PR_TOL / max(n, 1), PR_TOL_FLOOR)


class GunrockKernel:
    """The timed callable of a ``gunrock`` impl: Gunrock times itself (``self_timed``, used by
    :func:`bench.timing.measure`); the result read back is brought to the original labels."""

    def __init__(self, example: str, args: list, *, perm=None, dump_dtype=None,
                 extra_env=None, note: str = "", trials: int | None = None):
        self.example, self.args, self.perm = example, args, perm
        self.dump_dtype, self.extra_env, self.note = dump_dtype, extra_env, note
        self.trials = trials or _trials()

    def __call__(self) -> GunrockRun:
        try:  # give Gunrock the memory this process's CuPy pool keeps (the graph stays)
            import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

            cupy.get_default_memory_pool().free_all_blocks()
        except ImportError:
            pass
        run = run_example(self.example, self.args, trials=self.trials,
                          dump_dtype=self.dump_dtype, extra_env=self.extra_env)
        if run.result is not None and self.perm is not None:
            run.result = run.result[self.perm]  # new i = old perm[i]: old perm[i] = new i
        run.note = self.note
        return run

    def self_timed(self, policy=None):
        run = self()
        if run.hooks:
            warm, times = run.trial_ms[0], run.trial_ms[1:]
        else:
            warm, times = run.elapsed_ms[0], run.elapsed_ms[1:]
        return Timing(times_ms=list(times), warmup_ms=warm), run


# --------------------------------------------------------------------------------------------
# the "gunrock-*" references: the case's own reference, compared with its own rule, plus
# Gunrock's error count


def _to_levels(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v).astype(np.int64)
    return np.where(v == np.iinfo(np.int32).max, -1, v)


def _to_dist(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v).astype(np.float64)
    return np.where(v >= np.finfo(np.float32).max, np.inf, v)


def _tc_total(run: GunrockRun):
    if run.total_triangles is not None:
        return np.array([run.total_triangles // 3], dtype=np.int64), run.total_triangles % 3
    if run.result is not None:
        t = int(np.asarray(run.result, dtype=np.int64).sum())
        return np.array([t // 3], dtype=np.int64), t % 3
    return None, 0


def _compare(base: str, convert):
    def compare(got: GunrockRun, ref) -> tuple[bool, str]:
        if not isinstance(got, GunrockRun):
            return False, f"expected a Gunrock run, got {type(got).__name__}"
        bits = []
        ok = True
        if got.errors:
            bad = sum(e != 0 for e in got.errors)
            ok &= bad == 0
            bits.append(f"Gunrock's own check against its CPU code: Number of errors "
                        f"{', '.join(map(str, sorted(set(got.errors))))}"
                        + ("" if bad == 0 else " (nonzero: mismatch)"))
        value = convert(got)
        if value is None:
            if not got.errors:
                ok = False
                bits.append("nothing checked (examples built without the bench hooks write "
                            "no result)")
        else:
            good, msg = base_compare(base)(value, ref)
            ok &= good
            bits.append(f"result read back: {msg}")
        how = (f"{len(got.trial_ms)} trials in one process (the first a warm-up)" if got.hooks
               else f"{got.processes} processes, one trial each (the first a warm-up)")
        times = got.trial_ms if got.hooks else got.elapsed_ms
        bits.append(f"{how}: " + ", ".join(f"{t:.4g}" for t in times) + " ms")
        if got.pr_iterations:
            its = sorted({i for i, _ in got.pr_iterations})
            bits.append(f"PR iterations {', '.join(map(str, its))} (largest change at the end "
                        f"{max(c for _, c in got.pr_iterations):.3g})")
        if got.note:
            bits.append(got.note)
        return ok, "; ".join(bits)

    return compare


def base_compare(base: str):
    return _BASE[base][1]


def _levels(run):
    return None if run.result is None else _to_levels(run.result)


def _dist(run):
    return None if run.result is None else _to_dist(run.result)


def _ranks(run):
    return None if run.result is None else np.asarray(run.result, dtype=np.float64)


def _triangles(run):
    value, rest = _tc_total(run)
    if value is not None and rest:
        return np.array([-1], dtype=np.int64)  # a total not divisible by 3: wrong
    return value


def _analytics():
    from . import analytics_case as AC  # noqa: PLC0415  (analytics_case imports the registry that imports this module)

    return AC


# bench algorithm -> (its reference's name, comparison, conversion of a run)
_BASE: dict = {}


def _bases():
    if not _BASE:
        AC = _analytics()
        _BASE.update({
            "bfs": ("levels", C.compare_exact, _levels),
            "sssp": ("dist", C.compare_exact, _dist),
            "pagerank": ("ranks", AC.compare_l1(AC.PR_L1_TOL), _ranks),
            "tc": ("triangles", C.compare_exact, _triangles),
        })
    return _BASE


def _reference(alg_name: str) -> C.Reference:
    def compute(ctx):
        key = f"gunrock:ref:{alg_name}"
        if key not in ctx.memo:
            ctx.memo[key] = ctx.algorithm.references[_bases()[alg_name][0]].compute(ctx)
        return ctx.memo[key]

    def compare(got, ref):
        base = _bases()[alg_name]
        return _compare(alg_name, base[2])(got, ref)

    return C.Reference(f"gunrock-{alg_name}", "the case's reference, with Gunrock's own error "
                                              "count (must be 0)", compute, compare)


# --------------------------------------------------------------------------------------------
# impls


def _setup(alg_name: str):
    def setup(ctx: C.CaseContext):
        _bases()
        example = EXAMPLES[alg_name]
        executable(example)  # unavailable (with the reason) before writing any file
        n = ctx.graph.n
        if alg_name in ("bfs", "sssp"):
            source = int(ctx.inputs["source"])
            f = graph_file(ctx, source=source, weighted=alg_name == "sssp")
            dt = np.int32 if alg_name == "bfs" else np.float32
            return GunrockKernel(example, [str(f)], perm=swap_labels(n, source), dump_dtype=dt,
                                 note=f"source {source} relabelled to 0")
        if alg_name == "pagerank":
            f = graph_file(ctx, weighted=False)
            tol = pr_tolerance(n)
            return GunrockKernel("pr", [str(f)], dump_dtype=np.float32,
                                 extra_env={"GUNROCK_BENCH_PR_TOL": repr(tol),
                                            "GUNROCK_BENCH_PR_MAX_ITER": str(PR_MAX_ITER)},
                                 note=f"tol {tol:.3g} on the largest rank change, at most "
                                      f"{PR_MAX_ITER} iterations")
        if alg_name == "tc":
            if not ctx.graph.spec.undirected:
                raise GunrockUnavailable("Gunrock's tc counts an undirected graph")
            _analytics()._tc_check_reference(ctx)
            f = graph_file(ctx, weighted=False)
            deg = np.diff(ctx.graph.host.indptr).astype(np.float64)
            work = float((deg * deg).sum())
            args = ["-m", str(f), "-r"]
            note = "total of the per-vertex counts / 3"
            if work <= TC_VALIDATE_MAX_WORK:
                args.append("--validate")
            else:
                note += (f"; Gunrock's serial --validate off (~{work:.2g} steps > "
                         f"{TC_VALIDATE_MAX_WORK:.0e})")
            return GunrockKernel("tc", args, dump_dtype=np.uint32, note=note)
        raise KeyError(alg_name)

    return setup


def _fetch(run: GunrockRun) -> GunrockRun:
    return run


def _with_ratios(summary, engine_impls):
    """Wrap an algorithm's summary: add ``<engine impl>_vs_gunrock`` (time(gunrock) /
    time(engine): above 1, the engine is faster)."""
    def wrapped(ctx, results):
        s = dict(summary(ctx, results)) if summary is not None else {}
        g = results.get("gunrock")
        if g is None or g.status != "ok" or not g.timing.times_ms:
            return s
        for name in engine_impls:
            r = results.get(name)
            if r is not None and r.status == "ok" and r.timing.times_ms:
                s[f"{name.replace('-', '_')}_vs_gunrock"] = (g.timing.median_ms
                                                             / r.timing.median_ms)
        return s

    return wrapped


DESCRIPTION = {
    "bfs": "Gunrock essentials bfs example (its source relabelled to 0); Gunrock's own GPU "
           "times, median of the trials",
    "sssp": "Gunrock essentials sssp example (source relabelled to 0, float32 weights)",
    "pagerank": "Gunrock essentials pr example (push, NetworkX's definition with unit weights; "
                "stops on the largest rank change < max(1e-4/n, 1e-8), 100 iterations at most)",
    "tc": "Gunrock essentials tc -r example (intersections over u < v; per-vertex total / 3)",
}

_saved_summaries: dict = {}


def register() -> None:
    """Add the ``gunrock`` impl (GPU) and its reference to bfs, sssp, pagerank and tc;
    idempotent. Without a configured folder the impl reports itself unavailable."""
    for name in EXAMPLES:
        alg = C.ALGORITHMS.get(name)
        if alg is None or any(i.name == "gunrock" for i in alg.impls):
            continue
        ref = _reference(name)
        alg.references[ref.name] = ref
        C.add_impl(name, C.Impl("gunrock", "gpu", ref.name, _setup(name), fetch=_fetch,
                                description=DESCRIPTION[name]))
        engine = [i.name for i in alg.impls if i.engine and i.device == "gpu"]
        _saved_summaries[name] = alg.summary
        alg.summary = _with_ratios(alg.summary, engine)


def unregister() -> None:
    """Remove what :func:`register` added."""
    for name in EXAMPLES:
        alg = C.ALGORITHMS.get(name)
        if alg is None or not any(i.name == "gunrock" for i in alg.impls):
            continue
        alg.impls = [i for i in alg.impls if i.name != "gunrock"]
        alg.references.pop(f"gunrock-{name}", None)
        alg.summary = _saved_summaries.pop(name, alg.summary)


register()
if os.environ.get(ENV_VAR):
    configure(os.environ[ENV_VAR])
