#!/usr/bin/env bash
# session 21 call 2 (nvidia-h200-x2): the changed kernels' and loops' GPU tests, then the rank
# loops on 2 GPUs again: CC by Afforest's roots and the joined forests (K), SSSP's pull round
# as a stream (RELAX_PULL 'stream' against 'lanes') and the near-far loop
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD NCCL_NVLS_ENABLE=0
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=$PWD:/tmp/site || exit
t0=$(date +%s)
timeout 150 python3 -m pytest -q -p no:cacheprovider -n 16 -k "gpu or join" tests/test_blocks.py tests/test_components.py tests/test_dist_spmd_loops.py tests/test_dist_spmd.py 2>&1 | grep -v "^  \|warn" | tail -8
timeout 40 python3 -m pytest -q -p no:cacheprovider -x tests/test_dist_nccl.py 2>&1 | tail -2
echo "== tests done at $(( $(date +%s) - t0 )) s"
timeout ${T1:-300} python3 bench/probes/spmd_ranks.py --scale 24 --workers 1,2 --variants fused,mirrored,nearfar,lanes --weak 25:2 --reps 5 --budget ${B:-220} --profile --out $OUT 2>&1 | grep "^T \|^P \|ERROR\|Error\|^ \"\|^{\|^}" | tail -80
echo "== all done at $(( $(date +%s) - t0 )) s"
