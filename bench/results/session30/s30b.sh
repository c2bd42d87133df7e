# Session 30 call 2 (one H200): issue 21 item 1 again (first calls on a fresh kernel cache, each in a fresh process),
# item 2 (the small suite against SciPy), hits' loop before/after (NetworkX 3.7), and issue 17's bound on kron-18
# (the NetworkX conversion against the least walk of G._adj and NetworkX's own BFS / components)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site37 .wt/nx37/networkx-3.7-py3-none-any.whl 2>&1 | tail -3
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
echo "== first calls, fresh cache each"
for args in "bfs --n 1000" "bfs --n 10000" "sssp --n 1000" "sssp --n 10000" "mxv --n 1000"; do
  d=$(mktemp -d); CUPY_CACHE_DIR=$d PYTHONPATH=. timeout 60 python3 bench/probes/probe_first_call.py $args 2>&1 | tail -1 | tee -a $OUT/first_calls.jsonl | python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print('$args', 'first', round(r['first_s'],3), 's second', round(r['second_s'],5), 's compiles', len(r['compiles']))"
done
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
echo "== small suite"; PYTHONPATH=. timeout 150 python3 -m bench --device gpu --suite small --out $OUT/small 2>&1 | tail -40
echo "== hits_syncs (NetworkX 3.7)"; PYTHONPATH=/tmp/site37:. timeout 90 python3 bench/probes/hits_syncs.py --scales 10,14,17 --reps 9 2>&1 | tee $OUT/hits_syncs.log
echo "== nx_convert kron-18 --bound"; PYTHONPATH=. timeout 200 python3 bench/probes/nx_convert.py kron:18 --reps 2 --bound 2>&1 | tee $OUT/nx_convert_bound.log
