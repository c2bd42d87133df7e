# Session 30 call 5 (one H200): the whole suite on the final code under NetworkX 3.7 (its wheel carried: what Python 3.12+ installs;
# call 1 ran it under the device's 3.6.1), Dask wheels carried
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl 2>&1 | tail -3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site37 .wt/nx37/networkx-3.7-py3-none-any.whl 2>&1 | tail -3
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
PYTHONPATH=/tmp/site37:/tmp/site python3 -c "import networkx, scipy; print('NetworkX', networkx.__version__, 'SciPy', scipy.__version__)"
PYTHONPATH=/tmp/site37:/tmp/site GPUS=1 WORKERS=16 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=545 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took|cached kernels" $OUT/all.log | grep -v "^  /" | tail -30
rm -f $OUT/cupy-cache.tgz; gzip $OUT/pytest.log
