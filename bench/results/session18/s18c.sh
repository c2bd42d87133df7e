#!/usr/bin/env bash
# session 18 call 3: the cost model's newly measured families on the GPU
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
mkdir -p /tmp/s && cd /tmp/s
timeout 400 python3 $OLDPWD/bench/probes/nx_should_run.py --families k_truss,label_propagation,modularity,flow \
  --kron 5,6,8,10,12 --grid 5,10,20,50,100 2>&1 | tee $OUT/nx_should_run_gpu.md | grep -v "^| [kg]"
