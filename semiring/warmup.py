"""Compile the GPU kernels ahead of a first call: ``python -m semiring.warmup``.

A kernel compiles with NVRTC on its first launch in a process whose CuPy kernel cache
(``~/.cupy/kernel_cache``, or ``$CUPY_CACHE_DIR``) does not hold it yet; later processes load
it from that cache. This command fills the cache for the current GPU's architecture, many
compiles at once, so that no first call compiles:

* by default the kernels of the common semirings (:data:`COMMON_SEMIRINGS`) in the common
  domains (:data:`COMMON_DTYPES`), with int32 and int64 indices: SpMV/SpMSpV (``mxv``,
  ``vxm``), SpMM and dense products (``mxm`` with a dense operand, APSP, the tuned
  min/max-plus GEMM), SpGEMM, the duplicate folds and element-wise ops in those domains, and
  every traversal kernel (BFS, multi-source BFS, SSSP rounds);
* with ``--all`` every registered instantiation (:func:`semiring.kernels.kernel_jobs`: every
  built-in semiring, op and domain; what CI compiles);
* ``--list`` prints the kernels it would compile and exits (no GPU needed).

Each kernel compiles as its launch compiles it (one program per kernel, the launcher's
options), so the cache key is the one a launch looks up. The cache key holds the source,
the options, the architecture and the NVRTC and CuPy versions: the cache stays valid across
runs and across machines of the same GPU architecture and software, and a new semiring
release (new kernel source) compiles again.

Examples
--------
The kernels of the common set (no GPU needed to list them):

>>> from semiring import warmup
>>> jobs = warmup.jobs()
>>> any(name.startswith("bfs_grid<int, ") for _, _, _, name in jobs)
True
>>> len(jobs) < len(warmup.jobs(everything=True))
True
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from . import kernels
from .device import _cupy
from .ops import builtins

#: Semirings whose kernels the default warm-up compiles: those of the algorithms (BFS:
#: any_secondi, min_secondi, any_pair; SSSP: min_plus, min_plus_sat on integers; components:
#: min_second, min_first; PageRank, centrality, triangles: plus_times, plus_pair, plus_first)
#: and the classic ones (lor_land, max_plus).
COMMON_SEMIRINGS = ("min_plus", "min_plus_sat", "max_plus", "plus_times", "plus_pair",
                    "plus_first", "lor_land", "any_pair", "any_secondi", "min_secondi",
                    "min_second", "min_first")
#: Domains of the default warm-up (``min_plus_sat`` exists on the integers only: all of its).
COMMON_DTYPES = ("bool", "float32", "float64")

_C_TYPES = {"bool": "bool", "int32": "int", "int64": "long long", "float32": "float",
            "float64": "double"}
_LABEL = re.compile(r"^(?:dense_|spgemm_)?(?P<sr>[a-z_]+)\[(?P<dt>\w+)\]$")
_OP_DOMAIN = re.compile(r"<u?op_\w+, (?P<t>[a-z ]+?)[,>]")


def selector(semirings=COMMON_SEMIRINGS, dtypes=COMMON_DTYPES):
    """``select(family, label, name)`` for :func:`semiring.kernels.kernel_jobs`: the kernels of
    ``semirings`` in ``dtypes`` (both index types), the element-wise ops and duplicate folds
    in ``dtypes``, every traversal kernel, the SpGEMM symbolic phase and the tuned
    min/max-plus GEMM; not the bench's probes."""
    semirings, dtypes = set(semirings), set(dtypes)
    ctypes = {_C_TYPES[d] for d in dtypes}

    def select(family: str, label: str, name: str) -> bool:
        m = _LABEL.match(label)
        if m:
            return m["sr"] in semirings and (m["dt"] in dtypes or m["sr"] == "min_plus_sat")
        if family in ("elementwise", "fold"):
            t = _OP_DOMAIN.search(name)
            return t is not None and t["t"] in ctypes
        return family != "apsp_probe"
    return select


def jobs(*, everything: bool = False, families=None, semirings=COMMON_SEMIRINGS,
         dtypes=COMMON_DTYPES) -> list:
    """The kernels to compile: ``(family, label, source, name)``, one a kernel."""
    return kernels.kernel_jobs(families, None if everything else selector(semirings, dtypes))


# ------------------------------------------------------------------ worker processes

_worker_jobs: dict = {}


def _worker_init(device: int):
    _cupy().cuda.Device(device).use()


def _worker_compile(fam: str, label: str, name: str) -> float:
    """Compile one kernel in a worker process (sources rebuilt there from the registry)."""
    if not _worker_jobs:
        _worker_jobs.update({(f, lab, n): j for j in kernels.kernel_jobs()
                             for f, lab, _, n in [j]})
    return kernels.compile_job(_worker_jobs[(fam, label, name)])


def _progress(total: int, quiet: bool):
    """A progress callback: tqdm's bar when tqdm is installed, else a plain counter."""
    if quiet:
        return lambda job, dt: None, lambda: None
    try:
        from tqdm import tqdm  # noqa: PLC0415  (optional: a bar when installed)
    except ImportError:
        tqdm = None
    if tqdm is not None:
        bar = tqdm(total=total, unit="kernel", desc="semiring.warmup")
        return lambda job, dt: bar.update(1), bar.close
    done = [0]
    step = max(1, total // 20)
    tty = sys.stderr.isatty()

    def tick(job, dt):
        done[0] += 1
        if tty or done[0] % step == 0 or done[0] == total:
            end = "" if tty and done[0] < total else "\n"
            print(f"\rsemiring.warmup: {done[0]}/{total} kernels", end=end, file=sys.stderr,
                  flush=True)
    return tick, lambda: None


def run(job_list, *, workers: int, executor: str = "process", device: int = 0,
        progress=None) -> list:
    """Compile ``job_list`` on GPU ``device`` with ``workers`` processes (each its own NVRTC
    and CUDA context; NVRTC compiles of one process may not run at once) or threads; returns
    the seconds each took, in order."""
    if executor == "thread" or workers <= 1:
        cp = _cupy()
        with cp.cuda.Device(device):
            return kernels.compile_all(job_list, workers=workers, progress=progress)
    import multiprocessing  # noqa: PLC0415  (the process pool only)

    ctx = multiprocessing.get_context("spawn")  # CUDA does not survive a fork
    out = [0.0] * len(job_list)
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_init,
                             initargs=(device,)) as pool:
        futs = {pool.submit(_worker_compile, f, lab, n): i
                for i, (f, lab, _, n) in enumerate(job_list)}
        for fut in as_completed(futs):
            i = futs[fut]
            out[i] = fut.result()
            if progress:
                progress(job_list[i], out[i])
    return out


def _no_gpu_reason() -> str | None:
    cp = _cupy()
    if cp is None:
        return ("CuPy is not installed (or does not import): install the cuda12 or cuda13 "
                "extra, e.g. pip install 'semiring[cuda12]'")
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as err:  # no driver, no device
        return f"no CUDA device answers ({type(err).__name__}: {err})"
    return None if count > 0 else "no CUDA device answers (0 devices)"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m semiring.warmup",
        description="Compile semiring's GPU kernels into CuPy's kernel cache ahead of a first "
                    "call (by default those of the common semirings and domains).")
    ap.add_argument("--all", action="store_true", help="every registered kernel instantiation")
    ap.add_argument("--list", action="store_true",
                    help="print the kernels it would compile (family, label, name) and exit")
    ap.add_argument("--family", action="append", default=None,
                    choices=kernels.families(), help="these kernel families only (repeatable)")
    ap.add_argument("--semiring", action="append", default=None,
                    help=f"these semirings instead of the common ones "
                         f"({', '.join(COMMON_SEMIRINGS)})")
    ap.add_argument("--dtype", action="append", default=None, choices=sorted(_C_TYPES),
                    help=f"these domains instead of {', '.join(COMMON_DTYPES)}")
    ap.add_argument("--jobs", "-j", type=int, default=None,
                    help="compiles at once (default: the CPU count, at most 32)")
    ap.add_argument("--executor", choices=("process", "thread"), default="process",
                    help="worker processes (default) or threads of this process")
    ap.add_argument("--device", type=int, default=None,
                    help="the GPU whose architecture to compile for (default: the current one)")
    ap.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        ap.error(f"--jobs must be at least 1, got {args.jobs}")
    if args.all and (args.semiring or args.dtype):
        ap.error("--all compiles every semiring and domain: drop --semiring/--dtype")
    known = set(builtins("semiring")) | {"min_plus_sat"}
    for s in args.semiring or ():
        if s not in known:
            ap.error(f"--semiring: unknown semiring {s!r} (built in: {', '.join(sorted(known))})")
    job_list = jobs(everything=args.all, families=args.family,
                    semirings=args.semiring or COMMON_SEMIRINGS,
                    dtypes=args.dtype or COMMON_DTYPES)
    if args.list:
        for fam, label, _, name in job_list:
            print(f"{fam}\t{label}\t{name}")
        print(f"{len(job_list)} kernels", file=sys.stderr)
        return 0
    reason = _no_gpu_reason()
    if reason is not None:
        print(f"semiring.warmup: nothing compiled: {reason}. The kernels compile for the "
              f"GPU's architecture, so warm up on the machine that runs them.", file=sys.stderr)
        return 1
    cp = _cupy()
    device = cp.cuda.runtime.getDevice() if args.device is None else args.device
    workers = args.jobs or min(os.cpu_count() or 1, 32)
    workers = max(1, min(workers, len(job_list)))
    name = cp.cuda.runtime.getDeviceProperties(device)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    cache = os.environ.get("CUPY_CACHE_DIR", os.path.expanduser("~/.cupy/kernel_cache"))
    print(f"semiring.warmup: {len(job_list)} kernels for GPU {device} ({name}), "
          f"{workers} {args.executor}{'es' if args.executor == 'process' else 's'}, "
          f"cache {cache}", file=sys.stderr)
    tick, close = _progress(len(job_list), args.quiet)
    t0 = time.perf_counter()
    try:
        times = run(job_list, workers=workers, executor=args.executor, device=device,
                    progress=tick)
    finally:
        close()
    wall = time.perf_counter() - t0
    print(f"semiring.warmup: compiled {len(times)} kernels in {wall:.1f} s "
          f"({sum(times):.1f} s of compiles)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
