"""PageRank on a DistMatrix: the power iteration, one distributed product a round.

``r ← α (r .* (1 ./ d)) plus.first A + (α Σ r(dangling) + 1 − α) p``, where d is the out-degree,
the dangling vertices (no out-edge) spread their rank by ``p`` (uniform 1/n, or the
personalization vector), and the iteration stops when the L1 change is below ``n · tol``:
NetworkX's ``pagerank`` (Page, Brin, Motwani & Winograd 1999) on the structure of A
(``weight=None``).
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring.errors import check_flags
from semiring import dist

from . import _local, _spmd
from algorithms.pagerank import _distribution, _real

from ._common import NoConvergence, check_matrix


def pagerank(A, damping=0.85, *, personalization=None, tol=1e-6, max_iter=100, gather=True):
    """PageRank of the vertices of a :class:`semiring.dist.DistMatrix` (edges i → j where
    ``A(i, j)`` is present; weights are not read).

    Parameters
    ----------
    A : semiring.dist.DistMatrix, square
    damping : float in [0, 1)
    personalization : 1-D array of n non-negative numbers, or dict {vertex: weight}, optional
        The teleport (and dangling) distribution, normalized to sum 1; default uniform.
        Read as :func:`algorithms.pagerank` reads it (missing vertices of a dict weigh 0).
    tol : float > 0, finite
        Stop when ``Σ |r_new − r| < n · tol`` (NetworkX's test).
    max_iter : int > 0
        Raise :class:`algorithms.ConvergenceError` if not converged by then (as NetworkX
        does; the error is a :class:`semiring.InvalidValue` too).
    gather : bool
        Return a float64 array on the client (else the DistVector).

    Returns
    -------
    rank : array of float64, summing to 1.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms.dist, semiring.dist as dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> DA = dist.DistMatrix.from_scipy(sp.csr_matrix(np.array([[0, 1, 1], [1, 0, 0], [0, 0, 0]])))
    >>> np.round(algorithms.dist.pagerank(DA), 4).tolist()
    [0.3936, 0.3032, 0.3032]
    >>> client.close(); client.cluster.close()
    """
    op = "pagerank"
    gather, = check_flags(op, gather=gather)
    A = check_matrix(A, op)
    # the one-device checks: a bool tol or an infinite one (which stopped after one round)
    # is refused there
    damping = _real(op, "damping", damping)
    if not 0 <= damping < 1:
        raise sr.InvalidValue(f"{op}: damping must be in [0, 1), got {damping!r}")
    tol = _real(op, "tol", tol)
    if not (tol > 0 and np.isfinite(tol)):
        raise sr.InvalidValue(f"{op}: tol must be a positive finite number, got {tol!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise sr.InvalidValue(f"{op}: max_iter must be a positive int, got {max_iter!r}")
    n = A.nrows
    alpha = float(damping)
    if n == 0:
        z = dist.DistVector.new(A, np.float64)
        return z.to_dense() if gather else z
    h = raw = None
    if personalization is not None:
        if sr.is_gpu_array(personalization):
            personalization = personalization.get()
        # the one-device reading (an array of n weights or a dict {vertex: weight}, checked
        # and normalized as there: the same teleport vector, bit for bit)
        h = _distribution(op, "personalization", personalization, n, np)
        raw = personalization
    if _local.applies(A, op):
        # one partition: the one-device power iteration (the same formula) as one task, on
        # the caller's weights, which it normalizes as a one-device call does (its own
        # rounding: normalized twice, the bits differ)
        return _local.whole(A, op, (alpha,), dict(personalization=raw, tol=float(tol),
                                                  max_iter=int(max_iter), weighted=False),
                            (None,), (np.float64,), gather=gather)
    if _spmd.applies(A):
        # each partition's rank runs the iteration, all-gathering r ./ d with its peers
        return _spmd.run(A, _spmd.pagerank_rank, (alpha, h, float(tol), int(max_iter)),
                         kinds=("cols",), gather=gather, missing=(None,), dtypes=(np.float64,))
    p = dist.DistVector.full(A, 1.0 / n, dtype=np.float64) if h is None else \
        dist.DistVector.from_dense(A, h)
    # d = out-degree (float64) ;  dangling = (d == 0)
    d = dist.apply(A.degree("rows"), "identity", out=dist.DistVector.full(A, 0.0))
    dangling = dist.apply(d, "eq", right=0.0)
    # s = 1 ./ d   (∞ where dangling: those have no out-edge to carry it)
    s = dist.apply(d, "minv")
    r = dist.DistVector.full(A, 1.0 / n, dtype=np.float64)
    (lost,) = dist.compute(_dangling_rank(r, dangling))
    for _ in range(max_iter):
        # w = r .* s
        w = dist.ewise_mult(r, s, "times")
        # t = w plus.first A                    (each vertex sums its in-neighbours' shares)
        t = dist.vxm(w, A, sr.plus_first, direction="pull")
        # r' = (α lost + 1 − α) p ;  r' += α t
        r_new = dist.apply(p, "times", right=alpha * float(lost) + 1.0 - alpha)
        dist.assign(r_new, dist.apply(t, "times", right=alpha), accum="plus")
        # err = Σ |r' − r| ;  lost = Σ r'(dangling)   (one round trip)
        err, lost = dist.compute(
            dist.reduce_scalar(dist.apply(dist.ewise_add(r_new, r, "minus"), "abs"), lazy=True),
            _dangling_rank(r_new, dangling))
        r = r_new
        if float(err) < n * tol:
            return r.to_dense() if gather else r
    raise NoConvergence(f"{op}: no convergence in max_iter (={max_iter}) iterations "
                        f"(tol = {tol})", iterations=max_iter, error=float(err))


def _dangling_rank(r, dangling):
    # Σ r⟨dangling⟩
    return dist.reduce_scalar(dist.apply(r, "identity", mask=dangling), lazy=True)
