# Session 28 call 4 (x2): the final triangle policy: triangle and nx-triangle tests, the bench against Gunrock, the small suite's tc rows
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache SEMIRING_HYPOTHESIS_PROFILE=noshrink
mkdir -p .wt/gr && cp .wt/gunrock-tc/tc .wt/gr/tc && chmod +x .wt/gr/tc
echo "== triangle tests"
PYTHONPATH=.:$(python3 tools/checkout_entry_points.py) SEMIRING_TEST_EXAMPLES=300 timeout 150 python3 -m pytest -p no:cacheprovider -q -n 16 --tb=short tests/test_triangles*.py tests/test_truss2.py tests/test_nx_analytics2.py tests/test_nx_centrality.py tests/test_nx_should_run23.py > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "passed|failed|^FAILED|^ERROR|^E " $OUT/tests.log | head -20
echo "== bench tc with gunrock"
PYTHONPATH=. timeout 150 python3 -m bench --device gpu --algorithms tc --graphs urand-20,urand-18-ef8,urand-16-ef8,kron-16 --impls semiring-gpu,gunrock --gunrock .wt/gr --out $OUT/tc --no-plots --no-progress > $OUT/tc.log 2>&1; echo "rc=$?"
grep -E "^\| (urand|kron)|vs_gunrock" $OUT/tc/2*.md | head -20
echo "== small suite, tc"
PYTHONPATH=. timeout 100 python3 -m bench --device gpu --suite small --algorithms tc --out $OUT/small --no-plots --no-progress > $OUT/small.log 2>&1; echo "rc=$?"
grep -E "^\| (urand|grid)" $OUT/small/2*.md | head -20
