"""aud21: algorithms.pagerank against networkx.pagerank on awkward inputs (CPU backend)."""
import warnings
import numpy as np, scipy.sparse as sp, networkx as nx
import algorithms as alg

def nxpr(S, **kw):
    G = nx.from_scipy_sparse_array(sp.csr_array(S), create_using=nx.DiGraph, edge_attribute="weight")
    # from_scipy_sparse_array drops nothing: explicit zeros? (it iterates stored entries)
    try:
        r = nx.pagerank(G, backend="networkx", **kw)
    except Exception as e:
        return type(e).__name__ + ": " + str(e)
    return np.array([r[i] for i in range(S.shape[0])])

def ours(S, **kw):
    try:
        return alg.pagerank(S, **kw)
    except Exception as e:
        return type(e).__name__ + ": " + str(e)

def cmp(name, S, kw_nx={}, kw_us={}):
    a, b = nxpr(S, **kw_nx), ours(S, **kw_us)
    if isinstance(a, str) or isinstance(b, str):
        print(f"{name}: nx={a if isinstance(a,str) else np.round(a,5)} ours={b if isinstance(b,str) else np.round(b,5)}")
        return
    ok = a.shape == b.shape and np.allclose(a, b, atol=1e-5)
    print(f"{name}: {'ok' if ok else 'DIFF'} dtype={b.dtype}", "" if ok else (np.round(a,5), np.round(b,5)))

rng = np.random.default_rng(0)
D = (rng.random((6, 6)) < 0.4) * rng.integers(1, 100, (6, 6))
for dt in [np.int32, np.int64, np.float32, bool]:
    S = sp.csr_matrix(D.astype(dt))
    cmp(f"dtype {np.dtype(dt)}", S.astype(np.float64), {}, {}) if False else None
    a = nxpr(sp.csr_matrix(D.astype(dt).astype(np.float64)))
    b = ours(S)
    print(f"dtype {np.dtype(dt)}:", "ok" if (not isinstance(b, str) and np.allclose(a, b, atol=1e-5)) else ("DIFF", a, b))
# int8 overflow in outdeg
S = sp.csr_matrix(np.array([[0, 100, 100], [0, 0, 0], [1, 0, 0]], dtype=np.int8))
print("int8 sums>127:", nxpr(S.astype(float)), ours(S))
S = sp.csr_matrix(np.array([[0, 200, 200], [0, 0, 0], [1, 0, 0]], dtype=np.uint8))
print("uint8 sums>255:", nxpr(S.astype(float)), ours(S))
S = sp.csr_matrix(np.array([[0, 2**63, 2**63], [0, 0, 0], [1, 0, 0]], dtype=np.uint64))
print("uint64:", nxpr(S.astype(float)), ours(S))
S = sp.csr_matrix(np.array([[0, 2**31-1, 2**31-1], [0, 0, 0], [1, 0, 0]], dtype=np.int32))
print("int32 overflow:", nxpr(S.astype(float)), ours(S))
# only self-loops
cmp("self-loops", sp.identity(4, format="csr"))
cmp("1x1 self loop", sp.csr_matrix(np.array([[2.0]])))
cmp("1x1 empty", sp.csr_matrix((1, 1)))
cmp("0x0", sp.csr_matrix((0, 0)))
# explicit zeros
Z = sp.csr_matrix((np.array([0.0, 1.0]), np.array([1, 2]), np.array([0, 2, 2, 2])), shape=(3, 3))
cmp("explicit zero", Z)
cmp("explicit zero unweighted", Z, {"weight": None}, {"weighted": False})
# personalization / nstart / dangling
S = sp.csr_matrix(D.astype(float))
cmp("pers dict", S, {"personalization": {0: 1, 3: 2}}, {"personalization": {0: 1, 3: 2}})
cmp("nstart dict", S, {"nstart": {0: 1, 3: 2}}, {"nstart": {0: 1, 3: 2}})
cmp("dangling dict", S, {"dangling": {1: 1}}, {"dangling": {1: 1}})
cmp("pers+dangling", S, {"personalization": {2: 1}, "dangling": {1: 1, 5: 3}}, {"personalization": {2: 1}, "dangling": {1: 1, 5: 3}})
cmp("tol/max_iter", S, {"tol": 1e-12, "max_iter": 3}, {"tol": 1e-12, "max_iter": 3})
cmp("max_iter0", S, {"max_iter": 0}, {"max_iter": 0})
cmp("alpha0", S, {"alpha": 0.0}, {"damping": 0.0})
cmp("alpha1", S, {"alpha": 1.0}, {"damping": 1.0})
cmp("pers all zero", S, {"personalization": {0: 0}}, {"personalization": {0: 0}})
cmp("nstart all zero", S, {"nstart": {0: 0}}, {"nstart": {0: 0}})
cmp("neg weight", sp.csr_matrix(np.array([[0, -1.0], [1.0, 0]])))
cmp("unweighted", S, {"weight": None}, {"weighted": False})
cmp("float alpha np", S, {"alpha": np.float32(0.5)}, {"damping": np.float32(0.5)})
cmp("max_iter np.int", S, {"max_iter": np.int64(50)}, {"max_iter": np.int64(50)})
x = np.ones(6); xc = x.copy()
alg.pagerank(S, personalization=x, nstart=x, dangling=x); assert (x == xc).all()
# nstart negative
cmp("pers negative", S, {"personalization": {0: -1, 1: 2}}, {"personalization": {0: -1, 1: 2}})
# huge weights
cmp("huge", sp.csr_matrix(np.array([[0, 1e308, 1e308], [1.0, 0, 0], [1e-320, 0, 0]])))
# list input, dense input
print("dense input:", ours(D.astype(float)))
print("list input:", ours(D.astype(float).tolist()))
print("complex:", ours(sp.csr_matrix(D.astype(complex))))
print("nonsquare:", ours(sp.csr_matrix((2, 3))))
print("pers wrong len:", ours(S, personalization=[1, 2]))
print("pers dict float key:", ours(S, personalization={1.0: 1}))
print("pers dict str val:", ours(S, personalization={1: "a"}))
print("damping str:", ours(S, damping="0.5"))
print("tol 0:", ours(S, tol=0))
