"""Strong components of GPU input through the csgraph facade (issue 15): the symmetric-pattern
path (``_graphalg._symmetric_pattern``: the device test, then Afforest) against the host path
(SciPy's Tarjan on a host copy of the structure) and against SciPy on the host CSR, on grids of
128² .. 2048² (4·k² stored entries) and the bench's n = 1024 latency graph, to place
``_graphalg.SYMMETRIC_TEST_NNZ``. Each facade answer is checked against SciPy's labels.
Medians of REPS, each path warmed once.

Usage: PYTHONPATH=. python3 bench/probes/csgraph_strong_gpu.py [OUT_DIR|-] [REPS=5] [dry]"""
import json
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import bench.generators as gen
from algorithms import csgraph
from algorithms.csgraph import _graphalg, _validation

OUT = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "-" else None
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
DRY = len(sys.argv) > 3 and sys.argv[3] == "dry"
if DRY:  # a machine without a GPU: the engine path on NumPy, small grids
    _validation.FORCE_ENGINE = True
    xp_sync, on_gpu, SIZES = (lambda: None), (lambda H: H), [32, 64]
else:
    import cupy as cp
    import cupyx.scipy.sparse as cps

    xp_sync = cp.cuda.Device().synchronize

    def on_gpu(H):
        return cps.csr_matrix((cp.asarray(H.data), cp.asarray(H.indices),
                               cp.asarray(H.indptr)), shape=H.shape)

    SIZES = [128, 256, 512, 1024, 2048]
rows = []


def med(f, reps):
    ts = []
    for _ in range(reps):
        xp_sync()
        t = time.perf_counter()
        f()
        xp_sync()
        ts.append((time.perf_counter() - t) * 1e3)
    return float(np.median(ts))


def host(x):
    return np.asarray(x.get() if hasattr(x, "get") else x)


def run(name, H):
    G = on_gpu(H)
    ref = scg.connected_components(H, connection="strong")[1]
    out = {"graph": name, "nnz": int(H.nnz)}
    for path, bound in (("symmetric", 0), ("host", 1 << 62)):
        _graphalg.SYMMETRIC_TEST_NNZ = bound
        f = lambda: csgraph.connected_components(G, connection="strong")  # noqa: E731
        got = f()
        out[f"{path}_ok"] = bool(np.array_equal(host(got[1]), ref))
        out[f"{path}_ms"] = med(f, REPS)
    ip, ind = G.indptr, G.indices
    xp = np if DRY else cp
    _graphalg.SYMMETRIC_TEST_NNZ = 0
    out["test_ms"] = med(lambda: _graphalg._symmetric_pattern(xp, ip, ind, H.shape[0]), REPS)
    out["scipy_ms"] = med(lambda: scg.connected_components(H, connection="strong"), REPS)
    rows.append(out)
    print(json.dumps(out), flush=True)


for k in SIZES:
    H = sp.csr_matrix(gen.grid2d(k))
    run(f"grid-{k}²", H)
run("urand-10-ef5", sp.csr_matrix(gen.urand(10, 5)))
run("urand-14-ef8", sp.csr_matrix(gen.urand(14, 8)))
if OUT:
    with open(f"{OUT}/csgraph_strong_gpu.json", "w") as fh:
        json.dump(rows, fh, indent=1)
