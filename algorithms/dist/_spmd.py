"""The SPMD form of the distributed algorithms: each partition's rank runs the whole loop over
its own column block (and row block), and the ranks exchange the frontier (or the vector)
among themselves once a round, through the mesh (:meth:`semiring.dist.DistMatrix.call_spmd`):
no scheduler, no client in the loop. A round is the engine's product on the local block
(``q ⊕.⊗ A(:, lo:hi)``: the rank's slice of the next frontier) and one all-gather of the
slices, which also carries each rank's share of the global reductions (frontier size and
out-edges, error and dangling rank), so that every rank takes the same decisions (push or
pull, stop) from the same numbers, summed in rank order.

Each loop has two named variants, picked on the client (``BFS_LEVELS``, ``ROUNDS``,
``COMPONENTS``): the fused one, whose level or round is one launch of :mod:`semiring.blocks`
on the rank's block (the one-device traversal's work on 1/P of the edges, the frontier
exchanged as a bitmap with the counts in the same buffer; components by Afforest on the
rank's own edges and once more on the union of the ranks' forests), and the algebra one,
the generic ``vxm`` on the block, kept as the readable statement the fused ones are tested
against. BFS has a third, "peer", for two GPU ranks of one host: the whole search one
launch a GPU, the two meeting over peer memory each level (no host in the level loop;
:func:`bfs_rank_peer`), which ``BFS_LEVELS = "auto"`` picks where it applies.

Each function here runs on a rank; ``rank`` is a :class:`semiring.dist._mesh.Rank`
(``rank.block('cols')``, ``rank.lo``, ``rank.hi``, ``rank.n``, ``rank.gather_slices``).
The policy constants are those of the loop forms (:mod:`algorithms.dist.bfs` ...).
"""

from __future__ import annotations

import functools
import time

import numpy as np

import semiring as sr
from algorithms.bfs import pull_next

#: Run the SPMD form for matrices of several partitions (``False``: the loop of one Dask task
#: per partition and operation, as before; the tests run both).
SPMD = True

#: Run the SPMD form on a matrix of one partition too, when ``_local.WHOLE_ON_ONE_WORKER`` is
#: off (a measurement's switch: the same loop on one GPU, the base of its strong scaling;
#: the one-device algorithm on the worker is faster there).
ONE_PARTITION = False


def applies(A) -> bool:
    return SPMD and (A.nparts > 1 or ONE_PARTITION) and A.nrows == A.ncols


def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def _out_degree(rank, B):
    """d(i) = |A(i, :)| for every vertex, on every rank: the all-reduce of the column
    blocks' row counts (int64, on the rank's device); made once per mesh (the blocks do not
    change) and kept in ``rank.memo``."""
    d = rank.memo.get("out_degree")
    if d is None:
        xp = B.xp
        d = rank.memo["out_degree"] = rank.allreduce(xp.diff(B.indptr.astype(xp.int64)), "plus")
    return d


def _gather_equal(rank, a):
    """Every rank's array ``a`` (one shape and type on every rank), stacked in rank order:
    (P, *a.shape) on this rank's device, in one all-gather (NCCL on GPU ranks)."""
    if rank.size == 1:
        return a[None]
    if rank.exchange != "tcp":
        return rank._nccl_gather_equal(a)
    got = np.stack(rank.allgather(_host(a)))
    return got if isinstance(a, np.ndarray) else sr.array_module("gpu").asarray(got)


def _edges_total(rank, deg):
    """Σ d: the graph's entries (a host read, once per mesh)."""
    m = rank.memo.get("edges_total")
    if m is None:
        m = rank.memo["edges_total"] = int(deg.sum())
    return m


# ------------------------------------------------------------------------------ BFS

#: How a rank runs its BFS levels: "fused" (:func:`bfs_rank_fused`: each level one launch of
#: :mod:`semiring.blocks` on the rank's block, pull over the block's in-edges from the global
#: frontier bitmap or push along the frontier's rows, the new frontier written as bits of a
#: send buffer whose header carries the level's counts: one all-gather and one host read a
#: level) or "algebra" (:func:`bfs_rank`: LAGraph's loop of ``vxm`` on the block and a
#: scatter, a sparse-or-bitmap gather of the slices; the statement the fused levels are
#: tested against). On 2 H200 (bench/results/20261128-dask_two_gpu_h200.md) the algebra
#: loop took 9.8 ms on one rank for kron-24, where the one-device BFS takes 1.5-1.8 ms:
#: each level's generic product, its Vector bookkeeping and two host reads.
#: A variant that queued a run of pull levels one level ahead of their counts (the host's
#: launches overlapping the device's level, the counts read from pinned memory later) was
#: slower on 4 H200 (kron-24, bench/results/20261128-dask_scaling_h200x4.md: 3.76 / 4.73
#: ms on 1 / 4 GPUs against 2.55 / 3.69): the search runs a level more (the late switch to
#: push, the pull of an empty frontier at the end), and it was removed.
#: "peer" (:func:`bfs_rank_peer`): the whole search one persistent cooperative launch on each
#: of two GPUs of one host, the grids exchanging frontier bits and vertex claims over peer
#: memory (CUDA IPC between the ranks' processes) and meeting at a cross-GPU barrier each
#: level, no host in the level loop (``kernels/bfs_peer.cu``, session 22's probe). On 2 H200
#: (bench/results/session22/bfs_two_gpu_h200x2.md, one process owning both GPUs) kron-24 took
#: 0.528-0.539 ms against the one-device bfs_grid's 0.707-0.724 (strong 67 %), kron-25 0.930
#: against 1.396 (75 %), weak 76-78 %; the fused rank loop reached 18 % / 25 % (session 21).
#: "auto" picks "peer" where it applies (:func:`peer_applies` on the client, then the ranks'
#: own checks, :func:`_peer_setup`, which fall back to "fused" where they fail) and "fused"
#: elsewhere; "peer" named alone raises where it does not apply.
BFS_LEVELS = "auto"
BFS_LEVELS_CHOICES = ("auto", "fused", "algebra", "peer")

#: The peer variant's policy. Exactly two ranks: the kernel's design (each GPU's peer is
#: "the other one": one arrival stamp, one count slot, claims routed to the one other owner).
PEER_RANKS = 2
#: The device memory a rank must have free for the replicated graph (A's CSR and Aᵀ's, or
#: one of them when A is symmetric) and the search's buffers: the estimate times
#: PEER_MEMORY_MARGIN plus PEER_MEMORY_RESERVE bytes (the gather's transient buffers are in
#: the estimate; the margin covers CuPy's pool rounding and the engine's own later work).
PEER_MEMORY_MARGIN = 1.25
PEER_MEMORY_RESERVE = 1 << 30
#: A cross-GPU barrier's wait before the kernel gives up with an error (it never hangs): the
#: first level's covers the skew of the two ranks' launches (two Dask worker processes,
#: each receiving the command over its own socket: ms apart, more on a loaded host), a later
#: level's a level's work (kron-25's widest pull level: ~0.35 ms on an H200).
PEER_FIRST_TIMEOUT_S = 20.0
PEER_LEVEL_TIMEOUT_S = 5.0


def bfs_level_loop(A=None, *, parents=False, symmetric=False):
    """The rank function of the policy's loop (:data:`BFS_LEVELS`; read on the client, whose
    choice the ranks run): for "auto", "peer" where :func:`peer_applies` to ``A`` and a
    levels-only search (``parents`` false), else "fused"."""
    choice = BFS_LEVELS
    if choice not in BFS_LEVELS_CHOICES:
        raise sr.InvalidValue(f"algorithms.dist._spmd.BFS_LEVELS must be one of "
                              f"{BFS_LEVELS_CHOICES}, got {choice!r}")
    if choice == "auto":
        if A is not None and peer_applies(A, parents) is None:
            return functools.partial(bfs_rank_peer, symmetric=symmetric, strict=False)
        return bfs_rank_fused
    if choice == "peer":
        why = "no matrix given" if A is None else peer_applies(A, parents)
        if why is not None:
            raise sr.BackendUnavailable(f"bfs: BFS_LEVELS='peer' does not apply: {why}")
        return functools.partial(bfs_rank_peer, symmetric=symmetric, strict=True)
    return _variant("BFS_LEVELS", BFS_LEVELS_CHOICES, (None, bfs_rank_fused, bfs_rank, None))


def peer_applies(A, parents=False):
    """None where the client allows the peer BFS on ``A`` (GPU blocks, :data:`PEER_RANKS`
    partitions, levels only, fewer vertices than the kernel's limit), else why not. The
    ranks check the rest themselves (:func:`_peer_setup`: one host, a GPU each, peer access,
    free memory)."""
    from semiring.backend.gpu import bfs_peer  # noqa: PLC0415 (its constants; no CuPy at import)

    if A.device != "gpu":
        return f"the blocks are on the {A.device}, not GPUs"
    if A.nparts != PEER_RANKS:
        return f"{A.nparts} partitions (the kernel joins exactly {PEER_RANKS} GPUs)"
    if parents:
        return "parents asked (the kernel computes levels only)"
    if A.nrows >= bfs_peer.MAX_N:
        return f"n = {A.nrows} >= the kernel's limit {bfs_peer.MAX_N}"
    return None


def _variant(policy, choices, functions):
    """The function of ``functions`` (one a choice, in order) that the policy constant
    ``policy`` of this module names."""
    choice = globals()[policy]
    if choice not in choices:
        raise sr.InvalidValue(f"algorithms.dist._spmd.{policy} must be one of {choices}, got "
                              f"{choice!r}")
    return functions[choices.index(choice)]


def bfs_rank_fused(rank, source, parents, direction, deterministic, alpha, beta, gather):
    """Levels (and parents) of this rank's vertices, each level one fused step on the rank's
    block (:func:`semiring.blocks.bfs_push` / :func:`~semiring.blocks.bfs_pull`) and one
    all-gather of the ranks' send buffers: the new frontier as a bitmap, with its size and
    out-edges in each buffer's header (Beamer's rule reads their sums, the same numbers on
    every rank). Levels and deterministic parents equal :func:`bfs_rank`'s."""
    B = rank.block("cols")                                  # A(:, lo:hi)
    BT = None                                               # A(:, lo:hi)ᵀ: made at the first pull
    xp, n, lo, hi = B.xp, rank.n, rank.lo, rank.hi
    deg = _out_degree(rank, B)                              # d(i) = |A(i, :)|
    deg_p = deg[lo:hi]
    b = rank.bounds
    words = max(sr.blocks.word_range(b[p], b[p + 1])[1] for p in range(rank.size))
    # v(source) = 0 ;  p(source) = source            (this rank's slices, dense: -1 absent)
    level = xp.full(hi - lo, -1, dtype=xp.int64)
    parent = xp.full(hi - lo, -1, dtype=xp.int64) if parents else None
    if lo <= source < hi:
        level[source - lo] = 0
        if parents:
            parent[source - lo] = source
    # q = {source}: as a vertex list (push) or a bitmap (pull), each made when needed
    flist, lens, fbits = xp.asarray([source], dtype=xp.int64), None, None
    frontier_size, edges_frontier = 1, int(deg[source])
    edges_left = _edges_total(rank, deg) - edges_frontier
    pushing = direction != "pull"
    depth = 0
    while True:
        if direction == "auto":
            pushing = not pull_next(pushing, frontier_size, edges_frontier, edges_left, n,
                                    alpha, beta)
        depth += 1
        out = sr.blocks.send_buffer(lo, hi, B.device, words)
        if pushing:
            if flist is None:
                flist, lens = sr.blocks.bits_list(B, fbits, frontier_size)
            # q_p⟨¬v_p⟩ = q any.secondi A(:, lo:hi) ;  v_p⟨q_p⟩ = depth ;  p_p⟨q_p⟩ = q_p
            sr.blocks.bfs_push(B, flist, level, depth, deg=deg_p, out=out, lo=lo, lens=lens,
                               parent=parent, deterministic=deterministic)
        else:
            if fbits is None:
                fbits = xp.zeros((n + 31) // 32, dtype=xp.uint32)
                fbits[source >> 5] = np.uint32(1 << (source & 31))
            if BT is None:
                BT = B.T
            # the same, pulled: each unreached vertex of lo:hi scans its in-edges
            sr.blocks.bfs_pull(BT, fbits, level, depth, deg=deg_p, out=out, lo=lo,
                               parent=parent, deterministic=deterministic)
        # q = [q_0 … q_P-1] ;  |q| and Σ d(q): one all-gather, one host read
        got = _gather_equal(rank, out)
        h = sr.blocks.heads(got)
        frontier_size, edges_frontier = int(h[:, 0].sum()), int(h[:, 1].sum())
        if frontier_size == 0:
            break
        fbits, flist, lens = sr.blocks.join_bits(got, b, n), None, None
        edges_left -= edges_frontier
    outs = (level, parent) if parents else (level,)
    if gather:
        return tuple(_host(o) for o in outs)
    vecs = tuple(sr.Vector.from_dense(o, missing=-1, device=rank.device) for o in outs)
    return vecs if parents else vecs[0]


def _peer_setup(rank, symmetric):
    """(Collective.) This rank's :class:`semiring.backend.gpu.bfs_peer.PeerSearch`, or None
    and why not (the same verdict on both ranks): made once per mesh (kept in ``rank.memo``):
    the checks (two GPU ranks of one host, a GPU each, peer access between them, the whole
    graph and the search's buffers within free memory, :data:`PEER_MEMORY_MARGIN`), the shared
    buffers mapped by IPC (:meth:`~semiring.dist._mesh.Rank.peer_memory`), the whole graph
    gathered from the ranks' column blocks (Aᵀ's rows lo:hi are the block's transpose; A is
    Aᵀ's transpose, or Aᵀ itself where ``symmetric`` or found equal) and the kernel compiled."""
    key = ("bfs_peer", bool(symmetric))
    kept = rank.memo.get(key)
    if kept is None and symmetric:
        # a setup made without the promise holds A and Aᵀ as they are: right either way
        kept = rank.memo.get(("bfs_peer", False))
    if kept is not None:
        return kept
    from semiring.backend.gpu import bfs_peer  # noqa: PLC0415 (GPU ranks only)

    B = rank.block("cols")                                  # A(:, lo:hi)
    n = rank.n
    counts = rank.allgather(int(B.nvals))
    m = sum(counts)
    itype = np.dtype(np.int32 if max(n, m) <= np.iinfo(np.int32).max - (1 << 16) else np.int64)
    why = None
    if rank.size != PEER_RANKS:
        why = f"{rank.size} ranks (the kernel joins exactly {PEER_RANKS})"
    elif rank.device != "gpu":
        why = f"rank {rank.rank} holds its blocks on the CPU"
    elif n >= bfs_peer.MAX_N:
        why = f"n = {n} >= the kernel's limit {bfs_peer.MAX_N}"
    else:
        xp = B.xp
        csr = (n + 1 + m) * itype.itemsize
        # the graph (twice unless symmetric), the gather's receive buffer and the transpose's
        # (transient), the search's own buffers
        need = (csr * (1 if symmetric else 3) + PEER_RANKS * max(counts) * itype.itemsize
                + bfs_peer.work_bytes(n, itype))
        free = xp.cuda.runtime.memGetInfo()[0] + xp.get_default_memory_pool().free_bytes()
        if need * PEER_MEMORY_MARGIN + PEER_MEMORY_RESERVE > free:
            why = (f"rank {rank.rank}: the replicated graph and buffers need ~{need / 2**30:.1f} "
                   f"GiB (x {PEER_MEMORY_MARGIN} + {PEER_MEMORY_RESERVE / 2**30:.0f} GiB), "
                   f"{free / 2**30:.1f} GiB free")
    whys = [w for w in rank.allgather(why) if w is not None]
    if whys:
        rank.memo[key] = (None, whys[0])
        return rank.memo[key]
    pointers, why = rank.peer_memory("bfs_peer", bfs_peer.shared_layout(n)["_total"])
    if why is not None:
        rank.memo[key] = (None, why)
        return rank.memo[key]
    indptr, indices, tindptr, tindices = _whole_graph(rank, B, counts, itype, symmetric)
    why = None
    try:
        # (one launch count for the shared buffers, whichever search launches on them:
        # both ranks make the same searches in the same order, so the counts agree)
        search = bfs_peer.PeerSearch(indptr, indices, tindptr, tindices, n, rank.rank,
                                     bfs_peer.split_word(n, rank.bounds[1]),
                                     pointers[rank.rank],
                                     launches=rank.memo.setdefault("bfs_peer_launches", [0]))
        search.attach(pointers[1 - rank.rank])
    except sr.BackendUnavailable as err:
        search, why = None, str(err)
    whys = [w for w in rank.allgather(why) if w is not None]
    rank.memo[key] = (None, whys[0]) if whys else (search, None)
    return rank.memo[key]


def _whole_graph(rank, B, counts, itype, symmetric):
    """(Collective.) A's and Aᵀ's whole CSRs (indptr, indices, tindptr, tindices; ``itype``)
    on this rank's device, from the ranks' column blocks (``counts``: their entries): Aᵀ
    gathered (:func:`_gather_transpose`), A its transpose, or Aᵀ's very arrays where
    ``symmetric`` or where the two are found equal (one copy: the kernel reads one CSR)."""
    n = rank.n
    tindptr, tindices = _gather_transpose(rank, B, counts, itype)
    if symmetric:
        return tindptr, tindices, tindptr, tindices
    AT = sr.Matrix.from_csr(tindptr, tindices, None, (n, n), check=False)
    A = AT.T
    indptr, indices = A.indptr.astype(itype, copy=False), A.indices.astype(itype, copy=False)
    del AT, A
    if bool((indptr == tindptr).all()) and bool((indices == tindices).all()):
        return tindptr, tindices, tindptr, tindices
    return indptr, indices, tindptr, tindices


def _gather_transpose(rank, B, counts, itype):
    """Aᵀ's whole CSR (``itype``) on this rank's GPU: the ranks' blocks' transposes
    (A(:, lo:hi)ᵀ = Aᵀ(lo:hi, :), global column ids) stacked in rank order, in one all-gather
    of the padded pieces (NCCL between GPU ranks)."""
    xp = B.xp
    BT = B.T
    ip = BT.indptr.astype(itype, copy=False)
    ix = BT.indices.astype(itype, copy=False)
    sizes = [rank.bounds[p + 1] - rank.bounds[p] for p in range(rank.size)]
    kmax, smax = max(counts), max(sizes)
    pad_ix = xp.zeros(max(kmax, 1), dtype=itype)
    pad_ix[:ix.size] = ix
    pad_ip = xp.zeros(smax + 1, dtype=itype)
    pad_ip[:ip.size] = ip
    g_ix, g_ip = _gather_equal(rank, pad_ix), _gather_equal(rank, pad_ip)
    del pad_ix, pad_ip
    tix = xp.concatenate([g_ix[p, :counts[p]] for p in range(rank.size)])
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(itype)
    tip = xp.concatenate([g_ip[p, :sizes[p]] + starts[p] for p in range(rank.size)]
                         + [xp.asarray(starts[-1:], dtype=itype)])
    return tip, tix


def bfs_rank_peer(rank, source, parents, direction, deterministic, alpha, beta, gather, *,
                  symmetric=False, strict=False):
    """Levels of this rank's vertices by the two-GPU kernel (``kernels/bfs_peer.cu``): one
    launch on each rank's GPU, the two meeting over peer memory each level (the same
    direction rule, Beamer's, on the same global counts as :func:`bfs_rank_fused`). Where
    the ranks find it does not apply (:func:`_peer_setup`) it runs :func:`bfs_rank_fused`
    instead, or raises ``BackendUnavailable`` with ``strict``. Levels only: ``parents``
    raises (the client picks this loop for levels only). A kernel error (a cross-GPU
    barrier's timeout: the peer rank's kernel did not arrive) raises on the rank, never
    hangs."""
    if parents:
        raise sr.InvalidValue("bfs: the peer BFS computes levels only (parents=True runs the "
                              "fused levels)")
    search, why = _peer_setup(rank, symmetric)
    if search is None:
        if strict:
            raise sr.BackendUnavailable(f"bfs: BFS_LEVELS='peer' does not apply: {why}")
        return bfs_rank_fused(rank, source, parents, direction, deterministic, alpha, beta,
                              gather)
    mode = {"auto": 0, "push": 1, "pull": 2}[direction]
    # (the host clock at each step, kept for measurements: time.perf_counter is the host's
    # monotonic clock, one clock for the client and both ranks' processes)
    t = [time.perf_counter()]
    search.launch(source, alpha=alpha, beta=beta, mode=mode, timeout0_s=PEER_FIRST_TIMEOUT_S,
                  timeout_s=PEER_LEVEL_TIMEOUT_S)
    t.append(time.perf_counter())
    # the levels' copies queued behind the search (their launches overlap it), then one wait
    # for both, and the search's status (a failed search raises: the copies are dropped)
    level = search.levels(rank.lo, rank.hi)
    search.finish()
    t.append(time.perf_counter())
    out = (_host(level),) if gather else sr.Vector.from_dense(level, missing=-1,
                                                              device=rank.device)
    t.append(time.perf_counter())
    rank.memo["bfs_peer_times"] = tuple(t)
    return out


def bfs_rank(rank, source, parents, direction, deterministic, alpha, beta, gather):
    """Levels (and parents) of this rank's vertices: LAGraph's BFS on the column block, the
    frontier all-gathered each level; Beamer's push/pull rule on the global counts. The
    rank's visited set v is its dense level array (``-1``: absent), its structure the mask
    of the product, so that ``v⟨q_p.S⟩ = depth`` is a scatter of the new frontier's entries
    (as in the one-device ``algorithms.bfs``)."""
    B = rank.block("cols")                                  # A(:, lo:hi)
    xp, n, lo, hi = B.xp, rank.n, rank.lo, rank.hi
    S = (sr.min_secondi if deterministic else sr.any_secondi) if parents else sr.any_pair
    qtype = np.int64 if parents else np.bool_
    deg = _out_degree(rank, B)                              # d(i) = |A(i, :)|
    # q(source) = source: the whole frontier, on every rank
    q = sr.Vector.from_coo(xp.asarray([source], dtype=xp.int64),
                           xp.asarray([source if parents else True], dtype=qtype),
                           size=n, dtype=qtype, device=rank.device)
    # v(source) = 0 ;  p(source) = source            (this rank's slices, dense: -1 absent)
    level = xp.full(hi - lo, -1, dtype=xp.int64)
    parent = xp.full(hi - lo, -1, dtype=xp.int64) if parents else None
    seen = xp.zeros(hi - lo, dtype=bool)                    # v.S, kept as v grows
    if lo <= source < hi:
        level[source - lo] = 0
        seen[source - lo] = True
        if parents:
            parent[source - lo] = source
    frontier_size, edges_frontier = 1, int(deg[source])
    edges_left = int(deg.sum()) - edges_frontier
    pushing = direction != "pull"
    depth = 0
    G = None
    while True:
        if direction == "auto":
            pushing = not pull_next(pushing, frontier_size, edges_frontier, edges_left, n,
                                    alpha, beta)
        if G is not None:
            q = G.vector("sparse" if pushing else "bitmap")
        depth += 1
        # q_p⟨¬v.S, replace⟩ = q any.secondi A(:, lo:hi)
        # (v wraps level and seen as they are now: read by this product only)
        v = sr.Vector.from_bitmap(level, seen, device=rank.device)
        qp = sr.vxm(q, B, S, mask=v, structure=True, complement=True,
                    direction="push" if pushing else "pull")
        # q = [q_0 … q_P-1] ;  |q| and Σ d(q): one all-gather (the sum left on the rank's
        # device until the exchange reads it with the counts: no host read of its own)
        i, x = qp.sparse(sorted=False)
        G = rank.gather_slices(qp, (int(i.size), deg[i + lo].sum()))
        frontier_size, edges_frontier = (int(sum(e)) for e in zip(*G.extras))
        if frontier_size == 0:
            break
        # v⟨q_p.S⟩ = depth
        level[i] = depth
        seen[i] = True
        if parents:
            # p⟨q_p.S⟩ = q_p
            parent[i] = x
        edges_left -= edges_frontier
    outs = (level, parent) if parents else (level,)
    if gather:
        return tuple(_host(o) for o in outs)
    vecs = tuple(sr.Vector.from_dense(o, missing=-1, device=rank.device) for o in outs)
    return vecs if parents else vecs[0]


# ------------------------------------------------------------------------------ SSSP

#: How a rank runs its Bellman–Ford rounds: "fused" (:func:`bellman_ford_rank_fused`: each
#: round one launch of :mod:`semiring.blocks` on the rank's block over the whole distance
#: array every rank holds, the changed set exchanged as a bitmap with its count, then the
#: changed distances packed in bitmap order: two all-gathers and one host read a round) or
#: "algebra" (:func:`bellman_ford_rank`: ``vxm`` on the block, compares and a sparse gather
#: of the changed slice). On 2 H200 (bench/results/20261128-dask_two_gpu_h200.md) the
#: algebra rounds took 77.8 ms on one rank for kron-24 (14 rounds) against 36.4 ms for the
#: one-device near–far search on one worker. On 4 H200 (bench/results/20261128-spmd_fused_h200x4.md,
#: 20261128-dask_four_gpu_h200.md) the fused rounds are the slower ones, kron-24 on 2 / 4
#: GPUs 73.9 / 69.5 ms against the algebra's 48.6 / 46.3: each round's pull gives a row of
#: more than 32 in-edges to one warp, and a Kronecker hub's ~7·10⁵ in-edges hold it for the
#: whole round. With those rows split in tiles of a block each (``bb_relax_heavy``) the fused
#: rounds are the faster (bench/results/20261128-dask_scaling_h200x4.md, kron-24, rank loops:
#: 49.8 / 30.3 ms on 1 / 4 H200 against the algebra's 73.1 / 52.1). Hence "fused".
ROUNDS = "fused"
ROUNDS_CHOICES = ("fused", "algebra")


def bellman_ford_loop():
    """The rank function of the policy's choice (:data:`ROUNDS`, read on the client)."""
    return _variant("ROUNDS", ROUNDS_CHOICES, (bellman_ford_rank_fused, bellman_ford_rank))


def _check_int_range(rank, B, n, work):
    from algorithms import DistanceOverflow  # noqa: PLC0415 (the package above: a circle at import)

    if work.kind != "f":
        xp = B.xp
        vals = B.values if not B.is_iso else xp.full(min(B.nvals, 1), B.iso_value)
        lo_hi = (float(vals.min()), float(vals.max())) if B.nvals else (0.0, 0.0)
        big = rank.allreduce(np.float64(max(abs(lo_hi[0]), abs(lo_hi[1]))), "max")
        if n * big >= np.iinfo(np.int64).max:
            raise DistanceOverflow(f"sssp: int64 distances may overflow: n (={n}) times the "
                                   f"largest |weight| exceeds the int64 range; use float64 "
                                   f"weights")


def _finish_distances(rank, d, inf, limit, out_type, work, gather):
    """The rank's distances after the rounds: ``limit`` applied, narrowed to ``out_type``."""
    from algorithms import DistanceOverflow  # noqa: PLC0415 (the package above: a circle at import)

    xp = sr.array_module(rank.device) if not isinstance(d, np.ndarray) else np
    if limit is not None:
        # d_p⟨d_p > limit⟩ = ∞
        d[d > limit] = inf
    if out_type != work:
        reached = d != inf
        info = np.iinfo(out_type)
        bad = bool(xp.any(reached & ((d > info.max) | (d < info.min))))
        if rank.allreduce(bad, "lor"):
            raise DistanceOverflow(f"sssp: a shortest distance lies outside the {out_type} "
                                   f"range; use int64 or float64 weights")
        d = xp.where(reached, d, info.max).astype(out_type)
    return (_host(d),) if gather else sr.Vector.from_dense(d, device=rank.device)


def bellman_ford_rank_fused(rank, source, work, direction, pull_fraction, limit, out_type,
                            gather):
    """Distances of this rank's vertices by frontier Bellman–Ford rounds, each one fused
    step on the rank's block (:func:`semiring.blocks.relax_push` / ``relax_pull``) over the
    distances of every vertex, which every rank keeps: the changed set goes out as a bitmap
    with its count (one all-gather, one host read: the stop and the direction), then the
    changed distances, packed in bitmap order (a second all-gather). The same distances as
    :func:`bellman_ford_rank`: the least path sums, whatever order the relaxations take."""
    B = rank.block("cols")                                  # A(:, lo:hi)
    BT = None
    xp, n, lo, hi = B.xp, rank.n, rank.lo, rank.hi
    work, out_type = np.dtype(work), np.dtype(out_type)
    inf = np.inf if work.kind == "f" else np.iinfo(work).max
    _check_int_range(rank, B, n, work)
    b = rank.bounds
    words = max(sr.blocks.word_range(b[p], b[p + 1])[1] for p in range(rank.size))
    # d = ∞ ;  d(source) = 0                         (whole, on every rank)
    d = xp.full(n, inf, dtype=work)
    d[source] = 0
    # f = {source}: as a vertex list (push) or a bitmap (pull), each made when needed
    flist, lens, fbits = xp.asarray([source], dtype=xp.int64), None, None
    changed, rounds = 1, 0
    while changed and rounds < n:
        rounds += 1
        pull = direction == "pull" or (direction == "auto" and changed > n * pull_fraction)
        out = sr.blocks.send_buffer(lo, hi, B.device, words)
        if pull:
            if fbits is None:
                fbits = xp.zeros((n + 31) // 32, dtype=xp.uint32)
                fbits[source >> 5] = np.uint32(1 << (source & 31))
            if BT is None:
                BT = B.T
            # t_p = f min.+ A(:, lo:hi) ;  f_p = t_p < d_p ;  d_p⟨f_p⟩ = t_p     (pulled)
            sr.blocks.relax_pull(BT, fbits, d, lo=lo, out=out)
        else:
            if flist is None:
                flist, lens = sr.blocks.bits_list(B, fbits, changed)
            # the same, pushed
            sr.blocks.relax_push(B, flist, d, lo=lo, out=out, lens=lens)
        # f = [f_0 … f_P-1] ;  changed = |f|: one all-gather, one host read
        got = _gather_equal(rank, out)
        counts = sr.blocks.heads(got)[:, 0]
        changed = int(counts.sum())
        if changed and rank.size > 1:
            # d⟨f⟩ = [d_0⟨f_0⟩ … ]: the changed distances, packed, all-gathered
            vals = sr.blocks.pack_changed(out, d, lo, hi, int(counts.max()))
            sr.blocks.unpack_changed(got, _gather_equal(rank, vals), b, d)
        fbits, flist, lens = sr.blocks.join_bits(got, b, n), None, None
    if changed:
        raise sr.NegativeCycleError(f"sssp: a negative cycle is reachable from source {source}")
    return _finish_distances(rank, d[lo:hi].copy(), inf, limit, out_type, work, gather)


def bellman_ford_rank(rank, source, work, direction, pull_fraction, limit, out_type, gather):
    """Distances of this rank's vertices by frontier Bellman–Ford rounds; the changed set is
    all-gathered each round. A negative cycle, or distances outside ``out_type``, raise on
    every rank (the same decision from the same numbers)."""
    B = rank.block("cols")
    xp, n = B.xp, rank.n
    work, out_type = np.dtype(work), np.dtype(out_type)
    inf = np.inf if work.kind == "f" else np.iinfo(work).max
    _check_int_range(rank, B, n, work)
    # d_p = ∞ ;  d(source) = 0                      (dense: every entry present)
    d = xp.full(rank.hi - rank.lo, inf, dtype=work)
    if rank.lo <= source < rank.hi:
        d[source - rank.lo] = 0
    # f = {source: 0}: the changed set, whole, on every rank
    f = sr.Vector.from_coo(xp.asarray([source], dtype=xp.int64), xp.zeros(1, dtype=work),
                           size=n, dtype=work, device=rank.device)
    changed, rounds = 1, 0
    G = None
    while changed and rounds < n:
        rounds += 1
        pull = direction == "pull" or (direction == "auto" and changed > n * pull_fraction)
        if G is not None:
            f = G.vector("bitmap" if pull else "sparse")
        # t_p = f min.+ A(:, lo:hi)
        t = sr.vxm(f, B, sr.min_plus, direction="pull" if pull else "push")
        # better = t_p < d_p ;  f_p⟨better, replace⟩ = t_p ;  d_p⟨better⟩ = t_p
        i, x = t.sparse(sorted=False)
        better = x.astype(work, copy=False) < d[i]
        i, x = i[better], x[better].astype(work, copy=False)
        d[i] = x
        fp = sr.Vector.from_coo(i, x, size=rank.hi - rank.lo, dtype=work, sort=False,
                                device=rank.device)
        # f = [f_0 … f_P-1] ;  changed = |f|
        G = rank.gather_slices(fp, int(i.size))
        changed = sum(G.extras)
    if changed:
        raise sr.NegativeCycleError(f"sssp: a negative cycle is reachable from source {source}")
    return _finish_distances(rank, d, inf, limit, out_type, work, gather)


def _weight_facts(rank, B):
    """(least weight, greatest finite weight, least positive weight) of the whole graph (inf
    where none): one all-reduce of the ranks' blocks, made once per mesh."""
    facts = rank.memo.get("weight_facts")
    if facts is None:
        xp = B.xp
        vals = B.values if not B.is_iso else xp.full(min(B.nvals, 1), B.iso_value)
        vals = vals[~xp.isnan(vals)] if vals.dtype.kind == "f" else vals
        if vals.size:
            fin = vals[xp.abs(vals) != np.inf] if vals.dtype.kind == "f" else vals
            pos = vals[vals > 0]
            mine = [float(vals.min()), -float(fin.max()) if fin.size else np.inf,
                    float(pos.min()) if pos.size else np.inf]
        else:
            mine = [np.inf] * 3
        got = rank.allreduce(np.asarray(mine, dtype=np.float64), "min")
        got = _host(got)
        facts = rank.memo["weight_facts"] = (float(got[0]), -float(got[1]), float(got[2]))
    return facts


#: The near–far rounds send each rank's near pile as pairs (local id, distance) in the
#: all-gather of its bits, room for twice the last round's largest pile and at least
#: NEAR_PAIRS_MIN, so that a round needs one all-gather, not the bits' then the packed
#: distances' (:func:`semiring.blocks.pack_changed`: a second all-gather and two scans of
#: every rank's words); a pile past the room takes that path. (Read on the client: the
#: rank loop's ``pairs_min``.)
NEAR_PAIRS_MIN = 1024


def _near_pull(direction, near, near_edges, n, m, pull_fraction, pull_edge_fraction):
    """Pull the near pile's round: by its vertices, then by its out-edges."""
    if direction != "auto":
        return direction == "pull"
    return near > n * pull_fraction or near_edges > m * pull_edge_fraction


def _next_threshold(m, delta, work):
    """τ = m + Δ in the distances' type, above m (the bucket [m, m + Δ) holds m)."""
    if work.kind == "f":
        t = work.type(m) + work.type(delta)
        return t if t > m else np.nextafter(work.type(m), work.type(np.inf))
    info = np.iinfo(work)
    return int(min(int(m) + max(1, int(np.ceil(min(delta, float(info.max))))), info.max))


def near_far_rank(rank, source, work, direction, pull_fraction, pull_edge_fraction, delta,
                  delta_rule, ahead, pairs_min, fallback, limit, out_type, gather):
    """Distances of this rank's vertices by the near–far search (Δ-stepping's buckets as
    Davidson, Baxter, Garland & Owens 2014 run them on one GPU), each round one fused step
    on the rank's block over the near pile only: the vertices whose distance fell below the
    threshold τ since they were last relaxed. A rank keeps its own pending vertices (lowered,
    not yet relaxed, at or past τ: the far pile); after each round it moves those below τ to
    the near pile (:func:`semiring.blocks.near_split`), whose bits, size and the least
    pending distance go out in one all-gather, then the near pile's distances, packed (a
    second all-gather; every rank reads only the frontier's distances of other ranks). When
    every near pile is empty, τ becomes m + Δ, m the least pending distance of all ranks:
    the next bucket, the same decision from the same numbers on every rank; none pending
    (or m past ``limit``) ends the search. With ``ahead`` (and no ``limit``), a rank whose
    near pile is empty takes its own next bucket [m_p, m_p + Δ) in the same step (m_p its
    least pending distance), so that no exchange passes without a round. ``delta``: Δ, or None for ``delta_rule(n, nvals,
    max w, least positive w)`` (:func:`algorithms.dist.sssp.near_far_delta`). Negative
    weights run ``fallback``, a Bellman–Ford rank loop (:func:`bellman_ford_loop`; as the
    one-device ``sssp``), or raise ``InvalidValue`` where it is None (as the one-device
    ``delta_stepping``). A round pulls
    when the near pile holds more than ``pull_fraction`` of the vertices or its out-edges
    more than ``pull_edge_fraction`` of the edges (the one-device rule). The same distances
    as the rounds: each vertex's least path sum, whatever the order."""
    B = rank.block("cols")                                  # A(:, lo:hi)
    BT = None
    xp, n, lo, hi = B.xp, rank.n, rank.lo, rank.hi
    work, out_type = np.dtype(work), np.dtype(out_type)
    wmin, wmax, wpos = _weight_facts(rank, B)
    if wmin < 0:
        if fallback is None:
            raise sr.InvalidValue(f"delta_stepping: A has negative weights (min {wmin}); "
                                  f"delta-stepping needs w >= 0: use bellman_ford")
        return fallback(rank, source, work, direction, pull_fraction, limit, out_type, gather)
    inf = np.inf if work.kind == "f" else np.iinfo(work).max
    _check_int_range(rank, B, n, work)
    deg = _out_degree(rank, B)                              # d(i) = |A(i, :)|
    deg_p, m = deg[lo:hi], _edges_total(rank, deg)
    if delta is None:
        delta = delta_rule(n, m, wmax, wpos)
    b = rank.bounds
    words = max(sr.blocks.word_range(b[p], b[p + 1])[1] for p in range(rank.size))
    # d = ∞ ;  d(source) = 0                         (whole, on every rank)
    d = xp.full(n, inf, dtype=work)
    d[source] = 0
    # p_p = ∅: the rank's pending vertices ;  c_p: the round's lowered ones (a send buffer)
    pending = xp.zeros(sr.blocks.word_range(lo, hi)[1], dtype=xp.uint32)
    lowered = sr.blocks.send_buffer(lo, hi, B.device, words)
    # τ = Δ ;  near = {source}: as a vertex list (push) or a bitmap (pull)
    tau = _next_threshold(0, delta, work)
    near, near_edges = 1, int(deg[source])
    pull = _near_pull(direction, near, near_edges, n, m, pull_fraction, pull_edge_fraction)
    if pull:
        fbits = xp.zeros((n + 31) // 32, dtype=xp.uint32)
        fbits[source >> 5] = np.uint32(1 << (source & 31))
    else:
        flist = xp.asarray([source], dtype=xp.int64)
        lens = None
    room = pairs_min
    while True:
        if near:
            if pull:
                if BT is None:
                    BT = B.T
                # t_p = near min.+ A(:, lo:hi) ;  c_p = t_p < d_p ;  d_p⟨c_p⟩ = t_p    (pulled)
                sr.blocks.relax_pull(BT, fbits, d, lo=lo, out=lowered)
            else:
                # the same, pushed
                sr.blocks.relax_push(B, flist, d, lo=lo, out=lowered, lens=lens)
        # p_p = p_p ∪ c_p ;  near_p = {v ∈ p_p : d(v) < τ} ;  p_p = p_p \ near_p
        out = sr.blocks.split_buffer(lo, hi, B.device, words, pairs=room, dtype=work)
        sr.blocks.near_split(lowered, pending, d, tau, deg=deg_p, lo=lo, out=out, pairs=room,
                             ahead=delta if ahead and limit is None else None)
        # near = [near_0 … near_P-1] (bits, and as pairs with their distances), its size and
        # out-edges, f = min_p min d(p_p): one all-gather, one host read
        got = _gather_equal(rank, out)
        sizes, edges, far, below = sr.blocks.split_heads(got, work, pairs=room)
        near, near_edges, f = int(sizes.sum()), int(edges.sum()), far.min()
        if not below.sum() and f != inf:
            # no vertex below τ on any rank: the next bucket, τ = f + Δ
            tau = _next_threshold(f, delta, work)
        if not near:
            if f == inf or (limit is not None and f > limit):
                break
            continue
        fit = int(sizes.max()) <= room
        if rank.size > 1:
            # d⟨near⟩ = [d_0⟨near_0⟩ … ]: the frontier's distances, from the pairs where every
            # pile fit, else packed in bitmap order and all-gathered
            if fit:
                sr.blocks.unpack_pairs(got, b, d, room)
            else:
                vals = sr.blocks.pack_changed(out, d, lo, hi, int(sizes.max()))
                sr.blocks.unpack_changed(got, _gather_equal(rank, vals), b, d)
        pull = _near_pull(direction, near, near_edges, n, m, pull_fraction, pull_edge_fraction)
        if pull:
            fbits = sr.blocks.join_bits(got, b, n)
        elif fit:
            flist, lens = sr.blocks.pairs_list(B, got, b, room, near, work)
        else:
            flist, lens = sr.blocks.bits_list(B, sr.blocks.join_bits(got, b, n), near)
        # the next round's room for pairs: twice this round's largest pile (the same on
        # every rank), at most the bitmap's size
        room = min(max(pairs_min, 2 * int(sizes.max())), 32 * words)
    return _finish_distances(rank, d[lo:hi].copy(), inf, limit, out_type, work, gather)


# ------------------------------------------------------------------------------ PageRank

def pagerank_rank(rank, alpha, h, tol, max_iter, gather):
    """This rank's ranks by the power iteration: each round the rank's shares ``w_p = r_p ./
    d_p`` are all-gathered (with the partial error and dangling rank), and ``t_p = w
    plus.first A(:, lo:hi)``; the rank's slices are dense (every vertex has a rank)."""
    B = rank.block("cols")
    xp, n, lo, hi, dev = B.xp, rank.n, rank.lo, rank.hi, B.device
    d = xp.asarray(_out_degree(rank, B)[lo:hi].astype(np.float64))
    # p_p: the teleport distribution's slice
    p = xp.full(hi - lo, 1.0 / n) if h is None else xp.asarray(h[lo:hi])
    # dangling = (d == 0) ;  s = 1 ./ d   (∞ where dangling: those have no out-edge to carry it)
    dangling = d == 0
    s = sr.apply(sr.Vector.from_dense(d, device=dev), "minv").to_dense()
    r = xp.full(hi - lo, 1.0 / n)
    # w = [r_p .* s_p …] and lost = Σ r(dangling): one all-gather
    G = rank.gather_slices(sr.Vector.from_dense(r * s, device=dev), (0.0, r[dangling].sum()))
    for _ in range(max_iter):
        lost = sum(e[1] for e in G.extras)
        # t_p = w plus.first A(:, lo:hi)          (each vertex sums its in-neighbours' shares)
        t = sr.vxm(G.vector("bitmap"), B, sr.plus_first, direction="pull").to_dense()
        # r'_p = (α lost + 1 − α) p_p + α t_p
        r_new = p * (alpha * float(lost) + 1.0 - alpha) + t * alpha
        # w' = [r'_p .* s_p …] ;  err = Σ |r' − r| ;  lost = Σ r'(dangling)
        # (the two sums stay on the rank's device until the exchange reads them with the
        # counts: no host read of their own)
        G = rank.gather_slices(sr.Vector.from_dense(r_new * s, device=dev),
                               (xp.abs(r_new - r).sum(), r_new[dangling].sum()))
        r = r_new
        if sum(e[0] for e in G.extras) < n * tol:
            return (_host(r),) if gather else sr.Vector.from_dense(r, device=dev)
    from ._common import NoConvergence  # noqa: PLC0415 (on the rank)

    raise NoConvergence(f"pagerank: no convergence in max_iter (={max_iter}) iterations "
                        f"(tol = {tol})", iterations=max_iter)


# ------------------------------------------------------------------------------ components

#: How a rank finds components: "forests" (:func:`components_rank_forests`: Afforest's roots
#: on the rank's own edges, one all-gather of the ranks' roots, Afforest again on K, the links
#: between the roots that differ between ranks (:func:`_join_forests`): two fused launch
#: sequences and one exchange in all) or "labels" (:func:`components_rank`:
#: min-label propagation rounds, a product over the block and an all-gather of n labels a
#: round). On 2 H200 (bench/results/20261128-dask_two_gpu_h200.md) the label rounds took
#: 63 ms on one rank for kron-24 against 9.9 ms for the one-device Afforest: 5 rounds, each
#: a min.first pull over every edge.
#: "mirrored": the forests' first pass on the rank's edges stored both ways
#: (:func:`semiring.blocks.mirrored_edges`, made once per mesh), a symmetric pattern on which
#: Afforest skips the rows of the largest component instead of linking every edge: on 4 H200
#: (bench/results/20261128-dask_scaling_h200x4.md, kron-24, rank loops) 5.2 / 11.7 ms on 1 /
#: 4 GPUs against the forests' 10.0 / 12.9 (and the one-device CC on one worker's 12.3, which
#: links every edge too: it is not told the graph is symmetric). Hence "mirrored". On 2 H200
#: (bench/results/session21, call 5) with the join on K: kron-24 9.3 ms on 2 GPUs (loop 8.9)
#: against the one-device CC on one worker's 10.8, kron-25 on 2 13.8 (loop 13.1); the join on
#: all P·n links (call 1): 9.5 and 17.0.
COMPONENTS = "mirrored"
COMPONENTS_CHOICES = ("forests", "mirrored", "labels")


def components_loop():
    """The rank function of the policy's choice (:data:`COMPONENTS`, read on the client)."""
    return _variant("COMPONENTS", COMPONENTS_CHOICES,
                    (components_rank_forests,
                     functools.partial(components_rank_forests, mirrored=True), components_rank))


def components_rank_forests(rank, symmetric, gather, mirrored=False):
    """This rank's component roots (each vertex's least vertex): the components of the
    graph's edges into ``lo:hi`` (every edge lies in exactly one rank's column block), then
    those of the union of every rank's: v and r_p(v) are joined for every rank p, which is
    the whole graph's connectivity (two vertices are connected iff a chain of the ranks'
    components joins them; :func:`_join_forests` joins only the roots that differ). The
    roots are the least vertices: the same bits whatever the cut. ``symmetric`` is not
    needed (a rank's edges are not a symmetric pattern anyway); ``mirrored``: the first pass
    on the rank's edges stored both ways, a symmetric pattern (Afforest then skips the
    largest component's rows)."""
    B = rank.block("cols")                                  # A(:, lo:hi)
    xp, n, lo, hi = B.xp, rank.n, rank.lo, rank.hi
    key = "cc_mirrored" if mirrored else "cc_edges"
    G = rank.memo.get(key)
    if G is None:
        if mirrored:
            # E_p ∪ E_pᵀ: the rank's edges, both ways (row j of lo:hi also lists its sources)
            G = sr.blocks.mirrored_edges(B, lo)
        else:
            # E_p = {i — j : A(i, j), lo <= j < hi}: the block with global column ids, n × n
            G = sr.Matrix.from_csr(B.indptr, B.indices + B.indices.dtype.type(lo), None,
                                   (n, n), check=False)
        rank.memo[key] = G
    # r_p(v) = the least vertex of v's component in (V, E_p)      (Afforest's roots)
    r = sr.connectivity.weak_components(G, symmetric=mirrored, roots=True)
    if rank.size > 1:
        # R = [r_0 … r_P-1]: one all-gather (int32 ids while they fit)
        it = np.int32 if rank.size * n < 2**31 else np.int64
        R = _gather_equal(rank, r.astype(it, copy=False))
        r = _join_forests(R)
    roots = r[lo:hi].astype(np.int64)
    return (_host(roots),) if gather else sr.Vector.from_dense(roots, device=rank.device)


def _join_forests(R):
    """The whole graph's roots from the ranks' (R: P × n, ``R[p][v]`` the least vertex of v's
    component in rank p's edges): v is joined to r_p(v) for every p, and the union's components
    are those of the graph. Only the vertices whose roots differ between ranks join anything:
    K = {r_0(v) — r_p(v) : r_p(v) ≠ r_0(v)} is a graph on roots (every x — r_p(x) of the union
    joins r_0(x) to r_0(r_p(x)) through K, since r_p(r_p(x)) = r_p(x)), and the least vertex of
    v's component is the least vertex of r_0(v)'s component in K (that vertex is a root in
    every rank). K is small where the ranks' forests agree: kron-18 cut in 2 (4) column
    blocks, 25 380 (264 888) of its 262 144 vertices' roots differ, against the P·n links of
    the union that Afforest ran on before."""
    xp = sr.array_module("gpu" if sr.is_gpu_array(R) else "cpu")
    n = R.shape[1]
    r0 = R[0]
    # K = {r_0(v) — r_p(v) : p > 0, r_p(v) ≠ r_0(v)}: a CSR of n rows (by a sort of its
    # links; rows unsorted, repeats kept: a pattern for the components only)
    p, v = xp.nonzero(R[1:] != r0)
    if not p.size:
        return r0
    a, b = r0[v], R[1:][p, v]
    order = xp.argsort(a)
    # the rows' starts by a search of the sorted links (a count of each row's links, CuPy's
    # bincount, is an atomic a link: kron-24's K, most of its links on one root's row, took
    # 9.8 ms so on 2 H200, call 4)
    indptr = xp.searchsorted(a[order], xp.arange(n + 1, dtype=a.dtype))
    K = sr.Matrix.from_csr(indptr, b[order], None, (n, n), check=False)
    # k(x) = the least vertex of x's component in K ;  r(v) = k(r_0(v))
    k = sr.connectivity.weak_components(K, roots=True)
    return k.astype(r0.dtype, copy=False)[r0]


def components_rank(rank, symmetric, gather):
    """This rank's component roots (each vertex's least vertex) by min-label propagation
    with pointer jumping; the labels are all-gathered each round."""
    Bc = rank.block("cols")
    Br = None if symmetric else rank.block("rows")
    xp, n, lo, hi = Bc.xp, rank.n, rank.lo, rank.hi
    # f(i) = i: whole, on every rank
    f = xp.arange(n, dtype=xp.int64)
    changed = n > 0
    while changed:
        fv = sr.Vector.from_dense(f, device=rank.device)
        # g_p = f min.first A(:, lo:hi)            (least label among the in-neighbours)
        g = sr.vxm(fv, Bc, sr.min_first, direction="pull").to_dense(missing=n)
        if not symmetric:
            # g_p min= A(lo:hi, :) min.second f     (… and among the out-neighbours)
            g = xp.minimum(g, sr.mxv(Br, fv, sr.min_second, direction="pull").to_dense(missing=n))
        # f'_p = min(f_p, g_p)
        fp = xp.minimum(f[lo:hi], g.astype(xp.int64, copy=False))
        # f' = [f'_0 … f'_P-1] ;  f' = f'(f')      (pointer jumping)
        fn = rank.allgather_dense(fp)
        fn = fn[fn]
        # changed = ∨ (f' ≠ f)                     (the same on every rank: f is whole)
        changed = bool(xp.any(fn != f))
        f = fn
    roots = f[lo:hi]
    return (_host(roots),) if gather else sr.Vector.from_dense(roots, device=rank.device)


# ------------------------------------------------------------------------------ the client

def run(A, fn, args, *, kinds, gather, missing, dtypes):
    """``fn(rank, *args, gather)`` on every rank of A: with ``gather``, the whole arrays
    (the ranks' slices joined on the client, on the workers' device); else DistVectors."""
    if not gather:
        out = A.call_spmd(fn, (*args, False), kinds=kinds, keep=True, dtypes=dtypes)
        return tuple(out) if len(out) > 1 else out[0]
    got = A.call_spmd(fn, (*args, True), kinds=kinds, keep=False)
    outs = [np.concatenate([g[i] for g in got]) for i in range(len(missing))]
    if A.device == "gpu":
        xp = sr.array_module("gpu")
        outs = [xp.asarray(o) for o in outs]
    return tuple(outs) if len(outs) > 1 else outs[0]
