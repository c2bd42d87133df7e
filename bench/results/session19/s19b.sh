#!/usr/bin/env bash
# session 19 call 2: Louvain and label propagation on larger graphs (GPU vs its host copy),
# whether Numba is there (the host paths' compiled variants)
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
python3 -c "import semiring.backend.cpu.compiled as c; print('numba enabled:', c.ENABLED)"
nproc
timeout 250 python3 bench/probes/host_policy.py --algorithms louvain --kron 12,14,16,18 --grid 300,1000 --reps 0 --max-seconds 20 2>&1 | tee $OUT/louvain.md
timeout 200 python3 bench/probes/host_policy.py --algorithms label_propagation,core_number --kron 18,20 --grid 2000 --reps 0 --max-seconds 20 2>&1 | tee $OUT/lp.md
