# Session 27 call 4 (x2): triangle counting against Gunrock on the same GPU (issue 21 item 4: urand-20 was 0.22x on an H100, session 7); where dot3's time goes
tar xzf .wt/req/cupy-cache.tgz
export CUPY_CACHE_DIR=$PWD/.cupy-cache
mkdir -p .wt/gr && cp .wt/gunrock-tc/tc .wt/gr/tc && chmod +x .wt/gr/tc
echo "== stages"
PYTHONPATH=. timeout 200 python3 bench/probes/tc_stages.py urand-18-ef8 urand-20 kron-18 kron-20 2>&1 | tail -8
echo "== bench tc with gunrock"
PYTHONPATH=. timeout 250 python3 -m bench --device gpu --algorithms tc --graphs urand-20,kron-20,urand-18-ef8 --impls semiring-gpu,gunrock --gunrock .wt/gr --out $OUT/tc --no-plots --no-progress > $OUT/tc.log 2>&1; echo "rc=$?"
grep -E "^\| (urand|kron)|vs_gunrock|gunrock" $OUT/tc/*.md | head -20
