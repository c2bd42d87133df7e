"""The bench's csgraph case (bench/csgraph_case.py), one line per impl as soon as it is timed
(the bench prints its table only at the end): for runs under a wall-clock limit, where a
killed run must still leave its figures. Prints graph, function, impl, status, median ms and
SciPy's reference call's ms, then each function's facade-gpu / SciPy ratio (SciPy ms over
facade ms: above 1, the facade is faster).

Usage: PYTHONPATH=. python3 bench/probes/csgraph_case_live.py GRAPH[,GRAPH...] [cpu|gpu]"""
import sys
import time

import bench.runner as R

graphs = sys.argv[1].split(",")
device = sys.argv[2] if len(sys.argv) > 2 else "gpu"
_orig = R._run_impl
_t0 = time.perf_counter()
_scipy_ms = {}


def _loud(ctx, impl, refs, policy, skip):
    r = _orig(ctx, impl, refs, policy, skip)
    ms = r.timing.median_ms if r.timing is not None and r.status == "ok" else float("nan")
    key = (ctx.graph.spec.label, ctx.params.get("fn"))
    if impl.name == "scipy-csgraph":
        _scipy_ms[key] = ms
    ratio = ""
    if impl.name.startswith("facade") and key in _scipy_ms and ms == ms:
        ratio = f"  scipy/{impl.name} = {_scipy_ms[key] / ms:.3g}x"
    print(f"[{time.perf_counter() - _t0:6.1f} s] {key[0]} {key[1]:<22} {impl.name:<14} "
          f"{r.status:<11} {ms:10.3f} ms  ref {ctx.memo.get('ref_ms', float('nan')):10.3f} ms"
          f"{ratio}  {r.error or ''}", flush=True)
    return r


R._run_impl = _loud
# scipy-csgraph first: the ratio is printed with the facade lines
import bench.csgraph_case as case  # noqa: E402  (after the patch: the case registers on import)

alg = case.CSGRAPH
alg.impls.sort(key=lambda i: i.name != "scipy-csgraph")
R.run("quick", device, algorithms=["csgraph"], graphs=graphs, out=None, progress=False)
