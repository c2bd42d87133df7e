"""Where a facade call on small GPU input spends its time (issue 15's n = 1000 latency):
cProfile of REPS warm calls of each function on the bench's ``urand-10-ef5`` (n = 1024) as a
cupyx CSR, the top entries by own time (host waits on the device show as the CuPy calls
that synchronize). Also the median µs of each call.

Usage: PYTHONPATH=. python3 bench/probes/csgraph_latency_profile.py [OUT_DIR|-] [REPS=300]"""
import cProfile
import io
import pstats
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import bench.generators as gen
from algorithms import csgraph

OUT = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "-" else None
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 300
import cupy as cp  # noqa: E402
import cupyx.scipy.sparse as cps  # noqa: E402

H = sp.csr_matrix(gen.urand(10, 5))
G = cps.csr_matrix((cp.asarray(H.data), cp.asarray(H.indices), cp.asarray(H.indptr)),
                   shape=H.shape)
s = int(np.flatnonzero(np.diff(H.indptr) > 0)[0])
sync = cp.cuda.Device().synchronize
calls = {
    "breadth_first_order": (lambda: csgraph.breadth_first_order(G, s),
                            lambda: scg.breadth_first_order(H, s)),
    "depth_first_order": (lambda: csgraph.depth_first_order(G, s),
                          lambda: scg.depth_first_order(H, s)),
    "dijkstra": (lambda: csgraph.dijkstra(G, indices=s), lambda: scg.dijkstra(H, indices=s)),
    "connected_components": (lambda: csgraph.connected_components(G, directed=False),
                             lambda: scg.connected_components(H, directed=False)),
    "connected_components strong": (
        lambda: csgraph.connected_components(G, connection="strong"),
        lambda: scg.connected_components(H, connection="strong")),
    "laplacian": (lambda: csgraph.laplacian(G), lambda: scg.laplacian(H)),
    "minimum_spanning_tree": (lambda: csgraph.minimum_spanning_tree(G),
                              lambda: scg.minimum_spanning_tree(H)),
}
report = []
for name, (fac, ref) in calls.items():
    fac(), ref()
    sync()
    tf, ts = [], []
    for _ in range(REPS):
        t = time.perf_counter()
        fac()
        sync()
        tf.append(time.perf_counter() - t)
        t = time.perf_counter()
        ref()
        ts.append(time.perf_counter() - t)
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(REPS):
        fac()
    sync()
    pr.disable()
    buf = io.StringIO()
    pstats.Stats(pr, stream=buf).sort_stats("tottime").print_stats(18)
    head = (f"== {name}: facade-gpu {np.median(tf) * 1e6:.0f} µs, SciPy (host float32 CSR) "
            f"{np.median(ts) * 1e6:.0f} µs, median of {REPS}")
    text = head + "\n" + "\n".join(buf.getvalue().splitlines()[6:32])
    print(text, flush=True)
    report.append(text)
if OUT:
    with open(f"{OUT}/csgraph_latency_profile.txt", "w") as fh:
        fh.write("\n\n".join(report) + "\n")
