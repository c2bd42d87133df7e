"""The csgraph facade's host route on small GPU input, split into its steps inside one call
(n = 1000, 8n entries; best of REPS): the decorator's checks, the copy down, the function on
the host copy, the upload of the answer; then the copy down by page-locked memory and
asynchronous copies (no device staging buffer), against the route's gather.

Usage: PYTHONPATH=. python3 bench/probes/csgraph_route_split.py [REPS=200]"""
import sys
import time

import cupy as cp
import cupyx
import cupyx.scipy.sparse as cps
import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from algorithms.csgraph import _validation as V

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
n = 1000
rng = np.random.default_rng(n)
m = 8 * n
S = sp.csr_matrix((rng.integers(1, 10, m).astype(np.float64),
                   (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n))
S.sum_duplicates()
G = cps.csr_matrix(S)
sync = cp.cuda.Device().synchronize


def split(fn, kw):
    inner = fn.__wrapped__
    best = None
    for _ in range(reps):
        sync()
        t = [time.perf_counter()]
        V._routable(G), V._work(G, kw.get("indices", ()))
        t.append(time.perf_counter())
        H = V._to_host(G)
        t.append(time.perf_counter())
        r = inner(H, **kw)
        t.append(time.perf_counter())
        V._to_gpu_result(r)
        sync()
        t.append(time.perf_counter())
        d = np.diff(t) * 1e6
        best = d if best is None or d.sum() < best.sum() else best
    return best


def pinned_gather(arrays):
    sizes = [a.nbytes for a in arrays]
    host = cupyx.empty_pinned(sum(sizes), dtype=np.uint8)
    stream = cp.cuda.get_current_stream()
    o = 0
    for a, k in zip(arrays, sizes):
        cp.cuda.runtime.memcpyAsync(host.ctypes.data + o, a.data.ptr, k,
                                    cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
        o += k
    stream.synchronize()
    return host


def best(f):
    f()
    sync()
    b = 1e9
    for _ in range(reps):
        sync()
        t = time.perf_counter()
        f()
        sync()
        b = min(b, time.perf_counter() - t)
    return b * 1e6


print("steps, us: checks / copy down / host function / upload (and its sync)")
for name, fn, kw in (("dijkstra", csgraph.dijkstra, {"indices": 0}),
                     ("connected_components", csgraph.connected_components, {"directed": False})):
    d = split(fn, kw)
    whole = best(lambda: fn(G, **kw))
    ref = best(lambda: getattr(scg, name)(S, **kw))
    print(f"{name:<22} " + " / ".join(f"{x:7.1f}" for x in d) + f"  sum {d.sum():7.1f}"
          f"  whole call {whole:7.1f}  SciPy {ref:7.1f}")
arrs = [G.indptr, G.indices, G.data]
print(f"gather (route)  {best(lambda: V._gather_to_host(arrs, pinned_from=V.PINNED_BYTES)):7.1f} us")
print(f"gather (pinned, async copies) {best(lambda: pinned_gather(arrs)):7.1f} us")
print(f"three .get()    {best(lambda: [a.get() for a in arrs]):7.1f} us")
