"""One launch each of cuSPARSE's SpMV (``A @ x``), the binned pull and the tiled pull (min-plus,
float32) on one graph, for Nsight Compute to profile (issue 20 item 5: where the pull kernels'
time goes against cuSPARSE's on the same matrix).

    ncu --clock-control none -k regex:"spmv|csr|Csr" --section SpeedOfLight \\
        --section MemoryWorkloadAnalysis python3 bench/probes/spmv_ncu.py kron-22
"""

from __future__ import annotations

import sys

import cupy as cp
import numpy as np

import semiring as sr
from bench import generators as gen
from bench.probes.spmv_probe import launch_bins, launch_tile
from semiring.backend.gpu import spmv as gs


def main():
    g = sys.argv[1] if len(sys.argv) > 1 else "kron-22"
    A = gen.make_graph(gen.parse_graph_spec(g), xp=cp, cache_dir=None)
    x = gen.random_dense_vector(A.shape[0], seed=0, xp=cp)
    M = sr.Matrix.from_cupyx(A)
    n = A.shape[0]
    out = cp.empty(n, dtype=cp.float32)
    opres = cp.empty(n, dtype=cp.bool_)
    fb = gs._kernel("spmv_pull", sr.min_plus, np.float32, M.itype, False)
    ft = gs._kernel("spmv_tile", sr.min_plus, np.float32, M.itype, False)
    st = gs.schedule(M, "spmv_tile")
    gs.schedule(M, "spmv_pull")
    cp.cuda.Device().synchronize()
    y = A @ x
    launch_bins(fb, M, x, sr.min_plus, out, opres)
    launch_bins(fb, M, x, sr.min_plus, out, opres, mode=0)
    launch_tile(ft, M, x, st, out, opres)
    cp.cuda.Device().synchronize()
    print(g, "n", n, "nnz", A.nnz, "sum", float(y.sum()))


if __name__ == "__main__":
    main()
