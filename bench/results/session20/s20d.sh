#!/usr/bin/env bash
# session 20 call 5: a PageRank iteration's steps on the GPU; the host-route tests again
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
python3 bench/probes/pagerank_iteration_gpu.py 200 2>&1 | tail -30
timeout 100 python3 -m pytest -q -p no:cacheprovider --tb=short -n 8 -rfE tests/test_host_routes.py 2>&1 | grep "FAILED\|ERROR\|passed\|failed" | tail -8
