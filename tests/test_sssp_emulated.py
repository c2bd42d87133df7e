"""The near–far SSSP kernel (sssp_grid in semiring/kernels/traverse.cu) run on the CPU through a
host-side CUDA stand-in (tests/emu/grid_emu.h: one block of 32 to 96 threads, warp intrinsics
and atomics emulated), against SciPy's Dijkstra: its queues, far piles, stamps, bucket minima
and counters, on grids, long paths and random graphs with zero weights and unreachable parts,
every distance type, int32 and int64 indices, any Δ, limits. This checks the kernel's logic
without a GPU; tests/test_sssp_grid.py runs the real launch on one. Needs a C++20 compiler
(g++); skipped without one."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
import scipy.sparse.csgraph as csg
from hypothesis import given, settings, strategies as st

from tests.emu_build import build_traverse_emu

from tests.test_sssp_grid import road_graphs

TYPE_CODES = {np.dtype(np.int32): 0, np.dtype(np.int64): 1, np.dtype(np.float32): 2,
              np.dtype(np.float64): 3}


@pytest.fixture(scope="session")  # (built once a worker: xdist interleaves modules, and a
# module fixture was torn down and rebuilt between them: 55 s a build set on CI)
def emu(tmp_path_factory):
    return build_traverse_emu(tmp_path_factory, "sssp_emu.cpp", {"default": []})["default"]


def run_emulated(exe, S, dtype, source, delta, limit, threads, index64):
    n = S.shape[0]
    head = f"{n} {S.nnz} {source} {delta!r} {limit!r} {threads} {TYPE_CODES[dtype]} {int(index64)}\n"
    body = "\n".join(" ".join(map(str, a.tolist())) for a in (S.indptr, S.indices, S.data))
    out = subprocess.run([exe], input=head + body + "\n", capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.split("\n")
    rounds, buckets, edges, status = map(int, lines[0].split())
    d = np.array([float(x) for x in lines[1:n + 1]])
    if dtype.kind in "iu":  # the type's maximum: unreached
        d[d >= float(np.iinfo(dtype).max)] = np.inf
    return d, rounds, buckets, status


@settings(max_examples=25)
@given(g=road_graphs(paths=(1, 2, 17, 300, 1500)), index64=st.booleans(),
       threads=st.sampled_from([32, 64, 96]),
       delta=st.sampled_from([0.5, 1, 3, 40, 1000, 1e12]),
       limit=st.sampled_from([None, None, 0, 30, 500]))
def test_emulated_kernel_matches_dijkstra(emu, g, index64, threads, delta, limit):
    S, dtype, source = g
    if dtype.kind in "iu":  # as sssp_grid passes them: Δ rounded up, the limit down
        delta = min(int(np.ceil(delta)), int(np.iinfo(dtype).max))
    lim = float("inf") if limit is None else float(limit)
    d, rounds, buckets, status = run_emulated(emu, S, dtype, source, float(delta), lim, threads,
                                              index64)
    assert status == 0 and rounds >= 1
    ref = csg.dijkstra(S.astype(np.float64), indices=source)
    if limit is None:
        np.testing.assert_array_equal(d, ref)
    else:  # exact within the limit, upper bounds beyond it
        near = ref <= limit
        np.testing.assert_array_equal(d[near], ref[near])
        assert np.all(d[~near] >= ref[~near])
