"""GAP, the GAP Benchmark Suite's reference code (OpenMP C++, github.com/sbeamer/gapbs), as an
optional CPU peer of ``python -m bench``, and GAP's own graphs as bench graphs.

Configure it with ``python -m bench --gap PATH`` or ``SEMIRING_BENCH_GAP=PATH`` (a gapbs
checkout: its ``Makefile`` and ``src/``). On first use, the sources are copied into a build
folder under the bench cache (``bench/cache/gap/build-<hash of the sources>/``, outside the
tracked tree) and built there with ``make`` (its own flags: ``-std=c++11 -O3 -fopenmp``). A build
that fails, or no path, makes every GAP impl *unavailable* with the reason (not a failure).

What runs, on the same graph as this engine:

- our generated graphs are written as GAP's serialized graphs (``.sg``: topology; ``.wsg``:
  int32 weights; the layout of GAP's ``reader.h`` / ``writer.h``) into
  ``bench/cache/gap/graphs/``;
- GAP's own graphs, graph specs ``gap-kron-S`` and ``gap-urand-S`` (``[-kK]``: average degree,
  16 by default): GAP's converter makes them (``converter -g S -k 16 -w -b f.wsg``, i.e. GAP's
  Kronecker or ``-u`` uniform generator, symmetrized, squished, weights in [1, 255]); this
  module reads the ``.wsg`` into the engine's CSR (so both run on the identical graph) and
  writes its topology as the ``.sg`` that the unweighted kernels read.

Kernels: ``bfs`` and ``sssp`` (``-r SOURCE``: the case's source; ``sssp -d``
:data:`SSSP_DELTA`, GAP's own choice for kron/urand), ``cc`` (Afforest), ``pr`` (Gauss–Seidel
pull PageRank, damping 0.85, ``-t 1e-4 -i 20``: GAP's defaults), ``bc`` (Brandes, one source a
trial with ``-r SOURCE -i 1``; the batched case ``-i K``: GAP's own random sources, since
``-r`` would repeat one source) and ``tc`` (ordered count, relabelled by degree when GAP's
heuristic says so; the relabelling is inside GAP's timed trial). Each runs
``-n trials`` and GAP's own verification (``-v``: checked by GAP's serial oracle)
and analysis of the last trial (``-a``); the verifier runs in an invocation of its own (see
:class:`GapKernel`). Times are GAP's own ``Trial Time`` lines (its wall
clock around the kernel alone; graph reading is not timed); the first trial is reported as the
warm-up and the median of the others as the time, as for every impl. GAP's ``Average Time``
(all trials) is kept in the impl's check line. A failure of GAP's verifier is a mismatch;
the analysis line (reached vertices, components, triangles) is also checked against the
case's reference where it has one.

GAP's TC verifier is a serial set intersection over every edge (sum of squared degrees
operations): it is switched off above :data:`TC_VERIFY_MAX_WORK` and the count is then checked
against the case's reference instead (said in the check).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import struct
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import cases as C
from . import generators as gen
from .timing import Timing

#: The environment variable naming a gapbs checkout (as ``--gap PATH``).
ENV_VAR = "SEMIRING_BENCH_GAP"
#: The kernels built (GAP's Makefile targets).
KERNELS = ("bfs", "sssp", "cc", "pr", "bc", "tc", "converter")
#: GAP's Δ for SSSP on kron and urand (its benchmark/bench.mk: ``-d2``).
SSSP_DELTA = 2
#: GAP's PageRank defaults (pr.cc: ``CLPageRank(..., 1e-4, 20)``).
PR_TOLERANCE = 1e-4
PR_MAX_ITERS = 20
#: Timed trials per run (after one warm-up trial), unless ``SEMIRING_BENCH_GAP_TRIALS`` says.
TRIALS = 5
#: Fewer trials on large graphs (stored entries above this).
TRIALS_LARGE = 4
LARGE_NNZ = 1 << 26
#: GAP's TC verifier (serial std::set_intersection over every edge) is not run above this many
#: sum-of-squared-degree operations (kron-20: 7·10^10; urand-22: ~4·10^9: seconds a trial).
TC_VERIFY_MAX_WORK = 10**9
#: One GAP run's time limit (seconds).
RUN_TIMEOUT_S = 600
#: make's time limit (seconds).
BUILD_TIMEOUT_S = 600

_state: dict = {"dir": None, "build": None}


class GapUnavailable(C.Unavailable):
    pass


# --------------------------------------------------------------------------------------------
# configuration and build


def configure(path: str | os.PathLike | None, *, suites: bool = True) -> None:
    """Use the gapbs checkout at ``path`` (None: none; GAP impls report themselves unavailable).
    With ``suites``, also add GAP's own graphs to the suites (:func:`add_gap_graphs_to_suites`)."""
    _state["dir"] = None if path is None else Path(path).expanduser().resolve()
    _state["build"] = None
    if path is None:
        unregister()
        return
    register()
    if suites:
        add_gap_graphs_to_suites()


def configured() -> Path | None:
    return _state["dir"]


def cache_root() -> Path:
    return Path(os.environ.get("SEMIRING_BENCH_GAP_CACHE", gen.DEFAULT_CACHE_DIR / "gap"))


def _source_digest(src: Path) -> str:
    h = hashlib.sha1()
    files = [src / "Makefile"] + sorted((src / "src").glob("*"))
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def build() -> Path:
    """Build GAP (once per process; reused from the cache when built before) and return the
    folder holding its binaries. Raises :class:`GapUnavailable` with the reason."""
    if _state["build"] is not None:
        ok, value = _state["build"]
        if ok:
            return value
        raise GapUnavailable(value)
    src = _state["dir"]
    try:
        if src is None:
            raise GapUnavailable(f"GAP not configured: pass --gap PATH (a gapbs checkout) or set "
                                 f"{ENV_VAR}")
        if not (src / "Makefile").is_file() or not (src / "src" / "bfs.cc").is_file():
            raise GapUnavailable(f"GAP: {src} is not a gapbs checkout (no Makefile / src/bfs.cc)")
        out = cache_root() / f"build-{_source_digest(src)}"
        if not all((out / k).is_file() for k in KERNELS):
            out.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / "Makefile", out / "Makefile")
            shutil.copytree(src / "src", out / "src", dirs_exist_ok=True)
            for extra in ("test", "benchmark"):  # the Makefile includes their .mk files
                if (src / extra).is_dir():
                    shutil.copytree(src / extra, out / extra, dirs_exist_ok=True)
            t0 = time.perf_counter()
            try:
                p = subprocess.run(["make", f"-j{os.cpu_count() or 1}", *KERNELS], cwd=out,
                                   capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
            except (OSError, subprocess.TimeoutExpired) as e:
                raise GapUnavailable(f"GAP build failed: {type(e).__name__}: {e}") from None
            (out / "build.log").write_text(p.stdout + p.stderr)
            if p.returncode != 0:
                tail = (p.stdout + p.stderr).strip().splitlines()[-5:]
                raise GapUnavailable(f"GAP build failed (make exit {p.returncode}): "
                                     + " | ".join(tail))
            _state["build_seconds"] = round(time.perf_counter() - t0, 1)
    except GapUnavailable as e:
        _state["build"] = (False, str(e))
        raise
    _state["build"] = (True, out)
    return out


# --------------------------------------------------------------------------------------------
# GAP's serialized graphs (reader.h ReadSerializedGraph / writer.h WriteSerializedGraph):
# bool directed; int64 num_edges (stored out-entries); int64 num_nodes; int64 offsets[n+1];
# neighbours int32[m] (.sg) or {int32 v, int32 w}[m] (.wsg); for a directed graph the same
# again for the incoming edges.


def write_serialized(path: Path, indptr, indices, data=None, *, directed: bool = False,
                     t_indptr=None, t_indices=None, t_data=None) -> Path:
    """Write a CSR graph as GAP's ``.sg`` (``data`` None) or ``.wsg`` (int32 weights).
    Neighbour lists must be sorted, without duplicates or self-loops (GAP's squished form)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    n = len(indptr) - 1
    m = int(indptr[-1])
    with open(tmp, "wb") as f:
        f.write(struct.pack("<?qq", bool(directed), m, n))
        parts = [(indptr, indices, data)]
        if directed:
            parts.append((t_indptr, t_indices, t_data))
        for ip, ix, dv in parts:
            np.asarray(ip, dtype=np.int64).tofile(f)
            if data is None:
                np.asarray(ix, dtype=np.int32).tofile(f)
            else:
                pairs = np.empty((m, 2), dtype=np.int32)
                pairs[:, 0] = ix
                pairs[:, 1] = dv
                pairs.tofile(f)
    os.replace(tmp, path)
    return path


def read_serialized(path: Path):
    """Read GAP's ``.sg`` / ``.wsg``: (directed, indptr int64, indices int32, weights int32 or
    None) of the out-edges."""
    path = Path(path)
    weighted = path.suffix == ".wsg"
    with open(path, "rb") as f:
        directed, m, n = struct.unpack("<?qq", f.read(17))
        indptr = np.fromfile(f, dtype=np.int64, count=n + 1)
        if weighted:
            pairs = np.fromfile(f, dtype=np.int32, count=2 * m).reshape(m, 2)
            indices, weights = np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1])
        else:
            indices, weights = np.fromfile(f, dtype=np.int32, count=m), None
    return bool(directed), indptr, indices, weights


def _graph_files(ctx: C.CaseContext) -> dict:
    """The case's graph as GAP files: {'sg': path, 'wsg': path or None (weights not int32)}."""
    def make():
        spec = ctx.graph.spec
        if spec.kind in GAP_KINDS:
            wsg = gap_graph_file(spec)
            sg = wsg.with_suffix(".sg")
        else:
            key = spec.cache_key() or "mtx-" + hashlib.sha1(spec.path.encode()).hexdigest()[:12]
            folder = cache_root() / "graphs"
            sg, wsg = folder / f"{key}.sg", folder / f"{key}.wsg"
        H = ctx.graph.host
        if not H.has_sorted_indices:
            H = H.sorted_indices()
        directed = not spec.undirected
        T = H.T.tocsr() if directed else None
        if T is not None:
            T.sort_indices()
        if not sg.exists():
            write_serialized(sg, H.indptr, H.indices, directed=directed,
                             t_indptr=None if T is None else T.indptr,
                             t_indices=None if T is None else T.indices)
        w = np.asarray(H.data)
        if w.size and not (np.all(w == np.round(w)) and w.min() >= 0
                           and w.max() < np.iinfo(np.int32).max // 2):
            return {"sg": sg, "wsg": None}
        if not wsg.exists():
            write_serialized(wsg, H.indptr, H.indices, w.astype(np.int32), directed=directed,
                             t_indptr=None if T is None else T.indptr,
                             t_indices=None if T is None else T.indices,
                             t_data=None if T is None else T.data.astype(np.int32))
        return {"sg": sg, "wsg": wsg}

    return ctx.graph.get("gap:files", make)


# --------------------------------------------------------------------------------------------
# GAP's own graphs as bench graph specs: gap-kron-S[-kK], gap-urand-S[-kK]

GAP_KINDS = ("gap-kron", "gap-urand")
_GAP_SPEC = re.compile(r"^gap-(kron|urand)-(\d+)(?:-k(\d+))?$")


def parse_gap_spec(text: str, seed: int = 0) -> gen.GraphSpec | None:
    m = _GAP_SPEC.match(text)
    if not m:
        return None
    # GAP's generator has its own fixed seed (kRandSeed): ``seed`` does not change the graph
    return gen.GraphSpec(kind=f"gap-{m.group(1)}", scale=int(m.group(2)),
                         edge_factor=int(m.group(3) or gen.EDGE_FACTOR), seed=0)


def gap_graph_file(spec: gen.GraphSpec) -> Path:
    """GAP's converter output for ``spec`` (``.wsg``; its topology as ``.sg`` beside it), made
    once per GAP build."""
    binaries = build()
    flag = "-g" if spec.kind == "gap-kron" else "-u"
    out = cache_root() / "graphs" / f"{spec.kind}-{spec.scale}-k{spec.edge_factor}-" \
                                    f"{binaries.name}.wsg"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f"tmp{os.getpid()}-{out.name}")
        p = subprocess.run([str(binaries / "converter"), flag, str(spec.scale), "-k",
                            str(spec.edge_factor), "-w", "-b", str(tmp)],
                           capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        if p.returncode != 0 or not tmp.exists():
            raise RuntimeError(f"GAP converter {flag} {spec.scale} failed (exit {p.returncode}): "
                               f"{(p.stdout + p.stderr)[-400:]}")
        os.replace(tmp, out)
    sg = out.with_suffix(".sg")
    if not sg.exists():
        directed, indptr, indices, _ = read_serialized(out)
        write_serialized(sg, indptr, indices, directed=directed)
    return out


def generate_gap_graph(spec: gen.GraphSpec, *, xp=None):
    """The engine's CSR of GAP's graph (read from the converter's ``.wsg``), weights as
    ``spec.dtype``; GAP's graphs are symmetric (``-g``/``-u`` symmetrize)."""
    xp = gen.get_xp(xp)
    directed, indptr, indices, w = read_serialized(gap_graph_file(spec))
    if directed:
        raise RuntimeError("GAP's generated graph is directed: not expected")
    n = len(indptr) - 1
    idt = np.int32 if indptr[-1] <= np.iinfo(np.int32).max else np.int64
    data = w.astype(spec.dtype) if spec.weighted else np.ones(len(indices), dtype=spec.dtype)
    return gen.build_csr(xp.asarray(indptr.astype(idt)), xp.asarray(indices.astype(idt)),
                         xp.asarray(data), (n, n), xp=xp)


gen.SPEC_PARSERS.append(parse_gap_spec)
for _kind in GAP_KINDS:
    gen.KIND_GENERATORS[_kind] = generate_gap_graph


#: GAP's graphs added to the suites by :func:`configure` (the issue's targets: kron-22 and
#: urand-22 on the GPU; small ones for CPU runs).
SUITE_GAP_GRAPHS = {
    ("tiny", "cpu"): ["gap-kron-10"], ("tiny", "gpu"): ["gap-kron-12"],  # bfs, sssp
    ("quick", "cpu"): ["gap-kron-16", "gap-urand-16"],
    ("quick", "gpu"): ["gap-kron-22", "gap-urand-22"],
    ("full", "cpu"): ["gap-kron-18", "gap-urand-18"],
    ("full", "gpu"): ["gap-kron-22", "gap-urand-22", "gap-kron-24"],
}
#: The algorithms that GAP runs (bench names), whose suite entries get GAP's graphs.
GAP_ALGORITHMS = ("bfs", "sssp", "cc", "pagerank", "bc", "msbc", "tc")
#: Those whose suite entries get GAP's graphs (msbc: GAP's own random sources, GAP's serial
#: verifier per source; not by default).
GAP_SUITE_ALGORITHMS = ("bfs", "sssp", "cc", "pagerank", "bc", "tc")


def add_gap_graphs_to_suites() -> None:
    for (name, dev), graphs in SUITE_GAP_GRAPHS.items():
        suite = C.SUITES.get((name, dev))
        if suite is None:
            continue
        for e in suite.entries:
            if e.algorithm in GAP_SUITE_ALGORITHMS:
                e.graphs = e.graphs + [g for g in graphs if g not in e.graphs]


# --------------------------------------------------------------------------------------------
# running a kernel


@dataclass
class GapRun:
    """One GAP invocation: its command, trial times (s), verification verdicts, analysis."""

    kernel: str
    command: list
    trial_s: list = field(default_factory=list)
    average_s: float | None = None
    verifications: list = field(default_factory=list)
    facts: dict = field(default_factory=dict)
    verify: bool = True
    note: str = ""
    stdout_tail: str = ""


_FACTS = {
    "bfs": [("reached", r"BFS Tree has (\d+) nodes")],
    "sssp": [("reached", r"SSSP Tree reaches (\d+) nodes")],
    "cc": [("components", r"There are (\d+) components")],
    "tc": [("triangles", r"^(\d+) triangles")],
    "pr": [("total_error", r"^Total Error:\s+(\S+)")],
    "bc": [],
}


def parse_output(kernel: str, text: str, run: GapRun) -> GapRun:
    run.trial_s = [float(x) for x in re.findall(r"^Trial Time:\s+(\S+)", text, re.M)]
    avg = re.findall(r"^Average Time:\s+(\S+)", text, re.M)
    run.average_s = float(avg[-1]) if avg else None
    run.verifications = re.findall(r"^Verification:\s+(\S+)", text, re.M)
    for key, pat in _FACTS.get(kernel, []):
        found = re.findall(pat, text, re.M)
        if found:
            run.facts[key] = float(found[-1]) if key == "total_error" else int(found[-1])
    run.stdout_tail = text[-1500:]
    return run


def run_kernel(kernel: str, graph_file: Path, args: list, trials: int, *, verify: bool = True,
               threads: int | None = None) -> GapRun:
    """Run GAP's ``kernel`` on ``graph_file`` for ``trials`` trials (``-v`` when ``verify``,
    ``-a`` always) and parse its output."""
    binaries = build()
    cmd = [str(binaries / kernel), "-f", str(graph_file), "-n", str(trials), "-a", *args]
    if verify:
        cmd.append("-v")
    env = dict(os.environ)
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=env)
    run = parse_output(kernel, p.stdout, GapRun(kernel, cmd, verify=verify))
    if p.returncode != 0 or len(run.trial_s) != trials:
        raise RuntimeError(f"GAP {kernel} failed (exit {p.returncode}, {len(run.trial_s)} of "
                           f"{trials} trials): {(p.stdout + p.stderr)[-600:]}")
    return run


def _trials() -> int | None:
    v = os.environ.get("SEMIRING_BENCH_GAP_TRIALS")
    return int(v) if v else None


class GapKernel:
    """The timed callable of a GAP impl: GAP times itself (``self_timed``, used by
    :func:`bench.timing.measure`). Two invocations with the same arguments (``-r SOURCE``
    fixes the work): the timed one, a warm-up trial (unless ``warmup`` is off) then the timed
    trials, with ``-a`` and without ``-v``, as GAP's own benchmark runs; then, when ``verify``,
    one trial with GAP's verifier (``-v``). With ``-v`` on every timed trial of one
    invocation, gap-kron-22 on the 16-core H100 host (2026-11-24) gave bfs 64 ms, cc 169 ms a
    timed trial against 18.5 and 36 ms in a later run without it (GAP's own figures there:
    about 16 and 27 ms); a direct A/B on gap-urand-22 in that later session moved cc, bfs and
    pr by 10 % at most. Whatever the cause, GAP's benchmark times its trials without ``-v``,
    so the verifier runs apart."""

    def __init__(self, kernel: str, graph_file: Path, args: list, trials: int, verify: bool,
                 note: str = "", warmup: bool = True):
        self.kernel, self.graph_file, self.args = kernel, graph_file, args
        self.trials, self.verify, self.note, self.warmup = trials, verify, note, warmup

    done: GapRun | None = None  # a run already made (untimed elsewhere) with these arguments

    def __call__(self) -> GapRun:
        if self.done is not None:
            run, self.done = self.done, None
        else:
            run = run_kernel(self.kernel, self.graph_file, self.args,
                             self.trials + (1 if self.warmup else 0), verify=False)
        run.verify = self.verify
        if self.verify:
            check = run_kernel(self.kernel, self.graph_file, self.args, 1, verify=True)
            run.verifications = check.verifications
            for key, value in check.facts.items():
                run.facts.setdefault(key, value)
                if key != "total_error" and run.facts[key] != value:
                    run.verifications.append(f"FAIL (the verified run's {key} {value} != "
                                             f"the timed run's {run.facts[key]})")
        run.note = self.note
        return run

    def self_timed(self, policy=None):
        run = self()
        times = run.trial_s[1:] if self.warmup else run.trial_s
        t = Timing(times_ms=[s * 1e3 for s in times],
                   warmup_ms=run.trial_s[0] * 1e3 if self.warmup else None)
        return t, run


def _fetch(run: GapRun) -> GapRun:
    return run


# --------------------------------------------------------------------------------------------
# the "gap" reference of each algorithm: the facts that GAP's analysis prints, from the
# case's own reference; the check: every trial PASSes GAP's verifier and the facts agree


def _compare(got: GapRun, ref: dict) -> tuple[bool, str]:
    if not isinstance(got, GapRun):
        return False, f"expected a GAP run, got {type(got).__name__}"
    bits = []
    ok = True
    if got.verify:
        n_pass = sum(v == "PASS" for v in got.verifications)
        ok &= n_pass == len(got.verifications) and n_pass > 0
        bits.append(f"GAP's verifier (-v, a run of its own with the same arguments): "
                    f"{'PASS' if n_pass == len(got.verifications) and n_pass else 'FAIL'}"
                    + ("" if n_pass == len(got.verifications) else f" {got.verifications}"))
    else:
        bits.append(f"GAP's verifier off ({got.note})")
    for key, want in ref.items():
        have = got.facts.get(key)
        if have is None:
            ok = False
            bits.append(f"{key}: not in GAP's output")
        elif have != want:
            ok = False
            bits.append(f"{key} {have} != reference {want}")
        else:
            bits.append(f"{key} {have} as the reference")
    if got.average_s is not None:
        bits.append(f"GAP's Average Time {got.average_s * 1e3:.4g} ms over "
                    f"{len(got.trial_s)} trials (warm-up included); trials "
                    + ", ".join(f"{t * 1e3:.4g}" for t in got.trial_s) + " ms")
    if "total_error" in got.facts:
        bits.append(f"GAP's PR total error {got.facts['total_error']:g}")
    if not got.verify and not ref:
        ok = False
        bits.append("nothing checked")
    return ok, "; ".join(bits)


def _facts_bfs(ctx):
    ref = ctx.algorithm.references["levels"].compute(ctx)
    return {"reached": int((np.asarray(ref) >= 0).sum())}


def _facts_sssp(ctx):
    ref = ctx.algorithm.references["dist"].compute(ctx)
    return {"reached": int(np.isfinite(np.asarray(ref)).sum())}


def _facts_cc(ctx):
    labels = ctx.algorithm.references["labels"].compute(ctx)
    return {"components": int(np.unique(labels).size)}


def _facts_tc(ctx):
    return {"triangles": int(ctx.algorithm.references["triangles"].compute(ctx)[0])}


def _facts_none(ctx):
    return {}


_REF_FACTS = {"bfs": _facts_bfs, "sssp": _facts_sssp, "cc": _facts_cc, "tc": _facts_tc,
              "pagerank": _facts_none, "bc": _facts_none, "msbc": _facts_none}


# --------------------------------------------------------------------------------------------
# impls


def _n_trials(ctx: C.CaseContext) -> int:
    return _trials() or (TRIALS_LARGE if ctx.graph.nnz > LARGE_NNZ else TRIALS)


def _setup(bench_alg: str):
    def setup(ctx: C.CaseContext):
        files = _graph_files(ctx)
        trials = _n_trials(ctx)
        verify, note = True, ""
        src = ctx.inputs.get("source")
        if bench_alg == "bfs":
            return GapKernel("bfs", files["sg"], ["-r", str(src)], trials, True)
        if bench_alg == "sssp":
            if files["wsg"] is None:
                raise GapUnavailable("GAP's sssp takes int32 weights; this graph's are not "
                                     "integers")
            return GapKernel("sssp", files["wsg"], ["-r", str(src), "-d", str(SSSP_DELTA)],
                             trials, True)
        if bench_alg == "cc":
            return GapKernel("cc", files["sg"], [], trials, True)
        if bench_alg == "pagerank":
            return GapKernel("pr", files["sg"], ["-t", str(PR_TOLERANCE), "-i",
                                                 str(PR_MAX_ITERS)], trials, True)
        if bench_alg == "bc":
            return GapKernel("bc", files["sg"], ["-r", str(src), "-i", "1"], trials, True)
        if bench_alg == "msbc":
            k = len(ctx.inputs["sources"])
            return GapKernel("bc", files["sg"], ["-i", str(k)], trials, True,
                             note=f"{k} sources a trial, GAP's own random picks")
        if bench_alg == "tc":
            deg = np.diff(ctx.graph.host.indptr).astype(np.float64)
            work = float((deg * deg).sum())
            if work > TC_VERIFY_MAX_WORK:
                verify = False
                note = (f"its serial set-intersection oracle would do ~{work:.2g} operations "
                        f"> {TC_VERIFY_MAX_WORK:.0e}: the count is checked against the "
                        f"reference instead")
                k = GapKernel("tc", files["sg"], [], 1, False, note=note, warmup=False)
                # the run made for the case's reference (bench/analytics_case.py), if any
                k.done = ctx.memo.pop("gap:tc_run", None)
                if k.done is not None:
                    k.note += "; the reference is this very run's count (no SciPy count)"
                return k
            return GapKernel("tc", files["sg"], [], trials, True)
        raise KeyError(bench_alg)

    return setup


def _with_gap_ratios(summary, engine_impls):
    """Wrap an algorithm's summary: add ``<engine impl>_vs_gap`` (time(gap) / time(engine))."""
    def wrapped(ctx, results):
        s = dict(summary(ctx, results)) if summary is not None else {}
        g = results.get("gap")
        if g is None or g.status != "ok":
            return s
        for name in engine_impls:
            r = results.get(name)
            if r is not None and r.status == "ok" and r.timing.times_ms:
                s[f"{name.replace('-', '_')}_vs_gap"] = g.timing.median_ms / r.timing.median_ms
        if g.timing.times_ms:
            s["gap_trials"] = len(g.timing.times_ms)
        return s

    return wrapped


GAP_IMPL_DESCRIPTION = {
    "bfs": "GAP bfs (direction-optimizing, OpenMP), -r <source>; GAP's own trial times, "
           "its verifier on",
    "sssp": f"GAP sssp (delta-stepping with bucket fusion, OpenMP), -r <source> -d {SSSP_DELTA}",
    "cc": "GAP cc (Afforest, OpenMP); GAP's verifier on",
    "pagerank": f"GAP pr (Gauss-Seidel pull, OpenMP), -t {PR_TOLERANCE:g} -i {PR_MAX_ITERS}",
    "bc": "GAP bc (Brandes, one source a trial: -r <source> -i 1)",
    "msbc": "GAP bc -i K (K sources a trial, GAP's own random picks)",
    "tc": "GAP tc (ordered count, relabelled by degree when worth it, OpenMP)",
}


_saved_summaries: dict = {}


def register(algorithms=None) -> None:
    """Add the ``gap`` impl (and its ``gap`` reference) to each registered algorithm that GAP
    runs; idempotent. :func:`configure` calls it when a checkout is given: without one there
    is no ``gap`` impl (``python -m bench`` says so on stderr)."""
    for name in algorithms or GAP_ALGORITHMS:
        alg = C.ALGORITHMS.get(name)
        if alg is None or any(i.name == "gap" for i in alg.impls):
            continue
        facts = _REF_FACTS[name]
        alg.references["gap"] = C.Reference(
            "gap", "GAP's own verifier (-v) on every trial, and its analysis (-a) against the "
                   "case's reference", facts, _compare)
        C.add_impl(name, C.Impl("gap", "cpu", "gap", _setup(name), fetch=_fetch,
                                description=GAP_IMPL_DESCRIPTION[name]))
        engine = [i.name for i in alg.impls if i.engine]
        _saved_summaries[name] = alg.summary
        alg.summary = _with_gap_ratios(alg.summary, engine)


def unregister() -> None:
    """Remove what :func:`register` added."""
    for name in GAP_ALGORITHMS:
        alg = C.ALGORITHMS.get(name)
        if alg is None or not any(i.name == "gap" for i in alg.impls):
            continue
        alg.impls = [i for i in alg.impls if i.name != "gap"]
        alg.references.pop("gap", None)
        alg.summary = _saved_summaries.pop(name, alg.summary)


def status() -> str:
    """One line: GAP's configuration and build state (for the run's notes)."""
    if _state["dir"] is None:
        return f"GAP peer: not configured (--gap PATH or {ENV_VAR})"
    try:
        out = build()
    except GapUnavailable as e:
        return f"GAP peer: {e}"
    secs = _state.get("build_seconds")
    return (f"GAP peer: {_state['dir']} built in {out}"
            + (f" ({secs} s)" if secs is not None else " (cached build)")
            + f", OpenMP threads: {os.environ.get('OMP_NUM_THREADS') or os.cpu_count()}")


if os.environ.get(ENV_VAR):
    configure(os.environ[ENV_VAR])
