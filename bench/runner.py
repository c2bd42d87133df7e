"""Run a suite: graphs one at a time, every implementation on the same graph in this process.

For each graph (generated on the device of the run, or read from the cache) and each case on
it: make the inputs on the host, compute the references the selected impls need (untimed),
then for each impl: set it up (untimed), warm up, time (CUDA events / perf_counter), bring the
last timed result to the host and compare it with its reference. A disagreement is printed
loudly to stderr and makes the exit code 1; an impl that raises makes it 2 (unless there is
also a disagreement). Impls whose optional dependency is missing are reported as
"unavailable" and do not fail the run.
"""

from __future__ import annotations

import gc
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from . import cases as C
from . import generators as gen
from . import metrics as met
from . import report
from .timing import Timing, TimingPolicy, measure

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_ERROR = 2

#: Where a run writes its report by default: an ignored folder, so the checkout stays clean.
#: ``bench/results/`` keeps ``latest.*`` and the runs the README cites (copy one there by hand).
DEFAULT_OUT = Path(__file__).resolve().parent / "out"


class UsageError(Exception):
    """Bad arguments: unknown suite/algorithm/impl/graph, no cases, no GPU for device='gpu'."""


@dataclass
class ImplResult:
    impl: str
    device: str
    reference: str
    engine: bool
    status: str  # ok | mismatch | error | skipped | unavailable
    timing: Timing = field(default_factory=Timing)
    metrics: dict = field(default_factory=dict)
    check: str = ""
    error: str = ""
    setup_s: float | None = None


@dataclass
class CaseResult:
    case: C.Case
    graph: dict
    params: dict
    case_metrics: dict
    results: list[ImplResult]
    references: dict  # name -> {description, seconds}
    ratios: dict
    summary: dict
    error: str = ""
    seconds: float = 0.0  # the case's wall time: references, setups, warm-ups, timed runs


@dataclass
class RunResult:
    suite: str
    device: str
    env: dict
    cases: list[CaseResult]
    started: str
    seconds: float
    exit_code: int
    notes: list[str] = field(default_factory=list)
    files: dict = field(default_factory=dict)

    def failures(self) -> list[tuple[str, ImplResult]]:
        out = []
        for c in self.cases:
            for r in c.results:
                if r.status in ("mismatch", "error"):
                    out.append((c.case.case_id, r))
        return out


# --------------------------------------------------------------------------------------------
# device


def resolve_device(device: str) -> tuple[str, str]:
    """('gpu'|'cpu', a sentence saying why)."""
    if device not in ("auto", "cpu", "gpu"):
        raise UsageError(f"--device: expected auto, cpu or gpu, got {device!r}")
    if device == "cpu":
        return "cpu", "CPU run requested (--device cpu): GPU implementations are not run"
    cp = gen.cupy_if_available()
    if cp is not None:
        name = met.gpu_info().get("gpu_name", "a CUDA device")
        why = "requested" if device == "gpu" else "a GPU answered"
        return "gpu", f"GPU run ({why}: {name})"
    if device == "gpu":
        raise UsageError("--device gpu: no GPU answers (CuPy missing or no CUDA device)")
    return "cpu", "no GPU answers (CuPy missing or no CUDA device): CPU suite, CPU implementations only"


def _free_gpu_memory() -> None:
    gc.collect()
    try:
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        cupy.get_default_memory_pool().free_all_blocks()
        cupy.get_default_pinned_memory_pool().free_all_blocks()
    except Exception:
        pass


# --------------------------------------------------------------------------------------------
# progress


class _Progress:
    """A tqdm bar on an interactive stderr; otherwise (logs) one line per implementation run,
    with its median time and status, so that a run cut off by a time limit still leaves the
    figures of the runs it finished; or nothing."""

    def __init__(self, total: int, enabled: bool, stream):
        self.bar = None
        self.enabled = enabled
        self.done = 0
        self.total = total
        self.last_case = None
        if enabled and getattr(sys.stderr, "isatty", lambda: False)():
            try:
                from tqdm import tqdm  # noqa: PLC0415  (tqdm is optional (progress bars))

                self.bar = tqdm(total=total, unit="run", file=sys.stderr, leave=False,
                                dynamic_ncols=True)
            except Exception:  # tqdm is optional (the bench extra)
                self.bar = None

    def step(self, case_id: str, impl: str, result: ImplResult | None = None) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.set_description_str(f"{case_id} {impl}"[:60])
            self.bar.update(1)
        elif self.enabled:
            what = ""
            if result is not None:
                what = f": {result.status}"
                if result.timing is not None and result.timing.times_ms:
                    what = f": {result.timing.median_ms:.4g} ms {result.status}"
            print(f"[{self.done}/{self.total}] {case_id} {impl}{what}", file=sys.stderr,
                  flush=True)
        self.last_case = case_id

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# --------------------------------------------------------------------------------------------
# the run


def _load_graph(spec: gen.GraphSpec, device: str, cache_dir) -> C.GraphData:
    info = gen.CacheInfo()
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        Ad = gen.make_graph(spec, xp=cupy, cache_dir=cache_dir, info=info)
        H = gen.build_csr(Ad.indptr.get(), Ad.indices.get(), Ad.data.get(), Ad.shape, xp=np)
        g = C.GraphData(spec, H, device_csr=Ad)
    else:
        H = gen.make_graph(spec, xp=np, cache_dir=cache_dir, info=info)
        g = C.GraphData(spec, H)
    g.stats = gen.degree_stats(g.host)
    g.load_info = {"cache_hit": info.hit, "load_seconds": round(info.seconds, 3)}
    return g


def _select_impls(alg: C.Algorithm, device: str, names: set[str] | None) -> list[C.Impl]:
    out = []
    for impl in alg.impls:
        if names is not None and impl.name not in names:
            continue
        if impl.device == "gpu" and device != "gpu":
            continue
        out.append(impl)
    return out


def _run_impl(ctx: C.CaseContext, impl: C.Impl, refs: dict, policy: TimingPolicy,
              skip_reason: str | None) -> ImplResult:
    res = ImplResult(impl.name, impl.device, impl.reference, impl.engine, "ok")
    if skip_reason:
        res.status = "skipped"
        res.check = skip_reason
        return res
    try:
        t0 = time.perf_counter()
        fn = impl.setup(ctx)
        if impl.device == "gpu":
            import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

            cupy.cuda.get_current_stream().synchronize()
        res.setup_s = time.perf_counter() - t0
        timing, out = measure(fn, impl.device, policy)
        res.timing = timing
        got = impl.fetch(out)
        del out, fn
    except C.Unavailable as e:
        res.status = "unavailable"
        res.check = str(e)
        return res
    except Exception as e:  # reported, the run goes on
        res.status = "error"
        res.error = f"{type(e).__name__}: {e}"
        res.check = traceback.format_exc(limit=6)
        return res
    ref_name = impl.reference
    if refs.get(ref_name) is None:
        res.status = "error"
        res.error = f"reference {ref_name!r} could not be computed"
        return res
    ok, msg = ctx.algorithm.references[ref_name].compare(got, refs[ref_name])
    res.check = f"vs {ref_name}: {msg}"
    res.status = "ok" if ok else "mismatch"
    seconds = timing.median_ms / 1e3
    try:
        res.metrics = ctx.algorithm.impl_metrics(ctx, impl, seconds)
    except Exception as e:
        res.metrics = {"metrics_error": f"{type(e).__name__}: {e}"}
    return res


def run(suite: str = "quick", device: str = "auto", *, algorithms: list[str] | None = None,
        graphs: list[str] | None = None, impls: list[str] | None = None,
        out: str | Path | None = DEFAULT_OUT, seed: int = 0,
        cache_dir: str | Path | None = gen.DEFAULT_CACHE_DIR, plots: bool = True,
        progress: bool = True, timing: TimingPolicy | None = None, stream=None,
        extra_impls: Iterable[tuple[str, C.Impl]] = ()) -> RunResult:
    """Run a suite and write its report; see :func:`bench.__main__.main` for the options.

    ``extra_impls``: (algorithm, Impl) pairs added for this run only (tests use it to plant a
    wrong implementation).
    """
    stream = stream or sys.stdout
    started = time.time()
    dev, why = resolve_device(device)
    try:
        suite_obj = C.get_suite(suite, dev)
        cases = C.expand_suite(suite_obj, algorithms=algorithms, graphs=graphs, seed=seed)
    except (KeyError, ValueError) as e:
        raise UsageError(e.args[0] if e.args else str(e)) from None
    policy = timing  # None: the suite's policy for each impl's device
    if not cases:
        raise UsageError("no cases selected (check --algorithms/--graphs)")
    extra: dict[str, list[C.Impl]] = {}
    for alg_name, impl in extra_impls:
        extra.setdefault(alg_name, []).append(impl)
    names = set(impls) if impls else None
    if names is not None:
        known = {i.name for a in C.ALGORITHMS.values() for i in a.impls}
        known |= {i.name for lst in extra.values() for i in lst}
        unknown = names - known
        if unknown:
            raise UsageError(f"unknown impl(s) {sorted(unknown)}; known: {sorted(known)}")
    print(f"semiring bench: suite {suite!r} on {dev.upper()} — {why}", file=stream)
    shown = policy or suite_obj.timing
    print(f"  {len(cases)} cases; timing: {shown.warmup} warm-up, median of "
          f"{shown.min_runs}..{shown.max_runs} runs", file=stream, flush=True)
    env = met.environment(dev == "gpu")

    # group cases by graph, keeping the suite's order of first appearance
    order: list[gen.GraphSpec] = []
    by_graph: dict[gen.GraphSpec, list[C.Case]] = {}
    for c in cases:
        if c.graph not in by_graph:
            order.append(c.graph)
            by_graph[c.graph] = []
        by_graph[c.graph].append(c)

    def impls_of(alg_name: str) -> list[C.Impl]:
        alg = C.ALGORITHMS[alg_name]
        lst = _select_impls(alg, dev, names)
        lst += [i for i in extra.get(alg_name, []) if (names is None or i.name in names)
                and (i.device == "cpu" or dev == "gpu")]
        return lst

    total = sum(len(impls_of(c.algorithm)) for c in cases)
    prog = _Progress(total, progress, stream)
    results: list[CaseResult] = []
    notes: list[str] = [why]
    try:
        for spec in order:
            try:
                graph = _load_graph(spec, dev, cache_dir)
            except Exception as e:
                msg = f"{type(e).__name__}: {e}"
                for c in by_graph[spec]:
                    results.append(CaseResult(c, spec.params(), c.params_dict, {}, [
                        ImplResult(i.name, i.device, i.reference, i.engine, "error", error=
                                   f"graph generation failed: {msg}")
                        for i in impls_of(c.algorithm)], {}, {}, {}, error=msg))
                    for _ in impls_of(c.algorithm):
                        prog.step(c.case_id, "(graph failed)")
                continue
            for c in by_graph[spec]:
                results.append(_run_case(c, graph, env, impls_of(c.algorithm), policy,
                                         suite_obj, seed, prog))
            del graph
            _free_gpu_memory()
    finally:
        prog.close()

    run_result = RunResult(suite, dev, env, results,
                           time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
                           time.time() - started, EXIT_OK, notes)
    fails = run_result.failures()
    if any(r.status == "mismatch" for _, r in fails):
        run_result.exit_code = EXIT_MISMATCH
    elif fails:
        run_result.exit_code = EXIT_ERROR

    print(report.console_table(run_result), file=stream)
    for case_id, r in fails:
        label = "DISAGREEMENT" if r.status == "mismatch" else "ERROR"
        print(f"!!! {label}: {case_id} impl {r.impl}: {r.error or r.check}", file=sys.stderr)
    if out is not None:
        run_result.files = report.write_all(run_result, Path(out), plots=plots)
        for kind, path in run_result.files.items():
            print(f"  wrote {kind}: {path}", file=stream)
    print(f"done in {run_result.seconds:.1f} s, exit code {run_result.exit_code}", file=stream,
          flush=True)
    return run_result


def _run_case(case: C.Case, graph: C.GraphData, env: dict, impls: list[C.Impl],
              policy: TimingPolicy | None, suite: C.Suite, seed: int, prog: _Progress) -> CaseResult:
    alg = C.ALGORITHMS[case.algorithm]
    t_case = time.perf_counter()
    ctx = C.CaseContext(alg, graph, case.params_dict, seed, env)
    try:
        alg.prepare(ctx)
    except Exception as e:
        msg = f"prepare failed: {type(e).__name__}: {e}"
        for i in impls:
            prog.step(case.case_id, "(prepare failed)")
        return CaseResult(case, graph.describe(), case.params_dict, {}, [
            ImplResult(i.name, i.device, i.reference, i.engine, "error", error=msg)
            for i in impls], {}, {}, {}, error=msg)
    refs: dict[str, Any] = {}
    ref_info: dict[str, dict] = {}
    for name in sorted({i.reference for i in impls}):
        ref = alg.references[name]
        t0 = time.perf_counter()
        try:
            refs[name] = ref.compute(ctx)
            ref_info[name] = {"description": ref.description,
                              "seconds": round(time.perf_counter() - t0, 4)}
        except Exception as e:
            refs[name] = None
            ref_info[name] = {"description": ref.description,
                              "error": f"{type(e).__name__}: {e}"}
    out: list[ImplResult] = []
    for impl in impls:
        skip = None
        if (impl.device == "cpu" and suite.cpu_impl_max_nnz is not None
                and graph.nnz > suite.cpu_impl_max_nnz):
            skip = (f"CPU impl skipped: nnz {graph.nnz} > {suite.cpu_impl_max_nnz} "
                    f"(suite {suite.name!r} limit)")
        r = _run_impl(ctx, impl, refs, policy or suite.policy(impl.device), skip)
        if impl.device == "gpu":
            _free_gpu_memory()
        out.append(r)
        prog.step(case.case_id, impl.name, r)
        if r.status == "mismatch":
            print(f"\n!!! DISAGREEMENT {case.case_id}: {impl.name} {r.check}", file=sys.stderr,
                  flush=True)
    by_name = {r.impl: r for r in out}
    times = {r.impl: r.timing.median_ms for r in out if r.status == "ok"}
    ratios = met.ratio_matrix(times)
    summary = {}
    if alg.summary is not None:
        try:
            summary = alg.summary(ctx, by_name)
        except Exception as e:
            summary = {"summary_error": f"{type(e).__name__}: {e}"}
    res = CaseResult(case, graph.describe() | graph.load_info, case.params_dict,
                     dict(ctx.case_metrics), out, ref_info, ratios, summary,
                     seconds=round(time.perf_counter() - t_case, 3))
    ctx.memo.clear()
    return res
