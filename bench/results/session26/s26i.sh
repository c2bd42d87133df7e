# Session 26 call 9 (h200): the csgraph tests on GPU after the pinned copy down; the route's steps again
export PYTHONPATH=.
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
timeout 200 python3 -m pytest -p no:cacheprovider -q -n 14 --tb=short tests/test_csgraph*.py > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^E " $OUT/tests.log | head -20
timeout 60 python3 bench/probes/csgraph_route_split.py 200 2>&1 | tail -6
timeout 60 python3 bench/probes/csgraph_route.py 7 3000 2>&1 | grep -E "^dijkstra  |connected|breadth_first_order"
