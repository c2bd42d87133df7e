# Session 29 call 4 (x2): the whole suite on the final code (Dask wheels carried), then the NetworkX fuzzers under NetworkX 3.7 (its wheel carried) on the GPU
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl 2>&1 | tail -3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site37 .wt/nx37/networkx-3.7-py3-none-any.whl 2>&1 | tail -3
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
PYTHONPATH=/tmp/site GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=360 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took|cached kernels" $OUT/all.log | grep -v "^  /" | tail -20
rm -f $OUT/cupy-cache.tgz; gzip $OUT/pytest.log
eps=$(python3 tools/checkout_entry_points.py)
repo=$PWD
mkdir -p /tmp/fz && cd /tmp/fz
export PYTHONPATH=/tmp/site37:$repo:$eps
python3 -c "import networkx, semiring as sr; print('NetworkX', networkx.__version__, 'device', sr.default_device())"
(timeout 170 python3 $repo/bench/probes/aud27_nx_fuzz.py --seeds 150 > $OUT/fz27.log 2>&1; echo "aud27 rc=$?" >> $OUT/fz27.log) &
(timeout 170 python3 $repo/bench/probes/aud28_nx_fuzz.py --seeds 60 > $OUT/fz28.log 2>&1; echo "aud28 rc=$?" >> $OUT/fz28.log) &
(timeout 170 python3 $repo/bench/probes/aud29_nx37.py --seeds 300 > $OUT/fz29.log 2>&1; echo "aud29 rc=$?" >> $OUT/fz29.log) &
wait
for f in $OUT/fz2*.log; do echo "== $f"; tail -6 $f; done
