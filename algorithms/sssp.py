"""Single-source shortest paths as min-plus relaxations of a frontier.

- :func:`bellman_ford`: the frontier Bellman–Ford of Harish & Narayanan (2007) with the
  atomic-min correction (seed 000): each round relaxes only the out-edges of the vertices
  whose distance changed in the previous round. Negative weights are allowed; a negative cycle
  reachable from the source is reported after at most n rounds (one through a −inf weight,
  whose −inf distances no round lowers, by a check of the −inf vertices' edges afterwards).
- :func:`delta_stepping`: Meyer & Sanders (2003), "Δ-stepping: a parallelizable shortest path
  algorithm": light edges (w ≤ Δ) are relaxed to a fixed point inside a bucket of width Δ,
  heavy edges (w > Δ) once when the bucket closes. Non-negative weights only.
- :func:`sssp`: chooses between them (negative weights → Bellman–Ford).

Value types. Distances have the matrix's type (bool, i.e. unweighted, gives float64 with
every edge 1). Unreachable vertices hold ``inf`` for floats and the type's maximum
(``np.iinfo(dtype).max``) for integers. Integer distances never wrap around: the relaxation
runs in a type where no candidate sum can overflow. A candidate is the length of a walk of at
most n edges (at most n rounds, each adding one edge), so with ``n · max|w| < max`` the type
itself is safe; otherwise int32 relaxes in int64 (then any distance outside int32 raises
:class:`DistanceOverflow`), and int64 raises :class:`DistanceOverflow` up front (a
conservative bound check: such weights are beyond any practical graph; convert to float64).
Likewise float32 distances never round to inf (which would read as "unreached"): with
(n − 1) · max|w| past float32's largest value the relaxation runs in float64, and a finite
distance beyond float32's range raises :class:`DistanceOverflow`.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as _scg

import semiring as sr
from semiring.errors import check_flags
from semiring import (DomainMismatch, InvalidIndex, InvalidValue, Matrix,
                      NegativeCycleError, SemiringError, as_matrix, spmm)

from .bfs import bfs

#: Push (SpMSpV over the frontier's rows) while the frontier holds fewer than this fraction of
#: the vertices, else pull (SpMV over Aᵀ). A min-plus pull has no early exit (min's terminal
#: value is −inf), so it pays for every edge; the push pays for the frontier's edges plus
#: atomics. Beamer et al. (2012) switch BFS at n/β with β = 24. On an H100 (bench/probes/probe_tune.py,
#: session 3) 1/4, 1/16 and 1/64 were within run-to-run noise on Kronecker 21 and 22.
PULL_FRACTION = 1 / 16
#: ... and pull as well when the frontier's out-edges exceed this fraction of all edges: a
#: push pays an atomic per edge, the pull one streaming pass. On an H100, Kronecker-22's
#: third round (40 404 vertices, mostly hubs) took 2.5 ms pushed against 1.45 ms for a
#: whole pull (bench/probes/profile_sssp.py).
PULL_EDGE_FRACTION = 1 / 8

#: Automatic Δ = DELTA_SCALE · max w, never below the smallest positive weight.
#: Meyer & Sanders (2003, §3) take Δ = Θ(1/d) for weights in [0, 1] and degree d, which
#: minimizes work on a sequential machine; on the GPU every bucket costs device round trips,
#: so far fewer, wider buckets win. Measured on an H200 (bench/probes/probe_sssp.py, fused rounds on,
#: weights in [1, 255]): Δ = 8 · max w gave Kronecker-21 12.5 ms, Kronecker-22 20.6 ms and the
#: 2048² grid 338 ms, against 44 / 52 / 1065 ms for Δ = 4 · max w / d̄ (d̄ the average degree:
#: 32 and 4), and the grid slowed again past Δ ≈ 8 · max w (2.1 s at 64 · max w).
DELTA_SCALE = 8.0

#: :func:`multi_source_sssp` with w >= 0 stops its batched rounds after this many and
#: finishes each source still changing by its own :func:`delta_stepping` (on the CPU, SciPy's
#: Dijkstra a source from the start, where exact: :func:`_cpu_dijkstra`). A batched round
#: relaxes every edge for every source, and the rounds number the shortest paths' hops: on
#: GAP's low-diameter graphs about 13-21 (Kronecker-12/14, urand-14, 8 sources), where the
#: batch stays; on a grid the side length, so the rounds cost O(m · s · diameter) (2 cores,
#: csgraph's engine path, 8 sources: grid-256² 14.4 s against SciPy's 0.09 s; the GPU bench
#: on grid-2048², 4094 hops, did not finish). The cap bounds the batch's waste to 64 rounds
#: (about 8 single searches' edge work for 8 sources) before the O(n + m) searches take over.
BATCH_ROUNDS = 64

#: Fused relaxation rounds (one GPU block, no host round trip per round) while the frontier
#: holds at most this many vertices and out-edges, as in algorithms.bfs; road-like graphs
#: run thousands of narrow rounds.
FUSED_FRONTIER = sr.traversal.QUEUE
FUSED_EDGES = sr.traversal.MAX_EDGES
#: Ordinary rounds after a fused call handed back at once (a narrow but edge-heavy frontier).
FUSED_BACKOFF = 4

#: On the CPU, with non-negative weights and ``direction="auto"``, run SciPy's compiled
#: Dijkstra (``sr.traversal.dijkstra_csgraph``, float64 sums) instead of the relaxation
#: rounds wherever its answer is provably the relaxation's in A's type (:func:`_cpu_dijkstra`).
#: On this repository's 2-core host (``python -m bench --device cpu``) the rounds took 6-24x
#: SciPy's Dijkstra.
CPU_CSGRAPH = True
#: ... and there, where Numba is enabled (the ``cpu`` extra), the project's compiled Dijkstra
#: (``dijkstra_csgraph(..., compiled=True)``: Dijkstra (1959) over a 4-ary heap with
#: decrease-key, Johnson's d-heaps (1975)) in place of SciPy's Fibonacci heap (Fredman &
#: Tarjan 1987): the same float64 distances bit for bit (its docstring says why), so the
#: exactness conditions of :func:`_cpu_dijkstra` stand. On this repository's 2-core host
#: (bench/results/session25/sssp25_alternating.py, alternating, medians of 15 rounds, load
#: 1.7-1.9) ``delta_stepping`` took 0.55 / 2.5 / 14.7 / 4.4 / 27.3 / 9.8 ms on kron-12 / 14 /
#: 16, urand-14 / 16 and grid-256x256 against SciPy's ``dijkstra`` on the bench's CSR 1.58 /
#: 6.5 / 32.9 / 10.4 / 58.8 / 13.5 (2.9 / 2.6 / 2.2 / 2.4 / 2.2 / 1.4x); SciPy's route took
#: 1.36 / 6.0 / 31.4 / 10.4 / 57.4 / 14.7.
CPU_COMPILED_DIJKSTRA = True

#: On the GPU, run the whole search as one persistent launch (``sr.traversal.sssp_grid``: the
#: near–far pile of Davidson, Baxter, Garland & Owens, IPDPS 2014, its buckets and rounds on
#: the device, a grid-wide barrier a round) instead of the host-driven buckets: "auto" (on the
#: GPU with w >= 0, ``direction="auto"``, at most sr.traversal.BFS_GRID_MAX_N vertices),
#: "always" (any direction, w >= 0) or "never" (the tests and probes set them). On an H100
#: (bench/probes/road_probe.py, Δ = 16 · max w, one block a multiprocessor) the 2048² grid took
#: 36.1 ms against 285 ms for the host buckets and 1169 ms for SciPy's Dijkstra (32x), rgg-22
#: 17.3 ms against 256 and 1459 ms (84x): thousands of narrow rounds (the grid's 4300) cost the
#: host a round trip each. On GAP's low-diameter graphs the loop at that Δ was no faster than
#: the host (Kronecker-22 12.8 against 11.1 ms, urand-22 28.8 against 30.7): one bucket there,
#: a Bellman–Ford relaxing 2.6 m (Kronecker) and 5.2 m (urand) edges. At Δ = max w / 16 it
#: relaxed 1.06 m on urand-22 (9.5 ms) and at max w / 32 1.2 m on Kronecker-22 (10.1 ms)
#: (bench/probes/sssp_dense_probe.py, session 8): those graphs take the loop too, with the
#: bucket width DENSE_DELTA_SCALE · max w / d̄.
DEVICE_LOOP = "auto"
#: The device loop's Δ on graphs that are not road-like: DENSE_DELTA_SCALE · max w / d̄ (d̄ the
#: mean out-degree, nvals / n), Meyer & Sanders' Δ = Θ(1/d) (2003, §3: for random weights in
#: [0, 1] and degree d, O(1) re-relaxations of an edge and few rounds a bucket). On an H100
#: (sssp_dense_probe.py, the "search" schedule, two blocks a multiprocessor, best of 3):
#: urand-22 (d̄ 32) 12.4 / 10.6 / 9.7 / 9.8 ms at Δ = 0.5 / 1 / 2 / 4 · max w / d̄ (1.00 / 1.01 /
#: 1.06 / 1.17 m edges relaxed), Kronecker-22 (d̄ 30.6) 11.3 / 10.1 / 11.0 / 12.2 ms (1.14 /
#: 1.33 / 1.84 / 2.16 m: its hubs are relaxed again as Δ grows); at Δ = 16 · max w (one
#: bucket; best of 4, an earlier run) 29.3 and 13.0 ms.
DENSE_DELTA_SCALE = 1.0
#: Road-like graphs (mean out-degree up to ROAD_MEAN_DEGREE: meshes, grids, random geometric
#: graphs, road networks; GAP's Kronecker and uniform graphs have 32) run the device loop on
#: ROAD_BLOCKS_PER_SM blocks a multiprocessor, the others (DEVICE_LOOP = "always") and the
#: Bellman–Ford's one wide bucket on OTHER_BLOCKS_PER_SM: a barrier among fewer blocks is
#: cheaper, and a narrow round is mostly barrier. On an H100 (road_probe.py, Δ = 16 · max w)
#: one block took 37.9 ms on the 2048² grid against 42.1 for two (a build loading the
#: frontier's samples in every block; 36.1 ms on one in the final build) and 18.0 ms on rgg-22
#: against 20.0; Kronecker-22 took 22.1 ms on one against 12.9 on two, urand-22 51.9 against
#: 29.3, and the grid's Bellman–Ford 149 ms on one against 114 on two.
ROAD_MEAN_DEGREE = 12
ROAD_BLOCKS_PER_SM = 1
OTHER_BLOCKS_PER_SM = 2
#: A graph of at most SMALL_EDGES edges runs the device loop under "auto" whatever its degree
#: (issue 21: the first and the small calls). The host buckets pay a host round trip a bucket
#: and CuPy kernels that compile on a first call; the loop won on GAP's graphs up to scale 20
#: (road_probe.py above: Kronecker 3.2 against 6.9 ms, urand 6.3 against 20.9), far beyond.
SMALL_EDGES = 2**16
#: The device loop's edge schedule (``sr.traversal.sssp_grid``'s ``schedule``) on road-like
#: graphs and on the others: "search" (each edge searches its frontier slot: shared-memory
#: samples, then dependent L2 loads) or "ranges" (a contiguous range of a round's edges a
#: warp, its frontier slots found once: kernels/sssp.cu). On an H100 (sssp_dense_probe.py,
#: session 8's merged tree) "ranges" took 6.17 / 6.28 ms on Kronecker-22 / urand-22 against
#: 8.63 / 8.55 for "search"; on the road-like graphs the two were even (grid-2048x2048 35.7 /
#: 36.3 ms, rgg-22 18.0 / 17.6 ms, an earlier build), so road-like graphs keep "search".
ROAD_SCHEDULE = "search"
OTHER_SCHEDULE = "ranges"
#: Bellman–Ford (a near–far search with Δ = ∞: one bucket) takes the device loop on graphs
#: that are not road-like as well (direction "auto"). On an H100 (sssp_dense_probe.py, the
#: "search" schedule, two blocks) the loop at Δ = 16 · max w (one bucket, as Bellman–Ford's)
#: took 13.0 ms on Kronecker-22 and 29.3 on urand-22, the host's Bellman–Ford rounds 12.4 and
#: 32.2 (another run): not clearly better, so no.
BELLMAN_DEVICE_DENSE = False
#: The device loop's bucket width: Δ = DEVICE_DELTA_SCALE · max w (at least the smallest
#: positive weight). On an H100 (road_probe.py) the 2048² grid took 42.2 / 40.5 / 41.2 / 44.7 ms
#: at 8 / 16 / 32 / 64 · max w on two blocks a multiprocessor (4693 / 4331 / 4110 / 3966 rounds
#: of 9.0-11.3 µs; wider buckets relax edges again: 2.1 / 3.1 / 5.4 / 10.1 m edges in all) and
#: 39.7 / 37.9 / 38.3 / 43.4 ms on one (a build loading the frontier's samples in every block);
#: rgg-22 19.2 / 18.0 / 17.3 / 16.9 ms on one. Davidson et al. (2014, §5) size Δ from (warp
#: width) · (mean weight) / (mean degree), 1024 ≈ 4 · 255 on a GAP-weighted grid: 50.5 ms there
#: (the first build, two blocks).
DEVICE_DELTA_SCALE = 16.0

METHODS = ("auto", "bellman_ford", "delta_stepping")
DIRECTIONS = ("auto", "push", "pull")


class DistanceOverflow(SemiringError, OverflowError):
    """A distance does not fit in the value type (an integer type's range, or float32's,
    past which a sum would round to inf: "unreached")."""


#: Per-matrix facts (weight range, NaN, light/heavy split) computed once and kept in the
#: matrix's ``_memo`` under this key, which drops them when its content changes (an ``out=``
#: of an operation): a weak-keyed table by the Matrix object kept a replaced content's
#: weight range, and a negative weight written later would have met Dijkstra.
FACTS_KEY = "sssp.facts"


def _semiring_of(work) -> sr.Semiring:
    """The semiring of shortest paths on a work type: min_plus on floats, min_plus_sat (its
    add saturates at the type's maximum, the integers' infinity) on integers."""
    return sr.min_plus if np.dtype(work).kind == "f" else sr.min_plus_sat


def _matrix_facts(A: Matrix) -> dict:
    f = A._memo.get(FACTS_KEY)
    if f is None:
        f = {}
        if A.nvals == 0:
            f.update(min=0, max=0, min_pos=None, nan=False)
        elif A.is_iso:
            w = np.asarray(A.iso_value).astype(_weight_type(A.dtype))[()]
            f.update(min=w, max=w, min_pos=w if w > 0 else None, nan=bool(np.isnan(w)))
        else:
            v = A.values.astype(_weight_type(A.dtype), copy=False)
            if v.dtype.kind == "f":
                # min and max propagate NaN (as NumPy's): no isnan().any(), nanmin, nanmax, CUB
                # reductions of ~5 s each to compile on a fresh CuPy cache (probe_first_call.py)
                lo, hi = float(v.min()), float(v.max())
                nan = math.isnan(lo) or math.isnan(hi)
                if nan:
                    lo, hi = 0.0, 0.0
            else:
                nan = False
                lo, hi = v.min().item(), v.max().item()
            # the least positive weight only where _auto_delta needs it (_min_pos): its
            # where() and compare are CuPy kernels that compile on a first call
            f.update(min=lo, max=hi, nan=nan)
        A._memo[FACTS_KEY] = f
    return f


def _cpu_dijkstra(A: Matrix, source: int, facts, work, direction: str):
    """The distances in ``work`` by SciPy's Dijkstra where they are exactly those of the
    min-plus relaxation in ``work``, else None (then the rounds run).

    With w ≥ 0 rounding is monotone and never lowers a partial sum, so Dijkstra's float64
    result is the least float64 path sum, the relaxation's in float64. Integer weights (and
    float32 ones holding integers) make every path sum below 2^53 (2^24 for float32) exact,
    and a path whose exact sum is larger rounds to at least that bound: when every finite
    distance lies below it, the least sum is the same in both types."""
    if not (CPU_CSGRAPH and A.device == "cpu" and direction == "auto" and facts["min"] >= 0
            and A.nvals and sr.traversal.csgraph_fits(A)):
        return None
    if work == np.float32:
        if "integral" not in facts:
            w = A.values if not A.is_iso else np.asarray([A.iso_value], dtype=np.float32)
            facts["integral"] = bool((w == np.floor(w)).all())
        if not facts["integral"]:
            return None
        bound = 2.0**24
    elif work.kind in "iu":
        bound = 2.0**53
        if facts["max"] >= bound:
            return None
    elif work == np.float64:
        bound = np.inf
    else:
        return None
    d = sr.traversal.dijkstra_csgraph(A, source, compiled=CPU_COMPILED_DIJKSTRA)
    if bound < np.inf:  # a finite distance at or beyond the bound (inf: unreached)
        big = d >= bound
        if bool(big.any()) and bool((d[big] != np.inf).any()):
            return None
    if work.kind in "iu":
        reached = d != np.inf
        out = np.full(d.size, np.iinfo(work).max, dtype=work)  # unreached: the type's maximum
        out[reached] = d[reached].astype(work)
        return out
    return d.astype(work)


def _t_max(dtype):
    dt = np.dtype(dtype)
    return np.inf if dt.kind == "f" else np.iinfo(dt).max


def _weight_type(dtype) -> np.dtype:
    """Distances of a matrix of ``dtype``: bool (unweighted) counts edges in float64."""
    dt = np.dtype(dtype)
    return np.dtype(np.float64) if dt == np.bool_ else dt


def _prepare(A, source, op: str, direction: str, symmetric: bool = False):
    A = as_matrix(A, op=op, arg="A", square=True)
    n = A.nrows
    if isinstance(source, bool) or not isinstance(source, (int, np.integer)):
        raise DomainMismatch(f"{op}: source must be an integer, got {type(source).__name__}")
    if not 0 <= int(source) < n:
        raise InvalidIndex(f"{op}: source must lie in [0, {n}), got {int(source)}")
    if direction not in DIRECTIONS:
        raise InvalidValue(f"{op}: direction must be one of {DIRECTIONS}, got {direction!r}")
    if symmetric:
        A = A.as_symmetric()  # Aᵀ is A itself: the pull reads A's rows
    facts = _matrix_facts(A)
    if facts["nan"]:
        raise InvalidValue(f"{op}: A has NaN weights; shortest paths are undefined")
    out_type = _weight_type(A.dtype)
    return A, int(source), facts, out_type


#: The largest float32: float32 distances that could pass it relax in float64 (a sum past it
#: rounds to inf, which reads as "unreached").
F32_MAX = float(np.finfo(np.float32).max)


def _work_type(op: str, out_type, n: int, facts) -> np.dtype:
    """The type the relaxation runs in (see the module docstring): no candidate can wrap, and
    no float32 candidate can round to inf."""
    if out_type.kind == "f":
        big = max(abs(float(facts["min"])), abs(float(facts["max"])))
        if out_type == np.float32 and max(n - 1, 1) * big >= F32_MAX:
            return np.dtype(np.float64)
        return out_type
    bound = n * max(abs(int(facts["min"])), abs(int(facts["max"])))
    if bound < np.iinfo(out_type).max:
        return out_type
    if out_type == np.int32 and bound < np.iinfo(np.int64).max:
        return np.dtype(np.int64)
    raise DistanceOverflow(
        f"{op}: int64 distances may overflow: n (={n}) times the largest |weight| "
        f"(={max(abs(int(facts['min'])), abs(int(facts['max'])))}) exceeds the int64 range; "
        f"use float64 weights")


def _finish(op, d, work, out_type):
    """Distances in the output type; unreachable = inf / the type's maximum."""
    if work == out_type:
        return d
    xp = _xp(d)
    if out_type.kind == "f":  # float32 relaxed in float64: ±inf stay (unreached, −inf weights)
        if bool((xp.isfinite(d) & (xp.abs(d) > F32_MAX)).any()):
            raise DistanceOverflow(f"{op}: a shortest distance lies outside the float32 range; "
                                   f"use float64 weights")
        return d.astype(out_type)
    inf_w = _t_max(work)
    reached = d != inf_w
    info = np.iinfo(out_type)
    if bool((reached & ((d >= info.max) | (d < info.min))).any()):
        raise DistanceOverflow(f"{op}: a shortest distance lies outside the {out_type} range; "
                               f"use int64 or float64 weights")
    return xp.where(reached, d, info.max).astype(out_type)


def _xp(a):
    return sr.array_module(sr.device_of(a))


class _Fused:
    """When to run fused relaxation rounds (:func:`semiring.traversal.relax_rounds`): a push
    frontier of at most FUSED_FRONTIER vertices; after a hand-back on a frontier with too
    many edges (no round run), the next FUSED_BACKOFF rounds go the ordinary way."""

    def __init__(self):
        self.wait = 0

    def ready(self, size, direction) -> bool:
        if self.wait:
            self.wait -= 1
            return False
        return direction != "pull" and size <= FUSED_FRONTIER

    def ran(self, status, rounds):
        if status == "wide" and rounds == 0:
            self.wait = FUSED_BACKOFF


class _Frontier:
    """A frontier as an index list (what a push makes and takes) or a bitmap (a pull's), each
    form built from the other only when the direction changes."""

    def __init__(self, xp, n, idx=None, bits=None, size=None):
        self.xp, self.n, self._idx, self._bits = xp, n, idx, bits
        self.size = int(idx.size) if size is None else size

    def idx(self):
        if self._idx is None:
            self._idx = self.xp.flatnonzero(self._bits)
        return self._idx

    def edges(self, M: Matrix) -> int:
        """The frontier's out-edges in M (a host sync)."""
        return sr.traversal.frontier_edges(M, self.idx())

    def bits(self):
        if self._bits is None:
            self._bits = self.xp.zeros(self.n, dtype=bool)
            self._bits[self._idx] = True
        return self._bits


def _round_fused(M: Matrix, d, f: _Frontier, pull: bool, hi=None, pending=None, settled=None):
    """One relaxation round from f over M's rows; returns the next frontier (improved below
    hi). With pending/settled, a round of a delta-stepping bucket (f leaves pending for
    settled, the improved vertices become pending)."""
    xp = _xp(d)
    # t = f min.+ M;  d⟨t < d⟩ = t;  f = {v : t(v) < d(v), t(v) < hi}
    if pull:
        # (masked SpMV over Mᵀ's rows and one pass of bookkeeping: sr.traversal.pull_relax)
        bits, size = sr.traversal.pull_relax(M, d, f.bits(), hi=hi, pending=pending,
                                          settled=settled)
        return _Frontier(xp, f.n, bits=bits, size=size)
    # (SpMSpV over the frontier's out-edges with an atomic min on d: sr.traversal.push_relax)
    idx, size = sr.traversal.push_relax(M, d, f.idx(), hi=hi, pending=pending, settled=settled)
    return _Frontier(xp, f.n, idx=idx, size=size)


def _round_algebra(M: Matrix, d, f: _Frontier, pull: bool, hi=None, pending=None,
                   settled=None):
    """The round of :func:`_round_fused` with the plain operations: the statement of what the
    fused steps compute (ROUNDS = "algebra"; the tests run it against SciPy)."""
    xp, n = _xp(d), f.n
    idx = f.idx()
    if hi is None:
        hi = np.inf if d.dtype.kind == "f" else np.iinfo(d.dtype).max
    # x = d restricted to the frontier
    x = sr.Vector.from_coo(idx, d[idx], size=n, dtype=d.dtype, device=sr.device_of(d))
    # t = x min.+ M   (push: the frontier's out-edges; pull: Mᵀ's rows)
    t = sr.vxm(x, M, sr.min_plus, direction="pull" if pull else "push")
    ti, tv = t.sparse()
    tv = tv.astype(d.dtype, copy=False)
    # improved = {v : t(v) < d(v)} ;  d⟨improved⟩ = t
    imp = tv < d[ti]
    if pending is not None:
        # settled⟨f⟩ = true ;  pending⟨f⟩ = false ;  pending⟨improved⟩ = true
        settled[idx] = True
        pending[idx] = False
        pending[ti[imp]] = True
    d[ti[imp]] = tv[imp]
    # f = {v improved : t(v) < hi}
    nxt = ti[imp & (tv < hi)]
    return _Frontier(xp, n, idx=nxt.astype(xp.int64, copy=False))


#: How a relaxation round runs: "fused" (sr.traversal.push_relax / pull_relax: the product
#: and its bookkeeping in one mechanism, one host sync) or "algebra" (vxm, then the compares
#: and assigns as array operations: the readable statement, for the tests).
ROUNDS = "fused"


def _round(M: Matrix, d, f: _Frontier, pull: bool, hi=None, pending=None, settled=None):
    """One relaxation round from f over M (see :func:`_round_fused`), as ROUNDS says."""
    run = _round_algebra if ROUNDS == "algebra" else _round_fused
    return run(M, d, f, pull, hi=hi, pending=pending, settled=settled)


def _pull(direction: str, f: _Frontier, M: Matrix) -> bool:
    """True to pull the round from f over M: by the frontier's vertices, then by its edges."""
    if direction != "auto":
        return direction == "pull"
    return f.size > f.n * PULL_FRACTION or f.edges(M) > M.nvals * PULL_EDGE_FRACTION


def _device_loop(A: Matrix, facts, direction: str, bellman: bool = False) -> bool:
    """Whether to run the search as one device launch (:data:`DEVICE_LOOP`; Bellman–Ford's
    one wide bucket on road-like graphs only, unless BELLMAN_DEVICE_DENSE)."""
    if DEVICE_LOOP == "never" or A.device != "gpu" or facts["min"] < 0 \
            or not 0 < A.nrows <= sr.traversal.BFS_GRID_MAX_N:
        return False
    if DEVICE_LOOP == "always":
        return True
    return direction == "auto" and (not bellman or BELLMAN_DEVICE_DENSE or _road_like(A)
                                    or A.nvals <= SMALL_EDGES)


def _wide(work) -> float:
    """A bucket wider than any distance of the work type: the device loop's Δ = ∞."""
    return float(np.finfo(work).max) if work.kind == "f" else float(np.iinfo(work).max)


def _road_like(A: Matrix) -> bool:
    """Mean out-degree at most ROAD_MEAN_DEGREE."""
    return A.nvals <= ROAD_MEAN_DEGREE * A.nrows


def _run_device_loop(A: Matrix, source: int, delta: float, work, limit=None, per_sm=None):
    """The distances by ``sr.traversal.sssp_grid`` (None where the GPU cannot launch it)."""
    road = _road_like(A)
    if per_sm is None:
        per_sm = ROAD_BLOCKS_PER_SM if road else OTHER_BLOCKS_PER_SM
    try:
        d, _ = sr.traversal.sssp_grid(A, source, delta, dtype=work, limit=limit,
                                      blocks_per_sm=per_sm,
                                      schedule=ROAD_SCHEDULE if road else OTHER_SCHEDULE)
    except sr.BackendUnavailable:
        return None
    return d


def bellman_ford(A, source, *, predecessors=False, direction="auto", symmetric=False):
    """Shortest distances from ``source``; negative weights allowed.

    Each round relaxes the out-edges of the vertices whose distance changed in the previous
    one (frontier Bellman–Ford, Harish & Narayanan 2007, with atomic min). Without a negative
    cycle every distance is final after n − 1 rounds, so a change in round n proves a negative
    cycle reachable from the source: :class:`semiring.NegativeCycleError` is raised, naming
    the vertices of one such cycle (``err.vertices``, a NumPy array); it never runs more than
    n rounds.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        Edge i → j of weight ``A(i, j)``; missing entries are not edges, explicit zeros are
        zero-weight edges. A structure-only (iso) matrix weighs every edge its iso value
        (True: 1). Runs where ``A`` lives.
    source : int
    predecessors : bool
        Also return a shortest-path tree: ``pred[v]`` is v's parent, −1 for the source and the
        unreachable vertices (SciPy's convention, with −1 for its −9999).
    direction : {'auto', 'push', 'pull'}
        Push the frontier (SpMSpV) or pull over Aᵀ (SpMV); ``'auto'`` pulls while the
        frontier holds more than ``PULL_FRACTION`` of the vertices.
    symmetric : bool
        Promise that A equals Aᵀ (an undirected graph): the pull then reads A's rows instead
        of building the transpose.

    Returns
    -------
    dist : array of A's type (float64 for bool)
        ``inf`` (floats) or the type's maximum (integers) where unreachable.
    pred : array of int64
        Only with ``predecessors=True``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> W = np.array([[0, 4, 1, 0], [0, 0, 0, 0], [0, -2, 0, 0], [0, 0, 0, 0]], dtype=np.int32)
    >>> A = sp.csr_matrix(W)
    >>> dist, pred = algorithms.bellman_ford(A, 0, predecessors=True)
    >>> dist.tolist(), pred.tolist()
    ([0, -1, 1, 2147483647], [-1, 2, 0, -1])
    """
    predecessors, symmetric = check_flags("bellman_ford", predecessors=predecessors,
                                          symmetric=symmetric)
    if getattr(A, "is_distributed", False):  # a semiring.dist.DistMatrix: algorithms.dist
        from .dist import dispatch; return dispatch("bellman_ford", A, source, predecessors=predecessors, direction=direction, symmetric=symmetric)  # noqa: E702
    op = "bellman_ford"
    A, source, facts, out_type = _prepare(A, source, op, direction, symmetric)
    n = A.nrows
    work = _work_type(op, out_type, n, facts)
    d = _cpu_dijkstra(A, source, facts, work, direction)
    if d is not None:  # the CPU: SciPy's compiled Dijkstra, the rounds' exact answer
        dist = _finish(op, d, work, out_type)
        return (dist, _predecessors(A, source, d, work)) if predecessors else dist
    if _device_loop(A, facts, direction, bellman=True):
        # the same rounds on the device, in one launch: one bucket wider than any distance
        # (a near–far search with Δ = ∞ is the frontier Bellman–Ford)
        d = _run_device_loop(A, source, _wide(work), work, per_sm=OTHER_BLOCKS_PER_SM)
        if d is not None:
            dist = _finish(op, d, work, out_type)
            return (dist, _predecessors(A, source, d, work)) if predecessors else dist
    xp = A.xp
    d = xp.full(n, _t_max(work), dtype=work)
    d[source] = 0
    f = _Frontier(xp, n, idx=xp.asarray([source], dtype=xp.int64))
    rounds = 0
    fused = _Fused()
    while f.size and rounds < n:
        if fused.ready(f.size, direction):
            # the rounds below, run on the device while the frontier stays narrow
            status, idx, r = sr.traversal.relax_rounds(A, d, f.idx(), max_rounds=n - rounds,
                                                    max_edges=FUSED_EDGES)
            f = _Frontier(xp, n, idx=idx)
            rounds += r
            fused.ran(status, r)
            continue
        rounds += 1
        # changed = {v : (changed min.+ A)(v) < d(v)};  d⟨changed⟩ = changed min.+ A
        f = _round(A, d, f, _pull(direction, f, A))
    if f.size:  # still changing in round n
        cycle = _negative_cycle(A, source, work)
        where_ = "" if cycle is None else f": it passes through vertex {int(cycle[0])}"
        raise NegativeCycleError(
            f"{op}: a negative cycle is reachable from source {source}{where_}", vertices=cycle)
    _refuse_minus_inf_cycle(op, A, source, d, facts)
    dist = _finish(op, d, work, out_type)
    if predecessors:
        return dist, _predecessors(A, source, d, work)
    return dist


def _host_edges(A: Matrix):
    """(rows, cols, float64 weights) of A's entries on the host."""
    rows, cols, w = (np.asarray(sr.to_device(a, "cpu")) for a in A.to_coo())
    return rows, cols, w.astype(np.float64)


def _refuse_minus_inf_cycle(op, A: Matrix, source: int, d, facts, edges=None):
    """NegativeCycleError for a negative cycle that the rounds cannot see: once a distance is
    −inf (a −inf weight) no sum lowers it, so round n changes nothing although a cycle through
    a −inf edge, or a negative cycle behind one, is reachable. Only with a −inf weight and a
    −inf distance (a host pass over the −inf vertices' edges, SciPy's strong components).
    ``edges``: A's :func:`_host_edges`, when the caller checks several sources."""
    if not (facts["min"] == -np.inf and bool((d == -np.inf).any())):
        return
    n = A.nrows
    at = np.asarray(sr.to_device(d, "cpu")) == -np.inf
    rows, cols, w = _host_edges(A) if edges is None else edges
    # the edges among the −inf vertices that can relax (+inf weights never do)
    keep = at[rows] & at[cols] & (w < np.inf)
    r, c, w = rows[keep].astype(np.int64), cols[keep].astype(np.int64), w[keep]
    S = sp.csr_array((np.ones(r.size), (r, c)), shape=(n, n))
    _, lab = _scg.connected_components(S, directed=True, connection="strong")
    inner = lab[r] == lab[c]
    cycle = None
    hit = np.flatnonzero(inner & (w == -np.inf))
    if hit.size:
        # a −inf edge u → v inside a strong component closes a cycle of weight −inf: the
        # edge and a shortest path v ⇝ u inside the component
        u, v = int(r[hit[0]]), int(c[hit[0]])
        same = inner & (lab[r] == lab[u])
        T = sp.csr_array((np.ones(int(same.sum())), (r[same], c[same])), shape=(n, n))
        _, pred = _scg.breadth_first_order(T, v, directed=True, return_predecessors=True)
        path = [u]
        while path[-1] != v:
            path.append(int(pred[path[-1]]))
        cycle = np.unique(np.asarray(path, dtype=np.int64))
    else:
        # the −inf edges lie on no cycle: a negative cycle of finite weights among these
        # vertices, found from a virtual source n with a 0-weight edge to each of them
        fin = inner & np.isfinite(w)
        if fin.any():
            idx = np.flatnonzero(at)
            M = Matrix.from_coo(np.concatenate([r[fin], np.full(idx.size, n)]),
                                np.concatenate([c[fin], idx]),
                                np.concatenate([w[fin], np.zeros(idx.size)]),
                                nrows=n + 1, ncols=n + 1, device="cpu")
            cycle = _negative_cycle(M, n, np.dtype(np.float64))
    if cycle is not None:
        raise NegativeCycleError(
            f"{op}: a negative cycle is reachable from source {source}: it passes through "
            f"vertex {int(cycle[0])}", vertices=cycle)


def _min_pos(A: Matrix, facts):
    """The least positive weight (None if there is none), computed once per matrix."""
    if "min_pos" not in facts:
        v = A.values.astype(_weight_type(A.dtype), copy=False)
        big = _t_max(v.dtype)
        pos = A.xp.where(v > 0, v, big).min().item()
        facts["min_pos"] = pos if pos < big else None
    return facts["min_pos"]


def _auto_delta(A: Matrix, facts, scale: float | None = None) -> float:
    """scale · max w, at least the least positive weight; 1 without a positive weight
    (w >= 0 here)."""
    if not facts["max"] > 0:  # no positive weight: every edge is light
        return 1.0
    scale = DELTA_SCALE if scale is None else scale
    delta = scale * float(facts["max"])
    if delta >= float(facts["max"]):  # scale >= 1: the least positive weight is below it
        return delta
    return max(delta, float(_min_pos(A, facts)))


def _device_delta(A: Matrix, facts) -> float:
    """The device loop's automatic Δ: DEVICE_DELTA_SCALE · max w on road-like graphs, else
    DENSE_DELTA_SCALE · max w / d̄ (at least the smallest positive weight)."""
    if _road_like(A):
        return _auto_delta(A, facts, DEVICE_DELTA_SCALE)
    return _auto_delta(A, facts, DENSE_DELTA_SCALE * A.nrows / max(A.nvals, 1))


def _split(A: Matrix, delta):
    """Light (w ≤ Δ) and heavy (w > Δ) edges of A, cached per (A, Δ)."""
    facts = A._memo.setdefault(FACTS_KEY, {})
    key = ("split", delta)
    if key not in facts:
        if "max" in facts and not facts.get("nan") and facts["max"] <= delta:
            # every edge is light (the automatic Δ is at least max w): L = A, H = ∅, no select
            # (its boolean compaction compiles CuPy kernels on a first call)
            xp = A.xp
            empty = Matrix(xp.zeros(A.nrows + 1, dtype=A.itype), xp.zeros(0, dtype=A.itype),
                           None if A.is_iso else xp.zeros(0, dtype=A.dtype), A.shape,
                           iso_value=A.iso_value, dtype=A.dtype)
            facts[key] = (A, empty)
        else:
            # L = select(A, w ≤ Δ),  H = select(A, w > Δ)
            facts[key] = (sr.select(A, "valuele", delta), sr.select(A, "valuegt", delta))
    return facts[key]


def _sub(A: Matrix, rows, keep) -> Matrix:
    """The entries of A where ``keep`` (CSR order is kept, so the result is canonical)."""
    xp = A.xp
    n = A.nrows
    counts = xp.bincount(rows[keep], minlength=n) if n else xp.zeros(0, dtype=xp.int64)
    indptr = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(counts)]).astype(A.itype)
    vals = None if A.is_iso else A.values[keep]
    return Matrix(indptr, A.indices[keep], vals, A.shape, iso_value=A.iso_value, dtype=A.dtype)


def delta_stepping(A, source, delta=None, *, predecessors=False, direction="auto", limit=None,
                   symmetric=False):
    """Shortest distances from ``source`` over non-negative weights (Meyer & Sanders 2003).

    The edges are split once into light (w ≤ Δ) and heavy (w > Δ). Vertices wait in
    *pending* until their out-edges are relaxed. Each bucket takes the pending vertices with
    distance below ``lo + Δ``, ``lo`` the smallest pending distance, relaxes their light edges
    to a fixed point (a vertex improved below ``lo + Δ`` joins the bucket again), then the heavy
    edges of every vertex the bucket settled, once. A vertex improved later becomes pending
    again, so the result is exact whatever Δ and however the float sums round; Δ only sets the
    work (small Δ: Dijkstra-like, many buckets; large Δ: Bellman–Ford-like, many
    re-relaxations).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        As in :func:`bellman_ford`; a negative weight raises ``InvalidValue`` (use
        :func:`bellman_ford`).
    source : int
    delta : positive number, optional
        The bucket width Δ; default ``DELTA_SCALE · max w``, at least the
        smallest positive weight (see ``DELTA_SCALE``).
    predecessors, direction, symmetric
        As in :func:`bellman_ford`.
    limit : number, optional
        Stop once every distance up to ``limit`` is final (the first bucket starting above
        it is not opened); vertices farther than ``limit`` are reported unreachable.

    Returns
    -------
    dist, pred
        As in :func:`bellman_ford`.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 5.0, 1.0], [0, 0, 0], [0, 2.0, 0]]))
    >>> algorithms.delta_stepping(A, 0, delta=1.5).tolist()
    [0.0, 3.0, 1.0]
    """
    op = "delta_stepping"
    predecessors, symmetric = check_flags(op, predecessors=predecessors, symmetric=symmetric)
    A, source, facts, out_type = _prepare(A, source, op, direction, symmetric)
    if facts["min"] < 0:
        raise InvalidValue(f"{op}: A has negative weights (min {facts['min']}); "
                           f"delta-stepping needs w >= 0: use bellman_ford")
    auto_delta = None
    if delta is None:
        delta = _auto_delta(A, facts)
        auto_delta = _device_delta(A, facts)
    elif isinstance(delta, bool) or not isinstance(delta, (int, float, np.integer, np.floating)) \
            or not math.isfinite(delta) or delta <= 0:
        raise InvalidValue(f"{op}: delta must be a positive finite number, got {delta!r}")
    delta = float(delta)
    if limit is not None and (isinstance(limit, bool) or not isinstance(
            limit, (int, float, np.integer, np.floating)) or not limit >= 0):
        raise InvalidValue(f"{op}: limit must be a number >= 0 or None, got {limit!r}")
    n = A.nrows
    work = _work_type(op, out_type, n, facts)
    d = _cpu_dijkstra(A, source, facts, work, direction)
    if d is not None:  # the CPU: SciPy's compiled Dijkstra, the buckets' exact answer
        if limit is not None:  # as below: beyond the limit, reported unreached
            d[d > limit] = _t_max(work)
        dist = _finish(op, d, work, out_type)
        return (dist, _predecessors(A, source, d, work)) if predecessors else dist
    if _device_loop(A, facts, direction):
        # the buckets and their rounds on the device (near–far), one launch:
        #   repeat: f = {v : d(v) < S};  until f is empty: t = f min.+ A;  d = min(d, t);
        #           f = {v : t(v) < d(v), t(v) < S};  then S = min{d(v) : v pending} + Δ
        # an inf weight makes the automatic Δ infinite: one bucket, as Bellman–Ford's
        d = _run_device_loop(A, source, min(delta if auto_delta is None else auto_delta,
                                            _wide(work)), work,
                             limit)
        if d is not None:
            if limit is not None:  # as below: beyond the limit, reported unreached
                d[d > limit] = _t_max(work)
            dist = _finish(op, d, work, out_type)
            return (dist, _predecessors(A, source, d, work)) if predecessors else dist
    L, H = _split(A, delta)
    if A.transpose_is_self:  # symmetric: so are its light and heavy parts
        L, H = L.as_symmetric(), H.as_symmetric()
    xp = A.xp
    inf_w = _t_max(work)
    d = xp.full(n, inf_w, dtype=work)
    d[source] = 0
    pending = xp.zeros(n, dtype=bool)
    pending[source] = True
    settled = xp.zeros(n, dtype=bool)  # the vertices of the current bucket
    buckets = 0
    while True:
        lo = xp.where(pending, d, inf_w).min().item()  # the one sync that opens a bucket
        if lo == inf_w or (limit is not None and lo > limit):
            break
        buckets += 1
        if buckets > n:  # each bucket settles its smallest pending vertex for good
            raise RuntimeError(f"{op}: more than n (={n}) buckets: a bug")
        # integers compare exactly with an integer bound (d < lo + Δ ⇔ d < lo + ⌈Δ⌉)
        hi = lo + math.ceil(delta) if work.kind != "f" else lo + delta
        # B = {v pending : d(v) < lo + Δ}  (and d(v) = lo, should lo + Δ round to lo)
        f = _Frontier(xp, n, idx=xp.flatnonzero(pending & ((d < hi) | (d <= lo))))
        fused = _Fused()
        while f.size:
            if fused.ready(f.size, direction):
                # the light rounds below, on the device while the frontier stays narrow
                status, idx, r = sr.traversal.relax_rounds(
                    L, d, f.idx(), hi=hi, pending=pending, settled=settled,
                    max_edges=FUSED_EDGES)
                f = _Frontier(xp, n, idx=idx)
                fused.ran(status, r)
                continue
            # t = B min.+ L;  d = min(d, t);  B = {v : t(v) < d(v) < lo + Δ}
            f = _round(L, d, f, _pull(direction, f, L), hi=hi, pending=pending,
                       settled=settled)
        S = xp.flatnonzero(settled)
        if H.nvals and S.size:
            # t = S min.+ H;  d = min(d, t);  pending⟨S⟩ = false;  pending⟨t < d⟩ = true
            # (heavy edges once, from the settled bucket: a bucket round over H from S, settled
            # already; hi = lo keeps every candidate, ≥ lo, out of its next frontier, unused)
            heavy = _Frontier(xp, n, idx=S)
            _round(H, d, heavy, _pull(direction, heavy, H), hi=lo, pending=pending,
                   settled=settled)
        else:
            pending[S] = False
        settled[S] = False
    if limit is not None:  # beyond it, distances may be upper bounds: report them unreached
        d[d > limit] = inf_w
    dist = _finish(op, d, work, out_type)
    if predecessors:
        return dist, _predecessors(A, source, d, work)
    return dist


def sssp(A, source, method="auto", *, predecessors=False, delta=None, direction="auto",
         limit=None, symmetric=False):
    """Single-source shortest paths: ``'auto'`` runs :func:`delta_stepping` when every
    weight is non-negative, else :func:`bellman_ford` (which also detects negative cycles).
    ``delta`` and ``limit`` are delta-stepping's; the other keywords are both methods'.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 2.0, 0], [0, 0, -1.0], [0, 0, 0]]))
    >>> algorithms.sssp(A, 0).tolist()
    [0.0, 2.0, 1.0]
    """
    predecessors, symmetric = check_flags("sssp", predecessors=predecessors,
                                          symmetric=symmetric)
    if getattr(A, "is_distributed", False):  # a semiring.dist.DistMatrix: algorithms.dist
        from .dist import dispatch; return dispatch("sssp", A, source, method, predecessors=predecessors, delta=delta, direction=direction, limit=limit, symmetric=symmetric)  # noqa: E702
    if not isinstance(method, str) or method not in METHODS:
        raise InvalidValue(f"sssp: method must be one of {METHODS}, got {method!r}")
    if method == "auto":
        M = as_matrix(A, op="sssp", arg="A")
        method = "bellman_ford" if _matrix_facts(M)["min"] < 0 else "delta_stepping"
        A = M
    if method == "bellman_ford":
        if delta is not None or limit is not None:
            raise InvalidValue("sssp: delta and limit apply to method='delta_stepping' only")
        return bellman_ford(A, source, predecessors=predecessors, direction=direction,
                            symmetric=symmetric)
    return delta_stepping(A, source, delta, predecessors=predecessors, direction=direction,
                          limit=limit, symmetric=symmetric)


def multi_source_sssp(A, sources, *, predecessors=False, symmetric=False):
    """Shortest distances from many sources at once: batched Bellman–Ford as one SpMM a round.

    The distances form a matrix D with one column per source; each round relaxes every
    column over A's in-edges with a single sparse × dense product over min-plus (saturating
    for integers, so the unreached "infinity" stays infinite), until no column changes. A
    change in round n proves a negative cycle reachable from some source:
    :class:`semiring.NegativeCycleError` names a vertex on it. This is the building block of
    APSP on sparse graphs (``algorithms.apsp(A, 'batched_sssp')``).

    The rounds number the shortest paths' hops, so on a high-diameter graph (a path, a grid,
    a road network) they would cost O(m · sources · diameter): with w ≥ 0 the batch stops
    after :data:`BATCH_ROUNDS` rounds and each source still changing finishes by its own
    :func:`delta_stepping`. On the CPU, where SciPy's Dijkstra gives the relaxation's exact
    answer (:func:`_cpu_dijkstra`), every source runs it instead of the rounds.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        As in :func:`bellman_ford`.
    sources : sequence of int
        The sources, one result row each (repeats allowed).
    predecessors : bool
        Also return the shortest-path trees, one row per source (as in :func:`bellman_ford`).
    symmetric : bool
        Promise that A equals Aᵀ: the product reads A's rows instead of the transpose.

    Returns
    -------
    dist : array of shape (len(sources), n)
        Row r holds :func:`bellman_ford`'s distances from ``sources[r]``.
    pred : array of int64, shape (len(sources), n)
        Only with ``predecessors=True``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 4.0, 1.0], [0, 0, 0], [0, -2.0, 0]]))
    >>> algorithms.multi_source_sssp(A, [0, 2]).tolist()
    [[0.0, -1.0, 1.0], [inf, -2.0, 0.0]]
    """


    op = "multi_source_sssp"
    predecessors, symmetric = check_flags(op, predecessors=predecessors, symmetric=symmetric)
    A = as_matrix(A, op=op, arg="A", square=True)
    n = A.nrows
    xp = A.xp
    src = sources.get() if sr.is_gpu_array(sources) else sources
    if np.isscalar(src):
        raise DomainMismatch(f"{op}: sources must be a sequence of integers, got {type(sources).__name__}")
    src = np.asarray(src)
    if src.ndim != 1 or (src.size and src.dtype.kind not in "iu"):
        raise DomainMismatch(f"{op}: sources must be a 1-D sequence of integers, got {src.dtype} "
                             f"of shape {src.shape}")
    if src.size and not (0 <= src.min() and src.max() < n):  # (before a uint64 could wrap)
        bad = src[(src < 0) | (src >= n)][0]
        raise InvalidIndex(f"{op}: sources must lie in [0, {n}), got {int(bad)}")
    src = src.astype(np.int64)
    if symmetric:
        A = A.as_symmetric()
    facts = _matrix_facts(A)
    if facts["nan"]:
        raise InvalidValue(f"{op}: A has NaN weights; shortest paths are undefined")
    out_type = _weight_type(A.dtype)
    work = _work_type(op, out_type, n, facts)
    s = int(src.size)
    nonneg = facts["min"] >= 0
    if nonneg and s and A.device == "cpu":
        # SciPy's compiled Dijkstra a source, where exact in the work type (_cpu_dijkstra):
        # O(s · (n + m) log n) whatever the diameter (see BATCH_ROUNDS)
        rows = []
        for v in src:
            d = _cpu_dijkstra(A, int(v), facts, work, "auto")
            if d is None:
                break
            rows.append(d)
        else:
            return _per_source_result(op, A, src, rows, work, out_type, predecessors)
    inf_w = _t_max(work)
    D = xp.full((n, s), inf_w, dtype=work)
    cols = xp.arange(s)
    D[xp.asarray(src), cols] = 0
    srg = _semiring_of(work)
    still = None  # the columns still changing after BATCH_ROUNDS rounds (w >= 0)
    for r in range(n):
        if s == 0:
            break
        # Y = Aᵀ min.+ D ;  D = min(D, Y)      (every source's column relaxed at once)
        Y, _ = spmm(A.T, D, srg, work)
        better = Y < D
        if not bool(better.any()):
            break
        # D⟨better⟩ = Y: not minimum(D, Y), which takes the NaN of an unreached vertex's
        # inf + (−inf) (a −inf weight) over its distance
        D = xp.where(better, Y, D)
        if nonneg and r + 1 == BATCH_ROUNDS:
            # a column unchanged in a round is a fixed point, final; the others finish by
            # one search a source, O(n + m) each, not a round per hop of the diameter
            still = better.any(axis=0)
            break
    else:
        if s:  # still lowering in round n
            first = int(src[int(xp.flatnonzero(better.any(axis=0))[0])])
            cycle = _negative_cycle(A, first, work)
            where_ = "" if cycle is None else f": it passes through vertex {int(cycle[0])}"
            raise NegativeCycleError(
                f"{op}: a negative cycle is reachable from source {first}{where_}", vertices=cycle)
    if facts["min"] == -np.inf:
        # the sources that reached a −inf distance (one check for all), over one host copy of A
        hit = np.flatnonzero(np.asarray(sr.to_device((D == -np.inf).any(axis=0), "cpu")))
        edges = _host_edges(A) if hit.size else None
        for r in hit.tolist():
            _refuse_minus_inf_cycle(op, A, int(src[r]), D[:, r], facts, edges)
    if still is not None:
        for r in np.flatnonzero(np.asarray(sr.to_device(still, "cpu"))).tolist():
            # d_r = the least fixed point of d = min(e_r, d min.+ A), by Δ-stepping
            D[:, r] = _work_dist(delta_stepping(A, int(src[r])), work)
    dist = _finish(op, xp.ascontiguousarray(D.T), work, out_type)
    if not predecessors:
        return dist
    pred = xp.full((s, n), -1, dtype=xp.int64)
    for r in range(s):  # one tree per source: a pass over the edges each
        pred[r] = _predecessors(A, int(src[r]), xp.ascontiguousarray(D[:, r]), work)
    return dist, pred


def _work_dist(dist, work):
    """Distances of the output type (:func:`_finish`'s) back in the work type: unreached (the
    output type's maximum, or inf) as the work type's."""
    if dist.dtype == work:
        return dist
    xp = _xp(dist)
    unreached = dist == _t_max(dist.dtype)
    return xp.where(unreached, _t_max(work), dist.astype(work))


def _per_source_result(op, A: Matrix, src, rows, work, out_type, predecessors):
    """:func:`multi_source_sssp`'s answer from one distance row (work type) a source."""
    xp = A.xp
    D = xp.stack(rows) if rows else xp.zeros((0, A.nrows), dtype=work)
    dist = _finish(op, D, work, out_type)
    if not predecessors:
        return dist
    pred = xp.full(D.shape, -1, dtype=xp.int64)
    for r in range(D.shape[0]):
        pred[r] = _predecessors(A, int(src[r]), D[r], work)
    return dist, pred


# ------------------------------------------------------------------------------ predecessors

def _predecessors(A: Matrix, source: int, d, work):
    """A shortest-path tree of final distances ``d`` (no negative cycle).

    An edge u → v is *tight* when d(u) + w = d(v). Each reachable v ≠ source has one, and when
    every tight edge strictly increases d any choice is a tree (d grows along it). Zero-weight
    (or float-absorbed) and negative tight edges can close cycles of total weight 0, so then
    the tree is a BFS tree of the tight subgraph from the source: acyclic by construction.
    """
    xp = A.xp
    n = A.nrows
    inf_w = _t_max(work)
    rows, cols, w = A.to_coo()
    w = w.astype(work, copy=False)
    du = d[rows]
    reached = du != inf_w
    tight = reached & (xp.where(reached, du, 0) + w == d[cols])
    if bool((tight & (d[cols] <= du)).any()):  # a tight edge that does not increase d
        T = _sub(Matrix(A.indptr, A.indices, None, A.shape, iso_value=True, dtype=np.bool_),
                 rows, tight)
        _, pred = bfs(T, source, parents=True)
    else:
        pred = xp.full(n, -1, dtype=xp.int64)
        pred[cols[tight]] = rows[tight]
    pred[source] = -1
    return pred


def _negative_cycle(A: Matrix, source: int, work):
    """The vertices of a negative cycle reachable from ``source`` (sorted, a NumPy array).

    Runs the frontier Bellman–Ford again for n rounds, recording for each vertex the vertex it
    was last improved from (the error path only: per-edge NumPy/CuPy code). A vertex improved
    in round n has a predecessor chain that cannot reach the source (its distance is below
    every simple path's), so n steps along it land on a cycle of the predecessor graph, which
    is negative (Cormen et al., ch. 24). Steps and the cycle's members by pointer doubling.
    """
    xp = A.xp
    n = A.nrows
    inf_w = _t_max(work)
    d = xp.full(n, inf_w, dtype=work)
    d[source] = 0
    pred = xp.arange(n, dtype=xp.int64)
    frontier = xp.asarray([source], dtype=xp.int64)
    indptr = A.indptr.astype(xp.int64)
    wvals, stride = A.values_for(work)
    for _ in range(n):
        starts = indptr[frontier]
        deg = indptr[frontier + 1] - starts
        total = int(deg.sum())
        if total == 0:
            return None
        slot = xp.repeat(xp.arange(frontier.size), deg)
        p = starts[slot] + xp.arange(total, dtype=xp.int64) - (xp.cumsum(deg) - deg)[slot]
        u = frontier[slot]
        v = A.indices[p].astype(xp.int64)
        cand = d[u] + (wvals[p] if stride else wvals[0])
        order = xp.argsort(cand, kind="stable")
        order = order[xp.argsort(v[order], kind="stable")]  # by v, then by candidate
        v, cand, u = v[order], cand[order], u[order]
        head = xp.concatenate([xp.ones(1, dtype=bool), v[1:] != v[:-1]])
        v, cand, u = v[head], cand[head], u[head]
        better = cand < d[v]
        v, cand, u = v[better], cand[better], u[better]
        d[v] = cand
        pred[v] = u
        frontier = v
        last = v
    start = last[:1]
    # p^(2^k) for 2^k >= n, with the minimum vertex met on the way (the cycle's label)
    jump = pred.copy()
    label = xp.minimum(xp.arange(n, dtype=xp.int64), pred)
    steps = 1
    while steps < 2 * n:
        label = xp.minimum(label, label[jump])
        jump = jump[jump]
        steps *= 2
    on_cycle = jump[start]  # n or more steps from a vertex improved in round n
    members = xp.zeros(n, dtype=bool)
    members[jump] = True  # every vertex on some cycle of the predecessor graph
    cycle = xp.flatnonzero(members & (label == label[on_cycle]))
    return sr.to_device(cycle, "cpu")  # a small host array on the error object
