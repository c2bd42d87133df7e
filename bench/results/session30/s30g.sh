# Session 30 call 7 (one H200): every caller of the code changed after call 5's whole suite (algorithms.centrality's
# _distance_batches order, the backend's harmonic_centrality): all NetworkX tests, the centrality and host-route tests,
# the package doctests of both, under NetworkX 3.6.1
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
eps=$(python3 tools/checkout_entry_points.py)
PYTHONPATH=.:$eps timeout 240 python3 -m pytest -q -p no:cacheprovider -n 16 tests/test_nx*.py tests/test_centrality.py tests/test_centrality2.py tests/test_centrality3.py tests/test_host_routes.py nx_semiring algorithms/centrality.py 2>&1 | tail -3
