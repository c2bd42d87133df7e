"""aud21: the exception classes for input NumPy reads as objects (LinearOperator, None, dict, set, str) against SciPy's."""
import numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg, warnings
warnings.simplefilter('ignore')
from scipy.sparse.linalg import aslinearoperator
from algorithms import csgraph as c
L=aslinearoperator(sp.eye(3,format='csr'))
objs={'linop':L,'None':None,'str':'abc','int':3,'objarr2d':np.array([[1,None],[None,1]],dtype=object),'dict':{0:1}, 'set':{1,2}}
for f in c.__all__:
  if f in ('NULL_IDX','NegativeCycleError'): continue
  for k,o in objs.items():
    a=[o]
    if f in ('breadth_first_order','breadth_first_tree','depth_first_order','depth_first_tree'): a=[o,0]
    if f=='yen': a=[o,0,1,1]
    if f in ('construct_dist_matrix','reconstruct_path'): a=[o,np.zeros((3,3),dtype=np.int32)]
    if f=='maximum_flow': a=[o,0,1]
    r=[]
    for m in (scg,c):
      try: getattr(m,f)(*a); r.append('OK')
      except Exception as e: r.append(type(e))
    s,u=r
    ok = (s=='OK')==(u=='OK') and (s=='OK' or issubclass(u,s))
    if not ok: print(f,k,'scipy',s,'ours',u.__mro__[:4] if u!='OK' else u)
