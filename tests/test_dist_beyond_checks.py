"""The checks of ``bench/probes/dask_beyond_one_gpu.py`` (the graph larger than one GPU has no
one-device reference: its BFS, SSSP, CC and PageRank are checked by properties, on the
ranks): they pass on the distributed results of a small Kronecker graph, and each fails when
one value of its result is wrong."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import semiring as sr

import algorithms.dist as adist
from bench import generators as g
from bench.probes import dask_beyond_one_gpu as BG
from semiring import dist
from semiring.dist import _tasks as T

pytest.importorskip("distributed",
                    reason='the distributed tests need dask: pip install "semiring[dask]"')


@pytest.fixture(scope="module")
def client():
    c = dist.local_cluster(2, processes=False)
    yield c
    c.close()
    c.cluster.close()


def _results(client, device):
    scale, n = 10, 1 << 10
    fn = functools.partial(g.kronecker_chunk, scale=scale, seed=6)
    DA = dist.DistMatrix.from_edge_function(fn, (n, n), client, nchunks=3, dup_op="min",
                                            device=device, kinds=("cols",))
    src = DA.call_spmd(BG._pick_source, keep=False)[0]
    got = {"bfs": adist.bfs(DA, src, gather=False),
           "sssp": adist.sssp(DA, src, gather=False),
           "cc": adist.connected_components(DA, symmetric=True, gather=False),
           "pagerank": adist.pagerank(DA, gather=False)}
    return DA, src, got, {op: BG._held_keys(v) for op, v in got.items()}


def _check(DA, src, keys):
    return BG._combine(DA.call_spmd(BG._check_rank, (keys, src), keep=False), DA.nrows)


def _spoil(key, change):
    """Replace a rank's held slice by ``change(dense)`` (its missing entries as missing)."""
    v = T.HELD[key]
    miss = {np.dtype(np.int64): -1}.get(np.dtype(v.dtype), np.inf)
    if v.dtype == np.float64 and v.nvals == v.size:  # PageRank: dense, nothing missing
        miss = None
    a = v.to_dense(missing=-1 if miss is None else miss)
    T.HELD[key] = sr.Vector.from_dense(change(a.copy()), missing=miss, device=v.device)


@pytest.mark.parametrize("op", ["bfs", "sssp", "cc", "pagerank"])
def test_checks_pass_and_fail(client, device, op):
    DA, src, got, keys = _results(client, device)
    res = _check(DA, src, keys)
    assert res["ok"] == {"bfs": True, "sssp": True, "cc": True, "pagerank": True}, res
    assert res["bfs_reached"] > 1 and res["sssp_reached"] == res["bfs_reached"]
    key = tuple(keys[op][1])  # rank 1's slice

    def bump(a):
        i = int(np.flatnonzero(to_np(a) != (-1 if op in ("bfs", "cc") else np.inf))[3])
        a[i] = a[i] + (2 if op == "bfs" else -1.0 if op == "sssp" else
                       -1 if op == "cc" else 0.01)
        return a

    _spoil(key, bump)
    bad = _check(DA, src, keys)
    assert bad["ok"][op] is False, bad
    others = {k: v for k, v in bad["ok"].items() if k != op and not
              (op == "bfs" and k in ("sssp", "cc"))}  # those compare with BFS's reached set
    assert all(others.values()), bad


def to_np(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)
