"""Community detection: label propagation, Louvain, and the modularity of a partition.

- :func:`label_propagation`: semi-synchronous label propagation (Cordasco & Gargano 2010,
  "Community detection via semi-synchronous label propagation algorithms"), the algorithm of
  NetworkX's ``label_propagation_communities``: the vertices are coloured (no two neighbours
  share a colour) and the colour classes update in turn, each class at once (its vertices
  are not adjacent, so this equals updating them one by one), every vertex taking the most
  frequent label among its neighbours, ties broken by Prec-Max (keep the own label when it is
  among the most frequent, else take the largest). Each class's label counts are one SpGEMM,
  ``F = P(B, :) plus.pair L`` with P the pattern (self-loops included) and L the vertex ×
  label indicator; only the vertices whose neighbours' labels changed are updated. On the
  CPU, where Numba is installed, the default ``method="auto"`` runs instead the same sweeps
  (and the same colouring) as compiled loops over the classes' vertices one by one
  (``semiring.backend.cpu.compiled.label_propagation``): the same labels, 7-50x faster.
- :func:`louvain`: Blondel, Guillaume, Lambiotte & Lefebvre 2008, "Fast unfolding of
  communities in large networks", with NetworkX's definitions (``louvain_communities``:
  gains, resolution, threshold, levels). Phase 1 moves vertices in parallel, a colour class at
  a time as Grappolo does (Lu, Halappanavar & Kalyanaraman 2015, "Parallel heuristics for
  scalable community detection"): the weights from a class's vertices to every community are
  one SpGEMM ``W = A(B, :) plus.times S`` with S the vertex × community indicator, and every
  vertex of the class takes its best gain at once. On a CPU with Numba phase 1 is instead
  the paper's own sequential sweep in a seeded vertex order (largest log-degree first; NetworkX's
  uniform order with ``SEQUENTIAL_HUBS_FIRST`` off), one compiled loop
  (``method="sequential"``, ``LOUVAIN_AUTO``). Phase 2 aggregates the graph as the
  product ``Sᵀ A S`` (plus_times SpGEMM).
- :func:`modularity`: Newman's modularity with NetworkX's conventions
  (``networkx.community.modularity``), ``C = Sᵀ A S`` and its diagonal.
  :func:`community_weights`: the per-community sums it is made of (internal weight, degree
  sums), for a caller finishing NetworkX's formula itself.

Weights: the matrix's values (an iso matrix: every weight its iso value, True → 1);
explicit zeros are edges of weight 0. Self-loops follow NetworkX: a self-loop adds twice its
weight to its vertex's degree and once to its community's internal weight.
"""

from __future__ import annotations

import math

import numpy as np

import semiring as sr

from .cores import (_check_flag, _compiled, _square, bincount, expand, segment_ids,
                    undirected_pattern)

#: Phase 1 of Louvain stops when a sweep over all colour classes raised the modularity by at
#: most ``threshold`` or moved nobody, and in any case after this many sweeps (Grappolo stops
#: on the gain; NetworkX's sequential sweep stops when nobody moves, which a parallel sweep,
#: whose simultaneous moves can undo each other's gains, need not reach).
MAX_SWEEPS = 64
#: Louvain moves at most this many batches a sweep, per device: colour classes
#: 0 .. MAX_BATCHES - 2 one at a time, the rest together (None: every colour class alone).
#: Each batch costs a product and a few host round trips whatever its size, and the colours of
#: a power-law graph's dense core are many and tiny: on the H100, Kronecker 20's Louvain with
#: every class alone did not end within 140 s (LPA, which keeps every class alone, took 17 s),
#: and with 32 a class Kronecker 12 took 8.8 s (998 products; the CPU 0.98 s). On the CPU,
#: Kronecker 16 reached the same modularity with 32 (0.0917, 4.6 s against 5.2 s), and the
#: planted-partition means did not move. With 8 (the GPU's), Kronecker 12 needs 180 products
#: (modularity 0.133 against 0.137 with 32), and 26 planted-partition graphs gave NetworkX's
#: modularity, every one (the all-at-once up/down sweeps of cuGraph, tried too, took 82 but
#: lost 0.027 on one of them).
MAX_BATCHES = {"cpu": 32, "gpu": 8}
#: Up to this many batches Louvain's classes are found as that many maximal independent sets
#: (``_first_classes``), not from a whole colouring: the same classes in fewer rounds where
#: the batches are few. Rounds and CPU times (``_colouring`` against ``_first_classes``, the
#: same seed): 8 batches, Kronecker 12: 144 → 34 rounds, 60 → 19 ms; Kronecker 14: 282 → 50
#: rounds, 164 → 114 ms; 32 batches, Kronecker 14: 282 → 174 rounds and 138 → 177 ms (each
#: set's rounds pay a pass over the edges), so the CPU's 32 keep the colouring.
MIS_MAX_BATCHES = 16
#: No batch of Louvain's local moves holds more than n / MIN_BATCHES vertices: larger colour
#: classes are cut in chunks. Vertices of one class are not adjacent, but those that move
#: into the same community at once each count its total weight without the others, so the
#: larger the share of the graph that moves at once, the further the sweeps stray from the
#: sequential sweep whose gains the formula assumes. Measured on 41 planted-partition graphs
#: (the test's strategy, 3-10 groups of 15-40 vertices, five seeds each, CPU, 32 batches),
#: our worst run minus NetworkX's worst: -0.054 with whole classes, -0.016 with 16
#: (-0.016 to -0.020 with 32 or 64); Kronecker 12-16 kept their modularity (0.137 / 0.119 /
#: 0.104 against 0.135 / 0.118 / 0.105). Only graphs (and coarse levels) of at most
#: ``SPLIT_MAX_N`` vertices are cut: on the H200, Kronecker 16's first level cut so took
#: 7.0 s against 4.7 s (each batch pays its launches and host round trips), for the same
#: modularity.
MIN_BATCHES = 16
SPLIT_MAX_N = 1 << 14
#: After the last level, the partition goes back to the input graph for one more phase of
#: local moves from it (multilevel refinement, Rotta & Noack 2011, "Multilevel local search
#: algorithms for modularity clustering"): a vertex whose community was fixed at a coarse
#: level may still gain by moving alone. On the same 41 graphs, with MIN_BATCHES, our worst
#: run is then at or above NetworkX's worst on every graph, and Kronecker 12-16 gain 0.008 to
#: 0.010 (0.144 / 0.126 / 0.114); on the H200 it cost Kronecker 14 / 16 another 1.1 / 3.2 s
#: (5.4 / 10.1 s in all, with every level cut by MIN_BATCHES).
REFINE = True
#: Relative tolerance of the symmetry check of weighted input: duplicate float entries summed
#: in a different order on each side of the diagonal differ in the last bits.
SYMMETRY_RTOL = 1e-9
#: With PRUNE, Louvain's local moves re-evaluate only the vertices with a neighbour that moved
#: since their last evaluation (Ozaki, Tezuka & Inaba 2016, "A simple acceleration method for
#: the Louvain algorithm"). Off: on the CPU (Kronecker 14) it saved a quarter of the time
#: (4.6 → 3.5 s) but lowered the modularity on small planted-partition graphs (mean over 30
#: seeds 0.558 → 0.550, worst 0.399 → 0.350, NetworkX 0.556 / 0.392). Label propagation's
#: active set is exact and always on.
PRUNE = False
#: GPU input with fewer stored entries than these runs on a host copy, the labels back on the
#: GPU, where Numba is installed (the host's compiled passes; ARRAY_HOST_MAX_ENTRIES without
#: it): each colour class (LPA) or batch (Louvain) costs the GPU a product, a few launches and
#: host round trips whatever its size. On an H200 against the compiled host passes
#: (bench/results/session19/host_routes_compiled_h200.md, one call each after a warm-up, the
#: copies included), label propagation: the host 78x faster on kron-14, 31x kron-16, 12x
#: kron-18, 5.1x kron-20 (31M entries), 2.6x grid-1000 (4.0M); the GPU 1.9x on grid-2000
#: (16M entries: 1.2 against 2.4 s), the one graph it won. Louvain ('sequential' on the
#: host, the GPU's batches): the host 24x on kron-14, 9.6x grid-300, 5.0x kron-16 (1.8M),
#: 2.1x kron-18 (7.6M); the GPU 2.1x on grid-1000 (4.0M) and 8x on grid-2000 (16M), whose
#: many levels and sweeps cost the sequential moves more per entry: the bound sits between
#: kron-16 and grid-1000 (a size bound cannot also take kron-18).
LABEL_PROPAGATION_HOST_MAX_ENTRIES = 1 << 25
LOUVAIN_HOST_MAX_ENTRIES = 1 << 21
#: The same routes' bounds without Numba (the host's array paths; session 19's first
#: measurement, bench/results/session19/host_policy_h200.md, best of 2, copies included):
#: label propagation on the host 5-15x faster up to kron-14 and grid-100 and 2.2x on kron-16
#: (1.8M entries), the GPU 4.3x faster on grid-1000 (4.0M); Louvain on the host 2.3-21x up
#: to kron-14 and grid-300 (427K, 359K entries), the GPU from kron-16 on.
ARRAY_HOST_MAX_ENTRIES = {"label_propagation": 1 << 21, "louvain": 1 << 20}


def _host_max(name, bound):
    """The host route's bound of ``name`` ('label_propagation' or 'louvain') whose
    with-Numba bound is ``bound``: the lower array-path bound without Numba."""
    return bound if _compiled().ENABLED else min(bound, ARRAY_HOST_MAX_ENTRIES[name])


def _lpa_host_max():
    """Stored entries below which GPU input to label_propagation(method='auto') runs on a
    host copy (what the NetworkX backend's cost model reads)."""
    return _host_max("label_propagation", LABEL_PROPAGATION_HOST_MAX_ENTRIES)


def _louvain_host_max():
    """As :func:`_lpa_host_max`, for louvain."""
    return _host_max("louvain", LOUVAIN_HOST_MAX_ENTRIES)
#: The seed of the colouring's random priorities when ``seed=None`` (the results are then
#: deterministic, unlike NetworkX's ``seed=None``).
DEFAULT_SEED = 0
#: louvain's phase-1 methods: 'batch', the colour-class batches moved at once, as array
#: passes on A's device (Grappolo's parallel moves, above); 'sequential', the classic
#: sequential local moves of Blondel et al. 2008 (NetworkX's ``_one_level``: one vertex at a
#: time in a seeded random order), one compiled loop on the host
#: (``semiring.backend.cpu.compiled.louvain_moves``).
LOUVAIN_METHODS = ("auto", "batch", "sequential")
#: ``method="auto"`` of :func:`louvain`, per device. CPU: 'sequential' where Numba is
#: installed (without it the same loop runs interpreted, at NetworkX's speed, and 'batch'
#: instead). On this project's 2-core host (bench/results/session19/lv15_report.md, best of
#: 3, weighted GAP graphs, seed 0), batch → sequential, ms (modularity): kron-10 283 → 6
#: (0.159 → 0.162), kron-12 724 → 71 (0.144 both), kron-14 1807 → 165 (0.126 → 0.127),
#: kron-16 8333 → 824 (0.114 both), grid-100 162 → 19 (0.938 both), grid-300 967 → 291
#: (0.969 both); NetworkX's louvain_communities 218 ms (0.155) on kron-10, 1216 ms (0.135)
#: on kron-12. Kronecker 16's 0.82 s: the compiled sweeps 0.32, the checks and A' 0.3
#: (``_weights``, ``_doubled_loops``), the modularity of each level 0.11, phase 2's products
#: under 0.05. GPU: 'batch' (the sequential loop has no parallelism); GPU input below
#: LOUVAIN_HOST_MAX_ENTRIES runs on a host copy, so it gets the CPU's 'auto'.
LOUVAIN_AUTO = {"cpu": "sequential", "gpu": "batch"}
#: The sequential moves take the vertices by ⌊log₂ stored entries of the row + 1⌋, the
#: largest first, in a random order from the seed within each class (the colouring's
#: priorities, ``_priorities``); without SEQUENTIAL_HUBS_FIRST in a uniform random order, as
#: NetworkX does. Modularity, mean of seeds 0-4 (0-1 on kron-16), uniform → hubs first (the
#: batches): kron-12 0.1421 → 0.1436 (0.1442), kron-14 0.1259 → 0.1270 (0.1263), kron-16
#: 0.1108 → 0.1134 (0.1140 seed 0); kron-10 0.1631 → 0.1629 (0.1621), grid-100 0.9383 →
#: 0.9379 (0.9380); 25 planted-partition graphs (3-10 groups of 15-40), five seeds each:
#: 0.6669 all three. The hubs settle first, and the many leaves then join them.
SEQUENTIAL_HUBS_FIRST = True


# ---------------------------------------------------------------------- helpers


def _host(a):
    return a.get() if sr.is_gpu_array(a) else np.asarray(a)


def _coo(A):
    """(rows, cols, values as float64) of a Matrix, on its device."""
    xp = sr.array_module(A.device)
    rows = segment_ids(xp, xp.diff(A.indptr))
    vals = (xp.full(A.nvals, float(A.iso_value)) if A.is_iso
            else A.values.astype(xp.float64))
    return rows, A.indices.astype(xp.int64), vals


def _indicator(labels, ncols, dtype, device):
    """S(i, labels[i]) = 1: the n × ncols indicator of a labelling, one entry a row."""
    xp = sr.array_module(device)
    n = int(labels.size)
    return sr.Matrix.from_csr(xp.arange(n + 1, dtype=xp.int64), labels.astype(xp.int64), None,
                              (n, ncols), iso_value=1, dtype=dtype, check=False)


def _first_max_per_row(G):
    """For each row of G with entries: the entry of the largest value, ties to the smallest
    column. Returns (row, column, value) of the chosen entries, on G's device."""
    xp = sr.array_module(G.device)
    r, j, v = _coo(G)
    if r.size == 0:
        return r, j, v
    # g = reduce_rows(G, max)
    g = sr.reduce_rows(G, "max").to_dense(missing=-np.inf)
    top = xp.flatnonzero(v == g[r])
    rt = r[top]
    # (none where every value is NaN: 2m past the float range makes every gain NaN)
    head = xp.ones(rt.size, dtype=bool)
    head[1:] = rt[1:] != rt[:-1]
    first = top[head]
    return r[first], j[first], v[first]


def _renumber(labels):
    """Labels 0..k-1, numbered in order of each community's smallest vertex."""
    xp = sr.array_module(sr.device_of(labels))
    n = int(labels.size)
    if n == 0:
        return labels.astype(xp.int64)
    _, inv = xp.unique(labels, return_inverse=True)
    inv = inv.ravel().astype(xp.int64)
    # the smallest vertex of each label: the head of its group in (label, vertex) order
    key = xp.sort(inv * n + xp.arange(n, dtype=xp.int64))
    g = key // n
    first = key[xp.concatenate([xp.ones(1, dtype=bool), g[1:] != g[:-1]])] % n
    rank = xp.empty(first.size, dtype=xp.int64)
    rank[xp.argsort(first)] = xp.arange(first.size, dtype=xp.int64)
    return rank[inv]


def _degree_class(xp, deg):
    """⌊log₂(deg + 1)⌋ of nonnegative integer degrees, exactly: frexp's exponent (CUDA's
    log2 of 2^k can round below k: the H200 coloured, hence propagated, differently from
    the host on the same seed)."""
    return xp.frexp(xp.asarray(deg, dtype=xp.float64) + 1.0)[1].astype(xp.int64) - 1


def _priorities(S, seed):
    """(xp, indptr, degrees, priorities, row of each entry, column of each entry) of S: the
    Jones–Plassmann priorities the colouring and its first classes share (higher degree
    class first, a seeded random rank within it)."""
    n = S.nrows
    xp = sr.array_module(S.device)
    indptr = S.indptr.astype(xp.int64)
    deg = xp.diff(indptr)
    rank = sr.to_device(np.random.default_rng(seed).permutation(n).astype(np.int64), S.device)
    prio = _degree_class(xp, deg) * max(n, 1) + rank
    return xp, indptr, deg, prio, segment_ids(xp, deg), S.indices.astype(xp.int64)


def _colouring(S, seed):
    """A proper colouring of the simple undirected graph S (int64 colours 0..c-1).

    Jones & Plassmann 1993 with the largest-log-degree-first priorities of Hasenplaugh,
    Kaler, Schardl & Leiserson 2014 ("Ordering heuristics for parallel graph coloring"):
    priority = (⌊log₂ degree⌋, a random rank from ``seed``); each round, every vertex whose
    neighbours of higher priority are all coloured takes the smallest colour none of its
    coloured neighbours has (a counter per vertex, lowered by ``win plus.pair S``, as in the
    k-core peeling: a round costs the winners' edges). Few rounds on power-law graphs (the
    hubs go first, the many low-degree vertices in a few wide rounds) and few colours (84 on
    Kronecker 16, whose largest core number is 218). The colour classes are the batches of
    the parallel sweeps in label propagation and Louvain: fewer colours, fewer products.
    """
    n = S.nrows
    xp, indptr, deg, prio, rows, cols = _priorities(S, seed)
    # wait(v) = how many neighbours of v come before it (a higher priority): one pass over S
    wait = bincount(xp, rows[prio[cols] > prio[rows]], n)
    colour = xp.full(n, -1, dtype=xp.int64)
    win = xp.flatnonzero(wait == 0)
    while win.size:
        # the colours of the winners' coloured neighbours, and the smallest colour not among them
        seg, off = expand(xp, deg[win])
        nb = cols[indptr[win][seg] + off]
        nc = colour[nb]
        used = nc >= 0
        colour[win] = _smallest_missing(xp, seg[used], nc[used], int(win.size))
        # d = win plus.pair S, for the uncoloured neighbours: they wait for one fewer
        wv = sr.Vector.from_coo(win, 1, size=n, dtype=S.dtype, device=S.device)
        idx, dec = sr.vxm(wv, S, sr.plus_pair).sparse(sorted=False)
        keep = colour[idx] < 0
        idx, dec = idx[keep], dec[keep]
        wait[idx] -= dec
        win = idx[wait[idx] == 0]
    return colour


def _first_classes(S, seed, k):
    """``min(_colouring(S, seed), k - 1)`` without the whole colouring: colour classes
    0 .. k-2 of the Jones–Plassmann colouring, the other vertices k - 1.

    Colour class c of that colouring is the lexicographically first maximal independent set,
    in priority order, of the vertices outside classes 0..c-1 (a vertex takes colour c exactly
    when no neighbour of higher priority has it and it is not in an earlier class). So each
    class is found by Luby-style rounds with the colouring's fixed priorities: every open
    vertex whose open neighbours all come after it joins, its open neighbours leave the class.
    A class takes as many rounds as its longest chain of waiting vertices (Blelloch, Fineman &
    Shun 2012: O(log² n) for random priorities), not the colouring's longest path in priority
    order, which the hubs of a power-law graph make long (see ``MIS_MAX_BATCHES``).
    """
    n = S.nrows
    xp, indptr, deg, prio, rows, cols = _priorities(S, seed)
    # D(u, x) = 1 where u comes before x (an edge of S oriented by priority)
    first = prio[rows] > prio[cols]
    du, dx = rows[first], cols[first]
    D = sr.Matrix.from_coo(du, dx, 1, nrows=n, ncols=n, dtype=S.dtype, device=S.device)
    colour = xp.full(n, k - 1, dtype=xp.int64)
    left = xp.ones(n, dtype=bool)     # not in the classes found so far
    for c in range(k - 1):
        # wait(x) = the vertices left that come before x: its neighbours it waits for
        wait = bincount(xp, dx[left[du] & left[dx]], n)
        open_ = left.copy()
        win = xp.flatnonzero(open_ & (wait == 0))
        while win.size:
            colour[win] = c
            open_[win] = False
            # out = (win any.pair S) ∩ open: the winners' open neighbours leave class c
            wv = sr.Vector.from_coo(win, 1, size=n, dtype=S.dtype, device=S.device)
            idx = sr.vxm(wv, S, sr.any_pair).sparse(sorted=False)[0]
            out = idx[open_[idx]]
            if out.size == 0:
                break
            open_[out] = False
            # d = out plus.pair D, for the open vertices: they wait for fewer
            ov = sr.Vector.from_coo(out, 1, size=n, dtype=S.dtype, device=S.device)
            idx, dec = sr.vxm(ov, D, sr.plus_pair).sparse(sorted=False)
            keep = open_[idx]
            idx, dec = idx[keep], dec[keep]
            wait[idx] -= dec
            win = idx[wait[idx] == 0]
        left[colour == c] = False
        if not bool(left.any()):
            break
    return colour


def _smallest_missing(xp, seg, vals, nseg):
    """For each segment 0..nseg-1, the smallest nonnegative integer not in its values."""
    mex = xp.zeros(nseg, dtype=xp.int64)
    if seg.size == 0:
        return mex
    key = xp.unique(seg * (int(vals.max()) + 2) + vals)      # sorted unique (segment, value)
    s, v = key // (int(vals.max()) + 2), key % (int(vals.max()) + 2)
    heads = xp.concatenate([xp.ones(1, dtype=bool), s[1:] != s[:-1]])
    start = xp.flatnonzero(heads)
    r = xp.arange(s.size, dtype=xp.int64) - start[xp.cumsum(heads) - 1]   # rank in segment
    # the first rank whose value differs from it is the gap; else the segment's length
    length = bincount(xp, s, nseg)
    gap = xp.full(nseg, -1, dtype=xp.int64)
    bad = xp.flatnonzero(v != r)
    if bad.size:
        bs = s[bad]
        firsts = bad[xp.concatenate([xp.ones(1, dtype=bool), bs[1:] != bs[:-1]])]
        gap[s[firsts]] = r[firsts]
    return xp.where(gap >= 0, gap, length)


def _seed(op, seed) -> int:
    """``seed=``: None (``DEFAULT_SEED``) or a non-negative integer, as NumPy's generators
    take it (a float would be truncated silently, a string fail inside NumPy)."""
    if seed is None:
        return DEFAULT_SEED
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise sr.InvalidValue(f"{op}: seed must be None or a non-negative integer, got {seed!r}")
    return int(seed)


def _finite(op, name, val):
    """A finite float from a real scalar, else InvalidValue naming the argument."""
    try:
        ok = not isinstance(val, (bool, np.bool_, str, bytes)) and np.ndim(val) == 0 \
            and bool(np.isfinite(float(val)))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise sr.InvalidValue(f"{op}: {name} must be a finite number, got {val!r}")
    return float(val)


def _check_labels(op, arg, labels, n, device):
    """labels as an int64 array on ``device``: a NumPy array with a GPU matrix (or a CuPy one
    with a CPU matrix) is refused, as the algebra refuses mixed devices; lists are taken."""
    xp = sr.array_module(device)
    if isinstance(labels, (list, tuple)):
        lab = sr.to_device(np.asarray(labels), device)
    else:
        where = "GPU" if sr.is_gpu_array(labels) else "CPU"
        if where.lower() != device:
            raise sr.DeviceMismatch(f"{op}: {arg} is on the {where} but A is on the {device.upper()}")
        lab = xp.asarray(labels)
    if lab.ndim != 1 or lab.size != n:
        raise sr.DimensionMismatch(f"{op}: {arg} must have shape ({n},), one per vertex, got shape {lab.shape}")
    if lab.size and lab.dtype.kind not in "iu":
        raise sr.DomainMismatch(f"{op}: {arg} must hold integers, got {lab.dtype}")
    return lab.astype(xp.int64)


def _weights(A, op, *, nonnegative):
    """A as float64 weights, checked symmetric (an undirected graph) and finite."""
    A = _square(A, op)
    xp = sr.array_module(A.device)
    if A.dtype.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: A must hold real numbers, got {A.dtype}")
    vals = (xp.full(A.nvals, float(A.iso_value)) if A.is_iso
            else A.values.astype(xp.float64))
    if vals.size and not bool(xp.isfinite(vals).all()):
        raise sr.InvalidValue(f"{op}: A's weights must be finite, got inf or NaN")
    if nonnegative and vals.size and bool((vals < 0).any()):
        raise sr.InvalidValue(f"{op}: A's weights must be nonnegative, got {float(vals.min())}")
    W = sr.Matrix.from_csr(A.indptr, A.indices, vals, A.shape, check=False)
    # symmetric: W and Wᵀ have the same entries, with values equal up to SYMMETRY_RTOL
    if not W.isclose(sr.transpose(W), rel_tol=SYMMETRY_RTOL):
        raise sr.InvalidValue(f"{op}: A must be symmetric (an undirected graph); "
                              f"symmetrize it first (e.g. A + Aᵀ), or use directed=True where offered")
    return W


# Weights whose largest is beyond 2**±WEIGHT_EXPONENT are scaled by a power of two first: 2m
# and (2m)² of the modularity gains then stay finite and normal (float64 tops out near 2**1024)
WEIGHT_EXPONENT = 256


def _in_range(W):
    """W scaled by a power of two so that its largest |weight| is in [1/2, 1) when that one
    is beyond 2**±WEIGHT_EXPONENT; else W. Modularity and its gains are homogeneous of degree
    0 in the weights, so Louvain on cW is Louvain on W, and a power of two scales exactly
    (weights of 1e200 made (2m)² inf and every gain nan: the vertices stayed alone, and the
    modularity was nan, where NetworkX raises OverflowError)."""
    if not W.nvals:
        return W
    top = float(sr.reduce_scalar(sr.apply(W, "abs"), "max"))
    if top == 0.0 or 2.0 ** -WEIGHT_EXPONENT <= top <= 2.0 ** WEIGHT_EXPONENT:
        return W
    # W = W · 2^-e   with top = f · 2^e, f in [1/2, 1); in two halves, as 2^-e alone
    # overflows for a subnormal top (e = -1073)
    e = math.frexp(top)[1]
    for part in (-e // 2, -e - (-e // 2)):
        W = sr.apply(W, "times", right=math.ldexp(1.0, part))
    return W


def _doubled_loops(W):
    """A' = W + diag(W): self-loops count twice, so that reduce_rows(A') is NetworkX's degree
    and Sᵀ A' S holds twice each community's internal weight on its diagonal."""
    # A' = W ⊕ diag(W)
    return sr.ewise_add(W, sr.select(W, "diag"), "plus")


# ---------------------------------------------------------------------- modularity


def modularity(A, labels, resolution=1.0, *, directed=False):
    """Newman's modularity of the partition given by ``labels``, as NetworkX computes it.

    Q = Σ_c [ L_c / m - γ (d_c / 2m)² ] for an undirected graph, with m the total edge weight,
    L_c the weight of the edges inside community c and d_c the sum of its vertices' degrees
    (a self-loop adds twice its weight to a degree, once to L_c); for a directed graph
    Q = Σ_c [ L_c / m - γ d⁺_c d⁻_c / m² ] with out- and in-degrees. Computed from the
    community matrix ``C = Sᵀ A' S`` (S the vertex × community indicator): its diagonal holds
    the internal weights and its row sums the degree sums.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        Weighted adjacency matrix (an iso matrix: all weights its iso value; True is 1).
        With ``directed=False`` it must be symmetric (values equal to a relative
        ``SYMMETRY_RTOL`` = 1e-9; the stored values are used as they are).
    labels : array_like of int, shape (n,)
        Community of each vertex (any integers; equal labels, same community), on A's device.
    resolution : float
        γ; NetworkX's ``resolution``.
    directed : bool
        Use the directed formula (NetworkX on a DiGraph).

    Returns
    -------
    float
        ``networkx.community.modularity`` of the graph and the partition. NaN when the graph
        has no edge weight at all (m = 0), where NetworkX divides by zero.

    Raises
    ------
    DimensionMismatch
        A is not square, or labels is not one per vertex.
    DomainMismatch
        labels is not integers, or A's values are not real numbers.
    InvalidValue
        A is not symmetric (with ``directed=False``), or holds inf or NaN.

    Examples
    --------
    Two triangles joined by one edge, split into the two triangles:

    >>> import numpy as np, semiring as sr, algorithms as alg
    >>> A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3], [2, 3]],
    ...                             undirected=True, device="cpu")
    >>> round(alg.modularity(A, np.array([0, 0, 0, 1, 1, 1])), 6)
    0.357143
    """
    op = "modularity"
    A = _square(A, op)
    resolution = _finite(op, "resolution", resolution)
    lab = _check_labels(op, "labels", labels, A.nrows, A.device)
    # scaled where the weights are near float64's limits (Q is scale-free): _in_range
    return _modularity_of(_in_range(_modularity_weights(A, op, directed)), _renumber(lab),
                          float(resolution))


def _modularity_weights(A, op, directed):
    """A' of modularity's sums: A's float64 weights (checked real and finite); undirected:
    checked symmetric, self-loops doubled."""
    if not _check_flag(op, "directed", directed):
        return _doubled_loops(_weights(A, op, nonnegative=False))
    xp = sr.array_module(A.device)
    vals = (xp.full(A.nvals, float(A.iso_value)) if A.is_iso
            else A.values.astype(xp.float64))
    if A.dtype.kind not in "biuf":
        raise sr.DomainMismatch(f"{op}: A must hold real numbers, got {A.dtype}")
    if vals.size and not bool(xp.isfinite(vals).all()):
        raise sr.InvalidValue(f"{op}: A's weights must be finite, got inf or NaN")
    return sr.Matrix.from_csr(A.indptr, A.indices, vals, A.shape, check=False)


def community_weights(A, labels, *, directed=False):
    """The three sums of each community that modularity is made of: the weight of its
    internal edges (NetworkX's L_c: an undirected edge once, a self-loop once) and its
    vertices' out- and in-degree sums (undirected: the degree sums twice over, a self-loop
    adding twice its weight), from the community matrix ``C = Sᵀ A' S``.

    A caller that needs NetworkX's modularity to the last bit (``nx_semiring``) finishes
    NetworkX's formula in Python from these: with integer weights every sum is exact.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        Weighted adjacency matrix, as for :func:`modularity` (symmetric unless ``directed``).
    labels : array_like of int, shape (n,)
        Community of each vertex, 0..k-1 with k = max + 1 (a number no vertex has is an
        empty community: zeros), on A's device.
    directed : bool
        Out- and in-degrees of a directed graph (else both are the degrees).

    Returns
    -------
    (inner, out, in) : three float64 arrays of length k, on A's device.

    Raises
    ------
    DimensionMismatch, DomainMismatch, InvalidValue
        As :func:`modularity`; InvalidValue for a negative label too.

    Examples
    --------
    >>> import numpy as np, semiring as sr, algorithms as alg
    >>> A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3], [2, 3]],
    ...                             undirected=True, device="cpu")
    >>> [x.tolist() for x in alg.community_weights(A, np.array([0, 0, 0, 1, 1, 1]))]
    [[3.0, 3.0], [7.0, 7.0], [7.0, 7.0]]
    """
    op = "community_weights"
    A = _square(A, op)
    lab = _check_labels(op, "labels", labels, A.nrows, A.device)
    if lab.size and int(lab.min()) < 0:
        raise sr.InvalidValue(f"{op}: labels must be nonnegative, got {int(lab.min())}")
    Ap = _modularity_weights(A, op, directed)
    k = int(lab.max()) + 1 if lab.size else 0
    S = _indicator(lab, k, np.float64, A.device)
    # C = Sᵀ A' S   (community × community weights)
    C = sr.mxm(sr.mxm(sr.transpose(S), Ap, sr.plus_times), S, sr.plus_times)
    # inner = diag(C) (halved where A' doubled them), out = reduce_rows(C), in = reduce_cols(C)
    inner = sr.reduce_rows(sr.select(C, "diag"), "plus").to_dense(missing=0.0)
    dout = sr.reduce_rows(C, "plus").to_dense(missing=0.0)
    din = sr.reduce_cols(C, "plus").to_dense(missing=0.0)
    return (inner if directed else inner / 2), dout, din


def _modularity_of(Ap, lab, gamma):
    """Q of labels 0..k-1 on A' (undirected: self-loops doubled; directed: A itself)."""
    xp = sr.array_module(Ap.device)
    total = float(sr.reduce_scalar(Ap, "plus")) if Ap.nvals else 0.0
    if Ap.nrows == 0 or total == 0.0:
        return float("nan")
    k = int(lab.max()) + 1
    S = _indicator(lab, k, np.float64, Ap.device)
    # C = Sᵀ A' S   (community × community weights)
    C = sr.mxm(sr.mxm(sr.transpose(S), Ap, sr.plus_times), S, sr.plus_times)
    # inner = Σ diag(C);  dout = reduce_rows(C), din = reduce_cols(C)
    inner = float(sr.reduce_scalar(sr.select(C, "diag"), "plus"))
    dout = sr.reduce_rows(C, "plus").to_dense(missing=0.0)
    din = sr.reduce_cols(C, "plus").to_dense(missing=0.0)
    return inner / total - gamma * float(xp.dot(dout, din)) / (total * total)


# ---------------------------------------------------------------------- label propagation

#: label_propagation's methods: the colour classes' label counts as products on A's device
#: ('array'), or the same sweeps as one compiled sequential loop on the host ('compiled',
#: :func:`semiring.backend.cpu.compiled.label_propagation`, its default colouring compiled
#: too). The same labels, vertex for vertex.
LABEL_PROPAGATION_METHODS = ("auto", "array", "compiled")

#: ``method="auto"`` of :func:`label_propagation`, per device. CPU: 'compiled' where Numba
#: is installed (without it the loops would run interpreted: 'array'). On this project's
#: 2-core host (bench/results/session19/lpa15_report.md, best of 3, the whole call, the
#: host shared), 'array' against 'compiled': Kronecker 12 71 / 3.0 ms, Kronecker 14 243 /
#: 11 ms, Kronecker 16 909 / 64 ms, grid 300x300 200 / 18 ms, grid 1000x1000 3196 / 423 ms
#: (the colouring about a third of 'array''s time, 17-44% of 'compiled''s).
#: GPU: 'array'; below :data:`LABEL_PROPAGATION_HOST_MAX_ENTRIES` stored entries 'auto'
#: runs on a host copy, there 'compiled'.
LABEL_PROPAGATION_AUTO = {"cpu": "compiled", "gpu": "array"}


def _lpa_auto(device):
    """label_propagation's ``method="auto"`` on ``device``: LABEL_PROPAGATION_AUTO's,
    'array' without Numba."""
    method = LABEL_PROPAGATION_AUTO[device]
    return "array" if method == "compiled" and not _compiled().ENABLED else method


def label_propagation(A, *, colors=None, seed=None, max_iter=None, method="auto"):
    """Communities by semi-synchronous label propagation (Cordasco & Gargano 2010), the
    algorithm of NetworkX's ``label_propagation_communities``.

    Every vertex starts with its own label (its index). The vertices are coloured so that no
    two neighbours share a colour; then, sweep after sweep, the colour classes update in
    increasing colour order, each class at once: a vertex takes the most frequent label among
    its neighbours (a self-loop makes the vertex its own neighbour; weights are ignored, as in
    NetworkX), and on a tie (Prec-Max) keeps its own label when that is among the most
    frequent, else takes the largest of them. Only vertices whose neighbours' labels changed
    since their last update are updated (the others would keep their labels). The sweeps
    stop when one changes nothing; then every vertex's label is among its neighbours' most
    frequent (NetworkX's stopping rule). Each class's counts are one product
    ``F = P(B, :) plus.pair L`` (P: the pattern with self-loops; L: vertex × label); or,
    ``method="compiled"``, the sweeps run on the host as one compiled loop over the classes'
    vertices one by one (no two in a class are neighbours, so this is the same update).

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        Its undirected pattern (A ∪ Aᵀ; values ignored, explicit zeros are edges) is the graph.
    colors : array_like of int, shape (n,), optional
        A proper colouring of the graph without self-loops (neighbours differ), on A's device.
        With NetworkX's colouring (``networkx.coloring.greedy_color(G)``) the communities
        equal NetworkX's exactly. Default: a Jones–Plassmann colouring with
        largest-log-degree-first priorities, random ranks from ``seed`` (see ``_colouring``).
    seed : int, optional
        Seed of the default colouring's priorities; None means 0 (deterministic).
    max_iter : int, optional
        At most this many sweeps (None: until a sweep changes nothing, which Cordasco &
        Gargano prove happens).
    method : {'auto', 'array', 'compiled'}
        ``'array'``: the products above, on A's device. ``'compiled'``: the sweeps (and the
        default colouring, the same colours) as compiled loops on the host, by Numba where
        it is installed (the ``cpu`` extra; else interpreted, far slower), GPU input copied
        there and the labels back. ``'auto'``: :data:`LABEL_PROPAGATION_AUTO` of A's
        device: 'compiled' on a CPU with Numba, else 'array'; GPU input below
        :data:`LABEL_PROPAGATION_HOST_MAX_ENTRIES` stored entries runs on a host copy (and
        there 'compiled'). The same labels.

    Returns
    -------
    array of int64, shape (n,)
        The community of each vertex, numbered 0..k-1 in order of each community's smallest
        vertex, on A's device.

    Raises
    ------
    DimensionMismatch
        A is not square, or colors is not one per vertex.
    DomainMismatch
        colors is not integers.
    DeviceMismatch
        colors is an array on the other device than A.
    InvalidValue
        colors gives two neighbours the same colour, max_iter < 1, or method is not one of
        :data:`LABEL_PROPAGATION_METHODS`.

    Examples
    --------
    Two triangles joined by one edge:

    >>> import semiring as sr, algorithms as alg
    >>> A = sr.Matrix.from_edgelist([[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3], [2, 3]],
    ...                             undirected=True, device="cpu")
    >>> alg.label_propagation(A)
    array([0, 0, 0, 1, 1, 1])
    >>> alg.label_propagation(A, method="array")
    array([0, 0, 0, 1, 1, 1])
    """
    op = "label_propagation"
    if not isinstance(method, str) or method not in LABEL_PROPAGATION_METHODS:
        raise sr.InvalidValue(f"{op}: method must be one of {LABEL_PROPAGATION_METHODS}, "
                              f"got {method!r}")
    A = _square(A, op)
    if max_iter is not None and (isinstance(max_iter, (bool, np.bool_))
                                 or not isinstance(max_iter, (int, np.integer)) or max_iter < 1):
        raise sr.InvalidValue(f"{op}: max_iter must be a positive integer or None, got {max_iter!r}")
    seed = _seed(op, seed)
    n = A.nrows
    # colors' shape, type and device before any pass over A
    colour = None if colors is None else _check_labels(op, "colors", colors, n, A.device)
    if A.device == "gpu" and (method == "compiled" or (
            method == "auto" and A.nvals < _lpa_host_max())):
        return sr.to_device(label_propagation(
            A._host_copy(), colors=None if colour is None else _host(colour), seed=seed,
            max_iter=max_iter, method=method), "gpu")
    if method == "auto":
        method = _lpa_auto(A.device)
    xp = sr.array_module(A.device)
    # P = pattern(A ∪ Aᵀ) with its self-loops: the neighbourhoods that vote; S = offdiag(P),
    # the simple graph, for the colouring
    P = undirected_pattern(A, op, loops=True)
    if method == "compiled":
        return _lpa_compiled(P, colour, seed, max_iter)
    if colors is None:
        colour = _colouring(undirected_pattern(P, op), seed)
    else:
        _check_colouring(op, xp, P, colour)
    classes = _classes(xp, colour)
    label = xp.arange(n, dtype=xp.int64)
    # active: the vertices whose neighbours' labels changed since they were last updated
    # (all at first); an inactive vertex would keep its label, so skipping it changes nothing
    active = xp.ones(n, dtype=bool)
    sweeps = 0
    while max_iter is None or sweeps < max_iter:
        sweeps += 1
        changed = 0
        for B in classes:
            B = B[active[B]]
            if B.size == 0:
                continue
            active[B] = False
            L = _indicator(label, n, P.dtype, A.device)
            # F = P(B, :) plus.pair L   (F(b, l): neighbours of vertex B[b] labelled l)
            F = sr.mxm(sr.extract(P, B), L, sr.plus_pair)
            r, lab, cnt = _coo(F)
            if r.size == 0:
                continue
            # f = reduce_rows(F, max): the top count of each row; the most frequent labels of a
            # row are its entries at f, and the own label may be among them
            f = sr.reduce_rows(F, "max").to_dense(missing=0).astype(xp.float64)
            high = cnt == f[r]
            own = xp.zeros(B.size, dtype=bool)
            own[r[high & (lab == label[B][r])]] = True
            # Prec-Max: the largest of the most frequent labels (the last in each CSR row)
            hi = xp.flatnonzero(high)
            hr = r[hi]
            last = hi[xp.concatenate([hr[1:] != hr[:-1], xp.ones(1, dtype=bool)])]
            rr, new = r[last], lab[last]
            move = ~own[rr]
            rr, new = rr[move], new[move]
            if rr.size:
                v = B[rr]
                label[v] = new
                changed += int(rr.size)
                # active⟨¬0⟩ |= v any.pair P   (their neighbours, and themselves with a self-loop)
                vv = sr.Vector.from_coo(v, 1, size=n, dtype=P.dtype, device=A.device)
                active[sr.vxm(vv, P, sr.any_pair).sparse(sorted=False)[0]] = True
        if not changed:
            break
    return _renumber(label)


def _check_colouring(op, xp, P, colour):
    """InvalidValue naming an edge of the pattern P (self-loops skipped) whose ends share a
    colour."""
    rows = segment_ids(xp, xp.diff(P.indptr))
    bad = xp.flatnonzero((colour[rows] == colour[P.indices]) & (rows != P.indices))
    if bad.size:
        i, j = int(rows[bad[0]]), int(P.indices[bad[0]])
        raise sr.InvalidValue(f"{op}: colors must differ on neighbours, got colour "
                              f"{int(colour[i])} on both ends of edge ({i}, {j})")


def _lpa_compiled(P, colour, seed, max_iter):
    """label_propagation's 'compiled' method over the host pattern P (self-loops included):
    ``colour`` checked (else the colouring of ``_colouring(offdiag(P), seed)``, compiled),
    then the compiled sweeps, renumbered as by ``_renumber``."""
    op = "label_propagation"
    k = _compiled()
    run = k.ENABLED
    n = P.nrows
    if colour is None:
        # _colouring's priorities (deg: P's without the self-loops, offdiag(P) not built),
        # and its colours: the greedy colouring in decreasing priority is Jones–Plassmann's
        deg = k.loopless_degrees(P.indptr, P.indices, compiled=run)
        key = _degree_class(np, deg)
        rank = np.random.default_rng(seed).permutation(n).astype(np.int64)
        colour = k.greedy_colouring(P.indptr, P.indices, key, rank, compiled=run)
    else:
        _check_colouring(op, np, P, colour)
    return k.label_propagation(P.indptr, P.indices, colour, max_iter, compiled=run)[0]


def _classes(xp, colour):
    """The colour classes in increasing colour order, each a sorted index array."""
    if colour.size == 0:
        return []
    order = xp.argsort(colour, kind="stable") if xp is np else xp.argsort(colour)
    bounds = _host(xp.flatnonzero(xp.diff(colour[order]))) + 1
    return [xp.sort(c) for c in xp.split(order, bounds.tolist()) if c.size]


# ---------------------------------------------------------------------- Louvain


def louvain(A, resolution=1.0, *, seed=None, threshold=1e-7, max_level=None,
            sweep_threshold=None, method="auto"):
    """Communities maximizing modularity by the Louvain method (Blondel et al. 2008), with
    NetworkX's definitions (``louvain_communities``), phase 1 in parallel.

    Each level: (1) local moves: every vertex starts in its own community; the vertices are
    coloured (neighbours differ) and, sweep after sweep, each colour class moves at once,
    every vertex to the neighbouring community of the largest modularity gain (NetworkX's
    gain formula with ``resolution``; only a positive gain moves; ties to the smallest
    community), with the weights to the communities from one SpGEMM
    ``W = A'(B, :) plus.times S`` (Grappolo's colour-class parallel moves, Lu et al. 2015;
    the colours from ``MAX_BATCHES - 1`` on move together, 32 on the CPU and 8 on the GPU;
    on graphs of at most ``SPLIT_MAX_N`` vertices no batch holds more than
    n / ``MIN_BATCHES``). Or, ``method="sequential"`` (the default on a CPU with Numba), the
    classic sequential local moves of Blondel et al. and NetworkX: the vertices one at a
    time, the same order every sweep of a level (largest ⌊log₂ degree⌋ first, a random
    order from ``seed`` within: ``SEQUENTIAL_HUBS_FIRST``), each seeing the moves before
    it, with NetworkX's gains and its tie rule (the first best community in the row's
    order), compiled on the host; NetworkX's ``louvain_communities`` with another vertex
    order (its own order gives its own level exactly), so not the same labels; modularity
    within 0.001 of the batches' (see ``LOUVAIN_AUTO``).
    The sweeps stop when one moved nobody or raised the
    modularity by at most ``threshold`` (at most ``MAX_SWEEPS``); the best partition seen
    is kept. (2) aggregation: the
    communities become the vertices of ``A' = Sᵀ A' S``. Levels repeat while the modularity
    rose by more than ``threshold`` (the last level is kept, as in NetworkX), or until
    ``max_level`` levels. (3) refinement (``REFINE``; not in NetworkX, never lowers the
    modularity): after two levels or more, one more phase of local moves on the input graph,
    starting from the communities found.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square and symmetric
        Weighted adjacency matrix of an undirected graph (iso: every weight its iso value,
        True is 1; symmetric to a relative ``SYMMETRY_RTOL`` = 1e-9); weights must be finite
        and nonnegative. Weights near float64's limits (1e200, 1e-300) are scaled by a power
        of two first: the communities are those of the scaled graph, where NetworkX's sums
        overflow (OverflowError, or singletons once 2m is inf).
    resolution : float
        γ of the modularity; below 1 favours larger communities, above 1 smaller ones.
    seed : int, optional
        Seed of the colourings' random priorities (which vertices move together), or of
        the sequential moves' vertex order; None means 0, so the result is deterministic
        on the CPU (NetworkX's None is random). On
        the GPU the SpGEMM's float sums are combined by atomics in no fixed order, so with
        weights whose sums round differently, ties between gains may break differently.
    threshold : float
        Minimum modularity gain of a level (and of a sweep) to go on. Levels also stop when
        one moved nobody (NetworkX's ``improvement``), so a negative threshold ends too.
    max_level : int, optional
        At most this many levels.
    sweep_threshold : float, optional
        Minimum modularity gain of a sweep of local moves to go on, where it differs from
        ``threshold`` (NetworkX applies its threshold between levels only and sweeps until
        nobody moves: ``nx_semiring`` passes 1e-7, NetworkX's default threshold).
    method : {'auto', 'batch', 'sequential'}
        Phase 1's moves: ``'batch'``, the colour classes at once, as array passes on A's
        device; ``'sequential'``, one vertex at a time on the host, compiled by Numba where
        it is installed (the ``cpu`` extra; else interpreted, far slower), GPU input copied
        there and the labels back. ``'auto'``: :data:`LOUVAIN_AUTO` ('sequential' on a CPU
        with Numba, 'batch' on the GPU and without Numba; GPU input below
        ``LOUVAIN_HOST_MAX_ENTRIES`` runs on a host copy, with the CPU's choice).

    Returns
    -------
    array of int64, shape (n,)
        The community of each vertex, numbered 0..k-1 in order of each community's smallest
        vertex, on A's device. A graph without edges gives every vertex its own community.

    Raises
    ------
    DimensionMismatch
        A is not square.
    InvalidValue
        A is not symmetric, has negative or non-finite weights; resolution or threshold is
        not a finite number; max_level < 1; method is not one of :data:`LOUVAIN_METHODS`.

    Examples
    --------
    Two 4-cliques joined by one edge:

    >>> import numpy as np, semiring as sr, algorithms as alg
    >>> K = [[i, j] for i in range(4) for j in range(i + 1, 4)]
    >>> edges = K + [[i + 4, j + 4] for i, j in K] + [[3, 4]]
    >>> A = sr.Matrix.from_edgelist(edges, undirected=True, device="cpu")
    >>> labels = alg.louvain(A)
    >>> labels
    array([0, 0, 0, 0, 1, 1, 1, 1])
    >>> round(alg.modularity(A, labels), 6)
    0.423077
    """
    op = "louvain"
    resolution = _finite(op, "resolution", resolution)
    threshold = _finite(op, "threshold", threshold)
    if max_level is not None and (isinstance(max_level, (bool, np.bool_))
                                  or not isinstance(max_level, (int, np.integer)) or max_level < 1):
        raise sr.InvalidValue(f"{op}: max_level must be a positive integer or None, got {max_level!r}")
    gamma, threshold = float(resolution), float(threshold)
    sweep = threshold if sweep_threshold is None else float(
        _finite(op, "sweep_threshold", sweep_threshold))
    seed = _seed(op, seed)
    if not isinstance(method, str) or method not in LOUVAIN_METHODS:
        raise sr.InvalidValue(f"{op}: method must be one of {LOUVAIN_METHODS}, got {method!r}")
    A = _square(A, op)
    if A.device == "gpu" and (method == "sequential" or (
            method == "auto" and A.nvals < _louvain_host_max())):
        return sr.to_device(louvain(A._host_copy(), resolution, seed=seed, threshold=threshold,
                                    max_level=max_level, sweep_threshold=sweep_threshold,
                                    method=method), "gpu")
    if method == "auto":
        method = _louvain_auto(A.device)
    Ap = A1 = _doubled_loops(_in_range(_weights(A, op, nonnegative=True)))
    n = Ap.nrows
    xp = sr.array_module(Ap.device)
    community = xp.arange(n, dtype=xp.int64)
    two_m = float(sr.reduce_scalar(Ap, "plus")) if Ap.nvals else 0.0
    if n == 0 or two_m == 0.0:
        return community
    q_prev = _q_of(Ap, xp.arange(n, dtype=xp.int64), two_m, gamma)
    level = 0
    while True:
        c, q = _local_moves(Ap, two_m, gamma, sweep, seed + level, method=method)
        level += 1
        c = _renumber(c)
        community = c[community]
        if int(c.max()) + 1 == Ap.nrows:
            # nobody moved (a move never opens a community): the next level would be this
            # one again; NetworkX's loop ends here too (its improvement flag), whatever the
            # threshold (a negative one looped forever before)
            break
        if q - q_prev <= threshold or (max_level is not None and level >= max_level):
            break
        q_prev = q
        # A' = Sᵀ A' S   (phase 2: the communities become the vertices)
        S = _indicator(c, int(c.max()) + 1, np.float64, Ap.device)
        Ap = sr.mxm(sr.mxm(sr.transpose(S), Ap, sr.plus_times), S, sr.plus_times)
    if REFINE and level > 1:
        # the last level's communities as the start of local moves on the input graph
        community = _local_moves(A1, two_m, gamma, sweep, seed + level, community,
                                 method=method)[0]
    return _renumber(community)


def _louvain_auto(device):
    """louvain's ``method="auto"`` on ``device``: LOUVAIN_AUTO's, 'batch' without Numba."""
    method = LOUVAIN_AUTO[device]
    return "batch" if method == "sequential" and not _compiled().ENABLED else method


def _q_of(Ap, c, two_m, gamma, k=None):
    """Modularity of labels c on A' (self-loops doubled): Σ over entries inside a community
    / 2m - γ Σ_c tot_c² / (2m)²; one pass over the entries. k: A's weighted degrees, if
    known."""
    xp = sr.array_module(Ap.device)
    r, j, w = _coo(Ap)
    inner = float(w[c[r] == c[j]].sum())
    if k is None:
        k = sr.reduce_rows(Ap, "plus").to_dense(missing=0.0)
    tot = bincount(xp, c, Ap.nrows, weights=k)
    return inner / two_m - gamma * float((tot * tot).sum()) / (two_m * two_m)


def _local_moves(Ap, two_m, gamma, threshold, seed, start=None, method="batch"):
    """Phase 1 on A' (self-loops doubled): (labels, modularity) of the best sweep, from the
    labels ``start`` (each vertex alone when None), by ``method`` ('batch' or
    'sequential')."""
    if method == "sequential":
        return _sequential_moves(Ap, two_m, gamma, threshold, seed, start)
    n = Ap.nrows
    xp = sr.array_module(Ap.device)
    m = two_m / 2.0
    k = sr.reduce_rows(Ap, "plus").to_dense(missing=0.0)      # weighted degrees
    # O = offdiag(A'): a vertex's own self-loop never pulls it anywhere (NetworkX's nbrs)
    O = sr.select(Ap, "offdiag")
    S = undirected_pattern(O, "louvain")
    batches = MAX_BATCHES[Ap.device]
    if batches is not None and batches <= MIS_MAX_BATCHES:
        # the classes 0..batches-2 of the colouring alone, the rest one batch
        colour = _first_classes(S, seed, batches)
    else:
        colour = _colouring(S, seed)
    if batches is not None:
        # the colours from batches - 1 on (the few vertices of the dense core) move as one
        # batch: fewer products a sweep, those vertices no longer independent
        colour = xp.minimum(colour, batches - 1)
    size = -(-n // MIN_BATCHES) if n <= SPLIT_MAX_N else max(n, 1)
    classes = [B[i:i + size] for B in _classes(xp, colour) for i in range(0, B.size, size)]
    c = xp.arange(n, dtype=xp.int64) if start is None else start.copy()
    tot = k.copy() if start is None else bincount(xp, c, n, weights=k)
    # active: vertices with a neighbour that moved since they were last evaluated (all at
    # first); the others stay put this sweep (PRUNE)
    active = xp.ones(n, dtype=bool)
    best_c, best_q = c.copy(), _q_of(Ap, c, two_m, gamma, k)
    q = best_q

    def value(w, tot_other, kb):
        # NetworkX: w / m - γ Stot k / (2 m²), Stot without the vertex itself
        return w / m - gamma * tot_other * kb / (2.0 * m * m)

    for _ in range(MAX_SWEEPS):
        moved = 0
        for B in classes:
            if PRUNE:
                B = B[active[B]]
                if B.size == 0:
                    continue
                active[B] = False
            S = _indicator(c, n, np.float64, Ap.device)
            # W = A'(B, :) plus.times S   (weight from each vertex of B to each community)
            W = sr.mxm(sr.extract(O, B), S, sr.plus_times)
            r, com, w = _coo(W)
            if r.size == 0:
                continue
            a, kb = c[B], k[B]
            mine = com == a[r]
            w_own = xp.zeros(B.size)
            w_own[r[mine]] = w[mine]
            stay = value(w_own, tot[a] - kb, kb)
            gain = value(w, tot[com] - xp.where(mine, kb[r], 0.0), kb[r])
            G = sr.Matrix.from_csr(W.indptr, W.indices, gain, W.shape, check=False)
            rr, to, g = _first_max_per_row(G)
            go = (g > stay[rr]) & (to != a[rr])
            rr, to = rr[go], to[go]
            if rr.size:
                v = B[rr]
                # tot -= k at the old communities, += k at the new ones
                tot -= bincount(xp, c[v], n, weights=k[v])
                tot += bincount(xp, to, n, weights=k[v])
                c[v] = to
                moved += int(rr.size)
                if PRUNE:
                    # active |= v any.pair O   (the movers' neighbours)
                    vv = sr.Vector.from_coo(v, 1.0, size=n, device=Ap.device)
                    active[sr.vxm(vv, O, sr.any_pair).sparse(sorted=False)[0]] = True
        if not moved:
            break
        q_new = _q_of(Ap, c, two_m, gamma, k)
        if q_new > best_q:
            best_c, best_q = c.copy(), q_new
        if q_new - q <= threshold:
            break
        q = q_new
    return best_c, best_q


def _sequential_order(Ap, seed):
    """The vertex order of the sequential moves (see SEQUENTIAL_HUBS_FIRST)."""
    n = Ap.nrows
    rank = np.random.default_rng(seed).permutation(n).astype(np.int64)
    if not SEQUENTIAL_HUBS_FIRST:
        return rank
    deg = np.diff(np.asarray(Ap.indptr, dtype=np.int64))
    prio = _degree_class(np, deg) * max(n, 1) + rank
    return np.argsort(-prio).astype(np.int64)


def _sequential_moves(Ap, two_m, gamma, threshold, seed, start=None):
    """Phase 1 on A' (self-loops doubled, on the host) by the sequential local moves of
    Blondel et al. 2008 (``semiring.backend.cpu.compiled.louvain_moves``): (labels,
    modularity), from ``start`` (each vertex alone when None), the vertices in the order of
    ``_sequential_order``. Every move has a positive gain, so the last sweep is the best."""
    k = sr.reduce_rows(Ap, "plus").to_dense(missing=0.0)      # weighted degrees
    w = (np.full(Ap.nvals, float(Ap.iso_value)) if Ap.is_iso
         else np.asarray(Ap.values, dtype=np.float64))
    order = _sequential_order(Ap, seed)
    c = np.arange(Ap.nrows, dtype=np.int64) if start is None else start.astype(np.int64)
    _compiled().louvain_moves(Ap.indptr, Ap.indices, w, np.asarray(k, dtype=np.float64), order,
                              c, two_m / 2.0, gamma, threshold, MAX_SWEEPS)
    return c, _q_of(Ap, c, two_m, gamma, k)
