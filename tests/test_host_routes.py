"""The launch-bound analytics' route for small GPU input (``CORE_HOST_MAX_ENTRIES``,
``TRUSS_HOST_MAX_ENTRIES``, ``LABEL_PROPAGATION_HOST_MAX_ENTRIES``,
``LOUVAIN_HOST_MAX_ENTRIES``, ``mst.HOST_MAX_ENTRIES``, ``triangles.HOST_MAX_ENTRIES`` (the
directed clustering's),
``bfs.ROAD_HOST_MAX_N``, ``pagerank.HOST_MAX_ENTRIES``, ``components.*_HOST_MAX_ENTRIES``): the
host copy's answer, back on the GPU, below the bound; the GPU path from the bound on; CPU
input untouched. Every other test turns the routes off (tests/conftest.py), so that GPU input
runs the GPU path there."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import algorithms as alg
import semiring as sr
from algorithms import community, components, cores, mst
from bench import generators as gen
from conftest import to_host

# (the package's ``triangles`` is the function: the module by its name)
triangles = importlib.import_module("algorithms.triangles")

pytestmark = [pytest.mark.host_route,
              pytest.mark.skipif(not sr.gpu_available(), reason="needs a GPU")]


def _kron(scale=7):
    return sr.as_matrix(gen.kronecker(scale, xp=np), op="test", arg="A")


def _spy(monkeypatch, module, name, seen, device_of):
    """Record the device each call of ``module.name`` works on."""
    real = getattr(module, name)

    def spy(*args, **kw):
        seen.append(device_of(*args))
        return real(*args, **kw)
    monkeypatch.setattr(module, name, spy)


def _is_gpu(x):
    return sr.is_gpu_array(x)


# (call, module, bound's name, inner function, the device its arguments name)
ROUTES = {
    # (the pattern both methods start from: on a CPU with Numba 'auto' is the compiled one)
    "label_propagation": (lambda A: alg.label_propagation(A, seed=3), community,
                          "LABEL_PROPAGATION_HOST_MAX_ENTRIES", "undirected_pattern",
                          lambda A, *a: A.device),
    "louvain": (lambda A: alg.louvain(A, seed=1), community, "LOUVAIN_HOST_MAX_ENTRIES",
                "_local_moves", lambda Ap, *a: Ap.device),
    "minimum_spanning_forest": (lambda A: alg.minimum_spanning_forest(A), mst,
                                "HOST_MAX_ENTRIES", "_boruvka",
                                lambda n, u, v, w, device, progress: device),
    "weak_components": (lambda A: alg.connected_components(A), components,
                        "WEAK_HOST_MAX_ENTRIES", "_weak", lambda A, *a: A.device),
    "clustering_directed": (lambda A: alg.clustering(A, directed=True), triangles,
                            "HOST_MAX_ENTRIES", "_oriented", lambda G, *a: G.device),
}


def _same(a, b):
    if isinstance(a, int):  # a count
        assert a == b
    elif isinstance(a, sr.Matrix):
        assert a.device == "gpu"
        np.testing.assert_array_equal(a.to_cpu().to_dense(missing=0), b.to_dense(missing=0))
    else:
        assert sr.is_gpu_array(a)
        np.testing.assert_array_equal(to_host(a), b)


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_small_gpu_input_runs_on_the_host_and_answers_on_the_gpu(name, monkeypatch):
    call, module, bound, inner, device_of = ROUTES[name]
    A = _kron()
    seen = []
    _spy(monkeypatch, module, inner, seen, device_of)
    want = call(A)  # the CPU answer
    assert set(seen) == {"cpu"}
    seen.clear()
    got = call(A.to_gpu())
    assert getattr(module, bound) > A.nvals
    assert seen and set(seen) == {"cpu"}, seen
    _same(got, want)


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_gpu_input_from_the_bound_on_runs_on_the_gpu(name, monkeypatch):
    call, module, bound, inner, device_of = ROUTES[name]
    A = _kron().to_gpu()
    monkeypatch.setattr(module, bound, A.nvals)  # the bound itself: the GPU's
    seen = []
    _spy(monkeypatch, module, inner, seen, device_of)
    call(A)
    assert seen and set(seen) == {"gpu"}, seen


def test_label_propagation_colours_follow_the_route():
    """Colours on the GPU go to the host with the matrix; a NumPy array with a GPU matrix
    is still refused, and a colouring that is not proper still named."""
    import cupy

    A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3], [2, 3]],
                                undirected=True, device="cpu")
    colours = np.array([0, 1, 2, 0, 1, 2])
    want = alg.label_propagation(A, colors=colours)
    got = alg.label_propagation(A.to_gpu(), colors=cupy.asarray(colours))
    _same(got, want)
    with pytest.raises(sr.DeviceMismatch, match="colors is on the CPU but A is on the GPU"):
        alg.label_propagation(A.to_gpu(), colors=colours)
    with pytest.raises(sr.InvalidValue, match="colors must differ on neighbours"):
        alg.label_propagation(A.to_gpu(), colors=cupy.zeros(6, dtype=cupy.int64))


def _compiled_on(monkeypatch, on):
    monkeypatch.setattr(cores._compiled(), "ENABLED", on)


@pytest.mark.parametrize("numba", [True, False])
def test_core_number_routes(monkeypatch, numba):
    """GPU input: the host bucket pass below CORE_HOST_MAX_ENTRIES where Numba is installed,
    peeling on the GPU from the bound on or without Numba; the same numbers."""
    if numba and not cores._compiled().ENABLED:
        pytest.skip("Numba is not installed")
    _compiled_on(monkeypatch, numba)
    A = _kron()
    want = alg.core_number(A, method="peel")
    peeled = []
    _spy(monkeypatch, cores, "_peel", peeled, lambda S: S.device)
    got = alg.core_number(A.to_gpu())
    assert peeled == ([] if numba else ["gpu"])
    _same(got, want)
    monkeypatch.setattr(cores, "CORE_HOST_MAX_ENTRIES", A.nvals)
    _same(alg.core_number(A.to_gpu()), want)
    assert peeled[-1:] == ["gpu"]


@pytest.mark.parametrize("numba", [True, False])
def test_k_truss_routes(monkeypatch, numba):
    """GPU input: a host copy below TRUSS_HOST_MAX_ENTRIES where Numba is installed, the
    GPU's 'dot' from the bound on or without Numba; the same truss."""
    if numba and not cores._compiled().ENABLED:
        pytest.skip("Numba is not installed")
    _compiled_on(monkeypatch, numba)
    A = _kron()
    want = alg.k_truss(A, 4, method="dot")
    on = []
    _spy(monkeypatch, cores, "_truss_peel", on, lambda C, sup, k: C.device)
    _same(alg.k_truss(A.to_gpu(), 4), want)
    assert on == ([] if numba else ["gpu"])
    monkeypatch.setattr(cores, "TRUSS_HOST_MAX_ENTRIES", A.nvals)
    _same(alg.k_truss(A.to_gpu(), 4), want)
    assert on[-1:] == ["gpu"]
    # an explicit method is what it says, whatever the size
    on.clear()
    monkeypatch.setattr(cores, "TRUSS_HOST_MAX_ENTRIES", 1 << 40)
    _same(alg.k_truss(A.to_gpu(), 4, method="dot"), want)
    assert on == ["gpu"]


@pytest.mark.parametrize("numba", [True, False])
def test_label_propagation_routes(monkeypatch, numba):
    """GPU input: 'auto' on a host copy below LABEL_PROPAGATION_HOST_MAX_ENTRIES (there the
    compiled sweeps where Numba is installed, else the array path), the GPU's array path
    from the bound on; an explicit 'array' runs on the GPU and 'compiled' on the host
    whatever the size; the same labels."""
    if numba and not cores._compiled().ENABLED:
        pytest.skip("Numba is not installed")
    _compiled_on(monkeypatch, numba)
    A = _kron()
    want = alg.label_propagation(A, seed=3, method="array")
    swept, arrays = [], []
    _spy(monkeypatch, cores._compiled(), "label_propagation", swept,
         lambda indptr, *a: "gpu" if _is_gpu(indptr) else "cpu")
    _spy(monkeypatch, community, "_classes", arrays,
         lambda xp, colour: "gpu" if _is_gpu(colour) else "cpu")
    _same(alg.label_propagation(A.to_gpu(), seed=3), want)
    assert (swept, arrays) == ((["cpu"], []) if numba else ([], ["cpu"]))
    monkeypatch.setattr(community, "LABEL_PROPAGATION_HOST_MAX_ENTRIES", A.nvals)
    swept.clear()
    arrays.clear()
    _same(alg.label_propagation(A.to_gpu(), seed=3), want)
    assert (swept, arrays) == ([], ["gpu"])
    # an explicit method is what it says, whatever the size
    monkeypatch.setattr(community, "LABEL_PROPAGATION_HOST_MAX_ENTRIES", 1 << 40)
    arrays.clear()
    _same(alg.label_propagation(A.to_gpu(), seed=3, method="array"), want)
    assert (swept, arrays) == ([], ["gpu"])
    monkeypatch.setattr(community, "LABEL_PROPAGATION_HOST_MAX_ENTRIES", 0)
    arrays.clear()
    _same(alg.label_propagation(A.to_gpu(), seed=3, method="compiled"), want)
    assert (swept, arrays) == (["cpu"], [])


def test_louvain_explicit_methods_are_what_they_say(monkeypatch):
    """GPU input: an explicit 'batch' runs the GPU's local moves even below
    LOUVAIN_HOST_MAX_ENTRIES, an explicit 'sequential' the host's at any size."""
    A = _kron()
    seen = []
    _spy(monkeypatch, community, "_local_moves", seen, lambda Ap, *a: Ap.device)
    monkeypatch.setattr(community, "LOUVAIN_HOST_MAX_ENTRIES", 1 << 40)
    got = alg.louvain(A.to_gpu(), seed=1, method="batch")
    assert sr.is_gpu_array(got) and seen and set(seen) == {"gpu"}, seen
    monkeypatch.setattr(community, "LOUVAIN_HOST_MAX_ENTRIES", 0)
    seen.clear()
    want = alg.louvain(A, seed=1, method="sequential")
    _same(alg.louvain(A.to_gpu(), seed=1, method="sequential"), want)
    assert seen and set(seen) == {"cpu"}, seen  # the compiled moves, on the host


def test_bfs_of_a_small_road_graph_searches_a_host_copy(monkeypatch):
    """A 70 x 70 grid (4900 vertices: above the one-block search's SMALL_N, mean degree 4)
    on the GPU: SciPy's search on the host copy kept on A, the levels (and a tree) on the GPU,
    equal to the CPU's; from the bound on, and for a denser graph, the GPU's own search."""
    bfs_module = importlib.import_module("algorithms.bfs")
    S = gen.make_graph(gen.parse_graph_spec("grid-70x70"))
    A = sr.Matrix.from_scipy(S, device="gpu")
    assert bfs_module.SMALL_N < A.nrows <= bfs_module.ROAD_HOST_MAX_N
    seen = []
    _spy(monkeypatch, sr.traversal, "bfs_csgraph", seen, lambda H, *a: H.device)
    want = alg.bfs(sr.Matrix.from_scipy(S, device="cpu"), 17)
    seen.clear()
    for _ in range(2):  # the second call reuses the host copy
        got = alg.bfs(A, 17)
        assert sr.is_gpu_array(got)
        np.testing.assert_array_equal(to_host(got), want)
    level, parent = alg.bfs(A, 17, parents=True, deterministic=True)
    assert sr.is_gpu_array(parent)
    np.testing.assert_array_equal(to_host(level), want)
    assert seen == ["cpu"] * 3
    assert "host_copy" in A._memo
    seen.clear()
    monkeypatch.setattr(bfs_module, "ROAD_HOST_MAX_N", A.nrows - 1)
    np.testing.assert_array_equal(to_host(alg.bfs(A, 17)), want)
    dense = sr.Matrix.from_scipy(gen.make_graph(gen.parse_graph_spec("urand-13-ef4")),
                                 device="gpu")
    monkeypatch.setattr(bfs_module, "ROAD_HOST_MAX_N", 1 << 14)
    alg.bfs(dense, 0)
    assert seen == []


def test_pagerank_of_a_small_graph_iterates_on_the_host(monkeypatch):
    """PageRank of small GPU input with ``progress`` (without, the fused launch answers:
    tests/test_pagerank_fused.py): the host copy's iterations (its arguments on the GPU moved
    over), the ranks on the GPU and equal to the CPU's; a convergence error's iterate on the
    GPU; from the bound on, the GPU's iterations."""
    pr_module = importlib.import_module("algorithms.pagerank")
    H = sr.Matrix.from_scipy(gen.make_graph(gen.parse_graph_spec("urand-8-ef4")), device="cpu")
    A = H.to_gpu()
    assert A.nvals < pr_module.HOST_MAX_ENTRIES
    seen, sweeps = [], []
    _spy(monkeypatch, sr.centrality, "power_step", seen, lambda t, *a: t.device)
    p = np.arange(A.nrows, dtype=np.float64)
    want = alg.pagerank(H, personalization=p)
    seen.clear()
    got = alg.pagerank(A, personalization=sr.to_device(p, "gpu"),
                       progress=lambda it, e: sweeps.append(it))
    assert sr.is_gpu_array(got) and set(seen) == {"cpu"} and sweeps == list(range(1, len(seen) + 1))
    np.testing.assert_array_equal(to_host(got), want)
    with pytest.raises(alg.ConvergenceError) as err:
        alg.pagerank(A, max_iter=1, progress=lambda it, e: None)
    assert sr.is_gpu_array(err.value.result)
    seen.clear()
    monkeypatch.setattr(pr_module, "HOST_MAX_ENTRIES", A.nvals)
    np.testing.assert_allclose(to_host(alg.pagerank(A, personalization=p,
                                                    progress=lambda it, e: None)),
                               want, rtol=1e-9)
    assert seen and set(seen) == {"gpu"}


def test_strong_components_of_small_gpu_input_run_tarjan_on_the_host_copy(monkeypatch):
    A = _kron()
    want = alg.connected_components(A, "strong")
    calls = []
    for name in ("_tarjan", "_coloring"):
        _spy(monkeypatch, components, name, calls, lambda M, *a, name=name: name)
    G = A.to_gpu()
    got = alg.connected_components(G, "strong")
    assert sr.is_gpu_array(got) and calls == ["_tarjan"]
    np.testing.assert_array_equal(to_host(got), want)
    assert "host_copy" in G._memo
    monkeypatch.setattr(components, "STRONG_HOST_MAX_ENTRIES", G.nvals)
    np.testing.assert_array_equal(to_host(alg.connected_components(G, "strong")), want)
    assert calls == ["_tarjan", "_coloring"]


def _spy_products(monkeypatch, seen):
    """Record the device of the matrix of each ``sr.mxv`` / ``sr.vxm``."""
    for op in ("mxv", "vxm"):
        _spy(monkeypatch, sr, op, seen, lambda *a: next(
            x.device for x in a if isinstance(x, sr.Matrix)))


def _results(out):
    """hits' (hubs, authorities), or the one array of the others."""
    return out if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("name", ["eigenvector_centrality", "katz_centrality", "hits"])
def test_the_other_power_iterations_of_small_gpu_input_run_on_the_host_copy(monkeypatch, name):
    """eigenvector_centrality, katz_centrality and hits of GPU input below
    ``pagerank.HOST_MAX_ENTRIES`` (the power iterations' bound, read at call time): every
    product on the host copy, the GPU arguments moved over, the results on the GPU
    and equal to the CPU's; a convergence error's iterate on the GPU; from the bound on, the
    GPU's products."""
    pr_module = importlib.import_module("algorithms.pagerank")
    H = sr.Matrix.from_scipy(gen.make_graph(gen.parse_graph_spec("urand-8-ef4")), device="cpu")
    A = H.to_gpu()
    assert A.nvals < pr_module.HOST_MAX_ENTRIES
    # (katz: unit weights and α below 1 / λ, λ ≈ the mean degree 8: it converges)
    kw = {"alpha": 0.05, "weighted": False} if name == "katz_centrality" else {}

    def fn(M, **more):
        return getattr(alg, name)(M, **kw, **more)
    start = np.arange(1, A.nrows + 1, dtype=np.float64)
    seen = []
    _spy_products(monkeypatch, seen)
    want = fn(H, nstart=start)
    seen.clear()
    steps = []
    got = fn(A, nstart=sr.to_device(start, "gpu"), progress=lambda it, e: steps.append(it))
    assert seen and set(seen) == {"cpu"} and steps and steps == list(range(1, len(steps) + 1))
    for g, w in zip(_results(got), _results(want), strict=True):
        assert sr.is_gpu_array(g)
        np.testing.assert_array_equal(to_host(g), w)
    with pytest.raises(alg.ConvergenceError) as err:
        fn(A, max_iter=1, tol=1e-300)
    assert sr.is_gpu_array(err.value.result)
    seen.clear()
    monkeypatch.setattr(pr_module, "HOST_MAX_ENTRIES", A.nvals)
    again = fn(A, nstart=start)
    for g, w in zip(_results(again), _results(want), strict=True):
        np.testing.assert_allclose(to_host(g), w, rtol=1e-9, atol=1e-15)
    assert seen and set(seen) == {"gpu"}


def test_networkx_hits_power_iteration_of_a_small_gpu_graph_runs_on_the_host_copy(monkeypatch):
    """The backend's NetworkX 3.7 ``hits`` (its own loop, nx_semiring.centrality) takes the
    same route: products on the host copy of the graph's GPU matrix, the answer the GPU
    loop's to rounding."""
    nx = pytest.importorskip("networkx")
    from nx_semiring import centrality as nxc  # noqa: PLC0415  (the NetworkX extra)

    pr_module = importlib.import_module("algorithms.pagerank")
    G = nx.gnm_random_graph(300, 1500, seed=3, directed=True)
    seen = []
    _spy_products(monkeypatch, seen)
    h, a = nxc._hits_power_iteration(G, 100, 1e-8, None, True)
    assert seen and set(seen) == {"cpu"}
    seen.clear()
    monkeypatch.setattr(pr_module, "HOST_MAX_ENTRIES", 0)
    h2, a2 = nxc._hits_power_iteration(G, 100, 1e-8, None, True)
    assert seen and set(seen) == {"gpu"}
    for got, want in ((h, h2), (a, a2)):
        assert list(got) == list(want)
        np.testing.assert_allclose(list(got.values()), list(want.values()), rtol=1e-9,
                                   atol=1e-15)
