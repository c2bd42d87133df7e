# Session 27 call 2 (x2): the Dask tests (call 1 lacked Python 3.12 wheels), the GPU small suite, the csgraph route probe
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl 2>&1 | tail -3
export PYTHONPATH=/tmp/site
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache SEMIRING_HYPOTHESIS_PROFILE=noshrink SEMIRING_TEST_GPUS=2
echo "== dask tests"
PYTHONPATH=.:/tmp/site timeout 250 python3 -m pytest -p no:cacheprovider -q -n 28 --tb=short tests/test_bench_dask.py tests/test_dist*.py > $OUT/dask.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^ERROR" $OUT/dask.log | tail -20
SEMIRING_TEST_GPUS=0 PYTHONPATH=.:/tmp/site timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_dist_nccl.py 2>&1 | tail -2
echo "== small suite"
PYTHONPATH=. timeout 150 python3 -m bench --device gpu --suite small --out $OUT/small > $OUT/small.log 2>&1; echo "rc=$?"
grep -E "^\| (urand|grid|kron)" $OUT/small/*.md | head -80
echo "== csgraph route probe"
PYTHONPATH=. timeout 120 python3 bench/probes/csgraph_route.py 7 30000 2>&1 | tail -40
