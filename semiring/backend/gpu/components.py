"""GPU weak components (``kernels/components.cu``): Afforest's launches, in order, with no host
sync until the labels are done. Called by :mod:`semiring.connectivity`, which validates."""

from __future__ import annotations

import numpy as np

from ... import kernels
from ...device import _cupy

#: C types of the index (and parent) arrays.
C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
#: Threads per block of the per-vertex and per-edge kernels.
THREADS = 256
#: Edges a thread of ``cc_link_rest`` takes (a block's tile: THREADS × ITEMS CSR positions).
ITEMS = 8
#: Threads of ``cc_frequent`` (SR_CC_SAMPLE_THREADS): the largest sample it takes.
SAMPLE_THREADS = 1024
#: Blocks per multiprocessor of the grid-stride per-vertex kernels (and of ``cc_link_heavy``).
BLOCKS_PER_SM = 8
#: The last pass with the skip: a vertex with at most this many edges left links them in its
#: own thread, one with more goes on the worklist of ``cc_link_heavy`` (a block a vertex).
INLINE_MAX = 32
#: How the linking kernels link (SR_CC_* in components.cu): ``"gap"`` (GAP's Link: climbs,
#: reads only), ``"split"`` (finds that split paths, ECL-CC's intermediate pointer jumping;
#: find again after a lost compare-and-swap) or ``"ecl"`` (ECL-CC's hooking: after a lost
#: compare-and-swap go on from its returned value). SAMPLE_LINK for the sampling rounds,
#: REST_LINK for the last pass; bench/probes/cc_probe.py times every pair. Measured (H100,
#: best of 5, ms, kron-22 / urand-22 of bench.generators; symmetric=True, then without the
#: promise): gap/gap 1.27 / 4.59, 2.14 / 4.37; ecl/gap 1.81 / 2.04, 2.95 / 3.07; ecl/split
#: 1.75 / 1.82, 5.45 / 5.84; split/gap 1.69 / 2.52, 2.84 / 3.51. GAP's Link is the fastest
#: on Kronecker graphs (kron-20: 0.54 against 1.8 ms) but climbs the long chains that the
#: second sampling round of a uniform random graph builds (5 ms in that one launch);
#: splitting finds in the sampling rounds bound that, and the full last pass (no skip) wants
#: GAP's reads-only climb (its finds' writes cost 2-3x there). The pair with the best worst
#: case on both graphs and both modes: ecl / gap.
LINKS = {"gap": 0, "split": 1, "ecl": 2}
SAMPLE_LINK = "ecl"
REST_LINK = "gap"
#: The seed of the frequent-root sample (fixed: the labels do not depend on it, only the work).
SEED = 0x5EED


def source() -> str:
    return kernels.source("components.cu")


def kernel_names():
    """Every instantiation of the components kernels."""
    names = []
    for I in C_TYPES.values():
        names += [f"cc_init<{I}>", f"cc_compress<{I}>", f"cc_compress_flag<{I}>",
                  f"cc_frequent<{I}>", f"cc_tile_rows<{I}>", f"cc_number<{I}>"]
        for L in LINKS.values():
            names += [f"cc_sample_link<{I}, {L}>", f"cc_link_rows<{I}, {L}>",
                      f"cc_link_heavy<{I}, {L}>", f"cc_link_rest<{I}, {ITEMS}, {L}>"]
    return names


@kernels.register("components")
def all_instantiations():
    yield "components", source(), kernel_names()


def function(name: str):
    return kernels.function(("components",), name, source, kernel_names)


def _grid(n: int) -> int:
    cp = _cupy()
    return max(1, min(-(-n // THREADS), kernels.num_sms(cp.cuda.Device().id) * BLOCKS_PER_SM))


def weak_components(A, skip: bool, neighbor_rounds: int, samples: int, roots: bool = False):
    """int32 labels of A's weak components, numbered by least vertex (A: n > 0); with
    ``roots``, each vertex's root (its component's least vertex: a link hooks the larger root
    under the smaller), int32 below 2**31 vertices."""
    cp = _cupy()
    n, nnz = A.nrows, A.nvals
    it = np.dtype(A.itype)
    I = C_TYPES[it]
    indptr, indices = A.indptr, A.indices
    comp = cp.empty(n, dtype=it)
    g = (_grid(n),)
    t = (THREADS,)
    n64 = np.int64(n)
    ls, lr = LINKS[SAMPLE_LINK], LINKS[REST_LINK]
    function(f"cc_init<{I}>")(g, t, (comp, n64))
    # the sampled subgraph: each vertex's r-th neighbour, r < k, then stars
    rounds = int(neighbor_rounds) if nnz else 0
    for r in range(rounds):
        function(f"cc_sample_link<{I}, {ls}>")(g, t, (indptr, indices, comp, n64, np.int64(r)))
        function(f"cc_compress<{I}>")(g, t, (comp, n64))
    if nnz and skip:
        # the most frequent root; the vertices outside its tree link their other edges
        frequent = cp.empty(1, dtype=it)
        function(f"cc_frequent<{I}>")((1,), (SAMPLE_THREADS,),
                                      (comp, n64, np.int32(samples), np.uint64(SEED), frequent))
        work = cp.empty(n, dtype=it)
        count = cp.zeros(1, dtype=cp.uint64)
        function(f"cc_link_rows<{I}, {lr}>")(g, t, (indptr, indices, comp, n64, np.int64(rounds),
                                              frequent, np.int64(INLINE_MAX), work, count))
        function(f"cc_link_heavy<{I}, {lr}>")((_grid(n * THREADS),), t,
                                        (indptr, indices, comp, np.int64(rounds), work, count))
    elif nnz:
        # every edge, in tiles of consecutive CSR positions
        tile = THREADS * ITEMS
        tiles = -(-nnz // tile)
        rows = cp.empty(tiles + 1, dtype=cp.int64)
        function(f"cc_tile_rows<{I}>")((_grid(tiles + 1),), t,
                                       (indptr, n64, np.int64(nnz), np.int64(tile),
                                        np.int64(tiles), rows))
        function(f"cc_link_rest<{I}, {ITEMS}, {lr}>")((tiles,), t, (indptr, indices, comp,
                                                              np.int64(nnz), np.int64(rounds),
                                                              rows))
    if roots:
        function(f"cc_compress<{I}>")(g, t, (comp, n64))
        return comp.astype(cp.int32, copy=False) if n < 2**31 else comp
    flag = cp.empty(n, dtype=cp.int32)
    function(f"cc_compress_flag<{I}>")(g, t, (comp, flag, n64))
    csum = cp.cumsum(flag, dtype=cp.int32)
    labels = flag  # flag is read by the cumsum only: its memory takes the labels
    function(f"cc_number<{I}>")(g, t, (comp, csum, labels, n64))
    return labels
