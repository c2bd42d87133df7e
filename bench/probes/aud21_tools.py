"""aud21: csgraph_from_dense / masked_from_dense / to_dense / to_masked / from_masked over null_value, infinity_null, nan_null against SciPy (--engine: the engine path)."""
import numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg, warnings, sys, itertools
warnings.simplefilter('ignore')
from algorithms import csgraph as c
from algorithms.csgraph import _validation
if "--engine" in sys.argv: _validation.FORCE_ENGINE = True
D=np.array([[0, 1, np.inf],[np.nan, 0, 2],[3, -np.inf, 1e-9]])
bad=0
def same(a,b):
  if isinstance(a,BaseException) or isinstance(b,BaseException): return isinstance(a,BaseException) and isinstance(b,BaseException) and (isinstance(a,type(b)) or isinstance(b,type(a)))
  if sp.issparse(b): return type(a) is type(b) and a.dtype==b.dtype and np.array_equal(a.toarray(),b.toarray(),equal_nan=True) and a.nnz==b.nnz
  if isinstance(b,np.ma.MaskedArray): return isinstance(a,np.ma.MaskedArray) and a.dtype==b.dtype and np.array_equal(np.ma.getmaskarray(a),np.ma.getmaskarray(b)) and np.array_equal(a.filled(0),b.filled(0),equal_nan=True)
  return type(a) is type(b) and a.dtype==b.dtype and np.array_equal(a,b,equal_nan=True)
for f in ["csgraph_from_dense","csgraph_masked_from_dense"]:
  for nv, inn, nn in itertools.product([0, np.nan, np.inf, -np.inf, 1, 1e-9, None], [True, False], [True, False]):
    for G in [D, D.astype(np.float32), (D*0+1).astype(np.int8), D.tolist(), np.ma.masked_invalid(D)]:
      def run(m):
        try: return getattr(m,f)(G, null_value=nv, infinity_null=inn, nan_null=nn)
        except Exception as e: return e
      a=run(c); b=run(scg)
      if not same(a,b): bad+=1; print(f, nv, inn, nn, type(G).__name__, getattr(G,'dtype',None), repr(a)[:150].replace("\n"," "), '|', repr(b)[:150].replace("\n"," "))
S=sp.csr_matrix(np.array([[0,1.5,0],[0,0,2],[3,0,0]])); S.data[0]=0
for f in ["csgraph_to_dense","csgraph_to_masked"]:
  for nv in [0, np.nan, np.inf, -1, None, "x"]:
    for G in [S, S.astype(np.int32), S.astype(bool), sp.coo_array(S), S.astype(np.float32)]:
      def run(m):
        try: return getattr(m,f)(G, null_value=nv) if f=="csgraph_to_dense" else getattr(m,f)(G)
        except Exception as e: return e
      a=run(c); b=run(scg)
      if not same(a,b): bad+=1; print(f, nv, type(G).__name__, G.dtype, repr(a)[:150].replace("\n"," "), '|', repr(b)[:150].replace("\n"," "))
for G in [np.ma.masked_invalid(D), np.ma.masked_equal(D,0), np.ma.masked_array(D.astype(np.int32)*0+2, mask=np.eye(3,dtype=bool))]:
  a=c.csgraph_from_masked(G) if True else None; b=scg.csgraph_from_masked(G)
  if not same(a,b): bad+=1; print("from_masked", repr(a)[:150], repr(b)[:150])
print("bad", bad)
