# Session 30 call 3 (one H200): the power iterations' host route (37423c9): the host-route, centrality and NetworkX
# centrality tests on the GPU (NetworkX 3.6.1, then 3.7), and hits_syncs (3.7: the loop, the one-copy variant, the route)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site37 .wt/nx37/networkx-3.7-py3-none-any.whl 2>&1 | tail -3
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
eps=$(python3 tools/checkout_entry_points.py)
T="tests/test_host_routes.py tests/test_centrality.py tests/test_centrality2.py tests/test_centrality3.py tests/test_nx_centrality.py tests/test_nx_nx37.py algorithms/centrality.py nx_semiring/centrality.py"
echo "== NetworkX 3.6.1"; PYTHONPATH=.:$eps timeout 200 python3 -m pytest -q -p no:cacheprovider -n 16 $T 2>&1 | tail -4
echo "== NetworkX 3.7"; PYTHONPATH=/tmp/site37:.:$eps timeout 200 python3 -m pytest -q -p no:cacheprovider -n 16 $T 2>&1 | tail -4
echo "== hits_syncs (NetworkX 3.7)"; PYTHONPATH=/tmp/site37:. timeout 120 python3 bench/probes/hits_syncs.py --scales 10,13,14,17 --reps 9 2>&1 | tee $OUT/hits_syncs.log
