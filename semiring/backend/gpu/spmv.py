"""GPU mxv / vxm: the pull (row-parallel) and push (frontier) kernels of ``kernels/spmv.cu``
and ``kernels/spmspv.cu``, templated on (add op, multiply op, domain type, result type, index
type, operand order), and the duplicate fold of ``common.cuh``. The op structs are generated
from the op tables (:mod:`semiring.ops`), so a user-defined op compiles the same way as a
built-in one. Nothing here runs at import: the first launch compiles the module for its
(semiring, domain, index type) on the current device (:mod:`semiring.kernels`)."""

from __future__ import annotations

import threading

import numpy as np

from ... import kernels
from ... import types as _t
from ...device import _cupy
from ...matrix import install_gpu_fold
from ...ops import ANY, BinaryOp, Monoid, Semiring, builtins
from . import launch as _launch
from . import prep as _prep

KERNEL_FILES = ("common.cuh", "spmv.cu", "spmspv.cu")

#: Threads per block of the row-group and edge kernels.
BLOCK = 256
#: Rows longer than this many entries get a block of their own in the pull launch.
LONG_ROW = 4096
#: Persistent grid of the push kernels: blocks per multiprocessor.
PUSH_BLOCKS_PER_SM = 8

TERM_NONE, TERM_VALUE, TERM_ANY = 0, 1, 2


def module_source(sr: Semiring) -> str:
    return kernels.source(*KERNEL_FILES, ops=kernels.semiring_ops(sr))


def kernel_name(kind: str, sr: Semiring, dtype, itype, xfirst: bool = False) -> str:
    """The C++ name of one kernel instantiation (as compiled and as looked up)."""
    T = _t.c_type(dtype)
    R = _t.c_type(sr.result_type(dtype))
    I = _t.c_type(itype)
    a, m = f"op_{sr.add.op.name}", f"op_{sr.mul.name}"
    if kind == "segment_reduce":
        return f"segment_reduce<{a}, {R}>"
    if kind == "gather_reset":
        return f"gather_reset<{R}>"
    if kind == "frontier_degrees":
        return f"frontier_degrees<{I}>"
    tf = {True: "true", False: "false"}
    if kind in ("spmv_pull", "spmv_tile", "spmv_warp"):
        empty = folds_from_empty(sr.add, sr.result_type(dtype))
        return f"{kind}<{a}, {m}, {T}, {R}, {I}, {tf[xfirst]}, {tf[empty]}>"
    return f"{kind}<{a}, {m}, {T}, {R}, {I}, {tf[xfirst]}>"


def name_expressions(sr: Semiring, dtype, itype) -> list[str]:
    """Every kernel instantiation for one (semiring, domain, index type)."""
    push = "spmspv_atomic" if sr.add.idempotent else "spmspv_emit"
    names = [kernel_name(kind, sr, dtype, itype, xf)
             for xf in (False, True) for kind in ("spmv_pull", push)]
    names.append(kernel_name("gather_reset" if sr.add.idempotent else "segment_reduce",
                             sr, dtype, itype))
    names.append(kernel_name("frontier_degrees", sr, dtype, itype))
    names += [kernel_name("spmv_tile", sr, dtype, itype, xf) for xf in (False, True)]
    names += [kernel_name("spmv_warp", sr, dtype, itype, xf) for xf in (False, True)]
    return names


@kernels.register("spmv")
def all_instantiations():
    """(label, source, name_expressions) of every built-in semiring × domain × index type."""
    for name, sr in sorted(builtins("semiring").items()):
        src = module_source(sr)
        for dt in _t.DTYPES:
            exprs = name_expressions(sr, dt, _t.INT32) + name_expressions(sr, dt, _t.INT64)
            yield f"{name}[{dt}]", src, exprs


def _key(kind: str, sr: Semiring, dtype, itype, xfirst: bool) -> tuple:
    return ("spmv", kind, id(sr), dtype, itype, xfirst)


def _kernel(kind: str, sr: Semiring, dtype, itype, xfirst: bool):
    """The compiled kernel function (a launch pays a dict lookup, not a name lookup)."""
    return kernels.memo(_key(kind, sr, dtype, itype, xfirst), lambda: kernels.function(
        ("spmv", id(sr), np.dtype(dtype), np.dtype(itype)),
        kernel_name(kind, sr, dtype, itype, xfirst),
        lambda: module_source(sr), name_expressions(sr, dtype, itype)))


_num_sms = kernels.num_sms


def _terminal(add: Monoid, rtype):
    t = add.terminal_of(rtype)
    if t is None:
        return TERM_NONE, rtype.type(0)
    if t is ANY:
        return TERM_ANY, rtype.type(0)
    return TERM_VALUE, rtype.type(t)


#: Row bins of the pull kernel: bin b holds rows of degree <= PULL_UNROLL * 2**b, served by
#: 2**b threads that each keep PULL_UNROLL loads in flight (SR_NBINS, SR_UNROLL in spmv.cu).
NBINS = 6
PULL_UNROLL = 4
#: Rows a group of the pull kernel serves (SR_ROWS in spmv.cu; a block serves PULL_ROWS *
#: (BLOCK >> b) rows of bin b).
PULL_ROWS = 1


def pull_schedule(indptr, nrows: int, rows_per_group: int = PULL_ROWS) -> dict:
    """Bin the rows by degree for spmv_pull (computed once per matrix and cached on it);
    ``rows_per_group`` is the kernel's SR_ROWS."""
    cp = _cupy()
    # each row's bin and launch key, and the rows of each bin, by kernels of ours (prep.cu: no
    # CuPy element-wise kernel to compile on a first call); long rows first, longest first
    order, counts = _prep.pull_bins(indptr, nrows, NBINS, PULL_UNROLL, LONG_ROW)  # one sync
    nlong = int(counts[NBINS])
    row_start = np.concatenate([[0], np.cumsum(counts[:NBINS])[:-1]])
    blocks = [-(-int(counts[j]) // ((BLOCK >> j) * rows_per_group)) for j in range(NBINS)]
    block_start = np.concatenate([[0], np.cumsum(blocks)[:-1]])
    bins = np.concatenate([row_start, counts[:NBINS], block_start, [nlong]]).astype(np.int64)
    return {"rows": order[nlong:], "long_rows": order[:nlong],
            "bins": cp.asarray(bins), "nblocks": nlong + int(sum(blocks))}


#: Entries per tile of the tiled pull (SR_TILE in spmv.cu): rows of at most TILE entries are
#: grouped by the tile their first entry falls in; longer rows get a block each. 2048 rather
#: than 1024: urand-22 1.287 against 1.343 ms (H100, bench/probes/spmv_probe.py).
TILE = 2048


#: Rows per tile at most (a run of empty rows is split): the kernel stages a tile's row
#: offsets in shared memory (2 * 256 of them) and a block's row loop stays short.
TILE_ROWS = 2 * BLOCK - 1


def tile_schedule(indptr, nrows: int, tile: int = TILE, max_rows: int = TILE_ROWS) -> dict:
    """The launch plan of spmv_tile (computed once per matrix and cached on it): ``tiles`` holds
    the first row of each tile and then ``nrows``; ``long_rows`` the rows of more than ``tile``
    entries, longest first. A tile holds the rows whose first entry falls in one ``tile``-sized
    range of entries, cut into runs of at most ``max_rows`` rows. ``indptr`` may be a NumPy
    array (tests)."""
    cp = np if isinstance(indptr, np.ndarray) else _cupy()
    itype = indptr.dtype
    deg = cp.diff(indptr)
    bucket = indptr[:-1] // tile
    change = cp.concatenate([cp.ones(1, dtype=cp.bool_), bucket[1:] != bucket[:-1]])
    first = cp.flatnonzero(change)  # each bucket's first row
    r = cp.arange(nrows, dtype=cp.int64)
    sub = (r - first[cp.cumsum(change) - 1]) % max_rows == 0  # every max_rows-th row of a bucket
    heads = cp.flatnonzero(sub[1:]) + 1
    tiles = cp.concatenate([cp.zeros(1, dtype=itype), heads.astype(itype),
                            cp.full(1, nrows, dtype=itype)])
    long_rows = cp.flatnonzero(deg > tile)
    long_rows = long_rows[cp.argsort(-deg[long_rows])].astype(itype)
    ntiles, nlong = int(tiles.size) - 1, int(long_rows.size)  # one sync per matrix
    return {"tiles": tiles, "ntiles": ntiles, "long_rows": long_rows, "nlong": nlong,
            "nblocks": nlong + ntiles}


#: Entries a task of the warp-streamed pull (spmv_warp) starts in: its rows are those whose
#: first entry falls in one WARP_TILE-sized range (a warp streams them 128 entries at a time).
WARP_TILE = 512
#: Rows a task at most (a long run of empty or short rows is split).
WARP_ROWS = 1024
#: Rows longer than this get a block each in the warp-streamed pull (at least WARP_TILE):
#: a warp that streams one 4096-entry row alone forms a tail. H200, min-plus float32, ten
#: launches (bench/probes/spmv_probe.py --set 13b; 4096 / 1024): kron-20 0.247 / 0.219 ms
#: (two windows a step), kron-21 0.455 / 0.447, kron-22 0.929 / 0.915, urand-22 (no row over
#: 65) 1.014 / 1.006.
WARP_LONG_ROW = 1024


def warp_schedule(indptr, nrows: int, tile: int = WARP_TILE, max_rows: int = WARP_ROWS,
                  long_row: int = WARP_LONG_ROW) -> dict:
    """The launch plan of spmv_warp (computed once per matrix and cached on it): ``tasks``
    holds the first row of each warp's task and then ``nrows``; ``long_rows`` the rows of
    more than ``long_row`` entries (a block each, first), longest first. A task holds the rows
    whose first entry falls in one ``tile``-sized range of entries, cut into runs of at most
    ``max_rows`` rows; a long row is the last of its task (``long_row >= tile``: the next row
    starts in a later range). ``indptr`` may be a NumPy array (tests)."""
    assert long_row >= tile
    plan = tile_schedule(indptr, nrows, tile, max_rows)
    cp = np if isinstance(indptr, np.ndarray) else _cupy()
    deg = cp.diff(indptr)
    long_rows = cp.flatnonzero(deg > long_row)
    long_rows = long_rows[cp.argsort(-deg[long_rows])].astype(indptr.dtype)
    nlong, ntasks = int(long_rows.size), plan["ntiles"]
    return {"tasks": plan["tiles"], "ntasks": ntasks, "long_rows": long_rows, "nlong": nlong,
            "long_row": long_row, "nblocks": nlong + -(-ntasks // (BLOCK // 32))}


#: Which pull kernel: "auto" (:func:`use_tiles`' rule by degrees), "always" (the tiled one
#: wherever it applies) or "never" (always the binned one). "never" since session 12: on the
#: H200 the binned kernel (16-byte loads, folds from `empty`) beats the tiled one on all four
#: bench graphs, ten launches of min-plus float32 (bench/probes/spmv_probe.py --variants):
#: urand-22 1.103 against 1.171 ms (the rule below picked the tiled one there), kron-22 0.996
#: / 1.154, kron-20 0.236 / 0.288, grid 2048² 0.064 / 0.141. The tiled kernel reads the
#: matrix once in order (Nsight Compute, kron-22: 1.09 GB from DRAM against the binned
#: kernel's 1.49 GB, whose bins revisit the sectors shared by rows of different bins) but
#: spends its time in shared memory and instructions (SM throughput 55 % against 20 %).
TILED = "never"
#: The "auto" rule (session 8, H100): the tiled pull for even degrees, a mean degree of at
#: least TILE_MIN_MEAN_DEGREE and no row longer than TILE_MAX_SKEW times the mean. Device
#: times of the two kernels then (bench/probes/spmv_probe.py --variants, H100, min-plus
#: float32, evict-first streams, the binned kernel before session 12's changes):
#: urand-22 (mean 32, max 65) tiled 1.274 ms, binned 1.359 ms; urand-22-ef8 (mean 16) 0.748 /
#: 0.739 ms; kron-22 1.219 / 1.224 ms; kron-20 0.300 / 0.288 ms (its many rows of 128 to 4096
#: entries suit the warp per row); the 2048² grid (degree 4) 0.142 / 0.091 ms (one lane per
#: row of the binned kernel is exact there).
TILE_MIN_MEAN_DEGREE = 16
TILE_MAX_SKEW = 8


#: Whether the pull takes the warp-streamed kernel (spmv_warp) where it applies
#: (:func:`use_warp`): "auto" (by mean degree, below), "always" or "never" (the binned or
#: tiled one).
WARP = "auto"
#: The "auto" rule: the warp-streamed kernel for a mean degree of at least
#: WARP_MIN_MEAN_DEGREE. H200, min-plus float32, ten launches (bench/probes/spmv_probe.py
#: --variants --set 13b, session 13), binned against warp-streamed (tasks of 512 entries, two
#: windows a step, rows over 1024 entries a block each), ms: urand-22 1.114 / 1.006, kron-22
#: 0.988 / 0.915, kron-21 0.469 / 0.447, kron-20 0.238 / 0.219, urand-20 0.277 / 0.260 (mean
#: degrees 30 to 32); the 2048² grid (mean 4) 0.063 / 0.088, where one lane a row of the
#: binned kernel is exact and the warp's heads and scans cost more than the sectors they save.
#: The threshold lies between the degrees measured (not placed more finely yet).
WARP_MIN_MEAN_DEGREE = 8


def use_warp(M, sr: Semiring, allowed, x_present, dtype) -> bool:
    """Whether a pull over ``M`` takes the warp-streamed kernel (spmv_warp): rows in their
    natural order, each sector of the matrix read once (:data:`WARP`). It applies without a
    mask and with every x(k) present (it loads every entry and has no presence to fold), with
    a multiply that is not positional (a product's row is not known while it is loaded), a
    monoid that folds from ``empty`` (the identity of its segmented scan) and no early exit
    (boolean pulls keep the binned kernel's). "auto" takes it where it was measured: 4-byte
    indices and values (its 16-byte loads) and :data:`WARP_MIN_MEAN_DEGREE`."""
    if WARP == "never" or allowed is not None or x_present is not None or sr.mul.positional:
        return False
    rtype = sr.result_type(dtype)
    if not folds_from_empty(sr.add, rtype) or _pull_terminal(sr.add, rtype)[0] != TERM_NONE:
        return False
    if WARP == "always":
        return True
    return (np.dtype(M.itype).itemsize == 4 and np.dtype(dtype).itemsize == 4
            and M.nvals >= WARP_MIN_MEAN_DEGREE * M.nrows)


def max_degree(M) -> int:
    """The longest row of ``M`` (one sync, once per matrix, kept with its schedules)."""
    if M._sched is None:
        M._sched = {}
    d = M._sched.get("max_degree")
    if d is None:
        d = M._sched["max_degree"] = int(_cupy().diff(M.indptr).max()) if M.nrows else 0
    return d


def use_tiles(M, sr: Semiring, allowed, mode: int) -> bool:
    """Whether a pull over ``M`` takes the tiled kernel (spmv_tile) rather than the binned one
    (spmv_pull). The tiled kernel applies without a mask (it loads every entry; the binned one
    skips the rows the mask drops), with a multiply that is not positional (a product's row is
    not known while the tile is loaded) and a monoid whose terminal is not `any` (the binned
    kernel stops a row at its first product); it is taken where the degrees are even
    (:data:`TILED`, :data:`TILE_MIN_MEAN_DEGREE`, :data:`TILE_MAX_SKEW`)."""
    if TILED == "never" or allowed is not None or sr.mul.positional or mode == TERM_ANY:
        return False
    if TILED == "always":
        return True
    mean = M.nvals / max(M.nrows, 1)  # known on the host: no device work below the threshold
    return mean >= TILE_MIN_MEAN_DEGREE and max_degree(M) <= TILE_MAX_SKEW * mean


def folds_from_empty(add: Monoid, rtype) -> bool:
    """Whether the pull kernels fold ``add`` from its ``empty`` value (template EMPTY of
    spmv_pull / spmv_tile): an idempotent monoid's ``empty`` is neutral for every value
    (:class:`semiring.ops.Monoid`; the atomic push starts from it too), so a row's reduction
    starts there and folds a product with one op instead of tracking whether it has a value
    yet. The `any` monoid has no such value (its terminal is :data:`ANY` in every domain)."""
    return add.idempotent and add.terminal_of(rtype) is not ANY


def _empty(add: Monoid, rtype):
    """The ``empty`` argument of the pull kernels (ignored unless :func:`folds_from_empty`)."""
    return rtype.type(add.empty_of(rtype)) if folds_from_empty(add, rtype) else rtype.type(0)


#: Whether the pull kernels stop a row at a terminal value that is a number (min's -inf,
#: max's +inf, the integer extremes, times' 0): a vote a step that costs more than it saves
#: where the terminal is practically never reached. Boolean results (lor, land; BFS-like
#: pulls) and `any` keep it. H200, bench/probes/spmv_probe.py (session 12), min-plus float32,
#: binned kernel, ten launches: grid 2048² 0.083 -> 0.064 ms without the vote; kron-20 0.238
#: -> 0.237, kron-22 1.002 -> 1.001, urand-22 1.126 -> 1.125 (within noise).
EARLY_EXIT_NUMERIC = False


def _pull_terminal(add: Monoid, rtype):
    """(mode, terminal) that the pull kernels get (:data:`EARLY_EXIT_NUMERIC`)."""
    mode, term = _terminal(add, rtype)
    if mode == TERM_VALUE and rtype != np.bool_ and not EARLY_EXIT_NUMERIC:
        return TERM_NONE, term
    return mode, term


_terminals: dict = {}

#: Key of a matrix's launch plans in ``M._sched`` (see :func:`pull`); X_ARG: the position of
#: x's values among the pull kernels' arguments (after the matrix's four).
PLAN_KEY = "full_pull"
X_ARG = 4
#: Whether a kept plan launches through the driver with a kept parameter block
#: (:class:`semiring.backend.gpu.launch.KeptLaunch`: x's and the result's addresses written
#: into a block kept per thread) rather than by CuPy's launch, which wraps each of the pull's
#: 15 arguments in an object every call (7.7 µs of host time on an H200 host against 4.6 for
#: an empty launch: bench/results/session13/small_breakdown_h200.log). Not yet measured on
#: a device (session 14, written without device time): bench/probes/small_breakdown.py's
#: rows "plan(cupy)" / "plan(kept)" and "sr.mxv [cupy]" / "sr.mxv [kept]" compare the two in
#: one run. A launch the driver refuses (nothing queued) goes by CuPy's launch instead.
KEPT_LAUNCH = True
#: (device, stream) of the calling thread: (cupy.cuda.runtime.getDevice,
#: cupy.cuda.get_current_stream), set when the first plan is made (no plan before: nothing to
#: look up)
_where = None


class _PullPlan:
    """A warm plain pull on one matrix, device and stream: one allocation and one launch.

    ``kernel`` launches through the driver with a kept parameter block (:data:`KEPT_LAUNCH`;
    None where the arguments have no such form), else ``f(grid, block, head + (x,) + mid +
    (out,) + tail)``, CuPy's launch of the same arguments. ``present``: the presence array of
    every result (row o has an entry iff it stores one: M's pattern alone), shared by them
    all; each launch rewrites the same bytes, so a result read on another stream meanwhile
    reads what it holds. ``alloc`` / ``ndarray``: CuPy's (tests pass stand-ins)."""

    __slots__ = ("kernel", "f", "grid", "block", "head", "mid", "tail", "shape", "dtype",
                 "nbytes", "present", "alloc", "ndarray")

    def __init__(self, kernel, f, grid, block, head, mid, tail, shape, dtype, nbytes, present,
                 alloc, ndarray):
        self.kernel, self.f, self.grid, self.block = kernel, f, grid, block
        self.head, self.mid, self.tail = head, mid, tail
        self.shape, self.dtype, self.nbytes, self.present = shape, dtype, nbytes, present
        self.alloc, self.ndarray = alloc, ndarray

    def __call__(self, x_values):
        """(values, present) of the pull of ``x_values`` (M's domain, M.ncols entries); a
        new values array each call (a result is never the next call's output)."""
        mem = self.alloc(self.nbytes)  # (cp.empty 4.3 µs; the pool's block and an array 3.0)
        out = self.ndarray(self.shape, self.dtype, mem)
        kernel = self.kernel
        if KEPT_LAUNCH and kernel is not None:
            try:
                kernel.launch(x_values.data.ptr, mem.ptr)
                return out, self.present
            except kernel.error:  # nothing was queued: CuPy's launch below (which reports
                pass              # an error that lasts, e.g. a context lost)
        self.f(self.grid, self.block, self.head + (x_values,) + self.mid + (out,) + self.tail)
        return out, self.present


def make_plan(f, fptr, grid, block, stream, args, x, out, present, alloc, ndarray,
              driver=None):
    """The :class:`_PullPlan` of a launch ``f(grid, block, args)`` whose x is ``x`` (at
    :data:`X_ARG`) and whose result values are ``out`` (once among ``args``); None where the
    arguments are not laid out so. The kept launch is left out (CuPy's launch only) where an
    argument has no parameter word (:func:`semiring.backend.gpu.launch.param_word`)."""
    io = [i for i, a in enumerate(args) if a is out]
    if len(args) <= X_ARG or args[X_ARG] is not x or len(io) != 1 or io[0] == X_ARG:
        return None
    io = io[0]
    # the kept launch holds what its words point into (M's arrays, schedules and casts, the
    # presence array, the kernel's module through f), not the first call's x and result
    keep = (f, args[:X_ARG], args[X_ARG + 1:io], args[io + 1:])
    try:
        kernel = _launch.KeptLaunch(fptr, grid, block, stream, args, (X_ARG, io), keep=keep,
                                    driver=driver)
    except (TypeError, ValueError, ImportError, NotImplementedError):
        kernel = None
    return _PullPlan(kernel, f, grid, block, args[:X_ARG], args[X_ARG + 1:io], args[io + 1:],
                     out.shape, out.dtype, out.nbytes, present, alloc, ndarray)


class _Planner:
    """Launches a pull kernel as :func:`pull` calls it and keeps, on ``M``, its plan for the
    next call of the same kind (:func:`make_plan`): the kernel, grid and block, and its
    arguments split around the two that change (x's values, the result's values), whatever
    they are and however many (the launch lines stay the launcher's own)."""

    __slots__ = ("M", "key", "f", "x", "out", "opres")

    def __init__(self, M, key, f, x, out, opres):
        self.M, self.key, self.f, self.x, self.out, self.opres = M, key, f, x, out, opres

    def __call__(self, grid, block, args):
        global _where
        self.f(grid, block, args)
        cp = _cupy()
        stream = self.key[2]  # (_plan_key's: the stream the plan is kept for)
        plan = make_plan(self.f, self.f.kernel.ptr, grid, block, stream, args, self.x, self.out,
                         self.opres, cp.cuda.alloc, cp.ndarray)
        if plan is not None:
            # (M's schedules, casts and this plan are dropped together when M changes)
            self.M._sched[self.key] = plan
            if _where is None:
                _where = (cp.cuda.runtime.getDevice, cp.cuda.get_current_stream)


def _plan_key(sr, dtype, xfirst, where) -> tuple:
    """The key of a matrix's plan for this pull on the current device and stream (a launch
    kept for one stream is not another's: its stream is part of the launch), under the
    pull's switches. ``where``: (getDevice, get_current_stream)."""
    return (PLAN_KEY, where[0](), where[1]().ptr, sr, dtype, xfirst, TILED, WARP)


def kept_pull(M, x_values, sr: Semiring, dtype, xfirst: bool):
    """(values, present) of the plain pull (no mask, every x(k) present, ``x_values`` in
    ``dtype``) from the plan a former such pull kept on ``M`` for the current device and
    stream; None where there is none (then :func:`pull` makes one). The plain ``mxv`` /
    ``vxm`` of :mod:`semiring.operations` calls it first."""
    sched = M._sched
    where = _where
    if sched is None or where is None:
        return None
    plan = sched.get(_plan_key(sr, dtype, xfirst, where))
    return None if plan is None else plan(x_values)


def pull(M, x_values, x_present, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_k M(o,k) ⊗ x(k) over M's rows; returns (values, present) dense arrays.

    The common call (no mask, every x(k) present) runs from a launch plan kept on ``M`` for
    the current device and stream after its first such call (:class:`_PullPlan`): the
    kernel and its fixed arguments, and the presence array, which then depends on M's
    pattern only (row o has an entry iff it stores one) and is shared by every such result
    (the kernel rewrites the same bytes). A warm call then pays one allocation and one
    launch through the driver with a kept parameter block (:data:`KEPT_LAUNCH`; two
    allocations, a schedule lookup, a kernel lookup, the scalar arguments' boxing and
    CuPy's launch before: bench/probes/small_breakdown.py)."""
    if allowed is None and x_present is None:
        res = kept_pull(M, x_values, sr, dtype, xfirst)
        if res is not None:
            return res
    cp = _cupy()
    nrows = M.nrows
    rtype = sr.result_type(dtype)
    out = cp.empty(nrows, dtype=rtype)
    opres = cp.empty(nrows, dtype=cp.bool_)
    if nrows == 0:
        return out, opres
    tkey = (id(sr.add), rtype)
    mt = _terminals.get(tkey)
    if mt is None:  # add kept: its id stays valid
        mt = _terminals[tkey] = (sr.add, _pull_terminal(sr.add, rtype), _empty(sr.add, rtype),
                                 _terminal(sr.add, rtype)[0])
    mode, term = mt[1]
    empty = mt[2]
    if use_warp(M, sr, allowed, x_present, dtype):
        kind = "spmv_warp"
    else:
        kind = "spmv_tile" if use_tiles(M, sr, allowed, mt[3]) else "spmv_pull"
    if (M._sched is None or kind not in M._sched) and not kernels.cached(
            _key(kind, sr, dtype, M.itype, xfirst)):
        # the kernel compiles on another thread while the schedule is made
        kernels.prefetch(_kernel, kind, sr, dtype, M.itype, xfirst)
    avals, astride = M._values_for(dtype)
    sched = schedule(M, kind)
    f = _kernel(kind, sr, dtype, M.itype, xfirst)
    if allowed is not None or x_present is not None:
        launch = f
    else:
        where = (cp.cuda.runtime.getDevice, cp.cuda.get_current_stream)
        launch = _Planner(M, _plan_key(sr, dtype, xfirst, where), f, x_values, out, opres)
    if kind == "spmv_warp":
        launch((sched["nblocks"],), (BLOCK,), (
            M.indptr, M.indices, avals, np.int64(astride), x_values, sched["tasks"],
            np.int64(sched["ntasks"]), sched["long_rows"], np.int64(sched["nlong"]),
            np.int64(sched["long_row"]), out, opres, empty))
    elif kind == "spmv_tile":
        launch((sched["nblocks"],), (BLOCK,), (
            M.indptr, M.indices, avals, np.int64(astride), x_values, x_present, allowed,
            sched["tiles"], np.int64(sched["ntiles"]), sched["long_rows"],
            np.int64(sched["nlong"]), out, opres, empty))
    else:
        launch((sched["nblocks"],), (BLOCK,), (
            M.indptr, M.indices, avals, np.int64(astride), x_values, x_present, allowed,
            sched["rows"], sched["long_rows"], sched["bins"], out, opres, np.int32(mode),
            term, empty))
    return out, opres


#: The atomic push's workspaces, one set per thread (``_workspaces.by_key``): two threads of
#: one process sharing a GPU (the SPMD ranks of a Dask worker holding two partitions) must
#: not share one. A process-wide dict keyed by (device, n, type) did: rank threads whose
#: blocks had the same width took the same workspace (its ``dirty`` flag is read, then set,
#: around two allocations where the other thread can run), the second push's atomics met the
#: first's minima and claims, and the Bellman-Ford rounds of the algebra loop returned
#: distances no path gives, some below the truth (tests/test_dist_spmd_loops.py, the
#: session-13 failure on one H200; tests/test_threads.py makes the collision certain). A
#: thread's own dict also goes when the thread does (a mesh's rank threads, per mesh).
_workspaces = threading.local()


def _workspace(n: int, rtype, identity):
    """Dense (values at the identity, claimed = 0) scratch of the atomic push, kept per thread,
    device, stream, size and type and restored after each use, so a push costs O(frontier
    edges), not O(n). The stream is in the key: a push on another stream may start before
    the last one's restoring kernel has run."""
    cp = _cupy()
    mine = _workspaces.__dict__.setdefault("by_key", {})
    key = (cp.cuda.Device().id, cp.cuda.get_current_stream().ptr, n, np.dtype(rtype),
           np.asarray(identity).tobytes())
    ws = mine.get(key)
    if ws is None or ws["dirty"]:
        ws = {"out": cp.full(n, identity, dtype=rtype), "claimed": cp.zeros(n, dtype=cp.int32),
              "dirty": False}
        mine[key] = ws
    return ws


def push(M, x_indices, x_values, allowed, sr: Semiring, dtype, xfirst: bool):
    """out(o) = ⊕_{k in x} x(k) ⊗ M(k,o); returns sparse (indices, values, sorted?)."""
    cp = _cupy()
    nout = M.ncols
    rtype = sr.result_type(dtype)
    nx = int(x_indices.size)
    if nx == 0 or M.nvals == 0:
        return cp.empty(0, dtype=cp.int64), cp.empty(0, dtype=rtype), True
    avals, astride = M._values_for(dtype)
    xidx = x_indices.astype(cp.int64, copy=False)
    deg = cp.empty(nx, dtype=cp.int64)
    _kernel("frontier_degrees", sr, dtype, M.itype, xfirst)(
        ((nx + BLOCK - 1) // BLOCK,), (BLOCK,), (M.indptr, xidx, np.int64(nx), deg))
    offsets = cp.cumsum(deg)
    grid = _num_sms(cp.cuda.Device().id) * PUSH_BLOCKS_PER_SM
    args = (M.indptr, M.indices, avals, np.int64(astride), xidx, x_values, np.int64(nx),
            offsets, allowed)
    if sr.add.idempotent:
        mode, _ = _terminal(sr.add, rtype)
        identity = sr.add.empty_of(rtype)  # NaN for fmin/fmax: a lone NaN product survives
        ws = _workspace(nout, rtype, identity)
        touched = cp.empty(nout, dtype=cp.int64)
        ntouched = cp.zeros(1, dtype=cp.uint64)
        ws["dirty"] = True
        _kernel("spmspv_atomic", sr, dtype, M.itype, xfirst)((grid,), (BLOCK,), args + (
            ws["out"], ws["claimed"], touched, ntouched, np.int32(mode)))
        count = int(ntouched.get()[0])  # the one synchronization of a push
        idx = touched[:count]
        vals = cp.empty(count, dtype=rtype)
        if count:
            _kernel("gather_reset", sr, dtype, M.itype, xfirst)(
                ((count + BLOCK - 1) // BLOCK,), (BLOCK,),
                (idx, np.int64(count), ws["out"], ws["claimed"], rtype.type(identity), vals))
        ws["dirty"] = False
        if 4 * count < nout:
            idx = idx.copy()  # do not pin the n-sized buffer to a small result
        return idx, vals, False  # in order of first touch: the caller sorts when it must
    total = int(offsets[-1])
    keys = cp.empty(total, dtype=cp.int64)
    prods = cp.empty(total, dtype=rtype)
    _kernel("spmspv_emit", sr, dtype, M.itype, xfirst)((grid,), (BLOCK,), args + (
        np.int64(nout), keys, prods))
    # keys made unique by the edge number, so the order within a segment is fixed
    if total < (2**62) // max(nout + 1, 1):
        order = cp.argsort(keys * total + cp.arange(total, dtype=cp.int64))
    else:
        order = cp.argsort(keys)
    keys = keys[order]
    prods = prods[order]
    nvalid = int(cp.searchsorted(keys, nout))
    keys = keys[:nvalid]
    prods = prods[:nvalid]
    if nvalid == 0:
        return keys, prods, True
    heads = cp.flatnonzero(cp.concatenate([cp.ones(1, dtype=cp.bool_), keys[1:] != keys[:-1]]))
    nseg = int(heads.size)
    seg = cp.concatenate([heads, cp.array([nvalid], dtype=cp.int64)]).astype(cp.int64)
    res = cp.empty(nseg, dtype=rtype)
    _kernel("segment_reduce", sr, dtype, M.itype, xfirst)(
        ((nseg * 32 + BLOCK - 1) // BLOCK,), (BLOCK,), (seg, np.int64(nseg), prods, res))
    return keys[heads], res, True


def _binary_elementwise(op: BinaryOp, dt):
    cp = _cupy()
    rt = op.result_type(dt)
    # parameter types by NumPy name (CuPy reads C names such as `int` as type placeholders)
    return cp.ElementwiseKernel(
        f"{dt.name} x, {dt.name} y", f"{rt.name} z",
        f"z = op_{op.name}::f<{_t.c_type(rt)}, {_t.c_type(dt)}>(x, y, 0, 0, 0, 0);",
        f"sr_ew_{op.name}_{dt.name}",
        preamble=kernels.source("common.cuh", ops=[op]),
    )


def binary_elementwise(op: BinaryOp, dtype, x, y):
    """z = op(x, y) elementwise on the GPU, both operands taken as ``dtype``."""
    dt = np.dtype(dtype)
    f = kernels.memo(("ew_accumulate", id(op), dt), lambda: _binary_elementwise(op, dt))
    return f(x.astype(dt, copy=False), y.astype(dt, copy=False))


def _fold_name(op: BinaryOp, dt) -> str:
    return f"segment_fold<op_{op.name}, {_t.c_type(dt)}>"


def segment_fold(op: BinaryOp, values, heads):
    """Fold runs of ``values`` starting at ``heads`` left to right with ``op``."""
    cp = _cupy()
    dt = np.dtype(values.dtype)
    name = _fold_name(op, dt)
    f = kernels.function(("fold", id(op), dt), name,
                         lambda: kernels.source(*KERNEL_FILES, ops=[op]), [name], compile=False)
    nseg = int(heads.size)
    seg = cp.concatenate([heads.astype(cp.int64), cp.array([values.size], dtype=cp.int64)])
    out = cp.empty(nseg, dtype=dt)
    if nseg:
        f(((nseg + BLOCK - 1) // BLOCK,), (BLOCK,), (seg, np.int64(nseg), values, out))
    return out


@kernels.register("fold")
def extra_instantiations():
    """Kernels outside the semiring modules: dup folds of the built-in ops."""
    for name, op in sorted(builtins("binary").items()):
        if op.positional:
            continue
        yield (f"fold_{name}", kernels.source(*KERNEL_FILES, ops=[op]),
               [_fold_name(op, dt) for dt in _t.DTYPES])


def schedule(M, kind: str = "spmv_pull") -> dict:
    """The launch plan of ``M`` for the pull kernel ``kind`` (:func:`pull_schedule` for
    spmv_pull, :func:`tile_schedule` for spmv_tile), made once and kept on the matrix (which
    drops it when its pattern changes)."""
    if M._sched is None:
        M._sched = {}
    plan = M._sched.get(kind)
    if plan is None:
        make = {"spmv_tile": tile_schedule, "spmv_warp": warp_schedule}.get(kind,
                                                                         pull_schedule)
        plan = M._sched[kind] = make(M.indptr, M.nrows)
    return plan


install_gpu_fold(segment_fold)
