"""tests/test_threads.py's GPU test against the session-13 workspace (process-wide dict)."""
import sys
import numpy as np, pytest
sys.path.insert(0, "tests")
import test_threads as T
from semiring.backend.gpu import spmv as g
shared = {}
def old(n, rtype, identity):
    cp = g._cupy()
    key = (cp.cuda.Device().id, n, np.dtype(rtype), np.asarray(identity).tobytes())
    ws = shared.get(key)
    if ws is None or ws["dirty"]:
        ws = {"out": cp.full(n, identity, dtype=rtype), "claimed": cp.zeros(n, dtype=cp.int32), "dirty": False}
        shared[key] = ws
    return ws
for name, fn in (("session13", old), ("fixed", g._workspace)):
    mp = pytest.MonkeyPatch()
    mp.setattr(g, "_workspace", fn)
    try:
        T.test_threads_products_are_their_own("gpu", mp)
        print(name, "PASS", flush=True)
    except AssertionError as e:
        print(name, "FAIL", str(e).splitlines()[:6], flush=True)
    finally:
        mp.undo()
