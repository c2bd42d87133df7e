"""aud14: adversarial probes of eigenvector / Katz / HITS / closeness / harmonic centrality,
engine (``algorithms``) and NetworkX backend (``backend="semiring"``) against NetworkX 3.6.

Run from a scratch directory with the editable install:
``cd /tmp/scratch && python /work/wt/aud14/bench/probes/aud14_centrality.py``. Prints one line
per probe: ``ok``, or ``DIFF`` with both outcomes.
"""

from __future__ import annotations

import math
import sys
import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp

import algorithms as alg

warnings.simplefilter("ignore")
BAD = []


def outcome(f):
    try:
        r = f()
    except Exception as exc:  # noqa: BLE001  (the probe records every outcome)
        return ("raise", type(exc).__name__, str(exc))
    return ("ok", r)


def _close(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b)) + 1e-300
    return type(a) is type(b) and a == b


def compare(label, f, *args, tol_hits=False, **kw):
    """NetworkX's outcome against the backend's (a refusal is noted, not a defect)."""
    ref = outcome(lambda: f(*args, backend="networkx", **kw))
    try:
        got = outcome(lambda: f(*args, backend="semiring", **kw))
    except NotImplementedError as exc:
        got = ("refused", str(exc))
    if got[0] == "raise" and got[1] == "NotImplementedError":
        print(f"refused {label}: {got[2][:100]}")
        return
    if ref[0] == "ok" and got[0] == "ok" and tol_hits:
        same = all(abs(x[k] - y[k]) <= 1e-6 for x, y in zip(ref[1], got[1]) for k in x) and \
            [list(x) for x in ref[1]] == [list(y) for y in got[1]]
    elif ref[0] == "ok" and got[0] == "ok":
        same = _close(ref[1], got[1])
    else:
        same = ref == got
    print(("ok     " if same else "DIFF   ") + label)
    if not same:
        BAD.append(label)
        print("   networkx:", repr(ref)[:300])
        print("   semiring:", repr(got)[:300])


def eng(label, f, expect):
    """An engine call's outcome against an expected predicate on the outcome."""
    r = outcome(f)
    ok = expect(r)
    print(("ok     " if ok else "DIFF   ") + label + ("" if ok else f": {repr(r)[:300]}"))
    if not ok:
        BAD.append(label)


def graphs():
    """Small graphs with awkward features, by name."""
    out = {}
    G = nx.Graph([(0, 1), (1, 2), (3, 4)])
    G.add_node(5)
    out["undirected-disconnected-isolated"] = G
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3)])
    D.add_node(4)
    out["directed-cycle-tail-isolated"] = D
    S = nx.Graph([("b", "a"), ("a", "a"), ("c", "b")])
    out["string-labels-selfloop"] = S
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    out["multigraph"] = M
    out["n1"] = nx.empty_graph(1)
    out["n2-edge"] = nx.path_graph(2)
    out["n2-directed"] = nx.DiGraph([(0, 1)])
    out["n2-none"] = nx.empty_graph(2)
    T = nx.DiGraph()
    T.add_nodes_from([(1, 2), "x", 3.5, None.__class__.__name__])
    T.add_edges_from([((1, 2), "x"), ("x", 3.5), (3.5, (1, 2))])
    out["tuple-mixed-labels"] = T
    return out


def weighted_graphs():
    out = {}
    for name, w in [("float", 2.5), ("int", 3), ("zero", 0), ("bool", True),
                    ("np-float64", np.float64(1.5)), ("np-int64", np.int64(2)),
                    ("np-float32", np.float32(1.5)), ("np-int8", np.int8(3)),
                    ("np-uint16", np.uint16(3)), ("np-bool", np.True_), ("huge", 1e300), ("tiny", 1e-300),
                    ("nan", float("nan")), ("inf", float("inf")), ("negative", -1.0),
                    ("none-value", None)]:
        G = nx.DiGraph()
        G.add_edge(0, 1, weight=w)
        G.add_edge(1, 2)  # no attribute: NetworkX's default 1
        G.add_edge(2, 0, weight=2)
        G.add_edge(2, 3, weight=0.5)
        out[name] = G
        out[name + "-undirected"] = G.to_undirected()
    return out


def main():
    gs = graphs()
    for name, G in gs.items():
        compare(f"eigenvector {name}", nx.eigenvector_centrality, G, max_iter=500)
        compare(f"katz {name}", nx.katz_centrality, G)
        compare(f"katz {name} normalized=False", nx.katz_centrality, G, normalized=False)
        compare(f"closeness {name}", nx.closeness_centrality, G)
        compare(f"closeness {name} wf=False", nx.closeness_centrality, G, wf_improved=False)
        compare(f"harmonic {name}", nx.harmonic_centrality, G)
        compare(f"hits {name}", nx.hits, G, tol_hits=True)
    for name, G in weighted_graphs().items():
        compare(f"eigenvector weight={name}", nx.eigenvector_centrality, G, weight="weight",
                max_iter=1000)
        compare(f"katz weight={name}", nx.katz_centrality, G, weight="weight", alpha=0.05)
        compare(f"closeness distance={name}", nx.closeness_centrality, G, distance="weight")
        compare(f"harmonic distance={name}", nx.harmonic_centrality, G, distance="weight")
        compare(f"hits weight={name}", nx.hits, G, tol_hits=True)
    # weight / distance names
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 2, "w")
    for wname in ("w", "absent", "", True, False, 0):
        compare(f"eigenvector weight={wname!r}", nx.eigenvector_centrality, G, weight=wname)
        compare(f"katz weight={wname!r}", nx.katz_centrality, G, weight=wname)
        compare(f"closeness distance={wname!r}", nx.closeness_centrality, G, distance=wname)
        compare(f"harmonic distance={wname!r}", nx.harmonic_centrality, G, distance=wname)
    # nstart
    P = nx.path_graph(["a", "b", "c"])
    for ns in ({"a": 0, "b": 0, "c": 0}, {"a": 1, "b": -1, "c": 0},
               {"a": 1.0, "b": -1.0, "c": 0.0}, {"a": 1, "b": -1.0, "c": 0},
               {"c": 1, "a": 2, "b": 3}, {"a": -1, "b": -2, "c": -3},
               {"a": np.float64(1), "b": np.float64(-1), "c": np.float64(0)},
               {"a": np.int64(1), "b": np.int64(-1), "c": np.int64(0)},
               {"a": float("nan"), "b": 1, "c": 1}, {"a": 1e16, "b": 1.0, "c": -1e16},
               {"c": -1e16, "a": 1e16, "b": 1.0}, {"a": 1, "b": 1, "c": True}):
        compare(f"eigenvector nstart={ns}", nx.eigenvector_centrality, P, nstart=ns)
        compare(f"katz nstart={ns}", nx.katz_centrality, P, nstart=ns)
    # beta, alpha
    for beta in (2, 0, -1.5, {"a": 1, "b": 2, "c": 3}, {"c": 1, "b": 0, "a": 0},
                 {"a": 1, "b": 2}, np.float64(0.5), "2", True, float("nan")):
        compare(f"katz beta={beta!r}", nx.katz_centrality, P, beta=beta)
    for alpha in (0, -0.3, 0.5, 1.0, 2.0, np.float32(0.1), float("nan"), float("inf")):
        compare(f"katz alpha={alpha!r}", nx.katz_centrality, P, alpha=alpha)
    # iteration limits
    for f in (nx.eigenvector_centrality, nx.katz_centrality, nx.hits):
        for kw in ({"max_iter": 0}, {"max_iter": 1}, {"max_iter": -1}, {"tol": 0},
                   {"tol": -1.0}, {"tol": float("nan")}, {"tol": "x"}, {"max_iter": 2.0},
                   {"max_iter": np.int64(200)}):
            compare(f"{f.__name__} {kw}", f, nx.cycle_graph(5), **kw)
    # convergence failures
    compare("eigenvector path30 max_iter=2", nx.eigenvector_centrality, nx.path_graph(30),
            max_iter=2)
    compare("katz C5 alpha=0.9", nx.katz_centrality, nx.cycle_graph(5), alpha=0.9)
    # views and mutation
    D = nx.gnp_random_graph(12, 0.25, seed=3, directed=True)
    for e, (u, v) in enumerate(D.edges):
        D[u][v]["weight"] = 1 + e % 3
    views = {"subgraph": D.subgraph(range(8)), "reverse": D.reverse(copy=False),
             "to_undirected-view": D.to_undirected(as_view=True),
             "to_undirected-copy": D.to_undirected()}
    for vname, V in views.items():
        compare(f"closeness {vname}", nx.closeness_centrality, V)
        compare(f"closeness {vname} distance", nx.closeness_centrality, V, distance="weight")
        compare(f"harmonic {vname}", nx.harmonic_centrality, V)
        compare(f"eigenvector {vname}", nx.eigenvector_centrality, V, max_iter=1000)
        compare(f"katz {vname} weight", nx.katz_centrality, V, weight="weight", alpha=0.05)
    H = nx.path_graph(5)
    nx.closeness_centrality(H, backend="semiring")
    H.add_edge(0, 4)
    compare("closeness after add_edge", nx.closeness_centrality, H)
    H.remove_node(2)
    compare("harmonic after remove_node", nx.harmonic_centrality, H)
    # a view whose graph changes between calls (the conversion cached on the view)
    B = nx.path_graph(6, create_using=nx.DiGraph)
    V = B.subgraph([0, 1, 2, 3])
    nx.closeness_centrality(V, backend="semiring")
    nx.harmonic_centrality(V, backend="semiring")
    B.add_edge(3, 0)
    compare("closeness view after its graph changed", nx.closeness_centrality, V)
    compare("harmonic view after its graph changed", nx.harmonic_centrality, V)
    R = nx.MultiDiGraph([(0, 1), (0, 1), (1, 2), (2, 2)]).reverse(copy=False)
    compare("closeness reverse view of a multidigraph", nx.closeness_centrality, R)
    compare("harmonic reverse view of a multidigraph", nx.harmonic_centrality, R)
    # Fraction values (numbers.Real, not NumPy): NetworkX's arithmetic turns them to floats
    from fractions import Fraction
    compare("eigenvector nstart Fractions", nx.eigenvector_centrality, P,
            nstart={"a": Fraction(1, 3), "b": Fraction(1, 2), "c": 1})
    compare("katz alpha Fraction", nx.katz_centrality, P, alpha=Fraction(1, 10))
    # multigraph distances: a parallel edge without the attribute
    MG = nx.MultiDiGraph()
    MG.add_edge(0, 1, weight=5)
    MG.add_edge(0, 1)
    MG.add_edge(1, 2, weight=0.5)
    compare("closeness multigraph min parallel", nx.closeness_centrality, MG, distance="weight")
    compare("harmonic multigraph min parallel", nx.harmonic_centrality, MG, distance="weight")
    # should_run / can_run for every function on a few sizes
    from nx_semiring.interface import backend_interface as bi
    for n in (0, 1, 50, 2000):
        G = nx.gnm_random_graph(n, 4 * n, seed=1)
        for name, kw in [("eigenvector_centrality", {}), ("katz_centrality", {}),
                         ("hits", {}), ("closeness_centrality", {}),
                         ("closeness_centrality", {"distance": "weight"}),
                         ("harmonic_centrality", {})]:
            r = outcome(lambda: (bi.can_run(name, (G,), kw), bi.should_run(name, (G,), kw)))
            good = r[0] == "ok"
            print(("ok     " if good else "DIFF   ") + f"can/should_run {name} n={n}: {r}")
            if not good:
                BAD.append(f"should_run {name} {n}")
    engine_probes()
    sweep(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
    print(f"\n{len(BAD)} differences")
    for b in BAD:
        print("  ", b)
    return 1 if BAD else 0


def sweep(count, seed=14):
    """Random graphs: directed or not, multigraphs, self-loops, isolated nodes, shuffled
    labels, weights int / float / 0 / missing; every function, weighted and not."""
    rng = np.random.default_rng(seed)
    quiet = {}
    for i in range(count):
        n = int(rng.integers(0, 9))
        cls = [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph][int(rng.integers(4))]
        G = cls()
        labels = [f"v{j}" if j % 3 else j * 7 - 20 for j in rng.permutation(n)]
        G.add_nodes_from(labels)
        for _ in range(int(rng.integers(0, 2 * n + 1))):
            u, v = (labels[int(k)] for k in rng.integers(0, n, 2))
            kind = int(rng.integers(4))
            attr = {} if kind == 0 else {"weight": int(rng.integers(0, 4))} if kind == 1 \
                else {"weight": float(rng.uniform(0, 3))}
            G.add_edge(u, v, **attr)
        for f, kws in [(nx.eigenvector_centrality, [{"max_iter": 300},
                                                    {"weight": "weight", "max_iter": 300}]),
                       (nx.katz_centrality, [{"alpha": 0.05}, {"alpha": 0.05, "weight": "weight",
                                                               "normalized": False}]),
                       (nx.closeness_centrality, [{}, {"distance": "weight"},
                                                  {"wf_improved": False}]),
                       (nx.harmonic_centrality, [{}, {"distance": "weight"}])]:
            for kw in kws:
                ref = outcome(lambda: f(G, backend="networkx", **kw))
                got = outcome(lambda: f(G, backend="semiring", **kw))
                if got[0] == "raise" and got[1] == "NotImplementedError":
                    quiet[f.__name__] = quiet.get(f.__name__, 0) + 1
                    continue
                same = _close(ref[1], got[1]) if ref[0] == got[0] == "ok" else ref == got
                if not same:
                    label = f"sweep {i} {f.__name__} {kw} {cls.__name__} {list(G.edges(data=True))}"
                    BAD.append(label)
                    print("DIFF   " + label, "\n   networkx:", repr(ref)[:200],
                          "\n   semiring:", repr(got)[:200])
    print(f"ok     sweep of {count} graphs (refused calls: {quiet})")


def _nx_closeness(A, **kw):
    G = nx.from_scipy_sparse_array(sp.csr_array(A), create_using=nx.DiGraph)
    return np.array(list(nx.closeness_centrality(G, **kw).values()))


def engine_probes():
    # a path of weights 100: sums leave int8 (and bool's True + True is True)
    rows, cols = [0, 1, 2], [1, 2, 3]
    for dtype in (np.int8, np.uint8):  # not a Matrix type: refused, naming A.dtype
        A = sp.csr_matrix((np.full(3, 100, dtype=dtype), (rows, cols)), shape=(4, 4))
        eng(f"engine closeness {np.dtype(dtype).name} refused",
            lambda A=A: alg.closeness_centrality(A, weighted=True),
            lambda r: r[0] == "raise" and "A.dtype" in r[2] and "int8" in r[2])
    for dtype in (np.int32, np.float32, np.bool_, np.int64):
        vals = np.array([100, 100, 100]).astype(dtype) if dtype is not np.bool_ else \
            np.ones(3, dtype=bool)
        A = sp.csr_matrix((vals, (rows, cols)), shape=(4, 4))
        ref = _nx_closeness(sp.csr_matrix(A.astype(np.float64)), distance="weight")
        eng(f"engine closeness weighted {np.dtype(dtype).name}",
            lambda A=A: alg.closeness_centrality(A, weighted=True),
            lambda r, ref=ref: r[0] == "ok" and np.allclose(r[1], ref, rtol=1e-12))
        G = nx.from_scipy_sparse_array(sp.csr_array(A.astype(np.float64)),
                                       create_using=nx.DiGraph)
        hr = np.array(list(dict(sorted(nx.harmonic_centrality(G, distance="weight").items()))
                           .values()), dtype=float)
        eng(f"engine harmonic weighted {np.dtype(dtype).name}",
            lambda A=A: alg.harmonic_centrality(A, weighted=True),
            lambda r, hr=hr: r[0] == "ok" and np.allclose(r[1], hr, rtol=1e-12))
    # float32 distances that round: 0.1 + 0.2 in float32 vs float64
    A = sp.csr_matrix((np.array([0.1, 0.2], dtype=np.float32), ([0, 1], [1, 2])), shape=(3, 3))
    ref = _nx_closeness(sp.csr_matrix(A.astype(np.float64)), distance="weight")
    eng("engine closeness float32 as float64",
        lambda: alg.closeness_centrality(A, weighted=True),
        lambda r: r[0] == "ok" and np.allclose(r[1], ref, rtol=1e-12, atol=0))
    # duplicates in a scipy CSR (not canonical): scipy sums them
    A = sp.csr_matrix((np.array([1.0, 2.0, 1.0]), np.array([1, 1, 2]), np.array([0, 2, 3, 3])),
                      shape=(3, 3))
    ref = _nx_closeness(sp.csr_matrix(A.toarray()), distance="weight")
    eng("engine closeness duplicate entries summed",
        lambda: alg.closeness_centrality(A, weighted=True),
        lambda r: r[0] == "ok" and np.allclose(r[1], ref, rtol=1e-12))
    # duplicates for the power iterations: summed as scipy sums them
    A = sp.csr_matrix((np.array([1.0, 2.0, 3.0, 3.0]), np.array([1, 1, 0, 0]),
                       np.array([0, 2, 4])), shape=(2, 2))
    G = nx.from_numpy_array(A.toarray(), create_using=nx.DiGraph)
    ref = list(nx.eigenvector_centrality(G, weight="weight").values())
    eng("engine eigenvector duplicate entries summed",
        lambda: alg.eigenvector_centrality(A),
        lambda r: r[0] == "ok" and np.allclose(r[1], ref, rtol=1e-12))
    # bool / non-bool flags
    A = sp.csr_matrix(np.array([[0, 1.0], [0, 0]]))
    for arg, f in [("wf_improved", alg.closeness_centrality), ("weighted", alg.harmonic_centrality),
                   ("normalized", alg.katz_centrality), ("weighted", alg.eigenvector_centrality)]:
        eng(f"engine {f.__name__} {arg}='no' refused",
            lambda f=f, arg=arg: f(A, **{arg: "no"}),
            lambda r, arg=arg: r[0] == "raise" and arg in r[2])
    # int32 distances whose sums leave int32 (NetworkX adds Python ints)
    A = sp.csr_matrix((np.full(3, 2**30, dtype=np.int32), (rows, cols)), shape=(4, 4))
    ref = _nx_closeness(sp.csr_matrix(A.astype(np.float64)), distance="weight")
    eng("engine closeness int32 sums past 2**31",
        lambda: alg.closeness_centrality(A, weighted=True),
        lambda r: r[0] == "ok" and np.allclose(r[1], ref, rtol=1e-12))
    # input not mutated, nstart arrays
    A = sp.csr_matrix(np.array([[0, 1.0], [1.0, 0]]))
    x0 = np.array([1.0, 2.0])
    alg.eigenvector_centrality(A, nstart=x0)
    alg.katz_centrality(A, nstart=x0, beta=x0)
    alg.hits(A + A.T, nstart=x0)
    eng("engine nstart not mutated", lambda: x0.tolist(), lambda r: r == ("ok", [1.0, 2.0]))


if __name__ == "__main__":
    sys.exit(main())
