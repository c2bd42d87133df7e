# Session 26 call 11 (h200): the fused PageRank's tests after the warp-sum helper; NetworkX's own PageRank and clustering tests through the backend on the GPU
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache PYTHONPATH=.:$(python3 tools/checkout_entry_points.py)
timeout 60 python3 -m pytest -p no:cacheprovider -q -n 8 tests/test_pagerank_fused.py tests/test_pagerank.py 2>&1 | tail -1
python3 -c "import semiring as sr; print('gpu', sr.gpu_available())"
timeout 150 python3 -m nx_semiring.testing --modules=networkx.algorithms.link_analysis.tests.test_pagerank,networkx.algorithms.tests.test_cluster -q -n 8 2>&1 | tail -25
