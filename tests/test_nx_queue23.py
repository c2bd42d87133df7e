"""NetworkX's BFS order by the compiled queue (``compiled.bfs_queue``, session 23) against the
NumPy/Python pass it replaces where Numba is present (``nx_semiring.algorithms._ordered_levels``
with ``compiled.ENABLED`` off), and against NetworkX's own ``bfs_layers``, on random graphs."""

import math
import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_semiring import algorithms as A  # noqa: E402
from nx_semiring.graph import from_networkx  # noqa: E402
from semiring.backend.cpu import compiled  # noqa: E402

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="needs Numba (the cpu extra)")

LIMITS = [math.inf, 0, 1, 2, 2.5, 3, float("nan"), -1, 10**30]


def _graphs(count, seed=23):
    rng = random.Random(seed)
    for t in range(count):
        n = rng.randint(1, 50)
        G = nx.gnm_random_graph(n, rng.randint(0, 3 * n), seed=t, directed=rng.random() < 0.5)
        if rng.random() < 0.3:
            G.add_edges_from((v, v) for v in range(0, n, 3))
        frontier = [rng.randrange(n) for _ in range(rng.randint(1, 3))]  # repeats too
        yield G, frontier, rng.choice(LIMITS)


def _python_pass(g, frontier, limit):
    saved = compiled.ENABLED
    compiled.ENABLED = False
    try:
        return list(A._ordered_levels(g, frontier, limit))
    finally:
        compiled.ENABLED = saved


@pytest.mark.parametrize("seed", [23, 24])
def test_compiled_queue_is_the_python_pass(seed):
    for G, frontier, limit in _graphs(150, seed):
        g = A._graph(G)
        got = list(A._ordered_levels(g, frontier, limit))
        assert got == _python_pass(g, frontier, limit), (sorted(G.edges), frontier, limit)


def test_compiled_queue_levels_are_networkx_layers():
    for G, frontier, _ in _graphs(100, 7):
        assert list(nx.bfs_layers(G, frontier, backend="semiring")) == \
            list(nx.bfs_layers(G, frontier))


def test_bfs_queue_bounds_and_parents():
    # a path 0-1-2-3 and an isolated 4, from 1: levels {0, 2}, {3}; parents 1, 1, 2
    indptr = np.array([0, 1, 3, 5, 6, 6])
    adj = np.array([1, 0, 2, 1, 3, 2])
    order, parent, bounds = compiled.bfs_queue(indptr, adj, np.array([1]), math.inf)
    assert order.tolist() == [0, 2, 3]
    assert parent.tolist() == [1, 1, 2]
    assert bounds.tolist() == [0, 2, 3]
    order, parent, bounds = compiled.bfs_queue(indptr, adj, np.array([1]), 1.5)
    assert (order.tolist(), bounds.tolist()) == ([0, 2, 3], [0, 2, 3])
    order, parent, bounds = compiled.bfs_queue(indptr, adj, np.array([1]), 1)
    assert (order.tolist(), bounds.tolist()) == ([0, 2], [0, 2])
    order, parent, bounds = compiled.bfs_queue(indptr, adj, np.array([4]), math.inf)
    assert (order.size, bounds.tolist()) == (0, [0])


# ------------------------------------------------------------------ Dijkstra's heap order
def _weighted(count, seed):
    rng = random.Random(seed)
    for t in range(count):
        n = rng.randint(1, 40)
        G = nx.gnm_random_graph(n, rng.randint(0, 4 * n), seed=t, directed=rng.random() < 0.5)
        kind = rng.choice(["int", "float", "ties", "zero", "inf"])
        for u, v in G.edges:
            G[u][v]["weight"] = {"int": rng.randint(1, 5), "float": rng.choice([0.5, 1.5, 0.25]),
                                 "ties": 1, "zero": rng.randint(0, 2),
                                 "inf": rng.choice([1.0, 2.0, math.inf])}[kind]
        sources = rng.sample(range(n), min(n, rng.randint(1, 3)))
        yield G, sources, rng.choice([None, None, 0, 1, 2, 3.5, math.inf])


def _numpy_orders(g, sources, dist, keep, cutoff):
    saved = compiled.ENABLED
    compiled.ENABLED = False
    try:
        return A._dijkstra_orders(g, sources, dist, keep, "weight", cutoff)
    finally:
        compiled.ENABLED = saved


@pytest.mark.parametrize("seed", [3, 4])
def test_compiled_heap_is_the_numpy_pass(seed):
    answered = 0
    for G, sources, cutoff in _weighted(150, seed):
        g = from_networkx(G, edge_attrs={"weight": 1}, use_cache=False)
        ref = nx.multi_source_dijkstra_path_length(G, set(sources), cutoff=cutoff)
        idx = np.array([g.vertex(s) for s in ref if s in sources], dtype=np.int64)
        dist = np.full(g.n, np.inf)
        keep = np.zeros(g.n, dtype=bool)
        for node, d in ref.items():
            dist[g.vertex(node)] = d
            keep[g.vertex(node)] = True
        heap = A._dijkstra_heap(g, idx, dist, keep, "weight", cutoff)
        if heap is None:
            continue
        answered += 1
        want = _numpy_orders(g, idx, dist, keep, cutoff)
        assert heap[0].tolist() == want[0].tolist(), (sorted(G.edges(data=True)), sources)
        assert heap[1].tolist() == want[1].tolist(), (sorted(G.edges(data=True)), sources)
    assert answered > 100


def test_dijkstra_dicts_in_networkx_order_over_ties():
    rng = random.Random(9)
    answered = 0
    for t in range(60):
        G = nx.gnm_random_graph(30, 90, seed=t, directed=t % 2 == 0)
        for u, v in G.edges:
            G[u][v]["weight"] = rng.randint(1, 3)  # many equal distances
        s = rng.randrange(30)
        for f in (nx.single_source_dijkstra_path_length, nx.single_source_dijkstra,
                  nx.dijkstra_predecessor_and_distance):
            want = f(G, s)
            try:
                got = f(G, s, backend="semiring")
            except NotImplementedError:  # (paths that tie: NetworkX's to pick)
                continue
            answered += 1
            if isinstance(want, tuple):
                for a, b in zip(want, got):
                    assert list(a.items()) == list(b.items())
            else:
                assert list(want.items()) == list(got.items())
    assert answered >= 60  # (the length dicts at least; tied paths and predecessors refuse)


def test_dijkstra_order_refuses_a_shorter_path_to_a_popped_vertex():
    # 0 -> 1 (1), 0 -> 2 (2), 2 -> 1 (-5): NetworkX raises "Contradictory paths found"
    indptr, adj = np.array([0, 2, 2, 3]), np.array([1, 2, 1])
    assert compiled.dijkstra_order(indptr, adj, np.array([1, 2, -5]), [0]) is None
    pops, finds, dist = compiled.dijkstra_order(indptr, adj, np.array([1, 2, 5]), [0])
    assert (pops.tolist(), finds.tolist(), dist.tolist()) == ([0, 1, 2], [0, 1, 2], [0, 1, 2])
