"""The backend against the installed NetworkX where NetworkX 3.7 changed (its own tests, run
through the backend with NetworkX 3.7 on Python 3.12, failed here in session 28): the null
graph's eccentricity family (3.7: NetworkXPointlessConcept), ``floyd_warshall_numpy`` with a
negative self-loop (3.7: NetworkXUnbounded), ``bfs_predecessors`` (deprecated in 3.7: a
DeprecationWarning on its first step) and ``hits`` (3.7: ``method``, a power iteration by
default). Each compares with the installed NetworkX's own answer,
so the tests hold on NetworkX 3.6 (CI) and 3.7 alike."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

nx = pytest.importorskip("networkx")


def _outcome(f, *args, **kw):
    """(result, exception class, DeprecationWarning seen) of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res, err = f(*args, **kw), None
            if hasattr(res, "__next__"):
                res = list(res)
        except Exception as e:  # noqa: BLE001  (its class is what is compared)
            res, err = None, type(e)
    return res, err, any(issubclass(w.category, DeprecationWarning) for w in caught)


@pytest.mark.parametrize("name", ["eccentricity", "diameter", "radius", "periphery", "center"])
@pytest.mark.parametrize("usebounds", [False, True])
def test_null_graph_distance_measures_as_networkx(name, usebounds):
    f = getattr(nx, name)
    kw = {} if name == "eccentricity" else {"usebounds": usebounds}
    for G in (nx.Graph(), nx.DiGraph()):
        want = _outcome(f, G, **kw)
        got = _outcome(f, G, backend="semiring", **kw)
        # (NetworkX raises, but eccentricity answered {} until 3.6)
        assert want[1] is not None or (name == "eccentricity" and want[0] == {})
        assert got[1] is want[1] and got[0] == want[0], (name, G, got, want)


@pytest.mark.parametrize("loop", [-1.0, -0.5, 0.0, 2.0])
@pytest.mark.parametrize("directed", [True, False])
def test_floyd_warshall_numpy_with_a_self_loop_as_networkx(loop, directed):
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_weighted_edges_from([(0, 1, 3.0), (1, 2, 1.0), (2, 0, 2.0), (1, 1, loop)])
    want = _outcome(nx.floyd_warshall_numpy, G)
    got = _outcome(nx.floyd_warshall_numpy, G, backend="semiring")
    assert got[1] is want[1], (got, want)
    if want[1] is None:
        np.testing.assert_array_equal(got[0], want[0])


def test_bfs_predecessors_warns_as_networkx():
    G = nx.path_graph(5)
    want = _outcome(nx.bfs_predecessors, G, 0)
    got = _outcome(nx.bfs_predecessors, G, 0, backend="semiring")
    assert got == want
    assert dict(got[0]) == {1: 0, 2: 1, 3: 2, 4: 3}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("method", [None, "power_iteration", "svd", "bogus"])
def test_hits_as_networkx(seed, method):
    """3.7's hits takes ``method`` (its default a power iteration from uniform hubs, which the
    backend runs on the engine step for step: the same values to rounding); before 3.7 there
    is no such keyword, and NetworkX's TypeError is the backend's too."""
    G = nx.gnp_random_graph(30, 0.15, seed=seed, directed=True)
    kw = {} if method is None else {"method": method}
    want = _outcome(nx.hits, G, **kw)
    got = _outcome(nx.hits, G, backend="semiring", **kw)
    if want[1] is not None:
        # (before 3.7 a method= the signature lacks: NetworkX's TypeError, or its dispatcher's
        # refusal of an argument the backend's signature lacks too)
        allowed = (want[1], NotImplementedError) if method is not None else (want[1],)
        assert got[1] is not None and issubclass(got[1], allowed), (got, want)
        return
    assert got[1] is None, got
    for g, w in zip(got[0], want[0]):
        assert list(g) == list(w)
        np.testing.assert_allclose([g[v] for v in w], list(w.values()), rtol=1e-9, atol=1e-12)


# ------------------------------------------------------------ session 29: more of 3.7's changes
def test_closeness_centrality_takes_the_installed_signature():
    """3.7's closeness_centrality takes ``sp=`` (the dispatcher passes it, None too: the
    backend's signature without it refused every call); precomputed distances are
    NetworkX's to read."""
    from nx_semiring import centrality as nxc

    G = nx.karate_club_graph()
    assert nx.closeness_centrality(G, backend="semiring") == pytest.approx(
        nx.closeness_centrality(G), rel=1e-15)
    sp = dict(nx.all_pairs_shortest_path_length(G))
    if nxc.NX_RELEASE >= (3, 7):
        with pytest.raises(NotImplementedError, match="sp="):
            nxc.closeness_centrality(G, sp=sp)
    else:
        with pytest.raises(TypeError):
            nxc.closeness_centrality(G, sp=sp)


def test_centroid_is_the_dispatch_name_from_3_7():
    """3.7 renamed barycenter to centroid (3.6's centroid is the tree centroid, which the
    backend does not have): the backend lists the installed release's name."""
    import nx_semiring

    G = nx.cycle_graph(6)
    G.add_edge(0, 3)
    new = nx_semiring.NX_RELEASE >= (3, 7)
    assert ("centroid" in nx_semiring.FUNCTIONS) is new
    assert ("barycenter" in nx_semiring.FUNCTIONS) is not new
    f = nx.centroid if new else nx.barycenter
    assert f(G, backend="semiring") == f(G) == [0, 3]


def test_modularity_of_weights_summing_to_zero_as_networkx():
    """3.7: 0 where the weights sum to 0 (before, ZeroDivisionError)."""
    G = nx.Graph([(0, 1, {"weight": 0}), (1, 2, {"weight": 0})])
    for parts in ([{0, 1, 2}], [{0}, {1, 2}]):
        want = _outcome(nx.community.modularity, G, parts)
        got = _outcome(nx.community.modularity, G, parts, backend="semiring")
        assert got == want and type(got[0]) is type(want[0])


def test_flow_capacities_of_a_conversion_with_every_attribute():
    """3.7's flow functions preserve the edge attributes: the dispatcher converts with every
    attribute defaulting to 1, where a missing capacity is infinite; the backend reads the
    kept dicts again with that default (before: it refused every such call)."""
    from nx_semiring import paths as nxp
    from nx_semiring.graph import from_networkx

    G = nx.DiGraph()
    G.add_edge("x", "a", capacity=3, colour="red")
    G.add_edge("a", "y")  # no capacity: infinite
    G.add_edge("x", "y", capacity=2)
    g = from_networkx(G, preserve_edge_attrs=True)
    assert g.defaults["capacity"] == 1
    assert nxp.maximum_flow_value(g, "x", "y") == nx.maximum_flow_value(G, "x", "y") == 5
    assert nxp.minimum_cut(g, "x", "y") == nx.minimum_cut(G, "x", "y")
    assert g.defaults["capacity"] == 1  # (the conversion itself is unchanged)
    G.add_edge("y", "z")
    with pytest.raises(nx.NetworkXUnbounded):
        nxp.maximum_flow_value(from_networkx(G, preserve_edge_attrs=True), "a", "z")


@pytest.mark.parametrize("directed", [True, False])
def test_floyd_warshall_of_python_bool_weights_is_networkx(directed):
    """NetworkX keeps an edge's own True as its distance (its repr is not 1's): left to it."""
    from nx_semiring import paths as nxp
    from nx_semiring.graph import from_networkx

    G = (nx.DiGraph if directed else nx.Graph)([(0, 1, {"weight": True}),
                                                 (1, 2, {"weight": True})])
    assert repr(nx.floyd_warshall(G)[0][1]) == "True"
    g = from_networkx(G, edge_attrs={"weight": 1})
    for f in (nxp.floyd_warshall, nxp.floyd_warshall_predecessor_and_distance):
        with pytest.raises(NotImplementedError, match="Python bool"):
            f(g)
    G.add_edge(2, 3, weight=2)  # True beside other ints
    assert from_networkx(G, edge_attrs={"weight": 1}).bools == {"weight"}
    H = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": 2})])  # ints alone
    assert not from_networkx(H, edge_attrs={"weight": 1}).bools


@pytest.mark.parametrize("directed", [True, False])
def test_floyd_warshall_negative_cycles_as_networkx(directed):
    """3.7 raises NetworkXUnbounded on a negative cycle (any negative undirected edge is one);
    earlier releases answer their own negative diagonal, which the backend leaves to them."""
    from nx_semiring import NX_RELEASE
    from nx_semiring import paths as nxp
    from nx_semiring.graph import from_networkx

    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_weighted_edges_from([(0, 1, 2), (1, 2, -3), (2, 0, 0)])
    g = from_networkx(G, edge_attrs={"weight": 1})
    for f in ("floyd_warshall", "floyd_warshall_predecessor_and_distance"):
        want = _outcome(getattr(nx, f), G)
        if NX_RELEASE >= (3, 7):
            assert want[1] is nx.NetworkXUnbounded
            assert _outcome(getattr(nxp, f), g)[1] is nx.NetworkXUnbounded
        else:
            with pytest.raises(NotImplementedError, match="negative"):
                getattr(nxp, f)(g)


def _tarjan_zwick(indptr, indices, exits=None):
    """NetworkX 3.7's strongly_connected_components transcribed over a CSR (its code with
    lists for the graph): the components in its order, each as the list its set is filled
    from. The reference for the compiled replica on any installed NetworkX."""
    n = len(indptr) - 1
    adj = [indices[indptr[v]:indptr[v + 1]].tolist() for v in range(n)]
    lowlink, found, out = {}, set(), []
    dfs_v, dfs_it, dfs_lead, comp_stack = [], [], [], []
    index = 0
    for source in range(n):
        if source in lowlink:
            continue
        index += 1
        root_low = index
        lowlink[source] = index
        dfs_v.append(source)
        dfs_it.append(iter(adj[source]))
        dfs_lead.append(True)
        while dfs_v:
            v = dfs_v[-1]
            for w in dfs_it[-1]:
                if w not in lowlink:
                    index += 1
                    lowlink[w] = index
                    dfs_v.append(w)
                    dfs_it.append(iter(adj[w]))
                    dfs_lead.append(True)
                    break
                if w not in found and lowlink[v] > lowlink[w]:
                    dfs_lead[-1] = False
                    lowlink[v] = lowlink[w]
                    if lowlink[v] == root_low and index == n:
                        out.append(list(comp_stack) + list(dfs_v))
                        if exits is not None:
                            exits.append(len(out))
                        return out
            else:
                dfs_v.pop()
                dfs_it.pop()
                if dfs_lead.pop():
                    scc = [v]
                    while comp_stack and lowlink[comp_stack[-1]] >= lowlink[v]:
                        scc.append(comp_stack.pop())
                    found.update(scc)
                    out.append(scc)
                else:
                    comp_stack.append(v)
                    parent = dfs_v[-1]
                    if lowlink[parent] > lowlink[v]:
                        dfs_lead[-1] = False
                        lowlink[parent] = lowlink[v]
    return out


@pytest.mark.parametrize("seed", range(40))
def test_tarjan_zwick_replica_is_networkx_3_7(seed):
    from nx_semiring import NX_RELEASE
    from semiring.backend.cpu import compiled

    if not compiled.ENABLED:
        pytest.skip("the compiled replica needs Numba")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    m = int(rng.integers(0, 3 * n))
    # strongly connected ones too (a cycle through every vertex: the early exit)
    edges = {(int(u), int(v)) for u, v in rng.integers(0, n, size=(m, 2))}
    if seed % 3 == 0:
        perm = rng.permutation(n)
        edges |= {(int(perm[i]), int(perm[(i + 1) % n])) for i in range(n)}
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(sorted(edges, key=lambda e: rng.random()))
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(G._adj[v]) for v in range(n)], out=indptr[1:])
    indices = np.array([w for v in range(n) for w in G._adj[v]], dtype=np.int64)
    members, starts = compiled.tarjan(indptr, indices, "tarjan_zwick")
    got = [members[a:b].tolist() for a, b in zip(starts[:-1], starts[1:])]
    assert got == _tarjan_zwick(indptr, indices)
    if NX_RELEASE >= (3, 7):
        assert [set(c) for c in got] == list(nx.strongly_connected_components(G))
    with pytest.raises(ValueError, match="variant"):
        compiled.tarjan(indptr, indices, "kosaraju")


def test_tarjan_zwick_early_exit():
    """A cycle through every vertex, closed last: the search's early exit, whose set takes
    the parked vertices first and then the search path (NetworkX's own order: 3.6's was
    the root's first)."""
    from semiring.backend.cpu import compiled

    if not compiled.ENABLED:
        pytest.skip("the compiled replica needs Numba")
    # 0 → 3 → 0 finishes first and parks 3; 0 → 1 → 2 → 0 then links back to the root with
    # every vertex reached: the set is {3} then the path 0, 1, 2
    indptr = np.array([0, 2, 3, 4, 5])
    indices = np.array([3, 1, 2, 0, 0])
    exits = []
    want = _tarjan_zwick(indptr, indices, exits)
    assert exits and len(want) == 1
    members, starts = compiled.tarjan(indptr, indices, "tarjan_zwick")
    assert [members[a:b].tolist() for a, b in zip(starts[:-1], starts[1:])] == want
    assert want == [[3, 0, 1, 2]]


def test_is_aperiodic_of_an_undirected_graph_as_networkx():
    """3.7 refuses undirected graphs by its not_implemented_for decorator
    (NetworkXNotImplemented), earlier releases by NetworkXError."""
    from nx_semiring import recognition as nxr
    from nx_semiring.graph import from_networkx

    G = nx.cycle_graph(3)
    want = _outcome(nx.is_aperiodic, G)
    got = _outcome(nxr.is_aperiodic, from_networkx(G))
    assert want[1] is not None and got[1] is want[1]


@pytest.mark.parametrize("case", ["diverges", "creeps"])
def test_katz_centrality_numpy_refuses_a_hopeless_iteration_early(case):
    """NetworkX's dense solve answers where the engine's iteration diverges (α above 1/λ) or
    creeps (α λ = 0.99999: a million iterations); the backend refused only after its whole
    budget (100 000 iterations: 1.3 s on the 2-core host, over 10 s on the GPU for 12
    nodes), and now at its first watch (iteration 2 · NUMPY_WATCH)."""
    from nx_semiring import centrality as nxc
    from nx_semiring.graph import from_networkx

    G = nx.complete_graph(12)
    if case == "diverges":
        G.add_edges_from((v, v) for v in G)  # λ = 12: α λ = 1.2
        alpha = 0.1
    else:
        alpha = 0.99999 / 11
    assert len(nx.katz_centrality_numpy(G, alpha=alpha)) == 12  # NetworkX answers
    with pytest.raises(NotImplementedError,
                       match=rf"iteration {2 * nxc.NUMPY_WATCH}\b") as err:
        nxc.katz_centrality_numpy(from_networkx(G), alpha=alpha)
    assert ("grew" if case == "diverges" else "shrinks") in str(err.value)


def test_numpy_centralities_still_answer_slow_but_converging_iterations():
    """A ratio near but below the watch's reach (α λ = 0.99: ~3 000 iterations) converges
    and is answered, to NetworkX's solve."""
    from nx_semiring import centrality as nxc
    from nx_semiring.graph import from_networkx

    G = nx.complete_graph(12)
    alpha = 0.99 / 11
    got = nxc.katz_centrality_numpy(from_networkx(G), alpha=alpha)
    want = nx.katz_centrality_numpy(G, alpha=alpha)
    np.testing.assert_allclose([got[v] for v in G], [want[v] for v in G], rtol=1e-9)
    H = nx.barbell_graph(6, 1)  # a small spectral gap for the eigenvector iteration
    got = nxc.eigenvector_centrality_numpy(from_networkx(H))
    want = nx.eigenvector_centrality_numpy(H)
    np.testing.assert_allclose([got[v] for v in H], [want[v] for v in H], rtol=1e-7)
