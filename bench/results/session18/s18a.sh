#!/usr/bin/env bash
# session 18 call 1: whole suite on a cold kernel cache (the cache tarball was lost with the old checkout)
if [ -f .wt/req/cupy-cache.tgz ]; then tar xzf .wt/req/cupy-cache.tgz; fi
BENCH=0 GPUS=0 WORKERS=15 TEST_TIMEOUT=${TT:-540} TESTS="-vv --maxfail=200 ${EXTRA:-}" OUT=$OUT/suite bash tools/gpu_check.sh > /dev/null 2>&1
grep -v "^SKIPPED\|PASSED\|^  /" $OUT/suite/all.log | tail -60
