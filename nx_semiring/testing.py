"""NetworkX's own test suite through this backend: ``python -m nx_semiring.testing``.

Runs pytest on NetworkX's test modules of the dispatched functions (``TEST_MODULES``) with
``NETWORKX_TEST_BACKEND=semiring`` and ``NETWORKX_FALLBACK_TO_NX=True``, as nx-cugraph and
graphblas-algorithms are tested: every call of a dispatched function in those tests converts
the test's graph, runs on the engine, and the test checks the answer; calls the backend
refuses (``can_run``, or ``NotImplementedError`` from the function) run NetworkX's own code.
Extra arguments go to pytest (``python -m nx_semiring.testing -x``); ``--all`` runs
NetworkX's whole suite instead, ``--modules=M1,M2`` only those modules (dotted names, e.g.
``networkx.algorithms.tests.test_isolate``). The package must be installed
(``pip install ".[nx]"``) so that NetworkX finds the entry points.

At the end it prints how many tests called the backend (and how they ended), how many
dispatched calls the engine answered and how many fell back to NetworkX, per function (each
test process, pytest-xdist's workers too, writes its tally to a directory; ``-n 2`` works).

Tests known to fail through the backend for a reason that is not a wrong answer are marked
xfail by :func:`mark_known_failures` (NetworkX calls it through the backend's
``on_start_tests``); each entry says why.
"""

from __future__ import annotations

import collections
import importlib.util
import json
import logging
import os
import sys
import tempfile

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
    # nx_semiring.analytics' functions
    "networkx.algorithms.components.tests.test_weakly_connected",
    "networkx.algorithms.community.tests.test_label_propagation",
    "networkx.algorithms.community.tests.test_quality",
    # minimum_cycle_basis builds on the s-t path nx.shortest_path returns among equally short
    # ones (the backend leaves ties to NetworkX); ~6 s
    "networkx.algorithms.tests.test_cycles",
    # nx_semiring.paths: Floyd–Warshall, distance measures, ancestors/descendants, flow
    # values, bipartite matching
    "networkx.algorithms.shortest_paths.tests.test_dense",
    "networkx.algorithms.tests.test_distance_measures",
    "networkx.algorithms.tests.test_dag",
    "networkx.algorithms.flow.tests.test_maxflow",
    "networkx.algorithms.bipartite.tests.test_matching",
    # nx_semiring.centrality: spectral and distance centralities
    "networkx.algorithms.centrality.tests.test_eigenvector_centrality",
    "networkx.algorithms.centrality.tests.test_katz_centrality",
    "networkx.algorithms.link_analysis.tests.test_hits",
    "networkx.algorithms.centrality.tests.test_closeness_centrality",
    "networkx.algorithms.centrality.tests.test_harmonic_centrality",
    # nx_semiring.structure: degree centralities and isolates (the spanning forests are in
    # test_mst above)
    "networkx.algorithms.centrality.tests.test_degree_centrality",
    "networkx.algorithms.tests.test_isolate",
    # session 20 (nx16): attracting components, efficiency, the Wiener index (the new path
    # functions and the NumPy centralities are in test_weighted, test_unweighted,
    # test_generic, test_eigenvector_centrality and test_katz_centrality above)
    "networkx.algorithms.components.tests.test_attracting",
    "networkx.algorithms.tests.test_efficiency",
    "networkx.algorithms.tests.test_wiener",
    # session 21 (nx21): nx_semiring.recognition (the DAG tests are in test_dag above) and
    # the degree-based measures of nx_semiring.structure
    "networkx.algorithms.tree.tests.test_recognition",
    "networkx.algorithms.bipartite.tests.test_basic",
    "networkx.algorithms.tests.test_hierarchy",
    "networkx.algorithms.assortativity.tests.test_neighbor_degree",
    "networkx.algorithms.tests.test_reciprocity",
    "networkx.algorithms.components.tests.test_semiconnected",
)

# "path/file.py::[Class::]test" (the path inside the networkx package) -> why it cannot
# pass through the backend although the backend's answer is correct
KNOWN_FAILURES: dict = {
    # (empty since session 22: test_condensation_mapping_and_members expected NetworkX's
    # Tarjan order of the strong components, which the backend now yields)
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


# The directory where each test process writes its tally (a JSON file per process), set by
# main(): with pytest-xdist the tests run in worker processes, each with its own log handler
TALLY_DIR_ENV = "NX_SEMIRING_TALLY_DIR"


class _Tally(logging.Handler):
    """Counts NetworkX's dispatch log records (``networkx.utils.backends``, test mode): calls
    of this backend's functions that it answered, that it refused (``can_run``), whose
    conversion refused, and that raised NotImplementedError on the engine, per function."""

    def __init__(self, functions):
        super().__init__(logging.DEBUG)
        self.functions = set(functions)
        self.counts = collections.defaultdict(collections.Counter)  # kind -> name -> calls
        self.test_ran = 0

    def emit(self, record):
        msg, args = record.msg, record.args
        if not isinstance(msg, str) or not isinstance(args, tuple) or len(args) < 2 or \
                args[0] != "semiring" or args[1] not in self.functions:
            return
        if msg.startswith("Using backend '%s' for call to"):
            self.counts["called"][args[1]] += 1
            self.test_ran += 1
        elif msg.startswith("Falling back to use 'networkx' instead of '%s' backend"):
            self.counts["refused"][args[1]] += 1
        elif msg.startswith("Graph conversion failed"):
            self.counts["conversion refused"][args[1]] += 1
        elif msg.startswith("Backend '%s' raised when calling"):
            self.counts["raised NotImplementedError"][args[1]] += 1


class _Report:
    """pytest plugin: per-test outcome × whether the test reached the backend, and the
    tally, written to ``directory`` as JSON when the session ends (one file per process)."""

    def __init__(self, tally, directory):
        self.tally = tally
        self.directory = directory
        self.outcomes = collections.Counter()

    def pytest_runtest_setup(self, item):
        self.tally.test_ran = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or (report.when == "setup" and not report.passed):
            outcome = "xfailed" if hasattr(report, "wasxfail") and report.skipped else (
                "xpassed" if hasattr(report, "wasxfail") else report.outcome)
            through = "through the backend" if self.tally.test_ran else "backend not called"
            self.outcomes[f"{through}|{outcome}"] += 1

    def pytest_sessionfinish(self, session):
        path = os.path.join(self.directory, f"tally-{os.getpid()}.json")
        with open(path, "w") as f:
            json.dump({"outcomes": self.outcomes,
                       "counts": {k: dict(v) for k, v in self.tally.counts.items()}}, f)


def start_tally(items):
    """Count this process's dispatched calls and test outcomes when ``TALLY_DIR_ENV`` names
    a directory (main() sets it); called by the backend's ``on_start_tests``, which NetworkX
    calls in every process that collects tests (each pytest-xdist worker)."""
    directory = os.environ.get(TALLY_DIR_ENV)
    if not directory or not items:
        return
    tally = _Tally(FUNCTIONS)
    log = logging.getLogger("networkx.utils.backends")
    log.setLevel(logging.DEBUG)
    log.propagate = False  # keep pytest's log capture from formatting every record
    log.addHandler(tally)
    items[0].config.pluginmanager.register(_Report(tally, directory), "nx_semiring_tally")


def summarize(directory) -> list:
    """The lines of the merged tallies in ``directory``."""
    outcomes, counts = collections.Counter(), collections.defaultdict(collections.Counter)
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name)) as f:
            d = json.load(f)
        outcomes.update(d["outcomes"])
        for kind, per in d["counts"].items():
            counts[kind].update(per)
    lines = ["== nx_semiring: NetworkX's tests through backend 'semiring' =="]
    for through in ("through the backend", "backend not called"):
        parts = {k.split("|")[1]: c for k, c in outcomes.items() if k.startswith(through)}
        lines.append(f"tests {through}: {sum(parts.values())} ("
                     + ", ".join(f"{c} {o}" for o, c in sorted(parts.items())) + ")")
    called, raised = counts["called"], counts["raised NotImplementedError"]
    answered = called - raised
    fell = counts["refused"] + counts["conversion refused"] + raised
    lines.append(f"dispatched calls answered by the engine: {sum(answered.values())}; fell "
                 f"back to NetworkX: {sum(fell.values())} (can_run refused "
                 f"{sum(counts['refused'].values())}, conversion refused "
                 f"{sum(counts['conversion refused'].values())}, NotImplementedError on the "
                 f"engine {sum(raised.values())})")
    for name in sorted(set(called) | set(fell)):
        lines.append(f"  {name}: {answered[name]} answered, {fell[name]} fell back")
    return lines


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    modules = list(TEST_MODULES)
    if "--all" in argv:
        argv.remove("--all")
        modules = ["networkx"]
    for a in list(argv):  # --modules=a,b: only those of NetworkX's test modules
        if a.startswith("--modules="):
            argv.remove(a)
            modules = [m for m in a.split("=", 1)[1].split(",") if m]
    os.environ["NETWORKX_TEST_BACKEND"] = "semiring"
    os.environ["NETWORKX_FALLBACK_TO_NX"] = "True"
    import pytest  # noqa: PLC0415  (pytest is optional: the test extra)

    args = ["-p", "no:cacheprovider", "--pyargs", *modules, *argv]
    if importlib.util.find_spec("xdist") is not None and not any(
            a == "-n" or a.startswith(("-n", "--numprocesses")) for a in argv):
        # one process unless asked (the project's pytest options, read from pyproject.toml
        # when run from the checkout, ask for -n auto)
        args[:0] = ["-n", "0"]
    print("+ NETWORKX_TEST_BACKEND=semiring NETWORKX_FALLBACK_TO_NX=True pytest "
          + " ".join(args), flush=True)
    with tempfile.TemporaryDirectory(prefix="nx_semiring_tally") as directory:
        os.environ[TALLY_DIR_ENV] = directory
        rc = int(pytest.main(args))
        print("\n".join(["", *summarize(directory)]), flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
