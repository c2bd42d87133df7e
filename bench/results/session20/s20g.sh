#!/usr/bin/env bash
# session 20 call 8: bfs' host route for small road-like GPU input, triangles' bound 2^16:
# their tests on the GPU, the small suite's BFS and triangle rows on the grids and urand
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
timeout 240 python3 -m pytest -q -p no:cacheprovider --tb=short -n 15 -rfE tests/test_bfs.py tests/test_host_routes.py tests/test_power_step.py tests/test_triangles.py tests/test_triangles3.py -k "not emulated" > $OUT/tests.log 2>&1
echo "tests rc=$?"; grep -v "^  /\|^SKIPPED" $OUT/tests.log | grep "FAILED\|ERROR\|passed\|failed" | tail -15
python3 -m bench --device gpu --suite small --algorithms bfs,tc --graphs grid-100x100,grid-128x128,urand-10-ef4,urand-13-ef4 --out $OUT 2>&1 | grep -v "^  wrote" | grep "^  " | tail -20
gzip -9 $OUT/*.log
