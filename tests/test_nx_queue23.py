"""NetworkX's BFS order by the compiled queue (``compiled.bfs_queue``, session 23) against the
NumPy/Python pass it replaces where Numba is present (``nx_semiring.algorithms._ordered_levels``
with ``compiled.ENABLED`` off), and against NetworkX's own ``bfs_layers``, on random graphs."""

import math
import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_semiring import algorithms as A  # noqa: E402
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
