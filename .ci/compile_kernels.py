"""Compile every CUDA kernel instantiation with NVRTC, without a GPU.

Uses NVRTC through cupy_backends (pip: cupy-cuda12x + nvidia-cuda-nvrtc-cu12), the same
compiler cupy.RawModule uses at run time. Exits non-zero on any compile error.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
import importlib
from importlib import resources

from cupy_backends.cuda.libs import nvrtc

from semiring import _dense, _elemgpu, _gpu, _spgemm, traversal


def compile_one(label, src, exprs, arch):
    prog = nvrtc.createProgram(src, f"{label}.cu", [], [])
    try:
        for e in exprs:
            nvrtc.addNameExpression(prog, e)
        opts = [f"-arch={arch}", *_gpu.NVRTC_OPTIONS]
        try:
            nvrtc.compileProgram(prog, opts)
        except nvrtc.NVRTCError as err:
            return f"{label} [{arch}]: {err}\n{nvrtc.getProgramLog(prog)}"
        for e in exprs:
            nvrtc.getLoweredName(prog, e)  # raises if an instantiation is missing
        return None
    finally:
        nvrtc.destroyProgram(prog)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", action="append", default=None, help="default: sm_80 and sm_90")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    archs = args.arch or ["sm_80", "sm_90"]
    jobs = [(lab, src, ex, a) for lab, src, ex in _gpu.all_instantiations() for a in archs]
    jobs += [(lab, src, ex, a) for lab, src, ex in _gpu.extra_instantiations() for a in archs]
    jobs += [("traversal", traversal._source(), traversal.kernel_names(), a) for a in archs]
    jobs += [(lab, src, ex, a) for lab, src, ex in _dense.all_instantiations() for a in archs]
    jobs += [(lab, src, ex, a) for lab, src, ex in _elemgpu.instantiations() for a in archs]
    jobs += [(lab, src, ex, a) for lab, src, ex in _spgemm.all_instantiations() for a in archs]
    # APSP: min_plus_sat (integer APSP) and the bench's peak probes (extern "C", no templates);
    # imported here, after the tables above were listed, so its semiring joins only its own jobs
    apsp = importlib.import_module("algorithms.apsp")  # the package exports a function apsp
    jobs += [(lab, src, ex, a) for lab, src, ex in apsp.all_instantiations() for a in archs]
    probe = resources.files("semiring.kernels").joinpath("apsp_probe.cu").read_text()
    jobs += [("apsp_probe", probe, [], a) for a in archs]
    t0 = time.time()
    print(f"NVRTC {nvrtc.getVersion()}: compiling {len(jobs)} programs "
          f"({sum(len(j[2]) for j in jobs)} kernel instantiations) for {', '.join(archs)}", flush=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        errors = [e for e in pool.map(lambda j: compile_one(*j), jobs) if e]
    for e in errors:
        print(e, file=sys.stderr)
    print(f"NVRTC compiled {len(jobs)} programs in {time.time() - t0:.0f} s")
    print(f"nvrtc: {len(jobs) - len(errors)} passed, {len(errors)} failed")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
