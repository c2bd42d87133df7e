"""Where the fixed cost of a small warm call goes (issue 21 item 2): each layer of
``sr.mxv`` (min_plus, float64) and ``algorithms.bfs`` on a 1000-vertex random graph of mean
degree 8, timed alone, best of REPS (each + a device synchronization, as small_calls.py), and
the host cost of a launch (many launches, one sync, divided). GPU only.

The SpMV plan's launch, before and after in one run (session 14, spmv8): rows marked
``[cupy]`` run with ``spmv.KEPT_LAUNCH = False`` (the kept plan launched by CuPy's launch,
session 13's path), rows marked ``[kept]`` with it on (the driver's launch with a kept
parameter block, ``semiring/backend/gpu/launch.py``); the ``events`` rows time one call
between CUDA events on the stream, median of 200, as ``python -m bench`` does (the issue's
20.5 µs for sr.mxv at urand-10-ef4 is that measure). Read: ``[kept]`` against ``[cupy]``
in the same run for the plan, sr.mxv, and the events; ``KeptLaunch.launch alone`` is the
floor of the new launch (no allocation).

Usage: PYTHONPATH=. python3 bench/probes/small_breakdown.py [REPS=50]"""
import sys
import time

import cupy as cp
import numpy as np
import scipy.sparse as sp

import algorithms
import semiring as sr
from semiring.backend.gpu import small as gsmall
from semiring.backend.gpu import spmv as gspmv

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 50
print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
sync = cp.cuda.Device().synchronize


def best(f, k=1):
    f(); sync()
    t = 1e9
    for _ in range(reps):
        sync(); t0 = time.perf_counter()
        for _ in range(k):
            f()
        sync(); t = min(t, (time.perf_counter() - t0) / k)
    return t * 1e3


n = 1000
rng = np.random.default_rng(n)
S = sp.csr_matrix((rng.integers(1, 10, 8 * n).astype(np.float64),
                   (rng.integers(0, n, 8 * n), rng.integers(0, n, 8 * n))), shape=(n, n))
S.sum_duplicates()
A = sr.Matrix.from_scipy(S, device="gpu")
xv = cp.ones(n)
x = sr.Vector.from_dense(xv)
empty = cp.RawKernel(r'extern "C" __global__ void sr_empty() {}', "sr_empty")
empty((1,), (1,), ())  # (compiled and loaded: empty.kernel below)
from semiring.backend.gpu.launch import KeptLaunch  # noqa: E402

# the floor of any synchronized call: an empty kernel through the fastest launch the engine
# has (the driver's, a kept parameter block), then the sync; and a sync with nothing queued
kept_empty = KeptLaunch(empty.kernel.ptr, 1, 1, cp.cuda.get_current_stream().ptr, [])
rows = [("empty launch + sync", lambda: empty((1,), (1,), ())),
        ("empty launch, host only (100 a sync)", (lambda: empty((1,), (1,), ()), 100)),
        ("empty kept launch + sync", kept_empty.launch),
        ("empty kept launch, host only (100 a sync)", (kept_empty.launch, 100)),
        ("sync alone (nothing queued)", lambda: None),
        ("cp.empty x2", lambda: (cp.empty(n), cp.empty(n, dtype=bool))),
        ("scipy S @ x (host)", None)]
sched = gspmv.schedule(A)
avals, astride = A.values_for(np.float64)
mode, term = gspmv._terminal(sr.min_plus.add, np.dtype(np.float64))
empty_val = gspmv._empty(sr.min_plus.add, np.dtype(np.float64))
kern = gspmv._kernel("spmv_pull", sr.min_plus, np.dtype(np.float64), A.itype, False)
out, pres = cp.empty(n), cp.empty(n, dtype=bool)


def raw():
    kern((sched["nblocks"],), (gspmv.BLOCK,), (
        A.indptr, A.indices, avals, np.int64(astride), xv, None, None, sched["rows"],
        sched["long_rows"], sched["bins"], out, pres, np.int32(mode), term, empty_val))


rows += [("spmv_pull raw launch + sync", raw),
         ("spmv_pull raw launch, host only (100 a sync)", (raw, 100)),
         ("backend pull() + sync", lambda: gspmv.pull(A, xv, None, None, sr.min_plus,
                                                      np.dtype(np.float64), False))]
sr.mxv(A, x, sr.min_plus)  # (the plan kept on A for this device and stream)
plan = next(p for k, p in A._sched.items() if isinstance(k, tuple) and k[0] == gspmv.PLAN_KEY)
print("plan's kept launch:", "none (CuPy's launch only)" if plan.kernel is None else
      f"{len(plan.kernel.template)} parameter words, slots {plan.kernel.slots}")


def kept_alone():
    plan.kernel.launch(xv.data.ptr, out.data.ptr)


def mxv():
    return sr.mxv(A, x, sr.min_plus)


def events(f, n=200):
    """Median of n calls, each between CUDA events on the current stream (the bench's)."""
    start, end = cp.cuda.Event(), cp.cuda.Event()
    f(); sync()
    ts = []
    for _ in range(n):
        start.record(); f(); end.record(); end.synchronize()
        ts.append(cp.cuda.get_elapsed_time(start, end))
    return float(np.median(ts))


SWITCH = {}  # row name -> KEPT_LAUNCH for that row
for how, kept in (("cupy", False), ("kept", True)):  # (not `mode`: raw() reads that one)
    new = [(f"plan({how}) + sync", lambda: plan(xv)),
           (f"plan({how}), host only (100 a sync)", (lambda: plan(xv), 100)),
           (f"sr.mxv [{how}] + sync", mxv),
           (f"sr.mxv [{how}], host only (100 a sync)", (mxv, 100)),
           (f"sr.mxv [{how}], events (median of 200)", ("events", mxv))]
    if kept and plan.kernel is not None:
        new.append(("KeptLaunch.launch alone, host only (100 a sync)", (kept_alone, 100)))
    SWITCH.update({name: kept for name, _ in new})
    rows += new
lv = cp.empty(n, dtype=cp.int64)
fb = {s: gsmall.function(f"bfs_small<int, 0, {s}>") for s in (0, 1)}


def raw_bfs(stage=1, glog=3):
    fb[stage]((1,), (gsmall.THREADS,), (A.indptr, A.indices, np.int32(n), np.int32(0),
                                        np.int32(glog), lv, lv),
              shared_mem=12 * n + stage * 4 * (n + 1 + A.nvals))


rows += [("bfs_small raw launch + sync", raw_bfs),
         ("bfs_small raw, CSR not staged + sync", lambda: raw_bfs(0)),
         ("bfs_small raw, a warp a vertex + sync", lambda: raw_bfs(1, 5)),
         ("bfs_small raw, not staged, a warp a vertex + sync", lambda: raw_bfs(0, 5)),
         ("bfs_small raw launch, host only (100 a sync)", (raw_bfs, 100)),
         ("sr.traversal.bfs_small + sync", lambda: sr.traversal.bfs_small(A, 0)),
         ("algorithms.bfs(A, 0) + sync", lambda: algorithms.bfs(A, 0)),
         ("algorithms.bfs, host only (100 a sync)", (lambda: algorithms.bfs(A, 0), 100)),
         ("sr.traversal.bfs_grid + sync", lambda: sr.traversal.bfs_grid(A, 0))]
xh = np.ones(n)
for name, f in rows:
    gspmv.KEPT_LAUNCH = SWITCH.get(name, True)
    if isinstance(f, tuple) and f[0] == "events":
        print(f"{name:48s} {events(f[1]):8.4f} ms")
        continue
    if f is None:
        t0 = 1e9
        for _ in range(reps):
            t = time.perf_counter(); S @ xh; t0 = min(t0, time.perf_counter() - t)
        print(f"{name:48s} {t0 * 1e3:8.4f} ms")
        continue
    k = 1
    if isinstance(f, tuple):
        f, k = f
    print(f"{name:48s} {best(f, k):8.4f} ms")
ref = np.where(S.toarray() != 0, S.toarray(), np.inf).min(axis=1) + 1
for kept in (False, True):
    gspmv.KEPT_LAUNCH = kept
    outs = [sr.mxv(A, x, sr.min_plus) for _ in range(3)]  # three results alive at once
    same = all(np.array_equal(o.to_dense(missing=np.inf).get(), ref) for o in outs)
    print(f"mxv equal ({'kept' if kept else 'cupy'} launch):", same)
gspmv.KEPT_LAUNCH = True
