"""Shared fixtures: every test body runs on every backend present (CPU always, GPU when a
device answers), and the dense NumPy oracle of the semiring operations."""

from __future__ import annotations

import contextlib
import importlib
import os
import signal

# On a machine of several GPUs (tools/gpu_check.sh with GPUS=n) pytest-xdist's worker gwK sees
# GPU K mod n alone: set before CuPy first touches the driver (tests that need several GPUs
# at once, tests/test_dist_nccl.py, run in a separate call there).
_GPUS = int(os.environ.get("SEMIRING_TEST_GPUS") or 0)
# Only in the xdist worker itself: a Dask worker process it starts inherits PYTEST_XDIST_WORKER
# and imports this module when it unpickles a test's function, and must keep the GPU its
# cluster gave it (the marker below is inherited, so the child leaves CUDA_VISIBLE_DEVICES be).
if (_GPUS > 1 and os.environ.get("PYTEST_XDIST_WORKER", "").startswith("gw")
        and "SEMIRING_TEST_GPU_SET" not in os.environ):
    os.environ["CUDA_VISIBLE_DEVICES"] = str(int(os.environ["PYTEST_XDIST_WORKER"][2:]) % _GPUS)
    os.environ["SEMIRING_TEST_GPU_SET"] = "1"

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, Phase, settings  # noqa: E402

import semiring as sr  # noqa: E402

DEVICES = ["cpu"] + (["gpu"] if sr.gpu_available() else [])

settings.register_profile(
    "default", max_examples=int(os.environ.get("SEMIRING_TEST_EXAMPLES", 40)), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture],
)
settings.register_profile("noshrink", parent=settings.get_profile("default"),
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile(os.environ.get("SEMIRING_HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param


# (module, attribute, value that turns the host route off): the size below which GPU input
# goes to a host copy, per algorithm
HOST_ROUTES = [("algorithms.csgraph._validation", "HOST_MAX_WORK", {}),
               ("algorithms.cores", "CORE_HOST_MAX_ENTRIES", 0),
               ("algorithms.cores", "TRUSS_HOST_MAX_ENTRIES", 0),
               ("algorithms.community", "LABEL_PROPAGATION_HOST_MAX_ENTRIES", 0),
               ("algorithms.community", "LOUVAIN_HOST_MAX_ENTRIES", 0),
               ("algorithms.mst", "HOST_MAX_ENTRIES", 0),
               ("algorithms.triangles", "HOST_MAX_ENTRIES", 0),
               ("algorithms.bfs", "ROAD_HOST_MAX_N", 0),
               ("algorithms.pagerank", "HOST_MAX_ENTRIES", 0),
               ("algorithms.components", "WEAK_HOST_MAX_ENTRIES", 0),
               ("algorithms.components", "STRONG_HOST_MAX_ENTRIES", 0)]


def _set_attrs(settings):
    for module, name, value in settings:
        setattr(importlib.import_module(module), name, value)


def local_client(workers=2, *, routes_off=True, **kwargs):
    """A local Dask cluster's client for a module's fixture (``yield from``), closed with its
    cluster after the module; ``routes_off``: :func:`host_routes_off` on its workers where
    they are processes of their own (workers in this process, ``processes=False``, run
    under the autouse fixture below: setting the routes off there would outlive the module
    and fail tests/test_host_routes.py in the same xdist worker, GPU call 5 of session 24)."""
    from semiring import dist  # noqa: PLC0415  (dask: the distributed tests' extra)

    c = dist.local_cluster(workers, **kwargs)
    if routes_off and kwargs.get("processes", True):
        host_routes_off(c)
    yield c
    c.close()
    c.cluster.close()


def host_routes_off(client):
    """The host routes off on a Dask cluster's worker processes too (the autouse fixture
    below patches this process only): a one-partition call runs the one-device algorithm on
    its worker, whose result the tests compare bit for bit with this process's GPU path."""
    client.run(_set_attrs, HOST_ROUTES)
    return client


@pytest.fixture(autouse=True)
def _gpu_paths_on_gpu_input(request, monkeypatch):
    """GPU input runs its GPU path in every test: the tests' graphs are small enough for the
    host routes of the csgraph facade (``HOST_MAX_WORK``) and of the launch-bound analytics
    (``HOST_ROUTES``), which tests marked ``host_route`` keep (tests/test_host_routes.py)."""
    if "host_route" not in request.keywords:
        for module, name, value in HOST_ROUTES:
            monkeypatch.setattr(importlib.import_module(module), name, value)


@pytest.fixture(autouse=True)
def _gpu_work_done_in_its_test(request):
    """On a machine with a GPU, every test ends with a device synchronize, so that a fault of
    a kernel the test queued but never waited for (a sticky CUDA error, which fails every
    later test of the worker process) is reported at the test that queued it, not at the
    next test that happens to synchronize."""
    yield
    if DEVICES[-1] == "gpu":
        import cupy  # noqa: PLC0415  (GPU only)

        cupy.cuda.runtime.deviceSynchronize()


@contextlib.contextmanager
def deadline(seconds: int):
    """Fail with TimeoutError instead of hanging: a test of a loop that once never ended (the
    loop must reach Python between its rounds for the alarm to land; SciPy's compiled loops
    need a child process instead, tests/test_termination.py)."""

    def expired(*_):
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def to_host(a):
    """A NumPy copy of a NumPy or CuPy array."""
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


#: Module fixtures that run a whole benchmark suite (tests/test_bench.py's ``tiny_run``,
#: tests/test_bench_dask.py's ``dask_run``: 18-21 s each on the 2-core host): each worker
#: that runs one of their tests builds the fixture again (session 30's local CI: twice each).
SUITE_FIXTURES = ("tiny_run", "dask_run")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config, items):
    """Tests that run a CUDA kernel on the host stand-ins of tests/emu (their ``emu`` fixture
    builds it) start one host thread per CUDA thread, up to a few hundred waiting at barriers.
    Two at once on a small host starve each other (CI's 2 cores: load 40, an emulated search
    past its clock), so under pytest-xdist they share one worker (the project's options ask
    for ``--dist loadgroup``). The tests of each of :data:`SUITE_FIXTURES` share a worker
    too, which builds that fixture once."""
    loadgroup = getattr(config.option, "loadgroup", False)  # (an xdist worker's option)
    for item in items:
        names = getattr(item, "fixturenames", ())
        group = "emulated" if "emu" in names else \
            next((f for f in SUITE_FIXTURES if f in names), None)
        if group is None:
            continue
        item.add_marker(pytest.mark.xdist_group(group))
        if loadgroup and hasattr(item, "_id") and not hasattr(item, "_nodeid"):
            # pytest-xdist 3.8 tells its scheduler an item's group by a suffix it writes to
            # item._nodeid, which pytest 9.2's structured node ids (item._id) no longer read:
            # every group was silently ignored (pytest-xdist issue #1386; CI installs both).
            # The suffix written where pytest reads it (a fixed xdist appending it again
            # gives "@g@g", which its scheduler still reads as group g)
            from _pytest.nodeid import NodeId  # noqa: PLC0415  (pytest >= 9.2 only)

            item._id = NodeId.parse(f"{item.nodeid}@{group}")
