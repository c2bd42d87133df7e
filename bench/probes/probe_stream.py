"""Why the streamed Floyd–Warshall's copies do or do not overlap its products (a device-tool
probe, not a test).

    PYTHONPATH=. python3 bench/probes/probe_stream.py [--sizes 16384 12288] [--block 4096]
                                               [--out DIR] [--small]

1. **Raw copies**: host ↔ device bandwidth from pinned and from pageable host memory, both
   directions, 64 MiB to 1 GiB (CUDA events around one ``cudaMemcpyAsync`` on a non-blocking
   stream, best of ``REPS``), and how long the issuing call blocks the host (pinned: µs;
   pageable: about the whole copy, which is what serializes a loop that issues copies).
2. **Overlap**: a copy on one non-blocking stream while a kernel that occupies every SM runs
   on another: a clock64 spin kernel (a pure test) against a pinned H2D, a pinned D2H, both
   at once, and a pageable H2D; then the streamed run's own shapes (one tile's H2D and D2H,
   T × n, beside one tile's product, ``gemm_accumulate`` T × n × B). ``overlap`` is
   (t_copy + t_kernel − t_both) / min(t_copy, t_kernel): 1 = the shorter one fully hidden,
   0 = serialized.
3. **Streamed Floyd–Warshall** at each n (float32, B = ``--block``, forced through
   ``memory_budget``): in memory, then streamed with STREAM_SLOTS = 3 and 1, each with the
   lookahead on and off; wall time, relaxations/s (n³ / wall), the host's setup / loop /
   finish seconds, bytes copied, copy rate over the loop, whether D was pinned, and whether
   the result equals the in-memory one. Each configuration runs twice: timed without
   events, then traced with CUDA events (``_apsp_stream.trace(events=True)``), whose spans
   give the copy time hidden under products (``hidden``), the mean number of slots busy
   (``mean_slots``) and the rates of the copies while in flight.

Prints a short table at the end and writes ``probe_stream.json`` under ``--out`` (default
``$OUT`` or ./probe-stream). About 1-2 minutes on an H100 at n = 16384 once the kernels are
compiled. ``--small`` runs tiny sizes on whatever backend is present (on a machine without
a GPU: only part 3, on the CPU: a smoke test of this script).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

import algorithms  # noqa: E402
import semiring as sr  # noqa: E402
from semiring import gemm_accumulate  # noqa: E402

apsp_mod = importlib.import_module("algorithms.apsp")
stream_mod = importlib.import_module("algorithms._apsp_stream")

REPS = 3
MIB = 1 << 20

SPIN_SRC = r"""
extern "C" __global__ void spin(long long cycles, unsigned long long* sink) {
    long long t0 = clock64();
    unsigned long long x = 0;
    while (clock64() - t0 < cycles) { ++x; }
    if (x == ~0ull) sink[0] = x;  // never: keeps the loop
}
"""


# ------------------------------------------------------------------------------ helpers

def gbps(nbytes, seconds):
    return nbytes / seconds / 1e9 if seconds > 0 else float("nan")


def graph(n, deg, seed, dtype=np.float32):
    """Random directed graph, ``deg`` out-edges per vertex, integer weights in [1, 255]
    (float32 sums of up to n · 255 < 2^24 are exact: streamed and in-memory agree bitwise)."""
    rng = np.random.default_rng(seed)
    r = np.repeat(np.arange(n), deg)
    c = rng.integers(0, n, n * deg)
    w = rng.integers(1, 256, n * deg).astype(np.float64)
    S = sp.csr_matrix((w, (r, c)), shape=(n, n))
    S.sum_duplicates()
    return S.astype(dtype)


class Gpu:
    """The CuPy pieces of parts 1 and 2."""

    def __init__(self):
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        self.cp = cupy
        self.streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(3)]
        self.spin = cupy.RawKernel(SPIN_SRC, "spin")
        self.sink = cupy.zeros(1, dtype=cupy.uint64)
        props = cupy.cuda.runtime.getDeviceProperties(0)
        self.name = props["name"].decode()
        self.sms = props["multiProcessorCount"]
        # copy engines (2: H2D and D2H can both run beside kernels), concurrent kernels
        self.info = {k: props.get(k) for k in ("asyncEngineCount", "concurrentKernels",
                                                "pciBusID", "multiProcessorCount")}

    def pinned(self, nbytes):
        mem = self.cp.cuda.PinnedMemoryPointer(self.cp.cuda.PinnedMemory(nbytes), 0)
        a = np.frombuffer(mem, dtype=np.uint8, count=nbytes)
        a[:] = 1  # touched, as D is
        return a

    def is_pinned(self, a):
        from cupy.cuda import pinned_memory  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        return bool(pinned_memory.is_memory_pinned(a.ctypes.data))

    def copy(self, stream, host, dev, direction):
        """Issue one async copy of host.nbytes on ``stream``; returns the host seconds the
        call blocked."""
        t = time.perf_counter()
        if direction == "h2d":
            dev.data.copy_from_host_async(host.ctypes.data, host.nbytes, stream)
        else:
            dev.data.copy_to_host_async(host.ctypes.data, host.nbytes, stream)
        return time.perf_counter() - t

    def timed(self, stream, fn):
        """(device seconds between events around fn's work on ``stream``, host seconds fn
        blocked)."""
        self.cp.cuda.Device().synchronize()
        e0 = stream.record()
        blocked = fn()
        e1 = stream.record()
        e1.synchronize()
        return self.cp.cuda.get_elapsed_time(e0, e1) / 1e3, blocked

    def launch_spin(self, stream, cycles):
        with stream:
            self.spin((self.sms * 8,), (128,), (np.int64(cycles), self.sink))
        return 0.0

    def spin_cycles(self, seconds):
        """Cycles of the spin kernel for about ``seconds`` (measured, not from the clock rate,
        which CUDA 13 no longer reports in cudaDeviceProp)."""
        probe = 10_000_000
        t, _ = self.timed(self.streams[0], lambda: self.launch_spin(self.streams[0], probe))
        t, _ = self.timed(self.streams[0], lambda: self.launch_spin(self.streams[0], probe))
        return int(probe * seconds / t)

    def together(self, jobs):
        """Run ``jobs`` (stream index, fn issuing work on that stream) from one common start
        event; returns the seconds from it to the last one's end."""
        cp = self.cp
        cp.cuda.Device().synchronize()
        start = self.streams[0].record()
        for i, _ in jobs:
            if i:
                self.streams[i].wait_event(start)
        ends = []
        for i, fn in jobs:
            fn()
            ends.append(self.streams[i].record())
        for e in ends:
            e.synchronize()
        return max(cp.cuda.get_elapsed_time(start, e) for e in ends) / 1e3


# ------------------------------------------------------------------------------ part 1

def raw_copies(g, sizes_mib, rep):
    rows = []
    big = max(sizes_mib) * MIB
    dev = g.cp.empty(big, dtype=g.cp.uint8)
    pin = g.pinned(big)
    page = np.ones(big, dtype=np.uint8)
    rep["pinned_check"] = {"pinned_buffer": g.is_pinned(pin), "pageable_buffer": g.is_pinned(page)}
    s = g.streams[1]
    for mib in sizes_mib:
        nb = mib * MIB
        row = {"MiB": mib}
        for kind, host in (("pinned", pin[:nb]), ("pageable", page[:nb])):
            for direction in ("h2d", "d2h"):
                best, blocked = float("inf"), 0.0
                for _ in range(REPS):
                    t, b = g.timed(s, lambda: g.copy(s, host, dev[:nb], direction))
                    if t < best:
                        best, blocked = t, b
                row[f"{kind}_{direction}_GBps"] = gbps(nb, best)
                row[f"{kind}_{direction}_host_blocked"] = blocked / best if best > 0 else None
        rows.append(row)
        print("raw", row, flush=True)
    rep["raw"] = rows
    return pin, page, dev


# ------------------------------------------------------------------------------ part 2

def overlap(t_copy, t_kernel, t_both):
    hid = (t_copy + t_kernel - t_both) / min(t_copy, t_kernel)
    return max(0.0, min(1.0, hid))


def overlap_tests(g, pin, page, dev, block, rows, n, rep):
    cp = g.cp
    nb = pin.nbytes
    s0, s1, s2 = g.streams
    out = []
    t_h2d, _ = g.timed(s1, lambda: g.copy(s1, pin, dev, "h2d"))
    cycles = g.spin_cycles(max(t_h2d, 0.02))
    t_spin, _ = g.timed(s0, lambda: g.launch_spin(s0, cycles))

    def case(name, copies, kernel, t_kernel):
        """copies: [(stream index, host, device, direction)]; kernel: fn on stream 0."""
        t_copies = g.together([(i, (lambda i=i, h=h, d=d, di=di:
                                    g.copy(g.streams[i], h, d, di)))
                               for i, h, d, di in copies])
        t_both = g.together([(0, kernel)] + [(i, (lambda i=i, h=h, d=d, di=di:
                                                  g.copy(g.streams[i], h, d, di)))
                                             for i, h, d, di in copies])
        r = {"case": name, "copy_s": t_copies, "kernel_s": t_kernel, "both_s": t_both,
             "overlap": overlap(t_copies, t_kernel, t_both)}
        out.append(r)
        print("overlap", r, flush=True)

    half = nb // 2
    spin = (lambda: g.launch_spin(s0, cycles))
    case(f"spin + pinned H2D {nb // MIB} MiB", [(1, pin, dev, "h2d")], spin, t_spin)
    case(f"spin + pinned D2H {nb // MIB} MiB", [(1, pin, dev, "d2h")], spin, t_spin)
    case(f"spin + pinned H2D & D2H {half // MIB} MiB each",
         [(1, pin[:half], dev[:half], "h2d"), (2, pin[half:], dev[half:], "d2h")], spin, t_spin)
    case(f"spin + pageable H2D {nb // MIB} MiB", [(1, page, dev, "h2d")], spin, t_spin)
    case(f"spin + pageable D2H {nb // MIB} MiB", [(1, page, dev, "d2h")], spin, t_spin)

    # the streamed run's shapes: one tile's copies beside one tile's product
    rng = np.random.default_rng(0)
    Z = cp.asarray(rng.integers(0, 1000, (rows, n)).astype(np.float32))
    X = cp.asarray(rng.integers(0, 1000, (rows, block)).astype(np.float32))
    Y = cp.asarray(rng.integers(0, 1000, (block, n)).astype(np.float32))

    def product():
        with s0:
            gemm_accumulate(Z, X, Y, sr.min_plus, np.float32)
        return 0.0

    product()  # compile
    t_prod, _ = g.timed(s0, product)
    tb = rows * n * 4
    if 2 * tb > nb:  # both tiles inside the raw copies' buffers
        rep["overlap"] = out
        return
    tile_h, tile_d = pin[:tb], pin[tb:2 * tb]
    case(f"tile product {rows}x{n}x{block} + tile H2D & D2H ({tb / 1e6:.0f} MB each)",
         [(1, tile_h, dev[:tb], "h2d"), (2, tile_d, dev[tb:2 * tb], "d2h")], product, t_prod)
    rep["overlap"] = out


def pcie_link():
    """The PCIe link nvidia-smi reports (it may train down when idle: read after the copies);
    None without nvidia-smi."""
    q = "pcie.link.gen.current,pcie.link.width.current,pcie.link.gen.max,pcie.link.width.max"
    try:
        res = subprocess.run(["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return dict(zip(q.split(","), (v.strip() for v in res.stdout.splitlines()[0].split(","))))


# ------------------------------------------------------------------------------ part 3

def sync(device):
    if device == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        cupy.cuda.Device().synchronize()


def host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def streamed_runs(device, n, block, rep, gpu=None):
    tile = apsp_mod.TILE if device == "gpu" else apsp_mod.TILE_CPU
    S = graph(n, 16, 2)
    M = sr.Matrix.from_scipy(S, device=device)
    t = time.perf_counter()
    algorithms.apsp(sr.Matrix.from_scipy(graph(300, 8, 1), device=device), "floyd_warshall",
                    progress=False)  # compile, warm up
    sync(device)
    rep.setdefault("warmup_s", time.perf_counter() - t)
    sync(device)
    t = time.perf_counter()
    ref = algorithms.apsp(M, "floyd_warshall", progress=False)
    sync(device)
    t_mem = time.perf_counter() - t
    t = time.perf_counter()
    ref = host(ref)  # the streamed result is in host memory: the in-memory run's copy there
    t_get = time.perf_counter() - t
    rows = [dict(n=n, run="in-memory", seconds=t_mem, relax_per_s=n ** 3 / t_mem,
                 to_host_s=t_get)]
    print("fw", rows[-1], flush=True)
    old = (stream_mod.STREAM_SLOTS, stream_mod.STREAM_LOOKAHEAD)
    try:
        for slots, look in ((3, True), (1, True), (3, False), (1, False)):
            stream_mod.STREAM_SLOTS, stream_mod.STREAM_LOOKAHEAD = slots, look
            budget = stream_mod.stream_need(n, block, 4, tile)
            row = dict(n=n, run="streamed", slots=slots, lookahead=look)
            for events in (False, True):
                with stream_mod.trace(events=events) as runs:
                    sync(device)
                    t = time.perf_counter()
                    got = algorithms.apsp(M, "floyd_warshall", progress=False,
                                          memory_budget=budget)
                    sync(device)
                    wall = time.perf_counter() - t
                if len(runs) != 1:
                    row["error"] = "the in-memory run was chosen: lower --block"
                    break
                d = runs[0].as_dict()
                if not events:
                    moved = d["bytes_h2d"] + d["bytes_d2h"]
                    row.update(
                        block=d["block"], rows=d["rows"], rounds=d["rounds"],
                        seconds=wall, relax_per_s=n ** 3 / wall, vs_in_memory=wall / t_mem,
                        setup_s=d["setup_s"], loop_s=d["loop_s"], finish_s=d["finish_s"],
                        copied_GB=moved / 1e9, copy_GBps_loop=gbps(moved, d["loop_s"]),
                        pinned=d["pinned"],
                        pinned_result=(gpu.is_pinned(got) if gpu is not None else None),
                        equal=bool(np.array_equal(got, ref)))
                else:
                    o = d["overlap"]
                    row.update(
                        traced_seconds=wall, hidden=o["hidden"], mean_slots=o["mean_slots"],
                        copy_s=o["copy_s"], compute_s=o["compute_s"],
                        copy_under_compute_s=o["copy_under_compute_s"], span_s=o["span_s"],
                        h2d_GBps_in_flight=gbps(d["bytes_h2d"], o["h2d_s"]),
                        d2h_GBps_in_flight=gbps(d["bytes_d2h"], o["d2h_s"]),
                        lanes=o["lanes"], equal_traced=bool(np.array_equal(got, ref)))
                del got
            rows.append(row)
            print("fw", {k: v for k, v in row.items() if k != "lanes"}, flush=True)
    finally:
        stream_mod.STREAM_SLOTS, stream_mod.STREAM_LOOKAHEAD = old
    rep["fw"].extend(rows)


# ------------------------------------------------------------------------------ report

def onoff(v):
    return "on" if v else "off"


def fmt(v, spec=".2f"):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return format(v, spec)
    return str(v)


def table(rep):
    print()
    print(f"== device: {rep.get('gpu', 'CPU (no GPU)')}  {rep.get('gpu_info') or ''}")
    print(f"   PCIe: {rep.get('pcie')}  env: "
          f"{ {k: v for k, v in rep['env'].items() if v is not None} }")
    if rep.get("raw"):
        print("== raw copies, GB/s (CUDA events; 'blk': share of the copy the issuing call "
              "blocked the host)")
        print(f"{'MiB':>6} {'pin H2D':>8} {'pin D2H':>8} {'page H2D':>9} {'page D2H':>9} "
              f"{'blk pin':>8} {'blk page':>9}")
        for r in rep["raw"]:
            print(f"{r['MiB']:>6} {r['pinned_h2d_GBps']:>8.1f} {r['pinned_d2h_GBps']:>8.1f} "
                  f"{r['pageable_h2d_GBps']:>9.1f} {r['pageable_d2h_GBps']:>9.1f} "
                  f"{r['pinned_h2d_host_blocked']:>8.2f} "
                  f"{r['pageable_h2d_host_blocked']:>9.2f}")
        print(f"   pinned check: {rep['pinned_check']}")
    if rep.get("overlap"):
        print("== copy/compute overlap (1 = the shorter fully hidden, 0 = serialized)")
        for r in rep["overlap"]:
            print(f"   {r['case']:<62} copy {r['copy_s'] * 1e3:7.1f} ms  kernel "
                  f"{r['kernel_s'] * 1e3:7.1f} ms  both {r['both_s'] * 1e3:7.1f} ms  "
                  f"overlap {r['overlap']:.2f}")
    if rep.get("fw"):
        print("== Floyd–Warshall, float32 (T relax/s = n³ / wall; GB/s = bytes / loop; "
              "hidden = copy time under products; slots = mean slots busy)")
        print(f"{'n':>6} {'run':<10} {'sl':>2} {'look':>4} {'B':>5} {'wall s':>7} "
              f"{'T rlx/s':>7} {'setup':>6} {'loop':>6} {'GB':>6} {'GB/s':>6} "
              f"{'H2D*':>5} {'D2H*':>5} {'hidden':>6} {'slots':>5} {'pin':>4} {'eq':>3}")
        for r in rep["fw"]:
            if r["run"] == "in-memory":
                print(f"{r['n']:>6} {'in-memory':<10} {'':>2} {'':>4} {'':>5} "
                      f"{r['seconds']:>7.3f} {r['relax_per_s'] / 1e12:>7.2f}   (+ "
                      f"{r['to_host_s']:.3f} s to copy D to the host)")
                continue
            if "error" in r:
                print(f"{r['n']:>6} streamed   {r['slots']:>2} {onoff(r['lookahead']):>4} "
                      f"{r['error']}")
                continue
            print(f"{r['n']:>6} {'streamed':<10} {r['slots']:>2} {onoff(r['lookahead']):>4} "
                  f"{r['block']:>5} {r['seconds']:>7.3f} {r['relax_per_s'] / 1e12:>7.2f} "
                  f"{r['setup_s']:>6.2f} {r['loop_s']:>6.2f} {r['copied_GB']:>6.1f} "
                  f"{r['copy_GBps_loop']:>6.1f} {fmt(r.get('h2d_GBps_in_flight'), '.1f'):>5} "
                  f"{fmt(r.get('d2h_GBps_in_flight'), '.1f'):>5} "
                  f"{fmt(r.get('hidden')):>6} {fmt(r.get('mean_slots')):>5} "
                  f"{fmt(r['pinned']):>4} {fmt(r['equal'] and r.get('equal_traced', True)):>3}")
        print("   (H2D*, D2H*: GB/s while some copy of that direction was in flight, from "
              "the traced run)")
        for r in rep["fw"]:
            if r.get("lanes") and r["slots"] == 3 and r["lookahead"]:
                print(f"== timeline, n = {r['n']}, 3 slots, lookahead: busy seconds per "
                      f"lane (spans)")
                for lane, kinds in sorted(r["lanes"].items()):
                    parts = "  ".join(f"{k} {v['busy_s']:.3f} ({v['spans']})"
                                      for k, v in sorted(kinds.items()))
                    print(f"   {lane:<6} {parts}")
                print(f"   copies {r['copy_s']:.3f} s, products {r['compute_s']:.3f} s, "
                      f"copies under products {r['copy_under_compute_s']:.3f} s, "
                      f"span {r['span_s']:.3f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.environ.get("OUT", "probe-stream"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[16384],
                    help="n of the Floyd–Warshall runs (default 16384)")
    ap.add_argument("--block", type=int, default=stream_mod.STREAM_MAX_BLOCK,
                    help="pivot block B of the streamed runs")
    ap.add_argument("--copy-mib", type=int, nargs="+", default=[64, 256, 1024],
                    help="sizes of the raw copies (MiB)")
    ap.add_argument("--small", action="store_true", help="tiny sizes (a smoke test)")
    args = ap.parse_args()
    if args.small:
        args.sizes, args.block, args.copy_mib = [300], 32, [1, 4]
    device = "gpu" if sr.gpu_available() else "cpu"
    rep = {"device": device, "args": vars(args), "fw": []}
    t0 = time.perf_counter()
    g = None
    # settings that would serialize everything (CUDA_LAUNCH_BLOCKING=1) or change streams
    rep["env"] = {k: os.environ.get(k) for k in (
        "CUDA_LAUNCH_BLOCKING", "CUDA_DEVICE_MAX_CONNECTIONS",
        "CUPY_CUDA_PER_THREAD_DEFAULT_STREAM", "CUDA_MODULE_LOADING", "CUPY_GPU_MEMORY_LIMIT")}
    if device == "gpu":
        g = Gpu()
        rep["gpu"] = g.name
        rep["gpu_info"] = g.info
        pin, page, dev = raw_copies(g, args.copy_mib, rep)
        rows = min(stream_mod.STREAM_ROWS, args.block)
        overlap_tests(g, pin, page, dev, args.block, rows, max(args.sizes), rep)
        del pin, page, dev
        rep["pcie"] = pcie_link()
    for n in args.sizes:
        streamed_runs(device, n, args.block, rep, g)
    rep["seconds"] = time.perf_counter() - t0
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "probe_stream.json")
    with open(path, "w") as f:
        json.dump(rep, f, indent=1, default=float)
    table(rep)
    print(f"\n{rep['seconds']:.1f} s; wrote {path}")
    bad = [r for r in rep["fw"] if r.get("equal") is False or r.get("equal_traced") is False
           or "error" in r]
    if bad:
        print("FAILED: streamed results differ from the in-memory run", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
