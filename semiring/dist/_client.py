"""Dask clients and clusters: the lazy import of the optional extra, a default client, and
local clusters of CPU processes or of one process per GPU."""

from __future__ import annotations

import os

import semiring as sr

EXTRA_HINT = ('semiring.dist needs dask.distributed: pip install "semiring[dask]" '
              '(or pip install "dask[distributed]")')


def require_distributed():
    """The ``distributed`` module, or :class:`semiring.BackendUnavailable` naming the extra."""
    try:
        import distributed  # noqa: PLC0415 (optional: the dask extra)
    except ImportError as err:
        raise sr.BackendUnavailable(f"{EXTRA_HINT}: {err}") from err
    return distributed


def _package_root() -> str:
    """The folder that holds the ``semiring`` package (workers must import it from there)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(sr.__file__)))


def _worker_environment(extra=None) -> dict:
    """Environment for worker processes: this package importable, NVLink multicast off."""
    root = _package_root()
    path = os.environ.get("PYTHONPATH", "")
    parts = [p for p in path.split(os.pathsep) if p]
    if root not in parts:
        parts.insert(0, root)
    env = {"PYTHONPATH": os.pathsep.join(parts), "NCCL_NVLS_ENABLE": "0"}
    if extra:
        env.update(extra)
    return env


def local_cluster(n_workers: int = 2, *, threads_per_worker: int = 1, device: str = "cpu",
                  processes: bool = True, low_latency: bool = True, **kwargs):
    """A local cluster of worker processes and a client connected to it.

    Parameters
    ----------
    n_workers : int
        Worker processes: on the CPU, one process each (``processes=True``); on the GPU, one
        process per GPU, GPU ``i`` seen alone by worker ``i`` (``CUDA_VISIBLE_DEVICES=i``;
        :data:`GPU_WORKER_DEVICES` "rotated": ``i`` first, then the others, as dask-cuda's
        ``LocalCUDACluster`` does) without needing dask-cuda; more workers than GPUs share
        them round-robin.
    threads_per_worker : int
    device : {'cpu', 'gpu'}
        Where the workers' partitions live by default.
    processes : bool
        ``False``: CPU workers as threads of this process (quick to start: examples, small
        jobs); GPU workers are always processes.
    low_latency : bool
        Send every message at once (:func:`reduce_latency`) rather than batching them at
        dask.distributed's fixed intervals: a task's round trip falls from about 10 ms to
        the scheduler's own cost.
    **kwargs
        Passed to ``distributed.LocalCluster`` (CPU) or ``distributed.SpecCluster`` (GPU);
        ``memory_limit`` (each worker's host memory, e.g. ``"64GiB"``, 0 for none) to the
        workers, by default the host's memory divided among them
        (:data:`GPU_WORKER_MEMORY`).

    In a script, make the cluster under ``if __name__ == "__main__":``: Dask starts its worker
    processes by spawning, which imports the main module again.

    Returns
    -------
    distributed.Client
        ``client.cluster`` is the cluster; close both with ``client.close(); cluster.close()``
        (or ``with local_cluster(...) as client:``, which closes the client only).

    Examples
    --------
    >>> from semiring import dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> len(client.nthreads())
    2
    >>> client.close(); client.cluster.close()
    """
    distributed = require_distributed()
    if not isinstance(n_workers, int) or isinstance(n_workers, bool) or n_workers < 1:
        raise sr.InvalidValue(f"local_cluster: n_workers must be a positive int, got {n_workers!r}")
    if device not in ("cpu", "gpu"):
        raise sr.InvalidValue(f"local_cluster: device must be 'cpu' or 'gpu', got {device!r}")
    if device == "gpu" and not processes:
        raise sr.InvalidValue("local_cluster: GPU workers are processes (one per GPU); "
                              "processes=False applies to device='cpu'")
    env = _worker_environment({"SEMIRING_BACKEND": device})
    # spawned worker processes inherit os.environ at their start
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        if device == "cpu":
            if processes:
                kwargs.setdefault("host", "127.0.0.1")  # a local cluster talks over loopback only
            kwargs.setdefault("dashboard_address", None)
            kwargs.setdefault("silence_logs", 40)
            cluster = distributed.LocalCluster(n_workers=n_workers, processes=bool(processes),
                                               threads_per_worker=threads_per_worker, **kwargs)
        else:
            cluster = _gpu_cluster(distributed, n_workers, threads_per_worker, env, **kwargs)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    client = distributed.Client(cluster)
    if low_latency:
        reduce_latency(client)
    return client


#: Seconds between two sends on one of dask.distributed's batched message streams after
#: :func:`reduce_latency` (its own: client -> scheduler 10 ms, scheduler -> worker 5 ms,
#: worker -> scheduler and scheduler -> client 2 ms; ``BatchedSend(interval=...)``, fixed in
#: its code, not in its config). A message that finds its stream sent to less than an
#: interval ago waits for the rest of it, and a task's round trip meets two such waits or more
#: (the release of the previous result, then the new task, on the same streams): about 10 ms
#: a round trip on a local cluster, whatever the work (bench/probes/dask_latency.py).
LOW_LATENCY_INTERVAL = 0.0


def reduce_latency(client, interval: float = LOW_LATENCY_INTERVAL):
    """Make ``client``'s cluster send each message as it comes rather than in batches.

    dask.distributed batches the small messages between client, scheduler and workers and
    sends each stream's batch at most once per interval (10, 5 and 2 ms, fixed in its code):
    on a cluster of one machine these waits, not the work, set the round trip of a task
    (about 10 ms). This sets the intervals of the client's stream, of the scheduler's
    streams to its workers and clients, and of every worker's stream to ``interval``
    seconds, and keeps them so on workers that join later (a plugin). Small tasks then cost
    the scheduler's own time (1-4 ms on a loaded 2-core host); messages are no longer
    grouped, which costs more writes when thousands of tasks are submitted at once.

    Parameters
    ----------
    client : distributed.Client
    interval : float, seconds (>= 0)

    Returns
    -------
    distributed.Client
        ``client``.

    Examples
    --------
    >>> from semiring import dist
    >>> client = dist.local_cluster(1, processes=False, low_latency=False)
    >>> dist.reduce_latency(client) is client
    True
    >>> client.scheduler_comm.interval
    0.0
    >>> client.close(); client.cluster.close()
    """
    distributed = require_distributed()
    client = get_client(client)
    if isinstance(interval, bool) or not isinstance(interval, (int, float)) or not interval >= 0:
        raise sr.InvalidValue(f"reduce_latency: interval must be a number of seconds >= 0, got "
                              f"{interval!r}")
    interval = float(interval)
    from . import _plugins as P  # noqa: PLC0415 (imports distributed: the optional extra)

    if client.scheduler_comm is not None:
        client.scheduler_comm.interval = interval
    client.run_on_scheduler(P.scheduler_streams, interval=interval)
    client.run(P.worker_stream, interval=interval)
    client.register_plugin(P.LowLatencyScheduler(interval))
    client.register_plugin(P.LowLatencyWorker(interval))
    del distributed
    return client


#: Each GPU worker's host-memory limit (its nanny restarts it at 95 %): "auto" is the host's
#: memory divided among the workers, as ``distributed.LocalCluster`` (and dask-cuda's
#: ``LocalCUDACluster``) set it: ``parse_memory_limit("auto", 1, n_workers)``. A Nanny left
#: to its own default divides by the host's *cores* instead (``nthreads / cpu_count``): 8 GiB
#: for a one-thread GPU worker on the 64-core, 512 GiB 4 x H200 host, where assembling kron-22
#: (128 M entries) through host pieces was killed on all four workers in turn (KilledWorker,
#: 2026-11-28, /work/gpuq/dask4_base_18000.log; the nanny's warning is below the silenced
#: log level). ``local_cluster(..., memory_limit=...)`` sets another (0: none).
GPU_WORKER_MEMORY = "auto"

#: What a GPU worker sees (``CUDA_VISIBLE_DEVICES``): "own" -- its GPU alone; "rotated" --
#: its GPU first (device 0 still), then the cluster's other GPUs, as dask-cuda's
#: ``LocalCUDACluster`` sets it: the peers' GPUs visible, so that a rank can ask the driver
#: for peer access to them (:meth:`semiring.dist._mesh.Rank.peer_memory`; with "own" the
#: opening of a peer's IPC handle is the test, which CUDA allows for devices a process does
#: not see).
GPU_WORKER_DEVICES = "own"
GPU_WORKER_DEVICES_CHOICES = ("own", "rotated")


def _visible(g, gpus, devices):
    """A worker's ``CUDA_VISIBLE_DEVICES`` (:data:`GPU_WORKER_DEVICES`)."""
    if devices not in GPU_WORKER_DEVICES_CHOICES:
        raise sr.InvalidValue(f"semiring.dist._client.GPU_WORKER_DEVICES must be one of "
                              f"{GPU_WORKER_DEVICES_CHOICES}, got {devices!r}")
    if devices == "own":
        return g
    return ",".join([g] + [x for x in dict.fromkeys(gpus) if x != g])


def _gpu_worker_specs(distributed, gpus, threads_per_worker, env, host, memory_limit,
                      devices=None):
    """The SpecCluster worker specs: one Nanny per entry of ``gpus`` (the GPU it sees first,
    or alone: ``devices``, default :data:`GPU_WORKER_DEVICES`), each with its share of the
    host's memory (:data:`GPU_WORKER_MEMORY`)."""
    import logging  # noqa: PLC0415 (parse_memory_limit's warnings go to a logger)

    from distributed.worker_memory import parse_memory_limit  # noqa: PLC0415 (optional extra)

    devices = GPU_WORKER_DEVICES if devices is None else devices
    limit = parse_memory_limit(memory_limit, 1, len(gpus),
                               logger=logging.getLogger("semiring.dist"))
    return {
        f"gpu-{i}": {"cls": distributed.Nanny,
                     "options": {"nthreads": threads_per_worker,
                                 "env": dict(env, CUDA_VISIBLE_DEVICES=_visible(g, gpus,
                                                                               devices)),
                                 "name": f"gpu-{i}", "host": host,
                                 "memory_limit": 0 if limit is None else limit,
                                 "silence_logs": 40}}
        for i, g in enumerate(gpus)}


def _gpu_cluster(distributed, n_workers, threads_per_worker, env, **kwargs):
    """One worker process per GPU, each seeing its own GPU only (dask-cuda's layout)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible:
        gpus = [g for g in visible.split(",") if g]
    else:
        try:
            import cupy  # noqa: PLC0415 (GPU only)
            count = cupy.cuda.runtime.getDeviceCount()
        except Exception as err:  # no CUDA here: say so
            raise sr.BackendUnavailable(f"local_cluster: device='gpu' needs CuPy and a GPU: {err}") from err
        gpus = [str(i) for i in range(count)]
    if not gpus:
        raise sr.BackendUnavailable("local_cluster: device='gpu' but no GPU is visible")
    # more workers than GPUs share them round-robin (for tests; one per GPU is the layout)
    gpus = [gpus[i % len(gpus)] for i in range(n_workers)]
    host = kwargs.pop("host", "127.0.0.1")  # a local cluster talks over loopback only
    scheduler = {"cls": distributed.Scheduler,
                 "options": {"dashboard_address": kwargs.pop("dashboard_address", None),
                             "host": host}}
    workers = _gpu_worker_specs(distributed, gpus, threads_per_worker, env, host,
                                kwargs.pop("memory_limit", GPU_WORKER_MEMORY))
    kwargs.setdefault("silence_logs", 40)
    return distributed.SpecCluster(scheduler=scheduler, workers=workers, **kwargs)


def get_client(client=None):
    """``client`` when given, else the current default ``distributed.Client`` (the last one
    made in this process); raises :class:`semiring.InvalidValue` when there is none."""
    distributed = require_distributed()
    if client is not None:
        if not isinstance(client, distributed.Client):
            raise sr.DomainMismatch(f"semiring.dist: client must be a distributed.Client, got "
                                    f"{type(client).__name__}")
        check_open(client, "client")
        return client
    try:
        return distributed.get_client()
    except ValueError as err:
        raise sr.InvalidValue("semiring.dist: no dask client: pass client=..., make one with "
                              "distributed.Client(...) or semiring.dist.local_cluster()") from err


def check_open(client, arg: str, op: str = "semiring.dist"):
    """``client`` itself, unless it is closed or closing.

    Parameters
    ----------
    client : distributed.Client
    arg : str
        How the error names it (``"client"``, ``"A's client"``).
    op : str
        The operation, first in the error's message.

    Raises
    ------
    semiring.InvalidValue
        For a closed (or closing) client: rather than an AttributeError of its scheduler's
        missing state, Dask's ClosedClientError or a mesh socket's ConnectionError, by
        whichever path the call happened to take first (the SPMD mesh's sockets outlive the
        client, so some calls ran on).
    """
    status = getattr(client, "status", None)
    if status in ("closing", "closed"):
        raise sr.InvalidValue(f"{op}: {arg} is {status} (status {status!r}, expected "
                              f"'running'): make a new client and build the matrix on it")
    return client
