"""NetworkX's own test suite through this backend: ``python -m nx_semiring.testing``.

Runs ``pytest --pyargs`` on NetworkX's test modules of the dispatched functions with
``NETWORKX_TEST_BACKEND=semiring`` and ``NETWORKX_FALLBACK_TO_NX=True``: every call of a
dispatched function in those tests converts the test's graph, runs on the engine, and the
test checks the answer; calls the backend refuses (``can_run``) run NetworkX's code. Extra
arguments go to pytest (``python -m nx_semiring.testing -x -q``). ``--all`` runs NetworkX's
whole suite instead of the modules below. The package must be installed (``pip install
.[nx]``) so that NetworkX finds the entry points.

Tests known to fail through the backend for a reason that is not a wrong answer are marked
xfail by :func:`mark_known_failures` (NetworkX calls it through the backend's
``on_start_tests``); each entry says why.
"""

from __future__ import annotations

import os
import subprocess
import sys

# NetworkX test modules that exercise the dispatched functions
TEST_MODULES = (
    "networkx.algorithms.traversal.tests.test_bfs",
    "networkx.algorithms.shortest_paths.tests.test_generic",
    "networkx.algorithms.shortest_paths.tests.test_unweighted",
    "networkx.algorithms.shortest_paths.tests.test_weighted",
    "networkx.algorithms.shortest_paths.tests.test_dense_numpy",
)

# test id (path-relative "file::Class::test") -> why it cannot pass through the backend
KNOWN_FAILURES = {}


def mark_known_failures(items):
    """Add ``pytest.mark.xfail(reason=...)`` to the collected tests in KNOWN_FAILURES."""
    import pytest  # noqa: PLC0415

    for item in items:
        nodeid = item.nodeid.split("networkx/")[-1]
        for key, reason in KNOWN_FAILURES.items():
            if nodeid == key or nodeid.startswith(key + "["):
                item.add_marker(pytest.mark.xfail(reason=reason, strict=False))


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    modules = list(TEST_MODULES)
    if "--all" in argv:
        argv.remove("--all")
        modules = ["networkx"]
    env = dict(os.environ, NETWORKX_TEST_BACKEND="semiring", NETWORKX_FALLBACK_TO_NX="True")
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--pyargs", *modules,
           *argv]
    print("+ NETWORKX_TEST_BACKEND=semiring NETWORKX_FALLBACK_TO_NX=True " + " ".join(cmd[1:]),
          flush=True)
    return subprocess.call(cmd, env=env)


if __name__ == "__main__":
    sys.exit(main())
