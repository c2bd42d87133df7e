"""aud21: keyword types (NumPy bools / ints / floats, index dtypes, 2-D indices) of the shortest-path and traversal functions against SciPy (--engine: the engine path)."""
import numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg, warnings, sys
warnings.simplefilter('ignore')
from algorithms import csgraph as c
from algorithms.csgraph import _validation
if "--engine" in sys.argv: _validation.FORCE_ENGINE = True
rng=np.random.default_rng(2)
D=(rng.random((6,6))<0.4)*rng.integers(1,9,(6,6)).astype(float)
S=sp.csr_matrix(D)
def run(m,f,*a,**k):
    try: return getattr(m,f)(*a,**k)
    except Exception as e: return e
def same(a,b):
    if isinstance(a,BaseException) or isinstance(b,BaseException):
        return isinstance(a,BaseException) and isinstance(b,BaseException) and isinstance(a,type(b))
    if isinstance(a,tuple): return len(a)==len(b) and all(same(x,y) for x,y in zip(a,b))
    if sp.issparse(a): return type(a) is type(b) and a.dtype==b.dtype and abs(a-b).sum()==0
    if isinstance(a,np.ndarray): return type(a) is type(b) and a.dtype==b.dtype and a.shape==b.shape and np.allclose(a,b,equal_nan=True)
    return a==b
vals = {"directed":[np.bool_(False), np.array(True), 0, 1.0, "", None], "unweighted":[np.bool_(True), 1, None], "limit":[np.float32(3), np.int64(3), 3, -np.inf, None],
        "indices":[np.array([0,2],dtype=np.uint64), np.array([0,2],dtype=np.int8), [np.int64(1)], (0,1), np.array([True,False,True,False,False,False]), np.array(2, dtype=np.uint8), 2.0, [2.0], np.array([[0],[1]]), [[0,1],[2,3]]],
        "return_predecessors":[np.bool_(True), 1, None, "yes"], "min_only":[np.bool_(True), 1, None]}
for f in ["dijkstra","shortest_path","bellman_ford","johnson","floyd_warshall"]:
    for k, vs in vals.items():
        for v in vs:
            if k in ("indices","min_only","limit") and f=="floyd_warshall": continue
            if k in ("min_only","limit") and f!="dijkstra": continue
            kw={k:v}
            if k=="min_only": kw["indices"]=[0,1]
            a=run(c,f,S,**kw); b=run(scg,f,S,**kw)
            if not same(a,b): print("DIFF",f,kw,"ours:",repr(a)[:120],"scipy:",repr(b)[:120])
for f in ["breadth_first_order","depth_first_order","breadth_first_tree","depth_first_tree"]:
    for v in [np.uint64(1), np.int8(1), 1.0, np.array(1), np.array([1]), True]:
        a=run(c,f,S,v); b=run(scg,f,S,v)
        if not same(a,b): print("DIFF",f,repr(v),"ours:",repr(a)[:120],"scipy:",repr(b)[:120])
    for d in [np.bool_(False), 0, None, "", np.array(False)]:
        a=run(c,f,S,0,directed=d); b=run(scg,f,S,0,directed=d)
        if not same(a,b): print("DIFF",f,"directed",repr(d),"ours:",repr(a)[:120],"scipy:",repr(b)[:120])
for kw in [dict(connection="STRONG"), dict(connection="strong", directed=np.bool_(True)), dict(return_labels=np.bool_(False)), dict(connection=b"weak"), dict(connection=None)]:
    a=run(c,"connected_components",S,**kw); b=run(scg,"connected_components",S,**kw)
    if not same(a,b): print("DIFF cc",kw,"ours:",repr(a)[:120],"scipy:",repr(b)[:120])
for kw in [dict(normed=np.bool_(True)), dict(form="function"), dict(form="lo"), dict(dtype=np.float32), dict(dtype=np.int8), dict(symmetrized=True), dict(use_out_degree=np.bool_(True), return_diag=True), dict(form="lo", normed=True, symmetrized=True)]:
    a=run(c,"laplacian",S,**kw); b=run(scg,"laplacian",S,**kw)
    if kw.get("form") in ("function","lo") and not isinstance(a,BaseException) and not isinstance(b,BaseException):
        x=np.arange(6.0); aa=a(x) if callable(a) else a.matvec(x); bb=b(x) if callable(b) else b.matvec(x)
        if not np.allclose(aa,bb) or type(a) is not type(b): print("DIFF lap",kw, type(a), type(b), aa, bb)
        continue
    if not same(a,b): print("DIFF lap",kw,"ours:",repr(a)[:120],"scipy:",repr(b)[:120])
print("done")
