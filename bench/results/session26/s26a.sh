# Session 26 call 1 (h200): fixed cost of small calls (the probe), the NetworkX triangles case on kron-18, the listing's bound on kron-18..20
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache PYTHONPATH=.
nvidia-smi --query-gpu=name --format=csv,noheader
echo "== small_calls"; timeout 150 python3 bench/probes/small_calls.py 30 > $OUT/small_calls.txt 2>&1; echo rc=$?; head -60 $OUT/small_calls.txt
echo "== tc bound"; timeout 150 python3 bench/probes/tc_forward_bound.py kron-18 kron-19 kron-20 > $OUT/tc_bound.txt 2>&1; echo rc=$?; tail -12 $OUT/tc_bound.txt
echo "== nx triangles kron-18"
S=bench/probes/nx_bench_subset.py
timeout 200 python3 $S triangles gpu quick --suite quick --device gpu --algorithms networkx --impls networkx,nx-semiring-gpu --graphs kron-18 --out $OUT/nxk18 > $OUT/nxk18.log 2>&1; echo rc=$?; grep -E "^\| kron|speedup|ratio" $OUT/nxk18/latest.md | head -12; rm -f $OUT/nxk18/*.png
