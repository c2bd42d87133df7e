#!/usr/bin/env bash
# session 20 call 4: PageRank's leaner GPU iteration, triangles' host route and to_dense's
# scalar: their tests on the GPU, the small suite's analytics rows and the probe
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
timeout 200 python3 -m pytest -q -p no:cacheprovider --tb=short -n 15 -rfE tests/test_pagerank.py tests/test_host_routes.py tests/test_triangles.py tests/test_triangles3.py tests/test_nx_centrality.py tests/test_analytics_awkward3.py > $OUT/tests.log 2>&1
echo "tests rc=$?"; grep -v "^  /\|^SKIPPED" $OUT/tests.log | grep "FAILED\|ERROR\|passed\|failed" | tail -15
python3 bench/probes/small_analytics_gpu.py 30 2>&1 | grep -v "^ " | grep ms
python3 -m bench --device gpu --suite small --algorithms pagerank,tc,cc --out $OUT 2>&1 | grep -v "^  wrote" | grep "^  \|ok\|FAIL" | tail -40
gzip -9 $OUT/*.log
