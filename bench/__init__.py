"""Benchmarks for semiring: graph generators, peers, timing, metrics, tables and plots.

Run ``python -m bench --help``. The pieces:

- :mod:`bench.generators` — Graph500 Kronecker, GAP uniform random ("urand") and 2-D grid graphs,
  vectorized on NumPy or CuPy, seeded and identical on both, with an on-disk cache;
  MatrixMarket loading; random frontiers and vectors.
- :mod:`bench.cases` — the registry of algorithms (each: inputs, references, implementations,
  metrics) and of suites (which graphs and parameters each algorithm runs on); one module per
  algorithm (``bench/cases/bfs.py``, ...; APSP in :mod:`bench.apsp_case`) registers itself.
- ``bench/probes/`` — device probes that measure one mechanism (see its README).
- :mod:`bench.runner` — runs a suite: one graph at a time, every implementation on it in this
  process, warm-up then timed runs (CUDA events on the GPU, ``perf_counter`` on the CPU),
  agreement checks on the host.
- :mod:`bench.metrics` — bytes moved, rates, Graph500 TEPS counting, APSP relaxations, the
  environment stamped on every record.
- :mod:`bench.report` — console table, JSON, Markdown and PNG plots.

Nothing here imports CuPy at import time: it is imported lazily where a GPU is asked for.
"""

__all__ = ["generators", "cases", "runner", "metrics", "report", "timing"]
