#!/usr/bin/env bash
# Re-measure the README's "First call" table (GPU, fresh CuPy kernel cache) on the H200 machine.
# Run from the repository root:  bash bench/results/session23/felt23_first_call.sh
# Each row: a fresh process, an empty CuPy kernel cache (CUPY_CACHE_DIR=$(mktemp -d)), one
# row after another (session 8 ran four such processes at once); prints a markdown table.
# About 1 minute (each row: imports, CUDA context, the first call's compiles, < 3 s each
# on the H100 of session 8); a row over 60 s is cut and shown as "timeout".
set -u
export PYTHONPATH=.
OUT=$(mktemp -d)
run() {  # name what n degree
  local dir; dir=$(mktemp -d)
  CUPY_CACHE_DIR="$dir" timeout 60 python3 bench/probes/probe_first_call.py "$2" --n "$3" \
    --degree "$4" > "$OUT/$1.json" 2> "$OUT/$1.err" || echo '{"error": true}' > "$OUT/$1.json"
  rm -rf "$dir"
}
run bfs_1k_d8     bfs  1000  8
run bfs_10k_d8    bfs  10000 8
run sssp_1k_d8    sssp 1000  8
run sssp_1k_d32   sssp 1000  32
run sssp_10k_d32  sssp 10000 32
run mxv_1k_d8     mxv  1000  8
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
rows = [("bfs_1k_d8", "`algorithms.bfs(A, 0)`, n = 1000, d = 8"),
        ("bfs_10k_d8", "`algorithms.bfs(A, 0)`, n = 10⁴, d = 8"),
        ("sssp_1k_d8", "`algorithms.sssp(A, 0)`, n = 1000, d = 8"),
        ("sssp_1k_d32", "`algorithms.sssp(A, 0)`, n = 1000, d = 32"),
        ("sssp_10k_d32", "`algorithms.sssp(A, 0)`, n = 10⁴, d = 32"),
        ("mxv_1k_d8", "`sr.mxv(A, x, sr.min_plus)`, n = 1000, d = 8")]
dev = "?"
print("| first call, fresh cache | first (s) | compiles | ours / CuPy's compile (s) | second (s) | ok |")
print("|---|---:|---:|---:|---:|---|")
for key, label in rows:
    try:
        r = json.load(open(os.path.join(out, key + ".json")))
    except Exception:
        r = {"error": True}
    if r.get("error"):
        err = open(os.path.join(out, key + ".err")).read().strip().splitlines()[-1:] or ["timeout"]
        print(f"| {label} | error: {err[0][:80]} | | | | |")
        continue
    dev = r["device"]
    c = r["first_compile_s"]
    print(f"| {label} | {r['first_s']:.2f} | {r['first_compiles']} | {c['semiring']:.2f} / "
          f"{c['cupy']:.2f} | {r['second_s']:.4f} | {r['ok']} |")
print(f"\ndevice: {dev}; raw JSON lines in {out}")
PY
