"""dist21: SSSP on non-integer float32/float64 weights (bit for bit) and integer weights near
their type's range (DistanceOverflow as on one device), every path."""
import numpy as np
import scipy.sparse as sp

import semiring as sr
import algorithms
import algorithms.dist as adist
from algorithms.dist import _spmd
from semiring import dist


def out(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001
        return ("err", type(e).__name__, str(e)[:90])


if __name__ == "__main__":
    c = dist.local_cluster(2, processes=False)
    rng = np.random.default_rng(5)
    bad = 0
    cases = 0
    for it in range(16):
        n = int(rng.integers(2, 40))
        S = sp.random(n, n, density=0.12, format="csr", random_state=it)
        kind = it % 4
        if kind == 0:
            S = S.astype(np.float32); S.data = (S.data * 3.3).astype(np.float32)
        elif kind == 1:
            S.data = S.data * 1e-3 + rng.random(S.nnz) * 1e5
        elif kind == 2:
            S = S.astype(np.int32); S.data = rng.integers(2**29, 2**31 - 1, S.nnz).astype(np.int32)
        else:
            S = S.astype(np.int64); S.data = rng.integers(2**59, 2**62, S.nnz)
        A = sr.Matrix.from_scipy(S, device="cpu")
        src = int(rng.integers(0, n))
        for nparts in (1, 2, 3):
            DA = dist.DistMatrix.from_scipy(S, c, nparts=nparts)
            for spmd, rounds in ((True, "fused"), (True, "algebra"), (False, "fused")):
                _spmd.SPMD = spmd; _spmd.ROUNDS = rounds
                for meth in ("auto", "bellman_ford", "delta_stepping"):
                    r = out(lambda: algorithms.sssp(A, src, method=meth))
                    g = out(lambda: adist.sssp(DA, src, method=meth))
                    cases += 1
                    ok = r[0] == g[0] and (r[1] == g[1] if r[0] == "err" else (r[1].dtype == g[1].dtype and np.array_equal(r[1], g[1])))
                    if not ok:
                        bad += 1
                        print(f"it{it} kind{kind} n={n} nparts={nparts} spmd={spmd} {rounds} {meth}: ref {r[:3] if r[0]=='err' else r[1][:6]} got {g[:3] if g[0]=='err' else g[1][:6]}")
    print("problems", bad, "of", cases)
    c.close(); c.cluster.close()
