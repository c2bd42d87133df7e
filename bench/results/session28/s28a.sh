# Session 28 call 1 (x2): the whole suite on session 27's head (a8ce214; host-side fixes after call 8 never ran on the GPU), then NetworkX's modules through the backend
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl 2>&1 | tail -3
export PYTHONPATH=/tmp/site
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=540 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took|cached kernels" $OUT/all.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
gzip $OUT/pytest.log
