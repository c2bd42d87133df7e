"""SciPy's own csgraph tests, run through this facade: the outside judge of ``algorithms.csgraph``.

    python -m algorithms.csgraph.testing [--engine | --both] [--keep DIR] [-- PYTEST-ARGS...]

The facade promises SciPy's answers, errors and types for every public name of
``scipy.sparse.csgraph``. SciPy ships the tests it holds itself to
(``scipy/sparse/csgraph/tests``): inputs this project did not write. This runs them twice with
pytest, in fresh processes:

1. *through the facade*: a copy of the installed SciPy's test files whose imports of the public
   csgraph names (``from scipy.sparse.csgraph import ...``, ``from scipy.sparse import csgraph``,
   ``import scipy.sparse.csgraph as ...``) are pointed at ``algorithms.csgraph``; imports of
   SciPy's private modules (``scipy.sparse.csgraph._flow``, ``_validation``) stay SciPy's;
2. *as shipped*: the same files unchanged (SciPy's own result on this install: a test that
   fails there says nothing about the facade).

It prints both tallies and every test that passes as shipped but not through the facade, and
exits 0 when each of those is a documented deviation (:data:`DEVIATIONS`, each with its
reason), 1 otherwise. ``--engine`` runs the facade's engine path on host input
(``_validation.FORCE_ENGINE``: the code GPU input takes, on NumPy), so SciPy's tests judge the
engine's answers too; ``--both`` judges both paths against one run as shipped (CI's form).
``--keep DIR`` writes the rewritten files to DIR (else a temporary folder).

Examples
--------
>>> from algorithms.csgraph import testing
>>> testing.rewrite("from scipy.sparse import csgraph, csr_array\\n")
'from algorithms import csgraph\\nfrom scipy.sparse import csr_array\\n'
>>> testing.rewrite("import scipy.sparse.csgraph as spgraph\\n")
'import algorithms.csgraph as spgraph\\n'
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

#: Tests of SciPy's suite that fail through the facade on purpose: a pattern of test ids
#: (``re.match`` on file::name[parameters]) -> the reason, as README.md's facade table says it.
_NO_MUTATION = ("copy=False: SciPy writes the Laplacian into the input's storage; the facade "
                "never modifies an input (README's facade table: `copy=False` ignored)")
DEVIATIONS = {
    r"test_graph_laplacian\.py::test_asymmetric_laplacian\[\w+-\w+-False-": _NO_MUTATION,
    r"test_graph_laplacian\.py::test_sparse_formats\[False-": _NO_MUTATION,
    # (one test over copy in (True, False): the copy=False half checks the input's storage)
    r"test_graph_laplacian\.py::test_symmetric_graph_laplacian$": _NO_MUTATION,
    r"test_shortest_path\.py::test_construct_dist_matrix_predecessors_error\[":
        "int64 predecessors: SciPy's compiled signature refuses them with a TypeError; the "
        "facade takes any integer dtype (README's facade table)",
}

_FROM_NAMES = re.compile(r"^(\s*)from scipy\.sparse\.csgraph import ", re.M)
_IMPORT_AS = re.compile(r"^(\s*)import scipy\.sparse\.csgraph as (\w+)", re.M)
_FROM_SPARSE = re.compile(r"^(\s*)from scipy\.sparse import (.*\bcsgraph\b.*)$", re.M)

_CONFTEST = '''\
# written by algorithms.csgraph.testing: the facade's engine path on host input when asked
import os

if os.environ.get("SEMIRING_CSGRAPH_ENGINE") == "1":
    from algorithms.csgraph import _validation

    _validation.FORCE_ENGINE = True
'''


def rewrite(text: str) -> str:
    """``text`` (a test module's source) with its imports of csgraph's public names taken from
    ``algorithms.csgraph``; every other line as it was."""
    text = _FROM_NAMES.sub(r"\1from algorithms.csgraph import ", text)
    text = _IMPORT_AS.sub(r"\1import algorithms.csgraph as \2", text)

    def split(m):
        indent, names = m.group(1), [n.strip() for n in m.group(2).split(",")]
        rest = [n for n in names if n != "csgraph"]
        out = f"{indent}from algorithms import csgraph"
        return out + (f"\n{indent}from scipy.sparse import {', '.join(rest)}" if rest else "")

    return _FROM_SPARSE.sub(split, text)


def scipy_tests() -> Path:
    """The installed SciPy's csgraph test folder."""
    import scipy.sparse.csgraph as scg  # noqa: PLC0415  (imported where it is judged)

    return Path(scg.__file__).parent / "tests"


def _copy(src: Path, dst: Path, facade: bool) -> None:
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(src.glob("*.py")):
        text = f.read_text()
        (dst / f.name).write_text(rewrite(text) if facade else text)
    (dst / "conftest.py").write_text(_CONFTEST)
    for extra in src.iterdir():  # data files some tests read beside them
        if extra.is_file() and extra.suffix != ".py":
            shutil.copy(extra, dst / extra.name)


def _run(folder: Path, xml: Path, engine: bool, args: list) -> dict:
    """{test id: outcome} of one pytest run of ``folder`` (outcomes: passed, failed, skipped)."""
    # the tests run in their folder: the path this process imported the facade from first
    here = str(Path(__file__).resolve().parents[2])
    path = [here] + [str(Path(p).resolve()) for p in os.environ.get("PYTHONPATH", "").split(
        os.pathsep) if p]
    env = dict(os.environ, SEMIRING_CSGRAPH_ENGINE="1" if engine else "0",
               PYTHONPATH=os.pathsep.join(path))
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir",
           str(folder), "--junitxml", str(xml), *args, str(folder)]
    subprocess.run(cmd, env=env, cwd=folder, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    out = {}
    if not xml.is_file():
        return out
    for case in ET.parse(xml).getroot().iter("testcase"):
        file = Path(case.get("file") or case.get("classname", "").replace(".", "/")).name
        if not file.endswith(".py"):
            file += ".py"
        tid = f"{file}::{case.get('name')}"
        kinds = {c.tag for c in case}
        out[tid] = ("failed" if kinds & {"failure", "error"} else
                    "skipped" if "skipped" in kinds else "passed")
    return out


def _tally(res: dict) -> str:
    n = {k: sum(v == k for v in res.values()) for k in ("passed", "failed", "skipped")}
    return f"{len(res)} tests: {n['passed']} passed, {n['failed']} failed, {n['skipped']} skipped"


def deviation(tid: str) -> str | None:
    """The documented reason a test of SciPy's suite fails through the facade, else None.

    >>> deviation("test_graph_laplacian.py::test_sparse_formats[False-True-csr]") is not None
    True
    >>> deviation("test_graph_laplacian.py::test_sparse_formats[True-True-csr]") is None
    True
    """
    return next((why for pat, why in DEVIATIONS.items() if re.match(pat, tid)), None)


def _judge(facade: dict, shipped: dict, path: str) -> int:
    """Print the facade's tally on ``path`` and each test that passes as shipped but fails
    through it; the number of those without a documented deviation (defects)."""
    print(f"  through the facade, {path}: {_tally(facade)}")
    worse = sorted(t for t, v in facade.items() if v == "failed" and shipped.get(t) == "passed")
    bad = [t for t in worse if deviation(t) is None]
    for t in worse:
        why = deviation(t)
        print(f"  {'deviation' if why else 'FAILED   '} {t}" + (f": {why}" if why else ""))
    print(f"{len(worse)} fail only through the facade ({path}): {len(worse) - len(bad)} "
          f"documented deviations, {len(bad)} defects")
    return len(bad)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m algorithms.csgraph.testing",
                                 description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--engine", action="store_true",
                      help="the facade's engine path on host input (FORCE_ENGINE)")
    mode.add_argument("--both", action="store_true",
                      help="the host path and the engine path, against one run as shipped")
    ap.add_argument("--keep", metavar="DIR", help="write the rewritten tests to DIR")
    ap.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    a = ap.parse_args(argv)
    src = scipy_tests()
    if not src.is_dir():
        print(f"SciPy's csgraph tests are not installed (no {src}): nothing to judge")
        return 1
    engines = [False, True] if a.both else [a.engine]
    tmp = Path(tempfile.mkdtemp(prefix="csgraph-judge-"))
    try:
        facade_dir = Path(a.keep) if a.keep else tmp / "facade"
        _copy(src, facade_dir, True)
        _copy(src, tmp / "shipped", False)
        facades = [_run(facade_dir, tmp / f"facade{int(e)}.xml", e, a.pytest_args)
                   for e in engines]
        shipped = _run(tmp / "shipped", tmp / "shipped.xml", False, a.pytest_args)
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    if not all(facades) or not shipped:
        print("pytest reported no tests (is pytest installed?)")
        return 1
    print(f"SciPy's csgraph tests ({src}), SciPy {__import__('scipy').__version__}")
    print(f"  as shipped:                {_tally(shipped)}")
    bad = sum(_judge(f, shipped, "engine path (FORCE_ENGINE)" if e else "host path")
              for f, e in zip(facades, engines))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
