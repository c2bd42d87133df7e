"""Which maximum flow ``algorithms.maximum_flow(method="auto")`` should pick for GPU input:
the GPU's push–relabel rounds, or SciPy's Dinic on the host (copies there and back
included). For Kronecker, uniform random, 2-D grid and random geometric graphs of several
sizes (integer capacities in [1, 255]; source: the busiest vertex, sink: the vertex farthest
from it by BFS, a hard pair on a high-diameter graph), it times both (best of ``--reps``
after one untimed call) and checks that their values agree.

Usage: PYTHONPATH=. python3 bench/probes/flow_policy.py [--kron 10,14,18] [--grid 100,300,1000]
       [--urand 14,18] [--rgg 14,18] [--reps 2] [--max-seconds 20]
"""

import argparse
import time

import numpy as np

import algorithms as alg
import semiring as sr
from bench import generators as gen


def _capacities(A, seed=0):
    """A's pattern with integer capacities in [1, 255] (the same for both methods)."""
    rows, cols, _ = A.to_coo()
    xp = A.xp
    rng = np.random.default_rng(seed)
    caps = xp.asarray(rng.integers(1, 256, size=int(rows.size)), dtype=xp.int64)
    return sr.Matrix.from_coo(rows, cols, caps, nrows=A.nrows, ncols=A.ncols, device=A.device)


def _clock(f, reps):
    f()
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        if sr.default_device() == "gpu":
            import cupy  # noqa: PLC0415  (GPU runs only)

            cupy.cuda.get_current_stream().synchronize()
        best = min(best, time.perf_counter() - t)
    return best, out


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kron", default="10,14,18")
    p.add_argument("--urand", default="14,18")
    p.add_argument("--grid", default="100,300,1000")
    p.add_argument("--rgg", default="14,18")
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--max-seconds", type=float, default=20.0,
                   help="skip larger graphs of a kind once a method took this long")
    a = p.parse_args()
    dev = sr.default_device()
    print(f"device: {dev}", flush=True)
    graphs = [(f"kron-{s}", lambda s=s: gen.kronecker(int(s), xp=sr.array_module(dev)))
              for s in a.kron.split(",") if s]
    graphs += [(f"urand-{s}", lambda s=s: gen.urand(int(s), xp=sr.array_module(dev)))
               for s in a.urand.split(",") if s]
    graphs += [(f"grid-{s}", lambda s=s: gen.grid2d(int(s), xp=sr.array_module(dev)))
               for s in a.grid.split(",") if s]
    graphs += [(f"rgg-{s}", lambda s=s: gen.rgg(int(s), xp=sr.array_module(dev)))
               for s in a.rgg.split(",") if s]
    print("| graph | n | stored | push_relabel ms | dinic (host) ms | dinic / push_relabel | "
          "flow |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    slow = set()
    for name, make in graphs:
        kind = name.split("-")[0]
        if kind in slow:
            continue
        A = _capacities(sr.as_matrix(make(), op="probe", arg="A"))
        s = int(np.argmax(np.diff(sr.to_device(A.indptr, "cpu"))))
        lv = sr.to_device(alg.bfs(A, s), "cpu")
        t = int(np.argmax(lv))
        tp, rp = _clock(lambda: alg.maximum_flow(A, s, t, method="push_relabel"), a.reps)
        td, rd = _clock(lambda: alg.maximum_flow(A, s, t, method="dinic"), a.reps)
        assert rp.flow_value == rd.flow_value, (name, rp.flow_value, rd.flow_value)
        print(f"| {name} | {A.nrows} | {A.nvals} | {tp * 1e3:.2f} | {td * 1e3:.2f} | "
              f"{td / tp:.3g} | {rd.flow_value} |", flush=True)
        if max(tp, td) > a.max_seconds:
            slow.add(kind)


if __name__ == "__main__":
    main()
