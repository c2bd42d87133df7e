import random, warnings, sys, collections, os
warnings.simplefilter("ignore")
import networkx as nx
nx.config.warnings_to_ignore.add("cache")
rng = random.Random(int(sys.argv[1])); C = collections.Counter()
def run(f):
    try:
        r = f()
        if hasattr(r, "__next__"): r = list(r)
        import re
        return re.sub(r'<function [^>]*>', 'F', repr(r))
    except NotImplementedError:
        return "REFUSED"
    except Exception as e:
        return ("raised", type(e).__name__, str(e))
for it in range(int(sys.argv[2])):
    n = rng.randint(1, 12)
    cls = rng.choice([nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
    G = cls(); nodes = rng.choice([[f"v{i}" for i in range(n)], list(range(0, 8 * n, 8)), [(i, "t") for i in range(n)]])
    rng.shuffle(nodes); G.add_nodes_from(nodes)
    for _ in range(rng.randint(0, 2 * n)):
        G.add_edge(rng.choice(nodes), rng.choice(nodes), weight=rng.choice([1, 2, 3, 0]))
    view = rng.choice(["plain", "plain", "sub", "reverse", "frozen"])
    if view == "sub": H = G.subgraph(nodes[: max(1, n - 2)])
    elif view == "reverse" and G.is_directed(): H = G.reverse(copy=False)
    elif view == "frozen": H = nx.freeze(G.copy())
    else: H = G
    s = rng.choice(list(H))
    calls = {
        "sspl": lambda b: nx.single_source_shortest_path_length(H, s, backend=b),
        "apspl": lambda b: list(nx.all_pairs_shortest_path_length(H, backend=b)),
        "desc": lambda b: nx.descendants(H, s, backend=b),
        "anc": lambda b: nx.ancestors(H, s, backend=b),
        "dad": lambda b: nx.descendants_at_distance(H, s, 2, backend=b),
        "ssd": lambda b: nx.single_source_dijkstra(H, s, backend=b),
        "ssdpl": lambda b: nx.single_source_dijkstra_path_length(H, s, backend=b),
        "dpd": lambda b: nx.dijkstra_predecessor_and_distance(H, s, backend=b),
        "ssbf": lambda b: nx.single_source_bellman_ford(H, s, backend=b),
        "bfpd": lambda b: nx.bellman_ford_predecessor_and_distance(H, s, backend=b),
        "fwpd": lambda b: nx.floyd_warshall_predecessor_and_distance(H, backend=b),
        "msdpl": lambda b: nx.multi_source_dijkstra_path_length(H, {s, nodes[0]} & set(H) or {s}, backend=b),
    }
    if H.is_directed():
        calls["wcc"] = lambda b: nx.weakly_connected_components(H, backend=b)
    else:
        calls["cc"] = lambda b: nx.connected_components(H, backend=b)
        calls["ncc"] = lambda b: nx.node_connected_component(H, s, backend=b)
    for name, f in calls.items():
        for X in (G, H):
            c = getattr(X, "__networkx_cache__", None)
            if c: c.clear()
        a = run(lambda: f("networkx")); b = run(lambda: f("semiring"))
        if b == "REFUSED": C[name + " refused"] += 1
        elif a == b: C[name + " ok"] += 1
        else:
            C[name + " DIFF"] += 1
            if C[name + " DIFF"] <= 2: print("DIFF", name, cls.__name__, view, list(H.edges(data="weight")), list(H), s, "\n  nx", a[:300], "\n  sr", b[:300])
print(sorted(C.items()))
