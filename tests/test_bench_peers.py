"""Tests of the analytics bench cases (bench/analytics_case.py) and of GAP as a bench peer
(bench/peers_gap.py): GAP's serialized graph format, its output parsing, the host references
(components up to renaming, PageRank, Brandes, triangle counts) against NetworkX, and the
cases end to end on small graphs. The GAP runs themselves need a gapbs checkout: set
``SEMIRING_TEST_GAP=PATH`` (built with make into a temporary cache; skipped otherwise).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from bench import analytics_case as AC
from bench import cases as C
from bench import generators as gen
from bench import peers_gap as G
from bench import runner

GAP_DIR = os.environ.get("SEMIRING_TEST_GAP")
needs_gap = pytest.mark.skipif(not GAP_DIR, reason="SEMIRING_TEST_GAP (a gapbs checkout) "
                                                   "not set")


def _random_graph(n, density, seed, *, isolated=0):
    """A symmetric 0/1 CSR without self-loops; the last ``isolated`` vertices have no edge."""
    rng = np.random.default_rng(seed)
    M = sp.random(n, n, density=density, random_state=rng, format="csr")
    M = ((M + M.T) > 0).astype(np.float32).tolil()
    M.setdiag(0)
    if isolated:
        M[n - isolated:, :] = 0
        M[:, n - isolated:] = 0
    M = M.tocsr()
    M.eliminate_zeros()
    M.sort_indices()
    return M


def _nx():
    return pytest.importorskip("networkx")


@pytest.fixture
def gap_state():
    """Restores GAP's configuration (and whether its impls are registered) after the test."""
    saved = dict(G._state)
    registered = any(i.name == "gap" for i in C.ALGORITHMS["bfs"].impls)
    yield
    G._state.clear()
    G._state.update(saved)
    if not registered:
        G.unregister()


# --------------------------------------------------------------------------------------------
# GAP's files and output


@pytest.mark.parametrize("directed", [False, True])
def test_serialized_graph_roundtrip(tmp_path, directed):
    A = _random_graph(40, 0.1, 1)
    if directed:
        A = sp.triu(A).tocsr()
    A.data = np.arange(1, A.nnz + 1, dtype=np.float32)
    T = A.T.tocsr()
    T.sort_indices()
    kw = dict(directed=directed, t_indptr=T.indptr, t_indices=T.indices,
              t_data=T.data.astype(np.int32))
    sg = G.write_serialized(tmp_path / "g.sg", A.indptr, A.indices, **kw)
    wsg = G.write_serialized(tmp_path / "g.wsg", A.indptr, A.indices, A.data.astype(np.int32),
                             **kw)
    # GAP's layout: bool, int64 m, int64 n, int64 offsets[n+1], neighbours (x2 if directed)
    per = 4 if sg.suffix == ".sg" else 8
    assert sg.stat().st_size == 17 + (1 + directed) * (8 * 41 + 4 * A.nnz)
    assert wsg.stat().st_size == 17 + (1 + directed) * (8 * 41 + 8 * A.nnz)
    assert per == 4
    for path, weighted in ((sg, False), (wsg, True)):
        d, indptr, indices, w = G.read_serialized(path)
        assert d == directed
        np.testing.assert_array_equal(indptr, A.indptr)
        np.testing.assert_array_equal(indices, A.indices)
        if weighted:
            np.testing.assert_array_equal(w, A.data.astype(np.int32))
        else:
            assert w is None


def test_gap_graph_specs():
    s = gen.parse_graph_spec("gap-kron-22")
    assert (s.kind, s.scale, s.edge_factor, s.label) == ("gap-kron", 22, 16, "gap-kron-22")
    s = gen.parse_graph_spec("gap-urand-16-k8", seed=5)
    assert (s.kind, s.scale, s.edge_factor, s.label) == ("gap-urand", 16, 8, "gap-urand-16-k8")
    assert s.seed == 0  # GAP's generator has its own seed
    assert s.cache_key() is None and s.params()["scale"] == 16
    assert gen.parse_graph_spec("kron-10").label == "kron-10"
    with pytest.raises(ValueError):
        gen.parse_graph_spec("gap-road-3")


GAP_TC_OUTPUT = """Read Time:           0.00014
Graph has 1024 nodes and 10496 undirected edges for degree: 10
Relabel:             0.00030
Trial Time:          0.00073
Verification:           PASS
Verification Time:   0.00971
Relabel:             0.00027
Trial Time:          0.00072
74720 triangles
Verification:           FAIL
Verification Time:   0.00957
Average Time:        0.00073
"""


def test_parse_gap_output_and_compare():
    run = G.parse_output("tc", GAP_TC_OUTPUT, G.GapRun("tc", ["tc"]))
    assert run.trial_s == [0.00073, 0.00072] and run.average_s == 0.00073
    assert run.verifications == ["PASS", "FAIL"] and run.facts == {"triangles": 74720}
    ok, msg = G._compare(run, {"triangles": 74720})
    assert not ok and "FAIL" in msg  # one failed verification fails the check
    run.verifications = ["PASS", "PASS"]
    assert G._compare(run, {"triangles": 74720})[0]
    ok, msg = G._compare(run, {"triangles": 74721})
    assert not ok and "74720 != reference 74721" in msg
    run.verify = False
    assert G._compare(run, {"triangles": 74720})[0]
    assert not G._compare(run, {})[0]  # nothing checked is not a pass


def test_gap_unavailable_without_a_checkout(tmp_path, gap_state):
    G.configure(None)
    assert not any(i.name == "gap" for a in C.ALGORITHMS.values() for i in a.impls)
    assert "not configured" in G.status()
    with pytest.raises(C.Unavailable, match="GAP not configured"):
        G.build()
    G.configure(tmp_path, suites=False)
    with pytest.raises(C.Unavailable, match="not a gapbs checkout"):
        G.build()
    for name in G.GAP_ALGORITHMS:
        assert C.ALGORITHMS[name].impl("gap").reference == "gap"
    res = runner.run("quick", "cpu", algorithms=["cc"], graphs=["kron-8"],
                     impls=["gap", "scipy-cc"], out=None, cache_dir=None, progress=False)
    st_ = {r.impl: (r.status, r.check) for r in res.cases[0].results}
    assert st_["scipy-cc"][0] == "ok"
    assert st_["gap"][0] == "unavailable" and "not a gapbs checkout" in st_["gap"][1]
    assert res.exit_code == runner.EXIT_OK
    G.configure(None)
    assert not any(i.name == "gap" for i in C.ALGORITHMS["cc"].impls)


# --------------------------------------------------------------------------------------------
# host references against NetworkX


def test_compare_partition():
    ref = AC.canonical_labels([5, 5, 2, 9, 2])
    np.testing.assert_array_equal(ref, [0, 0, 1, 2, 1])
    assert AC.compare_partition(np.array([7, 7, 1, 0, 1]), ref)[0]
    ok, msg = AC.compare_partition(np.array([7, 7, 7, 0, 7]), ref)  # two merged
    assert not ok and "components against" in msg
    assert not AC.compare_partition(np.array([1, 2, 3, 4, 5]), ref)[0]  # split
    assert not AC.compare_partition(np.zeros(4), ref)[0]


@given(n=st.integers(1, 30), density=st.floats(0, 0.3), seed=st.integers(0, 2**16),
       isolated=st.integers(0, 3))
def test_pagerank_reference_matches_networkx(n, density, seed, isolated):
    nx = _nx()
    A = _random_graph(n, density, seed, isolated=min(isolated, n))
    x, _ = AC.pagerank_power(A, tol=1e-13)
    pr = nx.pagerank(nx.from_scipy_sparse_array(A), alpha=0.85, tol=1e-14, max_iter=10000)
    want = np.array([pr[i] for i in range(n)])
    assert np.abs(x - want).sum() < 1e-9
    assert AC.compare_l1(1e-6)(x, want)[0]
    assert not AC.compare_l1(1e-6)(x + 1e-3, want)[0]


@given(n=st.integers(2, 25), density=st.floats(0, 0.4), seed=st.integers(0, 2**16),
       k=st.integers(1, 5))
def test_brandes_reference_matches_networkx(n, density, seed, k):
    nx = _nx()
    A = _random_graph(n, density, seed)
    rng = np.random.default_rng(seed)
    sources = np.sort(rng.choice(n, min(k, n), replace=False))
    got = AC.brandes_dependencies(A, sources)
    bc = nx.betweenness_centrality_subset(nx.from_scipy_sparse_array(A), list(sources),
                                          list(range(n)), normalized=False)
    want = 2 * np.array([bc[i] for i in range(n)])  # NetworkX halves undirected scores
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    cmp = AC.compare_scaled(1e-6)
    ref = {"bc": want, "sources": sources}
    assert cmp(0.5 * got, ref)[0]
    # NetworkX 3.6's rescaling of a sample: N/(k-1) on the sources, N/k elsewhere
    if k > 1 and n > 2:
        nxs = nx.betweenness_centrality(nx.from_scipy_sparse_array(A), k=len(sources),
                                        normalized=False)  # other sources: only the form
        assert len(nxs) == n
        two = got * (n - 1) / len(sources)
        two[sources] = got[sources] * (n - 1) / (len(sources) - 1)
        assert cmp(two, ref)[0]
    others = np.setdiff1d(np.arange(n), sources)
    if (want[others] > 0).sum() >= 2:  # (one nonzero score: any scale fits it)
        bad = got.copy()
        bad[others[np.argmax(want[others])]] *= 1.5
        assert not cmp(bad, ref)[0]
        assert not cmp(-got, ref)[0]


def test_brandes_on_a_path_and_a_star():
    path = sp.diags([np.ones(4), np.ones(4)], [-1, 1], shape=(5, 5), format="csr")
    # from vertex 0 on the path 0-1-2-3-4: vertex i lies on the paths to i+1..4
    np.testing.assert_array_equal(AC.brandes_dependencies(path, [0]), [0, 3, 2, 1, 0])
    star = sp.csr_matrix((np.ones(6), ([0, 0, 0, 1, 2, 3], [1, 2, 3, 0, 0, 0])), shape=(4, 4))
    np.testing.assert_array_equal(AC.brandes_dependencies(star, [1]), [2, 0, 0, 0])


@given(n=st.integers(1, 40), density=st.floats(0, 0.5), seed=st.integers(0, 2**16))
def test_triangle_reference_matches_networkx(n, density, seed):
    nx = _nx()
    A = _random_graph(n, density, seed)
    U = AC.degree_oriented(A)
    assert U.nnz * 2 == A.nnz
    want = sum(nx.triangles(nx.from_scipy_sparse_array(A)).values()) // 3
    assert AC.scipy_triangles(U) == want
    assert AC.scipy_triangles(U, block_products=1) == want  # one row a block
    assert AC.oriented_wedges(U) >= want
    assert AC.graph_oriented_wedges(A) == AC.oriented_wedges(U)


# --------------------------------------------------------------------------------------------
# the cases end to end


def test_analytics_cases_end_to_end(device, tmp_path):
    pytest.importorskip("networkx")
    impls = ["scipy-cc", "networkx-cc", "scipy-pagerank", "networkx-pagerank", "networkx-bc",
             "scipy-tc", "networkx-tc", f"semiring-{device}"]
    res = runner.run("quick", device, algorithms=["cc", "pagerank", "bc", "msbc", "tc"],
                     graphs=["kron-8", "grid-6x7"], impls=impls, out=tmp_path,
                     cache_dir=None, progress=False)
    assert {c.case.algorithm for c in res.cases} == {"cc", "pagerank", "bc", "msbc", "tc"}
    for c in res.cases:
        for r in c.results:
            if r.engine and r.status == "unavailable":
                assert "not in this checkout" in r.check  # the algorithm has not landed
                continue
            assert r.status == "ok", (c.case.case_id, r.impl, r.status, r.error or r.check)
            assert r.metrics["geps"] > 0
    assert res.exit_code == runner.EXIT_OK
    assert (tmp_path / "latest.md").read_text().count("## ") >= 5


def test_a_wrong_answer_is_caught(tmp_path):
    def wrong_cc(ctx):
        n = ctx.graph.n
        return lambda: np.arange(n)  # every vertex alone

    def wrong_tc(ctx):
        return lambda: 1

    res = runner.run("quick", "cpu", algorithms=["cc", "tc"], graphs=["kron-8"],
                     impls=["wrong"], out=None, cache_dir=None, progress=False,
                     extra_impls=[("cc", C.Impl("wrong", "cpu", "labels", wrong_cc)),
                                  ("tc", C.Impl("wrong", "cpu", "triangles", wrong_tc,
                                                fetch=AC._tc_fetch))])
    assert [r.status for c in res.cases for r in c.results] == ["mismatch", "mismatch"]
    assert res.exit_code == runner.EXIT_MISMATCH


@needs_gap
def test_gap_peer_end_to_end(tmp_path, monkeypatch, gap_state):
    monkeypatch.setenv("SEMIRING_BENCH_GAP_CACHE", str(tmp_path / "gap"))
    G.configure(GAP_DIR, suites=False)
    res = runner.run("quick", "cpu", algorithms=["bfs", "sssp", "cc", "pagerank", "bc",
                                                 "msbc", "tc"],
                     graphs=["kron-8", "gap-kron-8", "gap-urand-8"],
                     impls=["gap", "scipy-cc", "scipy-tc"], out=None,
                     cache_dir=None, progress=False)
    for c in res.cases:
        for r in c.results:
            assert r.status == "ok", (c.case.case_id, r.impl, r.error or r.check)
            if r.impl == "gap":
                assert "PASS" in r.check and r.timing.times_ms, r.check
    # GAP's converter output read by the engine is the graph GAP runs on: the .sg written
    # from it holds the same topology as the .wsg
    spec = gen.parse_graph_spec("gap-kron-8")
    wsg = G.gap_graph_file(spec)
    A = G.generate_gap_graph(spec, xp=np)
    _, indptr, indices, w = G.read_serialized(wsg)
    _, indptr2, indices2, _ = G.read_serialized(wsg.with_suffix(".sg"))
    np.testing.assert_array_equal(indptr, indptr2)
    np.testing.assert_array_equal(indices, indices2)
    np.testing.assert_array_equal(A.data, w)
    assert (A != A.T).nnz == 0 and w.min() >= 1 and w.max() <= 255
