"""SSSP on GAP's low-diameter graphs (kron, urand; weights 1-255) on the GPU: where the time
goes and which Δ / variant wins (a device probe, not a test).

    PYTHONPATH=. python3 bench/probes/sssp_dense_probe.py [--graphs kron-22 urand-22]
        [--scales 0.5 1 2 4] [--road-scales 16] [--schedules ranges search] [--blocks 1 2]
        [--bf] [--host-scales 8 1 0.25] [--variants SR_SSSP_ONE_SCAN=1 ...]
        [--variant-scales 2] [--variant-blocks 2] [--reps 5] [--check scipy|engine]

For each graph (bench.generators on the GPU, a random source of nonzero degree as in
road_probe.py): the reference distances once (SciPy's Dijkstra, or the engine's host buckets),
one min-plus SpMV over A (a whole pass: the bandwidth floor of a round), then best-of-reps of
``algorithms.sssp`` as the policy runs it and as session 7's policy ran it (host buckets off
road-like graphs, the "search" schedule on them), ``bellman_ford`` on the device and the host
(``--bf``), the host-driven buckets at each host Δ scale (calls and time of each kind of
round), and ``sr.traversal.sssp_grid`` (the device loop) for each schedule, blocks a
multiprocessor and Δ (``--scales`` in units of max w / mean degree, ``--road-scales`` of max w
on road-like graphs): rounds, buckets, edges relaxed / m, µs a round; and the "ranges" kernel
built with other ``SR_SSSP_*`` switches of kernels/sssp.cu (``--variants``). Every answer is
checked against the reference.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import time
from collections import defaultdict

import cupy as cp
import numpy as np
import scipy.sparse.csgraph as csg

import algorithms
import semiring as sr
from bench import generators as gen
from semiring import traversal
from semiring.backend.gpu import traversal as GT

S_MOD = importlib.import_module("algorithms.sssp")


def best(fn, reps):
    fn()
    ts = []
    out = None
    for _ in range(reps):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        out = fn()
        cp.cuda.Device().synchronize()
        ts.append((time.perf_counter() - t) * 1e3)
    return min(ts), out


def host(a):
    a = a[0] if isinstance(a, tuple) else a
    return a.get() if hasattr(a, "get") else np.asarray(a)


def check(got, ref):
    got = host(got).astype(np.float64)
    ok = np.array_equal(got, ref)
    if not ok:
        bad = np.flatnonzero(got != ref)
        return f"WRONG ({bad.size} differ, e.g. {bad[:3].tolist()} {got[bad[:3]].tolist()} " \
               f"want {ref[bad[:3]].tolist()})"
    return "ok"


class Setting:
    def __init__(self, **kv):
        self.kv = kv

    def __enter__(self):
        self.old = {k: getattr(S_MOD, k) for k in self.kv}
        for k, v in self.kv.items():
            setattr(S_MOD, k, v)

    def __exit__(self, *a):
        for k, v in self.old.items():
            setattr(S_MOD, k, v)


def traced_host(A, source, reps):
    """Calls and time of each kind of round in one host-bucket run (synchronized)."""
    stats = defaultdict(lambda: [0, 0.0, 0])
    saved = {}
    for name in ("relax_rounds", "push_relax", "pull_relax"):
        orig = getattr(traversal, name)
        saved[name] = orig

        def traced(*a, _orig=orig, _name=name, **k):
            cp.cuda.Device().synchronize()
            t = time.perf_counter()
            r = _orig(*a, **k)
            cp.cuda.Device().synchronize()
            s = stats[_name]
            s[0] += 1
            s[1] += (time.perf_counter() - t) * 1e3
            fr = a[2]
            s[2] += int(fr.sum()) if fr.dtype == bool else int(fr.size)
            return r
        setattr(traversal, name, traced)
    try:
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        algorithms.delta_stepping(A, source, symmetric=True)
        cp.cuda.Device().synchronize()
        total = (time.perf_counter() - t) * 1e3
    finally:
        for k, v in saved.items():
            setattr(traversal, k, v)
    parts = ", ".join(f"{k} {c}x {ms:.1f} ms ({v} frontier vertices)"
                      for k, (c, ms, v) in stats.items())
    return f"traced {total:.1f} ms: {parts}"


def run_graph(spec, a):
    t = time.perf_counter()
    S = gen.make_graph(gen.parse_graph_spec(spec), xp=cp, cache_dir=None)
    A = sr.Matrix.from_cupyx(S)
    deg = cp.diff(A.indptr).get()
    source = int(np.random.default_rng(0).choice(np.flatnonzero(deg > 0)))
    wmax = float(A.values.max())
    road = S_MOD._road_like(A)
    dbar = A.nvals / A.nrows
    print(f"{spec}: n {A.nrows}, m {A.nvals}, mean degree {dbar:.1f} ({'road-like' if road else 'not road-like'}), "
          f"source {source}, max w {wmax:g}, made in {time.perf_counter() - t:.1f} s", flush=True)
    t = time.perf_counter()
    if a.check == "scipy":
        ref = csg.dijkstra(S.get(), directed=True, indices=source)
    else:
        with Setting(DEVICE_LOOP="never"):
            ref = host(algorithms.delta_stepping(A, source, symmetric=True)).astype(np.float64)
    fin = ref[np.isfinite(ref)]
    lv = host(algorithms.bfs(A, source, symmetric=True))
    print(f"  reference ({a.check}) {time.perf_counter() - t:.1f} s: reached {fin.size}, max dist "
          f"{fin.max():.0f}, mean {fin.mean():.1f}; bfs depth {lv.max()}", flush=True)
    x = sr.Vector.from_dense(cp.zeros(A.nrows, dtype=cp.float32))
    ms, _ = best(lambda: sr.mxv(A, x, sr.min_plus), a.reps)
    print(f"  one min-plus SpMV over A (a whole pass)       {ms:7.2f} ms")
    ms, out = best(lambda: algorithms.sssp(A, source, symmetric=True), a.reps)
    print(f"  algorithms.sssp (policy)                      {ms:7.2f} ms  {check(out, ref)}")
    old = dict(DEVICE_LOOP="never") if not road else dict(ROAD_SCHEDULE="search")
    with Setting(**old):
        ms, out = best(lambda: algorithms.sssp(A, source, symmetric=True), a.reps)
    print(f"  algorithms.sssp (session 7 policy: {old})  {ms:7.2f} ms  {check(out, ref)}")
    if not road and a.bf:
        for dense in (False, True):
            with Setting(BELLMAN_DEVICE_DENSE=dense):
                ms, out = best(lambda: algorithms.bellman_ford(A, source, symmetric=True), a.reps)
            print(f"  bellman_ford BELLMAN_DEVICE_DENSE={dense!s:5s}          {ms:7.2f} ms  "
                  f"{check(out, ref)}")
    for s in a.host_scales:
        with Setting(DEVICE_LOOP="never", DELTA_SCALE=s):
            ms, out = best(lambda: algorithms.delta_stepping(A, source, symmetric=True), a.reps)
            print(f"  host buckets delta {s:7g}*max w              {ms:7.2f} ms  {check(out, ref)}"
                  f"  {traced_host(A, source, 1)}", flush=True)
    unit, uname = (wmax, "max w") if road else (wmax / dbar, "max w/d")
    for sched in a.schedules:
        for b in a.blocks:
            for s in (a.road_scales if road else a.scales):
                ms, (d, info) = best(lambda: sr.traversal.sssp_grid(
                    A, source, s * unit, blocks_per_sm=b, schedule=sched), a.reps)
                r = info["rounds"]
                print(f"  sssp_grid {sched:6s} {b} blk/SM delta {s:6g}*{uname} ({s * unit:7.1f}) "
                      f"{ms:7.2f} ms rounds {r:5d} buckets {info['buckets']:4d} edges "
                      f"{info['edges'] / A.nvals:5.2f} m {1e3 * ms / max(r, 1):6.1f} us/round  "
                      f"{check(d, ref)}", flush=True)
    base = GT.SSSP_OPTIONS
    for var in a.variants:  # the "ranges" kernel built with other SR_SSSP_* switches
        GT.SSSP_OPTIONS = base + tuple(f"-D{x}" for x in var.split(","))
        try:
            for b in a.variant_blocks:
                for s in (a.road_scales if road else a.variant_scales):
                    ms, (d, info) = best(lambda: sr.traversal.sssp_grid(
                        A, source, s * unit, blocks_per_sm=b, schedule="ranges"), a.reps)
                    print(f"  sssp_grid ranges {var} {b} blk/SM delta {s:6g}*{uname} {ms:7.2f} ms "
                          f"rounds {info['rounds']:5d} buckets {info['buckets']:4d} edges "
                          f"{info['edges'] / A.nvals:5.2f} m  {check(d, ref)}", flush=True)
        finally:
            GT.SSSP_OPTIONS = base


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graphs", nargs="*", default=["kron-22", "urand-22"])
    p.add_argument("--scales", nargs="*", type=float, default=[0.5, 1, 2, 4],
                   help="sssp_grid's delta in units of max w / mean degree (not road-like)")
    p.add_argument("--road-scales", nargs="*", type=float, default=[16],
                   help="sssp_grid's delta in units of max w (road-like graphs)")
    p.add_argument("--schedules", nargs="*", default=["ranges", "search"])
    p.add_argument("--bf", action="store_true", help="bellman_ford on the device and the host")
    p.add_argument("--host-scales", nargs="*", type=float, default=[])
    p.add_argument("--variants", nargs="*", default=[],
                   help="NVRTC -D switches of the ranges kernel to compare, one variant an "
                        "argument, its defines joined by commas, e.g. SR_SSSP_ONE_SCAN=1 "
                        "SR_SSSP_FAR_BUF=0,SR_SSSP_MIN_BLOCKS=1")
    p.add_argument("--variant-scales", nargs="*", type=float, default=[2])
    p.add_argument("--variant-blocks", nargs="*", type=int, default=[2])
    p.add_argument("--blocks", nargs="*", type=int, default=[1, 2])
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--check", default="engine", choices=("scipy", "engine"))
    a = p.parse_args()
    name = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    print(f"device: {name}")
    t = time.perf_counter()
    for spec in a.graphs:
        run_graph(spec, a)
        print(f"  (elapsed {time.perf_counter() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
