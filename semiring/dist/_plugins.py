"""dask.distributed plugins of :mod:`semiring.dist` (imported only where Dask is: this
module imports ``distributed`` at its top, so that the plugins are classes Dask pickles by
reference)."""

from __future__ import annotations

from distributed.diagnostics.plugin import SchedulerPlugin, WorkerPlugin


def scheduler_streams(dask_scheduler=None, interval=0.0):
    """On the scheduler: its batched streams to every worker and client send after
    ``interval`` seconds at most; the count of streams set."""
    streams = (*dask_scheduler.stream_comms.values(), *dask_scheduler.client_comms.values())
    for b in streams:
        b.interval = interval
    return len(streams)


def worker_stream(dask_worker=None, interval=0.0):
    """On a worker: its batched stream to the scheduler sends after ``interval`` at most."""
    dask_worker.batched_stream.interval = interval
    return True


class LowLatencyScheduler(SchedulerPlugin):
    """The scheduler's stream to each worker that joins later sends at once too."""

    name = "semiring-low-latency-scheduler"

    def __init__(self, interval=0.0):
        self.interval = interval

    def add_worker(self, scheduler=None, worker=None):
        b = scheduler.stream_comms.get(worker)
        if b is not None:
            b.interval = self.interval


class LowLatencyWorker(WorkerPlugin):
    """Each worker's stream to the scheduler, on workers started later too."""

    name = "semiring-low-latency-worker"

    def __init__(self, interval=0.0):
        self.interval = interval

    def setup(self, worker=None):
        worker_stream(worker, self.interval)
