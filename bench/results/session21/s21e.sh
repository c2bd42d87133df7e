#!/usr/bin/env bash
# session 21 call 5 (nvidia-h200-x2): CC's join with K's row starts searched, on 1 and 2 GPUs
# (kron-24, kron-25 on 2), and the audit test that failed on the GPU host in call 4
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD NCCL_NVLS_ENABLE=0
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=$PWD:/tmp/site || exit
t0=$(date +%s)
timeout 60 python3 -m pytest -q -p no:cacheprovider -n 8 tests/test_audit21.py tests/test_dist_spmd_loops.py -k "gpu or join or power_step" 2>&1 | tail -1
timeout 150 python3 bench/probes/spmd_ranks.py --scale 24 --workers 1,2 --ops cc,pagerank --variants fused,mirrored --weak 25:2 --reps 7 --budget 120 --profile --out $OUT > $OUT/probe.log 2>&1
grep "^T \|ERROR\|Error\|^ \"\|^{\|^}" $OUT/probe.log | tail -40; grep "^P .* cc " $OUT/probe.log | cut -c1-250
echo "== all done at $(( $(date +%s) - t0 )) s"
gzip -9 $OUT/*.log
