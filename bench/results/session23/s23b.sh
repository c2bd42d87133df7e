# Session 23 call 2 (x2): mg23's two-GPU BFS try script, felt23's first-call table, on try23
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=$PWD:/tmp/site
git log --oneline -1 2>/dev/null
timeout 330 bash bench/results/session23/mg23_gpu_try.sh 2>&1 | tee $OUT/mg23_try.log | grep -v "^  " | tail -70
echo "== felt23 first call =="
timeout 150 bash bench/results/session23/felt23_first_call.sh 2>&1 | tee $OUT/first_call.log | tail -12
