"""The GPU forward listing's two variants side by side (``backend/gpu/triangles.VARIANTS``:
'entries', a thread an entry of A; 'oriented', the orientation made first as a CSR of its own)
and the masked product 'dot3', on the same graphs: the count warm (the symmetry remembered),
the count of a first call (the symmetry checked), the per-vertex counts; median of
synchronized runs, ms. Every answer checked against dot3's count (and the per-vertex counts
of both variants against each other). Sets ``ORIENTED_MIN_WORK`` and 'auto''s bounds in
``algorithms/triangles.py``.

Usage: PYTHONPATH=. python3 bench/probes/tc_oriented.py [GRAPH ...]
"""

import importlib
import statistics
import sys
import time

import numpy as np

import algorithms as alg
import semiring as sr
from bench import generators as gen

gpu = importlib.import_module("semiring.backend.gpu.triangles")

RUNS = 7


def main(names):
    import cupy  # noqa: PLC0415  (a GPU probe)

    sync = cupy.cuda.get_current_stream().synchronize
    print(cupy.cuda.runtime.getDeviceProperties(0)["name"].decode())
    print(f"{'graph':>16} {'nnz':>10} {'max/mean':>8} | count warm: entries oriented dot3 | "
          f"first call: entries oriented | per vertex: entries oriented")
    for name in names:
        H = gen.make_graph(gen.parse_graph_spec(name), xp=np)
        A = sr.Matrix.from_scipy(H, device="gpu")
        deg = np.diff(H.indptr)
        skew = deg.max() / max(deg.mean(), 1e-9)
        want = alg.triangle_count(A, method="dot3")
        got = {}

        def timed(f, fresh=False):
            ms = []
            for i in range(RUNS + 1):
                if fresh:
                    A._memo.pop(gpu.SYMMETRIC_KEY, None)
                sync()
                t = time.perf_counter()
                r = f()
                sync()
                if i:
                    ms.append((time.perf_counter() - t) * 1e3)
            return statistics.median(ms), r

        row = []
        for v in gpu.VARIANTS:
            ms, r = timed(lambda v=v: gpu.forward(A, False, variant=v))
            assert r[0] == want and r[2], (name, v, r[0], want)
            row.append(ms)
        ms, r = timed(lambda: alg.triangle_count(A, method="dot3"))
        row.append(ms)
        for v in gpu.VARIANTS:
            ms, r = timed(lambda v=v: gpu.forward(A, False, variant=v), fresh=True)
            assert r[0] == want, (name, v)
            row.append(ms)
        for v in gpu.VARIANTS:
            ms, r = timed(lambda v=v: gpu.forward(A, True, variant=v))
            got[v] = cupy.asnumpy(r[1])
            row.append(ms)
        assert (got["entries"] == got["oriented"]).all() and got["entries"].sum() == 3 * want
        print(f"{name:>16} {A.nvals:>10} {skew:>8.1f} | " + " ".join(f"{x:8.3f}" for x in row[:3])
              + " | " + " ".join(f"{x:8.3f}" for x in row[3:5]) + " | "
              + " ".join(f"{x:8.3f}" for x in row[5:]), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["urand-13-ef4", "urand-16-ef8", "urand-18-ef8", "urand-20", "kron-16",
                          "kron-18"])
