"""The plain GPU mxv / vxm from a kept launch (issue 21 item 2): a matrix's first plain pull
keeps its plan (``spmv._PullPlan``) for the device and stream, and later calls write x's and
the result's addresses into a parameter block kept per thread and launch through the driver
(``semiring/backend/gpu/launch.py``: ``KeptLaunch``, shared with ``traversal.bfs_grid``).

On the CPU: the parameter words, the slots and the per-thread blocks against a stand-in
driver that reads the block the way the driver does; the plan's allocation per call and its
fallback to CuPy's launch; the dispatch of ``operations._mxv_core``'s plain GPU branch
(which calls reach the kept plan, which take the general path) on containers marked as GPU
ones with stand-in mechanisms; and the whole path (``sr.mxv`` / ``sr.vxm`` -> ``kept_pull``
-> ``pull`` -> plan -> driver) on an emulated device whose kernels compute the CPU
backend's pull from the addresses in the parameter block (plans per device and stream,
results never aliased, fallbacks, ``_assign`` dropping the plans, two threads at once). On the GPU: the kept path against the general path and the
CPU backend on random matrices (empty rows, explicit zeros, stored ±inf, n = 0 and 1), on
two streams and from two threads."""

from __future__ import annotations

import ctypes
import importlib
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import semiring as sr
from conftest import to_host
from strategies import make_matrix

launch_mod = importlib.import_module("semiring.backend.gpu.launch")
gspmv = importlib.import_module("semiring.backend.gpu.spmv")
operations = importlib.import_module("semiring.operations")
KeptLaunch, param_word = launch_mod.KeptLaunch, launch_mod.param_word


# ---------------------------------------------------------------------------- stand-ins
class _DriverError(Exception):
    pass


class StubDriver:
    """cupy_backends' driver as far as KeptLaunch uses it: each launch reads the parameter
    block as cuLaunchKernel does (an array of pointers, each to an argument's bytes) and
    records what it read; ``during`` runs inside the launch (before the read)."""

    CUDADriverError = _DriverError

    def __init__(self, nargs, during=None, fail=False):
        self.nargs, self.during, self.fail = nargs, during, fail
        self.calls = []
        self.lock = threading.Lock()

    def _read(self, params):
        ptrs = (ctypes.c_uint64 * self.nargs).from_address(params)
        return [ctypes.c_uint64.from_address(p).value for p in ptrs]

    def _record(self, kind, f, dims, shm, stream, params, extra):
        if self.during is not None:
            self.during()
        if self.fail:
            raise _DriverError("CUDA_ERROR_INVALID_VALUE")
        words = self._read(params)
        with self.lock:
            self.calls.append({"kind": kind, "f": f, "dims": dims, "shm": shm,
                               "stream": stream, "words": words, "extra": extra,
                               "thread": threading.get_ident()})

    def launchKernel(self, f, gx, gy, gz, bx, by, bz, shm, stream, params, extra):
        self._record("plain", f, (gx, gy, gz, bx, by, bz), shm, stream, params, extra)

    def launchCooperativeKernel(self, f, gx, gy, gz, bx, by, bz, shm, stream, params):
        self._record("cooperative", f, (gx, gy, gz, bx, by, bz), shm, stream, params, None)


class _Mem:
    def __init__(self, ptr):
        self.ptr = ptr


class DevArray:
    """A device array as far as a launch sees it: ``.data.ptr`` (and a plan's shape)."""

    def __init__(self, ptr, n=4, dtype=np.float64):
        self.data = _Mem(ptr)
        self.shape, self.dtype = (n,), np.dtype(dtype)
        self.nbytes = n * self.dtype.itemsize


# ---------------------------------------------------------------------------- words, slots
def test_param_words_are_what_cupy_passes():
    assert param_word(None) == 0
    assert param_word(7) == 7 and param_word(True) == 1 and param_word(False) == 0
    assert param_word(-2) == 2**64 - 2  # an int64's two's complement
    assert param_word(2**64 - 1) == 2**64 - 1  # (an address in the top half)
    assert param_word(1.5) == int(np.float64(1.5).view(np.uint64))
    assert param_word(np.float32(-0.0)) == 0x80000000  # the float's 4 bytes, low half
    assert param_word(np.float32(np.inf)) == 0x7F800000
    assert param_word(np.float64(np.nan)) == int(np.float64(np.nan).view(np.uint64))
    assert param_word(np.int32(-1)) == 2**32 - 1
    assert param_word(np.int8(-1)) == 0xFF and param_word(np.bool_(True)) == 1
    assert param_word(np.int64(-3)) == 2**64 - 3 and param_word(np.uint64(5)) == 5
    assert param_word(DevArray(0xDEAD0000)) == 0xDEAD0000
    with pytest.raises(ValueError, match=r"at most 8 bytes, got complex128 \(16 bytes\)"):
        param_word(np.complex128(1))
    with pytest.raises(ValueError, match="must fit in 64 bits, got 18446744073709551616"):
        param_word(2**64)
    with pytest.raises(TypeError, match="got str"):
        param_word("x")


def test_kept_launch_writes_only_its_slots():
    args = [DevArray(0x1000), None, np.int64(-5), DevArray(0x2000), np.float32(2.5),
            DevArray(0x3000), np.int32(7), 3]
    drv = StubDriver(len(args))
    k = KeptLaunch(0xF00, 9, (256,), 0x77, args, slots=(3, 5), shared_mem=48, driver=drv)
    assert k.template.tolist() == [0x1000, 0, 2**64 - 5, 0, 0x40200000, 0, 7, 3]
    assert k.error is _DriverError
    k.launch(0xA000, 0xB000)
    k.launch(0xA100, 0xB100)
    (c1, c2) = drv.calls
    assert c1["kind"] == "plain" and c1["extra"] == 0 and c1["f"] == 0xF00
    assert c1["dims"] == (9, 1, 1, 256, 1, 1) and c1["shm"] == 48 and c1["stream"] == 0x77
    assert c1["words"] == [0x1000, 0, 2**64 - 5, 0xA000, 0x40200000, 0xB000, 7, 3]
    assert c2["words"] == [0x1000, 0, 2**64 - 5, 0xA100, 0x40200000, 0xB100, 7, 3]
    assert k.template[3] == 0 and k.template[5] == 0  # the template is never written
    with pytest.raises(ValueError):
        k.launch(1)  # one value for two slots
    drv = StubDriver(3)
    coop = KeptLaunch(0xF01, (2, 3), (32, 4, 2), 0, [1, 2, 3], slots=(1,), cooperative=True,
                      driver=drv)
    coop.launch(99)
    assert drv.calls[-1]["kind"] == "cooperative" and drv.calls[-1]["words"] == [1, 99, 3]
    assert drv.calls[-1]["dims"] == (2, 3, 1, 32, 4, 2)
    with pytest.raises(ValueError, match="slot 3 is not an argument's position"):
        KeptLaunch(1, 1, 1, 0, [1, 2, 3], slots=(3,), driver=drv)
    with pytest.raises(ValueError, match="slots must be distinct"):
        KeptLaunch(1, 1, 1, 0, [1, 2, 3], slots=(1, 1), driver=drv)
    with pytest.raises(ValueError, match="grid must be 1 to 3 positive ints"):
        KeptLaunch(1, 0, 1, 0, [1], driver=drv)
    failing = KeptLaunch(1, 1, 1, 0, [1, 2], slots=(0,), driver=StubDriver(2, fail=True))
    with pytest.raises(failing.error):
        failing.launch(5)


def _two_threads_at_once(k, drv):
    """Two threads each write their own slot values and launch; the stand-in driver holds
    each inside its launch until both are there, then reads the blocks."""
    both = threading.Barrier(2, timeout=10)
    drv.during = both.wait

    def run(v):
        k.launch(v, v + 1)

    with ThreadPoolExecutor(2) as ex:
        list(ex.map(run, (0x10, 0x20)))
    return {c["thread"]: c["words"] for c in drv.calls}


def test_threads_launch_from_blocks_of_their_own(monkeypatch):
    args = [DevArray(0x1000), 0, 0, np.int32(4)]
    drv = StubDriver(len(args))
    k = KeptLaunch(0xF00, 1, 32, 0, args, slots=(1, 2), driver=drv)
    words = _two_threads_at_once(k, drv)
    assert sorted(w[1:3] for w in words.values()) == [[0x10, 0x11], [0x20, 0x21]]
    assert len(k._blocks) == 2
    # the check can fail: one block for both threads, and one launch reads the other's x
    drv2 = StubDriver(len(args))
    shared = KeptLaunch(0xF00, 1, 32, 0, args, slots=(1, 2), driver=drv2)
    monkeypatch.setattr(launch_mod, "_get_ident", lambda: 1)
    words = _two_threads_at_once(shared, drv2)
    assert sorted(w[1:3] for w in words.values()) != [[0x10, 0x11], [0x20, 0x21]]


def test_blocks_of_finished_threads_are_dropped(monkeypatch):
    drv = StubDriver(2)
    k = KeptLaunch(1, 1, 1, 0, [0, 5], slots=(0,), driver=drv)
    for t in range(launch_mod.MAX_THREAD_BLOCKS + 10):
        th = threading.Thread(target=k.launch, args=(t,))
        th.start()
        th.join()
    assert len(k._blocks) <= launch_mod.MAX_THREAD_BLOCKS
    assert [c["words"] for c in drv.calls] == [[t, 5] for t in range(len(drv.calls))]


# ---------------------------------------------------------------------------- the SpMV plan
class _Alloc:
    """cupy.cuda.alloc's stand-in: a new address a call."""

    def __init__(self):
        self.next, self.sizes = 0x100000, []

    def __call__(self, nbytes):
        self.sizes.append(nbytes)
        self.next += 0x1000
        return _Mem(self.next)


def _ndarray(shape, dtype, mem):
    a = DevArray(mem.ptr, shape[0], dtype)
    return a


def _pull_args(x, out, pres):
    """spmv_pull's argument layout (gpu/spmv.py: pull)."""
    return (DevArray(0x10), DevArray(0x20), DevArray(0x30), np.int64(1), x, None, None,
            DevArray(0x40), DevArray(0x50), DevArray(0x60), out, pres, np.int32(0),
            np.float64(np.inf), np.float64(np.inf))


def test_plan_allocates_a_result_a_call(monkeypatch):
    x0, out0, pres = DevArray(0xA0, 5), DevArray(0xB0, 7), DevArray(0xC0, 7, np.bool_)
    args = _pull_args(x0, out0, pres)
    drv = StubDriver(len(args))
    cupy_calls = []
    f = lambda grid, block, a: cupy_calls.append((grid, block, a))  # noqa: E731
    alloc = _Alloc()
    plan = gspmv.make_plan(f, 0xF00, (3,), (256,), 0x55, args, x0, out0, pres, alloc,
                           _ndarray, driver=drv)
    assert plan is not None and plan.kernel.slots == (gspmv.X_ARG, 10)
    assert plan.kernel.stream == 0x55 and plan.kernel.grid == (3, 1, 1)
    # the first call's x and result are not held by the plan (nor written in its template)
    kept = [a for part in plan.kernel.keep[1:] for a in part]
    assert all(a is not x0 and a is not out0 for a in kept) and plan.kernel.keep[0] is f
    assert plan.kernel.template[gspmv.X_ARG] == 0 and plan.kernel.template[10] == 0
    outs = []
    for i in range(3):
        x = DevArray(0xD000 + i, 5)
        out, p = plan(x)
        outs.append(out)
        assert p is pres and out.shape == (7,) and out.dtype == np.float64
        w = drv.calls[-1]["words"]
        assert w[gspmv.X_ARG] == x.data.ptr and w[10] == out.data.ptr
        assert w[:4] == [0x10, 0x20, 0x30, 1] and w[11] == 0xC0
        assert w[13] == int(np.float64(np.inf).view(np.uint64))
    assert len({o.data.ptr for o in outs}) == 3 and alloc.sizes == [56] * 3
    assert not cupy_calls
    # KEPT_LAUNCH off: the same arguments through CuPy's launch
    monkeypatch.setattr(gspmv, "KEPT_LAUNCH", False)
    x = DevArray(0xE000, 5)
    out, _ = plan(x)
    grid, block, a = cupy_calls[-1]
    assert grid == (3,) and block == (256,) and len(a) == len(args)
    assert a[gspmv.X_ARG] is x and a[10] is out
    assert all(a[i] is args[i] for i in range(len(args)) if i not in (gspmv.X_ARG, 10))
    monkeypatch.setattr(gspmv, "KEPT_LAUNCH", True)
    # a launch the driver refuses: CuPy's launch of the same call instead (nothing queued)
    drv.fail = True
    out, _ = plan(DevArray(0xE100, 5))
    assert cupy_calls[-1][2][10] is out and len(cupy_calls) == 2


def test_plan_only_for_its_layout():
    x, out, pres = DevArray(0xA0, 5), DevArray(0xB0, 7), DevArray(0xC0, 7, np.bool_)
    args = _pull_args(x, out, pres)
    mk = lambda a, xx=x, oo=out: gspmv.make_plan(  # noqa: E731
        print, 1, 1, 1, 0, a, xx, oo, pres, _Alloc(), _ndarray, driver=StubDriver(len(a)))
    assert mk(args) is not None
    assert mk(args, xx=DevArray(0xA0, 5)) is None  # x not at X_ARG (an equal one is not it)
    assert mk(args[:10] + args[11:]) is None  # no result among the arguments
    assert mk(args[:12] + (out,) + args[13:]) is None  # the result twice
    assert mk(args[:4]) is None
    odd = args[:12] + (np.complex128(1),) + args[13:]  # no parameter word: CuPy's launch
    plan = mk(odd)
    assert plan is not None and plan.kernel is None


# ---------------------------------------------------------------------------- the dispatch
class _Backend:
    """The GPU spmv module as far as _product uses it, recording its calls."""

    def __init__(self):
        self.calls = []

    def pull(self, M, vals, pres, allowed, S, dtype, xfirst):
        self.calls.append(("pull", M, vals, pres, allowed, S, dtype, xfirst))
        n = M.nrows
        return np.full(n, -7.0).astype(S.result_type(dtype)), np.ones(n, bool)

    def push(self, M, idx, vals, allowed, S, dtype, xfirst):
        self.calls.append(("push", M, idx, vals, allowed, S, dtype, xfirst))
        return np.zeros(0, np.int64), np.zeros(0, S.result_type(dtype)), True


def _as_gpu(obj):
    """A CPU container marked as a GPU one (the dispatch reads only the device's name)."""
    obj._device = "gpu"
    return obj


@pytest.fixture
def fake_gpu(monkeypatch):
    be = _Backend()
    kept = []
    answer = {"res": "kept"}

    def kept_pull(M, vals, S, dtype, xfirst):
        kept.append((M, vals, S, dtype, xfirst))
        if answer["res"] is None:
            return None
        return np.full(M.nrows, 3.0).astype(S.result_type(dtype)), np.ones(M.nrows, bool)

    monkeypatch.setattr(gspmv, "kept_pull", kept_pull)
    general = operations._backend_module
    monkeypatch.setattr(operations, "_backend_module",
                        lambda d: be if d == "gpu" else general(d))
    rng = np.random.default_rng(5)
    S = (rng.random((6, 4)) < 0.5) * rng.integers(1, 9, (6, 4)).astype(np.float64)
    A = sr.Matrix.from_dense(S, missing=0, device="cpu")
    A.T  # (made here: the transpose itself is a GPU kernel)
    _as_gpu(A), _as_gpu(A.T)
    return A, be, kept, answer


def test_plain_gpu_call_goes_to_the_kept_plan(fake_gpu):
    A, be, kept, answer = fake_gpu
    x = _as_gpu(sr.Vector.from_dense(np.arange(4.0), device="cpu"))
    w = sr.mxv(A, x, sr.min_plus)
    assert len(kept) == 1 and not be.calls
    M, vals, S, dtype, xfirst = kept[0]
    assert M is A and vals is x._bitmap[0] and S is sr.min_plus and dtype == np.float64
    assert xfirst is False
    assert w.size == 6 and w.dtype == np.float64 and w.device == "gpu" and w.form == "bitmap"
    assert w._bitmap[0].tolist() == [3.0] * 6
    y = _as_gpu(sr.Vector.from_dense(np.arange(6.0), device="cpu"))
    w = sr.vxm(y, A, sr.plus_times)  # the pull over Aᵀ, x the multiply's first operand
    assert kept[-1][0] is A.T and kept[-1][4] is True and w.size == 4 and not be.calls
    answer["res"] = None  # no plan kept yet: the general path (which makes one)
    w = sr.mxv(A, x, sr.min_plus)
    assert len(kept) == 3 and be.calls[-1][0] == "pull" and be.calls[-1][1] is A
    assert be.calls[-1][3] is None and be.calls[-1][4] is None
    assert w._bitmap[0].tolist() == [-7.0] * 6


def test_other_calls_take_the_general_path(fake_gpu):
    A, be, kept, _ = fake_gpu
    cases = {
        "present": _as_gpu(sr.Vector.from_dense(np.array([1.0, 0, 2, 3]), missing=0,
                                                device="cpu")),
        "int32 x": _as_gpu(sr.Vector.from_dense(np.arange(4, dtype=np.int32), device="cpu")),
        "sparse": _as_gpu(sr.Vector.from_coo([1], [2.0], size=4, device="cpu")),
    }
    for name, x in cases.items():
        n = len(be.calls)
        sr.mxv(A, x, sr.min_plus)
        assert len(be.calls) == n + 1, name
        call = be.calls[-1]
        if name == "present":
            assert call[0] == "pull" and call[3] is not None
        elif name == "int32 x":  # cast to the product's domain by the general path
            assert call[0] == "pull" and call[2].dtype == np.float64
        else:
            assert call[0] == "push"
    x = _as_gpu(sr.Vector.from_dense(np.arange(4.0), device="cpu"))
    sr.mxv(A, x, "min_plus")  # (by name: the general path's lookup)
    sr.mxv(A, x, sr.min_plus, direction="pull")
    assert [c[0] for c in be.calls[-2:]] == ["pull", "pull"]
    assert not kept
    # the checks name the argument, the expected and the actual value, before any kernel
    with pytest.raises(sr.DimensionMismatch, match=r"mxv: A.ncols \(=4\) must equal u.size \(=6\)"):
        sr.mxv(A, _as_gpu(sr.Vector.from_dense(np.ones(6), device="cpu")), sr.min_plus)
    with pytest.raises(sr.DeviceMismatch, match="mxv: A is on the GPU but u is on the CPU"):
        sr.mxv(A, sr.Vector.from_dense(np.ones(4), device="cpu"), sr.min_plus)
    with pytest.raises(sr.DimensionMismatch, match=r"vxm: A.nrows \(=6\) must equal u.size \(=4\)"):
        sr.vxm(x, A, sr.min_plus)
    assert not kept


# ---------------------------------------------------------------------------- emulated
class HostArr(np.ndarray):
    """A NumPy array that shows ``.data.ptr`` as a CuPy array does: its buffer's address."""

    @property
    def data(self):
        return _Mem(self.ctypes.data)


class EmulatedDevice:
    """CuPy and the driver as gpu/spmv.py's pull uses them, on the host: arrays are
    :class:`HostArr` known by address, a kernel computes the CPU backend's pull into its
    ``out`` / ``opres`` (CuPy's launch: the arguments themselves; the driver's: the words of
    the parameter block, each address looked up among the arrays made here, so a wrong or
    stale address fails), the current device and stream are settable."""

    def __init__(self):
        self.arrays, self.functions = {}, {}
        self.device, self.stream = 0, 0
        self.cupy_launches, self.driver_launches = 0, 0
        self.refuse = False
        self.lock = threading.Lock()
        self.during = None
        dev = self
        self.bool_ = np.bool_
        self.cuda = type("cuda", (), {})()
        self.cuda.runtime = type("runtime", (), {"getDevice": staticmethod(lambda: dev.device)})()
        self.cuda.get_current_stream = lambda: _Mem(dev.stream)
        self.cuda.alloc = self.alloc
        self.driver = type("driver", (), {
            "CUDADriverError": _DriverError,
            "launchKernel": staticmethod(self.launch_kernel),
            "launchCooperativeKernel": staticmethod(self.launch_kernel)})()

    def keep(self, a):
        a = np.ascontiguousarray(a).view(HostArr)
        with self.lock:
            self.arrays[a.ctypes.data] = a
        return a

    def empty(self, n, dtype=np.float64):
        return self.keep(np.zeros(n, dtype=dtype))

    def alloc(self, nbytes):
        return _Mem(self.keep(np.zeros(max(nbytes, 1), np.uint8)).ctypes.data)

    def ndarray(self, shape, dtype, mem):
        """The array on an allocation: it replaces the raw bytes at that address (a launch
        then finds the typed array)."""
        buf = self.arrays[mem.ptr]
        a = buf[:int(np.prod(shape)) * np.dtype(dtype).itemsize].view(dtype).view(HostArr)
        with self.lock:
            self.arrays[mem.ptr] = a
        return a

    def kernel(self, kind, S, dtype, itype, xfirst):
        dev = self

        class Function:  # as CuPy's RawKernel: the CUfunction at .kernel.ptr
            kernel = _Mem(0x7000 + len(dev.functions))

            def __call__(self, grid, block, args):
                with dev.lock:
                    dev.cupy_launches += 1
                dev.compute(S, dtype, xfirst, args)

        f = Function()
        self.functions[f.kernel.ptr] = (f, S, dtype, xfirst)
        return f

    def compute(self, S, dtype, xfirst, args):
        indptr, indices, avals, stride, x = args[:5]
        out, opres = args[10], args[11]
        n = out.size
        M = sr.Matrix(np.asarray(indptr).view(np.ndarray), np.asarray(indices).view(np.ndarray),
                      np.asarray(avals).view(np.ndarray), (n, x.size))
        idx, vals = sr.backend.backend_of("cpu").spmv.pull(
            M, np.asarray(x).view(np.ndarray), None, None, S, dtype, xfirst)
        out[...] = 0
        opres[...] = False
        out[idx] = vals
        opres[idx] = True

    def launch_kernel(self, f, gx, gy, gz, bx, by, bz, shm, stream, params, extra=None):
        if self.during is not None:
            self.during()
        if self.refuse:
            raise _DriverError("CUDA_ERROR_INVALID_VALUE")
        assert stream == self.stream  # (the plan of this stream)
        fn, S, dtype, xfirst = self.functions[f]
        words = StubDriver(15)._read(params)
        args = list(words)
        for i in (0, 1, 2, 4, 10, 11):  # the addresses spmv_pull reads
            args[i] = self.arrays[words[i]]
        with self.lock:
            self.driver_launches += 1
        self.compute(S, dtype, xfirst, args)


@pytest.fixture
def emulated(monkeypatch):
    """gpu/spmv.py's pull and the plain GPU mxv / vxm on :class:`EmulatedDevice`."""
    import sys  # noqa: PLC0415  (this fixture only)
    import types  # noqa: PLC0415  (this fixture only)

    dev = EmulatedDevice()
    monkeypatch.setattr(gspmv, "_cupy", lambda: dev)
    monkeypatch.setattr(gspmv, "_where", None)
    monkeypatch.setattr(gspmv.kernels, "cached", lambda key: True)
    monkeypatch.setattr(gspmv, "_kernel", dev.kernel)

    def schedule(M, kind):
        if M._sched is None:
            M._sched = {}
        return {"nblocks": 1, "rows": dev.empty(1), "long_rows": dev.empty(1),
                "bins": dev.empty(1)}
    monkeypatch.setattr(gspmv, "schedule", schedule)
    mods = {"cupy_backends": types.ModuleType("cupy_backends"),
            "cupy_backends.cuda": types.ModuleType("cupy_backends.cuda"),
            "cupy_backends.cuda.api": types.ModuleType("cupy_backends.cuda.api")}
    mods["cupy_backends"].cuda = mods["cupy_backends.cuda"]
    mods["cupy_backends.cuda"].api = mods["cupy_backends.cuda.api"]
    mods["cupy_backends.cuda.api"].driver = dev.driver
    for name, mod in mods.items():
        monkeypatch.setitem(sys.modules, name, mod)
    return dev


def _on_emulated(dev, A):
    """A CPU matrix (and its transpose) moved onto the emulated device."""
    for M in (A, A.T):
        M._indptr, M._indices = dev.keep(M._indptr), dev.keep(M._indices)
        M._values = dev.keep(M._values)
        M._device = "gpu"
    return A


def _x_on(dev, values):
    x = sr.Vector.from_dense(values, device="cpu")
    x._bitmap = (dev.keep(values), None)
    x._device = "gpu"
    return x


def _host_result(w):
    vals, pres = (np.asarray(a).view(np.ndarray).copy() for a in w._bitmap)
    return np.where(pres, vals, np.nan)


def _cpu_result(A, x, S, vxm=False):
    w = sr.vxm(x, A, S) if vxm else sr.mxv(A, x, S)
    return to_host(w.to_dense(missing=np.nan)).astype(np.float64)


@pytest.mark.parametrize("semiring", ["min_plus", "plus_times", "max_min"])
def test_pull_plan_on_an_emulated_device(emulated, semiring):
    """The plan's path end to end on the host: the first plain product keeps the plan, the
    next ones launch through the (emulated) driver from it, each into a result of its own;
    another stream or device keeps a plan of its own; KEPT_LAUNCH off and a refused launch
    take CuPy's launch; a matrix assigned anew drops its plans."""
    dev, S = emulated, getattr(sr, semiring)
    rng = np.random.default_rng(2)
    import scipy.sparse as sp  # noqa: PLC0415  (this test only)

    H = sp.random(30, 20, density=0.15, format="csr", random_state=rng)
    H.data[:3] = [np.inf, 0.0, -np.inf]  # stored inf and an explicit zero
    Ah = sr.Matrix.from_scipy(H, device="cpu")
    A = _on_emulated(dev, sr.Matrix.from_scipy(H, device="cpu"))
    kept = []
    for call in range(4):
        xv = rng.integers(-3, 4, 20).astype(np.float64)
        yv = rng.integers(-3, 4, 30).astype(np.float64)
        w = sr.mxv(A, _x_on(dev, xv), S)
        wt = sr.vxm(_x_on(dev, yv), A, S)
        kept.append((w, sr.Vector.from_dense(xv, device="cpu"), wt,
                     sr.Vector.from_dense(yv, device="cpu")))
        assert (dev.cupy_launches, dev.driver_launches) == (2, 2 * call)
    for w, x, wt, y in kept:  # each result its own, unchanged by later calls
        np.testing.assert_array_equal(_host_result(w), _cpu_result(Ah, x, S))
        np.testing.assert_array_equal(_host_result(wt), _cpu_result(Ah, y, S, vxm=True))
    assert len({w._bitmap[0].ctypes.data for w, *_ in kept}) == 4
    assert len({id(w._bitmap[1]) for w, *_ in kept}) == 1  # the shared presence array
    plans = [k for k in A._sched if isinstance(k, tuple) and k[0] == gspmv.PLAN_KEY]
    assert len(plans) == 1 and plans[0][1:3] == (0, 0)
    xv = rng.integers(-3, 4, 20).astype(np.float64)
    ref = _cpu_result(Ah, sr.Vector.from_dense(xv, device="cpu"), S)
    for device, stream in ((0, 0x5000), (1, 0), (0, 0x5000)):  # a plan each, then reused
        dev.device, dev.stream = device, stream
        np.testing.assert_array_equal(_host_result(sr.mxv(A, _x_on(dev, xv), S)), ref)
    plans = {k[1:3]: A._sched[k] for k in A._sched
             if isinstance(k, tuple) and k[0] == gspmv.PLAN_KEY}
    assert set(plans) == {(0, 0), (0, 0x5000), (1, 0)}
    assert all(p.kernel.stream == k[1] for k, p in plans.items())
    assert (dev.cupy_launches, dev.driver_launches) == (4, 7)
    dev.device, dev.stream = 0, 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gspmv, "KEPT_LAUNCH", False)
        np.testing.assert_array_equal(_host_result(sr.mxv(A, _x_on(dev, xv), S)), ref)
    dev.refuse = True
    np.testing.assert_array_equal(_host_result(sr.mxv(A, _x_on(dev, xv), S)), ref)
    dev.refuse = False
    assert (dev.cupy_launches, dev.driver_launches) == (6, 7)
    # A's content replaced (an operation's out=): its plans go with its schedules
    H2 = sp.random(30, 20, density=0.3, format="csr", random_state=rng)
    B = _on_emulated(dev, sr.Matrix.from_scipy(H2, device="cpu"))
    A._assign(B)
    assert A._sched is None
    ref2 = _cpu_result(sr.Matrix.from_scipy(H2, device="cpu"),
                       sr.Vector.from_dense(xv, device="cpu"), S)
    for _ in range(2):
        np.testing.assert_array_equal(_host_result(sr.mxv(A, _x_on(dev, xv), S)), ref2)
    assert (dev.cupy_launches, dev.driver_launches) == (7, 8)


def test_emulated_threads_launch_their_own_x(emulated):
    """Two threads in the kept launch at once (the emulated driver holds each until both are
    there, then reads the blocks): each result is its own x's product."""
    dev = emulated
    rng = np.random.default_rng(6)
    import scipy.sparse as sp  # noqa: PLC0415  (this test only)

    H = sp.random(50, 50, density=0.1, format="csr", random_state=rng)
    Ah = sr.Matrix.from_scipy(H, device="cpu")
    A = _on_emulated(dev, sr.Matrix.from_scipy(H, device="cpu"))
    sr.mxv(A, _x_on(dev, np.ones(50)), sr.min_plus)  # the plan
    xs = [rng.integers(-3, 4, 50).astype(np.float64) for _ in range(2)]
    dev.during = threading.Barrier(2, timeout=10).wait

    def run(k):
        return [_host_result(sr.mxv(A, _x_on(dev, xs[k]), sr.min_plus)) for _ in range(5)]

    with ThreadPoolExecutor(2) as ex:
        got = list(ex.map(run, (0, 1)))
    assert dev.driver_launches == 10
    for k in (0, 1):
        ref = _cpu_result(Ah, sr.Vector.from_dense(xs[k], device="cpu"), sr.min_plus)
        for g in got[k]:
            np.testing.assert_array_equal(g, ref)


# ---------------------------------------------------------------------------- on the GPU
SEMIRINGS = ["min_plus", "max_plus", "plus_times", "max_min", "lor_land", "any_pair",
             "plus_first", "min_secondi"]
DTYPES = [np.float64, np.float32, np.int32, np.int64, np.bool_]


def _gpu_or_skip(device):
    if device != "gpu":
        pytest.skip("the kept launch is the GPU's (its CPU parts: the tests above)")
    return importlib.import_module("cupy")


def _awkward(rng, n, m, dtype):
    """(values, present) of an n × m matrix: rows left empty, explicit zeros, ±inf stored
    (floats), int32's greatest (ints)."""
    present = rng.random((n, m)) < rng.choice([0.0, 0.05, 0.3, 1.0])
    if n:
        present[rng.random(n) < 0.3] = False  # empty rows
    vals = rng.integers(-4, 5, (n, m)).astype(dtype)
    if vals.size and np.dtype(dtype).kind == "f":
        vals.flat[rng.integers(0, vals.size, 3)] = [np.inf, -np.inf, 0.0]
    elif vals.size and np.dtype(dtype).kind == "i":
        vals.flat[rng.integers(0, vals.size, 2)] = [np.iinfo(np.int32).max, 0]
    return vals, present


def _awkward_matrix(rng, n, m, dtype, device):
    """The matrix of :func:`_awkward` on ``device`` and on the CPU."""
    vals, present = _awkward(rng, n, m, dtype)
    return make_matrix(vals, present, device), make_matrix(vals, present, "cpu")


def _check(got, ref, S):
    gi, gv = (to_host(a) for a in got.sparse()[:2])
    ri, rv = (to_host(a) for a in ref.sparse()[:2])
    assert got.dtype == ref.dtype and got.size == ref.size
    np.testing.assert_array_equal(gi, ri)
    if rv.dtype.kind == "f" and S.add.op.numpy is np.add:
        np.testing.assert_allclose(gv, rv, rtol=1e-5 if rv.dtype == np.float32 else 1e-12)
    else:
        np.testing.assert_array_equal(gv, rv)


class _Counting:
    """KeptLaunch.launch, its launches the driver took counted (the kept path ran, not
    CuPy's launch after a refusal)."""

    def __init__(self, monkeypatch):
        self.n = 0
        self.lock = threading.Lock()
        orig = KeptLaunch.launch

        def launch(k, *v):
            orig(k, *v)
            with self.lock:
                self.n += 1
        monkeypatch.setattr(KeptLaunch, "launch", launch)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("n", [0, 1, 2, 37, 300])
def test_kept_path_equals_the_general_path(device, seed, n, monkeypatch):
    cp = _gpu_or_skip(device)
    rng = np.random.default_rng(1000 * n + seed)
    S = getattr(sr, SEMIRINGS[seed % len(SEMIRINGS)])
    dtype = DTYPES[seed % len(DTYPES)]
    m = n if seed % 3 else int(rng.integers(0, 2 * n + 2))  # rectangular too
    vals, present = _awkward(rng, n, m, dtype)
    A, Ah = make_matrix(vals, present, device), make_matrix(vals, present, "cpu")
    count = _Counting(monkeypatch)
    kept = []
    for call in range(4):
        xd = rng.integers(-3, 4, m).astype(dtype)
        yd = rng.integers(-3, 4, n).astype(dtype)
        got = sr.mxv(A, sr.Vector.from_dense(cp.asarray(xd)), S)
        got_t = sr.vxm(sr.Vector.from_dense(cp.asarray(yd)), A, S)
        ref = sr.mxv(Ah, sr.Vector.from_dense(xd, device="cpu"), S)
        ref_t = sr.vxm(sr.Vector.from_dense(yd, device="cpu"), Ah, S)
        with pytest.MonkeyPatch.context() as mp:  # the general path: CuPy's launch, no plan
            mp.setattr(gspmv, "KEPT_LAUNCH", False)
            B = make_matrix(vals, present, device)
            gen = sr.mxv(B, sr.Vector.from_dense(cp.asarray(xd)), S)
        _check(got, ref, S)
        _check(got_t, ref_t, S)
        _check(gen, ref, S)
        kept.append((got, ref, got_t, ref_t))
    for got, ref, got_t, ref_t in kept:  # later calls left earlier results alone
        _check(got, ref, S)
        _check(got_t, ref_t, S)
    # a plan per product over a matrix of rows (mxv: A's, vxm: Aᵀ's), calls 2 to 4 from it
    assert count.n == 3 * (n > 0) + 3 * (m > 0)
    assert len({c[0].bitmap()[0].data.ptr for c in kept}) == 4 or n == 0


def test_kept_plans_per_stream(device, monkeypatch):
    cp = _gpu_or_skip(device)
    rng = np.random.default_rng(3)
    A, Ah = _awkward_matrix(rng, 200, 200, np.float64, device)
    # A was built on the legacy default stream, which non-blocking streams do not wait for:
    # its arrays are ready for them only after a synchronize (a caller's duty with such
    # streams: session 19's H200 run once gave a result with every value wrong here, most
    # likely this race)
    cp.cuda.runtime.deviceSynchronize()
    count = _Counting(monkeypatch)
    streams = [cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)]
    results = []
    for rep in range(3):
        for s in streams:
            with s:
                xd = rng.integers(-3, 4, 200).astype(np.float64)
                results.append((sr.mxv(A, sr.Vector.from_dense(cp.asarray(xd)), sr.min_plus),
                                xd, s))
    for s in streams:
        s.synchronize()
    plans = {k: v for k, v in A._sched.items() if isinstance(k, tuple) and k[0] == gspmv.PLAN_KEY}
    assert {k[2] for k in plans} == {s.ptr for s in streams}  # one plan a stream
    assert all(p.kernel.stream == k[2] for k, p in plans.items())
    assert count.n == 4  # calls 2 and 3 on each stream
    for got, xd, _ in results:
        _check(got, sr.mxv(Ah, sr.Vector.from_dense(xd, device="cpu"), sr.min_plus),
               sr.min_plus)


@pytest.mark.parametrize("own_streams", [False, True])
def test_kept_launch_from_two_threads(device, own_streams, monkeypatch):
    cp = _gpu_or_skip(device)
    rng = np.random.default_rng(9)
    A, Ah = _awkward_matrix(rng, 500, 500, np.float32, device)
    sr.mxv(A, sr.Vector.from_dense(cp.ones(500, dtype=np.float32)), sr.plus_times)  # the plan
    cp.cuda.runtime.deviceSynchronize()  # (A, built on the legacy stream, ready for any stream)
    xs = [rng.integers(-3, 4, 500).astype(np.float32) for _ in range(2)]
    start = threading.Barrier(2, timeout=60)

    def run(k):
        stream = cp.cuda.Stream(non_blocking=True) if own_streams else cp.cuda.Stream.null
        with stream:
            x = sr.Vector.from_dense(cp.asarray(xs[k]))
            start.wait()
            outs = [sr.mxv(A, x, sr.plus_times) for _ in range(200)]
            stream.synchronize()
            return [to_host(o.bitmap()[0]) for o in outs[::20]], to_host(outs[0].bitmap()[1])

    count = _Counting(monkeypatch)
    with ThreadPoolExecutor(2) as ex:
        got = list(ex.map(run, (0, 1)))
    # every call from the kept launch (a thread's own stream: after its first, which keeps
    # the plan for that stream), none refused by the driver in a fresh thread
    assert count.n == (398 if own_streams else 400)
    for k, (vals, pres) in enumerate(got):
        ref = sr.mxv(Ah, sr.Vector.from_dense(xs[k], device="cpu"), sr.plus_times)
        rv = to_host(ref.to_dense(missing=0))
        for v in vals:  # each thread's results are its own x's, every time
            np.testing.assert_allclose(np.where(pres, v, 0), rv, rtol=1e-5)


def test_refused_kept_launch_falls_back(device, monkeypatch):
    cp = _gpu_or_skip(device)
    rng = np.random.default_rng(4)
    A, Ah = _awkward_matrix(rng, 50, 50, np.float64, device)
    x = sr.Vector.from_dense(cp.asarray(rng.integers(0, 5, 50).astype(np.float64)))
    sr.mxv(A, x, sr.min_plus)
    (plan,) = [p for k, p in A._sched.items() if isinstance(k, tuple) and k[0] == gspmv.PLAN_KEY]

    def refuse(*a):
        raise plan.kernel.error(1)  # CUDA_ERROR_INVALID_VALUE
    plan.kernel._launch = refuse
    got = sr.mxv(A, x, sr.min_plus)
    _check(got, sr.mxv(Ah, sr.Vector.from_dense(to_host(x.bitmap()[0]), device="cpu"),
                       sr.min_plus), sr.min_plus)


def test_assigned_matrix_drops_its_plans(device):
    cp = _gpu_or_skip(device)
    rng = np.random.default_rng(8)
    A, _ = _awkward_matrix(rng, 80, 80, np.float64, device)
    B, Bh = _awkward_matrix(rng, 80, 80, np.float64, device)
    x = sr.Vector.from_dense(cp.asarray(rng.integers(0, 5, 80).astype(np.float64)))
    for _ in range(2):
        sr.mxv(A, x, sr.min_plus)
        sr.vxm(x, A, sr.min_plus)
    I = sr.Matrix.from_coo(np.arange(80), np.arange(80), np.ones(80), nrows=80, ncols=80,
                           device=device)
    sr.mxm(B, I, sr.plus_times, out=A)  # A = B, in place: its plans (and Aᵀ) go
    assert A._sched is None or not any(isinstance(k, tuple) and k[0] == gspmv.PLAN_KEY
                                       for k in A._sched)
    xh = sr.Vector.from_dense(to_host(x.bitmap()[0]), device="cpu")
    for _ in range(2):
        _check(sr.mxv(A, x, sr.min_plus), sr.mxv(Bh, xh, sr.min_plus), sr.min_plus)
        _check(sr.vxm(x, A, sr.min_plus), sr.vxm(xh, Bh, sr.min_plus), sr.min_plus)
