import random, warnings, sys, collections
warnings.simplefilter("ignore")
import networkx as nx
from nx_semiring import paths as nxp, from_networkx
rng = random.Random(int(sys.argv[1])); C = collections.Counter()
for it in range(int(sys.argv[2])):
    n = rng.randint(1, 8)
    cls = rng.choice([nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
    G = cls(); nodes = list(range(0, 8 * n, 8)); rng.shuffle(nodes); G.add_nodes_from(nodes)
    ws = rng.choice([[1, 2, 3], [1, 5, 0.5], [1, 2, -1], [1, 2, 0]])
    for _ in range(rng.randint(0, 14)):
        G.add_edge(rng.choice(nodes), rng.choice(nodes), weight=rng.choice(ws))
    g = from_networkx(G, edge_attrs={"weight": 1})
    try:
        r = nxp.floyd_warshall_predecessor_and_distance(g)
    except NotImplementedError:
        C["refused"] += 1; continue
    except Exception as e:
        r = ("raised", type(e).__name__)
    try:
        e = nx.floyd_warshall_predecessor_and_distance(G)
    except Exception as ex:
        e = ("raised", type(ex).__name__)
    a = repr(r[0]) if isinstance(r, tuple) and r[0] != "raised" else repr(r)
    b = repr(e[0]) if isinstance(e, tuple) and e[0] != "raised" else repr(e)
    if a != b:
        C["DIFF"] += 1
        if C["DIFF"] < 3: print("DIFF", cls.__name__, list(G.edges(data="weight")), list(G), "\n sr", a, "\n nx", b)
    else: C["ok"] += 1
print(C)
