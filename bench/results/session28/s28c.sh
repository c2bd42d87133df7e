# Session 28 call 3 (x2): the listing's variants and dot3 on the largest graphs (for 'auto'), NetworkX's components / triangles / BFS on kron-18 through the backend
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
echo "== variants, large graphs"
PYTHONPATH=. timeout 300 python3 bench/probes/tc_oriented.py kron-20 urand-22 kron-22 2>&1 | tail -5
echo "== networkx kron-18"
PYTHONPATH=.:$(python3 tools/checkout_entry_points.py) timeout 200 python3 -m nx_semiring.bench --kron 18 --grid 0 --algorithms components,triangles,bfs 2>&1 | tail -25
