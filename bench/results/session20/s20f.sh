#!/usr/bin/env bash
# session 20 call 7: the tests of call 6 again (power_step's checks, its test on the right
# device); the small suite on a 100 x 100 grid (n = 10^4, diameter 198)
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
timeout 200 python3 -m pytest -q -p no:cacheprovider --tb=short -n 15 -rfE tests/test_power_step.py tests/test_pagerank.py tests/test_host_routes.py tests/test_nx_centrality.py tests/test_analytics_awkward3.py tests/test_dist.py -k "not emulated" > $OUT/tests.log 2>&1
echo "tests rc=$?"; grep -v "^  /\|^SKIPPED" $OUT/tests.log | grep "FAILED\|ERROR\|passed\|failed" | tail -15
python3 -m bench --device gpu --suite small --graphs grid-100x100 --out $OUT 2>&1 | grep -v "^  wrote" | grep "^  \|ok\|FAIL" | tail -60
gzip -9 $OUT/*.log
