# Session 25 call 1 (x2): the host-route test at 400 examples with long tracebacks, the TC host-bound probe, then the whole suite
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
echo "== host route 400 examples"
SEMIRING_TEST_EXAMPLES=400 PYTHONPATH=.:/tmp/site timeout 100 python3 -m pytest -p no:cacheprovider -q -n 8 --tb=long tests/test_csgraph_host_route.py tests/test_csgraph_facade.py > $OUT/hostroute.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^E " $OUT/hostroute.log | head -40
echo "== tc host bound"
PYTHONPATH=. timeout 60 python3 bench/probes/tc_host_bound.py urand-12-ef4 urand-13-ef4 grid-100x100 grid-160x160 kron-11 kron-12 urand-13-ef3 2>&1 | tail -12
echo "== suite"
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=440 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took" $OUT/pytest.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
gzip $OUT/pytest.log
