"""The two-GPU BFS of ``kernels/bfs_peer.cu`` (one persistent cooperative launch a GPU, the
two grids meeting over peer memory each level): its instantiations, its buffers on one GPU
and the launch. Used by :mod:`algorithms.dist._spmd`'s "peer" BFS levels, one
:class:`PeerSearch` on each of the two ranks (each a process with its own GPU); the ranks
exchange the shared buffer's CUDA IPC handle through the mesh
(:meth:`semiring.dist._mesh.Rank.peer_memory`), which opens the peer's.

Session 22's probe measured the design on 2 H200 (bench/results/session22/bfs_two_gpu_h200x2.md:
kron-24 strong 67 %, kron-25 75 %, weak 76-78 %, against 18 % / 25 % for the fused rank loop).
"""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy
from ...errors import BackendUnavailable
from .traversal import C_TYPES, GRID_THREADS, grid_function

#: NVRTC options of bfs_peer.cu's program (a probe may add ``-D`` overrides of its
#: SR_PEER_* switches: the options are part of the cache key).
PEER_OPTIONS = ("-std=c++17",)
#: Blocks a multiprocessor (at most the occupancy): session 22 measured 2 (0.539 ms on
#: kron-24) against 1 (0.740).
PEER_BLOCKS_PER_SM = 2
#: int64 words of a GPU's state; the first PEER_WORDS are zeroed before each launch (this
#: GPU's own), the rest (written by the peer: its arrival stamp, the abort word, the count
#: slots) only once, at allocation: the stamps rise across launches (BP_* in the kernel).
STATE_WORDS = 40
PEER_WORDS = 32
#: The state's words the host reads.
DEPTH, LEVELS, STATUS, PUSHES, PULLS, T0, T1, PHASES = 0, 1, 2, 3, 4, 16, 17, 18
#: The kernel's status codes (BP_ERR_*).
STATUS_TEXT = {1: "timed out at a cross-GPU barrier (the peer GPU's grid did not arrive)",
               2: "aborted by the peer GPU (it timed out or failed)",
               3: "a count slot held another phase's stamp (the two ranks' launches differ)",
               4: "a queue overflowed"}
#: Launch through a kept parameter block (:class:`semiring.backend.gpu.launch.KeptLaunch`,
#: as bfs_grid's kept search) instead of CuPy's launch, which wraps the 30 arguments anew
#: each call: session 23's call 4 measured the launch's host call at 70-85 µs of a 1.4 ms
#: Dask call (kron-24). Off until a 2-GPU run measures it (the CuPy launch is the one run).
PEER_KEPT_LAUNCH = False
#: The positions of the arguments a kept launch writes each call: the source, the launch id.
_SLOTS = (5, 25)
#: The most vertices: the packed counters' vertex field (28 bits; SR_GRID_EDGE_BITS = 36).
MAX_N = 2**28
#: Alignment of the pieces of the shared allocation (bytes).
_ALIGN = 256


def source() -> str:
    """The program: traverse.cu's helpers (bfs_grid's), then bfs_peer.cu."""
    return kernels.source("traverse.cu", "bfs_peer.cu")


def kernel_names():
    return [f"bfs_peer<{I}>" for I in ("int", "long long")]


@kernels.register("bfs_peer", options=lambda: PEER_OPTIONS, enable_cooperative_groups=True)
def instantiations():
    """The two-GPU BFS kernels, compiled as :func:`kernel` compiles them."""
    yield "bfs_peer", source(), kernel_names()


def _lookup(name: str):
    return kernels.function(("bfs_peer", PEER_OPTIONS), name, source, kernel_names,
                            options=PEER_OPTIONS, compile=False, enable_cooperative_groups=True)


def kernel(itype):
    """(kernel, blocks) of the index type's instantiation on the current device (every block
    resident at once: a cooperative launch). Raises BackendUnavailable where it cannot run."""
    name = f"bfs_peer<{C_TYPES[np.dtype(itype)]}>"
    return grid_function(name, "bfs (peer)", PEER_BLOCKS_PER_SM, lookup=_lookup)


def _up(x: int) -> int:
    return (x + _ALIGN - 1) // _ALIGN * _ALIGN


def shared_layout(n: int) -> dict:
    """Byte offsets of the buffers the peer writes into, in one allocation (one IPC handle):
    {name: (offset, bytes)} and '_total'. state (int64 STATE_WORDS), vis (fstride uint32),
    fb (3 fstride uint32), level (int32 n); fstride: ceil(n / 32) words rounded up to 32."""
    nwords = (n + 31) // 32
    fstride = (nwords + 31) // 32 * 32
    out, off = {}, 0
    for name, size in (("state", 8 * STATE_WORDS), ("vis", 4 * fstride),
                       ("fb", 12 * fstride), ("level", 4 * max(n, 1))):
        out[name] = (off, size)
        off = _up(off + size)
    out["_total"] = off
    out["_fstride"] = fstride
    return out


def split_word(n: int, cut: int) -> int:
    """The first bitmap word GPU 1 owns: the word boundary nearest ``cut`` (rank 1's first
    vertex), within [0, ceil(n / 32)]."""
    nwords = (n + 31) // 32
    return int(min(nwords, max(0, (cut + 16) // 32)))


def work_bytes(n: int, itype) -> int:
    """Device bytes of one GPU's search buffers beyond the graph: the shared allocation, the
    two queues and their offsets, the no-in-edge bitmap."""
    isize = np.dtype(itype).itemsize
    lay = shared_layout(n)
    return lay["_total"] + 2 * n * (isize + 8) + 4 * lay["_fstride"]


def noin_words(tindptr, fstride: int):
    """The bitmap (uint32 words, ``fstride`` of them) of the vertices without in-edges (Aᵀ's
    empty rows): the kernel marks them visited from the start, so that a pull skips them."""
    cp = _cupy()
    n = tindptr.size - 1
    pad = cp.zeros(fstride * 32, dtype=cp.uint32)
    pad[:n] = (tindptr[1:] == tindptr[:-1]).astype(cp.uint32)
    # bit v & 31 of word v >> 5 (the bits are disjoint: their sum is their OR)
    return (pad.reshape(fstride, 32) << cp.arange(32, dtype=cp.uint32)).sum(axis=1,
                                                                             dtype=cp.uint32)


class PeerSearch:
    """One GPU's side of the two-GPU search: the graph (A's CSR and Aᵀ's, the same arrays
    when symmetric), the search buffers, the shared allocation (``shared``: its pointer,
    a ``cudaMalloc`` base the peer opens by IPC) and, once :meth:`attach` is called, the
    peer's. ``me`` is this GPU's index (0 or 1), ``split`` the first word GPU 1 owns;
    ``launches``: the shared buffers' launch count (a one-item list), shared with any other
    search on the same buffers."""

    def __init__(self, indptr, indices, tindptr, tindices, n: int, me: int, split: int,
                 shared_ptr: int, launches=None):
        cp = _cupy()
        if me not in (0, 1):
            raise ValueError(f"bfs (peer): me must be 0 or 1, got {me!r}")
        self.n, self.me, self.split = int(n), me, int(split)
        self.indptr, self.indices, self.tindptr, self.tindices = indptr, indices, tindptr, tindices
        self.itype = np.dtype(indices.dtype)
        if np.dtype(indptr.dtype) != self.itype or np.dtype(tindices.dtype) != self.itype:
            raise ValueError(f"bfs (peer): the CSR arrays must share one index type, got "
                             f"{indptr.dtype}, {indices.dtype}, {tindptr.dtype}, {tindices.dtype}")
        nwords = (self.n + 31) // 32
        self.words = (0, self.split) if me == 0 else (self.split, nwords)
        self.layout = lay = shared_layout(self.n)
        self.fstride = lay["_fstride"]
        self.shared = int(shared_ptr)
        self.peer = None
        self.q = [cp.empty(max(self.n, 1), dtype=self.itype) for _ in range(2)]
        self.o = [cp.empty(max(self.n, 1), dtype=cp.int64) for _ in range(2)]
        self.noin = noin_words(tindptr, self.fstride)
        self.f, self.blocks = kernel(self.itype)
        #: the launch count of the shared buffers (a one-item list, shared by every search
        #: on them: the kernel's stamps must rise across all their launches, or a barrier
        #: could take an earlier launch's stamp for the peer's arrival)
        self.counter = [0] if launches is None else launches
        #: the state words of the last search (:meth:`finish`): levels, pushes, pulls, the
        #: device clock from the first cross barrier (T0) to the end (T1)
        self.last = None
        #: kept launches (:data:`PEER_KEPT_LAUNCH`) by (stream, alpha, beta, mode, timeouts)
        self._kept = {}

    def ptr(self, name: str, peer: bool = False) -> int:
        """The address of a shared buffer, this GPU's or (``peer``) the peer's."""
        base = self.peer if peer else self.shared
        return base + self.layout[name][0]

    def attach(self, peer_ptr: int):
        """The peer's shared allocation, opened in this process (IPC)."""
        self.peer = int(peer_ptr)

    def launch(self, source: int, *, alpha: int, beta: int, mode: int, timeout0_s: float,
               timeout_s: float, trace=None):
        """One search, launched on the current stream (both GPUs must launch with the same
        arguments, their launch counts equal). Returns nothing; :meth:`finish` reads the
        outcome."""
        cp = _cupy()
        from cupy_backends.cuda.api import driver, runtime  # noqa: PLC0415  (CuPy: GPU only)

        if self.peer is None:
            raise RuntimeError("bfs (peer): attach() the peer's buffers before a launch")
        self.counter[0] += 1
        stream = cp.cuda.get_current_stream()
        # this GPU's own state words only: the peer may still be writing its stamp into ours
        runtime.memsetAsync(self.ptr("state"), 0, PEER_WORDS * 8, stream.ptr)
        args = self.arguments(source, alpha=alpha, beta=beta, mode=mode,
                              timeout0_s=timeout0_s, timeout_s=timeout_s, trace=trace)
        try:
            if PEER_KEPT_LAUNCH and trace is None:
                key = (stream.ptr, alpha, beta, mode, timeout0_s, timeout_s)
                kept = self._kept.get(key)
                if kept is None:
                    from .launch import KeptLaunch  # noqa: PLC0415  (made on first use)

                    kept = self._kept[key] = KeptLaunch(
                        self.f.kernel.ptr, self.blocks, GRID_THREADS, stream.ptr, args,
                        slots=_SLOTS, cooperative=True, keep=(self.f, self.q, self.o),
                        driver=driver)
                kept.launch(int(source), self.counter[0])
            else:
                self.f((self.blocks,), (GRID_THREADS,), args)
        except driver.CUDADriverError as err:
            raise BackendUnavailable(f"bfs (peer): the cooperative launch failed: {err}") from err

    def arguments(self, source: int, *, alpha: int, beta: int, mode: int, timeout0_s: float,
                  timeout_s: float, trace=None) -> tuple:
        """The kernel's arguments for a search from ``source`` with the current launch id."""
        lo, hi = self.words
        return (self.indptr, self.indices, self.tindptr, self.tindices, np.int64(self.n),
                np.int64(source), np.int64(lo), np.int64(hi), np.uint64(self.ptr("level")),
                self.q[0], self.q[1], self.o[0], self.o[1], np.uint64(self.ptr("vis")),
                np.uint64(self.ptr("fb")), np.int64(self.fstride), self.noin,
                np.uint64(self.ptr("state")), np.uint64(self.ptr("level", True)),
                np.uint64(self.ptr("vis", True)), np.uint64(self.ptr("fb", True)),
                np.uint64(self.ptr("state", True)), np.int64(alpha), np.int64(beta),
                np.int32(mode), np.uint64(self.counter[0]), np.int64(int(timeout0_s * 1e9)),
                np.int64(int(timeout_s * 1e9)), np.uint64(0) if trace is None else trace,
                np.int64(0 if trace is None else (trace.size - 1) // 4))

    def finish(self):
        """The state words of the last search (a host read: waits for the kernel); raises
        RuntimeError with the kernel's reason where it failed."""
        cp = _cupy()
        cp.cuda.get_current_stream().synchronize()  # (cudaMemcpy orders only the null stream)
        st = np.empty(STATE_WORDS, dtype=np.int64)
        cp.cuda.runtime.memcpy(st.ctypes.data, self.ptr("state"), st.nbytes, 4)  # (Default)
        self.last = st
        code = int(st[STATUS])
        if code:
            raise RuntimeError(f"bfs (peer): GPU {self.me}'s search failed: "
                               f"{STATUS_TEXT.get(code, f'status {code}')}")
        return st

    def levels(self, lo: int, hi: int):
        """Levels (int64, -1 where unreached) of the vertices lo:hi, each from its owner's
        array (this GPU's or the peer's, read over peer memory)."""
        cp = _cupy()
        cut = min(self.n, 32 * self.split)  # GPU 0 owns [0, cut), GPU 1 [cut, n)
        out = cp.empty(hi - lo, dtype=cp.int32)
        stream = cp.cuda.get_current_stream().ptr
        for a, b, owner in ((lo, min(hi, cut), 0), (max(lo, cut), hi, 1)):
            if a < b:
                src = self.ptr("level", peer=owner != self.me) + 4 * a
                cp.cuda.runtime.memcpyAsync(out.data.ptr + 4 * (a - lo), src, 4 * (b - a), 4,
                                            stream)
        return out.astype(cp.int64)
