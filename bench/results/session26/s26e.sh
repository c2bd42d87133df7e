# Session 26 call 5 (h200): the csgraph facade's route against its engine on small GPU input (baseline), the fused PageRank's sweep slope
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache PYTHONPATH=.
python3 -c "import numba; print('numba', numba.__version__)" 2>&1 | tail -1
echo "== route"; timeout 200 python3 bench/probes/csgraph_route.py 7 10000 2>&1 | tail -30
echo "== slope"; timeout 100 python3 .wt/pr_profile.py 2>&1 | grep -E "sweeps|median"
