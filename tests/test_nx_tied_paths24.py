"""Weighted shortest paths and predecessor lists where shortest paths tie (session 24): the
backend answers them by NetworkX's own Dijkstra heap compiled (``compiled.dijkstra_order``
with ``tree`` / ``preds``: the parent of a vertex's last strictly improving push, its
predecessor lists' reset/append events), NetworkX's exact answers, dict orders included.
Each backend function is called directly (a refusal raises here instead of falling back to
NetworkX) and compared with NetworkX's own result on graphs with many ties."""

import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_semiring import algorithms as A  # noqa: E402
from nx_semiring import paths as P  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402
from semiring.backend.cpu import compiled  # noqa: E402

needs_numba = pytest.mark.skipif(not compiled.ENABLED, reason="needs Numba (the cpu extra)")

CUTOFFS = [None, 0, 1, 2, 2.5, 4]


def _ordered(x):
    """``x`` with every dict as its item list (dict order compared too)."""
    if isinstance(x, dict):
        return [(k, _ordered(v)) for k, v in x.items()]
    if isinstance(x, (tuple, list)):
        return type(x)(_ordered(v) for v in x)
    return x


def _same(got, want, *context):
    assert _ordered(got) == _ordered(want), context


def _graph(rng, t):
    """A random graph with many ties: small integer weights (0 in some), self-loops and
    parallel edges in some, directed or not."""
    n = rng.randint(1, 30)
    cls = rng.choice([nx.Graph, nx.DiGraph, nx.Graph, nx.DiGraph, nx.MultiGraph,
                      nx.MultiDiGraph])
    G = cls()
    G.add_nodes_from(rng.sample(range(n), n))  # nodes not in vertex order
    kind = rng.choice(["unit", "small", "small", "zero"])
    for _ in range(rng.randint(0, 3 * n)):
        u, v = rng.randrange(n), rng.randrange(n)
        if u == v and rng.random() < 0.7:
            continue
        w = {"unit": 1, "small": rng.randint(1, 3), "zero": rng.choice([0, 1, 1, 2])}[kind]
        G.add_edge(u, v, weight=w)
    return G


def _graphs(count, seed):
    rng = random.Random(seed)
    for t in range(count):
        G = _graph(rng, t)
        nodes = list(G)
        yield rng, G, nodes


def _grids():
    rng = random.Random(5)
    for m, k in [(5, 5), (7, 4), (12, 12)]:
        for directed in (False, True):
            G = nx.grid_2d_graph(m, k)
            if directed:
                G = G.to_directed()
            for weights in ("unit", "int"):
                H = G.copy()
                for u, v in H.edges:
                    H[u][v]["weight"] = 1 if weights == "unit" else rng.randint(1, 3)
                yield H


@needs_numba
@pytest.mark.parametrize("seed", [1, 2])
def test_single_source_paths_with_ties_are_networkx(seed):
    for rng, G, nodes in _graphs(120, seed):
        s = rng.choice(nodes)
        for cutoff in CUTOFFS:
            _same(A.single_source_dijkstra(G, s, cutoff=cutoff),
                  nx.single_source_dijkstra(G, s, cutoff=cutoff), list(G.edges(data="weight")),
                  s, cutoff)
            _same(A.single_source_dijkstra_path(G, s, cutoff=cutoff),
                  nx.single_source_dijkstra_path(G, s, cutoff=cutoff))
        _same(A.shortest_path(G, s, weight="weight"), nx.shortest_path(G, s, weight="weight"))
        if not G.is_directed():
            t = rng.choice(nodes)
            _same(A.shortest_path(G, target=t, weight="weight"),
                  nx.shortest_path(G, target=t, weight="weight"))


@needs_numba
def test_grids_paths_and_predecessors_with_ties_are_networkx():
    for G in _grids():
        for s in [(0, 0), (2, 3)]:
            _same(A.single_source_dijkstra(G, s), nx.single_source_dijkstra(G, s))
            _same(P.dijkstra_predecessor_and_distance(G, s, cutoff=5),
                  nx.dijkstra_predecessor_and_distance(G, s, cutoff=5))
            _same(P.multi_source_dijkstra(G, [s, (4, 1)]),
                  nx.multi_source_dijkstra(G, [s, (4, 1)]))
        corner = max(G)
        _same(A.dijkstra_path(G, (0, 0), corner), nx.dijkstra_path(G, (0, 0), corner))


def _st_answer(f, *args, **kwargs):
    try:
        return f(*args, **kwargs)
    except nx.NetworkXNoPath as exc:
        return ("NetworkXNoPath", str(exc))


@needs_numba
def test_dijkstra_path_to_a_target_with_ties_is_networkx():
    for rng, G, nodes in _graphs(150, 3):
        s, t = rng.choice(nodes), rng.choice(nodes)
        cutoff = rng.choice(CUTOFFS)
        assert _st_answer(A.dijkstra_path, G, s, t) == _st_answer(nx.dijkstra_path, G, s, t)
        assert _st_answer(A.single_source_dijkstra, G, s, t, cutoff=cutoff) == \
            _st_answer(nx.single_source_dijkstra, G, s, t, cutoff=cutoff)


@needs_numba
@pytest.mark.parametrize("seed", [4, 5])
def test_predecessor_lists_with_ties_are_networkx(seed):
    # NetworkX appends a tied predecessor to a popped vertex's list too (0-weight edges,
    # 0-weight self-loops: the node its own predecessor), in its search's order
    for rng, G, nodes in _graphs(120, seed):
        s = rng.choice(nodes)
        for cutoff in CUTOFFS:
            _same(P.dijkstra_predecessor_and_distance(G, s, cutoff=cutoff),
                  nx.dijkstra_predecessor_and_distance(G, s, cutoff=cutoff),
                  list(G.edges(data="weight")), s, cutoff)


@needs_numba
def test_multi_source_paths_with_ties_are_networkx():
    for rng, G, nodes in _graphs(150, 6):
        sources = [rng.choice(nodes) for _ in range(rng.randint(1, 4))]  # repeats too
        cutoff = rng.choice(CUTOFFS)
        _same(P.multi_source_dijkstra(G, sources, cutoff=cutoff),
              nx.multi_source_dijkstra(G, sources, cutoff=cutoff), sources, cutoff)
        _same(P.multi_source_dijkstra_path(G, set(sources)),
              nx.multi_source_dijkstra_path(G, set(sources)))
        t = rng.choice(nodes)
        if t not in sources:
            assert _st_answer(P.multi_source_dijkstra, G, sources, t) == \
                _st_answer(nx.multi_source_dijkstra, G, sources, t)


@needs_numba
def test_all_pairs_paths_with_ties_are_networkx():
    for rng, G, _ in _graphs(60, 7):
        cutoff = rng.choice(CUTOFFS)
        _same(list(P.all_pairs_dijkstra(G, cutoff=cutoff)),
              list(nx.all_pairs_dijkstra(G, cutoff=cutoff)))
        _same(list(P.all_pairs_dijkstra_path(G)), list(nx.all_pairs_dijkstra_path(G)))
        _same(list(A.shortest_path(G, weight="weight")),
              list(nx.shortest_path(G, weight="weight")))


def test_ties_are_refused_without_the_compiled_heap(monkeypatch):
    # the engine's predecessor tree is not NetworkX's pick among tied paths: without Numba
    # the refusals stand (and the graphs above do tie)
    monkeypatch.setattr(compiled, "ENABLED", False)
    G = nx.Graph([(0, 1), (0, 2), (1, 3), (2, 3)])
    for call in (lambda: A.single_source_dijkstra(G, 0),
                 lambda: A.single_source_dijkstra_path(G, 0),
                 lambda: P.dijkstra_predecessor_and_distance(G, 0),
                 lambda: P.multi_source_dijkstra(G, [0]),
                 lambda: A.dijkstra_path(G, 0, 3),
                 lambda: list(P.all_pairs_dijkstra_path(G))):
        with pytest.raises(NotImplementedError):
            call()


@needs_numba
def test_bidirectional_searches_still_refuse_ties():
    # NetworkX's shortest_path(G, s, t, weight) and bidirectional_dijkstra search from both
    # ends and pick their own path among ties, not the one-sided heap's
    G = nx.Graph([(0, 1), (0, 2), (1, 3), (2, 3)])
    with pytest.raises(NotImplementedError):
        A.shortest_path(G, 0, 3, weight="weight")
    with pytest.raises(NotImplementedError):
        P.bidirectional_dijkstra(G, 0, 3)
    assert A.dijkstra_path(G, 0, 3) == nx.dijkstra_path(G, 0, 3)


@needs_numba
def test_dijkstra_order_tree_and_predecessor_events():
    # a square 0-1-3, 0-2-3 (unit weights) and a 0-weight self-loop at 3: 3 is first pushed
    # by 1 (popped first), 2 ties (appended), 3 its own tied predecessor once popped
    indptr = [0, 2, 4, 6, 9]
    adj = [1, 2, 0, 3, 0, 3, 1, 2, 3]
    w = [1, 1, 1, 1, 1, 1, 1, 1, 0]
    pops, finds, dist, parent, events = compiled.dijkstra_order(
        np.array(indptr), np.array(adj), np.array(w), [0], tree=True, preds=True)
    assert pops.tolist() == [0, 1, 2, 3] and finds.tolist() == [0, 1, 2, 3]
    assert dist.tolist() == [0, 1, 1, 2]
    assert parent.tolist() == [-1, 0, 0, 1]
    eu, ev, er = events
    assert list(zip(eu.tolist(), ev.tolist(), er.tolist())) == \
        [(1, 0, 1), (2, 0, 1), (3, 1, 1), (3, 2, 0), (3, 3, 0)]
    assert len(compiled.dijkstra_order(np.array(indptr), np.array(adj), np.array(w), [0])) == 3


def test_multigraphs_are_answered_not_refused():
    # can_run takes multigraphs (their parallel edges merged to the lightest, as NetworkX's
    # weight function does); their tied paths are compared above
    G = nx.MultiGraph([(0, 1, {"weight": 2}), (0, 1, {"weight": 1}), (1, 2, {"weight": 1})])
    assert bi.can_run("single_source_dijkstra", (G, 0), {}) is True
    if compiled.ENABLED:
        _same(A.single_source_dijkstra(G, 0), nx.single_source_dijkstra(G, 0))


def _answer(f, *args, **kwargs):
    try:
        return _ordered(f(*args, **kwargs))
    except nx.NetworkXUnbounded as exc:
        return ("NetworkXUnbounded", str(exc))


@needs_numba
def test_johnson_paths_with_ties_are_networkx():
    # NetworkX's Dijkstra over the reweighted edges, its heap compiled; negative weights too
    rng = random.Random(8)
    answered = 0
    for _ in range(80):
        G = _graph(rng, 0)
        if rng.random() < 0.5:
            for u, v, d in G.edges(data=True):
                d["weight"] = rng.choice([-1, 0, 1, 2, 2, 3])
        want = _answer(nx.johnson, G)
        assert _answer(P.johnson, G) == want
        answered += isinstance(want, list)
    assert answered >= 40


# ------------------------------------------------------------------ Bellman–Ford's queue
def _signed_graphs(count, seed):
    """_graph's graphs, half of the directed ones with negative weights (negative cycles
    too: NetworkXUnbounded on both sides)."""
    rng = random.Random(seed)
    for t in range(count):
        G = _graph(rng, t)
        if G.is_directed() and rng.random() < 0.5:
            for _, _, d in G.edges(data=True):
                d["weight"] = rng.choice([-1, 0, 1, 2, 2, 3])
        yield rng, G, list(G)


def _bf_answer(f, *args, **kwargs):
    try:
        return _ordered(f(*args, **kwargs))
    except (nx.NetworkXUnbounded, nx.NetworkXNoPath) as exc:
        return (type(exc).__name__, str(exc))


@needs_numba
@pytest.mark.parametrize("seed", [9, 10])
def test_bellman_ford_paths_and_predecessors_with_ties_are_networkx(seed):
    answered = 0
    for rng, G, nodes in _signed_graphs(120, seed):
        s, t = rng.choice(nodes), rng.choice(nodes)
        want = _bf_answer(nx.single_source_bellman_ford, G, s)
        assert _bf_answer(A.single_source_bellman_ford, G, s) == want, \
            (list(G.edges(data="weight")), s)
        answered += isinstance(want, tuple) and want[0] != "NetworkXUnbounded"
        assert _bf_answer(A.single_source_bellman_ford_path_length, G, s) == \
            _bf_answer(nx.single_source_bellman_ford_path_length, G, s)
        assert _bf_answer(A.bellman_ford_path, G, s, t) == \
            _bf_answer(nx.bellman_ford_path, G, s, t)
        for heuristic in (False, True):
            assert _bf_answer(P.bellman_ford_predecessor_and_distance, G, s,
                              heuristic=heuristic) == \
                _bf_answer(nx.bellman_ford_predecessor_and_distance, G, s,
                           heuristic=heuristic)
        assert _bf_answer(lambda H: list(P.all_pairs_bellman_ford_path(H)), G) == \
            _bf_answer(lambda H: list(nx.all_pairs_bellman_ford_path(H)), G)
    assert answered >= 60


@needs_numba
def test_bellman_ford_grids_with_ties_are_networkx():
    for G in _grids():
        _same(A.single_source_bellman_ford(G, (0, 0)), nx.single_source_bellman_ford(G, (0, 0)))
        _same(P.bellman_ford_predecessor_and_distance(G, (2, 3)),
              nx.bellman_ford_predecessor_and_distance(G, (2, 3)))


@needs_numba
def test_bellman_ford_paths_through_zero_cycles_are_networkx():
    # 1, 2 and 3 reach each other at 0 cost: each lists the others at equal distance, and
    # NetworkX's depth-first path builder takes the first predecessor first
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 1), (0, 2, 1), (1, 2, 0), (2, 1, 0), (2, 3, 0),
                               (3, 2, 0), (3, 1, 0)])
    for s in G:
        _same(A.single_source_bellman_ford(G, s), nx.single_source_bellman_ford(G, s))
        _same(P.bellman_ford_predecessor_and_distance(G, s),
              nx.bellman_ford_predecessor_and_distance(G, s))


@needs_numba
def test_spfa_order_lists_and_negative_cycles():
    # 0 → 1 (5), 0 → 2 (1), 2 → 1 (4): 1 found at 5, then tied at 5 from 2 (appended);
    # 2 → 3 (-1) and 3 → 2 (-1): a negative cycle (None: NetworkX raises)
    indptr, adj = np.array([0, 2, 2, 3, 3]), np.array([1, 2, 1])
    order, dist, ptr, preds = compiled.spfa_order(indptr, adj, np.array([5, 1, 4]), [0])
    assert order.tolist() == [0, 1, 2] and dist[order].tolist() == [0, 5, 1]
    assert [preds[ptr[i]:ptr[i + 1]].tolist() for i in range(3)] == [[], [0, 2], [0]]
    indptr, adj = np.array([0, 1, 2, 3]), np.array([1, 2, 1])
    assert compiled.spfa_order(indptr, adj, np.array([1, -1, -1]), [0]) is None
