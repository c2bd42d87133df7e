"""The ``networkx`` bench case (bench/networkx_case.py): pure NetworkX against the
``nx_semiring`` backend, on tiny graphs on the CPU (on the GPU too where one answers)."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

pytest.importorskip("networkx")

from bench import cases as C  # noqa: E402
from bench import generators as gen  # noqa: E402
from bench import networkx_case as NXC  # noqa: E402
from bench import runner  # noqa: E402

HAS_GPU = gen.cupy_if_available() is not None
ALGS = {"bfs", "sssp", "pagerank", "components", "bc", "triangles"}


def _run(device="cpu", **kw):
    kw.setdefault("out", None)
    return runner.run("tiny", device, algorithms=["networkx"], cache_dir=None, progress=False,
                      **kw)


@pytest.fixture(scope="module")
def nx_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("nx_out")
    return _run(out=out), out


def test_every_algorithm_checked_with_phases(nx_run):
    res, out = nx_run
    assert res.exit_code == runner.EXIT_OK, res.failures()
    suite = C.get_suite("tiny", "cpu")
    (entry,) = [e for e in suite.entries if e.algorithm == "networkx"]
    assert {p["alg"] for p in entry.params} == ALGS
    assert len(res.cases) == len(entry.graphs) * len(ALGS)
    for c in res.cases:
        by = {r.impl: r for r in c.results}
        assert set(by) == {"nx-semiring-cpu", "networkx"}
        assert all(r.status == "ok" for r in by.values()), [(r.impl, r.check) for r in c.results]
        assert by["networkx"].check.startswith("vs networkx: ")
        assert len(by["networkx"].timing.times_ms) == 1  # NetworkX: one call, the reference
        m = by["nx-semiring-cpu"].metrics
        for key in ("convert_s", "first_s", "networkx_s", "speedup_once", "speedup_warm"):
            assert m[key] > 0, (c.case.case_id, key, m)
        assert m["networkx_s"] * 1e3 == pytest.approx(by["networkx"].timing.median_ms)
        assert m["speedup_warm"] == pytest.approx(
            by["networkx"].timing.median_ms / by["nx-semiring-cpu"].timing.median_ms)
        assert set(c.summary) == {"nx_semiring_cpu_speedup_once", "nx_semiring_cpu_speedup_warm",
                                  "nx_semiring_cpu_phases"}
        assert c.summary["nx_semiring_cpu_phases"].startswith(f"NetworkX {m['networkx_s']:.4g} s")
        assert c.case_metrics["nx_work"] > 0 and c.case_metrics["entries"] > 0
    bc = [c for c in res.cases if c.params["alg"] == "bc"]
    assert bc and all(c.case_metrics["bc_sources"] == min(64, c.graph["n"]) for c in bc)
    data = json.loads((out / "latest.json").read_text())
    recs = [r for c in data["cases"] for r in c["results"]]
    assert recs and all(r["metrics"]["rate_g"] > 0 for r in recs)
    assert all("convert_s" in r["metrics"] for r in recs if r["engine"])


def test_wrong_backend_is_a_disagreement():
    """A backend result that differs from NetworkX's is reported (exit code 1): the check can
    fail, for exact (levels, components) and close (PageRank) results alike."""

    def wrong(ctx):
        f = NXC._backend("cpu")(ctx)

        def run():
            out = f()
            if isinstance(out, list):  # components: merge the first two
                return [out[0] | out[1]] + out[2:] if len(out) > 1 else [set()] + out
            out = dict(out)
            v = next(iter(out))
            out[v] = out[v] + 0.5
            return out

        return run

    bad = C.Impl("nx-semiring-wrong", "cpu", "networkx", wrong, fetch=NXC._normalize,
                 engine=True)
    res = _run(graphs=["kron-6"], extra_impls=[("networkx", bad)],
               impls=["nx-semiring-wrong", "networkx"])
    assert res.exit_code == runner.EXIT_MISMATCH
    st = {c.params["alg"]: {r.impl: r.status for r in c.results} for c in res.cases}
    assert all(s == {"nx-semiring-wrong": "mismatch", "networkx": "ok"} for s in st.values()), st


def test_compare_messages():
    ok, msg = NXC._compare({0: 1, 1: 2}, {0: 1, 1: 2})
    assert ok and "2 entries equal" in msg
    ok, msg = NXC._compare({0: 1.0, 1: 2.0}, {0: 1.0, 1: 2.5})
    assert not ok and "1 of 2 entries differ" in msg and "[1] got 2.0 expected 2.5" in msg
    ok, msg = NXC._compare({0: 1}, {0: 1, 1: 2})
    assert not ok and "1 missing" in msg
    ok, _ = NXC._compare({0: 0.25 + 5e-7}, {0: 0.25})
    assert ok  # floats: within 1e-6, as nx_semiring.bench._check
    nan = float("nan")
    assert NXC._compare({0: nan, 1: 0.5}, {0: nan, 1: 0.5})[0]  # NaN where NetworkX has NaN
    ok, msg = NXC._compare({0: nan, 1: 0.5}, {0: 0.0, 1: 0.5})
    assert not ok and "1 of 2 entries differ" in msg
    comps = NXC._normalize([{0, 1}, {2}])
    assert NXC._compare(NXC._normalize([{2}, {1, 0}]), comps)[0]
    ok, msg = NXC._compare(NXC._normalize([{0, 1, 2}]), comps)
    assert not ok and "1 components, NetworkX has 2" in msg


def test_over_the_work_limit_every_impl_is_skipped_with_the_reason(monkeypatch):
    for name in ("NX_MAX_WORK", "NX_BC_WORK", "NX_TRIANGLE_WORK"):
        monkeypatch.setattr(NXC, name, 100)
    res = _run(graphs=["kron-6"])
    assert res.exit_code == runner.EXIT_OK
    for c in res.cases:
        name = NXC._limit(c.params["alg"])[0]
        assert f"{name} = 100" in c.case_metrics["skipped"]
        assert [r.status for r in c.results] == ["unavailable", "unavailable"]
        assert all("would visit about" in r.check for r in c.results)


def test_bc_sample_shrinks_to_the_work_limit(monkeypatch):
    g = runner._load_graph(gen.parse_graph_spec("kron-7"), "cpu", None)
    monkeypatch.setattr(NXC, "NX_BC_WORK", 5 * g.nnz + 3)
    monkeypatch.setattr(NXC, "NX_TRIANGLE_WORK", 5 * g.nnz)
    res = _run(graphs=["kron-7"])
    bc = [c for c in res.cases if c.params["alg"] == "bc"][0]
    assert bc.case_metrics["bc_sources"] == 5 and bc.case_metrics["nx_work"] == 5 * g.nnz
    assert [r.status for r in bc.results] == ["ok", "ok"], [r.check for r in bc.results]
    tri = [c for c in res.cases if c.params["alg"] == "triangles"][0]
    assert tri.case_metrics["nx_work"] > NXC.NX_TRIANGLE_WORK  # a dense core: skipped
    assert {r.status for r in tri.results} == {"unavailable"}


def test_triangle_work_is_the_sum_of_min_degrees():
    g = runner._load_graph(gen.parse_graph_spec("kron-6"), "cpu", None)
    ctx = C.CaseContext(NXC.NETWORKX, g, {"alg": "triangles"}, 0, {})
    NXC._prepare(ctx)
    H = g.host.tocoo()
    deg = np.diff(g.host.indptr)
    want = sum(min(deg[i], deg[j]) for i, j in zip(H.row.tolist(), H.col.tolist()))
    assert ctx.case_metrics["nx_work"] == want > 0


def test_without_networkx_the_case_is_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "networkx", None)  # import now fails
    res = _run(graphs=["kron-6"])
    assert res.exit_code == runner.EXIT_OK
    assert {r.status for c in res.cases for r in c.results} == {"unavailable"}
    assert "networkx is not installed" in res.cases[0].results[0].check


@pytest.mark.skipif(not HAS_GPU, reason="no GPU answers")
def test_tiny_gpu_networkx_case():
    res = _run("gpu")
    assert res.exit_code == runner.EXIT_OK, res.failures()
    recs = [r for c in res.cases for r in c.results]
    assert {r.impl for r in recs} == {"nx-semiring-gpu", "nx-semiring-cpu", "networkx"}
    assert all(r.status == "ok" for r in recs)
