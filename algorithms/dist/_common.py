"""Input checks shared by the distributed algorithms."""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring import dist
from algorithms.pagerank import ConvergenceError


def check_matrix(A, op: str):
    if not isinstance(A, dist.DistMatrix):
        raise sr.DomainMismatch(f"{op}: A must be a semiring.dist.DistMatrix, got "
                                f"{type(A).__name__}")
    if A.nrows != A.ncols:
        raise sr.DimensionMismatch(f"{op}: A must be square, got shape {A.shape}")
    # (the SPMD mesh's sockets outlive the client: some calls ran on, others failed in Dask)
    dist.check_open(A.client, "A's client", op)
    return A


def check_source(source, n: int, op: str) -> int:
    if isinstance(source, np.ndarray) and source.ndim == 0 and source.dtype.kind in "iu":
        source = int(source)
    if sr.is_gpu_array(source) and source.ndim == 0 and source.dtype.kind in "iu":
        source = int(source)
    if isinstance(source, bool) or not isinstance(source, (int, np.integer)):
        raise sr.DomainMismatch(f"{op}: source must be an integer, got {type(source).__name__}")
    if not 0 <= int(source) < n:
        raise sr.InvalidIndex(f"{op}: source must lie in [0, {n}), got {int(source)}")
    return int(source)


def check_choice(value, choices, op: str, arg: str):
    if value not in choices:
        raise sr.InvalidValue(f"{op}: {arg} must be one of {tuple(choices)}, got {value!r}")
    return value


class NoConvergence(ConvergenceError, sr.InvalidValue):
    """A distributed power iteration out of iterations: the one-device functions'
    :class:`algorithms.ConvergenceError` (what a caller of either catches), and the
    ``InvalidValue`` the distributed ones raised before."""
