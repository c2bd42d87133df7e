"""The first call's cost on a fresh kernel cache: every NVRTC compile it pays, ours and CuPy's.

    PYTHONPATH=. python3 bench/probes/probe_first_call.py bfs|sssp|mxv [--n 1000] [--tree DIR]

Run it in a fresh process with an empty cache (``CUPY_CACHE_DIR=$(mktemp -d)``) for the cost
a new user pays, or after ``python -m semiring.warmup`` for what is left. It times the
imports, the graph's upload, the first call and a second one (CUDA-synchronized), and logs
every NVRTC compile of the process (CuPy's ``_NVRTCProgram.compile``: our programs, told by
their op structs or traversal kernels, and CuPy's own element-wise and reduction kernels),
then prints one JSON line: ``{"what", "first_s", "second_s", "compiles": [[seconds, who,
what, where], ...], ...}`` (``where``: the innermost frame of semiring/ or algorithms/ on the
stack of the compile: the step that asked for it). ``--tree DIR`` imports semiring and algorithms from another checkout (a
before/after comparison in the same process layout).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import traceback


def _where() -> str:
    """The innermost frame of this repository's packages on the stack: who asked for a compile."""
    for fr in reversed(traceback.extract_stack()[:-2]):
        parts = fr.filename.replace(os.sep, "/").split("/")
        if "semiring" in parts[:-1] or "algorithms" in parts[:-1]:
            if parts[-1] != "__init__.py" or parts[-2] != "kernels":
                return f"{'/'.join(parts[-2:])}:{fr.lineno} {fr.name}"
    return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("bfs", "sssp", "mxv"))
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--degree", type=float, default=8.0)
    ap.add_argument("--tree", default=None, help="import semiring/algorithms from here")
    args = ap.parse_args()
    if args.tree:
        sys.path.insert(0, args.tree)
    t0 = time.perf_counter()
    import cupy as cp  # noqa: PLC0415  (after --tree: the probe's own path first)
    import cupy.cuda.compiler as cc  # noqa: PLC0415  (as above)

    log = []
    orig = cc._NVRTCProgram.compile

    def compile(self, options=(), log_stream=None):
        t = time.perf_counter()
        try:
            return orig(self, options, log_stream)
        finally:
            src = self.src or ""
            ours = "sr_index" in src or "SR_TRAVERSE" in src or "SR_" in src
            if self.name_expressions:
                what = ";".join(self.name_expressions)
            else:
                what = ",".join(re.findall(r"__global__\s+void\s+(\w+)", src)) or "(empty)"
            log.append([round(time.perf_counter() - t, 4), "semiring" if ours else "cupy",
                        what[:160], _where()])
    cc._NVRTCProgram.compile = compile

    import numpy as np  # noqa: PLC0415  (after the patch, as the rest)
    import scipy.sparse as sp  # noqa: PLC0415  (as above)

    import algorithms  # noqa: PLC0415  (as above)
    import semiring as sr  # noqa: PLC0415  (as above)

    t_import = time.perf_counter() - t0
    t = time.perf_counter()
    cp.cuda.Device(0).synchronize()
    cp.zeros(1).sum()  # the context
    cp.cuda.Device(0).synchronize()
    t_ctx = time.perf_counter() - t
    n = args.n
    rng = np.random.default_rng(1)
    m = int(args.degree * n)
    S = sp.coo_matrix((rng.integers(1, 256, m).astype(np.float32),
                       (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n)).tocsr()
    S.sum_duplicates()
    nlog0 = len(log)
    t = time.perf_counter()
    A = sr.Matrix.from_scipy(S, device="gpu")
    x = cp.asarray(rng.random(n, dtype=np.float32))
    cp.cuda.Device(0).synchronize()
    t_build = time.perf_counter() - t
    build_log = log[nlog0:]

    def call():
        if args.what == "bfs":
            r = algorithms.bfs(A, 0)
        elif args.what == "sssp":
            r = algorithms.sssp(A, 0)
        else:
            r = sr.mxv(A, x, sr.min_plus)
        cp.cuda.Device(0).synchronize()
        return r

    nlog1 = len(log)
    t = time.perf_counter()
    call()
    first = time.perf_counter() - t
    first_log = log[nlog1:]
    t = time.perf_counter()
    r = call()
    second = time.perf_counter() - t
    # the answer, against SciPy / NumPy
    import scipy.sparse.csgraph as csg  # noqa: PLC0415  (as above)
    if args.what == "bfs":
        ref = csg.shortest_path(S, unweighted=True, indices=0)
        ok = np.array_equal(cp.asnumpy(r), np.where(np.isinf(ref), -1, ref).astype(np.int64))
    elif args.what == "sssp":
        ok = np.allclose(cp.asnumpy(r), csg.dijkstra(S, indices=0), rtol=1e-6)
    else:
        D = np.where(S.toarray() != 0, S.toarray(), np.inf) + cp.asnumpy(x)[None, :]
        exp = D.min(axis=1)
        vals = r.to_dense(missing=np.inf)
        ok = np.allclose(cp.asnumpy(vals), exp.astype(np.float32))
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    out = {
        "what": args.what, "tree": args.tree or ".", "device": name, "ok": bool(ok),
        "import_s": round(t_import, 3), "context_s": round(t_ctx, 3),
        "build_s": round(t_build, 3), "first_s": round(first, 3),
        "second_s": round(second, 4),
        "first_compile_s": {w: round(sum(c[0] for c in first_log if c[1] == w), 3)
                            for w in ("semiring", "cupy")},
        "first_compiles": len(first_log),
        "build_compiles": build_log,
        "compiles": sorted(first_log, reverse=True),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
