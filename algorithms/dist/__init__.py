"""Graph algorithms on a distributed matrix (:class:`semiring.dist.DistMatrix`, over Dask).

Each is a short loop of distributed algebra calls (:mod:`semiring.dist`), the same math as
the one-device algorithm, so the answers are the same (bit for bit where the algorithm is
deterministic):

- :func:`bfs`: levels and parents, direction-optimizing (push/pull chosen by a global
  frontier-size reduction each level);
- :func:`sssp` / :func:`delta_stepping` / :func:`bellman_ford`: the near–far search (the
  changed vertices below a threshold that advances by Δ) or Bellman–Ford rounds of the
  changed set;
- :func:`pagerank`: the power iteration;
- :func:`connected_components`: min-label propagation with pointer jumping.

:func:`dispatch` is the hook through which ``algorithms.bfs(DA, source)`` and
``algorithms.sssp(DA, source)`` run here when given a DistMatrix.

Examples
--------
>>> import algorithms.dist
>>> sorted(algorithms.dist.ALGORITHMS)
['bellman_ford', 'bfs', 'connected_components', 'pagerank', 'sssp']
"""

import semiring as sr

from .bfs import bfs
from .components import connected_components
from .pagerank import pagerank
from .sssp import bellman_ford, delta_stepping, sssp

ALGORITHMS = {"bfs": bfs, "sssp": sssp, "bellman_ford": bellman_ford, "pagerank": pagerank,
              "connected_components": connected_components}


def is_distributed(A) -> bool:
    """True for a :class:`semiring.dist.DistMatrix` (checked without importing Dask)."""
    return bool(getattr(A, "is_distributed", False))


def dispatch(name, A, *args, **kwargs):
    """Run algorithm ``name`` on the DistMatrix ``A``: the hook at the top of the one-device
    functions (``if algorithms.dist.is_distributed(A): return dispatch("bfs", A, ...)``).

    Examples
    --------
    >>> import algorithms.dist
    >>> algorithms.dist.dispatch("apsp", None)
    Traceback (most recent call last):
    ...
    semiring.errors.InvalidValue: algorithms.dist.dispatch: no distributed 'apsp'; there are ['bellman_ford', 'bfs', 'connected_components', 'pagerank', 'sssp']
    """
    fn = ALGORITHMS.get(name)
    if fn is None:
        raise sr.InvalidValue(f"algorithms.dist.dispatch: no distributed {name!r}; there are "
                              f"{sorted(ALGORITHMS)}")
    return fn(A, *args, **kwargs)


__all__ = ["ALGORITHMS", "bellman_ford", "bfs", "connected_components", "delta_stepping", "dispatch",
           "is_distributed", "pagerank", "sssp"]
