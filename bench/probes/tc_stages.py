"""Where GPU triangle counting spends its time on large graphs (issue 21 item 4: Gunrock's
count beat ours on urand-20): 'auto' (dot3 past ``triangles.GPU_FORWARD_MAX_ENTRIES``) stage
by stage (the symmetry test, the offdiag pattern, the orientation, the masked dot3 product,
its reduction) against the forward listing, median of synchronized warm calls, ms.

Usage: PYTHONPATH=. python3 bench/probes/tc_stages.py [GRAPH ...]
"""

import importlib
import statistics
import sys
import time

import numpy as np

import algorithms as alg
import semiring as sr
from bench import generators as gen

T = importlib.import_module("algorithms.triangles")


def main(names):
    import cupy  # noqa: PLC0415  (a GPU probe)

    sync = cupy.cuda.get_current_stream().synchronize
    print(cupy.cuda.runtime.getDeviceProperties(0)["name"].decode())
    for name in names:
        H = gen.make_graph(gen.parse_graph_spec(name), xp=np)
        A = sr.Matrix.from_scipy(H, device="gpu")
        state = {}

        def sym():
            state["sym"] = T._is_symmetric(A)

        def offdiag():
            state["G"] = T._pattern(sr.select(T._pattern(A), "offdiag"))

        def orient():
            state["U"] = T._oriented(state["G"], "degree", upward=True)

        def product():
            state["C"] = sr.dot3(state["U"], state["U"], sr.plus_pair, mask=state["U"])

        def reduce():
            state["count"] = int(sr.reduce_scalar(state["C"]))

        stages = {"symmetric": sym, "offdiag": offdiag, "orient": orient, "dot3": product,
                  "reduce": reduce,
                  "auto": lambda: state.__setitem__("auto", alg.triangle_count(A)),
                  "forward": lambda: state.__setitem__("fw", alg.triangle_count(
                      A, method="forward"))}
        runs = {k: [] for k in stages}
        for i in range(6):
            for k, f in stages.items():
                sync()
                t = time.perf_counter()
                f()
                sync()
                if i:
                    runs[k].append((time.perf_counter() - t) * 1e3)
        U = state["U"]
        deg = cupy.diff(U.indptr)
        print(f"{name}: nvals {A.nvals}, U {U.nvals} (max row {int(deg.max())}), counts "
              f"{state['count']} / {state['auto']} / {state['fw']}; ms "
              + " ".join(f"{k} {statistics.median(v):.3f}" for k, v in runs.items()),
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["urand-18-ef8", "urand-20", "kron-18", "kron-20"])
