# Session 25 call 3 (x2): the triangle tests on the GPU (the listing with its warp pass), the bound probe with warp bounds
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=.:/tmp/site:$(python3 tools/checkout_entry_points.py)
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache SEMIRING_TEST_GPUS=2
echo "== tests"
timeout 120 python3 -m pytest -p no:cacheprovider -q -n 16 --tb=short tests/test_triangles_forward.py tests/test_triangles.py tests/test_triangles3.py tests/test_host_routes.py tests/test_nx_backend.py > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^E " $OUT/tests.log | head -30
echo "== probe"
timeout 250 python3 bench/probes/tc_forward_bound.py urand-10-ef4 urand-13-ef4 urand-16-ef8 urand-18-ef8 grid-100x100 grid-1000x1000 kron-10 kron-12 kron-14 kron-16 kron-17 kron-18 kron-19 2>&1 | tail -20
