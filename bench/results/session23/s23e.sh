# Session 23 call 6 (x2): the whole suite on merged main (every helper), then mg23's kept-launch timing
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
tar xzf .wt/req/cupy-cache.tgz
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took" $OUT/pytest.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
export PYTHONPATH=$PWD:/tmp/site NCCL_NVLS_ENABLE=0 CUPY_CACHE_DIR=$PWD/.cupy-cache
timeout 70 python3 bench/probes/peer_bfs_time.py --scales 24 --sources 6 --reps 3 --devices own --kept-launch --no-fused --no-one-worker 2>&1 | grep -E "RESULT|STEPS|Error|error" | tail -5
rm -f $OUT/cupy-cache.tgz; gzip $OUT/pytest.log
