# Session 30 call 8 (one H200, 268 s of budget left: not enough for the whole suite, ~470 s): after the review's
# refactor of the host route (algorithms.pagerank.on_host_copy, used by pagerank and the centralities): every test
# file of the changed code, then hits_syncs (the affected probe)
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
eps=$(python3 tools/checkout_entry_points.py)
PYTHONPATH=.:$eps timeout 130 python3 -m pytest -q -p no:cacheprovider -n 16 tests/test_nx*.py tests/test_centrality.py tests/test_centrality2.py tests/test_centrality3.py tests/test_host_routes.py tests/test_pagerank.py tests/test_pagerank_fused.py tests/test_power_step.py nx_semiring algorithms/centrality.py algorithms/pagerank.py 2>&1 | tail -3
PYTHONPATH=.:$eps timeout 40 python3 bench/probes/hits_syncs.py --scales 10,14 --reps 5 2>&1 | tee $OUT/hits_syncs.log
