"""Check and time the streamed Floyd–Warshall (``algorithms._apsp_stream``) on the GPU.

    python bench/probes/apsp_stream_check.py [--out DIR] [--small]

1. exactness: streamed runs (a forced ``memory_budget``: blocks of 512, tiles of 300 rows not
   aligned with them; float32, int32, negative weights) equal the in-memory Floyd–Warshall;
2. timing at n = 16384 (float32): in-memory against streamed with B = 4096 and 2048, and with
   one slot (copies no longer overlap the products): relaxations/s and copy volume;
3. the automatic choice: under a CuPy pool limit (3 GiB) a graph whose D does not fit streams
   by itself (``method='auto'``, no budget); the result is a NumPy array in pinned memory,
   checked on sample rows against SciPy's Dijkstra.

``--small`` runs tiny sizes on whatever backend is present (a smoke test of this script).
Writes ``apsp_stream.json`` under ``--out`` (default ``$OUT`` or ./apsp-stream-check).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

import algorithms  # noqa: E402
import semiring as sr  # noqa: E402

apsp_mod = importlib.import_module("algorithms.apsp")
stream_mod = importlib.import_module("algorithms._apsp_stream")


def graph(n, deg, seed, dtype=np.float32, negative=False):
    """Random directed graph, ``deg`` out-edges per vertex, integer weights in [1, 255]
    (exact in float32 sums up to n · 255 < 2^24); ``negative``: w + h(u) − h(v)."""
    rng = np.random.default_rng(seed)
    r = np.repeat(np.arange(n), deg)
    c = rng.integers(0, n, n * deg)
    w = rng.integers(1, 256, n * deg).astype(np.float64)
    if negative:
        h = rng.integers(-100, 101, n)
        w = w + h[r] - h[c]
    S = sp.csr_matrix((w, (r, c)), shape=(n, n))
    S.sum_duplicates()  # keeps the sum of parallel edges: still a valid graph for both sides
    return S.astype(dtype)


def sync(device):
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        cupy.cuda.Device().synchronize()


def host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def timed(fn, device):
    sync(device)
    t = time.perf_counter()
    out = fn()
    sync(device)
    return out, time.perf_counter() - t


def exactness(device, n, block, rows, rep):
    tile = apsp_mod.TILE if device == "gpu" else apsp_mod.TILE_CPU
    for dtype, negative in ((np.float32, False), (np.int32, False), (np.float64, True)):
        S = graph(n, 8, 1, dtype, negative)
        M = sr.Matrix.from_scipy(S, device=device)
        ref = host(algorithms.apsp(M, "floyd_warshall"))
        s = np.dtype(dtype).itemsize
        budget = stream_mod.stream_need(n, block, s, tile)
        old = stream_mod.STREAM_ROWS
        stream_mod.STREAM_ROWS = rows
        try:
            got = algorithms.apsp(M, "floyd_warshall", memory_budget=budget)
        finally:
            stream_mod.STREAM_ROWS = old
        ok = isinstance(got, np.ndarray) and np.array_equal(got, ref)
        rep["exact"].append(dict(n=n, dtype=np.dtype(dtype).name, negative=negative,
                                 block=stream_mod.block_width("apsp", n, s, tile, budget),
                                 rows=rows, equal=bool(ok)))
        print("exact", rep["exact"][-1], flush=True)


def timing(device, n, blocks, rep):
    tile = apsp_mod.TILE if device == "gpu" else apsp_mod.TILE_CPU
    S = graph(n, 16, 2)
    D0 = S.toarray()
    D0[S.toarray() == 0] = np.inf
    np.fill_diagonal(D0, 0)
    xp = sr.device.xp_of(device)
    A = xp.asarray(D0)
    algorithms.apsp(A[:300, :300], "floyd_warshall", progress=False)  # compile, warm up
    ref, t_mem = timed(lambda: host(algorithms.apsp(A, "floyd_warshall", progress=False)),
                       device)
    rep["timing"].append(dict(n=n, run="in-memory", seconds=t_mem, relax_per_s=n ** 3 / t_mem))
    print("timing", rep["timing"][-1], flush=True)
    for B, slots in [(b, stream_mod.STREAM_SLOTS) for b in blocks] + [(blocks[0], 1)]:
        budget = stream_mod.stream_need(n, B, 4, tile)
        old = stream_mod.STREAM_SLOTS
        stream_mod.STREAM_SLOTS = slots
        try:
            got, t = timed(lambda: algorithms.apsp(A, "floyd_warshall", progress=False,
                                                   memory_budget=budget), device)
        finally:
            stream_mod.STREAM_SLOTS = old
        rounds = -(-n // B)
        rep["timing"].append(dict(
            n=n, run="streamed", block=B, slots=slots, seconds=t, relax_per_s=n ** 3 / t,
            copied_GB=rounds * 2 * n * n * 4 / 1e9,
            # bytes over the whole call (setup included), not the link's rate
            copy_GB_per_wall_s=rounds * 2 * n * n * 4 / 1e9 / t,
            vs_in_memory=t / t_mem, equal=bool(np.array_equal(got, ref))))
        print("timing", rep["timing"][-1], flush=True)


def automatic(device, n, limit, rep):
    S = graph(n, 16, 3)
    M = sr.Matrix.from_scipy(S, device=device)
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        pool = cupy.get_default_memory_pool()
        pool.free_all_blocks()
        pool.set_limit(size=limit)
    try:
        budget, _ = apsp_mod._device_budget(device, None if device == "gpu" else limit)
        need = apsp_mod._in_memory_need(n, np.float32, np.float32, apsp_mod.TILE, False)
        kw = {} if device == "gpu" else {"memory_budget": limit}
        got, t = timed(lambda: algorithms.apsp(M, "auto", progress=True, **kw), device)
    finally:
        if device == "gpu":
            pool.set_limit(size=0)
    src = np.random.default_rng(0).choice(n, 8, replace=False)
    ref = csg.dijkstra(S.astype(np.float64), indices=src)
    base = got.base
    rep["automatic"] = dict(
        n=n, pool_limit=limit, budget=budget, in_memory_need=need, seconds=t,
        relax_per_s=n ** 3 / t, numpy=isinstance(got, np.ndarray),
        pinned=type(base).__name__ if base is not None else None,
        sample_rows_equal=bool(np.array_equal(got[src].astype(np.float64), ref)))
    print("automatic", rep["automatic"], flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT", "apsp-stream-check"))
    ap.add_argument("--small", action="store_true")
    args = ap.parse_args()
    device = "gpu" if sr.gpu_available() else "cpu"
    rep = {"device": device, "exact": [], "timing": []}
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        rep["gpu"] = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    if args.small:
        exactness(device, 150, 32, 20, rep)
        timing(device, 256, [64, 32], rep)
        automatic(device, 300, 300 * 300 * 4, rep)
    else:
        exactness(device, 3000, 512, 300, rep)
        timing(device, 16384, [4096, 2048], rep)
        automatic(device, 24576, 3 << 30, rep)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "apsp_stream.json"), "w") as f:
        json.dump(rep, f, indent=1)
    bad = [r for r in rep["exact"] + rep["timing"] if r.get("equal") is False]
    if bad or not rep["automatic"]["sample_rows_equal"] or not rep["automatic"]["numpy"]:
        print("FAILED", bad, file=sys.stderr)
        sys.exit(1)
    print("all equal")


if __name__ == "__main__":
    main()
