#!/usr/bin/env bash
# session 16 call 3: compute-sanitizer memcheck (CuPy's pool off: every allocation exact) on
# the tests that surfaced session 15's illegal addresses, then the kept-launch and APSP tests
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 PYTHONPATH=. SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
cat > /tmp/nopool.py <<'PY'
import sys, cupy, pytest
cupy.cuda.set_allocator(None)
cupy.cuda.set_pinned_memory_allocator(None)
sys.exit(pytest.main(sys.argv[1:]))
PY
t0=$(date +%s)
run() {  # name, seconds, pytest args...
  local name=$1 secs=$2; shift 2
  timeout $secs compute-sanitizer --tool memcheck --leak-check no --print-limit 20 \
    python3 /tmp/nopool.py -q -n0 -p no:cacheprovider -x "$@" > $OUT/$name.log 2>&1
  echo "== $name rc=$? at $(( $(date +%s) - t0 )) s"
  grep -m3 "ERROR SUMMARY\|Invalid\|passed\|failed" $OUT/$name.log
}
run nxfw 110 tests/test_nx_inputs.py -k "gpu and (floyd or dijkstra_path_length)"
run facade 110 tests/test_csgraph_facade.py -k "gpu and shortest_path_matches"
run kept 90 tests/test_mxv_kept.py tests/test_small_calls.py -k "gpu or not cpu"
gzip -9 $OUT/*.log
