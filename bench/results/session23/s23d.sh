# Session 23 call 5 (x1): nx23's GPU re-measurement of should_run (main, no Numba on the device)
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
bash bench/results/session23/nx23_gpu.sh 2>&1 | tail -40
