set -u
tar xzf .wt/req/cupy-cache.tgz; export CUPY_CACHE_DIR=$PWD/.cupy-cache
eps=$(mktemp -d)
python3 - "$eps" <<'PY'
import pathlib, sys, tomllib
meta = tomllib.loads(pathlib.Path("pyproject.toml").read_text())["project"]
info = pathlib.Path(sys.argv[1]) / f"{meta['name']}-0+checkout.dist-info"
info.mkdir()
(info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: 0+checkout\n")
(info / "entry_points.txt").write_text("".join(
    f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
    for group, eps in meta.get("entry-points", {}).items()))
PY
export PYTHONPATH=$PWD:$eps
mkdir -p /tmp/nxrun && cd /tmp/nxrun
python3 -c "import networkx as nx, nx_semiring, semiring as sr; print(nx.__version__, list(nx.utils.backends.backends), sr.default_device() if hasattr(sr,'default_device') else '')"
t0=$(date +%s)
timeout ${T1:-420} python3 -m nx_semiring.testing --all -q -n 15 -p no:cacheprovider > $OUT/nxall.log 2>&1
echo "rc=$? took $(( $(date +%s) - t0 )) s"
grep -E "^FAILED|^ERROR| passed|failed|tests through|backend not called" $OUT/nxall.log | head -60
t0=$(date +%s)
timeout ${T2:-120} python3 -m nx_semiring.testing -q -n 15 -p no:cacheprovider > $OUT/nxmods.log 2>&1
echo "modules rc=$? took $(( $(date +%s) - t0 )) s"
grep -E "^FAILED|^ERROR| passed|failed|tests through|backend not called" $OUT/nxmods.log | head -30
gzip $OUT/nxall.log $OUT/nxmods.log
