# Session 27 call 6 (x2): trial variants of the forward listing's thread pass, side by side
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
PYTHONPATH=. timeout 300 python3 bench/probes/tc_variants.py urand-16-ef8 urand-18-ef8 urand-20 grid-1000x1000 kron-16 kron-17 kron-18 2>&1 | tail -12
