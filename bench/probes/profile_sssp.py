"""Where an SSSP's time goes, call by call, on the GPU (a device-tool probe, not a test).

    PYTHONPATH=. python3 bench/probes/profile_sssp.py kron-22 [bf|delta]

The whole run (median of 5, CUDA-synchronized wall time), then one traced run that times each
traversal call (fused rounds, multi-block push and pull rounds) with a synchronization before
and after, and prints per kind: calls, frontier sizes, total ms; the rest is host bookkeeping.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict

import cupy as cp
import numpy as np

import algorithms
import semiring as sr
from bench import generators as gen
from semiring import traversal


def main(spec, method="delta"):
    S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp)
    A = sr.Matrix.from_cupyx(S)
    source = int(cp.argmax(cp.diff(A.indptr) > 0))
    f = algorithms.delta_stepping if method == "delta" else algorithms.bellman_ford
    run = lambda: f(A, source, symmetric=True)  # noqa: E731
    run()
    ts = []
    for _ in range(5):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        run()
        cp.cuda.Device().synchronize()
        ts.append((time.perf_counter() - t) * 1e3)
    print(f"{spec} {method}: median {np.median(ts):.2f} ms")
    stats = defaultdict(lambda: [0, 0.0, []])
    for name in ("relax_rounds", "push_relax", "pull_relax"):
        orig = getattr(traversal, name)

        def traced(*a, _orig=orig, _name=name, **k):
            cp.cuda.Device().synchronize()
            t = time.perf_counter()
            r = _orig(*a, **k)
            cp.cuda.Device().synchronize()
            s = stats[_name]
            s[0] += 1
            s[1] += (time.perf_counter() - t) * 1e3
            fr = a[2]
            s[2].append(int(fr.sum()) if fr.dtype == bool else int(fr.size))
            return r
        setattr(traversal, name, traced)
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    run()
    cp.cuda.Device().synchronize()
    total = (time.perf_counter() - t) * 1e3
    inside = 0.0
    for name, (calls, ms, sizes) in stats.items():
        inside += ms
        print(f"  {name:13s} calls {calls:4d}  {ms:8.2f} ms  frontiers {sizes[:12]}{' ...' if len(sizes) > 12 else ''}")
    print(f"  traced total {total:.2f} ms, in calls {inside:.2f} ms, elsewhere {total - inside:.2f} ms")


if __name__ == "__main__":
    main(*sys.argv[1:])
