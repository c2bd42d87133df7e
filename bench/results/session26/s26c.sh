# Session 26 call 3 (h200): the PageRank tests (fused, loop, host route, NetworkX), the fused call's host cost
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache PYTHONPATH=.
echo "== tests"
timeout 300 python3 -m pytest -p no:cacheprovider -q -n 12 --tb=short tests/test_pagerank_fused.py tests/test_pagerank.py tests/test_host_routes.py tests/test_power_step.py tests/test_nx_centrality.py tests/test_nx_backend.py tests/test_analytics_awkward3.py tests/test_aud24.py tests/test_audit21.py tests/test_flags24.py tests/test_cpu_route23.py tests/test_nx_inputs.py > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^E " $OUT/tests.log | head -40
echo "== profile"
timeout 100 python3 .wt/pr_profile.py 2>&1 | head -60
