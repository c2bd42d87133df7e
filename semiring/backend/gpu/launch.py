"""Kept launches: one kernel launched again and again on the same arguments but a few (the
addresses of a call's input and output, a search's source), straight through the CUDA
driver with a kept parameter block.

CuPy's launch (``RawKernel.__call__``, ``Function.__call__``) wraps every argument in an
object on every call, looks the kernel up for the device and builds the driver's parameter
array anew: a few microseconds of host time, most of a small graph's whole call (on an H200
host an empty CuPy launch costs 4.6 µs, the SpMV pull's 15 arguments 7.7 µs:
bench/results/session13/small_breakdown_h200.log). A :class:`KeptLaunch` holds the
kernel's function pointer, grid, block and stream, and every argument's value in an 8-byte
word of a parameter block; a call writes only the words that change (its *slots*) and calls
``cuLaunchKernel`` (``cuLaunchCooperativeKernel`` for a cooperative grid) with the block.

The driver copies the parameters during the launch, so a block is free again when the call
returns; threads get a block each (two threads writing one block's slots at once would
launch each other's addresses). The words are the values CuPy would pass: an array by its
address, None as a null pointer, a Python int as an int64, a float as a float64, a NumPy
scalar by its own bytes; a parameter narrower than 8 bytes is read from its word's low
bytes (little-endian). Used by ``traversal.bfs_grid``'s kept search and by the SpMV pull's
kept plan (:mod:`semiring.backend.gpu.spmv`).
"""

from __future__ import annotations

import sys
from threading import get_ident as _get_ident

import numpy as np

_MASK = (1 << 64) - 1

#: A kept launch holds at most this many threads' blocks (threads come and go: a thread's
#: block is made again, 8 bytes an argument, when it calls after a clear).
MAX_THREAD_BLOCKS = 64


def param_word(a) -> int:
    """The 8-byte word (an int in [0, 2**64)) that holds argument ``a`` as CuPy's launch
    passes it: a device array (anything with ``.data.ptr``) by its address, None as a null
    pointer, a Python int (or bool) as an int64, a Python float as a float64, a NumPy
    scalar by its bytes. Raises TypeError for another kind and ValueError for a value wider
    than 8 bytes or an int outside int64 / uint64.

    Examples
    --------
    >>> import numpy as np
    >>> from semiring.backend.gpu.launch import param_word
    >>> param_word(None), param_word(-1) == 2**64 - 1, param_word(np.int32(-1)) == 2**32 - 1
    (0, True, True)
    >>> hex(param_word(np.float32(1.0))), hex(param_word(1.0))
    ('0x3f800000', '0x3ff0000000000000')
    """
    if a is None:
        return 0
    if isinstance(a, (bool, int)):  # (bool first as CuPy does: an int64 0 or 1)
        if not -(1 << 63) <= a <= _MASK:
            raise ValueError(f"param_word: an int argument must fit in 64 bits, got {a}")
        return int(a) & _MASK
    if isinstance(a, float):
        return int(np.float64(a).view(np.uint64))
    if isinstance(a, np.generic):
        b = a.tobytes()
        if len(b) > 8:
            raise ValueError(f"param_word: a scalar argument may have at most 8 bytes, got "
                             f"{a.dtype} ({len(b)} bytes)")
        return int.from_bytes(b, "little")
    ptr = getattr(getattr(a, "data", None), "ptr", None)
    if ptr is None:
        raise TypeError(f"param_word: an argument must be a device array, None, an int, a "
                        f"float or a NumPy scalar, got {type(a).__name__}")
    return int(ptr) & _MASK


def _dim3(d, what: str) -> tuple:
    d = (d,) if isinstance(d, (int, np.integer)) else tuple(d)
    if not 1 <= len(d) <= 3 or any(int(v) < 1 for v in d):
        raise ValueError(f"KeptLaunch: {what} must be 1 to 3 positive ints, got {d}")
    return tuple(int(v) for v in d) + (1,) * (3 - len(d))


class KeptLaunch:
    """A kernel launch kept for calls that change only a few arguments.

    Parameters
    ----------
    fptr : int
        The kernel's ``CUfunction`` (``Function.ptr`` of CuPy; ``RawKernel.kernel.ptr``) on
        the device it will run on.
    grid, block : int or tuple of 1 to 3 ints
    stream : int
        The ``CUstream`` every launch goes to (CuPy's ``Stream.ptr``; 0 the legacy default
        stream). A caller keeps one KeptLaunch per device and stream.
    args : sequence
        The kernel's arguments in order, of the kinds :func:`param_word` takes.
    slots : sequence of int
        The positions of the arguments that :meth:`launch` writes, in its arguments' order
        (their values in ``args`` are not used: the template holds 0 there).
    shared_mem : int
        Dynamic shared memory of a launch, in bytes.
    cooperative : bool
        Launch by ``cuLaunchCooperativeKernel`` (a grid whose blocks must all be resident).
    keep : object
        What the addresses in ``args`` point into (arrays, the kernel's module), held as long
        as this launch is.
    driver : module, optional
        Where ``launchKernel``, ``launchCooperativeKernel`` and ``CUDADriverError`` come from
        (default ``cupy_backends.cuda.api.driver``; tests pass a stand-in).

    Attributes
    ----------
    error : type
        The driver's error class: a launch the driver refuses raises it, and then nothing
        was queued.

    Examples
    --------
    >>> import semiring as sr
    >>> from semiring.backend.gpu.launch import KeptLaunch
    >>> out = sr.array_module("gpu").empty(4)  # doctest: +SKIP
    >>> k = KeptLaunch(f.ptr, 1, 32, 0, [x, out, 4], slots=(0, 1))  # doctest: +SKIP
    >>> k.launch(x2.data.ptr, out2.data.ptr)  # doctest: +SKIP
    """

    __slots__ = ("fptr", "grid", "block", "shared_mem", "stream", "cooperative", "template",
                 "slots", "keep", "error", "_blocks", "_launch")

    def __init__(self, fptr, grid, block, stream, args, slots=(), *, shared_mem=0,
                 cooperative=False, keep=None, driver=None):
        if sys.byteorder != "little":  # (a narrow parameter is read from its word's start)
            raise NotImplementedError("KeptLaunch: parameter words assume a little-endian host")
        if driver is None:
            from cupy_backends.cuda.api import driver  # noqa: PLC0415  (CuPy: GPU only)
        self.fptr = int(fptr)
        self.grid = _dim3(grid, "grid")
        self.block = _dim3(block, "block")
        self.shared_mem = int(shared_mem)
        self.stream = int(stream)
        self.cooperative = bool(cooperative)
        words = [param_word(a) for a in args]
        self.slots = tuple(int(i) for i in slots)
        for i in self.slots:
            if not 0 <= i < len(words):
                raise ValueError(f"KeptLaunch: slot {i} is not an argument's position "
                                 f"(there are {len(words)})")
            words[i] = 0
        if len(set(self.slots)) != len(self.slots):
            raise ValueError(f"KeptLaunch: slots must be distinct, got {self.slots}")
        self.template = np.array(words, dtype=np.uint64)
        self.keep = keep
        self.error = driver.CUDADriverError
        self._blocks = {}
        self._launch = driver.launchCooperativeKernel if cooperative else driver.launchKernel

    def block_of_thread(self):
        """(words, address of the pointer array, pointer array): this thread's parameter
        block, made from the template on its first call."""
        blk = self._blocks.get(_get_ident())
        if blk is None:
            if len(self._blocks) >= MAX_THREAD_BLOCKS:
                self._blocks.clear()  # (a thread in a launch holds its own block meanwhile)
            words = self.template.copy()
            # the driver's kernelParams: an array of pointers, one to each argument's word
            ptrs = np.uint64(words.ctypes.data) + np.arange(words.size, dtype=np.uint64) * np.uint64(8)
            blk = self._blocks[_get_ident()] = (words, int(ptrs.ctypes.data), ptrs)
        return blk

    def launch(self, *values):
        """Write ``values`` (ints in [0, 2**64): addresses, indices) into the slots, in the
        order of ``slots``, and launch on the kept stream. Raises :attr:`error` where the
        driver refuses the launch (nothing queued then)."""
        blk = self._blocks.get(_get_ident())
        if blk is None:
            blk = self.block_of_thread()
        words = blk[0]
        for i, v in zip(self.slots, values, strict=True):
            words[i] = v
        g, b = self.grid, self.block
        if self.cooperative:
            self._launch(self.fptr, g[0], g[1], g[2], b[0], b[1], b[2], self.shared_mem,
                         self.stream, blk[1])
        else:
            self._launch(self.fptr, g[0], g[1], g[2], b[0], b[1], b[2], self.shared_mem,
                         self.stream, blk[1], 0)
