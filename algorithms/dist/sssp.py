"""Single-source shortest paths on a DistMatrix: frontier Bellman–Ford rounds (Harish &
Narayanan 2007): each round relaxes the out-edges of the vertices whose distance changed in
the round before, pushed while that set is narrow, pulled when it is wide.

Distances are the same as the one-device :func:`algorithms.sssp` (Δ-stepping or
Bellman–Ford): each is the least, over the paths to the vertex, of the path's weights summed
from the source, whichever order the relaxations come in (rounding is monotone), so floats
agree bit for bit too.
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring import dist

from algorithms import DistanceOverflow

from . import _local, _spmd
from ._common import check_choice, check_matrix, check_source

#: Push the changed set (SpMSpV) while it holds fewer than this fraction of the vertices, else
#: pull: the one-device rule (``algorithms.sssp.PULL_FRACTION``; Beamer et al. 2012's β).
PULL_FRACTION = 1 / 16
METHODS = ("auto", "bellman_ford", "delta_stepping")
DIRECTIONS = ("auto", "push", "pull")


def _types(A, op):
    """(output type, work type) of the distances, as the one-device functions choose them."""
    dt = np.dtype(A.dtype)
    out = np.dtype(np.float64) if dt == np.bool_ else dt
    if out.kind == "f":
        return out, out
    if out.kind not in "iu":
        raise sr.DomainMismatch(f"{op}: A must hold numbers, got dtype {dt}")
    return out, np.dtype(np.int64)


def sssp(A, source, method="auto", *, predecessors=False, delta=None, direction="auto",
         limit=None, symmetric=False, gather=True):
    """Shortest distances from ``source`` on a :class:`semiring.dist.DistMatrix`, with the
    one-device :func:`algorithms.sssp`'s signature; every method runs as Bellman–Ford rounds
    (the distances do not depend on the method).

    Parameters
    ----------
    A : semiring.dist.DistMatrix, square
        Edge i → j of weight ``A(i, j)``; negative weights allowed.
    source : int
    method : {'auto', 'bellman_ford', 'delta_stepping'}
    predecessors : bool
        Not distributed yet: ``True`` raises.
    delta : None
        Accepted for the signature (Δ-stepping is not distributed).
    direction : {'auto', 'push', 'pull'}
    limit : float, optional
        Distances above ``limit`` are reported as unreachable (as Δ-stepping's ``limit``).
    symmetric : bool
        Accepted for the signature.
    gather : bool
        Return an array gathered on the client (else the DistVector of distances).

    Returns
    -------
    dist : array of A's type (float64 for bool); ``inf`` or the type's maximum where
    unreachable. A negative cycle reachable from the source raises
    :class:`semiring.NegativeCycleError` (its ``vertices`` are None here).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms, algorithms.dist, semiring.dist as dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> DA = dist.DistMatrix.from_scipy(sp.csr_matrix(np.array([[0, 2.0, 0], [0, 0, -1.0], [0, 0, 0]])))
    >>> algorithms.dist.sssp(DA, 0).tolist()
    [0.0, 2.0, 1.0]
    >>> algorithms.sssp(DA, 0).tolist()         # the one-device entry point dispatches here
    [0.0, 2.0, 1.0]
    >>> client.close(); client.cluster.close()
    """
    op = "sssp"
    check_choice(method, METHODS, op, "method")
    if method == "bellman_ford" and (delta is not None or limit is not None):
        raise sr.InvalidValue(f"{op}: delta and limit apply to method='delta_stepping' only")
    return bellman_ford(A, source, predecessors=predecessors, direction=direction,
                        symmetric=symmetric, gather=gather, limit=limit, _op=op)


def bellman_ford(A, source, *, predecessors=False, direction="auto", symmetric=False,
                 gather=True, limit=None, _op="bellman_ford"):
    """Shortest distances by frontier Bellman–Ford rounds on a DistMatrix (as
    :func:`algorithms.bellman_ford`); see :func:`sssp` for the parameters.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms.dist, semiring.dist as dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> W = np.array([[0, 4, 1, 0], [0, 0, 0, 0], [0, -2, 0, 0], [0, 0, 0, 0]], dtype=np.int32)
    >>> algorithms.dist.bellman_ford(dist.DistMatrix.from_scipy(sp.csr_matrix(W)), 0).tolist()
    [0, -1, 1, 2147483647]
    >>> client.close(); client.cluster.close()
    """
    op = _op
    A = check_matrix(A, op)
    n = A.nrows
    source = check_source(source, n, op)
    check_choice(direction, DIRECTIONS, op, "direction")
    if predecessors:
        raise sr.InvalidValue(f"{op}: predecessors=True is not distributed yet; run "
                              f"algorithms.{op} on one device for the tree")
    out_type, work = _types(A, op)
    if _local.applies(A, op):
        kw = dict(direction=direction)
        if limit is not None:
            kw.update(limit=limit, method="delta_stepping")
        inf_out = np.inf if out_type.kind == "f" else np.iinfo(out_type).max
        return _local.whole(A, "sssp" if limit is not None else op, (source,), kw, (inf_out,),
                            (out_type,), gather=gather)
    if _spmd.applies(A):
        # each partition's rank runs the rounds, all-gathering the changed set with its peers
        return _spmd.run(A, _spmd.bellman_ford_loop(), (source, work, direction, PULL_FRACTION,
                                                      limit, out_type), kinds=("cols",),
                         gather=gather, missing=(None,), dtypes=(out_type,))
    inf_w = np.inf if work.kind == "f" else np.iinfo(work).max
    if work.kind != "f" and A.nvals:
        lo, hi = (float(dist.reduce_scalar(dist.reduce_rows(A, m), m)) for m in ("min", "max"))
        if n * max(abs(lo), abs(hi)) >= np.iinfo(np.int64).max:
            raise DistanceOverflow(f"{op}: int64 distances may overflow: n (={n}) times the "
                                f"largest |weight| exceeds the int64 range; use float64 weights")

    # d = ∞ ;  d(source) = 0 ;  f = {source: 0}  (the changed set)
    d = dist.DistVector.full(A, inf_w, dtype=work)
    f = dist.DistVector.from_coo(A, [source], 0, dtype=work)
    dist.assign(d, f, mask=f.S)
    changed = 1
    rounds = 0
    while changed and rounds < n:
        rounds += 1
        pull = direction == "pull" or (direction == "auto" and changed > n * PULL_FRACTION)
        # t = f min.+ A
        t = dist.vxm(f, A, sr.min_plus, direction="pull" if pull else "push")
        # better = t < d    (d holds every vertex, so t ⊗ d is defined wherever t is)
        better = dist.ewise_mult(t, d, "lt")
        # f⟨better, replace⟩ = t
        f = dist.apply(t, "identity", mask=better, dtype=t.dtype)
        # d⟨better⟩ = t
        dist.assign(d, t, mask=better)
        changed = f.nvals
    if changed:  # still changing in round n: a negative cycle
        raise sr.NegativeCycleError(f"{op}: a negative cycle is reachable from source {source}")
    if limit is not None:
        # d⟨d > limit⟩ = ∞
        dist.assign(d, inf_w, mask=dist.apply(d, "gt", right=limit))
    if out_type != work:
        d = _narrow(d, out_type, work, op)
    return d.to_dense() if gather else d


def _narrow(d, out_type, work, op):
    """Distances back in the matrix's integer type (unreachable = its maximum)."""
    info = np.iinfo(out_type)
    inf_w = np.iinfo(work).max
    reached = dist.apply(d, "ne", right=inf_w)
    too_far = dist.apply(d, "ge", right=int(info.max))
    too_low = dist.apply(d, "lt", right=int(info.min))
    bad = dist.ewise_mult(reached, dist.ewise_add(too_far, too_low, "lor"), "land")
    if bool(dist.reduce_scalar(bad, "lor")):
        raise DistanceOverflow(f"{op}: a shortest distance lies outside the {out_type} range; "
                            f"use int64 or float64 weights")
    # d⟨¬reached⟩ = max ;  cast
    dist.assign(d, int(info.max), mask=~reached.V)
    return dist.apply(d, "identity", out=dist.DistVector.full(d, 0, dtype=out_type))
