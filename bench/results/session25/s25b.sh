# Session 25 call 2 (x2): the triangle tests on the GPU (the one-launch forward listing), the bound probe, the small suite
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=.:/tmp/site:$(python3 tools/checkout_entry_points.py)
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache SEMIRING_TEST_GPUS=2
echo "== tests"
timeout 150 python3 -m pytest -p no:cacheprovider -q -n 16 --tb=short tests/test_triangles_forward.py tests/test_triangles.py tests/test_triangles3.py tests/test_host_routes.py tests/test_nx_backend.py tests/test_layout.py > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^E " $OUT/tests.log | head -30
echo "== probe"
timeout 230 python3 bench/probes/tc_forward_bound.py 2>&1 | tail -20
echo "== small suite"
timeout 90 python3 -m bench --device gpu --suite small --out $OUT/small 2>&1 | tail -3
