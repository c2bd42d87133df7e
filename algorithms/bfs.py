"""Breadth-first search as a frontier product over a boolean or positional semiring.

Each level is one algebra call (Beamer, Asanović & Patterson 2012, "Direction-optimizing
breadth-first search"; the GraphBLAS form of Yang, Buluç & Owens 2018; LAGraph's
``LG_BreadthFirstSearch_SSGrB``):

    q⟨¬v.S, replace⟩ = q any.secondi A      (push)   or   Aᵀ any.secondi q   (pull)
    π⟨q.S⟩ = q ;  v⟨q.S⟩ = depth


- push: the sparse frontier times A, masked by the unvisited vertices (SpMSpV over A's rows);
- pull: Aᵀ times the frontier's bitmap, masked the same way; each unvisited vertex scans its
  in-neighbours and stops at the first one in the frontier (the ``any`` monoid's terminal
  value), so a wide frontier costs far less than its edges.

Each level's product and its assigns (level, parent, visited) run as one mechanism of
:mod:`semiring.traversal`. On the GPU the whole search is one launch (``bfs_grid``: a
persistent cooperative grid runs the levels below, push or pull, with a grid-wide barrier
between them and the direction switched on the device by ``ALPHA`` and ``BETA``; one host
sync in all). The loop below is the same search from the host, level by level: the CPU's
path and the GPU's fallback, with ``push_levels_grid`` / ``push_levels`` (many narrow push
levels in one launch, over the whole device or in one block), ``push_level`` and
``pull_level`` (one wide level over the whole device, one host sync each).

The variants of the whole search, picked in one place (:func:`_variant`):

- ``"small"``: a small graph's whole search in one thread block (``sr.traversal.bfs_small``,
  levels and queues in shared memory), GPU only, ``direction="auto"``, up to ``SMALL_N``
  vertices;
- ``"device"``: the fused persistent launch (``sr.traversal.bfs_grid``), GPU only; on
  road-like graphs (``ROAD_MEAN_DEGREE``, ``ROAD_ASYNC``) the barrier-free one
  (``sr.traversal.bfs_async``: the same levels as the fixed point of
  ``level(v) = min(level(v), level(u) + 1)``, reached by blocks that own vertex ranges and
  exchange boundary vertices, with no grid-wide barrier a level; parents by a pass over the
  final levels);
- ``"host"``: GPU input shaped like a road network (``ASYNC_MEAN_DEGREE``) with more than
  ``SMALL_N`` and at most ``ROAD_HOST_MAX_N`` vertices: the ``"csgraph"`` search on a host copy
  of A (kept on A), the result copied back (hundreds of levels cost the GPU a few
  µs each, the host's compiled search none);
- ``"levels"``: the host loop of fused level steps (:func:`_bfs_levels`);
- ``"csgraph"``: the CPU's whole search by SciPy's compiled ``breadth_first_order``
  (``sr.traversal.bfs_csgraph``), O(n + m) with no cost per level, picked on the CPU for
  ``direction="auto"`` (the CPU's counterpart of the fused launch: NumPy's per-level dispatch
  made a 10^5-vertex path take seconds);
- ``"algebra"``: the same loop written with the plain operations ``vxm`` and ``assign``
  (:func:`_bfs_algebra`), LAGraph's form line for line: the readable statement of what the
  others compute (tests check them against it), never picked by ``"auto"``.

Each level's direction is chosen in one place too (:func:`pull_next`, Beamer's rule with
``ALPHA`` and ``BETA``, which the device loop takes as arguments).
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring.errors import check_flags
from semiring import (DeviceMismatch, DimensionMismatch, DomainMismatch, InvalidIndex,
                      InvalidValue, as_matrix, spmm)

#: Push → pull when the frontier's out-edges exceed the unexplored edges / ALPHA, and pull →
#: push when the frontier holds fewer than n / BETA vertices (Beamer et al. 2012, §4: α = 14,
#: β = 24 were best on their graphs). The device loop (bfs_grid) counts the unexplored edges
#: as GAP does (only pushed frontiers are taken off, so a search's tail stays in push). On an
#: H200 (bench/probes/bfs_levels_probe.py, session 12, bfs_grid, two sources each) α = 40 or
#: 100 cost kron-22 0.36 -> 0.40 ms (a 1393-vertex hub frontier pulled in 258 us where its
#: 5 M-edge push took 165) and left urand-22 and kron-24 within noise; β = 8 / 64 moved
#: urand-22 and kron-24 by less than the two sources' spread.
ALPHA = 14
BETA = 24

#: A push frontier of at most this many vertices and out-edges runs fused levels
#: (:func:`semiring.traversal.push_levels`) until it grows: on a high-diameter graph one
#: launch per level would cost more than the level's edges. The edge budget is 4× the
#: block's default: on an H100 (bench/probes/probe_tune.py) kron-22 took 1.73 ms against 1.91 ms with
#: 64 Ki edges and 2.09 ms with 16 Ki (kron-21 1.18 / 1.22 / 1.78 ms; urand-22 and the 2048²
#: grid within noise), since a wide level handed to the multi-block push costs a host round
#: trip that one block's pass over a few hundred thousand edges does not.
FUSED_FRONTIER = sr.traversal.QUEUE
FUSED_EDGES = 4 * sr.traversal.MAX_EDGES
#: Run those fused levels over the whole device (:func:`semiring.traversal.push_levels_grid`:
#: one persistent cooperative grid, a grid-wide barrier between levels) instead of in one
#: block (:func:`semiring.traversal.push_levels`), which stays the fallback where the
#: cooperative launch cannot be made. On an H100 (bench/probes/probe_coop.py) the 2048² grid's BFS
#: took 34 ms this way against 52 ms in one block (3600 levels of ≤ 4096 vertices); Kronecker
#: 22 and urand 22 (two or three fused levels) were within noise of the block.
FUSED_GRID = True
#: Run the whole search on the device where it can (:func:`semiring.traversal.bfs_grid`:
#: one persistent cooperative launch, the same push and pull levels, the direction switched
#: by ALPHA and BETA after each grid-wide barrier, one host sync in all) instead of the loop
#: below, which stays the CPU path and the fallback where the launch cannot be made.
DEVICE_LOOP = True
#: Graphs with a mean out-degree up to ROAD_MEAN_DEGREE (grids, meshes, road networks: high
#: diameter, thousands of narrow levels, each mostly a grid-wide barrier) run bfs_grid on
#: ROAD_BLOCKS_PER_SM blocks a multiprocessor (a cheaper barrier); the others on
#: sr.traversal.BFS_GRID_BLOCKS_PER_SM. On an H100 (bench/probes/road_probe.py) one block took
#: 22.0 ms on the 2048² grid (3630 levels, 6.05 µs each) and 11.2 ms on rgg-22 (1772 levels)
#: against 24.5 and 12.7 ms for two; Kronecker-22 was faster on two (probe_tune.py: 0.53
#: against 0.63 ms). One
#: block running the levels alone (push_levels, __syncthreads between levels) took 14.3 µs a
#: level on the grid: the block-local loop does not cut the per-level cost there.
ROAD_MEAN_DEGREE = 12
ROAD_BLOCKS_PER_SM = 1
#: On those road-like graphs (``direction="auto"``), run the barrier-free search instead
#: (:func:`semiring.traversal.bfs_async`: blocks owning vertex ranges run their own levels and
#: exchange boundary vertices by messages, Groute's asynchronous model, Ben-Nun et al. 2017;
#: no grid-wide barrier per level). Its cost is the chain of local levels (about 1.3 µs a
#: depth on the grid on an H200 with padded rows and 4 threads a vertex, messages between
#: ranges included; 2.7 µs before), where bfs_grid pays a grid-wide barrier and a longer
#: chain of loads a level (6.1 µs).
ROAD_ASYNC = True
#: ... and only up to this mean out-degree. On an H100 (bench/probes/bfs_async_probe.py, best
#: of 5) the 2048² grid (degree 4) took 9.8-9.9 ms with bfs_async against 22.3 ms with
#: bfs_grid (3630 levels), but rgg-22 (degree 8) 83-122 ms against 11.5 ms: there a block's
#: own levels run ahead of the shortest paths through its neighbours' ranges (paths kept in a
#: thin range are longer), the labels are corrected again and again, each vertex expanded
#: 23-39 times; Kronecker-20 17 ms against 0.24 ms (most edges cross ranges).
ASYNC_MEAN_DEGREE = 5
#: A graph of at most SMALL_N vertices (and direction="auto") runs the whole search in one
#: thread block (``"small"``: sr.traversal.bfs_small, levels and queues in shared memory, one
#: launch, no host sync): issue 21 item 2, a warm call on a small graph as fast as SciPy's.
#: On an H100 (bench/probes/small_grid.py) bfs_grid took 0.11 ms on a 1000-vertex graph of
#: mean degree 8 whatever its grid (1 to 264 blocks: 0.129 / 0.115 / 0.113 / 0.117 ms for
#: 1 / 8 / 32 / 264), a per-level cost of grid-wide atomics and barriers, not of their
#: number; SciPy's breadth_first_order took 0.03 ms. At most sr.traversal.BFS_SMALL_MAX_N.
SMALL_N = sr.traversal.BFS_SMALL_MAX_N
#: GPU input shaped like a road network (mean out-degree up to ASYNC_MEAN_DEGREE: grids,
#: meshes, paths, hundreds of levels on few vertices) with more than SMALL_N vertices and at
#: most ROAD_HOST_MAX_N searches a host copy of A (``"host"``, kept on A) with
#: SciPy's compiled BFS, the result copied back: the GPU pays a few µs a level, however
#: narrow. On an H200 (``python -m bench --device gpu --suite small --graphs grid-100x100``,
#: bench/results/session20/) the 100 × 100 grid (n = 10^4, 198 levels) took 0.587 ms by
#: bfs_async against 0.179 ms by the host's search (the copy back not included) and SciPy's
#: breadth_first_order's 0.269 ms; on urand-13-ef4 (n = 8192, mean degree 8, not routed) the
#: GPU took 0.05 ms, 10.6x SciPy. Issue 21 item 2: a small graph's call no slower than SciPy.
ROAD_HOST_MAX_N = 1 << 14
#: Why the cooperative launch failed, once it has (then the host loop and push_levels run
#: from there on).
_grid_unavailable: str | None = None

#: multi_source_bfs on the GPU: a level whose joint frontier (the vertices on any search's
#: frontier) holds fewer than n / MSBFS_FILTER_DIV vertices is sparse: each in-neighbour's bit
#: in a bitmap of that frontier is tested before its 64-bit word is loaded and, with
#: ``symmetric=True``, the frontier first marks its neighbours so that only they scan (where
#: Then et al. 2014 §4 and Beamer et al. 2012 push); 0: never. On the H100
#: (bench/probes/msbfs_probe.py, 64 sources, bitmap only) 8 and 32 were alike, 1 (every
#: level) slower on the dense levels: kron-22 6.7 / 6.8 / 7.5 ms, none 7.6 ms; with the marks
#: (8) kron-22 5.3 ms against 6.8 ms with none, kron-20 2.16 against 2.41 ms.
MSBFS_FILTER_DIV = 8

#: On the CPU, run a search with ``direction="auto"`` (and each search of
#: :func:`multi_source_bfs`) as one call of SciPy's compiled BFS (``"csgraph"``) instead of
#: the NumPy level loop. On this repository's 2-core host (``python -m bench --device cpu``)
#: the loop took 1.4-37x SciPy's ``breadth_first_order`` (37x on the 128² grid: a NumPy
#: dispatch per level) and the multi-source loop 57-6900x.
CPU_CSGRAPH = True

#: A warm call's fast path (the host's share of a GPU search: ~30 us of urand-22's 0.4 ms
#: on an H200, session 13): the launch the ``"device"`` variant made for (A, parents,
#: direction, deterministic, symmetric) is kept in A's memo
#: (:func:`semiring.traversal.bfs_grid_runner`) with the policy it was chosen under (this
#: module's switches, the traversal module's, the device and stream); a later call under the
#: same policy checks only its source and launches. A Matrix changes only through its
#: ``_assign``, which drops its memo (and the launch with it). On an H200 (session 14,
#: bench/probes/bfs_levels_probe.py --hostab, call by call): GAP's urand-22 0.390 -> 0.378 ms
#: (host 19.6 -> 12.3 us), kron-22 0.254 -> 0.227 ms (28.0 -> 20.1 us).
FAST_PATH = True

DIRECTIONS = ("auto", "push", "pull")
#: Which variant runs the search: "auto" (:func:`_variant`'s choice) or one of VARIANTS.
VARIANT = "auto"
VARIANTS = ("small", "host", "device", "levels", "csgraph", "algebra")


def _variant(A, direction: str = "auto") -> str:
    """The one policy of the whole search: on the GPU (DEVICE_LOOP on) a small graph's search
    in one block (SMALL_N, ``direction="auto"``), else the fused persistent launch where it can run (the
    GPU, DEVICE_LOOP on, no earlier cooperative-launch failure, n within the kernel's
    limit); on the CPU SciPy's compiled search (CPU_CSGRAPH, ``direction="auto"``, A within
    its int32 indices); else the host loop of level steps."""
    if VARIANT != "auto":
        return VARIANT
    if A.device == "gpu" and DEVICE_LOOP and direction == "auto" and 0 < A.nrows <= SMALL_N:
        return "small"
    if (A.device == "gpu" and CPU_CSGRAPH and direction == "auto"
            and SMALL_N < A.nrows <= ROAD_HOST_MAX_N and A.nvals <= ASYNC_MEAN_DEGREE * A.nrows):
        return "host"
    if (A.device == "gpu" and DEVICE_LOOP and _grid_unavailable is None
            and A.nrows <= sr.traversal.BFS_GRID_MAX_N):
        return "device"
    if (A.device == "cpu" and CPU_CSGRAPH and direction == "auto"
            and sr.traversal.csgraph_fits(A)):
        return "csgraph"
    return "levels"


def _fast_state():
    """The policy a kept launch (FAST_PATH) was chosen under: this module's switches, the
    traversal module's, the device and the stream."""
    return (VARIANT, DEVICE_LOOP, _grid_unavailable, SMALL_N, ROAD_HOST_MAX_N, CPU_CSGRAPH,
            ROAD_MEAN_DEGREE,
            ROAD_BLOCKS_PER_SM, ROAD_ASYNC, ASYNC_MEAN_DEGREE, ALPHA, BETA,
            sr.traversal.bfs_grid_state())


def pull_next(pushing: bool, frontier_size: int, edges_frontier: int, edges_left: int,
              n: int, alpha=ALPHA, beta=BETA) -> bool:
    """The direction of the next level (Beamer et al. 2012, §4): push → pull when the
    frontier's out-edges exceed the unexplored edges / ``alpha``; pull → push when the
    frontier holds fewer than n / ``beta`` vertices. The one rule of every host-driven BFS
    loop (this module's and the distributed ones of ``algorithms.dist``)."""
    if pushing:
        return edges_frontier > edges_left / alpha
    return not frontier_size < n / beta


def _push_fused(A, level, idx, depth, parent, deterministic):
    """Fused push levels from the frontier ``idx``: over the whole device where it can be
    launched (FUSED_GRID), else in one block. Returns (status, depth)."""
    global _grid_unavailable
    if FUSED_GRID and _grid_unavailable is None:
        try:
            status, depth, _ = sr.traversal.push_levels_grid(
                A, level, idx, depth, parent=parent, deterministic=deterministic,
                max_edges=FUSED_EDGES)
            return status, depth
        except sr.BackendUnavailable as err:  # nothing ran: the block does the same levels
            _grid_unavailable = str(err)
    status, depth, _ = sr.traversal.push_levels(
        A, level, idx, depth, parent=parent, deterministic=deterministic, max_edges=FUSED_EDGES)
    return status, depth


def _check_source(source, n: int, device: str) -> int:
    if sr.is_gpu_array(source) or isinstance(source, np.ndarray):
        # a 0-d integer array (``v = level.argmax()``) is a vertex too, on A's device
        if sr.is_gpu_array(source) and device != "gpu":
            raise DeviceMismatch("bfs: A is on the CPU but source is a CuPy array on the GPU; "
                                 "pass an int (or move A with .to_gpu())")
        if source.ndim != 0 or source.dtype.kind not in "iu":
            raise DomainMismatch(f"bfs: source must be an integer, got an array of dtype "
                                 f"{source.dtype} and shape {tuple(source.shape)} (several "
                                 f"sources: sources=[...])")
        source = int(source)
    if isinstance(source, bool) or not isinstance(source, (int, np.integer)):
        raise DomainMismatch(f"bfs: source must be an integer, got {type(source).__name__}")
    if not 0 <= int(source) < n:
        raise InvalidIndex(f"bfs: source must lie in [0, {n}), got {int(source)}")
    return int(source)


def bfs(A, source=None, *, sources=None, parents=False, direction="auto", deterministic=False,
        symmetric=False):
    """Breadth-first search from ``source`` over the edges ``A(i, j)``: i → j.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph; only its structure is read (explicit zeros are edges, as in
        ``scipy.sparse.csgraph``). Runs where ``A`` lives (CPU or GPU).
    source : int
        The start vertex (an int, or a 0-d integer array on A's device).
    sources : sequence of int, optional
        Instead of ``source``: many searches at once, one per vertex listed
        (:func:`multi_source_bfs`, whose outputs, one row per source, are returned; it takes
        no ``direction``).
    parents : bool
        Also return a BFS tree: ``parent[source] = source``, ``-1`` where unreached.
    direction : {'auto', 'push', 'pull'}
        ``'auto'`` switches between push and pull by the frontier's size (see ``ALPHA`` and
        ``BETA``); the others force one direction for every level.
    deterministic : bool
        With ``parents=True``: each vertex's parent is its smallest-index in-neighbour on the
        previous level (``min_secondi``), the same on every run; otherwise any such
        in-neighbour (``any_secondi``, cheaper: the pull stops at the first one found).
    symmetric : bool
        Promise that A equals Aᵀ (an undirected graph): the pull then reads A's rows instead
        of building the transpose.

    Returns
    -------
    level : array of int64
        ``level[v]`` = number of edges on a shortest path from ``source``; ``-1`` if unreached.
        A NumPy or CuPy array, on A's device. With ``sources``: ``len(sources) × n``.
    parent : array of int64
        Only with ``parents=True``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]]))
    >>> level, parent = algorithms.bfs(A, 0, parents=True)
    >>> level.tolist(), parent.tolist()
    ([0, 1, 2, -1], [0, 0, 1, -1])
    >>> algorithms.bfs(A, sources=[0, 3]).tolist()
    [[0, 1, 2, -1], [1, 2, 3, 0]]
    """
    if (FAST_PATH and type(A) is sr.Matrix and type(source) is int and sources is None
            # (bools only: 1 and 1.0 equal True as keys, and would skip the check below)
            and type(parents) is bool and type(deterministic) is bool
            and type(symmetric) is bool):
        kept = A._memo.get("bfs_fast")
        try:
            run = (kept.get((parents, direction, deterministic, symmetric, _fast_state()))
                   if kept else None)
        except TypeError:  # (an unhashable argument: the checks below name it)
            run = None
        if run is not None and 0 <= source < A.nrows:
            try:
                level, parent = run(source)
                return (level, parent) if parents else level
            except sr.BackendUnavailable:  # nothing ran: the path below meets it and falls back
                pass
    A0 = A
    parents, deterministic, symmetric = check_flags(
        "bfs", parents=parents, deterministic=deterministic, symmetric=symmetric)
    if getattr(A, "is_distributed", False):  # a semiring.dist.DistMatrix: algorithms.dist
        from .dist import dispatch; return dispatch("bfs", A, source, sources=sources, parents=parents, direction=direction, deterministic=deterministic, symmetric=symmetric)  # noqa: E702
    if sources is not None:
        if source is not None:
            raise InvalidValue("bfs: give source or sources, not both")
        if not (isinstance(direction, str) and direction == "auto"):
            raise InvalidValue(f"bfs: direction={direction!r} applies to one source; the "
                               f"multi-source search chooses its own (give direction='auto')")
        return multi_source_bfs(A, sources, parents=parents, deterministic=deterministic,
                                symmetric=symmetric)
    if source is None:
        raise InvalidValue("bfs: source (one start vertex) or sources=[...] is required")
    A = as_matrix(A, op="bfs", arg="A", square=True)
    n = A.nrows
    source = _check_source(source, n, A.device)
    if not isinstance(direction, str) or direction not in DIRECTIONS:
        raise InvalidValue(f"bfs: direction must be one of {DIRECTIONS}, got {direction!r}")
    if symmetric:
        A = A.as_symmetric()  # Aᵀ is A itself (the caller's A keeps its own cache)
    variant = _variant(A, direction)
    if variant not in VARIANTS:
        raise InvalidValue(f"bfs: VARIANT must be 'auto' or one of {VARIANTS}, got {variant!r}")
    if variant == "small":
        # every level in one thread block, its state in shared memory: one launch, no sync
        level, parent = sr.traversal.bfs_small(A, source, parents=parents,
                                               deterministic=deterministic)
        return (level, parent) if parents else level
    if variant == "host":
        # SciPy's whole search on A's host copy (kept on A), the result back on A's device
        level, parent = sr.traversal.bfs_csgraph(A._host_copy(), source, parents=parents,
                                                 deterministic=deterministic)
        level = sr.to_device(level, A.device)
        return (level, sr.to_device(parent, A.device)) if parents else level
    if variant == "device":
        global _grid_unavailable
        # every level below, push or pull, in one launch with the switch made on the device
        try:
            road = A.nvals <= ROAD_MEAN_DEGREE * n
            if ROAD_ASYNC and direction == "auto" and A.nvals <= ASYNC_MEAN_DEGREE * n:
                # the same levels with no barrier a level; parents from a pass over them
                level, parent, _ = sr.traversal.bfs_async(A, source, parents=parents,
                                                          symmetric=symmetric)
                return (level, parent) if parents else level
            per_sm = ROAD_BLOCKS_PER_SM if road else None
            level, parent, _ = sr.traversal.bfs_grid(
                A, source, parents=parents, deterministic=deterministic, direction=direction,
                alpha=ALPHA, beta=BETA, symmetric=symmetric, blocks_per_sm=per_sm, info=False)
            if FAST_PATH and type(A0) is sr.Matrix:  # the next call's launch (FAST_PATH)
                run = sr.traversal.bfs_grid_runner(
                    A, parents=parents, deterministic=deterministic, direction=direction,
                    alpha=ALPHA, beta=BETA, symmetric=symmetric, blocks_per_sm=per_sm)
                if run is not None:
                    kept = A0._memo.setdefault("bfs_fast", {})
                    if len(kept) > 16:  # policies come and go (a probe's sweep): keep a few
                        kept.clear()
                    kept[(parents, direction, deterministic, symmetric, _fast_state())] = run
            return (level, parent) if parents else level
        except sr.BackendUnavailable as err:  # nothing ran: the host loop does the same levels
            _grid_unavailable = str(err)
    if variant == "csgraph":
        # the whole search in SciPy's compiled BFS: the levels and tree of the loop below
        level, parent = sr.traversal.bfs_csgraph(A, source, parents=parents,
                                                 deterministic=deterministic)
        return (level, parent) if parents else level
    run = _bfs_algebra if variant == "algebra" else _bfs_levels
    level, parent = run(A, source, parents, direction, deterministic)
    return (level, parent) if parents else level


def _bfs_levels(A, source: int, parents: bool, direction: str, deterministic: bool):
    """The search level by level from the host, each level one fused step (its product and
    its assigns in one mechanism of sr.traversal); narrow push frontiers run many levels in
    one launch. Returns (level, parent or None)."""
    n = A.nrows
    xp = A.xp
    level = xp.full(n, -1, dtype=xp.int64)
    parent = xp.full(n, -1, dtype=xp.int64) if parents else None
    unseen = xp.ones(n, dtype=bool)
    level[source] = 0
    unseen[source] = False
    if parents:
        parent[source] = source
    # The frontier is held as an index list (idx) after a push, as a bitmap (bits) after a
    # pull; each form is built from the other only when the direction changes.
    idx, bits = xp.asarray([source], dtype=xp.int64), None

    edges_frontier = int(A.indptr[source + 1]) - int(A.indptr[source])
    edges_left = A.nvals - edges_frontier  # edges out of unvisited vertices
    frontier_size = 1
    pushing = direction != "pull"
    depth = 0
    while True:
        if direction == "auto":
            pushing = not pull_next(pushing, frontier_size, edges_frontier, edges_left, n)
        if pushing and idx is None:
            idx = xp.flatnonzero(bits)
        if pushing and frontier_size <= FUSED_FRONTIER and edges_frontier <= FUSED_EDGES:
            # the push below, level after level on the device, while the frontier stays narrow
            status, depth = _push_fused(A, level, idx, depth, parent, deterministic)
            if status == "done":
                break
            # on from the frontier the fused levels left: the vertices at level == depth
            bits, unseen, frontier_size, edges_frontier, edges_left = \
                sr.traversal.frontier_of_level(A, level, depth)
            idx = None
            continue
        depth += 1
        if depth > n:  # a shortest path has at most n - 1 edges: a frontier this deep is a bug
            raise RuntimeError(f"bfs: frontier still non-empty after {n} levels (n = {n})")
        if pushing:
            # q⟨¬seen⟩ = q any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q ;  seen⟨q⟩ = true
            # (masked SpMSpV over the frontier's out-edges, each unseen head claimed once, and
            # the assigns, in one launch and one host sync: sr.traversal.push_level)
            idx, frontier_size, edges_frontier = sr.traversal.push_level(
                A, idx, unseen, level, depth, parent=parent, deterministic=deterministic)
            bits = None
        else:
            if bits is None:
                bits = xp.zeros(n, dtype=bool)
                bits[idx] = True
            # q⟨¬seen⟩ = Aᵀ any.secondi q ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q ;  seen⟨q⟩ = true
            # (masked SpMV, each unseen vertex stopping at its first in-neighbour in q, and the
            # assigns, in two launches and one host sync: sr.traversal.pull_level)
            bits, frontier_size, edges_frontier = sr.traversal.pull_level(
                A, bits, unseen, level, depth, parent=parent, deterministic=deterministic)
            idx = None
        if frontier_size == 0:
            break
        edges_left -= edges_frontier
    return level, parent


def _bfs_algebra(A, source: int, parents: bool, direction: str, deterministic: bool):
    """LAGraph's LG_BreadthFirstSearch_SSGrB with the plain operations: the statement of the
    search, level by level, each call under its math. Returns (level, parent or None)."""
    n, xp, dev = A.nrows, A.xp, A.device
    # the semiring of the frontier product: any_pair (reached or not), any/min_secondi (the
    # frontier vertex k an edge k → j came from: j's parent)
    semiring = "any_pair" if not parents else ("min_secondi" if deterministic else "any_secondi")
    # v(source) = 0 ;  π(source) = source ;  q(source) = source
    v = sr.Vector.from_coo([source], [0], size=n, dtype=np.int64, device=dev)
    pi = sr.Vector.from_coo([source], [source], size=n, dtype=np.int64, device=dev)
    q = sr.Vector.from_coo([source], [source], size=n, dtype=np.int64, device=dev)
    edges_frontier = int(A.indptr[source + 1]) - int(A.indptr[source])
    edges_left = A.nvals - edges_frontier
    pushing = direction != "pull"
    for depth in range(1, n + 1):
        if direction == "auto":
            pushing = not pull_next(pushing, q.nvals, edges_frontier, edges_left, n)
        # q⟨¬v.S, replace⟩ = q any.secondi A   (push: q's out-edges; pull: Aᵀ's rows, the
        # unvisited vertices scanning their in-neighbours)
        q = sr.vxm(q, A, semiring, mask=v, structure=True, complement=True,
                   direction="push" if pushing else "pull")
        if q.nvals == 0:
            break
        # π⟨q.S⟩ = q
        if parents:
            sr.assign(pi, q, mask=q, structure=True)
        # v⟨q.S⟩ = depth
        sr.assign(v, depth, mask=q, structure=True)
        edges_frontier = sr.traversal.frontier_edges(A, q.sparse()[0])
        edges_left -= edges_frontier
    level = v.to_dense(missing=-1).astype(xp.int64, copy=False)
    parent = pi.to_dense(missing=-1).astype(xp.int64, copy=False) if parents else None
    return level, parent


def _check_sources(sources, n: int, device: str):
    """The sources as a 1-D int64 array on A's device (validated before any kernel runs)."""
    op = "multi_source_bfs"
    if sr.is_gpu_array(sources):
        if device != "gpu":
            raise DeviceMismatch(f"{op}: A is on the CPU but sources is on the GPU; pass a "
                                 f"list or a NumPy array (or move A with .to_gpu())")
        src = sources
    elif isinstance(sources, (int, np.integer, bool, np.bool_)) or np.ndim(sources) == 0:
        raise DomainMismatch(f"{op}: sources must be a 1-D sequence of vertices, got the scalar "
                             f"{sources!r} (algorithms.bfs takes one source)")
    else:
        src = np.asarray(sources)
    if src.ndim != 1:
        raise DimensionMismatch(f"{op}: sources must be 1-D, got shape {tuple(src.shape)}")
    if src.size == 0:
        src = src.astype(np.int64)  # [] comes as float64
    if src.dtype == np.bool_ or src.dtype.kind not in "iu":
        raise DomainMismatch(f"{op}: sources must hold integers, got dtype {src.dtype}")
    if src.size:
        lo, hi = (int(v) for v in (src.min(), src.max()))  # one sync for a device array
        if lo < 0 or hi >= n:
            bad = lo if lo < 0 else hi
            raise InvalidIndex(f"{op}: sources must lie in [0, {n}), got {bad}")
    return sr.array_module(device).asarray(src, dtype=np.int64)


def multi_source_bfs(A, sources, *, parents=False, deterministic=False, symmetric=False):
    """Breadth-first search from several sources at once: one BFS per source, run together.

    The frontiers of all sources form one dense ``n × s`` frontier matrix F (a bitmap: vertex
    v is in source j's frontier where ``F[v, j]``), and each level is one masked SpMM over the
    transposed graph, every (vertex, source) pair stopping at the first in-neighbour found
    in that source's frontier. Each source's traversal is independent of the others
    (duplicates give equal rows). The function follows LAGraph's ``LAGraph_MultiSourceBFS``
    (levels and parents with one row per source); cuGraph's ``bfs(G, start=[...])`` is a
    different thing, one traversal from a *set* of seeds, which is not this.

    Parameters
    ----------
    A : Matrix, scipy.sparse or cupyx.scipy.sparse matrix, square
        The graph, edges ``A(i, j)``: i → j; only its structure is read (explicit zeros are
        edges). Runs where ``A`` lives (CPU or GPU).
    sources : sequence of int, NumPy array, or CuPy array (GPU only)
        The start vertices, one BFS each; duplicates allowed, an empty list gives 0 rows.
    parents : bool
        Also return one BFS tree per source: ``parent[j, sources[j]] = sources[j]``, ``-1``
        where unreached.
    deterministic : bool
        With ``parents=True``: each parent is the smallest-index in-neighbour on the previous
        level (``min_secondi``), equal to ``algorithms.bfs(..., deterministic=True)`` source by
        source; otherwise any such in-neighbour (``any_secondi``: the scan of a vertex's
        in-neighbours stops at the first one found).
    symmetric : bool
        Promise that A equals Aᵀ (an undirected graph): the pull reads A's rows instead of
        building the transpose.

    Returns
    -------
    level : array of int64, shape ``(len(sources), n)``
        ``level[j, v]`` = edges on a shortest path from ``sources[j]`` to v, ``-1`` if
        unreached. A NumPy or CuPy array, on A's device.
    parent : array of int64, shape ``(len(sources), n)``
        Only with ``parents=True``.

    Notes
    -----
    On the GPU the frontier matrix is packed 64 sources to a word a vertex and each batch of
    64 runs in one launch (:func:`semiring.traversal.msbfs_grid`, bit-parallel: one pass over
    the graph a level serves 64 searches, rows balanced over lanes, warps and blocks by
    in-degree, sparse levels filtered by ``MSBFS_FILTER_DIV``; parents are then the smallest
    in-neighbour, as with ``deterministic``). Elsewhere, and where that launch cannot be made, the loop below runs:
    a few ``n × s`` arrays (the frontier, the visited set and the product as bool, levels as
    int32, and with parents the product and the parents as int64), plus the results. Only the
    pull direction is used: every level reads the graph (or the visited set) in full, so a
    high-diameter graph (a grid) costs O(nnz) a level.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms
    >>> A = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]]))
    >>> level, parent = algorithms.multi_source_bfs(A, [0, 3, 0], parents=True)
    >>> level.tolist()
    [[0, 1, 2, -1], [1, 2, 3, 0], [0, 1, 2, -1]]
    >>> parent.tolist()
    [[0, 0, 1, -1], [3, 0, 1, 3], [0, 0, 1, -1]]
    """
    op = "multi_source_bfs"
    parents, deterministic, symmetric = check_flags(
        op, parents=parents, deterministic=deterministic, symmetric=symmetric)
    A = as_matrix(A, op=op, arg="A", square=True)
    n = A.nrows
    src = _check_sources(sources, n, A.device)
    global _grid_unavailable
    if A.device == "gpu" and DEVICE_LOOP and _grid_unavailable is None:
        # the levels below, 64 sources to a word a vertex, each batch in one launch
        try:
            level, parent = sr.traversal.msbfs_grid(A, src, parents=parents, symmetric=symmetric,
                                                    filter_div=MSBFS_FILTER_DIV)
            return (level, parent) if parents else level
        except sr.BackendUnavailable as err:  # nothing ran: the loop below does the same
            _grid_unavailable = str(err)
    if (A.device == "cpu" and CPU_CSGRAPH and VARIANT in ("auto", "csgraph")
            and sr.traversal.csgraph_fits(A)):
        # one compiled search a source (O(n + m) each): the rows of the loop below
        level, parent = sr.traversal.bfs_csgraph(A, src, parents=parents,
                                                 deterministic=deterministic)
        return (level, parent) if parents else level
    xp = A.xp
    s = int(src.size)
    # the pull reads Aᵀ's rows (in-neighbours), as structure only: no values are cast or read
    AT = A if symmetric else A.T
    G = sr.Matrix(AT.indptr, AT.indices, None, AT.shape, iso_value=True, dtype=np.bool_)
    if parents:
        semiring = sr.min_secondi if deterministic else sr.any_secondi
    else:
        semiring = sr.any_pair  # over bool: the product is the new frontier itself

    cols = xp.arange(s, dtype=xp.int64)
    F = xp.zeros((n, s), dtype=bool)  # F[v, j]: v is on source j's frontier
    F[src, cols] = True
    seen = F.copy()
    level = xp.full((n, s), -1, dtype=xp.int32)  # int64 on the way out, transposed
    level[src, cols] = 0
    parent = None
    if parents:
        parent = xp.full((n, s), -1, dtype=xp.int64)
        parent[src, cols] = src
    depth = 0
    while s:
        depth += 1
        if depth > n:  # a shortest path has at most n - 1 edges: a frontier this deep is a bug
            raise RuntimeError(f"{op}: frontier still non-empty after {n} levels (n = {n})")
        # F⟨¬seen⟩ = Aᵀ any.secondi F   (every source at once: SpMM against the bitmap F,
        #                                  each unvisited (v, j) stops at its first parent)
        Y, present = spmm(G, F, semiring, np.bool_, x_present=F, want_present=parents,
                          mask=seen, complement=True)
        F = present if parents else Y
        if not int(xp.count_nonzero(F)):  # the level's one host synchronization
            break
        # level⟨F⟩ = depth,  parent⟨F⟩ = Y,  seen⟨F⟩ = true
        xp.copyto(level, depth, where=F)
        if parents:
            xp.copyto(parent, Y, where=F)
        seen |= F
    level = xp.ascontiguousarray(level.T, dtype=xp.int64)
    if parents:
        return level, xp.ascontiguousarray(parent.T)
    return level
