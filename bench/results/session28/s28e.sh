# Session 28 call 5 (x2): BFS, SSSP and PageRank against Gunrock on the same H200 (the README's row was session 7's H100)
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
mkdir -p .wt/gr && cp .wt/gunrock/* .wt/gr/ && chmod +x .wt/gr/*
PYTHONPATH=. timeout 380 python3 -m bench --device gpu --algorithms bfs,sssp,pagerank --graphs kron-20,urand-20,kron-18 --impls semiring-gpu,semiring-gpu-delta,gunrock --gunrock .wt/gr --out $OUT/g --no-plots --no-progress > $OUT/g.log 2>&1; echo "rc=$?"
grep -E "^\| (urand|kron)|vs_gunrock|unavailable" $OUT/g/2*.md | head -40
