"""The compiled CPU kernels' on-disk cache under several processes at once (Dask CPU workers,
multiprocessing, pytest-xdist): processes that compile kernels on one fresh cache, then a
process that loads them, every result checked against the NumPy path.

Numba's cache index (one file a function) is read, given a new entry and rewritten without
a lock, and the new entry's data file is numbered from the index it read: two processes
saving at once could both take number 1, and the index then named the other process's
machine code for a key (the suite on 32 xdist workers loaded a kernel with another's
return type: ``'descr' is NULL``). The window is the time between reading the index and
writing the data file, microseconds to milliseconds; to make each run meet it, the
builders here stop inside Numba's save (after reading the index) until all have arrived
(at most 2 s), then write the index in one order and the data files in the reverse order:
unlocked, the builders pick the same number and the index names one builder's key with
another's code (before the fix: the check process failed in every run).
A fixed cache must give the right answers whatever the interleaving."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

compiled = importlib.import_module("semiring.backend.cpu.compiled")

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="Numba not installed (the "
                                "`cpu` extra) or SEMIRING_NUMBA=0")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: (semiring, dtype, column indices 64-bit): pushes of different closures of one kernel
#: factory (before the fix, one index for all), each with two signatures (int32 and int64
#: indices: one index still, one lock).
COMBOS = [("plus_times", "float64", False), ("plus_times", "float64", True),
          ("min_plus", "float64", False), ("min_plus", "float64", True),
          ("plus_times", "bool", True)]

WORKER = r'''
import json, os, sys, time
import numpy as np

mode, k, n_builders, barrier, combos = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    sys.argv[4], json.loads(sys.argv[5])
if mode == "build":  # meet the race window every time (see the module's docstring)
    from numba.core import caching
    F = caching.IndexDataCacheFile
    orig_save, orig_load, orig_si, orig_sd = F.save, F._load_index, F._save_index, F._save_data
    state = {"saving": False}

    def ours(self):
        return state["saving"] and "push" in self._index_name

    def save(self, key, data):
        state["saving"] = True
        try:
            return orig_save(self, key, data)
        finally:
            state["saving"] = False

    def load_index(self):
        got = orig_load(self)
        if ours(self):  # wait (at most 2 s) until every builder has read the index
            open(os.path.join(barrier, str(k)), "w").close()
            t0 = time.monotonic()
            while len(os.listdir(barrier)) < n_builders and time.monotonic() - t0 < 2:
                time.sleep(0.01)
        return got

    def save_index(self, overloads):
        if ours(self):
            time.sleep(0.05 * k)  # the index: the last builder's write lands last
        return orig_si(self, overloads)

    def save_data(self, name, data):
        if ours(self):
            time.sleep(0.1 * (n_builders - k))  # the data: the first builder's lands last
        return orig_sd(self, name, data)

    F.save, F._load_index, F._save_index, F._save_data = save, load_index, save_index, \
        save_data

import semiring as sr
from semiring.backend.cpu import compiled

rng = np.random.default_rng(k)
bad, hits = [], 0
for name, dtype, int64 in combos:
    S, dtype, n = getattr(sr, name), np.dtype(dtype), 60
    present = rng.random((n, n)) < 0.1
    r, c = np.nonzero(present)
    vals = rng.integers(-4, 5, r.size).astype(dtype)
    A = sr.Matrix.from_coo(r, c, vals, nrows=n, ncols=n, device="cpu")  # (GPU hosts too)
    if int64:
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values,
                      A.shape, dtype=A.dtype)
    idx = np.flatnonzero(rng.random(n) < 0.3)
    x = sr.Vector.from_coo(idx, rng.integers(-4, 5, idx.size).astype(dtype), size=n,
                           device="cpu")
    got = sr.vxm(x, A, S, direction="push")
    kernel = compiled._kernel("push", S, dtype)
    hits += sum(kernel.stats.cache_hits.values())
    compiled.ENABLED = False
    ref = sr.vxm(x, A, S, direction="push")
    compiled.ENABLED = True
    gi, gv = got.sparse()[:2]
    ri, rv = ref.sparse()[:2]
    if not (got.dtype == ref.dtype and np.array_equal(gi, ri) and np.array_equal(gv, rv)):
        bad.append([name, str(dtype), int64])
print("RESULT " + json.dumps({"bad": bad, "cache_hits": hits}), flush=True)
'''


def _run(mode, ks, n_builders, combos_of, cache, barrier):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=ROOT, SEMIRING_NUMBA="1")
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, mode, str(k), str(n_builders),
                               barrier, json.dumps(combos_of(k))], env=env, cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for k in ks]
    out = []
    for p in procs:
        text, _ = p.communicate(timeout=600)
        lines = [ln for ln in text.splitlines() if ln.startswith("RESULT ")]
        assert p.returncode == 0 and lines, f"a {mode} process failed:\n{text[-3000:]}"
        out.append(json.loads(lines[-1][7:]))
    return out


def test_processes_sharing_a_fresh_cache_get_their_own_kernels(tmp_path):
    cache, barrier = str(tmp_path / "numba"), str(tmp_path / "barrier")
    os.mkdir(barrier)
    n = len(COMBOS)
    built = _run("build", range(n), n, lambda k: [COMBOS[k]], cache, barrier)
    assert [b["bad"] for b in built] == [[]] * n
    # a fresh process loads every kernel the builders saved, and runs each
    (checked,) = _run("check", [0], n, lambda k: COMBOS, cache, barrier)
    assert checked["bad"] == [], f"kernels loaded from the cache gave wrong results: {checked}"
    assert checked["cache_hits"] >= 1, "nothing was loaded from the cache: the test is void"
