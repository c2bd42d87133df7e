# Session 30 call 6 (one H200): harmonic_centrality in NetworkX's order (the row loop): the NetworkX and centrality tests
# on the GPU, and its time against the previous code (kept under .wt/old30, an ignored path) on kron-10/12/14
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
eps=$(python3 tools/checkout_entry_points.py)
PYTHONPATH=.:$eps timeout 200 python3 -m pytest -q -p no:cacheprovider -n 16 tests/test_nx_centrality.py tests/test_centrality.py tests/test_centrality2.py tests/test_centrality3.py nx_semiring/centrality.py 2>&1 | tail -2
PYTHONPATH=.:$eps timeout 150 python3 .wt/old30/harm_ab.py 2>&1 | tee $OUT/harmonic_ab.log
