# Session 26 call 4 (h200): the PageRank tests after the kernel's shuffle sums, the fused call's cost (a sweep's slope), the bound probe
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache PYTHONPATH=.:$(python3 tools/checkout_entry_points.py)
echo "== tests"
timeout 300 python3 -m pytest -p no:cacheprovider -q -n 12 --tb=short tests/test_pagerank_fused.py tests/test_pagerank.py tests/test_host_routes.py tests/test_power_step.py tests/test_nx_centrality.py tests/test_nx_backend.py tests/test_analytics_awkward3.py tests/test_aud24.py tests/test_audit21.py tests/test_flags24.py tests/test_nx_inputs.py > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^E " $OUT/tests.log | head -30
echo "== profile"
timeout 100 python3 .wt/pr_profile.py 2>&1 | grep -v "^ " | head -8
echo "== probe"
timeout 200 python3 bench/probes/pagerank_fused_bound.py urand-10-ef4 urand-13-ef4 urand-16-ef8 grid-100x100 kron-12 kron-16 urand-18-ef8 grid-1000x1000 kron-18 2>&1 | tail -12
