"""The layering of the package, checked from the source (docs/design.md draws it):

* the module-level imports inside ``semiring`` form no circle;
* a function-local import (``# noqa: PLC0415  (why)``) says why it is local, in parentheses
  (in ``semiring``, ``algorithms``, ``bench``, ``nx_semiring`` and ``tests``);
* no module of ``semiring`` imports ``algorithms``; no container imports a backend;
* no algorithm imports a private ``semiring._module``;
* one file loads kernels: only ``semiring/kernels/__init__.py`` reads ``.cu`` text or builds
  CuPy modules.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "semiring"
CONTAINERS = ("semiring.matrix", "semiring.vector", "semiring._operand")


def _modules(pkg: Path):
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(pkg.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def _imports(name: str, path: Path, *, top_level_only: bool):
    """Absolute names imported by a module (module level only, or everywhere)."""
    tree = ast.parse(path.read_text())
    is_pkg = path.name == "__init__.py"
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    out = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[:len(base) - node.level + (1 if is_pkg else 0)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names}
    return out


def test_no_import_circles_in_semiring():
    mods = dict(_modules(PKG))
    graph = {m: {i for i in _imports(m, p, top_level_only=True) if i in mods and i != m}
             for m, p in mods.items()}
    # a package imports its submodules (``from . import cpu``): the edge parent -> child is the
    # package's own initialization, not a circle through the child
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for d in graph[m]:
            if d.startswith(m + "."):
                continue
            if state.get(d) == "open" and not m.startswith(d + "."):
                raise AssertionError("import circle: " + " -> ".join(stack[stack.index(d):] + [d]))
            if d not in state:
                visit(d)
        stack.pop()
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_local_imports_say_why():
    bad = []
    dirs = ("semiring", "algorithms", "bench", "nx_semiring", "tests")
    for path in [p for d in dirs for p in sorted((ROOT / d).rglob("*.py"))]:
        for i, line in enumerate(path.read_text().splitlines(), 1):
            # (the pattern is spelled so that this line is no unexplained marker itself)
            if re.search(r"noqa:\s*PLC0415(?!\s+\(.+\))", line):
                bad.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not bad, "local imports without a reason:\n" + "\n".join(bad)


def test_layers():
    bad = []
    for m, p in _modules(PKG):
        imported = _imports(m, p, top_level_only=False)
        if any(i == "algorithms" or i.startswith("algorithms.") for i in imported):
            bad.append(f"{m} imports algorithms")
        if m in CONTAINERS and any(i.startswith("semiring.backend") for i in imported):
            bad.append(f"container {m} imports a backend")
    for m, p in _modules(ROOT / "algorithms"):
        for i in _imports(m, p, top_level_only=False):
            if re.match(r"semiring(\.\w+)*\._", i or ""):
                bad.append(f"{m} imports the private {i}")
    assert not bad, "\n".join(bad)


def test_one_file_loads_kernels():
    loaders = []
    for path in [*PKG.rglob("*.py"), *(ROOT / "algorithms").rglob("*.py")]:
        text = path.read_text()
        if re.search(r"RawModule\(|\.cu\"\)\.read_text|joinpath\(.*\)\.read_text", text):
            loaders.append(str(path.relative_to(ROOT)))
    assert loaders == ["semiring/kernels/__init__.py"], loaders


def test_design_map_matches_the_tree():
    """docs/design.md's table of layers names every module of semiring/, and only real ones."""
    import fnmatch  # noqa: PLC0415  (stdlib, this test only)

    text = (ROOT / "docs" / "design.md").read_text()
    table = text[text.index("| layer |"):text.index("## Data flow")]
    names = set(re.findall(r"`([\w/*.]+\.(?:py|cu|cuh)|[\w/]+/\*)`", table))
    files = {str(p.relative_to(PKG)) for p in PKG.rglob("*") if p.suffix in (".py", ".cu", ".cuh")}
    missing = [f for f in sorted(files) if not any(fnmatch.fnmatch(f, n) for n in names)]
    unknown = [n for n in sorted(names) if not any(fnmatch.fnmatch(f, n) for f in files)]
    assert not missing and not unknown, f"not in the map: {missing}; not in the tree: {unknown}"
