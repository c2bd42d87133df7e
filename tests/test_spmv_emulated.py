"""The binned pull kernel (spmv_pull of semiring/kernels/spmv.cu) run on the CPU through a
host-side CUDA stand-in (tests/emu/spmv_emu.h), against NumPy: its bins and groups, the long
rows' blocks, the 16-byte and scalar steps, several rows a group (SR_ROWS, SR_FUSE), masks,
the early exit, int32 and int64 indices, NaN / inf / empty rows. This checks the kernel's
logic without a GPU (tests/test_mxv.py runs the real one on a GPU); the launch plan is
:func:`semiring.backend.gpu.spmv.pull_schedule`'s, rebuilt in NumPy. Needs a C++20
compiler (g++); skipped without one."""

from __future__ import annotations

import os
import shutil
import subprocess
import zlib

import numpy as np
import pytest

import semiring as sr
from semiring import kernels
from semiring.backend.gpu import spmv as gs

HERE = os.path.dirname(os.path.abspath(__file__))

#: build name: (semiring, domain, index type, kernel -D options, rows a group)
BUILDS = {
    "minplus_i32": ("min_plus", np.float32, np.int32, [], 1),
    "minplus_i64": ("min_plus", np.float32, np.int64, [], 1),
    "minplus_rows2": ("min_plus", np.float32, np.int32, ["-DSR_ROWS=2"], 2),
    "minplus_rows4_fuse": ("min_plus", np.float32, np.int32, ["-DSR_ROWS=4", "-DSR_FUSE=1"], 4),
    "minplus_rows2_fuse_i64": ("min_plus", np.float32, np.int64,
                               ["-DSR_ROWS=2", "-DSR_FUSE=1"], 2),
    "plustimes_i32": ("plus_times", np.float32, np.int32, [], 1),
    "plustimes_rows2_fuse": ("plus_times", np.float32, np.int32,
                             ["-DSR_ROWS=2", "-DSR_FUSE=1"], 2),
    "lorland_rows2_fuse": ("lor_land", np.bool_, np.int32, ["-DSR_ROWS=2", "-DSR_FUSE=1"], 2),
    "lorland_i32": ("lor_land", np.bool_, np.int32, [], 1),
    # the warp-streamed pull (rows a group 0: spmv_warp's plan; no mask)
    "warp_minplus_i32": ("min_plus", np.float32, np.int32, ["-DKWARP=1"], 0),
    "warp_minplus_i64": ("min_plus", np.float32, np.int64, ["-DKWARP=1"], 0),
    "warp_minplus_unroll1": ("min_plus", np.float32, np.int32,
                             ["-DKWARP=1", "-DSR_WARP_UNROLL=1"], 0),
    "warp_minplus_quads2": ("min_plus", np.float32, np.int32,
                            ["-DKWARP=1", "-DSR_WARP_QUADS=2"], 0),
    "warp_minplus_quads2_i64": ("min_plus", np.float32, np.int64,
                                ["-DKWARP=1", "-DSR_WARP_QUADS=2", "-DSR_WARP_UNROLL=2"], 0),
    "warp_minplus_reload": ("min_plus", np.float32, np.int32,
                            ["-DKWARP=1", "-DSR_WARP_BATCH=0"], 0),
    "warp_lorland_i32": ("lor_land", np.bool_, np.int32, ["-DKWARP=1"], 0),
    "warp_maxmin_f64": ("max_min", np.float64, np.int32, ["-DKWARP=1"], 0),
}
CTYPES = {np.float32: "float", np.float64: "double", np.bool_: "bool", np.int32: "int",
          np.int64: "long long"}


@pytest.fixture(scope="session")  # (built once a worker: xdist interleaves modules, and a
# module fixture was torn down and rebuilt between them: 55 s a build set on CI)
def emu(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler for the kernel emulation")
    tmp = tmp_path_factory.mktemp("spmv_emu")
    probe = tmp / "probe.cpp"  # a compiler without C++20's <barrier> cannot host the stand-in
    probe.write_text("#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); }\n")
    if subprocess.run([cxx, "-std=c++20", "-pthread", "-o", str(tmp / "probe"), str(probe)],
                      capture_output=True).returncode:
        pytest.skip(f"{cxx} lacks C++20 <barrier>")
    for f in ("spmv_emu.h", "spmv_emu.cpp"):
        shutil.copy(os.path.join(HERE, "emu", f), tmp / f)
    return cxx, tmp, {}


def build(emu, name):
    cxx, tmp, exes = emu
    if name not in exes:
        semi, dt, it, opts, _ = BUILDS[name]
        s = getattr(sr, semi)
        d = tmp / name
        d.mkdir()
        (d / "spmv_src.cu").write_text(
            kernels.source("common.cuh", "spmv.cu", ops=kernels.semiring_ops(s)))
        rt = np.dtype(s.result_type(np.dtype(dt)))
        empty = "true" if gs.folds_from_empty(s.add, rt) else "false"
        exe = str(d / "emu")
        r = subprocess.run([cxx, "-std=c++20", "-O1", "-w", "-pthread", f"-I{d}", f"-I{tmp}",
                            f"-DKT={CTYPES[dt]}", f"-DKR={CTYPES[rt.type]}",
                            f"-DKI={CTYPES[it]}", f"-DKADD=op_{s.add.op.name}",
                            f"-DKMUL=op_{s.mul.name}", f"-DKEMPTY={empty}", *opts, "-x", "c++",
                            "-o", exe, str(tmp / "spmv_emu.cpp")], capture_output=True, text=True)
        if r.returncode:
            pytest.fail(f"emulation build {name} failed:\n{r.stderr[-3000:]}")
        exes[name] = exe
    return exes[name]


def schedule(indptr, rows_per_group, long_row):
    """pull_schedule's plan, in NumPy (rows by bin then row; long rows first, longest first)."""
    n = indptr.size - 1
    deg = np.diff(indptr).astype(np.int64)
    b = np.zeros(n, np.int64)
    for j in range(1, gs.NBINS):
        b += deg > gs.PULL_UNROLL * (1 << (j - 1))
    long = deg > long_row
    key = np.where(long, -deg, b * (n + 1) + np.arange(n))
    order = np.argsort(key, kind="stable")
    b[long] = gs.NBINS
    counts = np.bincount(b, minlength=gs.NBINS + 1)
    nlong = int(counts[gs.NBINS])
    row_start = np.concatenate([[0], np.cumsum(counts[:gs.NBINS])[:-1]])
    blocks = [-(-int(counts[j]) // ((gs.BLOCK >> j) * rows_per_group)) for j in range(gs.NBINS)]
    block_start = np.concatenate([[0], np.cumsum(blocks)[:-1]])
    bins = np.concatenate([row_start, counts[:gs.NBINS], block_start, [nlong]]).astype(np.int64)
    return order[nlong:], order[:nlong], bins, nlong + sum(blocks)


def run(emu, name, indptr, indices, vals, x, allowed, mode, terminal, empty, long_row,
        tile=64):
    semi, dt, it, opts, rows_per_group = BUILDS[name]
    exe = build(emu, name)
    n, ncols = indptr.size - 1, x.size
    ntasks = 0
    if rows_per_group:
        rows, long_rows, bins, nblocks = schedule(indptr, rows_per_group, long_row)
    else:  # spmv_warp's plan (tiles of 64 or 512 entries: one window a task, or several)
        plan = gs.warp_schedule(indptr, n, tile=tile, max_rows=40, long_row=long_row)
        rows, long_rows, bins = plan["tasks"], plan["long_rows"], np.zeros(1, np.int64)
        nblocks, ntasks = plan["nblocks"], plan["ntasks"]
    tmp = emu[1]
    rt = vals.dtype
    head = np.array([n, ncols, indices.size, rows.size, long_rows.size, bins.size, nblocks, mode,
                     allowed is not None, gs.BLOCK, ntasks, long_row], np.int64)
    parts = [head, indptr.astype(it), indices.astype(it), vals, x, rows.astype(it),
             long_rows.astype(it), bins,
             (allowed if allowed is not None else np.zeros(n, bool)).astype(np.uint8),
             np.array([terminal, empty], rt)]
    fin, fout = tmp / "in.bin", tmp / "out.bin"
    fin.write_bytes(b"".join(np.ascontiguousarray(p).tobytes() for p in parts))
    r = subprocess.run([exe, str(fin), str(fout)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    raw = fout.read_bytes()
    out = np.frombuffer(raw[:n * rt.itemsize], rt)
    opres = np.frombuffer(raw[n * rt.itemsize:], np.uint8)
    return out, opres


def random_csr(rng, n, ncols, degs, dt):
    """CSR with rows of the given degrees (unique sorted columns), values with NaN / inf."""
    deg = rng.choice(degs, n)
    deg = np.minimum(deg, ncols)
    indptr = np.concatenate([[0], np.cumsum(deg)]).astype(np.int64)
    indices = np.concatenate([np.sort(rng.choice(ncols, d, replace=False)) for d in deg]
                             + [np.zeros(0, np.int64)])
    if dt == np.bool_:
        vals = rng.random(indices.size) < 0.3
    else:
        vals = rng.normal(size=indices.size).astype(dt)
        special = rng.random(indices.size)
        vals[special < 0.02] = np.nan
        vals[(special >= 0.02) & (special < 0.04)] = np.inf
        vals[(special >= 0.04) & (special < 0.05)] = -np.inf
    return indptr, indices, vals


def reference(semi, indptr, indices, vals, x, allowed):
    n = indptr.size - 1
    deg = np.diff(indptr)
    present = deg > 0
    if allowed is not None:
        present &= allowed
    if semi == "min_plus":
        with np.errstate(invalid="ignore"):  # inf + -inf: NaN, as on the device
            prod = vals + x[indices]
        red, start = np.fmin, np.nan
    elif semi == "plus_times":
        prod, red, start = vals * x[indices], np.add, 0
    elif semi == "max_min":
        prod, red, start = np.fmin(vals, x[indices]), np.fmax, np.nan
    else:
        prod, red, start = vals & x[indices], np.logical_or, False
    out = np.full(n, start, dtype=vals.dtype)
    nz = deg > 0
    if prod.size:
        with np.errstate(invalid="ignore"):  # inf + -inf in plus: NaN, as on the device
            out[nz] = red.reduceat(prod, indptr[:-1][nz])
    return out, present


CASES = {  # degrees drawn per row; rows of every bin, empty rows and long rows (long_row 300)
    "mixed": [0, 1, 3, 4, 5, 8, 9, 16, 17, 31, 33, 64, 65, 100, 129, 200, 301, 700],
    "even": [25, 30, 33, 40, 47, 60],
    "short": [0, 0, 1, 2, 4],
}


@pytest.mark.parametrize("name, case, masked", [
    (name, case, masked) for name in sorted(BUILDS) for case in sorted(CASES)
    for masked in ((False, True) if BUILDS[name][4] else (False,))])  # spmv_warp: no mask
def test_pull_emulated(emu, name, case, masked):
    semi, dt, it, opts, _ = BUILDS[name]
    s = getattr(sr, semi)
    rng = np.random.default_rng(zlib.crc32(f"{name} {case} {masked}".encode()))
    n, ncols = 500, 720
    indptr, indices, vals = random_csr(rng, n, ncols, CASES[case], dt)
    if dt == np.bool_:
        x = rng.random(ncols) < 0.5
    else:
        x = rng.normal(size=ncols).astype(dt)
        x[rng.integers(0, ncols, 20)] = np.inf
        x[rng.integers(0, ncols, 20)] = np.nan
    allowed = rng.random(n) < 0.6 if masked else None
    rt = np.dtype(s.result_type(np.dtype(dt)))
    mode, term = gs._pull_terminal(s.add, rt)
    empty = gs._empty(s.add, rt)
    ref, present = reference(semi, indptr, indices, vals, x, allowed)
    for tile in (64, 512) if not BUILDS[name][4] else (None,):
        out, opres = run(emu, name, indptr, indices, vals, x, allowed, mode, term, empty,
                         max(300, tile or 0), tile)
        check(semi, out, opres, ref, present)


def check(semi, out, opres, ref, present):
    assert set(np.unique(opres).tolist()) <= {0, 1}  # every row's presence written
    np.testing.assert_array_equal(opres.astype(bool), present)
    if semi == "plus_times":
        np.testing.assert_allclose(out[present], ref[present], rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(out[present], ref[present])
