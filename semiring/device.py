"""Devices: where new objects live, which array module an object uses, and explicit moves.

The GPU backend is CuPy; the CPU backend is NumPy/SciPy. Nothing here touches the GPU at import
time: :func:`gpu_available` asks CuPy for a device the first time it is called and remembers
the answer. ``SEMIRING_BACKEND=cpu|gpu`` overrides the default device for new objects.
"""

from __future__ import annotations

import functools
import os

import numpy as np

from .errors import BackendUnavailable, DeviceMismatch, InvalidValue

ENV_VAR = "SEMIRING_BACKEND"
DEVICES = ("cpu", "gpu")


@functools.lru_cache(maxsize=None)
def _cupy():
    """Return the cupy module, or None when it cannot be imported."""
    try:
        import cupy  # noqa: PLC0415  (CuPy: optional, probed on first use)

        return cupy
    except Exception:  # ImportError, or a broken CUDA install raising at import
        return None


@functools.lru_cache(maxsize=None)
def gpu_available() -> bool:
    """Whether CuPy imports *and* a CUDA device answers.

    Examples
    --------
    >>> import semiring as sr
    >>> isinstance(sr.gpu_available(), bool)
    True
    """
    cp = _cupy()
    if cp is None:
        return False
    try:
        return cp.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def default_device() -> str:
    """The device new objects are created on: ``'gpu'`` or ``'cpu'``.

    ``SEMIRING_BACKEND`` decides when set; otherwise the GPU when one answers, else the CPU.

    Examples
    --------
    >>> import semiring as sr
    >>> sr.default_device() in ("cpu", "gpu")
    True
    """
    env = os.environ.get(ENV_VAR, "").strip().lower()
    if env:
        if env not in DEVICES:
            raise InvalidValue(f"{ENV_VAR}: expected one of {DEVICES}, got {env!r}")
        if env == "gpu" and not gpu_available():
            raise BackendUnavailable(
                f"{ENV_VAR}=gpu but no GPU answers (CuPy importable: {_cupy() is not None})"
            )
        return env
    return "gpu" if gpu_available() else "cpu"


def resolve_device(device: str | None) -> str:
    """Validate a ``device=`` argument; None means :func:`default_device`."""
    if device is None:
        return default_device()
    if device not in DEVICES:
        raise InvalidValue(f"device: expected one of {DEVICES} or None, got {device!r}")
    if device == "gpu" and not gpu_available():
        raise BackendUnavailable("device='gpu' requested but no GPU answers")
    return device


def xp_of(device: str):
    """The array module of a device: ``numpy`` for ``'cpu'``, ``cupy`` for ``'gpu'``.

    Public as ``semiring.array_module``.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> sr.array_module("cpu") is np
    True
    """
    if device == "cpu" or device is None:  # (None: the CPU, as a CPU cluster's layouts say)
        return np
    return _gpu_module("array_module", device)


def _gpu_module(op: str, device):
    """CuPy for ``device='gpu'``; any other device (but 'cpu', handled by the caller) is
    refused naming ``op``, and so is 'gpu' without CuPy (a None module would fail later, far
    from the call)."""
    if device != "gpu":
        raise InvalidValue(f"{op}: device must be one of {DEVICES}, got {device!r}")
    cp = _cupy()
    if cp is None:
        raise BackendUnavailable(f"{op}: device='gpu' requested but CuPy cannot be imported")
    return cp


def is_cupy_array(a) -> bool:
    """Whether ``a`` is a CuPy array (False without CuPy). Public as ``semiring.is_gpu_array``."""
    cp = _cupy()
    return cp is not None and isinstance(a, cp.ndarray)


def device_of_array(a) -> str:
    """``'gpu'`` for a CuPy array, ``'cpu'`` for anything else NumPy can take.

    Public as ``semiring.device_of``.

    Examples
    --------
    >>> import numpy as np, semiring as sr
    >>> sr.device_of(np.zeros(3))
    'cpu'
    """
    return "gpu" if is_cupy_array(a) else "cpu"


def to_device(a, device: str):
    """Explicit move of an array to ``device`` (used only by the ``to_gpu``/``to_cpu`` family,
    and by algorithms that hand results back where the caller's input lives). Public as
    ``semiring.to_device``."""
    if a is None:
        return None
    if device != "cpu" and device is not None:
        return _gpu_module("to_device", device).asarray(a)
    if is_cupy_array(a):
        return a.get()
    return np.asarray(a)


def check_same_device(op: str, **objects) -> str:
    """Return the one device all named objects live on, or raise naming both."""
    seen = {}
    for name, obj in objects.items():
        if obj is None:
            continue
        seen.setdefault(obj.device, name)
    if len(seen) > 1:
        (d1, n1), (d2, n2) = list(seen.items())[:2]
        raise DeviceMismatch(
            f"{op}: {n1} is on the {d1.upper()} but {n2} is on the {d2.upper()}; "
            f"move one explicitly with .to_gpu() or .to_cpu()"
        )
    return next(iter(seen)) if seen else default_device()


class Placed:
    """Mixin of objects that live on one device and move only on request (``_moved``)."""

    def to_gpu(self):
        """A copy on the GPU (self if already there)."""
        if self.device == "gpu":
            return self
        resolve_device("gpu")
        return self._moved("gpu")

    def to_cpu(self):
        """A copy on the CPU (self if already there)."""
        if self.device == "cpu":
            return self
        return self._moved("cpu")


def bincount(x, minlength: int):
    """How often each value of ``x`` occurs: an int64 array of length ``minlength``, for
    non-negative integers ``x`` below ``minlength`` (as ``numpy.bincount``; CSR row and column
    indices, bin numbers).

    On the GPU it is one atomic count (``cupy.add.at``): CuPy's ``bincount`` first checks
    ``(x < 0).any()`` and takes ``max(x)``, two host syncs, and the check is a CUB reduction
    whose first compile on a fresh kernel cache costs about 5 s (measured on an H100 host:
    bench/probes/probe_first_call.py), paid by the first transpose or SpMV of a process.

    Examples
    --------
    >>> import numpy as np
    >>> from semiring.device import bincount
    >>> bincount(np.array([1, 1, 3]), 5).tolist()
    [0, 2, 0, 1, 0]
    """
    if isinstance(x, np.ndarray):
        return np.bincount(x, minlength=minlength).astype(np.int64, copy=False)
    cp = _cupy()
    out = cp.zeros(minlength, dtype=cp.uint64)  # the atomic add of 64-bit integers is unsigned
    if x.size:
        cp.add.at(out, x, cp.uint64(1))  # (cupyx.scatter_add: deprecated since CuPy 14)
    return out.view(cp.int64)


def contiguous(xp, a):
    """``a`` itself when its items are adjacent, else a contiguous copy: a GPU kernel gets an
    array by its address alone (CuPy passes no strides), so a strided view (x[::2]) would be
    read as the items that follow its first."""
    return a if a.flags.c_contiguous else xp.ascontiguousarray(a)


def any_true(a) -> bool:
    """``bool(a.any())`` for a bool array, without a CUB reduction on the GPU: CuPy's ``any``
    is one, whose first compile on a fresh kernel cache costs about 5 s (two passes of about
    2.7 s on an H100 host, bench/probes/probe_first_call.py); on the GPU this counts the true
    entries by CuPy's scan (``flatnonzero``, a few 0.1 s compiles shared with every boolean
    index). One host sync either way.

    Examples
    --------
    >>> import numpy as np
    >>> from semiring.device import any_true
    >>> any_true(np.array([False, True])), any_true(np.zeros(0, dtype=bool))
    (True, False)
    """
    if isinstance(a, np.ndarray):
        return bool(a.any())
    return bool(_cupy().flatnonzero(a).size)
