"""The 1st, 2nd, 3rd and 10th call of the common CPU calls, each kind in a fresh process
(issue 21: the speed a CPU user feels), on a warm and on a cold Numba cache.

Each (call, n) runs in its own ``python`` process: the process imports the package, builds a
random undirected graph of n vertices and mean degree 8 (float64 weights in [1, 10), a
``Matrix.from_scipy`` on the CPU; SciPy CSR for the csgraph facade), then times the same
call 10 times (the searches from sources 0, 1, 2, ...), ms. Beside each time: the Numba
kernel signatures that call met for the first time in the process (``+k``: k loaded from
the disk cache or compiled; ``c`` marks a compile), from the dispatchers that
``semiring.backend.cpu.compiled._jit`` makes.

``--cache warm``: every process shares one Numba cache directory, filled by a first pass of
the same processes (not shown); ``--cache cold``: each process an empty directory;
``--cache warmup``: an empty directory filled by ``python -m semiring.warmup --cpu`` first.

    PYTHONPATH=. python3 bench/probes/felt23_calls.py [--cache warm|cold|warmup] [--n 1000 ...]
        [--graph random|grid] [--repeat R] [--calls mxv_min_plus ...]

With ``--repeat R`` each row runs R processes (after the one that fills a warm cache), each
time the median over them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

CALLS = ("mxv_min_plus", "mxv_plus_times", "bfs", "sssp", "msbfs", "pagerank", "cc",
         "triangles", "cg_shortest_path", "cg_bfo")
REPS = 10

CHILD = r"""
import json, sys, time
import numpy as np, scipy.sparse as sp
t0 = time.perf_counter()
import semiring as sr, algorithms
from algorithms import csgraph
from semiring.backend.cpu import compiled
t_import = time.perf_counter() - t0
seen = []  # every dispatcher _jit made: (qualified name, dispatcher)
_jit = compiled._jit
def jit(func, *a, **k):
    d = _jit(func, *a, **k)
    seen.append(d)
    return d
compiled._jit = jit
def state():
    sigs, misses = 0, 0
    for d in seen:
        sigs += len(getattr(d, "signatures", ()))
        misses += sum(getattr(d, "_cache_misses", {}).values())
    return sigs, misses
call, n, graph = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(1)
m = 4 * n
r, c = rng.integers(0, n, m), rng.integers(0, n, m)
if graph == "grid":  # a side x side 4-neighbour grid (n rounded to a square)
    side = int(round(n ** 0.5)); n = side * side
    P = sp.diags([np.ones(side - 1)], [1], shape=(side, side))
    I = sp.identity(side)
    S = (sp.kron(I, P) + sp.kron(P, I)).tocsr()
    S.data = rng.uniform(1, 10, S.nnz)
else:
    S = sp.coo_matrix((rng.uniform(1, 10, m), (r, c)), shape=(n, n)).tocsr()
S = (S + S.T).tocsr(); S.setdiag(0); S.eliminate_zeros(); S.sort_indices()
A = sr.Matrix.from_scipy(S)
x = sr.Vector.from_dense(rng.uniform(0, 5, n))
srcs = np.arange(32)
def fn(i):
    if call == "mxv_min_plus": return sr.mxv(A, x, sr.min_plus)
    if call == "mxv_plus_times": return sr.mxv(A, x, sr.plus_times)
    if call == "bfs": return algorithms.bfs(A, i)
    if call == "sssp": return algorithms.sssp(A, i)
    if call == "msbfs": return algorithms.multi_source_bfs(A, srcs + i)
    if call == "pagerank": return algorithms.pagerank(A)
    if call == "cc": return algorithms.connected_components(A)
    if call == "triangles": return algorithms.triangle_count(A)
    if call == "cg_shortest_path": return csgraph.shortest_path(S, indices=i)
    if call == "cg_bfo": return csgraph.breadth_first_order(S, i)
    raise SystemExit(call)
out = []
for i in range(REPS):
    s0 = state()
    t = time.perf_counter()
    fn(i)
    dt = time.perf_counter() - t
    s1 = state()
    out.append((dt * 1e3, s1[0] - s0[0], s1[1] - s0[1]))
print(json.dumps({"import_s": t_import, "calls": out}))
""".replace("REPS", str(REPS))


def child(call: str, n: int, graph: str, env) -> dict:
    p = subprocess.run([sys.executable, "-c", CHILD, call, str(n), graph], env=env,
                       capture_output=True, text=True, timeout=600)
    if p.returncode:
        return {"error": p.stderr.strip().splitlines()[-1:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def cell(c) -> str:
    ms, sigs, misses = c
    tag = f" +{sigs}" if sigs else ""
    return f"{ms:.3g}{tag}{'c' if misses else ''}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", choices=("warm", "cold", "warmup"), default="warm")
    ap.add_argument("--n", type=int, nargs="+", default=[1000, 10_000, 100_000])
    ap.add_argument("--graph", choices=("random", "grid"), default="random")
    ap.add_argument("--repeat", type=int, default=1,
                    help="processes a row (each column their median)")
    ap.add_argument("--calls", nargs="+", default=list(CALLS), choices=CALLS)
    args = ap.parse_args(argv)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.getcwd() + os.pathsep + env.get("PYTHONPATH", "")
    shared = tempfile.mkdtemp(prefix="felt23-numba-")
    if args.cache == "warmup":
        env["NUMBA_CACHE_DIR"] = shared
        subprocess.run([sys.executable, "-m", "semiring.warmup", "--cpu", "--quiet"], env=env,
                       check=True, capture_output=True)
    print(f"cache: {args.cache}; graph: {args.graph}; {args.repeat} process(es) a row, "
          f"median ms of call 1, 2, 3, 10 (+k: k new "
          f"kernel signatures, c: compiled)\n")
    print("| call | n | 1st | 2nd | 3rd | 10th |")
    print("|---|---:|---:|---:|---:|---:|")
    for call in args.calls:
        for n in args.n:
            runs = []
            if args.cache == "warm":
                env["NUMBA_CACHE_DIR"] = shared
                child(call, n, args.graph, env)  # (fills the cache)
            for _ in range(args.repeat):
                if args.cache == "cold":
                    env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="felt23-cold-")
                runs.append(child(call, n, args.graph, env))
            bad = [r for r in runs if "error" in r]
            if bad:
                print(f"| {call} | {n} | error: {bad[0]['error']} | | | |")
                continue
            # each column the median over the processes; the loads and compiles the most seen
            cs = [(float(np.median([r["calls"][i][0] for r in runs])),
                   max(r["calls"][i][1] for r in runs), max(r["calls"][i][2] for r in runs))
                  for i in range(REPS)]
            print(f"| {call} | {n} | {cell(cs[0])} | {cell(cs[1])} | {cell(cs[2])} | "
                  f"{cell(cs[9])} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
