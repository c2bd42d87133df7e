"""Give a checkout run (``PYTHONPATH=.``, the package not installed) the package's entry
points, so that NetworkX finds the ``semiring`` backend: pyproject.toml's
``[project.entry-points]`` written into a dist-info of their own in DIR (a new temporary
folder by default), whose path is printed; put it on ``PYTHONPATH`` after the repository.

    eps=$(python3 tools/checkout_entry_points.py) && export PYTHONPATH=$PWD:$eps

Used by tools/gpu_check.sh on the GPU machine, where the tree is copied, not installed."""

from __future__ import annotations

import pathlib
import sys
import tempfile
import tomllib


def write(folder: pathlib.Path, pyproject: pathlib.Path) -> pathlib.Path:
    """The dist-info of pyproject's name and entry points, made in ``folder``."""
    meta = tomllib.loads(pyproject.read_text())["project"]
    info = folder / f"{meta['name']}-0+checkout.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: 0+checkout\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
        for group, eps in meta.get("entry-points", {}).items()))
    return info


if __name__ == "__main__":
    root = pathlib.Path(__file__).resolve().parent.parent
    folder = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(tempfile.mkdtemp())
    write(folder, root / "pyproject.toml")
    print(folder)
