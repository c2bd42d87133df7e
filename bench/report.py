"""Reports: the console table, JSON, Markdown and PNG plots (matplotlib, Agg backend).

Files written under the output folder, for a run started at STAMP (UTC, ``%Y%m%d-%H%M%S``)::

    STAMP_SUITE_DEVICE.json      every case and impl result, each record self-contained
    STAMP_SUITE_DEVICE.md        tables per algorithm, ratio matrices, environment, plots
    STAMP_SUITE_DEVICE_ALG.png   rate against graph scale, one line per impl (and graph kind)
    STAMP_SUITE_DEVICE_ALG_time_vs_work.png   time against the case's work (nnz, frontier edges)
    latest.json, latest.md       copies of the newest run's JSON and Markdown
"""

from __future__ import annotations

import json
import math
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

from . import metrics as met
from .cases import ALGORITHMS

if TYPE_CHECKING:  # pragma: no cover
    from .runner import CaseResult, ImplResult, RunResult

SCHEMA = "semiring-bench/1"

#: Environment keys copied into every result record.
RECORD_ENV_KEYS = ("date", "python", "numpy_version", "scipy_version", "cupy_version",
                   "cuda_runtime_version", "cuda_driver_version", "gpu_name", "cpu_model",
                   "semiring_version", "git_commit")


# --------------------------------------------------------------------------------------------
# formatting helpers


def _fmt(v, digits: int = 3) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        if math.isnan(v):
            return "-"
        if v == 0:
            return "0"
        mag = abs(v)
        if mag >= 1000:
            return f"{v:,.0f}"
        if mag >= 1:
            return f"{v:.{digits}g}" if mag < 100 else f"{v:.1f}"
        return f"{v:.{digits}g}"
    return str(v)


def _clean(obj):
    """JSON-safe: NaN/inf -> None, numpy scalars -> Python, tuples -> lists."""
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        try:
            obj = obj.item()
        except Exception:
            pass
    if isinstance(obj, float) and (math.isnan(obj) or math.isinf(obj)):
        return None
    return obj


def _unit(key: str) -> str:
    """The unit of a case summary's entry, from its name: ratios ("a_vs_b") read as "x",
    rates ("..._grelax": 10⁹ relaxations/s) and fractions ("..._of_peak") stand alone."""
    if key.endswith("_grelax"):
        return " G relax/s"
    if key.endswith("_of_peak"):
        return ""
    return "x"


def _status_word(r: "ImplResult") -> str:
    return {"ok": "ok", "mismatch": "MISMATCH", "error": "ERROR", "skipped": "skipped",
            "unavailable": "n/a"}.get(r.status, r.status)


# --------------------------------------------------------------------------------------------
# records


def impl_record(run: "RunResult", case: "CaseResult", r: "ImplResult") -> dict:
    alg = ALGORITHMS[case.case.algorithm]
    env = run.env
    rec = {
        "case_id": case.case.case_id,
        "algorithm": case.case.algorithm,
        "params": case.params,
        "param_label": alg.param_label(case.params),
        "graph": case.graph,
        "impl": r.impl,
        "engine": r.engine,
        "device": r.device,
        "device_name": met.device_name(r.device, env),
        "reference": r.reference,
        "status": r.status,
        "check": r.check,
        "error": r.error,
        "ms_median": r.timing.median_ms if r.timing.times_ms else None,
        "ms_min": r.timing.min_ms if r.timing.times_ms else None,
        "ms_runs": [round(t, 6) for t in r.timing.times_ms],
        "runs": len(r.timing.times_ms),
        "warmup_ms": r.timing.warmup_ms,
        "setup_s": r.setup_s,
        "metrics": r.metrics,
        "rate_label": alg.rate_label,
        "speedup_vs": case.ratios.get(r.impl, {}),
        "env": {k: env.get(k) for k in RECORD_ENV_KEYS},
        "suite": run.suite,
        "run_device": run.device,
    }
    return rec


def to_json_dict(run: "RunResult") -> dict:
    cases = []
    for c in run.cases:
        alg = ALGORITHMS[c.case.algorithm]
        cases.append({
            "case_id": c.case.case_id,
            "algorithm": c.case.algorithm,
            "description": alg.description,
            "graph": c.graph,
            "params": c.params,
            "param_label": alg.param_label(c.params),
            "case_metrics": c.case_metrics,
            "references": c.references,
            "ratios": c.ratios,
            "summary": c.summary,
            "seconds": c.seconds,
            "error": c.error,
            "results": [impl_record(run, c, r) for r in c.results],
        })
    return _clean({
        "schema": SCHEMA,
        "suite": run.suite,
        "device": run.device,
        "started": run.started,
        "seconds": round(run.seconds, 3),
        "exit_code": run.exit_code,
        "notes": run.notes,
        "conventions": met.CONVENTIONS,
        "environment": run.env,
        "cases": cases,
        "failures": [{"case_id": cid, "impl": r.impl, "status": r.status,
                      "detail": r.error or r.check} for cid, r in run.failures()],
    })


# --------------------------------------------------------------------------------------------
# console


def _by_algorithm(run: "RunResult") -> list:
    """The run's cases grouped by algorithm (first-appearance order), stable within."""
    algs: list[str] = []
    for c in run.cases:
        if c.case.algorithm not in algs:
            algs.append(c.case.algorithm)
    return [c for a in algs for c in run.cases if c.case.algorithm == a]


def _rows(run: "RunResult"):
    for c in _by_algorithm(run):
        alg = ALGORITHMS[c.case.algorithm]
        for r in c.results:
            m = r.metrics
            yield {
                "algorithm": c.case.algorithm,
                "graph": c.graph.get("label", ""),
                "nnz": c.graph.get("nnz"),
                "case": alg.param_label(c.params),
                "impl": r.impl,
                "dev": r.device,
                "ms": r.timing.median_ms if r.timing.times_ms else None,
                "rate": m.get(alg.rate_key),
                "gbps": m.get("gbps"),
                "pct": m.get("pct_peak_bw"),
                "runs": len(r.timing.times_ms),
                "check": _status_word(r),
                "extra": c.case_metrics,
            }


def console_table(run: "RunResult") -> str:
    """The results as a plain-text table, then the key ratios of each case."""
    cols = [("algorithm", "algorithm"), ("graph", "graph"), ("case", "case"), ("impl", "impl"),
            ("dev", "dev"), ("ms", "ms (median)"), ("rate", "GE/s"), ("gbps", "GB/s"),
            ("runs", "runs"), ("check", "check")]
    rows = [[_fmt(row[k]) for k, _ in cols] for row in _rows(run)]
    head = [h for _, h in cols]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    right = {"ms (median)", "GE/s", "GB/s", "runs"}

    def line(cells):
        return "  ".join(c.rjust(w) if h in right else c.ljust(w)
                         for c, w, h in zip(cells, widths, head))

    out = ["", line(head), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    out.append("")
    out.append("GE/s: spmv = stored entries / time; spmspv = frontier edges / time. "
               "GB/s: minimal bytes (A + x + y once). bfs: GTEPS, Graph500 convention "
               "(undirected input edges within the traversed component, each counted once); "
               "sssp: the same edge count over the reached component; msbfs: the bfs count "
               "summed over the sources (scipy-bfs runs only the first few: compare its GTEPS, "
               "not its ms).")
    for c in _by_algorithm(run):
        bits = []
        for k, v in c.summary.items():
            if isinstance(v, float):
                bits.append(f"{k} = {v:.3g}{_unit(k)}")
        if c.case_metrics.get("frontier_edges") is not None:
            bits.insert(0, f"frontier {c.case_metrics.get('frontier_size')} vertices, "
                           f"{c.case_metrics['frontier_edges']} edges")
        best = _fastest(c)
        if best:
            bits.append(best)
        if bits:
            out.append(f"  {c.case.case_id}: " + "; ".join(bits))
    return "\n".join(out)


def _fastest(c: "CaseResult") -> str:
    oks = [r for r in c.results if r.status == "ok"]
    if len(oks) < 2:
        return ""
    oks.sort(key=lambda r: r.timing.median_ms)
    best = oks[0]
    others = ", ".join(f"{c.ratios[best.impl][o.impl]:.3g}x {o.impl}" for o in oks[1:]
                       if o.impl in c.ratios.get(best.impl, {}))
    return f"fastest {best.impl} ({others})"


# --------------------------------------------------------------------------------------------
# markdown


def markdown(run: "RunResult", images: dict[str, str] | None = None) -> str:
    env = run.env
    dev_name = env.get("gpu_name") if run.device == "gpu" else env.get("cpu_model")
    lines = [f"# semiring benchmarks: suite `{run.suite}` on {run.device.upper()} ({dev_name})",
             ""]
    lines.append(f"- started {run.started}, {run.seconds:.1f} s, exit code {run.exit_code}")
    lines.append(
        f"- Python {env.get('python')}, NumPy {env.get('numpy_version')}, SciPy "
        f"{env.get('scipy_version')}, CuPy {env.get('cupy_version') or '-'}, CUDA runtime "
        f"{env.get('cuda_runtime_version') or '-'}, semiring {env.get('semiring_version') or '-'}"
        f" (git {env.get('git_commit') or '-'})")
    lines.append(f"- CPU: {env.get('cpu_model')} ({env.get('cpu_count')} logical cores)")
    if env.get("gpu_name"):
        lines.append(f"- GPU: {env.get('gpu_name')}, {env.get('gpu_memory_gib')} GiB, "
                     f"{env.get('gpu_sm_count')} SMs, theoretical bandwidth "
                     f"{env.get('gpu_peak_gbps') or '-'} GB/s")
    for n in run.notes:
        lines.append(f"- {n}")
    fails = run.failures()
    if fails:
        lines += ["", "## FAILURES", ""]
        for cid, r in fails:
            detail = (r.error or r.check).replace("\n", " ")[:400]
            lines.append(f"- **{r.status.upper()}** `{cid}` impl `{r.impl}`: {detail}")
    lines += ["", "## Conventions", ""]
    lines += [f"- **{k}**: {v}" for k, v in met.CONVENTIONS.items()]

    algs = []
    for c in run.cases:
        if c.case.algorithm not in algs:
            algs.append(c.case.algorithm)
    for a in algs:
        alg = ALGORITHMS[a]
        lines += ["", f"## {a}", "", alg.description, "",
                  f"| graph | n | nnz | case | impl | device | ms (median) | {alg.rate_label} | "
                  f"GB/s | % peak BW | runs | check |",
                  "|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---|"]
        for c in run.cases:
            if c.case.algorithm != a:
                continue
            for r in c.results:
                m = r.metrics
                lines.append(
                    f"| {c.graph.get('label')} | {c.graph.get('n')} | {c.graph.get('nnz')} | "
                    f"{alg.param_label(c.params)} | {r.impl} | {r.device} | "
                    f"{_fmt(r.timing.median_ms) if r.timing.times_ms else '-'} | "
                    f"{_fmt(m.get(alg.rate_key))} | {_fmt(m.get('gbps'))} | "
                    f"{_fmt(m.get('pct_peak_bw'))} | {len(r.timing.times_ms)} | "
                    f"{_status_word(r)} |")
        lines += ["", f"### {a}: per-case details", ""]
        for c in run.cases:
            if c.case.algorithm != a:
                continue
            cm = ", ".join(f"{k} = {v}" for k, v in c.case_metrics.items())
            sm = ", ".join(f"{k} = {_fmt(v)}{_unit(k)}" if isinstance(v, float) else f"{k} = {v}"
                           for k, v in c.summary.items())
            lines.append(f"**{c.case.case_id}** (max degree {c.graph.get('max_degree')}, "
                         f"mean degree {_fmt(c.graph.get('mean_degree'))}). {cm}. {sm}")
            lines.append("")
            names = [r.impl for r in c.results if r.status == "ok"]
            if len(names) >= 2:
                lines.append("Speedup of row over column (time(column) / time(row)):")
                lines.append("")
                lines.append("| | " + " | ".join(names) + " |")
                lines.append("|---|" + "---:|" * len(names))
                for a_ in names:
                    cells = [("1" if a_ == b else _fmt(c.ratios.get(a_, {}).get(b)))
                             for b in names]
                    lines.append(f"| **{a_}** | " + " | ".join(cells) + " |")
                lines.append("")
            for r in c.results:
                if r.status != "ok":
                    detail = (r.error or r.check).replace("\n", " ")[:300]
                    lines.append(f"- `{r.impl}`: {r.status}: {detail}")
            lines.append("")
        if images and a in images:
            lines += [f"![{a} rate against scale]({images[a]})", ""]
        if images and f"{a}:work" in images:
            lines += [f"![{a} time against work]({images[a + ':work']})", ""]
        if images and f"{a}:extra" in images:
            lines += [f"![{a}]({images[a + ':extra']})", ""]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# plots


def _pyplot():
    import matplotlib  # noqa: PLC0415  (matplotlib is optional (plots))

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415  (matplotlib is optional (plots))

    return plt


_KIND_STYLE = {"kron": "-", "urand": "--", "grid": ":", "rgg": ":", "mtx": "-."}  # time-vs-work plot
_KIND_MARK = {"kron": "o", "urand": "s", "grid": "^", "rgg": "v", "mtx": "D"}
_PEAK_STYLES = ("--", ":", "-.")  # horizontal reference lines (peaks), in order


def plot_rates(run: "RunResult", algorithm: str, path: Path) -> Path | None:
    """Rate (the algorithm's rate metric) against graph scale (log2 n), one panel per parameter
    set and graph kind, one line per impl (same colour in every panel, legend at the right).
    Returns the path, or None when nothing to plot."""
    alg = ALGORITHMS[algorithm]
    panels: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for c in run.cases:
        if c.case.algorithm != algorithm:
            continue
        title = f"{c.graph.get('kind', '?')}, {alg.param_label(c.params)}"
        panel = panels.setdefault(title, {})
        for r in c.results:
            rate = r.metrics.get(alg.rate_key)
            if r.status != "ok" or rate is None or not math.isfinite(rate):
                continue
            panel.setdefault(r.impl, []).append((float(c.graph.get("scale_log2_n", 0)), rate))
    panels = {k: v for k, v in panels.items() if v}
    if not panels:
        return None
    plt = _pyplot()
    k = len(panels)
    ncols = min(k, 3)
    nrows = (k + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols + 2.2, 3.8 * nrows),
                             squeeze=False)
    impls = sorted({i for p in panels.values() for i in p})
    color = _colors(plt, impls)
    handles = {}
    # the algorithm's reference lines (APSP: measured peaks), the same on every panel
    ref_lines = [(str(lb), float(v)) for lb, v in (alg.rate_lines(run) if alg.rate_lines
                                                   else []) if v and math.isfinite(v)]
    for ax, (title, lines) in zip(axes.flat, panels.items()):
        for impl, pts in sorted(lines.items()):
            pts.sort()
            (h,) = ax.plot([p[0] for p in pts], [p[1] for p in pts], "-o", color=color[impl],
                           label=impl)
            handles[impl] = h
        for j, (label, value) in enumerate(ref_lines):
            handles[label] = ax.axhline(value, color="k", linestyle=_PEAK_STYLES[j % 3],
                                        linewidth=1.2, label=label)
        ax.set_yscale("log")
        ax.set_xlabel("graph scale: log2(vertices)")
        ax.set_ylabel(alg.rate_label, fontsize=8)
        ax.set_title(f"{algorithm}: {title}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axes.flat)[k:]:
        ax.set_visible(False)
    keys = impls + [lb for lb, _ in ref_lines]
    fig.legend([handles[i] for i in keys], keys, loc="center right", fontsize=8)
    fig.suptitle(f"{algorithm} on {_device_label(run)} (suite {run.suite})", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1 - 2.3 / (4.6 * ncols + 2.2), 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _colors(plt, impls):
    cmap = plt.get_cmap("tab10")
    return {name: cmap(j % 10) for j, name in enumerate(impls)}


def _device_label(run: "RunResult") -> str:
    return (run.env.get("gpu_name") if run.device == "gpu" else run.env.get("cpu_model")) or "?"


def plot_time_vs_work(run: "RunResult", algorithm: str, path: Path) -> Path | None:
    """Median time against the case's work metric (``Algorithm.work_key``, e.g. frontier
    edges), log-log, one line per impl and graph kind: a slope of 1 means time follows work."""
    alg = ALGORITHMS[algorithm]
    if not alg.work_key:
        return None
    lines: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for c in run.cases:
        if c.case.algorithm != algorithm:
            continue
        work = c.case_metrics.get(alg.work_key)
        if not work:
            continue
        for r in c.results:
            if r.status == "ok" and r.timing.times_ms:
                lines.setdefault((r.impl, c.graph.get("kind", "?")), []).append(
                    (float(work), r.timing.median_ms))
    if not lines:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8.4, 4.8))
    impls = sorted({i for i, _ in lines})
    color = _colors(plt, impls)
    for (impl, kind), pts in sorted(lines.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], _KIND_STYLE.get(kind, "-"),
                marker=_KIND_MARK.get(kind, "o"), color=color[impl], label=f"{impl} ({kind})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(alg.work_label or alg.work_key)
    ax.set_ylabel("time (ms, median)")
    ax.set_title(f"{algorithm}: time against work on {_device_label(run)}", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_relaxation_rate(points: list[dict], path: Path, *, peak: float | None = None,
                         peaks: list[tuple[str, float]] | None = None,
                         title: str = "APSP relaxation rate") -> Path:
    """Relaxations per second against n, one line per impl, with the measured peak(s) as
    horizontal lines (used by the APSP benchmarks).

    Parameters
    ----------
    points : list of dict
        Dicts with ``impl``, ``n`` and ``rate`` (relaxations per second).
    path : Path
        The PNG to write.
    peak : float, optional
        One peak (relaxations per second), labelled "peak (measured)".
    peaks : list of (str, float), optional
        Labelled peaks (relaxations per second), drawn after ``peak``.
    title : str
        The axes' title.

    Returns
    -------
    Path
        ``path``.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    by_impl: dict[str, list[tuple[float, float]]] = {}
    for p in points:
        by_impl.setdefault(p["impl"], []).append((float(p["n"]), float(p["rate"])))
    for impl, pts in sorted(by_impl.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-o", label=impl)
    lines = ([("peak (measured)", peak)] if peak else []) + list(peaks or [])
    for j, (label, value) in enumerate(lines):
        if value and math.isfinite(value):
            ax.axhline(value, color="k", linestyle=_PEAK_STYLES[j % 3],
                       label=f"{label} {value:.3g}/s")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("n (vertices)")
    ax.set_ylabel("relaxations / s")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------------------------
# writing


def _algorithm(name: str):
    return ALGORITHMS.get(name)


def write_all(run: "RunResult", out: Path, *, plots: bool = True) -> dict[str, str]:
    """Write JSON, Markdown (+ latest copies) and plots under ``out``; returns the paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    base = f"{stamp}_{run.suite}_{run.device}"
    files: dict[str, str] = {}
    images: dict[str, str] = {}
    if plots:
        algs = []
        for c in run.cases:
            if c.case.algorithm not in algs:
                algs.append(c.case.algorithm)
        for a in algs:
            try:
                p = plot_rates(run, a, out / f"{base}_{a}.png")
            except Exception as e:  # a plot must not lose the results
                run.notes.append(f"plot {a} failed: {type(e).__name__}: {e}")
                p = None
            if p is not None:
                images[a] = p.name
                files[f"plot_{a}"] = str(p)
            try:
                p = plot_time_vs_work(run, a, out / f"{base}_{a}_time_vs_work.png")
            except Exception as e:
                run.notes.append(f"plot {a} time/work failed: {type(e).__name__}: {e}")
                p = None
            if p is not None:
                images[f"{a}:work"] = p.name
                files[f"plot_{a}_time_vs_work"] = str(p)
            extra = getattr(_algorithm(a), "extra_plot", None)
            if extra is not None:
                try:
                    p = extra(run, out / f"{base}_{a}_extra.png")
                except Exception as e:
                    run.notes.append(f"plot {a} extra failed: {type(e).__name__}: {e}")
                    p = None
                if p is not None:
                    images[f"{a}:extra"] = p.name
                    files[f"plot_{a}_extra"] = str(p)
    md = markdown(run, images)
    data = to_json_dict(run)
    jpath = out / f"{base}.json"
    mpath = out / f"{base}.md"
    jpath.write_text(json.dumps(data, indent=1, allow_nan=False) + "\n")
    mpath.write_text(md)
    shutil.copyfile(jpath, out / "latest.json")
    shutil.copyfile(mpath, out / "latest.md")
    files["json"] = str(jpath)
    files["markdown"] = str(mpath)
    files["latest_json"] = str(out / "latest.json")
    files["latest_markdown"] = str(out / "latest.md")
    return files
