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
