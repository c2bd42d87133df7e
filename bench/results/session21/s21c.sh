#!/usr/bin/env bash
# session 21 call 3 (nvidia-h200-x2): GPU tests of the changed code (logs to $OUT), the rank
# loops on 2 GPUs (CC joined on K, counts by read_spans, near-far at Δ x4 and x16), and the
# dask bench suite on 1 and 2 GPU workers
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD NCCL_NVLS_ENABLE=0
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=$PWD:/tmp/site || exit
t0=$(date +%s)
timeout 150 python3 -m pytest -q -p no:cacheprovider -n 16 -rfE -k "gpu or join" tests/test_blocks.py tests/test_components.py tests/test_dist_spmd_loops.py tests/test_dist_spmd.py tests/test_dist.py > $OUT/tests.log 2>&1; echo "tests rc=$?"; grep "passed\|failed" $OUT/tests.log | tail -3
timeout 40 python3 -m pytest -q -p no:cacheprovider -x tests/test_dist_nccl.py 2>&1 | tail -1
echo "== tests done at $(( $(date +%s) - t0 )) s"
timeout ${T1:-260} python3 bench/probes/spmd_ranks.py --scale 24 --workers 1,2 --variants fused,mirrored,nearfar,nearfar16 --weak 25:2 --reps 5 --budget ${B:-200} --profile --out $OUT > $OUT/probe.log 2>&1
grep "^T \|ERROR\|Error\|^ \"\|^{\|^}" $OUT/probe.log | tail -60; grep "^P .* cc \|^P .*sssp" $OUT/probe.log | tail -24 | cut -c1-330
echo "== probe done at $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m bench --suite dask --device gpu --graphs kron-24,kron-25 --impls in-process-gpu,dask-gpu-1,dask-gpu-2 --no-plots --no-progress --no-cache --out $OUT/bench > $OUT/bench.log 2>&1; echo "bench rc=$?"; grep "^|" $OUT/bench/*.md | head -40
echo "== all done at $(( $(date +%s) - t0 )) s"
gzip -9 $OUT/*.log
