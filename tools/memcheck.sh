#!/usr/bin/env bash
# compute-sanitizer memcheck over GPU test files, on a lent GPU machine (device tool):
#   bash tools/memcheck.sh tests/test_dense.py tests/test_apsp.py ...
# One sanitizer process per file, JOBS at a time (memcheck under pytest-xdist never got its
# workers started in 200 s, session 16), each test run with -n0 on the GPU parameters only,
# CuPy's pool replaced by exact allocations (tools/memcheck_alloc.py), SEMIRING_TEST_EXAMPLES
# (default 8) Hypothesis examples a test, TIMEOUT seconds a file (default 240). Leaves under
# $OUT (or ./memcheck): one log per file, and prints each kernel with invalid accesses, how
# many, and the Python frames of its first launch.
set -u
export PYTHONPATH=.:tools PYTHONUNBUFFERED=1 SEMIRING_HYPOTHESIS_PROFILE=noshrink
export SEMIRING_TEST_EXAMPLES=${SEMIRING_TEST_EXAMPLES:-8}
out=${OUT:-memcheck}/memcheck
mkdir -p "$out"
printf '%s\n' "$@" | xargs -P "${JOBS:-8}" -I{} sh -c '
  f={}; log='"$out"'/$(basename "$f" .py).log
  timeout '"${TIMEOUT:-240}"' compute-sanitizer --tool memcheck --leak-check no --print-limit 10 \
    python3 -m pytest -q -n0 -p memcheck_alloc -p no:cacheprovider --tb=line \
    -k "gpu or not cpu" "$f" > "$log" 2>&1
  echo "$f: rc=$? $(grep -m1 "ERROR SUMMARY" "$log")"'
python3 - "$out" <<'PY'
import collections, glob, re, sys
first, count = {}, collections.Counter()
for f in sorted(glob.glob(sys.argv[1] + "/*.log")):
    lines = open(f, errors="replace").read().splitlines()
    for i, line in enumerate(lines):
        if re.search(r"Invalid __(global|shared|local)__", line) and i + 1 < len(lines):
            k = re.sub(r"\+0x[0-9a-f]+$", "", lines[i + 1].strip("= "))
            count[k] += 1
            if k not in first:
                py = [x.split("Host Frame:")[1].strip() for x in lines[i:i + 90]
                      if "Host Frame:" in x and ".py:" in x][:8]
                first[k] = (f, [x.strip("= ") for x in lines[i:i + 5]], py)
for k, n in count.most_common():
    f, head, py = first[k]
    print(f"{n:5d}  {k[:160]}\n       first in {f}: " + " | ".join(head[2:5]))
    for p in py:
        print("          ", p)
print(f"memcheck: {sum(count.values())} invalid accesses in {len(count)} kernels")
PY
