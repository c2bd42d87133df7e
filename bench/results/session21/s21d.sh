#!/usr/bin/env bash
# session 21 call 4 (nvidia-h200-x2): aud21's GPU-reachable changes and the dist tests (host
# routes off on the workers), then the rank loops on 2 GPUs with CC's K as a sorted CSR and
# SSSP's rounds against the near-far search at Δ x16
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD NCCL_NVLS_ENABLE=0
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=$PWD:/tmp/site || exit
t0=$(date +%s)
timeout 170 python3 -m pytest -q -p no:cacheprovider -n 24 -rfE tests/test_power_step.py tests/test_pagerank.py tests/test_bfs.py tests/test_bfs_async.py tests/test_audit21.py tests/test_host_routes.py tests/test_dist.py tests/test_dist_spmd_loops.py tests/test_dist_spmd.py tests/test_dist_edges.py tests/test_components.py tests/test_blocks.py > $OUT/tests.log 2>&1; echo "tests rc=$?"; grep "passed\|failed\|FAILED\|ERROR" $OUT/tests.log | tail -12
timeout 40 python3 -m pytest -q -p no:cacheprovider -x tests/test_dist_nccl.py 2>&1 | tail -1
echo "== tests done at $(( $(date +%s) - t0 )) s"
timeout ${T1:-230} python3 bench/probes/spmd_ranks.py --scale 24 --workers 1,2 --variants fused,mirrored,nearfar16 --weak 25:2 --reps 7 --budget ${B:-180} --profile --out $OUT > $OUT/probe.log 2>&1
grep "^T \|ERROR\|Error\|^ \"\|^{\|^}" $OUT/probe.log | tail -60; grep "^P .* cc " $OUT/probe.log | cut -c1-250
echo "== all done at $(( $(date +%s) - t0 )) s"
gzip -9 $OUT/*.log
