"""NetworkX's orders by session 24's faster routes: the Dijkstra order replayed from known
distances (``compiled.dijkstra_replay``) against NetworkX's heap loop compiled
(``compiled.dijkstra_order``) and against NetworkX itself (the same pops, the same first
pushes, NetworkX's path tree; None, the heap then runs, wherever the replay would not be
NetworkX's); a connected graph's one component set, built from one search without grouping,
in NetworkX's iteration order."""

import math
import random

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from nx_semiring import algorithms as A  # noqa: E402
from nx_semiring.graph import from_networkx  # noqa: E402
from semiring.backend.cpu import compiled  # noqa: E402

from test_nx_queue23 import _graphs  # noqa: E402  (random graphs, frontiers and limits)

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="needs Numba (the cpu extra)")


def _weighted(count, seed):
    rng = random.Random(seed)
    for t in range(count):
        n = rng.randint(1, 40)
        G = nx.gnm_random_graph(n, rng.randint(0, 4 * n), seed=t, directed=rng.random() < 0.5)
        kind = rng.choice(["int", "ties", "float", "zero", "inf", "absorbed"])
        for u, v in G.edges:
            G[u][v]["weight"] = {"int": rng.randint(1, 9), "ties": rng.randint(1, 2),
                                 "float": rng.choice([0.1, 0.2, 0.3, 0.7]),
                                 "zero": rng.randint(0, 2),
                                 "inf": rng.choice([1.0, 2.0, math.inf]),
                                 "absorbed": rng.choice([1e17, 1.0])}[kind]
        if rng.random() < 0.3:
            G.add_edges_from((v, v, {"weight": rng.randint(0, 2)}) for v in range(0, n, 4))
        sources = rng.sample(range(n), min(n, rng.randint(1, 3)))
        yield G, sources, rng.choice([None, None, 0, 2, 3.5, 7, math.inf]), kind


def _weights(g):
    w = g.weights("weight")
    return w.astype(np.int64) if w.dtype.kind in "biu" else w.astype(np.float64)


@pytest.mark.parametrize("seed", [1, 2])
def test_replay_is_the_heap(seed):
    answered = refused = 0
    for G, sources, cutoff, kind in _weighted(200, seed):
        g = from_networkx(G, edge_attrs={"weight": 1}, use_cache=False)
        src = np.array([g.vertex(s) for s in sources], dtype=np.int64)
        w = _weights(g)
        heap = compiled.dijkstra_order(g.indptr, g.adj, w, src, cutoff)
        if heap is None:
            continue
        pops, finds, dist = heap
        keep = np.zeros(g.n, dtype=bool)
        keep[pops] = True
        d = np.where(keep, dist, np.inf if w.dtype.kind == "f" else np.iinfo(np.int64).max)
        replay = compiled.dijkstra_replay(g.indptr, g.adj, w, src, d, A._by_distance(d, keep),
                                          keep, cutoff)
        if replay is None:
            refused += 1
            continue
        answered += 1
        assert replay[0].tolist() == pops.tolist(), (sorted(G.edges(data=True)), sources)
        assert replay[1].tolist() == finds.tolist(), (sorted(G.edges(data=True)), sources)
        # the path tree is NetworkX's
        paths = nx.multi_source_dijkstra_path(G, set(sources), cutoff=cutoff)
        if len(sources) == 1:
            for node, path in paths.items():
                p = replay[2][g.vertex(node)]
                assert (g.nodes[p] if p >= 0 else None) == (path[-2] if len(path) > 1 else None)
    assert answered > 150 and refused > 10  # (0-weight, inf and absorbed edges: the heap's)


def test_replay_refuses_what_is_not_networkx_s():
    # a path 0 -1- 1 -0- 2: 2's only tight in-neighbour is at its own distance
    indptr, adj = np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1])
    keep = np.ones(3, dtype=bool)
    args = (np.array([0]), np.array([0, 1, 1]), np.array([0, 1, 2]), keep)
    assert compiled.dijkstra_replay(indptr, adj, np.array([1, 1, 0, 0]), *args) is None
    # distances that are not the minimum (2 reachable at 1 over 0-2)
    indptr, adj = np.array([0, 2, 4, 6]), np.array([1, 2, 0, 2, 0, 1])
    w = np.array([1, 1, 1, 1, 1, 1])
    assert compiled.dijkstra_replay(indptr, adj, w, np.array([0]), np.array([0, 1, 2]),
                                    np.array([0, 1, 2]), keep) is None
    # the right distances: answered, 1 and 2 popped in adjacency order, both from 0
    pops, finds, parent = compiled.dijkstra_replay(indptr, adj, w, np.array([0]),
                                                   np.array([0, 1, 1]), np.array([0, 2, 1]),
                                                   keep)
    assert (pops.tolist(), finds.tolist(), parent.tolist()) == ([0, 1, 2], [0, 1, 2],
                                                                [-1, 0, 0])
    # a source not at distance 0
    assert compiled.dijkstra_replay(indptr, adj, w, np.array([0]), np.array([1, 2, 2]),
                                    np.array([0, 1, 2]), keep) is None


def test_lengths_dicts_through_the_replay_in_networkx_order():
    # a grid of weights 1..3: many equal distances, each group ordered by first tight push
    rng = random.Random(5)
    G = nx.grid_2d_graph(30, 30)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(1, 3)
    for s in [(0, 0), (15, 15), (29, 3)]:
        want = nx.single_source_dijkstra_path_length(G, s)
        got = nx.single_source_dijkstra_path_length(G, s, backend="semiring")
        assert list(want.items()) == list(got.items())
        want = nx.multi_source_dijkstra_path_length(G, {s, (3, 4)}, cutoff=20)
        got = nx.multi_source_dijkstra_path_length(G, {s, (3, 4)}, cutoff=20,
                                                   backend="semiring")
        assert list(want.items()) == list(got.items())


@pytest.mark.parametrize("relabel", [False, True])
def test_connected_graph_one_set_in_networkx_iteration_order(relabel):
    # tuple and string labels collide in a set's table: its iteration order is its
    # insertion order's (NetworkX's BFS), which node order does not give (40 x 43 grid)
    nx.config.warnings_to_ignore.add("cache")
    for n in (5, 17, 40):
        G = nx.grid_2d_graph(n, n + 3)
        if relabel:
            G = nx.relabel_nodes(G, {v: str(v) for v in G})
        want = [list(c) for c in nx.connected_components(G)]
        assert [list(c) for c in nx.connected_components(G, backend="semiring")] == want
        if n == 40 and not relabel:
            assert want[0] != list(set(G.nodes))
            assert want[0] != list(set(list(G.nodes)[::-1]))


# ------------------------------------------------------------------ the BFS queue on a device
@pytest.mark.parametrize("max_levels,max_edges", [(None, None), (0, None), (1, None),
                                                  (2, None), (5, None), (None, 6)])
def test_device_queue_is_the_compiled_queue(max_levels, max_edges):
    # the level loop of A._device_queue over NumPy arrays (CuPy's on a GPU: same calls),
    # alone and handing over to the compiled queue after max_levels levels or before a level
    # of more than max_edges out-edges (A._queue's way)
    for G, frontier, limit in _graphs(120, 31 + (max_levels or 0) + (max_edges or 0)):
        g = A._graph(G)
        want = compiled.bfs_queue(g.indptr, g.adj, np.array(frontier), limit)
        lim = A._level_limit(limit, g.n)
        order, parent, bounds, seen, last = A._device_queue(
            g.indptr, g.adj, np.array(frontier), lim, max_levels, max_edges, xp=np)
        if last is not None:
            done = bounds.size - 1
            assert done == max_levels if max_edges is None else done < lim
            rest = compiled.bfs_queue(g.indptr, g.adj, last, lim - done, seen=seen)
            order = np.concatenate((order, rest[0]))
            parent = np.concatenate((parent, rest[1]))
            bounds = np.concatenate((bounds, rest[2][1:] + bounds[-1]))
        assert order.tolist() == want[0].tolist(), (sorted(G.edges), frontier, limit)
        assert parent.tolist() == want[1].tolist()
        assert bounds.tolist() == want[2].tolist()


def test_bfs_queue_goes_on_from_seen_without_changing_it():
    # a path 0-1-2-3: from level {1} with 0 seen, the rest is 2, then 3
    indptr, adj = np.array([0, 1, 3, 5, 6]), np.array([1, 0, 2, 1, 3, 2])
    seen = np.array([True, True, False, False])
    order, parent, bounds = compiled.bfs_queue(indptr, adj, np.array([1]), math.inf, seen=seen)
    assert (order.tolist(), parent.tolist(), bounds.tolist()) == ([2, 3], [1, 2], [0, 1, 2])
    assert seen.tolist() == [True, True, False, False]


@pytest.mark.skipif(not __import__("semiring").gpu_available(), reason="needs a GPU")
def test_device_queue_on_the_gpu_through_networkx():
    # a graph over DEVICE_QUEUE_MIN_ENTRIES on the GPU: its first levels on the device, then
    # the host; NetworkX's dicts and sets, order included
    saved = A.DEVICE_QUEUE_MIN_ENTRIES, A.DEVICE_QUEUE_LEVELS
    A.DEVICE_QUEUE_MIN_ENTRIES, A.DEVICE_QUEUE_LEVELS = 0, 3
    try:
        for seed in range(6):
            G = nx.gnm_random_graph(300, 900, seed=seed, directed=seed % 2 == 1)
            if seed >= 4:
                G = nx.relabel_nodes(nx.grid_2d_graph(20, 15), {v: str(v) for v in
                                                                nx.grid_2d_graph(20, 15)})
            s = next(iter(G))
            assert list(nx.single_source_shortest_path_length(G, s, backend="semiring")
                        .items()) == list(nx.single_source_shortest_path_length(G, s).items())
            assert list(nx.bfs_edges(G, s, backend="semiring")) == list(nx.bfs_edges(G, s))
            if not G.is_directed():
                assert [list(c) for c in nx.connected_components(G, backend="semiring")] == \
                    [list(c) for c in nx.connected_components(G)]
    finally:
        A.DEVICE_QUEUE_MIN_ENTRIES, A.DEVICE_QUEUE_LEVELS = saved
