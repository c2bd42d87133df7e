# Session 30 call 1 (one H200: the x2 kind was not lent): the whole suite on the head (hits' one-sync loop; session 29's last code had not run whole on the GPU),
# then the launch floor beside SciPy (small_breakdown, issue 21)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl 2>&1 | tail -3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site37 .wt/nx37/networkx-3.7-py3-none-any.whl 2>&1 | tail -3
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
PYTHONPATH=/tmp/site GPUS=1 WORKERS=16 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=470 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took|cached kernels" $OUT/all.log | grep -v "^  /" | tail -20
rm -f $OUT/cupy-cache.tgz; gzip $OUT/pytest.log
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
echo "== small_breakdown"; PYTHONPATH=. timeout 60 python3 bench/probes/small_breakdown.py 200 2>&1 | tee $OUT/small_breakdown.log
