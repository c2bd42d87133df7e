"""``python -m bench``: run a benchmark suite and write its report.

Examples::

    python -m bench                               # quick suite; GPU if one answers, else CPU
    python -m bench --device cpu --suite tiny     # seconds, CPU only
    python -m bench --suite full --algorithms spmv --graphs kron
    python -m bench --graphs kron-16,grid-300x300 --impls semiring-cpu,numpy-min-plus
    python -m bench --list                        # suites, algorithms and impls

Exit code: 0 all implementations ran and agreed; 1 some implementation disagreed with its
reference; 2 some implementation failed (raised); 3 bad arguments or no GPU for --device gpu.
"""

from __future__ import annotations

import argparse
import sys

from . import cases as C
from . import generators as gen
from . import peers_gap, peers_gunrock
from .runner import DEFAULT_OUT, EXIT_ERROR, UsageError, resolve_device, run
from .timing import TimingPolicy

EXIT_USAGE = 3


def _csv(text: str | None) -> list[str] | None:
    if text is None:
        return None
    items = [t.strip() for t in text.split(",") if t.strip()]
    return items or None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench",
        description="Benchmarks of the semiring engine against its peers on generated graphs "
                    "(Graph500 Kronecker, GAP urand, 2-D grid). Every implementation of a case "
                    "runs on the same graph in this process; results are checked against "
                    "host references before they are reported.",
        epilog="Exit code: 0 ok; 1 an implementation disagreed with its reference; 2 an "
               "implementation failed; 3 bad arguments / no GPU for --device gpu.")
    suites = sorted({n for n, _ in C.SUITES})
    p.add_argument("--suite", default="quick", choices=suites,
                   help="which suite (default: quick); each exists for CPU and GPU runs")
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"],
                   help="auto (default): the GPU suite when a GPU answers, else the CPU suite")
    p.add_argument("--algorithms", help=f"comma list of {', '.join(C.ALGORITHMS)} "
                                        f"(default: all in the suite)")
    p.add_argument("--graphs", help="comma list: kinds (kron, urand, grid) filter the suite's "
                                    "graphs; specs (kron-18, urand-16-ef8, grid-512x512, "
                                    "mtx:PATH) replace them")
    p.add_argument("--impls", help="comma list of implementation names to run (see --list)")
    p.add_argument("--out", default=str(DEFAULT_OUT),
                   help="folder for the JSON/Markdown/PNG report (default: bench/out, not tracked)")
    p.add_argument("--no-write", action="store_true", help="print the table only")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    p.add_argument("--seed", type=int, default=0, help="graph and input seed (default 0)")
    p.add_argument("--cache-dir", default=str(gen.DEFAULT_CACHE_DIR),
                   help="generated-graph cache (default: bench/cache)")
    p.add_argument("--no-cache", action="store_true", help="always regenerate graphs")
    p.add_argument("--min-runs", type=int, help="override the suite's minimum timed runs")
    p.add_argument("--max-runs", type=int, help="override the suite's maximum timed runs")
    p.add_argument("--budget", type=float,
                   help="seconds of timed runs per implementation and case (suite default)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--list", action="store_true", help="list suites, algorithms, impls; exit")
    p.add_argument("--gap", metavar="PATH", help="a gapbs checkout: build GAP's reference code "
                   "(bench/peers_gap.py) and run it as a peer, on GAP's graphs too (or set "
                   "SEMIRING_BENCH_GAP)")
    p.add_argument("--gunrock", metavar="PATH", help="a folder with Gunrock's built examples "
                   "bfs, sssp, pr, tc (bench/peers_gunrock.py; bench/README.md says how to "
                   "build them): adds them as the GPU peer 'gunrock' (or set "
                   "SEMIRING_BENCH_GUNROCK)")
    return p


def list_registry(out=None) -> None:
    out = out or sys.stdout
    print("suites:", file=out)
    for (name, dev), s in sorted(C.SUITES.items()):
        n = sum(len(e.graphs) * len(e.params) for e in s.entries)
        print(f"  {name:6s} {dev}: {n} cases — {s.description}", file=out)
        for e in s.entries:
            ps = ", ".join(C.ALGORITHMS[e.algorithm].param_label(p) for p in e.params)
            print(f"      {e.algorithm}: {', '.join(e.graphs)} [{ps}]", file=out)
    print("algorithms and implementations (device, reference):", file=out)
    for a in C.ALGORITHMS.values():
        print(f"  {a.name}: {a.description}", file=out)
        for i in a.impls:
            print(f"      {i.name:22s} {i.device}  vs {i.reference:14s} {i.description}", file=out)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    if args.gap:
        peers_gap.configure(args.gap)
    print(peers_gap.status(), file=sys.stderr, flush=True)
    if args.gunrock:
        peers_gunrock.configure(args.gunrock)
    print(peers_gunrock.status(), file=sys.stderr, flush=True)
    if args.list:
        list_registry()
        return 0
    suite_timing = None
    if args.min_runs or args.max_runs or args.budget:
        try:
            dev, _ = resolve_device(args.device)
            base = C.get_suite(args.suite, dev).timing
        except Exception:
            base = TimingPolicy()
        suite_timing = TimingPolicy(
            warmup=base.warmup,
            min_runs=args.min_runs or base.min_runs,
            max_runs=max(args.max_runs or base.max_runs, args.min_runs or 0),
            budget_s=args.budget if args.budget is not None else base.budget_s,
            long_call_s=base.long_call_s)
    try:
        result = run(
            args.suite, args.device,
            algorithms=_csv(args.algorithms), graphs=_csv(args.graphs), impls=_csv(args.impls),
            out=None if args.no_write else args.out, seed=args.seed,
            cache_dir=None if args.no_cache else args.cache_dir,
            plots=not args.no_plots, progress=not args.no_progress, timing=suite_timing)
    except UsageError as e:
        print(f"python -m bench: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_ERROR
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
