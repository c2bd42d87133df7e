#!/usr/bin/env bash
# session 19 call 5 (last ~260 s of device time): the test files of call 4's failures and
# of the fixes after it, on the final code
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
d=semiring-0.1.0.dist-info; mkdir -p $d
printf 'Metadata-Version: 2.1\nName: semiring\nVersion: 0.1.0\n' > $d/METADATA
printf '[networkx.backends]\nsemiring = nx_semiring.interface:backend_interface\n\n[networkx.backend_info]\nsemiring = nx_semiring:get_info\n' > $d/entry_points.txt
timeout ${T1:-150} python3 -m pytest -q -p no:cacheprovider --tb=short -n 15 -rfE tests/test_lpa_compiled.py tests/test_louvain_compiled.py tests/test_audit15m_matching.py tests/test_host_routes.py tests/test_community.py tests/test_nx_analytics2.py tests/test_triangles3.py tests/test_nx_structure.py tests/test_nx_backend.py tests/test_nx_edge_betweenness.py > $OUT/part1.log 2>&1
echo "rc=$?"; grep -v "^  /\|^SKIPPED" $OUT/part1.log | grep "FAILED\|ERROR\|passed\|failed" | tail -25
gzip -9 $OUT/*.log
