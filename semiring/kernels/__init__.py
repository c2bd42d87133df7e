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


def device_id() -> int:
    """The current CUDA device (part of every cache key)."""
    return _cupy().cuda.runtime.getDevice()


def memo(key: tuple, build):
    """``build()``, made once per (current device, key) and kept: compiled modules, their
    functions, and what a launcher derives from them (occupancy, attributes)."""
    k = (device_id(), *key)
    v = _cache.get(k)
    if v is None:
        v = _cache[k] = build()
    return v


def module(key: tuple, code, names, *, options=NVRTC_OPTIONS, compile: bool = True, **kw):
    """The RawModule of ``code`` with instantiations ``names``, compiled once per (device,
    key); either may be a function that returns it, called on a miss only (a launch then pays
    a dict lookup, not the program's text or names). ``kw`` goes to ``cupy.RawModule``
    (``enable_cooperative_groups``)."""
    def build():
        mod = _cupy().RawModule(code=code() if callable(code) else code, options=tuple(options),
                                name_expressions=list(names() if callable(names) else names),
                                **kw)
        if compile:
            mod.compile()
        return mod
    return memo(("module", *key), build)


def function(key: tuple, name: str, code, names, **kw):
    """One kernel of the module of :func:`module` (same arguments), its lookup cached too."""
    return memo(("function", *key, name), lambda: module(key, code, names, **kw).get_function(name))


def clear(pred=None):
    """Forget compiled modules (all, or those whose key satisfies ``pred``), e.g. after a probe
    changed a launcher's options."""
    for k in [k for k in _cache if pred is None or pred(k[1:])]:
        del _cache[k]


@functools.lru_cache(maxsize=None)
def num_sms(device: int) -> int:
    """Multiprocessors of a device (grid sizes of persistent launches)."""
    return _cupy().cuda.Device(device).attributes["MultiProcessorCount"]


# ------------------------------------------------------------------ the registry

_registry: dict = {}


def register(family: str):
    """Decorator: ``fn()`` yields (label, source, name_expressions) of every instantiation of a
    kernel family that a launch may compile; CI compiles each with NVRTC."""
    def deco(fn):
        _registry[family] = fn
        return fn
    return deco


def families() -> list[str]:
    return sorted(_registry)


def instantiations(families=None):
    """(label, source, name_expressions) of every registered instantiation (of ``families``)."""
    for fam in sorted(_registry) if families is None else families:
        yield from _registry[fam]()


@register("apsp_probe")
def _probe_instantiations():
    # the bench's peak probes (extern "C", no templates): bench/apsp_case.py
    yield "apsp_probe", source("apsp_probe.cu"), []
