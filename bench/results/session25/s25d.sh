# Session 25 call 4 (x2): the whole suite on the final code (the forward listing), then the GPU small suite
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
tar xzf .wt/req/cupy-cache.tgz
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=430 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took" $OUT/pytest.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
rm -f $OUT/cupy-cache.tgz; gzip $OUT/pytest.log
echo "== small suite"
PYTHONPATH=.:/tmp/site timeout 60 python3 -m bench --device gpu --suite small --out $OUT/small > $OUT/small.log 2>&1; echo "rc=$?"; tail -2 $OUT/small.log
rm -f $OUT/small/*.png
