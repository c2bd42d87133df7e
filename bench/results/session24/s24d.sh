# Session 24 call 4 (x2): the GPU device queue's test, then the NetworkX case again (README table) and the profile of kron-18's BFS / components
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=$PWD/.cupy-cache
tar xzf .wt/req/cupy-cache.tgz
EP=$(python3 tools/checkout_entry_points.py)
PYTHONPATH=$PWD:$EP timeout 100 python3 -m pytest -q -p no:cacheprovider -n 4 tests/test_nx_orders24.py tests/test_nx_tied_paths24.py 2>&1 | tail -3
S=bench/probes/nx_bench_subset.py
A="--suite quick --device gpu --algorithms networkx --impls networkx,nx-semiring-gpu"
CUDA_VISIBLE_DEVICES=0 timeout 200 python3 $S bfs,sssp,pagerank,components,bc gpu quick $A --graphs kron-18 --out $OUT/k18 > $OUT/k18.log 2>&1 &
CUDA_VISIBLE_DEVICES=1 timeout 200 python3 $S bfs,sssp,pagerank,components,bc,triangles gpu quick $A --graphs grid-1000x1000 --out $OUT/grid > $OUT/grid.log 2>&1 &
sleep 20
CUDA_VISIBLE_DEVICES=0 timeout 180 python3 $S triangles gpu quick $A --graphs kron-18 --out $OUT/k18tri > $OUT/k18tri.log 2>&1 &
CUDA_VISIBLE_DEVICES=1 timeout 150 python3 bench/probes/nx_profile.py kron-18 bfs,components,sssp 12 > $OUT/prof_kron.txt 2>&1 &
wait
for f in k18 grid k18tri; do echo "== $f"; tail -2 $OUT/$f.log; done
for d in k18 grid k18tri; do grep -hE "^\| (kron|grid)" $OUT/$d/latest.md; done
grep "^==" $OUT/prof_kron.txt
find $OUT -name "*.png" -delete; rm -f $OUT/*/2026*
