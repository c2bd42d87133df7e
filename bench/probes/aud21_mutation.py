"""aud21: no algorithms.csgraph call changes its input (every input kind, overwrite=True,
copy=False), on the host path and (--engine) the engine path."""
import copy, sys, warnings
import numpy as np, scipy.sparse as sp
from algorithms import csgraph as c
from algorithms.csgraph import _validation
if "--engine" in sys.argv:
    _validation.FORCE_ENGINE = True
warnings.simplefilter("ignore")
rng = np.random.default_rng(1)
D = (rng.random((5, 5)) < 0.5) * rng.integers(1, 9, (5, 5)).astype(float)
D[1, 2] = 0
S = sp.csr_matrix(D); S.data[0] = 0.0  # an explicit zero
kinds = {"csr": S, "csc": S.tocsc(), "coo": S.tocoo(), "lil": S.tolil(), "dense": D, "masked": np.ma.masked_equal(D, 0),
         "npmatrix": np.asmatrix(D), "int32csr": S.astype(np.int32), "csr_array": sp.csr_array(S), "dense_inf": np.where(D == 0, np.inf, D),
         "bool": S.astype(bool), "f32": S.astype(np.float32)}
def snap(x):
    if sp.issparse(x):
        x = x.copy()
        return ("sp", x.format, x.toarray().tolist(), [getattr(x, a).copy() for a in ("data", "indices", "indptr") if hasattr(x, a)])
    if isinstance(x, np.ma.MaskedArray):
        return ("ma", x.data.copy(), np.ma.getmaskarray(x).copy())
    return ("nd", np.array(x).copy())
def eq(a, b):
    if a[0] != b[0]: return False
    if a[0] == "sp":
        return a[1] == b[1] and a[2] == b[2] and all(np.array_equal(x, y) for x, y in zip(a[3], b[3]))
    return all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a[1:], b[1:]))
calls = [("shortest_path", {"overwrite": True}), ("shortest_path", {"method": "FW", "overwrite": True}), ("shortest_path", {"method": "D", "directed": False}),
         ("floyd_warshall", {"overwrite": True}), ("floyd_warshall", {"overwrite": True, "directed": False}), ("dijkstra", {}), ("dijkstra", {"directed": False}),
         ("bellman_ford", {}), ("johnson", {}), ("laplacian", {"copy": False}), ("laplacian", {"copy": False, "normed": True}), ("laplacian", {"copy": False, "form": "lo"}),
         ("minimum_spanning_tree", {"overwrite": True}), ("connected_components", {}), ("connected_components", {"connection": "strong"}),
         ("csgraph_to_dense", {}), ("csgraph_to_masked", {}), ("csgraph_from_dense", {}), ("csgraph_masked_from_dense", {}),
         ("reverse_cuthill_mckee", {}), ("structural_rank", {}), ("maximum_bipartite_matching", {}), ("min_weight_full_bipartite_matching", {}),
         ("breadth_first_order", {"i_start": 0}), ("depth_first_tree", {"i_start": 0, "directed": False}), ("breadth_first_tree", {"i_start": 0})]
bad = 0
for kname, G in kinds.items():
    for name, kw in calls:
        G2 = copy.deepcopy(G)
        before = snap(G2)
        try:
            getattr(c, name)(G2, **kw)
        except Exception as e:
            pass
        if not eq(before, snap(G2)):
            bad += 1; print("MUTATED", kname, name, kw)
    for name in ("maximum_flow",):
        G2 = copy.deepcopy(G)
        if sp.issparse(G2) and G2.dtype == np.int32:
            b = snap(G2); c.maximum_flow(G2, 0, 4)
            if not eq(b, snap(G2)): bad += 1; print("MUTATED", kname, name)
print("mutated", bad)
