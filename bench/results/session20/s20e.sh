#!/usr/bin/env bash
# session 20 call 6: PageRank's fused step (kernels/power.cu) on the GPU: its tests, the
# iteration probe, the small suite's PageRank and triangle rows
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
timeout 200 python3 -m pytest -q -p no:cacheprovider --tb=short -n 15 -rfE tests/test_power_step.py tests/test_pagerank.py tests/test_host_routes.py tests/test_nx_centrality.py tests/test_analytics_awkward3.py tests/test_dist.py -k "not emulated" > $OUT/tests.log 2>&1
echo "tests rc=$?"; grep -v "^  /\|^SKIPPED" $OUT/tests.log | grep "FAILED\|ERROR\|passed\|failed" | tail -15
python3 bench/probes/pagerank_iteration_gpu.py 200 2>&1 | grep "whole\|iterations"
python3 -m bench --device gpu --suite small --algorithms pagerank,tc --out $OUT 2>&1 | grep -v "^  wrote" | grep "^  \|ok\|FAIL" | tail -24
gzip -9 $OUT/*.log
