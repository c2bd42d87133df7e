"""aud24: the analytics against NetworkX, through the dispatch backend and called directly.

Part 1 (dispatch): for each analytics function the backend dispatches (components, PageRank,
betweenness (node and edge), triangles / clustering / transitivity, the k-core family and
k-truss, spanning trees and edges, Louvain and label propagation, modularity, the spectral and
distance centralities, the degree centralities), each call variant (keyword arguments of the
kinds NetworkX's signature accepts, bad ones included) and each graph of a seeded battery of
input kinds (the null and one-node graphs, self-loops, isolated nodes, directed and
undirected, mixed labels added in odd orders, weights as ints / floats / NumPy scalars /
bools / missing on some edges, zero, negative, inf and nan weights, disconnected graphs), it
runs the call with NetworkX's own code and with the backend preferred
(``backend_priority.algos = ["semiring"]``, ``fallback_to_nx``, ``should_run`` forced true:
a refusal by ``can_run`` or the backend's ``NotImplementedError`` makes NetworkX run it), and
compares the answers: floats within a tolerance (relative 1e-6, absolute 1e-9), ints, sets,
number types (Python int against float), containers and dict key / set iteration order
exactly; exceptions by type. Unseeded Louvain is compared by its modularity (NetworkX's is
random). It prints every differing case and the counts.

Part 2 (direct): the engine's analytics (``algorithms.*``) on bad arguments: the error's type
and whether its message names the argument, the expected and the actual value.

Usage: python bench/probes/aud24_analytics.py [--seeds 3] [--only NAME,...] [--direct-only]
(run from a scratch directory; the package must be installed for NetworkX's entry points)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import warnings

import networkx as nx
import numpy as np

import scipy.sparse as sps

import algorithms as alg
import semiring as sr
from nx_semiring.interface import BackendInterface

warnings.simplefilter("ignore")
RAN = []
for _n in __import__("nx_semiring").FUNCTIONS:
    _f = getattr(BackendInterface, _n)

    def _w(*a, __f=_f, __n=_n, **k):
        RAN.append(__n)
        try:
            return __f(*a, **k)
        except NotImplementedError:
            RAN[-1] += " (refused)"  # NetworkX runs it
            raise

    setattr(BackendInterface, _n, staticmethod(_w))
BackendInterface.should_run = staticmethod(lambda *a: True)
nx.config.warnings_to_ignore.add("cache")

RTOL, ATOL = 1e-6, 1e-9
VERBOSE = False


def _clear(G):
    for H in (G, getattr(G, "_graph", None)):
        c = getattr(H, "__networkx_cache__", None)
        if c:
            c.clear()


def mat(r, depth=0):
    """An order- and type-keeping structure of r (floats kept as floats, compared by
    :func:`same`)."""
    if depth > 8:
        return repr(r)
    if isinstance(r, _Louvain):
        return ("louvain",) + tuple(r)
    if isinstance(r, nx.Graph):
        edges = r.edges(keys=True, data=True) if r.is_multigraph() else r.edges(data=True)
        return ("graph", type(r).__name__, [(n, mat(d, depth + 1)) for n, d in r.nodes(data=True)],
                [tuple(e[:-1]) + (mat(e[-1], depth + 1),) for e in edges], mat(dict(r.graph)))
    if isinstance(r, dict):
        return ("dict", type(r).__name__, [(k, mat(v, depth + 1)) for k, v in r.items()])
    if isinstance(r, (list, tuple)):
        return ("seq", type(r).__name__, [mat(v, depth + 1) for v in r])
    if isinstance(r, (set, frozenset)):
        return ("set", type(r).__name__, list(r))
    if isinstance(r, np.ndarray):
        return ("ndarray", str(r.dtype), mat(r.tolist(), depth + 1))
    if isinstance(r, (bool, np.bool_)):
        return ("bool", type(r).__name__, bool(r))
    if isinstance(r, (float, np.floating)):
        return ("float", "float" if type(r) is float else type(r).__name__, float(r))
    if isinstance(r, (int, np.integer)):
        return ("int", "int" if type(r) is int else type(r).__name__, int(r))
    if isinstance(r, (str, type(None))):
        return ("atom", type(r).__name__, r)
    if hasattr(r, "__iter__"):
        return ("iter", type(r).__name__, [mat(v, depth + 1) for v in r])
    return ("repr", repr(r))


def same(a, b, types=True) -> bool:
    """a and b equal (floats to RTOL / ATOL); ``types=False``: a NumPy float64 equal to a
    Python float (a subclass of it: NetworkX's arithmetic on NumPy weights gives them)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        if len(a) != len(b):
            return False
        if len(a) == 4 and a[0] == "louvain" and b[0] == "louvain":
            # (type, is a partition, modularity): ours no worse than NetworkX's random one
            return a[1:3] == b[1:3] and (a[3] is None) == (b[3] is None) and (
                a[3] is None or b[3] >= a[3] - 0.1)
        if len(a) == 3 and a[0] == "float" and b[0] == "float":
            if a[1] != b[1] and (types or {a[1], b[1]} != {"float", "float64"}):
                return False
            x, y = a[2], b[2]
            if math.isnan(x) or math.isnan(y):
                return math.isnan(x) and math.isnan(y)
            return x == y or math.isclose(x, y, rel_tol=RTOL, abs_tol=ATOL)
        return all(same(x, y, types) for x, y in zip(a, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y, types) for x, y in zip(a, b))
    return a == b


KEEP_CACHE = False  # --cached: conversions kept between the calls on one graph


def run(backend_on, f, G):
    prio = nx.config.backend_priority
    if not KEEP_CACHE:
        _clear(G)
    if backend_on:
        prio.algos = ["semiring"]
        nx.config.fallback_to_nx = True
    else:
        prio.algos = []
    del RAN[:]
    try:
        try:
            r = ("ok", mat(f()))
        except Exception as e:  # noqa: BLE001  (NetworkX's exceptions are compared)
            r = ("exc", type(e).__name__, str(e)[:160])
    finally:
        prio.algos = []
    if not KEEP_CACHE:
        _clear(G)
    return r, list(RAN)


def same_result(ref, got, types=True) -> bool:
    if ref[0] == "exc" or got[0] == "exc":
        return ref[0] == got[0] and ref[1] == got[1]
    return same(ref[1], got[1], types)


LABELS = {
    "int": lambda i: i,
    "str": lambda i: f"n{i}",
    "mixed": lambda i: [3, "a", (0, 1), 1, "b", (2,), 0, ("x", 1), 2.5, 9][i % 10]
    if i < 10 else ("z", i),
}
WEIGHTS = {
    "none": None,
    "int": lambda r: r.randint(1, 5),
    "float": lambda r: r.choice([0.5, 1.25, 2.0, 3.75]),
    "zero": lambda r: r.choice([0, 1, 2.5]),
    "np_int": lambda r: np.int64(r.randint(1, 5)),
    "np_float64": lambda r: np.float64(r.choice([0.5, 1.5, 2.25])),
    "np_float32": lambda r: np.float32(r.choice([0.5, 1.5, 2.25])),
    "bool": lambda r: r.choice([True, False, True]),
    "negative": lambda r: r.randint(-2, 4),
    "inf": lambda r: r.choice([1, 2, math.inf]),
    "nan": lambda r: r.choice([1, 2, math.nan]),
}
# extreme and unusual weight objects (--weights extreme)
EXTREME = {
    "bigint": lambda r: r.choice([1, 2**70, 3]),
    "int63": lambda r: r.choice([2**62, 2**63 - 1, 5]),
    "exact53": lambda r: r.choice([2**53 + 1, 1, 2]),
    "huge": lambda r: r.choice([1e308, 1.0, 2.0]),
    "tiny": lambda r: r.choice([5e-324, 1e-310, 1.0]),
    "np_int8": lambda r: np.int8(r.choice([100, 27, 1])),
    "np_uint64": lambda r: np.uint64(r.choice([2**63, 1, 7])),
    "float16": lambda r: np.float16(r.choice([0.1, 1.5, 2.0])),
    "fraction": lambda r: __import__("fractions").Fraction(r.randint(1, 6), r.randint(1, 3)),
    "decimal": lambda r: __import__("decimal").Decimal(r.choice(["0.5", "1.25", "2"])),
    "string": lambda r: r.choice(["1", "2", 3]),
    "none_value": lambda r: r.choice([None, 1, 2]),
    "neg_inf": lambda r: r.choice([1, 2, -math.inf]),
    "np_bool": lambda r: np.bool_(r.choice([True, False, True])),
}


def large_graphs(seed, classes):
    """Graphs of hundreds of nodes (the engine's batched and compiled paths), weighted."""
    rng = random.Random(seed)
    out = []
    for cls in classes:
        c = cls.__name__
        d = cls().is_directed()
        shapes = {
            "gnp": nx.gnp_random_graph(400, 0.01, seed=rng.randrange(10**6), directed=d),
            "powerlaw": nx.powerlaw_cluster_graph(600, 3, 0.3, seed=rng.randrange(10**6)),
            "lollipop": nx.lollipop_graph(30, 300),
            "grid": nx.convert_node_labels_to_integers(nx.grid_2d_graph(20, 25)),
        }
        for name, H in shapes.items():
            G = cls()
            nodes = list(H)
            rng.shuffle(nodes)  # an insertion order that is not the labels'
            G.add_nodes_from(nodes)
            for u, v in H.edges():
                if rng.random() < 0.9:
                    G.add_edge(u, v, weight=rng.choice([1, 2, 3, 0.5, 2.5]))
                else:
                    G.add_edge(u, v)
            out.append((f"{c}-large-{name}", G))
    return out


def graphs(seed, classes, weights=None):
    """(name, graph) pairs of the battery."""
    if weights == "large":
        return large_graphs(seed, classes)
    rng = random.Random(seed)
    out = []
    for cls in classes:
        c = cls.__name__
        if weights is not None:
            for lab in ("int", "mixed"):
                for wk in weights:
                    for shape in ("random", "cycle"):
                        n = rng.randint(4, 9)
                        nodes = [LABELS[lab](i) for i in range(n)]
                        G = cls()
                        G.add_nodes_from(nodes)
                        for i in range(n):
                            j = (i + 1) % n if shape == "cycle" else rng.randrange(n)
                            if i != j:
                                G.add_edge(nodes[i], nodes[j], weight=weights[wk](rng))
                        out.append((f"{c}-{lab}-{wk}-{shape}", G))
            continue
        if seed == 0:
            out.append((f"{c}-null", cls()))
            one = cls()
            one.add_node("a")
            out.append((f"{c}-one", one))
            loop = cls()
            loop.add_edge(1, 1, weight=2)
            out.append((f"{c}-one-loop", loop))
            iso = cls()
            iso.add_nodes_from([5, "q", (1, 2)])
            out.append((f"{c}-isolated", iso))
            kar = nx.karate_club_graph() if not cls().is_directed() else \
                nx.DiGraph(nx.karate_club_graph())
            out.append((f"{c}-karate", cls(kar)))
        for lab in LABELS:
            for wk in WEIGHTS:
                n = rng.randint(3, 9)
                nodes = [LABELS[lab](i) for i in range(n)]
                rng.shuffle(nodes)
                G = cls()
                extra = [LABELS[lab](n)]
                G.add_nodes_from(extra + nodes[: rng.randint(0, n)])  # odd insertion order
                shape = rng.choice(["random", "dense", "two", "cycle"])
                m = {"random": 2 * n, "dense": n * n, "two": n, "cycle": 0}[shape]
                for _ in range(rng.randint(n // 2, max(m, n // 2 + 1))):
                    i, j = rng.randrange(n), rng.randrange(n)
                    if shape == "two" and (i < n // 2) != (j < n // 2):
                        continue  # two components
                    if i == j and rng.random() < 0.7:
                        continue
                    u, v = nodes[i], nodes[j]
                    if WEIGHTS[wk] is None or rng.random() < 0.15:
                        G.add_edge(u, v)  # no weight: NetworkX's default 1
                    else:
                        G.add_edge(u, v, weight=WEIGHTS[wk](rng))
                if shape == "cycle":
                    for i in range(n):
                        w = {} if WEIGHTS[wk] is None else {"weight": WEIGHTS[wk](rng)}
                        G.add_edge(nodes[i], nodes[(i + 1) % n], **w)
                G.add_nodes_from(nodes)
                out.append((f"{c}-{lab}-{wk}-{shape}", G))
        # node and graph attributes (kept by the subgraph and tree results), views
        A = cls(nx.les_miserables_graph()) if seed == 0 else cls(nx.florentine_families_graph())
        for i, v in enumerate(A):
            A.nodes[v]["color"] = i % 3
        A.graph["name"] = "attributed"
        out.append((f"{c}-attributed", A))
        if not A.is_multigraph():
            out.append((f"{c}-subgraph-view", A.subgraph(list(A)[::2])))
            out.append((f"{c}-frozen", nx.freeze(A.copy())))
            if A.is_directed():
                out.append((f"{c}-reverse-view", A.reverse(copy=False)))
        # labels equal across types (0.0 and -0.0, True and 1)
        # (no NaN label: NetworkX's own UnionFind loops on it, Kruskal until MemoryError)
        odd, nan = cls(), frozenset({"f"})
        odd.add_edges_from([(nan, 1), (1, "x"), ("x", nan), (0.0, 1),
                            (True, "x"), (-0.0, 2.5), (2.5, None.__class__.__name__)])
        out.append((f"{c}-oddlabels", odd))
        # a medium graph: iterations and sampling on more than a handful of nodes
        H = nx.gnp_random_graph(rng.randint(40, 80), 0.08, seed=rng.randrange(10**6),
                                directed=cls().is_directed())
        for u, v in H.edges():
            H[u][v]["weight"] = rng.randint(1, 9)
        out.append((f"{c}-medium", cls(H)))
        if seed == 0:  # deep, hub and dense shapes (the engine's other paths)
            out.append((f"{c}-path", cls(nx.path_graph(600))))
            out.append((f"{c}-grid", cls(nx.convert_node_labels_to_integers(
                nx.grid_2d_graph(12, 15)))))
            out.append((f"{c}-star", cls(nx.star_graph(300))))
            out.append((f"{c}-barbell", cls(nx.barbell_graph(12, 5))))
    return out


def _first(G):
    return next(iter(G), None)


def _some(G, k, rng_seed=0):
    nodes = list(G)
    random.Random(rng_seed).shuffle(nodes)
    return nodes[:k]


def _pers(G, kind):
    nodes = list(G)
    if kind == "full":
        return {v: (i % 3) + 1 for i, v in enumerate(nodes)}
    if kind == "partial":
        return {v: 1 for v in nodes[::2]}
    if kind == "zero":
        return {v: 0 for v in nodes}
    if kind == "extra":
        return {**{v: 1 for v in nodes[:2]}, "not-a-node": 5}
    if kind == "float":
        return {v: 0.5 + i for i, v in enumerate(nodes)}
    if kind == "negative":
        return {v: (-1 if i == 0 else 2) for i, v in enumerate(nodes)}
    raise ValueError(kind)


def louvain_quality(G, kw):
    """(is a partition of G, modularity) of Louvain's answer: NetworkX's unseeded Louvain is
    random, so only its kind and quality are compared (rounded to 0.1)."""
    comms = nx.community.louvain_communities(G, **kw)
    part = nx.community.is_partition(G, comms)
    q = None
    if len(G) and G.number_of_edges():
        q = nx.community.modularity(G, comms, weight=kw.get("weight", "weight"))
    return _Louvain((type(comms).__name__, part, q))


class _Louvain(tuple):
    """Louvain's (type, is a partition, modularity), compared by :func:`same`."""


W = ("weight", None, "missing")
_S = "__seed__"  # substituted per call


def calls(G):
    """name -> [(variant, call)] for graph G."""
    und = not G.is_directed()
    f, s = _first(G), _some(G, 3)
    C = {
        "connected_components": [("", lambda: list(nx.connected_components(G)))],
        "number_connected_components": [("", lambda: nx.number_connected_components(G))],
        "is_connected": [("", lambda: nx.is_connected(G))],
        "strongly_connected_components": [
            ("", lambda: list(nx.strongly_connected_components(G))),
            ("n", lambda: nx.number_strongly_connected_components(G)),
            ("is", lambda: nx.is_strongly_connected(G))],
        "weakly_connected_components": [
            ("", lambda: list(nx.weakly_connected_components(G))),
            ("n", lambda: nx.number_weakly_connected_components(G)),
            ("is", lambda: nx.is_weakly_connected(G))],
        "node_connected_component": [("", lambda: nx.node_connected_component(G, f))],
        "pagerank": (
            [(f"w={w}", lambda w=w: nx.pagerank(G, weight=w)) for w in W]
            + [(f"alpha={a}", lambda a=a: nx.pagerank(G, alpha=a))
               for a in (0, 1, 0.5, 1.5, -0.2, np.float32(0.85), np.float64(0.9), True)]
            + [("pers=np", lambda: nx.pagerank(G, personalization={
                v: np.float32(i + 1) for i, v in enumerate(G)})),
               ("pers=np-int", lambda: nx.pagerank(G, personalization={
                   v: np.int64(i % 2) for i, v in enumerate(G)})),
               ("dangling+pers", lambda: nx.pagerank(G, personalization=_pers(G, "partial"),
                                                     dangling=_pers(G, "full")))]
            + [(f"pers={k}", lambda k=k: nx.pagerank(G, personalization=_pers(G, k)))
               for k in ("full", "partial", "zero", "extra", "float", "negative")]
            + [(f"nstart={k}", lambda k=k: nx.pagerank(G, nstart=_pers(G, k)))
               for k in ("full", "partial", "zero", "extra")]
            + [(f"dangling={k}", lambda k=k: nx.pagerank(G, dangling=_pers(G, k)))
               for k in ("full", "partial", "zero", "extra")]
            + [(f"max_iter={m}", lambda m=m: nx.pagerank(G, max_iter=m)) for m in (0, 1, 3)]
            + [(f"tol={t}", lambda t=t: nx.pagerank(G, tol=t)) for t in (0, 1e-12, 1.0)]
        ),
        "betweenness_centrality": (
            [(f"norm={nm}/end={e}/w={w}", lambda nm=nm, e=e, w=w: nx.betweenness_centrality(
                G, normalized=nm, endpoints=e, weight=w))
             for nm in (True, False) for e in (False, True) for w in W]
            + [(f"k={k}/seed={sd}", lambda k=k, sd=sd: nx.betweenness_centrality(
                G, k=k(G) if callable(k) else k, seed=sd))
               for k in (1, 2, lambda G: len(G), lambda G: len(G) + 1, 0)
               for sd in (0, 42)]
            + [("k=2/endpoints/seed", lambda: nx.betweenness_centrality(
                G, k=min(2, len(G)), endpoints=True, seed=3)),
               ("k=2/unnorm/seed", lambda: nx.betweenness_centrality(
                   G, k=min(2, len(G)), normalized=False, seed=3)),
               ("k=2/Random", lambda: nx.betweenness_centrality(
                   G, k=min(2, len(G)), seed=random.Random(5))),
               ("k=2/RandomState", lambda: nx.betweenness_centrality(
                   G, k=min(2, len(G)), seed=np.random.RandomState(5))),
               ("k=2/Generator", lambda: nx.betweenness_centrality(
                   G, k=min(2, len(G)), seed=np.random.default_rng(5))),
               ("k=np2/seed", lambda: nx.betweenness_centrality(
                   G, k=np.int64(min(2, len(G))), seed=11)),
               ("norm=0/end=1", lambda: nx.betweenness_centrality(G, normalized=0, endpoints=1)),
               ("k=-1", lambda: nx.betweenness_centrality(G, k=-1, seed=1))]
        ),
        "edge_betweenness_centrality": (
            [(f"norm={nm}/w={w}", lambda nm=nm, w=w: nx.edge_betweenness_centrality(
                G, normalized=nm, weight=w)) for nm in (True, False) for w in W]
            + [(f"k={k}", lambda k=k: nx.edge_betweenness_centrality(
                G, k=min(k, len(G)), seed=7)) for k in (1, 3)]
        ),
        "triangles": [("", lambda: nx.triangles(G)),
                      ("node", lambda: nx.triangles(G, f)),
                      ("list", lambda: nx.triangles(G, s)),
                      ("list+missing", lambda: nx.triangles(G, s + ["zz-missing"])),
                      ("iter", lambda: nx.triangles(G, iter(s)))],
        "clustering": [(f"w={w}", lambda w=w: nx.clustering(G, weight=w)) for w in W]
        + [("node", lambda: nx.clustering(G, f)), ("list", lambda: nx.clustering(G, s)),
           ("iter", lambda: nx.clustering(G, iter(s)))],
        "average_clustering": [
            (f"w={w}/zeros={z}", lambda w=w, z=z: nx.average_clustering(
                G, weight=w, count_zeros=z)) for w in W for z in (True, False)]
        + [("nodes", lambda: nx.average_clustering(G, nodes=s)),
           ("iter", lambda: nx.average_clustering(G, nodes=iter(s)))],
        "transitivity": [("", lambda: nx.transitivity(G))],
        "core_number": [("", lambda: nx.core_number(G))],
        "k_core": [(f"k={k}", lambda k=k: nx.k_core(G, k)) for k in (None, 0, 1, 2, 3, 10)],
        "k_shell": [(f"k={k}", lambda k=k: nx.k_shell(G, k)) for k in (None, 1, 2)],
        "k_crust": [(f"k={k}", lambda k=k: nx.k_crust(G, k)) for k in (None, 1, 2)],
        "k_corona": [(f"k={k}", lambda k=k: nx.k_corona(G, k)) for k in (0, 1, 2)],
        "k_truss": [(f"k={k}", lambda k=k: nx.k_truss(G, k)) for k in (0, 1, 2, 3, 4)],
        "minimum_spanning_tree": [
            (f"w={w}/{a}/nan={i}", lambda w=w, a=a, i=i: nx.minimum_spanning_tree(
                G, weight=w, algorithm=a, ignore_nan=i))
            for w in ("weight", "missing") for a in ("kruskal", "prim", "boruvka")
            for i in (False, True)],
        "maximum_spanning_tree": [
            (f"w={w}/nan={i}", lambda w=w, i=i: nx.maximum_spanning_tree(
                G, weight=w, ignore_nan=i)) for w in ("weight", "missing") for i in (False, True)],
        "minimum_spanning_edges": [
            (f"data={d}/{a}", lambda d=d, a=a: list(nx.minimum_spanning_edges(
                G, algorithm=a, data=d))) for d in (True, False) for a in ("kruskal", "prim")],
        "maximum_spanning_edges": [
            (f"data={d}", lambda d=d: list(nx.maximum_spanning_edges(G, data=d)))
            for d in (True, False)],
        "louvain_communities": (
            [(f"w={w}", lambda w=w: louvain_quality(G, {"weight": w})) for w in W]
            + [(f"seed={sd}", lambda sd=sd: nx.community.louvain_communities(G, seed=sd))
               for sd in (1, 2)]
            + [("resolution=0", lambda: louvain_quality(G, {"resolution": 0})),
               ("max_level=0", lambda: nx.community.louvain_communities(G, max_level=0))]
        ),
        "label_propagation_communities": [
            ("", lambda: list(nx.community.label_propagation_communities(G)))],
        "modularity": [
            (f"w={w}/res={r}", lambda w=w, r=r: nx.community.modularity(
                G, [set(G)] if len(G) else [], weight=w, resolution=r))
            for w in W for r in (1, 0.5)]
        + [("cc", lambda: nx.community.modularity(
            G, list(nx.connected_components(G.to_undirected())) if len(G) else []))],
        "eigenvector_centrality": [
            (f"w={w}", lambda w=w: nx.eigenvector_centrality(G, weight=w, max_iter=1000))
            for w in W]
        + [("max_iter=1", lambda: nx.eigenvector_centrality(G, max_iter=1)),
           ("nstart", lambda: nx.eigenvector_centrality(G, nstart=_pers(G, "full"),
                                                        max_iter=1000)),
           ("nstart0", lambda: nx.eigenvector_centrality(G, nstart=_pers(G, "zero")))],
        "eigenvector_centrality_numpy": [
            (f"w={w}", lambda w=w: nx.eigenvector_centrality_numpy(G, weight=w)) for w in W],
        "katz_centrality": [
            (f"w={w}/norm={nm}", lambda w=w, nm=nm: nx.katz_centrality(
                G, alpha=0.05, weight=w, normalized=nm, max_iter=2000))
            for w in W for nm in (True, False)]
        + [("beta-dict", lambda: nx.katz_centrality(G, alpha=0.05, beta=_pers(G, "full"))),
           ("beta-partial", lambda: nx.katz_centrality(G, alpha=0.05,
                                                       beta=_pers(G, "partial"))),
           ("alpha=0", lambda: nx.katz_centrality(G, alpha=0)),
           ("max_iter=1", lambda: nx.katz_centrality(G, alpha=0.1, max_iter=1))],
        "katz_centrality_numpy": [
            (f"w={w}", lambda w=w: nx.katz_centrality_numpy(G, alpha=0.05, weight=w))
            for w in W],
        "hits": [("", lambda: nx.hits(G)), ("norm=False", lambda: nx.hits(G, normalized=False))],
        "closeness_centrality": [
            (f"d={d}/wf={wf}", lambda d=d, wf=wf: nx.closeness_centrality(
                G, distance=d, wf_improved=wf)) for d in W for wf in (True, False)]
        + [("u", lambda: nx.closeness_centrality(G, u=f))],
        "harmonic_centrality": [(f"d={d}", lambda d=d: nx.harmonic_centrality(G, distance=d))
                                for d in W]
        + [("nbunch", lambda: nx.harmonic_centrality(G, nbunch=s))],
        "degree_centrality": [("", lambda: nx.degree_centrality(G))],
        "in_degree_centrality": [("", lambda: nx.in_degree_centrality(G))],
        "out_degree_centrality": [("", lambda: nx.out_degree_centrality(G))],
    }
    if und:
        del C["strongly_connected_components"], C["weakly_connected_components"]
    return C


def dispatch(seeds, only, classes, weights=None):
    diffs = total = ran = typeonly = random_ref = 0
    seen = set()
    for seed in range(seeds):
        for gname, G in graphs(seed, classes, weights):
            for name, variants in calls(G).items():
                if only and name not in only:
                    continue
                for vname, call in variants:
                    if VERBOSE:
                        print(f"  {gname} {name} {vname}", file=sys.stderr, flush=True)
                    ref, _ = run(False, call, G)
                    if not same_result(ref, run(False, call, G)[0]):
                        random_ref += 1  # NetworkX's own answer varies (ARPACK's start)
                        continue
                    got, used = run(True, call, G)
                    total += 1
                    answered = [u for u in used if not u.endswith("(refused)")]
                    ran += bool(answered)
                    if name == "louvain_communities" and "louvain_communities" not in answered:
                        continue  # NetworkX's unseeded Louvain against itself: random
                    if not same_result(ref, got) and not answered:
                        random_ref += 1  # NetworkX ran both: its own answer varies
                        continue
                    if not same_result(ref, got):
                        if same_result(ref, got, types=False):
                            typeonly += 1
                            key = (name, "float64")
                            if key not in seen:
                                seen.add(key)
                                print(f"TYPE {name} [{vname}] on {gname}: NetworkX's "
                                      f"np.float64 where ours is a float (values equal)")
                            continue
                        diffs += 1
                        key = (name, vname, gname.split("-")[0], gname.split("-")[-1])
                        if key in seen:
                            continue
                        seen.add(key)
                        print(f"DIFF {name} [{vname}] on {gname} (seed {seed}; backend ran "
                              f"{used})\n  nx:  {str(ref)[:500]}\n  us:  {str(got)[:500]}",
                              flush=True)
    return total, ran, diffs, typeonly, random_ref


# ---------------------------------------------------------------- part 2: direct calls
def direct():
    """The engine's analytics on bad arguments: the error should name the argument, the
    expected and the actual value."""
    S = sps.random(8, 8, density=0.4, random_state=1, format="csr")
    S = (S + S.T).tocsr()
    A = sr.Matrix.from_scipy(S)
    R = sr.Matrix.from_scipy(sps.random(4, 6, density=0.5, random_state=2, format="csr"))
    bad = [
        ("pagerank alpha=1.5", lambda: alg.pagerank(A, 1.5), ("damping", "1.5")),
        ("pagerank alpha=-0.1", lambda: alg.pagerank(A, -0.1), ("damping", "-0.1")),
        ("pagerank alpha=nan", lambda: alg.pagerank(A, float("nan")), ("damping", "nan")),
        ("pagerank tol=-1", lambda: alg.pagerank(A, tol=-1.0), ("tol", "-1")),
        ("pagerank max_iter=-1", lambda: alg.pagerank(A, max_iter=-1), ("max_iter", "-1")),
        ("pagerank max_iter=2.5", lambda: alg.pagerank(A, max_iter=2.5), ("max_iter", "2.5")),
        ("pagerank personalization len", lambda: alg.pagerank(A, personalization=np.ones(3)),
         ("personalization", "3")),
        ("pagerank personalization neg", lambda: alg.pagerank(
            A, personalization=-np.ones(8)), ("personalization", "")),
        ("pagerank nstart len", lambda: alg.pagerank(A, nstart=np.ones(5)), ("nstart", "5")),
        ("pagerank dangling len", lambda: alg.pagerank(A, dangling=np.ones(2)),
         ("dangling", "2")),
        ("pagerank rectangular", lambda: alg.pagerank(R), ("", "4")),
        ("betweenness k=-1", lambda: alg.betweenness_centrality(A, k=-1), ("k", "-1")),
        ("betweenness k=9", lambda: alg.betweenness_centrality(A, k=9), ("k", "9")),
        ("betweenness k=2.5", lambda: alg.betweenness_centrality(A, k=2.5), ("k", "2.5")),
        ("betweenness rectangular", lambda: alg.betweenness_centrality(R), ("", "4")),
        ("betweenness sources out", lambda: alg.betweenness_centrality(
            A, sources=np.array([0, 99])), ("sources", "99")),
        ("edge_bc k=-1", lambda: alg.edge_betweenness_centrality(A, k=-1), ("k", "-1")),
        ("triangles rectangular", lambda: alg.triangles(R), ("", "4")),
        ("triangle_count rectangular", lambda: alg.triangle_count(R), ("", "4")),
        ("clustering rectangular", lambda: alg.clustering(R), ("", "4")),
        ("core_number rectangular", lambda: alg.core_number(R), ("", "4")),
        ("core_number method", lambda: alg.core_number(A, method="nope"), ("method", "nope")),
        ("k_truss k=2.5", lambda: alg.k_truss(A, 2.5), ("k", "2.5")),
        ("mst rectangular", lambda: alg.minimum_spanning_forest(R), ("", "4")),
        ("louvain max_level=0", lambda: alg.louvain(A, max_level=0), ("max_level", "0")),
        ("label_propagation max_iter=-1", lambda: alg.label_propagation(A, max_iter=-1),
         ("max_iter", "-1")),
        ("modularity labels len", lambda: alg.modularity(A, np.zeros(3, dtype=np.int64)),
         ("labels", "3")),
        ("eigenvector max_iter=0", lambda: alg.eigenvector_centrality(A, max_iter=0),
         ("max_iter", "0")),
        ("eigenvector tol=-1", lambda: alg.eigenvector_centrality(A, tol=-1.0), ("tol", "-1")),
        ("eigenvector nstart len", lambda: alg.eigenvector_centrality(A, nstart=np.ones(2)),
         ("nstart", "2")),
        ("katz beta len", lambda: alg.katz_centrality(A, beta=np.ones(2)), ("beta", "2")),
        ("katz alpha=nan", lambda: alg.katz_centrality(A, alpha=float("nan")), ("alpha", "nan")),
        ("hits max_iter=-1", lambda: alg.hits(A, max_iter=-1), ("max_iter", "-1")),
        ("closeness rectangular", lambda: alg.closeness_centrality(R), ("", "4")),
        ("harmonic rectangular", lambda: alg.harmonic_centrality(R), ("", "4")),
        ("connected_components connection", lambda: alg.connected_components(
            A, connection="medium"), ("connection", "medium")),
        ("connected_components method", lambda: alg.connected_components(A, method="x"),
         ("method", "x")),
        ("pagerank personalization nan", lambda: alg.pagerank(
            A, personalization=np.r_[np.nan, np.ones(7)]), ("personalization", "nan")),
        ("pagerank personalization str", lambda: alg.pagerank(A, personalization="abc"),
         ("personalization", "shape ()")),
        ("pagerank nstart zero", lambda: alg.pagerank(A, nstart=np.zeros(8)), ("nstart", "")),
        ("pagerank tol=nan", lambda: alg.pagerank(A, tol=float("nan")), ("tol", "nan")),
        ("pagerank tol=str", lambda: alg.pagerank(A, tol="x"), ("tol", "x")),
        ("pagerank damping=str", lambda: alg.pagerank(A, "x"), ("damping", "x")),
        ("betweenness normalized=str", lambda: alg.betweenness_centrality(
            A, normalized="yes"), ("normalized", "yes")),
        ("betweenness endpoints=str", lambda: alg.betweenness_centrality(
            A, endpoints="yes"), ("endpoints", "yes")),
        ("betweenness seed=str", lambda: alg.betweenness_centrality(A, k=2, seed="x"),
         ("seed", "x")),
        ("betweenness k+sources", lambda: alg.betweenness_centrality(
            A, k=2, sources=np.array([0])), ("sources", "")),
        ("betweenness sources float", lambda: alg.betweenness_centrality(
            A, sources=np.array([0.5])), ("sources", "float")),
        ("edge_bc k=99", lambda: alg.edge_betweenness_centrality(A, k=99), ("k", "99")),
        ("closeness wf_improved=str", lambda: alg.closeness_centrality(A, wf_improved="x"),
         ("wf_improved", "x")),
        ("katz alpha=str", lambda: alg.katz_centrality(A, alpha="x"), ("alpha", "x")),
        ("katz beta=str", lambda: alg.katz_centrality(A, beta="x"), ("beta", "x")),
        ("katz normalized=str", lambda: alg.katz_centrality(A, normalized="x"),
         ("normalized", "x")),
        ("eigenvector nstart zero", lambda: alg.eigenvector_centrality(A, nstart=np.zeros(8)),
         ("nstart", "")),
        ("hits tol=-1", lambda: alg.hits(A, tol=-1.0), ("tol", "-1")),
        ("clustering directed=str", lambda: alg.clustering(A, directed="x"),
         ("directed", "x")),
        ("triangles method", lambda: alg.triangles(A, method="x"), ("method", "x")),
        ("triangle_count method", lambda: alg.triangle_count(A, method="x"), ("method", "x")),
        ("k_truss k=None", lambda: alg.k_truss(A, None), ("k", "None")),
        ("k_truss method", lambda: alg.k_truss(A, 3, method="x"), ("method", "x")),
        ("louvain seed=-1", lambda: alg.louvain(A, seed=-1), ("seed", "-1")),
        ("louvain resolution=nan", lambda: alg.louvain(A, float("nan")), ("resolution", "nan")),
        ("louvain max_level=2.5", lambda: alg.louvain(A, max_level=2.5), ("max_level", "2.5")),
        ("louvain method", lambda: alg.louvain(A, method="x"), ("method", "x")),
        ("label_propagation method", lambda: alg.label_propagation(A, method="x"),
         ("method", "x")),
        ("label_propagation colors len", lambda: alg.label_propagation(
            A, colors=np.zeros(3, dtype=np.int64)), ("colors", "3")),
        ("modularity resolution=str", lambda: alg.modularity(
            A, np.zeros(8, dtype=np.int64), "x"), ("resolution", "x")),
        ("modularity labels float", lambda: alg.modularity(A, np.zeros(8)), ("labels", "float")),
        ("connected_components symmetric=str", lambda: alg.connected_components(
            A, symmetric="x"), ("symmetric", "x")),
    ]
    total = problems = 0
    for name, call, (arg, actual) in bad:
        total += 1
        try:
            r = call()
        except Exception as e:  # noqa: BLE001  (the error is what is checked)
            msg = str(e)
            missing = [t for t in (arg, actual) if t and t not in msg]
            if missing or type(e) in (AttributeError, IndexError, ZeroDivisionError,
                                      UnboundLocalError, KeyError, TypeError):
                problems += 1
                print(f"DIRECT {name}: {type(e).__name__}: {msg[:200]} (missing {missing})")
        else:
            problems += 1
            print(f"DIRECT {name}: no error, returned {type(r).__name__}")
    return total, problems


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=2)
    p.add_argument("--only", default="")
    p.add_argument("--classes", default="Graph,DiGraph")
    p.add_argument("--direct-only", action="store_true")
    p.add_argument("--verbose", action="store_true", help="each call on stderr")
    p.add_argument("--cached", action="store_true",
                   help="keep the backend's conversions cached on a graph between its calls")
    p.add_argument("--weights", default="", help="'extreme': a battery of unusual weights; 'large': graphs of hundreds of nodes")
    a = p.parse_args()
    global VERBOSE, KEEP_CACHE
    VERBOSE, KEEP_CACHE = a.verbose, a.cached
    only = [x for x in a.only.split(",") if x]
    classes = [getattr(nx, c) for c in a.classes.split(",")]
    dt, dp = direct()
    print(f"\ndirect: {dt} bad calls, {dp} with a missing or unhelpful error", flush=True)
    if a.direct_only:
        return 1 if dp else 0
    total, ran, diffs, typeonly, random_ref = dispatch(
        a.seeds, only, classes, {"extreme": EXTREME, "large": "large"}.get(a.weights))
    print(f"\ndispatch: {total} comparisons, the backend answered in {ran}, {diffs} differed "
          f"({typeonly} more only by np.float64 against float; {random_ref} calls skipped: "
          f"NetworkX's own answer differed between two runs)")
    return 1 if (diffs or dp) else 0


if __name__ == "__main__":
    sys.exit(main())
