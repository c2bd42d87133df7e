"""dist21: a KeyboardInterrupt in the middle of an SPMD call, then the next calls (a hang
here is a finding: run under `timeout`)."""
import signal
import sys
import time

import numpy as np
import scipy.sparse as sp

import algorithms.dist as adist
from semiring import dist


def boom(*_):
    raise KeyboardInterrupt


if __name__ == "__main__":
    procs = len(sys.argv) > 1 and sys.argv[1] == "proc"
    c = dist.local_cluster(2, processes=procs)
    n = 20000
    S = sp.random(n, n, density=8 / n, format="csr", random_state=0)
    DA = dist.DistMatrix.from_scipy(S, c, nparts=2)
    ref = adist.bfs(DA, 0)
    t = time.time(); adist.pagerank(DA, tol=1e-15, max_iter=10**9 and 400) if False else None
    signal.signal(signal.SIGALRM, boom)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        adist.pagerank(DA, tol=1e-300, max_iter=100000)
        print("pagerank finished before the interrupt")
    except KeyboardInterrupt:
        print("interrupted after", round(time.time() - t, 2))
    except Exception as e:  # noqa: BLE001
        print("pagerank raised", type(e).__name__, str(e)[:100])
    signal.setitimer(signal.ITIMER_REAL, 0)
    for i in range(3):
        t = time.time()
        try:
            got = adist.bfs(DA, 0)
            print("bfs after interrupt:", np.array_equal(got, ref), round(time.time() - t, 2))
        except Exception as e:  # noqa: BLE001
            print("bfs after interrupt raised", type(e).__name__, str(e)[:150], round(time.time() - t, 2))
    c.close(); c.cluster.close()
