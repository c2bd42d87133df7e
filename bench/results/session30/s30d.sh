# Session 30 call 4 (one H200): why hits' GPU loop takes ~0.9 ms an iteration at 2^17 vertices (1M entries): a cProfile
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
PYTHONPATH=. timeout 200 python3 bench/probes/hits_syncs.py --scales 17 --reps 5 --profile 30 2>&1 | tee $OUT/hits_profile.log | head -60
