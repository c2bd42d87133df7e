#!/usr/bin/env bash
# session 20 call 11: the NetworkX test files after the last refactor (_walk_paths), on the GPU
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
d=semiring-0.1.0.dist-info; mkdir -p $d
printf 'Metadata-Version: 2.1\nName: semiring\nVersion: 0.1.0\n' > $d/METADATA
printf '[networkx.backends]\nsemiring = nx_semiring.interface:backend_interface\n\n[networkx.backend_info]\nsemiring = nx_semiring:get_info\n' > $d/entry_points.txt
timeout 200 python3 -m pytest -q -p no:cacheprovider --tb=short -n 15 -rfE tests/test_nx_more16.py tests/test_nx_backend.py tests/test_nx_paths2.py tests/test_audit16_nx.py tests/test_nx_inputs.py tests/test_nx_inputs2.py 2>&1 | grep -v "^  /\|^SKIPPED" | grep "FAILED\|ERROR\|passed\|failed" | tail -10
