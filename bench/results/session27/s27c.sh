# Session 27 call 3 (x2): the route tests (Bellman-Ford / Johnson on weights >= 0 take Dijkstra's bounds), the route probe with both bounds forced
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache SEMIRING_HYPOTHESIS_PROFILE=noshrink
echo "== route tests"
PYTHONPATH=. timeout 150 python3 -m pytest -p no:cacheprovider -q -n 16 --tb=short tests/test_csgraph_host_route.py tests/test_csgraph_compiled_dijkstra.py tests/test_csgraph_facade.py > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^ERROR|^E " $OUT/tests.log | head -30
echo "== csgraph route probe"
PYTHONPATH=. timeout 330 python3 bench/probes/csgraph_route.py 7 30000 1000,3000,10000,15000,20000,30000 2>&1 | tee $OUT/route.txt | grep -E "dijkstra|bellman|johnson|shortest|NVIDIA|call"
