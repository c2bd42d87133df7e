"""pytest: the doctests of this package call NetworkX with ``backend="semiring"``, which NetworkX
finds through the package's entry points: where the package is not installed (a checkout run
with PYTHONPATH=., as on the GPU machine) they are not collected; tests/test_nx_backend.py
skips its dispatch tests there with the reason. CI installs the package, so they run there."""

import importlib.util


def _installed() -> bool:
    if importlib.util.find_spec("networkx") is None:
        return False
    from importlib.metadata import entry_points  # noqa: PLC0415  (only when collecting)

    return any(ep.name == "semiring" for ep in entry_points(group="networkx.backends"))


collect_ignore_glob = [] if _installed() else ["*.py"]
