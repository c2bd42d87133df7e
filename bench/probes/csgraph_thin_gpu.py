"""The csgraph facade on GPU input against SciPy on the host, for the three cases of session 11's
fac2 brief: the 2048² grid (the bench's graph and Graph500 source), a path of 10⁵ vertices
(long and thin: the probe of ``algorithms/csgraph/_thin.py``), and n = 1024 (the bench's
``urand-10-ef5`` latency graph). Each call is checked against SciPy's (orders, distances,
labels exactly; trees and Laplacians by their diagonal and column sums) and timed: SciPy on
the host CSR the bench uses (float32 weights, as generated), the facade on the cupyx CSR of
the same arrays, each warmed once, then interleaved, median of REPS (SciPy once where it
takes over 0.5 s). Also at n = 1024: the route's stages for ``breadth_first_order`` and the
Laplacian / components route against the engine (``HOST_MAX_WORK`` forced), to check those
bounds. Prints a Markdown table (and writes it, with JSON, to OUT if given).

Usage: PYTHONPATH=. python3 bench/probes/csgraph_thin_gpu.py [OUT_DIR] [REPS=5]"""
import json
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import bench.generators as gen
import semiring as sr
from algorithms import csgraph
from algorithms.csgraph import _thin, _validation

OUT = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "-" else None
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
#: DRY=1 (a machine without a GPU): small graphs, the engine path forced on host input, to
#: check the script itself before it takes device time
DRY = len(sys.argv) > 3 and sys.argv[3] == "dry"
if DRY:
    import types

    _validation.FORCE_ENGINE = True
    cp = types.SimpleNamespace(asarray=np.asarray, cuda=types.SimpleNamespace(
        Device=lambda: types.SimpleNamespace(synchronize=lambda: None),
        runtime=types.SimpleNamespace(getDeviceProperties=lambda i: {"name": b"dry run (CPU)"})))
    cps = sp
    GRID, PATH, R = 128, 3000, 5
else:
    import cupy as cp
    import cupyx.scipy.sparse as cps
    GRID, PATH, R = 2048, 100_000, 200
sync = cp.cuda.Device().synchronize
T0 = time.perf_counter()
rows = []


def host(x):
    if isinstance(x, tuple):
        x = x[0]
    if hasattr(x, "tocoo") and not isinstance(x, np.ndarray):
        S = x.get() if type(x).__module__.startswith("cupyx") else x
        S = sp.csr_matrix(S)
        return np.concatenate([np.asarray(S.diagonal(), dtype=np.float64),
                               np.asarray(S.sum(axis=0), dtype=np.float64).ravel()])
    return np.asarray(x.get() if hasattr(x, "get") else x, dtype=np.float64)


def timed(f, reps):
    sync()
    t = time.perf_counter()
    out = f()
    sync()
    return (time.perf_counter() - t) * 1e3, out


def case(graph, name, fac, ref, reps=REPS):
    """Warm both, check, then interleave reps (SciPy once if it is slow)."""
    try:
        t_s, r_s = timed(ref, 1)
        fac()
        sync()
        t_f, r_f = timed(fac, 1)
        ok = np.array_equal(host(r_f), host(r_s), equal_nan=True)
        fs, ss = [t_f], [t_s]
        for _ in range(reps - 1):
            fs.append(timed(fac, 1)[0])
            if t_s < 500:
                ss.append(timed(ref, 1)[0])
        f, s = float(np.median(fs)), float(np.median(ss))
        rows.append(dict(graph=graph, fn=name, facade_gpu_ms=f, scipy_ms=s, ratio=s / f,
                         check="ok" if ok else "MISMATCH", runs=len(fs)))
    except Exception as e:  # noqa: BLE001  (a probe: report and go on)
        rows.append(dict(graph=graph, fn=name, facade_gpu_ms=float("nan"), scipy_ms=float("nan"),
                         ratio=float("nan"), check=f"error: {type(e).__name__}: {e}"[:120],
                         runs=0))
    r = rows[-1]
    print(f"[{time.perf_counter() - T0:6.1f} s] {graph:<12} {name:<26} facade-gpu "
          f"{r['facade_gpu_ms']:10.3f} ms  scipy {r['scipy_ms']:10.3f} ms  "
          f"scipy/facade {r['ratio']:7.3g}x  {r['check']}", flush=True)


def source_of(H, seed=0):
    deg = np.diff(H.indptr)
    cand = np.flatnonzero(deg > 0)
    return int(np.random.default_rng(seed).choice(cand))


def on_gpu(H):
    return cps.csr_matrix((cp.asarray(H.data), cp.asarray(H.indices), cp.asarray(H.indptr)),
                          shape=H.shape)


print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), flush=True)

# ---------------------------------------------------------------- 1. the 2048² grid
H = gen.grid2d(GRID)
H = sp.csr_matrix(H) if not isinstance(H, sp.csr_matrix) else H
G = on_gpu(H)
s = source_of(H)
g = "grid-2048²"
case(g, "breadth_first_order", lambda: csgraph.breadth_first_order(G, s, return_predecessors=False),
     lambda: scg.breadth_first_order(H, s, return_predecessors=False))
case(g, "breadth_first_order pred", lambda: csgraph.breadth_first_order(G, s)[1],
     lambda: scg.breadth_first_order(H, s)[1], reps=3)
case(g, "bfo undirected", lambda: csgraph.breadth_first_order(G, s, directed=False)[0],
     lambda: scg.breadth_first_order(H, s, directed=False)[0], reps=2)
case(g, "depth_first_order", lambda: csgraph.depth_first_order(G, s, return_predecessors=False),
     lambda: scg.depth_first_order(H, s, return_predecessors=False))
case(g, "dfo undirected", lambda: csgraph.depth_first_order(G, s, directed=False)[0],
     lambda: scg.depth_first_order(H, s, directed=False)[0], reps=2)
case(g, "breadth_first_tree", lambda: csgraph.breadth_first_tree(G, s),
     lambda: scg.breadth_first_tree(H, s), reps=3)
case(g, "dijkstra", lambda: csgraph.dijkstra(G, indices=s), lambda: scg.dijkstra(H, indices=s),
     reps=3)
case(g, "connected_components strong",
     lambda: csgraph.connected_components(G, connection="strong")[1],
     lambda: scg.connected_components(H, connection="strong")[1], reps=3)
case(g, "laplacian", lambda: csgraph.laplacian(G), lambda: scg.laplacian(H), reps=3)
# strong components' stages on the grid (median ms of 3): where its time goes
grid_stages = {}


def gstage(name, f, reps=3):
    ts = []
    for _ in range(reps):
        sync()
        t = time.perf_counter()
        f()
        sync()
        ts.append((time.perf_counter() - t) * 1e3)
    grid_stages[name] = float(np.median(ts))


if not DRY:
    ip, ind, nn = _thin.traversal_structure(G, "x", True, combine=False)
    gstage("traversal_structure", lambda: _thin.traversal_structure(G, "x", True, combine=False))
    gstage("D2H structure, pinned", lambda: _validation._gather_to_host([ip, ind], pinned_from=0))
    gstage("D2H structure, pageable", lambda: _validation._gather_to_host([ip, ind]))
    ph, ih = _validation._gather_to_host([ip, ind])
    B = sp.csr_array((np.broadcast_to(np.float64(1.0), (ih.size,)), ih, ph), shape=(nn, nn))
    gstage("csr build", lambda: sp.csr_array((np.broadcast_to(np.float64(1.0), (ih.size,)), ih,
                                              ph), shape=(nn, nn)))
    gstage("has_canonical_format (fresh csr)", lambda: sp.csr_array(
        (np.broadcast_to(np.float64(1.0), (ih.size,)), ih, ph), shape=(nn, nn)).has_canonical_format)
    gstage("scipy strong on the structure", lambda: scg.connected_components(
        B, connection="strong"))
    gstage("scipy strong on the float32 host CSR", lambda: scg.connected_components(
        H, connection="strong"))
    lab = scg.connected_components(B, connection="strong")[1]
    gstage("upload labels", lambda: sr.to_device(lab, "gpu"))
    gstage("whole facade call", lambda: csgraph.connected_components(G, connection="strong"))
    print("grid strong stages (ms):", json.dumps(grid_stages), flush=True)
del G

# ---------------------------------------------------------------- 1b. kron-20, strong components
# (session 12: a symmetric pattern runs Afforest on the GPU; the bench's Kronecker graphs are
# undirected). Generated on the GPU where there is one.
KS = 10 if DRY else 20
K = gen.kronecker(KS) if DRY else gen.kronecker(KS, xp=cp)
K = sp.csr_matrix(K.get() if hasattr(K, "get") else K)
GK = on_gpu(K)
case(f"kron-{KS}", "connected_components strong",
     lambda: csgraph.connected_components(GK, connection="strong")[1],
     lambda: scg.connected_components(K, connection="strong")[1], reps=3)
del GK, K

# ---------------------------------------------------------------- 2. a path of 10⁵ vertices
n = PATH
P = sp.csr_matrix((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
X = on_gpu(P)
g = "path-1e5"
perm = np.random.default_rng(1).permutation(n)  # the same path, vertices numbered at random
Q = sp.csr_matrix((np.ones(n - 1), (perm[:-1], perm[1:])), shape=(n, n))
Y = on_gpu(Q)
for name, fac, ref in [
    ("breadth_first_order", lambda: csgraph.breadth_first_order(X, 0)[0],
     lambda: scg.breadth_first_order(P, 0)[0]),
    ("depth_first_order", lambda: csgraph.depth_first_order(X, 0)[0],
     lambda: scg.depth_first_order(P, 0)[0]),
    ("dijkstra", lambda: csgraph.dijkstra(X, indices=0), lambda: scg.dijkstra(P, indices=0)),
    ("dijkstra undirected mid", lambda: csgraph.dijkstra(X, directed=False, indices=n // 2),
     lambda: scg.dijkstra(P, directed=False, indices=n // 2)),
    ("dijkstra x3", lambda: csgraph.dijkstra(X, indices=[0, 5, n // 2]),
     lambda: scg.dijkstra(P, indices=[0, 5, n // 2])),
    ("shortest_path auto", lambda: csgraph.shortest_path(X, indices=0),
     lambda: scg.shortest_path(P, indices=0)),
    # SciPy's yen aborts on ordinary inputs (the facade's docstring): the facade's own Yen
    # on the host input is the reference; a spur search a vertex of the first path
    ("yen K=2 0->50 (ref: facade host)", lambda: csgraph.yen(X, 0, 50, 2),
     lambda: csgraph.yen(P, 0, 50, 2)),
    ("connected_components strong",
     lambda: csgraph.connected_components(X, connection="strong")[1],
     lambda: scg.connected_components(P, connection="strong")[1]),
    ("connected_components weak", lambda: csgraph.connected_components(X)[1],
     lambda: scg.connected_components(P)[1]),
    ("minimum_spanning_tree", lambda: csgraph.minimum_spanning_tree(X),
     lambda: scg.minimum_spanning_tree(P)),
    ("laplacian", lambda: csgraph.laplacian(X), lambda: scg.laplacian(P)),
    ("bfo permuted", lambda: csgraph.breadth_first_order(Y, int(perm[0]))[0],
     lambda: scg.breadth_first_order(Q, int(perm[0]))[0]),
    ("dijkstra permuted", lambda: csgraph.dijkstra(Y, indices=int(perm[0])),
     lambda: scg.dijkstra(Q, indices=int(perm[0]))),
]:
    case(g, name, fac, ref, reps=3)

# SciPy's bellman_ford and johnson make N passes over every edge (O(N · nnz): the 10⁵ path
# took 111 s): a path of 10⁴ for those (SciPy about 1 s)
m = PATH // 10
P4 = sp.csr_matrix((np.ones(m - 1), (np.arange(m - 1), np.arange(1, m))), shape=(m, m))
X4 = on_gpu(P4)
g = "path-1e4"
case(g, "bellman_ford", lambda: csgraph.bellman_ford(X4, indices=0),
     lambda: scg.bellman_ford(P4, indices=0), reps=3)
case(g, "johnson", lambda: csgraph.johnson(X4, indices=0), lambda: scg.johnson(P4, indices=0),
     reps=3)
case(g, "bellman_ford (facade, path-1e5)", lambda: csgraph.bellman_ford(X, indices=0),
     lambda: csgraph.dijkstra(P, indices=0), reps=3)

# ---------------------------------------------------------------- 3. n = 1024 (urand-10-ef5)
H = gen.urand(10, 5)
H = sp.csr_matrix(H) if not isinstance(H, sp.csr_matrix) else H
G = on_gpu(H)
s = source_of(H)
batch = np.flatnonzero(np.diff(H.indptr) > 0)[:8]
g = "urand-10-ef5"
for name, fac, ref in [
    ("breadth_first_order", lambda: csgraph.breadth_first_order(G, s, return_predecessors=False),
     lambda: scg.breadth_first_order(H, s, return_predecessors=False)),
    ("depth_first_order", lambda: csgraph.depth_first_order(G, s, return_predecessors=False),
     lambda: scg.depth_first_order(H, s, return_predecessors=False)),
    ("breadth_first_tree", lambda: csgraph.breadth_first_tree(G, s),
     lambda: scg.breadth_first_tree(H, s)),
    ("dijkstra", lambda: csgraph.dijkstra(G, indices=s), lambda: scg.dijkstra(H, indices=s)),
    ("dijkstra_batch", lambda: csgraph.dijkstra(G, indices=batch),
     lambda: scg.dijkstra(H, indices=batch)),
    ("laplacian", lambda: csgraph.laplacian(G), lambda: scg.laplacian(H)),
    ("connected_components", lambda: csgraph.connected_components(G, directed=False)[1],
     lambda: scg.connected_components(H, directed=False)[1]),
    ("minimum_spanning_tree", lambda: csgraph.minimum_spanning_tree(G),
     lambda: scg.minimum_spanning_tree(H)),
]:
    case(g, name, fac, ref, reps=R)
# the routes' bounds: the engine at this size (HOST_MAX_WORK off) against the route above
saved = dict(_validation.HOST_MAX_WORK)
for k in ("laplacian", "connected_components", "breadth_first_order", "depth_first_order"):
    _validation.HOST_MAX_WORK[k] = 0
case(g, "laplacian (engine)", lambda: csgraph.laplacian(G), lambda: scg.laplacian(H), reps=R)
case(g, "connected_components (engine)",
     lambda: csgraph.connected_components(G, directed=False)[1],
     lambda: scg.connected_components(H, directed=False)[1], reps=R)
case(g, "bfo (probe path)",
     lambda: csgraph.breadth_first_order(G, s, return_predecessors=False),
     lambda: scg.breadth_first_order(H, s, return_predecessors=False), reps=R)
_validation.HOST_MAX_WORK.update(saved)

# the route's stages for breadth_first_order at n = 1024 (median µs of R)
stages = {}


def stage(name, f):
    ts = []
    for _ in range(R):
        sync()
        t = time.perf_counter()
        f()
        sync()
        ts.append((time.perf_counter() - t) * 1e6)
    stages[name] = float(np.median(ts))


ip, ind, nn = _thin.traversal_structure(G, "breadth_first_order", True, combine=False)
stage("traversal_structure", lambda: _thin.traversal_structure(G, "x", True, combine=False))
stage("gather to host", lambda: _thin._to_host([ip, ind]))
ph, ih = _thin._to_host([ip, ind])
stage("csr_matrix build", lambda: sp.csr_matrix((np.broadcast_to(1.0, (ih.size,)), ih, ph),
                                                shape=(nn, nn)))
Rm = sp.csr_matrix((np.broadcast_to(1.0, (ih.size,)), ih, ph), shape=(nn, nn))
stage("scipy bfo", lambda: scg.breadth_first_order(Rm, s))
o, p = scg.breadth_first_order(Rm, s)
if not DRY:
    stage("upload", lambda: _validation._scatter_to_gpu([o, p]))
stage("whole facade call", lambda: csgraph.breadth_first_order(G, s))
# the generic route (dijkstra, 1 and 8 sources): copy in, SciPy, upload
if not DRY:
    stage("route: _to_host(G)", lambda: _validation._to_host(G))
    Hc = _validation._to_host(G)
    stage("route: dijkstra on the copy", lambda: csgraph.dijkstra(Hc, indices=s))
    d1 = csgraph.dijkstra(Hc, indices=s)
    stage("route: upload 1 row", lambda: _validation._to_gpu_result(d1))
    stage("route: whole dijkstra", lambda: csgraph.dijkstra(G, indices=s))
    stage("route: dijkstra x8 on the copy", lambda: csgraph.dijkstra(Hc, indices=batch))
    d8 = csgraph.dijkstra(Hc, indices=batch)
    stage("route: upload 8 rows", lambda: _validation._to_gpu_result(d8))
    stage("route: whole dijkstra x8", lambda: csgraph.dijkstra(G, indices=batch))
    stage("scipy dijkstra x8 (float32 CSR)", lambda: scg.dijkstra(H, indices=batch))
stage("scipy on the float32 host CSR", lambda: scg.breadth_first_order(H, s))
print("stages (µs):", json.dumps(stages), flush=True)

lines = ["| graph | function | facade-gpu ms | SciPy ms | SciPy / facade | check | runs |",
         "|---|---|---:|---:|---:|---|---:|"]
for r in rows:
    lines.append(f"| {r['graph']} | {r['fn']} | {r['facade_gpu_ms']:.3f} | {r['scipy_ms']:.3f} "
                 f"| {r['ratio']:.3g}x | {r['check']} | {r['runs']} |")
table = "\n".join(lines)
print(table)
if OUT:
    with open(f"{OUT}/csgraph_thin_gpu.md", "w") as fh:
        fh.write(table + "\n\nstages (µs): " + json.dumps(stages) + "\n\ngrid strong stages "
                 "(ms): " + json.dumps(grid_stages) + "\n")
    with open(f"{OUT}/csgraph_thin_gpu.json", "w") as fh:
        json.dump({"rows": rows, "stages": stages, "grid_stages": grid_stages}, fh, indent=1)
