#!/usr/bin/env bash
# The standard verification run on a lent GPU machine (device tool), from the repo root:
#   bash tools/gpu_check.sh [bench-args...]
# Runs the whole test suite on every backend present, then the quick benchmark suite, and
# leaves the logs and the benchmark report under $OUT (or ./gpu-check when $OUT is unset):
# all.log (tests + bench output) and results.tgz (bench/results of this run).
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1 SEMIRING_HYPOTHESIS_PROFILE=noshrink
out=${OUT:-gpu-check}
mkdir -p "$out"
{
  nvidia-smi -L
  python3 -c "import cupy; print('cupy', cupy.__version__, 'cuda runtime', cupy.cuda.runtime.runtimeGetVersion())"
  echo "== tests"
  timeout "${TEST_TIMEOUT:-360}" python3 -m pytest -q -p no:cacheprovider --tb=short --maxfail=20 2>&1 \
    | grep -v "^  /" | tail -80
  echo "== bench"
  timeout "${BENCH_TIMEOUT:-200}" python3 -m bench --out "$out/r" "$@" 2>&1 | tail -60
} 2>&1 | tee "$out/all.log"
if [ -d "$out/r" ]; then tar czf "$out/results.tgz" -C "$out" r && rm -rf "$out/r"; fi
