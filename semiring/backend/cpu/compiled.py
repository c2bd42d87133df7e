"""CPU mechanism: compiled loops by Numba, where it is installed (the ``cpu`` extra).

One kernel per operation family, generic over the semiring: the kernel's loop is written
once and the semiring's scalar ops come from the op tables (:mod:`semiring.ops`) as data:
an op whose NumPy twin is a ``numpy.ufunc`` is called as that ufunc on scalars inside the
compiled loop (Numba compiles NumPy's ufuncs on scalars with NumPy's type rules), its
result cast to the op's result type. The kernel is a closure over those ufuncs and types,
built and compiled once per (semiring, domain) on its first use, and cached on disk
(``cache=True``: the closure's cells are the ufuncs and scalar types, which pickle by name,
so a later process finds the compiled code under the same key; each kernel under its own
name, behind an inter-process lock: see :func:`_jit`). An op whose NumPy twin is
a Python function (``first``, ``second``, ``pair``, ``minus``, the positional ops), or
whose compile fails, has no compiled form: the caller falls back to the NumPy paths
(:mod:`.spmv`, :mod:`.traversal`), which stay the reference the tests compare against.

Why: a min-plus SpMV in NumPy gathers x into a temporary (about SciPy's whole compiled
plus-times product), then adds and folds in further passes; the compiled row loop does it
in one pass, over two threads (``prange`` over row ranges of equal entry counts), and a BFS's
levels from SciPy's visit order are one loop (``level[v] = level[pred[v]] + 1``) instead of
seven NumPy passes. Measurements: ``docs/performance.md``,
``bench/results/20261128-cpu-numba-before-after.md``.

``SEMIRING_NUMBA=0`` in the environment turns the compiled paths off (the NumPy paths run);
:data:`ENABLED` is the switch the backend reads.

Examples
--------
>>> import numpy as np, semiring as sr
>>> A = sr.Matrix.from_coo([0, 0, 2], [0, 1, 1], [2.0, -3.0, 4.0], nrows=3, ncols=2)
>>> x = sr.Vector.from_dense(np.array([1.0, 5.0]))
>>> sr.mxv(A, x, sr.min_plus).to_dense(missing=np.inf)   # compiled where Numba is installed
array([ 2., inf,  9.])
"""

from __future__ import annotations

import importlib.util
import math
import os
import platform
import threading
import time

import numpy as np

from ...matrix import index_type
from ...ops import ANY, Semiring

#: Whether the compiled kernels run: Numba is installed (the ``cpu`` extra) and
#: ``SEMIRING_NUMBA`` is not "0". Numba itself is imported on the first kernel a process
#: needs (about 0.2 s), not with :mod:`semiring`.
ENABLED = importlib.util.find_spec("numba") is not None and \
    os.environ.get("SEMIRING_NUMBA", "1") != "0"
_nb = None


def _numba():
    global _nb
    if _nb is None:
        import numba  # noqa: PLC0415  (optional, imported on the first compiled call)

        _nb = numba
    return _nb

# ------------------------------------------------------------------------- the disk cache
#
# Numba's on-disk cache keeps one index file a function (its module, qualified name and
# line), which maps (signature, target, hash of the code and closure cells) to a numbered
# data file holding the machine code. Saving an entry reads the index, numbers the new data
# file one past the entries it read, writes the index, then the data, with no lock: two
# processes saving at once (pytest-xdist's workers, Dask's, a multiprocessing pool) can
# take the same number, and the index then names one key with the other's machine code,
# which a later process loads: a crash (``'descr' is NULL``: the suite on 32 xdist workers,
# session 11) or a silently wrong result (numba issues #4807, #10128, #10486). Every
# closure of a kernel factory shared one such index (one qualified name), so any two
# kernels compiled at once could collide. Hence each kernel's own qualified name
# (:func:`_tag`), and an inter-process lock (``flock`` on ``<cache>/<name>.lock``) held while
# a signature is loaded from the cache or compiled and saved, so that one process at a time
# reads or writes a kernel's index, and the others load what it saved rather than compile
# it again. The lock wraps the dispatcher's ``compile``, which runs only for a signature
# the process has not yet met: a warm call does not see it. Where ``fcntl`` is missing (not
# POSIX) the kernels are compiled without the disk cache.

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

_held: dict = {}  # lock file path -> (fd, depth) held by this process


def _tag(family, mul, ptype, add, form, *flags):
    """A kernel's name from what its closure holds: its own cache index and lock."""
    parts = [family, mul.__name__, np.dtype(ptype).name,
             add.__name__ if add is not None else "first", str(form)]
    parts += [str(int(f)) for f in flags]
    return "".join(c if c.isalnum() else "_" for c in "_".join(parts))


def _jit(func, tag=None, parallel=False, opt=None, unroll=True, loop_align=None):
    """``numba.njit`` of ``func`` (nogil), cached on disk under the name ``func``'s
    qualified name + ``tag`` with the inter-process lock described above; ``opt``: LLVM's
    optimization level of its IR passes where not Numba's default (see PULL_OPT);
    ``unroll=False``: without LLVM's loop unrolling pass (see PULL_UNROLL_MAX_X_BYTES);
    ``loop_align``: the byte alignment of its innermost loops (see PULL_LOOP_ALIGN)."""
    nb = _numba()
    if tag:
        func.__qualname__ = f"{func.__qualname__}_{tag}"
    if fcntl is None:  # pragma: no cover - not POSIX
        return nb.njit(cache=False, nogil=True, parallel=parallel)(func)
    disp = nb.njit(cache=True, nogil=True, parallel=parallel)(func)
    if not hasattr(disp, "_cache"):  # NUMBA_DISABLE_JIT: the Python function itself
        return disp
    from numba.core.compiler_lock import global_compiler_lock  # noqa: PLC0415  (numba: optional, imported on the first compile)

    name = "".join(c if c.isalnum() or c in "._-" else "_" for c in
                   f"{func.__module__}.{func.__qualname__}.lock")
    path = os.path.join(disp._cache.cache_path, name)
    compile_ = disp.compile

    def compile(sig):
        # (Numba's compiler lock first, as its compile takes it: one order for both locks)
        with global_compiler_lock, _file_lock(path), _opt_level(opt), \
                _no_unroll(not unroll), _loop_align(loop_align):
            return compile_(sig)

    disp.compile = compile  # (the dispatcher calls self.compile for a new signature)
    return disp


class _opt_level:
    """Numba's ``config.OPT`` at ``level`` while held (None: as it is), read by the IR pass
    pipelines Numba builds as it compiles; callers hold Numba's compiler lock, so no other
    compile sees it. The CPU target's code generator (whose machine-code level is read once,
    when it is made) is made first, at the process's level. Where Numba's config has no
    such setting the compile runs at its default."""

    __slots__ = ("level", "old")

    def __init__(self, level):
        self.level, self.old = level, None

    def __enter__(self):
        if self.level is None:
            return
        try:
            from numba.core import config  # noqa: PLC0415  (numba: optional)
            from numba.core.registry import cpu_target  # noqa: PLC0415  (numba: optional)

            cpu_target.target_context  # noqa: B018  (the code generator, made at the default level)
            old = config.OPT
            if int(old) != self.level:
                config.OPT = type(old)(self.level)
                self.old = old
        except Exception:  # pragma: no cover - another Numba: its default level
            self.old = None

    def __exit__(self, *exc):
        if self.old is not None:
            from numba.core import config  # noqa: PLC0415  (numba: optional)

            config.OPT, self.old = self.old, None


class _no_unroll:
    """While held (``on``), Numba's pass builders are made with LLVM's loop unrolling off
    (``PipelineTuningOptions.loop_unrolling``; full unrolling of constant trip counts
    stays): Numba builds them through ``numba.core.codegen.create_pass_builder`` for each
    compile, and callers hold its compiler lock, so no other compile sees the change. Where
    Numba or llvmlite lack that hook the compile runs with unrolling (the same results)."""

    __slots__ = ("on", "old")

    def __init__(self, on):
        self.on, self.old = on, None

    def __enter__(self):
        if not self.on:
            return
        try:
            import llvmlite.binding as llvm  # noqa: PLC0415  (numba's dependency)
            from numba.core import codegen  # noqa: PLC0415  (numba: optional)

            old = codegen.create_pass_builder
            if not hasattr(llvm, "create_pipeline_tuning_options"):
                return

            def create_pass_builder(tm, opt=2, loop_vectorize=False, slp_vectorize=False,
                                    **kw):
                if kw:  # (a Numba whose builder takes more: its own, unrolled)
                    return old(tm, opt, loop_vectorize, slp_vectorize, **kw)
                pto = llvm.create_pipeline_tuning_options()
                pto.speed_level = opt
                pto.slp_vectorization = slp_vectorize
                pto.loop_vectorization = loop_vectorize
                pto.loop_unrolling = False
                return llvm.create_pass_builder(tm, pto)

            codegen.create_pass_builder, self.old = create_pass_builder, old
        except Exception:  # pragma: no cover - another Numba: unrolled
            self.old = None

    def __exit__(self, *exc):
        if self.old is not None:
            from numba.core import codegen  # noqa: PLC0415  (numba: optional)

            codegen.create_pass_builder, self.old = self.old, None


#: LLVM's X86 option setting the alignment (log2 bytes) of innermost loops, and its value
#: that gives the X86 back end's own preferred loop alignment (16 bytes), restored after a
#: compile that changed it (once set, the option replaces that preference for every loop)
_X86_LOOP_ALIGN_OPTION = "-x86-experimental-pref-innermost-loop-alignment"
_X86_LOOP_ALIGN_DEFAULT = 4


class _loop_align:
    """While held (``align``: bytes, a power of two; None: as it is), LLVM's X86 back end
    aligns innermost loops to ``align`` bytes: a short loop body then sits in one 64-byte
    line of the decoded-op cache (see PULL_LOOP_ALIGN). An LLVM command-line option, global
    to the process: set under Numba's compiler lock (no other compile sees it) and put back
    to the back end's default after. Only on x86-64 (elsewhere the option does not exist);
    where setting it fails the compile runs with the default alignment."""

    __slots__ = ("bits", "set")

    def __init__(self, align):
        on = align is not None and platform.machine().lower() in ("x86_64", "amd64")
        self.bits = int(align).bit_length() - 1 if on else None
        self.set = False

    def __enter__(self):
        if self.bits is None:
            return
        try:
            import llvmlite.binding as llvm  # noqa: PLC0415  (numba's dependency)

            llvm.set_option("", f"{_X86_LOOP_ALIGN_OPTION}={self.bits}")
            self.set = True
        except Exception:  # pragma: no cover - another llvmlite: the default alignment
            self.set = False

    def __exit__(self, *exc):
        if self.set:
            import llvmlite.binding as llvm  # noqa: PLC0415  (numba's dependency)

            llvm.set_option("", f"{_X86_LOOP_ALIGN_OPTION}={_X86_LOOP_ALIGN_DEFAULT}")
            self.set = False


class _file_lock:
    """``flock`` on ``path`` (created) while held, re-entrant within the process (callers
    hold Numba's compiler lock, so one thread at a time); no lock where the file cannot be
    created (then Numba cannot save there either)."""

    __slots__ = ("path",)

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        held = _held.get(self.path)
        if held is not None:
            _held[self.path] = (held[0], held[1] + 1)
            return
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            fd = -1
        if fd >= 0:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:
                os.close(fd)
                fd = -1
        _held[self.path] = (fd, 1)

    def __exit__(self, *exc):
        fd, depth = _held[self.path]
        if depth > 1:
            _held[self.path] = (fd, depth - 1)
            return
        del _held[self.path]
        if fd >= 0:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)



#: A pull of fewer stored entries than this runs the serial kernel: the threads' start (a
#: few µs) would be most of its work. (grid-64², 16 128 entries, min-plus, the kernel call:
#: 10.9 µs on two threads, 21 serial, at load 2.4 on this 2-core host.)
PARALLEL_MIN_ENTRIES = 1 << 13
#: The parallel pull runs while the host's 1-minute load average is at most this times
#: its core count (see :func:`_threads`); re-read every LOAD_CHECK_S seconds.
PARALLEL_MAX_LOAD = 1.0
LOAD_CHECK_S = 1.0
#: A parallel pull that took longer than PARALLEL_TRIP times the serial kernel's expected
#: time (SERIAL_NS_PER_ENTRY a stored entry, plus PARALLEL_TRIP_US) turns the threads off
#: for PARALLEL_BACKOFF_S seconds: a thread of the loop waited for a core held by another
#: process. (On this host at load 1.7, which the load gate let through, the parallel pull
#: took 8 ms a call where the serial one takes 0.06-2 ms; the serial kernel runs at 0.6-1.5
#: ns an entry here.)
PARALLEL_TRIP = 2.0
SERIAL_NS_PER_ENTRY = 2.0
PARALLEL_TRIP_US = 50.0
PARALLEL_BACKOFF_S = 5.0
#: Row ranges a thread of the parallel pull: a few, of equal entry counts, so that a thread
#: whose rows are long (a power-law graph's hubs) does not hold the others up.
CHUNKS_PER_THREAD = 4
#: A push's output is collected by a scan of the target marks when at least 1/PUSH_SCAN of
#: the targets were hit (about 0.5 ns a target), else by sorting the hit targets (a heap
#: sort, about 4 ns × log2(hits) a hit): with 1/8, kron-16's 1 % frontier (about 6000 hits
#: of 65536) took 0.46 ms, 0.24 by NumPy's push.
PUSH_SCAN = 64
#: Scratch arrays of the push (a target's value and mark) are kept per thread for up to
#: this many targets; beyond it each call allocates its own (zeroed pages).
SCRATCH_MAX = 1 << 22


# --------------------------------------------------------------------- scalar ops as data

def _scalar(op, domain):
    """(ufunc, result scalar type) of a non-positional op whose NumPy twin is a ufunc, in
    ``domain``; None where the op has no compiled form."""
    if op.positional or not isinstance(op.numpy, np.ufunc):
        return None
    return op.numpy, op.result_type(domain).type


class Ops:
    """What a compiled kernel reads of a semiring in one domain: the multiply (ufunc and
    result type), the monoid's fold (ufunc, or keep the first product where the monoid's
    terminal is :data:`~semiring.ops.ANY`)."""

    __slots__ = ("mul", "ptype", "add", "first_only", "form")

    def __init__(self, mul, ptype, add, first_only):
        self.mul, self.ptype, self.add, self.first_only = mul, ptype, add, first_only
        self.form = _FOLD_FORMS.get(add, 0)


#: Folds compiled as an inline select instead of Numba's scalar ufunc, by the monoid's
#: NumPy twin: 1 ``fmin``, 2 ``fmax`` (NaN-ignoring: ``p if p < acc or acc != acc else
#: acc``). Numba's ``np.fmin`` on scalars tests both operands for NaN, seven instructions on
#: the fold's dependency chain against four: min-plus SpMV, serial, µs, kron-14 398 → 202,
#: urand-14 576 → 326, grid-256² 238 → 174 (SciPy's plus-times 333, 297, 141). The same
#: values; of two equal values (-0.0 and +0.0) it keeps the first, as IEEE leaves open.
#: Session 12 (branch cpu5): past a row's leading NaN products the accumulator is a
#: number, so the fold drops the NaN test of acc (`p if p < acc else acc`: one minss), one
#: chain a row. The serial kernel alone (min-plus, float32; best of 30, interleaved with
#: SciPy's plus-times `H @ x` on the shared 2-core host at load 4-8), µs, four lanes of the
#: NaN-testing select → one chain of the plain one (SciPy): urand-14 341-344 → 324-326
#: (319-377), urand-16-ef4 815 → 675-680 (739-774), urand-12 74-99 → 71-87 (78-137), kron-14
#: 349-352 → 363-365 (396-431), kron-16 1965-2294 → 1961-2161 (2101-2301), grid-256² 189-192 →
#: 145-146 (153-164). Four lanes of the plain select ran 447-500 on urand-14 (and so did a
#: kernel with them for rows of 64 or more only: LLVM's code for the short rows changed). In
#: the engine's kernel (rows by a row list), `sr.mxv` best of 2000: one chain lost on kron-12
#: (50 → 58.5 µs: its hubs); four lanes from 128 entries: kron-12 51, urand-14 353-357 →
#: 321-326 (SciPy 297-299), kron-14 219 → 223 (SciPy 332).
_FOLD_FORMS = {np.fmin: 1, np.fmax: 2}


def ops_of(sr: Semiring, domain):
    """The compiled form of ``sr`` in ``domain`` (:class:`Ops`), or None."""
    m = _scalar(sr.mul, domain)
    if m is None:
        return None
    ptype = np.dtype(m[1])
    first_only = sr.add.terminal is not None and sr.add.terminal(ptype) is ANY
    a = None if first_only else _scalar(sr.add.op, ptype)
    if not first_only and (a is None or np.dtype(a[1]) != ptype):
        return None  # a fold that changes the products' type: the NumPy path
    return Ops(m[0], m[1], None if first_only else a[0], first_only)


#: The multiplies whose product is one operand's value, by name: the operand order
#: (``xfirst``) in which that operand is x (``first`` in vxm's pull, ``second`` in mxv's).
_X_PRODUCT = {"first": True, "second": False}


def xonly_ops(sr: Semiring, domain, xfirst: bool):
    """The pull's compiled form of ``sr`` in ``domain`` where every product is x's value
    (``first`` with x the first operand, ``second`` with x the second): the monoid's fold of
    x over a row's columns (:func:`_make_pull`'s ``xonly``), as :class:`Ops` (its ``mul``
    unused); None elsewhere. ``first`` and ``second`` are Python functions in the op
    tables, with no compiled form of their own: plus_first (PageRank's unweighted step) ran
    through SciPy's ``P @ x`` over a pattern of ones at 14.5 µs a call on urand-10-ef4, the
    same call's compiled min-plus 6.3 µs (session 21, cpu21)."""
    mul = sr.mul
    if mul.positional or mul.result != "same" or _X_PRODUCT.get(mul.name) is not bool(xfirst):
        return None
    ptype = np.dtype(domain)
    first_only = sr.add.terminal is not None and sr.add.terminal(ptype) is ANY
    a = None if first_only else _scalar(sr.add.op, ptype)
    if not first_only and (a is None or np.dtype(a[1]) != ptype):
        return None
    return Ops(np.multiply, ptype.type, None if first_only else a[0], first_only)


# ------------------------------------------------------------------------- kernel factories

#: LLVM's optimization level of the serial pull's IR passes (Numba's default: 3). At 1 (no
#: runtime unrolling of a row's loop by 8, whose entry and remainder tests cost short rows
#: more than they save), min-plus float32, the kernel alone interleaved with SciPy's raw
#: ``csr_matvec``, µs, level 3 → 1 (SciPy): urand-10-ef4 5.01 → 4.76-4.78 (4.72), urand-13-
#: ef4 34.2-34.7 → 32.1-32.7 (33.6-35.2), urand-12 51.8-53.0 → 51.4-52.4 (67.6-68.2), kron-12
#: 44.8-60.2 → 43.5-58.6 (62.9-74.2), kron-14 345-348 → 334-337 (372-374), urand-14 324-325 →
#: 327-328 (301-302) (session 14, two runs at load 1.3). The parallel kernel keeps the
#: default (not measured at 1). Session 15: the row loop is still unrolled by 8 at level 1
#: (Numba's first, "cheap" module pass runs at its code generator's level, 3; the machine
#: code shows it); unrolling is PULL_UNROLL_MAX_X_BYTES's. Level 3 was nowhere faster and
#: slower on some graphs (medians, µs, 3 / 1: kron-12 66 / 45 here, urand-10-ef4 17.0 /
#: 11.4 on the H200 machine's host; ``bench/results/session15/cpu8_spmv.md``).
PULL_OPT = 1
#: The pull kernels' row loop is compiled without LLVM's loop unrolling where x takes more
#: than this many bytes (``M.ncols`` times the domain's size), unrolled (by 8, with a
#: remainder loop) otherwise. Unrolled, a row costs the remainder loop's exit as well as
#: the main loop's, which pays where x's gathers hit L1 (the loop issues-bound) and loses
#: where they reach L2: min-plus float32, serial kernel alone interleaved with SciPy's raw
#: ``csr_matvec`` on this 2-core AMD EPYC host (32 KiB L1d) at load 4, medians, µs,
#: unrolled / not (SciPy): urand-10-ef4 4.3 / 4.3 (4.8), urand-12 52.2 / 65.3 (72.3),
#: urand-14 330 / 290 (312), urand-16 2322 / 2242 (2244) (session 15, cpu8,
#: ``bench/results/session15/cpu8_spmv.md``).
PULL_UNROLL_MAX_X_BYTES = 32 << 10
#: The pull kernels' innermost loops start on a boundary of this many bytes (LLVM's X86
#: default: 16). The loop without unrolling is 28 bytes; at 16 it straddled a 64-byte line
#: of the decoded-op cache or not depending on the code before it (which differs by
#: semiring, type and build): the same machine code ran urand-14 in 363 µs straddling and
#: 275 µs inside one line (SciPy's loop, 288-297, inside one). See :class:`_loop_align`.
PULL_LOOP_ALIGN = 64


def _make_pull(mul, ptype, add, form, first_only, lanes, parallel, xfirst, unroll=True,
               xonly=False):
    """The pull ``out[s] = ⊕_j A(rows[s], j) ⊗ x(j)`` over the non-empty rows, the slots
    ``bounds[c]..bounds[c+1]`` of ``rows`` an iteration of the outer loop. Indices arrive as
    unsigned views (no negative-index wrap-around test a load: grid-256² 0.29 → 0.22 ms).
    ``lanes == 4`` (monoids whose fold does not depend on the order, on a matrix with rows
    of more than 128 entries): those rows fold into four accumulators, combined at the
    row's end, four independent dependency chains (the min fold's compare-and-select chain
    bound the loop: kron-12 177 → 82 µs). ``xfirst`` (x the multiply's first operand) is a
    constant of the kernel.

    Session 14 (cpu7): a chunk walks its rows ``rows[bounds[c]]..rows[bounds[c+1]-1]``
    directly, skipping the empty ones and counting the output slot, rather than loading
    each row's number from ``rows`` (a load on the chain to ``indptr``); ``xfirst`` a
    constant rather than an argument tested each product; the lanes' row-length test only
    in the kernel for matrices that have such rows. Serial min-plus kernel alone, float32,
    best of 7 medians of 300 calls, µs, old → new (SciPy's raw ``csr_matvec`` plus-times):
    urand-10-ef4 5.7 → 4.4 (4.5), urand-13-ef4 43.1 → 32.3 (33.9), grid-64² 13.3 → 9.4
    (8.9), urand-14 322 → 238-267 (300), kron-14 217 → 204 (328), kron-12 45.3 → 41.9 (61.5)
    (``bench/results/session14-cpu7.md``). ``unroll``: LLVM's loop unrolling on (see
    PULL_UNROLL_MAX_X_BYTES); the innermost loops aligned to PULL_LOOP_ALIGN bytes.
    ``xonly``: every product is x's value (:func:`xonly_ops`), ``a`` is not read."""
    nb = _numba()
    prange = nb.prange  # (a module's attribute in the loop is not taken for prange)
    one, two, three, four = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)

    def pull(indptr, indices, a, x, rows, bounds, out):
        def prod(j):
            if xonly:
                return ptype(x[indices[j]])
            if xfirst:
                return ptype(mul(x[indices[j]], a[j]))
            return ptype(mul(a[j], x[indices[j]]))

        def fold(acc, p):  # the monoid's op (form: a compile-time constant, see _FOLD_FORMS)
            if form == 1:
                return p if (p < acc or acc != acc) else acc
            if form == 2:
                return p if (p > acc or acc != acc) else acc
            return ptype(add(acc, p))

        def sel(acc, p):  # fold where acc is not NaN (forms 1 and 2)
            if form == 1:
                return p if p < acc else acc
            return p if p > acc else acc

        # ``parallel`` read here puts it in the closure: Numba's on-disk cache keys an entry
        # by the code and the closure's cells, not by the compile flags
        nchunks = bounds.size - 1 if parallel else bounds.size - 1
        for c in prange(nchunks):
            s = np.uint64(bounds[c])  # the chunk's first output slot
            s1 = np.uint64(bounds[c + 1])
            if s == s1:
                continue
            for r in range(rows[s], rows[s1 - one] + one):  # (unsigned)
                j0 = np.uint64(indptr[r])
                j1 = np.uint64(indptr[r + one])
                if j0 == j1:
                    continue  # an empty row: no slot
                acc = prod(j0)
                j = j0 + one
                if not first_only and form != 0:
                    # fmin / fmax skip NaN: past the leading NaN products acc is a number
                    # and stays one, so the fold is `p < acc ? p : acc`, one minss on the
                    # dependency chain (with the NaN test of acc, four instructions: hence
                    # the lanes before). One chain a row then beats four, but on rows of
                    # 128 or more (hubs), where four chains from acc (min and max are
                    # idempotent) still pay (_FOLD_FORMS)
                    while acc != acc and j < j1:
                        acc = prod(j)
                        j += one
                    if lanes == 4 and j1 - j >= 128:
                        acc1, acc2, acc3 = acc, acc, acc
                        while j + three < j1:
                            acc = sel(acc, prod(j))
                            acc1 = sel(acc1, prod(j + one))
                            acc2 = sel(acc2, prod(j + two))
                            acc3 = sel(acc3, prod(j + three))
                            j += four
                        acc = sel(sel(acc, acc1), sel(acc2, acc3))
                    while j < j1:
                        acc = sel(acc, prod(j))
                        j += one
                elif not first_only:
                    if lanes == 4 and j1 - j0 >= 8:
                        acc1, acc2, acc3 = prod(j), prod(j + one), prod(j + two)
                        j += three
                        while j + three < j1:
                            acc = fold(acc, prod(j))
                            acc1 = fold(acc1, prod(j + one))
                            acc2 = fold(acc2, prod(j + two))
                            acc3 = fold(acc3, prod(j + three))
                            j += four
                        acc = fold(fold(acc, acc1), fold(acc2, acc3))
                    while j < j1:
                        acc = fold(acc, prod(j))
                        j += one
                out[s] = acc
                s += one

    # (the code's flags in the name: the disk cache keys the code alone)
    opt = None if parallel else PULL_OPT
    return _jit(pull, _tag("pull2", mul, ptype, add, form, first_only, lanes, parallel,
                           xfirst) + f"_O{opt}_a{PULL_LOOP_ALIGN}" + ("" if unroll else "_nu")
                + ("_x" if xonly else ""),
                parallel=parallel, opt=opt, unroll=unroll, loop_align=PULL_LOOP_ALIGN)


def _make_block(mul, ptype, add, form):
    """A block of the padded row plan (:func:`.spmv._pull_rows`: w × R tables of values and
    column indices, a row a column, pads whose product the fold ignores): ``out[r] =
    ⊕_t a[t, r] ⊗ x[k[t, r]]``, the loop over r innermost, which LLVM vectorizes with
    gathers (grid-256², min-plus: 139 µs, the row loop 220, SciPy's plus-times 140)."""

    def block(a, k, x, xfirst, out):
        def prod(t, r):
            if xfirst:
                return ptype(mul(x[k[t, r]], a[t, r]))
            return ptype(mul(a[t, r], x[k[t, r]]))

        w, nr = a.shape
        for r in range(nr):
            out[r] = prod(0, r)
        for t in range(1, w):
            for r in range(nr):
                p = prod(t, r)
                acc = out[r]
                if form == 1:  # (a select the loop vectorizes: | not `or`)
                    out[r] = p if ((p < acc) | (acc != acc)) else acc
                elif form == 2:
                    out[r] = p if ((p > acc) | (acc != acc)) else acc
                else:
                    out[r] = ptype(add(acc, p))

    return _jit(block, _tag("block", mul, ptype, add, form))


#: A padded block at most this wide runs :func:`_make_block_rows`' kernel, compiled for its
#: width (one kernel a width met: a grid's is 4); wider ones the block kernel above.
BLOCK_ROWS_WIDTH = 8


def _make_block_rows(mul, ptype, form, width, xfirst):
    """The padded block as :func:`_make_block`'s, its tables row-major (R × ``width``: a
    row's slots adjacent), ``width`` and ``xfirst`` constants of the kernel: a row's loop is
    unrolled and the loop over the rows vectorized with gathers, each output written once.
    Session 14 (cpu7), min-plus float32, the kernel alone, µs, interleaved (block kernel
    above / this / SciPy's raw ``csr_matvec`` plus-times): grid-64² 9.2 / 6.0-6.2 / 9.3,
    grid-128² 35.7 / 22.3-23.2 / 36.7, grid-256² 140.5 / 91-99 / 139 (its tables past the
    L2 cache: the column-major layout with the width constant took 129). The width
    read at run time instead: 17.6 / 55.7 / 181 (at a higher load). Folds of the padded
    plan only (form 1 or 2: NaN pads, see :data:`.spmv.PAD_BLOCK_COST`)."""
    assert form in (1, 2)

    def block(a, k, x, out):
        def prod(r, t):
            if xfirst:
                return ptype(mul(x[k[r, t]], a[r, t]))
            return ptype(mul(a[r, t], x[k[r, t]]))

        for r in range(out.size):
            acc = prod(r, 0)
            for t in range(1, width):
                p = prod(r, t)
                if form == 1:  # (a select the loop vectorizes: | not `or`)
                    acc = p if ((p < acc) | (acc != acc)) else acc
                else:
                    acc = p if ((p > acc) | (acc != acc)) else acc
            out[r] = acc

    return _jit(block, _tag("blockrows", mul, ptype, None, form, width, xfirst))


#: The compiled SpGEMM orders a row's columns (listed as they are first met) by insertion
#: where it has at most SPGEMM_INSERTION entries; else by its bitmap (a bit a column, read
#: back word by word over the words the row spans, a set bit at a time), or by a heap sort
#: where that span is more than SPGEMM_BITMAP_SPAN words an entry. Session 11: urand-14 A·A
#: min-plus (rows of ~990 of 16 384 columns), the numeric pass, ms: unordered 150-190,
#: np.sort a row 850, a scan of the marks 420-570; the whole `sr.mxm` 586-726 ms before
#: (np.sort, int64 columns cast after), 342-377 with the bitmap (SciPy's plus-times,
#: unsorted rows: 192-260). Session 12 (cpu5): the bitmap for dense rows too (the scan of
#: every mark, taken from 1/16 of the columns, read 4096 marks a row of kron-12) and the
#: values in a dense accumulator row (no slot a column, no copy of the row) with unsigned
#: indices: see :func:`spgemm`.
SPGEMM_INSERTION = 16
SPGEMM_BITMAP_SPAN = 8
#: De Bruijn's sequence for the index of a word's lowest set bit: table[(b * DEBRUIJN) >> 58]
#: for b the bit isolated (Leiserson, Prokop & Randall 1998).
DEBRUIJN = 0x03F79D71B4CB0A89
_DEBRUIJN_TABLE = np.zeros(64, dtype=np.int64)
_DEBRUIJN_TABLE[((np.uint64(1) << np.arange(64, dtype=np.uint64)) * np.uint64(DEBRUIJN))
                >> np.uint64(58)] = np.arange(64)


def _make_spgemm(mul, ptype, add, form, first_only):
    """Gustavson's product ``C = A ⊕.⊗ B`` without a mask, row by row, serial (SciPy's own
    ``csr_matmat`` is serial too): a symbolic pass counts each row's distinct columns with a
    mark array; the numeric pass folds each output entry's products in A's stored order
    (increasing k, as the NumPy path and the dense oracle fold them) into a dense
    accumulator row, a bit a column marking the columns met (and listing them as met), then
    writes the row in column order (see :data:`SPGEMM_INSERTION`). Indices arrive as
    unsigned views (no wrap-around test a load). Returns (symbolic, numeric)."""

    def symbolic(a_ptr, a_idx, b_ptr, b_idx, mark, counts):
        for i in range(a_ptr.size - 1):
            c = 0
            for p in range(a_ptr[i], a_ptr[i + one]):
                k = a_idx[p]
                for q in range(b_ptr[k], b_ptr[k + one]):
                    j = b_idx[q]
                    if mark[j] != i:
                        mark[j] = i
                        c += 1
            counts[i] = c

    def numeric(a_ptr, a_idx, a, b_ptr, b_idx, b, c_ptr, c_idx, c_val, acc, bits, debruijn,
                span):
        def fold(acc, p):  # the monoid's op (form: a compile-time constant, see _FOLD_FORMS)
            if form == 1:
                return p if (p < acc or acc != acc) else acc
            if form == 2:
                return p if (p > acc or acc != acc) else acc
            return ptype(add(acc, p))

        for i in range(a_ptr.size - 1):
            s = c_ptr[i]
            e = s
            w0, w1 = nwords, zero  # the words the row's columns span
            for p in range(a_ptr[i], a_ptr[i + one]):
                k = a_idx[p]
                av = a[p]
                for q in range(b_ptr[k], b_ptr[k + one]):
                    j = np.uint64(b_idx[q])
                    prod = ptype(mul(av, b[q]))
                    wd = j >> six
                    bit = one << (j & sixty3)
                    if bits[wd] & bit:
                        if not first_only:
                            acc[j] = fold(acc[j], prod)
                    else:
                        bits[wd] |= bit
                        acc[j] = prod
                        c_idx[e] = j
                        e += one
                        w0 = min(w0, wd)
                        w1 = max(w1, wd)
            ne = e - s
            if ne <= SPGEMM_INSERTION or w1 - w0 > span * ne:
                # a short row by insertion, a sparse one (its columns far apart) by a heap
                # sort of the columns listed; then each column's value and bit
                if ne <= SPGEMM_INSERTION:
                    for w in range(s + one, e):
                        v = c_idx[w]
                        q = w  # (unsigned: never below s, which may be 0)
                        while q > s and c_idx[q - one] > v:
                            c_idx[q] = c_idx[q - one]
                            q -= one
                        c_idx[q] = v
                else:
                    _heapsort_jit(c_idx[s:e])
                for w in range(s, e):
                    j = np.uint64(c_idx[w])
                    c_val[w] = acc[j]
                    bits[j >> six] = 0
            else:  # the bitmap read back word by word, a set bit at a time
                q = s
                for wd in range(w0, w1 + one):
                    word = bits[wd]
                    bits[wd] = 0
                    while word:
                        low = word & (~word + one)  # the lowest set bit
                        j = (wd << six) + debruijn[(low * magic) >> shift]
                        c_idx[q] = j
                        c_val[q] = acc[j]
                        q += one
                        word ^= low

    one, zero, six, sixty3 = np.uint64(1), np.uint64(0), np.uint64(6), np.uint64(63)
    magic, shift = np.uint64(DEBRUIJN), np.uint64(58)
    nwords = np.uint64(1 << 58)  # (more than any row spans: the min's start)
    _sort_kernels()  # the global _heapsort_jit the numeric pass calls
    tag = _tag("spgemm2", mul, ptype, add, form, first_only)
    return _jit(symbolic, tag), _jit(numeric, tag)


def spgemm(A, B, sr: Semiring, dtype):
    """The unmasked product ``A ⊕.⊗ B`` by :func:`_make_spgemm`'s kernels: (indptr, indices,
    values of the products' type), or None where ``sr`` has no compiled form in ``dtype``
    (the caller runs the NumPy path)."""
    k = _kernel("spgemm", sr, dtype)
    if k is None:
        return None
    symbolic, numeric = k
    ptype = ops_of(sr, dtype).ptype
    nrows, ncols = A.nrows, B.ncols
    # unsigned views: (a signed index costs a wrap-around test a load)
    a_ptr = A.indptr.astype(np.int64, copy=False).view(np.uint64)
    b_ptr = B.indptr.astype(np.int64, copy=False).view(np.uint64)
    a_idx, b_idx = _unsigned(A.indices), _unsigned(B.indices)
    counts = np.empty(nrows, dtype=np.int64)
    mark = np.full(ncols, -1, dtype=np.int64)
    key = ("spgemm", sr, np.dtype(dtype), A.indices.dtype, B.indices.dtype)
    if _call(symbolic, key, a_ptr, a_idx, b_ptr, b_idx, mark, counts) is None:
        return None
    c_ptr = np.zeros(nrows + 1, dtype=np.int64)
    np.cumsum(counts, out=c_ptr[1:])
    nnz = int(c_ptr[-1])
    # the column indices in the result's own index type (int32 where it fits: no cast
    # after, half the stores), written through an unsigned view
    c_idx = np.empty(nnz, dtype=index_type(nrows, ncols, nnz))
    c_val = np.empty(nnz, dtype=ptype)
    acc = np.empty(ncols, dtype=ptype)  # the dense accumulator row
    if _call(numeric, key + (c_idx.dtype,), a_ptr, a_idx, _values(A, dtype), b_ptr, b_idx,
             _values(B, dtype), c_ptr.view(np.uint64), _unsigned(c_idx), c_val, acc,
             np.zeros(ncols // 64 + 1, dtype=np.uint64), _DEBRUIJN_TABLE,
             np.uint64(SPGEMM_BITMAP_SPAN)) is None:
        return None
    return c_ptr, c_idx, c_val


def _unsigned(a):
    """An int32 / int64 array as its unsigned view (other types as they are)."""
    return a.view(np.uint32) if a.dtype == np.int32 else \
        a.view(np.uint64) if a.dtype == np.int64 else a


#: The masked dot product scans row j of Bᵀ against row i of A scattered, or, where row j
#: is more than DOT_GALLOP times longer than row i, searches it for row i's entries (a
#: hub's row against a leaf's).
DOT_GALLOP = 16
#: The multiplies the masked dot product compiles besides the ufunc ops (by the op's name):
#: the product is the left value, the right value, or 1 (``pair``: triangle counting).
_DOT_MUL_KINDS = {"first": 1, "second": 2, "pair": 3}


def dot_ops(sr: Semiring, domain):
    """The masked dot product's compiled form of ``sr`` in ``domain``: (mul ufunc, kind, ptype,
    add ufunc or None, form, first_only), or None (positional ops, a Python fold)."""
    mul = sr.mul
    if mul.positional:
        return None
    kind = 0 if isinstance(mul.numpy, np.ufunc) else _DOT_MUL_KINDS.get(mul.name)
    if kind is None:
        return None
    ptype = mul.result_type(domain)
    first_only = sr.add.terminal is not None and sr.add.terminal(ptype) is ANY
    a = None if first_only else _scalar(sr.add.op, ptype)
    if not first_only and (a is None or np.dtype(a[1]) != ptype):
        return None
    add = None if first_only else a[0]
    return (mul.numpy if kind == 0 else np.add, kind, ptype.type, add,
            _FOLD_FORMS.get(add, 0), first_only)


def _make_dot(mul, kind, ptype, add, form, first_only):
    """The masked dot product ``C⟨M⟩ = A ⊕.⊗ Bᵀ`` (SuiteSparse's dot3): for each mask entry
    (i, j) the products of the k where rows i of A and j of BT meet, folded in increasing k
    (the NumPy path's order). Row i of A is scattered into ``stamp`` / ``pos`` (one slot a
    k), and each row j of BT masked in is scanned against it: one load and a compare a k,
    no merge's unpredictable branches (triangle counting, kron-14: a merge of the two rows
    took 190-210 ms); a row j more than DOT_GALLOP times longer than row i is searched for
    row i's entries instead. ``hit[e]``: whether mask entry e met any k; ``counts[i]``: row
    i's hits; ``stamp`` zeros on entry."""
    count = kind == 3 and add is np.add  # plus_pair: the count of the k, as ptype

    def dot(a_ptr, a_idx, a, b_ptr, b_idx, b, m_ptr, m_idx, out, hit, counts, stamp, pos):
        def prod(pa, pb):
            if kind == 1:
                return ptype(a[pa])
            if kind == 2:
                return ptype(b[pb])
            if kind == 3:
                return ptype(1)
            return ptype(mul(a[pa], b[pb]))

        def fold(acc, p):  # (as in the pull)
            if form == 1:
                return p if (p < acc or acc != acc) else acc
            if form == 2:
                return p if (p > acc or acc != acc) else acc
            return ptype(add(acc, p))

        for i in range(m_ptr.size - 1):
            a0, a1 = a_ptr[i], a_ptr[i + 1]
            m0, m1 = m_ptr[i], m_ptr[i + 1]
            if a0 == a1:
                for e in range(m0, m1):
                    hit[e] = False
                counts[i] = 0
                continue
            tag = i + 1
            for pa in range(a0, a1):
                k = a_idx[pa]
                stamp[k] = tag
                pos[k] = pa
            c = 0
            for e in range(m0, m1):
                j = m_idx[e]
                b0, b1 = b_ptr[j], b_ptr[j + 1]
                found = False
                acc = ptype(0)
                if b1 - b0 > DOT_GALLOP * (a1 - a0):
                    # row i's entries searched for in the long row j (both in k order)
                    lo = b0
                    for pa in range(a0, a1):
                        k = a_idx[pa]
                        hi = b1
                        while lo < hi:
                            mid = (lo + hi) >> 1
                            if b_idx[mid] < k:
                                lo = mid + 1
                            else:
                                hi = mid
                        if lo == b1:
                            break
                        if b_idx[lo] == k:
                            p = prod(pa, lo)
                            if not found:
                                acc, found = p, True
                                if first_only:
                                    break
                            else:
                                acc = fold(acc, p)
                            lo += 1
                elif count:
                    n = 0
                    for pb in range(b0, b1):
                        n += stamp[b_idx[pb]] == tag
                    found = n > 0
                    acc = ptype(n)
                else:
                    for pb in range(b0, b1):
                        k = b_idx[pb]
                        if stamp[k] == tag:
                            p = prod(pos[k], pb)
                            if not found:
                                acc, found = p, True
                                if first_only:
                                    break
                            else:
                                acc = fold(acc, p)
                hit[e] = found
                if found:
                    out[e] = acc
                    c += 1
            counts[i] = c

    return _jit(dot, _tag("dot", mul, ptype, add, form, kind, first_only))


def dot3(A, BT, sr: Semiring, dtype, mask):
    """The masked dot product by :func:`_make_dot`'s kernel: (indptr int64, column indices
    int64, values of the products' type), or None where ``sr`` has no compiled form there
    (the caller runs the NumPy path). ``mask``: a structure-only Matrix."""
    if not ENABLED:
        return None
    dtype = np.dtype(dtype)

    def build():
        f = dot_ops(sr, dtype)
        return None if f is None else (_make_dot(*f), np.dtype(f[2]))

    k = _memo(("dot", sr, dtype), build)
    if k is None:
        return None
    kernel, ptype = k
    ne = mask.nvals
    out = np.empty(ne, dtype=ptype)
    hit = np.empty(ne, dtype=np.bool_)
    counts = np.empty(mask.nrows, dtype=np.int64)
    stamp = np.zeros(A.ncols, dtype=np.int64)
    pos = np.empty(A.ncols, dtype=np.int64)
    la, lb, lm = _layout(A, 0), _layout(BT, 0), _layout(mask, 0)
    ckey = (kernel, A.indices.dtype, BT.indices.dtype, mask.indices.dtype)
    i64 = np.int64  # (signed positions: no unsigned + signed mixes, which Numba makes float)
    if _call(kernel, ckey, la["indptr"].view(i64), la["indices"], _values(A, dtype),
             lb["indptr"].view(i64), lb["indices"], _values(BT, dtype),
             lm["indptr"].view(i64), lm["indices"], out, hit, counts, stamp, pos) is None:
        return None
    indptr = np.zeros(mask.nrows + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    if int(indptr[-1]) == ne:
        return indptr, mask.indices, out
    e = np.flatnonzero(hit)
    return indptr, mask.indices[e], out[e]


#: The dense min/max GEMM relaxes Z's columns in blocks whose rows of Y (K of them) fill
#: about GEMM_BLOCK_BYTES (kept in the core's L2 cache while every row of Z passes).
GEMM_BLOCK_BYTES = 1 << 17


def _make_gemm(mul, ptype, form):
    """The dense product ``Z = Z ⊕ X ⊗ Y`` (``init``: Z starts from the k = 0 products) for
    a min or max monoid (``form`` 1 / 2: fmin / fmax, order-free), a row of Z at a time,
    every k of X's row folded into it across a block of columns: the innermost loop a
    branch-free select over contiguous columns, which LLVM vectorizes."""

    def gemm(Z, X, Y, init, jb):
        m, K = X.shape
        n = Y.shape[1]
        for j0 in range(0, n, jb):
            j1 = min(n, j0 + jb)
            for i in range(m):
                # (1-D rows indexed from 0: no negative-index test a load; the loop over a
                # 2-D index ran scalar, 0.94 ns a relaxation against 0.11)
                zr = Z[i, j0:j1]
                k0 = 0
                if init:
                    a = X[i, 0]
                    yr = Y[0, j0:j1]
                    for j in range(zr.size):
                        zr[j] = ptype(mul(a, yr[j]))
                    k0 = 1
                for k in range(k0, K):
                    a = X[i, k]
                    yr = Y[k, j0:j1]
                    for j in range(zr.size):
                        p = ptype(mul(a, yr[j]))
                        acc = zr[j]
                        if form == 1:
                            zr[j] = p if ((p < acc) | (acc != acc)) else acc
                        else:
                            zr[j] = p if ((p > acc) | (acc != acc)) else acc

    return _jit(gemm, _tag("gemm", mul, ptype, None, form))


def gemm(Z, X, Y, sr: Semiring, dtype, init: bool):
    """``Z = [Z ⊕] X ⊕.⊗ Y`` in place by :func:`_make_gemm`'s kernel, for a min or max
    monoid over a non-positional ufunc multiply whose products have Z's type: True, or None
    (the caller runs the NumPy path). X and Y are read in ``dtype``."""
    if not ENABLED:
        return None
    dtype = np.dtype(dtype)

    def build():
        f = ops_of(sr, dtype)
        return None if f is None or f.form not in (1, 2) else \
            (_make_gemm(f.mul, f.ptype, f.form), np.dtype(f.ptype))

    k = _memo(("gemm", sr, dtype), build)
    if k is None or Z.dtype != k[1] or X.shape[1] == 0:
        return None
    kernel = k[0]
    X = np.ascontiguousarray(X, dtype=dtype)
    Y = np.ascontiguousarray(Y, dtype=dtype)
    # operands that overlap Z are read from copies (the kernel writes Z as it goes; the
    # product is the operands' before the call)
    X = X.copy() if np.may_share_memory(X, Z) else X
    Y = Y.copy() if np.may_share_memory(Y, Z) else Y
    jb = max(64, GEMM_BLOCK_BYTES // max(1, X.shape[1] * dtype.itemsize)) // 16 * 16
    # a view of rows with a pitch (Floyd–Warshall's rectangles) relaxed in a contiguous copy:
    # the kernel on the strided layout ran 0.47 ns a relaxation against 0.11, and the copy
    # in and out is two passes against K relaxations an element
    W = Z if Z.flags.c_contiguous else np.ascontiguousarray(Z)
    if _call(kernel, (kernel,), W, X, Y, bool(init), jb) is None:
        return None
    if W is not Z:
        Z[...] = W
    return True


def _make_push(mul, ptype, add, form, first_only):
    """The push ``out(o) = ⊕_{t} x_t ⊗ A(k_t, o)``: each target's products folded in the
    order of the expansion (the frontier's order, then the row's), which is the order of
    the reference's stable sort; sorted (indices, values)."""

    def push(indptr, indices, a, ks, xv, allowed, masked, xfirst, acc, mark, hits):
        def fold(s, p):  # as in the pull
            if form == 1:
                return p if (p < s or s != s) else s
            if form == 2:
                return p if (p > s or s != s) else s
            return ptype(add(s, p))

        ncols = mark.size
        nhit = 0
        for t in range(ks.size):
            k = ks[t]
            xk = xv[t]
            j = indptr[k]
            while j < indptr[k + 1]:
                o = indices[j]
                jj = j
                j += one
                if masked and not allowed[o]:
                    continue
                if xfirst:
                    p = ptype(mul(xk, a[jj]))
                else:
                    p = ptype(mul(a[jj], xk))
                if mark[o] == 0:
                    mark[o] = 1
                    acc[o] = p
                    hits[nhit] = o
                    nhit += 1
                elif not first_only:
                    acc[o] = fold(acc[o], p)
        if nhit * PUSH_SCAN >= ncols:
            idx = np.empty(nhit, dtype=np.int64)
            h = 0
            for o in range(ncols):
                if mark[o]:
                    idx[h] = o
                    h += 1
        else:  # (a copy: hits is this thread's scratch, the result outlives the call)
            idx = hits[:nhit].copy()
            _heapsort_jit(idx)
        vals = np.empty(nhit, dtype=acc.dtype)
        for h in range(nhit):
            o = idx[h]
            vals[h] = acc[o]
            mark[o] = 0  # the marks are all clear between calls
        return idx, vals

    one = np.uint64(1)
    _sort_kernels()  # the global _heapsort_jit the push calls
    return _jit(push, _tag("push", mul, ptype, add, form, first_only))


def _heapsort(a):
    # in place, O(k log k); short lists by insertion. (np.sort compiled into the push cost
    # it 2 s of compile on a fresh cache, this 0.1 s)
    n = a.size
    if n <= 16:
        for i in range(1, n):
            v = a[i]
            j = i - 1
            while j >= 0 and a[j] > v:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = v
        return
    for start in range(n // 2 - 1, -1, -1):
        _sift_jit(a, start, n)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        _sift_jit(a, 0, end)


def _sift(a, root, end):
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and a[child] < a[child + 1]:
            child += 1
        if a[root] >= a[child]:
            return
        a[root], a[child] = a[child], a[root]
        root = child


_sift_jit = _heapsort_jit = None  # compiled on first use; globals of the kernels above


def _sort_kernels():
    global _sift_jit, _heapsort_jit
    if _heapsort_jit is None:
        _sift_jit = _jit(_sift)
        _heapsort_jit = _jit(_heapsort)


def _bfs_levels(order, pred, level):
    # SciPy's search visits a vertex after the vertex that found it: one pass in visit order
    level[order[0]] = 0
    for i in range(1, order.size):
        v = order[i]
        level[v] = level[pred[v]] + 1


def _make_msbfs(parallel):
    """Whole breadth-first searches, one a source (the sources over threads when
    ``parallel``): each a FIFO queue over the CSR's rows in stored order, which is SciPy's
    ``breadth_first_order``: the same levels and the same BFS tree (a vertex's parent the
    first queued vertex that finds it), with the levels written as the search goes (no
    pass over the visit order afterwards)."""
    nb = _numba()
    prange = nb.prange  # (a module's attribute in the loop is not taken for prange)

    def msbfs(indptr, indices, sources, level, parent, parents):
        # (unsigned vertices and positions: no negative-index wrap-around test a load)
        n = level.shape[1]
        for j in prange(sources.shape[0]):
            lv = level[j]
            for v in range(n):
                lv[v] = -1
            src = np.uint64(sources[j])
            lv[src] = 0
            if parents:
                pa = parent[j]
                for v in range(n):
                    pa[v] = -1
                pa[src] = sources[j]
            queue = np.empty(n, dtype=np.uint64)
            queue[0] = src
            head, tail = 0, 1
            while head < tail:
                v = queue[head]
                head += 1
                d = lv[v] + 1
                for p in range(indptr[v], indptr[v + np.uint64(1)]):
                    w = np.uint64(indices[p])
                    if lv[w] < 0:
                        lv[w] = d
                        if parents:
                            pa[w] = np.int64(v)
                        queue[tail] = w
                        tail += 1

    return _jit(msbfs, "par" if parallel else "serial", parallel=parallel)


def _tarjan(indptr, indices, members, starts):
    # NetworkX's nonrecursive Tarjan (strongly_connected_components), step for step, over
    # the CSR in stored order: the roots in vertex order, each vertex's neighbours resumed
    # where its last push left them; a component's members in the order its set gets them
    n = indptr.size - 1
    preorder = np.zeros(n, dtype=np.int64)  # 0: not reached
    lowlink = np.zeros(n, dtype=np.int64)
    found = np.zeros(n, dtype=np.bool_)
    nxt = indptr[:-1].copy()
    queue = np.empty(n, dtype=np.int64)
    pending = np.empty(n, dtype=np.int64)  # NetworkX's scc_queue
    i = 0
    size = 0
    ncomp = 0
    filled = 0
    for source in range(n):
        if found[source]:
            continue
        queue[0] = source
        qlen = 1
        while qlen:
            v = queue[qlen - 1]
            if preorder[v] == 0:
                i += 1
                preorder[v] = i
            done = True
            while nxt[v] < indptr[v + 1]:
                w = indices[nxt[v]]
                nxt[v] += 1
                if preorder[w] == 0:
                    queue[qlen] = w
                    qlen += 1
                    done = False
                    break
            if done:
                low = preorder[v]
                for p in range(indptr[v], indptr[v + 1]):
                    w = indices[p]
                    if not found[w]:
                        if preorder[w] > preorder[v]:
                            low = min(low, lowlink[w])
                        else:
                            low = min(low, preorder[w])
                lowlink[v] = low
                qlen -= 1
                if low == preorder[v]:
                    starts[ncomp] = filled
                    ncomp += 1
                    members[filled] = v
                    filled += 1
                    found[v] = True
                    while size and preorder[pending[size - 1]] > preorder[v]:
                        size -= 1
                        k = pending[size]
                        members[filled] = k
                        filled += 1
                        found[k] = True
                else:
                    pending[size] = v
                    size += 1
    starts[ncomp] = filled
    return ncomp


def _tarjan_zwick(indptr, indices, members, starts):
    # NetworkX 3.7's strongly_connected_components (Tarjan and Zwick's iterative search with
    # WebGraph's early exit), step for step: the same completion order as _tarjan, but the
    # lowlinks fall at each back or cross arc, and once every vertex is reached and one of
    # them links back to its tree's root, the rest is one component whose set gets the parked
    # vertices first (bottom up), then the search path (root first)
    n = indptr.size - 1
    low = np.zeros(n, dtype=np.int64)  # 0: not reached; else NetworkX's lowlink
    found = np.zeros(n, dtype=np.bool_)
    nxt = indptr[:-1].copy()
    path = np.empty(n, dtype=np.int64)  # NetworkX's dfs_v
    lead = np.empty(n, dtype=np.bool_)  # its dfs_lead
    parked = np.empty(n, dtype=np.int64)  # its comp_stack
    index = 0
    size = 0
    ncomp = 0
    filled = 0
    for source in range(n):
        if low[source] != 0:
            continue
        index += 1
        root_low = index
        low[source] = index
        path[0] = source
        lead[0] = True
        depth = 1
        while depth:
            v = path[depth - 1]
            descended = False
            while nxt[v] < indptr[v + 1]:
                w = indices[nxt[v]]
                nxt[v] += 1
                if low[w] == 0:  # a tree arc
                    index += 1
                    low[w] = index
                    path[depth] = w
                    lead[depth] = True
                    depth += 1
                    descended = True
                    break
                if not found[w] and low[v] > low[w]:
                    lead[depth - 1] = False
                    low[v] = low[w]
                    if low[v] == root_low and index == n:  # NetworkX's early exit
                        starts[ncomp] = filled
                        ncomp += 1
                        for j in range(size):
                            members[filled] = parked[j]
                            filled += 1
                        for j in range(depth):
                            members[filled] = path[j]
                            filled += 1
                        starts[ncomp] = filled
                        return ncomp
            if descended:
                continue
            depth -= 1
            if lead[depth]:  # v roots a component: its parked vertices join it
                v_low = low[v]
                starts[ncomp] = filled
                ncomp += 1
                members[filled] = v
                filled += 1
                found[v] = True
                while size and low[parked[size - 1]] >= v_low:
                    size -= 1
                    k = parked[size]
                    members[filled] = k
                    filled += 1
                    found[k] = True
            else:
                parked[size] = v
                size += 1
                parent = path[depth - 1]
                if low[parent] > low[v]:
                    lead[depth - 1] = False
                    low[parent] = low[v]
    starts[ncomp] = filled
    return ncomp


def _bfs_queue(indptr, indices, frontier, depth_limit, seen, order, parent, bounds):
    # NetworkX's level-synchronous BFS queue (bfs_edges, bfs_layers, _plain_bfs), step for
    # step over the CSR in stored order: the frontier in the caller's order, each vertex's
    # neighbours in adjacency order, the first discovery wins; level d + 1's vertices are
    # order[bounds[d]:bounds[d + 1]], each found from parent[i]
    for i in range(frontier.size):
        seen[frontier[i]] = True
    tail = 0
    lo, hi = 0, frontier.size
    depth = 0
    bounds[0] = 0
    while depth < depth_limit:
        start = tail
        for i in range(lo, hi):
            u = frontier[i] if depth == 0 else order[i]
            for p in range(indptr[u], indptr[u + 1]):
                v = indices[p]
                if not seen[v]:
                    seen[v] = True
                    order[tail] = v
                    parent[tail] = u
                    tail += 1
        if tail == start:
            break
        depth += 1
        bounds[depth] = tail
        lo, hi = start, tail
    return depth


def _heap_push(hd, hc, hv, size, key, count, v):
    # (key, count, v) into the binary heap of ``size`` entries (keys hd, push counts hc,
    # vertices hv), sifted up: Python's heapq order of NetworkX's (distance, count, node)
    j = size
    while j > 0:
        parent = (j - 1) >> 1
        if hd[parent] < key or (hd[parent] == key and hc[parent] < count):
            break
        hd[j], hc[j], hv[j] = hd[parent], hc[parent], hv[parent]
        j = parent
    hd[j], hc[j], hv[j] = key, count, v


_heap_push_jit = None  # compiled on first use; a global of _dijkstra_heap


def _dijkstra_heap(indptr, indices, w, sources, cutoff, has_cutoff, dist, popped, seenval,
                   pops, finds, hd, hc, hv, parent, track, eu, ev, er):
    # NetworkX's _dijkstra_multisource, step for step over the CSR in adjacency order: a
    # binary heap of (distance, push count, vertex), the sources pushed first at 0; returns
    # (pops, finds, events, status), status 1 where NetworkX raises "Contradictory paths
    # found". parent[u]: the popped vertex of u's last strictly improving push (NetworkX's
    # pred_dict[u][0], its paths' parent). With ``track``, its pred list events in order:
    # (eu, ev, er) = (vertex, predecessor, 1 where the list is reset to [ev], 0 appended)
    n = indptr.size - 1
    seen = np.zeros(n, dtype=np.bool_)
    size = 0
    count = 0
    npops = 0
    nfinds = 0
    nev = 0
    zero = w.dtype.type(0)
    for i in range(sources.size):
        s = sources[i]
        if not seen[s]:
            seen[s] = True
            finds[nfinds] = s
            nfinds += 1
        seenval[s] = zero
        _heap_push_jit(hd, hc, hv, size, zero, count, s)
        size += 1
        count += 1
    while size:
        d, v = hd[0], hv[0]
        size -= 1
        if size:
            # the last entry sifted down from the root
            ld, lc, lv = hd[size], hc[size], hv[size]
            j = 0
            while True:
                c = 2 * j + 1
                if c >= size:
                    break
                if c + 1 < size and (hd[c + 1] < hd[c] or
                                     (hd[c + 1] == hd[c] and hc[c + 1] < hc[c])):
                    c += 1
                if ld < hd[c] or (ld == hd[c] and lc < hc[c]):
                    break
                hd[j], hc[j], hv[j] = hd[c], hc[c], hv[c]
                j = c
            hd[j], hc[j], hv[j] = ld, lc, lv
        if popped[v]:
            continue
        popped[v] = True
        dist[v] = d
        pops[npops] = v
        npops += 1
        for p in range(indptr[v], indptr[v + 1]):
            u = indices[p]
            vu = d + w[p]
            if has_cutoff and vu > cutoff:
                continue
            if popped[u]:
                if vu < dist[u]:
                    return npops, nfinds, nev, 1
                if track and vu == dist[u]:
                    eu[nev], ev[nev], er[nev] = u, v, 0
                    nev += 1
                continue
            if not seen[u] or vu < seenval[u]:
                if not seen[u]:
                    seen[u] = True
                    finds[nfinds] = u
                    nfinds += 1
                seenval[u] = vu
                _heap_push_jit(hd, hc, hv, size, vu, count, u)
                size += 1
                count += 1
                parent[u] = v
                if track:
                    eu[nev], ev[nev], er[nev] = u, v, 1
                    nev += 1
            elif track and vu == seenval[u]:
                eu[nev], ev[nev], er[nev] = u, v, 0
                nev += 1
    return npops, nfinds, nev, 0


def _spfa_loop(indptr, indices, w, sources, heuristic, is_float, dist, has, firsts, in_q,
               queue, count, pred_edge, ru_a, ru_b, head, tail, nxt, evv):
    # NetworkX's _inner_bellman_ford (its SPFA), step for step over the CSR in adjacency
    # order: a FIFO queue, a node's relaxations skipped while one of its predecessors waits
    # in the queue, the heuristic's recent-update pairs and the count test for negative
    # cycles. Each node's predecessor list is a chain of events (head, tail, nxt; evv the
    # predecessor): reset to [u] at a strict improvement, u appended at an equal distance.
    # Returns (nfirsts, nev, status): status 1 where NetworkX finds a negative cycle, 2
    # where the event arrays are full (the caller retries with more)
    n = indptr.size - 1
    nfirsts = 0
    nev = 0
    qh = 0
    qn = 0
    cap = queue.size
    for i in range(sources.size):
        s = sources[i]
        has[s] = True
        dist[s] = w.dtype.type(0)
        firsts[nfirsts] = s
        nfirsts += 1
        queue[(qh + qn) % cap] = s
        qn += 1
        in_q[s] = True
    while qn:
        u = queue[qh]
        qh = (qh + 1) % cap
        qn -= 1
        in_q[u] = False
        skip = False
        e = head[u]
        while e >= 0:
            if in_q[evv[e]]:
                skip = True
                break
            e = nxt[e]
        if skip:
            continue
        du = dist[u]
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            dv = du + w[p]
            if has[v]:
                better = dv < dist[v]
            else:
                better = (not is_float) or dv < np.inf
            if better:
                if heuristic:
                    if v == ru_a[u] or v == ru_b[u]:
                        return nfirsts, nev, 1
                    if pred_edge[v] == u:
                        ru_a[v], ru_b[v] = ru_a[u], ru_b[u]
                    else:
                        ru_a[v], ru_b[v] = u, v
                if not in_q[v]:
                    queue[(qh + qn) % cap] = v
                    qn += 1
                    in_q[v] = True
                    count[v] += 1
                    if count[v] == n:
                        return nfirsts, nev, 1
                if not has[v]:
                    has[v] = True
                    firsts[nfirsts] = v
                    nfirsts += 1
                dist[v] = dv
                if nev == evv.size:
                    return nfirsts, nev, 2
                evv[nev] = u
                nxt[nev] = -1
                head[v] = nev
                tail[v] = nev
                nev += 1
                pred_edge[v] = u
            elif has[v] and dv == dist[v]:
                if nev == evv.size:
                    return nfirsts, nev, 2
                evv[nev] = u
                nxt[nev] = -1
                if head[v] < 0:
                    head[v] = nev
                else:
                    nxt[tail[v]] = nev
                tail[v] = nev
                nev += 1
    return nfirsts, nev, 0


def _spfa_lists(order, head, nxt, evv, ptr, out):
    # the final predecessor lists of the nodes of ``order``, as CSR (ptr, out)
    k = 0
    for i in range(order.size):
        ptr[i] = k
        e = head[order[i]]
        while e >= 0:
            out[k] = evv[e]
            k += 1
            e = nxt[e]
    ptr[order.size] = k
    return k


def _cores_bz(indptr, indices, core, pos, vert, bins):
    # Batagelj & Zaversnik 2003, "An O(m) algorithm for cores decomposition of networks":
    # the vertices sorted by degree in bins (vert, pos; bins[d] the first slot of degree d),
    # taken in that order; a vertex taken has its core number as its degree, and lowers each
    # neighbour of higher degree by one, moving it to the front of its bin and the bin's
    # start past it (O(1) a lowering), so the order stays sorted. A self-loop counts in no
    # degree and lowers nothing (u == v: not of higher degree). Also runs interpreted, on
    # Python lists (the caller without Numba).
    n = len(core)
    top = 0
    for v in range(n):
        d = 0
        for e in range(indptr[v], indptr[v + 1]):
            if indices[e] != v:
                d += 1
        core[v] = d
        if d > top:
            top = d
    for d in range(top + 1):
        bins[d] = 0
    for v in range(n):
        bins[core[v]] += 1
    start = 0
    for d in range(top + 1):
        num = bins[d]
        bins[d] = start
        start += num
    for v in range(n):
        p = bins[core[v]]
        pos[v] = p
        vert[p] = v
        bins[core[v]] = p + 1
    for d in range(top, 0, -1):
        bins[d] = bins[d - 1]
    bins[0] = 0
    for i in range(n):
        v = vert[i]
        dv = core[v]
        for e in range(indptr[v], indptr[v + 1]):
            u = indices[e]
            du = core[u]
            if du > dv:
                pu = pos[u]
                pw = bins[du]
                w = vert[pw]
                if u != w:  # u to the front of its bin, the bin's first vertex to u's slot
                    pos[u] = pw
                    vert[pu] = w
                    pos[w] = pu
                    vert[pw] = u
                bins[du] = pw + 1
                core[u] = du - 1



def _truss_supports(indptr, indices, mirror, sup, cursor, optr, oidx, opos, mark):
    # The support of every entry of a symmetric pattern (rows sorted; self-loops allowed,
    # support 0), by the "forward" triangle listing of Schank & Wagner 2005 (Chiba &
    # Nishizeki 1985): each edge oriented from the lower (degree, index) end to the higher,
    # so every out-list holds at most sqrt(2m) vertices; each vertex u marks its out-list
    # with the entries (u, w), and each out-neighbour v of u scans its own out-list for
    # marked w: the triangle u, v, w once, O(m sqrt m) in all (no hub's whole row is
    # scanned, unlike a masked product over the unoriented rows). Also runs interpreted,
    # on Python lists (the caller without Numba).
    n = len(indptr) - 1
    m = len(indices)
    # mirror[p]: the entry (j, i) of the entry p = (i, j). Row j's entries of columns < j
    # meet rows i = 0, 1, ... in that order (columns ascending), so one cursor a row
    for v in range(n):
        cursor[v] = indptr[v]
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            if j == i:
                mirror[p] = p
            elif j > i:
                q = cursor[j]
                cursor[j] = q + 1
                mirror[p] = q
                mirror[q] = p
    optr[0] = 0
    for i in range(n):
        di = indptr[i + 1] - indptr[i]
        c = 0
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            dj = indptr[j + 1] - indptr[j]
            if di < dj or (di == dj and i < j):
                c += 1
        optr[i + 1] = optr[i] + c
    for i in range(n):
        di = indptr[i + 1] - indptr[i]
        t = optr[i]
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            dj = indptr[j + 1] - indptr[j]
            if di < dj or (di == dj and i < j):
                oidx[t] = j
                opos[t] = p
                t += 1
    for v in range(n):
        mark[v] = -1
    for p in range(m):
        sup[p] = 0
    for u in range(n):
        for t in range(optr[u], optr[u + 1]):
            mark[oidx[t]] = opos[t]
        for t in range(optr[u], optr[u + 1]):
            v = oidx[t]
            puv = opos[t]
            for s in range(optr[v], optr[v + 1]):
                puw = mark[oidx[s]]
                if puw >= 0:
                    sup[puv] += 1
                    sup[puw] += 1
                    sup[opos[s]] += 1
        for t in range(optr[u], optr[u + 1]):
            mark[oidx[t]] = -1
    # each edge's count sits on its oriented entry: the sum on both
    for p in range(m):
        q = mirror[p]
        if p < q:
            c = sup[p] + sup[q]
            sup[p] = c
            sup[q] = c


def _truss_peel_edges(indptr, indices, mirror, sup, k2, alive, queue, qrow, keep):
    # The k-truss (k2 = k - 2) from the supports: Wang & Cheng 2012 ("Truss decomposition
    # in massive networks"), for one k. An edge (its entry (i, j), i < j, in alive / sup /
    # queue) of support < k2 is queued; taking it, every triangle it still closes with two
    # edges not yet taken dies: their supports drop by one, and an edge whose support just
    # fell below k2 is queued (once: only the drop from k2 to k2 - 1 queues). The third
    # vertex x: the shorter row's entries searched for in the longer row (x ascending, so
    # the search resumes where it stopped). The supports left are the truss's triangles.
    # keep[p] on exit: whether entry p (either direction) is in the truss, sup[p] its
    # support. Also runs interpreted, on Python lists.
    n = len(indptr) - 1
    tail = 0
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            keep[p] = False
            alive[p] = False
            if indices[p] > i:
                alive[p] = True
                if sup[p] < k2:
                    queue[tail] = p
                    qrow[tail] = i
                    tail += 1
    head = 0
    while head < tail:
        e = queue[head]
        u = qrow[head]
        head += 1
        v = indices[e]
        if indptr[u + 1] - indptr[u] <= indptr[v + 1] - indptr[v]:
            s, o = u, v
        else:
            s, o = v, u
        o1 = indptr[o + 1]
        lo = indptr[o]
        for ps in range(indptr[s], indptr[s + 1]):
            x = indices[ps]
            if x == s or x == o:
                continue
            cs = ps if s < x else mirror[ps]
            if not alive[cs]:
                continue
            hi = o1
            while lo < hi:
                mid = (lo + hi) >> 1
                if indices[mid] < x:
                    lo = mid + 1
                else:
                    hi = mid
            if lo == o1:
                break
            if indices[lo] != x:
                continue
            co = lo if o < x else mirror[lo]
            if not alive[co]:
                continue
            sup[cs] -= 1
            if sup[cs] == k2 - 1:
                queue[tail] = cs
                qrow[tail] = s if s < x else x
                tail += 1
            sup[co] -= 1
            if sup[co] == k2 - 1:
                queue[tail] = co
                qrow[tail] = o if o < x else x
                tail += 1
        alive[e] = False
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            if alive[p]:
                q = mirror[p]
                keep[p] = True
                keep[q] = True
                sup[q] = sup[p]


def _loopless_degrees(indptr, indices, deg):
    # Each vertex's neighbours other than itself. Also runs interpreted, on Python lists.
    for v in range(len(deg)):
        d = 0
        for e in range(indptr[v], indptr[v + 1]):
            if indices[e] != v:
                d += 1
        deg[v] = d


def _greedy_colours(indptr, indices, key, rank, colour, mark, order, bins):
    # Greedy colouring in decreasing (key, rank) order: each vertex takes the smallest colour
    # none of its neighbours coloured before it has. With Jones-Plassmann's priorities this
    # is their colouring: a vertex is coloured there once all its neighbours of higher
    # priority are, and none of lower priority can be, so it sees the same coloured
    # neighbours. The order by a counting sort of the keys (small integers) over the
    # vertices in decreasing rank (a permutation; colour holds the vertex of each rank
    # meanwhile); ``mark[c] == v``: colour c is taken around v (a stamp a vertex, no reset).
    # A self-loop is skipped (uncoloured when met). Also runs interpreted, on Python lists.
    n = len(colour)
    for v in range(n):
        colour[rank[v]] = v
    for b in range(len(bins)):
        bins[b] = 0
    for v in range(n):
        bins[key[v]] += 1
    start = 0
    for b in range(len(bins) - 1, -1, -1):
        c = bins[b]
        bins[b] = start
        start += c
    for r in range(n - 1, -1, -1):
        v = colour[r]
        p = bins[key[v]]
        order[p] = v
        bins[key[v]] = p + 1
    for v in range(n):
        colour[v] = -1
        mark[v] = -1
    for i in range(n):
        v = order[i]
        for e in range(indptr[v], indptr[v + 1]):
            c = colour[indices[e]]
            if c >= 0:
                mark[c] = v
        c = 0
        while mark[c] == v:
            c += 1
        colour[v] = c


def _lpa_sweeps(indptr, indices, order, starts, label, active, count, seen, max_iter):
    # Semi-synchronous label propagation (Cordasco & Gargano 2010) over the pattern with its
    # self-loops, from label[v] = v: the colour classes order[starts[c]:starts[c + 1]] in
    # turn, sweep after sweep (at most max_iter; < 0: no limit) until one changes no label.
    # Each active vertex of a class takes its neighbours' most frequent label, keeping its
    # own on a tie, else the largest (Prec-Max), and activates its neighbours when it
    # changes. A class holds no two neighbours, so its vertices one by one read the labels
    # they would read at once (a vertex's own label, through its self-loop, is read before
    # it changes) and leave the others' activity as it was: the class's simultaneous
    # update, exactly. Then the labels are renumbered 0..k-1 in order of each community's
    # smallest vertex. ``count`` (n zeros) and ``seen`` (n) are scratch; returns the sweeps
    # run. Also runs interpreted, on Python lists.
    n = len(label)
    sweeps = 0
    while max_iter < 0 or sweeps < max_iter:
        sweeps += 1
        changed = 0
        for c in range(len(starts) - 1):
            for i in range(starts[c], starts[c + 1]):
                v = order[i]
                if not active[v]:
                    continue
                active[v] = False
                k = 0
                for e in range(indptr[v], indptr[v + 1]):
                    lab = label[indices[e]]
                    if count[lab] == 0:
                        seen[k] = lab
                        k += 1
                    count[lab] += 1
                if k == 0:
                    continue
                top = 0
                best = -1
                for t in range(k):
                    lab = seen[t]
                    f = count[lab]
                    if f > top or (f == top and lab > best):
                        top = f
                        best = lab
                own = count[label[v]]
                for t in range(k):
                    count[seen[t]] = 0
                if own == top:
                    continue
                label[v] = best
                changed += 1
                for e in range(indptr[v], indptr[v + 1]):
                    active[indices[e]] = True
        if changed == 0:
            break
    # count[l]: the new number of label l (-1: not met yet); a vertex's label is read once
    for v in range(n):
        count[v] = -1
    k = 0
    for v in range(n):
        lab = label[v]
        if count[lab] < 0:
            count[lab] = k
            k += 1
        label[v] = count[lab]
    return sweeps


# ------------------------------------------------------------------ Louvain's local moves
#
# The sequential phase 1 of Louvain (``algorithms.louvain``'s ``method="sequential"``): its
# kernel, the kernel's cache entry and its entry point, kept together here.


def _louvain_moves(indptr, indices, w, k, order, c, tot, wcom, seen, touched, m, gamma,
                   threshold, max_sweeps):
    # Phase 1 of Blondel, Guillaume, Lambiotte & Lefebvre 2008 ("Fast unfolding of
    # communities in large networks"), sequential, as NetworkX's ``_one_level``: the
    # vertices in ``order``, each taken out of its community c[u] and put into the
    # neighbouring community of the largest gain (NetworkX's formula and grouping, so its
    # rounding; strictly positive, the first in row order on a tie; else back into its
    # own), the community totals tot updated at once, so that every vertex sees the moves
    # before it (the gain formula's assumption, which the colour-class batches only
    # approach). wcom / seen / touched: a vertex's weights to the communities of its
    # neighbours, in the order they are met in its row (self-loops skipped: NetworkX's
    # nbrs), so with rows in NetworkX's adjacency order and its vertex order a sweep makes
    # NetworkX's moves exactly. Sweeps end when one moved nobody or its gains summed to at
    # most ``threshold``, or after max_sweeps. Returns the moves made. Also runs
    # interpreted, on Python lists.
    n = len(order)
    moved = 0
    sweeps = 0
    while sweeps < max_sweeps:
        sweeps += 1
        moves = 0
        gains = 0.0
        for i in range(n):
            u = order[i]
            own = c[u]
            ku = k[u]
            nt = 0
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if v == u:
                    continue
                cv = c[v]
                if not seen[cv]:
                    seen[cv] = True
                    wcom[cv] = 0.0
                    touched[nt] = cv
                    nt += 1
                wcom[cv] += w[e]
            w_own = wcom[own] if seen[own] else 0.0
            tot[own] -= ku
            remove = -w_own / m + gamma * (tot[own] * ku) / (2.0 * m * m)
            best = 0.0
            best_c = own
            for t in range(nt):
                cc = touched[t]
                seen[cc] = False
                # (the own community too, as in NetworkX: its gain is 0 up to rounding,
                # which a move must then beat)
                g = remove + wcom[cc] / m - gamma * (tot[cc] * ku) / (2.0 * m * m)
                if g > best:
                    best = g
                    best_c = cc
            tot[best_c] += ku
            if best_c != own:
                c[u] = best_c
                moves += 1
                gains += best
        moved += moves
        if moves == 0 or gains <= threshold:
            break
    return moved


def louvain_kernel():
    """The compiled sequential local moves of Louvain (see :func:`louvain_moves`)."""
    return _memo(("louvain_moves",), lambda: _jit(_louvain_moves))


def louvain_moves(indptr, indices, weights, k, order, labels, m, gamma, threshold,
                  max_sweeps, compiled=None):
    """Sequential local moves of Louvain (phase 1 of Blondel et al. 2008, NetworkX's
    ``_one_level``) on the symmetric weighted graph given by CSR ``indptr``, ``indices``
    (int32 or int64) and ``weights`` (float64; self-loops are skipped as neighbours), with
    weighted degrees ``k`` (float64, self-loops counted twice), ``m`` half their sum: the
    vertices in ``order`` (a permutation of 0..n-1), sweep after sweep, each to the
    neighbouring community of the largest positive modularity gain at ``gamma``
    (:func:`_louvain_moves`). ``labels`` (int64, values below n) is the start, updated in
    place. Returns the number of moves. ``compiled``: as in :func:`core_numbers` (False: the
    same loop interpreted over Python lists, NetworkX's speed). The graph is trusted (the
    caller's comes from ``algorithms.community``'s checks)."""
    n = int(order.size)
    run = ENABLED if compiled is None else compiled
    tot = np.bincount(labels, weights=k, minlength=n).astype(np.float64)
    if run:
        scratch = (np.zeros(n, dtype=np.float64), np.zeros(n, dtype=np.bool_),
                   np.empty(n, dtype=np.int64))
        return int(louvain_kernel()(indptr, indices, weights, k, order, labels, tot,
                                    *scratch, float(m), float(gamma), float(threshold),
                                    int(max_sweeps)))
    c = labels.tolist()
    moved = _louvain_moves(indptr.tolist(), indices.tolist(), weights.tolist(), k.tolist(),
                           order.tolist(), c, tot.tolist(), [0.0] * n, [False] * n, [0] * n,
                           float(m), float(gamma), float(threshold), int(max_sweeps))
    labels[:] = c
    return moved


# ----------------------------------------------------------------------------- the caches

_lock = threading.Lock()
_kernels: dict = {}  # (family, semiring, domain[, parallel]) -> dispatcher, or None
_failed: set = set()  # (kernel, argument types): did not compile


def _kernel(family: str, sr: Semiring, domain, lanes=1, parallel=False, xfirst=False,
            unroll=True, xonly=False):
    """The compiled kernel of ``family`` ("pull", "push", "block", "spgemm") for ``sr`` in
    ``domain``, built on first use; None where ``sr`` has no compiled form there.
    ``lanes``, ``parallel``, ``xfirst``, ``unroll``: the pull's variants (see
    :func:`_make_pull`, PULL_UNROLL_MAX_X_BYTES);
    "blockrows" takes its width as ``lanes``; ``xonly``: the pull whose products are x's
    values (:func:`xonly_ops`, x the operand ``xfirst`` says)."""
    def build():
        if xonly:
            ops = xonly_ops(sr, domain, xfirst)
            return None if ops is None else _make_pull(
                ops.mul, ops.ptype, ops.add, ops.form, ops.first_only, lanes, parallel, False,
                unroll, True)
        ops = ops_of(sr, domain)
        if ops is None:
            return None
        if family == "block":
            return _make_block(ops.mul, ops.ptype, ops.add, ops.form)
        if family == "blockrows":
            return None if ops.form not in (1, 2) else \
                _make_block_rows(ops.mul, ops.ptype, ops.form, lanes, xfirst)
        if family == "spgemm":
            return _make_spgemm(ops.mul, ops.ptype, ops.add, ops.form, ops.first_only)
        if family == "pull":
            return _make_pull(ops.mul, ops.ptype, ops.add, ops.form, ops.first_only, lanes,
                              parallel, xfirst, unroll)
        return _make_push(ops.mul, ops.ptype, ops.add, ops.form, ops.first_only)

    return _memo((family, sr, np.dtype(domain), lanes, parallel, bool(xfirst), bool(unroll),
                  bool(xonly)), build)


def _memo(key, build):
    """``_kernels[key]``, made by ``build()`` (a kernel, or None: no compiled form) on the
    first call, once whatever the threads."""
    k = _kernels.get(key, False)
    if k is False:
        with _lock:
            k = _kernels.get(key, False)
            if k is False:
                k = _kernels[key] = build()
    return k


def _call(kernel, key, *args):
    """Run a compiled kernel: (its result,), or None where it does not compile for these
    argument types (the caller falls back to NumPy, and at once the next time: ``key``
    names the kernel and the argument types that vary)."""
    if key in _failed:
        return None
    try:
        return (kernel(*args),)
    except (_nb.core.errors.TypingError, _nb.core.errors.UnsupportedError,
            _nb.core.errors.LoweringError, NotImplementedError):
        _failed.add(key)
        return None


def _entry(kernel, args):
    """``kernel``'s compiled overload for the types of ``args``, as its ``entry_point``
    (the arguments unboxed by that signature: no type resolution, no dispatch), or
    ``kernel`` itself where Numba has no such overload to give. The caller passes
    arguments of exactly those types from then on (its kept arrays, and x converted to
    the domain in C order, aligned: an unaligned x goes through ``kernel``). Numba's
    dispatch of a pull's 7 arrays cost 0.7 µs a call on this host, on a 4-7 µs kernel
    (urand-10-ef4), 0.8 on the H200 machine's host (session 14,
    ``bench/results/session14/cpu_breakdown_h200host.log``)."""
    try:
        ov = kernel.overloads.get(tuple(_nb.typeof(a) for a in args))
        ep = getattr(ov, "entry_point", None)
    except Exception:  # pragma: no cover - NUMBA_DISABLE_JIT or another Numba
        return kernel
    return ep if callable(ep) else kernel


_levels = None


def levels_kernel():
    """The compiled BFS levels loop (see :func:`bfs_levels`)."""
    global _levels
    if _levels is None:
        _levels = _jit(_bfs_levels)
    return _levels


_cores = None


def cores_kernel():
    """The compiled core decomposition (see :func:`core_numbers`)."""
    global _cores
    if _cores is None:
        _cores = _jit(_cores_bz)
    return _cores



_tarjan_k = {}


def tarjan(indptr, indices, variant="nuutila"):
    """NetworkX's ``strongly_connected_components`` over the CSR ``indptr`` / ``indices``
    (int64; rows in NetworkX's adjacency order), compiled: ``(members, starts)``, component
    c's vertices ``members[starts[c]:starts[c + 1]]`` in the order NetworkX yields the
    components and adds each one's vertices to its set; None where Numba is off. ``variant``
    names NetworkX's search: 'nuutila' (before 3.7, :func:`_tarjan`) or 'tarjan_zwick' (3.7,
    :func:`_tarjan_zwick`: the same components in the same order, one set's order differs).
    A sequential depth-first search, O(n + m): no order of the engine's parallel components
    is NetworkX's."""
    if not ENABLED:
        return None
    if variant not in TARJAN_VARIANTS:
        raise ValueError(f"variant must be one of {sorted(TARJAN_VARIANTS)}, got {variant!r}")
    if variant not in _tarjan_k:
        _tarjan_k[variant] = _jit(TARJAN_VARIANTS[variant])
    n = int(indptr.size) - 1
    members = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    k = _tarjan_k[variant](np.ascontiguousarray(indptr, dtype=np.int64),
                           np.ascontiguousarray(indices, dtype=np.int64), members, starts)
    return members, starts[:k + 1]


#: NetworkX's strong-components searches by the name :func:`tarjan` takes
TARJAN_VARIANTS = {"nuutila": _tarjan, "tarjan_zwick": _tarjan_zwick}


_bfs_queue_k = None


def bfs_queue(indptr, indices, frontier, depth_limit, seen=None):
    """NetworkX's breadth-first search from ``frontier`` (vertex numbers, in the caller's
    order) over the CSR ``indptr`` / ``indices`` (int64; rows in NetworkX's adjacency
    order), compiled (:func:`_bfs_queue`): ``(order, parent, bounds)``, the vertices of
    level d + 1 ``order[bounds[d]:bounds[d + 1]]`` in the order NetworkX's queue discovers
    them, each found from ``parent`` at the same position; levels only while their depth is
    below ``depth_limit``. None where Numba is off. A sequential search, O(n + m): the
    order within a level is the queue's, which no parallel search gives (the NumPy pass it
    replaces, one array pass a level, took 748 ms for a 1000² grid on a 2-core host).
    ``seen``: the vertices found before (a bool array, not changed), to go on with a search
    whose last level is ``frontier``."""
    global _bfs_queue_k
    if not ENABLED:
        return None
    if _bfs_queue_k is None:
        _bfs_queue_k = _jit(_bfs_queue)
    n = int(indptr.size) - 1
    seen = np.zeros(n, dtype=np.bool_) if seen is None else np.array(seen, dtype=np.bool_)
    order = np.empty(n, dtype=np.int64)
    parent = np.empty(n, dtype=np.int64)
    bounds = np.empty(n + 1, dtype=np.int64)
    # (depth < depth_limit for an integer depth is depth < ceil(depth_limit); NaN: none)
    limit = n + 1 if depth_limit >= n + 1 else \
        math.ceil(depth_limit) if depth_limit > 0 else 0
    levels = _bfs_queue_k(np.ascontiguousarray(indptr, dtype=np.int64),
                          np.ascontiguousarray(indices, dtype=np.int64),
                          np.ascontiguousarray(frontier, dtype=np.int64), limit, seen, order,
                          parent, bounds)
    tail = int(bounds[levels])
    return order[:tail], parent[:tail], bounds[:levels + 1]


def _typed_cutoff(cutoff, dtype):
    """``(has_cutoff, cut)`` for the compiled Dijkstra loops over weights of ``dtype``
    (int64 or float64): a cutoff of the weights' type, or None for a NaN or -inf cutoff
    (the caller's pass then). An integer sum exceeds c exactly where it exceeds floor(c)."""
    has_cutoff = cutoff is not None and float(cutoff) != np.inf
    if not has_cutoff:
        return False, dtype.type(0)
    if not float(cutoff) > -np.inf:
        return None
    if dtype.kind == "i":
        return True, np.int64(min(max(math.floor(cutoff), -2**63), 2**63 - 1))
    return True, np.float64(cutoff)


_dijkstra_k = None


def dijkstra_order(indptr, indices, weights, sources, cutoff=None, tree=False, preds=False):
    """NetworkX's Dijkstra (``_dijkstra_multisource``) from ``sources`` (vertex numbers, in
    order) over the CSR ``indptr`` / ``indices`` (rows in NetworkX's adjacency order) with
    the stored entries' ``weights`` (int64 or float64; a multigraph's merged to their
    minimum, as NetworkX's weight function does), compiled (:func:`_dijkstra_heap`):
    ``(pops, finds, dist)``, the vertices in the order its heap pops them (its ``dist``
    dict's keys), in the order it first pushes them (the sources first: its ``pred`` dict's
    keys), and the distances (at the popped vertices). None where Numba is off, for other
    weight types, or where NetworkX would raise (a shorter path to a popped vertex: negative
    weights). Its heap's ties go by push count, an order the engine's parallel searches do
    not give; the NumPy pass it replaces settled one tie group at a time (1.6 s on a 316²
    grid of integer weights, NetworkX 1.8 s; session 23).

    With ``tree`` (or ``preds``) also NetworkX's shortest-path tree, ``(pops, finds, dist,
    parent, events)``: ``parent[u]`` the vertex popped when u's distance last strictly
    improved (its paths' parent, -1 at the sources and the unreached), and with ``preds``
    ``events = (eu, ev, er)``, its predecessor lists' updates in the order it makes them:
    u's list reset to ``[v]`` (``er`` 1, a strict improvement) or ``v`` appended (``er`` 0,
    an equal distance, to a popped vertex too); else ``events`` is None (session 24)."""
    global _dijkstra_k, _heap_push_jit
    w = np.asarray(weights)
    if not ENABLED or w.dtype not in (np.dtype(np.int64), np.dtype(np.float64)):
        return None
    if _dijkstra_k is None:
        _heap_push_jit = _jit(_heap_push)
        _dijkstra_k = _jit(_dijkstra_heap)
    n = int(indptr.size) - 1
    src = np.ascontiguousarray(sources, dtype=np.int64)
    cap = int(w.size) + src.size + 1
    dist = np.zeros(n, dtype=w.dtype)
    pops = np.empty(n, dtype=np.int64)
    finds = np.empty(n, dtype=np.int64)
    cut = _typed_cutoff(cutoff, w.dtype)
    if cut is None:
        return None  # (NaN or -inf: left to the caller's pass)
    has_cutoff, cut = cut
    parent = np.full(n, -1, dtype=np.int64)
    # each popped vertex scans its row once: at most one event an entry
    ecap = int(w.size) if preds else 0
    eu, ev = np.empty(ecap, dtype=np.int64), np.empty(ecap, dtype=np.int64)
    er = np.empty(ecap, dtype=np.int8)
    npops, nfinds, nev, status = _dijkstra_k(
        np.ascontiguousarray(indptr, dtype=np.int64), np.ascontiguousarray(indices, dtype=np.int64),
        np.ascontiguousarray(w), src, cut, has_cutoff, dist, np.zeros(n, dtype=np.bool_),
        np.empty(n, dtype=w.dtype), pops, finds, np.empty(cap, dtype=w.dtype),
        np.empty(cap, dtype=np.int64), np.empty(cap, dtype=np.int64), parent, bool(preds),
        eu, ev, er)
    if status:
        return None
    if not (tree or preds):
        return pops[:npops], finds[:nfinds], dist
    events = (eu[:nev], ev[:nev], er[:nev]) if preds else None
    return pops[:npops], finds[:nfinds], dist, parent, events


_spfa_k = None

#: The most predecessor-list events :func:`spfa_order` records, in (stored entries + nodes)
#: units, before it leaves the search to the caller (NetworkX's queue may relax an edge
#: many times; each relaxation is an event).
SPFA_EVENT_FACTOR = 64


def spfa_order(indptr, indices, weights, sources, heuristic=True):
    """NetworkX's Bellman–Ford (``_inner_bellman_ford``, its SPFA) from ``sources`` over the
    CSR ``indptr`` / ``indices`` (rows in NetworkX's adjacency order) with the stored
    entries' ``weights`` (int64 or float64), compiled (session 24): ``(order, dist, ptr,
    preds)``, the nodes in the order they first get a distance (its ``dist`` and ``pred``
    dicts' keys), the distances, and each one's final predecessor list (``preds[ptr[i]:
    ptr[i + 1]]`` for ``order[i]``, in NetworkX's order). None where Numba is off, for other
    weight types, where NetworkX finds a negative cycle (it raises), or where its queue
    relaxes edges more than :data:`SPFA_EVENT_FACTOR` times (m + n)."""
    global _spfa_k
    w = np.asarray(weights)
    if not ENABLED or w.dtype not in (np.dtype(np.int64), np.dtype(np.float64)):
        return None
    if _spfa_k is None:
        _spfa_k = (_jit(_spfa_loop), _jit(_spfa_lists))
    n = int(indptr.size) - 1
    src = np.ascontiguousarray(sources, dtype=np.int64)
    if np.unique(src).size != src.size:
        return None  # (NetworkX's in_q.remove fails on a repeated source)
    ip = np.ascontiguousarray(indptr, dtype=np.int64)
    ix = np.ascontiguousarray(indices, dtype=np.int64)
    w = np.ascontiguousarray(w)
    cap = int(w.size) + n + 1
    while True:
        dist = np.zeros(n, dtype=w.dtype)
        firsts = np.empty(n, dtype=np.int64)
        head = np.full(n, -1, dtype=np.int64)
        tail = np.full(n, -1, dtype=np.int64)
        nxt = np.empty(cap, dtype=np.int64)
        evv = np.empty(cap, dtype=np.int64)
        nf, nev, status = _spfa_k[0](
            ip, ix, w, src, bool(heuristic), w.dtype.kind == "f", dist,
            np.zeros(n, dtype=np.bool_), firsts, np.zeros(n, dtype=np.bool_),
            np.empty(n + 1, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64),
            np.full(n, -1, dtype=np.int64), head, tail, nxt, evv)
        if status == 1:
            return None
        if status == 0:
            break
        if cap >= SPFA_EVENT_FACTOR * (int(w.size) + n + 1):
            return None
        cap *= 4
    order = firsts[:nf]
    ptr = np.empty(nf + 1, dtype=np.int64)
    out = np.empty(nev, dtype=np.int64)
    k = _spfa_k[1](order, head, nxt, evv, ptr, out)
    return order, dist, ptr, out[:k]



def _dijkstra_groups(indptr, indices, w, sources, dist, keep, cut, has_cutoff, order, pops,
                     finds, parent, gid, start, fill, state):
    # NetworkX's Dijkstra pops replayed from known distances. ``order`` holds the reported
    # vertices sorted by distance: its runs of equal distance are the groups, each a
    # segment of ``pops`` filled in the order of its vertices' first tight pushes (a bucket
    # queue, Dial's), made in pop order and adjacency order: NetworkX's heap pops a group by
    # push count, and with positive weights every tight push into a group comes before the
    # group's first pop. Returns (finds, status): status 1 where that replay is not
    # NetworkX's: a vertex with no tight in-neighbour in an earlier group (0-weight or
    # absorbed edges, distances that are not the minimum), an edge giving a shorter
    # distance, a vertex reached within the cutoff but not reported, a source not at 0.
    # A vertex's flags share one byte (the scan's random reads: one array, not four).
    popped, seen, pushed, kept = 1, 2, 4, 8
    n = state.size
    for v in range(n):
        state[v] = kept if keep[v] else 0
    m = order.size
    groups = 0
    for i in range(m):
        if i == 0 or dist[order[i]] != dist[order[i - 1]]:
            start[groups] = i
            fill[groups] = i
            groups += 1
        gid[order[i]] = groups - 1
    start[groups] = m
    nf = 0
    for i in range(sources.size):
        s = sources[i]
        if not keep[s] or dist[s] != 0 or gid[s] != 0:
            return nf, 1
        pops[fill[0]] = s
        fill[0] += 1
        state[s] |= pushed | seen
        finds[nf] = s
        nf += 1
    for g in range(groups):
        a, b = start[g], start[g + 1]
        if fill[g] != b:  # a vertex of this group never pushed before it
            return nf, 1
        for j in range(a, b):
            state[pops[j]] |= popped
        for j in range(a, b):
            v = pops[j]
            dv = dist[v]
            for e in range(indptr[v], indptr[v + 1]):
                u = indices[e]
                vu = dv + w[e]
                f = state[u]
                if f & popped:
                    if vu < dist[u]:  # NetworkX: "Contradictory paths found"
                        return nf, 1
                    continue
                if has_cutoff and vu > cut:
                    continue
                du = dist[u]
                if not f & kept or vu < du:
                    return nf, 1
                if not f & seen:
                    f |= seen
                    finds[nf] = u
                    nf += 1
                if vu == du and not f & pushed:
                    h = gid[u]
                    if h <= g:
                        return nf, 1
                    f |= pushed
                    parent[u] = v
                    pops[fill[h]] = u
                    fill[h] += 1
                state[u] = f
    return nf, 0


_groups_k = None


def dijkstra_replay(indptr, indices, weights, sources, dist, order, keep, cutoff=None):
    """NetworkX's Dijkstra pops from ``sources`` replayed from the distances ``dist`` (the
    engine's), without its heap: ``(pops, finds, parent)``, as :func:`dijkstra_order`'s
    ``pops`` and ``finds``, and the vertex whose scan first gave each its distance (its path
    tree: NetworkX's ``paths[u] = paths[v] + [u]`` on that scan; -1 at the sources), or None
    where the replay is not NetworkX's (see :func:`_dijkstra_groups`; the heap then runs).

    ``order``: the reported vertices (``keep``) sorted by distance. With positive weights a
    vertex's tight in-neighbours all lie at smaller distances, so NetworkX's heap pops a
    group of equal distance in the order of its first tight pushes, all made before the
    group's first pop: one O(m) pass and a sort a group, where the heap costs O(m log n)
    (1000² grid, integer weights, 2-core host: the heap 509 ms, this pass measured in
    ``bench/results/session24``)."""
    global _groups_k
    w = np.asarray(weights)
    if not ENABLED or w.dtype not in (np.dtype(np.int64), np.dtype(np.float64)):
        return None
    if _groups_k is None:
        _groups_k = _jit(_dijkstra_groups)
    n = int(indptr.size) - 1
    cut = _typed_cutoff(cutoff, w.dtype)
    if cut is None:
        return None  # (NaN or -inf: left to the caller's pass)
    has_cutoff, cut = cut
    d = np.ascontiguousarray(dist)
    if d.dtype not in (np.dtype(np.int64), np.dtype(np.float64)):
        d = d.astype(np.float64 if d.dtype.kind == "f" else np.int64)
    order = np.ascontiguousarray(order, dtype=np.int64)
    pops = np.empty(order.size, dtype=np.int64)
    finds = np.empty(n, dtype=np.int64)
    parent = np.full(n, -1, dtype=np.int64)
    nf, status = _groups_k(
        np.ascontiguousarray(indptr, dtype=np.int64), np.ascontiguousarray(indices, dtype=np.int64),
        np.ascontiguousarray(w), np.ascontiguousarray(sources, dtype=np.int64), d,
        np.ascontiguousarray(keep, dtype=np.bool_), cut, has_cutoff, order, pops, finds, parent,
        np.empty(n, dtype=np.int32 if order.size < 2**31 else np.int64),
        np.empty(order.size + 1, dtype=np.int64), np.empty(order.size + 1, dtype=np.int64),
        np.empty(n, dtype=np.uint8))
    if status:
        return None
    return pops, finds[:nf], parent


def _dijkstra_dist(indptr, indices, w, indptr2, indices2, w2, two, sources, limit, dist, pos,
                   hk, hv):
    # Distances only from ``sources``: a 4-ary heap of (distance, vertex) with decrease-key
    # (``pos[v]``: v's slot, -1 while v is not in it; slot j's children 4j+1..4j+4), as
    # Johnson's d-heaps (1975): on this 2-core host (bench/results/session25, sssp25) a
    # binary heap took 2.8 / 17.0 / 30.5 / 11.7 ms on kron-14 / kron-16 / urand-16 /
    # grid-256x256, the 4-ary 1.8 / 13.9 / 25.1 / 9.6, the 8-ary 1.8 / 13.2 / 24.4 / 10.0,
    # a lazy-deletion binary heap (no decrease-key) 4.5 / 24.4 / 46.4 / 12.4 (SciPy's
    # Fibonacci heap 5.9 / 30.6 / 52.5 / 14.5). ``dist`` holds inf on entry. A
    # vertex's distance is fixed when popped (w >= 0: no later candidate is smaller), so a
    # popped vertex needs no mark: ``d + w[p] < dist[u]`` fails for it. The candidate is
    # SciPy's (``dist[v] + w``, one float64 add), and with w >= 0 any settle order gives
    # the least float64 path sums (rounding is monotone): the same distances, bit for bit.
    # ``limit``: a candidate above it is dropped, as SciPy's ``next_val <= limit`` test drops
    # it (those vertices stay inf; inf: no limit). ``pos`` holds -1 everywhere on entry and
    # on return: a popped vertex's slot is cleared (no later candidate reaches it), and every
    # vertex the search inserts it pops, so the next search needs no O(n) reset. ``two``: a
    # popped vertex's row of the second CSR (``indptr2`` ...: Aᵀ, SciPy's undirected search)
    # is scanned after its row of the first, as SciPy scans both. ``sources``: the searches'
    # start, every one at distance 0 (several: the distance to the nearest, SciPy's
    # ``min_only``; a heap of equal keys is a heap).
    size = 0
    for s in sources:
        if pos[s] < 0:  # (a source given twice starts once)
            dist[s] = 0.0
            hk[size], hv[size], pos[s] = 0.0, s, size
            size += 1
    while size:
        v = hv[0]
        d = hk[0]
        pos[v] = -1
        size -= 1
        if size:  # the last entry sifted down from the root
            lk, lv = hk[size], hv[size]
            j = 0
            while True:
                c = 4 * j + 1
                if c >= size:
                    break
                b = c
                bk = hk[c]
                for q in range(c + 1, min(c + 4, size)):
                    if hk[q] < bk:
                        bk = hk[q]
                        b = q
                if lk <= bk:
                    break
                hk[j], hv[j] = bk, hv[b]
                pos[hv[j]] = j
                j = b
            hk[j], hv[j], pos[lv] = lk, lv, j
        for p in range(indptr[v], indptr[v + 1]):
            u = indices[p]
            nd = d + w[p]
            if nd < dist[u] and nd <= limit:
                size = _dijkstra_relax_jit(u, nd, dist, pos, hk, hv, size)
        if two:
            for p in range(indptr2[v], indptr2[v + 1]):
                u = indices2[p]
                nd = d + w2[p]
                if nd < dist[u] and nd <= limit:
                    size = _dijkstra_relax_jit(u, nd, dist, pos, hk, hv, size)


_dijkstra_relax_jit = None  # compiled on first use; a global of _dijkstra_dist


def _dijkstra_relax(u, nd, dist, pos, hk, hv, size):
    # u's distance lowered to nd: its heap entry (a new one at the end) sifted up; the heap's
    # size after
    dist[u] = nd
    j = pos[u]
    if j < 0:
        j = size
        size += 1
    while j > 0:
        parent = (j - 1) >> 2
        if hk[parent] <= nd:
            break
        hk[j], hv[j] = hk[parent], hv[parent]
        pos[hv[j]] = j
        j = parent
    hk[j], hv[j], pos[u] = nd, u, j
    return size


def dijkstra_distances(indptr, indices, weights, source, scratch=None, limit=np.inf,
                       second=None, min_only=False):
    """Shortest float64 distances from ``source`` over the CSR ``indptr`` / ``indices``
    (unsigned views, :func:`_layout`) with the entries' float64 ``weights`` (all >= 0, no
    NaN: the caller checks), compiled (:func:`_dijkstra_dist`): SciPy's
    ``csgraph.dijkstra`` distances bit for bit (inf where unreached, and beyond ``limit``
    as SciPy's ``limit``), or None where Numba is off. ``source``: one vertex (n distances)
    or a 1-D array of them (a row of n each, the searches one after another on the same heap
    arrays). ``scratch``: the heap's arrays ``(pos, keys, vertices)`` to reuse (n each:
    int32 / int64, float64, uint32 / uint64; contents undefined), else new ones.
    ``second``: ``(indptr, indices, weights)`` of a second CSR of the same kinds whose rows
    are relaxed too (Aᵀ: SciPy's ``directed=False``). ``min_only``: one search from every
    source at once, the n distances to the nearest (SciPy's ``min_only``)."""
    if not ENABLED:
        return None
    n = int(indptr.size) - 1
    sources = np.atleast_1d(np.asarray(source, dtype=np.int64)).ravel()
    dist = np.full((1 if min_only else sources.size, n), np.inf)
    if scratch is None:
        scratch = (np.empty(n, dtype=np.int32 if n < 2**31 else np.int64), np.empty(n),
                   np.empty(n, dtype=np.uint32 if n < 2**32 else np.uint64))
    pos, keys, verts = scratch
    kernel = dijkstra_kernel()
    pos.fill(-1)  # (each search leaves it so: see _dijkstra_dist)
    runs = [sources] if min_only else [sources[k:k + 1] for k in range(sources.size)]
    for k, starts in enumerate(runs):
        kernel(indptr, indices, weights, *(second or (indptr, indices, weights)),
               second is not None, starts, float(limit), dist[k], pos, keys, verts)
    return dist if np.ndim(source) and not min_only else dist[0]


def dijkstra_kernel():
    """The compiled :func:`_dijkstra_dist`, made on first use."""
    def build():
        global _dijkstra_relax_jit
        if _dijkstra_relax_jit is None:
            _dijkstra_relax_jit = _jit(_dijkstra_relax)
        return _jit(_dijkstra_dist)
    return _memo(("dijkstra_dist",), build)


_truss = None


def truss_kernels():
    """The compiled edge supports and truss peeling (see :func:`truss`), as a pair."""
    global _truss
    if _truss is None:
        _truss = (_jit(_truss_supports), _jit(_truss_peel_edges))
    return _truss


_lpa = None


def lpa_kernels():
    """The compiled loop-free degrees, greedy colouring and label propagation sweeps (see
    :func:`loopless_degrees`, :func:`greedy_colouring`, :func:`label_propagation`)."""
    global _lpa
    if _lpa is None:
        _lpa = (_jit(_loopless_degrees), _jit(_greedy_colours), _jit(_lpa_sweeps))
    return _lpa


# ------------------------------------------------------------------------ the entry points

#: The kernels' view of a matrix, kept in its ``_memo`` under this key (dropped when its
#: content changes): see :func:`_layout`.
LAYOUT_KEY = "cpu.compiled"


def _layout(M, threads):
    """M's arrays as the kernels read them, kept per matrix: ``indptr`` as uint64, the
    column indices as their unsigned view (one compiled variant a width, no wrap-around
    test a load), and for ``threads`` the non-empty rows (uint64) split into ``threads`` ×
    :data:`CHUNKS_PER_THREAD` ranges of about equal entry counts (``threads=0``: none)."""
    per = M._memo.get(LAYOUT_KEY)
    if per is None:
        per = M._memo[LAYOUT_KEY] = {}
        per["indptr"] = M.indptr.astype(np.int64, copy=False).view(np.uint64)
        per["indices"] = M.indices.view(np.uint32 if M.indices.dtype.itemsize == 4
                                        else np.uint64)
    if threads and threads not in per:
        indptr = per["indptr"].view(np.int64)
        rows = np.flatnonzero(np.diff(indptr))
        chunks = max(1, min(rows.size, threads * CHUNKS_PER_THREAD))
        # range c begins at the first row whose entries start at or after c/chunks of them
        marks = (np.arange(1, chunks, dtype=np.int64) * int(M.nvals)) // chunks
        bounds = np.unique(np.concatenate(
            [[0], np.searchsorted(indptr[rows + 1], marks, side="right"), [rows.size]]))
        per[threads] = (rows.astype(np.uint64), bounds.astype(np.int64))
    return per


def block_route(plan, laid, sr: Semiring, dtype, xfirst: bool, order_free: bool):
    """The pull by a padded row plan of one block holding every non-empty row in order
    (``plan.whole``, no longer rows: a grid's), compiled, as a function ``run(M, x_values)``
    of the vector alone: (the plan's rows as int64, their values); where the kernel does not
    compile for these types, :func:`pull`'s (``order_free`` as there). Everything read of the matrix, the semiring and the
    types is resolved here once (the kernel, the column table as uint32, the padded values
    contiguous): a call is the kernel and two NumPy calls (grid-64², 16 128 entries: the
    kernel 8-9 µs, the Python around it 4 µs before). None where ``plan`` is not such a
    block or ``sr`` has no compiled form in ``dtype``. ``laid``: the block's padded values
    (``plan.values``)."""
    if not ENABLED or len(plan.groups) != 1 or not plan.whole or plan.long_pos.size:
        return None
    width = plan.groups[0][2].shape[0]
    ops = ops_of(sr, dtype)
    if ops is None:
        return None
    by_rows = width <= BLOCK_ROWS_WIDTH and ops.form in (1, 2)
    xf = bool(xfirst) and not (by_rows and ops.mul in _COMMUTATIVE)
    kernel = _kernel("blockrows", sr, dtype, width, False, xf) if by_rows else \
        _kernel("block", sr, dtype)
    if kernel is None:
        return None
    k = getattr(plan, "_k_unsigned", None)
    if k is None:  # the column table as uint32 where it fits (gathers of 4-byte indices)
        k0 = plan.groups[0][2]
        k = k0.astype(np.uint32) if k0.size and int(k0.max()) < 2**32 else k0.view(np.uint64)
        plan._k_unsigned = k = np.ascontiguousarray(k)
    nrows = k.shape[1]
    if by_rows:  # the tables row-major (R × width), the column table kept on the plan
        kr = getattr(plan, "_k_rows", None)
        if kr is None:
            plan._k_rows = kr = np.ascontiguousarray(k.T)
        args = (np.ascontiguousarray(laid[0].T), kr)
    else:
        args = (np.ascontiguousarray(laid[0]), k)
    dtype = np.dtype(dtype)
    rtype = sr.result_type(dtype)
    rows = plan.out_idx.astype(np.int64)  # (the results' indices: a read-only copy, as
    rows.flags.writeable = False  # the pull's, not the plan's own array)
    key = (kernel, k.dtype)
    ran = []  # (the kernel ran once: its overload's entry point from then on, see _entry)

    a, kt = args

    def run(M, x_values):  # (M an argument: the route, kept on M, holds no reference to it)
        x = np.ascontiguousarray(x_values, dtype=dtype)
        out = np.empty(nrows, dtype=rtype)
        if ran:
            call = ran[0] if x.flags.aligned else kernel
            if by_rows:
                call(a, kt, x, out)
            else:
                call(a, kt, x, xf, out)
            return rows, out
        kargs = (a, kt, x, out) if by_rows else (a, kt, x, xf, out)
        if _call(kernel, key, *kargs) is None:
            return pull(M, x_values, sr, dtype, xfirst, order_free)
        ran.append(_entry(kernel, kargs) if x.flags.aligned else kernel)
        return rows, out

    return run


def _values(M, dtype):
    """M's values in ``dtype``, one a stored entry: an iso matrix's one value spread once
    (kept with the layout) rather than a stride-0 view, which would compile every kernel a
    second time."""
    avals, astride = M._values_for(dtype)
    if astride:
        return avals
    lay = _layout(M, 0)
    key = ("iso", np.dtype(dtype))
    v = lay.get(key)
    if v is None:
        v = lay[key] = np.full(M.nvals, avals[0], dtype=avals.dtype)
    return v


def _threads() -> int:
    """Threads for a large pull: Numba's count while the host's 1-minute load average (this
    process's own work included) is at most its core count times PARALLEL_MAX_LOAD, else 1.
    A parallel loop waits at its end for every thread, and on a host whose cores are busy
    with other processes a thread waits for a time slice: on this 2-core host at load 4 the
    parallel min-plus SpMV took 4-12 ms a call (medians) against 0.02-2.4 ms serial
    (OpenMP's spinning workers; passive waiting and Numba's workqueue layer were slow
    too). Read at most every LOAD_CHECK_S seconds."""
    now = time.monotonic()
    if now < _load[2]:  # backing off after a slow parallel call
        return 1
    if _load[3] != _pid[0]:  # a forked child of a process whose OpenMP threads ran: GNU
        return 1  # OpenMP's threads do not survive a fork (Numba aborts such a launch)
    if now - _load[0] > LOAD_CHECK_S:
        threads = _numba().get_num_threads()
        try:
            busy = os.getloadavg()[0]
        except OSError:  # pragma: no cover - no load average on this platform
            busy = 0.0
        idle = busy <= (os.cpu_count() or 1) * PARALLEL_MAX_LOAD
        _load[0], _load[1] = now, threads if idle else 1
    return _load[1]


_load = [-1e9, 1, -1e9, os.getpid()]  # last check, threads then, threads off until, pid
#: This process's id, renewed in a forked child by the hook below: ``os.getpid()`` is a
#: system call, 0.3-0.5 µs a pull on this VM (urand-13-ef4's whole call is 33 µs)
_pid = [os.getpid()]
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _pid.__setitem__(0, os.getpid()))


def pull(M, x_values, sr: Semiring, dtype, xfirst: bool, order_free: bool):
    """The unmasked pull with every x present, compiled: sparse (indices, values) over the
    non-empty rows, or None where ``sr`` has no compiled form in ``dtype``.
    ``order_free``: the monoid's fold may run in any order (four accumulators a row)."""
    if not ENABLED or M.nvals == 0:
        return None
    return pull_route(M, sr, dtype, xfirst, order_free)(M, x_values)


#: Multiplies whose two operand orders give the same value in one type (IEEE add and
#: multiply commute exactly; a NaN's payload aside, which no comparison sees): vxm's pull
#: (x the first operand) runs mxv's kernel, one compile for both.
_COMMUTATIVE = (np.add, np.multiply, np.logical_and, np.logical_or, np.logical_xor,
                np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.equal, np.not_equal)
#: The pull's four-lane fold (``lanes=4`` of :func:`_make_pull`) is compiled in only for
#: matrices with a row of at least this many entries, by fold form (0: a ufunc fold, which
#: takes the lanes from rows of 8; 1, 2: fmin / fmax, from rows of 128 past the first
#: product): the row-length test alone cost the short rows of grid-64² 9.4 → 11.0-12.2 µs.
LANES_MIN_ROW = {0: 8, 1: 129, 2: 129}


def _no_route(M, x_values):
    return None


def pull_route(M, sr: Semiring, dtype, xfirst: bool, order_free: bool):
    """:func:`pull` of M for one (semiring, type, operand order) as a function ``run(M,
    x_values)`` of x alone (M is passed, not held: the route is kept in M's layout), or a
    function answering None where ``sr`` has no compiled form in ``dtype``. What it reads
    of the semiring (the kernel, the result type) and of M (the layout, the values in
    ``dtype``, the rows as the result's indices) is resolved once: a call converts x,
    allocates the output, picks the thread count where M is large and runs the kernel."""
    lay = _layout(M, 0)
    dtype = np.dtype(dtype)
    key = ("pull", sr, dtype, bool(xfirst), bool(order_free))
    run = lay.get(key)
    if run is None:
        run = lay[key] = _bind_pull(M, lay, sr, dtype, bool(xfirst), bool(order_free))
    return run


def _bind_pull(M, lay, sr: Semiring, dtype, xfirst: bool, order_free: bool):
    ops = ops_of(sr, dtype)
    xonly = ops is None
    if xonly:
        ops = xonly_ops(sr, dtype, xfirst)
    nvals = M.nvals
    if ops is None or not nvals:
        return _no_route
    rtype = sr.result_type(dtype)
    # (xonly: one kernel for both orders, keyed by the order in which x is the product)
    xf = xfirst if xonly else xfirst and ops.mul not in _COMMUTATIVE
    longest = int(np.diff(lay["indptr"].view(np.int64)).max())
    lanes = 4 if order_free and not ops.first_only and longest >= LANES_MIN_ROW[ops.form] \
        else 1
    unroll = M.ncols * dtype.itemsize <= PULL_UNROLL_MAX_X_BYTES
    indptr, indices = lay["indptr"], lay["indices"]
    if xonly:  # (A's values are not read: an empty array of the type)
        vals = np.empty(0, dtype=dtype)
    else:
        vals = lay.get(dtype)
        if vals is None:
            vals = lay[dtype] = _values(M, dtype)
    rows, bounds = _layout(M, 1)[1]
    # the result's indices: one read-only int64 copy shared by the results (a caller
    # writing into them gets NumPy's error, not a corrupted row list)
    out_idx = rows.astype(np.int64)
    out_idx.flags.writeable = False
    nrows = rows.size
    kernels = [False, False]  # serial, parallel: False until looked up, None: no form
    # whether the threaded variant may run on a later call: not where a serial first call
    # found it missing from Numba's cache (a compile there, 1.9 s, would stall that call)
    threaded_ok = [True]
    ran = [False, False]  # each ran once for these types: called without _call from then
    entry = [None]  # the serial kernel's overload for these types (see _entry), once ran

    def kernel_of(par):
        k = kernels[par]
        if k is False:
            k = kernels[par] = _kernel("pull", sr, dtype, lanes, par, xf, unroll, xonly)
        return k

    def run(M, x_values):
        x = np.ascontiguousarray(x_values, dtype=dtype)
        out = np.empty(nrows, dtype=rtype)
        threads = _threads() if nvals >= PARALLEL_MIN_ENTRIES else 1
        if threads > 1 and not threaded_ok[0]:
            threads = 1
        if threads == 1:
            if ran[0]:
                (entry[0] if x.flags.aligned else kernels[0])(
                    indptr, indices, vals, x, rows, bounds, out)
                return out_idx, out
            k = kernel_of(False)
            args = (indptr, indices, vals, x, rows, bounds, out)
            if k is None or _call(k, (k, indices.dtype), *args) is None:
                return None
            entry[0] = _entry(k, args) if x.flags.aligned else k
            ran[0] = True
            if nvals >= PARALLEL_MIN_ENTRIES and not ran[1]:
                threaded_ok[0] = _load_if_cached(kernel_of(True), args)
            return out_idx, out
        k = kernel_of(True)
        if k is None:
            return None
        if not ran[1]:  # (the back-off's variant: compiled now where the cache lacks it)
            _load_if_cached(kernel_of(False), (indptr, indices, vals, x, rows, bounds, out),
                            compile=True)
        prows, pbounds = _layout(M, threads)[threads]
        t0 = time.perf_counter()
        if _call(k, (k, indices.dtype), indptr, indices, vals, x, prows, pbounds, out) is None:
            return None
        took = time.perf_counter() - t0
        if ran[1] and took > PARALLEL_TRIP * (nvals * SERIAL_NS_PER_ENTRY * 1e-9
                                              + PARALLEL_TRIP_US * 1e-6):
            _load[2] = time.monotonic() + PARALLEL_BACKOFF_S
        ran[1] = True  # (a first call compiles or loads the kernel: not timed)
        return out_idx, out

    return run


def _threads_possible() -> bool:
    """Whether :func:`_threads` may ever answer more than 1 in this process (Numba's thread
    count, read without starting its threads)."""
    return _numba().config.NUMBA_NUM_THREADS > 1


def _load_if_cached(kernel, args, compile=False) -> bool:
    """Load ``kernel``'s overload for the types of ``args`` now, without running it, where
    Numba's disk cache holds it and :func:`_threads` may pick it later: the serial and the
    threaded variant of a route are both loaded on the route's first call, so that the
    thread count changing with the host's load (or a slow threaded call's back-off) loads
    none on a later call (11-78 ms on a warm Numba cache: session 23,
    ``bench/probes/felt23_calls.py``). A variant not in the cache is not compiled here (1.6-1.9
    s for a variant the host's load may never pick): a route whose first call ran serially
    then stays serial (the caller's rule), and ``python -m semiring.warmup --cpu`` puts both
    variants there. ``compile``: compile it where the cache lacks it (the serial variant
    beside a threaded first call: the back-off after a slow threaded call needs it, and on
    a busy host that came on the 3rd call, a 0.8-1.8 s compile there). Whether the overload
    is loaded now."""
    if kernel is None or not _threads_possible():
        return False
    try:
        sig = tuple(_nb.typeof(a) for a in args)
        if sig not in kernel.overloads and (compile or _in_disk_cache(kernel, sig)):
            kernel.compile(sig)
        return sig in kernel.overloads
    except Exception:  # noqa: BLE001  (the call that needs it meets the error and falls back)
        return False


def _in_disk_cache(kernel, sig) -> bool:
    """Whether Numba's disk cache holds ``kernel``'s overload for ``sig`` (its index read,
    as Numba's own load reads it; False where there is no disk cache or the read fails)."""
    try:
        cache = kernel._cache
        key = cache._index_key(sig, kernel.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # noqa: BLE001  (a Numba without these internals: not known, not loaded)
        return False


_scratch_local = threading.local()


def _scratch(ncols: int, ptype):
    """This thread's push scratch: a value a target (contents undefined), a mark a target
    (all 0 between calls), the hit list; its slices to ``ncols`` kept by (ncols, type), up
    to SCRATCH_VIEWS of them (slicing afresh cost a small push 1 µs)."""
    if ncols > SCRATCH_MAX:
        return (np.empty(ncols, dtype=ptype), np.zeros(ncols, dtype=np.uint8),
                np.empty(ncols, dtype=np.int64))
    local = _scratch_local.__dict__
    views = local.get("views")
    if views is not None:
        v = views.get((ncols, ptype))
        if v is not None:
            return v
    bufs = local.setdefault("bufs", {})
    views = local.setdefault("views", {})
    mark = bufs.get("mark")
    if mark is None or mark.size < ncols:
        mark = bufs["mark"] = np.zeros(max(ncols, 64), dtype=np.uint8)
        bufs["hits"] = np.empty(max(ncols, 64), dtype=np.int64)
        views.clear()  # (slices of the buffers replaced)
    acc = bufs.get(np.dtype(ptype))
    if acc is None or acc.size < ncols:
        acc = bufs[np.dtype(ptype)] = np.empty(max(ncols, 64), dtype=ptype)
        views.clear()
    if len(views) >= SCRATCH_VIEWS:
        views.clear()
    v = views[(ncols, ptype)] = (acc[:ncols], mark[:ncols], bufs["hits"][:ncols])
    return v


SCRATCH_VIEWS = 64
_NO_MASK = np.zeros(0, dtype=np.bool_)


def push(M, x_indices, x_values, allowed, sr: Semiring, dtype, xfirst: bool):
    """The push from a sparse x (optionally onto the ``allowed`` targets), compiled: sorted
    (indices, values, True), or None where ``sr`` has no compiled form in ``dtype``."""
    if not ENABLED:
        return None
    key = (sr, dtype)
    run = _push_routes.get(key)
    if run is None:
        run = _push_routes[key] = _push_route(sr, np.dtype(dtype))
    return run(M, x_indices, x_values, allowed, xfirst)


_push_routes: dict = {}  # (semiring, type) -> _push_route's function


def _push_route(sr: Semiring, dtype: np.dtype):
    """:func:`push` for one (semiring, type) as a function of the rest, the kernel and the
    result type resolved once (as :func:`pull_route`)."""
    kernel = _kernel("push", sr, dtype)
    if kernel is None:
        return lambda *args: None
    rtype = sr.result_type(dtype)

    def run(M, x_indices, x_values, allowed, xfirst):
        ks = np.ascontiguousarray(x_indices, dtype=np.int64)
        xv = np.ascontiguousarray(x_values, dtype=dtype)
        acc, mark, hits = _scratch(M.ncols, rtype)
        mask = _NO_MASK if allowed is None else allowed
        lay = _layout(M, 0)
        vals = lay.get(dtype)
        if vals is None:
            vals = lay[dtype] = _values(M, dtype)
        indices = lay["indices"]
        res = _call(kernel, (kernel, indices.dtype, mask.dtype), lay["indptr"], indices, vals,
                    ks, xv, mask, allowed is not None, bool(xfirst), acc, mark, hits)
        if res is None:
            return None
        return res[0][0], res[0][1], True

    return run


def bfs_levels(order, pred, n, out=None):
    """BFS levels from SciPy's visit order and BFS tree (``pred[v]`` the vertex that found
    v): :func:`semiring.backend.cpu.traversal._depths` compiled; None where Numba is off."""
    if not ENABLED:
        return None
    level = np.empty(n, dtype=np.int64) if out is None else out
    if order.size < n:
        level.fill(-1)
    if order.size:
        levels_kernel()(order, pred, level)
    return level


#: The sources a thread of :func:`msbfs` takes at the least: below twice this many the
#: searches run on one thread (a parallel loop's start and end cost more than a small
#: graph's search).
MSBFS_SOURCES_PER_THREAD = 2
#: The serial searches' cost a step (a vertex or a stored entry of a whole search), the
#: estimate behind :func:`msbfs`'s trip: 2.4 ns on urand-10-ef4 (32 sources, 0.7 ms) on this
#: 2-core host, up to 6 under load; the estimate over-counts searches that stop early, so
#: that a trip errs towards keeping the threads.
MSBFS_NS_PER_STEP = 4.0


def msbfs(M, sources, level, parent=None) -> bool:
    """Breadth-first searches from each of ``sources`` (int64) over M's CSR, filling row j
    of ``level`` (int64, (len(sources), n): -1 where unreached) and of ``parent`` (same
    shape, or None: ``parent[j, source] = source``, -1 where unreached) as SciPy's
    ``breadth_first_order`` from ``sources[j]`` finds them (:func:`_make_msbfs`; M's
    unsigned views kept by :func:`_layout`). False where Numba is off (nothing written)."""
    if not ENABLED:
        return False
    laid = _layout(M, 0)
    many = sources.size >= 2 * MSBFS_SOURCES_PER_THREAD
    threads = _threads() if many else 1
    parents = parent is not None
    args = (laid["indptr"], laid["indices"], sources, level,
            parent if parents else np.empty((1, 1), dtype=np.int64), parents)
    if many:  # (both variants on M's first such search, as the pull: see _load_if_cached)
        threaded_ok = laid.get("msbfs threaded")
        if threaded_ok is None:
            other = threads <= 1
            loaded = _load_if_cached(_memo(("msbfs", other), lambda: _make_msbfs(other)), args,
                                     compile=not other)
            laid["msbfs threaded"] = threaded_ok = loaded or not other
        if not threaded_ok:
            threads = 1
    k = _memo(("msbfs", threads > 1), lambda: _make_msbfs(threads > 1))
    if threads <= 1:
        k(*args)
        return True
    # the pull's trip (PARALLEL_TRIP): a threaded call slower than its serial estimate
    # waited for cores held by other processes, and turns the threads off for
    # PARALLEL_BACKOFF_S (the load average lags a burst: on this 2-core host at load 3.5,
    # 32 searches of urand-10-ef4 took 16 ms threaded against 0.7 ms serial). A call that
    # compiled or loaded its overload (its signatures grew) is not timed.
    compiled_before = len(k.signatures)
    t0 = time.perf_counter()
    k(*args)
    took = time.perf_counter() - t0
    steps = sources.size * (M.nrows + M.nvals)  # a whole search: every vertex and entry
    if len(k.signatures) == compiled_before and took > PARALLEL_TRIP * (
            steps * MSBFS_NS_PER_STEP * 1e-9 + PARALLEL_TRIP_US * 1e-6):
        _load[2] = time.monotonic() + PARALLEL_BACKOFF_S
    return True


def warm_searches() -> int:
    """Compile (or load from Numba's cache) the structure-only searches a first call would
    otherwise compile: :func:`msbfs` serial and over threads, for int32 and int64 indices,
    :func:`tarjan` (both variants), :func:`bfs_queue`, :func:`dijkstra_order`,
    :func:`dijkstra_replay` and :func:`spfa_order` (integer and float weights),
    :func:`dijkstra_distances` (uint32 and uint64 indices: :func:`_layout`'s views) and
    :func:`bfs_levels`; run on a 2-vertex cycle. The count of kernel signatures warmed (0
    without Numba). ``python -m semiring.warmup --cpu`` calls it."""
    if not ENABLED:
        return 0
    count = 0
    for itype in (np.int32, np.int64):
        indptr = np.array([0, 1, 2], dtype=itype)
        indices = np.array([1, 0], dtype=itype)
        src = np.array([0, 1], dtype=np.int64)
        for par in (False, True):
            k = _memo(("msbfs", par), lambda par=par: _make_msbfs(par))
            level = np.empty((2, 2), dtype=np.int64)
            k(_unsigned(indptr.astype(np.int64)), _unsigned(indices), src, level,
              level.copy(), True)
            count += 1
    for variant in TARJAN_VARIANTS:
        tarjan(np.array([0, 1, 2]), np.array([1, 0]), variant)
    bfs_queue(np.array([0, 1, 2]), np.array([1, 0]), np.array([0]), 2)
    for wtype in (np.int64, np.float64):
        dijkstra_order(np.array([0, 1, 2]), np.array([1, 0]), np.ones(2, dtype=wtype), [0])
        dijkstra_replay(np.array([0, 1, 2]), np.array([1, 0]), np.ones(2, dtype=wtype), [0],
                        np.array([0, 1], dtype=wtype), np.array([0, 1]), np.ones(2, bool))
        spfa_order(np.array([0, 1, 2]), np.array([1, 0]), np.ones(2, dtype=wtype), [0])
    for itype in (np.uint32, np.uint64):
        dijkstra_distances(np.array([0, 1, 2], dtype=np.uint64), np.array([1, 0], dtype=itype),
                           np.ones(2), 0)
    bfs_levels(np.array([0, 1], dtype=np.int64), np.array([-1, 0], dtype=np.int64), 2)
    return count + 12


def core_numbers(indptr, indices, compiled=None):
    """The core number of every vertex of the symmetric pattern given by CSR ``indptr`` and
    ``indices`` (int32 or int64; self-loops ignored, duplicates none), as int64: Batagelj &
    Zaversnik's O(n + m) bucket algorithm, one sequential pass (:func:`_cores_bz`).
    ``compiled``: run the Numba kernel (default: where Numba is on, :data:`ENABLED`); False
    runs the same loop interpreted over Python lists, O(n + m) Python steps (measured in
    ``bench/results/session18/core13.md``). The pattern is trusted: an asymmetric one gives
    numbers that are no core numbers, and an index out of range reads out of bounds (the
    caller's pattern comes from ``algorithms.cores.undirected_pattern``)."""
    n = int(indptr.size) - 1
    if ENABLED if compiled is None else compiled:
        core = np.empty(n, dtype=np.int64)
        scratch = np.empty((3, n + 1), dtype=np.int64)  # pos, vert, bins
        cores_kernel()(indptr, indices, core, scratch[0], scratch[1], scratch[2])
        return core
    core, pos, vert, bins = [0] * n, [0] * n, [0] * n, [0] * (n + 1)
    _cores_bz(indptr.tolist(), indices.tolist(), core, pos, vert, bins)
    return np.array(core, dtype=np.int64)



def _truss_arrays(indptr, indices, run):
    """:func:`_truss_supports`'s arguments: the pattern, then mirror, sup, cursor, optr,
    oidx, opos and mark; NumPy arrays for the kernel, Python lists where ``run`` is False."""
    n = int(indptr.size) - 1
    m = int(indices.size)
    sizes = (m, m, n, n + 1, m, m, n)
    if run:
        return (np.asarray(indptr, dtype=np.int64), np.asarray(indices),
                *(np.empty(z, dtype=np.int64) for z in sizes))
    return (indptr.tolist(), indices.tolist(), *([0] * z for z in sizes))


def edge_supports(indptr, indices, compiled=None):
    """The support (triangles through it) of every entry of the symmetric pattern given by
    CSR ``indptr`` and ``indices`` (int32 or int64, rows sorted; a self-loop's support is 0
    and it is in no triangle), as int64 in entry order: the forward triangle listing,
    O(m √m) (:func:`_truss_supports`). ``compiled``: as in :func:`core_numbers` (False: the
    same loop interpreted over Python lists). The pattern is trusted, as in
    :func:`core_numbers`."""
    run = ENABLED if compiled is None else compiled
    a = _truss_arrays(indptr, indices, run)
    (truss_kernels()[0] if run else _truss_supports)(*a)
    return np.asarray(a[3], dtype=np.int64)


def truss(indptr, indices, k, compiled=None):
    """The k-truss of the symmetric pattern given by CSR ``indptr`` and ``indices`` (as in
    :func:`edge_supports`): (keep, sup), ``keep[p]`` whether entry p is an edge of the truss
    (self-loops never), ``sup[p]`` its support in the truss where it is (int64). The supports
    by :func:`_truss_supports`, then the peeling of Wang & Cheng 2012 for this one k
    (:func:`_truss_peel_edges`): each triangle is visited once when it dies, so after the
    supports the peeling costs O(Σ over the dropped edges of the shorter row's length ×
    log of the longer's). ``k`` ≤ 2 keeps every edge; ``k`` must fit int64."""
    run = ENABLED if compiled is None else compiled
    a = _truss_arrays(indptr, indices, run)
    m = int(indices.size)
    kern = truss_kernels() if run else (_truss_supports, _truss_peel_edges)
    kern[0](*a)
    ptr, idx, mirror, sup = a[:4]
    if run:
        more = (np.empty(m, dtype=np.bool_), np.empty(m, dtype=np.int64),
                np.empty(m, dtype=np.int64), np.empty(m, dtype=np.bool_))
    else:
        more = ([False] * m, [0] * m, [0] * m, [False] * m)
    kern[1](ptr, idx, mirror, sup, max(int(k) - 2, 0), *more)
    return np.asarray(more[3], dtype=np.bool_), np.asarray(sup, dtype=np.int64)


def loopless_degrees(indptr, indices, compiled=None):
    """Each vertex's degree without its self-loop (int64) in the pattern given by CSR
    ``indptr`` and ``indices`` (int32 or int64, no duplicates): one pass
    (:func:`_loopless_degrees`). ``compiled``: as in :func:`core_numbers`."""
    n = int(indptr.size) - 1
    if ENABLED if compiled is None else compiled:
        deg = np.empty(n, dtype=np.int64)
        lpa_kernels()[0](indptr, indices, deg)
        return deg
    deg = [0] * n
    _loopless_degrees(indptr.tolist(), indices.tolist(), deg)
    return np.array(deg, dtype=np.int64)


def greedy_colouring(indptr, indices, key, rank, compiled=None):
    """The greedy colouring of the symmetric pattern given by CSR ``indptr`` and ``indices``
    (int32 or int64; self-loops ignored) in decreasing (``key``, ``rank``) order, ``key``
    small nonnegative integers (int64, one per vertex; the sort is a counting sort over
    0..max), ``rank`` a permutation of 0..n-1 (int64): each vertex the smallest colour
    (int64, from 0) none of its neighbours earlier in the order has, one O(n + m) pass
    (:func:`_greedy_colours`), which is the Jones-Plassmann colouring of the priorities
    (key, rank). ``compiled``: as in :func:`core_numbers`. The pattern is trusted, as in
    :func:`core_numbers`."""
    n = int(indptr.size) - 1
    nbins = int(key.max()) + 1 if n else 0
    if ENABLED if compiled is None else compiled:
        colour = np.empty(n, dtype=np.int64)
        scratch = np.empty((2, n + 1), dtype=np.int64)  # mark, order
        lpa_kernels()[1](indptr, indices, np.asarray(key, dtype=np.int64),
                         np.asarray(rank, dtype=np.int64), colour, scratch[0], scratch[1],
                         np.empty(nbins, dtype=np.int64))
        return colour
    colour, mark, order, bins = [0] * n, [0] * (n + 1), [0] * n, [0] * nbins
    _greedy_colours(indptr.tolist(), indices.tolist(), key.tolist(), rank.tolist(), colour,
                    mark, order, bins)
    return np.array(colour, dtype=np.int64)


def label_propagation(indptr, indices, colour, max_iter=None, compiled=None):
    """Semi-synchronous label propagation (Cordasco & Gargano 2010) over the symmetric
    pattern given by CSR ``indptr`` and ``indices`` (int32 or int64, no duplicates; a
    self-loop makes its vertex its own neighbour), the colour classes of ``colour`` (one
    integer per vertex, no two neighbours alike) in increasing colour order, sweep after
    sweep until one changes nothing, at most ``max_iter`` sweeps (None: no limit):
    :func:`_lpa_sweeps`. Returns (labels, sweeps): the labels (int64) numbered 0..k-1 in
    order of each community's smallest vertex, those of ``algorithms.label_propagation``'s
    array path. ``compiled``: as in :func:`core_numbers`. The pattern and the colouring
    are trusted (the caller checks the colouring)."""
    n = int(indptr.size) - 1
    colour = np.asarray(colour, dtype=np.int64)
    # the classes in colour order, each in vertex order (a stable sort of the colours)
    order = np.argsort(colour, kind="stable")
    starts = np.concatenate([np.zeros(1, dtype=np.int64),
                             np.flatnonzero(np.diff(colour[order])) + 1,
                             np.full(1, n, dtype=np.int64)]) if n else np.zeros(1, np.int64)
    # (a limit past int64 is no limit: the sweeps end long before)
    limit = -1 if max_iter is None or max_iter > np.iinfo(np.int64).max else int(max_iter)
    if ENABLED if compiled is None else compiled:
        label = np.arange(n, dtype=np.int64)
        scratch = np.empty((2, n), dtype=np.int64)  # count, seen
        scratch[0] = 0
        sweeps = lpa_kernels()[2](indptr, indices, order, starts, label,
                                  np.ones(n, dtype=np.bool_), scratch[0], scratch[1], limit)
        return label, int(sweeps)
    label = list(range(n))
    sweeps = _lpa_sweeps(indptr.tolist(), indices.tolist(), order.tolist(), starts.tolist(),
                         label, [True] * n, [0] * n, [0] * n, limit)
    return np.array(label, dtype=np.int64), sweeps


def _warm_xonly(sr: Semiring, dtype, order_free: bool) -> int:
    """:func:`warm` for a semiring whose only compiled form is the x-only pull
    (:func:`xonly_ops`: plus_first, min_second, ...): its pull kernels, each operand order
    that has one; 0 where none has."""
    count = 0
    indptr = np.array([0, 2, 3, 3], dtype=np.uint64)
    x = np.ones(3, dtype=dtype)
    rows = np.array([0, 1], dtype=np.uint64)
    bounds = np.array([0, 1, 2], dtype=np.int64)
    for xf in (False, True):
        ops = xonly_ops(sr, dtype, xf)
        if ops is None:
            continue
        for itype in (np.uint32, np.uint64):
            indices = np.array([0, 2, 1], dtype=itype)
            for ln in ((1, 4) if order_free and not ops.first_only else (1,)):
                for parallel in (False, True):
                    for unroll in (True, False):
                        _kernel("pull", sr, dtype, ln, parallel, xf, unroll, True)(
                            indptr, indices, np.empty(0, dtype=dtype), x, rows, bounds,
                            np.empty(2, dtype=ops.ptype))
                        count += 1
    return count


def warm(sr: Semiring, dtype, order_free: bool, block: bool = False) -> int:
    """Compile (or load from Numba's disk cache) every kernel a product of ``sr`` in
    ``dtype`` may run, by calling each on a tiny matrix: the pull serial and parallel, with
    and without the four lanes (order-free monoids), unrolled and not, in both operand
    orders (multiplies that do not commute), the push unmasked and masked, with 32- and
    64-bit column indices; the padded block of each width up to BLOCK_ROWS_WIDTH where
    ``block`` (the padded plan applies: :func:`.spmv.warm`); the BFS levels loop, the
    core decomposition (:func:`core_numbers`), the truss kernels (:func:`truss`), label
    propagation's (:func:`loopless_degrees`, :func:`greedy_colouring`,
    :func:`label_propagation`) and Louvain's local moves (:func:`louvain_moves`) with 32- and
    64-bit indices.
    Returns the kernels run (0 where ``sr`` has no compiled form or Numba is off). What
    ``python -m semiring.warmup --cpu`` runs."""
    if not ENABLED:
        return 0
    if ops_of(sr, dtype) is None:
        return _warm_xonly(sr, np.dtype(dtype), order_free)
    dtype = np.dtype(dtype)
    ptype = sr.result_type(dtype)
    ops = ops_of(sr, dtype)
    lanes = (1, 4) if order_free and not ops.first_only else (1,)
    xfirsts = (False,) if ops.mul in _COMMUTATIVE else (False, True)
    indptr = np.array([0, 2, 3, 3], dtype=np.uint64)
    a = np.ones(3, dtype=dtype)
    x = np.ones(3, dtype=dtype)
    rows = np.array([0, 1], dtype=np.uint64)
    bounds = np.array([0, 1, 2], dtype=np.int64)
    count = 0
    for itype in (np.uint32, np.uint64):
        indices = np.array([0, 2, 1], dtype=itype)
        for ln in lanes:
            for xf in xfirsts:
                for parallel in (False, True):
                    for unroll in (True, False):  # (by x's size: PULL_UNROLL_MAX_X_BYTES)
                        _kernel("pull", sr, dtype, ln, parallel, xf, unroll)(
                            indptr, indices, a, x, rows, bounds, np.empty(2, dtype=ptype))
                        count += 1
        for mask in (_NO_MASK, np.ones(3, dtype=np.bool_)):
            _kernel("push", sr, dtype)(
                indptr, indices, a, np.array([0, 1], dtype=np.int64), x[:2], mask,
                mask.size > 0, True, np.empty(3, dtype=ptype), np.zeros(3, dtype=np.uint8),
                np.empty(3, dtype=np.int64))
            count += 1
    if block and ops.form in (1, 2):
        for width in range(1, BLOCK_ROWS_WIDTH + 1):
            for xf in xfirsts:  # (uint32 column tables: the block's columns are < 2^32)
                _kernel("blockrows", sr, dtype, width, False, xf)(
                    np.ones((2, width), dtype=dtype), np.zeros((2, width), dtype=np.uint32),
                    x, np.empty(2, dtype=ptype))
                count += 1
    levels_kernel()(np.array([0, 1], dtype=np.int32), np.array([-9999, 0], dtype=np.int32),
                    np.zeros(2, dtype=np.int64))
    for itype in (np.int32, np.int64):  # (core_numbers, truss, label propagation: the
        # patterns' two index types)
        ptr, idx = np.array([0, 1, 2], dtype=itype), np.array([1, 0], dtype=itype)
        core_numbers(ptr, idx)
        truss(ptr, idx, 3)
        deg = loopless_degrees(ptr, idx)
        label_propagation(ptr, idx, greedy_colouring(ptr, idx, deg, np.arange(2)))
        louvain_moves(ptr, idx, np.ones(2), np.ones(2), np.arange(2), np.arange(2), 1.0, 1.0,
                      1e-7, 4)
    return count + 15
