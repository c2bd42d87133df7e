"""SciPy's own ``scipy/sparse/csgraph/tests`` run against ``algorithms.csgraph`` (session 15,
audit8): the installed test files are copied to a temporary folder with every import of
``scipy.sparse.csgraph`` (and its private ``_min_spanning_tree`` / ``_laplacian`` modules)
pointed at the facade, then run by pytest; ``--engine`` sets ``_validation.FORCE_ENGINE``
(the GPU path's code on NumPy). Prints the failures counted per test function.

SciPy 1.17.1, this session: 438 failures before audit8's fixes, 107 after (host path; 108 on
the engine path), all documented deviations: ``laplacian(copy=False)`` does not write into
the input (105), ``construct_dist_matrix`` accepts int64 predecessors (2), and (engine) a
predecessor among tied shortest paths (1).

Usage: PYTHONPATH=. python3 bench/probes/scipy_csgraph_suite.py [--engine] [pytest args]
"""
from __future__ import annotations

import collections
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import scipy

REWRITES = [
    (r"from scipy\.sparse\.csgraph import", "from algorithms.csgraph import"),
    (r"import scipy\.sparse\.csgraph as spgraph", "import algorithms.csgraph as spgraph"),
    (r"from scipy\.sparse import csgraph, csr_array",
     "from scipy.sparse import csr_array; from algorithms import csgraph"),
    (r"^from scipy\.sparse import csgraph$", "from algorithms import csgraph"),
    (r"from \.\._min_spanning_tree import", "from algorithms.csgraph import"),
    (r"from \.\._laplacian import", "from algorithms.csgraph import"),
]
CONFTEST = '''import os
if os.environ.get("SR_SCIPY_SUITE_ENGINE"):
    from algorithms.csgraph import _validation
    _validation.FORCE_ENGINE = True
'''


def main(argv):
    engine = "--engine" in argv
    extra = [a for a in argv if a != "--engine"]
    src = pathlib.Path(scipy.__file__).parent / "sparse" / "csgraph" / "tests"
    with tempfile.TemporaryDirectory(prefix="scipy_csgraph_suite_") as tmp:
        for f in sorted(src.glob("test_*.py")):
            text = f.read_text()
            for pat, rep in REWRITES:
                text = re.sub(pat, rep, text, flags=re.M)
            (pathlib.Path(tmp) / f.name).write_text(text)
        (pathlib.Path(tmp) / "conftest.py").write_text(CONFTEST)
        env = dict(os.environ, SR_SCIPY_SUITE_ENGINE="1" if engine else "")
        root = str(pathlib.Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              "-rf", tmp, *extra], capture_output=True, text=True, env=env,
                             cwd=root)
    lines = out.stdout.splitlines()
    fails = collections.Counter(re.sub(r"\[.*", "", ln.split("::", 1)[1].split(" ")[0])
                                for ln in lines if ln.startswith("FAILED"))
    print(f"SciPy {scipy.__version__}'s csgraph tests on algorithms.csgraph "
          f"({'engine path' if engine else 'host path'})")
    for name, k in sorted(fails.items()):
        print(f"{k:5d} FAILED {name}")
    print(lines[-1] if lines else out.stderr[-2000:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
