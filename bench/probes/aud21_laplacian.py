"""aud21: laplacian's every keyword combination over dtypes and kinds against SciPy (--engine: the engine path)."""
import numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg, warnings, sys, itertools
warnings.simplefilter('ignore')
from algorithms import csgraph as c
from algorithms.csgraph import _validation
if "--engine" in sys.argv: _validation.FORCE_ENGINE = True
rng=np.random.default_rng(11); bad=0
for s in range(60):
  n=int(rng.integers(0,7))
  D=(rng.random((n,n))<0.5)*rng.integers(-3,5,(n,n)).astype(float)
  for dt in [np.float64, np.float32, np.int32, np.int64, np.complex128]:
    for kind in ["csr","dense","coo_array"]:
      G = sp.csr_matrix(D.astype(dt)) if kind=="csr" else (D.astype(dt) if kind=="dense" else sp.coo_array(D.astype(dt)))
      for normed, ud, sym, form, rd in itertools.product([False,True],[False,True],[False,True],["array","lo","function"],[False,True]):
        kw=dict(normed=normed,use_out_degree=ud,symmetrized=sym,form=form,return_diag=rd)
        def run(m):
          try: return getattr(m,"laplacian")(G.copy() if hasattr(G,'copy') else G,**kw)
          except Exception as e: return e
        a=run(c); b=run(scg)
        if isinstance(a,BaseException) or isinstance(b,BaseException):
          if not (isinstance(a,BaseException) and isinstance(b,BaseException)): bad+=1; print("EXC", s,dt.__name__,kind,kw, repr(a)[:100], repr(b)[:100])
          continue
        L1,L2=(a[0],b[0]) if rd else (a,b)
        if rd and not (np.allclose(a[1],b[1],equal_nan=True) and a[1].dtype==b[1].dtype): bad+=1; print("DIAG",s,dt.__name__,kind,kw,a[1],b[1],a[1].dtype,b[1].dtype)
        if form=="array":
          A1=L1.toarray() if sp.issparse(L1) else L1; A2=L2.toarray() if sp.issparse(L2) else L2
          if type(L1) is not type(L2) or L1.dtype!=L2.dtype or not np.allclose(A1,A2,equal_nan=True): bad+=1; print("ARR",s,dt.__name__,kind,kw,type(L1).__name__,type(L2).__name__,L1.dtype,L2.dtype)
        else:
          x=rng.random((n,2)).astype(np.float64)
          y1=L1(x) if form=="function" else L1.matmat(x); y2=L2(x) if form=="function" else L2.matmat(x)
          if not np.allclose(y1,y2,equal_nan=True) or np.asarray(y1).dtype!=np.asarray(y2).dtype or type(L1).__name__!=type(L2).__name__:
            bad+=1; print("OP",s,dt.__name__,kind,kw,np.asarray(y1).dtype,np.asarray(y2).dtype,type(L1).__name__,type(L2).__name__)
          if form=="lo" and (L1.dtype!=L2.dtype or L1.shape!=L2.shape): bad+=1; print("LO",s,dt.__name__,kind,kw,L1.dtype,L2.dtype)
print("bad",bad)
