#!/usr/bin/env bash
# session 18 call 2: the fixed GPU cases, every nx test file with the backend registered
# (a dist-info on the path stands in for `pip install`), NetworkX's modules through the
# backend on the GPU, the APSP bench, then memcheck over files never checked.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
d=semiring-0.1.0.dist-info; mkdir -p $d
printf 'Metadata-Version: 2.1\nName: semiring\nVersion: 0.1.0\n' > $d/METADATA
printf '[networkx.backends]\nsemiring = nx_semiring.interface:backend_interface\n\n[networkx.backend_info]\nsemiring = nx_semiring:get_info\n' > $d/entry_points.txt
python3 -c "import networkx as nx; print('backends', sorted(nx.utils.backends.backends))"
t0=$(date +%s)
echo "== nx test files + fixed cases"
timeout 200 python3 -m pytest -q -p no:cacheprovider --tb=short -n 15 tests/test_nx_*.py tests/test_community.py \
  tests/test_csgraph_awkward2.py tests/test_csgraph_awkward3.py > $OUT/nxtests.log 2>&1
echo "rc=$? at $(( $(date +%s) - t0 )) s"; grep -v "^  /" $OUT/nxtests.log | grep "FAILED\|ERROR\|passed\|failed" | tail -30
echo "== NetworkX's modules through the backend (GPU)"
mkdir -p /tmp/nxs && (cd /tmp/nxs && timeout 170 python3 -m nx_semiring.testing -q -n 12 > $OUT/nxmods.log 2>&1; echo "rc=$?")
echo "at $(( $(date +%s) - t0 )) s"; grep "FAILED\|passed\|failed\|answered\|fell" $OUT/nxmods.log | head -30
echo "== apsp bench"
timeout 90 python3 -m bench --device gpu --algorithms apsp --out $OUT/bench 2>&1 | tail -25
echo "at $(( $(date +%s) - t0 )) s"
echo "== memcheck"
JOBS=8 TIMEOUT=${MCT:-110} OUT=$OUT bash tools/memcheck.sh tests/test_community.py tests/test_components.py \
  tests/test_cores.py tests/test_triangles.py tests/test_pagerank.py tests/test_centrality.py tests/test_brandes.py \
  tests/test_mst.py tests/test_flow_matching.py tests/test_spgemm.py tests/test_mxm.py tests/test_msbfs.py \
  tests/test_elementwise.py tests/test_dot3.py tests/test_mxv_kept.py tests/test_sssp.py 2>&1 | tail -40
echo "at $(( $(date +%s) - t0 )) s"
gzip -9 $OUT/*.log $OUT/memcheck/*.log 2>/dev/null; true
