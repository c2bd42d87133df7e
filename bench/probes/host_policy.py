"""Which launch-bound analytics would run faster on the host for GPU input (the data for a
``policy`` like ``algorithms.maximum_flow``'s): each algorithm on the GPU matrix against the
same call on its host copy (the copy there and the result back included), Kronecker graphs
and 2-D grids of several sizes, best of ``--reps`` after one untimed call, capped per case.
The GPU column runs the GPU path (the algorithms' host routes turned off); every kernel is
compiled on a small graph first.

Usage: PYTHONPATH=. python3 bench/probes/host_policy.py [--kron 12,14,16,18]
       [--grid 100,300,1000] [--algorithms label_propagation,louvain,core_number,k_truss,msf]
       [--max-seconds 5]
"""

import argparse
import importlib
import time

import algorithms as alg
import semiring as sr
from bench import generators as gen

CALLS = {
    "label_propagation": lambda A: alg.label_propagation(A),
    "louvain": lambda A: alg.louvain(A, seed=0),
    "core_number": lambda A: alg.core_number(A),
    "k_truss": lambda A: alg.k_truss(A, 4),
    "msf": lambda A: alg.minimum_spanning_forest(A),
}


def _sync():
    import cupy  # noqa: PLC0415  (GPU runs only)

    cupy.cuda.get_current_stream().synchronize()


def _clock(f, reps, cap):
    t = time.perf_counter()
    f()
    _sync()
    first = time.perf_counter() - t
    if first > cap:
        return first
    best = first
    for _ in range(reps):
        t = time.perf_counter()
        f()
        _sync()
        best = min(best, time.perf_counter() - t)
    return best


def _back(out):
    """A result moved to the GPU (arrays, Matrix objects, tuples of them)."""
    if isinstance(out, tuple):
        return tuple(_back(x) for x in out)
    if hasattr(out, "to_gpu"):
        return out.to_gpu()
    return sr.to_device(out, "gpu") if hasattr(out, "dtype") else out


def _on_host(call, A):
    return lambda: _back(call(A.to_cpu()))


# the GPU column times the GPU path: every host route off (module, bound's name)
ROUTES = [("algorithms.cores", "CORE_HOST_MAX_ENTRIES"),
          ("algorithms.cores", "TRUSS_HOST_MAX_ENTRIES"),
          ("algorithms.community", "LABEL_PROPAGATION_HOST_MAX_ENTRIES"),
          ("algorithms.community", "LOUVAIN_HOST_MAX_ENTRIES"),
          ("algorithms.mst", "HOST_MAX_ENTRIES")]


def _routes_off():
    for module, name in ROUTES:
        setattr(importlib.import_module(module), name, 0)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kron", default="12,14,16,18")
    p.add_argument("--grid", default="100,300,1000")
    p.add_argument("--algorithms", default=",".join(CALLS))
    p.add_argument("--reps", type=int, default=1)
    p.add_argument("--max-seconds", type=float, default=5.0)
    a = p.parse_args()
    graphs = [(f"kron-{s}", lambda s=s: gen.kronecker(int(s), xp=sr.array_module("gpu")))
              for s in a.kron.split(",") if s]
    graphs += [(f"grid-{s}", lambda s=s: gen.grid2d(int(s), xp=sr.array_module("gpu")))
               for s in a.grid.split(",") if s]
    names = [x for x in a.algorithms.split(",") if x]
    _routes_off()
    tiny = sr.as_matrix(gen.kronecker(6, xp=sr.array_module("gpu")), op="probe", arg="A")
    for name in names:  # compiles (CUDA and Numba) before any clock
        CALLS[name](tiny)
        CALLS[name](tiny.to_cpu())
    print("| graph | n | stored | algorithm | GPU ms | host ms (copies included) | GPU / host |")
    print("|---|---:|---:|---|---:|---:|---:|", flush=True)
    slow = set()
    for gname, make in graphs:
        A = sr.as_matrix(make(), op="probe", arg="A")
        kind = gname.split("-")[0]
        for name in names:
            if (kind, name) in slow:
                continue
            call = CALLS[name]
            tg = _clock(lambda: call(A), a.reps, a.max_seconds)
            th = _clock(_on_host(call, A), a.reps, a.max_seconds)
            print(f"| {gname} | {A.nrows} | {A.nvals} | {name} | {tg * 1e3:.1f} | "
                  f"{th * 1e3:.1f} | {tg / th:.3g} |", flush=True)
            if max(tg, th) > a.max_seconds:
                slow.add((kind, name))


if __name__ == "__main__":
    main()
