#!/usr/bin/env bash
# session 21 final call (nvidia-h200-x2): the whole suite on the merged code (the emulations
# left to CI, as in earlier sessions), the NCCL tests, the one-device BFS / SSSP past 2^24
# vertices (kron-25 in bfs_grid / sssp_grid, checked against the 2-GPU rank loops, which
# share no code with them), and the small suite's rows that this session's CPU work reaches
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD NCCL_NVLS_ENABLE=0 SEMIRING_HYPOTHESIS_PROFILE=noshrink
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=$PWD:/tmp/site || exit
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
d=semiring-0.1.0.dist-info; mkdir -p $d
printf 'Metadata-Version: 2.1\nName: semiring\nVersion: 0.1.0\n' > $d/METADATA
printf '[networkx.backends]\nsemiring = nx_semiring.interface:backend_interface\n\n[networkx.backend_info]\nsemiring = nx_semiring:get_info\n' > $d/entry_points.txt
t0=$(date +%s)
echo "== the suite"
timeout ${T1:-330} python3 -m pytest -q -p no:cacheprovider --tb=short -n 28 -rfE -k "not emulated" --ignore=tests/test_bfs_emulated.py --ignore=tests/test_cpu_numba.py --ignore=tests/test_dist_nccl.py tests > $OUT/suite.log 2>&1
echo "rc=$? at $(( $(date +%s) - t0 )) s"; grep -v "^  /\|^SKIPPED" $OUT/suite.log | grep "FAILED\|ERROR\|passed\|failed" | tail -25
timeout 45 python3 -m pytest -q -p no:cacheprovider -x tests/test_dist_nccl.py 2>&1 | tail -1
echo "== kron-25 one-device against the rank loops ($(( $(date +%s) - t0 )) s)"
timeout ${T2:-150} python3 bench/probes/spmd_ranks.py --scale 24 --workers 2 --ops bfs,sssp --variants fused --weak 25:2 --reps 5 --budget 90 --out $OUT > $OUT/probe.log 2>&1
grep "^T \|ERROR\|Error" $OUT/probe.log | tail -20
echo "== small suite ($(( $(date +%s) - t0 )) s)"
timeout ${T3:-120} python3 -m bench --device gpu --suite small --algorithms pagerank,cc,spmv --graphs urand-10-ef4,urand-13-ef4,grid-100x100 --no-plots --no-progress --out $OUT/small > $OUT/small.log 2>&1; echo "rc=$?"
grep "^  " $OUT/small.log | grep -v "wrote" | tail -20
echo "== all done at $(( $(date +%s) - t0 )) s"
gzip -9 $OUT/*.log
