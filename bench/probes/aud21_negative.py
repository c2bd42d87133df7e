"""aud21: bellman_ford / johnson with negative and zero weights against SciPy, predecessors checked valid (--engine: the engine path)."""
import numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg, warnings, sys
warnings.simplefilter('ignore')
from algorithms import csgraph as c
from algorithms.csgraph import _validation
if "--engine" in sys.argv: _validation.FORCE_ENGINE = True
rng=np.random.default_rng(23); bad=0
for s in range(300):
  n=int(rng.integers(1,9))
  D=(rng.random((n,n))<rng.uniform(0.1,0.6))*rng.integers(-2,6,(n,n)).astype(float)
  np.fill_diagonal(D, 0)
  S=sp.csr_matrix(D)
  if S.nnz and rng.random()<0.3: S.data[rng.integers(0,S.nnz)]=0.0
  for f in ["bellman_ford","johnson"]:
    for kw in [{}, {"indices":[0]}, {"return_predecessors":True}, {"unweighted":True}]:
      def run(m):
        try: return getattr(m,f)(S.copy(),**kw)
        except Exception as e: return e
      a=run(c); b=run(scg)
      if isinstance(a,BaseException) or isinstance(b,BaseException):
        if not (isinstance(a,BaseException) and isinstance(b,BaseException) and isinstance(a,type(b))): bad+=1; print(s,f,kw,repr(a)[:100],repr(b)[:100])
        continue
      da=a[0] if isinstance(a,tuple) else a; db=b[0] if isinstance(b,tuple) else b
      if da.dtype!=db.dtype or not np.array_equal(da,db): bad+=1; print(s,f,kw,'dist',da,db)
      if isinstance(a,tuple):
        P=a[1]; 
        # validity: dist[i,j]=dist[i,P[i,j]]+w(P[i,j],j)
        for i in range(n):
          for j in range(n):
            p=P[i,j]
            if p<0: 
              if not (i==j or np.isinf(da[i,j])): bad+=1; print('pred none',s,f,i,j)
              continue
            w=S[p,j] if S[p,j]!=0 or (S.tocsr()[p].indices==j).any() else np.inf
            if not np.isclose(da[i,p]+w, da[i,j]): bad+=1; print('pred bad',s,f,i,j,p)
print("bad",bad)
