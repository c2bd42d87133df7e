"""``python -m bench --suite dask`` (bench/dask_case.py) and the standalone
``python -m bench.dask_suite``, on the CPU: a LocalCluster of 1 and 2 processes, tiny graphs.
GPU variants run where GPUs answer."""

from __future__ import annotations

import functools
import json
import sys

import numpy as np
import pytest

pytest.importorskip("distributed")

from bench import cases as C  # noqa: E402
from bench import dask_case as DC  # noqa: E402
from bench import dask_suite as DS  # noqa: E402
from bench import generators as gen  # noqa: E402
from bench import runner  # noqa: E402

HAS_GPU = gen.cupy_if_available() is not None
CPU_IMPLS = {"in-process-cpu": 0, "dask-cpu-1": 1, "dask-cpu-2": 2, "dask-cpu-2-loop": 2}


@pytest.fixture(scope="module")
def dask_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("dask_out")
    res = runner.run("dask", "cpu", out=out, cache_dir=None, progress=False)
    yield res, out
    DC.close_clusters()


def test_cpu_dask_suite_checks_every_worker_count(dask_run):
    res, out = dask_run
    assert res.exit_code == runner.EXIT_OK, res.failures()
    suite = C.get_suite("dask", "cpu")
    assert {e.algorithm for e in suite.entries} == {"dask"}
    assert {c.case.params_dict["op"] for c in res.cases} == set(DS.OPS)
    assert len(res.cases) == sum(len(e.graphs) * len(e.params) for e in suite.entries)
    for c in res.cases:
        by = {r.impl: r for r in c.results}
        assert set(by) == set(CPU_IMPLS)
        for name, r in by.items():
            assert r.status == "ok", (c.case.case_id, name, r.error or r.check)
            assert r.check.startswith("vs result: ") and "exactly equal" in r.check
            assert r.metrics["workers"] == CPU_IMPLS[name]
            assert r.metrics["entries_per_worker"] == c.graph["nnz"] / max(CPU_IMPLS[name], 1)
            if CPU_IMPLS[name]:
                assert r.metrics["dist_setup_s"] > 0
            if c.case.params_dict["op"] == "bfs" and name in ("dask-cpu-1", "dask-cpu-2"):
                # which BFS ran: never the two-GPU kernel on CPU workers
                assert r.metrics["bfs_loop"] == {"dask-cpu-1": "one-device",
                                                 "dask-cpu-2": "bfs_rank_fused"}[name]
        assert c.summary["dask_cpu_1_over_in_process"] == pytest.approx(
            by["dask-cpu-1"].timing.median_ms / by["in-process-cpu"].timing.median_ms)
        assert c.summary["dask_cpu_2_strong_efficiency"] == pytest.approx(
            by["dask-cpu-1"].timing.median_ms / (2 * by["dask-cpu-2"].timing.median_ms))
        assert c.summary["dask_cpu_2_loop_over_spmd"] == pytest.approx(
            by["dask-cpu-2-loop"].timing.median_ms / by["dask-cpu-2"].timing.median_ms)
    data = json.loads((out / "latest.json").read_text())
    recs = [r for c in data["cases"] for r in c["results"]]
    assert recs and all("workers" in r["metrics"] for r in recs)  # the worker count, always


def test_a_wrong_distributed_result_is_a_disagreement(dask_run):
    def wrong(ctx):
        f = DC._dask("cpu", 2)(ctx)

        def run():
            op, v = f()
            d = DC._fetch((op, v)).astype(np.float64)
            d[ctx.inputs["source"]] += 1
            return op, d

        return run

    bad = C.Impl("dask-cpu-wrong", "cpu", "result", wrong, fetch=DC._fetch, engine=True)
    res = runner.run("dask", "cpu", graphs=["kron-6"], impls=["dask-cpu-wrong"],
                     extra_impls=[("dask", bad)], out=None, cache_dir=None, progress=False)
    assert res.exit_code == runner.EXIT_MISMATCH
    assert {r.status for c in res.cases for r in c.results} == {"mismatch"}


def test_weak_scaling_case_runs_its_worker_count_only(dask_run):
    g = runner._load_graph(gen.parse_graph_spec("kron-6"), "cpu", None)
    ctx = C.CaseContext(DC.DASK, g, {"op": "bfs", "workers": 2}, 0, {})
    DC._prepare(ctx)
    for name in ("in-process-cpu", "dask-cpu-1"):
        with pytest.raises(C.Unavailable):
            DC.DASK.impl(name).setup(ctx)
    fn = DC.DASK.impl("dask-cpu-2").setup(ctx)
    got = DC._fetch(fn())
    assert np.array_equal(got, DC._ref(ctx))
    assert DC.DASK.param_label({"op": "bfs", "workers": 2}) == "bfs,workers=2"


def test_fetch_numbers_components_by_least_vertex():
    least = np.array([0, 0, 2, 0, 4, 2])  # the ungathered result: each vertex's least vertex
    assert DC._fetch(("cc", least)).tolist() == [0, 0, 1, 0, 2, 1]
    assert DC._fetch(("cc", np.array([0, 0, 1, 0, 2, 1]))).tolist() == [0, 0, 1, 0, 2, 1]
    assert DC._fetch(("bfs", np.array([0, -1]))).tolist() == [0, -1]


def test_without_distributed_the_dask_impls_are_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import now fails
    res = runner.run("dask", "cpu", graphs=["kron-6"], out=None, cache_dir=None,
                     progress=False)
    assert res.exit_code == runner.EXIT_OK
    st = {(r.impl, r.status) for c in res.cases for r in c.results}
    assert st == {("in-process-cpu", "ok"), ("dask-cpu-1", "unavailable"),
                  ("dask-cpu-2", "unavailable"), ("dask-cpu-2-loop", "unavailable")}
    assert "dask.distributed is not installed" in res.cases[0].results[1].check


def test_standalone_script_on_the_cpu(capsys):
    """python -m bench.dask_suite on the CPU: its checks all hold, every row has workers."""
    rc = DS.main(["--device", "cpu", "--workers", "2", "--check-scale", "7",
                  "--base-scale", "7", "--strong-scale", "7", "--weak-scale", "7",
                  "--reps", "1", "--skip", "probe"])
    assert rc == 0
    out = capsys.readouterr().out
    rows = [json.loads(line[4:]) for line in out.splitlines() if line.startswith("ROW ")]
    checks = [r for r in rows if r["case"] == "check"]
    assert [c["workers"] for c in checks] == [1, 2]
    for c in checks:
        assert all(c[k] for k in ("bfs_levels", "bfs_parents_det", "bfs_push", "bfs_pull",
                                  "sssp_bitwise", "cc")), c
        assert c["pagerank_maxdiff"] < 1e-9
    timed = [r for r in rows if "seconds" in r]
    assert timed and all("workers" in r for r in timed)
    assert {r["case"] for r in timed} >= set(DS.OPS)


@pytest.mark.skipif(not HAS_GPU, reason="no GPU answers")
def test_gpu_dask_suite_small(tmp_path):
    res = runner.run("dask", "gpu", graphs=["kron-10"], out=None, cache_dir=None,
                     progress=False)
    try:
        assert res.exit_code == runner.EXIT_OK, res.failures()
        import cupy

        have = cupy.cuda.runtime.getDeviceCount()
        for c in res.cases:
            weak = c.params.get("workers")  # a weak-scaling point runs its worker count only
            for r in c.results:
                w = r.metrics.get("workers")
                count = int(r.impl.split("-")[2]) if r.impl.startswith("dask-") else None
                if weak is not None and count != weak:
                    assert r.status == "unavailable" and "weak" in r.check, (r.impl, r.check)
                elif r.impl.startswith("dask-gpu-") and count > have:
                    assert r.status == "unavailable" and "GPUs" in r.check
                else:
                    assert r.status == "ok", (r.impl, r.check)
                    assert w is not None
    finally:
        DC.close_clusters()


def test_chunked_build_is_the_whole_build(dask_run, monkeypatch):
    """The suites' default build (each worker draws its share of the edges) gives the matrix
    the old one does (each worker makes the whole graph), for the script and the case."""
    client = DC.client_for("cpu", 2)
    A, _ = DS.make_dist(client, functools.partial(DS.kron_chunk, 9, "cpu"), 512, 2, "cpu",
                        chunks=True)
    B, _ = DS.make_dist(client, functools.partial(DS.kron_graph, 9, "cpu"), 512, 2, "cpu")
    assert A.gather().isequal(B.gather()) and A.nvals == B.nvals > 0
    spec = gen.parse_graph_spec("urand-8", seed=2)
    C, _ = DC.make_dist(client, spec, 256, 2, "cpu")
    monkeypatch.setattr(DC, "BUILD", "whole")
    D, _ = DC.make_dist(client, spec, 256, 2, "cpu")
    assert C.gather().isequal(D.gather()) and C.nvals == D.nvals > 0
