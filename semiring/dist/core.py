"""The distributed containers: :class:`DistMatrix` (1-D partitions of a CSR over Dask
workers), :class:`DistVector` (a vector cut the same way), their masks and lazy scalars.

A partition is the engine's own object (an ``sr.Matrix`` block, an ``sr.Vector`` slice) held
in a worker's memory as a Dask future; every operation is one task per partition that calls
the engine on it (:mod:`semiring.dist._tasks`). Partition ``p`` covers the indices
``bounds[p]:bounds[p + 1]`` and lives on one worker, always the same one, so that the blocks
of a matrix and the slices of the vectors over it meet without moving.
"""

from __future__ import annotations

import uuid
import weakref
from dataclasses import dataclass

import numpy as np

import semiring as sr
from semiring.errors import check_flags

from . import _tasks as T
from ._client import get_client, require_distributed

KINDS = ("rows", "cols")


@dataclass(frozen=True)
class Layout:
    """How a dimension of ``size`` is cut: ``bounds`` (p + 1 ints) and the worker of each
    partition, with the client that reaches them and the partitions' device."""

    client: object
    bounds: tuple
    workers: tuple
    device: str

    @property
    def size(self) -> int:
        return int(self.bounds[-1])

    @property
    def nparts(self) -> int:
        return len(self.workers)

    def submit(self, p, fn, *args, **kwargs):
        """Run ``fn(*args)`` on partition p's worker (a preference, not a rule: should that
        worker be gone, another runs it and the data moves, rather than a hang); a future."""
        return self.client.submit(fn, *args, workers=[self.workers[p]],
                                  allow_other_workers=True, pure=False, **kwargs)

    def map(self, fn, *per_part_args):
        """One task per partition: ``fn(*args_p)`` with ``args_p = [a(p) for a in args]``."""
        return [self.submit(p, fn, *(a(p) for a in per_part_args)) for p in range(self.nparts)]

    def compatible(self, other: "Layout") -> bool:
        return (other is self) or (tuple(other.bounds) == tuple(self.bounds)
                                   and tuple(other.workers) == tuple(self.workers)
                                   and other.client is self.client)


#: Seconds to wait for a cluster's first worker (a cluster just made, or restarting one).
WORKER_WAIT = 30


def _workers_of(client):
    """The workers' addresses, asked of the scheduler itself (the client's cached
    scheduler_info can lag behind a cluster that is starting or restarting a worker)."""
    ws = client.nthreads()
    if not ws:
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT)
        except Exception:  # a timeout: reported below
            pass
        ws = client.nthreads()
    return tuple(sorted(ws))


def even_bounds(n: int, nparts: int) -> tuple:
    """``nparts`` + 1 cut points of range(n) into near-equal parts."""
    for name, v, least in (("n", n, 0), ("nparts", nparts, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < least:
            raise sr.InvalidValue(f"semiring.dist.even_bounds: {name} must be an integer >= "
                                  f"{least}, got {v!r}")
    return tuple(int(b) for b in np.linspace(0, n, nparts + 1).round().astype(np.int64))


def make_layout(client, n: int, nparts=None, bounds=None, device=None) -> Layout:
    workers = _workers_of(client)
    if not workers:
        raise sr.InvalidValue("semiring.dist: the dask cluster has no workers")
    if bounds is not None:
        b = np.asarray(bounds)
        if b.ndim != 1 or b.size < 2 or b.dtype.kind not in "iu":
            raise sr.InvalidValue(f"semiring.dist: bounds must be a 1-D list of at least 2 ints, got {bounds!r}")
        if int(b[0]) != 0 or int(b[-1]) != n or bool((np.diff(b) < 0).any()):
            raise sr.InvalidValue(f"semiring.dist: bounds must rise from 0 to n (={n}), got {list(b)}")
        bounds = tuple(int(x) for x in b)
    else:
        if nparts is None:
            nparts = len(workers)
        if not isinstance(nparts, (int, np.integer)) or isinstance(nparts, bool) or nparts < 1:
            raise sr.InvalidValue(f"semiring.dist: nparts must be a positive int, got {nparts!r}")
        bounds = even_bounds(n, int(nparts))
    p = len(bounds) - 1
    return Layout(client, bounds, tuple(workers[i % len(workers)] for i in range(p)), device)


# ---------------------------------------------------------------------------------- masks

class DistMask:
    """A mask over a :class:`DistVector`: ``v.S`` (structure), ``v.V`` (values), ``~m``."""

    def __init__(self, vector: "DistVector", structure: bool, complement: bool):
        self.vector = vector
        self.structure, self.complement = check_flags("DistMask", structure=structure,
                                                      complement=complement)

    def __invert__(self):
        return DistMask(self.vector, self.structure, not self.complement)

    def __repr__(self):
        return f"<DistMask {'~' if self.complement else ''}{'S' if self.structure else 'V'}>"


# ---------------------------------------------------------------------------------- scalars

class Lazy:
    """A scalar still on the workers: partial results and how to combine them.
    :func:`compute` gathers several in one round trip; ``.result()`` gathers one."""

    def __init__(self, client, futures, combine):
        self.client, self.futures, self.combine = client, futures, combine

    def result(self):
        return compute(self)[0]


def compute(*lazies):
    """The values of several :class:`Lazy` scalars, gathered in one round trip."""
    if not lazies:
        return ()
    client = lazies[0].client
    flat = [f for z in lazies for f in z.futures]
    got = client.gather(flat)
    out, k = [], 0
    for z in lazies:
        out.append(z.combine(got[k:k + len(z.futures)]))
        k += len(z.futures)
    return tuple(out)


def _monoid_fold(monoid):
    def fold(parts):
        v = sr.Vector.from_coo(np.arange(len(parts)), np.asarray(parts), size=len(parts),
                               device="cpu")
        return sr.reduce_scalar(v, monoid)
    return fold


# ---------------------------------------------------------------------------------- vectors

class Held:
    """A partition computed by a direct call (:meth:`DistMatrix.call_direct`) and held on its
    worker outside Dask's memory: result ``index`` of call ``token`` on worker ``address``.
    Made into a future (a task that takes it) when first used; dropped on the worker if it
    never is."""

    __slots__ = ("client", "address", "token", "index", "taken", "call", "finish",
                 "__weakref__")

    def __init__(self, client, address, token, index, call, finish=None):
        self.client, self.address, self.token, self.index = client, address, token, index
        self.taken = None
        self.call = call  # the call's record of the results taken: shared by its Helds
        self.finish = finish  # (fn, args): the partition is fn(result, *args)

    def future(self):
        if self.taken is None:
            self.taken = self.client.submit(T.take_held, self.token, self.index, self.finish,
                                            workers=[self.address], allow_other_workers=False,
                                            pure=False)
            self.call.taken.add(self.index)
        return self.taken


class _Call:
    """A direct call's results: which were taken (the rest are dropped on the worker when
    the client lets go of them all)."""

    __slots__ = ("taken", "__weakref__")

    def __init__(self):
        self.taken = set()


class DistVector:
    """A vector cut into partitions by a :class:`Layout`: partition p is an ``sr.Vector`` of
    size ``bounds[p + 1] - bounds[p]`` on its worker.

    Build one with :meth:`new`, :meth:`full`, :meth:`arange`, :meth:`from_coo` or
    :meth:`from_dense` over a :class:`DistMatrix`'s layout; bring it back with
    :meth:`to_dense` or :meth:`to_coo` (arrays on the partitions' device).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from semiring import dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> DA = dist.DistMatrix.from_scipy(sp.identity(6, format="csr"), client)
    >>> v = dist.DistVector.from_coo(DA, [0, 5], [1.0, 2.0])
    >>> v.nvals, v.nparts, v.to_dense(missing=-1).tolist()
    (2, 2, [1.0, -1.0, -1.0, -1.0, -1.0, 2.0])
    >>> client.close(); client.cluster.close()
    """

    def __init__(self, layout: Layout, parts, dtype):
        self.layout = layout
        self.parts = list(parts)
        self.dtype = np.dtype(dtype)

    @property
    def parts(self):
        """The partitions' futures (a partition held by a direct call becomes a future here,
        on first use)."""
        ps = self._parts
        if any(isinstance(x, Held) for x in ps):
            self._parts = ps = [x.future() if isinstance(x, Held) else x for x in ps]
        return ps

    @parts.setter
    def parts(self, value):
        self._parts = list(value)

    def wait(self) -> "DistVector":
        """Wait until every partition is computed (one held by a direct call already is);
        raise the first worker error.

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> from semiring import dist
        >>> client = dist.local_cluster(1, processes=False)
        >>> DA = dist.DistMatrix.from_scipy(sp.identity(4, format="csr"), client)
        >>> dist.DistVector.full(DA, 1.0).wait().nparts
        1
        >>> client.close(); client.cluster.close()
        """
        futs = [x for x in self._parts if not isinstance(x, Held)]
        if futs:
            distributed = require_distributed()
            distributed.wait(futs)
            for f in futs:
                if f.status == "error":
                    f.result()
        return self

    # -------------------------------------------------------------- properties
    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def shape(self):
        return (self.size,)

    @property
    def device(self) -> str:
        return self.layout.device

    @property
    def nparts(self) -> int:
        return self.layout.nparts

    @property
    def S(self) -> DistMask:
        return DistMask(self, True, False)

    @property
    def V(self) -> DistMask:
        return DistMask(self, False, False)

    def nvals_lazy(self) -> Lazy:
        futs = self.layout.map(T.vec_nvals, lambda p: self.parts[p])
        return Lazy(self.layout.client, futs, lambda xs: int(sum(xs)))

    @property
    def nvals(self) -> int:
        """Entries present, over all partitions (one round trip)."""
        return self.nvals_lazy().result()

    def __repr__(self):
        return (f"<DistVector size={self.size}, dtype={self.dtype}, parts={self.nparts}, "
                f"device={self.device}>")

    def _replace(self, parts, dtype=None):
        """Point this vector at new partitions (the result of an operation with out=self)."""
        self._parts = list(parts)
        if dtype is not None:
            self.dtype = np.dtype(dtype)
        return self

    # -------------------------------------------------------------- constructors
    @staticmethod
    def _layout_of(like) -> Layout:
        if isinstance(like, DistMatrix):
            if like.nrows != like.ncols:
                raise sr.DimensionMismatch(
                    f"DistVector: a non-square DistMatrix has two layouts: pass like.row_layout "
                    f"or like.col_layout (shape {like.shape})")
            return like.row_layout
        if isinstance(like, DistVector):
            return like.layout
        if isinstance(like, Layout):
            return like
        raise sr.DomainMismatch(f"DistVector: like must be a DistMatrix, DistVector or Layout, "
                                f"got {type(like).__name__}")

    @classmethod
    def new(cls, like, dtype=np.float64) -> "DistVector":
        """An empty vector (no entries) over ``like``'s layout."""
        L = cls._layout_of(like)
        dt = np.dtype(dtype)
        b = L.bounds
        return cls(L, L.map(T.vec_new, lambda p: b[p + 1] - b[p], lambda p: dt,
                            lambda p: L.device), dt)

    @classmethod
    def full(cls, like, value, dtype=None) -> "DistVector":
        """Every entry present, equal to ``value``."""
        L = cls._layout_of(like)
        dt = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
        b = L.bounds
        return cls(L, L.map(T.vec_full, lambda p: b[p + 1] - b[p], lambda p: value,
                            lambda p: dt, lambda p: L.device), dt)

    @classmethod
    def arange(cls, like, dtype=np.int64) -> "DistVector":
        """v(i) = i for every i (the initial labels of connected components)."""
        L = cls._layout_of(like)
        dt = np.dtype(dtype)
        b = L.bounds
        return cls(L, L.map(T.vec_arange, lambda p: b[p], lambda p: b[p + 1], lambda p: dt,
                            lambda p: L.device), dt)

    @classmethod
    def from_coo(cls, like, indices, values=True, *, dtype=None, dup_op=None) -> "DistVector":
        """Entries at ``indices`` (host ints) with ``values`` (a scalar or one per index)."""
        L = cls._layout_of(like)
        idx = np.asarray(indices)
        if idx.size == 0:
            idx = idx.astype(np.int64)
        if idx.ndim != 1 or idx.dtype.kind not in "iu":
            raise sr.DomainMismatch(f"DistVector.from_coo: indices must be a 1-D integer list, "
                                    f"got dtype {idx.dtype} and shape {idx.shape}")
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= L.size):
            raise sr.InvalidIndex(f"DistVector.from_coo: indices must lie in [0, {L.size}), got "
                                  f"[{int(idx.min())}, {int(idx.max())}]")
        vals = np.asarray(values.get() if hasattr(values, "get") else values)
        if vals.ndim and vals.shape != idx.shape:
            raise sr.DimensionMismatch(f"DistVector.from_coo: values must be a scalar or have "
                                       f"{idx.size} entries, got shape {vals.shape}")
        dt = np.dtype(dtype) if dtype is not None else vals.dtype
        b = np.asarray(L.bounds)
        part = np.searchsorted(b, idx, side="right") - 1
        parts = []
        for p in range(L.nparts):
            sel = part == p
            v = vals if vals.ndim == 0 else vals[sel]
            parts.append(L.submit(p, T.vec_from_coo, idx[sel] - b[p], v, int(b[p + 1] - b[p]),
                                  dt, L.device, dup_op))
        return cls(L, parts, dt)

    @classmethod
    def from_dense(cls, like, array, *, missing=None) -> "DistVector":
        """Entries of a 1-D host (or CuPy) array, cut by ``like``'s layout."""
        L = cls._layout_of(like)
        a = array.get() if hasattr(array, "get") and not isinstance(array, np.ndarray) \
            else np.asarray(array)
        if a.ndim != 1 or a.size != L.size:
            raise sr.DimensionMismatch(f"DistVector.from_dense: array must have shape "
                                       f"({L.size},), got {a.shape}")
        b = L.bounds
        parts = [L.submit(p, T.vec_from_dense, a[b[p]:b[p + 1]], missing, L.device)
                 for p in range(L.nparts)]
        return cls(L, parts, a.dtype)

    # -------------------------------------------------------------- gathering
    def _concat(self, arrays):
        xp = sr.array_module(self.device if self.device else "cpu")
        arrays = list(arrays)
        if arrays and sr.is_gpu_array(arrays[0]) != (xp is not np):
            xp = sr.array_module("gpu" if sr.is_gpu_array(arrays[0]) else "cpu")
        return xp.concatenate(arrays) if arrays else xp.zeros(0, dtype=self.dtype)

    def to_dense(self, missing=None):
        """The whole vector as one dense array (NumPy for CPU partitions, CuPy for GPU ones),
        ``missing`` where absent: by default the type's zero, the dtype kept (as
        :meth:`semiring.Vector.to_dense`, which each partition calls)."""
        futs = self.layout.map(T.vec_to_dense, lambda p: self.parts[p], lambda p: missing)
        return self._concat(self.layout.client.gather(futs))

    def to_coo(self):
        """(indices, values): the entries, indices ascending."""
        futs = self.layout.map(T.vec_to_coo, lambda p: self.parts[p])
        got = self.layout.client.gather(futs)
        idx = self._concat([i + int(lo) for (i, _), lo in zip(got, self.layout.bounds[:-1])])
        return idx, self._concat([v for _, v in got])

    def dup(self) -> "DistVector":
        return DistVector(self.layout, self.layout.map(T.vec_dup, lambda p: self.parts[p]),
                          self.dtype)


# ---------------------------------------------------------------------------------- matrices

class DistMatrix:
    """A sparse matrix cut into 1-D partitions over Dask workers.

    Two cuts of the same matrix serve the two products: row blocks ``A[r0:r1, :]`` (for
    ``mxv``: each partition computes its own slice of ``A ⊕.⊗ x``) and column blocks
    ``A[:, c0:c1]`` (for ``vxm``: each computes its slice of ``x ⊕.⊗ A``; its pull reads
    the block's own transpose, a row block of Aᵀ). Each is made on first use, from the
    source when it is at hand (the SciPy matrix, the worker-side function), else by an
    all-to-all exchange of the other cut's pieces. Each block is an ``sr.Matrix`` with its
    rows (or columns) numbered from 0; products call the engine on it.

    Build with :meth:`from_scipy` (SciPy or cupyx), :meth:`from_function` (each worker builds
    or loads the matrix itself and keeps its block), :meth:`from_edge_function` (each worker
    makes its chunks of the edge list: a graph larger than any one worker),
    :meth:`from_files` (Matrix Market or NumPy edge files read by the workers) or
    :meth:`from_dask_dataframe` (an edge list).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from semiring import dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> DA = dist.DistMatrix.from_scipy(sp.random(100, 100, density=0.05, format="csr"), client)
    >>> DA.nparts, DA.shape, DA.row_layout.bounds
    (2, (100, 100), (0, 50, 100))
    >>> client.close(); client.cluster.close()
    """

    #: lets algorithms.dispatch recognize a distributed matrix without importing dask
    is_distributed = True

    def __init__(self, shape, dtype, row_layout: Layout, col_layout: Layout, *, rows=None,
                 cols=None, source=None, nvals=None):
        self._shape = (int(shape[0]), int(shape[1]))
        self.dtype = np.dtype(dtype)
        self.row_layout, self.col_layout = row_layout, col_layout
        self._blocks = {"rows": rows, "cols": cols}
        self._source = source  # what block_from_source takes, or None
        self._nvals = nvals
        self._cache = {}
        self._servers = {}
        self._mesh = None

    # -------------------------------------------------------------- properties
    @property
    def shape(self):
        return self._shape

    @property
    def nrows(self) -> int:
        return self._shape[0]

    @property
    def ncols(self) -> int:
        return self._shape[1]

    @property
    def nparts(self) -> int:
        return self.row_layout.nparts

    @property
    def device(self) -> str:
        return self.row_layout.device

    @property
    def client(self):
        return self.row_layout.client

    @property
    def nvals(self) -> int:
        if self._nvals is None:
            blocks = self.blocks("rows")
            futs = self.row_layout.map(T.block_meta, lambda p: blocks[p])
            self._nvals = int(sum(m[2] for m in self.client.gather(futs)))
        return self._nvals

    def __repr__(self):
        return (f"<DistMatrix shape={self.shape}, dtype={self.dtype}, parts={self.nparts}, "
                f"device={self.device}>")

    def layout(self, kind: str) -> Layout:
        """The layout of the blocks of ``kind``: row blocks cut the rows, column blocks the
        columns."""
        return self.row_layout if kind == "rows" else self.col_layout

    def blocks(self, kind: str):
        """The futures of the row blocks (``'rows'``) or column blocks (``'cols'``), made on
        first use."""
        if kind not in KINDS:
            raise sr.InvalidValue(f"DistMatrix.blocks: kind must be one of {KINDS}, got {kind!r}")
        if self._blocks[kind] is None:
            L = self.layout(kind)
            if self._source is not None:
                src = self._source
                b = L.bounds
                if callable(src) and not isinstance(src, tuple):
                    self._blocks[kind] = L.map(T.block_from_source, lambda p: src,
                                               lambda p: kind, lambda p: b[p],
                                               lambda p: b[p + 1], lambda p: L.device)
                else:  # a host matrix on the client: send each worker its slice only
                    self._blocks[kind] = [
                        L.submit(p, T.block_from_source,
                                 L.client.scatter(_slice_host(src, kind, b[p], b[p + 1]),
                                                  workers=[L.workers[p]], hash=False),
                                 "rows", 0, _slice_rows(src, kind, b[p], b[p + 1]),
                                 L.device)
                        for p in range(L.nparts)]
            else:
                self._blocks[kind] = self._exchange(kind)
        return self._blocks[kind]

    def _exchange(self, kind):
        """The blocks of ``kind`` from those of the other kind: each block cut into pieces by
        the target partitions, every target gathering its pieces (an all-to-all)."""
        other = "cols" if kind == "rows" else "rows"
        src_blocks = self.blocks(other)
        Ls, Lt = self.layout(other), self.layout(kind)
        if Ls.nparts == 1 and Lt.nparts == 1:
            # one partition each way: the row block and the column block are both the whole
            # matrix (no copy, no pieces: the whole graph through the host was what killed
            # the workers of 2026-11-28's 4-GPU run, semiring.dist._client.GPU_WORKER_MEMORY)
            return list(src_blocks)
        cuts = [Ls.submit(p, T.block_pieces_by, src_blocks[p], Ls.bounds[p], other, Lt.bounds)
                for p in range(Ls.nparts)]
        out = []
        for q in range(Lt.nparts):
            pieces = [Ls.submit(p, T.piece, cuts[p], q) for p in range(Ls.nparts)]
            out.append(Lt.submit(q, T.block_of_pieces, kind, Lt.bounds[q], Lt.bounds[q + 1],
                                 self.nrows, self.ncols, None, self.dtype, Lt.device, *pieces))
        return out

    def servers(self, kind: str):
        """One :class:`semiring.dist._tasks.PartitionServer` actor per block of ``kind``, on
        the block's worker (made on first use, one round trip, then kept).

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> from semiring import dist
        >>> client = dist.local_cluster(1, processes=False)
        >>> DA = dist.DistMatrix.from_scipy(sp.identity(4, format="csr"), client)
        >>> len(DA.servers("rows"))
        1
        >>> client.close(); client.cluster.close()
        """
        if kind not in KINDS:
            raise sr.InvalidValue(f"DistMatrix.servers: kind must be one of {KINDS}, got "
                                  f"{kind!r}")
        if kind not in self._servers:
            blocks = self.blocks(kind)
            L = self.layout(kind)
            futs = [L.client.submit(T.PartitionServer, blocks[p], actor=True,
                                    workers=[L.workers[p]], allow_other_workers=False)
                    for p in range(L.nparts)]
            # an actor handle binds to the current client when it arrives: this one (with
            # several clients in one process, the default one may be another's)
            with L.client.as_current():
                self._servers[kind] = [f.result() for f in futs]
        return self._servers[kind]

    def call_direct(self, kind: str, p: int, fn, args=(), kwargs=None, *, keep=True,
                    finish=None):
        """``fn(block, *args, **kwargs)`` on block p of ``kind``, called on its worker
        directly (an actor's method: client -> worker, no scheduler): the one round trip a
        whole algorithm on one partition needs. ``keep``: the results (an ``sr.Vector`` or
        a tuple of them) stay on the worker and a list of :class:`Held` partitions comes
        back (made into futures on first use); else the results themselves. ``finish``: a
        ``(function, args)`` per result, the partition then being ``function(result, *args)``
        (made by the task that takes it, not in the call: e.g. a dense array into a Vector).

        Examples
        --------
        >>> import numpy as np, scipy.sparse as sp, semiring as sr
        >>> from semiring import dist
        >>> client = dist.local_cluster(1, processes=False)
        >>> DA = dist.DistMatrix.from_scipy(sp.identity(3, format="csr"), client)
        >>> (h,) = DA.call_direct("rows", 0, sr.reduce_rows)
        >>> dist.DistVector(DA.row_layout, [h], np.float64).to_dense().tolist()
        [1.0, 1.0, 1.0]
        >>> client.close(); client.cluster.close()
        """
        op = "DistMatrix.call_direct"
        if kind not in KINDS:
            raise sr.InvalidValue(f"{op}: kind must be one of {KINDS}, got {kind!r}")
        L = self.layout(kind)
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not 0 <= p < L.nparts:
            raise sr.InvalidIndex(f"{op}: p must be a partition in [0, {L.nparts}), got {p!r}")
        if not callable(fn):
            raise sr.DomainMismatch(f"{op}: fn must be callable, got {type(fn).__name__}")
        server = self.servers(kind)[p]
        token = uuid.uuid4().hex
        got = server.call(fn, tuple(args), dict(kwargs or {}), token, keep).result()
        if not keep:
            return got
        call = _Call()
        finish = finish or [None] * got
        held = [Held(L.client, L.workers[p], token, i, call, finish[i]) for i in range(got)]
        # the untaken results dropped on the worker once the client lets go of them all
        weakref.finalize(call, _drop_held, server, token, got, call.taken)
        return held

    def mesh(self, kinds=("cols",)):
        """The SPMD mesh over this matrix's partitions (:class:`semiring.dist._mesh.Mesh`):
        one rank per partition, in its worker's process, holding its blocks of ``kinds``,
        connected to every other rank and to the client (made on first use, a few round
        trips, then kept; blocks of more kinds are added when asked for). Square matrices
        only (the ranks cut rows and columns alike).

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> from semiring import dist
        >>> client = dist.local_cluster(2, processes=False)
        >>> DA = dist.DistMatrix.from_scipy(sp.identity(4, format="csr"), client)
        >>> DA.mesh().nparts
        2
        >>> client.close(); client.cluster.close()
        """
        from . import _mesh as MS  # noqa: PLC0415 (sockets and threads: only when used)

        op = "DistMatrix.mesh"
        if isinstance(kinds, str):
            kinds = (kinds,)
        for k in kinds:
            if k not in KINDS:
                raise sr.InvalidValue(f"{op}: kinds must be among {KINDS}, got {k!r}")
        if self.nrows != self.ncols:
            raise sr.DimensionMismatch(f"{op}: the mesh needs a square matrix, got shape "
                                       f"{self.shape}")
        if self._mesh is None or self._mesh.closed:
            self._mesh = MS.Mesh(self.row_layout, {k: self.blocks(k) for k in kinds})
            weakref.finalize(self, self._mesh.close)
        else:
            self._mesh.add_blocks({k: self.blocks(k) for k in kinds
                                   if k not in self._mesh.kinds})
        return self._mesh

    def call_spmd(self, fn, args=(), kwargs=None, *, kinds=("cols",), keep=True, finish=None,
                  dtypes=None):
        """``fn(rank, *args, **kwargs)`` on every partition's rank at once (the SPMD form:
        each rank runs the whole loop over its partition, exchanging with its peers through
        ``rank.allgather``; :class:`semiring.dist._mesh.Rank`). ``keep``: each rank returns
        a tuple of k local ``sr.Vector`` slices (or arrays made into them by ``finish``, one
        ``(function, args)`` per result), kept on its worker: k DistVectors come back
        (``dtypes``: their types). Else the list of the ranks' results.

        Examples
        --------
        >>> import numpy as np, scipy.sparse as sp
        >>> from semiring import dist
        >>> client = dist.local_cluster(2, processes=False)
        >>> DA = dist.DistMatrix.from_scipy(sp.identity(4, format="csr"), client)
        >>> DA.call_spmd(_rank_size, keep=False)
        [(0, 2), (1, 2)]
        >>> client.close(); client.cluster.close()
        """
        from . import _mesh as MS  # noqa: PLC0415 (sockets and threads: only when used)

        if not callable(fn):
            raise sr.DomainMismatch(f"DistMatrix.call_spmd: fn must be callable, got "
                                    f"{type(fn).__name__}")
        M = self.mesh(kinds)
        if not keep:
            return M.call(fn, args, kwargs, keep=False)
        token, counts = M.call(fn, args, kwargs, keep=True)
        k = counts[0]
        L = self.row_layout
        finish = finish or [None] * k
        out = []
        calls = []
        for p in range(L.nparts):
            call = _Call()
            calls.append(call)
            weakref.finalize(call, _drop_held, MS.RankDropper(M, p), MS.rank_token(token, p),
                             counts[p], call.taken)
        for i in range(k):
            held = [Held(L.client, L.workers[p], MS.rank_token(token, p), i, calls[p], finish[i])
                    for p in range(L.nparts)]
            dt = (dtypes or [np.float64] * k)[i]
            out.append(DistVector(L, held, dt))
        return out

    def persist(self, kinds=KINDS):
        """Build the blocks of ``kinds`` now and wait for them (for timing the products
        apart from the set-up)."""
        distributed = require_distributed()
        futs = [f for k in kinds for f in self.blocks(k)]
        distributed.wait(futs)
        for f in futs:
            if f.status == "error":
                f.result()  # raises the worker's error
        return self

    def degree(self, kind: str = "rows") -> DistVector:
        """Out-degree (entries per row: ``kind='rows'``) or in-degree (per column) of every
        vertex, int64, as a full DistVector over that layout."""
        key = ("degree", kind)
        if key not in self._cache:
            other = "cols" if kind == "rows" else "rows"
            L = self.layout(kind)
            if self._blocks[kind] is None and self._blocks[other] is not None:
                # from the blocks at hand: each one's counts over the whole dimension, cut by
                # the target partitions and summed there (a reduce-scatter)
                Ls, src = self.layout(other), self._blocks[other]
                cuts = [Ls.submit(p, T.counts_cut, src[p], other, L.bounds)
                        for p in range(Ls.nparts)]
                parts = []
                for q in range(L.nparts):
                    pieces = [Ls.submit(p, T.piece, cuts[p], q) for p in range(Ls.nparts)]
                    parts.append(L.submit(q, T.sum_pieces, *pieces))
                self._cache[key] = DistVector(L, parts, np.int64)
            else:
                blocks = self.blocks(kind)
                self._cache[key] = DistVector(
                    L, L.map(T.degree_block, lambda p: blocks[p], lambda p: kind), np.int64)
        return self._cache[key]

    # -------------------------------------------------------------- constructors
    @classmethod
    def _start(cls, client, shape, nparts, bounds, device):
        client = get_client(client)
        if device not in (None, "cpu", "gpu"):
            raise sr.InvalidValue(f"DistMatrix: device must be 'cpu', 'gpu' or None, got {device!r}")
        n_r, n_c = shape
        rl = make_layout(client, n_r, nparts, bounds, device)
        if n_r == n_c:
            cl = rl
        else:
            cl = make_layout(client, n_c, rl.nparts, None, device)
        return client, rl, cl

    @classmethod
    def _finish(cls, M: "DistMatrix", kind: str) -> "DistMatrix":
        """Learn the partitions' device (when left to the workers) and dtype from one block."""
        blocks = M.blocks(kind)
        dev, dt, _ = M.client.submit(T.block_meta, blocks[0], pure=False).result()
        if M.row_layout.device is None:
            M.row_layout = Layout(M.row_layout.client, M.row_layout.bounds,
                                  M.row_layout.workers, dev)
            M.col_layout = M.row_layout if M.nrows == M.ncols else Layout(
                M.col_layout.client, M.col_layout.bounds, M.col_layout.workers, dev)
        M.dtype = dt
        return M

    @classmethod
    def from_scipy(cls, S, client=None, *, nparts=None, bounds=None, device=None):
        """Cut a SciPy (or cupyx) sparse matrix into row blocks over the workers.

        Parameters
        ----------
        S : scipy.sparse or cupyx.scipy.sparse matrix (or an ``sr.Matrix``)
            Kept on the client (host memory) until the column blocks are made from it.
        client : distributed.Client, optional
            Default: the current client.
        nparts : int, optional
            Partitions (default: one per worker), placed round-robin on the workers.
        bounds : list of int, optional
            The cut points ``0 = b0 <= b1 <= ... = n`` instead of near-equal parts.
        device : {'cpu', 'gpu'}, optional
            Where the blocks live (default: each worker's default device).
        """
        op = "DistMatrix.from_scipy"
        if isinstance(S, sr.Matrix):
            S = S.to_scipy() if S.device == "cpu" else S.to_cupyx().get()
        if not hasattr(S, "tocsr") or not hasattr(S, "shape") or len(S.shape) != 2:
            raise sr.DomainMismatch(f"{op}: S must be a SciPy or cupyx sparse matrix, got "
                                    f"{type(S).__name__}")
        if type(S).__module__.startswith("cupyx"):
            S = S.get()
        S = S.tocsr()
        client, rl, cl = cls._start(client, S.shape, nparts, bounds, device)
        M = cls(S.shape, S.dtype, rl, cl, source=(S,), nvals=int(S.nnz))
        return cls._finish(M, "rows")

    @classmethod
    def from_function(cls, fn, shape, client=None, *, nparts=None, bounds=None, device=None,
                      kinds=("rows",)):
        """Each worker calls ``fn()`` (a SciPy/cupyx matrix or an ``sr.Matrix``; e.g. a graph
        generator run on the worker's GPU, or a loader of a file every worker sees) and keeps
        its own block; nothing travels but ``fn``. ``kinds`` says which cuts to make now
        (the others are made from ``fn`` again on first use). Every worker holds the whole
        matrix while it cuts: for a graph larger than one worker, :meth:`from_edge_function`."""
        if not callable(fn):
            raise sr.DomainMismatch(f"DistMatrix.from_function: fn must be callable, got "
                                    f"{type(fn).__name__}")
        client, rl, cl = cls._start(client, shape, nparts, bounds, device)
        M = cls(shape, np.float64, rl, cl, source=fn)
        for k in kinds:
            M.blocks(k)
        return cls._finish(M, kinds[0] if kinds else "rows")

    @classmethod
    def from_edge_function(cls, fn, shape, client=None, *, nchunks=None, nparts=None,
                           bounds=None, device=None, dtype=None, dup_op=None,
                           kinds=("rows",), replicate=False):
        """A matrix whose edge list is made in chunks on the workers: chunk ``i`` by
        ``fn(i, nchunks)`` on worker ``i mod W``, cut there by partition and sent to the
        blocks' workers; no worker makes, and the client never holds, the whole list
        (``replicate=True``: every block's worker makes every chunk and keeps its own
        entries, nothing sent).

        What a graph larger than one worker's memory needs (``from_function`` has every
        worker make the whole matrix): each worker holds its chunks' edges, their pieces and
        its blocks, O(edges / W) at any time (measured: 1.7-1.9 times a one-process build's
        peak, divided by W; ``bench/results/perf-history.md``).

        Parameters
        ----------
        fn : callable
            ``fn(i, nchunks) -> (src, dst)`` or ``(src, dst, weight)``: 1-D arrays (NumPy, or
            CuPy on a GPU worker) of one length, the entries of chunk ``i`` (e.g.
            ``bench.generators.kronecker_chunk``); called once per chunk, on the worker it
            is placed on. Any chunk may hold any edges; an edge in several chunks, or twice
            in one, is a duplicate.
        shape : (int, int)
        client : distributed.Client, optional
            Default: the current client.
        nchunks : int, optional
            Chunks (default: one per worker), placed round-robin on the workers.
        nparts, bounds, device
            As :meth:`from_scipy`.
        dtype : dtype, optional
            The weights' type (default: ``weight``'s; without weights, structure only).
        dup_op : str or BinaryOp, optional
            How duplicate entries combine (e.g. ``'min'``); without it they raise
            :class:`semiring.DuplicateIndices`.
        kinds : tuple of {'rows', 'cols'}
            The cuts made from the edges now (each chunk is cut once per kind); another is
            made from these on first use (an all-to-all of blocks).
        replicate : bool
            Each block's worker calls ``fn`` for every chunk itself and keeps the block's
            entries, one chunk at a time: no edge crosses between workers, for W times the
            generation. For a generator cheaper than moving its output: on 4 H200 kron-26's
            2.1e9 entries took 26.5 s to build through the pieces (device, host, Dask's TCP,
            host, device), where one GPU generates the whole of kron-26 in 4.8 s
            (``bench/results/20261128-dask_four_gpu_h200.md``).

        Examples
        --------
        >>> import numpy as np
        >>> from semiring import dist
        >>> client = dist.local_cluster(2, processes=False)
        >>> def ring(i, nchunks, n=8):  # chunk i of the edges k -> k + 1 (mod n)
        ...     k = np.arange(n * i // nchunks, n * (i + 1) // nchunks)
        ...     return k, (k + 1) % n, np.ones(k.size)
        >>> DA = dist.DistMatrix.from_edge_function(ring, (8, 8), client, nchunks=4)
        >>> DA.nparts, DA.nvals, DA.gather().to_dense(missing=0)[7].tolist()
        (2, 8, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
        >>> client.close(); client.cluster.close()
        """
        op = "DistMatrix.from_edge_function"
        if not callable(fn):
            raise sr.DomainMismatch(f"{op}: fn must be callable, got {type(fn).__name__}")
        _check_shape(shape, op)
        if isinstance(kinds, str):
            kinds = (kinds,)
        kinds = tuple(kinds)
        if not kinds or any(k not in KINDS for k in kinds) or len(set(kinds)) != len(kinds):
            raise sr.InvalidValue(f"{op}: kinds must be distinct names among {KINDS}, got "
                                  f"{kinds!r}")
        shape = (int(shape[0]), int(shape[1]))
        client, rl, cl = cls._start(client, shape, nparts, bounds, device)
        workers = _workers_of(client)
        if nchunks is None:
            nchunks = len(workers)
        if isinstance(nchunks, bool) or not isinstance(nchunks, (int, np.integer)) or nchunks < 1:
            raise sr.InvalidValue(f"{op}: nchunks must be a positive int, got {nchunks!r}")
        nchunks = int(nchunks)
        layouts = {"rows": rl, "cols": cl}
        distributed = require_distributed()
        if replicate:
            made = {k: [layouts[k].submit(q, T.block_of_chunks, fn, nchunks, k,
                                          layouts[k].bounds[q], layouts[k].bounds[q + 1],
                                          shape[0], shape[1], dup_op, dtype,
                                          layouts[k].device, op)
                        for q in range(layouts[k].nparts)] for k in kinds}
            futs = [f for k in kinds for f in made[k]]
            distributed.wait(futs)
            bad = next((f for f in futs if f.status == "error"), None)
            if bad is not None:  # a bad chunk raises here, with its own error
                bad.result()
            M = cls(shape, np.float64, rl, cl, rows=made.get("rows"), cols=made.get("cols"))
            return cls._finish(M, kinds[0])
        cuts = {k: layouts[k].bounds for k in kinds}
        chunks = [client.submit(T.edge_chunk_pieces, fn, i, nchunks, shape[0], shape[1], cuts,
                                op, workers=[workers[i % len(workers)]],
                                allow_other_workers=True, pure=False)
                  for i in range(nchunks)]
        distributed.wait(chunks)
        bad = next((f for f in chunks if f.status == "error"), None)
        if bad is not None:  # a bad chunk raises here (its own error), before any block is built
            bad.result()
        made = {}
        for k in kinds:
            L = layouts[k]
            made[k] = [L.submit(q, T.block_of_pieces, k, L.bounds[q], L.bounds[q + 1],
                                shape[0], shape[1], dup_op, dtype, L.device,
                                *(client.submit(T.kind_piece, c, k, q, pure=False)
                                  for c in chunks))
                       for q in range(L.nparts)]
        del chunks  # the chunks' pieces are released as the blocks that take them are made
        M = cls(shape, np.float64, rl, cl, rows=made.get("rows"), cols=made.get("cols"))
        return cls._finish(M, kinds[0])

    @classmethod
    def _from_edge_futures(cls, client, edge_futs, shape, nparts, bounds, device, dtype,
                           dup_op, op, extents=None):
        if shape is None and extents is not None:
            # each source's least shape (a Matrix Market file's header), the largest of them
            got = client.gather(extents)
            shape = (max((r for r, _ in got), default=0), max((c for _, c in got), default=0))
        elif shape is None:
            hi = max(client.gather([client.submit(T.edge_max, e, pure=False) for e in edge_futs]),
                     default=-1)
            shape = (hi + 1, hi + 1)
        shape = _check_shape(shape, op)
        client, rl, cl = cls._start(client, shape, nparts, bounds, device)
        checks = [client.submit(T.edge_check, e, None, shape[0], shape[1], op, pure=False)
                  for e in edge_futs]
        client.gather(checks)  # a bad index raises here, before any block is built
        cuts = [client.submit(T.split_edges, e, rl.bounds, "rows", pure=False) for e in edge_futs]
        # the list is the caller's, consumed: the raw edges are released once cut, before the
        # blocks are assembled (each worker then holds its pieces, not the edges as well)
        edge_futs.clear()
        rows = []
        for q in range(rl.nparts):
            pieces = [client.submit(T.piece, c, q, pure=False) for c in cuts]
            rows.append(rl.submit(q, T.block_of_pieces, "rows", rl.bounds[q], rl.bounds[q + 1],
                                  shape[0], shape[1], dup_op, dtype, rl.device, *pieces))
        M = cls(shape, np.float64, rl, cl, rows=rows)
        return cls._finish(M, "rows")

    @classmethod
    def from_dask_dataframe(cls, df, client=None, *, src="src", dst="dst", weight=None,
                            shape=None, nparts=None, bounds=None, device=None, dtype=None,
                            dup_op=None):
        """An edge list in a ``dask.dataframe`` (columns ``src``, ``dst`` and optionally
        ``weight``): each dataframe partition is cut by row block on its worker and the
        pieces gathered by the blocks' workers. ``shape`` defaults to (k, k), k one more than
        the largest vertex; duplicates raise unless ``dup_op`` combines them (e.g. 'min')."""
        op = "DistMatrix.from_dask_dataframe"
        client = get_client(client)
        cols = getattr(df, "columns", None)
        if cols is None or not hasattr(df, "to_delayed"):
            raise sr.DomainMismatch(f"{op}: df must be a dask.dataframe.DataFrame, got "
                                    f"{type(df).__name__}")
        for c in (src, dst) + (() if weight is None else (weight,)):
            if c not in cols:
                raise sr.InvalidValue(f"{op}: df has no column {c!r} (columns: {list(cols)})")
        frames = client.compute(df.to_delayed())
        edges = [client.submit(T.edges_of_frame, f, src, dst, weight, pure=False) for f in frames]
        return cls._from_edge_futures(client, edges, shape, nparts, bounds, device, dtype,
                                      dup_op, op)

    @classmethod
    def from_files(cls, paths, client=None, *, format=None, shape=None, nparts=None,
                   bounds=None, device=None, dtype=None, dup_op=None):
        """Edge files read by the workers themselves (file i by worker i mod W): Matrix
        Market (``.mtx``), ``.npy`` (an m × 2 or m × 3 array: src, dst[, weight]) or ``.npz``
        (arrays ``src``, ``dst`` and optionally ``weight``). Any file may hold any edges; they
        are cut by row block and gathered as in :meth:`from_dask_dataframe`."""
        op = "DistMatrix.from_files"
        client = get_client(client)
        if isinstance(paths, (str, bytes)) or not hasattr(paths, "__iter__"):
            paths = [paths]
        paths = [str(p) for p in paths]
        if not paths:
            raise sr.InvalidValue(f"{op}: paths is empty")
        fmts = []
        for p in paths:
            f = format or p.rsplit(".", 1)[-1].lower()
            if f not in ("mtx", "npy", "npz"):
                raise sr.InvalidValue(f"{op}: format must be 'mtx', 'npy' or 'npz', got {f!r} "
                                      f"for {p!r}")
            fmts.append(f)
        workers = _workers_of(client)
        edges = [client.submit(T.edges_of_file, p, f, workers=[workers[i % len(workers)]],
                               pure=False) for i, (p, f) in enumerate(zip(paths, fmts))]
        extents = None if shape is not None else [
            client.submit(T.edge_extent, e, p, f, workers=[workers[i % len(workers)]],
                          pure=False) for i, (e, p, f) in enumerate(zip(edges, paths, fmts))]
        return cls._from_edge_futures(client, edges, shape, nparts, bounds, device, dtype,
                                      dup_op, op, extents)

    def gather(self):
        """The whole matrix on the client as an ``sr.Matrix`` (small matrices: tests)."""
        blocks = self.blocks("rows")
        got = self.client.gather(blocks)
        rows, cols, vals, iso = [], [], [], all(B.is_iso for B in got)
        for lo, B in zip(self.row_layout.bounds[:-1], got):
            r, c, v = B.to_coo()
            rows.append(T._host(r) + lo)
            cols.append(T._host(c))
            vals.append(T._host(v))
        r, c = np.concatenate(rows), np.concatenate(cols)
        v = None if iso else np.concatenate(vals).astype(self.dtype)
        return sr.Matrix.from_coo(r, c, v, nrows=self.nrows, ncols=self.ncols, dtype=self.dtype,
                                  device=self.device)


def _check_shape(shape, op):
    """``shape`` as (nrows, ncols), two ints >= 0, or InvalidValue naming it."""
    if (not isinstance(shape, (tuple, list)) or len(shape) != 2
            or not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool)
                       and x >= 0 for x in shape)):
        raise sr.InvalidValue(f"{op}: shape must be (nrows, ncols), two ints >= 0, got "
                              f"{shape!r}")
    return int(shape[0]), int(shape[1])


def _drop_held(server, token, count, taken):
    """The results of a direct call that no task took, dropped on their worker."""
    left = [i for i in range(count) if i not in taken]
    if not left:
        return
    try:
        server.drop(token, left)
    except Exception:  # noqa: BLE001 (the client or the worker is gone: so is what was held)
        pass


def _rank_size(rank):
    """(rank, ranks): the simplest SPMD function (the example of call_spmd)."""
    return rank.rank, rank.size


def _slice_rows(src, kind, lo, hi):
    """Rows of the slice that _slice_host makes (all of them: it is the whole block)."""
    return (hi - lo) if kind == "rows" else src[0].shape[0]


def _slice_host(src, kind, lo, hi):
    S = src[0]
    if kind == "rows":
        return S[lo:hi]
    return S[:, lo:hi].tocsr()


def as_dist_vector(x, op: str, arg: str) -> DistVector:
    if not isinstance(x, DistVector):
        raise sr.DomainMismatch(f"{op}: {arg} must be a semiring.dist.DistVector, got "
                                f"{type(x).__name__}")
    return x
