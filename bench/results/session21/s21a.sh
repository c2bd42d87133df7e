#!/usr/bin/env bash
# session 21 call 1 (nvidia-h200-x2): the SPMD rank loops' baseline on 2 GPUs (strong kron-24,
# weak kron-25 on 2) with the per-step profile; then the NetworkX paths tests that session 20's
# last refactor touched
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD NCCL_NVLS_ENABLE=0
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=$PWD:/tmp/site || exit
nvidia-smi -L; nvidia-smi topo -m | head -4
t0=$(date +%s)
timeout ${T1:-260} python3 bench/probes/spmd_ranks.py --scale 24 --workers 1,2 --variants fused,mirrored --weak 25:2 --reps 5 --budget ${B:-200} --profile --out $OUT 2>&1 | grep -v "^  \|distributed\.\|Warning\|warn" | tail -80
echo "== probe done at $(( $(date +%s) - t0 )) s"
timeout 120 python3 -m pytest -q -p no:cacheprovider -n 15 -x tests/test_nx_more16.py tests/test_dist_nccl.py 2>&1 | tail -5
echo "== all done at $(( $(date +%s) - t0 )) s"
