"""The one kernel loader: CUDA sources, op structs spliced at a placeholder, one per-device
cache of compiled modules, and the registry of every instantiation CI compiles.

A kernel is a ``.cu`` file here plus its launcher in :mod:`semiring.backend.gpu` (one module
per operation family). The launcher

* builds its program with :func:`source` -- the files, in order, with the C++ structs of its
  ops generated from the op tables (:mod:`semiring.ops`) at the line ``@SR_FUNCTORS@`` of
  ``common.cuh``. The placeholder is not a comment: a program that is not spliced does not
  compile;
* compiles it through :func:`module` / :func:`function`, memoized per (device, key): nothing
  compiles at import, the first launch on a device compiles, later launches pay a dict lookup;
* lists the instantiations it may launch with :func:`register`, so that
  ``.ci/compile_kernels.py`` compiles every one with NVRTC (no GPU needed) from
  :func:`instantiations` alone.

Nothing here touches the GPU at import.

>>> import semiring as sr
>>> from semiring import kernels
>>> src = kernels.source("common.cuh", ops=[sr.binary.plus])
>>> "struct op_plus" in src and kernels.PLACEHOLDER not in src
True
>>> len(list(kernels.instantiations())) > 100  # every launcher has registered
True
"""

from __future__ import annotations

import functools
import hashlib
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from importlib import resources

from ..device import _cupy
from ..ops import UnaryOp

#: NVRTC options of every program (a launcher may add ``-D`` overrides for a probe).
NVRTC_OPTIONS = ("-std=c++17",)

#: The line of ``common.cuh`` where the op structs go.
PLACEHOLDER = "@SR_FUNCTORS@"


@functools.lru_cache(maxsize=None)
def text(name: str) -> str:
    """The text of one file of this package."""
    return resources.files(__name__).joinpath(name).read_text()


def functor(op) -> str:
    """The C++ struct generated for an op: ``op_<name>`` (binary, ``f(x, y, ia, ja, ib, jb)``)
    or ``uop_<name>`` (unary, ``f(x, i, j)``)."""
    if isinstance(op, UnaryOp):
        return (
            f"struct uop_{op.name} {{\n"
            f"  template <typename R, typename T> __device__ __forceinline__ static R\n"
            f"  f(T x, sr_index i, sr_index j) {{\n"
            f"    (void)x; (void)i; (void)j;\n"
            f"    return (R)({op.cuda});\n"
            f"  }}\n}};\n"
        )
    return (
        f"struct op_{op.name} {{\n"
        f"  template <typename R, typename T> __device__ __forceinline__ static R\n"
        f"  f(T x, T y, sr_index ia, sr_index ja, sr_index ib, sr_index jb) {{\n"
        f"    (void)x; (void)y; (void)ia; (void)ja; (void)ib; (void)jb;\n"
        f"    return (R)({op.cuda});\n"
        f"  }}\n}};\n"
    )


def semiring_ops(sr) -> list:
    """The ops whose structs a semiring's kernels need: its add op and its multiply (once)."""
    return list({sr.add.op.name: sr.add.op, sr.mul.name: sr.mul}.values())


def source(*files: str, ops=()) -> str:
    """The program of ``files`` (joined in order) with the structs of ``ops`` at the
    placeholder. A program holding the placeholder gets it replaced (by nothing when ``ops`` is
    empty); ``ops`` given to a program without one is an error."""
    code = "\n".join(text(f) for f in files)
    structs = "".join(functor(op) for op in {(type(op), op.name): op for op in ops}.values())
    count = code.count(PLACEHOLDER)
    if count > 1 or (structs and count == 0):
        raise ValueError(f"kernels.source{files}: {count} placeholders {PLACEHOLDER!r} "
                         f"for {len(ops)} ops")
    return code.replace(PLACEHOLDER, structs)


# ------------------------------------------------------------------ the per-device cache

_cache: dict = {}
#: Builds under way: key -> Future, so that a thread asking for a kernel another thread is
#: compiling waits for that compile instead of starting a second one.
_building: dict = {}
_lock = threading.Lock()

#: One record per program this process compiled (or loaded from CuPy's on-disk cache):
#: ``(key, name expressions, seconds, thread name)``. For measurements (``python -m
#: semiring.warmup``, ``bench/probes/probe_first_call.py``); appending costs nothing on a hit.
compile_log: list = []


def device_id() -> int:
    """The current CUDA device (part of every cache key)."""
    return _cupy().cuda.runtime.getDevice()


def memo(key: tuple, build):
    """``build()``, made once per (current device, key) and kept: compiled modules, their
    functions, and what a launcher derives from them (occupancy, attributes). A hit is a dict
    lookup; on a miss one thread builds and the others asking for the same key wait for it
    (see :func:`compile_all`); a failed build is not kept (the next call tries again)."""
    k = (device_id(), *key)
    v = _cache.get(k)
    if v is not None:
        return v
    with _lock:
        v = _cache.get(k)
        if v is not None:
            return v
        fut = _building.get(k)
        mine = fut is None
        if mine:
            fut = _building[k] = Future()
    if not mine:
        return fut.result()
    try:
        v = build()
    except BaseException as err:
        with _lock:
            del _building[k]
        fut.set_exception(err)
        raise
    with _lock:
        _cache[k] = v
        del _building[k]
    fut.set_result(v)
    return v


def _log(key, names, t0):
    compile_log.append((key, tuple(names), time.perf_counter() - t0,
                        threading.current_thread().name))


def module(key: tuple, code, names, *, options=NVRTC_OPTIONS, compile: bool = True, **kw):
    """The RawModule of ``code`` with instantiations ``names``, compiled once per (device,
    key); either may be a function that returns it, called on a miss only (a launch then pays
    a dict lookup, not the program's text or names). ``kw`` goes to ``cupy.RawModule``
    (``enable_cooperative_groups``). For a program whose kernels are launched together (or
    that has no templates); a launcher that takes one kernel at a time uses :func:`function`,
    which compiles that kernel alone."""
    return memo(("module", *key), lambda: _module(key, code, names, options, compile, kw, True))


def _module(key, code, names, options, compile, kw, log):
    t0 = time.perf_counter()
    names = names() if callable(names) else names
    mod = _cupy().RawModule(code=code() if callable(code) else code, options=tuple(options),
                            name_expressions=list(names), **kw)
    if compile:
        mod.compile()
        if log:
            _log(key, names, t0)
    return mod


def function(key: tuple, name: str, code, names, *, options=NVRTC_OPTIONS,
             compile: bool = True, **kw):
    """The kernel ``name`` of a program (same arguments as :func:`module`), compiled **alone**:
    a program of ``code`` with the one name expression ``name``, once per (device, key, name),
    its lookup cached too. ``names`` lists the instantiations the launcher may ask for (a
    function returning it is called on a miss only); ``name`` must be one of them.

    One program per kernel is what makes a first call cheap: NVRTC's time grows with the
    instantiations of a program (the 16 cooperative traversal kernels take 4.6 s together,
    the one a BFS launches 0.7 s alone), and CuPy's on-disk cache keeps each kernel under a
    key of its own (source, options, name), which ``python -m semiring.warmup`` fills ahead."""
    def build():
        t0 = time.perf_counter()
        listed = names() if callable(names) else names
        if name not in listed:
            raise ValueError(f"kernels.function{key}: {name!r} is not one of the "
                             f"{len(listed)} instantiations its launcher lists")
        mkey = (*key, name)
        mod = memo(("module", *mkey),
                   lambda: _module(mkey, code, [name], options, compile, kw, False))
        f = mod.get_function(name)  # compiles here where ``compile`` is false
        _log(mkey, [name], t0)
        return f
    return memo(("function", *key, name), build)


#: Threads of :func:`prefetch` (NVRTC 13 compiles programs of one process at once; NVRTC 12.9
#: serializes them, where a prefetch still overlaps CuPy's own compiles with ours).
PREFETCH_THREADS = 4
_prefetch_pool = None


def cached(key: tuple) -> bool:
    """Whether :func:`memo` holds ``key`` on the current device."""
    return (device_id(), *key) in _cache


def prefetch(lookup, *args, **kw) -> Future:
    """Run ``lookup(*args, **kw)`` -- a launcher's kernel lookup (:func:`function`, or a
    function that calls it) -- on a background thread, on the current device, and return its
    Future: the compile of a kernel a call is about to launch overlaps the call's other work
    (CuPy's element-wise kernels, compiled on the caller's thread on a fresh cache). The
    launch's own lookup then finds it built, or waits for it (:func:`memo`); an error is
    raised there again."""
    global _prefetch_pool
    with _lock:
        if _prefetch_pool is None:
            _prefetch_pool = ThreadPoolExecutor(PREFETCH_THREADS, thread_name_prefix="sr-prefetch")
    dev = device_id()
    cp = _cupy()

    def run():
        with cp.cuda.Device(dev):
            return lookup(*args, **kw)
    return _prefetch_pool.submit(run)


def clear(pred=None):
    """Forget compiled modules (all, or those whose key satisfies ``pred``), e.g. after a probe
    changed a launcher's options."""
    with _lock:
        for k in [k for k in _cache if pred is None or pred(k[1:])]:
            del _cache[k]


@functools.lru_cache(maxsize=None)
def num_sms(device: int) -> int:
    """Multiprocessors of a device (grid sizes of persistent launches)."""
    return _cupy().cuda.Device(device).attributes["MultiProcessorCount"]


# ------------------------------------------------------------------ the registry

_registry: dict = {}
_compile_kw: dict = {}


def register(family: str, **compile_kw):
    """Decorator: ``fn()`` yields (label, source, name_expressions) of every instantiation of a
    kernel family that a launch may compile; CI compiles each with NVRTC. ``compile_kw`` are
    the family's launcher's own :func:`function` keywords where they differ from the defaults
    (``options``, ``enable_cooperative_groups``; a value may be a function returning it, read
    when used), so that :func:`compile_all` compiles each kernel under the key its launch
    looks up in CuPy's on-disk cache."""
    def deco(fn):
        _registry[family] = fn
        _compile_kw[family] = compile_kw
        return fn
    return deco


def families() -> list[str]:
    return sorted(_registry)


def instantiations(families=None):
    """(label, source, name_expressions) of every registered instantiation (of ``families``)."""
    for fam in sorted(_registry) if families is None else families:
        yield from _registry[fam]()


def compile_kw(family: str) -> dict:
    """The :func:`function` keywords of a family's launches (:func:`register`)."""
    return {k: (v() if callable(v) else v) for k, v in _compile_kw[family].items()}


def kernel_jobs(families=None, select=None) -> list:
    """One job per registered kernel instantiation (of ``families``; those for which
    ``select(family, label, name)`` is true): ``(family, label, source, name)``, in registry
    order, each what :func:`compile_job` compiles."""
    jobs = []
    for fam in sorted(_registry) if families is None else families:
        for label, src, names in _registry[fam]():
            jobs.extend((fam, label, src, n) for n in dict.fromkeys(names)  # once each
                        if select is None or select(fam, label, n))
    return jobs


def compile_job(job) -> float:
    """Compile one job of :func:`kernel_jobs` on the current device as its launch would (one
    program, one name expression, the family's options), through CuPy's on-disk cache and
    into this process's cache; returns the seconds it took."""
    fam, _label, src, name = job
    t0 = time.perf_counter()
    kw = {"compile": False, **compile_kw(fam)}
    function(("warm", fam, hashlib.sha1(src.encode()).hexdigest()), name, src, [name], **kw)
    return time.perf_counter() - t0


def compile_all(jobs, *, workers: int = 1, progress=None, compile=None) -> list:
    """Run ``compile(job)`` (default :func:`compile_job`) for every job, on ``workers``
    threads, each thread on the caller's current device; ``progress(job, result)`` after each.
    Returns the results in job order; the first error is raised after the others finished."""
    compile = compile_job if compile is None else compile
    jobs = list(jobs)
    if workers <= 1 or len(jobs) <= 1:
        out = []
        for j in jobs:
            out.append(compile(j))
            if progress:
                progress(j, out[-1])
        return out
    dev = device_id()
    cp = _cupy()

    def run(j):
        with cp.cuda.Device(dev):
            return compile(j)
    with ThreadPoolExecutor(workers, thread_name_prefix="sr-compile") as pool:
        futs = [pool.submit(run, j) for j in jobs]
        if progress:
            index = {f: j for f, j in zip(futs, jobs)}
            for f in as_completed(futs):
                if f.exception() is None:
                    progress(index[f], f.result())
        return [f.result() for f in futs]


@register("apsp_probe")
def _probe_instantiations():
    # the bench's peak probes (extern "C", no templates): bench/apsp_case.py
    yield "apsp_probe", source("apsp_probe.cu"), []
