"""Compile every CUDA kernel instantiation with NVRTC, without a GPU.

Uses NVRTC through cupy_backends (pip: cupy-cuda12x + nvidia-cuda-nvrtc-cu12), the same
compiler cupy.RawModule uses at run time. Exits non-zero on any compile error.

The programs come from the kernel registry (:func:`semiring.kernels.instantiations`): every
launcher registers what it may compile, so nothing here names a kernel or imports algorithms.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout, when not installed
import semiring  # noqa: E402, F401  (importing it registers every launcher's kernels)
from semiring import kernels  # noqa: E402


def compile_one(label, src, exprs, arch, options=kernels.NVRTC_OPTIONS):
    from cupy_backends.cuda.libs import nvrtc  # noqa: PLC0415  (CI's venv only; --help without)

    prog = nvrtc.createProgram(src, f"{label}.cu", [], [])
    try:
        for e in exprs:
            nvrtc.addNameExpression(prog, e)
        opts = [f"-arch={arch}", *options]
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
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", action="append", default=None,
                    help="sm_XX: to a cubin (NVRTC + ptxas, as CuPy compiles at run time); "
                         "compute_XX: to PTX only. Default: sm_90 and compute_80")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--family", action="append", default=None,
                    help=f"compile these kernel families only (default: all of "
                         f"{', '.join(kernels.families())})")
    args = ap.parse_args()
    from cupy_backends.cuda.libs import nvrtc  # noqa: PLC0415  (CI's venv only; --help without)

    # the devices this project runs on are sm_90 (H100/H200): their cubins go through ptxas as
    # at run time; sm_80's own source paths (`__CUDA_ARCH__ >= 800` branches) stop at PTX,
    # which finds the same front-end errors in ~60 % of a cubin's time (2-core CI budget)
    archs = args.arch or ["sm_90", "compute_80"]
    families = args.family or kernels.families()
    # each family with the options its launcher compiles with (kernels.register)
    jobs = [(lab, src, ex, a, kernels.compile_kw(fam).get("options", kernels.NVRTC_OPTIONS))
            for fam in families for lab, src, ex in kernels.instantiations([fam]) for a in archs]
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
