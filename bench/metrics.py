"""Metrics and conventions: bytes moved, rates, Graph500 TEPS, APSP relaxations, environment.

Conventions (also written into every JSON/Markdown report, see :data:`CONVENTIONS`):

- Times are medians over the timed runs that follow a warm-up run, in milliseconds. GPU
  implementations are timed with CUDA events on the current stream; CPU ones with
  ``time.perf_counter``.
- Rates are per second in units of 1e9 (G). For SpMV, ``GE/s`` is stored entries / time; for
  SpMSpV it is *frontier edges* (the stored entries of the frontier's rows) / time.
- SpMV bytes are the minimal traffic: indptr, indices and values read once, x read once, y
  written once (the gather of x per entry is not counted), so GB/s of different semirings are
  comparable and bounded by the memory bandwidth.
- TEPS (traversals, later issues) follow Graph500: the number of undirected input edges with
  both endpoints in the traversed component, each counted once, divided by the time. The input
  edges are the generator's edges after duplicates and self-loops are removed (GAP's count).
- APSP: relaxations (one ``d[i,j] = min(d[i,j], d[i,k] + d[k,j])``) per second, against the
  measured peak of the dense min-plus kernel.
"""

from __future__ import annotations

import datetime as _dt
import functools
import importlib.util
import math
import os
import platform
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import scipy

CONVENTIONS = {
    "time": "median of the timed runs after one warm-up run; GPU: CUDA events on the current "
            "stream; CPU: time.perf_counter",
    "spmv_bytes": "minimal traffic: indptr + indices + values read once, x read once, y written "
                  "once (the per-entry gather of x is not counted)",
    "spmv_rate": "GE/s = stored entries (nnz) / time / 1e9",
    "spmspv_rate": "GE/s = frontier edges (stored entries in the frontier's rows) / time / 1e9",
    "teps": "Graph500: undirected input edges (after duplicate and self-loop removal) with both "
            "endpoints in the traversed component, each counted once, / time",
    "apsp": "relaxations d[i,j] = min(d[i,j], d[i,k] + d[k,j]) per second; peak = measured "
            "dense min-plus kernel rate",
    "ratios": "ratios[a][b] = time(b) / time(a): how many times faster a is than b",
}


# --------------------------------------------------------------------------------------------
# bytes and rates


def csr_bytes(A) -> int:
    """Bytes of a CSR matrix's three arrays (indptr, indices, values)."""
    return int(A.indptr.nbytes + A.indices.nbytes + A.data.nbytes)


def spmv_bytes(A, x_itemsize: int | None = None, y_itemsize: int | None = None) -> int:
    """Minimal bytes moved by ``y = A x`` with dense x and y: A read once, x read once, y
    written once."""
    n_rows, n_cols = A.shape
    xs = A.data.dtype.itemsize if x_itemsize is None else x_itemsize
    ys = A.data.dtype.itemsize if y_itemsize is None else y_itemsize
    return csr_bytes(A) + n_cols * xs + n_rows * ys


def gbps(nbytes: int, seconds: float) -> float:
    return nbytes / seconds / 1e9 if seconds > 0 else float("nan")


def giga_rate(count: float, seconds: float) -> float:
    """``count / seconds / 1e9`` (e.g. GE/s, GTEPS)."""
    return count / seconds / 1e9 if seconds > 0 else float("nan")


def frontier_edges(A, frontier) -> int:
    """Stored entries in the rows of ``frontier`` (host indices): the work of a push step."""
    indptr = np.asarray(A.indptr)
    f = np.asarray(frontier, dtype=np.int64)
    return int((indptr[f + 1].astype(np.int64) - indptr[f]).sum())


# --------------------------------------------------------------------------------------------
# Graph500 TEPS


def visited_mask(result, *, n: int | None = None) -> np.ndarray:
    """A boolean mask of reached vertices from a traversal result on the host.

    Accepts a boolean mask; BFS levels or parents (int; negative = unreached, as SciPy's
    -9999 sentinel); or distances (float; inf or NaN = unreached).
    """
    r = np.asarray(result)
    if r.dtype == bool:
        return r
    if np.issubdtype(r.dtype, np.floating):
        return np.isfinite(r)
    return r >= 0


def traversed_edges(A, visited, *, undirected: bool = True) -> int:
    """Edges counted by Graph500 for a traversal that reached ``visited``.

    Undirected graph (symmetric ``A``): each undirected edge with both endpoints visited, counted
    once: (sum of the visited rows' degrees - self-loops) / 2 + self-loops. Directed: stored
    entries whose source row is visited.
    """
    vis = visited_mask(visited)
    indptr = np.asarray(A.indptr).astype(np.int64)
    indices = np.asarray(A.indices)
    deg = np.diff(indptr)
    total = int(deg[vis].sum())
    if not undirected:
        return total
    rows = np.repeat(np.arange(A.shape[0]), deg)
    loops = int((vis[rows] & (rows == indices)).sum())
    return (total - loops) // 2 + loops


def gteps(edges: int, seconds: float) -> float:
    """Giga traversed edges per second."""
    return giga_rate(edges, seconds)


# --------------------------------------------------------------------------------------------
# APSP


def apsp_relaxations(n: int, method: str = "floyd_warshall") -> int:
    """Relaxations done by an APSP method on ``n`` vertices.

    ``floyd_warshall`` (blocked or not): n^3. ``minplus_squaring``: ceil(log2(n-1)) dense
    min-plus products of n^3 each.
    """
    if method in ("floyd_warshall", "fw", "blocked_fw"):
        return n ** 3
    if method in ("minplus_squaring", "squaring"):
        return n ** 3 * max(1, math.ceil(math.log2(max(2, n - 1))))
    raise ValueError(f"apsp_relaxations: unknown method {method!r}")


# --------------------------------------------------------------------------------------------
# ratios


def ratio_matrix(times_ms: dict[str, float]) -> dict[str, dict[str, float]]:
    """``r[a][b] = t_b / t_a``: how many times faster ``a`` is than ``b`` (a > 1: a faster)."""
    out: dict[str, dict[str, float]] = {}
    for a, ta in times_ms.items():
        out[a] = {}
        for b, tb in times_ms.items():
            if a != b and ta and tb and ta > 0 and tb > 0:
                out[a][b] = tb / ta
    return out


# --------------------------------------------------------------------------------------------
# environment


@functools.lru_cache(maxsize=None)
def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def _git_commit() -> str | None:
    """HEAD's short hash, with ``-dirty`` when the tree differs from it (a copy of a working
    tree, as on a lent GPU machine, may carry a .git that is older than its files)."""
    root = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"],
                             cwd=root, capture_output=True, text=True, timeout=5)
        if out.returncode == 0:
            return out.stdout.strip() or None
    except Exception:
        pass
    return None


def _semiring_version() -> str | None:
    try:  # importing the engine touches no GPU
        import semiring  # noqa: PLC0415  (guarded: the record falls back to the installed metadata when the engine fails to import)

        return getattr(semiring, "__version__", None)
    except Exception:
        pass
    try:
        return version("semiring")
    except Exception:
        return None


def cuda_version_string(v) -> str | None:
    """CUDA's integer version (e.g. 13020) as text ('13.2')."""
    if not v:
        return None
    v = int(v)
    return f"{v // 1000}.{(v % 1000) // 10}"


def gpu_info() -> dict:
    """Name, memory, SM count, theoretical bandwidth of GPU 0 and the CuPy/CUDA versions;
    ``{}`` when CuPy does not import or no device answers."""
    try:
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        rt = cupy.cuda.runtime
        dev = cupy.cuda.Device().id
        props = rt.getDeviceProperties(dev)
    except Exception:
        return {}
    name = props.get("name", b"")
    name = name.decode() if isinstance(name, bytes) else str(name)
    info = {
        "gpu_name": name,
        "gpu_index": dev,
        "gpu_memory_gib": round(props.get("totalGlobalMem", 0) / 2**30, 2),
        "gpu_sm_count": props.get("multiProcessorCount"),
        "gpu_compute_capability": f"{props.get('major')}.{props.get('minor')}",
        "cupy_version": cupy.__version__,
    }
    try:
        info["cuda_runtime_version"] = cuda_version_string(rt.runtimeGetVersion())
        info["cuda_driver_version"] = cuda_version_string(rt.driverGetVersion())
    except Exception:
        pass
    # Theoretical DRAM bandwidth = 2 (DDR) * memory clock * bus width. CUDA 13 dropped the
    # clock from cudaDeviceProp, so ask the attribute (36 = cudaDevAttrMemoryClockRate, kHz;
    # 37 = cudaDevAttrGlobalMemoryBusWidth, bits).
    try:
        clock_khz = props.get("memoryClockRate") or rt.deviceGetAttribute(36, dev)
        bus_bits = props.get("memoryBusWidth") or rt.deviceGetAttribute(37, dev)
        if clock_khz and bus_bits:
            info["gpu_peak_gbps"] = round(2 * clock_khz * 1e3 * bus_bits / 8 / 1e9, 1)
    except Exception:
        pass
    return info


def environment(gpu: bool) -> dict:
    """The environment stamped on every result record."""
    env = {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "numpy_version": np.__version__,
        "scipy_version": scipy.__version__,
        "semiring_version": _semiring_version(),
        "git_commit": _git_commit(),
        "cupy_version": None,
        "cuda_runtime_version": None,
        "gpu_name": None,
    }
    if gpu:
        env.update(gpu_info())
    else:
        try:  # versions are worth recording even on a CPU run, if CuPy happens to import
            if importlib.util.find_spec("cupy") is not None:
                for dist in ("cupy-cuda13x", "cupy-cuda12x", "cupy"):
                    try:
                        env["cupy_version"] = version(dist)
                        break
                    except Exception:
                        continue
        except Exception:
            pass
    return env


def device_name(device: str, env: dict) -> str:
    """The name of the device an implementation ran on."""
    if device == "gpu":
        return env.get("gpu_name") or "unknown GPU"
    return env.get("cpu_model") or "unknown CPU"
