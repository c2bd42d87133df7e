"""Host input's fixed cost (issue 15, "small graphs"): each facade function on a host CSR of
n ≈ 1000 against SciPy's own call on the same CSR, interleaved call for call (the other
helpers share this host's cores: compare within a line, not across runs), median of 300
(30 for SciPy's O(N · nnz) bellman_ford / johnson). Graphs: the bench's ``urand-10-ef5``
(float32, as generated) and a float64 ``scipy.sparse.random`` of n = 1000, density 1 %.

Usage: PYTHONPATH=. python3 bench/probes/csgraph_host_latency.py"""
import time
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

warnings.simplefilter("ignore")
import bench.generators as gen
from algorithms import csgraph
H = sp.csr_matrix(gen.urand(10, 5))  # n = 1024, float32 as the bench
Hs = sp.csr_matrix(sp.random(1000, 1000, density=0.01, random_state=1, format="csr"))
s = int(np.flatnonzero(np.diff(H.indptr))[0])
idx = np.flatnonzero(np.diff(H.indptr) > 0)[:8]
calls = {
 "breadth_first_order": lambda m, G: m.breadth_first_order(G, s),
 "depth_first_order": lambda m, G: m.depth_first_order(G, s),
 "breadth_first_tree": lambda m, G: m.breadth_first_tree(G, s),
 "depth_first_tree": lambda m, G: m.depth_first_tree(G, s),
 "dijkstra": lambda m, G: m.dijkstra(G, indices=s),
 "dijkstra x8": lambda m, G: m.dijkstra(G, indices=idx),
 "shortest_path": lambda m, G: m.shortest_path(G, indices=s),
 "bellman_ford": lambda m, G: m.bellman_ford(G, indices=s),
 "johnson": lambda m, G: m.johnson(G, indices=s),
 "connected_components": lambda m, G: m.connected_components(G, directed=False),
 "cc strong": lambda m, G: m.connected_components(G, connection="strong"),
 "minimum_spanning_tree": lambda m, G: m.minimum_spanning_tree(G),
 "laplacian": lambda m, G: m.laplacian(G),
 "reverse_cuthill_mckee": lambda m, G: m.reverse_cuthill_mckee(G),
 "structural_rank": lambda m, G: m.structural_rank(G),
 "csgraph_to_dense": lambda m, G: m.csgraph_to_dense(G),
}
for gname, G in (("urand-10-ef5 f32", H), ("rand 1000 1% f64", Hs)):
    print("==", gname, G.nnz)
    for name, f in calls.items():
        if name in ("bellman_ford", "johnson") and G.nnz > 20000: continue
        f(scg, G); f(csgraph, G)
        tf, ts = [], []
        reps = 30 if name in ("bellman_ford", "johnson") else 300
        for _ in range(reps):
            t = time.perf_counter(); f(csgraph, G); tf.append(time.perf_counter() - t)
            t = time.perf_counter(); f(scg, G); ts.append(time.perf_counter() - t)
        a, b = np.median(tf) * 1e6, np.median(ts) * 1e6
        print(f"{name:<24} facade {a:9.1f} µs  scipy {b:9.1f} µs  scipy/facade {b/a:5.2f}x")
