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
* ``--list`` prints the kernels it would compile and exits (no GPU needed);
* ``--cpu`` compiles the CPU backend's kernels instead (Numba, the ``cpu`` extra; no GPU
  needed): those of the common semirings that have a compiled form in the common domains
  (:func:`warm_cpu`), the structure searches and the analytics' own passes
  (:func:`warm_cpu_analytics`), into Numba's on-disk cache, so that a first CPU call loads
  them;
* then (unless ``--no-exercise`` or ``--family``) it runs the engine's first-call steps once
  on small graphs (:func:`exercise`), which compiles the CuPy kernels those steps use (CuPy's
  element-wise, scan and reduction kernels are cached the same way).

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

import numpy as np

from . import kernels, traversal
from .backend.cpu import compiled as _cpu_compiled
from .backend.cpu import spmv as _cpu_spmv
from . import types as _t
from .device import _cupy, xp_of
from .errors import BackendUnavailable, InvalidValue
from .elementwise import select
from .matrix import Matrix
from .operations import mxv, vxm
from .ops import builtins
from .vector import Vector

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
_LABEL = re.compile(r"^(?P<head>.*)\[(?P<dt>\w+)\]$")  # "[<family>_]<semiring>[<dtype>]"
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
            sr = label_semiring(m["head"])
            if sr is None:  # a family labelled otherwise: by its domain only
                return m["dt"] in dtypes
            return sr in semirings and (m["dt"] in dtypes or sr == "min_plus_sat")
        if family in ("elementwise", "fold"):
            t = _OP_DOMAIN.search(name)
            return t is not None and t["t"] in ctypes
        return family != "apsp_probe"
    return select


def label_semiring(head: str):
    """The semiring a registry label names (``min_plus``, ``dense_min_plus``,
    ``spgemm_min_plus``, ...: the longest built-in name it ends with), or None."""
    known = sorted(set(builtins("semiring")) | {"min_plus_sat"}, key=len, reverse=True)
    return next((s for s in known if head == s or head.endswith("_" + s)), None)


def jobs(*, everything: bool = False, families=None, semirings=COMMON_SEMIRINGS,
         dtypes=COMMON_DTYPES) -> list:
    """The kernels to compile: ``(family, label, source, name)``, one a kernel."""
    return kernels.kernel_jobs(families, None if everything else selector(semirings, dtypes))


# ------------------------------------------------------------------ CuPy's own kernels

#: Semirings of the products :func:`exercise` runs (its element-wise work depends on the
#: result type: a value, a bool, a positional int64).
EXERCISE_SEMIRINGS = ("min_plus", "plus_times", "any_secondi", "lor_land")


def exercise(dtype, device: str = "gpu") -> int:
    """Run the engine's first-call steps once on a small graph of ``dtype`` weights (int32
    indices, as every graph below 2^31 entries has): the transpose, pull and push products (``mxv`` / ``vxm``), ``select``,
    the BFS launch and the SSSP relaxation steps. Our kernels come from the cache the compile
    filled; what this adds is CuPy's own element-wise, scan and reduction kernels that those
    steps use, which CuPy compiles on first use too. Returns the calls made.

    >>> from semiring.warmup import exercise
    >>> exercise("float32", device="cpu") > 10
    True
    """
    xp = xp_of(device)
    dt = np.dtype(dtype)
    n = 48
    v = np.arange(n)
    rows = np.r_[v[:-1], v, v]  # a path, and two more out-edges a vertex
    cols = np.r_[v[1:], (7 * v + 3) % n, (5 * v + 1) % n]
    key = np.unique(rows * n + cols)
    rows, cols = key // n, key % n
    indptr = np.searchsorted(rows, np.arange(n + 1))
    vals = (1 + key % 5).astype(dt)
    A = Matrix.from_csr(xp.asarray(indptr), xp.asarray(cols), xp.asarray(vals), (n, n))
    calls = 0
    A.T  # noqa: B018  (the transpose, cached on A)
    x = xp.ones(n, dtype=dt)
    xs = Vector.from_coo(xp.asarray(np.array([0, 5])), xp.asarray(np.ones(2, dtype=dt)), size=n,
                         device=device)
    for name in EXERCISE_SEMIRINGS:
        s = builtins("semiring")[name]
        mxv(A, x, s)
        vxm(xs, A, s, direction="push")
        vxm(xs, A, s, direction="pull")
        calls += 3
    if dt.kind == "f":
        select(A, "valuele", 2.0)
        select(A, "valuegt", 2.0)
        d = xp.full(n, np.inf, dtype=dt)
        d[0] = 0
        pending, settled = xp.zeros(n, dtype=bool), xp.zeros(n, dtype=bool)
        traversal.relax_rounds(A, d, xp.asarray(np.array([0])), hi=dt.type(3), pending=pending,
                               settled=settled)
        traversal.push_relax(A, d, xp.asarray(np.array([0, 1])), hi=dt.type(3),
                             pending=pending, settled=settled)
        traversal.pull_relax(A, d, xp.asarray(v % 3 == 0), hi=dt.type(3), pending=pending,
                             settled=settled)
        traversal.push_relax(A, d, xp.asarray(np.array([2])))
        calls += 6
    if device == "gpu":  # (the BFS launch reads the structure only)
        for parents in (False, True):
            traversal.bfs_grid(A, 0, parents=parents)
            calls += 1
    return calls


# ------------------------------------------------------------------ the CPU backend's kernels

def warm_cpu(semirings=COMMON_SEMIRINGS, dtypes=COMMON_DTYPES, progress=None) -> int:
    """Compile the CPU backend's Numba kernels (:mod:`semiring.backend.cpu.compiled`) of
    ``semirings`` in ``dtypes`` into Numba's on-disk cache; the kernels run (0 without
    Numba). ``progress(pair, seconds)`` is called after each (semiring, domain).

    >>> from semiring import warmup
    >>> warmup.warm_cpu(["any_secondi"], ["float64"])  # no compiled form: nothing to do
    0
    """
    table = builtins("semiring")
    # a misspelt name would warm nothing, silently (min_plus_sat: the GPU's saturating
    # variant, a kernel label and no semiring of the table)
    unknown = [name for name in semirings if name not in table and name != "min_plus_sat"]
    if unknown:
        raise InvalidValue(f"warm_cpu: semirings must be built-in semiring names, got {unknown}")
    domains = [(dt, _t.lookup_dtype(dt, op="warm_cpu", arg="dtypes")) for dt in dtypes]
    count = 0
    for name in semirings:
        for dt, dom in domains:
            t = time.perf_counter()
            sr = table.get(name)
            count += 0 if sr is None else _cpu_spmv.warm(sr, dom)
            if progress is not None:
                progress((name, dt), time.perf_counter() - t)
    return count


# ------------------------------------------------------------------ worker processes

_worker_jobs: dict = {}


def warm_cpu_analytics() -> int:
    """Compile (or load from Numba's cache) the CPU analytics' own compiled passes that a
    first call meets beside the products and searches (:func:`warm_cpu`,
    :func:`.backend.cpu.compiled.warm_searches`), by running them once on a 6-vertex ring:
    PageRank's power step (``centrality.power_step``, after a full and a sparse product), the
    weak components' search and union-find (:func:`.backend.cpu.components.weak_components`)
    the triangle count's ``dot3`` with ``plus_pair`` over its int64 pattern, and
    betweenness' passes a source (``centrality.brandes`` / ``brandes_edges``). The calls
    made (0 without Numba). ``python -m semiring.warmup --cpu`` runs it."""
    if not _cpu_compiled.ENABLED:
        return 0
    from . import centrality  # noqa: PLC0415  (as the package imports it: on use)
    from .backend.cpu import components as cpu_components  # noqa: PLC0415  (as above)
    from .spgemm import dot3  # noqa: PLC0415  (as above)

    n = 6
    v = np.arange(n)
    rows, cols = np.r_[v, v], np.r_[(v + 1) % n, (v - 1) % n]  # a ring, both directions
    order = np.lexsort((cols, rows))
    rows, cols = rows[order], cols[order]
    indptr = np.searchsorted(rows, np.arange(n + 1))
    A = Matrix.from_csr(indptr, cols, np.ones(2 * n), (n, n))  # (NumPy arrays: on the CPU)
    count = 0
    for skip in (True, False):  # (a symmetric pattern's search; else the union-find)
        cpu_components.weak_components(A, skip, 0, 0)
        count += 1
    U = Matrix.from_csr(indptr, cols, None, (n, n), iso_value=1, dtype=np.int64)
    dot3(U, U, builtins("semiring")["plus_pair"], mask=U)
    x = np.full(n, 1.0 / n)
    for t in (Vector.from_dense(np.ones(n), device="cpu"),  # (the default: a GPU where one is)
              Vector.from_coo(np.array([0, 2]), np.ones(2), size=n, device="cpu")):
        centrality.power_step(t, x, x.copy(), x.copy(), np.ones(n), 0.85, 0.0,
                              np.zeros(0, dtype=np.int64))
        count += 1
    centrality.brandes(A, [0])  # betweenness' pass a source ...
    centrality.brandes_edges(A, [0])  # ... and edge betweenness'
    return count + 3


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


def _compile_or_error(job):
    """The seconds one job took, or the exception it raised (the others go on)."""
    try:
        return kernels.compile_job(job)
    except Exception as err:  # a kernel that does not compile: reported at the end
        return err


def _worker_compile_or_error(fam: str, label: str, name: str):
    try:
        return _worker_compile(fam, label, name)
    except Exception as err:
        return RuntimeError(f"{type(err).__name__}: {err}")  # picklable


def run(job_list, *, workers: int, executor: str = "process", device: int = 0,
        progress=None) -> list:
    """Compile ``job_list`` on GPU ``device`` with ``workers`` processes (each its own NVRTC
    and CUDA context; NVRTC 12 compiles the programs of one process one at a time, NVRTC 13
    at once) or threads. Returns, in job order, the seconds each took or the exception it
    raised (a kernel that fails to compile does not stop the others)."""
    if executor not in ("process", "thread"):
        raise InvalidValue(f"run: executor must be 'process' or 'thread', got {executor!r}")
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise InvalidValue(f"run: workers must be a positive integer, got {workers!r}")
    reason = _no_gpu_reason()
    if reason is not None:
        raise BackendUnavailable(f"run: compiling GPU kernels needs a GPU: {reason}")
    if executor == "thread" or workers <= 1:
        cp = _cupy()
        with cp.cuda.Device(device):
            return kernels.compile_all(job_list, workers=workers, progress=progress,
                                       compile=_compile_or_error)
    import multiprocessing  # noqa: PLC0415  (the process pool only)

    ctx = multiprocessing.get_context("spawn")  # CUDA does not survive a fork
    out = [0.0] * len(job_list)
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_init,
                             initargs=(device,)) as pool:
        futs = {pool.submit(_worker_compile_or_error, f, lab, n): i
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
    ap.add_argument("--no-exercise", action="store_true",
                    help="skip the run of the first-call steps on small graphs that compiles "
                         "CuPy's own kernels (see exercise)")
    ap.add_argument("--cpu", action="store_true",
                    help="compile the CPU backend's Numba kernels instead (the cpu extra; no "
                         "GPU needed)")
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
    if args.cpu:
        return _main_cpu(args)
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
    errors = [(j, t) for j, t in zip(job_list, times) if isinstance(t, BaseException)]
    secs = sum(t for t in times if not isinstance(t, BaseException))
    print(f"semiring.warmup: compiled {len(times) - len(errors)} kernels in {wall:.1f} s "
          f"({secs:.1f} s of compiles)", file=sys.stderr)
    for (fam, label, _, name), err in errors:
        print(f"semiring.warmup: {fam} {label} {name}: {str(err).splitlines()[0][:300]}",
              file=sys.stderr)
    if errors:
        print(f"semiring.warmup: {len(errors)} kernels failed to compile", file=sys.stderr)
        return 1
    if not args.no_exercise and not args.family:
        t1 = time.perf_counter()
        pairs = list(args.dtype or COMMON_DTYPES)
        failed = []

        def one(pair):
            with cp.cuda.Device(device):
                try:
                    return exercise(pair)
                except Exception as err:  # a step it cannot run: report it, go on
                    failed.append(f"{pair}: {type(err).__name__}: {err}")
                    return 0
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415  (this step only)

        with ThreadPoolExecutor(len(pairs)) as pool:
            ncalls = sum(pool.map(one, pairs))
        cp.cuda.Device(device).synchronize()
        print(f"semiring.warmup: ran {ncalls} first-call steps on small graphs "
              f"({', '.join(pairs)}) in {time.perf_counter() - t1:.1f} s "
              f"(CuPy's own kernels)", file=sys.stderr)
        for f in failed:
            print(f"semiring.warmup: could not run {f}", file=sys.stderr)
    return 0


def _main_cpu(args) -> int:
    semirings = args.semiring or COMMON_SEMIRINGS
    dtypes = args.dtype or COMMON_DTYPES
    if not _cpu_compiled.ENABLED:
        print("semiring.warmup --cpu: nothing compiled: Numba is not installed (pip install "
              "'semiring[cpu]') or SEMIRING_NUMBA=0; the CPU backend runs its NumPy paths",
              file=sys.stderr)
        return 1
    pairs = len(semirings) * len(dtypes)
    tick, close = _progress(pairs, args.quiet)
    t0 = time.perf_counter()
    try:
        count = warm_cpu(semirings, dtypes, tick)
        count += _cpu_compiled.warm_searches()  # (the BFS and strong-component searches)
        count += warm_cpu_analytics()  # (PageRank's step, weak components, triangles)
    finally:
        close()
    print(f"semiring.warmup --cpu: {count} CPU kernels compiled or loaded for {pairs} "
          f"(semiring, domain) pairs in {time.perf_counter() - t0:.1f} s (Numba's cache)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
