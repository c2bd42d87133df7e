"""Shared harness pieces: graph battery, materialization, dispatch control."""
import math, random, warnings, os, sys
import numpy as np
import networkx as nx
from networkx.utils import backends as _b
from nx_semiring.interface import BackendInterface

warnings.simplefilter("ignore")
RAN = []
for _n in __import__("nx_semiring").FUNCTIONS:
    _f = getattr(BackendInterface, _n)
    def _w(*a, __f=_f, __n=_n, **k):
        r = __f(*a, **k)
        RAN.append(__n)
        return r
    setattr(BackendInterface, _n, staticmethod(_w))
BackendInterface.should_run = staticmethod(lambda *a: True)
nx.config.warnings_to_ignore.add("cache")

def clear(G):
    for H in (G, getattr(G, "_graph", None)):
        c = getattr(H, "__networkx_cache__", None)
        if c: c.clear()

def run_with(backend_on, f, graphs):
    prio = nx.config.backend_priority
    for G in graphs: clear(G)
    if backend_on:
        prio.algos = ["semiring"]; prio.generators = ["semiring"]; nx.config.fallback_to_nx = True
    else:
        prio.algos = []; prio.generators = []
    del RAN[:]
    try:
        try:
            r = ("ok", mat(f()))
        except Exception as e:
            r = ("exc", type(e).__name__, str(e)[:200])
    finally:
        prio.algos = []; prio.generators = []
    for G in graphs: clear(G)
    return r, list(RAN)

def fl(x):
    return float(f"{x:.9g}") if math.isfinite(x) else x

def mat(r, depth=0):
    """Materialized, order-keeping, type-keeping structure whose repr is compared."""
    if depth > 6: return repr(r)
    if isinstance(r, nx.Graph):
        return (type(r).__name__, [(n, mat(d, depth+1)) for n, d in r.nodes(data=True)],
                [tuple(e[:-1]) + (mat(e[-1], depth+1),) for e in (r.edges(keys=True, data=True) if r.is_multigraph() else r.edges(data=True))],
                mat(dict(r.graph), depth+1))
    if isinstance(r, dict):
        return (type(r).__name__, [(k, mat(v, depth+1)) for k, v in r.items()])
    if isinstance(r, (list, tuple)):
        return (type(r).__name__, [mat(v, depth+1) for v in r])
    if isinstance(r, (set, frozenset)):
        return (type(r).__name__, list(r))
    if isinstance(r, np.ndarray):
        return ("ndarray", str(r.dtype), np.round(r.astype(float), 9).tolist() if r.dtype.kind in "fc" else r.tolist())
    if isinstance(r, (float, np.floating)) and not isinstance(r, bool):
        return (type(r).__name__, fl(float(r)))
    if isinstance(r, (str, int, bool, type(None), np.integer, np.bool_)):
        return r
    if hasattr(r, "__iter__"):
        return (type(r).__name__, [mat(v, depth+1) for v in r])
    return repr(r)

def labels(kind, n, rng):
    if kind == "str": L = [f"n{i}" for i in range(n)]
    elif kind == "mixed": L = [i if i % 2 else f"s{i}" for i in range(n)]
    elif kind == "tuple": L = [(i % 4, f"t{i // 4}") for i in range(n)]
    elif kind == "np": L = [np.int64(i * 3) for i in range(n)]
    elif kind == "int": L = [i * 8 for i in range(n)]  # collide mod 8 in small tables
    rng.shuffle(L)
    return L

def weighted(G, rng, lo=1, hi=5):
    for u, v, d in G.edges(data=True):
        d["weight"] = rng.randint(lo, hi)
    return G

def battery(kind, seed=0):
    """name -> graph, built deterministically (no hash-order dependence)."""
    if kind in ("multi", "view"):
        base = battery("str", seed)
        rng = random.Random(seed + 7)
        out = {}
        for k, G in base.items():
            if kind == "multi":
                M = (nx.MultiDiGraph if G.is_directed() else nx.MultiGraph)()
                M.add_nodes_from(G)
                for u, v, d in G.edges(data=True):
                    M.add_edge(u, v, **d)
                    if rng.random() < 0.3:
                        M.add_edge(u, v, weight=d.get("weight", 1) + rng.randint(0, 2))
                M.graph.update(G.graph)
                out[k] = M
            else:
                keepn = list(G)[:-2] if len(G) > 3 else list(G)
                V = G.subgraph(keepn)
                out[k] = V
        return out
    rng = random.Random(seed)
    out = {}
    n = 14
    L = labels(kind, n + 2, rng)
    # undirected, several components, isolated nodes, a self-loop
    G = nx.Graph(); G.add_nodes_from(L)
    core = L[:n]
    for _ in range(22):
        u, v = rng.sample(core, 2); G.add_edge(u, v)
    G.add_edge(core[3], core[3])
    out["U"] = weighted(G, rng)
    # connected undirected, no self loop
    H = nx.Graph(); H.add_nodes_from(core)
    perm = core[:]; rng.shuffle(perm)
    for i in range(1, n):
        H.add_edge(perm[i], perm[rng.randrange(i)])
    for _ in range(8):
        u, v = rng.sample(core, 2); H.add_edge(u, v)
    out["C"] = weighted(H, rng)
    # directed with cycles, isolated, self loop
    D = nx.DiGraph(); D.add_nodes_from(L)
    for _ in range(30):
        u, v = rng.sample(core, 2); D.add_edge(u, v)
    D.add_edge(core[2], core[2])
    out["D"] = weighted(D, rng)
    # strongly connected digraph
    S = nx.DiGraph(); S.add_nodes_from(core)
    for i in range(n): S.add_edge(perm[i], perm[(i + 1) % n])
    for _ in range(10):
        u, v = rng.sample(core, 2); S.add_edge(u, v)
    out["S"] = weighted(S, rng)
    # DAG
    A = nx.DiGraph(); A.add_nodes_from(L)
    order = {v: i for i, v in enumerate(perm)}
    for _ in range(25):
        u, v = rng.sample(core, 2)
        if order[u] > order[v]: u, v = v, u
        A.add_edge(u, v)
    out["A"] = weighted(A, rng)
    # tree and forest
    T = nx.Graph(); T.add_nodes_from(core)
    for i in range(1, n): T.add_edge(perm[i], perm[rng.randrange(i)])
    out["T"] = weighted(T, rng)
    F = T.copy(); F.remove_edge(*list(T.edges())[3]); F.add_node(L[-1])
    out["F"] = F
    # bipartite
    top, bot = core[:6], core[6:]
    B = nx.Graph(); B.add_nodes_from(L[:n])
    for _ in range(16):
        B.add_edge(rng.choice(top), rng.choice(bot))
    out["B"] = weighted(B, rng)
    out["B"].graph["top"] = [v for v in top if v in B and B.degree(v)]
    # arborescence
    R = nx.DiGraph(); R.add_nodes_from(core)
    for i in range(1, n): R.add_edge(perm[rng.randrange(i)], perm[i])
    out["R"] = weighted(R, rng)
    return out
