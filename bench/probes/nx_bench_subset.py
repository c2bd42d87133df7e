"""``python -m bench``'s ``networkx`` case for a subset of its algorithms (issue 17).

The bench's CLI picks algorithms (``--algorithms networkx``) but not the case's ``alg``
parameter; NetworkX's own calls take seconds each on the issue's graphs (kron-18 triangles
about a minute), so a short device request runs a few of them. This sets the suite entry's
parameters, then runs the bench's ``main`` with the remaining arguments.

Usage: PYTHONPATH=. python3 bench/probes/nx_bench_subset.py ALGS DEVICE SUITE [bench args...]
e.g.   python3 bench/probes/nx_bench_subset.py bfs,components gpu quick --suite quick \\
           --device gpu --algorithms networkx --graphs kron-18 --impls networkx,nx-semiring-gpu
"""

import sys

import bench.networkx_case  # noqa: F401  (registers the networkx suite entries)
import bench.cases as C
from bench.__main__ import main

if __name__ == "__main__":
    algs, dev, suite = sys.argv[1].split(","), sys.argv[2], sys.argv[3]
    for e in C.get_suite(suite, dev).entries:
        if e.algorithm == "networkx":
            e.params = [{"alg": a} for a in algs]
    sys.exit(main(sys.argv[4:]))
