"""Worker-to-worker channels of :mod:`semiring.dist`: the SPMD mesh.

A :class:`Mesh` gives every partition of a :class:`~semiring.dist.DistMatrix` a *rank*: an
endpoint in its worker's process (a listening TCP socket, a thread) that holds the rank's
blocks, with one TCP connection to each other rank and one to the client. The client sends a
command to every rank at once (``fn(rank, *args)``, pickled by cloudpickle, as Dask does);
each rank runs ``fn`` in its own thread, and the ranks exchange
what the algorithm needs among themselves (:meth:`Rank.allgather`, :meth:`Rank.allreduce`),
without the scheduler and without the client: a BFS is one command, whatever its depth,
and a level costs one all-gather among the workers.

Messages are pickle protocol 5 with out-of-band buffers (NumPy arrays travel as raw bytes,
not copied into the pickle). Ranks whose blocks are all on GPUs, one GPU each, exchange the
per-round vectors through NCCL instead (``cupy.cuda.nccl``: GPU to GPU, over NVLink where the
GPUs have it; the communicator's unique id travels over the mesh's TCP): see
:data:`EXCHANGE`. The rest (commands, results, the set-up's small all-reduces) stays on TCP.
Dask still places the partitions, builds the blocks
and holds the results (a rank's results stay on its worker, :data:`_tasks.HELD`, until a
task takes them into Dask's memory, as :meth:`DistMatrix.call_direct`'s do).

Errors: a rank whose command raises tells its peers (which raise too, rather than wait for
it) and the client, which closes the mesh; the next command builds a new one.

Security: a connection must first show the mesh's random key (sent to the ranks through
Dask), checked before anything it sends is unpickled; the sockets are plain TCP, without
Dask's TLS where the cluster uses it.
"""

from __future__ import annotations

import hmac
import os
import pickle
import secrets
import socket
import struct
import threading
import time
import traceback
import uuid
from concurrent.futures import ThreadPoolExecutor

import cloudpickle
import numpy as np

import semiring as sr

from . import _tasks as T

#: Seconds a rank waits for its peers to connect, and a receive for a peer's message, before
#: giving up (a peer that died: the command then fails rather than hangs).
CONNECT_TIMEOUT = 60.0
RECV_TIMEOUT = 600.0

#: How the ranks exchange the vectors of a round (read on the client at each command, sent
#: with it): 'auto' -- NCCL when every rank holds its blocks on a GPU of its own and
#: ``cupy.cuda.nccl`` loads on every rank, else host memory and TCP; 'tcp' -- always host
#: memory and TCP (the fallback, and the CPU ranks' only way); 'nccl' -- NCCL or an error.
#: The results are the same bits either way (the same slices, summed in the same order).
#: 'framed' sends the NCCL path's padded buffers over TCP instead (any ranks, CPU ones
#: too): how CI, without GPUs, tests that path's framing.
EXCHANGE = "auto"
EXCHANGES = ("auto", "tcp", "nccl", "framed")

_HEAD = struct.Struct("<QI")   # pickle length, count of out-of-band buffers
_ABORT = 0xFFFFFFFF            # a buffer count that says: the sender's command failed
#: A connection's first bytes: 'p' (a peer rank) or 'c' (the client), the mesh's key (32 hex
#: digits, made by the client and sent to the ranks through Dask), the peer's rank.
_HELLO = struct.Struct("<c32sI")


class PeerError(RuntimeError):
    """A peer rank's command failed (this rank stops waiting for it)."""


# ------------------------------------------------------------------------------ framing

def _frame(obj, dumps=pickle.dumps):
    """``obj`` as the byte chunks :func:`_send` writes (pickled now, sent later)."""
    bufs = []
    meta = dumps(obj, protocol=5, buffer_callback=bufs.append)
    raws = [b.raw() for b in bufs]
    head = _HEAD.pack(len(meta), len(raws)) + b"".join(struct.pack("<Q", r.nbytes) for r in raws)
    return [head + meta, *raws]


def _send_frame(sock, chunks):
    for c in chunks:
        sock.sendall(c)


def _send(sock, obj, dumps=pickle.dumps):
    _send_frame(sock, _frame(obj, dumps))


def _send_abort(sock):
    sock.sendall(_HEAD.pack(0, _ABORT))


def _recv_exact(sock, n):
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:])
        if k == 0:
            raise ConnectionError("semiring.dist mesh: connection closed")
        got += k
    return buf


def _recv(sock):
    size, nbuf = _HEAD.unpack(_recv_exact(sock, _HEAD.size))
    if nbuf == _ABORT:
        raise PeerError("semiring.dist mesh: a peer rank's command failed")
    lens = struct.unpack(f"<{nbuf}Q", _recv_exact(sock, 8 * nbuf)) if nbuf else ()
    meta = _recv_exact(sock, size)
    bufs = [_recv_exact(sock, k) for k in lens]
    return pickle.loads(meta, buffers=bufs)


def _nodelay(sock):
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else a


def _on(xp, a):
    """``a`` on ``xp``'s device (a copy when it is elsewhere): a rank's exchange buffers live
    on the rank's device whatever device the caller's vector is on."""
    return _host(a) if xp is np else xp.asarray(a)


def _padded(xp, a, m):
    """``a`` (1-D) in a contiguous buffer of length ``m >= a.size`` on ``xp``'s device (the
    tail unset: NCCL's all-gather takes one count from every rank)."""
    buf = xp.empty(m, dtype=a.dtype)
    buf[:a.size] = _on(xp, a)
    return buf


def _is_scalar_array(x) -> bool:
    """A 0-d NumPy or CuPy array (a reduction's result left where it was computed)."""
    return (isinstance(x, np.ndarray) or sr.is_gpu_array(x)) and x.ndim == 0


def _host_extra(extra):
    """``extra`` with its 0-d arrays read into Python numbers (a CuPy one: a host sync)."""
    if isinstance(extra, tuple):
        return tuple(_host_extra(x) for x in extra)
    return extra.item() if _is_scalar_array(extra) else extra


def _pack_extra(extra):
    """A gather's ``extra`` (None, a number, or a tuple of numbers) as int64 bit patterns
    (floats' bits as they are: exact) and its shape, to travel through NCCL with the counts;
    None for anything else (that gather then goes over TCP, on every rank alike). A number
    may be a 0-d array of bools, integers (read as int64) or floats: its bit pattern stays
    a 0-d array on its device (:func:`_head_row` places it without a host read)."""
    items = () if extra is None else extra if isinstance(extra, tuple) else (extra,)
    bits, kinds = [], []
    for x in items:
        if _is_scalar_array(x) and x.dtype.kind in "biuf":
            k = x.dtype.kind
            if k == "f":
                bits.append(x.astype(np.float64).reshape(1).view(np.int64).reshape(()))
            else:
                bits.append(x.astype(np.int64))
            kinds.append("b" if k == "b" else "f" if k == "f" else "i")
        elif isinstance(x, (bool, np.bool_)):
            bits.append(int(bool(x)))
            kinds.append("b")
        elif isinstance(x, (int, np.integer)):
            if not -2**63 <= int(x) < 2**63:
                return None
            bits.append(int(x))
            kinds.append("i")
        elif isinstance(x, (float, np.floating)):
            bits.append(int(np.array(float(x), dtype=np.float64).view(np.int64)))
            kinds.append("f")
        else:
            return None
    shape = None if extra is None else ("t" if isinstance(extra, tuple) else "s", kinds)
    return bits, shape


def _head_row(xp, values):
    """The int64 row ``values`` (Python ints and 0-d int64 arrays) on ``xp``'s device: the
    ints in one copy, the arrays placed there on the device (no read back to the host)."""
    row = xp.asarray(np.array([0 if _is_scalar_array(b) else b for b in values],
                              dtype=np.int64))
    for k, b in enumerate(values):
        if _is_scalar_array(b):
            row[k] = _host(b) if xp is np else b
    return row


def _unpack_extra(bits, shape):
    """The ``extra`` of :func:`_pack_extra`'s ``bits`` (an int64 row) and ``shape``."""
    if shape is None:
        return None
    form, kinds = shape
    vals = []
    for b, k in zip(bits, kinds):
        if k == "b":
            vals.append(bool(b))
        elif k == "i":
            vals.append(int(b))
        else:
            vals.append(float(np.array(b, dtype=np.int64).view(np.float64)))
    return tuple(vals) if form == "t" else vals[0]


# ------------------------------------------------------------------------------ the rank

class Rank:
    """One partition's side of the mesh, in its worker's process: what an SPMD function
    ``fn(rank, *args)`` gets.

    Attributes: ``rank`` (the partition), ``size`` (the ranks), ``bounds`` (the cut points:
    this rank owns ``lo = bounds[rank]`` to ``hi = bounds[rank + 1]``), ``n`` (the whole
    dimension), ``device`` ('cpu' or 'gpu'); :meth:`block` gives the rank's block of a kind
    ('rows': rows lo:hi of the matrix, 'cols': its columns lo:hi).
    """

    def __init__(self, key, rank, size, bounds, host):
        self.key, self.rank, self.size = key, int(rank), int(size)
        self.bounds = tuple(int(b) for b in bounds)
        self.lo, self.hi = self.bounds[self.rank], self.bounds[self.rank + 1]
        self.n = self.bounds[-1]
        self.blocks = {}
        self.peers = {}
        self._ready = threading.Condition()
        self._listener = socket.create_server((host, 0))
        self.address = (host, self._listener.getsockname()[1])
        self._sender = ThreadPoolExecutor(max(1, self.size - 1),
                                          thread_name_prefix="semiring-mesh-send")
        self._closed = False
        #: the NCCL communicator among the ranks (made at the first command that asks for it;
        #: None: not made, or not possible, ``_nccl_why`` says why) and the exchange of the
        #: current command ('nccl' or 'tcp')
        self._nccl, self._nccl_why, self.exchange = None, None, "tcp"
        #: values derived from the blocks alone, kept for the mesh's life (the blocks do not
        #: change): e.g. the out-degrees, an all-reduce over every rank
        self.memo = {}
        #: all-gathers made and seconds spent in them (sending, waiting for the slowest peer,
        #: receiving): what a round costs beyond the rank's own work
        self.exchanges, self.exchange_s = 0, 0.0
        #: device allocations the peers map (:meth:`peer_memory`), by name
        self._peer_mem = {}
        threading.Thread(target=self._accept, name="semiring-mesh-accept", daemon=True).start()

    @property
    def device(self):
        for B in self.blocks.values():
            return B.device
        return "cpu"

    def block(self, kind):
        """This rank's block of ``kind`` ('rows' or 'cols'), an ``sr.Matrix``."""
        return self.blocks[kind]

    # -------------------------------------------------------------- connections
    def _accept(self):
        while not self._closed:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            _nodelay(conn)
            try:  # the hello is raw bytes, checked before anything is unpickled
                conn.settimeout(CONNECT_TIMEOUT)
                kind, key, peer = _HELLO.unpack(_recv_exact(conn, _HELLO.size))
                conn.settimeout(None)
            except (OSError, ConnectionError, struct.error):
                conn.close()
                continue
            if not hmac.compare_digest(key, self.key.encode()):
                conn.close()  # not one of this mesh's: only holders of its key may call
                continue
            if kind == b"p":
                with self._ready:
                    self.peers[int(peer)] = conn
                    self._ready.notify_all()
            elif kind == b"c":
                threading.Thread(target=self._serve, args=(conn,), daemon=True,
                                 name="semiring-mesh-serve").start()
            else:
                conn.close()

    def connect(self, addresses):
        """Connect to the ranks above this one (those below connect to this one)."""
        for j in range(self.rank + 1, self.size):
            s = _nodelay(socket.create_connection(tuple(addresses[j]), timeout=CONNECT_TIMEOUT))
            s.settimeout(None)
            s.sendall(_HELLO.pack(b"p", self.key.encode(), self.rank))
            with self._ready:
                self.peers[j] = s

    def _wait_peers(self):
        with self._ready:
            ok = self._ready.wait_for(lambda: len(self.peers) == self.size - 1,
                                      timeout=CONNECT_TIMEOUT)
        if not ok:
            raise PeerError(f"semiring.dist mesh: rank {self.rank} has {len(self.peers)} of "
                            f"{self.size - 1} peers after {CONNECT_TIMEOUT} s")
        for s in self.peers.values():
            s.settimeout(RECV_TIMEOUT)

    # -------------------------------------------------------------- collectives
    def allgather(self, obj):
        """Every rank's ``obj``, in rank order (this rank's own included, not copied): the
        exchange under every collective. NumPy arrays travel as raw bytes; pass host arrays."""
        if self.size == 1:
            return [obj]
        t = time.perf_counter()
        sends = [self._sender.submit(_send, self.peers[j], obj) for j in sorted(self.peers)]
        out = [None] * self.size
        out[self.rank] = obj
        for j in sorted(self.peers):
            out[j] = _recv(self.peers[j])
        for f in sends:
            f.result()
        self.exchanges += 1
        self.exchange_s += time.perf_counter() - t
        return out

    def allreduce(self, value, op="plus"):
        """``op`` (a monoid's name: plus, min, max, lor, land) of every rank's ``value`` (a
        scalar, or an array of one shape on every rank: NumPy, or CuPy and the result then on
        the GPU), folded in rank order, so that every rank gets the same bits."""
        fold = {"plus": lambda a, b: a + b, "min": np.minimum, "max": np.maximum,
                "lor": np.logical_or, "land": np.logical_and}[op]
        on_gpu = sr.is_gpu_array(value)
        if self.exchange != "tcp" and (on_gpu or isinstance(value, np.ndarray)) and value.ndim:
            got = self._nccl_gather_equal(value)          # (P, ...) on the rank's device
            acc = got[0]
            for p in range(1, self.size):
                acc = fold(acc, got[p])
            return sr.to_device(acc, "gpu" if on_gpu else "cpu")  # where the value was
        got = self.allgather(_host(value))
        acc = got[0]
        for g in got[1:]:
            acc = fold(acc, g)
        return sr.array_module("gpu").asarray(acc) if on_gpu else acc

    def gather_slices(self, v, extra=None):
        """Every rank's slice ``v`` (an ``sr.Vector`` of size ``hi - lo``) and ``extra`` (a
        small picklable value: the rank's share of a reduction), in one all-gather: a
        :class:`Gathered` (``.extras`` in rank order; ``.vector(form)`` the whole vector).
        A slice travels as its index list or as its bitmap, whichever is smaller."""
        n_p = self.hi - self.lo
        if self.size == 1:
            return Gathered(self, v.dtype, v.xp, v.device, [_host_extra(extra)], [None], v)
        if self.exchange != "tcp":
            packed = _pack_extra(extra)
            if packed is not None:
                return self._nccl_gather_slices(v, extra, packed)
        extra = _host_extra(extra)
        if v.nvals * 8 < n_p or (v.form == "sparse" and v.nvals * 8 < 4 * n_p):
            i, x = v.sparse(sorted=False)
            msg = ("s", _host(i).astype(np.int32 if self.n < 2**31 else np.int64), _host(x))
        else:
            x, pr = v.bitmap()
            msg = ("b", _host(x), None if pr is None else _host(pr))
        got = self.allgather((msg, extra))
        return Gathered(self, v.dtype, v.xp, v.device, [g[1] for g in got],
                        [g[0] for g in got], None)

    def allgather_vector(self, v, form="sparse"):
        """The whole vector (size ``n``) from every rank's slice ``v``, in ``form``
        ('sparse' or 'bitmap')."""
        return self.gather_slices(v).vector(form)

    def allgather_dense(self, a):
        """The whole dense array (length ``n``) from every rank's slice ``a`` (length
        ``hi - lo``; a NumPy or CuPy array, the result on the same device)."""
        if self.size == 1:
            return a
        if self.exchange != "tcp":
            return sr.to_device(self._nccl_concat(a), sr.device_of(a))
        whole = np.concatenate(self.allgather(_host(a)))
        return whole if isinstance(a, np.ndarray) else sr.array_module("gpu").asarray(whole)

    # -------------------------------------------------------------- NCCL
    def _use_exchange(self, mode):
        """(Collective: every rank, the same ``mode``, at the start of a command.) Set
        :attr:`exchange` for this command, making the NCCL communicator the first time."""
        if mode not in EXCHANGES:
            raise sr.InvalidValue(f"semiring.dist mesh: exchange must be one of {EXCHANGES}, "
                                  f"got {mode!r}")
        self.exchange = "tcp"
        if mode == "tcp" or self.size == 1:
            return
        if mode == "framed":
            self.exchange = "framed"
            return
        if self._nccl is None and self._nccl_why is None:
            self._nccl_why = self._make_nccl()
        if self._nccl is not None:
            self.exchange = "nccl"
        elif mode == "nccl":
            raise sr.BackendUnavailable(f"semiring.dist mesh: exchange='nccl' but NCCL cannot "
                                        f"join the ranks: {self._nccl_why}")

    def _make_nccl(self):
        """The NCCL communicator of the ranks, when every rank is on a GPU of its own and
        NCCL loads everywhere (the same decision on every rank: each one's answer is
        all-gathered over TCP); None when made, else the reason it was not."""
        why, bus, uid = None, None, None
        if self.device != "gpu":
            why = f"rank {self.rank} holds its blocks on the CPU"
        else:
            try:
                import cupy  # noqa: PLC0415 (GPU ranks only)
                from cupy.cuda import nccl  # noqa: PLC0415 (GPU ranks only)

                if not nccl.available:
                    why = f"rank {self.rank}: cupy.cuda.nccl did not load libnccl"
                else:
                    bus = cupy.cuda.Device().pci_bus_id
                    if self.rank == 0:
                        uid = nccl.get_unique_id()
            except Exception as err:  # noqa: BLE001 (any failure: the TCP exchange stays)
                why = f"rank {self.rank}: {err!r}"
        got = self.allgather((why, bus, uid))
        whys = [g[0] for g in got if g[0] is not None]
        if whys:
            return whys[0]
        buses = [g[1] for g in got]
        if len(set(buses)) < self.size:
            # NCCL takes one rank per GPU (two workers sharing a GPU: the tests' layout)
            return f"ranks share a GPU (PCI bus ids {buses})"
        err = None
        # NVLink multicast (NVLS) off unless the caller chose: on shared multi-GPU hosts a
        # program using it can take the host's GPUs out of service (local_cluster's workers
        # set it too; this covers a cluster started elsewhere)
        os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
        try:
            comm = nccl.NcclCommunicator(self.size, got[0][2], self.rank)
        except Exception as e:  # noqa: BLE001 (said to every rank below)
            comm, err = None, f"rank {self.rank}: {e!r}"
        errs = [e for e in self.allgather(err) if e is not None]
        if errs:
            if comm is not None:
                comm.abort()
            return errs[0]
        self._nccl, self._nccl_mod = comm, nccl
        return None

    def _xp(self):
        return sr.array_module(self.device)

    def _nccl_allgather_bytes(self, sends):
        """One NCCL all-gather per array of ``sends`` (contiguous uint8 arrays on the rank's
        device, each of one size on every rank), in one NCCL group; the received arrays (P
        times the bytes, rank order), uint8. ('framed': the same buffers over TCP.)"""
        if self.exchange == "framed":
            got = self.allgather([_host(a) for a in sends])
            return [self._xp().asarray(np.concatenate([g[k] for g in got]))
                    for k in range(len(sends))]
        import cupy  # noqa: PLC0415 (GPU ranks only)

        nccl = self._nccl_mod
        stream = cupy.cuda.get_current_stream().ptr
        recvs = [cupy.empty(self.size * a.nbytes, dtype=cupy.uint8) for a in sends]
        live = [(a, r) for a, r in zip(sends, recvs) if a.nbytes]
        if live:
            nccl.groupStart()
            for a, r in live:
                self._nccl.allGather(a.data.ptr, r.data.ptr, a.nbytes, nccl.NCCL_UINT8, stream)
            nccl.groupEnd()
        return recvs

    def _nccl_gather_equal(self, a):
        """Every rank's array ``a`` (one shape and type on every rank, on the rank's
        device), stacked in rank order: shape (P, *a.shape), on this rank's device."""
        xp = self._xp()
        t = time.perf_counter()
        a = xp.ascontiguousarray(xp.asarray(a))
        (r,) = self._nccl_allgather_bytes([a.reshape(-1).view(np.uint8)])
        out = r.view(a.dtype).reshape((self.size, *a.shape))
        self.exchanges += 1
        self.exchange_s += time.perf_counter() - t
        return out

    def _nccl_concat(self, a):
        """The whole array from every rank's slice (length ``hi - lo``, on the rank's
        device), on the device: the slices padded to the longest, all-gathered, cut out
        again."""
        xp = self._xp()
        t = time.perf_counter()
        a = xp.asarray(a)
        sizes = np.diff(self.bounds)
        m = int(sizes.max())
        buf = _padded(xp, a, m)
        (r,) = self._nccl_allgather_bytes([buf.view(np.uint8)])
        r = r.view(a.dtype)
        whole = r if (sizes == m).all() else xp.concatenate(
            [r[p * m:p * m + int(sizes[p])] for p in range(self.size)])
        self.exchanges += 1
        self.exchange_s += time.perf_counter() - t
        return whole

    def _nccl_gather_slices(self, v, extra, packed):
        """:meth:`gather_slices` through NCCL: first the counts and extras (one small
        all-gather, read on the host: it sets the sizes of the next), then the slices, all
        padded to the largest, as index lists or as bitmaps, whichever moves fewer bytes."""
        xp = self._xp()
        t = time.perf_counter()
        bits, shape = packed
        P = self.size
        head = _head_row(xp, [v.nvals, *bits])
        (r,) = self._nccl_allgather_bytes([head.view(np.uint8)])
        heads = _host(r.view(np.int64).reshape(P, -1))
        counts = heads[:, 0]
        extras = [_unpack_extra(h[1:], shape) for h in heads]
        sizes = np.diff(self.bounds)
        full = counts == sizes
        dt = np.dtype(v.dtype)
        ityp = np.dtype(np.int32 if self.n < 2**31 else np.int64)
        kmax, nmax = int(counts.max()), int(sizes.max())
        pres_bytes = 0 if full.all() else nmax
        if kmax * (ityp.itemsize + dt.itemsize) < nmax * dt.itemsize + pres_bytes:
            i, x = v.sparse(sorted=False)
            ri, rx = self._nccl_allgather_bytes([
                _padded(xp, i.astype(ityp, copy=False), kmax).view(np.uint8),
                _padded(xp, x.astype(dt, copy=False), kmax).view(np.uint8)])
            ri, rx = ri.view(ityp), rx.view(dt)
            msgs = [("s", ri[p * kmax:p * kmax + int(counts[p])],
                     rx[p * kmax:p * kmax + int(counts[p])]) for p in range(P)]
        else:
            x, pr = v.bitmap()
            sends = [_padded(xp, x.astype(dt, copy=False), nmax).view(np.uint8)]
            if pres_bytes:
                pr = xp.ones(x.size, dtype=bool) if pr is None else pr
                sends.append(_padded(xp, pr, nmax).view(np.uint8))
            got = self._nccl_allgather_bytes(sends)
            rx = got[0].view(dt)
            rp = got[1].view(bool) if pres_bytes else None
            if (sizes == nmax).all():
                # slices of one length (even cuts): the received buffers are the whole vector
                self.exchanges += 1
                self.exchange_s += time.perf_counter() - t
                whole = sr.Vector.from_bitmap(sr.to_device(rx, v.device),
                                              sr.to_device(rp, v.device), device=v.device)
                return Gathered(self, v.dtype, v.xp, v.device, extras, None, whole, module=xp)
            msgs = [("b", rx[p * nmax:p * nmax + int(sizes[p])],
                     None if full[p] else rp[p * nmax:p * nmax + int(sizes[p])])
                    for p in range(P)]
        self.exchanges += 1
        self.exchange_s += time.perf_counter() - t
        return Gathered(self, v.dtype, v.xp, v.device, extras, msgs, None, module=xp)

    # -------------------------------------------------------------- peer memory
    def peer_memory(self, name, nbytes):
        """(Collective: every rank, the same ``name`` and ``nbytes``.) A device allocation of
        ``nbytes`` on this rank's GPU, zeroed, that every other rank maps into its own
        process (CUDA IPC: each rank's handle is exchanged over the mesh's TCP, as NCCL's id
        is), for kernels that read and write their peers' memory directly. Returns
        ``(pointers, None)``, the allocations' addresses in this process in rank order (this
        rank's own at :attr:`rank`), or ``(None, why)`` on every rank alike where it cannot be
        made: a rank on the CPU, ranks on different hosts or sharing a GPU, a pair of GPUs
        without peer access, a handle that does not open. Kept under ``name`` for the mesh's
        life (a second call returns the same); :meth:`close` closes the mapped handles and
        frees the allocation.

        The allocation is ``cudaMalloc``'s own (not CuPy's pool, which sub-allocates: a
        handle maps a whole allocation, from its base). Ranks of one process (threads) share
        pointers directly, with peer access enabled between their GPUs."""
        kept = self._peer_mem.get(name)
        if kept is not None:
            return kept["pointers"], None
        why, mine, dev, bus, handle = None, None, None, None, None
        if self.device != "gpu":
            why = f"rank {self.rank} holds its blocks on the CPU"
        else:
            try:
                import cupy  # noqa: PLC0415 (GPU ranks only)

                rt = cupy.cuda.runtime
                dev = cupy.cuda.Device().id
                bus = cupy.cuda.Device(dev).pci_bus_id
                mine = rt.malloc(max(int(nbytes), 1))
                rt.memset(mine, 0, max(int(nbytes), 1))
                rt.deviceSynchronize()  # zero before any peer's kernel may write into it
                handle = rt.ipcGetMemHandle(mine)
            except Exception as err:  # noqa: BLE001 (any failure: said to every rank)
                why = f"rank {self.rank}: {err!r}"
        got = self.allgather((why, socket.gethostname(), os.getpid(), bus, handle, mine))
        whys = [g[0] for g in got if g[0] is not None]
        hosts = {g[1] for g in got}
        buses = [g[3] for g in got]
        if not whys and len(hosts) > 1:
            whys = [f"the ranks are on different hosts ({sorted(hosts)})"]
        if not whys and len(set(buses)) < self.size:
            whys = [f"ranks share a GPU (PCI bus ids {buses})"]
        pointers, opened, why = [None] * self.size, [], None
        if not whys:
            pointers[self.rank] = mine
            try:
                import cupy  # noqa: PLC0415 (GPU ranks only)

                rt = cupy.cuda.runtime
                local = {cupy.cuda.Device(d).pci_bus_id: d for d in range(rt.getDeviceCount())}
                for q, (_, _, pid, qbus, qhandle, qptr) in enumerate(got):
                    if q == self.rank:
                        continue
                    qdev = local.get(qbus)
                    if qdev is not None and not rt.deviceCanAccessPeer(dev, qdev):
                        why = (f"rank {self.rank}: GPU {bus} cannot access rank {q}'s GPU {qbus} "
                               f"(no peer access)")
                        break
                    if pid == os.getpid():
                        # one process: its pointers are valid here (unified addressing); a
                        # process cannot open its own handle
                        try:
                            rt.deviceEnablePeerAccess(qdev)
                        except rt.CUDARuntimeError as err:
                            if "AlreadyEnabled" not in str(err) and "704" not in str(err):
                                raise
                        pointers[q] = qptr
                    else:
                        # the peer's GPU may be hidden here (CUDA_VISIBLE_DEVICES lists the
                        # worker's own): opening the handle is then the test of access
                        # (CuPy's default flag: cudaIpcMemLazyEnablePeerAccess)
                        pointers[q] = rt.ipcOpenMemHandle(qhandle)
                        opened.append(pointers[q])
            except Exception as err:  # noqa: BLE001 (said to every rank below)
                why = f"rank {self.rank}: {err!r}"
            whys = [w for w in self.allgather(why) if w is not None]
        entry = {"device": dev, "own": mine, "opened": opened, "pointers": pointers}
        if whys:
            self._release_peer(entry)
            return None, whys[0]
        self._peer_mem[name] = entry
        return pointers, None

    @staticmethod
    def _release_peer(entry):
        """Close the mapped handles of a peer-memory entry, then free its allocation (each
        rank's kernels have ended: commands synchronize before they reply, and :meth:`close`
        synchronizes first)."""
        if entry["own"] is None:
            return
        try:
            import cupy  # noqa: PLC0415 (GPU ranks only)

            rt = cupy.cuda.runtime
            with cupy.cuda.Device(entry["device"]):
                rt.deviceSynchronize()
                for p in entry["opened"]:
                    rt.ipcCloseMemHandle(p)
                rt.free(entry["own"])
        except Exception:  # noqa: BLE001 (closing: nothing left to tell)
            pass
        entry["own"], entry["opened"] = None, []

    # -------------------------------------------------------------- commands
    def _abort_peers(self):
        for s in self.peers.values():
            try:
                _send_abort(s)
            except OSError:
                pass

    def _serve(self, conn):
        """The client's commands, one at a time: ('call', token, fn, args, kwargs, keep,
        drops, exchange) or ('close',)."""
        while True:
            try:
                cmd = _recv(conn)
            except (OSError, ConnectionError, EOFError):
                self.close()
                return
            if cmd[0] == "close":
                self.close()
                conn.close()
                return
            try:
                _, token, fn, args, kwargs, keep, drops, exchange = cmd
                for t, i in drops:
                    T.HELD.pop((t, i), None)
                if self.size > 1:
                    self._wait_peers()
                try:
                    self._use_exchange(exchange)
                    out = fn(self, *args, **kwargs)
                    if self.device == "gpu":
                        # the reply says done: the results' kernels have run (a loop with no
                        # host read at its end, CC's, would reply while they still run, and a
                        # call's time would miss them)
                        import cupy  # noqa: PLC0415 (GPU ranks only)
                        cupy.cuda.get_current_stream().synchronize()
                except BaseException:
                    self._abort_peers()
                    raise
                if keep:
                    outs = out if isinstance(out, tuple) else (out,)
                    for i, o in enumerate(outs):
                        T.HELD[(token, i)] = o
                    out = len(outs)
                reply = ("ok", out)
            except BaseException as err:  # noqa: BLE001 (sent to the client, raised there)
                try:
                    pickle.dumps(err)
                    reply = ("err", err, traceback.format_exc())
                except Exception:  # noqa: BLE001 (an error that does not pickle: its text)
                    reply = ("err", RuntimeError(repr(err)), traceback.format_exc())
            try:
                _send(conn, reply)
            except OSError:
                self.close()
                return

    def close(self):
        if self._closed:
            return
        self._closed = True
        RANKS.pop((self.key, self.rank), None)
        if self._nccl is not None:
            try:  # abort: local to this rank (a destroy may wait for its peers)
                self._nccl.abort()
            except Exception:  # noqa: BLE001 (closing: nothing left to tell)
                pass
            self._nccl = None
        for entry in self._peer_mem.values():
            self._release_peer(entry)
        self._peer_mem = {}
        for s in (*self.peers.values(), self._listener):
            try:
                s.close()
            except OSError:
                pass
        self._sender.shutdown(wait=False)


class Gathered:
    """The slices of a vector from every rank (:meth:`Rank.gather_slices`)."""

    def __init__(self, rank, dtype, xp, device, extras, msgs, whole, module=np):
        self.rank, self.dtype, self.xp, self.device = rank, dtype, xp, device
        self.extras, self.msgs, self.whole = extras, msgs, whole
        #: where the slices are: NumPy (received over TCP) or CuPy (through NCCL)
        self.am = module

    def vector(self, form="sparse"):
        """The whole vector, as an ``sr.Vector`` of ``form`` on the device of the slices
        gathered (the rank's device, or the host for host slices)."""
        if self.whole is not None:
            return self.whole.to_form(form)
        R, dt, am = self.rank, self.dtype, self.am
        spans = list(zip(R.bounds[:-1], R.bounds[1:], self.msgs))
        if form == "sparse":
            idx, vals = [], []
            for lo, hi, (f, a, b) in spans:
                if f == "s":
                    idx.append(a.astype(np.int64) + lo)
                    vals.append(b)
                else:
                    k = am.arange(hi - lo, dtype=np.int64) if b is None else am.flatnonzero(b)
                    idx.append(k + lo)
                    vals.append(a if b is None else a[k])
            # on the vector's device (received on the rank's: they differ for a host vector
            # gathered by GPU ranks through NCCL)
            i = sr.to_device(am.concatenate(idx), self.device)
            x = sr.to_device(am.concatenate(vals).astype(dt, copy=False), self.device)
            # unique by construction (each slice a Vector's own indices, the slices' ranges
            # disjoint): the Vector as from_coo(sort=False) makes it, without its range and
            # duplicate checks (a count over all n, two host reads: every round)
            return sr.Vector(R.n, dt, self.device, indices=i, svalues=x, jumbled=True)
        vals = am.zeros(R.n, dtype=dt)
        pres = am.zeros(R.n, dtype=bool)
        full = True
        for lo, hi, (f, a, b) in spans:
            if f == "s":
                vals[lo + a] = b
                pres[lo + a] = True
                full = full and a.size == hi - lo
            else:
                vals[lo:hi] = a
                pres[lo:hi] = True if b is None else b
                full = full and b is None
        return sr.Vector.from_bitmap(sr.to_device(vals, self.device),
                                     None if full else sr.to_device(pres, self.device),
                                     device=self.device)


#: The ranks living in this process: (mesh key, rank) -> Rank.
RANKS: dict = {}


def start_rank(key, rank, size, bounds, blocks):
    """(Task, on the partition's worker.) Open rank ``rank``'s endpoint holding ``blocks``
    ({kind: block}); its address."""
    import distributed  # noqa: PLC0415 (on a worker: the optional extra is there)

    addr = distributed.get_worker().address
    proto, _, rest = addr.partition("://")
    # the worker's own host for TCP workers; threads of one process (inproc://): loopback
    host = rest.rsplit(":", 1)[0].strip("[]") if proto in ("tcp", "tls") else "127.0.0.1"
    R = Rank(key, rank, size, bounds, host)
    R.blocks.update(blocks)
    RANKS[(key, rank)] = R
    return R.address


def connect_rank(key, rank, addresses):
    """(Task.) Rank ``rank`` connects to the ranks above it."""
    RANKS[(key, rank)].connect(addresses)
    return True


# ------------------------------------------------------------------------------ the client

class MeshError(RuntimeError):
    """A rank's command failed; the error itself is the cause."""


class Mesh:
    """The client's handle on the ranks of one layout (one per partition): :meth:`call`
    runs a function on every rank at once. Made by :meth:`DistMatrix.mesh`."""

    def __init__(self, layout, blocks):
        self.layout = layout
        self.key = secrets.token_hex(16)  # 32 hex digits: what a connection must show
        self.kinds = set(blocks)
        self.closed = False
        self._lock = threading.Lock()
        self._drops = [[] for _ in range(layout.nparts)]
        L, client, P = layout, layout.client, layout.nparts
        futs = [client.submit(start_rank, self.key, p, P, L.bounds,
                              {k: blocks[k][p] for k in blocks}, workers=[L.workers[p]],
                              allow_other_workers=False, pure=False) for p in range(P)]
        addresses = client.gather(futs)
        client.gather([client.submit(connect_rank, self.key, p, addresses,
                                     workers=[L.workers[p]], allow_other_workers=False,
                                     pure=False) for p in range(P)])
        self.socks = []
        for a in addresses:
            s = _nodelay(socket.create_connection(tuple(a), timeout=CONNECT_TIMEOUT))
            s.settimeout(None)
            s.sendall(_HELLO.pack(b"c", self.key.encode(), 0))
            self.socks.append(s)

    @property
    def nparts(self):
        return self.layout.nparts

    def add_blocks(self, blocks):
        """Give the ranks more blocks ({kind: [future per partition]}): each rank's block
        travels from Dask's memory on its worker to the rank (a task per partition)."""
        new = {k: v for k, v in blocks.items() if k not in self.kinds}
        if not new:
            return
        L = self.layout
        futs = [L.client.submit(_give_blocks, self.key, p, {k: new[k][p] for k in new},
                                workers=[L.workers[p]], allow_other_workers=False, pure=False)
                for p in range(L.nparts)]
        L.client.gather(futs)
        self.kinds |= set(new)

    def call(self, fn, args=(), kwargs=None, *, keep=False):
        """``fn(rank, *args, **kwargs)`` on every rank at once; the list of their results
        (``keep``: each rank's results stay on its worker, and the list of their counts comes
        back, under the returned token: ``(token, counts)``, rank p's results held under
        ``(rank_token(token, p), i)``: two ranks may share a worker)."""
        if self.closed:
            raise MeshError("semiring.dist mesh: closed")
        token = uuid.uuid4().hex
        with self._lock:
            drops, self._drops = self._drops, [[] for _ in range(self.nparts)]
            try:
                # every rank's command pickled first, then sent back to back: the ranks start
                # within a send of each other (a loop that waits for its peers each round, or
                # a kernel that meets its peer's, pays the skew)
                frames = [_frame(("call", rank_token(token, p), fn, tuple(args),
                                  dict(kwargs or {}), keep, drops[p], EXCHANGE),
                                 cloudpickle.dumps) for p in range(len(self.socks))]
                for s, f in zip(self.socks, frames):
                    _send_frame(s, f)
                replies = [_recv(s) for s in self.socks]
            except BaseException:
                self.close()
                raise
        errs = [r for r in replies if r[0] == "err"]
        if errs:
            # the first rank's own error (not a peer's 'a peer failed')
            first = next((r for r in errs if not isinstance(r[1], PeerError)), errs[0])
            self.close()
            raise first[1]
        outs = [r[1] for r in replies]
        return (token, outs) if keep else outs

    def drop(self, p, token, indices):
        """Forget results held by rank p (sent with the next command: no traffic now; a
        closed mesh's by a task on the worker, not awaited)."""
        if not self.closed:
            self._drops[p].extend((token, i) for i in indices)
            return
        L = self.layout
        try:
            import distributed  # noqa: PLC0415 (the optional extra: here when a mesh is)

            distributed.fire_and_forget(L.client.submit(
                _pop_held, [(token, i) for i in indices], workers=[L.workers[p]],
                allow_other_workers=False, pure=False))
        except Exception:  # noqa: BLE001 (the client or the worker is gone: so is what was held)
            pass

    def close(self):
        if self.closed:
            return
        self.closed = True
        for s in self.socks:
            try:
                _send(s, ("close",))
                s.close()
            except OSError:
                pass


def rank_token(token, p):
    """The token under which rank p holds the results of call ``token``."""
    return f"{token}.{p}"


def _pop_held(keys):
    """(Task.) Forget results held on this worker."""
    for k in keys:
        T.HELD.pop(k, None)
    return True


def _give_blocks(key, rank, blocks):
    RANKS[(key, rank)].blocks.update(blocks)
    return True


class RankDropper:
    """What :class:`core.Held`'s finalizer calls to drop a rank's untaken results."""

    def __init__(self, mesh, p):
        self.mesh, self.p = mesh, p

    def drop(self, token, indices):
        self.mesh.drop(self.p, token, indices)
