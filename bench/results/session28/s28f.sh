# Session 28 call 6 (x2): the whole suite on the final code (no Dask wheels carried: Dask unchanged this session), then the triangle count against Gunrock
tar xzf .wt/req/cupy-cache.tgz
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=300 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took|cached kernels" $OUT/all.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
rm -f $OUT/cupy-cache.tgz; gzip $OUT/pytest.log
mkdir -p .wt/gr && cp .wt/gunrock-tc/tc .wt/gr/tc && chmod +x .wt/gr/tc
export CUPY_CACHE_DIR=$PWD/.cupy-cache
PYTHONPATH=. timeout 60 python3 -m bench --device gpu --algorithms tc --graphs urand-20,urand-18-ef8,urand-16-ef8,kron-16 --impls semiring-gpu,gunrock --gunrock .wt/gr --out $OUT/tc --no-plots --no-progress > $OUT/tc.log 2>&1; echo "bench rc=$?"
grep -E "vs_gunrock" $OUT/tc/2*.md | head -8
