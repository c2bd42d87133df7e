"""Builds of traverse.cu's device loops (bfs_grid, sssp_grid) for the host-side CUDA stand-in
(tests/emu/grid_emu.h): the kernel file with its one inline-PTX statement replaced, and a
driver of tests/emu compiled against it once per set of kernel options, on first use, once a
run (shared by the xdist workers). Used by the emulated tests' fixtures; skips them without a
C++20 compiler."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "semiring", "kernels", "traverse.cu")


class Builds(dict):
    """{build name: executable}, each compiled on its first use (a worker compiles only the
    builds its tests reach) into a directory every xdist worker of the run shares, under a
    name hashed from the sources and options (one worker compiles, the others wait for it
    and reuse it: each build once a run on CI's two cores, not once a worker)."""

    def __init__(self, shared, sources, compile_one, builds):
        super().__init__()
        self.shared, self.builds, self.compile_one = shared, builds, compile_one
        self.digest = hashlib.sha256("\0".join(sources).encode()).hexdigest()[:16]

    def __missing__(self, name):
        opts = self.builds[name]
        key = hashlib.sha256(f"{self.digest} {opts}".encode()).hexdigest()[:16]
        exe = self.shared / f"{name}_{key}"
        with open(self.shared / f"{name}_{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # (released when the file closes)
            if not exe.exists():
                part = exe.with_suffix(".part")
                self.compile_one(opts, str(part))
                os.replace(part, exe)  # (complete or absent: a crashed build is redone)
        self[name] = str(exe)
        return self[name]


def shared_dir(tmp_path_factory, name):
    """A directory shared by the xdist workers of this run (their base temps' parent)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    path = root / name
    path.mkdir(exist_ok=True)
    return path


def cxx20(tmp_path_factory):
    """The C++ compiler, or the test skipped without one that has C++20's <barrier>."""
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler for the kernel emulation")
    tmp = tmp_path_factory.mktemp("probe")
    probe = tmp / "probe.cpp"  # a compiler without C++20's <barrier> cannot host the stand-in
    probe.write_text("#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); }\n")
    if subprocess.run([cxx, "-std=c++20", "-pthread", "-o", str(tmp / "probe"), str(probe)],
                      capture_output=True).returncode:
        pytest.skip(f"{cxx} lacks C++20 <barrier>")
    return cxx


def compiler(cxx, main, name_of):
    """compile_one(opts, exe) of the driver ``main`` (``name_of(opts)``: the build's name for
    a failure message)."""
    def compile_one(opts, exe):
        r = subprocess.run([cxx, "-std=c++20", "-O1", "-w", "-pthread", *opts, "-x", "c++",
                            "-o", exe, str(main)], capture_output=True, text=True)
        if r.returncode:
            pytest.fail(f"emulation build {name_of(opts)} failed:\n{r.stderr[-3000:]}")
    return compile_one


def build_traverse_emu(tmp_path_factory, driver: str, builds: dict) -> dict:
    """{build name: executable} of ``tests/emu/<driver>`` compiled with each build's -D
    options (on first use: :class:`Builds`)."""
    cxx = cxx20(tmp_path_factory)
    with open(KERNELS) as f:
        src = f.read()
    # the one inline PTX statement (bfs_grid's %globaltimer read for its trace) has no host form
    src, k = re.subn(r"asm volatile\(.*?\);", "t = 0;", src)
    assert k == 1, "expected exactly one inline-PTX statement in traverse.cu"
    stem = driver.split(".")[0]
    tmp = tmp_path_factory.mktemp(stem)
    (tmp / "traverse_emu.cu").write_text(src)
    sources = [src]
    for f in (os.path.join(HERE, "emu", "grid_emu.h"), os.path.join(HERE, "emu", driver)):
        shutil.copy(f, tmp / os.path.basename(f))
        with open(f) as fh:
            sources.append(fh.read())
    names = {tuple(v): k for k, v in builds.items()}
    return Builds(shared_dir(tmp_path_factory, f"{stem}_builds"), sources,
                  compiler(cxx, tmp / driver, lambda opts: names[tuple(opts)]), builds)
