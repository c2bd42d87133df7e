"""aud21: algorithms.csgraph called with a semiring.Matrix (values, iso, int32, bool, explicit
zeros) against scipy.sparse.csgraph called with the same graph as a scipy CSR."""
import sys, warnings
import numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg
import semiring as sr
from algorithms import csgraph as c
from algorithms.csgraph import _validation
if "--engine" in sys.argv:
    _validation.FORCE_ENGINE = True
warnings.simplefilter("ignore")
def run(m, f, *a, **k):
    try: return getattr(m, f)(*a, **k)
    except Exception as e: return e
def norm(x):
    if sp.issparse(x): return ("sp", x.dtype, x.shape, x.toarray())
    if isinstance(x, sr.Matrix): return ("M", x.dtype, x.shape, x.to_dense(missing=0))
    return x
def same(a, b):
    if isinstance(a, BaseException) or isinstance(b, BaseException):
        return isinstance(a, BaseException) and isinstance(b, BaseException) and isinstance(a, type(b))
    if isinstance(a, tuple): return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if sp.issparse(b):
        return sp.issparse(a) and a.dtype == b.dtype and a.shape == b.shape and np.allclose(a.toarray(), b.toarray())
    if isinstance(b, np.ma.MaskedArray): return isinstance(a, np.ma.MaskedArray) and np.array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b)) and np.allclose(a.filled(0), b.filled(0))
    if isinstance(b, np.ndarray): return type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape and np.allclose(a, b, equal_nan=True)
    return a == b
rng = np.random.default_rng(4)
bad = 0
for seed in range(40):
    n = int(rng.integers(1, 8))
    D = (rng.random((n, n)) < 0.4) * rng.integers(0, 5, (n, n))
    mask = rng.random((n, n)) < 0.4
    r, cc = np.nonzero(mask)
    for kind in ["f64", "i32", "bool", "iso1", "isoTrue", "f32"]:
        if kind == "f64": M = sr.Matrix.from_coo(r, cc, D[r, cc].astype(float), nrows=n, ncols=n, device="cpu")
        elif kind == "f32": M = sr.Matrix.from_coo(r, cc, D[r, cc].astype(np.float32), nrows=n, ncols=n, device="cpu")
        elif kind == "i32": M = sr.Matrix.from_coo(r, cc, D[r, cc].astype(np.int32), nrows=n, ncols=n, device="cpu")
        elif kind == "bool": M = sr.Matrix.from_coo(r, cc, D[r, cc].astype(bool), nrows=n, ncols=n, device="cpu")
        elif kind == "iso1": M = sr.Matrix.from_coo(r, cc, 2.0, nrows=n, ncols=n, device="cpu")
        else: M = sr.Matrix.from_coo(r, cc, None, nrows=n, ncols=n, device="cpu")
        S = M.to_scipy() if not M.is_iso else sp.csr_matrix((np.full(M.nvals, M.iso_value), M.indices, M.indptr), shape=M.shape)
        for f, kw in [("dijkstra", {}), ("dijkstra", {"directed": False}), ("shortest_path", {}), ("floyd_warshall", {}), ("bellman_ford", {}),
                      ("johnson", {}), ("breadth_first_order", {"i_start": 0}), ("depth_first_tree", {"i_start": 0}), ("breadth_first_tree", {"i_start": 0, "directed": False}),
                      ("connected_components", {"connection": "strong"}), ("connected_components", {}), ("minimum_spanning_tree", {}), ("laplacian", {}),
                      ("laplacian", {"normed": True}), ("csgraph_to_dense", {}), ("csgraph_to_masked", {}), ("reverse_cuthill_mckee", {}), ("structural_rank", {}),
                      ("maximum_bipartite_matching", {}), ("min_weight_full_bipartite_matching", {})]:
            a = run(c, f, M, **kw); b = run(scg, f, S, **kw)
            if not same(a, b):
                bad += 1
                print("DIFF", seed, kind, f, kw, "ours:", repr(norm(a))[:160].replace("\n", " "), "| scipy:", repr(norm(b))[:160].replace("\n", " "))
print("bad", bad)
