# Session 22's final device call (x2): the whole suite on merged main, the multi-GPU tests,
# NetworkX's test modules of the dispatched functions through the backend on a GPU host.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
tar xzf .wt/req/cupy-cache.tgz
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=${TEST_TIMEOUT:-330} bash tools/gpu_check.sh > /dev/null 2>&1
grep -E "^FAILED|^ERROR| passed| failed|took" $OUT/pytest.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
export PYTHONPATH=$PWD:/tmp/site:$(python3 tools/checkout_entry_points.py) CUPY_CACHE_DIR=$PWD/.cupy-cache
(cd /tmp && timeout ${NX_TIMEOUT:-75} python3 -m nx_semiring.testing -q -n 16 -p no:cacheprovider > $OUT/nxmods.log 2>&1; echo "nx modules rc=$?")
grep -E "[0-9]+ passed|failed|tests through|not called" $OUT/nxmods.log | head -5
rm -f $OUT/cupy-cache.tgz; gzip $OUT/pytest.log $OUT/nxmods.log
