"""Timing: CUDA events for GPU implementations, ``time.perf_counter`` for CPU ones.

:func:`measure` runs ``warmup`` warm-up calls (compilation, caches, allocator pools; the first
one's time is kept as ``warmup_ms``, the first call's), then timed calls:
at least ``min_runs`` unless one call is longer than ``long_call_s`` (then one suffices), at
most ``max_runs``, and no more than fit in ``budget_s``. It returns every time in milliseconds
and the result of the last timed call (the one that is checked against the reference, so the
timed code is the checked code).
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class TimingPolicy:
    warmup: int = 1
    min_runs: int = 3
    max_runs: int = 10
    budget_s: float = 1.0  # time for the timed runs of one implementation on one case
    long_call_s: float = 2.0  # a call longer than this is timed once


@dataclass
class Timing:
    times_ms: list[float] = field(default_factory=list)
    warmup_ms: float | None = None

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms) if self.times_ms else math.nan

    @property
    def min_ms(self) -> float:
        return min(self.times_ms) if self.times_ms else math.nan


def _gpu_call(fn: Callable[[], Any]) -> tuple[float, Any]:
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    stream = cupy.cuda.get_current_stream()
    start = cupy.cuda.Event()
    end = cupy.cuda.Event()
    start.record(stream)
    out = fn()
    end.record(stream)
    end.synchronize()
    return cupy.cuda.get_elapsed_time(start, end), out


def _cpu_call(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1e3, out


def timed_call(fn: Callable[[], Any], device: str) -> tuple[float, Any]:
    """One call of ``fn``, timed on ``device`` ('gpu': CUDA events; 'cpu': perf_counter)."""
    return _gpu_call(fn) if device == "gpu" else _cpu_call(fn)


def measure(fn: Callable[[], Any], device: str, policy: TimingPolicy | None = None
            ) -> tuple[Timing, Any]:
    """Warm-up then timed calls of ``fn``; see the module docstring. An ``fn`` with a
    ``self_timed(policy) -> (Timing, result)`` method times itself (an external program that
    reports its own trial times: GAP, ``bench/peers_gap.py``)."""
    if hasattr(fn, "self_timed"):
        return fn.self_timed(policy)
    policy = policy or TimingPolicy()
    timing = Timing()
    out = None
    first_ms = None
    for _ in range(policy.warmup):
        ms, out = timed_call(fn, device)
        first_ms = ms if first_ms is None else first_ms
        out = None  # let the warm-up result go before the timed runs
    timing.warmup_ms = first_ms
    spent = 0.0
    while True:
        ms, out = timed_call(fn, device)
        timing.times_ms.append(ms)
        spent += ms / 1e3
        k = len(timing.times_ms)
        stop = (k >= policy.max_runs
                or ms / 1e3 > policy.long_call_s
                or (k >= policy.min_runs and spent + ms / 1e3 > policy.budget_s))
        if stop:
            break
        out = None  # only the last call's result is kept
    return timing, out


def best_wall_ms(fn: Callable[[], Any], reps: int) -> float:
    """The probes' measure: the least wall time (ms) of ``reps`` calls of ``fn`` after one
    untimed, the device synchronized before each and after (GPU only: a probe's host and
    device time together, as a caller waiting for the answer sees it)."""
    import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

    sync = cupy.cuda.Device().synchronize
    fn()
    sync()
    t = math.inf
    for _ in range(reps):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        t = min(t, time.perf_counter() - t0)
    return t * 1e3
