# Session 26 call 6 (x2): the whole suite on the final engine code (the fused PageRank, the facade's cc route)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
tar xzf .wt/req/cupy-cache.tgz
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=530 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took" $OUT/pytest.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
rm -f $OUT/cupy-cache.tgz; gzip $OUT/pytest.log
