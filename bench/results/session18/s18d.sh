#!/usr/bin/env bash
# session 18 call 4: maximum flow's policy on the GPU (push-relabel rounds vs host Dinic)
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
timeout 230 python3 bench/probes/flow_policy.py --kron 10,14,18,20 --urand 14,18,20 --grid 100,300,1000 \
  --rgg 14,18,20 --reps 1 --max-seconds 8 2>&1 | tee $OUT/flow_policy_gpu.md
