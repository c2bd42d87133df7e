# Session 26 call 2 (h200): the fused PageRank's tests, the pagerank tests, then the bound probe
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache PYTHONPATH=.
echo "== tests"
timeout 200 python3 -m pytest -p no:cacheprovider -q -n 8 --tb=short tests/test_pagerank_fused.py tests/test_pagerank.py tests/test_host_routes.py > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^E " $OUT/tests.log | head -40
echo "== probe"
timeout 200 python3 bench/probes/pagerank_fused_bound.py urand-10-ef4 urand-13-ef4 urand-16-ef8 grid-100x100 kron-12 kron-16 urand-18-ef8 grid-1000x1000 kron-18 urand-20-ef16 2>&1 | tail -14
