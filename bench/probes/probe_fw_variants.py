"""Floyd–Warshall schedules and kernel tilings against the relaxation peak, in one process
(issue 20 item 6; a device-tool probe, not a test). Session 13's candidates beside the
session-8 defaults (session 14: the setup kernels and the rest lanes, from the command line):

    PYTHONPATH=. python3 bench/probes/probe_fw_variants.py [n ...] [--json FILE] [--quick]
        [--no-launches] [--product] [--int32-check] [--setup] [--u16-first] [--no-s8]
        [--f32 "label:TILE=1024,CLOSURE_SUB=256,tiling=BK32" ...] [--u16 ...]

(n defaults to 16384; --f32 / --u16 replace the built-in variants after session 8's, which
--no-s8 leaves out too, the first given one then the reference;
--product adds the square products D ⊗ D (K = n), --int32-check the int32 path on the
packed path's graph, which must give the same distances; --setup times each setup step of
the packed and float32 paths, session 13's CuPy code against prep.cu's kernels; a variant's
SETUP_CUPY=1 runs session 13's CuPy setup, LANES_ALL=1 takes FW_REST_LANES for every work
type and size.) Prints, with the peaks of
bench/probes/gemm_tune.measure_peaks measured first in the same process:

1. Floyd–Warshall float32 (weights 1–999, half the pairs without an edge) under each
   variant of F32_VARIANTS: ``FW_SKIP_CROSS`` (phase 3 leaves out the round's own cross),
   the tile, ``CLOSURE_SUB`` (phase 1 of a larger tile by sub-tiles), the tiling; best of
   REPS by CUDA events, the whole call and its ``_floyd_warshall`` loop alone, % of the
   fminf peak, and whether the distances equal the first variant's;
2. the same for the packed path (integer weights 1 – 32766 // (n − 1)) under U16_VARIANTS,
   % of the ``__viaddmin_u16x2`` peak (two lanes per instruction; whole call − loop is the
   setup's cost);
3. single launches of phase 3's shape Z ⊕= C ⊗ R (K = 256, 512, 1024) for float32 and the
   packed u16x2 path, with each tiling of TILINGS (BK = 16 static shared memory, BK = 32
   dynamic) and BK = 16 with Z late.

Every variant's distances are compared with the first's (session 8's schedule). ``--quick``
keeps session 8's schedule and the committed defaults, without the single launches (the
60-second final probe). ``--json`` writes every line's figures as they come.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys

import cupy as cp
import numpy as np

from gemm_tune import measure_peaks  # bench/probes/ is the script's directory

import semiring as sr
import semiring.dense as _dense_mod  # (its _gprep: apsp's setup passes go through it)
from semiring.backend.gpu import dense as _gpu_dense

apsp_mod = importlib.import_module("algorithms.apsp")
INT_MAX = np.iinfo(np.int32).max
REPS = 2
BK16 = (128, 128, 16, 8, 8)
BK32 = (128, 128, 32, 8, 8)
TILINGS = {"BK16": BK16, "BK32": BK32}
#: (label, apsp module settings, 4-byte tiling); the first is session 8's default schedule
F32_VARIANTS = [
    ("s8: full phase 3, tile 256, squaring",
     dict(FW_SKIP_CROSS=False, CLOSURE_SUB=0, TILE=256, FW_CROSS_SIDE=False, FW_FIRST_TILE=0,
          FW_REST_LANES=1, SETUP_CUPY=True), BK16),
    ("defaults (as committed)", {}, None),
    ("skip cross, tile 512, sub 256", dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE=512), BK16),
    ("skip cross, tile 512, squaring", dict(FW_SKIP_CROSS=True, CLOSURE_SUB=0, TILE=512), BK16),
    ("skip cross, tile 1024, sub 256", dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE=1024),
     BK16),
    ("skip cross, tile 512, sub 256, BK32", dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE=512),
     BK32),
    ("skip cross, tile 256, BK32", dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE=256), BK32),
    ("skip cross, tile 512, sub 256, Z late",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE=512, Z_LATE=True), BK16),
    ("skip cross, tile 1024, sub 256, BK32",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE=1024), BK32),
    ("skip cross, tile 512, sub 256, cross on side",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE=512, FW_CROSS_SIDE=True), BK16),
    ("skip cross, tile 1024, sub 256, cross on side",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE=1024, FW_CROSS_SIDE=True), BK16),
]
U16_VARIANTS = [
    ("s8: full phase 3, tile 512, squaring",
     dict(FW_SKIP_CROSS=False, CLOSURE_SUB=0, TILE_U16=512, FW_CROSS_SIDE=False,
          FW_FIRST_TILE=0, FW_REST_LANES=1, SETUP_CUPY=True), BK16),
    ("defaults (as committed)", {}, None),
    ("skip cross, tile 1024, sub 256",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE_U16=1024), BK16),
    ("skip cross, tile 256", dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE_U16=256), BK16),
    ("skip cross, tile 512, sub 256, BK32",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE_U16=512), BK32),
    ("skip cross, tile 1024, sub 256, BK32",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE_U16=1024), BK32),
    ("skip cross, tile 1024, sub 256, Z first",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE_U16=1024, Z_LATE=False), BK16),
    ("skip cross, tile 1024, sub 256, cross on side",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE_U16=1024, FW_CROSS_SIDE=True), BK16),
    ("skip cross, tile 512, sub 256, cross on side",
     dict(FW_SKIP_CROSS=True, CLOSURE_SUB=256, TILE_U16=512, FW_CROSS_SIDE=True), BK16),
]
QUICK = {0, 1}  # variants --quick keeps (indices): session 8's schedule and the defaults

class _NoPrep:
    """apsp's setup kernels declined (SETUP_CUPY=1): session 13's CuPy setup runs."""
    @staticmethod
    def dense_bounds(*a):
        return None

    u16_pack = u16_unpack = dense_d0 = dense_bounds

    @staticmethod
    def prefetch_u16(*a):
        pass


_REAL_PREP = _dense_mod._gprep
RESULTS = []
JSON_PATH = None
LAUNCHES = True
PRODUCT = False
INT32_CHECK = False
SETUP = False
U16_FIRST = False


def record(**fields):
    RESULTS.append(fields)
    if JSON_PATH:
        with open(JSON_PATH, "w") as f:
            json.dump(RESULTS, f, indent=1)


@contextlib.contextmanager
def configured(settings: dict, tiling):
    """apsp module settings (``Z_LATE``: True / False for every policy of the tuned kernel,
    else the default) and the 4-byte tiling for the block, restored after."""
    settings = dict(settings)
    if ("TILE" in settings or "TILE_U16" in settings) and "TILE_MIN_N" not in settings:
        settings["TILE_MIN_N"] = 0  # the tile asked for at any n
    z_late = settings.pop("Z_LATE", None)
    cupy_setup = settings.pop("SETUP_CUPY", False)
    if settings.pop("LANES_ALL", False):  # FW_REST_LANES for every work type and size
        settings["FW_LANES_TYPES"] = frozenset(np.dtype(t) for t in (
            np.float32, np.float64, np.int32, np.int64, np.uint16))
        settings["FW_LANES_MIN_N"] = 0
    old = {k: getattr(apsp_mod, k) for k in settings}
    old_tiling, old_late = _gpu_dense.MINPLUS_TILING, _gpu_dense.Z_LATE
    every = frozenset([_gpu_dense.U16_POLICY]
                      + [p for p, _ in _gpu_dense.MINPLUS_POLICIES.values()])
    try:
        for k, v in settings.items():
            setattr(apsp_mod, k, v)
        if tiling is not None:  # None: the committed tiling
            _gpu_dense.MINPLUS_TILING = {**old_tiling, 4: tuple(tiling)}
        if z_late is not None:
            _gpu_dense.Z_LATE = every if z_late else frozenset()
        if cupy_setup:  # session 13's setup: CuPy's reductions, casts and where
            _dense_mod._gprep = _NoPrep
        yield
    finally:
        _dense_mod._gprep = _REAL_PREP
        for k, v in old.items():
            setattr(apsp_mod, k, v)
        _gpu_dense.MINPLUS_TILING, _gpu_dense.Z_LATE = old_tiling, old_late


def timed(fn, reps=REPS):
    best, out = float("inf"), None
    for _ in range(reps):
        out = None
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        out = fn()
        e.record()
        e.synchronize()
        best = min(best, cp.cuda.get_elapsed_time(s, e) / 1e3)
    return best, out


def graph(n, wmax, seed=1):
    rng = cp.random.RandomState(seed)
    W = rng.randint(1, wmax + 1, (n, n), dtype=np.int32)
    W[rng.random_sample((n, n), dtype=np.float32) < 0.5] = INT_MAX
    return W


def line(kind, label, secs, work, peak, **extra):
    rate = work / secs
    more = " ".join(f"{k} {v}" for k, v in extra.items())
    print(f"  {label:<44} {secs * 1e3:8.1f} ms {rate / 1e12:6.2f} T/s {rate / peak * 100:6.1f}%"
          f" of peak {more}", flush=True)
    record(kind=kind, label=label, ms=secs * 1e3, t_relax_s=rate / 1e12,
           pct_peak=rate / peak * 100, **extra)


class LoopTimer:
    """CUDA events around the outermost apsp._floyd_warshall call (phase 1 by sub-tiles
    calls it again inside): the loop's time without the call's setup and conversions."""

    def __init__(self):
        self.real, self.depth, self.spans = apsp_mod._floyd_warshall, 0, []

    def __enter__(self):
        def wrapped(*a, **k):
            self.depth += 1
            try:
                if self.depth > 1:
                    return self.real(*a, **k)
                s, e = cp.cuda.Event(), cp.cuda.Event()
                s.record()
                out = self.real(*a, **k)
                e.record()
                self.spans.append((s, e))
                return out
            finally:
                self.depth -= 1
        apsp_mod._floyd_warshall = wrapped
        return self

    def __exit__(self, *exc):
        apsp_mod._floyd_warshall = self.real

    def best_ms(self):
        return min(cp.cuda.get_elapsed_time(s, e) for s, e in self.spans)


def fw(kind, label, A, n, peak, ref):
    """Time apsp(A) under the current settings; returns the distances."""
    apsp_mod.apsp(A[:1024, :1024], "floyd_warshall", progress=False)  # compile, warm
    with LoopTimer() as lt:
        secs, D = timed(lambda: apsp_mod.apsp(A, "floyd_warshall", progress=False))
    same = None if ref is None else bool((D == ref).all())
    line(kind, label, secs, float(n) ** 3, peak, loop_ms=round(lt.best_ms(), 1),
         loop_pct=round(float(n) ** 3 / (lt.best_ms() / 1e3) / peak * 100, 1),
         same_as_first=same)
    return D


def setup_steps(W, Af, n):
    """Events around each setup step of the packed path (int32 W) and the float32 path
    (Af), session 13's CuPy code against the kernels of prep.cu, best of 3 (ms)."""
    for label, prep in (("cupy", _NoPrep), ("kernels", _REAL_PREP)):
        _dense_mod._gprep = prep
        try:
            steps = {
                "bounds": lambda: apsp_mod._prepare(W, "apsp"),
                "pack": lambda: apsp_mod._dense_of_u16(W, n, np.dtype(np.int32), cp),
                "unpack": lambda: apsp_mod._finish("apsp", U[:n, :n], np.dtype(np.uint16),
                                                   np.dtype(np.int32), cp),
                "f32 prepare": lambda: apsp_mod._prepare(Af, "apsp"),
                "f32 dense_of": lambda: apsp_mod._dense_of(Af, n, np.dtype(np.float32), cp),
            }
            U = apsp_mod._dense_of_u16(W, n, np.dtype(np.int32), cp)
            out = {}
            for k, fn in steps.items():
                fn()
                out[k] = round(timed(fn, 3)[0] * 1e3, 3)
            same = bool((apsp_mod._dense_of_u16(W, n, np.dtype(np.int32), cp)
                         == _dense_of_u16_ref(W, n)).all())
            bounds = apsp_mod._prepare(W, "apsp")[4]
            print(f"  setup steps ({label}): {out} pack equals CuPy's: {same}, bounds {bounds}",
                  flush=True)
            record(kind="setup", label=label, pack_same=same, weight_bounds=str(bounds),
                   **{f"{k} ms": v for k, v in out.items()})
            del U
        finally:
            _dense_mod._gprep = _REAL_PREP


def _dense_of_u16_ref(W, n):
    _dense_mod._gprep = _NoPrep
    try:
        return apsp_mod._dense_of_u16(W, n, np.dtype(np.int32), cp)
    finally:
        _dense_mod._gprep = _REAL_PREP


def main(n, quick=False):
    dev = cp.cuda.Device()
    name = cp.cuda.runtime.getDeviceProperties(dev.id)["name"].decode()
    print(f"device: {name}", flush=True)
    record(kind="device", name=name, n=n)
    defaults = dict(TILE=apsp_mod.TILE, TILE_U16=apsp_mod.TILE_U16,
                    TILE_MIN_N=apsp_mod.TILE_MIN_N, TILE_SMALL=apsp_mod.TILE_SMALL,
                    FW_SKIP_CROSS=apsp_mod.FW_SKIP_CROSS, CLOSURE_SUB=apsp_mod.CLOSURE_SUB,
                    FW_CROSS_SIDE=apsp_mod.FW_CROSS_SIDE, FW_FIRST_TILE=apsp_mod.FW_FIRST_TILE,
                    tiling=_gpu_dense.MINPLUS_TILING[4], Z_LATE=sorted(_gpu_dense.Z_LATE))
    print(f"defaults: {defaults}", flush=True)
    record(kind="defaults", **{k: str(v) for k, v in defaults.items()})
    peaks = measure_peaks()
    print("peaks (T relax/s): " + ", ".join(f"{k} {v / 1e12:.2f}" for k, v in peaks.items()),
          flush=True)
    record(kind="peaks", **{k: v / 1e12 for k, v in peaks.items()})
    pf, pu = peaks["f32"], peaks["u16x2_dpx"]

    def f32_part():
        print(f"Floyd–Warshall float32, n = {n} (whole call; loop_* = _floyd_warshall alone):")
        W = graph(n, 999)
        Af = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
        if PRODUCT:  # the square product's rate: the kernel's k loop without Floyd–Warshall
            U = cp.minimum(W, 999).astype(cp.uint16)
            sr.gemm(Af[:256, :256], Af[:256, :256], sr.min_plus, np.float32)
            secs, _ = timed(lambda: sr.gemm(Af, Af, sr.min_plus, np.float32))
            line("product", "f32 product Z = D ⊗ D (K = n)", secs, float(n) ** 3, pf)
            sr.dense.gemm_u16(U[:256, :256], U[:256, :256])
            secs, _ = timed(lambda: sr.dense.gemm_u16(U, U))
            line("product", "u16x2 product Z = D ⊗ D (K = n)", secs, float(n) ** 3, pu)
            del U
        del W
        ref = None
        for i, (label, settings, tiling) in enumerate(F32_VARIANTS):
            if quick and i not in QUICK:
                continue
            try:
                with configured(settings, tiling):
                    D = fw("fw_f32", label, Af, n, pf, ref)
            except Exception as e:  # a failed variant is reported; the others still run
                print(f"  {label}: FAILED {type(e).__name__}: {e}", flush=True)
                record(kind="fw_f32", label=label, error=f"{type(e).__name__}: {e}")
                continue
            if ref is None:
                ref = D
            del D
        del Af, ref
        cp.get_default_memory_pool().free_all_blocks()

    def u16_part():
        wmax = max(1, apsp_mod.U16_MAX_DISTANCE // (n - 1))
        print(f"Floyd–Warshall packed u16x2, int32 weights in [1, {wmax}], n = {n}:")
        W = graph(n, wmax, seed=2)
        if SETUP:
            Af = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
            setup_steps(W, Af, n)
            del Af
            cp.get_default_memory_pool().free_all_blocks()
        ref = None
        for i, (label, settings, tiling) in enumerate(U16_VARIANTS):
            if quick and i not in QUICK:
                continue
            try:
                with configured(settings, tiling):
                    D = fw("fw_u16", label, W, n, pu, ref)
            except Exception as e:  # a failed variant is reported; the others still run
                print(f"  {label}: FAILED {type(e).__name__}: {e}", flush=True)
                record(kind="fw_u16", label=label, error=f"{type(e).__name__}: {e}")
                continue
            if ref is None:
                ref = D
                print(f"    dtype {D.dtype}; unreachable pairs {int((D == INT_MAX).sum())}",
                      flush=True)
            del D
        if INT32_CHECK:  # the int32 path (saturating DPX kernel) on the same graph: equal?
            old_u16 = apsp_mod.FW_U16
            try:
                apsp_mod.FW_U16 = False
                apsp_mod.apsp(W[:1024, :1024], "floyd_warshall", progress=False)
                secs, D32 = timed(lambda: apsp_mod.apsp(W, "floyd_warshall", progress=False), 1)
                line("fw_i32", "int32 path (FW_U16 off)", secs, float(n) ** 3, peaks["i32_dpx"],
                     equals_packed=bool((D32 == ref).all()))
                del D32
            finally:
                apsp_mod.FW_U16 = old_u16
        del W, ref
        cp.get_default_memory_pool().free_all_blocks()

    for part in ((u16_part, f32_part) if U16_FIRST else (f32_part, u16_part)):
        part()

    cp.get_default_memory_pool().free_all_blocks()
    if not quick and LAUNCHES:
        print(f"single launches Z ⊕= C ⊗ R, n = {n}:")
        W = graph(n, 999)
        Df = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
        U = cp.minimum(W, 999).astype(cp.uint16)
        del W
        for (tname, tiling), extra in [(t, {"Z_LATE": False}) for t in TILINGS.items()] + [
                (("BK16 Z late", BK16), {"Z_LATE": True})]:
            with configured(extra, tiling):
                Z = Df.copy()
                for K in (256, 512, 1024):
                    C, R = cp.ascontiguousarray(Df[:, :K]), cp.ascontiguousarray(Df[:K, :])
                    sr.gemm_accumulate(Z[:256, :256], C[:256], R[:, :256], sr.min_plus,
                                       np.float32)
                    secs, _ = timed(lambda: sr.gemm_accumulate(Z, C, R, sr.min_plus, np.float32))
                    line("launch", f"f32 K = {K}, {tname}", secs, float(n) * n * K, pf)
                del Z
                Z = U.copy()
                for K in (256, 512, 1024):
                    C, R = cp.ascontiguousarray(U[:, :K]), cp.ascontiguousarray(U[:K, :])
                    sr.dense.gemm_u16_accumulate(Z[:256, :256], C[:256], R[:, :256])
                    secs, _ = timed(lambda: sr.dense.gemm_u16_accumulate(Z, C, R))
                    line("launch", f"u16x2 K = {K}, {tname}", secs, float(n) * n * K, pu)
                del Z, C, R
        del Df, U
        cp.get_default_memory_pool().free_all_blocks()


def parse_spec(spec: str):
    """A variant from the command line: "label:KEY=VALUE,..." (KEY an apsp setting, Z_LATE or
    tiling=BK16|BK32; values int or 0/1 for the switches)."""
    label, _, body = spec.partition(":")
    settings, tiling = {}, BK16
    for item in filter(None, body.split(",")):
        k, _, v = item.partition("=")
        if k == "tiling":
            tiling = TILINGS[v]
        elif k in ("FW_SKIP_CROSS", "FW_CROSS_SIDE", "Z_LATE", "SETUP_CUPY", "LANES_ALL"):
            settings[k] = bool(int(v))
        else:
            settings[k] = int(v)
    return label, settings, tiling


if __name__ == "__main__":
    args = sys.argv[1:]

    def take(flag):
        out = []
        while flag in args:
            i = args.index(flag)
            out.append(args[i + 1])
            del args[i:i + 2]
        return out
    JSON_PATH = (take("--json") or [None])[-1]
    f32, u16 = take("--f32"), take("--u16")
    keep = 0 if "--no-s8" in args else 1  # the reference: session 8's schedule, or the first given
    if f32:  # session 8's schedule first, then the given ones
        F32_VARIANTS[:] = F32_VARIANTS[:keep] + [parse_spec(x) for x in f32]
    if u16:
        U16_VARIANTS[:] = U16_VARIANTS[:keep] + [parse_spec(x) for x in u16]
    LAUNCHES = "--no-launches" not in args
    PRODUCT, INT32_CHECK = "--product" in args, "--int32-check" in args
    SETUP, U16_FIRST = "--setup" in args, "--u16-first" in args
    quick = "--quick" in args
    args = [a for a in args if not a.startswith("--")]
    for size in (args or ["16384"]):
        main(int(size), quick)
