# Session 29 call 3 (x2): our NetworkX tests and NetworkX's dispatched modules under NetworkX 3.7 (its wheel carried) on the GPU (the device has NetworkX 3.6.1)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site37 .wt/nx37/networkx-3.7-py3-none-any.whl 2>&1 | tail -3
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
eps=$(python3 tools/checkout_entry_points.py)
export PYTHONPATH=/tmp/site37:$PWD:$eps
python3 -c "import sys, networkx, scipy; print('Python', sys.version.split()[0], 'NetworkX', networkx.__version__, 'SciPy', scipy.__version__)"
timeout 300 python3 -m pytest -q -p no:cacheprovider -n 16 tests/test_nx*.py tests/test_csgraph_scipy118.py > $OUT/nx37_tests.log 2>&1; echo "tests rc=$?"
tail -3 $OUT/nx37_tests.log
mkdir -p /tmp/nxrun && cd /tmp/nxrun && timeout 150 python3 -m nx_semiring.testing -q -n 16 -p no:cacheprovider > $OUT/nx37_mods.log 2>&1; echo "nx modules rc=$?"
grep -E "passed|failed|tests through|answered by" $OUT/nx37_mods.log | tail -4
