"""``should_run``'s cost model as session 23 re-measured it (nx23, issue 17): its decisions at
the model's bounds (not timings: the constants are bench/probes/nx_should_run.py's, recorded
in bench/results/session23/nx23_should_run.md), the CPU's cache factor, the sparse graphs'
engine factor, and the calls left to NetworkX because the backend refuses them on most
graphs (shortest paths that tie, Bellman–Ford queues that are not a BFS)."""

from __future__ import annotations

import pytest

nx = pytest.importorskip("networkx")

import nx_semiring  # noqa: E402
from nx_semiring import interface  # noqa: E402
from nx_semiring.interface import backend_interface as bi  # noqa: E402
from nx_semiring.interface import predict  # noqa: E402
from semiring.backend.cpu import compiled  # noqa: E402


@pytest.fixture
def on_cpu(monkeypatch):
    """The CPU engine's constants (the host's default device, whatever this host has)."""
    monkeypatch.setattr(interface.sr, "default_device", lambda: "cpu")


def _circulant(n):
    return nx.circulant_graph(n, [1, 2, 3, 4])  # 8 stored entries a node: not sparse


def _bound(name, args_of, lo=16, hi=1 << 15, cached=False):
    """The smallest n (a circulant graph of degree 8) where the model sends the call to the
    engine, by bisection over predict's sides."""
    def engine(n):
        t_nx, t_sr = predict(name, n, 8 * n, dict(args_of(None)[1]), cached=cached,
                             has_weights=cached, device="cpu")
        return t_sr < t_nx
    assert not engine(lo) and engine(hi), name
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if engine(mid) else (mid, hi)
    return hi


def _cache(G, weight=None):
    """G with a conversion in its cache, as NetworkX's dispatcher leaves it."""
    g = nx_semiring.from_networkx(G, edge_attrs=None if weight is None else {weight: 1})
    G.__networkx_cache__.setdefault("backends", {}).setdefault("semiring", {})[
        ("test", weight)] = g
    return G


# name -> (arguments, whether the graph's conversion is cached, its edge attribute): BFS,
# components and Dijkstra lengths pay off only on a cached conversion (the conversion alone
# costs NetworkX's whole call or more, measured), PageRank and cores on a fresh one too
CALLS = {
    "single_source_shortest_path_length": (lambda G: ((G, 0), {}), True, None),
    "connected_components": (lambda G: ((G,), {}), True, None),
    "bfs_edges": (lambda G: ((G, 0), {}), True, None),
    "single_source_dijkstra_path_length": (lambda G: ((G, 0), {}), True, "weight"),
    "pagerank": (lambda G: ((G,), {}), False, None),
    "core_number": (lambda G: ((G,), {}), False, None),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_should_run_flips_at_the_models_bound(on_cpu, name):
    """A graph one node below the model's bound stays with NetworkX, one at the bound goes
    to the engine."""
    args, cached, weight = CALLS[name]
    if name == "core_number" and not compiled.ENABLED:
        pytest.skip("core_number's bound is the compiled peel's (without Numba: NetworkX's)")
    n = _bound(name, args, lo=2, cached=cached)
    below, at = _circulant(n - 1), _circulant(n)
    if cached:
        below, at = _cache(below, weight), _cache(at, weight)
    assert isinstance(bi.should_run(name, *args(below)), str), (name, n)
    assert bi.should_run(name, *args(at)) is True, (name, n)


def test_a_fresh_conversion_keeps_bfs_with_networkx(on_cpu):
    """BFS lengths on a graph used once: the conversion costs about NetworkX's search
    (measured: 6.4e-8 to 7.6e-7 s a unit against NetworkX's 5.6e-8 to 6.9e-7), NetworkX's
    up to 10⁵ nodes of degree 8; with the conversion cached, the engine from a few thousand
    nodes."""
    name = "single_source_shortest_path_length"
    for n in (10**3, 10**4, 10**5):
        t_nx, t_sr = predict(name, n, 8 * n, device="cpu")
        assert t_sr > t_nx
    n = _bound(name, CALLS[name][0], lo=2, cached=True)
    assert n < 10**4
    G = _circulant(2 * n)
    assert isinstance(bi.should_run(name, (G, 0), {}), str)
    assert bi.should_run(name, (_cache(G), 0), {}) is True


def test_cache_factor_on_the_cpu_only():
    """Beyond CACHE_UNITS each CPU side costs (units / CACHE_UNITS) ** its exponent more a
    unit (NetworkX's the largest); the GPU's constants keep NetworkX's step at
    LARGE_GRAPH_UNITS."""
    c = interface.CACHE_UNITS
    assert interface._cache_factor(c) == 1.0
    assert interface._cache_factor(16 * c) == pytest.approx(16 ** interface.CACHE_EXPONENT)
    assert interface.CACHE_EXPONENT >= interface.CONVERT_CACHE_EXPONENT >= \
        interface.ENGINE_CACHE_EXPONENT
    # the engine's and the conversion's own exponents: a cached BFS's warm side
    fixed, unit = interface.ENGINE_COST["cpu"]["bfs"]
    t_sr = predict("single_source_shortest_path_length", 10 * c, 70 * c, cached=True,
                   device="cpu")[1]
    assert t_sr == pytest.approx(fixed + unit * 80 * c * 80 ** interface.ENGINE_CACHE_EXPONENT)
    t_fresh = predict("single_source_shortest_path_length", 10 * c, 70 * c, device="cpu")[1]
    assert t_fresh - t_sr == pytest.approx(
        interface.CONVERT_SECONDS_PER_ENTRY * 80 * c * 80 ** interface.CONVERT_CACHE_EXPONENT)
    small = predict("pagerank", c // 10, c - c // 10, device="cpu")[0] / c
    large = predict("pagerank", c, 9 * c, device="cpu")[0] / (10 * c)
    assert large == pytest.approx(small * 10 ** interface.CACHE_EXPONENT)
    small = predict("pagerank", c // 10, c - c // 10, device="gpu")[0] / c
    large = predict("pagerank", c, 9 * c, device="gpu")[0] / (10 * c)
    assert large == pytest.approx(small)


def test_sparse_graphs_price_the_engines_levels(monkeypatch):
    """Below SPARSE_DEGREE stored entries a node (a grid's 4) the engine's searches cost
    ENGINE_SPARSE_FACTOR more a unit; NetworkX's side is the same for the same units. (With
    Numba, SSSP's factor is 1, its order a compiled heap: the mechanism is tested at the
    factor it has without.)"""
    monkeypatch.setitem(interface.ENGINE_SPARSE_FACTOR, "sssp", 9)
    units = 40000
    dense = predict("single_source_dijkstra_path_length", units // 10, units - units // 10,
                    cached=True, has_weights=True, device="cpu")
    sparse = predict("single_source_dijkstra_path_length", units // 5, units - units // 5,
                     cached=True, has_weights=True, device="cpu")
    assert dense[0] == sparse[0]
    fixed, unit = interface.ENGINE_COST["cpu"]["sssp"]
    assert sparse[1] - fixed == pytest.approx(
        (dense[1] - fixed) * interface.ENGINE_SPARSE_FACTOR["sssp"])
    assert dense[1] < dense[0] and sparse[1] > sparse[0]  # the engine, NetworkX
    # a family the factor does not name: as dense
    a = predict("pagerank", units // 10, units - units // 10, cached=True, has_weights=True,
                device="cpu")[1]
    b = predict("pagerank", units // 5, units - units // 5, cached=True, has_weights=True,
                device="cpu")[1]
    assert a == b


@pytest.mark.parametrize("call", [
    ("single_source_dijkstra", lambda G: ((G, 0), {})),
    ("single_source_dijkstra_path", lambda G: ((G, 0), {})),
    ("dijkstra_predecessor_and_distance", lambda G: ((G, 0), {})),
    ("multi_source_dijkstra", lambda G: ((G, {0, 1}), {})),
    ("single_source_bellman_ford", lambda G: ((G, 0), {})),
    ("all_pairs_dijkstra_path", lambda G: ((G,), {})),
    ("johnson", lambda G: ((G,), {})),
    ("shortest_path", lambda G: ((G, 0), {"weight": "weight"})),
], ids=lambda c: c[0] if isinstance(c, tuple) else "")
def test_calls_refused_on_ties_stay_with_networkx(call):
    """Whatever the size: the backend answers them only where no shortest paths tie;
    Dijkstra's paths and predecessors with Numba are NetworkX's own heap's among ties
    (session 24): priced as the others."""
    from semiring.backend.cpu import compiled

    name, args = call
    G = _circulant(3000)
    why = bi.should_run(name, *args(G))
    if compiled.ENABLED and (name in interface._HEAP_ANSWERED or name == "shortest_path"):
        assert "tie" not in str(why)
    else:
        assert isinstance(why, str) and "tie" in why
    # unweighted shortest paths are BFS paths, NetworkX's own first-found: priced
    assert "tie" not in str(bi.should_run("shortest_path", (G, 0), {}))


def test_bellman_ford_lengths_stay_with_networkx_unless_one_weight(on_cpu, monkeypatch):
    # (without Numba: with it NetworkX's queue loop, compiled, gives the order on any graph,
    # test_bellman_ford_lengths_priced_with_the_compiled_queue)
    from semiring.backend.cpu import compiled

    if compiled.ENABLED:
        monkeypatch.setattr(interface, "_QUEUE_REFUSED", frozenset(
            {"single_source_bellman_ford_path_length", "all_pairs_bellman_ford_path_length"}))
        monkeypatch.setattr(interface._alg._cpu_compiled, "ENABLED", False)
    name = "single_source_bellman_ford_path_length"
    G = _circulant(20000)
    assert "queue" in bi.should_run(name, (G, 0), {})
    assert "queue" in bi.should_run("shortest_path_length", (G, 0),
                                    {"weight": "weight", "method": "bellman-ford"})
    assert "queue" not in str(bi.should_run("shortest_path_length", (G, 0),
                                            {"weight": "weight"}))
    # a cached conversion whose edges all weigh the same: NetworkX's queue is a BFS
    nx.set_edge_attributes(G, 2, "weight")
    g = nx_semiring.from_networkx(G, edge_attrs={"weight": 1})
    G.__networkx_cache__.setdefault("backends", {}).setdefault("semiring", {})["w"] = g
    assert bi.should_run(name, (G, 0), {}) is True
    G[0][1]["weight"] = 3
    G.__networkx_cache__.clear()  # (what NetworkX's G[u][v] update does not do)
    g = nx_semiring.from_networkx(G, edge_attrs={"weight": 1})
    G.__networkx_cache__.setdefault("backends", {}).setdefault("semiring", {})["w"] = g
    assert "queue" in bi.should_run(name, (G, 0), {})


def test_bellman_ford_lengths_priced_with_the_compiled_queue(on_cpu):
    from semiring.backend.cpu import compiled

    if not compiled.ENABLED:
        pytest.skip("needs Numba (the cpu extra)")
    G = _circulant(20000)
    assert "queue" not in str(bi.should_run("single_source_bellman_ford_path_length", (G, 0),
                                            {}))
    assert "queue" not in str(bi.should_run("shortest_path_length", (G, 0),
                                            {"weight": "weight", "method": "bellman-ford"}))


def test_compiled_orders_have_no_sparse_factor():
    """With Numba the BFS queue and Dijkstra's heap are compiled loops (no per-level pass):
    BFS, BFS orders, components and SSSP cost no more a unit on sparse graphs."""
    from semiring.backend.cpu import compiled

    if not compiled.ENABLED:
        pytest.skip("needs Numba (the cpu extra)")
    for fam in ("bfs", "bfs_order", "components", "sssp"):
        assert interface.ENGINE_SPARSE_FACTOR[fam] == 1
