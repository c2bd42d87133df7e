"""Builds of traverse.cu's device loops (bfs_grid, sssp_grid) for the host-side CUDA stand-in
(tests/emu/grid_emu.h): the kernel file with its one inline-PTX statement replaced, and a
driver of tests/emu compiled against it once per set of kernel options. Used by the emulated
tests' module fixtures; skips them without a C++20 compiler."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "semiring", "kernels", "traverse.cu")


def build_traverse_emu(tmp_path_factory, driver: str, builds: dict) -> dict:
    """{build name: executable} of ``tests/emu/<driver>`` compiled with each build's -D options."""
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler for the kernel emulation")
    tmp = tmp_path_factory.mktemp(driver.split(".")[0])
    probe = tmp / "probe.cpp"  # a compiler without C++20's <barrier> cannot host the stand-in
    probe.write_text("#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); }\n")
    if subprocess.run([cxx, "-std=c++20", "-pthread", "-o", str(tmp / "probe"), str(probe)],
                      capture_output=True).returncode:
        pytest.skip(f"{cxx} lacks C++20 <barrier>")
    with open(KERNELS) as f:
        src = f.read()
    # the one inline PTX statement (bfs_grid's %globaltimer read for its trace) has no host form
    src, k = re.subn(r"asm volatile\(.*?\);", "t = 0;", src)
    assert k == 1, "expected exactly one inline-PTX statement in traverse.cu"
    (tmp / "traverse_emu.cu").write_text(src)
    shutil.copy(os.path.join(HERE, "emu", "grid_emu.h"), tmp / "grid_emu.h")
    shutil.copy(os.path.join(HERE, "emu", driver), tmp / driver)
    exes = {}
    for name, opts in builds.items():
        exe = str(tmp / f"{driver.split('.')[0]}_{name}")
        r = subprocess.run([cxx, "-std=c++20", "-O1", "-w", "-pthread", *opts, "-x", "c++",
                            "-o", exe, str(tmp / driver)], capture_output=True, text=True)
        if r.returncode:
            pytest.fail(f"emulation build {name} failed:\n{r.stderr[-3000:]}")
        exes[name] = exe
    return exes
