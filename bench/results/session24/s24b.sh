# Session 24 call 2 (x2): the NetworkX case on the GPU with the current code (issue 17's table; session 14's figures were the last)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=$PWD/.cupy-cache
tar xzf .wt/req/cupy-cache.tgz
nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)"
python3 -c "import networkx, cupy, numpy, scipy; print('networkx', networkx.__version__, 'cupy', cupy.__version__, 'numpy', numpy.__version__, 'scipy', scipy.__version__)"
S=bench/probes/nx_bench_subset.py
A="--suite quick --device gpu --algorithms networkx --impls networkx,nx-semiring-gpu"
CUDA_VISIBLE_DEVICES=0 timeout 280 python3 $S bfs,sssp,pagerank,components,bc gpu quick $A --graphs kron-18 --out $OUT/k18 > $OUT/k18.log 2>&1 &
CUDA_VISIBLE_DEVICES=1 timeout 280 python3 $S bfs,sssp,pagerank,components,bc,triangles gpu quick $A --graphs grid-1000x1000 --out $OUT/grid > $OUT/grid.log 2>&1 &
sleep 20
CUDA_VISIBLE_DEVICES=0 timeout 260 python3 $S triangles gpu quick $A --graphs kron-18 --out $OUT/k18tri > $OUT/k18tri.log 2>&1 &
wait
for f in k18 grid k18tri; do echo "== $f"; tail -5 $OUT/$f.log; done
for d in k18 grid k18tri; do find $OUT/$d -name "*.md" -exec grep -E "^\| (kron|grid)" {} \; ; done
find $OUT -name "*.md" | head; find $OUT -name "*.png" -delete
