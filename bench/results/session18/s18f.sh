#!/usr/bin/env bash
# session 18 last call: the three files of the final call's failures, after their fixes
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD SEMIRING_HYPOTHESIS_PROFILE=noshrink
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
d=semiring-0.1.0.dist-info; mkdir -p $d
printf 'Metadata-Version: 2.1\nName: semiring\nVersion: 0.1.0\n' > $d/METADATA
printf '[networkx.backends]\nsemiring = nx_semiring.interface:backend_interface\n\n[networkx.backend_info]\nsemiring = nx_semiring:get_info\n' > $d/entry_points.txt
timeout 70 python3 -m pytest -q -p no:cacheprovider --tb=short -n 12 -rfE tests/test_csgraph_awkward4.py \
  tests/test_centrality2.py tests/test_centrality3.py 2>&1 | grep -v "^  /\|^SKIPPED" | tail -15
