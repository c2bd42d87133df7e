"""Device probe for the tuned min/max-plus GEMM (semiring/kernels/minplus_gemm.cu).

    PYTHONPATH=. python3 bench/probes/gemm_tune.py [n ...]        (default: 4096 8192 16384)

Compiles every candidate tiling of ``semiring.backend.gpu.dense.MINPLUS_CANDIDATES`` for each variant
(NVRTC, in parallel threads), measures the device's peak relaxation rate with the
register-only probes of ``semiring/kernels/apsp_probe.cu`` in the same process, then times
one square product Z = D ⊗ D per (variant, tiling, n) and prints the rate (n³ relaxations
per second) and its fraction of the matching peak, with the kernel's registers and local
(spill) bytes. Each result is checked on a few rows against a CuPy broadcast reference.

Variants: float32 min-plus (peak: the fminf probe), int32 min-plus with DPX (the
__viaddmin_s32 probe), int32 without DPX (-DMP_NO_DPX; the plain IADD+IMNMX probe), the
saturating int32 DPX path of APSP (the DPX probe) and float64 min-plus (no probe: rate only).
Then Floyd–Warshall (``algorithms.apsp``, the production tiling) on float32 and int32
weights. The best tiling per variant at the largest n is printed last; put it into
``semiring.backend.gpu.dense.MINPLUS_TILING`` (keyed by item size: float32 and int32 share one entry).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import cupy as cp
from cupy_backends.cuda.api import driver
from cupy_backends.cuda.libs import nvrtc

from algorithms.apsp import apsp
from semiring import kernels
from semiring.backend.gpu import dense as _dense

INT_MAX = np.iinfo(np.int32).max
#: (label, policy, dtype, extra NVRTC options, peak key)
VARIANTS = [
    ("f32 min_plus", "mp_fmin_plus<float>", np.float32, (), "f32"),
    ("i32 min_plus DPX", "mp_imin_plus", np.int32, (), "i32_dpx"),
    ("i32 min_plus plain", "mp_imin_plus", np.int32, ("-DMP_NO_DPX",), "i32_plain"),
    ("i32 min_plus_sat DPX", "mp_imin_plus_sat", np.int32, (), "i32_dpx"),
    ("f64 min_plus", "mp_fmin_plus<double>", np.float64, (), None),
]
#: rows checked per result
CHECK_ROWS = 3
#: a timing takes the best of up to this many launches, stopping after MIN_SECONDS
REPS, MIN_SECONDS = 3, 0.25


def arch() -> str:
    return f"sm_{cp.cuda.Device(0).compute_capability}"  # CuPy gives "90" on an H100


def compile_one(name: str, options) -> tuple:
    """(cubin bytes, lowered name) of one instantiation."""
    prog = nvrtc.createProgram(_dense.minplus_source(), "minplus_gemm.cu", [], [])
    try:
        nvrtc.addNameExpression(prog, name)
        try:
            nvrtc.compileProgram(prog, [f"-arch={arch()}", *kernels.NVRTC_OPTIONS, *options])
        except nvrtc.NVRTCError as e:
            raise RuntimeError(f"{name}: {e}\n{nvrtc.getProgramLog(prog)}") from None
        return nvrtc.getCUBIN(prog), nvrtc.getLoweredName(prog, name)
    finally:
        nvrtc.destroyProgram(prog)


def load(cubin: bytes, lowered: str):
    mod = cp.cuda.function.Module()
    mod.load(cubin)
    return mod, mod.get_function(lowered)


def regs_and_local(f) -> tuple:
    """(registers per thread, local memory bytes per thread: spills) of a loaded kernel."""
    return (driver.funcGetAttribute(driver.CU_FUNC_ATTRIBUTE_NUM_REGS, f.ptr),
            driver.funcGetAttribute(driver.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f.ptr))


def measure_peaks() -> dict:
    """Peak relaxations/s of the apsp_probe.cu kernels (as bench/apsp_case.py measures them)."""
    mod = kernels.module(("apsp_probe",), kernels.source("apsp_probe.cu"), [], compile=False)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    threads, blocks, per_iter = 256, sms * 8, 64
    out = {}
    for key, fname, dt in (("f32", "probe_fmin_f32", np.float32),
                           ("i32_dpx", "probe_viaddmin_s32", np.int32),
                           ("i32_plain", "probe_min_s32", np.int32),
                           ("u16x2_dpx", "probe_viaddmin_u16x2", np.uint32)):
        f = mod.get_function(fname)
        init = cp.asarray(np.arange(16, dtype=dt) * 3 + 1)
        res = cp.empty(blocks * threads, dtype=dt)

        def launch(iters):
            s, e = cp.cuda.Event(), cp.cuda.Event()
            s.record()
            f((blocks,), (threads,), (init, dt(1), np.int32(iters), res))
            e.record()
            e.synchronize()
            return cp.cuda.get_elapsed_time(s, e) / 1e3

        launch(256)
        iters = max(256, int(256 * 0.03 / max(launch(256), 1e-6)))
        lanes = 2 if key == "u16x2_dpx" else 1  # two relaxations per packed word
        out[key] = (lanes * blocks * threads * iters * per_iter
                    / min(launch(iters) for _ in range(5)))
    return out


def operand(n: int, dtype, policy: str, rng):
    """D (n × n): small non-negative weights and some infinities (no NaN), within the
    saturating path's bound (n · max w <= 2^28); generated on the device."""
    w = rng.randint(0, 1000, (n, n), dtype=np.int32).astype(dtype)
    inf = INT_MAX if np.dtype(dtype).kind == "i" else np.inf
    if np.dtype(dtype).kind == "i" and policy == "mp_imin_plus":
        inf = 1 << 29  # plain int32 min-plus wraps: an "infinity" whose doubles still fit
    w[rng.random_sample((n, n), dtype=np.float32) < 0.2] = inf
    return w


def reference_rows(D, rows, policy: str):
    out = []
    for i in rows:
        if policy == "mp_imin_plus_sat":
            a, b = D[i][:, None].astype(cp.int64), D.astype(cp.int64)
            s = cp.where((a == INT_MAX) | (b == INT_MAX), INT_MAX, a + b)
            out.append(s.min(axis=0).astype(cp.int32))
        else:
            out.append((D[i][:, None] + D).min(axis=0))
    return out


def time_kernel(policy, tiling, kernel, D, Z) -> float:
    best = float("inf")
    spent = 0.0
    for _ in range(REPS):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        _dense._minplus_launch(policy, D, D, Z, accumulate=False, tiling=tiling, kernel=kernel)
        e.record()
        e.synchronize()
        t = cp.cuda.get_elapsed_time(s, e) / 1e3
        best, spent = min(best, t), spent + t
        if spent > MIN_SECONDS:
            break
    return best


def time_floyd_warshall(sizes, peaks):
    """algorithms.apsp(D, "floyd_warshall") with the production tiling: float32 and int32
    (the saturating DPX path) on the same graph; the two must agree exactly (integer weights,
    float32 sums below 2^24)."""
    print("\nFloyd–Warshall (algorithms.apsp, MINPLUS_TILING), n³ relaxations:")
    rng = cp.random.RandomState(1)
    for n in sizes:
        W = rng.randint(1, 1000, (n, n), dtype=np.int32)
        W[rng.random_sample((n, n), dtype=np.float32) < 0.5] = INT_MAX
        Wf = cp.where(W == INT_MAX, cp.float32(np.inf), W.astype(cp.float32))
        res = {}
        for label, A, key in (("f32", Wf, "f32"), ("i32 sat DPX", W, "i32_dpx")):
            apsp(A[:256, :256], "floyd_warshall", progress=False)  # compile and warm up
            s, e = cp.cuda.Event(), cp.cuda.Event()
            s.record()
            res[label] = apsp(A, "floyd_warshall", progress=False)
            e.record()
            e.synchronize()
            secs = cp.cuda.get_elapsed_time(s, e) / 1e3
            rate = float(n) ** 3 / secs
            print(f"  {label:<12} n = {n:>6}: {secs * 1e3:9.1f} ms  {rate / 1e12:6.2f} T/s  "
                  f"{rate / peaks[key] * 100:5.1f}% of peak", flush=True)
        Di = res["i32 sat DPX"]
        same = bool((cp.where(Di == INT_MAX, cp.float32(np.inf), Di.astype(cp.float32))
                     == res["f32"]).all())
        print(f"  f32 and i32 distances {'agree' if same else 'DIFFER'}")
        del W, Wf, res, Di
        cp.get_default_memory_pool().free_all_blocks()


def main(argv):
    sizes = [int(a) for a in argv] or [4096, 8192, 16384]
    t0 = time.time()
    dev = cp.cuda.Device()
    print(f"device: {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()} ({arch()}), "
          f"NVRTC {nvrtc.getVersion()}")
    jobs = [(v, tiling) for v in VARIANTS
            for tiling in _dense.MINPLUS_CANDIDATES[np.dtype(v[2]).itemsize]]
    def build(job):
        try:
            return compile_one(_dense.minplus_name(job[0][1], job[1]), job[0][3])
        except RuntimeError as e:  # report and go on with the other candidates
            print(f"compile failed: {e}", flush=True)
            return None

    with ThreadPoolExecutor(16) as pool:
        built = list(pool.map(build, jobs))
    jobs = [j for j, b in zip(jobs, built) if b is not None]
    kernels = [load(*b) for b in built if b is not None]
    print(f"compiled {len(jobs)} kernels in {time.time() - t0:.1f} s")
    peaks = measure_peaks()
    print("peaks (T relax/s): " + ", ".join(f"{k} {v / 1e12:.2f}" for k, v in peaks.items()))
    rng = cp.random.RandomState(0)
    best = {}
    print(f"{'variant':<22} {'tiling (BM,BN,BK,TM,TN)':<24} {'regs':>4} {'local':>5} {'n':>6} "
          f"{'ms':>9} {'T/s':>6} {'% peak':>7} check")
    for n in sizes:
        data = {}
        for (label, policy, dtype, _, peak_key), tiling, (_, f) in zip(
                [j[0] for j in jobs], [j[1] for j in jobs], kernels):
            key = (np.dtype(dtype), policy)
            if key not in data:
                data.clear()  # one operand set at a time (the variants come grouped)
                D = operand(n, dtype, policy, rng)
                rows = [0, n // 2 + 1, n - 1][:CHECK_ROWS]
                data[key] = (D, cp.empty_like(D), rows, reference_rows(D, rows, policy))
            D, Z, rows, ref = data[key]
            Z.fill(0)
            _dense._minplus_launch(policy, D, D, Z, accumulate=False, tiling=tiling, kernel=f)
            ok = all(bool((Z[i] == r).all()) for i, r in zip(rows, ref))
            secs = time_kernel(policy, tiling, f, D, Z)
            rate = float(n) ** 3 / secs
            frac = rate / peaks[peak_key] if peak_key else float("nan")
            regs, local = regs_and_local(f)
            print(f"{label:<22} {str(tiling):<24} {regs:>4} {local:>5} {n:>6} "
                  f"{secs * 1e3:>9.2f} {rate / 1e12:>6.2f} {frac * 100:>6.1f}% "
                  f"{'ok' if ok else 'WRONG'}", flush=True)
            if ok and n == sizes[-1] and rate > best.get(label, (0, None))[0]:
                best[label] = (rate, tiling, frac)
        data.clear()
        cp.get_default_memory_pool().free_all_blocks()
    time_floyd_warshall(sizes, peaks)
    print(f"\nbest at n = {sizes[-1]} (current MINPLUS_TILING {_dense.MINPLUS_TILING}):")
    for label, (rate, tiling, frac) in best.items():
        print(f"  {label:<22} {tiling}  {rate / 1e12:.2f} T/s  ({frac * 100:.1f}% of peak)")
    print(f"total {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
