"""The race of session 13's failure (tests/test_dist_spmd_loops.py::test_sssp_loops_match_engine
[framed-gpu-algebra]: distances below the truth), on 2 worker processes sharing one GPU, 4
ranks (two a worker, every block of one width), the algebra Bellman–Ford rounds pushed:
each arm runs random graphs for its share of the time and counts the results that differ
from SciPy's. Arms (the GPU push's workspace on the workers, ``spmv._workspace``):

- ``shared``: the old process-wide one (a dict keyed by device, width and type), as it was;
- ``shared+delay``: the same with 1 ms between taking a workspace and marking it in use
  (where the rank thread's GIL may pass to its peer: the race made likely);
- ``own+delay``: the fix (per thread and stream) with the same delay;
- ``own``: the fix as it is (not in the default arms).

    PYTHONPATH=. python3 bench/probes/dist_race.py --seconds 20 [--json out.json]

(``--device cpu``: the same on CPU workers, a check of the probe: the arms then patch a
module the CPU ranks do not use.)
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

ARMS = ("shared", "shared+delay", "own+delay")


def _install(arm):
    """(On a worker.) Put the arm's workspace function in the GPU push module."""
    import threading  # noqa: F401,PLC0415
    import time as _time  # noqa: PLC0415  (runs on a Dask worker)

    import numpy as _np  # noqa: PLC0415  (runs on a Dask worker)

    from semiring.backend.gpu import spmv as g  # noqa: PLC0415  (runs on a Dask worker)

    own = getattr(g, "_own_workspace", None)
    if own is None:
        own = g._own_workspace = g._workspace
    shared = {}

    def shared_workspace(n, rtype, identity):     # the session-13 form
        cp = g._cupy()
        key = (cp.cuda.Device().id, n, _np.dtype(rtype), _np.asarray(identity).tobytes())
        ws = shared.get(key)
        if ws is None or ws["dirty"]:
            ws = {"out": cp.full(n, identity, dtype=rtype),
                  "claimed": cp.zeros(n, dtype=cp.int32), "dirty": False}
            shared[key] = ws
        return ws

    def delayed(fn):
        def take(*a):
            ws = fn(*a)
            _time.sleep(1e-3)
            return ws
        return take

    g._workspace = {"shared": shared_workspace, "shared+delay": delayed(shared_workspace),
                    "own+delay": delayed(own), "own": own}[arm]
    return arm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0, help="per arm")
    ap.add_argument("--device", choices=("gpu", "cpu"), default="gpu")
    ap.add_argument("--arms", default=",".join(ARMS))
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    import importlib

    import scipy.sparse as sp
    from scipy.sparse.csgraph import dijkstra

    import semiring as sr
    import algorithms.dist as adist
    from algorithms.dist import _local, _spmd
    from semiring import dist
    from semiring.dist import _mesh

    dsssp = importlib.import_module("algorithms.dist.sssp")
    client = dist.local_cluster(2)                    # as the test: 2 processes, one GPU
    _spmd.SPMD, _spmd.ONE_PARTITION, _local.WHOLE_ON_ONE_WORKER = True, True, False
    dsssp.AUTO_METHOD = dict.fromkeys(("cpu", "gpu"), "bellman_ford")
    _spmd.ROUNDS = "algebra"
    info = {"device": args.device, "arms": {}}
    if args.device == "gpu":
        import cupy
        info["gpu"] = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    rng = np.random.default_rng(12345)
    for arm in args.arms.split(","):
        client.run(_install, arm)
        t0, trials, bad, first = time.time(), 0, 0, None
        while time.time() - t0 < args.seconds:
            n = 4 * int(rng.integers(10, 60))             # 4 blocks of one width
            m = int(rng.integers(n, 3 * n))
            r, c = rng.integers(0, n, m), rng.integers(0, n, m)
            S = sp.csr_matrix((np.ones(m), (r, c)), shape=(n, n))
            S.sum_duplicates()
            S.data = rng.random(S.nnz)
            src = int(rng.integers(0, n))
            ref = dijkstra(S, indices=src)
            DA = dist.DistMatrix.from_scipy(S, client, device=args.device, nparts=4)
            for ex in ("tcp", "framed"):
                _mesh.EXCHANGE = ex
                got = sr.to_device(adist.sssp(DA, src, direction="push"), "cpu")
                trials += 1
                wrong = ~np.isclose(np.asarray(got), ref, rtol=1e-12, atol=0)
                if wrong.any():
                    bad += 1
                    below = int((np.asarray(got)[wrong] < ref[wrong]).sum())
                    if first is None:
                        first = dict(n=n, nnz=int(S.nnz), src=src, exchange=ex,
                                     wrong=int(wrong.sum()), below=below)
            del DA
        info["arms"][arm] = dict(seconds=round(time.time() - t0, 1), runs=trials, wrong=bad,
                                 first=first)
        print(arm, json.dumps(info["arms"][arm]), flush=True)
    client.close()
    client.cluster.close()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(info, f, indent=1)


if __name__ == "__main__":
    main()
