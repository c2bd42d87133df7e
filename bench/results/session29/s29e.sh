# Session 29 call 5 (x2): after the iteration watch (nx_semiring.centrality): our NetworkX tests on the GPU under NetworkX 3.6.1 and 3.7, and the fuzzer for the power-iteration centralities under 3.7
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site37 .wt/nx37/networkx-3.7-py3-none-any.whl 2>&1 | tail -3
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
eps=$(python3 tools/checkout_entry_points.py)
repo=$PWD
PYTHONPATH=$repo:$eps timeout 120 python3 -m pytest -q -p no:cacheprovider -n 16 tests/test_nx*.py > $OUT/nx36_tests.log 2>&1; echo "3.6 tests rc=$?"; tail -1 $OUT/nx36_tests.log
PYTHONPATH=/tmp/site37:$repo:$eps timeout 120 python3 -m pytest -q -p no:cacheprovider -n 16 tests/test_nx*.py > $OUT/nx37_tests.log 2>&1; echo "3.7 tests rc=$?"; tail -1 $OUT/nx37_tests.log
mkdir -p /tmp/fz && cd /tmp/fz
PYTHONPATH=/tmp/site37:$repo:$eps timeout 100 python3 $repo/bench/probes/aud27_nx_fuzz.py --seeds 150 --only katz_centrality_numpy,eigenvector_centrality_numpy,hits,katz_centrality > $OUT/fz27.log 2>&1; echo "aud27 rc=$?"
tail -8 $OUT/fz27.log
