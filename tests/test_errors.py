"""Bad input gets an error of the documented type naming the operation, argument, expected and
actual value, before any kernel runs."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import semiring as sr


@pytest.fixture
def Av(device):
    A = sr.Matrix.from_dense(np.arange(20, dtype=np.float32).reshape(4, 5), missing=0, device=device)
    u = sr.Vector.from_coo([0], [1.0], size=5, device=device)
    return A, u


def test_shape_errors(Av):
    A, u = Av
    with pytest.raises(sr.DimensionMismatch, match=r"mxv: A.ncols \(=5\) must equal u.size \(=4\)"):
        sr.mxv(A, sr.Vector.from_coo([0], [1.0], size=4, device=A.device), sr.min_plus)
    with pytest.raises(sr.DimensionMismatch, match=r"vxm: A.nrows \(=4\) must equal u.size \(=5\)"):
        sr.vxm(u, A, sr.min_plus)
    with pytest.raises(sr.DimensionMismatch, match=r"out.size \(=3\) must equal A.nrows \(=4\)"):
        sr.mxv(A, u, out=sr.Vector.new(3, device=A.device))
    with pytest.raises(sr.DimensionMismatch, match=r"mask.size \(=5\) must equal the output size \(=4\)"):
        sr.mxv(A, u, mask=u)
    with pytest.raises(sr.DimensionMismatch, match=r"u @ A: A.nrows \(=4\) must equal u.size \(=5\)"):
        u @ A  # raised when the expression is built
    assert isinstance(sr.DimensionMismatch("x"), ValueError)


def test_domain_errors(Av):
    A, u = Av
    with pytest.raises(sr.DomainMismatch, match="semiring must be a Semiring"):
        sr.mxv(A, u, "no_such_semiring")
    with pytest.raises(sr.DomainMismatch, match="accum must be a BinaryOp"):
        sr.mxv(A, u, accum=3)
    with pytest.raises(sr.DomainMismatch, match="positional"):
        sr.mxv(A, u, accum="secondi")
    with pytest.raises(sr.DomainMismatch, match="A must be a semiring.Matrix"):
        sr.mxv([[1, 2]], u)
    with pytest.raises(sr.DomainMismatch, match="mask must be"):
        sr.mxv(A, u, mask=[1, 0, 1, 0])
    with pytest.raises(sr.DomainMismatch, match="complement=True needs a mask"):
        sr.mxv(A, u, complement=True)
    with pytest.raises(sr.DomainMismatch, match="complex128"):
        sr.Vector.from_dense(np.zeros(3, dtype=complex))
    with pytest.raises(sr.InvalidValue, match="direction must be one of"):
        sr.mxv(A, u, direction="sideways")
    with pytest.raises(sr.DimensionMismatch, match=r"A @ B: A.ncols"):
        A @ sr.Matrix.from_coo([0], [0], [1.0], nrows=A.ncols + 1, ncols=2, device=A.device)
    assert isinstance(sr.DomainMismatch("x"), TypeError)


def test_index_errors(device):
    with pytest.raises(sr.InvalidIndex, match=r"indices must lie in \[0, 3\), got values in \[0, 3\]"):
        sr.Vector.from_coo([0, 3], [1, 2], size=3, device=device)
    with pytest.raises(sr.InvalidIndex, match=r"rows must lie in \[0, 2\)"):
        sr.Matrix.from_coo([-1], [0], [1.0], nrows=2, ncols=2, device=device)
    with pytest.raises(sr.InvalidValue, match="size must be a non-negative integer"):
        sr.Vector.from_coo([0], [1], size=-1, device=device)
    with pytest.raises(sr.DomainMismatch, match="must hold integers"):
        sr.Vector.from_coo(np.array([0.5]), [1], size=2, device=device)
    assert isinstance(sr.InvalidIndex("x"), IndexError)


def test_inputs_not_mutated_by_out(Av):
    A, u = Av
    before = u.to_dense(missing=-7).copy()
    w = sr.Vector.new(4, np.float32, device=A.device)
    sr.mxv(A, u, sr.min_plus, out=w, accum="min")
    np.testing.assert_array_equal(sr.device.to_device(u.to_dense(missing=-7), "cpu"),
                                  sr.device.to_device(before, "cpu"))


@pytest.mark.skipif(not sr.gpu_available(), reason="needs a GPU")
def test_device_mismatch_names_both():
    A = sr.Matrix.from_dense(np.eye(3), device="cpu")
    u = sr.Vector.from_dense(np.ones(3)).to_gpu()
    with pytest.raises(sr.DeviceMismatch, match="A is on the CPU but u is on the GPU"):
        sr.mxv(A, u)


def _run(code, **env):
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                          cwd=os.path.dirname(os.path.dirname(__file__)))


def test_import_touches_no_gpu():
    r = _run("import sys, semiring, algorithms; print('cupy' in sys.modules)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_backend_env_override():
    r = _run("import semiring as sr; print(sr.default_device(), "
             "sr.Vector.from_coo([0], [1.0], size=2).device)", SEMIRING_BACKEND="cpu")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["cpu", "cpu"]
    r = _run("import semiring as sr; sr.default_device()", SEMIRING_BACKEND="tpu")
    assert r.returncode != 0 and "SEMIRING_BACKEND: expected one of ('cpu', 'gpu'), got 'tpu'" in r.stderr
    if not sr.gpu_available():
        r = _run("import semiring as sr; sr.default_device()", SEMIRING_BACKEND="gpu")
        assert r.returncode != 0 and "BackendUnavailable" in r.stderr


@pytest.mark.skipif(not sr.gpu_available(), reason="needs a GPU")
def test_gpu_out_of_memory_names_bytes():
    import cupy as cp

    n = 1 << 21
    A = sr.Matrix.from_csr(cp.arange(n + 1, dtype=cp.int32), cp.arange(n, dtype=cp.int32),
                           cp.ones(n, dtype=cp.float32), (n, n))
    u = sr.Vector.from_dense(cp.ones(n, dtype=cp.float32))
    pool = cp.get_default_memory_pool()
    pool.free_all_blocks()
    pool.set_limit(size=pool.used_bytes() + (1 << 20))
    try:
        with pytest.raises(sr.OutOfMemory, match=r"mxv: the GPU is out of memory: \d+ bytes needed") as e:
            sr.mxv(A, u, sr.min_plus)
        assert e.value.needed > 0 and e.value.free > 0
        assert isinstance(e.value, MemoryError)
    finally:
        pool.set_limit(size=0)


@pytest.mark.skipif(not sr.gpu_available(), reason="needs a GPU")
def test_gpu_arrays_for_a_cpu_object_are_refused():
    import cupy as cp

    with pytest.raises(sr.DeviceMismatch, match="values is on the GPU but the object is built on the CPU"):
        sr.Vector.from_coo([0, 1], cp.asarray([1.0, 2.0]), size=2, device="cpu")
    with pytest.raises(sr.DeviceMismatch, match="rows is on the GPU"):
        sr.Matrix.from_coo(cp.asarray([0]), [0], [1.0], nrows=1, ncols=1, device="cpu")
