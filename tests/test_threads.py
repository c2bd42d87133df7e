"""Products from several threads of one process at once, as the SPMD ranks of a Dask worker
holding two partitions run them (:mod:`algorithms.dist._spmd`: a thread a rank, the ranks of
one worker on one GPU): each thread's results must be its own. The GPU push kept its
scratch in one process-wide dict keyed by (device, width, type), so two ranks whose blocks
had one width could take one workspace and mix their products (the session-13 failure of
tests/test_dist_spmd_loops.py::test_sssp_loops_match_engine[framed-gpu-algebra]: distances
below the truth)."""

from __future__ import annotations

import threading
import types

import numpy as np
import pytest
import scipy.sparse as sp

import semiring as sr
from conftest import to_host
from semiring.backend.gpu import spmv as gspmv

#: Seconds a barrier waits for the other thread (a thread that failed: the test fails, no hang).
WAIT = 60


def _run_together(fns):
    """Run each of ``fns`` on a thread of its own, all at once; their results in order (the
    first error re-raised)."""
    out, errs = [None] * len(fns), []

    def run(k):
        try:
            out[k] = fns[k]()
        except BaseException as e:  # noqa: BLE001 (re-raised on the test's thread)
            errs.append(e)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(len(fns))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errs:
        raise errs[0]
    return out


def _fake_cupy():
    """The few CuPy calls :func:`semiring.backend.gpu.spmv._workspace` makes, on NumPy: its
    keying is host logic, checked here without a GPU."""
    stream = types.SimpleNamespace(ptr=0)          # the legacy default stream: every thread's
    cuda = types.SimpleNamespace(Device=lambda: types.SimpleNamespace(id=0),
                                 get_current_stream=lambda: stream)
    return types.SimpleNamespace(cuda=cuda, full=np.full, zeros=np.zeros, int32=np.int32)


def test_push_workspaces_are_the_threads_own(monkeypatch):
    """Two threads asking for the push's workspace of one width and type at once (each asks
    before the other marks its own in use) get two workspaces; one thread asking twice gets
    its own back (the O(frontier) push: no O(n) fill a call)."""
    monkeypatch.setattr(gspmv, "_cupy", _fake_cupy)
    both = threading.Barrier(2, timeout=WAIT)

    def take():
        ws = gspmv._workspace(16, np.float64, np.inf)
        both.wait()                   # the other thread has taken its workspace too
        ws["dirty"] = True            # (as push does, then its kernels)
        ws["dirty"] = False
        return ws, gspmv._workspace(16, np.float64, np.inf)

    (a, a2), (b, b2) = _run_together([take, take])
    assert a is not b
    assert a2 is a and b2 is b
    assert np.all(a["out"] == np.inf) and not a["claimed"].any()


def _min_plus(u_idx, u_val, D):
    """out(j) = min_i u(i) + D(i, j) over u's entries (D dense, inf: no edge); its indices
    and values where finite."""
    t = (u_val[:, None] + D[u_idx]).min(axis=0) if u_idx.size else np.full(D.shape[1], np.inf)
    j = np.flatnonzero(np.isfinite(t))
    return j, t[j]


def test_threads_products_are_their_own(device, monkeypatch):
    """Two threads push min.plus products over two matrices of one shape (and one width: the
    key the GPU's workspaces had), weights far apart, each its own frontiers, at once; on
    the GPU each push's workspace is taken, and its atomic scatter queued, by both threads
    before either reads its result (barriers in the push), so a shared workspace would show
    in every round."""
    n, rounds = 48, 12
    rng = np.random.default_rng(11)
    mats, dense = [], []
    for k in range(2):
        S = sp.random(n, n, density=0.25, random_state=rng, format="csr")
        S.data = rng.random(S.nnz) + 10.0 * k        # thread 1's weights all above thread 0's
        D = np.full((n, n), np.inf)
        D[S.nonzero()] = S.data
        mats.append(sr.Matrix.from_scipy(S, device=device))
        dense.append(D)
    fronts = [[np.sort(rng.choice(n, size=int(rng.integers(1, n // 2)), replace=False))
               for _ in range(rounds)] for _ in range(2)]
    if device == "gpu":
        at_take = threading.Barrier(2, timeout=WAIT)
        at_scatter = threading.Barrier(2, timeout=WAIT)
        take, kernel = gspmv._workspace, gspmv._kernel

        def taken(*a):
            ws = take(*a)
            at_take.wait()
            return ws

        def launcher(kind, *a):
            f = kernel(kind, *a)
            if kind != "spmspv_atomic":
                return f

            def launch(*args):
                f(*args)
                at_scatter.wait()
            return launch

        monkeypatch.setattr(gspmv, "_workspace", taken)
        monkeypatch.setattr(gspmv, "_kernel", launcher)

    def work(k):
        got = []
        for idx in fronts[k]:
            u = sr.Vector.from_coo(idx, np.full(idx.size, float(k)), size=n, device=device)
            t = sr.vxm(u, mats[k], sr.min_plus, direction="push")
            i, x = t.sparse(sorted=True)
            got.append((to_host(i), to_host(x)))
        return got

    got = _run_together([lambda: work(0), lambda: work(1)])
    for k in range(2):
        for r, idx in enumerate(fronts[k]):
            want_i, want_x = _min_plus(idx, np.full(idx.size, float(k)), dense[k])
            np.testing.assert_array_equal(got[k][r][0], want_i, err_msg=f"thread {k} round {r}")
            np.testing.assert_array_equal(got[k][r][1], want_x, err_msg=f"thread {k} round {r}")
