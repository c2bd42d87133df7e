"""The analytics of ``algorithms`` on awkward *values* and parameter edges (session 18,
audit alg13), against NetworkX 3.6 / SciPy 1.17 or a metamorphic oracle (the same graph with
its weights rescaled into the normal range). Earlier audits covered structure (audit8:
``analytics_awkward_nx.py``) and argument checks (valid10: ``tests/test_validation_audit.py``).

Checks, each printing ``DIFF <what>: ...`` on a discrepancy (the count at the end):

- value types: every function on the karate club graph as bool / int32 / int64 / float32 /
  float64, the same answers (int8 ... uint64 must be refused naming the function);
- special weights (0, ±inf, NaN, -1, 1e300, 1.7e308, 5e-324): PageRank, MST, Louvain,
  modularity, SSSP family, APSP, betweenness, components, triangles; NaN must be refused by the
  shortest paths, Louvain and PageRank; structure-only functions must not read values;
- PageRank: out-weights whose row sums pass float64's range (1e308 twice) or are subnormal,
  personalization / nstart / dangling summing past it, alpha 0 / 0.999999, max_iter 0 / 1,
  personalization on a missing / dangling node, against NetworkX (or the rescaled graph);
- betweenness: k / normalized / endpoints on paths, stars, K5, n = 1, 2 and disconnected
  graphs against NetworkX;
- Louvain: resolution 0 / 1e-300 / 1e6 / 1e300 / -1 (community counts and modularity);
  modularity with negative weights; all-equal weights 5e-324 / 1 / 1e300 on K6;
- shortest paths: -inf edges (a DAG, a cycle, a two-cycle) against bellman_ford; float32
  weights whose sums pass float32's range (must raise DistanceOverflow, not read inf as
  unreached); int32 / int64 weights near their limits;
- structure: n = 0, 1, long paths (``N_PATH`` vertices) through every function (time).

Usage: PYTHONPATH=. python3 bench/probes/alg13_analytics_values.py [N_PATH=20000]
"""
import sys
import time
import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp

import algorithms as alg
import semiring as sr

warnings.simplefilter("ignore")
N_PATH = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
diffs = 0


def report(what, msg):
    global diffs
    diffs += 1
    print("DIFF", what, str(msg)[:300], flush=True)


def out(f, *a, **k):
    try:
        return ("ok", f(*a, **k))
    except Exception as e:  # noqa: BLE001 (the outcome is what is compared)
        return ("err", e)


def csr(edges, n, dtype=np.float64):
    if not edges:
        return sp.csr_array((n, n), dtype=dtype)
    r, c, w = zip(*edges)
    return sp.csr_array((np.asarray(w, dtype=dtype), (r, c)), shape=(n, n))


def vec(d, n):
    return np.array([d[i] for i in range(n)])


# ---------------------------------------------------------------- value types
G = nx.karate_club_graph()
base = nx.to_scipy_sparse_array(G, weight=None, format="csr", dtype=np.float64)
ref = {}
for dt in [np.float64, np.float32, np.int64, np.int32, np.bool_]:
    A = base.astype(dt)
    got = {
        "cc": alg.connected_components(A), "pr": alg.pagerank(A), "core": alg.core_number(A),
        "tri": alg.triangles(A), "bc": alg.betweenness_centrality(A, directed=False),
        "lpa": alg.label_propagation(A), "lv": alg.louvain(A), "bfs": alg.bfs(A, 0),
        "sssp": alg.sssp(A, 0).astype(np.float64),
        "mst": float(alg.minimum_spanning_forest(A).to_scipy().astype(np.float64).sum()),
    }
    for k, v in got.items():
        if k not in ref:
            ref[k] = v
        elif not np.allclose(v, ref[k]):
            report("dtype", f"{np.dtype(dt)} {k}: {v} vs float64's {ref[k]}")
for dt in [np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.uint64]:
    r = out(alg.pagerank, base.astype(dt))
    if r[0] == "ok" or not str(r[1]).startswith("pagerank: A.dtype"):
        report("dtype-refusal", f"{np.dtype(dt)}: {r}")

# ---------------------------------------------------------------- special weights
E = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 2)]
for special in [0.0, np.inf, -np.inf, np.nan, -1.0, 1e300, 1.7e308, 5e-324]:
    w = np.array([1.0, 2, 3, 4, 5, 6])
    w[2] = special
    edges = [(a, b, x) for (a, b), x in zip(E, w)] + [(b, a, x) for (a, b), x in zip(E, w)]
    A = csr(edges, 5)
    ones = csr([(a, b, 1.0) for a, b, _ in edges], 5)
    # structure-only functions must not read values
    for name, f in [("bc", lambda M: alg.betweenness_centrality(M, directed=False)),
                    ("cc", alg.connected_components), ("tri", alg.triangles),
                    ("core", alg.core_number), ("lpa", alg.label_propagation),
                    ("bfs", lambda M: alg.bfs(M, 0))]:
        a, b = out(f, A), out(f, ones)
        if a[0] != "ok" or not np.array_equal(a[1], b[1]):
            report("structure-only", f"{name} w={special}: {a} vs {b}")
    if np.isnan(special):
        for name, f in [("pr", alg.pagerank), ("lv", alg.louvain), ("sssp", lambda M: alg.sssp(M, 0)),
                        ("bf", lambda M: alg.bellman_ford(M, 0)), ("apsp", alg.apsp),
                        ("msssp", lambda M: alg.multi_source_sssp(M, [0]))]:
            r = out(f, A)
            if r[0] == "ok":
                report("nan-accepted", f"{name}: {r[1]}")
        continue
    if np.isfinite(special) and special >= 0:
        H = nx.Graph()
        H.add_weighted_edges_from([(a, b, float(x)) for a, b, x in edges])
        a = out(nx.pagerank, H)
        b = out(alg.pagerank, A)
        if a[0] == "ok" and b[0] == "ok" and not np.allclose(vec(a[1], 5), b[1], atol=1e-6):
            report("pagerank", f"w={special}: nx {vec(a[1], 5)} ours {b[1]}")
        if special < 1e300:  # NetworkX's Dijkstra sums overflow the same way
            d_nx = nx.single_source_dijkstra_path_length(H, 0)
            for name, f in [("sssp", alg.sssp), ("bf", alg.bellman_ford),
                            ("ds", alg.delta_stepping)]:
                d = f(A, 0)
                if not np.allclose(d, vec(d_nx, 5)):
                    report(name, f"w={special}: {d} vs {vec(d_nx, 5)}")
    # multi_source_sssp row = bellman_ford (also with -inf)
    for s in range(5):
        a, b = out(alg.multi_source_sssp, A, [s]), out(alg.bellman_ford, A, s)
        if a[0] != b[0] or (a[0] == "ok" and not np.array_equal(a[1][0], b[1])):
            report("msssp-vs-bf", f"w={special} s={s}: {a} vs {b}")

# -inf on directed graphs, unreached vertices beside them: no NaN, bellman_ford's answer
for name, edges, n in [("beside", [(0, 1, 1.0), (3, 2, -np.inf)], 4),
                       ("into", [(0, 1, -np.inf), (1, 2, 1.0), (4, 1, -np.inf)], 5),
                       ("dag", [(0, 1, -np.inf), (1, 2, 1.0), (2, 3, 2.0)], 5)]:
    A = csr(edges, n)
    a, b = out(alg.multi_source_sssp, A, [0, 1]), [alg.bellman_ford(A, s) for s in (0, 1)]
    if a[0] != "ok" or not np.array_equal(a[1], np.array(b)):
        report("msssp-minus-inf", f"{name}: {a} vs {b}")
# a negative cycle through a -inf edge (or behind one): every shortest path function raises,
# as apsp does (NetworkX: NetworkXUnbounded for the first two); none where there is none
for name, edges, n, cyc in [
        ("cycle", [(0, 1, -np.inf), (1, 0, 1.0), (1, 2, 1.0)], 4, True),
        ("two-cycle", [(0, 1, -np.inf), (1, 0, -np.inf)], 4, True),
        ("self-loop", [(0, 1, -np.inf), (1, 1, -np.inf)], 2, True),
        ("behind", [(0, 1, -np.inf), (1, 2, -1.0), (2, 1, -1.0)], 3, True),
        ("positive-behind", [(0, 1, -np.inf), (1, 2, 5.0), (2, 1, 5.0)], 3, False),
        ("inf-edges", [(0, 1, -np.inf), (1, 2, np.inf), (2, 1, 1.0)], 3, False)]:
    A = csr(edges, n)
    for fname, f in [("bf", lambda: alg.bellman_ford(A, 0)), ("sssp", lambda: alg.sssp(A, 0)),
                     ("msssp", lambda: alg.multi_source_sssp(A, [0])), ("apsp", lambda: alg.apsp(A))]:
        r = out(f)
        if (r[0] == "err" and isinstance(r[1], sr.NegativeCycleError)) != cyc or (
                r[0] == "err" and not isinstance(r[1], sr.NegativeCycleError)):
            report("minus-inf-cycle", f"{name} {fname}: {r}")

# float32 sums past float32's range: DistanceOverflow, never inf for a reached vertex
A = csr([(0, 1, 3e38), (1, 2, 3e38), (0, 3, 1.0)], 5, np.float32)
for name, f in [("sssp", lambda: alg.sssp(A, 0)), ("bf", lambda: alg.bellman_ford(A, 0)),
                ("ds", lambda: alg.delta_stepping(A, 0)),
                ("msssp", lambda: alg.multi_source_sssp(A, [0])),
                ("apsp", lambda: alg.apsp(A))]:
    r = out(f)
    if r[0] == "ok":
        d = np.asarray(r[1]).reshape(-1, 5)[0]
        if np.isinf(d[2]):
            report("float32-overflow", f"{name}: vertex 2 is reachable, got {d}")
    elif not isinstance(r[1], alg.DistanceOverflow):
        report("float32-overflow", f"{name}: {r[1]!r}")

# ---------------------------------------------------------------- PageRank's ranges
for w in [1e308, 5e-324]:
    edges = [(0, 1, w), (0, 2, w), (1, 2, 1.0), (2, 0, 1.0), (3, 0, 0.0), (3, 1, 0.0)]
    refe = [(i, j, 1.0 if x == w else x) for i, j, x in edges]
    a, b = out(alg.pagerank, csr(edges, 4)), alg.pagerank(csr(refe, 4))
    if a[0] != "ok" or not np.allclose(a[1], b, atol=1e-12):
        report("pagerank-range", f"w={w}: {a} vs rescaled {b}")
Gd = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3)])
Gd.add_node(4)
Ad = nx.to_scipy_sparse_array(Gd, nodelist=range(5), format="csr")
for arg in ["personalization", "nstart", "dangling"]:
    a = out(alg.pagerank, Ad, **{arg: {0: 1e308, 1: 1e308}})
    b = alg.pagerank(Ad, **{arg: {0: 1.0, 1: 1.0}})
    if a[0] != "ok" or not np.allclose(a[1], b, atol=1e-12):
        report("pagerank-distribution", f"{arg}: {a} vs {b}")
for kw_nx, kw in [(dict(alpha=0), dict(damping=0)), (dict(alpha=0.999999), dict(damping=0.999999)),
                  (dict(max_iter=0), dict(max_iter=0)), (dict(max_iter=1), dict(max_iter=1)),
                  (dict(personalization={4: 1}), dict(personalization={4: 1})),
                  (dict(personalization={3: 1}), dict(personalization={3: 1})),
                  (dict(dangling={3: 1}), dict(dangling={3: 1})),
                  (dict(nstart={0: 1}), dict(nstart={0: 1})),
                  (dict(personalization={0: 1e-320}), dict(personalization={0: 1e-320}))]:
    a, b = out(nx.pagerank, Gd, **kw_nx), out(alg.pagerank, Ad, **kw)
    if a[0] != b[0]:
        report("pagerank-params", f"{kw}: nx {a} ours {b}")
    elif a[0] == "ok" and not np.allclose(vec(a[1], 5), b[1], atol=1e-6):
        report("pagerank-params", f"{kw}: nx {vec(a[1], 5)} ours {b[1]}")

# ---------------------------------------------------------------- betweenness flags
graphs = {"path5": nx.path_graph(5), "star6": nx.star_graph(5), "K5": nx.complete_graph(5),
          "n1": nx.empty_graph(1), "n2": nx.empty_graph(2), "edge": nx.path_graph(2),
          "dipath": nx.path_graph(4, nx.DiGraph),
          "disconn": nx.disjoint_union(nx.path_graph(3), nx.path_graph(3))}
for name, H in graphs.items():
    A = nx.to_scipy_sparse_array(H, nodelist=range(len(H)), format="csr")
    for k in [None, 1, 2, len(H)]:
        for norm in (True, False):
            for ep in (True, False):
                a = out(nx.betweenness_centrality, H, k=k, normalized=norm, endpoints=ep, seed=3)
                b = out(alg.betweenness_centrality, A, k=k, normalized=norm, endpoints=ep, seed=3,
                        directed=H.is_directed())
                if a[0] != b[0] or (a[0] == "ok" and not np.allclose(
                        vec(a[1], len(H)), b[1], equal_nan=True)):
                    report("bc", f"{name} k={k} norm={norm} ep={ep}: {a} vs {b}")

# ---------------------------------------------------------------- Louvain / modularity
A = nx.to_scipy_sparse_array(G, nodelist=range(34), format="csr")
for res in [0.0, 1e-300, 1e6, 1e300, -1.0]:
    lab = alg.louvain(A, resolution=res)
    comms = [set(np.flatnonzero(lab == c).tolist()) for c in np.unique(lab)]
    q_nx = nx.community.modularity(G, comms, resolution=res)
    q = alg.modularity(A, lab, resolution=res)
    if not np.isclose(q, q_nx, rtol=1e-9):
        report("modularity", f"res={res}: {q} vs {q_nx}")
    n_nx = len(nx.community.louvain_communities(G, resolution=res, seed=1))
    if res != 1.0 and (n_nx in (1, 34)) and len(comms) != n_nx:
        report("louvain-resolution", f"res={res}: {len(comms)} communities, NetworkX {n_nx}")
W = A.copy()
W.data = W.data - 3.0
lab = np.arange(34) % 3
q_nx = nx.community.modularity(nx.from_scipy_sparse_array(W),
                               [set(np.flatnonzero(lab == c).tolist()) for c in range(3)])
if not np.isclose(alg.modularity(W, lab), q_nx, rtol=1e-12):
    report("modularity-negative", f"{alg.modularity(W, lab)} vs {q_nx}")
for w in [5e-324, 1.0, 1e300]:
    K = nx.to_scipy_sparse_array(nx.complete_graph(6), format="csr", dtype=np.float64)
    K.data[:] = w
    lab = alg.louvain(K)
    if lab.tolist() != [0] * 6:
        report("louvain-equal-weights", f"w={w}: {lab}")

# ---------------------------------------------------------------- n = 0, 1 and long paths
for n in (0, 1):
    Z = sp.csr_array((n, n), dtype=np.float64)
    for name, f in [("cc", alg.connected_components), ("pr", alg.pagerank),
                    ("core", alg.core_number), ("tri", alg.triangles), ("clust", alg.clustering),
                    ("bc", alg.betweenness_centrality), ("lpa", alg.label_propagation),
                    ("lv", alg.louvain), ("mst", alg.minimum_spanning_forest),
                    ("ktruss", lambda M: alg.k_truss(M, 3)), ("apsp", alg.apsp)]:
        r = out(f, Z)
        if r[0] != "ok":
            report("empty", f"n={n} {name}: {r[1]!r}")
i = np.arange(N_PATH - 1)
P = sp.csr_array((np.ones(N_PATH - 1), (i, i + 1)), shape=(N_PATH, N_PATH))
U = (P + P.T).tocsr()
for name, f in [("cc", lambda: alg.connected_components(P)),
                ("cc-fastsv", lambda: alg.connected_components(P, method="fastsv")),
                ("scc-coloring", lambda: alg.connected_components(P, "strong", method="coloring")),
                ("core", lambda: alg.core_number(U)), ("ktruss", lambda: alg.k_truss(U, 3)),
                ("mst", lambda: alg.minimum_spanning_forest(U)), ("pr", lambda: alg.pagerank(P)),
                ("bc-k4", lambda: alg.betweenness_centrality(U, k=4, seed=1, directed=False)),
                ("lpa", lambda: alg.label_propagation(U)), ("louvain", lambda: alg.louvain(U)),
                ("sssp", lambda: alg.sssp(P, 0)), ("bf", lambda: alg.bellman_ford(P, 0)),
                ("flow", lambda: alg.maximum_flow(P.astype(np.int32), 0, N_PATH - 1))]:
    t0 = time.perf_counter()
    r = out(f)
    dt = time.perf_counter() - t0
    print(f"path {N_PATH}: {name:13s} {dt:7.3f} s {r[0]}", flush=True)
    if r[0] != "ok":
        report("path", f"{name}: {r[1]!r}")
d = alg.sssp(P, 0)
if not np.array_equal(d, np.arange(N_PATH, dtype=np.float64)):
    report("path-sssp", "distances are not 0..n-1")
if alg.core_number(U).max() != 1 or alg.connected_components(P).max() != 0:
    report("path-core/cc", "wrong")

print(f"{diffs} discrepancies", flush=True)
