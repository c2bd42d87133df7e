"""Single-source shortest paths on a DistMatrix: the near–far search (Δ-stepping's buckets,
Meyer & Sanders 2003, as Davidson, Baxter, Garland & Owens 2014 run them on a GPU), whose
rounds relax only the changed vertices below the current threshold, or frontier Bellman–Ford
rounds (Harish & Narayanan 2007), which relax every changed vertex each round; either is
pushed while its frontier is narrow, pulled when it is wide.

Distances are the same as the one-device :func:`algorithms.sssp` (Δ-stepping or
Bellman–Ford): each is the least, over the paths to the vertex, of the path's weights summed
from the source, whichever order the relaxations come in (rounding is monotone), so floats
agree bit for bit too.
"""

from __future__ import annotations

import contextlib

import numpy as np

import semiring as sr
from semiring.errors import check_flags
from semiring import dist

from algorithms import DistanceOverflow
from algorithms.sssp import DENSE_DELTA_SCALE, DEVICE_DELTA_SCALE, ROAD_MEAN_DEGREE

from . import _local, _spmd
from ._common import check_choice, check_matrix, check_source

#: Push the changed set (SpMSpV) while it holds fewer than this fraction of the vertices, else
#: pull: the one-device rule (``algorithms.sssp.PULL_FRACTION``; Beamer et al. 2012's β).
PULL_FRACTION = 1 / 16
METHODS = ("auto", "bellman_ford", "delta_stepping")
#: What ``method="auto"`` runs on several partitions (the SPMD rank loops), by the ranks'
#: device: "delta_stepping" (the near–far search, :func:`algorithms.dist._spmd.near_far_rank`;
#: negative weights fall back to the Bellman–Ford rounds there) or "bellman_ford" (the rounds
#: of ``_spmd.ROUNDS``). Measured (bench/probes/near_far_rounds.py, interleaved;
#: bench/results/20261129-near_far_cpu.json, 20261129-near_far_h200.json): CPU ranks (2-core
#: host, processes, kron-14) the rounds 259 / 143 ms on 1 / 2 ranks, near–far at 4 Δ pushed
#: 143 / 89; one H200 rank (kron-22) the rounds 11.1 ms, near–far 22-45 ms (4 Δ with the
#: pull rule below 22.2, pushed 27.6; the push a thread an edge searching the whole frontier).
#: On 2 H200 (bench/results/session21, calls 2-4, a fresh machine each; kron-24 on 2 ranks /
#: kron-25 on 2, ms): the rounds 33.0 / 38.9 / 37.3 and 57.1 / 60.2 / 61.2, near–far at 4 Δ
#: 36.1 / 40.2 and 48.3 / 64.0, at 16 Δ 34.5 / 39.4 and 53.9 / 57.4: no difference
#: established, the rounds kept.
AUTO_METHOD = {"cpu": "delta_stepping", "gpu": "bellman_ford"}
#: The near–far search's Δ multiplies the one-device device loop's rule
#: (``algorithms.sssp._device_delta``: DENSE_DELTA_SCALE · max w / d̄ off road-like graphs,
#: Meyer & Sanders' Θ(1/d); DEVICE_DELTA_SCALE · max w on road-like ones) by this factor: a
#: distributed round pays an exchange and a host read where the one-device loop pays a grid
#: barrier, so wider buckets (fewer rounds, more edges relaxed again) pay here. kron-14 on 2
#: CPU ranks: 53 / 25 rounds at 1 / 4 Δ, 1.10 / 2.46 m edges pushed, 99 / 89 ms (1 rank 156 /
#: 143); kron-22 on one H200 rank 43-45 / 22-28 ms.
NEAR_FAR_DELTA_SCALE = 4.0
#: The near–far round pulls (scans every in-edge of the rank's block, the near pile as a
#: bitmap) when the pile holds more than this fraction of the vertices or its out-edges more
#: than this fraction of the edges, by the ranks' device; else it pushes (an atomic an edge).
#: The one-device rule (1/16, 1/8: ``algorithms.sssp``) pulled 4-9 of kron-14's 17-53 rounds
#: and scanned 4-9 m edges against 1.1-3.1 m pushed. CPU ranks (kron-14, 4 Δ): pushing every
#: round 143 / 89 ms on 1 / 2 ranks, pulls past (1/4, 1/2) 187 / 113: never pull. One H200
#: rank (kron-22, 4 Δ): (1/4, 1/2) 22.2 ms, every round pushed 27.6.
NEAR_FAR_PULL = {"cpu": (np.inf, np.inf), "gpu": (1 / 4, 1 / 2)}
#: A rank whose near pile is empty takes its own next bucket in the same step
#: (``semiring.blocks.near_split``'s ``ahead``) rather than an exchange without a round
#: deciding the next bucket for all: on kron-14 over 2 CPU ranks (bench/probes/
#: near_far_rounds.py) 36 of the 90 exchanges at the automatic Δ were such.
NEAR_FAR_AHEAD = True
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
    predecessors, symmetric, gather = check_flags(op, predecessors=predecessors,
                                                  symmetric=symmetric, gather=gather)
    A = check_matrix(A, op)
    check_choice(method, METHODS, op, "method")
    if method == "bellman_ford" and (delta is not None or limit is not None):
        raise sr.InvalidValue(f"{op}: delta and limit apply to method='delta_stepping' only")
    if method == "delta_stepping" or (method == "auto" and (
            AUTO_METHOD["gpu" if A.device == "gpu" else "cpu"] == "delta_stepping"
            or delta is not None)):
        # (auto: negative weights run the Bellman–Ford rounds, as on one device)
        return delta_stepping(A, source, delta, predecessors=predecessors, direction=direction,
                              limit=limit, symmetric=symmetric, gather=gather, _op=op,
                              _strict=method == "delta_stepping")
    return bellman_ford(A, source, predecessors=predecessors, direction=direction,
                        symmetric=symmetric, gather=gather, limit=limit, _op=op)


def near_far_delta(n: int, nvals: int, wmax: float, wmin_pos: float) -> float:
    """The near–far search's automatic Δ: the one-device loop's rule times
    NEAR_FAR_DELTA_SCALE, at least the least positive weight (1 without a positive weight).

    >>> near_far_delta(1000, 32000, 255.0, 1.0)          # d̄ = 32: 4 · 255 / 32
    31.875
    """
    if not wmax > 0:
        return 1.0
    road = nvals <= ROAD_MEAN_DEGREE * n
    scale = DEVICE_DELTA_SCALE if road else DENSE_DELTA_SCALE * n / max(nvals, 1)
    delta = NEAR_FAR_DELTA_SCALE * scale * wmax
    return delta if delta >= wmax else max(delta, wmin_pos)


def delta_stepping(A, source, delta=None, *, predecessors=False, direction="auto", limit=None,
                   symmetric=False, gather=True, _op="delta_stepping", _strict=True):
    """Shortest distances by the near–far search on a DistMatrix (as
    :func:`algorithms.delta_stepping`): rounds over the near pile only, the vertices changed
    below the threshold, which advances a bucket of width ``delta`` when every rank's near
    pile is empty (:func:`algorithms.dist._spmd.near_far_rank`). A negative weight raises
    ``InvalidValue``, as the one-device function does (:func:`sssp` runs the Bellman–Ford
    rounds then). See :func:`sssp` for the parameters; ``delta``: the bucket width (None:
    :func:`near_far_delta`).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> import algorithms.dist, semiring.dist as dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> W = sp.csr_matrix(np.array([[0, 4, 1, 0], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0.0]]))
    >>> algorithms.dist.delta_stepping(dist.DistMatrix.from_scipy(W, nparts=2), 0, 1.0).tolist()
    [0.0, 3.0, 1.0, inf]
    >>> client.close(); client.cluster.close()
    """
    op = _op
    predecessors, symmetric, gather = check_flags(op, predecessors=predecessors,
                                                  symmetric=symmetric, gather=gather)
    A, source = _checked(A, source, direction, predecessors, limit, op)
    if delta is not None and (isinstance(delta, (bool, np.bool_))
                              or not isinstance(delta, (int, float, np.integer, np.floating))
                              or not 0 < delta < np.inf):
        raise sr.InvalidValue(f"{op}: delta must be a positive finite number, got {delta!r}")
    out_type, _ = _types(A, op)
    if _local.applies(A, "sssp"):
        kw = dict(direction=direction, delta=delta, limit=limit,
                  method="delta_stepping" if _strict else "auto")
        inf_out = np.inf if out_type.kind == "f" else np.iinfo(out_type).max
        return _local.whole(A, "sssp", (source,), kw, (inf_out,), (out_type,), gather=gather)
    if not _spmd.applies(A):
        if _strict and A.nvals:
            # the SPMD ranks' and the one-device function's refusal (not a NegativeCycleError
            # from Bellman–Ford's rounds, nor distances where there is no cycle)
            wmin = float(dist.reduce_scalar(dist.reduce_rows(A, "min"), "min"))
            if wmin < 0:
                raise sr.InvalidValue(f"{op}: A has negative weights (min {wmin}); "
                                      f"delta-stepping needs w >= 0: use bellman_ford")
        # the loop of Dask tasks: Bellman–Ford's rounds (the distances do not depend on the
        # method)
        return bellman_ford(A, source, direction=direction, symmetric=symmetric,
                            gather=gather, limit=limit, _op=op)
    # each partition's rank runs the buckets' rounds, all-gathering the near pile with its peers
    with _named(op):
        return _spmd.run(A, _spmd.near_far_rank, near_far_args(A, source, delta, direction, limit,
                                                           strict=_strict),
                     kinds=("cols",), gather=gather, missing=(None,), dtypes=(out_type,))


@contextlib.contextmanager
def _named(op):
    """A rank's NegativeCycleError named by the function the caller called (the rank loops
    say 'sssp' whichever entry ran them)."""
    try:
        yield
    except sr.NegativeCycleError as err:
        msg = str(err)
        if msg.startswith("sssp:") and op != "sssp":
            raise sr.NegativeCycleError(op + msg[len("sssp"):], err.vertices) from err
        raise


def _checked(A, source, direction, predecessors, limit, op):
    """The checks every distributed SSSP entry makes before any work: (the DistMatrix, the
    source as an int)."""
    A = check_matrix(A, op)
    source = check_source(source, A.nrows, op)
    check_choice(direction, DIRECTIONS, op, "direction")
    if limit is not None and (isinstance(limit, (bool, np.bool_))
                              or not isinstance(limit, (int, float, np.integer, np.floating))
                              or not limit >= 0):
        raise sr.InvalidValue(f"{op}: limit must be a number >= 0 or None, got {limit!r}")
    if predecessors:
        raise sr.InvalidValue(f"{op}: predecessors=True is not distributed yet; run "
                              f"algorithms.{op} on one device for the tree")
    return A, source


def near_far_args(A, source, delta=None, direction="auto", limit=None, *, strict=False):
    """The arguments of :func:`algorithms.dist._spmd.near_far_rank` (before ``gather``) as
    this module's policy gives them (the probes time the rank loop with them)."""
    out_type, work = _types(A, "delta_stepping")
    pull_fraction, pull_edge_fraction = NEAR_FAR_PULL["gpu" if A.device == "gpu" else "cpu"]
    return (source, work, direction, pull_fraction, pull_edge_fraction,
            None if delta is None else float(delta), near_far_delta, NEAR_FAR_AHEAD,
            _spmd.NEAR_PAIRS_MIN, None if strict else _spmd.bellman_ford_loop(), limit, out_type)


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
    predecessors, symmetric, gather = check_flags(op, predecessors=predecessors,
                                                  symmetric=symmetric, gather=gather)
    A, source = _checked(A, source, direction, predecessors, limit, op)
    n = A.nrows
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
        with _named(op):
            return _spmd.run(A, _spmd.bellman_ford_loop(), (source, work, direction,
                                                          PULL_FRACTION, limit, out_type),
                             kinds=("cols",), gather=gather, missing=(None,), dtypes=(out_type,))
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
