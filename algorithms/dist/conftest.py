"""pytest: the doctests of this package need dask.distributed (the ``dask`` extra); where it
is not installed they are not collected (tests/test_dist.py skips with the reason)."""

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("distributed") else ["*.py"]
