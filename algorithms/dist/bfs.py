"""Breadth-first search on a DistMatrix: one masked product a level (LAGraph's BFS), the
direction chosen each level from the global frontier size and its out-edges.

Direction optimization as in Beamer, Asanović & Patterson (2012), "Direction-optimizing
breadth-first search", §4, with their α = 14, β = 24 (the one-device ``algorithms.bfs`` uses
the same rule): push (each column block scatters the frontier's rows: SpMSpV) while the
frontier's out-edges are at most the unexplored edges / α, pull (each column block's unvisited
vertices scan their in-neighbours for one in the frontier, stopping at the first) until the
frontier holds fewer than n / β vertices. The frontier's size and out-edges are one global
reduction a level, gathered in one round trip.

On two GPU workers of one host with peer access (levels only), the whole search is one
launch a GPU instead, the two exchanging frontier bits and claims over peer memory each level
with no host in the loop (``algorithms.dist._spmd.BFS_LEVELS``: ``"auto"`` picks ``"peer"``
where it applies; the graph is then replicated on both GPUs, gathered once).
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring.errors import check_flags
from semiring import dist
from algorithms.bfs import ALPHA, BETA, pull_next

from . import _local, _spmd
from ._common import check_choice, check_matrix, check_source

DIRECTIONS = ("auto", "push", "pull")


def bfs(A, source=None, *, sources=None, parents=False, direction="auto", deterministic=False,
        symmetric=False, gather=True):
    """Breadth-first search from ``source`` over the edges ``A(i, j)``: i → j, on a
    :class:`semiring.dist.DistMatrix` (the same results as :func:`algorithms.bfs`).

    Parameters
    ----------
    A : semiring.dist.DistMatrix, square
        Only its structure is read.
    source : int
    sources : None
        Several searches at once are not distributed: giving ``sources`` raises.
    parents : bool
        Also return the BFS tree (``parent[source] = source``, ``-1`` where unreached).
    direction : {'auto', 'push', 'pull'}
    deterministic : bool
        With ``parents``: each parent is the smallest-index in-neighbour on the previous
        level (``min_secondi``: equal to ``algorithms.bfs(..., deterministic=True)``);
        otherwise any such in-neighbour (``any_secondi``).
    symmetric : bool
        Accepted for the one-device signature (each column block's transpose is local); the
        two-GPU search then replicates one CSR instead of A's and Aᵀ's (a false promise gives
        wrong levels there, as in the one-device ``algorithms.bfs``).
    gather : bool
        Return arrays (NumPy for CPU workers, CuPy for GPU workers) gathered on the client;
        ``False`` returns the DistVectors (levels and parents present where reached).

    Returns
    -------
    level : array of int64 (``-1`` where unreached), and ``parent`` with ``parents=True``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms, algorithms.dist, semiring.dist as dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> S = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]]))
    >>> DA = dist.DistMatrix.from_scipy(S, client)
    >>> level, parent = algorithms.dist.bfs(DA, 0, parents=True)
    >>> level.tolist(), parent.tolist()
    ([0, 1, 2, -1], [0, 0, 1, -1])
    >>> algorithms.bfs(DA, 3).tolist()          # the one-device entry point dispatches here
    [1, 2, 3, 0]
    >>> client.close(); client.cluster.close()
    """
    op = "bfs"
    parents, deterministic, symmetric, gather = check_flags(
        op, parents=parents, deterministic=deterministic, symmetric=symmetric, gather=gather)
    A = check_matrix(A, op)
    if sources is not None:
        raise sr.InvalidValue(f"{op}: sources=[...] (multi-source BFS) is not distributed; run "
                              f"one search per source")
    if source is None:
        raise sr.InvalidValue(f"{op}: source (one start vertex) is required")
    n = A.nrows
    source = check_source(source, n, op)
    check_choice(direction, DIRECTIONS, op, "direction")
    if _local.applies(A, "bfs"):
        return _local.whole(A, "bfs", (source,), dict(parents=parents, direction=direction,
                                                      deterministic=deterministic),
                            (-1, -1) if parents else (-1,), (np.int64, np.int64), gather=gather)
    if _spmd.applies(A):
        # each partition's rank runs the levels, all-gathering the frontier with its peers
        return _spmd.run(A, _spmd.bfs_level_loop(A, parents=parents, symmetric=symmetric),
                         (source, parents, direction, deterministic,
                                                      ALPHA, BETA), kinds=("cols",), gather=gather,
                         missing=(-1, -1) if parents else (-1,),
                         dtypes=(np.int64, np.int64))
    S = (sr.min_secondi if deterministic else sr.any_secondi) if parents else sr.any_pair

    # q(source) = source ;  v(source) = 0 ;  p(source) = source
    q = dist.DistVector.from_coo(A, [source], source if parents else True,
                                 dtype=np.int64 if parents else np.bool_)
    v = dist.DistVector.from_coo(A, [source], 0, dtype=np.int64)
    p = dist.DistVector.from_coo(A, [source], source, dtype=np.int64) if parents else None
    deg = A.degree("rows")                                  # out-degree d(i) = |A(i, :)|
    frontier_size = 1
    # edges out of the frontier and out of the unvisited vertices (Beamer's m_f and m_u)
    (edges_frontier,) = dist.compute(_frontier_edges(deg, q))
    edges_left = A.nvals - edges_frontier
    pushing = direction != "pull"
    depth = 0
    while True:
        if direction == "auto":
            pushing = not pull_next(pushing, frontier_size, edges_frontier, edges_left, n)
        depth += 1
        # q⟨¬v.S, replace⟩ = q any.secondi A        (push: SpMSpV; pull: masked SpMV over Aᵀ)
        q = dist.vxm(q, A, S, mask=~v.S, direction="push" if pushing else "pull")
        # |q| and the edges out of q: one global reduction
        frontier_size, edges_frontier = dist.compute(q.nvals_lazy(), _frontier_edges(deg, q))
        if frontier_size == 0:
            break
        # v⟨q.S⟩ = depth
        dist.assign(v, depth, mask=q.S)
        if parents:
            # p⟨q.S⟩ = q
            dist.assign(p, q, mask=q.S)
        edges_left -= edges_frontier
    if not gather:
        return (v, p) if parents else v
    level = v.to_dense(missing=-1)
    return (level, p.to_dense(missing=-1)) if parents else level


def _frontier_edges(deg, q):
    # Σ d(q) = d plus.first q
    return dist.dot(deg, q, sr.plus_first, lazy=True)
