"""Weak connected components: Afforest's kernels (with and without the symmetric promise)
against FastSV as algebra, on kron-20, kron-22 and urand-22 (bench.generators, made on the
device), best of 5 after a warm-up; labels checked against each other (and SciPy on the host
for the smallest graph); Afforest's sampling rounds k = 1 and 3 beside the default 2; then
every pair of link variants (gcc.LINKS: sampling rounds / last pass); then Afforest's
kernels one by one (CUDA events around each launch).

Usage: PYTHONPATH=. python3 bench/probes/cc_probe.py [GRAPH ...]   (default: kron-20 kron-22
urand-22)"""
import sys
import time

import numpy as np

import algorithms
import semiring as sr
from bench import generators as gen
from semiring.backend.gpu import components as gcc

graphs = sys.argv[1:] or ["kron-20", "kron-22", "urand-22"]
default_links = (gcc.SAMPLE_LINK, gcc.REST_LINK)
dev = "gpu" if sr.gpu_available() else "cpu"
xp = sr.array_module(dev)
sync = (lambda: xp.cuda.Device().synchronize()) if dev == "gpu" else (lambda: None)
host = lambda a: a.get() if dev == "gpu" else np.asarray(a)  # noqa: E731
if dev == "gpu":
    print("device:", xp.cuda.runtime.getDeviceProperties(0)["name"].decode(), flush=True)
else:
    print("device: cpu (no GPU answered)", flush=True)


def tm(f, reps=5):
    r = f()
    sync()  # warm-up: kernels compiled, transposes cached
    best = 1e9
    for _ in range(reps):
        sync()
        t = time.perf_counter()
        r = f()
        sync()
        best = min(best, time.perf_counter() - t)
    return r, best * 1e3


def phases(A, symmetric):
    """Afforest's launches one by one: CUDA events around each (after a warm-up run)."""
    cp = xp
    orig = gcc.function
    log = []

    def timed(name):
        f = orig(name)

        def call(*args):
            a, b = cp.cuda.Event(), cp.cuda.Event()
            a.record()
            f(*args)
            b.record()
            log.append((name.split("<")[0], a, b))
        return call

    gcc.function = timed
    try:
        for _ in range(2):
            log.clear()
            sr.connectivity.weak_components(A, symmetric=symmetric)
            sync()
    finally:
        gcc.function = orig
    return [(k, cp.cuda.get_elapsed_time(a, b)) for k, a, b in log]


for spec in graphs:
    t = time.perf_counter()
    S = gen.generate(gen.parse_graph_spec(spec), xp=xp if dev == "gpu" else None)
    A = sr.Matrix.from_cupyx(S) if dev == "gpu" else sr.Matrix.from_scipy(S, device="cpu")
    sync()
    print(f"\n{spec}: n={A.nrows} stored={A.nvals} itype={A.itype} "
          f"(made in {time.perf_counter() - t:.1f} s)", flush=True)
    cc = algorithms.connected_components
    runs = [("afforest symmetric=True", lambda: cc(A, method="afforest", symmetric=True)),
            ("afforest (no promise)", lambda: cc(A, method="afforest")),
            ("fastsv symmetric=True", lambda: cc(A, method="fastsv", symmetric=True))]
    wc = sr.connectivity.weak_components
    runs += [(f"  weak_components k={k}{' sym' if sym else ''}",
              lambda k=k, sym=sym: wc(A, symmetric=sym, neighbor_rounds=k))
             for sym in (True, False) for k in (1, 3)]
    ref = None
    for name, f in runs:
        lab, ms = tm(f)
        lab = host(lab)
        if ref is None:
            ref = lab
        same = np.array_equal(lab, ref)
        print(f"  {name:28s} {ms:9.3f} ms  components={int(lab.max()) + 1}  "
              f"{'agrees' if same else 'DISAGREES'}", flush=True)
    if A.nrows <= 1 << 20:
        from scipy.sparse.csgraph import connected_components  # noqa: PLC0415  (host check only)

        H = S.get() if dev == "gpu" else S
        _, lab = connected_components(H, directed=False)
        print(f"  scipy agrees: {np.array_equal(lab, ref)}", flush=True)
    if dev == "gpu":
        # every pair of link variants (sampling rounds, last pass), with and without the skip
        for sym in (True, False):
            line = []
            for ls in gcc.LINKS:
                for lr in gcc.LINKS:
                    gcc.SAMPLE_LINK, gcc.REST_LINK = ls, lr
                    lab, ms = tm(lambda: sr.connectivity.weak_components(A, symmetric=sym))
                    ok = np.array_equal(host(lab), ref)
                    line.append(f"{ls}/{lr} {ms:.3f}{'' if ok else ' DISAGREES'}")
            gcc.SAMPLE_LINK, gcc.REST_LINK = default_links
            print(f"  links sample/rest (symmetric={sym}): " + ", ".join(line), flush=True)
        for sym in (True, False):
            ph = phases(A, sym)
            print(f"  kernels (symmetric={sym}): " + ", ".join(f"{k} {ms:.3f}" for k, ms in ph)
                  + f"; sum {sum(ms for _, ms in ph):.3f} ms", flush=True)
