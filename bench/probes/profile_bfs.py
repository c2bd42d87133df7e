"""Where a BFS's time goes, level by level, on the GPU (a device-tool probe, not a test).

    PYTHONPATH=. python3 bench/probes/profile_bfs.py kron-22 [grid-2048x2048 ...]

For each graph: the whole BFS (median of 5, CUDA events), then one traced run that times each
algebra call and each host synchronization of the level loop, with the frontier's size and
direction, so per-level overhead can be told from kernel time.
"""

from __future__ import annotations

import sys
import time

import cupy as cp
import numpy as np

import algorithms
import semiring as sr
from bench import generators as gen


def timed(f, *a, **k):
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    r = f(*a, **k)
    cp.cuda.Device().synchronize()
    return r, (time.perf_counter() - t) * 1e3


def main(specs):
    for spec in specs:
        S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp)
        A = sr.Matrix.from_cupyx(S)
        A = A.pattern() if hasattr(A, "pattern") else A
        deg = cp.diff(A.indptr)
        source = int(cp.argmax(deg > 0))
        algorithms.bfs(A, source, symmetric=True)  # warm-up: compiles, builds schedules
        ts = []
        for _ in range(5):
            _, ms = timed(algorithms.bfs, A, source, symmetric=True)
            ts.append(ms)
        print(f"{spec}: n={A.nrows} nnz={A.nvals} bfs median {np.median(ts):.3f} ms (all: "
              f"{', '.join(f'{t:.2f}' for t in ts)})")
        # one traced run: every vxm and push_levels call, synchronized
        calls = []
        orig_vxm, orig_fused = sr.vxm, algorithms.bfs.__globals__["traversal"].push_levels

        def vxm(q, M, semiring, **kw):
            r, ms = timed(orig_vxm, q, M, semiring, **kw)
            calls.append((kw.get("direction"), q.nvals, r.nvals, ms))
            return r

        def fused(*a, **k):
            r, ms = timed(orig_fused, *a, **k)
            calls.append(("fused", a[2].size, r, ms))
            return r

        kernels = []
        from semiring.backend.gpu import spmv as _gpu
        orig_pull, orig_push = _gpu.pull, _gpu.push

        def pull(*a, **k):
            r, ms = timed(orig_pull, *a, **k)
            kernels.append(("pull", ms))
            return r

        def push(*a, **k):
            r, ms = timed(orig_push, *a, **k)
            kernels.append(("push", ms))
            return r

        _gpu.pull, _gpu.push = pull, push
        sr.vxm = vxm
        algorithms.bfs.__globals__["traversal"].push_levels = fused
        try:
            _, total = timed(algorithms.bfs, A, source, symmetric=True)
        finally:
            sr.vxm = orig_vxm
            _gpu.pull, _gpu.push = orig_pull, orig_push
            algorithms.bfs.__globals__["traversal"].push_levels = orig_fused
        inside = sum(c[3] for c in calls)
        print("   backend calls:", ", ".join(f"{k} {ms:.3f}" for k, ms in kernels))
        for c in calls:
            print(f"   {c[0]:>6}  in {c[1]:>9}  out {c[2]!s:>22}  {c[3]:8.3f} ms")
        print(f"   traced total {total:.3f} ms, in calls {inside:.3f} ms, "
              f"between calls {total - inside:.3f} ms over {len(calls)} calls")


if __name__ == "__main__":
    main(sys.argv[1:] or ["kron-22"])
