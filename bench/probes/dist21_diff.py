"""dist21: differential probe of algorithms.dist against the one-device engine (CPU workers).

Random small graphs (dtypes, self-loops, explicit zeros, negative / inf weights, empty
partitions), every SPMD variant and exchange, gather True/False. Prints each mismatch."""
import itertools
import sys
import traceback

import numpy as np
import scipy.sparse as sp

import semiring as sr
import algorithms
import algorithms.dist as adist
from algorithms.dist import _spmd, _local
from semiring import dist
from semiring.dist import _mesh

BAD = []
STATS = {}


def rand_graph(rng, n, dtype, neg=False, zeros=False, infw=False):
    m = int(rng.integers(0, 3 * n + 1))
    r = rng.integers(0, n, m); c = rng.integers(0, n, m)
    if dtype == np.bool_:
        v = np.ones(m, bool)
    elif np.dtype(dtype).kind == "f":
        v = rng.integers(1 if not zeros else 0, 9, m).astype(dtype)
        if neg and m:
            v[rng.integers(0, m)] = -1
        if infw and m:
            v[rng.integers(0, m)] = np.inf
    else:
        v = rng.integers(0 if zeros else 1, 9, m).astype(dtype)
    S = sp.coo_matrix((v, (r, c)), shape=(n, n))
    S.sum_duplicates()
    return S.tocsr()


def same(a, b):
    a = np.asarray(a); b = np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)


def outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001
        return ("err", type(e).__name__, str(e)[:120])


def cmp(tag, ref, got, close=False):
    STATS[ref[0]] = STATS.get(ref[0], 0) + 1
    if ref[0] != got[0]:
        BAD.append((tag, "ref", ref[:3] if ref[0] == "err" else "ok", "got",
                    got[1:] if got[0] == "err" else "ok"))
        return
    if ref[0] == "err":
        if ref[1] != got[1]:
            BAD.append((tag, "err types", ref[1], got[1], got[2]))
        return
    r, g = ref[1], got[1]
    r = r if isinstance(r, tuple) else (r,)
    g = g if isinstance(g, tuple) else (g,)
    for x, y in zip(r, g):
        x = np.asarray(x); y = np.asarray(y)
        ok = (x.shape == y.shape and x.dtype == y.dtype and
              (np.allclose(x, y, rtol=1e-12, atol=1e-15) if close else np.array_equal(x, y)))
        if not ok:
            BAD.append((tag, "ref", x.dtype, x[:12], "got", y.dtype, y[:12]))


def todense(v, missing):
    if isinstance(v, tuple):
        return tuple(todense(x, m) for x, m in zip(v, missing))
    return v.to_dense(missing=missing)


def main(seed0=0, count=30):
    client = dist.local_cluster(2, processes=False)
    rng = np.random.default_rng(seed0)
    configs = [dict(SPMD=True, BFS="fused", ROUNDS="fused", CC="mirrored", EX="tcp"),
               dict(SPMD=True, BFS="algebra", ROUNDS="algebra", CC="labels", EX="framed"),
               dict(SPMD=True, BFS="fused", ROUNDS="algebra", CC="forests", EX="tcp"),
               dict(SPMD=False, BFS="fused", ROUNDS="fused", CC="mirrored", EX="tcp")]
    for it in range(count):
        n = int(rng.integers(0, 14))
        dtype = [np.float64, np.float32, np.int32, np.int64, np.bool_, np.int32][it % 6]
        neg = bool(rng.integers(0, 4) == 0) and np.dtype(dtype).kind in "fi"
        S = rand_graph(rng, n, dtype, neg=neg, zeros=bool(it % 2), infw=bool(rng.integers(0, 5) == 0))
        A = sr.Matrix.from_scipy(S, device="cpu")
        nparts = int(rng.integers(1, 5))
        if n and rng.integers(0, 2):
            b = np.sort(rng.integers(0, n + 1, nparts - 1))
            bounds = [0, *b.tolist(), n]
            DA = dist.DistMatrix.from_scipy(S, client, bounds=bounds)
        else:
            DA = dist.DistMatrix.from_scipy(S, client, nparts=nparts)
        src = int(rng.integers(0, n)) if n else 0
        for cfg in configs:
            _spmd.SPMD = cfg["SPMD"]; _spmd.BFS_LEVELS = cfg["BFS"]; _spmd.ROUNDS = cfg["ROUNDS"]
            _spmd.COMPONENTS = cfg["CC"]; _mesh.EXCHANGE = cfg["EX"]
            tag0 = f"it{it} n={n} {np.dtype(dtype)} parts={DA.row_layout.bounds} src={src} {cfg}"
            if n:
                for par, det in ((False, False), (True, True)):
                    ref = outcome(lambda: algorithms.bfs(A, src, parents=par, deterministic=det))
                    got = outcome(lambda: adist.bfs(DA, src, parents=par, deterministic=det))
                    if par and not det:
                        pass
                    cmp(tag0 + f" bfs par={par}", ref, got)
                    got = outcome(lambda: todense(adist.bfs(DA, src, parents=par, deterministic=det, gather=False), (-1, -1) if par else -1))
                    cmp(tag0 + f" bfs gather=False par={par}", ref, got)
                for meth in ("auto", "bellman_ford", "delta_stepping"):
                    ref = outcome(lambda: algorithms.sssp(A, src, method=meth))
                    got = outcome(lambda: adist.sssp(DA, src, method=meth))
                    cmp(tag0 + f" sssp {meth}", ref, got)
                ref = outcome(lambda: algorithms.sssp(A, src, method="delta_stepping", limit=5))
                got = outcome(lambda: adist.sssp(DA, src, method="delta_stepping", limit=5))
                cmp(tag0 + " sssp limit", ref, got)
                ref = outcome(lambda: algorithms.bellman_ford(A, src))
                got = outcome(lambda: adist.bellman_ford(DA, src))
                cmp(tag0 + " bellman_ford", ref, got)
            ref = outcome(lambda: algorithms.pagerank(A, weighted=False))
            got = outcome(lambda: adist.pagerank(DA))
            cmp(tag0 + " pagerank", ref, got, close=True)
            ref = outcome(lambda: algorithms.connected_components(A, connection="weak"))
            got = outcome(lambda: adist.connected_components(DA))
            cmp(tag0 + " cc", ref, got)
            Ssym = S + S.T
            # symmetric only where true
    client.close(); client.cluster.close()
    for b in BAD:
        print(*b)
    print("mismatches:", len(BAD), STATS)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0, int(sys.argv[2]) if len(sys.argv) > 2 else 30)
