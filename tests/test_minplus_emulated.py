"""The tuned min/max-plus kernel (semiring/kernels/minplus_gemm.cu) run on the CPU through a
host-side CUDA stand-in (tests/emu/), against the NumPy oracle: its tiles, double buffering,
padding at every edge, leading dimensions, scalar and vector fetches, the accumulate form and
the saturating int32 path. This checks the kernel's logic without a GPU (the DPX and cp.async
instructions take their portable fallbacks here); tests/test_dense.py runs the real kernel on
a GPU. Needs a C++20 compiler (g++); skipped without one."""

from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import semiring as sr
from algorithms.apsp import _plus_sat_numpy
from semiring import dense as _dense

HERE = os.path.dirname(os.path.abspath(__file__))
INT_MAX = np.iinfo(np.int32).max

#: policy index of tests/emu/minplus_emu.cpp: (semiring, dtype)
POLICIES = {0: ("min_plus", np.float32), 1: ("max_plus", np.float32),
            2: ("min_plus", np.float64), 3: ("max_plus", np.float64),
            4: ("min_plus", np.int32), 5: ("max_plus", np.int32), 6: ("min_plus_sat", np.int32),
            7: ("min_plus_u16x2", np.uint32)}
U16_INF = 0x7FFF
ACC, XVEC, YVEC, ZVEC, ZLATE = 1, 2, 4, 8, 16


@pytest.fixture(scope="session")  # (built once a worker: xdist interleaves modules, and a
# module fixture was torn down and rebuilt between them: 55 s a build set on CI)
def emu(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler for the kernel emulation")
    tmp = tmp_path_factory.mktemp("emu")
    probe = tmp / "probe.cpp"  # a compiler without C++20's <barrier> cannot host the stand-in
    probe.write_text("#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); }\n")
    if subprocess.run([cxx, "-std=c++20", "-pthread", "-o", str(tmp / "probe"), str(probe)],
                      capture_output=True).returncode:
        pytest.skip(f"{cxx} lacks C++20 <barrier>")
    exe = str(tmp / "minplus_emu")
    r = subprocess.run([cxx, "-std=c++20", "-O1", "-w", "-pthread", "-o", exe,
                        os.path.join(HERE, "emu", "minplus_emu.cpp")],
                       capture_output=True, text=True)
    if r.returncode:
        pytest.fail(f"emulation build failed:\n{r.stderr[-3000:]}")
    return exe, tmp_path_factory.mktemp("io")


def u16x2_oracle(X, Y, Z0, accumulate):
    """Per 16-bit lane: min(0x7FFF, [Z,] min_k X + Y), every operand clamped to 0x7FFF."""
    out = np.zeros((X.shape[0], Y.shape[1]), np.uint32)
    for shift in (0, 16):
        lane = lambda a: np.minimum((a >> shift) & 0xFFFF, U16_INF).astype(np.int64)  # noqa: E731
        T = (lane(X)[:, :, None] + lane(Y)[None, :, :]).min(axis=1, initial=U16_INF)
        if accumulate:
            T = np.minimum(T, lane(Z0))
        out |= T.astype(np.uint32) << shift
    return out


def oracle(policy, X, Y, Z0, accumulate):
    name, dt = POLICIES[policy]
    if name == "min_plus_u16x2":
        return u16x2_oracle(X, Y, Z0, accumulate)
    if name == "min_plus_sat":
        T = _plus_sat_numpy(X[:, :, None], Y[None, :, :]).min(axis=1)
    else:
        T = _dense.gemm(X, Y, name, dt)
    if not accumulate:
        return T
    srg = sr.ops.lookup("semiring", "min_plus" if name == "min_plus_sat" else name, op="t",
                        arg="s")
    return srg.add.op.apply_numpy(Z0, T, np.dtype(dt))


def run_emulated(emu, policy, tiling, X, Y, Z0, *, accumulate, pads=(0, 0, 0), vec=True,
                 gap=(0, 0, 0, 0), late=False):
    """Z after one launch; X, Y, Z stored with leading dimensions padded by ``pads`` (the
    padding holds junk that must be neither read into the result nor overwritten). ``gap``:
    the kernel's (gap_m, gap_mlen, gap_n, gap_nlen); X, Y and Z0 hold the gaps' rows and
    columns (the launch covers the rest)."""
    exe, io = emu
    dt = np.dtype(POLICIES[policy][1])
    m, K = X.shape
    n = Y.shape[1]
    ldx, ldy, ldz = K + pads[0], n + pads[1], n + pads[2]
    junk = dt.type(7) if dt.kind in "iu" else dt.type(-12345.0)
    Xs = np.full((m, ldx), junk, dt)
    Xs[:, :K] = X
    Ys = np.full((K, ldy), junk, dt)
    Ys[:, :n] = Y
    Zs = np.full((m, ldz), junk, dt)
    Zs[:, :n] = Z0
    v = 16 // dt.itemsize
    flags = (ACC | (ZLATE if late else 0)) if accumulate else 0
    if vec:
        shift_ok = gap[3] % v == 0  # a column gap keeps 16-byte vectors aligned
        flags |= ((XVEC if ldx % v == 0 and K % v == 0 else 0)
                  | (YVEC if ldy % v == 0 and shift_ok else 0)
                  | (ZVEC if ldz % v == 0 and shift_ok else 0))
    fin, fout = str(io / "in.bin"), str(io / "out.bin")
    with open(fin, "wb") as f:
        for a in (Xs, Ys, Zs):
            f.write(np.ascontiguousarray(a).tobytes())
    r = subprocess.run([exe, str(policy), str(tiling), str(m - gap[1]), str(n - gap[3]), str(K),
                        str(ldx), str(ldy), str(ldz), str(flags), *map(str, gap), fin, fout],
                       capture_output=True)
    assert r.returncode == 0, r.stderr
    out = np.fromfile(fout, dtype=dt).reshape(m, ldz)
    np.testing.assert_array_equal(out[:, n:], Zs[:, n:])  # the padding is untouched
    return out[:, :n]


def rand_operands(rng, policy, m, k, n):
    name, dt = POLICIES[policy]
    dt = np.dtype(dt)
    if name == "min_plus_u16x2":  # lanes: small values, the infinity, values above it
        ext = np.array([0, 1, U16_INF - 1, U16_INF, U16_INF + 1, 0xFFFF], np.uint32)

        def pick(s):
            lanes = [np.where(rng.random(s) < 0.3, rng.choice(ext, s),
                              rng.integers(0, 3000, s)).astype(np.uint32) for _ in range(2)]
            return lanes[0] | (lanes[1] << 16)

        return pick((m, k)), pick((k, n)), pick((m, n))
    if name == "min_plus_sat":  # finite values and results within the bound, some infinities
        lim = 1 << 27
        X, Y, Z = (rng.integers(-lim, lim, s).astype(dt) for s in ((m, k), (k, n), (m, n)))
        for a in (X, Y, Z):
            a[rng.random(a.shape) < 0.3] = INT_MAX
        return X, Y, Z
    if dt.kind == "i":  # the extremes: sums wrap, as NumPy's do
        info = np.iinfo(dt)
        ext = np.array([info.max, info.min, info.max - 1, info.min + 1, -1, 0, 1, 2], dt)
        pick = lambda s: np.where(rng.random(s) < 0.3, rng.choice(ext, s),  # noqa: E731
                                  rng.integers(-50, 50, s)).astype(dt)
        return pick((m, k)), pick((k, n)), pick((m, n))
    specials = np.array([np.inf, -np.inf, np.nan, -0.0, 0.5], dt)

    def pick(s):
        a = rng.integers(-20, 21, s).astype(dt)
        sp = rng.random(s) < 0.15
        a[sp] = rng.choice(specials, int(sp.sum()))
        return a

    return pick((m, k)), pick((k, n)), pick((m, n))


def check(emu, policy, tiling, m, k, n, seed, *, accumulate, pads=(0, 0, 0), vec=True):
    rng = np.random.default_rng(seed)
    X, Y, Z0 = rand_operands(rng, policy, m, k, n)
    want = oracle(policy, X, Y, Z0, accumulate)
    for late in ((False, True) if accumulate else (False,)):  # Z first, or folded in at the end
        got = run_emulated(emu, policy, tiling, X, Y, Z0, accumulate=accumulate, pads=pads,
                           vec=vec, late=late)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (2, 2, 2), (127, 9, 129), (129, 17, 128),
                                   (128, 8, 127), (33, 300, 5), (255, 12, 130)])
def test_production_tiling(emu, policy, m, k, n):
    """The tilings of MINPLUS_TILING at sizes around their tiles."""
    check(emu, policy, 0, m, k, n, m * 7 + k, accumulate=False)
    check(emu, policy, 0, m, k, n, m * 7 + k + 1, accumulate=True)


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("tiling,m,k,n", [(0, 256, 40, 256), (0, 200, 36, 132), (1, 64, 44, 96),
                                          (1, 70, 8, 64), (1, 96, 4, 40), (2, 256, 72, 256),
                                          (2, 130, 64, 200)])
def test_interior_blocks(emu, policy, tiling, m, k, n):
    """Aligned operands and whole blocks: the fast fetch (cp.async's fallback, or registers
    stored after the compute), a partial first k tile, several k tiles; tiling 2 is BK = 32
    (its tiles in dynamic shared memory on a GPU)."""
    check(emu, policy, tiling, m, k, n, m + k + n, accumulate=False)
    check(emu, policy, tiling, m, k, n, m + k + n + 1, accumulate=True, pads=(4, 8, 4))
    check(emu, policy, tiling, m, k, n, m + k + n + 2, accumulate=False, pads=(1, 3, 1),
          vec=False)  # unaligned rows: element-wise async copies, or the checked path


@settings(max_examples=40, deadline=None)
@given(policy=st.sampled_from(sorted(POLICIES)),
       m=st.integers(1, 70), k=st.integers(1, 40), n=st.integers(1, 70),
       pads=st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)),
       accumulate=st.booleans(), vec=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_small_tiles_any_shape(emu, policy, m, k, n, pads, accumulate, vec, seed):
    """Small tiles (many tiles and edges), leading dimensions beyond the width, vector fetches
    on or off."""
    check(emu, policy, 1, m, k, n, seed, accumulate=accumulate, pads=pads, vec=vec)


def test_all_nan_products_stay_nan(emu):
    """A result whose products are all NaN is NaN (numpy.fmin.reduce), not the identity."""
    X = np.array([[np.inf, np.nan]], np.float32)
    Y = np.array([[-np.inf], [1.0]], np.float32)
    for policy in (0, 1):
        got = run_emulated(emu, policy, 0, X, Y, np.zeros((1, 1), np.float32), accumulate=False)
        assert np.isnan(got).all()
        np.testing.assert_array_equal(got, oracle(policy, X, Y, None, False))


@pytest.mark.parametrize("policy", [0, 4, 7])
@pytest.mark.parametrize("tiling,m,k,n,gap", [
    (1, 96, 20, 96, (32, 32, 32, 32)),     # a cross in the middle, one tile wide
    (1, 100, 9, 70, (64, 5, 0, 0)),        # rows only, an odd gap, partial tiles after it
    (1, 70, 8, 101, (0, 0, 32, 7)),        # columns only
    (1, 64, 8, 64, (32, 32, 32, 32)),      # the gap reaches the end: no tile after it
    (0, 300, 24, 260, (128, 40, 128, 4)),  # the production tiling
    (2, 300, 40, 260, (128, 40, 128, 4)),  # BK = 32 (dynamic shared memory on a GPU)
])
def test_gaps(emu, policy, tiling, m, k, n, gap):
    """One launch relaxes everything outside a band of rows and a band of columns (the
    Floyd–Warshall lookahead's cross); the band keeps its old values."""
    rng = np.random.default_rng(m * n + k)
    X, Y, Z0 = rand_operands(rng, policy, m, k, n)
    for pads, vec in (((0, 0, 0), True), ((4, 8, 4), True), ((1, 3, 1), False)):
        got = run_emulated(emu, policy, tiling, X, Y, Z0, accumulate=True, pads=pads, vec=vec,
                           gap=gap, late=vec)
        want = oracle(policy, X, Y, Z0, True)
        rows = np.r_[gap[0]:gap[0] + gap[1]]
        cols = np.r_[gap[2]:gap[2] + gap[3]]
        want[rows, :] = Z0[rows, :]
        want[:, cols] = Z0[:, cols]
        np.testing.assert_array_equal(got, want)


def test_u16x2_lanes_are_independent_and_never_wrap(emu):
    """0x7FFF + 0x7FFF stays infinite (no lane wraps, no carry into the other lane); values
    above 0x7FFF read as 0x7FFF; the accumulate form clamps Z too."""
    big = np.uint32(0xFFFF)
    X = np.array([[big | (np.uint32(3) << 16), np.uint32(U16_INF) | (big << 16)]], np.uint32)
    Y = np.array([[np.uint32(U16_INF) | (np.uint32(4) << 16)], [np.uint32(2) | (big << 16)]],
                 np.uint32)
    Z0 = np.array([[0xFFFFFFFF]], np.uint32)
    for acc in (False, True):
        got = run_emulated(emu, 7, 0, X, Y, Z0, accumulate=acc)
        assert got[0, 0] == (U16_INF | (7 << 16)), hex(got[0, 0])
        np.testing.assert_array_equal(got, u16x2_oracle(X, Y, Z0, acc))
