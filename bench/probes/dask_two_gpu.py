"""Issue 18 on two GPUs: :mod:`dask_multi_gpu` with ``--workers 1,2`` (its sections, checks,
budget and table), kept under this name and argument form for the runs recorded in
``bench/results/20261128-dask_two_gpu_h200.md``.

    PYTHONPATH=. python3 bench/probes/dask_two_gpu.py --out DIR [--scales 22,24,25] [--budget 480]

``--scales base,strong,weak``: the weak scale runs on the two workers; the strong scaling's two
workers are also timed over TCP. Writes ``DIR/dask_two_gpu.json`` and ``DIR/dask_two_gpu.txt``.
Any other argument is :mod:`dask_multi_gpu`'s.
"""

from __future__ import annotations

import sys

from bench.probes import dask_multi_gpu

if __name__ == "__main__":
    argv = sys.argv[1:]
    if not any(a.startswith("--scales") for a in argv):
        argv = ["--scales", "22,24,25"] + argv
    dask_multi_gpu.main(["--workers", "1,2", "--name", "dask_two_gpu"] + argv)
