"""Session 22 (nx22) order audit of the NetworkX backend: python drive.py direct.py|inner.py KINDS SEEDS [CASES]
(KINDS: str,mixed,tuple,np,int; SEEDS: PYTHONHASHSEED values, each run in a subprocess). Prints
the comparisons and every case whose repr differs between backend="networkx" and the backend
preferred (backend_priority, fallback on, should_run forced)."""
"""python drive.py SCRIPT KINDS SEEDS [ONLY]: compare under several PYTHONHASHSEEDs."""
import sys, json, os, subprocess, collections
script, kinds, seeds = sys.argv[1], sys.argv[2], sys.argv[3]
only = sys.argv[4] if len(sys.argv) > 4 else ""
seeds = [int(x) for x in seeds.split(",")]
bad = collections.defaultdict(list); n = 0; ran = collections.Counter(); cases = set()
for sd in seeds:
    env = dict(os.environ, PYTHONHASHSEED=str(sd))
    p = subprocess.run([sys.executable, script, kinds, only], env=env, capture_output=True, text=True, cwd=os.path.dirname(os.path.abspath(__file__)))
    if p.returncode:
        print(p.stderr[-3000:]); sys.exit(1)
    res = json.loads(p.stdout.strip().splitlines()[-1])
    for k, (a, b, r) in res.items():
        n += 1; cases.add(k)
        if r: ran[k] += 1
        if a != b: bad[k].append((sd, a, b, r))
print("comparisons", n, "cases", len(cases), "with backend ran", sum(1 for k in cases if ran[k]))
for k, v in sorted(bad.items()):
    sd, a, b, r = v[0]
    print(f"DIFF {k} seeds={[x[0] for x in v]} ran={r}\n   nx: {a[:600]}\n   sr: {b[:600]}")
