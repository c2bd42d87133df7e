"""Never a hang (session 16 termination audit): loops whose end depends on input values.

Each test drives one loop with the awkward input that made it run forever before its fix and
checks the fixed behaviour (the reference's answer or a clear error) under a deadline, so
that a regression fails instead of hanging the suite. The loops audited and why each ends:
``bench/results/session16/hang10.md``.
"""

from __future__ import annotations

import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

import algorithms
import semiring as sr
from conftest import deadline


def _ring(device, weights, dtype):
    """The 6-ring 0-1-2-3-4-5-0, both directions, edge i-(i+1) of weight weights[i]."""
    u = np.arange(6)
    v = (u + 1) % 6
    w = np.asarray(weights, dtype=dtype)
    S = sp.csr_matrix((np.concatenate([w, w]), (np.concatenate([u, v]), np.concatenate([v, u]))),
                      shape=(6, 6))
    return sr.Matrix.from_scipy(S, device=device)


# ------------------------------------------------------------------ maximum flow


@pytest.mark.parametrize("big", [2**62, 2**61 + 2**60])
def test_push_relabel_huge_capacities_refused_not_looping(device, big):
    """Capacities of 2**62 wrapped push–relabel's int64 prefix sums (2 Σ cap > 2**63) and its
    rounds never ended; now refused before any round, naming the bound."""
    A = _ring(device, [big, big, 1, big, 2, 3], np.int64)
    with deadline(20), pytest.raises(sr.InvalidValue, match=r"sum to at most 2\*\*61"):
        algorithms.maximum_flow(A, 0, 5, method="push_relabel")


def test_push_relabel_large_capacities_below_the_bound(device):
    """Just below the bound the flow is exact (the min cut: edge 5-0 of 3 and the ring's
    edge 2-3 of 1), as SciPy's Dinic on capacities that fit its int32."""
    big = 2**58
    A = _ring(device, [big, big, 1, big, 2, 3], np.int64)
    with deadline(20):
        res = algorithms.maximum_flow(A, 0, 5, method="push_relabel")
    assert res.flow_value == 4
    small = _ring("cpu", [1000, 1000, 1, 1000, 2, 3], np.int64)
    ref = scg.maximum_flow(small.to_scipy().astype(np.int32), 0, 5).flow_value
    assert ref == 4


# ------------------------------------------------------------------ Yen's K shortest paths


def test_yen_huge_k_on_a_clique_ends_with_every_path(device):
    """K far beyond the number of loopless paths: every path, ascending, as SciPy. Each spur
    scanned every path found so far for the edges to avoid (O(K²)): the 9-clique's 13700
    paths took minutes (SciPy's: under a second); a prefix table makes it one look-up. On the
    GPU each spur is a device SSSP: the 7-clique's 326 paths there."""
    n = 9 if device == "cpu" else 7
    S = sp.csr_matrix(np.ones((n, n)) - np.eye(n))
    expected = scg.yen(S, 0, n - 1, 10**6)
    A = sr.Matrix.from_scipy(S, device=device)
    with deadline(90):
        got = algorithms.csgraph.yen(A, 0, n - 1, 10**6)
    # the loopless paths: j of the other n - 2 vertices in order between the ends
    assert got.shape == expected.shape == (sum(math.perm(n - 2, j) for j in range(n - 1)),)
    np.testing.assert_array_equal(sr.to_device(got, "cpu"), expected)


# ------------------------------------------------------------------ Louvain


def test_louvain_total_weight_past_the_float_range(device):
    """Weights of 1e308 make 2m infinite: every gain was NaN and, before, the sweep's arg-max
    of a row of NaN gains indexed an empty array (IndexError). Louvain is scale-free, so the
    engine scales such weights by a power of two (``community._in_range``) and answers as for
    the same ring with weights 1e308 times smaller. NetworkX, whose gains are NaN here, leaves
    every vertex alone (and raises OverflowError at 1e200, where (2m)² overflows)."""
    heavy = [1e308, 1e308, 1.0, 1e308, 1.0, 1e308]
    A = _ring(device, heavy, np.float64)
    with deadline(20):
        got = sr.to_device(algorithms.louvain(A, seed=5), "cpu")
    light = _ring(device, [w / 1e308 for w in heavy], np.float64)
    want = sr.to_device(algorithms.louvain(light, seed=5), "cpu")
    np.testing.assert_array_equal(got, want)
    assert 1 < got.max() + 1 < 6  # communities of the heavy edges, not singletons


# ------------------------------------------------------------------ csgraph facade: Dijkstra

#: Runs in a child process: SciPy's compiled Dijkstra never returns to the interpreter, so an
#: alarm cannot stop it; the child is killed at the deadline instead.
_DIJKSTRA_CHILD = """
import warnings, numpy as np, scipy.sparse as sp
from algorithms import csgraph
warnings.simplefilter("ignore")
S = sp.csr_matrix(np.array([[0, -1, np.nan], [-1, 0, 0], [0, 0, 0]]))
if {device!r} == "gpu":
    import cupyx.scipy.sparse as cps
    S = cps.csr_matrix(S)
for kw in (dict(indices=0), dict(directed=False), dict(method="D")):
    f = csgraph.shortest_path if "method" in kw else csgraph.dijkstra
    try:
        f(S, **kw)
        print("answered")
    except Exception as e:
        print(type(e).__name__)
"""


def test_dijkstra_negative_weights_behind_a_nan_are_refused(device):
    """The facade refuses negative weights for Dijkstra (SciPy's loops forever on a negative
    cycle), but its test read the least weight with ``minimum`` / ``argmin``, which a NaN
    weight turns into NaN: the 2-cycle of weight -1 went to SciPy and never came back. Now
    refused as without the NaN (undirected: the negative edge is a negative cycle)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", _DIJKSTRA_CHILD.format(device=device)],
                         cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["InvalidValue", "NegativeCycleError", "InvalidValue"]


# ------------------------------------------------------------------ min-weight full matching

#: A child process again (SciPy's LAPJVsp is compiled): an 11 × 11 graph of weights 0, 5e-324,
#: 1, 2 and ±``big``, maximized, through both APIs.
_MATCHING_CHILD = """
import warnings, numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg
import algorithms
from algorithms import csgraph
W = np.ones((11, 11))
for i, js in ((3, (3, 4, 5, 7, 10)), (4, (5, 10)), (6, (5, 10)), (7, (2, 5, 10)),
              (8, (1, 10)), (9, (0, 1, 2, 3, 4, 5, 10))):
    W[i, list(js)] = 0.0
W[5, [7, 8]] = W[10, [4, 9]] = 2.0
W[8, 3] = 5e-324
big = {big}
W[4, 0] = W[6, 0] = big
W[8, 5] = -big
S = sp.csr_matrix(W)
if {device!r} == "gpu":
    import cupyx.scipy.sparse as cps
    S = cps.csr_matrix(S)
for f in (algorithms.min_weight_full_bipartite_matching, csgraph.min_weight_full_bipartite_matching):
    try:
        print(f(S, maximize=True)[1].tolist())
    except Exception as e:
        print(type(e).__name__)
"""


@pytest.mark.parametrize("big", [1e16, 1e300])
def test_min_weight_matching_of_weights_too_far_apart_is_refused(device, big):
    """SciPy's LAPJVsp never returned on this graph (its reduced costs round below zero once
    float64 sums absorb the gaps between weights): both APIs now refuse such weights before
    calling it (``check_lapjvsp_range``)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    code = _MATCHING_CHILD.replace("{big}", repr(big)).replace("{device!r}", repr(device))
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["InvalidValue", "InvalidValue"]


def test_min_weight_matching_of_ordinary_weights_is_scipys(device):
    """The range check refuses nothing SciPy answers on ordinary weights: decimals of a few
    orders of magnitude, integers up to 1e12, maximized or not."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        W = rng.choice([0.0, 0.5, 1.0, 3.0, 1e6, 2.5e8, -7.0], (6, 8))
        np.fill_diagonal(W, rng.integers(1, 9, 6))
        S = sp.csr_matrix(W)
        for maximize in (False, True):
            try:
                ref = scg.min_weight_full_bipartite_matching(S, maximize=maximize)
            except ValueError:
                continue
            A = sr.Matrix.from_scipy(S, device=device)
            got = algorithms.min_weight_full_bipartite_matching(A, maximize=maximize)
            for g, r in zip(got, ref):
                np.testing.assert_array_equal(sr.to_device(g, "cpu"), r)
    I = sp.csr_matrix(rng.choice([0, 1, 7, 10**12, -10**12], (6, 8)).astype(np.float64)
                      + np.eye(6, 8))
    ref = scg.min_weight_full_bipartite_matching(I)
    got = algorithms.min_weight_full_bipartite_matching(sr.Matrix.from_scipy(I, device=device))
    np.testing.assert_array_equal(sr.to_device(got[1], "cpu"), ref[1])
