#!/usr/bin/env bash
# nx23 (session 23): re-measure should_run's GPU constants (nx_semiring/interface.py:
# ENGINE_COST["gpu"], NX_LARGE_GRAPH_FACTOR; written on the H100 host, kept unchanged by
# session 23, whose CPU-host numbers are bench/results/session23/nx23_should_run.md).
# Run on the H200 machine from the repository root (the tree copied, not installed), under
# 3 minutes: bench/probes/nx_should_run.py with the engine on the GPU, Kronecker graphs and
# grids from 10^3 to 10^5 nodes, every family but label propagation and modularity (whose
# probe partition is NetworkX's label propagation: minutes on a grid). The table streams to
# $OUT/nx23_gpu_should_run.md row by row (a timeout keeps what was measured); the fits at its
# end are the numbers for ENGINE_COST["gpu"] ("engine warm" / "first call" fixed + per unit)
# and, against the CPU host's, NetworkX's per unit on this host.
set -u
export PYTHONPATH=.${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
# NetworkX's entry points for a checkout run (tools/gpu_check.sh does the same)
export PYTHONPATH=$PYTHONPATH:$(python3 tools/checkout_entry_points.py)
OUT=${OUT:-/tmp}
python3 -c "import semiring as sr; print('device', sr.default_device())"
timeout 170 python3 bench/probes/nx_should_run.py --kron 10,12,14 --grid 32,100,300 \
    --families bfs,bfs_order,components,sssp,bellman_ford,pagerank,bc,edge_bc,triangles,core,louvain,mst,apsp_bfs,fw,k_truss,flow,degree \
    --reps 2 --max-nx-seconds 1 --all-pairs-max-n 1024 > "$OUT/nx23_gpu_should_run.md" 2>&1
echo "rc=$? ($OUT/nx23_gpu_should_run.md)"
tail -25 "$OUT/nx23_gpu_should_run.md"
