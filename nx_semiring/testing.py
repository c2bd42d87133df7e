"""NetworkX's own test suite through this backend: ``python -m nx_semiring.testing``.

Runs pytest on NetworkX's test modules of the dispatched functions (``TEST_MODULES``) with
``NETWORKX_TEST_BACKEND=semiring`` and ``NETWORKX_FALLBACK_TO_NX=True``, as nx-cugraph and
graphblas-algorithms are tested: every call of a dispatched function in those tests converts
the test's graph, runs on the engine, and the test checks the answer; calls the backend
refuses (``can_run``, or ``NotImplementedError`` from the function) run NetworkX's own code.
Extra arguments go to pytest (``python -m nx_semiring.testing -x``); ``--all`` runs
NetworkX's whole suite instead. The package must be installed (``pip install ".[nx]"``) so
that NetworkX finds the entry points.

At the end it prints how many tests called the backend (and how they ended), how many
dispatched calls ran on the engine and how many fell back to NetworkX, per function.

Tests known to fail through the backend for a reason that is not a wrong answer are marked
xfail by :func:`mark_known_failures` (NetworkX calls it through the backend's
``on_start_tests``); each entry says why.
"""

from __future__ import annotations

import collections
import importlib.util
import logging
import os
import sys

from . import FUNCTIONS

# NetworkX test modules that exercise the dispatched functions
TEST_MODULES = (
    "networkx.algorithms.traversal.tests.test_bfs",
    "networkx.algorithms.shortest_paths.tests.test_generic",
    "networkx.algorithms.shortest_paths.tests.test_unweighted",
    "networkx.algorithms.shortest_paths.tests.test_weighted",
    "networkx.algorithms.shortest_paths.tests.test_dense_numpy",
    "networkx.algorithms.components.tests.test_connected",
    "networkx.algorithms.components.tests.test_strongly_connected",
    "networkx.algorithms.link_analysis.tests.test_pagerank",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality",
    "networkx.algorithms.tests.test_cluster",
    "networkx.algorithms.tests.test_core",
    "networkx.algorithms.community.tests.test_louvain",
    "networkx.algorithms.tree.tests.test_mst",
)

_LOUVAIN = ("Louvain's partition depends on the order vertices move (NetworkX: one at a time "
            "in a seeded random order; the engine: colour classes in parallel), so a test "
            "that expects NetworkX's exact partition for a seed cannot pass")

# "path/file.py::[Class::]test" (the path inside the networkx package) -> why it cannot
# pass through the backend although the backend's answer is correct
KNOWN_FAILURES = {
    "algorithms/components/tests/test_strongly_connected.py::TestStronglyConnected::"
    "test_condensation_mapping_and_members":
        "expects NetworkX's Tarjan order of the components (component 0 = the first one "
        "Tarjan's DFS completes); the backend yields them in order of their first node",
    "algorithms/community/tests/test_louvain.py::test_karate_club_partition": _LOUVAIN,
    "algorithms/community/tests/test_louvain.py::test_undirected_selfloops": _LOUVAIN,
    "algorithms/community/tests/test_louvain.py::test_none_weight_param": _LOUVAIN,
    "algorithms/community/tests/test_louvain.py::test_multigraph":
        _LOUVAIN + " (here: the MultiGraph runs on NetworkX, the Graph on the engine)",
    # only in the whole suite (--all): minimum_cycle_basis takes the path that
    # nx.shortest_path(G, s, t, weight) returns, and NetworkX's bidirectional Dijkstra picks
    # its own among equally short paths (the backend's is another shortest path)
    **{f"algorithms/tests/test_cycles.py::TestMinimumCycleBasis::{t}":
       "minimum_cycle_basis follows the s-t shortest path returned; among equally short "
       "paths the backend's differs from NetworkX's bidirectional Dijkstra's"
       for t in ("test_unweighted_diamond", "test_weighted_diamond",
                 "test_gh6787_and_edge_attribute_names")},
    # doctests, in the whole suite (--all): the same two reasons
    "algorithms/community/louvain.py::networkx.algorithms.community.louvain.louvain_communities":
        _LOUVAIN + " (the docstring's example prints NetworkX's partition for seed=123)",
    "algorithms/cycles.py::networkx.algorithms.cycles.minimum_cycle_basis":
        "the docstring prints the cycles NetworkX's s-t shortest paths give; among equally "
        "short paths the backend's differ",
    "algorithms/community/tests/test_louvain.py::test_max_level":
        "compares against nx.community.louvain_partitions (NetworkX's levels, not "
        "dispatched); " + _LOUVAIN,
}


def mark_known_failures(items):
    """Add ``pytest.mark.xfail(reason=...)`` to the collected tests in KNOWN_FAILURES."""
    import pytest  # noqa: PLC0415  (pytest is optional: the test extra)

    for item in items:
        parts = item.path.parts
        top = max((i for i, p in enumerate(parts) if p == "networkx"), default=None)
        base = item.path.name if top is None else "/".join(parts[top + 1:])
        # a doctest (NetworkX's --doctest-modules) is named by its object's dotted name
        name = item.getmodpath().replace(".", "::") if hasattr(item, "getmodpath") \
            else item.name
        nodeid = base + "::" + name
        for key, reason in KNOWN_FAILURES.items():
            if nodeid == key or nodeid.startswith(key + "["):
                item.add_marker(pytest.mark.xfail(reason=reason, strict=False))


class _Tally(logging.Handler):
    """Counts NetworkX's dispatch log records per test: calls run by the backend and calls
    of backend functions that fell back to NetworkX."""

    def __init__(self, functions):
        super().__init__(logging.DEBUG)
        self.functions = set(functions)
        self.ran = collections.Counter()
        self.fell_back = collections.Counter()
        self.test_ran = 0

    def emit(self, record):
        msg, args = record.msg, record.args
        if not isinstance(msg, str) or not isinstance(args, tuple) or len(args) < 2:
            return
        if msg.startswith("Using backend '%s' for call to") and args[0] == "semiring":
            self.ran[args[1]] += 1
            self.test_ran += 1
        elif msg.startswith("Falling back to use 'networkx' instead of '%s' backend") \
                and args[0] == "semiring" and args[1] in self.functions:
            self.fell_back[args[1]] += 1
        elif msg.startswith("Backend '%s' raised when calling") and args[0] == "semiring":
            self.fell_back[args[1]] += 1


class _Report:
    """pytest plugin: per-test outcome × whether the test reached the backend."""

    def __init__(self, tally):
        self.tally = tally
        self.outcomes = collections.Counter()

    def pytest_runtest_setup(self, item):
        self.tally.test_ran = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or (report.when == "setup" and not report.passed):
            outcome = "xfailed" if hasattr(report, "wasxfail") and report.skipped else (
                "xpassed" if hasattr(report, "wasxfail") else report.outcome)
            through = "through the backend" if self.tally.test_ran else "backend not called"
            self.outcomes[(through, outcome)] += 1

    def pytest_terminal_summary(self, terminalreporter):
        w = terminalreporter.write_line
        w("")
        w("== nx_semiring: NetworkX's tests through backend 'semiring' ==")
        for through in ("through the backend", "backend not called"):
            parts = {o: c for (t, o), c in self.outcomes.items() if t == through}
            total = sum(parts.values())
            w(f"tests {through}: {total} ("
              + ", ".join(f"{c} {o}" for o, c in sorted(parts.items())) + ")")
        w(f"dispatched calls run on the engine: {sum(self.tally.ran.values())}; fell back to "
          f"NetworkX: {sum(self.tally.fell_back.values())}")
        for name in sorted(set(self.tally.ran) | set(self.tally.fell_back)):
            w(f"  {name}: {self.tally.ran[name]} ran, {self.tally.fell_back[name]} fell back")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    modules = list(TEST_MODULES)
    if "--all" in argv:
        argv.remove("--all")
        modules = ["networkx"]
    os.environ["NETWORKX_TEST_BACKEND"] = "semiring"
    os.environ["NETWORKX_FALLBACK_TO_NX"] = "True"
    import pytest  # noqa: PLC0415  (pytest is optional: the test extra)

    tally = _Tally(FUNCTIONS)
    log = logging.getLogger("networkx.utils.backends")
    log.setLevel(logging.DEBUG)
    log.propagate = False  # keep pytest's log capture from formatting every record
    log.addHandler(tally)
    args = ["-p", "no:cacheprovider", "--pyargs", *modules, *argv]
    if importlib.util.find_spec("xdist") is not None:
        # one process: the tally is this process's log handler (the project's pytest
        # options, read from pyproject.toml when run from the checkout, ask for -n auto)
        args[:0] = ["-n", "0"]
    print("+ NETWORKX_TEST_BACKEND=semiring NETWORKX_FALLBACK_TO_NX=True pytest "
          + " ".join(args), flush=True)
    return int(pytest.main(args, plugins=[_Report(tally)]))


if __name__ == "__main__":
    sys.exit(main())
