"""dist21: lifecycle of DistMatrix over a client: after close, across clients, repeated calls.

python dist21_lifecycle.py SCENARIO  (run each under `timeout`: a hang is a finding)."""
import gc
import sys
import time

import numpy as np
import scipy.sparse as sp

import algorithms.dist as adist
from semiring import dist


def graph(n=60, seed=0):
    return sp.random(n, n, density=0.08, format="csr", random_state=seed)


def held_keys(client):
    # the mesh servers' held results and Dask's keys
    return len(client.who_has())


def main(s, processes):
    c = dist.local_cluster(2, processes=processes)
    S = graph()
    DA = dist.DistMatrix.from_scipy(S, c, nparts=3)
    ref = adist.bfs(DA, 0)
    if s == "after_close":
        c.close()
        for name, f in (("bfs", lambda: adist.bfs(DA, 0)), ("sssp", lambda: adist.sssp(DA, 0)),
                        ("pagerank", lambda: adist.pagerank(DA)),
                        ("cc", lambda: adist.connected_components(DA)),
                        ("from_scipy", lambda: dist.DistMatrix.from_scipy(S, c))):
            t = time.time()
            try:
                f()
                print(name, "after close: OK (!)", round(time.time() - t, 2))
            except Exception as e:  # noqa: BLE001
                print(name, "after close:", type(e).__module__, type(e).__name__, str(e)[:150], round(time.time() - t, 2))
        c.cluster.close()
    elif s == "cluster_closed":
        c.cluster.close()
        for name, f in (("bfs", lambda: adist.bfs(DA, 0)), ("pagerank", lambda: adist.pagerank(DA))):
            t = time.time()
            try:
                f()
                print(name, "after cluster close: OK (!)", round(time.time() - t, 2))
            except Exception as e:  # noqa: BLE001
                print(name, "after cluster close:", type(e).__name__, str(e)[:150], round(time.time() - t, 2))
        c.close()
    elif s == "two_clients":
        c2 = dist.local_cluster(2, processes=processes)
        DB = dist.DistMatrix.from_scipy(graph(60, 1), c2, nparts=2)
        print("A on c1:", np.array_equal(adist.bfs(DA, 0), ref))
        print("B on c2 sssp:", adist.sssp(DB, 0)[:4])
        for name, f in (("ewise A,B", lambda: dist.ewise_add(DA.degree(), DB.degree(), "plus").to_dense()),
                        ("mxv A x_B", lambda: dist.mxv(DA, dist.DistVector.full(DB, 1.0), "plus_times").to_dense())):
            try:
                print(name, "OK (!)", f()[:4])
            except Exception as e:  # noqa: BLE001
                print(name, type(e).__name__, str(e)[:200])
        c2.close(); c2.cluster.close(); c.close(); c.cluster.close()
    elif s == "two_matrices":
        DB = dist.DistMatrix.from_scipy(graph(60, 1), c, nparts=2)
        a1 = adist.bfs(DA, 0); b1 = adist.bfs(DB, 0); a2 = adist.bfs(DA, 0)
        print("interleaved equal:", np.array_equal(a1, a2), np.array_equal(a1, ref))
        c.close(); c.cluster.close()
    elif s == "repeat":
        for g in (True, False):
            base = None
            for i in range(30):
                out = adist.sssp(DA, i % 60, gather=g)
                out2 = adist.connected_components(DA, gather=g)
                out3 = adist.pagerank(DA, gather=g)
                del out, out2, out3
                gc.collect()
                if i == 4:
                    base = c.run(_held_count)
            time.sleep(0.5)
            print("gather", g, "held after 5:", base, "after 30:", c.run(_held_count), "who_has", held_keys(c))
        c.close(); c.cluster.close()


def _held_count():
    from semiring.dist import _tasks
    return len(_tasks.HELD)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] == "proc" if len(sys.argv) > 2 else False)
