# Session 23 call 4 (x2): mg23 at 0dc2131 merged on main (try23b): the try script again (step timing)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=$PWD:/tmp/site
timeout 300 bash bench/results/session23/mg23_gpu_try.sh 2>&1 | tee $OUT/mg23_try2.log | grep -v "^  " | tail -80
