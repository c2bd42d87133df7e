import random, warnings, sys, collections
warnings.simplefilter("ignore")
import networkx as nx
from nx_semiring import paths as nxp, from_networkx
rng = random.Random(int(sys.argv[1])); C = collections.Counter()
for it in range(int(sys.argv[2])):
    n = rng.randint(1, 9)
    cls = rng.choice([nx.Graph, nx.DiGraph, nx.DiGraph, nx.MultiDiGraph])
    G = cls(); nodes = rng.choice([list(range(0, 8 * n, 8)), [f"v{i}" for i in range(n)]]); rng.shuffle(nodes); G.add_nodes_from(nodes)
    ws = rng.choice([[1, 2, 3], [1, 5, 0.5], [1, 2, -1, 3], [1, 2, 0], [2, 3, -1.5]])
    for _ in range(rng.randint(0, 16)):
        G.add_edge(rng.choice(nodes), rng.choice(nodes), weight=rng.choice(ws))
    g = from_networkx(G, edge_attrs={"weight": 1})
    try:
        r = repr(nxp.johnson(g))
    except NotImplementedError:
        C["refused"] += 1; continue
    except Exception as e:
        r = ("raised", type(e).__name__)
    try:
        e = repr(nx.johnson(G))
    except Exception as ex:
        e = ("raised", type(ex).__name__)
    if r != e:
        if str(r).replace(".0", "") == str(e).replace(".0", ""): C["typeonly"] += 1; continue
        C["DIFF"] += 1
        if C["DIFF"] < 3: print("DIFF", cls.__name__, list(G.edges(data="weight")), list(G), "\n sr", r, "\n nx", e)
    else: C["ok"] += 1
print(C)
