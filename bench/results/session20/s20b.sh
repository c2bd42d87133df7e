#!/usr/bin/env bash
# session 20 call 2: the small suite (issue 21 item 2) with the analytics rows, on the GPU
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
[ -f .wt/req/cupy-cache.tgz ] && tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
python3 -m bench --device gpu --suite small --out $OUT 2>&1 | grep -v "^  wrote" | tail -60
