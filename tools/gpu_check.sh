#!/usr/bin/env bash
# The standard verification run on a lent GPU machine (device tool), from the repo root:
#   bash tools/gpu_check.sh [bench-args...]
# Runs the whole test suite on every backend present (pytest-xdist across WORKERS processes
# when it is installed: the device image has it), then `python -m bench` with the given
# arguments (BENCH=0 skips it), and leaves under $OUT (or ./gpu-check when $OUT is unset):
# all.log (tests + bench output), pytest.log (the tests' whole output), results.tgz
# (bench/results of this run) and cupy-cache.tgz, CuPy's compiled kernels. Untar that one
# into the repo root and carry `.cupy-cache` on the next call: a fresh machine then skips the
# NVRTC compiles (minutes of device time). GPUS=n on a machine of n GPUs spreads the xdist
# workers over them (worker k on GPU k mod n; tests/conftest.py) and then runs the tests that
# need several GPUs at once. MAXFAIL (20) caps pytest's failures; a PYTHONPATH already set
# (wheels unpacked under /tmp/site, say) is kept after the repo root.
set -u
export PYTHONPATH=.${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 SEMIRING_HYPOTHESIS_PROFILE=noshrink
export SEMIRING_TEST_GPUS=${GPUS:-0}
export CUPY_CACHE_DIR=${CUPY_CACHE_DIR:-$PWD/.cupy-cache}
out=${OUT:-gpu-check}
# A checkout run (PYTHONPATH=.) has no entry points, so NetworkX would not find the backend and
# its dispatch tests would fail or skip: give it pyproject's entry points in a dist-info of
# their own, outside the tree, unless the package is installed.
if ! python3 -c "from importlib.metadata import entry_points as e; import sys; sys.exit(not any(p.name == 'semiring' for p in e(group='networkx.backends')))" 2>/dev/null; then
  export PYTHONPATH=$PYTHONPATH:$(python3 tools/checkout_entry_points.py)
fi
mkdir -p "$out" "$CUPY_CACHE_DIR"
xdist=()
if python3 -c "import xdist" 2>/dev/null; then xdist=(-n "${WORKERS:-12}"); fi
{
  nvidia-smi -L
  python3 -c "import cupy; print('cupy', cupy.__version__, 'cuda runtime', cupy.cuda.runtime.runtimeGetVersion())"
  echo "== tests ($(ls "$CUPY_CACHE_DIR" | wc -l) cached kernels)"
  t0=$(date +%s)
  # the whole log (tracebacks, Hypothesis' falsifying examples) in $out/pytest.log; its tail here.
  # -v: a line a test as it ends ("[gw3] [ 54%] FAILED tests/..."), so that a run cut by the
  # timeout still names its failures (sessions 21 and 22 lost them with the summary)
  timeout "${TEST_TIMEOUT:-420}" python3 -m pytest -v -p no:cacheprovider --tb=short --maxfail=${MAXFAIL:-20} --durations=15 \
    "${xdist[@]}" ${TESTS:-} > "$out/pytest.log" 2>&1
  grep -E "(FAILED|ERROR) " "$out/pytest.log" | sed -E 's/^\[gw[0-9]+\] \[ *[0-9]+%\] //' | sort -u | head -60
  grep -v "^  /" "$out/pytest.log" | grep -vE " (PASSED|SKIPPED|XFAIL|XPASS|FAILED|ERROR) " | tail -60
  echo "== tests took $(( $(date +%s) - t0 )) s"
  if [ "${GPUS:-0}" -gt 1 ]; then
    echo "== tests that need several GPUs at once (skipped above and without dask)"
    SEMIRING_TEST_GPUS=0 timeout 120 python3 -m pytest -q -p no:cacheprovider --tb=short \
      ${xdist:+-n 0} tests/test_dist_nccl.py 2>&1 | tail -5
  fi
  if [ "${BENCH:-1}" != 0 ]; then
    echo "== bench"
    timeout "${BENCH_TIMEOUT:-200}" python3 -m bench --out "$out/r" "$@" 2>&1 | tail -60
  fi
} 2>&1 | tee "$out/all.log"
if [ -d "$out/r" ]; then tar czf "$out/results.tgz" -C "$out" r && rm -rf "$out/r"; fi
tar czf "$out/cupy-cache.tgz" -C "$(dirname "$CUPY_CACHE_DIR")" "$(basename "$CUPY_CACHE_DIR")"
ls -la "$out"
