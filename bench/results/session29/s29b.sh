# Session 29 call 2 (x2): the whole suite (Dask wheels carried) on the NetworkX 3.7 changes, then NetworkX.s modules through the backend
python3 -c "import sys, networkx, scipy, numpy; print(\"Python\", sys.version.split()[0], \"NetworkX\", networkx.__version__, \"SciPy\", scipy.__version__, \"NumPy\", numpy.__version__)"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl 2>&1 | tail -3
export PYTHONPATH=/tmp/site
tar xzf .wt/req/cupy-cache.tgz
GPUS=2 WORKERS=28 BENCH=0 MAXFAIL=300 TEST_TIMEOUT=420 bash tools/gpu_check.sh > /dev/null 2>&1
echo "gpu_check rc=$?"
grep -E "^FAILED|^ERROR| passed| failed|took|cached kernels" $OUT/all.log | grep -v "^  /" | tail -40
grep -A3 "several GPUs at once" $OUT/all.log | tail -2
gzip $OUT/pytest.log
mkdir -p /tmp/nxrun && cd /tmp/nxrun && PYTHONPATH=$OLDPWD:$(cd $OLDPWD && python3 tools/checkout_entry_points.py) timeout 100 python3 -m nx_semiring.testing -q -n 16 -p no:cacheprovider > $OUT/nxmods.log 2>&1; echo "nx modules rc=$?"
grep -E "passed|failed|tests through|answered by" $OUT/nxmods.log | tail -4
