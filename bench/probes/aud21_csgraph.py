"""aud21: targeted awkward calls of algorithms.csgraph against scipy.sparse.csgraph
(CPU; host path and, with --engine, the engine path GPU input takes)."""
import sys, warnings
import numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg
from scipy.sparse.linalg import aslinearoperator
from algorithms import csgraph as ours
from algorithms.csgraph import _validation
if "--engine" in sys.argv:
    _validation.FORCE_ENGINE = True
warnings.simplefilter("ignore")

def out(f, *a, **k):
    try:
        return f(*a, **k)
    except Exception as e:
        return e

def same(a, b):
    if isinstance(a, BaseException) or isinstance(b, BaseException):
        if isinstance(a, BaseException) and isinstance(b, BaseException):
            return isinstance(a, type(b)) or isinstance(b, type(a)), f"{type(a).__name__} vs {type(b).__name__}"
        return False, f"{a!r:.150} vs {b!r:.150}"
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            return False, "tuple shape"
        for x, y in zip(a, b):
            ok, why = same(x, y)
            if not ok:
                return ok, why
        return True, ""
    if sp.issparse(a) or sp.issparse(b):
        if type(a) is not type(b):
            return False, f"type {type(a).__name__} vs {type(b).__name__}"
        if a.dtype != b.dtype or a.shape != b.shape:
            return False, f"{a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        return (abs(a - b).sum() == 0 or np.allclose(a.toarray(), b.toarray(), equal_nan=True)), "values"
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if type(a) is not type(b):
            return False, f"type {type(a).__name__} vs {type(b).__name__}"
        if a.dtype != b.dtype or a.shape != b.shape:
            return False, f"{a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        if isinstance(a, np.ma.MaskedArray):
            if not np.array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b)):
                return False, "mask"
            a, b = a.filled(0), b.filled(0)
        return np.allclose(a, b, equal_nan=True) if a.dtype.kind in "fc" else np.array_equal(a, b), "values"
    return a == b or (a != a and b != b), f"{a!r} vs {b!r}"

n_bad = 0
def cmp(label, name, *args, **kw):
    global n_bad
    import copy
    args2 = copy.deepcopy(args)
    a = out(getattr(ours, name), *args, **kw)
    b = out(getattr(scg, name), *args2, **kw)
    ok, why = same(a, b)
    # mutation of inputs
    for x, y in zip(args, copy.deepcopy(args2)):
        pass
    if not ok:
        n_bad += 1
        print(f"DIFF {label} {name} {kw}: {why}")
        if isinstance(a, BaseException): print("   ours:", type(a).__name__, str(a)[:200])
        if isinstance(b, BaseException): print("   scipy:", type(b).__name__, str(b)[:200])

rng = np.random.default_rng(5)
D = (rng.random((6, 6)) < 0.4) * rng.integers(1, 9, (6, 6)).astype(float)
S = sp.csr_matrix(D)
SP = ["shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall"]
TRAV = ["breadth_first_order", "depth_first_order", "breadth_first_tree", "depth_first_tree"]
inputs = {
    "csr": S, "csr_array": sp.csr_array(S), "coo_array": sp.coo_array(S), "dia": sp.dia_matrix(S),
    "lil_array": sp.lil_array(S), "bsr": sp.bsr_matrix(S), "np.matrix": np.asmatrix(D),
    "dense": D, "masked": np.ma.masked_equal(D, 0), "list": D.tolist(),
    "csr_int64": sp.csr_matrix((S.data, S.indices.astype(np.int64), S.indptr.astype(np.int64)), shape=S.shape),
    "int8": sp.csr_matrix(D.astype(np.int8)), "uint64": sp.csr_matrix(D.astype(np.uint64)),
    "bool": sp.csr_matrix(D.astype(bool)), "float16dense": D.astype(np.float16),
    "complexdense": D.astype(complex), "dense_inf": np.where(D == 0, np.inf, D), "dense_nan": np.where(D == 0, np.nan, D),
    "linop": aslinearoperator(S),
}
for label, G in inputs.items():
    for name in SP:
        cmp(label, name, G)
        cmp(label, name, G, directed=False)
        cmp(label, name, G, unweighted=True)
        cmp(label, name, G, return_predecessors=True)
    for name in ["dijkstra", "bellman_ford", "johnson", "shortest_path"]:
        cmp(label, name, G, indices=[0, -1])
        cmp(label, name, G, indices=np.array([[0, 1]]))
        cmp(label, name, G, indices=-1)
        cmp(label, name, G, indices=6)
        cmp(label, name, G, indices=-7)
        cmp(label, name, G, indices=np.int64(2), return_predecessors=True)
        cmp(label, name, G, indices=[])
    cmp(label, "dijkstra", G, limit=3)
    cmp(label, "dijkstra", G, indices=[0, 1], min_only=True)
    cmp(label, "dijkstra", G, indices=[0, 1], min_only=True, return_predecessors=True)
    cmp(label, "dijkstra", G, indices=[0, 1], min_only=True, return_predecessors=True, limit=2)
    cmp(label, "dijkstra", G, min_only=True)
    cmp(label, "dijkstra", G, limit=0)
    cmp(label, "dijkstra", G, limit=-1)
    cmp(label, "dijkstra", G, limit=np.inf, directed=False)
    for name in TRAV:
        cmp(label, name, G, 0)
        cmp(label, name, G, 0, directed=False)
        cmp(label, name, G, np.int64(5))
        if "order" in name:
            cmp(label, name, G, 0, return_predecessors=False)
    cmp(label, "connected_components", G)
    cmp(label, "connected_components", G, connection="strong")
    cmp(label, "connected_components", G, directed=False)
    cmp(label, "connected_components", G, return_labels=False)
    cmp(label, "minimum_spanning_tree", G)
    cmp(label, "laplacian", G)
    cmp(label, "laplacian", G, normed=True)
    cmp(label, "laplacian", G, return_diag=True, use_out_degree=True)
    cmp(label, "laplacian", G, form="lo") if False else None
    cmp(label, "reverse_cuthill_mckee", G)
    cmp(label, "structural_rank", G)
    cmp(label, "maximum_bipartite_matching", G)
    cmp(label, "maximum_bipartite_matching", G, perm_type="column")
    cmp(label, "csgraph_to_dense", G)
    cmp(label, "csgraph_to_dense", G, null_value=-1)
    cmp(label, "csgraph_to_masked", G)
    cmp(label, "csgraph_from_dense", G)
    cmp(label, "csgraph_masked_from_dense", G)
    cmp(label, "min_weight_full_bipartite_matching", G)
    cmp(label, "yen", G, 0, 5, 3) if label not in ("csr_int64",) else None
    cmp(label, "floyd_warshall", G, overwrite=True)
# 0x0 / 1x1 / nonsquare
for label, G in {"0x0": sp.csr_matrix((0, 0)), "1x1": sp.csr_matrix(np.array([[2.0]])), "1x1z": sp.csr_matrix((1, 1)),
                 "2x3": sp.csr_matrix(np.ones((2, 3))), "0x0dense": np.zeros((0, 0)), "1d": np.ones(3), "3d": np.ones((2, 2, 2))}.items():
    for name in SP + ["connected_components", "minimum_spanning_tree", "laplacian", "reverse_cuthill_mckee",
                      "structural_rank", "maximum_bipartite_matching", "csgraph_to_dense", "csgraph_from_dense", "min_weight_full_bipartite_matching"]:
        cmp(label, name, G)
    for name in TRAV:
        cmp(label, name, G, 0)
# explicit zeros & parallel edges
Z = sp.csr_matrix((np.array([0.0, 2.0, 1.0, 3.0]), np.array([1, 2, 2, 0]), np.array([0, 3, 3, 4])), shape=(3, 3))
C = sp.coo_matrix((np.array([1.0, 5.0, 2.0]), (np.array([0, 0, 1]), np.array([1, 1, 2]))), shape=(3, 3))
for label, G in {"zeros_parallel_csr": Z, "coo_dup": C, "coo_dup_int": C.astype(np.int32)}.items():
    for name in SP + ["connected_components", "minimum_spanning_tree", "laplacian", "csgraph_to_dense"]:
        cmp(label, name, G)
        cmp(label, name, G, directed=False) if name not in ("laplacian", "minimum_spanning_tree", "csgraph_to_dense") else None
    for name in TRAV:
        cmp(label, name, G, 0)
print("n_bad", n_bad)
