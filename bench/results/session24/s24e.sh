# Session 24 call 5 (x2): the whole suite on merged main (nx24, flags24, cpu24 and the lead's), then the small GPU suite (the plain mxv path changed)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
tar xzf .wt/req/cupy-cache.tgz
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=450 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took" $OUT/pytest.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
PYTHONPATH=$PWD:/tmp/site CUPY_CACHE_DIR=$PWD/.cupy-cache timeout 90 python3 -m bench --device gpu --suite small --out $OUT/small > $OUT/small.log 2>&1; echo "small rc=$?"
grep -hE "^\| urand" $OUT/small/latest.md | grep -E "semiring-gpu|scipy" | head -40
rm -f $OUT/cupy-cache.tgz $OUT/small/*.png $OUT/small/2026*; gzip $OUT/pytest.log
